//! Planted Tensor Memory lifecycle bugs: the two committed Blackwell kernels
//! (`examples/kernels/triton_gemm_bf16.ptx`, `triton_dot_scaled_mxfp8.ptx`, Triton 3.9.0 for
//! sm_100a) are mutated by rules written here from the PTX text, one bug per copy, and
//! `hazard::check` must report each at the line the mutation implies, with the kind it implies;
//! the unmodified kernels must be clean. Line numbers are kept: a deleted instruction becomes an
//! empty line, a moved or added one takes the place of an `// end inline asm` comment line.
//!
//! Findings (PTX ISA 9.7.16.7.1, 9.7.16.8.3, 9.7.16.8.5, 9.7.16.6.4.5): `tcgen05.wait::ld`
//! deleted (dealloc-in-use at the kernel's `tcgen05.dealloc`, with the ld's line: the load's
//! read of Tensor Memory is still outstanding there, rules.md I12; the use of its registers
//! before the wait is the canonical register-dependency pattern, no finding, and C is the same);
//! `tcgen05.dealloc` deleted (tmem-leak at the alloc); the kernel's closing `barrier.sync` and
//! `tcgen05.dealloc` moved between the `tcgen05.ld` and its `wait::ld` (dealloc-in-use at the
//! dealloc, with the ld's line).
//! Asynchronous tcgen05 operations (rules.md I5, I6; PTX ISA 9.7.16.6, 9.7.16.11.1):
//! `relinquish_alloc_permit` deleted (missing-relinquish at the alloc); the epilogue's mbarrier
//! wait deleted (read-before-complete at the `tcgen05.ld`, against the last MMA, which wrote D
//! last); the last MMA and its commit copied between the `tcgen05.ld` and its `wait::ld`, the
//! next tile reusing the accumulator (write-before-complete at the copy, against the ld).
//! Run errors, which the interpreter raises itself and `check` returns (the run has no defined
//! continuation): the dealloc moved before the ld (the ld reads outside every allocation), the
//! dealloc duplicated (not an allocation any more), an alloc added after
//! `relinquish_alloc_permit`, and the dealloc moved right after an MMA not yet committed.

use std::path::PathBuf;

use tcgen05_run::hazard::{check, HazardKind, Options, Report};
use tcgen05_run::{Arg, Config, Module, RunError};

/// A kernel: file, entry, K, bytes per A and B element, whether it takes scale buffers.
struct Kernel {
    file: &'static str,
    entry: &'static str,
    k: usize,
    bytes: usize,
    scales: bool,
}

const KERNELS: [Kernel; 2] = [
    Kernel {
        file: "examples/kernels/triton_gemm_bf16.ptx",
        entry: "dot_kernel",
        k: 128,
        bytes: 2,
        scales: false,
    },
    Kernel {
        file: "examples/kernels/triton_dot_scaled_mxfp8.ptx",
        entry: "dot_scaled_kernel",
        k: 256,
        bytes: 1,
        scales: true,
    },
];

/// What a planted bug must produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A finding of this kind at this line, with this other line if given.
    Finding(HazardKind, u32, Option<u32>),
    /// The run stops with an error naming this line.
    Error(u32),
}

/// Runs the hazard checker on `src` as `tests/blackwell.rs` launches these kernels: one CTA
/// of 4 warps computing a 128 x 128 tile (byte patterns as inputs: this test is about
/// synchronisation, not values).
fn run(k: &Kernel, src: &str) -> Result<Report, RunError> {
    run_c(k, src).0
}

