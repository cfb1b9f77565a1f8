//! Checks of a function's block-scaled MMAs (`.block_scale`) against the `tcgen05.cp`
//! instructions that fill their scale-factor Tensor Memory (PTX ISA 9.7.16.10.7, the
//! scale-factor layouts of Figures 231-258, and 9.7.16.9.2 for the cp shapes and multicasts).
//!
//! An MMA's `[scale_A]` / `[scale_B]` operand is linked to a cp only through Tensor Memory
//! addresses that the known-bits dataflow proves constant: a cp may as well be loading A, so a
//! cp whose address is unknown is never taken for a scale cp, and an operand whose address (or
//! whose instruction descriptor) is unknown gets no finding and is counted in
//! [`Report::scale_operands_unlinked`](super::Report::scale_operands_unlinked).
//!
//! For each linked operand, every scale factor the MMA reads ([`SfLayout::locate`]: the
//! lanes of each copy, the column and the byte) is followed to the cp that wrote that
//! Tensor Memory byte (the last such cp of the function) and the source row and byte of
//! that cp ([`cp_row`]), and:
//!
//! - the copies of one scale factor in several subpartitions should come from one source row
//!   and byte, or the MMA's subpartitions scale one row with different values unless shared
//!   memory repeats those rows (a warning);
//! - two different scale factors of one MMA must not come from the same source byte, or the
//!   MMA reads the same scale for both whatever shared memory holds (facebookexperimental/
//!   triton#3653: M = 128 with `.cta_group::2` copied with `.32x128b.warpx4`, where column
//!   `n` of scale_B reads the scale of column `n % 64`);
//! - an MMA with `.cta_group::2` must read scales written by a `.cta_group::2` cp, which
//!   writes both CTAs' Tensor Memory;
//! - where every `tcgen05.cp` of the function has a known address and the function has no
//!   `tcgen05.st` and no call, every byte read must have been written by one of them.
//!
//! The scale factor id against the scale vector is a rule of the instruction
//! (`ptx.scale_factor_id_for_scale_vec`), not repeated here.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::dataflow::Registers;
use super::known_bits::width_mask;
use super::qualifiers::scale_vec_of;
use super::{tcgen05_instructions, CheckRule, Finding, FindingValue, InstructionReport};
use crate::data_path::{DataPathLayout, SfLayout, SfOperand};
use crate::instruction_descriptor::scale_format::layout_word;
use crate::instruction_descriptor::InstructionDescriptor;
use crate::mma::CtaGroup;
use crate::ptx::OperandName;
use crate::ptx_reader::{Function, Instruction, Operand};
use crate::targets::Target;
use crate::tensor_memory::{CpMulticast, CpShape, TmemAddress};
use crate::tmem_fragment::{cp_row, cp_rows};

/// One `tcgen05.cp` with a known destination: what it writes where.
struct CpWrite {
    line: u32,
    group: CtaGroup,
    taddr: TmemAddress,
    columns: u32,
    /// Lane offset from the address -> the source row that lands there.
    rows: BTreeMap<u32, u32>,
}

impl CpWrite {
    /// The source (row, byte of the row) of Tensor Memory byte (lane, column, byte), if this
    /// cp writes it.
    fn source(&self, lane: u32, column: u32, byte: u32) -> Option<(u32, u32)> {
        let l = lane.checked_sub(self.taddr.lane())?;
        let c = column.checked_sub(self.taddr.column())?;
        if c >= self.columns {
            return None;
        }
        self.rows.get(&l).map(|&row| (row, c * 4 + byte))
    }
}

/// A 32-bit Tensor Memory address operand (`[%r]`, `[%r + off]`, a register) when constant.
fn tmem_address(op: Option<&Operand<'_>>, regs: &Registers<'_>) -> Option<TmemAddress> {
    let (name, offset) = match op? {
        Operand::Address { base, offset } => (*base, *offset),
        Operand::Name(n) => (Some(*n), 0),
        _ => return None,
    };
    let base = match name {
        Some(n) => {
            let b = regs.get(n).bits;
            if !b.is_constant(32) {
                return None;
            }
            b.value
        }
        None => 0,
    };
    let raw = base.wrapping_add_signed(offset) & width_mask(32);
    TmemAddress::from_bits(u32::try_from(raw).ok()?).ok()
}

