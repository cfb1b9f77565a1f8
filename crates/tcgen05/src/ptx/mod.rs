//! PTX text for every tcgen05 instruction, checked before it is written.
//!
//! Rust kernels reach the tensor cores through PTX text: `asm!` on the nvptx target,
//! cuda-oxide's inline PTX, or NVRTC sources. A misspelled qualifier costs a compile round trip,
//! an illegal combination (`.ws` with `.cta_group::2`, `.scale_vec::2X` with `.kind::mxf8f6f4`,
//! `.ashift` with A in shared memory) is caught only by ptxas, and ptxas never looks inside
//! descriptor values: an immediate instruction descriptor with M = 48 assembles and fails on the
//! GPU. The builders here write the PTX syntax of PTX ISA 9.7.16 (instruction forms in
//! 9.7.16.7-9.7.16.10.9) and refuse, before writing anything, every form that breaks a rule:
//!
//! - the rules ptxas enforces (qualifier pairings, operand counts and vector lengths, immediate
//!   ranges, target and PTX ISA version requirements), each cited by the PTX section that states
//!   it; [`PtxError::ptxas_checks`] says that ptxas 13.5 would refuse the form too;
//! - the rules ptxas cannot see: an immediate instruction descriptor is checked against Table 39
//!   and decisions.md through [`validate_mma`], an immediate
//!   zero-column mask through [`ZeroColumnMask::decode_for`], an immediate shared memory
//!   descriptor through [`SmemDescriptor::decode`], an immediate column count through
//!   [`validate_alloc_columns`].
//!
//! Operands are registers named by the caller (any PTX identifier, `%r1`, `taddr`, ...) or
//! immediates; register vectors must have exactly the length the form needs. Rendering writes to
//! any [`core::fmt::Write`], so it works without `alloc`.
//!
//! # Examples
//! ```
//! use tcgen05::ptx::{ASource, Context, Mma, Value};
//! use tcgen05::{CtaGroup, Kind, Target};
//!
//! let mma = Mma::new(CtaGroup::One, Kind::F16, "d", ASource::Smem("adesc"), "bdesc",
//!                    Value::Imm(0x0810_0490), Value::Reg("p"));
//! let mut s = String::new();
//! mma.render(&Context::new(Target::Sm100a), &mut s).unwrap();
//! assert_eq!(s, "tcgen05.mma.cta_group::1.kind::f16 [d], adesc, bdesc, 0x08100490, p;");
//!
//! // M = 48 assembles with ptxas but is no shape of Table 39: refused here.
//! let bad = Mma { idesc: Value::Imm(0x0310_0490), ..mma };
//! let problems = bad.validate(&Context::new(Target::Sm100a));
//! assert!(problems.iter().any(|e| e.to_string().contains("M = 48")));
//! ```

use core::fmt;

use crate::diagnostic::{Diagnostic, Diagnostics, Severity, Source};
use crate::instruction_descriptor::{IdescError, InstructionDescriptor};
use crate::mma::{CtaGroup, Kind, ScaleType};
use crate::shapes::{validate_mma, MmaConfig, MmaError};
use crate::shared_memory_descriptor::{SmemDescriptor, SmemError};
use crate::targets::Target;
use crate::tensor_memory::{
    registers_per_thread, validate_alloc_columns, validate_cp, CpMulticast, CpShape, LdStShape,
    Num, TmemError, TMEM_COLUMNS,
};
use crate::zero_column_mask::{ZeroColumnMask, ZmaskError};

// ---------------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------------

/// An operand that is either a register named by the caller or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value<'a, T> {
    /// A register (or, for address operands, a variable) by its PTX name, for example `"%r3"`.
    Reg(&'a str),
    /// An immediate, written in the instruction.
    Imm(T),
}

/// Where matrix A of a `tcgen05.mma` comes from (PTX ISA 9.7.16.10, Table 53).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ASource<'a> {
    /// Shared memory, described by the 64-bit shared memory descriptor in this register
    /// (`a-desc`).
    Smem(&'a str),
    /// Tensor Memory at the address in this 32-bit register (`[a-tmem]`).
    Tmem(&'a str),
}

/// What a collector-buffer qualifier does (PTX ISA 9.7.16.10.9.1, `.collector_usage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CollectorOp {
    /// `::fill`: read the operand and keep it in the collector buffer.
    Fill,
    /// `::use`: read the operand from the collector buffer, keep it.
    Use,
    /// `::lastuse`: read the operand from the collector buffer, then drop it.
    Lastuse,
    /// `::discard`: read the operand, keep nothing (the default).
    Discard,
}

impl CollectorOp {
    /// Every operation.
    pub const ALL: [CollectorOp; 4] = [
        CollectorOp::Fill,
        CollectorOp::Use,
        CollectorOp::Lastuse,
        CollectorOp::Discard,
    ];

    /// The PTX spelling without the leading `::`, for example `"lastuse"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CollectorOp::Fill => "fill",
            CollectorOp::Use => "use",
            CollectorOp::Lastuse => "lastuse",
            CollectorOp::Discard => "discard",
        }
    }
}

/// A collector-buffer qualifier of `tcgen05.mma` (PTX ISA 9.7.16.10.9.1): on matrix A for the
/// activation-stationary forms, on one of four B buffers for `.ws`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collector {
    /// `.collector::a::op` (not with `.ws`).
    A(CollectorOp),
    /// `.collector::bN::op` with N = 0..3 (`.ws` only).
    B(u8, CollectorOp),
}

/// The scale-vector qualifier of a block-scaled `tcgen05.mma` (PTX ISA 9.7.16.10.7.1, Tables
/// 56-57).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScaleVec {
    /// No qualifier: `.block32`'s meaning for `mxf8f6f4` and `mxf4`; not allowed for
    /// `mxf4nvf4`.
    Default,
    /// `.scale_vec::1X` (`mxf8f6f4`).
    X1,
    /// `.scale_vec::2X` (`mxf4`, `mxf4nvf4`).
    X2,
    /// `.scale_vec::4X` (`mxf4nvf4`).
    X4,
    /// `.block16` (`mxf4nvf4`): 16 elements of K share a scale.
    Block16,
    /// `.block32` (all three): 32 elements of K share a scale.
    Block32,
}

impl ScaleVec {
    /// Every qualifier.
    pub const ALL: [ScaleVec; 6] = [
        ScaleVec::Default,
        ScaleVec::X1,
        ScaleVec::X2,
        ScaleVec::X4,
        ScaleVec::Block16,
        ScaleVec::Block32,
    ];

    /// The PTX qualifier, for example `".scale_vec::2X"`; `""` for [`ScaleVec::Default`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ScaleVec::Default => "",
            ScaleVec::X1 => ".scale_vec::1X",
            ScaleVec::X2 => ".scale_vec::2X",
            ScaleVec::X4 => ".scale_vec::4X",
            ScaleVec::Block16 => ".block16",
            ScaleVec::Block32 => ".block32",
        }
    }

    /// True when the qualifier is allowed with `kind` (Tables 56-57): `mxf8f6f4` takes none,
    /// `1X`, `block32`; `mxf4` none, `2X`, `block32`; `mxf4nvf4` `2X`, `4X`, `block16`,
    /// `block32`.
    #[must_use]
    pub const fn allowed_for(self, kind: Kind) -> bool {
        match kind {
            Kind::Mxf8f6f4 => matches!(self, ScaleVec::Default | ScaleVec::X1 | ScaleVec::Block32),
            Kind::Mxf4 => matches!(self, ScaleVec::Default | ScaleVec::X2 | ScaleVec::Block32),
            Kind::Mxf4nvf4 => matches!(
                self,
                ScaleVec::X2 | ScaleVec::X4 | ScaleVec::Block16 | ScaleVec::Block32
            ),
            _ => false,
        }
    }

    /// True for `.scale_vec::4X` and `.block16`: four scales per 32-bit word, so the scale
    /// factor IDs must be 0 and the scale type may be UE4M3 (decisions.md R12, R13).
    #[must_use]
    pub const fn is_16_elements(self) -> bool {
        matches!(self, ScaleVec::X4 | ScaleVec::Block16)
    }
}

