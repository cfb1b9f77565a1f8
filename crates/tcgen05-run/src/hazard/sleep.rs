//! Partial-order reduction of the exhaustive walk ([`crate::hazard::explore()`]): sleep sets
//! (Godefroid, "Partial-Order Methods for the Verification of Concurrent Systems", 1996).
//!
//! Each step of an explored run (a warp's turn up to its next synchronisation instruction, or
//! a copy's completion) gets a [`Footprint`] from the accesses and events the observer sees:
//! the bytes of shared, global and Tensor Memory it reads and writes, the mbarriers it reads
//! (`try_wait`) and changes (`init`, `arrive`, `tcgen05.commit`); anything else (a barrier, an
//! asynchronous operation issued or completed, a Tensor Memory lifecycle step, an atomic, a
//! copy's completion) makes the step depend on every other. Two steps of different warps are
//! independent when neither changes what the other touches: run in either order they reach
//! the same state. At a warp choice point, after the walk has explored option `a`, a later
//! option `b`'s subtree need not run `a` first again until a step dependent on `a` ran: `a`
//! sleeps there, and the walk does not branch to a sleeping warp. Every state the full walk
//! reaches is still reached (so every deadlock), and every schedule it skips is equivalent, by
//! swapping independent steps, to one it runs (so the happens-before findings are the same).
//! Copy-completion choice points are always walked whole.

use std::cell::RefCell;
use std::rc::Rc;

use crate::observe::{Access, Event, Observer, Space};
use crate::schedule::Step;

/// Most byte ranges one footprint records before it counts as touching everything.
const MAX_RANGES: usize = 4096;

/// What one step touched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    /// Depends on every other step.
    pub global: bool,
    /// Mbarriers read (`try_wait`/`test_wait`).
    pub mbar_read: Vec<u32>,
    /// Mbarriers changed.
    pub mbar_write: Vec<u32>,
    /// Byte ranges: (space, first, end, written).
    pub bytes: Vec<(u8, u64, u64, bool)>,
}

impl Footprint {
    /// Whether the order of two steps with these footprints can matter.
    #[must_use]
    pub fn depends(&self, o: &Footprint) -> bool {
        if self.global || o.global {
            return true;
        }
        let meets = |w: &[u32], r: &[u32]| w.iter().any(|m| r.contains(m));
        if meets(&self.mbar_write, &o.mbar_write)
            || meets(&self.mbar_write, &o.mbar_read)
            || meets(&o.mbar_write, &self.mbar_read)
        {
            return true;
        }
        self.bytes.iter().any(|&(s, lo, hi, w)| {
            o.bytes
                .iter()
                .any(|&(s2, lo2, hi2, w2)| s == s2 && (w || w2) && lo < hi2 && lo2 < hi)
        })
    }

    fn range(&mut self, space: u8, lo: u64, hi: u64, write: bool) {
        if let Some(last) = self.bytes.last_mut() {
            if last.0 == space && last.3 == write && last.2 == lo {
                last.2 = hi;
                return;
            }
        }
        if self.bytes.len() >= MAX_RANGES {
            self.global = true;
            return;
        }
        self.bytes.push((space, lo, hi, write));
    }
}

/// An observer that passes everything on to the hazard tracker and records each step's
/// footprint into the explored run's step log.
pub(crate) struct Recorder<'a> {
    /// The tracker.
    pub inner: &'a mut dyn Observer,
    /// The run's steps (shared with its [`crate::schedule::Choices`]).
    pub log: Rc<RefCell<Vec<Step>>>,
}

impl Recorder<'_> {
    fn with(&self, f: impl FnOnce(&mut Footprint)) {
        if let Some(s) = self.log.borrow_mut().last_mut() {
            f(&mut s.footprint);
        }
    }
}

impl Observer for Recorder<'_> {
    fn access(&mut self, a: &Access) {
        let space = match a.space {
            Space::Shared => 0,
            Space::Global => 1,
            Space::Tmem => 2,
        };
        self.with(|f| f.range(space, a.address, a.address + u64::from(a.size), a.write));
        self.inner.access(a);
    }

    fn event(&mut self, e: &Event<'_>) {
        self.with(|f| match *e {
            Event::MbarInit { mbar, .. }
            | Event::MbarArrive { mbar, .. }
            | Event::Tcgen05Commit { mbar, .. } => f.mbar_write.push(mbar),
            Event::MbarWait { mbar, .. } => f.mbar_read.push(mbar),
            Event::FenceProxyAsync { .. }
            | Event::StoreBytes { .. }
            | Event::Tcgen05Fence { .. } => {}
            _ => f.global = true,
        });
        self.inner.event(e);
    }
}

