//! The walk of a form's [`Grammar`] over an instruction as [`ptx_reader`] reads it: the one
//! reader of qualifier slots and operands behind the strict parsers ([`crate::ptx::parse`],
//! [`crate::ptx::parse_wgmma`]) and the checker's tolerant reading (`check::decode`).
//!
//! The walk puts each qualifier in the first later slot that spells it (PTX ISA 9.7.16 and
//! 9.7.15 give each form's qualifiers in a fixed order), checks the required slots and the
//! slots that need another, then takes the operands position by position, each present as its
//! [`When`] says and of its [`Shape`]. Every departure from the grammar goes to a
//! [`Problems`]: [`Strict`] stops at the first, [`Tolerant`] keeps them all and goes on with a
//! placeholder where an operand is missing or does not fit.

use ::alloc::vec::Vec;

use super::form_error::{FormError, FormRule};
use super::grammar::{Arg, Grammar, OperandSlot, Shape, Spelled, When, MAX_OPERANDS, MAX_SLOTS};
use crate::ptx_reader::{self, Operand};

/// Which part of the walk found a departure (the tolerant reading lists them in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// A required qualifier missing.
    Missing,
    /// An operand missing, extra, of the wrong kind or too wide.
    Operand,
    /// A qualifier unknown, twice, out of order, or without the one it needs.
    Qualifier,
}

