//! The hazard checker on the Triton kernels of `hw/run/ptx`: no finding on the kernels as
//! compiled (default schedule and seeded ones).

mod common;

use common::hopper_cases::{cases, ptx};
use tcgen05_run::hazard::{check, Options};
use tcgen05_run::Module;

#[test]
fn hopper_kernels_are_clean() {
    let schedules: u32 = std::env::var("HAZARD_SCHEDULES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    for mut c in cases() {
        let module = Module::read(&ptx(c.name)).expect("reads");
        let report = check(
            &module,
            c.name,
            &c.config(),
            &mut c.args,
            &Options { schedules },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert!(
            report.findings.is_empty(),
            "{}: seeds {:?}: {:#?}",
            c.name,
            report.seeds,
            report.findings
        );
        eprintln!("{}: clean over {} runs", c.name, report.runs);
    }
}

/// The cost of hazard tracking against the plain run, kernel by kernel, in the same process
/// (best of 3 each), and the kernels clean over `HAZARD_SCHEDULES` seeded schedules.
/// `cargo test --release -p tcgen05-run --test hazards -- --ignored --nocapture`.
#[test]
#[ignore = "a benchmark: run in release"]
fn cost_of_hazard_tracking() {
    use std::time::Instant;
    use tcgen05_run::launch;
    let best = |f: &mut dyn FnMut()| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (mut plain_total, mut checked_total) = (0.0, 0.0);
    for c in cases() {
        let module = Module::read(&ptx(c.name)).expect("reads");
        let plain = best(&mut || {
            let mut args = c.args.clone();
            launch(&module, c.name, &c.config(), &mut args).expect("runs");
        });
        let checked = best(&mut || {
            let mut args = c.args.clone();
            let r = check(&module, c.name, &c.config(), &mut args, &Options::default());
            assert!(r.expect("runs").findings.is_empty());
        });
        plain_total += plain;
        checked_total += checked;
        eprintln!(
            "{:<10} plain {:>8.4} s  hazards {:>8.4} s  x{:.2}",
            c.name,
            plain,
            checked,
            checked / plain
        );
    }
    eprintln!(
        "all        plain {plain_total:>8.4} s  hazards {checked_total:>8.4} s  x{:.2}",
        checked_total / plain_total
    );
}

/// `dot_tma` with its first `mbarrier.init` count raised from 1 to 2 (line 66 of the PTX):
/// the first stage's phase never completes, so the run stops with a typed deadlock naming each
/// of the 4 warps at the `try_wait` of line 235 (found in the PTX text below), not a hang.
#[test]
fn a_phase_that_never_completes_is_a_deadlock_not_a_hang() {
    use tcgen05_run::{launch, RunError};
    let mut c = cases()
        .into_iter()
        .find(|c| c.name == "dot_tma")
        .expect("case");
    let text = ptx("dot_tma");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(lines[65].contains("mbarrier.init.shared::cta.b64 [%r6], 1;"));
    lines[65] = lines[65].replace("[%r6], 1;", "[%r6], 2;");
    let wait_line = 1 + lines
        .iter()
        .position(|l| l.contains("mbarrier.try_wait.parity"))
        .expect("a try_wait") as u32;
    let module = Module::read(&lines.join("\n")).expect("reads");
    match launch(&module, "dot_tma", &c.config(), &mut c.args) {
        Err(RunError::Deadlock { warps, .. }) => {
            assert_eq!(warps.len(), 4);
            for w in &warps {
                assert_eq!(w.line, wait_line, "{w:?}");
                assert!(w.waits_for.contains("1 of 2 arrivals pending"), "{w:?}");
            }
        }
        other => panic!("expected a deadlock, got {other:?}"),
    }
}
