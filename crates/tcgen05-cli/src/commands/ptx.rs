//! `ptx`: print the PTX text of one tcgen05 instruction, or a complete minimal kernel, after
//! checking every rule (the `tcgen05::ptx` builders; PTX ISA 9.7.16.7-9.7.16.10.9).

use std::fmt::{self, Write as _};

use tcgen05::diagnostic::Diagnostic;
use tcgen05::ptx::{
    write_minimal_kernel, ASource, Alloc, Commit, Context, Cp, CpSourceFormat, Dealloc, Fence,
    Instruction, Mma, PtxError, PtxRule, RedOp, RedType, Reduction, RenderError, ScaleVec, Shift,
    Syntax, TmemLoad, TmemStore, Value, Wait,
};
use tcgen05::tensor_memory::{LdStShape, Num};

use super::problem::CliError;
use super::target::resolve_target;
use crate::args::descriptor::EncodeIdesc;
use crate::args::number::{Operand, Reg};
use crate::args::ptx::{
    Common, FenceArg, FormatArg, LdArgs, MmaArgs, PtxCommand, RedArg, RedTypeArg, StArgs, WaitArg,
};
use crate::render::{problems_json2, Ctx, Obj, Report, Status};

impl Operand<Reg> {
    /// The operand as the PTX builders take it.
    fn value<T: Copy>(&self, imm: impl Fn(u64) -> T) -> Value<'_, T> {
        match self {
            Operand::Other(Reg(r)) => Value::Reg(r),
            Operand::Value(v) => Value::Imm(imm(*v)),
        }
    }
}

/// A number that must fit a narrower field than its flag parses: a `TooWide` problem (exit 1).
fn fit<T: TryFrom<u64>>(
    field: &'static str,
    v: u64,
    max: u64,
    source: tcgen05::Source,
    cli: &mut Vec<CliError>,
) -> Option<T> {
    match super::problem::narrow::<T>(field, v, max, max, source) {
        Ok(x) => Some(x),
        Err(e) => {
            cli.push(e);
            None
        }
    }
}

/// The `.num` of a repetition count, or the problem with it (a rule error, as in `tmem ld`).
fn num_of(count: u64, cli: &mut Vec<CliError>) -> Option<Num> {
    match u32::try_from(count).ok().map(Num::from_count) {
        Some(Ok(n)) => Some(n),
        _ => {
            cli.push(CliError::BadNum { value: count });
            None
        }
    }
}

fn default_regs(prefix: &str, shape: LdStShape, num: Num) -> Vec<String> {
    let n = tcgen05::tensor_memory::registers_per_thread(shape, num).map_or_else(
        |_| usize::from(shape.registers_per_num()) * usize::from(num.count()),
        usize::from,
    );
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// Prints one instruction (or its problems).
fn finish(
    ctx: Ctx,
    common: &Common,
    cli: &[CliError],
    instr: Option<Instruction<'_>>,
) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(target) = resolve_target(common.target, &mut rep, ctx.err)? else {
        return Ok(rep);
    };
    let (problems, text, pctx) = match instr {
        Some(i) => {
            let pctx = match common.ptx_version {
                Some(v) => Context::new(target).with_version(v),
                None => Context::for_instructions(target, &[i]),
            };
            let mut text = String::new();
            let syntax = if common.asm {
                Syntax::RustAsm
            } else {
                Syntax::Ptx
            };
            let mut problems: Vec<PtxError> = match i.render_as(&pctx, &mut text, syntax) {
                Ok(()) => i.validate(&pctx).iter().collect(),
                Err(RenderError::Invalid(d)) => d.iter().collect(),
                Err(RenderError::Fmt) => return Err(fmt::Error),
            };
            for p in &mut problems {
                name_as_typed(p, &i);
            }
            (problems, text, pctx)
        }
        None => (Vec::new(), String::new(), Context::new(target)),
    };
    let cli_error = cli.iter().any(|c| c.severity() == tcgen05::Severity::Error);
    let valid = !cli_error && !problems.iter().any(is_error);
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        if valid {
            o.str(key!("ptx"), &text)?;
        } else {
            o.raw(key!("ptx"), "null")?;
        }
        o.name(key!("target"), pctx.target.name())?;
        o.str(
            key!("version"),
            format_args!("{}.{}", pctx.version / 10, pctx.version % 10),
        )?;
        o.bool(key!("valid"), valid)?;
        problems_json2(&mut o, cli, &problems)?;
        o.close();
        rep.out.push('\n');
    } else if valid {
        if common.preamble {
            pctx.write_preamble(&mut rep.out)?;
        }
        writeln!(rep.out, "{text}")?;
    }
    rep.problems(cli, ctx.err)?;
    rep.problems(&problems, ctx.err)?;
    if !valid {
        rep.status = rep.status.max(Status::Rule);
    }
    Ok(rep)
}

