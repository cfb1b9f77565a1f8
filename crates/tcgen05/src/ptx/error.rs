//! Why a form is refused: [`PtxError`] and the rule it breaks ([`PtxRule`]), and
//! [`RenderError`].

use crate::diagnostic::Rule;
use crate::diagnostic::{Diagnostic, Diagnostics, Severity, Source};
use crate::shapes::MmaError;
use crate::shared_memory_descriptor::SmemError;
use crate::tensor_memory::{TmemError, TMEM_COLUMNS};
use crate::zero_column_mask::ZmaskError;
use core::fmt;

/// An operand of a tcgen05 instruction, as errors name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandName {
    /// `[d-tmem]` of `tcgen05.mma`.
    DTmem,
    /// `a-desc` of `tcgen05.mma`.
    ADesc,
    /// `[a-tmem]` of `tcgen05.mma`.
    ATmem,
    /// `b-desc` of `tcgen05.mma`.
    BDesc,
    /// `[sp-meta-tmem]` of `tcgen05.mma.sp`.
    SparseMetadata,
    /// `idesc` of `tcgen05.mma`.
    Idesc,
    /// `[scale-A-tmem]`.
    ScaleA,
    /// `[scale-B-tmem]`.
    ScaleB,
    /// An element of `disable-output-lane`.
    DisableOutputLane,
    /// `enable-input-d`.
    EnableInputD,
    /// `zero-column-mask-desc`.
    ZeroColumnMask,
    /// `[taddr]` of ld, st, cp, shift, or `taddr` of dealloc.
    Taddr,
    /// An element of the register vector of ld / st.
    Registers,
    /// `redval` of `tcgen05.ld.red`.
    Redval,
    /// `s-desc` of `tcgen05.cp`.
    Sdesc,
    /// `[dst]` of `tcgen05.alloc`.
    Dst,
    /// `nCols` of alloc / dealloc.
    NCols,
    /// `[mbar]` of `tcgen05.commit`.
    Mbar,
    /// `ctaMask` of `tcgen05.commit`.
    CtaMask,
    /// `[lut-tmem]` of `tcgen05.mma.decompress::lut::b` (PTX ISA 9.4).
    LutTmem,
}

impl OperandName {
    /// The snake_case name used as the error's field.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OperandName::DTmem => "d_tmem",
            OperandName::ADesc => "a_desc",
            OperandName::ATmem => "a_tmem",
            OperandName::BDesc => "b_desc",
            OperandName::SparseMetadata => "sparse_metadata",
            OperandName::Idesc => "idesc",
            OperandName::ScaleA => "scale_a",
            OperandName::ScaleB => "scale_b",
            OperandName::DisableOutputLane => "disable_output_lane",
            OperandName::EnableInputD => "enable_input_d",
            OperandName::ZeroColumnMask => "zero_column_mask",
            OperandName::Taddr => "taddr",
            OperandName::Registers => "registers",
            OperandName::Redval => "redval",
            OperandName::Sdesc => "sdesc",
            OperandName::Dst => "dst",
            OperandName::NCols => "n_cols",
            OperandName::Mbar => "mbar",
            OperandName::CtaMask => "cta_mask",
            OperandName::LutTmem => "lut_tmem",
        }
    }
}

