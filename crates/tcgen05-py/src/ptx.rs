//! `tcgen05.ptx`: every PTX builder of [`tcgen05::ptx`] (PTX ISA 9.7.16.7-9.7.16.10.9), each a
//! function of keywords that returns the instruction's text as `str`, or raises
//! `DescriptorError` with every problem the core's validation finds (qualifier pairings, operand
//! counts, target and PTX version, and the immediate descriptors checked against Tables 39-45).
//!
//! Operands: a `str` is a register (or variable) name, an `int` an immediate.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};
use tcgen05::ptx::{
    ASource, Alloc, Collector, CollectorOp, Commit, CommitMulticast, Context, Cp, CpSourceFormat,
    Dealloc, Fence, Instruction, Mma, RedOp, RedType, Reduction, RenderError, ScaleVec, Shift,
    Syntax, TmemLoad, TmemStore, Value, Wait,
};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};
use tcgen05::{CtaGroup, Source};

use crate::args::Args;
use crate::problem::{descriptor_error, Problem};

/// Where the instruction-form rules are (PTX ISA 9.7.16, the instruction sections).
const FORMS: Source = Source::PtxSection("9.7.16");

/// A register name or an immediate, as `Value`.
enum Operand {
    Reg(String),
    Imm(u64),
}

impl Operand {
    fn read(a: &mut Args, field: &str, obj: &Bound<'_, PyAny>, max: u64) -> PyResult<Operand> {
        if obj.is_instance_of::<PyString>() {
            Ok(Operand::Reg(obj.extract()?))
        } else if crate::args::index(obj).is_some() {
            Ok(Operand::Imm(a.int(field, obj, max, FORMS)?))
        } else {
            Err(PyTypeError::new_err(format!(
                "{field}: expected a register name (str) or an immediate (int)"
            )))
        }
    }

    fn value<T: TryFrom<u64> + Default>(&self) -> Value<'_, T> {
        match self {
            Operand::Reg(r) => Value::Reg(r),
            // `read` bounded the immediate by T's range: the conversion does not fail.
            Operand::Imm(v) => Value::Imm(T::try_from(*v).unwrap_or_default()),
        }
    }
}

fn cta_group(a: &mut Args, obj: &Bound<'_, PyAny>) -> PyResult<CtaGroup> {
    let n = a.int("cta_group", obj, u64::from(u8::MAX), Source::PtxTable(39))?;
    match CtaGroup::from_count(n) {
        Some(g) => Ok(g),
        None => {
            if a.problems.is_empty() {
                a.problems.push(Problem::argument(
                    "cta_group",
                    crate::problem::Value::Int(n.into()),
                    format!("{n} is not a .cta_group (1 or 2)"),
                    Source::PtxTable(39),
                ));
            }
            Ok(CtaGroup::One)
        }
    }
}

fn strings(field: &str, obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{field}: expected a list of register names, got one str"
        )));
    }
    obj.extract::<Vec<String>>()
        .map_err(|_| PyTypeError::new_err(format!("{field}: expected a list of register names")))
}

fn name<T: Copy>(
    a: &mut Args,
    field: &str,
    obj: &Bound<'_, PyAny>,
    all: &[T],
    name: fn(T) -> &'static str,
) -> PyResult<Option<T>> {
    let names: Vec<&str> = all
        .iter()
        .map(|t| name(*t).trim_start_matches('.'))
        .collect();
    a.name(
        field,
        obj,
        |s| {
            let s = s.trim_start_matches('.');
            all.iter()
                .copied()
                .find(|t| name(*t).trim_start_matches('.') == s)
        },
        &names,
        FORMS,
    )
}

