//! Text output: colour, numbers as text, problem lines, field tables and verdicts.

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

/// `000` to `999`, three digits each: the decimal text of numbers below 1000, sliced.
const DEC3: &str = match std::str::from_utf8(&DEC3_BYTES) {
    Ok(s) => s,
    Err(_) => "",
};

const DEC3_BYTES: [u8; 3000] = dec3();

const fn dec3() -> [u8; 3000] {
    let mut t = [0u8; 3000];
    let mut v = 0;
    while v < 1000 {
        // Each a digit, so the casts keep them.
        t[3 * v] = b'0' + (v / 100) as u8;
        t[3 * v + 1] = b'0' + (v / 10 % 10) as u8;
        t[3 * v + 2] = b'0' + (v % 10) as u8;
        v += 1;
    }
    t
}

/// `00` to `ff`, two digits each: the hexadecimal text of each byte, sliced.
const HEX2: &str = match std::str::from_utf8(&HEX2_BYTES) {
    Ok(s) => s,
    Err(_) => "",
};

const HEX2_BYTES: [u8; 512] = hex2();

const fn hex2() -> [u8; 512] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 256 {
        t[2 * v] = HEX[v >> 4];
        t[2 * v + 1] = HEX[v & 0xf];
        v += 1;
    }
    t
}

/// Appends `v` in decimal.
#[inline(always)]
pub fn push_dec(buf: &mut String, v: u64) {
    if v < 10 {
        // One digit, so the cast keeps it.
        buf.push(char::from(b'0' + v as u8));
        return;
    }
    if v < 1000 {
        // Below 1000, so the cast keeps it.
        let at = 3 * v as usize;
        // Slices of known length, copied without a call.
        let digits = if v < 100 {
            DEC3.get(at + 1..at + 3)
        } else {
            DEC3.get(at..at + 3)
        };
        if let Some(s) = digits {
            buf.push_str(s);
            return;
        }
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
    buf.push_str("0x");
    let width = width.min(16);
    if width % 2 == 1 {
        // One digit: the byte's second half.
        let at = 2 * ((v >> (4 * (width - 1))) & 0xf) as usize + 1;
        buf.push_str(HEX2.get(at..at + 1).unwrap_or_default());
    }
    for pair in (0..width / 2).rev() {
        // A byte, so the cast keeps it.
        let at = 2 * ((v >> (8 * pair)) & 0xff) as usize;
        buf.push_str(HEX2.get(at..at + 2).unwrap_or_default());
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

#[cfg(test)]
mod tests {
    use super::*;

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
        push_hex(&mut s, 0xabc, 3);
        push_hex(&mut s, 0x1f, 1);
        assert_eq!(s, "0x081004900xffffffffffffffff0xabc0xf");
        for v in (0..2000).chain([9999, 123_456_789]) {
            let mut s = String::new();
            push_dec(&mut s, v);
            assert_eq!(s, v.to_string());
        }
    }

    #[test]
    fn column_ranges() {
        let mut s = String::new();
        ranges(&mut s, &[0, 1, 2, 5, 7, 8], ", ").expect("fmt");
        assert_eq!(s, "0-2, 5, 7-8");
    }
}
