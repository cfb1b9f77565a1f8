"""tcgen05.scales against PyTorch's documented ``to_blocked`` (written here with NumPy from its
tensor operations, torch/testing/_internal/common_quantized.py, and the committed vectors of
conformance/scales/gen_torch_to_blocked.py), round trips, padding, the chain check with the
flashinfer#4087 and sglang#23625 mistakes, and the errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tcgen05
from tcgen05 import scales

VECTORS = Path(__file__).resolve().parents[3] / "conformance" / "vectors" / "pytorch-to-blocked.jsonl"


def torch_to_blocked(m: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """PyTorch's to_blocked, its operations one for one in NumPy."""
    rows, cols = m.shape
    nr, nc = -(-rows // 128), -(-cols // 4)
    padded = np.zeros((nr * 128, nc * 4), dtype=m.dtype)
    padded[:rows, :cols] = m
    blocks = padded.reshape(nr, 128, nc, 4).transpose(0, 2, 1, 3)
    return blocks.reshape(-1, 4, 32, 4).transpose(0, 2, 1, 3).reshape(-1, 32, 16).reshape(-1)


@pytest.mark.parametrize("shape", [(128, 4), (1, 1), (100, 3), (129, 5), (300, 6), (256, 8), (7, 33)])
def test_to_blocked_equals_pytorch_formula(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(28)
    m = rng.integers(1, 255, size=shape, dtype=np.uint8)
    got = scales.to_blocked(m)
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, torch_to_blocked(m))
    np.testing.assert_array_equal(scales.from_blocked(got, *shape), m)


def test_to_blocked_matches_committed_vectors() -> None:
    n = 0
    for line in VECTORS.read_text().splitlines():
        rec = json.loads(line)
        if rec["kind"] != "to_blocked":
            continue
        rows, kb = rec["rows"], rec["k_blocks"]
        m = (np.arange(rows * kb, dtype=np.int64) + 1).reshape(rows, kb)
        got = scales.to_blocked(m)
        assert got.size == rec["bytes"]
        np.testing.assert_array_equal(got[rec["offsets"]], m.reshape(-1))
        assert not got[rec["padding"]].any()
        n += 1
    assert n == 9


def test_batches_and_other_layouts_round_trip() -> None:
    rng = np.random.default_rng(3)
    m = rng.random((3, 130, 5)).astype(np.float32)
    b = scales.to_blocked(m)
    assert b.shape == (3, 256 * 8)
    np.testing.assert_array_equal(scales.from_blocked(b, 130, 5, batches=3), m)
    flat = scales.convert(m, "k-major", "mn-major", 130, 5, batches=3)
    np.testing.assert_array_equal(flat.reshape(3, 5, 130), m.transpose(0, 2, 1))
    back = scales.convert(scales.convert(m, "k-major", "blocked-twice", 130, 5, batches=3), "blocked-twice", "k-major", 130, 5, batches=3)
    np.testing.assert_array_equal(back.reshape(m.shape), m)


def test_check_chain_agrees_for_blocked_and_names_the_mistakes() -> None:
    ok = scales.check_chain("blocked")
    assert ok.agree and ok.reads == 2048
    fi = scales.check_chain("k-major")  # flashinfer#4087
    assert not fi.agree
    assert (fi.mma, fi.row, fi.k_block, fi.intended) == (0, 1, 0, (1, 0))
    assert (fi.tmem, fi.smem, fi.global_byte, fi.element) == ((0, 1, 0, 0), 0x8010, 16, (4, 0))
    sg = scales.check_chain("blocked-twice")  # sglang#23625, as modelled
    assert (sg.row, sg.global_byte, sg.element) == (1, 16, (32, 0))
    cp = scales.check_chain("blocked", cp="128x128b")
    assert (cp.row, cp.tmem, cp.global_byte) == (0, (0, 32, 0, 0), None)


def test_bad_arguments_raise_descriptor_errors() -> None:
    with pytest.raises(tcgen05.DescriptorError, match="ue5m3"):
        scales.offsets("blocked", 4, 1, format="ue5m3")
    with pytest.raises(tcgen05.DescriptorError, match="vec"):
        scales.offsets("blocked", 4, 1, format="ue4m3", vec=32)
    with pytest.raises(tcgen05.DescriptorError, match="layout"):
        scales.offsets("swizzled", 4, 1)
    with pytest.raises(tcgen05.DescriptorError, match="rows"):
        scales.offsets("blocked", 0, 1)
    with pytest.raises(ValueError, match="elements"):
        scales.from_blocked(np.zeros(100, dtype=np.uint8), 100, 3)


def test_svg_pictures() -> None:
    # Byte 16 of a blocked tile holds row 1, K block 0; row-major scales read as blocked are
    # right only for rows 0 and 127 (126 rows x 4 K blocks red, see the CLI's test).
    assert ">r1<" in scales.svg_layout("blocked", 128, 4)
    assert scales.svg_chain("k-major").count('fill="#e33"') == 504
    assert scales.svg_chain("blocked").count('fill="#e33"') == 0
