//! A reader of PTX text: the statements of a module (PTX ISA 4 and 11), its `.version` and
//! `.target`, its functions, and each instruction as an opcode with its qualifiers and typed
//! operands.
//!
//! It is the one PTX reader of this crate: [`check`](crate::check) runs on what it returns, and
//! so can any tool that executes single instruction lines with immediate operands. It is built
//! for real compiler output (Triton, CUTLASS through nvcc, CuTe DSL, hand-written `asm!`):
//! comments (`//`, `/* */`), `.loc` and `.file` directives, inline-assembly markers, labels,
//! guards (`@%p`, `@!%p`), register vectors (`{%r1, %r2}`), addresses (`[%r1 + 16]`), `%p|%q`
//! pairs and scoped `{ ... }` blocks.
//!
//! It never fails and never panics: what it cannot read is skipped and reported as a
//! [`ReadProblem`] with its line and column (bytes that are not PTX, a statement cut off at the
//! end of the input, a statement longer than [`MAX_STATEMENT_BYTES`]). Its work is linear in the
//! input; it keeps slices of the input, never copies of it. Unknown instructions are read like
//! any other: the reader knows the syntax of PTX, not its instruction set.
//!
//! Why not a crate: the reader lives in this `no_std` core, which has no required
//! dependencies. The PTX crates on crates.io do not fit that: `ptx-syntax` 0.5.0 depends on
//! `clap` and `logos`, `singe-ptx` 0.1.0-alpha.7 on `nom` 8 and `thiserror`, `ptx-parser` 0.1.6
//! (2023) predates tcgen05. Their coverage of the corpus in `conformance/kernels/` was not
//! measured.
//!
//! # Examples
//! ```
//! use tcgen05::ptx_reader::{read_instruction, Operand};
//!
//! let i = read_instruction(
//!     "tcgen05.mma.cta_group::1.kind::f16 [0], 0x4000404000010040, 0x4000404000010840, 0x08100490, 0;",
//! )?;
//! assert_eq!(i.opcode, "tcgen05.mma.cta_group::1.kind::f16");
//! assert_eq!(i.qualifiers().collect::<Vec<_>>(), ["mma", "cta_group::1", "kind::f16"]);
//! assert_eq!(i.operands[0], Operand::Address { base: None, offset: 0 });
//! assert_eq!(i.operands[3], Operand::Imm(0x0810_0490));
//! # Ok::<(), tcgen05::ptx_reader::ReadProblem>(())
//! ```

use alloc::vec::Vec;
use core::fmt;

mod header;
use header::header_line;

/// The longest statement read, in bytes. A longer one is skipped with
/// [`ReadProblemKind::StatementTooLong`]: no real PTX statement comes near it (the longest in
/// the corpus, a `tcgen05.ld` of 128 registers, has about 1,300 bytes), and the bound keeps the
/// memory per statement small on hostile input.
pub const MAX_STATEMENT_BYTES: usize = 64 * 1024;

/// The most problems one read keeps; further ones are counted in
/// [`Module::problems_dropped`].
pub const MAX_PROBLEMS: usize = 1000;

/// An operand of an instruction, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand<'a> {
    /// A register, variable, label or function name: `%r1`, `%tid.x`, `p`, `$L__BB0_2`.
    Name(&'a str),
    /// A negated predicate: `!%p1`.
    Not(&'a str),
    /// An integer immediate (decimal, `0x` hexadecimal, `0b` binary or octal, optionally
    /// negative, optionally with the `U` suffix), as its 64-bit two's-complement pattern.
    Imm(u64),
    /// A floating-point immediate in PTX's hexadecimal form: `0fXXXXXXXX` (32 bits) or
    /// `0dXXXXXXXXXXXXXXXX` (64 bits), as its bit pattern.
    Float(u64),
    /// An address `[base]`, `[base + off]`, `[base - off]` or `[off]`.
    Address {
        /// The register or variable, if any.
        base: Option<&'a str>,
        /// The constant offset in bytes.
        offset: i64,
    },
    /// A register vector `{a, b, ...}` (possibly of immediates).
    Vector(Vec<Operand<'a>>),
    /// A parenthesised list, as in `call (retval0), f, (param0);`.
    Group(Vec<Operand<'a>>),
    /// Two destinations joined by `|`: `%r1|%p1`.
    Pair(&'a str, &'a str),
    /// An operand this reader does not structure (an expression such as `sym+4`), as written.
    Other(&'a str),
}

impl<'a> Operand<'a> {
    /// The register names this operand writes when it is a destination: a name, each name of
    /// a vector or pair.
    pub fn destination_names(&self, out: &mut Vec<&'a str>) {
        match self {
            Operand::Name(n) => out.push(n),
            Operand::Pair(a, b) => {
                out.push(a);
                out.push(b);
            }
            Operand::Vector(v) | Operand::Group(v) => {
                for o in v {
                    o.destination_names(out);
                }
            }
            Operand::Other(text) => names_in(text, out),
            Operand::Not(_) | Operand::Imm(_) | Operand::Float(_) | Operand::Address { .. } => {}
        }
    }
}

/// Every identifier-like word of an unstructured operand (for callers that must treat each as
/// possibly written).
fn names_in<'a>(text: &'a str, out: &mut Vec<&'a str>) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if is_word_start(b[i]) && !b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && is_word_byte(b[i]) {
                i += 1;
            }
            if let Some(w) = text.get(start..i) {
                out.push(w);
            }
        } else {
            i += 1;
        }
    }
}

