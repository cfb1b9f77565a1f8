//! `decode idesc` and `encode idesc`: the 32-bit instruction descriptor (PTX ISA 9.7.16.4.2,
//! Tables 42-44; rules.md R8-R13), checked against Table 39 when the MMA is described.

use std::fmt::{self, Write as _};

use tcgen05::bits::{RowReading, RowValue};
use tcgen05::diagnostic::{Diagnostic, Severity, Source};
use tcgen05::instruction_descriptor::scale_format::{
    is_ue5m3, layout_word, FieldMeaning, ScaleFormatField,
};
use tcgen05::instruction_descriptor::{
    json_fields, layout, line_field, line_fields, word, IdescDecoded, IdescDiagnostics, IdescError,
    IdescField, IdescFields, InstructionDescriptor,
};
use tcgen05::mma::{CtaGroup, ElementType, IdescLayout, Kind};
use tcgen05::shapes::{validate_mma, MmaConfig, MmaError};
use tcgen05::Target;

use super::batch::Decoder;
use super::problem::{narrow, CliError};
use super::target::resolve_target;
use crate::args::descriptor::EncodeIdesc;
use crate::args::value::TargetArg;
use crate::render::{
    self, count, problems_json2, push_hex, Cache, Ctx, Obj, Report, Status, Style,
};

/// The MMA a descriptor is checked for against Table 39.
#[derive(Clone, Copy, Debug)]
pub struct Mma {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// `.ws`.
    pub ws: bool,
    /// Target.
    pub target: Target,
}

/// The PTX table that lays out `kind`'s descriptor (Table 42, 43 or 44, with its section), as
/// the core's layout rows cite it.
fn table_source(kind: Kind) -> Option<Source> {
    layout(kind)
        .iter()
        .map(|r| r.source)
        .find(|s| matches!(s, Source::PtxTable(_)))
}

/// `"fields": {...}` of a raw value under a kind: the core's values in their JSON order.
fn fields_json(o: &mut Obj<'_>, bits: u32, kind: Kind) -> fmt::Result {
    render::listed_json(o, json_fields(kind), bits.into())
}

/// `"fields": {...}` of fields as given (for an encode that failed).
///
/// A number too wide for its field (`cli`) is shown as typed, not as the 0 standing in for it.
fn given_fields_json(o: &mut Obj<'_>, f: &IdescFields, cli: &[CliError]) -> fmt::Result {
    let typed = |key: &'static str, v: u64| {
        cli.iter()
            .find_map(|c| match *c {
                CliError::TooWide { field, value, .. } if field == key => Some(value),
                _ => None,
            })
            .unwrap_or(v)
    };
    let buf = o.key(key!("fields"));
    let mut p = Obj::open(buf);
    p.num(
        key!("sparsity_selector"),
        typed("sparsity_selector", f.sparsity_selector.into()),
    )?;
    p.bool(key!("sparse"), f.sparse)?;
    p.bool(key!("saturate"), f.saturate)?;
    p.name(key!("d_type"), f.d_type.name())?;
    p.name(key!("a_type"), f.a_type.name())?;
    p.name(key!("b_type"), f.b_type.name())?;
    p.bool(key!("negate_a"), f.negate_a)?;
    p.bool(key!("negate_b"), f.negate_b)?;
    p.bool(key!("transpose_a"), f.transpose_a)?;
    p.bool(key!("transpose_b"), f.transpose_b)?;
    p.num(key!("m"), typed("m", f.m.into()))?;
    p.num(key!("n"), typed("n", f.n.into()))?;
    p.num(key!("max_shift"), f.max_shift.rows().into())?;
    if f.kind.is_block_scaled() || f.scale_type.is_some() {
        match f.scale_type {
            Some(s) => p.name(key!("scale_type"), s.name())?,
            None => p.raw(key!("scale_type"), "null")?,
        }
        p.num(key!("sfa_id"), typed("sfa_id", f.sfa_id.into()))?;
        p.num(key!("sfb_id"), typed("sfb_id", f.sfb_id.into()))?;
    }
    if f.kind.idesc_layout() == IdescLayout::Table44 || f.k96 {
        p.num(key!("k"), f.k().into())?;
    }
    p.close();
    Ok(())
}

