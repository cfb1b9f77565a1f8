//! `decode idesc` and `encode idesc`: the 32-bit instruction descriptor (PTX ISA 9.7.16.4.2,
//! Tables 42-44; decisions.md R8-R13), checked against Table 39 when the MMA is described.

use std::fmt::{self, Write as _};

use tcgen05::diagnostic::{Diagnostic, Severity, Source};
use tcgen05::instruction_descriptor::{
    layout, m_unit, reserved_mask, row, IdescDecoded, IdescField, IdescFields,
    InstructionDescriptor, RowMeaning,
};
use tcgen05::mma::{CtaGroup, ElementType, IdescLayout, Kind, MaxShift, ScaleType};
use tcgen05::shapes::{validate_mma, MmaConfig, MmaError};
use tcgen05::Target;

use super::batch::Decoder;
use super::problem::{narrow, CliError};
use super::target::resolve_target;
use crate::args::descriptor::EncodeIdesc;
use crate::args::value::TargetArg;
use crate::render::{
    self, count, problems_json2, push_dec, push_hex, Cache, Ctx, Obj, Report, Row, Status, Style,
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

/// A raw value read under one kind.
// TODO(issue 15): core lacks the decoded fields of a value whose type codes the kind does not
// define (`IdescDecoded::fields` is `None` then, yet `decode idesc` prints such values with the
// codes), and a value meaning per layout row (issue 15, item 2). Until then `View` reads the raw
// codes through the core's layout rows and scales M, N and K itself.
#[derive(Clone, Copy)]
struct View {
    bits: u32,
    kind: Kind,
}

/// A type field: its name, or its raw code when the code names no type under the kind.
#[derive(Clone, Copy)]
enum TypeVal {
    Named(ElementType),
    Code(u64),
}

impl fmt::Display for TypeVal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeVal::Named(t) => f.write_str(t.name()),
            TypeVal::Code(c) => write!(f, "{c}"),
        }
    }
}

impl View {
    fn get(self, f: IdescField) -> Option<u64> {
        row(self.kind, f).map(|r| r.get(u64::from(self.bits)))
    }
    fn flag(self, f: IdescField) -> bool {
        self.get(f) == Some(1)
    }
    fn m(self) -> u64 {
        self.get(IdescField::M).unwrap_or(0) * u64::from(m_unit(self.kind))
    }
    fn n(self) -> u64 {
        self.get(IdescField::N).unwrap_or(0) << 3
    }
    fn k(self) -> u64 {
        if self.flag(IdescField::K) {
            96
        } else {
            u64::from(self.kind.dense_k()) * if self.flag(IdescField::Sparse) { 2 } else { 1 }
        }
    }
    fn max_shift_rows(self) -> u64 {
        let code = self.get(IdescField::MaxShift).unwrap_or(0);
        u64::from(MaxShift::from_code(code as u8).map_or(0, MaxShift::rows))
    }
    fn d_type(self) -> TypeVal {
        match self.get(IdescField::DType) {
            // Block-scaled layouts have no dtype field: D is f32.
            None => TypeVal::Named(ElementType::F32),
            Some(c) => ElementType::from_d_code(self.kind, c as u8)
                .map_or(TypeVal::Code(c), TypeVal::Named),
        }
    }
    fn ab_type(self, f: IdescField) -> TypeVal {
        let c = self.get(f).unwrap_or(0);
        ElementType::from_ab_code(self.kind, c as u8).map_or(TypeVal::Code(c), TypeVal::Named)
    }
    fn scale(self) -> Option<ScaleType> {
        self.get(IdescField::ScaleType)
            .and_then(|c| ScaleType::from_code(c as u8))
    }
    fn layout(self) -> IdescLayout {
        self.kind.idesc_layout()
    }
}

/// The PTX table that lays out `kind`'s descriptor (Table 42, 43 or 44, with its section), as
/// the core's layout rows cite it.
fn table_source(kind: Kind) -> Option<Source> {
    layout(kind)
        .iter()
        .map(|r| r.source)
        .find(|s| matches!(s, Source::PtxTable(_)))
}

