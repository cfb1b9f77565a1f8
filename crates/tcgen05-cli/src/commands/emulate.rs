//! `tcgen05 emulate`: runs tcgen05 instruction lines on the library's functional model
//! (`tcgen05::emulator`) and renders what it computes.

use std::fmt::{self, Write as _};
use std::io::{self, Write as _};

use npyz::WriterBuilder;
use tcgen05::emulator::placement::{operand_place, place, Which};
use tcgen05::emulator::program::{Program, ProgramError, Statement};
use tcgen05::emulator::{reference_error, EmuError, Machine, Outcome, Problem};
use tcgen05::{ElementType, Severity, Target};

use super::npy_file;
use crate::args::emulate::EmulateArgs;
use crate::args::number;
use crate::args::value::TargetArg;
use crate::render::{json_str, Ctx, Status};

fn fmt_err(_: fmt::Error) -> io::Error {
    io::Error::other("formatting failed")
}

/// Parses `FILE@A` or `FILE@A@B`: the file and the numbers after it.
fn split_at_sign(s: &str) -> Option<(&str, Vec<&str>)> {
    let mut parts = s.split('@');
    let file = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    (!file.is_empty() && !rest.is_empty()).then_some((file, rest))
}

/// A number after `@`, as every number of the command is written (0x-hex or decimal, `_`).
fn number(s: &str) -> Option<u64> {
    number::parse(s.as_bytes(), 64).ok()
}

/// A file's data: raw, or the data of a little-endian C-order `.npy`, with its shape, item
/// size and NumPy dtype (`None` for a raw file).
type FileData = (Vec<u8>, Vec<u64>, usize, Option<String>);

/// The bytes of a file: raw, or the data of a little-endian C-order `.npy`, and its shape.
fn file_bytes(path: &str) -> Result<FileData, String> {
    let file = npy_file::read(path)?;
    Ok((file.data, file.shape, file.item, file.descr))
}

/// Writes `--a` and `--b` where the MMA `line` reads A and B; the first problem as (operand,
/// message).
fn place_operands(
    m: &mut Machine,
    line: &str,
    target: Target,
    a: &EmulateArgs,
) -> Option<(&'static str, String)> {
    for (operand, which, file) in [("a", Which::A, &a.a_matrix), ("b", Which::B, &a.b_matrix)] {
        let Some(file) = file else { continue };
        let p = match operand_place(line, which, target) {
            Ok(p) => p,
            Err(e) => return Some((operand, format!("--{operand} {file}: {e}"))),
        };
        let (bytes, shape, item, descr) = match file_bytes(file) {
            Ok(d) => d,
            Err(e) => return Some((operand, e)),
        };
        let descr = descr.map(|d| d.trim_matches('\'').to_string());
        let Some(descr) = descr.filter(|d| dtype_fits(d, p.element)) else {
            return Some((
                operand,
                format!(
                    "--{operand} {file}: expected a .npy whose dtype holds {} codes ({}-byte \
                     unsigned integers{})",
                    p.element.name(),
                    u32::from(p.element.bits()).div_ceil(8),
                    match p.element {
                        ElementType::F16 => ", or float16",
                        ElementType::Tf32 => ", or float32",
                        _ => "",
                    }
                ),
            ));
        };
        if shape != [u64::from(p.rows), u64::from(p.k)] {
            return Some((
                operand,
                format!(
                    "--{operand} {file}: shape {shape:?} (dtype {descr}), but the MMA reads {} x {} \
                     elements of {}",
                    p.rows,
                    p.k,
                    p.element.name()
                ),
            ));
        }
        let codes: Vec<u32> = bytes
            .chunks_exact(item)
            .map(|c| c.iter().rev().fold(0u32, |w, &b| w << 8 | u32::from(b)))
            .collect();
        if let Err(e) = place(m, &p, &codes) {
            return Some((operand, format!("--{operand} {file}: {e}")));
        }
    }
    None
}

/// Shared memory loaded from a `.npy`: the CTA, the byte range, the dtype and the file.
struct NpyRegion {
    cta: usize,
    start: u32,
    end: u32,
    descr: String,
    file: String,
}

