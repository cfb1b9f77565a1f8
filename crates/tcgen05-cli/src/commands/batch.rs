//! Batch mode: one value per line of standard input, one result per line of standard output.
//!
//! Policy (also in `--help`): every input line gets exactly one result line, so results stay
//! aligned with the input. A line that is not a number (empty, blank, garbage, too wide, longer
//! than any number) gets an `unreadable` result and an `error: line N: ...` on stderr, and
//! reading goes on; the exit status is then 2. Otherwise it is 1 when any value breaks a rule,
//! else 0. Rule errors are given in the result lines, and counted on stderr at the end.
//!
//! Blocks of lines are decoded on several threads (`TCGEN05_THREADS`, 1 to [`MAX_THREADS`];
//! default: the available parallelism, at most 16) and written back in input order, so the
//! output does not depend on the count.
//!
//! Nothing is lost silently: a block whose decoding fails (an internal error or a panic) stops
//! the output at that block with an `error:` naming the lines not written, exit status 2; a read
//! error on standard input is exit status 2 with its message; and the number of result lines
//! written is checked against the number of lines read. When standard output is closed early
//! (`| head`), the command stops quietly with exit status 0.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use crate::args::number::{self, NumError};
use crate::render::{Ctx, JsonEsc, Obj, Status};

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

/// A block whose results were lost: where it was, and why.
struct Lost {
    seq: u64,
    first_line: u64,
    lines: u64,
    why: String,
}

/// The message of a panic payload.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    let msg = p
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    format!("a decoding thread panicked ({msg})")
}

