//! Vector clocks: one counter per thread of a CTA and per asynchronous agent (a tensor copy's
//! mbarrier, a warp's `wgmma` queue). Access `a` happens before access `b` exactly when `a`'s
//! counter in its own slot is at most `b`'s clock in that slot (Lamport; Mattern).

/// A vector clock; slots past its length are 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Clock(pub Vec<u32>);

impl Clock {
    /// The counter of `slot`.
    pub fn get(&self, slot: usize) -> u32 {
        self.0.get(slot).copied().unwrap_or(0)
    }

    /// Sets the counter of `slot`.
    pub fn set(&mut self, slot: usize, v: u32) {
        if self.0.len() <= slot {
            self.0.resize(slot + 1, 0);
        }
        self.0[slot] = v;
    }

    /// Adds one to the counter of `slot`.
    pub fn tick(&mut self, slot: usize) {
        let v = self.get(slot) + 1;
        self.set(slot, v);
    }

    /// The slot-wise maximum with `other` (acquiring what `other` released).
    pub fn join(&mut self, other: &Clock) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = (*a).max(*b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Clock;

    #[test]
    fn join_is_the_slotwise_maximum() {
        let mut a = Clock(vec![3, 0, 7]);
        a.join(&Clock(vec![1, 5]));
        assert_eq!(a.0, vec![3, 5, 7]);
        a.tick(4);
        assert_eq!(a.get(4), 1);
        assert_eq!(a.get(9), 0);
    }
}
