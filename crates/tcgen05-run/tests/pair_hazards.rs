//! The CTA pair's rules under the hazard checker (rules.md I7; PTX ISA 9.7.16.7.1): the
//! published bugs NVIDIA/cutlass#3316 (a `.cta_group::2` alloc before the peer CTA is known to
//! be launched) and NVIDIA/cutlass#3435 (a `.cta_group::2` dealloc before the peer's alloc
//! completed) reproduced on `tests/pair/pair_alloc.ptx`, written after their descriptions
//! (found at the right line with the right kind; the fixed kernel clean), `tcgen05.wait::st`
//! (PTX ISA 9.7.16.8.5), and bugs planted by rules from the text of the three pair kernels
//! (`pair_alloc.ptx`, `mma_m256.ptx`, Gluon's `gluon_pair_dot_f16.ptx`).

mod common;

use common::inputs::{repo, splitmix};
use tcgen05_run::hazard::{check, Finding, HazardKind, Options, Report};
use tcgen05_run::{Arg, Config, Module, RunError};

fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The 1-based lines of `src` (not comment lines) containing `what`.
fn lines_of(src: &str, what: &str) -> Vec<u32> {
    src.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(what) && !l.trim_start().starts_with("//"))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// `src` with the given 1-based lines left empty (so that every other line keeps its number).
