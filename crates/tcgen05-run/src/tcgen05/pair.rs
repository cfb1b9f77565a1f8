//! The CTA pair of `.cta_group::2` (PTX ISA 9.7.16.5.1): two CTAs of one cluster whose
//! `%cluster_ctarank` differ only in bit 0. What a pair instruction does to both CTAs:
//!
//! - `tcgen05.alloc.cta_group::2` is executed by one warp of each CTA of the pair,
//!   collectively (PTX ISA 9.7.16.7.1, issue granularity 9.7.16.5.2): the pair gets the same
//!   columns in both CTAs' Tensor Memory, each warp's address written to its own `[dst]`. The
//!   first warp to execute it takes the lowest range free in both CTAs and owes the other CTA
//!   its half; the other warp's `alloc` collects it, with the same `nCols` (rules.md I3).
//! - `dealloc` and `relinquish_alloc_permit` with `::2` free or give up the executing CTA's
//!   own half, as with `::1`.
//! - `tcgen05.mma`, `tcgen05.cp` and `tcgen05.shift` with `::2` are issued by one thread of
//!   the pair and join that thread's queue; at its `tcgen05.commit` they run through the
//!   core's model on a view of both CTAs ([`PairView`]): the core's CTA `c` is the pair's CTA
//!   whose rank has bit 0 equal to `c` (rules.md I4), each reading A's rows and B's columns
//!   from its own shared memory and holding its rows of D (rules.md E3).
//! - `tcgen05.commit` with `.multicast::cluster` arrives on the mbarrier at the same offset in
//!   every CTA of its 16-bit `ctaMask` (PTX ISA 9.7.16.11.1).
//! - Every tcgen05 instruction of a kernel names the same `.cta_group` (PTX ISA 9.7.16).

// The core's `Problem` (about 176 bytes) is the error of the trait the view serves.
#![allow(clippy::result_large_err)]

use std::collections::VecDeque;

use tcgen05::emulator::{
    cp_copy, mma, shift_down, CollectorBuffer, MmaOptions, Problem, TensorCoreMemory,
};
use tcgen05::mma::CtaGroup;
use tcgen05::tensor_memory::TmemAddress;

use super::exec::{emu, invalid, issue, lanes, uniform, Async, Did, Issued, Regs, Tcgen05State};
use super::op::Tcgen05;
use super::tensor_memory::Memories;
use super::trace::{Recorder, Trace};
use crate::cluster::split_address;
use crate::error::RunError;
use crate::memory::write_window;

/// A CTA's part in the pair protocol (kept in its [`Tcgen05State`]).
#[derive(Debug, Default)]
pub(crate) struct PairState {
    /// Allocations the other CTA's warp made for both CTAs, waiting for this CTA's own
    /// `tcgen05.alloc.cta_group::2`, oldest first.
    owed: VecDeque<Owed>,
    /// The `.cta_group` of the first tcgen05 instruction that named one, and its line.
    group: Option<(CtaGroup, u32)>,
}

/// The line of the oldest `tcgen05.alloc.cta_group::2` the other CTA's warp made for the CTA
/// of `tc` and that CTA never joined.
pub(crate) fn unjoined(tc: &Tcgen05State) -> Option<u32> {
    tc.pair.owed.front().map(|o| o.line)
}

/// An allocation made for this CTA by the other CTA of the pair.
#[derive(Clone, Copy, Debug)]
struct Owed {
    first: u32,
    ncols: u32,
    line: u32,
}

/// One CTA of the pair: its shared memory and tcgen05 state.
pub(crate) struct Side<'a> {
    /// Shared memory.
    pub shared: &'a mut [u8],
    /// Tensor Memory, pending operations, the pair protocol.
    pub tc: &'a mut Tcgen05State,
}

/// Where the executing CTA is: its rank and the cluster's size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    /// `%cluster_ctarank`.
    pub rank: u32,
    /// `%cluster_nctarank`.
    pub size: u32,
}

/// Both CTAs of a pair as the core's MMA, copy and shift stages see them: CTA `c` of the core
/// is `ctas[c]` (the pair's CTA whose rank has bit 0 = `c`).
struct PairView<'a> {
    ctas: [Memories<'a>; 2],
}

impl PairView<'_> {
    fn get(&self, cta: u32) -> Option<&Memories<'_>> {
        self.ctas.get(cta as usize)
    }
}

fn no_cta(cta: u32) -> Problem {
    Problem::emu(
        tcgen05::emulator::EmuRule::TmemOutOfRange,
        "cta",
        u64::from(cta),
    )
}