/// Where the walk sends each departure from the grammar.
pub(crate) trait Problems<'a> {
    /// A departure; `Err` stops the walk with it.
    ///
    /// # Errors
    /// The departure, where the walk stops at it.
    fn report(&mut self, stage: Stage, e: FormError<'a>) -> Result<(), FormError<'a>>;

    /// A departure the tolerant reading accepts without a word (an immediate where the
    /// grammar has a register, as `tcgen05 emulate` writes descriptors; an address without a
    /// register; a vector element that is no register): a placeholder stands in.
    ///
    /// # Errors
    /// The departure, where the walk stops at it.
    fn lenient(&mut self, e: FormError<'a>) -> Result<(), FormError<'a>>;
}

/// The strict reading: the first departure is the error.
pub(crate) struct Strict;

impl<'a> Problems<'a> for Strict {
    fn report(&mut self, _: Stage, e: FormError<'a>) -> Result<(), FormError<'a>> {
        Err(e)
    }

    fn lenient(&mut self, e: FormError<'a>) -> Result<(), FormError<'a>> {
        Err(e)
    }
}

/// The tolerant reading: every departure kept, by [`Stage`].
#[derive(Default)]
pub(crate) struct Tolerant<'a> {
    missing: Vec<FormError<'a>>,
    operands: Vec<FormError<'a>>,
    qualifiers: Vec<FormError<'a>>,
}

impl<'a> Tolerant<'a> {
    /// The departures: missing qualifiers, then operands, then qualifiers.
    pub(crate) fn into_vec(self) -> Vec<FormError<'a>> {
        let mut all = self.missing;
        all.extend(self.operands);
        all.extend(self.qualifiers);
        all
    }
}

impl<'a> Problems<'a> for Tolerant<'a> {
    fn report(&mut self, stage: Stage, e: FormError<'a>) -> Result<(), FormError<'a>> {
        match stage {
            Stage::Missing => self.missing.push(e),
            Stage::Operand => self.operands.push(e),
            Stage::Qualifier => self.qualifiers.push(e),
        }
        Ok(())
    }

    fn lenient(&mut self, _: FormError<'a>) -> Result<(), FormError<'a>> {
        Ok(())
    }
}

/// An instruction walked through its grammar.
pub(crate) struct Walked<'a> {
    /// The grammar form, its register vectors empty (their elements are in `regs`).
    pub(crate) spelled: Spelled<'a>,
    /// The elements of the form's register vectors, one after the other.
    pub(crate) regs: Vec<&'a str>,
    /// Where the second register vector starts in `regs` (`tcgen05.ld.spcompress`'s `{r}`
    /// after `{mdata}`); `None` with one vector or none.
    pub(crate) split: Option<usize>,
    /// Immediates written where the grammar has no immediate (`b-desc` as a constant), by
    /// operand position; the position holds a placeholder.
    pub(crate) misplaced: [Option<u64>; MAX_OPERANDS],
}

/// A departure from grammar `g`.
pub(crate) fn error<'a>(
    g: &'static Grammar,
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

/// The grammar among `grammars` (all of opcode base `base`, whose syntax is PTX ISA section
/// `section`) whose first slot spells `ins`'s first qualifier, and that slot's value.
///
/// # Errors
/// [`FormRule::UnknownInstruction`] naming the opcode, or the first qualifier, that no grammar
/// spells.
pub(crate) fn grammar_of<'a>(
    ins: &ptx_reader::Instruction<'a>,
    grammars: &[&'static Grammar],
    base: &'static str,
    section: &'static str,
) -> Result<(&'static Grammar, u16), FormError<'a>> {
    let unknown = |text| FormError {
        rule: FormRule::UnknownInstruction,
        form: base,
        what: "instruction",
        text,
        operand: None,
        section,
    };
    if ins.base() != base {
        return Err(unknown(ins.opcode));
    }
    let first = ins.qualifiers().next().ok_or_else(|| unknown(ins.opcode))?;
    grammars
        .iter()
        .find_map(|g| g.slots[0].value_of(first).map(|v| (*g, v)))
        .ok_or_else(|| unknown(first))
}

/// Walks `ins` through grammar `g` (its first slot of value `first`, as [`grammar_of`]
/// found it), sending every departure to `problems`.
///
/// # Errors
/// The departure `problems` stops at.
pub(crate) fn walk<'a, P: Problems<'a>>(
    g: &'static Grammar,
    first: u16,
    ins: &ptx_reader::Instruction<'a>,
    problems: &mut P,
) -> Result<Walked<'a>, FormError<'a>> {
    let mut w = Walked {
        spelled: Spelled::empty(g).q(0, first),
        regs: Vec::new(),
        split: None,
        misplaced: [None; MAX_OPERANDS],
    };
    read_qualifiers(g, ins.qualifiers().skip(1), &mut w.spelled, problems)?;
    read_operands(g, ins, &mut w, problems)?;
    Ok(w)
}

/// Each qualifier in the first later slot that spells it (else in an earlier one, reported
/// twice or out of order; one no slot spells, reported unknown and left out); then each
/// required slot present and each slot with the one it needs.
fn read_qualifiers<'a, P: Problems<'a>>(
    g: &'static Grammar,
    quals: impl Iterator<Item = &'a str>,
    spelled: &mut Spelled<'a>,
    problems: &mut P,
) -> Result<(), FormError<'a>> {
    let slots = g.slots;
    let spells = |j: usize, q: &str| slots[j].value_of(q).map(|v| (j, v));
    let mut next = 1;
    let mut written: [&'a str; MAX_SLOTS] = [""; MAX_SLOTS];
    for q in quals {
        let (j, v) = match (next..slots.len()).find_map(|j| spells(j, q)) {
            Some(found) => found,
            None => {
                let Some((j, v)) = (0..next).find_map(|j| spells(j, q)) else {
                    let e = error(g, FormRule::UnknownQualifier, "qualifier", q, None);
                    problems.report(Stage::Qualifier, e)?;
                    continue;
                };
                let rule = if spelled.quals[j].is_some() {
                    FormRule::DuplicateQualifier
                } else {
                    FormRule::QualifierOrder {
                        after: slots[next - 1].name,
                    }
                };
                let e = error(g, rule, slots[j].name, q, None);
                problems.report(Stage::Qualifier, e)?;
                (j, v)
            }
        };
        spelled.quals[j] = Some(v);
        written[j] = q;
        next = next.max(j + 1);
    }
    for (j, slot) in slots.iter().enumerate() {
        if let (Some(_), Some(n)) = (spelled.quals[j], slot.needs) {
            if spelled.quals[n].is_none() {
                // Without the slot it goes with, the qualifier is no part of the form.
                let rule = FormRule::QualifierNeeds {
                    needs: slots[n].name,
                };
                problems.report(
                    Stage::Qualifier,
                    error(g, rule, slot.name, written[j], None),
                )?;
                spelled.quals[j] = None;
            }
        }
        if slot.required && spelled.quals[j].is_none() {
            let e = error(g, FormRule::MissingQualifier, slot.name, "", None);
            problems.report(Stage::Missing, e)?;
            if slot.values.len() == 1 && slot.family.is_none() {
                // A slot of one spelling (`.sync`): the form is the same with it.
                spelled.quals[j] = Some(0);
            }
        }
    }
    Ok(())
}

/// Whether `op` can stand in a position of `shape`.
pub(crate) fn fits(op: &Operand<'_>, shape: Shape) -> bool {
    match op {
        Operand::Name(_) => matches!(
            shape,
            Shape::Reg | Shape::RegOrAddr | Shape::RegOrImm | Shape::RegOrVector
        ),
        Operand::Address { .. } => matches!(shape, Shape::Addr | Shape::RegOrAddr),
        Operand::Imm(_) => matches!(shape, Shape::Imm | Shape::RegOrImm),
        Operand::Vector(_) => matches!(shape, Shape::Vector | Shape::RegOrVector),
        _ => false,
    }
}

/// The name of operand position `position` as a PTX identifier (`d-tmem` -> `d_tmem`): what
/// stands in for it where the line has no register there.
pub(crate) fn placeholder_name(position: &'static str) -> &'static str {
    match position {
        "d-tmem" => "d_tmem",
        "a-desc" => "a_desc",
        "b-desc" => "b_desc",
        "sp-meta-tmem" => "sp_meta",
        "scale-A-tmem" => "scale_a",
        "scale-B-tmem" => "scale_b",
        "disable-output-lane" => "disable_output_lane",
        "enable-input-d" => "enable_input_d",
        "scale-input-d" => "scale_input_d",
        "zero-column-mask-desc" => "zero_column_mask",
        "s-desc" => "s_desc",
        other => other,
    }
}

/// What stands in for operand position `slot` where the line has no operand of its kind.
fn placeholder<'a>(slot: &OperandSlot) -> Option<Arg<'a>> {
    let name = placeholder_name(slot.name);
    match slot.shape {
        Shape::Reg | Shape::RegOrAddr | Shape::RegOrImm | Shape::RegOrVector => {
            Some(Arg::Reg(name))
        }
        Shape::Addr => Some(Arg::Addr(name, 0)),
        Shape::Vector => Some(Arg::Vector(&[])),
        Shape::Imm => None,
    }
}

/// Operand `k` of `ins` as written (split at the commas outside braces and brackets, trimmed),
/// or the whole statement where the text has no such operand.
pub(crate) fn operand_text<'a>(ins: &ptx_reader::Instruction<'a>, k: usize) -> &'a str {
    let text = ins.text;
    let start = text.find(ins.opcode).map_or(0, |i| i + ins.opcode.len());
    let rest = &text[start..];
    let mut depth = 0i32;
    let (mut from, mut index) = (0, 0);
    for (i, c) in rest
        .char_indices()
        .chain(core::iter::once((rest.len(), ',')))
    {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' | ';' if depth == 0 => {
                if index == k {
                    return rest[from..i].trim();
                }
                index += 1;
                from = i + 1;
            }
            _ => {}
        }
    }
    text
}

