//! The data-movement and allocation instructions: `tcgen05.ld`, `.st`, `.cp`, `.alloc`,
//! `.dealloc`, `.relinquish_alloc_permit`, and the ordering instructions `commit`, `fence` and
//! `wait`, which the model checks and otherwise ignores (PTX ISA 9.7.16.7-9.7.16.9).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::decompress::SourceFormat;
use super::memory::TensorCoreMemory;
use super::problem::{EmuError, EmuRule, Problem};
use super::Machine;
use crate::canonical_layout::{ElementStorage, MatrixLayout, Operand as LayoutOperand};
use crate::mma::{CtaGroup, ElementType, Major};
use crate::ptx::{CpSourceFormat, Instruction as Form, RedOp, RedType as PtxRedType, Reduction};
use crate::ptx_reader::{Instruction, Operand};
use crate::shared_memory_descriptor::SmemDescriptor;
use crate::targets::Target;
use crate::tensor_memory::{CpMulticast, CpShape, TmemAddress};
use crate::tmem_fragment::{cp_row, cp_rows, BitRange, LdStFragment, Packing};

fn operand_error(field: &'static str) -> Problem {
    Problem::emu(EmuRule::Operands, field, 0)
}

fn address(op: Option<&Operand<'_>>, field: &'static str) -> Result<u64, Problem> {
    match op {
        Some(Operand::Address { base: None, offset }) => u64::try_from(*offset)
            .map_err(|_| Problem::emu(EmuRule::Operands, field, *offset as u64)),
        _ => Err(operand_error(field)),
    }
}

fn tmem(op: Option<&Operand<'_>>, field: &'static str) -> Result<TmemAddress, Problem> {
    let raw = match op {
        Some(Operand::Imm(v)) => *v,
        other => address(other, field)?,
    };
    let raw = u32::try_from(raw).map_err(|_| Problem::emu(EmuRule::Operands, field, raw))?;
    TmemAddress::from_bits(raw).map_err(Problem::from)
}

fn imm(op: Option<&Operand<'_>>, field: &'static str) -> Result<u64, Problem> {
    match op {
        Some(Operand::Imm(v)) => Ok(*v),
        _ => Err(operand_error(field)),
    }
}

/// The CTAs the form's `.cta_group` acts on (1 without one).
fn group_ctas(form: &Form<'_>) -> usize {
    match form.cta_group() {
        Some(CtaGroup::Two) => 2,
        _ => 1,
    }
}

/// Checks that a Tensor Memory cell may be accessed.
fn check_cell<M: TensorCoreMemory + ?Sized>(
    mem: &M,
    cta: u32,
    lane: u32,
    column: u32,
    check_alloc: bool,
    field: &'static str,
) -> Result<(), Problem> {
    if lane >= super::TMEM_LANES || column >= super::TMEM_COLUMNS {
        return Err(Problem::emu(
            EmuRule::TmemOutOfRange,
            field,
            u64::from(lane << 16 | column),
        ));
    }
    if check_alloc && !mem.allocated(cta, column) {
        return Err(Problem::emu(
            EmuRule::TmemNotAllocated,
            field,
            u64::from(lane << 16 | column),
        ));
    }
    Ok(())
}

