//! `tcgen05 check FILE...`: renders what `tcgen05::check` finds in PTX files, as text, JSON or
//! SARIF 2.1.0. Every rule and message comes from the library.

use std::fmt::{self, Write as _};
use std::io::{self, Read as _, Write as _};

use tcgen05::check::tensor_map::{tensor_map_swizzles, Linked, TensorMap};
use tcgen05::check::{self, Finding, FindingValue, InstructionReport, KnownBits, Options, Report};
use tcgen05::instruction_descriptor::scale_format::{FieldMeaning, ScaleFormatField};
use tcgen05::instruction_descriptor::InstructionDescriptor;
use tcgen05::shared_memory_descriptor::{SmemDescriptor, SMEM_LAYOUT};
use tcgen05::{Kind, Severity, Target};

use super::check_hazards::{self, FileHazards};
use crate::args::check::CheckArgs;
use crate::args::value::TargetArg;
use crate::render::{json_str, Ctx, Status};

/// One input: its path, and its bytes or why it could not be read.
struct Input {
    path: String,
    bytes: Result<Vec<u8>, String>,
}

fn read_input(path: &str) -> Input {
    let bytes = if path == "-" {
        let mut v = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut v)
            .map(|_| v)
            .map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))
    };
    Input {
        path: if path == "-" {
            "<stdin>".into()
        } else {
            path.into()
        },
        bytes,
    }
}

/// Runs the command; returns the exit status.
///
/// # Errors
/// When writing to stdout, stderr or the SARIF file fails.
pub fn run(ctx: Ctx, a: &CheckArgs) -> io::Result<Status> {
    let target = match a.target {
        None => None,
        Some(TargetArg(Ok(t))) => Some(t),
        Some(TargetArg(Err(e))) => {
            if ctx.json {
                let mut s = String::from(
                    "{\"files\":[],\"instructions\":0,\"errors\":1,\"warnings\":0,\"error\":",
                );
                json_str(&mut s, format_args!("target: {e}")).map_err(fmt_err)?;
                s.push_str("}\n");
                io::stdout().lock().write_all(s.as_bytes())?;
            } else {
                writeln!(
                    io::stderr().lock(),
                    "error: target: {e} ({})",
                    tcgen05::Diagnostic::source(&e)
                )?;
            }
            return Ok(Status::Rule);
        }
    };
    let options = Options {
        target,
        no_assume: a.no_assume,
    };
    let inputs: Vec<Input> = a.files.iter().map(|p| read_input(p)).collect();
    let maps: Vec<TensorMap<'_>> = a
        .tensor_maps
        .iter()
        .map(|(param, swizzle)| TensorMap {
            param,
            swizzle: *swizzle,
        })
        .collect();
    let mut linked = Linked::default();
    let reports: Vec<Option<Report<'_>>> = inputs
        .iter()
        .map(|i| {
            i.bytes.as_ref().ok().map(|b| {
                let module = tcgen05::ptx_reader::read(b);
                let mut r = check::check_module(&module, &options);
                let l = tensor_map_swizzles(&module, &mut r, &maps);
                linked.linked += l.linked;
                linked.unlinked += l.unlinked;
                r
            })
        })
        .collect();
    let (mut n, mut errors, mut warnings, mut unreadable) = (0usize, 0usize, 0usize, false);
    for (input, rep) in inputs.iter().zip(&reports) {
        match rep {
            Some(r) => {
                n += r.instructions.len();
                errors += r.errors();
                warnings += r.warnings();
                unreadable |= r.unreadable();
            }
            None => unreadable |= input.bytes.is_err(),
        }
    }
    let hazards = if a.hazards {
        let bytes: Vec<Option<&[u8]>> = inputs.iter().map(|i| i.bytes.as_deref().ok()).collect();
        match check_hazards::run(a, &bytes) {
            Ok(h) => Some(h),
            Err(errors) => return hazard_usage(ctx, &errors),
        }
    } else {
        None
    };
    let found = hazards.as_deref().map_or(0, check_hazards::count);
    let mut out = String::new();
    let mut err = String::new();
    let sarif_to_stdout = a.sarif.as_deref() == Some("-");
    if ctx.json {
        let given = (!maps.is_empty()).then_some(linked);
        let counts = (n, errors, warnings);
        json(
            &mut out,
            &inputs,
            &reports,
            given,
            counts,
            hazards.as_deref(),
        )
        .map_err(fmt_err)?;
    } else {
        text(&mut out, &mut err, &inputs, &reports, a.verbose, ctx).map_err(fmt_err)?;
        for (input, h) in inputs.iter().zip(hazards.iter().flatten()) {
            check_hazards::text(&mut out, &input.path, h).map_err(fmt_err)?;
        }
        summary(&mut out, &reports, (n, errors, warnings)).map_err(fmt_err)?;
        if let Some(h) = &hazards {
            check_hazards::summary(&mut out, h).map_err(fmt_err)?;
        }
        if !maps.is_empty() {
            writeln!(
                out,
                "tensor maps: {} linked to a copy through a given map, {} not linked (an address not followed to a symbol plus a constant)",
                count(linked.linked, "MMA descriptor"),
                linked.unlinked
            )
            .map_err(fmt_err)?;
        }
    }
    if let Some(path) = &a.sarif {
        let mut s = String::new();
        sarif(&mut s, &inputs, &reports, hazards.as_deref()).map_err(fmt_err)?;
        if sarif_to_stdout {
            // `--sarif -`: the SARIF log is the only thing on standard output.
            out = s;
        } else if let Err(e) = std::fs::write(path, s) {
            writeln!(err, "error: cannot write {path}: {e}").map_err(fmt_err)?;
            unreadable = true;
        }
    }
    io::stdout().lock().write_all(out.as_bytes())?;
    io::stderr().lock().write_all(err.as_bytes())?;
    Ok(if unreadable {
        Status::Usage
    } else if errors > 0 || found > 0 {
        Status::Rule
    } else {
        Status::Valid
    })
}

