//! The README's first steps, run as a new user runs them: its first command is `tcgen05 check`
//! on a committed sample kernel and prints what the README shows; the broken kernel's output is
//! the README's; the intro and `tcgen05 --help` name every subcommand, `check` first.

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

use crate::run;

/// The repository's root (the tests run in the crate's directory).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("README.md reads")
}

/// The fenced blocks of `text` after the heading `heading`, as (info string, body) pairs.
fn blocks_after(text: &str, heading: &str) -> Vec<(String, String)> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("README has no {heading:?}"));
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text[start..].lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.to_string(), String::new())),
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// Runs the command in `dir` and returns (exit status, stdout).
fn run_in_dir(args: &[&str], dir: &Path) -> (i32, String) {
    let out = cargo_bin_cmd!("tcgen05")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the command runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        out.status.code().expect("an exit status"),
        String::from_utf8(out.stdout).expect("UTF-8"),
    )
}

/// Asserts that `got` is `shown`, where a line `...` in `shown` stands for any lines.
#[track_caller]
fn assert_shown(shown: &str, got: &str, what: &str) {
    let (head, tail) = match shown.split_once("...\n") {
        Some((h, t)) => (h, t),
        None => (shown, ""),
    };
    let ok = if tail.is_empty() && !shown.contains("...\n") {
        got == shown
    } else {
        got.starts_with(head) && got.ends_with(tail) && got.len() >= head.len() + tail.len()
    };
    assert!(
        ok,
        "{what}: the README shows\n{shown}\nbut the command prints\n{got}\n(update the README block \
         with the real output)"
    );
}

#[test]
fn first_command_is_check_on_a_sample_kernel_and_prints_the_readme_output() {
    let text = readme();
    let blocks = blocks_after(&text, "## Two commands");
    let (info, commands) = &blocks[0];
    assert_eq!(info, "sh");
    let cmds: Vec<&str> = commands
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(cmds.len(), 2, "two commands: {cmds:?}");
    // The second command stays the whole test suite.
    assert_eq!(cmds[1], "scripts/test-all.sh");
    // The first builds with its progress visible (no -q) and runs `check` on a committed kernel.
    let prefix = "cargo run --release -p tcgen05-cli -- ";
    let args = cmds[0]
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("first command {:?} is not {prefix}...", cmds[0]));
    assert!(!cmds[0]
        .split_whitespace()
        .any(|w| w == "-q" || w == "--quiet"));
    let args: Vec<&str> = args.split_whitespace().collect();
    assert_eq!(args[0], "check");
    assert!(root().join(args[1]).is_file(), "{} is committed", args[1]);
    let (info, shown) = &blocks[1];
    assert_eq!(info, "text");
    let (code, got) = run_in_dir(&args, &root());
    assert_eq!(code, 0, "{got}");
    assert_shown(shown, &got, "the first command");
    assert!(text.contains("cargo install --locked --path crates/tcgen05-cli"));
}

#[test]
fn broken_kernel_example_prints_the_readme_output() {
    let text = readme();
    let blocks = blocks_after(&text, "## Two commands");
    let (_, session) = blocks
        .iter()
        .find(|(_, b)| b.starts_with("$ sed "))
        .expect("the broken-kernel session");
    let mut lines = session.lines();
    // $ sed 's/FROM/TO/' FILE > broken.ptx
    let sed = lines.next().expect("sed line");
    let (expr, rest) = sed
        .strip_prefix("$ sed 's/")
        .and_then(|r| r.split_once("/' "))
        .expect("sed 's/FROM/TO/' FILE > OUT");
    let (from, to) = expr.trim_end_matches('/').split_once('/').expect("FROM/TO");
    let (file, out) = rest.split_once(" > ").expect("FILE > OUT");
    let check = lines.next().expect("check line");
    assert_eq!(check, format!("$ tcgen05 check {out}"));
    let shown: String = lines.map(|l| format!("{l}\n")).collect();

    let original = std::fs::read_to_string(root().join(file)).expect("sample kernel");
    assert!(original.contains(from), "{file} contains {from}");
    let dir = std::env::temp_dir().join(format!("tcgen05-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join(out), original.replace(from, to)).expect("write");
    let (code, got) = run_in_dir(&["check", out], &dir);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 1, "{got}");
    assert_shown(&shown, &got, "the broken kernel");
}

/// The subcommands `tcgen05 --help` lists, in its order.
fn help_subcommands() -> Vec<String> {
    let r = run(&["--help"]);
    r.code(0);
    r.stdout
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands: list")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

#[test]
fn help_and_readme_intro_name_every_subcommand_check_first() {
    let cmds = help_subcommands();
    assert_eq!(cmds.len(), 12, "{cmds:?}");
    assert_eq!(cmds[0], "check", "{cmds:?}");
    let r = run(&["--help"]);
    for c in &cmds {
        assert!(r.stdout.contains(&format!("`{c}`")), "long help names {c}");
    }
    let text = readme();
    let intro = &text[..text.find("## Two commands").expect("Two commands")];
    let first = intro.find("- `check`").expect("the intro lists `check`");
    for c in &cmds {
        let at = intro
            .find(&format!("`{c}`"))
            .unwrap_or_else(|| panic!("the README intro does not name `{c}`"));
        assert!(at >= first, "`check` is named first");
    }
}
