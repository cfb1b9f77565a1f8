//! From a parsed command line to the subcommand that runs it, and the output of a single-value
//! subcommand on stdout and stderr.

use std::fmt;
use std::io::{self, BufReader, BufWriter, Write as _};

use super::run as run_kernel;
use super::target::resolve_target;
use super::{
    batch, check, emulate, explain, idesc, layout, numerics, ptx, shapes, smem, tmem, zmask,
};
use crate::args::number::{Operand, Stdin};
use crate::args::numerics::Numerics;
use crate::args::{Command, Decode, Encode, Solve};
use crate::render::{add_warnings, Ctx, Report, Status};

/// Why a command could not finish.
pub enum Failure {
    /// Reading or writing failed.
    Io(io::Error),
    /// Formatting into a `String` failed (it does not).
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

/// Prints a single-value report: stdout first, then stderr.
fn emit(
    ctx: Ctx,
    warnings: &[(bool, String)],
    rep: Result<Report, fmt::Error>,
) -> Result<Status, Failure> {
    let mut rep = rep?;
    rep.json_problems.splice(0..0, warnings.iter().cloned());
    if ctx.json {
        rep.json_failure()?;
        add_warnings(&mut rep.out, warnings);
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

/// Runs a subcommand: prints what it finds and returns the exit status. `warnings` are the JSON
/// problems of the command line itself, for the `--json` object of a single value.
pub fn run(ctx: Ctx, command: &Command, warnings: &[(bool, String)]) -> Result<Status, Failure> {
    let emit = |rep| emit(ctx, warnings, rep);
    match command {
        Command::Decode(Decode::Smem(a)) => match a.value {
            Operand::Value(v) => emit(smem::decode(ctx, v, a.target)),
            Operand::Other(Stdin) => {
                let mut rep = Report::default();
                match resolve_target(a.target, &mut rep, ctx.err)? {
                    Some(t) => batch(move || smem::Batch::new(t), ctx),
                    None => emit(Ok(rep)),
                }
            }
        },
        Command::Decode(Decode::Idesc(a)) => {
            let mut rep = Report::default();
            let Some(mma) = idesc::mma_of(a.cta_group, a.ws, a.target, &mut rep, ctx.err)? else {
                return emit(Ok(rep));
            };
            match a.value {
                // Operands of decode idesc are parsed as 32-bit values.
                Operand::Value(v) => emit(idesc::decode(ctx, v as u32, a.kind, mma)),
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
                return emit(Ok(rep));
            }
            match a.value {
                Operand::Value(v) => emit(zmask::decode(ctx, v, shape, a.max_shift)),
                Operand::Other(Stdin) => {
                    let max_shift = a.max_shift;
                    batch(move || zmask::Batch::new(shape, max_shift), ctx)
                }
            }
        }
        Command::Encode(Encode::Smem(a)) => emit(smem::encode(ctx, a)),
        Command::Encode(Encode::Idesc(a)) => emit(idesc::encode(ctx, a)),
        Command::Encode(Encode::Zmask(a)) => emit(zmask::encode(ctx, a)),
        Command::Solve(Solve::Zmask(a)) => emit(zmask::solve_cmd(ctx, a)),
        Command::Shapes(a) => emit(shapes::run(ctx, a)),
        Command::Layout(l) => emit(layout::run(ctx, l)),
        Command::Ptx(c) => emit(ptx::run(ctx, c)),
        Command::Tmem(t) => emit(tmem::run(ctx, t)),
        Command::Numerics(Numerics::Dot(a)) => emit(numerics::dot(ctx, a)),
        Command::Numerics(Numerics::Error(a)) => emit(numerics::error(ctx, a)),
        Command::Check(a) => Ok(check::run(ctx, a)?),
        Command::Emulate(a) => Ok(emulate::run(ctx, a)?),
        Command::Explain(a) => emit(explain::run(ctx, a)),
        Command::Run(a) => Ok(run_kernel::run(ctx, a)?),
    }
}
