//! [`SmemRule`], [`SMEM_RULES`] and [`SmemError`]: the rules of Tables 40-41 (rules.md R1-R7),
//! their wording, and the checks that find them.

use super::fields::{LboMode, Swizzle};
use super::{SmemField, SmemProblemList, UNIT_SHIFT};
use crate::bits::Role;
use crate::diagnostic::{Diagnostic, Rule, RuleSource, Severity, Source};
use crate::targets::Target;
use core::fmt;

/// The rules of the shared memory descriptor, one per [`SmemError`] variant; each has one row in
/// [`SMEM_RULES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum SmemRule {
    /// [`SmemError::Misaligned`].
    Misaligned,
    /// [`SmemError::OutOfRange`].
    OutOfRange,
    /// [`SmemError::BaseOffsetOutOfRange`].
    BaseOffsetOutOfRange,
    /// [`SmemError::BaseOffsetWithoutSwizzle`].
    BaseOffsetWithoutSwizzle,
    /// [`SmemError::PatternStartWithoutSwizzle`].
    PatternStartWithoutSwizzle,
    /// [`SmemError::InvalidSwizzle`].
    InvalidSwizzle,
    /// [`SmemError::ReservedBit`].
    ReservedBit,
    /// [`SmemError::FixedBits`].
    FixedBits,
    /// [`SmemError::AbsoluteModeTarget`].
    AbsoluteModeTarget,
    /// [`SmemError::AbsoluteModeSwizzle`].
    AbsoluteModeSwizzle,
    /// [`SmemError::AbsoluteModeBaseOffset`].
    AbsoluteModeBaseOffset,
    /// [`SmemError::PatternStartNotLineAligned`].
    PatternStartNotLineAligned,
    /// [`SmemError::AdvanceMisaligned`].
    AdvanceMisaligned,
    /// [`SmemError::AdvanceOverflow`].
    AdvanceOverflow,
}

impl SmemRule {
    /// Every rule, in the order of [`SMEM_RULES`].
    pub const ALL: [SmemRule; 14] = [
        SmemRule::Misaligned,
        SmemRule::OutOfRange,
        SmemRule::BaseOffsetOutOfRange,
        SmemRule::BaseOffsetWithoutSwizzle,
        SmemRule::PatternStartWithoutSwizzle,
        SmemRule::InvalidSwizzle,
        SmemRule::ReservedBit,
        SmemRule::FixedBits,
        SmemRule::AbsoluteModeTarget,
        SmemRule::AbsoluteModeSwizzle,
        SmemRule::AbsoluteModeBaseOffset,
        SmemRule::PatternStartNotLineAligned,
        SmemRule::AdvanceMisaligned,
        SmemRule::AdvanceOverflow,
    ];

