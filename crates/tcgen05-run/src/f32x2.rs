//! `add`, `sub` and `mul` on `.f32x2` (PTX ISA 9.7.4.1-9.7.4.3, sm_100 and later): two f32
//! operations on the halves of 64-bit registers, the low word (bits 0-31) and the high word each
//! computed as the `.f32` instruction computes it. Modelled: the default and `.rn` rounding,
//! `.ftz`; the directed roundings and `.sat` are refused by name.

use crate::op::Src;

/// The operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairOp {
    /// `add.f32x2`.
    Add,
    /// `sub.f32x2`.
    Sub,
    /// `mul.f32x2`.
    Mul,
}

/// One `add`/`sub`/`mul` `{.rn}{.ftz}.f32x2 d, a, b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct F32x2 {
    /// The operation.
    pub op: PairOp,
    /// `.ftz`: subnormal inputs and results are a sign-preserving zero.
    pub ftz: bool,
    /// Destination slot (64-bit).
    pub d: u32,
    /// First source (64-bit).
    pub a: Src,
    /// Second source (64-bit).
    pub b: Src,
}

fn flush(on: bool, b: u32) -> u32 {
    if on && b & 0x7F80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

impl F32x2 {
    /// The result for the 64-bit sources `a`, `b`: each half rounded to nearest even (IEEE 754
    /// binary32), a NaN result the canonical NaN 0x7FFFFFFF.
    #[must_use]
    pub fn apply(&self, a: u64, b: u64) -> u64 {
        let half = |x: u32, y: u32| {
            let (x, y) = (
                f32::from_bits(flush(self.ftz, x)),
                f32::from_bits(flush(self.ftz, y)),
            );
            let r = match self.op {
                PairOp::Add => x + y,
                PairOp::Sub => x - y,
                PairOp::Mul => x * y,
            };
            if r.is_nan() {
                0x7FFF_FFFF
            } else {
                flush(self.ftz, r.to_bits())
            }
        };
        let lo = half(a as u32, b as u32);
        let hi = half((a >> 32) as u32, (b >> 32) as u32);
        u64::from(lo) | u64::from(hi) << 32
    }
}
