//! Tensor maps built as the host builds them: the parameters of `cuTensorMapEncodeTiled` (CUDA
//! driver API, section 6.30 "Tensor Map Object Management"), checked with every requirement that
//! section lists, each refusal naming the parameter, the value and the rule; then the
//! interpreter's own limits (what its bulk tensor copies model), each refused by name.
//!
//! `cuTensorMapEncodeIm2col` is refused as a whole ([`encode_im2col`]): the interpreter performs
//! tiled copies only.

use tcgen05::shared_memory_descriptor::Swizzle;

use crate::error::RunError;
use crate::tensor_map::TensorMap;

/// The section every rule here comes from.
const SOURCE: &str = "CUDA driver API 6.30, cuTensorMapEncodeTiled";

/// `CUtensorMapDataType`, in the driver's enum order (its value is the code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DataType {
    Uint8 = 0,
    Uint16,
    Uint32,
    Int32,
    Uint64,
    Int64,
    Float16,
    Float32,
    Float64,
    Bfloat16,
    Float32Ftz,
    Tfloat32,
    Tfloat32Ftz,
    U4Align8B,
    U4Align16B,
    U6Align16B,
}

/// Every data type with its driver name suffix and element size in bytes (0: packed sub-byte).
const DATA_TYPES: [(DataType, &str, u32); 16] = [
    (DataType::Uint8, "UINT8", 1),
    (DataType::Uint16, "UINT16", 2),
    (DataType::Uint32, "UINT32", 4),
    (DataType::Int32, "INT32", 4),
    (DataType::Uint64, "UINT64", 8),
    (DataType::Int64, "INT64", 8),
    (DataType::Float16, "FLOAT16", 2),
    (DataType::Float32, "FLOAT32", 4),
    (DataType::Float64, "FLOAT64", 8),
    (DataType::Bfloat16, "BFLOAT16", 2),
    (DataType::Float32Ftz, "FLOAT32_FTZ", 4),
    (DataType::Tfloat32, "TFLOAT32", 4),
    (DataType::Tfloat32Ftz, "TFLOAT32_FTZ", 4),
    (DataType::U4Align8B, "16U4_ALIGN8B", 0),
    (DataType::U4Align16B, "16U4_ALIGN16B", 0),
    (DataType::U6Align16B, "16U6_ALIGN16B", 0),
];

impl DataType {
    /// The type of driver code `code` (`CU_TENSOR_MAP_DATA_TYPE_UINT8` = 0, ...).
    #[must_use]
    pub fn from_code(code: u32) -> Option<DataType> {
        DATA_TYPES.get(code as usize).map(|t| t.0)
    }

    /// The type a name gives: the driver's suffix in any case (`float16`, `BFLOAT16`,
    /// `16u4_align8b`) or the short names `u8 u16 u32 i32 u64 i64 f16 f32 f64 bf16 tf32`.
    #[must_use]
    pub fn parse(name: &str) -> Option<DataType> {
        let short = match name {
            "u8" => Some(DataType::Uint8),
            "u16" => Some(DataType::Uint16),
            "u32" => Some(DataType::Uint32),
            "i32" | "s32" => Some(DataType::Int32),
            "u64" => Some(DataType::Uint64),
            "i64" | "s64" => Some(DataType::Int64),
            "f16" => Some(DataType::Float16),
            "f32" => Some(DataType::Float32),
            "f64" => Some(DataType::Float64),
            "bf16" => Some(DataType::Bfloat16),
            "tf32" => Some(DataType::Tfloat32),
            _ => None,
        };
        short.or_else(|| {
            DATA_TYPES
                .iter()
                .find(|t| t.1.eq_ignore_ascii_case(name))
                .map(|t| t.0)
        })
    }

    /// `CU_TENSOR_MAP_DATA_TYPE_...`.
    #[must_use]
    pub fn name(self) -> String {
        format!("CU_TENSOR_MAP_DATA_TYPE_{}", DATA_TYPES[self as usize].1)
    }

    /// Bytes per element; `None` for the packed 4- and 6-bit types.
    #[must_use]
    pub fn bytes(self) -> Option<u32> {
        Some(DATA_TYPES[self as usize].2).filter(|&b| b > 0)
    }

