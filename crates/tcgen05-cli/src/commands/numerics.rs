//! `numerics`: what D an MMA returns, bit for bit, with the explanation; and the error of a
//! whole K loop. Every number comes from `tcgen05::numerics`; this file parses and renders.

use std::fmt::{self, Write as _};

use tcgen05::mma::Kind;
use tcgen05::numerics::exact::ExactSum;
use tcgen05::numerics::fdpa::{Algorithm, SpecialCause, TermSource};
use tcgen05::numerics::format::{Exact, Format, Rounding, Value};
use tcgen05::numerics::params::{Location, Problem};
use tcgen05::numerics::study::{self, Distribution};
use tcgen05::numerics::{Arch, Dot, Form, Instruction, Operands, ParamRow};

use crate::args::number;
use crate::args::numerics::{DotArgs, ErrorArgs, FormArgs};
use crate::render::{json_str, Ctx, Obj, Report, Status};

/// A problem found by the command itself (a name or a value it cannot read).
struct CliProblem {
    field: String,
    value: String,
    message: String,
    source: &'static str,
}

fn forms(f: &FormArgs, bad: &mut Vec<CliProblem>) -> Vec<Form> {
    let mut p = |field: &str, value: &str, message: &str, source: &'static str| {
        bad.push(CliProblem {
            field: field.into(),
            value: value.into(),
            message: message.into(),
            source,
        });
    };
    let kind = Kind::from_name(&f.kind.trim_ascii().to_ascii_lowercase());
    if kind.is_none() {
        p(
            "kind",
            &f.kind,
            "unknown kind (tf32, f16, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4)",
            "PTX ISA 9.7.16.10.9.1",
        );
    }
    let ty = |name: &str, v: &str, p: &mut dyn FnMut(&str, &str, &str, &'static str)| {
        let t = Format::from_name(&v.trim_ascii().to_ascii_lowercase());
        if t.is_none() {
            p(name, v, "unknown type", "PTX ISA 5.2");
        }
        t
    };
    let a = ty("a_type", &f.a_type, &mut p);
    let b = ty("b_type", &f.b_type, &mut p);
    let d = f.d_type.as_deref().map(|v| ty("d_type", v, &mut p));
    let s = f.scale_type.as_deref().map(|v| ty("scale_type", v, &mut p));
    let instruction = f.instruction.as_deref().map(|v| {
        let i = Instruction::from_name(&v.trim_ascii().to_ascii_lowercase());
        if i.is_none() {
            p(
                "instruction",
                v,
                "unknown instruction (wgmma, tcgen05.mma, mma.sync)",
                "PTX ISA 9.7.14-9.7.16",
            );
        }
        i
    });
    let mut archs = Vec::new();
    if f.arch.is_empty() {
        p(
            "arch",
            "",
            "give --arch sm_90a or --arch sm_100a",
            "PTX ISA 9.7.15 / 9.7.16",
        );
    }
    for v in &f.arch {
        match Arch::from_name(&v.trim_ascii().to_ascii_lowercase()) {
            Some(a) => archs.push(a),
            None => p(
                "arch",
                v,
                "unknown architecture (sm_90a, or a target with tcgen05: sm_100a, sm_100f, sm_103a, sm_103f, sm_107a, sm_107f, sm_110a, sm_110f)",
                "PTX ISA 9.7.15 / 9.7.16",
            ),
        }
    }
    let (Some(kind), Some(a), Some(b)) = (kind, a, b) else {
        return Vec::new();
    };
    if matches!(d, Some(None)) || matches!(s, Some(None)) || matches!(instruction, Some(None)) {
        return Vec::new();
    }
    archs
        .into_iter()
        .map(|arch| Form {
            arch,
            instruction: instruction.flatten(),
            kind,
            a,
            b,
            d: d.flatten(),
            scale: s.flatten(),
            block: f.block,
        })
        .collect()
}

/// The exact decimal of a finite value.
fn decimal(x: Exact) -> String {
    let mut s = ExactSum::ZERO;
    s.add(x);
    s.to_string()
}

