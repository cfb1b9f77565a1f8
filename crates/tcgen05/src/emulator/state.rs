//! The state of one CTA: shared memory, Tensor Memory with the allocator, collector buffers and
//! the registers of the warps that issue `tcgen05.ld` / `.st`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::problem::{EmuError, EmuRule, Problem};

/// Shared memory of one CTA: 228 KiB, the most a CTA can have on sm_100a (CUDA C++
/// Programming Guide, compute capability 10.0: 228 KB per SM, of which 227 KB per block).
pub const SMEM_BYTES: u32 = 228 * 1024;
/// Lanes of Tensor Memory (PTX ISA 9.7.16.1; rules.md R24).
pub const TMEM_LANES: u32 = 128;
/// Columns of Tensor Memory (PTX ISA 9.7.16.1; rules.md R24).
pub const TMEM_COLUMNS: u32 = 512;

/// A filled collector buffer (PTX ISA 9.7.16.10.7): the operand's element codes and the
/// shared-memory bytes they were read from (to notice a later change).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectorBuffer {
    /// The element codes, in the order the MMA reads them.
    pub codes: Vec<u32>,
    /// (address, byte) of every shared-memory byte read to fill it.
    pub source: Vec<(u32, u8)>,
}

/// One CTA's memories.
#[derive(Clone, Debug)]
pub struct Cta {
    smem: Vec<u8>,
    smem_written: Vec<bool>,
    tmem: Vec<u32>,
    tmem_written: Vec<bool>,
    /// Allocations: (first column, columns).
    pub(super) allocations: Vec<(u32, u32)>,
    pub(super) relinquished: bool,
    /// Collector buffers: `a`, `b0`..`b3`.
    pub(super) collectors: BTreeMap<&'static str, CollectorBuffer>,
    /// Registers: (warp, name) -> the value of each of the 32 threads.
    pub(super) registers: BTreeMap<(u32, String), [Option<u32>; 32]>,
}

impl Default for Cta {
    fn default() -> Self {
        Cta::new()
    }
}

impl Cta {
    /// Nothing written, nothing allocated.
    #[must_use]
    pub fn new() -> Cta {
        Cta {
            smem: vec![0; SMEM_BYTES as usize],
            smem_written: vec![false; SMEM_BYTES as usize],
            tmem: vec![0; (TMEM_LANES * TMEM_COLUMNS) as usize],
            tmem_written: vec![false; (TMEM_LANES * TMEM_COLUMNS) as usize],
            allocations: Vec::new(),
            relinquished: false,
            collectors: BTreeMap::new(),
            registers: BTreeMap::new(),
        }
    }

    /// Writes bytes to shared memory at `address`.
    ///
    /// # Errors
    /// [`EmuRule::SmemOutOfRange`] when they do not fit (nothing is written).
    pub fn write_smem(&mut self, address: u32, bytes: &[u8]) -> Result<(), EmuError> {
        let end = u64::from(address) + bytes.len() as u64;
        if end > u64::from(SMEM_BYTES) {
            return Err(Problem::emu(EmuRule::SmemOutOfRange, "address", end - 1).into());
        }
        let a = address as usize;
        self.smem[a..a + bytes.len()].copy_from_slice(bytes);
        self.smem_written[a..a + bytes.len()].fill(true);
        Ok(())
    }

    /// The byte at `address`, `None` if never written.
    ///
    /// # Errors
    /// [`EmuRule::SmemOutOfRange`].
    pub fn smem_byte(&self, address: u32) -> Result<Option<u8>, Problem> {
        let a = address as usize;
        if address >= SMEM_BYTES {
            return Err(Problem::emu(
                EmuRule::SmemOutOfRange,
                "address",
                u64::from(address),
            ));
        }
        Ok(self.smem_written[a].then_some(self.smem[a]))
    }

    /// The byte at `address`: `None` outside shared memory, `Some(None)` never written.
    #[inline]
    pub(super) fn smem_get(&self, address: u32) -> Option<Option<u8>> {
        let a = address as usize;
        let written = *self.smem_written.get(a)?;
        Some(written.then(|| self.smem[a]))
    }

    /// Writes one Tensor Memory cell.
    ///
    /// # Errors
    /// [`EmuRule::TmemOutOfRange`].
    pub fn write_tmem(&mut self, lane: u32, column: u32, value: u32) -> Result<(), Problem> {
        let i = cell_index(lane, column)?;
        self.tmem[i] = value;
        self.tmem_written[i] = true;
        Ok(())
    }

    /// Copies cell `from` (its value and whether it was ever written) to cell `to`.
    ///
    /// # Errors
    /// [`EmuRule::TmemOutOfRange`].
    pub fn copy_tmem(&mut self, from: (u32, u32), to: (u32, u32)) -> Result<(), Problem> {
        let f = cell_index(from.0, from.1)?;
        let t = cell_index(to.0, to.1)?;
        self.tmem[t] = self.tmem[f];
        self.tmem_written[t] = self.tmem_written[f];
        Ok(())
    }

    /// One Tensor Memory cell, `None` if never written.
    ///
    /// # Errors
    /// [`EmuRule::TmemOutOfRange`].
    pub fn tmem_cell(&self, lane: u32, column: u32) -> Result<Option<u32>, Problem> {
        let i = cell_index(lane, column)?;
        Ok(self.tmem_written[i].then_some(self.tmem[i]))
    }

    /// Whether `column` is inside an allocation.
    #[must_use]
    pub fn allocated(&self, column: u32) -> bool {
        self.allocations
            .iter()
            .any(|&(s, n)| column >= s && column < s + n)
    }

    /// The allocations held: (first column, columns).
    #[must_use]
    pub fn allocations(&self) -> &[(u32, u32)] {
        &self.allocations
    }

    /// The registers of `warp` written so far: name -> one value per thread (`None` where
    /// never written).
    pub fn registers(&self, warp: u32) -> impl Iterator<Item = (&str, &[Option<u32>; 32])> {
        self.registers
            .iter()
            .filter(move |((w, _), _)| *w == warp)
            .map(|((_, n), v)| (n.as_str(), v))
    }

    /// Every register written so far, of every warp, in (warp, name) order: warp, name, one
    /// value per thread (`None` where never written).
    pub fn all_registers(&self) -> impl Iterator<Item = (u32, &str, &[Option<u32>; 32])> {
        self.registers.iter().map(|((w, n), v)| (*w, n.as_str(), v))
    }

    /// Sets a register of every thread of `warp`.
    pub fn set_register(&mut self, warp: u32, name: &str, values: [u32; 32]) {
        self.registers.insert((warp, name.into()), values.map(Some));
    }

    /// The whole Tensor Memory, lane-major (`lane * 512 + column`), `None` where never written.
    pub fn tmem_cells(&self) -> impl Iterator<Item = Option<u32>> + '_ {
        self.tmem
            .iter()
            .zip(&self.tmem_written)
            .map(|(&v, &w)| w.then_some(v))
    }
}

fn cell_index(lane: u32, column: u32) -> Result<usize, Problem> {
    if lane >= TMEM_LANES {
        return Err(Problem::emu(
            EmuRule::TmemOutOfRange,
            "lane",
            u64::from(lane),
        ));
    }
    if column >= TMEM_COLUMNS {
        return Err(Problem::emu(
            EmuRule::TmemOutOfRange,
            "column",
            u64::from(column),
        ));
    }
    Ok((lane * TMEM_COLUMNS + column) as usize)
}