/// The scale-factor operands of a block-scaled `tcgen05.mma` (PTX ISA 9.7.16.10.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockScale<'a> {
    /// The scale-vector qualifier.
    pub vec: ScaleVec,
    /// Register holding the Tensor Memory address of scale_A (`[scale-A-tmem]`).
    pub scale_a: &'a str,
    /// Register holding the Tensor Memory address of scale_B (`[scale-B-tmem]`).
    pub scale_b: &'a str,
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

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
    const fn rule(rule: PtxRule, value: u64) -> PtxError {
        PtxError::Rule {
            rule,
            value,
            name: None,
        }
    }

    const fn named(rule: PtxRule, name: &'static str) -> PtxError {
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

// ---------------------------------------------------------------------------------------------
// Context: target and PTX ISA version
// ---------------------------------------------------------------------------------------------

/// The highest PTX ISA version (major * 10 + minor) whose tcgen05 forms this module writes.
pub const MAX_PTX_VERSION: u8 = 91;

/// The target and PTX ISA version a form is written for: what the `.target` and `.version`
/// directives of the module say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    /// The target.
    pub target: Target,
    /// The PTX ISA version, major * 10 + minor (for example 88 for 8.8).
    pub version: u8,
}

impl Context {
    /// `target` at the lowest PTX ISA version that has tcgen05 on it
    /// ([`Target::min_ptx_version`]).
    #[must_use]
    pub const fn new(target: Target) -> Context {
        Context {
            target,
            version: target.min_ptx_version(),
        }
    }

    /// The same target at another PTX ISA version.
    #[must_use]
    pub const fn with_version(mut self, version: u8) -> Context {
        self.version = version;
        self
    }

    /// The lowest version that suits `target` and every instruction of `body` (each
    /// instruction's [`Instruction::min_ptx_version`]).
    #[must_use]
    pub const fn for_instructions(target: Target, body: &[Instruction<'_>]) -> Context {
        let mut v = target.min_ptx_version();
        let mut i = 0;
        while i < body.len() {
            let need = body[i].min_ptx_version();
            if need > v {
                v = need;
            }
            i += 1;
        }
        Context { target, version: v }
    }

    /// Writes the `.version`, `.target` and `.address_size 64` directives, one per line.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_preamble<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        writeln!(
            w,
            ".version {}.{}\n.target {}\n.address_size 64",
            self.version / 10,
            self.version % 10,
            self.target.name()
        )
    }

    const fn check_version(&self, need: u8, what: &'static str, d: &mut PtxDiagnostics) {
        if self.version < need {
            d.push(PtxError::Rule {
                rule: PtxRule::VersionTooLow,
                value: self.version as u64,
                name: Some(what),
            });
        }
    }

    /// Every problem of the version itself: below the target's minimum, or above
    /// [`MAX_PTX_VERSION`].
    #[must_use]
    pub const fn validate(&self) -> PtxDiagnostics {
        let mut d = PtxDiagnostics::new();
        self.check_version(self.target.min_ptx_version(), self.target.name(), &mut d);
        if self.version > MAX_PTX_VERSION {
            d.push(PtxError::rule(PtxRule::VersionTooHigh, self.version as u64));
        }
        d
    }
}

const fn scale_input_d_on(target: Target) -> bool {
    !matches!(target, Target::Sm110a | Target::Sm110f)
}

const fn ld_red_on(target: Target) -> bool {
    matches!(
        target,
        Target::Sm103a | Target::Sm103f | Target::Sm110a | Target::Sm110f
    )
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// True when `name` is a PTX identifier (PTX ISA 4.4): `[a-zA-Z][a-zA-Z0-9_$]*` or
/// `[_$%][a-zA-Z0-9_$]+`.
#[must_use]
pub const fn is_identifier(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_empty() {
        return false;
    }
    let first = b[0];
    let start_ok = first.is_ascii_alphabetic();
    let sym = first == b'_' || first == b'$' || first == b'%';
    if !start_ok && !sym {
        return false;
    }
    if sym && b.len() < 2 {
        return false;
    }
    let mut i = 1;
    while i < b.len() {
        let c = b[i];
        if !(c.is_ascii_alphanumeric() || c == b'_' || c == b'$') {
            return false;
        }
        i += 1;
    }
    true
}

/// True when `name` can stand for an operand: a PTX identifier ([`is_identifier`]), or a Rust
/// inline-assembly placeholder `{name}` / `{0}` (a Rust identifier or a number in braces), which
/// `asm!` replaces with the register it allocates.
#[must_use]
pub const fn is_operand_name(name: &str) -> bool {
    if is_identifier(name) {
        return true;
    }
    let b = name.as_bytes();
    if b.len() < 3 || b[0] != b'{' || b[b.len() - 1] != b'}' {
        return false;
    }
    let first = b[1];
    let digits = first.is_ascii_digit();
    if !(digits || first.is_ascii_alphabetic() || first == b'_') {
        return false;
    }
    let mut i = 1;
    while i < b.len() - 1 {
        let c = b[i];
        let ok = if digits {
            c.is_ascii_digit()
        } else {
            c.is_ascii_alphanumeric() || c == b'_'
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

const fn check_name(name: &str, op: OperandName, index: usize, d: &mut PtxDiagnostics) {
    if !is_operand_name(name) {
        d.push(PtxError::rule(PtxRule::RegisterName(op), index as u64));
    }
}

const fn check_names(names: &[&str], op: OperandName, d: &mut PtxDiagnostics) {
    let mut i = 0;
    while i < names.len() {
        check_name(names[i], op, i, d);
        i += 1;
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The text an instruction is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Syntax {
    /// PTX, as ptxas reads it.
    #[default]
    Ptx,
    /// A Rust `asm!` template string: the braces of register vectors are doubled (`{{r0,r1}}`),
    /// so that only operand placeholders such as `{taddr}` are single braces.
    RustAsm,
}

fn write_vector<W: fmt::Write>(w: &mut W, regs: &[&str], syntax: Syntax) -> fmt::Result {
    let (open, close) = match syntax {
        Syntax::Ptx => ("{", "}"),
        Syntax::RustAsm => ("{{", "}}"),
    };
    w.write_str(open)?;
    for (i, r) in regs.iter().enumerate() {
        if i > 0 {
            w.write_char(',')?;
        }
        w.write_str(r)?;
    }
    w.write_str(close)
}

fn cta(g: CtaGroup) -> &'static str {
    match g {
        CtaGroup::One => ".cta_group::1",
        CtaGroup::Two => ".cta_group::2",
    }
}

const fn cta_count(g: CtaGroup) -> u64 {
    match g {
        CtaGroup::One => 1,
        CtaGroup::Two => 2,
    }
}

// ---------------------------------------------------------------------------------------------
// tcgen05.mma
// ---------------------------------------------------------------------------------------------

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

    /// The lowest PTX ISA version of the form: 8.6, 8.7 for `.kind::mxf4nvf4`, 8.8 for
    /// `.block16` / `.block32`.
    #[must_use]
    pub const fn min_ptx_version(&self) -> u8 {
        if let Some(bs) = self.block_scale {
            if matches!(bs.vec, ScaleVec::Block16 | ScaleVec::Block32) {
                return 88;
            }
        }
        if matches!(self.kind, Kind::Mxf4nvf4) {
            return 87;
        }
        86
    }

    /// Every problem of the form on `ctx` (see the [module docs](self)).
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
        ctx.check_version(self.min_ptx_version(), self.version_feature(), &mut d);
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

    const fn version_feature(&self) -> &'static str {
        if let Some(bs) = self.block_scale {
            if matches!(bs.vec, ScaleVec::Block16) {
                return ".block16";
            }
            if matches!(bs.vec, ScaleVec::Block32) {
                return ".block32";
            }
        }
        ".kind::mxf4nvf4"
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
            if bs.vec.is_16_elements() {
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
        self.write_syntax(w, Syntax::Ptx)
    }

    fn write_syntax<W: fmt::Write>(&self, w: &mut W, syntax: Syntax) -> fmt::Result {
        w.write_str("tcgen05.mma")?;
        if self.ws {
            w.write_str(".ws")?;
        }
        if self.sparse_metadata.is_some() {
            w.write_str(".sp")?;
        }
        write!(w, "{}.kind::{}", cta(self.cta_group), self.kind.name())?;
        if let Some(bs) = self.block_scale {
            write!(w, ".block_scale{}", bs.vec.name())?;
        }
        if self.ashift {
            w.write_str(".ashift")?;
        }
        match self.collector {
            Some(Collector::A(op)) => write!(w, ".collector::a::{}", op.name())?,
            Some(Collector::B(n, op)) => write!(w, ".collector::b{n}::{}", op.name())?,
            None => {}
        }
        write!(w, " [{}], ", self.d)?;
        match self.a {
            ASource::Smem(r) => w.write_str(r)?,
            ASource::Tmem(r) => write!(w, "[{r}]")?,
        }
        write!(w, ", {}, ", self.b)?;
        if let Some(m) = self.sparse_metadata {
            write!(w, "[{m}], ")?;
        }
        match self.idesc {
            Value::Reg(r) => w.write_str(r)?,
            Value::Imm(v) => write!(w, "{v:#010x}")?,
        }
        if let Some(bs) = self.block_scale {
            write!(w, ", [{}], [{}]", bs.scale_a, bs.scale_b)?;
        }
        if let Some(regs) = self.disable_output_lane {
            w.write_str(", ")?;
            write_vector(w, regs, syntax)?;
        }
        match self.enable_input_d {
            Value::Reg(r) => write!(w, ", {r}")?,
            Value::Imm(b) => write!(w, ", {}", b as u8)?,
        }
        if let Some(s) = self.scale_input_d {
            write!(w, ", {s}")?;
        }
        match self.zero_column_mask {
            Some(Value::Reg(r)) => write!(w, ", {r}")?,
            Some(Value::Imm(z)) => write!(w, ", {z:#x}")?,
            None => {}
        }
        w.write_char(';')
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

// ---------------------------------------------------------------------------------------------
// tcgen05.ld / tcgen05.st
// ---------------------------------------------------------------------------------------------

/// The reduction of `tcgen05.ld.red` (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RedOp {
    /// `.min`.
    Min,
    /// `.max`.
    Max,
}

/// The element type of `tcgen05.ld.red` (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RedType {
    /// `.f32` (takes `.abs` and `.NaN`).
    F32,
    /// `.u32`.
    U32,
    /// `.s32`.
    S32,
}

impl RedType {
    /// The PTX spelling without the dot.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RedType::F32 => "f32",
            RedType::U32 => "u32",
            RedType::S32 => "s32",
        }
    }
}

/// The `.red` part of `tcgen05.ld.red`: min or max across the loaded columns of each lane, into
/// `redval` (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reduction<'a> {
    /// `.min` or `.max`.
    pub op: RedOp,
    /// `.abs` (`.f32` only).
    pub abs: bool,
    /// `.NaN` (`.f32` only).
    pub nan: bool,
    /// The element type.
    pub ty: RedType,
    /// The register that receives the reduction.
    pub redval: &'a str,
}

/// `tcgen05.ld` (and `tcgen05.ld.red`): Tensor Memory to registers (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemLoad<'a> {
    /// The data-movement shape.
    pub shape: LdStShape,
    /// `.num`.
    pub num: Num,
    /// `.pack::16b`.
    pub pack: bool,
    /// The destination registers, exactly as many as Table 49 says.
    pub dst: &'a [&'a str],
    /// Register holding the Tensor Memory address.
    pub taddr: &'a str,
    /// `immHalfSplitoff` (`.16x32bx2` only), in columns.
    pub offset: Option<u32>,
    /// `.red` and its operands.
    pub red: Option<Reduction<'a>>,
}

