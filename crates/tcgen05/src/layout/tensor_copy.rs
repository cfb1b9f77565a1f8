//! Whether an MMA reads what a tensor copy (TMA, `cp.async.bulk.tensor`) wrote: the
//! shared-memory placement of a tiled bounding box with swizzling (PTX ISA 5.5.7, "Swizzling
//! Modes"), checked element by element against a [`MatrixLayout`].
//!
//! A box of `inner x outer` elements lands row by row: row `o` (outer index) starts at
//! `destination + o * pitch`, where the pitch is the swizzle span (32, 64 or 128 bytes) when the
//! copy swizzles, whatever the inner extent, and the inner extent in bytes (a whole number of
//! 16-byte chunks) when it does not; element `i` of the row sits in chunk `i / T` of it (`T` elements per
//! chunk, [`ElementStorage::per_chunk`], so the padded 4/6-bit formats
//! `CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B`/`16U6_ALIGN16B` and the packed `16U4_ALIGN8B` are the
//! storages of [`ElementStorage::of`]). With swizzling, the 16-byte chunk index inside each
//! swizzle span (32, 64 or 128 bytes) is XORed with the 128-byte line index of the *absolute*
//! shared memory address, modulo the pattern's period (PTX ISA 5.5.7: 32B swizzle swaps chunk
//! pairs on odd lines, 64B and 128B XOR the chunk with the line number mod 4 / mod 8; the 128B
//! mode with 32-byte atomicity moves 32-byte units the same way). So a destination that is not on
//! the pattern's repeat boundary starts mid-pattern, which is what PTX's base-offset formulas
//! `(dst / 128) % 8` (128B), `% 4` (64B), `% 2` (32B) express (spec/ptx-beyond-seeds.md §1.6).
//! The box's inner extent must not exceed the swizzle span (CUDA driver API
//! `cuTensorMapEncodeTiled`: the inner box dimension in bytes is at most the swizzle size), and the
//! destination must be 128-byte aligned in every mode.
//!
//! Two of these facts were settled on an H100 (`hw/tma/`, cases in `hw/cases/tma.txt`, results in `hw/results/tma-h100.txt`): a swizzled
//! box narrower than the span is laid out with rows padded to the span (36 of 36 such cases), and
//! `cp.async.bulk.tensor` faults ("misaligned address") on destinations 16, 32 or 64 bytes into a
//! 128-byte line also without swizzling. The absolute-address XOR and the mid-pattern start at a
//! destination off the repeat boundary were confirmed there too.
//!
//! The tensor map's 96-byte mode ([`TmaSwizzle::B96`], PTX ISA 8.8 and later, 5.5.7; Blackwell
//! only) is read from the text alone and **unproven on hardware** (the H100 has no such mode):
//! its table of 16-byte cells is the 32-byte mode's (chunk pairs swapped on odd 128-byte
//! lines: `1 0 3 2 5 4 7 6`), its pattern starts on a 256-byte boundary with base offset
//! `(dst / 128) % 2` as the 32-byte mode's does, and its span is 96 bytes: the inner box
//! extent is at most 96 bytes ("Box-Size\[0\] must be less than or equal to 96B", the
//! `cp.async.bulk.tensor` restrictions) and, as the measured modes pad rows to their span,
//! rows are taken 96 bytes apart (a reading: the text draws the layout only in Figure 31).
//!
//! [`agreement`] then says whether every element an MMA reads through its descriptor sits where
//! the copy put the element the user meant (row `mn`, column `k`), and if not, names the first
//! element (row-major) that differs.
//!
//! # Examples
//! A 64 x 128 bf16 box (64 K elements inner = 128 bytes, 128 rows) copied with 128-Byte
//! swizzling to 0x400, read by CUTLASS's K-major descriptor: every element agrees.
//!
//! ```
//! use tcgen05::canonical_layout::{ElementStorage, MatrixLayout, Operand};
//! use tcgen05::shared_memory_descriptor::{SmemDescriptor, Swizzle};
//! use tcgen05::tensor_copy::{agreement, Agreement, TensorCopyBox};
//! use tcgen05::{ElementType, Major, Target};
//!
//! let bf16 = ElementStorage::of(ElementType::Bf16, None)?;
//! let copy = TensorCopyBox::new(Swizzle::B128, bf16, 64, 128, 0x400);
//! let desc = SmemDescriptor::from_bits(0x4000_4040_0001_0040, Target::Sm100a)?;
//! let mma = MatrixLayout::try_new(desc, Operand::new(bf16, Major::K, 128, 16))?;
//! assert_eq!(agreement(&mma, &[copy], 0)?, Agreement::Agree { elements: 128 * 16 });
//! # Ok::<(), tcgen05::tensor_copy::TensorCopyError>(())
//! ```

use core::fmt;

use crate::canonical_layout::{
    swizzle_address, BaseOffsetReading, ElementLocation, ElementStorage, LayoutError, MatrixLayout,
    CHUNK_BYTES, SHARED_WINDOW_BYTES,
};
use crate::diagnostic::{Diagnostic, Diagnostics, Rule, Severity, Source};
use crate::mma::Major;
use crate::shared_memory_descriptor::Swizzle;

/// Where the rules about the box's shape and placement come from.
const TMA_SOURCE: Source = Source::PtxSection("5.5.7");

