"""The tensor cores' arithmetic, bit for bit, as the Rust core models it.

The parameter table has one row per (architecture, instruction, kind, A/B types, D type, scale);
each row cites its evidence (MMA-Sim, Khattak & Mikaitis, or this project's own H100 runs). The
``tcgen05.mma`` rows are MMA-Sim's B200 measurement, not this project's.

- :func:`dot`: one dot product ``D = sum(a_k * b_k [* scales]) + c`` with its explanation
  (each term's alignment exponent and dropped bits, ``e_max``, the exact sum).
- :func:`mma`: a whole MMA on NumPy arrays of element codes (fast path, every element the same
  bits as :func:`dot`).
- :func:`form`, :func:`rows`: the form a set of names resolves to, and the whole table.
- :func:`encode`, :func:`decode`: element formats (f32, tf32, f16, bf16, e4m3, e5m2, e3m2, e2m3,
  e2m1, ue8m0, ue4m3, ue5m3, s8, u8, s32) between values and codes, exactly.

Values are Python numbers that the format holds exactly (NaN and infinities where it has them),
or bit patterns with ``codes=True``. A value the format cannot hold, an unknown name or a form
no instruction has raises :class:`tcgen05.DescriptorError` listing every problem.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Sequence, SupportsIndex, Union

from . import _native
from ._native import Dot, Term

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Dot", "Form", "Row", "Term", "decode", "dot", "encode", "form", "mma", "rows"]

Number = Union[int, float]


class Form(NamedTuple):
    """What a form's names resolve to after defaults."""

    k: int
    """Elements of K per instruction (the dot product's length)."""
    d_type: str
    scale_type: Optional[str]
    block: Optional[int]
    """Elements of K per scale factor (block-scaled kinds)."""
    algorithm: str
    """``"T-FDPA"``, ``"ST-FDPA"``, ``"GST-FDPA"``, ``"integer"`` or ``"HMMA-FP8"``."""


class Row(NamedTuple):
    """One row of the parameter table."""

    arch: str
    instruction: str
    kind: str
    a_type: str
    b_type: str
    d_type: str
    scale_type: Optional[str]
    block: Optional[int]
    algorithm: str
    f: Optional[int]
    """Fraction bits kept while aligning (None for integer kinds)."""


def dot(
    *,
    arch: str,
    kind: str,
    a_type: str,
    b_type: str,
    a: Sequence[Number],
    b: Sequence[Number],
    d_type: Optional[str] = None,
    scale_type: Optional[str] = None,
    block: Optional[int] = None,
    instruction: Optional[str] = None,
    c: Optional[Number] = None,
    sfa: Optional[Sequence[Number]] = None,
    sfb: Optional[Sequence[Number]] = None,
    satfinite: bool = False,
    codes: bool = False,
) -> Dot:
    """One dot product as ``instruction`` (default: ``wgmma`` on sm_90a, ``tcgen05.mma`` on
    sm_100a) computes it (PTX ISA 9.7.15.5 / 9.7.16.10.9; the arithmetic of the numerics
    module). ``a`` and ``b`` hold exactly K values, ``sfa``/``sfb`` one scale per block."""
    return _native.numerics_dot(
        arch=arch, kind=kind, a_type=a_type, b_type=b_type, a=a, b=b, d_type=d_type,
        scale_type=scale_type, block=block, instruction=instruction, c=c, sfa=sfa, sfb=sfb,
        satfinite=satfinite, codes=codes,
    )


def form(
    *,
    arch: str,
    kind: str,
    a_type: str,
    b_type: str,
    d_type: Optional[str] = None,
    scale_type: Optional[str] = None,
    block: Optional[int] = None,
    instruction: Optional[str] = None,
) -> Form:
    """The form these names resolve to: its K, D type, scale and algorithm."""
    return Form(
        *_native.numerics_form(
            arch=arch, kind=kind, a_type=a_type, b_type=b_type, d_type=d_type,
            scale_type=scale_type, block=block, instruction=instruction,
        )
    )


def encode(format: str, value: Union[SupportsIndex, float]) -> int:
    """The code of ``value`` in ``format`` (PTX ISA 5.2); raises DescriptorError when the format
    does not hold it exactly (the message names the nearest value)."""
    return _native.numerics_encode(format, value)


