//! The tcgen05 fences in the happens-before relation (PTX ISA 9.7.16.6.3, 9.7.16.6.4; rules.md
//! I7): `tcgen05.fence::before_thread_sync` and `tcgen05.fence::after_thread_sync` around a
//! thread synchronisation that carries no memory ordering (`mbarrier.arrive.relaxed`,
//! `mbarrier.try_wait.relaxed`).
//!
//! A `.relaxed` arrival releases, for tcgen05 ordering, only what its thread had at its last
//! `before_thread_sync` (the tcgen05 operations it issued or saw complete by then); a
//! `tcgen05.commit` releases its operations as if fenced (9.7.16.6.4.2: the commit performs the
//! fence implicitly). A wait that observes the phase (`.relaxed` or not) makes that *pending*;
//! the thread's next `after_thread_sync` makes it effective for the tcgen05 operations it issues
//! later. Acquire/release synchronisation (`bar.sync`, mbarrier arrivals and waits without
//! `.relaxed`) orders complete tcgen05 operations through the ordinary clocks, as rules.md I6
//! says; this module adds nothing there.
//!
//! Besides, every thread keeps a *shadow* clock: what it would have if every fence were present.
//! A Tensor Memory conflict between two tcgen05 accesses that the shadow orders and the real
//! clocks do not is a missing fence (`missing-tcgen05-fence`); whether the pending clock of the
//! later access orders it tells which one: `after_thread_sync` in the waiting thread, else
//! `before_thread_sync` in the arriving one.

use std::collections::HashMap;

use super::clock::Clock;

/// The clocks one asynchronous tcgen05 operation carries besides its ordinary one.
#[derive(Clone, Debug, Default)]
struct OpClocks {
    /// Its issuers' ordinary, effective and pending clocks joined.
    pending: Clock,
    /// Its issuers' shadow clocks joined.
    shadow: Clock,
}

/// What a missing fence explains, for the finding's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Missing {
    /// The waiting thread has no `after_thread_sync` between the wait and the access.
    After,
    /// The arriving thread had no `before_thread_sync` between the earlier access (or its
    /// completion) and the arrival.
    Before,
}

/// The per-CTA state of the tcgen05 fences.
#[derive(Default)]
pub(super) struct FenceState {
    /// Per thread: tcgen05 ordering made effective by `after_thread_sync`.
    effective: Vec<Clock>,
    /// Per thread: acquired through a synchronisation, waiting for `after_thread_sync`.
    pending: Vec<Clock>,
    /// Per thread: its clock at its last `before_thread_sync`.
    released: Vec<Clock>,
    /// Per thread: the shadow (every fence assumed present).
    shadow: Vec<Clock>,
    /// Per mbarrier and phase number: (released through fences, shadow).
    phases: HashMap<(u32, u64), (Clock, Clock)>,
    /// Per asynchronous tcgen05 operation id.
    ops: HashMap<u64, OpClocks>,
}

impl FenceState {
    /// A CTA of `threads` threads starts.
    pub fn start(&mut self, threads: u32) {
        let n = threads as usize;
        *self = FenceState {
            effective: vec![Clock::default(); n],
            pending: vec![Clock::default(); n],
            released: vec![Clock::default(); n],
            shadow: vec![Clock::default(); n],
            ..FenceState::default()
        };
    }

    /// The tcgen05 ordering thread `t` has made effective (empty for an unknown thread).
    pub fn effective(&self, t: u32) -> Option<&Clock> {
        self.effective.get(t as usize)
    }

    /// `tcgen05.fence::before_thread_sync` by `t`, whose ordinary clock is `c`.
    pub fn before(&mut self, t: u32, c: &Clock) {
        let i = t as usize;
        if i < self.released.len() {
            let mut r = c.clone();
            r.join(&self.effective[i]);
            self.released[i] = r;
        }
    }

    /// `tcgen05.fence::after_thread_sync` by `t`.
    pub fn after(&mut self, t: u32) {
        let i = t as usize;
        if i < self.pending.len() {
            let p = self.pending[i].clone();
            self.effective[i].join(&p);
        }
    }

    /// An arrival of `t` (ordinary clock `c`) on phase `phase` of `mbar`.
    pub fn arrive(&mut self, t: u32, c: &Clock, mbar: u32, phase: u64) {
        let i = t as usize;
        if i >= self.released.len() {
            return;
        }
        let mut shadow = c.clone();
        shadow.join(&self.effective[i]);
        shadow.join(&self.shadow[i]);
        let e = self.phases.entry((mbar, phase)).or_default();
        e.0.join(&self.released[i]);
        e.1.join(&shadow);
    }

    /// A `tcgen05.commit` of `t` arriving on phase `phase` of `mbar` with `vc` (the thread's
    /// ordinary clock and its committed operations'): released as if fenced.
    pub fn commit(&mut self, t: u32, vc: &Clock, mbar: u32, phase: u64) {
        let i = t as usize;
        if i >= self.released.len() {
            return;
        }
        let mut fenced = vc.clone();
        fenced.join(&self.effective[i]);
        let mut shadow = fenced.clone();
        shadow.join(&self.shadow[i]);
        let e = self.phases.entry((mbar, phase)).or_default();
        e.0.join(&fenced);
        e.1.join(&shadow);
    }