impl TensorCoreMemory for PairView<'_> {
    fn smem_byte(&self, cta: u32, address: u32) -> Option<Option<u8>> {
        self.get(cta)?.smem_byte(0, address)
    }

    fn write_smem(&mut self, cta: u32, address: u32, bytes: &[u8]) -> Result<(), Problem> {
        let m = self.ctas.get_mut(cta as usize).ok_or_else(|| no_cta(cta))?;
        m.write_smem(0, address, bytes)
    }

    fn tmem_cell(&self, cta: u32, lane: u32, column: u32) -> Result<Option<u32>, Problem> {
        self.get(cta)
            .ok_or_else(|| no_cta(cta))?
            .tmem_cell(0, lane, column)
    }

    fn write_tmem(&mut self, cta: u32, lane: u32, column: u32, value: u32) -> Result<(), Problem> {
        let m = self.ctas.get_mut(cta as usize).ok_or_else(|| no_cta(cta))?;
        m.write_tmem(0, lane, column, value)
    }

    fn copy_tmem(&mut self, cta: u32, from: (u32, u32), to: (u32, u32)) -> Result<(), Problem> {
        let m = self.ctas.get_mut(cta as usize).ok_or_else(|| no_cta(cta))?;
        m.copy_tmem(0, from, to)
    }

    fn allocated(&self, cta: u32, column: u32) -> bool {
        self.get(cta).is_some_and(|m| m.allocated(0, column))
    }

    fn collector(&self, cta: u32, name: &'static str) -> Option<CollectorBuffer> {
        self.get(cta)?.collector(0, name)
    }

    fn set_collector(&mut self, cta: u32, name: &'static str, buffer: Option<CollectorBuffer>) {
        if let Some(m) = self.ctas.get_mut(cta as usize) {
            m.set_collector(0, name, buffer);
        }
    }
}

/// Checks that `t` names the `.cta_group` every earlier tcgen05 instruction of the CTA named
/// (PTX ISA 9.7.16: all tcgen05 instructions of a kernel use the same `.cta_group`).
pub(crate) fn same_group(tc: &mut Tcgen05State, line: u32, t: &Tcgen05) -> Result<(), RunError> {
    let Some(g) = t.group() else {
        return Ok(());
    };
    match tc.pair.group {
        None => {
            tc.pair.group = Some((g, line));
            Ok(())
        }
        Some((first, _)) if first == g => Ok(()),
        Some((first, at)) => Err(invalid(
            line,
            format!(
                ".cta_group::{} after .cta_group::{} at line {at}",
                g.count(),
                first.count()
            ),
            "every tcgen05 instruction of a kernel names the same .cta_group (PTX ISA 9.7.16)",
        )),
    }
}

/// Whether `t` needs the pair or the cluster: a `.cta_group::2` form, or a commit with
/// `.multicast::cluster`.
#[must_use]
pub(crate) fn needs_pair(t: &Tcgen05) -> bool {
    t.group() == Some(CtaGroup::Two)
        || matches!(
            t,
            Tcgen05::Commit {
                multicast: Some(_),
                ..
            }
        )
}

