"""The PTX builders, check_ptx, numerics, layouts, Tensor Memory maps and the emulator through
Python. The expected side comes from outside the core wherever one exists: the PTX ISA's syntax,
CUTLASS 4.2.0's descriptors and Tensor Memory atoms (conformance/vectors/), MMA-Sim's worked
example, and the H100 and B200 outputs Khattak & Mikaitis measured (../shared/oracles/)."""

from __future__ import annotations

import gzip
import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tcgen05
from tcgen05 import DescriptorError, EmulationError, numerics, ptx, tmem

ROOT = Path(__file__).resolve().parents[3]
VECTORS = ROOT / "conformance" / "vectors"
KHATTAK = ROOT.parent / "shared" / "oracles" / "khattak-mikaitis"


def jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open() as f:
        return [json.loads(line) for line in f]


# --- PTX builders --------------------------------------------------------------------------


def test_ptx_forms_as_the_ptx_isa_writes_them() -> None:
    # PTX ISA 9.7.16.10.9 (tcgen05.mma syntax), 9.7.16.8.3-4, 9.7.16.7.1, 9.7.16.9.2-3, 9.7.16.11.
    assert (
        ptx.mma(cta_group=1, kind="f16", d="%r1", a="%rd1", b="%rd2", idesc=0x08100490,
                enable_input_d="p")
        == "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, 0x08100490, p;"
    )
    assert (
        ptx.mma(cta_group=2, kind="mxf4nvf4", d="%r1", a="%rd1", b="%rd2", idesc="%r5",
                enable_input_d=True, scale_vec="4X", scale_a="%r6", scale_b="%r7",
                collector="a::fill", version=88)
        == "tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X"
        ".collector::a::fill [%r1], %rd1, %rd2, %r5, [%r6], [%r7], 1;"
    )
    assert (
        ptx.ld(shape="32x32b", num="x2", dst=["%r1", "%r2"], taddr="%r0")
        == "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1,%r2}, [%r0];"
    )
    assert (
        ptx.st(shape="16x64b", num="x1", src=["%r1"], taddr="%r0")
        == "tcgen05.st.sync.aligned.16x64b.x1.b32 [%r0], {%r1};"
    )
    assert ptx.cp(cta_group=1, shape="128x256b", taddr="%r0", sdesc="%rd1") == (
        "tcgen05.cp.cta_group::1.128x256b [%r0], %rd1;"
    )
    assert ptx.shift(cta_group=1, taddr="%r0") == "tcgen05.shift.cta_group::1.down [%r0];"
    assert ptx.alloc(cta_group=1, dst="%rd3", n_cols=64) == (
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%rd3], 64;"
    )
    assert ptx.dealloc(cta_group=1, taddr="%r3", n_cols=64) == (
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 64;"
    )
    assert ptx.relinquish_alloc_permit(cta_group=2) == (
        "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;"
    )
    assert ptx.commit(cta_group=1, mbar="%rd4") == (
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd4];"
    )
    assert ptx.fence("before_thread_sync") == "tcgen05.fence::before_thread_sync;"
    assert ptx.wait("st") == "tcgen05.wait::st.sync.aligned;"
    assert ptx.preamble(target="sm_100a").splitlines()[:2] == [".version 8.6", ".target sm_100a"]
    rust = ptx.mma(cta_group=1, kind="f16", d="d", a="a", b="b", idesc=0x08100490,
                   enable_input_d="p", syntax="rust_asm")
    assert rust == "tcgen05.mma.cta_group::1.kind::f16 [d], a, b, 0x08100490, p;"


