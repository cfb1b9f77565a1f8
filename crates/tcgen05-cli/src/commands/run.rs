//! `tcgen05 run`: runs a whole kernel from its PTX with the `tcgen05-run` interpreter and
//! renders what it did (one summary line, or one JSON object).

use std::fmt::{self, Write as _};
use std::io::{self, Write as _};
use std::time::Instant;

use tcgen05_run::{launch, Arg, Config, Limits, Module, Param, RunError};

use super::npy_file;
use super::run_hazards;
use crate::args::number;
use crate::args::run::RunArgs;
use crate::render::{json_str, Ctx, Status};

fn fmt_err(_: fmt::Error) -> io::Error {
    io::Error::other("formatting failed")
}

/// A buffer argument's file: the bytes before its data (a `.npy` header, empty for a raw
/// file) and its data.
struct BufferFile {
    header: Vec<u8>,
    data: Vec<u8>,
}

fn read_buffer(path: &str) -> Result<BufferFile, String> {
    let file = npy_file::read(path)?;
    Ok(BufferFile {
        header: file.header,
        data: file.data,
    })
}

/// `X[,Y[,Z]]`, missing dimensions 1.
fn dims(flag: &str, s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("--{flag} {s}: expected X[,Y[,Z]]"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = number::parse(p.trim().as_bytes(), 32)
            .ok()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("--{flag} {s}: `{p}` is not a number"))?;
    }
    Ok(d)
}

/// The parameter an argument names: its PTX name or its position.
fn param_index(params: &[Param], name: &str) -> Option<usize> {
    params
        .iter()
        .position(|p| p.name == name)
        .or_else(|| name.parse::<usize>().ok().filter(|&i| i < params.len()))
}

/// A scalar `VALUE` for parameter `p`: an integer of its size, a float (f32 or f64 by its
/// size) when written with `.`, an exponent, `inf` or `nan`, or 0 for a null pointer.
fn scalar(p: &Param, v: &str) -> Result<Arg, String> {
    let is_float = v.contains('.')
        || v.contains("inf")
        || v.contains("nan")
        || (!v.starts_with("0x") && v.contains(['e', 'E']));
    if is_float {
        let f: f64 = v
            .parse()
            .map_err(|_| format!("--arg {}={v}: not a number", p.name))?;
        return match p.size {
            4 => Ok(Arg::f32(f as f32)),
            8 => Ok(Arg::Scalar(f.to_le_bytes().to_vec())),
            s => Err(format!(
                "--arg {}={v}: a float for a {s}-byte parameter",
                p.name
            )),
        };
    }
    let neg = v.starts_with('-');
    let mag = number::parse(v.trim_start_matches('-').as_bytes(), 64)
        .map_err(|_| format!("--arg {}={v}: not a number", p.name))?;
    let x = if neg { mag.wrapping_neg() } else { mag };
    if p.pointer && x == 0 {
        return Ok(Arg::Null);
    }
    let bytes = x.to_le_bytes();
    Ok(Arg::Scalar(bytes[..(p.size as usize).min(8)].to_vec()))
}

/// A run ready to launch: the module, the configuration, the arguments and, per parameter,
/// the file a buffer came from.
type Prepared = (Module, Config, Vec<Arg>, Vec<Option<BufferFile>>);