/// A rule of the PTX syntax of a tcgen05 instruction that a form breaks.
///
/// Each rule names its field ([`PtxRule::field`]), its source ([`PtxRule::source`]) and whether
/// ptxas 13.5.37 refuses the form too ([`PtxRule::ptxas_checks`], measured by
/// `conformance/ptxas`), all read from its one row ([`PtxRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PtxRule {
    /// A register or variable name that is not a PTX identifier (PTX ISA 4.4: a letter, or one
    /// of `_ $ %` followed by at least one more character; then letters, digits, `_`, `$`) nor a
    /// Rust inline-assembly placeholder `{name}` ([`is_operand_name`](super::is_operand_name)).
    /// The value is the element's index for vectors, else 0.
    RegisterName(OperandName),
    /// The same register twice among the destinations of `tcgen05.ld` (and its `redval`)
    /// (PTX ISA 9.7.16.8.3). The value is the index of the second occurrence.
    DuplicateRegister,
    /// A block-scaled kind (`mxf8f6f4`, `mxf4`, `mxf4nvf4`) without `.block_scale` and its
    /// scale operands (PTX ISA 9.7.16.10.9.1).
    BlockScaleMissing,
    /// `.block_scale` with a kind that is not block-scaled (PTX ISA 9.7.16.10.9.1).
    BlockScaleNotForKind,
    /// A scale-vector qualifier the kind does not take (PTX ISA 9.7.16.10.7.1, Tables 56-57).
    ScaleVecNotForKind,
    /// `.kind::mxf4nvf4` must state its scale vector (PTX ISA 9.7.16.10.7.1).
    ScaleVecRequired,
    /// `.scale_vec::NX` exists only on the `a` targets (PTX ISA 9.7.16.10.9.1 target notes);
    /// family targets spell it `.block16` / `.block32`.
    ScaleVecNotOnTarget,
    /// UE4M3 scale factors need `.scale_vec::4X` or `.block16` (rules.md R12; PTX ISA
    /// 9.7.16.10.7.1). Seen only in an immediate instruction descriptor.
    ScaleTypeForScaleVec,
    /// With `.scale_vec::4X` / `.block16` the scale-factor IDs must be 0 (rules.md R13).
    /// Seen only in an immediate instruction descriptor.
    ScaleFactorIdForScaleVec,
    /// `.ws` takes only `.cta_group::1` (rules.md R16; PTX ISA 9.7.16.10.9.3).
    WsCtaGroup,
    /// `.ws` is not for the block-scaled kinds (rules.md R16).
    WsBlockScaled,
    /// `.ashift` is not a `.ws` qualifier (PTX ISA 9.7.16.10.9.3).
    WsAshift,
    /// `disable-output-lane` is not a `.ws` operand (PTX ISA 9.7.16.10.9.3).
    WsDisableOutputLane,
    /// `scale-input-d` is not a `.ws` operand (PTX ISA 9.7.16.10.9.3).
    WsScaleInputD,
    /// `.collector::a::*` is not a `.ws` qualifier: `.ws` uses `.collector::b0..b3`
    /// (PTX ISA 9.7.16.10.9.3).
    CollectorAWithWs,
    /// `.collector::bN::*` is a `.ws` qualifier only (PTX ISA 9.7.16.10.9.1).
    CollectorBWithoutWs,
    /// `.collector::bN` with N above 3 (PTX ISA 9.7.16.10.9.3). The value is N.
    CollectorBIndex,
    /// `.ashift` needs A in Tensor Memory (PTX ISA 9.7.16.10.9.1).
    AshiftNeedsATmem,
    /// `.ashift` cannot be combined with `.collector::a::fill` or `::use` (PTX ISA
    /// 9.7.16.10.9.1).
    AshiftCollector,
    /// `.ashift` is not a qualifier of the block-scaled forms (PTX ISA 9.7.16.10.9.1).
    AshiftBlockScaled,
    /// `.ashift` needs M = 128 or 256 (PTX ISA 9.7.16.10.9.1). Seen only in an immediate
    /// instruction descriptor. The value is M.
    AshiftM,
    /// `disable-output-lane` has 4 registers with `.cta_group::1` and 8 with `::2` (PTX ISA
    /// 9.7.16.10.9.1). The value is the length given.
    DisableOutputLaneLength,
    /// `disable-output-lane` is not an operand of the block-scaled forms (PTX ISA
    /// 9.7.16.10.9.1).
    DisableOutputLaneBlockScaled,
    /// `scale-input-d` is an immediate from 0 to 15 (PTX ISA 9.7.16.10.9.1). The value is the
    /// one given.
    ScaleInputDRange,
    /// `scale-input-d` is only for `.kind::f16` and `.kind::tf32` (PTX ISA 9.7.16.10.9.1).
    ScaleInputDKind,
    /// `scale-input-d` with `.kind::i8`: the PTX text allows it only for `.kind::f16` and
    /// `.kind::tf32` (PTX ISA 9.7.16.10.9.1); ptxas 13.5 accepts it (except with both `.sp` and
    /// `disable-output-lane`, reported as [`PtxRule::ScaleInputDKind`]).
    ScaleInputDI8,
    /// `scale-input-d` is not available on `sm_110a` / `sm_110f` (PTX ISA 9.7.16.10.9.1
    /// target notes: `sm_100a`, and `sm_100f` family targets).
    ScaleInputDNotOnTarget,
    /// `zero-column-mask-desc` is a `.ws` operand only (PTX ISA 9.7.16.10.9.3).
    ZeroColumnMaskWithoutWs,
    /// `.kind::i8` only on `sm_100a` and `sm_110a` (rules.md R17).
    KindNotOnTarget,
    /// Sparse `.kind::mxf4` / `.kind::mxf4nvf4` only on the `a` targets (rules.md R17).
    SparseNotOnTarget,
    /// The immediate instruction descriptor's sparsity bit disagrees with `.sp` (PTX ISA
    /// 9.7.16.4.2, Tables 42-44). The value is the bit.
    SparseMismatch,
    /// `tcgen05.ld` / `.st` register vector of the wrong length (Tables 49-50). The value is
    /// the length given.
    RegisterCount,
    /// `.16x32bx2` needs its `immHalfSplitoff` operand (PTX ISA 9.7.16.8.3).
    OffsetMissing,
    /// Only `.16x32bx2` takes an `immHalfSplitoff` operand (PTX ISA 9.7.16.8.3).
    OffsetNotForShape,
    /// `immHalfSplitoff` of 512 or more columns points outside Tensor Memory (rules.md
    /// R24). The value is the offset.
    OffsetOutOfRange,
    /// `tcgen05.ld.red` exists on `sm_103a`, `sm_103f`, `sm_107a`, `sm_107f`, `sm_110a`,
    /// `sm_110f` only (PTX ISA 9.7.16.8.3 target notes; PTX ISA 9.4 Table 72).
    RedNotOnTarget,
    /// `tcgen05.ld.red` takes only `.32x32b` and `.16x32bx2` (PTX ISA 9.7.16.8.3).
    RedShape,
    /// `tcgen05.ld.red` needs `.num` of `.x2` or more (PTX ISA 9.7.16.8.3). The value is the
    /// count.
    RedNum,
    /// `tcgen05.ld.red` takes no `.pack::16b` (PTX ISA 9.7.16.8.3).
    RedPack,
    /// `.abs` and `.NaN` are only for `.f32` reductions (PTX ISA 9.7.16.8.3).
    RedAbsNaNType,
    /// `tcgen05.shift` exists on the `a` targets only (PTX ISA 9.7.16.9.3).
    ShiftNotOnTarget,
    /// All tcgen05 instructions of a kernel must use the same `.cta_group` (PTX ISA
    /// 9.7.16.10.9.1, clarified in PTX ISA 9.0). The value is the second group's count.
    CtaGroupMixed,
    /// The PTX ISA version is below what the target or a feature needs (`sm_100a` 8.6,
    /// `.kind::mxf4nvf4` 8.7, `sm_103*` / `sm_100f` / `.block16` / `.block32` /
    /// `tcgen05.ld.red` 8.8, `sm_110*` 9.0; PTX ISA 9.7.16 target notes). The value is the
    /// version given (major * 10 + minor).
    VersionTooLow,
    /// The PTX ISA version is above 9.5, the newest ptxas 13.5 reads ("Unsupported .version
    /// 9.6; current version is '9.5'"); the forms this module writes are certified by ptxas at
    /// every version from their lowest to 9.5 (`conformance/ptxas`). The value is the version
    /// given.
    VersionTooHigh,
    /// `.kind::ti16`, `.decompress::lut::b`, `.collector::b::*` and the `tcgen05.commit`
    /// qualifiers `.sync_restrict::shared::read::mma::a` and `.multicast::cluster::32b` exist on
    /// `sm_107a` and `sm_107f` only (PTX ISA 9.4 Table 72; ptxas 13.5 agrees). The name is the
    /// qualifier.
    Sm107NotOnTarget,
    /// `.decompress::lut::b` goes with `.kind::f8f6f4` and `.kind::mxf8f6f4` only (ptxas 13.5,
    /// docs/ptx-9.5.md; PTX ISA 9.4 §9.7.18.10.8 not read). The name is the kind.
    DecompressKind,
    /// `.decompress::lut::b` is not combined with `.sp`, `.ws` or `.ashift` (ptxas 13.5,
    /// docs/ptx-9.5.md). The name is the other qualifier.
    DecompressForm,
    /// `.collector::b::*` is not a `.ws` qualifier: `.ws` uses `.collector::b0..b3` (ptxas 13.5,
    /// docs/ptx-9.5.md). The name is the operation.
    CollectorBWithWs,
    /// `tcgen05.ld{.red}.spcompress` exists on `sm_107a` only (PTX ISA 9.4 Table 72; ptxas
    /// 13.5.37 refuses `sm_107f` and the other targets, docs/ptx-9.5.md). The name is the target.
    SpcompressNotOnTarget,
    /// `tcgen05.ld{.red}.spcompress` is `.32x32b`, `.x4` to `.x128`, no `.pack::16b`, `.f32`,
    /// and with `.red` the same `.op` and `.abs` (ptxas 13.5.37, docs/ptx-9.5.md). The name is
    /// the qualifier out of place.
    SpcompressForm,
    /// `tcgen05.ld.spcompress`'s `{r}` holds num / 2 registers and `{mdata}` max(1, num / 32)
    /// (ptxas 13.5.37, docs/ptx-9.5.md). The value is the count written, the name the operand.
    SpcompressCount,
}

