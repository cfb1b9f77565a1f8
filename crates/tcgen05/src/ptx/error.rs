//! Why a form is refused: [`PtxError`] and the rule it breaks ([`PtxRule`]), and
//! [`RenderError`].

use super::*;

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
        }
    }
}

/// A rule of the PTX syntax of a tcgen05 instruction that a form breaks.
///
/// Each rule names its field ([`PtxRule::field`]), its source ([`PtxRule::source`]) and whether
/// ptxas 13.5.37 refuses the form too ([`PtxRule::ptxas_checks`], measured by
/// `conformance/ptxas`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PtxRule {
    /// A register or variable name that is not a PTX identifier (PTX ISA 4.4: a letter, or one
    /// of `_ $ %` followed by at least one more character; then letters, digits, `_`, `$`) nor a
    /// Rust inline-assembly placeholder `{name}` ([`is_operand_name`]).
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
    /// UE4M3 scale factors need `.scale_vec::4X` or `.block16` (decisions.md R12; PTX ISA
    /// 9.7.16.10.7.1). Seen only in an immediate instruction descriptor.
    ScaleTypeForScaleVec,
    /// With `.scale_vec::4X` / `.block16` the scale-factor IDs must be 0 (decisions.md R13).
    /// Seen only in an immediate instruction descriptor.
    ScaleFactorIdForScaleVec,
    /// `.ws` takes only `.cta_group::1` (decisions.md R16; PTX ISA 9.7.16.10.9.3).
    WsCtaGroup,
    /// `.ws` is not for the block-scaled kinds (decisions.md R16).
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
    /// `.kind::i8` only on `sm_100a` and `sm_110a` (decisions.md R17).
    KindNotOnTarget,
    /// Sparse `.kind::mxf4` / `.kind::mxf4nvf4` only on the `a` targets (decisions.md R17).
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
    /// `immHalfSplitoff` of 512 or more columns points outside Tensor Memory (decisions.md
    /// R24). The value is the offset.
    OffsetOutOfRange,
    /// `tcgen05.ld.red` exists on `sm_103a`, `sm_103f`, `sm_110a`, `sm_110f` only (PTX ISA
    /// 9.7.16.8.3 target notes).
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
    /// The PTX ISA version is above 9.1, the version whose instruction forms this module
    /// implements (later versions add and change tcgen05 forms). The value is the version given.
    VersionTooHigh,
}

