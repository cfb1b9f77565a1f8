//! Output helpers shared by every subcommand: colour, JSON text, field tables and problem lines.
//!
//! Everything is formatted into a `String` first (formatting into a `String` cannot fail on I/O),
//! then written out in one piece; batch mode reuses the same buffer for every value.

use std::fmt::{self, Write as _};

use tcgen05::diagnostic::{Diagnostic, Severity};

/// ANSI colour, on only when the stream is a terminal and `NO_COLOR` is unset (or `--color always`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    on: bool,
}

impl Style {
    /// A style that colours when `on`.
    pub fn new(on: bool) -> Style {
        Style { on }
    }

    fn code(self, c: &'static str) -> &'static str {
        if self.on {
            c
        } else {
            ""
        }
    }

    /// Start of an error word.
    pub fn red(self) -> &'static str {
        self.code("\x1b[1;31m")
    }
    /// Start of a warning word.
    pub fn yellow(self) -> &'static str {
        self.code("\x1b[1;33m")
    }
    /// Start of a success word.
    pub fn green(self) -> &'static str {
        self.code("\x1b[1;32m")
    }
    /// Start of a heading.
    pub fn bold(self) -> &'static str {
        self.code("\x1b[1m")
    }
    /// Start of secondary text.
    pub fn dim(self) -> &'static str {
        self.code("\x1b[2m")
    }
    /// Back to plain text.
    pub fn reset(self) -> &'static str {
        self.code("\x1b[0m")
    }
}

/// A `fmt::Write` adapter that escapes what it is given as the inside of a JSON string.
pub struct JsonEsc<'a>(pub &'a mut String);

impl fmt::Write for JsonEsc<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            match c {
                '"' => self.0.push_str("\\\""),
                '\\' => self.0.push_str("\\\\"),
                '\n' => self.0.push_str("\\n"),
                '\r' => self.0.push_str("\\r"),
                '\t' => self.0.push_str("\\t"),
                c if (c as u32) < 0x20 => write!(self.0, "\\u{:04x}", c as u32)?,
                c => self.0.push(c),
            }
        }
        Ok(())
    }
}

/// Writes `v` (anything displayable) as a JSON string.
pub fn json_str(buf: &mut String, v: impl fmt::Display) -> fmt::Result {
    buf.push('"');
    write!(JsonEsc(buf), "{v}")?;
    buf.push('"');
    Ok(())
}

/// A JSON object under construction: `key: value` pairs with the commas in the right places.
pub struct Obj<'a> {
    buf: &'a mut String,
    first: bool,
}