impl<'a> TmemLoad<'a> {
    /// A plain load.
    #[must_use]
    pub const fn new(shape: LdStShape, num: Num, dst: &'a [&'a str], taddr: &'a str) -> Self {
        TmemLoad {
            shape,
            num,
            pack: false,
            dst,
            taddr,
            offset: None,
            red: None,
        }
    }

    /// With `.pack::16b`.
    #[must_use]
    pub const fn with_pack(mut self, pack: bool) -> Self {
        self.pack = pack;
        self
    }

    /// With `immHalfSplitoff`.
    #[must_use]
    pub const fn with_offset(mut self, offset: u32) -> Self {
        self.offset = Some(offset);
        self
    }

    /// With `.red`.
    #[must_use]
    pub const fn with_red(mut self, red: Reduction<'a>) -> Self {
        self.red = Some(red);
        self
    }

    /// 8.6, or 8.8 with `.red`.
    #[must_use]
    pub const fn min_ptx_version(&self) -> u8 {
        if self.red.is_some() {
            88
        } else {
            86
        }
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        check_names(self.dst, OperandName::Registers, &mut d);
        check_ld_st_common(self.shape, self.num, self.dst.len(), self.offset, &mut d);
        // Duplicate destinations.
        let mut i = 1;
        while i < self.dst.len() {
            let mut j = 0;
            while j < i {
                if str_eq(self.dst[i], self.dst[j]) {
                    d.push(PtxError::rule(PtxRule::DuplicateRegister, i as u64));
                    break;
                }
                j += 1;
            }
            i += 1;
        }
        if let Some(r) = self.red {
            check_name(r.redval, OperandName::Redval, 0, &mut d);
            let mut j = 0;
            while j < self.dst.len() {
                if str_eq(r.redval, self.dst[j]) {
                    d.push(PtxError::rule(
                        PtxRule::DuplicateRegister,
                        self.dst.len() as u64,
                    ));
                    break;
                }
                j += 1;
            }
            if !ld_red_on(ctx.target) {
                d.push(PtxError::named(PtxRule::RedNotOnTarget, ctx.target.name()));
            }
            ctx.check_version(88, "tcgen05.ld.red", &mut d);
            if !matches!(self.shape, LdStShape::S32x32b | LdStShape::S16x32bx2) {
                d.push(PtxError::named(PtxRule::RedShape, self.shape.name()));
            }
            if matches!(self.num, Num::X1) {
                d.push(PtxError::rule(PtxRule::RedNum, 1));
            }
            if self.pack {
                d.push(PtxError::rule(PtxRule::RedPack, 1));
            }
            if (r.abs || r.nan) && !matches!(r.ty, RedType::F32) {
                d.push(PtxError::named(PtxRule::RedAbsNaNType, r.ty.name()));
            }
        }
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        self.write_syntax(w, Syntax::Ptx)
    }

    fn write_syntax<W: fmt::Write>(&self, w: &mut W, syntax: Syntax) -> fmt::Result {
        w.write_str("tcgen05.ld")?;
        if self.red.is_some() {
            w.write_str(".red")?;
        }
        write!(w, ".sync.aligned{}{}", self.shape.name(), self.num.name())?;
        if self.pack {
            w.write_str(".pack::16b")?;
        }
        match self.red {
            Some(r) => {
                w.write_str(match r.op {
                    RedOp::Min => ".min",
                    RedOp::Max => ".max",
                })?;
                if r.abs {
                    w.write_str(".abs")?;
                }
                if r.nan {
                    w.write_str(".NaN")?;
                }
                write!(w, ".{} ", r.ty.name())?;
                write_vector(w, self.dst, syntax)?;
                write!(w, ", {}, [{}]", r.redval, self.taddr)?;
            }
            None => {
                w.write_str(".b32 ")?;
                write_vector(w, self.dst, syntax)?;
                write!(w, ", [{}]", self.taddr)?;
            }
        }
        if let Some(o) = self.offset {
            write!(w, ", {o}")?;
        }
        w.write_char(';')
    }

    /// Validates the form on `ctx`, then writes it.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem, or [`RenderError::Fmt`].
    #[allow(clippy::result_large_err)]
    pub fn render<W: fmt::Write>(&self, ctx: &Context, w: &mut W) -> Result<(), RenderError> {
        Instruction::Load(*self).render(ctx, w)
    }
}

const fn check_ld_st_common(
    shape: LdStShape,
    num: Num,
    len: usize,
    offset: Option<u32>,
    d: &mut PtxDiagnostics,
) {
    match registers_per_thread(shape, num) {
        Ok(n) => {
            if len != n as usize {
                d.push(PtxError::rule(PtxRule::RegisterCount, len as u64));
            }
        }
        Err(e) => d.push(PtxError::Tmem(e)),
    }
    match (shape, offset) {
        (LdStShape::S16x32bx2, None) => d.push(PtxError::rule(PtxRule::OffsetMissing, 0)),
        (LdStShape::S16x32bx2, Some(o)) => {
            if o >= TMEM_COLUMNS {
                d.push(PtxError::rule(PtxRule::OffsetOutOfRange, o as u64));
            }
        }
        (_, Some(_)) => d.push(PtxError::named(PtxRule::OffsetNotForShape, shape.name())),
        (_, None) => {}
    }
}

