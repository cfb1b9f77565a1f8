//! Running the CTAs of one cluster together (PTX ISA 5.2.3): their warps interleave, so that
//! one CTA may wait for another (`barrier.cluster`, an mbarrier a peer arrives on, a multicast
//! copy a peer issues); each reaches the others' shared memory through `.shared::cluster`
//! addresses ([`crate::cluster`]).
//!
//! One [`Cta`] value runs the cluster: the state of the CTA whose warps run is in it, the state
//! of every other CTA is parked in [`Place::peers`]; [`enter`] swaps them. [`swap_state`] names
//! every field of `Cta`, so a field added there must be placed on one side: per CTA (swapped)
//! or shared by the cluster.
//!
//! The CTA pair of `tcgen05.*.cta_group::2` is a cluster of two whose peer is rank `rank ^ 1`:
//! an instruction that touches both CTAs' state (shared memory, mbarriers, tensor memory) finds
//! the peer's in `Place::peers` like the cluster instructions below do.

use std::collections::HashMap;
use std::mem::swap;

use super::hooks::emit;
use super::progress;
use super::{
    address, count, lanes, map_index, no_mbarrier, release_barrier, run_warp, val, Cta, Mbar,
    State, Warp, WARP,
};
use crate::bulk_copy::Pending;
use crate::cluster::{cluster_address, split_address, ClusterOp, SHARED_WINDOW};
use crate::error::RunError;
use crate::exec::{Limits, Shape, Stats};
use crate::int::sext;
use crate::memory::{read_window, write_window};
use crate::observe::peer_key;
use crate::observe::Event;
use crate::op::{Addr, Op, Special, Src};
use crate::tensor_map::Copy;

mod bulk_tensor;
pub(super) mod pair;

/// The state of a CTA whose warps are not running now.
#[derive(Default)]
pub(super) struct Peer {
    shared: Vec<u8>,
    mbars: HashMap<u32, Mbar>,
    copies: Vec<Copy>,
    bars: crate::barrier::Barriers,
    bulk: Vec<Pending>,
    tc: crate::tcgen05::Tcgen05State,
}

/// A CTA's place in its cluster, and the parked state of the cluster's other CTAs.
pub(super) struct Place {
    /// The rank of the CTA whose state is in the [`Cta`] now.
    rank: u32,
    /// The id of the cluster's rank-0 CTA.
    origin: [u32; 3],
    /// Every CTA's parked state by rank (the running CTA's entry is empty).
    peers: Vec<Peer>,
    /// The cluster barrier's current phase.
    phase: u64,
}

impl Place {
    /// The cluster whose rank-0 CTA is `origin`, with rank 0 running.
    pub(super) fn new(shape: Shape, origin: [u32; 3], shared_bytes: usize) -> Place {
        let n = shape.cluster.iter().product::<u32>();
        Place {
            rank: 0,
            origin,
            peers: (0..n)
                .map(|r| Peer {
                    shared: if r == 0 {
                        Vec::new()
                    } else {
                        vec![0; shared_bytes]
                    },
                    ..Peer::default()
                })
                .collect(),
            phase: 0,
        }
    }
}

/// The CTA id of rank `r` (ranks run x fastest, then y, then z).
fn ctaid_of(shape: &Shape, origin: [u32; 3], r: u32) -> [u32; 3] {
    let c = shape.cluster;
    [
        origin[0] + r % c[0],
        origin[1] + (r / c[0]) % c[1],
        origin[2] + r / (c[0] * c[1]),
    ]
}

/// Exchanges the per-CTA state in `cta` with the parked state of rank `r`.
fn swap_state(cta: &mut Cta<'_>, r: u32) {
    let Cta {
        kernel: _,
        shape: _,
        ctaid: _,
        params: _,
        shared,
        global: _,
        nregs: _,
        bars,
        maps: _,
        mbars,
        copies,
        cluster,
        bulk,
        tc,
        mmas: _,
        approx: _,
        approximated: _,
        obs: _,
        sched: _,
        next_async: _,
    } = cta;
    let p = &mut cluster.peers[r as usize];
    swap(shared, &mut p.shared);
    swap(mbars, &mut p.mbars);
    swap(copies, &mut p.copies);
    swap(bars, &mut p.bars);
    swap(tc, &mut p.tc);
    swap(bulk, &mut p.bulk);
}