pub(super) fn execute(
    machine: &mut Machine,
    op: &str,
    (ins, form): (&Instruction<'_>, &Form<'_>),
    _warnings: &mut Vec<Problem>,
) -> Result<String, EmuError> {
    match op {
        "ld" | "st" => ld_st(machine, (ins, form)),
        "alloc" => {
            let dst = address(ins.operands.first(), "dst")?;
            let n = imm(ins.operands.get(1), "n_cols")? as u32;
            let mut work = machine.ctas.clone();
            let mut problems = Vec::new();
            let mut first = 0;
            for (c, cta) in work.iter_mut().enumerate().take(group_ctas(form)) {
                if cta.relinquished {
                    problems.push(Problem::emu(EmuRule::AllocAfterRelinquish, "cta", c as u64));
                    continue;
                }
                // E1: the lowest free range starting at a multiple of n.
                let start = (0..super::TMEM_COLUMNS / n)
                    .map(|i| i * n)
                    .find(|&s| (s..s + n).all(|col| !cta.allocated(col)));
                match start {
                    Some(s) => {
                        cta.allocations.push((s, n));
                        first = s;
                        let addr = TmemAddress::new(0, s).bits();
                        if let Err(e) = u32::try_from(dst)
                            .map_err(|_| {
                                EmuError::one(Problem::emu(EmuRule::SmemOutOfRange, "dst", dst))
                            })
                            .and_then(|d| cta.write_smem(d, &addr.to_le_bytes()))
                        {
                            problems.extend(e.problems);
                        }
                    }
                    None => {
                        problems.push(Problem::emu(EmuRule::AllocNoSpace, "n_cols", u64::from(n)))
                    }
                }
            }
            if !problems.is_empty() {
                return Err(EmuError { problems });
            }
            machine.ctas = work;
            machine.check_allocation = true;
            Ok(format!(
                "allocated columns {first}-{} (address {:#010x} written to [{dst:#x}])",
                first + n - 1,
                first
            ))
        }
        "dealloc" => {
            let taddr = tmem(ins.operands.first(), "taddr")?;
            let n = imm(ins.operands.get(1), "n_cols")? as u32;
            let mut work = machine.ctas.clone();
            for (c, cta) in work.iter_mut().enumerate().take(group_ctas(form)) {
                let before = cta.allocations.len();
                cta.allocations
                    .retain(|&(s, k)| !(s == taddr.column() && k == n));
                if cta.allocations.len() == before || taddr.lane() != 0 {
                    return Err(Problem::emu(
                        EmuRule::DeallocNotAllocated,
                        "taddr",
                        u64::from(taddr.bits()) | (c as u64) << 32,
                    )
                    .into());
                }
                cta.collectors.clear();
            }
            machine.ctas = work;
            Ok(format!(
                "freed columns {}-{}",
                taddr.column(),
                taddr.column() + n - 1
            ))
        }
        "relinquish_alloc_permit" => {
            for cta in machine.ctas.iter_mut().take(group_ctas(form)) {
                cta.relinquished = true;
            }
            Ok("allocation permit relinquished".into())
        }
        "cp" => cp(machine, (ins, form)),
        "shift" => shift(machine, (ins, form)),
        "commit"
        | "fence::before_thread_sync"
        | "fence::after_thread_sync"
        | "wait::ld"
        | "wait::st" => Ok("ordering only: no effect in a functional model".into()),
        _ => Err(Problem::emu(EmuRule::Unsupported, "opcode", 0).into()),
    }
}