fn group_of(ins: &Instruction<'_>) -> Option<CtaGroup> {
    ins.qualifiers().find_map(|q| match q {
        "cta_group::1" => Some(CtaGroup::One),
        "cta_group::2" => Some(CtaGroup::Two),
        _ => None,
    })
}

/// A cp's writes, or `None` when its address, shape or format is not known (a decompressing
/// cp's columns differ from its shape's).
fn cp_write(ins: &Instruction<'_>, regs: &Registers<'_>) -> Option<CpWrite> {
    let mut shape = None;
    let mut multicast = CpMulticast::None;
    for q in ins.qualifiers() {
        if let Ok(s) = CpShape::from_name(q) {
            shape = Some(s);
        } else if q.starts_with("warpx") {
            multicast = CpMulticast::from_name(q).ok()?;
        } else if q.starts_with("b6x16") || q.starts_with("b4x16") {
            return None;
        }
    }
    let shape = shape?;
    let mut rows = BTreeMap::new();
    for r in 0..cp_rows(shape) {
        let row = cp_row(shape, multicast, r).ok()?;
        for &lane in row.lanes() {
            rows.insert(u32::from(lane), r);
        }
    }
    Some(CpWrite {
        line: ins.line,
        group: group_of(ins)?,
        taddr: tmem_address(ins.operands.first(), regs)?,
        columns: shape.columns_per_lane(),
        rows,
    })
}

fn finding(
    rule: CheckRule,
    operand: OperandName,
    field: &'static str,
    value: u64,
    line: u32,
) -> Finding {
    rule.finding(Some(operand), field, FindingValue::Number(value), line)
}

/// What the function's tcgen05 instructions write to Tensor Memory.
struct Writes {
    /// The cps with a known destination, in program order.
    cps: Vec<CpWrite>,
    /// Every write is a known cp: no cp with an unknown address, no `tcgen05.st`, no call.
    complete: bool,
}

fn writes(f: &Function<'_>, regs: &Registers<'_>) -> Writes {
    let mut cps = Vec::new();
    let mut complete = true;
    for ins in &f.instructions {
        if ins.opcode.starts_with("call") || ins.opcode.starts_with("tcgen05.st") {
            complete = false;
        } else if ins.opcode.starts_with("tcgen05.cp") {
            match cp_write(ins, regs) {
                Some(w) => cps.push(w),
                None => complete = false,
            }
        }
    }
    Writes { cps, complete }
}

/// One scale operand of one block-scaled MMA, with a known address.
struct ScaleRead {
    operand: OperandName,
    layout: SfLayout,
    taddr: TmemAddress,
    group: CtaGroup,
    /// Line that defines the address.
    line: u32,
}

