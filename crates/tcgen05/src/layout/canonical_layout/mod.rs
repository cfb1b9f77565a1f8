//! Which shared-memory byte an MMA reads for each element of an operand: the canonical layouts
//! of PTX ISA 9.7.16.3.3 (the same as `wgmma`'s, 9.7.15.5.1.2) evaluated for a shared memory
//! descriptor, and the descriptors that describe a tile laid out from intent.
//!
//! A [`MatrixLayout`] joins a [`SmemDescriptor`] with what the descriptor does not record: the
//! operand's element storage ([`ElementStorage`]), its [`Major`]-ness, its extent along M (or N)
//! and the instruction's K ([`Operand`]). [`MatrixLayout::address`] then gives the byte (and, for
//! 4- and 6-bit elements, the bit) of element `(mn, k)`; [`MatrixLayout::elements_at`] is the
//! inverse, and `MatrixLayout::check` (feature `alloc`) reports overlaps and reads outside a
//! buffer.
//!
//! # The model
//!
//! Every operand is read in 16-byte *chunks* of `T` elements (`T = 128 / bits`: 4 for tf32, 8
//! for f16/bf16, 16 for 8-bit types). 4- and 6-bit types take their storage from the kind
//! ([`ElementStorage::of`]): under `kind::f8f6f4` / `kind::mxf8f6f4` each chunk holds 16
//! elements, packed from bit 0 and padded to 16 bytes (PTX ISA 9.7.16.10.4.4, the `.b4x16_p64` /
//! `.b6x16_p32` formats of 5.5.1.1.1); under `kind::mxf4` / `kind::mxf4nvf4` 32 packed 4-bit
//! elements (9.7.16.10.4.6). Element `j` of a chunk starts at bit `j * bits` of the chunk.
//!
//! The chunk's byte address before swizzling (`pre`), with `start`, `LBO`, `SBO` the
//! descriptor's byte fields, `W` the swizzle width ([`Swizzle::width_bytes`]) and `kc = k / T`,
//! `mc = mn / T` (PTX ISA 9.7.16.3.3 and its Figures; `spec/ptx-beyond-seeds.md` §1.5, §1.8):
//!
//! | major | swizzle | `pre` |
//! |---|---|---|
//! | K | none | `start + (mn % 8) * 16 + (mn / 8) * SBO + kc * LBO` |
//! | K | 32B/64B/128B | `start + (mn % 8) * W + (mn / 8) * SBO + kc * 16` |
//! | MN | none | `start + mc * SBO + (k % 8) * 16 + (k / 8) * LBO` |
//! | MN | 32B/64B/128B | `start + (mc % (W/16)) * 16 + (mc / (W/16)) * LBO + (k % 8) * W + (k / 8) * SBO` |
//! | MN | 128B, 32B atoms | `start + (mc % 8) * 16 + (mc / 8) * LBO + (k % 4) * 128 + (k / 4) * SBO` |
//!
//! The swizzle then XORs address bits, as CuTe's `Swizzle<B, M, 3>` does on the byte address:
//! bits `[M, M + B)` ^= the pattern line `L`, where `B` is 1, 2, 3 for 32B, 64B, 128B (`M = 4`)
//! and 2 for 128B with 32B atomicity (`M = 5`). The line is counted from the start of the
//! repeating pattern: `L = (pre >> 7) - base_offset` (modulo `2^B`) under the default
//! [`BaseOffsetReading::PatternStart`], so that the descriptor's base offset (Table 41:
//! `(pattern start addr >> 7) & 7`, decisions.md R4) moves the pattern's first line to the
//! pattern start. PTX does not spell out how the hardware uses the field (ptx-beyond-seeds.md
//! §1.7); the other readings are available for experiments ([`BaseOffsetReading`]). With base
//! offset 0 all readings but [`BaseOffsetReading::StartLine`] agree: the XOR uses absolute
//! address bits 7-9, which is what lets a K advance add to the start address alone (R7).
//!
//! With the leading-dimension byte address mode (bit 52, decisions.md R5: K-major, 128-Byte
//! swizzling) the part of a row's K block that would cross the end of the start address's
//! 128-byte line is read from the address in the leading-dimension field instead (PTX ISA
//! 9.7.16.3.1.2). That split point is this crate's reading of the text, not verified on hardware.
//!
//! # Examples
//!
//! The CUTLASS K-major bf16 tile with 128-Byte swizzling at 0x400: row 1's first chunk sits in
//! the second 128-byte line with its chunk index XORed by 1.
//!
//! ```
//! use tcgen05::canonical_layout::{ElementStorage, MatrixLayout, Operand};
//! use tcgen05::shared_memory_descriptor::SmemDescriptor;
//! use tcgen05::{ElementType, Major, Target};
//!
//! let desc = SmemDescriptor::from_bits(0x4000_4040_0001_0040, Target::Sm100a)?;
//! let bf16 = ElementStorage::of(ElementType::Bf16, None)?;
//! let a = MatrixLayout::try_new(desc, Operand::new(bf16, Major::K, 128, 16))?;
//! assert_eq!(a.address(0, 0)?.address, 0x400);
//! assert_eq!(a.address(1, 0)?.address, 0x400 + 128 + 16);
//! assert_eq!(a.address(8, 9)?.address, 0x400 + 1024 + 16 + 2);
//! # Ok::<(), tcgen05::canonical_layout::LayoutError>(())
//! ```

use core::fmt;

use crate::diagnostic::{Diagnostic, Diagnostics, Severity, Source};
use crate::mma::{ElementType, Kind, Major};
use crate::shared_memory_descriptor::{
    base_offset_for, encode_bytes, LboMode, SmemDescriptor, SmemError, SmemField, SmemFields,
    Swizzle, SWIZZLE_LINE_BYTES,
};
use crate::targets::Target;

/// Bytes of one chunk: the unit every canonical layout is built from (PTX ISA 9.7.16.3.3).
pub const CHUNK_BYTES: u32 = 16;

/// Rows of one core matrix along the strided dimension (PTX ISA 9.7.16.3.3).
pub const CORE_ROWS: u32 = 8;

/// Shared memory addresses the descriptor can express: 18 bits (Table 40, decisions.md R3).
pub const SHARED_WINDOW_BYTES: u64 = 1 << 18;

/// The largest M/N or K extent of one MMA operand: Table 39's M and N are at most 256, and its K
/// at most 128 (256 leaves room for the stored K of any form).
pub const MAX_OPERAND_EXTENT: u32 = 256;

/// Capacity of [`LayoutDiagnostics`]: every problem one operand and descriptor can have.
pub const LAYOUT_DIAGNOSTICS_CAPACITY: usize = 12;

/// Every problem of an operand description and descriptor, found without allocating.
pub type LayoutDiagnostics = Diagnostics<LayoutError, LAYOUT_DIAGNOSTICS_CAPACITY>;

/// How an operand's elements fill a 16-byte chunk of shared memory.
///
/// `bits` data bits per element, `per_chunk` elements per chunk (the `T` of PTX ISA 9.7.16.3.3),
/// packed from the chunk's bit 0; what `bits * per_chunk` leaves of the 128 bits is padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ElementStorage {
    bits: u8,
    per_chunk: u8,
}