/// `tcgen05.st`: registers to Tensor Memory (PTX ISA 9.7.16.8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemStore<'a> {
    /// The data-movement shape.
    pub shape: LdStShape,
    /// `.num`.
    pub num: Num,
    /// `.unpack::16b`.
    pub unpack: bool,
    /// Register holding the Tensor Memory address.
    pub taddr: &'a str,
    /// `immHalfSplitoff` (`.16x32bx2` only), in columns.
    pub offset: Option<u32>,
    /// The source registers, exactly as many as Table 50 says.
    pub src: &'a [&'a str],
}

impl<'a> TmemStore<'a> {
    /// A plain store.
    #[must_use]
    pub const fn new(shape: LdStShape, num: Num, taddr: &'a str, src: &'a [&'a str]) -> Self {
        TmemStore {
            shape,
            num,
            unpack: false,
            taddr,
            offset: None,
            src,
        }
    }

    /// With `.unpack::16b`.
    #[must_use]
    pub const fn with_unpack(mut self, unpack: bool) -> Self {
        self.unpack = unpack;
        self
    }

    /// With `immHalfSplitoff`.
    #[must_use]
    pub const fn with_offset(mut self, offset: u32) -> Self {
        self.offset = Some(offset);
        self
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        check_names(self.src, OperandName::Registers, &mut d);
        check_ld_st_common(self.shape, self.num, self.src.len(), self.offset, &mut d);
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        self.write_syntax(w, Syntax::Ptx)
    }

    fn write_syntax<W: fmt::Write>(&self, w: &mut W, syntax: Syntax) -> fmt::Result {
        write!(
            w,
            "tcgen05.st.sync.aligned{}{}",
            self.shape.name(),
            self.num.name()
        )?;
        if self.unpack {
            w.write_str(".unpack::16b")?;
        }
        write!(w, ".b32 [{}], ", self.taddr)?;
        if let Some(o) = self.offset {
            write!(w, "{o}, ")?;
        }
        write_vector(w, self.src, syntax)?;
        w.write_char(';')
    }

    /// Validates the form on `ctx`, then writes it.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem, or [`RenderError::Fmt`].
    #[allow(clippy::result_large_err)]
    pub fn render<W: fmt::Write>(&self, ctx: &Context, w: &mut W) -> Result<(), RenderError> {
        Instruction::Store(*self).render(ctx, w)
    }
}

// ---------------------------------------------------------------------------------------------
// tcgen05.cp, tcgen05.shift
// ---------------------------------------------------------------------------------------------

/// The source format of a decompressing `tcgen05.cp` (destination format `.b8x16`; PTX ISA
/// 9.7.16.9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CpSourceFormat {
    /// `.b6x16_p32`: 16 six-bit elements and 32 bits of padding.
    B6x16P32,
    /// `.b4x16_p64`: 16 four-bit elements and 64 bits of padding.
    B4x16P64,
}

impl CpSourceFormat {
    /// The PTX qualifier.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CpSourceFormat::B6x16P32 => ".b6x16_p32",
            CpSourceFormat::B4x16P64 => ".b4x16_p64",
        }
    }
}

/// `tcgen05.cp`: shared memory to Tensor Memory (PTX ISA 9.7.16.9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cp<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// The shape.
    pub shape: CpShape,
    /// The `.multicast` qualifier the shape needs.
    pub multicast: CpMulticast,
    /// Decompression `.b8x16.src_fmt`.
    pub source_format: Option<CpSourceFormat>,
    /// Register holding the Tensor Memory address.
    pub taddr: &'a str,
    /// The shared memory descriptor: a 64-bit register or an immediate that is then checked.
    pub sdesc: Value<'a, u64>,
}

impl<'a> Cp<'a> {
    /// A copy without decompression.
    #[must_use]
    pub const fn new(
        cta_group: CtaGroup,
        shape: CpShape,
        multicast: CpMulticast,
        taddr: &'a str,
        sdesc: Value<'a, u64>,
    ) -> Self {
        Cp {
            cta_group,
            shape,
            multicast,
            source_format: None,
            taddr,
            sdesc,
        }
    }

    /// With decompression from `fmt` to `.b8x16`.
    #[must_use]
    pub const fn with_source_format(mut self, fmt: CpSourceFormat) -> Self {
        self.source_format = Some(fmt);
        self
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        if let Err(e) = validate_cp(self.shape, self.multicast) {
            d.push(PtxError::Tmem(e));
        }
        match self.sdesc {
            Value::Reg(r) => check_name(r, OperandName::Sdesc, 0, &mut d),
            Value::Imm(v) => {
                let dec = SmemDescriptor::decode(v, ctx.target);
                let mut i = 0;
                while i < dec.diagnostics.len() {
                    if let Some(e) = dec.diagnostics.get(i) {
                        d.push(PtxError::Smem(e));
                    }
                    i += 1;
                }
            }
        }
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        write!(
            w,
            "tcgen05.cp{}{}{}",
            cta(self.cta_group),
            self.shape.name(),
            self.multicast.name()
        )?;
        if let Some(f) = self.source_format {
            write!(w, ".b8x16{}", f.name())?;
        }
        write!(w, " [{}], ", self.taddr)?;
        match self.sdesc {
            Value::Reg(r) => w.write_str(r)?,
            Value::Imm(v) => write!(w, "{v:#x}")?,
        }
        w.write_char(';')
    }
}

/// `tcgen05.shift.cta_group.down`: shift 32-byte rows of Tensor Memory down by one row (PTX ISA
/// 9.7.16.9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shift<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// Register holding the Tensor Memory address (its lane a multiple of 32).
    pub taddr: &'a str,
}

impl Shift<'_> {
    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        if !ctx.target.supports_shift() {
            d.push(PtxError::named(
                PtxRule::ShiftNotOnTarget,
                ctx.target.name(),
            ));
        }
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        write!(
            w,
            "tcgen05.shift{}.down [{}];",
            cta(self.cta_group),
            self.taddr
        )
    }
}

// ---------------------------------------------------------------------------------------------
// alloc, dealloc, relinquish_alloc_permit, commit, fence, wait
// ---------------------------------------------------------------------------------------------

const fn check_ncols(n: Value<'_, u32>, d: &mut PtxDiagnostics) {
    match n {
        Value::Reg(r) => check_name(r, OperandName::NCols, 0, d),
        Value::Imm(v) => {
            if let Err(e) = validate_alloc_columns(v) {
                d.push(PtxError::Tmem(e));
            }
        }
    }
}

fn write_ncols<W: fmt::Write>(w: &mut W, n: Value<'_, u32>) -> fmt::Result {
    match n {
        Value::Reg(r) => w.write_str(r),
        Value::Imm(v) => write!(w, "{v}"),
    }
}

/// `tcgen05.alloc`: allocate Tensor Memory columns and write their address to shared memory
/// (PTX ISA 9.7.16.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Alloc<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// The shared memory variable or address register that receives the address (`[dst]`).
    pub dst: &'a str,
    /// `nCols`: a power of two from 32 to 512 (decisions.md R24).
    pub n_cols: Value<'a, u32>,
}

impl Alloc<'_> {
    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.dst, OperandName::Dst, 0, &mut d);
        check_ncols(self.n_cols, &mut d);
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        write!(
            w,
            "tcgen05.alloc{}.sync.aligned.shared::cta.b32 [{}], ",
            cta(self.cta_group),
            self.dst
        )?;
        write_ncols(w, self.n_cols)?;
        w.write_char(';')
    }
}

/// `tcgen05.dealloc`: free Tensor Memory columns (PTX ISA 9.7.16.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dealloc<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// Register holding the address `tcgen05.alloc` returned.
    pub taddr: &'a str,
    /// `nCols`, as allocated.
    pub n_cols: Value<'a, u32>,
}

impl Dealloc<'_> {
    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        check_ncols(self.n_cols, &mut d);
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        write!(
            w,
            "tcgen05.dealloc{}.sync.aligned.b32 {}, ",
            cta(self.cta_group),
            self.taddr
        )?;
        write_ncols(w, self.n_cols)?;
        w.write_char(';')
    }
}

/// `tcgen05.commit`: make an mbarrier track the completion of this thread's earlier
/// asynchronous tcgen05 operations (PTX ISA 9.7.16 `tcgen05.commit`, anchor
/// `#tcgen05-instructions-tcgen05-commit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Commit<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// The mbarrier's shared memory variable or address register.
    pub mbar: &'a str,
    /// `.multicast::cluster` with its 16-bit `ctaMask` (a `.b16` register or an immediate).
    pub multicast: Option<Value<'a, u16>>,
}

