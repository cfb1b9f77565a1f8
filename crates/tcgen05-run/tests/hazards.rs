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
