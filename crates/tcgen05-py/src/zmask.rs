//! `tcgen05.ZeroColumnMask`: the 64-bit zero-column mask descriptor of `.ws` MMAs (PTX ISA
//! 9.7.16.4.3, Table 45), wrapping [`tcgen05::zero_column_mask`].

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::hash::{DefaultHasher, Hash, Hasher};
use tcgen05::zero_column_mask::{ZeroColumnMask, ZmaskDecoded, ZmaskField, ZmaskFields};
use tcgen05::{MaxShift, Source};

use crate::args::Args;
use crate::fields::fields_dict;
use crate::html::{bit_table, word_rows, Row};
use crate::problem::{self, descriptor_error, Problem};

/// A zero-column mask descriptor (PTX ISA 9.7.16.4.3, Table 45): the `zero-column-mask-desc`
/// operand of `tcgen05.mma.ws`. Spans hold the stored values, one less than the run lengths
/// (rules.md R19).
#[pyclass(module = "tcgen05", frozen, name = "ZeroColumnMask")]
#[derive(Debug)]
pub struct PyZmask {
    raw: u64,
    decoded: ZmaskDecoded,
    problems: Vec<Problem>,
    /// The M and N it was checked for, if any.
    mma: Option<(u16, u16)>,
}

impl PyZmask {
    fn from_decoded(raw: u64, decoded: ZmaskDecoded, mma: Option<(u16, u16)>) -> PyZmask {
        PyZmask {
            raw,
            problems: decoded
                .diagnostics
                .iter()
                .map(|e| Problem::from_diagnostic(&e))
                .collect(),
            decoded,
            mma,
        }
    }
}

/// Four items of a list or tuple; anything else is a `TypeError`.
fn four<'py>(field: &str, obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let items: Vec<Bound<'py, PyAny>> = if let Ok(l) = obj.cast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "{field}: expected a list or tuple of 4 items"
        )));
    };
    if items.len() != 4 {
        return Err(PyTypeError::new_err(format!(
            "{field}: expected 4 items (one per sub-mask), got {}",
            items.len()
        )));
    }
    Ok(items)
}

