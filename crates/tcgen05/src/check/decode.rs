//! Read → parse: each tcgen05 instruction of the input decoded once into its typed form by
//! the grammar the writer walks ([`crate::ptx::parse`], [`crate::ptx::syntax`]).
//!
//! A line the grammar reads is its [`Form`]. A line it refuses still has its rules checked
//! (every problem reported, rules.md's "bad input" standard): the same walk of the grammar
//! ([`crate::ptx::walk`]) is made again tolerantly, each qualifier kept in the slot that spells
//! it wherever it stands, each operand of the wrong
//! kind or missing replaced by a placeholder named after its position, and every departure
//! from the grammar kept as a [`FormError`] (an unknown or misplaced qualifier, a missing one,
//! an operand that does not fit). The typed form is then read from that spelling
//! ([`crate::ptx::Instruction::from_spelled`]) unless a qualifier of several values that the
//! form needs (`.cta_group`, `.kind`, a shape, `.num`) is missing.

use alloc::vec::Vec;

use super::{CheckRule, Finding, FindingValue, Rule};
use crate::diagnostic::{Diagnostic, Source};
use crate::ptx::grammar::{Arg, Grammar, Spelled, MAX_OPERANDS};
use crate::ptx::syntax::GRAMMARS;
use crate::ptx::walk::{grammar_of, walk, Tolerant};
use crate::ptx::{self, Form, FormError, FormRule, Instruction, OperandName, PtxError, PtxRule};
use crate::ptx_reader::{self, Operand};

/// One tcgen05 instruction as the checker reads it: its grammar spelling (register vector
/// apart) and what it departs from the grammar in.
pub(crate) struct Decoded<'a> {
    /// The grammar form: as [`ptx::parse`] read it, or as recovered.
    pub(super) spelled: Spelled<'a>,
    /// The elements of the form's register vectors, one after the other.
    regs: Vec<&'a str>,
    /// Where the second register vector starts in `regs` (`tcgen05.ld.spcompress`'s `{r}`
    /// after `{mdata}`); `None` with one vector or none.
    split: Option<usize>,
    /// Every departure from the grammar, in the order: missing qualifiers, operands,
    /// qualifiers.
    pub(super) problems: Vec<FormError<'a>>,
    /// Immediates written where the grammar has a register (`b-desc` as a constant): the
    /// position has a placeholder, and the known-bits checks still read the value.
    misplaced: [Option<u64>; MAX_OPERANDS],
}

impl<'a> Decoded<'a> {
    /// Whether required slot `slot` of the form's grammar is missing.
    pub(crate) fn missing(&self, slot: usize) -> bool {
        let name = self.grammar().slots.get(slot).map(|s| s.name);
        self.problems
            .iter()
            .any(|e| e.rule == FormRule::MissingQualifier && Some(e.what) == name)
    }

    /// The grammar of the form.
    pub(super) fn grammar(&self) -> &'static Grammar {
        self.spelled.grammar
    }

    /// The value of slot `slot`, if written.
    pub(super) fn qual(&self, slot: usize) -> Option<u16> {
        self.spelled.quals[slot]
    }

    /// Operand position `i` (the grammar's index), if present; an immediate written where the
    /// grammar has a register, as the immediate.
    pub(super) fn arg(&self, i: usize) -> Option<Arg<'a>> {
        match self.misplaced.get(i).copied().flatten() {
            Some(v) => Some(Arg::Imm(v)),
            None => self.spelled.operands[i],
        }
    }

    /// The typed form, its register vector borrowing from `self`; `None` where a required
    /// qualifier of several values is missing.
    pub(crate) fn instruction(&self) -> Option<Instruction<'_>> {
        let mut s = self.spelled;
        let (first, second) = self.regs.split_at(self.split.unwrap_or(self.regs.len()));
        let mut vectors = 0;
        for a in s.operands.iter_mut().flatten() {
            if let Arg::Vector(_) = a {
                *a = Arg::Vector(match (self.split, vectors) {
                    (None, _) => &self.regs,
                    (Some(_), 0) => first,
                    (Some(_), _) => second,
                });
                vectors += 1;
            }
        }
        Instruction::from_spelled(&s).ok()
    }

    /// The typed form as a [`Form`] (an immediate written where the grammar has a register
    /// has its placeholder); `None` where a required qualifier of several values is missing.
    pub(super) fn form(&self) -> Option<Form<'a>> {
        Form::from_spelled(self.spelled, self.regs.clone(), self.split)
    }
}

/// Reads `ins`: [`ptx::parse`], or where it refuses the line, the tolerant walk of the
/// grammar.
///
/// # Errors
/// When the instruction is no tcgen05 form at all (`tcgen05.foo`): its [`FormError`].
pub(crate) fn decode<'a>(ins: &ptx_reader::Instruction<'a>) -> Result<Decoded<'a>, FormError<'a>> {
    match ptx::parse(ins) {
        Ok(form) => Ok(of_form(&form)),
        Err(e) if e.rule == FormRule::UnknownInstruction => Err(e),
        Err(_) => recover(ins),
    }
}

fn of_form<'a>(form: &Form<'a>) -> Decoded<'a> {
    Decoded {
        spelled: *form.spelled(),
        regs: form.registers().to_vec(),
        split: form.second_vector(),
        problems: Vec::new(),
        misplaced: [None; MAX_OPERANDS],
    }
}