/// `tcgen05.ld` / `.st` written as a line with immediate operands: the qualifiers from the
/// typed form, the operand values from the line.
fn ld_st(
    machine: &mut Machine,
    (ins, form): (&Instruction<'_>, &Form<'_>),
) -> Result<String, EmuError> {
    let (load, shape, num, pack, red) = match form {
        Form::Load(l) => (true, l.shape, l.num, l.pack, l.red.map(reduce_of)),
        Form::Store(s) => (false, s.shape, s.num, s.unpack, None),
        _ => return Err(operand_error("shape").into()),
    };
    let packing = if pack {
        Packing::Pack16b
    } else {
        Packing::None
    };
    let ops = &ins.operands;
    // `tcgen05.ld.red r, redval, [taddr]`: the reduction's register comes before the address.
    let redval = match (&red, ops.get(1)) {
        (Some(_), Some(Operand::Name(n))) => Some(*n),
        (Some(_), _) => return Err(operand_error("redval").into()),
        (None, _) => None,
    };
    let skip = usize::from(redval.is_some());
    let (regs, taddr_op, offset_op) = if load {
        (ops.first(), ops.get(1 + skip), ops.get(2 + skip))
    } else if ops.len() == 3 {
        (ops.get(2), ops.first(), ops.get(1))
    } else {
        (ops.get(1), ops.first(), None)
    };
    let names: Vec<&str> = match regs {
        Some(Operand::Vector(v)) => v
            .iter()
            .map(|o| match o {
                Operand::Name(n) => Ok(*n),
                _ => Err(operand_error("registers")),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(operand_error("registers").into()),
    };
    let taddr = tmem(taddr_op, "taddr")?;
    let offset = match offset_op {
        Some(o) => Some(imm(Some(o), "half_split_offset")? as u32),
        None => None,
    };
    let frag = LdStFragment::try_new(shape, num, packing, offset).map_err(Problem::from)?;
    if names.len() != frag.registers() as usize {
        return Err(Problem::emu(EmuRule::Operands, "registers", names.len() as u64).into());
    }
    let (warp, check) = (machine.warp, machine.check_allocation);
    // Every (thread, register, half) -> cell; checked before anything is written.
    let mut moves = Vec::new();
    for p in ld_st_pieces(&frag, taddr, warp)? {
        check_cell(&machine.ctas[..1], 0, p.lane, p.column, check, "taddr")?;
        let (t, r) = (usize::from(p.thread), usize::from(p.register));
        moves.push((t, r, p.register_bits, p.lane, p.column, p.bits));
    }
    let cta = &mut machine.ctas[0];
    if load {
        let mut values: Vec<[Option<u32>; 32]> = alloc::vec![[None; 32]; names.len()];
        for &(t, r, rb, lane, column, cb) in &moves {
            let v = cta.tmem_cell(lane, column)?.ok_or_else(|| {
                Problem::emu(
                    EmuRule::TmemUninitialised,
                    "taddr",
                    u64::from(lane << 16 | column),
                )
            })?;
            let bits = (v >> cb.lo) & mask(cb.width());
            let old = values[r][t].unwrap_or(0);
            values[r][t] = Some((old & !(mask(rb.width()) << rb.lo)) | (bits << rb.lo));
        }
        let reduced = match (red, redval) {
            (Some(r), Some(name)) => {
                let mut out = [None; 32];
                for (t, o) in out.iter_mut().enumerate() {
                    *o = Some(r.fold(values.iter().filter_map(|v| v[t])));
                }
                Some((name, out))
            }
            _ => None,
        };
        for (name, v) in names.iter().zip(values) {
            cta.registers.insert((warp, (*name).into()), v);
        }
        if let Some((name, v)) = reduced {
            cta.registers.insert((warp, name.into()), v);
        }
        Ok(format!(
            "{} registers x 32 threads loaded from lane {} column {}{}",
            names.len(),
            taddr.lane(),
            taddr.column(),
            if redval.is_some() {
                ", reduced into redval"
            } else {
                ""
            }
        ))
    } else {
        let mut writes = Vec::new();
        for &(t, r, rb, lane, column, cb) in &moves {
            let v = cta
                .registers
                .get(&(warp, names[r].into()))
                .and_then(|v| v[t])
                .ok_or_else(|| {
                    Problem::emu(EmuRule::RegisterUninitialised, "registers", r as u64)
                })?;
            let bits = (v >> rb.lo) & mask(rb.width());
            let old = cta.tmem_cell(lane, column)?.unwrap_or(0);
            let cell = if cb.width() == 32 {
                bits
            } else {
                (old & !(mask(cb.width()) << cb.lo)) | (bits << cb.lo)
            };
            writes.push((lane, column, cell));
        }
        for (lane, column, cell) in writes {
            cta.write_tmem(lane, column, cell)?;
        }
        Ok(format!(
            "{} registers x 32 threads stored to lane {} column {}",
            names.len(),
            taddr.lane(),
            taddr.column()
        ))
    }
}

/// One piece of a register that `tcgen05.ld` / `.st` moves, with its Tensor Memory cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdStPiece {
    /// The thread's lane id in the warp.
    pub thread: u8,
    /// The register's index in the instruction's vector.
    pub register: u8,
    /// The register's bits.
    pub register_bits: BitRange,
    /// The cell's lane (the address's lane plus the fragment's offset).
    pub lane: u32,
    /// The cell's column.
    pub column: u32,
    /// The cell's bits.
    pub bits: BitRange,
}

/// Every piece a warp's `tcgen05.ld` / `.st` of fragment `frag` at `taddr` moves (PTX ISA
/// 9.7.16.8, the fragment maps of [`crate::tmem_fragment`]), checked against the warp's lane
/// quadrant (warp `w` reaches lanes `32 (w mod 4)` to `32 (w mod 4) + 31`, PTX ISA 9.7.16.8.1)
/// and Tensor Memory's bounds. Thread-major, then register, then piece.
///
/// # Errors
/// [`EmuRule::WarpQuadrant`], [`EmuRule::TmemOutOfRange`], or the address's own rule.
pub fn ld_st_pieces(
    frag: &LdStFragment,
    taddr: TmemAddress,
    warp: u32,
) -> Result<Vec<LdStPiece>, Problem> {
    taddr.check_warp_access(warp).map_err(Problem::from)?;
    let quadrant_end = (taddr.lane() / 32 + 1) * 32;
    let mut out = Vec::with_capacity(32 * frag.registers() as usize);
    for t in 0..32 {
        for r in 0..frag.registers() {
            for h in 0..frag.pieces_per_register() {
                let p = frag.piece(t, r, h).map_err(Problem::from)?;
                let lane = taddr.lane() + u32::from(p.lane);
                let column = taddr.column() + u32::from(p.column);
                if lane >= quadrant_end {
                    return Err(Problem::emu(
                        EmuRule::WarpQuadrant,
                        "taddr",
                        u64::from(lane),
                    ));
                }
                if column >= super::TMEM_COLUMNS {
                    return Err(Problem::emu(
                        EmuRule::TmemOutOfRange,
                        "taddr",
                        u64::from(lane << 16 | column),
                    ));
                }
                out.push(LdStPiece {
                    thread: p.thread,
                    register: p.register,
                    register_bits: p.register_bits,
                    lane,
                    column,
                    bits: p.bits,
                });
            }
        }
    }
    Ok(out)
}

/// The element type of `tcgen05.ld.red`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum RedType {
    #[default]
    F32,
    U32,
    S32,
}