/// A code's value as text: exact decimal, `inf`, `-inf`, `NaN`, or the integer.
fn value_text(f: Format, code: u32) -> String {
    match f.decode(code) {
        Ok(Value::Int(i)) => i.to_string(),
        Ok(Value::NaN) => "NaN".into(),
        Ok(Value::Inf { neg }) => if neg { "-inf" } else { "inf" }.into(),
        Ok(Value::Zero { neg }) => if neg { "-0" } else { "0" }.into(),
        Ok(v) => Exact::of(v).map_or_else(String::new, decimal),
        Err(e) => e.to_string(),
    }
}

/// Normalises a decimal text to the form `ExactSum` prints (no `+`, no exponent, no trailing
/// zeros), or `None` when it is not a plain decimal.
fn normal_decimal(s: &str) -> Option<String> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (mant, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i32>().ok()?),
        None => (body, 0),
    };
    let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
    if ip.is_empty() && fp.is_empty() || !ip.chars().chain(fp.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    if exp.unsigned_abs() > 400 {
        return None;
    }
    let digits: String = format!("{ip}{fp}");
    let point = ip.len() as i64 + i64::from(exp);
    let (mut int, mut frac) = if point <= 0 {
        (
            String::from("0"),
            format!("{}{digits}", "0".repeat((-point) as usize)),
        )
    } else if point as usize >= digits.len() {
        (
            format!("{digits}{}", "0".repeat(point as usize - digits.len())),
            String::new(),
        )
    } else {
        (
            digits[..point as usize].to_string(),
            digits[point as usize..].to_string(),
        )
    };
    int = int.trim_start_matches('0').to_string();
    if int.is_empty() {
        int = "0".into();
    }
    while frac.ends_with('0') {
        frac.pop();
    }
    let mut out = String::new();
    let zero = int == "0" && frac.is_empty();
    if neg && !zero {
        out.push('-');
    }
    out.push_str(&int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(&frac);
    }
    Some(out)
}

/// The two decimals a reader prints for the value of `code` besides its exact decimal, each
/// normalised like [`normal_decimal`]: the shortest decimal that rounds to it in `f` (NumPy's
/// printing of a float16 or float32) and the shortest that rounds to it in f64 (Python's
/// `repr(float(x))`). Empty for codes without a finite value.
fn shortest_decimals(f: Format, code: u32) -> Vec<String> {
    let Ok(v) = f.decode(code) else {
        return Vec::new();
    };
    let Some(x) = Exact::of(v).map(Exact::to_f64) else {
        return Vec::new();
    };
    let rounds_back = |s: &str| {
        s.parse::<f64>()
            .ok()
            .and_then(Exact::from_f64)
            .and_then(|e| f.encode(e, Rounding::NearestEven).ok())
            == Some(code)
    };
    let in_f = (1..=17)
        .map(|digits| format!("{x:.*e}", digits - 1))
        .find(|s| rounds_back(s));
    [in_f, Some(format!("{x}"))]
        .into_iter()
        .flatten()
        .filter_map(|s| normal_decimal(&s))
        .collect()
}

