//! Where the scale factors of a block-scaled MMA sit in the user's tensor in global memory: the
//! layouts libraries expect for the scale of row `row`, K block `k_block` (one scale factor per
//! `vec` elements of K), as byte offsets, with padding made explicit.
//!
//! - [`SfArrangement::Blocked128x4`]: the layout cuBLASLt documents ("1D block scaling factors
//!   layout": rows in tiles of 128, K blocks in groups of 4, each 128 x 4 tile stored as 512
//!   contiguous bytes with the 32 x 4 x 4 interleave), the layout CUTLASS's
//!   `Sm1xxBlockScaledConfig::tile_atom_to_shape_SFA/SFB` builds (atom `((32,4),(V,4)) :
//!   ((16,4),(0,1))` tiled K first, then rows, then batches), PyTorch's `to_blocked`
//!   (`torch/testing/_internal/common_quantized.py`, the layout `_scaled_mm` reads) and
//!   flashinfer's `block_scale_interleave`. Byte `(row % 32) * 16 + ((row / 32) % 4) * 4 +
//!   k_block % 4` of tile `(row / 128, k_block / 4)`, tiles K-group first. Rows are padded to a
//!   multiple of 128 and K blocks to a multiple of 4; the libraries fill padding with zeros.
//!   This is the order a `tcgen05.cp.32x128b.warpx4` of 512 contiguous bytes puts in Tensor
//!   Memory where PTX ISA 9.7.16.10.7 wants it (row `i` at lane `i % 32`, column `i / 32`, byte
//!   = K block), which is why the libraries chose it.
//! - [`SfArrangement::KMajor`]: plain row-major `rows x k_blocks` (K blocks contiguous), no
//!   padding: what a quantizer writes before any swizzle ("linear" scales in flashinfer and
//!   sglang).
//! - [`SfArrangement::MnMajor`]: `k_blocks x rows`, rows contiguous, no padding.
//! - [`SfArrangement::BlockedTwice`]: the 128 x 4 permutation applied to bytes that were
//!   already in it (read as a padded row-major tensor): this crate's model of
//!   sgl-project/sglang#23625, where a CUTLASS-only TMA scale permutation was applied to the
//!   scales of the cuDNN / flashinfer FP4 GEMM, which already get blocked scales.
//!
//! flashinfer-ai/flashinfer#4087 (MXFP8 weight scales row-permuted but not 128 x 4
//! interleaved) is [`SfArrangement::KMajor`] handed to a kernel that reads
//! [`SfArrangement::Blocked128x4`].
//!
//! Scale formats: UE8M0 (block 32 or 16) and UE4M3 (block 16), as PTX ISA 9.7.16.10.7 pairs
//! them with `.scale_vec::1X/2X/4X`. UE5M3 (PTX ISA 9.5, `kind::mxf4nvf4` on sm_110) is refused
//! with [`ScaleFactorError::Ue5m3NotYet`] until that issue lands.

use core::fmt;

use crate::diagnostic::{Diagnostic, Source};

/// Bytes of one 128 x 4 tile of the blocked layout.
pub const BLOCK_TILE_BYTES: u64 = 512;
/// Rows of one tile of the blocked layout.
pub const BLOCK_TILE_ROWS: u32 = 128;
/// K blocks of one tile of the blocked layout.
pub const BLOCK_TILE_K_BLOCKS: u32 = 4;

/// The type of one scale factor (one byte each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ScaleFormat {
    /// `ue8m0`: a power of two (MX formats).
    Ue8m0,
    /// `ue4m3`: an unsigned e4m3 (NVFP4).
    Ue4m3,
    /// `ue5m3` (PTX ISA 9.5): not yet supported here.
    Ue5m3,
}

impl ScaleFormat {
    /// Parses `ue8m0`, `ue4m3` or `ue5m3`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<ScaleFormat> {
        match name {
            "ue8m0" => Some(ScaleFormat::Ue8m0),
            "ue4m3" => Some(ScaleFormat::Ue4m3),
            "ue5m3" => Some(ScaleFormat::Ue5m3),
            _ => None,
        }
    }

    /// The PTX name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ScaleFormat::Ue8m0 => "ue8m0",
            ScaleFormat::Ue4m3 => "ue4m3",
            ScaleFormat::Ue5m3 => "ue5m3",
        }
    }
}

