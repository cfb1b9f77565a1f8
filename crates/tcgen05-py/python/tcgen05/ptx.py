"""PTX text of every tcgen05 instruction form, built and checked by the Rust core.

Each function takes keywords named as the PTX operands and qualifiers and returns the
instruction as ``str`` (``syntax="rust_asm"`` for a Rust ``asm!`` template). Operands: a ``str`` is
a register (or variable) name, an ``int`` an immediate. Every rule of the form (qualifier pairings,
operand counts, target and PTX version, and immediate descriptors checked against Tables 39-45)
is the core's; a broken one raises :class:`tcgen05.DescriptorError` listing every problem.

- :func:`mma`: ``tcgen05.mma`` in any form (PTX ISA 9.7.16.10.9).
- :func:`ld`, :func:`st`: ``tcgen05.ld`` / ``.st`` (9.7.16.8.3-4).
- :func:`cp`, :func:`shift`: ``tcgen05.cp`` / ``.shift`` (9.7.16.9.2-3).
- :func:`alloc`, :func:`dealloc`, :func:`relinquish_alloc_permit` (9.7.16.7.1).
- :func:`commit` (9.7.16.11.1), :func:`fence` (9.7.16.11.2), :func:`wait` (9.7.16.8.5).
- :func:`preamble`: the module's ``.version`` and ``.target`` lines.
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

from . import _native

Operand = Union[str, int]

__all__ = [
    "alloc",
    "commit",
    "cp",
    "dealloc",
    "fence",
    "ld",
    "mma",
    "preamble",
    "relinquish_alloc_permit",
    "shift",
    "st",
    "wait",
]


def mma(
    *,
    cta_group: int,
    kind: str,
    d: str,
    a: str,
    b: str,
    idesc: Operand,
    enable_input_d: Union[str, bool],
    a_tmem: bool = False,
    ws: bool = False,
    sparse_metadata: Optional[str] = None,
    scale_vec: Optional[str] = None,
    scale_a: Optional[str] = None,
    scale_b: Optional[str] = None,
    collector: Optional[str] = None,
    ashift: bool = False,
    disable_output_lane: Optional[Sequence[str]] = None,
    scale_input_d: Optional[int] = None,
    zero_column_mask: Optional[Operand] = None,
    target: Optional[str] = None,
    version: Optional[int] = None,
    syntax: str = "ptx",
) -> str:
    """``tcgen05.mma`` (PTX ISA 9.7.16.10.9): ``d`` is the Tensor Memory address operand, ``a``
    a shared memory descriptor (or a Tensor Memory address with ``a_tmem=True``), ``b`` a
    descriptor, ``idesc`` the instruction descriptor (an immediate is checked against Tables
    39-44). ``collector`` is spelled as after ``.collector::`` (``"a::fill"``, ``"b0::use"``);
    ``version`` is the PTX ISA version times ten (86 for 8.6)."""
    return _native.ptx_mma(
        cta_group=cta_group,
        kind=kind,
        d=d,
        a=a,
        b=b,
        idesc=idesc,
        enable_input_d=enable_input_d,
        a_tmem=a_tmem,
        ws=ws,
        sparse_metadata=sparse_metadata,
        scale_vec=scale_vec,
        scale_a=scale_a,
        scale_b=scale_b,
        collector=collector,
        ashift=ashift,
        disable_output_lane=disable_output_lane,
        scale_input_d=scale_input_d,
        zero_column_mask=zero_column_mask,
        target=target,
        version=version,
        syntax=syntax,
    )


def ld(
    *,
    shape: str,
    num: str,
    dst: Sequence[str],
    taddr: str,
    pack: bool = False,
    offset: Optional[int] = None,
    red: Optional[str] = None,
    red_type: Optional[str] = None,
    redval: Optional[str] = None,
    red_abs: bool = False,
    red_nan: bool = False,
    target: Optional[str] = None,
    version: Optional[int] = None,
    syntax: str = "ptx",
) -> str:
    """``tcgen05.ld`` (PTX ISA 9.7.16.8.3; ``red=`` ``"min"``/``"max"`` for ``.red``, sm_101a and
    sm_110a): ``shape`` like ``"32x32b"``, ``num`` like ``"x4"``, one ``dst`` register per
    register of the fragment (Tables 49-50)."""
    return _native.ptx_ld(
        shape=shape,
        num=num,
        dst=dst,
        taddr=taddr,
        pack=pack,
        offset=offset,
        red=red,
        red_type=red_type,
        redval=redval,
        red_abs=red_abs,
        red_nan=red_nan,
        target=target,
        version=version,
        syntax=syntax,
    )


def st(
    *,
    shape: str,
    num: str,
    taddr: str,
    src: Sequence[str],
    unpack: bool = False,
    offset: Optional[int] = None,
    target: Optional[str] = None,
    version: Optional[int] = None,
    syntax: str = "ptx",
) -> str:
    """``tcgen05.st`` (PTX ISA 9.7.16.8.4)."""
    return _native.ptx_st(
        shape=shape,
        num=num,
        taddr=taddr,
        src=src,
        unpack=unpack,
        offset=offset,
        target=target,
        version=version,
        syntax=syntax,
    )


def cp(
    *,
    cta_group: int,
    shape: str,
    taddr: str,
    sdesc: Operand,
    multicast: Optional[str] = None,
    source_format: Optional[str] = None,
    target: Optional[str] = None,
    version: Optional[int] = None,
    syntax: str = "ptx",
) -> str:
    """``tcgen05.cp`` (PTX ISA 9.7.16.9.2): ``shape`` like ``"128x256b"``, ``multicast`` like
    ``"warpx4"``, ``source_format`` ``"b6x16_p32"`` or ``"b4x16_p64"``."""
    return _native.ptx_cp(
        cta_group=cta_group,
        shape=shape,
        taddr=taddr,
        sdesc=sdesc,
        multicast=multicast,
        source_format=source_format,
        target=target,
        version=version,
        syntax=syntax,
    )


def shift(
    *, cta_group: int, taddr: str, target: Optional[str] = None, version: Optional[int] = None,
    syntax: str = "ptx",
) -> str:
    """``tcgen05.shift.cta_group.down`` (PTX ISA 9.7.16.9.3)."""
    return _native.ptx_group_op(
        "shift", cta_group=cta_group, taddr=taddr, target=target, version=version, syntax=syntax
    )


def alloc(
    *, cta_group: int, dst: str, n_cols: Operand, target: Optional[str] = None,
    version: Optional[int] = None, syntax: str = "ptx",
) -> str:
    """``tcgen05.alloc`` (PTX ISA 9.7.16.7.1): ``dst`` is the shared memory address that
    receives the Tensor Memory address; an immediate ``n_cols`` must be a power of two in
    32..512."""
    return _native.ptx_group_op(
        "alloc", cta_group=cta_group, dst=dst, n_cols=n_cols, target=target, version=version,
        syntax=syntax,
    )


def dealloc(
    *, cta_group: int, taddr: str, n_cols: Operand, target: Optional[str] = None,
    version: Optional[int] = None, syntax: str = "ptx",
) -> str:
    """``tcgen05.dealloc`` (PTX ISA 9.7.16.7.1)."""
    return _native.ptx_group_op(
        "dealloc", cta_group=cta_group, taddr=taddr, n_cols=n_cols, target=target,
        version=version, syntax=syntax,
    )


def relinquish_alloc_permit(
    *, cta_group: int, target: Optional[str] = None, version: Optional[int] = None,
    syntax: str = "ptx",
) -> str:
    """``tcgen05.relinquish_alloc_permit`` (PTX ISA 9.7.16.7.1)."""
    return _native.ptx_group_op(
        "relinquish_alloc_permit", cta_group=cta_group, target=target, version=version,
        syntax=syntax,
    )


def commit(
    *, cta_group: int, mbar: str, multicast: Optional[Operand] = None,
    target: Optional[str] = None, version: Optional[int] = None, syntax: str = "ptx",
) -> str:
    """``tcgen05.commit`` (PTX ISA 9.7.16.11.1); ``multicast`` is the 16-bit CTA mask."""
    return _native.ptx_group_op(
        "commit", cta_group=cta_group, mbar=mbar, multicast=multicast, target=target,
        version=version, syntax=syntax,
    )


def fence(which: str, *, target: Optional[str] = None, version: Optional[int] = None) -> str:
    """``tcgen05.fence::before_thread_sync`` / ``::after_thread_sync`` (PTX ISA 9.7.16.11.2)."""
    return _native.ptx_fence_wait("fence", which, target=target, version=version)


def wait(which: str, *, target: Optional[str] = None, version: Optional[int] = None) -> str:
    """``tcgen05.wait::ld`` / ``::st`` (PTX ISA 9.7.16.8.5)."""
    return _native.ptx_fence_wait("wait", which, target=target, version=version)


def preamble(*, target: Optional[str] = None, version: Optional[int] = None) -> str:
    """The ``.version`` and ``.target`` directives for ``target`` (default sm_100a) and PTX ISA
    ``version`` (default: the lowest with tcgen05 on that target)."""
    return _native.ptx_preamble(target=target, version=version)
