//! The fast path of the arithmetic (`numerics::fast`) against the explained path
//! (`ParamRow::dot`) on seeded random codes of every row of the parameter table, and the
//! whole-MMA entry point against per-element dot products. (The oracle tests `numerics_mmasim`,
//! `numerics_khattak` and `numerics_h100` also run the fast path on every committed vector.)

#![cfg(feature = "alloc")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod numerics_common;

use tcgen05::numerics::fast::MmaOperands;
use tcgen05::numerics::format::Format;
use tcgen05::numerics::params::rows;
use tcgen05::numerics::rng::SplitMix64;
use tcgen05::numerics::{Algorithm, Operands, RuleId};

/// A random valid code of `f`: uniform bits of its width (ue4m3: 7 bits), so that NaN, Inf,
/// subnormals and zeros all occur.
fn code(r: &mut SplitMix64, f: Format) -> u32 {
    let w = if f == Format::Ue4m3 { 7 } else { f.width() };
    (r.next_u64() >> (64 - w)) as u32
}

#[test]
fn fast_path_equals_explained_path_on_every_row() {
    let (mut rows_seen, mut vectors, mut finite) = (0u64, 0usize, 0usize);
    for row in rows() {
        rows_seen += 1;
        let k = row.algorithm.k() as usize;
        let ns = row.scale.map_or(0, |(_, b)| k / b as usize);
        let sf = row.scale.map_or(Format::Ue8m0, |(f, _)| f);
        let mut r = SplitMix64::new(rows_seen * 7919);
        let integer = matches!(row.algorithm, Algorithm::Integer { .. });
        for v in 0..2000 {
            // Half the vectors with small exponents only (no specials), so that the finite path
            // is exercised as much as the special one.
            let tame = v % 2 == 1;
            let mut draw = |f: Format| {
                let c = code(&mut r, f);
                if tame
                    && !f.is_integer()
                    && f.width() >= 8
                    && f != Format::Ue8m0
                    && f != Format::Ue4m3
                {
                    c & !(1 << (f.width() - 2))
                } else {
                    c
                }
            };
            let a: Vec<u32> = (0..k).map(|_| draw(row.a)).collect();
            let b: Vec<u32> = (0..k).map(|_| draw(row.b)).collect();
            let c = draw(row.d);
            let sfa: Vec<u32> = (0..ns).map(|_| draw(sf)).collect();
            let sfb: Vec<u32> = (0..ns).map(|_| draw(sf)).collect();
            let ops = Operands {
                a: &a,
                b: &b,
                c,
                sfa: &sfa,
                sfb: &sfb,
            };
            for sat in [false, true] {
                if sat && !integer {
                    continue;
                }
                let want = row.dot(&ops, sat).expect("valid codes").d_bits;
                assert_eq!(
                    numerics_common::fast_dot(&row, &ops, sat),
                    want,
                    "{row:?} vector {v}"
                );
                vectors += 1;
                let special = if row.d == Format::F16 {
                    want & 0x7C00 == 0x7C00
                } else {
                    want & 0x7F80_0000 == 0x7F80_0000
                };
                finite += usize::from(integer || !special);
            }
        }
    }
    println!("{rows_seen} rows, {vectors} vectors, {finite} finite results");
    assert!(rows_seen >= 100, "{rows_seen}");
    assert!(finite * 4 > vectors, "{finite} of {vectors}");
}

