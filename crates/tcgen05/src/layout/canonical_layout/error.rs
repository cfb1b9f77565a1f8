//! [`LayoutError`] and the field it names ([`LayoutField`]).

use crate::diagnostic::Rule;
use crate::diagnostic::{Diagnostic, Severity, Source};
use crate::mma::{ElementType, Kind, Major};
use crate::shared_memory_descriptor::{SmemError, Swizzle};
use core::fmt;

/// The field of an operand, descriptor or query that a [`LayoutError`] concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum LayoutField {
    /// The element type.
    ElementType,
    /// The MMA kind.
    Kind,
    /// K-major or MN-major.
    Major,
    /// The swizzling mode.
    Swizzle,
    /// The leading dimension stride mode.
    LboMode,
    /// The M or N extent.
    Mn,
    /// The K extent.
    K,
    /// A row (M or N index) asked for.
    MnIndex,
    /// A K index asked for.
    KIndex,
    /// A byte address.
    Address,
    /// The tile's start address.
    StartAddress,
    /// A K-block index asked for.
    KBlock,
    /// A K extent per MMA K-block.
    KPerBlock,
}

impl LayoutField {
    /// The JSON key of the field.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LayoutField::ElementType => "type",
            LayoutField::Kind => "kind",
            LayoutField::Major => "major",
            LayoutField::Swizzle => "swizzle",
            LayoutField::LboMode => "lbo_mode",
            LayoutField::Mn => "mn",
            LayoutField::K => "k",
            LayoutField::MnIndex => "mn_index",
            LayoutField::KIndex => "k_index",
            LayoutField::Address => "address",
            LayoutField::StartAddress => "start_address",
            LayoutField::KBlock => "k_block",
            LayoutField::KPerBlock => "k_per_block",
        }
    }
}

/// A problem with an operand layout: the field, the value and the rule (see
/// [`Diagnostic::source`]), read from its rule's row ([`LayoutError::rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum LayoutError {
    /// An accumulator-only type (f32, s32) given as an operand (Table 39).
    NotAnInput {
        /// The type.
        element: ElementType,
    },
    /// A 4- or 6-bit type without the kind that decides its storage (PTX ISA 9.7.16.10.4.4).
    KindRequired {
        /// The type.
        element: ElementType,
    },
    /// A type the kind does not take (Table 39, rules.md R12).
    NotInKind {
        /// The type.
        element: ElementType,
        /// The kind.
        kind: Kind,
    },
    /// An MN-major 4- or 6-bit operand (rules.md R11).
    SubByteMnMajor {
        /// Data bits of the element.
        bits: u8,
    },
    /// A swizzling mode the major-ness and element width do not allow (rules.md R18):
    /// 128-Byte with 32B atomicity except for MN-major 32-bit, or MN-major 32-bit without it.
    SwizzleNotAllowed {
        /// The swizzle.
        swizzle: Swizzle,
        /// The major-ness.
        major: Major,
        /// Data bits of the element.
        bits: u8,
    },
    /// The leading-dimension byte address mode for a layout other than K-major with 128-Byte
    /// swizzling (rules.md R5).
    AbsoluteModeLayout {
        /// The swizzle.
        swizzle: Swizzle,
        /// The major-ness.
        major: Major,
    },
    /// An M/N or K extent that is zero or not a whole number of the layout's unit (core-matrix
    /// rows or chunks; PTX ISA 9.7.16.3.3).
    Extent {
        /// [`LayoutField::Mn`], [`LayoutField::K`] or [`LayoutField::KPerBlock`].
        field: LayoutField,
        /// The extent given.
        value: u32,
        /// The unit it must be a multiple of.
        unit: u32,
    },
    /// An operand extent larger than any MMA reads (Table 39), or a tile larger than the shared
    /// memory window.
    ExtentTooLarge {
        /// [`LayoutField::Mn`] or [`LayoutField::K`].
        field: LayoutField,
        /// The extent given.
        value: u32,
        /// The largest extent.
        max: u32,
    },
    /// A K-major row of the K block that crosses the end of its swizzle row (PTX ISA
    /// 9.7.16.3.1.2: a K block may not cross the swizzle width; the absolute leading-dimension
    /// mode exists for that case).
    KCrossesSwizzleRow {
        /// Byte offset of the start address within its swizzle row.
        offset: u32,
        /// Bytes of K per row.
        bytes: u32,
        /// The swizzle width.
        width: u32,
    },
    /// An element index outside the operand.
    IndexOutOfRange {
        /// [`LayoutField::MnIndex`], [`LayoutField::KIndex`] or [`LayoutField::KBlock`].
        field: LayoutField,
        /// The index asked for.
        value: u32,
        /// The extent.
        extent: u32,
    },
    /// An element (or, from [`TileLayout::validate`](super::TileLayout::validate), the end of a tile of `mn x k`) whose
    /// address leaves the 18-bit shared memory window of the descriptor (rules.md R3).
    AddressOutOfRange {
        /// Row.
        mn: u32,
        /// K index.
        k: u32,
        /// The address (which does not fit in 32 bits only when saturated).
        address: u64,
    },
    /// Two elements share a bit of shared memory: the descriptor's offsets make the layout
    /// fold onto itself (the canonical layouts are one-to-one, PTX ISA 9.7.16.3.3).
    Overlap {
        /// Row of the first element (in row-major order).
        mn: u32,
        /// K index of the first element.
        k: u32,
        /// Row of the other element.
        other_mn: u32,
        /// K index of the other element.
        other_k: u32,
        /// The byte they share.
        address: u32,
    },
    /// An element read outside the buffer the caller said holds the operand.
    OutsideBuffer {
        /// Row.
        mn: u32,
        /// K index.
        k: u32,
        /// The element's byte address.
        address: u32,
    },
    /// A buffer `start..end` (end exclusive) whose end is not after its start: it holds no
    /// byte, so no element could be checked against it.
    EmptyBuffer {
        /// First byte.
        start: u32,
        /// One past the last byte.
        end: u32,
    },
    /// A tile start address the descriptor cannot hold, or a swizzle pattern start that no
    /// base offset describes (rules.md R3, R4).
    Descriptor(SmemError),
}