/// The reduction of `tcgen05.ld.red` (E8).
#[derive(Clone, Copy, Debug, Default)]
struct Reduce {
    max: bool,
    abs: bool,
    nan: bool,
    ty: RedType,
}

/// The reduction of a typed `tcgen05.ld.red`.
fn reduce_of(r: Reduction<'_>) -> Reduce {
    Reduce {
        max: r.op == RedOp::Max,
        abs: r.abs,
        nan: r.nan,
        ty: match r.ty {
            PtxRedType::F32 => RedType::F32,
            PtxRedType::U32 => RedType::U32,
            PtxRedType::S32 => RedType::S32,
        },
    }
}

/// The canonical NaN of PTX (`redux.sync`, `min`, `max`).
const CANONICAL_NAN: u32 = 0x7FFF_FFFF;

impl Reduce {
    /// A key whose integer order is the reduction's order of the values it keeps.
    fn key(&self, v: u32) -> i64 {
        match self.ty {
            RedType::U32 => i64::from(v),
            RedType::S32 => i64::from(v as i32),
            // Sign-magnitude to a total order in which -0 < +0 (E8).
            RedType::F32 if v >> 31 == 1 => -i64::from(v & 0x7FFF_FFFF) - 1,
            RedType::F32 => i64::from(v),
        }
    }

    /// The minimum or maximum of one thread's loaded values.
    fn fold(&self, values: impl Iterator<Item = u32>) -> u32 {
        let mut best: Option<u32> = None;
        let mut saw_nan = false;
        for v in values {
            let v = if self.ty == RedType::F32 && self.abs {
                v & 0x7FFF_FFFF
            } else {
                v
            };
            if self.ty == RedType::F32 && (v & 0x7FFF_FFFF) > 0x7F80_0000 {
                saw_nan = true;
                continue;
            }
            best = Some(match best {
                None => v,
                Some(b) => {
                    let keep_new = if self.max {
                        self.key(v) > self.key(b)
                    } else {
                        self.key(v) < self.key(b)
                    };
                    if keep_new {
                        v
                    } else {
                        b
                    }
                }
            });
        }
        match best {
            Some(_) if saw_nan && self.nan => CANONICAL_NAN,
            Some(b) => b,
            None => CANONICAL_NAN,
        }
    }
}