/// The operands, position by position: each present as its [`When`] says; a missing one,
/// or one that does not fit, reported with a placeholder in its place.
fn read_operands<'a, P: Problems<'a>>(
    g: &'static Grammar,
    ins: &ptx_reader::Instruction<'a>,
    w: &mut Walked<'a>,
    problems: &mut P,
) -> Result<(), FormError<'a>> {
    let ops = &ins.operands;
    let mut k = 0;
    for (i, slot) in g.operands.iter().enumerate() {
        let has = |s: usize| w.spelled.quals[s].is_some();
        let next_fits = || ops.get(k).is_some_and(|op| fits(op, slot.shape));
        let take = match slot.when {
            When::Always => true,
            When::With(s) => has(s),
            When::Optional => next_fits(),
            When::OptionalWith(s) => has(s) && next_fits(),
            When::OptionalWithout(s) => !has(s) && next_fits(),
            When::Trailing => k < ops.len(),
            When::TrailingUnlessVector(o) => {
                k < ops.len() && !matches!(w.spelled.operands[o], Some(Arg::Vector(_)))
            }
        };
        if !take {
            continue;
        }
        // A register vector where this position holds none, but a later one does: this one
        // is missing (`tcgen05.st` without its address).
        let later = |op: &Operand<'_>| {
            matches!(op, Operand::Vector(_))
                && !fits(op, slot.shape)
                && g.operands[i + 1..].iter().any(|s| fits(op, s.shape))
        };
        let Some(op) = ops.get(k).filter(|op| !later(op)) else {
            let e = error(g, FormRule::MissingOperand, slot.name, "", Some(k));
            problems.report(Stage::Operand, e)?;
            w.spelled.operands[i] = placeholder(slot);
            continue;
        };
        w.spelled.operands[i] = read_operand(g, ins, (i, k), op, w, problems)?;
        k += 1;
    }
    if k < ops.len() {
        let e = error(
            g,
            FormRule::ExtraOperand,
            "operands",
            operand_text(ins, k),
            Some(k),
        );
        problems.report(Stage::Operand, e)?;
    }
    Ok(())
}

