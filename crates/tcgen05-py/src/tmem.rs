//! Tensor Memory maps as packed arrays (the NumPy views are built in `tcgen05._tmem`): which
//! thread and register hold which cell after `tcgen05.ld` / `.st` ([`tcgen05::tmem_fragment`],
//! PTX ISA 9.7.16.8.3-4, Tables 49-50), where an MMA keeps D and A and the block-scale factors
//! ([`tcgen05::data_path`], PTX ISA 9.7.16.10.5-7, data-path layouts A-G; rules.md R24),
//! as the core computes them.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tcgen05::data_path::{
    a_cell, a_k_fits, DLayout, DataPathLayout, ScaleVec, SfLayout, SfOperand,
};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};
use tcgen05::tmem_fragment::{LdStFragment, Packing};
use tcgen05::{CtaGroup, Source};

use crate::args::Args;
use crate::problem::{descriptor_error, Problem};

fn words<'py>(py: Python<'py>, v: &[i32]) -> Bound<'py, PyBytes> {
    let b: Vec<u8> = v.iter().flat_map(|w| w.to_ne_bytes()).collect();
    PyBytes::new(py, &b)
}

fn group(a: &mut Args, obj: Option<&Bound<'_, PyAny>>) -> PyResult<CtaGroup> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(CtaGroup::One);
    };
    let n = a.int("cta_group", obj, u64::from(u8::MAX), Source::PtxTable(39))?;
    Ok(CtaGroup::from_count(n).unwrap_or_else(|| {
        a.problems.push(Problem::argument(
            "cta_group",
            crate::problem::Value::Int(n.into()),
            format!("{n} is not a .cta_group (1 or 2)"),
            Source::PtxTable(39),
        ));
        CtaGroup::One
    }))
}

fn layout_of(
    py: Python<'_>,
    what: &str,
    a: &Args,
    m: u32,
    g: CtaGroup,
    ws: bool,
    sparse: bool,
) -> PyResult<DataPathLayout> {
    if !a.problems.is_empty() {
        return Err(descriptor_error(py, what, &a.problems));
    }
    DataPathLayout::for_mma(m, g, ws, sparse)
        .map_err(|e| descriptor_error(py, what, &[Problem::from_diagnostic(&e)]))
}

/// The fragment map of one `tcgen05.ld` / `.st`: `(pieces, registers, lanes, column_span)`,
/// pieces packed as 8 native-endian i32 each (thread, register, register bit lo, register bit
/// hi, lane offset, column offset, cell bit lo, cell bit hi).
#[pyfunction]
#[pyo3(name = "_ld_fragment", signature = (shape, num, *, pack=false, offset=None))]
pub fn ld_fragment<'py>(
    py: Python<'py>,
    shape: &str,
    num: &str,
    pack: bool,
    offset: Option<u32>,
) -> PyResult<(Bound<'py, PyBytes>, u32, u32, u32)> {
    let f = fragment(py, shape, num, pack, offset)?;
    let mut v = Vec::new();
    for p in f.pieces() {
        v.extend_from_slice(&[
            i32::from(p.thread),
            i32::from(p.register),
            i32::from(p.register_bits.lo),
            i32::from(p.register_bits.hi),
            i32::from(p.lane),
            i32::from(p.column),
            i32::from(p.bits.lo),
            i32::from(p.bits.hi),
        ]);
    }
    Ok((words(py, &v), f.registers(), f.lanes(), f.column_span()))
}

