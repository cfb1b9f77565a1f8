//! Who holds what after a `tcgen05.ld`, and what a `tcgen05.st` or `tcgen05.cp` writes where:
//! the fragment maps of the Tensor Memory data-movement shapes.
//!
//! The PTX ISA draws these maps only as pictures (9.7.16.2.3.1 Figures 183-187 for `.ld` / `.st`,
//! 9.7.16.8.2 Figure 193 for `.pack::16b` / `.unpack::16b`); the text says only how many lanes
//! and bits each shape moves. The maps here are reconstructed from that text and from CUTLASS
//! 4.2.0 (`cute/atom/copy_traits_sm100.hpp`: the `ValID` and `DstLayout` of every
//! `SM100_TMEM_LOAD_*` / `SM100_TMEM_STORE_*` atom and the `ValID` of every `SM100_UTCCP_*` atom),
//! and checked against CUTLASS's own evaluation of those layouts by
//! `crates/tcgen05/tests/tmem_cutlass.rs`.
//!
//! - [`LdStFragment`]: `tcgen05.ld` / `tcgen05.st` with a shape, `.num`, [`Packing`] and (for
//!   `.16x32bx2`) the half-split offset. [`LdStFragment::piece`] maps (thread, register) to
//!   (lane offset, column offset, bits) relative to the instruction's address;
//!   [`LdStFragment::owners`] is the inverse; [`LdStFragment::check_address`] applies the
//!   warp-to-lane-quadrant rule (PTX ISA 9.7.16.8.1).
//! - [`cp_row`]: the lanes that one source row of a `tcgen05.cp` shape and multicast lands in
//!   (PTX ISA 9.7.16.9.2).
//!
//! With `t` the thread's lane id (0-31), `j` the repetition (0 to `.num` - 1), the logical
//! 32-bit column `c` (physical columns `2c` and `2c + 1` with `.pack::16b`), and lane and column
//! offsets from the address:
//!
//! | shape | registers | lane | logical column |
//! |---|---|---|---|
//! | `.32x32b` | `r[j]` | `t` | `j` |
//! | `.16x64b` | `r[j]` | `t / 4 + 8 * (t % 2)` | `2j + (t / 2) % 2` |
//! | `.16x128b` | `r[2j + h]` | `t / 4 + 8h` | `4j + t % 4` |
//! | `.16x256b` | `r[4j + 2h + e]` | `t / 4 + 8h` | `8j + 2 * (t % 4) + e` |
//! | `.16x32bx2` | `r[j]` | `t % 16` | `j` (threads 16-31: plus the half-split offset) |
//!
//! # Examples
//!
//! ```
//! use tcgen05::tensor_memory::{LdStShape, Num};
//! use tcgen05::tmem_fragment::{LdStFragment, Packing};
//!
//! // tcgen05.ld.sync.aligned.16x256b.x1.b32: thread 5 register 2 holds lane 9, column 2.
//! const F: LdStFragment = LdStFragment::new(LdStShape::S16x256b, Num::X1, Packing::None, None);
//! let p = F.piece(5, 2, 0).unwrap();
//! assert_eq!((p.lane, p.column), (9, 2));
//! // ... and the inverse.
//! let owners = F.owners(9, 2);
//! assert_eq!(owners[0].map(|o| (o.thread, o.register)), Some((5, 2)));
//! ```

mod cp;
mod error;
mod ld_st;
#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests;

pub use cp::{cp_row, cp_rows, CpRow};
pub(crate) use error::FRAGMENT_RULES;
pub use error::{FragmentError, FragmentField, FragmentRule};
pub use ld_st::{BitRange, FragmentPiece, LdStFragment, Owner, Packing, WARP_THREADS};