/// A `--hazards` flag that cannot be read: the errors, as text or one JSON object.
fn hazard_usage(ctx: Ctx, errors: &[String]) -> io::Result<Status> {
    if ctx.json {
        let mut s =
            String::from("{\"files\":[],\"instructions\":0,\"errors\":1,\"warnings\":0,\"error\":");
        json_str(&mut s, errors.join("; ")).map_err(fmt_err)?;
        s.push_str("}\n");
        io::stdout().lock().write_all(s.as_bytes())?;
    } else {
        let mut e = io::stderr().lock();
        for m in errors {
            writeln!(e, "error: {m}")?;
        }
    }
    Ok(Status::Usage)
}

/// `N` and the noun, singular for one.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The last lines: what was checked, the errors and warnings, and how much of the shared
/// memory descriptors was known.
fn summary(
    out: &mut String,
    reports: &[Option<Report<'_>>],
    (n, errors, warnings): (usize, usize, usize),
) -> fmt::Result {
    let (mut descriptors, mut known, mut assumed, mut undecided) = (0, 0, 0, 0);
    let mut unlinked = 0;
    for r in reports.iter().flatten() {
        let (d, k, _) = r.descriptors();
        descriptors += d;
        known += k;
        assumed += r.assumed;
        unlinked += r.scale_operands_unlinked;
        undecided += r.alloc_undecided;
    }
    if unlinked > 0 {
        writeln!(
            out,
            "{} of block-scaled MMAs not checked against a tcgen05.cp: Tensor Memory address or instruction descriptor not known at compile time",
            count(unlinked, "scale operand")
        )?;
    }
    writeln!(
        out,
        "{} checked, {}, {}",
        count(n, "instruction"),
        count(errors, "error"),
        count(warnings, "warning")
    )?;
    if descriptors > 0 {
        write!(
            out,
            "{}: {known} with every field but the start address known, {} left partly unknown",
            count(descriptors, "shared memory descriptor"),
            descriptors - known
        )?;
        if assumed > 0 {
            write!(
                out,
                "; {} read under rules.md R7 (an addition into a descriptor does not carry out of the start-address field; --no-assume turns it off)",
                count(assumed, "instruction")
            )?;
        }
        writeln!(out)?;
    }
    if undecided > 0 {
        writeln!(
            out,
            "tcgen05.alloc / tcgen05.dealloc pairing: {} not decided (a path that may leave an allocation or deallocate twice only through a branch whose predicate cannot be related to the allocation's)",
            count(undecided, "kernel path")
        )?;
    }
    Ok(())
}

fn fmt_err(_: fmt::Error) -> io::Error {
    io::Error::other("formatting failed")
}

fn value_text<'t>(f: &Finding, i: &InstructionReport<'t>) -> ValueText<'t> {
    match f.value {
        // PTX ISA versions are kept as major * 10 + minor.
        FindingValue::Number(v) if f.field == "version" => {
            ValueText(f.value, i.text, i.target_name, Some(v), false)
        }
        // A line number is written in decimal.
        _ => ValueText(
            f.value,
            i.text,
            i.target_name,
            None,
            f.field.ends_with("_line"),
        ),
    }
}

