//! What the interpreter reports about the `tcgen05.*` instructions (PTX ISA 9.7.16.6-8):
//! Tensor Memory's lifecycle (each `alloc`, `dealloc`, `ld` and `wait::ld` as it is performed),
//! and the accesses of the asynchronous operations: each `tcgen05.mma` / `cp` /
//! `shift` issued, the shared memory and Tensor Memory it touched when performed, the commit
//! that carries their completion to an mbarrier, each `tcgen05.ld` as an operation reading
//! Tensor Memory until `wait::ld`, and each `tcgen05.st`'s cells. Every function returns at once
//! when no observer is attached.

use super::hooks::{emit, tid};
use super::{Cta, Warp};
use crate::observe::peer_key;
use crate::observe::{Access, AsyncKind, Event, Proxy, Space, TmemStep};
use crate::op::{Op, OpKind};
use crate::tcgen05::op::Tcgen05;
use crate::tcgen05::{Did, Performed};
use tcgen05::mma::CtaGroup;

/// Tensor Memory cells `(lane, first column, columns)` as an access.
fn tmem(cells: (u32, u32, u32), write: bool, line: u32, thread: u32, proxy: Proxy) -> Access {
    Access {
        space: Space::Tmem,
        address: u64::from(cells.0) * 512 + u64::from(cells.1),
        size: cells.2,
        write,
        line,
        thread,
        proxy,
    }
}

/// An asynchronous tcgen05 operation performed: its accesses through its own clock.
fn performed(cta: &mut Cta<'_>, w: &Warp, p: &Performed) {
    let Some(o) = cta.obs.as_deref_mut() else {
        return;
    };
    let (thread, proxy, line) = (tid(w, p.lane), Proxy::Async(p.id), p.line);
    o.event(&Event::AsyncPerform { id: p.id });
    // Another CTA's bytes and cells (the pair's): its `.shared::cluster` address, and its
    // rank + 1 above Tensor Memory's cell numbers (`observe::Space`).
    let smem = |a: u32| u64::from(p.rank.map_or(a, |r| peer_key(r, a)));
    let cells = |c: (u32, u32, u32)| {
        let mut x = tmem(c, false, line, thread, proxy);
        x.address |= p.rank.map_or(0, |r| u64::from(r + 1) << 32);
        x
    };
    for &(address, size) in &p.smem_reads {
        o.access(&Access {
            space: Space::Shared,
            address: smem(address),
            size,
            write: false,
            line,
            thread,
            proxy,
        });
    }
    for &c in &p.tmem_reads {
        o.access(&cells(c));
    }
    for &c in &p.tmem_writes {
        o.access(&Access {
            write: true,
            ..cells(c)
        });
    }
}

/// A `tcgen05.ld` (an operation of the warp reading until `wait::ld`) or `tcgen05.st` (the
/// threads' writes): the cells of its fragment.
fn ld_st(cta: &mut Cta<'_>, w: &Warp, line: u32, load: bool) {
    let Some(tr) = cta.tc.trace.as_mut() else {
        return;
    };
    let mut cells = std::mem::take(&mut tr.cells);
    if cells.is_empty() {
        return;
    }
    let id = tr.fresh();
    if load {
        tr.loads.push((w.id, id));
    } else {
        tr.stores.push((w.id, id));
    }
    cells.sort_unstable();
    let Some(o) = cta.obs.as_deref_mut() else {
        return;
    };
    let threads: Vec<u32> = (0..32).map(|l| tid(w, l)).collect();
    let kind = if load {
        AsyncKind::TmemLoad { warp: w.id }
    } else {
        AsyncKind::TmemStore { warp: w.id }
    };
    let threads = &threads;
    o.event(&Event::AsyncIssue {
        id,
        line,
        kind,
        threads,
    });
    o.event(&Event::AsyncPerform { id });
    let proxy = Proxy::Async(id);
    let mut i = 0;
    while i < cells.len() {
        let (t, lane, first) = cells[i];
        let mut n = 1;
        while cells.get(i + n) == Some(&(t, lane, first + n as u32)) {
            n += 1;
        }
        let thread = tid(w, t as usize);
        o.access(&tmem((lane, first, n as u32), !load, line, thread, proxy));
        i += n;
    }
}

