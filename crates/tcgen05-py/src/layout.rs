//! Shared-memory operand layouts (PTX ISA 9.7.16.10.4-6, the canonical layouts; rules.md
//! R4-R9): `tcgen05.TileLayout` (a tile and the descriptor of each K-block, built from intent),
//! `tcgen05.MatrixLayout` (the byte and bit of every element an MMA reads through a descriptor)
//! and `tcgen05.agreement` (does a TMA box place every element where the MMA reads it), wrapping
//! [`tcgen05::canonical_layout`] and [`tcgen05::tensor_copy`]. The NumPy views are built in
//! `tcgen05._layout` from the packed words these return.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tcgen05::canonical_layout::{
    AtomOrder, ElementLocation, ElementStorage, LayoutError, MatrixLayout, Operand, SwizzleAnchor,
    TileLayout, CHUNK_BYTES,
};
use tcgen05::shared_memory_descriptor::{SmemDescriptor, Swizzle};
use tcgen05::tensor_copy::{agreement, Agreement, TensorCopyBox};
use tcgen05::{ElementType, Kind, Major, Source};

use crate::args::Args;
use crate::problem::{descriptor_error, py_str, Problem};

const LAYOUTS: Source = Source::PtxSection("9.7.16.10.4");

fn major(a: &mut Args, obj: &Bound<'_, PyAny>) -> PyResult<Option<Major>> {
    a.name("major", obj, Major::from_name, &["k", "mn"], LAYOUTS)
}

/// The storage of `element_type` under `kind`, or the problem.
fn storage(
    a: &mut Args,
    element_type: &Bound<'_, PyAny>,
    kind: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<ElementStorage>> {
    let names: Vec<&str> = ElementType::ALL.iter().map(|t| t.name()).collect();
    let t = a.name(
        "element_type",
        element_type,
        ElementType::from_name,
        &names,
        Source::PtxTable(39),
    )?;
    let k: Option<Option<Kind>> = match kind.filter(|o| !o.is_none()) {
        Some(o) => Some(a.kind(o)?),
        None => None,
    };
    let (Some(t), false) = (t, matches!(k, Some(None))) else {
        return Ok(None);
    };
    match ElementStorage::of(t, k.flatten()) {
        Ok(s) => Ok(Some(s)),
        Err(e) => {
            a.problems.push(Problem::from_diagnostic(&e));
            Ok(None)
        }
    }
}

/// Element locations packed as native-endian u32 addresses followed by one bit offset byte per
/// element, row-major `(mn, k)`.
fn pack<'py>(py: Python<'py>, locs: &[ElementLocation]) -> Bound<'py, PyBytes> {
    let mut out = Vec::with_capacity(locs.len() * 5);
    for l in locs {
        out.extend_from_slice(&l.address.to_ne_bytes());
    }
    out.extend(locs.iter().map(|l| l.bit));
    PyBytes::new(py, &out)
}

fn layout_error(py: Python<'_>, what: &str, e: &LayoutError) -> PyErr {
    descriptor_error(py, what, &[Problem::from_diagnostic(e)])
}

/// A tile of one operand in shared memory, laid out in canonical swizzle atoms, and the
/// descriptor of each K-block (PTX ISA 9.7.16.10.6 Table 55; rules.md R4-R9).
fn major_name(m: Major) -> &'static str {
    match m {
        Major::K => "K-major",
        Major::Mn => "MN-major",
    }
}

/// The letter of the M/N index in picture labels: `m` for A, `n` for B.
fn row_letter(py: Python<'_>, what: &str, operand: &str) -> PyResult<char> {
    match operand {
        "a" | "A" => Ok('m'),
        "b" | "B" => Ok('n'),
        _ => Err(descriptor_error(
            py,
            what,
            &[Problem::argument(
                "operand",
                crate::problem::Value::Name(operand.to_owned()),
                format!("unknown operand {operand:?} (expected \"a\" or \"b\")"),
                LAYOUTS,
            )],
        )),
    }
}

