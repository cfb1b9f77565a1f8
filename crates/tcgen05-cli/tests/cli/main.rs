//! End-to-end tests of the `tcgen05` command: the real binary, its output and exit status.
//!
//! One test binary (modules below) so that CI links once. Every run goes through [`run_with`],
//! which also checks that stderr never shows a panic or a backtrace.

mod batch;
mod check;
mod check_block_scale;
mod check_hazards;
mod check_versions;
mod emulate;
mod errors;
mod explain;
mod flags;
mod help;
mod idesc;
mod layout;
mod layout_sf;
mod numerics;
mod ptx;
mod readme;
mod run;
mod run_approx;
mod run_explore;
mod run_hazards;
mod shapes;
mod smem;
mod snapshots;
mod tmem;
mod zmask;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// What one run of the command gave.
#[derive(Debug)]
pub(crate) struct Run {
    /// Exit status.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// The standard output as one JSON value.
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }

    /// Each line of standard output as a JSON value.
    pub(crate) fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("line is not JSON ({e}): {l}"))
            })
            .collect()
    }

    /// Asserts the exit status, showing the output when it differs.
    #[track_caller]
    pub(crate) fn code(&self, want: i32) -> &Run {
        assert_eq!(self.code, want, "exit status\n{self:#?}");
        self
    }

    /// The stderr lines, each of which must start with `error:` or `warning:`.
    pub(crate) fn stderr_lines(&self) -> Vec<&str> {
        let lines: Vec<&str> = self.stderr.lines().collect();
        for l in &lines {
            assert!(
                l.starts_with("error:") || l.starts_with("warning:"),
                "stderr line neither error nor warning: {l:?}"
            );
        }
        lines
    }
}

/// Runs `tcgen05 ARGS`.
pub(crate) fn run(args: &[&str]) -> Run {
    run_with(args, None)
}

/// Runs `tcgen05 ARGS` with `input` on standard input.
pub(crate) fn run_stdin(args: &[&str], input: &[u8]) -> Run {
    run_with(args, Some(input))
}

/// Runs `tcgen05 ARGS` with `input` on standard input and extra environment variables.
pub(crate) fn run_stdin_env(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> Run {
    run_in(args, Some(input), env)
}

fn run_with(args: &[&str], input: Option<&[u8]>) -> Run {
    run_in(args, input, &[])
}

fn run_in(args: &[&str], input: Option<&[u8]>, env: &[(&str, &str)]) -> Run {
    let mut cmd = cargo_bin_cmd!("tcgen05");
    cmd.envs(env.iter().copied());
    cmd.args(args)
        .env_remove("NO_COLOR")
        .env("RUST_BACKTRACE", "1");
    // Always give a standard input, so that a batch run never waits on the terminal.
    cmd.write_stdin(input.unwrap_or_default().to_vec());
    let out = cmd.output().expect("the command runs");
    let r = Run {
        code: out.status.code().expect("an exit status, not a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !r.stderr.contains("panicked") && !r.stderr.contains("RUST_BACKTRACE"),
        "panic on {args:?}:\n{}",
        r.stderr
    );
    assert!(
        !r.stdout.contains('\x1b') && !r.stderr.contains('\x1b') || args.contains(&"always"),
        "colour codes without a terminal on {args:?}"
    );
    r
}

/// The `errors` of a decode object as `(field, source)` pairs.
pub(crate) fn errors_of(v: &Value) -> Vec<(String, String)> {
    problems_of(v, "errors")
}

/// The `warnings` of a decode object as `(field, source)` pairs.
pub(crate) fn warnings_of(v: &Value) -> Vec<(String, String)> {
    problems_of(v, "warnings")
}

fn problems_of(v: &Value, key: &str) -> Vec<(String, String)> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} array in {v}"))
        .iter()
        .map(|e| {
            let obj = e.as_object().expect("problem object");
            assert_eq!(obj.len(), 3, "problem keys: {e}");
            assert!(obj["message"].as_str().is_some_and(|m| !m.is_empty()));
            (
                e["field"].as_str().expect("field").to_string(),
                e["source"].as_str().expect("source").to_string(),
            )
        })
        .collect()
}

/// True when some problem names `field` and cites `source` (how it ends, such as "R3" or "Table 40").
pub(crate) fn has(problems: &[(String, String)], field: &str, source: &str) -> bool {
    problems
        .iter()
        .any(|(f, s)| f == field && s.ends_with(source))
}