/// The findings of one scale operand against the function's cps.
fn check_operand(s: &ScaleRead, w: &Writes) -> Vec<Finding> {
    let mut out = Vec::new();
    let (mut split, mut alias, mut unwritten, mut group) = (false, false, false, false);
    // Source (CTA, cp, row, byte) -> the (index, K block) that reads it first (scale_B's
    // reads are the same in both CTAs of a pair: CTA 0's stand for both).
    let mut readers: BTreeMap<(u32, usize, u32, u32), (u32, u32)> = BTreeMap::new();
    let op = s.operand;
    for index in 0..s.layout.extent() {
        for k in 0..s.layout.vec().count() {
            let Ok(cell) = s.layout.locate(index, k) else {
                continue;
            };
            let column = s.taddr.column() + cell.column;
            let mut first: Option<(u32, usize, u32, u32)> = None;
            for &lane in cell.lanes() {
                let lane = s.taddr.lane() + lane;
                let src = w.cps.iter().enumerate().rev().find_map(|(c, cp)| {
                    cp.source(lane, column, cell.byte)
                        .map(|(r, b)| (cell.cta, c, r, b))
                });
                let Some(src) = src else {
                    if w.complete && !unwritten {
                        unwritten = true;
                        out.push(finding(
                            CheckRule::ScaleUnwritten,
                            op,
                            "column",
                            u64::from(column),
                            s.line,
                        ));
                    }
                    continue;
                };
                let cp = &w.cps[src.1];
                if s.group == CtaGroup::Two && cp.group == CtaGroup::One && !group {
                    group = true;
                    out.push(finding(
                        CheckRule::ScaleCpCtaGroup,
                        op,
                        "cta_group",
                        1,
                        cp.line,
                    ));
                }
                match first {
                    None => first = Some(src),
                    Some(f) if f != src && !split => {
                        split = true;
                        out.push(finding(
                            CheckRule::ScaleCpSplit,
                            op,
                            "index",
                            u64::from(index),
                            cp.line,
                        ));
                    }
                    _ => {}
                }
                match readers.get(&src) {
                    None => {
                        readers.insert(src, (index, k));
                    }
                    Some(&(i, kb)) if (i, kb) != (index, k) && !alias => {
                        alias = true;
                        out.push(finding(
                            CheckRule::ScaleCpAlias,
                            op,
                            "index",
                            u64::from(index),
                            cp.line,
                        ));
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// The scale operands of a block-scaled MMA with a fully known instruction descriptor and
/// known scale addresses; `unlinked` counts those left out.
fn scale_reads(
    ins: &Instruction<'_>,
    r: &InstructionReport<'_>,
    regs: &Registers<'_>,
    target: Option<Target>,
    unlinked: &mut usize,
) -> Vec<ScaleRead> {
    let mut out = Vec::new();
    let Some(group) = group_of(ins) else {
        return out;
    };
    let fields = r
        .idesc
        .zip(r.kind)
        .and_then(|(v, k)| {
            // UE5M3 on the sm_107 family reads as UE4M3 (rulings D7, D9).
            let v = layout_word(v, k, target.unwrap_or(Target::DEFAULT));
            InstructionDescriptor::from_bits(v, k).ok()
        })
        .and_then(InstructionDescriptor::fields);
    let vec = ins
        .qualifiers()
        .find_map(scale_vec_of)
        .unwrap_or(crate::mma::ScaleVec::Default);
    let sp = ins.qualifiers().any(|q| q == "sp");
    let ws = ins.qualifiers().any(|q| q == "ws");
    let first = if sp { 5 } else { 4 };
    let Some(f) = fields else {
        *unlinked += 2;
        return out;
    };
    // K = 96: 3X / 6X (ruling T3).
    let resolve = |k| {
        if f.k96 {
            vec.resolve_k96(k)
        } else {
            vec.resolve(k)
        }
    };
    let Some(vec) = r.kind.and_then(resolve) else {
        return out;
    };
    let Ok(layout) = DataPathLayout::for_mma(u32::from(f.m), group, ws, f.sparse) else {
        return out;
    };
    let operands = [
        (SfOperand::A, OperandName::ScaleA, f.sfa_id, first),
        (SfOperand::B, OperandName::ScaleB, f.sfb_id, first + 1),
    ];
    for (sf, name, id, at) in operands {
        let Ok(l) = SfLayout::try_new(layout, sf, vec, u32::from(f.n), u32::from(id)) else {
            continue;
        };
        let op = ins.operands.get(at);
        let Some(taddr) = tmem_address(op, regs) else {
            *unlinked += 1;
            continue;
        };
        let line = match op {
            Some(Operand::Address { base: Some(b), .. } | Operand::Name(b)) => {
                regs.def_line(b).unwrap_or(ins.line)
            }
            _ => ins.line,
        };
        out.push(ScaleRead {
            operand: name,
            layout: l,
            taddr,
            group,
            line,
        });
    }
    out
}

/// Adds the scale-factor findings of `f`'s block-scaled MMAs to their reports (`reports`, in
/// the order of `f`'s tcgen05 instructions); returns the scale operands left unlinked.
///
/// The instruction descriptor is read for the file's `target` (rules.md D9): on `sm_107a` /
/// `sm_107f` a UE5M3 word is placed as UE4M3's (16-element blocks).
pub(super) fn check_block_scale(
    f: &Function<'_>,
    regs: &Registers<'_>,
    reports: &mut [InstructionReport<'_>],
    target: Option<Target>,
) -> usize {
    let tc = tcgen05_instructions(f);
    if tc.len() != reports.len() {
        return 0;
    }
    let mut unlinked = 0;
    let mut w: Option<Writes> = None;
    for (ins, r) in tc.iter().zip(reports.iter_mut()) {
        if !ins.opcode.starts_with("tcgen05.mma") || !ins.qualifiers().any(|q| q == "block_scale") {
            continue;
        }
        let reads = scale_reads(ins, r, regs, target, &mut unlinked);
        let w = w.get_or_insert_with(|| writes(f, regs));
        for s in &reads {
            r.findings.extend(check_operand(s, w));
        }
    }
    unlinked
}

#[cfg(test)]
mod tests;
