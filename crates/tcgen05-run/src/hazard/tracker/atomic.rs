//! Atomics in the tracker (`atom`, PTX ISA 9.7.13.7; `red`, 9.7.13.8; the element-wise
//! read-modify-writes of `cp.reduce.async.bulk`). The PTX memory consistency model (PTX ISA 8)
//! makes two overlapping atomics "morally strong" when each one's scope includes the other's
//! thread: they do not race. An atomic and a plain access of the same bytes race unless one
//! happens before the other. A `.release` (or `.acq_rel`) atomic releases its thread's prior
//! accesses into the location; an `.acquire` (or `.acq_rel`) atomic of the same location, of
//! a scope that includes the releasing thread (and whose thread the release's scope includes),
//! acquires them. Every atomic of a location reads the latest value in its modification order,
//! and atomics continue a release sequence, so an acquire synchronises with every release of
//! the location before it; a plain write ends the release sequences (the released clocks of
//! the location are dropped).

use std::collections::HashMap;

use super::super::clock::Clock;
use super::{Cell, Stamp, Tracker};
use crate::atom::AtomScope;
use crate::observe::{Access, Space};

/// The code of a scope in a [`Stamp`]: larger covers more threads (0 is not atomic).
pub(super) fn code(scope: AtomScope) -> u8 {
    match scope {
        AtomScope::Cta => 1,
        AtomScope::Cluster => 2,
        AtomScope::Gpu | AtomScope::Sys => 3,
    }
}

/// The scope code two threads need to be in one scope: the same CTA (1), the same cluster
/// (2), or only the same GPU (3). Threads are cluster slots (`stride` per CTA).
fn needed((cta, g): (u64, u32), (other_cta, h): (u64, u32), stride: u32) -> u8 {
    let rank = |t: u32| t.checked_div(stride).unwrap_or(0);
    if cta != other_cta {
        3
    } else if rank(g) != rank(h) {
        2
    } else {
        1
    }
}

/// Whether two accesses are atomics that are morally strong: each one's scope includes the
/// other's thread (PTX ISA 8, memory consistency model), so they do not race.
pub(super) fn strong(s: &Stamp, now: &Stamp, stride: u32) -> bool {
    if s.atomic == 0 || now.atomic == 0 {
        return false;
    }
    let need = needed((s.cta, s.thread), (now.cta, now.thread), stride);
    s.atomic >= need && now.atomic >= need
}

/// Records an atomic access or a plain read among a byte's accesses since its last plain
/// write: one per clock slot, a later one of the slot replacing an earlier one, except that a
/// plain read does not replace an atomic (a later access must still be ordered after that
/// atomic's write).
pub(super) fn note(cell: &mut Cell, now: Stamp) {
    let keep = |r: &Stamp| r.atomic != 0 && now.atomic == 0;
    if cell.first.is_none_or(|r| r.slot == now.slot && !keep(&r)) {
        cell.first = Some(now);
    } else if let Some(r) = cell
        .reads
        .iter_mut()
        .find(|r| r.slot == now.slot && !keep(r))
    {
        *r = now;
    } else {
        cell.reads.push(now);
    }
}

/// One release into a location: the releasing thread's clock, its scope code, the thread
/// (cluster slot) and its cluster (the first CTA's linear index).
#[derive(Clone, Debug)]
struct Release {
    clock: Clock,
    code: u8,
    thread: u32,
    cta: u64,
}

/// The releases of each location (space, first byte's address) since its last plain write.
#[derive(Default)]
pub(super) struct Released {
    at: HashMap<(bool, u64), Vec<Release>>,
}

fn key(a: &Access) -> (bool, u64) {
    (a.space == Space::Global, a.address)
}

impl Released {
    /// A plain write of `a`'s bytes ends the release sequences of the locations it overlaps.
    pub(super) fn clear_at(&mut self, a: &Access) {
        if self.at.is_empty() {
            return;
        }
        let g = a.space == Space::Global;
        let (lo, hi) = (a.address, a.address + u64::from(a.size));
        self.at
            .retain(|&(sg, at), _| sg != g || at + 8 <= lo || at >= hi);
    }
}

impl Tracker {
    /// An `.acquire` atomic access `a` of scope `scope` by its (cluster) thread: it acquires
    /// the releases of the location whose scopes and its own include each other's threads.
    pub(super) fn acquire_at(&mut self, a: &Access, scope: AtomScope) {
        let Some(list) = self.released.at.get(&key(a)) else {
            return;
        };
        let (me, g, stride) = (code(scope), a.thread, self.cl.stride);
        let mut joined = Clock::default();
        for r in list {
            let need = needed((r.cta, r.thread), (self.cta, g), stride);
            if r.code >= need && me >= need {
                joined.join(&r.clock);
            }
        }
        if let Some(c) = self.clocks.get_mut(g as usize) {
            c.join(&joined);
        }
    }

    /// A `.release` atomic access `a` of scope `scope`: the thread's clock is released into
    /// the location, then the thread moves on.
    pub(super) fn release_at(&mut self, a: &Access, scope: AtomScope) {
        let g = a.thread;
        let Some(c) = self.clocks.get(g as usize).cloned() else {
            return;
        };
        let (code, cta) = (code(scope), self.cta);
        let list = self.released.at.entry(key(a)).or_default();
        match list
            .iter_mut()
            .find(|r| r.code == code && r.thread == g && r.cta == cta)
        {
            Some(r) => r.clock.join(&c),
            None => list.push(Release {
                clock: c,
                code,
                thread: g,
                cta,
            }),
        }
        self.clocks[g as usize].tick(g as usize);
    }
}
