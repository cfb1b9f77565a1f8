//! JSON output: escaped strings, objects built in place, problems as objects.

use std::fmt::{self, Write as _};

use tcgen05::diagnostic::{Diagnostic, Severity};

use super::text::{push_dec, push_hex};

/// A `fmt::Write` adapter that escapes what it is given as the inside of a JSON string.
pub struct JsonEsc<'a>(pub &'a mut String);

/// Whether any byte of `w` (8 bytes of text) is `"`, `\` or a control character below 0x20.
///
/// Each test is the exact any-byte-zero test on a transformed word: `x - 0x01..01` borrows
/// through a byte's top bit, where that byte's own top bit was clear, only when some byte is 0
/// (for `x ^ c`: some byte equals `c`; for `x - 0x20..20`: some byte is below 0x20).
#[inline(always)]
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & TOPS;
    let below = w.wrapping_sub(ONES * 0x20) & !w & TOPS;
    zero(w ^ (ONES * u64::from(b'"'))) | zero(w ^ (ONES * u64::from(b'\\'))) | below != 0
}

/// Where the first byte of `s` that needs escaping is, if any: eight bytes at a time, then byte
/// by byte within the word that has one (and in the last few bytes).
#[inline]
fn first_escape(s: &[u8]) -> Option<usize> {
    let mut start = 0;
    let mut words = s.chunks_exact(8);
    for w in words.by_ref() {
        let word = u64::from_le_bytes(w.try_into().unwrap_or_default());
        if needs_escape(word) {
            break;
        }
        start += 8;
    }
    s.get(start..)?
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map(|i| start + i)
}

impl fmt::Write for JsonEsc<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Copy runs of plain characters whole; only `"`, `\` and control characters (all ASCII,
        // so never inside a multi-byte character) need escaping.
        let mut rest = s;
        while let Some(i) = first_escape(rest.as_bytes()) {
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
        // Each branch pushes a text whose length is known where this is inlined, which then
        // compiles to a few moves instead of a call to copy memory.
        if self.first {
            self.first = false;
            self.buf.push_str(k.strip_prefix(',').unwrap_or(k));
        } else {
            self.buf.push_str(k);
        }
        self.buf
    }

    /// Writes a key that is a core name (letters, digits and `_`, such as a layout row's key),
    /// with its comma, and returns the buffer for the value.
    pub fn named_key(&mut self, name: &str) -> &mut String {
        if !self.first {
            self.buf.push(',');
        }
        self.first = false;
        self.buf.push('"');
        self.buf.push_str(name);
        self.buf.push_str("\":");
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
        // Two pushes of known length rather than one of either length: no call to copy memory.
        let buf = self.key(k);
        if v {
            buf.push_str("true");
        } else {
            buf.push_str("false");
        }
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

/// Puts the command line's warnings into a `--json` object that does not have them yet: into
/// its top-level `warnings` array, or as a new `warnings` key.
pub fn add_warnings(out: &mut String, warnings: &[(bool, String)]) {
    let items: Vec<&str> = warnings
        .iter()
        .filter(|(e, j)| !*e && !out.contains(j.as_str()))
        .map(|(_, j)| j.as_str())
        .collect();
    let body = out.trim_end();
    if items.is_empty() || !body.starts_with('{') || !body.ends_with('}') {
        return;
    }
    let mut depth = 0i32;
    let mut in_str = false;
    let mut esc = false;
    let mut at = None;
    for (i, c) in body.char_indices() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, '\\') => esc = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                if depth == 1 && body[i..].starts_with("\"warnings\":[") {
                    at = Some(i + "\"warnings\":[".len());
                }
            }
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
    }
    let joined = items.join(",");
    *out = match at {
        Some(i) => {
            let sep = if body[i..].starts_with(']') { "" } else { "," };
            format!("{}{joined}{sep}{}\n", &body[..i], &body[i..])
        }
        None => {
            let inner = &body[..body.len() - 1];
            let sep = if inner.trim_end().ends_with('{') {
                ""
            } else {
                ","
            };
            format!("{inner}{sep}\"warnings\":[{joined}]}}\n")
        }
    };
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
    fn escapes_found_at_every_place() {
        let specials = ['"', '\\', '\n', '\u{0}', '\u{1f}', 'é', '\u{7f}', ' ', '~'];
        for len in 0..20 {
            for at in 0..len {
                for &c in &specials {
                    let text: String = (0..len).map(|i| if i == at { c } else { 'a' }).collect();
                    let mut got = String::new();
                    json_str(&mut got, &text).expect("fmt");
                    let mut want = String::from("\"");
                    for ch in text.chars() {
                        match ch {
                            '"' => want.push_str("\\\""),
                            '\\' => want.push_str("\\\\"),
                            '\n' => want.push_str("\\n"),
                            c if (c as u32) < 0x20 => {
                                want.push_str(&format!("\\u{:04x}", c as u32));
                            }
                            c => want.push(c),
                        }
                    }
                    want.push('"');
                    assert_eq!(got, want, "{text:?}");
                }
            }
        }
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
}