/// Reads the module and the arguments; every problem is collected.
fn prepare(a: &RunArgs) -> Result<Prepared, Vec<String>> {
    let mut errors = Vec::new();
    let text = std::fs::read(&a.file)
        .map_err(|e| vec![format!("cannot read {}: {e}", a.file)])
        .and_then(|b| {
            String::from_utf8(b).map_err(|_| vec![format!("{}: not UTF-8 text", a.file)])
        })?;
    let module = Module::read(&text).map_err(|e| vec![format!("{}: {e}", a.file)])?;
    let kernel = module.kernel(&a.kernel).map_err(|e| vec![e.to_string()])?;
    let mut get = |flag: &str, s: &str| {
        dims(flag, s).unwrap_or_else(|e| {
            errors.push(e);
            [1; 3]
        })
    };
    let (grid, block, cluster) = (
        get("grid", &a.grid),
        get("block", &a.block),
        get("cluster", &a.cluster),
    );
    let shared = number::parse(a.shared.as_bytes(), 32)
        .ok()
        .and_then(|v| u32::try_from(v).ok())
        .unwrap_or_else(|| {
            errors.push(format!("--shared {}: not a number", a.shared));
            0
        });
    let mut args: Vec<Option<Arg>> = vec![None; kernel.params.len()];
    let mut files: Vec<Option<BufferFile>> = (0..kernel.params.len()).map(|_| None).collect();
    for spec in &a.args {
        let Some((name, value)) = spec.split_once('=') else {
            errors.push(format!(
                "--arg {spec}: expected NAME=FILE.npy or NAME=VALUE"
            ));
            continue;
        };
        let Some(i) = param_index(&kernel.params, name) else {
            errors.push(format!(
                "--arg {spec}: the kernel has no parameter `{name}` (it has: {})",
                kernel
                    .params
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            continue;
        };
        let p = &kernel.params[i];
        let looks_numeric = value.starts_with(|c: char| c.is_ascii_digit() || c == '-')
            && !std::path::Path::new(value).exists();
        let arg = if looks_numeric {
            scalar(p, value)
        } else {
            read_buffer(value).map(|f| {
                let a = Arg::Buffer(f.data.clone());
                files[i] = Some(f);
                a
            })
        };
        match arg {
            Ok(x) => args[i] = Some(x),
            Err(e) => errors.push(e),
        }
    }
    for (p, a) in kernel.params.iter().zip(&args) {
        if a.is_none() {
            errors.push(format!(
                "parameter `{}` ({} bytes{}) has no --arg",
                p.name,
                p.size,
                if p.pointer { ", a pointer" } else { "" }
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let config = Config {
        grid,
        block,
        cluster,
        shared,
        limits: Limits { steps: a.max_steps },
    };
    Ok((module, config, args.into_iter().flatten().collect(), files))
}

/// Writes each `--out NAME=FILE` buffer.
fn write_outs(
    a: &RunArgs,
    module: &Module,
    args: &[Arg],
    files: &[Option<BufferFile>],
) -> Vec<String> {
    let mut errors = Vec::new();
    let Ok(kernel) = module.kernel(&a.kernel) else {
        return errors;
    };
    for spec in &a.outs {
        let Some((name, path)) = spec.split_once('=') else {
            errors.push(format!("--out {spec}: expected NAME=FILE.npy"));
            continue;
        };
        let Some(i) = param_index(&kernel.params, name) else {
            errors.push(format!(
                "--out {spec}: the kernel has no parameter `{name}`"
            ));
            continue;
        };
        match (&args[i], &files[i]) {
            (Arg::Buffer(data), Some(f)) => {
                let mut bytes = f.header.clone();
                bytes.extend_from_slice(data);
                if let Err(e) = std::fs::write(path, bytes) {
                    errors.push(format!("--out {spec}: cannot write {path}: {e}"));
                }
            }
            _ => errors.push(format!("--out {spec}: `{name}` is not a buffer argument")),
        }
    }
    errors
}

fn usage(ctx: Ctx, errors: &[String], status: Status) -> io::Result<Status> {
    if ctx.json {
        let mut s = String::from("{\"ok\":false,\"errors\":[");
        for (i, e) in errors.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            json_str(&mut s, e).map_err(fmt_err)?;
        }
        s.push_str("]}\n");
        io::stdout().lock().write_all(s.as_bytes())?;
    } else {
        let mut err = io::stderr().lock();
        for e in errors {
            writeln!(err, "error: {e}")?;
        }
    }
    Ok(status)
}

/// Runs the command; returns the exit status.
///
/// # Errors
/// When writing to stdout or stderr fails.
pub fn run(ctx: Ctx, a: &RunArgs) -> io::Result<Status> {
    let (module, config, mut args, files) = match prepare(a) {
        Ok(x) => x,
        Err(errors) => return usage(ctx, &errors, Status::Usage),
    };
    if a.hazards {
        let status = match run_hazards::run(ctx, a, &module, &config, &mut args)? {
            Ok(status) => status,
            Err((e, status)) => return usage(ctx, &[e], status),
        };
        let errors = write_outs(a, &module, &args, &files);
        if !errors.is_empty() {
            return usage(ctx, &errors, Status::Usage);
        }
        return Ok(status);
    }
    let start = Instant::now();
    let result = launch(&module, &a.kernel, &config, &mut args);
    let seconds = start.elapsed().as_secs_f64();
    let stats = match result {
        Ok(s) => s,
        Err(e) => {
            let status = match e {
                RunError::Argument { .. } | RunError::Launch { .. } | RunError::NoKernel { .. } => {
                    Status::Usage
                }
                _ => Status::Rule,
            };
            return usage(ctx, &[e.to_string()], status);
        }
    };
    let errors = write_outs(a, &module, &args, &files);
    if !errors.is_empty() {
        return usage(ctx, &errors, Status::Usage);
    }
    let rate = stats.warp_instructions as f64 / seconds.max(1e-9);
    let mut out = String::new();
    if ctx.json {
        out.push_str("{\"ok\":true,\"kernel\":");
        json_str(&mut out, &a.kernel).map_err(fmt_err)?;
        write!(
            out,
            ",\"ctas\":{},\"warp_instructions\":{},\"thread_instructions\":{},\"tcgen05_mmas\":{},\"seconds\":{seconds:.6},\"warp_instructions_per_second\":{rate:.0}}}",
            stats.ctas, stats.warp_instructions, stats.thread_instructions, stats.tcgen05_mmas
        )
        .map_err(fmt_err)?;
        out.push('\n');
    } else {
        writeln!(
            out,
            "ran {}: {} CTAs, {} warp-instructions ({} thread-instructions), {} tcgen05.mma in {seconds:.3} s ({:.2} M warp-instructions/s)",
            a.kernel,
            stats.ctas,
            stats.warp_instructions,
            stats.thread_instructions,
            stats.tcgen05_mmas,
            rate / 1e6
        )
        .map_err(fmt_err)?;
    }
    io::stdout().lock().write_all(out.as_bytes())?;
    Ok(Status::Valid)
}
