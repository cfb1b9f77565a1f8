//! Global memory of a run: the host's buffers and the module's `.global` variables, each at a
//! fixed address, with every access bounds- and alignment-checked (PTX ISA 6.4: an access must
//! be naturally aligned to its size).

use std::cell::Cell;

use crate::error::RunError;

/// The address of the first host buffer; buffer `i` starts at `BUFFER_BASE + i * BUFFER_STRIDE`.
pub const BUFFER_BASE: u64 = 0x1000_0000_0000;
/// The distance between two buffers' first addresses (so no buffer exceeds 4 GiB).
pub const BUFFER_STRIDE: u64 = 0x1_0000_0000;

/// One region of global memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its first address.
    pub base: u64,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Global memory: regions at fixed addresses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Global {
    /// The regions.
    pub regions: Vec<Region>,
    /// Bytes read and written so far (the run's summary).
    pub moved: Cell<u64>,
}

impl Global {
    #[inline]
    fn locate(&self, address: u64, size: u32) -> Option<(usize, usize)> {
        self.regions.iter().enumerate().find_map(|(i, r)| {
            let off = address.checked_sub(r.base)?;
            let end = off.checked_add(u64::from(size))?;
            (end <= r.bytes.len() as u64).then_some((i, usize::try_from(off).ok()?))
        })
    }

    /// Reads `size` bytes (1, 2, 4, 8 or 16) at `address`, little-endian.
    ///
    /// # Errors
    /// [`RunError::Memory`] outside every region or misaligned.
    pub fn read(&self, line: u32, address: u64, size: u32) -> Result<u64, RunError> {
        check_align(line, "global", address, size)?;
        let (i, off) = self
            .locate(address, size)
            .ok_or_else(|| outside(line, "global", address, size))?;
        self.moved.set(self.moved.get() + u64::from(size));
        Ok(le(&self.regions[i].bytes[off..off + size as usize]))
    }

    /// Writes the low `size` bytes of `value` at `address`.
    ///
    /// # Errors
    /// [`RunError::Memory`] outside every region or misaligned.
    pub fn write(
        &mut self,
        line: u32,
        address: u64,
        size: u32,
        value: u64,
    ) -> Result<(), RunError> {
        check_align(line, "global", address, size)?;
        let (i, off) = self
            .locate(address, size)
            .ok_or_else(|| outside(line, "global", address, size))?;
        self.regions[i].bytes[off..off + size as usize]
            .copy_from_slice(&value.to_le_bytes()[..size as usize]);
        self.moved.set(self.moved.get() + u64::from(size));
        Ok(())
    }
}

/// Reads `size` bytes of a byte window (shared memory, the parameter buffer).
#[inline]
pub(crate) fn read_window(
    bytes: &[u8],
    line: u32,
    space: &'static str,
    address: u64,
    size: u32,
) -> Result<u64, RunError> {
    check_align(line, space, address, size)?;
    let off = usize::try_from(address).map_err(|_| outside(line, space, address, size))?;
    bytes
        .get(off..off + size as usize)
        .map(le)
        .ok_or_else(|| outside(line, space, address, size))
}

/// Writes the low `size` bytes of `value` into a byte window.
#[inline]
pub(crate) fn write_window(
    bytes: &mut [u8],
    line: u32,
    space: &'static str,
    address: u64,
    size: u32,
    value: u64,
) -> Result<(), RunError> {
    check_align(line, space, address, size)?;
    let off = usize::try_from(address).map_err(|_| outside(line, space, address, size))?;
    bytes
        .get_mut(off..off + size as usize)
        .ok_or_else(|| outside(line, space, address, size))?
        .copy_from_slice(&value.to_le_bytes()[..size as usize]);
    Ok(())
}

#[inline]
fn le(b: &[u8]) -> u64 {
    // The common sizes as one read each; the same value as the byte loop below.
    match b.len() {
        1 => return u64::from(b[0]),
        2 => return u64::from(u16::from_le_bytes([b[0], b[1]])),
        4 => return u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        8 => return u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        _ => {}
    }
    b.iter()
        .rev()
        .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
}

#[inline]
fn check_align(line: u32, space: &'static str, address: u64, size: u32) -> Result<(), RunError> {
    if address % u64::from(size) == 0 {
        Ok(())
    } else {
        Err(RunError::Memory {
            line,
            space,
            address,
            size,
            why: "misaligned for its size",
        })
    }
}

fn outside(line: u32, space: &'static str, address: u64, size: u32) -> RunError {
    RunError::Memory {
        line,
        space,
        address,
        size,
        why: "outside every buffer",
    }
}
