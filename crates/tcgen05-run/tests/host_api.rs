//! The host API: tensor maps built like `cuTensorMapEncodeTiled` and refused with the rules of
//! CUDA driver API section 6.30 (each rule below is that section's text, mutated one parameter
//! at a time from a valid map), and arguments matched against the `.param` list.

use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05_run::param_match::{float_arg, int_arg};
use tcgen05_run::tensor_map::TensorMap;
use tcgen05_run::tensor_map_encode::{
    encode_im2col, encode_tiled, extent, DataType, EncodeTiled, Interleave, L2Promotion,
    MapSwizzle, OobFill,
};
use tcgen05_run::{launch, Arg, Config, Module, RunError};

/// Triton's A map of `hw/run/ptx/dot_tma.ptx`: 128 x 96 f16, 64 x 32 boxes, 64B swizzle, L2
/// promotion 128B as Triton's launcher asks.
fn valid() -> EncodeTiled {
    EncodeTiled {
        data_type: DataType::Float16,
        global_address: 0,
        global_dim: vec![96, 128],
        global_strides: vec![192],
        box_dim: vec![32, 64],
        element_strides: vec![1, 1],
        interleave: Interleave::None,
        swizzle: MapSwizzle::B64,
        l2_promotion: L2Promotion::B128,
        oob_fill: OobFill::None,
    }
}

/// The fields of every problem of `p`.
fn refused(p: &EncodeTiled) -> Vec<(String, String, String)> {
    match encode_tiled(p) {
        Ok(m) => panic!("accepted {p:?} as {m:?}"),
        Err(es) => es
            .into_iter()
            .map(|e| match e {
                RunError::TensorMap { field, value, why } => (field, value, why),
                e => panic!("not a tensor map error: {e}"),
            })
            .collect(),
    }
}

/// Asserts that `p` is refused for `field` = `value` with a reason containing `rule`.
fn assert_refused(p: &EncodeTiled, field: &str, value: &str, rule: &str) {
    let got = refused(p);
    assert!(
        got.iter()
            .any(|(f, v, w)| f == field && v == value && w.contains(rule)),
        "{field} = {value} ({rule}): got {got:?}"
    );
}

#[test]
fn a_valid_map_encodes_to_the_interpreters_map() {
    let m = encode_tiled(&valid()).expect("valid");
    assert_eq!(
        m,
        TensorMap {
            element_bytes: 2,
            dims: vec![96, 128],
            strides: vec![192],
            box_dims: vec![32, 64],
            element_strides: vec![1, 1],
            swizzle: Swizzle::B64,
        }
    );
    // The last byte of a 96 x 128 f16 matrix with 192-byte rows.
    assert_eq!(extent(&m), 127 * 192 + 96 * 2);
}

#[test]
fn every_driver_rule_is_refused_by_name() {
    let with = |f: &dyn Fn(&mut EncodeTiled)| {
        let mut p = valid();
        f(&mut p);
        p
    };
    let src = "CUDA driver API 6.30";
    // tensorRank: non-zero, at most 5; at least 3 with interleave.
    assert_refused(
        &with(&|p| {
            p.global_dim = vec![2; 6];
            p.global_strides = vec![16; 5];
            p.box_dim = vec![8; 6];
            p.element_strides = vec![1; 6];
        }),
        "tensorRank",
        "6",
        "must be 1 to 5",
    );
    assert_refused(
        &with(&|p| p.interleave = Interleave::B16),
        "tensorRank",
        "2",
        "at least 3",
    );
    // globalAddress: 16-byte aligned, 32 with interleave 32B.
    assert_refused(
        &with(&|p| p.global_address = 8),
        "globalAddress",
        "0x8",
        "16-byte aligned",
    );
    // globalDim: non-zero, at most 2^32.
    assert_refused(
        &with(&|p| p.global_dim[1] = 0),
        "globalDim[1]",
        "0",
        "non-zero and at most 2^32",
    );
    assert_refused(
        &with(&|p| p.global_dim[0] = (1 << 32) + 1),
        "globalDim[0]",
        "4294967297",
        "at most 2^32",
    );
    // globalStrides: multiple of 16, below 2^40; rank - 1 of them.
    assert_refused(
        &with(&|p| p.global_strides[0] = 200),
        "globalStrides[0]",
        "200",
        "multiple of 16 and less than 2^40",
    );
    assert_refused(
        &with(&|p| p.global_strides[0] = 1 << 40),
        "globalStrides[0]",
        "1099511627776",
        "less than 2^40",
    );
    // boxDim: non-zero, at most 256; inner extent a multiple of 16 bytes; within the swizzle.
    assert_refused(
        &with(&|p| p.box_dim[1] = 257),
        "boxDim[1]",
        "257",
        "at most 256",
    );
    assert_refused(
        &with(&|p| p.box_dim[0] = 4),
        "boxDim[0]",
        "4",
        "multiple of 16 bytes",
    );
    assert_refused(
        &with(&|p| p.box_dim[0] = 64),
        "boxDim[0]",
        "64",
        "exceeds the 64-byte span of CU_TENSOR_MAP_SWIZZLE_64B",
    );
    // elementStrides: non-zero, at most 8.
    assert_refused(
        &with(&|p| p.element_strides[1] = 9),
        "elementStrides[1]",
        "9",
        "at most 8",
    );
    // interleave 32B needs swizzle 32B; NaN fill needs a float type.
    let rank3 = |p: &mut EncodeTiled| {
        p.global_dim = vec![16, 4, 4];
        p.global_strides = vec![32, 128];
        p.box_dim = vec![16, 4, 4];
        p.element_strides = vec![1, 1, 1];
    };
    assert_refused(
        &with(&|p| {
            rank3(p);
            p.interleave = Interleave::B32;
        }),
        "swizzle",
        "CU_TENSOR_MAP_SWIZZLE_64B",
        "must be CU_TENSOR_MAP_SWIZZLE_32B when interleave is 32B",
    );
    assert_refused(
        &with(&|p| {
            p.data_type = DataType::Int32;
            p.box_dim[0] = 16;
            p.oob_fill = OobFill::NanRequestZeroFma;
        }),
        "oobFill",
        "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA",
        "only for floating-point data types",
    );
    // Every problem is reported, each citing the section.
    let all = refused(&with(&|p| {
        p.global_strides[0] = 8;
        p.box_dim[1] = 0;
        p.element_strides[0] = 0;
    }));
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(all.iter().all(|(_, _, w)| w.contains(src)), "{all:?}");
}

