//! Reading a tcgen05 instruction of a PTX file into its typed form, by the same grammar the
//! writer walks ([`crate::ptx::syntax`]): [`parse`].
//!
//! # Examples
//! ```
//! use tcgen05::ptx::{parse, Instruction};
//! use tcgen05::ptx_reader::read;
//!
//! let module = read(b"tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r2}, [%r3];");
//! let ins = &module.functions[0].instructions[0];
//! let form = parse(ins).unwrap();
//! assert!(matches!(form.instruction(), Instruction::Load(l) if l.dst == ["%r1", "%r2"]));
//! let mut line = String::new();
//! form.instruction().write_unchecked(&mut line).unwrap();
//! assert_eq!(line, "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1,%r2}, [%r3];");
//!
//! // A misspelled qualifier is refused, naming it.
//! let module = read(b"tcgen05.ld.sync.aligned.32x32b.x2.b23 {%r1, %r2}, [%r3];");
//! let e = parse(&module.functions[0].instructions[0]).unwrap_err();
//! assert_eq!(e.text, "b23");
//! ```

use ::alloc::vec::Vec;
use core::fmt;

use super::form_error::{FormError, FormRule};
use super::grammar::{write_spelled, Arg, Grammar, OperandSlot, Shape, Since, Spelled, When};
use super::qualifier_order::read_in_order;
use super::syntax::GRAMMARS;
use super::{Instruction, Syntax};
use crate::ptx_reader::{self, Operand};

/// A tcgen05 instruction read from PTX: its typed form ([`Form::instruction`]) and its
/// grammar form ([`Form::spelled`]).
///
/// An address operand may carry a constant offset (Triton writes A's Tensor Memory address as
/// `[%r835 + 8]`): the typed forms hold the register alone, so the offset is kept here
/// ([`Form::address_offset`]) and written back by [`Form::write_unchecked`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form<'a> {
    /// The form with its register vector left empty (it lives in `regs`).
    shell: Instruction<'a>,
    spelled: Spelled<'a>,
    /// The elements of the form's register vectors, if it has any, one after the other.
    regs: Vec<&'a str>,
    /// Where the second register vector starts in `regs` (`tcgen05.ld.spcompress`'s `{r}`
    /// after `{mdata}`); `regs.len()` with one vector or none.
    split: usize,
}

impl<'a> Form<'a> {
    /// The typed form; its register vector borrows from `self`.
    #[must_use]
    pub fn instruction(&self) -> Instruction<'_> {
        let regs: &[&str] = &self.regs;
        match self.shell {
            Instruction::Mma(mut m) => {
                if m.disable_output_lane.is_some() {
                    m.disable_output_lane = Some(regs);
                }
                Instruction::Mma(m)
            }
            Instruction::Load(mut l) => {
                l.dst = regs;
                if let Some(sp) = &mut l.spcompress {
                    sp.mdata = &regs[..self.split];
                    l.dst = &regs[self.split..];
                }
                Instruction::Load(l)
            }
            Instruction::Store(mut s) => {
                s.src = regs;
                Instruction::Store(s)
            }
            other => other,
        }
    }

    /// The elements of the form's register vector (`tcgen05.ld`'s destinations,
    /// `tcgen05.st`'s sources, an MMA's disable-output-lane), as written; empty without one.
    /// `tcgen05.ld.spcompress` has two: `{mdata}` then `{r}`, both here, in that order.
    #[must_use]
    pub fn registers(&self) -> &[&'a str] {
        &self.regs
    }

    /// Where the second register vector starts in [`Form::registers`]
    /// (`tcgen05.ld.spcompress`'s `{r}` after `{mdata}`); `None` with one vector or none.
    #[must_use]
    pub fn second_vector(&self) -> Option<usize> {
        let vectors = self.spelled.operands.iter().flatten();
        let n = vectors.filter(|a| matches!(a, Arg::Vector(_))).count();
        (n > 1).then_some(self.split)
    }

    /// The constant offset of address operand `operand` (the grammar's operand index) as
    /// written: 8 for `[%r835 + 8]`; 0 for `[%r835]` and for any other operand.
    #[must_use]
    pub fn address_offset(&self, operand: usize) -> i64 {
        match self.spelled.operands.get(operand) {
            Some(Some(Arg::Addr(_, o))) => *o,
            _ => 0,
        }
    }

    /// True when an address operand has a nonzero offset, which [`Form::instruction`] does
    /// not hold.
    #[must_use]
    pub fn has_address_offset(&self) -> bool {
        (0..self.spelled.operands.len()).any(|i| self.address_offset(i) != 0)
    }

    /// Writes the form as read (address offsets included; one line ending in `;`), in the
    /// grammar's spelling, without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        let mut s = self.spelled;
        let (first, second) = self.regs.split_at(self.split);
        let mut vectors = 0;
        for a in s.operands.iter_mut().flatten() {
            if let Arg::Vector(_) = a {
                // With two vectors the first is `regs[..split]`; with one, `split` is its end.
                let two = self.split < self.regs.len() || vectors > 0;
                *a = Arg::Vector(match (two, vectors) {
                    (false, _) => &self.regs,
                    (true, 0) => first,
                    (true, _) => second,
                });
                vectors += 1;
            }
        }
        write_spelled(w, &s, Syntax::Ptx)
    }

    /// The grammar form as read (its register vector empty: see [`Form::instruction`]).
    #[must_use]
    pub const fn spelled(&self) -> &Spelled<'a> {
        &self.spelled
    }

    /// The grammar of the form.
    #[must_use]
    pub const fn grammar(&self) -> &'static Grammar {
        self.spelled.grammar
    }

    /// The PTX ISA version and target that introduced the form as written, and the qualifier
    /// that needs them (the instruction's own slot when no qualifier needs more).
    #[must_use]
    pub fn introduced(&self) -> (Since, &'static str) {
        let g = self.grammar();
        let (_, slot, v) = g.min_version(&self.spelled);
        (g.slots[slot].since_of(v), g.slots[slot].name)
    }
}