/// Sleeping warps, each with the footprint of the step it would take.
type Asleep = Vec<(usize, Footprint)>;

/// A choice point of the current path: its options (each warp, or `None` for a
/// copy-completion choice point), which were run, and the sleeping warps (with the footprint
/// of the step each would take) when the walk reached it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    warps: Option<Vec<usize>>,
    done: Vec<bool>,
    sleep: Vec<(usize, Footprint)>,
    explored: Vec<(usize, Footprint)>,
}

/// The sleep-set walk's memory of the current path.
#[derive(Clone, Debug, Default)]
pub(crate) struct Path {
    nodes: Vec<Node>,
}

impl Path {
    /// Takes in the run that forced `forced` choices (the last one the branch taken at its
    /// choice point) and made `made`, with its `steps`: the choice points past the forced
    /// ones, each warp choice point with the warps asleep when the run reached it.
    pub fn record(&mut self, forced: usize, made: &[(u32, u32)], steps: &[Step]) {
        self.nodes.truncate(forced);
        let branch = forced.checked_sub(1);
        let mut sleep: Vec<(usize, Footprint)> = Vec::new();
        let mut live = branch.is_none();
        let mut entry: std::collections::HashMap<usize, (Vec<usize>, Asleep)> =
            std::collections::HashMap::new();
        let mut ran: std::collections::HashMap<usize, (usize, Footprint)> =
            std::collections::HashMap::new();
        for s in steps {
            let node = s.node.as_ref();
            if !live {
                match (node, branch) {
                    (Some((a, _)), Some(b)) if *a == b => {
                        // The branch's warp: what sleeps there, and the options run before it.
                        let n = &self.nodes[b];
                        sleep = n.sleep.clone();
                        sleep.extend(n.explored.iter().cloned());
                        live = true;
                    }
                    // Past a copy-completion branch: the completion woke every warp.
                    (Some((a, _)), Some(b)) if *a > b => live = true,
                    _ => continue,
                }
            }
            if let (Some((a, ws)), Some(w)) = (node, s.warp) {
                if *a >= forced {
                    entry.insert(*a, (ws.clone(), sleep.clone()));
                }
                ran.insert(*a, (w, s.footprint.clone()));
            }
            match s.warp {
                Some(w) => sleep.retain(|(v, f)| *v != w && !f.depends(&s.footprint)),
                None => sleep.clear(),
            }
        }
        if let Some(b) = branch {
            let c = made[b].0 as usize;
            if let Some(n) = self.nodes.get_mut(b) {
                if let Some(d) = n.done.get_mut(c) {
                    *d = true;
                }
                if let Some(r) = ran.get(&b) {
                    n.explored.push(r.clone());
                }
            }
        }
        for (j, &(c, options)) in made.iter().enumerate().skip(forced) {
            let mut done = vec![false; options as usize];
            if let Some(d) = done.get_mut(c as usize) {
                *d = true;
            }
            let (warps, asleep) = match entry.remove(&j) {
                Some((ws, sl)) => (Some(ws), sl),
                None => (None, Vec::new()),
            };
            self.nodes.push(Node {
                warps,
                done,
                sleep: asleep,
                explored: ran.get(&j).cloned().into_iter().collect(),
            });
        }
    }

    /// The deepest choice point with an option neither run nor asleep, and that option.
    pub fn backtrack(&self) -> Option<(usize, u32)> {
        self.nodes.iter().enumerate().rev().find_map(|(i, n)| {
            (0..n.done.len())
                .find(|&k| {
                    !n.done[k]
                        && n.warps
                            .as_ref()
                            .is_none_or(|ws| !n.sleep.iter().any(|(w, _)| Some(w) == ws.get(k)))
                })
                .map(|k| (i, k as u32))
        })
    }
}
