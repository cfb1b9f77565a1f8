//! Seeded element codes of the MMA tests' input matrices (shared by `blackwell.rs` and
//! `cute_gemm.rs`), drawn with SplitMix64 (`inputs::splitmix`).

#![allow(dead_code)]

use super::inputs::splitmix;

/// `n` e5m2 codes, every finite code equally likely.
pub fn e5m2_codes(mut seed: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| loop {
            let c = (splitmix(&mut seed) & 0xFF) as u32;
            if c & 0x7C != 0x7C {
                break c;
            }
        })
        .collect()
}

/// `n` s8 codes, every one of the 256 equally likely.
pub fn s8_codes(mut seed: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| (splitmix(&mut seed) & 0xFF) as u32)
        .collect()
}

/// `n` e2m1 codes (all 16 are finite).
pub fn e2m1_codes(mut seed: u64, n: usize) -> Vec<u32> {
    (0..n).map(|_| (splitmix(&mut seed) & 0xF) as u32).collect()
}

/// `n` ue8m0 scale codes from 2^-6 to 2^6.
pub fn scale_codes(mut seed: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| 121 + (splitmix(&mut seed) % 13) as u32)
        .collect()
}

/// `n` ue4m3 scale codes from 0x20 (2^-3) to 0x57 (2^3 x 1.875): sign bit clear, every
/// fraction, no NaN (0x7F).
pub fn ue4m3_scale_codes(mut seed: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| 0x20 + (splitmix(&mut seed) % 0x38) as u32)
        .collect()
}
