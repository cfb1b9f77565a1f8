//! [`SfLayout`]: the placement of block-scale factors in Tensor Memory (PTX ISA 9.7.16.10.7.2-3,
//! Figures 231-258).

use super::d_layout::n_ok;
use super::error::DataPathError;
use super::layouts::DataPathLayout;
use crate::diagnostic::Diagnostics;
use crate::mma::ScaleVec;

/// Which scale-factor matrix: of A (one row per row of A) or of B (one per column of B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SfOperand {
    /// `scale_A`, M x count.
    A,
    /// `scale_B`, count x N.
    B,
}

/// Where one scale factor lives: CTAs, the lanes of its copies, the column offset from the
/// scale-factor address and the byte of the 32-bit cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SfCell {
    /// The CTA that holds it (the lower one when both do).
    pub cta: u32,
    /// Whether both CTAs of a pair hold it (scale_B with `.cta_group::2`).
    pub both_ctas: bool,
    lanes: [u32; 4],
    copies: u32,
    /// Column offset.
    pub column: u32,
    /// Byte of the cell, 0-3 (bits `8 * byte` to `8 * byte + 7`).
    pub byte: u32,
}

impl SfCell {
    /// The lanes of the copies: one in each 32-lane subpartition (layouts A, D; scale_A of B),
    /// or two (scale_B of layout B).
    #[must_use]
    pub fn lanes(&self) -> &[u32] {
        let n = if (self.copies as usize) < 4 {
            self.copies as usize
        } else {
            4
        };
        &self.lanes[..n]
    }
}

/// The scale-factor placement of one block-scaled MMA (PTX ISA 9.7.16.10.7; the sub-column
/// pictures Figures 231-233 and 240-242 read through CUTLASS's `tmem_sf_frg`):
///
/// - scale_A, and scale_B of the 4x1 layouts A and D: index `i` (row of A in its CTA, or column
///   of B) goes to lane `i % 32` of each of the four 32-lane subpartitions ("duplicated to all
///   32-lane partitions", 9.7.16.10.7), column `i / 32`.
/// - scale_B of layout B (2x2): with `h = n / (N/2)` and `n' = n % (N/2)`, lanes
///   `n' % 32 + 64h` and that `+ 32`, column `n' / 32`: the two partitions that hold D's column
///   `n`, which is how this crate reads "duplicated to all 32-lane partitions" for layout B
///   (ruling T1 of `conformance/DIFFERENCES.md`, as CUTLASS's `ScaleFactorDuplicated2by2`).
/// - K block `s` of the row is byte `SF_ID + s` of the cell: SF_ID selects the 1-byte (1X) or
///   2-byte (2X) sub-column; 4X fills the cell.
/// - K = 96 (3X for `.block32`, 6X for `.block16`; 9.7.16.10.7.2.4-5 and 3.4-5, Figures
///   234-239 and 243-258): byte `b = SF_ID + s` counts on past the cell, byte `b % 4` of the
///   cell `b / 4` groups further, a group being the columns one byte of every row needs, 4 per
///   128 rows or columns (ruling T3 of `docs/rules.md`). Layout B's scale_B is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SfLayout {
    layout: DataPathLayout,
    operand: SfOperand,
    vec: ScaleVec,
    /// Rows of A in each CTA (scale_A) or N (scale_B).
    extent: u32,
    sf_id: u32,
}

impl SfLayout {
    /// Every rule the arguments break.
    #[must_use]
    pub const fn validate(
        layout: DataPathLayout,
        operand: SfOperand,
        vec: ScaleVec,
        n: u32,
        sf_id: u32,
    ) -> Diagnostics<DataPathError, 3> {
        let mut d = Diagnostics::new();
        if !matches!(
            layout,
            DataPathLayout::A | DataPathLayout::B | DataPathLayout::D
        ) {
            d.push(DataPathError::NoBlockScaling { layout });
        }
        if matches!(operand, SfOperand::B) && !n_ok(layout, n) {
            d.push(DataPathError::InvalidN {
                layout: Some(layout),
                n,
            });
        }
        if !vec.is_resolved() {
            d.push(DataPathError::ScaleVecOfKind { vec });
        } else if !vec.id_ok(sf_id) {
            d.push(DataPathError::SfId { vec, id: sf_id });
        }
        if vec.is_k96() && matches!(operand, SfOperand::B) && matches!(layout, DataPathLayout::B) {
            d.push(DataPathError::K96Layout { layout });
        }
        d
    }

