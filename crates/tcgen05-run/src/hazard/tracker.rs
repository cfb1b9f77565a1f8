//! The happens-before tracker: an [`Observer`] keeping a vector clock per thread and per
//! asynchronous agent, a shadow of every byte of shared and global memory (its last write and
//! the reads since), each mbarrier's phases with the clocks released into them, and the
//! `fence.proxy.async` of every thread. Each access is checked against the shadow as it
//! happens; the findings are collected, one per (kind, line, other line).
//!
//! Happens-before edges (PTX ISA 8, memory consistency model): program order; `bar.sync`
//! (every participating thread acquires what every other released, 9.7.13.1); an mbarrier
//! arrival or a tensor copy's `complete_tx` releases into the current phase, and a wait that
//! observes the phase complete acquires it (9.7.13.15); a `wgmma.wait_group` acquires the
//! retired MMAs (9.7.15.5.2). Generic writes read later by the async proxy also need a
//! `fence.proxy.async` by the writer between the write and the synchronisation (9.7.13.4).

use super::clock::Clock;
use super::tcgen05_fence::{FenceState, Missing};
use super::tmem::Lifecycle;
use super::{Finding, HazardKind};
use crate::error::Blocked;
use crate::observe::split_key;
use crate::observe::{Access, AsyncKind, Event, Observer, Proxy, Space};
use shadow::{Map as HashMap, ReadLists, Set as HashSet, Shadow};

/// Who accessed a byte, when, and where.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stamp {
    slot: u32,
    clock: u32,
    line: u32,
    thread: u32,
    cta: u64,
    /// The asynchronous operation, for an async-proxy access.
    op: Option<u64>,
    /// The warp-instruction it belongs to: the lanes of one warp executing one instruction
    /// together are one memory transaction, not racing with each other (the crate README,
    /// "Hazards": a choice of this checker, pending a ruling).
    instance: u64,
    /// An atomic access (`atom`, `red`, a bulk reduction's element): its scope's code
    /// ([`atomic::code`]); 0 for any other access.
    atomic: u8,
}

/// One byte's history: its last write and the reads since.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cell {
    write: Option<Stamp>,
    /// The first read since the write, kept inline: most bytes are read by one thread or
    /// one operation, and a `Vec` per byte would allocate for each.
    first: Option<Stamp>,
    /// The other reads since the write, one per clock slot: a list of the tracker's
    /// [`ReadLists`] (index + 1; 0: none).
    more: u32,
    /// The byte the last write stored, when known (a generic `st`; rules.md I11).
    value: Option<u8>,
}

/// An issued asynchronous operation.
#[derive(Clone, Debug)]
struct OpState {
    clock: Clock,
    slot: usize,
    line: u32,
    thread: u32,
    kind: AsyncKind,
    /// For a tensor copy: the phase of its mbarrier it was issued in.
    phase: u64,
}

/// The checker's model of one mbarrier (PTX ISA 9.7.13.15.1-5).
#[derive(Clone, Debug, Default)]
struct MbarModel {
    count: u64,
    init_line: u32,
    pending: u64,
    tx: i64,
    phase: u64,
    arrivals: u64,
    cur: Clock,
    done: [Option<Clock>; 2],
    arrive_line: u32,
    expect_line: u32,
    expected: u64,
    delivered: u64,
    copy_line: u32,
    /// The `mbarrier.init`: its thread's slot and that thread's clock at the init.
    init_by: Option<(u32, u32)>,
}

impl MbarModel {
    fn settle(&mut self) {
        if self.pending == 0 && self.tx == 0 {
            let p = (self.phase & 1) as usize;
            self.done[p] = Some(std::mem::take(&mut self.cur));
            self.phase += 1;
            self.pending = self.count;
            self.arrivals = 0;
            self.expected = 0;
            self.delivered = 0;
        }
    }
}

/// An arrival on a phase whose pending arrival count is already zero (its transaction bytes
/// still pending): more arrivals in one phase than the `init` count, which the count does not
/// account for (the interpreter's phase then completes on the bytes alone; PTX ISA
/// 9.7.13.15.1: the expected arrival count of every phase is `init`'s count).
fn excess_arrival(m: &MbarModel, mbar: u32, line: u32, cta: u64) -> Option<Finding> {
    (m.pending == 0 && m.count > 0).then(|| Finding {
        kind: HazardKind::MbarrierCount,
        line: m.init_line,
        other_line: Some(line),
        thread: None,
        other_thread: None,
        address: Some(u64::from(mbar)),
        message: format!(
            "mbarrier at shared 0x{mbar:x} initialised with count {}: phase {} received arrival {} at line {line} while its pending arrival count was already zero (transaction bytes pending): more arrivals than the count",
            m.count,
            m.phase,
            m.arrivals + 1
        ),
        source: "PTX ISA 9.7.13.15.1 (mbarrier phases: the expected arrival count of every phase is the init count)",
        cta,
        rank: None,
        other_rank: None,
    })
}