fn context(
    a: &mut Args,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Context>> {
    let target = a.target(target)?;
    let version = match version.filter(|o| !o.is_none()) {
        Some(o) => Some(a.int(
            "version",
            o,
            u64::from(u8::MAX),
            Source::PtxSection("9.7.16.1"),
        )? as u8),
        None => None,
    };
    Ok(target.map(|t| match version {
        Some(v) => Context::new(t).with_version(v),
        None => Context::new(t),
    }))
}

fn syntax(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Syntax> {
    match obj.filter(|o| !o.is_none()) {
        None => Ok(Syntax::Ptx),
        Some(o) => match o.extract::<String>()?.as_str() {
            "ptx" => Ok(Syntax::Ptx),
            "rust_asm" => Ok(Syntax::RustAsm),
            other => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "syntax: {other:?} is neither \"ptx\" nor \"rust_asm\""
            ))),
        },
    }
}

/// Renders `inst` on `ctx`, or raises with every problem.
fn render(
    py: Python<'_>,
    what: &str,
    inst: &Instruction<'_>,
    ctx: &Context,
    syntax: Syntax,
) -> PyResult<String> {
    let mut s = String::new();
    match inst.render_as(ctx, &mut s, syntax) {
        Ok(()) => Ok(s),
        Err(RenderError::Invalid(d)) => {
            let problems: Vec<Problem> = d.iter().map(|e| Problem::from_diagnostic(&e)).collect();
            Err(descriptor_error(py, what, &problems))
        }
        Err(RenderError::Fmt) => Err(pyo3::exceptions::PyRuntimeError::new_err(
            "formatting failed",
        )),
    }
}

/// Checks the arguments read so far; raises with every problem.
fn check(py: Python<'_>, what: &str, a: &Args) -> PyResult<()> {
    if a.problems.is_empty() {
        Ok(())
    } else {
        Err(descriptor_error(py, what, &a.problems))
    }
}

fn flag(field: &str, obj: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    Args::flag(field, obj, false)
}

/// `tcgen05.mma` in any form (PTX ISA 9.7.16.10.9).
#[pyfunction]
#[pyo3(signature = (*, cta_group, kind, d, a, b, idesc, enable_input_d, a_tmem=None, ws=None,
    sparse_metadata=None, scale_vec=None, scale_a=None, scale_b=None, collector=None, ashift=None,
    disable_output_lane=None, scale_input_d=None, zero_column_mask=None, target=None, version=None,
    syntax=None))]
