//! Placing an operand matrix in shared memory where a `tcgen05.mma` reads it: the inverse of
//! the read the MMA does through its shared memory descriptor and
//! [`MatrixLayout`] (PTX ISA 9.7.16.3, 9.7.16.4.1), so that A or B, given by its elements,
//! needs no address arithmetic by hand.
//!
//! The MMA is one line with immediate operands (as [`Machine::execute`](super::Machine::execute)
//! runs it): its `.kind`, its instruction descriptor (element types, M, N, transposes) and its
//! A or B descriptor say where each element goes. A is `M x K` and B is `N x K` (row `j` is
//! column `j` of B), `K` the kind's dense K (Table 39); with `.cta_group::2` each CTA holds its
//! rows of A and its half of B's columns at the same descriptor (decision E3).

use alloc::vec::Vec;

use super::problem::{EmuRule, Problem};
use super::Machine;
use crate::canonical_layout::{ElementStorage, MatrixLayout, Operand as LayoutOperand};
use crate::check::decode::decode;
use crate::instruction_descriptor::InstructionDescriptor;
use crate::mma::{CtaGroup, ElementType, Major};
use crate::ptx::syntax::mma_slot;
use crate::ptx::Instruction;
use crate::ptx_reader::{self, Operand};
use crate::shared_memory_descriptor::SmemDescriptor;
use crate::targets::Target;

/// Which operand of the MMA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// A, `M x K`.
    A,
    /// B, `N x K`.
    B,
}

/// Where an MMA reads one operand from shared memory.
#[derive(Clone, Copy, Debug)]
pub struct OperandPlace {
    /// The operand's descriptor.
    pub descriptor: SmemDescriptor,
    /// Its layout in each CTA: element storage, major-ness, rows per CTA and K.
    pub layout: LayoutOperand,
    /// The element type the instruction descriptor gives it.
    pub element: ElementType,
    /// CTAs that hold a part (1, or 2 for `.cta_group::2`).
    pub ctas: u32,
    /// Rows of the whole matrix (M for A, N for B).
    pub rows: u32,
    /// K, elements per row.
    pub k: u32,
}

fn operands(field: &'static str) -> Problem {
    Problem::emu(EmuRule::Operands, field, 0)
}

/// Where the MMA `line` reads operand `which` from shared memory.
///
/// # Errors
/// [`EmuRule::Operands`] when the line is not a dense `tcgen05.mma` with immediate
/// descriptors, or A is in Tensor Memory; the instruction or shared memory descriptor's own
/// errors.
pub fn operand_place(line: &str, which: Which, target: Target) -> Result<OperandPlace, Problem> {
    let ins = ptx_reader::read_instruction(line).map_err(Problem::from)?;
    // The qualifiers as the grammar reads them (tolerantly, as the checker and the emulator
    // do: the descriptors are immediates here), into the typed form.
    let decoded = decode(&ins).map_err(|_| operands("opcode"))?;
    let mma = match decoded.instruction() {
        Some(Instruction::Mma(m)) => m,
        Some(_) => return Err(operands("opcode")),
        None if decoded.missing(mma_slot::KIND) => return Err(operands("kind")),
        None => return Err(operands("opcode")),
    };
    if mma.sparse_metadata.is_some() {
        return Err(operands("opcode"));
    }
    if mma.ti16 {
        // `.kind::ti16` has no dense K of Table 39 to place by.
        return Err(operands("kind"));
    }
    let kind = mma.kind;
    let imm = |i: usize, field| match ins.operands.get(i) {
        Some(Operand::Imm(v)) => Ok(*v),
        _ => Err(operands(field)),
    };
    let idesc = u32::try_from(imm(3, "idesc")?).map_err(|_| operands("idesc"))?;
    // An invalid idesc is the MMA's own error, reported when it runs; here it places nothing.
    let fields = InstructionDescriptor::from_bits(idesc, kind)
        .ok()
        .and_then(InstructionDescriptor::fields)
        .ok_or_else(|| Problem::emu(EmuRule::Operands, "idesc", u64::from(idesc)))?;
    let ctas = match mma.cta_group {
        CtaGroup::One => 1,
        CtaGroup::Two => 2,
    };
    let (at, field, element, transpose, rows) = match which {
        Which::A => (
            1,
            "a_desc",
            fields.a_type,
            fields.transpose_a,
            u32::from(fields.m),
        ),
        Which::B => (
            2,
            "b_desc",
            fields.b_type,
            fields.transpose_b,
            u32::from(fields.n),
        ),
    };
    let descriptor = SmemDescriptor::from_bits(imm(at, field)?, target).map_err(Problem::from)?;
    let storage = ElementStorage::of(element, Some(kind)).map_err(Problem::from)?;
    let major = if transpose { Major::Mn } else { Major::K };
    let k = u32::from(kind.dense_k());
    Ok(OperandPlace {
        descriptor,
        layout: LayoutOperand::new(storage, major, rows / ctas, k),
        element,
        ctas,
        rows,
        k,
    })
}

/// Writes `codes` (the whole matrix, row-major, `rows x k` element codes) where `place` says
/// the MMA reads it: rows `c * rows / ctas ..` in CTA `c`. Narrow elements are merged into the
/// bytes they share (a byte never written reads as 0 there).
///
/// # Errors
/// [`EmuRule::Operands`] when `codes` is not `rows x k` long; a layout error of the
/// descriptor; [`EmuRule::SmemOutOfRange`].
pub fn place(machine: &mut Machine, place: &OperandPlace, codes: &[u32]) -> Result<(), Problem> {
    if codes.len() != (place.rows * place.k) as usize {
        return Err(Problem::emu(EmuRule::Operands, "shape", codes.len() as u64));
    }
    let ml = MatrixLayout::try_new(place.descriptor, place.layout).map_err(Problem::from)?;
    let per = place.rows / place.ctas;
    for (c, cta) in machine
        .ctas
        .iter_mut()
        .enumerate()
        .take(place.ctas as usize)
    {
        for r in 0..per {
            for kk in 0..place.k {
                let code = codes[((c as u32 * per + r) * place.k + kk) as usize];
                let loc = ml.address(r, kk).map_err(Problem::from)?;
                let end_bit = u32::from(loc.bit) + u32::from(loc.bits);
                let nbytes = end_bit.div_ceil(8);
                let mut word: u64 = 0;
                for i in 0..nbytes {
                    let b = cta.smem_byte(loc.address + i)?.unwrap_or(0);
                    word |= u64::from(b) << (8 * i);
                }
                let mask = (1u64 << loc.bits) - 1;
                word = (word & !(mask << loc.bit)) | ((u64::from(code) & mask) << loc.bit);
                let bytes: Vec<u8> = (0..nbytes).map(|i| (word >> (8 * i)) as u8).collect();
                cta.write_smem(loc.address, &bytes)
                    .map_err(|e| e.problems[0])?;
            }
        }
    }
    Ok(())
}
