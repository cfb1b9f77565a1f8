//! The races `hw/run/race/plant.py` plants in three Hopper kernels: the checker finds each on
//! the CPU (at the planted line, with its kind), and the Hopper GPU gave wrong numbers for them
//! (`hw/run/race/results/`, recorded by `hw/run/race/run.sh`, differ from the clean kernels'
//! outputs `hw/run/results/`).

mod common;

use common::hopper_cases::cases;
use common::inputs::repo;
use tcgen05_run::hazard::{check, HazardKind, Options};
use tcgen05_run::Module;

fn race_ptx(name: &str) -> String {
    std::fs::read_to_string(repo(&format!("hw/run/race/ptx/{name}.ptx"))).expect("race ptx")
}

/// (kernel, kind, the planted line: the finding's line or between its two lines).
const PLANTED: [(&str, HazardKind, u32); 3] = [
    ("row_sum", HazardKind::DataRace, 166),
    ("dot_f16", HazardKind::DataRace, 578),
    ("dot_tma", HazardKind::WaitParity, 235),
];

#[test]
fn planted_races_are_found_on_the_cpu() {
    for (name, kind, line) in PLANTED {
        let mut c = cases().into_iter().find(|c| c.name == name).expect("case");
        let module = Module::read(&race_ptx(name)).expect("reads");
        let report = check(&module, name, &c.config(), &mut c.args, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let hit = report.findings.iter().any(|f| {
            f.kind == kind
                && (f.line == line
                    || f.other_line
                        .is_some_and(|o| o.min(f.line) < line && line < o.max(f.line)))
        });
        assert!(hit, "{name}: {:#?}", report.findings);
    }
}

fn bytes(path: &str) -> Vec<u8> {
    std::fs::read(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Elements (4 bytes) of a planted kernel's GPU output that differ from the clean kernel's.
fn differing(name: &str, run: u32) -> usize {
    let clean = bytes(&format!("hw/run/results/{name}.out"));
    let raced = bytes(&format!("hw/run/race/results/{name}.run{run}.out"));
    assert_eq!(clean.len(), raced.len(), "{name}");
    clean
        .chunks(4)
        .zip(raced.chunks(4))
        .filter(|(a, b)| a != b)
        .count()
}

#[test]
fn the_gpu_gave_wrong_numbers_for_the_planted_races() {
    for run in 1..=8 {
        assert!(differing("row_sum", run) >= 5, "row_sum run {run}");
    }
    for run in 1..=2 {
        assert_eq!(differing("dot_tma", run), 128 * 128, "dot_tma run {run}");
    }
    // dot_f16's race did not show on the GPU: the checker finds what the hardware hid.
    assert_eq!(differing("dot_f16", 1), 0);
}
