//! Decodes raw 32-bit instruction descriptors under every kind and checks, for every value
//! visited, that it decodes without panicking, that the decoder's verdict equals both
//! `InstructionDescriptor::is_valid` (the same rules as masks) and an independent reading of
//! Tables 42-44 ([`mod@reference`]), and that the fields are read exactly when every type code is
//! defined. Every accepted value must re-encode to itself and be accepted by `from_bits` and
//! `valid_kinds`. One refused value in `--by-fields-every` (65536 by default, picked by a
//! multiplicative hash) is also decoded through its fields (`decode_by_fields`, the decoder's
//! former path) and must give the same fields and the same problems in the same order, with
//! `from_bits` returning the first error and `valid_kinds` leaving its kind out.
//!
//! Each block of 256 values is first checked without branching (every value decoded, its
//! verdicts compared, one flag kept per block); a block that holds an accepted, sampled or wrong
//! value is then visited value by value.
//!
//! ```text
//! tcgen05-idesc-sweep [--count N] [--start S] [--stride D] [--threads T] [--kind K]...
//!                     [--panic-at V] [--flip-at V] [--by-fields-every D]
//! ```
//! With no options it visits all 2^32 values and then also requires each kind's number of valid
//! values to equal the closed-form count of [`reference::count`]. `--stride` visits
//! `start + i * stride (mod 2^32)` for `i < count`; an odd stride never repeats a value, so a
//! short slice still reaches every bit of the word. A worker that panics fails the sweep
//! (`--panic-at V` makes the worker that meets value V panic, to test exactly that), and so does
//! any disagreement (`--flip-at V` inverts the decoder's verdict on V, to test that).
//! Prints values per second and, per kind, how many values are valid.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use tcgen05::instruction_descriptor::{IdescRule, InstructionDescriptor};
use tcgen05::Kind;

mod reference;

struct Options {
    start: u32,
    count: u64,
    stride: u32,
    threads: usize,
    kinds: Vec<Kind>,
    panic_at: Option<u32>,
    flip_at: Option<u32>,
    by_fields_mask: u32,
}

fn parse_u64(s: &str) -> Option<u64> {
    let s = s.replace('_', "");
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        start: 0,
        count: 1 << 32,
        stride: 1,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        kinds: Vec::new(),
        panic_at: None,
        flip_at: None,
        by_fields_mask: (1 << 16) - 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--start" => {
                o.start = parse_u64(&value("--start")?)
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or("--start: not a 32-bit number")?;
            }
            "--count" => {
                o.count = parse_u64(&value("--count")?)
                    .filter(|&c| c <= 1 << 32)
                    .ok_or("--count: not a number up to 2^32")?;
            }
            "--stride" => {
                o.stride = parse_u64(&value("--stride")?)
                    .and_then(|v| u32::try_from(v).ok())
                    .filter(|v| v % 2 == 1)
                    .ok_or("--stride: not an odd 32-bit number")?;
            }
            "--threads" => {
                o.threads = parse_u64(&value("--threads")?)
                    .and_then(|v| usize::try_from(v).ok())
                    .filter(|&t| t > 0)
                    .ok_or("--threads: not a positive number")?;
            }
            "--panic-at" => {
                o.panic_at = Some(
                    parse_u64(&value("--panic-at")?)
                        .and_then(|v| u32::try_from(v).ok())
                        .ok_or("--panic-at: not a 32-bit number")?,
                );
            }
            "--flip-at" => {
                o.flip_at = Some(
                    parse_u64(&value("--flip-at")?)
                        .and_then(|v| u32::try_from(v).ok())
                        .ok_or("--flip-at: not a 32-bit number")?,
                );
            }
            "--by-fields-every" => {
                o.by_fields_mask = parse_u64(&value("--by-fields-every")?)
                    .filter(|v| v.is_power_of_two() && *v <= 1 << 32)
                    .map(|v| (v - 1) as u32)
                    .ok_or("--by-fields-every: not a power of two up to 2^32")?;
            }
            "--kind" => {
                let k = value("--kind")?;
                o.kinds
                    .push(Kind::from_name(&k).ok_or(format!("--kind: unknown kind {k}"))?);
            }
            "-h" | "--help" => {
                return Err(
                    "usage: tcgen05-idesc-sweep [--count N] [--start S] [--stride D] \
                            [--threads T] [--kind K]... [--panic-at V] [--flip-at V] [--by-fields-every D]"
                        .into(),
                )
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.kinds.is_empty() {
        o.kinds = Kind::ALL.to_vec();
    }
    Ok(o)
}

/// Counts per kind: values accepted, and the first value (if any) that broke a property.
#[derive(Clone, Default)]
struct Tally {
    accepted: [u64; 7],
    by_fields: u64,
    /// Decodes whose verdict disagreed with `is_valid` or the tables read again (or with
    /// themselves: fields without defined types, a refusal with no error).
    wrong: u64,
    failure: Option<String>,
}