    /// A floating-point type (the only ones `NAN_REQUEST_ZERO_FMA` fill is allowed for).
    #[must_use]
    pub fn is_float(self) -> bool {
        matches!(
            self,
            DataType::Float16
                | DataType::Float32
                | DataType::Float64
                | DataType::Bfloat16
                | DataType::Float32Ftz
                | DataType::Tfloat32
                | DataType::Tfloat32Ftz
        )
    }

    fn packed16(self) -> bool {
        matches!(self, DataType::U4Align16B | DataType::U6Align16B)
    }
}

/// `CUtensorMapInterleave`: none, 16B, 32B (codes 0-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Interleave {
    #[default]
    None = 0,
    B16,
    B32,
}

/// `CUtensorMapSwizzle` (codes 0-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MapSwizzle {
    #[default]
    None = 0,
    B32,
    B64,
    B128,
    B128Atom32B,
    B128Atom32BFlip8B,
    B128Atom64B,
}

impl MapSwizzle {
    /// Every mode in code order with its driver suffix and span in bytes.
    const ALL: [(MapSwizzle, &'static str, u32); 7] = [
        (MapSwizzle::None, "NONE", 0),
        (MapSwizzle::B32, "32B", 32),
        (MapSwizzle::B64, "64B", 64),
        (MapSwizzle::B128, "128B", 128),
        (MapSwizzle::B128Atom32B, "128B_ATOM_32B", 128),
        (MapSwizzle::B128Atom32BFlip8B, "128B_ATOM_32B_FLIP_8B", 128),
        (MapSwizzle::B128Atom64B, "128B_ATOM_64B", 128),
    ];

    /// The mode of driver code `code`.
    #[must_use]
    pub fn from_code(code: u32) -> Option<MapSwizzle> {
        Self::ALL.get(code as usize).map(|m| m.0)
    }

    /// The mode a name gives: the driver's suffix in any case (`128B`, `128b_atom_32b`) or
    /// `none`.
    #[must_use]
    pub fn parse(name: &str) -> Option<MapSwizzle> {
        Self::ALL
            .iter()
            .find(|m| m.1.eq_ignore_ascii_case(name))
            .map(|m| m.0)
    }

    /// `CU_TENSOR_MAP_SWIZZLE_...`.
    #[must_use]
    pub fn name(self) -> String {
        format!("CU_TENSOR_MAP_SWIZZLE_{}", Self::ALL[self as usize].1)
    }

    /// The span in bytes (0 for none).
    #[must_use]
    pub fn span(self) -> u32 {
        Self::ALL[self as usize].2
    }
}

/// `CUtensorMapL2promotion`: none, 64B, 128B, 256B (codes 0-3). It changes no result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum L2Promotion {
    #[default]
    None = 0,
    B64,
    B128,
    B256,
}

/// `CUtensorMapFloatOOBfill`: zeros, or the special NaN (codes 0-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum OobFill {
    #[default]
    None = 0,
    NanRequestZeroFma,
}

/// The parameters of `cuTensorMapEncodeTiled`, dimensions innermost first as the driver takes
/// them (`tensorRank` is the length of `global_dim`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeTiled {
    /// `tensorDataType`.
    pub data_type: DataType,
    /// `globalAddress`, as an offset from a 256-byte aligned allocation (its alignment is
    /// checked).
    pub global_address: u64,
    /// `globalDim`, in elements.
    pub global_dim: Vec<u64>,
    /// `globalStrides`, in bytes, `tensorRank - 1` of them.
    pub global_strides: Vec<u64>,
    /// `boxDim`, in elements.
    pub box_dim: Vec<u32>,
    /// `elementStrides`.
    pub element_strides: Vec<u32>,
    /// `interleave`.
    pub interleave: Interleave,
    /// `swizzle`.
    pub swizzle: MapSwizzle,
    /// `l2Promotion`.
    pub l2_promotion: L2Promotion,
    /// `oobFill`.
    pub oob_fill: OobFill,
}

fn problem(field: impl Into<String>, value: impl ToString, why: String) -> RunError {
    RunError::TensorMap {
        field: field.into(),
        value: value.to_string(),
        why,
    }
}

