//! A bounded, seeded mutational fuzzer on the stable toolchain, over the same entry points as the
//! libFuzzer targets (`fuzz/src/lib.rs`): each test starts from its target's committed corpus
//! and seeds (`fuzz/corpus/<target>`, `fuzz/seeds/<target>`), mutates inputs (bit flips, byte
//! sets, boundary bytes, insertions, deletions, repeated chunks, splices of two inputs, PTX and
//! command tokens) and runs each through the target's checks, which panic on a bug.
//!
//! `TCGEN05_FUZZ_SECONDS=N` runs each target for N seconds (scripts/test-all.sh: 15); without it
//! each target runs 300 mutated inputs, so a plain `cargo test` stays quick. The random stream is
//! fixed (`TCGEN05_FUZZ_SEED`, default below): a failure reproduces. A failing input is written to
//! `target/fuzz-stable/<target>/` and named in the failure.

#[path = "../../../fuzz/src/lib.rs"]
mod targets;

use std::cell::Cell;
use std::panic;
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::{Duration, Instant};

thread_local! {
    /// True while this thread runs mutated inputs: their panics are expected, not printed.
    static FUZZING: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once, a panic hook that stays quiet on fuzzing threads and prints as before
/// elsewhere (the tests of this file run on parallel threads under `cargo test`).
fn quiet_while_fuzzing() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let print = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !FUZZING.with(Cell::get) {
                print(info);
            }
        }));
    });
}

/// The default seed of the random stream.
const SEED: u64 = 0x7C6E_05F0_2200_2911;

/// Words the text targets read: PTX tokens, descriptor and command spellings.
const TOKENS: &[&str] = &[
    "tcgen05.mma",
    ".cta_group::1",
    ".cta_group::2",
    ".kind::f16",
    ".kind::mxf4nvf4",
    ".block_scale",
    ".ws",
    ".sp",
    "tcgen05.ld.sync.aligned.32x32b.x1.b32",
    "tcgen05.cp.cta_group::1.128x256b",
    "mov.b32",
    "selp.b32",
    "or.b64",
    "shl.b64",
    "%r1",
    "%rd2",
    "%p1",
    "[%r3 + 16]",
    "0x",
    "0b",
    "0f3F800000",
    "0xffffffffffffffff",
    "-1",
    ";",
    ",",
    "{",
    "}",
    "[",
    "]",
    "/*",
    "*/",
    "//",
    "\n",
    ".version 9.0",
    ".target sm_100a",
    ".entry k()",
    "=",
    "sbo=",
    "lbo=",
    "swizzle=",
    "m=",
    "n=",
    "kind=",
    "128B",
    "f16",
    "e2m1",
];

/// splitmix64: the random stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The committed inputs of a target.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files: Vec<PathBuf> = ["corpus", "seeds"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root.join(d).join(target))
                .into_iter()
                .flatten()
        })
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        .collect()
}

/// One mutation of `input` (another corpus input for splices).
fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    let len = input.len();
    match rng.below(9) {
        0 if len > 0 => {
            let i = rng.below(len);
            input[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            input[i] = rng.next() as u8;
        }
        2 if len > 0 => {
            let i = rng.below(len);
            input[i] = [0, 0xFF, 0x7F, 0x80, b'0', b'9', b' '][rng.below(7)];
        }
        3 => {
            let i = rng.below(len + 1);
            input.insert(i, rng.next() as u8);
        }
        4 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(16));
            input.drain(i..i + n);
        }
        5 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(32));
            let chunk = input[i..i + n].to_vec();
            let at = rng.below(len + 1);
            input.splice(at..at, chunk);
        }
        6 if !other.is_empty() => {
            let cut = rng.below(len + 1);
            let from = rng.below(other.len());
            input.truncate(cut);
            input.extend_from_slice(&other[from..]);
        }
        7 if len >= 8 => {
            let i = rng.below(len - 7);
            let v = [0u64, u64::MAX, 1 << 63, rng.next(), u64::from(u32::MAX)][rng.below(5)];
            input[i..i + 8].copy_from_slice(&v.to_le_bytes());
        }
        _ => {
            let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
            let at = rng.below(len + 1);
            input.splice(at..at, t.iter().copied());
        }
    }
    // Keep inputs small enough to run many: the corpus holds the long ones.
    input.truncate(1 << 16);
}

/// Fuzzes `check` from the target's corpus; panics naming the first failing input.
fn fuzz(target: &str, check: fn(&[u8])) {
    let seeds = corpus(target);
    assert!(!seeds.is_empty(), "{target}: no corpus");
    let budget = std::env::var("TCGEN05_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    let seed = std::env::var("TCGEN05_FUZZ_SEED")
        .ok()
        .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
        .unwrap_or(SEED);
    // The same stream per target whatever order the tests run in.
    let mut rng = Rng(seed
        ^ target
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))));
    let start = Instant::now();
    let done = |runs: u64| match budget {
        Some(s) => start.elapsed() >= Duration::from_secs(s),
        None => runs >= 300,
    };
    quiet_while_fuzzing();
    FUZZING.with(|f| f.set(true));
    let mut runs = 0u64;
    let mut failure = None;
    while !done(runs) {
        let mut input = seeds[rng.below(seeds.len())].clone();
        let other = &seeds[rng.below(seeds.len())];
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &mut input, other);
        }
        runs += 1;
        if panic::catch_unwind(|| check(&input)).is_err() {
            failure = Some(input);
            break;
        }
    }
    FUZZING.with(|f| f.set(false));
    if let Some(input) = failure {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/fuzz-stable")
            .join(target);
        std::fs::create_dir_all(&dir).expect("artifact directory");
        let file = dir.join(format!("crash-{seed:016x}-{runs}"));
        std::fs::write(&file, &input).expect("write the failing input");
        // Runs the check again, with the panic message shown.
        let msg = panic::catch_unwind(|| check(&input)).err().map(|e| {
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default()
        });
        panic!(
            "{target}: input {runs} (seed {seed:#x}) fails: {}; written to {}",
            msg.unwrap_or_default(),
            file.display()
        );
    }
    println!(
        "{target}: {runs} mutated inputs in {:.1} s from {} corpus inputs (seed {seed:#x}), no failure",
        start.elapsed().as_secs_f64(),
        seeds.len()
    );
}

#[test]
fn smem() {
    fuzz("smem", targets::smem);
}

#[test]
fn idesc() {
    fuzz("idesc", targets::idesc);
}

#[test]
fn zmask() {
    fuzz("zmask", targets::zmask);
}

#[test]
fn zmask_text() {
    fuzz("zmask_text", targets::zmask_text);
}

#[test]
fn numbers_names() {
    fuzz("numbers_names", targets::numbers_names);
}

#[test]
fn batch() {
    fuzz("batch", targets::batch);
}

#[test]
fn ptx() {
    fuzz("ptx", targets::ptx);
}