/// How the scale factors of a `rows x k_blocks` scale matrix are ordered in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SfArrangement {
    /// The 128 x 4 blocked layout (cuBLASLt, CUTLASS `Sm1xxBlockScaledConfig`, PyTorch
    /// `to_blocked`, flashinfer `block_scale_interleave`).
    Blocked128x4,
    /// Row-major, K blocks contiguous, unpadded.
    KMajor,
    /// Rows contiguous, unpadded.
    MnMajor,
    /// The blocked permutation applied twice (sglang#23625's mistake, as modelled here).
    BlockedTwice,
}

impl SfArrangement {
    /// Every arrangement.
    pub const ALL: [SfArrangement; 4] = [
        SfArrangement::Blocked128x4,
        SfArrangement::KMajor,
        SfArrangement::MnMajor,
        SfArrangement::BlockedTwice,
    ];

    /// The name used by the command line: `blocked`, `k-major`, `mn-major`, `blocked-twice`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SfArrangement::Blocked128x4 => "blocked",
            SfArrangement::KMajor => "k-major",
            SfArrangement::MnMajor => "mn-major",
            SfArrangement::BlockedTwice => "blocked-twice",
        }
    }

    /// Parses a name of [`SfArrangement::name`] (`128x4` is also the blocked layout).
    #[must_use]
    pub fn from_name(name: &str) -> Option<SfArrangement> {
        if name == "128x4" {
            return Some(SfArrangement::Blocked128x4);
        }
        SfArrangement::ALL.into_iter().find(|a| a.name() == name)
    }

    const fn padded(self) -> bool {
        matches!(
            self,
            SfArrangement::Blocked128x4 | SfArrangement::BlockedTwice
        )
    }
}

/// A problem with a scale-factor layout or a position in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ScaleFactorError {
    /// An extent (`rows`, `k_blocks`, `batches`) of zero, or one whose padded size in bytes
    /// does not fit in 64 bits.
    Extent {
        /// The field.
        field: &'static str,
        /// The value.
        value: u64,
    },
    /// A scale vector (block size) other than 16 or 32.
    Vec {
        /// The block size.
        vec: u32,
    },
    /// UE4M3 scales with block 32: PTX pairs `ue4m3` only with `.scale_vec::4X` (block 16).
    FormatVec {
        /// The format.
        format: ScaleFormat,
        /// The block size.
        vec: u32,
    },
    /// UE5M3 (PTX ISA 9.5) is not supported yet.
    Ue5m3NotYet,
    /// A row, K block or batch outside the layout.
    OutOfRange {
        /// `"row"`, `"k_block"` or `"batch"`.
        field: &'static str,
        /// The value.
        value: u64,
        /// The extent.
        extent: u64,
    },
    /// A byte offset past the layout's last byte.
    OffsetOutOfRange {
        /// The offset.
        offset: u64,
        /// The layout's size in bytes.
        bytes: u64,
    },
}

impl ScaleFactorError {
    /// The field concerned, as a JSON key.
    #[must_use]
    pub const fn field_name(&self) -> &'static str {
        match self {
            ScaleFactorError::Extent { field, .. } | ScaleFactorError::OutOfRange { field, .. } => {
                field
            }
            ScaleFactorError::Vec { .. } | ScaleFactorError::FormatVec { .. } => "vec",
            ScaleFactorError::Ue5m3NotYet => "format",
            ScaleFactorError::OffsetOutOfRange { .. } => "offset",
        }
    }
}

impl Diagnostic for ScaleFactorError {
    fn field(&self) -> &'static str {
        self.field_name()
    }

    fn value(&self) -> u64 {
        match *self {
            ScaleFactorError::Extent { value, .. } | ScaleFactorError::OutOfRange { value, .. } => {
                value
            }
            ScaleFactorError::Vec { vec } | ScaleFactorError::FormatVec { vec, .. } => {
                u64::from(vec)
            }
            ScaleFactorError::Ue5m3NotYet => 0,
            ScaleFactorError::OffsetOutOfRange { offset, .. } => offset,
        }
    }

    /// The block-scaling section (scale vectors, formats, where scale factors go).
    fn source(&self) -> Source {
        Source::PtxSection("9.7.16.10.7")
    }
}