fn is_error(e: &PtxError) -> bool {
    e.severity() == tcgen05::Severity::Error
}

/// A bad register name is shown as typed (`taddr = [x]`), not by its element index: the name
/// is leaked once, on this error path, for the problem's `&'static str`.
fn name_as_typed(p: &mut PtxError, i: &Instruction<'_>) {
    if let PtxError::Rule {
        rule: PtxRule::RegisterName(op),
        value,
        name: name @ None,
    } = p
    {
        let text = usize::try_from(*value)
            .ok()
            .and_then(|index| i.operand_text(*op, index));
        if let Some(text) = text {
            *name = Some(Box::leak(text.to_string().into_boxed_str()));
        }
    }
}

/// `ptx kernel`.
fn kernel(ctx: Ctx, a: &EncodeIdesc) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some((cfg, cli)) = super::idesc::config_of(ctx, a, &mut rep)? else {
        return Ok(rep);
    };
    let mut text = String::new();
    let problems: Vec<PtxError> = if cli.is_empty() {
        match write_minimal_kernel(&cfg, &mut text) {
            Ok(()) => Vec::new(),
            Err(RenderError::Invalid(d)) => d.iter().collect(),
            Err(RenderError::Fmt) => return Err(fmt::Error),
        }
    } else {
        Vec::new()
    };
    let valid = cli.is_empty() && !problems.iter().any(is_error);
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        if valid {
            o.str(key!("ptx"), &text)?;
            let bits = cfg.idesc.encode().map(|d| d.bits()).unwrap_or_default();
            o.str(key!("idesc"), format_args!("{bits:#010x}"))?;
        } else {
            o.raw(key!("ptx"), "null")?;
        }
        o.name(key!("target"), cfg.target.name())?;
        o.bool(key!("valid"), valid)?;
        problems_json2(&mut o, &cli, &problems)?;
        o.close();
        rep.out.push('\n');
    } else if valid {
        rep.out.push_str(&text);
    }
    rep.problems(&cli, ctx.err)?;
    rep.problems(&problems, ctx.err)?;
    if !valid {
        rep.status = rep.status.max(Status::Rule);
    }
    Ok(rep)
}