/// Reads one value of format `f`: a 0x code (checked by the core's decoder later), a name, or
/// a decimal that must be exactly representable.
fn parse_value(f: Format, field: &str, v: &str, bad: &mut Vec<CliProblem>) -> u32 {
    let v = v.trim();
    let mut p = |message: String| {
        bad.push(CliProblem {
            field: field.into(),
            value: v.into(),
            message,
            source: "PTX ISA 5.2",
        })
    };
    if v.starts_with("0x") || v.starts_with("0X") {
        return match number::parse(v.as_bytes(), 32) {
            Ok(c) => c as u32,
            Err(_) => {
                p("not a 32-bit hexadecimal code".into());
                0
            }
        };
    }
    if f.is_integer() {
        let (lo, hi) = match f {
            Format::S8 => (-128i64, 127i64),
            Format::U8 => (0, 255),
            _ => (i64::from(i32::MIN), i64::from(i32::MAX)),
        };
        return match v.parse::<i64>() {
            Ok(i) if (lo..=hi).contains(&i) => {
                (i as u32)
                    & if f.width() == 32 {
                        u32::MAX
                    } else {
                        (1 << f.width()) - 1
                    }
            }
            _ => {
                p(format!("not an integer in {lo}..={hi} ({f})"));
                0
            }
        };
    }
    let lower = v.to_ascii_lowercase();
    let special = |neg: bool| -> Option<u32> {
        (0..=u32::from(u16::MAX))
            .chain([0x7F80_0000, 0xFF80_0000, 0x7FC0_0000])
            .find(|&c| match f.decode(c) {
                Ok(Value::Inf { neg: n }) => n == neg && lower != "nan",
                Ok(Value::NaN) => lower == "nan",
                _ => false,
            })
    };
    match lower.as_str() {
        "inf" | "+inf" | "nan" | "-inf" => {
            return special(lower == "-inf").unwrap_or_else(|| {
                p(format!("{f} has no {v}"));
                0
            })
        }
        _ => {}
    }
    let Some(norm) = normal_decimal(v) else {
        p("not a number (decimal, 0x code, inf, -inf or nan)".into());
        return 0;
    };
    let Ok(x) = v.parse::<f64>() else {
        p("not a number".into());
        return 0;
    };
    let Some(e) = Exact::from_f64(x) else {
        p("out of range".into());
        return 0;
    };
    match f.encode(e, Rounding::NearestEven) {
        Ok(c) => {
            let got = value_text(f, c);
            let got = if got == "-0" { "0".to_string() } else { got };
            let want = if norm == "-0" { "0".to_string() } else { norm };
            if got != want && !shortest_decimals(f, c).contains(&want) {
                p(format!(
                    "not exactly representable in {f}, nor the shortest decimal of a value of \
                     {f} (in {f} or in f64); the nearest value is {got} ({c:#x})"
                ));
            }
            if v.starts_with('-') && x == 0.0 {
                return f
                    .encode(
                        Exact {
                            neg: true,
                            mag: 0,
                            scale: 0,
                        },
                        Rounding::NearestEven,
                    )
                    .unwrap_or(c);
            }
            c
        }
        Err(err) => {
            p(format!("{err}"));
            0
        }
    }
}

fn list(f: Format, field: &str, v: &str, bad: &mut Vec<CliProblem>) -> Vec<u32> {
    v.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| parse_value(f, field, s, bad))
        .collect()
}

fn render_problems(
    ctx: Ctx,
    rep: &mut Report,
    cli: &[CliProblem],
    core: &[Problem],
) -> fmt::Result {
    // Unknown names and unreadable numbers are usage errors (exit 2); values that break a rule
    // exit 1, as everywhere in the command.
    let usage = cli.iter().any(|p| {
        p.message.starts_with("unknown")
            || p.message.starts_with("not a number")
            || p.message.starts_with("not a 32-bit")
    });
    rep.status = if usage { Status::Usage } else { Status::Rule };
    let core_field = |p: &Problem| -> String {
        match p.location {
            Location::Field(f) | Location::Operand(f) => f.to_string(),
            Location::Code(c) => c.to_string(),
        }
    };
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.bool(key!("ok"), false)?;
        let b = o.key(key!("problems"));
        b.push('[');
        let mut first = true;
        for p in cli {
            if !first {
                b.push(',');
            }
            first = false;
            let mut q = Obj::open(b);
            q.str(key!("field"), &p.field)?;
            q.str(key!("value"), &p.value)?;
            q.str(key!("rule"), "value")?;
            q.str(key!("message"), &p.message)?;
            q.str(key!("source"), p.source)?;
            q.close();
        }
        for p in core {
            if !first {
                b.push(',');
            }
            first = false;
            let r = p.rule.rule();
            let mut q = Obj::open(b);
            q.str(key!("field"), core_field(p))?;
            q.str(key!("value"), p.value)?;
            q.str(key!("rule"), r.id)?;
            q.str(key!("message"), p)?;
            q.str(key!("source"), r.source)?;
            q.close();
        }
        b.push(']');
        o.close();
        rep.out.push('\n');
        return Ok(());
    }
    let st = ctx.err;
    for p in cli {
        writeln!(
            rep.err,
            "{}error{}: {} = {}: {} ({})",
            st.red(),
            st.reset(),
            p.field,
            p.value,
            p.message,
            p.source
        )?;
    }
    for p in core {
        writeln!(rep.err, "{}error{}: {}", st.red(), st.reset(), p)?;
    }
    Ok(())
}