impl<'a> Form<'a> {
    /// The form of a grammar spelling (its register vectors' elements in `regs`, the second
    /// one, if any, from `split` on), as the checker's tolerant reading recovers it; `None`
    /// where the spelling is no typed form.
    pub(crate) fn from_spelled(
        spelled: Spelled<'a>,
        regs: Vec<&'a str>,
        split: Option<usize>,
    ) -> Option<Form<'a>> {
        // As [`parse`] keeps it: the register vector apart, in `regs`.
        let mut spelled = spelled;
        for a in spelled.operands.iter_mut().flatten() {
            if let Arg::Vector(_) = a {
                *a = Arg::Vector(&[]);
            }
        }
        let shell = Instruction::from_spelled(&spelled).ok()?;
        let split = split.unwrap_or(regs.len());
        Some(Form {
            shell,
            spelled,
            regs,
            split,
        })
    }
}

fn error<'a>(
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

/// Reads `ins` (a `tcgen05.*` instruction from [`ptx_reader`]) into its typed form.
///
/// The qualifiers must be those of the form's grammar, each once, in the grammar's order;
/// the operands those of the form, in order, of the kinds it takes. Whether the form is legal
/// (which kinds go with which qualifiers, operand counts against shapes, descriptor values) is
/// not the grammar's business: [`Instruction::validate`] says so on the typed form. The guard
/// (`@%p1`) is not part of the form: it stays in `ins.guard`.
///
/// # Errors
/// The first [`FormError`]: an unknown instruction or qualifier, a qualifier twice, out of
/// order, missing, or without the one it needs; an operand missing, extra, of the wrong kind,
/// or an immediate too wide.
pub fn parse<'a>(ins: &ptx_reader::Instruction<'a>) -> Result<Form<'a>, FormError<'a>> {
    let unknown = |text| {
        Err(FormError {
            rule: FormRule::UnknownInstruction,
            form: "tcgen05",
            what: "instruction",
            text,
            operand: None,
            section: "9.7.16",
        })
    };
    if ins.base() != "tcgen05" {
        return unknown(ins.opcode);
    }
    let mut quals = ins.qualifiers();
    let Some(first) = quals.next() else {
        return unknown(ins.opcode);
    };
    let found = GRAMMARS
        .iter()
        .find_map(|g| g.slots[0].value_of(first).map(|v| (*g, v)));
    let Some((g, v)) = found else {
        return unknown(first);
    };
    let mut spelled = Spelled::empty(g).q(0, v);
    read_qualifiers(g, quals, &mut spelled)?;
    let mut regs = Vec::new();
    let split = read_operands(g, ins, &mut spelled, &mut regs)?;
    let shell = Instruction::from_spelled(&spelled).map_err(|mut e| {
        if e.text.is_empty() {
            e.text = ins.opcode;
        }
        e
    })?;
    Ok(Form {
        shell,
        spelled,
        regs,
        split,
    })
}