    /// The rule's row of [`SMEM_RULES`].
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &SMEM_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"smem.reserved_bit"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// Shorthand for a row of [`SMEM_RULES`].
const fn smem_rule(
    id: &'static str,
    source: Source,
    severity: Severity,
    statement: &'static str,
) -> Rule {
    Rule {
        id,
        source: RuleSource::Fixed(source),
        severity,
        statement,
        message: None,
    }
}

/// Every rule of the shared memory descriptor (PTX ISA 9.7.16.4.1, Tables 40-41, rules.md
/// R1-R5 and R7), one row each, indexed by [`SmemRule`]. [`SmemError`] reads its identifier,
/// source and severity here.
pub const SMEM_RULES: [Rule; 14] = [
    smem_rule(
        "smem.misaligned",
        Source::PtxSection("9.7.16.4.1"),
        Severity::Error,
        "Start address and byte offsets are multiples of 16 bytes (matrix-descriptor-encode drops the 4 low bits).",
    ),
    smem_rule(
        "smem.out_of_range",
        Source::Decision(3),
        Severity::Error,
        "A byte field fits the 18 bits that matrix-descriptor-encode keeps.",
    ),
    smem_rule(
        "smem.base_offset_out_of_range",
        Source::PtxTable(40),
        Severity::Error,
        "The base offset fits its 3 bits.",
    ),
    smem_rule(
        "smem.base_offset_without_swizzle",
        Source::Decision(4),
        Severity::Warning,
        "A base offset has a meaning only with swizzling.",
    ),
    smem_rule(
        "smem.pattern_start_without_swizzle",
        Source::Decision(4),
        Severity::Warning,
        "A swizzle pattern start has a meaning only with swizzling.",
    ),
    smem_rule(
        "smem.invalid_swizzle",
        Source::PtxTable(40),
        Severity::Error,
        "The swizzling mode is one of the codes 0, 1, 2, 4 and 6.",
    ),
    smem_rule(
        "smem.reserved_bit",
        Source::Decision(2),
        Severity::Error,
        "Bits 14, 15, 30 and 31 are 0.",
    ),
    smem_rule(
        "smem.fixed_bits",
        Source::Decision(1),
        Severity::Error,
        "Bits 46-48 hold 0b001 and bits 53-60 hold 0.",
    ),
    smem_rule(
        "smem.absolute_mode_target",
        Source::PtxSection("9.7.16.4.1.1"),
        Severity::Error,
        "The absolute leading-dimension mode exists on sm_103a only.",
    ),
    smem_rule(
        "smem.absolute_mode_swizzle",
        Source::Decision(5),
        Severity::Error,
        "The absolute leading-dimension mode goes with 128-byte swizzling (16-byte atomicity).",
    ),
    smem_rule(
        "smem.absolute_mode_base_offset",
        Source::Decision(5),
        Severity::Error,
        "The absolute leading-dimension mode goes with base offset 0.",
    ),
    smem_rule(
        "smem.pattern_start_not_line_aligned",
        Source::PtxTable(41),
        Severity::Error,
        "A swizzle pattern start lies on its repeat boundary or on a 128-byte line.",
    ),
    smem_rule(
        "smem.advance_misaligned",
        Source::Decision(7),
        Severity::Error,
        "A K advance is a multiple of 16 bytes.",
    ),
    smem_rule(
        "smem.advance_overflow",
        Source::Decision(7),
        Severity::Error,
        "A K advance keeps the start address within its 14-bit field.",
    ),
];

/// A problem with a shared memory descriptor or its fields: the field, the value, and the rule
/// ([`SmemError::rule`], whose row of [`SMEM_RULES`] gives its identifier, source and
/// severity).
///
/// All are errors except [`SmemError::BaseOffsetWithoutSwizzle`] and
/// [`SmemError::PatternStartWithoutSwizzle`], warnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SmemError {
    /// A byte field (start address, leading or stride dimension byte offset) is not 16-byte
    /// aligned (PTX ISA 9.7.16.4.1; rules.md R3).
    Misaligned {
        /// The field.
        field: SmemField,
        /// The byte value given.
        value: u32,
    },
    /// A byte field needs more than the 18 bits that `matrix-descriptor-encode` keeps
    /// (rules.md R3).
    OutOfRange {
        /// The field.
        field: SmemField,
        /// The byte value given.
        value: u32,
    },
    /// The base offset does not fit in its 3 bits (Table 40).
    BaseOffsetOutOfRange {
        /// The base offset given.
        value: u8,
    },
    /// A non-zero base offset without swizzling, where it has no meaning (rules.md R4).
    /// A warning.
    BaseOffsetWithoutSwizzle {
        /// The base offset.
        value: u8,
    },
    /// A swizzle pattern start given without swizzling: there is no pattern, so it sets
    /// nothing (rules.md R4). A warning ([`pattern_start_ignored`](super::pattern_start_ignored)).
    PatternStartWithoutSwizzle {
        /// The pattern start address given.
        address: u32,
    },
    /// Swizzling mode code 3, 5 or 7 (or above 7) (Table 40).
    InvalidSwizzle {
        /// The code.
        code: u8,
    },
    /// A reserved bit (14, 15, 30 or 31) is set (rules.md R2).
    ReservedBit {
        /// The bit's position.
        bit: u8,
    },
    /// Bits 46-48 are not 0b001, or bits 53-60 are not zero (rules.md R1).
    FixedBits {
        /// [`SmemField::Fixed46To48`] or [`SmemField::Fixed53To60`].
        field: SmemField,
        /// The bits found, shifted down to bit 0.
        found: u8,
    },
    /// The absolute leading-dimension byte address mode on a target other than `sm_103a`
    /// (PTX ISA 9.7.16.4.1.1; rules.md R5).
    AbsoluteModeTarget {
        /// The target.
        target: Target,
    },
    /// The absolute leading-dimension mode with a swizzling mode other than 128-Byte (16-byte
    /// atomicity) (rules.md R5).
    AbsoluteModeSwizzle {
        /// The swizzle code (possibly an invalid one).
        code: u8,
    },
    /// The absolute leading-dimension mode with a non-zero base offset (rules.md R5).
    AbsoluteModeBaseOffset {
        /// The base offset.
        value: u8,
    },
    /// A swizzle pattern start that is neither on its repeat boundary nor on a 128-byte line, so
    /// that no base offset describes it (Table 41; a decision of this crate, see the module
    /// documentation).
    PatternStartNotLineAligned {
        /// The swizzle mode.
        swizzle: Swizzle,
        /// The pattern start address in bytes.
        address: u32,
    },
    /// A K advance that is not a multiple of 16 bytes (rules.md R7).
    AdvanceMisaligned {
        /// The advance in bytes.
        bytes: u32,
    },
    /// A K advance that carries the start address out of its 14-bit field (rules.md R7).
    AdvanceOverflow {
        /// The start address before the advance, in bytes.
        start: u32,
        /// The advance in bytes.
        bytes: u32,
    },
}