impl ElementStorage {
    /// The storage of an input element type, with the kind that decides the storage of 4- and
    /// 6-bit types: 16 per chunk, padded, under `f8f6f4`/`mxf8f6f4` (PTX ISA 9.7.16.10.4.4);
    /// 32 per chunk, packed, under `mxf4`/`mxf4nvf4` (9.7.16.10.4.6). Other types need no kind
    /// (`T = 128 / bits`); when one is given, the type must be an input of that kind.
    ///
    /// # Errors
    /// [`LayoutError::NotAnInput`] for the accumulator types f32 and s32,
    /// [`LayoutError::KindRequired`] for a 4- or 6-bit type without a kind, and
    /// [`LayoutError::NotInKind`] for a type the kind does not take (Table 39, decisions.md R12).
    ///
    /// # Examples
    /// ```
    /// use tcgen05::canonical_layout::ElementStorage;
    /// use tcgen05::{ElementType, Kind};
    ///
    /// assert_eq!(ElementStorage::of(ElementType::Bf16, None)?.per_chunk(), 8);
    /// assert_eq!(ElementStorage::of(ElementType::E2m1, Some(Kind::F8f6f4))?.per_chunk(), 16);
    /// assert_eq!(ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4))?.per_chunk(), 32);
    /// assert!(ElementStorage::of(ElementType::E2m1, None).is_err());
    /// # Ok::<(), tcgen05::canonical_layout::LayoutError>(())
    /// ```
    pub const fn of(
        element: ElementType,
        kind: Option<Kind>,
    ) -> Result<ElementStorage, LayoutError> {
        if matches!(element, ElementType::F32 | ElementType::S32) {
            return Err(LayoutError::NotAnInput { element });
        }
        if let Some(kind) = kind {
            if element.ab_code(kind).is_none() {
                return Err(LayoutError::NotInKind { element, kind });
            }
        }
        let bits = element.bits();
        if !element.is_sub_byte() {
            return Ok(ElementStorage {
                bits,
                per_chunk: (128 / bits as u32) as u8,
            });
        }
        match kind {
            None => Err(LayoutError::KindRequired { element }),
            Some(Kind::Mxf4 | Kind::Mxf4nvf4) => Ok(ElementStorage {
                bits,
                per_chunk: 32,
            }),
            Some(_) => Ok(ElementStorage {
                bits,
                per_chunk: 16,
            }),
        }
    }

    /// Data bits of one element.
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.bits
    }

    /// Elements per 16-byte chunk (`T`).
    #[must_use]
    pub const fn per_chunk(self) -> u8 {
        self.per_chunk
    }

    /// The K of one dense MMA for this storage: two chunks per row (256 bits of A per row,
    /// Table 39), so 8 for tf32, 16 for 16-bit, 32 for 8-bit and padded 4/6-bit, 64 for packed
    /// 4-bit.
    #[must_use]
    pub const fn dense_k(self) -> u32 {
        2 * self.per_chunk as u32
    }
}

/// How the descriptor's matrix base offset places the swizzle pattern (Table 41). PTX does not
/// say how the hardware applies the field; each reading is one hypothesis, so that a hardware
/// experiment can tell them apart (`spec/ptx-beyond-seeds.md` §1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum BaseOffsetReading {
    /// The XOR line is `(address >> 7) - base_offset`: the pattern's first line is the one the
    /// base offset names, so Table 41's `(pattern start addr >> 7) & 7` starts the pattern at
    /// the pattern start. This crate's model.
    #[default]
    PatternStart,
    /// The field is ignored and the XOR line is the absolute `address >> 7`.
    Absolute,
    /// The XOR line is `((address - start) >> 7) + base_offset`, counting lines from the start
    /// address's line.
    StartLine,
}

impl BaseOffsetReading {
    /// Every reading.
    pub const ALL: [BaseOffsetReading; 3] = [
        BaseOffsetReading::PatternStart,
        BaseOffsetReading::Absolute,
        BaseOffsetReading::StartLine,
    ];

    /// `"pattern_start"`, `"absolute"` or `"start_line"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BaseOffsetReading::PatternStart => "pattern_start",
            BaseOffsetReading::Absolute => "absolute",
            BaseOffsetReading::StartLine => "start_line",
        }
    }
}

/// What the MMA needs to know about an operand besides its descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Operand {
    /// How elements fill a chunk.
    pub storage: ElementStorage,
    /// K-major or MN-major (instruction descriptor bits 15/16, PTX ISA 9.7.16.10.6).
    pub major: Major,
    /// Rows along M (for A) or columns along N (for B).
    pub mn: u32,
    /// The instruction's K, in elements (for sparse A, the stored K / 2).
    pub k: u32,
}

impl Operand {
    /// An operand description.
    #[must_use]
    pub const fn new(storage: ElementStorage, major: Major, mn: u32, k: u32) -> Operand {
        Operand {
            storage,
            major,
            mn,
            k,
        }
    }
}

/// Where one element lives in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ElementLocation {
    /// Byte address of the element's first (lowest) bit.
    pub address: u32,
    /// Bit of that byte where the element starts (0 unless elements are narrower than a byte
    /// or 6 bits wide).
    pub bit: u8,
    /// Data bits of the element.
    pub bits: u8,
}

impl ElementLocation {
    /// The element's first bit, counted from shared memory address 0.
    #[must_use]
    pub const fn first_bit(self) -> u64 {
        self.address as u64 * 8 + self.bit as u64
    }

    /// One past the element's last byte.
    #[must_use]
    pub const fn end_address(self) -> u32 {
        let end_bit = self.bit as u32 + self.bits as u32;
        self.address + end_bit.div_ceil(8)
    }
}

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

/// The XOR of a swizzle mode as CuTe's `Swizzle<B, M, 3>`: `(B, M)`, or `None` without
/// swizzling (`spec/ptx-beyond-seeds.md` §1.6).
const fn swizzle_bits(swizzle: Swizzle) -> Option<(u32, u32)> {
    match swizzle {
        Swizzle::None => None,
        Swizzle::B32 => Some((1, 4)),
        Swizzle::B64 => Some((2, 4)),
        Swizzle::B128 => Some((3, 4)),
        Swizzle::B128Base32B => Some((2, 5)),
    }
}

/// Applies a swizzle mode to a pre-swizzle byte address (see the [module docs](self)).
#[must_use]
pub const fn swizzle_address(
    pre: u64,
    swizzle: Swizzle,
    base_offset: u8,
    start: u32,
    reading: BaseOffsetReading,
) -> u64 {
    let Some((b, m)) = swizzle_bits(swizzle) else {
        return pre;
    };
    let line = pre >> 7;
    let phase = match reading {
        BaseOffsetReading::PatternStart => line.wrapping_sub(base_offset as u64),
        BaseOffsetReading::Absolute => line,
        BaseOffsetReading::StartLine => line
            .wrapping_sub((start >> 7) as u64)
            .wrapping_add(base_offset as u64),
    };
    pre ^ ((phase & ((1 << b) - 1)) << m)
}

/// An operand in shared memory as one MMA reads it: a descriptor plus the operand's storage,
/// major-ness and extent, checked against the canonical layouts' rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MatrixLayout {
    fields: SmemFields,
    operand: Operand,
    reading: BaseOffsetReading,
}

/// The unit an extent must be a multiple of: `(mn unit, k unit)`.
const fn extent_units(op: &Operand, swizzle: Swizzle) -> (u32, u32) {
    let t = op.storage.per_chunk as u32;
    match op.major {
        Major::K => (CORE_ROWS, t),
        Major::Mn => match swizzle {
            Swizzle::B128Base32B => (t, 4),
            _ => (t, CORE_ROWS),
        },
    }
}

