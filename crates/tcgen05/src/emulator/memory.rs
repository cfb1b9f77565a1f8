//! The memories a tcgen05 instruction reads and writes, as an interface: shared memory and
//! Tensor Memory (with its allocations and collector buffers) of each CTA of the pair.
//!
//! The emulator's own [`Cta`]s implement it (a slice of one or two CTAs), and so can any
//! program that keeps these memories its own way, such as a whole-kernel PTX interpreter: the
//! MMA's stages ([`mma`](super::mma())) read and write only through it.

use super::problem::{EmuRule, Problem};
use super::state::{CollectorBuffer, Cta};

/// Shared memory and Tensor Memory of the CTAs an instruction touches (CTA 0 issues; CTA 1 is
/// the peer of a `.cta_group::2` pair).
pub trait TensorCoreMemory {
    /// The byte of CTA `cta`'s shared memory at `address`: `None` outside shared memory,
    /// `Some(None)` where never written.
    fn smem_byte(&self, cta: u32, address: u32) -> Option<Option<u8>>;

    /// Writes bytes to CTA `cta`'s shared memory (the emulator does so only to keep the random
    /// values it gave never-written bytes).
    ///
    /// # Errors
    /// [`EmuRule::SmemOutOfRange`] when they do not fit.
    fn write_smem(&mut self, cta: u32, address: u32, bytes: &[u8]) -> Result<(), Problem>;

    /// One Tensor Memory cell of CTA `cta`, `None` if never written.
    ///
    /// # Errors
    /// [`EmuRule::TmemOutOfRange`].
    fn tmem_cell(&self, cta: u32, lane: u32, column: u32) -> Result<Option<u32>, Problem>;

    /// Writes one Tensor Memory cell of CTA `cta`.
    ///
    /// # Errors
    /// [`EmuRule::TmemOutOfRange`].
    fn write_tmem(&mut self, cta: u32, lane: u32, column: u32, value: u32) -> Result<(), Problem>;

    /// Copies cell `from` of CTA `cta` (its value and whether it was ever written) to `to`.
    ///
    /// # Errors
    /// [`EmuRule::TmemOutOfRange`].
    fn copy_tmem(&mut self, cta: u32, from: (u32, u32), to: (u32, u32)) -> Result<(), Problem>;

    /// Whether `column` of CTA `cta`'s Tensor Memory is inside an allocation.
    fn allocated(&self, cta: u32, column: u32) -> bool;

    /// The collector buffer `name` (`a`, `b0`..`b3`) of CTA `cta`, if filled.
    fn collector(&self, cta: u32, name: &'static str) -> Option<CollectorBuffer>;

    /// Fills (`Some`) or empties (`None`) a collector buffer of CTA `cta`.
    fn set_collector(&mut self, cta: u32, name: &'static str, buffer: Option<CollectorBuffer>);
}

fn no_cta(cta: u32) -> Problem {
    Problem::emu(EmuRule::TmemOutOfRange, "cta", u64::from(cta))
}

impl TensorCoreMemory for [Cta] {
    fn smem_byte(&self, cta: u32, address: u32) -> Option<Option<u8>> {
        self.get(cta as usize)?.smem_get(address)
    }

    fn write_smem(&mut self, cta: u32, address: u32, bytes: &[u8]) -> Result<(), Problem> {
        self.get_mut(cta as usize)
            .ok_or_else(|| no_cta(cta))?
            .write_smem(address, bytes)
            .map_err(|e| e.problems[0])
    }

    fn tmem_cell(&self, cta: u32, lane: u32, column: u32) -> Result<Option<u32>, Problem> {
        self.get(cta as usize)
            .ok_or_else(|| no_cta(cta))?
            .tmem_cell(lane, column)
    }

    fn write_tmem(&mut self, cta: u32, lane: u32, column: u32, value: u32) -> Result<(), Problem> {
        self.get_mut(cta as usize)
            .ok_or_else(|| no_cta(cta))?
            .write_tmem(lane, column, value)
    }

    fn copy_tmem(&mut self, cta: u32, from: (u32, u32), to: (u32, u32)) -> Result<(), Problem> {
        self.get_mut(cta as usize)
            .ok_or_else(|| no_cta(cta))?
            .copy_tmem(from, to)
    }

    fn allocated(&self, cta: u32, column: u32) -> bool {
        self.get(cta as usize).is_some_and(|c| c.allocated(column))
    }

    fn collector(&self, cta: u32, name: &'static str) -> Option<CollectorBuffer> {
        self.get(cta as usize)?.collectors.get(name).cloned()
    }

    fn set_collector(&mut self, cta: u32, name: &'static str, buffer: Option<CollectorBuffer>) {
        if let Some(c) = self.get_mut(cta as usize) {
            match buffer {
                Some(b) => {
                    c.collectors.insert(name, b);
                }
                None => {
                    c.collectors.remove(name);
                }
            }
        }
    }
}
