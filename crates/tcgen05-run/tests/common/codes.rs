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