/// One tensor copy into shared memory: a tiled bounding box of `inner x outer` elements with a
/// swizzle mode, placed at `destination`, holding the tile elements whose inner index starts at
/// `origin_inner` and outer index at `origin_outer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TensorCopyBox {
    /// Swizzle mode of the tensor map ([`Swizzle::B128Base32B`] is the tensor map's 128-byte
    /// mode with 32-byte atomicity).
    pub swizzle: Swizzle,
    /// How elements fill a chunk.
    pub storage: ElementStorage,
    /// Elements along the innermost (contiguous) box dimension.
    pub inner: u32,
    /// Elements along the outer box dimension (rows).
    pub outer: u32,
    /// Shared memory byte address the copy writes to.
    pub destination: u32,
    /// Tile index of the box's first inner element (K for a K-major operand, M/N otherwise).
    pub origin_inner: u32,
    /// Tile index of the box's first row (M/N for a K-major operand, K otherwise).
    pub origin_outer: u32,
    /// The tensor map's 96-byte mode: `swizzle` is then [`Swizzle::B32`] (the text's table of
    /// that mode) and the span 96 bytes ([`TensorCopyBox::tma_swizzle`]).
    span_96b: bool,
}

/// A tensor map's swizzling mode (PTX ISA 5.5.7, `.swizzle_mode` of `tensormap.replace`): one
/// the shared memory descriptor also has (Table 40), or the 96-byte mode it lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TmaSwizzle {
    /// A mode of Table 40 ([`Swizzle::B128Base32B`]: 128-byte with 32-byte atomicity).
    Mode(Swizzle),
    /// 96-byte swizzling (PTX ISA 8.8; `.swizzle_mode` 4 of `tensormap.replace`): the 32-byte
    /// mode's pattern over 96-byte rows. Read from the text, unproven on hardware.
    B96,
}

impl TmaSwizzle {
    /// The name: [`Swizzle::name`], or `"96B"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TmaSwizzle::Mode(s) => s.name(),
            TmaSwizzle::B96 => "96B",
        }
    }

    /// Parses a name as [`TmaSwizzle::name`] gives it.
    #[must_use]
    pub const fn from_name(name: &str) -> Option<TmaSwizzle> {
        if let Some(s) = Swizzle::from_name(name) {
            return Some(TmaSwizzle::Mode(s));
        }
        let b = name.as_bytes();
        if b.len() == 3 && b[0] == b'9' && b[1] == b'6' && b[2] == b'B' {
            Some(TmaSwizzle::B96)
        } else {
            None
        }
    }

    /// Bytes the mode spans: the inner box extent's limit and, when swizzled, the row pitch.
    #[must_use]
    pub const fn span_bytes(self) -> u32 {
        match self {
            TmaSwizzle::Mode(s) => s.width_bytes(),
            TmaSwizzle::B96 => 96,
        }
    }

    /// True for modes no Blackwell has confirmed here and no Hopper has (the 96-byte mode).
    #[must_use]
    pub const fn unproven_on_hardware(self) -> bool {
        matches!(self, TmaSwizzle::B96)
    }
}

/// A problem with a tensor-copy box, or with checking an MMA against it; its field, source and
/// severity are those of its rule's row ([`TensorCopyError::rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum TensorCopyError {
    /// A box extent of zero, or an inner extent that is not a whole number of 16-byte chunks.
    BoxExtent {
        /// `"box_inner"` or `"box_outer"`.
        field: &'static str,
        /// The extent.
        value: u32,
    },
    /// An inner extent wider than the swizzle span.
    InnerWiderThanSwizzle {
        /// Inner extent in bytes.
        bytes: u64,
        /// The swizzle span.
        span: u32,
    },
    /// A destination that is not 128-byte aligned (in every swizzle mode).
    Destination {
        /// The address.
        address: u32,
        /// The alignment needed.
        alignment: u32,
    },
    /// The box leaves the 18-bit shared memory window.
    OutOfWindow {
        /// One past the box's last byte.
        end: u64,
    },
    /// The MMA operand's storage differs from the copy's.
    StorageMismatch,
    /// The MMA's K-block, tile K indices `k_start .. k_start + k`, is not inside the K range
    /// `tile_start .. tile_end` that the copies cover (tile coordinates throughout), so part of
    /// what the MMA reads was never written.
    KStartOutsideTile {
        /// The tile K index where the MMA's K-block starts.
        k_start: u32,
        /// The MMA's K.
        k: u32,
        /// The first tile K index a copy holds.
        tile_start: u64,
        /// One past the last tile K index a copy holds.
        tile_end: u64,
    },
    /// A layout problem.
    Layout(LayoutError),
}

impl TensorCopyError {
    /// The field concerned, as a JSON key.
    #[must_use]
    pub const fn field_name(&self) -> &'static str {
        match (self, self.rule()) {
            (TensorCopyError::BoxExtent { field, .. }, _) => field,
            (TensorCopyError::Layout(e), _) => e.layout_field().name(),
            (_, Some(rule)) => TENSOR_COPY_FIELDS[rule as usize],
            (_, None) => "",
        }
    }

    /// The rule this error breaks, or `None` for [`TensorCopyError::Layout`], whose rule is the
    /// layout's.
    #[must_use]
    pub const fn rule(&self) -> Option<TensorCopyRule> {
        Some(match self {
            TensorCopyError::BoxExtent { .. } => TensorCopyRule::BoxExtent,
            TensorCopyError::InnerWiderThanSwizzle { .. } => TensorCopyRule::InnerWiderThanSwizzle,
            TensorCopyError::Destination { .. } => TensorCopyRule::Destination,
            TensorCopyError::OutOfWindow { .. } => TensorCopyRule::OutOfWindow,
            TensorCopyError::StorageMismatch => TensorCopyRule::StorageMismatch,
            TensorCopyError::KStartOutsideTile { .. } => TensorCopyRule::KStartOutsideTile,
            TensorCopyError::Layout(_) => return None,
        })
    }
}

