//! Where a `tcgen05.mma` keeps its Tensor Memory operands: the data-path layouts A-G of D
//! (and of A for the forms that read A from Tensor Memory), and the placement of block-scale
//! factors.
//!
//! PTX ISA 9.7.16.10.5 names the layout of each MMA configuration in a table and draws each
//! layout only as a picture (Figures 205-218); 9.7.16.10.7.2-3 draws the scale-factor columns
//! the same way (Figures 231-258). The maps here follow the table's words ("4x1", "2x2",
//! "1x4", "1/2 datapath utilized", the lane alignment) and CUTLASS 4.2.0's `UMMA::tmem_frg`,
//! `tmem_frg_ws` and `tmem_sf_frg` (`cute/atom/mma_traits_sm100.hpp`), which
//! `crates/tcgen05/tests/tmem_cutlass.rs` evaluates and compares. Two rulings, written out in
//! the README's "Tensor Memory maps" section:
//!
//! - Layout E (M = 64, `.ws`) is printed "2x3" in the table; no 2x3 split of 64 rows exists, and
//!   CUTLASS's `tmem_frg_ws` builds a 2x2 layout: we use 2x2.
//! - Layout C (M = 128, `.cta_group::2`, sparse A) is "4x1 (1/2 datapath utilized)" with lane
//!   alignment 0 or 16 in the table, the organization of layout F in each CTA; CUTLASS 4.2.0's
//!   sparse 2-SM atoms reuse the dense 2x2 `tmem_frg_2sm`. The PTX table wins (rules.md
//!   preamble: the PTX text first): we use F's organization. The cross-check test records the
//!   difference.
//!
//! With `m`, `n` the row and column of D (`m` counted over the whole MMA, both CTAs of a pair),
//! `m'` the row within its CTA, and `N` the MMA's N:
//!
//! | layout | MMA | CTA | lane | column |
//! |---|---|---|---|---|
//! | A | M = 256, `::2` | `m / 128` | `m'` | `n` |
//! | B | M = 128, `::2`, dense | `m / 64` | `m' + 64 * (n / (N/2))` | `n % (N/2)` |
//! | C | M = 128, `::2`, sparse | `m / 64` | `m' % 16 + 32 * (m' / 16)` | `n` |
//! | D | M = 128, `::1` | 0 | `m` | `n` |
//! | E | M = 64, `::1`, `.ws` | 0 | `m + 64 * (n / (N/2))` | `n % (N/2)` |
//! | F | M = 64, `::1` | 0 | `m % 16 + 32 * (m / 16)` | `n` |
//! | G | M = 32, `::1`, `.ws` | 0 | `m + 32 * (n / (N/4))` | `n % (N/4)` |
//!
//! Lanes and columns are offsets from the D address, whose lane must be 0 (16 is also allowed
//! for C and F). A 16-bit D element sits in bits 15-0 of its 32-bit cell (9.7.16.10.4.1).
//!
//! # Examples
//!
//! ```
//! use tcgen05::data_path::{DLayout, DataPathLayout};
//! use tcgen05::CtaGroup;
//!
//! // tcgen05.mma.cta_group::2, M = 128, N = 256, dense: layout B, the "2x2" data path.
//! let d = DLayout::try_new(128, 256, CtaGroup::Two, false, false).unwrap();
//! assert_eq!(d.layout(), DataPathLayout::B);
//! let c = d.locate(70, 200).unwrap();
//! assert_eq!((c.cta, c.lane, c.column), (1, 6 + 64, 72));
//! assert_eq!(d.element_at(c.cta, c.lane, c.column), Some((70, 200)));
//! ```

/// The scale vector of a block-scaled MMA, one type with [`crate::ptx::ScaleVec`] (defined in
/// [`crate::mma`]).
pub use crate::mma::ScaleVec;

mod a_operand;
mod d_layout;
mod error;
mod layouts;
mod scale_factors;
pub use a_operand::*;
pub use d_layout::*;
pub use error::*;
pub use layouts::*;
pub use scale_factors::*;

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests;
