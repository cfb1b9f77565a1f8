//! What the interpreter reports to an observer ([`crate::observe`]): each function does
//! nothing when no observer is attached, so a plain run pays one branch per hook.

use super::{Cta, State, Warp, WARP};
use crate::cp_async::{Pending as CpPending, Queue};
use crate::observe::{Access, AsyncKind, Event, Proxy, Space as Seen};
use crate::op::{Op, OpKind, Space};
use crate::tensor_map::Copy;
use crate::wgmma::{operand_bytes, Pending};

/// Reports an event to the observer, if any.
#[inline]
pub(super) fn emit(cta: &mut Cta<'_>, e: &Event<'_>) {
    if let Some(o) = cta.obs.as_deref_mut() {
        o.event(e);
    }
}

/// `fence.proxy.async` or `fence.mbarrier_init.release.cluster` by lane `l`: seen by the
/// observer only.
pub(super) fn fence(
    cta: &mut Cta<'_>,
    w: &Warp,
    l: usize,
    op: &Op,
) -> Result<(), crate::error::RunError> {
    let (thread, line) = (tid(w, l), op.line);
    let e = match op.kind {
        OpKind::FenceMbarrierInit => Event::FenceMbarrierInit { thread, line },
        _ => Event::FenceProxyAsync { thread, line },
    };
    emit(cta, &e);
    Ok(())
}

/// A thread's index in its CTA.
pub(super) fn tid(w: &Warp, l: usize) -> u32 {
    w.id * WARP as u32 + l as u32
}

fn warp_threads(w: &Warp) -> Vec<u32> {
    (0..WARP).map(|l| tid(w, l)).collect()
}

/// A CTA starts.
pub(super) fn cta_start(cta: &mut Cta<'_>) {
    let (g, c) = (cta.shape.grid, cta.ctaid);
    let linear =
        (u64::from(c[2]) * u64::from(g[1]) + u64::from(c[1])) * u64::from(g[0]) + u64::from(c[0]);
    let threads = cta.shape.block.iter().product();
    emit(
        cta,
        &Event::CtaStart {
            cta: linear,
            threads,
        },
    );
}

/// `bar.sync` releases the threads waiting at it.
pub(super) fn bar_sync(cta: &mut Cta<'_>, warps: &[Warp]) {
    if cta.obs.is_none() {
        return;
    }
    let mut threads = Vec::new();
    let mut line = 0;
    for w in warps {
        for l in (0..WARP).filter(|&l| w.state[l] == State::Barrier) {
            threads.push(tid(w, l));
            line = cta.kernel.ops[w.pc[l]].line;
        }
    }
    emit(
        cta,
        &Event::BarSync {
            line,
            threads: &threads,
        },
    );
}

/// Threads `lanes` of warp `w` arrive at named barrier `id` (`bar.sync`/`bar.arrive` with an
/// id or count, PTX ISA 9.7.13.1): they release what they did before.
pub(super) fn named_arrive(cta: &mut Cta<'_>, w: &Warp, (id, line): (u32, u32), lanes: u32) {
    if cta.obs.is_none() {
        return;
    }
    let threads: Vec<u32> = (0..WARP)
        .filter(|&l| lanes >> l & 1 == 1)
        .map(|l| tid(w, l))
        .collect();
    emit(
        cta,
        &Event::NamedArrive {
            id,
            line,
            threads: &threads,
        },
    );
}

/// Named barriers completed: their waiting threads (warp index, lanes, id) acquire what every
/// arrival of the phase released.
pub(super) fn named_release(cta: &mut Cta<'_>, warps: &[Warp], go: &[(usize, u32, u32)]) {
    if cta.obs.is_none() {
        return;
    }
    let mut ids: Vec<u32> = go.iter().map(|g| g.2).collect();
    ids.dedup();
    for id in ids {
        let threads: Vec<u32> = go
            .iter()
            .filter(|g| g.2 == id)
            .flat_map(|&(wi, lanes, _)| {
                (0..WARP)
                    .filter(move |&l| lanes >> l & 1 == 1)
                    .map(move |l| tid(&warps[wi], l))
            })
            .collect();
        emit(
            cta,
            &Event::NamedRelease {
                id,
                threads: &threads,
            },
        );
    }
}

/// The bytes a lane's `st` writes (`size` bytes of each value, little-endian), before its
/// access (rules.md I11).
#[inline]
pub(super) fn store_bytes(cta: &mut Cta<'_>, space: Space, size: u32, vals: &[u64]) {
    if !matches!(space, Space::Global | Space::Shared | Space::SharedCluster) {
        return;
    }
    let Some(o) = cta.obs.as_deref_mut() else {
        return;
    };
    let bytes: Vec<u8> = vals
        .iter()
        .flat_map(|v| v.to_le_bytes().into_iter().take(size as usize))
        .collect();
    o.event(&Event::StoreBytes { bytes: &bytes });
}

/// A generic-proxy access of one lane: (space, address, bytes, write).
#[inline]
pub(super) fn access(cta: &mut Cta<'_>, w: &Warp, l: usize, line: u32, a: (Space, u64, u32, bool)) {
    if cta.obs.is_none() {
        return;
    }
    let (space, address) = match a.0 {
        Space::Global => (Seen::Global, a.1),
        Space::Shared => (Seen::Shared, super::own(cta, a.1) & 0xFFFF_FFFF),
        Space::SharedCluster => {
            let (rank, offset) = crate::cluster::split_address(a.1 as u32);
            (
                Seen::Shared,
                u64::from(crate::observe::peer_key(rank, offset)),
            )
        }
        _ => return,
    };
    let (size, write, thread) = (a.2, a.3, tid(w, l));
    let proxy = Proxy::Generic;
    let Some(o) = cta.obs.as_deref_mut() else {
        return;
    };
    o.access(&Access {
        space,
        address,
        size,
        write,
        line,
        thread,
        proxy,
    });
}