/// Where D of an MMA lives (PTX ISA 9.7.16.10.5): `(layout letter, m, n, cells)`, cells packed
/// as 3 native-endian i32 per element of D, row-major (CTA, lane offset, column offset).
#[pyfunction]
#[pyo3(name = "_d_layout", signature = (m, n, *, cta_group=None, ws=false, sparse=false))]
pub fn d_layout<'py>(
    py: Python<'py>,
    m: u32,
    n: u32,
    cta_group: Option<&Bound<'py, PyAny>>,
    ws: bool,
    sparse: bool,
) -> PyResult<(char, u32, u32, Bound<'py, PyBytes>)> {
    let d = d_of(py, "d_layout", m, n, cta_group, ws, sparse)?;
    let mut v = Vec::with_capacity((m * n * 3) as usize);
    for row in 0..d.m() {
        for col in 0..d.n() {
            let c = d
                .locate(row, col)
                .map_err(|e| descriptor_error(py, "d_layout", &[Problem::from_diagnostic(&e)]))?;
            v.extend_from_slice(&[c.cta as i32, c.lane as i32, c.column as i32]);
        }
    }
    Ok((d.layout().letter(), d.m(), d.n(), words(py, &v)))
}

/// Where A lives when an MMA reads it from Tensor Memory (PTX ISA 9.7.16.10.4.3, .5): per
/// element of A (M x K, row-major) 8 native-endian i32: CTA, column offset, bit lo, bit hi and
/// the lanes of up to four copies (-1 where there is none).
#[pyfunction]
#[pyo3(name = "_a_layout", signature = (m, k, bits, *, cta_group=None, ws=false, sparse=false))]
#[allow(clippy::too_many_arguments)]
pub fn a_layout<'py>(
    py: Python<'py>,
    m: u32,
    k: u32,
    bits: u32,
    cta_group: Option<&Bound<'py, PyAny>>,
    ws: bool,
    sparse: bool,
) -> PyResult<(char, Bound<'py, PyBytes>)> {
    let mut a = Args::default();
    let g = group(&mut a, cta_group)?;
    let layout = layout_of(py, "a_layout", &a, m, g, ws, sparse)?;
    a_k_fits(k, bits)
        .and_then(|()| tcgen05::data_path::a_bits_have_shape(m, g, ws, sparse, bits))
        .map_err(|e| descriptor_error(py, "a_layout", &[Problem::from_diagnostic(&e)]))?;
    let mut v = Vec::with_capacity((m * k * 8) as usize);
    for row in 0..layout.m() {
        for kk in 0..k {
            let c = a_cell(layout, row, kk, bits)
                .map_err(|e| descriptor_error(py, "a_layout", &[Problem::from_diagnostic(&e)]))?;
            let mut lanes = [-1i32; 4];
            for (i, l) in c.lanes().iter().enumerate() {
                lanes[i] = *l as i32;
            }
            v.extend_from_slice(&[
                c.cta as i32,
                c.column as i32,
                i32::from(c.bits.lo),
                i32::from(c.bits.hi),
            ]);
            v.extend_from_slice(&lanes);
        }
    }
    Ok((layout.letter(), words(py, &v)))
}

#[allow(clippy::too_many_arguments)]
fn sf_of<'py>(
    py: Python<'py>,
    what: &str,
    operand: &str,
    m: u32,
    n: u32,
    scale_vec: &str,
    sf_id: u32,
    cta_group: Option<&Bound<'py, PyAny>>,
    ws: bool,
) -> PyResult<(SfLayout, ScaleVec)> {
    let mut a = Args::default();
    let op = match operand {
        "a" | "A" => Some(SfOperand::A),
        "b" | "B" => Some(SfOperand::B),
        _ => None,
    };
    let vec = [ScaleVec::X1, ScaleVec::X2, ScaleVec::X4]
        .into_iter()
        .find(|v| {
            let name = v.name();
            let short = name.trim_start_matches(".scale_vec::");
            scale_vec == name || scale_vec == short || scale_vec.eq_ignore_ascii_case(short)
        });
    if op.is_none() {
        a.problems.push(Problem::argument(
            "operand",
            crate::problem::Value::Name(operand.to_owned()),
            format!("unknown operand {operand:?} (expected \"a\" or \"b\")"),
            Source::PtxSection("9.7.16.10.7"),
        ));
    }
    if vec.is_none() {
        a.problems.push(Problem::argument(
            "scale_vec",
            crate::problem::Value::Name(scale_vec.to_owned()),
            format!("unknown scale vector {scale_vec:?} (expected \"1X\", \"2X\" or \"4X\")"),
            Source::PtxSection("9.7.16.10.7"),
        ));
    }
    let g = group(&mut a, cta_group)?;
    let layout = layout_of(py, what, &a, m, g, ws, false)?;
    let (Some(op), Some(vec)) = (op, vec) else {
        return Err(descriptor_error(py, what, &a.problems));
    };
    let problems: Vec<Problem> = SfLayout::validate(layout, op, vec, n, sf_id)
        .iter()
        .map(|e| Problem::from_diagnostic(&e))
        .collect();
    if !problems.is_empty() {
        return Err(descriptor_error(py, what, &problems));
    }
    let s = SfLayout::try_new(layout, op, vec, n, sf_id)
        .map_err(|e| descriptor_error(py, what, &[Problem::from_diagnostic(&e)]))?;
    Ok((s, vec))
}