impl MatrixLayout {
    /// Every problem of `operand` read through a descriptor with `fields`: element storage and
    /// major-ness (R11), swizzle for the major-ness and width (R18), the absolute mode's layout
    /// (R5), extents that are not whole core-matrix rows or chunks, and a K-major K block that
    /// crosses its swizzle row (PTX ISA 9.7.16.3.1.2).
    #[must_use]
    pub const fn validate(fields: &SmemFields, operand: &Operand) -> LayoutDiagnostics {
        let mut d = Diagnostics::new();
        // Byte fields the descriptor could not hold (decisions.md R3), for hand-made fields.
        let bytes = [
            (SmemField::StartAddress, fields.start_address),
            (SmemField::LeadingByteOffset, fields.leading_byte_offset),
            (SmemField::StrideByteOffset, fields.stride_byte_offset),
        ];
        let mut i = 0;
        while i < bytes.len() {
            if let Some(Err(e)) = encode_bytes(bytes[i].0, bytes[i].1) {
                d.push(LayoutError::Descriptor(e));
            }
            i += 1;
        }
        let bits = operand.storage.bits;
        let swizzle = fields.swizzle;
        if matches!(operand.major, Major::Mn) && bits < 8 {
            d.push(LayoutError::SubByteMnMajor { bits });
        }
        let base32 = matches!(swizzle, Swizzle::B128Base32B);
        let swizzle_ok = match operand.major {
            Major::K => !base32,
            Major::Mn => base32 == (bits == 32),
        };
        if !swizzle_ok {
            d.push(LayoutError::SwizzleNotAllowed {
                swizzle,
                major: operand.major,
                bits,
            });
        }
        if matches!(fields.lbo_mode, LboMode::Absolute)
            && !(matches!(operand.major, Major::K) && matches!(swizzle, Swizzle::B128))
        {
            d.push(LayoutError::AbsoluteModeLayout {
                swizzle,
                major: operand.major,
            });
        }
        let (mn_unit, k_unit) = extent_units(operand, swizzle);
        if operand.mn > MAX_OPERAND_EXTENT {
            d.push(LayoutError::ExtentTooLarge {
                field: LayoutField::Mn,
                value: operand.mn,
                max: MAX_OPERAND_EXTENT,
            });
        } else if operand.mn == 0 || operand.mn % mn_unit != 0 {
            d.push(LayoutError::Extent {
                field: LayoutField::Mn,
                value: operand.mn,
                unit: mn_unit,
            });
        }
        if operand.k > MAX_OPERAND_EXTENT {
            d.push(LayoutError::ExtentTooLarge {
                field: LayoutField::K,
                value: operand.k,
                max: MAX_OPERAND_EXTENT,
            });
        } else if operand.k == 0 || operand.k % k_unit != 0 {
            d.push(LayoutError::Extent {
                field: LayoutField::K,
                value: operand.k,
                unit: k_unit,
            });
        } else if matches!(operand.major, Major::K)
            && swizzle.is_swizzled()
            && matches!(fields.lbo_mode, LboMode::Relative)
        {
            let width = swizzle.width_bytes();
            let offset = fields.start_address % width;
            let bytes = operand.k / operand.storage.per_chunk as u32 * CHUNK_BYTES;
            if offset as u64 + bytes as u64 > width as u64 {
                d.push(LayoutError::KCrossesSwizzleRow {
                    offset,
                    bytes,
                    width,
                });
            }
        }
        d
    }

    /// The layout of `operand` read through `descriptor`, with the default
    /// [`BaseOffsetReading`].
    ///
    /// # Errors
    /// The first problem [`MatrixLayout::validate`] finds.
    pub const fn try_new(
        descriptor: SmemDescriptor,
        operand: Operand,
    ) -> Result<MatrixLayout, LayoutError> {
        MatrixLayout::from_fields(descriptor.fields(), operand)
    }

    /// As [`MatrixLayout::try_new`], from descriptor fields (which must already satisfy
    /// [`SmemDescriptor::validate`]; the Hopper `wgmma` descriptor has the same fields).
    ///
    /// # Errors
    /// The first problem [`MatrixLayout::validate`] finds.
    pub const fn from_fields(
        fields: SmemFields,
        operand: Operand,
    ) -> Result<MatrixLayout, LayoutError> {
        let d = MatrixLayout::validate(&fields, &operand);
        if let Some(e) = d.get(0) {
            return Err(e);
        }
        Ok(MatrixLayout {
            fields,
            operand,
            reading: BaseOffsetReading::PatternStart,
        })
    }

    /// The same layout under another reading of the base offset (for hardware experiments).
    #[must_use]
    pub const fn with_reading(self, reading: BaseOffsetReading) -> MatrixLayout {
        MatrixLayout { reading, ..self }
    }

    /// The descriptor fields.
    #[must_use]
    pub const fn fields(&self) -> SmemFields {
        self.fields
    }

    /// The operand.
    #[must_use]
    pub const fn operand(&self) -> Operand {
        self.operand
    }

    /// The base-offset reading in use.
    #[must_use]
    pub const fn reading(&self) -> BaseOffsetReading {
        self.reading
    }

    /// Byte address of the chunk holding `(mn, k)` before swizzling, and the element's index in
    /// the chunk. Indexes must be in range.
    const fn pre_swizzle(&self, mn: u32, k: u32) -> (u64, u32) {
        let f = &self.fields;
        let t = self.operand.storage.per_chunk as u64;
        let start = f.start_address as u64;
        let lbo = f.leading_byte_offset as u64;
        let sbo = f.stride_byte_offset as u64;
        let chunk = CHUNK_BYTES as u64;
        let (mn, k) = (mn as u64, k as u64);
        match self.operand.major {
            Major::K => {
                let kc = k / t;
                let j = (k % t) as u32;
                let rows = (mn % 8) * f.swizzle.width_bytes() as u64 + (mn / 8) * sbo;
                let pre = match (f.swizzle, f.lbo_mode) {
                    (Swizzle::None, _) => start + rows + kc * lbo,
                    (_, LboMode::Absolute) => {
                        let line = SWIZZLE_LINE_BYTES as u64;
                        let kb = kc * chunk;
                        let room = line - start % line;
                        if kb < room {
                            start + rows + kb
                        } else {
                            lbo + rows + (kb - room)
                        }
                    }
                    _ => start + rows + kc * chunk,
                };
                (pre, j)
            }
            Major::Mn => {
                let mc = mn / t;
                let j = (mn % t) as u32;
                let pre = match f.swizzle {
                    Swizzle::None => start + mc * sbo + (k % 8) * chunk + (k / 8) * lbo,
                    Swizzle::B128Base32B => {
                        start + (mc % 8) * chunk + (mc / 8) * lbo + (k % 4) * 128 + (k / 4) * sbo
                    }
                    _ => {
                        let w = f.swizzle.width_bytes() as u64;
                        let per_row = w / chunk;
                        start
                            + (mc % per_row) * chunk
                            + (mc / per_row) * lbo
                            + (k % 8) * w
                            + (k / 8) * sbo
                    }
                };
                (pre, j)
            }
        }
    }

    /// Where element `(mn, k)` lives: row `mn` along M (or N), `k` along K.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfRange`] for an index outside the operand,
    /// [`LayoutError::AddressOutOfRange`] when the address leaves the 18-bit window.
    pub const fn address(&self, mn: u32, k: u32) -> Result<ElementLocation, LayoutError> {
        if mn >= self.operand.mn {
            return Err(LayoutError::IndexOutOfRange {
                field: LayoutField::MnIndex,
                value: mn,
                extent: self.operand.mn,
            });
        }
        if k >= self.operand.k {
            return Err(LayoutError::IndexOutOfRange {
                field: LayoutField::KIndex,
                value: k,
                extent: self.operand.k,
            });
        }
        let (pre, j) = self.pre_swizzle(mn, k);
        let chunk = swizzle_address(
            pre,
            self.fields.swizzle,
            self.fields.base_offset,
            self.fields.start_address,
            self.reading,
        );
        let bit = j * self.operand.storage.bits as u32;
        let address = chunk + (bit / 8) as u64;
        if address >= SHARED_WINDOW_BYTES {
            return Err(LayoutError::AddressOutOfRange { mn, k, address });
        }
        Ok(ElementLocation {
            address: address as u32,
            bit: (bit % 8) as u8,
            bits: self.operand.storage.bits,
        })
    }