/// The value of `field` in `bits` under `kind`, as the core's batch line list reads it.
fn value_of(bits: u32, kind: Kind, field: IdescField) -> Option<RowValue> {
    line_field(kind, field).map(|l| l.value(bits.into()))
}

/// The shape and types in one line: `M = 128, N = 64, K = 16, dense; D .f32 = A .bf16 x B .bf16`.
fn summary(buf: &mut String, bits: u32, kind: Kind, mma: Option<Mma>) -> fmt::Result {
    let number = |f| match value_of(bits, kind, f) {
        Some(RowValue::Number(n)) => n,
        _ => 0,
    };
    let sparsity = line_field(kind, IdescField::Sparse).map(|l| RowReading {
        row: &l.row,
        word: bits.into(),
    });
    write!(
        buf,
        "  MMA: M = {}, N = {}, K = {}, ",
        number(IdescField::M),
        number(IdescField::N),
        number(IdescField::K),
    )?;
    if let Some(s) = sparsity {
        write!(buf, "{s}")?;
    }
    write!(
        buf,
        "; D {} = A {} x B {}",
        TypeDot(value_of(bits, kind, IdescField::DType)),
        TypeDot(value_of(bits, kind, IdescField::AType)),
        TypeDot(value_of(bits, kind, IdescField::BType)),
    )?;
    match mma.filter(|m| two_bit_field(kind, m)) {
        // Bits 23-24 on the sm_107 family (rules.md D9).
        Some(m) => write!(
            buf,
            ", scales {}",
            FieldMeaning {
                raw: bits,
                kind,
                target: m.target
            }
        )?,
        None => {
            if let Some(RowValue::Name(s)) = value_of(bits, kind, IdescField::ScaleType) {
                write!(buf, ", scales .{}", s.name)?;
            }
        }
    }
    buf.push('\n');
    Ok(())
}

/// A type in the summary: `.bf16`, or `(code 5)` for a code the kind does not define.
struct TypeDot(Option<RowValue>);

impl fmt::Display for TypeDot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(RowValue::Name(t)) => write!(f, ".{}", t.name),
            Some(RowValue::InvalidCode(c) | RowValue::Number(c)) => write!(f, "(code {c})"),
            _ => Ok(()),
        }
    }
}

/// Every problem of `bits` under `kind`: the descriptor's own (Tables 42-44), then, when `mma`
/// is given and the fields could be read, those of the whole MMA (Table 39, targets).
///
/// With a target, the scale-format bits are read for it first (rules.md D9): on `sm_107a` /
/// `sm_107f` a UE5M3 code is checked by UE4M3's rules ([`layout_word`]).
fn problems_of(bits: u32, kind: Kind, mma: Option<Mma>, out: &mut Vec<MmaError>) {
    let raw = bits;
    let bits = per_target(bits, kind, mma);
    problems_from(&InstructionDescriptor::decode(bits, kind), mma, out);
    // Code 3 (or UE5M3 with another kind) in the sm_107 family's two-bit field, in place of
    // Tables 43-44's reserved bit 24 (rules.md D9).
    if let Some(e) = mma.and_then(|m| MmaError::scale_format(raw, kind, m.target)) {
        for p in out.iter_mut() {
            if is_bit_24(p) {
                *p = e;
            }
        }
        // Bit 23 alone is not the scale type there.
        out.retain(|p| !is_scale_type(p));
    }
}

/// Table 44's scale type (bit 23) not for the kind: with bits 23-24 that do not decode on the
/// `sm_107` family, the two-bit field's error says it.
fn is_scale_type(e: &MmaError) -> bool {
    matches!(e, MmaError::Idesc(IdescError::ScaleTypeNotForKind { .. }))
}

