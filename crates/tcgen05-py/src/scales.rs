//! Global scale-factor layouts and the chain check for `tcgen05.scales`, wrapping
//! [`tcgen05::scale_factors`] and [`tcgen05::scale_factor_chain`]: the offsets come from the
//! core; `tcgen05.scales` scatters and gathers NumPy arrays with them.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tcgen05::scale_factor_chain::{chain_reads, check_chain, one_tile_chain, ChainAgreement};
use tcgen05::scale_factors::{
    validate_scheme, GlobalSfLayout, ScaleFormat, SfArrangement, SfIndex,
};
use tcgen05::tensor_memory::{CpMulticast, CpShape};
use tcgen05::Source;
use tcgen05_svg::{svg_sf_chain, svg_sf_global};

use crate::problem::{descriptor_error, Problem, Value};

const SF: Source = Source::PtxSection("9.7.16.10.7");

fn name_problem(field: &str, value: &str, expected: &str) -> Problem {
    Problem::argument(
        field,
        Value::Name(value.to_owned()),
        format!("unknown {field} {value:?} (expected {expected})"),
        SF,
    )
}

/// The layout named `layout` of `batches` x `rows` x `k_blocks`, checked with the scale
/// format and vector.
fn layout_of(
    py: Python<'_>,
    what: &str,
    layout: &str,
    (rows, k_blocks, batches): (u32, u32, u32),
    format: &str,
    vec: u32,
) -> PyResult<GlobalSfLayout> {
    let mut problems = Vec::new();
    let arr = SfArrangement::from_name(layout);
    if arr.is_none() {
        problems.push(name_problem(
            "layout",
            layout,
            "\"blocked\", \"k-major\", \"mn-major\" or \"blocked-twice\"",
        ));
    }
    match ScaleFormat::from_name(format) {
        Some(f) => {
            if let Err(e) = validate_scheme(f, vec) {
                problems.push(Problem::from_diagnostic(&e));
            }
        }
        None => problems.push(name_problem("format", format, "\"ue8m0\" or \"ue4m3\"")),
    }
    let Some(arr) = arr else {
        return Err(descriptor_error(py, what, &problems));
    };
    match GlobalSfLayout::try_new(arr, rows, k_blocks, batches) {
        Ok(g) if problems.is_empty() => Ok(g),
        Ok(_) => Err(descriptor_error(py, what, &problems)),
        Err(e) => {
            problems.push(Problem::from_diagnostic(&e));
            Err(descriptor_error(py, what, &problems))
        }
    }
}

/// The byte offset of every (batch, row, K block), row-major, as little-endian u64, and the
/// layout's size in bytes (padding included).
#[pyfunction]
#[pyo3(name = "_sf_offsets", signature = (layout, rows, k_blocks, *, batches=1, format="ue8m0", vec=32))]
pub fn sf_offsets<'py>(
    py: Python<'py>,
    layout: &str,
    rows: u32,
    k_blocks: u32,
    batches: u32,
    format: &str,
    vec: u32,
) -> PyResult<(Bound<'py, PyBytes>, u64)> {
    let g = layout_of(py, "scales", layout, (rows, k_blocks, batches), format, vec)?;
    let mut out = Vec::with_capacity(8 * (rows as usize) * (k_blocks as usize) * batches as usize);
    for batch in 0..batches {
        for row in 0..rows {
            for k_block in 0..k_blocks {
                let i = SfIndex {
                    batch,
                    row,
                    k_block,
                };
                let o = g
                    .offset(i)
                    .map_err(|e| descriptor_error(py, "scales", &[Problem::from_diagnostic(&e)]))?;
                out.extend_from_slice(&o.to_le_bytes());
            }
        }
    }
    Ok((PyBytes::new(py, &out), g.bytes()))
}

type Difference = (
    usize,
    u32,
    u32,
    Option<(u32, u32)>,
    (u32, u32, u32, u32),
    Option<u32>,
    Option<u64>,
    Option<(u32, u32)>,
);

