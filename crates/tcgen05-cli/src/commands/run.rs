//! `tcgen05 run`: runs a whole kernel from its PTX with the `tcgen05-run` interpreter and
//! renders what it did (one summary line, or one JSON object).

use std::fmt::{self, Write as _};
use std::io::{self, Write as _};
use std::time::Instant;

use tcgen05_run::approx::Approx;
use tcgen05_run::param_match::{float_arg, int_arg};
use tcgen05_run::{launch_with, Arg, Config, Hooks, Limits, Module, Param, RunError};

use super::{npy_file, run_cost, run_explore, run_hazards, run_tensor_map};
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
pub(crate) fn dims(flag: &str, s: &str) -> Result<[u32; 3], String> {
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

/// A scalar `VALUE` for parameter `p`, typed by its declaration: a float (written with `.`, an
/// exponent, `inf` or `nan`) for `.f32`/`.f64`, an integer that fits the parameter's width, or
/// 0 for a null pointer.
fn scalar(p: &Param, v: &str) -> Result<Arg, String> {
    let is_float = v.contains('.')
        || v.contains("inf")
        || v.contains("nan")
        || (!v.starts_with("0x") && v.contains(['e', 'E']));
    let named = |e: RunError| format!("--arg {}={v}: {e}", p.name);
    if is_float {
        let f: f64 = v
            .parse()
            .map_err(|_| format!("--arg {}={v}: not a number", p.name))?;
        return float_arg(p, f).map_err(named);
    }
    let neg = v.starts_with('-');
    let mag = number::parse(v.trim_start_matches('-').as_bytes(), 64)
        .map_err(|_| format!("--arg {}={v}: not a number", p.name))?;
    if p.pointer && mag == 0 {
        return Ok(Arg::Null);
    }
    let x = if neg {
        -i128::from(mag)
    } else {
        i128::from(mag)
    };
    int_arg(p, x).map_err(named)
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
                "--arg {spec}: expected NAME=FILE.npy, NAME=VALUE or NAME=tensormap:SPEC"
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
        if let Some(map_spec) = value.strip_prefix("tensormap:") {
            match run_tensor_map::read(map_spec) {
                Ok((map, f)) => {
                    args[i] = Some(Arg::TensorMap(map, f.data.clone()));
                    files[i] = Some(BufferFile {
                        header: f.header,
                        data: f.data,
                    });
                }
                Err(es) => errors.extend(es.into_iter().map(|e| format!("--arg {name}={e}"))),
            }
            continue;
        }
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
            (Arg::Buffer(data) | Arg::TensorMap(_, data), Some(f)) => {
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

/// Runs `f` (the launch), printing a progress line on stderr every 5 seconds once it has run
/// for 2: the kernel, the time so far and the grid.
fn with_progress<T: Send>(kernel: &str, c: &Config, f: impl FnOnce() -> T + Send) -> T {
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            let start = Instant::now();
            let mut wait = std::time::Duration::from_secs(2);
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(wait) {
                let ctas = u64::from(c.grid[0]) * u64::from(c.grid[1]) * u64::from(c.grid[2]);
                let _ = writeln!(
                    io::stderr().lock(),
                    "tcgen05 run: {kernel} running for {:.0} s ({ctas} CTAs of {} threads)",
                    start.elapsed().as_secs_f64(),
                    c.block[0] * c.block[1] * c.block[2]
                );
                wait = std::time::Duration::from_secs(5);
            }
        });
        let r = f();
        let _ = done_tx.send(());
        r
    })
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
        let checked = if a.cost > 0 {
            run_cost::run(ctx, a, &module, &config, &args)?
        } else if a.exhaustive || a.replay.is_some() {
            run_explore::run(ctx, a, &module, &config, &mut args)?
        } else {
            run_hazards::run(ctx, a, &module, &config, &mut args)?
        };
        let status = match checked {
            Ok(status) => status,
            Err((e, status)) => return usage(ctx, &[e], status),
        };
        let errors = write_outs(a, &module, &args, &files);
        if !errors.is_empty() {
            return usage(ctx, &errors, Status::Usage);
        }
        return Ok(status);
    }
    let approx = match a.approx.as_deref().map(Approx::parse).transpose() {
        Ok(x) => x.unwrap_or_default(),
        Err(e) => return usage(ctx, &[e.to_string()], Status::Usage),
    };
    let start = Instant::now();
    let result = with_progress(&a.kernel, &config, || {
        let hooks = Hooks {
            approx,
            ..Hooks::default()
        };
        launch_with(&module, &a.kernel, &config, &mut args, hooks)
    });
    let seconds = start.elapsed().as_secs_f64();
    let stats = match result {
        Ok(s) => s,
        Err(e) => {
            let status = match e {
                RunError::Argument { .. }
                | RunError::Launch { .. }
                | RunError::NoKernel { .. }
                | RunError::TensorMap { .. } => Status::Usage,
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
            ",\"ctas\":{},\"warp_instructions\":{},\"thread_instructions\":{},\"mmas\":{},\"bytes_moved\":{},\"seconds\":{seconds:.6},\"warp_instructions_per_second\":{rate:.0}",
            stats.ctas, stats.warp_instructions, stats.thread_instructions, stats.mmas, stats.bytes_moved
        )
        .map_err(fmt_err)?;
        crate::commands::run_approx::json(&mut out, &stats.approximated).map_err(fmt_err)?;
        out.push('}');
        out.push('\n');
    } else {
        writeln!(
            out,
            "ran {}: {} CTAs, {} warp-instructions ({} thread-instructions), {} MMAs, {} bytes moved in {seconds:.3} s ({:.2} M warp-instructions/s)",
            a.kernel,
            stats.ctas,
            stats.warp_instructions,
            stats.thread_instructions,
            stats.mmas,
            stats.bytes_moved,
            rate / 1e6
        )
        .map_err(fmt_err)?;
        for line in stats.approximated.describe() {
            writeln!(out, "approximated: {line}").map_err(fmt_err)?;
        }
    }
    io::stdout().lock().write_all(out.as_bytes())?;
    Ok(Status::Valid)
}