/// The driver's requirements on the rank, the address and the global dimensions and strides.
fn check_global(p: &EncodeTiled, out: &mut Vec<RunError>) {
    let rank = p.global_dim.len();
    if !(1..=5).contains(&rank) {
        out.push(problem(
            "tensorRank",
            rank,
            format!("must be 1 to 5 ({SOURCE})"),
        ));
    } else if p.interleave != Interleave::None && rank < 3 {
        out.push(problem(
            "tensorRank",
            rank,
            format!("must be at least 3 when interleave is not NONE ({SOURCE})"),
        ));
    }
    let need32 = p.interleave == Interleave::B32 || p.data_type.packed16();
    let align = if need32 { 32 } else { 16 };
    if p.global_address % align != 0 {
        out.push(problem(
            "globalAddress",
            format!("0x{:x}", p.global_address),
            format!("must be {align}-byte aligned ({SOURCE})"),
        ));
    }
    for (i, &d) in p.global_dim.iter().enumerate() {
        if d == 0 || d > 1 << 32 {
            out.push(problem(
                format!("globalDim[{i}]"),
                d,
                format!("must be non-zero and at most 2^32 ({SOURCE})"),
            ));
        }
    }
    if let Some(&d0) = p.global_dim.first() {
        if p.data_type.packed16() && d0 % 128 != 0 {
            out.push(problem(
                "globalDim[0]",
                d0,
                format!(
                    "must be a multiple of 128 for {} ({SOURCE})",
                    p.data_type.name()
                ),
            ));
        }
        if p.data_type == DataType::U4Align8B && d0 % 2 != 0 {
            out.push(problem(
                "globalDim[0]",
                d0,
                format!(
                    "must be a multiple of 2 for {} ({SOURCE})",
                    p.data_type.name()
                ),
            ));
        }
    }
    if p.global_strides.len() + 1 != rank.max(1) {
        out.push(problem(
            "globalStrides",
            format!("{:?}", p.global_strides),
            format!(
                "needs tensorRank - 1 = {} values ({SOURCE})",
                rank.saturating_sub(1)
            ),
        ));
    }
    let stride_align = if need32 { 32 } else { 16 };
    for (i, &s) in p.global_strides.iter().enumerate() {
        if s % stride_align != 0 || s >= 1 << 40 {
            out.push(problem(
                format!("globalStrides[{i}]"),
                s,
                format!("must be a multiple of {stride_align} and less than 2^40 ({SOURCE})"),
            ));
        }
    }
}

/// The driver's requirements on the box, the element strides, interleave, swizzle and fill.
fn check_box(p: &EncodeTiled, out: &mut Vec<RunError>) {
    let rank = p.global_dim.len();
    for (name, len) in [
        ("boxDim", p.box_dim.len()),
        ("elementStrides", p.element_strides.len()),
    ] {
        if len != rank {
            out.push(problem(
                name,
                format!("{len} values"),
                format!("needs tensorRank = {rank} values ({SOURCE})"),
            ));
        }
    }
    for (i, &b) in p.box_dim.iter().enumerate() {
        if b == 0 || b > 256 {
            out.push(problem(
                format!("boxDim[{i}]"),
                b,
                format!("must be non-zero and at most 256 ({SOURCE})"),
            ));
        }
    }
    let inner = match (p.box_dim.first(), p.data_type.bytes()) {
        (Some(&b), Some(e)) => Some(u64::from(b) * u64::from(e)),
        _ => None,
    };
    if let Some(inner) = inner {
        if p.interleave == Interleave::None && inner % 16 != 0 {
            out.push(problem(
                "boxDim[0]",
                p.box_dim[0],
                format!("boxDim[0] x element size = {inner} bytes must be a multiple of 16 bytes when interleave is NONE ({SOURCE})"),
            ));
        }
        let span = u64::from(p.swizzle.span());
        if p.interleave == Interleave::None && span > 0 && inner > span {
            out.push(problem(
                "boxDim[0]",
                p.box_dim[0],
                format!("the inner box extent of {inner} bytes exceeds the {span}-byte span of {} ({SOURCE})", p.swizzle.name()),
            ));
        }
    }
    if p.data_type.packed16() && p.box_dim.first().is_some_and(|&b| b != 128) {
        out.push(problem(
            "boxDim[0]",
            p.box_dim[0],
            format!("must be 128 for {} ({SOURCE})", p.data_type.name()),
        ));
    }
    for (i, &e) in p.element_strides.iter().enumerate() {
        if e == 0 || e > 8 {
            out.push(problem(
                format!("elementStrides[{i}]"),
                e,
                format!("must be non-zero and at most 8 ({SOURCE})"),
            ));
        }
    }
    if p.interleave == Interleave::B32 && p.swizzle != MapSwizzle::B32 {
        out.push(problem(
            "swizzle",
            p.swizzle.name(),
            format!("must be CU_TENSOR_MAP_SWIZZLE_32B when interleave is 32B ({SOURCE})"),
        ));
    }
    if p.oob_fill == OobFill::NanRequestZeroFma && !p.data_type.is_float() {
        out.push(problem(
            "oobFill",
            "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA",
            format!(
                "only for floating-point data types, not {} ({SOURCE})",
                p.data_type.name()
            ),
        ));
    }
}

