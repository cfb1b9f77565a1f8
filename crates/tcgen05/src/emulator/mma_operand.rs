//! Reading the elements of an MMA's operands: one element's bits from shared memory, one
//! Tensor Memory cell, the copies of a value that several lanes hold, `.ashift`, and
//! `scale-input-d` (PTX ISA 9.7.16.10), through [`TensorCoreMemory`].

use alloc::vec::Vec;

use super::memory::TensorCoreMemory;
use super::problem::{EmuRule, Problem};
use super::random::Random;
use crate::canonical_layout::ElementLocation;
use crate::numerics::Format;
use crate::tensor_memory::TmemAddress;

/// Reads one element's bits from shared memory, or fills it with a random code of `format`.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_element<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    cta: u32,
    loc: ElementLocation,
    format: Format,
    random: &mut Option<Random>,
    field: &'static str,
    source: &mut Vec<(u32, u8)>,
    keep_source: bool,
) -> Result<u32, Problem> {
    let end_bit = u32::from(loc.bit) + u32::from(loc.bits);
    let nbytes = end_bit.div_ceil(8);
    let mut word: u64 = 0;
    let mut missing = false;
    for i in 0..nbytes {
        match mem.smem_byte(cta, loc.address + i) {
            Some(Some(b)) => word |= u64::from(b) << (8 * i),
            Some(None) => missing = true,
            None => {
                return Err(Problem::emu(
                    EmuRule::SmemOutOfRange,
                    "address",
                    u64::from(loc.address + i),
                ))
            }
        }
    }
    let mask = (1u64 << loc.bits) - 1;
    if missing {
        let Some(r) = random.as_mut() else {
            return Err(Problem::emu(
                EmuRule::SmemUninitialised,
                field,
                u64::from(loc.address),
            ));
        };
        let code = u64::from(r.code(format)) & mask;
        word = (word & !(mask << loc.bit)) | (code << loc.bit);
        let bytes = word.to_le_bytes();
        mem.write_smem(cta, loc.address, &bytes[..nbytes as usize])?;
    }
    if keep_source {
        for i in 0..nbytes {
            source.push((loc.address + i, (word >> (8 * i)) as u8));
        }
    }
    Ok(((word >> loc.bit) & mask) as u32)
}

/// Reads a Tensor Memory cell, or fills it with `fill()` when random inputs are on.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn read_cell<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    cta: u32,
    lane: u32,
    column: u32,
    random: &mut Option<Random>,
    fill: impl Fn(&mut Random) -> u32,
    field: &'static str,
    check_alloc: bool,
) -> Result<u32, Problem> {
    if check_alloc && column < super::TMEM_COLUMNS && !mem.allocated(cta, column) {
        return Err(Problem::emu(
            EmuRule::TmemNotAllocated,
            field,
            u64::from(lane << 16 | column),
        ));
    }
    match mem.tmem_cell(cta, lane, column)? {
        Some(v) => Ok(v),
        None => match random.as_mut() {
            Some(r) => {
                let v = fill(r);
                mem.write_tmem(cta, lane, column, v)?;
                Ok(v)
            }
            None => Err(Problem::emu(
                EmuRule::TmemUninitialised,
                field,
                u64::from(lane << 16 | column),
            )),
        },
    }
}

/// The copies of one value in Tensor Memory (A of layouts B, E, G; scale factors in every
/// 32-lane subpartition): the lanes, the cell's column and the value's bits.
pub(super) struct Copies<'l> {
    pub lanes: &'l [u32],
    pub base: TmemAddress,
    pub column: u32,
    pub lo: u32,
    pub width: u32,
}

impl Copies<'_> {
    /// The first copy's value, and whether another copy differs from it.
    pub fn read<M: TensorCoreMemory + ?Sized>(
        &self,
        mem: &mut M,
        cta: u32,
        random: &mut Option<Random>,
        fill: impl Fn(&mut Random) -> u32,
        field: &'static str,
        check_alloc: bool,
    ) -> Result<(u32, bool), Problem> {
        let mask = ((1u64 << self.width) - 1) as u32;
        let mut first = None;
        let mut differ = false;
        for &lane_off in self.lanes {
            let lane = self.base.lane() + lane_off;
            let column = self.base.column() + self.column;
            let v = read_cell(mem, cta, lane, column, random, &fill, field, check_alloc)?;
            let code = (v >> self.lo) & mask;
            match first {
                None => first = Some(code),
                Some(f) if f != code => differ = true,
                _ => {}
            }
        }
        Ok((first.unwrap_or(0), differ))
    }
}

/// `.ashift` on one CTA's Tensor Memory (E11): for each 32-lane subpartition of the 128 lanes
/// from A's address, lane `32q + i` takes the cells of lane `32q + i + 1` (i = 0..30) in A's
/// `columns` columns, and lane `32q + 31` keeps its cells. A never-written source cell leaves
/// its destination never written.
pub(super) fn ashift<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    cta: u32,
    addr: TmemAddress,
    columns: u32,
    check_alloc: bool,
) -> Result<(), Problem> {
    let (l0, c0) = (addr.lane(), addr.column());
    if l0 + 128 > super::TMEM_LANES || c0 + columns > super::TMEM_COLUMNS {
        return Err(Problem::emu(
            EmuRule::TmemOutOfRange,
            "a_tmem",
            u64::from(addr.bits()),
        ));
    }
    if check_alloc && (c0..c0 + columns).any(|c| !mem.allocated(cta, c)) {
        return Err(Problem::emu(
            EmuRule::TmemNotAllocated,
            "a_tmem",
            u64::from(addr.bits()),
        ));
    }
    for q in 0..4 {
        for i in 0..31 {
            let (dst, src) = (l0 + 32 * q + i, l0 + 32 * q + i + 1);
            for col in c0..c0 + columns {
                mem.copy_tmem(cta, (src, col), (dst, col))?;
            }
        }
    }
    Ok(())
}

/// `C * 2^-scale_input_d` (PTX ISA 9.7.16.10: D = A*B + D * 2^-s) when it is exactly a code of
/// D's format, so that the arithmetic sees the scaled C unchanged (E6 of the module docs); a
/// scaled C that would need rounding is refused, since how the hardware rounds it is unmeasured.
pub(super) fn scaled_c(fd: Format, c: u32, s: u32) -> Result<u32, Problem> {
    use crate::numerics::format::{Exact, Rounding, Value};
    if s == 0 {
        return Ok(c);
    }
    let refused = || {
        Problem::emu(
            EmuRule::NotModelled,
            "scale_input_d (inexact scaled C)",
            u64::from(c),
        )
    };
    match fd.decode(c).map_err(|_| refused())? {
        Value::Zero { .. } | Value::Inf { .. } | Value::NaN => Ok(c),
        v => {
            let mut x = Exact::of(v).ok_or_else(refused)?;
            x.scale -= s as i32;
            let down = fd.encode(x, Rounding::TowardZero).map_err(|_| refused())?;
            let back = fd
                .decode(down)
                .ok()
                .and_then(Exact::of)
                .ok_or_else(refused)?;
            // Exact when the code decodes to the scaled value itself.
            let norm = |e: Exact| {
                let tz = if e.mag == 0 {
                    0
                } else {
                    e.mag.trailing_zeros()
                };
                (e.neg, e.mag >> tz, e.scale + tz as i32)
            };
            let same = norm(back) == norm(x);
            if same {
                Ok(down)
            } else {
                Err(refused())
            }
        }
    }
}
