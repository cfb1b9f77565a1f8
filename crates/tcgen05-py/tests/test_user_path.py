"""The user's path through the package (issue 26): PTX files by path, NumPy integer scalars where
an int is taken, descriptors compared and hashed by value, float arrays in numerics.mma, and
Emulator.write_smem refusing text. Expected values come from the PTX ISA and IEEE 754, not from
the package."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import tcgen05
from tcgen05 import DescriptorError, numerics

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "examples" / "kernels" / "triton_gemm_bf16.ptx"


def test_check_ptx_reads_a_path() -> None:
    by_text = tcgen05.check_ptx(SAMPLE.read_text())
    # The sample kernel's 17 tcgen05 instructions: `grep -c 'tcgen05\.' ` counts 17 lines.
    n = sum(1 for line in SAMPLE.read_text().splitlines() if "tcgen05." in line)
    assert len(by_text.instructions) == n == 17
    for arg in (str(SAMPLE), SAMPLE, os.path.relpath(SAMPLE)):
        r = tcgen05.check_ptx(arg)
        assert len(r.instructions) == len(by_text.instructions), arg
        assert [i.line for i in r.instructions] == [i.line for i in by_text.instructions]
    with pytest.raises(FileNotFoundError):
        tcgen05.check_ptx("no-such-kernel.ptx")
    with pytest.raises(FileNotFoundError):
        tcgen05.check_ptx(Path("no-such-kernel.ptx"))
    # PTX text is still PTX text.
    one = tcgen05.check_ptx("tcgen05.fence::before_thread_sync;")
    assert len(one.instructions) == 1


def test_numpy_integer_scalars_are_ints() -> None:
    # 0x08100490: kind::f16, D f32, A and B bf16, N = 64, M = 128 (PTX ISA Table 42).
    for raw in (np.uint32(0x08100490), np.int64(0x08100490), np.uint64(0x08100490)):
        d = tcgen05.InstructionDescriptor.decode(raw, kind="f16")
        assert (d.m, d.n, d.bits) == (128, 64, 0x08100490)
    d = tcgen05.InstructionDescriptor(kind="f16", d_type="f32", a_type="bf16", b_type="bf16",
                                      m=np.int32(128), n=np.uint16(64))
    assert d.bits == 0x08100490
    s = tcgen05.SmemDescriptor.decode(np.uint64(0x4000404000010040))
    assert s.start_address == 0x400
    with pytest.raises(TypeError):
        tcgen05.InstructionDescriptor.decode(np.bool_(True), kind="f16")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tcgen05.InstructionDescriptor.decode(np.float64(1.0), kind="f16")  # type: ignore[arg-type]
    # f16 1.0 is the code 0x3C00 (IEEE 754 binary16).
    assert numerics.encode("f16", np.int64(1)) == 0x3C00


def test_descriptors_compare_and_hash_by_value() -> None:
    a = tcgen05.InstructionDescriptor.decode(0x08100490, kind="f16")
    b = tcgen05.InstructionDescriptor.decode(0x08100490, kind="f16")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != tcgen05.InstructionDescriptor.decode(0x08100490, kind="f8f6f4")
    assert a != tcgen05.InstructionDescriptor.decode(0x08200490, kind="f16")
    assert a != 0x08100490
    s1 = tcgen05.SmemDescriptor.decode(0x4000404000010040)
    assert s1 == tcgen05.SmemDescriptor.decode(0x4000404000010040)
    assert hash(s1) == hash(tcgen05.SmemDescriptor.decode(0x4000404000010040))
    assert s1 != tcgen05.SmemDescriptor.decode(0x4000404000010040, target="sm_103a")
    z1 = tcgen05.ZeroColumnMask.decode(0x0203028301020100)
    assert z1 == tcgen05.ZeroColumnMask.decode(0x0203028301020100)
    assert len({z1, tcgen05.ZeroColumnMask.decode(0x0203028301020100)}) == 1


def test_numerics_mma_takes_float_arrays() -> None:
    rng = np.random.default_rng(11)
    # Small integers and halves are exact in bf16 and f32.
    a = rng.integers(-8, 8, size=(4, 16)) / 2.0
    b = rng.integers(-8, 8, size=(3, 16)) / 2.0
    c = rng.integers(-8, 8, size=(4, 3)).astype(np.float64)
    got = numerics.mma(arch="sm_100a", kind="f16", a_type="bf16", b_type="bf16", a=a, b=b, c=c)
    # bf16 is the high half of binary32: the codes are float32 bits >> 16.
    codes = numerics.mma(arch="sm_100a", kind="f16", a_type="bf16", b_type="bf16",
                         a=a.astype(np.float32).view(np.uint32) >> 16,
                         b=b.astype(np.float32).view(np.uint32) >> 16,
                         c=c.astype(np.float32).view(np.uint32))
    assert (got == codes).all()
    # Every product and sum is exact here: D is A @ B^T + C.
    assert (got.view(np.float32) == (a @ b.T + c).astype(np.float32)).all()
    bad = a.copy()
    bad[1, 2] = 0.1
    bad[3, 0] = 1e6
    with pytest.raises(DescriptorError) as e:
        numerics.mma(arch="sm_100a", kind="f16", a_type="bf16", b_type="bf16", a=bad, b=b)
    msg = str(e.value)
    assert "2 element(s)" in msg and "a[1, 2] = 0.1" in msg and "a[3, 0] = 1000000.0" in msg


def test_write_smem_refuses_text() -> None:
    emu = tcgen05.Emulator()
    with pytest.raises(TypeError):
        emu.write_smem(0, "abcd")
    emu.write_smem(0, b"abcd")
    assert emu.read_smem(0, 4) == b"abcd"
