//! What the hazard checker needs to see of the `tcgen05.*` instructions (PTX ISA 9.7.16.6):
//! each asynchronous operation (`tcgen05.mma`, `cp`, `shift`) with an id given at issue, the
//! shared-memory bytes and Tensor Memory cells it read and the cells it wrote when it is
//! performed, and the Tensor Memory cells each `tcgen05.ld` / `tcgen05.st` touches. Kept only
//! while an observer is attached ([`super::Tcgen05State::trace`]); a plain run pays one branch.
//!
//! The cells an operation touches are recorded by wrapping the CTA's memories in a
//! [`Recorder`] while the core's emulator performs it, so the footprint is exactly the one the
//! core's stages use (data-path layouts, scale factors, sparsity metadata included).

#![allow(clippy::result_large_err)]

use std::cell::RefCell;

use tcgen05::emulator::{CollectorBuffer, Problem, TensorCoreMemory};

/// Ids of tcgen05 operations live apart from the run's other asynchronous operations.
pub(crate) const ID_BASE: u64 = 1 << 62;

/// An asynchronous tcgen05 operation performed: its id and what it touched.
#[derive(Clone, Debug, Default)]
pub(crate) struct Performed {
    /// The id given at issue.
    pub id: u64,
    /// The issuing lane of the warp.
    pub lane: usize,
    /// The instruction's line.
    pub line: u32,
    /// Shared-memory bytes read, as `(first, bytes)` ranges.
    pub smem_reads: Vec<(u32, u32)>,
    /// Tensor Memory cells read, as `(lane, first column, columns)` runs.
    pub tmem_reads: Vec<(u32, u32, u32)>,
    /// Tensor Memory cells written, as `(lane, first column, columns)` runs.
    pub tmem_writes: Vec<(u32, u32, u32)>,
    /// The cluster rank of the CTA these accesses touch (`None`: the issuing CTA); a
    /// `.cta_group::2` operation gives one record per CTA of the pair.
    pub rank: Option<u32>,
}

/// The trace of one CTA's tcgen05 instructions, drained by the run's hooks after each one.
#[derive(Debug, Default)]
pub(crate) struct Trace {
    next: u64,
    /// Operations issued by the last instruction: (id, lane).
    pub issued: Vec<(u64, usize)>,
    /// Operations performed by the last instruction (a commit), oldest first.
    pub performed: Vec<Performed>,
    /// Tensor Memory cells the last `tcgen05.ld` / `st` touched: (thread lane, TMEM lane,
    /// column).
    pub cells: Vec<(u32, u32, u32)>,
    /// `tcgen05.ld`s not yet waited: (warp, id).
    pub loads: Vec<(u32, u64)>,
    /// `tcgen05.st`s not yet waited: (warp, id).
    pub stores: Vec<(u32, u64)>,
}

impl Trace {
    /// An id for the operation lane `lane` issues now.
    pub fn issue(&mut self, lane: usize) -> u64 {
        let id = self.fresh();
        self.issued.push((id, lane));
        id
    }

    /// A new id.
    pub fn fresh(&mut self) -> u64 {
        self.next += 1;
        ID_BASE + self.next
    }
}

/// A set of small integers (shared-memory addresses, Tensor Memory cells `lane * 512 +
/// column`) as a bitmap: the emulator reads the same byte once per element it computes, so
/// marking costs one bit, not one entry.
#[derive(Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn set(&mut self, i: u32) {
        let w = (i / 64) as usize;
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (i % 64);
    }

    /// The marked integers as runs `(first, count)` of consecutive values.
    fn runs(&self) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for (w, &bits) in self.0.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                let i = w as u32 * 64 + b.trailing_zeros();
                b &= b - 1;
                match out.last_mut() {
                    Some(r) if r.0 + r.1 == i => r.1 += 1,
                    _ => out.push((i, 1)),
                }
            }
        }
        out
    }
}

/// Tensor Memory cells `lane * 512 + column` as runs `(lane, first column, columns)` within
/// a lane.
fn cell_runs(bits: &Bits) -> Vec<(u32, u32, u32)> {
    let mut out = Vec::new();
    for (first, n) in bits.runs() {
        let (mut at, end) = (first, first + n);
        while at < end {
            let lane_end = (at / 512 + 1) * 512;
            let stop = end.min(lane_end);
            out.push((at / 512, at % 512, stop - at));
            at = stop;
        }
    }
    out
}