fn describe(row: &ParamRow) -> String {
    let alg = match row.algorithm {
        Algorithm::TFdpa { f, l, e_zero, out } => format!(
            "T-FDPA, F = {f}, L = {l}, {}, e_zero = {e_zero}",
            out.name()
        ),
        Algorithm::StFdpa { f, l, e_zero } => {
            format!("ST-FDPA, F = {f}, L = {l}, RZ-FP32, e_zero = {e_zero}")
        }
        Algorithm::GstFdpa {
            f,
            group,
            l,
            e_zero,
        } => format!("GST-FDPA, groups of {group}, F = {f}, L = {l}, RZ-FP32, e_zero = {e_zero}"),
        Algorithm::Integer { l } => format!("exact integer, L = {l}, s32 wrap or .satfinite"),
        Algorithm::HmmaFp8 { out } => format!(
            "ptxas FP8 emulation: two HMMA blocks (F = 25, L = 16), then C added with RN ({})",
            out.d_format()
        ),
    };
    let kind = match row.instruction {
        Instruction::Tcgen05Mma => format!("kind::{}", row.kind),
        _ => format!("({} family)", row.kind),
    };
    let scale = row.scale.map_or(String::new(), |(f, b)| {
        format!(", {f} scales per {b} elements")
    });
    format!(
        "{} {} on {}: {} x {} -> {}{}: {}",
        row.instruction.name(),
        kind,
        row.arch.name(),
        row.a,
        row.b,
        row.d,
        scale,
        alg
    )
}

fn term_name(t: TermSource) -> String {
    match t {
        TermSource::Product(k) => format!("a{k}*b{k}"),
        TermSource::Group(g) => format!("group {g}"),
        TermSource::C => "c".into(),
    }
}

fn special_text(s: SpecialCause) -> &'static str {
    match s {
        SpecialCause::NanInput => "a NaN input gives the canonical NaN",
        SpecialCause::InfTimesZero => "Inf * 0 gives the canonical NaN",
        SpecialCause::InfMinusInf => "+Inf and -Inf terms give the canonical NaN",
        SpecialCause::InfTerm => "an infinite term gives that infinity",
    }
}

/// `numerics dot`.
pub fn dot(ctx: Ctx, a: &DotArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let mut bad = Vec::new();
    let fs = forms(&a.form, &mut bad);
    if fs.len() > 1 {
        bad.push(CliProblem {
            field: "arch".into(),
            value: a.form.arch.join(","),
            message: "numerics dot takes one --arch".into(),
            source: "tcgen05 numerics dot --help",
        });
    }
    let row = match fs.first().map(Form::row) {
        Some(Ok(r)) => Some(r),
        Some(Err(e)) => {
            let core: Vec<Problem> = e.problems.iter().collect();
            let cli: Vec<CliProblem> = bad;
            let mut cli = cli;
            cli.push(CliProblem {
                field: "form".into(),
                value: format!("{} {} {} x {} -> {}", a.form.arch.join(","), a.form.kind, a.form.a_type, a.form.b_type, a.form.d_type.as_deref().unwrap_or("default")),
                message: "no instruction form takes these types (see the parameter table in the numerics module docs)".into(),
                source: "PTX ISA 9.7.16.2.1 Table 39; 9.7.15.5; 9.7.14.5.14",
            });
            let _ = core;
            render_problems(ctx, &mut rep, &cli, &[])?;
            return Ok(rep);
        }
        None => None,
    };
    let Some(row) = row else {
        render_problems(ctx, &mut rep, &bad, &[])?;
        return Ok(rep);
    };
    let k = row.algorithm.k() as usize;
    let mut av = list(row.a, "a", &a.a, &mut bad);
    let mut bv = list(row.b, "b", &a.b, &mut bad);
    // Fewer values than K are padded with zeros; more are an error of the core.
    if av.len() < k {
        av.resize(k, 0);
    }
    if bv.len() < k {
        bv.resize(k, 0);
    }
    let c =
        a.c.as_deref()
            .map_or(0, |v| parse_value(row.d, "c", v, &mut bad));
    let sf = row.scale.map(|(f, _)| f).unwrap_or(Format::Ue8m0);
    let sfa = a
        .sfa
        .as_deref()
        .map_or_else(Vec::new, |v| list(sf, "sfa", v, &mut bad));
    let sfb = a
        .sfb
        .as_deref()
        .map_or_else(Vec::new, |v| list(sf, "sfb", v, &mut bad));
    if !bad.is_empty() {
        render_problems(ctx, &mut rep, &bad, &[])?;
        return Ok(rep);
    }
    let r = match row.dot(
        &Operands {
            a: &av,
            b: &bv,
            c,
            sfa: &sfa,
            sfb: &sfb,
        },
        a.satfinite,
    ) {
        Ok(r) => r,
        Err(e) => {
            let core: Vec<Problem> = e.problems.iter().collect();
            render_problems(ctx, &mut rep, &[], &core)?;
            return Ok(rep);
        }
    };
    if ctx.json {
        json_dot(&mut rep.out, &row, &r)?;
    } else {
        text_dot(ctx, &mut rep.out, &row, &r)?;
    }
    Ok(rep)
}