#[test]
fn whole_mma_equals_per_element_dots_and_reports_every_problem() {
    let mut checked = 0usize;
    for (row, tame) in rows().flat_map(|r| [(r, false), (r, true)]) {
        let k = row.algorithm.k() as usize;
        let ns = row.scale.map_or(0, |(_, b)| k / b as usize);
        let sf = row.scale.map_or(Format::Ue8m0, |(f, _)| f);
        let (m, n) = (12, 9);
        let mut r = SplitMix64::new(99);
        // Raw bits (specials in most rows and columns), or without Inf/NaN (the 64-bit path of
        // whole T-FDPA matrices).
        let mut draw = |f: Format, count: usize| -> Vec<u32> {
            (0..count)
                .map(|_| {
                    let c = code(&mut r, f);
                    if tame
                        && !f.is_integer()
                        && f.width() >= 8
                        && f != Format::Ue8m0
                        && f != Format::Ue4m3
                    {
                        c & !(1 << (f.width() - 2))
                    } else {
                        c
                    }
                })
                .collect()
        };
        let (a, b, c) = (draw(row.a, m * k), draw(row.b, n * k), draw(row.d, m * n));
        let (sfa, sfb) = (draw(sf, m * ns), draw(sf, n * ns));
        let ops = MmaOperands {
            m,
            n,
            a: &a,
            b: &b,
            c: &c,
            sfa: &sfa,
            sfb: &sfb,
        };
        let d = row.fast().mma(&ops, false).expect("valid");
        for i in 0..m {
            for j in 0..n {
                let want = row
                    .dot(
                        &Operands {
                            a: &a[i * k..(i + 1) * k],
                            b: &b[j * k..(j + 1) * k],
                            c: c[i * n + j],
                            sfa: &sfa[i * ns..(i + 1) * ns],
                            sfb: &sfb[j * ns..(j + 1) * ns],
                        },
                        false,
                    )
                    .expect("valid")
                    .d_bits;
                assert_eq!(d[i * n + j], want, "{row:?} D[{i}][{j}]");
                checked += 1;
            }
        }
        // Wrong counts: every operand reported.
        let short = MmaOperands {
            a: &a[1..],
            c: &c[1..],
            ..ops
        };
        let e = row.fast().mma(&short, false).unwrap_err();
        let rules: Vec<RuleId> = e.problems.iter().map(|p| p.rule).collect();
        assert_eq!(
            rules,
            [RuleId::OperandCount, RuleId::OperandCount],
            "{row:?}"
        );
    }
    println!("{checked} elements of whole MMAs equal the explained path");
    assert!(checked > 20_000);
    // A code too wide for its format.
    let row = rows()
        .find(|r| r.a == Format::E4m3 && matches!(r.algorithm, Algorithm::TFdpa { .. }))
        .expect("an e4m3 row");
    let k = row.algorithm.k() as usize;
    let mut a = vec![0u32; k];
    a[3] = 0x100;
    let b = vec![0u32; k];
    let c = [0u32];
    let e = row
        .fast()
        .mma(
            &MmaOperands {
                m: 1,
                n: 1,
                a: &a,
                b: &b,
                c: &c,
                sfa: &[],
                sfb: &[],
            },
            false,
        )
        .unwrap_err();
    assert_eq!(
        e.problems.iter().map(|p| p.rule).collect::<Vec<_>>(),
        [RuleId::BadCode]
    );
}

/// Whole 128 x 128 MMAs of every 16-bit T-FDPA row with the interpreter benchmark's operands
/// (magnitudes 2^-5 to 2^5, some zeros, C of either sign), so that the 64-bit f64 products
/// (K = 16, narrow significands) and the split over threads (M = 128) both run; every element
/// equals the explained path's.
#[test]
fn large_narrow_mmas_equal_the_explained_path() {
    let mut checked = 0usize;
    let mut r = SplitMix64::new(7);
    for row in rows().filter(|r| {
        matches!(r.algorithm, Algorithm::TFdpa { .. })
            && matches!(r.a, Format::Bf16 | Format::F16)
            && r.a == r.b
    }) {
        let k = row.algorithm.k() as usize;
        let (m, n) = (128, 128);
        // A code of magnitude 2^-5 to 2^5 (one in 16 zero).
        let mut small = |f: Format| -> u32 {
            let x = r.next_u64();
            let (ebits, mbits) = if f == Format::Bf16 { (8, 7) } else { (5, 10) };
            let bias = (1u64 << (ebits - 1)) - 1;
            if x % 16 == 0 {
                return 0;
            }
            let e = bias - 5 + (x >> 8) % 11;
            let sign = (x >> 4) & 1;
            (sign << (ebits + mbits) | e << mbits | (x >> 20) & ((1 << mbits) - 1)) as u32
        };
        let a: Vec<u32> = (0..m * k).map(|_| small(row.a)).collect();
        let b: Vec<u32> = (0..n * k).map(|_| small(row.b)).collect();
        let c: Vec<u32> = (0..m * n)
            .map(|i| match row.d {
                Format::F32 => ((i as u32 % 2) << 31) | (120 + i as u32 % 12) << 23 | i as u32,
                _ => ((i as u32 % 2) << 15) | (10 + i as u32 % 10) << 10 | i as u32 & 0x3FF,
            })
            .collect();
        let ops = MmaOperands {
            m,
            n,
            a: &a,
            b: &b,
            c: &c,
            sfa: &[],
            sfb: &[],
        };
        let d = row.fast().mma(&ops, false).expect("valid");
        for i in 0..m {
            for j in (0..n).step_by(3) {
                let want = row
                    .dot(
                        &Operands {
                            a: &a[i * k..(i + 1) * k],
                            b: &b[j * k..(j + 1) * k],
                            c: c[i * n + j],
                            sfa: &[],
                            sfb: &[],
                        },
                        false,
                    )
                    .expect("valid")
                    .d_bits;
                assert_eq!(d[i * n + j], want, "{row:?} D[{i}][{j}]");
                checked += 1;
            }
        }
    }
    println!("{checked} elements of 128 x 128 MMAs equal the explained path");
    assert!(checked > 10_000, "{checked}");
}
