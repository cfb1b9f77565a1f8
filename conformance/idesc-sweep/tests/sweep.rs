//! The sweep binary fails when it should: a panicking worker, and passes a short clean slice.

use std::process::Command;

fn sweep(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tcgen05-idesc-sweep"))
        .args(args)
        .output()
        .expect("run the sweep")
}

#[test]
fn a_panicking_worker_fails_the_sweep() {
    let out = sweep(&["--count", "4096", "--threads", "2", "--panic-at", "100"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a panic passed: {stderr}");
    assert!(stderr.contains("worker 0 panicked"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 passed, 1 failed"));
}

#[test]
fn a_clean_slice_passes() {
    let out = sweep(&[
        "--count",
        "65536",
        "--stride",
        "0x9E3779B1",
        "--threads",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("sweep: 1 passed, 0 failed"));
}