/// Executes a pair or multicast tcgen05 instruction for the threads of `exec` of a warp of
/// `me` (`peer`: the other CTA of the pair, if the cluster has it). Returns the mbarrier
/// arrivals as (committing lane, rank, shared offset), one per arrival.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step(
    me: Side<'_>,
    peer: Option<Side<'_>>,
    at: Place,
    regs: &mut Regs<'_>,
    line: u32,
    t: &Tcgen05,
    active: u32,
    exec: u32,
) -> Result<Vec<(usize, u32, u32)>, RunError> {
    me.tc.did = None;
    if exec == 0 {
        return Ok(Vec::new());
    }
    match t {
        Tcgen05::Mma(_) | Tcgen05::Cp { .. } | Tcgen05::Shift { .. } => {
            for l in lanes(exec) {
                let op = issue(regs, l, line, t)?;
                let warp = regs.warp;
                let id = me.tc.trace.as_mut().map_or(0, |tr| tr.issue(l));
                me.tc.pending.push(Issued {
                    id,
                    line,
                    warp,
                    lane: l,
                    op,
                    ctas: 2,
                    target: regs.target,
                });
            }
            Ok(Vec::new())
        }
        Tcgen05::Commit {
            mbar, multicast, ..
        } => {
            let mut arrivals = Vec::new();
            let (mut me, mut peer) = (me, peer);
            for l in lanes(exec) {
                complete(&mut me, peer.as_mut(), at.rank, regs.warp, l)?;
                let raw = (regs.addr(l, *mbar) & 0xFFFF_FFFF) as u32;
                let (r, offset) = split_address(raw);
                match multicast {
                    None => {
                        if r >= at.size {
                            return Err(invalid(
                                line,
                                format!("mbarrier at 0x{raw:x}"),
                                "a CTA rank outside the cluster (PTX ISA 9.7.16.11.1)",
                            ));
                        }
                        arrivals.push((l, r, offset));
                    }
                    Some(m) => {
                        let mask = regs.val(l, *m) & 0xFFFF;
                        if mask >> at.size != 0 {
                            return Err(invalid(
                                line,
                                format!("ctaMask 0x{mask:x}"),
                                "names a CTA outside the cluster (PTX ISA 9.7.16.11.1)",
                            ));
                        }
                        arrivals.extend(
                            (0..at.size)
                                .filter(|r| mask >> r & 1 == 1)
                                .map(|r| (l, r, offset)),
                        );
                    }
                }
            }
            Ok(arrivals)
        }
        Tcgen05::Alloc { .. } => {
            whole_warp(line, active, exec)?;
            let peer = peer.ok_or_else(|| invalid(line, "tcgen05.alloc".into(), "no pair"))?;
            alloc(me, peer, regs, line, t, exec)?;
            Ok(Vec::new())
        }
        // The executing CTA's own half, as with `.cta_group::1`.
        _ => {
            me.tc.step(me.shared, regs, line, t, active, exec)?;
            Ok(Vec::new())
        }
    }
}

fn whole_warp(line: u32, active: u32, exec: u32) -> Result<(), RunError> {
    if exec != active || active != u32::MAX {
        return Err(RunError::Unsupported {
            line,
            what: "tcgen05 .sync.aligned instruction by part of a warp".into(),
            why: "every thread of the warp executes it (PTX ISA 9.7.16)",
        });
    }
    Ok(())
}

/// `tcgen05.alloc.cta_group::2` by a warp of `me`: collects the allocation the other CTA's
/// warp made for both, or makes one for both (the lowest range of `n` columns at a multiple of
/// `n` free in both CTAs, rules.md E1 and I3); writes the address to the warp's `[dst]`.
fn alloc(
    me: Side<'_>,
    peer: Side<'_>,
    regs: &Regs<'_>,
    line: u32,
    t: &Tcgen05,
    exec: u32,
) -> Result<(), RunError> {
    let Tcgen05::Alloc { dst, ncols, .. } = t else {
        return Ok(());
    };
    let n = uniform(regs, line, exec, |l| regs.val(l, *ncols))?;
    let at = regs.own(uniform(regs, line, exec, |l| regs.addr(l, *dst))?);
    if !(32..=512).contains(&n) || !n.is_power_of_two() {
        return Err(invalid(
            line,
            format!("ncols {n}"),
            "a power of two from 32 to 512 (PTX ISA 9.7.16.7.1)",
        ));
    }
    let n = n as u32;
    if me.tc.tmem().relinquished {
        return Err(invalid(
            line,
            "tcgen05.alloc.cta_group::2".into(),
            "after tcgen05.relinquish_alloc_permit (PTX ISA 9.7.16.7.1)",
        ));
    }
    let first = match me.tc.pair.owed.pop_front() {
        Some(o) if o.ncols != n => {
            return Err(invalid(
                line,
                format!(
                    "tcgen05.alloc.cta_group::2 of {n} columns; the other CTA of the pair allocated {} at line {}",
                    o.ncols, o.line
                ),
                "one warp of each CTA of the pair allocates collectively, the same nCols (PTX ISA 9.7.16.7.1)",
            ))
        }
        Some(o) => o.first,
        None => {
            let (mine, theirs) = (me.tc.tmem(), peer.tc.tmem());
            let free = |c: u32| !mine.allocated(c) && !theirs.allocated(c);
            let first = (0..512 / n)
                .map(|i| i * n)
                .find(|&s| (s..s + n).all(free))
                .ok_or_else(|| {
                    invalid(
                        line,
                        format!("tcgen05.alloc.cta_group::2 of {n} columns"),
                        "no range free in both CTAs of the pair: the warp would wait forever",
                    )
                })?;
            mine.allocations.push((first, n));
            theirs.allocations.push((first, n));
            peer.tc.pair.owed.push_back(Owed {
                first,
                ncols: n,
                line,
            });
            first
        }
    };
    me.tc.did = Some(Did::Alloc(first, n));
    let bits = TmemAddress::new(0, first).bits();
    write_window(me.shared, line, "shared", at, 4, u64::from(bits))
}

