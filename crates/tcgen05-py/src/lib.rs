//! The native half of the `tcgen05` Python package: PyO3 classes and functions that wrap the
//! `tcgen05` crate. Nothing here decides a rule: every check, encoding and decoding is the core
//! crate's; this crate reads Python arguments strictly (`TypeError` for a wrong type, a
//! `DescriptorError` problem for a wrong value) and renders the core's answers as Python objects.
//!
//! The Python package `tcgen05` (under `python/`) re-exports these and adds the NumPy views.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tcgen05::instruction_descriptor::InstructionDescriptor;
use tcgen05::shapes::{shapes as core_shapes, ShapeFilter};
use tcgen05::shared_memory_descriptor::{LboMode, Swizzle};
use tcgen05::{CtaGroup, ElementType, Kind, ScaleType, Source, Target};

mod args;
mod batch;
mod check;
mod emulate;
mod explain;
mod fields;
mod html;
mod idesc;
mod layout;
mod numerics;
mod problem;
mod ptx;
mod run;
mod run_errors;
mod run_hazards;
mod scales;
mod smem;
mod tmem;
mod zmask;

use args::Args;
use problem::{descriptor_error, Problem};

/// The kinds under which `raw` decodes without errors (warnings allowed), in the order of
/// `KINDS` (PTX ISA 9.7.16.4.2, Tables 42-44).
#[pyfunction]
fn valid_kinds(py: Python<'_>, raw: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    let bits = args::raw(py, "valid_kinds", raw, u32::MAX.into(), 42)?;
    Ok(InstructionDescriptor::valid_kinds(bits as u32)
        .iter()
        .map(Kind::name)
        .collect())
}

/// One valid MMA shape of Table 39 (PTX ISA 9.7.16.2.1).
#[pyclass(module = "tcgen05", frozen, name = "Shape")]
#[derive(Clone, Copy, Debug)]
struct PyShape(tcgen05::shapes::Shape);

#[pymethods]
impl PyShape {
    /// The kind.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.name()
    }
    /// `.cta_group` (1 or 2).
    #[getter]
    fn cta_group(&self) -> u8 {
        self.0.cta_group.count()
    }
    /// `tcgen05.mma.ws`.
    #[getter]
    fn ws(&self) -> bool {
        self.0.ws
    }
    /// Sparse A.
    #[getter]
    fn sparse(&self) -> bool {
        self.0.sparse
    }
    /// M.
    #[getter]
    fn m(&self) -> u16 {
        self.0.m
    }
    /// N.
    #[getter]
    fn n(&self) -> u16 {
        self.0.n
    }
    /// K.
    #[getter]
    fn k(&self) -> u16 {
        self.0.k
    }
    fn __repr__(&self) -> String {
        let s = &self.0;
        format!(
            "Shape(kind='{}', cta_group={}, ws={}, sparse={}, m={}, n={}, k={})",
            s.kind.name(),
            s.cta_group.count(),
            if s.ws { "True" } else { "False" },
            if s.sparse { "True" } else { "False" },
            s.m,
            s.n,
            s.k
        )
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyShape>>()
            .is_ok_and(|o| o.0 == self.0)
    }
    fn __hash__(&self) -> u64 {
        let s = &self.0;
        (u64::from(s.m) << 32)
            ^ (u64::from(s.n) << 16)
            ^ u64::from(s.k)
            ^ ((s.kind as u64) << 48)
            ^ (u64::from(s.cta_group.count()) << 56)
            ^ (u64::from(s.ws) << 60)
            ^ (u64::from(s.sparse) << 61)
    }
}

