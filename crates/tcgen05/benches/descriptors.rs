//! Encode and decode throughput of each descriptor (criterion).
//!
//! Run with `cargo bench -p tcgen05 --bench descriptors`. Each benchmark processes a batch of
//! 1024 values so that the per-value figures criterion prints (in "thrpt") are not dominated by
//! loop overhead; inputs are built before timing and pass through `black_box`. The benchmarks
//! marked "7 kinds" handle each value under every kind and count one element per decode.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
use tcgen05::shared_memory_descriptor::{SmemDescriptor, SmemFields, Swizzle};
use tcgen05::zero_column_mask::{column_mask, ZeroColumnMask, ZmaskFields};
use tcgen05::{Diagnostic, ElementType, Kind, Target};

const BATCH: usize = 1024;

/// A small deterministic generator, so that runs compare.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn idesc(c: &mut Criterion) {
    let mut g = c.benchmark_group("instruction_descriptor");
    g.throughput(Throughput::Elements(BATCH as u64));
    let fields: Vec<IdescFields> = (0..BATCH)
        .map(|i| {
            let n = 8 * (1 + (i as u16 % 32));
            IdescFields::new(
                Kind::F16,
                ElementType::F32,
                ElementType::Bf16,
                ElementType::Bf16,
                128,
                n,
            )
            .with_transpose(i % 2 == 0, i % 3 == 0)
        })
        .collect();
    let valid: Vec<u32> = fields
        .iter()
        .filter_map(|f| InstructionDescriptor::try_new(*f).ok())
        .map(InstructionDescriptor::bits)
        .collect();
    let mut s = 0x9E37_79B9_7F4A_7C15;
    let random: Vec<u32> = (0..BATCH).map(|_| xorshift(&mut s) as u32).collect();
    g.bench_function("encode (valid fields)", |b| {
        b.iter(|| {
            for f in &fields {
                black_box(InstructionDescriptor::try_new(black_box(*f)).ok());
            }
        })
    });
    g.bench_function("decode (valid values)", |b| {
        b.iter(|| {
            for &v in &valid {
                black_box(InstructionDescriptor::decode(black_box(v), Kind::F16));
            }
        })
    });
    g.bench_function("decode (random values)", |b| {
        b.iter(|| {
            for &v in &random {
                black_box(InstructionDescriptor::decode(black_box(v), Kind::F16));
            }
        })
    });
    // The next two count one element per (value, kind) decode.
    g.throughput(Throughput::Elements(7 * BATCH as u64));
    g.bench_function(
        "decode and read every problem (random values, 7 kinds)",
        |b| {
            b.iter(|| {
                for &v in &random {
                    for kind in Kind::ALL {
                        let d = InstructionDescriptor::decode(black_box(v), kind);
                        for e in d.diagnostics.iter() {
                            black_box((e.field(), e.value(), e.source(), e.severity()));
                        }
                        black_box(d.fields);
                    }
                }
            })
        },
    );
    g.bench_function("is_valid (random values, 7 kinds)", |b| {
        b.iter(|| {
            for &v in &random {
                for kind in Kind::ALL {
                    black_box(InstructionDescriptor::is_valid(black_box(v), kind));
                }
            }
        })
    });
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("valid_kinds (random values)", |b| {
        b.iter(|| {
            for &v in &random {
                black_box(InstructionDescriptor::valid_kinds(black_box(v)));
            }
        })
    });
    g.finish();
}

fn smem(c: &mut Criterion) {
    let mut g = c.benchmark_group("shared_memory_descriptor");
    g.throughput(Throughput::Elements(BATCH as u64));
    let fields: Vec<SmemFields> = (0..BATCH)
        .map(|i| SmemFields::new(0x400 + 1024 * (i as u32 % 64), 16, 1024, Swizzle::B128))
        .collect();
    let valid: Vec<u64> = fields
        .iter()
        .filter_map(|f| SmemDescriptor::try_new(*f, Target::Sm100a).ok())
        .map(SmemDescriptor::bits)
        .collect();
    let mut s = 0x2545_F491_4F6C_DD1D;
    let random: Vec<u64> = (0..BATCH).map(|_| xorshift(&mut s)).collect();
    g.bench_function("encode (valid fields)", |b| {
        b.iter(|| {
            for f in &fields {
                black_box(SmemDescriptor::try_new(black_box(*f), Target::Sm100a).ok());
            }
        })
    });
    g.bench_function("decode (valid values)", |b| {
        b.iter(|| {
            for &v in &valid {
                black_box(SmemDescriptor::decode(black_box(v), Target::Sm100a));
            }
        })
    });
    g.bench_function("decode (random values)", |b| {
        b.iter(|| {
            for &v in &random {
                black_box(SmemDescriptor::decode(black_box(v), Target::Sm100a));
            }
        })
    });
    g.bench_function("decode and read every problem (random values)", |b| {
        b.iter(|| {
            for &v in &random {
                let d = SmemDescriptor::decode(black_box(v), Target::Sm100a);
                for e in d.diagnostics.iter() {
                    black_box(e);
                }
            }
        })
    });
    g.bench_function("is_valid (random values)", |b| {
        b.iter(|| {
            for &v in &random {
                black_box(SmemDescriptor::is_valid(black_box(v), Target::Sm100a));
            }
        })
    });
    g.finish();
}

fn zmask(c: &mut Criterion) {
    let mut g = c.benchmark_group("zero_column_mask");
    g.throughput(Throughput::Elements(BATCH as u64));
    let fields: Vec<ZmaskFields> = (0..BATCH)
        .map(|i| ZmaskFields {
            start_count: [(i % 3) as u8, 1, 2, 0],
            first_span: [i % 2 == 0, true, false, false],
            non_zero_mask: true,
            skip_span: (i % 7) as u8,
            use_span: (i % 5) as u8,
            column_shift: (i % 17) as u8,
        })
        .collect();
    let valid: Vec<u64> = fields
        .iter()
        .filter_map(|f| ZeroColumnMask::try_new(*f).ok())
        .map(ZeroColumnMask::bits)
        .collect();
    let mut s = 0x1234_5678_9ABC_DEF1;
    let random: Vec<u64> = (0..BATCH).map(|_| xorshift(&mut s)).collect();
    g.bench_function("encode (valid fields)", |b| {
        b.iter(|| {
            for f in &fields {
                black_box(ZeroColumnMask::try_new(black_box(*f)).ok());
            }
        })
    });
    g.bench_function("decode (valid values)", |b| {
        b.iter(|| {
            for &v in &valid {
                black_box(ZeroColumnMask::decode(black_box(v)));
            }
        })
    });
    g.bench_function("decode (random values)", |b| {
        b.iter(|| {
            for &v in &random {
                black_box(ZeroColumnMask::decode(black_box(v)));
            }
        })
    });
    g.bench_function("generate 256-column mask, M = 32", |b| {
        b.iter(|| {
            for f in &fields {
                black_box(column_mask(black_box(f), 32, 256).ok());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, idesc, smem, zmask);
criterion_main!(benches);