/// Whether `kind`'s scale format is bits 23-24 on the MMA's target (rules.md D9).
fn two_bit_field(kind: Kind, m: &Mma) -> bool {
    kind.is_block_scaled() && ScaleFormatField::of(m.target) == ScaleFormatField::Bits23To24
}

/// Reserved bit 24 of Tables 43-44, the upper scale-format bit on the `sm_107` family.
fn is_bit_24(e: &MmaError) -> bool {
    matches!(e, MmaError::Idesc(IdescError::ReservedBit { bit: 24, .. }))
}

/// The rows of bits 23-26 of a block-scaled word on a target whose scale format is bits 23-24
/// (rules.md D9): `23-24 scale_format` with the format the core reads and `25-26 reserved`,
/// in place of Tables 43-44's `23 scale_type` and `24-26 reserved`; `rows` as they are
/// elsewhere.
fn per_target_rows(
    rows: &mut [render::Row],
    bits: u32,
    kind: Kind,
    mma: Option<Mma>,
    problems: &[MmaError],
) {
    let Some(m) = mma.filter(|m| two_bit_field(kind, m)) else {
        return;
    };
    for r in rows.iter_mut() {
        if r.bits == "23" {
            r.bits = "23-24".to_string();
            r.field = "scale_format".to_string();
            r.raw = render::RawBits {
                value: u64::from((bits >> 23) & 3),
                width: 2,
            }
            .to_string();
            r.meaning = FieldMeaning {
                raw: bits,
                kind,
                target: m.target,
            }
            .to_string();
            r.flagged = problems
                .iter()
                .any(|d| matches!(d.field(), "scale_format" | "scale_type"));
        } else if r.bits == "24-26" {
            r.bits = "25-26".to_string();
            let v = (bits >> 25) & 3;
            r.raw = render::RawBits {
                value: u64::from(v),
                width: 2,
            }
            .to_string();
            r.meaning = if v == 0 {
                "reserved, 0"
            } else {
                "reserved: SET, must be 0"
            }
            .to_string();
            r.flagged = v != 0;
        }
    }
}

/// The word the layout tables read for `bits` on the MMA's target ([`layout_word`]; the word
/// itself without a target).
fn per_target(bits: u32, kind: Kind, mma: Option<Mma>) -> u32 {
    mma.map_or(bits, |m| layout_word(bits, kind, m.target))
}

/// [`problems_of`] for a value already decoded.
fn problems_from(d: &IdescDecoded, mma: Option<Mma>, out: &mut Vec<MmaError>) {
    out.clear();
    out.extend(d.diagnostics.iter().map(MmaError::Idesc));
    if let (Some(mma), Some(fields)) = (mma, d.fields) {
        let cfg = MmaConfig {
            idesc: fields,
            cta_group: mma.cta_group,
            ws: mma.ws,
            target: mma.target,
            a_swizzle: None,
            b_swizzle: None,
        };
        out.extend(
            validate_mma(&cfg)
                .iter()
                .filter(|e| !matches!(e, MmaError::Idesc(_))),
        );
    }
}

fn is_valid(problems: &[MmaError]) -> bool {
    !problems.iter().any(|d| d.severity() == Severity::Error)
}

/// `IdescDiagnostics::reads` of each kind (by `kind as usize`) and problem position, made at
/// compile time.
const READS: [[u32; 64]; 7] = {
    let mut out = [[0; 64]; 7];
    let mut k = 0;
    while k < Kind::ALL.len() {
        let mut p = 0;
        while p < 64 {
            out[Kind::ALL[k] as usize][p] = IdescDiagnostics::reads(Kind::ALL[k], p as u32);
            p += 1;
        }
        k += 1;
    }
    out
};

/// The cache key of the problem at `position` of the problem set of `bits` under `kind`: the
/// kind, the position and the bits that the core builds that problem from
/// (`IdescDiagnostics::reads`), so that equal keys are equal problems.
#[inline(always)]
fn problem_key(bits: u32, kind: Kind, position: u32) -> u64 {
    let reads = READS
        .get(kind as usize)
        .and_then(|r| r.get(position as usize))
        .copied()
        .unwrap_or(u32::MAX);
    1 << 63 | (kind as u64) << 40 | u64::from(position) << 32 | u64::from(bits & reads)
}

