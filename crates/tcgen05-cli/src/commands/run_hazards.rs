//! `tcgen05 run --hazards [--schedules N]`: runs a kernel under the interpreter's hazard
//! checker (`tcgen05_run::hazard::check`) and renders its findings, as text or as one JSON
//! object with a `"hazards"` array. Exit 1 when there is any finding.

use std::fmt::{self, Write as _};
use std::io::{self, Write as _};
use std::time::Instant;

use tcgen05_run::approx::Approx;
use tcgen05_run::hazard::{check_with, Options};
use tcgen05_run::{Arg, Config, Module, RunError};

use super::hazard_render::{finding_json, finding_text};
use crate::args::run::RunArgs;
use crate::render::{json_str, Ctx, Status};

fn fmt_err(_: fmt::Error) -> io::Error {
    io::Error::other("formatting failed")
}

/// Runs the check and prints what it found; returns the exit status, or the run's error and
/// its status for the caller to render (a kernel the interpreter cannot run).
///
/// # Errors
/// When writing to stdout fails.
pub fn run(
    ctx: Ctx,
    a: &RunArgs,
    module: &Module,
    config: &Config,
    args: &mut [Arg],
) -> io::Result<Result<Status, (String, Status)>> {
    let start = Instant::now();
    let options = Options {
        schedules: a.schedules,
    };
    let approx = match a.approx.as_deref().map(Approx::parse).transpose() {
        Ok(x) => x.unwrap_or_default(),
        Err(e) => return Ok(Err((e.to_string(), Status::Usage))),
    };
    let report = match check_with(module, &a.kernel, config, args, &options, approx) {
        Ok(r) => r,
        Err(e) => {
            let status = match e {
                RunError::Argument { .. } | RunError::Launch { .. } | RunError::NoKernel { .. } => {
                    Status::Usage
                }
                _ => Status::Rule,
            };
            return Ok(Err((e.to_string(), status)));
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let status = if report.findings.is_empty() {
        Status::Valid
    } else {
        Status::Rule
    };
    let mut out = String::new();
    if ctx.json {
        out.push_str("{\"ok\":");
        out.push_str(if report.findings.is_empty() {
            "true"
        } else {
            "false"
        });
        out.push_str(",\"kernel\":");
        json_str(&mut out, &a.kernel).map_err(fmt_err)?;
        write!(
            out,
            ",\"schedules\":{},\"runs\":{},\"seconds\":{seconds:.6},\"deadlock\":",
            a.schedules, report.runs
        )
        .map_err(fmt_err)?;
        match &report.deadlock {
            Some(e) => json_str(&mut out, e).map_err(fmt_err)?,
            None => out.push_str("null"),
        }
        out.push_str(",\"error\":");
        match &report.error {
            Some(e) => json_str(&mut out, e).map_err(fmt_err)?,
            None => out.push_str("null"),
        }
        out.push_str(",\"hazards\":[");
        for (i, (f, seed)) in report.findings.iter().zip(&report.seeds).enumerate() {
            if i > 0 {
                out.push(',');
            }
            finding_json(&mut out, f, *seed, None).map_err(fmt_err)?;
        }
        out.push_str("]}\n");
    } else {
        for (f, seed) in report.findings.iter().zip(&report.seeds) {
            finding_text(&mut out, &a.file, f, *seed, None).map_err(fmt_err)?;
        }
        if let Some(e) = &report.error {
            writeln!(out, "{}: the run stopped: {e}", a.file).map_err(fmt_err)?;
        }
        writeln!(
            out,
            "{} hazard(s) in {} over {} run(s) (default schedule{}) in {seconds:.3} s",
            report.findings.len(),
            a.kernel,
            report.runs,
            if a.schedules > 0 {
                format!(" and {} seeded", a.schedules)
            } else {
                String::new()
            }
        )
        .map_err(fmt_err)?;
    }
    io::stdout().lock().write_all(out.as_bytes())?;
    Ok(Ok(status))
}
