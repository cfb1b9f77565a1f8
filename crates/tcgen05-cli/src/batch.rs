//! Batch mode: one value per line of standard input, one result per line of standard output.
//!
//! Policy (also in `--help`): every input line gets exactly one result line, so results stay
//! aligned with the input. A line that is not a number (empty, blank, garbage, too wide, longer
//! than any number) gets an `unreadable` result and an `error: line N: ...` on stderr, and
//! reading goes on; the exit status is then 2. Otherwise it is 1 when any value breaks a rule,
//! else 0. Rule errors are given in the result lines, and counted on stderr at the end.
//!
//! Blocks of lines are decoded on several threads (`TCGEN05_THREADS`, default: the available
//! parallelism) and written back in input order, so the output does not depend on the count.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::io::{self, BufRead, Write};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

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

/// Lines per block handed to a worker: small enough that a block's output stays in cache.
const BLOCK_LINES: usize = 1024;

/// A block of input lines: their bytes, and for each its end in `data` and whether it was cut.
#[derive(Default)]
struct Block {
    seq: u64,
    first_line: u64,
    data: Vec<u8>,
    lines: Vec<(usize, bool)>,
}

/// What a worker made of a block: standard output and error text, and counts.
struct Done {
    seq: u64,
    out: String,
    err: String,
    unreadable: u64,
    invalid: u64,
}

/// Decodes the lines of one block into `done` (cleared first).
fn decode_block<D: Decoder>(dec: &mut D, block: &Block, ctx: Ctx, done: &mut Done) -> fmt::Result {
    done.out.clear();
    done.err.clear();
    done.unreadable = 0;
    done.invalid = 0;
    done.seq = block.seq;
    let es = ctx.err;
    let mut start = 0;
    for (i, &(end, cut)) in block.lines.iter().enumerate() {
        let line = block.data.get(start..end).unwrap_or_default();
        start = end;
        let line_no = block.first_line + i as u64;
        let parsed = if cut {
            Err(NumError::TooLong)
        } else {
            number::parse(line, D::BITS)
        };
        match parsed {
            Ok(v) => {
                if !dec.line(v, &mut done.out, ctx.json)? {
                    done.invalid += 1;
                }
            }
            Err(e) => {
                done.unreadable += 1;
                if ctx.json {
                    let mut o = Obj::open(&mut done.out);
                    o.num(key!("line"), line_no)?;
                    let b = o.key(key!("input"));
                    b.push('"');
                    let t = line.trim_ascii();
                    let shown = t.get(..ECHO).unwrap_or(t);
                    write!(JsonEsc(b), "{}", String::from_utf8_lossy(shown))?;
                    b.push('"');
                    o.bool(key!("valid"), false)?;
                    o.str(key!("error"), e)?;
                    o.close();
                } else {
                    write!(done.out, "{} unreadable: {e}", Echo(line))?;
                }
                writeln!(
                    done.err,
                    "{}error{}: line {line_no}: {}: {e}",
                    es.red(),
                    es.reset(),
                    Echo(line)
                )?;
            }
        }
        done.out.push('\n');
    }
    Ok(())
}

/// How many threads decode: `TCGEN05_THREADS` when set (at least 1), otherwise the available
/// parallelism (at most 16).
fn workers() -> usize {
    std::env::var("TCGEN05_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(16)))
        .max(1)
}

/// Runs a batch: reads `input` to its end, writes one result per line to `out` in input order,
/// unreadable lines and the closing counts to `err`.
///
/// A reader thread cuts the input into blocks of lines, worker threads (each with its own
/// decoder from `make`) decode them, and this thread writes the results back in order. When
/// writing fails (the output was closed), this returns at once; the other threads end with the
/// process.
pub fn run<D, M, R, W, E>(make: M, input: R, mut out: W, mut err: E, ctx: Ctx) -> io::Result<Status>
where
    D: Decoder,
    M: Fn() -> D + Send + Sync + 'static,
    R: BufRead + Send + 'static,
    W: Write,
    E: Write,
{
    let threads = workers();
    let (block_tx, block_rx) = mpsc::sync_channel::<Block>(threads * 2);
    let (done_tx, done_rx) = mpsc::sync_channel::<Result<Done, fmt::Error>>(threads * 2);
    let reader = thread::spawn(move || read_blocks(input, &block_tx));
    let block_rx = Arc::new(Mutex::new(block_rx));
    let make = Arc::new(make);
    // Output buffers go back to the workers once written, so that memory is reused.
    let pool: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    for _ in 0..threads {
        let (done_tx, block_rx, make) = (done_tx.clone(), Arc::clone(&block_rx), Arc::clone(&make));
        let pool = Arc::clone(&pool);
        thread::spawn(move || {
            let mut dec = make();
            loop {
                // One worker at a time waits for the next block.
                let next = match block_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok(block) = next else { return };
                let out = pool
                    .lock()
                    .ok()
                    .and_then(|mut p| p.pop())
                    .unwrap_or_else(|| String::with_capacity(BLOCK_LINES * 256));
                let mut done = Done {
                    seq: 0,
                    out,
                    err: String::new(),
                    unreadable: 0,
                    invalid: 0,
                };
                let r = decode_block(&mut dec, &block, ctx, &mut done).map(|()| done);
                if done_tx.send(r).is_err() {
                    return;
                }
            }
        });
    }
    drop(done_tx);
    let mut unreadable: u64 = 0;
    let mut invalid: u64 = 0;
    // Results come back in any order; write them in input order.
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for r in done_rx.iter() {
        let done = r.map_err(fmt_err)?;
        pending.insert(done.seq, done);
        while let Some(done) = pending.remove(&next) {
            out.write_all(done.out.as_bytes())?;
            if !done.err.is_empty() {
                out.flush()?;
                err.write_all(done.err.as_bytes())?;
            }
            unreadable += done.unreadable;
            invalid += done.invalid;
            next += 1;
            if let Ok(mut p) = pool.lock() {
                p.push(done.out);
            }
        }
    }
    // Every worker has finished, so the reader has sent its last block.
    let lines = reader
        .join()
        .map_err(|_| io::Error::other("the input reader stopped"))??;
    out.flush()?;
    let es = ctx.err;
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

/// The reader: cuts `input` into blocks and sends them; returns the number of lines read.
/// Stops early, without error, when the workers are gone (the output was closed).
fn read_blocks<R: BufRead>(mut input: R, tx: &mpsc::SyncSender<Block>) -> io::Result<u64> {
    let mut line = Vec::with_capacity(MAX_LINE);
    let mut lines = 0u64;
    let mut seq = 0u64;
    let mut block = Block {
        first_line: 1,
        ..Block::default()
    };
    while let Some(cut) = read_line(&mut input, &mut line)? {
        lines += 1;
        block.data.extend_from_slice(&line);
        block.lines.push((block.data.len(), cut));
        if block.lines.len() == BLOCK_LINES {
            let next = Block {
                seq: seq + 1,
                first_line: lines + 1,
                data: Vec::with_capacity(block.data.capacity()),
                lines: Vec::with_capacity(BLOCK_LINES),
            };
            if tx.send(std::mem::replace(&mut block, next)).is_err() {
                return Ok(lines);
            }
            seq += 1;
        }
    }
    if !block.lines.is_empty() {
        // A closed channel only means the output side stopped first.
        let _ = tx.send(block);
    }
    Ok(lines)
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
