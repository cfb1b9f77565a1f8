//! An exact signed fixed-point accumulator wide enough for any sum of tensor-core terms, and its
//! exact decimal rendering. No allocation.
//!
//! Every operand value of every MMA format, every product of two of them, and every product
//! scaled by two UE8M0 or UE4M3 scales is a multiple of `2^-320` and below `2^320`
//! (`../shared/spec/mma-numerics.md` section 8: products -298 ... +256, scaled products about
//! -282 ... +284). The accumulator keeps 768 bits in two's complement with its unit at
//! [`ExactSum::LSB`] = `2^-384`, so millions of such terms sum without loss.

use super::format::Exact;
use core::fmt;

const LIMBS: usize = 12;

/// An exact sum of binary values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactSum {
    limbs: [u64; LIMBS],
}

impl Default for ExactSum {
    fn default() -> Self {
        Self::ZERO
    }
}

impl ExactSum {
    /// The power of two of the accumulator's unit.
    pub const LSB: i32 = -384;
    /// Zero.
    pub const ZERO: ExactSum = ExactSum { limbs: [0; LIMBS] };

    /// Adds an exact value. Bits below `2^-384` or at or above `2^383` are outside the
    /// accumulator; no MMA term comes near them (module docs).
    pub fn add(&mut self, x: Exact) {
        if x.mag == 0 {
            return;
        }
        let shift = x.scale - Self::LSB;
        debug_assert!(shift >= 0, "term below the accumulator's unit");
        let shift = shift.max(0) as usize;
        let mut addend = [0u64; LIMBS];
        let (w, b) = (shift / 64, shift % 64);
        let lo = x.mag as u64;
        let hi = (x.mag >> 64) as u64;
        let parts = [lo, hi];
        for (i, p) in parts.iter().enumerate() {
            let idx = w + i;
            if idx < LIMBS {
                addend[idx] |= p << b;
            }
            if b != 0 && idx + 1 < LIMBS {
                addend[idx + 1] |= p >> (64 - b);
            }
        }
        if x.neg {
            // two's complement negation of the addend
            let mut carry = 1u64;
            for a in &mut addend {
                let (v, c) = (!*a).overflowing_add(carry);
                *a = v;
                carry = u64::from(c);
            }
        }
        let mut carry = 0u64;
        for (l, a) in self.limbs.iter_mut().zip(addend) {
            let (v1, c1) = l.overflowing_add(a);
            let (v2, c2) = v1.overflowing_add(carry);
            *l = v2;
            carry = u64::from(c1) + u64::from(c2);
        }
    }

    /// True when the sum is negative.
    #[must_use]
    pub fn is_negative(&self) -> bool {
        self.limbs[LIMBS - 1] >> 63 == 1
    }

    /// True when the sum is zero.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.limbs.iter().all(|&l| l == 0)
    }

    fn magnitude(&self) -> [u64; LIMBS] {
        let mut m = self.limbs;
        if self.is_negative() {
            let mut carry = 1u64;
            for a in &mut m {
                let (v, c) = (!*a).overflowing_add(carry);
                *a = v;
                carry = u64::from(c);
            }
        }
        m
    }

    /// The nearest `f64` (for statistics only: not correctly rounded in every case).
    #[must_use]
    pub fn to_f64(&self) -> f64 {
        let m = self.magnitude();
        let mut v = 0.0f64;
        for (i, &l) in m.iter().enumerate().rev() {
            if l != 0 {
                v += l as f64 * super::format::pow2(Self::LSB + 64 * i as i32);
            }
        }
        if self.is_negative() {
            -v
        } else {
            v
        }
    }

    /// The exact value when it fits an [`Exact`] (at most 128 significant bits).
    #[must_use]
    pub fn to_exact(&self) -> Option<Exact> {
        let m = self.magnitude();
        let neg = self.is_negative();
        let Some(top) = m.iter().rposition(|&l| l != 0) else {
            return Some(Exact {
                neg: false,
                mag: 0,
                scale: 0,
            });
        };
        let low = m.iter().position(|&l| l != 0).unwrap_or(top);
        if top - low > 1 {
            return None;
        }
        let mag = u128::from(m[low])
            | (if top > low {
                u128::from(m[top]) << 64
            } else {
                0
            });
        Some(Exact {
            neg,
            mag,
            scale: Self::LSB + 64 * low as i32,
        })
    }
}

impl fmt::Display for ExactSum {
    /// The exact decimal expansion (every binary fraction has a finite one).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.magnitude();
        if self.is_negative() {
            f.write_str("-")?;
        }
        // integer part: limbs 6.. (2^0 is bit 384 = limb 6, bit 0)
        let mut int = [0u64; LIMBS / 2];
        int.copy_from_slice(&m[LIMBS / 2..]);
        let mut digits = [0u8; 128];
        let mut n = 0;
        loop {
            // divide int by 10
            let mut rem = 0u128;
            for l in int.iter_mut().rev() {
                let cur = (rem << 64) | u128::from(*l);
                *l = (cur / 10) as u64;
                rem = cur % 10;
            }
            digits[n] = b'0' + rem as u8;
            n += 1;
            if int.iter().all(|&l| l == 0) || n == digits.len() {
                break;
            }
        }
        for d in digits[..n].iter().rev() {
            write!(f, "{}", *d as char)?;
        }
        let mut frac = [0u64; LIMBS / 2];
        frac.copy_from_slice(&m[..LIMBS / 2]);
        if frac.iter().any(|&l| l != 0) {
            f.write_str(".")?;
            while frac.iter().any(|&l| l != 0) {
                let mut carry = 0u128;
                for l in &mut frac {
                    let cur = u128::from(*l) * 10 + carry;
                    *l = cur as u64;
                    carry = cur >> 64;
                }
                write!(f, "{}", carry as u8)?;
            }
        }
        Ok(())
    }
}