fn blank(src: &str, lines: &[u32]) -> String {
    src.lines()
        .enumerate()
        .map(|(i, l)| {
            if lines.contains(&(i as u32 + 1)) {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn f16_codes(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed;
    (0..n)
        .flat_map(|_| {
            let r = splitmix(&mut s);
            (((r & 1) << 15 | (12 + (r >> 1) % 6) << 10 | (r >> 8) & 0x3FF) as u16).to_le_bytes()
        })
        .collect()
}

/// A pair kernel of this test, its launch (grid 2, block 128, the cluster of 2 from its
/// `.reqnctapercluster`) and arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    Alloc,
    MmaM256,
    Gluon,
}

impl Kernel {
    fn path(self) -> &'static str {
        match self {
            Kernel::Alloc => "crates/tcgen05-run/tests/pair/pair_alloc.ptx",
            Kernel::MmaM256 => "crates/tcgen05-run/tests/pair/mma_m256.ptx",
            Kernel::Gluon => "examples/kernels/gluon_pair_dot_f16.ptx",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kernel::Alloc => "pair_alloc",
            Kernel::MmaM256 => "pair_mma",
            Kernel::Gluon => "pair_dot",
        }
    }

    fn args(self) -> Vec<Arg> {
        match self {
            Kernel::Alloc => vec![Arg::Buffer(vec![0; 256 * 4])],
            Kernel::MmaM256 => vec![
                Arg::Buffer(f16_codes(3, 10240)),
                Arg::Buffer(vec![0; 256 * 64 * 4]),
                Arg::i32(3),
            ],
            Kernel::Gluon => vec![
                Arg::Buffer(f16_codes(4, 256 * 64)),
                Arg::Buffer(f16_codes(5, 64 * 128)),
                Arg::Buffer(vec![0; 256 * 128 * 4]),
                Arg::Null,
                Arg::Null,
            ],
        }
    }

    fn run(self, src: &str, schedules: u32) -> Result<(Report, Vec<Arg>), RunError> {
        let module = Module::read(src)?;
        let config = Config {
            grid: [2, 1, 1],
            block: [128, 1, 1],
            cluster: [1, 1, 1],
            shared: if self == Kernel::Gluon { 64 * 1024 } else { 0 },
            limits: Default::default(),
        };
        let mut args = self.args();
        let r = check(
            &module,
            self.name(),
            &config,
            &mut args,
            &Options { schedules },
        )?;
        Ok((r, args))
    }
}

fn schedules() -> u32 {
    std::env::var("HAZARD_SCHEDULES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2)
}

fn of(r: &Report, kind: HazardKind) -> Vec<&Finding> {
    r.findings.iter().filter(|f| f.kind == kind).collect()
}

fn pair_alloc() -> String {
    read(Kernel::Alloc.path())
}

/// The kernel as written is clean, and computes what it says: out[rank * 128 + tid] =
/// rank * 1000 + tid.
#[test]
fn pair_alloc_is_clean_and_right() {
    let (r, args) = Kernel::Alloc
        .run(&pair_alloc(), schedules())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
    let Arg::Buffer(out) = &args[0] else {
        unreachable!()
    };
    for i in 0..256u32 {
        let got = u32::from_le_bytes(out[i as usize * 4..][..4].try_into().expect("4 bytes"));
        assert_eq!(got, (i / 128) * 1000 + i % 128, "word {i}");
    }
}

/// NVIDIA/cutlass#3316: without the barrier.cluster before the alloc, each CTA's
/// `tcgen05.alloc.cta_group::2` comes before anything tells it its peer was launched.
#[test]
fn cutlass_3316_alloc_before_the_peer_is_launched() {
    let src = pair_alloc();
    let buggy = blank(&src, &lines_of(&src, "// LAUNCH"));
    let alloc = lines_of(&src, "tcgen05.alloc.cta_group::2")[0];
    let (r, _) = Kernel::Alloc
        .run(&buggy, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    let found = of(&r, HazardKind::PairLaunch);
    assert_eq!(found.len(), 2, "{:#?}", r.findings);
    let mut ranks: Vec<(Option<u32>, Option<u32>)> =
        found.iter().map(|f| (f.rank, f.other_rank)).collect();
    ranks.sort_unstable();
    assert_eq!(ranks, vec![(Some(0), Some(1)), (Some(1), Some(0))]);
    for f in &found {
        assert_eq!(f.line, alloc);
        assert_eq!(f.thread, Some(0));
        assert!(f.source.contains("9.7.16.7.1"), "{}", f.source);
    }
    assert_eq!(r.findings.len(), 2, "nothing else: {:#?}", r.findings);
}

/// NVIDIA/cutlass#3435: without the barrier.cluster between alloc and dealloc, a CTA's
/// `tcgen05.dealloc.cta_group::2` is not ordered after its peer's alloc (the barrier before the
/// alloc orders nothing after it: the alloc does not wait for the peer).
#[test]
fn cutlass_3435_dealloc_before_the_peers_alloc() {
    let src = pair_alloc();
    let buggy = blank(&src, &lines_of(&src, "// PEER"));
    let alloc = lines_of(&src, "tcgen05.alloc.cta_group::2")[0];
    let dealloc = lines_of(&src, "tcgen05.dealloc.cta_group::2")[0];
    let (r, _) = Kernel::Alloc
        .run(&buggy, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    let found = of(&r, HazardKind::PairDeallocEarly);
    assert_eq!(
        r.findings.len(),
        found.len(),
        "nothing else: {:#?}",
        r.findings
    );
    assert_eq!(found.len(), 1, "{:#?}", r.findings);
    let f = found[0];
    assert_eq!((f.line, f.other_line), (dealloc, Some(alloc)));
    assert_ne!(f.rank, f.other_rank, "the peer's alloc: {f:#?}");
    assert!(
        f.message.contains("not ordered after the tcgen05.alloc"),
        "{}",
        f.message
    );
}

/// `tcgen05.wait::st` deleted: the warp's `tcgen05.ld` reads the cells its `tcgen05.st` writes
/// before the store is known complete (PTX ISA 9.7.16.8.5).
#[test]
fn ld_before_wait_st_reads_before_complete() {
    let src = pair_alloc();
    let st = lines_of(&src, "tcgen05.st.")[0];
    let ld = lines_of(&src, "tcgen05.ld.")[0];
    let buggy = blank(&src, &lines_of(&src, "tcgen05.wait::st"));
    let (r, _) = Kernel::Alloc
        .run(&buggy, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    let found = of(&r, HazardKind::ReadBeforeComplete);
    assert!(
        found
            .iter()
            .any(|f| (f.line, f.other_line) == (ld, Some(st))),
        "{:#?}",
        r.findings
    );
    // The store, never waited, is also still in flight when warp 0 frees its columns.
    let dealloc = lines_of(&src, "tcgen05.dealloc.cta_group::2")[0];
    for f in &r.findings {
        let expected = match f.kind {
            HazardKind::ReadBeforeComplete => (ld, Some(st)),
            _ => (dealloc, Some(st)),
        };
        assert_eq!((f.line, f.other_line), expected, "{f:#?}");
    }
}

/// A class of bug planted in a pair kernel by a rule over its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plant {
    /// The last `barrier.cluster` (arrive and wait) before the first `.cta_group::2` alloc
    /// deleted: `pair-launch` at the alloc.
    BarrierBeforeAlloc,
    /// The last `barrier.cluster` before the `.cta_group::2` dealloc deleted:
    /// `pair-dealloc-early` at the dealloc, against the peer's alloc.
    BarrierBeforeDealloc,
    /// The `mbarrier.try_wait` (and its retry branch) after the last `tcgen05.commit` deleted:
    /// `pair-dealloc-early` at the dealloc, against an MMA.
    CommitWait,
}

/// What a planted copy gives.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// A finding of the expected kind at the expected line (and other line).
    Found,
    /// No finding of that kind at that line.
    Missed(Vec<(HazardKind, u32, Option<u32>)>),
    /// The run stopped with an error at this line.
    RunError(String),
}

/// The copy of `src` with `class` planted, the finding expected (kind, line, other lines it
/// may name), or `None` when the kernel has no such instruction.
fn plant(src: &str, class: Plant) -> Option<(String, HazardKind, u32, Vec<u32>)> {
    let all = |what: &str| lines_of(src, what);
    let alloc = *all("tcgen05.alloc.cta_group::2").first()?;
    let dealloc = *all("tcgen05.dealloc.cta_group::2").first()?;
    let arrive = all("barrier.cluster.arrive");
    let wait = all("barrier.cluster.wait");
    let last_before = |ls: &[u32], at: u32| ls.iter().copied().filter(|&l| l < at).max();
    match class {
        Plant::BarrierBeforeAlloc | Plant::BarrierBeforeDealloc => {
            let (at, kind, others) = if class == Plant::BarrierBeforeAlloc {
                (alloc, HazardKind::PairLaunch, vec![alloc])
            } else {
                (dealloc, HazardKind::PairDeallocEarly, vec![alloc])
            };
            let gone = [last_before(&arrive, at)?, last_before(&wait, at)?];
            if class == Plant::BarrierBeforeDealloc && gone[0] < alloc {
                return None;
            }
            Some((blank(src, &gone), kind, at, others))
        }
        Plant::CommitWait => {
            let commit = *all("tcgen05.commit").last()?;
            let wait = all("mbarrier.try_wait").into_iter().find(|&l| l > commit)?;
            let retry = all("bra").into_iter().find(|&l| l > wait)?;
            let mmas = all("tcgen05.mma");
            Some((
                blank(src, &[wait, retry]),
                HazardKind::PairDeallocEarly,
                dealloc,
                mmas,
            ))
        }
    }
}

fn outcome(kernel: Kernel, class: Plant) -> Option<Outcome> {
    let src = read(kernel.path());
    let (planted, kind, line, others) = plant(&src, class)?;
    Some(match kernel.run(&planted, 0) {
        Err(e) => Outcome::RunError(e.to_string()),
        // A run error after findings (they are kept, `Report::error`): the error decides.
        Ok((r, _)) if r.error.is_some() && !r.findings.iter().any(|f| f.kind == kind) => {
            Outcome::RunError(r.error.map(|e| e.to_string()).unwrap_or_default())
        }
        Ok((r, _)) => {
            let hit = r.findings.iter().any(|f| {
                f.kind == kind
                    && f.line == line
                    && f.other_line.is_some_and(|o| others.contains(&o))
            });
            if hit {
                Outcome::Found
            } else {
                Outcome::Missed(
                    r.findings
                        .iter()
                        .map(|f| (f.kind, f.line, f.other_line))
                        .collect(),
                )
            }
        }
    })
}

/// The matrix of planted pair bugs (class x kernel), each copy made by [`plant`] from the
/// kernel's text. Where a class is not found, the test names why (and fails if that changes).
#[test]
fn planted_pair_bugs_are_found() {
    let kernels = [Kernel::Alloc, Kernel::MmaM256, Kernel::Gluon];
    let classes = [
        Plant::BarrierBeforeAlloc,
        Plant::BarrierBeforeDealloc,
        Plant::CommitWait,
    ];
    let mut found = 0;
    for class in classes {
        for kernel in kernels {
            let got = outcome(kernel, class);
            eprintln!("{class:?} x {kernel:?}: {got:?}");
            match (class, kernel, got) {
                (_, _, Some(Outcome::Found)) => found += 1,
                // pair_alloc issues no MMA.
                (Plant::CommitWait, Kernel::Alloc, None) => {}
                // mma_m256's only barrier.cluster after the alloc also publishes the mbarrier's
                // init: without it the even CTA's multicast commit reaches the odd CTA's
                // mbarrier before its init, a run error at the commit.
                (Plant::BarrierBeforeDealloc, Kernel::MmaM256, Some(Outcome::RunError(e))) => {
                    assert!(e.contains("mbarrier"), "{e}");
                }
                // Gluon's alloc is still ordered before both deallocs by the barrier.cluster
                // after its mbarrier init: the copy is correct, and clean.
                (Plant::BarrierBeforeDealloc, Kernel::Gluon, Some(Outcome::Missed(f))) => {
                    assert!(f.is_empty(), "{f:?}");
                }
                (c, k, got) => panic!("{c:?} x {k:?}: {got:?}"),
            }
        }
    }
    assert_eq!(found, 6);
}

/// Only the even CTA's warp allocates: under the checker the alloc the odd CTA never joins is a
/// finding (`pair-alloc-unjoined`, rules.md I3) at the even CTA's alloc, naming both ranks,
/// where the plain run stops with an error.
#[test]
fn alloc_the_peer_never_joins_is_a_finding() {
    let src = pair_alloc().replace(
        "\t@%p1 bra ALLOCATED;",
        "\tsetp.ne.or.u32 %p2, %r2, 0, %p1;\n\t@%p2 bra ALLOCATED;",
    );
    assert!(src.contains("setp.ne.or.u32 %p2"));
    let alloc = lines_of(&src, "tcgen05.alloc.cta_group::2")[0];
    let (r, _) = Kernel::Alloc.run(&src, 0).unwrap_or_else(|e| panic!("{e}"));
    let found = of(&r, HazardKind::PairAllocUnjoined);
    assert_eq!(found.len(), 1, "{:#?}", r.findings);
    let f = found[0];
    assert_eq!(
        (f.line, f.rank, f.other_rank),
        (alloc, Some(0), Some(1)),
        "{f:#?}"
    );
    assert!(
        f.message.contains("never executed by its peer CTA rank 1"),
        "{}",
        f.message
    );
}