/// `tcgen05.shift.down` (E7): within the 32 lanes from `taddr`'s lane, the 8 columns from its
/// column move one lane down, except the last lane's, which are overwritten.
fn shift(
    machine: &mut Machine,
    (ins, form): (&Instruction<'_>, &Form<'_>),
) -> Result<String, EmuError> {
    let taddr = tmem(ins.operands.first(), "taddr")?;
    let mut work = machine.ctas.clone();
    let ctas = group_ctas(form);
    shift_down(
        &mut work[..ctas],
        taddr,
        ctas as u32,
        machine.check_allocation,
    )?;
    machine.ctas = work;
    let (first, c0) = (taddr.lane(), taddr.column());
    Ok(format!(
        "lanes {}-{} of columns {}-{} shifted down by one lane",
        first,
        first + 30,
        c0,
        c0 + 7
    ))
}

/// `tcgen05.shift.down` (PTX ISA 9.7.16.9.3, decision E7) at `taddr` in every CTA of `mem`
/// (the first `ctas`: 1, or 2 for `.cta_group::2`): lanes `L + i` take lane `L + i - 1`'s
/// cells over 8 columns, for `i` = 31 down to 1.
///
/// # Errors
/// [`EmuRule::ShiftLane`] (the lane is not a multiple of 32), and a cell outside Tensor Memory
/// or (with `check_alloc`) outside every allocation.
pub fn shift_down<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    taddr: TmemAddress,
    ctas: u32,
    check_alloc: bool,
) -> Result<(), Problem> {
    if taddr.lane() % 32 != 0 {
        return Err(Problem::emu(
            EmuRule::ShiftLane,
            "taddr",
            u64::from(taddr.bits()),
        ));
    }
    let (first, c0) = (taddr.lane(), taddr.column());
    for cta in 0..ctas {
        for lane in first..first + 32 {
            for column in c0..c0 + 8 {
                check_cell(mem, cta, lane, column, check_alloc, "taddr")?;
            }
        }
        for lane in (first + 1..first + 32).rev() {
            for column in c0..c0 + 8 {
                mem.copy_tmem(cta, (lane - 1, column), (lane, column))?;
            }
        }
    }
    Ok(())
}

const fn mask(width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    }
}

/// `tcgen05.cp` written as a line with immediate operands.
fn cp(
    machine: &mut Machine,
    (ins, form): (&Instruction<'_>, &Form<'_>),
) -> Result<String, EmuError> {
    let Form::Cp(c) = form else {
        return Err(operand_error("shape").into());
    };
    let (shape, multicast) = (c.shape, c.multicast);
    let source = c.source_format.map(|f| match f {
        CpSourceFormat::B6x16P32 => SourceFormat::B6x16P32,
        CpSourceFormat::B4x16P64 => SourceFormat::B4x16P64,
    });
    let op = CpOperation {
        shape,
        multicast,
        source,
        taddr: tmem(ins.operands.first(), "taddr")?,
        desc: imm(ins.operands.get(1), "s_desc")?,
    };
    let ctas = group_ctas(form);
    let mut work = machine.ctas.clone();
    let check = machine.check_allocation;
    cp_copy(&mut work[..ctas], &op, ctas as u32, machine.target, check)?;
    machine.ctas = work;
    let how = match source {
        Some(SourceFormat::B4x16P64) => ", decompressed from 4-bit elements",
        Some(SourceFormat::B6x16P32) => ", decompressed from 6-bit elements",
        None => "",
    };
    Ok(format!(
        "{} rows of {} bytes copied to lane {} column {}{how}",
        cp_rows(shape),
        shape.columns_per_lane() * 4,
        op.taddr.lane(),
        op.taddr.column()
    ))
}