/// `ptx mma`: the operands and qualifiers given, with `scale_input_d` checked to fit 8 bits.
fn mma(ctx: Ctx, a: &MmaArgs) -> Result<Report, fmt::Error> {
    let mut cli = Vec::new();
    let a_reg =
        a.a.clone()
            .unwrap_or_else(|| if a.a_tmem { "a_tmem" } else { "a_desc" }.to_string());
    let source = if a.a_tmem {
        ASource::Tmem(&a_reg)
    } else {
        ASource::Smem(&a_reg)
    };
    let lanes: Vec<&str> = a
        .disable_output_lane
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    let idesc = match &a.idesc {
        Operand::Other(Reg(r)) => Value::Reg(r.as_str()),
        // Parsed as 32 bits.
        Operand::Value(v) => Value::Imm(*v as u32),
    };
    let enable = match &a.enable_input_d {
        Operand::Other(Reg(r)) => Value::Reg(r.as_str()),
        Operand::Value(v) => Value::Imm(*v != 0),
    };
    let mut m = Mma::new(a.cta_group, a.kind, &a.d, source, &a.b, idesc, enable)
        .with_ws(a.ws)
        .with_ashift(a.ashift);
    if a.sparse {
        m = m.with_sparse(&a.sparse_meta);
    }
    if a.kind.is_block_scaled() || a.scale_vec.is_some() {
        m = m.with_block_scale(
            a.scale_vec.unwrap_or(ScaleVec::Default),
            &a.scale_a,
            &a.scale_b,
        );
    }
    m.collector = a.collector;
    if a.disable_output_lane.is_some() {
        m = m.with_disable_output_lane(&lanes);
    }
    if let Some(s) = a.scale_input_d {
        if let Some(s) = fit::<u8>(
            "scale_input_d",
            s,
            255,
            tcgen05::Source::PtxSection("9.7.16.10.9.1"),
            &mut cli,
        ) {
            m = m.with_scale_input_d(s);
        }
    }
    if let Some(z) = &a.zero_column_mask {
        m = m.with_zero_column_mask(z.value(|v| v));
    }
    finish(ctx, &a.common, &cli, Some(Instruction::Mma(m)))
}

/// `ptx ld`: the registers (named or default), with the reduction's qualifiers warned about
/// when `--red` is not given (PTX ISA 9.7.16.8.3).
fn ld(ctx: Ctx, a: &LdArgs) -> Result<Report, fmt::Error> {
    let mut cli = Vec::new();
    let Some(num) = num_of(a.num, &mut cli) else {
        return finish(ctx, &a.common, &cli, None);
    };
    let regs = a
        .dst
        .clone()
        .unwrap_or_else(|| default_regs(&a.reg_prefix, a.shape, num));
    let refs: Vec<&str> = regs.iter().map(String::as_str).collect();
    let mut ld = TmemLoad::new(a.shape, num, &refs, &a.taddr).with_pack(a.pack);
    if let Some(o) = a.offset {
        ld.offset = fit::<u32>(
            "offset",
            o,
            u64::from(u32::MAX),
            tcgen05::Source::Decision(24),
            &mut cli,
        );
    }
    if let Some(op) = a.red {
        ld = ld.with_red(Reduction {
            op: match op {
                RedArg::Min => RedOp::Min,
                RedArg::Max => RedOp::Max,
            },
            abs: a.abs,
            nan: a.nan,
            ty: match a.red_type.unwrap_or(RedTypeArg::F32) {
                RedTypeArg::F32 => RedType::F32,
                RedTypeArg::U32 => RedType::U32,
                RedTypeArg::S32 => RedType::S32,
            },
            redval: a.redval.as_deref().unwrap_or("redval"),
        });
    } else {
        // The qualifiers of tcgen05.ld.red (PTX ISA 9.7.16.8.3) without .red.
        let red_type = a.red_type.map(|t| match t {
            RedTypeArg::F32 => "f32",
            RedTypeArg::U32 => "u32",
            RedTypeArg::S32 => "s32",
        });
        // The register name as typed; leaked once for the warning's `&'static str`.
        let redval = a.redval.clone().map(|r| &*Box::leak(r.into_boxed_str()));
        for (flag, given) in [
            ("abs", a.abs.then_some("true")),
            ("nan", a.nan.then_some("true")),
            ("red_type", red_type),
            ("redval", redval),
        ] {
            if let Some(given) = given {
                cli.push(CliError::NoEffect {
                    flag,
                    given,
                    needs: "--red",
                    source: tcgen05::Source::PtxSection("9.7.16.8.3"),
                });
            }
        }
    }
    finish(ctx, &a.common, &cli, Some(Instruction::Load(ld)))
}