impl LayoutError {
    /// The field concerned.
    #[must_use]
    pub const fn layout_field(&self) -> LayoutField {
        match *self {
            LayoutError::Extent { field, .. }
            | LayoutError::ExtentTooLarge { field, .. }
            | LayoutError::IndexOutOfRange { field, .. } => field,
            LayoutError::Descriptor(_) => LayoutField::StartAddress,
            _ => match self.rule() {
                Some(rule) => LAYOUT_FIELDS[rule as usize],
                None => LayoutField::StartAddress,
            },
        }
    }

    /// The value found or given (bytes for addresses).
    #[must_use]
    pub const fn value(&self) -> u64 {
        match *self {
            LayoutError::NotAnInput { element }
            | LayoutError::KindRequired { element }
            | LayoutError::NotInKind { element, .. } => element.bits() as u64,
            LayoutError::SubByteMnMajor { bits } => bits as u64,
            LayoutError::SwizzleNotAllowed { swizzle, .. }
            | LayoutError::AbsoluteModeLayout { swizzle, .. } => swizzle.code() as u64,
            LayoutError::Extent { value, .. }
            | LayoutError::ExtentTooLarge { value, .. }
            | LayoutError::IndexOutOfRange { value, .. } => value as u64,
            LayoutError::KCrossesSwizzleRow { offset, bytes, .. } => (offset + bytes) as u64,
            LayoutError::AddressOutOfRange { address, .. } => address,
            LayoutError::Overlap { address, .. } | LayoutError::OutsideBuffer { address, .. } => {
                address as u64
            }
            LayoutError::EmptyBuffer { end, .. } => end as u64,
            LayoutError::Descriptor(e) => e.value(),
        }
    }