/// A finding's value: the value, the instruction's text, its target, the PTX ISA version
/// (major * 10 + minor) for a version, and whether a number is a line (written in decimal).
struct ValueText<'t>(FindingValue, &'t str, Option<&'t str>, Option<u64>, bool);

impl fmt::Display for ValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.3 {
            return write!(f, "{}.{}", v / 10, v % 10);
        }
        match self.0 {
            FindingValue::Number(v) if v < 1024 || self.4 => write!(f, "{v}"),
            FindingValue::Number(v) => write!(f, "{v:#x}"),
            FindingValue::Name(n) => f.write_str(n),
            FindingValue::Text(s, e) => {
                let written = self.1.get(s..e).unwrap_or("?");
                // An unknown qualifier is shown as PTX writes it, with its dot.
                let dot = if written.bytes().next().is_some_and(|c| c.is_ascii_digit()) {
                    ""
                } else {
                    "."
                };
                write!(f, "{dot}{written}")
            }
            FindingValue::Target => f.write_str(self.2.unwrap_or("?")),
        }
    }
}

/// Why an input is not PTX, in one sentence.
fn not_ptx(r: &Report<'_>) -> &'static str {
    if r.binary {
        "not PTX: binary data (a NUL byte or an ELF header; PTX is ASCII text, PTX ISA 4); give cuobjdump -ptx's output instead"
    } else {
        "not PTX: no statement in it could be read (PTX ISA 4)"
    }
}

fn target_text(r: &Report<'_>) -> Option<String> {
    r.target_name
        .map(str::to_string)
        .or_else(|| r.target.map(|t| t.name().to_string()))
}

fn text(
    out: &mut String,
    err: &mut String,
    inputs: &[Input],
    reports: &[Option<Report<'_>>],
    verbose: bool,
    ctx: Ctx,
) -> fmt::Result {
    let (red, yellow, bold, reset) = (
        ctx.out.red(),
        ctx.out.yellow(),
        ctx.out.bold(),
        ctx.out.reset(),
    );
    for (input, rep) in inputs.iter().zip(reports) {
        let path = &input.path;
        let r = match (rep, &input.bytes) {
            (Some(r), _) => r,
            (None, Err(e)) => {
                writeln!(err, "error: {e}")?;
                continue;
            }
            (None, Ok(_)) => continue,
        };
        if r.unreadable() {
            writeln!(err, "error: {path}: {}", not_ptx(r))?;
            continue;
        }
        for p in &r.read_problems {
            writeln!(err, "warning: {path}:{}:{}: {p}", p.line, p.column)?;
        }
        if r.read_problems_dropped > 0 {
            writeln!(
                err,
                "warning: {path}: {} more skipped statements not listed",
                r.read_problems_dropped
            )?;
        }
        if r.instructions.is_empty() {
            writeln!(
                out,
                "{path}: no tcgen05 instruction in it ({} read)",
                count(r.statements, "PTX statement")
            )?;
        }
        for i in &r.instructions {
            if !verbose && i.findings.is_empty() {
                continue;
            }
            writeln!(
                out,
                "{bold}{path}:{}:{}: {}{reset}",
                i.line, i.column, i.instruction
            )?;
            if verbose {
                describe(out, i, r.target.unwrap_or(Target::Sm100a))?;
            }
            for f in &i.findings {
                let (word, colour) = match f.severity {
                    Severity::Error => ("error", red),
                    Severity::Warning => ("warning", yellow),
                };
                write!(out, "  {colour}{word}{reset}: ")?;
                if let Some(op) = f.operand.filter(|o| o.name() != f.field) {
                    write!(out, "{} ", op.name())?;
                }
                if let Some(v) = f.candidate {
                    write!(
                        out,
                        "(when it is {v:#x}, one of the constants it can take) "
                    )?;
                }
                writeln!(
                    out,
                    "{} = {}: {f} ({}) [value from line {}]",
                    f.field,
                    value_text(f, i),
                    f.source.cite(r.version),
                    f.line
                )?;
            }
        }
    }
    Ok(())
}

/// The lines of a block-scaled descriptor's table (bit 31 first, then its problems) on a target
/// whose scale format is bits 23-24 (rules.md D9): one `23-24 scale_format` row with the format
/// the target reads and a `25-26 reserved` row in place of Tables 43-44's `23 scale_type` and
/// `24-26 reserved`, and without their bit-24 problem, which `check` reports as
/// `mma.scale_format` where the bits do not decode. Other lines, and other targets, as they are.
fn per_target_rows(rows: Vec<String>, v: u32, kind: Kind, target: Target) -> Vec<String> {
    if !kind.is_block_scaled() || ScaleFormatField::of(target) != ScaleFormatField::Bits23To24 {
        return rows;
    }
    let meaning = FieldMeaning {
        raw: v,
        kind,
        target,
    };
    let high = (v >> 25) & 3;
    let mut out = Vec::with_capacity(rows.len());
    for l in rows {
        let words: Vec<&str> = l.split_whitespace().take(3).collect();
        let (first, second) = (words.first().copied(), words.get(1).copied());
        if first == Some("24-26") || words == ["error:", "bit", "24:"] {
            continue;
        }
        if second == Some("scale_type") {
            let reserved = if high == 0 {
                "reserved, 0"
            } else {
                "reserved: SET, must be 0"
            };
            let bits = format!("{high:02b}");
            out.push(format!("  25-26  {:<17} {bits:>8}  {reserved}", "reserved"));
            let bits = format!("{:02b}", (v >> 23) & 3);
            out.push(format!(
                "  23-24  {:<17} {bits:>8}  {meaning}",
                "scale_format"
            ));
            continue;
        }
        out.push(l);
    }
    out
}

/// `--verbose`: the decoded descriptors of one instruction.
fn describe(out: &mut String, i: &InstructionReport<'_>, target: Target) -> fmt::Result {
    if let (Some(v), Some(kind)) = (i.idesc, i.kind) {
        // The table in bit order, bit 0 first, as PTX Tables 42-44 list the fields.
        let dec = InstructionDescriptor::from_bits_unchecked(v, kind).to_string();
        let mut lines = dec.lines();
        if let Some(header) = lines.next() {
            writeln!(out, "    {header}")?;
        }
        let rows: Vec<String> = lines.map(str::to_string).collect();
        for l in per_target_rows(rows, v, kind, target).iter().rev() {
            writeln!(out, "    {l}")?;
        }
    } else if let Some(b) = i.idesc_bits {
        writeln!(
            out,
            "    idesc: not known at compile time (known bits {:#010x} = {:#010x})",
            b.known & 0xffff_ffff,
            b.value & 0xffff_ffff
        )?;
        // The fields whose bits are all known, by meaning, in bit order.
        if let (Some(kind), true) = (i.kind, b.known & 0xffff_ffff != 0) {
            let known: Vec<&str> = tcgen05::instruction_descriptor::layout(kind)
                .iter()
                .filter(|row| b.known & row.mask() == row.mask())
                .map(|row| row.field.name())
                .collect();
            let value = u32::try_from(b.value & b.known & 0xffff_ffff).unwrap_or(0);
            let dec = InstructionDescriptor::from_bits_unchecked(value, kind).to_string();
            let rows: Vec<&str> = dec
                .lines()
                .skip(1)
                .filter(|l| {
                    l.split_whitespace()
                        .nth(1)
                        .is_some_and(|f| known.contains(&f))
                })
                .collect();
            for l in rows.iter().rev() {
                writeln!(out, "    {l}")?;
            }
        }
    }
    for (name, d) in [
        ("a_desc", i.a_desc),
        ("b_desc", i.b_desc),
        ("s_desc", i.s_desc),
    ] {
        let Some(b) = d else { continue };
        if b.known == u64::MAX {
            writeln!(out, "    {name} {:#018x}:", b.value)?;
            for l in SmemDescriptor::decode(b.value, target).to_string().lines() {
                writeln!(out, "      {l}")?;
            }
            continue;
        }
        writeln!(
            out,
            "    {name}: known bits {:#018x} = {:#018x}",
            b.known, b.value
        )?;
        // The known fields by meaning: the rows of the full decode (unknown bits at 0) whose
        // bits are all known.
        let mut known = Vec::new();
        let mut unknown = Vec::new();
        for row in SMEM_LAYOUT {
            if b.known & row.mask() == row.mask() {
                known.push(row.field.name());
            } else {
                unknown.push(row.field.name());
            }
        }
        let dec = SmemDescriptor::decode(b.value & b.known, target).to_string();
        for l in dec.lines() {
            let field = l.split_whitespace().nth(1);
            if field.is_some_and(|f| known.contains(&f) || (f == "field" && !known.is_empty())) {
                writeln!(out, "      {}", l.trim_start())?;
            }
        }
        if !unknown.is_empty() {
            writeln!(out, "      unknown at compile time: {}", unknown.join(", "))?;
        }
    }
    Ok(())
}

fn desc_json(s: &mut String, d: Option<KnownBits>) -> fmt::Result {
    match d {
        None => s.push_str("null"),
        Some(b) => write!(
            s,
            "{{\"known\":\"{:#018x}\",\"value\":\"{:#018x}\"}}",
            b.known, b.value
        )?,
    }
    Ok(())
}

/// The findings as a JSON array; `version`: the module's `.version`, whose manual numbering the
/// sources are cited in ([`tcgen05::diagnostic::Source::cite`]).
fn findings_json<'f>(
    s: &mut String,
    items: impl Iterator<Item = &'f Finding>,
    version: Option<u8>,
) -> fmt::Result {
    s.push('[');
    for (k, f) in items.enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"rule\":");
        json_str(s, f.rule_id())?;
        s.push_str(",\"operand\":");
        match f.operand {
            Some(o) => json_str(s, o.name())?,
            None => s.push_str("null"),
        }
        s.push_str(",\"field\":");
        json_str(s, f.field)?;
        if let Some(v) = f.candidate {
            write!(s, ",\"candidate\":\"{v:#x}\"")?;
        }
        s.push_str(",\"message\":");
        json_str(s, f)?;
        s.push_str(",\"source\":");
        json_str(s, f.source.cite(version))?;
        write!(s, ",\"line\":{}}}", f.line)?;
    }
    s.push(']');
    Ok(())
}