    /// The elements (at most two: elements are at least 4 bits wide) that hold any bit of
    /// shared memory byte `address`, in row-major order, as `(mn, k)`. The inverse of
    /// [`MatrixLayout::address`]; a scan over the operand.
    #[must_use]
    pub const fn elements_at(&self, address: u32) -> [Option<(u32, u32)>; 2] {
        let mut found = [None, None];
        let mut n = 0;
        let mut mn = 0;
        while mn < self.operand.mn {
            let mut k = 0;
            while k < self.operand.k {
                if let Ok(loc) = self.address(mn, k) {
                    if loc.address <= address && address < loc.end_address() && n < 2 {
                        found[n] = Some((mn, k));
                        n += 1;
                    }
                }
                k += 1;
            }
            mn += 1;
        }
        found
    }

    /// Every element's location, row-major (`mn * K + k`).
    ///
    /// # Errors
    /// The first [`LayoutError::AddressOutOfRange`].
    #[cfg(any(feature = "alloc", test))]
    pub fn locations(&self) -> Result<alloc::vec::Vec<ElementLocation>, LayoutError> {
        let mut v =
            alloc::vec::Vec::with_capacity(self.operand.mn as usize * self.operand.k as usize);
        for mn in 0..self.operand.mn {
            for k in 0..self.operand.k {
                v.push(self.address(mn, k)?);
            }
        }
        Ok(v)
    }

    /// Every overlap (two elements sharing a bit; each pair reported once, by the element
    /// whose first bit is lower) and, when `buffer` (a byte range `start..end`) is given, every
    /// element read outside it.
    ///
    /// # Errors
    /// [`LayoutError::AddressOutOfRange`] when an element leaves the shared memory window.
    #[cfg(any(feature = "alloc", test))]
    pub fn check(
        &self,
        buffer: Option<core::ops::Range<u32>>,
    ) -> Result<alloc::vec::Vec<LayoutError>, LayoutError> {
        if let Some(b) = &buffer {
            if b.end <= b.start {
                return Err(LayoutError::EmptyBuffer {
                    start: b.start,
                    end: b.end,
                });
            }
        }
        let locs = self.locations()?;
        let k_extent = self.operand.k;
        let coord = |i: usize| ((i as u32) / k_extent, (i as u32) % k_extent);
        let mut problems = alloc::vec::Vec::new();
        if let Some(buffer) = &buffer {
            for (i, loc) in locs.iter().enumerate() {
                if loc.address < buffer.start || loc.end_address() > buffer.end {
                    let (mn, k) = coord(i);
                    problems.push(LayoutError::OutsideBuffer {
                        mn,
                        k,
                        address: loc.address,
                    });
                }
            }
        }
        let mut order: alloc::vec::Vec<usize> = (0..locs.len()).collect();
        order.sort_by_key(|&i| (locs[i].first_bit(), i));
        let bits = self.operand.storage.bits as u64;
        for pair in order.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if locs[b].first_bit() < locs[a].first_bit() + bits {
                let (mn, k) = coord(a.min(b));
                let (other_mn, other_k) = coord(a.max(b));
                problems.push(LayoutError::Overlap {
                    mn,
                    k,
                    other_mn,
                    other_k,
                    address: locs[b].address,
                });
            }
        }
        Ok(problems)
    }
}

/// The base offset of a pattern start, as an error of this module.
const fn pattern_base_offset(start: u32, swizzle: Swizzle) -> Result<u8, LayoutError> {
    match base_offset_for(start, swizzle) {
        Ok(b) => Ok(b),
        Err(e) => Err(LayoutError::Descriptor(e)),
    }
}

/// The order in which a tile's swizzle atoms follow each other in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum AtomOrder {
    /// Atoms adjacent along M/N are adjacent in memory (CuTe's `tile_to_shape` default, which
    /// CUTLASS kernels use).
    #[default]
    MnFirst,
    /// Atoms adjacent along K are adjacent in memory.
    KFirst,
}

impl AtomOrder {
    /// `"mn_first"` or `"k_first"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            AtomOrder::MnFirst => "mn_first",
            AtomOrder::KFirst => "k_first",
        }
    }

    /// Parses a name as given by [`AtomOrder::name`].
    #[must_use]
    pub const fn from_name(name: &str) -> Option<AtomOrder> {
        match name.as_bytes() {
            b"mn_first" => Some(AtomOrder::MnFirst),
            b"k_first" => Some(AtomOrder::KFirst),
            _ => None,
        }
    }
}

/// Where a tile's swizzle pattern starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SwizzleAnchor {
    /// The pattern's first line is the tile's start address: descriptors carry Table 41's base
    /// offset `(start >> 7) & 7` when the start is off the repeat boundary (decisions.md R4),
    /// which is how the hardware places the pattern (the Hopper `wgmma` experiment of
    /// issue 6 part 5).
    #[default]
    TileStart,
    /// The pattern follows absolute address bits 7-9, as CuTe's swizzled pointers and tensor
    /// copies (TMA) write it: descriptors carry base offset 0, as CUTLASS always writes.
    Address,
}

impl SwizzleAnchor {
    /// `"tile_start"` or `"address"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SwizzleAnchor::TileStart => "tile_start",
            SwizzleAnchor::Address => "address",
        }
    }

    /// Parses a name as given by [`SwizzleAnchor::name`].
    #[must_use]
    pub const fn from_name(name: &str) -> Option<SwizzleAnchor> {
        match name.as_bytes() {
            b"tile_start" => Some(SwizzleAnchor::TileStart),
            b"address" => Some(SwizzleAnchor::Address),
            _ => None,
        }
    }
}

/// A whole operand tile as the user lays it out: element storage, major-ness, swizzle, extent
/// `mn x k` elements and start address, built from swizzle atoms (PTX ISA 9.7.16.10.6 Table 55)
/// placed [`AtomOrder::MnFirst`] or [`AtomOrder::KFirst`], with the swizzle pattern starting at
/// the start address (or following absolute addresses, [`SwizzleAnchor`]). Each MMA reads one K-block of `k_per_block` elements;
/// [`TileLayout::descriptor`] gives its shared memory descriptor.
///
/// The descriptor follows the canonical layouts (PTX ISA 9.7.16.3.3) and decisions.md R3-R7:
/// byte fields (R3); base offset from the start address (R4); the K-major swizzled leading
/// byte offset written as 16 (R6); K-blocks by advancing the start address (R7). A stride whose
/// mode holds a single atom is never used by the MMA and is written as 0, as CUTLASS's
/// `make_umma_desc` does.
///
/// # Examples
/// CUTLASS 4.2's MN-major bf16 128x64 tile with 128-Byte swizzling at 0x400 (oracles.md §2):
/// ```
/// use tcgen05::canonical_layout::{ElementStorage, TileLayout};
/// use tcgen05::shared_memory_descriptor::Swizzle;
/// use tcgen05::{ElementType, Major, Target};
///
/// let bf16 = ElementStorage::of(ElementType::Bf16, None)?;
/// let tile = TileLayout::new(bf16, Major::Mn, Swizzle::B128, 128, 64, 0x400);
/// assert_eq!(tile.k_blocks(), 4);
/// assert_eq!(tile.descriptor(0, Target::Sm100a)?.bits(), 0x4000_4080_0040_0040);
/// assert_eq!(tile.descriptor(1, Target::Sm100a)?.bits(), 0x4000_4080_0040_0140);
/// # Ok::<(), tcgen05::canonical_layout::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TileLayout {
    /// How elements fill a chunk.
    pub storage: ElementStorage,
    /// K-major or MN-major.
    pub major: Major,
    /// The swizzling mode.
    pub swizzle: Swizzle,
    /// Extent along M (or N), elements.
    pub mn: u32,
    /// Extent along K, elements.
    pub k: u32,
    /// Shared memory byte address of the tile (and of its swizzle pattern).
    pub start_address: u32,
    /// How atoms follow each other.
    pub order: AtomOrder,
    /// K elements per MMA (default [`ElementStorage::dense_k`]).
    pub k_per_block: u32,
    /// Where the swizzle pattern starts.
    pub anchor: SwizzleAnchor,
}

