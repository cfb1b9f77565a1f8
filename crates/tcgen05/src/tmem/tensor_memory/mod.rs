//! Tensor Memory (TMEM): addresses, allocation sizes, and the data-movement shapes of
//! `tcgen05.ld`, `tcgen05.st`, `tcgen05.cp` and `tcgen05.shift`.
//!
//! Sources: PTX ISA 9.7.16.1.1 (addressing), 9.7.16.2.3 (data movement shapes), 9.7.16.7.1
//! (allocation), 9.7.16.8.1 (which warp may access which lanes), 9.7.16.8.3 Tables 49-50 (`.num`
//! and register counts), 9.7.16.9.2 (`tcgen05.cp`), 9.7.16.9.3 (`tcgen05.shift`), and
//! rules.md R23-R24.
//!
//! - [`TmemAddress`]: a 32-bit TMEM address, lane in bits 31-16 and column in bits 15-0, always
//!   inside the 128 lanes x 512 columns of one CTA (R24).
//! - [`AllocColumns`]: the column count of `tcgen05.alloc` / `tcgen05.dealloc`, a power of two
//!   from 32 to 512 (R24).
//! - [`LdStShape`] with [`Num`] and [`registers_per_thread`]: the `tcgen05.ld` / `tcgen05.st`
//!   shapes and their register vectors (Tables 49-50).
//! - [`CpShape`] with [`CpMulticast`] and [`validate_cp`]: the `tcgen05.cp` shapes and the
//!   multicast qualifier each one needs (R23).
//! - [`ShiftShape`]: `.31x256b`, the implicit shape of `tcgen05.shift` (not a `.cp` shape, R23).
//! - [`DataMovementShape`]: any of the above, parsed from its PTX name.
//!
//! Every problem is a [`TmemError`], which names the field, the value and the rule's [`Source`](crate::diagnostic::Source).
//!
//! # Examples
//!
//! ```
//! use tcgen05::tensor_memory::{registers_per_thread, LdStShape, Num, TmemAddress};
//!
//! // Lane 64, column 16: the third warp of a warpgroup owns lanes 64-95.
//! const D: TmemAddress = TmemAddress::new(64, 16);
//! assert_eq!(D.bits(), 0x0040_0010);
//! assert!(D.accessible_by_warp(6)); // 6 % 4 == 2
//! assert!(!D.accessible_by_warp(1));
//!
//! // tcgen05.ld.sync.aligned.16x256b.x8.b32 needs 32 registers per thread.
//! assert_eq!(registers_per_thread(LdStShape::S16x256b, Num::X8), Ok(32));
//! assert!(registers_per_thread(LdStShape::S16x256b, Num::X64).is_err());
//! ```

// One file per section: errors, addresses, allocation and each data-movement shape; their
// items are this module's.
mod address;
mod alloc;
mod checks;
mod cp;
mod error;
mod ld_st;
mod shape;
mod shift;

pub use address::*;
pub use alloc::*;
pub use checks::*;
pub use cp::*;
pub use error::*;
pub use ld_st::*;
pub use shape::*;
pub use shift::*;

/// Lanes (rows) of Tensor Memory per CTA on every tcgen05 target (PTX ISA 9.7.16.1; R24).
pub const TMEM_LANES: u32 = 128;

/// 32-bit columns of Tensor Memory per CTA on every tcgen05 target (PTX ISA 9.7.16.1; R24).
pub const TMEM_COLUMNS: u32 = 512;

/// Lanes each warp of a warpgroup may access: warp `w` owns lanes `32 * (w % 4)` to
/// `32 * (w % 4) + 31` (PTX ISA 9.7.16.8.1).
pub const LANES_PER_WARP: u32 = 32;

/// The largest register vector of one `tcgen05.ld` / `tcgen05.st`, per thread (Tables 49-50).
pub const MAX_REGISTERS_PER_THREAD: u16 = 128;

/// The first lane that warp `warp_id` of a CTA may access: `32 * (warp_id % 4)`
/// (PTX ISA 9.7.16.8.1). The warp owns that lane and the 31 after it.
#[must_use]
pub const fn warp_first_lane(warp_id: u32) -> u32 {
    (warp_id % 4) * LANES_PER_WARP
}

#[cfg(test)]
mod tests;