/// Completes every pending operation that thread (`warp`, `lane`) of `me` issued, oldest
/// first: `.cta_group::1` ones on `me`, `.cta_group::2` ones on the pair (`bit`: bit 0 of
/// `me`'s rank).
fn complete(
    me: &mut Side<'_>,
    peer: Option<&mut Side<'_>>,
    rank: u32,
    warp: u32,
    lane: usize,
) -> Result<(), RunError> {
    let (mine, rest): (Vec<Issued>, Vec<Issued>) = std::mem::take(&mut me.tc.pending)
        .into_iter()
        .partition(|i| i.warp == warp && i.lane == lane);
    me.tc.pending = rest;
    let mut trace = me.tc.trace.take();
    let done = complete_each(me, peer, rank, mine, trace.as_deref_mut());
    me.tc.trace = trace;
    done
}

/// [`complete`] of the operations `mine`, noting what each touched in `trace` (with the
/// observer attached).
fn complete_each(
    me: &mut Side<'_>,
    mut peer: Option<&mut Side<'_>>,
    rank: u32,
    mine: Vec<Issued>,
    mut trace: Option<&mut Trace>,
) -> Result<(), RunError> {
    let bit = rank & 1;
    for i in mine {
        let mma = if i.ctas == 1 {
            let mut mem = Memories {
                shared: &mut *me.shared,
                tmem: me.tc.tmem(),
            };
            match trace.as_deref_mut() {
                Some(tr) => {
                    let mut seen = Recorder::new(&mut mem);
                    let mma = perform(&mut seen, &i)?;
                    tr.performed.push(seen.finish(i.id, i.lane, i.line));
                    mma
                }
                None => perform(&mut mem, &i)?,
            }
        } else {
            let p = peer.as_deref_mut().ok_or_else(|| {
                invalid(
                    i.line,
                    "a .cta_group::2 operation".into(),
                    "needs the other CTA of the pair (PTX ISA 9.7.16.5.1)",
                )
            })?;
            let a = Memories {
                shared: &mut *me.shared,
                tmem: me.tc.tmem(),
            };
            let b = Memories {
                shared: &mut *p.shared,
                tmem: p.tc.tmem(),
            };
            let ctas = if bit == 0 { [a, b] } else { [b, a] };
            let mut view = PairView { ctas };
            match trace.as_deref_mut() {
                Some(tr) => {
                    let mut seen = Recorder::new(&mut view);
                    let mma = perform(&mut seen, &i)?;
                    let even = rank & !1;
                    let ranks = [Some(even), Some(even | 1)];
                    tr.performed
                        .extend(seen.finish_ctas(i.id, i.lane, i.line, ranks));
                    mma
                }
                None => perform(&mut view, &i)?,
            }
        };
        if mma {
            me.tc.mmas += 1;
        }
    }
    Ok(())
}

/// Runs one issued operation on `mem` (its `ctas` CTAs); true for an MMA.
fn perform<M: TensorCoreMemory>(mem: &mut M, i: &Issued) -> Result<bool, RunError> {
    let target = i.target;
    match &i.op {
        Async::Mma(op) => {
            let options = MmaOptions {
                target,
                check_allocation: true,
            };
            mma(mem, op, options).map_err(|e| emu(i.line, "tcgen05.mma", e))?;
            Ok(true)
        }
        Async::Cp(op) => {
            cp_copy(mem, op, i.ctas, target, true).map_err(|e| emu(i.line, "tcgen05.cp", e))?;
            Ok(false)
        }
        Async::Shift(a) => {
            shift_down(mem, *a, i.ctas, true).map_err(|e| emu(i.line, "tcgen05.shift", e))?;
            Ok(false)
        }
    }
}

/// The allocations of `.cta_group::2` that a CTA's warp made and the other CTA's warp never
/// collected when the cluster ends (`states`: every CTA's rank and tcgen05 state).
pub(crate) fn finish<'s>(
    states: impl Iterator<Item = (u32, &'s Tcgen05State)>,
) -> Result<(), RunError> {
    for (rank, tc) in states {
        if let Some(o) = tc.pair.owed.front() {
            return Err(invalid(
                o.line,
                format!(
                    "tcgen05.alloc.cta_group::2 of {} columns, never executed by CTA rank {rank} of the pair",
                    o.ncols
                ),
                "one warp of each CTA of the pair allocates collectively: on a GPU this warp waits forever (PTX ISA 9.7.16.7.1)",
            ));
        }
    }
    Ok(())
}