fn json(
    s: &mut String,
    inputs: &[Input],
    reports: &[Option<Report<'_>>],
    maps: Option<Linked>,
    (n, errors, warnings): (usize, usize, usize),
    hazards: Option<&[FileHazards]>,
) -> fmt::Result {
    s.push_str("{\"files\":[");
    for (k, (input, rep)) in inputs.iter().zip(reports).enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"path\":");
        json_str(s, &input.path)?;
        s.push_str(",\"target\":");
        match rep.as_ref().and_then(target_text) {
            Some(t) => json_str(s, t)?,
            None => s.push_str("null"),
        }
        s.push_str(",\"instructions\":[");
        if let Some(r) = rep {
            for (j, i) in r.instructions.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                write!(s, "{{\"line\":{},\"instruction\":", i.line)?;
                json_str(s, i.instruction)?;
                s.push_str(",\"idesc\":");
                match i.idesc {
                    Some(v) => write!(s, "\"{v:#010x}\"")?,
                    None => s.push_str("null"),
                }
                s.push_str(",\"a_desc\":");
                desc_json(s, i.a_desc)?;
                s.push_str(",\"b_desc\":");
                desc_json(s, i.b_desc.or(i.s_desc))?;
                s.push_str(",\"errors\":");
                findings_json(s, i.errors(), r.version)?;
                s.push_str(",\"warnings\":");
                findings_json(s, i.warnings(), r.version)?;
                s.push('}');
            }
        }
        s.push(']');
        match (rep, &input.bytes) {
            (None, Err(e)) => {
                s.push_str(",\"error\":");
                json_str(s, e)?;
            }
            (Some(r), _) if r.unreadable() => {
                s.push_str(",\"error\":");
                json_str(s, not_ptx(r))?;
            }
            (Some(r), _) if !r.read_problems.is_empty() => {
                s.push_str(",\"skipped\":[");
                for (j, p) in r.read_problems.iter().enumerate() {
                    if j > 0 {
                        s.push(',');
                    }
                    write!(
                        s,
                        "{{\"line\":{},\"column\":{},\"message\":",
                        p.line, p.column
                    )?;
                    json_str(s, p)?;
                    s.push('}');
                }
                s.push(']');
            }
            _ => {}
        }
        if let Some(r) = rep {
            let (d, k, u) = r.descriptors();
            write!(
                s,
                ",\"smem_descriptors\":{{\"total\":{d},\"known_but_start_address\":{k},\"partly_unknown\":{u},\"assumed_r7\":{}}},\"alloc_pairing_undecided\":{},\"scale_operands_unlinked\":{}",
                r.assumed, r.alloc_undecided, r.scale_operands_unlinked
            )?;
            if r.instructions.is_empty() && !r.unreadable() {
                s.push_str(",\"note\":\"no tcgen05 instruction in it\"");
            }
        }
        if let Some(h) = hazards.and_then(|h| h.get(k)) {
            check_hazards::json(s, h)?;
        }
        s.push('}');
    }
    s.push(']');
    match maps {
        Some(l) => write!(
            s,
            ",\"tensor_maps\":{{\"linked\":{},\"unlinked\":{}}}",
            l.linked, l.unlinked
        )?,
        None => s.push_str(",\"tensor_maps\":null"),
    }
    if let Some(h) = hazards {
        write!(s, ",\"hazards\":{}", check_hazards::count(h))?;
    }
    writeln!(
        s,
        ",\"instructions\":{n},\"errors\":{errors},\"warnings\":{warnings}}}"
    )
}