/// The CUTLASS-style chain of one 128 x 4 tile of scale_A ([`one_tile_chain`]) fed the host's
/// layout: `(reads, None)` when it agrees, `(0, difference)` otherwise, the difference being
/// `(mma, row, k_block, intended (row, k_block) | None, (cta, lane, column, byte),
/// smem | None, global | None, element (row, k_block) | None)`.
#[pyfunction]
#[pyo3(name = "_sf_check_chain", signature = (host, rows, k_blocks, *, cp="32x128b.warpx4"))]
pub fn sf_check_chain(
    py: Python<'_>,
    host: &str,
    rows: u32,
    k_blocks: u32,
    cp: &str,
) -> PyResult<(u64, Option<Difference>)> {
    let chain = chain_of(py, host, rows, k_blocks, cp)?;
    let fail = |e: tcgen05::scale_factor_chain::ChainError| {
        descriptor_error(
            py,
            "check_chain",
            &[Problem::argument(
                "chain",
                Value::Name(cp.to_owned()),
                e.to_string(),
                SF,
            )],
        )
    };
    match check_chain(&chain).map_err(fail)? {
        ChainAgreement::Agree { reads } => Ok((reads, None)),
        ChainAgreement::Differs {
            mma,
            index,
            k_block,
            intended,
            path,
        } => Ok((
            0,
            Some((
                mma,
                index,
                k_block,
                intended.map(|i| (i.row, i.k_block)),
                path.tmem,
                path.smem,
                path.global,
                path.element.map(|i| (i.row, i.k_block)),
            )),
        )),
    }
}

/// The SVG picture of a global layout's first tile (`tcgen05 layout sf explain --svg`).
#[pyfunction]
#[pyo3(name = "_svg_sf_global", signature = (layout, rows, k_blocks, *, batches=1, format="ue8m0", vec=32))]
pub fn svg_global(
    py: Python<'_>,
    layout: &str,
    rows: u32,
    k_blocks: u32,
    batches: u32,
    format: &str,
    vec: u32,
) -> PyResult<String> {
    let g = layout_of(
        py,
        "svg_layout",
        layout,
        (rows, k_blocks, batches),
        format,
        vec,
    )?;
    Ok(svg_sf_global(&g))
}

/// The SVG picture of the one-tile chain (`tcgen05 layout sf check --svg`).
#[pyfunction]
#[pyo3(name = "_svg_sf_chain", signature = (host, rows, k_blocks, *, cp="32x128b.warpx4"))]
pub fn svg_chain(
    py: Python<'_>,
    host: &str,
    rows: u32,
    k_blocks: u32,
    cp: &str,
) -> PyResult<String> {
    let chain = chain_of(py, host, rows, k_blocks, cp)?;
    let reads = chain_reads(&chain).map_err(|e| {
        descriptor_error(
            py,
            "svg_chain",
            &[Problem::argument(
                "chain",
                Value::Name(cp.to_owned()),
                e.to_string(),
                SF,
            )],
        )
    })?;
    let title = format!("scale_A of one 128x4 tile: {host} host tensor, tcgen05.cp.{cp}");
    Ok(svg_sf_chain(&reads, &title))
}

/// The one-tile chain of [`one_tile_chain`] for the host's layout and the cp shape.
fn chain_of(
    py: Python<'_>,
    host: &str,
    rows: u32,
    k_blocks: u32,
    cp: &str,
) -> PyResult<tcgen05::scale_factor_chain::SfChain> {
    let g = layout_of(py, "check_chain", host, (rows, k_blocks, 1), "ue8m0", 32)?;
    let (shape, multicast) = match cp.split_once('.') {
        Some((s, m)) => (CpShape::from_name(s), CpMulticast::from_name(m)),
        None => (CpShape::from_name(cp), Ok(CpMulticast::None)),
    };
    let (Ok(shape), Ok(multicast)) = (shape, multicast) else {
        return Err(descriptor_error(
            py,
            "check_chain",
            &[name_problem(
                "cp",
                cp,
                "a tcgen05.cp shape and multicast such as \"32x128b.warpx4\"",
            )],
        ));
    };
    let fail = |e: tcgen05::scale_factor_chain::ChainError| {
        descriptor_error(
            py,
            "check_chain",
            &[Problem::argument(
                "chain",
                Value::Name(cp.to_owned()),
                e.to_string(),
                SF,
            )],
        )
    };
    one_tile_chain(g, shape, multicast).map_err(fail)
}