/// The guard predicate of an instruction: `@%p` or `@!%p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard<'a> {
    /// The predicate register.
    pub predicate: &'a str,
    /// True for `@!%p`.
    pub negated: bool,
}

/// One instruction statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction<'a> {
    /// 1-based line of the opcode.
    pub line: u32,
    /// 1-based column (in bytes) of the opcode.
    pub column: u32,
    /// The guard, if any.
    pub guard: Option<Guard<'a>>,
    /// The opcode with all its qualifiers as written, for example
    /// `tcgen05.mma.cta_group::1.kind::f16`.
    pub opcode: &'a str,
    /// The operands, in order.
    pub operands: Vec<Operand<'a>>,
    /// The whole statement as written, from the guard or opcode to the `;` (comments included).
    pub text: &'a str,
}

impl<'a> Instruction<'a> {
    /// The opcode's base name, before the first `.`: `tcgen05` for `tcgen05.mma.cta_group::1`.
    #[must_use]
    pub fn base(&self) -> &'a str {
        self.opcode.split('.').next().unwrap_or(self.opcode)
    }

    /// The qualifiers after the base name, without their dots: `mma`, `cta_group::1`, ...
    pub fn qualifiers(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.opcode.split('.').skip(1)
    }
}

/// Whether a function is a kernel entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// `.entry`: a kernel.
    Entry,
    /// `.func`: a device function.
    Func,
    /// Instructions outside any function (a fragment, an `asm!` template).
    TopLevel,
}

/// A function and the instructions of its body, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function<'a> {
    /// Its name (`None` for [`FunctionKind::TopLevel`]).
    pub name: Option<&'a str>,
    /// Entry, device function, or top level.
    pub kind: FunctionKind,
    /// 1-based line of its `.entry` / `.func` directive (of the first instruction at top level).
    pub line: u32,
    /// Its instructions, including those of nested `{ }` blocks.
    pub instructions: Vec<Instruction<'a>>,
    /// Its labels, each with the index in [`Function::instructions`] of the instruction it
    /// names (the length of the list for a label after the last instruction).
    pub labels: Vec<(&'a str, usize)>,
    /// The `.version` of the module it is in (an input may hold several modules, each
    /// started by its `.version`, as `cuobjdump -ptx` prints them), with its line.
    pub version: Option<(u8, u32)>,
    /// The `.target` of the module it is in, with its line.
    pub target: Option<(&'a str, u32)>,
}

/// What went wrong where the reader skipped input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadProblemKind {
    /// Bytes that start no PTX statement (binary data, bytes that are not UTF-8, a stray
    /// character); skipped to the end of the line.
    NotPtx,
    /// An instruction or directive cut off by the end of the input (no `;`).
    Truncated,
    /// A statement longer than [`MAX_STATEMENT_BYTES`].
    StatementTooLong,
    /// An instruction whose operands could not be read; it is kept with the operands read.
    BadOperand,
    /// A `}` without its `{`, or a `{` never closed.
    UnbalancedBrace,
    /// A `.version` or `.target` directive whose value cannot be read.
    BadDirective,
}

impl ReadProblemKind {
    /// A short name, as the command prints it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ReadProblemKind::NotPtx => "not_ptx",
            ReadProblemKind::Truncated => "truncated",
            ReadProblemKind::StatementTooLong => "statement_too_long",
            ReadProblemKind::BadOperand => "bad_operand",
            ReadProblemKind::UnbalancedBrace => "unbalanced_brace",
            ReadProblemKind::BadDirective => "bad_directive",
        }
    }
}