/// Whether NumPy dtype `descr` holds elements of `t` as `tcgen05.mma` reads them: a float
/// dtype only as the same IEEE type (`<f2` for f16, `<f4` for tf32's 32-bit container); a
/// raw-bits dtype (unsigned, signed, void: ml_dtypes' bfloat16 and float8 types save as void)
/// of the element's container size (1 byte for the 4- and 6-bit types).
fn dtype_fits(descr: &str, t: ElementType) -> bool {
    let d = descr.trim_start_matches(['<', '>', '|', '=']);
    let size: u32 = d.get(1..).and_then(|s| s.parse().ok()).unwrap_or(0);
    let container = u32::from(t.bits()).div_ceil(8);
    match d.chars().next() {
        Some('f') => matches!((t, size), (ElementType::F16, 2) | (ElementType::Tf32, 4)),
        Some('u' | 'i' | 'V') => size == container,
        _ => false,
    }
}

/// For a `tcgen05.mma` line with immediate operands: the first A or B operand that the MMA
/// reads from shared memory loaded from a `.npy` whose dtype does not hold its element type,
/// as (operand, message).
fn npy_type_problem(line: &str, regions: &[NpyRegion]) -> Option<(&'static str, String)> {
    if regions.is_empty() || !line.starts_with("tcgen05.mma") {
        return None;
    }
    let ins = tcgen05::ptx_reader::read_instruction(line).ok()?;
    let kind = ins
        .qualifiers()
        .find_map(|q| q.strip_prefix("kind::"))
        .and_then(tcgen05::Kind::from_name)?;
    let sparse = ins.qualifiers().any(|q| q == "sp");
    let imm = |i: usize| match ins.operands.get(i) {
        Some(tcgen05::ptx_reader::Operand::Imm(v)) => Some(*v),
        _ => None,
    };
    let idesc = imm(if sparse { 4 } else { 3 })?;
    let fields = tcgen05::instruction_descriptor::InstructionDescriptor::from_bits(
        u32::try_from(idesc).ok()?,
        kind,
    )
    .ok()?
    .fields()?;
    let ctas = if ins.qualifiers().any(|q| q == "cta_group::2") {
        2
    } else {
        1
    };
    for (operand, at, t) in [("a", 1, fields.a_type), ("b", 2, fields.b_type)] {
        let Some(desc) = imm(at) else { continue };
        // Start address, bits 0-13 in 16-byte units (PTX ISA Table 40).
        let start = ((desc & 0x3FFF) << 4) as u32;
        for r in regions {
            if r.cta < ctas && (r.start..r.end).contains(&start) && !dtype_fits(&r.descr, t) {
                return Some((
                    operand,
                    format!(
                        "{}: dtype {} does not hold {} elements, which the MMA reads as {operand} \
                         at shared memory 0x{start:x} of CTA {} ({} bits each; give the element \
                         codes as {}-byte unsigned integers{})",
                        r.file,
                        r.descr,
                        t.name(),
                        r.cta,
                        t.bits(),
                        u32::from(t.bits()).div_ceil(8),
                        match t {
                            ElementType::F16 => ", or float16",
                            ElementType::Tf32 => ", or float32",
                            _ => "",
                        }
                    ),
                ));
            }
        }
    }
    None
}

