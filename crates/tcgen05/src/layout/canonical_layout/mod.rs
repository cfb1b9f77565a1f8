//! Which shared-memory byte an MMA reads for each element of an operand: the canonical layouts
//! of PTX ISA 9.7.16.3.3 (the same as `wgmma`'s, 9.7.15.5.1.2) evaluated for a shared memory
//! descriptor, and the descriptors that describe a tile laid out from intent.
//!
//! A [`MatrixLayout`] joins a [`SmemDescriptor`](crate::shared_memory_descriptor::SmemDescriptor) with what the descriptor does not record: the
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
//! descriptor's byte fields, `W` the swizzle width ([`Swizzle::width_bytes`](crate::shared_memory_descriptor::Swizzle::width_bytes)) and `kc = k / T`,
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
//! `(pattern start addr >> 7) & 7`, rules.md R4) moves the pattern's first line to the
//! pattern start. PTX does not spell out how the hardware uses the field (ptx-beyond-seeds.md
//! §1.7); the other readings are available for experiments ([`BaseOffsetReading`]). With base
//! offset 0 all readings but [`BaseOffsetReading::StartLine`] agree: the XOR uses absolute
//! address bits 7-9, which is what lets a K advance add to the start address alone (R7).
//!
//! With the leading-dimension byte address mode (bit 52, rules.md R5: K-major, 128-Byte
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

use crate::diagnostic::Diagnostics;
use crate::mma::{ElementType, Kind, Major};

// The errors, the layout of a descriptor (matrix) and the layout from intent (tile), one file
// each; their items are this module's.
mod error;
mod matrix;
mod tile;

pub use error::*;
pub use matrix::*;
pub use tile::*;

/// Bytes of one chunk: the unit every canonical layout is built from (PTX ISA 9.7.16.3.3).
pub const CHUNK_BYTES: u32 = 16;

/// Rows of one core matrix along the strided dimension (PTX ISA 9.7.16.3.3).
pub const CORE_ROWS: u32 = 8;

/// Shared memory addresses the descriptor can express: 18 bits (Table 40, rules.md R3).
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
    /// [`LayoutError::NotInKind`] for a type the kind does not take (Table 39, rules.md R12).
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

#[cfg(test)]
mod tests;