/// Before a `cp.async.wait_group` / `wait_all` of a lane with an observer: the lane's queue.
pub(super) fn cp_async_queue(observed: bool, op: &Op, queue: &Queue) -> Vec<CpPending> {
    match op.kind {
        OpKind::CpAsyncWait { .. } if observed => queue.pending.clone(),
        _ => Vec::new(),
    }
}

/// After the wait: the copies it retired (those of `before` no longer queued) read global
/// memory and write shared memory, as accesses of the lane at the copy's line (performed at
/// the wait, as late as PTX allows).
pub(super) fn cp_async_retired(cta: &mut Cta<'_>, w: &Warp, l: usize, before: &[CpPending]) {
    if before.is_empty() {
        return;
    }
    let still = w.cp_async[l].pending.clone();
    for p in before.iter().filter(|p| !still.contains(p)) {
        let src = (Space::Global, p.src, p.src_size, false);
        if p.src_size > 0 {
            access(cta, w, l, p.line, src);
        }
        access(
            cta,
            w,
            l,
            p.line,
            (Space::Shared, u64::from(p.dst), p.cp_size, true),
        );
    }
}

/// A tensor copy issued by one lane.
pub(super) fn copy_issued(cta: &mut Cta<'_>, c: &Copy, thread: u32) {
    let bytes = cta.maps[c.map].0.box_bytes();
    let kind = AsyncKind::TensorCopy {
        dst: c.dst,
        bytes,
        mbar: c.mbar,
    };
    let (id, line, threads) = (c.id, c.line, [thread]);
    emit(
        cta,
        &Event::AsyncIssue {
            id,
            line,
            kind,
            threads: &threads,
        },
    );
}

/// A tensor copy performed: its box written through the async proxy, then its bytes
/// completed on its mbarrier.
pub(super) fn copy_performed(cta: &mut Cta<'_>, c: &Copy, bytes: u64) {
    let Some(o) = cta.obs.as_deref_mut() else {
        return;
    };
    o.event(&Event::AsyncPerform { id: c.id });
    let (address, size, line) = (u64::from(c.dst), bytes as u32, c.line);
    let (space, proxy) = (Seen::Shared, Proxy::Async(c.id));
    o.access(&Access {
        space,
        address,
        size,
        write: true,
        line,
        thread: 0,
        proxy,
    });
    let (map, base) = &cta.maps[c.map];
    for (address, size) in crate::tensor_map::box_rows(map, *base, c) {
        let space = Seen::Global;
        o.access(&Access {
            space,
            address,
            size,
            write: false,
            line,
            thread: 0,
            proxy,
        });
    }
    let mbar = c
        .mbar_rank
        .map_or(c.mbar, |r| crate::observe::peer_key(r, c.mbar));
    o.event(&Event::CompleteTx {
        id: c.id,
        mbar,
        bytes,
    });
}

/// A warp issued an MMA.
pub(super) fn wgmma_issued(cta: &mut Cta<'_>, w: &Warp, id: u64, line: u32) {
    if cta.obs.is_some() {
        let threads = warp_threads(w);
        let kind = AsyncKind::Wgmma { warp: w.id };
        emit(
            cta,
            &Event::AsyncIssue {
                id,
                line,
                kind,
                threads: &threads,
            },
        );
    }
}

/// `wgmma.wait_group` retires MMAs: each reads its operands through the async proxy, and the
/// warp's threads then see them complete.
pub(super) fn wgmma_retired(cta: &mut Cta<'_>, w: &Warp, done: &[Pending], line: u32) {
    let Some(o) = cta.obs.as_deref_mut() else {
        return;
    };
    let threads = warp_threads(w);
    for p in done {
        o.event(&Event::AsyncPerform { id: p.id });
        for (address, size) in operand_bytes(p) {
            let (address, space, proxy) = (u64::from(address), Seen::Shared, Proxy::Async(p.id));
            let (line, thread) = (p.line, threads[0]);
            o.access(&Access {
                space,
                address,
                size,
                write: false,
                line,
                thread,
                proxy,
            });
        }
    }
    for p in done {
        o.event(&Event::AsyncWaited {
            id: p.id,
            line,
            threads: &threads,
        });
    }
}

/// A bulk load queued for a CTA of the cluster (`rank`), issued by `thread`: its destination
/// and mbarrier as `.shared::cluster` addresses of that CTA.
pub(super) fn bulk_issued(
    cta: &mut Cta<'_>,
    p: &crate::bulk_copy::Pending,
    rank: u32,
    thread: u32,
) {
    use crate::observe::peer_key;
    let kind = AsyncKind::TensorCopy {
        dst: peer_key(rank, p.dst),
        bytes: u64::from(p.size),
        mbar: peer_key(rank, p.mbar),
    };
    let (id, line, threads) = (p.id, p.line, [thread]);
    emit(
        cta,
        &Event::AsyncIssue {
            id,
            line,
            kind,
            threads: &threads,
        },
    );
}

/// A bulk load performed in the running CTA: its bytes written through the async proxy.
pub(super) fn bulk_performed(cta: &mut Cta<'_>, p: &crate::bulk_copy::Pending) {
    let Some(o) = cta.obs.as_deref_mut() else {
        return;
    };
    o.access(&Access {
        space: Seen::Shared,
        address: u64::from(p.dst),
        size: p.size,
        write: true,
        line: p.line,
        thread: 0,
        proxy: Proxy::Async(p.id),
    });
    o.access(&Access {
        space: Seen::Global,
        address: p.src,
        size: p.size,
        write: false,
        line: p.line,
        thread: 0,
        proxy: Proxy::Async(p.id),
    });
}
