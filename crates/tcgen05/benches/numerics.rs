//! Throughput of the bit-accurate MMA model (criterion): one whole 128x256x16 bf16
//! `tcgen05.mma` (kind::f16, f32 D) and one 128x256x64 mxf4nvf4 (block16, ue4m3 scales), each
//! 32,768 dot products, on one thread: through the fast path
//! ([`tcgen05::numerics::FastRow::mma`]) and, as the baseline in the same run, the explained
//! path ([`tcgen05::numerics::ParamRow::dot`]).
//!
//! Run with `cargo bench -p tcgen05 --bench numerics`; compare with MMA-Sim 2.1.1 on the same
//! MMA shapes: `conformance/mmasim/run.sh --time` (README, numerics section, quotes both).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tcgen05::mma::Kind;
use tcgen05::numerics::fast::MmaOperands;
use tcgen05::numerics::format::Format;
use tcgen05::numerics::rng::SplitMix64;
use tcgen05::numerics::{Arch, Form, Operands, ParamRow};

struct Mma {
    row: ParamRow,
    a: Vec<Vec<u32>>,
    b: Vec<Vec<u32>>,
    c: Vec<u32>,
    sfa: Vec<Vec<u32>>,
    sfb: Vec<Vec<u32>>,
}

fn mma(
    row: ParamRow,
    m: usize,
    n: usize,
    code: impl Fn(&mut SplitMix64) -> u32,
    scale: impl Fn(&mut SplitMix64) -> u32,
) -> Mma {
    let mut r = SplitMix64::new(7);
    let k = row.algorithm.k() as usize;
    let ns = row.scale.map_or(0, |(_, b)| k / b as usize);
    let a = (0..m)
        .map(|_| (0..k).map(|_| code(&mut r)).collect())
        .collect();
    let b = (0..n)
        .map(|_| (0..k).map(|_| code(&mut r)).collect())
        .collect();
    let c = (0..m * n)
        .map(|_| f32::to_bits((r.next_f64() - 0.5) as f32))
        .collect();
    let sfa = (0..m)
        .map(|_| (0..ns).map(|_| scale(&mut r)).collect())
        .collect();
    let sfb = (0..n)
        .map(|_| (0..ns).map(|_| scale(&mut r)).collect())
        .collect();
    Mma {
        row,
        a,
        b,
        c,
        sfa,
        sfb,
    }
}

fn run(x: &Mma, d: &mut [u32]) {
    let n = x.b.len();
    for (i, a) in x.a.iter().enumerate() {
        for (j, b) in x.b.iter().enumerate() {
            let ops = Operands {
                a,
                b,
                c: x.c[i * n + j],
                sfa: &x.sfa[i],
                sfb: &x.sfb[j],
            };
            d[i * n + j] = x.row.dot(&ops, false).map_or(0, |r| r.d_bits);
        }
    }
}

/// The whole MMA through the fast path ([`tcgen05::numerics::FastRow::mma`]).
fn run_fast(x: &Mma) -> Vec<u32> {
    let flat = |v: &[Vec<u32>]| v.concat();
    let (a, b, sfa, sfb) = (flat(&x.a), flat(&x.b), flat(&x.sfa), flat(&x.sfb));
    let ops = MmaOperands {
        m: x.a.len(),
        n: x.b.len(),
        a: &a,
        b: &b,
        c: &x.c,
        sfa: &sfa,
        sfb: &sfb,
    };
    x.row.fast().mma(&ops, false).expect("valid operands")
}

fn bench(c: &mut Criterion) {
    let form = |kind, t, scale, block| Form {
        arch: Arch::Sm100a,
        instruction: None,
        kind,
        a: t,
        b: t,
        d: None,
        scale,
        block,
    };
    let bf16 = form(Kind::F16, Format::Bf16, None, None)
        .row()
        .expect("a form");
    // bf16 values of normal-distribution size: sign, exponent 120..=131, random fraction
    let bf = mma(
        bf16,
        128,
        256,
        |r| {
            let x = r.next_u64();
            ((x & 0x807F) | ((120 + (x >> 16) % 12) << 7)) as u32
        },
        |_| 0,
    );
    let nv = form(Kind::Mxf4nvf4, Format::E2m1, Some(Format::Ue4m3), Some(16))
        .row()
        .expect("a form");
    let fp4 = mma(
        nv,
        128,
        256,
        |r| (r.next_u64() >> 60) as u32,
        |r| (r.next_u64() >> 57) as u32 % 0x7F,
    );
    let mut d = vec![0u32; 128 * 256];
    let mut g = c.benchmark_group("numerics_mma");
    g.sample_size(10);
    g.throughput(Throughput::Elements(128 * 256));
    // The fast path gives the explained path's bits (checked here once, and on every oracle
    // vector by the tests).
    run(&bf, &mut d);
    assert_eq!(run_fast(&bf), d);
    run(&fp4, &mut d);
    assert_eq!(run_fast(&fp4), d);
    g.bench_function("tcgen05.mma 128x256x16 bf16, fast path", |bch| {
        bch.iter(|| black_box(run_fast(black_box(&bf))))
    });
    g.bench_function(
        "tcgen05.mma 128x256x64 mxf4nvf4 block16 ue4m3, fast path",
        |bch| bch.iter(|| black_box(run_fast(black_box(&fp4)))),
    );
    g.bench_function("tcgen05.mma 128x256x16 bf16, explained path", |bch| {
        bch.iter(|| run(black_box(&bf), &mut d))
    });
    g.bench_function(
        "tcgen05.mma 128x256x64 mxf4nvf4 block16 ue4m3, explained path",
        |bch| bch.iter(|| run(black_box(&fp4), &mut d)),
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