/// Input the reader skipped or could not fully read, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadProblem {
    /// What.
    pub kind: ReadProblemKind,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
    /// Bytes skipped (for [`ReadProblemKind::NotPtx`], [`ReadProblemKind::StatementTooLong`]).
    pub bytes: usize,
}

impl fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ReadProblemKind::NotPtx => write!(
                f,
                "{} byte(s) that are not PTX text skipped (PTX ISA 4: PTX is ASCII text)",
                self.bytes
            ),
            ReadProblemKind::Truncated => {
                f.write_str("statement cut off by the end of the input (no terminating ';')")
            }
            ReadProblemKind::StatementTooLong => write!(
                f,
                "statement of {} bytes skipped: longer than the {MAX_STATEMENT_BYTES}-byte limit",
                self.bytes
            ),
            ReadProblemKind::BadOperand => f.write_str("operand that cannot be read"),
            ReadProblemKind::UnbalancedBrace => f.write_str("unbalanced '{' / '}'"),
            ReadProblemKind::BadDirective => {
                f.write_str(".version or .target value that cannot be read")
            }
        }
    }
}

impl core::error::Error for ReadProblem {}

/// A PTX module as read.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Module<'a> {
    /// `.version major.minor`, as major * 10 + minor (for example 87 for 8.7), with its line
    /// (the last module's, where the input holds several; each function keeps its own).
    pub version: Option<(u8, u32)>,
    /// The first name of `.target` (for example `sm_100a`), with its line (the last module's).
    pub target: Option<(&'a str, u32)>,
    /// The functions, in order; instructions outside any function are in a
    /// [`FunctionKind::TopLevel`] function.
    pub functions: Vec<Function<'a>>,
    /// The variables declared in the `.shared` state space (`.shared .align 16 .b8 smem[];`),
    /// at module scope or in a function, with their `.align` in bytes (1 when not given).
    pub shared: Vec<(&'a str, u64)>,
    /// Number of statements read (directives, labels, instructions).
    pub statements: usize,
    /// The input is binary, not text: it holds a NUL byte or starts with the ELF magic
    /// (`\x7fELF`). PTX is ASCII text (PTX ISA 4).
    pub binary: bool,
    /// What was skipped, in order (at most [`MAX_PROBLEMS`]).
    pub problems: Vec<ReadProblem>,
    /// Problems beyond [`MAX_PROBLEMS`], counted only.
    pub problems_dropped: usize,
}

impl<'a> Module<'a> {
    fn problem(&mut self, kind: ReadProblemKind, line: u32, column: u32, bytes: usize) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(ReadProblem {
                kind,
                line,
                column,
                bytes,
            });
        } else {
            self.problems_dropped += 1;
        }
    }

    /// Every instruction of every function, in order.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction<'a>> + '_ {
        self.functions.iter().flat_map(|f| f.instructions.iter())
    }
}

const fn is_word_start(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.')
}

const fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.' | b':')
}

