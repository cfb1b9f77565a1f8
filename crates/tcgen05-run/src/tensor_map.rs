//! Tensor maps (the host side of the tensor memory accelerator) and tiled bulk tensor copies
//! (`cp.async.bulk.tensor`, PTX ISA 9.7.9.25), with the placement in shared memory of the core's
//! TMA model ([`tcgen05::tensor_copy::TensorCopyBox`], proven on an H100 by `hw/tma/`).
//!
//! A [`TensorMap`] is built like `cuTensorMapEncodeTiled` (CUDA driver API, "Tensor Map Object
//! Management") and checked with its rules. In the parameter buffer a map is 128 bytes holding a
//! tag and its index; the interpreter finds it from the address a kernel gives.

use tcgen05::canonical_layout::ElementStorage;
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::tensor_copy::TensorCopyBox;
use tcgen05::ElementType;

use crate::error::RunError;

/// The first 8 bytes of a tensor map in the parameter buffer.
pub const TAG: [u8; 8] = *b"tc05tmap";

/// A tiled tensor map, as `cuTensorMapEncodeTiled` takes it (dimensions innermost first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// Bytes per element (1, 2, 4 or 8: the data type's size).
    pub element_bytes: u32,
    /// Global dimensions in elements, innermost first (`globalDim`).
    pub dims: Vec<u64>,
    /// Global strides in bytes of dimensions 1.. (`globalStrides`, rank - 1 of them).
    pub strides: Vec<u64>,
    /// Box dimensions in elements, innermost first (`boxDim`).
    pub box_dims: Vec<u32>,
    /// Element strides (`elementStrides`; only 1 is modelled).
    pub element_strides: Vec<u32>,
    /// Swizzle mode (`CU_TENSOR_MAP_SWIZZLE_*`: none, 32B, 64B, 128B).
    pub swizzle: Swizzle,
}

fn bad(field: &str, why: String) -> RunError {
    RunError::Argument {
        param: format!("tensor map {field}"),
        why,
    }
}

impl TensorMap {
    /// Checks the rules `cuTensorMapEncodeTiled` documents (CUDA driver API 13.0, "Tensor Map
    /// Object Management"): rank 1 to 5; every global dimension in 1..=2^32; strides multiples
    /// of 16 below 2^40; box dimensions in 1..=256 with an inner extent a multiple of 16 bytes;
    /// element strides in 1..=8; the inner box extent at most the swizzle span.
    ///
    /// # Errors
    /// [`RunError::Argument`] naming the field and the rule, for the first rule broken.
    pub fn validate(&self) -> Result<(), RunError> {
        let rank = self.dims.len();
        if !(1..=5).contains(&rank) {
            return Err(bad("tensorRank", format!("{rank}: must be 1 to 5")));
        }
        if !matches!(self.element_bytes, 1 | 2 | 4 | 8) {
            return Err(bad(
                "dataType",
                format!("{} bytes per element", self.element_bytes),
            ));
        }
        if self.strides.len() != rank - 1
            || self.box_dims.len() != rank
            || self.element_strides.len() != rank
        {
            return Err(bad(
                "globalStrides/boxDim/elementStrides",
                format!("need {} / {rank} / {rank} values for rank {rank}", rank - 1),
            ));
        }
        for (i, d) in self.dims.iter().enumerate() {
            if *d == 0 || *d > 1 << 32 {
                return Err(bad(
                    &format!("globalDim[{i}]"),
                    format!("{d}: must be in 1..=2^32"),
                ));
            }
        }
        for (i, s) in self.strides.iter().enumerate() {
            if s % 16 != 0 || *s >= 1 << 40 {
                return Err(bad(
                    &format!("globalStrides[{i}]"),
                    format!("{s}: must be a multiple of 16 below 2^40"),
                ));
            }
        }
        for (i, b) in self.box_dims.iter().enumerate() {
            if *b == 0 || *b > 256 {
                return Err(bad(
                    &format!("boxDim[{i}]"),
                    format!("{b}: must be in 1..=256"),
                ));
            }
        }
        let inner = u64::from(self.box_dims[0]) * u64::from(self.element_bytes);
        if inner % 16 != 0 {
            return Err(bad(
                "boxDim[0]",
                format!("{inner} bytes: the inner extent must be a multiple of 16 bytes"),
            ));
        }
        for (i, e) in self.element_strides.iter().enumerate() {
            if !(1..=8).contains(e) {
                return Err(bad(
                    &format!("elementStrides[{i}]"),
                    format!("{e}: must be in 1..=8"),
                ));
            }
        }
        if self.swizzle != Swizzle::None && inner > u64::from(self.swizzle.width_bytes()) {
            return Err(bad(
                "swizzle",
                format!(
                    "inner box extent of {inner} bytes exceeds the {}-byte swizzle span",
                    self.swizzle.width_bytes()
                ),
            ));
        }
        Ok(())
    }

    /// The element storage for the core's placement model (elements are copied as bytes).
    fn storage(&self) -> Option<ElementStorage> {
        let ty = match self.element_bytes {
            1 => ElementType::E4m3,
            2 => ElementType::F16,
            4 => ElementType::Tf32,
            _ => return None,
        };
        ElementStorage::of(ty, None).ok()
    }