fn width(f: Format) -> u32 {
    if f == Format::F16 {
        4
    } else {
        8
    }
}

fn json_dot(out: &mut String, row: &ParamRow, r: &Dot) -> fmt::Result {
    let mut o = Obj::open(out);
    o.bool(key!("ok"), true)?;
    o.name(key!("arch"), row.arch.name())?;
    o.name(key!("instruction"), row.instruction.name())?;
    o.name(key!("kind"), row.kind.name())?;
    o.name(key!("a_type"), row.a.name())?;
    o.name(key!("b_type"), row.b.name())?;
    o.name(key!("d_type"), row.d.name())?;
    match row.scale {
        Some((f, b)) => {
            o.name(key!("scale_type"), f.name())?;
            o.num(key!("block"), b.into())?;
        }
        None => {
            o.raw(key!("scale_type"), "null")?;
        }
    }
    o.name(key!("algorithm"), row.algorithm.name())?;
    match row.algorithm.f() {
        Some(f) => o.num(key!("f"), f.into())?,
        None => o.raw(key!("f"), "null")?,
    }
    o.num(key!("l"), row.algorithm.k().into())?;
    let (ez, rnd) = match row.algorithm {
        Algorithm::TFdpa { e_zero, out, .. } => (Some(e_zero), Some(out.name())),
        Algorithm::StFdpa { e_zero, .. } | Algorithm::GstFdpa { e_zero, .. } => {
            (Some(e_zero), Some("RZ-FP32"))
        }
        Algorithm::HmmaFp8 { out } => (None, Some(out.name())),
        Algorithm::Integer { .. } => (None, None),
    };
    o.raw(key!("e_zero"), &ez.map_or("null".into(), |e| e.to_string()))?;
    o.raw(
        key!("rounding"),
        &rnd.map_or("null".into(), |s| format!("\"{s}\"")),
    )?;
    o.hex(key!("d_bits"), r.d_bits.into(), width(r.d_format));
    o.str(key!("d"), value_text(r.d_format, r.d_bits))?;
    if r.special.is_some() {
        o.raw(key!("exact"), "null")?;
    } else {
        o.str(key!("exact"), r.exact)?;
    }
    o.raw(
        key!("special"),
        &r.special
            .map_or("null".into(), |s| format!("\"{}\"", special_text(s))),
    )?;
    o.raw(
        key!("e_max"),
        &r.e_max.map_or("null".into(), |e| e.to_string()),
    )?;
    o.str(key!("sum"), r.sum)?;
    let b = o.key(key!("terms"));
    b.push('[');
    for (i, t) in r.terms().iter().enumerate() {
        if i > 0 {
            b.push(',');
        }
        let mut q = Obj::open(b);
        q.str(key!("term"), term_name(t.source))?;
        q.str(key!("value"), decimal(t.value))?;
        q.raw(key!("align_exp"), &t.align_exp.to_string())?;
        q.bool(key!("zero"), t.zero)?;
        q.str(key!("kept"), t.kept)?;
        q.num(key!("dropped_bits"), t.dropped_bits.into())?;
        q.close();
    }
    b.push(']');
    let b = o.key(key!("evidence"));
    b.push('[');
    for (i, e) in row.evidence.iter().enumerate() {
        if i > 0 {
            b.push(',');
        }
        json_str(b, e)?;
    }
    b.push(']');
    o.close();
    out.push('\n');
    Ok(())
}