/// `ptx st`: the registers (named or default) and the offset checked to fit 32 bits.
fn st(ctx: Ctx, a: &StArgs) -> Result<Report, fmt::Error> {
    let mut cli = Vec::new();
    let Some(num) = num_of(a.num, &mut cli) else {
        return finish(ctx, &a.common, &cli, None);
    };
    let regs = a
        .src
        .clone()
        .unwrap_or_else(|| default_regs(&a.reg_prefix, a.shape, num));
    let refs: Vec<&str> = regs.iter().map(String::as_str).collect();
    let mut st = TmemStore::new(a.shape, num, &a.taddr, &refs).with_unpack(a.unpack);
    if let Some(o) = a.offset {
        st.offset = fit::<u32>(
            "offset",
            o,
            u64::from(u32::MAX),
            tcgen05::Source::Decision(24),
            &mut cli,
        );
    }
    finish(ctx, &a.common, &cli, Some(Instruction::Store(st)))
}

/// Runs a `ptx` subcommand.
pub fn run(ctx: Ctx, c: &PtxCommand) -> Result<Report, fmt::Error> {
    let cli = Vec::new();
    match c {
        PtxCommand::Kernel(a) => kernel(ctx, a),
        PtxCommand::Mma(a) => mma(ctx, a),
        PtxCommand::Ld(a) => ld(ctx, a),
        PtxCommand::St(a) => st(ctx, a),
        PtxCommand::Cp(a) => {
            let mut c = Cp::new(
                a.cta_group,
                a.shape,
                a.multicast,
                &a.taddr,
                a.sdesc.value(|v| v),
            );
            c.source_format = a.format.map(|f| match f {
                FormatArg::B6x16P32 => CpSourceFormat::B6x16P32,
                FormatArg::B4x16P64 => CpSourceFormat::B4x16P64,
            });
            finish(ctx, &a.common, &cli, Some(Instruction::Cp(c)))
        }
        PtxCommand::Shift(a) => finish(
            ctx,
            &a.common,
            &cli,
            Some(Instruction::Shift(Shift {
                cta_group: a.cta_group,
                taddr: &a.taddr,
            })),
        ),
        PtxCommand::Alloc(a) => finish(
            ctx,
            &a.common,
            &cli,
            // nCols parsed as 32 bits.
            Some(Instruction::Alloc(Alloc::new(
                a.cta_group,
                &a.dst,
                a.n_cols.value(|v| v as u32),
            ))),
        ),
        PtxCommand::Dealloc(a) => finish(
            ctx,
            &a.common,
            &cli,
            Some(Instruction::Dealloc(Dealloc::new(
                a.cta_group,
                &a.taddr,
                a.n_cols.value(|v| v as u32),
            ))),
        ),
        PtxCommand::RelinquishAllocPermit(a) => finish(
            ctx,
            &a.common,
            &cli,
            Some(Instruction::RelinquishAllocPermit(a.cta_group)),
        ),
        PtxCommand::Commit(a) => finish(
            ctx,
            &a.common,
            &cli,
            // ctaMask parsed as 16 bits.
            Some(Instruction::Commit(Commit::new(
                a.cta_group,
                &a.mbar,
                a.multicast.as_ref().map(|m| m.value(|v| v as u16)),
            ))),
        ),
        PtxCommand::Fence(a) => finish(
            ctx,
            &a.common,
            &cli,
            Some(Instruction::Fence(match a.which {
                FenceArg::BeforeThreadSync => Fence::BeforeThreadSync,
                FenceArg::AfterThreadSync => Fence::AfterThreadSync,
            })),
        ),
        PtxCommand::Wait(a) => finish(
            ctx,
            &a.common,
            &cli,
            Some(Instruction::Wait(match a.which {
                WaitArg::Ld => Wait::Ld,
                WaitArg::St => Wait::St,
            })),
        ),
    }
}