impl PtxRule {
    /// Every rule once, in the order of its rows ([`PtxRule::row`]), for tools that list the
    /// rules; `RegisterName(OperandName::DTmem)` stands for the one rule of every operand.
    pub const ALL: [PtxRule; PTX_RULE_COUNT] = {
        use PtxRule as R;
        [
            R::RegisterName(OperandName::DTmem),
            R::DuplicateRegister,
            R::BlockScaleMissing,
            R::BlockScaleNotForKind,
            R::ScaleVecNotForKind,
            R::ScaleVecRequired,
            R::ScaleVecNotOnTarget,
            R::ScaleTypeForScaleVec,
            R::ScaleFactorIdForScaleVec,
            R::WsCtaGroup,
            R::WsBlockScaled,
            R::WsAshift,
            R::WsDisableOutputLane,
            R::WsScaleInputD,
            R::CollectorAWithWs,
            R::CollectorBWithoutWs,
            R::CollectorBIndex,
            R::AshiftNeedsATmem,
            R::AshiftCollector,
            R::AshiftBlockScaled,
            R::AshiftM,
            R::DisableOutputLaneLength,
            R::DisableOutputLaneBlockScaled,
            R::ScaleInputDRange,
            R::ScaleInputDKind,
            R::ScaleInputDI8,
            R::ScaleInputDNotOnTarget,
            R::ZeroColumnMaskWithoutWs,
            R::KindNotOnTarget,
            R::SparseNotOnTarget,
            R::SparseMismatch,
            R::RegisterCount,
            R::OffsetMissing,
            R::OffsetNotForShape,
            R::OffsetOutOfRange,
            R::RedNotOnTarget,
            R::RedShape,
            R::RedNum,
            R::RedPack,
            R::RedAbsNaNType,
            R::ShiftNotOnTarget,
            R::CtaGroupMixed,
            R::VersionTooLow,
            R::VersionTooHigh,
            R::Sm107NotOnTarget,
            R::DecompressKind,
            R::DecompressForm,
            R::CollectorBWithWs,
            R::SpcompressNotOnTarget,
            R::SpcompressForm,
            R::SpcompressCount,
        ]
    };

