//! `tcgen05.InstructionDescriptor`: the 32-bit instruction descriptor (PTX ISA 9.7.16.4.2,
//! Tables 42-44), wrapping [`tcgen05::instruction_descriptor`].

use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::hash::{DefaultHasher, Hash, Hasher};
use tcgen05::bits::RowValue;
use tcgen05::instruction_descriptor::{
    line_fields, row, word, IdescDecoded, IdescField, IdescFields, InstructionDescriptor,
};
use tcgen05::{ElementType, Kind, MaxShift, ScaleType, Source};

use crate::args::Args;
use crate::html::{bit_table, Row};
use crate::problem::{self, descriptor_error, Problem};

/// The fields of a decoded value, as the Python attributes show them. Shared by the scalar
/// class and the NumPy batch path, so that both give the same answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct View {
    /// M.
    pub m: u16,
    /// N.
    pub n: u16,
    /// D type; `None` when the code is not defined for the kind.
    pub d_type: Option<ElementType>,
    /// A type; `None` when the code is not defined for the kind.
    pub a_type: Option<ElementType>,
    /// B type; `None` when the code is not defined for the kind.
    pub b_type: Option<ElementType>,
    /// Sparse A.
    pub sparse: bool,
    /// Sparsity selector.
    pub sparsity_selector: u8,
    /// Saturate.
    pub saturate: bool,
    /// Negate A.
    pub negate_a: bool,
    /// Negate B.
    pub negate_b: bool,
    /// Transpose A.
    pub transpose_a: bool,
    /// Transpose B.
    pub transpose_b: bool,
    /// Maximum shift, in rows (0, 8, 16, 32).
    pub max_shift: u8,
    /// Scale type (block-scaled kinds only).
    pub scale_type: Option<ScaleType>,
    /// Scale-factor A ID.
    pub sfa_id: u8,
    /// Scale-factor B ID.
    pub sfb_id: u8,
    /// Dense K = 96.
    pub k96: bool,
    /// K (Table 39), when the types are defined.
    pub k: Option<u16>,
}

impl View {
    /// The fields of `d`: the core's decoded fields, or, when a type code is undefined (the core
    /// then gives no fields), the values of the core's layout rows under the kind (an undefined
    /// type as `None`, and no K).
    #[inline]
    pub fn of(d: &IdescDecoded) -> View {
        if let Some(f) = d.fields {
            return View {
                m: f.m,
                n: f.n,
                d_type: Some(f.d_type),
                a_type: Some(f.a_type),
                b_type: Some(f.b_type),
                sparse: f.sparse,
                sparsity_selector: f.sparsity_selector,
                saturate: f.saturate,
                negate_a: f.negate_a,
                negate_b: f.negate_b,
                transpose_a: f.transpose_a,
                transpose_b: f.transpose_b,
                max_shift: f.max_shift.rows(),
                scale_type: f.scale_type,
                sfa_id: f.sfa_id,
                sfb_id: f.sfb_id,
                k96: f.k96,
                k: Some(f.k()),
            };
        }
        let raw = u64::from(d.bits);
        let mut v = View::default();
        for l in line_fields(d.kind) {
            v.set(l.row.field, l.value(raw));
        }
        v.k96 = row(d.kind, IdescField::K).is_some_and(|r| r.get(raw) == 1);
        v
    }

    /// Sets the attribute of `field` to a row's value.
    pub fn set(&mut self, field: IdescField, value: RowValue) {
        // Every value of Tables 42-44 fits its attribute: M and N up to 256, the rest less.
        let number = match value {
            RowValue::Number(n) => u16::try_from(n).unwrap_or(u16::MAX),
            _ => 0,
        };
        let on = matches!(value, RowValue::Bool(true));
        let name = match value {
            RowValue::Name(c) => Some(c.name),
            _ => None,
        };
        let small = u8::try_from(number).unwrap_or(u8::MAX);
        match field {
            IdescField::M => self.m = number,
            IdescField::N => self.n = number,
            IdescField::DType => self.d_type = name.and_then(ElementType::from_name),
            IdescField::AType => self.a_type = name.and_then(ElementType::from_name),
            IdescField::BType => self.b_type = name.and_then(ElementType::from_name),
            IdescField::Sparse => self.sparse = on,
            IdescField::SparsitySelector => self.sparsity_selector = small,
            IdescField::Saturate => self.saturate = on,
            IdescField::NegateA => self.negate_a = on,
            IdescField::NegateB => self.negate_b = on,
            IdescField::TransposeA => self.transpose_a = on,
            IdescField::TransposeB => self.transpose_b = on,
            IdescField::MaxShift => self.max_shift = small,
            IdescField::ScaleType => self.scale_type = name.and_then(ScaleType::from_name),
            IdescField::SfaId => self.sfa_id = small,
            IdescField::SfbId => self.sfb_id = small,
            // K (Table 39) is given only with the types; the K bit is read apart.
            _ => {}
        }
    }
}