/// Queues a bulk load issued by `thread` into every CTA of `ranks` (a bit per rank).
pub(super) fn queue_bulk(
    cta: &mut Cta<'_>,
    line: u32,
    ranks: u64,
    p: &Pending,
    thread: u32,
) -> Result<(), RunError> {
    let size = cta.cluster.peers.len() as u32;
    if ranks >> size != 0 {
        return Err(bad(
            line,
            format!("ctaMask 0x{ranks:x}"),
            "names a CTA outside the cluster (PTX ISA 9.7.9.25.4.1)",
        ));
    }
    for r in (0..size).filter(|r| ranks >> r & 1 == 1) {
        let p = Pending {
            id: cta.next_async,
            ..p.clone()
        };
        cta.next_async += 1;
        super::hooks::bulk_issued(cta, &p, r, thread);
        if r == cta.cluster.rank {
            cta.bulk.push(p);
        } else {
            cta.cluster.peers[r as usize].bulk.push(p);
        }
    }
    Ok(())
}

/// Makes rank `r` the running CTA.
fn enter(cta: &mut Cta<'_>, r: u32) {
    let cur = cta.cluster.rank;
    if cur != r {
        swap_state(cta, cur);
        swap_state(cta, r);
        cta.cluster.rank = r;
        cta.ctaid = ctaid_of(&cta.shape, cta.cluster.origin, r);
        emit(cta, &Event::Rank { rank: r });
    }
}

/// Tells the observer the cluster's CTAs (more than one), by rank.
fn announce(cta: &mut Cta<'_>, n: u32) {
    if cta.obs.is_none() || n < 2 {
        return;
    }
    let g = cta.shape.grid;
    let ctas: Vec<u64> = (0..n)
        .map(|r| {
            let c = ctaid_of(&cta.shape, cta.cluster.origin, r);
            (u64::from(c[2]) * u64::from(g[1]) + u64::from(c[1])) * u64::from(g[0])
                + u64::from(c[0])
        })
        .collect();
    emit(cta, &Event::ClusterStart { ctas: &ctas });
}

/// The rank of the running CTA.
pub(super) fn rank(cta: &Cta<'_>) -> u32 {
    cta.cluster.rank
}

/// The mbarriers of the CTA of rank `r` (the running CTA's, or a parked one's); `r` must be a
/// rank of the cluster.
pub(super) fn mbars_of<'c>(cta: &'c mut Cta<'_>, r: u32) -> &'c mut HashMap<u32, Mbar> {
    if r == cta.cluster.rank {
        &mut cta.mbars
    } else {
        &mut cta.cluster.peers[r as usize].mbars
    }
}

fn new_warps(threads: usize, nregs: usize, local: usize, call: usize) -> Vec<Warp> {
    (0..threads.div_ceil(WARP))
        .map(|w| {
            let mut warp = Warp {
                id: w as u32,
                lanes: (threads - w * WARP).min(WARP),
                pc: [0; WARP],
                state: [State::Run; WARP],
                regs: vec![0; WARP * nregs],
                wgmma: super::Queue::default(),
                cluster_arrived: [None; WARP],
                local: vec![0; local],
                call_area: vec![0; call * WARP],
                frames: super::function::frames(),
                spin: None,
                cp_async: vec![Default::default(); WARP],
            };
            for l in warp.lanes..WARP {
                warp.state[l] = State::Exited;
            }
            warp
        })
        .collect()
}

/// Runs every CTA of the cluster whose rank-0 CTA is in `cta`: each round runs every warp of
/// every CTA for a quantum, then releases the barriers (`bar.sync` per CTA, `barrier.cluster`
/// across them) whose threads have all arrived.
pub(super) fn run_cluster(
    cta: &mut Cta<'_>,
    stats: &mut Stats,
    limits: Limits,
) -> Result<(), RunError> {
    let threads = cta.shape.block.iter().product::<u32>() as usize;
    let n = cta.cluster.peers.len() as u32;
    let local = super::generic::local_bytes(cta.kernel);
    let mut warps: Vec<Vec<Warp>> = (0..n)
        .map(|_| new_warps(threads, cta.nregs, local, cta.kernel.call_bytes as usize))
        .collect();
    announce(cta, n);
    let mut exited = vec![false; n as usize];
    loop {
        let mut progressed = false;
        for r in 0..n {
            enter(cta, r);
            let ws = &mut warps[r as usize];
            for i in progress::order(cta, r as usize, ws) {
                let w = &mut ws[i];
                if !progress::polling(cta, w) {
                    progressed |= run_warp(cta, w, stats, limits)?;
                }
            }
            let live = count(ws, |s| s != State::Exited);
            if live == 0 && n > 1 && !exited[r as usize] {
                exited[r as usize] = true;
                emit(cta, &Event::RankExit { rank: r });
            }
            progressed |= super::release_named(cta, ws, live);
            if live > 0 && count(ws, |s| s == State::Barrier) == live {
                release_barrier(cta, ws);
                progressed = true;
            }
        }
        progressed |= release_cluster_barrier(cta, &mut warps);
        let live: usize = warps
            .iter()
            .map(|ws| count(ws, |s| s != State::Exited))
            .sum();
        if live == 0 {
            pair::finish(cta)?;
            stats.ctas += u64::from(n);
            stats.mmas += cta.tc.mmas + cta.cluster.peers.iter().map(|p| p.tc.mmas).sum::<u64>();
            return Ok(());
        }
        end_round(cta, &warps, progressed)?;
    }
}