/// M, N and maximum shift of the MMA to check against, all given or none.
fn mma_args(
    a: &mut Args,
    m: Option<&Bound<'_, PyAny>>,
    n: Option<&Bound<'_, PyAny>>,
    max_shift: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(u16, u16, Option<MaxShift>)>> {
    let m = m.filter(|o| !o.is_none());
    let n = n.filter(|o| !o.is_none());
    let shift = max_shift.filter(|o| !o.is_none());
    let (m, n) = match (m, n) {
        (Some(m), Some(n)) => (m, n),
        (None, None) if shift.is_none() => return Ok(None),
        _ => {
            return Err(PyTypeError::new_err(
                "m and n go together (and max_shift needs them)",
            ))
        }
    };
    let t39 = Source::PtxTable(39);
    let m = a.int("m", m, u16::MAX.into(), t39)? as u16;
    let n = a.int("n", n, u16::MAX.into(), t39)? as u16;
    let shift = match shift {
        Some(o) => {
            let rows = a.int("max_shift", o, u8::MAX.into(), Source::PtxTable(42))?;
            let s = MaxShift::from_rows(rows);
            if s.is_none() {
                a.problems.push(Problem::argument(
                    "max_shift",
                    problem::Value::Int(rows.into()),
                    format!("{rows} rows is not a maximum shift (0, 8, 16 or 32)"),
                    Source::PtxTable(42),
                ));
            }
            s
        }
        None => None,
    };
    Ok(Some((m, n, shift)))
}

#[pymethods]
impl PyZmask {
    /// Encodes the fields (keywords only; stored values, Table 45). With `m` and `n` (and
    /// optionally the instruction descriptor's `max_shift` in rows) it is also checked against
    /// that MMA. Raises `DescriptorError` listing every problem, `TypeError` for a wrong type.
    #[new]
    #[pyo3(signature = (*, start_count=None, first_span=None, non_zero_mask=None, skip_span=None,
        use_span=None, column_shift=None, m=None, n=None, max_shift=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        start_count: Option<&Bound<'_, PyAny>>,
        first_span: Option<&Bound<'_, PyAny>>,
        non_zero_mask: Option<&Bound<'_, PyAny>>,
        skip_span: Option<&Bound<'_, PyAny>>,
        use_span: Option<&Bound<'_, PyAny>>,
        column_shift: Option<&Bound<'_, PyAny>>,
        m: Option<&Bound<'_, PyAny>>,
        n: Option<&Bound<'_, PyAny>>,
        max_shift: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyZmask> {
        let mut a = Args::default();
        let t45 = Source::PtxTable(45);
        let mut f = ZmaskFields::DISABLED;
        if let Some(o) = start_count.filter(|o| !o.is_none()) {
            for (i, item) in four("start_count", o)?.iter().enumerate() {
                f.start_count[i] = a.int(ZmaskField::start_count(i).name(), item, 255, t45)? as u8;
            }
        }
        if let Some(o) = first_span.filter(|o| !o.is_none()) {
            for (i, item) in four("first_span", o)?.iter().enumerate() {
                f.first_span[i] = Args::flag(ZmaskField::first_span(i).name(), Some(item), false)?;
            }
        }
        f.non_zero_mask = Args::flag("non_zero_mask", non_zero_mask, false)?;
        let byte = |a: &mut Args, field: &str, obj: Option<&Bound<'_, PyAny>>| match obj {
            Some(o) if !o.is_none() => a.int(field, o, u8::MAX.into(), t45),
            _ => Ok(0),
        };
        f.skip_span = byte(&mut a, "skip_span", skip_span)? as u8;
        f.use_span = byte(&mut a, "use_span", use_span)? as u8;
        f.column_shift = byte(&mut a, "column_shift", column_shift)? as u8;
        let mma = mma_args(&mut a, m, n, max_shift)?;
        if !a.problems.is_empty() {
            return Err(descriptor_error(py, "ZeroColumnMask", &a.problems));
        }
        // Fields that fit their types; the core checks the rest (the column shift's bound,
        // the MMA). The raw value packs them; decoding it gives every problem.
        let raw = f.to_raw_unchecked();
        let (decoded, at) = match mma {
            Some((m, n, s)) => (ZeroColumnMask::decode_for(raw, m, n, s), Some((m, n))),
            None => (ZeroColumnMask::decode(raw), None),
        };
        // A column shift above 63 would not survive packing: the core's own validation of the
        // fields (before packing) catches it.
        let mut problems: Vec<Problem> = f
            .validate()
            .iter()
            .map(|e| Problem::from_diagnostic(&e))
            .collect();
        for p in decoded
            .diagnostics
            .iter()
            .map(|e| Problem::from_diagnostic(&e))
        {
            if !problems.iter().any(|q| q.line() == p.line()) {
                problems.push(p);
            }
        }
        if problems.iter().any(Problem::is_error) {
            return Err(descriptor_error(py, "ZeroColumnMask", &problems));
        }
        Ok(PyZmask::from_decoded(raw, decoded, at))
    }

    /// The same as the constructor: `ZeroColumnMask.encode(skip_span=..., ...)`.
    #[staticmethod]
    #[pyo3(signature = (**fields))]
    fn encode(py: Python<'_>, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyZmask>> {
        let obj = py.get_type::<PyZmask>().call((), fields)?;
        Ok(obj.cast_into::<PyZmask>()?.unbind())
    }

    /// Reads any 64-bit value (Table 45) and reports every problem; with `m` and `n` (and
    /// optionally `max_shift` in rows) also those of that MMA. Raises only for a wrong argument
    /// type or an argument out of range.
    #[staticmethod]
    #[pyo3(signature = (raw, *, m=None, n=None, max_shift=None))]
    fn decode(
        py: Python<'_>,
        raw: &Bound<'_, PyAny>,
        m: Option<&Bound<'_, PyAny>>,
        n: Option<&Bound<'_, PyAny>>,
        max_shift: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyZmask> {
        let mut a = Args::default();
        let bits = a.int("raw", raw, u64::MAX, Source::PtxTable(45))?;
        let mma = mma_args(&mut a, m, n, max_shift)?;
        if !a.problems.is_empty() {
            return Err(descriptor_error(py, "ZeroColumnMask.decode", &a.problems));
        }
        Ok(match mma {
            Some((m, n, s)) => PyZmask::from_decoded(
                bits,
                ZeroColumnMask::decode_for(bits, m, n, s),
                Some((m, n)),
            ),
            None => PyZmask::from_decoded(bits, ZeroColumnMask::decode(bits), None),
        })
    }

    /// The 64-bit value.
    #[getter]
    fn bits(&self) -> u64 {
        self.raw
    }
    /// Start Count `sc_0..sc_3` (bits 0-31).
    #[getter]
    fn start_count(&self) -> Vec<u32> {
        // Not `[u8; 4]`, which PyO3 would turn into `bytes`.
        self.decoded.fields.start_count.map(u32::from).to_vec()
    }
    /// First Span `fs_0..fs_3` (bits 32-35).
    #[getter]
    fn first_span(&self) -> Vec<bool> {
        self.decoded.fields.first_span.to_vec()
    }
    /// Non-Zero Mask (bit 39).
    #[getter]
    fn non_zero_mask(&self) -> bool {
        self.decoded.fields.non_zero_mask
    }
    /// Skip Span (bits 40-47), stored value.
    #[getter]
    fn skip_span(&self) -> u8 {
        self.decoded.fields.skip_span
    }
    /// Use Span (bits 48-55), stored value.
    #[getter]
    fn use_span(&self) -> u8 {
        self.decoded.fields.use_span
    }
    /// Column Shift (bits 56-61).
    #[getter]
    fn column_shift(&self) -> u8 {
        self.decoded.fields.column_shift
    }
    /// True when the value has no error.
    #[getter]
    fn valid(&self) -> bool {
        !self.problems.iter().any(Problem::is_error)
    }
    /// Every error, in bit order.
    #[getter]
    fn errors(&self) -> Vec<Problem> {
        problem::errors(&self.problems)
    }
    /// Every warning.
    #[getter]
    fn warnings(&self) -> Vec<Problem> {
        problem::warnings(&self.problems)
    }
    /// The N-bit column mask for M (True = column zeroed), from the core's generator.
    /// Raises `DescriptorError` when M and N do not allow one.
    fn column_mask(
        &self,
        py: Python<'_>,
        m: &Bound<'_, PyAny>,
        n: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<bool>> {
        let mut a = Args::default();
        let t39 = Source::PtxTable(39);
        let m = a.int("m", m, u16::MAX.into(), t39)? as u16;
        let n = a.int("n", n, u16::MAX.into(), t39)? as u16;
        if !a.problems.is_empty() {
            return Err(descriptor_error(
                py,
                "ZeroColumnMask.column_mask",
                &a.problems,
            ));
        }
        match ZeroColumnMask::from_bits_unchecked(self.raw).column_mask(m, n) {
            Ok(mask) => Ok((0..mask.width()).map(|c| mask.bit(c)).collect()),
            Err(e) => Err(descriptor_error(
                py,
                "ZeroColumnMask.column_mask",
                &[Problem::from_diagnostic(&e)],
            )),
        }
    }
    /// The fields as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        fields_dict(py, ZeroColumnMask::from_bits_unchecked(self.raw).word())
    }
    /// The bit table of Table 45, one row per field.
    fn rows(&self) -> Vec<Row> {
        word_rows(ZeroColumnMask::from_bits_unchecked(self.raw).word())
    }
    /// Equal to another `ZeroColumnMask` of the same 64 bits checked for the same M and N (or
    /// both for none); never equal to anything else, an `int` included.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyZmask>().is_ok_and(|o| {
            let o = o.get();
            o.raw == self.raw && o.mma == self.mma
        })
    }
    /// A hash of what `==` compares.
    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.raw, self.mma).hash(&mut h);
        h.finish()
    }
    fn __int__(&self) -> u64 {
        self.raw
    }
    fn __index__(&self) -> u64 {
        self.raw
    }
    fn __repr__(&self) -> String {
        let f = &self.decoded.fields;
        let errors = self.problems.iter().filter(|p| p.is_error()).count();
        let mut s = format!(
            "ZeroColumnMask(0x{:016x}, start_count={:?}, first_span=[{}], non_zero_mask={}, \
             skip_span={}, use_span={}, column_shift={}",
            self.raw,
            f.start_count,
            f.first_span
                .iter()
                .map(|b| if *b { "True" } else { "False" })
                .collect::<Vec<_>>()
                .join(", "),
            if f.non_zero_mask { "True" } else { "False" },
            f.skip_span,
            f.use_span,
            f.column_shift
        );
        if let Some((m, n)) = self.mma {
            s.push_str(&format!(", m={m}, n={n}"));
        }
        if errors > 0 {
            s.push_str(&format!(", valid=False, errors={errors}"));
        }
        s.push(')');
        s
    }
    fn _repr_html_(&self) -> String {
        bit_table(
            &format!(
                "Zero-column mask descriptor 0x{:016x} (PTX ISA 9.7.16.4.3 Table 45)",
                self.raw
            ),
            &self.rows(),
            &self.problems,
        )
    }
}