impl fmt::Display for ScaleFactorError {
    /// The rule broken (the field and value are the diagnostic's own).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScaleFactorError::Extent { .. } => f.write_str(
                "a scale-factor layout needs an extent of at least 1, and a size in bytes that fits in 64 bits",
            ),
            ScaleFactorError::Vec { .. } => f.write_str(
                "a scale factor covers 32 elements of K (.scale_vec::1X, 2X) or 16 (.scale_vec::4X)",
            ),
            ScaleFactorError::FormatVec { format, .. } => write!(
                f,
                "{} scales come only with .scale_vec::4X, one scale factor per 16 elements of K",
                format.name()
            ),
            ScaleFactorError::Ue5m3NotYet => f.write_str(
                "ue5m3, the scale format of PTX ISA 9.5, is not supported yet (its own issue)",
            ),
            ScaleFactorError::OutOfRange { extent, .. } => {
                write!(f, "the layout has {extent}, counted from 0")
            }
            ScaleFactorError::OffsetOutOfRange { bytes, .. } => {
                write!(f, "the layout has {bytes} bytes")
            }
        }
    }
}

/// Checks a scale format against a block size.
///
/// # Errors
/// [`ScaleFactorError::Ue5m3NotYet`], [`ScaleFactorError::Vec`],
/// [`ScaleFactorError::FormatVec`].
pub const fn validate_scheme(format: ScaleFormat, vec: u32) -> Result<(), ScaleFactorError> {
    if matches!(format, ScaleFormat::Ue5m3) {
        return Err(ScaleFactorError::Ue5m3NotYet);
    }
    if vec != 16 && vec != 32 {
        return Err(ScaleFactorError::Vec { vec });
    }
    if matches!(format, ScaleFormat::Ue4m3) && vec != 16 {
        return Err(ScaleFactorError::FormatVec { format, vec });
    }
    Ok(())
}

/// One scale factor's place in the logical scale tensor: batch, row and K block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SfIndex {
    /// Batch (L).
    pub batch: u32,
    /// Row of A (scale_A) or column of B (scale_B).
    pub row: u32,
    /// K block: K elements `k_block * vec ..`.
    pub k_block: u32,
}

/// A global scale-factor layout: an arrangement over `batches` scale matrices of `rows x
/// k_blocks` bytes, batch after batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GlobalSfLayout {
    arrangement: SfArrangement,
    rows: u32,
    k_blocks: u32,
    batches: u32,
}

impl GlobalSfLayout {
    /// A layout of `batches` matrices of `rows x k_blocks` scale factors.
    ///
    /// # Errors
    /// [`ScaleFactorError::Extent`] for a zero extent.
    pub const fn try_new(
        arrangement: SfArrangement,
        rows: u32,
        k_blocks: u32,
        batches: u32,
    ) -> Result<GlobalSfLayout, ScaleFactorError> {
        if rows == 0 {
            return Err(ScaleFactorError::Extent {
                field: "rows",
                value: 0,
            });
        }
        if k_blocks == 0 {
            return Err(ScaleFactorError::Extent {
                field: "k_blocks",
                value: 0,
            });
        }
        if batches == 0 {
            return Err(ScaleFactorError::Extent {
                field: "batches",
                value: 0,
            });
        }
        Ok(GlobalSfLayout {
            arrangement,
            rows,
            k_blocks,
            batches,
        })
    }

    /// The layout for a K extent in elements: `k_blocks = ceil(k / vec)`.
    ///
    /// # Errors
    /// Those of [`validate_scheme`] and [`GlobalSfLayout::try_new`].
    pub const fn for_problem(
        arrangement: SfArrangement,
        format: ScaleFormat,
        vec: u32,
        rows: u32,
        k: u32,
        batches: u32,
    ) -> Result<GlobalSfLayout, ScaleFactorError> {
        if let Err(e) = validate_scheme(format, vec) {
            return Err(e);
        }
        GlobalSfLayout::try_new(arrangement, rows, k.div_ceil(vec), batches)
    }

