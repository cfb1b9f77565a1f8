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

/// The CTA pair under `--hazards` (a cluster of 2 from `.reqnctapercluster`): the hand-written
/// `pair_alloc.ptx` is clean; without its `barrier.cluster` between alloc and dealloc (the
/// lines marked PEER, NVIDIA/cutlass#3435) one CTA's dealloc is not ordered after its peer's
/// alloc: `pair-dealloc-early` at the dealloc, the other line the alloc, both CTA ranks in JSON.
#[test]
fn pair_dealloc_before_the_peers_alloc_names_both_ranks() {
    let src = std::fs::read_to_string(repo("crates/tcgen05-run/tests/pair/pair_alloc.ptx"))
        .expect("pair_alloc.ptx");
    let line_of = |what: &str| {
        1 + src
            .lines()
            .position(|l| l.contains(what) && !l.trim_start().starts_with("//"))
            .expect("instruction") as u64
    };
    let (alloc, dealloc) = (
        line_of("tcgen05.alloc.cta_group::2"),
        line_of("tcgen05.dealloc.cta_group::2"),
    );
    let buggy: Vec<&str> = src
        .lines()
        .map(|l| if l.contains("// PEER") { "" } else { l })
        .collect();
    let dir = std::env::temp_dir().join(format!("tcgen05-hz-pair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (ptx, out) = (dir.join("pair.ptx"), dir.join("out.bin"));
    std::fs::write(&ptx, buggy.join("\n")).expect("write ptx");
    std::fs::write(&out, vec![0u8; 1024]).expect("write out");
    let out_arg = format!("0={}", out.display());
    let args = |file: &str, json: bool| {
        let mut a = vec![
            "run".to_string(),
            file.to_string(),
            "--kernel".into(),
            "pair_alloc".into(),
            "--grid".into(),
            "2".into(),
            "--block".into(),
            "128".into(),
            "--arg".into(),
            out_arg.clone(),
            "--hazards".into(),
        ];
        if json {
            a.push("--json".into());
        }
        a
    };
    let clean = args(&repo("crates/tcgen05-run/tests/pair/pair_alloc.ptx"), false);
    run(&clean.iter().map(String::as_str).collect::<Vec<_>>()).code(0);
    let buggy = args(&ptx.to_string_lossy(), true);
    let r = run(&buggy.iter().map(String::as_str).collect::<Vec<_>>());
    let j = r.code(1).json();
    let hazards = j["hazards"].as_array().expect("hazards array");
    assert_eq!(hazards.len(), 1, "{j}");
    let h = &hazards[0];
    assert_eq!(h["kind"], "pair-dealloc-early");
    assert_eq!(
        (h["line"].as_u64(), h["other_line"].as_u64()),
        (Some(dealloc), Some(alloc))
    );
    let ranks = (
        h["rank"].as_u64().expect("rank"),
        h["other_rank"].as_u64().expect("other"),
    );
    assert_eq!(ranks.0 ^ 1, ranks.1, "{h}");
}
