//! The rules of the CTA pair's Tensor Memory (`.cta_group::2`, PTX ISA 9.7.16.5.1, 9.7.16.7.1;
//! rules.md I7), checked on the cluster's clocks ([`super::cluster`]):
//!
//! - `pair-launch`: a CTA's `tcgen05.alloc.cta_group::2` must come after its peer CTA is known
//!   to be launched (PTX ISA 9.7.16.7.1: "the issuing warp must make sure that peer CTA is
//!   launched"): some synchronisation with a thread of the peer (a `barrier.cluster`, relaxed
//!   or not, or an mbarrier the peer arrived on) before the alloc. NVIDIA/cutlass#3316.
//! - `pair-dealloc-early`: a CTA's `tcgen05.dealloc.cta_group::2` must be ordered after the
//!   peer's `tcgen05.alloc.cta_group::2` of the same columns (NVIDIA/cutlass#3435: a dealloc
//!   that runs before the peer's alloc completed fails the launch), and after every access of
//!   the freed columns of this CTA's Tensor Memory by an asynchronous operation or `tcgen05.ld`
//!   (the MMA the other CTA issued reads and writes both CTAs' Tensor Memory).
//!
//! - `pair-alloc-unjoined`: a `tcgen05.alloc.cta_group::2` the other CTA never executed (a run
//!   error without an observer, `tcgen05::pair::finish`; rules.md I3).
//!
//! Each CTA's relinquish is checked per CTA (`missing-relinquish`).

use super::super::clock::Clock;
use super::super::{Finding, HazardKind};
use super::cluster::TMEM_CELLS;
use super::shadow::stamps;
use super::Tracker;
use crate::observe::TmemStep;

const LAUNCH: &str = "PTX ISA 9.7.16.7.1 (tcgen05.alloc.cta_group::2: the issuing warp must make sure that the peer CTA is launched; rules.md I7; NVIDIA/cutlass#3316)";
const UNJOINED: &str = "PTX ISA 9.7.16.7.1 (tcgen05.alloc.cta_group::2 is executed by one warp of each CTA of the pair, collectively; rules.md I3)";
const DEALLOC: &str = "PTX ISA 9.7.16.7.1, 9.7.16.5.1 (tcgen05.dealloc.cta_group::2 after the peer's tcgen05.alloc and after the last use of the columns by either CTA of the pair; rules.md I7; NVIDIA/cutlass#3435)";

/// One CTA's `tcgen05.alloc.cta_group::2`: its line, thread slot and the thread's clock.
#[derive(Clone, Debug)]
struct Alloc {
    line: u32,
    thread: u32,
    clock: u32,
}

/// A dealloc made before the peer allocated: its line, thread slot and rank.
#[derive(Clone, Copy, Debug)]
struct Early {
    line: u32,
    thread: u32,
    rank: u32,
}

/// The pair's allocations and early deallocations, by rank.
#[derive(Default)]
pub(in crate::hazard) struct PairRules {
    allocs: super::shadow::Map<u32, Alloc>,
    early: Vec<Early>,
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

impl Tracker {
    /// A `.cta_group::2` lifecycle step of warp `warp` of the running CTA.
    pub(super) fn pair_step(&mut self, warp: u32, line: u32, step: &TmemStep<'_>) {
        let rank = self.cl.rank;
        let g = self.global(warp * 32);
        match *step {
            TmemStep::Alloc(..) => self.pair_alloc(rank, g, line),
            TmemStep::Dealloc(first, n) => self.pair_dealloc(rank, g, line, (first, n)),
            _ => {}
        }
    }

    fn pair_alloc(&mut self, rank: u32, g: u32, line: u32) {
        let peer = rank ^ 1;
        let s = self.cl.stride;
        let launched = (peer * s..(peer + 1) * s).any(|p| self.knows(g, p) >= 1);
        let peer_line = self.cl.pair.allocs.get(&peer).map(|a| a.line);
        if !launched {
            let mut f = finding(HazardKind::PairLaunch, line, peer_line, LAUNCH);
            f.thread = Some(g);
            f.other_rank = Some(peer);
            f.message = format!(
                "tcgen05.alloc.cta_group::2 by warp {} of CTA rank {rank} before any synchronisation with its peer CTA rank {peer}: the peer may not be launched yet (a barrier.cluster before the alloc orders it)",
                (g % s.max(1)) / 32
            );
            self.report(f);
        }
        let clock = self.clocks[g as usize].get(g as usize);
        self.cl.pair.allocs.insert(
            rank,
            Alloc {
                line,
                thread: g,
                clock,
            },
        );
        let early: Vec<Early> = self
            .cl
            .pair
            .early
            .iter()
            .copied()
            .filter(|e| e.rank == peer)
            .collect();
        self.cl.pair.early.retain(|e| e.rank != peer);
        for e in early {
            self.dealloc_before_alloc(e, rank, g, line);
        }
    }

