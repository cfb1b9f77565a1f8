//! Named barriers in happens-before (PTX ISA 9.7.13.1: `bar.sync`/`barrier.sync` with an id
//! other than 0 or a thread count, `bar.arrive`): every arrival releases its thread's clock
//! into the barrier's current phase (the thread ticks on, so what it does after the arrival is
//! not released); when the phase completes, each waiting thread acquires what every arrival
//! released, also the tcgen05 ordering that `bar.sync` carries (rules.md I9). `bar.sync 0`
//! over the whole CTA stays [`crate::observe::Event::BarSync`].

use super::super::clock::Clock;
use super::Tracker;

/// What the arrivals of a named barrier's current phase released.
#[derive(Clone, Debug, Default)]
pub(crate) struct Phase {
    clock: Clock,
    effective: Clock,
    shadow: Clock,
}

impl Tracker {
    /// `threads` arrive at named barrier `id` (the cluster's: rank * 16 + id).
    pub(super) fn named_arrive(&mut self, id: u32, threads: &[u32]) {
        let p = self.named.entry(id).or_default();
        for &t in threads {
            let Some(c) = self.clocks.get_mut(t as usize) else {
                continue;
            };
            p.clock.join(c);
            c.tick(t as usize);
            if let Some((e, s)) = self.fence.carried(t) {
                p.effective.join(e);
                p.shadow.join(s);
            }
        }
    }

    /// Named barrier `id` completed: `threads` (its waiting threads) acquire its phase.
    pub(super) fn named_release(&mut self, id: u32, threads: &[u32]) {
        let p = self.named.remove(&id).unwrap_or_default();
        for &t in threads {
            if let Some(c) = self.clocks.get_mut(t as usize) {
                c.join(&p.clock);
                c.tick(t as usize);
            }
            self.fence.receive(t, (&p.effective, &p.shadow));
        }
    }
}