fn type_json(o: &mut Obj<'_>, k: &'static str, t: TypeVal) -> fmt::Result {
    match t {
        TypeVal::Named(t) => o.name(k, t.name()),
        TypeVal::Code(c) => o.num(k, c),
    }
}

/// `"fields": {...}` of a raw value under a kind.
// TODO(issue 15): core lacks one generic rendering of a decoded descriptor (rows that know their
// values, item 2); the core's serde derives give other keys and shapes than this documented JSON
// (`max_shift` in rows, `k`, type codes as numbers), so the list stays written here.
fn fields_json(o: &mut Obj<'_>, v: View) -> fmt::Result {
    let buf = o.key(key!("fields"));
    let mut p = Obj::open(buf);
    p.num(
        key!("sparsity_selector"),
        v.get(IdescField::SparsitySelector).unwrap_or(0),
    )?;
    p.bool(key!("sparse"), v.flag(IdescField::Sparse))?;
    p.bool(key!("saturate"), v.flag(IdescField::Saturate))?;
    type_json(&mut p, key!("d_type"), v.d_type())?;
    type_json(&mut p, key!("a_type"), v.ab_type(IdescField::AType))?;
    type_json(&mut p, key!("b_type"), v.ab_type(IdescField::BType))?;
    p.bool(key!("negate_a"), v.flag(IdescField::NegateA))?;
    p.bool(key!("negate_b"), v.flag(IdescField::NegateB))?;
    p.bool(key!("transpose_a"), v.flag(IdescField::TransposeA))?;
    p.bool(key!("transpose_b"), v.flag(IdescField::TransposeB))?;
    p.num(key!("m"), v.m())?;
    p.num(key!("n"), v.n())?;
    p.num(key!("max_shift"), v.max_shift_rows())?;
    if v.layout() != IdescLayout::Table42 {
        match v.scale() {
            Some(s) => p.name(key!("scale_type"), s.name())?,
            None => p.num(
                key!("scale_type"),
                v.get(IdescField::ScaleType).unwrap_or(0),
            )?,
        }
        p.num(key!("sfa_id"), v.get(IdescField::SfaId).unwrap_or(0))?;
        p.num(key!("sfb_id"), v.get(IdescField::SfbId).unwrap_or(0))?;
    }
    if v.layout() == IdescLayout::Table44 {
        p.num(key!("k"), v.k())?;
    }
    p.close();
    Ok(())
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

fn rows(v: View, problems: &[MmaError]) -> Vec<Row> {
    render::layout_rows(
        layout(v.kind),
        u64::from(v.bits),
        IdescField::name,
        |r| RowMeaning::new(v.bits, v.kind, r).to_string(),
        problems,
    )
}

/// The shape and types in one line: `M = 128, N = 64, K = 16, dense; D .f32 = A .bf16 x B .bf16`.
fn summary(buf: &mut String, v: View) -> fmt::Result {
    write!(
        buf,
        "  MMA: M = {}, N = {}, K = {}, {}; D {} = A {} x B {}",
        v.m(),
        v.n(),
        v.k(),
        if v.flag(IdescField::Sparse) {
            "sparse"
        } else {
            "dense"
        },
        TypeDot(v.d_type()),
        TypeDot(v.ab_type(IdescField::AType)),
        TypeDot(v.ab_type(IdescField::BType)),
    )?;
    if let Some(s) = v.scale() {
        write!(buf, ", scales .{s}")?;
    }
    buf.push('\n');
    Ok(())
}

struct TypeDot(TypeVal);

impl fmt::Display for TypeDot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            TypeVal::Named(t) => write!(f, ".{t}"),
            TypeVal::Code(c) => write!(f, "(code {c})"),
        }
    }
}

