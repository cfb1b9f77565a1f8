//! Published Blackwell synchronisation bugs, reproduced as small CUDA C++ kernels compiled by
//! the pinned nvcc 13.5.37 (`conformance/kernels/cuda/tma_gemm.cu` with the switches that
//! `gen_cuda.py` names, committed PTX): each buggy kernel is found by the hazard checker with
//! the right kind at the right line, and its fixed version is clean with the default schedule
//! and `HAZARD_SCHEDULES` seeded ones (2 unless set; the report used 50).
//!
//! - triton-lang/triton#10196 (wrong mbarrier arrival counts, found by Triton's ConSan on a
//!   GPU): the epilogue arrives on the accumulator's `acc_empty` mbarrier once per warp while
//!   the mbarrier was initialised with the per-thread count 128; the phase gets 4 arrivals and
//!   never completes (`mbarrier-count` at that `mbarrier.init`, and the deadlock that follows).
//!   Fixed: `init` with the number of warps, 4.
//! - triton-lang/triton#10821's pattern (fixed by #10858 and #10988): the MMA thread starts the
//!   next output tile's MMAs into the one Tensor Memory accumulator without waiting for the
//!   epilogue's hand-off, so they overwrite cells whose `tcgen05.ld`s of the previous tile are
//!   not known complete. Fixed: the MMA thread waits on `acc_empty` first (with
//!   `tcgen05.fence::after_thread_sync`).
//!
//! The expected lines come from the PTX text (the `mbarrier.init` whose count is 128, the
//! `tcgen05.mma` and `tcgen05.ld` lines), not from the checker.

mod common;

use tcgen05_run::hazard::{check, HazardKind, Options};
use tcgen05_run::tensor_map_encode::{encode_tiled, DataType, EncodeTiled, MapSwizzle};
use tcgen05_run::{Arg, Config, Module};

use common::inputs::{float_code, repo, splitmix};

/// M, N, K: two 128 x 128 output tiles in one CTA (the accumulator handed back once), three K
/// tiles of 64.
const SHAPE: (usize, usize, usize) = (128, 256, 192);