impl TileLayout {
    /// A tile with atoms MN-first and the dense MMA K per block.
    #[must_use]
    pub const fn new(
        storage: ElementStorage,
        major: Major,
        swizzle: Swizzle,
        mn: u32,
        k: u32,
        start_address: u32,
    ) -> TileLayout {
        TileLayout {
            storage,
            major,
            swizzle,
            mn,
            k,
            start_address,
            order: AtomOrder::MnFirst,
            k_per_block: storage.dense_k(),
            anchor: SwizzleAnchor::TileStart,
        }
    }

    /// The same tile with another atom order.
    #[must_use]
    pub const fn with_order(self, order: AtomOrder) -> TileLayout {
        TileLayout { order, ..self }
    }

    /// The same tile with its swizzle pattern anchored elsewhere.
    #[must_use]
    pub const fn with_anchor(self, anchor: SwizzleAnchor) -> TileLayout {
        TileLayout { anchor, ..self }
    }

    /// The same tile with another K per MMA.
    #[must_use]
    pub const fn with_k_per_block(self, k_per_block: u32) -> TileLayout {
        TileLayout {
            k_per_block,
            ..self
        }
    }

    /// The swizzle atom, `(mn, k)` in elements (PTX ISA 9.7.16.10.6 Table 55, scaled by `T`).
    #[must_use]
    pub const fn atom(&self) -> (u32, u32) {
        let t = self.storage.per_chunk as u32;
        let chunks = self.swizzle.width_bytes() / CHUNK_BYTES;
        match (self.major, self.swizzle) {
            (Major::K, _) => (CORE_ROWS, chunks * t),
            (Major::Mn, Swizzle::B128Base32B) => (8 * t, 4),
            (Major::Mn, _) => (chunks * t, CORE_ROWS),
        }
    }

    /// Bytes of one atom.
    #[must_use]
    pub const fn atom_bytes(&self) -> u32 {
        match (self.major, self.swizzle) {
            (Major::Mn, Swizzle::B128Base32B) => 4 * SWIZZLE_LINE_BYTES,
            _ => CORE_ROWS * self.swizzle.width_bytes(),
        }
    }

    /// Atoms along M/N and along K.
    const fn atom_counts(&self) -> (u32, u32) {
        let (am, ak) = self.atom();
        (self.mn / am, self.k / ak)
    }

    /// Bytes between atoms adjacent along M/N, and along K.
    const fn atom_strides(&self) -> (u64, u64) {
        let (nm, nk) = self.atom_counts();
        let b = self.atom_bytes() as u64;
        match self.order {
            AtomOrder::MnFirst => (b, nm as u64 * b),
            AtomOrder::KFirst => (nk as u64 * b, b),
        }
    }

    /// The operand one MMA reads from this tile.
    #[must_use]
    pub const fn operand(&self) -> Operand {
        Operand::new(self.storage, self.major, self.mn, self.k_per_block)
    }

    /// Number of K-blocks (MMAs along K).
    #[must_use]
    pub const fn k_blocks(&self) -> u32 {
        match self.k.checked_div(self.k_per_block) {
            Some(n) => n,
            None => 0,
        }
    }

    /// Every problem of the tile: storage, major-ness and swizzle rules as
    /// [`MatrixLayout::validate`]; extents that are not whole atoms; a K per block that does
    /// not divide the tile's K or is not a whole number of atom rows; a start address the
    /// descriptor cannot hold (R3) or whose pattern no base offset describes (R4).
    #[must_use]
    pub const fn validate(&self) -> LayoutDiagnostics {
        let fields = SmemFields::new(self.start_address & !0xF, 16, 0, self.swizzle);
        let mut d = MatrixLayout::validate(&fields, &self.operand());
        // The operand's own K problems are the tile's K-per-block problems. A tile may hold more
        // rows than one MMA reads (the window bounds it below), so the operand's MN cap is not
        // the tile's.
        let mut i = 0;
        let mut out = Diagnostics::new();
        while i < d.len() {
            if let Some(e) = d.get(i) {
                match e {
                    LayoutError::Extent {
                        field: LayoutField::K,
                        value,
                        unit,
                    } => out.push(LayoutError::Extent {
                        field: LayoutField::KPerBlock,
                        value,
                        unit,
                    }),
                    LayoutError::ExtentTooLarge {
                        field: LayoutField::K,
                        value,
                        max,
                    } => out.push(LayoutError::ExtentTooLarge {
                        field: LayoutField::KPerBlock,
                        value,
                        max,
                    }),
                    LayoutError::ExtentTooLarge {
                        field: LayoutField::Mn,
                        ..
                    } => {}
                    other => out.push(other),
                }
            }
            i += 1;
        }
        d = out;
        let (am, ak) = self.atom();
        if self.mn == 0 || self.mn % am != 0 {
            push_unique(
                &mut d,
                LayoutError::Extent {
                    field: LayoutField::Mn,
                    value: self.mn,
                    unit: am,
                },
            );
        }
        if self.k == 0 || self.k % ak != 0 {
            d.push(LayoutError::Extent {
                field: LayoutField::K,
                value: self.k,
                unit: ak,
            });
        } else {
            // The whole tile must fit the 18-bit window (decisions.md R3).
            let (nm, nk) = self.atom_counts();
            let end = self.start_address as u64 + nm as u64 * nk as u64 * self.atom_bytes() as u64;
            if end > SHARED_WINDOW_BYTES {
                d.push(LayoutError::AddressOutOfRange {
                    mn: self.mn,
                    k: self.k,
                    address: end,
                });
            }
        }
        let kpb = self.k_per_block;
        // K-major swizzled: a K-block sits inside one atom row; otherwise it spans whole atom
        // rows or divides one.
        let kpb_ok = kpb != 0
            && if matches!(self.major, Major::K) && self.swizzle.is_swizzled() {
                ak % kpb == 0
            } else {
                kpb % ak == 0 || ak % kpb == 0
            };
        if !kpb_ok {
            push_unique(
                &mut d,
                LayoutError::Extent {
                    field: LayoutField::KPerBlock,
                    value: kpb,
                    unit: ak,
                },
            );
        } else if self.k % kpb != 0 {
            push_unique(
                &mut d,
                LayoutError::Extent {
                    field: LayoutField::K,
                    value: self.k,
                    unit: kpb,
                },
            );
        }
        if let Some(Err(e)) = crate::shared_memory_descriptor::encode_bytes(
            crate::shared_memory_descriptor::SmemField::StartAddress,
            self.start_address,
        ) {
            d.push(LayoutError::Descriptor(e));
        } else if let Err(e) = pattern_base_offset(self.start_address, self.swizzle) {
            // With either anchor, a swizzled tile must start on a 128-byte line (or its repeat):
            // its atom rows are the pattern's lines.
            d.push(e);
        }
        d
    }