/// [`run`], and the C buffer it wrote.
fn run_c(k: &Kernel, src: &str) -> (Result<Report, RunError>, Vec<u8>) {
    let module = Module::read(src).unwrap_or_else(|e| panic!("{}: {e}", k.file));
    let (m, n) = (128usize, 128usize);
    let a: Vec<u8> = (0..m * k.k * k.bytes)
        .map(|i| (i % 7) as u8 + 0x30)
        .collect();
    let b: Vec<u8> = (0..k.k * n * k.bytes)
        .map(|i| (i % 5) as u8 + 0x30)
        .collect();
    let mut args = vec![Arg::Buffer(a), Arg::Buffer(b)];
    if k.scales {
        args.push(Arg::Buffer(vec![127; m * k.k / 32]));
        args.push(Arg::Buffer(vec![127; n * k.k / 32]));
    }
    args.push(Arg::Buffer(vec![0; m * n * 4]));
    args.push(Arg::i32(k.k as i32));
    args.push(Arg::Null);
    args.push(Arg::Null);
    let config = Config {
        grid: [1, 1, 1],
        block: [128, 1, 1],
        cluster: [1, 1, 1],
        shared: 227 * 1024,
        limits: Default::default(),
    };
    let c = if k.scales { 4 } else { 2 };
    let report = check(&module, k.entry, &config, &mut args, &Options::default());
    let Arg::Buffer(out) = &args[c] else {
        unreachable!("C is a buffer")
    };
    (report, out.clone())
}

fn is_op(line: &str, opcode: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix('@').map_or(t, |r| {
        r.split_once(char::is_whitespace)
            .map_or(r, |x| x.1.trim_start())
    });
    t.starts_with(opcode)
}

fn find(lines: &[&str], opcode: &str) -> Vec<usize> {
    (0..lines.len())
        .filter(|&i| is_op(lines[i], opcode))
        .collect()
}

/// The first `// end inline asm` line after `i`.
fn comment_after(lines: &[&str], i: usize) -> usize {
    (i + 1..lines.len())
        .find(|&j| lines[j].trim() == "// end inline asm")
        .expect("an inline asm block")
}

/// The registers of the `{...}` list of a `tcgen05.ld` line.
fn destinations(line: &str) -> Vec<String> {
    let open = line.find('{').expect("a register list");
    let close = line.find('}').expect("a register list");
    line[open + 1..close]
        .split(',')
        .map(|r| r.trim().to_string())
        .collect()
}

