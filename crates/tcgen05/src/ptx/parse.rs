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

use super::form_error::FormError;
use super::grammar::{write_spelled, Arg, Grammar, Since, Spelled};
use super::syntax::GRAMMARS;
use super::walk::{grammar_of, walk, Strict};
use super::{Instruction, Syntax};
use crate::ptx_reader;

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
    let (g, first) = grammar_of(ins, &GRAMMARS, "tcgen05", "9.7.16")?;
    let w = walk(g, first, ins, &mut Strict)?;
    let shell = Instruction::from_spelled(&w.spelled).map_err(|mut e| {
        if e.text.is_empty() {
            e.text = ins.opcode;
        }
        e
    })?;
    Ok(Form {
        shell,
        spelled: w.spelled,
        split: w.split.unwrap_or(w.regs.len()),
        regs: w.regs,
    })
}
