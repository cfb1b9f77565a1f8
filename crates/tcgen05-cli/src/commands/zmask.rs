//! `decode zmask`, `encode zmask` and `solve zmask`: the 64-bit zero-column mask descriptor of
//! `.ws` MMAs (PTX ISA 9.7.16.4.3, Table 45; rules.md R19-R22).

use std::fmt::{self, Write as _};

use tcgen05::diagnostic::{Diagnostic, Severity, Source};
use tcgen05::mma::MaxShift;
use tcgen05::zero_column_mask::{
    column_mask, solve, sub_mask_width, sub_masks, validate_for, ColumnMask, ColumnMaskError,
    SolveOptions, ZeroColumnMask, ZmaskError, ZmaskField, ZmaskFields, ZMASK_LAYOUT,
};

use super::batch::Decoder;
use super::problem::{narrow, CliError};
use crate::args::descriptor::{EncodeZmask, MaskShape, SolveZmask};
use crate::render::{
    self, count, problems_json2, push_hex, ranges, Ascii, Cache, Ctx, Obj, Report, Row, Status,
    Style,
};

/// Columns per line of the human column row.
const ROW_COLUMNS: u16 = 64;

/// M and N of the MMA, when given and representable.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// M.
    pub m: u16,
    /// N.
    pub n: u16,
}

/// Reads `--m/--n`: `Ok(None)` when not given; numbers too large for 16 bits are errors.
pub fn shape_of(s: MaskShape, cli: &mut Vec<CliError>) -> Option<Shape> {
    let (m, n) = (s.m?, s.n?);
    let m = narrow::<u16>("m", m, u64::from(u16::MAX), 128, Source::PtxTable(45));
    let n = narrow::<u16>("n", n, u64::from(u16::MAX), 256, Source::Decision(16));
    match (m, n) {
        (Ok(m), Ok(n)) => Some(Shape { m, n }),
        (m, n) => {
            cli.extend(m.err());
            cli.extend(n.err());
            None
        }
    }
}

/// Every problem of `fields` (and of the reserved bits of `raw`) in the MMA described.
fn problems_of(
    raw: u64,
    fields: &ZmaskFields,
    shape: Option<Shape>,
    max_shift: Option<MaxShift>,
    out: &mut Vec<ZmaskError>,
) {
    out.clear();
    let d = match shape {
        Some(s) => ZeroColumnMask::decode_for(raw, s.m, s.n, max_shift),
        None => ZeroColumnMask::decode(raw),
    };
    // The decoders read the fields from `raw`; an encode checks its own fields the same way.
    let own = match shape {
        Some(s) => validate_for(fields, s.m, s.n, max_shift),
        None => fields.validate(),
    };
    out.extend(
        d.diagnostics
            .iter()
            .filter(|e| matches!(e, ZmaskError::ReservedBit { .. })),
    );
    out.extend(own.iter());
    if shape.is_none() {
        if let Some(ms) = max_shift {
            if fields.column_shift > ms.rows() {
                out.push(ZmaskError::ColumnShiftAboveMaxShift {
                    shift: fields.column_shift,
                    max_shift: ms,
                });
            }
        }
    }
}

/// Appends a mask's bits, most significant column first, exactly its width.
fn push_bits(buf: &mut String, m: &ColumnMask) {
    let mut text = [b'0'; ColumnMask::MAX_WIDTH as usize];
    let width = usize::from(m.width()).min(text.len());
    let words = m.words();
    for (i, t) in text.iter_mut().take(width).enumerate() {
        let col = width - 1 - i;
        if words
            .get(col / 64)
            .is_some_and(|w| (w >> (col % 64)) & 1 == 1)
        {
            *t = b'1';
        }
    }
    // Only '0' and '1': always UTF-8.
    if let Some(Ok(s)) = text.get(..width).map(std::str::from_utf8) {
        buf.push_str(s);
    }
}

/// Appends the zeroed columns of the sub-masks, comma-separated: sub-mask `i` covers columns
/// `i * width ..` of the N-bit mask (rules.md R21).
fn push_zeroed(buf: &mut String, subs: &[Option<ColumnMask>; 4]) {
    // At most 256 columns of at most 3 digits and a comma each.
    let mut text = Ascii::<1024>::new();
    let mut first = true;
    for (i, m) in subs.iter().flatten().enumerate() {
        let base = i as u64 * u64::from(m.width());
        for (w, word) in m.words().into_iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = base + 64 * w as u64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                if !first {
                    text.byte(b',');
                }
                first = false;
                text.dec(c);
            }
        }
    }
    text.flush(buf);
}

