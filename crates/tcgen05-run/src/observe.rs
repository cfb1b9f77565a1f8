//! What a run reports to an observer: every memory access with its state space, address, size,
//! thread, line and proxy, and every synchronisation and asynchronous-operation event, in the
//! order the interpreter performs them. The hazard checker ([`crate::hazard`]) is one observer;
//! a run without one pays a single branch per hook.
//!
//! Threads are numbered within their CTA (`warp * 32 + lane`). Asynchronous operations (tensor
//! copies, `wgmma`) carry an id given at issue; their memory accesses are reported when they are
//! performed, with [`Proxy::Async`] and that id.

/// The proxy an access goes through (PTX ISA 8.6, "Proxies"): generic loads and stores, or the
/// async proxy of the tensor memory accelerator and `wgmma` operand reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proxy {
    /// `ld`/`st` of a thread.
    Generic,
    /// An asynchronous operation's access; the operation's id.
    Async(u64),
}

/// A state space an access touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// The CTA's shared memory: the address is an offset in the running CTA's shared memory,
    /// or a byte named with its CTA's rank, [`peer_key`].
    Shared,
    /// Global memory.
    Global,
    /// The CTA's Tensor Memory: the address is `lane * 512 + column`, the size counts 32-bit
    /// cells of one lane (PTX ISA 9.7.16.1). Bits 32 and up, when set, are a cluster rank + 1:
    /// the cell of that CTA (the other CTA of a `.cta_group::2` pair).
    Tmem,
}

/// One memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The state space.
    pub space: Space,
    /// The first byte's address.
    pub address: u64,
    /// Bytes.
    pub size: u32,
    /// A write (else a read).
    pub write: bool,
    /// The instruction's 1-based PTX line.
    pub line: u32,
    /// The thread (for an asynchronous operation, the thread that issued it).
    pub thread: u32,
    /// The proxy.
    pub proxy: Proxy,
}

/// What kind of asynchronous operation was issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncKind {
    /// `cp.async.bulk.tensor` global to shared: writes `bytes` bytes from `dst` (a box is laid
    /// out contiguously) and completes that many transaction bytes on `mbar`.
    TensorCopy {
        /// Shared destination.
        dst: u32,
        /// Bytes written.
        bytes: u64,
        /// The mbarrier it completes on.
        mbar: u32,
    },
    /// `wgmma.mma_async` of one warp: reads its A and B operands from shared memory.
    Wgmma {
        /// The issuing warp.
        warp: u32,
    },
    /// `tcgen05.mma`, `tcgen05.cp` or `tcgen05.shift` of one thread: performed by the tensor
    /// core after issue; complete once the thread's `tcgen05.commit` mbarrier phase is observed
    /// (PTX ISA 9.7.16.6, 9.7.16.11.1).
    Tcgen05 {
        /// The issuing thread.
        thread: u32,
    },
    /// `tcgen05.ld` of one warp: reads Tensor Memory until the warp's `tcgen05.wait::ld`
    /// (PTX ISA 9.7.16.8.3, 9.7.16.8.5).
    TmemLoad {
        /// The issuing warp.
        warp: u32,
    },
    /// `tcgen05.st` of one warp: writes Tensor Memory until the warp's `tcgen05.wait::st`
    /// (PTX ISA 9.7.16.8.3, 9.7.16.8.5).
    TmemStore {
        /// The issuing warp.
        warp: u32,
    },
    /// One side of a bulk copy or reduction from shared to global memory
    /// (`cp.async.bulk.global.shared::cta.bulk_group`, `cp.reduce.async.bulk...bulk_group`,
    /// PTX ISA 9.7.9.25.4) of one thread: its reads of the shared source (`write` false),
    /// complete at the thread's `cp.async.bulk.wait_group.read` or `wait_group` covering its
    /// bulk group, or its writes of global memory (`write` true), complete at `wait_group`.
    BulkStore {
        /// The issuing thread.
        thread: u32,
        /// The global-memory side.
        write: bool,
    },
}