    /// The arrangement.
    #[must_use]
    pub const fn arrangement(&self) -> SfArrangement {
        self.arrangement
    }

    /// Rows of the logical scale matrix.
    #[must_use]
    pub const fn rows(&self) -> u32 {
        self.rows
    }

    /// K blocks of the logical scale matrix.
    #[must_use]
    pub const fn k_blocks(&self) -> u32 {
        self.k_blocks
    }

    /// Batches.
    #[must_use]
    pub const fn batches(&self) -> u32 {
        self.batches
    }

    /// Rows as stored: rounded up to 128 for the blocked layouts.
    #[must_use]
    pub const fn padded_rows(&self) -> u64 {
        if self.arrangement.padded() {
            (self.rows as u64).div_ceil(BLOCK_TILE_ROWS as u64) * BLOCK_TILE_ROWS as u64
        } else {
            self.rows as u64
        }
    }

    /// K blocks as stored: rounded up to 4 for the blocked layouts.
    #[must_use]
    pub const fn padded_k_blocks(&self) -> u64 {
        if self.arrangement.padded() {
            (self.k_blocks as u64).div_ceil(BLOCK_TILE_K_BLOCKS as u64) * BLOCK_TILE_K_BLOCKS as u64
        } else {
            self.k_blocks as u64
        }
    }

    /// Bytes of one batch, padding included.
    #[must_use]
    pub const fn batch_bytes(&self) -> u64 {
        self.padded_rows() * self.padded_k_blocks()
    }

    /// Bytes of the whole tensor, padding included.
    #[must_use]
    pub const fn bytes(&self) -> u64 {
        self.batch_bytes() * self.batches as u64
    }

    /// Bytes that hold no scale factor.
    #[must_use]
    pub const fn padding_bytes(&self) -> u64 {
        self.bytes() - self.rows as u64 * self.k_blocks as u64 * self.batches as u64
    }

    /// The byte offset of the scale factor of `index`.
    ///
    /// # Errors
    /// [`ScaleFactorError::OutOfRange`].
    pub const fn offset(&self, index: SfIndex) -> Result<u64, ScaleFactorError> {
        if let Err(e) = self.check_index(index) {
            return Err(e);
        }
        let (r, k) = (index.row as u64, index.k_block as u64);
        let within = match self.arrangement {
            SfArrangement::Blocked128x4 => self.blocked(r, k),
            SfArrangement::KMajor => r * self.k_blocks as u64 + k,
            SfArrangement::MnMajor => k * self.rows as u64 + r,
            SfArrangement::BlockedTwice => {
                // The first permutation's output, read as a padded row-major tensor, is
                // permuted again.
                let once = self.blocked(r, k);
                let kp = self.padded_k_blocks();
                self.blocked(once / kp, once % kp)
            }
        };
        Ok(index.batch as u64 * self.batch_bytes() + within)
    }

    /// The scale factor stored at byte `offset`, or `None` for a padding byte.
    ///
    /// # Errors
    /// [`ScaleFactorError::OffsetOutOfRange`].
    pub const fn element(&self, offset: u64) -> Result<Option<SfIndex>, ScaleFactorError> {
        if offset >= self.bytes() {
            return Err(ScaleFactorError::OffsetOutOfRange {
                offset,
                bytes: self.bytes(),
            });
        }
        let batch = offset / self.batch_bytes();
        let o = offset % self.batch_bytes();
        let (r, k) = match self.arrangement {
            SfArrangement::Blocked128x4 => self.unblocked(o),
            SfArrangement::KMajor => (o / self.k_blocks as u64, o % self.k_blocks as u64),
            SfArrangement::MnMajor => (o % self.rows as u64, o / self.rows as u64),
            SfArrangement::BlockedTwice => {
                let (r1, k1) = self.unblocked(o);
                self.unblocked(r1 * self.padded_k_blocks() + k1)
            }
        };
        if r >= self.rows as u64 || k >= self.k_blocks as u64 {
            return Ok(None);
        }
        Ok(Some(SfIndex {
            batch: batch as u32,
            row: r as u32,
            k_block: k as u32,
        }))
    }

