//! The `tcgen05.cp` row map: the Tensor Memory lanes one source row of a shape and multicast
//! lands in (PTX ISA 9.7.16.9.2).

use super::error::FragmentError;
use crate::tensor_memory::{CpMulticast, CpShape};

/// The Tensor Memory lanes that one source row of a `tcgen05.cp` lands in, relative to the
/// lane of the instruction's address, and the columns it fills from the address's column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CpRow {
    lanes: [u8; 4],
    copies: u8,
    /// 32-bit columns the row fills from the address's column: 8 for `x256b`, 4 for `x128b`.
    pub columns: u8,
}

impl CpRow {
    /// The lanes (one per copy).
    #[must_use]
    pub fn lanes(&self) -> &[u8] {
        let n = if (self.copies as usize) < self.lanes.len() {
            self.copies as usize
        } else {
            self.lanes.len()
        };
        &self.lanes[..n]
    }

    /// How many lanes receive the row: 1, 2 (`.warpx2::*`) or 4 (`.warpx4`).
    #[must_use]
    pub const fn copies(&self) -> u32 {
        self.copies as u32
    }

    /// Lane of copy `i`, if there is one.
    #[must_use]
    pub const fn lane(&self, i: u32) -> Option<u32> {
        if i < self.copies as u32 && i < 4 {
            Some(self.lanes[i as usize] as u32)
        } else {
            None
        }
    }
}

/// Where source row `row` of a `tcgen05.cp` with `shape` and `multicast` lands (PTX ISA
/// 9.7.16.9.2; the pictures are not in the text, the lanes follow CUTLASS's `SM100_UTCCP_*`
/// `ValID`s):
///
/// | shape, multicast | rows | lanes of row `r` |
/// |---|---|---|
/// | `.128x256b`, `.128x128b` | 128 | `r` |
/// | `.4x256b` | 4 | `32r` (one row per 32-lane subpartition, as CUTLASS models it) |
/// | `.64x128b.warpx2::02_13` | 64 | `r`, `r + 64` |
/// | `.64x128b.warpx2::01_23` | 64 | `r % 32 + 64 * (r / 32)`, and that `+ 32` |
/// | `.32x128b.warpx4` | 32 | `r`, `r + 32`, `r + 64`, `r + 96` |
///
/// With `.cta_group::2` the same lanes of both CTAs of the pair are written. A `.warpx2` qualifier
/// names the warps that receive the same rows (ruling T2 of `conformance/DIFFERENCES.md`: the
/// other reading of the text swaps `02_13` and `01_23`).
///
/// # Errors
/// [`FragmentError::CpMulticastMismatch`], [`FragmentError::RowOutOfRange`].
///
/// # Examples
/// ```
/// use tcgen05::tensor_memory::{CpMulticast, CpShape};
/// use tcgen05::tmem_fragment::cp_row;
/// let r = cp_row(CpShape::S32x128b, CpMulticast::Warpx4, 5).unwrap();
/// assert_eq!(r.lanes(), &[5, 37, 69, 101]);
/// assert_eq!(r.columns, 4);
/// ```
pub const fn cp_row(
    shape: CpShape,
    multicast: CpMulticast,
    row: u32,
) -> Result<CpRow, FragmentError> {
    if crate::tensor_memory::validate_cp(shape, multicast).is_err() {
        return Err(FragmentError::CpMulticastMismatch { shape, multicast });
    }
    let rows = cp_rows(shape);
    if row >= rows {
        return Err(FragmentError::RowOutOfRange { shape, row });
    }
    let columns = shape.columns_per_lane() as u8;
    let r = row as u8;
    let (lanes, copies) = match (shape, multicast) {
        (CpShape::S4x256b, _) => ([32 * r, 0, 0, 0], 1),
        (CpShape::S64x128b, CpMulticast::Warpx2_02_13) => ([r, r + 64, 0, 0], 2),
        (CpShape::S64x128b, _) => {
            let base = r % 32 + 64 * (r / 32);
            ([base, base + 32, 0, 0], 2)
        }
        (CpShape::S32x128b, _) => ([r, r + 32, r + 64, r + 96], 4),
        _ => ([r, 0, 0, 0], 1),
    };
    Ok(CpRow {
        lanes,
        copies,
        columns,
    })
}

/// Source rows of a `tcgen05.cp` shape (the first number of its name).
#[must_use]
pub const fn cp_rows(shape: CpShape) -> u32 {
    shape.lanes()
}