/// A synchronisation or asynchronous-operation event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'e> {
    /// A CTA starts: its linear index and its number of threads.
    CtaStart {
        /// Linear CTA index (x fastest).
        cta: u64,
        /// Threads in the CTA.
        threads: u32,
    },
    /// The CTA's last thread exited.
    CtaEnd,
    /// `bar.sync` released: the threads that took part (every thread not exited).
    BarSync {
        /// The barrier's line (of the last thread to arrive).
        line: u32,
        /// The participating threads.
        threads: &'e [u32],
    },
    /// `fence.proxy.async` by a thread.
    FenceProxyAsync {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
    },
    /// `mbarrier.init`.
    MbarInit {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
        /// The mbarrier's shared address.
        mbar: u32,
        /// Its expected arrival count.
        count: u64,
    },
    /// `mbarrier.arrive[.expect_tx]`: `tx` transaction bytes expected, then one arrival.
    MbarArrive {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
        /// The mbarrier.
        mbar: u32,
        /// Expected transaction bytes (0 without `.expect_tx`).
        tx: u64,
        /// `.relaxed`: releases nothing but what a `tcgen05.fence::before_thread_sync` gave
        /// (rules.md I9).
        relaxed: bool,
    },
    /// `mbarrier.try_wait.parity` / `test_wait.parity` evaluated by a thread.
    MbarWait {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
        /// The mbarrier.
        mbar: u32,
        /// The parity waited for.
        parity: u64,
        /// Whether the wait returned true.
        done: bool,
        /// `.relaxed`: acquires nothing but what a later `tcgen05.fence::after_thread_sync`
        /// makes effective (rules.md I9).
        relaxed: bool,
    },
    /// An asynchronous operation issued by `threads` (one thread, or a warp for `wgmma`).
    AsyncIssue {
        /// Its id.
        id: u64,
        /// Its line.
        line: u32,
        /// What it is.
        kind: AsyncKind,
        /// The issuing threads.
        threads: &'e [u32],
    },
    /// An asynchronous operation is performed now; its accesses follow.
    AsyncPerform {
        /// Its id.
        id: u64,
    },
    /// A tensor copy completed `bytes` transaction bytes on its mbarrier.
    CompleteTx {
        /// The copy's id.
        id: u64,
        /// The mbarrier.
        mbar: u32,
        /// Bytes.
        bytes: u64,
    },
    /// `wgmma.wait_group` retired operation `id` for the threads of its warp.
    AsyncWaited {
        /// The operation.
        id: u64,
        /// Line of the wait.
        line: u32,
        /// The waiting threads.
        threads: &'e [u32],
    },
    /// `tcgen05.commit` by a thread: its earlier asynchronous tcgen05 operations complete,
    /// then one arrival on `mbar` (PTX ISA 9.7.16.11.1).
    Tcgen05Commit {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
        /// The mbarrier.
        mbar: u32,
    },
    /// Threads of one warp arrive at named barrier `id` (`bar.sync`/`barrier.sync` with an id
    /// other than 0 or a count, `bar.arrive`; PTX ISA 9.7.13.1): each releases its prior
    /// accesses into the barrier's phase.
    NamedArrive {
        /// The barrier id (0 to 15).
        id: u32,
        /// The instruction's line.
        line: u32,
        /// The arriving threads.
        threads: &'e [u32],
    },
    /// Named barrier `id` completed: its waiting threads go on, acquiring what the phase's
    /// arrivals released.
    NamedRelease {
        /// The barrier id.
        id: u32,
        /// The threads released.
        threads: &'e [u32],
    },
    /// The bytes a lane's generic `st` writes, in address order, sent right before that
    /// store's [`Access`] (rules.md I11: two unordered writes of the same bytes with the same
    /// value are not a reported race).
    StoreBytes {
        /// The bytes, little-endian per element.
        bytes: &'e [u8],
    },
    /// A Tensor Memory lifecycle step of a warp (PTX ISA 9.7.16.7.1, 9.7.16.8).
    Tmem {
        /// The warp.
        warp: u32,
        /// The instruction's line.
        line: u32,
        /// What it did.
        step: TmemStep<'e>,
    },
    /// The CTAs of a cluster of more than one CTA start together: the linear index of each
    /// rank's CTA (sent right after [`Event::CtaStart`], which names rank 0's). Threads, warps,
    /// shared addresses and Tensor Memory cells of later events are those of the CTA named by
    /// the last [`Event::Rank`] (rank 0 at first); a shared address made by [`peer_key`]
    /// names its CTA itself.
    ClusterStart {
        /// Linear CTA index (x fastest) of each rank.
        ctas: &'e [u64],
    },
    /// The events that follow are the CTA of this cluster rank's.
    Rank {
        /// `%cluster_ctarank`.
        rank: u32,
    },
    /// `barrier.cluster.arrive` by a thread (PTX ISA 9.7.13.2): with `.release` (the default)
    /// its earlier accesses are released into the barrier's phase, with `.relaxed` not.
    ClusterArrive {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
        /// `.relaxed`.
        relaxed: bool,
    },
    /// The cluster barrier's phase completed: every non-exited thread of the cluster arrived.
    ClusterComplete,
    /// Every thread of the CTA of this cluster rank has exited (a cluster of more than one CTA).
    RankExit {
        /// `%cluster_ctarank`.
        rank: u32,
    },
    /// `barrier.cluster.wait` released a thread of CTA `rank` (it acquires the phase it
    /// arrived at).
    ClusterWaited {
        /// The thread's cluster rank.
        rank: u32,
        /// Thread.
        thread: u32,
    },
    /// A Tensor Memory lifecycle step of `.cta_group::2` (the CTA pair, PTX ISA 9.7.16.5.1),
    /// sent after its [`Event::Tmem`].
    PairTmem {
        /// The warp.
        warp: u32,
        /// The instruction's line.
        line: u32,
        /// What it did.
        step: TmemStep<'e>,
    },
    /// The cluster ended with a `tcgen05.alloc.cta_group::2` (at `line`, by the other CTA of
    /// the pair) that the CTA of `rank` never executed (PTX ISA 9.7.16.7.1; rules.md I3).
    PairUnjoined {
        /// The CTA that never allocated.
        rank: u32,
        /// The line of the other CTA's alloc.
        line: u32,
    },
    /// `tcgen05.fence::before_thread_sync` (`after` false) or `::after_thread_sync` by a
    /// thread (PTX ISA 9.7.16.6.3).
    Tcgen05Fence {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
        /// `after_thread_sync`.
        after: bool,
    },
    /// The access that follows is an `atom` or `red` (or one element of a bulk reduction),
    /// with its semantics and scope (PTX ISA 9.7.13.7-8): atomics of a scope covering both
    /// threads do not race with each other; `.release` and `.acquire` order other accesses.
    Atomic {
        /// Its memory ordering semantics.
        sem: crate::atom::AtomSem,
        /// Its scope.
        scope: crate::atom::AtomScope,
        /// `atom.cas` (rules.md I13: it validates the value its thread read before it).
        cas: bool,
    },
    /// `cp.async.bulk.commit_group` by a thread: its bulk stores not yet committed form a
    /// bulk async-group (PTX ISA 9.7.9.25.4.3).
    BulkCommit {
        /// Thread.
        thread: u32,
    },
    /// `cp.async.bulk.wait_group[.read] n` by a thread: every bulk group of the thread but
    /// the `n` newest is complete (with `.read`, only their reads of the source; PTX ISA
    /// 9.7.9.25.4.4).
    BulkWait {
        /// Thread.
        thread: u32,
        /// Groups that may stay pending.
        n: u32,
        /// `.read`.
        read: bool,
    },
    /// `fence.mbarrier_init.release.cluster` by a thread (PTX ISA 9.7.13.4): releases the
    /// thread's prior `mbarrier.init`s at cluster scope, so that a later (even relaxed)
    /// `barrier.cluster` arrival publishes them.
    FenceMbarrierInit {
        /// Thread.
        thread: u32,
        /// Line.
        line: u32,
    },
    /// No warp of the CTA can move and nothing asynchronous is pending.
    Deadlock {
        /// Each blocked warp.
        warps: &'e [crate::error::Blocked],
    },
}