fn text_dot(ctx: Ctx, out: &mut String, row: &ParamRow, r: &Dot) -> fmt::Result {
    let st = ctx.out;
    writeln!(out, "{}{}{}", st.bold(), describe(row), st.reset())?;
    for e in row.evidence {
        writeln!(out, "  {}evidence: {e}{}", st.dim(), st.reset())?;
    }
    let hw = width(r.d_format) as usize;
    writeln!(
        out,
        "D      = {} (0x{:0hw$x})",
        value_text(r.d_format, r.d_bits),
        r.d_bits
    )?;
    if let Some(s) = r.special {
        writeln!(out, "         {}", special_text(s))?;
        return Ok(());
    }
    writeln!(out, "exact  = {}", r.exact)?;
    let Some(e_max) = r.e_max else {
        if let Algorithm::Integer { .. } = row.algorithm {
            writeln!(
                out,
                "s32    = exact sum {}; {}",
                r.sum,
                if r.sum == i128::from(r.d_bits as i32) {
                    "fits"
                } else {
                    "out of range: wrapped or saturated"
                }
            )?;
        }
        return Ok(());
    };
    if let Some((d1, d2)) = r.hmma_steps {
        writeln!(out, "HMMA 1 (k mod 4 in {{0,1}}, C = +0) = {}, HMMA 2 (k mod 4 in {{2,3}}) = {}, then RN(HMMA 2 + C)", value_text(r.d_format, d1), value_text(r.d_format, d2))?;
        return Ok(());
    }
    let f = row.algorithm.f().unwrap_or(25) as i32;
    writeln!(
        out,
        "e_max  = {e_max}: every term truncated toward zero to a multiple of 2^{} (F = {f})",
        e_max - f
    )?;
    writeln!(
        out,
        "  {:<10} {:>28} {:>6} {:>22} {:>8}",
        "term", "value", "e", "kept (x 2^(e_max-F))", "dropped"
    )?;
    let mut zeros = 0;
    for t in r.terms() {
        if t.zero && !matches!(t.source, TermSource::C) {
            zeros += 1;
            continue;
        }
        writeln!(
            out,
            "  {:<10} {:>28} {:>6} {:>22} {:>8}",
            term_name(t.source),
            decimal(t.value),
            t.align_exp,
            t.kept,
            if t.dropped_bits == 0 {
                "-".to_string()
            } else {
                format!("{} bits", t.dropped_bits)
            }
        )?;
    }
    if zeros > 0 {
        writeln!(out, "  ({zeros} zero products at e_zero not shown)")?;
    }
    let rounding = match row.algorithm {
        Algorithm::TFdpa { out, .. } => out.name(),
        _ => "RZ-FP32",
    };
    writeln!(
        out,
        "sum    = {} x 2^{} = {}; {} -> {}",
        r.sum,
        e_max - f,
        decimal(Exact {
            neg: r.sum < 0,
            mag: r.sum.unsigned_abs(),
            scale: e_max - f
        }),
        rounding,
        value_text(r.d_format, r.d_bits)
    )?;
    Ok(())
}

