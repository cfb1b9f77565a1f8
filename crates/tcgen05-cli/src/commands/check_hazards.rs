//! `tcgen05 check --hazards`: runs every kernel of each file under the interpreter's hazard
//! checker (`tcgen05_run::hazard::check_module`, which chooses each launch) and renders its
//! findings and notices into `check`'s text, JSON and SARIF output.

use std::fmt::{self, Write as _};
use std::time::Instant;

use tcgen05_run::hazard::{check_module, EntryReport, ModuleOptions, Notice, Scalar, Walked};
use tcgen05_run::{Limits, Module, RunError};

use super::hazard_render::{
    finding_json, finding_text, sarif_result as result, walk_json, walk_text,
};
use super::run::dims;
use crate::args::check::CheckArgs;
use crate::args::number;
use crate::render::json_str;

/// What the hazard check of one file gave.
pub enum FileHazards {
    /// The file could not be read (its bytes are reported by `check` itself).
    Unread,
    /// The module reader refused it: the error (its line, if it has one).
    NotRead(RunError),
    /// Each kernel's report, and the seconds they took.
    Entries(Vec<EntryReport>, f64),
}

/// `NAME=VALUE`: a float when VALUE has a `.`, an exponent, `inf` or `nan`, else an integer.
fn scalar(spec: &str) -> Result<(String, Scalar), String> {
    let Some((name, v)) = spec.split_once('=') else {
        return Err(format!("--arg {spec}: expected NAME=VALUE"));
    };
    let is_float = v.contains('.')
        || v.contains("inf")
        || v.contains("nan")
        || (!v.starts_with("0x") && v.contains(['e', 'E']));
    if is_float {
        let f: f64 = v
            .parse()
            .map_err(|_| format!("--arg {spec}: `{v}` is not a number"))?;
        return Ok((name.to_string(), Scalar::Float(f)));
    }
    let mag = number::parse(v.trim_start_matches('-').as_bytes(), 64)
        .map_err(|_| format!("--arg {spec}: `{v}` is not a number"))?;
    let x = i128::from(mag);
    Ok((
        name.to_string(),
        Scalar::Int(if v.starts_with('-') { -x } else { x }),
    ))
}