impl Tally {
    #[cold]
    #[inline(never)]
    fn fail(&mut self, message: String) {
        if self.failure.is_none() {
            self.failure = Some(message);
        }
    }
}

/// Values per unit of work that the threads take in turn.
const CHUNK: u64 = 1 << 16;

/// Values per block of [`check_kind`]'s first pass.
const BLOCK: u64 = 256;

/// Checks every value of one chunk under the kind `Kind::ALL[K]`: one function per kind, so that
/// the kind is a constant in each.
///
/// A first pass over each block of [`BLOCK`] values computes every property without branching
/// and counts the values that are wrong, accepted or sampled; only a block with such a value is
/// visited again, value by value, to look closer ([`closer_look`]).
fn check_kind<const K: usize>(first: u32, n: u64, o: &Options, t: &mut Tally) {
    let kind = Kind::ALL[K];
    let stride = o.stride;
    let flip = o.flip_at.unwrap_or(first.wrapping_sub(stride));
    let mut lo = 0;
    while lo < n {
        let len = BLOCK.min(n - lo);
        let start = first.wrapping_add((lo as u32).wrapping_mul(stride));
        let mut notable = false;
        for i in 0..len as u32 {
            let raw = start.wrapping_add(i.wrapping_mul(stride));
            notable |= look(raw, kind, flip, o.by_fields_mask) != 0;
        }
        if notable {
            for i in 0..len as u32 {
                let raw = start.wrapping_add(i.wrapping_mul(stride));
                let l = look(raw, kind, flip, o.by_fields_mask);
                if l != 0 {
                    closer_look(raw, kind, raw == flip, l & WRONG != 0, t);
                }
            }
        }
        lo += len;
    }
}

/// What the first pass makes of one value: bits [`SAMPLED`], [`VALID`], [`WRONG`], or 0.
const SAMPLED: u8 = 1;
const VALID: u8 = 2;
const WRONG: u8 = 4;

/// Decodes `raw` under `kind` and compares its verdict with `is_valid` and the tables read
/// again, without branching.
#[inline(always)]
fn look(raw: u32, kind: Kind, flip: u32, by_fields_mask: u32) -> u8 {
    let dec = InstructionDescriptor::decode(raw, kind);
    // `--flip-at V` stands for a decoder that errs on V, to test that the sweep notices.
    let valid = dec.is_valid() != (raw == flip);
    let wrong = (valid != InstructionDescriptor::is_valid(raw, kind))
        | (valid != reference::valid(raw, kind))
        // The fields exist exactly when every type code is defined.
        | (dec.fields.is_some() == dec.diagnostics.breaks(IdescRule::InvalidTypeCode))
        | (!valid & dec.diagnostics.is_empty());
    let sampled = raw.wrapping_mul(0x9E37_79B1) & by_fields_mask == 0;
    (u8::from(sampled) * SAMPLED) | (u8::from(valid) * VALID) | (u8::from(wrong) * WRONG)
}

/// The properties that only accepted values have, the slower cross-checks on the sampled ones,
/// and the report of a wrong one.
#[cold]
#[inline(never)]
fn closer_look(raw: u32, kind: Kind, flipped: bool, wrong: bool, t: &mut Tally) {
    let dec = InstructionDescriptor::decode(raw, kind);
    let valid = dec.is_valid() != flipped;
    if wrong {
        t.wrong += 1;
        t.fail(format!(
            "{raw:#010x} under {kind}: decode says {}, is_valid {}, Tables 42-44 read again {}, \
             fields {}, problems {:?}",
            if valid { "valid" } else { "invalid" },
            InstructionDescriptor::is_valid(raw, kind),
            reference::valid(raw, kind),
            if dec.fields.is_some() { "read" } else { "none" },
            dec.diagnostics,
        ));
    }
    if InstructionDescriptor::valid_kinds(raw).contains(kind) != valid {
        t.fail(format!(
            "{raw:#010x} under {kind}: valid_kinds disagrees with decode"
        ));
    }
    if valid {
        t.accepted[kind as usize] += 1;
        if InstructionDescriptor::from_bits(raw, kind).is_err() {
            t.fail(format!(
                "{raw:#010x} under {kind}: decode accepts, from_bits refuses"
            ));
        }
        let again = dec
            .fields
            .map(InstructionDescriptor::try_new)
            .map(|r| r.map(InstructionDescriptor::bits));
        if again != Some(Ok(raw)) {
            t.fail(format!(
                "{raw:#010x} under {kind}: accepted but re-encodes to {again:?}"
            ));
        }
    } else {
        // The whole decode against the field-by-field path it replaced: same fields, same
        // problems in the same order; from_bits gives the first error.
        t.by_fields += 1;
        if InstructionDescriptor::from_bits(raw, kind).err() != dec.diagnostics.first_error() {
            t.fail(format!(
                "{raw:#010x} under {kind}: from_bits is not the first error of decode"
            ));
        }
        let (fields, list) = InstructionDescriptor::decode_by_fields(raw, kind);
        if fields != dec.fields || !list.iter().eq(dec.diagnostics.iter()) {
            t.fail(format!(
                "{raw:#010x} under {kind}: decode gives {:?}, the field-by-field decode {:?}",
                dec.diagnostics, list
            ));
        }
    }
}