/// The indices in `cache` of every problem of `bits` under `kind` (as [`problems_of`] lists
/// them) into `indices`; returns whether none is an error. The descriptor's own problems are
/// found by [`problem_key`], built only when first met; the fields are read only for the MMA
/// checks.
#[inline]
fn problem_indices(
    bits: u32,
    kind: Kind,
    mma: Option<Mma>,
    cache: &mut Cache<MmaError>,
    indices: &mut Vec<u32>,
) -> Result<bool, fmt::Error> {
    cache.begin();
    indices.clear();
    let bits = per_target(bits, kind, mma);
    let diags = InstructionDescriptor::decode(bits, kind).diagnostics;
    let two_bit = mma.and_then(|m| MmaError::scale_format(bits, kind, m.target));
    let mut set = diags.positions();
    while set != 0 {
        let p = set.trailing_zeros();
        set &= set - 1;
        let i = match two_bit {
            // Bit 24 on the sm_107 family: the two-bit field's error (rules.md D9); bit 23
            // alone is not the scale type there.
            Some(e) if p == 24 => cache.indexed(&e)?,
            Some(_)
                if diags
                    .at(p)
                    .is_some_and(|e| is_scale_type(&MmaError::Idesc(e))) =>
            {
                continue
            }
            _ => cache.keyed(problem_key(bits, kind, p), || {
                diags.at(p).map(MmaError::Idesc)
            })?,
        };
        indices.push(i);
    }
    let mut valid = !diags.has_errors();
    let Some(mma) = mma else {
        return Ok(valid);
    };
    if let Some(fields) = InstructionDescriptor::decode(bits, kind).fields {
        let cfg = MmaConfig {
            idesc: fields,
            cta_group: mma.cta_group,
            ws: mma.ws,
            target: mma.target,
            a_swizzle: None,
            b_swizzle: None,
        };
        for e in validate_mma(&cfg).iter() {
            if matches!(e, MmaError::Idesc(_)) {
                continue;
            }
            valid &= e.severity() != Severity::Error;
            indices.push(cache.indexed(&e)?);
        }
    }
    Ok(valid)
}

fn decode_object(
    buf: &mut String,
    bits: u32,
    kind: Kind,
    valid: bool,
    cache: &Cache<MmaError>,
    indices: &[u32],
    mma: Option<Mma>,
) -> fmt::Result {
    let mut o = Obj::open(buf);
    o.hex(key!("hex"), bits.into(), 8);
    o.name(key!("kind"), kind.name())?;
    o.bool(key!("valid"), valid)?;
    if let Some(m) = mma.filter(|m| is_ue5m3(bits, kind, m.target)) {
        // Bits 23-24 on the sm_107 family (rules.md D9).
        o.name(key!("scale_format"), "ue5m3")?;
        o.name(key!("scale_format_target"), m.target.name())?;
    }
    fields_json(&mut o, bits, kind)?;
    cache.json_indexed(&mut o, indices)?;
    o.close();
    Ok(())
}

/// [`decode_object`] of `bits` under `kind`, with a cache of its own.
fn decode_object_once(buf: &mut String, bits: u32, kind: Kind, mma: Option<Mma>) -> fmt::Result {
    let mut cache = Cache::new();
    let mut indices = Vec::new();
    let valid = problem_indices(bits, kind, mma, &mut cache, &mut indices)?;
    decode_object(buf, bits, kind, valid, &cache, &indices, mma)
}

fn heading(buf: &mut String, bits: u32, kind: Kind, style: Style) -> fmt::Result {
    writeln!(
        buf,
        "{}instruction descriptor {:#010x} as .kind::{}{} ({})",
        style.bold(),
        bits,
        kind,
        style.reset(),
        table_source(kind).unwrap_or(Source::PtxSection("9.7.16.4.2"))
    )
}

