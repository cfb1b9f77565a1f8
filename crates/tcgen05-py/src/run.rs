//! `tcgen05.run`: whole PTX kernels run by the `tcgen05-run` interpreter. This file reads the
//! Python arguments (tagged tuples built by `python/tcgen05/run.py`), calls
//! [`tcgen05_run::launch`], and turns every [`RunError`] into a typed Python exception carrying
//! its fields. Every rule is the interpreter's.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use tcgen05_run::approx::Approx;
use tcgen05_run::param_match::{float_arg, int_arg};
use tcgen05_run::tensor_map::TensorMap;
use tcgen05_run::tensor_map_encode::{
    encode_tiled, extent, DataType, EncodeTiled, Interleave, L2Promotion, MapSwizzle, OobFill,
};
use tcgen05_run::{launch_with, Arg, Config, Hooks, Limits, Module, RunError};

use crate::run_errors::{
    ArgumentError, InvalidPtxError, LaunchError, MemoryAccessError, NoKernelError, NoProgressError,
    RunError as PyRunError, StepLimitError, TensorMapError, UnsupportedError,
};

/// The exception for `e`, its fields as attributes.
pub(crate) fn run_error(py: Python<'_>, e: &RunError) -> PyErr {
    let msg = e.to_string();
    let (err, kind) = match e {
        RunError::Unsupported { .. } => (UnsupportedError::new_err(msg), "Unsupported"),
        RunError::Invalid { .. } => (InvalidPtxError::new_err(msg), "Invalid"),
        RunError::NoKernel { .. } => (NoKernelError::new_err(msg), "NoKernel"),
        RunError::Argument { .. } => (ArgumentError::new_err(msg), "Argument"),
        RunError::Launch { .. } => (LaunchError::new_err(msg), "Launch"),
        RunError::Memory { .. } => (MemoryAccessError::new_err(msg), "Memory"),
        RunError::StepLimit { .. } => (StepLimitError::new_err(msg), "StepLimit"),
        RunError::NoProgress { .. } => (NoProgressError::new_err(msg), "NoProgress"),
        RunError::TensorMap { .. } => (TensorMapError::new_err(msg), "TensorMap"),
        // Kinds of error added to the interpreter later: the base class, the kind from Debug.
        #[allow(unreachable_patterns)]
        _ => (PyRunError::new_err(msg), "Other"),
    };
    let attach = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("kind", kind)?;
        match e {
            RunError::Unsupported { line, what, why } => {
                v.setattr("line", line)?;
                v.setattr("what", what)?;
                v.setattr("why", why)?;
            }
            RunError::Invalid { line, what, why } => {
                v.setattr("line", line)?;
                v.setattr("what", what)?;
                v.setattr("why", why)?;
            }
            RunError::NoKernel { name, available } => {
                v.setattr("name", name)?;
                v.setattr("available", available.clone())?;
            }
            RunError::Argument { param, why } => {
                v.setattr("param", param)?;
                v.setattr("why", why)?;
            }
            RunError::Launch { field, value, why } => {
                v.setattr("field", field)?;
                v.setattr("value", value)?;
                v.setattr("why", why)?;
            }
            RunError::Memory {
                line,
                space,
                address,
                size,
                why,
            } => {
                v.setattr("line", line)?;
                v.setattr("space", space)?;
                v.setattr("address", address)?;
                v.setattr("size", size)?;
                v.setattr("why", why)?;
            }
            RunError::StepLimit { limit } => v.setattr("limit", limit)?,
            RunError::NoProgress { cta, waiting } => {
                v.setattr("cta", (cta[0], cta[1], cta[2]))?;
                v.setattr("waiting", waiting)?;
            }
            RunError::TensorMap { field, value, why } => {
                v.setattr("field", field)?;
                v.setattr("value", value)?;
                v.setattr("why", why)?;
                v.setattr("problems", vec![(field, value, why)])?;
            }
            #[allow(unreachable_patterns)]
            _ => {}
        }
        Ok(())
    };
    match attach() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A `TensorMapError` listing every problem.