impl SmemError {
    /// The field concerned, as a JSON key: the [`SmemField::name`] of the field, `"bit 14"` for a
    /// reserved bit, `"pattern_start_address"` or `"advance_bytes"` for builder inputs.
    #[must_use]
    pub const fn field_name(&self) -> &'static str {
        match *self {
            SmemError::Misaligned { field, .. }
            | SmemError::OutOfRange { field, .. }
            | SmemError::FixedBits { field, .. } => field.name(),
            SmemError::BaseOffsetOutOfRange { .. }
            | SmemError::BaseOffsetWithoutSwizzle { .. }
            | SmemError::AbsoluteModeBaseOffset { .. } => SmemField::BaseOffset.name(),
            SmemError::PatternStartWithoutSwizzle { .. } => "pattern_start_address",
            SmemError::InvalidSwizzle { .. } | SmemError::AbsoluteModeSwizzle { .. } => {
                SmemField::Swizzle.name()
            }
            SmemError::ReservedBit { bit } => match bit {
                14 => "bit 14",
                15 => "bit 15",
                30 => "bit 30",
                31 => "bit 31",
                _ => "reserved bit",
            },
            SmemError::AbsoluteModeTarget { .. } => SmemField::LboMode.name(),
            SmemError::PatternStartNotLineAligned { .. } => "pattern_start_address",
            SmemError::AdvanceMisaligned { .. } => "advance_bytes",
            SmemError::AdvanceOverflow { .. } => SmemField::StartAddress.name(),
        }
    }

    /// The value concerned: bytes for byte fields and addresses, the code or bits otherwise
    /// (1 for a set reserved bit or the absolute-mode bit); for an overflowing advance, the byte
    /// address the start would have reached.
    #[must_use]
    pub const fn value(&self) -> u64 {
        match *self {
            SmemError::Misaligned { value, .. } | SmemError::OutOfRange { value, .. } => {
                value as u64
            }
            SmemError::BaseOffsetOutOfRange { value }
            | SmemError::BaseOffsetWithoutSwizzle { value }
            | SmemError::AbsoluteModeBaseOffset { value } => value as u64,
            SmemError::InvalidSwizzle { code } | SmemError::AbsoluteModeSwizzle { code } => {
                code as u64
            }
            SmemError::ReservedBit { .. } | SmemError::AbsoluteModeTarget { .. } => 1,
            SmemError::FixedBits { found, .. } => found as u64,
            SmemError::PatternStartNotLineAligned { address, .. }
            | SmemError::PatternStartWithoutSwizzle { address } => address as u64,
            SmemError::AdvanceMisaligned { bytes } => bytes as u64,
            SmemError::AdvanceOverflow { start, bytes } => start as u64 + bytes as u64,
        }
    }

    /// The rule this error breaks.
    #[must_use]
    pub const fn rule(&self) -> SmemRule {
        match self {
            SmemError::Misaligned { .. } => SmemRule::Misaligned,
            SmemError::OutOfRange { .. } => SmemRule::OutOfRange,
            SmemError::BaseOffsetOutOfRange { .. } => SmemRule::BaseOffsetOutOfRange,
            SmemError::BaseOffsetWithoutSwizzle { .. } => SmemRule::BaseOffsetWithoutSwizzle,
            SmemError::PatternStartWithoutSwizzle { .. } => SmemRule::PatternStartWithoutSwizzle,
            SmemError::InvalidSwizzle { .. } => SmemRule::InvalidSwizzle,
            SmemError::ReservedBit { .. } => SmemRule::ReservedBit,
            SmemError::FixedBits { .. } => SmemRule::FixedBits,
            SmemError::AbsoluteModeTarget { .. } => SmemRule::AbsoluteModeTarget,
            SmemError::AbsoluteModeSwizzle { .. } => SmemRule::AbsoluteModeSwizzle,
            SmemError::AbsoluteModeBaseOffset { .. } => SmemRule::AbsoluteModeBaseOffset,
            SmemError::PatternStartNotLineAligned { .. } => SmemRule::PatternStartNotLineAligned,
            SmemError::AdvanceMisaligned { .. } => SmemRule::AdvanceMisaligned,
            SmemError::AdvanceOverflow { .. } => SmemRule::AdvanceOverflow,
        }
    }

    /// Where the rule comes from (the rule's row of [`SMEM_RULES`]).
    #[must_use]
    pub const fn source(&self) -> Source {
        match self.rule().row().source {
            RuleSource::Fixed(s) => s,
            // No rule of this descriptor depends on a layout variant or cites text.
            RuleSource::LayoutTable | RuleSource::Text(_) => Source::PtxTable(40),
        }
    }

    /// [`Severity::Warning`] for [`SmemError::BaseOffsetWithoutSwizzle`] and
    /// [`SmemError::PatternStartWithoutSwizzle`], [`Severity::Error`] otherwise (the rule's row
    /// of [`SMEM_RULES`]).
    #[must_use]
    pub const fn severity(&self) -> Severity {
        self.rule().row().severity
    }

    /// True when the problem is an error rather than a warning.
    #[must_use]
    pub const fn is_error(&self) -> bool {
        matches!(self.severity(), Severity::Error)
    }
}

