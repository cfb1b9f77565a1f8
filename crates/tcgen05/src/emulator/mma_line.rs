//! `tcgen05.mma` written as a line with immediate operands (the emulator's input): the line
//! is read into an [`MmaOperation`] and run by the MMA's stages ([`super::mma::run`]) on copies
//! of the machine's CTAs, which replace them only when it completes.

use alloc::string::String;
use alloc::vec::Vec;

use super::mma::{operand_error, run, ASource, MmaOperation, MmaOptions};
use super::problem::{EmuError, EmuRule, Problem};
use super::state::Cta;
use super::Machine;
use crate::mma::CtaGroup;
use crate::ptx::{Mma, ScaleVec};
use crate::ptx_reader::{Instruction, Operand};
use crate::tensor_memory::TmemAddress;

/// Runs one `tcgen05.mma` line on the machine.
pub(super) fn execute(
    machine: &mut Machine,
    ins: &Instruction<'_>,
    form: &Mma<'_>,
    warnings: &mut Vec<Problem>,
) -> Result<String, EmuError> {
    let op = parse(ins, form)?;
    let ctas = match op.group {
        CtaGroup::One => 1,
        CtaGroup::Two => 2,
    };
    // Work on copies: the instruction changes nothing unless it completes.
    let mut work: Vec<Cta> = machine.ctas[..ctas].to_vec();
    let mut random = machine.random.clone();
    let options = MmaOptions {
        target: machine.target,
        check_allocation: machine.check_allocation,
    };
    let (record, _, effect) = run(work.as_mut_slice(), &op, options, &mut random, warnings)?;
    for (dst, src) in machine.ctas.iter_mut().zip(work) {
        *dst = src;
    }
    machine.random = random;
    machine.last_mma = Some(record);
    Ok(effect)
}

fn tmem_address(op: Option<&Operand<'_>>, field: &'static str) -> Result<TmemAddress, Problem> {
    match op {
        Some(Operand::Address { base: None, offset }) => {
            let raw = u32::try_from(*offset).map_err(|_| operand_error(field, *offset as u64))?;
            TmemAddress::from_bits(raw).map_err(Problem::from)
        }
        _ => Err(operand_error(field, 0)),
    }
}

fn immediate(op: Option<&Operand<'_>>, field: &'static str) -> Result<u64, Problem> {
    match op {
        Some(Operand::Imm(v)) => Ok(*v),
        _ => Err(operand_error(field, 0)),
    }
}

/// The operation of one `tcgen05.mma` line with immediate operands: its qualifiers from the
/// typed form the grammar read (`form`), its operand values from the line.
fn parse(ins: &Instruction<'_>, form: &Mma<'_>) -> Result<MmaOperation, EmuError> {
    if form.ti16 {
        // `.kind::ti16`'s arithmetic is not modelled (rules.md F3).
        return Err(EmuError::one(Problem::emu(EmuRule::Unsupported, "kind", 0)));
    }
    let mut problems = Vec::new();
    let (group, kind, ws, ashift) = (form.cta_group, form.kind, form.ws, form.ashift);
    let sp = form.sparse_metadata.is_some();
    let block_scale = form.block_scale.is_some();
    let vec = form.block_scale.map_or(ScaleVec::Default, |s| s.vec);
    let collector = form.collector;
    let ops = &ins.operands;
    let mut i = 0;
    let take = |i: &mut usize, n: usize| {
        let r = *i;
        *i += n;
        r
    };
    let d = tmem_address(ops.get(take(&mut i, 1)), "d_tmem");
    let a = match ops.get(take(&mut i, 1)) {
        Some(o @ Operand::Address { .. }) => tmem_address(Some(o), "a_tmem").map(ASource::Tmem),
        o => immediate(o, "a_desc").map(ASource::Smem),
    };
    let b = immediate(ops.get(take(&mut i, 1)), "b_desc");
    let meta = if sp {
        match tmem_address(ops.get(take(&mut i, 1)), "sp_meta_tmem") {
            Ok(a) => Some(a),
            Err(p) => {
                problems.push(p);
                None
            }
        }
    } else {
        None
    };
    let idesc = immediate(ops.get(take(&mut i, 1)), "idesc");
    let scales = if block_scale {
        let sa = tmem_address(ops.get(take(&mut i, 1)), "scale_a");
        let sb = tmem_address(ops.get(take(&mut i, 1)), "scale_b");
        Some((sa, sb))
    } else {
        None
    };
    let mut disable = None;
    if let Some(Operand::Vector(v)) = ops.get(i) {
        take(&mut i, 1);
        let mut words = Vec::new();
        for o in v {
            match o {
                Operand::Imm(x) => words.push(*x as u32),
                _ => problems.push(operand_error("disable_output_lane", 0)),
            }
        }
        disable = Some(words);
    }
    let enable = immediate(ops.get(take(&mut i, 1)), "enable_input_d");
    let last = ops.get(take(&mut i, 1));
    let mut zmask = None;
    let mut scale_input_d = 0;
    if let Some(o) = last {
        let v = immediate(
            Some(o),
            if ws {
                "zero_column_mask"
            } else {
                "scale_input_d"
            },
        );
        match v {
            Ok(v) if ws => zmask = Some(v),
            // The form check bounds it to 0-15 (f16 and tf32 kinds only).
            Ok(v) => scale_input_d = v as u32,
            Err(p) => problems.push(p),
        }
    }
    fn ok<T>(problems: &mut Vec<Problem>, r: Result<T, Problem>) -> Option<T> {
        r.map_err(|p| problems.push(p)).ok()
    }
    let d = ok(&mut problems, d);
    let a = ok(&mut problems, a);
    let b = ok(&mut problems, b);
    let idesc = ok(&mut problems, idesc);
    let enable = ok(&mut problems, enable);
    let scales = match scales {
        Some((sa, sb)) => {
            let (sa, sb) = (ok(&mut problems, sa), ok(&mut problems, sb));
            Some(sa.zip(sb))
        }
        None => None,
    };
    match (d, a, b, idesc, enable, scales) {
        (Some(d), Some(a), Some(b), Some(idesc), Some(enable), scales)
            if problems.is_empty() && scales.is_none_or(|s| s.is_some()) =>
        {
            Ok(MmaOperation {
                group,
                kind,
                ws,
                vec,
                collector,
                d,
                a,
                b,
                idesc: idesc as u32,
                scales: scales.flatten(),
                disable,
                enable_input_d: enable != 0,
                zmask,
                scale_input_d,
                meta,
                ashift,
            })
        }
        _ => Err(EmuError { problems }),
    }
}