def test_ptx_every_problem_at_once_and_wrong_types() -> None:
    with pytest.raises(DescriptorError) as e:
        ptx.mma(cta_group=3, kind="f17", d="%r1", a="%rd1", b="%rd2", idesc=0,
                enable_input_d=True)
    assert [p.field for p in e.value.problems] == ["cta_group", "kind"]
    assert e.value.problems[1].value == "f17"
    with pytest.raises(DescriptorError) as e:
        ptx.mma(cta_group=1, kind="f16", d="%r1", a="%rd1", b="%rd2", idesc=0xFFFFFFFF,
                enable_input_d=True)
    fields = {p.field for p in e.value.problems}
    assert {"bit 6", "bit 23", "d_type", "a_type", "b_type"} <= fields
    with pytest.raises(DescriptorError) as e:
        ptx.alloc(cta_group=1, dst="%rd3", n_cols=48)
    assert e.value.problems[0].field == "n_cols" and "power of two" in e.value.problems[0].message
    with pytest.raises(DescriptorError) as e:
        ptx.mma(cta_group=1, kind="mxf4nvf4", d="%r1", a="%rd1", b="%rd2", idesc="%r5",
                enable_input_d=True, scale_vec="4X", scale_a="%r6", scale_b="%r7")
    assert e.value.problems[0].field == "version"  # 8.6 has no kind::mxf4nvf4
    with pytest.raises(TypeError):
        ptx.ld(shape="32x32b", num="x2", dst="%r1", taddr="%r0")
    with pytest.raises(TypeError):
        ptx.mma(cta_group=1, kind="f16", d="%r1", a="%rd1", b="%rd2", idesc=1.5,  # type: ignore[arg-type]
                enable_input_d=True)
    with pytest.raises(DescriptorError):
        ptx.mma(cta_group=1, kind="f16", d="%r1", a="%rd1", b="%rd2", idesc=-1,
                enable_input_d=True)


# --- check_ptx -----------------------------------------------------------------------------

MODULE = """.version 8.6
.target sm_100a
.address_size 64
.visible .entry k()
{
{mma}
}
"""


def test_check_ptx_finds_each_error_at_its_line() -> None:
    good = ptx.mma(cta_group=1, kind="f16", d="%r1", a="%rd1", b="%rd2", idesc=0x08100490,
                   enable_input_d="p")
    rep = tcgen05.check_ptx(MODULE.replace("{mma}", good))
    assert rep.ok and rep.errors == 0 and rep.target == "sm_100a"
    assert len(rep.instructions) == 1
    i = rep.instructions[0]
    assert (i.line, i.kind, i.idesc) == (6, "f16", 0x08100490)
    # M = 48 is not an M of Table 39: bits 24-28 hold M >> 4.
    bad = good.replace("0x08100490", f"{(0x08100490 & ~(0x1F << 24)) | (3 << 24):#010x}")
    rep = tcgen05.check_ptx((MODULE.replace("{mma}", good + "\n" + bad)).encode())
    assert not rep.ok and rep.errors >= 1
    assert [x.line for x in rep.instructions] == [6, 7]
    assert rep.instructions[0].findings == []
    err = rep.instructions[1].errors[0]
    assert (err.field, err.line, err.severity) == ("m", 7, "error")
    # A target override replaces the module's .target; a target without tcgen05 is refused.
    rep = tcgen05.check_ptx(MODULE.replace("{mma}", good), target="sm_103a")
    assert rep.target == "sm_103a" and rep.instructions[0].errors[0].field == "version"
    rep = tcgen05.check_ptx(MODULE.replace("{mma}", good).replace("8.6", "8.8"), target="sm_103a")
    assert rep.target == "sm_103a" and rep.ok
    with pytest.raises(DescriptorError):
        tcgen05.check_ptx(MODULE, target="sm_90a")
    rep = tcgen05.check_ptx(MODULE.replace("{mma}", good).replace("sm_100a", "sm_90a"))
    assert rep.target is None and rep.errors >= 1
    unreadable = tcgen05.check_ptx(b"\x00\xff\xfe" * 100)
    assert not unreadable.ok and unreadable.statements == 0 and unreadable.read_problems
    with pytest.raises(TypeError):
        tcgen05.check_ptx(42)  # type: ignore[arg-type]
    with pytest.raises(DescriptorError):
        tcgen05.check_ptx("", target="sm_42")


# --- numerics ------------------------------------------------------------------------------


