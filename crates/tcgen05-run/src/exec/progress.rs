//! Progress of a CTA: warps polling an mbarrier that has not changed phase wait without
//! running; when no warp can move, the schedule completes a pending tensor copy (as late as
//! every synchronisation allows); when none is pending either, the CTA is deadlocked and each
//! warp's blocking line and what it waits for are reported (a hang on the GPU).

use super::hooks::emit;
use super::{address, complete_copy, count, lanes, Cta, State, Warp, WARP};
use crate::error::{Blocked, RunError};
use crate::observe::Event;
use crate::op::{Op, OpKind};

/// Whether warp `w` polls an mbarrier whose phase has not changed since its last poll (it
/// would only poll again); clears the poll once the phase changed.
pub(super) fn polling(cta: &Cta<'_>, w: &mut Warp) -> bool {
    if let Some((at, phase, _)) = w.spin {
        if cta.mbars.get(&at).map(|m| m.phase) == Some(phase) {
            return true;
        }
        w.spin = None;
    }
    false
}

/// The warps of CTA `rank` that run this round, in order: the schedule's choice, among the
/// warps that can run when the schedule is explored ([`crate::schedule::Schedule::order_of`]).
pub(super) fn order(cta: &mut Cta<'_>, rank: usize, ws: &mut [Warp]) -> Vec<usize> {
    if cta.sched.explore.is_none() {
        return cta.sched.order(ws.len());
    }
    let runnable: Vec<bool> = ws
        .iter_mut()
        .map(|w| !polling(cta, w) && super::issue::issue(w).is_some())
        .collect();
    cta.sched.order_of(rank, &runnable)
}

/// After `op` ran at `pc`: a `try_wait`/`test_wait` that failed in every thread makes the
/// warp wait for its mbarrier to change phase. Returns whether it did.
pub(super) fn failed_poll(cta: &Cta<'_>, w: &mut Warp, op: &Op, exec: u32, pc: usize) -> bool {
    let OpKind::MbarTryWait { p, addr, .. } = op.kind else {
        return false;
    };
    let failed = lanes(exec).all(|l| w.regs[l * cta.nregs + p as usize] == 0);
    let Some(l) = lanes(exec).next().filter(|_| failed) else {
        return false;
    };
    let at = super::own(cta, address(cta, w, l, addr)) as u32;
    let phase = cta.mbars.get(&at).map_or(0, |m| m.phase);
    w.spin = Some((at, phase, pc));
    true
}

/// The end of a scheduling round: a seeded schedule may complete a pending copy early; when
/// no warp moved, a pending copy completes, or the CTA is deadlocked.
///
/// # Errors
/// [`RunError::Deadlock`]; a copy's errors.
pub(super) fn complete_pending(
    cta: &mut Cta<'_>,
    warps: &[Warp],
    mut progressed: bool,
) -> Result<(), RunError> {
    if let Some(i) = cta.sched.early(cta.copies.len()) {
        complete_copy(cta, i)?;
        progressed = true;
    }
    if progressed {
        return Ok(());
    }
    if cta.copies.is_empty() {
        let blocked = blocked(cta, warps);
        emit(cta, &Event::Deadlock { warps: &blocked });
        return Err(RunError::Deadlock {
            cta: cta.ctaid,
            warps: blocked,
        });
    }
    let i = cta.sched.pick(cta.copies.len());
    complete_copy(cta, i)
}

/// Each blocked warp: its line and what it waits for.
pub(super) fn blocked(cta: &Cta<'_>, warps: &[Warp]) -> Vec<Blocked> {
    let mut out = Vec::new();
    let live = count(warps, |s| s != State::Exited);
    let at_barrier = count(warps, |s| s == State::Barrier);
    for w in warps {
        let Some(pc) = (0..WARP)
            .filter(|&l| w.state[l] != State::Exited)
            .map(|l| w.pc[l])
            .min()
        else {
            continue;
        };
        let (pc, waits_for, mbar) = match w.spin {
            Some((at, phase, wpc)) => {
                let what = cta.mbars.get(&at).map_or_else(String::new, |m| {
                    format!(
                        ": {} of {} arrivals pending, tx-count {}",
                        m.pending, m.expected, m.tx
                    )
                });
                let why = format!(
                    "polls the mbarrier at shared 0x{at:x} for the end of phase {phase}{what}"
                );
                (wpc, why, Some(at))
            }
            None => (pc, waiting_at(w, pc, at_barrier, live), None),
        };
        let line = cta.kernel.ops[pc].line;
        out.push(Blocked {
            warp: w.id,
            line,
            waits_for,
            mbar,
            cta: cta.ctaid,
            cluster: place(cta),
        });
        out.extend(diverged(cta, w, pc, w.spin.is_some()));
    }
    out
}

/// The CTA's rank and its cluster's id, in a cluster of more than one CTA.
fn place(cta: &Cta<'_>) -> Option<(u32, [u32; 3])> {
    let c = cta.shape.cluster;
    if c.iter().product::<u32>() < 2 {
        return None;
    }
    let id = [0, 1, 2].map(|i| cta.ctaid[i] / c[i].max(1));
    Some((super::cluster::rank(cta), id))
}

/// The lane groups of a diverged warp other than the one reported at `pc` (the poll at `pc`
/// when `spins`, its lanes one instruction on): each group's line, the `try_wait` of its poll
/// loop when it stopped after one (a warp polls one mbarrier at a time, so a group polling
/// another waits with the warp), so that a deadlock names every line a thread is blocked at.
fn diverged(cta: &Cta<'_>, w: &Warp, pc: usize, spins: bool) -> Vec<Blocked> {
    let main = |p: usize| p == pc || (spins && p == pc + 1);
    let mut groups: Vec<(usize, u32)> = Vec::new();
    for l in 0..WARP {
        if w.state[l] == State::Exited || main(w.pc[l]) {
            continue;
        }
        match groups.iter_mut().find(|g| g.0 == w.pc[l]) {
            Some(g) => g.1 |= 1 << l,
            None => groups.push((w.pc[l], 1 << l)),
        }
    }
    groups.sort_unstable();
    let ops = &cta.kernel.ops;
    groups
        .into_iter()
        .filter(|&(p, _)| p < ops.len())
        .map(|(p, lanes)| {
            let polls = p > 0 && matches!(ops[p - 1].kind, OpKind::MbarTryWait { .. });
            let at = if polls { p - 1 } else { p };
            let what = if polls {
                "poll an mbarrier (this try_wait failed; the warp polls another)"
            } else {
                "wait here while the rest of the warp is blocked"
            };
            Blocked {
                warp: w.id,
                line: ops[at].line,
                waits_for: format!("lanes 0x{lanes:08x} of the diverged warp {what}"),
                mbar: None,
                cta: cta.ctaid,
                cluster: place(cta),
            }
        })
        .collect()
}

/// What a warp that does not poll an mbarrier waits for, from the state of its threads at `pc`.
fn waiting_at(w: &Warp, pc: usize, at_barrier: usize, live: usize) -> String {
    let state = (0..WARP)
        .find(|&l| w.pc[l] == pc && w.state[l] != State::Exited)
        .map(|l| w.state[l]);
    match state {
        Some(State::Named) => {
            "a named barrier (bar.sync/barrier.sync id, count) whose count of threads never arrives"
                .to_string()
        }
        Some(State::ClusterWait) => {
            "barrier.cluster.wait: a thread of the cluster never arrives".to_string()
        }
        _ => format!("bar.sync 0: {at_barrier} of {live} live threads arrived"),
    }
}
