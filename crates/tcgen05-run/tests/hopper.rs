//! The Triton kernels of `hw/run/ptx` (Triton 3.9.0, sm_90a, compiled on a CPU by
//! `hw/run/gen_triton.py`) run in the interpreter on the inputs `hw/run/harness.cu` gives them
//! on the GPU; every output byte (16 guard elements past the end included) must equal the bytes
//! the GPU wrote (`hw/run/results/*.out`, recorded on a Hopper GPU by `hw/run/run.sh`).

mod common;

use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05_run::{launch, Arg, Config, Module};

use common::inputs::{float_code, inputs, inputs16, inputs_lowp, map, read, splitmix};

fn config_threads(grid: [u32; 2], threads: u32, shared: u32) -> Config {
    Config {
        grid: [grid[0], grid[1], 1],
        block: [threads, 1, 1],
        cluster: [1, 1, 1],
        shared,
        limits: Default::default(),
    }
}

/// Runs `name` and returns the bytes of its output buffer (argument `out`).
fn run(name: &str, grid: [u32; 2], shared: u32, args: Vec<Arg>, out: usize) -> Vec<u8> {
    run_threads(name, grid, 128, shared, args, &[out]).remove(0)
}

/// Runs `name` with `threads` threads per CTA and returns the bytes of its output buffers
/// (arguments `outs`).
fn run_threads(
    name: &str,
    grid: [u32; 2],
    threads: u32,
    shared: u32,
    mut args: Vec<Arg>,
    outs: &[usize],
) -> Vec<Vec<u8>> {
    let src = String::from_utf8(read(&format!("hw/run/ptx/{name}.ptx"))).expect("utf-8");
    let module = Module::read(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
    launch(
        &module,
        name,
        &config_threads(grid, threads, shared),
        &mut args,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    outs.iter()
        .map(|&i| match &args[i] {
            Arg::Buffer(b) => b.clone(),
            _ => unreachable!(),
        })
        .collect()
}

fn assert_same(name: &str, got: &[u8], elem: usize) {
    let want = read(&format!("hw/run/results/{name}.out"));
    assert_eq!(got.len(), want.len(), "{name}: output size");
    let diffs: Vec<usize> = (0..want.len() / elem)
        .filter(|i| got[i * elem..(i + 1) * elem] != want[i * elem..(i + 1) * elem])
        .collect();
    assert!(
        diffs.is_empty(),
        "{name}: {} of {} elements differ from the GPU, first at {:?}: got {:02x?}, GPU {:02x?}",
        diffs.len(),
        want.len() / elem,
        diffs.first(),
        diffs.first().map(|&i| &got[i * elem..(i + 1) * elem]),
        diffs.first().map(|&i| &want[i * elem..(i + 1) * elem]),
    );
}

#[test]
fn axpy_bf16_matches_the_gpu() {
    let n = 1000;
    let out: Vec<u8> = [0xCD, 0xAB].repeat(n + 16);
    let args = vec![
        Arg::Buffer(inputs(1, n, 100, 60, true)),
        Arg::Buffer(inputs(2, n, 100, 60, true)),
        Arg::Buffer(out),
        Arg::i32(n as i32),
        Arg::f32(1.7),
        Arg::Null,
        Arg::Null,
    ];
    let got = run("axpy_bf16", [4, 1], 0, args, 2);
    assert_same("axpy_bf16", &got, 2);
}

#[test]
fn scale_fp8_matches_the_gpu() {
    let n = 1500;
    let args = vec![
        Arg::Buffer(inputs(3, n, 100, 60, true)),
        Arg::Buffer(vec![0xAB; n + 16]),
        Arg::i32(n as i32),
        Arg::f32(3.3),
        Arg::Null,
        Arg::Null,
    ];
    let got = run("scale_fp8", [3, 1], 0, args, 1);
    assert_same("scale_fp8", &got, 1);
}

#[test]
fn row_sum_matches_the_gpu() {
    let (rows, cols) = (8, 1000);
    let args = vec![
        Arg::Buffer(inputs(4, rows * cols, 110, 30, false)),
        Arg::Buffer(vec![0xAB; 4 * (rows + 4)]),
        Arg::i32(cols as i32),
        Arg::Null,
        Arg::Null,
    ];
    let got = run("row_sum", [rows as u32, 1], 16, args, 1);
    assert_same("row_sum", &got, 4);
}

#[test]
fn fma_f32_matches_the_gpu() {
    let n = 1000;
    let args = vec![
        Arg::Buffer(inputs(5, n, 100, 60, true)),
        Arg::Buffer(inputs(6, n, 100, 60, true)),
        Arg::Buffer(inputs(7, n, 100, 60, true)),
        Arg::Buffer(vec![0xAB; 4 * (n + 16)]),
        Arg::i32(n as i32),
        Arg::Null,
        Arg::Null,
    ];
    let got = run("fma_f32", [4, 1], 0, args, 3);
    assert_same("fma_f32", &got, 4);
}

#[test]
fn dot_f16_wgmma_matches_the_gpu() {
    let (m, n, k) = (100, 72, 80);
    let args = vec![
        Arg::Buffer(inputs16(8, m * k)),
        Arg::Buffer(inputs16(9, k * n)),
        Arg::Buffer(vec![0xAB; 4 * (m * n + 16)]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ];
    let got = run("dot_f16", [2, 2], 16384, args, 2);
    assert_same("dot_f16", &got, 4);
}

/// The harness's `run_dot`: C[M, N] f32 = A[M, K] @ B[K, N], 64 x 64 tiles.
fn dot(name: &str, fp8: bool, (m, n, k): (usize, usize, usize), seeds: (u64, u64)) {
    let args = vec![
        Arg::Buffer(inputs_lowp(seeds.0, m * k, fp8)),
        Arg::Buffer(inputs_lowp(seeds.1, k * n, fp8)),
        Arg::Buffer(vec![0xAB; 4 * (m * n + 16)]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ];
    let got = run(name, [(m / 64) as u32, (n / 64) as u32], 16384, args, 2);
    assert_same(name, &got, 4);
}

#[test]
fn dot_bf16_wgmma_matches_the_gpu() {
    dot("dot_bf16", false, (128, 64, 96), (10, 11));
}

#[test]
fn dot_e4m3_wgmma_matches_the_gpu() {
    dot("dot_e4m3", true, (64, 128, 128), (12, 13));
}

/// The harness's `dot_tma`: tiles moved by `cp.async.bulk.tensor` with 64B- and 128B-swizzled
/// tensor maps, completion through mbarriers.
#[test]
fn dot_tma_matches_the_gpu() {
    let (m, n, k) = (128usize, 128usize, 96usize);
    let (a, b) = (inputs16(14, m * k), inputs16(15, k * n));
    let args = vec![
        map(a, (m as u64, k as u64), (64, 32), Swizzle::B64),
        Arg::i32(m as i32),
        Arg::i32(k as i32),
        Arg::i64(k as i64),
        Arg::i64(1),
        map(b, (k as u64, n as u64), (32, 64), Swizzle::B128),
        Arg::i32(k as i32),
        Arg::i32(n as i32),
        Arg::i64(n as i64),
        Arg::i64(1),
        Arg::Buffer(vec![0xAB; 4 * (m * n + 16)]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ];
    let got = run(
        "dot_tma",
        [(m / 64) as u32, (n / 64) as u32],
        24600,
        args,
        10,
    );
    assert_same("dot_tma", &got, 4);
}

/// The harness's `inputs8`: random bytes (every int8 value).
fn inputs8(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n).map(|_| (splitmix(&mut seed) & 0xFF) as u8).collect()
}

/// The harness's `run_gemm`: a pointer GEMM kernel's arguments (A, B, C of `m x n` elements of
/// `c_elem` bytes plus 16 guard elements, M, N, K, two scratch pointers); returns C's bytes.
#[allow(clippy::too_many_arguments)]
fn gemm(
    name: &str,
    (a, b): (Vec<u8>, Vec<u8>),
    (m, n, k): (usize, usize, usize),
    c_elem: usize,
    grid: [u32; 2],
    threads: u32,
    shared: u32,
) -> Vec<u8> {
    let args = vec![
        Arg::Buffer(a),
        Arg::Buffer(b),
        Arg::Buffer(vec![0xAB; c_elem * (m * n + 16)]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ];
    run_threads(name, grid, threads, shared, args, &[2]).remove(0)
}

/// tf32 `wgmma` (m64n64k8): f32 inputs whose low 13 fraction bits the tensor core ignores.
#[test]
fn dot_tf32_wgmma_matches_the_gpu() {
    let (m, n, k) = (128, 64, 96);
    let ab = (
        inputs(16, m * k, 120, 10, false),
        inputs(17, k * n, 120, 10, false),
    );
    let got = gemm("dot_tf32", ab, (m, n, k), 4, [2, 1], 128, 49152);
    assert_same("dot_tf32", &got, 4);
}

/// s8 x s8 -> s32 `wgmma` (m64n64k32), every int8 value.
#[test]
fn dot_i8_wgmma_matches_the_gpu() {
    let (m, n, k) = (64, 128, 128);
    let ab = (inputs8(18, m * k), inputs8(19, k * n));
    let got = gemm("dot_i8", ab, (m, n, k), 4, [1, 2], 128, 16384);
    assert_same("dot_i8", &got, 4);
}

/// An e4m3 GEMM with its epilogue fused: relu(A @ B + bias), written as bf16 and as e4m3.
#[test]
fn dot_fp8_epilogue_matches_the_gpu() {
    let (m, n, k) = (64, 128, 128);
    let args = vec![
        Arg::Buffer(inputs_lowp(20, m * k, true)),
        Arg::Buffer(inputs_lowp(21, k * n, true)),
        Arg::Buffer(inputs(22, n, 120, 12, false)),
        Arg::Buffer(vec![0xAB; 2 * (m * n + 16)]),
        Arg::Buffer(vec![0xAB; m * n + 16]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ];
    let got = run_threads("dot_fp8_epilogue", [1, 2], 128, 8192, args, &[3, 4]);
    assert_same("dot_fp8_epilogue_bf16", &got[0], 2);
    assert_same("dot_fp8_epilogue_e4m3", &got[1], 1);
}

/// M, N and K not multiples of the 128 x 64 x 32 tile: masked loads and stores, bf16 output,
/// two warpgroups.
#[test]
fn dot_tail_bf16_matches_the_gpu() {
    let (m, n, k) = (200, 90, 70);
    let ab = (inputs_lowp(23, m * k, false), inputs_lowp(24, k * n, false));
    let got = gemm("dot_tail_bf16", ab, (m, n, k), 2, [2, 2], 256, 16384);
    assert_same("dot_tail_bf16", &got, 2);
}

/// The harness's `run_gemm_tma`: C[M, N] f32 = A @ B (f16), both moved by TMA in 64 x 64 boxes
/// with 128-byte swizzling.
fn gemm_tma(
    name: &str,
    (m, n, k): (usize, usize, usize),
    seeds: (u64, u64),
    grid: [u32; 2],
    threads: u32,
    shared: u32,
) -> Vec<u8> {
    let (a, b) = (inputs16(seeds.0, m * k), inputs16(seeds.1, k * n));
    let args = vec![
        map(a, (m as u64, k as u64), (64, 64), Swizzle::B128),
        Arg::i32(m as i32),
        Arg::i32(k as i32),
        Arg::i64(k as i64),
        Arg::i64(1),
        map(b, (k as u64, n as u64), (64, 64), Swizzle::B128),
        Arg::i32(k as i32),
        Arg::i32(n as i32),
        Arg::i64(n as i64),
        Arg::i64(1),
        Arg::Buffer(vec![0xAB; 4 * (m * n + 16)]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ];
    run_threads(name, grid, threads, shared, args, &[10]).remove(0)
}

/// Triton's warp specialisation for sm_90a (`tl.range(..., warp_specialize=True)`): three
/// warpgroups, `setmaxnreg`, named barriers (`bar.sync 0, 128`, `barrier.sync 1`), mbarrier
/// arrivals with a count.
#[test]
fn gemm_ws_matches_the_gpu() {
    let got = gemm_tma("gemm_ws", (128, 128, 256), (25, 26), [2, 2], 384, 82080);
    assert_same("gemm_ws", &got, 4);
}

/// A persistent GEMM: 3 CTAs walk 6 output tiles.
#[test]
fn gemm_persistent_matches_the_gpu() {
    let got = gemm_tma(
        "gemm_persistent",
        (192, 128, 128),
        (27, 28),
        [3, 1],
        128,
        65560,
    );
    assert_same("gemm_persistent", &got, 4);
}

/// The benchmark's kernel (128 x 128 x 64 tiles, bf16 -> f32, 8 warps) on a 256 x 256 x 128
/// problem.
#[test]
fn gemm_bf16_128_matches_the_gpu() {
    let (m, n, k) = (256, 256, 128);
    let ab = (inputs_lowp(29, m * k, false), inputs_lowp(30, k * n, false));
    let got = gemm("gemm_bf16_128", ab, (m, n, k), 4, [2, 2], 256, 65536);
    assert_same("gemm_bf16_128", &got, 4);
}

/// The harness's `inputs_e5m2`: e5m2 codes with a random sign and fraction, biased exponent in
/// [8, 20).
fn inputs_e5m2(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| float_code(splitmix(&mut seed), 7, 2, (8, 12)) as u8)
        .collect()
}

/// e5m2 `wgmma` (m64n64k32) with the f32 result converted to f16 (`cvt.rn.f16x2.f32`).
#[test]
fn dot_e5m2_f16_matches_the_gpu() {
    let (m, n, k) = (64, 128, 128);
    let ab = (inputs_e5m2(31, m * k), inputs_e5m2(32, k * n));
    let got = gemm("dot_e5m2_f16", ab, (m, n, k), 2, [1, 2], 128, 8192);
    assert_same("dot_e5m2_f16", &got, 2);
}

/// s8 x s8 -> s32 with M, N and K (100, 72, 80) not multiples of the 64 x 64 x 64 tile.
#[test]
fn dot_i8_tail_matches_the_gpu() {
    let (m, n, k) = (100, 72, 80);
    let ab = (inputs8(33, m * k), inputs8(34, k * n));
    let got = gemm("dot_i8_tail", ab, (m, n, k), 4, [2, 2], 128, 16384);
    assert_same("dot_i8_tail", &got, 4);
}