    /// Byte offset of element `(mn, k)` from the start address before swizzling, or `None`
    /// outside the tile or when the offset does not fit 64 bits (extents near 2^32: checked
    /// arithmetic, never a wrap).
    #[must_use]
    pub const fn offset(&self, mn: u32, k: u32) -> Option<u64> {
        if mn >= self.mn || k >= self.k {
            return None;
        }
        let (am, ak) = self.atom();
        let (sm, sk) = self.atom_strides();
        // Checked: extents near 2^32 make these products pass 2^64.
        let atom = match ((mn / am) as u64).checked_mul(sm) {
            Some(x) => match ((k / ak) as u64).checked_mul(sk) {
                Some(y) => match x.checked_add(y) {
                    Some(z) => z,
                    None => return None,
                },
                None => return None,
            },
            None => return None,
        };
        let (a, b) = ((mn % am) as u64, (k % ak) as u64);
        let t = self.storage.per_chunk as u64;
        let chunk = CHUNK_BYTES as u64;
        let inside = match (self.major, self.swizzle) {
            (Major::K, s) => a * s.width_bytes() as u64 + (b / t) * chunk,
            (Major::Mn, Swizzle::B128Base32B) => (a / t) * chunk + b * SWIZZLE_LINE_BYTES as u64,
            (Major::Mn, s) => (a / t) * chunk + b * s.width_bytes() as u64,
        };
        atom.checked_add(inside)
    }

    /// Where element `(mn, k)` of the tile lives: the offset, swizzled with the pattern
    /// anchored as [`TileLayout::anchor`] says. `None` outside the tile or the 18-bit window.
    #[must_use]
    pub const fn address(&self, mn: u32, k: u32) -> Option<ElementLocation> {
        let Some(off) = self.offset(mn, k) else {
            return None;
        };
        let Some(pre) = (self.start_address as u64).checked_add(off) else {
            return None;
        };
        if pre >= SHARED_WINDOW_BYTES {
            return None;
        }
        let reading = match self.anchor {
            SwizzleAnchor::TileStart => BaseOffsetReading::StartLine,
            SwizzleAnchor::Address => BaseOffsetReading::Absolute,
        };
        let chunk = swizzle_address(pre, self.swizzle, 0, self.start_address, reading);
        let t = self.storage.per_chunk as u32;
        let j = match self.major {
            Major::K => k % t,
            Major::Mn => mn % t,
        };
        let bit = j * self.storage.bits as u32;
        let address = chunk + (bit / 8) as u64;
        if address >= SHARED_WINDOW_BYTES {
            return None;
        }
        Some(ElementLocation {
            address: address as u32,
            bit: (bit % 8) as u8,
            bits: self.storage.bits,
        })
    }

    /// The descriptor fields of K-block `k_block`.
    ///
    /// # Errors
    /// The first problem of [`TileLayout::validate`], or [`LayoutError::IndexOutOfRange`] for
    /// a K-block past the tile.
    pub const fn fields(&self, k_block: u32) -> Result<SmemFields, LayoutError> {
        if let Some(e) = self.validate().get(0) {
            return Err(e);
        }
        if k_block >= self.k_blocks() {
            return Err(LayoutError::IndexOutOfRange {
                field: LayoutField::KBlock,
                value: k_block,
                extent: self.k_blocks(),
            });
        }
        let (nm, _) = self.atom_counts();
        let (_, ak) = self.atom();
        let (sm, sk) = self.atom_strides();
        // A stride whose mode holds one atom is never used: 0, as CUTLASS writes.
        let mn_stride = if nm > 1 { sm } else { 0 };
        let k_stride = if self.k_per_block > ak { sk } else { 0 };
        let (lbo, sbo) = match (self.major, self.swizzle) {
            (Major::K, Swizzle::None) => (k_stride, mn_stride),
            (Major::K, _) => (CHUNK_BYTES as u64, mn_stride),
            (Major::Mn, Swizzle::None) => (k_stride, mn_stride),
            (Major::Mn, _) => (mn_stride, k_stride),
        };
        let Some(off) = self.offset(0, k_block * self.k_per_block) else {
            return Err(LayoutError::IndexOutOfRange {
                field: LayoutField::KBlock,
                value: k_block,
                extent: self.k_blocks(),
            });
        };
        let start = self.start_address as u64 + off;
        let base_offset = match self.anchor {
            SwizzleAnchor::Address => 0,
            SwizzleAnchor::TileStart => match pattern_base_offset(self.start_address, self.swizzle)
            {
                Ok(b) => b,
                Err(e) => return Err(e),
            },
        };
        if start >= SHARED_WINDOW_BYTES || lbo >= SHARED_WINDOW_BYTES || sbo >= SHARED_WINDOW_BYTES
        {
            return Err(LayoutError::AddressOutOfRange {
                mn: 0,
                k: k_block * self.k_per_block,
                address: if start > lbo && start > sbo {
                    start
                } else if lbo > sbo {
                    lbo
                } else {
                    sbo
                },
            });
        }
        Ok(
            SmemFields::new(start as u32, lbo as u32, sbo as u32, self.swizzle)
                .with_base_offset(base_offset),
        )
    }

    /// The shared memory descriptor of K-block `k_block` for `target`.
    ///
    /// # Errors
    /// As [`TileLayout::fields`], and [`LayoutError::Descriptor`] when the descriptor cannot
    /// encode the fields.
    pub const fn descriptor(
        &self,
        k_block: u32,
        target: Target,
    ) -> Result<SmemDescriptor, LayoutError> {
        match self.fields(k_block) {
            Ok(f) => match SmemDescriptor::try_new(f, target) {
                Ok(d) => Ok(d),
                Err(e) => Err(LayoutError::Descriptor(e)),
            },
            Err(e) => Err(e),
        }
    }
}

