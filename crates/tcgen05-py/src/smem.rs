//! `tcgen05.SmemDescriptor`: the 64-bit shared memory (matrix) descriptor (PTX ISA 9.7.16.4.1,
//! Tables 40-41), wrapping [`tcgen05::shared_memory_descriptor`].

use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::hash::{DefaultHasher, Hash, Hasher};
use tcgen05::shared_memory_descriptor::{
    LboMode, SmemDecoded, SmemDescriptor, SmemField, SmemFields, Swizzle,
};
use tcgen05::Source;

use crate::args::Args;
use crate::fields::fields_dict;
use crate::html::{bit_table, word_rows, Row};
use crate::problem::{self, descriptor_error, Problem};

/// The swizzle of `raw`, or `None` when its code (bits 61-63) is not a mode of Table 40.
pub fn swizzle_of(raw: u64) -> Option<Swizzle> {
    let code = SmemField::Swizzle.row().get(raw);
    u8::try_from(code)
        .ok()
        .and_then(|c| Swizzle::from_code(c).ok())
}

/// A shared memory descriptor (PTX ISA 9.7.16.4.1, Tables 40-41): the 64-bit `a-desc` /
/// `b-desc` operand of `tcgen05.mma`. Byte fields are in bytes (rules.md R3), not in the
/// encoded 16-byte units.
#[pyclass(module = "tcgen05", frozen, name = "SmemDescriptor")]
#[derive(Debug)]
pub struct PySmem {
    decoded: SmemDecoded,
    problems: Vec<Problem>,
}

impl PySmem {
    fn from_decoded(decoded: SmemDecoded) -> PySmem {
        PySmem {
            problems: decoded
                .diagnostics
                .iter()
                .map(|e| Problem::from_diagnostic(&e))
                .collect(),
            decoded,
        }
    }
}

fn swizzle_names() -> Vec<&'static str> {
    Swizzle::ALL.iter().map(|s| s.name()).collect()
}

#[pymethods]
impl PySmem {
    /// Encodes the fields (keywords only, byte values); raises `DescriptorError` listing every
    /// problem and `TypeError` for an argument of the wrong Python type. `swizzle` is one of
    /// `"none"`, `"128B_base32B"`, `"128B"`, `"64B"`, `"32B"`; `lbo_mode` `"relative"` (default) or
    /// `"absolute"`; `target` defaults to `"sm_100a"`.
    #[new]
    #[pyo3(signature = (*, start_address, leading_byte_offset, stride_byte_offset, swizzle,
        base_offset=None, lbo_mode=None, target=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        start_address: &Bound<'_, PyAny>,
        leading_byte_offset: &Bound<'_, PyAny>,
        stride_byte_offset: &Bound<'_, PyAny>,
        swizzle: &Bound<'_, PyAny>,
        base_offset: Option<&Bound<'_, PyAny>>,
        lbo_mode: Option<&Bound<'_, PyAny>>,
        target: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySmem> {
        let mut a = Args::default();
        let t40 = Source::PtxTable(40);
        let start = a.int("start_address", start_address, u32::MAX.into(), t40)?;
        let lbo = a.int(
            "leading_byte_offset",
            leading_byte_offset,
            u32::MAX.into(),
            t40,
        )?;
        let sbo = a.int(
            "stride_byte_offset",
            stride_byte_offset,
            u32::MAX.into(),
            t40,
        )?;
        let sw = a.name(
            "swizzle",
            swizzle,
            Swizzle::from_name,
            &swizzle_names(),
            t40,
        )?;
        let base = match base_offset.filter(|o| !o.is_none()) {
            Some(o) => a.int("base_offset", o, u8::MAX.into(), Source::PtxTable(41))?,
            None => 0,
        };
        let mode = match lbo_mode.filter(|o| !o.is_none()) {
            Some(o) => a.name(
                "lbo_mode",
                o,
                LboMode::from_name,
                &["relative", "absolute"],
                t40,
            )?,
            None => Some(LboMode::Relative),
        };
        let target = a.target(target)?;
        let (Some(sw), Some(mode), Some(target), true) = (sw, mode, target, a.problems.is_empty())
        else {
            return Err(descriptor_error(py, "SmemDescriptor", &a.problems));
        };
        // In range: checked above against u32 / u8.
        let fields = SmemFields::new(start as u32, lbo as u32, sbo as u32, sw)
            .with_base_offset(base as u8)
            .with_lbo_mode(mode);
        let diagnostics = SmemDescriptor::validate(&fields, target);
        let problems: Vec<Problem> = diagnostics
            .iter()
            .map(|e| Problem::from_diagnostic(&e))
            .collect();
        if problems.iter().any(Problem::is_error) {
            return Err(descriptor_error(py, "SmemDescriptor", &problems));
        }
        match SmemDescriptor::try_new(fields, target) {
            Ok(d) => Ok(PySmem::from_decoded(SmemDescriptor::decode(
                d.bits(),
                target,
            ))),
            Err(e) => Err(descriptor_error(
                py,
                "SmemDescriptor",
                &[Problem::from_diagnostic(&e)],
            )),
        }
    }

