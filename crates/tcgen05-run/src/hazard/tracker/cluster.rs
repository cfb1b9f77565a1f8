//! The tracker across the CTAs of a cluster (PTX ISA 5.2.3): one vector clock slot per thread
//! of the cluster (rank `r`'s thread `t` is slot `r * stride + t`, `stride` the CTA's threads
//! rounded up to whole warps), one shadow of shared memory and of Tensor Memory per CTA, and
//! mbarriers named by their `.shared::cluster` address (rank 0's by its offset). Events arrive
//! with the running CTA's threads and addresses ([`crate::observe::Event::Rank`]); this module
//! turns them into the cluster's before the tracker sees them, and back into a CTA's rank and
//! thread in each finding.
//!
//! `barrier.cluster` (PTX ISA 9.7.13.2): an arrival with `.release` (the default) releases the
//! thread's clock into the barrier's phase, `.relaxed` does not; a thread released by
//! `barrier.cluster.wait` (always `.acquire`) acquires the phase it arrived at. Every arrival,
//! relaxed too, also counts for the execution order of the pair's rules ([`super::pair`]):
//! the barrier tells each thread that every other thread of the cluster has reached its
//! arrival, whether or not memory is ordered by it.

use super::super::clock::Clock;
use super::super::Finding;
use super::pair::PairRules;
use super::shadow::{stamps, Map as HashMap};
use super::Tracker;
use crate::observe::{peer_key, split_key};
use crate::observe::{Access, AsyncKind, Event, Space, TmemStep};

/// Tensor Memory cells of one CTA (128 lanes x 512 columns).
pub(super) const TMEM_CELLS: u64 = 128 * 512;

/// The cluster's part of the tracker.
#[derive(Default)]
pub(super) struct ClusterState {
    /// The running CTA's rank.
    pub rank: u32,
    /// Clock slots per CTA.
    pub stride: u32,
    /// Each rank's linear CTA index; empty for a cluster of one CTA.
    pub ranks: Vec<u64>,
    phase: u64,
    /// Clocks released into the current phase by `.release` arrivals, and by every arrival.
    /// The second (`cur_all`, `done_all`, `xclocks`) is kept only from the first `.relaxed`
    /// arrival on (`relaxed`): until then every arrival releases its clock and each thread's
    /// `xclocks` would be no more than its clock, which [`Tracker::knows`] takes anyway.
    cur: Clock,
    cur_all: Clock,
    done: [Option<Clock>; 2],
    done_all: [Option<Clock>; 2],
    /// The phase each thread last arrived at.
    arrived: HashMap<u32, u64>,
    /// Per thread: what it knows of other threads' progress through relaxed arrivals.
    pub xclocks: HashMap<u32, Clock>,
    /// The rules of the CTA pair.
    pub pair: PairRules,
    /// Each exited CTA's exit: the join of its threads' clocks.
    exits: HashMap<u32, Clock>,
    /// A `.relaxed` arrival happened in this cluster.
    relaxed: bool,
    /// An empty shadow.
    none: super::Shadow<{ super::SHARED_PAGE_BITS }>,
}

impl Tracker {
    /// The cluster slot of thread `t` of the running CTA.
    pub(super) fn global(&self, t: u32) -> u32 {
        self.cl.rank * self.cl.stride + t
    }

    fn global_warp(&self, w: u32) -> u32 {
        self.cl.rank * (self.cl.stride / 32) + w
    }

    /// The rank of cluster slot `g`.
    pub(super) fn rank_of(&self, g: u32) -> u32 {
        g.checked_div(self.cl.stride).unwrap_or(0)
    }

    /// An mbarrier's (or shared byte's) name in the cluster: its offset for rank 0, its
    /// `.shared::cluster` address for the others.
    fn mkey(&self, at: u32) -> u32 {
        let (r, off) = split_key(at);
        match r.unwrap_or(self.cl.rank) {
            0 => off,
            r => peer_key(r, off),
        }
    }

    /// A thread's name in messages.
    pub(super) fn who(&self, g: u32) -> String {
        if self.cl.ranks.is_empty() {
            format!("thread {g}")
        } else {
            format!(
                "thread {} of CTA rank {}",
                g % self.cl.stride.max(1),
                self.rank_of(g)
            )
        }
    }

