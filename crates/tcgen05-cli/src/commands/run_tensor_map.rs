//! `tcgen05 run --arg NAME=tensormap:SPEC`: a tensor map argument, written as the array file it
//! describes and the other parameters of `cuTensorMapEncodeTiled` (CUDA driver API 6.30):
//!
//! ```text
//! tensormap:FILE.npy,box=64x32[,swizzle=128B][,type=f16][,elementstrides=1x1]
//!     [,interleave=none][,l2=none][,oob=zero][,shape=128x96][,strides=96x1]
//! ```
//!
//! Sizes are in the array's order (outermost first, like the `.npy` shape and Triton's
//! `block_shape`); the driver's `globalDim`, `globalStrides` and `boxDim` are their reverse. The
//! global dimensions and strides come from the file's shape (C order) unless `shape=` and
//! `strides=` (in elements) describe another view of its bytes. Every parameter is checked with
//! the driver's rules by [`tcgen05_run::tensor_map_encode::encode_tiled`].

use tcgen05_run::tensor_map::TensorMap;
use tcgen05_run::tensor_map_encode::{
    encode_tiled, extent, DataType, EncodeTiled, Interleave, L2Promotion, MapSwizzle, OobFill,
};

use super::npy_file::{self, ArrayFile};

/// The data type of a `.npy` dtype string (`<f2`, `|u1`), as the tensor memory accelerator
/// copies it (8-bit types as UINT8).
fn data_type_of(descr: &str) -> Option<DataType> {
    Some(
        match descr.trim_matches('\'').trim_start_matches(['<', '|', '=']) {
            "u1" | "i1" | "b1" => DataType::Uint8,
            "u2" | "i2" => DataType::Uint16,
            "u4" => DataType::Uint32,
            "i4" => DataType::Int32,
            "u8" => DataType::Uint64,
            "i8" => DataType::Int64,
            "f2" => DataType::Float16,
            "f4" => DataType::Float32,
            "f8" => DataType::Float64,
            _ => return None,
        },
    )
}

/// `AxBxC` as numbers.
fn sizes(spec: &str, key: &str, v: &str) -> Result<Vec<u64>, String> {
    v.split('x')
        .map(|p| {
            p.trim()
                .parse::<u64>()
                .map_err(|_| format!("tensormap:{spec}: {key}={v}: `{p}` is not a number"))
        })
        .collect()
}

/// The options of a spec after its file, by key.
#[derive(Default)]
struct Options {
    box_dim: Option<Vec<u64>>,
    swizzle: MapSwizzle,
    data_type: Option<DataType>,
    element_strides: Option<Vec<u64>>,
    interleave: Interleave,
    l2: L2Promotion,
    oob: OobFill,
    shape: Option<Vec<u64>>,
    strides: Option<Vec<u64>>,
}

fn option(spec: &str, o: &mut Options, key: &str, v: &str) -> Result<(), String> {
    let bad = |names: &str| format!("tensormap:{spec}: {key}={v}: expected one of {names}");
    match key {
        "box" => o.box_dim = Some(sizes(spec, key, v)?),
        "swizzle" => o.swizzle = MapSwizzle::parse(v).ok_or_else(|| bad("none 32B 64B 128B 128B_ATOM_32B 128B_ATOM_32B_FLIP_8B 128B_ATOM_64B"))?,
        "type" => o.data_type = Some(DataType::parse(v).ok_or_else(|| bad("u8 u16 u32 i32 u64 i64 f16 f32 f64 bf16 tf32 (or a CU_TENSOR_MAP_DATA_TYPE_ suffix)"))?),
        "elementstrides" => o.element_strides = Some(sizes(spec, key, v)?),
        "interleave" => {
            o.interleave = match v.to_ascii_lowercase().as_str() {
                "none" => Interleave::None,
                "16b" => Interleave::B16,
                "32b" => Interleave::B32,
                _ => return Err(bad("none 16B 32B")),
            }
        }
        "l2" => {
            o.l2 = match v.to_ascii_lowercase().as_str() {
                "none" => L2Promotion::None,
                "64b" => L2Promotion::B64,
                "128b" => L2Promotion::B128,
                "256b" => L2Promotion::B256,
                _ => return Err(bad("none 64B 128B 256B")),
            }
        }
        "oob" => {
            o.oob = match v.to_ascii_lowercase().as_str() {
                "zero" | "none" => OobFill::None,
                "nan" => OobFill::NanRequestZeroFma,
                _ => return Err(bad("zero nan")),
            }
        }
        "shape" => o.shape = Some(sizes(spec, key, v)?),
        "strides" => o.strides = Some(sizes(spec, key, v)?),
        _ => return Err(format!(
            "tensormap:{spec}: unknown key `{key}` (box, swizzle, type, elementstrides, interleave, l2, oob, shape, strides)"
        )),
    }
    Ok(())
}

