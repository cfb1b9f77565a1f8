//! A whole PTX program as the emulator reads it: the text `tcgen05 check` reads (a module with
//! `.version`, `.target`, declarations, labels and every instruction a compiler writes), one
//! statement per line.
//!
//! The model executes `tcgen05` instructions only. Everything else is classified, never
//! executed and never an error: module framing (directives, declarations, braces, labels,
//! comments) is [`Statement::Framing`]; any other instruction is [`Statement::Other`], whose
//! results the model does not compute. A `tcgen05` instruction's register and variable operands
//! are replaced by their values before it runs: the values given by the user
//! ([`Program::set`]) or, for the descriptor operands of `tcgen05.mma`, the values `tcgen05
//! check`'s known-bits analysis proves in full (every bit known). An operand with neither is
//! [`ProgramError::NoValue`], naming the register and the line: the model never invents a
//! value. A guard predicate is read the same way: `@p` with `p` = 0 skips the instruction.
//!
//! One `.cta_group` per kernel: "all tcgen05 instructions in a kernel must use the same
//! `.cta_group`" (PTX ISA 9.7.16, the PTX ISA 9.0 clarification; ptxas 13.5 refuses the mix).
//! A program that mixes them is [`ProgramError::CtaGroupMixed`] at the first instruction that
//! differs.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::check::{self, Options};
use crate::ptx_reader::{self, Operand};
use crate::targets::Target;

/// What one line of a program is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// Nothing to execute: blank, a comment, a directive or declaration (`.version`, `.target`,
    /// `.reg`, `.shared`, `.entry` and its parameters), a brace or a label.
    Framing,
    /// An instruction whose guard predicate has the value 0: not executed.
    GuardFalse,
    /// An instruction other than `tcgen05` (its opcode): the functional model does not
    /// execute it, and the registers it writes have no value unless given.
    Other(String),
    /// A `tcgen05` instruction, with every register and variable operand replaced by its value
    /// (hexadecimal), ready for [`Machine::execute`](super::Machine::execute).
    Tcgen05(String),
}

/// Why a line of a program cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramError {
    /// A register or variable the instruction reads has no value: none was given, and the
    /// checker's known-bits analysis does not prove every bit of it.
    NoValue {
        /// The register or variable as written (`%r532`, `taddr`).
        name: String,
    },
    /// The instruction's `.cta_group` differs from the kernel's first tcgen05 instruction's.
    CtaGroupMixed {
        /// The `.cta_group` of the first tcgen05 instruction.
        first: u8,
        /// Its 1-based line.
        first_line: usize,
        /// This instruction's `.cta_group`.
        this: u8,
    },
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramError::NoValue { name } => write!(
                f,
                "register {name} has no value: the emulator executes tcgen05 instructions only, \
                 and {name} is neither given (--reg {name}=VALUE) nor proven in full by the \
                 checker's known-bits analysis"
            ),
            ProgramError::CtaGroupMixed {
                first,
                first_line,
                this,
            } => write!(
                f,
                ".cta_group::{this} after .cta_group::{first} (line {first_line}): all tcgen05 \
                 instructions in a kernel must use the same .cta_group (PTX ISA 9.7.16)"
            ),
        }
    }
}

impl core::error::Error for ProgramError {}

/// A program being run: the values of its registers and variables, and the `.cta_group` its
/// kernel uses.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Values given by the user, by name.
    given: BTreeMap<String, u64>,
    /// Values the checker proves, by 1-based line: (name, value).
    proven: BTreeMap<usize, Vec<(String, u64)>>,
    /// The first tcgen05 instruction's `.cta_group` and its line.
    cta_group: Option<(u8, usize)>,
}

impl Program {
    /// Reads `text` once with `tcgen05 check`'s analysis, keeping the fully known descriptor
    /// operands (`a_desc`, `b_desc`, `idesc`) of every `tcgen05.mma`.
    #[must_use]
    pub fn new(text: &str, target: Target) -> Program {
        let report = check::check(
            text.as_bytes(),
            // Values the emulator runs with are proven, not assumed: rules.md R7 stays off.
            &Options {
                target: Some(target),
                no_assume: true,
            },
        );
        let mut proven: BTreeMap<usize, Vec<(String, u64)>> = BTreeMap::new();
        for i in &report.instructions {
            if !i.instruction.starts_with("tcgen05.mma") {
                continue;
            }
            // The report's text stops before the `;` that read_instruction wants.
            let statement = format!("{};", i.text.trim_end().trim_end_matches(';'));
            let Ok(ins) = ptx_reader::read_instruction(&statement) else {
                continue;
            };
            let sparse = i.instruction.split('.').any(|q| q == "sp");
            let idesc_at = if sparse { 4 } else { 3 };
            let full = |k: Option<check::KnownBits>| k.filter(|k| k.known == u64::MAX);
            let mut put = |at: usize, v: Option<u64>| {
                if let (Some(Operand::Name(n)), Some(v)) = (ins.operands.get(at), v) {
                    proven
                        .entry(i.line as usize)
                        .or_default()
                        .push(((*n).to_string(), v));
                }
            };
            put(1, full(i.a_desc).map(|k| k.value));
            put(2, full(i.b_desc).map(|k| k.value));
            put(idesc_at, i.idesc.map(u64::from));
        }
        Program {
            given: BTreeMap::new(),
            proven,
            cta_group: None,
        }
    }

