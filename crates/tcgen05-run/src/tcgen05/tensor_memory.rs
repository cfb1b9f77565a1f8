//! One CTA's Tensor Memory in a run (PTX ISA 9.7.16.1): 128 lanes x 512 columns of 32-bit
//! cells, which cells were ever written, the allocation table and the collector buffers; and
//! the view through which the core's MMA stages read it together with the CTA's shared memory
//! ([`TensorCoreMemory`]).

// The core's `Problem` (about 176 bytes) is the error of the trait these cells serve; it is
// returned only when an access fails.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;

use tcgen05::emulator::{
    CollectorBuffer, EmuRule, Problem, TensorCoreMemory, TMEM_COLUMNS, TMEM_LANES,
};

/// Tensor Memory of one CTA (created at the CTA's first tcgen05 instruction).
#[derive(Clone, Debug)]
pub(crate) struct TensorMemory {
    cells: Vec<u32>,
    written: Vec<bool>,
    /// Allocations: (first column, columns).
    pub allocations: Vec<(u32, u32)>,
    /// `tcgen05.relinquish_alloc_permit` executed.
    pub relinquished: bool,
    collectors: HashMap<&'static str, CollectorBuffer>,
}

impl TensorMemory {
    /// Nothing written, nothing allocated.
    pub fn new() -> TensorMemory {
        let n = (TMEM_LANES * TMEM_COLUMNS) as usize;
        TensorMemory {
            cells: vec![0; n],
            written: vec![false; n],
            allocations: Vec::new(),
            relinquished: false,
            collectors: HashMap::new(),
        }
    }

    #[inline]
    fn index(lane: u32, column: u32) -> Result<usize, Problem> {
        if lane >= TMEM_LANES || column >= TMEM_COLUMNS {
            return Err(Problem::emu(
                EmuRule::TmemOutOfRange,
                "taddr",
                u64::from(lane << 16 | column),
            ));
        }
        Ok((lane * TMEM_COLUMNS + column) as usize)
    }

    /// One cell, `None` if never written.
    #[inline]
    pub fn cell(&self, lane: u32, column: u32) -> Result<Option<u32>, Problem> {
        let i = Self::index(lane, column)?;
        Ok(self.written[i].then_some(self.cells[i]))
    }

    /// Writes one cell.
    #[inline]
    pub fn set(&mut self, lane: u32, column: u32, value: u32) -> Result<(), Problem> {
        let i = Self::index(lane, column)?;
        self.cells[i] = value;
        self.written[i] = true;
        Ok(())
    }

    /// Whether `column` is inside an allocation.
    #[inline]
    pub fn allocated(&self, column: u32) -> bool {
        self.allocations
            .iter()
            .any(|&(s, n)| column >= s && column < s + n)
    }

    /// `tcgen05.alloc` (decision E1 of the core's emulator: the lowest free range of `n`
    /// columns starting at a multiple of `n`): the first column, or `None` when no range is
    /// free.
    pub fn allocate(&mut self, n: u32) -> Option<u32> {
        let start = (0..TMEM_COLUMNS / n)
            .map(|i| i * n)
            .find(|&s| (s..s + n).all(|c| !self.allocated(c)))?;
        self.allocations.push((start, n));
        Some(start)
    }

    /// `tcgen05.dealloc`: false when `(column, n)` is not an allocation.
    pub fn free(&mut self, column: u32, n: u32) -> bool {
        let before = self.allocations.len();
        self.allocations.retain(|&(s, k)| !(s == column && k == n));
        self.collectors.clear();
        self.allocations.len() != before
    }
}

/// A CTA's shared memory (every byte initialised: the run zero-fills it) and its Tensor
/// Memory, as the core's MMA stages see them: CTA 0 only (`.cta_group::1`).
pub(crate) struct Memories<'a> {
    /// Shared memory.
    pub shared: &'a mut [u8],
    /// Tensor Memory.
    pub tmem: &'a mut TensorMemory,
}

fn other_cta(cta: u32) -> Problem {
    Problem::emu(EmuRule::TmemOutOfRange, "cta", u64::from(cta))
}

impl TensorCoreMemory for Memories<'_> {
    #[inline]
    fn smem_byte(&self, cta: u32, address: u32) -> Option<Option<u8>> {
        if cta != 0 {
            return None;
        }
        self.shared.get(address as usize).map(|b| Some(*b))
    }

    fn write_smem(&mut self, cta: u32, address: u32, bytes: &[u8]) -> Result<(), Problem> {
        let end = address as usize + bytes.len();
        if cta != 0 || end > self.shared.len() {
            return Err(Problem::emu(EmuRule::SmemOutOfRange, "address", end as u64));
        }
        self.shared[address as usize..end].copy_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn tmem_cell(&self, cta: u32, lane: u32, column: u32) -> Result<Option<u32>, Problem> {
        if cta != 0 {
            return Err(other_cta(cta));
        }
        self.tmem.cell(lane, column)
    }

    #[inline]
    fn write_tmem(&mut self, cta: u32, lane: u32, column: u32, value: u32) -> Result<(), Problem> {
        if cta != 0 {
            return Err(other_cta(cta));
        }
        self.tmem.set(lane, column, value)
    }

    fn copy_tmem(&mut self, cta: u32, from: (u32, u32), to: (u32, u32)) -> Result<(), Problem> {
        if cta != 0 {
            return Err(other_cta(cta));
        }
        let f = TensorMemory::index(from.0, from.1)?;
        let t = TensorMemory::index(to.0, to.1)?;
        self.tmem.cells[t] = self.tmem.cells[f];
        self.tmem.written[t] = self.tmem.written[f];
        Ok(())
    }

    #[inline]
    fn allocated(&self, cta: u32, column: u32) -> bool {
        cta == 0 && self.tmem.allocated(column)
    }

    fn collector(&self, cta: u32, name: &'static str) -> Option<CollectorBuffer> {
        if cta != 0 {
            return None;
        }
        self.tmem.collectors.get(name).cloned()
    }

    fn set_collector(&mut self, cta: u32, name: &'static str, buffer: Option<CollectorBuffer>) {
        if cta != 0 {
            return;
        }
        match buffer {
            Some(b) => {
                self.tmem.collectors.insert(name, b);
            }
            None => {
                self.tmem.collectors.remove(name);
            }
        }
    }
}