/// The tolerant walk of the grammar (see the module's documentation).
fn recover<'a>(ins: &ptx_reader::Instruction<'a>) -> Result<Decoded<'a>, FormError<'a>> {
    let (g, first) = grammar_of(ins, &GRAMMARS, "tcgen05", "9.7.16")?;
    let mut problems = Tolerant::default();
    let w = walk(g, first, ins, &mut problems)?;
    let mut d = Decoded {
        spelled: w.spelled,
        regs: w.regs,
        split: w.split,
        problems: problems.into_vec(),
        misplaced: w.misplaced,
    };
    let missing = d
        .problems
        .iter()
        .any(|e| e.rule == FormRule::MissingQualifier);
    if !missing {
        // What the slots cannot say alone (`.b32` with `.red`, `.f32` without it).
        if let Err(mut e) = Instruction::from_spelled(&d.spelled) {
            if e.text.is_empty() {
                e.text = ins.opcode;
            }
            d.problems.push(e);
        }
    }
    Ok(d)
}

/// How the checker's findings have always named a missing qualifier of several values.
fn missing_name(slot: &'static str, form: &'static str) -> &'static str {
    match (slot, form) {
        ("cta_group", _) => ".cta_group::1 / .cta_group::2",
        ("kind", _) => ".kind",
        ("shape", "tcgen05.cp") => "shape (.128x256b, .4x256b, .128x128b, .64x128b, .32x128b)",
        ("shape", _) => "shape (.16x64b, .16x128b, .16x256b, .32x32b, .16x32bx2)",
        ("num", _) => ".num (.x1 .. .x128)",
        _ => slot,
    }
}

/// The operands of each form, as an operand finding names them.
fn operands_name(form: &'static str) -> &'static str {
    match form {
        "tcgen05.mma" => "tcgen05.mma [d-tmem], a-desc|[a-tmem], b-desc, {[sp-meta],} idesc, {[scale-A], [scale-B],} {disable-output-lane,} enable-input-d {, scale-input-d | zero-column-mask}",
        "tcgen05.ld" | "tcgen05.st" => "a register vector {...}",
        "tcgen05.cp" => "tcgen05.cp [taddr], s-desc",
        "tcgen05.alloc" | "tcgen05.dealloc" => "two operands",
        "tcgen05.commit" => "[mbar] {, ctaMask}",
        _ => "no operands",
    }
}

/// The operand an immediate position is, as findings name it.
fn operand_name(position: &str) -> Option<OperandName> {
    Some(match position {
        "idesc" => OperandName::Idesc,
        "nCols" => OperandName::NCols,
        "enable-input-d" => OperandName::EnableInputD,
        "zero-column-mask-desc" => OperandName::ZeroColumnMask,
        "ctaMask" => OperandName::CtaMask,
        "s-desc" => OperandName::Sdesc,
        _ => return None,
    })
}

/// The finding of a departure `e` of `ins` from its grammar: the checker's rule of that kind,
/// the slot or operand, the text as written (by its place in the statement) and, for the
/// rules of the grammar's own, the form's section. One finding for all the operands of an
/// instruction (`operands_reported`).
pub(super) fn finding(
    e: &FormError<'_>,
    ins: &ptx_reader::Instruction<'_>,
    operands_reported: &mut bool,
) -> Option<Finding> {
    let line = ins.line;
    let span = |t: &str| {
        let start = ins.text.find(t).unwrap_or(0);
        FindingValue::Text(start, start + t.len())
    };
    let grammar_rule = |rule: CheckRule| {
        let mut f = rule.finding(None, e.what, span(e.text), line);
        f.source = Source::PtxSection(e.section);
        f
    };
    Some(match e.rule {
        FormRule::UnknownInstruction
        | FormRule::UnknownQualifier
        | FormRule::QualifierNeeds { .. }
        | FormRule::QualifierExcludes { .. } => {
            CheckRule::UnknownQualifier.finding(None, "qualifier", span(e.text), line)
        }
        FormRule::DuplicateQualifier => grammar_rule(CheckRule::DuplicateQualifier),
        FormRule::QualifierOrder { .. } => grammar_rule(CheckRule::QualifierOrder),
        FormRule::MissingQualifier => CheckRule::MissingQualifier.finding(
            None,
            "qualifier",
            FindingValue::Name(missing_name(e.what, e.form)),
            line,
        ),
        FormRule::MissingOperand | FormRule::OperandShape { .. } | FormRule::ExtraOperand => {
            if core::mem::replace(operands_reported, true) {
                return None;
            }
            CheckRule::Operands.finding(
                None,
                "operands",
                FindingValue::Name(operands_name(e.form)),
                line,
            )
        }
        FormRule::ImmediateTooWide { .. } => {
            let imm = match e.operand.and_then(|k| ins.operands.get(k)) {
                Some(Operand::Imm(v)) => Some(*v),
                _ => None,
            };
            if let (Some(v), "scale-input-d") = (imm, e.what) {
                let rule = PtxError::Rule {
                    rule: PtxRule::ScaleInputDRange,
                    value: v,
                    name: None,
                };
                return Some(Finding {
                    severity: rule.severity(),
                    operand: None,
                    field: rule.field(),
                    value: FindingValue::Number(v),
                    rule: Rule::Ptx(rule),
                    source: rule.source(),
                    line,
                    candidate: None,
                });
            }
            let operand = operand_name(e.what);
            let field = operand.map_or(e.what, OperandName::name);
            let value = imm.map_or_else(|| span(e.text), FindingValue::Number);
            CheckRule::ImmediateTooWide.finding(operand, field, value, line)
        }
    })
}