    /// The value as a name, where it is one.
    #[must_use]
    pub const fn value_name(&self) -> Option<&'static str> {
        match *self {
            LayoutError::NotAnInput { element }
            | LayoutError::KindRequired { element }
            | LayoutError::NotInKind { element, .. } => Some(element.name()),
            LayoutError::SwizzleNotAllowed { swizzle, .. }
            | LayoutError::AbsoluteModeLayout { swizzle, .. } => Some(swizzle.name()),
            LayoutError::SubByteMnMajor { .. } => Some("mn"),
            _ => None,
        }
    }

    /// The rule's source.
    #[must_use]
    pub const fn source(&self) -> Source {
        match (self, self.rule()) {
            (LayoutError::Descriptor(e), _) => e.source(),
            (_, Some(rule)) => rule.row().fixed_source(Source::PtxSection("9.7.16.3.3")),
            (_, None) => Source::PtxSection("9.7.16.3.3"),
        }
    }

    /// The rule this error breaks, or `None` for [`LayoutError::Descriptor`], whose rule is the
    /// shared memory descriptor's.
    #[must_use]
    pub const fn rule(&self) -> Option<LayoutRule> {
        Some(match self {
            LayoutError::NotAnInput { .. } => LayoutRule::NotAnInput,
            LayoutError::KindRequired { .. } => LayoutRule::KindRequired,
            LayoutError::NotInKind { .. } => LayoutRule::NotInKind,
            LayoutError::SubByteMnMajor { .. } => LayoutRule::SubByteMnMajor,
            LayoutError::SwizzleNotAllowed { .. } => LayoutRule::SwizzleNotAllowed,
            LayoutError::AbsoluteModeLayout { .. } => LayoutRule::AbsoluteModeLayout,
            LayoutError::Extent { .. } => LayoutRule::Extent,
            LayoutError::ExtentTooLarge { .. } => LayoutRule::ExtentTooLarge,
            LayoutError::KCrossesSwizzleRow { .. } => LayoutRule::KCrossesSwizzleRow,
            LayoutError::IndexOutOfRange { .. } => LayoutRule::IndexOutOfRange,
            LayoutError::AddressOutOfRange { .. } => LayoutRule::AddressOutOfRange,
            LayoutError::Overlap { .. } => LayoutRule::Overlap,
            LayoutError::OutsideBuffer { .. } => LayoutRule::OutsideBuffer,
            LayoutError::EmptyBuffer { .. } => LayoutRule::EmptyBuffer,
            LayoutError::Descriptor(_) => return None,
        })
    }
}

/// The rules of the canonical layouts and their use, one per [`LayoutError`] variant but
/// [`LayoutError::Descriptor`], each with one row ([`LayoutRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum LayoutRule {
    /// [`LayoutError::NotAnInput`].
    NotAnInput,
    /// [`LayoutError::KindRequired`].
    KindRequired,
    /// [`LayoutError::NotInKind`].
    NotInKind,
    /// [`LayoutError::SubByteMnMajor`].
    SubByteMnMajor,
    /// [`LayoutError::SwizzleNotAllowed`].
    SwizzleNotAllowed,
    /// [`LayoutError::AbsoluteModeLayout`].
    AbsoluteModeLayout,
    /// [`LayoutError::Extent`].
    Extent,
    /// [`LayoutError::ExtentTooLarge`].
    ExtentTooLarge,
    /// [`LayoutError::KCrossesSwizzleRow`].
    KCrossesSwizzleRow,
    /// [`LayoutError::IndexOutOfRange`].
    IndexOutOfRange,
    /// [`LayoutError::AddressOutOfRange`].
    AddressOutOfRange,
    /// [`LayoutError::Overlap`].
    Overlap,
    /// [`LayoutError::OutsideBuffer`].
    OutsideBuffer,
    /// [`LayoutError::EmptyBuffer`].
    EmptyBuffer,
}

impl LayoutRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &LAYOUT_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"layout.overlap"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// A row of [`LAYOUT_RULES`].
const fn rule(id: &'static str, source: Source, statement: &'static str) -> Rule {
    Rule::fixed(id, source, Severity::Error, statement)
}

const S_CANONICAL: Source = Source::PtxSection("9.7.16.3.3");

/// Every rule of the canonical layouts, indexed by [`LayoutRule`].
pub(crate) const LAYOUT_RULES: [Rule; 14] = {
    [
        rule("layout.not_an_input", Source::PtxTable(39),
            "Matrices A and B hold input element types, not accumulator types."),
        rule("layout.kind_required", Source::PtxSection("9.7.16.10.4.4"),
            "The shared memory storage of a sub-byte type depends on the kind, so the kind is given."),
        rule("layout.not_in_kind", Source::Decision(12),
            "An operand's element type is one the kind takes."),
        rule("layout.sub_byte_mn_major", Source::Decision(11),
            "Sub-byte elements are K-major."),
        rule("layout.swizzle_not_allowed", Source::Decision(18),
            "An operand's swizzling mode is one its major-ness and element width allow."),
        rule("layout.absolute_mode_layout", Source::Decision(5),
            "The leading dimension absolute mode is for K-major operands with 128-Byte swizzling only."),
        rule("layout.extent", S_CANONICAL,
            "An extent is a positive multiple of the layout's unit."),
        rule("layout.extent_too_large", Source::PtxTable(39),
            "An extent is at most what one MMA operand or shared memory tile holds."),
        rule("layout.k_crosses_swizzle_row", Source::PtxSection("9.7.16.3.1.2"),
            "A K block stays within its swizzle row."),
        rule("layout.index_out_of_range", S_CANONICAL,
            "An index lies within its extent."),
        rule("layout.address_out_of_range", Source::Decision(3),
            "Every element lies within the descriptor's 18-bit shared memory window."),
        rule("layout.overlap", S_CANONICAL, "No two elements share a byte."),
        rule("layout.outside_buffer", S_CANONICAL,
            "Every element read lies within the buffer."),
        rule("layout.empty_buffer", S_CANONICAL,
            "A buffer ends after it starts."),
    ]
};