/// The end of a scheduling round of the cluster: pending tensor copies complete as the
/// schedule decides ([`progress::complete_pending`], rank by rank), bulk copies when no warp
/// can move without them; when no warp of any CTA moved and no copy is pending, the cluster is
/// deadlocked.
fn end_round(cta: &mut Cta<'_>, warps: &[Vec<Warp>], progressed: bool) -> Result<(), RunError> {
    let n = warps.len() as u32;
    if progressed {
        for r in 0..n {
            enter(cta, r);
            progress::complete_pending(cta, &warps[r as usize], true)?;
        }
        return Ok(());
    }
    for r in 0..n {
        enter(cta, r);
        if !cta.copies.is_empty() {
            return progress::complete_pending(cta, &warps[r as usize], false);
        }
        if let Some(at) = cta.bulk.first().map(|p| p.mbar) {
            return super::bulk_copy::perform(cta, at);
        }
    }
    let mut blocked = Vec::new();
    for r in 0..n {
        enter(cta, r);
        blocked.extend(progress::blocked(cta, &warps[r as usize]));
    }
    emit(cta, &Event::Deadlock { warps: &blocked });
    Err(RunError::Deadlock {
        cta: cta.ctaid,
        warps: blocked,
    })
}

/// Completes the cluster barrier's phase once every non-exited thread of the cluster has
/// arrived at it, and releases the threads waiting for a completed phase (PTX ISA 9.7.13.2).
fn release_cluster_barrier(cta: &mut Cta<'_>, warps: &mut [Vec<Warp>]) -> bool {
    let phase = cta.cluster.phase;
    let all = warps.iter().flatten().all(|w| {
        (0..WARP).all(|l| w.state[l] == State::Exited || w.cluster_arrived[l] == Some(phase))
    });
    if all {
        cta.cluster.phase += 1;
        emit(cta, &Event::ClusterComplete);
    }
    let mut released = false;
    for (rank, ws) in warps.iter_mut().enumerate() {
        for w in ws {
            for l in 0..WARP {
                if w.state[l] == State::ClusterWait
                    && w.cluster_arrived[l].is_some_and(|p| p < cta.cluster.phase)
                {
                    w.state[l] = State::Run;
                    w.pc[l] += 1;
                    released = true;
                    let (rank, thread) = (rank as u32, super::hooks::tid(w, l));
                    emit(cta, &Event::ClusterWaited { rank, thread });
                }
            }
        }
    }
    released
}

/// The cluster's special registers (PTX ISA 10.12-10.19).
pub(super) fn special(cta: &Cta<'_>, s: Special) -> u32 {
    let c = cta.shape.cluster;
    match s {
        Special::Clusterid(d) => cta.ctaid[d as usize] / c[d as usize],
        Special::Nclusterid(d) => cta.shape.grid[d as usize] / c[d as usize],
        Special::ClusterCtarank => cta.cluster.rank,
        Special::ClusterNctarank => c.iter().product(),
        Special::ClusterCtaid(d) => cta.ctaid[d as usize] % c[d as usize],
        Special::ClusterNctaid(d) => c[d as usize],
        Special::IsExplicitCluster => u32::from(cta.shape.explicit_cluster),
        _ => 0,
    }
}

fn outside(line: u32, address: u64, size: u32, why: &'static str) -> RunError {
    RunError::Memory {
        line,
        space: "shared::cluster",
        address,
        size,
        why,
    }
}