/// Where the block-scale factors live (PTX ISA 9.7.16.10.7, Figures 232-258): per (row of A or
/// column of B, scale) 8 native-endian i32: CTA, both CTAs (0/1), column offset, byte, and the
/// lanes of up to four copies (-1 where there is none); with the extent and the columns used.
#[pyfunction]
#[pyo3(name = "_sf_layout", signature = (operand, m, n, scale_vec, *, sf_id=0, cta_group=None,
    ws=false))]
#[allow(clippy::too_many_arguments)]
pub fn sf_layout<'py>(
    py: Python<'py>,
    operand: &str,
    m: u32,
    n: u32,
    scale_vec: &str,
    sf_id: u32,
    cta_group: Option<&Bound<'py, PyAny>>,
    ws: bool,
) -> PyResult<(u32, u32, u32, Bound<'py, PyBytes>)> {
    let (s, vec) = sf_of(
        py,
        "sf_layout",
        operand,
        m,
        n,
        scale_vec,
        sf_id,
        cta_group,
        ws,
    )?;
    let mut v = Vec::new();
    for i in 0..s.extent() {
        for kb in 0..vec.count() {
            let c = s
                .locate(i, kb)
                .map_err(|e| descriptor_error(py, "sf_layout", &[Problem::from_diagnostic(&e)]))?;
            let mut lanes = [-1i32; 4];
            for (j, l) in c.lanes().iter().enumerate() {
                lanes[j] = *l as i32;
            }
            v.extend_from_slice(&[
                c.cta as i32,
                i32::from(c.both_ctas),
                c.column as i32,
                c.byte as i32,
            ]);
            v.extend_from_slice(&lanes);
        }
    }
    Ok((s.extent(), vec.count(), s.columns(), words(py, &v)))
}

/// The fragment of one `tcgen05.ld` / `.st`, or every problem of its arguments.
fn fragment(
    py: Python<'_>,
    shape: &str,
    num: &str,
    pack: bool,
    offset: Option<u32>,
) -> PyResult<LdStFragment> {
    let mut problems = Vec::new();
    let shape_v = LdStShape::from_name(shape.trim_start_matches('.'))
        .or_else(|_| LdStShape::from_name(&format!(".{}", shape.trim_start_matches('.'))));
    let num_v = Num::from_name(num.trim_start_matches('.'))
        .or_else(|_| Num::from_name(&format!(".{}", num.trim_start_matches('.'))));
    if let Err(e) = &shape_v {
        problems.push(Problem::from_diagnostic(e));
    }
    if let Err(e) = &num_v {
        problems.push(Problem::from_diagnostic(e));
    }
    let (Ok(shape), Ok(num)) = (shape_v, num_v) else {
        return Err(descriptor_error(py, "LdStFragment", &problems));
    };
    let packing = if pack {
        Packing::Pack16b
    } else {
        Packing::None
    };
    LdStFragment::try_new(shape, num, packing, offset)
        .map_err(|e| descriptor_error(py, "LdStFragment", &[Problem::from_diagnostic(&e)]))
}

