//! `tcgen05.numerics`: the tensor cores' arithmetic of [`tcgen05::numerics`]
//! (`../shared/spec/mma-numerics.md`; the parameter table's rows cite their evidence). One dot
//! product with its explanation ([`dot`]), and whole MMAs on arrays of codes ([`mma_codes`], the
//! native half of `tcgen05.numerics.mma`).
//!
//! Operand values: with `codes=False` (the default) each value is a Python number that must be
//! exactly representable in its format (NaN and infinities where the format has them); with
//! `codes=True` each is the format's bit pattern.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat};
use tcgen05::numerics::exact::ExactSum;
use tcgen05::numerics::fast::{FastRow, MmaOperands};
use tcgen05::numerics::fdpa::{SpecialCause, TermSource};
use tcgen05::numerics::format::{Exact, Format, Rounding, Value};
use tcgen05::numerics::{Arch, Form, Instruction, NumericsError, Operands, ParamRow};
use tcgen05::Source;

use crate::args::Args;
use crate::problem::{self, descriptor_error, py_str, Problem};

/// The element formats' section of the PTX ISA.
const FORMATS: Source = Source::PtxSection("5.2");

/// The problems of a [`NumericsError`], one per core problem.
fn core_problems(e: &NumericsError) -> Vec<Problem> {
    e.problems
        .iter()
        .map(|p| {
            let rule = p.rule.rule();
            let field = match p.location {
                tcgen05::numerics::params::Location::Field(n)
                | tcgen05::numerics::params::Location::Operand(n) => n.to_owned(),
                tcgen05::numerics::params::Location::Code(c) => c.to_string(),
            };
            Problem {
                field,
                severity: "error",
                message: match (p.decode, p.expected) {
                    (Some(d), _) => d.to_string(),
                    (None, Some(x)) => format!("{} (got {}, expected {x})", rule.text(), p.value),
                    (None, None) => rule.text().to_owned(),
                },
                source: rule.source.to_string(),
                value: problem::Value::Int(p.value.into()),
            }
        })
        .collect()
}

fn format_arg(a: &mut Args, field: &str, obj: &Bound<'_, PyAny>) -> PyResult<Option<Format>> {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    a.name(field, obj, Format::from_name, &names, FORMATS)
}

/// The form named by the arguments, as a row of the parameter table.
#[allow(clippy::too_many_arguments)]
fn row_of(
    py: Python<'_>,
    what: &str,
    arch: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyAny>,
    a_type: &Bound<'_, PyAny>,
    b_type: &Bound<'_, PyAny>,
    d_type: Option<&Bound<'_, PyAny>>,
    scale_type: Option<&Bound<'_, PyAny>>,
    block: Option<&Bound<'_, PyAny>>,
    instruction: Option<&Bound<'_, PyAny>>,
) -> PyResult<ParamRow> {
    let mut a = Args::default();
    let arch = a.name(
        "arch",
        arch,
        Arch::from_name,
        &["sm_90a", "sm_100a"],
        Source::PtxSection("9.7.15 / 9.7.16"),
    )?;
    let kind = a.kind(kind)?;
    let at = format_arg(&mut a, "a_type", a_type)?;
    let bt = format_arg(&mut a, "b_type", b_type)?;
    let dt = match d_type.filter(|o| !o.is_none()) {
        Some(o) => Some(format_arg(&mut a, "d_type", o)?),
        None => None,
    };
    let st = match scale_type.filter(|o| !o.is_none()) {
        Some(o) => Some(format_arg(&mut a, "scale_type", o)?),
        None => None,
    };
    let block = match block.filter(|o| !o.is_none()) {
        Some(o) => Some(a.int("block", o, u32::MAX.into(), Source::PtxTable(39))? as u32),
        None => None,
    };
    let inst = match instruction.filter(|o| !o.is_none()) {
        Some(o) => Some(a.name(
            "instruction",
            o,
            Instruction::from_name,
            &["wgmma", "tcgen05.mma", "mma.sync"],
            Source::PtxSection("9.7.14-9.7.16"),
        )?),
        None => None,
    };
    let (Some(arch), Some(kind), Some(at), Some(bt), true) =
        (arch, kind, at, bt, a.problems.is_empty())
    else {
        return Err(descriptor_error(py, what, &a.problems));
    };
    let form = Form {
        arch,
        instruction: inst.flatten(),
        kind,
        a: at,
        b: bt,
        d: dt.flatten(),
        scale: st.flatten(),
        block,
    };
    form.row()
        .map_err(|e| descriptor_error(py, what, &core_problems(&e)))
}