/// One `tcgen05.cp` (PTX ISA 9.7.16.9.1): its typed form and operand values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpOperation {
    /// `.128x256b`, `.4x256b`, `.128x128b`, `.64x128b`, `.32x128b`.
    pub shape: CpShape,
    /// `.warpx2::02_13`, `.warpx2::01_23`, `.warpx4` (or none).
    pub multicast: CpMulticast,
    /// `.b8x16.b4x16_p64` / `.b8x16.b6x16_p32` decompression (or a plain copy).
    pub source: Option<SourceFormat>,
    /// The destination's Tensor Memory address.
    pub taddr: TmemAddress,
    /// The source's shared memory descriptor.
    pub desc: u64,
}

/// `tcgen05.cp` in every CTA of `mem` (one, or two for `.cta_group::2`): source row `r` is
/// `shape bits / 8` bytes of a K-major canonical layout of bytes read through the descriptor
/// (ptx-beyond-seeds.md 4.2, from CUTLASS's UTCCP traits), written to the lanes of [`cp_row`],
/// 4 bytes a column. With a decompression each 16-byte chunk of a row is expanded into 16
/// bytes (PTX ISA 9.7.16.9.1; decision E9): a row is as many bytes in shared memory as in
/// Tensor Memory, and the padding bytes are not read. Each CTA's cells are written only once
/// all its reads succeeded.
///
/// # Errors
/// The descriptor's and layout's rules, shared memory never written or out of range, and a
/// cell outside Tensor Memory or (with `check_alloc`) outside every allocation.
pub fn cp_copy<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &CpOperation,
    ctas: u32,
    target: Target,
    check_alloc: bool,
) -> Result<(), Problem> {
    let (shape, taddr) = (op.shape, op.taddr);
    let d = SmemDescriptor::from_bits(op.desc, target).map_err(Problem::from)?;
    let rows = cp_rows(shape);
    let row_bytes = shape.columns_per_lane() * 4;
    let storage = ElementStorage::of(ElementType::E4m3, None).map_err(Problem::from)?;
    // The canonical layouts are built of 8-row core matrices (PTX ISA 9.7.16.3.3); the 4 rows
    // of `.4x256b` (PTX ISA 9.7.16.2.3) are the first 4 rows of its one row of core matrices.
    let layout_rows = rows.next_multiple_of(8);
    let ml = MatrixLayout::try_new(
        d,
        LayoutOperand::new(storage, Major::K, layout_rows, row_bytes),
    )
    .map_err(Problem::from)?;
    for cta in 0..ctas {
        let mut writes = Vec::new();
        for r in 0..rows {
            let row = cp_row(shape, op.multicast, r).map_err(Problem::from)?;
            // The row's bytes as Tensor Memory receives them.
            let mut bytes = Vec::with_capacity(row_bytes as usize);
            for chunk in 0..row_bytes / 16 {
                let read = op.source.map_or(16, |f| f.data_bytes());
                let mut raw = [0u8; 16];
                for (i, b) in raw.iter_mut().enumerate().take(read) {
                    let loc = ml
                        .address(r, chunk * 16 + i as u32)
                        .map_err(Problem::from)?;
                    let at = u64::from(loc.address);
                    *b = match mem.smem_byte(cta, loc.address) {
                        Some(Some(b)) => b,
                        Some(None) => {
                            return Err(Problem::emu(EmuRule::SmemUninitialised, "s_desc", at))
                        }
                        None => return Err(Problem::emu(EmuRule::SmemOutOfRange, "address", at)),
                    };
                }
                match op.source {
                    Some(f) => bytes.extend_from_slice(&f.expand(&raw)),
                    None => bytes.extend_from_slice(&raw),
                }
            }
            for col in 0..shape.columns_per_lane() {
                let mut word = 0u32;
                for b in 0..4 {
                    word |= u32::from(bytes[(col * 4 + b) as usize]) << (8 * b);
                }
                for &lane_off in row.lanes() {
                    let lane = taddr.lane() + u32::from(lane_off);
                    let column = taddr.column() + col;
                    check_cell(mem, cta, lane, column, check_alloc, "taddr")?;
                    writes.push((lane, column, word));
                }
            }
        }
        for (lane, column, w) in writes {
            mem.write_tmem(cta, lane, column, w)?;
        }
    }
    Ok(())
}