/// After warp `w` executed the tcgen05 instruction `op` for the lanes of `exec`, which arrived
/// on the mbarriers `arrivals` (one per committing lane, in lane order): the operations it
/// issued, performed and committed, the Tensor Memory it touched and its lifecycle step.
pub(super) fn lifecycle(cta: &mut Cta<'_>, w: &Warp, op: &Op, exec: u32, arrivals: &[u32]) {
    if cta.obs.is_none() {
        return;
    }
    let OpKind::Tcgen05(t) = &op.kind else {
        return;
    };
    if let Some(tr) = cta.tc.trace.as_mut() {
        let issued = std::mem::take(&mut tr.issued);
        let done = std::mem::take(&mut tr.performed);
        for (id, lane) in issued {
            let kind = AsyncKind::Tcgen05 {
                thread: tid(w, lane),
            };
            let threads = [tid(w, lane)];
            let (line, threads) = (op.line, &threads);
            emit(
                cta,
                &Event::AsyncIssue {
                    id,
                    line,
                    kind,
                    threads,
                },
            );
        }
        for p in &done {
            performed(cta, w, p);
        }
    }
    let committing = (0..32usize).filter(|l| exec >> l & 1 == 1);
    for (lane, &mbar) in committing.zip(arrivals) {
        let (thread, line) = (tid(w, lane), op.line);
        emit(cta, &Event::Tcgen05Commit { thread, line, mbar });
    }
    match t {
        Tcgen05::Ld { .. } => ld_st(cta, w, op.line, true),
        Tcgen05::St { .. } => ld_st(cta, w, op.line, false),
        Tcgen05::WaitLd => waited(cta, w, op.line, true),
        Tcgen05::WaitSt => waited(cta, w, op.line, false),
        Tcgen05::Fence(f) => {
            let after = *f == tcgen05::ptx::Fence::AfterThreadSync;
            for lane in (0..32usize).filter(|l| exec >> l & 1 == 1) {
                let (thread, line) = (tid(w, lane), op.line);
                emit(
                    cta,
                    &Event::Tcgen05Fence {
                        thread,
                        line,
                        after,
                    },
                );
            }
        }
        _ => {}
    }
    let Some(did) = cta.tc.did else {
        return;
    };
    let dst = match t {
        Tcgen05::Ld { regs, red, .. } => {
            regs.iter().copied().chain(red.map(|r| r.redval)).collect()
        }
        _ => Vec::new(),
    };
    let step = match did {
        Did::Alloc(first, n) => TmemStep::Alloc(first, n),
        Did::Dealloc(first, n) => TmemStep::Dealloc(first, n),
        Did::Ld(first, n) => TmemStep::Ld(first, n, &dst),
        Did::WaitLd => TmemStep::WaitLd,
        Did::Relinquish => TmemStep::Relinquish,
    };
    let (warp, line) = (w.id, op.line);
    emit(cta, &Event::Tmem { warp, line, step });
}

/// `tcgen05.wait::ld` (`load`) or `tcgen05.wait::st`: the warp's loads or stores complete for
/// its threads (PTX ISA 9.7.16.8.5).
fn waited(cta: &mut Cta<'_>, w: &Warp, line: u32, load: bool) {
    let Some(tr) = cta.tc.trace.as_mut() else {
        return;
    };
    let mut ids = Vec::new();
    let queue = if load { &mut tr.loads } else { &mut tr.stores };
    queue.retain(|&(warp, id)| {
        if warp == w.id {
            ids.push(id);
        }
        warp != w.id
    });
    let threads: Vec<u32> = (0..32).map(|l| tid(w, l)).collect();
    for id in ids {
        let threads = &threads;
        emit(cta, &Event::AsyncWaited { id, line, threads });
    }
}

/// A CTA starts: trace its tcgen05 instructions if an observer is attached.
pub(super) fn start(cta: &mut Cta<'_>) {
    if cta.obs.is_some() {
        cta.tc.trace = Some(Box::default());
    }
}

/// A `.cta_group::2` commit's arrivals `(lane, rank, shared offset)`: each on the mbarrier of
/// the CTA it names (a `.shared::cluster` address), multicast ones on several.
pub(super) fn pair_commits(cta: &mut Cta<'_>, w: &Warp, line: u32, arrivals: &[(usize, u32, u32)]) {
    if cta.obs.is_none() {
        return;
    }
    for &(lane, rank, offset) in arrivals {
        let (thread, mbar) = (tid(w, lane), peer_key(rank, offset));
        emit(cta, &Event::Tcgen05Commit { thread, line, mbar });
    }
}

/// After a `.cta_group::2` `alloc`, `dealloc` or `relinquish_alloc_permit`: its step again as a
/// pair step (the checker's pair rules, PTX ISA 9.7.16.7.1).
pub(super) fn pair_step(cta: &mut Cta<'_>, w: &Warp, op: &Op, t: &Tcgen05) {
    if cta.obs.is_none() || t.group() != Some(CtaGroup::Two) {
        return;
    }
    let step = match cta.tc.did {
        Some(Did::Alloc(first, n)) => TmemStep::Alloc(first, n),
        Some(Did::Dealloc(first, n)) => TmemStep::Dealloc(first, n),
        Some(Did::Relinquish) => TmemStep::Relinquish,
        _ => return,
    };
    let (warp, line) = (w.id, op.line);
    emit(cta, &Event::PairTmem { warp, line, step });
}