impl<'a> Obj<'a> {
    /// Opens an object.
    pub fn open(buf: &'a mut String) -> Obj<'a> {
        buf.push('{');
        Obj { buf, first: true }
    }

    /// Writes the key and returns the buffer for the value.
    pub fn key(&mut self, k: &str) -> &mut String {
        if !self.first {
            self.buf.push(',');
        }
        self.first = false;
        self.buf.push('"');
        self.buf.push_str(k);
        self.buf.push_str("\":");
        self.buf
    }

    /// A number value.
    pub fn num(&mut self, k: &str, v: u64) -> fmt::Result {
        write!(self.key(k), "{v}")
    }

    /// A boolean value.
    pub fn bool(&mut self, k: &str, v: bool) -> fmt::Result {
        self.key(k).push_str(if v { "true" } else { "false" });
        Ok(())
    }

    /// A string value.
    pub fn str(&mut self, k: &str, v: impl fmt::Display) -> fmt::Result {
        json_str(self.key(k), v)
    }

    /// A value already written as JSON text.
    pub fn raw(&mut self, k: &str, json: &str) -> fmt::Result {
        self.key(k).push_str(json);
        Ok(())
    }

    /// Closes the object.
    pub fn close(self) {
        self.buf.push('}');
    }
}

/// True for fields whose values are byte addresses or offsets, printed in hexadecimal.
pub fn is_byte_field(field: &str) -> bool {
    matches!(
        field,
        "start_address" | "leading_byte_offset" | "stride_byte_offset" | "pattern_start_address"
    )
}

/// Writes a problem as one line: `field = value: message (source)`; `target` and `kind` problems
/// carry no number of their own, so they print as `target: message (source)`.
pub fn problem_text<D: Diagnostic>(buf: &mut String, d: &D) -> fmt::Result {
    let field = d.field();
    if field == "target" || field == "kind" {
        write!(buf, "{field}: {d} ({})", d.source())
    } else if is_byte_field(field) {
        write!(buf, "{field} = {:#x}: {d} ({})", d.value(), d.source())
    } else {
        write!(buf, "{field} = {}: {d} ({})", d.value(), d.source())
    }
}

/// Writes a problem as one stderr line, `error: ...` or `warning: ...`, with a newline.
pub fn problem_line<D: Diagnostic>(buf: &mut String, d: &D, style: Style) -> fmt::Result {
    match d.severity() {
        Severity::Error => write!(buf, "{}error{}: ", style.red(), style.reset())?,
        Severity::Warning => write!(buf, "{}warning{}: ", style.yellow(), style.reset())?,
    }
    problem_text(buf, d)?;
    buf.push('\n');
    Ok(())
}

/// Writes `{"field", "message", "source"}` for one problem.
pub fn problem_json<D: Diagnostic>(buf: &mut String, d: &D) -> fmt::Result {
    let mut o = Obj::open(buf);
    o.str("field", d.field())?;
    o.str("message", d)?;
    o.str("source", d.source())?;
    o.close();
    Ok(())
}

/// Writes `"errors": [...], "warnings": [...]` from a list of problems.
pub fn problems_json<D: Diagnostic>(o: &mut Obj<'_>, items: &[D]) -> fmt::Result {
    problems_json2::<D, D>(o, items, &[])
}

/// Writes `"errors": [...], "warnings": [...]` from two lists of problems of different types,
/// the first list's before the second's.
pub fn problems_json2<A: Diagnostic, B: Diagnostic>(
    o: &mut Obj<'_>,
    a: &[A],
    b: &[B],
) -> fmt::Result {
    for (key, sev) in [("errors", Severity::Error), ("warnings", Severity::Warning)] {
        let buf = o.key(key);
        buf.push('[');
        let mut first = true;
        for d in a.iter().filter(|d| d.severity() == sev) {
            if !first {
                buf.push(',');
            }
            first = false;
            problem_json(buf, d)?;
        }
        for d in b.iter().filter(|d| d.severity() == sev) {
            if !first {
                buf.push(',');
            }
            first = false;
            problem_json(buf, d)?;
        }
        buf.push(']');
    }
    Ok(())
}

/// Writes ` | error: ...` for each problem, the tail of a batch line in human mode.
pub fn problems_compact<D: Diagnostic>(buf: &mut String, items: &[D]) -> fmt::Result {
    for d in items {
        buf.push_str(match d.severity() {
            Severity::Error => " | error: ",
            Severity::Warning => " | warning: ",
        });
        problem_text(buf, d)?;
    }
    Ok(())
}

/// Raw bits of a field: binary when at most 8 bits wide, otherwise hexadecimal, exactly as wide as
/// the field.
pub struct RawBits {
    /// The field's value, shifted down to bit 0.
    pub value: u64,
    /// The field's width in bits.
    pub width: u8,
}

impl fmt::Display for RawBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = usize::from(self.width);
        if self.width <= 8 {
            for i in (0..w).rev() {
                f.write_str(if (self.value >> i) & 1 == 1 { "1" } else { "0" })?;
            }
            Ok(())
        } else {
            write!(f, "{:#0w$x}", self.value, w = w.div_ceil(4) + 2)
        }
    }
}

/// Bit range as PTX tables print it: `17-22`, or `2` for one bit.
pub struct BitRange(pub u8, pub u8);

impl fmt::Display for BitRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == self.1 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{}-{}", self.0, self.1)
        }
    }
}

/// One line of a human field table.
pub struct Row {
    /// Bit range.
    pub bits: String,
    /// JSON key of the field.
    pub field: String,
    /// Raw bits.
    pub raw: String,
    /// What the bits mean.
    pub meaning: String,
    /// True when a problem concerns this row.
    pub flagged: bool,
}

