//! `tcgen05`: decode, encode and check NVIDIA Blackwell tcgen05 descriptors from the command line.
//!
//! A thin layer over the `tcgen05` crate: every rule and every message comes from there; this
//! program parses arguments, reads values (one, or a stream of them), and prints tables or JSON.

use std::fmt;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::Parser;

use tcgen05_cli::{
    args, batch, check, emulate, idesc, layout, numerics, out, ptx, shapes, smem, tmem, zmask,
};

use tcgen05_cli::cli::{Cli, ColorChoice, Command, Decode, Encode, Solve};
use tcgen05_cli::number::Operand;
use tcgen05_cli::out::{Ctx, Report, Status, Style};

fn main() -> ExitCode {
    let args = match Cli::try_parse() {
        Ok(a) => a,
        // Help and version exit 0; usage errors exit 2 (clap's convention, and ours).
        Err(e) => e.exit(),
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
    let argv: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let Ok(w) = args::scan(&argv, ctx.err) {
        let _ = io::stderr().lock().write_all(w.text.as_bytes());
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

/// The JSON form of [`args::scan`]'s warnings, for [`emit`].
static ARG_WARNINGS: OnceLock<Vec<(bool, String)>> = OnceLock::new();

/// Prints a single-value report: stdout first, then stderr.
fn emit(ctx: Ctx, rep: Result<Report, fmt::Error>) -> Result<Status, Failure> {
    let mut rep = rep?;
    if let Some(w) = ARG_WARNINGS.get() {
        rep.json_problems.splice(0..0, w.iter().cloned());
    }
    if ctx.json {
        rep.json_failure()?;
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
            Operand::Stdin => {
                let mut rep = Report::default();
                match out::resolve_target(a.target, &mut rep, ctx.err)? {
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
                Operand::Stdin => {
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
                Operand::Stdin => {
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
        Command::Numerics(numerics::Numerics::Dot(a)) => emit(ctx, numerics::dot(ctx, a)),
        Command::Numerics(numerics::Numerics::Error(a)) => emit(ctx, numerics::error(ctx, a)),
        Command::Check(a) => Ok(check::run(ctx, a)?),
        Command::Emulate(a) => Ok(emulate::run(ctx, a)?),
    }
}
