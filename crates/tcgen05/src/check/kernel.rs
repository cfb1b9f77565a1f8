//! Checks of one kernel as a whole, from what the instruction checks recovered: the Tensor
//! Memory its MMAs and loads use against the columns it allocates, its `tcgen05.alloc`s
//! against its `tcgen05.dealloc`s, and the stride byte offsets its K-major operands need.
//!
//! Each check runs only where every value it reads is known at compile time, so a finding
//! holds whatever the run-time values are.

use alloc::vec::Vec;

use super::alloc_pairing::{calls_dealloc, pairing, Problem};
use super::dataflow::Registers;
use super::known_bits::width_mask;
use super::{tcgen05_instructions, CheckRule, Finding, FindingValue, InstructionReport};
use crate::instruction_descriptor::{IdescFields, InstructionDescriptor};
use crate::mma::CtaGroup;
use crate::ptx::OperandName;
use crate::ptx_reader::{Function, FunctionKind, Instruction, Operand};
use crate::tensor_memory::{LdStShape, Num};
use crate::tmem::data_path::DLayout;

/// Bits 32-45 of a shared memory descriptor: the stride byte offset (Table 40).
const SBO_BITS: u64 = 0x3fff << 32;

fn finding(
    rule: CheckRule,
    operand: Option<OperandName>,
    field: &'static str,
    value: u64,
    line: u32,
) -> Finding {
    rule.finding(operand, field, FindingValue::Number(value), line)
}

/// The column count of a `tcgen05.alloc` / `tcgen05.dealloc` when known.
fn n_cols(ins: &Instruction<'_>, regs: &Registers<'_>) -> Option<u64> {
    match ins.operands.get(1)? {
        Operand::Imm(v) => Some(*v),
        Operand::Name(n) => {
            let b = regs.get(n).bits;
            b.is_constant(32).then_some(b.value & width_mask(32))
        }
        _ => None,
    }
}

fn is(ins: &Instruction<'_>, op: &str) -> bool {
    ins.opcode
        .strip_prefix("tcgen05.")
        .is_some_and(|rest| rest == op || rest.starts_with(op) && rest[op.len()..].starts_with('.'))
}

/// The decoded fields of an MMA's instruction descriptor, when fully known and valid.
fn fields(r: &InstructionReport<'_>) -> Option<IdescFields> {
    InstructionDescriptor::from_bits(r.idesc?, r.kind?)
        .ok()
        .and_then(InstructionDescriptor::fields)
}

/// The Tensor Memory columns an MMA's D occupies in each CTA: N divided over the data path
/// layout's column split (PTX ISA 9.7.16.10.5, Figures 215-222), halved for a 16-bit D
/// (two elements per 32-bit column at most), so never more than D can need.
fn d_columns(r: &InstructionReport<'_>, f: &IdescFields) -> Option<u32> {
    let group = if r.instruction.contains(".cta_group::2") {
        CtaGroup::Two
    } else {
        CtaGroup::One
    };
    let ws = r.instruction.contains(".ws");
    let layout = DLayout::try_new(u32::from(f.m), u32::from(f.n), group, ws, f.sparse).ok()?;
    let cols = layout.columns();
    Some(if f.d_type.bits() < 32 { cols / 2 } else { cols })
}

/// The line that defines an MMA's instruction descriptor (its own line for an immediate).
fn idesc_line(ins: &Instruction<'_>, regs: &Registers<'_>) -> u32 {
    let at = if ins.opcode.contains(".sp") { 4 } else { 3 };
    match ins.operands.get(at) {
        Some(Operand::Name(n)) => regs.def_line(n).unwrap_or(ins.line),
        _ => ins.line,
    }
}

/// The columns a `tcgen05.ld` / `tcgen05.st` reads or writes from its address.
fn ld_st_columns(ins: &Instruction<'_>) -> Option<u32> {
    let mut shape = None;
    let mut num = None;
    for q in ins.qualifiers() {
        if let Ok(s) = LdStShape::from_name(q) {
            shape = Some(s);
        } else if let Ok(n) = Num::from_name(q) {
            num = Some(n);
        }
    }
    Some(shape?.columns_per_num() * u32::from(num?.count()))
}