const MEMORY_MODEL: &str = "PTX ISA 8 (memory consistency model: conflicting accesses with no causality order are a data race)";
pub(super) const MBARRIER_TX: &str = "PTX ISA 9.7.13.15 (mbarrier: a phase completes when the pending arrivals and the tx-count reach zero; complete_tx)";
const TCGEN05: &str = "PTX ISA 9.7.16.6, 9.7.16.11.1 (an asynchronous tcgen05 operation completes for other threads only through its tcgen05.commit's mbarrier phase, a tcgen05.ld through tcgen05.wait::ld)";
const TC_FENCE: &str = "PTX ISA 9.7.16.6.3, 9.7.16.6.4 (tcgen05.fence::before_thread_sync in the arriving thread and after_thread_sync in the waiting one order tcgen05 operations, of one thread or two, across a relaxed synchronisation; rules.md I9)";
const PROXY: &str = "PTX ISA 9.7.13.4 (fence.proxy.async: generic-proxy writes need a proxy fence before the async proxy reads them)";

/// The tracker.
#[derive(Default)]
pub(crate) struct Tracker {
    cta: u64,
    clocks: Vec<Clock>,
    fences: Vec<Vec<u32>>,
    /// Per thread: its clock at each of its `fence.proxy.async`, for a fence on the reading
    /// side (write, synchronisation, then the reader's fence before its async-proxy access).
    fence_clocks: HashMap<u32, Vec<Clock>>,
    agents: HashMap<(u8, u32), usize>,
    agent_clock: HashMap<usize, u32>,
    next_slot: usize,
    ops: HashMap<u64, OpState>,
    pending_copies: Vec<u64>,
    mbars: HashMap<u32, MbarModel>,
    last_wait: HashMap<(u32, u32), (u32, i64)>,
    shared: Shadow<SHARED_PAGE_BITS>,
    /// Tensor Memory's shadow, cell `lane * 512 + column`, in pages of 64 columns.
    tmem_cells: Shadow<TMEM_PAGE_BITS>,
    /// The further reads of shared memory and Tensor Memory bytes (reset with their shadows).
    reads_local: ReadLists,
    /// The further reads of global memory bytes (kept across CTAs, as `global` is).
    reads_global: ReadLists,
    /// Per thread: its asynchronous tcgen05 operations not yet committed.
    tc_pending: HashMap<u32, Vec<u64>>,
    /// Per committed tcgen05 operation: the mbarrier and phase its commit arrived on.
    tc_commit: HashMap<u64, (u32, u64)>,
    /// Global memory's shadow in pages of `2^GLOBAL_PAGE_BITS` bytes.
    global: HashMap<u64, Vec<Cell>>,
    deadlocked: bool,
    /// Per warp: the current instruction instance, its line and the lanes seen in it.
    warp_instance: HashMap<u32, (u64, u32, u32)>,
    instances: u64,
    seen: HashSet<(HazardKind, u32, u32)>,
    /// Each CTA's Tensor Memory lifecycle, by cluster rank.
    tmem: HashMap<u32, Lifecycle>,
    /// Shared memory's shadow of the cluster's CTAs of rank 1 and up (rank 0's is `shared`).
    shared_peers: Vec<Shadow<SHARED_PAGE_BITS>>,
    /// Per thread: the clocks of its asynchronous tcgen05 operations committed so far (a
    /// later commit tracks them too, PTX ISA 9.7.16.11.1).
    tc_done: HashMap<u32, Clock>,
    /// The cluster: the running CTA's rank, the barrier, the pair's rules ([`cluster`]).
    cl: cluster::ClusterState,
    /// The tcgen05 fences around relaxed synchronisation (rules.md I9).
    fence: FenceState,
    /// Per named barrier (rank * 16 + id): what its current phase's arrivals released.
    named: HashMap<u32, named_barrier::Phase>,
    /// The bytes of the generic `st` whose access comes next (rules.md I11).
    store_bytes: Option<Vec<u8>>,
    /// The semantics and scope of the atomic whose access comes next.
    atomic_next: Option<(crate::atom::AtomSem, crate::atom::AtomScope)>,
    /// The clocks `.release` atomics released, per location ([`atomic`]).
    released: atomic::Released,
    /// The atomic whose access comes next is an `atom.cas`.
    cas_next: bool,
    /// Races of a plain read with atomics, held until the reading thread's `atom.cas` of the
    /// bytes excuses them or the run ends (rules.md I13).
    deferred: atomic::Deferred,
    /// The bulk async-groups of each thread ([`bulk_group`]).
    bulk: bulk_group::BulkGroups,
    /// Per thread: its clock at its last `fence.mbarrier_init.release.cluster`.
    init_fence: HashMap<u32, u32>,
    /// The findings so far.
    pub findings: Vec<Finding>,
    /// How many findings there were when the last CTA's end was checked: a run stopped by an
    /// error still ends its CTA, and what that end finds (memory never freed, phases never
    /// completed) is the error's consequence, not the kernel's.
    pub before_end: usize,
}