struct Run {
    outcomes: Vec<(usize, Outcome)>,
    error: Option<(usize, String, EmuError)>,
    /// A line that could not run for a reason of the program as a whole (a register without
    /// a value, a second .cta_group).
    program_error: Option<(usize, String, ProgramError)>,
    /// An MMA operand read from a `.npy` whose dtype does not hold its element type:
    /// (line, text, operand, message).
    input_error: Option<(usize, String, &'static str, String)>,
    /// Instructions other than tcgen05, and guarded instructions whose predicate was 0: read,
    /// not executed.
    not_executed: usize,
}

/// Loads every `--smem FILE@ADDR[@CTA]` into shared memory; returns the regions loaded from a
/// `.npy` (for the dtype check). Problems go to `usage`.
fn load_smem(m: &mut Machine, a: &EmulateArgs, usage: &mut Vec<String>) -> Vec<NpyRegion> {
    let mut npy_regions: Vec<NpyRegion> = Vec::new();
    for spec in &a.smem {
        let Some((file, nums)) = split_at_sign(spec) else {
            usage.push(format!("--smem {spec}: expected FILE@ADDR"));
            continue;
        };
        let addr = nums
            .first()
            .and_then(|s| number(s))
            .and_then(|v| u32::try_from(v).ok());
        let cta = match nums.get(1) {
            None => Some(0),
            Some(s) => number(s).filter(|&c| c < 2),
        };
        let (Some(addr), Some(cta)) = (addr, cta) else {
            usage.push(format!(
                "--smem {spec}: the address must be a number below 2^32 and the CTA 0 or 1"
            ));
            continue;
        };
        match file_bytes(file) {
            Ok((bytes, _, _, descr)) => {
                if let Err(e) = m.cta_mut(cta as usize).write_smem(addr, &bytes) {
                    usage.push(format!("--smem {spec}: {e}"));
                } else if let Some(descr) = descr {
                    npy_regions.push(NpyRegion {
                        cta: cta as usize,
                        start: addr,
                        end: addr.saturating_add(bytes.len() as u32),
                        // npyz writes the dtype as Python does: quoted.
                        descr: descr.trim_matches('\'').to_string(),
                        file: file.to_string(),
                    });
                }
            }
            Err(e) => usage.push(e),
        }
    }
    npy_regions
}

/// Loads every `--tmem FILE@LANE,COL[@CTA]` (a 2-D `.npy` of 32-bit values) into Tensor
/// Memory. Problems go to `usage`.
fn load_tmem(m: &mut Machine, a: &EmulateArgs, usage: &mut Vec<String>) {
    for spec in &a.tmem {
        let parsed = split_at_sign(spec).and_then(|(file, nums)| {
            let (l, c) = nums.first()?.split_once(',')?;
            let cta = match nums.get(1) {
                None => 0,
                Some(s) => number(s).filter(|&c| c < 2)? as usize,
            };
            (nums.len() <= 2).then_some(())?;
            Some((
                file,
                u32::try_from(number(l)?).ok()?,
                u32::try_from(number(c)?).ok()?,
                cta,
            ))
        });
        let Some((file, lane, col, cta)) = parsed else {
            usage.push(format!(
                "--tmem {spec}: expected FILE@LANE,COL or FILE@LANE,COL@CTA (CTA 0 or 1)"
            ));
            continue;
        };
        match file_bytes(file) {
            Ok((bytes, shape, 4, _)) if shape.len() == 2 => {
                let cols = shape[1] as u32;
                for (i, w) in bytes.chunks_exact(4).enumerate() {
                    let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                    let (l, c) = (lane + i as u32 / cols, col + i as u32 % cols);
                    if let Err(p) = m.cta_mut(cta).write_tmem(l, c, v) {
                        usage.push(format!("--tmem {spec}: {p}"));
                        break;
                    }
                }
            }
            Ok(_) => usage.push(format!(
                "--tmem {spec}: expected a 2-D .npy of 32-bit values (lanes x columns)"
            )),
            Err(e) => usage.push(e),
        }
    }
}

/// Runs the lines in order until one fails: `// @warp N` comments set the warp, framing is
/// skipped, other instructions are read and counted, the first MMA places the operand
/// files first. A `// @warp` without a number is a usage error (`Err`).
fn execute_lines(
    m: &mut Machine,
    program: &mut Program,
    lines: &[(usize, String)],
    npy_regions: &[NpyRegion],
    a: &EmulateArgs,
) -> Result<Run, String> {
    let target = m.target();
    let mut run = Run {
        outcomes: Vec::new(),
        error: None,
        program_error: None,
        input_error: None,
        not_executed: 0,
    };
    let mut operands_placed = false;
    for (n, l) in lines {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("//") {
            if let Some(w) = rest.trim().strip_prefix("@warp") {
                match w.trim().parse::<u32>() {
                    Ok(w) => m.set_warp(w),
                    Err(_) => {
                        return Err(format!("line {n}: // @warp needs a number"));
                    }
                }
            }
            continue;
        }
        let line = match program.statement(*n, t) {
            Ok(Statement::Tcgen05(line)) => line,
            Ok(Statement::Framing) => continue,
            Ok(Statement::Other(_) | Statement::GuardFalse) => {
                run.not_executed += 1;
                continue;
            }
            Err(e) => {
                run.program_error = Some((*n, t.to_string(), e));
                break;
            }
        };
        if line.starts_with("tcgen05.mma") && !operands_placed {
            operands_placed = true;
            if let Some((operand, message)) = place_operands(m, &line, target, a) {
                run.input_error = Some((*n, t.to_string(), operand, message));
                break;
            }
        }
        if let Some((operand, message)) = npy_type_problem(&line, npy_regions) {
            run.input_error = Some((*n, t.to_string(), operand, message));
            break;
        }
        match m.execute(&line) {
            Ok(o) => run.outcomes.push((*n, o)),
            Err(e) => {
                run.error = Some((*n, t.to_string(), e));
                break;
            }
        }
    }
    Ok(run)
}

/// Writes `--dump-d`, `--dump-tmem` and `--dump-regs`; returns false when a file could not be
/// written (its error, and warnings, go to `err`).
fn write_dumps(
    m: &Machine,
    a: &EmulateArgs,
    d: Option<&Result<tcgen05::emulator::DMatrix, EmuError>>,
    err: &mut String,
) -> io::Result<bool> {
    let mut files_ok = true;
    if let Some(path) = &a.dump_d {
        match d {
            Some(Ok(d)) => {
                if let Err(e) = write_d(path, d) {
                    writeln!(err, "error: cannot write {path}: {e}").map_err(fmt_err)?;
                    files_ok = false;
                }
            }
            Some(Err(e)) => writeln!(err, "error: D cannot be read back: {e}").map_err(fmt_err)?,
            None => writeln!(err, "warning: no MMA ran: {path} not written").map_err(fmt_err)?,
        }
    }
    for spec in &a.dump_tmem {
        let (path, cta) = dump_target(spec);
        let cells: Vec<u32> = m.cta(cta).tmem_cells().map(|c| c.unwrap_or(0)).collect();
        if let Err(e) = write_u32(path, &cells, &[128, 512]) {
            writeln!(err, "error: cannot write {path}: {e}").map_err(fmt_err)?;
            files_ok = false;
        }
    }
    if let Some(path) = &a.dump_regs {
        let mut j = String::new();
        registers_json(&mut j, m).map_err(fmt_err)?;
        if let Err(e) = std::fs::write(path, j) {
            writeln!(err, "error: cannot write {path}: {e}").map_err(fmt_err)?;
            files_ok = false;
        }
    }
    Ok(files_ok)
}

/// Runs the command; returns the exit status.
///
/// # Errors
/// When writing to stdout or stderr fails.
pub fn run(ctx: Ctx, a: &EmulateArgs) -> io::Result<Status> {
    let mut usage: Vec<String> = Vec::new();
    let target = match &a.target {
        None => Target::Sm100a,
        Some(TargetArg(Ok(t))) => *t,
        Some(TargetArg(Err(e))) => {
            usage.push(format!("target: {e}"));
            Target::Sm100a
        }
    };
    let mut m = Machine::new(target);
    m.set_warp(a.warp);
    if let Some(seed) = a.random_inputs {
        m.set_random_inputs(seed);
    }
    let npy_regions = load_smem(&mut m, a, &mut usage);
    load_tmem(&mut m, a, &mut usage);
    let mut lines: Vec<(usize, String)> = Vec::new();
    let mut program_text = String::new();
    if let Some(p) = &a.program {
        match std::fs::read_to_string(p) {
            Ok(text) => {
                lines.extend(
                    text.lines()
                        .enumerate()
                        .map(|(i, l)| (i + 1, l.to_string())),
                );
                program_text = text;
            }
            Err(e) => usage.push(format!("cannot read {p}: {e}")),
        }
    }
    let mut program = Program::new(&program_text, target);
    for spec in &a.reg {
        match spec
            .split_once('=')
            .map(|(n, v)| (n.trim(), number(v.trim())))
        {
            Some((name, Some(v))) if !name.is_empty() => program.set(name, v),
            _ => usage.push(format!(
                "--reg {spec}: expected NAME=VALUE (a register or variable, and a number)"
            )),
        }
    }
    let base = lines.len();
    lines.extend(
        a.exec
            .iter()
            .enumerate()
            .map(|(i, l)| (base + i + 1, l.clone())),
    );
    if lines.is_empty() && usage.is_empty() {
        usage.push("nothing to run: give --exec LINE or --program FILE".into());
    }
    if !usage.is_empty() {
        return finish_usage(ctx, &usage);
    }
    if a.require_alloc || lines.iter().any(|(_, l)| l.contains("tcgen05.alloc")) {
        m.check_allocation = true;
    }
    let run = match execute_lines(&mut m, &mut program, &lines, &npy_regions, a) {
        Ok(run) => run,
        Err(u) => return finish_usage(ctx, &[u]),
    };
    let mut err = String::new();
    let d = m.last_d();
    let files_ok = write_dumps(&m, a, d.as_ref(), &mut err)?;
    let reference = match (&d, a.reference, m.last_mma()) {
        (Some(Ok(d)), true, Some(r)) => Some(reference_error(r, d)),
        _ => None,
    };
    let mut out = String::new();
    if ctx.json {
        json(&mut out, &run, &m, reference).map_err(fmt_err)?;
    } else {
        text(&mut out, &mut err, &run, &m, reference, ctx).map_err(fmt_err)?;
    }
    io::stdout().lock().write_all(out.as_bytes())?;
    io::stderr().lock().write_all(err.as_bytes())?;
    Ok(if !files_ok {
        Status::Usage
    } else if run.error.is_some() || run.program_error.is_some() || run.input_error.is_some() {
        Status::Rule
    } else {
        Status::Valid
    })
}

/// `FILE@1` (the peer CTA) or `FILE` (CTA 0) of `--dump-tmem`.
fn dump_target(spec: &str) -> (&str, usize) {
    match spec.rsplit_once('@') {
        Some((file, "1")) if !file.is_empty() => (file, 1),
        Some((file, "0")) if !file.is_empty() => (file, 0),
        _ => (spec, 0),
    }
}

/// The registers of both CTAs as `--dump-regs` writes them.
fn registers_json(s: &mut String, m: &Machine) -> fmt::Result {
    s.push_str("{\"ctas\":[");
    for cta in 0..2 {
        if cta > 0 {
            s.push(',');
        }
        write!(s, "{{\"cta\":{cta},\"warps\":[")?;
        let mut warp = None;
        for (w, name, values) in m.cta(cta).all_registers() {
            if warp != Some(w) {
                if warp.is_some() {
                    s.push_str("}},");
                }
                write!(s, "{{\"warp\":{w},\"registers\":{{")?;
                warp = Some(w);
            } else {
                s.push(',');
            }
            json_str(s, name)?;
            s.push_str(":[");
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                match v {
                    Some(v) => write!(s, "{v}")?,
                    None => s.push_str("null"),
                }
            }
            s.push(']');
        }
        if warp.is_some() {
            s.push_str("}}");
        }
        s.push_str("]}");
    }
    s.push_str("]}\n");
    Ok(())
}