def test_numerics_mmasim_worked_example() -> None:
    # MMA-Sim (arXiv 2511.10909): a = [-2^13, -0.5, -0.25, -0.125], b = [2^10, 1, 1, 1],
    # C = 2^23: -0.75 on Hopper f16, 0.0 on Hopper e5m2, -0.75 on Blackwell e5m2, exact -0.875.
    a = [-(2.0**13), -0.5, -0.25, -0.125]
    b = [2.0**10, 1.0, 1.0, 1.0]
    h16 = numerics.dot(arch="sm_90a", kind="f16", a_type="f16", b_type="f16",
                       a=a + [0.0] * 12, b=b + [0.0] * 12, c=2.0**23)
    h8 = numerics.dot(arch="sm_90a", kind="f8f6f4", a_type="e5m2", b_type="e5m2",
                      a=a + [0.0] * 28, b=b + [0.0] * 28, c=2.0**23)
    b8 = numerics.dot(arch="sm_100a", kind="f8f6f4", a_type="e5m2", b_type="e5m2",
                      a=a + [0.0] * 28, b=b + [0.0] * 28, c=2.0**23)
    assert (h16.d, h8.d, b8.d) == (-0.75, 0.0, -0.75)
    assert h16.exact == "-0.875" and h16.e_max == 23 and h16.d_bits == 0xBF400000
    assert h8.f == 13 and b8.f == 25 and h16.algorithm == "T-FDPA"
    assert h16.terms[-1].term == "c" and len(h16.terms) == 17
    assert h16.evidence


def _f32(word: str) -> float:
    return float(struct.unpack("<f", struct.pack("<I", int(word, 16)))[0])


def _lines(path: Path) -> list[str]:
    with gzip.open(path, "rt") as f:
        return f.read().splitlines()


KHATTAK_CASES = [
    # (GPU, format, kind, type, D, arch, instruction)
    (gpu, fmt, kind, ty, dout, arch,
     "wgmma" if gpu == "H100" and kind == "f8f6f4" and dout == "fp32" else "mma.sync")
    for gpu, arch in (("H100", "sm_90a"), ("B200", "sm_100a"))
    for fmt, kind, ty, douts in (
        ("fp16", "f16", "f16", ("fp32", "fp16")),
        ("bf16", "f16", "bf16", ("fp32",)),
        ("tf32", "tf32", "tf32", ("fp32",)),
        ("E4M3", "f8f6f4", "e4m3", ("fp32", "fp16")),
        ("E5M2", "f8f6f4", "e5m2", ("fp32", "fp16")),
    )
    for dout in douts
]


@pytest.mark.parametrize("case", KHATTAK_CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[4]}")
def test_numerics_reproduces_khattak_mikaitis_hardware_outputs(case: tuple[str, ...]) -> None:
    """Every published H100 / B200 output (5,000 per file, 16 files) through tcgen05.numerics:
    values given as Python floats (each exactly representable in its format), D compared by
    bits. One file goes through numerics.mma (whole MMAs, the fast path) as well."""
    gpu, fmt, kind, ty, dout, arch, inst = case
    d_type = "f32" if dout == "fp32" else "f16"
    d = KHATTAK / gpu / fmt
    a, b = _lines(d / f"a_{gpu}_{fmt}.txt.gz"), _lines(d / f"b_{gpu}_{fmt}.txt.gz")
    c, want = _lines(d / f"c_{gpu}_fp32.txt.gz"), _lines(d / f"d_{gpu}_{dout}.txt.gz")
    k = numerics.form(arch=arch, kind=kind, a_type=ty, b_type=ty, d_type=d_type,
                      instruction=inst).k
    wgmma_c0 = inst == "wgmma"
    mismatches = 0
    for i in range(5000):
        av = [_f32(w) for w in a[i].split()]
        bv = [_f32(w) for w in b[i].split()]
        av += [0.0] * (k - len(av))
        bv += [0.0] * (k - len(bv))
        c32 = float(np.uint32(int(c[i], 2)).view(np.float32))
        cc = 0.0 if wgmma_c0 else (float(np.float16(c32)) if d_type == "f16" else c32)
        r = numerics.dot(arch=arch, kind=kind, a_type=ty, b_type=ty, d_type=d_type,
                         instruction=inst, a=av, b=bv, c=cc)
        w32 = int(want[i], 2)
        expect = (
            int(np.float16(np.uint32(w32).view(np.float32)).view(np.uint16))
            if d_type == "f16" else w32
        )
        mismatches += r.d_bits != expect
    assert mismatches == 0
    if (gpu, fmt, dout) == ("H100", "E4M3", "fp32") or (gpu, fmt, dout) == ("B200", "bf16", "fp32"):
        # Whole MMAs on codes: 50 blocks of 100 rows, the diagonal of each D is the file.
        bits_a = np.array([[int(w, 16) for w in line.split()] for line in a], dtype=np.uint32)
        bits_b = np.array([[int(w, 16) for w in line.split()] for line in b], dtype=np.uint32)
        # FP32 bit patterns to the format's codes, through numerics.encode.
        enc = np.vectorize(lambda w: numerics.encode(ty, float(np.uint32(w).view(np.float32))))
        ca, cb = enc(bits_a).astype(np.uint32), enc(bits_b).astype(np.uint32)
        cs = np.array([int(x, 2) for x in c], dtype=np.uint32)
        got: list[int] = []
        for s in range(0, 5000, 100):
            dm = numerics.mma(arch=arch, kind=kind, a_type=ty, b_type=ty, d_type=d_type,
                              instruction=inst, a=ca[s:s + 100], b=cb[s:s + 100],
                              c=None if wgmma_c0 else np.repeat(cs[s:s + 100, None], 100, axis=1))
            got.extend(int(x) for x in np.diagonal(dm))
        assert got == [int(w, 2) for w in want]


