//! `tcgen05`: decode, encode and check NVIDIA Blackwell tcgen05 descriptors from the command line.
//!
//! A thin layer over the `tcgen05` crate: every rule and every message comes from there; this
//! program parses arguments, reads values (one, or a stream of them), and prints tables or JSON.

use std::fmt;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::Parser;

use tcgen05_cli::args::number::{self, Operand, Stdin};
use tcgen05_cli::args::numerics::Numerics;
use tcgen05_cli::args::{flags, scan, Cli, ColorChoice, Command, Decode, Encode, Solve};
use tcgen05_cli::commands::command_line::{deprecated_json, deprecated_line, scan_warnings};
use tcgen05_cli::commands::{
    batch, check, emulate, idesc, layout, numerics, ptx, resolve_target, shapes, smem, tmem, zmask,
};
use tcgen05_cli::render::{self, Ctx, Report, Status, Style};

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
    if let Ok(mut w) = scan_warnings(&scan::scan(&argv), ctx.err) {
        let _ = io::stderr().lock().write_all(dep_text.as_bytes());
        let _ = io::stderr().lock().write_all(w.text.as_bytes());
        w.json.splice(0..0, dep_json);
        let _ = ARG_WARNINGS.set(w.json);
    }
    match run(ctx, &args.command) {
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

/// Why a command could not finish.
enum Failure {
    Io(io::Error),
    Fmt,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

impl From<fmt::Error> for Failure {
    fn from(_: fmt::Error) -> Failure {
        Failure::Fmt
    }
}

/// The JSON form of [`scan::scan`]'s warnings, for [`emit`].
static ARG_WARNINGS: OnceLock<Vec<(bool, String)>> = OnceLock::new();

/// Prints a single-value report: stdout first, then stderr.
fn emit(ctx: Ctx, rep: Result<Report, fmt::Error>) -> Result<Status, Failure> {
    let mut rep = rep?;
    if let Some(w) = ARG_WARNINGS.get() {
        rep.json_problems.splice(0..0, w.iter().cloned());
    }
    if ctx.json {
        rep.json_failure()?;
        if let Some(w) = ARG_WARNINGS.get() {
            add_warnings(&mut rep.out, w);
        }
    }
    rep.repeat_counts(ctx.err)?;
    let mut out = io::stdout().lock();
    out.write_all(rep.out.as_bytes())?;
    out.flush()?;
    let mut err = io::stderr().lock();
    err.write_all(rep.err.as_bytes())?;
    err.flush()?;
    Ok(rep.status)
}

/// Puts the command line's warnings into a `--json` object that does not have them yet: into
/// its top-level `warnings` array, or as a new `warnings` key.
fn add_warnings(out: &mut String, warnings: &[(bool, String)]) {
    let items: Vec<&str> = warnings
        .iter()
        .filter(|(e, j)| !*e && !out.contains(j.as_str()))
        .map(|(_, j)| j.as_str())
        .collect();
    let body = out.trim_end();
    if items.is_empty() || !body.starts_with('{') || !body.ends_with('}') {
        return;
    }
    let mut depth = 0i32;
    let mut in_str = false;
    let mut esc = false;
    let mut at = None;
    for (i, c) in body.char_indices() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, '\\') => esc = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                if depth == 1 && body[i..].starts_with("\"warnings\":[") {
                    at = Some(i + "\"warnings\":[".len());
                }
            }
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
    }
    let joined = items.join(",");
    *out = match at {
        Some(i) => {
            let sep = if body[i..].starts_with(']') { "" } else { "," };
            format!("{}{joined}{sep}{}\n", &body[..i], &body[i..])
        }
        None => {
            let inner = &body[..body.len() - 1];
            let sep = if inner.trim_end().ends_with('{') {
                ""
            } else {
                ","
            };
            format!("{inner}{sep}\"warnings\":[{joined}]}}\n")
        }
    };
}

/// Runs batch decoders (one per thread, made by `make`) over standard input.
fn batch<D: batch::Decoder>(
    make: impl Fn() -> D + Send + Sync + 'static,
    ctx: Ctx,
) -> Result<Status, Failure> {
    let input = BufReader::with_capacity(1 << 16, io::stdin());
    let out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let err = BufWriter::new(io::stderr().lock());
    Ok(batch::run(make, input, out, err, ctx)?)
}

fn run(ctx: Ctx, command: &Command) -> Result<Status, Failure> {
    match command {
        Command::Decode(Decode::Smem(a)) => match a.value {
            Operand::Value(v) => emit(ctx, smem::decode(ctx, v, a.target)),
            Operand::Other(Stdin) => {
                let mut rep = Report::default();
                match resolve_target(a.target, &mut rep, ctx.err)? {
                    Some(t) => batch(move || smem::Batch::new(t), ctx),
                    None => emit(ctx, Ok(rep)),
                }
            }
        },
        Command::Decode(Decode::Idesc(a)) => {
            let mut rep = Report::default();
            let Some(mma) = idesc::mma_of(a.cta_group, a.ws, a.target, &mut rep, ctx.err)? else {
                return emit(ctx, Ok(rep));
            };
            match a.value {
                // Operands of decode idesc are parsed as 32-bit values.
                Operand::Value(v) => emit(ctx, idesc::decode(ctx, v as u32, a.kind, mma)),
                Operand::Other(Stdin) => {
                    let kind = a.kind;
                    batch(move || idesc::Batch::new(kind, mma), ctx)
                }
            }
        }
        Command::Decode(Decode::Zmask(a)) => {
            let mut cli = Vec::new();
            let shape = zmask::shape_of(a.shape, &mut cli);
            if !cli.is_empty() {
                let mut rep = Report::default();
                rep.problems(&cli, ctx.err)?;
                return emit(ctx, Ok(rep));
            }
            match a.value {
                Operand::Value(v) => emit(ctx, zmask::decode(ctx, v, shape, a.max_shift)),
                Operand::Other(Stdin) => {
                    let max_shift = a.max_shift;
                    batch(move || zmask::Batch::new(shape, max_shift), ctx)
                }
            }
        }
        Command::Encode(Encode::Smem(a)) => emit(ctx, smem::encode(ctx, a)),
        Command::Encode(Encode::Idesc(a)) => emit(ctx, idesc::encode(ctx, a)),
        Command::Encode(Encode::Zmask(a)) => emit(ctx, zmask::encode(ctx, a)),
        Command::Solve(Solve::Zmask(a)) => emit(ctx, zmask::solve_cmd(ctx, a)),
        Command::Shapes(a) => emit(ctx, shapes::run(ctx, a)),
        Command::Layout(l) => emit(ctx, layout::run(ctx, l)),
        Command::Ptx(c) => emit(ctx, ptx::run(ctx, c)),
        Command::Tmem(t) => emit(ctx, tmem::run(ctx, t)),
        Command::Numerics(Numerics::Dot(a)) => emit(ctx, numerics::dot(ctx, a)),
        Command::Numerics(Numerics::Error(a)) => emit(ctx, numerics::error(ctx, a)),
        Command::Check(a) => Ok(check::run(ctx, a)?),
        Command::Emulate(a) => Ok(emulate::run(ctx, a)?),
    }
}