    /// The rule's index among [`PtxRule::ALL`]: its one row.
    pub(super) const fn index(self) -> usize {
        match self {
            PtxRule::RegisterName(_) => 0,
            PtxRule::DuplicateRegister => 1,
            PtxRule::BlockScaleMissing => 2,
            PtxRule::BlockScaleNotForKind => 3,
            PtxRule::ScaleVecNotForKind => 4,
            PtxRule::ScaleVecRequired => 5,
            PtxRule::ScaleVecNotOnTarget => 6,
            PtxRule::ScaleTypeForScaleVec => 7,
            PtxRule::ScaleFactorIdForScaleVec => 8,
            PtxRule::WsCtaGroup => 9,
            PtxRule::WsBlockScaled => 10,
            PtxRule::WsAshift => 11,
            PtxRule::WsDisableOutputLane => 12,
            PtxRule::WsScaleInputD => 13,
            PtxRule::CollectorAWithWs => 14,
            PtxRule::CollectorBWithoutWs => 15,
            PtxRule::CollectorBIndex => 16,
            PtxRule::AshiftNeedsATmem => 17,
            PtxRule::AshiftCollector => 18,
            PtxRule::AshiftBlockScaled => 19,
            PtxRule::AshiftM => 20,
            PtxRule::DisableOutputLaneLength => 21,
            PtxRule::DisableOutputLaneBlockScaled => 22,
            PtxRule::ScaleInputDRange => 23,
            PtxRule::ScaleInputDKind => 24,
            PtxRule::ScaleInputDI8 => 25,
            PtxRule::ScaleInputDNotOnTarget => 26,
            PtxRule::ZeroColumnMaskWithoutWs => 27,
            PtxRule::KindNotOnTarget => 28,
            PtxRule::SparseNotOnTarget => 29,
            PtxRule::SparseMismatch => 30,
            PtxRule::RegisterCount => 31,
            PtxRule::OffsetMissing => 32,
            PtxRule::OffsetNotForShape => 33,
            PtxRule::OffsetOutOfRange => 34,
            PtxRule::RedNotOnTarget => 35,
            PtxRule::RedShape => 36,
            PtxRule::RedNum => 37,
            PtxRule::RedPack => 38,
            PtxRule::RedAbsNaNType => 39,
            PtxRule::ShiftNotOnTarget => 40,
            PtxRule::CtaGroupMixed => 41,
            PtxRule::VersionTooLow => 42,
            PtxRule::VersionTooHigh => 43,
            PtxRule::Sm107NotOnTarget => 44,
            PtxRule::DecompressKind => 45,
            PtxRule::DecompressForm => 46,
            PtxRule::CollectorBWithWs => 47,
            PtxRule::SpcompressNotOnTarget => 48,
            PtxRule::SpcompressForm => 49,
            PtxRule::SpcompressCount => 50,
        }
    }

    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &PTX_RULES[self.index()]
    }

    /// The rule's stable identifier, for example `"ptx.ws_cta_group"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }

    /// The field, as the command-line tool prints it (the operand's name for
    /// [`PtxRule::RegisterName`]).
    #[must_use]
    pub const fn field(self) -> &'static str {
        match self {
            PtxRule::RegisterName(op) => op.name(),
            _ => PTX_FIELDS[self.index()],
        }
    }

    /// Where the rule is written.
    #[must_use]
    pub const fn source(self) -> Source {
        // Every PTX rule has a fixed source; none takes a descriptor's layout table.
        self.row().fixed_source(Source::PtxSection("9.7.16"))
    }

    /// True when ptxas 13.5.37 refuses a form that breaks this rule (the `conformance/ptxas`
    /// check measures it on every generated form); false for the rules only this crate
    /// enforces.
    #[must_use]
    pub const fn ptxas_checks(self) -> bool {
        !matches!(
            self,
            PtxRule::ScaleTypeForScaleVec
                | PtxRule::ScaleFactorIdForScaleVec
                | PtxRule::AshiftM
                | PtxRule::ScaleInputDI8
                | PtxRule::SparseMismatch
                | PtxRule::OffsetOutOfRange
        )
    }
}

/// How many rules [`PtxRule`] has.
const PTX_RULE_COUNT: usize = 51;

/// A row of [`PTX_RULES`]: every PTX syntax rule is an error with a fixed source.
const fn rule(id: &'static str, source: Source, statement: &'static str) -> Rule {
    Rule::fixed(id, source, Severity::Error, statement)
}

const S4_4: Source = Source::PtxSection("4.4");
const S_LD: Source = Source::PtxSection("9.7.16.8.3");
const S_MMA: Source = Source::PtxSection("9.7.16.10.9.1");
const S_WS: Source = Source::PtxSection("9.7.16.10.9.3");
const S_SCALE: Source = Source::PtxSection("9.7.16.10.7.1");
const S_TARGETS: Source = Source::PtxSection("9.7.16");
/// The PTX ISA 9.4 forms of `tcgen05.mma` (9.7.16.10.9 in the 9.1 numbering the sources use;
/// PTX ISA 9.4 §9.7.18.10.10).
const S_MMA94: Source = Source::PtxSection("9.7.16.10.9");