fn human_block(
    buf: &mut String,
    bits: u32,
    kind: Kind,
    problems: &[MmaError],
    mma: Option<Mma>,
    style: Style,
) -> fmt::Result {
    heading(buf, bits, kind, style)?;
    let mut rows = render::word_rows(word(bits, kind), problems);
    per_target_rows(&mut rows, bits, kind, mma, problems);
    render::table(buf, &rows, style)?;
    summary(buf, bits, kind, mma)?;
    if let Some(m) = mma {
        writeln!(
            buf,
            "  checked as tcgen05.mma.{}.kind::{}{} on {} (Table 39)",
            m.cta_group,
            kind,
            if m.ws { ".ws" } else { "" },
            m.target
        )?;
        if is_ue5m3(bits, kind, m.target) {
            writeln!(
                buf,
                "  scale format: bits 23-24 = 2, UE5M3 on {} (read by UE4M3's rules; rules.md \
                 D7, D9)",
                m.target
            )?;
        }
    }
    let (e, w) = count(problems);
    render::verdict(buf, e, w, style)
}

/// Resolves the MMA flags of `decode idesc`: `None` when none is given (descriptor rules only).
pub fn mma_of(
    cta_group: Option<CtaGroup>,
    ws: bool,
    target: Option<TargetArg>,
    rep: &mut Report,
    style: Style,
) -> Result<Option<Option<Mma>>, fmt::Error> {
    if cta_group.is_none() && !ws && target.is_none() {
        return Ok(Some(None));
    }
    let target = match target {
        Some(t) => match resolve_target(t, rep, style)? {
            Some(t) => t,
            None => return Ok(None),
        },
        None => Target::DEFAULT,
    };
    Ok(Some(Some(Mma {
        cta_group: cta_group.unwrap_or_default(),
        ws,
        target,
    })))
}

/// `decode idesc VALUE [--kind K]`.
pub fn decode(
    ctx: Ctx,
    bits: u32,
    kind: Option<Kind>,
    mma: Option<Mma>,
) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let mut problems = Vec::new();
    if let Some(kind) = kind {
        problems_of(bits, kind, mma, &mut problems);
        if ctx.json {
            decode_object_once(&mut rep.out, bits, kind, mma)?;
            rep.out.push('\n');
        } else {
            human_block(&mut rep.out, bits, kind, &problems, mma, ctx.out)?;
        }
        rep.problems(&problems, ctx.err)?;
        return Ok(rep);
    }
    let kinds = valid_kinds(bits, mma, &mut problems);
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("hex"), format_args!("{bits:#010x}"))?;
        let buf = o.key(key!("kinds"));
        buf.push('[');
        for (i, &k) in kinds.iter().enumerate() {
            if i > 0 {
                buf.push(',');
            }
            decode_object_once(buf, bits, k, mma)?;
        }
        buf.push(']');
        o.close();
        rep.out.push('\n');
    } else if kinds.is_empty() {
        writeln!(
            rep.out,
            "{bits:#010x} is not a valid instruction descriptor under any kind"
        )?;
        render::verdict(&mut rep.out, 1, 0, ctx.out)?;
    } else {
        write!(
            rep.out,
            "{bits:#010x} is a valid instruction descriptor under {} kind{}: ",
            kinds.len(),
            if kinds.len() == 1 { "" } else { "s" }
        )?;
        for (i, k) in kinds.iter().enumerate() {
            if i > 0 {
                rep.out.push_str(", ");
            }
            rep.out.push_str(k.name());
        }
        rep.out.push('\n');
        for &k in &kinds {
            rep.out.push('\n');
            problems_of(bits, k, mma, &mut problems);
            human_block(&mut rep.out, bits, k, &problems, mma, ctx.out)?;
            // Only warnings here: the kind is valid.
            rep.problems(&problems, ctx.err)?;
        }
    }
    if kinds.is_empty() {
        rep.problems(&[CliError::NoKind { bits }], ctx.err)?;
        for k in Kind::ALL {
            problems_of(bits, k, mma, &mut problems);
            let total = problems
                .iter()
                .filter(|d| d.severity() == Severity::Error)
                .count();
            if let Some(first) = problems.iter().find(|d| d.severity() == Severity::Error) {
                write!(
                    rep.err,
                    "{}error{}: under .kind::{k}: ",
                    ctx.err.red(),
                    ctx.err.reset()
                )?;
                render::problem_text(&mut rep.err, first)?;
                if total > 1 {
                    write!(rep.err, "; {} more with --kind {k}", total - 1)?;
                }
                rep.err.push('\n');
            }
        }
    }
    Ok(rep)
}

