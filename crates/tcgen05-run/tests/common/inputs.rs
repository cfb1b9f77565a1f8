//! The seeded inputs of the kernel tests: SplitMix64 and the random floating-point codes built on
//! it, as the hardware harnesses draw them (`hw/run/harness.cu`, `hw/run/breadth/harness.cu`: the
//! GPU's outputs the tests compare with were computed from exactly these bytes), and the
//! repository paths the tests read.

#![allow(dead_code)]

use std::path::PathBuf;

use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05_run::tensor_map::TensorMap;
use tcgen05_run::Arg;

/// `path` (relative to the repository root) from the crate's directory, where tests run.
pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The bytes of the repository file `path`.
pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// SplitMix64, as `splitmix` in the harnesses.
pub fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One floating-point code from the draw `r`, as the harnesses make them: bit 0 of `r` is the
/// sign (at `sign_bit`), the biased exponent is `lo + (r >> 1) % span` (just above the fraction),
/// and the `frac_bits` fraction bits are bits 8 and up of `r`.
pub fn float_code(r: u64, sign_bit: u32, frac_bits: u32, (lo, span): (u64, u64)) -> u64 {
    (r & 1) << sign_bit | (lo + (r >> 1) % span) << frac_bits | (r >> 8) & ((1 << frac_bits) - 1)
}

/// The harness's `inputs`: f32 words with a random sign, biased exponent in [lo, lo + span)
/// and fraction; with `specials`, the first eight are NaN, +Inf, -Inf, the smallest subnormal,
/// -0, the largest finite, the largest subnormal, -1.
pub fn inputs(mut seed: u64, n: usize, lo: u32, span: u32, specials: bool) -> Vec<u8> {
    let mut v: Vec<u32> = (0..n)
        .map(|_| {
            let r = splitmix(&mut seed);
            float_code(r, 31, 23, (u64::from(lo), u64::from(span))) as u32
        })
        .collect();
    if specials {
        let sp = [
            0x7FC0_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x0000_0001,
            0x8000_0000,
            0x7F7F_FFFF,
            0x007F_FFFF,
            0xBF80_0000,
        ];
        v[..8].copy_from_slice(&sp);
    }
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The harness's `inputs16`: f16 codes with a random sign, biased exponent in [10, 20) and
/// fraction.
pub fn inputs16(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|_| (float_code(splitmix(&mut seed), 15, 10, (10, 10)) as u16).to_le_bytes())
        .collect()
}

/// The harness's `inputs_lowp`: bf16 codes (random sign, biased exponent in [122, 132), 7
/// fraction bits) or e4m3 bytes (random, the NaN codes 0x7F/0xFF moved to 0x7E/0xFE).
pub fn inputs_lowp(mut seed: u64, n: usize, fp8: bool) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..n {
        let r = splitmix(&mut seed);
        if fp8 {
            let c = (r & 0xFF) as u8;
            v.push(if c & 0x7F == 0x7F { c ^ 1 } else { c });
        } else {
            let c = float_code(r, 15, 7, (122, 10)) as u16;
            v.extend_from_slice(&c.to_le_bytes());
        }
    }
    v
}

/// A 2-D f16 tensor map of `rows x cols` (row-major) with `box_rows x box_cols` boxes, as the
/// harness encodes it with `cuTensorMapEncodeTiled` (dimensions innermost first), over `data`.
pub fn map(
    data: Vec<u8>,
    (rows, cols): (u64, u64),
    (box_rows, box_cols): (u32, u32),
    swizzle: Swizzle,
) -> Arg {
    let m = TensorMap {
        element_bytes: 2,
        dims: vec![cols, rows],
        strides: vec![cols * 2],
        box_dims: vec![box_cols, box_rows],
        element_strides: vec![1, 1],
        swizzle,
    };
    Arg::TensorMap(m, data)
}