#[pyclass(module = "tcgen05", frozen, name = "_TileLayout")]
#[derive(Debug)]
pub struct PyTileLayout {
    tile: TileLayout,
}

#[pymethods]
impl PyTileLayout {
    #[new]
    #[pyo3(signature = (*, element_type, major, swizzle, mn, k, kind=None, start_address=None,
        order=None, anchor=None, k_per_block=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        element_type: &Bound<'_, PyAny>,
        major: &Bound<'_, PyAny>,
        swizzle: &Bound<'_, PyAny>,
        mn: &Bound<'_, PyAny>,
        k: &Bound<'_, PyAny>,
        kind: Option<&Bound<'_, PyAny>>,
        start_address: Option<&Bound<'_, PyAny>>,
        order: Option<&Bound<'_, PyAny>>,
        anchor: Option<&Bound<'_, PyAny>>,
        k_per_block: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTileLayout> {
        let mut a = Args::default();
        let st = storage(&mut a, element_type, kind)?;
        let mj = self::major(&mut a, major)?;
        let sw_names: Vec<&str> = Swizzle::ALL.iter().map(|s| s.name()).collect();
        let sw = a.name("swizzle", swizzle, Swizzle::from_name, &sw_names, LAYOUTS)?;
        let mn = a.int("mn", mn, u32::MAX.into(), LAYOUTS)? as u32;
        let k = a.int("k", k, u32::MAX.into(), LAYOUTS)? as u32;
        let start = match start_address.filter(|o| !o.is_none()) {
            Some(o) => a.int("start_address", o, u32::MAX.into(), LAYOUTS)? as u32,
            None => 0,
        };
        let order = match order.filter(|o| !o.is_none()) {
            Some(o) => a.name(
                "order",
                o,
                AtomOrder::from_name,
                &[AtomOrder::MnFirst.name(), AtomOrder::KFirst.name()],
                LAYOUTS,
            )?,
            None => Some(AtomOrder::MnFirst),
        };
        let anchor = match anchor.filter(|o| !o.is_none()) {
            Some(o) => a.name(
                "anchor",
                o,
                SwizzleAnchor::from_name,
                &[
                    SwizzleAnchor::TileStart.name(),
                    SwizzleAnchor::Address.name(),
                ],
                LAYOUTS,
            )?,
            None => Some(SwizzleAnchor::TileStart),
        };
        let kpb = match k_per_block.filter(|o| !o.is_none()) {
            Some(o) => Some(a.int("k_per_block", o, u32::MAX.into(), LAYOUTS)? as u32),
            None => None,
        };
        let (Some(st), Some(mj), Some(sw), Some(order), Some(anchor), true) =
            (st, mj, sw, order, anchor, a.problems.is_empty())
        else {
            return Err(descriptor_error(py, "TileLayout", &a.problems));
        };
        let mut tile = TileLayout::new(st, mj, sw, mn, k, start)
            .with_order(order)
            .with_anchor(anchor);
        if let Some(kpb) = kpb {
            tile = tile.with_k_per_block(kpb);
        }
        let problems: Vec<Problem> = tile
            .validate()
            .iter()
            .map(|e| Problem::from_diagnostic(&e))
            .collect();
        if problems.iter().any(Problem::is_error) {
            return Err(descriptor_error(py, "TileLayout", &problems));
        }
        Ok(PyTileLayout { tile })
    }

    /// Number of K-blocks (one MMA each).
    #[getter]
    fn k_blocks(&self) -> u32 {
        self.tile.k_blocks()
    }

    /// The swizzle atom, `(mn, k)` in elements.
    #[getter]
    fn atom(&self) -> (u32, u32) {
        self.tile.atom()
    }

    /// Bytes of one swizzle atom.
    #[getter]
    fn atom_bytes(&self) -> u32 {
        self.tile.atom_bytes()
    }

