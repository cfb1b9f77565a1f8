"""tcgen05.triton.run: @triton.jit kernels compiled by Triton 3.9.0 on the CPU and run by the
interpreter, with NumPy arrays in place of tensors. Expected values come from NumPy (exact
integer and single-rounding f32 arithmetic), from an exact integer formula for dots, and from the
Hopper GPU's bytes of the same kernels (hw/run/results, recorded by hw/run/harness.cu).

Triton is a pinned test dependency (scripts/test-python.sh): these tests fail, never skip, when
it is missing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import triton  # type: ignore[import-untyped]
import triton.language as tl  # type: ignore[import-untyped]

import tcgen05.triton
from tcgen05.run import ArgumentError
from test_run import gpu, inputs16

ROOT = Path(__file__).resolve().parents[3]


def hw_kernels() -> Any:
    """hw/run/gen_triton.py, the source of the kernels the GPU ran."""
    spec = importlib.util.spec_from_file_location("hw_run_gen_triton", ROOT / "hw" / "run" / "gen_triton.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["hw_run_gen_triton"] = mod
    spec.loader.exec_module(mod)
    return mod


# Triton reads the kernels' annotations itself and accepts only its own (tl.constexpr).
@triton.jit  # type: ignore[untyped-decorator]
def add_mul_i32(x_ptr, y_ptr, sum_ptr, prod_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(sum_ptr + offs, x + y, mask=mask)
    tl.store(prod_ptr + offs, x * y ^ 0x5A5A, mask=mask)


@triton.jit  # type: ignore[untyped-decorator]
def add_mul_f32(x_ptr, y_ptr, sum_ptr, prod_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(sum_ptr + offs, x + y, mask=mask)
    tl.store(prod_ptr + offs, x * y, mask=mask)


@triton.jit  # type: ignore[untyped-decorator]
def row_stats(x_ptr, q_ptr, max_ptr, sum_ptr, n_cols, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=float("-inf"))
    q = tl.load(q_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(max_ptr + row, tl.max(x, axis=0))
    tl.store(sum_ptr + row, tl.sum(q, axis=0))


@triton.jit  # type: ignore[untyped-decorator]
def dot_small(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):  # type: ignore[no-untyped-def]
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.heuristics(values={"BLOCK": lambda args: triton.next_power_of_2(args["n"]) // 4})  # type: ignore[untyped-decorator]
@triton.jit  # type: ignore[untyped-decorator]
def add_mul_i32_heuristic(x_ptr, y_ptr, sum_ptr, prod_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    add_mul_i32(x_ptr, y_ptr, sum_ptr, prod_ptr, n, BLOCK)


@triton.jit  # type: ignore[untyped-decorator]
def narrow(x_ptr, b_ptr, bf_ptr, f8_ptr, wide_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(bf_ptr + offs, x.to(tl.bfloat16), mask=mask)
    tl.store(f8_ptr + offs, x.to(tl.float8e4nv), mask=mask)
    tl.store(wide_ptr + offs, b.to(tl.float32), mask=mask)


def guarded(n: int, dtype: Any, fill: int = 0xAB) -> np.ndarray[Any, Any]:
    a = np.zeros(n + 16, dtype=dtype)
    a.view(np.uint8)[:] = fill
    return a


def test_integer_elementwise_sm100a_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    n = 1000
    x = rng.integers(-(2**31), 2**31, n, dtype=np.int32)
    y = rng.integers(-(2**31), 2**31, n, dtype=np.int32)
    s, p = guarded(n, np.int32), guarded(n, np.int32)
    r = tcgen05.triton.run(add_mul_i32, lambda meta: (triton.cdiv(n, meta["BLOCK"]),), x, y, s, p, n, BLOCK=256)
    assert r.grid == (4, 1, 1) and r.block == (128, 1, 1) and ".target sm_100a" in r.ptx
    with np.errstate(over="ignore"):
        assert np.array_equal(s[:n], x + y)
        assert np.array_equal(p[:n], (x * y) ^ np.int32(0x5A5A))
    # The masked tail stores nothing past n.
    assert (s[n:].view(np.uint8) == 0xAB).all() and (p[n:].view(np.uint8) == 0xAB).all()


def test_heuristics_compute_the_meta_parameters() -> None:
    rng = np.random.default_rng(6)
    n = 1000
    x = rng.integers(-(2**31), 2**31, n, dtype=np.int32)
    y = rng.integers(-(2**31), 2**31, n, dtype=np.int32)
    s, p = guarded(n, np.int32), guarded(n, np.int32)
    # BLOCK = next_power_of_2(1000) // 4 = 256: four programs cover 1000 elements.
    r = tcgen05.triton.run(add_mul_i32_heuristic, lambda meta: (triton.cdiv(n, meta["BLOCK"]),), x, y, s, p, n)
    assert r.grid == (4, 1, 1)
    with np.errstate(over="ignore"):
        assert np.array_equal(s[:n], x + y)


def test_bfloat16_and_float8_arrays_sm100a_match_ml_dtypes() -> None:
    """ml_dtypes arrays as pointers to bf16 and e4m3: f32 to bf16 and to e4m3 round to nearest
    even (values within e4m3's range), bf16 to f32 is exact."""
    import ml_dtypes

    rng = np.random.default_rng(7)
    n = 500
    x = (rng.standard_normal(n) * 50).astype(np.float32)
    b = rng.standard_normal(n).astype(ml_dtypes.bfloat16)
    bf = np.zeros(n, dtype=ml_dtypes.bfloat16)
    f8 = np.zeros(n, dtype=ml_dtypes.float8_e4m3fn)
    wide = np.zeros(n, dtype=np.float32)
    r = tcgen05.triton.run(narrow, 4, x, b, bf, f8, wide, n, BLOCK=128)
    assert ".target sm_100a" in r.ptx
    assert bf.tobytes() == x.astype(ml_dtypes.bfloat16).tobytes()
    assert f8.tobytes() == x.astype(ml_dtypes.float8_e4m3fn).tobytes()
    assert wide.tobytes() == b.astype(np.float32).tobytes()


def test_float_elementwise_sm100a_matches_numpy_bit_for_bit() -> None:
    rng = np.random.default_rng(2)
    n = 777
    x = (rng.standard_normal(n) * 1e3).astype(np.float32)
    y = (rng.standard_normal(n) * 1e-3).astype(np.float32)
    s, p = guarded(n, np.float32), guarded(n, np.float32)
    r = tcgen05.triton.run(add_mul_f32, (triton.cdiv(n, 128),), x, y, s, p, n, BLOCK=128, num_warps=2)
    # num_warps=2: 64 threads per CTA; the PTX's parameters are the five arguments and Triton's
    # two scratch pointers (null: the kernel needs no scratch).
    assert r.block == (64, 1, 1) and r.grid == (7, 1, 1)
    assert [p.name for p in tcgen05.run.params(r.ptx, r.name)] == [f"add_mul_f32_param_{i}" for i in range(7)]
    # One IEEE round-to-nearest-even operation each: NumPy's float32 results are the GPU's.
    assert s[:n].tobytes() == (x + y).tobytes()
    assert p[:n].tobytes() == (x * y).tobytes()


def test_row_reductions_sm100a_match_numpy() -> None:
    rng = np.random.default_rng(3)
    rows, cols = 6, 1000
    # float64 max, and the float64 sum of integers below 2^20 (exact in any order). Triton 3.9
    # reduces 32-bit integers with redux.sync and f32 sums with add.f32x2 on sm_100a, which the
    # interpreter does not model yet.
    x = rng.standard_normal((rows, cols))
    q = rng.integers(-(2**20), 2**20, (rows, cols)).astype(np.float64)
    mx, sm = guarded(rows, np.float64), guarded(rows, np.float64)
    r = tcgen05.triton.run(row_stats, rows, x, q, mx, sm, cols, BLOCK=1024)
    assert np.array_equal(mx[:rows], x.max(axis=1))
    assert np.array_equal(sm[:rows], q.sum(axis=1))
    assert (mx[rows:].view(np.uint8) == 0xAB).all()
    assert r.stats.ctas == rows and r.stats.mmas == 0


def test_dot_sm90a_is_the_exact_integer_product() -> None:
    """Small integers in f16: every product and partial sum is exact in f32, so C is the
    integer matrix product whatever the order of accumulation."""
    rng = np.random.default_rng(4)
    m, n, k = 128, 64, 96
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c = np.zeros((m, n), dtype=np.float32)
    r = tcgen05.triton.run(dot_small, (m // 64, n // 64), a, b, c, m, n, k, BM=64, BN=64, BK=32, target="sm_90a",
                           num_stages=1)
    want = a.astype(np.int64) @ b.astype(np.int64)
    assert np.array_equal(c, want.astype(np.float32))
    assert "wgmma.mma_async" in r.ptx and r.stats.mmas > 0


def test_dot_f16_sm90a_gives_the_hopper_gpus_bytes() -> None:
    """The kernel the GPU ran, from its source; one stage, as the interpreter does not model
    the cp.async pipeline Triton builds for more (the K order of the wgmmas is the same)."""
    hw = hw_kernels()
    m, n, k = 100, 72, 80
    a = inputs16(8, m * k).view(np.float16)
    b = inputs16(9, k * n).view(np.float16)
    c = guarded(m * n, np.float32)
    tcgen05.triton.run(hw.dot_f16, (2, 2), a, b, c, m, n, k, BM=64, BN=64, BK=32, target="sm_90a", num_warps=4,
                       num_stages=1)
    assert c.tobytes() == gpu("dot_f16")


def test_host_tensor_descriptors_sm90a_give_the_hopper_gpus_bytes() -> None:
    """Host-side TensorDescriptor arguments, lowered to tensor maps as Triton's launcher lowers
    them (the swizzle the compiler chose), through cp.async.bulk.tensor and mbarriers."""
    hw = hw_kernels()
    m, n, k = 128, 128, 96
    a = inputs16(14, m * k).view(np.float16).reshape(m, k)
    b = inputs16(15, k * n).view(np.float16).reshape(k, n)
    c = guarded(m * n, np.float32)
    da = tcgen05.triton.tensor_descriptor(a, [64, 32])
    db = tcgen05.triton.tensor_descriptor(b, [32, 64])
    r = tcgen05.triton.run(hw.dot_tma, (2, 2), da, db, c, m, n, k, BM=64, BN=64, BK=32, target="sm_90a")
    assert c.tobytes() == gpu("dot_tma")
    assert "cp.async.bulk.tensor" in r.ptx


def test_pointer_gives_an_array_another_element_type() -> None:
    rng = np.random.default_rng(5)
    n = 300
    x = rng.integers(0, 1000, n, dtype=np.int32)
    y = rng.integers(0, 1000, n, dtype=np.int32)
    s, p = np.zeros(n, np.uint32), np.zeros(n, np.uint32)
    tcgen05.triton.run(add_mul_i32, 3, x, y, tcgen05.triton.pointer(s, "int32"), tcgen05.triton.pointer(p, tl.int32), n, BLOCK=128)
    assert np.array_equal(s, (x + y).astype(np.uint32))


def test_refusals() -> None:
    with pytest.raises(TypeError, match="@triton.jit"):
        tcgen05.triton.run(lambda: None, 1)
    with pytest.raises(TypeError, match="complex64"):
        z = np.zeros(4, np.complex64)
        tcgen05.triton.run(add_mul_f32, 1, z, z, z, z, 4, BLOCK=128)
    with pytest.raises(ValueError, match="target"):
        x = np.zeros(4, np.float32)
        tcgen05.triton.run(add_mul_f32, 1, x, x.copy(), x.copy(), x.copy(), 4, BLOCK=128, target="hopper")
    x = np.zeros(4, np.float32)
    with pytest.raises(ArgumentError, match="share memory"):
        tcgen05.triton.run(add_mul_f32, 1, x, x, x.copy(), x.copy(), 4, BLOCK=128)
