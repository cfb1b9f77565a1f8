//! `tcgen05.mma` in all its forms (PTX ISA 9.7.16.10.9).

use super::error::{OperandName, PtxDiagnostics, PtxError, PtxRule, RenderError};
use super::syntax::{mma_slot, MMA};
use super::{
    check_name, check_names, scale_input_d_on, ASource, BlockScale, Collector, CollectorOp,
    Context, Instruction, Value,
};
use crate::instruction_descriptor::{IdescError, InstructionDescriptor};
use crate::mma::ScaleVec;
use crate::mma::{CtaGroup, Kind, ScaleType};
use crate::shapes::{validate_mma, MmaConfig, MmaError};
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
        let target = ctx.target;
        let kind = self.kind;
        let block_scaled = kind.is_block_scaled();
        // Operand names.
        check_name(self.d, OperandName::DTmem, 0, &mut d);
        let a_tmem = match self.a {
            ASource::Smem(r) => {
                check_name(r, OperandName::ADesc, 0, &mut d);
                false
            }
            ASource::Tmem(r) => {
                check_name(r, OperandName::ATmem, 0, &mut d);
                true
            }
        };
        check_name(self.b, OperandName::BDesc, 0, &mut d);
        if let Some(m) = self.sparse_metadata {
            check_name(m, OperandName::SparseMetadata, 0, &mut d);
        }
        if let Value::Reg(r) = self.idesc {
            check_name(r, OperandName::Idesc, 0, &mut d);
        }
        if let Value::Reg(r) = self.enable_input_d {
            check_name(r, OperandName::EnableInputD, 0, &mut d);
        }
        if let Some(Value::Reg(r)) = self.zero_column_mask {
            check_name(r, OperandName::ZeroColumnMask, 0, &mut d);
        }
        if let Some(regs) = self.disable_output_lane {
            check_names(regs, OperandName::DisableOutputLane, &mut d);
        }
        // Kind and target.
        if matches!(kind, Kind::I8) && !target.supports_kind_i8() {
            d.push(PtxError::named(PtxRule::KindNotOnTarget, target.name()));
        }
        if self.sparse_metadata.is_some()
            && matches!(kind, Kind::Mxf4 | Kind::Mxf4nvf4)
            && !target.supports_sparse_mxf4()
        {
            d.push(PtxError::named(PtxRule::SparseNotOnTarget, target.name()));
        }
        // The target's own minimum is reported by `ctx.validate()`; a form is named only
        // where it needs more than that.
        if self.min_ptx_version() > target.min_ptx_version() {
            ctx.check_version(self.min_ptx_version(), self.version_feature(), &mut d);
        }
        // Block scaling.
        match self.block_scale {
            None => {
                if block_scaled {
                    d.push(PtxError::named(PtxRule::BlockScaleMissing, kind.name()));
                }
            }
            Some(bs) => {
                check_name(bs.scale_a, OperandName::ScaleA, 0, &mut d);
                check_name(bs.scale_b, OperandName::ScaleB, 0, &mut d);
                if !block_scaled {
                    d.push(PtxError::named(PtxRule::BlockScaleNotForKind, kind.name()));
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
        }
        // .ws
        if self.ws {
            if matches!(self.cta_group, CtaGroup::Two) {
                d.push(PtxError::rule(PtxRule::WsCtaGroup, 2));
            }
            if block_scaled {
                d.push(PtxError::named(PtxRule::WsBlockScaled, kind.name()));
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
        } else if self.zero_column_mask.is_some() {
            d.push(PtxError::rule(PtxRule::ZeroColumnMaskWithoutWs, 0));
        }
        // Collectors.
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
        // .ashift
        if self.ashift && !self.ws {
            if !a_tmem {
                d.push(PtxError::rule(PtxRule::AshiftNeedsATmem, 1));
            }
            if block_scaled {
                d.push(PtxError::named(PtxRule::AshiftBlockScaled, kind.name()));
            }
        }
        // disable-output-lane
        if let Some(regs) = self.disable_output_lane {
            if block_scaled {
                d.push(PtxError::named(
                    PtxRule::DisableOutputLaneBlockScaled,
                    kind.name(),
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
        // scale-input-d
        if let Some(s) = self.scale_input_d {
            if s > 15 {
                d.push(PtxError::rule(PtxRule::ScaleInputDRange, s as u64));
            }
            if matches!(kind, Kind::I8) {
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
        // Descriptor values given as immediates.
        self.validate_immediates(ctx, &mut d);
        d
    }

    /// The qualifier that needs [`Mma::min_ptx_version`], as messages name it.
    const fn version_feature(&self) -> &'static str {
        let s = Instruction::Mma(*self).spell();
        let (_, slot, v) = MMA.min_version(&s);
        match slot {
            mma_slot::SCALE_VEC => ScaleVec::ALL[v as usize + 1].name(),
            // `.kind::mxf4nvf4` is the one kind introduced after 8.6.
            mma_slot::KIND => ".kind::mxf4nvf4",
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
        let dec = InstructionDescriptor::decode(bits, self.kind);
        let Some(fields) = dec.fields else {
            let mut i = 0;
            while i < dec.diagnostics.len() {
                if let Some(e) = dec.diagnostics.get(i) {
                    d.push(PtxError::Idesc(MmaError::Idesc(e)));
                }
                i += 1;
            }
            return;
        };
        // Reserved bits are not part of the fields: report them from the decode.
        let mut i = 0;
        while i < dec.diagnostics.len() {
            if let Some(e) = dec.diagnostics.get(i) {
                if matches!(e, IdescError::ReservedBit { .. }) {
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
                // The target rules of the kind are reported once, as syntax rules, above.
                if !matches!(
                    e,
                    MmaError::KindNotOnTarget { .. } | MmaError::SparseNotOnTarget { .. }
                ) {
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
            // K = 96 `.block16` is 6X, whose IDs 0 and 2 the instruction descriptor checks
            // (ruling T3).
            if bs.vec.is_16_elements() && !fields.k96 {
                if fields.sfa_id != 0 {
                    d.push(PtxError::rule(
                        PtxRule::ScaleFactorIdForScaleVec,
                        fields.sfa_id as u64,
                    ));
                }
                if fields.sfb_id != 0 {
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

const fn push_zmask(z: &crate::zero_column_mask::ZmaskDiagnostics, d: &mut PtxDiagnostics) {
    let mut i = 0;
    while i < z.len() {
        if let Some(e) = z.get(i) {
            d.push(PtxError::Zmask(e));
        }
        i += 1;
    }
}