/// A decoded value as an `f64`: the core's exact value for zeros and finite values (every format
/// here fits an `f64` exactly), and the specials and integers as themselves.
fn value_f64(v: Value) -> f64 {
    match v {
        Value::Inf { neg: true } => f64::NEG_INFINITY,
        Value::Inf { neg: false } => f64::INFINITY,
        Value::NaN => f64::NAN,
        Value::Int(i) => i as f64,
        other => Exact::of(other).map_or(f64::NAN, Exact::to_f64),
    }
}

/// The code of `x` in `f`, when `f` holds `x` exactly; the message says why not otherwise.
fn code_of(f: Format, x: f64) -> Result<u32, String> {
    if x.is_nan() || x.is_infinite() {
        let want = |v: Value| match v {
            Value::NaN => x.is_nan(),
            Value::Inf { neg } => x.is_infinite() && neg == (x < 0.0),
            _ => false,
        };
        let max = if f.width() >= 32 {
            u32::MAX
        } else {
            (1u32 << f.width()) - 1
        };
        return [0x7FC0_0000u32, 0x7F80_0000, 0xFF80_0000]
            .into_iter()
            .chain(0..=max.min(0xFFFF))
            .filter(|&c| c <= max)
            .find(|&c| f.decode(c).is_ok_and(want))
            .ok_or_else(|| format!("{f} has no {x}"));
    }
    if f.is_integer() {
        let (lo, hi) = match f {
            Format::S8 => (-128.0, 127.0),
            Format::U8 => (0.0, 255.0),
            _ => (f64::from(i32::MIN), f64::from(i32::MAX)),
        };
        if x.fract() != 0.0 || !(lo..=hi).contains(&x) {
            return Err(format!("not an integer in {lo}..={hi} ({f})"));
        }
        let i = x as i64;
        let mask = if f.width() >= 32 {
            u32::MAX
        } else {
            (1u32 << f.width()) - 1
        };
        return Ok((i as u32) & mask);
    }
    let e = Exact::from_f64(x).ok_or_else(|| "out of range".to_owned())?;
    let c = f
        .encode(e, Rounding::NearestEven)
        .map_err(|e| e.to_string())?;
    let back = f.decode(c).map(value_f64).unwrap_or(f64::NAN);
    if back == x && back.is_sign_negative() == x.is_sign_negative() {
        Ok(c)
    } else if back == x {
        // -0 in a format whose encoder keeps no sign for zero: look for the negative zero.
        Ok(c | (1 << (f.width() - 1)))
    } else {
        Err(format!(
            "not exactly representable in {f}; the nearest value is {back} ({c:#x})"
        ))
    }
}

/// Reads a list of values (numbers, or codes with `codes`) in format `f`.
fn values(
    a: &mut Args,
    field: &str,
    f: Format,
    obj: Option<&Bound<'_, PyAny>>,
    codes: bool,
) -> PyResult<Vec<u32>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    let items: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("{field}: expected a sequence of numbers")))?
        .collect::<PyResult<_>>()?;
    let mut out = Vec::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        out.push(value(a, &format!("{field}[{i}]"), f, it, codes)?);
    }
    Ok(out)
}