/// SARIF 2.1.0 (OASIS): one run, one result per finding, located at the instruction, with the
/// line that defined the value as a related location.
fn sarif(
    s: &mut String,
    inputs: &[Input],
    reports: &[Option<Report<'_>>],
    hazards: Option<&[FileHazards]>,
) -> fmt::Result {
    let mut rules: Vec<(String, String, String)> = Vec::new();
    let mut results = String::new();
    for (input, rep) in inputs.iter().zip(reports) {
        let Some(r) = rep else { continue };
        for i in &r.instructions {
            for f in &i.findings {
                let id = f.rule_id().to_string();
                if !rules.iter().any(|r| r.0 == id) {
                    let statement = match f.statement() {
                        "" => f.to_string(),
                        s => s.to_string(),
                    };
                    rules.push((id.clone(), statement, f.source.cite(r.version).to_string()));
                }
                if !results.is_empty() {
                    results.push(',');
                }
                results.push_str("{\"ruleId\":");
                json_str(&mut results, &id)?;
                results.push_str(",\"properties\":{\"operand\":");
                match f.operand {
                    Some(o) => json_str(&mut results, o.name())?,
                    None => results.push_str("null"),
                }
                results.push_str(",\"field\":");
                json_str(&mut results, f.field)?;
                if let Some(v) = f.candidate {
                    write!(results, ",\"candidate\":\"{v:#x}\"")?;
                }
                results.push('}');
                let level = match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                };
                write!(results, ",\"level\":\"{level}\",\"message\":{{\"text\":")?;
                json_str(
                    &mut results,
                    format_args!(
                        "{}: {} = {}: {f} ({})",
                        i.instruction,
                        f.field,
                        value_text(f, i),
                        f.source.cite(r.version)
                    ),
                )?;
                results.push_str(
                    "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":",
                );
                json_str(&mut results, &input.path)?;
                write!(
                    results,
                    "}},\"region\":{{\"startLine\":{},\"startColumn\":{}}}}}}}]",
                    i.line, i.column
                )?;
                if f.line > 0 && f.line != i.line {
                    results.push_str(",\"relatedLocations\":[{\"id\":1,\"message\":{\"text\":\"value defined here\"},\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
                    json_str(&mut results, &input.path)?;
                    write!(results, "}},\"region\":{{\"startLine\":{}}}}}}}]", f.line)?;
                }
                results.push('}');
            }
        }
    }
    let first_hazard_rule = rules.len();
    if let Some(h) = hazards {
        let paths: Vec<&str> = inputs.iter().map(|i| i.path.as_str()).collect();
        let mut found = Vec::new();
        check_hazards::sarif(&paths, h, &mut rules, &mut found)?;
        for r in found {
            if !results.is_empty() {
                results.push(',');
            }
            results.push_str(&r);
        }
    }
    s.push_str("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"tcgen05\",\"version\":");
    json_str(s, env!("CARGO_PKG_VERSION"))?;
    s.push_str(",\"rules\":[");
    for (k, (id, statement, source)) in rules.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"id\":");
        json_str(s, id)?;
        s.push_str(",\"shortDescription\":{\"text\":");
        json_str(s, statement)?;
        s.push_str("},\"fullDescription\":{\"text\":");
        if k < first_hazard_rule {
            json_str(
                s,
                format_args!("{statement} ({source}; tcgen05 explain {id})"),
            )?;
        } else {
            json_str(s, format_args!("{statement} ({source})"))?;
        }
        s.push_str("}}");
    }
    s.push_str("]}},\"results\":[");
    s.push_str(&results);
    s.push_str("]}]}\n");
    Ok(())
}