    /// The same as the constructor: `SmemDescriptor.encode(start_address=..., ...)`.
    #[staticmethod]
    #[pyo3(signature = (**fields))]
    fn encode(py: Python<'_>, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PySmem>> {
        let obj = py.get_type::<PySmem>().call((), fields)?;
        Ok(obj.cast_into::<PySmem>()?.unbind())
    }

    /// Reads any 64-bit value for `target` (Tables 40-41, rules.md R1-R5) and reports every
    /// problem in `.errors` / `.warnings`; raises only for a wrong argument type (`TypeError`), a
    /// value outside 0..2^64 or an unknown target (`DescriptorError`).
    #[staticmethod]
    #[pyo3(signature = (raw, *, target=None))]
    fn decode(
        py: Python<'_>,
        raw: &Bound<'_, PyAny>,
        target: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySmem> {
        let mut a = Args::default();
        let bits = a.int("raw", raw, u64::MAX, Source::PtxTable(40))?;
        let target = a.target(target)?;
        match target {
            Some(t) if a.problems.is_empty() => {
                Ok(PySmem::from_decoded(SmemDescriptor::decode(bits, t)))
            }
            _ => Err(descriptor_error(py, "SmemDescriptor.decode", &a.problems)),
        }
    }

    /// The 64-bit value.
    #[getter]
    fn bits(&self) -> u64 {
        self.decoded.raw
    }
    /// The target it was checked for.
    #[getter]
    fn target(&self) -> &'static str {
        self.decoded.target.name()
    }
    /// Matrix start address, in bytes.
    #[getter]
    fn start_address(&self) -> u32 {
        self.decoded.fields.start_address
    }
    /// Leading dimension byte offset (or address, in absolute mode), in bytes.
    #[getter]
    fn leading_byte_offset(&self) -> u32 {
        self.decoded.fields.leading_byte_offset
    }
    /// Stride dimension byte offset, in bytes.
    #[getter]
    fn stride_byte_offset(&self) -> u32 {
        self.decoded.fields.stride_byte_offset
    }
    /// Matrix base offset, 0-7 (Table 41).
    #[getter]
    fn base_offset(&self) -> u8 {
        self.decoded.fields.base_offset
    }
    /// Leading dimension stride mode: `"relative"` or `"absolute"`.
    #[getter]
    fn lbo_mode(&self) -> &'static str {
        self.decoded.fields.lbo_mode.name()
    }
    /// Swizzling mode, or None when bits 61-63 hold a code Table 40 does not define.
    #[getter]
    fn swizzle(&self) -> Option<&'static str> {
        swizzle_of(self.decoded.raw).map(Swizzle::name)
    }
    /// True when the value has no error (warnings allowed).
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
    /// The fields as a dict (the names of the Rust fields); `swizzle` is `None` for a code
    /// Table 40 does not define.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        fields_dict(py, self.decoded.word())
    }
    /// The bit table of Table 40, one row per field.
    fn rows(&self) -> Vec<Row> {
        word_rows(self.decoded.word())
    }
    /// Equal to another `SmemDescriptor` of the same 64 bits read for the same target; never
    /// equal to anything else, an `int` included (compare `.bits` for that).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PySmem>().is_ok_and(|o| {
            let o = o.get();
            o.decoded.raw == self.decoded.raw && o.decoded.target == self.decoded.target
        })
    }
    /// A hash of what `==` compares.
    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.decoded.raw, self.decoded.target.name()).hash(&mut h);
        h.finish()
    }
    fn __int__(&self) -> u64 {
        self.decoded.raw
    }
    fn __index__(&self) -> u64 {
        self.decoded.raw
    }
    fn __repr__(&self) -> String {
        let f = &self.decoded.fields;
        let errors = self.problems.iter().filter(|p| p.is_error()).count();
        format!(
            "SmemDescriptor(0x{:016x}, start_address=0x{:x}, leading_byte_offset={}, \
             stride_byte_offset={}, swizzle={}, base_offset={}, lbo_mode='{}', target='{}'{})",
            self.decoded.raw,
            f.start_address,
            f.leading_byte_offset,
            f.stride_byte_offset,
            swizzle_of(self.decoded.raw).map_or("None".to_owned(), |s| format!("'{}'", s.name())),
            f.base_offset,
            f.lbo_mode.name(),
            self.decoded.target.name(),
            if errors > 0 {
                format!(", valid=False, errors={errors}")
            } else {
                String::new()
            }
        )
    }
    fn _repr_html_(&self) -> String {
        bit_table(
            &format!(
                "Shared memory descriptor 0x{:016x}, {} (PTX ISA 9.7.16.4.1 Table 40)",
                self.decoded.raw,
                self.decoded.target.name()
            ),
            &self.rows(),
            &self.problems,
        )
    }
}