/// A cursor over the input that tracks lines.
struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.src.get(self.pos + k).copied()
    }

    fn column(&self) -> u32 {
        u32::try_from(self.pos - self.line_start + 1).unwrap_or(u32::MAX)
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += 1;
            if c == b'\n' {
                self.line = self.line.saturating_add(1);
                self.line_start = self.pos;
            }
        }
    }

    /// Skips spaces, newlines and comments.
    fn skip_blank(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) => self.bump(),
                Some(b'/') if self.peek_at(1) == Some(b'/') => self.skip_line(),
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    self.pos += 2;
                    loop {
                        match self.peek() {
                            None => break,
                            Some(b'*') if self.peek_at(1) == Some(b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(_) => self.bump(),
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// Skips to the end of the line (the newline is left).
    fn skip_line(&mut self) {
        let rest = &self.src[self.pos.min(self.src.len())..];
        match rest.iter().position(|&c| c == b'\n') {
            Some(n) => self.pos += n,
            None => self.pos = self.src.len(),
        }
    }

    /// The input from `start` to `end` as text, when those bytes are UTF-8.
    fn str(&self, start: usize, end: usize) -> Option<&'a str> {
        core::str::from_utf8(self.src.get(start..end)?).ok()
    }
}

/// How a statement ended when scanning for its end.
enum End {
    /// At `;` (position after it).
    Semicolon(usize),
    /// At a newline outside parentheses (directives), or `{` opening a block after a directive.
    Line(usize),
    /// At the end of the input.
    Eof(usize),
    /// Past [`MAX_STATEMENT_BYTES`].
    TooLong(usize),
}

/// Whether a directive goes on past the end of its line at `nl`: a list whose line ends with
/// `,`, a declaration whose parameter list or `;` is on the next line (nvcc's `.extern .func`
/// declarations), or a `.branchtargets` / `.calltargets` list (always ended by `;`).
fn directive_continues(src: &[u8], start: usize, nl: usize, last: u8) -> bool {
    if last == b',' {
        return true;
    }
    let head = &src[start..nl];
    if head.starts_with(b".branchtargets") || head.starts_with(b".calltargets") {
        return true;
    }
    let next = src[nl..].iter().copied().find(|c| !c.is_ascii_whitespace());
    matches!(next, Some(b'(' | b';')) && head.windows(5).any(|w| w == b".func")
}

/// Finds the end of the statement starting at `start`: the `;`, or for a directive the end of
/// the line outside parentheses. Comments and strings are skipped. Returns the end and the
/// position to continue from.
fn statement_end(src: &[u8], start: usize, directive: bool) -> End {
    let mut i = start;
    let mut parens = 0u32;
    // An initializer `= { ... }` belongs to its directive; a `{` after a header opens a body.
    let mut last = 0u8;
    let mut initializer = 0u32;
    while i < src.len() {
        if i - start > MAX_STATEMENT_BYTES {
            return End::TooLong(i);
        }
        let ch = src[i];
        match ch {
            b';' => return End::Semicolon(i),
            b'\n'
                if directive
                    && parens == 0
                    && initializer == 0
                    && !directive_continues(src, start, i, last) =>
            {
                return End::Line(i)
            }
            b'{' if directive && (last == b'=' || initializer > 0) => initializer += 1,
            b'}' if initializer > 0 => initializer -= 1,
            b'{' if directive && parens == 0 => return End::Line(i),
            b'(' => parens += 1,
            b')' => parens = parens.saturating_sub(1),
            b'"' => {
                i += 1;
                while i < src.len() && src[i] != b'"' && src[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if src.get(i + 1) == Some(&b'/') => {
                while i < src.len() && src[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < src.len() && !(src[i] == b'*' && src.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 1;
            }
            _ => {}
        }
        if !ch.is_ascii_whitespace() {
            last = ch;
        }
        i += 1;
    }
    End::Eof(src.len())
}

/// Reads a whole PTX module from bytes. Never fails: what cannot be read is skipped and listed
/// in [`Module::problems`].
#[must_use]
pub fn read(src: &[u8]) -> Module<'_> {
    let mut m = Module {
        binary: src.contains(&0) || src.starts_with(b"\x7fELF"),
        ..Module::default()
    };
    let mut c = Cursor {
        src,
        pos: 0,
        line: 1,
        line_start: 0,
    };
    // Function being read: (index in m.functions, brace depth of its body).
    let mut current: Option<usize> = None;
    let mut depth: u32 = 0;
    let mut pending_function: Option<(Option<&str>, FunctionKind, u32)> = None;
    let mut body_depth: u32 = 0;
    loop {
        c.skip_blank();
        let Some(ch) = c.peek() else { break };
        let (line, column, start) = (c.line, c.column(), c.pos);
        // A statement starts with an ASCII character; anything else (binary data, text that is
        // not UTF-8) is skipped to the end of the line.
        if !ch.is_ascii() {
            let from = c.pos;
            c.skip_line();
            m.problem(ReadProblemKind::NotPtx, line, column, c.pos - from);
            continue;
        }
        if depth == 0 {
            if let Some(n) = header_line(&src[start..]) {
                skip_to(&mut c, start + n);
                continue;
            }
        }
        match ch {
            b'{' => {
                c.bump();
                depth += 1;
                m.statements += 1;
                if let Some((name, kind, fline)) = pending_function.take() {
                    m.functions.push(Function {
                        name,
                        kind,
                        line: fline,
                        instructions: Vec::new(),
                        labels: Vec::new(),
                        version: m.version,
                        target: m.target,
                    });
                    current = Some(m.functions.len() - 1);
                    body_depth = depth;
                }
            }
            b'}' => {
                c.bump();
                m.statements += 1;
                if depth == 0 {
                    m.problem(ReadProblemKind::UnbalancedBrace, line, column, 1);
                } else {
                    if current.is_some() && depth == body_depth {
                        current = None;
                    }
                    depth -= 1;
                }
            }
            b'.' => {
                let end = statement_end(src, start, true);
                let stop = match end {
                    End::Semicolon(e) | End::Line(e) | End::Eof(e) | End::TooLong(e) => e,
                };
                if let End::TooLong(_) = end {
                    m.problem(
                        ReadProblemKind::StatementTooLong,
                        line,
                        column,
                        stop - start,
                    );
                    skip_to(&mut c, stop);
                    skip_rest_of_statement(&mut c);
                    continue;
                }
                if let Some(text) = c.str(start, stop) {
                    m.statements += 1;
                    directive(&mut m, text, line, &mut pending_function);
                } else {
                    m.problem(ReadProblemKind::NotPtx, line, column, stop - start);
                }
                skip_to(&mut c, stop);
                if matches!(end, End::Semicolon(_)) {
                    c.bump();
                }
            }
            _ => {
                // A label `name:` or an instruction `[@[!]p] opcode operands;`.
                if let Some(n) = label_len(&src[start..]) {
                    let name = c.str(start, start + n - 1);
                    if let (Some(name), Some(f)) =
                        (name, current.and_then(|i| m.functions.get_mut(i)))
                    {
                        f.labels.push((name, f.instructions.len()));
                    }
                    skip_to(&mut c, start + n);
                    m.statements += 1;
                    continue;
                }
                if !(ch == b'@' || is_word_start(ch)) {
                    let from = c.pos;
                    c.skip_line();
                    m.problem(ReadProblemKind::NotPtx, line, column, c.pos - from);
                    continue;
                }
                let end = statement_end(src, start, false);
                match end {
                    End::Semicolon(e) => {
                        if let Some(text) = c.str(start, e) {
                            m.statements += 1;
                            let ins = parse_instruction(text, line, column, &mut m);
                            push_instruction(&mut m, &mut current, ins);
                        } else {
                            m.problem(ReadProblemKind::NotPtx, line, column, e - start);
                        }
                        skip_to(&mut c, e);
                        c.bump();
                    }
                    End::Eof(e) | End::Line(e) => {
                        m.problem(ReadProblemKind::Truncated, line, column, e - start);
                        skip_to(&mut c, e);
                    }
                    End::TooLong(e) => {
                        m.problem(ReadProblemKind::StatementTooLong, line, column, e - start);
                        skip_to(&mut c, e);
                        skip_rest_of_statement(&mut c);
                    }
                }
            }
        }
    }
    if depth > 0 {
        m.problem(ReadProblemKind::UnbalancedBrace, c.line, c.column(), 0);
    }
    m
}

fn push_instruction<'a>(m: &mut Module<'a>, current: &mut Option<usize>, ins: Instruction<'a>) {
    let idx = match *current {
        Some(i) => i,
        None => {
            // Outside any function: the top-level pseudo-function (created once, last if the
            // previous function was a top-level one).
            match m.functions.last() {
                Some(f) if f.kind == FunctionKind::TopLevel => m.functions.len() - 1,
                _ => {
                    m.functions.push(Function {
                        name: None,
                        kind: FunctionKind::TopLevel,
                        line: ins.line,
                        instructions: Vec::new(),
                        labels: Vec::new(),
                        version: m.version,
                        target: m.target,
                    });
                    m.functions.len() - 1
                }
            }
        }
    };
    if let Some(f) = m.functions.get_mut(idx) {
        f.instructions.push(ins);
    }
}

fn skip_to(c: &mut Cursor<'_>, target: usize) {
    // Count newlines on the way.
    let target = target.min(c.src.len());
    while c.pos < target {
        let rest = &c.src[c.pos..target];
        match rest.iter().position(|&b| b == b'\n') {
            Some(n) => {
                c.pos += n + 1;
                c.line = c.line.saturating_add(1);
                c.line_start = c.pos;
            }
            None => c.pos = target,
        }
    }
}

/// After an over-long statement: skip to its `;` or the end of the line.
fn skip_rest_of_statement(c: &mut Cursor<'_>) {
    while let Some(ch) = c.peek() {
        c.bump();
        if ch == b';' || ch == b'\n' {
            return;
        }
    }
}

/// Length of a label `name:` at the start of `b` (including the colon), if it is one.
fn label_len(b: &[u8]) -> Option<usize> {
    let first = *b.first()?;
    if !(first.is_ascii_alphabetic() || matches!(first, b'_' | b'$' | b'%')) {
        return None;
    }
    let mut i = 1;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$')) {
        i += 1;
    }
    let mut j = i;
    while j < b.len() && matches!(b[j], b' ' | b'\t') {
        j += 1;
    }
    if b.get(j) == Some(&b':') && b.get(j + 1) != Some(&b':') {
        Some(j + 1)
    } else {
        None
    }
}

/// Handles a directive: `.version`, `.target`, `.entry` / `.func` headers.
fn directive<'a>(
    m: &mut Module<'a>,
    text: &'a str,
    line: u32,
    pending: &mut Option<(Option<&'a str>, FunctionKind, u32)>,
) {
    let mut words = text
        .split(|c: char| c.is_ascii_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    let Some(first) = words.next() else { return };
    match first {
        ".version" => match words.next().and_then(parse_version) {
            Some(v) => {
                // A second `.version` starts another module, with a `.target` of its own.
                if m.version.is_some() {
                    m.target = None;
                }
                m.version = Some((v, line));
            }
            None => m.problem(ReadProblemKind::BadDirective, line, 1, text.len()),
        },
        ".target" => match words.next() {
            Some(t) => m.target = Some((t, line)),
            None => m.problem(ReadProblemKind::BadDirective, line, 1, text.len()),
        },
        _ if text.contains(".shared")
            && text
                .split(|c: char| c.is_ascii_whitespace())
                .any(|w| w == ".shared") =>
        {
            if let Some(name) = variable_name(text) {
                m.shared.push((name, alignment(text)));
            }
        }
        _ => {
            // `.visible .entry name(`, `.func (.param .b32 r) name(`, `.weak .func name`.
            let mut kind = None;
            for w in text.split(|c: char| c.is_ascii_whitespace()) {
                if w == ".entry" {
                    kind = Some(FunctionKind::Entry);
                } else if w == ".func" {
                    kind = Some(FunctionKind::Func);
                }
            }
            if let Some(kind) = kind {
                *pending = Some((function_name(text, kind), kind, line));
            }
        }
    }
}

/// The `.align N` of a variable declaration, 1 when absent or not a power of two.
fn alignment(text: &str) -> u64 {
    let mut words = text.split_ascii_whitespace();
    while let Some(w) = words.next() {
        if w == ".align" {
            let n = words
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(1);
            return if n.is_power_of_two() { n } else { 1 };
        }
    }
    1
}

/// The name a variable declaration declares: its last word that is not a directive, without
/// an array size or initializer (`.shared .align 16 .b8 smem[1024];` -> `smem`).
fn variable_name(text: &str) -> Option<&str> {
    let head = text.split(['=', ';']).next()?;
    let word = head
        .split(|c: char| c.is_ascii_whitespace())
        .rev()
        .find(|w| !w.is_empty() && !w.starts_with('.'))?;
    let name = word.split('[').next()?.trim_end_matches(',');
    (!name.is_empty()).then_some(name)
}

/// The name in a function header: the word after `.entry` / `.func` (and after a return
/// parameter list in parentheses).
fn function_name(text: &str, kind: FunctionKind) -> Option<&str> {
    let key = if kind == FunctionKind::Entry {
        ".entry"
    } else {
        ".func"
    };
    let at = text.find(key)? + key.len();
    let mut rest = text.get(at..)?.trim_start();
    if rest.starts_with('(') {
        let close = rest.find(')')?;
        rest = rest.get(close + 1..)?.trim_start();
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let name = rest.get(..end)?;
    (!name.is_empty()).then_some(name)
}

fn parse_version(w: &str) -> Option<u8> {
    let (major, minor) = w.split_once('.')?;
    let major: u8 = major.parse().ok()?;
    let minor: u8 = minor.parse().ok()?;
    if minor > 9 {
        return None;
    }
    major.checked_mul(10)?.checked_add(minor)
}

/// Reads a single instruction statement (with or without the final `;`), for callers that hold
/// one line of PTX: an `asm!` template line, or a line to execute.
///
/// # Errors
/// A [`ReadProblem`] when the text is not one instruction: empty, not PTX, more than one
/// statement, or an operand that cannot be read.
pub fn read_instruction(text: &str) -> Result<Instruction<'_>, ReadProblem> {
    let m = read(text.as_bytes());
    if let Some(p) = m.problems.first() {
        return Err(*p);
    }
    let mut all = m.functions.into_iter().flat_map(|f| f.instructions);
    let first = all.next();
    match (first, all.next()) {
        (Some(i), None) => Ok(i),
        (Some(i), Some(_)) => Err(ReadProblem {
            kind: ReadProblemKind::NotPtx,
            line: i.line,
            column: i.column,
            bytes: text.len(),
        }),
        (None, _) => {
            // `tcgen05.fence::before_thread_sync` without `;` is cut off; say so.
            let trimmed = text.trim();
            if !trimmed.is_empty() && !trimmed.ends_with(';') && !trimmed.starts_with('.') {
                let mut with = alloc::string::String::from(trimmed);
                with.push(';');
                // The operands must borrow from `text`: read again with the terminator only to
                // report the right problem.
                let again = read(with.as_bytes());
                if again.problems.is_empty() && again.instructions().count() == 1 {
                    return Err(ReadProblem {
                        kind: ReadProblemKind::Truncated,
                        line: 1,
                        column: 1,
                        bytes: text.len(),
                    });
                }
            }
            Err(ReadProblem {
                kind: ReadProblemKind::NotPtx,
                line: 1,
                column: 1,
                bytes: text.len(),
            })
        }
    }
}

/// Parses the text of one instruction statement (without the `;`).
fn parse_instruction<'a>(
    text: &'a str,
    line: u32,
    column: u32,
    m: &mut Module<'a>,
) -> Instruction<'a> {
    let mut lx = Lexer::new(text, line, column);
    let mut guard = None;
    lx.blank();
    if lx.eat(b'@') {
        lx.blank();
        let negated = lx.eat(b'!');
        lx.blank();
        if let Some(p) = lx.word() {
            guard = Some(Guard {
                predicate: p,
                negated,
            });
        }
        lx.blank();
    }
    let (oline, ocol) = lx.position();
    let opcode = lx.word().unwrap_or("");
    let mut operands = Vec::new();
    let mut bad = false;
    lx.blank();
    if !lx.at_end() {
        loop {
            lx.blank();
            match lx.operand(0) {
                Some(o) => operands.push(o),
                None => {
                    bad = true;
                    break;
                }
            }
            lx.blank();
            if lx.at_end() {
                break;
            }
            if !lx.eat(b',') {
                bad = true;
                break;
            }
        }
    }
    if bad || opcode.is_empty() {
        let (l, c) = lx.position();
        m.problem(ReadProblemKind::BadOperand, l, c, 0);
    }
    Instruction {
        line: oline,
        column: ocol,
        guard,
        opcode,
        operands,
        text,
    }
}

/// Operand lexer over one statement.
struct Lexer<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    line: u32,
    line_start_col: u32,
    line_start: usize,
}

