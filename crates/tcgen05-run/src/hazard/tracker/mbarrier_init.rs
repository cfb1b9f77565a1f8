//! The order between an `mbarrier.init` and the other operations on that mbarrier (PTX ISA
//! 9.7.13.15.2: an mbarrier object is initialised before any other operation on it;
//! 9.7.13.4: `fence.mbarrier_init.release.cluster` releases the thread's prior
//! `mbarrier.init`s at cluster scope). An arrival, a `tcgen05.commit`, a wait, or the issue of
//! a tensor or bulk copy that completes on the mbarrier, by a thread other than the one that
//! initialised it, must be ordered after the init: through memory order (a release the thread
//! acquired: `bar.sync`, a `.release` cluster barrier, ...) or through the initialising
//! thread's `fence.mbarrier_init` followed by any cluster barrier arrival (a `.relaxed` one
//! too: the fence is the release) that the thread waited for. Otherwise the operation races
//! with the init: a `data-race` at the operation, against the init, with both threads and
//! the mbarrier's address.

use super::super::clock::Clock;
use super::super::{Finding, HazardKind};
use super::Tracker;

const SOURCE: &str = "PTX ISA 9.7.13.15.2 (mbarrier.init: the object is initialised before any other mbarrier operation on it) and 9.7.13.4 (fence.mbarrier_init.release.cluster releases prior mbarrier.init operations at cluster scope, published by a following barrier.cluster)";

impl Tracker {
    /// `fence.mbarrier_init.release.cluster` by (cluster) thread `g`.
    pub(super) fn fence_mbarrier_init(&mut self, g: u32) {
        if let Some(c) = self.clocks.get_mut(g as usize) {
            let at = c.get(g as usize);
            c.tick(g as usize);
            self.init_fence.insert(g, at);
        }
    }

    /// `mbarrier.init` of `mbar` by (cluster) thread `g`, after the model's init.
    pub(super) fn note_init(&mut self, g: u32, mbar: u32) {
        let at = self.clocks.get(g as usize).map_or(0, |c| c.get(g as usize));
        if let Some(m) = self.mbars.get_mut(&mbar) {
            m.init_by = Some((g, at));
        }
    }

    /// Whether the init of `mbar` is ordered before an operation by thread `g` whose clock is
    /// `vc` (the thread's own, or an operation's at issue); a `data-race` finding when not.
    pub(super) fn check_init(
        &mut self,
        mbar: u32,
        (g, vc): (u32, Option<&Clock>),
        (line, what): (u32, &str),
    ) {
        let Some((m, init_line)) = self.mbars.get(&mbar).map(|m| (m.init_by, m.init_line)) else {
            return;
        };
        let Some((s, c)) = m else {
            return;
        };
        if s == g {
            return;
        }
        let own = vc.or_else(|| self.clocks.get(g as usize));
        if own.is_some_and(|v| v.get(s as usize) >= c) {
            return;
        }
        let fenced = self
            .init_fence
            .get(&s)
            .is_some_and(|&f| f >= c && self.knows(g, s) >= f);
        if fenced {
            return;
        }
        let (place, address) = self.place(crate::observe::Space::Shared, u64::from(mbar));
        let message = format!(
            "{what} by {} at line {line} on the mbarrier at shared {place} is not ordered after its mbarrier.init by {} at line {init_line}: neither a release the thread acquired nor a fence.mbarrier_init.release.cluster followed by a cluster barrier orders the init before it",
            self.who(g),
            self.who(s)
        );
        self.report(Finding {
            kind: HazardKind::DataRace,
            line,
            other_line: Some(init_line),
            thread: Some(g),
            other_thread: Some(s),
            address: Some(address),
            message,
            source: SOURCE,
            cta: self.cta,
            rank: None,
            other_rank: None,
        });
    }
}