/// Operand `op` (the `k`th of `ins`) in position `i` of `g`.
fn read_operand<'a, P: Problems<'a>>(
    g: &'static Grammar,
    ins: &ptx_reader::Instruction<'a>,
    (i, k): (usize, usize),
    op: &Operand<'a>,
    w: &mut Walked<'a>,
    problems: &mut P,
) -> Result<Option<Arg<'a>>, FormError<'a>> {
    let slot = &g.operands[i];
    let err = |rule| error(g, rule, slot.name, operand_text(ins, k), Some(k));
    let shape = FormRule::OperandShape {
        expected: slot.shape,
    };
    let too_wide = FormRule::ImmediateTooWide { max: slot.max };
    let fit = fits(op, slot.shape);
    if let (Operand::Imm(v), false) = (op, fit) {
        w.misplaced[i] = Some(*v);
    }
    match op {
        // A decimal too large for 64 bits (`99999999999999999999999`): the reader keeps it as
        // written; it fits no position.
        Operand::Other(t)
            if matches!(slot.shape, Shape::Imm | Shape::RegOrImm)
                && t.bytes().next().is_some_and(|c| c.is_ascii_digit()) =>
        {
            problems.report(Stage::Operand, err(too_wide))?;
            return Ok(placeholder(slot));
        }
        Operand::Imm(v) if fit && *v > slot.max => {
            problems.report(Stage::Operand, err(too_wide))?;
            return Ok(placeholder(slot));
        }
        Operand::Imm(_)
            if matches!(
                slot.shape,
                Shape::Reg | Shape::RegOrAddr | Shape::RegOrVector
            ) =>
        {
            // Its value is kept in `misplaced`.
            problems.lenient(err(shape))?;
            return Ok(placeholder(slot));
        }
        _ if !fit => {
            problems.report(Stage::Operand, err(shape))?;
            return Ok(placeholder(slot));
        }
        _ => {}
    }
    Ok(Some(match op {
        Operand::Name(n) => Arg::Reg(n),
        Operand::Address { base, offset } => {
            if base.is_none() {
                problems.lenient(err(shape))?;
            }
            Arg::Addr(base.unwrap_or(placeholder_name(slot.name)), *offset)
        }
        Operand::Imm(v) => Arg::Imm(*v),
        Operand::Vector(elements) => {
            // A second vector (`tcgen05.ld.spcompress`'s `{r}`) starts where the first ended.
            if w.spelled
                .operands
                .iter()
                .flatten()
                .any(|a| matches!(a, Arg::Vector(_)))
            {
                w.split = Some(w.regs.len());
            }
            for e in elements {
                w.regs.push(match e {
                    Operand::Name(n) => n,
                    _ => {
                        problems.lenient(err(shape))?;
                        placeholder_name(slot.name)
                    }
                });
            }
            Arg::Vector(&[])
        }
        _ => {
            problems.lenient(err(shape))?;
            return Ok(placeholder(slot));
        }
    }))
}