fn cell(lane: u32, column: u32) -> u32 {
    lane * 512 + column.min(511)
}

/// The CTA's memories as the core's emulator sees them, with every shared-memory byte and
/// Tensor Memory cell it reads or writes noted.
pub(crate) struct Recorder<'m, M: TensorCoreMemory> {
    inner: &'m mut M,
    /// Per CTA of the core's view (0, or 0 and 1 for a pair): the bytes and cells touched.
    smem: RefCell<[Bits; 2]>,
    tmem_reads: RefCell<[Bits; 2]>,
    tmem_writes: [Bits; 2],
}

impl<'m, M: TensorCoreMemory> Recorder<'m, M> {
    /// Wraps `inner`.
    pub fn new(inner: &'m mut M) -> Self {
        Recorder {
            inner,
            smem: RefCell::new(Default::default()),
            tmem_reads: RefCell::new(Default::default()),
            tmem_writes: Default::default(),
        }
    }

    /// What was touched, as a [`Performed`] of operation `id`.
    pub fn finish(self, id: u64, lane: usize, line: u32) -> Performed {
        self.finish_ctas(id, lane, line, [None, None])
            .swap_remove(0)
    }

    /// What was touched in each CTA of the core's view, one [`Performed`] per CTA, CTA `c`
    /// being cluster rank `ranks[c]` (`None`: the issuing CTA).
    pub fn finish_ctas(
        self,
        id: u64,
        lane: usize,
        line: u32,
        ranks: [Option<u32>; 2],
    ) -> Vec<Performed> {
        let (smem, reads) = (self.smem.into_inner(), self.tmem_reads.into_inner());
        (0..2)
            .map(|c| Performed {
                id,
                lane,
                line,
                smem_reads: smem[c].runs(),
                tmem_reads: cell_runs(&reads[c]),
                tmem_writes: cell_runs(&self.tmem_writes[c]),
                rank: ranks[c],
            })
            .collect()
    }
}

fn side(cta: u32) -> usize {
    (cta & 1) as usize
}

impl<M: TensorCoreMemory> TensorCoreMemory for Recorder<'_, M> {
    fn smem_byte(&self, cta: u32, address: u32) -> Option<Option<u8>> {
        self.smem.borrow_mut()[side(cta)].set(address);
        self.inner.smem_byte(cta, address)
    }

    fn write_smem(&mut self, cta: u32, address: u32, bytes: &[u8]) -> Result<(), Problem> {
        self.inner.write_smem(cta, address, bytes)
    }

    fn tmem_cell(&self, cta: u32, lane: u32, column: u32) -> Result<Option<u32>, Problem> {
        self.tmem_reads.borrow_mut()[side(cta)].set(cell(lane, column));
        self.inner.tmem_cell(cta, lane, column)
    }

    fn write_tmem(&mut self, cta: u32, lane: u32, column: u32, value: u32) -> Result<(), Problem> {
        self.tmem_writes[side(cta)].set(cell(lane, column));
        self.inner.write_tmem(cta, lane, column, value)
    }

    fn copy_tmem(&mut self, cta: u32, from: (u32, u32), to: (u32, u32)) -> Result<(), Problem> {
        self.tmem_reads.borrow_mut()[side(cta)].set(cell(from.0, from.1));
        self.tmem_writes[side(cta)].set(cell(to.0, to.1));
        self.inner.copy_tmem(cta, from, to)
    }

    fn allocated(&self, cta: u32, column: u32) -> bool {
        self.inner.allocated(cta, column)
    }

    fn collector(&self, cta: u32, name: &'static str) -> Option<CollectorBuffer> {
        self.inner.collector(cta, name)
    }

    fn set_collector(&mut self, cta: u32, name: &'static str, buffer: Option<CollectorBuffer>) {
        self.inner.set_collector(cta, name, buffer);
    }
}

#[cfg(test)]
mod tests {
    use super::{cell_runs, Bits};

    #[test]
    fn runs_join_consecutive_marks_and_split_at_lanes() {
        let mut b = Bits::default();
        for i in [3, 2, 2, 7, 64, 63, 65] {
            b.set(i);
        }
        assert_eq!(b.runs(), vec![(2, 2), (7, 1), (63, 3)]);
        let mut c = Bits::default();
        for i in 510..515 {
            c.set(i);
        }
        assert_eq!(cell_runs(&c), vec![(0, 510, 2), (1, 0, 3)]);
    }
}
