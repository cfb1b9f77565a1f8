//! Batch mode: one value per line of standard input, one result per line of standard output.
//!
//! Policy (also in `--help`): every input line gets exactly one result line, so results stay
//! aligned with the input. A line that is not a number (empty, blank, garbage, too wide, longer
//! than any number) gets an `unreadable` result and an `error: line N: ...` on stderr, and
//! reading goes on; the exit status is then 2. Otherwise it is 1 when any value breaks a rule,
//! else 0. Rule errors are given in the result lines, and counted on stderr at the end.

use std::fmt::{self, Write as _};
use std::io::{self, BufRead, Write};

use crate::number::{self, NumError};
use crate::out::{Ctx, JsonEsc, Obj, Status};

/// Longest line kept; anything longer cannot be a number (64 bits in decimal with a separator
/// between every digit is under 40 bytes), so the rest is skipped unread.
const MAX_LINE: usize = 256;

/// How many input bytes an unreadable line's result echoes.
const ECHO: usize = 48;

/// Decodes one value into one result line (without the newline).
pub trait Decoder {
    /// Width of the descriptor: values above it are unreadable.
    const BITS: u32;

    /// Writes the result for `raw` into `buf`; returns whether the value is valid.
    fn line(&mut self, raw: u64, buf: &mut String, json: bool) -> Result<bool, fmt::Error>;
}

/// Reads one line into `line` (without its newline), keeping at most [`MAX_LINE`] bytes.
/// Returns `None` at the end of input, otherwise whether the line was cut.
fn read_line<R: BufRead>(r: &mut R, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if any { Some(cut) } else { None });
        }
        any = true;
        let (end, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, i + 1, true),
            None => (chunk.len(), chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        let keep = end.min(room);
        if keep < end {
            cut = true;
        }
        line.extend_from_slice(chunk.get(..keep).unwrap_or_default());
        r.consume(used);
        if done {
            return Ok(Some(cut));
        }
    }
}

/// The start of an unreadable line, printable: escaped, cut at [`ECHO`] bytes.
struct Echo<'a>(&'a [u8]);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.0.trim_ascii();
        let shown = t.get(..ECHO).unwrap_or(t);
        f.write_char('"')?;
        write!(f, "{}", shown.escape_ascii())?;
        if shown.len() < t.len() {
            f.write_str("...")?;
        }
        f.write_char('"')
    }
}

fn fmt_err(_: fmt::Error) -> io::Error {
    io::Error::other("formatting failed")
}

/// Runs a batch: reads `input` to its end, writes one result per line to `out`, unreadable
/// lines and the closing counts to `err`.
pub fn run<D: Decoder, R: BufRead, W: Write, E: Write>(
    dec: &mut D,
    mut input: R,
    mut out: W,
    mut err: E,
    ctx: Ctx,
) -> io::Result<Status> {
    let mut line = Vec::with_capacity(MAX_LINE);
    let mut buf = String::with_capacity(1024);
    let mut lines: u64 = 0;
    let mut unreadable: u64 = 0;
    let mut invalid: u64 = 0;
    let es = ctx.err;
    while let Some(cut) = read_line(&mut input, &mut line)? {
        lines += 1;
        buf.clear();
        let parsed = if cut {
            Err(NumError::TooLong)
        } else {
            number::parse(&line, D::BITS)
        };
        match parsed {
            Ok(v) => {
                if !dec.line(v, &mut buf, ctx.json).map_err(fmt_err)? {
                    invalid += 1;
                }
            }
            Err(e) => {
                unreadable += 1;
                if ctx.json {
                    let mut o = Obj::open(&mut buf);
                    o.num(key!("line"), lines).map_err(fmt_err)?;
                    let b = o.key(key!("input"));
                    b.push('"');
                    let t = line.trim_ascii();
                    let shown = t.get(..ECHO).unwrap_or(t);
                    write!(JsonEsc(b), "{}", String::from_utf8_lossy(shown)).map_err(fmt_err)?;
                    b.push('"');
                    o.bool(key!("valid"), false).map_err(fmt_err)?;
                    o.str(key!("error"), e).map_err(fmt_err)?;
                    o.close();
                } else {
                    write!(buf, "{} unreadable: {e}", Echo(&line)).map_err(fmt_err)?;
                }
                writeln!(
                    err,
                    "{}error{}: line {lines}: {}: {e}",
                    es.red(),
                    es.reset(),
                    Echo(&line)
                )?;
            }
        }
        buf.push('\n');
        out.write_all(buf.as_bytes())?;
    }
    out.flush()?;
    if lines == 0 {
        writeln!(
            err,
            "{}warning{}: no values on standard input",
            es.yellow(),
            es.reset()
        )?;
    }
    if invalid > 0 {
        writeln!(
            err,
            "{}error{}: {invalid} of {lines} values break a rule (see their result lines)",
            es.red(),
            es.reset()
        )?;
    }
    if unreadable > 0 {
        writeln!(
            err,
            "{}error{}: {unreadable} of {lines} lines are not numbers",
            es.red(),
            es.reset()
        )?;
    }
    err.flush()?;
    Ok(if unreadable > 0 {
        Status::Usage
    } else if invalid > 0 {
        Status::Rule
    } else {
        Status::Valid
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_and_cut() {
        let data = b"0x1\n\n  7 \r\nlast";
        let mut r = &data[..];
        let mut line = Vec::new();
        let mut got = Vec::new();
        while let Some(cut) = read_line(&mut r, &mut line).expect("read") {
            got.push((line.clone(), cut));
        }
        assert_eq!(
            got,
            [
                (b"0x1".to_vec(), false),
                (b"".to_vec(), false),
                (b"  7 \r".to_vec(), false),
                (b"last".to_vec(), false)
            ]
        );
        let long = vec![b'1'; 1000];
        let mut r = &long[..];
        assert_eq!(read_line(&mut r, &mut line).expect("read"), Some(true));
        assert_eq!(line.len(), MAX_LINE);
        assert_eq!(read_line(&mut r, &mut line).expect("read"), None);
    }
}
