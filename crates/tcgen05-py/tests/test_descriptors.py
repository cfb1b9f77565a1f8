"""Every entry point of the descriptor API: values, errors with their content, wrong types."""

from __future__ import annotations

import pytest

import tcgen05
from tcgen05 import DescriptorError, InstructionDescriptor, SmemDescriptor, ZeroColumnMask

F16 = dict(kind="f16", d_type="f32", a_type="bf16", b_type="bf16", m=128, n=64)


def test_decode_0x08100490() -> None:
    d = InstructionDescriptor.decode(0x08100490, kind="f16")
    assert (d.bits, d.kind, d.table) == (0x08100490, "f16", 42)
    assert (d.m, d.n, d.k) == (128, 64, 16)
    assert (d.d_type, d.a_type, d.b_type) == ("f32", "bf16", "bf16")
    assert not (d.sparse or d.saturate or d.negate_a or d.negate_b)
    assert not (d.transpose_a or d.transpose_b or d.k96)
    assert (d.max_shift, d.scale_type, d.sfa_id, d.sfb_id) == (0, None, 0, 0)
    assert d.valid and d.errors == [] and d.warnings == []
    assert int(d) == 0x08100490 and hex(d) == "0x8100490"
    assert repr(d) == (
        "InstructionDescriptor(0x08100490, kind='f16', m=128, n=64, d_type='f32', "
        "a_type='bf16', b_type='bf16')"
    )
    assert tcgen05.valid_kinds(0x08100490) == ["f16", "f8f6f4"]


def test_encode_equals_constructor_and_round_trips() -> None:
    d = InstructionDescriptor(**F16)  # type: ignore[arg-type]
    assert d.bits == 0x08100490
    assert InstructionDescriptor.encode(**F16).bits == d.bits  # type: ignore[arg-type]
    e = InstructionDescriptor(
        kind="mxf4nvf4", d_type="f32", a_type="e2m1", b_type="e2m1", m=128, n=256,
        scale_type="ue4m3", sfa_id=0, sfb_id=0, transpose_b=False,
    )
    back = InstructionDescriptor.decode(e.bits, kind="mxf4nvf4")
    assert back.to_dict() == e.to_dict()
    assert back.scale_type == "ue4m3" and back.table == 44


def test_every_problem_is_listed_with_field_value_message_source() -> None:
    with pytest.raises(DescriptorError) as info:
        InstructionDescriptor(kind="f16", d_type="f32", a_type="bf16", b_type="f16", m=100, n=7)
    err = info.value
    assert isinstance(err, ValueError)
    fields = {p.field for p in err.problems if p.is_error}
    assert {"m", "n"} <= fields, err.problems
    for p in err.problems:
        assert p.message and p.source.startswith(("PTX ISA", "rules.md"))
        assert p.severity in ("error", "warning")
        assert str(p) in str(err) or not p.is_error
    m = next(p for p in err.problems if p.field == "m")
    assert m.value == 100


@pytest.mark.parametrize(
    "field,value",
    [("m", -1), ("m", 1 << 16), ("n", 1 << 80), ("sparsity_selector", 256), ("max_shift", 12)],
)
def test_out_of_range_numbers_are_descriptor_errors(field: str, value: int) -> None:
    with pytest.raises(DescriptorError) as info:
        InstructionDescriptor(**{**F16, field: value})  # type: ignore[arg-type]
    (p,) = [p for p in info.value.problems if p.field == field]
    assert p.is_error and str(value) in p.message and p.source.startswith("PTX ISA")


@pytest.mark.parametrize(
    "field,value",
    [("kind", "f17"), ("d_type", "f64"), ("a_type", "bf8"), ("scale_type", "ue5m2")],
)
def test_unknown_names_are_descriptor_errors(field: str, value: str) -> None:
    with pytest.raises(DescriptorError) as info:
        InstructionDescriptor(**{**F16, field: value})  # type: ignore[arg-type]
    (p,) = info.value.problems
    assert (p.field, p.value) == (field, value) and "expected one of" in p.message


