//! [`DataPathLayout`] and [`DLayout`]: the data-path layouts A-G of D (PTX ISA 9.7.16.10.5,
//! Figures 205-218).

use super::error::DataPathError;
use super::layouts::DataPathLayout;
use crate::diagnostic::Diagnostics;
use crate::mma::CtaGroup;
use crate::tensor_memory::TmemAddress;
use crate::tmem_fragment::BitRange;

impl DataPathLayout {
    /// The layout of an MMA (the table of PTX ISA 9.7.16.10.5).
    ///
    /// # Errors
    /// [`DataPathError::NoLayout`] for a configuration the table does not list (`.ws` with
    /// `.cta_group::2`, M = 32 without `.ws`, ...).
    pub const fn for_mma(
        m: u32,
        cta_group: CtaGroup,
        ws: bool,
        sparse: bool,
    ) -> Result<DataPathLayout, DataPathError> {
        match (m, cta_group, ws, sparse) {
            (32, CtaGroup::One, true, _) => Ok(DataPathLayout::G),
            (64, CtaGroup::One, true, _) => Ok(DataPathLayout::E),
            (64, CtaGroup::One, false, _) => Ok(DataPathLayout::F),
            (128, CtaGroup::One, _, _) => Ok(DataPathLayout::D),
            (128, CtaGroup::Two, false, false) => Ok(DataPathLayout::B),
            (128, CtaGroup::Two, false, true) => Ok(DataPathLayout::C),
            (256, CtaGroup::Two, false, _) => Ok(DataPathLayout::A),
            _ => Err(DataPathError::NoLayout {
                m,
                cta_group,
                ws,
                sparse,
            }),
        }
    }

    /// Checks the lane of an operand address (D, A in Tensor Memory): 0, or 0 or 16 for C and
    /// F (PTX ISA 9.7.16.10.5).
    ///
    /// # Errors
    /// [`DataPathError::LaneAlignment`].
    pub const fn check_address(self, taddr: TmemAddress) -> Result<(), DataPathError> {
        let lane = taddr.lane();
        if lane == 0 || (lane == 16 && self.half_datapath()) {
            Ok(())
        } else {
            Err(DataPathError::LaneAlignment { layout: self, lane })
        }
    }
}

/// Where an element of D lives: the CTA of the pair (0 for `.cta_group::1`) and the lane and
/// column offsets from the D address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DCell {
    /// CTA of the pair: 0 (even `%cluster_ctarank`) or 1.
    pub cta: u32,
    /// Lane offset.
    pub lane: u32,
    /// Column offset.
    pub column: u32,
}

/// The Tensor Memory placement of D for one MMA configuration and N (PTX ISA 9.7.16.10.5).
///
/// A `DLayout` always has a layout of the table and an N of Table 39 for it (see
/// [`DataPathError::InvalidN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DLayout {
    layout: DataPathLayout,
    n: u32,
}

impl DLayout {
    /// Every rule M, N, `.cta_group`, `.ws` and sparsity break.
    #[must_use]
    pub const fn validate(
        m: u32,
        n: u32,
        cta_group: CtaGroup,
        ws: bool,
        sparse: bool,
    ) -> Diagnostics<DataPathError, 2> {
        let mut d = Diagnostics::new();
        match DataPathLayout::for_mma(m, cta_group, ws, sparse) {
            Ok(layout) => {
                if !n_ok_for(layout, n, ws, sparse) {
                    d.push(DataPathError::InvalidN {
                        layout: Some(layout),
                        n,
                    });
                }
            }
            Err(e) => {
                d.push(e);
                if n == 0 || n > 256 || n % 8 != 0 {
                    d.push(DataPathError::InvalidN { layout: None, n });
                }
            }
        }
        d
    }