fn finish_usage(ctx: Ctx, usage: &[String]) -> io::Result<Status> {
    if ctx.json {
        let mut s = String::from("{\"lines\":[],\"errors\":[");
        for (i, u) in usage.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(
                "{\"line\":0,\"rule\":\"usage\",\"field\":\"arguments\",\"value\":0,\"message\":",
            );
            json_str(&mut s, u).map_err(fmt_err)?;
            s.push_str(",\"source\":\"tcgen05 emulate --help\"}");
        }
        s.push_str("]}\n");
        io::stdout().lock().write_all(s.as_bytes())?;
    } else {
        let mut e = io::stderr().lock();
        for u in usage {
            writeln!(e, "error: {u}")?;
        }
    }
    Ok(Status::Usage)
}

fn write_u32(path: &str, data: &[u32], shape: &[u64]) -> io::Result<()> {
    write_npy(path, shape, data.iter().copied())
}

fn write_d(path: &str, d: &tcgen05::emulator::DMatrix) -> io::Result<()> {
    let shape = [u64::from(d.m), u64::from(d.n)];
    match d.d_type {
        ElementType::F16 => write_npy(
            path,
            &shape,
            d.codes.iter().map(|&c| half::f16::from_bits(c as u16)),
        ),
        ElementType::S32 => write_npy(path, &shape, d.codes.iter().map(|&c| c as i32)),
        _ => write_npy(path, &shape, d.codes.iter().map(|&c| f32::from_bits(c))),
    }
}