#[test]
fn what_the_interpreter_does_not_model_is_refused_by_name() {
    let mut p = valid();
    p.oob_fill = OobFill::NanRequestZeroFma;
    assert_refused(
        &p,
        "oobFill",
        "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA",
        "not modelled",
    );
    let mut p = valid();
    p.swizzle = MapSwizzle::B128Atom64B;
    assert_refused(
        &p,
        "swizzle",
        "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
        "not modelled",
    );
    let e = encode_im2col().expect_err("im2col");
    assert!(
        e[0].to_string().contains("cuTensorMapEncodeIm2col"),
        "{}",
        e[0]
    );
}

#[test]
fn names_parse_as_the_driver_writes_them() {
    assert_eq!(DataType::from_code(9), Some(DataType::Bfloat16));
    assert_eq!(DataType::parse("bfloat16"), Some(DataType::Bfloat16));
    assert_eq!(DataType::parse("f16"), Some(DataType::Float16));
    assert_eq!(DataType::parse("16U4_ALIGN8B"), Some(DataType::U4Align8B));
    assert_eq!(DataType::parse("f8"), None);
    assert_eq!(MapSwizzle::from_code(3), Some(MapSwizzle::B128));
    assert_eq!(MapSwizzle::parse("128b"), Some(MapSwizzle::B128));
    assert_eq!(MapSwizzle::parse("16B"), None);
}

const K: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n\
    .visible .entry k(.param .u64 .ptr .global .align 1 out, .param .u32 n, .param .f32 x, \
    .param .align 64 .b8 map[128])\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
    ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nld.param.u32 %r2, [x];\n\
    st.global.u32 [%rd1], %r1;\nst.global.u32 [%rd1+4], %r2;\nret;\n}\n";