    const fn check_index(&self, index: SfIndex) -> Result<(), ScaleFactorError> {
        let checks = [
            ("batch", index.batch, self.batches),
            ("row", index.row, self.rows),
            ("k_block", index.k_block, self.k_blocks),
        ];
        let mut i = 0;
        while i < checks.len() {
            let (field, value, extent) = checks[i];
            if value >= extent {
                return Err(ScaleFactorError::OutOfRange {
                    field,
                    value: value as u64,
                    extent: extent as u64,
                });
            }
            i += 1;
        }
        Ok(())
    }

    /// The blocked offset of padded position (`r`, `k`) within one batch.
    const fn blocked(&self, r: u64, k: u64) -> u64 {
        let k_tiles = self.padded_k_blocks() / BLOCK_TILE_K_BLOCKS as u64;
        let tile = (r / BLOCK_TILE_ROWS as u64) * k_tiles + k / BLOCK_TILE_K_BLOCKS as u64;
        tile * BLOCK_TILE_BYTES + (r % 32) * 16 + ((r / 32) % 4) * 4 + k % 4
    }

    /// The padded position (`r`, `k`) at blocked offset `o` within one batch.
    const fn unblocked(&self, o: u64) -> (u64, u64) {
        let k_tiles = self.padded_k_blocks() / BLOCK_TILE_K_BLOCKS as u64;
        let tile = o / BLOCK_TILE_BYTES;
        let w = o % BLOCK_TILE_BYTES;
        let r = (tile / k_tiles) * BLOCK_TILE_ROWS as u64 + ((w / 4) % 4) * 32 + w / 16;
        let k = (tile % k_tiles) * BLOCK_TILE_K_BLOCKS as u64 + w % 4;
        (r, k)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use super::{validate_scheme, ScaleFactorError as E};
    use super::{GlobalSfLayout, ScaleFactorError, ScaleFormat, SfArrangement, SfIndex};
    use std::string::ToString;

    /// Every byte of every arrangement maps back to the element that maps to it, and padding
    /// bytes to none: the two directions are inverse, for sizes on and off the tile.
    #[test]
    fn offset_and_element_are_inverse() {
        for a in SfArrangement::ALL {
            for (rows, kb, l) in [(128, 4, 1), (1, 1, 1), (129, 5, 2), (300, 3, 1), (64, 6, 1)] {
                let g = GlobalSfLayout::try_new(a, rows, kb, l).unwrap();
                let mut seen = 0u64;
                for off in 0..g.bytes() {
                    if let Some(i) = g.element(off).unwrap() {
                        assert_eq!(g.offset(i).unwrap(), off, "{a:?} {rows}x{kb} {i:?}");
                        seen += 1;
                    }
                }
                assert_eq!(seen, u64::from(rows * kb * l), "{a:?} {rows}x{kb}");
                assert_eq!(g.padding_bytes(), g.bytes() - seen);
            }
        }
    }

    #[test]
    fn bad_parameters_are_typed_errors() {
        assert_eq!(
            GlobalSfLayout::try_new(SfArrangement::KMajor, 0, 1, 1),
            Err(E::Extent {
                field: "rows",
                value: 0
            })
        );
        assert_eq!(
            validate_scheme(ScaleFormat::Ue5m3, 16),
            Err(ScaleFactorError::Ue5m3NotYet)
        );
        assert_eq!(
            validate_scheme(ScaleFormat::Ue4m3, 32),
            Err(E::FormatVec {
                format: ScaleFormat::Ue4m3,
                vec: 32
            })
        );
        assert_eq!(
            validate_scheme(ScaleFormat::Ue8m0, 8),
            Err(E::Vec { vec: 8 })
        );
        let g = GlobalSfLayout::try_new(SfArrangement::Blocked128x4, 10, 2, 1).unwrap();
        let e = g
            .offset(SfIndex {
                batch: 0,
                row: 10,
                k_block: 0,
            })
            .unwrap_err();
        assert_eq!(e.field_name(), "row");
        assert!(g.element(512).is_err());
        assert!(g.element(511).unwrap().is_none());
        assert!(e.to_string().contains("the layout has 10"));
    }
}