/// The kinds under which `bits` is valid (`InstructionDescriptor::valid_kinds`), narrowed to
/// those whose whole MMA is valid when `mma` is given.
fn valid_kinds(bits: u32, mma: Option<Mma>, scratch: &mut Vec<MmaError>) -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|&k| InstructionDescriptor::is_valid(per_target(bits, k, mma), k))
        .filter(|&k| {
            mma.is_none() || {
                problems_of(bits, k, mma, scratch);
                is_valid(scratch)
            }
        })
        .collect()
}

/// Batch decoding of instruction descriptors.
pub struct Batch {
    kind: Option<Kind>,
    mma: Option<Mma>,
    indices: Vec<u32>,
    cache: Cache<MmaError>,
}

impl Batch {
    /// A batch decoder for one kind, or for every valid kind.
    pub fn new(kind: Option<Kind>, mma: Option<Mma>) -> Batch {
        Batch {
            kind,
            mma,
            indices: Vec::with_capacity(64),
            cache: Cache::new(),
        }
    }
}

/// `f16: M=128 N=64 K=16 d=f32 a=bf16 b=bf16` and the fields that are not at their default:
/// the core's batch line list.
fn compact(buf: &mut String, bits: u32, kind: Kind) {
    buf.push_str(kind.name());
    buf.push(':');
    render::listed_text(buf, line_fields(kind), bits.into());
}

impl Decoder for Batch {
    const BITS: u32 = 32;

    fn line(&mut self, raw: u64, buf: &mut String, json: bool) -> Result<bool, fmt::Error> {
        // BITS = 32: the value fits.
        let bits = raw as u32;
        if let Some(kind) = self.kind {
            let valid = problem_indices(bits, kind, self.mma, &mut self.cache, &mut self.indices)?;
            if json {
                decode_object(buf, bits, kind, valid, &self.cache, &self.indices, self.mma)?;
            } else {
                push_hex(buf, bits.into(), 8);
                buf.push_str(if valid { " valid " } else { " invalid " });
                compact(buf, bits, kind);
                self.cache.compact_indexed(buf, &self.indices)?;
            }
            return Ok(valid);
        }
        // The kinds of `InstructionDescriptor::valid_kinds` (each by the core's
        // `InstructionDescriptor::is_valid`, as that list is made), narrowed by the MMA checks
        // when given.
        let mut any = false;
        let start = buf.len();
        if json {
            let mut o = Obj::open(buf);
            o.hex(key!("hex"), bits.into(), 8);
            let b = o.key(key!("kinds"));
            b.push('[');
            for k in Kind::ALL {
                if !InstructionDescriptor::is_valid(per_target(bits, k, self.mma), k) {
                    continue;
                }
                if !problem_indices(bits, k, self.mma, &mut self.cache, &mut self.indices)? {
                    continue;
                }
                if any {
                    b.push(',');
                }
                any = true;
                decode_object(b, bits, k, true, &self.cache, &self.indices, self.mma)?;
            }
            b.push(']');
            if !any {
                // The same reason the single-value path gives (`Report::json_failure`).
                o.bool(key!("valid"), false)?;
                let e = o.key(key!("errors"));
                e.push('[');
                render::problem_json(e, &super::problem::CliError::NoKind { bits })?;
                e.push(']');
                o.raw(key!("warnings"), "[]")?;
            }
            o.close();
        } else {
            push_hex(buf, bits.into(), 8);
            buf.push_str(" valid");
            for k in Kind::ALL {
                if !InstructionDescriptor::is_valid(per_target(bits, k, self.mma), k) {
                    continue;
                }
                if !problem_indices(bits, k, self.mma, &mut self.cache, &mut self.indices)? {
                    continue;
                }
                any = true;
                buf.push_str(" | ");
                compact(buf, bits, k);
                self.cache.compact_indexed(buf, &self.indices)?;
            }
            if !any {
                buf.truncate(start);
                push_hex(buf, bits.into(), 8);
                buf.push_str(" invalid: no kind accepts it");
            }
        }
        Ok(any)
    }
}

