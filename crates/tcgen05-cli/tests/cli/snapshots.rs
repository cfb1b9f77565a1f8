//! The human output, compared exactly with committed files in `tests/snapshots/`, so that any
//! change to it is deliberate. `UPDATE_SNAPSHOTS=1 cargo test -p tcgen05-cli` rewrites them.

use std::path::PathBuf;

use crate::{run, run_stdin};

fn check(name: &str, args: &[&str], input: Option<&[u8]>) {
    let r = match input {
        Some(i) => run_stdin(args, i),
        None => run(args),
    };
    let got = format!(
        "$ tcgen05 {}\n--- exit status {} ---\n--- stdout ---\n{}--- stderr ---\n{}",
        args.join(" "),
        r.code,
        r.stdout,
        r.stderr
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &got).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run UPDATE_SNAPSHOTS=1 cargo test -p tcgen05-cli to create it",
            path.display()
        )
    });
    assert!(
        got == want,
        "output of `tcgen05 {}` differs from {} (UPDATE_SNAPSHOTS=1 to accept):\n--- want\n{want}\n--- got\n{got}",
        args.join(" "),
        path.display()
    );
}

#[test]
fn decode_smem() {
    check(
        "decode_smem_cutlass",
        &["decode", "smem", "0x4000404000010040"],
        None,
    );
    check(
        "decode_smem_invalid",
        &["decode", "smem", "0x6000000000004040"],
        None,
    );
}

#[test]
fn decode_idesc() {
    check(
        "decode_idesc_kinds",
        &["decode", "idesc", "0x08100490"],
        None,
    );
    check(
        "decode_idesc_mxf4nvf4",
        &[
            "decode",
            "idesc",
            "0x08400480",
            "--kind",
            "mxf4nvf4",
            "--cta-group",
            "1",
        ],
        None,
    );
    check(
        "decode_idesc_no_kind",
        &["decode", "idesc", "0xffffffff"],
        None,
    );
}

#[test]
fn decode_zmask() {
    check(
        "decode_zmask_example4",
        &[
            "decode",
            "zmask",
            "0x0203028301020100",
            "--m",
            "32",
            "--n",
            "128",
        ],
        None,
    );
}

#[test]
fn encode_and_shapes() {
    check(
        "encode_idesc_errors",
        &[
            "encode",
            "idesc",
            "--kind",
            "f16",
            "--m",
            "48",
            "--n",
            "7",
            "--d-type",
            "f16",
            "--a-type",
            "bf16",
            "--b-type",
            "f16",
            "--saturate",
        ],
        None,
    );
    check("shapes_f16", &["shapes", "--kind", "f16"], None);
}

#[test]
fn batch() {
    check(
        "batch_smem",
        &["decode", "smem", "-"],
        Some(b"0x4000404000010040\n0x6000000000004040\n\nzz\n"),
    );
    check(
        "batch_idesc",
        &["decode", "idesc", "-"],
        Some(b"0x08100490\n0x08a00480\n0xffffffff\n"),
    );
}