/// `numerics error`.
pub fn error(ctx: Ctx, a: &ErrorArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let mut bad = Vec::new();
    let fs = forms(&a.form, &mut bad);
    let dist = Distribution::from_name(&a.dist);
    if dist.is_none() {
        bad.push(CliProblem {
            field: "dist".into(),
            value: a.dist.clone(),
            message: "unknown distribution (normal, uniform, llm)".into(),
            source: "tcgen05 numerics error --help",
        });
    }
    let mut rows = Vec::new();
    for f in &fs {
        match f.row() {
            Ok(r) => rows.push(r),
            Err(_) => bad.push(CliProblem {
                field: "form".into(),
                value: format!(
                    "{} {} {} x {}",
                    f.arch.name(),
                    a.form.kind,
                    a.form.a_type,
                    a.form.b_type
                ),
                message: "no instruction form takes these types".into(),
                source: "PTX ISA 9.7.16.2.1 Table 39; 9.7.15.5; 9.7.14.5.14",
            }),
        }
    }
    let Some(dist) = dist else {
        render_problems(ctx, &mut rep, &bad, &[])?;
        return Ok(rep);
    };
    let mut results = Vec::new();
    for row in &rows {
        match study::run(row, a.k, dist, a.trials, a.seed) {
            Ok(c) => results.push((row, c)),
            Err(e) => bad.push(CliProblem {
                field: "k".into(),
                value: a.k.to_string(),
                message: e.to_string(),
                source: "PTX ISA 9.7.16.2.1 Table 39",
            }),
        }
    }
    if !bad.is_empty() {
        render_problems(ctx, &mut rep, &bad, &[])?;
        return Ok(rep);
    }
    if let Some(path) = &a.svg {
        let svg = plot(&results, a);
        if let Err(e) = std::fs::write(path, svg) {
            render_problems(
                ctx,
                &mut rep,
                &[CliProblem {
                    field: "svg".into(),
                    value: path.display().to_string(),
                    message: e.to_string(),
                    source: "the file system",
                }],
                &[],
            )?;
            rep.status = Status::Usage;
            return Ok(rep);
        }
    }
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.bool(key!("ok"), true)?;
        o.num(key!("k"), a.k)?;
        o.str(key!("dist"), &a.dist)?;
        o.num(key!("trials"), a.trials.into())?;
        o.num(key!("seed"), a.seed)?;
        let b = o.key(key!("configs"));
        b.push('[');
        for (i, (row, pts)) in results.iter().enumerate() {
            if i > 0 {
                b.push(',');
            }
            let mut q = Obj::open(b);
            q.str(key!("form"), describe(row))?;
            q.name(key!("arch"), row.arch.name())?;
            q.name(key!("instruction"), row.instruction.name())?;
            let pb = q.key(key!("points"));
            pb.push('[');
            for (j, p) in pts.iter().enumerate() {
                if j > 0 {
                    pb.push(',');
                }
                let num = |x: f64| {
                    if x.is_finite() {
                        format!("{x:e}")
                    } else {
                        "null".into()
                    }
                };
                write!(pb, "{{\"k\":{},\"mean_rel\":{},\"max_rel\":{},\"mean_ulp\":{},\"max_ulp\":{},\"trials\":{}}}", p.k, num(p.mean_rel), num(p.max_rel), num(p.mean_ulp), num(p.max_ulp), p.trials)?;
            }
            pb.push(']');
            q.close();
        }
        b.push(']');
        o.close();
        rep.out.push('\n');
        return Ok(rep);
    }
    let st = ctx.out;
    writeln!(
        rep.out,
        "K loop of {} ({} trials, {} inputs, seed {}): error of D against the exact dot product",
        a.k, a.trials, a.dist, a.seed
    )?;
    for (row, pts) in &results {
        writeln!(rep.out, "\n{}{}{}", st.bold(), describe(row), st.reset())?;
        writeln!(
            rep.out,
            "  {:>7} {:>12} {:>12} {:>10} {:>10}",
            "K", "mean rel", "max rel", "mean ulp", "max ulp"
        )?;
        for p in pts {
            writeln!(
                rep.out,
                "  {:>7} {:>12.3e} {:>12.3e} {:>10.2} {:>10.2}",
                p.k, p.mean_rel, p.max_rel, p.mean_ulp, p.max_ulp
            )?;
        }
    }
    if let Some(path) = &a.svg {
        writeln!(rep.out, "\nplot written to {}", path.display())?;
    }
    Ok(rep)
}