impl Commit<'_> {
    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.mbar, OperandName::Mbar, 0, &mut d);
        if let Some(Value::Reg(r)) = self.multicast {
            check_name(r, OperandName::CtaMask, 0, &mut d);
        }
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        write!(
            w,
            "tcgen05.commit{}.mbarrier::arrive::one.shared::cluster",
            cta(self.cta_group)
        )?;
        match self.multicast {
            None => write!(w, ".b64 [{}];", self.mbar),
            Some(Value::Reg(r)) => write!(w, ".multicast::cluster.b64 [{}], {r};", self.mbar),
            Some(Value::Imm(m)) => write!(w, ".multicast::cluster.b64 [{}], {m:#x};", self.mbar),
        }
    }
}

/// `tcgen05.fence::*`: order tcgen05 operations around thread synchronization (PTX ISA 9.7.16
/// `tcgen05.fence`, anchor `#tcgen05-instructions-tcgen05-fence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fence {
    /// `tcgen05.fence::before_thread_sync`.
    BeforeThreadSync,
    /// `tcgen05.fence::after_thread_sync`.
    AfterThreadSync,
}

/// `tcgen05.wait::*` (PTX ISA 9.7.16.8.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wait {
    /// `tcgen05.wait::ld.sync.aligned`.
    Ld,
    /// `tcgen05.wait::st.sync.aligned`.
    St,
}

// ---------------------------------------------------------------------------------------------
// Any instruction
// ---------------------------------------------------------------------------------------------

