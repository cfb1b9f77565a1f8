//! Read → parse: each tcgen05 instruction of the input decoded once into its typed form by
//! the grammar the writer walks ([`crate::ptx::parse`], [`crate::ptx::syntax`]).
//!
//! A line the grammar reads is its [`Form`]. A line it refuses still has its rules checked
//! (every problem reported, rules.md's "bad input" standard): the same grammar is walked again
//! tolerantly, each slot looked up wherever its qualifier stands, each operand of the wrong
//! kind or missing replaced by a placeholder named after its position, and every departure
//! from the grammar kept as a [`FormError`] (an unknown or misplaced qualifier, a missing one,
//! an operand that does not fit). The typed form is then read from that spelling
//! ([`crate::ptx::Instruction::from_spelled`]) unless a qualifier of several values that the
//! form needs (`.cta_group`, `.kind`, a shape, `.num`) is missing.

use alloc::vec::Vec;

use super::{CheckRule, Finding, FindingValue, Rule};
use crate::diagnostic::{Diagnostic, Source};
use crate::ptx::grammar::{
    Arg, Grammar, OperandSlot, Shape, Spelled, When, MAX_OPERANDS, MAX_SLOTS,
};
use crate::ptx::syntax::GRAMMARS;
use crate::ptx::{self, Form, FormError, FormRule, Instruction, OperandName, PtxError, PtxRule};
use crate::ptx_reader::{self, Operand};

/// One tcgen05 instruction as the checker reads it: its grammar spelling (register vector
/// apart) and what it departs from the grammar in.
pub(super) struct Decoded<'a> {
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
    pub(super) fn instruction(&self) -> Option<Instruction<'_>> {
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
pub(super) fn decode<'a>(ins: &ptx_reader::Instruction<'a>) -> Result<Decoded<'a>, FormError<'a>> {
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

/// The tolerant walk of the grammar (see the module's documentation).
fn recover<'a>(ins: &ptx_reader::Instruction<'a>) -> Result<Decoded<'a>, FormError<'a>> {
    let mut quals = ins.qualifiers();
    let first = quals.next().unwrap_or(ins.opcode);
    let Some((g, v)) = GRAMMARS
        .iter()
        .find_map(|g| g.slots[0].value_of(first).map(|v| (*g, v)))
    else {
        return Err(error(
            &crate::ptx::syntax::FENCE,
            FormRule::UnknownInstruction,
            "instruction",
            first,
            None,
        ));
    };
    let mut d = Decoded {
        spelled: Spelled::empty(g).q(0, v),
        regs: Vec::new(),
        split: None,
        problems: Vec::new(),
        misplaced: [None; MAX_OPERANDS],
    };
    let mut late = Vec::new();
    recover_qualifiers(g, quals, &mut d.spelled, &mut late);
    for (j, slot) in g.slots.iter().enumerate() {
        if slot.required && d.spelled.quals[j].is_none() {
            d.problems
                .push(error(g, FormRule::MissingQualifier, slot.name, "", None));
            if slot.values.len() == 1 && slot.numbered.is_none() {
                // A slot of one spelling (`.sync`): the form is the same with it.
                d.spelled.quals[j] = Some(0);
            }
        }
    }
    recover_operands(g, ins, &mut d);
    d.problems.extend(late);
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

/// Each qualifier after the instruction's into the slot that spells it, wherever it stands;
/// a qualifier no slot spells, one written twice or out of order, one without the slot it
/// needs, into `problems` (and left out of the form).
fn recover_qualifiers<'a>(
    g: &'static Grammar,
    quals: impl Iterator<Item = &'a str>,
    spelled: &mut Spelled<'a>,
    problems: &mut Vec<FormError<'a>>,
) {
    let slots = g.slots;
    let mut last = 0;
    let mut written: [&'a str; MAX_SLOTS] = [""; MAX_SLOTS];
    for q in quals {
        let Some((j, v)) = (1..slots.len()).find_map(|j| slots[j].value_of(q).map(|v| (j, v)))
        else {
            problems.push(error(g, FormRule::UnknownQualifier, "qualifier", q, None));
            continue;
        };
        if spelled.quals[j].is_some() {
            problems.push(error(
                g,
                FormRule::DuplicateQualifier,
                slots[j].name,
                q,
                None,
            ));
        } else if j < last {
            let after = slots[last].name;
            problems.push(error(
                g,
                FormRule::QualifierOrder { after },
                slots[j].name,
                q,
                None,
            ));
        }
        spelled.quals[j] = Some(v);
        written[j] = q;
        last = last.max(j);
    }
    // A slot without the one it goes with (`.scale_vec` without `.block_scale`) is no part of
    // the form: left out, as unknown.
    for (j, slot) in slots.iter().enumerate() {
        if let (Some(_), Some(n)) = (spelled.quals[j], slot.needs) {
            if spelled.quals[n].is_none() {
                let text = written[j];
                problems.push(error(
                    g,
                    FormRule::QualifierNeeds {
                        needs: slots[n].name,
                    },
                    slot.name,
                    text,
                    None,
                ));
                spelled.quals[j] = None;
            }
        }
    }
}

/// Whether `op` can stand in a position of `shape` (as [`ptx::parse`] reads it).
fn fits(op: &Operand<'_>, shape: Shape) -> bool {
    match op {
        Operand::Name(_) => matches!(shape, Shape::Reg | Shape::RegOrAddr | Shape::RegOrImm),
        Operand::Address { .. } => matches!(shape, Shape::Addr | Shape::RegOrAddr),
        Operand::Imm(_) => matches!(shape, Shape::Imm | Shape::RegOrImm),
        Operand::Vector(_) => shape == Shape::Vector,
        _ => false,
    }
}

/// The name of operand position `position` as a PTX identifier (`d-tmem` -> `d_tmem`): what
/// stands in for it where the line has no register there.
pub(super) fn placeholder_name(position: &'static str) -> &'static str {
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
        Shape::Reg | Shape::RegOrAddr | Shape::RegOrImm => Some(Arg::Reg(name)),
        Shape::Addr => Some(Arg::Addr(name, 0)),
        Shape::Vector => Some(Arg::Vector(&[])),
        Shape::Imm => None,
    }
}

/// The operands, position by position as [`ptx::parse`] takes them; a missing operand or one
/// of the wrong kind is a placeholder, an immediate too wide for its position one too.
fn recover_operands<'a>(
    g: &'static Grammar,
    ins: &ptx_reader::Instruction<'a>,
    d: &mut Decoded<'a>,
) {
    let ops = &ins.operands;
    let mut k = 0;
    for (i, slot) in g.operands.iter().enumerate() {
        let has = |s: usize| d.spelled.quals[s].is_some();
        let present = match slot.when {
            When::Always => Some(true),
            When::With(s) => Some(has(s)),
            When::Optional => None,
            When::OptionalWith(s) => (!has(s)).then_some(false),
            When::OptionalWithout(s) => has(s).then_some(false),
        };
        let take = present.unwrap_or_else(|| ops.get(k).is_some_and(|op| fits(op, slot.shape)));
        if !take {
            continue;
        }
        // A register vector where this position holds none: this one is missing (`tcgen05.st`
        // without its address).
        let later = |op: &Operand<'_>| {
            matches!(op, Operand::Vector(_))
                && !fits(op, slot.shape)
                && g.operands
                    .get(i + 1..)
                    .is_some_and(|rest| rest.iter().any(|s| fits(op, s.shape)))
        };
        let Some(op) = ops.get(k).filter(|op| !later(op)) else {
            d.problems
                .push(error(g, FormRule::MissingOperand, slot.name, "", Some(k)));
            d.spelled.operands[i] = placeholder(slot);
            continue;
        };
        if let (Operand::Imm(v), false) = (op, fits(op, slot.shape)) {
            d.misplaced[i] = Some(*v);
        }
        d.spelled.operands[i] = recover_operand(g, k, slot, op, d);
        k += 1;
    }
    if k < ops.len() {
        d.problems
            .push(error(g, FormRule::ExtraOperand, "operands", "", Some(k)));
    }
}