    /// Elements of K per MMA (per K-block).
    #[getter]
    fn k_per_block(&self) -> u32 {
        self.tile.k_per_block
    }

    /// Bits per element and elements per 16-byte chunk of the tile's storage.
    #[getter]
    fn storage(&self) -> (u8, u8) {
        (self.tile.storage.bits(), self.tile.storage.per_chunk())
    }

    /// `(mn, k)` of the whole tile.
    #[getter]
    fn shape(&self) -> (u32, u32) {
        (self.tile.mn, self.tile.k)
    }

    /// The raw 64-bit shared memory descriptor of K-block `k_block` for `target`.
    #[pyo3(signature = (k_block, *, target=None))]
    fn descriptor_bits(
        &self,
        py: Python<'_>,
        k_block: u32,
        target: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let mut a = Args::default();
        let Some(t) = a.target(target)?.filter(|_| a.problems.is_empty()) else {
            return Err(descriptor_error(py, "TileLayout.descriptor", &a.problems));
        };
        self.tile
            .descriptor(k_block, t)
            .map(SmemDescriptor::bits)
            .map_err(|e| layout_error(py, "TileLayout.descriptor", &e))
    }

    /// Every element's location, packed (see `tcgen05._layout`): the byte address and bit of
    /// tile element `(mn, k)`, row-major.
    fn locations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let (mn, k) = (self.tile.mn, self.tile.k);
        let mut v = Vec::with_capacity(mn as usize * k as usize);
        for i in 0..mn {
            for j in 0..k {
                match self.tile.address(i, j) {
                    Some(l) => v.push(l),
                    None => {
                        return Err(pyo3::exceptions::PyValueError::new_err(format!(
                            "TileLayout: element ({i}, {j}) has no address below 2^32"
                        )))
                    }
                }
            }
        }
        Ok(pack(py, &v))
    }

    /// The picture of the tile in shared memory (as `tcgen05 layout tile --svg` draws it): each
    /// 16-byte chunk with the elements it holds, coloured by core matrix. `operand` (`"a"` or
    /// `"b"`) names the M/N index in labels (`m` or `n`).
    #[pyo3(signature = (*, operand="a"))]
    fn svg(&self, py: Python<'_>, operand: &str) -> PyResult<String> {
        let row = row_letter(py, "TileLayout.svg", operand)?;
        let t = &self.tile;
        let title = format!(
            "{}-bit {} {}, {} swizzle, {} x {} at {:#x}, atoms {}",
            t.storage.bits(),
            operand.to_ascii_uppercase(),
            major_name(t.major),
            t.swizzle.name(),
            t.mn,
            t.k,
            t.start_address,
            t.order.name()
        );
        Ok(tcgen05_svg::svg_smem(&tcgen05_svg::SmemPicture {
            title: &title,
            chunks: &tcgen05_svg::tile_chunks(t),
            major: t.major,
            storage: t.storage,
            row,
            swizzle: t.swizzle,
            flagged: &std::collections::BTreeSet::new(),
        }))
    }

    fn __repr__(&self) -> String {
        let t = &self.tile;
        format!(
            "TileLayout(bits={}, major={}, swizzle={}, mn={}, k={}, start_address={:#x}, \
             order={}, anchor={}, k_per_block={})",
            t.storage.bits(),
            match t.major {
                Major::K => "'k'",
                Major::Mn => "'mn'",
            },
            py_str(t.swizzle.name()),
            t.mn,
            t.k,
            t.start_address,
            py_str(t.order.name()),
            py_str(t.anchor.name()),
            t.k_per_block
        )
    }
}

/// The operand an MMA reads through one shared memory descriptor: where each element is
/// (PTX ISA 9.7.16.10.4-5, the canonical layouts and swizzling; rules.md R4).
#[pyclass(module = "tcgen05", frozen, name = "_MatrixLayout")]
#[derive(Debug)]
pub struct PyMatrixLayout {
    layout: MatrixLayout,
}

