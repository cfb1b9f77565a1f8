//! `tcgen05.mma` in all its forms (PTX ISA 9.7.16.10.9).

use super::error::{OperandName, PtxDiagnostics, PtxError, PtxRule, RenderError};
use super::syntax::{mma_slot, KIND_TI16, MMA};
use super::{
    check_name, check_names, scale_input_d_on, ASource, BlockScale, Collector, CollectorOp,
    Context, Instruction, Value,
};
use crate::instruction_descriptor::scale_format::layout_word;
use crate::instruction_descriptor::{IdescError, InstructionDescriptor};
use crate::mma::ScaleVec;
use crate::mma::{CtaGroup, Kind, ScaleType};
use crate::shapes::{validate_mma, MmaConfig, MmaError};
use crate::targets::Target;
use crate::zero_column_mask::ZeroColumnMask;
use core::fmt;

/// `tcgen05.mma` in all its forms (PTX ISA 9.7.16.10.9): dense or `.sp`, activation-stationary
/// or `.ws`, every kind, with or without `.block_scale`, collector and `.ashift` qualifiers.
///
/// Written as
/// `tcgen05.mma{.ws}{.sp}.cta_group.kind{.block_scale{.scale_vec}}{.ashift}{.collector}
/// [d-tmem], a-desc|[a-tmem], b-desc, {[sp-meta-tmem],} idesc, {[scale-A-tmem], [scale-B-tmem],}
/// {disable-output-lane,} enable-input-d {, scale-input-d | , zero-column-mask-desc};`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mma<'a> {
    /// `.cta_group::1` or `::2`.
    pub cta_group: CtaGroup,
    /// `.kind`.
    pub kind: Kind,
    /// `.ws` (weight-stationary).
    pub ws: bool,
    /// `.sp`: the register holding the sparsity metadata's Tensor Memory address.
    pub sparse_metadata: Option<&'a str>,
    /// Register holding D's Tensor Memory address.
    pub d: &'a str,
    /// Matrix A's source.
    pub a: ASource<'a>,
    /// Register holding B's shared memory descriptor.
    pub b: &'a str,
    /// The instruction descriptor: a 32-bit register, or an immediate that is then checked.
    pub idesc: Value<'a, u32>,
    /// `.block_scale` with its scale vector and operands (block-scaled kinds only).
    pub block_scale: Option<BlockScale<'a>>,
    /// A collector-buffer qualifier.
    pub collector: Option<Collector>,
    /// `.ashift`.
    pub ashift: bool,
    /// `disable-output-lane`: 4 registers (`.cta_group::1`) or 8 (`::2`).
    pub disable_output_lane: Option<&'a [&'a str]>,
    /// `enable-input-d`: a predicate register or an immediate.
    pub enable_input_d: Value<'a, bool>,
    /// `scale-input-d`, 0 to 15 (`.kind::f16` / `.kind::tf32`).
    pub scale_input_d: Option<u8>,
    /// `zero-column-mask-desc` (`.ws` only): a 64-bit register or an immediate that is then
    /// checked.
    pub zero_column_mask: Option<Value<'a, u64>>,
    /// `.kind::ti16` (PTX ISA 9.4, `sm_107a` / `sm_107f`), written in place of [`Mma::kind`],
    /// which is then not read. Only its syntax is modelled: the text that defines its
    /// arithmetic and instruction descriptor (PTX ISA 9.4 §9.7.18.10) was not available, so an
    /// immediate instruction descriptor is not checked.
    pub ti16: bool,
    /// `.decompress::lut::b` with the register holding its lookup table's Tensor Memory address
    /// (`[lut-tmem]`, after `b-desc`; PTX ISA 9.4, `sm_107a` / `sm_107f`, `.kind::f8f6f4` and
    /// `.kind::mxf8f6f4` only).
    pub decompress_lut: Option<&'a str>,
    /// `.collector::b::op`, B's collector buffer without `.ws` (PTX ISA 9.4, `sm_107a` /
    /// `sm_107f`); it can stand beside a `.collector::a::*` [`Mma::collector`].
    pub collector_b: Option<CollectorOp>,
}

