//! The order a run chooses among the legal ones: which warp runs next and for how long, and
//! when each pending asynchronous operation (a tensor copy) completes.
//!
//! The default schedule runs warps round-robin in long quanta and completes a tensor copy only
//! when no warp can move without it (as late as every synchronisation allows, so a kernel that
//! works only because copies finish at issue is caught). A seeded schedule (SplitMix64) shuffles
//! the warps every round, runs each for 1 to 16 instructions, and completes a random pending
//! copy early one round in eight: every choice is one the hardware may make.
//!
//! An explored schedule ([`Choices`], used by [`crate::hazard::explore()`]) makes each choice
//! from a list of forced choice indices and records every choice it made: each round runs one
//! runnable warp of each CTA up to and including its next synchronisation instruction
//! ([`syncs`]); at each round's end, with `k` tensor copies pending, it completes none (choice
//! 0) or copy `c - 1` (choice `c`); when no warp can move, it completes copy `c`. A choice point
//! is one with at least two options; past the forced list, every choice is 0.

use crate::op::{Op, OpKind};

/// The choices of an explored schedule: those forced, and those made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    /// The choice index to take at each choice point, in order (0 past the end).
    pub forced: Vec<u32>,
    /// Each choice point met: (the index taken, the number of options).
    pub made: Vec<(u32, u32)>,
    /// The first forced index that was not an option at its choice point:
    /// (choice point, index, options).
    pub misfit: Option<(usize, u32, u32)>,
    /// The warp that ran last, per CTA rank (the warp choice lists it first).
    last: Vec<usize>,
    /// Each step of the run (a warp's turn, a copy completed), for the explorer's
    /// partial-order reduction ([`crate::hazard::explore()`]): its observer fills the steps'
    /// footprints.
    pub steps: Option<std::rc::Rc<std::cell::RefCell<Vec<Step>>>>,
}

/// One step of an explored run: which warp ran (none: a copy completed), the choice point it
/// was chosen at (with the warps that were options), and what it touched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The warp (`rank << 16 | warp`), or `None` for a copy's completion.
    pub warp: Option<usize>,
    /// The choice point (index in [`Choices::made`]) and each option's warp, if it was one.
    pub node: Option<(usize, Vec<usize>)>,
    /// What it touched.
    pub footprint: crate::hazard::sleep::Footprint,
}

impl Choices {
    fn step(&self, warp: Option<usize>, node: Option<(usize, Vec<usize>)>) {
        if let Some(log) = &self.steps {
            // A copy's completion touches what it writes and its mbarrier: taken as everything.
            let footprint = crate::hazard::sleep::Footprint {
                global: warp.is_none(),
                ..Default::default()
            };
            log.borrow_mut().push(Step {
                warp,
                node,
                footprint,
            });
        }
    }

    /// The current step touches what the observer does not see (an atomic).
    fn opaque(&self) {
        if let Some(log) = &self.steps {
            if let Some(s) = log.borrow_mut().last_mut() {
                s.footprint.global = true;
            }
        }
    }
}

impl Choices {
    /// Takes the choice at the next choice point among `options` (no choice point when fewer
    /// than two).
    fn choose(&mut self, options: usize) -> usize {
        if options < 2 {
            return 0;
        }
        let at = self.made.len();
        let mut c = self.forced.get(at).copied().unwrap_or(0);
        if c as usize >= options {
            self.misfit.get_or_insert((at, c, options as u32));
            c = 0;
        }
        self.made.push((c, options as u32));
        c as usize
    }
}