/// Any tcgen05 instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction<'a> {
    /// `tcgen05.mma` in any form.
    Mma(Mma<'a>),
    /// `tcgen05.ld` / `tcgen05.ld.red`.
    Load(TmemLoad<'a>),
    /// `tcgen05.st`.
    Store(TmemStore<'a>),
    /// `tcgen05.cp`.
    Cp(Cp<'a>),
    /// `tcgen05.shift`.
    Shift(Shift<'a>),
    /// `tcgen05.alloc`.
    Alloc(Alloc<'a>),
    /// `tcgen05.dealloc`.
    Dealloc(Dealloc<'a>),
    /// `tcgen05.relinquish_alloc_permit`.
    RelinquishAllocPermit(CtaGroup),
    /// `tcgen05.commit`.
    Commit(Commit<'a>),
    /// `tcgen05.fence::*`.
    Fence(Fence),
    /// `tcgen05.wait::*`.
    Wait(Wait),
}

impl<'a> Instruction<'a> {
    /// The text of operand `op` (element `index` of a vector operand, else `index` 0) as
    /// given, or `None` when the instruction has no such operand or it is an immediate. What a
    /// [`PtxRule::RegisterName`] error is about, to show it as typed.
    #[must_use]
    pub const fn operand_text(&self, op: OperandName, index: usize) -> Option<&'a str> {
        const fn reg<T: Copy>(v: Value<'_, T>) -> Option<&str> {
            match v {
                Value::Reg(r) => Some(r),
                Value::Imm(_) => None,
            }
        }
        const fn at<'b>(v: &'b [&'b str], i: usize) -> Option<&'b str> {
            if i < v.len() {
                Some(v[i])
            } else {
                None
            }
        }
        let scalar = index == 0;
        match (*self, op) {
            (Instruction::Mma(m), OperandName::DTmem) if scalar => Some(m.d),
            (Instruction::Mma(m), OperandName::ADesc) if scalar => match m.a {
                ASource::Smem(r) => Some(r),
                ASource::Tmem(_) => None,
            },
            (Instruction::Mma(m), OperandName::ATmem) if scalar => match m.a {
                ASource::Tmem(r) => Some(r),
                ASource::Smem(_) => None,
            },
            (Instruction::Mma(m), OperandName::BDesc) if scalar => Some(m.b),
            (Instruction::Mma(m), OperandName::SparseMetadata) if scalar => m.sparse_metadata,
            (Instruction::Mma(m), OperandName::Idesc) if scalar => reg(m.idesc),
            (Instruction::Mma(m), OperandName::EnableInputD) if scalar => reg(m.enable_input_d),
            (Instruction::Mma(m), OperandName::ZeroColumnMask) if scalar => {
                match m.zero_column_mask {
                    Some(v) => reg(v),
                    None => None,
                }
            }
            (Instruction::Mma(m), OperandName::ScaleA) if scalar => match m.block_scale {
                Some(b) => Some(b.scale_a),
                None => None,
            },
            (Instruction::Mma(m), OperandName::ScaleB) if scalar => match m.block_scale {
                Some(b) => Some(b.scale_b),
                None => None,
            },
            (Instruction::Mma(m), OperandName::DisableOutputLane) => match m.disable_output_lane {
                Some(v) => at(v, index),
                None => None,
            },
            (Instruction::Load(l), OperandName::Taddr) if scalar => Some(l.taddr),
            (Instruction::Load(l), OperandName::Registers) => at(l.dst, index),
            (Instruction::Load(l), OperandName::Redval) if scalar => match l.red {
                Some(r) => Some(r.redval),
                None => None,
            },
            (Instruction::Store(st), OperandName::Taddr) if scalar => Some(st.taddr),
            (Instruction::Store(st), OperandName::Registers) => at(st.src, index),
            (Instruction::Cp(c), OperandName::Taddr) if scalar => Some(c.taddr),
            (Instruction::Cp(c), OperandName::Sdesc) if scalar => reg(c.sdesc),
            (Instruction::Shift(sh), OperandName::Taddr) if scalar => Some(sh.taddr),
            (Instruction::Alloc(a), OperandName::Dst) if scalar => Some(a.dst),
            (Instruction::Alloc(a), OperandName::NCols) if scalar => reg(a.n_cols),
            (Instruction::Dealloc(d), OperandName::Taddr) if scalar => Some(d.taddr),
            (Instruction::Dealloc(d), OperandName::NCols) if scalar => reg(d.n_cols),
            (Instruction::Commit(c), OperandName::Mbar) if scalar => Some(c.mbar),
            (Instruction::Commit(c), OperandName::CtaMask) if scalar => match c.multicast {
                Some(v) => reg(v),
                None => None,
            },
            _ => None,
        }
    }

    /// The `.cta_group` the instruction names, if any.
    #[must_use]
    pub const fn cta_group(&self) -> Option<CtaGroup> {
        match self {
            Instruction::Mma(m) => Some(m.cta_group),
            Instruction::Cp(c) => Some(c.cta_group),
            Instruction::Shift(s) => Some(s.cta_group),
            Instruction::Alloc(a) => Some(a.cta_group),
            Instruction::Dealloc(a) => Some(a.cta_group),
            Instruction::RelinquishAllocPermit(g) => Some(*g),
            Instruction::Commit(c) => Some(c.cta_group),
            Instruction::Load(_)
            | Instruction::Store(_)
            | Instruction::Fence(_)
            | Instruction::Wait(_) => None,
        }
    }

    /// The lowest PTX ISA version of the form (the target may need more: [`Context::new`]).
    #[must_use]
    pub const fn min_ptx_version(&self) -> u8 {
        match self {
            Instruction::Mma(m) => m.min_ptx_version(),
            Instruction::Load(l) => l.min_ptx_version(),
            _ => 86,
        }
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        match self {
            Instruction::Mma(m) => m.validate(ctx),
            Instruction::Load(l) => l.validate(ctx),
            Instruction::Store(s) => s.validate(ctx),
            Instruction::Cp(c) => c.validate(ctx),
            Instruction::Shift(s) => s.validate(ctx),
            Instruction::Alloc(a) => a.validate(ctx),
            Instruction::Dealloc(a) => a.validate(ctx),
            Instruction::Commit(c) => c.validate(ctx),
            Instruction::RelinquishAllocPermit(_)
            | Instruction::Fence(_)
            | Instruction::Wait(_) => ctx.validate(),
        }
    }

    /// Writes the instruction (one line, ending in `;`, no newline) without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        self.write_unchecked_as(w, Syntax::Ptx)
    }

    /// Writes the instruction in `syntax` without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked_as<W: fmt::Write>(&self, w: &mut W, syntax: Syntax) -> fmt::Result {
        match self {
            Instruction::Mma(m) => m.write_syntax(w, syntax),
            Instruction::Load(l) => l.write_syntax(w, syntax),
            Instruction::Store(s) => s.write_syntax(w, syntax),
            Instruction::Cp(c) => c.write_unchecked(w),
            Instruction::Shift(s) => s.write_unchecked(w),
            Instruction::Alloc(a) => a.write_unchecked(w),
            Instruction::Dealloc(a) => a.write_unchecked(w),
            Instruction::RelinquishAllocPermit(g) => write!(
                w,
                "tcgen05.relinquish_alloc_permit{}.sync.aligned;",
                cta(*g)
            ),
            Instruction::Commit(c) => c.write_unchecked(w),
            Instruction::Fence(Fence::BeforeThreadSync) => {
                w.write_str("tcgen05.fence::before_thread_sync;")
            }
            Instruction::Fence(Fence::AfterThreadSync) => {
                w.write_str("tcgen05.fence::after_thread_sync;")
            }
            Instruction::Wait(Wait::Ld) => w.write_str("tcgen05.wait::ld.sync.aligned;"),
            Instruction::Wait(Wait::St) => w.write_str("tcgen05.wait::st.sync.aligned;"),
        }
    }

    /// Validates the form on `ctx` and writes it only when it breaks no rule.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem (nothing is written), or
    /// [`RenderError::Fmt`].
    #[allow(clippy::result_large_err)]
    pub fn render<W: fmt::Write>(&self, ctx: &Context, w: &mut W) -> Result<(), RenderError> {
        self.render_as(ctx, w, Syntax::Ptx)
    }

    /// Validates the form on `ctx` and writes it in `syntax` only when it breaks no rule.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem (nothing is written), or
    /// [`RenderError::Fmt`].
    ///
    /// # Examples
    /// ```
    /// use tcgen05::ptx::{Context, Instruction, Syntax, TmemLoad};
    /// use tcgen05::tensor_memory::{LdStShape, Num};
    /// use tcgen05::Target;
    ///
    /// let ld = Instruction::Load(TmemLoad::new(LdStShape::S32x32b, Num::X2, &["{a}", "{b}"], "{t}"));
    /// let mut s = String::new();
    /// ld.render_as(&Context::new(Target::Sm100a), &mut s, Syntax::RustAsm).unwrap();
    /// assert_eq!(s, "tcgen05.ld.sync.aligned.32x32b.x2.b32 {{{a},{b}}}, [{t}];");
    /// ```
    #[allow(clippy::result_large_err)]
    pub fn render_as<W: fmt::Write>(
        &self,
        ctx: &Context,
        w: &mut W,
        syntax: Syntax,
    ) -> Result<(), RenderError> {
        let d = self.validate(ctx);
        if d.has_errors() {
            return Err(RenderError::Invalid(d));
        }
        self.write_unchecked_as(w, syntax)?;
        Ok(())
    }
}

/// Every problem of a kernel body on `ctx`: each instruction's, then the kernel-wide rule that
/// all tcgen05 instructions use one `.cta_group` (PTX ISA 9.7.16.10.9.1; ptxas 13.5 enforces
/// it).
#[must_use]
pub const fn validate_kernel(ctx: &Context, body: &[Instruction<'_>]) -> PtxDiagnostics {
    let mut d = ctx.validate();
    let skip = d.len();
    let mut first: Option<CtaGroup> = None;
    let mut mixed = false;
    let mut i = 0;
    while i < body.len() {
        let one = body[i].validate(ctx);
        // The context's own problems are already in the list once.
        let mut j = skip;
        while j < one.len() {
            if let Some(e) = one.get(j) {
                d.push(e);
            }
            j += 1;
        }
        if let Some(g) = body[i].cta_group() {
            match first {
                None => first = Some(g),
                Some(f) => {
                    if cta_count(f) != cta_count(g) && !mixed {
                        mixed = true;
                        d.push(PtxError::rule(PtxRule::CtaGroupMixed, cta_count(g)));
                    }
                }
            }
        }
        i += 1;
    }
    d
}

// ---------------------------------------------------------------------------------------------
// A minimal kernel
// ---------------------------------------------------------------------------------------------

/// The scale-vector qualifier the minimal kernel uses for a block-scaled configuration: none for
/// `mxf8f6f4` and `mxf4` (their default), and for `mxf4nvf4` the 16-element vector with UE4M3
/// scales, the 32-element one with UE8M0 (`.scale_vec::NX` on the `a` targets, `.blockN` on the
/// family targets and for K = 96).
#[must_use]
pub const fn kernel_scale_vec(cfg: &MmaConfig) -> Option<ScaleVec> {
    let f = &cfg.idesc;
    match f.kind {
        Kind::Mxf8f6f4 | Kind::Mxf4 => Some(ScaleVec::Default),
        Kind::Mxf4nvf4 => {
            let ue4m3 = matches!(f.scale_type, Some(ScaleType::Ue4m3));
            let block = f.k96 || !cfg.target.is_arch_specific();
            Some(match (ue4m3, block) {
                (true, false) => ScaleVec::X4,
                (false, false) => ScaleVec::X2,
                (true, true) => ScaleVec::Block16,
                (false, true) => ScaleVec::Block32,
            })
        }
        _ => None,
    }
}

/// Tensor Memory columns the minimal kernel allocates for `cfg`: D's N columns, 16 for the scale
/// factors of a block-scaled kind, 32 for sparsity metadata, rounded up to a power of two
/// (decisions.md R24).
#[must_use]
pub const fn kernel_columns(cfg: &MmaConfig) -> u32 {
    let f = &cfg.idesc;
    let mut need = f.n as u32;
    if f.kind.is_block_scaled() {
        need += 16;
    }
    if f.sparse {
        need += 32;
    }
    let mut cols = 32;
    while cols < need && cols < TMEM_COLUMNS {
        cols *= 2;
    }
    cols
}

/// Writes the smallest complete PTX module that exercises an MMA configuration: a kernel
/// `tcgen05_minimal(a_desc, b_desc, out)` that allocates Tensor Memory, issues one
/// `tcgen05.mma` with the configuration's instruction descriptor as an immediate (so the
/// disassembly shows it), commits to an mbarrier, waits on it, loads 8 columns of D with
/// `tcgen05.ld`, waits for the load, stores one word, and frees Tensor Memory. It is meant to be
/// assembled (`ptxas -arch=<target>`) to check a setup, not to compute a product: the shared
/// memory descriptors come from the parameters as they are.
///
/// # Errors
/// [`RenderError::Invalid`] with every problem of the configuration ([`validate_mma`], as
/// [`PtxError::Idesc`]) or of the kernel's instructions; [`RenderError::Fmt`] when the writer
/// fails.
///
/// # Examples
/// ```
/// use tcgen05::instruction_descriptor::IdescFields;
/// use tcgen05::ptx::write_minimal_kernel;
/// use tcgen05::shapes::MmaConfig;
/// use tcgen05::{ElementType::{Bf16, F32}, Kind};
///
/// let cfg = MmaConfig::new(IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, 64));
/// let mut ptx = String::new();
/// write_minimal_kernel(&cfg, &mut ptx).unwrap();
/// assert!(ptx.contains("tcgen05.mma.cta_group::1.kind::f16 [taddr], a_desc, b_desc, 0x08100490, 0;"));
/// ```
#[allow(clippy::result_large_err)]
pub fn write_minimal_kernel<W: fmt::Write>(cfg: &MmaConfig, w: &mut W) -> Result<(), RenderError> {
    let problems = validate_mma(cfg);
    if problems.has_errors() {
        let mut d = PtxDiagnostics::new();
        for e in problems.iter() {
            d.push(PtxError::Idesc(e));
        }
        return Err(RenderError::Invalid(d));
    }
    let bits = match cfg.idesc.encode() {
        Ok(i) => i.bits(),
        Err(e) => {
            let mut d = PtxDiagnostics::new();
            d.push(PtxError::Idesc(MmaError::Idesc(e)));
            return Err(RenderError::Invalid(d));
        }
    };
    let g = cfg.cta_group;
    let cols = kernel_columns(cfg);
    let f = &cfg.idesc;
    let mut mma = Mma::new(
        g,
        f.kind,
        "taddr",
        ASource::Smem("a_desc"),
        "b_desc",
        Value::Imm(bits),
        Value::Imm(false),
    )
    .with_ws(cfg.ws);
    if f.sparse {
        mma = mma.with_sparse("sp_meta");
    }
    if let Some(vec) = kernel_scale_vec(cfg) {
        mma = mma.with_block_scale(vec, "scale_a", "scale_b");
    }
    const D: [&str; 8] = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"];
    let body = [
        Instruction::Alloc(Alloc {
            cta_group: g,
            dst: "tmem_slot",
            n_cols: Value::Imm(cols),
        }),
        Instruction::RelinquishAllocPermit(g),
        Instruction::Fence(Fence::AfterThreadSync),
        Instruction::Mma(mma),
        Instruction::Commit(Commit {
            cta_group: g,
            mbar: "mbar",
            multicast: None,
        }),
        Instruction::Fence(Fence::AfterThreadSync),
        Instruction::Load(TmemLoad::new(LdStShape::S32x32b, Num::X8, &D, "taddr")),
        Instruction::Wait(Wait::Ld),
        Instruction::Fence(Fence::BeforeThreadSync),
        Instruction::Dealloc(Dealloc {
            cta_group: g,
            taddr: "taddr",
            n_cols: Value::Imm(cols),
        }),
    ];
    let ctx = Context::for_instructions(cfg.target, &body);
    let d = validate_kernel(&ctx, &body);
    if d.has_errors() {
        return Err(RenderError::Invalid(d));
    }
    let line = |w: &mut W, i: &Instruction<'_>, pred: &str| -> fmt::Result {
        write!(w, "    {pred}")?;
        i.write_unchecked(w)?;
        w.write_char('\n')
    };
    writeln!(
        w,
        "// Minimal tcgen05 kernel: .kind::{} {}{} M = {} N = {} K = {}{}, instruction descriptor \
         {bits:#010x}",
        f.kind.name(),
        if cfg.ws { ".ws " } else { "" },
        &cta(g)[1..],
        f.m,
        f.n,
        f.k(),
        if f.sparse { " sparse" } else { "" },
    )?;
    ctx.write_preamble(w)?;
    w.write_str(
        "\n.visible .entry tcgen05_minimal(\n    .param .u64 a_desc_param,\n    \
         .param .u64 b_desc_param,\n    .param .u64 out_param\n)\n{\n    \
         .reg .b64 a_desc, b_desc, out;\n    \
         .reg .b32 taddr, scale_a, scale_b, sp_meta, d0, d1, d2, d3, d4, d5, d6, d7, sum;\n    \
         .reg .pred leader, done;\n    .shared .align 4 .b32 tmem_slot;\n    \
         .shared .align 8 .b64 mbar;\n\n    ld.param.u64 a_desc, [a_desc_param];\n    \
         ld.param.u64 b_desc, [b_desc_param];\n    ld.param.u64 out, [out_param];\n",
    )?;
    line(w, &body[0], "")?;
    line(w, &body[1], "")?;
    w.write_str("    mbarrier.init.shared::cta.b64 [mbar], 1;\n    bar.sync 0;\n")?;
    line(w, &body[2], "")?;
    w.write_str("    ld.shared.b32 taddr, [tmem_slot];\n")?;
    writeln!(w, "    add.u32 scale_a, taddr, {};", f.n)?;
    writeln!(w, "    add.u32 scale_b, taddr, {};", u32::from(f.n) + 8)?;
    writeln!(w, "    add.u32 sp_meta, taddr, {};", u32::from(f.n) + 16)?;
    w.write_str("    elect.sync _|leader, 0xffffffff;\n")?;
    line(w, &body[3], "@leader ")?;
    line(w, &body[4], "@leader ")?;
    w.write_str(
        "wait_mma:\n    mbarrier.try_wait.parity.shared::cta.b64 done, [mbar], 0;\n    \
         @!done bra wait_mma;\n",
    )?;
    line(w, &body[5], "")?;
    line(w, &body[6], "")?;
    line(w, &body[7], "")?;
    w.write_str("    add.u32 sum, d0, d7;\n    st.global.u32 [out], sum;\n")?;
    line(w, &body[8], "")?;
    w.write_str("    bar.sync 0;\n")?;
    line(w, &body[9], "")?;
    w.write_str("    ret;\n}\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{string::String, vec::Vec};

    fn text(i: Instruction<'_>, ctx: &Context) -> String {
        let mut s = String::new();
        i.render(ctx, &mut s).expect("valid form");
        s
    }

    fn rules(i: Instruction<'_>, ctx: &Context) -> Vec<&'static str> {
        i.validate(ctx).errors().map(|e| e.field()).collect()
    }

    const A100: Context = Context::new(Target::Sm100a);

    fn base() -> Mma<'static> {
        Mma::new(
            CtaGroup::One,
            Kind::F16,
            "d",
            ASource::Smem("adesc"),
            "bdesc",
            Value::Reg("idesc"),
            Value::Reg("p"),
        )
    }

    #[test]
    fn oracle_minimal_kernel_instructions() {
        // The instructions of the minimal kernel in oracles.md section 1, as written there.
        let m = base();
        assert_eq!(
            text(Instruction::Mma(m), &A100),
            "tcgen05.mma.cta_group::1.kind::f16 [d], adesc, bdesc, idesc, p;"
        );
        let alloc = Alloc {
            cta_group: CtaGroup::One,
            dst: "smem_slot",
            n_cols: Value::Imm(32),
        };
        assert_eq!(
            text(Instruction::Alloc(alloc), &A100),
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem_slot], 32;"
        );
        let c = Commit {
            cta_group: CtaGroup::One,
            mbar: "mbar",
            multicast: None,
        };
        assert_eq!(
            text(Instruction::Commit(c), &A100),
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];"
        );
        let regs = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"];
        let ld = TmemLoad::new(LdStShape::S32x32b, Num::X8, &regs, "taddr");
        assert_eq!(
            text(Instruction::Load(ld), &A100),
            "tcgen05.ld.sync.aligned.32x32b.x8.b32 {r0,r1,r2,r3,r4,r5,r6,r7}, [taddr];"
        );
        assert_eq!(
            text(Instruction::Wait(Wait::Ld), &A100),
            "tcgen05.wait::ld.sync.aligned;"
        );
        let dealloc = Dealloc {
            cta_group: CtaGroup::One,
            taddr: "taddr",
            n_cols: Value::Imm(32),
        };
        assert_eq!(
            text(Instruction::Dealloc(dealloc), &A100),
            "tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, 32;"
        );
    }

    #[test]
    fn every_mma_option_renders_in_syntax_order() {
        let lanes = ["l0", "l1", "l2", "l3"];
        let m = base()
            .with_sparse("meta")
            .with_collector(Collector::A(CollectorOp::Lastuse))
            .with_ashift(true)
            .with_disable_output_lane(&lanes)
            .with_scale_input_d(15);
        let m = Mma {
            a: ASource::Tmem("atmem"),
            enable_input_d: Value::Imm(true),
            ..m
        };
        assert_eq!(
            text(Instruction::Mma(m), &A100),
            "tcgen05.mma.sp.cta_group::1.kind::f16.ashift.collector::a::lastuse [d], [atmem], \
             bdesc, [meta], idesc, {l0,l1,l2,l3}, 1, 15;"
        );
        let ws = base()
            .with_ws(true)
            .with_collector(Collector::B(3, CollectorOp::Fill))
            .with_zero_column_mask(Value::Reg("zm"));
        assert_eq!(
            text(Instruction::Mma(ws), &A100),
            "tcgen05.mma.ws.cta_group::1.kind::f16.collector::b3::fill [d], adesc, bdesc, idesc, p, zm;"
        );
        let bs = Mma {
            kind: Kind::Mxf4nvf4,
            ..base()
        }
        .with_block_scale(ScaleVec::X4, "sfa", "sfb");
        assert_eq!(
            text(
                Instruction::Mma(bs),
                &Context::new(Target::Sm100a).with_version(87)
            ),
            "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [d], adesc, bdesc, \
             idesc, [sfa], [sfb], p;"
        );
    }

    #[test]
    fn each_mma_rule_is_reported_with_its_field() {
        let two = Mma {
            cta_group: CtaGroup::Two,
            ..base()
        };
        assert_eq!(
            rules(Instruction::Mma(two.with_ws(true)), &A100),
            ["cta_group"]
        );
        let mx = Mma {
            kind: Kind::Mxf8f6f4,
            ..base()
        };
        assert_eq!(rules(Instruction::Mma(mx), &A100), ["block_scale"]);
        assert_eq!(
            rules(
                Instruction::Mma(mx.with_block_scale(ScaleVec::X2, "a", "b")),
                &A100
            ),
            ["scale_vec"]
        );
        assert_eq!(
            rules(Instruction::Mma(base().with_ashift(true)), &A100),
            ["ashift"]
        );
        assert_eq!(
            rules(Instruction::Mma(base().with_scale_input_d(16)), &A100),
            ["scale_input_d"]
        );
        let i8 = Mma {
            kind: Kind::I8,
            ..base()
        };
        assert_eq!(
            rules(Instruction::Mma(i8), &Context::new(Target::Sm103a)),
            ["target"]
        );
        let e = i8.with_scale_input_d(1).validate(&A100);
        assert_eq!(e.len(), 1);
        assert!(!e.get(0).map(|e| e.ptxas_checks()).unwrap_or(true));
        let three = ["a", "b", "c"];
        assert_eq!(
            rules(
                Instruction::Mma(base().with_disable_output_lane(&three)),
                &A100
            ),
            ["disable_output_lane"]
        );
        assert_eq!(
            rules(Instruction::Mma(Mma { d: "1d", ..base() }), &A100),
            ["d_tmem"]
        );
        // Every problem, not only the first.
        let many = two.with_ws(true).with_ashift(true).with_scale_input_d(20);
        assert!(many.validate(&A100).len() >= 4);
    }

    #[test]
    fn immediate_descriptors_are_checked() {
        let ok = Mma {
            idesc: Value::Imm(0x0810_0490),
            ..base()
        };
        assert!(ok.validate(&A100).is_empty());
        // M = 48: ptxas accepts, Table 39 does not.
        let m48 = Mma {
            idesc: Value::Imm(0x0310_0490),
            ..base()
        };
        let d = m48.validate(&A100);
        assert!(d.has_errors());
        assert!(d.errors().all(|e| !e.ptxas_checks()));
        // Sparsity bit without .sp.
        let sp = Mma {
            idesc: Value::Imm(0x0810_0494),
            ..base()
        };
        assert!(sp.validate(&A100).errors().any(|e| e.field() == "sparse"));
        // A zero-column mask with a reserved bit.
        let ws = Mma {
            idesc: Value::Imm(0x0810_0490),
            ..base()
        }
        .with_ws(true)
        .with_zero_column_mask(Value::Imm(1 << 62));
        assert!(ws.validate(&A100).has_errors());
    }

    #[test]
    fn load_store_rules() {
        let two = ["a", "b"];
        let ld = TmemLoad::new(LdStShape::S16x32bx2, Num::X2, &two, "t");
        assert_eq!(rules(Instruction::Load(ld), &A100), ["offset"]);
        assert_eq!(
            text(Instruction::Load(ld.with_offset(2)), &A100),
            "tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {a,b}, [t], 2;"
        );
        let st = TmemStore::new(LdStShape::S16x32bx2, Num::X2, "t", &two)
            .with_offset(2)
            .with_unpack(true);
        assert_eq!(
            text(Instruction::Store(st), &A100),
            "tcgen05.st.sync.aligned.16x32bx2.x2.unpack::16b.b32 [t], 2, {a,b};"
        );
        let short = TmemLoad::new(LdStShape::S16x128b, Num::X2, &two, "t");
        assert_eq!(rules(Instruction::Load(short), &A100), ["registers"]);
        let dup = ["a", "a"];
        let ld = TmemLoad::new(LdStShape::S32x32b, Num::X2, &dup, "t");
        assert_eq!(rules(Instruction::Load(ld), &A100), ["registers"]);
        let red = TmemLoad::new(LdStShape::S32x32b, Num::X2, &two, "t").with_red(Reduction {
            op: RedOp::Max,
            abs: true,
            nan: true,
            ty: RedType::F32,
            redval: "m",
        });
        assert_eq!(rules(Instruction::Load(red), &A100), ["target", "version"]);
        assert_eq!(
            rules(Instruction::Load(red), &A100.with_version(88)),
            ["target"]
        );
        assert_eq!(
            text(Instruction::Load(red), &Context::new(Target::Sm103a)),
            "tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.NaN.f32 {a,b}, m, [t];"
        );
    }

    #[test]
    fn other_instructions() {
        let cp = Cp::new(
            CtaGroup::Two,
            CpShape::S64x128b,
            CpMulticast::Warpx2_01_23,
            "t",
            Value::Reg("s"),
        )
        .with_source_format(CpSourceFormat::B4x16P64);
        assert_eq!(
            text(Instruction::Cp(cp), &A100),
            "tcgen05.cp.cta_group::2.64x128b.warpx2::01_23.b8x16.b4x16_p64 [t], s;"
        );
        let bad = Cp {
            multicast: CpMulticast::None,
            ..cp
        };
        assert_eq!(rules(Instruction::Cp(bad), &A100), ["multicast"]);
        let sh = Shift {
            cta_group: CtaGroup::One,
            taddr: "t",
        };
        assert_eq!(
            text(Instruction::Shift(sh), &A100),
            "tcgen05.shift.cta_group::1.down [t];"
        );
        assert_eq!(
            rules(Instruction::Shift(sh), &Context::new(Target::Sm100f)),
            ["target"]
        );
        let a96 = Alloc {
            cta_group: CtaGroup::One,
            dst: "slot",
            n_cols: Value::Imm(96),
        };
        let d = Instruction::Alloc(a96).validate(&A100);
        assert_eq!(d.len(), 1);
        assert_eq!(d.get(0).map(|e| e.field()), Some("n_cols"));
        let c = Commit {
            cta_group: CtaGroup::Two,
            mbar: "bar",
            multicast: Some(Value::Imm(3)),
        };
        assert_eq!(
            text(Instruction::Commit(c), &A100),
            "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [bar], 0x3;"
        );
    }

    #[test]
    fn versions_and_kernels() {
        let bs = Mma {
            kind: Kind::Mxf4nvf4,
            ..base()
        }
        .with_block_scale(ScaleVec::Block16, "a", "b");
        assert_eq!(rules(Instruction::Mma(bs), &A100), ["version"]);
        let body = [
            Instruction::Mma(bs),
            Instruction::Fence(Fence::AfterThreadSync),
        ];
        let ctx = Context::for_instructions(Target::Sm100a, &body);
        assert_eq!(ctx.version, 88);
        assert!(validate_kernel(&ctx, &body).is_empty());
        let mixed = [
            Instruction::Mma(base()),
            Instruction::RelinquishAllocPermit(CtaGroup::Two),
        ];
        let d = validate_kernel(&A100, &mixed);
        assert_eq!(
            d.errors().map(|e| e.field()).collect::<Vec<_>>(),
            ["cta_group"]
        );
        assert_eq!(
            rules(Instruction::Wait(Wait::St), &A100.with_version(92)),
            ["version"]
        );
        let mut s = String::new();
        Context::new(Target::Sm110a)
            .write_preamble(&mut s)
            .expect("a String never fails");
        assert_eq!(s, ".version 9.0\n.target sm_110a\n.address_size 64\n");
        assert!(is_identifier("%r1") && is_identifier("x_$1") && !is_identifier("%"));
        assert!(!is_identifier("1r") && !is_identifier("a b") && !is_identifier(""));
        assert!(is_operand_name("{taddr}") && is_operand_name("{0}") && is_operand_name("%rd1"));
        for bad in ["{}", "{t", "t}", "{a b}", "{1a}", "{{t}}", "{%r}"] {
            assert!(!is_operand_name(bad), "{bad}");
        }
    }

    /// Issue 16 D6: the text of an operand, to show a bad name as typed.
    #[test]
    fn operand_text_gives_the_name_as_given() {
        let ld = TmemLoad::new(LdStShape::S32x32b, Num::X2, &["a", "9b"], "[x]");
        let i = Instruction::Load(ld);
        assert_eq!(i.operand_text(OperandName::Taddr, 0), Some("[x]"));
        assert_eq!(i.operand_text(OperandName::Registers, 1), Some("9b"));
        assert_eq!(i.operand_text(OperandName::Registers, 2), None);
        assert_eq!(i.operand_text(OperandName::Taddr, 1), None);
        assert_eq!(i.operand_text(OperandName::Mbar, 0), None);
        let d = i.validate(&Context::new(Target::Sm100a));
        let names: Vec<_> = d
            .iter()
            .filter_map(|e| match e {
                PtxError::Rule {
                    rule: PtxRule::RegisterName(op),
                    value,
                    ..
                } => i.operand_text(op, value as usize),
                _ => None,
            })
            .collect();
        assert_eq!(names, ["[x]", "9b"]);
    }
}