def test_unknown_names_are_all_reported_together() -> None:
    with pytest.raises(DescriptorError) as info:
        InstructionDescriptor(**{**F16, "d_type": "x", "a_type": "y", "m": -5})  # type: ignore[arg-type]
    assert [p.field for p in info.value.problems] == ["d_type", "a_type", "m"]


@pytest.mark.parametrize(
    "field,value",
    [("m", "128"), ("m", True), ("m", 128.0), ("kind", 5), ("sparse", 1), ("d_type", None)],
)
def test_wrong_types_are_type_errors(field: str, value: object) -> None:
    with pytest.raises(TypeError):
        InstructionDescriptor(**{**F16, field: value})  # type: ignore[arg-type]


def test_decode_reports_instead_of_raising() -> None:
    d = InstructionDescriptor.decode(0xFFFFFFFF, kind="f16")
    assert not d.valid and len(d.errors) >= 2
    assert any(p.field.startswith("bit ") for p in d.errors)
    assert "valid=False" in repr(d)
    html = d._repr_html_()
    assert html.startswith("<table>") and "Table 42" in html and "error" in html
    assert len(d.rows()) == len([r for r in d.rows() if r.hi >= r.lo])
    assert sum(r.hi - r.lo + 1 for r in d.rows()) == 32
    with pytest.raises(DescriptorError):
        InstructionDescriptor.decode(1 << 32, kind="f16")
    with pytest.raises(DescriptorError):
        InstructionDescriptor.decode(-1, kind="f16")
    with pytest.raises(TypeError):
        InstructionDescriptor.decode("0x0", kind="f16")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tcgen05.valid_kinds(1.0)  # type: ignore[arg-type]
    with pytest.raises(DescriptorError):
        tcgen05.valid_kinds(1 << 32)


def test_warnings_do_not_raise() -> None:
    # f16 A with bf16 B: legal for the encoder, a warning of the core (mixed f16/bf16).
    d = InstructionDescriptor(**{**F16, "a_type": "f16", "b_type": "bf16"})  # type: ignore[arg-type]
    assert d.valid and d.warnings and all(not p.is_error for p in d.warnings)


SMEM = dict(start_address=0x400, leading_byte_offset=16, stride_byte_offset=1024, swizzle="128B")


def test_smem_descriptor() -> None:
    d = SmemDescriptor(**SMEM)  # type: ignore[arg-type]
    assert d.valid and d.target == "sm_100a"
    back = SmemDescriptor.decode(d.bits)
    assert back.to_dict() == d.to_dict() == {
        "start_address": 0x400, "leading_byte_offset": 16, "stride_byte_offset": 1024,
        "base_offset": 0, "lbo_mode": "relative", "swizzle": "128B",
    }
    assert SmemDescriptor.encode(**SMEM).bits == d.bits  # type: ignore[arg-type]
    assert sum(r.hi - r.lo + 1 for r in d.rows()) == 64
    assert "Table 40" in d._repr_html_()
    assert repr(d).startswith(f"SmemDescriptor(0x{d.bits:016x}")


def test_smem_errors() -> None:
    with pytest.raises(DescriptorError) as info:
        SmemDescriptor(start_address=0x401, leading_byte_offset=1 << 20, stride_byte_offset=-16,
                       swizzle="128B", target="sm_100a")
    fields = [p.field for p in info.value.problems]
    assert "stride_byte_offset" in fields  # negative: found while reading the arguments
    with pytest.raises(DescriptorError) as info:
        SmemDescriptor(start_address=0x401, leading_byte_offset=1 << 20, stride_byte_offset=16,
                       swizzle="128B")
    fields = [p.field for p in info.value.problems]
    assert "start_address" in fields and "leading_byte_offset" in fields
    with pytest.raises(DescriptorError):
        SmemDescriptor(**{**SMEM, "swizzle": "256B"})  # type: ignore[arg-type]
    with pytest.raises(DescriptorError):
        SmemDescriptor(**{**SMEM, "target": "sm_90a"})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SmemDescriptor(**{**SMEM, "swizzle": 128})  # type: ignore[arg-type]
    bad = SmemDescriptor.decode(0xFFFF_FFFF_FFFF_FFFF)
    assert not bad.valid and bad.swizzle is None and len(bad.errors) >= 2