/// Reads one value in format `f`.
fn value(
    a: &mut Args,
    field: &str,
    f: Format,
    obj: &Bound<'_, PyAny>,
    codes: bool,
) -> PyResult<u32> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{field}: expected a number, got bool"
        )));
    }
    if codes {
        if crate::args::index(obj).is_none() {
            return Err(PyTypeError::new_err(format!(
                "{field}: codes=True takes int bit patterns"
            )));
        }
        let max = if f.width() >= 32 {
            u64::from(u32::MAX)
        } else {
            (1u64 << f.width()) - 1
        };
        return Ok(a.int(field, obj, max, FORMATS)? as u32);
    }
    let int = crate::args::index(obj);
    if int.is_none() && !obj.is_instance_of::<PyFloat>() {
        return Err(PyTypeError::new_err(format!(
            "{field}: expected an int or a float"
        )));
    }
    let x: f64 = if let Some(int) = int {
        match int.extract::<i64>() {
            Ok(i) if i.unsigned_abs() < (1 << 53) => i as f64,
            _ => {
                a.problems.push(Problem::argument(
                    field,
                    problem::Value::Name(obj.str()?.to_string()),
                    format!("{} does not fit {f}", obj.str()?),
                    FORMATS,
                ));
                return Ok(0);
            }
        }
    } else {
        obj.extract()?
    };
    match code_of(f, x) {
        Ok(c) => Ok(c),
        Err(message) => {
            a.problems.push(Problem::argument(
                field,
                problem::Value::Name(obj.repr()?.to_string()),
                message,
                FORMATS,
            ));
            Ok(0)
        }
    }
}

/// One term of the fused sum (`tcgen05.numerics.Term`).
#[pyclass(module = "tcgen05.numerics", frozen, name = "Term")]
#[derive(Clone, Debug)]
pub struct PyTerm {
    /// `"a0*b0"`..., `"group0"`..., or `"c"`.
    #[pyo3(get)]
    term: String,
    /// The term's exact value as a decimal string.
    #[pyo3(get)]
    value: String,
    /// Its alignment exponent.
    #[pyo3(get)]
    align_exp: i32,
    /// True when the term is zero and took the exponent for zero.
    #[pyo3(get)]
    zero: bool,
    /// The truncated term in units of `2^(e_max - F)`.
    #[pyo3(get)]
    kept: i128,
    /// Bits the alignment dropped.
    #[pyo3(get)]
    dropped_bits: u32,
}

#[pymethods]
impl PyTerm {
    fn __repr__(&self) -> String {
        format!(
            "Term(term={}, value={}, align_exp={}, kept={}, dropped_bits={})",
            py_str(&self.term),
            py_str(&self.value),
            self.align_exp,
            self.kept,
            self.dropped_bits
        )
    }
}

/// The result of one instruction on one dot product, with its explanation
/// (`tcgen05.numerics.Dot`).
#[pyclass(module = "tcgen05.numerics", frozen, name = "Dot")]
#[derive(Clone, Debug)]
pub struct PyDot {
    /// The hardware's D, as bits of D's type.
    #[pyo3(get)]
    d_bits: u32,
    /// D's value (a float; an int for s32).
    d: f64,
    d_int: Option<i64>,
    /// D's type.
    #[pyo3(get)]
    d_type: &'static str,
    /// The exact `sum(a*b*scales) + c` as a decimal string (None when a special value decides D).
    #[pyo3(get)]
    exact: Option<String>,
    /// Why D is NaN or Inf, when special inputs decide it.
    #[pyo3(get)]
    special: Option<&'static str>,
    /// The alignment exponent.
    #[pyo3(get)]
    e_max: Option<i32>,
    /// The exact integer sum of the truncated terms, in units of `2^(e_max - F)`.
    #[pyo3(get)]
    sum: i128,
    /// The terms, products (or groups) first and C last.
    #[pyo3(get)]
    terms: Vec<PyTerm>,
    /// The model: `"T-FDPA"`, `"ST-FDPA"`, `"GST-FDPA"`, `"integer"` or `"HMMA-FP8"`.
    #[pyo3(get)]
    algorithm: &'static str,
    /// Fraction bits kept while aligning (None for integer kinds).
    #[pyo3(get)]
    f: Option<u32>,
    /// Where the parameters come from.
    #[pyo3(get)]
    evidence: Vec<String>,
}

