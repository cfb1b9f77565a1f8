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
        .unwrap_or(3);
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
