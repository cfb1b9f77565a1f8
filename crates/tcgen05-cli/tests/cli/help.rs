//! Every subcommand's `--help` carries a worked example.

use crate::run;

#[test]
fn every_help_has_an_example() {
    for args in [
        &[][..],
        &["decode"][..],
        &["decode", "smem"][..],
        &["decode", "idesc"][..],
        &["decode", "zmask"][..],
        &["encode"][..],
        &["encode", "smem"][..],
        &["encode", "idesc"][..],
        &["encode", "zmask"][..],
        &["solve"][..],
        &["solve", "zmask"][..],
        &["shapes"][..],
    ] {
        for h in ["--help", "-h"] {
            let r = run(&[args, &[h]].concat());
            r.code(0);
            assert!(r.stdout.contains("Example"), "{args:?} {h}:\n{}", r.stdout);
            assert!(r.stdout.contains("tcgen05 "), "{args:?} {h}");
        }
    }
    let r = run(&["decode", "smem", "--help"]);
    assert!(r.stdout.contains("Batch mode"));
    assert!(r.stdout.contains("Exit status"));
    let r = run(&["--version"]);
    r.code(0);
    assert!(r.stdout.starts_with("tcgen05 "));
    // No subcommand: usage error.
    run(&[]).code(2);
}

#[test]
fn help_examples_run() {
    // The commands shown in the help texts do what the help says.
    run(&["decode", "smem", "0x4000404000010040"]).code(0);
    run(&[
        "decode",
        "idesc",
        "0x08100490",
        "--kind",
        "f16",
        "--cta-group",
        "1",
        "--target",
        "sm_100a",
        "--json",
    ])
    .code(0);
    run(&[
        "decode",
        "zmask",
        "0x0203028301020100",
        "--m",
        "32",
        "--n",
        "64",
    ])
    .code(0);
    run(&[
        "decode",
        "zmask",
        "0x0003028000000000",
        "--m",
        "128",
        "--n",
        "64",
        "--max-shift",
        "0",
        "--json",
    ])
    .code(0);
    let v = run(&[
        "encode",
        "smem",
        "--start-address",
        "0x400",
        "--lbo",
        "16",
        "--sbo",
        "1024",
        "--swizzle",
        "64B",
        "--pattern-start",
        "0x500",
        "--json",
    ])
    .code(0)
    .json();
    assert!(v["hex"].is_string());
    let v = run(&[
        "encode",
        "idesc",
        "--kind",
        "mxf4nvf4",
        "--m",
        "128",
        "--n",
        "256",
        "--a-type",
        "e2m1",
        "--b-type",
        "e2m1",
        "--scale-type",
        "ue4m3",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(v["hex"], "0x08400480");
    let v = run(&[
        "encode",
        "zmask",
        "--skip-span",
        "2",
        "--use-span",
        "3",
        "--first-span",
        "1,1,0,0",
        "--start-count",
        "0,1,2,1",
        "--column-shift",
        "2",
        "--m",
        "32",
        "--n",
        "64",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(v["hex"], "0x0203028301020100");
    let v = run(&[
        "solve",
        "zmask",
        "--m",
        "128",
        "--n",
        "64",
        "--mask",
        "0111000011100001110000111000011100001110000111000011100001110000",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(v["hex"], "0x0003028000000000");
    run(&["shapes", "--kind", "f16", "--cta-group", "2", "--sparse"]).code(0);
    run(&["shapes", "--kind", "mxf4", "--target", "sm_103a", "--json"]).code(0);
}