    /// Gives register or variable `name` (as the program writes it) the value `value`.
    pub fn set(&mut self, name: &str, value: u64) {
        self.given.insert(name.to_string(), value);
    }

    /// The value of `name` at 1-based line `line`: given, else proven there.
    fn value(&self, line: usize, name: &str) -> Option<u64> {
        self.given.get(name).copied().or_else(|| {
            self.proven
                .get(&line)
                .and_then(|v| v.iter().find(|(n, _)| n == name).map(|(_, v)| *v))
        })
    }

    /// Classifies line `line` (1-based) of the program, `text`, and for a `tcgen05`
    /// instruction replaces its register and variable operands by their values.
    ///
    /// # Errors
    /// [`ProgramError::NoValue`] naming the first operand (or guard) without a value;
    /// [`ProgramError::CtaGroupMixed`].
    pub fn statement(&mut self, line: usize, text: &str) -> Result<Statement, ProgramError> {
        let t = strip_comment(text).trim();
        if t.is_empty() || t.starts_with('.') || t.starts_with(['{', '}', '(', ')']) || is_label(t)
        {
            return Ok(Statement::Framing);
        }
        let (guard, rest) = split_guard(t);
        let opcode = rest.split(|c: char| c.is_whitespace() || c == ';').next();
        let opcode = opcode.unwrap_or("");
        if !opcode.starts_with("tcgen05.") {
            return Ok(Statement::Other(opcode.into()));
        }
        if let Some((negated, p)) = guard {
            let v = self
                .value(line, p)
                .ok_or_else(|| ProgramError::NoValue { name: p.into() })?;
            if (v != 0) == negated {
                return Ok(Statement::GuardFalse);
            }
        }
        if let Some(g) = cta_group(opcode) {
            match self.cta_group {
                None => self.cta_group = Some((g, line)),
                Some((first, first_line)) if first != g => {
                    return Err(ProgramError::CtaGroupMixed {
                        first,
                        first_line,
                        this: g,
                    })
                }
                Some(_) => {}
            }
        }
        self.substitute(line, opcode, rest).map(Statement::Tcgen05)
    }

    /// `rest` with every name operand replaced by its value; the register vectors that
    /// `tcgen05.ld` writes and `tcgen05.st` reads stay names (the model's own registers).
    fn substitute(&self, line: usize, opcode: &str, rest: &str) -> Result<String, ProgramError> {
        let keep_vectors = opcode.starts_with("tcgen05.ld") || opcode.starts_with("tcgen05.st");
        let mut out = String::with_capacity(rest.len() + 16);
        out.push_str(opcode);
        let body = &rest[opcode.len()..];
        let mut depth = 0u32;
        let mut chars = body.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if c.is_ascii_digit() {
                // A number (`64`, `0x08100490`, `0f3F800000`): copied whole.
                out.push(c);
                while let Some(&(_, d)) = chars.peek() {
                    if d.is_ascii_alphanumeric() || d == '.' {
                        out.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                continue;
            }
            let starts_name = c == '%' || c == '$' || c == '_' || c.is_ascii_alphabetic();
            if !starts_name {
                out.push(c);
                continue;
            }
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || matches!(d, '_' | '$' | '%' | '.') {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let name = &body[i..end];
            if keep_vectors && depth > 0 {
                out.push_str(name);
                continue;
            }
            match self.value(line, name) {
                Some(v) => out.push_str(&format!("{v:#x}")),
                None => {
                    return Err(ProgramError::NoValue {
                        name: name.to_string(),
                    })
                }
            }
        }
        Ok(out)
    }
}

/// `text` without a `//` comment.
fn strip_comment(text: &str) -> &str {
    text.split("//").next().unwrap_or("")
}

/// A label: `name:` alone on its line (`$L__BB0_2:`, `wait_mma:`).
fn is_label(t: &str) -> bool {
    t.strip_suffix(':').is_some_and(|n| {
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '%'))
    })
}

