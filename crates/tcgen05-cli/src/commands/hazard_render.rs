//! The one renderer of hazard findings and schedule walks for `tcgen05 run --hazards`
//! (`run_hazards.rs`), `run --hazards --exhaustive`/`--replay` (`run_explore.rs`) and
//! `check --hazards` (`check_hazards.rs`): a finding as a text line, a JSON object or a SARIF
//! result, and a walk's figures (`tcgen05_run::hazard::Walked`) as JSON members or a summary
//! line. The CLI computes nothing here: every figure is the interpreter's.

use std::fmt::{self, Write as _};

use tcgen05_run::hazard::{Finding, Outcome, Walked};

use crate::render::json_str;

fn opt(out: &mut String, v: Option<impl fmt::Display>) -> fmt::Result {
    match v {
        Some(x) => write!(out, "{x}"),
        None => out.write_str("null"),
    }
}

/// One finding as a text line: `PATH:LINE[ (and line OTHER)]: KIND[ in KERNEL]: MESSAGE
/// [[schedule seed S]] (SOURCE)` (the seed only when not 0, the default schedule).
///
/// # Errors
/// Only when formatting fails.
pub(crate) fn finding_text(
    out: &mut String,
    path: &str,
    f: &Finding,
    seed: u64,
    kernel: Option<&str>,
) -> fmt::Result {
    write!(out, "{path}:{}", f.line)?;
    if let Some(l) = f.other_line {
        write!(out, " (and line {l})")?;
    }
    write!(out, ": {}", f.kind.name())?;
    if let Some(k) = kernel {
        write!(out, " in {k}")?;
    }
    write!(out, ": {}", f.message)?;
    if seed != 0 {
        write!(out, " [schedule seed {seed}]")?;
    }
    writeln!(out, " ({})", f.source)
}

/// One finding as a JSON object (`"kernel"` last when given).
///
/// # Errors
/// Only when formatting fails.
pub(crate) fn finding_json(
    out: &mut String,
    f: &Finding,
    seed: u64,
    kernel: Option<&str>,
) -> fmt::Result {
    out.write_str("{\"kind\":")?;
    json_str(out, f.kind.name())?;
    write!(out, ",\"line\":{},\"other_line\":", f.line)?;
    opt(out, f.other_line)?;
    out.write_str(",\"thread\":")?;
    opt(out, f.thread)?;
    out.write_str(",\"other_thread\":")?;
    opt(out, f.other_thread)?;
    out.write_str(",\"address\":")?;
    match f.address {
        Some(a) => json_str(out, format!("0x{a:x}"))?,
        None => out.write_str("null")?,
    }
    write!(out, ",\"cta\":{},\"rank\":", f.cta)?;
    opt(out, f.rank)?;
    out.write_str(",\"other_rank\":")?;
    opt(out, f.other_rank)?;
    write!(out, ",\"seed\":{seed},\"message\":")?;
    json_str(out, &f.message)?;
    out.write_str(",\"source\":")?;
    json_str(out, f.source)?;
    if let Some(k) = kernel {
        out.write_str(",\"kernel\":")?;
        json_str(out, k)?;
    }
    out.write_char('}')
}