/// A Tensor Memory lifecycle step ([`Event::Tmem`]): columns are `(first, count)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmemStep<'e> {
    /// `tcgen05.alloc` granted these columns.
    Alloc(u32, u32),
    /// `tcgen05.dealloc` freed these columns.
    Dealloc(u32, u32),
    /// `tcgen05.ld` read these columns into these register slots (written at issue; its read
    /// of Tensor Memory lasts until `wait::ld`, rules.md I12).
    Ld(u32, u32, &'e [u32]),
    /// `tcgen05.wait::ld`: the warp's loads have completed their reads of Tensor Memory.
    WaitLd,
    /// `tcgen05.relinquish_alloc_permit`: the CTA allocates no more.
    Relinquish,
}

/// Receives a run's accesses and events.
pub trait Observer {
    /// A memory access, before it is performed.
    fn access(&mut self, a: &Access);
    /// A synchronisation or asynchronous-operation event.
    fn event(&mut self, e: &Event<'_>);
}

/// The observer's name of shared byte `offset` of the CTA of cluster rank `rank`, named
/// explicitly: `(rank + 1) << 24 | offset`. An address below `1 << 24` is an offset in the
/// running CTA's own shared memory, so an explicit rank 0 differs from it (the run's own
/// `.shared::cluster` addresses, `rank << 24 | offset`, do not make that difference; rules.md
/// I10).
#[must_use]
pub fn peer_key(rank: u32, offset: u32) -> u32 {
    ((rank + 1) << 24) | (offset & crate::cluster::OFFSET_MASK)
}

/// A shared address of an [`Access`] or [`Event`] split into the rank it names (none: the
/// running CTA's own) and its offset; the inverse of [`peer_key`].
#[must_use]
pub fn split_key(key: u32) -> (Option<u32>, u32) {
    let offset = key & crate::cluster::OFFSET_MASK;
    match key >> 24 {
        0 => (None, offset),
        r => (Some(r - 1), offset),
    }
}
