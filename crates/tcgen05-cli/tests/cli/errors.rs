//! Usage errors (exit status 2) and the shape of every error line.

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::prelude::*;

use crate::run;

#[test]
fn malformed_numbers_exit_2() {
    for (what, bad) in [
        ("smem", "0x"),
        ("smem", "-1"),
        ("smem", "1f"),
        ("smem", "0xg"),
        ("smem", ""),
        ("smem", " "),
        ("smem", "0b101"),
        ("smem", "1.5"),
        ("idesc", "nan"),
    ] {
        let r = run(&["decode", what, bad]);
        r.code(2);
        assert!(r.stderr.starts_with("error:"), "{bad}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    // A number too big for its field is a rule error (exit status 1), as in every subcommand
    // (README.md, Flags: one convention).
    for (what, big) in [
        ("smem", "0x1_0000_0000_0000_0000"),
        ("smem", "18446744073709551616"),
        ("zmask", "99999999999999999999999"),
        ("idesc", "0x1_0000_0000"),
        ("idesc", "4294967296"),
    ] {
        let r = run(&["decode", what, big]);
        r.code(1);
        assert!(
            r.stderr.starts_with(&format!(
                "error: value = {big}: {big} does not fit its field"
            )),
            "{big}: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty());
    }
    // Largest values are fine.
    run(&["decode", "idesc", "0xffff_ffff"]).code(1);
    run(&["decode", "smem", "18446744073709551615"]).code(1);
    for flag in [
        vec![
            "encode",
            "smem",
            "--start-address",
            "0x4g0",
            "--lbo",
            "16",
            "--sbo",
            "1024",
            "--swizzle",
            "128B",
        ],
        vec!["encode", "zmask", "--skip-span", "two", "--use-span", "3"],
        vec![
            "encode",
            "zmask",
            "--skip-span",
            "2",
            "--use-span",
            "3",
            "--first-span",
            "1,x",
        ],
        vec!["solve", "zmask", "--m", "1e2", "--n", "64", "--mask", "0"],
    ] {
        run(&flag).code(2);
    }
}

#[test]
fn unknown_names_and_flags_exit_2() {
    for args in [
        vec!["decode", "smem", "0", "--target", "sm_90a"],
        vec!["decode", "smem", "0", "--target", ""],
        vec!["decode", "idesc", "0", "--kind", "f64"],
        vec!["decode", "idesc", "0", "--cta-group", "3"],
        vec!["decode", "zmask", "0", "--max-shift", "7"],
        vec!["decode", "smem", "0", "--frobnicate"],
        vec!["decode", "tmem", "0"],
        vec!["frobnicate"],
        vec!["decode", "smem"],
        vec!["decode", "smem", "1", "2"],
        vec![
            "encode", "idesc", "--kind", "f16", "--m", "64", "--n", "64", "--d-type", "f16",
            "--a-type", "f8", "--b-type", "f16",
        ],
        vec![
            "encode",
            "idesc",
            "--kind",
            "mxf4",
            "--m",
            "128",
            "--n",
            "64",
            "--a-type",
            "e2m1",
            "--b-type",
            "e2m1",
            "--scale-type",
            "ue5m3",
        ],
        vec![
            "encode",
            "smem",
            "--start-address",
            "0",
            "--lbo",
            "0",
            "--sbo",
            "0",
            "--swizzle",
            "256B",
        ],
    ] {
        let r = run(&args);
        r.code(2);
        assert!(r.stderr.starts_with("error:"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn rejected_targets_exit_1_with_the_r17_message() {
    for t in ["sm_120a", "sm_121a", "sm_120"] {
        cargo_bin_cmd!("tcgen05")
            .args(["decode", "smem", "0x4000404000010040", "--target", t])
            .assert()
            .code(1)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::starts_with(
                "error: target: no tcgen05 on consumer Blackwell",
            ))
            .stderr(predicate::str::contains("(rules.md R17)"));
    }
    cargo_bin_cmd!("tcgen05")
        .args(["decode", "smem", "-", "--target", "sm_120a"])
        .write_stdin("0x4000404000010040\n")
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
    // sm_100 without a suffix has no tcgen05 either.
    cargo_bin_cmd!("tcgen05")
        .args(["shapes", "--target", "sm_100"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("'a') or family ('f') target"));
    // sm_101a is the old name of sm_110a.
    cargo_bin_cmd!("tcgen05")
        .args([
            "decode",
            "smem",
            "0x4000404000010040",
            "--target",
            "sm_101a",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("for sm_110a"));
}

#[test]
fn error_lines_name_field_value_and_source() {
    let r = run(&["decode", "smem", "0xffffffffffffffff"]);
    r.code(1);
    for line in r.stderr_lines() {
        // error: FIELD = VALUE: MESSAGE (SOURCE)
        let rest = line.strip_prefix("error: ").expect("error line");
        let (field, rest) = rest.split_once(" = ").expect("field = value");
        assert!(!field.is_empty());
        let (value, _) = rest.split_once(": ").expect("value: message");
        assert!(!value.is_empty());
        assert!(
            line.ends_with(')') && (line.contains("(PTX ISA ") || line.contains("(rules.md R")),
            "{line}"
        );
    }
}

#[test]
fn colour_only_when_asked() {
    let plain = run(&["decode", "smem", "0x6000000000004040"]);
    assert!(!plain.stdout.contains('\x1b'));
    let r = run(&["decode", "smem", "0x6000000000004040", "--color", "always"]);
    assert!(r.stdout.contains("\x1b[") && r.stderr.contains("\x1b["));
    let never = run(&["decode", "smem", "0x6000000000004040", "--color", "never"]);
    assert_eq!(never.stdout, plain.stdout);
    // JSON is never coloured.
    let j = run(&[
        "decode",
        "smem",
        "0x6000000000004040",
        "--color",
        "always",
        "--json",
    ]);
    assert!(!j.stdout.contains('\x1b'));
    j.json();
}

#[test]
fn global_flags_go_anywhere() {
    let a = run(&["--json", "decode", "smem", "0x4000404000010040"])
        .code(0)
        .json();
    let b = run(&["decode", "smem", "0x4000404000010040", "--json"])
        .code(0)
        .json();
    assert_eq!(a, b);
    let c = run(&["decode", "--json", "smem", "0x4000404000010040"])
        .code(0)
        .json();
    assert_eq!(a, c);
}

/// Every failing `--json` run prints exactly one JSON object with a non-empty `errors` list
/// (stderr keeps the human lines); the exit status stays that of the failure.
#[test]
fn every_json_failure_is_one_object_with_errors() {
    for args in [
        &["tmem", "a", "--m", "128", "--k", "1025", "--bits", "16"][..],
        &["tmem", "d", "--m", "128", "--n", "8", "--ws"][..],
        &["tmem", "d", "--m", "48", "--n", "64"][..],
        &[
            "decode",
            "smem",
            "0x4000404000010040",
            "--target",
            "sm_120a",
        ][..],
        &["decode", "idesc", "0x08100490", "--target", "sm_120a"][..],
        &[
            "decode",
            "zmask",
            "0x0003028000000000",
            "--m",
            "512",
            "--n",
            "128",
        ][..],
        &["decode", "idesc", "0xFFFFFFFF"][..],
        &["shapes", "--target", "sm_120a"][..],
    ] {
        let r = crate::run(&[args, &["--json"][..]].concat());
        assert_eq!(r.code, 1, "{args:?}: {r:#?}");
        let v = r.json();
        let errors = v["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{args:?}: {v}"));
        assert!(!errors.is_empty(), "{args:?}: {v}");
        for e in errors {
            assert!(e["field"].is_string() && e["message"].is_string() && e["source"].is_string());
        }
        assert_eq!(v["valid"], false, "{args:?}: {v}");
    }
}

/// Sizes are bounded where the rule lives: K of A in Tensor Memory (512 columns), the `.ws`
/// N of Table 39, and the shapes that have 4-bit A (mxf4 / mxf4nvf4 only).
#[test]
fn tmem_sizes_follow_table_39_and_tensor_memory() {
    let r = crate::run(&[
        "tmem",
        "a",
        "--m",
        "128",
        "--k",
        "4294967295",
        "--bits",
        "16",
        "--json",
    ]);
    r.code(1);
    assert_eq!(r.json()["errors"][0]["field"], "k");
    crate::run(&["tmem", "a", "--m", "128", "--k", "1024", "--bits", "16"]).code(0);
    let r = crate::run(&["tmem", "a", "--m", "128", "--k", "1025", "--bits", "16"]);
    r.code(1);
    assert!(
        r.stderr
            .contains("k = 1025: K = 1025 does not fit Tensor Memory"),
        "{}",
        r.stderr
    );
    for args in [
        &["tmem", "d", "--m", "128", "--n", "8", "--ws"][..],
        &["tmem", "d", "--m", "128", "--n", "256", "--ws", "--sparse"][..],
        &["tmem", "d", "--m", "64", "--n", "256", "--ws", "--sparse"][..],
    ] {
        let r = crate::run(args);
        r.code(1);
        assert!(
            r.stderr.contains("is not an N of Table 39"),
            "{args:?}: {}",
            r.stderr
        );
    }
    crate::run(&["tmem", "d", "--m", "128", "--n", "256", "--ws"]).code(0);
    crate::run(&["tmem", "d", "--m", "64", "--n", "128", "--ws", "--sparse"]).code(0);
    for args in [
        &["tmem", "a", "--m", "64", "--k", "8", "--bits", "4"][..],
        &["tmem", "a", "--m", "32", "--ws", "--k", "8", "--bits", "4"][..],
        &["tmem", "a", "--m", "128", "--ws", "--k", "8", "--bits", "4"][..],
        &[
            "tmem",
            "a",
            "--m",
            "128",
            "--cta-group",
            "2",
            "--sparse",
            "--k",
            "8",
            "--bits",
            "4",
        ][..],
    ] {
        let r = crate::run(args);
        r.code(1);
        assert!(
            r.stderr.contains("no MMA with 4-bit A"),
            "{args:?}: {}",
            r.stderr
        );
    }
    for args in [
        &["tmem", "a", "--m", "128", "--k", "8", "--bits", "4"][..],
        &[
            "tmem", "a", "--m", "128", "--sparse", "--k", "8", "--bits", "4",
        ][..],
        &[
            "tmem",
            "a",
            "--m",
            "128",
            "--cta-group",
            "2",
            "--k",
            "8",
            "--bits",
            "4",
        ][..],
        &[
            "tmem",
            "a",
            "--m",
            "256",
            "--cta-group",
            "2",
            "--sparse",
            "--k",
            "8",
            "--bits",
            "4",
        ][..],
        &["tmem", "a", "--m", "64", "--k", "8", "--bits", "8"][..],
    ] {
        crate::run(args).code(0);
    }
}

/// Issue 16 D5: `sm_101a` is read as `sm_110a`; the run says so (a warning from the library,
/// rules.md R17), and the help says so.
#[test]
fn target_alias_warns() {
    let idesc = [
        "encode", "idesc", "--kind", "f16", "--m", "128", "--n", "64", "--d-type", "f32",
        "--a-type", "f16", "--b-type", "f16",
    ];
    let r = run(&[&idesc[..], &["--target", "sm_101a"]].concat());
    r.code(0);
    assert_eq!(
        r.stderr_lines(),
        ["warning: target = sm_101a: sm_101a is an alias: it was renamed sm_110a in PTX ISA 9.0 \
          and is checked and written as sm_110a (.target sm_110a, PTX ISA 9.0 or later) \
          (rules.md R17)"]
    );
    let r = run(&[
        "ptx",
        "fence",
        "before-thread-sync",
        "--target=sm_101f",
        "--preamble",
    ]);
    r.code(0);
    assert!(r.stdout.contains(".target sm_110f"), "{}", r.stdout);
    assert!(
        r.stderr.starts_with("warning: target = sm_101f:"),
        "{}",
        r.stderr
    );
    let r = run(&[&idesc[..], &["--target", "sm_110a"]].concat());
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let help = run(&["encode", "idesc", "--help"]).stdout;
    assert!(
        help.contains("sm_101a and sm_101f are aliases of sm_110a and sm_110f"),
        "{help}"
    );
}

/// Issue 16 D5: a flag given twice keeps its last value, and the run says so; flags that are
/// meant to repeat (`--dst`) say nothing.
#[test]
fn repeated_flag_warns() {
    let r = run(&[
        "encode", "idesc", "--kind", "f16", "--m", "128", "--n", "64", "--d-type", "f32",
        "--a-type", "f16", "--b-type", "f16", "--m=64", "--json",
    ]);
    r.code(0);
    assert_eq!(r.json()["fields"]["m"], 64);
    assert_eq!(
        r.stderr_lines(),
        ["warning: --m is given 2 times (128, 64); only the last, 64, is used"]
    );
    let r = run(&[
        "ptx",
        "fence",
        "before-thread-sync",
        "--preamble",
        "--preamble",
    ]);
    r.code(0);
    assert_eq!(r.stderr_lines(), ["warning: --preamble is given 2 times"]);
    let r = run(&[
        "layout",
        "tma",
        "0x4000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "128",
        "--k",
        "16",
        "--swizzle",
        "128B",
        "--box",
        "32x128",
        "--dst",
        "0x400",
        "--box-origin",
        "0,0",
        "--dst",
        "0x4400",
        "--box-origin",
        "32,0",
    ]);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}