/// The CTA a `.shared::cluster` address names (`None`: the running one) and the offset in
/// its shared memory.
fn locate(cta: &Cta<'_>, line: u32, at: u64, size: u32) -> Result<(Option<usize>, u64), RunError> {
    let a = u32::try_from(at).map_err(|_| outside(line, at, size, "outside the window"))?;
    match split_address(a) {
        (r, off) if r == cta.cluster.rank => Ok((None, u64::from(off))),
        (r, off) if (r as usize) < cta.cluster.peers.len() => {
            Ok((Some(r as usize), u64::from(off)))
        }
        _ => Err(outside(line, at, size, "a CTA rank outside the cluster")),
    }
}

/// `ld.shared::cluster` of `size` bytes.
pub(super) fn load(cta: &Cta<'_>, line: u32, at: u64, size: u32) -> Result<u64, RunError> {
    let (rank, off) = locate(cta, line, at, size)?;
    let bytes = rank.map_or(&cta.shared, |r| &cta.cluster.peers[r].shared);
    read_window(bytes, line, "shared::cluster", off, size)
}

/// `st.shared::cluster` of `size` bytes.
pub(super) fn store(
    cta: &mut Cta<'_>,
    line: u32,
    at: u64,
    size: u32,
    v: u64,
) -> Result<(), RunError> {
    let (rank, off) = locate(cta, line, at, size)?;
    let bytes = match rank {
        None => &mut cta.shared,
        Some(r) => &mut cta.cluster.peers[r].shared,
    };
    write_window(bytes, line, "shared::cluster", off, size, v)
}

/// Executes a cluster instruction for a warp. Returns true when it moved the threads' program
/// counters itself (`barrier.cluster.wait` blocks them).
pub(super) fn warp_op(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    c: &ClusterOp,
    active: u32,
    exec: u32,
) -> Result<bool, RunError> {
    match c {
        ClusterOp::Arrive | ClusterOp::ArriveRelaxed => {
            let phase = cta.cluster.phase;
            for l in lanes(exec) {
                if w.cluster_arrived[l] == Some(phase) {
                    return Err(RunError::Invalid {
                        line: op.line,
                        what: "barrier.cluster.arrive".into(),
                        why: "a thread arrives twice before the phase completes (PTX ISA 9.7.13.2)",
                    });
                }
                w.cluster_arrived[l] = Some(phase);
                let (thread, line) = (super::hooks::tid(w, l), op.line);
                let relaxed = *c == ClusterOp::ArriveRelaxed;
                emit(
                    cta,
                    &Event::ClusterArrive {
                        thread,
                        line,
                        relaxed,
                    },
                );
            }
            Ok(false)
        }
        ClusterOp::Wait => {
            if exec != active {
                return Err(RunError::Unsupported {
                    line: op.line,
                    what: "barrier.cluster.wait under a guard false for some threads".into(),
                    why: "a predicated cluster barrier is not modelled",
                });
            }
            for l in lanes(exec) {
                if w.cluster_arrived[l].is_none() {
                    return Err(RunError::Invalid {
                        line: op.line,
                        what: "barrier.cluster.wait".into(),
                        why: "a thread waits without having arrived (PTX ISA 9.7.13.2)",
                    });
                }
                w.state[l] = State::ClusterWait;
            }
            Ok(true)
        }
        _ => {
            for l in lanes(exec) {
                lane_op(cta, w, op, c, l)?;
            }
            Ok(false)
        }
    }
}

fn bad(line: u32, what: String, why: &'static str) -> RunError {
    RunError::Invalid { line, what, why }
}

/// The `.shared::cluster` address of a generic address of shared memory.
fn from_generic(line: u32, x: u64) -> Result<u32, RunError> {
    x.checked_sub(SHARED_WINDOW)
        .and_then(|o| u32::try_from(o).ok())
        .ok_or_else(|| {
            bad(
                line,
                format!("address 0x{x:x}"),
                "not a generic address of shared memory (PTX ISA 9.7.9.22)",
            )
        })
}