def test_numerics_mma_equals_dot_on_random_codes() -> None:
    rng = np.random.default_rng(7)
    for kind, ty, arch, d_type, scale in (
        ("f16", "bf16", "sm_100a", "f32", None),
        ("f16", "f16", "sm_90a", "f16", None),
        ("i8", "s8", "sm_100a", "s32", None),
        ("mxf8f6f4", "e4m3", "sm_100a", "f32", "ue8m0"),
    ):
        fm = numerics.form(arch=arch, kind=kind, a_type=ty, b_type=ty, d_type=d_type,
                           scale_type=scale)
        width = {"bf16": 16, "f16": 16, "s8": 8, "e4m3": 8}[ty]
        a = rng.integers(0, 1 << width, size=(6, fm.k), dtype=np.uint32)
        b = rng.integers(0, 1 << width, size=(5, fm.k), dtype=np.uint32)
        dwidth = 16 if d_type == "f16" else 32
        c = rng.integers(0, 1 << dwidth, size=(6, 5), dtype=np.uint64).astype(np.uint32)
        blocks = fm.k // fm.block if fm.block else 0
        sfa = rng.integers(100, 140, size=(6, blocks), dtype=np.uint32)
        sfb = rng.integers(100, 140, size=(5, blocks), dtype=np.uint32)
        dm = numerics.mma(arch=arch, kind=kind, a_type=ty, b_type=ty, d_type=d_type,
                          scale_type=scale, a=a, b=b, c=c,
                          sfa=sfa if blocks else None, sfb=sfb if blocks else None)
        assert dm.shape == (6, 5) and dm.dtype == np.uint32
        for i in range(6):
            for j in range(5):
                r = numerics.dot(arch=arch, kind=kind, a_type=ty, b_type=ty, d_type=d_type,
                                 scale_type=scale, a=a[i].tolist(), b=b[j].tolist(),
                                 c=int(c[i, j]), sfa=sfa[i].tolist() if blocks else None,
                                 sfb=sfb[j].tolist() if blocks else None, codes=True)
                assert r.d_bits == dm[i, j], (kind, i, j)


