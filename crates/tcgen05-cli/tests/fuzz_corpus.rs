//! The fuzz corpora as regular tests: every committed input of `fuzz/corpus/<target>` and
//! `fuzz/seeds/<target>` through the same checks as the libFuzzer target (`fuzz/src/lib.rs`), on
//! the stable toolchain (the fuzzers themselves need nightly and cargo-fuzz: see README).

#[path = "../../../fuzz/src/lib.rs"]
mod targets;

use std::path::Path;

/// Runs `check` on every file of the target's corpus and seeds; returns how many ran.
fn run(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut n = 0;
    for dir in ["corpus", "seeds"] {
        let dir = root.join(dir).join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target}: {} fails", f.display());
            n += 1;
        }
    }
    assert!(n > 1, "{target}: no corpus");
    n
}

#[test]
fn smem() {
    run("smem", targets::smem);
}

#[test]
fn idesc() {
    run("idesc", targets::idesc);
}

#[test]
fn zmask() {
    run("zmask", targets::zmask);
}

#[test]
fn zmask_text() {
    run("zmask_text", targets::zmask_text);
}

#[test]
fn numbers_names() {
    run("numbers_names", targets::numbers_names);
}

#[test]
fn batch() {
    run("batch", targets::batch);
}

#[test]
fn ptx() {
    run("ptx", targets::ptx);
}