/// Whether `op` synchronises with other threads or asynchronous operations: an explored
/// schedule ends a warp's turn after it.
#[must_use]
pub fn syncs(op: &Op) -> bool {
    matches!(
        op.kind,
        OpKind::BarSync { .. }
            | OpKind::NamedBarrier { .. }
            | OpKind::MbarInit { .. }
            | OpKind::MbarArrive { .. }
            | OpKind::MbarArriveCount { .. }
            | OpKind::MbarTryWait { .. }
            | OpKind::MbarInval { .. }
            | OpKind::TmaLoad { .. }
            | OpKind::CpAsyncWait { .. }
            | OpKind::Cluster(_)
            | OpKind::Bulk(_)
            | OpKind::Tcgen05(_)
    )
}

/// Hands an explored schedule's choices back to the caller's `choices` at the end of a run.
pub(crate) fn give_back(sched: Schedule, choices: Option<&mut Choices>) {
    if let (Some(c), Some(x)) = (choices, sched.explore) {
        *c = x;
    }
}

/// A schedule: the default one, a seeded one, or an explored one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Schedule {
    state: Option<u64>,
    /// An explored schedule's choices.
    pub explore: Option<Choices>,
}

impl Schedule {
    /// The schedule of `seed` (`None`: the default).
    pub fn new(seed: Option<u64>) -> Schedule {
        Schedule {
            state: seed,
            explore: None,
        }
    }

    fn next(&mut self) -> Option<u64> {
        let s = self.state.as_mut()?;
        *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Some(z ^ (z >> 31))
    }

    /// The order in which the `n` warps run this round.
    pub fn order(&mut self, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).collect();
        if self.state.is_some() {
            for i in (1..n).rev() {
                let j = self.next().unwrap_or(0) as usize % (i + 1);
                v.swap(i, j);
            }
        }
        v
    }

    /// The warps of CTA `rank` that run this round, given which can run: all in
    /// [`Schedule::order`] but for an explored schedule, which runs one (the one that ran
    /// last if it still can, then the next ones in warp order, choice 0 first).
    pub fn order_of(&mut self, rank: usize, runnable: &[bool]) -> Vec<usize> {
        let Some(x) = self.explore.as_mut() else {
            return self.order(runnable.len());
        };
        if x.last.len() <= rank {
            x.last.resize(rank + 1, 0);
        }
        let n = runnable.len();
        let first = x.last[rank];
        let list: Vec<usize> = (0..n)
            .map(|i| (first + i) % n.max(1))
            .filter(|&i| runnable[i])
            .collect();
        if list.is_empty() {
            return list;
        }
        let at = x.made.len();
        let w = list[x.choose(list.len())];
        x.last[rank] = w;
        let node =
            (x.made.len() > at).then(|| (at, list.iter().map(|&v| rank << 16 | v).collect()));
        x.step(Some(rank << 16 | w), node);
        vec![w]
    }

    /// Whether a warp's turn ends after `op` (explored schedules: after each synchronisation).
    pub fn yields(&self, op: &Op) -> bool {
        if let (Some(x), OpKind::Atom(_)) = (&self.explore, &op.kind) {
            x.opaque();
        }
        self.explore.is_some() && syncs(op)
    }

    /// How many instructions a warp runs before the next one is chosen.
    pub fn quantum(&mut self) -> u32 {
        match self.next() {
            None => 10_000,
            Some(r) => 1 + (r % 16) as u32,
        }
    }

    /// A pending copy to complete early this round, if any (seeded and explored schedules).
    pub fn early(&mut self, pending: usize) -> Option<usize> {
        if pending == 0 {
            return None;
        }
        if let Some(x) = self.explore.as_mut() {
            let c = x.choose(pending + 1).checked_sub(1);
            if c.is_some() {
                x.step(None, None);
            }
            return c;
        }
        let r = self.next()?;
        (r % 8 == 0).then_some((r >> 8) as usize % pending)
    }

    /// The pending copy to complete when no warp can move: the oldest by default.
    pub fn pick(&mut self, pending: usize) -> usize {
        if let Some(x) = self.explore.as_mut() {
            let c = x.choose(pending);
            x.step(None, None);
            return c;
        }
        self.next().map_or(0, |r| r as usize % pending)
    }
}