    /// The D placement of an MMA with M, N, `.cta_group`, `.ws` and sparse A.
    ///
    /// # Errors
    /// The first of [`DLayout::validate`].
    pub const fn try_new(
        m: u32,
        n: u32,
        cta_group: CtaGroup,
        ws: bool,
        sparse: bool,
    ) -> Result<DLayout, DataPathError> {
        match DataPathLayout::for_mma(m, cta_group, ws, sparse) {
            Ok(layout) => {
                if n_ok_for(layout, n, ws, sparse) {
                    Ok(DLayout { layout, n })
                } else {
                    Err(DataPathError::InvalidN {
                        layout: Some(layout),
                        n,
                    })
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The D placement of `layout` with N.
    ///
    /// # Errors
    /// [`DataPathError::InvalidN`].
    pub const fn with_layout(layout: DataPathLayout, n: u32) -> Result<DLayout, DataPathError> {
        if n_ok(layout, n) {
            Ok(DLayout { layout, n })
        } else {
            Err(DataPathError::InvalidN {
                layout: Some(layout),
                n,
            })
        }
    }

    /// The layout.
    #[must_use]
    pub const fn layout(&self) -> DataPathLayout {
        self.layout
    }

    /// M.
    #[must_use]
    pub const fn m(&self) -> u32 {
        self.layout.m()
    }

    /// N.
    #[must_use]
    pub const fn n(&self) -> u32 {
        self.n
    }

    /// Columns D occupies from its address in each CTA: `N / column_split`.
    #[must_use]
    pub const fn columns(&self) -> u32 {
        self.n / self.layout.column_split()
    }

    /// Where `D[m][n]` lives.
    ///
    /// # Errors
    /// [`DataPathError::RowOutOfRange`], [`DataPathError::ColumnOutOfRange`].
    pub const fn locate(&self, m: u32, n: u32) -> Result<DCell, DataPathError> {
        let rows = self.m();
        if m >= rows {
            return Err(DataPathError::RowOutOfRange { row: m, rows });
        }
        if n >= self.n {
            return Err(DataPathError::ColumnOutOfRange {
                column: n,
                columns: self.n,
            });
        }
        let per = self.layout.rows_per_cta();
        let cta = m / per;
        let row = m % per;
        let cols = self.columns();
        let part = n / cols;
        let lane = self.layout.row_lane(row) + part * per;
        Ok(DCell {
            cta,
            lane,
            column: n % cols,
        })
    }

    /// The element of D at a cell (CTA, lane offset, column offset), if D uses it: the inverse of
    /// [`DLayout::locate`].
    #[must_use]
    pub const fn element_at(&self, cta: u32, lane: u32, column: u32) -> Option<(u32, u32)> {
        if cta >= self.layout.ctas() || column >= self.columns() || lane >= 128 {
            return None;
        }
        let per = self.layout.rows_per_cta();
        let (row, part) = if self.layout.half_datapath() {
            if lane % 32 >= 16 {
                return None;
            }
            (lane % 32 + 16 * (lane / 32), 0)
        } else {
            (lane % per, lane / per)
        };
        if part >= self.layout.column_split() {
            return None;
        }
        Some((cta * per + row, part * self.columns() + column))
    }

    /// Every element of D and its cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = (u32, u32, DCell)> + '_ {
        (0..self.m()).flat_map(move |m| {
            (0..self.n).filter_map(move |n| match self.locate(m, n) {
                Ok(c) => Some((m, n, c)),
                Err(_) => None,
            })
        })
    }
}

/// Whether N is an N of Table 39 for the layout (rules.md R14, R16).
/// N allowed for a configuration (Table 39 of PTX ISA 9.7.16.10.1, rules.md R14, R16):
/// the layout's own N, and with `.ws` only 64, 128, 256, or 64, 128 when A is sparse.
const fn n_ok_for(layout: DataPathLayout, n: u32, ws: bool, sparse: bool) -> bool {
    if !n_ok(layout, n) {
        return false;
    }
    if ws {
        if sparse {
            matches!(n, 64 | 128)
        } else {
            matches!(n, 64 | 128 | 256)
        }
    } else {
        true
    }
}

pub(super) const fn n_ok(layout: DataPathLayout, n: u32) -> bool {
    match layout {
        DataPathLayout::E | DataPathLayout::G => matches!(n, 64 | 128 | 256),
        DataPathLayout::A | DataPathLayout::B | DataPathLayout::C => {
            n >= 16 && n <= 256 && n % 16 == 0
        }
        DataPathLayout::D | DataPathLayout::F => n >= 8 && n <= 256 && n % 8 == 0,
    }
}

/// The bits of a 32-bit cell that hold a D element of `bits` bits: 15-0 for 16-bit D, which is
/// not packed (PTX ISA 9.7.16.10.4.1), 31-0 for 32-bit D.
///
/// # Errors
/// [`DataPathError::ElementBits`] for other sizes.
pub const fn d_element_bits(bits: u32) -> Result<BitRange, DataPathError> {
    match bits {
        16 => Ok(BitRange::new(0, 15)),
        32 => Ok(BitRange::WORD),
        _ => Err(DataPathError::ElementBits { bits }),
    }
}