/// Every rule of the PTX syntax of the tcgen05 instructions, one row each, in the order of
/// [`PtxRule::index`] (the test `ptx_rule_rows_follow_the_enum` checks it). The field of
/// `ptx.register_name` is the operand's, given by the error.
pub(crate) const PTX_RULES: [Rule; PTX_RULE_COUNT] = {
    [
        rule("ptx.register_name", S4_4,
            "An operand is a PTX identifier or an asm! placeholder {name}."),
        rule("ptx.duplicate_register", S_LD,
            "The destination registers of tcgen05.ld are distinct."),
        rule("ptx.block_scale_missing", S_MMA,
            "A block-scaled kind takes .block_scale and the [scale-A-tmem], [scale-B-tmem] operands."),
        rule("ptx.block_scale_not_for_kind", S_MMA,
            ".block_scale is only for the block-scaled kinds."),
        rule("ptx.scale_vec_not_for_kind", S_SCALE,
            "A scale-vector qualifier is one the kind takes (Tables 56-57)."),
        rule("ptx.scale_vec_required", S_SCALE,
            ".kind::mxf4nvf4 states its scale vector."),
        rule("ptx.scale_vec_not_on_target", S_MMA,
            ".scale_vec::NX exists only on the 'a' targets; family targets write .block16 / .block32."),
        rule("ptx.scale_type_for_scale_vec", Source::Decision(12), "UE4M3 scale factors need .scale_vec::4X or .block16."),
        rule("ptx.scale_factor_id_for_scale_vec", Source::Decision(13), "With .scale_vec::4X / .block16 the scale-factor IDs are 0 (0 or 2 with K = 96, the 6X vector)."),
        rule("ptx.ws_cta_group", Source::Decision(16),
            ".ws takes only .cta_group::1."),
        rule("ptx.ws_block_scaled", Source::Decision(16),
            ".ws is not for the block-scaled kinds."),
        rule("ptx.ws_ashift", S_WS, ".ashift is not a qualifier of tcgen05.mma.ws."),
        rule("ptx.ws_disable_output_lane", S_WS,
            "disable-output-lane is not an operand of tcgen05.mma.ws."),
        rule("ptx.ws_scale_input_d", S_WS,
            "scale-input-d is not an operand of tcgen05.mma.ws."),
        rule("ptx.collector_a_with_ws", S_WS,
            "tcgen05.mma.ws uses .collector::b0..b3, not .collector::a."),
        rule("ptx.collector_b_without_ws", S_MMA,
            ".collector::bN is a qualifier of tcgen05.mma.ws only."),
        rule("ptx.collector_b_index", S_WS,
            "The collector buffers of tcgen05.mma.ws are b0, b1, b2 and b3."),
        rule("ptx.ashift_needs_a_tmem", S_MMA,
            ".ashift needs matrix A in Tensor Memory."),
        rule("ptx.ashift_collector", S_MMA,
            ".ashift is not combined with .collector::a::fill or ::use."),
        rule("ptx.ashift_block_scaled", S_MMA,
            ".ashift is not a qualifier of the block-scaled forms."),
        rule("ptx.ashift_m", S_MMA, ".ashift needs M = 128 or 256."),
        rule("ptx.disable_output_lane_length", S_MMA, "disable-output-lane has 4 registers with .cta_group::1 and 8 with .cta_group::2."),
        rule("ptx.disable_output_lane_block_scaled",
            S_MMA,
            "disable-output-lane is not an operand of the block-scaled forms."),
        rule("ptx.scale_input_d_range", S_MMA,
            "scale-input-d is an immediate from 0 to 15."),
        rule("ptx.scale_input_d_kind", S_MMA,
            "scale-input-d is only for .kind::f16 and .kind::tf32."),
        rule("ptx.scale_input_d_i8", S_MMA,
            "scale-input-d is only for .kind::f16 and .kind::tf32, so not for .kind::i8."),
        rule("ptx.scale_input_d_not_on_target", S_MMA,
            "scale-input-d is available on sm_100a and the sm_100f family targets only."),
        rule("ptx.zero_column_mask_without_ws", S_WS, "zero-column-mask-desc is an operand of tcgen05.mma.ws only."),
        rule("ptx.kind_not_on_target", Source::Decision(17),
            ".kind::i8 is available on sm_100a and sm_110a only."),
        rule("ptx.sparse_not_on_target", Source::Decision(17),
            "Sparse .kind::mxf4 and .kind::mxf4nvf4 are available on the 'a' targets only."),
        rule("ptx.sparse_mismatch", Source::PtxSection("9.7.16.4.2"),
            "The immediate instruction descriptor's sparsity bit is set exactly when the instruction has .sp."),
        rule("ptx.register_count", Source::PtxTable(49),
            "The register vector of tcgen05.ld / .st has the length the shape and .num give."),
        rule("ptx.offset_missing", S_LD,
            ".16x32bx2 takes an immHalfSplitoff operand."),
        rule("ptx.offset_not_for_shape", S_LD,
            "Only .16x32bx2 takes an immHalfSplitoff operand."),
        rule("ptx.offset_out_of_range", Source::Decision(24),
            "immHalfSplitoff stays inside Tensor Memory's 512 columns."),
        rule("ptx.red_not_on_target", S_LD,
            "tcgen05.ld.red exists on sm_103a/f, sm_107a/f, sm_110a and sm_110f only."),
        rule("ptx.red_shape", S_LD,
            "tcgen05.ld.red takes only .32x32b and .16x32bx2."),
        rule("ptx.red_num", S_LD, "tcgen05.ld.red takes .num .x2 or more."),
        rule("ptx.red_pack", S_LD, "tcgen05.ld.red takes no .pack::16b."),
        rule("ptx.red_abs_nan_type", S_LD,
            ".abs and .NaN are only for .f32 reductions."),
        rule("ptx.shift_not_on_target", Source::PtxSection("9.7.16.9.3"), "tcgen05.shift exists on the 'a' targets only."),
        rule("ptx.cta_group_mixed", S_MMA,
            "All tcgen05 instructions of a kernel use the same .cta_group."),
        rule("ptx.version_too_low", S_TARGETS,
            "The PTX ISA version is at least the one the target and every feature used need."),
        rule("ptx.version_too_high", S_TARGETS,
            "The PTX ISA version is at most 9.5, the newest ptxas 13.5 reads."),
        rule("ptx.sm107_not_on_target", S_TARGETS,
            ".kind::ti16, .decompress::lut::b, .collector::b::*, .sync_restrict::shared::read::mma::a and .multicast::cluster::32b exist on sm_107a and sm_107f only (PTX ISA 9.4)."),
        rule("ptx.decompress_kind", S_MMA94,
            ".decompress::lut::b goes with .kind::f8f6f4 and .kind::mxf8f6f4 only."),
        rule("ptx.decompress_form", S_MMA94,
            ".decompress::lut::b is not combined with .sp, .ws or .ashift."),
        rule("ptx.collector_b_with_ws", S_MMA94,
            "tcgen05.mma.ws uses .collector::b0..b3, not .collector::b::*."),
        rule("ptx.spcompress_not_on_target", S_TARGETS,
            "tcgen05.ld.spcompress exists on sm_107a only (PTX ISA 9.4)."),
        rule("ptx.spcompress_form", S_LD,
            "tcgen05.ld.spcompress is .32x32b, .x4 to .x128, .f32, without .pack::16b; with .red, one .op and .abs."),
        rule("ptx.spcompress_count", S_LD,
            "tcgen05.ld.spcompress writes num / 2 registers {r} and max(1, num / 32) registers {mdata}."),
    ]
};