/// Checks the `n` values `first + i * stride` under every kind of `o.kinds`.
fn check_chunk(first: u32, n: u64, o: &Options, t: &mut Tally) {
    if let Some(p) = o.panic_at {
        let offset = p.wrapping_sub(first).wrapping_mul(inverse(o.stride));
        assert!(u64::from(offset) >= n, "--panic-at {p:#010x}");
    }
    debug_assert!(Kind::ALL.iter().enumerate().all(|(i, &k)| k as usize == i));
    for &kind in &o.kinds {
        match kind {
            Kind::F16 => check_kind::<0>(first, n, o, t),
            Kind::Tf32 => check_kind::<1>(first, n, o, t),
            Kind::F8f6f4 => check_kind::<2>(first, n, o, t),
            Kind::I8 => check_kind::<3>(first, n, o, t),
            Kind::Mxf8f6f4 => check_kind::<4>(first, n, o, t),
            Kind::Mxf4 => check_kind::<5>(first, n, o, t),
            Kind::Mxf4nvf4 => check_kind::<6>(first, n, o, t),
        }
    }
}

/// The inverse of an odd number modulo 2^32 (Newton's iteration), to find where a value falls in
/// a strided walk.
fn inverse(odd: u32) -> u32 {
    let mut x = odd;
    for _ in 0..5 {
        x = x.wrapping_mul(2u32.wrapping_sub(odd.wrapping_mul(x)));
    }
    x
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let began = Instant::now();
    let chunks = o.count.div_ceil(CHUNK);
    let next = AtomicU64::new(0);
    let tallies: Vec<Result<Tally, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..o.threads)
            .map(|_| {
                let (o, next) = (&o, &next);
                s.spawn(move || {
                    let mut tally = Tally::default();
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break;
                        }
                        let lo = c * CHUNK;
                        let n = CHUNK.min(o.count - lo);
                        let first = o.start.wrapping_add((lo as u32).wrapping_mul(o.stride));
                        check_chunk(first, n, o, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .enumerate()
            .map(|(i, h)| h.join().map_err(|_| format!("worker {i} panicked")))
            .collect()
    });
    let secs = began.elapsed().as_secs_f64();
    let decodes = o.count * o.kinds.len() as u64;
    println!(
        "swept {} values x {} kinds = {} decodes in {:.1} s on {} threads: {:.1} M values/s, {:.1} M decodes/s",
        o.count,
        o.kinds.len(),
        decodes,
        secs,
        o.threads,
        o.count as f64 / secs / 1e6,
        decodes as f64 / secs / 1e6
    );
    let by_fields: u64 = tallies.iter().flatten().map(|t| t.by_fields).sum();
    println!(
        "  every decode: verdict = is_valid = Tables 42-44 read again, fields iff type codes \
         defined; every accepted value: from_bits, valid_kinds, re-encodes to itself; \
         {by_fields} refused values sampled: from_bits = first error, valid_kinds, same \
         problems in the same order as the field-by-field decode"
    );
    let wrong: u64 = tallies.iter().flatten().map(|t| t.wrong).sum();
    let mut failed = wrong != 0;
    if failed {
        eprintln!("error: {wrong} decodes disagree (the first of each thread follows)");
    }
    let full = o.count == 1 << 32;
    for &kind in &o.kinds {
        let n: u64 = tallies
            .iter()
            .flatten()
            .map(|t| t.accepted[kind as usize])
            .sum();
        if full {
            let want = reference::count(kind);
            let verdict = if n == want { "=" } else { "!=" };
            println!("  .kind::{kind:<9} {n:>12} valid values ({verdict} {want} from the tables)");
            if n != want {
                eprintln!("error: .kind::{kind}: {n} valid values, the tables allow {want}");
                failed = true;
            }
        } else {
            println!("  .kind::{kind:<9} {n:>12} valid values");
        }
    }
    for t in &tallies {
        match t {
            Ok(Tally {
                failure: Some(f), ..
            })
            | Err(f) => {
                eprintln!("error: {f}");
                failed = true;
            }
            Ok(_) => {}
        }
    }
    if failed {
        println!("0 passed, 1 failed");
        ExitCode::FAILURE
    } else {
        println!("sweep: 1 passed, 0 failed");
        ExitCode::SUCCESS
    }
}
