//! Tensor Memory's lifecycle in one CTA, as the hazard checker follows it: the columns each
//! `tcgen05.alloc` granted and not yet freed, and each warp's `tcgen05.ld` not yet waited.
//! Findings (the tracker stamps the CTA):
//!
//! - memory still allocated when the CTA exits, at the alloc's line (PTX ISA 9.7.16.7.1: a
//!   CTA deallocates all the Tensor Memory it allocated before it exits);
//! - a `tcgen05.dealloc` of columns a load not yet waited reads, at the dealloc with the
//!   load's line (9.7.16.7.1, 9.7.16.8.5; rules.md I12: the load's read of Tensor Memory lasts
//!   until its warp's `wait::ld`, whether or not its registers were used, and a warp that
//!   exits without the wait leaves it outstanding);
//! - a CTA that allocated and exited without `tcgen05.relinquish_alloc_permit`, at the first
//!   alloc (rules.md I5).
//!
//! A second `dealloc` of the same columns, an `alloc` after `relinquish_alloc_permit` and a
//! `dealloc` while an MMA, copy or shift is not committed stop the run itself with a typed
//! error naming the line (`tcgen05::exec`), so they never reach this checker.

use std::collections::BTreeMap;

use super::{Finding, HazardKind};
use crate::observe::TmemStep;

const ALLOC: &str = "PTX ISA 9.7.16.7.1 (tcgen05.alloc/dealloc: all Tensor Memory a CTA allocated must be deallocated before it exits)";
const RELINQUISH: &str = "PTX ISA 9.7.16.7.1 (tcgen05.relinquish_alloc_permit: the CTA gives up the right to allocate; rules.md I5)";
const DEALLOC: &str = "PTX ISA 9.7.16.7.1, 9.7.16.8.5, 9.7.16.6.4.5 (tcgen05.dealloc of columns a tcgen05.ld still reads: wait::ld first; rules.md I12)";

/// A load not yet waited: its line and columns `(first, count)`.
#[derive(Clone, Debug)]
struct Load {
    line: u32,
    columns: (u32, u32),
}

/// The lifecycle of one CTA's Tensor Memory.
#[derive(Default)]
pub(super) struct Lifecycle {
    /// Live allocations: (first column, columns, alloc line, warp).
    allocs: Vec<(u32, u32, u32, u32)>,
    /// Per warp (in warp order, so that findings are the same every run): its loads not yet
    /// waited.
    loads: BTreeMap<u32, Vec<Load>>,
    /// The first `tcgen05.alloc`: (line, warp).
    first_alloc: Option<(u32, u32)>,
    /// `tcgen05.relinquish_alloc_permit` executed.
    relinquished: bool,
}

fn overlap(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 < b.0 + b.1 && b.0 < a.0 + a.1
}

fn finding(kind: HazardKind, line: u32, other: Option<u32>, source: &'static str) -> Finding {
    Finding {
        kind,
        line,
        other_line: other,
        thread: None,
        other_thread: None,
        address: None,
        message: String::new(),
        source,
        cta: 0,
        rank: None,
        other_rank: None,
    }
}

impl Lifecycle {
    /// One step of warp `warp` at `line`; the findings it shows.
    pub fn step(&mut self, warp: u32, line: u32, step: &TmemStep<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        match *step {
            TmemStep::Alloc(first, n) => {
                self.allocs.push((first, n, line, warp));
                self.first_alloc.get_or_insert((line, warp));
            }
            TmemStep::Relinquish => self.relinquished = true,
            TmemStep::Dealloc(first, n) => {
                for (w, loads) in &self.loads {
                    for l in loads.iter().filter(|l| overlap(l.columns, (first, n))) {
                        let mut f = finding(HazardKind::DeallocInUse, line, Some(l.line), DEALLOC);
                        f.thread = Some(warp * 32);
                        f.other_thread = Some(w * 32);
                        f.address = Some(u64::from(first));
                        f.message = format!(
                            "tcgen05.dealloc of columns {first}..{} by warp {warp} while the tcgen05.ld of line {} (warp {w}, columns {}..{}) is not waited",
                            first + n,
                            l.line,
                            l.columns.0,
                            l.columns.0 + l.columns.1
                        );
                        out.push(f);
                    }
                }
                self.allocs.retain(|a| (a.0, a.1) != (first, n));
            }
            TmemStep::Ld(first, n, _) => self.loads.entry(warp).or_default().push(Load {
                line,
                columns: (first, n),
            }),
            TmemStep::WaitLd => {
                self.loads.remove(&warp);
            }
        }
        out
    }

    /// The CTA exits: every allocation still live.
    pub fn end(&mut self) -> Vec<Finding> {
        self.loads.clear();
        let mut out = Vec::new();
        if let (Some((line, warp)), false) = (self.first_alloc, self.relinquished) {
            let mut f = finding(HazardKind::MissingRelinquish, line, None, RELINQUISH);
            f.thread = Some(warp * 32);
            f.message = format!(
                "the CTA allocated Tensor Memory (warp {warp}, line {line}) and exited without tcgen05.relinquish_alloc_permit: a CTA waiting in tcgen05.alloc on the same SM may wait until this one exits"
            );
            out.push(f);
        }
        out.extend(std::mem::take(&mut self.allocs)
            .into_iter()
            .map(|(first, n, line, warp)| {
                let mut f = finding(HazardKind::TmemLeak, line, None, ALLOC);
                f.thread = Some(warp * 32);
                f.address = Some(u64::from(first));
                f.message = format!(
                    "Tensor Memory columns {first}..{} allocated by warp {warp} at line {line} are still allocated when the CTA exits (no tcgen05.dealloc)",
                    first + n
                );
                f
            }));
        out
    }
}