def test_zero_column_mask() -> None:
    z = ZeroColumnMask(skip_span=4, use_span=3)
    assert z.bits == 0x0003040000000000 and z.valid
    assert ZeroColumnMask.decode(z.bits).to_dict() == z.to_dict()
    on = ZeroColumnMask(non_zero_mask=True, skip_span=0, use_span=0, m=128, n=64)
    mask = on.column_mask(128, 64)
    assert len(mask) == 64 and any(mask) and not all(mask)
    assert "Table 45" in on._repr_html_()
    with pytest.raises(DescriptorError) as info:
        ZeroColumnMask(column_shift=40, start_count=[0, 0, 0, 300])
    fields = {p.field for p in info.value.problems}
    assert "start_count_3" in fields
    with pytest.raises(DescriptorError) as info:
        ZeroColumnMask(column_shift=40)
    assert [p.field for p in info.value.problems if p.is_error] == ["column_shift"]
    with pytest.raises(TypeError):
        ZeroColumnMask(start_count=[0, 0, 0])
    with pytest.raises(TypeError):
        ZeroColumnMask(first_span=[0, 0, 0, 0])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        ZeroColumnMask(m=128)
    assert not ZeroColumnMask.decode(1 << 63).valid


def test_shapes() -> None:
    all_shapes = tcgen05.shapes()
    assert all_shapes and len(set(all_shapes)) == len(all_shapes)
    f16 = tcgen05.shapes(kind="f16", cta_group=1, ws=False, sparse=False)
    assert {s.m for s in f16} == {64, 128} and {s.k for s in f16} == {16}
    assert all(s.n % 8 == 0 and 8 <= s.n <= 256 for s in f16)
    # .kind::i8 exists only on sm_100a and sm_110a (rules.md R17; PTX ISA 9.7.16.10.9).
    assert tcgen05.shapes(kind="i8", target="sm_103a") == []
    assert len(tcgen05.shapes(kind="i8", target="sm_110a")) == len(tcgen05.shapes(kind="i8")) > 0
    with pytest.raises(DescriptorError):
        tcgen05.shapes(cta_group=3)
    with pytest.raises(DescriptorError):
        tcgen05.shapes(kind="f64")
    with pytest.raises(TypeError):
        tcgen05.shapes(ws=1)  # type: ignore[arg-type]
    # Every listed dense, non-.ws shape encodes (for its kind's first types) as a valid idesc.
    types = {"f16": ("f32", "f16"), "tf32": ("f32", "tf32"), "f8f6f4": ("f32", "e4m3"),
             "i8": ("s32", "s8"), "mxf8f6f4": ("f32", "e4m3"), "mxf4": ("f32", "e2m1"),
             "mxf4nvf4": ("f32", "e2m1")}
    for s in tcgen05.shapes(ws=False, sparse=False, cta_group=1):
        d_type, ab = types[s.kind]
        d = InstructionDescriptor(kind=s.kind, d_type=d_type, a_type=ab, b_type=ab, m=s.m, n=s.n)
        assert d.valid and d.k == s.k, s


def test_constants() -> None:
    assert tcgen05.KINDS == ("f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4")
    assert "sm_100a" in tcgen05.TARGETS and "128B" in tcgen05.SWIZZLES
    assert tcgen05.SCALE_TYPES == ("ue4m3", "ue8m0") and tcgen05.LBO_MODES == ("relative", "absolute")
    assert isinstance(tcgen05.__version__, str)