mod atomic;
mod bulk_group;
mod cluster;
mod copy_overlap;
mod mbarrier_init;
mod named_barrier;
mod pair;
mod same_value;
mod shadow;

/// Shared memory's shadow pages: 1024 bytes.
const SHARED_PAGE_BITS: u32 = 10;
/// Tensor Memory's shadow pages: 64 cells (columns of one lane).
const TMEM_PAGE_BITS: u32 = 6;
/// Global memory's shadow pages: 1024 bytes.
const GLOBAL_PAGE_BITS: u32 = 10;

impl Tracker {
    fn report(&mut self, f: Finding) {
        let f = self.localize(f);
        if self
            .seen
            .insert((f.kind, f.line, f.other_line.unwrap_or(0)))
        {
            self.findings.push(f);
        }
    }

    fn agent(&mut self, key: (u8, u32)) -> usize {
        let next = &mut self.next_slot;
        *self.agents.entry(key).or_insert_with(|| {
            *next += 1;
            *next - 1
        })
    }

    /// Whether `t` executed a `fence.proxy.async` after its write at `clock` that happens
    /// before `vc`, or the `reader` (the thread that issued the async-proxy access) executed
    /// one after the write reached it and before the issue (PTX ISA 9.7.13.4: a proxy fence
    /// of either thread along the causality order).
    fn fenced(&self, t: u32, clock: u32, vc: &Clock, reader: Option<u32>) -> bool {
        let f = &self.fences[t as usize];
        let by_reader = reader.is_some_and(|r| {
            self.fence_clocks.get(&r).is_some_and(|fs| {
                fs.iter().any(|fc| {
                    fc.get(r as usize) <= vc.get(r as usize) && clock <= fc.get(t as usize)
                })
            })
        });
        if by_reader {
            return true;
        }
        let i = f.partition_point(|&c| c <= clock);
        f.get(i).is_some_and(|&c| c <= vc.get(t as usize))
    }

    fn start(&mut self, cta: u64, threads: u32) {
        let findings = std::mem::take(&mut self.findings);
        let seen = std::mem::take(&mut self.seen);
        let global = std::mem::take(&mut self.global);
        let reads_global = std::mem::take(&mut self.reads_global);
        *self = Tracker {
            cta,
            findings,
            seen,
            global,
            reads_global,
            next_slot: threads as usize,
            ..Tracker::default()
        };
        self.clocks = (0..threads as usize)
            .map(|t| {
                let mut c = Clock::default();
                c.set(t, 1);
                c
            })
            .collect();
        self.fences = vec![Vec::new(); threads as usize];
        self.fence.start(threads);
    }

    /// The warp-instruction instance of an access: a new one when the warp's lane accesses
    /// again or the line changes.
    fn instance(&mut self, a: &Access, thread: u32) -> u64 {
        if a.proxy != Proxy::Generic {
            self.instances += 1;
            return self.instances;
        }
        let bit = 1u32 << (thread % 32);
        let next = self.instances + 1;
        let e = self.warp_instance.entry(thread / 32).or_insert((0, 0, 0));
        if e.0 == 0 || e.1 != a.line || e.2 & bit != 0 {
            *e = (next, a.line, 0);
            self.instances = next;
        }
        e.2 |= bit;
        e.0
    }

    /// A generic access of shared memory a tensor copy will write before it is performed.
    fn pending_overlap(&mut self, a: &Access) {
        let (lo, hi) = (a.address, a.address + u64::from(a.size));
        let mut hits = Vec::new();
        for id in &self.pending_copies {
            let op = &self.ops[id];
            if let AsyncKind::TensorCopy { dst, bytes, mbar } = op.kind {
                let (d0, d1) = (u64::from(dst), u64::from(dst) + bytes);
                if lo < d1 && d0 < hi {
                    hits.push((op.line, op.thread, lo.max(d0), mbar, op.phase));
                }
            }
        }
        for (line, thread, at, mbar, phase) in hits {
            let kind = if a.write {
                HazardKind::WriteBeforeComplete
            } else {
                HazardKind::ReadBeforeComplete
            };
            self.report(Finding {
                kind,
                line: a.line,
                other_line: Some(line),
                thread: Some(a.thread),
                other_thread: Some(thread),
                address: Some(at),
                message: format!(
                    "{} of shared 0x{at:x} while the tensor copy of line {line} that writes it is still in flight (its mbarrier phase was not observed complete)",
                    if a.write { "write" } else { "read" }
                ),
                source: MBARRIER_TX,
                cta: self.cta,
                rank: None,
                other_rank: None,
            });
            self.stale_wait(a.thread, mbar, phase, a.line);
        }
    }