/// Every valid `(kind, cta_group, ws, sparse, M, N, K)` of Table 39 (PTX ISA 9.7.16.2.1;
/// rules.md R14-R17) on `target` (default `"sm_100a"`), in Table 39 order; each filter left
/// as None lets every value through.
#[pyfunction]
#[pyo3(signature = (*, kind=None, cta_group=None, target=None, ws=None, sparse=None))]
fn shapes(
    py: Python<'_>,
    kind: Option<&Bound<'_, PyAny>>,
    cta_group: Option<&Bound<'_, PyAny>>,
    target: Option<&Bound<'_, PyAny>>,
    ws: Option<&Bound<'_, PyAny>>,
    sparse: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PyShape>> {
    let mut a = Args::default();
    let kind = match kind.filter(|o| !o.is_none()) {
        Some(o) => Some(a.kind(o)?),
        None => None,
    };
    let cta_group = match cta_group.filter(|o| !o.is_none()) {
        Some(o) => {
            let n = a.int("cta_group", o, u64::MAX, Source::PtxTable(39))?;
            let g = CtaGroup::from_count(n);
            if g.is_none() && a.problems.is_empty() {
                a.problems.push(Problem::argument(
                    "cta_group",
                    problem::Value::Int(n.into()),
                    format!("{n} is not a .cta_group (1 or 2)"),
                    Source::PtxTable(39),
                ));
            }
            Some(g)
        }
        None => None,
    };
    let target = a.target(target)?;
    let ws = match ws.filter(|o| !o.is_none()) {
        Some(o) => Some(Args::flag("ws", Some(o), false)?),
        None => None,
    };
    let sparse = match sparse.filter(|o| !o.is_none()) {
        Some(o) => Some(Args::flag("sparse", Some(o), false)?),
        None => None,
    };
    let Some(target) = target.filter(|_| a.problems.is_empty()) else {
        return Err(descriptor_error(py, "shapes", &a.problems));
    };
    let filter = ShapeFilter {
        kind: kind.flatten(),
        cta_group: cta_group.flatten(),
        ws,
        sparse,
    };
    let mut seen = std::collections::BTreeSet::new();
    Ok(core_shapes(target, filter)
        .filter(|s| seen.insert(*s))
        .map(PyShape)
        .collect())
}

fn names<T: Copy>(py: Python<'_>, all: &[T], name: fn(T) -> &'static str) -> PyResult<Py<PyTuple>> {
    Ok(PyTuple::new(py, all.iter().map(|t| name(*t)))?.unbind())
}

/// The native module, `tcgen05._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DescriptorError", py.get_type::<problem::DescriptorError>())?;
    m.add_class::<Problem>()?;
    m.add_class::<html::Row>()?;
    m.add_class::<idesc::PyIdesc>()?;
    m.add_class::<smem::PySmem>()?;
    m.add_class::<zmask::PyZmask>()?;
    m.add_class::<PyShape>()?;
    m.add_function(wrap_pyfunction!(valid_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain, m)?)?;
    m.add_function(wrap_pyfunction!(shapes, m)?)?;
    m.add_function(wrap_pyfunction!(batch::decode_idesc_records, m)?)?;
    m.add_function(wrap_pyfunction!(batch::decode_smem_records, m)?)?;
    m.add("EmulationError", py.get_type::<emulate::EmulationError>())?;
    m.add_class::<emulate::PyOutcome>()?;
    m.add_class::<emulate::PyEmulator>()?;
    m.add_class::<layout::PyTileLayout>()?;
    m.add_class::<layout::PyMatrixLayout>()?;
    m.add_function(wrap_pyfunction!(layout::py_agreement, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::ld_fragment, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::d_layout, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::a_layout, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::sf_layout, m)?)?;
    m.add_function(wrap_pyfunction!(scales::sf_offsets, m)?)?;
    m.add_function(wrap_pyfunction!(scales::sf_check_chain, m)?)?;
    m.add_function(wrap_pyfunction!(scales::svg_global, m)?)?;
    m.add_function(wrap_pyfunction!(scales::svg_chain, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::svg_ld, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::svg_d, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::svg_cp, m)?)?;
    m.add_function(wrap_pyfunction!(tmem::svg_sf, m)?)?;
    m.add_class::<check::PyFinding>()?;
    m.add_class::<check::PyKnownBits>()?;
    m.add_class::<check::PyInstruction>()?;
    m.add_class::<check::PyReport>()?;
    m.add_function(wrap_pyfunction!(check::check_ptx, m)?)?;
    m.add_class::<numerics::PyTerm>()?;
    m.add_class::<numerics::PyDot>()?;
    m.add_function(wrap_pyfunction!(numerics::dot, m)?)?;
    m.add_function(wrap_pyfunction!(numerics::form, m)?)?;
    m.add_function(wrap_pyfunction!(numerics::mma_codes, m)?)?;
    m.add_function(wrap_pyfunction!(numerics::rows, m)?)?;
    m.add_function(wrap_pyfunction!(numerics::encode, m)?)?;
    m.add_function(wrap_pyfunction!(numerics::decode, m)?)?;
    m.add_function(wrap_pyfunction!(ptx::ptx_mma, m)?)?;
    m.add_function(wrap_pyfunction!(ptx::ptx_ld, m)?)?;
    m.add_function(wrap_pyfunction!(ptx::ptx_st, m)?)?;
    m.add_function(wrap_pyfunction!(ptx::ptx_cp, m)?)?;
    m.add_function(wrap_pyfunction!(ptx::ptx_group_op, m)?)?;
    m.add_function(wrap_pyfunction!(ptx::ptx_fence_wait, m)?)?;
    m.add_function(wrap_pyfunction!(ptx::ptx_preamble, m)?)?;
    m.add("RunError", py.get_type::<run_errors::RunError>())?;
    m.add(
        "UnsupportedError",
        py.get_type::<run_errors::UnsupportedError>(),
    )?;
    m.add(
        "InvalidPtxError",
        py.get_type::<run_errors::InvalidPtxError>(),
    )?;
    m.add("NoKernelError", py.get_type::<run_errors::NoKernelError>())?;
    m.add("ArgumentError", py.get_type::<run_errors::ArgumentError>())?;
    m.add("LaunchError", py.get_type::<run_errors::LaunchError>())?;
    m.add(
        "MemoryAccessError",
        py.get_type::<run_errors::MemoryAccessError>(),
    )?;
    m.add(
        "StepLimitError",
        py.get_type::<run_errors::StepLimitError>(),
    )?;
    m.add(
        "NoProgressError",
        py.get_type::<run_errors::NoProgressError>(),
    )?;
    m.add(
        "TensorMapError",
        py.get_type::<run_errors::TensorMapError>(),
    )?;
    m.add_function(wrap_pyfunction!(run::_run_launch, m)?)?;
    m.add_function(wrap_pyfunction!(run_hazards::_run_hazards, m)?)?;
    m.add_function(wrap_pyfunction!(run::_run_params, m)?)?;
    m.add_function(wrap_pyfunction!(run::_run_check_tensor_map, m)?)?;
    m.add("KINDS", names(py, &Kind::ALL, Kind::name)?)?;
    m.add(
        "ELEMENT_TYPES",
        names(py, &ElementType::ALL, ElementType::name)?,
    )?;
    m.add("TARGETS", names(py, &Target::ALL, Target::name)?)?;
    m.add("SWIZZLES", names(py, &Swizzle::ALL, Swizzle::name)?)?;
    m.add("LBO_MODES", names(py, &LboMode::ALL, LboMode::name)?)?;
    m.add(
        "SCALE_TYPES",
        names(py, &[ScaleType::Ue4m3, ScaleType::Ue8m0], ScaleType::name)?,
    )?;
    m.add("IDESC_RECORD", batch::IDESC_RECORD.to_vec())?;
    m.add("IDESC_RECORD_SIZE", batch::IDESC_SIZE)?;
    m.add("SMEM_RECORD", batch::SMEM_RECORD.to_vec())?;
    m.add("SMEM_RECORD_SIZE", batch::SMEM_SIZE)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
