//! `tcgen05 run --hazards --exhaustive [--max-schedules N]` and `--hazards --replay TOKEN`:
//! the depth-first walk over a kernel's schedules at its synchronisation choice points
//! (`tcgen05_run::hazard::explore`) and the replay of one schedule
//! (`tcgen05_run::hazard::replay`), as text or as one JSON object with `schedules_explored`,
//! `exhausted`, `replay` and a `"hazards"` array. Exit 1 when a schedule shows a hazard, a
//! deadlock or a run error.

use std::fmt::{self, Write as _};
use std::io::{self, Write as _};
use std::time::Instant;

use tcgen05_run::hazard::{explore, replay, Exploration, Outcome};
use tcgen05_run::{Arg, Config, Module, RunError};

use super::run_hazards::finding_json;
use crate::args::run::RunArgs;
use crate::render::{json_str, Ctx, Status};

fn fmt_err(_: fmt::Error) -> io::Error {
    io::Error::other("formatting failed")
}

/// The walk's figures for text and JSON: schedules, choice points, depth, exhausted (a
/// replay: one schedule, never exhaustive).
fn walk(r: &Result<Exploration, Outcome>) -> (u32, u64, usize, bool) {
    match r {
        Ok(x) => (x.schedules, x.choice_points, x.depth, x.exhausted),
        Err(o) => (1, o.choice_points as u64, o.choice_points, false),
    }
}

fn json(a: &RunArgs, r: &Result<Exploration, Outcome>, seconds: f64) -> Result<String, fmt::Error> {
    let (schedules, points, depth, exhausted) = walk(r);
    let (outcome, cut) = match r {
        Ok(x) => (x.counterexample.as_ref(), x.cut),
        Err(o) => (Some(o), false),
    };
    let failed = outcome.is_some_and(Outcome::failed);
    let mut out = String::new();
    write!(out, "{{\"ok\":{},\"kernel\":", !failed)?;
    json_str(&mut out, &a.kernel)?;
    write!(
        out,
        ",\"mode\":\"{}\",\"schedules_explored\":{schedules},\"choice_points\":{points},\
         \"depth\":{depth},\"exhausted\":{exhausted},\"cut\":{cut},\"max_schedules\":{},\
         \"seconds\":{seconds:.6},\"replay\":",
        if a.exhaustive { "exhaustive" } else { "replay" },
        a.max_schedules
    )?;
    match outcome {
        Some(o) => json_str(&mut out, &o.replay)?,
        None => out.push_str("null"),
    }
    out.push_str(",\"error\":");
    match outcome.and_then(|o| o.error.as_ref()) {
        Some(e) => json_str(&mut out, e)?,
        None => out.push_str("null"),
    }
    out.push_str(",\"hazards\":[");
    for (i, f) in outcome.iter().flat_map(|o| &o.findings).enumerate() {
        if i > 0 {
            out.push(',');
        }
        finding_json(&mut out, f, 0)?;
    }
    out.push_str("]}\n");
    Ok(out)
}

fn text(a: &RunArgs, r: &Result<Exploration, Outcome>, seconds: f64) -> Result<String, fmt::Error> {
    let (schedules, points, depth, exhausted) = walk(r);
    let mut out = String::new();
    let outcome = match r {
        Ok(x) => x.counterexample.as_ref(),
        Err(o) => Some(o),
    };
    for f in outcome.iter().flat_map(|o| &o.findings) {
        let other = f
            .other_line
            .map(|l| format!(" (and line {l})"))
            .unwrap_or_default();
        writeln!(
            out,
            "{}:{}{other}: {}: {} ({})",
            a.file,
            f.line,
            f.kind.name(),
            f.message,
            f.source
        )?;
    }
    if let Some(e) = outcome.and_then(|o| o.error.as_ref()) {
        writeln!(out, "{}: the run stopped: {e}", a.file)?;
    }
    let n = outcome.map_or(0, |o| o.findings.len());
    match (r, outcome) {
        (Err(o), _) => writeln!(
            out,
            "{n} hazard(s) in {} on the schedule --replay {} ({} choice points) in {seconds:.3} s",
            a.kernel, o.replay, o.choice_points
        ),
        (Ok(_), Some(o)) => writeln!(
            out,
            "{n} hazard(s) in {}: counterexample at schedule {schedules} of the exhaustive walk \
             ({} choice points); reproduce it with --hazards --replay {} ({seconds:.3} s)",
            a.kernel, o.choice_points, o.replay
        ),
        (Ok(_), None) if exhausted => writeln!(
            out,
            "0 hazard(s) in {}: every schedule explored ({schedules} schedules, {points} choice \
             points, at most {depth} in one) in {seconds:.3} s",
            a.kernel
        ),
        (Ok(_), None) => writeln!(
            out,
            "0 hazard(s) in {} over {schedules} schedules ({points} choice points, at most \
             {depth} in one): NOT exhaustive, stopped at --max-schedules {} in {seconds:.3} s",
            a.kernel, a.max_schedules
        ),
    }?;
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
    let result = match &a.replay {
        Some(token) if !a.exhaustive => replay(module, &a.kernel, config, args, token).map(Err),
        _ => explore(module, &a.kernel, config, args, a.max_schedules).map(Ok),
    };
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
        Ok(x) => x.counterexample.is_some(),
        Err(o) => o.failed(),
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