/// Adds the kernel-level findings of `f` to its instructions' reports (`reports`, in the order
/// of `f`'s tcgen05 instructions); `module` holds the functions `f` may call. Returns the
/// allocation pairings left not decided ([`super::Report::alloc_undecided`]).
pub(super) fn check_kernel(
    f: &Function<'_>,
    module: &[Function<'_>],
    regs: &Registers<'_>,
    reports: &mut [InstructionReport<'_>],
) -> usize {
    let tc = tcgen05_instructions(f);
    if tc.len() != reports.len() {
        return 0;
    }
    let allocs: Vec<(usize, Option<u64>)> = tc
        .iter()
        .enumerate()
        .filter(|(_, i)| is(i, "alloc"))
        .map(|(k, i)| (k, n_cols(i, regs)))
        .collect();
    let deallocs = tc.iter().filter(|i| is(i, "dealloc")).count();
    // Every allocation of the kernel known: D and the loads must fit the largest.
    let allocated = if allocs.is_empty() || allocs.iter().any(|a| a.1.is_none()) {
        None
    } else {
        allocs.iter().filter_map(|a| a.1).max()
    };
    for (k, ins) in tc.iter().enumerate() {
        let r = &mut reports[k];
        if let Some(total) = allocated {
            let used = if is(ins, "mma") {
                fields(r)
                    .and_then(|fl| d_columns(r, &fl))
                    .map(|c| (c, OperandName::DTmem))
            } else if is(ins, "ld") || is(ins, "st") {
                ld_st_columns(ins).map(|c| (c, OperandName::Taddr))
            } else {
                None
            };
            if let Some((cols, operand)) = used {
                if u64::from(cols) > total {
                    // An MMA's columns come from N in its instruction descriptor.
                    let at = if operand == OperandName::DTmem {
                        idesc_line(ins, regs)
                    } else {
                        ins.line
                    };
                    r.findings.push(finding(
                        CheckRule::TmemColumns,
                        Some(operand),
                        "columns",
                        u64::from(cols),
                        at,
                    ));
                }
            }
        }
        if is(ins, "mma") {
            sbo_findings(r);
        }
    }
    let mut never_deallocated = false;
    if f.kind == FunctionKind::Entry && deallocs == 0 && !calls_dealloc(f, module) {
        if let Some(&(k, cols)) = allocs.first() {
            never_deallocated = true;
            reports[k].findings.push(finding(
                CheckRule::AllocWithoutDealloc,
                Some(OperandName::NCols),
                "n_cols",
                cols.unwrap_or(0),
                tc[k].line,
            ));
        }
    }
    pairing_findings(f, module, never_deallocated, reports)
}

/// The findings of [`pairing`] on the reports of the instructions they start from (a
/// leak already reported as [`CheckRule::AllocWithoutDealloc`] is not repeated). Returns the
/// pairings not decided, counting a problem that starts from a `call` (no report to carry it).
fn pairing_findings(
    f: &Function<'_>,
    module: &[Function<'_>],
    never_deallocated: bool,
    reports: &mut [InstructionReport<'_>],
) -> usize {
    let result = pairing(f, module);
    let mut undecided = result.undecided;
    // The index among the tcgen05 instructions of instruction `i`, when it is one.
    let report_of = |i: usize| {
        f.instructions
            .get(i)
            .filter(|ins| ins.opcode.starts_with("tcgen05."))
            .map(|_| {
                f.instructions[..i]
                    .iter()
                    .filter(|x| x.opcode.starts_with("tcgen05."))
                    .count()
            })
    };
    let line = |i: usize| f.instructions.get(i).map_or(0, |x| x.line);
    for p in result.problems {
        let (rule, at, field, other) = match p {
            Problem::Leak { .. } if never_deallocated => continue,
            Problem::Leak { alloc, exit_line } => (
                CheckRule::AllocLeakOnPath,
                alloc,
                "exit_line",
                u64::from(exit_line),
            ),
            Problem::DoubleDealloc { alloc, dealloc } => (
                CheckRule::DoubleDealloc,
                dealloc,
                "alloc_line",
                u64::from(line(alloc)),
            ),
            Problem::AfterRelinquish { alloc, relinquish } => (
                CheckRule::AllocAfterRelinquish,
                alloc,
                "relinquish_line",
                u64::from(line(relinquish)),
            ),
        };
        match report_of(at).and_then(|k| reports.get_mut(k)) {
            Some(r) => r.findings.push(finding(rule, None, field, other, line(at))),
            None => undecided += 1,
        }
    }
    undecided
}

/// A K-major operand of more than 8 rows (A: M; B: N) whose descriptor's stride byte offset is
/// known to be 0: every group of 8 rows would be read from the same address.
fn sbo_findings(r: &mut InstructionReport<'_>) {
    let Some(fl) = fields(r) else { return };
    let per_cta_m = if r.instruction.contains(".cta_group::2") {
        fl.m / 2
    } else {
        fl.m
    };
    let operands = [
        (r.a_desc, OperandName::ADesc, fl.transpose_a, per_cta_m),
        (r.b_desc, OperandName::BDesc, fl.transpose_b, fl.n),
    ];
    let mut out = Vec::new();
    for (desc, operand, transposed, rows) in operands {
        let Some(bits) = desc else { continue };
        if transposed
            || rows <= 8
            || bits.known & SBO_BITS != SBO_BITS
            || bits.value & SBO_BITS != 0
        {
            continue;
        }
        out.push(finding(
            CheckRule::SboZero,
            Some(operand),
            "stride_byte_offset",
            0,
            r.line,
        ));
    }
    r.findings.extend(out);
}