def decode(format: str, code: int) -> Number:
    """The value of ``code`` in ``format``: a float (NaN, infinities and -0 included), or an
    int for s8, u8 and s32."""
    return _native.numerics_decode(format, code)


def rows() -> list[Row]:
    """Every row of the parameter table."""
    return [Row(*r) for r in _native.numerics_rows()]


def _codes(x: Any, what: str) -> np.ndarray[Any, Any]:
    import numpy as np

    arr = np.asarray(x)
    if arr.dtype.kind not in "ui" or arr.dtype == np.bool_:
        raise TypeError(f"{what}: expected an integer array of codes, got dtype {arr.dtype}")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 0xFFFFFFFF):
        err = _native.DescriptorError(f"{what}: codes must lie in 0..=0xFFFFFFFF")
        err.problems = []
        raise err
    return np.ascontiguousarray(arr, dtype=np.uint32)


def _operand(x: Any, fmt: str, what: str) -> np.ndarray[Any, Any]:
    """Codes of an operand array: an integer array is codes already; a float array holds values,
    each converted exactly to its code in ``fmt`` by :func:`encode`, or refused: the
    DescriptorError names every element that ``fmt`` does not hold (index, value, nearest)."""
    import numpy as np

    arr = np.asarray(x)
    if arr.dtype.kind != "f":
        return _codes(arr, what)
    out = np.empty(arr.shape, dtype=np.uint32)
    bad: list[str] = []
    for idx, v in np.ndenumerate(arr):
        try:
            out[idx] = encode(fmt, float(v))
        except _native.DescriptorError as e:
            bad.append(f"{what}{list(idx)} = {float(v)!r}: {str(e).splitlines()[-1].strip()}")
    if bad:
        shown = bad[:10] + ([f"... and {len(bad) - 10} more"] if len(bad) > 10 else [])
        err = _native.DescriptorError(
            f"{what}: {len(bad)} element(s) not values of {fmt}\n  " + "\n  ".join(shown)
        )
        err.problems = []
        raise err
    return out


def mma(
    *,
    arch: str,
    kind: str,
    a_type: str,
    b_type: str,
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    c: Optional[npt.ArrayLike] = None,
    sfa: Optional[npt.ArrayLike] = None,
    sfb: Optional[npt.ArrayLike] = None,
    d_type: Optional[str] = None,
    scale_type: Optional[str] = None,
    block: Optional[int] = None,
    instruction: Optional[str] = None,
    satfinite: bool = False,
) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """D's codes (uint32, M x N; 16-bit D in the low half) of one whole MMA: ``a`` is M x K,
    ``b`` N x K (row ``j`` is column ``j`` of B), ``c`` M x N in D's type (None: +0), ``sfa``
    M x blocks and ``sfb`` N x blocks for block-scaled forms. An integer array holds codes; a
    float array holds values, each converted exactly to its type's code or refused (the
    DescriptorError names every element that is not a value of the type). Runs with the GIL
    released, on every core."""
    import numpy as np

    av, bv = _operand(a, a_type, "a"), _operand(b, b_type, "b")
    if av.ndim != 2 or bv.ndim != 2:
        raise TypeError("a and b must be 2-D arrays (M x K and N x K)")
    m, n = av.shape[0], bv.shape[0]
    c_type = d_type or ("s32" if kind.strip().lower() == "i8" else "f32")
    s_type = scale_type or "ue8m0"
    cv = _operand(c, c_type, "c") if c is not None else np.zeros(0, dtype=np.uint32)
    sa = _operand(sfa, s_type, "sfa") if sfa is not None else np.zeros(0, dtype=np.uint32)
    sb = _operand(sfb, s_type, "sfb") if sfb is not None else np.zeros(0, dtype=np.uint32)
    raw = _native.numerics_mma_codes(
        arch=arch, kind=kind, a_type=a_type, b_type=b_type, m=m, n=n, a=av.tobytes(),
        b=bv.tobytes(), c=cv.tobytes(), sfa=sa.tobytes(), sfb=sb.tobytes(), d_type=d_type,
        scale_type=scale_type, block=block, instruction=instruction, satfinite=satfinite,
    )
    return np.frombuffer(raw, dtype=np.uint32).reshape(m, n).copy()