    /// The placement of `operand`'s scale factors for an MMA with `layout` and N (`n` is only
    /// checked for scale_B).
    ///
    /// # Errors
    /// The first of [`SfLayout::validate`].
    pub const fn try_new(
        layout: DataPathLayout,
        operand: SfOperand,
        vec: ScaleVec,
        n: u32,
        sf_id: u32,
    ) -> Result<SfLayout, DataPathError> {
        let d = Self::validate(layout, operand, vec, n, sf_id);
        if let Some(e) = d.get(0) {
            return Err(e);
        }
        let extent = match operand {
            SfOperand::A => layout.m(),
            SfOperand::B => n,
        };
        Ok(SfLayout {
            layout,
            operand,
            vec,
            extent,
            sf_id,
        })
    }

    /// The rows of A (scale_A, over both CTAs) or the columns of B (scale_B).
    #[must_use]
    pub const fn extent(&self) -> u32 {
        self.extent
    }

    /// The scale vector.
    #[must_use]
    pub const fn vec(&self) -> ScaleVec {
        self.vec
    }

    /// The operand.
    #[must_use]
    pub const fn operand(&self) -> SfOperand {
        self.operand
    }

    /// The data-path layout.
    #[must_use]
    pub const fn layout(&self) -> DataPathLayout {
        self.layout
    }

    /// Columns used from the scale-factor address (for K = 96, every group the bytes
    /// `SF_ID .. SF_ID + count` reach).
    #[must_use]
    pub const fn columns(&self) -> u32 {
        if self.vec.is_k96() {
            let last = self.sf_id + self.vec.count() - 1;
            return self.group_columns() * (last / 4 + 1);
        }
        let per = self.per_cta();
        let per = if self.two_by_two() { per / 2 } else { per };
        per.div_ceil(32)
    }

    /// K = 96 (ruling T3): the columns between one byte of a row's scale factors and the byte
    /// four further, 4 for each 128 rows of A in a CTA or columns of B (CUTLASS 4.2.0 pads N
    /// to a multiple of 128, `round_up(N, 128)` in its `SM103` traits, and the text draws
    /// N <= 128 and N > 128 apart).
    #[must_use]
    pub const fn group_columns(&self) -> u32 {
        4 * self.per_cta().div_ceil(128)
    }

    const fn two_by_two(&self) -> bool {
        matches!(self.operand, SfOperand::B) && matches!(self.layout, DataPathLayout::B)
    }

    /// Indices held in each CTA.
    const fn per_cta(&self) -> u32 {
        match self.operand {
            SfOperand::A => self.layout.rows_per_cta(),
            SfOperand::B => self.extent,
        }
    }

    /// Where the scale factor of row (scale_A) or column (scale_B) `index`, K block `k_block`,
    /// lives.
    ///
    /// # Errors
    /// [`DataPathError::RowOutOfRange`], [`DataPathError::KBlockOutOfRange`].
    pub const fn locate(&self, index: u32, k_block: u32) -> Result<SfCell, DataPathError> {
        if index >= self.extent {
            return Err(DataPathError::RowOutOfRange {
                row: index,
                rows: self.extent,
            });
        }
        let count = self.vec.count();
        if k_block >= count {
            return Err(DataPathError::KBlockOutOfRange { k_block, count });
        }
        let per = self.per_cta();
        let (cta, both) = match self.operand {
            SfOperand::A => (index / per, false),
            SfOperand::B => (0, self.layout.ctas() == 2),
        };
        let i = index % per;
        let mut lanes = [0u32; 4];
        let (copies, column) = if self.two_by_two() {
            let half = per / 2;
            let h = i / half;
            let j = i % half;
            lanes[0] = j % 32 + 64 * h;
            lanes[1] = lanes[0] + 32;
            (2, j / 32)
        } else {
            let mut q = 0;
            while q < 4 {
                lanes[q as usize] = i % 32 + 32 * q;
                q += 1;
            }
            (4, i / 32)
        };
        let b = self.sf_id + k_block;
        let (column, byte) = if self.vec.is_k96() {
            (column + (b / 4) * self.group_columns(), b % 4)
        } else {
            (column, b)
        };
        Ok(SfCell {
            cta,
            both_ctas: both,
            lanes,
            copies,
            column,
            byte,
        })
    }
}