fn recover_operand<'a>(
    g: &'static Grammar,
    k: usize,
    slot: &OperandSlot,
    op: &Operand<'a>,
    d: &mut Decoded<'a>,
) -> Option<Arg<'a>> {
    let too_wide = |text| {
        error(
            g,
            FormRule::ImmediateTooWide { max: slot.max },
            slot.name,
            text,
            Some(k),
        )
    };
    match op {
        // A decimal too large for 64 bits (`99999999999999999999999`): the reader keeps it as
        // written; it fits no position.
        Operand::Other(w)
            if matches!(slot.shape, Shape::Imm | Shape::RegOrImm)
                && w.bytes().next().is_some_and(|c| c.is_ascii_digit()) =>
        {
            d.problems.push(too_wide(w));
            return placeholder(slot);
        }
        Operand::Imm(v) if fits(op, slot.shape) && *v > slot.max => {
            d.problems.push(too_wide(""));
            return placeholder(slot);
        }
        _ => {}
    }
    if let (Operand::Imm(_), Shape::Reg | Shape::RegOrAddr) = (op, slot.shape) {
        // An immediate descriptor where the syntax has a register (`tcgen05 emulate` writes
        // its lines so): its value is read (see [`Decoded::arg`]), as the checker always has.
        return placeholder(slot);
    }
    if !fits(op, slot.shape) {
        d.problems.push(error(
            g,
            FormRule::OperandShape {
                expected: slot.shape,
            },
            slot.name,
            "",
            Some(k),
        ));
        return placeholder(slot);
    }
    Some(match op {
        Operand::Name(n) => Arg::Reg(n),
        Operand::Address { base, offset } => {
            Arg::Addr(base.unwrap_or(placeholder_name(slot.name)), *offset)
        }
        Operand::Imm(v) => Arg::Imm(*v),
        Operand::Vector(elements) => {
            // A second vector (`tcgen05.ld.spcompress`'s `{r}`) starts where the first ended.
            let earlier = d.spelled.operands.iter().flatten();
            if earlier.filter(|a| matches!(a, Arg::Vector(_))).count() > 0 {
                d.split = Some(d.regs.len());
            }
            for e in elements {
                d.regs.push(match e {
                    Operand::Name(n) => n,
                    _ => placeholder_name(slot.name),
                });
            }
            Arg::Vector(&[])
        }
        _ => return placeholder(slot),
    })
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
