//! Exhaustive exploration of a kernel's schedules at its synchronisation choice points (issue
//! 25, item 4), for small kernels.
//!
//! A choice point is a place where the run may legally go more than one way (see
//! [`crate::schedule`]): which runnable warp of a CTA runs next, to the end of its next
//! synchronisation instruction (mbarrier `init`/`arrive`/`try_wait`, `bar.sync`, a tensor or
//! bulk copy, a `tcgen05` instruction, a cluster barrier); whether a pending tensor copy
//! completes at the end of this round or later, and which. [`explore`] walks that tree depth
//! first, re-running the kernel from the start for each schedule with a prefix of forced
//! choices (stateless: nothing is saved between runs), and stops at the first schedule that
//! gives a hazard finding, a deadlock or a run error, or after `max_schedules` schedules. The
//! schedule is printed as a replay token, the choice index at each choice point joined by
//! dots (trailing zeros left out), which [`replay`] runs again.

use std::cell::RefCell;
use std::rc::Rc;

use super::sleep::{Path, Recorder};
use super::tracker::Tracker;
use super::{Finding, Report};
use crate::error::RunError;
use crate::host::{launch_with, Arg, Config, Hooks};
use crate::module::Module;
use crate::schedule::{Choices, Step};

/// What one explored schedule gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Its findings (one per kind, line and other line).
    pub findings: Vec<Finding>,
    /// The run's deadlock or error, if it did not finish.
    pub error: Option<RunError>,
    /// The replay token of the schedule.
    pub replay: String,
    /// Its choice points.
    pub choice_points: usize,
}

impl Outcome {
    /// Whether the schedule showed a problem (a finding, a deadlock or a run error).
    #[must_use]
    pub fn failed(&self) -> bool {
        !self.findings.is_empty() || self.error.is_some()
    }
}

/// What an exploration did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// Schedules run.
    pub schedules: u32,
    /// Distinct choice points of the tree visited.
    pub choice_points: u64,
    /// The most choice points of one schedule.
    pub depth: usize,
    /// Whether every schedule of the tree was run (false when a counterexample stopped the
    /// walk or the bound cut it).
    pub exhausted: bool,
    /// Whether the bound `max_schedules` stopped the walk before the tree was exhausted.
    pub cut: bool,
    /// The first schedule that showed a problem.
    pub counterexample: Option<Outcome>,
    /// The bound on schedules the walk ran under.
    pub max_schedules: u32,
}

/// The replay token of the choices `made`: indices joined by dots, trailing zeros left out
/// (`0` when every choice was the first).
#[must_use]
pub fn token(made: &[(u32, u32)]) -> String {
    let end = made.iter().rposition(|&(c, _)| c != 0).map_or(0, |i| i + 1);
    if end == 0 {
        return "0".into();
    }
    let parts: Vec<String> = made[..end].iter().map(|(c, _)| c.to_string()).collect();
    parts.join(".")
}

/// Reads a replay token: choice indices joined by dots.
///
/// # Errors
/// [`RunError::Argument`] naming the part that is not a number.
pub fn parse_token(text: &str) -> Result<Vec<u32>, RunError> {
    text.trim()
        .split('.')
        .map(|p| {
            p.parse::<u32>().map_err(|_| RunError::Argument {
                param: "--replay".into(),
                why: format!(
                    "`{text}`: `{p}` is not a choice index (a replay token is choice indices \
                     joined by dots, as printed by --exhaustive)"
                ),
            })
        })
        .collect()
}

/// Whether `e` ends a run whatever the schedule (a launch that cannot start, a construct not
/// modelled): such errors are returned, not counterexamples.
fn fatal(e: &RunError) -> bool {
    matches!(
        e,
        RunError::Argument { .. }
            | RunError::Launch { .. }
            | RunError::NoKernel { .. }
            | RunError::Unsupported { .. }
            | RunError::TensorMap { .. }
    )
}