/// A log-log SVG of the mean relative error against K, one line per configuration.
fn plot(results: &[(&ParamRow, Vec<study::Checkpoint>)], a: &ErrorArgs) -> String {
    let (w, h, ml, mr, mt, mb) = (640.0, 400.0, 70.0, 20.0, 40.0, 90.0);
    let pts: Vec<(f64, f64)> = results
        .iter()
        .flat_map(|(_, c)| {
            c.iter()
                .filter(|p| p.mean_rel > 0.0)
                .map(|p| (p.k as f64, p.mean_rel))
        })
        .collect();
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in &pts {
        x0 = x0.min(x.log10());
        x1 = x1.max(x.log10());
        y0 = y0.min(y.log10());
        y1 = y1.max(y.log10());
    }
    if pts.is_empty() {
        (x0, x1, y0, y1) = (0.0, 1.0, -8.0, 0.0);
    }
    let (y0, y1) = (y0.floor(), y1.ceil().max(y0.floor() + 1.0));
    let x1 = if x1 > x0 { x1 } else { x0 + 1.0 };
    let sx = |x: f64| ml + (x.log10() - x0) / (x1 - x0) * (w - ml - mr);
    let sy = |y: f64| mt + (y1 - y.log10()) / (y1 - y0) * (h - mt - mb);
    let mut s = String::new();
    let _ = writeln!(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">");
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(s, "<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">mean relative error of a K loop ({} inputs, {} trials)</text>", w / 2.0, a.dist, a.trials);
    let _ = writeln!(
        s,
        "<rect x=\"{ml}\" y=\"{mt}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>",
        w - ml - mr,
        h - mt - mb
    );
    let mut e = y0 as i32;
    while e <= y1 as i32 {
        let y = sy(10f64.powi(e));
        let _ = writeln!(s, "<line x1=\"{ml}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">1e{e}</text>", w - mr, ml - 4.0, y + 4.0);
        e += 1;
    }
    for (_, c) in results.iter().take(1) {
        for p in c {
            let x = sx(p.k as f64);
            let _ = writeln!(
                s,
                "<text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                h - mb + 16.0,
                p.k
            );
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">K</text>",
        (ml + w - mr) / 2.0,
        h - mb + 34.0
    );
    let colours = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"];
    for (i, (row, c)) in results.iter().enumerate() {
        let col = colours[i % colours.len()];
        let path: Vec<String> = c
            .iter()
            .filter(|p| p.mean_rel > 0.0)
            .map(|p| format!("{:.1},{:.1}", sx(p.k as f64), sy(p.mean_rel)))
            .collect();
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{col}\" stroke-width=\"2\" points=\"{}\"/>",
            path.join(" ")
        );
        // A mean error of 0 has no place on a log axis: each is a hollow marker on the bottom
        // edge, and the legend lists their K.
        let zero: Vec<u64> = c
            .iter()
            .filter(|p| p.mean_rel <= 0.0)
            .map(|p| p.k)
            .collect();
        for k in &zero {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{}\" r=\"4\" fill=\"white\" stroke=\"{col}\" stroke-width=\"2\"><title>K = {k}: mean relative error 0</title></circle>",
                sx(*k as f64),
                h - mb
            );
        }
        let zero_note = if zero.is_empty() {
            String::new()
        } else {
            let ks: Vec<String> = zero.iter().map(u64::to_string).collect();
            format!("; error 0 at K = {} (circles on the axis)", ks.join(", "))
        };
        let label = format!(
            "{} {} {}x{}->{} ({}, F = {})",
            row.arch.name(),
            row.instruction.name(),
            row.a,
            row.b,
            row.d,
            row.algorithm.name(),
            row.algorithm.f().unwrap_or(0)
        ) + &zero_note;
        let ly = h - mb + 52.0 + 16.0 * i as f64;
        let _ = writeln!(s, "<line x1=\"{ml}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"{col}\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\">{label}</text>", ml + 24.0, ly - 4.0, ly - 4.0, ml + 30.0, ly);
    }
    s.push_str("</svg>\n");
    s
}
