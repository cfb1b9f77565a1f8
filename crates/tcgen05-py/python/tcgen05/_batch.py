"""NumPy batch paths: arrays of raw descriptors decoded by the Rust core into structured arrays.

The records are packed by the native module (``decode_idesc_records``,
``decode_smem_records``) with the GIL released, over every core; their fields and offsets come
from the native module too (``IDESC_RECORD``, ``SMEM_RECORD``), so the dtype cannot drift from
what Rust writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import _native

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def _dtype(record: list[tuple[str, str, int]], size: int) -> np.dtype[np.void]:
    import numpy as np

    return np.dtype(
        {
            "names": [name for name, _, _ in record],
            "formats": ["=" + fmt if fmt != "?" else "?" for _, fmt, _ in record],
            "offsets": [offset for _, _, offset in record],
            "itemsize": size,
        }
    )


class _LazyDtypes:
    idesc: Optional[np.dtype[np.void]] = None
    smem: Optional[np.dtype[np.void]] = None


def _idesc_dtype() -> np.dtype[np.void]:
    if _LazyDtypes.idesc is None:
        _LazyDtypes.idesc = _dtype(_native.IDESC_RECORD, _native.IDESC_RECORD_SIZE)
    return _LazyDtypes.idesc


def _smem_dtype() -> np.dtype[np.void]:
    if _LazyDtypes.smem is None:
        _LazyDtypes.smem = _dtype(_native.SMEM_RECORD, _native.SMEM_RECORD_SIZE)
    return _LazyDtypes.smem


def __getattr__(name: str) -> Any:
    # IDESC_DTYPE and SMEM_DTYPE are built on first use, so that importing tcgen05 needs no NumPy.
    if name == "IDESC_DTYPE":
        return _idesc_dtype()
    if name == "SMEM_DTYPE":
        return _smem_dtype()
    raise AttributeError(name)


def _words(values: npt.ArrayLike, bits: int, what: str) -> np.ndarray[Any, Any]:
    """``values`` as a contiguous native-endian array of unsigned ``bits``-bit words.

    Integer arrays of another width are accepted when every value fits; a value that does not
    fit raises DescriptorError naming the first such index (nothing is wrapped or truncated);
    a non-integer array raises TypeError.
    """
    import numpy as np

    a = np.asarray(values)
    if a.dtype.kind not in "ui" or a.dtype == np.bool_:
        raise TypeError(f"{what}: expected an integer array, got dtype {a.dtype}")
    target = np.dtype(f"=u{bits // 8}")
    if a.dtype != target and a.size:
        limit = (1 << bits) - 1
        bad = (a < 0) | (a > limit) if a.dtype.kind == "i" else (a > limit)
        if bool(bad.any()):
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            value = int(a[index])
            err = _native.DescriptorError(
                f"{what}: value {value} at index {index} is out of range (0 to {limit})"
            )
            err.problems = []
            raise err
    return np.ascontiguousarray(a, dtype=target)


def decode_idesc(
    values: npt.ArrayLike, kind: str, *, threads: Optional[int] = None
) -> np.ndarray[Any, np.dtype[np.void]]:
    """Decodes an array of raw 32-bit instruction descriptors under ``kind`` (PTX ISA
    9.7.16.4.2, Tables 42-44) into a structured array of the same shape, dtype ``IDESC_DTYPE``:
    one field per descriptor field (``m``, ``n``, ``d_type``, ...) plus ``valid`` and the
    ``errors`` / ``warnings`` counts. Type and scale-type fields are indices into
    ``ELEMENT_TYPES`` / ``SCALE_TYPES`` (-1 when the code is undefined).

    Each element equals ``InstructionDescriptor.decode(value, kind=kind)``. Runs without the
    GIL, on ``threads`` threads (default: every core).
    """
    import numpy as np

    if not isinstance(kind, str):
        raise TypeError(f"kind: expected str, got {type(kind).__name__}")
    if kind not in _native.KINDS:
        # The scalar path reports the unknown name with its rule and source.
        _native.InstructionDescriptor.decode(0, kind=kind)
    a = _words(values, 32, "decode_idesc")
    out = _native.decode_idesc_records(a.tobytes(), kind, threads)
    return np.frombuffer(out, dtype=_idesc_dtype()).reshape(a.shape)


def decode_smem(
    values: npt.ArrayLike, target: str = "sm_100a", *, threads: Optional[int] = None
) -> np.ndarray[Any, np.dtype[np.void]]:
    """Decodes an array of raw 64-bit shared memory descriptors for ``target`` (PTX ISA
    9.7.16.4.1, Tables 40-41) into a structured array of the same shape, dtype ``SMEM_DTYPE``:
    byte fields in bytes, ``swizzle`` and ``lbo_mode`` as indices into ``SWIZZLES`` /
    ``LBO_MODES`` (swizzle -1 for an undefined code), plus ``valid`` and the counts.

    Each element equals ``SmemDescriptor.decode(value, target=target)``. Runs without the GIL,
    on ``threads`` threads (default: every core).
    """
    import numpy as np

    if not isinstance(target, str):
        raise TypeError(f"target: expected str, got {type(target).__name__}")
    if target not in _native.TARGETS:
        _native.SmemDescriptor.decode(0, target=target)
    a = _words(values, 64, "decode_smem")
    out = _native.decode_smem_records(a.tobytes(), target, threads)
    return np.frombuffer(out, dtype=_smem_dtype()).reshape(a.shape)
