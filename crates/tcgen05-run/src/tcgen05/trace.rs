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

/// Sorted, deduplicated points as runs `(key, first, count)` of consecutive values per key.
fn runs(mut points: Vec<(u32, u32)>) -> Vec<(u32, u32, u32)> {
    points.sort_unstable();
    points.dedup();
    let mut out: Vec<(u32, u32, u32)> = Vec::new();
    for (k, v) in points {
        match out.last_mut() {
            Some(r) if r.0 == k && r.1 + r.2 == v => r.2 += 1,
            _ => out.push((k, v, 1)),
        }
    }
    out
}

/// The CTA's memories as the core's emulator sees them, with every shared-memory byte and
/// Tensor Memory cell it reads or writes noted.
pub(crate) struct Recorder<'m, M: TensorCoreMemory> {
    inner: &'m mut M,
    smem: RefCell<Vec<(u32, u32)>>,
    tmem_reads: RefCell<Vec<(u32, u32)>>,
    tmem_writes: Vec<(u32, u32)>,
}

impl<'m, M: TensorCoreMemory> Recorder<'m, M> {
    /// Wraps `inner`.
    pub fn new(inner: &'m mut M) -> Self {
        Recorder {
            inner,
            smem: RefCell::new(Vec::new()),
            tmem_reads: RefCell::new(Vec::new()),
            tmem_writes: Vec::new(),
        }
    }

    /// What was touched, as a [`Performed`] of operation `id`.
    pub fn finish(self, id: u64, lane: usize, line: u32) -> Performed {
        let smem = runs(self.smem.into_inner())
            .into_iter()
            .map(|(_, first, n)| (first, n))
            .collect();
        Performed {
            id,
            lane,
            line,
            smem_reads: smem,
            tmem_reads: runs(self.tmem_reads.into_inner()),
            tmem_writes: runs(self.tmem_writes),
        }
    }
}

impl<M: TensorCoreMemory> TensorCoreMemory for Recorder<'_, M> {
    fn smem_byte(&self, cta: u32, address: u32) -> Option<Option<u8>> {
        self.smem.borrow_mut().push((0, address));
        self.inner.smem_byte(cta, address)
    }

    fn write_smem(&mut self, cta: u32, address: u32, bytes: &[u8]) -> Result<(), Problem> {
        self.inner.write_smem(cta, address, bytes)
    }

    fn tmem_cell(&self, cta: u32, lane: u32, column: u32) -> Result<Option<u32>, Problem> {
        self.tmem_reads.borrow_mut().push((lane, column));
        self.inner.tmem_cell(cta, lane, column)
    }

    fn write_tmem(&mut self, cta: u32, lane: u32, column: u32, value: u32) -> Result<(), Problem> {
        self.tmem_writes.push((lane, column));
        self.inner.write_tmem(cta, lane, column, value)
    }

    fn copy_tmem(&mut self, cta: u32, from: (u32, u32), to: (u32, u32)) -> Result<(), Problem> {
        self.tmem_reads.borrow_mut().push(from);
        self.tmem_writes.push(to);
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
    use super::runs;

    #[test]
    fn runs_join_consecutive_points_per_key() {
        let r = runs(vec![(1, 5), (0, 3), (0, 2), (0, 2), (1, 6), (0, 7)]);
        assert_eq!(r, vec![(0, 2, 2), (0, 7, 1), (1, 5, 2)]);
    }
}
