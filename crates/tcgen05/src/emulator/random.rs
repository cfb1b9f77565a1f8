//! Random inputs for reads of never-written memory: finite values of the type read, seeded.

use crate::numerics::format::{Exact, Format, Rounding, Value};
use crate::numerics::rng::SplitMix64;

/// A seeded source of operand codes.
#[derive(Clone, Debug)]
pub(super) struct Random {
    rng: SplitMix64,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random {
            rng: SplitMix64::new(seed),
        }
    }

    /// 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A random finite code of `format`: for floating-point element formats a value of
    /// magnitude in `[2^-4, 2^4)` with a random sign and significand, rounded to the format
    /// (every code of the 4- and 6-bit formats can come up); for scale formats a value near 1
    /// (ue8m0 2^-3 .. 2^3, ue4m3 0.5 .. 4); integers uniform over their codes.
    pub fn code(&mut self, format: Format) -> u32 {
        let r = self.rng.next_u64();
        match format {
            Format::S8 | Format::U8 => (r & 0xFF) as u32,
            Format::S32 => r as u32,
            Format::Ue8m0 => 124 + (r % 7) as u32,
            Format::E2m1 | Format::E2m3 | Format::E3m2 => {
                // Every code is finite.
                (r % (1 << format.width())) as u32
            }
            _ => {
                let (lo, hi) = if matches!(format, Format::Ue4m3) {
                    (-1, 2)
                } else {
                    (-4, 4)
                };
                let span = (hi - lo) as u64;
                let e = lo + (r % span) as i32;
                let frac = (r >> 8) & ((1 << 40) - 1);
                let neg = !matches!(format, Format::Ue4m3) && (r >> 63) == 1;
                let x = Exact {
                    neg,
                    mag: u128::from((1u64 << 40) | frac),
                    scale: e - 40,
                };
                match format.encode(x, Rounding::NearestEven) {
                    Ok(c)
                        if matches!(
                            format.decode(c),
                            Ok(Value::Finite { .. } | Value::Zero { .. })
                        ) =>
                    {
                        c
                    }
                    _ => 0,
                }
            }
        }
    }
}
