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
use super::shadow::ReadLists;
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
pub(super) fn note(cell: &mut Cell, lists: &mut ReadLists, now: Stamp) {
    let keep = |r: &Stamp| r.atomic != 0 && now.atomic == 0;
    if cell.first.is_none_or(|r| r.slot == now.slot && !keep(&r)) {
        cell.first = Some(now);
    } else {
        lists.record_unless(&mut cell.more, now, keep);
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

/// A conflict found at an access: the earlier access, whether it wrote, the address.
type Conflict = (Stamp, bool, u64);

/// The access a conflict was found at: its stamp, whether it writes, its space.
type At = (Stamp, bool, Space);

/// Races between a plain read and atomic writes, held per (reading thread, space, byte)
/// (rules.md I13): the CAS loop's first read of a location (CUDA C++ Programming Guide,
/// "Atomic Functions": `atomicAdd` for `double` built from `atomicCAS` reads `*address` with a
/// plain load) is validated by the thread's `atom.cas` of the same bytes, which fails and
/// retries on a stale value; such a race is excused when that CAS follows. Any other plain read
/// racing with atomics (a partial sum read before the atomics finished) is reported when the
/// run ends.
#[derive(Default)]
pub(super) struct Deferred {
    /// Each held race: the reading thread, its read's clock, the conflict.
    held: Vec<(u32, u32, Conflict, At)>,
    /// Per (thread, global, byte): the thread's clock at its last `atom.cas` of the byte.
    cas: HashMap<(u32, bool, u64), u32>,
}

/// The thread whose plain read makes conflict `f` at access `a` (stamp `now`) a race of a
/// plain read with an atomic write only, and that read's clock, if it is one.
pub(super) fn reader_of(f: &Conflict, now: &Stamp, a: &Access) -> Option<(u32, u32)> {
    let (prior, prior_write, _) = f;
    let plain_read = |s: &Stamp, write: bool| s.atomic == 0 && s.op.is_none() && !write;
    if plain_read(now, a.write) && prior.atomic != 0 {
        Some((now.thread, now.clock))
    } else if now.atomic != 0 && plain_read(prior, *prior_write) {
        Some((prior.thread, prior.clock))
    } else {
        None
    }
}

impl Deferred {
    /// Holds conflict `f` of thread `t`'s plain read at clock `c`.
    pub(super) fn hold(&mut self, (t, c): (u32, u32), f: Conflict, now: At) {
        self.held.push((t, c, f, now));
    }

    /// Thread `t`'s `atom.cas` `a` at clock `c` validates its earlier reads of those bytes.
    pub(super) fn excuse(&mut self, t: u32, c: u32, a: &Access) {
        let g = a.space == Space::Global;
        for b in a.address..a.address + u64::from(a.size) {
            self.cas.insert((t, g, b), c);
        }
    }
}

impl Tracker {
    /// Reports the held races whose read no later `atom.cas` of its thread validated.
    pub(super) fn flush_deferred(&mut self) {
        let d = std::mem::take(&mut self.deferred);
        for (t, c, f, (now, write, space)) in d.held {
            let key = (t, space == Space::Global, f.2);
            if d.cas.get(&key).is_some_and(|&cc| cc >= c) {
                continue;
            }
            self.conflict(f, now, write, space);
        }
    }
}