/// A walk's JSON members, from `"mode"` to `"error"` (`"max_schedules"` and `"seconds"` after
/// `"cut"` when given): the mode (`exhaustive` or `replay`), schedules run, distinct choice points,
/// the deepest schedule, whether every schedule ran, whether `max_schedules` cut the walk, the
/// shown schedule's token (null when clean) and its deadlock or run error.
///
/// # Errors
/// Only when formatting fails.
pub(crate) fn walk_json(
    out: &mut String,
    w: &Walked,
    max_schedules: Option<u32>,
    seconds: Option<f64>,
) -> fmt::Result {
    let (schedules, points, depth, exhausted) = w.figures();
    let mode = match w {
        Walked::Explored(_) => "exhaustive",
        Walked::Replayed(_) => "replay",
    };
    write!(
        out,
        "\"mode\":\"{mode}\",\"schedules_explored\":{schedules},\"choice_points\":{points},\
         \"depth\":{depth},\"exhausted\":{exhausted},\"cut\":{}",
        w.cut()
    )?;
    if let Some(m) = max_schedules {
        write!(out, ",\"max_schedules\":{m}")?;
    }
    if let Some(s) = seconds {
        write!(out, ",\"seconds\":{s:.6}")?;
    }
    out.push_str(",\"replay\":");
    match w.outcome() {
        Some(o) => json_str(out, &o.replay)?,
        None => out.push_str("null"),
    }
    out.push_str(",\"error\":");
    match w.outcome().and_then(|o| o.error.as_ref()) {
        Some(e) => json_str(out, e),
        None => {
            out.push_str("null");
            Ok(())
        }
    }
}

/// A walk's summary line: `N hazard(s) in KERNEL`, then the schedule to replay (`--replay
/// REPLAY`, where `replay` renders the token as the command takes it), or the walk's figures
/// with `exhaustive` or `NOT exhaustive`; the seconds when given.
///
/// # Errors
/// Only when formatting fails.
pub(crate) fn walk_text(
    out: &mut String,
    kernel: &str,
    w: &Walked,
    max_schedules: u32,
    seconds: Option<f64>,
    replay: impl Fn(&Outcome) -> String,
) -> fmt::Result {
    let (schedules, points, depth, exhausted) = w.figures();
    let n = w.outcome().map_or(0, |o| o.findings.len());
    let after = |open: &str| seconds.map_or_else(String::new, |s| format!("{open}{s:.3} s"));
    match (w, w.outcome()) {
        (Walked::Replayed(o), _) => writeln!(
            out,
            "{n} hazard(s) in {kernel} on the schedule --replay {} ({} choice points){}",
            replay(o),
            o.choice_points,
            after(" in ")
        ),
        (Walked::Explored(_), Some(o)) => writeln!(
            out,
            "{n} hazard(s) in {kernel}: counterexample at schedule {schedules} of the exhaustive \
             walk ({} choice points); reproduce it with --hazards --replay {}{}",
            o.choice_points,
            replay(o),
            seconds.map_or_else(String::new, |s| format!(" ({s:.3} s)"))
        ),
        (Walked::Explored(_), None) if exhausted => writeln!(
            out,
            "0 hazard(s) in {kernel}: every schedule explored ({schedules} schedules, {points} \
             choice points, at most {depth} in one){}",
            after(" in ")
        ),
        (Walked::Explored(_), None) => writeln!(
            out,
            "0 hazard(s) in {kernel} over {schedules} schedules ({points} choice points, at most \
             {depth} in one): NOT exhaustive, stopped at --max-schedules {max_schedules}{}",
            after(" in ")
        ),
    }
}

/// One SARIF result at `line` of `path` (`other`: the conflicting line, a related location).
///
/// # Errors
/// Only when formatting fails.
pub(crate) fn sarif_result(
    id: &str,
    level: &str,
    text: &str,
    path: &str,
    line: u32,
    other: Option<u32>,
) -> Result<String, fmt::Error> {
    let mut s = String::from("{\"ruleId\":");
    json_str(&mut s, id)?;
    write!(s, ",\"level\":\"{level}\",\"message\":{{\"text\":")?;
    json_str(&mut s, text)?;
    s.push_str("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
    json_str(&mut s, path)?;
    write!(s, "}},\"region\":{{\"startLine\":{}}}}}}}]", line.max(1))?;
    if let Some(o) = other {
        s.push_str(",\"relatedLocations\":[{\"id\":1,\"message\":{\"text\":\"the conflicting access\"},\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
        json_str(&mut s, path)?;
        write!(s, "}},\"region\":{{\"startLine\":{o}}}}}}}]")?;
    }
    s.push('}');
    Ok(s)
}