    /// The thread's last wait on `mbar` passed on a phase before the one a copy completes.
    fn stale_wait(&mut self, thread: u32, mbar: u32, phase: u64, read_line: u32) {
        if let Some(&(line, observed)) = self.last_wait.get(&(thread, mbar)) {
            if observed < phase as i64 {
                self.report(Finding {
                    kind: HazardKind::WaitParity,
                    line,
                    other_line: Some(read_line),
                    thread: Some(thread),
                    other_thread: None,
                    address: Some(u64::from(mbar)),
                    message: format!(
                        "this wait on the mbarrier at shared 0x{mbar:x} passed on phase {observed}, but the access at line {read_line} is ordered only by phase {phase} (the completion of the asynchronous operation it depends on): the parity waited for is not that phase"
                    ),
                    source: MBARRIER_TX,
                    cta: self.cta,
                    rank: None,
                    other_rank: None,
                });
            }
        }
    }

    fn conflict(
        &mut self,
        (prior, prior_write, at): (Stamp, bool, u64),
        now: Stamp,
        write: bool,
        space: Space,
    ) {
        if space == Space::Tmem && self.missing_fence((prior, at), now) {
            return;
        }
        let kind = match (prior.op.is_some(), write) {
            (true, false) => HazardKind::ReadBeforeComplete,
            (true, true) => HazardKind::WriteBeforeComplete,
            _ => HazardKind::DataRace,
        };
        let sp = match space {
            Space::Shared => "shared",
            Space::Global => "global",
            Space::Tmem => "Tensor Memory",
        };
        let (place, at) = self.place(space, at);
        let tc = [prior.op, now.op]
            .iter()
            .any(|o| o.is_some_and(|id| id >= crate::tcgen05::ID_BASE));
        if let Some(&(mbar, phase)) = prior.op.and_then(|id| self.tc_commit.get(&id)) {
            self.stale_wait(now.thread, mbar, phase, now.line);
        }
        let who = |s: &Stamp| match s.op {
            Some(_) => format!("the asynchronous operation of line {}", s.line),
            None => format!("{} at line {}", self.who(s.thread), s.line),
        };
        let atomic = |s: &Stamp| if s.atomic != 0 { "atomic " } else { "" };
        let message = format!(
            "{}{} by {} and the earlier {}{} by {} of {sp} {place} are not ordered by any synchronisation{}",
            atomic(&now),
            if write { "write" } else { "read" },
            who(&now),
            atomic(&prior),
            if prior_write { "write" } else { "read" },
            who(&prior),
            if prior.cta != now.cta || self.rank_of(prior.thread) != self.rank_of(now.thread) {
                " (different CTAs)"
            } else {
                ""
            }
        );
        self.report(Finding {
            kind,
            line: now.line,
            other_line: Some(prior.line),
            thread: Some(now.thread),
            other_thread: Some(prior.thread),
            address: Some(at),
            message,
            source: if kind == HazardKind::DataRace {
                MEMORY_MODEL
            } else if [prior.op, now.op]
                .iter()
                .any(|o| o.is_some_and(|id| self.bulk.is_bulk(id)))
            {
                bulk_group::SOURCE
            } else if tc {
                TCGEN05
            } else {
                MBARRIER_TX
            },
            cta: self.cta,
            rank: None,
            other_rank: None,
        });
    }