/// Deepest nesting of `{ }` / `( )` operands read.
const MAX_OPERAND_DEPTH: u32 = 8;

impl<'a> Lexer<'a> {
    fn new(text: &'a str, line: u32, column: u32) -> Self {
        Lexer {
            text,
            b: text.as_bytes(),
            i: 0,
            line,
            line_start_col: column,
            line_start: 0,
        }
    }

    fn position(&self) -> (u32, u32) {
        let col = u32::try_from(self.i - self.line_start).unwrap_or(u32::MAX);
        (self.line, self.line_start_col.saturating_add(col))
    }

    fn at_end(&self) -> bool {
        self.i >= self.b.len()
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn blank(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b'\n' => {
                    self.i += 1;
                    self.line = self.line.saturating_add(1);
                    self.line_start = self.i;
                    self.line_start_col = 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.i += 1,
                b'/' if self.b.get(self.i + 1) == Some(&b'/') => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b'/' if self.b.get(self.i + 1) == Some(&b'*') => {
                    self.i += 2;
                    while self.i < self.b.len()
                        && !(self.b[self.i] == b'*' && self.b.get(self.i + 1) == Some(&b'/'))
                    {
                        if self.b[self.i] == b'\n' {
                            self.line = self.line.saturating_add(1);
                            self.line_start = self.i + 1;
                            self.line_start_col = 1;
                        }
                        self.i += 1;
                    }
                    self.i = (self.i + 2).min(self.b.len());
                }
                _ => return,
            }
        }
    }