    fn dealloc_before_alloc(&mut self, e: Early, peer: u32, peer_thread: u32, peer_line: u32) {
        let mut f = finding(
            HazardKind::PairDeallocEarly,
            e.line,
            Some(peer_line),
            DEALLOC,
        );
        f.thread = Some(e.thread);
        f.other_thread = Some(peer_thread);
        f.message = format!(
            "tcgen05.dealloc.cta_group::2 in CTA rank {} is not ordered after the tcgen05.alloc.cta_group::2 of its peer CTA rank {peer} (line {peer_line}): a barrier.cluster between the peer's alloc and this dealloc orders them",
            e.rank
        );
        self.report(f);
    }

    fn pair_dealloc(&mut self, rank: u32, g: u32, line: u32, columns: (u32, u32)) {
        let peer = rank ^ 1;
        match self.cl.pair.allocs.get(&peer).cloned() {
            None => self.cl.pair.early.push(Early {
                line,
                thread: g,
                rank,
            }),
            Some(a) if self.knows(g, a.thread) < a.clock => {
                let e = Early {
                    line,
                    thread: g,
                    rank,
                };
                self.dealloc_before_alloc(e, peer, a.thread, a.line);
            }
            Some(_) => {}
        }
        self.last_use(rank, g, line, columns);
    }

    /// The dealloc by slot `g` of `columns` of CTA `rank` against every access of their cells
    /// that does not happen before it.
    fn last_use(&mut self, rank: u32, g: u32, line: u32, (first, n): (u32, u32)) {
        let vc: Clock = self.clocks[g as usize].clone();
        let base = u64::from(rank) * TMEM_CELLS;
        let mut hit = None;
        'cells: for lane in 0..128u64 {
            for col in u64::from(first)..u64::from(first + n).min(512) {
                let Some(c) = self.tmem_cells.get((base + lane * 512 + col) as usize) else {
                    continue;
                };
                for s in stamps(c, &self.reads_local) {
                    let known = vc.get(s.slot as usize).max(
                        self.cl
                            .xclocks
                            .get(&g)
                            .map_or(0, |x| x.get(s.slot as usize)),
                    );
                    if s.clock > known {
                        hit = Some((*s, lane, col));
                        break 'cells;
                    }
                }
            }
        }
        let Some((s, lane, col)) = hit else {
            return;
        };
        let mut f = finding(HazardKind::PairDeallocEarly, line, Some(s.line), DEALLOC);
        f.thread = Some(g);
        f.other_thread = Some(s.thread);
        f.address = Some(lane * 512 + col);
        f.message = format!(
            "tcgen05.dealloc.cta_group::2 in CTA rank {rank} frees lane {lane} column {col}, which the {} of line {} ({}) accesses, not known complete for the deallocating warp",
            if s.op.is_some() { "asynchronous operation" } else { "access" },
            s.line,
            self.who(s.thread)
        );
        self.report(f);
    }

    /// The cluster ends: deallocs whose peer never allocated are reported as the alloc the
    /// peer never joined ([`Tracker::pair_unjoined`]).
    pub(super) fn pair_end(&mut self) {
        self.cl.pair.early.clear();
    }

    /// The cluster ended with the alloc of line `line` (by CTA `rank ^ 1`) never executed by
    /// CTA `rank`: its allocating warp would wait forever.
    pub(super) fn pair_unjoined(&mut self, rank: u32, line: u32) {
        let by = rank ^ 1;
        let mut f = finding(HazardKind::PairAllocUnjoined, line, None, UNJOINED);
        f.thread = self.cl.pair.allocs.get(&by).map(|a| a.thread);
        f.rank = Some(by);
        f.other_rank = Some(rank);
        f.message = format!(
            "tcgen05.alloc.cta_group::2 by CTA rank {by} at line {line} is never executed by its peer CTA rank {rank}: the pair allocates collectively, and on a GPU the allocating warp waits forever"
        );
        self.report(f);
    }
}