    fn on_access(&mut self, a: &Access) {
        let (slot, thread) = match a.proxy {
            Proxy::Generic => (a.thread as usize, a.thread),
            Proxy::Async(id) => match self.ops.get(&id) {
                Some(op) => (op.slot, op.thread),
                None => return,
            },
        };
        if a.proxy == Proxy::Generic && a.space == Space::Shared && !self.pending_copies.is_empty()
        {
            self.pending_overlap(a);
        }
        let instance = self.instance(a, thread);
        let stored = same_value::stored(self.store_bytes.take(), a);
        let atomic = self.atomic_next.take();
        if let (Some((sem, scope)), Proxy::Generic) = (atomic, a.proxy) {
            if sem.acquires() {
                self.acquire_at(a, scope);
            }
        }
        let joined: Clock;
        let vc: &Clock = match a.proxy {
            Proxy::Generic if a.space == Space::Tmem => {
                joined = self.tmem_clock(a.thread);
                &joined
            }
            Proxy::Generic => &self.clocks[a.thread as usize],
            Proxy::Async(id) => &self.ops[&id].clock,
        };
        let now = Stamp {
            instance,
            slot: slot as u32,
            clock: vc.get(slot),
            line: a.line,
            thread,
            cta: self.cta,
            op: match a.proxy {
                Proxy::Generic => None,
                Proxy::Async(id) => Some(id),
            },
            atomic: atomic.map_or(0, |(_, scope)| atomic::code(scope)),
        };
        let stride = self.cl.stride;
        let mut found: Vec<(Stamp, bool, u64)> = Vec::new();
        let mut unfenced: Option<(Stamp, u64)> = None;
        let lists = match a.space {
            Space::Global => &mut self.reads_global,
            _ => &mut self.reads_local,
        };
        for b in 0..u64::from(a.size) {
            let at = a.address + b;
            let cell = match a.space {
                Space::Shared => {
                    let (rank, i) = split_key(at as u32);
                    let shadow = match rank.filter(|&r| r > 0) {
                        None => &mut self.shared,
                        Some(r) => {
                            let r = r as usize;
                            if self.shared_peers.len() < r {
                                self.shared_peers.resize_with(r, Shadow::default);
                            }
                            &mut self.shared_peers[r - 1]
                        }
                    };
                    shadow.cell(i as usize)
                }
                Space::Global => {
                    let page = self
                        .global
                        .entry(at >> GLOBAL_PAGE_BITS)
                        .or_insert_with(|| vec![Cell::default(); 1 << GLOBAL_PAGE_BITS]);
                    &mut page[(at & ((1 << GLOBAL_PAGE_BITS) - 1)) as usize]
                }
                Space::Tmem => self.tmem_cells.cell(at as usize),
            };
            let ordered = |s: &Stamp| {
                s.instance == now.instance
                    || (s.cta == now.cta && s.clock <= vc.get(s.slot as usize))
            };
            let value = stored.as_ref().map(|v| v[b as usize]);
            let strong = |s: &Stamp| atomic::strong(s, &now, stride);
            if let Some(w) = cell.write {
                if !ordered(&w) && !strong(&w) {
                    if !(a.write && same_value::same(cell.value, value)) {
                        found.push((w, true, at));
                    }
                } else if !a.write
                    && now.op.is_some()
                    && w.op.is_none()
                    && unfenced.is_none()
                    && a.space != Space::Tmem
                {
                    unfenced = Some((w, at));
                }
            }
            for r in cell.first.iter().chain(lists.get(cell.more)) {
                let conflicts = a.write || r.atomic != 0;
                if conflicts && r.slot != now.slot && !ordered(r) && !strong(r) {
                    found.push((*r, r.atomic != 0, at));
                }
            }
            if a.write && now.atomic == 0 {
                lists.release(std::mem::take(&mut cell.more));
                cell.first = None;
                cell.write = Some(now);
                cell.value = value;
            } else {
                if now.atomic != 0 {
                    cell.value = None;
                }
                atomic::note(cell, lists, now);
            }
        }
        let reader = now.op.map(|_| thread);
        let fenced = unfenced.map(|(w, _)| self.fenced(w.thread, w.clock, vc, reader));
        let cas = std::mem::take(&mut self.cas_next) && now.atomic != 0;
        for f in found {
            match atomic::reader_of(&f, &now, a) {
                Some(t) => self.deferred.hold(t, f, (now, a.write, a.space)),
                None => self.conflict(f, now, a.write, a.space),
            }
        }
        if cas {
            self.deferred.excuse(thread, now.clock, a);
        }
        if let (Some((w, at)), Some(false)) = (unfenced, fenced) {
            self.unfenced(a, w, at);
        }
        match atomic {
            Some((sem, scope)) if sem.releases() && a.proxy == Proxy::Generic => {
                self.release_at(a, scope);
            }
            None if a.write => self.released.clear_at(a),
            _ => {}
        }
    }

    /// A generic write `w` of `at` read by the async-proxy access `a` with no proxy fence
    /// between (PTX ISA 9.7.13.4).
    fn unfenced(&mut self, a: &Access, w: Stamp, at: u64) {
        self.report(Finding {
            kind: HazardKind::MissingProxyFence,
            line: a.line,
            other_line: Some(w.line),
            thread: Some(a.thread),
            other_thread: Some(w.thread),
            address: Some(at),
            message: format!(
                "the async proxy (line {}) reads {} 0x{at:x}, written through the generic proxy by thread {} at line {} with no fence.proxy.async between the write and the synchronisation",
                a.line,
                if a.space == Space::Global { "global" } else { "shared" },
                w.thread,
                w.line
            ),
            source: PROXY,
            cta: self.cta,
            rank: None,
            other_rank: None,
        });
    }
}

impl Observer for Tracker {
    fn access(&mut self, a: &Access) {
        let a = self.globalize(a);
        self.exited_peer(&a);
        self.on_access(&a);
    }

    fn event(&mut self, e: &Event<'_>) {
        self.cluster_event(e);
    }
}