fn write_npy<T: npyz::AutoSerialize>(
    path: &str,
    shape: &[u64],
    data: impl Iterator<Item = T>,
) -> io::Result<()> {
    let file = io::BufWriter::new(std::fs::File::create(path)?);
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(file)
        .begin_nd()?;
    w.extend(data)?;
    w.finish()
}

fn problem_json(s: &mut String, line: usize, p: &Problem) -> fmt::Result {
    write!(s, "{{\"line\":{line},\"rule\":")?;
    json_str(s, p.id())?;
    s.push_str(",\"field\":");
    json_str(s, p.field)?;
    write!(s, ",\"value\":{},\"message\":", p.value)?;
    json_str(s, p)?;
    s.push_str(",\"source\":");
    json_str(s, p.source)?;
    s.push('}');
    Ok(())
}

/// A program error as one JSON problem: rule `register` (field: the register as written) or
/// `cta_group`.
fn program_error_json(s: &mut String, line: usize, e: &ProgramError) -> fmt::Result {
    write!(s, "{{\"line\":{line},")?;
    match e {
        ProgramError::NoValue { name } => {
            s.push_str("\"rule\":\"register\",\"field\":");
            json_str(s, name)?;
            s.push_str(",\"value\":null");
        }
        ProgramError::CtaGroupMixed { this, .. } => {
            write!(
                s,
                "\"rule\":\"cta_group\",\"field\":\"cta_group\",\"value\":{this}"
            )?;
        }
    }
    s.push_str(",\"message\":");
    json_str(s, e)?;
    s.push_str(",\"source\":\"PTX ISA 9.7.16\"}");
    Ok(())
}