/// The field each rule of [`LAYOUT_RULES`] concerns (for the extents and indices,
/// the field the error names overrides it), indexed by [`LayoutRule`].
const LAYOUT_FIELDS: [LayoutField; 14] = {
    use LayoutField as F;
    [
        F::ElementType,
        F::Kind,
        F::ElementType,
        F::Major,
        F::Swizzle,
        F::LboMode,
        F::Mn,
        F::Mn,
        F::K,
        F::MnIndex,
        F::Address,
        F::Address,
        F::Address,
        F::Address,
    ]
};

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LayoutError::NotAnInput { element } => write!(
                f,
                "{element} is an accumulator type, not an element type of matrix A or B"
            ),
            LayoutError::KindRequired { element } => write!(
                f,
                "the shared memory storage of {element} depends on the kind (16 per 16-byte \
                 chunk under f8f6f4/mxf8f6f4, 32 under mxf4/mxf4nvf4): give the kind"
            ),
            LayoutError::NotInKind { element, kind } => {
                write!(f, "kind::{kind} does not take {element} operands")
            }
            LayoutError::SubByteMnMajor { bits } => write!(
                f,
                "{bits}-bit elements cannot be MN-major (transposed); only K-major"
            ),
            LayoutError::SwizzleNotAllowed {
                swizzle,
                major,
                bits,
            } => match (major, swizzle) {
                (Major::Mn, Swizzle::B128Base32B) | (Major::K, _) => write!(
                    f,
                    "{} is not allowed for {}-major {bits}-bit operands",
                    swizzle.description(),
                    major_name(major)
                ),
                _ => write!(
                    f,
                    "MN-major {bits}-bit operands need 128-Byte with 32B atomic swizzling, not {}",
                    swizzle.description()
                ),
            },
            LayoutError::AbsoluteModeLayout { swizzle, major } => write!(
                f,
                "the leading dimension byte address absolute mode is only for K-major operands \
                 with 128-Byte swizzling, not {}-major with {}",
                major_name(major),
                swizzle.description()
            ),
            LayoutError::Extent { field, value, unit } => write!(
                f,
                "{} {value} is not a positive multiple of {unit}",
                field.name()
            ),
            LayoutError::ExtentTooLarge { field, value, max } => write!(
                f,
                "{} {value} is larger than {max}, the most one MMA operand or shared memory \
                 tile holds",
                field.name()
            ),
            LayoutError::KCrossesSwizzleRow {
                offset,
                bytes,
                width,
            } => write!(
                f,
                "a K block of {bytes} bytes starting {offset} bytes into its {width}-byte \
                 swizzle row crosses the end of the row"
            ),
            LayoutError::IndexOutOfRange {
                field,
                value,
                extent,
            } => write!(f, "{} {value} is outside 0..{extent}", field.name()),
            LayoutError::AddressOutOfRange { mn, k, address } => write!(
                f,
                "element ({mn}, {k}) is at {address:#x}, outside the 18-bit shared memory \
                 window of the descriptor"
            ),
            LayoutError::Overlap {
                mn,
                k,
                other_mn,
                other_k,
                address,
            } => write!(
                f,
                "elements ({mn}, {k}) and ({other_mn}, {other_k}) both occupy byte {address:#x}"
            ),
            LayoutError::OutsideBuffer { mn, k, address } => write!(
                f,
                "element ({mn}, {k}) is read from {address:#x}, outside the buffer"
            ),
            LayoutError::EmptyBuffer { start, end } => write!(
                f,
                "the buffer {start:#x}:{end:#x} ends before it starts (END is exclusive and must \
                 be greater than START)"
            ),
            LayoutError::Descriptor(e) => fmt::Display::fmt(&e, f),
        }
    }
}

const fn major_name(major: Major) -> &'static str {
    match major {
        Major::K => "K",
        Major::Mn => "MN",
    }
}