impl Tracker {
    /// An event whose threads, warps and addresses are the cluster's ([`cluster`]).
    fn on_event(&mut self, e: &Event<'_>) {
        match *e {
            Event::CtaStart { cta, threads } => self.start(cta, threads),
            Event::CtaEnd => {
                self.before_end = self.findings.len();
                self.end();
            }
            Event::BarSync { threads, .. } => {
                let mut j = Clock::default();
                for &t in threads {
                    j.join(&self.clocks[t as usize]);
                }
                for &t in threads {
                    // In place: the thread's clock keeps its allocation.
                    self.clocks[t as usize].0.clone_from(&j.0);
                    self.clocks[t as usize].tick(t as usize);
                }
                self.fence.bar_sync(threads);
            }
            Event::FenceProxyAsync { thread, .. } => {
                let c = &mut self.clocks[thread as usize];
                c.tick(thread as usize);
                let v = c.get(thread as usize);
                self.fences[thread as usize].push(v);
                let snapshot = self.clocks[thread as usize].clone();
                self.fence_clocks.entry(thread).or_default().push(snapshot);
            }
            Event::MbarInit {
                thread,
                line,
                mbar,
                count,
            } => {
                self.fence.init(mbar);
                self.init(line, mbar, count);
                self.note_init(thread, mbar);
            }
            Event::MbarArrive {
                thread,
                line,
                mbar,
                tx,
                relaxed,
            } => {
                self.check_init(mbar, (thread, None), (line, "mbarrier.arrive"));
                let vc = self.clocks[thread as usize].clone();
                self.clocks[thread as usize].tick(thread as usize);
                if let Some(m) = self.mbars.get_mut(&mbar) {
                    self.fence.arrive(thread, &vc, mbar, m.phase);
                    if !relaxed {
                        m.cur.join(&vc);
                    }
                    m.tx += tx as i64;
                    if tx > 0 {
                        m.expect_line = line;
                        m.expected += tx;
                    }
                    let extra = excess_arrival(m, mbar, line, self.cta);
                    m.pending = m.pending.saturating_sub(1);
                    m.arrivals += 1;
                    m.arrive_line = line;
                    m.settle();
                    if let Some(f) = extra {
                        self.report(f);
                    }
                }
            }
            Event::MbarWait {
                thread,
                line,
                mbar,
                parity,
                done,
                relaxed,
            } => {
                self.check_init(mbar, (thread, None), (line, "the mbarrier wait"));
                self.wait(thread, line, mbar, (parity, relaxed), done);
            }
            Event::AsyncIssue {
                id,
                line,
                kind,
                threads,
            } => self.issue(id, line, kind, threads),
            Event::AsyncPerform { id } => {
                self.pending_copies.retain(|&p| p != id);
                if let Some(op) = self.ops.get_mut(&id) {
                    let c = self.agent_clock.entry(op.slot).or_insert(0);
                    *c += 1;
                    op.clock.set(op.slot, *c);
                    self.fence.performed(id, op.slot, *c);
                }
            }
            Event::CompleteTx { id, mbar, bytes } => {
                if let (Some(op), Some(m)) = (self.ops.remove(&id), self.mbars.get_mut(&mbar)) {
                    m.cur.join(&op.clock);
                    m.tx -= bytes as i64;
                    m.delivered += bytes;
                    m.copy_line = op.line;
                    m.settle();
                }
            }
            Event::AsyncWaited { id, threads, .. } => {
                self.fence.retire(id);
                if let Some(op) = self.ops.remove(&id) {
                    for &t in threads {
                        self.clocks[t as usize].join(&op.clock);
                    }
                }
            }
            Event::Tcgen05Commit { thread, line, mbar } => {
                self.check_init(mbar, (thread, None), (line, "tcgen05.commit"));
                self.commit(thread, line, mbar);
            }
            Event::Atomic { sem, scope, cas } => {
                self.atomic_next = Some((sem, scope));
                self.cas_next = cas;
            }
            Event::BulkCommit { thread } => self.bulk_commit(thread),
            Event::BulkWait { thread, n, read } => self.bulk_wait(thread, n, read),
            Event::FenceMbarrierInit { thread, .. } => self.fence_mbarrier_init(thread),
            Event::Tcgen05Fence { thread, after, .. } => match self.clocks.get(thread as usize) {
                Some(_) if after => self.fence.after(thread),
                Some(c) => self.fence.before(thread, c),
                None => {}
            },
            Event::Deadlock { warps } => self.deadlock(warps),
            Event::Tmem { warp, line, step } => self.tmem_step(warp, line, &step),
            Event::StoreBytes { bytes } => self.store_bytes = Some(bytes.to_vec()),
            Event::NamedArrive { id, threads, .. } => self.named_arrive(id, threads),
            Event::NamedRelease { id, threads } => self.named_release(id, threads),
            _ => {}
        }
    }
}

impl Tracker {
    /// The clock of thread `t`'s tcgen05 accesses: its own and what its
    /// `tcgen05.fence::after_thread_sync` made effective (rules.md I9).
    fn tmem_clock(&self, t: u32) -> Clock {
        let mut c = self.clocks[t as usize].clone();
        if let Some(e) = self.fence.effective(t) {
            c.join(e);
        }
        c
    }

