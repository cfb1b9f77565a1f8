//! The CTA pair of `.cta_group::2` in a running cluster (PTX ISA 9.7.16.5.1): finds the other
//! CTA of the pair (rank `rank ^ 1`) among the parked ones and lets
//! [`crate::tcgen05::pair_step`] work on both CTAs' shared memory and Tensor Memory; applies
//! a commit's mbarrier arrivals in whichever CTA of the cluster they name, and reports each to
//! the observer with the CTA it names (a `.shared::cluster` address).

use super::super::hooks::emit;
use super::super::{no_mbarrier, tmem_hooks, Cta, Warp};
use crate::error::RunError;
use crate::observe::Event;
use crate::op::Op;
use crate::tcgen05::op::Tcgen05;
use crate::tcgen05::{pair_finish, pair_step, pair_unjoined, PairPlace, Regs, Side};
use tcgen05::mma::CtaGroup;

/// Executes a `.cta_group::2` or multicast tcgen05 instruction of warp `w`.
///
/// # Errors
/// A `.cta_group::2` instruction in a cluster without the CTA's pair ([`RunError::Invalid`]
/// naming its line); the instruction's own errors.
pub(in crate::exec) fn step(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    t: &Tcgen05,
    active: u32,
    exec: u32,
) -> Result<(), RunError> {
    let rank = cta.cluster.rank;
    let size = cta.cluster.peers.len() as u32;
    let other = rank ^ 1;
    if t.group() == Some(CtaGroup::Two) && other >= size {
        return Err(RunError::Invalid {
            line: op.line,
            what: format!(".cta_group::2 in CTA rank {rank} of a cluster of {size} CTA(s)"),
            why: "the CTA pair is two CTAs of one cluster whose %cluster_ctarank differ in bit 0 (PTX ISA 9.7.16.5.1): launch a cluster of an even number of CTAs",
        });
    }
    let mut regs = Regs {
        regs: &mut w.regs,
        n: cta.nregs,
        warp: w.id,
        target: cta.kernel.target,
        rank,
    };
    let me = Side {
        shared: &mut cta.shared,
        tc: &mut cta.tc,
    };
    let peer = cta.cluster.peers.get_mut(other as usize).map(|p| Side {
        shared: &mut p.shared,
        tc: &mut p.tc,
    });
    let place = PairPlace { rank, size };
    let arrivals = pair_step(me, peer, place, &mut regs, op.line, t, active, exec)?;
    tmem_hooks::lifecycle(cta, w, op, exec, &[]);
    tmem_hooks::pair_commits(cta, w, op.line, &arrivals);
    tmem_hooks::pair_step(cta, w, op, t);
    for (_, r, offset) in arrivals {
        let mbars = if r == rank {
            &mut cta.mbars
        } else {
            &mut cta.cluster.peers[r as usize].mbars
        };
        let m = mbars
            .get_mut(&offset)
            .ok_or_else(|| no_mbarrier(op.line, offset))?;
        m.pending = m.pending.saturating_sub(1);
        m.settle();
    }
    Ok(())
}

/// At the end of a cluster: an allocation of `.cta_group::2` that one CTA of a pair made and
/// the other never joined is an error at its line; with an observer, an event for each (the
/// hazard checker's `pair-alloc-unjoined`).
pub(super) fn finish(cta: &mut Cta<'_>) -> Result<(), RunError> {
    let rank = cta.cluster.rank;
    if cta.obs.is_some() {
        let size = cta.cluster.peers.len() as u32;
        let unjoined: Vec<(u32, u32)> = (0..size)
            .filter_map(|r| {
                let tc = if r == rank {
                    &cta.tc
                } else {
                    &cta.cluster.peers[r as usize].tc
                };
                pair_unjoined(tc).map(|line| (r, line))
            })
            .collect();
        for (rank, line) in unjoined {
            emit(cta, &Event::PairUnjoined { rank, line });
        }
        return Ok(());
    }
    let parked = (0..cta.cluster.peers.len() as u32)
        .filter(|&r| r != rank)
        .map(|r| (r, &cta.cluster.peers[r as usize].tc));
    pair_finish(std::iter::once((rank, &cta.tc)).chain(parked))
}