/// Pushes `e` unless an error of the same field is already listed.
const fn push_unique(d: &mut LayoutDiagnostics, e: LayoutError) {
    let mut i = 0;
    while i < d.len() {
        if let Some(x) = d.get(i) {
            if x.layout_field() as u8 == e.layout_field() as u8 {
                return;
            }
        }
        i += 1;
    }
    d.push(e);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// `TileLayout::address` and `offset` near 2^32 (every swizzle, both majors, both atom
    /// orders, both anchors, extents and start address up to `u32::MAX`): no overflow, and an
    /// element past the 18-bit window is `None`, never a wrapped address.
    #[test]
    fn tile_address_near_u32_max_is_checked() {
        let mut checked = 0;
        for e in [ElementType::Bf16, ElementType::Tf32, ElementType::E4m3] {
            for major in [Major::K, Major::Mn] {
                for swizzle in Swizzle::ALL {
                    for order in [AtomOrder::MnFirst, AtomOrder::KFirst] {
                        for anchor in [SwizzleAnchor::TileStart, SwizzleAnchor::Address] {
                            for (mn, k, start) in [
                                (u32::MAX, u32::MAX, u32::MAX),
                                (u32::MAX - 7, u32::MAX - 63, 0),
                                (1 << 31, 1 << 31, (1 << 18) - 16),
                            ] {
                                let mut t =
                                    TileLayout::new(storage(e), major, swizzle, mn, k, start)
                                        .with_order(order);
                                t.anchor = anchor;
                                for (i, j) in [(mn - 1, k - 1), (mn - 1, 0), (0, k - 1)] {
                                    let _ = t.offset(i, j);
                                    if let Some(loc) = t.address(i, j) {
                                        assert!(u64::from(loc.address) < SHARED_WINDOW_BYTES);
                                    }
                                    checked += 1;
                                }
                                assert_eq!(t.address(mn - 1, k - 1), None);
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 2 * 5 * 2 * 2 * 3 * 3);
    }

    fn storage(e: ElementType) -> ElementStorage {
        ElementStorage::of(e, None).expect("plain type")
    }

    fn layout(raw: u64, e: ElementType, major: Major, mn: u32, k: u32) -> MatrixLayout {
        let d = SmemDescriptor::from_bits(raw, Target::Sm100a).expect("valid descriptor");
        MatrixLayout::try_new(d, Operand::new(storage(e), major, mn, k)).expect("valid layout")
    }

    #[test]
    fn pattern_start_helper_keeps_errors() {
        assert_eq!(pattern_base_offset(0x480, Swizzle::B128), Ok(1));
        assert!(matches!(
            pattern_base_offset(0x440, Swizzle::B128),
            Err(LayoutError::Descriptor(
                SmemError::PatternStartNotLineAligned { .. }
            ))
        ));
    }

    /// PTX Fig. K-major, no swizzle, tf32: `((8,2),(4,4)):((4,32),(1,64))` elements, LBO 256 B,
    /// SBO 128 B (ptx-beyond-seeds.md §1.5).
    #[test]
    fn ptx_k_major_none_tf32() {
        let f = SmemFields::new(0, 256, 128, Swizzle::None);
        let l = MatrixLayout::from_fields(
            f,
            Operand::new(storage(ElementType::Tf32), Major::K, 16, 16),
        )
        .expect("valid");
        for mn in 0..16u32 {
            for k in 0..16u32 {
                let elems = (mn % 8) * 4 + (mn / 8) * 32 + (k % 4) + (k / 4) * 64;
                assert_eq!(
                    l.address(mn, k).expect("valid").address,
                    elems * 4,
                    "({mn},{k})"
                );
            }
        }
    }

    /// PTX Fig. K-major, 32B swizzle, tf32: `Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4))`.
    #[test]
    fn ptx_k_major_32b_tf32() {
        let f = SmemFields::new(0, 16, 256, Swizzle::B32);
        let l =
            MatrixLayout::from_fields(f, Operand::new(storage(ElementType::Tf32), Major::K, 16, 8))
                .expect("valid");
        for mn in 0..16u32 {
            for k in 0..8u32 {
                let elems = (mn % 8) * 8 + (mn / 8) * 64 + k;
                let b = elems * 4;
                let swz = b ^ (((b >> 7) & 1) << 4);
                assert_eq!(l.address(mn, k).expect("valid").address, swz, "({mn},{k})");
            }
        }
    }

    /// PTX Figs. MN-major bf16 none / 32B / 64B (ptx-beyond-seeds.md §1.5).
    #[test]
    fn ptx_mn_major_bf16() {
        // none: ((8,1,2),(8,2)):((1,8,64),(8,128)); LBO 256, SBO 128
        let l = MatrixLayout::from_fields(
            SmemFields::new(0, 256, 128, Swizzle::None),
            Operand::new(storage(ElementType::Bf16), Major::Mn, 16, 16),
        )
        .expect("valid");
        for mn in 0..16u32 {
            for k in 0..16u32 {
                let e = (mn % 8) + (mn / 8) * 64 + (k % 8) * 8 + (k / 8) * 128;
                assert_eq!(l.address(mn, k).expect("valid").address, e * 2);
            }
        }
        // 32B: ((8,2,2),(8,2)):((1,8,128),(16,256)); LBO 256, SBO 512
        let l = MatrixLayout::from_fields(
            SmemFields::new(0, 256, 512, Swizzle::B32),
            Operand::new(storage(ElementType::Bf16), Major::Mn, 32, 16),
        )
        .expect("valid");
        for mn in 0..32u32 {
            for k in 0..16u32 {
                let e =
                    (mn % 8) + ((mn / 8) % 2) * 8 + (mn / 16) * 128 + (k % 8) * 16 + (k / 8) * 256;
                let b = e * 2;
                assert_eq!(
                    l.address(mn, k).expect("valid").address,
                    b ^ (((b >> 7) & 1) << 4)
                );
            }
        }
        // 64B: ((8,4,2),(8,2)):((1,8,256),(32,512)); LBO 512, SBO 1024
        let l = MatrixLayout::from_fields(
            SmemFields::new(0, 512, 1024, Swizzle::B64),
            Operand::new(storage(ElementType::Bf16), Major::Mn, 64, 16),
        )
        .expect("valid");
        for mn in 0..64u32 {
            for k in 0..16u32 {
                let e =
                    (mn % 8) + ((mn / 8) % 4) * 8 + (mn / 32) * 256 + (k % 8) * 32 + (k / 8) * 512;
                let b = e * 2;
                assert_eq!(
                    l.address(mn, k).expect("valid").address,
                    b ^ (((b >> 7) & 3) << 4)
                );
            }
        }
    }

    #[test]
    fn cutlass_k_major_128b_bf16() {
        let l = layout(0x4000_4040_0001_0040, ElementType::Bf16, Major::K, 128, 16);
        for mn in 0..128u32 {
            for k in 0..16u32 {
                let pre = 0x400 + (mn % 8) * 128 + (mn / 8) * 1024 + k * 2;
                let want = pre ^ (((pre >> 7) & 7) << 4);
                assert_eq!(l.address(mn, k).expect("valid").address, want);
            }
        }
        // K advance by 32 bytes: chunk bits of the absolute address are swizzled (R7).
        let l = layout(0x4000_4040_0001_0042, ElementType::Bf16, Major::K, 128, 16);
        assert_eq!(
            l.address(1, 0).expect("valid").address,
            (0x400 + 128 + 32) ^ (1 << 4)
        );
    }

    #[test]
    fn base_offset_readings() {
        // Pattern starting on line 1 (0x480), base offset 1.
        let f = SmemFields::new(0x480, 16, 1024, Swizzle::B128).with_base_offset(1);
        let op = Operand::new(storage(ElementType::Bf16), Major::K, 8, 16);
        let l = MatrixLayout::from_fields(f, op).expect("valid");
        // PatternStart: row 0 unswizzled, row 1 XOR 1.
        assert_eq!(l.address(0, 0).expect("valid").address, 0x480);
        assert_eq!(l.address(1, 0).expect("valid").address, 0x500 + 16);
        let abs = l.with_reading(BaseOffsetReading::Absolute);
        assert_eq!(abs.address(0, 0).expect("valid").address, 0x480 + 16);
        let sl = l.with_reading(BaseOffsetReading::StartLine);
        assert_eq!(sl.address(0, 0).expect("valid").address, 0x480 + 16);
        let f0 = f.with_base_offset(0);
        let sl0 = MatrixLayout::from_fields(f0, op)
            .expect("valid")
            .with_reading(BaseOffsetReading::StartLine);
        assert_eq!(sl0.address(0, 0).expect("valid").address, 0x480);
    }

    #[test]
    fn sub_byte_storage() {
        let e2m1 = ElementStorage::of(ElementType::E2m1, Some(Kind::F8f6f4)).expect("valid");
        let l = MatrixLayout::from_fields(
            SmemFields::new(0, 2048, 128, Swizzle::None),
            Operand::new(e2m1, Major::K, 8, 32),
        )
        .expect("valid");
        let a = l.address(0, 3).expect("valid");
        assert_eq!((a.address, a.bit, a.bits), (1, 4, 4));
        let a = l.address(0, 16).expect("valid");
        assert_eq!((a.address, a.bit), (2048, 0));
        let e3m2 = ElementStorage::of(ElementType::E3m2, Some(Kind::Mxf8f6f4)).expect("valid");
        let l = MatrixLayout::from_fields(
            SmemFields::new(0, 2048, 128, Swizzle::None),
            Operand::new(e3m2, Major::K, 8, 32),
        )
        .expect("valid");
        let a = l.address(0, 15).expect("valid");
        assert_eq!((a.address, a.bit), (11, 2)); // bit 90
        let mx = ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4)).expect("valid");
        assert_eq!(mx.dense_k(), 64);
        assert_eq!(
            ElementStorage::of(ElementType::E2m1, None),
            Err(LayoutError::KindRequired {
                element: ElementType::E2m1
            })
        );
        assert_eq!(
            ElementStorage::of(ElementType::F32, None),
            Err(LayoutError::NotAnInput {
                element: ElementType::F32
            })
        );
        assert_eq!(
            ElementStorage::of(ElementType::Bf16, Some(Kind::I8)),
            Err(LayoutError::NotInKind {
                element: ElementType::Bf16,
                kind: Kind::I8
            })
        );
    }

    #[test]
    fn every_rule_broken() {
        let bf16 = storage(ElementType::Bf16);
        let tf32 = storage(ElementType::Tf32);
        let e2m1 = ElementStorage::of(ElementType::E2m1, Some(Kind::F8f6f4)).expect("valid");
        let f = |s| SmemFields::new(0, 16, 1024, s);
        let fields_of = |d: LayoutDiagnostics| d.iter().map(|e| e.field()).collect::<Vec<_>>();
        // R11: sub-byte MN-major
        let d = MatrixLayout::validate(&f(Swizzle::B128), &Operand::new(e2m1, Major::Mn, 16, 32));
        assert_eq!(d.get(0), Some(LayoutError::SubByteMnMajor { bits: 4 }));
        // R18: base32B K-major, tf32 MN-major with 128B, bf16 MN-major with base32B
        for (s, op) in [
            (Swizzle::B128Base32B, Operand::new(bf16, Major::K, 8, 16)),
            (Swizzle::B128, Operand::new(tf32, Major::Mn, 32, 8)),
            (Swizzle::B128Base32B, Operand::new(bf16, Major::Mn, 64, 16)),
        ] {
            let d = MatrixLayout::validate(&f(s), &op);
            assert_eq!(fields_of(d), ["swizzle"], "{s:?} {op:?}");
            assert_eq!(d.get(0).expect("valid").source(), Source::Decision(18));
        }
        // R5: absolute mode MN-major
        let d = MatrixLayout::validate(
            &f(Swizzle::B128).with_lbo_mode(LboMode::Absolute),
            &Operand::new(bf16, Major::Mn, 64, 16),
        );
        assert_eq!(fields_of(d), ["lbo_mode"]);
        // extents, reported together
        let d = MatrixLayout::validate(&f(Swizzle::B128), &Operand::new(bf16, Major::K, 12, 12));
        assert_eq!(fields_of(d), ["mn", "k"]);
        // K block crossing the 128-byte row
        let d = MatrixLayout::validate(
            &SmemFields::new(0x470, 16, 1024, Swizzle::B128),
            &Operand::new(bf16, Major::K, 8, 16),
        );
        assert_eq!(
            d.get(0),
            Some(LayoutError::KCrossesSwizzleRow {
                offset: 0x70,
                bytes: 32,
                width: 128
            })
        );
        // More rows or K than one MMA reads (Table 39); a tile may hold more rows, but must fit
        // the window (R3).
        let d = MatrixLayout::validate(&f(Swizzle::B128), &Operand::new(bf16, Major::K, 264, 512));
        assert_eq!(fields_of(d), ["mn", "k"]);
        assert_eq!(d.get(0).map(|e| e.source()), Some(Source::PtxTable(39)));
        let big = TileLayout::new(bf16, Major::K, Swizzle::B128, 512, 64, 0);
        assert!(big.validate().is_empty());
        let too_big = TileLayout::new(bf16, Major::K, Swizzle::B128, 512, 512, 0);
        assert!(matches!(
            too_big.validate().get(0),
            Some(LayoutError::AddressOutOfRange {
                address: 0x80000,
                ..
            })
        ));
        // Hand-made fields the descriptor cannot hold, and the worst case: every problem at once.
        let worst = SmemFields::new(0x408, 0x40000, 0x18, Swizzle::B128Base32B)
            .with_lbo_mode(LboMode::Absolute);
        let d = MatrixLayout::validate(&worst, &Operand::new(e2m1, Major::Mn, 12, 7));
        assert_eq!(
            fields_of(d),
            [
                "start_address",
                "leading_byte_offset",
                "stride_byte_offset",
                "major",
                "swizzle",
                "lbo_mode",
                "mn",
                "k"
            ]
        );
        assert!(!d.overflowed());
        // indexes and window
        let l = layout(0x4000_4040_0001_0040, ElementType::Bf16, Major::K, 128, 16);
        assert_eq!(
            l.address(128, 0).expect_err("an error").layout_field(),
            LayoutField::MnIndex
        );
        assert_eq!(
            l.address(0, 16).expect_err("an error").layout_field(),
            LayoutField::KIndex
        );
        let far = MatrixLayout::from_fields(
            SmemFields::new(0x3FFF0, 16, 0x3FFF0, Swizzle::None),
            Operand::new(bf16, Major::K, 16, 16),
        )
        .expect("valid");
        assert!(matches!(
            far.address(8, 0),
            Err(LayoutError::AddressOutOfRange { mn: 8, k: 0, .. })
        ));
    }

    #[test]
    fn inverse_and_overlaps() {
        let l = layout(0x4000_4040_0001_0040, ElementType::Bf16, Major::K, 16, 16);
        for (mn, k) in [(0, 0), (1, 0), (9, 15), (15, 7)] {
            let a = l.address(mn, k).expect("valid");
            assert_eq!(l.elements_at(a.address), [Some((mn, k)), None]);
            assert_eq!(l.elements_at(a.address + 1), [Some((mn, k)), None]);
        }
        assert_eq!(l.elements_at(0x400 + 32), [None, None]);
        // End before (or at) start: one error, not a line per element.
        let (start, end) = (0x800, 0x400);
        assert_eq!(
            l.check(Some(start..end)),
            Err(LayoutError::EmptyBuffer {
                start: 0x800,
                end: 0x400
            })
        );
        assert!(matches!(
            l.check(Some(0x400..0x400)),
            Err(LayoutError::EmptyBuffer { .. })
        ));
        let problems = l.check(Some(0x400..0x400 + 2048)).expect("valid");
        assert!(problems.is_empty(), "{problems:?}");
        let problems = l.check(Some(0x400..0x400 + 1024)).expect("valid");
        assert_eq!(problems.len(), 8 * 16);
        assert!(problems
            .iter()
            .all(|p| matches!(p, LayoutError::OutsideBuffer { mn: 8..=15, .. })));
        // SBO 0 folds rows 8-15 onto rows 0-7.
        let f = SmemFields::new(0x400, 16, 0, Swizzle::B128);
        let l = MatrixLayout::from_fields(
            f,
            Operand::new(storage(ElementType::Bf16), Major::K, 16, 16),
        )
        .expect("valid");
        let problems = l.check(None).expect("valid");
        assert_eq!(problems.len(), 8 * 16);
        assert_eq!(
            problems[0],
            LayoutError::Overlap {
                mn: 0,
                k: 0,
                other_mn: 8,
                other_k: 0,
                address: 0x400
            }
        );
        // Packed 4-bit: two elements per byte, no overlap.
        let mx = ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4)).expect("valid");
        let l = MatrixLayout::from_fields(
            SmemFields::new(0, 16, 1024, Swizzle::B128),
            Operand::new(mx, Major::K, 8, 64),
        )
        .expect("valid");
        assert!(l.check(None).expect("valid").is_empty());
        assert_eq!(l.elements_at(0), [Some((0, 0)), Some((0, 1))]);
    }

    #[test]
    fn absolute_lbo_mode_split() {
        // mxf4 K = 96 (48 bytes) starting 96 bytes into a line: 32 bytes there, 16 at LBO.
        let mx = ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4)).expect("valid");
        let f =
            SmemFields::new(0x460, 0x2000, 1024, Swizzle::B128).with_lbo_mode(LboMode::Absolute);
        let l = MatrixLayout::from_fields(f, Operand::new(mx, Major::K, 8, 96)).expect("valid");
        assert_eq!(l.address(0, 0).expect("valid").address, 0x460);
        assert_eq!(l.address(0, 64).expect("valid").address, 0x2000);
        assert!(l.check(None).expect("valid").is_empty());
    }
}
