//! `tcgen05 run --hazards --exhaustive` and `--replay`: the hand-written mbarrier protocol of
//! crates/tcgen05-run/tests/explore (its consumer's parity-0 wait also matches phase 0, so a
//! late producer is read before it writes) is clean on the default schedule, and the
//! exhaustive walk finds the data race, prints a token, and `--replay TOKEN` shows the same
//! findings; its fix is clean over every schedule; flags and JSON.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use super::run;

fn kernel(name: &str, extra: &[&str]) -> super::Run {
    let ptx = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tcgen05-run/tests/explore")
        .join(format!("{name}.ptx"));
    let dir = std::env::temp_dir().join(format!("tcgen05-ex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // One file per call: the tests run in parallel.
    static CALLS: AtomicU32 = AtomicU32::new(0);
    let out = dir.join(format!("out{}.bin", CALLS.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&out, [0u8; 4]).expect("write out");
    let (ptx, arg) = (
        ptx.to_string_lossy().into_owned(),
        format!("out={}", out.display()),
    );
    let mut args = vec![
        "run",
        &ptx,
        "--kernel",
        name,
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        &arg,
        "--hazards",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn exhaustive_finds_what_the_default_schedule_misses_and_replays_it() {
    kernel("phase_skip", &[]).code(0);
    let r = kernel("phase_skip", &["--exhaustive"]);
    r.code(1);
    assert!(
        r.stdout.contains(":33 (and line 44): data-race: "),
        "{}",
        r.stdout
    );
    let j = kernel("phase_skip", &["--exhaustive", "--json"])
        .code(1)
        .json();
    assert_eq!(j["ok"], false);
    assert_eq!(j["mode"], "exhaustive");
    assert_eq!(j["exhausted"], false);
    assert_eq!(j["cut"], false);
    let token = j["replay"].as_str().expect("a token").to_string();
    assert!(
        r.stdout.contains(&format!("--replay {token}")),
        "{}",
        r.stdout
    );
    let n = j["schedules_explored"].as_u64().expect("count");
    assert!(n > 1, "{n}");
    let again = kernel("phase_skip", &["--replay", &token, "--json"])
        .code(1)
        .json();
    assert_eq!(again["mode"], "replay");
    assert_eq!(again["replay"], j["replay"]);
    assert_eq!(again["hazards"], j["hazards"]);
    assert_eq!(again["schedules_explored"], 1);
}

#[test]
fn exhaustive_walk_of_the_fix_is_clean_or_cut() {
    let r = kernel("phase_all", &["--exhaustive"]);
    r.code(0);
    assert!(r.stdout.contains("every schedule explored"), "{}", r.stdout);
    let j = kernel("phase_all", &["--exhaustive", "--json"])
        .code(0)
        .json();
    assert_eq!(
        (j["ok"].clone(), j["exhausted"].clone()),
        (true.into(), true.into())
    );
    assert_eq!(j["replay"], serde_json::Value::Null);
    assert!(j["schedules_explored"].as_u64().expect("count") > 1);
    let cut = kernel(
        "phase_all",
        &["--exhaustive", "--max-schedules", "3", "--json"],
    )
    .code(0)
    .json();
    assert_eq!(cut["schedules_explored"], 3);
    assert_eq!(
        (cut["exhausted"].clone(), cut["cut"].clone()),
        (false.into(), true.into())
    );
    let t = kernel("phase_all", &["--exhaustive", "--max-schedules", "3"]);
    assert!(t.stdout.contains("NOT exhaustive"), "{}", t.stdout);
}

#[test]
fn bad_flags_and_tokens_are_refused() {
    let j = kernel("phase_all", &["--replay", "0.x", "--json"])
        .code(2)
        .json();
    assert!(j["errors"][0]
        .as_str()
        .expect("error")
        .contains("`x` is not a choice index"));
    let j = kernel("phase_all", &["--replay", "0.7", "--json"])
        .code(2)
        .json();
    assert!(j["errors"][0]
        .as_str()
        .expect("error")
        .contains("choice 7 at choice point 1"));
    kernel("phase_all", &["--exhaustive", "--schedules", "2"]).code(2);
    kernel("phase_all", &["--exhaustive", "--replay", "0"]).code(2);
    kernel("phase_all", &["--max-schedules", "2"]).code(2);
}

/// `check --hazards --exhaustive` on the file: the same counterexample as `run`, its token
/// printed as `--replay KERNEL=TOKEN`, which `check --replay` runs again; the fix is walked
/// whole; a bound cuts the walk (NOT exhaustive); a token that does not fit is exit 2.
#[test]
fn check_hazards_walks_every_kernel_and_replays_its_token() {
    let file = |name: &str| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tcgen05-run/tests/explore")
            .join(format!("{name}.ptx"))
            .to_string_lossy()
            .into_owned()
    };
    let (skip, all) = (file("phase_skip"), file("phase_all"));
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "--hazards", "--block", "64"];
        args.extend_from_slice(extra);
        run(&args)
    };
    check(&[&skip]).code(0);
    let r = check(&[&skip, "--exhaustive"]);
    r.code(1);
    assert!(
        r.stdout
            .contains(":33 (and line 44): data-race in phase_skip: "),
        "{}",
        r.stdout
    );
    let j = check(&[&skip, "--exhaustive", "--json"]).code(1).json();
    let walk = &j["files"][0]["hazard_kernels"][0]["walk"];
    assert_eq!(walk["mode"], "exhaustive");
    assert_eq!(walk["cut"], false);
    let token = walk["replay"].as_str().expect("a token").to_string();
    assert!(
        r.stdout.contains(&format!(
            "reproduce it with --hazards --replay phase_skip={token}"
        )),
        "{}",
        r.stdout
    );
    let spec = format!("phase_skip={token}");
    let again = check(&[&skip, "--replay", &spec, "--json"]).code(1).json();
    assert_eq!(again["files"][0]["hazards"], j["files"][0]["hazards"]);
    assert_eq!(
        again["files"][0]["hazard_kernels"][0]["walk"]["mode"],
        "replay"
    );
    let r = check(&[&all, "--exhaustive"]);
    r.code(0);
    assert!(
        r.stdout
            .contains("0 hazard(s) in phase_all: every schedule explored ("),
        "{}",
        r.stdout
    );
    let r = check(&[&all, "--exhaustive", "--max-schedules", "3"]);
    r.code(0);
    assert!(
        r.stdout.contains("over 3 schedules")
            && r.stdout
                .contains("NOT exhaustive, stopped at --max-schedules 3"),
        "{}",
        r.stdout
    );
    check(&[&all, "--replay", "phase_all=9.9"]).code(2);
    check(&[&all, "--replay", "nope=1"]).code(2);
    check(&[&all, "--replay", "phase_all"]).code(2);
}