/// The cluster instructions that each thread executes on its own.
fn lane_op(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    c: &ClusterOp,
    l: usize,
) -> Result<(), RunError> {
    let n = cta.nregs;
    let size = cta.cluster.peers.len() as u32;
    match c {
        ClusterOp::Mapa {
            d,
            a,
            rank,
            generic,
        } => {
            let x = val(cta, w, n, l, *a);
            let r = val(cta, w, n, l, *rank);
            if r >= u64::from(size) {
                return Err(bad(
                    op.line,
                    format!("mapa rank {r}"),
                    "a rank outside the cluster (PTX ISA 9.7.9.22)",
                ));
            }
            let a = if *generic {
                from_generic(op.line, x)?
            } else {
                x as u32
            };
            let mapped = u64::from(cluster_address(r as u32, split_address(a).1));
            w.regs[l * n + *d as usize] = if *generic {
                SHARED_WINDOW + mapped
            } else {
                mapped
            };
        }
        ClusterOp::Getctarank { d, a, generic } => {
            let x = val(cta, w, n, l, *a);
            let a = if *generic {
                from_generic(op.line, x)?
            } else {
                x as u32
            };
            w.regs[l * n + *d as usize] = u64::from(split_address(a).0);
        }
        ClusterOp::MbarArrive { addr, tx } => {
            let at = address(cta, w, l, *addr) as u32;
            let bytes = tx.map_or(0, |t| val(cta, w, n, l, t) as i64);
            let (rank, off) = split_address(at);
            let mbars = if rank == cta.cluster.rank {
                &mut cta.mbars
            } else {
                &mut cta
                    .cluster
                    .peers
                    .get_mut(rank as usize)
                    .ok_or_else(|| {
                        bad(
                            op.line,
                            format!("mbarrier at 0x{at:x}"),
                            "a CTA rank outside the cluster",
                        )
                    })?
                    .mbars
            };
            let m = mbars
                .get_mut(&off)
                .ok_or_else(|| no_mbarrier(op.line, off))?;
            m.tx += bytes;
            m.pending = m.pending.saturating_sub(1);
            m.settle();
            let (thread, line, mbar) = (super::hooks::tid(w, l), op.line, peer_key(rank, off));
            let tx = bytes as u64;
            emit(
                cta,
                &Event::MbarArrive {
                    thread,
                    line,
                    mbar,
                    tx,
                    relaxed: false,
                },
            );
        }
        ClusterOp::Multicast {
            dst,
            map,
            coords,
            mbar,
            mask,
        } => multicast(cta, w, (op.line, l), [*dst, *map, *mbar], coords, *mask)?,
        ClusterOp::GroupLoad {
            dst,
            map,
            coords,
            mbar,
            pair,
        } => {
            let at = bulk_tensor::At {
                dst: address(cta, w, l, *dst),
                map: address(cta, w, l, *map),
                mbar: address(cta, w, l, *mbar),
            };
            let coords: Vec<i64> = coords
                .iter()
                .map(|c| sext(val(cta, w, n, l, *c), 32))
                .collect();
            let issuer = super::hooks::tid(w, l);
            bulk_tensor::group_load(cta, op.line, at, coords, (*pair, issuer))?;
        }
        ClusterOp::Arrive | ClusterOp::ArriveRelaxed | ClusterOp::Wait => {}
    }
    Ok(())
}

/// `cp.async.bulk.tensor ... .multicast::cluster`: the box queued in every CTA of the mask, at
/// the same shared offset and completing on the mbarrier at the same offset
/// (PTX ISA 9.7.9.25.5.1); the three addresses are the destination, the tensor map and the mbarrier.
fn multicast(
    cta: &mut Cta<'_>,
    w: &Warp,
    (line, l): (u32, usize),
    [dst, map, mbar]: [Addr; 3],
    coords: &[Src],
    mask: Src,
) -> Result<(), RunError> {
    let n = cta.nregs;
    let size = cta.cluster.peers.len() as u32;
    let index = map_index(cta, address(cta, w, l, map), line)?;
    let coords: Vec<i64> = coords
        .iter()
        .map(|c| sext(val(cta, w, n, l, *c), 32))
        .collect();
    let dst = split_address(address(cta, w, l, dst) as u32).1;
    let mbar = split_address(address(cta, w, l, mbar) as u32).1;
    let m = val(cta, w, n, l, mask) & 0xFFFF;
    if m >> size != 0 {
        return Err(bad(
            line,
            format!("ctaMask 0x{m:x}"),
            "names a CTA outside the cluster (PTX ISA 9.7.9.25.5.1)",
        ));
    }
    for r in (0..size).filter(|r| m >> r & 1 == 1) {
        let copy = Copy {
            line,
            map: index,
            coords: coords.clone(),
            dst,
            mbar,
            mbar_rank: None,
            id: cta.next_async,
        };
        cta.next_async += 1;
        if cta.obs.is_some() {
            let shown = Copy {
                dst: peer_key(r, dst),
                mbar: peer_key(r, mbar),
                ..copy.clone()
            };
            super::hooks::copy_issued(cta, &shown, super::hooks::tid(w, l));
        }
        if r == cta.cluster.rank {
            cta.copies.push(copy);
        } else {
            cta.cluster.peers[r as usize].copies.push(copy);
        }
    }
    Ok(())
}