/// Runs one schedule with `forced` choices under the hazard tracker (with `log`, each step's
/// footprint recorded into it: [`super::sleep`]).
fn run_one(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    forced: Vec<u32>,
    log: Option<Rc<RefCell<Vec<Step>>>>,
) -> Result<(Outcome, Choices), RunError> {
    let mut tracker = Tracker::default();
    let mut choices = Choices::default();
    choices.forced = forced;
    choices.steps.clone_from(&log);
    let result = match log {
        Some(log) => {
            let mut recorder = Recorder {
                inner: &mut tracker,
                log,
            };
            let hooks = Hooks {
                observer: Some(&mut recorder),
                seed: None,
                choices: Some(&mut choices),
                approx: Default::default(),
            };
            launch_with(module, kernel, config, args, hooks)
        }
        None => {
            let hooks = Hooks {
                observer: Some(&mut tracker),
                seed: None,
                choices: Some(&mut choices),
                approx: Default::default(),
            };
            launch_with(module, kernel, config, args, hooks)
        }
    };
    let error = match result {
        Ok(_) => None,
        Err(e) if fatal(&e) => return Err(e),
        Err(e) => Some(e),
    };
    let mut findings: Vec<Finding> = Vec::new();
    for f in tracker.findings {
        let key = (f.kind, f.line, f.other_line);
        if !findings
            .iter()
            .any(|g| (g.kind, g.line, g.other_line) == key)
        {
            findings.push(f);
        }
    }
    let outcome = Outcome {
        findings,
        error,
        replay: token(&choices.made),
        choice_points: choices.made.len(),
    };
    Ok((outcome, choices))
}

/// Walks the schedules of `kernel` depth first (choice 0 first at every choice point, the
/// deepest choice point varied first), at most `max_schedules` of them, and stops at the first
/// that shows a problem, with the partial-order reduction of [`super::sleep`] (sleep sets:
/// no branch to a warp whose step the walk already ran there and nothing dependent has run
/// since). `args` receives the first schedule's buffers.
///
/// # Errors
/// A launch that cannot start or a construct not modelled ([`RunError::Argument`],
/// [`RunError::Launch`], [`RunError::NoKernel`], [`RunError::Unsupported`],
/// [`RunError::TensorMap`]); any other run error is a counterexample.
pub fn explore(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    max_schedules: u32,
) -> Result<Exploration, RunError> {
    explore_with(module, kernel, config, args, max_schedules, true)
}

/// [`explore`], with the partial-order reduction (`reduce`) or without it (every option of
/// every choice point).
///
/// # Errors
/// As [`explore`].
pub fn explore_with(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    max_schedules: u32,
    reduce: bool,
) -> Result<Exploration, RunError> {
    let original = args.to_vec();
    let mut x = Exploration {
        schedules: 0,
        choice_points: 0,
        depth: 0,
        exhausted: false,
        cut: false,
        counterexample: None,
        max_schedules,
    };
    let mut forced: Vec<u32> = Vec::new();
    let mut path = Path::default();
    loop {
        let mut scratch = original.clone();
        let target: &mut [Arg] = if x.schedules == 0 { args } else { &mut scratch };
        // The forced prefix's choice points are in the tree already (the last one with another
        // option taken).
        let shared = forced.len();
        let log = reduce.then(|| Rc::new(RefCell::new(Vec::new())));
        let (outcome, choices) = run_one(module, kernel, config, target, forced, log.clone())?;
        x.schedules += 1;
        x.choice_points += (choices.made.len() - shared.min(choices.made.len())) as u64;
        x.depth = x.depth.max(choices.made.len());
        if outcome.failed() {
            x.counterexample = Some(outcome);
            return Ok(x);
        }
        // The deepest choice point with an option not yet taken (and, reduced, not asleep).
        let next = match &log {
            Some(log) => {
                path.record(shared, &choices.made, &log.borrow());
                path.backtrack()
            }
            None => choices
                .made
                .iter()
                .rposition(|&(c, n)| c + 1 < n)
                .map(|i| (i, choices.made[i].0 + 1)),
        };
        let Some((i, c)) = next else {
            x.exhausted = true;
            return Ok(x);
        };
        if x.schedules >= max_schedules {
            x.cut = true;
            return Ok(x);
        }
        forced = choices.made[..i].iter().map(|&(c, _)| c).collect();
        forced.push(c);
    }
}