def test_numerics_refuses_with_every_problem() -> None:
    with pytest.raises(DescriptorError) as e:
        numerics.dot(arch="sm_100a", kind="f16", a_type="f16", b_type="f16", a=[0.1] * 16,
                     b=[0.0] * 16)
    assert len(e.value.problems) == 16 and e.value.problems[3].field == "a[3]"
    assert "0.0999755859375" in e.value.problems[0].message
    with pytest.raises(DescriptorError) as e:
        numerics.dot(arch="sm_100a", kind="f16", a_type="f16", b_type="f16", a=[0.0] * 4,
                     b=[0.0] * 4)
    assert [p.field for p in e.value.problems] == ["a", "b"]
    with pytest.raises(DescriptorError) as e:
        numerics.dot(arch="sm_80", kind="f17", a_type="q", b_type="f16", a=[], b=[])
    assert [p.field for p in e.value.problems] == ["arch", "kind", "a_type"]
    with pytest.raises(DescriptorError):
        numerics.form(arch="sm_90a", kind="mxf4", a_type="e2m1", b_type="e2m1")
    with pytest.raises(TypeError):
        numerics.dot(arch="sm_100a", kind="f16", a_type="f16", b_type="f16",
                     a=["x"] * 16, b=[0.0] * 16)  # type: ignore[list-item]
    with pytest.raises(TypeError):
        numerics.dot(arch="sm_100a", kind="f16", a_type="f16", b_type="f16",
                     a=[1.0] * 16, b=[0] * 16, codes=True)
    assert numerics.dot(arch="sm_100a", kind="f16", a_type="f16", b_type="f16",
                        a=[float("inf")] + [0.0] * 15, b=[0.0] * 16).special == "inf-times-zero"
    rows = numerics.rows()
    assert len(rows) == len(set(rows)) and {r.instruction for r in rows} == {
        "wgmma", "tcgen05.mma", "mma.sync"}


# --- layouts -------------------------------------------------------------------------------


def test_tile_layout_descriptors_equal_every_cutlass_smem_record() -> None:
    rows = [r for r in jsonl(VECTORS / "cutlass-4.2.0.jsonl") if r.get("desc") == "smem"]
    assert len(rows) == 11265
    tiles: dict[tuple[Any, ...], tcgen05.TileLayout] = {}
    for r in rows:
        key = (r["type"], r["kind"], r["major"], r["swizzle"], r["order"], tuple(r["tile"]),
               r["start"], r["k_per_block"])
        t = tiles.get(key)
        if t is None:
            t = tiles[key] = tcgen05.TileLayout(
                element_type=r["type"], kind=r["kind"], major=r["major"], swizzle=r["swizzle"],
                order=r["order"], mn=r["tile"][0], k=r["tile"][1], start_address=int(r["start"], 16),
                k_per_block=r["k_per_block"],
            )
        assert t.descriptor(r["k_block"]).bits == int(r["hex"], 16), r


def test_layouts_addresses_and_agreement() -> None:
    t = tcgen05.TileLayout(element_type="bf16", major="k", swizzle="128B", mn=128, k=64)
    assert (t.k_blocks, t.k_per_block, t.atom) == (4, 16, (8, 64))
    addr = t.addresses()
    assert addr.shape == (128, 64) and addr.dtype == np.uint32
    # Every element has its own 2 bytes inside the 16 KiB tile; 128B swizzle XORs 16-byte chunks.
    assert len(np.unique(addr)) == 128 * 64 and addr.max() == 128 * 64 * 2 - 2
    assert addr[1, 0] == 128 + 16 and addr[1, 8] == 128
    for kb in range(t.k_blocks):
        ml = t.matrix_layout(kb)
        assert (ml.addresses() == addr[:, kb * 16:(kb + 1) * 16]).all()
        assert ml.check() == [] and ml.check(buffer=(0, 16384)) == []
    ml = t.matrix_layout(1)
    assert ml.address(1, 0) == (int(addr[1, 16]), 0)
    assert ml.elements_at(int(addr[3, 20])) == [(3, 4)]
    outside = ml.check(buffer=(0, 8192))
    assert outside and all(p.is_error for p in outside)
    box = tcgen05.TensorCopyBox("128B", 64, 128, 0)
    assert tcgen05.agreement(ml, [box], k_start=16) == tcgen05.Agreement(True, 2048)
    wrong = tcgen05.agreement(ml, [box], k_start=0)
    assert not wrong.agree and (wrong.mn, wrong.k) == (0, 0) and wrong.found == (0, 16)
    with pytest.raises(DescriptorError) as e:
        tcgen05.agreement(ml, [tcgen05.TensorCopyBox("64B", 64, 128, 0)])
    assert e.value.problems[0].field == "box_inner"
    nibbles = tcgen05.TileLayout(element_type="e2m1", kind="mxf4", major="k", swizzle="128B",
                                 mn=128, k=256)
    assert set(np.unique(nibbles.bit_offsets())) == {0, 4}
    with pytest.raises(DescriptorError) as e:
        tcgen05.TileLayout(element_type="e2m1", major="q", swizzle="256B", mn=128, k=64)
    # e2m1 needs a kind to know its storage (padded or packed).
    assert [p.field for p in e.value.problems] == ["kind", "major", "swizzle"]
    with pytest.raises(TypeError):
        tcgen05.TileLayout(element_type="bf16", major="k", swizzle="128B", mn="128", k=64)  # type: ignore[arg-type]


