//! `tcgen05 run --hazards --exhaustive [--max-schedules N]` and `--hazards --replay TOKEN`:
//! the depth-first walk over a kernel's schedules at its synchronisation choice points
//! (`tcgen05_run::hazard::explore`) and the replay of one schedule
//! (`tcgen05_run::hazard::replay`), as text or as one JSON object with `schedules_explored`,
//! `exhausted`, `replay` and a `"hazards"` array. Exit 1 when a schedule shows a hazard, a
//! deadlock or a run error.

use std::fmt::{self, Write as _};
use std::io::{self, Write as _};
use std::time::Instant;

use tcgen05_run::hazard::{walk, Walk, Walked};
use tcgen05_run::{Arg, Config, Module, RunError};

use super::hazard_render::{finding_json, finding_text, walk_json, walk_text};
use crate::args::run::RunArgs;
use crate::render::{json_str, Ctx, Status};

fn fmt_err(_: fmt::Error) -> io::Error {
    io::Error::other("formatting failed")
}

fn json(a: &RunArgs, w: &Walked, seconds: f64) -> Result<String, fmt::Error> {
    let mut out = String::new();
    write!(out, "{{\"ok\":{},\"kernel\":", !w.failed())?;
    json_str(&mut out, &a.kernel)?;
    out.push(',');
    walk_json(&mut out, w, Some(a.max_schedules), Some(seconds))?;
    out.push_str(",\"hazards\":[");
    for (i, f) in w.outcome().iter().flat_map(|o| &o.findings).enumerate() {
        if i > 0 {
            out.push(',');
        }
        finding_json(&mut out, f, 0, None)?;
    }
    out.push_str("]}\n");
    Ok(out)
}

fn text(a: &RunArgs, w: &Walked, seconds: f64) -> Result<String, fmt::Error> {
    let mut out = String::new();
    for f in w.outcome().iter().flat_map(|o| &o.findings) {
        finding_text(&mut out, &a.file, f, 0, None)?;
    }
    if let Some(e) = w.outcome().and_then(|o| o.error.as_ref()) {
        writeln!(out, "{}: the run stopped: {e}", a.file)?;
    }
    walk_text(
        &mut out,
        &a.kernel,
        w,
        a.max_schedules,
        Some(seconds),
        |o| o.replay.clone(),
    )?;
    Ok(out)
}

/// Explores or replays, and prints what it found; returns the exit status, or the run's
/// error and its status for the caller to render (a kernel the interpreter cannot run, a
/// token that does not fit).
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
    let how = match &a.replay {
        Some(token) if !a.exhaustive => Walk::Replay(token.clone()),
        _ => Walk::Exhaustive(a.max_schedules),
    };
    let result = walk(module, &a.kernel, config, args, &how);
    let r = match result {
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
    let failed = match &r {
        Walked::Explored(x) => x.counterexample.is_some(),
        Walked::Replayed(o) => o.failed(),
    };
    let out = if ctx.json {
        json(a, &r, seconds)
    } else {
        text(a, &r, seconds)
    }
    .map_err(fmt_err)?;
    io::stdout().lock().write_all(out.as_bytes())?;
    Ok(Ok(if failed { Status::Rule } else { Status::Valid }))
}