    /// Reports `missing-tcgen05-fence` when the Tensor Memory access `now` conflicts with the
    /// earlier `prior` only for want of a tcgen05 fence around a relaxed synchronisation
    /// (rules.md I9); whether it did.
    fn missing_fence(&mut self, (prior, at): (Stamp, u64), now: Stamp) -> bool {
        let c = &self.clocks[now.thread as usize];
        let key = (prior.slot as usize, prior.clock);
        let Some(missing) = self.fence.explains(key, now.op, now.thread, c) else {
            return false;
        };
        let which = match missing {
            Missing::After => format!(
                "thread {} has no tcgen05.fence::after_thread_sync between the wait that observed it and line {}",
                now.thread, now.line
            ),
            Missing::Before => format!(
                "the thread that arrived had no tcgen05.fence::before_thread_sync between line {} (or the wait that completed it) and its arrival",
                prior.line
            ),
        };
        self.report(Finding {
            kind: HazardKind::MissingTcgen05Fence,
            line: now.line,
            other_line: Some(prior.line),
            thread: Some(now.thread),
            other_thread: Some(prior.thread),
            address: Some(at),
            message: format!(
                "the tcgen05 access of line {} (thread {}) and the earlier one of line {} (thread {}) of Tensor Memory lane {} column {} are ordered only through a relaxed synchronisation: {which}",
                now.line, now.thread, prior.line, prior.thread, at / 512, at % 512
            ),
            source: TC_FENCE,
            cta: self.cta,
            rank: None,
            other_rank: None,
        });
        true
    }

    fn init(&mut self, line: u32, mbar: u32, count: u64) {
        if count == 0 || count >= 1 << 20 {
            self.report(Finding {
                kind: HazardKind::MbarrierCount,
                line,
                other_line: None,
                thread: None,
                other_thread: None,
                address: Some(u64::from(mbar)),
                message: format!(
                    "mbarrier.init with count {count}: the expected arrival count must be 1 to 2^20 - 1"
                ),
                source: "PTX ISA 9.7.13.15 (mbarrier.init: count in the range 1 to 2^20 - 1)",
                cta: self.cta,
                rank: None,
                other_rank: None,
            });
        }
        self.mbars.insert(
            mbar,
            MbarModel {
                count,
                init_line: line,
                pending: count,
                ..MbarModel::default()
            },
        );
    }

    /// A wait on `mbar` for `parity`; a `relaxed` one acquires only through the tcgen05
    /// fences (rules.md I9).
    fn wait(
        &mut self,
        thread: u32,
        line: u32,
        mbar: u32,
        (parity, relaxed): (u64, bool),
        done: bool,
    ) {
        let Some(m) = self.mbars.get_mut(&mbar) else {
            return;
        };
        m.settle();
        if !done {
            return;
        }
        let observed = if m.phase & 1 != parity & 1 {
            m.phase as i64 - 1
        } else {
            m.phase as i64 - 2
        };
        if let (Some(c), false) = (&m.done[(parity & 1) as usize], relaxed) {
            self.clocks[thread as usize].join(c);
        }
        self.fence.wait(thread, mbar, observed);
        self.last_wait.insert((thread, mbar), (line, observed));
    }

    fn issue(&mut self, id: u64, line: u32, kind: AsyncKind, threads: &[u32]) {
        let mut clock = Clock::default();
        let tc = matches!(kind, AsyncKind::Tcgen05 { .. } | AsyncKind::TmemLoad { .. });
        if tc {
            let with: Vec<(u32, &Clock)> = threads
                .iter()
                .map(|&t| (t, &self.clocks[t as usize]))
                .collect();
            self.fence.issue(id, &with);
        }
        for &t in threads {
            clock.join(&self.clocks[t as usize]);
            if let (true, Some(e)) = (tc, self.fence.effective(t)) {
                clock.join(e);
            }
            self.clocks[t as usize].tick(t as usize);
        }
        if let (AsyncKind::TensorCopy { mbar, .. }, Some(&t)) = (kind, threads.first()) {
            self.check_init(
                mbar,
                (t, Some(&clock)),
                (line, "the copy completing on it, issued"),
            );
        }
        let (key, phase) = match kind {
            AsyncKind::BulkStore { thread, write } => {
                self.bulk.issued(id, thread, write);
                ((5, thread * 2 + u32::from(write)), 0)
            }
            AsyncKind::TensorCopy { mbar, dst, bytes } => {
                self.copy_overlap(line, threads.first().copied().unwrap_or(0), dst, bytes);
                self.pending_copies.push(id);
                ((0, mbar), self.mbars.get(&mbar).map_or(0, |m| m.phase))
            }
            AsyncKind::Wgmma { warp } => ((1, warp), 0),
            AsyncKind::Tcgen05 { thread } => {
                self.tc_pending.entry(thread).or_default().push(id);
                ((2, thread), 0)
            }
            AsyncKind::TmemLoad { warp } => ((3, warp), 0),
            AsyncKind::TmemStore { warp } => ((4, warp), 0),
        };
        let slot = self.agent(key);
        self.ops.insert(
            id,
            OpState {
                clock,
                slot,
                line,
                thread: threads.first().copied().unwrap_or(0),
                kind,
                phase,
            },
        );
    }