fn schedules() -> u32 {
    std::env::var("HAZARD_SCHEDULES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2)
}

fn ptx(stem: &str) -> String {
    std::fs::read_to_string(repo(&format!("conformance/kernels/cuda/{stem}.ptx")))
        .expect("the committed PTX")
}

/// A tensor map over a row-major `rows x cols` bf16 matrix of random codes, 128 x 64 boxes,
/// 128B swizzle.
fn map(mut seed: u64, rows: usize, cols: usize) -> Arg {
    let bytes: Vec<u8> = (0..rows * cols)
        .flat_map(|_| (float_code(splitmix(&mut seed), 15, 7, (120, 14)) as u16).to_le_bytes())
        .collect();
    let p = EncodeTiled {
        data_type: DataType::Bfloat16,
        global_address: 0,
        global_dim: vec![cols as u64, rows as u64],
        global_strides: vec![cols as u64 * 2],
        box_dim: vec![64, 128],
        element_strides: vec![1, 1],
        interleave: Default::default(),
        swizzle: MapSwizzle::B128,
        l2_promotion: Default::default(),
        oob_fill: Default::default(),
    };
    let m = encode_tiled(&p).unwrap_or_else(|e| panic!("tensor map refused: {e:?}"));
    Arg::TensorMap(m, bytes)
}

/// (kind, line, other line) of every finding of `stem` over the default schedule and
/// `schedules` seeded ones.
fn hazards(stem: &str, schedules: u32) -> Vec<(HazardKind, u32, Option<u32>)> {
    let (m, n, k) = SHAPE;
    let module = Module::read(&ptx(stem)).unwrap_or_else(|e| panic!("{stem}: {e}"));
    let mut args = vec![
        map(1, m, k),
        map(2, n, k),
        Arg::Buffer(vec![0; m * n * 4]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
    ];
    let config = Config {
        grid: [1, 1, 1],
        block: [128, 1, 1],
        cluster: [1, 1, 1],
        shared: 3 * 32768 + 1024,
        limits: Default::default(),
    };
    let r = check(&module, stem, &config, &mut args, &Options { schedules })
        .unwrap_or_else(|e| panic!("{stem}: {e}"));
    let got: Vec<_> = r
        .findings
        .iter()
        .map(|f| (f.kind, f.line, f.other_line))
        .collect();
    eprintln!("{stem}: {} run(s): {got:?}", r.runs);
    got
}

/// The 1-based lines of `src` whose instruction (guard removed) starts with `opcode`.
fn lines_of(src: &str, opcode: &str) -> Vec<u32> {
    src.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            let t = if t.starts_with('@') {
                t.split_once(char::is_whitespace)
                    .map_or("", |x| x.1)
                    .trim_start()
            } else {
                t
            };
            t.starts_with(opcode)
        })
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

#[test]
fn arrival_count_of_triton_10196_is_found_and_its_fix_is_clean() {
    let src = ptx("cuda_bug_arrive_count");
    // The mbarrier.init with the per-thread count: acc_empty's, the only count of 128.
    let inits: Vec<u32> = lines_of(&src, "mbarrier.init")
        .into_iter()
        .filter(|&l| {
            src.lines()
                .nth(l as usize - 1)
                .is_some_and(|t| t.contains(", 128;"))
        })
        .collect();
    assert_eq!(
        inits.len(),
        1,
        "one mbarrier.init with count 128: {inits:?}"
    );
    let arrives = lines_of(&src, "mbarrier.arrive.relaxed");
    assert_eq!(
        arrives.len(),
        1,
        "one relaxed arrival (lane 0 of each warp)"
    );
    for schedules in [0, schedules()] {
        let got = hazards("cuda_bug_arrive_count", schedules);
        assert!(
            got.contains(&(HazardKind::MbarrierCount, inits[0], Some(arrives[0]))),
            "mbarrier-count at the init of line {} (arrival of line {}): {got:?}",
            inits[0],
            arrives[0]
        );
        assert!(
            got.iter().any(|(k, _, _)| *k == HazardKind::Deadlock),
            "the MMA thread waits forever: {got:?}"
        );
        assert!(
            got.iter()
                .all(|(k, _, _)| matches!(k, HazardKind::MbarrierCount | HazardKind::Deadlock)),
            "only the count and its deadlock: {got:?}"
        );
    }
    let fixed = ptx("cuda_fixed_arrive_count");
    assert!(
        fixed.contains("mbarrier.init.shared::cta.b64 [%r"),
        "the fixed PTX"
    );
    assert_eq!(hazards("cuda_fixed_arrive_count", schedules()), vec![]);
}

#[test]
fn accumulator_reuse_of_triton_10821_is_found_and_its_fix_is_clean() {
    let src = ptx("cuda_bug_acc_reuse");
    let mmas = lines_of(&src, "tcgen05.mma");
    let lds = lines_of(&src, "tcgen05.ld");
    assert!(!mmas.is_empty() && !lds.is_empty());
    // The fixed kernel waits on acc_empty before the MMAs of a later tile; the buggy one does
    // not (one relaxed wait fewer: the epilogue's on acc_full is left).
    let relaxed_waits = |s: &str| lines_of(s, "mbarrier.try_wait.parity.relaxed").len();
    assert_eq!(
        relaxed_waits(&src) + 1,
        relaxed_waits(&ptx("cuda_fixed_acc_reuse"))
    );
    for schedules in [0, schedules()] {
        let got = hazards("cuda_bug_acc_reuse", schedules);
        // The next tile's MMA writes cells the previous tile's tcgen05.ld read (or the ld
        // reads what that MMA wrote): both lines are an MMA and an ld.
        let pair = |l: u32, o: Option<u32>| {
            o.is_some_and(|o| {
                (mmas.contains(&l) && lds.contains(&o)) || (lds.contains(&l) && mmas.contains(&o))
            })
        };
        assert!(
            got.iter()
                .any(|&(k, l, o)| k == HazardKind::WriteBeforeComplete
                    && mmas.contains(&l)
                    && o.is_some_and(|o| lds.contains(&o))),
            "write-before-complete at an MMA against an ld: {got:?}"
        );
        for &(k, l, o) in &got {
            assert!(
                matches!(
                    k,
                    HazardKind::WriteBeforeComplete
                        | HazardKind::ReadBeforeComplete
                        | HazardKind::WaitParity
                ) && (pair(l, o) || k == HazardKind::WaitParity),
                "{k:?} at {l} ({o:?}) is not the accumulator's reuse: {got:?}"
            );
        }
    }
    assert_eq!(hazards("cuda_fixed_acc_reuse", schedules()), vec![]);
}