/// The field each rule of [`PTX_RULES`] concerns, indexed by [`PtxRule`].
const PTX_FIELDS: [&str; PTX_RULE_COUNT] = [
    "operand",
    "registers",
    "block_scale",
    "block_scale",
    "scale_vec",
    "scale_vec",
    "target",
    "scale_type",
    "sf_id",
    "cta_group",
    "ws",
    "ashift",
    "disable_output_lane",
    "scale_input_d",
    "collector",
    "collector",
    "collector",
    "ashift",
    "collector",
    "ashift",
    "m",
    "disable_output_lane",
    "disable_output_lane",
    "scale_input_d",
    "scale_input_d",
    "scale_input_d",
    "target",
    "zero_column_mask",
    "target",
    "target",
    "sparse",
    "registers",
    "offset",
    "offset",
    "offset",
    "target",
    "shape",
    "num",
    "pack",
    "red",
    "target",
    "cta_group",
    "version",
    "version",
    "target",
    "kind",
    "decompress",
    "collector",
    "target",
    "spcompress",
    "registers",
];

/// A problem with a tcgen05 instruction form: a rule of the PTX syntax, or a descriptor given as
/// an immediate that breaks its own rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PtxError {
    /// A rule of the instruction's syntax, with the value concerned and its name when the value
    /// is a name (a kind, a target, a qualifier).
    Rule {
        /// The rule.
        rule: PtxRule,
        /// The value (a count, an index, an immediate), or 0 when `name` says it.
        value: u64,
        /// The value as a name.
        name: Option<&'static str>,
    },
    /// The immediate instruction descriptor breaks a rule of Tables 39, 42-44 or rules.md
    /// (ptxas does not look inside it).
    Idesc(MmaError),
    /// The immediate zero-column mask descriptor breaks a rule of Table 45 or rules.md
    /// R19-R22.
    Zmask(ZmaskError),
    /// The immediate shared memory descriptor of `tcgen05.cp` breaks a rule of Tables 40-41 or
    /// rules.md R1-R5.
    Smem(SmemError),
    /// A Tensor Memory rule: `.num` for the shape, `tcgen05.cp` multicast, column counts.
    Tmem(TmemError),
}

impl PtxError {
    pub(super) const fn rule(rule: PtxRule, value: u64) -> PtxError {
        PtxError::Rule {
            rule,
            value,
            name: None,
        }
    }

    pub(super) const fn named(rule: PtxRule, name: &'static str) -> PtxError {
        PtxError::Rule {
            rule,
            value: 0,
            name: Some(name),
        }
    }

    /// True when ptxas 13.5.37 refuses the form for this reason too; false for the rules that
    /// only this crate checks (descriptor values, which ptxas never reads, and the few PTX
    /// rules ptxas lets through).
    #[must_use]
    pub const fn ptxas_checks(&self) -> bool {
        match self {
            PtxError::Rule { rule, .. } => rule.ptxas_checks(),
            PtxError::Idesc(_) | PtxError::Zmask(_) | PtxError::Smem(_) => false,
            PtxError::Tmem(_) => true,
        }
    }
}

impl Diagnostic for PtxError {
    fn field(&self) -> &'static str {
        match self {
            PtxError::Rule { rule, .. } => rule.field(),
            PtxError::Idesc(e) => e.field(),
            PtxError::Zmask(e) => e.field(),
            PtxError::Smem(e) => e.field(),
            PtxError::Tmem(e) => e.field(),
        }
    }

    fn value(&self) -> u64 {
        match self {
            PtxError::Rule { value, .. } => *value,
            PtxError::Idesc(e) => e.value(),
            PtxError::Zmask(e) => e.value(),
            PtxError::Smem(e) => e.value(),
            PtxError::Tmem(e) => e.value(),
        }
    }

    fn value_name(&self) -> Option<&'static str> {
        match self {
            PtxError::Rule { name, .. } => *name,
            PtxError::Idesc(e) => e.value_name(),
            PtxError::Zmask(e) => e.value_name(),
            PtxError::Smem(e) => e.value_name(),
            PtxError::Tmem(e) => e.value_name(),
        }
    }

    fn source(&self) -> Source {
        match self {
            PtxError::Rule { rule, .. } => rule.source(),
            PtxError::Idesc(e) => e.source(),
            PtxError::Zmask(e) => e.source(),
            PtxError::Smem(e) => e.source(),
            PtxError::Tmem(e) => e.source(),
        }
    }

    fn severity(&self) -> Severity {
        match self {
            PtxError::Rule { rule, .. } => rule.row().severity,
            PtxError::Idesc(e) => e.severity(),
            PtxError::Zmask(e) => e.severity(),
            PtxError::Smem(e) => e.severity(),
            PtxError::Tmem(e) => e.severity(),
        }
    }

    /// The PTX rule's identifier, or that of the immediate descriptor's or Tensor Memory's
    /// rule (`None` where that error type has no rule table yet).
    fn rule_id(&self) -> Option<&'static str> {
        match self {
            PtxError::Rule { rule, .. } => Some(rule.id()),
            PtxError::Idesc(e) => e.rule_id(),
            PtxError::Zmask(e) => e.rule_id(),
            PtxError::Smem(e) => e.rule_id(),
            PtxError::Tmem(e) => e.rule_id(),
        }
    }
}

