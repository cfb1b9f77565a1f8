//! One convention for flags across subcommands (issue 16 D7; README.md, "Flags: one
//! convention"): the same spelling means the same thing everywhere, old spellings still work
//! with a warning, and a number too big for its field exits 1 everywhere.

use crate::{run, warnings_of};

const SRC: &str = "README.md, Flags: one convention";

#[test]
fn num_is_written_the_same_in_tmem_and_ptx() {
    for sub in ["tmem", "ptx"] {
        let want = run(&[sub, "ld", "--shape", "32x32b", "--num", "x4"]);
        want.code(0);
        for spelling in ["4", ".x4", "X4", ".X4"] {
            let r = run(&[sub, "ld", "--shape", "32x32b", "--num", spelling]);
            r.code(0);
            assert_eq!(r.stdout, want.stdout, "{sub} ld --num {spelling}");
            assert!(r.stderr.is_empty(), "{sub} --num {spelling}: {}", r.stderr);
        }
        // A count that is no .num is the same rule error (exit 1, PTX ISA 9.7.16.8.3) in both.
        let r = run(&[sub, "ld", "--shape", "32x32b", "--num", "x256"]);
        r.code(1);
        assert!(
            r.stderr
                .starts_with("error: num = 256: .num .x256 is invalid")
                && r.stderr.contains("(PTX ISA 9.7.16.8.3)"),
            "{sub}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_number_too_big_for_its_field_exits_1_everywhere() {
    let cases: &[&[&str]] = &[
        &["decode", "smem", "0x1_0000_0000_0000_0000"],
        &["decode", "idesc", "0x1_0000_0000"],
        &["decode", "zmask", "99999999999999999999999"],
        &[
            "encode",
            "smem",
            "--start-address",
            "0x40000",
            "--lbo",
            "16",
            "--sbo",
            "16",
            "--swizzle",
            "none",
        ],
        &[
            "encode",
            "smem",
            "--start-address",
            "0x1_0000_0000_0000_0000",
            "--lbo",
            "16",
            "--sbo",
            "16",
            "--swizzle",
            "none",
        ],
        &[
            "encode", "idesc", "--kind", "f16", "--m", "128", "--n", "65536", "--a-type", "f16",
            "--b-type", "f16", "--d-type", "f32",
        ],
        &["encode", "zmask", "--skip-span", "300", "--use-span", "1"],
        &[
            "encode",
            "zmask",
            "--skip-span",
            "1",
            "--use-span",
            "1",
            "--first-span",
            "1,99999999999999999999",
        ],
        &["ptx", "mma", "--kind", "f16", "--idesc", "0x1_0000_0000"],
        &["ptx", "mma", "--kind", "f16", "--scale-input-d", "256"],
        &["ptx", "commit", "--multicast", "65536"],
        &["ptx", "alloc", "--n-cols", "0x1_0000_0000"],
        &[
            "ptx",
            "ld",
            "--shape",
            "32x32b",
            "--num",
            "x4",
            "--offset",
            "0x1_0000_0000",
        ],
        &[
            "ptx",
            "ld",
            "--shape",
            "32x32b",
            "--num",
            "99999999999999999999",
        ],
        &[
            "tmem",
            "ld",
            "--shape",
            "32x32b",
            "--num",
            "99999999999999999999",
        ],
        &["tmem", "d", "--m", "128", "--n", "0x1_0000_0000"],
        &[
            "layout",
            "desc",
            "--type",
            "f16",
            "--major",
            "k",
            "--mn",
            "99999999999999999999",
            "--k",
            "64",
            "--swizzle",
            "none",
            "--start-address",
            "0",
        ],
        &[
            "numerics",
            "error",
            "--kind",
            "f16",
            "--a-type",
            "f16",
            "--b-type",
            "f16",
            "--trials",
            "0x1_0000_0000",
        ],
        &["emulate", "--warp", "0x1_0000_0000"],
    ];
    for args in cases {
        let r = run(args);
        r.code(1);
        let first = r.stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error: ") && first.contains("does not fit"),
            "{args:?}: {}",
            r.stderr
        );
        // With --json: one object, the field named and the rule's source given.
        let mut j = args.to_vec();
        j.push("--json");
        let r = run(&j);
        r.code(1);
        let v = r.json();
        assert_eq!(v["valid"], false, "{args:?}: {v}");
        assert!(!v["errors"].as_array().expect("errors").is_empty(), "{v}");
    }
    // The message shows the value as typed, the width and the source.
    let r = run(&["ptx", "commit", "--multicast", "0x1_0000"]);
    assert_eq!(
        r.stderr,
        "error: multicast = 0x1_0000: 0x1_0000 does not fit its field (at most 0xffff, 16 bits) \
         (PTX ISA tcgen05.commit: ctaMask is a 16-bit operand)\n"
    );
    // Text that is not a number stays a usage error.
    run(&["ptx", "commit", "--multicast", "0x1g"]).code(2);
    let r = run(&["decode", "idesc", "0xg", "--json"]);
    r.code(2);
    assert_eq!(r.json()["errors"][0]["field"], "value");
}

#[test]
fn ws_and_sparse_are_switches_that_take_true_or_false_everywhere() {
    let mma = ["ptx", "mma", "--kind", "f16"];
    let plain = run(&mma);
    for off in ["--sparse=false", "--ws=false"] {
        let r = run(&[&mma[..], &[off]].concat());
        r.code(0);
        assert_eq!(r.stdout, plain.stdout, "{off}");
    }
    let sp = run(&[&mma[..], &["--sparse"]].concat());
    assert_eq!(
        sp.stdout,
        run(&[&mma[..], &["--sparse=true"]].concat()).stdout
    );
    assert!(
        sp.stdout.contains(".sp.") && sp.stdout.contains("[sp_meta]"),
        "{}",
        sp.stdout
    );
    for sub in [
        &["tmem", "d", "--m", "128", "--n", "64"][..],
        &["tmem", "a", "--m", "128", "--k", "16", "--bits", "16"],
    ] {
        for flag in ["ws", "sparse"] {
            let on = run(&[sub, &[&format!("--{flag}") as &str]].concat());
            let on2 = run(&[sub, &[&format!("--{flag}=true") as &str]].concat());
            assert_eq!(
                (on.code, &on.stdout),
                (on2.code, &on2.stdout),
                "{sub:?} --{flag}"
            );
            let off = run(&[sub, &[&format!("--{flag}=false") as &str]].concat());
            assert_eq!(off.stdout, run(sub).stdout, "{sub:?} --{flag}=false");
        }
    }
    let d = ["decode", "idesc", "0x08100490", "--kind", "f16"];
    assert_eq!(
        run(&[&d[..], &["--ws=false"]].concat()).stdout,
        run(&d).stdout
    );
    let e = [
        "encode", "idesc", "--kind", "f16", "--m", "128", "--n", "64", "--a-type", "f16",
        "--b-type", "f16", "--d-type", "f32",
    ];
    assert_eq!(
        run(&[&e[..], &["--sparse=false", "--ws=false"]].concat()).stdout,
        run(&e).stdout
    );
    run(&[&e[..], &["--sparse=true"]].concat()).code(0);
}

#[test]
fn old_spellings_still_work_and_warn() {
    // ptx mma --sparse REG -> --sparse --sparse-meta REG.
    let new = run(&[
        "ptx",
        "mma",
        "--kind",
        "f16",
        "--sparse",
        "--sparse-meta",
        "meta",
    ]);
    new.code(0);
    assert!(new.stderr.is_empty());
    for old in [&["--sparse", "meta"][..], &["--sparse=meta"]] {
        let r = run(&[&["ptx", "mma", "--kind", "f16"][..], old].concat());
        r.code(0);
        assert_eq!(r.stdout, new.stdout, "{old:?}");
        assert_eq!(
            r.stderr,
            format!(
                "warning: --sparse meta is deprecated, use --sparse --sparse-meta meta ({SRC})\n"
            )
        );
    }
    // tmem sf --vec V (and a bare 1/2/4) -> --scale-vec VX.
    let sf = ["tmem", "sf", "--operand", "a", "--m", "128", "--n", "64"];
    let new = run(&[&sf[..], &["--scale-vec", "2X"]].concat());
    new.code(0);
    assert!(new.stderr.is_empty());
    for (old, typed) in [
        (&["--vec", "2X"][..], "--vec 2X"),
        (&["--vec=2x"], "--vec 2x"),
        (&["--vec", "2"], "--vec 2"),
        (&["--scale-vec", "2"], "--scale-vec 2"),
    ] {
        let r = run(&[&sf[..], old].concat());
        r.code(0);
        assert_eq!(r.stdout, new.stdout, "{old:?}");
        let want_new = if typed.ends_with("2x") { "2x" } else { "2X" };
        assert_eq!(
            r.stderr,
            format!("warning: {typed} is deprecated, use --scale-vec {want_new} ({SRC})\n"),
        );
    }
    // With --json the warning is in the one object printed.
    let r = run(&[&sf[..], &["--vec", "2X", "--json"]].concat());
    r.code(0);
    let v = r.json();
    assert_eq!(v["scale_vec"], "2X");
    assert_eq!(
        warnings_of(&v),
        vec![("scale_vec".to_string(), SRC.to_string())]
    );
    let r = run(&["ptx", "mma", "--kind", "f16", "--sparse", "m", "--json"]);
    assert_eq!(
        warnings_of(&r.json()),
        vec![("sparse".to_string(), SRC.to_string())]
    );
}

#[test]
fn scale_vec_has_one_name_and_one_set_of_spellings() {
    let sf = [
        "tmem",
        "sf",
        "--operand",
        "a",
        "--m",
        "128",
        "--n",
        "64",
        "--scale-vec",
    ];
    let want = run(&[&sf[..], &["2X"]].concat()).stdout;
    for s in ["2x", ".scale_vec::2X", "scale_vec::2x"] {
        assert_eq!(
            run(&[&sf[..], &[s]].concat()).stdout,
            want,
            "tmem sf --scale-vec {s}"
        );
    }
    let mma = ["ptx", "mma", "--kind", "mxf4", "--scale-vec"];
    let want = run(&[&mma[..], &["2X"]].concat()).stdout;
    for s in ["2x", ".scale_vec::2X", "scale_vec::2x"] {
        assert_eq!(
            run(&[&mma[..], &[s]].concat()).stdout,
            want,
            "ptx mma --scale-vec {s}"
        );
    }
}

#[test]
fn names_are_read_in_any_case() {
    for (lower, upper) in [
        (
            &["shapes", "--kind", "f16", "--target", "sm_100a"][..],
            &["shapes", "--kind", "F16", "--target", "SM_100A"][..],
        ),
        (
            &[
                "ptx",
                "ld",
                "--shape",
                "32x32b",
                "--num",
                "x4",
                "--red",
                "min",
                "--red-type",
                "f32",
                "--target",
                "sm_103a",
            ],
            &[
                "ptx",
                "ld",
                "--shape",
                "32X32B",
                "--num",
                "X4",
                "--red",
                "MIN",
                "--red-type",
                "F32",
                "--target",
                "Sm_103A",
            ],
        ),
        (
            &[
                "tmem",
                "cp",
                "--shape",
                "64x128b",
                "--multicast",
                "warpx2::01_23",
            ],
            &[
                "tmem",
                "cp",
                "--shape",
                "64X128B",
                "--multicast",
                "WARPX2::01_23",
            ],
        ),
        (
            &["ptx", "fence", "before-thread-sync"],
            &["ptx", "fence", "BEFORE-THREAD-SYNC"],
        ),
        (
            &["ptx", "mma", "--kind", "f16", "--collector", "a::fill"],
            &["ptx", "mma", "--kind", "F16", "--collector", "A::FILL"],
        ),
        (
            &[
                "encode",
                "smem",
                "--start-address",
                "0",
                "--lbo",
                "16",
                "--sbo",
                "16",
                "--swizzle",
                "128b",
            ],
            &[
                "encode",
                "smem",
                "--start-address",
                "0",
                "--lbo",
                "16",
                "--sbo",
                "16",
                "--swizzle",
                "128B",
            ],
        ),
        (
            &[
                "numerics", "dot", "--kind", "f16", "--a-type", "f16", "--b-type", "f16", "--arch",
                "sm_100a", "--a", "1", "--b", "1",
            ],
            &[
                "numerics", "dot", "--kind", "F16", "--a-type", "F16", "--b-type", "F16", "--arch",
                "SM_100A", "--a", "1", "--b", "1",
            ],
        ),
    ] {
        let a = run(lower);
        let b = run(upper);
        a.code(0);
        assert_eq!(
            (b.code, &b.stdout),
            (0, &a.stdout),
            "{upper:?}: {}",
            b.stderr
        );
    }
    // The alias warning does not depend on case either.
    assert!(run(&["shapes", "--target", "SM_101A"])
        .stderr
        .contains("sm_101a"));
}