fn read_qualifiers<'a>(
    g: &'static Grammar,
    quals: impl Iterator<Item = &'a str>,
    spelled: &mut Spelled<'a>,
) -> Result<(), FormError<'a>> {
    let slots = g.slots;
    read_in_order(slots, quals, &mut spelled.quals)
        .map_err(|(rule, what, q)| error(g, rule, what, q, None))?;
    for (j, slot) in slots.iter().enumerate() {
        if slot.required && spelled.quals[j].is_none() {
            return Err(error(g, FormRule::MissingQualifier, slot.name, "", None));
        }
        if let (Some(v), Some(n)) = (spelled.quals[j], slot.needs) {
            if spelled.quals[n].is_none() {
                let needs = slots[n].name;
                let written = static_spelling(slot, v);
                return Err(error(
                    g,
                    FormRule::QualifierNeeds { needs },
                    slot.name,
                    written,
                    None,
                ));
            }
        }
    }
    Ok(())
}

/// The spelling of value `v` of `slot` without its leading dot, where it is one static string
/// (every fixed value); the slot's name otherwise.
fn static_spelling(slot: &super::grammar::Slot, v: u16) -> &'static str {
    match slot.values.get(usize::from(v)) {
        Some(s) if slot.prefix.is_empty() => s.strip_prefix('.').unwrap_or(s),
        Some(s) => s,
        None => slot.name,
    }
}

/// Operand `k` of `ins` as written (split at the commas outside braces and brackets, trimmed),
/// or the whole statement where the text has no such operand.
fn operand_text<'a>(ins: &ptx_reader::Instruction<'a>, k: usize) -> &'a str {
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

/// Whether `op` can stand in a position of `shape`.
fn fits(op: &Operand<'_>, shape: Shape) -> bool {
    match op {
        Operand::Name(_) => matches!(shape, Shape::Reg | Shape::RegOrAddr | Shape::RegOrImm),
        Operand::Address { .. } => matches!(shape, Shape::Addr | Shape::RegOrAddr),
        Operand::Imm(_) => matches!(shape, Shape::Imm | Shape::RegOrImm),
        Operand::Vector(_) => shape == Shape::Vector,
        _ => false,
    }
}

fn read_operand<'a>(
    g: &'static Grammar,
    ins: &ptx_reader::Instruction<'a>,
    k: usize,
    slot: &OperandSlot,
    regs: &mut Vec<&'a str>,
) -> Result<Arg<'a>, FormError<'a>> {
    let shape_error = error(
        g,
        FormRule::OperandShape {
            expected: slot.shape,
        },
        slot.name,
        operand_text(ins, k),
        Some(k),
    );
    let Some(op) = ins.operands.get(k) else {
        return Err(error(g, FormRule::MissingOperand, slot.name, "", Some(k)));
    };
    if !fits(op, slot.shape) {
        return Err(shape_error);
    }
    Ok(match op {
        Operand::Name(n) => Arg::Reg(n),
        Operand::Address {
            base: Some(b),
            offset,
        } => Arg::Addr(b, *offset),
        Operand::Imm(v) if *v <= slot.max => Arg::Imm(*v),
        Operand::Imm(_) => {
            return Err(error(
                g,
                FormRule::ImmediateTooWide { max: slot.max },
                slot.name,
                operand_text(ins, k),
                Some(k),
            ))
        }
        Operand::Vector(elements) => {
            for e in elements {
                match e {
                    Operand::Name(n) => regs.push(n),
                    _ => return Err(shape_error),
                }
            }
            Arg::Vector(&[])
        }
        _ => return Err(shape_error),
    })
}

fn read_operands<'a>(
    g: &'static Grammar,
    ins: &ptx_reader::Instruction<'a>,
    spelled: &mut Spelled<'a>,
    regs: &mut Vec<&'a str>,
) -> Result<usize, FormError<'a>> {
    let mut k = 0;
    // Where the second register vector starts (`regs.len()` with fewer than two).
    let mut split = None;
    let mut vectors = 0;
    for (i, slot) in g.operands.iter().enumerate() {
        let has = |s: usize| spelled.quals[s].is_some();
        let present = match slot.when {
            When::Always => Some(true),
            When::With(s) => Some(has(s)),
            When::Optional => None,
            When::OptionalWith(s) => (!has(s)).then_some(false),
            When::OptionalWithout(s) => has(s).then_some(false),
        };
        let take = match present {
            Some(p) => p,
            None => ins.operands.get(k).is_some_and(|op| fits(op, slot.shape)),
        };
        if take {
            if slot.shape == Shape::Vector {
                if vectors == 1 {
                    split = Some(regs.len());
                }
                vectors += 1;
            }
            spelled.operands[i] = Some(read_operand(g, ins, k, slot, regs)?);
            k += 1;
        }
    }
    if k < ins.operands.len() {
        return Err(error(
            g,
            FormRule::ExtraOperand,
            "operands",
            operand_text(ins, k),
            Some(k),
        ));
    }
    Ok(split.unwrap_or(regs.len()))
}