#[allow(clippy::too_many_arguments)]
pub fn ptx_mma(
    py: Python<'_>,
    cta_group: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyAny>,
    d: String,
    a: String,
    b: String,
    idesc: &Bound<'_, PyAny>,
    enable_input_d: &Bound<'_, PyAny>,
    a_tmem: Option<&Bound<'_, PyAny>>,
    ws: Option<&Bound<'_, PyAny>>,
    sparse_metadata: Option<String>,
    scale_vec: Option<&Bound<'_, PyAny>>,
    scale_a: Option<String>,
    scale_b: Option<String>,
    collector: Option<&Bound<'_, PyAny>>,
    ashift: Option<&Bound<'_, PyAny>>,
    disable_output_lane: Option<&Bound<'_, PyAny>>,
    scale_input_d: Option<&Bound<'_, PyAny>>,
    zero_column_mask: Option<&Bound<'_, PyAny>>,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
    syntax: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mut args = Args::default();
    let group = cta_group_arg(&mut args, cta_group)?;
    let kind = args.kind(kind)?;
    let idesc = Operand::read(&mut args, "idesc", idesc, u32::MAX.into())?;
    let enable = if enable_input_d.is_instance_of::<PyBool>() {
        Value::Imm(enable_input_d.extract::<bool>()?)
    } else if enable_input_d.is_instance_of::<PyString>() {
        Value::Reg("")
    } else {
        return Err(PyTypeError::new_err(
            "enable_input_d: expected a predicate register name (str) or a bool",
        ));
    };
    let enable_reg: String = if enable_input_d.is_instance_of::<PyString>() {
        enable_input_d.extract()?
    } else {
        String::new()
    };
    let vec = match scale_vec.filter(|o| !o.is_none()) {
        Some(o) => args.name(
            "scale_vec",
            o,
            ScaleVec::from_name,
            &["default", "1X", "2X", "4X", "block16", "block32"],
            FORMS,
        )?,
        None => None,
    };
    let coll = match collector.filter(|o| !o.is_none()) {
        Some(o) => collector_arg(&mut args, o)?,
        None => None,
    };
    let lanes = match disable_output_lane.filter(|o| !o.is_none()) {
        Some(o) => Some(strings("disable_output_lane", o)?),
        None => None,
    };
    let scale_d = match scale_input_d.filter(|o| !o.is_none()) {
        Some(o) => Some(args.int("scale_input_d", o, u64::from(u8::MAX), FORMS)? as u8),
        None => None,
    };
    let zmask = match zero_column_mask.filter(|o| !o.is_none()) {
        Some(o) => Some(Operand::read(&mut args, "zero_column_mask", o, u64::MAX)?),
        None => None,
    };
    let ctx = context(&mut args, target, version)?;
    let syntax = self::syntax(syntax)?;
    let a_tmem = flag("a_tmem", a_tmem)?;
    let ws = flag("ws", ws)?;
    let ashift = flag("ashift", ashift)?;
    let (Some(kind), Some(ctx)) = (kind, ctx) else {
        return Err(descriptor_error(py, "ptx.mma", &args.problems));
    };
    check(py, "ptx.mma", &args)?;
    let a_src = if a_tmem {
        ASource::Tmem(&a)
    } else {
        ASource::Smem(&a)
    };
    let enable = match enable {
        Value::Reg(_) => Value::Reg(enable_reg.as_str()),
        imm => imm,
    };
    let lane_refs: Vec<&str> = lanes.iter().flatten().map(String::as_str).collect();
    let mut mma = Mma::new(group, kind, &d, a_src, &b, idesc.value(), enable)
        .with_ws(ws)
        .with_ashift(ashift);
    if let Some(m) = &sparse_metadata {
        mma = mma.with_sparse(m);
    }
    match (vec, &scale_a, &scale_b) {
        (None, None, None) => {}
        (vec, Some(sa), Some(sb)) => {
            mma = mma.with_block_scale(vec.unwrap_or(ScaleVec::Default), sa, sb)
        }
        _ => {
            return Err(PyTypeError::new_err(
                "scale_a and scale_b go together (scale_vec needs them)",
            ))
        }
    }
    if let Some(c) = coll {
        mma = mma.with_collector(c);
    }
    if lanes.is_some() {
        mma = mma.with_disable_output_lane(&lane_refs);
    }
    if let Some(s) = scale_d {
        mma = mma.with_scale_input_d(s);
    }
    if let Some(z) = &zmask {
        mma = mma.with_zero_column_mask(z.value());
    }
    render(py, "ptx.mma", &Instruction::Mma(mma), &ctx, syntax)
}

fn cta_group_arg(a: &mut Args, obj: &Bound<'_, PyAny>) -> PyResult<CtaGroup> {
    cta_group(a, obj)
}

/// A collector qualifier as PTX spells it after `.collector::`: `"a::fill"`, `"b0::use"`, ...
fn collector_arg(a: &mut Args, obj: &Bound<'_, PyAny>) -> PyResult<Option<Collector>> {
    let mut names: Vec<String> = CollectorOp::ALL
        .iter()
        .map(|o| format!("a::{}", o.name()))
        .collect();
    for n in 0..4 {
        names.extend(
            CollectorOp::ALL
                .iter()
                .map(|o| format!("b{n}::{}", o.name())),
        );
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    a.name(
        "collector",
        obj,
        // The grammar's collector slot reads it; the names offered are buffers 0-3.
        |s| Collector::from_name(s).filter(|c| !matches!(c, Collector::B(n, _) if *n > 3)),
        &refs,
        FORMS,
    )
}

/// `tcgen05.ld` and `tcgen05.ld.red` (PTX ISA 9.7.16.8.3).
#[pyfunction]
#[pyo3(signature = (*, shape, num, dst, taddr, pack=None, offset=None, red=None, red_type=None,
    redval=None, red_abs=None, red_nan=None, target=None, version=None, syntax=None))]