# --- Tensor Memory maps --------------------------------------------------------------------


def test_ld_st_fragments_equal_every_cutlass_atom() -> None:
    recs = jsonl(VECTORS / "cutlass-4.2.0-tmem.jsonl")
    atoms = [r for r in recs if r.get("kind") == "ldst"]
    maps = {a["atom"]: a["map"] for a in atoms if "map" in a}
    assert len(atoms) == 148
    for a in atoms:
        f = tmem.LdStFragment(a["shape"], f"x{a['num']}", pack=a["pack"])
        assert f.registers == a["registers"], a["atom"]
        theirs = a.get("map") or maps[a["same_map_as"]]
        p = f.pieces()
        ours: list[list[list[int]]] = [[[] for _ in range(f.registers)] for _ in range(32)]
        for row in sorted(p.tolist(), key=lambda r: (r[0], r[1], r[2])):
            thread, reg, _, _, lane, col, lo, hi = row
            ours[thread][reg] += [lane, col, lo, hi - lo + 1]
        assert ours == theirs, a["atom"]
    f = tmem.LdStFragment("32x32b", "x2")
    cells = f.cells()
    assert cells.shape == (32, 2, 2) and cells[5].tolist() == [[5, 0], [5, 1]]
    assert f.owners()[5].tolist() == [[5, 0], [5, 1]]
    with pytest.raises(DescriptorError):
        tmem.LdStFragment("32x32b", "x256")
    with pytest.raises(DescriptorError):
        tmem.LdStFragment("31x256b", "x1")


def test_d_fragments_equal_cutlass() -> None:
    # The sparse 2-SM atoms' records are a documented departure (conformance/DIFFERENCES.md:
    # CUTLASS maps them as the dense layout B), checked by the Rust test, not here.
    recs = [r for r in jsonl(VECTORS / "cutlass-4.2.0-tmem.jsonl")
            if r.get("kind") == "frg" and r.get("role") == "d" and not r.get("sparse")]
    assert len(recs) == 13
    for r in recs:
        m, two, ws = r["m_mma"], r["cta_group"] == 2, bool(r.get("ws"))
        # CUTLASS's fragment is one CTA's rows; layout B/A are the pair's M = 128 / 256.
        d = tmem.d_layout(m * 2 if two else m, r["n"], cta_group=2 if two else 1, ws=ws)
        for e in r["entries"]:
            cell = d.cells[e[0], e[1]]
            assert (int(cell["cta"]), int(cell["lane"]), int(cell["column"])) == (0, e[2], e[3])


def test_data_path_maps_and_their_errors() -> None:
    d = tmem.d_layout(128, 64)
    assert d.layout == "D" and d.cells.shape == (128, 64)
    assert (d.cells["lane"][:, 0] == np.arange(128)).all()
    assert (d.cells["column"][0] == np.arange(64)).all()
    a = tmem.a_layout(128, 16, 16)
    assert a.layout == "D" and a.cells.shape == (128, 16)
    assert (int(a.cells[3, 3]["column"]), int(a.cells[3, 3]["bit_lo"])) == (1, 16)
    sf = tmem.sf_layout("a", 128, 64, "4X")
    assert sf.cells.shape == (128, 4) and sf.cells["byte"][5].tolist() == [0, 1, 2, 3]
    with pytest.raises(DescriptorError) as e:
        tmem.d_layout(128, 8, ws=True)
    assert e.value.problems[0].field == "n"
    with pytest.raises(DescriptorError):
        tmem.a_layout(128, 4_000_000, 16)
    with pytest.raises(DescriptorError):
        tmem.a_layout(64, 32, 4)
    with pytest.raises(DescriptorError):
        tmem.sf_layout("c", 128, 64, "8X")


