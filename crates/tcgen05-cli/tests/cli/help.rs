//! Every subcommand's `--help` carries a worked example.

use crate::run;

#[test]
fn every_help_has_an_example() {
    for args in [
        &[][..],
        &["decode"][..],
        &["decode", "smem"][..],
        &["decode", "idesc"][..],
        &["decode", "zmask"][..],
        &["encode"][..],
        &["encode", "smem"][..],
        &["encode", "idesc"][..],
        &["encode", "zmask"][..],
        &["solve"][..],
        &["solve", "zmask"][..],
        &["shapes"][..],
    ] {
        for h in ["--help", "-h"] {
            let r = run(&[args, &[h]].concat());
            r.code(0);
            assert!(r.stdout.contains("Example"), "{args:?} {h}:\n{}", r.stdout);
            assert!(r.stdout.contains("tcgen05 "), "{args:?} {h}");
        }
    }
    let r = run(&["decode", "smem", "--help"]);
    assert!(r.stdout.contains("Batch mode"));
    assert!(r.stdout.contains("Exit status"));
    let r = run(&["--version"]);
    r.code(0);
    assert!(r.stdout.starts_with("tcgen05 "));
    // No subcommand: usage error.
    run(&[]).code(2);
}

#[test]
fn help_examples_run() {
    // The commands shown in the help texts do what the help says.
    run(&["decode", "smem", "0x4000404000010040"]).code(0);
    run(&[
        "decode",
        "idesc",
        "0x08100490",
        "--kind",
        "f16",
        "--cta-group",
        "1",
        "--target",
        "sm_100a",
        "--json",
    ])
    .code(0);
    run(&[
        "decode",
        "zmask",
        "0x0203028301020100",
        "--m",
        "32",
        "--n",
        "64",
    ])
    .code(0);
    run(&[
        "decode",
        "zmask",
        "0x0003028000000000",
        "--m",
        "128",
        "--n",
        "64",
        "--max-shift",
        "0",
        "--json",
    ])
    .code(0);
    let v = run(&[
        "encode",
        "smem",
        "--start-address",
        "0x400",
        "--lbo",
        "16",
        "--sbo",
        "1024",
        "--swizzle",
        "64B",
        "--pattern-start",
        "0x500",
        "--json",
    ])
    .code(0)
    .json();
    assert!(v["hex"].is_string());
    let v = run(&[
        "encode",
        "idesc",
        "--kind",
        "mxf4nvf4",
        "--m",
        "128",
        "--n",
        "256",
        "--a-type",
        "e2m1",
        "--b-type",
        "e2m1",
        "--scale-type",
        "ue4m3",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(v["hex"], "0x08400480");
    let v = run(&[
        "encode",
        "zmask",
        "--skip-span",
        "2",
        "--use-span",
        "3",
        "--first-span",
        "1,1,0,0",
        "--start-count",
        "0,1,2,1",
        "--column-shift",
        "2",
        "--m",
        "32",
        "--n",
        "64",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(v["hex"], "0x0203028301020100");
    let v = run(&[
        "solve",
        "zmask",
        "--m",
        "128",
        "--n",
        "64",
        "--mask",
        "0111000011100001110000111000011100001110000111000011100001110000",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(v["hex"], "0x0003028000000000");
    run(&["shapes", "--kind", "f16", "--cta-group", "2", "--sparse"]).code(0);
    run(&["shapes", "--kind", "mxf4", "--target", "sm_103a", "--json"]).code(0);
}

/// The subcommands under `path`, read from its `--help` ("Commands:" section).
fn subcommands(path: &[String]) -> Vec<String> {
    let args: Vec<&str> = path.iter().map(String::as_str).chain(["--help"]).collect();
    let help = run(&args).stdout;
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Every command line (`$ tcgen05 ...` or `tcgen05 ...`, with `\` continuations) of a help text, each with the
/// first line shown after it (when it is output, not another command), and the exit status
/// its `# exit N` comment gives (default 0).
fn examples(help: &str) -> Vec<(String, Option<String>, i32)> {
    let lines: Vec<&str> = help.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let Some(cmd) = t
            .strip_prefix("$ tcgen05 ")
            .or_else(|| t.strip_prefix("tcgen05 "))
        else {
            i += 1;
            continue;
        };
        let mut cmd = cmd.to_string();
        while cmd.ends_with('\\') && i + 1 < lines.len() {
            cmd.pop();
            i += 1;
            cmd.push_str(lines[i].trim());
            cmd.push(' ');
        }
        i += 1;
        let (cmd, code) = match cmd.split_once("# exit ") {
            Some((c, rest)) => (c.to_string(), rest[..1].parse().expect("exit status")),
            None => (cmd, 0),
        };
        let shown = lines
            .get(i)
            .map(|l| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with('$'))
            .map(str::to_string);
        out.push((cmd, shown, code));
    }
    out
}

/// Issue 16 D8: every leaf subcommand's `--help` has a worked example; each example that is a
/// plain command runs with the status it states, and a one-line output shown whole is what it
/// prints.
#[test]
fn every_subcommand_has_a_worked_example_that_runs() {
    let mut todo = vec![Vec::<String>::new()];
    let mut leaves = 0;
    while let Some(path) = todo.pop() {
        let subs = subcommands(&path);
        if !subs.is_empty() {
            todo.extend(subs.into_iter().map(|s| [&path[..], &[s]].concat()));
            continue;
        }
        leaves += 1;
        let args: Vec<&str> = path.iter().map(String::as_str).chain(["--help"]).collect();
        let help = run(&args).stdout;
        assert!(help.contains("Example"), "{path:?}: no example:\n{help}");
        let ex = examples(&help);
        assert!(
            !ex.is_empty(),
            "{path:?}: no `tcgen05` command in its example"
        );
        for (cmd, shown, code) in ex {
            // Shell plumbing, quoted arguments and files are left to the reader.
            let files = [".bin", ".npy", ".ptx", ".svg", ".txt", ".json", ".cu"];
            if cmd.contains(['>', '<', '|', '\'', '"'])
                || cmd.contains(" - ")
                || files.iter().any(|f| cmd.contains(f))
            {
                continue;
            }
            let words: Vec<&str> = cmd.split_whitespace().collect();
            let r = run(&words);
            assert_eq!(r.code, code, "{path:?}: `tcgen05 {cmd}`\n{r:#?}");
            if let Some(shown) = shown.filter(|s| !s.contains("...") && !s.contains('{')) {
                let first = r.stdout.lines().next().unwrap_or("").trim();
                if first.len() == shown.len() || shown.starts_with("tcgen05.") {
                    assert_eq!(first, shown, "{path:?}: `tcgen05 {cmd}`");
                }
            }
        }
    }
    assert!(leaves >= 30, "only {leaves} subcommands found");
}