#[pymethods]
impl PyDot {
    /// D's value: a float, or an int for s32.
    #[getter]
    fn d<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self.d_int {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => self.d.into_pyobject(py)?.into_any(),
        })
    }

    fn __repr__(&self) -> String {
        let w = if self.d_type == "f16" { 4 } else { 8 };
        format!(
            "Dot(d={}, d_bits=0x{:0w$x}, d_type={}, exact={}, e_max={}, algorithm={})",
            match self.d_int {
                Some(i) => i.to_string(),
                None if self.d.is_nan() => "nan".into(),
                None if self.d.is_infinite() => if self.d > 0.0 { "inf" } else { "-inf" }.into(),
                None => format!("{:?}", self.d),
            },
            self.d_bits,
            py_str(self.d_type),
            self.exact.as_deref().map_or("None".into(), py_str),
            self.e_max.map_or("None".into(), |e| e.to_string()),
            py_str(self.algorithm)
        )
    }
}

fn term_name(t: TermSource) -> String {
    match t {
        TermSource::Product(k) => format!("a{k}*b{k}"),
        TermSource::Group(g) => format!("group{g}"),
        TermSource::C => "c".to_owned(),
    }
}

fn special_name(s: SpecialCause) -> &'static str {
    match s {
        SpecialCause::NanInput => "nan-input",
        SpecialCause::InfTimesZero => "inf-times-zero",
        SpecialCause::InfMinusInf => "inf-minus-inf",
        SpecialCause::InfTerm => "inf-term",
    }
}

fn decimal(x: Exact) -> String {
    let mut s = ExactSum::ZERO;
    s.add(x);
    s.to_string()
}

/// One dot product `D = sum(a_k * b_k [* scales]) + c` as the named instruction computes it,
/// with its explanation (PTX ISA 9.7.16.10.9 / 9.7.15.5 / 9.7.14.5.14; the arithmetic of
/// `mma-numerics.md` sections 2-4). Give exactly K values of A and B (the form's K).
#[pyfunction]
#[pyo3(name = "numerics_dot", signature = (*, arch, kind, a_type, b_type, a, b, d_type=None, scale_type=None,
    block=None, instruction=None, c=None, sfa=None, sfb=None, satfinite=false, codes=false))]
#[allow(clippy::too_many_arguments)]
pub fn dot(
    py: Python<'_>,
    arch: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyAny>,
    a_type: &Bound<'_, PyAny>,
    b_type: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    d_type: Option<&Bound<'_, PyAny>>,
    scale_type: Option<&Bound<'_, PyAny>>,
    block: Option<&Bound<'_, PyAny>>,
    instruction: Option<&Bound<'_, PyAny>>,
    c: Option<&Bound<'_, PyAny>>,
    sfa: Option<&Bound<'_, PyAny>>,
    sfb: Option<&Bound<'_, PyAny>>,
    satfinite: bool,
    codes: bool,
) -> PyResult<PyDot> {
    let row = row_of(
        py,
        "numerics.dot",
        arch,
        kind,
        a_type,
        b_type,
        d_type,
        scale_type,
        block,
        instruction,
    )?;
    let mut args = Args::default();
    let av = values(&mut args, "a", row.a, Some(a), codes)?;
    let bv = values(&mut args, "b", row.b, Some(b), codes)?;
    let cv = match c.filter(|o| !o.is_none()) {
        Some(o) => value(&mut args, "c", row.d, o, codes)?,
        None => 0,
    };
    let sf = row.scale.map_or(Format::Ue8m0, |(f, _)| f);
    let sfa = values(&mut args, "sfa", sf, sfa, codes)?;
    let sfb = values(&mut args, "sfb", sf, sfb, codes)?;
    if !args.problems.is_empty() {
        return Err(descriptor_error(py, "numerics.dot", &args.problems));
    }
    let r = row
        .dot(
            &Operands {
                a: &av,
                b: &bv,
                c: cv,
                sfa: &sfa,
                sfb: &sfb,
            },
            satfinite,
        )
        .map_err(|e| descriptor_error(py, "numerics.dot", &core_problems(&e)))?;
    let decoded = r.d_format.decode(r.d_bits).ok();
    Ok(PyDot {
        d_bits: r.d_bits,
        d: decoded.map_or(f64::NAN, value_f64),
        d_int: match decoded {
            Some(Value::Int(i)) => Some(i),
            _ => None,
        },
        d_type: r.d_format.name(),
        exact: r.special.is_none().then(|| r.exact.to_string()),
        special: r.special.map(special_name),
        e_max: r.e_max,
        sum: r.sum,
        terms: r
            .terms()
            .iter()
            .map(|t| PyTerm {
                term: term_name(t.source),
                value: decimal(t.value),
                align_exp: t.align_exp,
                zero: t.zero,
                kept: t.kept,
                dropped_bits: t.dropped_bits,
            })
            .collect(),
        algorithm: row.algorithm.name(),
        f: row.algorithm.f(),
        evidence: row.evidence.iter().map(ToString::to_string).collect(),
    })
}

