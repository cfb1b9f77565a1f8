//! Throughput of the functional model (criterion): one whole `tcgen05.mma` line, 128x256x16
//! bf16 -> f32, K-major A and B with 128-byte swizzling, through the emulator: the form check,
//! every operand element fetched through its descriptor, the arithmetic of all 32,768 elements,
//! and D written to Tensor Memory. In the same run: the arithmetic alone through the fast path
//! (`FastRow::mma`), so the rest of the model's cost reads as the difference, and the baseline,
//! the 32,768 dot products through the explained path (`ParamRow::dot`).
//!
//! Run with `cargo bench -p tcgen05 --features std --bench emulator` (the arithmetic splits rows
//! over the machine's threads with `std`; `--features alloc` measures one thread).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed benchmark setup

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tcgen05::canonical_layout::{ElementStorage, TileLayout};
use tcgen05::emulator::Machine;
use tcgen05::mma::{ElementType, Kind, Major};
use tcgen05::numerics::fast::MmaOperands;
use tcgen05::numerics::format::Format;
use tcgen05::numerics::{Arch, Form, Operands};
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::targets::Target;

fn bench(c: &mut Criterion) {
    let bf16 = ElementStorage::of(ElementType::Bf16, None).unwrap();
    let a = TileLayout::new(bf16, Major::K, Swizzle::B128, 128, 64, 0);
    let b = TileLayout::new(bf16, Major::K, Swizzle::B128, 256, 64, 0x8000);
    let line = format!(
        "tcgen05.mma.cta_group::1.kind::f16 [0], {:#x}, {:#x}, 0x08400490, 0;",
        a.descriptor(0, Target::Sm100a).unwrap().bits(),
        b.descriptor(0, Target::Sm100a).unwrap().bits()
    );
    let mut m = Machine::new(Target::Sm100a);
    m.set_random_inputs(1);
    m.execute(&line).unwrap();
    let r = m.last_mma().unwrap().clone();
    let mut g = c.benchmark_group("tcgen05.mma 128x256x16 bf16");
    g.sample_size(10);
    g.bench_function("emulator (whole instruction)", |bch| {
        bch.iter(|| {
            black_box(m.execute(black_box(&line)).unwrap());
        });
    });
    let row = Form {
        arch: Arch::Sm100a,
        instruction: None,
        kind: Kind::F16,
        a: Format::Bf16,
        b: Format::Bf16,
        d: Some(Format::F32),
        scale: None,
        block: None,
    }
    .row()
    .unwrap();
    let ops = MmaOperands {
        m: 128,
        n: 256,
        a: &r.inputs.a,
        b: &r.inputs.b,
        c: &[],
        sfa: &[],
        sfb: &[],
    };
    g.bench_function("arithmetic alone, fast path (FastRow::mma)", |bch| {
        bch.iter(|| black_box(row.fast().mma(black_box(&ops), false).unwrap()));
    });
    g.bench_function("arithmetic alone, explained path (ParamRow::dot)", |bch| {
        bch.iter(|| {
            let mut acc = 0u32;
            for i in 0..128usize {
                for j in 0..256usize {
                    let ops = Operands {
                        a: &r.inputs.a[i * 16..(i + 1) * 16],
                        b: &r.inputs.b[j * 16..(j + 1) * 16],
                        c: 0,
                        sfa: &[],
                        sfb: &[],
                    };
                    acc ^= row.dot(&ops, false).unwrap().d_bits;
                }
            }
            black_box(acc)
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
