//! [`TileLayout`]: a tile laid out from intent, and the descriptors that describe it.

use super::error::{LayoutError, LayoutField};
use super::matrix::{swizzle_address, MatrixLayout};
use super::{
    BaseOffsetReading, ElementLocation, ElementStorage, LayoutDiagnostics, Operand, CHUNK_BYTES,
    CORE_ROWS, SHARED_WINDOW_BYTES,
};
use crate::diagnostic::Diagnostics;
use crate::mma::Major;
use crate::shared_memory_descriptor::{
    base_offset_for, SmemDescriptor, SmemFields, Swizzle, SWIZZLE_LINE_BYTES,
};
use crate::targets::Target;

/// The base offset of a pattern start, as an error of this module.
pub(super) const fn pattern_base_offset(start: u32, swizzle: Swizzle) -> Result<u8, LayoutError> {
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
    /// offset `(start >> 7) & 7` when the start is off the repeat boundary (rules.md R4),
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
/// The descriptor follows the canonical layouts (PTX ISA 9.7.16.3.3) and rules.md R3-R7:
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
            // The whole tile must fit the 18-bit window (rules.md R3).
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