/// The driver's parameters for `file` with options `o`.
fn parameters(spec: &str, file: &ArrayFile, o: Options) -> Result<EncodeTiled, String> {
    let data_type = match (o.data_type, file.descr.as_deref().and_then(data_type_of)) {
        (Some(t), _) | (None, Some(t)) => t,
        (None, None) => {
            return Err(format!(
                "tensormap:{spec}: no data type for {}: add type=f16, bf16, ...",
                file.descr.as_deref().unwrap_or("a raw file")
            ))
        }
    };
    let box_dim = o
        .box_dim
        .ok_or_else(|| format!("tensormap:{spec}: box=AxB... is required"))?;
    let shape = o.shape.unwrap_or_else(|| file.shape.clone());
    let item = data_type.bytes().map_or(1, u64::from);
    let strides_bytes: Vec<u64> = match o.strides {
        Some(s) => s.iter().map(|e| e * item).collect(),
        None => {
            // C order: each dimension's stride is the product of the ones inside it.
            let mut s = vec![item; shape.len()];
            for i in (0..shape.len().saturating_sub(1)).rev() {
                s[i] = s[i + 1] * shape[i + 1];
            }
            s
        }
    };
    let rank = shape.len();
    let rev32 = |v: &[u64]| -> Vec<u32> {
        v.iter()
            .rev()
            .map(|&x| u32::try_from(x).unwrap_or(u32::MAX))
            .collect()
    };
    Ok(EncodeTiled {
        data_type,
        global_address: 0,
        global_dim: shape.iter().rev().copied().collect(),
        global_strides: strides_bytes
            .iter()
            .take(rank.saturating_sub(1))
            .rev()
            .copied()
            .collect(),
        box_dim: rev32(&box_dim),
        element_strides: o
            .element_strides
            .map_or_else(|| vec![1; rank], |e| rev32(&e)),
        interleave: o.interleave,
        swizzle: o.swizzle,
        l2_promotion: o.l2,
        oob_fill: o.oob,
    })
}

/// Reads `tensormap:SPEC` (the text after `tensormap:`): the map and the file it describes.
/// Every problem of the map is returned, each naming the driver's parameter.
pub fn read(spec: &str) -> Result<(TensorMap, ArrayFile), Vec<String>> {
    let mut parts = spec.split(',');
    let path = parts.next().unwrap_or_default();
    let file = npy_file::read(path).map_err(|e| vec![format!("tensormap:{spec}: {e}")])?;
    let mut o = Options::default();
    for part in parts {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| vec![format!("tensormap:{spec}: `{part}` is not KEY=VALUE")])?;
        option(spec, &mut o, k.trim(), v.trim()).map_err(|e| vec![e])?;
    }
    let p = parameters(spec, &file, o).map_err(|e| vec![e])?;
    let map = encode_tiled(&p).map_err(|es| {
        es.iter()
            .map(|e| format!("tensormap:{spec}: {e}"))
            .collect::<Vec<_>>()
    })?;
    let need = extent(&map);
    if need > file.data.len() as u64 {
        return Err(vec![format!(
            "tensormap:{spec}: the tensor reaches {need} bytes, {path} holds {}",
            file.data.len()
        )]);
    }
    Ok((map, file))
}