#[allow(clippy::too_many_arguments)]
pub fn ptx_ld(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    num: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    taddr: String,
    pack: Option<&Bound<'_, PyAny>>,
    offset: Option<&Bound<'_, PyAny>>,
    red: Option<&Bound<'_, PyAny>>,
    red_type: Option<&Bound<'_, PyAny>>,
    redval: Option<String>,
    red_abs: Option<&Bound<'_, PyAny>>,
    red_nan: Option<&Bound<'_, PyAny>>,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
    syntax: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mut a = Args::default();
    let shape = name(&mut a, "shape", shape, &LdStShape::ALL, LdStShape::name)?;
    let num = name(&mut a, "num", num, &Num::ALL, Num::name)?;
    let dst = strings("dst", dst)?;
    let offset = match offset.filter(|o| !o.is_none()) {
        Some(o) => Some(a.int("offset", o, u32::MAX.into(), FORMS)? as u32),
        None => None,
    };
    let red_op = match red.filter(|o| !o.is_none()) {
        Some(o) => name(&mut a, "red", o, &[RedOp::Min, RedOp::Max], |r| match r {
            RedOp::Min => "min",
            RedOp::Max => "max",
        })?,
        None => None,
    };
    let ty = match red_type.filter(|o| !o.is_none()) {
        Some(o) => name(
            &mut a,
            "red_type",
            o,
            &[RedType::F32, RedType::U32, RedType::S32],
            RedType::name,
        )?,
        None => None,
    };
    let abs = flag("red_abs", red_abs)?;
    let nan = flag("red_nan", red_nan)?;
    let pack = flag("pack", pack)?;
    let ctx = context(&mut a, target, version)?;
    let syntax = self::syntax(syntax)?;
    let (Some(shape), Some(num), Some(ctx)) = (shape, num, ctx) else {
        return Err(descriptor_error(py, "ptx.ld", &a.problems));
    };
    check(py, "ptx.ld", &a)?;
    let refs: Vec<&str> = dst.iter().map(String::as_str).collect();
    let mut ld = TmemLoad::new(shape, num, &refs, &taddr).with_pack(pack);
    if let Some(o) = offset {
        ld = ld.with_offset(o);
    }
    match (red_op, ty, &redval) {
        (None, None, None) => {}
        (Some(op), Some(ty), Some(redval)) => {
            ld = ld.with_red(Reduction {
                op,
                abs,
                nan,
                ty,
                redval,
            });
        }
        _ => {
            return Err(PyTypeError::new_err(
                "red, red_type and redval go together (tcgen05.ld.red)",
            ))
        }
    }
    render(py, "ptx.ld", &Instruction::Load(ld), &ctx, syntax)
}

/// `tcgen05.st` (PTX ISA 9.7.16.8.4).
#[pyfunction]
#[pyo3(signature = (*, shape, num, taddr, src, unpack=None, offset=None, target=None,
    version=None, syntax=None))]
#[allow(clippy::too_many_arguments)]
pub fn ptx_st(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    num: &Bound<'_, PyAny>,
    taddr: String,
    src: &Bound<'_, PyAny>,
    unpack: Option<&Bound<'_, PyAny>>,
    offset: Option<&Bound<'_, PyAny>>,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
    syntax: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mut a = Args::default();
    let shape = name(&mut a, "shape", shape, &LdStShape::ALL, LdStShape::name)?;
    let num = name(&mut a, "num", num, &Num::ALL, Num::name)?;
    let src = strings("src", src)?;
    let offset = match offset.filter(|o| !o.is_none()) {
        Some(o) => Some(a.int("offset", o, u32::MAX.into(), FORMS)? as u32),
        None => None,
    };
    let unpack = flag("unpack", unpack)?;
    let ctx = context(&mut a, target, version)?;
    let syntax = self::syntax(syntax)?;
    let (Some(shape), Some(num), Some(ctx)) = (shape, num, ctx) else {
        return Err(descriptor_error(py, "ptx.st", &a.problems));
    };
    check(py, "ptx.st", &a)?;
    let refs: Vec<&str> = src.iter().map(String::as_str).collect();
    let mut st = TmemStore::new(shape, num, &taddr, &refs).with_unpack(unpack);
    if let Some(o) = offset {
        st = st.with_offset(o);
    }
    render(py, "ptx.st", &Instruction::Store(st), &ctx, syntax)
}

