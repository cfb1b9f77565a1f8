//! Output shared by every subcommand: colour, JSON text, field tables, problem lines, the report
//! of one run and its exit status ([`svg`]: the picture files).
//!
//! Everything is formatted into a `String` first (formatting into a `String` cannot fail on I/O),
//! then written out in one piece; batch mode reuses the same buffer for every value.

use std::collections::hash_map::{Entry, HashMap};
use std::fmt::{self, Write as _};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use tcgen05::bits::BitField;
use tcgen05::diagnostic::{Diagnostic, Severity};

pub mod svg;

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
        // Copy runs of plain characters whole; only `"`, `\` and control characters (all ASCII,
        // so never inside a multi-byte character) need escaping.
        let mut rest = s;
        while let Some(i) = rest
            .bytes()
            .position(|b| b == b'"' || b == b'\\' || b < 0x20)
        {
            let (plain, tail) = rest.split_at(i);
            self.0.push_str(plain);
            let mut chars = tail.chars();
            match chars.next() {
                Some('"') => self.0.push_str("\\\""),
                Some('\\') => self.0.push_str("\\\\"),
                Some('\n') => self.0.push_str("\\n"),
                Some('\r') => self.0.push_str("\\r"),
                Some('\t') => self.0.push_str("\\t"),
                Some(c) => write!(self.0, "\\u{:04x}", c as u32)?,
                None => {}
            }
            rest = chars.as_str();
        }
        self.0.push_str(rest);
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

    /// Writes a key made by `key!("name")` (`,"name":`, the comma dropped for the first key)
    /// and returns the buffer for the value.
    #[inline(always)]
    pub fn key(&mut self, k: &'static str) -> &mut String {
        let k = if self.first {
            k.strip_prefix(',').unwrap_or(k)
        } else {
            k
        };
        self.first = false;
        self.buf.push_str(k);
        self.buf
    }

    /// A number value.
    #[inline(always)]
    pub fn num(&mut self, k: &'static str, v: u64) -> fmt::Result {
        push_dec(self.key(k), v);
        Ok(())
    }

    /// A hexadecimal string value: `"0x"` and `width` digits.
    #[inline(always)]
    pub fn hex(&mut self, k: &'static str, v: u64, width: u32) {
        let b = self.key(k);
        b.push('"');
        push_hex(b, v, width);
        b.push('"');
    }

    /// A boolean value.
    #[inline(always)]
    pub fn bool(&mut self, k: &'static str, v: bool) -> fmt::Result {
        self.key(k).push_str(if v { "true" } else { "false" });
        Ok(())
    }

    /// A string value.
    pub fn str(&mut self, k: &'static str, v: impl fmt::Display) -> fmt::Result {
        json_str(self.key(k), v)
    }

    /// A name of the core crate (of a kind, type, mode, such as `"128B_base32B"`): letters,
    /// digits and `_` only, so written as it is, without escaping.
    #[inline(always)]
    pub fn name(&mut self, k: &'static str, v: &'static str) -> fmt::Result {
        let buf = self.key(k);
        buf.push('"');
        buf.push_str(v);
        buf.push('"');
        Ok(())
    }

    /// A value already written as JSON text.
    pub fn raw(&mut self, k: &'static str, json: &str) -> fmt::Result {
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
        "start_address"
            | "leading_byte_offset"
            | "stride_byte_offset"
            | "pattern_start_address"
            | "address"
            | "destination"
    )
}