/// The SVG picture of one `tcgen05.ld` / `.st` fragment, as `tcgen05 tmem ld --svg` draws it.
#[pyfunction]
#[pyo3(name = "_svg_ld", signature = (shape, num, *, pack=false, offset=None))]
pub fn svg_ld(
    py: Python<'_>,
    shape: &str,
    num: &str,
    pack: bool,
    offset: Option<u32>,
) -> PyResult<String> {
    Ok(tcgen05_svg::svg_ld(&fragment(
        py, shape, num, pack, offset,
    )?))
}

/// The SVG picture of where an MMA keeps D, as `tcgen05 tmem d --svg` draws it.
#[pyfunction]
#[pyo3(name = "_svg_d", signature = (m, n, *, cta_group=None, ws=false, sparse=false))]
pub fn svg_d<'py>(
    py: Python<'py>,
    m: u32,
    n: u32,
    cta_group: Option<&Bound<'py, PyAny>>,
    ws: bool,
    sparse: bool,
) -> PyResult<String> {
    Ok(tcgen05_svg::svg_d(&d_of(
        py, "svg_d", m, n, cta_group, ws, sparse,
    )?))
}

/// The SVG picture of where the block-scale factors live, as `tcgen05 tmem sf --svg` draws it.
#[pyfunction]
#[pyo3(name = "_svg_sf", signature = (operand, m, n, scale_vec, *, sf_id=0, cta_group=None,
    ws=false))]
#[allow(clippy::too_many_arguments)]
pub fn svg_sf<'py>(
    py: Python<'py>,
    operand: &str,
    m: u32,
    n: u32,
    scale_vec: &str,
    sf_id: u32,
    cta_group: Option<&Bound<'py, PyAny>>,
    ws: bool,
) -> PyResult<String> {
    let (s, _) = sf_of(py, "svg_sf", operand, m, n, scale_vec, sf_id, cta_group, ws)?;
    Ok(tcgen05_svg::svg_sf(&s))
}

/// The SVG picture of which lanes each `tcgen05.cp` row lands in, as `tcgen05 tmem cp --svg`
/// draws it.
#[pyfunction]
#[pyo3(name = "_svg_cp", signature = (shape, *, multicast=None))]
pub fn svg_cp(py: Python<'_>, shape: &str, multicast: Option<&str>) -> PyResult<String> {
    let mut problems = Vec::new();
    let shape_v = CpShape::from_name(shape);
    let mc = match multicast {
        None => Ok(CpMulticast::None),
        Some(m) => CpMulticast::from_name(m),
    };
    if let Err(e) = &shape_v {
        problems.push(Problem::from_diagnostic(e));
    }
    if let Err(e) = &mc {
        problems.push(Problem::from_diagnostic(e));
    }
    match (shape_v, mc) {
        (Ok(s), Ok(m)) => Ok(tcgen05_svg::svg_cp(s, m)),
        _ => Err(descriptor_error(py, "svg_cp", &problems)),
    }
}

/// The D placement of an MMA, or every problem of its arguments (raised as `what`).
fn d_of(
    py: Python<'_>,
    what: &str,
    m: u32,
    n: u32,
    cta_group: Option<&Bound<'_, PyAny>>,
    ws: bool,
    sparse: bool,
) -> PyResult<DLayout> {
    let mut a = Args::default();
    let g = group(&mut a, cta_group)?;
    let mut problems = a.problems;
    problems.extend(
        DLayout::validate(m, n, g, ws, sparse)
            .iter()
            .map(|e| Problem::from_diagnostic(&e)),
    );
    match DLayout::try_new(m, n, g, ws, sparse) {
        Ok(d) if problems.is_empty() => Ok(d),
        _ => Err(descriptor_error(py, what, &problems)),
    }
}
