//! `tcgen05.ld.red` (PTX ISA 9.7.16.8.3): "the reduction operation specified by `.redOp` is
//! performed on the data that is loaded across columns in each lane", its result in the
//! thread's `redval`. A hand-written one-warp kernel for `sm_103a` stores 8 random words per
//! lane with `tcgen05.st.32x32b.x8`, loads them back with `tcgen05.ld.red.32x32b.x8` and
//! stores the 8 registers and `redval` (48 bytes apart per thread). Expected from the text alone: the registers are the
//! stored words (thread t reads lane t, register i column i, `.32x32b`), and `redval` is their
//! minimum or maximum as unsigned (`.u32`) or two's-complement (`.s32`) integers. The `.f32`
//! forms are refused by name: the text leaves their NaN and signed-zero arithmetic open.

mod common;

use common::inputs::splitmix;
use tcgen05_run::{launch, Arg, Config, Limits, Module, RunError};

fn kernel(red: &str) -> String {
    let regs = |base: u32| {
        (0..8)
            .map(|i| format!("%r{}", base + i))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (src, dst) = (regs(10), regs(20));
    format!(
        ".version 8.8\n.target sm_103a\n.address_size 64\n\
         .visible .entry k(.param .u64 inp, .param .u64 out)\n{{\n\
         .reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n\
         .shared .align 16 .b8 smem[16];\n\
         tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;\n\
         tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n\
         ld.shared.b32 %r1, [smem];\n\
         mov.u32 %r2, %tid.x;\n\
         ld.param.u64 %rd1, [inp];\n\
         mul.wide.u32 %rd2, %r2, 32;\n\
         add.u64 %rd3, %rd1, %rd2;\n\
         ld.global.v4.b32 {{%r10, %r11, %r12, %r13}}, [%rd3];\n\
         ld.global.v4.b32 {{%r14, %r15, %r16, %r17}}, [%rd3+16];\n\
         tcgen05.st.sync.aligned.32x32b.x8.b32 [%r1], {{{src}}};\n\
         tcgen05.wait::st.sync.aligned;\n\
         tcgen05.ld.red.sync.aligned.32x32b.x8.{red} {{{dst}}}, %r30, [%r1];\n\
         tcgen05.wait::ld.sync.aligned;\n\
         ld.param.u64 %rd4, [out];\n\
         mul.wide.u32 %rd5, %r2, 48;\n\
         add.u64 %rd6, %rd4, %rd5;\n\
         st.global.v4.b32 [%rd6], {{%r20, %r21, %r22, %r23}};\n\
         st.global.v4.b32 [%rd6+16], {{%r24, %r25, %r26, %r27}};\n\
         st.global.b32 [%rd6+32], %r30;\n\
         tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n\
         ret;\n}}\n"
    )
}

/// 256 random words (8 per lane); every fourth has its top bit set or cleared on purpose, so
/// that the signed and unsigned orders differ in every lane.
fn words() -> Vec<u32> {
    let mut s = 103;
    (0..256)
        .map(|i| {
            let w = splitmix(&mut s) as u32;
            match i % 4 {
                0 => w | 0x8000_0000,
                1 => w & 0x7FFF_FFFF,
                _ => w,
            }
        })
        .collect()
}

fn run(red: &str) -> Result<Vec<u32>, RunError> {
    let module = Module::read(&kernel(red))?;
    let inp: Vec<u8> = words().iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut args = vec![Arg::Buffer(inp), Arg::Buffer(vec![0xAB; 32 * 48])];
    let config = Config {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Limits { steps: 1_000_000 },
    };
    launch(&module, "k", &config, &mut args)?;
    let Arg::Buffer(out) = &args[1] else {
        unreachable!()
    };
    Ok(out
        .chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

#[test]
fn integer_reductions_are_the_min_or_max_of_each_lanes_words() {
    let w = words();
    for (red, max, signed) in [
        ("max.s32", true, true),
        ("min.s32", false, true),
        ("max.u32", true, false),
        ("min.u32", false, false),
    ] {
        let got = run(red).unwrap_or_else(|e| panic!("{red}: {e}"));
        for t in 0..32 {
            let lane = &w[8 * t..8 * t + 8];
            assert_eq!(
                &got[12 * t..12 * t + 8],
                lane,
                "{red}: thread {t}'s registers"
            );
            let key = |x: &u32| {
                if signed {
                    i64::from(*x as i32)
                } else {
                    i64::from(*x)
                }
            };
            let want = if max {
                lane.iter().copied().max_by_key(key)
            } else {
                lane.iter().copied().min_by_key(key)
            };
            assert_eq!(Some(got[12 * t + 8]), want, "{red}: thread {t}'s redval");
        }
    }
}

#[test]
fn f32_reductions_are_refused_by_name() {
    let line = 1 + kernel("max.f32")
        .lines()
        .position(|l| l.contains("tcgen05.ld.red"))
        .expect("the ld.red line") as u32;
    for red in ["max.f32", "min.abs.NaN.f32"] {
        match run(red) {
            Err(RunError::Unsupported { line: l, what, why }) => {
                assert_eq!(l, line, "{red}");
                assert!(
                    what.contains("f32") && why.contains("9.7.16.8.3"),
                    "{what}: {why}"
                );
            }
            other => panic!("{red}: expected a refusal, got {other:?}"),
        }
    }
}
