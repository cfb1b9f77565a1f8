//! The grammar round trip on PTX text, shared by `tests/grammar.rs` (the committed examples)
//! and `tests/check_corpus.rs` (the generated check corpus): every `tcgen05.*` line is parsed
//! with `tcgen05::ptx::parse` and written back, and must be the line as written up to
//! whitespace; mutations of each line's qualifiers must be refused by the rule they break.

use tcgen05::ptx::{parse, FormRule};
use tcgen05::ptx_reader::{self, Instruction};

/// What the round trip found in some text.
#[derive(Debug, Default)]
pub struct Tally {
    /// tcgen05 lines seen.
    pub lines: usize,
    /// Lines parsed and written back identical up to whitespace.
    pub round_tripped: usize,
    /// Mutated lines refused with the expected rule.
    pub mutations_refused: usize,
    /// What went wrong (line and why).
    pub failures: Vec<String>,
}

/// The text without whitespace, and without zero address offsets (`[%r1 + 0]` is `[%r1]`).
fn squash(s: &str) -> String {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    s.replace("+0]", "]")
}

/// The statement from its opcode to its `;`, without the guard.
fn statement<'a>(ins: &Instruction<'a>) -> &'a str {
    let start = ins.text.find(ins.opcode).unwrap_or(0);
    &ins.text[start..]
}

/// The mutations of a line's qualifiers and the rule each must be refused by: each qualifier
/// after the instruction dropped (where the grammar requires it), doubled, swapped with the
/// next, and misspelled.
fn mutations(opcode: &str) -> Vec<(String, &'static str)> {
    let parts: Vec<&str> = opcode.split('.').collect();
    let mut out = Vec::new();
    // parts[0] = "tcgen05", parts[1] = the instruction.
    for i in 2..parts.len() {
        let mut doubled = parts.clone();
        doubled.insert(i, parts[i]);
        out.push((doubled.join("."), "duplicate"));
        let mut misspelled = parts.clone();
        let bad = format!("{}x", parts[i]);
        misspelled[i] = &bad;
        out.push((misspelled.join("."), "unknown"));
        if i + 1 < parts.len() && parts[i] != parts[i + 1] {
            let mut swapped = parts.clone();
            swapped.swap(i, i + 1);
            out.push((swapped.join("."), "order"));
        }
        let mut dropped = parts.clone();
        dropped.remove(i);
        out.push((dropped.join("."), "dropped"));
    }
    out
}

fn rule_fits(rule: FormRule, expected: &str) -> bool {
    match expected {
        "duplicate" => rule == FormRule::DuplicateQualifier,
        "unknown" => rule == FormRule::UnknownQualifier,
        "order" => matches!(rule, FormRule::QualifierOrder { .. }),
        _ => false,
    }
}

impl Tally {
    /// Round-trips and mutates every tcgen05 line of `text` (named `name` in failures).
    pub fn add_text(&mut self, name: &str, text: &str) {
        let module = ptx_reader::read(text.as_bytes());
        for f in &module.functions {
            for ins in f.instructions.iter().filter(|i| i.base() == "tcgen05") {
                self.add_instruction(name, text, ins);
            }
        }
    }

    fn add_instruction(&mut self, name: &str, text: &str, ins: &Instruction<'_>) {
        self.lines += 1;
        let written = statement(ins);
        let form = match parse(ins) {
            Ok(form) => form,
            Err(e) => {
                self.failures
                    .push(format!("{name}:{}: `{written}` refused: {e}", ins.line));
                return;
            }
        };
        let mut back = String::new();
        form.write_unchecked(&mut back)
            .expect("a String never fails");
        if squash(&back) == squash(&format!("{written};")) {
            self.round_tripped += 1;
        } else {
            self.failures.push(format!(
                "{name}:{}: `{written}` written back as `{back}`",
                ins.line
            ));
        }
        let _ = text;
        for (opcode, expected) in mutations(ins.opcode) {
            let line = format!("{};", written.replacen(ins.opcode, &opcode, 1));
            let module = ptx_reader::read(line.as_bytes());
            let Some(m) = module
                .functions
                .first()
                .and_then(|f| f.instructions.first())
            else {
                self.failures.push(format!("{name}: `{line}` not read"));
                continue;
            };
            match parse(m) {
                // Dropping an optional qualifier gives another form; a required one is refused.
                Ok(_) if expected == "dropped" => {}
                Err(e) if expected == "dropped" => {
                    if e.rule == FormRule::MissingQualifier
                        || matches!(
                            e.rule,
                            FormRule::QualifierNeeds { .. }
                                | FormRule::MissingOperand
                                | FormRule::ExtraOperand
                                | FormRule::OperandShape { .. }
                        )
                    {
                        self.mutations_refused += 1;
                    } else {
                        self.failures
                            .push(format!("{name}: `{line}` (dropped) refused as {e}"));
                    }
                }
                Err(e) if rule_fits(e.rule, expected) => self.mutations_refused += 1,
                Err(e) => self
                    .failures
                    .push(format!("{name}: `{line}` ({expected}) refused as {e}")),
                Ok(_) => self
                    .failures
                    .push(format!("{name}: `{line}` ({expected}) accepted")),
            }
        }
    }
}