/// The guard `@p` / `@!p` of an instruction (negated, predicate) and the rest.
fn split_guard(t: &str) -> (Option<(bool, &str)>, &str) {
    let Some(g) = t.strip_prefix('@') else {
        return (None, t);
    };
    let end = g.find(char::is_whitespace).unwrap_or(g.len());
    let (p, rest) = g.split_at(end);
    let (neg, p) = match p.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, p),
    };
    (Some((neg, p)), rest.trim_start())
}

/// The `.cta_group::N` of an opcode, if it has one.
fn cta_group(opcode: &str) -> Option<u8> {
    opcode.split('.').find_map(|q| match q {
        "cta_group::1" => Some(1),
        "cta_group::2" => Some(2),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::{Program, ProgramError, Statement};
    use crate::targets::Target;

    #[test]
    fn framing_other_and_tcgen05_lines() {
        let mut p = Program::default();
        for l in [
            ".version 8.6",
            ".target sm_100a",
            "    .reg .b64 a_desc, b_desc, out;",
            "{",
            "}",
            "wait_mma:",
            "$L__BB0_2:",
            "// begin inline asm",
            "",
        ] {
            assert_eq!(p.statement(1, l), Ok(Statement::Framing), "{l}");
        }
        assert_eq!(
            p.statement(2, "    bar.sync 0;"),
            Ok(Statement::Other("bar.sync".into()))
        );
        p.set("taddr", 0x20);
        assert_eq!(
            p.statement(
                3,
                "tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, 64;"
            ),
            Ok(Statement::Tcgen05(
                "tcgen05.dealloc.cta_group::1.sync.aligned.b32 0x20, 64;".into()
            ))
        );
        // The registers ld writes stay names; its address is substituted.
        assert_eq!(
            p.statement(
                4,
                "tcgen05.ld.sync.aligned.32x32b.x2.b32 {d0, d1}, [taddr];"
            ),
            Ok(Statement::Tcgen05(
                "tcgen05.ld.sync.aligned.32x32b.x2.b32 {d0, d1}, [0x20];".into()
            ))
        );
    }

    #[test]
    fn a_register_without_a_value_is_named_never_zero() {
        let mut p = Program::default();
        let e = p.statement(
            7,
            "@%p12 tcgen05.mma.cta_group::1.kind::f16 [ %r532 + 0 ], %rd198, %rd199, %r178, %p11;",
        );
        assert_eq!(
            e,
            Err(ProgramError::NoValue {
                name: "%p12".into()
            })
        );
        p.set("%p12", 1);
        let e = p.statement(
            7,
            "@%p12 tcgen05.mma.cta_group::1.kind::f16 [ %r532 + 0 ], %rd198, %rd199, %r178, %p11;",
        );
        assert_eq!(
            e,
            Err(ProgramError::NoValue {
                name: "%r532".into()
            })
        );
        p.set("%p12", 0);
        assert_eq!(
            p.statement(
                7,
                "@%p12 tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [x];"
            ),
            Ok(Statement::GuardFalse)
        );
    }

    #[test]
    fn one_cta_group_per_kernel() {
        let mut p = Program::default();
        assert!(p
            .statement(
                3,
                "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
            )
            .is_ok());
        assert_eq!(
            p.statement(
                5,
                "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;"
            ),
            Err(ProgramError::CtaGroupMixed {
                first: 1,
                first_line: 3,
                this: 2
            })
        );
    }

    #[test]
    fn fully_known_descriptors_come_from_the_checker() {
        // The idesc moved into %r1 as a constant, as Triton writes it (136381584 = 0x08210490),
        // and two descriptors moved in as 64-bit constants.
        let text = ".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n\
                    .reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n\
                    mov.b32 %r1, 136381584;\n\
                    mov.b64 %rd1, 0x4000404000010040;\n\
                    mov.b64 %rd2, 0x4000404000010840;\n\
                    tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, 0;\n}\n";
        let mut p = Program::new(text, Target::Sm100a);
        p.set("%r2", 0);
        let s = p.statement(
            11,
            "tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, 0;",
        );
        assert_eq!(
            s,
            Ok(Statement::Tcgen05(
                "tcgen05.mma.cta_group::1.kind::f16 [0x0], 0x4000404000010040, \
                 0x4000404000010840, 0x8210490, 0;"
                    .into()
            ))
        );
    }
}
