"""tcgen05.run.launch(..., hazards=True) and tcgen05.triton.run(..., hazards=True): the hazard
checker of `tcgen05 run --hazards` from Python. Expected lines are read off the PTX text here: a
clean kernel gives no hazard (and still writes the GPU's bytes); a copy without a publishing
`bar.sync` races across the deleted line; the Blackwell Triton GEMM without its
`tcgen05.wait::ld` reads a loaded register before the wait, at the first later line naming
one, against the ld's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import tcgen05.triton
from tcgen05.run import Hazard, launch
from test_run import gpu, inputs
from test_triton import add_mul_i32

ROOT = Path(__file__).resolve().parents[3]
HW = ROOT / "hw" / "run"
GEMM = ROOT / "examples" / "kernels" / "triton_gemm_bf16.ptx"


def test_clean_row_sum_has_no_hazards_and_writes_the_gpu_bytes() -> None:
    x = inputs(4, 8 * 1000, 110, 30)
    out = np.full(12, np.frombuffer(b"\xab" * 4, np.float32)[0], dtype=np.float32)
    found = launch(HW / "ptx" / "row_sum.ptx", "row_sum", 8, 128, [x, out, 1000, None, None], shared=16,
                   hazards=True, schedules=2)
    assert found == []
    assert out.tobytes() == gpu("row_sum")


def test_deleted_barrier_is_a_data_race_across_its_line() -> None:
    clean = (HW / "ptx" / "row_sum.ptx").read_text().splitlines()
    planted = HW / "race" / "ptx" / "row_sum.ptx"
    changed = [i + 1 for i, (a, b) in enumerate(zip(clean, planted.read_text().splitlines())) if a != b]
    assert len(changed) == 1 and "bar.sync" in clean[changed[0] - 1]
    deleted = changed[0]
    x = np.zeros(8 * 1000, dtype=np.float32)
    out = np.zeros(12, dtype=np.float32)
    found = launch(planted, "row_sum", 8, 128, [x, out, 1000, None, None], shared=16, hazards=True)
    assert found, "no hazard"
    for h in found:
        assert isinstance(h, Hazard)
        assert h.kind == "data-race"
        assert h.other_line is not None and min(h.line, h.other_line) < deleted < max(h.line, h.other_line)
        assert h.thread is not None and h.other_thread is not None and h.address is not None
        assert h.message and h.source.startswith("PTX ISA")


def gemm_args() -> list[object]:
    """As crates/tcgen05-run/tests/planted_tmem.rs launches the GEMM: one 128 x 128 tile, K = 128,
    byte patterns as bf16 inputs (this is about synchronisation, not values)."""
    a = (np.arange(128 * 128 * 2) % 7 + 0x30).astype(np.uint8)
    b = (np.arange(128 * 128 * 2) % 5 + 0x30).astype(np.uint8)
    return [a, b, np.zeros(128 * 128, dtype=np.float32), 128, None, None]


def test_blackwell_gemm_clean_and_without_its_wait_ld_found_at_the_dealloc() -> None:
    text = GEMM.read_text()
    assert launch(text, "dot_kernel", 1, 128, gemm_args(), shared=227 * 1024, hazards=True) == []
    lines = text.splitlines()
    ld = next(i for i, l in enumerate(lines) if l.strip().startswith("tcgen05.ld"))
    wait = next(i for i in range(ld, len(lines)) if lines[i].strip().startswith("tcgen05.wait::ld"))
    regs = [r.strip() for r in lines[ld][lines[ld].index("{") + 1:lines[ld].index("}")].split(",")]

    def names(line: str, r: str) -> bool:
        at = line.find(r)
        while at >= 0:
            after = line[at + len(r):at + len(r) + 1]
            if not (after.isalnum() or after == "_"):
                return True
            at = line.find(r, at + 1)
        return False

    read = next(j for j in range(wait + 1, len(lines)) if any(names(lines[j], r) for r in regs))
    dealloc = next(j for j in range(wait, len(lines)) if "tcgen05.dealloc" in lines[j])
    lines[wait] = ""
    found = launch("\n".join(lines) + "\n", "dot_kernel", 1, 128, gemm_args(), shared=227 * 1024, hazards=True)
    # The register uses are ordered by the register dependency (PTX ISA 9.7.16.6.4.5, rules.md
    # I12); the load's read of Tensor Memory is outstanding when the columns are freed.
    assert all(h.line != read + 1 for h in found), found
    assert [(h.kind, h.line, h.other_line) for h in found] == [("dealloc-in-use", dealloc + 1, ld + 1)]


def test_triton_run_passes_hazards_through() -> None:
    rng = np.random.default_rng(9)
    n = 3000
    x = rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    y = rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    s, p = np.zeros(n, np.int32), np.zeros(n, np.int32)
    r = tcgen05.triton.run(add_mul_i32, (n + 1023) // 1024, x, y, s, p, n, BLOCK=1024, hazards=True, schedules=1)
    assert isinstance(r, tcgen05.triton.Checked)
    assert r.hazards == [] and r.runs == 2 and r.stats is not None and r.stats.ctas == 3
    assert np.array_equal(s, x + y)
    assert r.name in r.ptx


EXPLORE = ROOT / "crates" / "tcgen05-run" / "tests" / "explore"


def test_exhaustive_walk_finds_the_phase_skip_and_its_token_replays() -> None:
    # The consumer's parity-0 wait also matches phase 0: on a schedule where it runs before
    # the producer's second store, its reads of words 2 and 3 race the stores (lines read off
    # the PTX text).
    lines = (EXPLORE / "phase_skip.ptx").read_text().splitlines()
    stores = [i + 1 for i, t in enumerate(lines) if t.strip().startswith("st.shared.u32")]
    loads = [i + 1 for i, t in enumerate(lines) if t.strip().startswith("ld.shared.u32")]
    out = np.zeros(1, np.uint32)
    assert launch(EXPLORE / "phase_skip.ptx", "phase_skip", 1, 64, [out], hazards=True) == []
    w = launch(EXPLORE / "phase_skip.ptx", "phase_skip", 1, 64, [out], hazards=True, exhaustive=1000)
    assert isinstance(w, tcgen05.run.Walk) and w.mode == "exhaustive"
    assert w.replay is not None and not w.exhausted and not w.cut and w.error is None
    assert {(h.kind, h.line, h.other_line) for h in w.hazards} == {
        ("data-race", stores[1], loads[1]), ("data-race", stores[2], loads[2])}
    again = launch(EXPLORE / "phase_skip.ptx", "phase_skip", 1, 64, [out], hazards=True, replay=w.replay)
    assert again.mode == "replay" and again.replay == w.replay and again.hazards == w.hazards
    # Its fix (init count 3) is clean over every schedule; a bound of 2 cuts the walk.
    fixed = launch(EXPLORE / "phase_all.ptx", "phase_all", 1, 64, [out], hazards=True, exhaustive=1000)
    assert fixed.hazards == [] and fixed.replay is None and fixed.exhausted and fixed.schedules_explored > 2
    cut = launch(EXPLORE / "phase_all.ptx", "phase_all", 1, 64, [out], hazards=True, exhaustive=2)
    assert cut.cut and not cut.exhausted and cut.schedules_explored == 2
    for bad in ({"exhaustive": 0}, {"exhaustive": True}, {"replay": 3}, {"exhaustive": 5, "schedules": 2}):
        try:
            launch(EXPLORE / "phase_all.ptx", "phase_all", 1, 64, [out], hazards=True, **bad)
        except TypeError:
            continue
        raise AssertionError(f"{bad} accepted")
    # A walk computes only what the run models exactly: approx= is refused beside it.
    try:
        launch(EXPLORE / "phase_all.ptx", "phase_all", 1, 64, [out], hazards=True, exhaustive=5,  # type: ignore[call-overload]
               approx="ex2=rn")
    except ValueError as e:
        assert "approx=" in str(e) and "exhaustive=" in str(e)
    else:
        raise AssertionError("approx= beside exhaustive= accepted")