fn tensor_map_error(py: Python<'_>, problems: &[RunError]) -> PyErr {
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let err = TensorMapError::new_err(text.join("; "));
    let list: Vec<(String, String, String)> = problems
        .iter()
        .filter_map(|p| match p {
            RunError::TensorMap { field, value, why } => {
                Some((field.clone(), value.clone(), why.clone()))
            }
            _ => None,
        })
        .collect();
    let attach = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("kind", "TensorMap")?;
        if let Some((f, val, why)) = list.first() {
            v.setattr("field", f)?;
            v.setattr("value", val)?;
            v.setattr("why", why)?;
        }
        v.setattr("problems", list.clone())
    };
    match attach() {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn enum_value<T>(
    py: Python<'_>,
    field: &str,
    given: &str,
    parse: impl Fn(&str) -> Option<T>,
    names: &str,
) -> PyResult<T> {
    parse(given).ok_or_else(|| {
        tensor_map_error(
            py,
            &[RunError::TensorMap {
                field: field.into(),
                value: given.into(),
                why: format!("not one of {names} (CUDA driver API 6.30)"),
            }],
        )
    })
}

/// The `cuTensorMapEncodeTiled` parameters of a spec dict (`python/tcgen05/run.py` builds it).
fn spec(py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<EncodeTiled> {
    let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(k)?
            .ok_or_else(|| PyTypeError::new_err(format!("tensor map spec: no `{k}`")))
    };
    let s = |k: &str| -> PyResult<String> { get(k)?.extract() };
    Ok(EncodeTiled {
        data_type: enum_value(
            py,
            "tensorDataType",
            &s("data_type")?,
            DataType::parse,
            "u8 u16 u32 i32 u64 i64 f16 f32 f64 bf16 tf32 or a CU_TENSOR_MAP_DATA_TYPE_ suffix",
        )?,
        global_address: get("global_address")?.extract()?,
        global_dim: get("global_dim")?.extract()?,
        global_strides: get("global_strides")?.extract()?,
        box_dim: get("box_dim")?.extract()?,
        element_strides: get("element_strides")?.extract()?,
        interleave: enum_value(
            py,
            "interleave",
            &s("interleave")?,
            |n| match n.to_ascii_lowercase().as_str() {
                "none" => Some(Interleave::None),
                "16b" => Some(Interleave::B16),
                "32b" => Some(Interleave::B32),
                _ => None,
            },
            "none, 16B, 32B",
        )?,
        swizzle: enum_value(
            py,
            "swizzle",
            &s("swizzle")?,
            MapSwizzle::parse,
            "none, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B",
        )?,
        l2_promotion: enum_value(
            py,
            "l2Promotion",
            &s("l2_promotion")?,
            |n| match n.to_ascii_lowercase().as_str() {
                "none" => Some(L2Promotion::None),
                "64b" => Some(L2Promotion::B64),
                "128b" => Some(L2Promotion::B128),
                "256b" => Some(L2Promotion::B256),
                _ => None,
            },
            "none, 64B, 128B, 256B",
        )?,
        oob_fill: enum_value(
            py,
            "oobFill",
            &s("oob_fill")?,
            |n| match n.to_ascii_lowercase().as_str() {
                "none" | "zero" => Some(OobFill::None),
                "nan" | "nan_request_zero_fma" => Some(OobFill::NanRequestZeroFma),
                _ => None,
            },
            "none (zero), nan",
        )?,
    })
}

/// Encodes a tensor map spec, checking it with the driver's rules and the buffer's size.
fn encode(py: Python<'_>, d: &Bound<'_, PyDict>, data_len: usize) -> PyResult<TensorMap> {
    let p = spec(py, d)?;
    let map = encode_tiled(&p).map_err(|e| tensor_map_error(py, &e))?;
    let need = extent(&map).saturating_add(p.global_address);
    if need > data_len as u64 {
        return Err(tensor_map_error(
            py,
            &[RunError::TensorMap {
                field: "globalDim/globalStrides".into(),
                value: format!("{:?} / {:?}", p.global_dim, p.global_strides),
                why: format!("the tensor reaches {need} bytes, its array holds {data_len}"),
            }],
        ));
    }
    Ok(map)
}

/// Checks a tensor map spec (raises `TensorMapError` with every problem).
#[pyfunction]
pub fn _run_check_tensor_map(
    py: Python<'_>,
    spec: &Bound<'_, PyDict>,
    data_len: usize,
) -> PyResult<()> {
    encode(py, spec, data_len).map(|_| ())
}

/// One `.param`: (name, size, align, type, pointer).
type ParamRow = (String, u32, u32, String, bool);

/// A run's stats and the bytes of its buffers after it.
type Launched<'py> = (Bound<'py, PyDict>, Vec<Option<Bound<'py, PyBytes>>>);

/// The `.param` list of `kernel`: (name, size, align, type, pointer) each.
#[pyfunction]
pub fn _run_params(py: Python<'_>, ptx: &str, kernel: &str) -> PyResult<Vec<ParamRow>> {
    let module = Module::read(ptx).map_err(|e| run_error(py, &e))?;
    let k = module.kernel(kernel).map_err(|e| run_error(py, &e))?;
    Ok(k.params
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                p.size,
                p.align,
                format!("{:?}", p.ty),
                p.pointer,
            )
        })
        .collect())
}