    /// A byte's or cell's name in messages, and its address within its CTA.
    pub(super) fn place(&self, space: Space, at: u64) -> (String, u64) {
        let of = |r: u64| {
            if self.cl.ranks.is_empty() {
                String::new()
            } else {
                format!(" of CTA rank {r}")
            }
        };
        match space {
            Space::Global => (format!("0x{at:x}"), at),
            Space::Shared => {
                let (r, off) = split_key(at as u32);
                let r = u64::from(r.unwrap_or(0));
                (format!("0x{off:x}{}", of(r)), u64::from(off))
            }
            Space::Tmem => {
                let (r, c) = (at / TMEM_CELLS, at % TMEM_CELLS);
                (format!("lane {} column {}{}", c / 512, c % 512, of(r)), c)
            }
        }
    }

    /// An access of the running CTA as the cluster's.
    pub(super) fn globalize(&self, a: &Access) -> Access {
        let address = match a.space {
            Space::Global => a.address,
            Space::Shared => u64::from(self.mkey(a.address as u32)),
            Space::Tmem => {
                let r = (a.address >> 32)
                    .checked_sub(1)
                    .unwrap_or(u64::from(self.cl.rank));
                r * TMEM_CELLS + (a.address & 0xFFFF_FFFF)
            }
        };
        Access {
            address,
            thread: self.global(a.thread),
            ..*a
        }
    }

    /// A finding with cluster slots as threads: each thread back to its CTA, with its rank.
    pub(super) fn localize(&self, mut f: Finding) -> Finding {
        f.cta = self.cta;
        if self.cl.ranks.is_empty() {
            return f;
        }
        let s = self.cl.stride.max(1);
        let rank = f.thread.map_or(f.rank.unwrap_or(self.cl.rank), |t| t / s);
        f.rank = Some(rank);
        f.other_rank = f.other_thread.map(|t| t / s).or(f.other_rank);
        f.thread = f.thread.map(|t| t % s);
        f.other_thread = f.other_thread.map(|t| t % s);
        f.cta = self
            .cl
            .ranks
            .get(rank as usize)
            .copied()
            .unwrap_or(self.cta);
        f
    }

    /// Reports a finding whose threads are those of CTA `rank`.
    pub(super) fn report_in(&mut self, rank: u32, mut f: Finding) {
        let base = rank * self.cl.stride;
        f.thread = f.thread.map(|t| t + base);
        f.other_thread = f.other_thread.map(|t| t + base);
        self.report(f);
    }

    /// A Tensor Memory lifecycle step of warp `warp` of the running CTA.
    pub(super) fn tmem_step(&mut self, warp: u32, line: u32, step: &TmemStep<'_>) {
        let rank = self.cl.rank;
        let fs = self.tmem.entry(rank).or_default().step(warp, line, step);
        for f in fs {
            self.report_in(rank, f);
        }
    }

    fn cluster_start(&mut self, ctas: &[u64]) {
        let total = ctas.len() * self.cl.stride as usize;
        for t in self.clocks.len()..total {
            let mut c = Clock::default();
            c.set(t, 1);
            self.clocks.push(c);
        }
        self.fences.resize(total, Vec::new());
        self.next_slot = self.next_slot.max(total);
        self.cl.ranks = ctas.to_vec();
    }

    /// What thread `g` knows of slot `s`'s progress: through memory ordering or any arrival.
    pub(super) fn knows(&self, g: u32, s: u32) -> u32 {
        let x = self.cl.xclocks.get(&g).map_or(0, |c| c.get(s as usize));
        self.clocks[g as usize].get(s as usize).max(x)
    }

    fn arrive(&mut self, g: u32, relaxed: bool) {
        let c = &self.clocks[g as usize];
        if !relaxed {
            self.cl.cur.join(c);
        } else if !self.cl.relaxed {
            // Every arrival of the phase so far released its clock into `cur`.
            self.cl.relaxed = true;
            self.cl.cur_all = self.cl.cur.clone();
        }
        if self.cl.relaxed {
            self.cl.cur_all.join(c);
            if let Some(x) = self.cl.xclocks.get(&g) {
                self.cl.cur_all.join(x);
            }
        }
        self.cl.arrived.insert(g, self.cl.phase);
        self.clocks[g as usize].tick(g as usize);
    }