/// Writes a field table: a heading, then one aligned line per row; flagged rows get a `!` in the
/// margin.
pub fn table(buf: &mut String, rows: &[Row], style: Style) -> fmt::Result {
    let wb = rows.iter().map(|r| r.bits.len()).max().unwrap_or(0).max(4);
    let wf = rows.iter().map(|r| r.field.len()).max().unwrap_or(0).max(5);
    let wr = rows.iter().map(|r| r.raw.len()).max().unwrap_or(0).max(3);
    writeln!(
        buf,
        "  {}{:<wb$}  {:<wf$}  {:<wr$}  meaning{}",
        style.dim(),
        "bits",
        "field",
        "raw",
        style.reset()
    )?;
    for r in rows {
        if r.flagged {
            write!(buf, "{}!{} ", style.red(), style.reset())?;
        } else {
            buf.push_str("  ");
        }
        writeln!(
            buf,
            "{:<wb$}  {:<wf$}  {:<wr$}  {}",
            r.bits, r.field, r.raw, r.meaning
        )?;
    }
    Ok(())
}

/// True when problem field `name` concerns the row with JSON key `key` covering bits `lo..=hi`
/// (reserved-bit problems are named `bit N`).
pub fn concerns(name: &str, key: &str, lo: u8, hi: u8) -> bool {
    if name == key {
        return true;
    }
    match name.strip_prefix("bit ").map(str::parse::<u8>) {
        Some(Ok(bit)) => (lo..=hi).contains(&bit),
        _ => false,
    }
}

/// The closing verdict of a human report: `valid`, `valid, 1 warning`, or `INVALID: 2 errors`.
pub fn verdict(buf: &mut String, errors: usize, warnings: usize, style: Style) -> fmt::Result {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if errors == 0 {
        write!(buf, "{}valid{}", style.green(), style.reset())?;
    } else {
        write!(
            buf,
            "{}INVALID{}: {errors} error{} (on stderr)",
            style.red(),
            style.reset(),
            plural(errors)
        )?;
    }
    if warnings > 0 {
        write!(buf, ", {warnings} warning{}", plural(warnings))?;
    }
    buf.push('\n');
    Ok(())
}

/// Counts the errors and warnings in a list of problems.
pub fn count<D: Diagnostic>(items: &[D]) -> (usize, usize) {
    let e = items
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .count();
    (e, items.len() - e)
}

/// Column ranges as text: `0-2, 7-9, 14`.
pub fn ranges(buf: &mut String, cols: &[u32], sep: &str) -> fmt::Result {
    let mut i = 0;
    let mut first = true;
    while let Some(&start) = cols.get(i) {
        let mut end = start;
        while cols.get(i + 1) == Some(&(end + 1)) {
            end += 1;
            i += 1;
        }
        if !first {
            buf.push_str(sep);
        }
        first = false;
        if end == start {
            write!(buf, "{start}")?;
        } else {
            write!(buf, "{start}-{end}")?;
        }
        i += 1;
    }
    Ok(())
}

/// The exit status, ordered so that the worst one wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Status {
    /// Every value valid.
    #[default]
    Valid,
    /// A value or configuration breaks a rule.
    Rule,
    /// Usage error or unreadable value.
    Usage,
}

impl Status {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Status::Valid => 0,
            Status::Rule => 1,
            Status::Usage => 2,
        }
    }
}

/// How to print: JSON or text, and the colours of stdout and stderr.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// `--json`.
    pub json: bool,
    /// Colours of standard output.
    pub out: Style,
    /// Colours of standard error.
    pub err: Style,
}

/// What a single-value command prints and how it ends.
#[derive(Debug, Default)]
pub struct Report {
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
    /// Exit status.
    pub status: Status,
}

impl Report {
    /// Records problems: one stderr line each; any error makes the status at least `Rule`.
    pub fn problems<D: Diagnostic>(&mut self, items: &[D], style: Style) -> fmt::Result {
        for d in items {
            problem_line(&mut self.err, d, style)?;
            if d.severity() == Severity::Error {
                self.status = self.status.max(Status::Rule);
            }
        }
        Ok(())
    }
}

/// Resolves `--target`: a name without tcgen05 (sm_120*, sm_121*, unsuffixed) is a rule error.
pub fn resolve_target(
    t: crate::cli::TargetArg,
    rep: &mut Report,
    style: Style,
) -> Result<Option<tcgen05::Target>, fmt::Error> {
    match t.0 {
        Ok(t) => Ok(Some(t)),
        Err(e) => {
            rep.problems(&[e], style)?;
            Ok(None)
        }
    }
}
