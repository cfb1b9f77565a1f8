//! Reading a `wgmma` instruction of a PTX file into its typed form by the tables the writer
//! walks ([`crate::ptx::wgmma`]): [`parse_wgmma`].
//!
//! # Examples
//! ```
//! use tcgen05::ptx::{parse_wgmma, Wgmma};
//! use tcgen05::ptx_reader::read;
//!
//! let text = "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 {%r1,%r2,%r3,%r4}, %rd1, %rd2, 1;";
//! let module = read(text.as_bytes());
//! let form = parse_wgmma(&module.functions[0].instructions[0]).unwrap();
//! assert!(matches!(form.instruction(), Wgmma::MmaAsync(m) if m.n == 8 && m.d.len() == 4));
//! let mut line = String::new();
//! form.write(&mut line).unwrap();
//! assert_eq!(line, text);
//! ```

use ::alloc::vec::Vec;
use core::fmt;

use super::form_error::{FormError, FormRule};
use super::grammar::Shape;
use super::qualifier_order::read_in_order;
use super::wgmma::{Wgmma, WgmmaArg, WgmmaGrammar, WgmmaSpelled, WGMMA_GRAMMARS};
use crate::ptx_reader::{self, Operand};

/// A wgmma instruction read from PTX: its typed form ([`WgmmaForm::instruction`]) and its
/// spelling ([`WgmmaForm::spelled`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WgmmaForm<'a> {
    /// The form with its register vector left empty (it lives in `regs`).
    shell: Wgmma<'a>,
    spelled: WgmmaSpelled<'a>,
    regs: Vec<&'a str>,
}

impl<'a> WgmmaForm<'a> {
    /// The typed form; its register vector borrows from `self`.
    #[must_use]
    pub fn instruction(&self) -> Wgmma<'_> {
        match self.shell {
            Wgmma::MmaAsync(mut m) => {
                m.d = &self.regs;
                Wgmma::MmaAsync(m)
            }
            other => other,
        }
    }

    /// The spelling as read (its register vector empty: see [`WgmmaForm::instruction`]).
    #[must_use]
    pub const fn spelled(&self) -> &WgmmaSpelled<'a> {
        &self.spelled
    }

    /// Writes the form as read, in the grammar's spelling (one line ending in `;`).
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        self.instruction().write(w)
    }
}

fn error<'a>(
    g: &WgmmaGrammar,
    rule: FormRule,
    what: &'static str,
    text: &'a str,
    operand: Option<usize>,
) -> FormError<'a> {
    FormError {
        rule,
        form: g.name,
        what,
        text,
        operand,
        section: g.section,
    }
}

/// Reads `ins` (a `wgmma.*` instruction from [`ptx_reader`]) into its typed form.
///
/// The qualifiers must be those of the form's grammar, each once, in order; the operands those
/// of the form, in order, of the kinds it takes (the trailing immediates of `mma_async` in
/// pairs). Legality (which types go together, N, the immediates' values) is
/// [`crate::ptx::MmaAsync::validate`]'s business. The guard stays in `ins.guard`.
///
/// # Errors
/// The first [`FormError`]: an unknown instruction or qualifier, a qualifier twice, out of
/// order or missing; an operand missing, extra or of the wrong kind.
pub fn parse_wgmma<'a>(ins: &ptx_reader::Instruction<'a>) -> Result<WgmmaForm<'a>, FormError<'a>> {
    let unknown = |text| FormError {
        rule: FormRule::UnknownInstruction,
        form: "wgmma",
        what: "instruction",
        text,
        operand: None,
        section: "9.7.15",
    };
    if ins.base() != "wgmma" {
        return Err(unknown(ins.opcode));
    }
    let mut quals = ins.qualifiers();
    let first = quals.next().ok_or_else(|| unknown(ins.opcode))?;
    let g = WGMMA_GRAMMARS
        .iter()
        .find(|g| g.slots[0].value_of(first).is_some())
        .ok_or_else(|| unknown(first))?;
    let mut spelled = WgmmaSpelled {
        grammar: g,
        quals: Default::default(),
        operands: Default::default(),
    };
    spelled.quals[0] = Some(0);
    read_qualifiers(g, quals, &mut spelled)?;
    let mut regs = Vec::new();
    read_operands(g, ins, &mut spelled, &mut regs)?;
    let shell = Wgmma::from_spelled(&spelled)
        .ok_or_else(|| error(g, FormRule::MissingOperand, "operands", ins.text, None))?;
    Ok(WgmmaForm {
        shell,
        spelled,
        regs,
    })
}

fn read_qualifiers<'a>(
    g: &'static WgmmaGrammar,
    quals: impl Iterator<Item = &'a str>,
    spelled: &mut WgmmaSpelled<'a>,
) -> Result<(), FormError<'a>> {
    let slots = g.slots;
    read_in_order(slots, quals, &mut spelled.quals)
        .map_err(|(rule, what, q)| error(g, rule, what, q, None))?;
    match slots
        .iter()
        .zip(spelled.quals)
        .find(|(s, v)| s.required && v.is_none())
    {
        Some((s, _)) => Err(error(g, FormRule::MissingQualifier, s.name, "", None)),
        None => Ok(()),
    }
}

fn fits(op: &Operand<'_>, shape: Shape) -> bool {
    match op {
        Operand::Name(_) => matches!(shape, Shape::Reg | Shape::RegOrImm),
        Operand::Imm(_) => matches!(shape, Shape::Imm | Shape::RegOrImm),
        Operand::Vector(_) => shape == Shape::Vector,
        _ => false,
    }
}

fn read_operands<'a>(
    g: &'static WgmmaGrammar,
    ins: &ptx_reader::Instruction<'a>,
    spelled: &mut WgmmaSpelled<'a>,
    regs: &mut Vec<&'a str>,
) -> Result<(), FormError<'a>> {
    let mut k = 0;
    for (i, slot) in g.operands.iter().enumerate() {
        let op = ins.operands.get(k);
        let shape_error = || {
            let rule = FormRule::OperandShape {
                expected: slot.shape,
            };
            error(g, rule, slot.name, ins.text, Some(k))
        };
        let Some(op) = op else {
            if slot.optional {
                break;
            }
            return Err(error(g, FormRule::MissingOperand, slot.name, "", Some(k)));
        };
        if !fits(op, slot.shape) {
            return Err(shape_error());
        }
        spelled.operands[i] = Some(match op {
            Operand::Name(n) => WgmmaArg::Reg(n),
            Operand::Imm(v) => WgmmaArg::Imm(*v),
            Operand::Vector(elements) => {
                for e in elements {
                    match e {
                        Operand::Name(n) => regs.push(n),
                        _ => return Err(shape_error()),
                    }
                }
                WgmmaArg::Vector(&[])
            }
            _ => return Err(shape_error()),
        });
        k += 1;
    }
    if k < ins.operands.len() {
        return Err(error(
            g,
            FormRule::ExtraOperand,
            "operands",
            ins.text,
            Some(k),
        ));
    }
    Ok(())
}
