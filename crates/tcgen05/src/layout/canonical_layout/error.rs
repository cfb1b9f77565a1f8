//! [`LayoutError`] and the field it names ([`LayoutField`]).

use super::*;

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
/// [`Diagnostic::source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
    /// A type the kind does not take (Table 39, decisions.md R12).
    NotInKind {
        /// The type.
        element: ElementType,
        /// The kind.
        kind: Kind,
    },
    /// An MN-major 4- or 6-bit operand (decisions.md R11).
    SubByteMnMajor {
        /// Data bits of the element.
        bits: u8,
    },
    /// A swizzling mode the major-ness and element width do not allow (decisions.md R18):
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
    /// swizzling (decisions.md R5).
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
    /// An element (or, from [`TileLayout::validate`], the end of a tile of `mn x k`) whose
    /// address leaves the 18-bit shared memory window of the descriptor (decisions.md R3).
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
    /// base offset describes (decisions.md R3, R4).
    Descriptor(SmemError),
}

impl LayoutError {
    /// The field concerned.
    #[must_use]
    pub const fn layout_field(&self) -> LayoutField {
        match *self {
            LayoutError::NotAnInput { .. } => LayoutField::ElementType,
            LayoutError::KindRequired { .. } => LayoutField::Kind,
            LayoutError::NotInKind { .. } => LayoutField::ElementType,
            LayoutError::SubByteMnMajor { .. } => LayoutField::Major,
            LayoutError::SwizzleNotAllowed { .. } => LayoutField::Swizzle,
            LayoutError::AbsoluteModeLayout { .. } => LayoutField::LboMode,
            LayoutError::Extent { field, .. } | LayoutError::ExtentTooLarge { field, .. } => field,
            LayoutError::KCrossesSwizzleRow { .. } => LayoutField::K,
            LayoutError::IndexOutOfRange { field, .. } => field,
            LayoutError::AddressOutOfRange { .. }
            | LayoutError::Overlap { .. }
            | LayoutError::OutsideBuffer { .. }
            | LayoutError::EmptyBuffer { .. } => LayoutField::Address,
            LayoutError::Descriptor(_) => LayoutField::StartAddress,
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
        match *self {
            LayoutError::NotAnInput { .. } => Source::PtxTable(39),
            LayoutError::KindRequired { .. } => Source::PtxSection("9.7.16.10.4.4"),
            LayoutError::NotInKind { .. } => Source::Decision(12),
            LayoutError::SubByteMnMajor { .. } => Source::Decision(11),
            LayoutError::SwizzleNotAllowed { .. } => Source::Decision(18),
            LayoutError::AbsoluteModeLayout { .. } => Source::Decision(5),
            LayoutError::KCrossesSwizzleRow { .. } => Source::PtxSection("9.7.16.3.1.2"),
            LayoutError::ExtentTooLarge { .. } => Source::PtxTable(39),
            LayoutError::AddressOutOfRange { .. } => Source::Decision(3),
            LayoutError::Descriptor(e) => e.source(),
            LayoutError::Extent { .. }
            | LayoutError::IndexOutOfRange { .. }
            | LayoutError::Overlap { .. }
            | LayoutError::OutsideBuffer { .. }
            | LayoutError::EmptyBuffer { .. } => Source::PtxSection("9.7.16.3.3"),
        }
    }
}

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
        Severity::Error
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LayoutError {}

impl From<SmemError> for LayoutError {
    fn from(e: SmemError) -> LayoutError {
        LayoutError::Descriptor(e)
    }
}