/// `"fields": {...}` of a zero-column mask descriptor, from Table 45's layout rows.
fn fields_json(o: &mut Obj<'_>, f: &ZmaskFields) -> fmt::Result {
    render::fields_json(o, render::given_values(ZMASK_LAYOUT, |x| f.value(x)))
}

/// The sub-masks for the shape (the ones M uses), when M and N allow them.
fn masks(f: &ZmaskFields, s: Shape) -> Option<[Option<ColumnMask>; 4]> {
    sub_masks(f, s.m, s.n).ok()
}

/// `"masks": [...], "zeroed_columns": [...]` (or `null`s when M and N allow no mask).
fn masks_json(o: &mut Obj<'_>, f: &ZmaskFields, s: Shape) -> fmt::Result {
    match masks(f, s) {
        Some(subs) => {
            let b = o.key(key!("masks"));
            b.push('[');
            for (i, m) in subs.iter().flatten().enumerate() {
                if i > 0 {
                    b.push(',');
                }
                b.push('"');
                push_bits(b, m);
                b.push('"');
            }
            b.push(']');
            let b = o.key(key!("zeroed_columns"));
            b.push('[');
            push_zeroed(b, &subs);
            b.push(']');
            Ok(())
        }
        None => {
            o.raw(key!("masks"), "null")?;
            o.raw(key!("zeroed_columns"), "null")
        }
    }
}

fn rows(raw: u64, problems: &[ZmaskError]) -> Vec<Row> {
    render::word_rows(ZeroColumnMask::from_bits_unchecked(raw).word(), problems)
}

/// The masks section of the human report: sub-masks most significant column first, then the
/// columns in order with the zeroed ones marked.
fn masks_human(buf: &mut String, f: &ZmaskFields, s: Shape, style: Style) -> fmt::Result {
    let (Some(subs), Ok(full)) = (masks(f, s), column_mask(f, s.m, s.n)) else {
        return writeln!(
            buf,
            "  no mask: M = {} and N = {} do not split into sub-masks (Table 45)",
            s.m, s.n
        );
    };
    let width = sub_mask_width(s.m, s.n).unwrap_or(s.n);
    let count = subs.iter().flatten().count();
    writeln!(
        buf,
        "\n  M = {}, N = {}: {count} sub-mask{} of {width} columns, most significant column first (1 = zeroed):",
        s.m,
        s.n,
        if count == 1 { "" } else { "s" }
    )?;
    let wcol = s.n.saturating_sub(1).to_string().len();
    for (i, m) in subs.iter().flatten().enumerate() {
        let lo = i as u16 * width;
        let hi = lo + width.saturating_sub(1);
        writeln!(buf, "    mask{i}  columns {lo:>wcol$}-{hi:<wcol$}  {m}")?;
    }
    let shift = u16::from(f.column_shift);
    writeln!(
        buf,
        "\n  columns 0..{} in order ({}#{} zeroed, . used); the MMA reads B columns {}..{}:",
        s.n.saturating_sub(1),
        style.red(),
        style.reset(),
        shift,
        shift + s.n.saturating_sub(1)
    )?;
    let mut lo = 0u16;
    while lo < s.n {
        write!(buf, "    {lo:>wcol$}  ")?;
        let hi = (lo + ROW_COLUMNS).min(s.n);
        for c in lo..hi {
            if full.bit(c) {
                write!(buf, "{}#{}", style.red(), style.reset())?;
            } else {
                buf.push('.');
            }
            if (c + 1) % 8 == 0 && c + 1 < hi {
                buf.push(' ');
            }
        }
        buf.push('\n');
        lo = hi;
    }
    let ones: Vec<u32> = full.iter_ones().map(u32::from).collect();
    write!(buf, "  zeroed columns ({}): ", ones.len())?;
    if ones.is_empty() {
        buf.push_str("none");
    } else {
        ranges(buf, &ones, ", ")?;
    }
    buf.push('\n');
    Ok(())
}

fn heading(buf: &mut String, raw: u64, style: Style) -> fmt::Result {
    writeln!(
        buf,
        "{}zero-column mask descriptor {raw:#018x}{} (PTX ISA 9.7.16.4.3 Table 45)",
        style.bold(),
        style.reset()
    )
}

