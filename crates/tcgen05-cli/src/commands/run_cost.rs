//! `tcgen05 run --hazards --cost N`: the cost of hazard tracking on one kernel (the goal:
//! "hazard tracking costs at most 3x the plain run"), measured in this process: the plain run
//! (`tcgen05_run::launch_with`) and the checked one (`tcgen05_run::hazard::check_with`, the
//! default schedule), alternating, each as N batches; a batch repeats the run until it has taken
//! 0.3 s of this process's CPU time (at least once; wall time where the CPU time cannot be
//! read), so that the CPU time, which Linux counts in 10 ms ticks (`/proc/self/stat`), is read
//! over at least 30 ticks however loaded the machine is. Prints the best batch's per-run CPU and wall
//! time of each, their ratios and the checked run's finding count (text, or one JSON object).
//! `conformance/kernels/hazard_cost.py` runs it over every kernel the tests run.

use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::time::Instant;

use tcgen05_run::approx::Approx;
use tcgen05_run::hazard::{check_with, Options};
use tcgen05_run::{launch_with, Arg, Config, Hooks, Module};

use crate::args::run::RunArgs;
use crate::render::{json_str, Ctx, Status};

/// The CPU time (or wall time) a batch runs for at least, in seconds.
const BATCH_SECONDS: f64 = 0.3;

/// This process's CPU time (user + system, every thread) in seconds, from `/proc/self/stat`
/// (Linux; 0 elsewhere, and the CPU columns then read 0).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // After the command name (which ends at the last ')'): utime and stime are the 12th and
    // 13th fields, in clock ticks (100 per second on Linux).
    let Some(rest) = stat.rfind(')').and_then(|i| stat.get(i + 2..)) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split(' ').collect();
    let tick = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// One batch of `run`: (CPU seconds per run, wall seconds per run, runs), or the run's error.
fn batch(run: &mut dyn FnMut() -> Result<usize, String>) -> Result<(f64, f64, u32, usize), String> {
    let (c0, t0) = (cpu_seconds(), Instant::now());
    let mut runs = 0u32;
    let mut findings = 0;
    let spent = |c: f64| {
        if c0 > 0.0 {
            c - c0
        } else {
            t0.elapsed().as_secs_f64()
        }
    };
    while runs == 0 || spent(cpu_seconds()) < BATCH_SECONDS {
        findings = run()?;
        runs += 1;
    }
    let n = f64::from(runs);
    Ok((
        (cpu_seconds() - c0) / n,
        t0.elapsed().as_secs_f64() / n,
        runs,
        findings,
    ))
}

/// Measures and prints; returns the exit status (1 when the checked run has findings), or the
/// run's error and its status for the caller to render.
///
/// # Errors
/// When writing to stdout fails.
pub fn run(
    ctx: Ctx,
    a: &RunArgs,
    module: &Module,
    config: &Config,
    args: &[Arg],
) -> io::Result<Result<Status, (String, Status)>> {
    let approx = match a.approx.as_deref().map(Approx::parse).transpose() {
        Ok(x) => x.unwrap_or_default(),
        Err(e) => return Ok(Err((e.to_string(), Status::Usage))),
    };
    let mut plain = || {
        let mut copy = args.to_vec();
        let hooks = Hooks {
            approx,
            ..Hooks::default()
        };
        launch_with(module, &a.kernel, config, &mut copy, hooks)
            .map(|_| 0)
            .map_err(|e| e.to_string())
    };
    let mut checked = || {
        let mut copy = args.to_vec();
        check_with(
            module,
            &a.kernel,
            config,
            &mut copy,
            &Options::default(),
            approx,
        )
        .map(|r| r.findings.len())
        .map_err(|e| e.to_string())
    };
    let inf = (f64::INFINITY, f64::INFINITY);
    let (mut best_plain, mut best_checked) = (inf, inf);
    let (mut runs_plain, mut runs_checked, mut findings) = (0, 0, 0);
    for _ in 0..a.cost.max(1) {
        let p = match batch(&mut plain) {
            Ok(x) => x,
            Err(e) => return Ok(Err((e, Status::Rule))),
        };
        let c = match batch(&mut checked) {
            Ok(x) => x,
            Err(e) => return Ok(Err((e, Status::Rule))),
        };
        best_plain = (best_plain.0.min(p.0), best_plain.1.min(p.1));
        best_checked = (best_checked.0.min(c.0), best_checked.1.min(c.1));
        runs_plain += p.2;
        runs_checked += c.2;
        findings = c.3;
    }
    let ratio = |x: f64, y: f64| if y > 0.0 { x / y } else { 0.0 };
    let (rc, rw) = (
        ratio(best_checked.0, best_plain.0),
        ratio(best_checked.1, best_plain.1),
    );
    let mut out = String::new();
    let f = |e: std::fmt::Error| io::Error::other(e.to_string());
    if ctx.json {
        out.push_str("{\"kernel\":");
        json_str(&mut out, &a.kernel).map_err(f)?;
        writeln!(
            out,
            ",\"batches\":{},\"plain_cpu\":{:.6},\"plain_wall\":{:.6},\"hazards_cpu\":{:.6},\"hazards_wall\":{:.6},\"ratio_cpu\":{rc:.3},\"ratio_wall\":{rw:.3},\"plain_runs\":{runs_plain},\"hazards_runs\":{runs_checked},\"findings\":{findings}}}",
            a.cost.max(1), best_plain.0, best_plain.1, best_checked.0, best_checked.1
        )
        .map_err(f)?;
    } else {
        writeln!(
            out,
            "{}: plain {:.4} s CPU {:.4} s wall; --hazards {:.4} s CPU {:.4} s wall; x{rc:.2} CPU, x{rw:.2} wall (best of {} batches of at least {BATCH_SECONDS} s of CPU: {runs_plain} and {runs_checked} runs); {findings} finding(s)",
            a.kernel, best_plain.0, best_plain.1, best_checked.0, best_checked.1, a.cost.max(1)
        )
        .map_err(f)?;
    }
    io::stdout().lock().write_all(out.as_bytes())?;
    Ok(Ok(if findings == 0 {
        Status::Valid
    } else {
        Status::Rule
    }))
}