impl<'a> Mma<'a> {
    /// A dense, activation-stationary MMA without optional qualifiers or operands.
    #[must_use]
    pub const fn new(
        cta_group: CtaGroup,
        kind: Kind,
        d: &'a str,
        a: ASource<'a>,
        b: &'a str,
        idesc: Value<'a, u32>,
        enable_input_d: Value<'a, bool>,
    ) -> Self {
        Mma {
            cta_group,
            kind,
            ws: false,
            sparse_metadata: None,
            d,
            a,
            b,
            idesc,
            block_scale: None,
            collector: None,
            ashift: false,
            disable_output_lane: None,
            enable_input_d,
            scale_input_d: None,
            zero_column_mask: None,
            ti16: false,
            decompress_lut: None,
            collector_b: None,
        }
    }

    /// With `.kind::ti16` in place of the kind (PTX ISA 9.4).
    #[must_use]
    pub const fn with_ti16(mut self, ti16: bool) -> Self {
        self.ti16 = ti16;
        self
    }

    /// With `.decompress::lut::b` and the register holding its table's address (PTX ISA 9.4).
    #[must_use]
    pub const fn with_decompress_lut(mut self, lut: &'a str) -> Self {
        self.decompress_lut = Some(lut);
        self
    }

    /// With `.collector::b::op` (PTX ISA 9.4, not with `.ws`).
    #[must_use]
    pub const fn with_collector_b(mut self, op: CollectorOp) -> Self {
        self.collector_b = Some(op);
        self
    }