impl PtxRule {
    /// The field, as the command-line tool prints it.
    #[must_use]
    pub const fn field(self) -> &'static str {
        match self {
            PtxRule::RegisterName(op) => op.name(),
            PtxRule::DuplicateRegister | PtxRule::RegisterCount => "registers",
            PtxRule::BlockScaleMissing | PtxRule::BlockScaleNotForKind => "block_scale",
            PtxRule::ScaleVecNotForKind | PtxRule::ScaleVecRequired => "scale_vec",
            PtxRule::ScaleTypeForScaleVec => "scale_type",
            PtxRule::ScaleFactorIdForScaleVec => "sf_id",
            PtxRule::WsCtaGroup | PtxRule::CtaGroupMixed => "cta_group",
            PtxRule::WsBlockScaled => "ws",
            PtxRule::WsAshift | PtxRule::AshiftNeedsATmem | PtxRule::AshiftBlockScaled => "ashift",
            PtxRule::WsDisableOutputLane
            | PtxRule::DisableOutputLaneLength
            | PtxRule::DisableOutputLaneBlockScaled => "disable_output_lane",
            PtxRule::WsScaleInputD
            | PtxRule::ScaleInputDRange
            | PtxRule::ScaleInputDKind
            | PtxRule::ScaleInputDI8 => "scale_input_d",
            PtxRule::CollectorAWithWs
            | PtxRule::CollectorBWithoutWs
            | PtxRule::CollectorBIndex
            | PtxRule::AshiftCollector => "collector",
            PtxRule::AshiftM => "m",
            PtxRule::ZeroColumnMaskWithoutWs => "zero_column_mask",
            PtxRule::ScaleVecNotOnTarget
            | PtxRule::ScaleInputDNotOnTarget
            | PtxRule::KindNotOnTarget
            | PtxRule::SparseNotOnTarget
            | PtxRule::RedNotOnTarget
            | PtxRule::ShiftNotOnTarget => "target",
            PtxRule::SparseMismatch => "sparse",
            PtxRule::OffsetMissing | PtxRule::OffsetNotForShape | PtxRule::OffsetOutOfRange => {
                "offset"
            }
            PtxRule::RedShape => "shape",
            PtxRule::RedNum => "num",
            PtxRule::RedPack => "pack",
            PtxRule::RedAbsNaNType => "red",
            PtxRule::VersionTooLow | PtxRule::VersionTooHigh => "version",
        }
    }

    /// Where the rule is written.
    #[must_use]
    pub const fn source(self) -> Source {
        match self {
            PtxRule::RegisterName(_) => Source::PtxSection("4.4"),
            PtxRule::DuplicateRegister
            | PtxRule::OffsetMissing
            | PtxRule::OffsetNotForShape
            | PtxRule::RedNotOnTarget
            | PtxRule::RedShape
            | PtxRule::RedNum
            | PtxRule::RedPack
            | PtxRule::RedAbsNaNType => Source::PtxSection("9.7.16.8.3"),
            PtxRule::BlockScaleMissing
            | PtxRule::BlockScaleNotForKind
            | PtxRule::ScaleVecNotOnTarget
            | PtxRule::CollectorBWithoutWs
            | PtxRule::AshiftNeedsATmem
            | PtxRule::AshiftCollector
            | PtxRule::AshiftBlockScaled
            | PtxRule::AshiftM
            | PtxRule::DisableOutputLaneLength
            | PtxRule::DisableOutputLaneBlockScaled
            | PtxRule::ScaleInputDRange
            | PtxRule::ScaleInputDKind
            | PtxRule::ScaleInputDI8
            | PtxRule::ScaleInputDNotOnTarget
            | PtxRule::CtaGroupMixed => Source::PtxSection("9.7.16.10.9.1"),
            PtxRule::ScaleVecNotForKind | PtxRule::ScaleVecRequired => {
                Source::PtxSection("9.7.16.10.7.1")
            }
            PtxRule::ScaleTypeForScaleVec => Source::Decision(12),
            PtxRule::ScaleFactorIdForScaleVec => Source::Decision(13),
            PtxRule::WsCtaGroup | PtxRule::WsBlockScaled => Source::Decision(16),
            PtxRule::WsAshift
            | PtxRule::WsDisableOutputLane
            | PtxRule::WsScaleInputD
            | PtxRule::CollectorAWithWs
            | PtxRule::CollectorBIndex
            | PtxRule::ZeroColumnMaskWithoutWs => Source::PtxSection("9.7.16.10.9.3"),
            PtxRule::KindNotOnTarget | PtxRule::SparseNotOnTarget => Source::Decision(17),
            PtxRule::SparseMismatch => Source::PtxSection("9.7.16.4.2"),
            PtxRule::RegisterCount => Source::PtxTable(49),
            PtxRule::OffsetOutOfRange => Source::Decision(24),
            PtxRule::ShiftNotOnTarget => Source::PtxSection("9.7.16.9.3"),
            PtxRule::VersionTooLow | PtxRule::VersionTooHigh => Source::PtxSection("9.7.16"),
        }
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
                | PtxRule::VersionTooHigh
        )
    }
}

/// A problem with a tcgen05 instruction form: a rule of the PTX syntax, or a descriptor given as
/// an immediate that breaks its own rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// The immediate instruction descriptor breaks a rule of Tables 39, 42-44 or decisions.md
    /// (ptxas does not look inside it).
    Idesc(MmaError),
    /// The immediate zero-column mask descriptor breaks a rule of Table 45 or decisions.md
    /// R19-R22.
    Zmask(ZmaskError),
    /// The immediate shared memory descriptor of `tcgen05.cp` breaks a rule of Tables 40-41 or
    /// decisions.md R1-R5.
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
            PtxError::Rule { .. } => Severity::Error,
            PtxError::Idesc(e) => e.severity(),
            PtxError::Zmask(e) => e.severity(),
            PtxError::Smem(e) => e.severity(),
            PtxError::Tmem(e) => e.severity(),
        }
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
                "scale factor ID {value} with .scale_vec::4X / .block16: only 0 is valid"
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
                "tcgen05.ld.red is not available on {name} (only sm_103a, sm_103f, sm_110a, sm_110f)"
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
            PtxRule::CtaGroupMixed => write!(
                f,
                "a kernel mixes .cta_group::1 and .cta_group::{value}: all its tcgen05 instructions must use one"
            ),
            PtxRule::VersionTooLow => {
                f.write_str("PTX ISA version ")?;
                version_text(f, value)?;
                write!(f, " is too low for {name}")
            }
            PtxRule::VersionTooHigh => {
                f.write_str("PTX ISA version ")?;
                version_text(f, value)?;
                f.write_str(" is above 9.1, the version whose tcgen05 forms this crate implements")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PtxError {}

/// Capacity of a [`PtxDiagnostics`] list.
pub const PTX_DIAGNOSTICS_CAPACITY: usize = 64;

/// Every problem of one instruction form (or one kernel).
pub type PtxDiagnostics = Diagnostics<PtxError, PTX_DIAGNOSTICS_CAPACITY>;

/// Why [`Instruction::render`] (and the builders' `render`) wrote nothing.
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

#[cfg(feature = "std")]
impl std::error::Error for RenderError {}

impl From<fmt::Error> for RenderError {
    fn from(_: fmt::Error) -> Self {
        RenderError::Fmt
    }
}
