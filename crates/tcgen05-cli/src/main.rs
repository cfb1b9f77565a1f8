//! `tcgen05`: decode, encode and check NVIDIA Blackwell tcgen05 descriptors from the command line.
//!
//! A thin layer over the `tcgen05` crate: every rule and every message comes from there; this
//! program parses arguments, reads values (one, or a stream of them), and prints tables or JSON.
//! `main` reads the command line and turns the outcome into an exit status; the subcommands are
//! in `tcgen05_cli::commands`.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

use tcgen05_cli::args::number;
use tcgen05_cli::args::{flags, scan, Cli, ColorChoice};
use tcgen05_cli::commands::command_line::{deprecated_json, deprecated_line, scan_warnings};
use tcgen05_cli::commands::{self, Failure};
use tcgen05_cli::render::{self, Ctx, Status, Style};

fn main() -> ExitCode {
    // Old spellings of flags become the new ones first, each with a warning (flags.rs).
    let (argv, deprecated) = flags::rewrite(std::env::args_os().skip(1).collect());
    let json = argv
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--json");
    let err_style =
        Style::new(io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let mut dep_text = String::new();
    let mut dep_json = Vec::new();
    for d in &deprecated {
        let mut j = String::new();
        if deprecated_line(d, &mut dep_text, err_style).is_ok()
            && deprecated_json(d, &mut j).is_ok()
        {
            dep_json.push((false, j));
        }
    }
    let program = std::env::args_os()
        .next()
        .unwrap_or_else(|| "tcgen05".into());
    let args = match Cli::try_parse_from(std::iter::once(program).chain(argv.iter().cloned())) {
        Ok(a) => a,
        Err(e) => return usage_failure(&e, json, &dep_text, &dep_json),
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let colour = |terminal: bool| match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && !no_color,
    };
    let ctx = Ctx {
        json: args.json,
        out: Style::new(colour(io::stdout().is_terminal())),
        err: Style::new(colour(io::stderr().is_terminal())),
    };
    // Warnings about the command line itself go first on stderr, and into the object of a
    // failing --json run.
    let mut warnings = Vec::new();
    if let Ok(mut w) = scan_warnings(&scan::scan(&argv), ctx.err) {
        let _ = io::stderr().lock().write_all(dep_text.as_bytes());
        let _ = io::stderr().lock().write_all(w.text.as_bytes());
        w.json.splice(0..0, dep_json);
        warnings = w.json;
    }
    match commands::run(ctx, &args.command, &warnings) {
        Ok(status) => ExitCode::from(status.code()),
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            let _ = writeln!(io::stderr(), "error: input/output: {e}");
            ExitCode::from(Status::Usage.code())
        }
        Err(Failure::Fmt) => {
            let _ = writeln!(io::stderr(), "error: internal formatting error");
            ExitCode::from(Status::Usage.code())
        }
    }
}

/// A command line clap refused. Help and version print and exit 0. A number too big for its
/// field is a rule error like any other (exit status 1: field, value as typed, width and
/// source); anything else is a usage error (exit status 2). With `--json` the refusal is also
/// one JSON object on stdout, with `errors` and `warnings`.
fn usage_failure(
    e: &clap::Error,
    json: bool,
    dep_text: &str,
    dep_json: &[(bool, String)],
) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let _ = io::stderr().lock().write_all(dep_text.as_bytes());
    let ctx_str = |k| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    // `--num <N>` -> `num`; `<VALUE|->` -> `value`.
    let field = ctx_str(ContextKind::InvalidArg).map(|a| {
        let name = a.split(' ').next().unwrap_or(&a);
        let name = name.trim_start_matches('-').trim_matches(['<', '>']);
        let name = name.split('|').next().unwrap_or(name);
        name.to_ascii_lowercase().replace('-', "_")
    });
    let too_big = if e.kind() == ErrorKind::ValueValidation {
        std::error::Error::source(e)
            .and_then(|s| s.downcast_ref::<number::ArgError>())
            .and_then(|a| match a {
                number::ArgError::TooBig { bits, source } => Some((*bits, *source)),
                number::ArgError::Other(_) => None,
            })
    } else {
        None
    };
    let field = field.unwrap_or_default();
    let (code, message, source) = match too_big {
        Some((bits, source)) => {
            let typed = ctx_str(ContextKind::InvalidValue).unwrap_or_default();
            let max = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            let message = format!(
                "{typed} does not fit its field (at most {max:#x}, {bits} bits)",
                typed = typed.trim_ascii()
            );
            let style = Style::new(io::stderr().is_terminal());
            let _ = writeln!(
                io::stderr(),
                "{}error{}: {field} = {typed}: {message} ({source})",
                style.red(),
                style.reset(),
                typed = typed.trim_ascii()
            );
            (Status::Rule.code(), message, source)
        }
        None => {
            let _ = e.print();
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("");
            let message = first.strip_prefix("error: ").unwrap_or(first).to_string();
            (Status::Usage.code(), message, "tcgen05 --help")
        }
    };
    if json {
        let mut o = String::from("{\"valid\":false,\"errors\":[{\"field\":");
        let _ = render::json_str(&mut o, &field);
        o.push_str(",\"message\":");
        let _ = render::json_str(&mut o, &message);
        o.push_str(",\"source\":");
        let _ = render::json_str(&mut o, source);
        o.push_str("}],\"warnings\":[");
        let items: Vec<&str> = dep_json.iter().map(|(_, j)| j.as_str()).collect();
        o.push_str(&items.join(","));
        o.push_str("]}\n");
        let _ = io::stdout().lock().write_all(o.as_bytes());
    }
    ExitCode::from(code)
}