/// The rules of a tensor copy and of an MMA reading what it placed, one per
/// [`TensorCopyError`] variant but [`TensorCopyError::Layout`], each with one row
/// ([`TensorCopyRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum TensorCopyRule {
    /// [`TensorCopyError::BoxExtent`].
    BoxExtent,
    /// [`TensorCopyError::InnerWiderThanSwizzle`].
    InnerWiderThanSwizzle,
    /// [`TensorCopyError::Destination`].
    Destination,
    /// [`TensorCopyError::OutOfWindow`].
    OutOfWindow,
    /// [`TensorCopyError::StorageMismatch`].
    StorageMismatch,
    /// [`TensorCopyError::KStartOutsideTile`].
    KStartOutsideTile,
}

impl TensorCopyRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &TENSOR_COPY_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"tensor_copy.destination"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// Every rule of a tensor copy (PTX ISA 5.5.7; 9.7.16.10.4.4 for the storage), indexed by
/// [`TensorCopyRule`].
pub(crate) const TENSOR_COPY_RULES: [Rule; 6] = {
    const E: Severity = Severity::Error;
    [
        Rule::fixed(
            "tensor_copy.box_extent",
            TMA_SOURCE,
            E,
            "A box extent is positive and its inner extent a whole number of 16-byte chunks.",
        ),
        Rule::fixed(
            "tensor_copy.inner_wider_than_swizzle",
            TMA_SOURCE,
            E,
            "The inner extent is at most the swizzle span.",
        ),
        Rule::fixed(
            "tensor_copy.destination",
            TMA_SOURCE,
            E,
            "The destination is 128-byte aligned.",
        ),
        Rule::fixed(
            "tensor_copy.out_of_window",
            TMA_SOURCE,
            E,
            "The box stays within the 18-bit shared memory window.",
        ),
        Rule::fixed(
            "tensor_copy.storage_mismatch",
            Source::PtxSection("9.7.16.10.4.4"),
            E,
            "The MMA operand is stored as the copy stored it.",
        ),
        Rule::fixed(
            "tensor_copy.k_start_outside_tile",
            TMA_SOURCE,
            E,
            "The K range an MMA reads lies within the K range the copies wrote.",
        ),
    ]
};

/// The field each rule of [`TENSOR_COPY_RULES`] concerns (`box_inner`
/// stands for the extent the error names), indexed by [`TensorCopyRule`].
const TENSOR_COPY_FIELDS: [&str; 6] = [
    "box_inner",
    "box_inner",
    "destination",
    "destination",
    "type",
    "k_start",
];

impl fmt::Display for TensorCopyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TensorCopyError::BoxExtent { field, value } => write!(
                f,
                "{field} {value} must be positive and, for the inner dimension, a whole number \
                 of 16-byte chunks"
            ),
            TensorCopyError::InnerWiderThanSwizzle { bytes, span } => write!(
                f,
                "the box's inner dimension of {bytes} bytes exceeds the {span}-byte swizzle span"
            ),
            TensorCopyError::Destination { address, alignment } => write!(
                f,
                "tensor copy destination {address:#x} is not {alignment}-byte aligned"
            ),
            TensorCopyError::OutOfWindow { end } => write!(
                f,
                "the box ends at {end:#x}, outside the 18-bit shared memory window"
            ),
            TensorCopyError::StorageMismatch => {
                f.write_str("the MMA operand's element storage differs from the tensor copy's")
            }
            TensorCopyError::KStartOutsideTile {
                k_start,
                k,
                tile_start,
                tile_end,
            } => write!(
                f,
                "the MMA's K-block, tile K {k_start}..{}, is not inside tile K \
                 {tile_start}..{tile_end}, which the copies cover",
                k_start as u64 + k as u64
            ),
            TensorCopyError::Layout(e) => fmt::Display::fmt(&e, f),
        }
    }
}

impl Diagnostic for TensorCopyError {
    fn field(&self) -> &'static str {
        self.field_name()
    }
    fn value(&self) -> u64 {
        match *self {
            TensorCopyError::BoxExtent { value, .. } => value as u64,
            TensorCopyError::InnerWiderThanSwizzle { bytes, .. } => bytes,
            TensorCopyError::Destination { address, .. } => address as u64,
            TensorCopyError::OutOfWindow { end } => end,
            TensorCopyError::StorageMismatch => 0,
            TensorCopyError::KStartOutsideTile { k_start, .. } => k_start as u64,
            TensorCopyError::Layout(e) => e.value(),
        }
    }
    fn source(&self) -> Source {
        match (self, self.rule()) {
            (TensorCopyError::Layout(e), _) => e.source(),
            (_, Some(rule)) => rule.row().fixed_source(TMA_SOURCE),
            (_, None) => TMA_SOURCE,
        }
    }
    fn severity(&self) -> Severity {
        match (self, self.rule()) {
            (TensorCopyError::Layout(e), _) => e.severity(),
            (_, Some(rule)) => rule.row().severity,
            (_, None) => Severity::Error,
        }
    }
    fn rule_id(&self) -> Option<&'static str> {
        match (self, self.rule()) {
            (TensorCopyError::Layout(e), _) => e.rule_id(),
            (_, rule) => rule.map(TensorCopyRule::id),
        }
    }
}

impl core::error::Error for TensorCopyError {}

impl From<LayoutError> for TensorCopyError {
    fn from(e: LayoutError) -> TensorCopyError {
        TensorCopyError::Layout(e)
    }
}

impl From<crate::shared_memory_descriptor::SmemError> for TensorCopyError {
    fn from(e: crate::shared_memory_descriptor::SmemError) -> TensorCopyError {
        TensorCopyError::Layout(LayoutError::Descriptor(e))
    }
}

/// Every problem of a box, found without allocating.
pub type TensorCopyDiagnostics = Diagnostics<TensorCopyError, 4>;