#[pymethods]
impl PyMatrixLayout {
    #[new]
    #[pyo3(signature = (descriptor, *, element_type, major, mn, k, kind=None, target=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        descriptor: &Bound<'_, PyAny>,
        element_type: &Bound<'_, PyAny>,
        major: &Bound<'_, PyAny>,
        mn: &Bound<'_, PyAny>,
        k: &Bound<'_, PyAny>,
        kind: Option<&Bound<'_, PyAny>>,
        target: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMatrixLayout> {
        let mut a = Args::default();
        let raw = a.int("descriptor", descriptor, u64::MAX, Source::PtxTable(40))?;
        let st = storage(&mut a, element_type, kind)?;
        let mj = self::major(&mut a, major)?;
        let mn = a.int("mn", mn, u32::MAX.into(), LAYOUTS)? as u32;
        let k = a.int("k", k, u32::MAX.into(), LAYOUTS)? as u32;
        let target = a.target(target)?;
        let (Some(st), Some(mj), Some(target), true) = (st, mj, target, a.problems.is_empty())
        else {
            return Err(descriptor_error(py, "MatrixLayout", &a.problems));
        };
        let d = SmemDescriptor::decode(raw, target);
        let mut problems: Vec<Problem> = d
            .diagnostics
            .iter()
            .map(|e| Problem::from_diagnostic(&e))
            .collect();
        let op = Operand::new(st, mj, mn, k);
        problems.extend(
            MatrixLayout::validate(&d.fields, &op)
                .iter()
                .map(|e| Problem::from_diagnostic(&e)),
        );
        if problems.iter().any(Problem::is_error) {
            return Err(descriptor_error(py, "MatrixLayout", &problems));
        }
        let layout = MatrixLayout::from_fields(d.fields, op)
            .map_err(|e| layout_error(py, "MatrixLayout", &e))?;
        Ok(PyMatrixLayout { layout })
    }

    /// `(mn, k)` of the operand.
    #[getter]
    fn shape(&self) -> (u32, u32) {
        let o = self.layout.operand();
        (o.mn, o.k)
    }