fn human(
    buf: &mut String,
    raw: u64,
    f: &ZmaskFields,
    shape: Option<Shape>,
    problems: &[ZmaskError],
    style: Style,
) -> fmt::Result {
    heading(buf, raw, style)?;
    render::table(buf, &rows(raw, problems), style)?;
    if let Some(s) = shape {
        masks_human(buf, f, s, style)?;
    }
    let (e, w) = count(problems);
    render::verdict(buf, e, w, style)
}

fn decode_object(
    buf: &mut String,
    raw: u64,
    f: &ZmaskFields,
    shape: Option<Shape>,
    problems: &[ZmaskError],
    cache: &mut Cache<ZmaskError>,
) -> fmt::Result {
    let mut o = Obj::open(buf);
    o.hex(key!("hex"), raw, 16);
    o.bool(key!("valid"), count(problems).0 == 0)?;
    fields_json(&mut o, f)?;
    cache.json(&mut o, problems)?;
    if let Some(s) = shape {
        masks_json(&mut o, f, s)?;
    }
    o.close();
    Ok(())
}

/// `decode zmask VALUE`.
pub fn decode(
    ctx: Ctx,
    raw: u64,
    shape: Option<Shape>,
    max_shift: Option<MaxShift>,
) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let f = ZmaskFields::from_raw(raw);
    let mut problems = Vec::new();
    problems_of(raw, &f, shape, max_shift, &mut problems);
    if ctx.json {
        decode_object(&mut rep.out, raw, &f, shape, &problems, &mut Cache::new())?;
        rep.out.push('\n');
    } else {
        human(&mut rep.out, raw, &f, shape, &problems, ctx.out)?;
    }
    rep.problems(&problems, ctx.err)?;
    Ok(rep)
}

/// Batch decoding of zero-column mask descriptors.
pub struct Batch {
    shape: Option<Shape>,
    max_shift: Option<MaxShift>,
    problems: Vec<ZmaskError>,
    cache: Cache<ZmaskError>,
}

impl Batch {
    /// A batch decoder for an MMA shape (or none) and maximum shift (or none).
    pub fn new(shape: Option<Shape>, max_shift: Option<MaxShift>) -> Batch {
        Batch {
            shape,
            max_shift,
            problems: Vec::with_capacity(16),
            cache: Cache::new(),
        }
    }
}

impl Decoder for Batch {
    const BITS: u32 = 64;

    fn line(&mut self, raw: u64, buf: &mut String, json: bool) -> Result<bool, fmt::Error> {
        let f = ZmaskFields::from_raw(raw);
        problems_of(raw, &f, self.shape, self.max_shift, &mut self.problems);
        let valid = count(&self.problems).0 == 0;
        if json {
            decode_object(buf, raw, &f, self.shape, &self.problems, &mut self.cache)?;
            return Ok(valid);
        }
        push_hex(buf, raw, 16);
        buf.push_str(if valid { " valid" } else { " invalid" });
        render::fields_text(buf, render::given_values(ZMASK_LAYOUT, |x| f.value(x)));
        if let Some(subs) = self.shape.and_then(|s| masks(&f, s)) {
            buf.push_str(" masks=");
            for (i, m) in subs.iter().flatten().enumerate() {
                if i > 0 {
                    buf.push(',');
                }
                push_bits(buf, m);
            }
            buf.push_str(" zeroed_columns=");
            push_zeroed(buf, &subs);
        }
        self.cache.compact(buf, &self.problems)?;
        Ok(valid)
    }
}

/// Writes a successful encode or solve: the descriptor, its fields and (with a shape) masks.
fn success(
    rep: &mut Report,
    ctx: Ctx,
    raw: u64,
    f: &ZmaskFields,
    shape: Option<Shape>,
    problems: &[ZmaskError],
) -> fmt::Result {
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("hex"), format_args!("{raw:#018x}"))?;
        fields_json(&mut o, f)?;
        if let Some(s) = shape {
            masks_json(&mut o, f, s)?;
        }
        o.close();
        rep.out.push('\n');
    } else {
        human(&mut rep.out, raw, f, shape, problems, ctx.out)?;
    }
    rep.problems(problems, ctx.err)
}