/// Runs the one schedule of replay token `token` under the hazard tracker; `args` receives its
/// buffers.
///
/// # Errors
/// [`RunError::Argument`] when the token is not choice indices, names an index that is not an
/// option at its choice point, or has more choices than the run has choice points (a token of
/// another kernel or launch); and the errors of [`explore`].
pub fn replay(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    token: &str,
) -> Result<Outcome, RunError> {
    let forced = parse_token(token)?;
    let n = forced.len();
    let (outcome, choices) = run_one(module, kernel, config, args, forced, None)?;
    let misfit = |why: String| RunError::Argument {
        param: "--replay".into(),
        why: format!("`{token}`: {why}; not a schedule of this kernel and launch"),
    };
    if let Some((at, c, options)) = choices.misfit {
        return Err(misfit(format!(
            "choice {c} at choice point {at} (0-based), which has {options} options"
        )));
    }
    let trailing = n > choices.made.len() && token != "0";
    if trailing {
        return Err(misfit(format!(
            "{n} choices, but the run has {} choice points",
            choices.made.len()
        )));
    }
    Ok(outcome)
}

/// How to walk a kernel's schedules: every one (at most `max_schedules`), or one replay token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walk {
    /// [`explore`] with this bound on the schedules run.
    Exhaustive(u32),
    /// [`replay`] of this token.
    Replay(String),
}

/// What a walk gave: an exploration, or the one replayed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walked {
    /// The exploration of [`Walk::Exhaustive`].
    Explored(Exploration),
    /// The schedule of [`Walk::Replay`].
    Replayed(Outcome),
}

impl Walked {
    /// The schedule to show: the counterexample of an exploration (none when clean), or the
    /// replayed schedule.
    #[must_use]
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Walked::Explored(x) => x.counterexample.as_ref(),
            Walked::Replayed(o) => Some(o),
        }
    }

    /// Whether the walk showed a problem (a finding, a deadlock or a run error).
    #[must_use]
    pub fn failed(&self) -> bool {
        self.outcome().is_some_and(Outcome::failed)
    }

    /// Schedules run, distinct choice points, the most choice points of one schedule, and
    /// whether every schedule was run (a replay: one schedule, never exhaustive).
    #[must_use]
    pub fn figures(&self) -> (u32, u64, usize, bool) {
        match self {
            Walked::Explored(x) => (x.schedules, x.choice_points, x.depth, x.exhausted),
            Walked::Replayed(o) => (1, o.choice_points as u64, o.choice_points, false),
        }
    }

    /// Whether `max_schedules` stopped the walk first.
    #[must_use]
    pub fn cut(&self) -> bool {
        matches!(self, Walked::Explored(x) if x.cut)
    }

    /// The walk as a [`Report`]: the shown schedule's findings (seed 0 each), the schedules run
    /// as runs, its deadlock.
    #[must_use]
    pub fn report(&self) -> Report {
        let findings = self.outcome().map_or_else(Vec::new, |o| o.findings.clone());
        let deadlock = self
            .outcome()
            .and_then(|o| o.error.clone())
            .filter(|e| matches!(e, RunError::Deadlock { .. }));
        Report {
            seeds: vec![0; findings.len()],
            findings,
            runs: self.figures().0,
            stats: None,
            deadlock,
            error: None,
        }
    }
}

/// Runs `how` on `kernel`: [`explore`] or [`replay`].
///
/// # Errors
/// Those of [`explore`] and [`replay`].
pub fn walk(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    how: &Walk,
) -> Result<Walked, RunError> {
    match how {
        Walk::Exhaustive(max) => explore(module, kernel, config, args, *max).map(Walked::Explored),
        Walk::Replay(token) => replay(module, kernel, config, args, token).map(Walked::Replayed),
    }
}