    /// A word: opcode, register, name or number.
    fn word(&mut self) -> Option<&'a str> {
        let start = self.i;
        while self.peek().is_some_and(is_word_byte) {
            self.i += 1;
        }
        if self.i == start {
            None
        } else {
            self.text.get(start..self.i)
        }
    }

    fn list(&mut self, close: u8, depth: u32) -> Option<Vec<Operand<'a>>> {
        let mut v = Vec::new();
        self.blank();
        if self.eat(close) {
            return Some(v);
        }
        loop {
            self.blank();
            v.push(self.operand(depth + 1)?);
            self.blank();
            if self.eat(close) {
                return Some(v);
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn operand(&mut self, depth: u32) -> Option<Operand<'a>> {
        if depth > MAX_OPERAND_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => {
                self.i += 1;
                self.list(b'}', depth).map(Operand::Vector)
            }
            b'(' => {
                self.i += 1;
                self.list(b')', depth).map(Operand::Group)
            }
            b'[' => {
                self.i += 1;
                self.address()
            }
            b'!' => {
                self.i += 1;
                self.blank();
                self.word().map(Operand::Not)
            }
            b'-' | b'+' => {
                let start = self.i;
                self.i += 1;
                self.blank();
                let w = self.word()?;
                match number(w) {
                    Some(Num::Int(v)) if self.b[start] == b'-' => {
                        Some(Operand::Imm(v.wrapping_neg()))
                    }
                    Some(Num::Int(v)) => Some(Operand::Imm(v)),
                    _ => Some(Operand::Other(self.text.get(start..self.i)?)),
                }
            }
            _ => {
                let start = self.i;
                let w = self.word()?;
                let first = w.as_bytes().first().copied()?;
                let op = if first.is_ascii_digit() {
                    match number(w) {
                        Some(Num::Int(v)) => Operand::Imm(v),
                        Some(Num::Float(v)) => Operand::Float(v),
                        None => Operand::Other(w),
                    }
                } else {
                    Operand::Name(w)
                };
                self.blank();
                match self.peek() {
                    Some(b'|') => {
                        self.i += 1;
                        self.blank();
                        let second = self.word()?;
                        Some(Operand::Pair(w, second))
                    }
                    Some(b'+' | b'-') => {
                        // An expression such as `sym+4`: kept as written, to the next comma.
                        while self
                            .peek()
                            .is_some_and(|c| c != b',' && c != b'}' && c != b')')
                        {
                            self.i += 1;
                        }
                        Some(Operand::Other(self.text.get(start..self.i)?.trim_end()))
                    }
                    _ => Some(op),
                }
            }
        }
    }

    /// `[base]`, `[base + off]`, `[base+-off]`, `[off]`, after the `[`.
    fn address(&mut self) -> Option<Operand<'a>> {
        self.blank();
        let mut base = None;
        let mut offset: i64 = 0;
        let mut sign: i64 = 1;
        let mut first = true;
        loop {
            self.blank();
            if self.eat(b']') {
                return Some(Operand::Address { base, offset });
            }
            if !first && self.eat(b',') {
                // A tensor address `[tensorMap, {c0, c1, ...}]` (cp.async.bulk.tensor, PTX ISA
                // 9.7.9.25): the coordinates are not needed here.
                let mut braces = 0u32;
                while let Some(c) = self.peek() {
                    self.i += 1;
                    match c {
                        b'{' => braces += 1,
                        b'}' => braces = braces.saturating_sub(1),
                        b']' if braces == 0 => return Some(Operand::Address { base, offset }),
                        _ => {}
                    }
                }
                return None;
            }
            if !first {
                if self.eat(b'+') {
                    sign = 1;
                } else if self.eat(b'-') {
                    sign = -1;
                } else {
                    return None;
                }
                self.blank();
                if self.eat(b'-') {
                    sign = -sign;
                    self.blank();
                }
            }
            first = false;
            let w = self.word()?;
            if w.as_bytes().first()?.is_ascii_digit() {
                match number(w)? {
                    Num::Int(v) => {
                        // Offsets are signed 64-bit: the pattern reinterpreted.
                        offset = offset.wrapping_add(sign.wrapping_mul(v as i64));
                    }
                    Num::Float(_) => return None,
                }
            } else if base.is_none() && sign == 1 {
                base = Some(w);
            } else {
                return None;
            }
        }
    }
}

enum Num {
    Int(u64),
    Float(u64),
}

/// A PTX integer or hexadecimal floating-point literal (PTX ISA 4.5.1).
fn number(w: &str) -> Option<Num> {
    let w = w.strip_suffix('U').unwrap_or(w);
    let b = w.as_bytes();
    if b.len() > 2 && b[0] == b'0' && (b[1] == b'f' || b[1] == b'F') && b.len() == 10 {
        return u64::from_str_radix(w.get(2..)?, 16).ok().map(Num::Float);
    }
    if b.len() > 2 && b[0] == b'0' && (b[1] == b'd' || b[1] == b'D') && b.len() == 18 {
        return u64::from_str_radix(w.get(2..)?, 16).ok().map(Num::Float);
    }
    let (digits, radix) = if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(h) = w.strip_prefix("0b").or_else(|| w.strip_prefix("0B")) {
        (h, 2)
    } else if b.len() > 1 && b[0] == b'0' {
        (w.get(1..)?, 8)
    } else {
        (w, 10)
    };
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(digits, radix).ok().map(Num::Int)
}

#[cfg(test)]
mod tests;