/// The PTX table that lays out `kind`'s descriptor.
pub fn table_of(kind: Kind) -> u8 {
    match kind.idesc_layout() {
        tcgen05::IdescLayout::Table42 => 42,
        tcgen05::IdescLayout::Table43 => 43,
        tcgen05::IdescLayout::Table44 => 44,
    }
}

/// An instruction descriptor (PTX ISA 9.7.16.4.2, Tables 42-44): the 32-bit `idesc` operand of
/// `tcgen05.mma`.
///
/// Build one from fields with keywords (`InstructionDescriptor(kind="f16", d_type="f32",
/// a_type="bf16", b_type="bf16", m=128, n=256)`, which raises `DescriptorError` listing every
/// problem), or read any 32-bit value with `InstructionDescriptor.decode(raw, kind=...)`, which
/// never raises for a bad value and reports its problems in `.errors` and `.warnings`.
#[pyclass(module = "tcgen05", frozen, name = "InstructionDescriptor")]
#[derive(Debug)]
pub struct PyIdesc {
    bits: u32,
    kind: Kind,
    view: View,
    problems: Vec<Problem>,
}

impl PyIdesc {
    fn from_decoded(d: &IdescDecoded) -> PyIdesc {
        PyIdesc {
            bits: d.bits,
            kind: d.kind,
            view: View::of(d),
            problems: d
                .diagnostics
                .iter()
                .map(|e| Problem::from_diagnostic(&e))
                .collect(),
        }
    }
}

fn type_names() -> Vec<&'static str> {
    ElementType::ALL.iter().map(|t| t.name()).collect()
}

fn name_of(t: Option<ElementType>) -> Option<&'static str> {
    t.map(ElementType::name)
}