/// Lines per block handed to a worker: enough that handing blocks between threads costs little
/// beside decoding them (a block of random descriptors gives a few megabytes of JSON).
const BLOCK_LINES: usize = 4096;

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
    lines: u64,
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
    done.lines = block.lines.len() as u64;
    let es = ctx.err;
    let mut start = 0;
    for (i, &(end, cut)) in block.lines.iter().enumerate() {
        let line = block.data.get(start..end).unwrap_or_default();
        start = end;
        let line_no = block.first_line + i as u64;
        let parsed = if cut {
            Err(NumError::TooLong)
        } else {
            match plain_hex(line) {
                Some(v) if D::BITS >= 64 || v >> D::BITS == 0 => Ok(v),
                _ => number::parse(line, D::BITS),
            }
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

/// The value of each byte as a hexadecimal digit, or `0xff` for a byte that is not one.
const HEX_DIGIT: [u8; 256] = hex_digits();

const fn hex_digits() -> [u8; 256] {
    let mut t = [0xff; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
}

/// Reads `0x` and 1 to 16 hexadecimal digits, nothing around them: the form most batch input
/// takes, read without the general parser's checks. Anything else gives `None` and goes to
/// [`number::parse`], which gives the same value for every line read here.
#[inline]
fn plain_hex(line: &[u8]) -> Option<u64> {
    let digits = line.strip_prefix(b"0x")?;
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let mut v = 0u64;
    let mut bad = 0u8;
    for &b in digits {
        let d = HEX_DIGIT[usize::from(b)];
        bad |= d;
        v = v << 4 | u64::from(d & 0xf);
    }
    (bad & 0xf0 == 0).then_some(v)
}

/// The most decoding threads `TCGEN05_THREADS` may ask for: far above any useful count (the
/// work is bound by one writer), far below what exhausts the system.
pub const MAX_THREADS: usize = 256;

/// How many threads decode: `TCGEN05_THREADS` when set (1 to [`MAX_THREADS`]), otherwise the
/// available parallelism (at most 16). A value that is not a number in that range gives a
/// warning naming it and the default (or the cap) is used.
fn workers(var: Option<&str>) -> (usize, Option<String>) {
    let default = std::thread::available_parallelism().map_or(1, |n| n.get().min(16));
    let Some(v) = var else {
        return (default, None);
    };
    match v.trim().parse::<u64>() {
        Ok(n @ 1..) if n <= MAX_THREADS as u64 => (n as usize, None),
        Ok(0) => (
            default,
            Some(format!(
                "TCGEN05_THREADS = \"{v}\": at least 1 thread is needed; using {default}"
            )),
        ),
        Ok(_) => (
            MAX_THREADS,
            Some(format!(
                "TCGEN05_THREADS = \"{v}\": more than {MAX_THREADS} threads; using {MAX_THREADS}"
            )),
        ),
        Err(_) => (
            default,
            Some(format!(
                "TCGEN05_THREADS = \"{v}\" is not a number; using {default}"
            )),
        ),
    }
}

/// One decoding thread: takes the next block, decodes it with its own decoder into a buffer
/// from `pool`, and sends the result (or what was lost, on a formatting error or a panic);
/// ends when the blocks run out, after a lost block, or when the writer is gone.
fn work<D: Decoder>(
    make: &impl Fn() -> D,
    block_rx: &Mutex<mpsc::Receiver<Block>>,
    pool: &Mutex<Vec<String>>,
    done_tx: &mpsc::SyncSender<Result<Done, Lost>>,
    ctx: Ctx,
) {
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
            lines: 0,
            out,
            err: String::new(),
            unreadable: 0,
            invalid: 0,
        };
        let lost = |why: String| Lost {
            seq: block.seq,
            first_line: block.first_line,
            lines: block.lines.len() as u64,
            why,
        };
        let r = match catch_unwind(AssertUnwindSafe(|| {
            decode_block(&mut dec, &block, ctx, &mut done)
        })) {
            Ok(Ok(())) => Ok(done),
            Ok(Err(fmt::Error)) => Err(lost("formatting failed".into())),
            Err(p) => Err(lost(panic_text(p.as_ref()))),
        };
        let stop = r.is_err();
        if done_tx.send(r).is_err() || stop {
            return;
        }
    }
}

/// The closing lines on `err` (no values, values that break a rule, lines that are not
/// numbers) and the exit status they give.
fn summary<E: Write>(
    err: &mut E,
    ctx: Ctx,
    lines: u64,
    invalid: u64,
    unreadable: u64,
) -> io::Result<Status> {
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
    let var = std::env::var("TCGEN05_THREADS").ok();
    let (threads, warning) = workers(var.as_deref());
    if let Some(w) = warning {
        let es = ctx.err;
        writeln!(err, "{}warning{}: {w}", es.yellow(), es.reset())?;
    }
    let (block_tx, block_rx) = mpsc::sync_channel::<Block>(threads * 2);
    let (done_tx, done_rx) = mpsc::sync_channel::<Result<Done, Lost>>(threads * 2);
    let reader = thread::spawn(move || read_blocks(input, &block_tx));
    let block_rx = Arc::new(Mutex::new(block_rx));
    let make = Arc::new(make);
    // Output buffers go back to the workers once written, so that memory is reused.
    let pool: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    for _ in 0..threads {
        let (done_tx, block_rx, make) = (done_tx.clone(), Arc::clone(&block_rx), Arc::clone(&make));
        let pool = Arc::clone(&pool);
        thread::spawn(move || work(&*make, &block_rx, &pool, &done_tx, ctx));
    }
    drop(done_tx);
    let mut unreadable: u64 = 0;
    let mut invalid: u64 = 0;
    let mut written: u64 = 0;
    // Results come back in any order; write them in input order, up to the first lost block.
    let mut pending = BTreeMap::new();
    let mut lost: Option<Lost> = None;
    let mut next = 0u64;
    for r in done_rx.iter() {
        match r {
            Ok(done) => {
                pending.insert(done.seq, Ok(done));
            }
            Err(l) => {
                pending.insert(l.seq, Err(l));
            }
        }
        while let Some(r) = pending.remove(&next) {
            let done = match r {
                Ok(done) => done,
                Err(l) => {
                    lost = Some(l);
                    break;
                }
            };
            written += done.lines;
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
        if lost.is_some() {
            break;
        }
    }
    out.flush()?;
    let es = ctx.err;
    if let Some(l) = lost {
        // The other threads end with the process; the output stops where the gap begins.
        writeln!(
            err,
            "{}error{}: internal error decoding lines {}-{}: {}; results written for the first {written} lines only",
            es.red(),
            es.reset(),
            l.first_line,
            l.first_line + l.lines - 1,
            l.why,
        )?;
        err.flush()?;
        return Ok(Status::Usage);
    }
    // Every worker has finished, so the reader has sent its last block.
    let lines = reader
        .join()
        .map_err(|_| io::Error::other("the input reader stopped"))??;
    if written != lines {
        writeln!(
            err,
            "{}error{}: internal error: {lines} lines read but {written} results written",
            es.red(),
            es.reset(),
        )?;
        err.flush()?;
        return Ok(Status::Usage);
    }
    summary(&mut err, ctx, lines, invalid, unreadable)
}

/// The reader: cuts `input` into blocks and sends them; returns the number of lines read.
/// Stops early, without error, when the workers are gone (the output was closed).
///
/// Each line goes into its block without its newline, keeping at most [`MAX_LINE`] bytes (the
/// rest is skipped and the line marked as cut); text after the last newline is a last line.
/// Lines are cut out of the input's buffer as it comes, however they fall across its refills.
fn read_blocks<R: BufRead>(mut input: R, tx: &mpsc::SyncSender<Block>) -> io::Result<u64> {
    let mut lines = 0u64;
    let mut seq = 0u64;
    let mut block = Block {
        first_line: 1,
        ..Block::default()
    };
    // The line being read: where it starts in the block, whether it was cut, whether it has
    // any byte yet (a last line without a newline counts only then).
    let mut start = 0;
    let mut cut = false;
    let mut open = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        let used = chunk.len();
        let mut rest = chunk;
        while !rest.is_empty() {
            open = true;
            let (end, done) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (rest.len(), false),
            };
            let room = MAX_LINE.saturating_sub(block.data.len() - start);
            let keep = end.min(room);
            cut |= keep < end;
            block
                .data
                .extend_from_slice(rest.get(..keep).unwrap_or_default());
            if !done {
                break;
            }
            rest = rest.get(end + 1..).unwrap_or_default();
            lines += 1;
            block.lines.push((block.data.len(), cut));
            cut = false;
            open = false;
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
            start = block.data.len();
        }
        input.consume(used);
    }
    if open {
        lines += 1;
        block.lines.push((block.data.len(), cut));
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

    /// The lines `read_blocks` makes of `data` read through a buffer of `cap` bytes, with
    /// whether each was cut, and the count it returns.
    fn split(data: &[u8], cap: usize) -> (Vec<(Vec<u8>, bool)>, u64) {
        let (tx, rx) = mpsc::sync_channel(1 << 12);
        let n = read_blocks(io::BufReader::with_capacity(cap, data), &tx).expect("read");
        drop(tx);
        let mut got = Vec::new();
        for block in rx.iter() {
            let mut start = 0;
            for &(end, cut) in &block.lines {
                got.push((block.data.get(start..end).expect("in block").to_vec(), cut));
                start = end;
            }
        }
        (got, n)
    }

    #[test]
    fn lines_are_split_and_cut() {
        let data = b"0x1\n\n  7 \r\nlast";
        let want = [
            (b"0x1".to_vec(), false),
            (b"".to_vec(), false),
            (b"  7 \r".to_vec(), false),
            (b"last".to_vec(), false),
        ];
        for cap in [1, 2, 3, 5, 8192] {
            assert_eq!(split(data, cap), (want.to_vec(), 4), "buffer of {cap}");
            let mut ended = data.to_vec();
            ended.push(b'\n');
            assert_eq!(split(&ended, cap), (want.to_vec(), 4), "buffer of {cap}");
        }
        let mut long = vec![b'1'; 1000];
        long.extend_from_slice(b"\n2\n");
        long.extend(vec![b'3'; 300]);
        for cap in [1, 7, 256, 8192] {
            let (got, n) = split(&long, cap);
            assert_eq!(n, 3);
            assert_eq!(got[0], (vec![b'1'; MAX_LINE], true));
            assert_eq!(got[1], (b"2".to_vec(), false));
            assert_eq!(got[2], (vec![b'3'; MAX_LINE], true));
        }
        assert_eq!(split(b"", 8), (Vec::new(), 0));
        let many: Vec<u8> = b"5\n".repeat(BLOCK_LINES * 2 + 1);
        let (got, n) = split(&many, 64);
        assert_eq!(n, BLOCK_LINES as u64 * 2 + 1);
        assert!(got.iter().all(|l| *l == (b"5".to_vec(), false)));
    }

    /// Writes `raw` back; panics on 5000 (a stand-in for a decoder bug).
    struct Echoer;

    impl Decoder for Echoer {
        const BITS: u32 = 64;
        fn line(&mut self, raw: u64, buf: &mut String, _json: bool) -> Result<bool, fmt::Error> {
            assert!(raw != 5000, "injected");
            write!(buf, "{raw}")?;
            Ok(true)
        }
    }

    fn ctx() -> Ctx {
        Ctx {
            json: false,
            out: crate::render::Style::new(false),
            err: crate::render::Style::new(false),
        }
    }

    fn input(n: u64) -> Vec<u8> {
        (1..=n)
            .map(|i| format!("{i}\n"))
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn a_panicking_block_is_an_error_not_a_short_output() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let r = run(
            || Echoer,
            io::Cursor::new(input(20_000)),
            &mut out,
            &mut err,
            ctx(),
        );
        let err = String::from_utf8_lossy(&err);
        assert_eq!(r.expect("no i/o error"), Status::Usage, "{err}");
        assert!(
            err.contains("internal error decoding lines 4097-8192")
                && err.contains("a decoding thread panicked (injected)")
                && err.contains("results written for the first 4096 lines only"),
            "{err}"
        );
        let out = String::from_utf8_lossy(&out);
        assert_eq!(out.lines().count(), 4096);
        assert_eq!(out.lines().last(), Some("4096"));
    }

    #[test]
    fn a_clean_run_writes_every_line() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let r = run(
            || Echoer,
            io::Cursor::new(input(4999)),
            &mut out,
            &mut err,
            ctx(),
        );
        assert_eq!(r.expect("no i/o error"), Status::Valid);
        assert_eq!(String::from_utf8_lossy(&out).lines().count(), 4999);
        assert!(err.is_empty());
    }

    /// Gives `data`, then a read error.
    struct Failing(io::Cursor<Vec<u8>>);

    impl io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match io::Read::read(&mut self.0, buf)? {
                0 => Err(io::Error::other("disk on fire")),
                n => Ok(n),
            }
        }
    }

    #[test]
    fn a_read_error_is_an_error() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let input = io::BufReader::new(Failing(io::Cursor::new(input(3000))));
        let r = run(|| Echoer, input, &mut out, &mut err, ctx());
        let e = r.expect_err("the read error is returned");
        assert!(e.to_string().contains("disk on fire"), "{e}");
    }

    #[test]
    fn thread_counts_are_bounded_and_bad_ones_named() {
        assert_eq!(workers(Some("4")), (4, None));
        assert_eq!(workers(Some(" 256 ")).0, 256);
        let (n, w) = workers(Some("1000000"));
        assert_eq!(n, MAX_THREADS);
        assert!(w.expect("warning").contains("\"1000000\": more than 256"));
        let (_, w) = workers(Some("0"));
        assert!(w.expect("warning").contains("at least 1"));
        let (_, w) = workers(Some("many"));
        assert!(w.expect("warning").contains("\"many\" is not a number"));
        assert!(workers(None).1.is_none());
    }
}