/// `PTX ISA version X.Y is too low for NAME`, and the version that introduced NAME where the
/// grammar ([`super::syntax::introduced`]) records it.
fn version_too_low(f: &mut fmt::Formatter<'_>, value: u64, name: &str) -> fmt::Result {
    f.write_str("PTX ISA version ")?;
    version_text(f, value)?;
    write!(f, " is too low for {name}")?;
    match super::syntax::introduced(name) {
        Some(since) if u64::from(since.ptx) > value => {
            f.write_str(", which PTX ISA ")?;
            version_text(f, u64::from(since.ptx))?;
            f.write_str(" introduced")
        }
        _ => Ok(()),
    }
}

/// The messages of the rules of the PTX ISA 9.4 forms; `name` as [`PtxRule`] says.
fn ptx94_message(f: &mut fmt::Formatter<'_>, rule: PtxRule, name: &str, value: u64) -> fmt::Result {
    match rule {
        PtxRule::Sm107NotOnTarget => write!(
            f,
            "{name} was introduced by PTX ISA 9.4 for sm_107a and sm_107f and exists on no other target"
        ),
        PtxRule::DecompressKind => write!(
            f,
            ".decompress::lut::b goes with .kind::f8f6f4 and .kind::mxf8f6f4 only, not .kind::{name}"
        ),
        PtxRule::DecompressForm => write!(f, ".decompress::lut::b is not combined with {name}"),
        PtxRule::SpcompressNotOnTarget => write!(
            f,
            "tcgen05.ld.spcompress was introduced by PTX ISA 9.4 for sm_107a and is not on {name}"
        ),
        PtxRule::SpcompressCount => write!(
            f,
            "tcgen05.ld.spcompress {{{name}}} holds {value} registers, not num / 2 for {{r}} or max(1, num / 32) for {{mdata}}"
        ),
        PtxRule::SpcompressForm => write!(
            f,
            "tcgen05.ld.spcompress is .32x32b, .x4 to .x128, .f32, without .pack::16b, with .red's .op and .abs; not {name}"
        ),
        _ => write!(
            f,
            ".collector::b::{name} is not a qualifier of tcgen05.mma.ws (use .collector::b0..b3)"
        ),
    }
}