impl Diagnostic for LayoutError {
    fn field(&self) -> &'static str {
        match self {
            LayoutError::Descriptor(e) => e.field_name(),
            _ => self.layout_field().name(),
        }
    }
    fn value(&self) -> u64 {
        LayoutError::value(self)
    }
    fn value_name(&self) -> Option<&'static str> {
        LayoutError::value_name(self)
    }
    fn source(&self) -> Source {
        LayoutError::source(self)
    }
    fn severity(&self) -> Severity {
        // A descriptor problem stops the layout whatever its own severity.
        match self.rule() {
            Some(rule) => rule.row().severity,
            None => Severity::Error,
        }
    }
    fn rule_id(&self) -> Option<&'static str> {
        match (self, self.rule()) {
            (LayoutError::Descriptor(e), _) => e.rule_id(),
            (_, rule) => match rule {
                Some(rule) => Some(rule.id()),
                None => None,
            },
        }
    }
}

impl core::error::Error for LayoutError {}

impl From<SmemError> for LayoutError {
    fn from(e: SmemError) -> LayoutError {
        LayoutError::Descriptor(e)
    }
}

#[cfg(test)]
mod rule_tests {
    use super::*;
    use crate::diagnostic::check_rule_table;
    use crate::shared_memory_descriptor::SmemField;
    use std::vec::Vec;

    #[test]
    fn every_layout_rule_has_one_row_that_says_what_the_rule_said() {
        let rows: Vec<Rule> = LAYOUT_RULES.to_vec();
        let e = Severity::Error;
        let canonical = Source::PtxSection("9.7.16.3.3");
        check_rule_table(
            "layout",
            &rows,
            &[
                (
                    LayoutError::NotAnInput {
                        element: ElementType::F32,
                    },
                    "type",
                    Source::PtxTable(39),
                    e,
                ),
                (
                    LayoutError::KindRequired {
                        element: ElementType::E2m1,
                    },
                    "kind",
                    Source::PtxSection("9.7.16.10.4.4"),
                    e,
                ),
                (
                    LayoutError::NotInKind {
                        element: ElementType::E2m1,
                        kind: Kind::F16,
                    },
                    "type",
                    Source::Decision(12),
                    e,
                ),
                (
                    LayoutError::SubByteMnMajor { bits: 4 },
                    "major",
                    Source::Decision(11),
                    e,
                ),
                (
                    LayoutError::SwizzleNotAllowed {
                        swizzle: Swizzle::B128Base32B,
                        major: Major::K,
                        bits: 16,
                    },
                    "swizzle",
                    Source::Decision(18),
                    e,
                ),
                (
                    LayoutError::AbsoluteModeLayout {
                        swizzle: Swizzle::None,
                        major: Major::Mn,
                    },
                    "lbo_mode",
                    Source::Decision(5),
                    e,
                ),
                (
                    LayoutError::Extent {
                        field: LayoutField::K,
                        value: 3,
                        unit: 8,
                    },
                    "k",
                    canonical,
                    e,
                ),
                (
                    LayoutError::ExtentTooLarge {
                        field: LayoutField::Mn,
                        value: 512,
                        max: 256,
                    },
                    "mn",
                    Source::PtxTable(39),
                    e,
                ),
                (
                    LayoutError::KCrossesSwizzleRow {
                        offset: 96,
                        bytes: 64,
                        width: 128,
                    },
                    "k",
                    Source::PtxSection("9.7.16.3.1.2"),
                    e,
                ),
                (
                    LayoutError::IndexOutOfRange {
                        field: LayoutField::KIndex,
                        value: 9,
                        extent: 8,
                    },
                    "k_index",
                    canonical,
                    e,
                ),
                (
                    LayoutError::AddressOutOfRange {
                        mn: 0,
                        k: 0,
                        address: 1 << 18,
                    },
                    "address",
                    Source::Decision(3),
                    e,
                ),
                (
                    LayoutError::Overlap {
                        mn: 0,
                        k: 0,
                        other_mn: 1,
                        other_k: 0,
                        address: 0,
                    },
                    "address",
                    canonical,
                    e,
                ),
                (
                    LayoutError::OutsideBuffer {
                        mn: 0,
                        k: 0,
                        address: 64,
                    },
                    "address",
                    canonical,
                    e,
                ),
                (
                    LayoutError::EmptyBuffer { start: 64, end: 0 },
                    "address",
                    canonical,
                    e,
                ),
            ],
        );
        // A descriptor problem keeps its own field and source, and stops the layout.
        let smem = SmemError::Misaligned {
            field: SmemField::StartAddress,
            value: 8,
        };
        let wrapped = LayoutError::Descriptor(smem);
        assert_eq!(
            (
                wrapped.field(),
                wrapped.source(),
                wrapped.severity(),
                wrapped.rule_id()
            ),
            (smem.field(), smem.source(), e, smem.rule_id())
        );
        assert_eq!(wrapped.layout_field(), LayoutField::StartAddress);
    }
}
