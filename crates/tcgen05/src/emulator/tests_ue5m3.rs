//! UE5M3 scale factors in a `.kind::mxf4nvf4.block16` MMA on `sm_107a` (rulings D7 and D9):
//! operands placed from the PTX text's pictures, UE5M3 decoded here from D7's words (5 exponent
//! bits, 3 fraction bits, bias 15), and D compared with the text's plain sum
//! `sum_k A B scale_A scale_B` on operands small enough for every sum to be exact in f32.

#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // a failed unwrap is a failed test

use alloc::format;
use alloc::vec::Vec;

use super::mma::{mma, ASource, MmaOperation, MmaOptions};
use super::Cta;
use crate::mma::{CtaGroup, Kind};
use crate::numerics::rng::SplitMix64;
use crate::ptx::ScaleVec;
use crate::targets::Target;
use crate::tensor_memory::TmemAddress;

const M: u32 = 128;
const N: u32 = 64;
const K: u32 = 64;

/// Table 44 with the two-bit scale format of D9: E2M1 A and B, N >> 3 at 17, code 2 (UE5M3)
/// at 23-24, M >> 7 at 27, SF IDs 0.
const IDESC: u32 = 1 << 7 | 1 << 10 | (N >> 3) << 17 | 2 << 23 | (M >> 7) << 27;

fn e2m1(c: u32) -> f64 {
    let v = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0][(c & 7) as usize];
    if c & 8 != 0 {
        -v
    } else {
        v
    }
}

/// D7: `2^(e - 15) (1 + f / 8)`, subnormal `2^-14 f / 8` (codes used here are normal).
fn ue5m3(c: u32) -> f64 {
    let (e, f) = ((c >> 3) as i32, f64::from(c & 7));
    if e == 0 {
        2f64.powi(-14) * f / 8.0
    } else {
        2f64.powi(e - 15) * (1.0 + f / 8.0)
    }
}

fn desc(start: u32, lbo: u32, sbo: u32) -> u64 {
    u64::from(start >> 4) | u64::from(lbo >> 4) << 16 | u64::from(sbo >> 4) << 32 | 1 << 46
}

/// K-major, no swizzle (9.7.16.3.3): core matrices of 8 rows x 16 bytes, LBO 128, SBO 256.
fn place(cta: &mut Cta, start: u32, codes: &[u32], rows: u32) {
    for r in 0..rows {
        for kb in 0..K / 2 {
            let i = (r * K + 2 * kb) as usize;
            let addr = start + (r % 8) * 16 + (r / 8) * 256 + kb % 16 + (kb / 16) * 128;
            cta.write_smem(addr, &[(codes[i] | codes[i + 1] << 4) as u8])
                .unwrap();
        }
    }
}

fn op(idesc: u32) -> MmaOperation {
    MmaOperation {
        group: CtaGroup::One,
        kind: Kind::Mxf4nvf4,
        ws: false,
        vec: ScaleVec::Block16,
        collector: None,
        d: TmemAddress::new(0, 0),
        a: ASource::Smem(desc(0, 128, 256)),
        b: desc(0x2000, 128, 256),
        idesc,
        scales: Some((TmemAddress::new(0, 100), TmemAddress::new(0, 104))),
        disable: None,
        enable_input_d: false,
        scale_input_d: 0,
        zmask: None,
        meta: None,
        ashift: false,
    }
}

#[test]
fn ue5m3_scales_on_sm_107a_are_the_texts_sum() {
    let mut rng = SplitMix64::new(77);
    let mut codes = |n: u32, f: &mut dyn FnMut(u64) -> u32| {
        (0..n).map(|_| f(rng.next_u64())).collect::<Vec<u32>>()
    };
    let a = codes(M * K, &mut |r| (r % 16) as u32);
    let b = codes(N * K, &mut |r| (r % 16) as u32);
    // UE5M3 exponents 14-16 and even fractions: 0.5 to 3.5, every sum exact in f32.
    let mut sf = |r: u64| ((14 + (r % 3) as u32) << 3) | (2 * ((r >> 8) % 4) as u32);
    let sfa = codes(M * 4, &mut sf);
    let sfb = codes(N * 4, &mut sf);
    let mut ctas = [Cta::new(), Cta::new()];
    place(&mut ctas[0], 0, &a, M);
    place(&mut ctas[0], 0x2000, &b, N);
    // 4X (.block16): row i's four scale factors fill the cell at lane i % 32 of every 32-lane
    // partition, column i / 32 (PTX ISA 9.7.16.10.7, ruling T1).
    for (base, sfs, rows) in [(100, &sfa, M), (104, &sfb, N)] {
        for i in 0..rows {
            let w = (0..4).fold(0, |w, s| w | sfs[(i * 4 + s) as usize] << (8 * s));
            for q in 0..4 {
                ctas[0]
                    .write_tmem(i % 32 + 32 * q, base + i / 32, w)
                    .unwrap();
            }
        }
    }
    let options = MmaOptions {
        target: Target::Sm107a,
        check_allocation: false,
    };
    let done = mma(&mut ctas[..], &op(IDESC), options).unwrap();
    assert_eq!(done.written, M * N);
    let d = done.record.read_d(&ctas).unwrap();
    for i in 0..M {
        for j in 0..N {
            let want: f64 = (0..K)
                .map(|k| {
                    let s = (k / 16) as usize;
                    e2m1(a[(i * K + k) as usize])
                        * e2m1(b[(j * K + k) as usize])
                        * ue5m3(sfa[i as usize * 4 + s])
                        * ue5m3(sfb[j as usize * 4 + s])
                })
                .sum();
            let got = f64::from(f32::from_bits(d.codes[(i * N + j) as usize]));
            assert_eq!(got, want + 0.0, "D[{i}][{j}]");
        }
    }
    assert_eq!(
        done.record.inputs.scale_format,
        Some(crate::numerics::Format::Ue5m3)
    );

    // The same word on sm_100a: bit 24 is reserved (Table 44), nothing written.
    let mut fresh = [ctas[0].clone(), Cta::new()];
    let options = MmaOptions {
        target: Target::Sm100a,
        ..options
    };
    let e = mma(&mut fresh[..], &op(IDESC), options).unwrap_err();
    let text = format!("{e}");
    assert!(text.contains("bit 24"), "{text}");
    // Code 3 on sm_107a names no format: `mma.scale_format` (rules.md D9), not bit 24.
    let e = mma(
        &mut fresh[..],
        &op(IDESC | 1 << 23),
        MmaOptions {
            target: Target::Sm107a,
            ..options
        },
    );
    let text = format!("{}", e.unwrap_err());
    assert!(
        text.contains("code 3 is reserved on sm_107a") && !text.contains("bit 24 is reserved"),
        "{text}"
    );
}