/// `tcgen05.cp` (PTX ISA 9.7.16.9.2).
#[pyfunction]
#[pyo3(signature = (*, cta_group, shape, taddr, sdesc, multicast=None, source_format=None,
    target=None, version=None, syntax=None))]
#[allow(clippy::too_many_arguments)]
pub fn ptx_cp(
    py: Python<'_>,
    cta_group: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    taddr: String,
    sdesc: &Bound<'_, PyAny>,
    multicast: Option<&Bound<'_, PyAny>>,
    source_format: Option<&Bound<'_, PyAny>>,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
    syntax: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mut a = Args::default();
    let group = cta_group_arg(&mut a, cta_group)?;
    let shape = name(&mut a, "shape", shape, &CpShape::ALL, CpShape::name)?;
    let sdesc = Operand::read(&mut a, "sdesc", sdesc, u64::MAX)?;
    let multicast = match multicast.filter(|o| !o.is_none()) {
        Some(o) => name(&mut a, "multicast", o, &CpMulticast::ALL, CpMulticast::name)?,
        None => Some(CpMulticast::None),
    };
    let format = match source_format.filter(|o| !o.is_none()) {
        Some(o) => name(
            &mut a,
            "source_format",
            o,
            &[CpSourceFormat::B6x16P32, CpSourceFormat::B4x16P64],
            CpSourceFormat::name,
        )?,
        None => None,
    };
    let ctx = context(&mut a, target, version)?;
    let syntax = self::syntax(syntax)?;
    let (Some(shape), Some(multicast), Some(ctx)) = (shape, multicast, ctx) else {
        return Err(descriptor_error(py, "ptx.cp", &a.problems));
    };
    check(py, "ptx.cp", &a)?;
    let mut cp = Cp::new(group, shape, multicast, &taddr, sdesc.value());
    if let Some(f) = format {
        cp = cp.with_source_format(f);
    }
    render(py, "ptx.cp", &Instruction::Cp(cp), &ctx, syntax)
}

/// The forms with a `.cta_group` and at most one address operand: `tcgen05.shift` (9.7.16.9.3),
/// `tcgen05.alloc` / `.dealloc` / `.relinquish_alloc_permit` (9.7.16.7.1), `tcgen05.commit`
/// (9.7.16.11.1).
#[pyfunction]
#[pyo3(signature = (op, *, cta_group, taddr=None, dst=None, n_cols=None, mbar=None,
    multicast=None, target=None, version=None, syntax=None))]