    /// `tcgen05.commit` by `thread`: its asynchronous tcgen05 operations (performed by now)
    /// release their clocks, with the thread's, into the mbarrier's current phase, then one
    /// arrival (PTX ISA 9.7.16.11.1).
    fn commit(&mut self, thread: u32, line: u32, mbar: u32) {
        let mut vc = self.clocks[thread as usize].clone();
        self.clocks[thread as usize].tick(thread as usize);
        let phase = self.mbars.get(&mbar).map_or(0, |m| m.phase);
        let done = self.tc_done.entry(thread).or_default();
        for id in self.tc_pending.remove(&thread).unwrap_or_default() {
            self.fence.retire(id);
            if let Some(op) = self.ops.remove(&id) {
                done.join(&op.clock);
                self.tc_commit.insert(id, (mbar, phase));
            }
        }
        vc.join(done);
        self.fence.commit(thread, &vc, mbar, phase);
        if let Some(m) = self.mbars.get_mut(&mbar) {
            m.cur.join(&vc);
            let extra = excess_arrival(m, mbar, line, self.cta);
            m.pending = m.pending.saturating_sub(1);
            m.arrivals += 1;
            m.arrive_line = line;
            m.settle();
            if let Some(f) = extra {
                self.report(f);
            }
        }
    }

    /// Mbarrier phases that can never complete: arrivals short of the count, or transaction
    /// bytes expected and delivered that differ.
    fn unfinished_phases(&mut self, only: Option<&[u32]>) {
        let mut out = Vec::new();
        for (&at, m) in &self.mbars {
            if only.is_some_and(|o| !o.contains(&at)) {
                continue;
            }
            if m.tx != 0 && m.expected > 0 {
                out.push(Finding {
                    kind: HazardKind::ExpectTx,
                    line: m.expect_line,
                    other_line: (m.copy_line > 0).then_some(m.copy_line),
                    thread: None,
                    other_thread: None,
                    address: Some(u64::from(at)),
                    message: format!(
                        "phase {} of the mbarrier at shared 0x{at:x} expects {} transaction bytes and its copies delivered {}: the phase can never complete",
                        m.phase, m.expected, m.delivered
                    ),
                    source: MBARRIER_TX,
                    cta: self.cta,
                    rank: None,
                    other_rank: None,
                });
            } else if m.pending > 0 && m.arrivals > 0 {
                out.push(Finding {
                    kind: HazardKind::MbarrierCount,
                    line: m.init_line,
                    other_line: Some(m.arrive_line),
                    thread: None,
                    other_thread: None,
                    address: Some(u64::from(at)),
                    message: format!(
                        "mbarrier at shared 0x{at:x} initialised with count {}: phase {} received {} arrival(s) and no other can come, so it never completes",
                        m.count, m.phase, m.arrivals
                    ),
                    source: MBARRIER_TX,
                    cta: self.cta,
                    rank: None,
                    other_rank: None,
                });
            }
        }
        out.sort_by_key(|f| (f.line, f.address));
        for f in out {
            self.report(f);
        }
    }

    fn deadlock(&mut self, warps: &[Blocked]) {
        self.deadlocked = true;
        self.flush_deferred();
        let rank = |w: &Blocked| w.cluster.map_or(0, |c| c.0);
        let key = |w: &Blocked, at: u32| match rank(w) {
            0 => at,
            r => crate::observe::peer_key(r, at),
        };
        let polled: Vec<u32> = warps
            .iter()
            .filter_map(|w| w.mbar.map(|m| key(w, m)))
            .collect();
        self.unfinished_phases(Some(&polled));
        let first = warps.first();
        let message = warps
            .iter()
            .map(|w| match w.cluster {
                Some((r, id)) => format!(
                    "CTA rank {r} of cluster ({}, {}, {}) warp {} at line {}: {}",
                    id[0], id[1], id[2], w.warp, w.line, w.waits_for
                ),
                None => format!("warp {} at line {}: {}", w.warp, w.line, w.waits_for),
            })
            .collect::<Vec<_>>()
            .join("; ");
        let slot = |w: &Blocked| rank(w) * self.cl.stride + w.warp * 32;
        self.report(Finding {
            kind: HazardKind::Deadlock,
            line: first.map_or(0, |w| w.line),
            other_line: warps.get(1).map(|w| w.line),
            thread: first.map(slot),
            other_thread: warps.get(1).map(slot),
            address: first.and_then(|w| w.mbar).map(u64::from),
            message: format!("every live warp is blocked and nothing asynchronous is pending: {message}"),
            source: "PTX ISA 9.7.13.1 (bar.sync) and 9.7.13.15 (mbarrier.try_wait): a wait no arrival can satisfy",
            cta: self.cta,
            rank: None,
            other_rank: None,
        });
    }

    fn end(&mut self) {
        self.flush_deferred();
        if !self.deadlocked {
            self.unfinished_phases(None);
            let mut ranks: Vec<u32> = self.tmem.keys().copied().collect();
            ranks.sort_unstable();
            for r in ranks {
                let fs = self
                    .tmem
                    .get_mut(&r)
                    .map(Lifecycle::end)
                    .unwrap_or_default();
                for f in fs {
                    self.report_in(r, f);
                }
            }
            self.pair_end();
        }
    }
}