/// Writes a swizzle code by name, or as `code N` when it is invalid.
struct SwizzleCode(u8);

impl fmt::Display for SwizzleCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Swizzle::from_code(self.0) {
            Ok(s) => write!(f, "{} ({})", s.name(), s.description()),
            Err(_) => write!(f, "invalid code {}", self.0),
        }
    }
}

impl fmt::Display for SmemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SmemError::Misaligned { field, value } => {
                write!(f, "{} {value:#x} is not 16-byte aligned", field.ptx_words())
            }
            SmemError::OutOfRange { field, value } => write!(
                f,
                "{} {value:#x} does not fit in the 18 bits kept by matrix-descriptor-encode \
                 (at most {:#x})",
                field.ptx_words(),
                field.row().max() << UNIT_SHIFT
            ),
            SmemError::BaseOffsetOutOfRange { value } => {
                write!(f, "matrix base offset {value} does not fit in 3 bits (0-7)")
            }
            SmemError::BaseOffsetWithoutSwizzle { value } => write!(
                f,
                "matrix base offset {value} has no meaning without swizzling (expected 0)"
            ),
            SmemError::PatternStartWithoutSwizzle { address } => write!(
                f,
                "pattern start {address:#x} has no effect without swizzling: there is no \
                 pattern, and the base offset stays 0"
            ),
            SmemError::InvalidSwizzle { code } => write!(
                f,
                "swizzling mode {code} is invalid (valid: 0, 1, 2, 4, 6; values 3, 5 and 7 are \
                 invalid)"
            ),
            SmemError::ReservedBit { bit } => {
                write!(f, "bit {bit} is not described by Table 40 and must be 0")
            }
            SmemError::FixedBits { field, found } => {
                let row = field.row();
                let expected = match row.role {
                    Role::Fixed(v) => v,
                    _ => 0,
                };
                write!(
                    f,
                    "bits {}-{} must hold the fixed constant value {expected:#0w$b}, found \
                     {found:#0w$b}",
                    row.lo,
                    row.hi(),
                    w = row.width as usize + 2
                )
            }
            SmemError::AbsoluteModeTarget { target } => write!(
                f,
                "the byte address mode for the leading dimension stride is supported on sm_103a \
                 only, not on {target}"
            ),
            SmemError::AbsoluteModeSwizzle { code } => write!(
                f,
                "the leading dimension byte address absolute mode needs 128-Byte swizzling, not \
                 {}",
                SwizzleCode(code)
            ),
            SmemError::AbsoluteModeBaseOffset { value } => write!(
                f,
                "the leading dimension byte address absolute mode needs matrix base offset 0, \
                 not {value}"
            ),
            SmemError::PatternStartNotLineAligned { swizzle, address } => write!(
                f,
                "the repeating pattern of {} starting at {address:#x} is neither on its \
                 {}-byte boundary nor on a 128-byte line, so no base offset describes it",
                swizzle.description(),
                swizzle.repeat_bytes().unwrap_or_default()
            ),
            SmemError::AdvanceMisaligned { bytes } => {
                write!(f, "K advance of {bytes:#x} bytes is not 16-byte aligned")
            }
            SmemError::AdvanceOverflow { start, bytes } => write!(
                f,
                "advancing matrix start address {start:#x} by {bytes:#x} bytes carries out of \
                 its 14-bit field (at most {:#x})",
                SmemField::StartAddress.row().max() << UNIT_SHIFT
            ),
        }
    }
}

