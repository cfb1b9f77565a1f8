"""Block-scale factors in global memory, as NumPy arrays: where each (row, K block) of a scale
tensor sits in the layout a library expects, computed by the Rust core
(``tcgen05::scale_factors``), and whether a kernel's chain consumes the scale meant.

Layouts: ``"blocked"`` (``"128x4"``: cuBLASLt's 1-D block scaling factors layout, CUTLASS's
``Sm1xxBlockScaledConfig``, PyTorch's ``to_blocked``, flashinfer's ``block_scale_interleave``),
``"k-major"`` (row-major rows x K blocks), ``"mn-major"`` and ``"blocked-twice"`` (the 128x4
permutation applied to already blocked scales, this package's model of sglang#23625).

- :func:`to_blocked` / :func:`from_blocked`: rows x K blocks (or batches x rows x K blocks) to
  the padded blocked bytes and back, exactly, for any size; padding is zero, as the libraries
  fill it.
- :func:`convert`: between any two layouts.
- :func:`offsets`: the byte offset of every (batch, row, K block).
- :func:`check_chain`: the CUTLASS-style chain of one 128 x 4 tile (TMA box, ``tcgen05.cp``,
  MMAs with SF id = K block) fed scales in the host's layout: agree, or the first (row, K block)
  read from elsewhere, with its path.
- :func:`svg_layout`, :func:`svg_chain`: the pictures ``tcgen05 layout sf explain/check --svg``
  draws, as SVG strings.

Bad layouts, formats and sizes raise :class:`tcgen05.DescriptorError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Optional

from . import _native

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ChainResult", "check_chain", "convert", "from_blocked", "offsets", "svg_chain", "svg_layout",
    "to_blocked",
]


def offsets(
    layout: str, rows: int, k_blocks: int, *, batches: int = 1, format: str = "ue8m0", vec: int = 32
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], int]:
    """The byte offset of every (batch, row, K block) as an int64 array of shape (batches,
    rows, k_blocks), and the layout's size in bytes, padding included."""
    import numpy as np

    raw, size = _native._sf_offsets(layout, rows, k_blocks, batches=batches, format=format, vec=vec)
    arr = np.frombuffer(raw, dtype="<u8").astype(np.int64).reshape(batches, rows, k_blocks)
    return arr, size


def _logical(array: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], int, int, int]:
    if array.ndim == 2:
        return array[None], 1, array.shape[0], array.shape[1]
    if array.ndim == 3:
        return array, array.shape[0], array.shape[1], array.shape[2]
    raise ValueError(f"scales: expected rows x k_blocks or batches x rows x k_blocks, got shape {array.shape}")


def _scatter(
    array: np.ndarray[Any, Any], layout: str, format: str, vec: int
) -> np.ndarray[Any, Any]:
    import numpy as np

    a, l, r, k = _logical(np.asarray(array))
    where, size = offsets(layout, r, k, batches=l, format=format, vec=vec)
    out = np.zeros(size, dtype=a.dtype)
    out[where.ravel()] = a.ravel()
    return out


def to_blocked(array: np.ndarray[Any, Any], *, format: str = "ue8m0", vec: int = 32) -> np.ndarray[Any, Any]:
    """The blocked (128x4) bytes of a rows x K-blocks scale matrix (or a batch of them): a
    1-D array of ``ceil(rows / 128) * 128 * ceil(k_blocks / 4) * 4`` elements per batch (shape
    (batches, that) for 3-D input), padding zero, the input's dtype. Equal to PyTorch's
    ``to_blocked(...).flatten()``."""
    a = _scatter(array, "blocked", format, vec)
    if array.ndim == 3:
        return a.reshape(array.shape[0], -1)
    return a