/// The MMA configuration that `encode idesc`'s flags describe (also the flags of `ptx kernel`),
/// with the problems found while reading them (a number too wide for its field, a `--k` other
/// than the implied K). `None`, with `rep` holding the message and status, for a usage error or
/// a target without tcgen05.
pub fn config_of(
    ctx: Ctx,
    a: &EncodeIdesc,
    rep: &mut Report,
) -> Result<Option<(MmaConfig, Vec<CliError>)>, fmt::Error> {
    let Some(target) = resolve_target(a.target, rep, ctx.err)? else {
        return Ok(None);
    };
    let d_type = match a.d_type {
        Some(t) => t,
        None if a.kind.is_block_scaled() => ElementType::F32,
        None => {
            writeln!(
                rep.err,
                "{}error{}: --d-type is required for .kind::{} (the accumulator type: f16, f32 or s32)",
                ctx.err.red(),
                ctx.err.reset(),
                a.kind
            )?;
            rep.status = Status::Usage;
            return Ok(None);
        }
    };
    let mut cli: Vec<CliError> = Vec::new();
    let mut small = |field, v: Option<u64>, max, source| -> u8 {
        v.map_or(0, |v| {
            narrow::<u8>(field, v, 255, max, source).unwrap_or_else(|e| {
                cli.push(e);
                0
            })
        })
    };
    let selector = small(
        "sparsity_selector",
        a.sparsity_selector,
        3,
        Source::PtxTable(42),
    );
    let sfa = small("sfa_id", a.sfa_id, 3, Source::Decision(13));
    let sfb = small("sfb_id", a.sfb_id, 3, Source::Decision(13));
    let mut dim = |field, v| {
        narrow::<u16>(field, v, u64::from(u16::MAX), 256, Source::PtxTable(39)).unwrap_or_else(
            |e| {
                cli.push(e);
                0
            },
        )
    };
    let m = dim("m", a.m);
    let n = dim("n", a.n);
    let mut f = IdescFields::new(a.kind, d_type, a.a_type, a.b_type, m, n)
        .with_sparse(a.sparse, selector)
        .with_transpose(a.transpose_a, a.transpose_b)
        .with_negate(a.negate_a, a.negate_b)
        .with_saturate(a.saturate)
        .with_max_shift(a.max_shift.unwrap_or_default());
    if let Some(s) = a.scale_type {
        f.scale_type = Some(s);
    }
    f.sfa_id = sfa;
    f.sfb_id = sfb;
    match a.k {
        Some(96) => f.k96 = true,
        Some(k) if k != u64::from(f.k()) => cli.push(CliError::KMismatch {
            given: k,
            implied: f.k(),
            kind: a.kind,
            sparse: a.sparse,
        }),
        _ => {}
    }
    let cfg = MmaConfig {
        idesc: f,
        cta_group: a.cta_group,
        ws: a.ws,
        target,
        a_swizzle: None,
        b_swizzle: None,
    };
    Ok(Some((cfg, cli)))
}

/// A number too wide for its field is replaced by 0 to build the fields; what the library says
/// about that field then concerns the 0, not the value typed, so it is dropped: the `TooWide`
/// problem already names the field and the value as typed (issue 16 D3).
pub fn drop_stand_in_problems<D: Diagnostic>(cli: &[CliError], problems: &mut Vec<D>) {
    problems.retain(|p| {
        !cli.iter()
            .any(|c| matches!(c, CliError::TooWide { .. }) && c.field() == p.field())
    });
}