/// K, D type, scale type, block and algorithm of a form.
type FormSummary = (
    u32,
    &'static str,
    Option<&'static str>,
    Option<u32>,
    &'static str,
);

/// The form's K, D type and scale (format, block) after defaults: what `numerics.mma` needs to
/// shape its arrays.
#[pyfunction]
#[pyo3(name = "numerics_form", signature = (*, arch, kind, a_type, b_type, d_type=None, scale_type=None, block=None,
    instruction=None))]
#[allow(clippy::too_many_arguments)]
pub fn form(
    py: Python<'_>,
    arch: &Bound<'_, PyAny>,
    kind: &Bound<'_, PyAny>,
    a_type: &Bound<'_, PyAny>,
    b_type: &Bound<'_, PyAny>,
    d_type: Option<&Bound<'_, PyAny>>,
    scale_type: Option<&Bound<'_, PyAny>>,
    block: Option<&Bound<'_, PyAny>>,
    instruction: Option<&Bound<'_, PyAny>>,
) -> PyResult<FormSummary> {
    let row = row_of(
        py,
        "numerics.form",
        arch,
        kind,
        a_type,
        b_type,
        d_type,
        scale_type,
        block,
        instruction,
    )?;
    Ok((
        row.algorithm.k(),
        row.d.name(),
        row.scale.map(|(f, _)| f.name()),
        row.scale.map(|(_, b)| b),
        row.algorithm.name(),
    ))
}

fn words(field: &str, raw: &[u8]) -> PyResult<Vec<u32>> {
    if raw.len() % 4 != 0 {
        return Err(PyTypeError::new_err(format!(
            "{field}: the buffer is not a whole number of 32-bit words"
        )));
    }
    Ok(raw
        .chunks_exact(4)
        .map(|w| u32::from_ne_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

/// The native half of `tcgen05.numerics.mma`: D's codes (native-endian u32, M x N row-major)
/// of one whole MMA on the codes of A (M x K), B (N x K), C (M x N, or empty for +0) and the
/// scales, each given as the bytes of a native-endian u32 array. Runs with the GIL released.
#[pyfunction]
#[pyo3(name = "numerics_mma_codes", signature = (*, arch, kind, a_type, b_type, m, n, a, b, c, sfa, sfb, d_type=None,
    scale_type=None, block=None, instruction=None, satfinite=false))]