fn config() -> Config {
    Config {
        grid: [1, 1, 1],
        block: [1, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    }
}

#[test]
fn arguments_are_matched_by_kind_size_and_alignment() {
    let module = Module::read(K).expect("module");
    let k = module.kernel("k").expect("kernel");
    let map = encode_tiled(&valid()).expect("map");
    let err = |args: &mut [Arg]| {
        launch(&module, "k", &config(), args)
            .expect_err("mismatch")
            .to_string()
    };
    // A buffer for the .u32 parameter.
    let e = err(&mut [
        Arg::Buffer(vec![0; 8]),
        Arg::Buffer(vec![0; 4]),
        Arg::f32(1.0),
        Arg::TensorMap(map.clone(), vec![0; 24576]),
    ]);
    assert!(
        e.contains("`n`") && e.contains("64-bit integer pointer"),
        "{e}"
    );
    // A tensor map for the pointer, a scalar for the map.
    let e = err(&mut [
        Arg::TensorMap(map.clone(), vec![0; 24576]),
        Arg::i32(1),
        Arg::f32(1.0),
        Arg::TensorMap(map.clone(), vec![0; 24576]),
    ]);
    assert!(
        e.contains("`out`") && e.contains(".align 64 .b8 [128]"),
        "{e}"
    );
    let e = err(&mut [
        Arg::Buffer(vec![0; 8]),
        Arg::i32(1),
        Arg::f32(1.0),
        Arg::i64(0),
    ]);
    assert!(
        e.contains("`map`") && e.contains("8 bytes given, the parameter is 128 bytes"),
        "{e}"
    );
    // Typed scalars: an integer in its width, a float to .f32, refusals named.
    let (n, x) = (&k.params[1], &k.params[2]);
    assert_eq!(int_arg(n, -1).expect("-1"), Arg::Scalar(vec![0xFF; 4]));
    assert_eq!(
        int_arg(n, 0xFFFF_FFFF).expect("max"),
        Arg::Scalar(vec![0xFF; 4])
    );
    let e = int_arg(n, 1 << 32).expect_err("range").to_string();
    assert!(e.contains("`n`") && e.contains("outside"), "{e}");
    let e = float_arg(n, 1.5).expect_err("float").to_string();
    assert!(e.contains("`n`") && e.contains("a float given"), "{e}");
    assert_eq!(float_arg(x, 0.1).expect("f32"), Arg::f32(0.1));
    assert_eq!(int_arg(x, 3).expect("int to f32"), Arg::f32(3.0));
    // And the run with matching arguments writes n and x's bits.
    let mut args = [
        Arg::Buffer(vec![0; 8]),
        int_arg(n, 7).expect("n"),
        float_arg(x, 0.5).expect("x"),
        Arg::TensorMap(map, vec![0; 24576]),
    ];
    let stats = launch(&module, "k", &config(), &mut args).expect("run");
    let mut want = 7u32.to_le_bytes().to_vec();
    want.extend_from_slice(&0.5f32.to_bits().to_le_bytes());
    assert_eq!(args[0], Arg::Buffer(want));
    // Two 4-byte stores to global memory.
    assert_eq!(stats.bytes_moved, 8);
    assert_eq!(stats.mmas, 0);
}

/// Typed buffers: codes from the formats' definitions (IEEE 754 binary16, bfloat16 = the top
/// half of binary32, OCP FP8 e4m3/e5m2), round to nearest even when written.
#[test]
fn buffers_read_back_by_element_type() {
    use tcgen05_run::buffer::{Buffer, DType};
    let raw = |dtype, bytes: Vec<u8>| Buffer { dtype, bytes };
    // bf16 1.0 = 0x3F80, -3.0 = 0xC040; f16 1.0 = 0x3C00, 65504 = 0x7BFF, 2^-24 = 0x0001.
    assert_eq!(
        raw(DType::Bf16, vec![0x80, 0x3F, 0x40, 0xC0]).to_f64(),
        [1.0, -3.0]
    );
    assert_eq!(
        raw(DType::F16, vec![0x00, 0x3C, 0xFF, 0x7B, 0x01, 0x00]).to_f64(),
        [1.0, 65504.0, 2f64.powi(-24)]
    );
    // e4m3 0x7E = 448 (its largest), 0x01 = 2^-9; e5m2 0x7B = 57344.
    assert_eq!(
        raw(DType::E4m3, vec![0x7E, 0x01]).to_f64(),
        [448.0, 2f64.powi(-9)]
    );
    assert_eq!(raw(DType::E5m2, vec![0x7B]).to_f64(), [57344.0]);
    assert_eq!(raw(DType::I16, vec![0xFE, 0xFF]).to_f64(), [-2.0]);
    // Writing rounds to nearest even: 1 + 2^-8 is a tie between bf16 1.0 and 1 + 2^-7 (0x3F81):
    // the even code 0x3F80; 1 + 3 * 2^-8 ties to 0x3F82.
    let b = Buffer::from_f64(
        DType::Bf16,
        &[1.0 + 2f64.powi(-8), 1.0 + 3.0 * 2f64.powi(-8)],
    );
    assert_eq!((b.code(0), b.code(1)), (0x3F80, 0x3F82));
    assert_eq!(Buffer::from_f64(DType::F16, &[65520.0]).code(0), 0x7C00);
    assert_eq!(Buffer::from_f64(DType::I32, &[-1.0]).bytes, vec![0xFF; 4]);
    // Through a run: the kernel writes n and x's bits into a u32 buffer.
    let module = Module::read(K).expect("module");
    let map = encode_tiled(&valid()).expect("map");
    let mut out = Buffer::zeros(DType::U32, 2);
    let mut args = [
        out.arg(),
        Arg::i32(9),
        Arg::f32(0.25),
        Arg::TensorMap(map, vec![0; 24576]),
    ];
    launch(&module, "k", &config(), &mut args).expect("run");
    out.read_back(&args[0]);
    assert_eq!(out.to_f64(), [9.0, f64::from(0.25f32.to_bits())]);
    assert_eq!(out.len(), 2);
}
