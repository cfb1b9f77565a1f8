"""tcgen05.run.launch(..., approx=...) and tcgen05.triton.run(..., approx=...): the approximate instructions PTX leaves undefined to the bit
(``ex2.approx.ftz.f32``) are refused by name and line without ``approx``, and computed as the
correctly rounded function with it (``tcgen05 run --approx ex2=rn``). The expected words come from
the definition, 2^x rounded to the nearest f32, computed here with 60-digit decimal arithmetic,
not from the interpreter."""

from __future__ import annotations

from decimal import Decimal, getcontext
from typing import Any

import numpy as np
import pytest
import triton  # type: ignore[import-untyped]
import triton.language as tl  # type: ignore[import-untyped]

import tcgen05.triton
from tcgen05.run import LaunchError, UnsupportedError, launch

# out[tid] = ex2.approx.ftz.f32(in[tid]) for 32 threads.
PTX = """.version 8.0
.target sm_90a
.address_size 64
.visible .entry exp2_kernel(.param .u64 exp2_kernel_param_0, .param .u64 exp2_kernel_param_1)
{
.reg .b32 %r<2>;
.reg .f32 %f<3>;
.reg .b64 %rd<6>;
ld.param.u64 %rd1, [exp2_kernel_param_0];
ld.param.u64 %rd2, [exp2_kernel_param_1];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd3, %r1, 4;
add.s64 %rd4, %rd1, %rd3;
add.s64 %rd5, %rd2, %rd3;
ld.global.f32 %f1, [%rd4];
ex2.approx.ftz.f32 %f2, %f1;
st.global.f32 [%rd5], %f2;
ret;
}
"""
EX2_LINE = 16


def exp2_rn(x: np.float32) -> np.float32:
    """2^x rounded to the nearest f32 (ties to even do not occur for these inputs): the candidates
    around the double nearest 2^x, the closest to the 60-digit value."""
    getcontext().prec = 60
    exact = Decimal(2) ** Decimal(float(x))
    guess = np.float32(float(exact))
    cands = [np.nextafter(guess, np.float32(-np.inf)), guess, np.nextafter(guess, np.float32(np.inf))]
    return min(cands, key=lambda c: abs(Decimal(float(c)) - exact))


def inputs() -> np.ndarray[Any, np.dtype[np.float32]]:
    """Integers (exact powers of two), halves and quarters (irrational 2^x), and a few others."""
    xs = [-6, -3, -1, 0, 1, 2, 5, 10, 0.5, -0.5, 1.5, 2.25, -0.25, 0.75, 3.125, -7.375]
    xs += [0.1 * k for k in range(1, 17)]
    return np.array(xs, dtype=np.float32)


def test_ex2_approx_is_refused_without_approx_naming_the_instruction() -> None:
    x = inputs()
    out = np.zeros(32, dtype=np.float32)
    with pytest.raises(UnsupportedError) as u:
        launch(PTX, "exp2_kernel", 1, 32, [x, out])
    assert u.value.line == EX2_LINE
    assert u.value.what.startswith("ex2.approx.ftz.f32"), u.value.what
    assert "--approx ex2=rn" in str(u.value)
    assert not out.any(), "nothing is stored before the refusal"


@pytest.mark.parametrize("approx", ["ex2=rn", {"ex2": "rn"}, "ex2=rn,div=rn"])
def test_ex2_approx_with_approx_is_the_correctly_rounded_power(approx: Any) -> None:
    x = inputs()
    out = np.zeros(32, dtype=np.float32)
    stats = launch(PTX, "exp2_kernel", 1, 32, [x, out], approx=approx)
    assert stats.warp_instructions > 0
    want = np.array([exp2_rn(v) for v in x], dtype=np.float32)
    assert out.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    # The integers are exact powers of two.
    assert out[:8].tolist() == [2.0**-6, 2.0**-3, 0.5, 1.0, 2.0, 4.0, 32.0, 1024.0]


def test_approx_under_the_hazard_checker() -> None:
    x = inputs()
    out = np.zeros(32, dtype=np.float32)
    assert launch(PTX, "exp2_kernel", 1, 32, [x, out], hazards=True, approx="ex2=rn") == []
    assert out.view(np.uint32).tolist() == [int(exp2_rn(v).view(np.uint32)) for v in x]


def test_an_unknown_approximation_is_refused_by_name() -> None:
    x = inputs()
    out = np.zeros(32, dtype=np.float32)
    with pytest.raises(LaunchError) as e:
        launch(PTX, "exp2_kernel", 1, 32, [x, out], approx="ex2=rz")
    assert e.value.field == "approx" and e.value.value == "ex2=rz"
    assert "ex2=rn" in e.value.why
    with pytest.raises(TypeError):
        launch(PTX, "exp2_kernel", 1, 32, [x, out], approx=3)  # type: ignore[call-overload]


@triton.jit  # type: ignore[untyped-decorator]
def exp2_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.math.exp2(tl.load(x_ptr + offs, mask=mask)), mask=mask)


def test_triton_exp2_with_approx() -> None:
    x = inputs()
    out = np.zeros(32, dtype=np.float32)
    with pytest.raises(UnsupportedError) as u:
        tcgen05.triton.run(exp2_kernel, (1,), x, out, 32, BLOCK=32)
    assert u.value.what.startswith("ex2.approx"), u.value.what
    r = tcgen05.triton.run(exp2_kernel, (1,), x, out, 32, BLOCK=32, approx={"ex2": "rn"})
    assert "ex2.approx" in r.ptx
    assert out.view(np.uint32).tolist() == [int(exp2_rn(v).view(np.uint32)) for v in x]
    checked = tcgen05.triton.run(exp2_kernel, (1,), x, out, 32, BLOCK=32, approx="ex2=rn", hazards=True)
    assert checked.hazards == []