    fn complete(&mut self) {
        let p = (self.cl.phase & 1) as usize;
        self.cl.done[p] = Some(std::mem::take(&mut self.cl.cur));
        self.cl.done_all[p] = self
            .cl
            .relaxed
            .then(|| std::mem::take(&mut self.cl.cur_all));
        self.cl.phase += 1;
    }

    fn waited(&mut self, g: u32) {
        let Some(&phase) = self.cl.arrived.get(&g) else {
            return;
        };
        let p = (phase & 1) as usize;
        if let Some(c) = &self.cl.done[p] {
            self.clocks[g as usize].join(c);
        }
        if let Some(c) = &self.cl.done_all[p] {
            self.cl.xclocks.entry(g).or_default().join(c);
        }
    }

    /// Every event: the cluster's own, then the others with the cluster's threads, warps and
    /// addresses.
    pub(super) fn cluster_event(&mut self, e: &Event<'_>) {
        let buf: Vec<u32>;
        let threads = |me: &Tracker, ts: &[u32]| ts.iter().map(|&t| me.global(t)).collect();
        let e = match *e {
            Event::CtaStart { cta, threads } => {
                self.start(cta, threads);
                self.cl.stride = threads.div_ceil(32) * 32;
                return;
            }
            Event::ClusterStart { ctas } => return self.cluster_start(ctas),
            Event::Rank { rank } => {
                self.cl.rank = rank;
                return;
            }
            Event::ClusterArrive {
                thread, relaxed, ..
            } => return self.arrive(self.global(thread), relaxed),
            Event::ClusterComplete => return self.complete(),
            Event::RankExit { rank } => return self.rank_exit(rank),
            Event::PairUnjoined { rank, line } => return self.pair_unjoined(rank, line),
            Event::ClusterWaited { rank, thread } => {
                return self.waited(rank * self.cl.stride + thread)
            }
            Event::PairTmem { warp, line, step } => return self.pair_step(warp, line, &step),
            Event::BarSync { line, threads: ts } => {
                buf = threads(self, ts);
                Event::BarSync {
                    line,
                    threads: &buf,
                }
            }
            // Named barriers are per CTA: the id carries the rank.
            Event::NamedArrive {
                id,
                line,
                threads: ts,
            } => {
                buf = threads(self, ts);
                Event::NamedArrive {
                    id: self.cl.rank * 16 + id,
                    line,
                    threads: &buf,
                }
            }
            Event::NamedRelease { id, threads: ts } => {
                buf = threads(self, ts);
                Event::NamedRelease {
                    id: self.cl.rank * 16 + id,
                    threads: &buf,
                }
            }
            Event::AsyncWaited {
                id,
                line,
                threads: ts,
            } => {
                buf = threads(self, ts);
                Event::AsyncWaited {
                    id,
                    line,
                    threads: &buf,
                }
            }
            Event::AsyncIssue {
                id,
                line,
                kind,
                threads: ts,
            } => {
                buf = threads(self, ts);
                let kind = match kind {
                    AsyncKind::TensorCopy { dst, bytes, mbar } => AsyncKind::TensorCopy {
                        dst: self.mkey(dst),
                        bytes,
                        mbar: self.mkey(mbar),
                    },
                    AsyncKind::Wgmma { warp } => AsyncKind::Wgmma {
                        warp: self.global_warp(warp),
                    },
                    AsyncKind::Tcgen05 { thread } => AsyncKind::Tcgen05 {
                        thread: self.global(thread),
                    },
                    AsyncKind::TmemLoad { warp } => AsyncKind::TmemLoad {
                        warp: self.global_warp(warp),
                    },
                    AsyncKind::TmemStore { warp } => AsyncKind::TmemStore {
                        warp: self.global_warp(warp),
                    },
                    AsyncKind::BulkStore { thread, write } => AsyncKind::BulkStore {
                        thread: self.global(thread),
                        write,
                    },
                };
                Event::AsyncIssue {
                    id,
                    line,
                    kind,
                    threads: &buf,
                }
            }
            _ => self.translate(e),
        };
        self.on_event(&e);
    }

