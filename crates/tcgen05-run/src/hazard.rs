//! Hazards between instructions, found on a CPU: data races on shared and global memory,
//! reads of data a tensor copy has not been observed to deliver, generic writes read by the
//! async proxy without `fence.proxy.async`, mbarrier phases that can never complete (arrival
//! counts against `init`, `expect_tx` bytes against bytes delivered), waits on the wrong phase,
//! deadlocks, and Tensor Memory's lifecycle: memory never freed, columns freed under a
//! `tcgen05.ld` not yet waited (its registers may be used before the wait, rules.md I12; its
//! read of Tensor Memory lasts until `tcgen05.wait::ld`), a CTA that never
//! relinquishes its allocation permit, and the asynchronous tcgen05 operations: Tensor Memory
//! read by `tcgen05.ld` before the MMA that writes it is known complete, shared memory or an
//! accumulator overwritten while an MMA or a `tcgen05.ld` still reads it (issue 25).
//!
//! [`check`] runs a kernel with the happens-before tracker attached (vector clocks per thread
//! and per asynchronous agent, a shadow of every byte of memory), first with the default
//! schedule (asynchronous operations complete as late as every synchronisation allows), then
//! with `schedules` seeded schedules (warp interleavings and completion orders chosen among the
//! legal ones).

mod clock;
pub mod explore;
mod kinds;
pub mod module_check;
pub mod sleep;
mod tcgen05_fence;
#[cfg(test)]
mod tests;
mod tmem;
mod tracker;

use crate::error::RunError;
use crate::host::{launch_with, Arg, Config, Hooks};
use crate::module::Module;
use crate::Stats;
use tracker::Tracker;

pub use explore::{explore, replay, walk, Exploration, Outcome, Walk, Walked};
pub use module_check::{check_module, EntryReport, ModuleOptions, Notice, NoticeKind, Scalar};

/// What kind of hazard a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HazardKind {
    /// Two accesses of the same byte, at least one a write, with no happens-before between
    /// them.
    DataRace,
    /// A read of bytes an asynchronous operation writes, before its completion was observed.
    ReadBeforeComplete,
    /// A write over bytes an asynchronous operation still reads or writes.
    WriteBeforeComplete,
    /// A generic-proxy write read by the async proxy with no `fence.proxy.async` between.
    MissingProxyFence,
    /// An mbarrier whose arrivals cannot match its `init` count.
    MbarrierCount,
    /// An mbarrier phase whose `expect_tx` bytes differ from the bytes delivered.
    ExpectTx,
    /// A wait that passed on a phase before the one that delivers the data read after it.
    WaitParity,
    /// Every live warp blocked with nothing asynchronous pending.
    Deadlock,
    /// Tensor Memory still allocated when its CTA exits (PTX ISA 9.7.16.7.1).
    TmemLeak,
    /// `tcgen05.dealloc` of columns a `tcgen05.ld` not yet waited reads (PTX ISA 9.7.16.7.1,
    /// 9.7.16.8.5).
    DeallocInUse,
    /// A CTA allocated Tensor Memory and exited without `tcgen05.relinquish_alloc_permit`
    /// (PTX ISA 9.7.16.7.1; rules.md I5).
    MissingRelinquish,
    /// `tcgen05.alloc.cta_group::2` before any synchronisation with the peer CTA: the peer may
    /// not be launched (PTX ISA 9.7.16.7.1; rules.md I7; NVIDIA/cutlass#3316).
    PairLaunch,
    /// `tcgen05.dealloc.cta_group::2` not ordered after the peer's `alloc`, or after an access
    /// of the freed columns (PTX ISA 9.7.16.7.1; rules.md I7; NVIDIA/cutlass#3435).
    PairDeallocEarly,
    /// A `.shared::cluster` access of another CTA's shared memory not ordered before that CTA's
    /// exit (CUDA C++ Programming Guide, distributed shared memory).
    DsmemAfterExit,
    /// A `tcgen05.alloc.cta_group::2` the other CTA of the pair never executed: on a GPU the
    /// allocating warp waits forever (PTX ISA 9.7.16.7.1; rules.md I3).
    PairAllocUnjoined,
    /// Two tcgen05 accesses of Tensor Memory ordered only through a
    /// relaxed synchronisation without `tcgen05.fence::before_thread_sync` in the arriving
    /// thread or `after_thread_sync` in the waiting one (PTX ISA 9.7.16.6.3; rules.md I9).
    MissingTcgen05Fence,
}