/// Writes a failed encode or solve: exit status 1, errors on stderr, a JSON failure object.
fn failure<A: Diagnostic, B: Diagnostic>(
    rep: &mut Report,
    ctx: Ctx,
    fields: Option<&ZmaskFields>,
    a: &[A],
    b: &[B],
) -> fmt::Result {
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.raw(key!("hex"), "null")?;
        o.bool(key!("valid"), false)?;
        if let Some(f) = fields {
            fields_json(&mut o, f)?;
        }
        problems_json2(&mut o, a, b)?;
        o.close();
        rep.out.push('\n');
    } else {
        let (ea, wa) = count(a);
        let (eb, wb) = count(b);
        render::verdict(&mut rep.out, ea + eb, wa + wb, ctx.out)?;
    }
    rep.problems(a, ctx.err)?;
    rep.problems(b, ctx.err)?;
    rep.status = rep.status.max(Status::Rule);
    Ok(())
}

/// `encode zmask`.
pub fn encode(ctx: Ctx, a: &EncodeZmask) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let mut cli = Vec::new();
    let shape = shape_of(a.shape, &mut cli);
    let mut byte = |field, v, limit, max, source| {
        narrow::<u8>(field, v, limit, max, source).unwrap_or_else(|e| {
            cli.push(e);
            0
        })
    };
    let t45 = Source::PtxTable(45);
    let mut f = ZmaskFields {
        non_zero_mask: a.non_zero_mask,
        skip_span: byte("skip_span", a.skip_span, 255, 255, t45),
        use_span: byte("use_span", a.use_span, 255, 255, t45),
        column_shift: byte("column_shift", a.column_shift, 255, 32, t45),
        ..ZmaskFields::DISABLED
    };
    for i in 0..4 {
        if let Some(v) = a.start_count.and_then(|l| l.get(i).copied()) {
            f.start_count[i] = byte(ZmaskField::start_count(i).name(), v, 255, 255, t45);
        }
        if let Some(v) = a.first_span.and_then(|l| l.get(i).copied()) {
            f.first_span[i] = byte(ZmaskField::first_span(i).name(), v, 1, 1, t45) == 1;
        }
    }
    let raw = f.to_raw_unchecked();
    let mut problems = Vec::new();
    problems_of(raw, &f, shape, a.max_shift, &mut problems);
    if !cli.is_empty() || problems.iter().any(|e| e.severity() == Severity::Error) {
        failure(&mut rep, ctx, Some(&f), &cli, &problems)?;
        return Ok(rep);
    }
    success(&mut rep, ctx, raw, &f, shape, &problems)?;
    Ok(rep)
}

/// `solve zmask`.
pub fn solve_cmd(ctx: Ctx, a: &SolveZmask) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let wanted = match ColumnMask::parse_bits(a.mask.trim_ascii()) {
        Ok(m) => m,
        Err(e @ (ColumnMaskError::BadDigit { .. } | ColumnMaskError::NoDigits)) => {
            writeln!(
                rep.err,
                "{}error{}: --mask: {e} (expected N characters of 0 and 1, highest column first)",
                ctx.err.red(),
                ctx.err.reset()
            )?;
            rep.status = Status::Usage;
            return Ok(rep);
        }
        Err(e) => {
            failure::<ColumnMaskError, ColumnMaskError>(&mut rep, ctx, None, &[e], &[])?;
            return Ok(rep);
        }
    };
    let mut cli = Vec::new();
    let shape = shape_of(
        MaskShape {
            m: Some(a.m),
            n: Some(a.n),
        },
        &mut cli,
    );
    let shift = narrow::<u8>(
        "column_shift",
        a.column_shift,
        255,
        32,
        Source::PtxTable(45),
    );
    let shift = shift.unwrap_or_else(|e| {
        cli.push(e);
        0
    });
    let Some(shape) = shape.filter(|_| cli.is_empty()) else {
        failure::<CliError, CliError>(&mut rep, ctx, None, &cli, &[])?;
        return Ok(rep);
    };
    let options = SolveOptions {
        column_shift: shift,
        max_shift: a.max_shift,
    };
    match solve(shape.m, shape.n, &wanted, options) {
        Ok(f) => {
            let raw = f.to_raw_unchecked();
            let mut problems = Vec::new();
            problems_of(raw, &f, Some(shape), a.max_shift, &mut problems);
            // A solution for an N that no .ws MMA has still prints, with its errors.
            success(&mut rep, ctx, raw, &f, Some(shape), &problems)?;
        }
        Err(e) => failure::<_, CliError>(&mut rep, ctx, None, &[e], &[])?,
    }
    Ok(rep)
}