/// `encode idesc`.
pub fn encode(ctx: Ctx, a: &EncodeIdesc) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some((cfg, cli)) = config_of(ctx, a, &mut rep)? else {
        return Ok(rep);
    };
    let (f, target) = (cfg.idesc, cfg.target);
    let mut problems: Vec<MmaError> = validate_mma(&cfg).iter().collect();
    drop_stand_in_problems(&cli, &mut problems);
    let encoded = if cli.is_empty() && is_valid(&problems) {
        InstructionDescriptor::try_new(f).ok()
    } else {
        None
    };
    let Some(desc) = encoded else {
        if ctx.json {
            let mut o = Obj::open(&mut rep.out);
            o.raw(key!("hex"), "null")?;
            o.bool(key!("valid"), false)?;
            given_fields_json(&mut o, &f, &cli)?;
            problems_json2(&mut o, &cli, &problems)?;
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
    };
    let bits = desc.bits();
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("hex"), format_args!("{bits:#010x}"))?;
        fields_json(&mut o, bits, a.kind)?;
        o.close();
        rep.out.push('\n');
    } else {
        let mma = Mma {
            cta_group: a.cta_group,
            ws: a.ws,
            target,
        };
        human_block(&mut rep.out, bits, a.kind, &problems, Some(mma), ctx.out)?;
    }
    rep.problems(&problems, ctx.err)?;
    Ok(rep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use tcgen05::instruction_descriptor::IdescError;

    /// `n` pseudo-random 32-bit values, the same each run.
    fn values(n: usize) -> impl Iterator<Item = u32> {
        let mut s = 0x2545_f491_4f6c_dd1d_u64;
        (0..n).map(move |_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u32
        })
    }

    #[test]
    fn problems_with_one_key_are_one_problem() {
        let mut seen: HashMap<u64, IdescError> = HashMap::new();
        for bits in values(50_000) {
            for kind in Kind::ALL {
                let d = InstructionDescriptor::decode(bits, kind).diagnostics;
                let mut set = d.positions();
                while set != 0 {
                    let p = set.trailing_zeros();
                    set &= set - 1;
                    let e = d.at(p).expect("a position of the set");
                    let key = problem_key(bits, kind, p);
                    assert_ne!(key, 0);
                    if let Some(other) = seen.insert(key, e) {
                        assert_eq!(other, e, "{bits:#010x} under {kind}: key {key:#x}");
                    }
                }
            }
        }
        assert!(seen.len() > 500, "{} keys", seen.len());
    }

    #[test]
    fn cached_problems_render_as_fresh_ones() {
        let checked = |cta_group, ws| {
            Some(Mma {
                cta_group,
                ws,
                target: Target::DEFAULT,
            })
        };
        for mma in [
            None,
            checked(CtaGroup::Two, false),
            checked(CtaGroup::One, true),
        ] {
            let mut cache = Cache::new();
            let mut indices = Vec::new();
            let mut problems = Vec::new();
            for bits in values(10_000) {
                for kind in Kind::ALL {
                    let d = InstructionDescriptor::decode(bits, kind);
                    let valid = problem_indices(bits, kind, mma, &mut cache, &mut indices)
                        .expect("rendered");
                    problems_from(&d, mma, &mut problems);
                    assert_eq!(valid, is_valid(&problems));
                    let (mut got, mut want) = (String::new(), String::new());
                    let mut o = Obj::open(&mut got);
                    cache.json_indexed(&mut o, &indices).expect("fmt");
                    o.close();
                    let mut o = Obj::open(&mut want);
                    problems_json2::<MmaError, MmaError>(&mut o, &[], &problems).expect("fmt");
                    o.close();
                    cache.compact_indexed(&mut got, &indices).expect("fmt");
                    render::problems_compact(&mut want, &problems).expect("fmt");
                    assert_eq!(got, want, "{bits:#010x} under {kind}, {mma:?}");
                }
            }
        }
    }
}