# --- the functional model ------------------------------------------------------------------


def test_emulator_mma_from_tile_layouts_equals_numerics_mma() -> None:
    """A and B written where TileLayout puts each element, the MMA run through descriptors
    from TileLayout, D read back from Tensor Memory: equal to numerics.mma on the same codes,
    and within the f32 rounding of float64 numpy."""
    rng = np.random.default_rng(3)
    m, n, k = 128, 64, 16
    a = rng.standard_normal((m, k)).astype(np.float32).view(np.uint32) >> 16  # bf16 codes
    b = rng.standard_normal((n, k)).astype(np.float32).view(np.uint32) >> 16
    ta = tcgen05.TileLayout(element_type="bf16", major="k", swizzle="128B", mn=m, k=64,
                            start_address=0x0)
    tb = tcgen05.TileLayout(element_type="bf16", major="k", swizzle="128B", mn=n, k=64,
                            start_address=0x8000)
    emu = tcgen05.Emulator()
    for t, x in ((ta, a), (tb, b)):
        full = np.zeros((t.shape[0], 64), dtype=np.uint16)
        full[:, :k] = x
        image = np.zeros(t.shape[0] * 64 * 2, dtype=np.uint8)
        addr = t.addresses() - int(t.addresses().min())
        image.view(np.uint16)[(addr // 2).ravel()] = full.ravel()
        emu.write_smem(int(t.addresses().min()), image)
    idesc = tcgen05.InstructionDescriptor(kind="f16", d_type="f32", a_type="bf16",
                                          b_type="bf16", m=m, n=n)
    # The emulator runs lines with immediate operands, as a kernel's registers would hold them.
    line = (f"tcgen05.mma.cta_group::1.kind::f16 [0], {ta.descriptor(0).bits:#x}, "
            f"{tb.descriptor(0).bits:#x}, {idesc.bits:#010x}, 0;")
    out = emu.execute(line)
    assert "128x64x16" in out.effect and out.warnings == []
    d = emu.last_d()
    assert d is not None and d.shape == (m, n) and d.dtype == np.float32
    want = numerics.mma(arch="sm_100a", kind="f16", a_type="bf16", b_type="bf16", a=a, b=b)
    assert (d.view(np.uint32) == want).all()
    exact = (a << 16).view(np.float32).astype(np.float64) @ (b << 16).view(np.float32).astype(np.float64).T
    assert np.allclose(d, exact, rtol=1e-5, atol=1e-5)
    ref = emu.reference_error()
    assert ref is not None and ref.compared == m * n
    tm = emu.tmem()
    assert (tm[:, :n].view(np.float32) == d).all() and emu.tmem_written()[:, :n].all()


def test_emulator_errors_change_nothing() -> None:
    emu = tcgen05.Emulator()
    line = ("tcgen05.mma.cta_group::1.kind::f16 [0], 0x4000404000010040, 0x4000404000010840, "
            "0x08100490, 0;")
    with pytest.raises(EmulationError) as e:
        emu.execute(line)
    assert isinstance(e.value, DescriptorError) and e.value.line == 0
    assert [p.field for p in e.value.problems] == ["a", "b"]
    assert not emu.tmem_written().any() and emu.last_d() is None
    with pytest.raises(EmulationError) as e:
        emu.run("tcgen05.fence::before_thread_sync;\n// a comment\n" + line)
    assert e.value.line == 3
    seeded = tcgen05.Emulator(random_inputs=1)
    seeded.run("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x100], 64;\n" + line)
    assert seeded.allocations() == [(0, 64)]
    assert seeded.read_smem(0x100, 4) == b"\x00\x00\x00\x00"
    again = tcgen05.Emulator(random_inputs=1)
    again.run("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x100], 64;\n" + line)
    got, same = seeded.last_d(), again.last_d()
    assert got is not None and same is not None
    assert (got.view(np.uint32) == same.view(np.uint32)).all()
    seeded.run("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1,%r2}, [0];")
    regs = seeded.registers(0)
    assert got.view(np.uint32)[5, 1] == regs["%r2"][5]
    with pytest.raises(EmulationError):
        seeded.execute("tcgen05.dealloc.cta_group::1.sync.aligned.b32 0, 128;")
    with pytest.raises(ValueError):
        emu.write_smem(0, b"\x00", cta=2)
    with pytest.raises(EmulationError):
        emu.write_smem(0x40000, b"\x00" * 16)
    with pytest.raises(TypeError):
        emu.write_tmem(0, 0, np.zeros((2, 2), dtype=np.uint8))
    emu.write_tmem(0, 0, np.ones((2, 3), dtype=np.float32))
    assert emu.tmem()[1, 2] == 0x3F800000 and emu.tmem_written().sum() == 6


def test_tensor_memory_pictures() -> None:
    svg = tmem.LdStFragment("32x32b", "x2").svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>\n")
    # Every cell of .32x32b.x2 names its thread (T0..T31, two cells each) and register.
    for t in (0, 17, 31):
        assert svg.count(f">T{t}<") == 2
    assert svg.count(">r1<") == 32
    assert tmem.LdStFragment("32x32b", "x2")._repr_svg_() == svg
    assert tmem.svg_ld("32x32b", "x2") == svg
    assert tmem.svg_d(128, 64).startswith("<svg")
    assert tmem.svg_cp("32x128b", multicast="warpx4").startswith("<svg")
    with pytest.raises(DescriptorError):
        tmem.svg_d(128, 8, ws=True)
    with pytest.raises(DescriptorError):
        tmem.svg_cp("7x7b")
    # The scale-factor picture has one header per byte of each column the core's map uses.
    sf = tmem.sf_layout("b", 128, 256, "2X", sf_id=2)
    svg_sf = tmem.svg_sf("b", 128, 256, "2X", sf_id=2)
    assert svg_sf.startswith("<svg") and "scale_B" in svg_sf
    for c in range(sf.columns):
        for b in range(4):
            assert f">c{c}.b{b}<" in svg_sf
    assert f">c{sf.columns}.b0<" not in svg_sf
    with pytest.raises(DescriptorError):
        tmem.svg_sf("c", 128, 256, "2X")


def test_shared_memory_pictures() -> None:
    # 128B swizzle (PTX ISA 9.7.16.3.3): chunk c of row r of a bf16 K-major tile sits at chunk
    # position c ^ r of line r, so the cell at 0x80 + 16 * (0 ^ 1) holds m1 k0-7.
    t = tcgen05.TileLayout(element_type="bf16", major="k", swizzle="128B", mn=8, k=64)
    svg = t.svg()
    assert svg.startswith("<svg") and t._repr_svg_() == svg
    for r in range(8):
        for c in range(8):
            assert f"<title>{r * 128 + 16 * (c ^ r):#x}: m{r} k{8 * c}-{8 * c + 7}</title>" in svg
    assert svg.count("<rect x=") == 64 and "#d00" not in svg
    assert ">n1 k0-7<" in t.svg(operand="b")
    with pytest.raises(DescriptorError):
        t.svg(operand="c")
    # The descriptor's own picture equals the tile's, chunk for chunk.
    m = t.matrix_layout()
    msvg = m.svg()
    for r in range(8):
        assert f"<title>{r * 128 + 16 * (0 ^ r):#x}: m{r} k0-7</title>" in msvg
    assert "#d00" not in msvg
    # Reading outside a too-small buffer outlines the chunks beyond it in red.
    assert "#d00" in m.svg(buffer=(0, 512))


def test_readme_sessions_are_what_the_package_prints() -> None:
    """Every `>>>` session of the repository README and of the package README, run as a doctest
    (code fences become blank lines, so that a fence does not read as expected output)."""
    import doctest

    for path in (ROOT / "README.md", ROOT / "crates" / "tcgen05-py" / "README.md"):
        text = "\n".join(
            "" if line.lstrip().startswith("```") else line
            for line in path.read_text().splitlines()
        )
        test = doctest.DocTestParser().get_doctest(text, {}, str(path), str(path), 0)
        assert test.examples, f"{path}: no Python session"
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        result = runner.summarize(verbose=False)
        assert result.failed == 0, f"{path}: {result.failed} of {result.attempted} examples differ"