fn version_text(f: &mut fmt::Formatter<'_>, v: u64) -> fmt::Result {
    write!(f, "{}.{}", v / 10, v % 10)
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rule, value, name) = match *self {
            PtxError::Rule { rule, value, name } => (rule, value, name.unwrap_or("")),
            PtxError::Idesc(e) => return write!(f, "immediate idesc: {e}"),
            PtxError::Zmask(e) => return write!(f, "immediate zero-column mask: {e}"),
            PtxError::Smem(e) => return write!(f, "immediate s-desc: {e}"),
            PtxError::Tmem(e) => return e.fmt(f),
        };
        match rule {
            PtxRule::RegisterName(op) => {
                write!(f, "operand {}", op.name())?;
                if matches!(
                    op,
                    OperandName::Registers | OperandName::DisableOutputLane
                ) {
                    write!(f, " (element {value})")?;
                }
                f.write_str(" is not a PTX identifier (nor an asm! placeholder {name})")
            }
            PtxRule::DuplicateRegister => write!(
                f,
                "destination register {value} repeats an earlier destination register"
            ),
            PtxRule::BlockScaleMissing => write!(
                f,
                ".kind::{name} needs .block_scale and the [scale-A-tmem], [scale-B-tmem] operands"
            ),
            PtxRule::BlockScaleNotForKind => {
                write!(f, ".block_scale is only for the block-scaled kinds, not .kind::{name}")
            }
            PtxRule::ScaleVecNotForKind => write!(f, "{name} is not a scale vector of this kind"),
            PtxRule::ScaleVecRequired => f.write_str(
                ".kind::mxf4nvf4 needs an explicit .scale_vec::2X, .scale_vec::4X, .block16 or .block32",
            ),
            PtxRule::ScaleVecNotOnTarget => write!(
                f,
                ".scale_vec::NX is not available on {name} (use .block16 / .block32)"
            ),
            PtxRule::ScaleTypeForScaleVec => f.write_str(
                "UE4M3 scale factors need .scale_vec::4X or .block16",
            ),
            PtxRule::ScaleFactorIdForScaleVec => write!(
                f,
                "scale factor ID {value} with .scale_vec::4X / .block16: the IDs are 0 (K = 64, \
                 128) or 0 and 2 (K = 96, the 6X vector; rules.md T3)"
            ),
            PtxRule::WsCtaGroup => f.write_str(".ws takes only .cta_group::1"),
            PtxRule::WsBlockScaled => write!(f, ".ws is not available for .kind::{name}"),
            PtxRule::WsAshift => f.write_str(".ashift is not a qualifier of tcgen05.mma.ws"),
            PtxRule::WsDisableOutputLane => {
                f.write_str("disable-output-lane is not an operand of tcgen05.mma.ws")
            }
            PtxRule::WsScaleInputD => f.write_str("scale-input-d is not an operand of tcgen05.mma.ws"),
            PtxRule::CollectorAWithWs => f.write_str(
                ".collector::a is not a qualifier of tcgen05.mma.ws (use .collector::b0..b3)",
            ),
            PtxRule::CollectorBWithoutWs => {
                f.write_str(".collector::bN is a qualifier of tcgen05.mma.ws only")
            }
            PtxRule::CollectorBIndex => {
                write!(f, ".collector::b{value} does not exist (b0, b1, b2, b3)")
            }
            PtxRule::AshiftNeedsATmem => f.write_str(".ashift needs matrix A in Tensor Memory"),
            PtxRule::AshiftCollector => write!(
                f,
                ".ashift cannot be combined with .collector::a::{name}"
            ),
            PtxRule::AshiftBlockScaled => {
                write!(f, ".ashift is not available for .kind::{name}")
            }
            PtxRule::AshiftM => write!(f, ".ashift needs M = 128 or 256, not M = {value}"),
            PtxRule::DisableOutputLaneLength => write!(
                f,
                "disable-output-lane has {value} registers: it needs 4 with .cta_group::1 and 8 with .cta_group::2"
            ),
            PtxRule::DisableOutputLaneBlockScaled => write!(
                f,
                "disable-output-lane is not an operand of .kind::{name}"
            ),
            PtxRule::ScaleInputDRange => {
                write!(f, "scale-input-d {value} is out of range: it is 0 to 15")
            }
            PtxRule::ScaleInputDKind | PtxRule::ScaleInputDI8 => write!(
                f,
                "scale-input-d is only for .kind::f16 and .kind::tf32, not .kind::{name}"
            ),
            PtxRule::ScaleInputDNotOnTarget => {
                write!(f, "scale-input-d is not available on {name}")
            }
            PtxRule::ZeroColumnMaskWithoutWs => {
                f.write_str("zero-column-mask-desc is an operand of tcgen05.mma.ws only")
            }
            PtxRule::KindNotOnTarget => write!(
                f,
                ".kind::i8 is not available on {name} (only sm_100a and sm_110a)"
            ),
            PtxRule::SparseNotOnTarget => write!(
                f,
                "sparse .kind::mxf4 / .kind::mxf4nvf4 is not available on {name} (only the 'a' targets)"
            ),
            PtxRule::SparseMismatch => write!(
                f,
                "the immediate idesc's sparsity bit is {value} but the instruction {} .sp",
                if value == 0 { "has" } else { "has no" }
            ),
            PtxRule::RegisterCount => write!(
                f,
                "the register vector has {value} registers, not the number the shape and .num need"
            ),
            PtxRule::OffsetMissing => {
                f.write_str("shape .16x32bx2 needs the immHalfSplitoff operand")
            }
            PtxRule::OffsetNotForShape => {
                write!(f, "only shape .16x32bx2 takes an immHalfSplitoff operand, not {name}")
            }
            PtxRule::OffsetOutOfRange => write!(
                f,
                "immHalfSplitoff {value} is outside Tensor Memory's {TMEM_COLUMNS} columns"
            ),
            PtxRule::RedNotOnTarget => write!(
                f,
                "tcgen05.ld.red is not available on {name} (only sm_103a, sm_103f, sm_107a, sm_107f, sm_110a, sm_110f)"
            ),
            PtxRule::RedShape => write!(
                f,
                "tcgen05.ld.red takes only .32x32b and .16x32bx2, not {name}"
            ),
            PtxRule::RedNum => write!(f, "tcgen05.ld.red needs .num .x2 or more, not .x{value}"),
            PtxRule::RedPack => f.write_str("tcgen05.ld.red takes no .pack::16b"),
            PtxRule::RedAbsNaNType => {
                write!(f, ".abs and .NaN are only for .f32 reductions, not .{name}")
            }
            PtxRule::ShiftNotOnTarget => write!(
                f,
                "tcgen05.shift is not available on {name} (only the 'a' targets)"
            ),
            PtxRule::CtaGroupMixed => mixed_cta_groups(f, value),
            PtxRule::VersionTooLow => version_too_low(f, value, name),
            PtxRule::VersionTooHigh => {
                f.write_str("PTX ISA version ")?;
                version_text(f, value)?;
                f.write_str(" is above 9.5, the newest PTX ISA version (ptxas 13.5 reads no later one)")
            }
            // The rules of the PTX ISA 9.4 forms.
            _ => ptx94_message(f, rule, name, value),
        }
    }
}

impl core::error::Error for PtxError {}

/// Capacity of a [`PtxDiagnostics`] list.
pub const PTX_DIAGNOSTICS_CAPACITY: usize = 64;

/// Every problem of one instruction form (or one kernel).
pub type PtxDiagnostics = Diagnostics<PtxError, PTX_DIAGNOSTICS_CAPACITY>;

/// Why [`Instruction::render`](super::Instruction::render) (and the builders' `render`) wrote nothing.
///
/// It carries the whole problem list by value (no allocation in a `no_std` crate), hence its
/// size.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The form breaks rules: every problem found.
    Invalid(PtxDiagnostics),
    /// The writer failed.
    Fmt,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Invalid(d) => {
                let mut first = true;
                for e in d.errors() {
                    if !first {
                        f.write_str("; ")?;
                    }
                    first = false;
                    write!(f, "{}: {e} ({})", e.field(), e.source())?;
                }
                Ok(())
            }
            RenderError::Fmt => f.write_str("the writer failed"),
        }
    }
}

impl core::error::Error for RenderError {}

impl From<fmt::Error> for RenderError {
    fn from(_: fmt::Error) -> Self {
        RenderError::Fmt
    }
}

/// The message of [`PtxRule::CtaGroupMixed`]: `second` is the group met second, the other one the
/// group met first (PTX ISA 9.7.16: one `.cta_group` per kernel).
fn mixed_cta_groups(f: &mut fmt::Formatter<'_>, second: u64) -> fmt::Result {
    let first = if second == 1 { 2 } else { 1 };
    write!(
        f,
        "a kernel mixes .cta_group::{first} and .cta_group::{second}: all its tcgen05 instructions must use one"
    )
}
