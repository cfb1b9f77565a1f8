//! Decodes raw 32-bit instruction descriptors under every kind and checks, for every value
//! visited, that it decodes without panicking, that the decoder's verdict equals an independent
//! reading of Tables 42-44 ([`mod@reference`]), that every accepted value re-encodes to itself, and
//! that the verdicts of `decode`, `from_bits` and `valid_kinds` agree.
//!
//! ```text
//! tcgen05-idesc-sweep [--count N] [--start S] [--stride D] [--threads T] [--kind K]...
//! ```
//! With no options it visits all 2^32 values and then also requires each kind's number of valid
//! values to equal the closed-form count of [`reference::count`]. `--stride` visits
//! `start + i * stride (mod 2^32)` for `i < count`; an odd stride never repeats a value, so a
//! short slice still reaches every bit of the word. A worker that panics fails the sweep
//! (`--panic-at V` makes the worker that meets value V panic, to test exactly that).
//! Prints values per second and, per kind, how many values are valid.

use std::process::ExitCode;
use std::time::Instant;

use tcgen05::instruction_descriptor::InstructionDescriptor;
use tcgen05::Kind;

mod reference;

struct Options {
    start: u32,
    count: u64,
    stride: u32,
    threads: usize,
    kinds: Vec<Kind>,
    panic_at: Option<u32>,
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
            "--kind" => {
                let k = value("--kind")?;
                o.kinds
                    .push(Kind::from_name(&k).ok_or(format!("--kind: unknown kind {k}"))?);
            }
            "-h" | "--help" => {
                return Err(
                    "usage: tcgen05-idesc-sweep [--count N] [--start S] [--stride D] \
                            [--threads T] [--kind K]... [--panic-at V]"
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
    failure: Option<String>,
}

fn check(raw: u32, kinds: &[Kind], t: &mut Tally) {
    // `from_bits` and `valid_kinds` are built on `decode`; cross-check them on every value.
    let set = InstructionDescriptor::valid_kinds(raw);
    for &kind in kinds {
        let dec = InstructionDescriptor::decode(raw, kind);
        let valid = dec.is_valid();
        if valid != reference::valid(raw, kind) && t.failure.is_none() {
            t.failure = Some(format!(
                "{raw:#010x} under {kind}: the decoder says {}, Tables 42-44 read again say {}",
                if valid { "valid" } else { "invalid" },
                if valid { "invalid" } else { "valid" },
            ));
        }
        if valid {
            t.accepted[kind as usize] += 1;
            let again = dec
                .fields
                .map(InstructionDescriptor::try_new)
                .map(|r| r.map(InstructionDescriptor::bits));
            if again != Some(Ok(raw)) && t.failure.is_none() {
                t.failure = Some(format!(
                    "{raw:#010x} under {kind}: accepted but re-encodes to {again:?}"
                ));
            }
        } else if dec.diagnostics.is_empty() && t.failure.is_none() {
            t.failure = Some(format!("{raw:#010x} under {kind}: refused with no error"));
        }
        if (InstructionDescriptor::from_bits(raw, kind).is_ok() != valid
            || set.contains(kind) != valid)
            && t.failure.is_none()
        {
            t.failure = Some(format!(
                "{raw:#010x} under {kind}: decode, from_bits and valid_kinds disagree"
            ));
        }
    }
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
    let per = o.count.div_ceil(o.threads as u64);
    let tallies: Vec<Result<Tally, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..o.threads as u64)
            .map(|t| {
                let kinds = &o.kinds;
                let (start, stride, panic_at) = (o.start, o.stride, o.panic_at);
                let lo = t * per;
                let hi = ((t + 1) * per).min(o.count);
                s.spawn(move || {
                    let mut tally = Tally::default();
                    let mut raw = start.wrapping_add((lo as u32).wrapping_mul(stride));
                    for _ in lo..hi {
                        assert!(panic_at != Some(raw), "--panic-at {raw:#010x}");
                        check(raw, kinds, &mut tally);
                        raw = raw.wrapping_add(stride);
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
    let mut failed = false;
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