impl Diagnostic for SmemError {
    fn field(&self) -> &'static str {
        self.field_name()
    }
    fn value(&self) -> u64 {
        SmemError::value(self)
    }
    fn source(&self) -> Source {
        SmemError::source(self)
    }
    fn severity(&self) -> Severity {
        SmemError::severity(self)
    }
    fn rule_id(&self) -> Option<&'static str> {
        Some(self.rule().id())
    }
}

impl core::error::Error for SmemError {}

/// The first error (not warning) of a list, in the order found.
pub(super) const fn first_error(d: &SmemProblemList) -> Option<SmemError> {
    let mut i = 0;
    while i < d.len() {
        if let Some(e) = d.get(i) {
            if e.is_error() {
                return Some(e);
            }
        }
        i += 1;
    }
    None
}

/// Checks one byte field for alignment and range, recording each problem.
pub(super) const fn check_bytes(d: &mut SmemProblemList, field: SmemField, bytes: u32) {
    if bytes % (1 << UNIT_SHIFT) != 0 {
        d.push(SmemError::Misaligned {
            field,
            value: bytes,
        });
    }
    if !field.row().fits((bytes >> UNIT_SHIFT) as u64) {
        d.push(SmemError::OutOfRange {
            field,
            value: bytes,
        });
    }
}

/// The rules that tie fields together (rules.md R4, R5), shared by validation and decoding.
/// `swizzle_code` may be an invalid code when decoding.
pub(super) const fn check_combination(
    d: &mut SmemProblemList,
    base_offset: u8,
    lbo_mode: LboMode,
    swizzle_code: u8,
    target: Target,
) {
    if base_offset != 0 && swizzle_code == Swizzle::None.code() {
        d.push(SmemError::BaseOffsetWithoutSwizzle { value: base_offset });
    }
    if let LboMode::Absolute = lbo_mode {
        if !target.supports_absolute_lbo() {
            d.push(SmemError::AbsoluteModeTarget { target });
        }
        if swizzle_code != Swizzle::B128.code() {
            d.push(SmemError::AbsoluteModeSwizzle { code: swizzle_code });
        }
        if base_offset != 0 {
            d.push(SmemError::AbsoluteModeBaseOffset { value: base_offset });
        }
    }
}