impl TensorCopyBox {
    /// A box at tile origin (0, 0).
    #[must_use]
    pub const fn new(
        swizzle: Swizzle,
        storage: ElementStorage,
        inner: u32,
        outer: u32,
        destination: u32,
    ) -> TensorCopyBox {
        TensorCopyBox {
            swizzle,
            storage,
            inner,
            outer,
            destination,
            origin_inner: 0,
            origin_outer: 0,
            span_96b: false,
        }
    }

    /// A box at tile origin (0, 0) copied through a tensor map with swizzling mode `mode`
    /// (the 96-byte mode included).
    #[must_use]
    pub const fn with_tma_swizzle(
        mode: TmaSwizzle,
        storage: ElementStorage,
        inner: u32,
        outer: u32,
        destination: u32,
    ) -> TensorCopyBox {
        match mode {
            TmaSwizzle::Mode(s) => TensorCopyBox::new(s, storage, inner, outer, destination),
            TmaSwizzle::B96 => TensorCopyBox {
                span_96b: true,
                ..TensorCopyBox::new(Swizzle::B32, storage, inner, outer, destination)
            },
        }
    }

    /// The tensor map's mode: [`TmaSwizzle::B96`] for a box made so, else `swizzle`.
    #[must_use]
    pub const fn tma_swizzle(&self) -> TmaSwizzle {
        if self.span_96b {
            TmaSwizzle::B96
        } else {
            TmaSwizzle::Mode(self.swizzle)
        }
    }

    /// The same box holding the tile elements from (`inner`, `outer`) on.
    #[must_use]
    pub const fn at_origin(self, inner: u32, outer: u32) -> TensorCopyBox {
        TensorCopyBox {
            origin_inner: inner,
            origin_outer: outer,
            ..self
        }
    }

    /// Bytes of one box row in shared memory: the swizzle span when swizzled (rows are padded to
    /// it), otherwise the inner extent rounded up to whole 16-byte chunks.
    #[must_use]
    pub const fn pitch(&self) -> u64 {
        if self.swizzle.is_swizzled() {
            return self.tma_swizzle().span_bytes() as u64;
        }
        self.inner_bytes()
    }

    /// The inner extent in bytes, rounded up to whole 16-byte chunks.
    #[must_use]
    pub const fn inner_bytes(&self) -> u64 {
        let t = self.storage.per_chunk() as u64;
        (self.inner as u64).div_ceil(t) * CHUNK_BYTES as u64
    }

    /// Every problem of the box: extents, the inner extent against the swizzle span, the
    /// destination's alignment and the shared memory window.
    #[must_use]
    pub const fn validate(&self) -> TensorCopyDiagnostics {
        let mut d = Diagnostics::new();
        let t = self.storage.per_chunk() as u32;
        if self.inner == 0 || self.inner % t != 0 {
            d.push(TensorCopyError::BoxExtent {
                field: "box_inner",
                value: self.inner,
            });
        }
        if self.outer == 0 {
            d.push(TensorCopyError::BoxExtent {
                field: "box_outer",
                value: self.outer,
            });
        }
        let span = self.tma_swizzle().span_bytes();
        if self.swizzle.is_swizzled() && self.inner_bytes() > span as u64 {
            d.push(TensorCopyError::InnerWiderThanSwizzle {
                bytes: self.inner_bytes(),
                span,
            });
        }
        // 128 in every mode: the H100 faults on 16-, 32- and 64-byte offsets without swizzling.
        let alignment = 128;
        if self.destination % alignment != 0 {
            d.push(TensorCopyError::Destination {
                address: self.destination,
                alignment,
            });
        }
        let end = self.destination as u64 + self.pitch() * self.outer as u64;
        if end > SHARED_WINDOW_BYTES {
            d.push(TensorCopyError::OutOfWindow { end });
        }
        d
    }

    /// Where the copy puts box element (`inner`, `outer`) (box coordinates), or `None`
    /// outside the box.
    #[must_use]
    pub const fn address(&self, inner: u32, outer: u32) -> Option<ElementLocation> {
        if inner >= self.inner || outer >= self.outer {
            return None;
        }
        let t = self.storage.per_chunk() as u64;
        let pre = self.destination as u64
            + outer as u64 * self.pitch()
            + (inner as u64 / t) * CHUNK_BYTES as u64;
        let chunk = swizzle_address(pre, self.swizzle, 0, 0, BaseOffsetReading::Absolute);
        let bit = (inner as u64 % t) * self.storage.bits() as u64;
        let address = chunk + bit / 8;
        if address >= SHARED_WINDOW_BYTES {
            return None;
        }
        Some(ElementLocation {
            address: address as u32,
            bit: (bit % 8) as u8,
            bits: self.storage.bits(),
        })
    }

    /// Where the copy puts tile element (`inner`, `outer`) (tile coordinates), if this box
    /// holds it.
    #[must_use]
    pub const fn tile_address(&self, inner: u32, outer: u32) -> Option<ElementLocation> {
        if inner < self.origin_inner || outer < self.origin_outer {
            return None;
        }
        self.address(inner - self.origin_inner, outer - self.origin_outer)
    }
}

/// The answer of [`agreement`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Agreement {
    /// Every element the MMA reads is where the copies put it.
    Agree {
        /// Elements checked.
        elements: u32,
    },
    /// The first element (row-major over the MMA operand) read from somewhere else.
    Differs {
        /// Row (M or N) of the operand.
        mn: u32,
        /// K index within the MMA.
        k: u32,
        /// Where the MMA reads it.
        mma: ElementLocation,
        /// Where the copies put it (`None`: no box holds it).
        copy: Option<ElementLocation>,
        /// Which tile element the copies put at the byte the MMA reads, if any, as
        /// `(mn, k)` in tile coordinates.
        found: Option<(u32, u32)>,
    },
}

