"""tcgen05.run: whole PTX kernels from Python. Expected bytes are the GPU's: the Triton kernels of
hw/run/ptx run on a Hopper GPU by hw/run/harness.cu (results in hw/run/results/), with the
harness's seeded inputs re-made here; refusals carry the interpreter's fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tcgen05
from tcgen05.run import (
    ArgumentError,
    LaunchError,
    NoKernelError,
    RunError,
    StepLimitError,
    TensorMap,
    TensorMapError,
    UnsupportedError,
    launch,
    params,
)

ROOT = Path(__file__).resolve().parents[3]
HW = ROOT / "hw" / "run"


def splitmix(state: list[int]) -> int:
    """SplitMix64, as hw/run/harness.cu's splitmix (state in a one-element list)."""
    m = (1 << 64) - 1
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & m
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def inputs(seed: int, n: int, lo: int, span: int, specials: bool = False) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The harness's `inputs`: f32 words, random sign, biased exponent in [lo, lo + span),
    random fraction; with `specials` the first eight are NaN, +-Inf, the smallest subnormal, -0,
    the largest finite, the largest subnormal, -1."""
    s = [seed]
    words = []
    for _ in range(n):
        r = splitmix(s)
        words.append((r & 1) << 31 | (lo + (r >> 1) % span) << 23 | (r >> 8) & 0x7FFFFF)
    if specials:
        words[:8] = [0x7FC00000, 0x7F800000, 0xFF800000, 1, 0x80000000, 0x7F7FFFFF, 0x007FFFFF, 0xBF800000]
    return np.array(words, dtype=np.uint32).view(np.float32)


def inputs16(seed: int, n: int) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """The harness's `inputs16`: f16 codes, random sign, biased exponent in [10, 20)."""
    s = [seed]
    codes = []
    for _ in range(n):
        r = splitmix(s)
        codes.append((r & 1) << 15 | (10 + (r >> 1) % 10) << 10 | (r >> 8) & 0x3FF)
    return np.array(codes, dtype=np.uint16)


def gpu(name: str) -> bytes:
    return (HW / "results" / f"{name}.out").read_bytes()


def test_row_sum_writes_the_gpu_bytes_in_place() -> None:
    x = inputs(4, 8 * 1000, 110, 30)
    out = np.full(12, np.frombuffer(b"\xab" * 4, np.float32)[0], dtype=np.float32)
    ptx = HW / "ptx" / "row_sum.ptx"
    stats = launch(ptx, "row_sum", 8, 128, [x, out, 1000, None, None], shared=16)
    assert out.tobytes() == gpu("row_sum")
    assert stats.ctas == 8 and stats.warp_instructions > 0 and stats.mmas == 0
    # Every input element is read once by its row's program (4 bytes each), 8 sums stored.
    assert stats.bytes_moved == 8 * 1000 * 4 + 8 * 4
    # By name, the same bytes.
    out2 = np.zeros(12, dtype=np.float32)
    out2.view(np.uint8)[:] = 0xAB
    names = [p.name for p in params(ptx, "row_sum")]
    launch(ptx.read_text(), "row_sum", (8,), (128, 1, 1), dict(zip(names, [x, out2, 1000, None, None])), shared=16)
    assert out2.tobytes() == gpu("row_sum")


def test_dot_tma_with_tensor_maps_writes_the_gpu_bytes() -> None:
    """Swizzled tensor maps (64B for A, 128B for B) built from arrays, as the harness builds
    them with cuTensorMapEncodeTiled; wgmma through the interpreter."""
    m, n, k = 128, 128, 96
    a = inputs16(14, m * k).reshape(m, k)
    b = inputs16(15, k * n).reshape(k, n)
    c = np.full(m * n + 16, 0xABABABAB, dtype=np.uint32)
    ma = TensorMap(a, box=(64, 32), swizzle="64B", data_type="f16")
    mb = TensorMap(b, box=(32, 64), swizzle="128B", data_type="f16")
    args = [ma, m, k, k, 1, mb, k, n, n, 1, c, m, n, k, None, None]
    stats = launch(HW / "ptx" / "dot_tma.ptx", "dot_tma", (2, 2), 128, args, shared=24600)
    assert c.tobytes() == gpu("dot_tma")
    # Four CTAs of one warpgroup, three K steps of 32, each two wgmma.mma_async m64n64k16 (the
    # two in the PTX's loop).
    assert stats.mmas == 4 * 3 * 2


def test_bfloat16_and_float8_arrays_are_their_bytes() -> None:
    import ml_dtypes
    ptx = HW / "ptx" / "axpy_bf16.ptx"
    n = 1000
    x = inputs(1, n, 100, 60, True)
    y = inputs(2, n, 100, 60, True)
    out = np.zeros(n + 16, dtype=ml_dtypes.bfloat16)
    out.view(np.uint16)[:] = 0xABCD
    alpha = float(np.uint32(0x3FD9999A).view(np.float32))
    launch(ptx, "axpy_bf16", 4, 128, [x, y, out, n, alpha, None, None])
    assert out.tobytes() == gpu("axpy_bf16")
    # An e4m3 array as the output of scale_fp8.
    x = inputs(3, 1500, 100, 60, True)
    out8 = np.zeros(1500 + 16, dtype=ml_dtypes.float8_e4m3fn)
    out8.view(np.uint8)[:] = 0xAB
    launch(HW / "ptx" / "scale_fp8.ptx", "scale_fp8", 3, 128, [x, out8, 1500, 3.3, None, None])
    assert out8.tobytes() == gpu("scale_fp8")


