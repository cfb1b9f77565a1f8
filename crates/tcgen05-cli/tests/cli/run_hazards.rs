//! `tcgen05 run --hazards`: the Triton row_sum kernel of hw/run/ptx is clean (exit 0, default
//! schedule and seeded ones); the copy hw/run/race/plant.py made of it without its publishing
//! `bar.sync` (line 166) has data races across that line (exit 1), in text and in one JSON
//! object with a "hazards" array.

use std::path::PathBuf;

use super::run;

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

fn row_sum(ptx: &str, extra: &[&str]) -> super::Run {
    let dir = std::env::temp_dir().join(format!("tcgen05-hz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (x, sums) = (dir.join("x.bin"), dir.join("sums.bin"));
    std::fs::write(&x, vec![0u8; 4 * 8000]).expect("write x");
    std::fs::write(&sums, vec![0u8; 48]).expect("write sums");
    let (xa, sa) = (
        format!("0={}", x.display()),
        format!("1={}", sums.display()),
    );
    let mut args = vec![
        "run",
        ptx,
        "--kernel",
        "row_sum",
        "--grid",
        "8",
        "--block",
        "128",
        "--shared",
        "16",
        "--arg",
        &xa,
        "--arg",
        &sa,
        "--arg",
        "2=1000",
        "--arg",
        "3=0",
        "--arg",
        "4=0",
        "--hazards",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn clean_kernel_has_no_hazards() {
    let r = row_sum(&repo("hw/run/ptx/row_sum.ptx"), &["--schedules", "2"]);
    r.code(0);
    assert!(
        r.stdout.contains("0 hazard(s) in row_sum over 3 run(s)"),
        "{}",
        r.stdout
    );
    let j = row_sum(&repo("hw/run/ptx/row_sum.ptx"), &["--json"])
        .code(0)
        .json();
    assert_eq!(j["ok"], true);
    assert_eq!(j["hazards"].as_array().map(Vec::len), Some(0));
}

#[test]
fn deleted_barrier_is_a_data_race_across_its_line() {
    let ptx = repo("hw/run/race/ptx/row_sum.ptx");
    let r = row_sum(&ptx, &[]);
    r.code(1);
    assert!(r.stdout.contains(": data-race: "), "{}", r.stdout);
    let j = row_sum(&ptx, &["--json"]).code(1).json();
    assert_eq!(j["ok"], false);
    let hazards = j["hazards"].as_array().expect("hazards array");
    assert!(!hazards.is_empty());
    for h in hazards {
        assert_eq!(h["kind"], "data-race");
        let (a, b) = (
            h["line"].as_u64().expect("line"),
            h["other_line"].as_u64().expect("other_line"),
        );
        assert!(a.min(b) < 166 && 166 < a.max(b), "{h}");
        for key in ["thread", "other_thread", "address", "message", "source"] {
            assert!(!h[key].is_null(), "{key} in {h}");
        }
    }
}
