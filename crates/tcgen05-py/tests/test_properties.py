"""Hypothesis properties: round trips through encode and decode, the NumPy batch paths equal to
the scalar paths, and no input of any type or size crossing the FFI boundary as a panic.

Valid inputs are generated from the shapes of Table 39 and then mutated by one bit, so that both
the accepting and the rejecting branch run; the counting test checks each takes a real share.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tcgen05
from tcgen05 import DescriptorError, InstructionDescriptor, SmemDescriptor, ZeroColumnMask

TYPES = {
    "f16": (("f16", "f32"), ("f16", "bf16")),
    "tf32": (("f32",), ("tf32",)),
    "f8f6f4": (("f16", "f32"), ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1")),
    "i8": (("s32",), ("s8", "u8")),
    "mxf8f6f4": (("f32",), ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1")),
    "mxf4": (("f32",), ("e2m1",)),
    "mxf4nvf4": (("f32",), ("e2m1",)),
}
SHAPES = [s for s in tcgen05.shapes() if not s.ws]


@st.composite
def valid_idesc(draw: Any) -> InstructionDescriptor:
    s = draw(st.sampled_from(SHAPES))
    d_types, ab = TYPES[s.kind]
    a = draw(st.sampled_from(ab))
    b = a if s.kind in ("f16",) else draw(st.sampled_from(ab))
    fields: dict[str, Any] = dict(
        kind=s.kind, d_type=draw(st.sampled_from(d_types)), a_type=a, b_type=b, m=s.m, n=s.n,
        sparse=s.sparse, negate_a=draw(st.booleans()), negate_b=draw(st.booleans()),
    )
    if s.kind.startswith("mx"):
        fields["scale_type"] = "ue8m0" if s.kind != "mxf4nvf4" else draw(
            st.sampled_from(["ue8m0", "ue4m3"]))
    try:
        return InstructionDescriptor(**fields)
    except DescriptorError:
        # Some type pairs need more than the shape (f16 D with 8-bit inputs, ...): the core
        # says which; a valid descriptor of the same shape is the base case.
        fields.update(d_type=d_types[-1], a_type=ab[0], b_type=ab[0])
        fields.pop("negate_a"), fields.pop("negate_b")
        return InstructionDescriptor(**fields)


@given(valid_idesc())
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_valid_descriptors_round_trip(d: InstructionDescriptor) -> None:
    assert d.valid
    back = InstructionDescriptor.decode(d.bits, kind=d.kind)
    assert back.valid and back.to_dict() == d.to_dict()
    fields: dict[str, Any] = {k: v for k, v in back.to_dict().items() if v is not None and k != "k"}
    assert InstructionDescriptor(**fields).bits == d.bits
    assert d.kind in tcgen05.valid_kinds(d.bits)


@given(st.integers(0, 2**32 - 1), st.sampled_from(tcgen05.KINDS))
@settings(max_examples=2000)
def test_any_32_bit_value_decodes_and_accepted_ones_reencode(raw: int, kind: str) -> None:
    d = InstructionDescriptor.decode(raw, kind=kind)
    assert d.bits == raw and d.valid == (d.errors == [])
    assert (kind in tcgen05.valid_kinds(raw)) == d.valid
    if d.valid:
        fields: dict[str, Any] = {k: v for k, v in d.to_dict().items() if v is not None and k != "k"}
        assert InstructionDescriptor(**fields).bits == raw


def test_both_branches_take_a_real_share() -> None:
    """Valid descriptors mutated in one bit: some stay valid, most do not; both branches of the
    round-trip property run on hundreds of cases."""
    rng = random.Random(14)
    valid = invalid = 0
    for _ in range(3000):
        s = rng.choice(SHAPES)
        d_types, ab = TYPES[s.kind]
        base = InstructionDescriptor(kind=s.kind, d_type=d_types[-1], a_type=ab[0], b_type=ab[0],
                                     m=s.m, n=s.n, sparse=s.sparse)
        raw = base.bits ^ (1 << rng.randrange(32))
        d = InstructionDescriptor.decode(raw, kind=s.kind)
        if d.valid:
            valid += 1
            fields: dict[str, Any] = {k: v for k, v in d.to_dict().items() if v is not None and k != "k"}
            assert InstructionDescriptor(**fields).bits == raw
        else:
            invalid += 1
            assert d.errors and all(p.source for p in d.errors)
    assert valid >= 300 and invalid >= 300, (valid, invalid)


@given(st.lists(st.integers(0, 2**32 - 1), max_size=300), st.sampled_from(tcgen05.KINDS))
@settings(max_examples=200)
def test_idesc_batch_equals_scalar(raws: list[int], kind: str) -> None:
    batch = tcgen05.decode_idesc(np.array(raws, dtype=np.uint32), kind, threads=2)
    assert batch.shape == (len(raws),)
    for raw, rec in zip(raws, batch):
        d = InstructionDescriptor.decode(raw, kind=kind)
        names = tcgen05.ELEMENT_TYPES
        assert int(rec["bits"]) == raw
        assert bool(rec["valid"]) == d.valid
        assert int(rec["errors"]) == len(d.errors) and int(rec["warnings"]) == len(d.warnings)
        for t in ("d_type", "a_type", "b_type"):
            code = int(rec[t])
            assert (names[code] if code >= 0 else None) == getattr(d, t)
        for f in ("m", "n", "sparsity_selector", "max_shift", "sfa_id", "sfb_id"):
            assert int(rec[f]) == getattr(d, f), f
        for f in ("sparse", "saturate", "negate_a", "negate_b", "transpose_a", "transpose_b", "k96"):
            assert bool(rec[f]) == getattr(d, f), f
        assert int(rec["k"]) == (d.k or 0)
        sc = int(rec["scale_type"])
        assert (tcgen05.SCALE_TYPES[sc] if sc >= 0 else None) == d.scale_type


@given(st.lists(st.integers(0, 2**64 - 1), max_size=300), st.sampled_from(tcgen05.TARGETS))
@settings(max_examples=200)
def test_smem_batch_equals_scalar(raws: list[int], target: str) -> None:
    batch = tcgen05.decode_smem(np.array(raws, dtype=np.uint64), target)
    for raw, rec in zip(raws, batch):
        d = SmemDescriptor.decode(raw, target=target)
        assert int(rec["bits"]) == raw and bool(rec["valid"]) == d.valid
        assert int(rec["errors"]) == len(d.errors) and int(rec["warnings"]) == len(d.warnings)
        for f in ("start_address", "leading_byte_offset", "stride_byte_offset", "base_offset"):
            assert int(rec[f]) == getattr(d, f)
        assert tcgen05.LBO_MODES[int(rec["lbo_mode"])] == d.lbo_mode
        sw = int(rec["swizzle"])
        assert (tcgen05.SWIZZLES[sw] if sw >= 0 else None) == d.swizzle


def test_batch_shapes_dtypes_and_bad_arrays() -> None:
    a = np.arange(12, dtype=np.int64).reshape(3, 4) + 0x08100490
    out = tcgen05.decode_idesc(a, "f16")
    assert out.shape == (3, 4) and out.dtype == tcgen05.IDESC_DTYPE
    assert out[0, 0]["m"] == 128 and bool(out[0, 0]["valid"])
    assert tcgen05.decode_idesc(np.array([], dtype=np.uint32), "f16").shape == (0,)
    out.flags.writeable and out.__setitem__((0, 0), out[0, 1])  # a writable array
    for bad in (np.array([-1]), np.array([1 << 32], dtype=np.uint64)):
        try:
            tcgen05.decode_idesc(bad, "f16")
            raise AssertionError("accepted")
        except DescriptorError as e:
            assert "out of range" in str(e)
    for bad_type in (np.array([1.0]), np.array([True]), ["x"]):
        try:
            tcgen05.decode_idesc(bad_type, "f16")
            raise AssertionError("accepted")
        except TypeError:
            pass
    try:
        tcgen05.decode_idesc(np.array([0], dtype=np.uint32), "f17")
        raise AssertionError("accepted")
    except DescriptorError as e:
        assert e.problems[0].field == "kind"
    try:
        tcgen05.decode_smem(np.array([0], dtype=np.uint64), "sm_90")
        raise AssertionError("accepted")
    except DescriptorError as e:
        assert e.problems[0].field == "target"


ANY = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(2**70), 2**70), st.floats(),
    st.text(max_size=12), st.sampled_from(list(tcgen05.KINDS) + list(tcgen05.ELEMENT_TYPES)),
    st.lists(st.integers(-5, 300), max_size=5), st.binary(max_size=4),
)


def _only_clean_errors(fn: Any, **kwargs: Any) -> None:
    try:
        fn(**kwargs)
    except (DescriptorError, TypeError) as e:
        if isinstance(e, DescriptorError):
            assert e.problems and all(p.field and p.message and p.source for p in e.problems)
    # Anything else, a PanicException (a BaseException) included, fails the test.


@given(st.dictionaries(st.sampled_from(
    ["kind", "d_type", "a_type", "b_type", "m", "n", "sparse", "sparsity_selector", "saturate",
     "negate_a", "max_shift", "scale_type", "sfa_id", "k96"]), ANY))
@settings(max_examples=1500)
def test_idesc_arguments_never_panic(kwargs: dict[str, Any]) -> None:
    base: dict[str, Any] = dict(kind="f16", d_type="f32", a_type="f16", b_type="f16", m=128, n=64)
    _only_clean_errors(InstructionDescriptor, **{**base, **kwargs})
    _only_clean_errors(InstructionDescriptor.decode, raw=kwargs.get("m", 0), kind=kwargs.get("kind", "f16"))
    _only_clean_errors(tcgen05.valid_kinds, raw=kwargs.get("n", 0))
    _only_clean_errors(tcgen05.shapes, kind=kwargs.get("kind"), cta_group=kwargs.get("m"))


@given(st.dictionaries(st.sampled_from(
    ["start_address", "leading_byte_offset", "stride_byte_offset", "swizzle", "base_offset",
     "lbo_mode", "target"]), ANY))
@settings(max_examples=800)
def test_smem_arguments_never_panic(kwargs: dict[str, Any]) -> None:
    base: dict[str, Any] = dict(start_address=0, leading_byte_offset=16, stride_byte_offset=1024,
                                swizzle="128B")
    _only_clean_errors(SmemDescriptor, **{**base, **kwargs})
    _only_clean_errors(SmemDescriptor.decode, raw=kwargs.get("start_address", 0),
                       target=kwargs.get("target"))


@given(st.dictionaries(st.sampled_from(
    ["start_count", "first_span", "non_zero_mask", "skip_span", "use_span", "column_shift", "m",
     "n", "max_shift"]), ANY))
@settings(max_examples=800)
def test_zmask_arguments_never_panic(kwargs: dict[str, Any]) -> None:
    _only_clean_errors(ZeroColumnMask, **kwargs)
    _only_clean_errors(ZeroColumnMask.decode, raw=kwargs.get("skip_span", 0), m=kwargs.get("m"),
                       n=kwargs.get("n"))
    z = ZeroColumnMask.decode(0x0003040000000000)
    _only_clean_errors(z.column_mask, m=kwargs.get("m", 128), n=kwargs.get("n", 64))


@given(st.integers(0, 2**64 - 1))
@settings(max_examples=1000)
def test_zmask_and_smem_decode_any_value(raw: int) -> None:
    z = ZeroColumnMask.decode(raw)
    assert z.bits == raw and z.valid == (z.errors == [])
    if z.valid:
        assert ZeroColumnMask(**z.to_dict()).bits == raw  # type: ignore[arg-type]
    s = SmemDescriptor.decode(raw)
    assert s.bits == raw and s.valid == (s.errors == [])
    if s.valid:
        again = SmemDescriptor(**{**s.to_dict(), "target": s.target})  # type: ignore[arg-type]
        assert again.bits == raw


def _clean(fn: Any, *args: Any, **kwargs: Any) -> None:
    """Like _only_clean_errors, for the entry points whose plain numeric parameters (addresses,
    lanes, counts) PyO3 reads itself: a negative or too large number there is an OverflowError,
    and an out-of-range CTA index a ValueError."""
    try:
        fn(*args, **kwargs)
    except (DescriptorError, TypeError, ValueError, OverflowError) as e:
        if isinstance(e, DescriptorError):
            assert all(p.field and p.message and p.source for p in e.problems)


@given(st.dictionaries(st.sampled_from(
    ["cta_group", "kind", "d", "a", "b", "idesc", "enable_input_d", "a_tmem", "ws",
     "sparse_metadata", "scale_vec", "scale_a", "scale_b", "collector", "ashift",
     "disable_output_lane", "scale_input_d", "zero_column_mask", "target", "version", "syntax",
     "shape", "num", "dst", "src", "taddr", "pack", "offset", "n_cols", "mbar", "multicast"]),
    ANY))
@settings(max_examples=800)
def test_ptx_builders_never_panic(kwargs: dict[str, Any]) -> None:
    from tcgen05 import ptx

    mma: dict[str, Any] = dict(cta_group=1, kind="f16", d="%r1", a="%rd1", b="%rd2",
                               idesc=0x08100490, enable_input_d=True)
    keys = set(mma) | {"a_tmem", "ws", "sparse_metadata", "scale_vec", "scale_a", "scale_b",
                       "collector", "ashift", "disable_output_lane", "scale_input_d",
                       "zero_column_mask", "target", "version", "syntax"}
    _clean(ptx.mma, **{**mma, **{k: v for k, v in kwargs.items() if k in keys}})
    ld: dict[str, Any] = dict(shape="32x32b", num="x1", dst=["%r1"], taddr="%r0")
    keys = set(ld) | {"pack", "offset", "target", "version", "syntax"}
    _clean(ptx.ld, **{**ld, **{k: v for k, v in kwargs.items() if k in keys}})
    _clean(ptx.alloc, cta_group=kwargs.get("cta_group", 1), dst=kwargs.get("dst", "%rd1"),
           n_cols=kwargs.get("n_cols", 32))
    _clean(ptx.commit, cta_group=1, mbar=kwargs.get("mbar", "%rd1"),
           multicast=kwargs.get("multicast"))
    _clean(ptx.fence, kwargs.get("syntax", "before_thread_sync"))
    _clean(ptx.preamble, target=kwargs.get("target"), version=kwargs.get("version"))


@given(st.dictionaries(st.sampled_from(
    ["arch", "kind", "a_type", "b_type", "d_type", "scale_type", "block", "instruction", "a",
     "b", "c", "sfa", "sfb", "codes"]), ANY))
@settings(max_examples=800)
def test_numerics_and_layouts_never_panic(kwargs: dict[str, Any]) -> None:
    from tcgen05 import numerics, tmem

    dot: dict[str, Any] = dict(arch="sm_100a", kind="f16", a_type="f16", b_type="f16",
                               a=[0.0] * 16, b=[1.0] * 16)
    _clean(numerics.dot, **{**dot, **kwargs})
    _clean(numerics.encode, kwargs.get("a_type", "e4m3"), kwargs.get("c", 1.0))
    _clean(numerics.decode, kwargs.get("b_type", "e4m3"), kwargs.get("block", 0x38))
    tile: dict[str, Any] = dict(element_type=kwargs.get("a_type", "bf16"), major="k",
                                swizzle=kwargs.get("scale_type", "128B"),
                                mn=kwargs.get("block", 64), k=kwargs.get("c", 64),
                                kind=kwargs.get("kind"))
    _clean(tcgen05.TileLayout, **tile)
    _clean(tmem.d_layout, kwargs.get("block", 128), kwargs.get("c", 64))
    _clean(tmem.a_layout, kwargs.get("block", 128), kwargs.get("c", 16), kwargs.get("sfa", 16))
    _clean(tmem.LdStFragment, kwargs.get("a_type", "32x32b"), kwargs.get("b_type", "x1"))
    _clean(tmem.sf_layout, kwargs.get("a_type", "a"), 128, 64, kwargs.get("b_type", "1X"))


@given(st.binary(max_size=300), st.text(max_size=200))
@settings(max_examples=600)
def test_check_ptx_and_emulator_take_any_text(raw: bytes, text: str) -> None:
    rep = tcgen05.check_ptx(raw)
    assert rep.errors >= 0
    try:
        tcgen05.check_ptx(text)
    except OSError:
        # A one-line str without `;` names a file (check_ptx's rule: no PTX statement is one).
        assert "\n" not in text and ";" not in text
    emu = tcgen05.Emulator(random_inputs=1)
    for line in (text, "tcgen05." + text, "tcgen05.mma.cta_group::1.kind::f16 " + text):
        _clean(emu.execute, line)
    _clean(emu.run, text)