/// Writes a problem as one line: `field = value: message (source)`; `target` and `kind` problems
/// carry no number of their own, so they print as `target: message (source)`.
pub fn problem_text<D: Diagnostic>(buf: &mut String, d: &D) -> fmt::Result {
    let field = d.field();
    if field == "version" {
        // A PTX ISA version, held as major * 10 + minor, shown as typed (X.Y); its name is
        // what the version is too low for, not the value.
        let v = d.value();
        write!(buf, "{field} = {}.{}: {d} ({})", v / 10, v % 10, d.source())
    } else if let Some(name) = d.value_name() {
        write!(buf, "{field} = {name}: {d} ({})", d.source())
    } else if field == "target" || field == "kind" {
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
    o.str(key!("field"), d.field())?;
    o.str(key!("message"), d)?;
    o.str(key!("source"), d.source())?;
    o.close();
    Ok(())
}

/// Writes `"errors": [...], "warnings": [...]` from two lists of problems of different types,
/// the first list's before the second's.
pub fn problems_json2<A: Diagnostic, B: Diagnostic>(
    o: &mut Obj<'_>,
    a: &[A],
    b: &[B],
) -> fmt::Result {
    for (k, sev) in [
        (key!("errors"), Severity::Error),
        (key!("warnings"), Severity::Warning),
    ] {
        let buf = o.key(k);
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
    /// Each recorded problem as JSON, with whether it is an error, for `--json` runs whose
    /// output would otherwise not carry them (see [`Report::json_failure`]).
    pub json_problems: Vec<(bool, String)>,
    /// Stderr lines shown and held back per (error?, field, source): a rule broken by
    /// thousands of elements prints [`REPEAT_CAP`] lines and then one count.
    pub repeats: std::collections::BTreeMap<(bool, &'static str, String), (usize, usize)>,
}

/// Stderr lines printed per (severity, field, source) before the rest are counted instead
/// (`--json` output still lists every problem).
pub const REPEAT_CAP: usize = 16;

impl Report {
    /// Records problems: one stderr line each; any error makes the status at least `Rule`.
    pub fn problems<D: Diagnostic>(&mut self, items: &[D], style: Style) -> fmt::Result {
        for d in items {
            let error = d.severity() == Severity::Error;
            let seen = self
                .repeats
                .entry((error, d.field(), d.source().to_string()))
                .or_insert((0, 0));
            if seen.0 < REPEAT_CAP {
                seen.0 += 1;
                problem_line(&mut self.err, d, style)?;
            } else {
                seen.1 += 1;
            }
            let mut j = String::new();
            problem_json(&mut j, d)?;
            self.json_problems
                .push((d.severity() == Severity::Error, j));
            if d.severity() == Severity::Error {
                self.status = self.status.max(Status::Rule);
            }
        }
        Ok(())
    }
}

impl Report {
    /// Appends one line per capped group: `error: and N more <field> problems like these
    /// (<source>)`.
    pub fn repeat_counts(&mut self, style: Style) -> fmt::Result {
        for ((error, field, source), (_, hidden)) in &self.repeats {
            if *hidden == 0 {
                continue;
            }
            if *error {
                write!(self.err, "{}error{}: ", style.red(), style.reset())?;
            } else {
                write!(self.err, "{}warning{}: ", style.yellow(), style.reset())?;
            }
            writeln!(
                self.err,
                "and {hidden} more {field} problems like these ({source})"
            )?;
        }
        self.repeats.clear();
        Ok(())
    }

    /// Makes a failed `--json` run print exactly one JSON object that carries its problems:
    /// with no output, `{"valid": false, "errors": [...], "warnings": [...]}`; with an object
    /// that has no `"errors"` key of its own, the same three keys appended to it. A run that
    /// passed, or whose object already lists its errors, is left as it is.
    pub fn json_failure(&mut self) -> fmt::Result {
        if self.status == Status::Valid || self.json_problems.is_empty() {
            return Ok(());
        }
        let body = self.out.trim_end();
        let mut tail = String::new();
        tail.push_str("\"valid\":false");
        for (k, error) in [("errors", true), ("warnings", false)] {
            write!(tail, ",\"{k}\":[")?;
            let mut first = true;
            for (e, j) in &self.json_problems {
                if *e != error {
                    continue;
                }
                if !first {
                    tail.push(',');
                }
                first = false;
                tail.push_str(j);
            }
            tail.push(']');
        }
        if body.is_empty() {
            self.out = format!("{{{tail}}}\n");
        } else if body.starts_with('{') && body.ends_with('}') && !body.contains("\"errors\"") {
            let inner = &body[..body.len() - 1];
            let sep = if inner.trim_end().ends_with('{') {
                ""
            } else {
                ","
            };
            self.out = format!("{inner}{sep}{tail}}}\n");
        }
        Ok(())
    }
}

/// Problems already rendered, so that batch mode formats each distinct problem once: random
/// input gives the same few hundred problems millions of times.
pub struct Cache<D> {
    map: HashMap<D, Rendered, BuildHasherDefault<Fx>>,
}

/// A fast non-cryptographic hasher for the cache's small keys (the multiply-rotate scheme of
/// rustc's FxHasher); the keys are problems, never attacker-chosen in a way that matters here.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fx(u64);

impl Fx {
    #[inline(always)]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn write_isize(&mut self, v: isize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// One problem as JSON (`{"field", "message", "source"}`) and as the tail of a compact line.
struct Rendered {
    error: bool,
    json: String,
    compact: String,
}

/// The most problems kept; a value space larger than this is rendered afresh after a reset.
const CACHE_LIMIT: usize = 1 << 14;

impl<D: Diagnostic + Hash + Eq> Cache<D> {
    /// An empty cache.
    pub fn new() -> Cache<D> {
        Cache {
            map: HashMap::default(),
        }
    }

    fn get(&mut self, d: &D) -> Result<&Rendered, fmt::Error> {
        if self.map.len() >= CACHE_LIMIT && !self.map.contains_key(d) {
            self.map.clear();
        }
        Ok(match self.map.entry(*d) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(v) => {
                let mut json = String::new();
                problem_json(&mut json, d)?;
                let mut compact = String::new();
                problems_compact(&mut compact, std::slice::from_ref(d))?;
                v.insert(Rendered {
                    error: d.severity() == Severity::Error,
                    json,
                    compact,
                })
            }
        })
    }

    /// Writes `"errors": [...], "warnings": [...]` (as [`problems_json2`] for one list).
    pub fn json(&mut self, o: &mut Obj<'_>, items: &[D]) -> fmt::Result {
        for (k, error) in [(key!("errors"), true), (key!("warnings"), false)] {
            let buf = o.key(k);
            buf.push('[');
            let mut first = true;
            for d in items {
                let r = self.get(d)?;
                if r.error != error {
                    continue;
                }
                if !first {
                    buf.push(',');
                }
                first = false;
                buf.push_str(&r.json);
            }
            buf.push(']');
        }
        Ok(())
    }

    /// Writes ` | error: ...` for each problem (as [`problems_compact`]).
    pub fn compact(&mut self, buf: &mut String, items: &[D]) -> fmt::Result {
        for d in items {
            buf.push_str(&self.get(d)?.compact);
        }
        Ok(())
    }
}

/// Appends `v` in decimal.
#[inline(always)]
pub fn push_dec(buf: &mut String, v: u64) {
    if v < 10 {
        // One digit, so the cast keeps it.
        buf.push(char::from(b'0' + v as u8));
        return;
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut v = v;
    while v != 0 && i > 0 {
        i -= 1;
        // A digit, so the cast keeps it.
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    for &d in digits.iter().skip(i) {
        buf.push(char::from(d));
    }
}

/// Appends `v` as `0x` and exactly `width` lowercase hexadecimal digits (at most 16).
#[inline(always)]
pub fn push_hex(buf: &mut String, v: u64, width: u32) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    buf.push_str("0x");
    for i in (0..width.min(16)).rev() {
        buf.push(char::from(HEX[((v >> (4 * i)) & 0xf) as usize]));
    }
}

/// The decimal text of 0..=255 (column numbers), made at compile time.
const SMALL_DEC: [([u8; 3], u8); 256] = small_dec();

const fn small_dec() -> [([u8; 3], u8); 256] {
    let mut t = [([0u8; 3], 0u8); 256];
    let mut v = 0;
    while v < 256 {
        // Below 256: at most three digits, each cast keeps its value.
        let (d2, d1, d0) = ((v / 100) as u8, (v / 10 % 10) as u8, (v % 10) as u8);
        t[v] = if v >= 100 {
            ([b'0' + d2, b'0' + d1, b'0' + d0], 3)
        } else if v >= 10 {
            ([b'0' + d1, b'0' + d0, 0], 2)
        } else {
            ([b'0' + d0, 0, 0], 1)
        };
        v += 1;
    }
    t
}

/// A stack buffer of ASCII text, appended to a `String` in one piece (long lists of numbers).
pub struct Ascii<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Ascii<N> {
    /// An empty buffer.
    pub fn new() -> Ascii<N> {
        Ascii {
            buf: [0; N],
            len: 0,
        }
    }

    /// Appends one ASCII byte (dropped when full; callers size `N` for the worst case).
    #[inline(always)]
    pub fn byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b & 0x7f;
            self.len += 1;
        }
    }

    /// Appends `v` in decimal.
    #[inline(always)]
    pub fn dec(&mut self, v: u64) {
        if let Some(&(text, len)) = usize::try_from(v).ok().and_then(|i| SMALL_DEC.get(i)) {
            for &d in text.iter().take(usize::from(len)) {
                self.byte(d);
            }
            return;
        }
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut v = v;
        loop {
            i -= 1;
            // A digit, so the cast keeps it.
            digits[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 || i == 0 {
                break;
            }
        }
        for &d in digits.iter().skip(i) {
            self.byte(d);
        }
    }

    /// Appends the text to `out`.
    pub fn flush(&self, out: &mut String) {
        // Only ASCII bytes were stored: always UTF-8.
        if let Some(Ok(s)) = self.buf.get(..self.len).map(std::str::from_utf8) {
            out.push_str(s);
        }
    }
}

/// The table rows of a descriptor layout for one raw value: bit range, field name, raw bits, the
/// meaning `meaning` gives for the row, and whether a problem concerns it.
pub fn layout_rows<F: Copy, D: Diagnostic>(
    table: &'static [BitField<F>],
    raw: u64,
    name: impl Fn(F) -> &'static str,
    meaning: impl Fn(&'static BitField<F>) -> String,
    problems: &[D],
) -> Vec<Row> {
    table
        .iter()
        .map(|r| {
            let field = name(r.field);
            Row {
                bits: BitRange(r.lo, r.hi()).to_string(),
                field: field.to_string(),
                raw: RawBits {
                    value: r.get(raw),
                    width: r.width,
                }
                .to_string(),
                meaning: meaning(r),
                flagged: problems
                    .iter()
                    .any(|d| concerns(d.field(), field, r.lo, r.hi())),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escaping() {
        let mut s = String::new();
        json_str(&mut s, "plain ünïcode \"q\" back\\slash\nnl\ttab\u{1}").expect("fmt");
        assert_eq!(s, r#""plain ünïcode \"q\" back\\slash\nnl\ttab\u0001""#);
    }

    #[test]
    fn numbers() {
        for v in [0u64, 7, 10, 99, 255, 256, 1000, u64::MAX] {
            let mut s = String::new();
            push_dec(&mut s, v);
            assert_eq!(s, v.to_string());
            let mut a = Ascii::<32>::new();
            a.dec(v);
            let mut t = String::new();
            a.flush(&mut t);
            assert_eq!(t, v.to_string());
        }
        let mut s = String::new();
        push_hex(&mut s, 0x0810_0490, 8);
        push_hex(&mut s, u64::MAX, 16);
        assert_eq!(s, "0x081004900xffffffffffffffff");
    }

    #[test]
    fn objects_and_keys() {
        let mut s = String::new();
        let mut o = Obj::open(&mut s);
        o.num(key!("a"), 1).expect("fmt");
        o.bool(key!("b"), true).expect("fmt");
        o.name(key!("c"), "128B").expect("fmt");
        o.hex(key!("d"), 255, 4);
        o.close();
        assert_eq!(s, r#"{"a":1,"b":true,"c":"128B","d":"0x00ff"}"#);
    }

    #[test]
    fn column_ranges() {
        let mut s = String::new();
        ranges(&mut s, &[0, 1, 2, 5, 7, 8], ", ").expect("fmt");
        assert_eq!(s, "0-2, 5, 7-8");
    }
}
