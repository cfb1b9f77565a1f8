//! `decode smem` and `encode smem`: the 64-bit shared memory descriptor (PTX ISA 9.7.16.4.1,
//! Tables 40-41; rules.md R1-R7).

use std::fmt::{self, Write as _};

use tcgen05::bits::Word;
use tcgen05::diagnostic::Source;
use tcgen05::shared_memory_descriptor::{
    pattern_start_ignored, SmemDescriptor, SmemError, SmemField, SmemFields, SMEM_LAYOUT,
};
use tcgen05::Target;

use super::batch::Decoder;
use super::problem::{narrow, CliError};
use super::target::resolve_target;
use crate::args::descriptor::EncodeSmem;
use crate::args::value::TargetArg;
use crate::render::{self, count, push_hex, Cache, Ctx, Obj, Report, Status, Style};

/// The largest byte value a byte field holds: 14 bits of 16-byte units (rules.md R3).
const MAX_BYTES: u64 = 0x3_fff0;

/// The raw value read through Table 40's layout.
fn word(raw: u64) -> Word<SmemField> {
    SmemDescriptor::from_bits_unchecked(raw).word()
}

fn heading(buf: &mut String, raw: u64, target: Target, style: Style) -> fmt::Result {
    writeln!(
        buf,
        "{}shared memory descriptor {raw:#018x}{} for {target} (PTX ISA 9.7.16.4.1 Tables 40-41)",
        style.bold(),
        style.reset()
    )
}

/// `decode smem VALUE`.
pub fn decode(ctx: Ctx, raw: u64, target: TargetArg) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(target) = resolve_target(target, &mut rep, ctx.err)? else {
        return Ok(rep);
    };
    let d = SmemDescriptor::decode(raw, target);
    let problems: Vec<SmemError> = d.diagnostics.iter().collect();
    if ctx.json {
        json_object(&mut rep.out, raw, &problems, &mut Cache::new())?;
        rep.out.push('\n');
    } else {
        heading(&mut rep.out, raw, target, ctx.out)?;
        render::table(
            &mut rep.out,
            &render::word_rows(d.word(), &problems),
            ctx.out,
        )?;
        let (e, w) = count(&problems);
        render::verdict(&mut rep.out, e, w, ctx.out)?;
    }
    rep.problems(&problems, ctx.err)?;
    Ok(rep)
}

fn json_object(
    buf: &mut String,
    raw: u64,
    problems: &[SmemError],
    cache: &mut Cache<SmemError>,
) -> fmt::Result {
    let mut o = Obj::open(buf);
    o.hex(key!("hex"), raw, 16);
    o.bool(key!("valid"), count(problems).0 == 0)?;
    render::fields_json(&mut o, render::word_values(word(raw)))?;
    cache.json(&mut o, problems)?;
    o.close();
    Ok(())
}

/// Batch decoding of shared memory descriptors for one target.
pub struct Batch {
    target: Target,
    problems: Vec<SmemError>,
    cache: Cache<SmemError>,
}

impl Batch {
    /// A batch decoder for `target`.
    pub fn new(target: Target) -> Batch {
        Batch {
            target,
            problems: Vec::with_capacity(16),
            cache: Cache::new(),
        }
    }
}

impl Decoder for Batch {
    const BITS: u32 = 64;

    fn line(&mut self, raw: u64, buf: &mut String, json: bool) -> Result<bool, fmt::Error> {
        let d = SmemDescriptor::decode(raw, self.target);
        self.problems.clear();
        self.problems.extend(d.diagnostics.iter());
        let valid = d.is_valid();
        if json {
            json_object(buf, raw, &self.problems, &mut self.cache)?;
        } else {
            push_hex(buf, raw, 16);
            buf.push_str(if valid { " valid" } else { " invalid" });
            render::fields_text(buf, render::word_values(d.word()));
            self.cache.compact(buf, &self.problems)?;
        }
        Ok(valid)
    }
}

/// Byte flag to the `u32` the core takes; above that it cannot be a descriptor field (R3).
fn bytes(field: &'static str, v: u64) -> Result<u32, CliError> {
    narrow(
        field,
        v,
        u64::from(u32::MAX),
        MAX_BYTES,
        Source::Decision(3),
    )
}

/// `encode smem`.
pub fn encode(ctx: Ctx, a: &EncodeSmem) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(target) = resolve_target(a.target, &mut rep, ctx.err)? else {
        return Ok(rep);
    };
    // Numbers too large for the core's types are errors of their own.
    let mut cli: Vec<CliError> = Vec::new();
    let mut take = |field, v| {
        bytes(field, v).unwrap_or_else(|e| {
            cli.push(e);
            0
        })
    };
    let start = take("start_address", a.start_address);
    let lbo = take("leading_byte_offset", a.lbo);
    let sbo = take("stride_byte_offset", a.sbo);
    let mut fields = SmemFields::new(start, lbo, sbo, a.swizzle).with_lbo_mode(a.lbo_mode);
    let mut problems: Vec<SmemError> = Vec::new();
    if let Some(b) = a.base_offset {
        match narrow::<u8>("base_offset", b, 255, 7, Source::PtxTable(40)) {
            Ok(b) => fields = fields.with_base_offset(b),
            Err(e) => cli.push(e),
        }
    }
    if let Some(p) = a.pattern_start {
        match narrow::<u32>(
            "pattern_start_address",
            p,
            u64::from(u32::MAX),
            u64::from(u32::MAX),
            Source::PtxTable(41),
        ) {
            Ok(p) => {
                problems.extend(pattern_start_ignored(p, fields.swizzle));
                match fields.with_pattern_start(p) {
                    Ok(f) => fields = f,
                    Err(e) => problems.push(e),
                }
            }
            Err(e) => cli.push(e),
        }
    }
    problems.extend(SmemDescriptor::validate(&fields, target).iter());
    let failed = !cli.is_empty() || count(&problems).0 > 0;
    if failed {
        if ctx.json {
            let mut o = Obj::open(&mut rep.out);
            o.raw(key!("hex"), "null")?;
            o.bool(key!("valid"), false)?;
            let given = render::given_values(SMEM_LAYOUT, |f| fields.value(f));
            render::fields_json(&mut o, given)?;
            render::problems_json2(&mut o, &cli, &problems)?;
            o.close();
            rep.out.push('\n');
        } else {
            let (e, w) = count(&problems);
            render::verdict(&mut rep.out, e + cli.len(), w, ctx.out)?;
        }
        rep.problems(&cli, ctx.err)?;
        rep.problems(&problems, ctx.err)?;
        rep.status = rep.status.max(Status::Rule);
        return Ok(rep);
    }
    // Validation passed, so encoding cannot fail; the fallback keeps the code panic-free.
    let raw = match SmemDescriptor::try_new(fields, target) {
        Ok(d) => d.bits(),
        Err(e) => {
            rep.problems(&[e], ctx.err)?;
            return Ok(rep);
        }
    };
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("hex"), format_args!("{raw:#018x}"))?;
        render::fields_json(&mut o, render::word_values(word(raw)))?;
        o.close();
        rep.out.push('\n');
    } else {
        heading(&mut rep.out, raw, target, ctx.out)?;
        render::table(
            &mut rep.out,
            &render::word_rows(word(raw), &problems),
            ctx.out,
        )?;
        let (e, w) = count(&problems);
        render::verdict(&mut rep.out, e, w, ctx.out)?;
    }
    rep.problems(&problems, ctx.err)?;
    Ok(rep)
}