    /// The events without a slice of threads, in the cluster's terms.
    fn translate<'e>(&self, e: &Event<'e>) -> Event<'e> {
        match *e {
            Event::FenceProxyAsync { thread, line } => Event::FenceProxyAsync {
                thread: self.global(thread),
                line,
            },
            Event::MbarInit {
                thread,
                line,
                mbar,
                count,
            } => Event::MbarInit {
                thread: self.global(thread),
                line,
                mbar: self.mkey(mbar),
                count,
            },
            Event::MbarArrive {
                thread,
                line,
                mbar,
                tx,
                relaxed,
            } => Event::MbarArrive {
                thread: self.global(thread),
                line,
                mbar: self.mkey(mbar),
                tx,
                relaxed,
            },
            Event::MbarWait {
                thread,
                line,
                mbar,
                parity,
                done,
                relaxed,
            } => Event::MbarWait {
                thread: self.global(thread),
                line,
                mbar: self.mkey(mbar),
                parity,
                done,
                relaxed,
            },
            Event::CompleteTx { id, mbar, bytes } => Event::CompleteTx {
                id,
                mbar: self.mkey(mbar),
                bytes,
            },
            Event::Tcgen05Commit { thread, line, mbar } => Event::Tcgen05Commit {
                thread: self.global(thread),
                line,
                mbar: self.mkey(mbar),
            },
            Event::BulkCommit { thread } => Event::BulkCommit {
                thread: self.global(thread),
            },
            Event::BulkWait { thread, n, read } => Event::BulkWait {
                thread: self.global(thread),
                n,
                read,
            },
            Event::FenceMbarrierInit { thread, line } => Event::FenceMbarrierInit {
                thread: self.global(thread),
                line,
            },
            other => other,
        }
    }
}

const DSMEM: &str = "CUDA C++ Programming Guide, distributed shared memory (every access of a thread block's shared memory by another block of the cluster must happen before that block exits; a barrier.cluster before the exit orders them), PTX ISA 9.7.13.2";

impl Tracker {
    /// Every thread of CTA `rank` exited: the accesses of its shared memory by the other CTAs
    /// that do not happen before the exit (the join of its threads' clocks) are findings.
    fn rank_exit(&mut self, rank: u32) {
        let s = self.cl.stride;
        let mut exit = Clock::default();
        for g in rank * s..(rank + 1) * s {
            if let Some(c) = self.clocks.get(g as usize) {
                exit.join(c);
            }
        }
        let shadow = match rank {
            0 => &self.shared,
            r => match self.shared_peers.get(r as usize - 1) {
                Some(v) => v,
                None => &self.cl.none,
            },
        };
        let mut late = None;
        'bytes: for (at, cell) in shadow.iter() {
            for st in stamps(cell, &self.reads_local) {
                let other = st.op.is_none() && st.thread / s.max(1) != rank;
                if other && st.clock > exit.get(st.slot as usize) {
                    late = Some((*st, at as u64));
                    break 'bytes;
                }
            }
        }
        self.cl.exits.insert(rank, exit);
        if let Some((st, at)) = late {
            self.dsmem_finding(rank, st.thread, st.line, at);
        }
    }

    /// A generic access of CTA `rank`'s shared memory after that CTA exited.
    pub(super) fn exited_peer(&mut self, a: &Access) {
        if a.space != Space::Shared || a.proxy != crate::observe::Proxy::Generic {
            return;
        }
        let rank = split_key(a.address as u32).0.unwrap_or(0);
        if rank != self.rank_of(a.thread) && self.cl.exits.contains_key(&rank) {
            let at = u64::from(split_key(a.address as u32).1);
            self.dsmem_finding(rank, a.thread, a.line, at);
        }
    }

    fn dsmem_finding(&mut self, rank: u32, g: u32, line: u32, at: u64) {
        let message = format!(
            "{} at line {line} accesses shared 0x{at:x} of CTA rank {rank}, which exits without anything ordering the access before its exit (no barrier.cluster after the access and before the exit)",
            self.who(g)
        );
        self.report(Finding {
            kind: super::super::HazardKind::DsmemAfterExit,
            line,
            other_line: None,
            thread: Some(g),
            other_thread: None,
            address: Some(at),
            message,
            source: DSMEM,
            cta: self.cta,
            rank: None,
            other_rank: Some(rank),
        });
    }
}