    /// The kind's name as written: `"ti16"` for `.kind::ti16`, else [`Kind::name`].
    #[must_use]
    pub const fn kind_name(&self) -> &'static str {
        if self.ti16 {
            "ti16"
        } else {
            self.kind.name()
        }
    }

    /// With `.ws`.
    #[must_use]
    pub const fn with_ws(mut self, ws: bool) -> Self {
        self.ws = ws;
        self
    }

    /// With `.sp` and the metadata's address register.
    #[must_use]
    pub const fn with_sparse(mut self, metadata: &'a str) -> Self {
        self.sparse_metadata = Some(metadata);
        self
    }

    /// With `.block_scale`.
    #[must_use]
    pub const fn with_block_scale(
        mut self,
        vec: ScaleVec,
        scale_a: &'a str,
        scale_b: &'a str,
    ) -> Self {
        self.block_scale = Some(BlockScale {
            vec,
            scale_a,
            scale_b,
        });
        self
    }

    /// With a collector qualifier.
    #[must_use]
    pub const fn with_collector(mut self, c: Collector) -> Self {
        self.collector = Some(c);
        self
    }

    /// With `.ashift`.
    #[must_use]
    pub const fn with_ashift(mut self, ashift: bool) -> Self {
        self.ashift = ashift;
        self
    }

    /// With `disable-output-lane`.
    #[must_use]
    pub const fn with_disable_output_lane(mut self, regs: &'a [&'a str]) -> Self {
        self.disable_output_lane = Some(regs);
        self
    }

    /// With `scale-input-d`.
    #[must_use]
    pub const fn with_scale_input_d(mut self, s: u8) -> Self {
        self.scale_input_d = Some(s);
        self
    }

    /// With `zero-column-mask-desc`.
    #[must_use]
    pub const fn with_zero_column_mask(mut self, z: Value<'a, u64>) -> Self {
        self.zero_column_mask = Some(z);
        self
    }

    /// The lowest PTX ISA version of the form, read from its grammar ([`super::syntax::MMA`]):
    /// 8.6, 8.7 for `.kind::mxf4nvf4`, 8.8 for `.block16` / `.block32`.
    #[must_use]
    pub const fn min_ptx_version(&self) -> u8 {
        Instruction::Mma(*self).min_ptx_version()
    }

    /// Every problem of the form on `ctx` (see the [module docs](crate::ptx)).
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        self.check_operand_names(&mut d);
        self.check_kind_on_target(ctx, &mut d);
        self.check_block_scale(ctx.target, &mut d);
        self.check_ws(&mut d);
        self.check_collectors(&mut d);
        self.check_ptx94(ctx.target, &mut d);
        self.check_ashift_and_lanes(&mut d);
        self.check_scale_input_d(ctx.target, &mut d);
        // `.kind::ti16`'s instruction descriptor is defined by text not read (PTX ISA 9.4
        // §9.7.18.4.2): an immediate one is not checked.
        if !self.ti16 {
            self.validate_immediates(ctx, &mut d);
        }
        d
    }

    /// True for a block-scaled kind (never `.kind::ti16`).
    const fn block_scaled(&self) -> bool {
        !self.ti16 && self.kind.is_block_scaled()
    }

    const fn check_operand_names(&self, d: &mut PtxDiagnostics) {
        check_name(self.d, OperandName::DTmem, 0, d);
        match self.a {
            ASource::Smem(r) => check_name(r, OperandName::ADesc, 0, d),
            ASource::Tmem(r) => check_name(r, OperandName::ATmem, 0, d),
        }
        check_name(self.b, OperandName::BDesc, 0, d);
        if let Some(m) = self.sparse_metadata {
            check_name(m, OperandName::SparseMetadata, 0, d);
        }
        if let Some(m) = self.decompress_lut {
            check_name(m, OperandName::LutTmem, 0, d);
        }
        if let Value::Reg(r) = self.idesc {
            check_name(r, OperandName::Idesc, 0, d);
        }
        if let Value::Reg(r) = self.enable_input_d {
            check_name(r, OperandName::EnableInputD, 0, d);
        }
        if let Some(Value::Reg(r)) = self.zero_column_mask {
            check_name(r, OperandName::ZeroColumnMask, 0, d);
        }
        if let Some(regs) = self.disable_output_lane {
            check_names(regs, OperandName::DisableOutputLane, d);
        }
        if let Some(bs) = self.block_scale {
            check_name(bs.scale_a, OperandName::ScaleA, 0, d);
            check_name(bs.scale_b, OperandName::ScaleB, 0, d);
        }
    }

    const fn check_kind_on_target(&self, ctx: &Context, d: &mut PtxDiagnostics) {
        let target = ctx.target;
        if !self.ti16 && matches!(self.kind, Kind::I8) && !target.supports_kind_i8() {
            d.push(PtxError::named(PtxRule::KindNotOnTarget, target.name()));
        }
        if !self.ti16
            && self.sparse_metadata.is_some()
            && matches!(self.kind, Kind::Mxf4 | Kind::Mxf4nvf4)
            && !target.supports_sparse_mxf4()
        {
            d.push(PtxError::named(PtxRule::SparseNotOnTarget, target.name()));
        }
        // The target's own minimum is reported by `ctx.validate()`; a form is named only
        // where it needs more than that.
        if self.min_ptx_version() > target.min_ptx_version() {
            ctx.check_version(self.min_ptx_version(), self.version_feature(), d);
        }
    }

    const fn check_block_scale(&self, target: Target, d: &mut PtxDiagnostics) {
        let block_scaled = self.block_scaled();
        let Some(bs) = self.block_scale else {
            if block_scaled {
                d.push(PtxError::named(
                    PtxRule::BlockScaleMissing,
                    self.kind.name(),
                ));
            }
            return;
        };
        let kind = self.kind;
        if !block_scaled {
            d.push(PtxError::named(
                PtxRule::BlockScaleNotForKind,
                self.kind_name(),
            ));
        } else if matches!(bs.vec, ScaleVec::Default) && matches!(kind, Kind::Mxf4nvf4) {
            d.push(PtxError::rule(PtxRule::ScaleVecRequired, 0));
        } else if !bs.vec.allowed_for(kind) {
            d.push(PtxError::named(PtxRule::ScaleVecNotForKind, bs.vec.name()));
        }
        if matches!(bs.vec, ScaleVec::X1 | ScaleVec::X2 | ScaleVec::X4)
            && !target.is_arch_specific()
        {
            d.push(PtxError::named(PtxRule::ScaleVecNotOnTarget, target.name()));
        }
    }

    const fn check_ws(&self, d: &mut PtxDiagnostics) {
        if !self.ws {
            if self.zero_column_mask.is_some() {
                d.push(PtxError::rule(PtxRule::ZeroColumnMaskWithoutWs, 0));
            }
            return;
        }
        if matches!(self.cta_group, CtaGroup::Two) {
            d.push(PtxError::rule(PtxRule::WsCtaGroup, 2));
        }
        if self.block_scaled() {
            d.push(PtxError::named(PtxRule::WsBlockScaled, self.kind.name()));
        }
        if self.ashift {
            d.push(PtxError::rule(PtxRule::WsAshift, 1));
        }
        if let Some(regs) = self.disable_output_lane {
            d.push(PtxError::rule(
                PtxRule::WsDisableOutputLane,
                regs.len() as u64,
            ));
        }
        if let Some(s) = self.scale_input_d {
            d.push(PtxError::rule(PtxRule::WsScaleInputD, s as u64));
        }
    }

    const fn check_collectors(&self, d: &mut PtxDiagnostics) {
        match self.collector {
            Some(Collector::A(op)) => {
                if self.ws {
                    d.push(PtxError::named(PtxRule::CollectorAWithWs, op.name()));
                }
                if self.ashift && matches!(op, CollectorOp::Fill | CollectorOp::Use) {
                    d.push(PtxError::named(PtxRule::AshiftCollector, op.name()));
                }
            }
            Some(Collector::B(n, _)) => {
                if n > 3 {
                    d.push(PtxError::rule(PtxRule::CollectorBIndex, n as u64));
                }
                if !self.ws {
                    d.push(PtxError::rule(PtxRule::CollectorBWithoutWs, n as u64));
                }
            }
            None => {}
        }
    }

    /// The rules of the PTX ISA 9.4 qualifiers: `.kind::ti16`, `.decompress::lut::b` and
    /// `.collector::b::*` exist on `sm_107a` / `sm_107f` only (PTX ISA 9.4 Table 72);
    /// `.decompress::lut::b` goes with `.kind::f8f6f4` / `.kind::mxf8f6f4` and neither `.sp`,
    /// `.ws` nor `.ashift`; `.collector::b::*` not with `.ws` (ptxas 13.5, docs/ptx-9.5.md).
    const fn check_ptx94(&self, target: Target, d: &mut PtxDiagnostics) {
        let on = target.supports_sm107_forms();
        if self.ti16 && !on {
            d.push(PtxError::named(PtxRule::Sm107NotOnTarget, ".kind::ti16"));
        }
        if self.decompress_lut.is_some() {
            if !on {
                d.push(PtxError::named(
                    PtxRule::Sm107NotOnTarget,
                    ".decompress::lut::b",
                ));
            }
            if self.ti16 || !matches!(self.kind, Kind::F8f6f4 | Kind::Mxf8f6f4) {
                d.push(PtxError::named(PtxRule::DecompressKind, self.kind_name()));
            }
            if self.sparse_metadata.is_some() {
                d.push(PtxError::named(PtxRule::DecompressForm, ".sp"));
            }
            if self.ws {
                d.push(PtxError::named(PtxRule::DecompressForm, ".ws"));
            }
            if self.ashift {
                d.push(PtxError::named(PtxRule::DecompressForm, ".ashift"));
            }
        }
        if let Some(op) = self.collector_b {
            if !on {
                d.push(PtxError::named(
                    PtxRule::Sm107NotOnTarget,
                    collector_b_spelling(op),
                ));
            }
            if self.ws {
                d.push(PtxError::named(PtxRule::CollectorBWithWs, op.name()));
            }
        }
    }

    const fn check_ashift_and_lanes(&self, d: &mut PtxDiagnostics) {
        let block_scaled = self.block_scaled();
        if self.ashift && !self.ws {
            if matches!(self.a, ASource::Smem(_)) {
                d.push(PtxError::rule(PtxRule::AshiftNeedsATmem, 1));
            }
            if block_scaled {
                d.push(PtxError::named(
                    PtxRule::AshiftBlockScaled,
                    self.kind.name(),
                ));
            }
        }
        let Some(regs) = self.disable_output_lane else {
            return;
        };
        if block_scaled {
            d.push(PtxError::named(
                PtxRule::DisableOutputLaneBlockScaled,
                self.kind.name(),
            ));
        }
        let want = match self.cta_group {
            CtaGroup::One => 4,
            CtaGroup::Two => 8,
        };
        if regs.len() != want {
            d.push(PtxError::rule(
                PtxRule::DisableOutputLaneLength,
                regs.len() as u64,
            ));
        }
    }

    const fn check_scale_input_d(&self, target: Target, d: &mut PtxDiagnostics) {
        let Some(s) = self.scale_input_d else {
            return;
        };
        let kind = self.kind;
        if s > 15 {
            d.push(PtxError::rule(PtxRule::ScaleInputDRange, s as u64));
        }
        if self.ti16 {
            d.push(PtxError::named(PtxRule::ScaleInputDKind, "ti16"));
        } else if matches!(kind, Kind::I8) {
            // ptxas 13.5 lets scale-input-d with .kind::i8 through except in the form that
            // also has .sp and disable-output-lane (measured by conformance/ptxas).
            let rule = if self.sparse_metadata.is_some() && self.disable_output_lane.is_some() {
                PtxRule::ScaleInputDKind
            } else {
                PtxRule::ScaleInputDI8
            };
            d.push(PtxError::named(rule, kind.name()));
        } else if !matches!(kind, Kind::F16 | Kind::Tf32) {
            d.push(PtxError::named(PtxRule::ScaleInputDKind, kind.name()));
        }
        if !scale_input_d_on(target) {
            d.push(PtxError::named(
                PtxRule::ScaleInputDNotOnTarget,
                target.name(),
            ));
        }
    }

    /// The qualifier that needs [`Mma::min_ptx_version`], as messages name it.
    const fn version_feature(&self) -> &'static str {
        let s = Instruction::Mma(*self).spell();
        let (_, slot, v) = MMA.min_version(&s);
        match slot {
            mma_slot::SCALE_VEC => ScaleVec::ALL[v as usize + 1].name(),
            mma_slot::KIND if v == KIND_TI16 => ".kind::ti16",
            // `.kind::mxf4nvf4` is the other kind introduced after 8.6.
            mma_slot::KIND => ".kind::mxf4nvf4",
            mma_slot::DECOMPRESS => ".decompress::lut::b",
            mma_slot::COLLECTOR_B => collector_b_spelling(CollectorOp::ALL[v as usize & 3]),
            _ => "tcgen05.mma",
        }
    }

    const fn validate_immediates(&self, ctx: &Context, d: &mut PtxDiagnostics) {
        let Value::Imm(bits) = self.idesc else {
            // Without the descriptor's value only the zero-column mask's own bits can be
            // checked.
            if let Some(Value::Imm(z)) = self.zero_column_mask {
                let dec = ZeroColumnMask::decode(z);
                push_zmask(&dec.diagnostics, d);
            }
            return;
        };
        // On sm_107a / sm_107f bits 23-24 are the scale format, and UE5M3 is read by UE4M3's
        // rules (rulings D7, D9); elsewhere the word is read by Tables 43-44 as written.
        // There, code 3 (or UE5M3 with another kind) is reported as the two-bit field's error
        // in place of Tables 43-44's reserved bit 24.
        let two_bit = MmaError::scale_format(bits, self.kind, ctx.target);
        if let Some(e) = two_bit {
            d.push(PtxError::Idesc(e));
        }
        let bits = layout_word(bits, self.kind, ctx.target);
        let dec = InstructionDescriptor::decode(bits, self.kind);
        let Some(fields) = dec.fields else {
            let mut i = 0;
            while i < dec.diagnostics.len() {
                if let Some(e) = dec.diagnostics.get(i) {
                    if !(two_bit.is_some() && is_bit_24(e)) {
                        d.push(PtxError::Idesc(MmaError::Idesc(e)));
                    }
                }
                i += 1;
            }
            return;
        };
        // Reserved bits are not part of the fields: report them from the decode.
        let mut i = 0;
        while i < dec.diagnostics.len() {
            if let Some(e) = dec.diagnostics.get(i) {
                if matches!(e, IdescError::ReservedBit { .. })
                    && !(two_bit.is_some() && is_bit_24(e))
                {
                    d.push(PtxError::Idesc(MmaError::Idesc(e)));
                }
            }
            i += 1;
        }
        let cfg = MmaConfig {
            idesc: fields,
            cta_group: self.cta_group,
            ws: self.ws,
            target: ctx.target,
            a_swizzle: None,
            b_swizzle: None,
        };
        let problems = validate_mma(&cfg);
        let mut i = 0;
        while i < problems.len() {
            if let Some(e) = problems.get(i) {
                // The target rules of the kind are reported once, as syntax rules, above;
                // where bits 23-24 do not decode on the sm_107 family, bit 23 alone is not the
                // scale type.
                let skip = match e {
                    MmaError::KindNotOnTarget { .. } | MmaError::SparseNotOnTarget { .. } => true,
                    MmaError::Idesc(IdescError::ScaleTypeNotForKind { .. }) => two_bit.is_some(),
                    _ => false,
                };
                if !skip {
                    d.push(PtxError::Idesc(e));
                }
            }
            i += 1;
        }
        if fields.sparse != self.sparse_metadata.is_some() {
            d.push(PtxError::rule(
                PtxRule::SparseMismatch,
                fields.sparse as u64,
            ));
        }
        if self.ashift && fields.m != 128 && fields.m != 256 {
            d.push(PtxError::rule(PtxRule::AshiftM, fields.m as u64));
        }
        if let Some(bs) = self.block_scale {
            if self.kind.is_block_scaled() && !bs.vec.is_16_elements() {
                if let Some(ScaleType::Ue4m3) = fields.scale_type {
                    d.push(PtxError::named(PtxRule::ScaleTypeForScaleVec, "ue4m3"));
                }
            }
            // 16-element blocks: ID 0 with K = 64/128 (4X); with K = 96 6X, IDs 0 or 2
            // (rulings T3, D10), which the descriptor alone checks only for UE4M3 scales.
            if bs.vec.is_16_elements() {
                let allowed = if fields.k96 { 0b0101 } else { 0b0001 };
                if (allowed >> fields.sfa_id) & 1 == 0 {
                    d.push(PtxError::rule(
                        PtxRule::ScaleFactorIdForScaleVec,
                        fields.sfa_id as u64,
                    ));
                }
                if (allowed >> fields.sfb_id) & 1 == 0 {
                    d.push(PtxError::rule(
                        PtxRule::ScaleFactorIdForScaleVec,
                        fields.sfb_id as u64,
                    ));
                }
            }
        }
        if let Some(Value::Imm(z)) = self.zero_column_mask {
            if self.ws {
                let dec = ZeroColumnMask::decode_for(z, fields.m, fields.n, Some(fields.max_shift));
                push_zmask(&dec.diagnostics, d);
            }
        }
    }

    /// Writes the instruction without checking it (for tests of what ptxas makes of a form
    /// that breaks a rule). Use [`Mma::render`] otherwise.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Mma(*self).write_unchecked(w)
    }

    /// Validates the form on `ctx`, then writes it.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem, or [`RenderError::Fmt`].
    #[allow(clippy::result_large_err)]
    pub fn render<W: fmt::Write>(&self, ctx: &Context, w: &mut W) -> Result<(), RenderError> {
        Instruction::Mma(*self).render(ctx, w)
    }
}

/// Reserved bit 24 of Tables 43-44, the upper scale-format bit on the `sm_107` family.
const fn is_bit_24(e: IdescError) -> bool {
    matches!(e, IdescError::ReservedBit { bit: 24, .. })
}

/// `.collector::b::op` as written.
const fn collector_b_spelling(op: CollectorOp) -> &'static str {
    match op {
        CollectorOp::Fill => ".collector::b::fill",
        CollectorOp::Use => ".collector::b::use",
        CollectorOp::Lastuse => ".collector::b::lastuse",
        CollectorOp::Discard => ".collector::b::discard",
    }
}

const fn push_zmask(z: &crate::zero_column_mask::ZmaskDiagnostics, d: &mut PtxDiagnostics) {
    let mut i = 0;
    while i < z.len() {
        if let Some(e) = z.get(i) {
            d.push(PtxError::Zmask(e));
        }
        i += 1;
    }
}