fn json(
    s: &mut String,
    run: &Run,
    m: &Machine,
    reference: Option<tcgen05::emulator::ReferenceError>,
) -> fmt::Result {
    s.push_str("{\"lines\":[");
    for (i, (n, o)) in run.outcomes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        write!(s, "{{\"line\":{n},\"instruction\":")?;
        json_str(s, &o.opcode)?;
        s.push_str(",\"effect\":");
        json_str(s, &o.effect)?;
        s.push_str(",\"warnings\":[");
        for (j, w) in o.warnings.iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            problem_json(s, *n, w)?;
        }
        s.push_str("]}");
    }
    s.push_str("],\"errors\":[");
    if let Some((n, _, e)) = &run.program_error {
        program_error_json(s, *n, e)?;
    }
    if let Some((n, _, operand, message)) = &run.input_error {
        write!(s, "{{\"line\":{n},\"rule\":\"npy_dtype\",\"field\":")?;
        json_str(s, operand)?;
        s.push_str(",\"value\":null,\"message\":");
        json_str(s, message)?;
        s.push_str(",\"source\":\"PTX ISA 9.7.16.4.2 Tables 42-44\"}");
    }
    if let Some((n, _, e)) = &run.error {
        for (j, p) in e.problems.iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            problem_json(s, *n, p)?;
        }
    }
    s.push(']');
    write!(s, ",\"not_executed\":{}", run.not_executed)?;
    if let Some(r) = m.last_mma() {
        write!(
            s,
            ",\"d\":{{\"m\":{},\"n\":{},\"type\":\"{}\",\"layout\":\"{}\",\"lane\":{},\"column\":{}}}",
            r.layout.m(),
            r.layout.n(),
            r.d_type.name(),
            r.layout.layout().letter(),
            r.d_address.lane(),
            r.d_address.column()
        )?;
    }
    if let Some(e) = reference {
        write!(
            s,
            ",\"reference\":{{\"max_ulps\":{},\"at\":[{},{}],\"compared\":{},\"not_finite\":{}}}",
            e.max_ulps, e.at.0, e.at.1, e.compared, e.not_finite
        )?;
    }
    s.push_str("}\n");
    Ok(())
}