/// Whether `line` names register `r` as a whole token.
fn names(line: &str, r: &str) -> bool {
    line.match_indices(r).any(|(at, _)| {
        !line[at + r.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn edit(lines: &[&str], changes: &[(usize, &str)]) -> String {
    let mut out: Vec<String> = lines.iter().map(|s| (*s).to_string()).collect();
    for &(i, new) in changes {
        out[i] = new.to_string();
    }
    out.join("\n") + "\n"
}

/// The kernel without its `tcgen05.wait::ld`, the line of the first instruction after the
/// deleted wait that reads a destination register of the ld, and the ld's line (1-based).
fn without_wait_ld(text: &str) -> (String, u32, u32) {
    let lines: Vec<&str> = text.lines().collect();
    let (lds, waits) = (find(&lines, "tcgen05.ld"), find(&lines, "tcgen05.wait::ld"));
    assert_eq!((lds.len(), waits.len()), (1, 1), "one ld, one wait::ld");
    let (ld, wait) = (lds[0], waits[0]);
    let regs = destinations(lines[ld]);
    let first_read = (wait + 1..lines.len())
        .find(|&j| regs.iter().any(|r| names(lines[j], r)))
        .expect("a read of the loaded registers");
    (
        edit(&lines, &[(wait, "")]),
        first_read as u32 + 1,
        ld as u32 + 1,
    )
}

/// Every planted bug of one kernel: (class, PTX, expectation).
fn plants(text: &str) -> Vec<(&'static str, String, Expect)> {
    let lines: Vec<&str> = text.lines().collect();
    let one = |op: &str| {
        let v = find(&lines, op);
        assert_eq!(v.len(), 1, "one {op}");
        v[0]
    };
    let alloc = one("tcgen05.alloc");
    let relinquish = one("tcgen05.relinquish_alloc_permit");
    let ld = one("tcgen05.ld");
    let wait = one("tcgen05.wait::ld");
    let dealloc = one("tcgen05.dealloc");
    let last_mma = *find(&lines, "tcgen05.mma").last().expect("an MMA");
    let line = |i: usize| i as u32 + 1;
    let after_ld = comment_after(&lines, ld);
    assert!(after_ld < wait, "the ld's asm block ends before its wait");
    let before_ld = ld - 1;
    assert_eq!(lines[before_ld].trim(), "// begin inline asm");
    let after_dealloc = comment_after(&lines, dealloc);
    let after_relinquish = comment_after(&lines, relinquish);
    let after_mma = comment_after(&lines, last_mma);
    let d = lines[dealloc];
    // The kernel's own order, `barrier.sync 0` then the dealloc, hoisted as one line: every
    // warp has issued its ld when warp 0 frees the columns.
    let synced = format!("\tbarrier.sync \t0; {}", d.trim_start());
    // The epilogue's wait: the last try_wait before the ld in the text (in the mxfp8 kernel
    // the loop's own wait, which the last iteration passes before leaving the loop), with its
    // retry branch on the next line.
    let epilogue_wait = *find(&lines, "mbarrier.try_wait")
        .iter()
        .rfind(|&&w| w < ld)
        .expect("a wait before the ld");
    assert!(lines[epilogue_wait + 1].contains("bra"));
    // The next tile's MMA: the kernel's last MMA and its commit copied between the ld and its
    // wait::ld, as one line in the comment line between them (the mbarrier.inval lines
    // removed, so that the commit may arrive on its barrier).
    let commit = *find(&lines, "tcgen05.commit").last().expect("a commit");
    let next_tile = format!("{} {}", lines[last_mma].trim(), lines[commit].trim());
    let mut reuse = vec![(after_ld, next_tile.as_str())];
    reuse.extend(find(&lines, "mbarrier.inval").into_iter().map(|i| (i, "")));
    vec![
        (
            "tcgen05.relinquish_alloc_permit deleted",
            edit(&lines, &[(relinquish, "")]),
            Expect::Finding(HazardKind::MissingRelinquish, line(alloc), None),
        ),
        (
            "the epilogue's mbarrier wait deleted",
            edit(&lines, &[(epilogue_wait, ""), (epilogue_wait + 1, "")]),
            Expect::Finding(
                HazardKind::ReadBeforeComplete,
                line(ld),
                Some(line(last_mma)),
            ),
        ),
        (
            "the accumulator reused by an MMA before the epilogue's wait::ld",
            edit(&lines, &reuse),
            Expect::Finding(
                HazardKind::WriteBeforeComplete,
                line(after_ld),
                Some(line(ld)),
            ),
        ),
        (
            "tcgen05.wait::ld deleted",
            edit(&lines, &[(wait, "")]),
            Expect::Finding(HazardKind::DeallocInUse, line(dealloc), Some(line(ld))),
        ),
        (
            "tcgen05.dealloc deleted",
            edit(&lines, &[(dealloc, "")]),
            Expect::Finding(HazardKind::TmemLeak, line(alloc), None),
        ),
        (
            "barrier.sync + tcgen05.dealloc moved between tcgen05.ld and wait::ld",
            edit(&lines, &[(dealloc, ""), (after_ld, &synced)]),
            Expect::Finding(HazardKind::DeallocInUse, line(after_ld), Some(line(ld))),
        ),
        (
            "tcgen05.dealloc moved before tcgen05.ld",
            edit(&lines, &[(dealloc, ""), (before_ld, d)]),
            Expect::Error(line(ld)),
        ),
        (
            "tcgen05.dealloc duplicated",
            edit(&lines, &[(after_dealloc, d)]),
            Expect::Error(line(after_dealloc)),
        ),
        (
            "tcgen05.alloc added after relinquish_alloc_permit",
            edit(&lines, &[(after_relinquish, lines[alloc])]),
            Expect::Error(line(after_relinquish)),
        ),
        (
            "tcgen05.dealloc moved after an uncommitted tcgen05.mma",
            edit(&lines, &[(dealloc, ""), (after_mma, d)]),
            Expect::Error(line(after_mma)),
        ),
    ]
}

fn error_line(e: &RunError) -> Option<u32> {
    match e {
        RunError::Invalid { line, .. }
        | RunError::Unsupported { line, .. }
        | RunError::Memory { line, .. } => Some(*line),
        _ => None,
    }
}

/// Whether `result` shows `expect`, and what it showed.
fn shows(result: &Result<Report, RunError>, expect: Expect) -> (bool, String) {
    match (result, expect) {
        (Ok(r), Expect::Finding(kind, line, other)) => {
            let hit = r.findings.iter().any(|f| {
                f.kind == kind && f.line == line && (other.is_none() || f.other_line == other)
            });
            let seen: Vec<String> = r
                .findings
                .iter()
                .map(|f| format!("{} {} {:?}", f.kind.name(), f.line, f.other_line))
                .collect();
            (hit, seen.join("; "))
        }
        (Err(e), Expect::Error(line)) => (error_line(e) == Some(line), e.to_string()),
        (Ok(r), _) => (false, format!("{} findings, no error", r.findings.len())),
        (Err(e), _) => (false, e.to_string()),
    }
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

#[test]
fn unmodified_blackwell_kernels_are_clean() {
    for k in &KERNELS {
        let src = std::fs::read_to_string(repo(k.file)).expect("the committed PTX");
        let report = run(k, &src).unwrap_or_else(|e| panic!("{}: {e}", k.file));
        assert!(
            report.findings.is_empty(),
            "{}: {:?}",
            k.file,
            report.findings
        );
    }
}

#[test]
fn planted_tmem_bugs_are_found_at_their_lines() {
    let mut missed = Vec::new();
    let mut matrix = Vec::new();
    for k in &KERNELS {
        let src = std::fs::read_to_string(repo(k.file)).expect("the committed PTX");
        for (class, ptx, expect) in plants(&src) {
            let (hit, seen) = shows(&run(k, &ptx), expect);
            matrix.push(format!(
                "{class} | {} | {}",
                k.file,
                if hit { "found" } else { "missed" }
            ));
            if !hit {
                missed.push(format!(
                    "{class} in {}: want {expect:?}, got {seen}",
                    k.file
                ));
            }
        }
    }
    println!("{}", matrix.join("\n"));
    assert_eq!(matrix.len(), 20);
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
}

/// PTX ISA 9.7.16.6.4.5 (rules.md I12): a `tcgen05.ld`'s registers are ordered before their
/// uses by the register dependency. Without its `wait::ld`, each kernel computes the same C
/// (the registers hold the values read at the ld), no finding names the first use of a loaded
/// register, and the one finding is the dealloc of the columns the load still reads.
#[test]
fn deleted_wait_ld_uses_the_registers_and_is_found_at_the_dealloc() {
    for k in &KERNELS {
        let src = std::fs::read_to_string(repo(k.file)).expect("the committed PTX");
        let (report, c) = run_c(k, &src);
        assert!(report.expect("the kernel runs").findings.is_empty());
        let (planted, first_read, ld) = without_wait_ld(&src);
        let (report, planted_c) = run_c(k, &planted);
        let report = report.unwrap_or_else(|e| panic!("{}: {e}", k.file));
        assert!(c.iter().any(|&b| b != 0), "{}: C is not all zero", k.file);
        assert_eq!(planted_c, c, "{}: C without the wait::ld", k.file);
        let seen: Vec<_> = report
            .findings
            .iter()
            .map(|f| (f.kind, f.line, f.other_line))
            .collect();
        assert!(
            seen.iter().all(|&(_, line, _)| line != first_read),
            "{}: a finding at the register use (line {first_read}): {seen:?}",
            k.file
        );
        assert_eq!(seen.len(), 1, "{}: {seen:?}", k.file);
        assert_eq!((seen[0].0, seen[0].2), (HazardKind::DeallocInUse, Some(ld)));
    }
}