    /// Bytes of one box: what a copy's `complete_tx` counts (out-of-bounds elements included).
    #[must_use]
    pub fn box_bytes(&self) -> u64 {
        self.box_dims.iter().map(|&b| u64::from(b)).product::<u64>() * u64::from(self.element_bytes)
    }
}

/// One pending tiled copy of a box from global to shared memory.
#[derive(Clone, Debug)]
pub(crate) struct Copy {
    /// The instruction's line.
    pub line: u32,
    /// The map's index.
    pub map: usize,
    /// The box's first element, innermost first.
    pub coords: Vec<i64>,
    /// Shared memory destination.
    pub dst: u32,
    /// The mbarrier whose transaction count the copy completes.
    pub mbar: u32,
    /// The CTA rank of that mbarrier when it is not the destination's (`.cta_group::2`: the
    /// other CTA of the pair).
    pub mbar_rank: Option<u32>,
    /// The asynchronous operation's id (what an observer sees).
    pub id: u64,
}

/// The global bytes a copy of a 1-D or 2-D box reads, one `(address, bytes)` run per row of
/// the box inside the tensor (elements outside it are filled, not read; PTX ISA 5.5.7).
pub(crate) fn box_rows(map: &TensorMap, base: u64, c: &Copy) -> Vec<(u64, u32)> {
    let e = i64::from(map.element_bytes);
    let inner = i64::from(map.box_dims.first().copied().unwrap_or(0));
    let outer = i64::from(map.box_dims.get(1).copied().unwrap_or(1));
    let (d0, d1) = (
        map.dims.first().map_or(0, |&d| d as i64),
        map.dims.get(1).map_or(1, |&d| d as i64),
    );
    let (c0, c1) = (
        c.coords.first().copied().unwrap_or(0),
        c.coords.get(1).copied().unwrap_or(0),
    );
    let stride1 = map.strides.first().copied().unwrap_or(0);
    let (x0, x1) = (c0.max(0), (c0 + inner).min(d0));
    if x0 >= x1 {
        return Vec::new();
    }
    (c1.max(0)..(c1 + outer).min(d1))
        .map(|y| {
            let at = base + y as u64 * stride1 + (x0 * e) as u64;
            (at, ((x1 - x0) * e) as u32)
        })
        .collect()
}

/// Performs a copy: every box element from global memory (zero outside the tensor: OOB fill
/// NONE), placed where the core's model puts it. `read` reads one element's bytes.
pub(crate) fn perform(
    map: &TensorMap,
    base: u64,
    c: &Copy,
    shared: &mut [u8],
    read: &mut dyn FnMut(u64, u32) -> Result<u64, RunError>,
) -> Result<(), RunError> {
    let unsupported = |why: &'static str| RunError::Unsupported {
        line: c.line,
        what: "cp.async.bulk.tensor".into(),
        why,
    };
    if map.dims.len() > 2 || map.element_strides.iter().any(|&e| e != 1) {
        return Err(unsupported(
            "only 1-D and 2-D tiled maps with element strides 1 are modelled yet",
        ));
    }
    let storage = map
        .storage()
        .ok_or_else(|| unsupported("8-byte elements are not modelled"))?;
    let inner = map.box_dims[0];
    let outer = map.box_dims.get(1).copied().unwrap_or(1);
    let b = TensorCopyBox::new(map.swizzle, storage, inner, outer, c.dst);
    if let Some(problem) = b.validate().iter().next() {
        return Err(RunError::Invalid {
            line: c.line,
            what: format!(
                "cp.async.bulk.tensor box at shared 0x{:x}: {problem:?}",
                c.dst
            ),
            why: "the box breaks a rule of the tensor copy (PTX ISA 5.5.7)",
        });
    }
    let e = u64::from(map.element_bytes);
    let (c0, c1) = (c.coords[0], c.coords.get(1).copied().unwrap_or(0));
    let (d0, d1) = (map.dims[0] as i64, map.dims.get(1).map_or(1, |&d| d as i64));
    let stride1 = map.strides.first().copied().unwrap_or(0);
    for o in 0..outer {
        for i in 0..inner {
            let (x, y) = (c0 + i64::from(i), c1 + i64::from(o));
            let v = if x >= 0 && y >= 0 && x < d0 && y < d1 {
                read(base + y as u64 * stride1 + x as u64 * e, map.element_bytes)?
            } else {
                0
            };
            let at = b
                .address(i, o)
                .ok_or_else(|| unsupported("box element outside shared memory"))?;
            let at = at.address as usize;
            let dst = shared
                .get_mut(at..at + e as usize)
                .ok_or(RunError::Memory {
                    line: c.line,
                    space: "shared",
                    address: at as u64,
                    size: map.element_bytes,
                    why: "outside the CTA's shared memory",
                })?;
            dst.copy_from_slice(&v.to_le_bytes()[..e as usize]);
        }
    }
    Ok(())
}