    /// Every element's location, packed (see `tcgen05._layout`), row-major `(mn, k)`.
    fn locations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let v = self
            .layout
            .locations()
            .map_err(|e| layout_error(py, "MatrixLayout.addresses", &e))?;
        Ok(pack(py, &v))
    }

    /// The byte address and first bit of element `(mn, k)`.
    fn address(&self, py: Python<'_>, mn: u32, k: u32) -> PyResult<(u32, u8)> {
        self.layout
            .address(mn, k)
            .map(|l| (l.address, l.bit))
            .map_err(|e| layout_error(py, "MatrixLayout.address", &e))
    }

    /// The elements `(mn, k)` whose bits lie in the byte at `address` (at most two: 4-bit
    /// elements share bytes).
    fn elements_at(&self, address: u32) -> Vec<(u32, u32)> {
        self.layout
            .elements_at(address)
            .into_iter()
            .flatten()
            .collect()
    }

    /// Every overlap, and with `buffer=(start, end)` every element read outside the buffer;
    /// as problems (empty when the layout is clean).
    #[pyo3(signature = (*, buffer=None))]
    fn check(&self, py: Python<'_>, buffer: Option<(u32, u32)>) -> PyResult<Vec<Problem>> {
        match self.layout.check(buffer.map(|(s, e)| s..e)) {
            Ok(v) => Ok(v.iter().map(Problem::from_diagnostic).collect()),
            Err(e) => Err(layout_error(py, "MatrixLayout.check", &e)),
        }
    }

    /// The picture of the operand as the descriptor places it (as `tcgen05 layout addr --svg`
    /// draws it); chunks where elements overlap, or (with `buffer=(start, end)`) lie outside
    /// the buffer, are outlined in red. `operand` (`"a"` or `"b"`) names the M/N index.
    #[pyo3(signature = (*, operand="a", buffer=None))]
    fn svg(&self, py: Python<'_>, operand: &str, buffer: Option<(u32, u32)>) -> PyResult<String> {
        let row = row_letter(py, "MatrixLayout.svg", operand)?;
        let locs = self
            .layout
            .locations()
            .map_err(|e| layout_error(py, "MatrixLayout.svg", &e))?;
        let problems = self
            .layout
            .check(buffer.map(|(s, e)| s..e))
            .map_err(|e| layout_error(py, "MatrixLayout.svg", &e))?;
        let flagged = problems
            .iter()
            .filter_map(|p| match *p {
                LayoutError::Overlap { address, .. }
                | LayoutError::OutsideBuffer { address, .. } => Some(address & !(CHUNK_BYTES - 1)),
                _ => None,
            })
            .collect();
        let f = self.layout.fields();
        let op = self.layout.operand();
        let title = format!(
            "{}-bit {} {}, {} swizzle, start {:#x}, LBO {}, SBO {}, base offset {}",
            op.storage.bits(),
            operand.to_ascii_uppercase(),
            major_name(op.major),
            f.swizzle.name(),
            f.start_address,
            f.leading_byte_offset,
            f.stride_byte_offset,
            f.base_offset
        );
        Ok(tcgen05_svg::svg_smem(&tcgen05_svg::SmemPicture {
            title: &title,
            chunks: &tcgen05_svg::layout_chunks(&self.layout, &locs),
            major: op.major,
            storage: op.storage,
            row,
            swizzle: f.swizzle,
            flagged: &flagged,
        }))
    }
}

/// Whether copies of tensor boxes put every element where the MMA reads it (PTX ISA 9.7.9.27
/// / 9.7.16.10.5; rules.md R4): `("agree", elements)` or
/// `("differs", mn, k, (mma_address, mma_bit), (copy_address, copy_bit) | None,
/// (found_mn, found_k) | None)`. Each box is `(swizzle, inner, outer, destination,
/// origin_inner, origin_outer)` in elements and bytes, with the layout's element storage.
#[pyfunction]
#[pyo3(name = "_agreement", signature = (layout, boxes, *, k_start=0))]
pub fn py_agreement<'py>(
    py: Python<'py>,
    layout: &PyMatrixLayout,
    boxes: Vec<(String, u32, u32, u32, u32, u32)>,
    k_start: u32,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let mut a = Args::default();
    let storage = layout.layout.operand().storage;
    let mut copies = Vec::with_capacity(boxes.len());
    for (i, (sw, inner, outer, dest, oi, oo)) in boxes.iter().enumerate() {
        match Swizzle::from_name(sw) {
            Some(s) => copies
                .push(TensorCopyBox::new(s, storage, *inner, *outer, *dest).at_origin(*oi, *oo)),
            None => a.problems.push(Problem::argument(
                &format!("boxes[{i}].swizzle"),
                crate::problem::Value::Name(sw.clone()),
                format!("unknown swizzle {sw:?}"),
                Source::PtxTable(40),
            )),
        }
    }
    if !a.problems.is_empty() {
        return Err(descriptor_error(py, "agreement", &a.problems));
    }
    let r = agreement(&layout.layout, &copies, k_start)
        .map_err(|e| descriptor_error(py, "agreement", &[Problem::from_diagnostic(&e)]))?;
    let t = match r {
        Agreement::Agree { elements } => ("agree", elements).into_pyobject(py)?,
        Agreement::Differs {
            mn,
            k,
            mma,
            copy,
            found,
        } => (
            "differs",
            mn,
            k,
            (mma.address, mma.bit),
            copy.map(|c| (c.address, c.bit)),
            found,
        )
            .into_pyobject(py)?,
    };
    Ok(t)
}