/// Every problem of `bits` under `kind`: the descriptor's own (Tables 42-44), then, when `mma`
/// is given and the fields could be read, those of the whole MMA (Table 39, targets).
fn problems_of(bits: u32, kind: Kind, mma: Option<Mma>, out: &mut Vec<MmaError>) {
    problems_from(&InstructionDescriptor::decode(bits, kind), mma, out);
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

/// Batch listing: whether `bits` is valid under `kind` (the core's verdict, as in
/// `InstructionDescriptor::valid_kinds`) and, when given, in the MMA; its problems in `out`.
// TODO(issue 15): core lacks a cheap validity check (item 4: `is_valid(raw, kind)`); until then a
// kind whose reserved bits are set (always an error, decisions.md R10) is skipped by the core's
// mask, without the seven decodes of `valid_kinds`.
fn valid_under(bits: u32, kind: Kind, mma: Option<Mma>, out: &mut Vec<MmaError>) -> bool {
    if bits & reserved_mask(kind) != 0 {
        return false;
    }
    let d = InstructionDescriptor::decode(bits, kind);
    if !d.is_valid() {
        return false;
    }
    problems_from(&d, mma, out);
    is_valid(out)
}

fn is_valid(problems: &[MmaError]) -> bool {
    !problems.iter().any(|d| d.severity() == Severity::Error)
}

fn decode_object(
    buf: &mut String,
    v: View,
    problems: &[MmaError],
    cache: &mut Cache<MmaError>,
) -> fmt::Result {
    let mut o = Obj::open(buf);
    o.hex(key!("hex"), v.bits.into(), 8);
    o.name(key!("kind"), v.kind.name())?;
    o.bool(key!("valid"), is_valid(problems))?;
    fields_json(&mut o, v)?;
    cache.json(&mut o, problems)?;
    o.close();
    Ok(())
}

fn heading(buf: &mut String, v: View, style: Style) -> fmt::Result {
    writeln!(
        buf,
        "{}instruction descriptor {:#010x} as .kind::{}{} ({})",
        style.bold(),
        v.bits,
        v.kind,
        style.reset(),
        table_source(v.kind).unwrap_or(Source::PtxSection("9.7.16.4.2"))
    )
}

fn human_block(
    buf: &mut String,
    v: View,
    problems: &[MmaError],
    mma: Option<Mma>,
    style: Style,
) -> fmt::Result {
    heading(buf, v, style)?;
    render::table(buf, &rows(v, problems), style)?;
    summary(buf, v)?;
    if let Some(m) = mma {
        writeln!(
            buf,
            "  checked as tcgen05.mma.{}.kind::{}{} on {} (Table 39)",
            m.cta_group,
            v.kind,
            if m.ws { ".ws" } else { "" },
            m.target
        )?;
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
        let v = View { bits, kind };
        problems_of(bits, kind, mma, &mut problems);
        if ctx.json {
            decode_object(&mut rep.out, v, &problems, &mut Cache::new())?;
            rep.out.push('\n');
        } else {
            human_block(&mut rep.out, v, &problems, mma, ctx.out)?;
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
            problems_of(bits, k, mma, &mut problems);
            decode_object(buf, View { bits, kind: k }, &problems, &mut Cache::new())?;
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
            human_block(
                &mut rep.out,
                View { bits, kind: k },
                &problems,
                mma,
                ctx.out,
            )?;
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
    let set = InstructionDescriptor::valid_kinds(bits);
    set.iter()
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
    problems: Vec<MmaError>,
    cache: Cache<MmaError>,
}

impl Batch {
    /// A batch decoder for one kind, or for every valid kind.
    pub fn new(kind: Option<Kind>, mma: Option<Mma>) -> Batch {
        Batch {
            kind,
            mma,
            problems: Vec::with_capacity(32),
            cache: Cache::new(),
        }
    }
}

/// `f16: M=128 N=64 K=16 d=f32 a=bf16 b=bf16` and the fields that are not at their default.
fn compact(buf: &mut String, v: View) {
    buf.push_str(v.kind.name());
    buf.push_str(": M=");
    push_dec(buf, v.m());
    buf.push_str(" N=");
    push_dec(buf, v.n());
    buf.push_str(" K=");
    push_dec(buf, v.k());
    for (key, t) in [
        (" d=", v.d_type()),
        (" a=", v.ab_type(IdescField::AType)),
        (" b=", v.ab_type(IdescField::BType)),
    ] {
        buf.push_str(key);
        match t {
            TypeVal::Named(t) => buf.push_str(t.name()),
            TypeVal::Code(c) => push_dec(buf, c),
        }
    }
    for (f, name) in [
        (IdescField::Sparse, " sparse"),
        (IdescField::Saturate, " saturate"),
        (IdescField::NegateA, " negate_a"),
        (IdescField::NegateB, " negate_b"),
        (IdescField::TransposeA, " transpose_a"),
        (IdescField::TransposeB, " transpose_b"),
    ] {
        if v.flag(f) {
            buf.push_str(name);
        }
    }
    if let Some(s @ 1..) = v.get(IdescField::SparsitySelector) {
        buf.push_str(" sparsity_selector=");
        push_dec(buf, s);
    }
    if v.max_shift_rows() != 0 {
        buf.push_str(" max_shift=");
        push_dec(buf, v.max_shift_rows());
    }
    if v.layout() != IdescLayout::Table42 {
        buf.push_str(" scale_type=");
        match v.scale() {
            Some(s) => buf.push_str(s.name()),
            None => push_dec(buf, v.get(IdescField::ScaleType).unwrap_or(0)),
        }
        buf.push_str(" sfa_id=");
        push_dec(buf, v.get(IdescField::SfaId).unwrap_or(0));
        buf.push_str(" sfb_id=");
        push_dec(buf, v.get(IdescField::SfbId).unwrap_or(0));
    }
}

impl Decoder for Batch {
    const BITS: u32 = 32;

    fn line(&mut self, raw: u64, buf: &mut String, json: bool) -> Result<bool, fmt::Error> {
        // BITS = 32: the value fits.
        let bits = raw as u32;
        if let Some(kind) = self.kind {
            let v = View { bits, kind };
            problems_of(bits, kind, self.mma, &mut self.problems);
            let valid = is_valid(&self.problems);
            if json {
                decode_object(buf, v, &self.problems, &mut self.cache)?;
            } else {
                push_hex(buf, bits.into(), 8);
                buf.push_str(if valid { " valid " } else { " invalid " });
                compact(buf, v);
                self.cache.compact(buf, &self.problems)?;
            }
            return Ok(valid);
        }
        // The kinds of `InstructionDescriptor::valid_kinds`, as in the single-value path (one
        // decode per kind, see `valid_under`), narrowed by the MMA checks when given.
        let mut any = false;
        if json {
            let mut o = Obj::open(buf);
            o.hex(key!("hex"), bits.into(), 8);
            let b = o.key(key!("kinds"));
            b.push('[');
            for k in Kind::ALL {
                if !valid_under(bits, k, self.mma, &mut self.problems) {
                    continue;
                }
                if any {
                    b.push(',');
                }
                any = true;
                decode_object(b, View { bits, kind: k }, &self.problems, &mut self.cache)?;
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
            let start = buf.len();
            push_hex(buf, bits.into(), 8);
            buf.push_str(" valid");
            for k in Kind::ALL {
                if !valid_under(bits, k, self.mma, &mut self.problems) {
                    continue;
                }
                any = true;
                buf.push_str(" | ");
                compact(buf, View { bits, kind: k });
                self.cache.compact(buf, &self.problems)?;
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
    let v = View {
        bits: desc.bits(),
        kind: a.kind,
    };
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("hex"), format_args!("{:#010x}", v.bits))?;
        fields_json(&mut o, v)?;
        o.close();
        rep.out.push('\n');
    } else {
        let mma = Mma {
            cta_group: a.cta_group,
            ws: a.ws,
            target,
        };
        human_block(&mut rep.out, v, &problems, Some(mma), ctx.out)?;
    }
    rep.problems(&problems, ctx.err)?;
    Ok(rep)
}