#[allow(clippy::too_many_arguments)]
pub fn ptx_group_op(
    py: Python<'_>,
    op: &str,
    cta_group: &Bound<'_, PyAny>,
    taddr: Option<String>,
    dst: Option<String>,
    n_cols: Option<&Bound<'_, PyAny>>,
    mbar: Option<String>,
    multicast: Option<&Bound<'_, PyAny>>,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
    syntax: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let what = format!("ptx.{op}");
    let mut a = Args::default();
    let group = cta_group_arg(&mut a, cta_group)?;
    let n_cols = match n_cols {
        Some(o) => Some(Operand::read(&mut a, "n_cols", o, u32::MAX.into())?),
        None => None,
    };
    let multicast = match multicast.filter(|o| !o.is_none()) {
        Some(o) => Some(Operand::read(&mut a, "multicast", o, u16::MAX.into())?),
        None => None,
    };
    let ctx = context(&mut a, target, version)?;
    let syntax = self::syntax(syntax)?;
    let Some(ctx) = ctx else {
        return Err(descriptor_error(py, &what, &a.problems));
    };
    check(py, &what, &a)?;
    fn need<'s>(what: &str, v: &'s Option<String>, field: &str) -> PyResult<&'s str> {
        v.as_deref()
            .ok_or_else(|| PyTypeError::new_err(format!("{what}: {field} is required")))
    }
    let cols = |what: &str| {
        n_cols
            .as_ref()
            .ok_or_else(|| PyTypeError::new_err(format!("{what}: n_cols is required")))
    };
    let inst = match op {
        "shift" => Instruction::Shift(Shift {
            cta_group: group,
            taddr: need(&what, &taddr, "taddr")?,
        }),
        "alloc" => Instruction::Alloc(Alloc {
            cta_group: group,
            dst: need(&what, &dst, "dst")?,
            n_cols: cols(&what)?.value(),
            exclusive: false,
        }),
        "dealloc" => Instruction::Dealloc(Dealloc {
            cta_group: group,
            taddr: need(&what, &taddr, "taddr")?,
            n_cols: cols(&what)?.value(),
            exclusive: false,
        }),
        "relinquish_alloc_permit" => Instruction::RelinquishAllocPermit(group),
        "commit" => Instruction::Commit(Commit {
            cta_group: group,
            mbar: need(&what, &mbar, "mbar")?,
            multicast: multicast.as_ref().map(Operand::value),
            multicast_spelling: CommitMulticast::Cluster,
            sync_restrict_a: false,
        }),
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown operation {other:?}"
            )))
        }
    };
    render(py, &what, &inst, &ctx, syntax)
}

/// `tcgen05.fence::before_thread_sync` / `::after_thread_sync` (9.7.16.11.2) and
/// `tcgen05.wait::ld` / `::st` (9.7.16.8.5).
#[pyfunction]
#[pyo3(signature = (op, which, *, target=None, version=None))]
pub fn ptx_fence_wait(
    py: Python<'_>,
    op: &str,
    which: &Bound<'_, PyAny>,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let what = format!("ptx.{op}");
    let mut a = Args::default();
    let inst = if op == "fence" {
        name(
            &mut a,
            "fence",
            which,
            &[Fence::BeforeThreadSync, Fence::AfterThreadSync],
            |f| match f {
                Fence::BeforeThreadSync => "before_thread_sync",
                Fence::AfterThreadSync => "after_thread_sync",
            },
        )?
        .map(Instruction::Fence)
    } else {
        name(&mut a, "wait", which, &[Wait::Ld, Wait::St], |w| match w {
            Wait::Ld => "ld",
            Wait::St => "st",
        })?
        .map(Instruction::Wait)
    };
    let ctx = context(&mut a, target, version)?;
    let (Some(inst), Some(ctx), true) = (inst, ctx, a.problems.is_empty()) else {
        return Err(descriptor_error(py, &what, &a.problems));
    };
    render(py, &what, &inst, &ctx, Syntax::Ptx)
}

/// The `.version` and `.target` directives of a module for `target` (and PTX ISA `version`,
/// default the lowest with tcgen05 on that target).
#[pyfunction]
#[pyo3(signature = (*, target=None, version=None))]
pub fn ptx_preamble(
    py: Python<'_>,
    target: Option<&Bound<'_, PyAny>>,
    version: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mut a = Args::default();
    let ctx = context(&mut a, target, version)?;
    let Some(ctx) = ctx.filter(|_| a.problems.is_empty()) else {
        return Err(descriptor_error(py, "ptx.preamble", &a.problems));
    };
    let problems: Vec<Problem> = ctx
        .validate()
        .iter()
        .map(|e| Problem::from_diagnostic(&e))
        .collect();
    if problems.iter().any(Problem::is_error) {
        return Err(descriptor_error(py, "ptx.preamble", &problems));
    }
    let mut s = String::new();
    ctx.write_preamble(&mut s)
        .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("formatting failed"))?;
    Ok(s)
}