    /// A wait of `t` that observed phase `phase` of `mbar` complete.
    pub fn wait(&mut self, t: u32, mbar: u32, phase: i64) {
        let i = t as usize;
        if phase < 0 || i >= self.pending.len() {
            return;
        }
        if let Some((fenced, shadow)) = self.phases.get(&(mbar, phase as u64)) {
            self.pending[i].join(fenced);
            self.shadow[i].join(shadow);
        }
    }

    /// `mbarrier.init` of `mbar`: its phases start again at 0.
    pub fn init(&mut self, mbar: u32) {
        self.phases.retain(|k, _| k.0 != mbar);
    }

    /// `bar.sync` of `threads`: acquire/release, so every participant gets every other's
    /// effective and shadow clocks.
    pub fn bar_sync(&mut self, threads: &[u32]) {
        let mut e = Clock::default();
        let mut s = Clock::default();
        for &t in threads {
            if let (Some(a), Some(b)) =
                (self.effective.get(t as usize), self.shadow.get(t as usize))
            {
                e.join(a);
                s.join(b);
            }
        }
        for &t in threads {
            if let Some(a) = self.effective.get_mut(t as usize) {
                a.join(&e);
            }
            if let Some(b) = self.shadow.get_mut(t as usize) {
                b.join(&s);
            }
        }
    }

    /// What thread `t` carries through a synchronisation that orders memory (its effective
    /// and shadow clocks), as [`FenceState::bar_sync`] joins them.
    pub fn carried(&self, t: u32) -> Option<(&Clock, &Clock)> {
        let i = t as usize;
        Some((self.effective.get(i)?, self.shadow.get(i)?))
    }

    /// Thread `t` acquires `carried` (another thread's [`FenceState::carried`], joined).
    pub fn receive(&mut self, t: u32, (e, s): (&Clock, &Clock)) {
        let i = t as usize;
        if let Some(a) = self.effective.get_mut(i) {
            a.join(e);
        }
        if let Some(b) = self.shadow.get_mut(i) {
            b.join(s);
        }
    }

    /// The pending and shadow clocks of thread `t` whose ordinary clock is `c`.
    fn thread_clocks(&self, t: u32, c: &Clock) -> OpClocks {
        let i = t as usize;
        let mut pending = c.clone();
        let mut shadow = c.clone();
        if i < self.effective.len() {
            pending.join(&self.effective[i]);
            pending.join(&self.pending[i]);
            shadow.join(&self.effective[i]);
            shadow.join(&self.shadow[i]);
        }
        OpClocks { pending, shadow }
    }

    /// An asynchronous tcgen05 operation `id` issued by `threads` with their ordinary clocks.
    pub fn issue(&mut self, id: u64, threads: &[(u32, &Clock)]) {
        let mut op = OpClocks::default();
        for &(t, c) in threads {
            let tc = self.thread_clocks(t, c);
            op.pending.join(&tc.pending);
            op.shadow.join(&tc.shadow);
        }
        self.ops.insert(id, op);
    }

    /// Operation `id` is performed with counter `v` in its own slot.
    pub fn performed(&mut self, id: u64, slot: usize, v: u32) {
        if let Some(op) = self.ops.get_mut(&id) {
            op.pending.set(slot, v);
            op.shadow.set(slot, v);
        }
    }

    /// Operation `id` is gone (committed or waited).
    pub fn retire(&mut self, id: u64) {
        self.ops.remove(&id);
    }

    /// Whether a missing fence explains why the earlier access `(slot, clock)` is not ordered
    /// before the access of operation `op` (or, for `None`, of thread `t` with ordinary clock
    /// `c`), and which.
    pub fn explains(
        &self,
        (slot, clock): (usize, u32),
        op: Option<u64>,
        t: u32,
        c: &Clock,
    ) -> Option<Missing> {
        let own;
        let clocks = match op.and_then(|id| self.ops.get(&id)) {
            Some(o) => o,
            None => {
                own = self.thread_clocks(t, c);
                &own
            }
        };
        if clock > clocks.shadow.get(slot) {
            None
        } else if clock <= clocks.pending.get(slot) {
            Some(Missing::After)
        } else {
            Some(Missing::Before)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FenceState, Missing};
    use crate::hazard::clock::Clock;

    /// Thread 0's operation at clock 5 of slot 9, released by a relaxed arrival, reaches
    /// thread 1 only through both fences; each missing one is named.
    #[test]
    fn both_fences_carry_an_operation_across_a_relaxed_arrival() {
        let op = Clock(vec![0; 9].into_iter().chain([5]).collect());
        let run = |before: bool, after: bool| {
            let mut f = FenceState::default();
            f.start(2);
            if before {
                f.before(0, &op);
            }
            f.arrive(0, &op, 64, 0);
            f.wait(1, 64, 0);
            if after {
                f.after(1);
            }
            let c = Clock::default();
            let mut mine = c.clone();
            mine.join(f.effective(1).expect("thread 1 of the CTA"));
            (mine.get(9), f.explains((9, 5), None, 1, &c))
        };
        assert_eq!(run(true, true).0, 5);
        assert_eq!(run(true, false), (0, Some(Missing::After)));
        assert_eq!(run(false, true), (0, Some(Missing::Before)));
        assert_eq!(run(false, false).0, 0);
    }
}