/// What the interpreter's bulk tensor copies do not model, refused by name (the driver accepts
/// these).
fn check_modelled(p: &EncodeTiled, out: &mut Vec<RunError>) {
    const WHY: &str = "valid for the driver, but not modelled by tcgen05 run's tensor copies";
    if p.data_type.bytes().is_none() {
        out.push(problem(
            "tensorDataType",
            p.data_type.name(),
            format!("packed sub-byte types: {WHY}"),
        ));
    }
    if p.interleave != Interleave::None {
        out.push(problem(
            "interleave",
            format!("CU_TENSOR_MAP_INTERLEAVE_{:?}", p.interleave).to_uppercase(),
            WHY.to_string(),
        ));
    }
    if matches!(
        p.swizzle,
        MapSwizzle::B128Atom32B | MapSwizzle::B128Atom32BFlip8B | MapSwizzle::B128Atom64B
    ) {
        out.push(problem("swizzle", p.swizzle.name(), WHY.to_string()));
    }
    if p.oob_fill == OobFill::NanRequestZeroFma {
        out.push(problem(
            "oobFill",
            "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA",
            format!("the NaN fill constant: {WHY}"),
        ));
    }
}

/// Builds a tiled tensor map as `cuTensorMapEncodeTiled` does: every problem is reported (the
/// driver's rules first, then what the interpreter does not model).
///
/// # Errors
/// One [`RunError::TensorMap`] per problem.
pub fn encode_tiled(p: &EncodeTiled) -> Result<TensorMap, Vec<RunError>> {
    let mut out = Vec::new();
    check_global(p, &mut out);
    check_box(p, &mut out);
    if out.is_empty() {
        check_modelled(p, &mut out);
    }
    if !out.is_empty() {
        return Err(out);
    }
    let swizzle = match p.swizzle {
        MapSwizzle::None => Swizzle::None,
        MapSwizzle::B32 => Swizzle::B32,
        MapSwizzle::B64 => Swizzle::B64,
        _ => Swizzle::B128,
    };
    Ok(TensorMap {
        element_bytes: p.data_type.bytes().unwrap_or(1),
        dims: p.global_dim.clone(),
        strides: p.global_strides.clone(),
        box_dims: p.box_dim.clone(),
        element_strides: p.element_strides.clone(),
        swizzle,
    })
}

/// The bytes a tensor map reaches from its first element: the last byte of the last element,
/// plus one (what its buffer must hold).
#[must_use]
pub fn extent(map: &TensorMap) -> u64 {
    let last: u64 = map
        .dims
        .iter()
        .skip(1)
        .zip(&map.strides)
        .map(|(&d, &s)| d.saturating_sub(1).saturating_mul(s))
        .fold(0, u64::saturating_add);
    let first = map
        .dims
        .first()
        .map_or(0, |&d| d.saturating_mul(u64::from(map.element_bytes)));
    last.saturating_add(first)
}

/// `cuTensorMapEncodeIm2col`: refused, the interpreter performs tiled copies only.
///
/// # Errors
/// Always one [`RunError::TensorMap`] naming the function.
pub fn encode_im2col() -> Result<TensorMap, Vec<RunError>> {
    Err(vec![problem(
        "cuTensorMapEncodeIm2col",
        "im2col",
        "im2col tensor maps are not modelled by tcgen05 run (tiled maps only: cuTensorMapEncodeTiled)".into(),
    )])
}