def from_blocked(
    blocked: np.ndarray[Any, Any], rows: int, k_blocks: int, *, batches: Optional[int] = None,
    format: str = "ue8m0", vec: int = 32,
) -> np.ndarray[Any, Any]:
    """The rows x K-blocks scale matrix (batches x rows x K blocks when ``batches`` is given)
    held by blocked bytes; the padding is dropped."""
    import numpy as np

    flat = np.asarray(blocked).reshape(-1)
    l = 1 if batches is None else batches
    where, size = offsets("blocked", rows, k_blocks, batches=l, format=format, vec=vec)
    if flat.size != size:
        raise ValueError(f"from_blocked: {flat.size} elements, but the blocked layout of {l} x {rows} x {k_blocks} has {size}")
    out: np.ndarray[Any, Any] = flat[where]
    return out if batches is not None else out[0]


def convert(
    data: np.ndarray[Any, Any], from_: str, to: str, rows: int, k_blocks: int, *, batches: int = 1,
    format: str = "ue8m0", vec: int = 32,
) -> np.ndarray[Any, Any]:
    """The bytes of a scale tensor in layout ``from_`` (any shape, padding included) rewritten
    in layout ``to`` (1-D, padding zero)."""
    import numpy as np

    flat = np.asarray(data).reshape(-1)
    src, size = offsets(from_, rows, k_blocks, batches=batches, format=format, vec=vec)
    if flat.size != size:
        raise ValueError(f"convert: {flat.size} elements, but the {from_} layout has {size}")
    dst, out_size = offsets(to, rows, k_blocks, batches=batches, format=format, vec=vec)
    out = np.zeros(out_size, dtype=flat.dtype)
    out[dst.ravel()] = flat[src.ravel()]
    return out


class ChainResult(NamedTuple):
    """The answer of :func:`check_chain`. When ``agree`` only ``reads`` (Tensor Memory reads
    checked) is set; otherwise the first (``row``, ``k_block``) of MMA ``mma`` read from
    elsewhere: the element ``intended``, the Tensor Memory byte ``tmem`` (cta, lane, column,
    byte), the shared-memory byte ``smem`` the ``tcgen05.cp`` read, the global byte ``global_byte``
    the tensor copy put there (None where the chain broke), and the ``element`` (row, K block)
    there (None: padding or nothing)."""

    agree: bool
    reads: int
    mma: Optional[int] = None
    row: Optional[int] = None
    k_block: Optional[int] = None
    intended: Optional[tuple[int, int]] = None
    tmem: Optional[tuple[int, int, int, int]] = None
    smem: Optional[int] = None
    global_byte: Optional[int] = None
    element: Optional[tuple[int, int]] = None


def check_chain(host: str, rows: int = 128, k_blocks: int = 4, *, cp: str = "32x128b.warpx4") -> ChainResult:
    """Whether a CUTLASS-style kernel (one 16 x 32-byte TMA box per 128 x 4 tile, one
    ``tcgen05.cp`` of shape ``cp``, MMAs with M = 128, ``.scale_vec::1X`` and SF id = K block)
    consumes the scale meant for every row and K block when the host wrote layout ``host``."""
    reads, diff = _native._sf_check_chain(host, rows, k_blocks, cp=cp)
    if diff is None:
        return ChainResult(True, reads)
    mma, row, k_block, intended, tmem, smem, glob, element = diff
    return ChainResult(False, 0, mma, row, k_block, intended, tmem, smem, glob, element)


def svg_layout(
    layout: str, rows: int, k_blocks: int, *, batches: int = 1, format: str = "ue8m0", vec: int = 32
) -> str:
    """The first 512 bytes of a layout, each labelled with the (row, K block) it holds."""
    return _native._svg_sf_global(layout, rows, k_blocks, batches=batches, format=format, vec=vec)


def svg_chain(host: str, rows: int = 128, k_blocks: int = 4, *, cp: str = "32x128b.warpx4") -> str:
    """Every (row, K block) the MMAs of :func:`check_chain` read, red where it is not the one
    meant."""
    return _native._svg_sf_chain(host, rows, k_blocks, cp=cp)