/// Checks that the MMA described by `mma` reads, for every element `(mn, k)` of its operand,
/// the byte where `copies` put tile element `(mn, k_start + k)`. The tile's inner dimension is
/// K for a K-major operand and M/N for an MN-major one.
///
/// # Errors
/// The first problem of a box ([`TensorCopyBox::validate`]), a box whose storage differs from
/// the operand's, and address errors of the layout.
pub const fn agreement(
    mma: &MatrixLayout,
    copies: &[TensorCopyBox],
    k_start: u32,
) -> Result<Agreement, TensorCopyError> {
    let op = mma.operand();
    let mut c = 0;
    while c < copies.len() {
        if let Some(e) = copies[c].validate().get(0) {
            return Err(e);
        }
        if !same_storage(copies[c].storage, op.storage) {
            return Err(TensorCopyError::StorageMismatch);
        }
        c += 1;
    }
    // The K-block must lie in the K range the copies cover: K is the inner dimension of a
    // K-major tile and the outer one of an MN-major tile.
    let (mut tile_start, mut tile_end) = (u64::MAX, 0u64);
    let mut c = 0;
    while c < copies.len() {
        let b = &copies[c];
        let (origin, extent) = match op.major {
            Major::K => (b.origin_inner as u64, b.inner as u64),
            Major::Mn => (b.origin_outer as u64, b.outer as u64),
        };
        if origin < tile_start {
            tile_start = origin;
        }
        if origin + extent > tile_end {
            tile_end = origin + extent;
        }
        c += 1;
    }
    // Tile indices are `u32`: no copy holds an index past `u32::MAX`.
    if tile_end > 1 << 32 {
        tile_end = 1 << 32;
    }
    if (k_start as u64) < tile_start || k_start as u64 + op.k as u64 > tile_end {
        return Err(TensorCopyError::KStartOutsideTile {
            k_start,
            k: op.k,
            tile_start: if copies.is_empty() { 0 } else { tile_start },
            tile_end,
        });
    }
    let mut n = 0u32;
    let mut mn = 0;
    while mn < op.mn {
        let mut k = 0;
        while k < op.k {
            let read = match mma.address(mn, k) {
                Ok(r) => r,
                Err(e) => return Err(TensorCopyError::Layout(e)),
            };
            // At most `tile_end - 1 <= u32::MAX`: checked above.
            let tile_k = k_start + k;
            let (i, o) = match op.major {
                Major::K => (tile_k, mn),
                Major::Mn => (mn, tile_k),
            };
            let copy = written(copies, i, o);
            let same = match copy {
                Some(w) => same_location(w, read),
                None => false,
            };
            if !same {
                return Ok(Agreement::Differs {
                    mn,
                    k,
                    mma: read,
                    copy,
                    found: find_written(copies, read, op.major),
                });
            }
            n += 1;
            k += 1;
        }
        mn += 1;
    }
    Ok(Agreement::Agree { elements: n })
}

const fn same_storage(a: ElementStorage, b: ElementStorage) -> bool {
    a.bits() == b.bits() && a.per_chunk() == b.per_chunk()
}

const fn same_location(a: ElementLocation, b: ElementLocation) -> bool {
    a.address == b.address && a.bit == b.bit && a.bits == b.bits
}

/// Where the first copy that holds tile element (`inner`, `outer`) put it.
const fn written(copies: &[TensorCopyBox], inner: u32, outer: u32) -> Option<ElementLocation> {
    let mut c = 0;
    while c < copies.len() {
        if let Some(l) = copies[c].tile_address(inner, outer) {
            return Some(l);
        }
        c += 1;
    }
    None
}