def test_refusals_carry_the_interpreters_fields() -> None:
    ptx = HW / "ptx" / "row_sum.ptx"
    x = np.zeros(1000, dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    with pytest.raises(NoKernelError) as e:
        launch(ptx, "nope", 1, 128, [])
    assert e.value.kind == "NoKernel" and e.value.available == ["row_sum"]
    # A float for the i32 parameter (row_sum_param_2 is .u32): the parameter is named.
    with pytest.raises(ArgumentError) as a:
        launch(ptx, "row_sum", 1, 128, [x, out, 1.5, None, None], shared=16)
    assert a.value.param == "row_sum_param_2" and "a float given" in a.value.why
    # An integer too wide for .u32.
    with pytest.raises(ArgumentError) as a:
        launch(ptx, "row_sum", 1, 128, [x, out, 1 << 32, None, None], shared=16)
    assert a.value.param == "row_sum_param_2" and "outside" in a.value.why
    # A scalar where the pointer goes.
    with pytest.raises(ArgumentError) as a:
        launch(ptx, "row_sum", 1, 128, [7, out, 1, None, None], shared=16)
    assert a.value.param == "row_sum_param_0" and "pass a buffer" in a.value.why
    # Too many threads.
    with pytest.raises(LaunchError) as la:
        launch(ptx, "row_sum", 1, 2048, [x, out, 1000, None, None], shared=16)
    assert la.value.field == "block"
    # A step limit.
    with pytest.raises(StepLimitError) as s:
        launch(ptx, "row_sum", 1, 128, [x, out, 1000, None, None], shared=16, max_steps=10)
    assert s.value.limit == 10
    # Aliased arrays are refused (each argument is its own buffer).
    with pytest.raises(ArgumentError):
        launch(ptx, "row_sum", 1, 128, [x, x[:4], 1000, None, None], shared=16)
    # An instruction not modelled: by name and line.
    bad = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<2>;\nex2.approx.f32 %r1, %r1;\nret;\n}\n"
    with pytest.raises(UnsupportedError) as u:
        launch(bad, "k", 1, 32, [])
    assert u.value.line == 7 and u.value.what.startswith("ex2")
    assert isinstance(u.value, RunError) and isinstance(u.value, tcgen05.run.RunError)


def test_tensor_maps_are_checked_with_the_drivers_rules() -> None:
    a = np.zeros((128, 96), dtype=np.float16)
    with pytest.raises(TensorMapError) as e:
        TensorMap(a, box=(64, 4))  # 4 x 2 bytes: not a multiple of 16 bytes
    assert e.value.field == "boxDim[0]" and e.value.value == "4"
    assert "multiple of 16 bytes" in e.value.why and "CUDA driver API 6.30" in e.value.why
    with pytest.raises(TensorMapError) as e:
        TensorMap(a, box=(300, 64), swizzle="64B", element_strides=(1, 9))
    fields = [p[0] for p in e.value.problems]
    # Every problem, in the driver's order (innermost first): the box's outer dimension, its
    # inner extent beyond the swizzle, the outer element stride.
    assert fields == ["boxDim[1]", "boxDim[0]", "elementStrides[0]"], e.value.problems
    with pytest.raises(TensorMapError) as e:
        TensorMap(a, box=(64, 32), swizzle="16B")
    assert e.value.field == "swizzle" and e.value.value == "16B"
    with pytest.raises(TensorMapError) as e:
        TensorMap(a, box=(64, 32), oob_fill="nan")
    assert "not modelled" in e.value.why
    # A view larger than the array.
    with pytest.raises(TensorMapError) as e:
        TensorMap(a, box=(64, 32), shape=(256, 96))
    assert "its array holds" in e.value.why
    with pytest.raises(ValueError):
        TensorMap(a[:, :64], box=(64, 32))
    assert "boxDim=[32, 64]" in repr(TensorMap(a, box=(64, 32), swizzle="64B"))


def test_refusals_made_in_python_carry_fields_too() -> None:
    ptx = HW / "ptx" / "row_sum.ptx"
    x = np.zeros(1000, dtype=np.float32)
    with pytest.raises(ArgumentError) as a:
        launch(ptx, "row_sum", 1, 128, {"row_sum_param_0": x, "bogus": 1})
    assert a.value.kind == "Argument" and "bogus" in a.value.why and "row_sum_param_1" in a.value.param
    with pytest.raises(LaunchError) as la:
        launch(ptx, "row_sum", (1, -2), 128, [])
    assert la.value.kind == "Launch" and la.value.field == "grid" and la.value.value == "(1, -2)"
    with pytest.raises(TypeError):
        launch(ptx, "row_sum", (1, 2, 3, 4), 128, [])
