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
    // The threads take chunks in turn, so either may be the one that meets the value.
    assert!(
        stderr.contains("worker 0 panicked") || stderr.contains("worker 1 panicked"),
        "{stderr}"
    );
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

/// A decoder that errs on one value, valid or not, fails the sweep, which names the value.
#[test]
fn a_wrong_verdict_fails_the_sweep() {
    // 0x08100490 is valid under f16 (bf16 x bf16 -> f32, M = 128, N = 64); 0x00000000 is valid
    // under no kind.
    for value in ["0x08100490", "0"] {
        let out = sweep(&[
            "--start",
            value,
            "--flip-at",
            value,
            "--count",
            "4096",
            "--threads",
            "2",
            "--kind",
            "f16",
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "a wrong verdict passed: {stderr}");
        assert!(
            stderr.contains(&format!(
                "{:#010x}",
                u32::from_str_radix(value.trim_start_matches("0x"), 16).unwrap_or(0)
            )),
            "{stderr}"
        );
    }
}