/// The tile element, if any, that a copy put at the first bit of `at`, as `(mn, k)`.
const fn find_written(
    copies: &[TensorCopyBox],
    at: ElementLocation,
    major: Major,
) -> Option<(u32, u32)> {
    let mut c = 0;
    while c < copies.len() {
        let b = &copies[c];
        let mut o = 0;
        while o < b.outer {
            let mut i = 0;
            while i < b.inner {
                if let Some(l) = b.address(i, o) {
                    if same_location(l, at) {
                        let (Some(ti), Some(to)) =
                            (b.origin_inner.checked_add(i), b.origin_outer.checked_add(o))
                        else {
                            return None;
                        };
                        return Some(match major {
                            Major::K => (to, ti),
                            Major::Mn => (ti, to),
                        });
                    }
                }
                i += 1;
            }
            o += 1;
        }
        c += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical_layout::{AtomOrder, Operand, SwizzleAnchor, TileLayout};
    use crate::mma::{ElementType, Kind};
    use crate::shared_memory_descriptor::{SmemDescriptor, SmemFields};
    use crate::targets::Target;
    use std::string::ToString;
    #[test]
    fn every_tensor_copy_rule_has_one_row_that_says_what_the_rule_said() {
        use crate::diagnostic::check_rule_table;
        let rows: std::vec::Vec<Rule> = TENSOR_COPY_RULES.to_vec();
        let e = Severity::Error;
        check_rule_table(
            "tensor_copy",
            &rows,
            &[
                (
                    TensorCopyError::BoxExtent {
                        field: "box_outer",
                        value: 0,
                    },
                    "box_outer",
                    TMA_SOURCE,
                    e,
                ),
                (
                    TensorCopyError::InnerWiderThanSwizzle {
                        bytes: 256,
                        span: 128,
                    },
                    "box_inner",
                    TMA_SOURCE,
                    e,
                ),
                (
                    TensorCopyError::Destination {
                        address: 16,
                        alignment: 128,
                    },
                    "destination",
                    TMA_SOURCE,
                    e,
                ),
                (
                    TensorCopyError::OutOfWindow { end: 1 << 19 },
                    "destination",
                    TMA_SOURCE,
                    e,
                ),
                (
                    TensorCopyError::StorageMismatch,
                    "type",
                    Source::PtxSection("9.7.16.10.4.4"),
                    e,
                ),
                (
                    TensorCopyError::KStartOutsideTile {
                        k_start: 8,
                        k: 16,
                        tile_start: 0,
                        tile_end: 16,
                    },
                    "k_start",
                    TMA_SOURCE,
                    e,
                ),
            ],
        );
        // A layout problem keeps the layout's field, source and rule.
        let layout = LayoutError::EmptyBuffer { start: 64, end: 0 };
        let wrapped = TensorCopyError::Layout(layout);
        assert_eq!(
            (
                wrapped.field(),
                wrapped.source(),
                wrapped.severity(),
                wrapped.rule_id()
            ),
            ("address", layout.source(), e, Some("layout.empty_buffer"))
        );
    }

    fn bf16() -> ElementStorage {
        ElementStorage::of(ElementType::Bf16, None).expect("bf16")
    }

    /// PTX ISA 5.5.7's text tables: 32B swaps chunk pairs on odd lines; 128B XORs the chunk
    /// with the line mod 8; 128B with 32B atoms XORs 32-byte units with the line mod 4.
    #[test]
    fn swizzle_tables() {
        let b8 = ElementStorage::of(ElementType::U8, None).expect("u8");
        let c = TensorCopyBox::new(Swizzle::B32, b8, 32, 8, 0);
        let row1: Vec<u32> = (0..2)
            .map(|ch| c.address(ch * 16, 4).expect("in").address)
            .collect();
        // line 1 (bytes 128..255): chunks 1 0
        assert_eq!(row1, [128 + 16, 128]);
        let c = TensorCopyBox::new(Swizzle::B128, b8, 128, 8, 0);
        for line in 0..8u32 {
            for ch in 0..8u32 {
                assert_eq!(
                    c.address(ch * 16, line).expect("in").address,
                    line * 128 + (ch ^ line) * 16
                );
            }
        }
        let c = TensorCopyBox::new(Swizzle::B128Base32B, b8, 128, 4, 0);
        let row: Vec<u32> = (0..4)
            .map(|u| c.address(u * 32, 3).expect("in").address % 128 / 32)
            .collect();
        assert_eq!(row, [3, 2, 1, 0]);
        // A destination one line into the pattern starts mid-pattern (absolute address bits).
        let c = TensorCopyBox::new(Swizzle::B128, b8, 128, 8, 0x480);
        assert_eq!(c.address(0, 0).expect("in").address, 0x480 + 16);
    }

    /// The 96-byte mode from PTX ISA 5.5.7's text alone (unproven on hardware): its table of
    /// 16-byte cells (`0 1 2 3 4 5 6 7` / `1 0 3 2 5 4 7 6`, repeating) over rows 96 bytes
    /// apart, the cell index XORed with bit 0 of the absolute 128-byte line; the inner extent
    /// at most 96 bytes ("Box-Size[0] must be less than or equal to 96B").
    #[test]
    fn swizzle_96b_follows_the_text_table() {
        let b8 = ElementStorage::of(ElementType::U8, None).expect("u8");
        // Row 1 of the text's table: the cell each position of an odd line holds.
        let table = [[0u64, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6]];
        let mut checked = 0;
        for dst in [0u32, 0x100, 0x480, 0x1000, 0x1380] {
            for inner in [16u32, 48, 96] {
                let c = TensorCopyBox::with_tma_swizzle(TmaSwizzle::B96, b8, inner, 16, dst);
                assert!(c.validate().is_empty(), "{dst:#x} {inner}");
                assert_eq!(c.tma_swizzle(), TmaSwizzle::B96);
                for o in 0..16u32 {
                    for i in 0..inner {
                        let linear = u64::from(dst) + 96 * u64::from(o) + u64::from(i);
                        let line = linear / 128;
                        let cell = linear / 16 % 8;
                        // The position where cell `cell` of this line lands.
                        let pos = table[(line % 2) as usize]
                            .iter()
                            .position(|&x| x == cell)
                            .expect("every cell is in the table")
                            as u64;
                        let want = line * 128 + pos * 16 + linear % 16;
                        let got = c.address(i, o).expect("in the box").address;
                        assert_eq!(u64::from(got), want, "dst {dst:#x} row {o} byte {i}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 5 * 16 * (16 + 48 + 96));
        let wide = TensorCopyBox::with_tma_swizzle(TmaSwizzle::B96, b8, 112, 4, 0);
        assert_eq!(
            wide.validate().get(0),
            Some(TensorCopyError::InnerWiderThanSwizzle {
                bytes: 112,
                span: 96
            })
        );
        assert_eq!(TmaSwizzle::from_name("96B"), Some(TmaSwizzle::B96));
        assert_eq!(
            TmaSwizzle::from_name("32B"),
            Some(TmaSwizzle::Mode(Swizzle::B32))
        );
        assert!(TmaSwizzle::B96.unproven_on_hardware());
    }

    /// [`agreement`] with a 96-byte-mode box (ruling T4): an MMA's K-major bf16 operand under
    /// the 32-byte descriptor mode (rows 32 bytes apart in its atoms, PTX ISA 9.7.16.3) and a
    /// box of 96-byte rows agree on row 0 and differ from row 1 on, where the copy put tile
    /// element (1, 0) at byte 96 of the box (line 0, cell 6, in place: the text's table).
    #[test]
    fn agreement_reads_96b_boxes() {
        let st = bf16();
        let tile = TileLayout::new(st, Major::K, Swizzle::B32, 128, 16, 0x400);
        let d = tile.descriptor(0, Target::Sm100a).expect("descriptor");
        let l = MatrixLayout::try_new(d, tile.operand()).expect("layout");
        let copy = TensorCopyBox::with_tma_swizzle(TmaSwizzle::B96, st, 48, 128, 0x400);
        assert!(copy.validate().is_empty());
        match agreement(&l, &[copy], 0) {
            Ok(Agreement::Differs {
                mn, k, mma, copy, ..
            }) => {
                assert_eq!((mn, k), (1, 0));
                assert_eq!(mma.address, 0x420);
                assert_eq!(copy.map(|c| c.address), Some(0x400 + 96));
            }
            other => panic!("{other:?}"),
        }
    }

    /// The H100's answers (`hw/results/tma-h100.txt`): rows of a swizzled box narrower
    /// than the span are padded to the span; the destination is 128-byte aligned in every mode.
    #[test]
    fn hardware_layout_facts() {
        let b1 = ElementStorage::of(ElementType::U8, None).expect("u8");
        let c = TensorCopyBox::new(Swizzle::B32, bf16(), 8, 32, 0x1480);
        assert_eq!(c.address(0, 1).expect("in").address, 0x14b0);
        let c = TensorCopyBox::new(Swizzle::B64, b1, 32, 32, 0x1400);
        assert_eq!(c.address(0, 1).expect("in").address, 0x1440);
        let c = TensorCopyBox::new(Swizzle::B128, bf16(), 32, 32, 0x1480);
        assert_eq!(c.address(0, 1).expect("in").address, 0x1520);
        for dst in [0x1410, 0x1420, 0x1440] {
            let c = TensorCopyBox::new(Swizzle::None, b1, 16, 32, dst);
            assert_eq!(
                c.validate().get(0),
                Some(TensorCopyError::Destination {
                    address: dst,
                    alignment: 128
                })
            );
        }
        assert!(TensorCopyBox::new(Swizzle::None, b1, 16, 32, 0x1480)
            .validate()
            .is_empty());
    }

    #[test]
    fn box_rules() {
        let c = TensorCopyBox::new(Swizzle::B64, bf16(), 64, 0, 0x408);
        let fields: Vec<&str> = c.validate().iter().map(|e| e.field()).collect();
        assert_eq!(fields, ["box_outer", "box_inner", "destination"]);
        let c = TensorCopyBox::new(Swizzle::None, bf16(), 4, 8, 0);
        assert_eq!(c.validate().get(0).map(|e| e.field()), Some("box_inner"));
        let c = TensorCopyBox::new(Swizzle::None, bf16(), 8, 0x4000, 0x3F000);
        assert!(matches!(
            c.validate().get(0),
            Some(TensorCopyError::OutOfWindow { .. })
        ));
    }

    /// Builder tiles whose start is on the pattern's repeat boundary agree with a copy of the
    /// same atoms (one box per atom column along the inner dimension).
    #[test]
    fn builder_tiles_agree_with_copies() {
        let st = bf16();
        for (major, swizzle) in [
            (Major::K, Swizzle::B128),
            (Major::K, Swizzle::B64),
            (Major::K, Swizzle::B32),
            (Major::Mn, Swizzle::B128),
            (Major::Mn, Swizzle::B64),
            (Major::Mn, Swizzle::B32),
        ] {
            for order in [AtomOrder::MnFirst, AtomOrder::KFirst] {
                let tile = TileLayout::new(st, major, swizzle, 128, 64, 0x800).with_order(order);
                let (am, ak) = tile.atom();
                // One box per swizzle atom.
                let mut boxes = Vec::new();
                for i in 0..tile.mn / am {
                    for j in 0..tile.k / ak {
                        let off = tile.offset(i * am, j * ak).expect("in tile") as u32;
                        let (inner, outer, oi, oo) = match major {
                            Major::K => (ak, am, j * ak, i * am),
                            Major::Mn => (am, ak, i * am, j * ak),
                        };
                        boxes.push(
                            TensorCopyBox::new(swizzle, st, inner, outer, 0x800 + off)
                                .at_origin(oi, oo),
                        );
                    }
                }
                for kb in 0..tile.k_blocks() {
                    let d = tile.descriptor(kb, Target::Sm100a).expect("descriptor");
                    let l = MatrixLayout::try_new(d, tile.operand()).expect("layout");
                    let a = agreement(&l, &boxes, kb * tile.k_per_block).expect("checked");
                    assert!(
                        matches!(a, Agreement::Agree { .. }),
                        "{major:?} {swizzle:?} {order:?} kb {kb}: {a:?}"
                    );
                }
            }
        }
    }

    /// A K-block outside the K range the copies cover is refused with its own error in tile
    /// coordinates (issue 16 D4), for K-major (K inner) and MN-major (K outer) tiles, and no
    /// `k_start` near `u32::MAX` overflows.
    #[test]
    fn k_start_outside_the_copied_tile() {
        let st = bf16();
        let tile = TileLayout::new(st, Major::K, Swizzle::B128, 128, 64, 0x400);
        let d = tile.descriptor(3, Target::Sm100a).expect("descriptor");
        let l = MatrixLayout::try_new(d, tile.operand()).expect("layout");
        let copy = TensorCopyBox::new(Swizzle::B128, st, 64, 128, 0x400);
        assert!(matches!(
            agreement(&l, &[copy], 48),
            Ok(Agreement::Agree { .. })
        ));
        for k_start in [49, 64, u32::MAX - 15, u32::MAX] {
            assert_eq!(
                agreement(&l, &[copy], k_start),
                Err(TensorCopyError::KStartOutsideTile {
                    k_start,
                    k: 16,
                    tile_start: 0,
                    tile_end: 64
                })
            );
        }
        // Copies from tile K 16 on: k_start 0 is before them.
        let moved = copy.at_origin(16, 0);
        let e = agreement(&l, &[moved], 0).expect_err("before the tile");
        assert_eq!(e.field(), "k_start");
        assert_eq!(
            e.to_string(),
            "the MMA's K-block, tile K 0..16, is not inside tile K 16..80, which the copies cover"
        );
        // MN-major: K is the outer dimension of the box.
        let tile = TileLayout::new(st, Major::Mn, Swizzle::B128, 64, 32, 0x400);
        let d = tile.descriptor(1, Target::Sm100a).expect("descriptor");
        let l = MatrixLayout::try_new(d, tile.operand()).expect("layout");
        let copy = TensorCopyBox::new(Swizzle::B128, st, 64, 32, 0x400);
        assert!(matches!(
            agreement(&l, &[copy], 16),
            Ok(Agreement::Agree { .. })
        ));
        assert!(matches!(
            agreement(&l, &[copy], 17),
            Err(TensorCopyError::KStartOutsideTile { tile_end: 32, .. })
        ));
        // A copy whose origin sits at the top of the index range ends at 2^32, not past it;
        // a K-block that ends there is checked element by element without overflow.
        let top = copy.at_origin(0, u32::MAX - 15);
        assert!(matches!(
            agreement(&l, &[top], u32::MAX - 15),
            Ok(Agreement::Differs { .. })
        ));
        assert!(matches!(
            agreement(&l, &[top], u32::MAX - 7),
            Err(TensorCopyError::KStartOutsideTile { tile_end, .. }) if tile_end == 1 << 32
        ));
    }

    /// The classic mistakes are caught, and the first differing element is named.
    #[test]
    fn mismatches() {
        let st = bf16();
        let copy = TensorCopyBox::new(Swizzle::B128, st, 64, 128, 0x400);
        let op = Operand::new(st, Major::K, 128, 16);
        // MMA without swizzle reading a 128B-swizzled copy.
        let l = MatrixLayout::from_fields(SmemFields::new(0x400, 2048, 128, Swizzle::None), op)
            .expect("ok");
        let a = agreement(&l, &[copy], 0).expect("checked");
        assert!(matches!(a, Agreement::Differs { mn: 0, k: 8, .. }), "{a:?}");
        // 64B descriptor on a 128B copy.
        let l = MatrixLayout::from_fields(SmemFields::new(0x400, 16, 1024, Swizzle::B64), op)
            .expect("ok");
        assert!(matches!(
            agreement(&l, &[copy], 0).expect("checked"),
            Agreement::Differs { mn: 1, .. }
        ));
        // SBO off by one core matrix.
        let l = MatrixLayout::from_fields(SmemFields::new(0x400, 16, 2048, Swizzle::B128), op)
            .expect("ok");
        let a = agreement(&l, &[copy], 0).expect("checked");
        assert!(
            matches!(
                a,
                Agreement::Differs {
                    mn: 8,
                    k: 0,
                    found: Some((16, 0)),
                    ..
                }
            ),
            "{a:?}"
        );
        // Destination off the 1024-byte boundary: the copy's pattern follows absolute address
        // bits, so a descriptor with base offset 0 (absolute) agrees, and one with the Table 41
        // base offset (pattern start) does not, under this crate's reading.
        let copy = TensorCopyBox::new(Swizzle::B128, st, 64, 8, 0x480);
        let op8 = Operand::new(st, Major::K, 8, 16);
        let l = MatrixLayout::from_fields(SmemFields::new(0x480, 16, 1024, Swizzle::B128), op8)
            .expect("ok");
        assert!(matches!(
            agreement(&l, &[copy], 0).expect("checked"),
            Agreement::Agree { .. }
        ));
        let l = MatrixLayout::from_fields(
            SmemFields::new(0x480, 16, 1024, Swizzle::B128).with_base_offset(1),
            op8,
        )
        .expect("ok");
        assert!(matches!(
            agreement(&l, &[copy], 0).expect("checked"),
            Agreement::Differs { .. }
        ));
        // The builder's two anchors: a tile at 0x480 whose pattern follows absolute addresses
        // agrees with a copy to 0x480; one anchored at its start (R4 base offset) does not.
        let tile = TileLayout::new(st, Major::K, Swizzle::B128, 8, 64, 0x480);
        let copy = TensorCopyBox::new(Swizzle::B128, st, 64, 8, 0x480);
        for (anchor, agrees) in [
            (SwizzleAnchor::Address, true),
            (SwizzleAnchor::TileStart, false),
        ] {
            let t = tile.with_anchor(anchor);
            let l =
                MatrixLayout::try_new(t.descriptor(0, Target::Sm100a).expect("ok"), t.operand())
                    .expect("ok");
            let a = agreement(&l, &[copy], 0).expect("checked");
            assert_eq!(
                matches!(a, Agreement::Agree { .. }),
                agrees,
                "{anchor:?}: {a:?}"
            );
        }
        // Storage mismatch.
        let e2m1 = ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4)).expect("e2m1");
        let copy = TensorCopyBox::new(Swizzle::B128, e2m1, 256, 128, 0x400);
        let d = SmemDescriptor::from_bits(0x4000_4040_0001_0040, Target::Sm100a).expect("ok");
        let l = MatrixLayout::try_new(d, op).expect("ok");
        assert_eq!(
            agreement(&l, &[copy], 0),
            Err(TensorCopyError::StorageMismatch)
        );
    }

    use std::vec::Vec;
}