#[allow(clippy::too_many_arguments)]
pub fn mma_codes<'py>(
    py: Python<'py>,
    arch: &Bound<'py, PyAny>,
    kind: &Bound<'py, PyAny>,
    a_type: &Bound<'py, PyAny>,
    b_type: &Bound<'py, PyAny>,
    m: usize,
    n: usize,
    a: &[u8],
    b: &[u8],
    c: &[u8],
    sfa: &[u8],
    sfb: &[u8],
    d_type: Option<&Bound<'py, PyAny>>,
    scale_type: Option<&Bound<'py, PyAny>>,
    block: Option<&Bound<'py, PyAny>>,
    instruction: Option<&Bound<'py, PyAny>>,
    satfinite: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let row = row_of(
        py,
        "numerics.mma",
        arch,
        kind,
        a_type,
        b_type,
        d_type,
        scale_type,
        block,
        instruction,
    )?;
    let (a, b, c, sfa, sfb) = (
        words("a", a)?,
        words("b", b)?,
        words("c", c)?,
        words("sfa", sfa)?,
        words("sfb", sfb)?,
    );
    let fast = FastRow::new(row);
    let d = py.detach(|| {
        // Boxed: the error lists every problem by value (no allocation in the core).
        fast.mma(
            &MmaOperands {
                m,
                n,
                a: &a,
                b: &b,
                c: &c,
                sfa: &sfa,
                sfb: &sfb,
            },
            satfinite,
        )
        .map_err(Box::new)
    });
    match d {
        Ok(d) => {
            let bytes: Vec<u8> = d.iter().flat_map(|w| w.to_ne_bytes()).collect();
            Ok(PyBytes::new(py, &bytes))
        }
        Err(e) => Err(descriptor_error(py, "numerics.mma", &core_problems(&e))),
    }
}

/// Every row of the parameter table as `(arch, instruction, kind, a_type, b_type, d_type,
/// scale_type, block, algorithm, f)`.
#[pyfunction]
#[pyo3(name = "numerics_rows")]
#[allow(clippy::type_complexity)]
pub fn rows() -> Vec<(
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
    Option<u32>,
    &'static str,
    Option<u32>,
)> {
    tcgen05::numerics::params::rows()
        .map(|r| {
            (
                r.arch.name(),
                r.instruction.name(),
                r.kind.name(),
                r.a.name(),
                r.b.name(),
                r.d.name(),
                r.scale.map(|(f, _)| f.name()),
                r.scale.map(|(_, b)| b),
                r.algorithm.name(),
                r.algorithm.f(),
            )
        })
        .collect()
}

/// The code of `value` in `format` (PTX ISA 5.2 element formats), when the format holds it
/// exactly; NaN and infinities where the format has them.
#[pyfunction]
#[pyo3(name = "numerics_encode")]
pub fn encode(
    py: Python<'_>,
    format: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<u32> {
    let mut a = Args::default();
    let f = format_arg(&mut a, "format", format)?;
    let Some(f) = f else {
        return Err(descriptor_error(py, "numerics.encode", &a.problems));
    };
    let c = self::value(&mut a, "value", f, value, false)?;
    if a.problems.is_empty() {
        Ok(c)
    } else {
        Err(descriptor_error(py, "numerics.encode", &a.problems))
    }
}

/// The value of `code` in `format`: a float (NaN and infinities included), or an int for
/// s8, u8 and s32.
#[pyfunction]
#[pyo3(name = "numerics_decode")]
pub fn decode<'py>(
    py: Python<'py>,
    format: &Bound<'py, PyAny>,
    code: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut a = Args::default();
    let f = format_arg(&mut a, "format", format)?;
    let Some(f) = f else {
        return Err(descriptor_error(py, "numerics.decode", &a.problems));
    };
    let c = self::value(&mut a, "code", f, code, true)?;
    if !a.problems.is_empty() {
        return Err(descriptor_error(py, "numerics.decode", &a.problems));
    }
    match f.decode(c) {
        Ok(Value::Int(i)) => Ok(i.into_pyobject(py)?.into_any()),
        Ok(v) => Ok(value_f64(v).into_pyobject(py)?.into_any()),
        Err(e) => Err(descriptor_error(
            py,
            "numerics.decode",
            &[Problem::argument(
                "code",
                problem::Value::Int(c.into()),
                e.to_string(),
                FORMATS,
            )],
        )),
    }
}
