//! `tcgen05.mma.sp`: A stored as M x K/2, the sparsity metadata in Tensor Memory saying where
//! each stored element sits among the K (PTX ISA 9.7.16.10.8), decision E10 of the module docs.
//!
//! - **Granularity and metadata values** (9.7.16.10.8.1-3, text): every chunk of a row has a
//!   4-bit metadata value. `kind::f16`, `f8f6f4`, `mxf8f6f4`, `i8`: chunks of 4 elements, 2
//!   stored; the value is two 2-bit indices, bits 1:0 the position of the first stored element
//!   and bits 3:2 that of the second. `kind::mxf4` / `mxf4nvf4`: chunks of 8 elements, two
//!   stored pairs; the indices are those of the pairs. For those kinds the only meaningful
//!   values are 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110 and 0b1110. `kind::tf32`: chunks
//!   of 2 elements, 1 stored; 0b0100 puts it at position 0 and 0b1110 at position 1 (the two
//!   indices read in units of 16-bit halves of the 32-bit element). Other values are refused
//!   ([`EmuRule::SparseMetadata`]): the text gives them undefined behaviour.
//! - **Where the metadata is** (Figures 263, 265, 267 are pictures; CUTLASS
//!   `include/cute/atom/mma_traits_sm100.hpp`, `tmem_e_frg`, which implements M = 128 only):
//!   the metadata of a row is a stream of 64 bits (8-bit kinds: 1 bit per element of K = 64;
//!   mxf4: half a bit per element of K = 128) or 32 bits (f16: 1 bit per element of K = 32;
//!   tf32: 2 bits per element of K = 16), chunk `q`'s value at stream bits `4q .. 4q + 3`.
//!   64-bit streams: row `m` in lane `m`, stream bit `t` in column `t / 32`, bit `t % 32`.
//!   32-bit streams: stream bit `t` of row `m` in lane `(m % 8) + 16 (m / 16) + 8 (t / 16)`,
//!   column 0, bit `t % 16 + 16 ((m / 8) % 2)`.
//! - **Forms**: M = 128 with `.cta_group::1` (layout D, also `.ws`) and M = 256 with
//!   `.cta_group::2` (layout A; each CTA's 128 rows at the metadata address in its own Tensor
//!   Memory, since Figures 263, 265 and 267 draw M = 128 and M = 256 together). The sparsity
//!   selector must be 0 (for `f16` and `tf32` the sub-columns other values select are drawn
//!   only in Figures 263 and 265). M = 64 (layout F), `.cta_group::2` with M = 128 (layout C)
//!   and `.ws` with M = 32 / 64 are refused as not modelled: their layouts are pictures only.
//! - **Arithmetic**: D\[m\]\[n\] is the dense form's dot product of the K/2 stored elements of
//!   row m with the B elements the metadata selects, in stored order (so the products of the
//!   zeros are left out, as `mma.sp` leaves them out of its operand).

use alloc::vec::Vec;

use super::problem::{EmuError, EmuRule, Problem};
use crate::instruction_descriptor::IdescFields;
use crate::mma::{CtaGroup, Kind};

/// The metadata values the text calls meaningful for 2:4 and 4:8 (in pairs).
const PAIRS: [u8; 7] = [0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110];
/// The metadata values the text calls meaningful for tf32's 1:2.
const TF32: [u8; 2] = [0b0100, 0b1110];

/// Refuses the sparse forms whose metadata layout is not known (E10).
pub(super) fn supported(
    kind: Kind,
    m: u32,
    group: CtaGroup,
    fields: &IdescFields,
) -> Result<(), EmuError> {
    let shape_ok = matches!((m, group), (128, CtaGroup::One) | (256, CtaGroup::Two));
    if !shape_ok {
        return Err(Problem::emu(
            EmuRule::NotModelled,
            "sp metadata layout for this M / cta_group",
            u64::from(m),
        )
        .into());
    }
    if matches!(kind, Kind::F16 | Kind::Tf32) && fields.sparsity_selector != 0 {
        return Err(Problem::emu(
            EmuRule::NotModelled,
            "sparsity selector other than 0",
            u64::from(fields.sparsity_selector),
        )
        .into());
    }
    Ok(())
}

/// Logical elements per chunk (one metadata value each).
pub(super) const fn chunk(kind: Kind) -> u32 {
    match kind {
        Kind::Tf32 => 2,
        Kind::Mxf4 | Kind::Mxf4nvf4 => 8,
        _ => 4,
    }
}

/// Bits of a row's metadata stream (`4 * K / chunk`).
pub(super) const fn stream_bits(kind: Kind) -> u32 {
    match kind {
        Kind::F16 | Kind::Tf32 => 32,
        _ => 64,
    }
}

/// Where stream bit `t` of row `row` (0..128 within its CTA) lives: (lane offset, column
/// offset, bit).
#[must_use]
pub(super) const fn location(kind: Kind, row: u32, t: u32) -> (u32, u32, u32) {
    if stream_bits(kind) == 32 {
        let lane = (row % 8) + 16 * (row / 16) + 8 * (t / 16);
        (lane, 0, t % 16 + 16 * ((row / 8) % 2))
    } else {
        (row, t / 32, t % 32)
    }
}

/// Whether a metadata value is one the text calls meaningful for the kind.
#[must_use]
pub(super) fn meaningful(kind: Kind, v: u8) -> bool {
    if kind == Kind::Tf32 {
        TF32.contains(&v)
    } else {
        PAIRS.contains(&v)
    }
}

/// A random meaningful value for the kind, from 64 random bits.
pub(super) fn random_value(kind: Kind, r: u64) -> u8 {
    if kind == Kind::Tf32 {
        TF32[(r % 2) as usize]
    } else {
        PAIRS[(r % 7) as usize]
    }
}

/// The logical positions (within the chunk) of the chunk's stored elements, in stored order.
pub(super) fn positions(kind: Kind, v: u8) -> Vec<u32> {
    let i0 = u32::from(v & 3);
    let i1 = u32::from(v >> 2 & 3);
    match kind {
        Kind::Tf32 => alloc::vec![i0 / 2],
        Kind::Mxf4 | Kind::Mxf4nvf4 => alloc::vec![2 * i0, 2 * i0 + 1, 2 * i1, 2 * i1 + 1],
        _ => alloc::vec![i0, i1],
    }
}

/// The error of a metadata value that is not meaningful.
pub(super) fn bad_value(lane: u32, column: u32, v: u8) -> Problem {
    Problem::emu(
        EmuRule::SparseMetadata,
        "sp_meta_tmem",
        u64::from(lane) << 24 | u64::from(column) << 8 | u64::from(v),
    )
}