/// The contents of a `bytes` object.
fn bytes(o: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    Ok(o.cast::<PyBytes>()?.as_bytes().to_vec())
}

/// One argument from its tagged tuple, for parameter `i`.
pub(crate) fn argument(
    py: Python<'_>,
    params: &[tcgen05_run::Param],
    i: usize,
    item: &Bound<'_, PyAny>,
) -> PyResult<Arg> {
    let (tag, payload): (String, Bound<'_, PyAny>) = item.extract()?;
    let param = params.get(i);
    let typed = |f: &dyn Fn(&tcgen05_run::Param) -> Result<Arg, RunError>| match param {
        Some(p) => f(p).map_err(|e| run_error(py, &e)),
        None => Err(run_error(
            py,
            &RunError::Argument {
                param: format!("argument {i}"),
                why: format!("the kernel declares {} parameters", params.len()),
            },
        )),
    };
    Ok(match tag.as_str() {
        "buffer" => Arg::Buffer(bytes(&payload)?),
        "null" => Arg::Null,
        "bytes" => Arg::Scalar(bytes(&payload)?),
        "int" => {
            let v: i128 = payload.extract()?;
            typed(&|p| int_arg(p, v))?
        }
        "float" => {
            let v: f64 = payload.extract()?;
            typed(&|p| float_arg(p, v))?
        }
        "tensormap" => {
            let (d, data): (Bound<'_, PyDict>, Bound<'_, PyAny>) = payload.extract()?;
            let data = bytes(&data)?;
            let map = encode(py, &d, data.len())?;
            Arg::TensorMap(map, data)
        }
        t => return Err(PyTypeError::new_err(format!("unknown argument tag {t:?}"))),
    })
}

/// Runs `kernel`; returns (stats, the bytes of every buffer and tensor map argument after the
/// run, None for the others). `approx` is the command's `--approx` list (`"ex2=rn,div=rn"`,
/// empty: none; [`tcgen05_run::approx`]).
#[pyfunction]
#[pyo3(signature = (ptx, kernel, grid, block, cluster, shared, args, max_steps, approx = ""))]
#[allow(clippy::too_many_arguments)]
pub fn _run_launch<'py>(
    py: Python<'py>,
    ptx: &str,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    cluster: [u32; 3],
    shared: u32,
    args: &Bound<'py, PyList>,
    max_steps: u64,
    approx: &str,
) -> PyResult<Launched<'py>> {
    let approx = Approx::parse(approx).map_err(|e| run_error(py, &e))?;
    let module = Module::read(ptx).map_err(|e| run_error(py, &e))?;
    let params = module
        .kernel(kernel)
        .map_err(|e| run_error(py, &e))?
        .params
        .clone();
    let mut list = Vec::with_capacity(args.len());
    for (i, item) in args.iter().enumerate() {
        list.push(argument(py, &params, i, &item)?);
    }
    let config = Config {
        grid,
        block,
        cluster,
        shared,
        limits: Limits { steps: max_steps },
    };
    let start = std::time::Instant::now();
    let result = py.detach(|| {
        // Built here: `Hooks` may hold an observer, which does not cross the detach.
        let hooks = Hooks {
            approx,
            ..Hooks::default()
        };
        launch_with(&module, kernel, &config, &mut list, hooks)
    });
    let seconds = start.elapsed().as_secs_f64();
    let stats = result.map_err(|e| run_error(py, &e))?;
    let d = PyDict::new(py);
    d.set_item("ctas", stats.ctas)?;
    d.set_item("warp_instructions", stats.warp_instructions)?;
    d.set_item("thread_instructions", stats.thread_instructions)?;
    d.set_item("mmas", stats.mmas)?;
    d.set_item("bytes_moved", stats.bytes_moved)?;
    d.set_item("seconds", seconds)?;
    let out = list
        .iter()
        .map(|a| match a {
            Arg::Buffer(b) | Arg::TensorMap(_, b) => Some(PyBytes::new(py, b)),
            _ => None,
        })
        .collect();
    Ok((d, out))
}