/// The options of the flags; every problem is collected.
fn options(a: &CheckArgs) -> Result<ModuleOptions, Vec<String>> {
    let mut errors = Vec::new();
    let mut shape = |flag: &str, s: &Option<String>| {
        s.as_ref()
            .and_then(|s| dims(flag, s).map_err(|e| errors.push(e)).ok())
    };
    let (grid, block, cluster) = (
        shape("grid", &a.grid),
        shape("block", &a.block),
        shape("cluster", &a.cluster),
    );
    let mut bytes = |flag: &str, s: &str, bits: u32| {
        number::parse(s.as_bytes(), bits).ok().or_else(|| {
            errors.push(format!("--{flag} {s}: not a number"));
            None
        })
    };
    let shared = a
        .shared
        .as_ref()
        .and_then(|s| bytes("shared", s, 32))
        .and_then(|v| u32::try_from(v).ok());
    let buffer_bytes = bytes("buffer-bytes", &a.buffer_bytes, 32).unwrap_or(0) as usize;
    let mut replay = Vec::new();
    for spec in &a.replay {
        match spec.split_once('=') {
            Some((k, t)) if !k.is_empty() && !t.is_empty() => replay.push((k.into(), t.into())),
            _ => errors.push(format!("--replay {spec}: expected KERNEL=TOKEN")),
        }
    }
    let mut scalars = Vec::new();
    for spec in &a.args {
        match scalar(spec) {
            Ok(s) => scalars.push(s),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ModuleOptions {
        grid,
        block,
        cluster,
        shared,
        buffer_bytes,
        seed: a.seed,
        schedules: a.schedules,
        scalars,
        limits: Limits::default(),
        exhaustive: a.exhaustive.then_some(a.max_schedules),
        replay,
    })
}

/// Checks each input (its bytes, `None` when it could not be read).
///
/// # Errors
/// Every flag that cannot be read, and a `--arg` naming a parameter no kernel of any file has.
pub fn run(a: &CheckArgs, inputs: &[Option<&[u8]>]) -> Result<Vec<FileHazards>, Vec<String>> {
    let options = options(a)?;
    let mut out = Vec::with_capacity(inputs.len());
    let mut unmatched: Option<RunError> = None;
    let mut matched = vec![false; options.scalars.len()];
    let mut replayed = vec![false; options.replay.len()];
    let mut bad_tokens = Vec::new();
    for bytes in inputs {
        let Some(bytes) = bytes else {
            out.push(FileHazards::Unread);
            continue;
        };
        let text = String::from_utf8_lossy(bytes);
        let module = match Module::read(&text) {
            Ok(m) => m,
            Err(e) => {
                out.push(FileHazards::NotRead(e));
                continue;
            }
        };
        // Each --arg goes to the files with a kernel that has its parameter; it must name a
        // parameter of some kernel of some file.
        let mut own = options.clone();
        own.scalars.clear();
        for (i, s) in options.scalars.iter().enumerate() {
            let names = |k: &tcgen05_run::Kernel| {
                k.params.iter().any(|p| p.name == s.0)
                    || s.0.parse::<usize>().is_ok_and(|n| n < k.params.len())
            };
            if module.kernels.iter().any(names) {
                matched[i] = true;
                own.scalars.push(s.clone());
            }
        }
        own.replay.clear();
        for (i, r) in options.replay.iter().enumerate() {
            if module.kernels.iter().any(|k| k.name == r.0) {
                replayed[i] = true;
                own.replay.push(r.clone());
            }
        }
        let start = Instant::now();
        match check_module(&module, &own) {
            Ok(entries) => {
                // A replay token that is not a schedule of its kernel is a usage error.
                for e in &entries {
                    for n in e.result.as_ref().err().into_iter().flatten() {
                        if n.what == "--replay" {
                            bad_tokens.push(n.message.clone());
                        }
                    }
                }
                out.push(FileHazards::Entries(entries, start.elapsed().as_secs_f64()));
            }
            Err(e) => unmatched = Some(e),
        }
    }
    let mut errors: Vec<String> = unmatched.map(|e| e.to_string()).into_iter().collect();
    errors.append(&mut bad_tokens);
    for (s, m) in options.scalars.iter().zip(&matched) {
        if !m {
            errors.push(format!(
                "--arg {}: no kernel of the files has a parameter of this name or position",
                s.0
            ));
        }
    }
    for (r, m) in options.replay.iter().zip(&replayed) {
        if !m {
            errors.push(format!(
                "--replay {}={}: no kernel of the files has this name",
                r.0, r.1
            ));
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Hazards found in all files.
#[must_use]
pub fn count(files: &[FileHazards]) -> usize {
    files
        .iter()
        .map(|f| match f {
            FileHazards::Entries(es, _) => es
                .iter()
                .map(|e| {
                    let n = e.result.as_ref().map_or(0, |r| r.findings.len());
                    // A walk's counterexample that is a run error without a finding counts.
                    n.max(usize::from(e.walked.as_ref().is_some_and(|w| w.failed())))
                })
                .sum(),
            _ => 0,
        })
        .sum()
}

/// The bound an exploration ran under (0 for a replay, which has none).
fn bound(w: &Walked) -> u32 {
    match w {
        Walked::Explored(x) => x.max_schedules,
        Walked::Replayed(_) => 0,
    }
}

fn shape_text(d: [u32; 3]) -> String {
    format!("{},{},{}", d[0], d[1], d[2])
}

/// The line a module reader's error names (0 when none).
fn error_line(e: &RunError) -> u32 {
    match e {
        RunError::Unsupported { line, .. }
        | RunError::Invalid { line, .. }
        | RunError::Memory { line, .. } => *line,
        _ => 0,
    }
}

fn notice_text(out: &mut String, path: &str, kernel: &str, n: &Notice) -> fmt::Result {
    writeln!(
        out,
        "{path}:{}: {kernel} not checked for hazards ({}, {}): {}",
        n.line,
        n.kind.name(),
        n.what,
        n.message
    )
}

/// The hazard lines of one file: each finding, each kernel's launch and count, each notice.
///
/// # Errors
/// Only when formatting fails.
pub fn text(out: &mut String, path: &str, file: &FileHazards) -> fmt::Result {
    let entries = match file {
        FileHazards::Unread => return Ok(()),
        FileHazards::NotRead(e) => {
            return writeln!(
                out,
                "{path}:{}: not checked for hazards (the interpreter cannot read the module): {e}",
                error_line(e)
            )
        }
        FileHazards::Entries(es, _) => es,
    };
    for e in entries {
        let r = match (&e.result, &e.launch) {
            (Ok(r), Some(l)) => {
                let args: Vec<String> = l
                    .args
                    .iter()
                    .map(|g| format!("{}={}", g.param, g.value))
                    .collect();
                writeln!(
                    out,
                    "{path}:{}: {}: {} hazard(s) over {} run(s) (grid {}, block {}, cluster {}, shared {} bytes; {})",
                    e.line,
                    e.kernel,
                    r.findings.len(),
                    r.runs,
                    shape_text(l.config.grid),
                    shape_text(l.config.block),
                    shape_text(l.config.cluster),
                    l.config.shared,
                    args.join(", ")
                )?;
                r
            }
            (Err(ns), _) => {
                for n in ns {
                    notice_text(out, path, &e.kernel, n)?;
                }
                continue;
            }
            (Ok(_), None) => continue,
        };
        for (f, seed) in r.findings.iter().zip(&r.seeds) {
            finding_text(out, path, f, *seed, Some(&e.kernel))?;
        }
        if let Some(err) = &r.error {
            writeln!(
                out,
                "{path}:{}: {}: the run stopped: {err}",
                e.line, e.kernel
            )?;
        }
        if let Some(w) = &e.walked {
            if let Some(err) = w.outcome().and_then(|o| o.error.as_ref()) {
                writeln!(
                    out,
                    "{path}:{}: {}: the run stopped: {err}",
                    e.line, e.kernel
                )?;
            }
            write!(out, "{path}:{}: ", e.line)?;
            walk_text(out, &e.kernel, w, bound(w), None, |o| {
                format!("{}={}", e.kernel, o.replay)
            })?;
        }
    }
    Ok(())
}

/// The summary line of `--hazards`.
///
/// # Errors
/// Only when formatting fails.
pub fn summary(out: &mut String, files: &[FileHazards]) -> fmt::Result {
    let (mut checked, mut not, mut runs, mut seconds) = (0, 0, 0, 0.0);
    for f in files {
        match f {
            FileHazards::Entries(es, s) => {
                seconds += s;
                for e in es {
                    match &e.result {
                        Ok(r) => {
                            checked += 1;
                            runs += r.runs;
                        }
                        Err(_) => not += 1,
                    }
                }
            }
            FileHazards::NotRead(_) => not += 1,
            FileHazards::Unread => {}
        }
    }
    writeln!(
        out,
        "hazards: {} in {checked} kernel(s) checked ({runs} run(s) in {seconds:.3} s), {not} not checked",
        count(files)
    )
}

fn notice_json(s: &mut String, n: &Notice) -> fmt::Result {
    s.push_str("{\"kind\":");
    json_str(s, n.kind.name())?;
    s.push_str(",\"what\":");
    json_str(s, &n.what)?;
    write!(s, ",\"line\":{},\"message\":", n.line)?;
    json_str(s, &n.message)?;
    s.push('}');
    Ok(())
}

/// One file's `,"hazards":[...],"hazard_kernels":[...]` members.
///
/// # Errors
/// Only when formatting fails.
pub fn json(s: &mut String, file: &FileHazards) -> fmt::Result {
    let entries: &[EntryReport] = match file {
        FileHazards::Entries(es, _) => es,
        _ => &[],
    };
    s.push_str(",\"hazards\":[");
    let mut first = true;
    for e in entries {
        let Ok(r) = &e.result else { continue };
        for (f, seed) in r.findings.iter().zip(&r.seeds) {
            if !first {
                s.push(',');
            }
            first = false;
            finding_json(s, f, *seed, Some(&e.kernel))?;
        }
    }
    s.push_str("],\"hazard_kernels\":[");
    if let FileHazards::NotRead(e) = file {
        write!(
            s,
            "{{\"kernel\":null,\"line\":{},\"checked\":false,\"notices\":[{{\"kind\":\"run-error\",\"what\":\"module\",\"line\":{},\"message\":",
            error_line(e),
            error_line(e)
        )?;
        json_str(s, e)?;
        s.push_str("}]}");
    }
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str("{\"kernel\":");
        json_str(s, &e.kernel)?;
        write!(s, ",\"line\":{}", e.line)?;
        match &e.result {
            Ok(r) => {
                write!(
                    s,
                    ",\"checked\":true,\"hazards\":{},\"runs\":{}",
                    r.findings.len(),
                    r.runs
                )?;
            }
            Err(ns) => {
                s.push_str(",\"checked\":false,\"notices\":[");
                for (j, n) in ns.iter().enumerate() {
                    if j > 0 {
                        s.push(',');
                    }
                    notice_json(s, n)?;
                }
                s.push(']');
            }
        }
        if let Some(l) = &e.launch {
            let c = l.config;
            write!(
                s,
                ",\"grid\":{:?},\"block\":{:?},\"cluster\":{:?},\"shared\":{},\"args\":[",
                c.grid, c.block, c.cluster, c.shared
            )?;
            for (j, g) in l.args.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                s.push_str("{\"param\":");
                json_str(s, &g.param)?;
                s.push_str(",\"value\":");
                json_str(s, &g.value)?;
                s.push('}');
            }
            s.push(']');
        }
        if let Some(w) = &e.walked {
            s.push_str(",\"walk\":{");
            let max = matches!(w, Walked::Explored(_)).then(|| bound(w));
            walk_json(s, w, max, None)?;
            s.push('}');
        }
        s.push('}');
    }
    s.push(']');
    Ok(())
}

/// The SARIF rules (`hazard.KIND`, each with its statement and source) and results (one per
/// finding at its line, the other line related; one per kernel not checked, a warning) of
/// every file, to append to `check`'s.
///
/// # Errors
/// Only when formatting fails.
pub fn sarif(
    paths: &[&str],
    files: &[FileHazards],
    rules: &mut Vec<(String, String, String)>,
    results: &mut Vec<String>,
) -> fmt::Result {
    for (path, file) in paths.iter().zip(files) {
        let entries = match file {
            FileHazards::Entries(es, _) => es,
            FileHazards::NotRead(e) => {
                let id = "hazard.not-checked.run-error";
                if !rules.iter().any(|r| r.0 == id) {
                    rules.push((
                        id.into(),
                        "a kernel not checked for hazards: run-error".into(),
                        "tcgen05 check --help".into(),
                    ));
                }
                let text = format!(
                    "not checked for hazards (the interpreter cannot read the module): {e}"
                );
                results.push(result(id, "warning", &text, path, error_line(e), None)?);
                continue;
            }
            FileHazards::Unread => continue,
        };
        for e in entries {
            match &e.result {
                Ok(r) => {
                    for f in &r.findings {
                        let id = format!("hazard.{}", f.kind.name());
                        if !rules.iter().any(|r| r.0 == id) {
                            rules.push((id.clone(), f.kind.name().into(), f.source.into()));
                        }
                        let text = format!(
                            "{} in {}: {} ({})",
                            f.kind.name(),
                            e.kernel,
                            f.message,
                            f.source
                        );
                        results.push(result(&id, "error", &text, path, f.line, f.other_line)?);
                    }
                }
                Err(ns) => {
                    for n in ns {
                        let id = format!("hazard.not-checked.{}", n.kind.name());
                        if !rules.iter().any(|r| r.0 == id) {
                            rules.push((
                                id.clone(),
                                format!("a kernel not checked for hazards: {}", n.kind.name()),
                                "tcgen05 check --help".into(),
                            ));
                        }
                        let text = format!(
                            "{} not checked for hazards ({}): {}",
                            e.kernel, n.what, n.message
                        );
                        results.push(result(&id, "warning", &text, path, n.line, None)?);
                    }
                }
            }
        }
    }
    Ok(())
}
