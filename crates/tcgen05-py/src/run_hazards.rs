//! `tcgen05.run.launch(..., hazards=True)`: a kernel run under the interpreter's hazard checker
//! ([`tcgen05_run::hazard::check`]: the default schedule, then `schedules` seeded ones), or,
//! with `exhaustive=N` or `replay=TOKEN`, its schedules walked ([`tcgen05_run::hazard::walk`]:
//! every schedule at the choice points, at most N, or the one of TOKEN). This file reads the
//! arguments as `_run_launch` does and returns each finding as a dict with the fields of
//! `tcgen05 run --hazards --json`, and a walk's figures as `--exhaustive --json` gives them;
//! every rule is the interpreter's.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use tcgen05_run::approx::Approx;
use tcgen05_run::hazard::{check_with, walk, Finding, Options, Walk, Walked};
use tcgen05_run::{Arg, Config, Limits, Module};

use crate::run::{argument, run_error};

/// The default schedule's stats (None when it ended in a deadlock, itself a finding), each
/// finding, the runs made, and the bytes of every buffer and tensor map argument after the
/// default schedule's run (None for the others).
/// With a walk, its figures (`mode`, `schedules_explored`, `choice_points`, `depth`,
/// `exhausted`, `cut`, `replay`: the shown schedule's token or None, `error`).
type Checked<'py> = (
    Option<Bound<'py, PyDict>>,
    Vec<Bound<'py, PyDict>>,
    u32,
    Vec<Option<Bound<'py, PyBytes>>>,
    Option<Bound<'py, PyDict>>,
);

/// One finding as a dict with the fields of `tcgen05 run --hazards --json`.
fn finding_dict<'py>(py: Python<'py>, f: &Finding, seed: u64) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", f.kind.name())?;
    d.set_item("line", f.line)?;
    d.set_item("other_line", f.other_line)?;
    d.set_item("thread", f.thread)?;
    d.set_item("other_thread", f.other_thread)?;
    d.set_item("address", f.address)?;
    d.set_item("message", &f.message)?;
    d.set_item("source", f.source)?;
    d.set_item("cta", f.cta)?;
    d.set_item("seed", seed)?;
    Ok(d)
}

/// A walk's figures as a dict.
fn walk_dict<'py>(py: Python<'py>, w: &Walked) -> PyResult<Bound<'py, PyDict>> {
    let (schedules, points, depth, exhausted) = w.figures();
    let d = PyDict::new(py);
    let mode = match w {
        Walked::Explored(_) => "exhaustive",
        Walked::Replayed(_) => "replay",
    };
    d.set_item("mode", mode)?;
    d.set_item("schedules_explored", schedules)?;
    d.set_item("choice_points", points)?;
    d.set_item("depth", depth)?;
    d.set_item("exhausted", exhausted)?;
    d.set_item("cut", w.cut())?;
    d.set_item("replay", w.outcome().map(|o| o.replay.clone()))?;
    d.set_item(
        "error",
        w.outcome()
            .and_then(|o| o.error.as_ref())
            .map(ToString::to_string),
    )?;
    Ok(d)
}

/// Runs `kernel` under the hazard checker; `approx` as `_run_launch`'s (not with a walk).
#[pyfunction]
#[pyo3(signature = (ptx, kernel, grid, block, cluster, shared, args, max_steps, schedules, exhaustive=None, replay=None, approx=""))]
#[allow(clippy::too_many_arguments)]
pub fn _run_hazards<'py>(
    py: Python<'py>,
    ptx: &str,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    cluster: [u32; 3],
    shared: u32,
    args: &Bound<'py, PyList>,
    max_steps: u64,
    schedules: u32,
    exhaustive: Option<u32>,
    replay: Option<String>,
    approx: &str,
) -> PyResult<Checked<'py>> {
    let approx = Approx::parse(approx).map_err(|e| run_error(py, &e))?;
    let module = Module::read(ptx).map_err(|e| run_error(py, &e))?;
    let params = module
        .kernel(kernel)
        .map_err(|e| run_error(py, &e))?
        .params
        .clone();
    let mut list = Vec::with_capacity(args.len());
    for (i, item) in args.iter().enumerate() {
        list.push(argument(py, &params, i, &item)?);
    }
    let config = Config {
        grid,
        block,
        cluster,
        shared,
        limits: Limits { steps: max_steps },
    };
    if how_requested(&replay, exhaustive) && (approx.ex2 || approx.div) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "approx= is not available with exhaustive= or replay= (a walk computes only the instructions the run models exactly)",
        ));
    }
    let how = match (replay, exhaustive) {
        (Some(token), _) => Some(Walk::Replay(token)),
        (None, Some(max)) => Some(Walk::Exhaustive(max)),
        (None, None) => None,
    };
    let options = Options { schedules };
    let start = std::time::Instant::now();
    let (result, walked) = match how {
        Some(how) => match py.detach(|| walk(&module, kernel, &config, &mut list, &how)) {
            Ok(w) => (Ok(w.report()), Some(w)),
            Err(e) => (Err(e), None),
        },
        None => (
            py.detach(|| check_with(&module, kernel, &config, &mut list, &options, approx)),
            None,
        ),
    };
    let seconds = start.elapsed().as_secs_f64();
    let report = result.map_err(|e| run_error(py, &e))?;
    let stats = match &report.stats {
        Some(s) => {
            let d = PyDict::new(py);
            d.set_item("ctas", s.ctas)?;
            d.set_item("warp_instructions", s.warp_instructions)?;
            d.set_item("thread_instructions", s.thread_instructions)?;
            d.set_item("mmas", s.mmas)?;
            d.set_item("bytes_moved", s.bytes_moved)?;
            d.set_item("seconds", seconds)?;
            Some(d)
        }
        None => None,
    };
    let mut findings = Vec::with_capacity(report.findings.len());
    for (f, seed) in report.findings.iter().zip(&report.seeds) {
        findings.push(finding_dict(py, f, *seed)?);
    }
    let out = list
        .iter()
        .map(|a| match a {
            Arg::Buffer(b) | Arg::TensorMap(_, b) => Some(PyBytes::new(py, b)),
            _ => None,
        })
        .collect();
    let walked = walked.map(|w| walk_dict(py, &w)).transpose()?;
    Ok((stats, findings, report.runs, out, walked))
}

/// Whether a walk (exhaustive or replayed) was asked for.
fn how_requested(replay: &Option<String>, exhaustive: Option<u32>) -> bool {
    replay.is_some() || exhaustive.is_some()
}