fn text(
    out: &mut String,
    err: &mut String,
    run: &Run,
    m: &Machine,
    reference: Option<tcgen05::emulator::ReferenceError>,
    ctx: Ctx,
) -> fmt::Result {
    let (red, yellow, reset) = (ctx.err.red(), ctx.err.yellow(), ctx.err.reset());
    for (n, o) in &run.outcomes {
        writeln!(out, "line {n}: {}: {}", o.opcode, o.effect)?;
        for w in &o.warnings {
            writeln!(err, "{yellow}warning{reset}: line {n}: {w}")?;
        }
    }
    if let Some((n, t, e)) = &run.program_error {
        writeln!(err, "{red}error{reset}: line {n}: {t}")?;
        writeln!(err, "  error: {e}")?;
        writeln!(
            err,
            "  (the line changed nothing; the lines after it did not run)"
        )?;
    }
    if let Some((n, t, operand, message)) = &run.input_error {
        writeln!(err, "{red}error{reset}: line {n}: {t}")?;
        writeln!(
            err,
            "  error [npy_dtype]: {operand}: {message} (PTX ISA 9.7.16.4.2 Tables 42-44)"
        )?;
        writeln!(
            err,
            "  (the line changed nothing; the lines after it did not run)"
        )?;
    }
    if run.not_executed > 0 {
        writeln!(
            out,
            "{} instruction(s) other than tcgen05 (or guarded off) read and not executed: the model executes tcgen05 instructions only",
            run.not_executed
        )?;
    }
    if let Some((n, t, e)) = &run.error {
        writeln!(err, "{red}error{reset}: line {n}: {t}")?;
        for p in &e.problems {
            let kind = if p.severity == Severity::Error {
                "error"
            } else {
                "warning"
            };
            writeln!(err, "  {kind} [{}]: {p}", p.id())?;
        }
        writeln!(
            err,
            "  (the line changed nothing; the lines after it did not run)"
        )?;
    }
    if let Some(r) = m.last_mma() {
        writeln!(
            out,
            "D: {} x {} {} in data-path layout {} at lane {}, column {}",
            r.layout.m(),
            r.layout.n(),
            r.d_type.name(),
            r.layout.layout().letter(),
            r.d_address.lane(),
            r.d_address.column()
        )?;
        if let Some(Ok(d)) = m.last_d() {
            let show = |c: u32| -> String {
                match d.d_type {
                    ElementType::F16 => format!("{}", half::f16::from_bits(c as u16)),
                    ElementType::S32 => format!("{}", c as i32),
                    _ => format!("{}", f32::from_bits(c)),
                }
            };
            let cols = d.n.min(4);
            for row in 0..d.m.min(2) {
                let vals: Vec<String> = (0..cols)
                    .map(|c| show(d.codes[(row * d.n + c) as usize]))
                    .collect();
                writeln!(
                    out,
                    "  D[{row}][0..{cols}] = [{}{}]",
                    vals.join(", "),
                    if d.n > cols { ", ..." } else { "" }
                )?;
            }
        }
    }
    if let Some(e) = reference {
        writeln!(
            out,
            "reference: largest error {} ulp at D[{}][{}] over {} elements ({} not finite) against the exact product of the operands read",
            e.max_ulps, e.at.0, e.at.1, e.compared, e.not_finite
        )?;
    }
    Ok(())
}
