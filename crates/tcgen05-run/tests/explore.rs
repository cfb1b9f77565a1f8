//! Exhaustive exploration of schedules (issue 25, item 4): a hand-written mbarrier protocol
//! whose bug only a late producer shows (the default schedule and the first seeded ones do not),
//! found, replayed from its token, and its fix explored clean over the whole space; the Hopper
//! `dot_tma` kernel on one CTA explored under a bound.

mod common;

use common::hopper_cases::{cases, ptx};
use tcgen05_run::hazard::explore::explore_with;
use tcgen05_run::hazard::{check, explore, replay, HazardKind, Options};
use tcgen05_run::{Arg, Config, Module, RunError};

fn kernel(name: &str) -> Module {
    let path = format!("{}/tests/explore/{name}.ptx", env!("CARGO_MANIFEST_DIR"));
    Module::read(&std::fs::read_to_string(path).expect("ptx")).expect("reads")
}

/// Two warps: warp 0 produces, warp 1 consumes.
fn two_warps() -> Config {
    Config {
        grid: [1, 1, 1],
        block: [64, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    }
}

/// Seeded schedules `phase_skip` is run with before exploring: none of them shows its bug.
const SEEDS: u32 = 20;

#[test]
fn a_late_producer_is_found_and_replayed() {
    let module = kernel("phase_skip");
    let mut args = vec![Arg::Buffer(vec![0; 4])];
    // The default schedule and the first seeded ones run the producer ahead: clean.
    let seeded = check(
        &module,
        "phase_skip",
        &two_warps(),
        &mut args.clone(),
        &Options { schedules: SEEDS },
    )
    .expect("runs");
    assert!(seeded.findings.is_empty(), "{:#?}", seeded.findings);
    let x = explore(&module, "phase_skip", &two_warps(), &mut args, 10_000).expect("runs");
    let found = x.counterexample.expect("a counterexample");
    eprintln!(
        "phase_skip: counterexample at schedule {} of the walk ({} choice points), --replay {}: {:?}",
        x.schedules,
        found.choice_points,
        found.replay,
        found
            .findings
            .iter()
            .map(|f| (f.kind.name(), f.line, f.other_line))
            .collect::<Vec<_>>()
    );
    assert!(!x.exhausted && !x.cut);
    // The producer's write of the second word (line 33 of the PTX) after the consumer read it
    // (line 44), its wait (line 41) having passed on phase 0.
    assert!(
        found
            .findings
            .iter()
            .any(|f| (f.kind, f.line, f.other_line, f.thread, f.other_thread)
                == (HazardKind::DataRace, 33, Some(44), Some(0), Some(32))),
        "{:#?}",
        found.findings
    );
    // How many seeded schedules it takes (reported, not asserted beyond SEEDS).
    let more = check(
        &module,
        "phase_skip",
        &two_warps(),
        &mut args.clone(),
        &Options { schedules: 64 },
    )
    .expect("runs");
    eprintln!(
        "phase_skip: seeds of the first schedules that show each finding: {:?}",
        more.seeds
    );
    let mut again = vec![Arg::Buffer(vec![0; 4])];
    let r = replay(
        &module,
        "phase_skip",
        &two_warps(),
        &mut again,
        &found.replay,
    )
    .expect("runs");
    assert_eq!(r.findings, found.findings);
    assert_eq!(r.replay, found.replay);
}

#[test]
fn the_fixed_protocol_is_clean_over_every_schedule() {
    let module = kernel("phase_all");
    let mut args = vec![Arg::Buffer(vec![0; 4])];
    let x = explore(&module, "phase_all", &two_warps(), &mut args, 10_000).expect("runs");
    eprintln!(
        "phase_all: {} schedules, {} choice points (at most {} in one), exhausted {}",
        x.schedules, x.choice_points, x.depth, x.exhausted
    );
    assert!(x.counterexample.is_none(), "{:#?}", x.counterexample);
    assert!(x.exhausted && !x.cut);
    assert!(x.schedules > 1);
    // The consumer read 11 + 22 + 33 in the first schedule.
    assert_eq!(args[0], Arg::Buffer(66u32.to_le_bytes().to_vec()));
    // Cut by a bound: not exhausted.
    let y = explore(&module, "phase_all", &two_warps(), &mut args, 2).expect("runs");
    assert_eq!((y.schedules, y.exhausted, y.cut), (2, false, true));
}

#[test]
fn bad_replay_tokens_are_refused() {
    let module = kernel("phase_all");
    for token in [
        "x",
        "1..2",
        "0.99",
        "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1",
    ] {
        let mut args = vec![Arg::Buffer(vec![0; 4])];
        match replay(&module, "phase_all", &two_warps(), &mut args, token) {
            Err(RunError::Argument { param, why }) => {
                assert_eq!(param, "--replay");
                assert!(why.contains(token), "{why}");
            }
            other => panic!("{token}: {other:?}"),
        }
    }
}

#[test]
fn dot_tma_on_one_cta_is_explored_under_a_bound() {
    let mut c = cases()
        .into_iter()
        .find(|c| c.name == "dot_tma")
        .expect("case");
    c.grid = [1, 1];
    let module = Module::read(&ptx("dot_tma")).expect("reads");
    let x = explore(&module, "dot_tma", &c.config(), &mut c.args, 20).expect("runs");
    eprintln!(
        "dot_tma (one CTA): {} schedules, {} choice points (at most {} in one), exhausted {}, cut {}",
        x.schedules, x.choice_points, x.depth, x.exhausted, x.cut
    );
    assert!(x.counterexample.is_none(), "{:#?}", x.counterexample);
    assert_eq!(x.schedules, 20);
    assert!(x.cut && !x.exhausted);
    assert!(x.depth > 10);
}

/// A tensor map of zeros over a row-major `rows x cols` bf16 matrix, 128 x 64 boxes, 128B
/// swizzle (the launch of `tests/cuda_tma.rs`).
fn zero_map(rows: usize, cols: usize) -> Arg {
    use tcgen05_run::tensor_map_encode::{encode_tiled, DataType, EncodeTiled, MapSwizzle};
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
    Arg::TensorMap(encode_tiled(&p).expect("map"), vec![0; rows * cols * 2])
}

#[test]
fn blackwell_tma_gemm_on_one_cta_is_explored_under_a_bound() {
    let stem = "cuda_tma_gemm_bf16_s2";
    let path = common::inputs::repo(&format!("conformance/kernels/cuda/{stem}.ptx"));
    let module = Module::read(&std::fs::read_to_string(path).expect("ptx")).expect("reads");
    let (m, n, k) = (128usize, 128usize, 128usize);
    let mut args = vec![
        zero_map(m, k),
        zero_map(n, k),
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
    let x = explore(&module, stem, &config, &mut args, 6).expect("runs");
    eprintln!(
        "{stem} (one CTA, 128 x 128 x 128): {} schedules, {} choice points (at most {} in one), exhausted {}, cut {}",
        x.schedules, x.choice_points, x.depth, x.exhausted, x.cut
    );
    assert!(x.counterexample.is_none(), "{:#?}", x.counterexample);
    assert_eq!(x.schedules, 6);
    assert!(x.cut && !x.exhausted);
}

/// `phase_all` with its mbarrier counting four arrivals of the producer's three: the consumer's
/// wait never passes in any schedule, so the first schedule of the walk is the counterexample,
/// a deadlock at the wait (line 38 of phase_all.ptx).
#[test]
fn a_deadlock_is_a_counterexample() {
    let path = format!("{}/tests/explore/phase_all.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("ptx");
    let planted = text.replace("[%r2], 3;", "[%r2], 4;");
    assert_ne!(planted, text);
    let module = Module::read(&planted).expect("reads");
    let mut args = vec![Arg::Buffer(vec![0; 4])];
    let x = explore(&module, "phase_all", &two_warps(), &mut args, 100).expect("runs");
    let o = x.counterexample.expect("a counterexample");
    assert_eq!(x.schedules, 1);
    match &o.error {
        Some(RunError::Deadlock { warps, .. }) => {
            assert!(warps.iter().any(|w| w.line == 38), "{warps:?}");
        }
        other => panic!("{other:?}"),
    }
    let r = replay(&module, "phase_all", &two_warps(), &mut args, &o.replay).expect("runs");
    assert_eq!(r.error, o.error);
}

/// Three warps that never wait: warp 0 runs three turns (two `mbarrier.init`, each ending a
/// turn, then `ret`), warps 1 and 2 two turns each. Every interleaving of the turns is one
/// schedule, so the walk must run exactly the multinomial 7! / (3! 2! 2!) = 210 of them.
#[test]
fn the_walk_runs_every_interleaving_of_turns_once() {
    let ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n\
        .visible .entry turns()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<6>;\n\
        .shared .align 16 .b8 smem[1536];\n\
        mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 5;\nmov.u32 %r3, smem;\n\
        shl.b32 %r4, %r1, 4;\nadd.u32 %r3, %r3, %r4;\n\
        mbarrier.init.shared.b64 [%r3], 1;\nsetp.ne.u32 %p1, %r2, 0;\n@%p1 bra DONE;\n\
        mbarrier.init.shared.b64 [%r3+8], 1;\nDONE:\nret;\n}\n";
    let module = Module::read(ptx).expect("reads");
    let config = Config {
        block: [96, 1, 1],
        ..two_warps()
    };
    let x = explore_with(&module, "turns", &config, &mut [], 1000, false).expect("runs");
    assert!(x.counterexample.is_none(), "{:#?}", x.counterexample);
    assert_eq!((x.schedules, x.exhausted), (210, true));
    // One schedule fewer than the bound: cut, not exhaustive.
    let y = explore_with(&module, "turns", &config, &mut [], 209, false).expect("runs");
    assert_eq!((y.schedules, y.exhausted, y.cut), (209, false, true));
    // Reduced: each warp's inits touch only its own mbarriers, so every turn is independent of
    // the other warps' and one order of them stands for all 210.
    let z = explore(&module, "turns", &config, &mut [], 1000).expect("runs");
    eprintln!("turns: {} schedules reduced, 210 whole", z.schedules);
    assert!(z.exhausted && z.schedules < 210, "{}", z.schedules);
}

/// The partial-order reduction (sleep sets, `hazard::sleep`) runs fewer schedules and finds
/// the same: the late producer's races (the same findings and token), the early completion's
/// deadlock at line 48, and the fixed protocol still walked whole and clean.
#[test]
fn the_reduction_runs_fewer_schedules_and_finds_the_same() {
    let skip = kernel("phase_skip");
    let run = |m: &Module, name: &str, reduce: bool| {
        let mut args = vec![Arg::Buffer(vec![0; 4])];
        explore_with(m, name, &two_warps(), &mut args, 10_000, reduce).expect("runs")
    };
    let (whole, reduced) = (
        run(&skip, "phase_skip", false),
        run(&skip, "phase_skip", true),
    );
    let (w, r) = (
        whole.counterexample.expect("found whole"),
        reduced.counterexample.expect("found reduced"),
    );
    assert_eq!(
        (r.findings.clone(), r.replay.clone()),
        (w.findings, w.replay)
    );
    let all = kernel("phase_all");
    let (whole_all, reduced_all) = (run(&all, "phase_all", false), run(&all, "phase_all", true));
    assert!(whole_all.exhausted && reduced_all.exhausted);
    assert!(reduced_all.counterexample.is_none());
    let lost = kernel("lost_phase");
    let lost_run = |reduce: bool| {
        explore_with(
            &lost,
            "lost_phase",
            &two_warps(),
            &mut lost_phase_args(),
            10_000,
            reduce,
        )
        .expect("runs")
    };
    let (whole_lost, reduced_lost) = (lost_run(false), lost_run(true));
    match reduced_lost
        .counterexample
        .as_ref()
        .and_then(|o| o.error.as_ref())
    {
        Some(RunError::Deadlock { warps, .. }) => {
            assert!(warps.iter().any(|w| w.line == 48), "{warps:?}");
        }
        other => panic!("{other:?}"),
    }
    eprintln!(
        "schedules whole / reduced: phase_skip {} / {} (to the counterexample), phase_all {} / {} \
         (exhausted), lost_phase {} / {} (to the deadlock)",
        whole.schedules,
        reduced.schedules,
        whole_all.schedules,
        reduced_all.schedules,
        whole_lost.schedules,
        reduced_lost.schedules
    );
    assert!(reduced.schedules < whole.schedules);
    assert!(reduced_all.schedules < whole_all.schedules);
    assert!(reduced_lost.schedules <= whole_lost.schedules);
}

/// `tests/explore/lost_phase.ptx`: its one tensor map, 32 x 16 u16 (two 16 x 16 boxes).
fn lost_phase_args() -> Vec<Arg> {
    let words: Vec<u8> = (0..512u32).flat_map(|i| (i as u16).to_le_bytes()).collect();
    vec![common::inputs::map(
        words,
        (32, 16),
        (16, 16),
        tcgen05::shared_memory_descriptor::Swizzle::None,
    )]
}

/// The order of completions is a choice: a second tensor copy completing before the consumer's
/// first wait puts the mbarrier two phases ahead, and the consumer's parity-0 wait (line 48)
/// hangs. The default schedule completes copies late and is clean.
#[test]
fn an_early_copy_completion_is_found() {
    let module = kernel("lost_phase");
    let clean = check(
        &module,
        "lost_phase",
        &two_warps(),
        &mut lost_phase_args(),
        &Options { schedules: 0 },
    )
    .expect("runs");
    assert!(
        clean.findings.is_empty() && clean.deadlock.is_none(),
        "{clean:#?}"
    );
    let seeded = check(
        &module,
        "lost_phase",
        &two_warps(),
        &mut lost_phase_args(),
        &Options { schedules: 64 },
    )
    .expect("runs");
    // `check` reports no finding over 64 seeds; how many of those runs hung:
    let hung: Vec<u64> = (1..=64u64)
        .filter(|&seed| {
            let hooks = tcgen05_run::Hooks {
                seed: Some(seed),
                ..Default::default()
            };
            let r = tcgen05_run::launch_with(
                &module,
                "lost_phase",
                &two_warps(),
                &mut lost_phase_args(),
                hooks,
            );
            matches!(r, Err(RunError::Deadlock { .. }))
        })
        .collect();
    eprintln!(
        "lost_phase: findings over 64 seeds {:?}; seeded runs that hung: {hung:?}",
        seeded.seeds
    );
    let x = explore(
        &module,
        "lost_phase",
        &two_warps(),
        &mut lost_phase_args(),
        10_000,
    )
    .expect("runs");
    let o = x.counterexample.expect("a counterexample");
    eprintln!(
        "lost_phase: counterexample at schedule {} (--replay {}): {:?}",
        x.schedules, o.replay, o.error
    );
    match &o.error {
        Some(RunError::Deadlock { warps, .. }) => {
            assert!(warps.iter().any(|w| w.line == 48), "{warps:?}");
        }
        other => panic!("{other:?}"),
    }
    let r = replay(
        &module,
        "lost_phase",
        &two_warps(),
        &mut lost_phase_args(),
        &o.replay,
    )
    .expect("runs");
    assert_eq!(r.error, o.error);
}