#[pymethods]
impl PyIdesc {
    /// Encodes the fields (keywords only); raises `DescriptorError` listing every problem, and
    /// `TypeError` for an argument of the wrong Python type. Booleans and IDs default to
    /// False / 0; `max_shift` is in rows (0, 8, 16 or 32); `scale_type` (`"ue8m0"` or `"ue4m3"`)
    /// defaults to UE8M0 for block-scaled kinds and to none otherwise.
    #[new]
    #[pyo3(signature = (*, kind, d_type, a_type, b_type, m, n, sparse=None, sparsity_selector=None,
        saturate=None, negate_a=None, negate_b=None, transpose_a=None, transpose_b=None,
        max_shift=None, scale_type=None, sfa_id=None, sfb_id=None, k96=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        kind: &Bound<'_, PyAny>,
        d_type: &Bound<'_, PyAny>,
        a_type: &Bound<'_, PyAny>,
        b_type: &Bound<'_, PyAny>,
        m: &Bound<'_, PyAny>,
        n: &Bound<'_, PyAny>,
        sparse: Option<&Bound<'_, PyAny>>,
        sparsity_selector: Option<&Bound<'_, PyAny>>,
        saturate: Option<&Bound<'_, PyAny>>,
        negate_a: Option<&Bound<'_, PyAny>>,
        negate_b: Option<&Bound<'_, PyAny>>,
        transpose_a: Option<&Bound<'_, PyAny>>,
        transpose_b: Option<&Bound<'_, PyAny>>,
        max_shift: Option<&Bound<'_, PyAny>>,
        scale_type: Option<&Bound<'_, PyAny>>,
        sfa_id: Option<&Bound<'_, PyAny>>,
        sfb_id: Option<&Bound<'_, PyAny>>,
        k96: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyIdesc> {
        let mut a = Args::default();
        let kind = a.kind(kind)?;
        let table = Source::PtxTable(kind.map_or(42, table_of));
        let types = type_names();
        let ty = |a: &mut Args, field: &str, obj: &Bound<'_, PyAny>| {
            a.name(field, obj, ElementType::from_name, &types, table)
        };
        let d_type = ty(&mut a, "d_type", d_type)?;
        let a_type = ty(&mut a, "a_type", a_type)?;
        let b_type = ty(&mut a, "b_type", b_type)?;
        let shape = Source::PtxTable(39);
        let m = a.int("m", m, u16::MAX.into(), shape)?;
        let n = a.int("n", n, u16::MAX.into(), shape)?;
        let small = |a: &mut Args, field: &str, obj: Option<&Bound<'_, PyAny>>| match obj {
            Some(o) if !o.is_none() => a.int(field, o, u8::MAX.into(), table),
            _ => Ok(0),
        };
        let sparsity_selector = small(&mut a, "sparsity_selector", sparsity_selector)?;
        let max_shift_rows = small(&mut a, "max_shift", max_shift)?;
        let sfa_id = small(&mut a, "sfa_id", sfa_id)?;
        let sfb_id = small(&mut a, "sfb_id", sfb_id)?;
        let max_shift_v = MaxShift::from_rows(max_shift_rows);
        if max_shift_v.is_none() {
            a.problems.push(Problem::argument(
                "max_shift",
                problem::Value::Int(max_shift_rows.into()),
                format!("{max_shift_rows} rows is not a maximum shift (0, 8, 16 or 32)"),
                table,
            ));
        }
        let scale = match scale_type.filter(|o| !o.is_none()) {
            Some(o) => a.name(
                "scale_type",
                o,
                ScaleType::from_name,
                &["ue8m0", "ue4m3"],
                table,
            )?,
            None => None,
        };
        let flags = [
            Args::flag("sparse", sparse, false)?,
            Args::flag("saturate", saturate, false)?,
            Args::flag("negate_a", negate_a, false)?,
            Args::flag("negate_b", negate_b, false)?,
            Args::flag("transpose_a", transpose_a, false)?,
            Args::flag("transpose_b", transpose_b, false)?,
            Args::flag("k96", k96, false)?,
        ];
        let (Some(kind), Some(d_type), Some(a_type), Some(b_type), Some(max_shift_v), true) = (
            kind,
            d_type,
            a_type,
            b_type,
            max_shift_v,
            a.problems.is_empty(),
        ) else {
            return Err(descriptor_error(py, "InstructionDescriptor", &a.problems));
        };
        // In range: checked above against u16 / u8.
        let (m, n) = (m as u16, n as u16);
        let (selector, sfa, sfb) = (sparsity_selector as u8, sfa_id as u8, sfb_id as u8);
        let mut fields = IdescFields::new(kind, d_type, a_type, b_type, m, n)
            .with_sparse(flags[0], selector)
            .with_saturate(flags[1])
            .with_negate(flags[2], flags[3])
            .with_transpose(flags[4], flags[5])
            .with_k96(flags[6])
            .with_max_shift(max_shift_v);
        if let Some(s) = scale {
            fields = fields.with_scale(s, sfa, sfb);
        } else {
            fields.sfa_id = sfa;
            fields.sfb_id = sfb;
        }
        let diagnostics = fields.validate();
        let problems: Vec<Problem> = diagnostics
            .iter()
            .map(|e| Problem::from_diagnostic(&e))
            .collect();
        if problems.iter().any(Problem::is_error) {
            return Err(descriptor_error(py, "InstructionDescriptor", &problems));
        }
        match InstructionDescriptor::try_new(fields) {
            Ok(d) => Ok(PyIdesc::from_decoded(&InstructionDescriptor::decode(
                d.bits(),
                kind,
            ))),
            Err(e) => Err(descriptor_error(
                py,
                "InstructionDescriptor",
                &[Problem::from_diagnostic(&e)],
            )),
        }
    }

    /// The same as the constructor: `InstructionDescriptor.encode(kind=..., m=..., ...)`.
    #[staticmethod]
    #[pyo3(signature = (**fields))]
    fn encode(py: Python<'_>, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyIdesc>> {
        let obj = py.get_type::<PyIdesc>().call((), fields)?;
        Ok(obj.cast_into::<PyIdesc>()?.unbind())
    }

    /// Reads any 32-bit value under `kind` (Tables 42-44) and reports every problem in
    /// `.errors` / `.warnings`; raises only for an argument of the wrong type (`TypeError`), a
    /// value outside 0..2^32 or an unknown kind (`DescriptorError`).
    #[staticmethod]
    #[pyo3(signature = (raw, *, kind))]
    fn decode(
        py: Python<'_>,
        raw: &Bound<'_, PyAny>,
        kind: &Bound<'_, PyAny>,
    ) -> PyResult<PyIdesc> {
        let mut a = Args::default();
        let k = a.kind(kind)?;
        let bits = a.int(
            "raw",
            raw,
            u32::MAX.into(),
            Source::PtxTable(k.map_or(42, table_of)),
        )?;
        match k {
            Some(k) if a.problems.is_empty() => Ok(PyIdesc::from_decoded(
                &InstructionDescriptor::decode(bits as u32, k),
            )),
            _ => Err(descriptor_error(
                py,
                "InstructionDescriptor.decode",
                &a.problems,
            )),
        }
    }

    /// The 32-bit value.
    #[getter]
    fn bits(&self) -> u32 {
        self.bits
    }
    /// The kind whose layout the value follows.
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind.name()
    }
    /// The PTX table of the layout: 42, 43 or 44.
    #[getter]
    fn table(&self) -> u8 {
        table_of(self.kind)
    }
    /// M.
    #[getter]
    fn m(&self) -> u16 {
        self.view.m
    }
    /// N.
    #[getter]
    fn n(&self) -> u16 {
        self.view.n
    }
    /// K (Table 39), or None when a type code is undefined.
    #[getter]
    fn k(&self) -> Option<u16> {
        self.view.k
    }
    /// D (accumulator) type, or None when its code is undefined for the kind.
    #[getter]
    fn d_type(&self) -> Option<&'static str> {
        name_of(self.view.d_type)
    }
    /// A type, or None when its code is undefined for the kind.
    #[getter]
    fn a_type(&self) -> Option<&'static str> {
        name_of(self.view.a_type)
    }
    /// B type, or None when its code is undefined for the kind.
    #[getter]
    fn b_type(&self) -> Option<&'static str> {
        name_of(self.view.b_type)
    }
    /// Sparse A.
    #[getter]
    fn sparse(&self) -> bool {
        self.view.sparse
    }
    /// Sparsity selector.
    #[getter]
    fn sparsity_selector(&self) -> u8 {
        self.view.sparsity_selector
    }
    /// Saturate.
    #[getter]
    fn saturate(&self) -> bool {
        self.view.saturate
    }
    /// Negate A.
    #[getter]
    fn negate_a(&self) -> bool {
        self.view.negate_a
    }
    /// Negate B.
    #[getter]
    fn negate_b(&self) -> bool {
        self.view.negate_b
    }
    /// Transpose A.
    #[getter]
    fn transpose_a(&self) -> bool {
        self.view.transpose_a
    }
    /// Transpose B.
    #[getter]
    fn transpose_b(&self) -> bool {
        self.view.transpose_b
    }
    /// Maximum shift of `.ws`, in rows (0, 8, 16, 32).
    #[getter]
    fn max_shift(&self) -> u8 {
        self.view.max_shift
    }
    /// Scale type of block-scaled kinds (`"ue8m0"`, `"ue4m3"`), else None.
    #[getter]
    fn scale_type(&self) -> Option<&'static str> {
        self.view.scale_type.map(ScaleType::name)
    }
    /// Scale-factor A ID.
    #[getter]
    fn sfa_id(&self) -> u8 {
        self.view.sfa_id
    }
    /// Scale-factor B ID.
    #[getter]
    fn sfb_id(&self) -> u8 {
        self.view.sfb_id
    }
    /// Dense K = 96 (bit 23 of Tables 43-44).
    #[getter]
    fn k96(&self) -> bool {
        self.view.k96
    }
    /// True when the value has no error (warnings allowed).
    #[getter]
    fn valid(&self) -> bool {
        !self.problems.iter().any(Problem::is_error)
    }
    /// Every error, in the order the core finds them.
    #[getter]
    fn errors(&self) -> Vec<Problem> {
        problem::errors(&self.problems)
    }
    /// Every warning.
    #[getter]
    fn warnings(&self) -> Vec<Problem> {
        problem::warnings(&self.problems)
    }
    /// The fields as a dict (the names of the Rust fields and of the command's JSON keys).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let v = &self.view;
        d.set_item("kind", self.kind.name())?;
        d.set_item("m", v.m)?;
        d.set_item("n", v.n)?;
        d.set_item("k", v.k)?;
        d.set_item("d_type", name_of(v.d_type))?;
        d.set_item("a_type", name_of(v.a_type))?;
        d.set_item("b_type", name_of(v.b_type))?;
        d.set_item("sparse", v.sparse)?;
        d.set_item("sparsity_selector", v.sparsity_selector)?;
        d.set_item("saturate", v.saturate)?;
        d.set_item("negate_a", v.negate_a)?;
        d.set_item("negate_b", v.negate_b)?;
        d.set_item("transpose_a", v.transpose_a)?;
        d.set_item("transpose_b", v.transpose_b)?;
        d.set_item("max_shift", v.max_shift)?;
        d.set_item("scale_type", v.scale_type.map(ScaleType::name))?;
        d.set_item("sfa_id", v.sfa_id)?;
        d.set_item("sfb_id", v.sfb_id)?;
        d.set_item("k96", v.k96)?;
        Ok(d)
    }
    /// The bit table: one row per field of the kind's layout (bits, field, raw value, meaning).
    fn rows(&self) -> Vec<Row> {
        word(self.bits, self.kind)
            .rows()
            .map(|r| Row {
                lo: r.row.lo,
                hi: r.row.hi(),
                field: r.row.field.name().to_owned(),
                raw: r.bits(),
                meaning: r.to_string(),
            })
            .collect()
    }
    /// Equal to another `InstructionDescriptor` of the same 32 bits read under the same kind
    /// (everything else follows from those two); never equal to anything else, an `int`
    /// included (compare `.bits` for that).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyIdesc>().is_ok_and(|o| {
            let o = o.get();
            o.bits == self.bits && o.kind == self.kind
        })
    }
    /// A hash of what `==` compares.
    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.bits, self.kind.name()).hash(&mut h);
        h.finish()
    }
    fn __int__(&self) -> u32 {
        self.bits
    }
    fn __index__(&self) -> u32 {
        self.bits
    }
    fn __repr__(&self) -> String {
        let v = &self.view;
        let ty =
            |t: Option<ElementType>| name_of(t).map_or("None".to_owned(), |s| format!("'{s}'"));
        let mut s = format!(
            "InstructionDescriptor(0x{:08x}, kind='{}', m={}, n={}, d_type={}, a_type={}, b_type={}",
            self.bits,
            self.kind.name(),
            v.m,
            v.n,
            ty(v.d_type),
            ty(v.a_type),
            ty(v.b_type)
        );
        for (name, on) in [
            ("sparse", v.sparse),
            ("saturate", v.saturate),
            ("negate_a", v.negate_a),
            ("negate_b", v.negate_b),
            ("transpose_a", v.transpose_a),
            ("transpose_b", v.transpose_b),
            ("k96", v.k96),
        ] {
            if on {
                s.push_str(&format!(", {name}=True"));
            }
        }
        if v.sparse {
            s.push_str(&format!(", sparsity_selector={}", v.sparsity_selector));
        }
        if v.max_shift != 0 {
            s.push_str(&format!(", max_shift={}", v.max_shift));
        }
        if let Some(st) = v.scale_type {
            s.push_str(&format!(
                ", scale_type='{}', sfa_id={}, sfb_id={}",
                st.name(),
                v.sfa_id,
                v.sfb_id
            ));
        }
        let errors = self.problems.iter().filter(|p| p.is_error()).count();
        if errors > 0 {
            s.push_str(&format!(", valid=False, errors={errors}"));
        }
        s.push(')');
        s
    }
    fn _repr_html_(&self) -> String {
        bit_table(
            &format!(
                "Instruction descriptor 0x{:08x}, kind::{} (PTX ISA 9.7.16.4.2 Table {})",
                self.bits,
                self.kind.name(),
                table_of(self.kind)
            ),
            &self.rows(),
            &self.problems,
        )
    }
}