impl HazardKind {
    /// The kind's name in text and JSON output.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            HazardKind::DataRace => "data-race",
            HazardKind::ReadBeforeComplete => "read-before-complete",
            HazardKind::WriteBeforeComplete => "write-before-complete",
            HazardKind::MissingProxyFence => "missing-proxy-fence",
            HazardKind::MbarrierCount => "mbarrier-count",
            HazardKind::ExpectTx => "expect-tx",
            HazardKind::WaitParity => "wait-parity",
            HazardKind::Deadlock => "deadlock",
            HazardKind::TmemLeak => "tmem-leak",
            HazardKind::DeallocInUse => "dealloc-in-use",
            HazardKind::MissingRelinquish => "missing-relinquish",
            HazardKind::PairLaunch => "pair-launch",
            HazardKind::PairDeallocEarly => "pair-dealloc-early",
            HazardKind::DsmemAfterExit => "dsmem-after-exit",
            HazardKind::PairAllocUnjoined => "pair-alloc-unjoined",
            HazardKind::MissingTcgen05Fence => "missing-tcgen05-fence",
        }
    }
}

/// One hazard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Its kind.
    pub kind: HazardKind,
    /// The PTX line of the access (or wait, or `init`) that shows it.
    pub line: u32,
    /// The conflicting line, if any.
    pub other_line: Option<u32>,
    /// The thread (index within its CTA) of `line`.
    pub thread: Option<u32>,
    /// The thread of `other_line`.
    pub other_thread: Option<u32>,
    /// The address (shared-window offset or global address) or the mbarrier's shared address.
    pub address: Option<u64>,
    /// What happened.
    pub message: String,
    /// The rule's source (a PTX ISA section).
    pub source: &'static str,
    /// The CTA (linear index, x fastest).
    pub cta: u64,
    /// In a cluster of more than one CTA: the cluster rank of the CTA of `line`.
    pub rank: Option<u32>,
    /// In a cluster of more than one CTA: the cluster rank of the CTA of `other_line`.
    pub other_rank: Option<u32>,
}

/// How to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Seeded schedules to run after the default one (seeds 1..=schedules).
    pub schedules: u32,
}

/// What a check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Every finding, one per (kind, line, other line), default schedule first.
    pub findings: Vec<Finding>,
    /// The seed of the first schedule that showed each finding (0: the default schedule).
    pub seeds: Vec<u64>,
    /// Runs made.
    pub runs: u32,
    /// The default schedule's run statistics, when it finished.
    pub stats: Option<Stats>,
    /// The default schedule's deadlock, if it ended in one.
    pub deadlock: Option<RunError>,
    /// The run error (not a deadlock) that stopped a schedule after the tracker had found
    /// something: its findings are kept (an invalid `mbarrier.init` count found at the init
    /// is not lost to the out-of-order read it leads to), and no later schedule is run.
    pub error: Option<RunError>,
}

/// Runs `kernel` under the hazard tracker with the default schedule and `options.schedules`
/// seeded ones. `args` receives the default schedule's buffers.
///
/// # Errors
/// Every error of [`crate::launch`] but a deadlock, which is a finding, and an error after
/// findings ([`Report::error`]).
pub fn check(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    options: &Options,
) -> Result<Report, RunError> {
    check_with(
        module,
        kernel,
        config,
        args,
        options,
        crate::approx::Approx::default(),
    )
}

/// [`check`] with approximate instructions computed as correctly rounded ([`crate::approx`],
/// `--approx`).
///
/// # Errors
/// As [`check`].
pub fn check_with(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    options: &Options,
    approx: crate::approx::Approx,
) -> Result<Report, RunError> {
    let mut report = Report {
        findings: Vec::new(),
        seeds: Vec::new(),
        runs: 0,
        stats: None,
        deadlock: None,
        error: None,
    };
    // The seeded schedules each start from the arguments as given (a copy only when there
    // are any: the default schedule writes into `args`).
    let original = if options.schedules > 0 {
        args.to_vec()
    } else {
        Vec::new()
    };
    for seed in 0..=u64::from(options.schedules) {
        let mut tracker = Tracker::default();
        let mut scratch = if seed > 0 {
            original.clone()
        } else {
            Vec::new()
        };
        let target: &mut [Arg] = if seed == 0 { args } else { &mut scratch };
        let hooks = Hooks {
            observer: Some(&mut tracker),
            seed: (seed > 0).then_some(seed),
            choices: None,
            approx,
        };
        let result = launch_with(module, kernel, config, target, hooks);
        report.runs += 1;
        match result {
            Ok(stats) if seed == 0 => report.stats = Some(stats),
            Ok(_) => {}
            Err(e @ RunError::Deadlock { .. }) if seed == 0 => report.deadlock = Some(e),
            Err(RunError::Deadlock { .. }) => {}
            Err(e) => {
                // What the stopped CTA's end found is the error's consequence.
                tracker.findings.truncate(tracker.before_end);
                if tracker.findings.is_empty() {
                    return Err(e);
                }
                report.error = Some(e);
            }
        }
        for f in tracker.findings {
            let key = (f.kind, f.line, f.other_line);
            if !report
                .findings
                .iter()
                .any(|g| (g.kind, g.line, g.other_line) == key)
            {
                report.findings.push(f);
                report.seeds.push(seed);
            }
        }
        if report.error.is_some() {
            break;
        }
    }
    Ok(report)
}
