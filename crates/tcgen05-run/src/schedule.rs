//! The order a run chooses among the legal ones: which warp runs next and for how long, and
//! when each pending asynchronous operation (a tensor copy) completes.
//!
//! The default schedule runs warps round-robin in long quanta and completes a tensor copy only
//! when no warp can move without it (as late as every synchronisation allows, so a kernel that
//! works only because copies finish at issue is caught). A seeded schedule (SplitMix64) shuffles
//! the warps every round, runs each for 1 to 16 instructions, and completes a random pending
//! copy early one round in eight: every choice is one the hardware may make.

/// A schedule: the default one, or a seeded one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Schedule {
    state: Option<u64>,
}

impl Schedule {
    /// The schedule of `seed` (`None`: the default).
    pub fn new(seed: Option<u64>) -> Schedule {
        Schedule { state: seed }
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

    /// How many instructions a warp runs before the next one is chosen.
    pub fn quantum(&mut self) -> u32 {
        match self.next() {
            None => 10_000,
            Some(r) => 1 + (r % 16) as u32,
        }
    }

    /// A pending copy to complete early this round, if any (seeded schedules only).
    pub fn early(&mut self, pending: usize) -> Option<usize> {
        if pending == 0 {
            return None;
        }
        let r = self.next()?;
        (r % 8 == 0).then_some((r >> 8) as usize % pending)
    }

    /// The pending copy to complete when no warp can move: the oldest by default.
    pub fn pick(&mut self, pending: usize) -> usize {
        self.next().map_or(0, |r| r as usize % pending)
    }
}
