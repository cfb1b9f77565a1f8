"""Tensor Memory maps as NumPy arrays, computed by the Rust core.

- :class:`LdStFragment`: which bits of which register of which thread go to which cell after
  ``tcgen05.ld`` / ``.st`` (PTX ISA 9.7.16.8.3-4, Tables 49-50, Figures 189-193), and back.
- :func:`d_layout`: where an MMA keeps D (9.7.16.10.5, data-path layouts A-G).
- :func:`a_layout`: where A lives when an MMA reads it from Tensor Memory (9.7.16.10.4.3, .5).
- :func:`sf_layout`: where the block-scale factors live (9.7.16.10.7).
- :func:`svg_ld`, :func:`svg_d`, :func:`svg_sf`, :func:`svg_cp`: the pictures ``tcgen05 tmem ... --svg`` draws,
  as SVG strings (``LdStFragment`` also shows itself as SVG in Jupyter).

Lanes and columns are offsets from the instruction's Tensor Memory address. Bad shapes and sizes
raise :class:`tcgen05.DescriptorError` with every problem the core finds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Optional

from . import _native

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ALayout", "DLayout", "LdStFragment", "SfLayout", "a_layout", "d_layout", "sf_layout",
    "svg_cp", "svg_d", "svg_ld", "svg_sf",
]


def _i32(raw: bytes, shape: tuple[int, ...]) -> np.ndarray[Any, np.dtype[np.int32]]:
    import numpy as np

    return np.frombuffer(raw, dtype=np.int32).reshape(shape).copy()


def _records(arr: np.ndarray[Any, Any], names: list[str]) -> np.ndarray[Any, Any]:
    import numpy as np

    dt = np.dtype([(n, np.int32) for n in names])
    return np.ascontiguousarray(arr).view(dt).reshape(arr.shape[:-1])


PIECE_FIELDS = [
    "thread", "register", "register_lo", "register_hi", "lane", "column", "bit_lo", "bit_hi",
]


class LdStFragment:
    """The fragment map of one ``tcgen05.ld`` / ``.st``: ``shape`` like ``"32x32b"``, ``num``
    like ``"x4"``, ``pack`` for ``.pack::16b`` / ``.unpack::16b``, ``offset`` the half-split
    offset of ``.16x32bx2``."""

    def __init__(self, shape: str, num: str, *, pack: bool = False, offset: Optional[int] = None) -> None:
        raw, self.registers, self.lanes, self.column_span = _native._ld_fragment(
            shape, num, pack=pack, offset=offset
        )
        self._pieces = _i32(raw, (-1, 8))
        self._args = (shape, num, pack, offset)

    def svg(self) -> str:
        """The picture of the map: each cell with the thread and register that hold it."""
        shape, num, pack, offset = self._args
        return _native._svg_ld(shape, num, pack=pack, offset=offset)

    def _repr_svg_(self) -> str:
        return self.svg()

    def pieces(self) -> np.ndarray[Any, Any]:
        """Every piece as a structured array (fields ``thread``, ``register``, ``register_lo``,
        ``register_hi``, ``lane``, ``column``, ``bit_lo``, ``bit_hi``)."""
        return _records(self._pieces, PIECE_FIELDS)

    def cells(self) -> np.ndarray[Any, np.dtype[np.int32]]:
        """``(thread, register) -> (lane, column)``: shape ``(32, registers, 2)``; with packing,
        the cell of the register's low half."""
        import numpy as np

        out = np.full((32, self.registers, 2), -1, dtype=np.int32)
        p = self._pieces
        low = p[:, 2] == 0
        out[p[low, 0], p[low, 1], 0] = p[low, 4]
        out[p[low, 0], p[low, 1], 1] = p[low, 5]
        return out

    def owners(self) -> np.ndarray[Any, np.dtype[np.int32]]:
        """``(lane, column) -> (thread, register)``: shape ``(lanes, column_span, 2)``, -1 where
        no thread holds the cell (with packing, the first owner)."""
        import numpy as np

        out = np.full((self.lanes, self.column_span, 2), -1, dtype=np.int32)
        p = self._pieces[::-1]
        out[p[:, 4], p[:, 5], 0] = p[:, 0]
        out[p[:, 4], p[:, 5], 1] = p[:, 1]
        return out


class DLayout(NamedTuple):
    """Where D lives: ``cells[m, n]`` has fields ``cta``, ``lane``, ``column``."""

    layout: str
    """The data-path layout's letter, ``"A"`` to ``"G"``."""
    m: int
    n: int
    cells: np.ndarray[Any, Any]


def d_layout(m: int, n: int, *, cta_group: int = 1, ws: bool = False, sparse: bool = False) -> DLayout:
    """Where an MMA with M, N, ``.cta_group``, ``.ws`` and sparse A keeps D (PTX ISA
    9.7.16.10.5)."""
    letter, mm, nn, raw = _native._d_layout(m, n, cta_group=cta_group, ws=ws, sparse=sparse)
    return DLayout(letter, mm, nn, _records(_i32(raw, (mm, nn, 3)), ["cta", "lane", "column"]))


class ALayout(NamedTuple):
    """Where A lives: ``cells[m, k]`` has fields ``cta``, ``column``, ``bit_lo``, ``bit_hi``,
    ``lane0``..``lane3`` (the lanes of its copies; -1 where there is none)."""

    layout: str
    cells: np.ndarray[Any, Any]


def a_layout(
    m: int, k: int, bits: int, *, cta_group: int = 1, ws: bool = False, sparse: bool = False
) -> ALayout:
    """Where ``A[m][k]`` lives for the forms that read A from Tensor Memory, in ``bits``-bit
    containers (32 tf32, 16 f16/bf16, 8 i8 and 8-bit f8f6f4 containers, 4 mxf4/mxf4nvf4)."""
    letter, raw = _native._a_layout(m, k, bits, cta_group=cta_group, ws=ws, sparse=sparse)
    names = ["cta", "column", "bit_lo", "bit_hi", "lane0", "lane1", "lane2", "lane3"]
    return ALayout(letter, _records(_i32(raw, (m, k, 8)), names))


class SfLayout(NamedTuple):
    """Where the scale factors live: ``cells[index, scale]`` (a row of A or a column of B, and
    the scale of that row) with fields ``cta``, ``both_ctas``, ``column``, ``byte``,
    ``lane0``..``lane3``."""

    columns: int
    """Columns used from the scale-factor address."""
    cells: np.ndarray[Any, Any]


def sf_layout(
    operand: str, m: int, n: int, scale_vec: str, *, sf_id: int = 0, cta_group: int = 1,
    ws: bool = False,
) -> SfLayout:
    """Where ``scale_A`` (``operand="a"``) or ``scale_B`` (``"b"``) lives for an MMA with M, N
    and ``scale_vec`` ``"1X"``, ``"2X"`` or ``"4X"`` at scale-factor ID ``sf_id``."""
    extent, count, columns, raw = _native._sf_layout(
        operand, m, n, scale_vec, sf_id=sf_id, cta_group=cta_group, ws=ws
    )
    names = ["cta", "both_ctas", "column", "byte", "lane0", "lane1", "lane2", "lane3"]
    return SfLayout(columns, _records(_i32(raw, (extent, count, 8)), names))


def svg_ld(shape: str, num: str, *, pack: bool = False, offset: Optional[int] = None) -> str:
    """The picture of one ``tcgen05.ld`` / ``.st`` fragment map (as ``tcgen05 tmem ld --svg``)."""
    return _native._svg_ld(shape, num, pack=pack, offset=offset)


def svg_d(m: int, n: int, *, cta_group: int = 1, ws: bool = False, sparse: bool = False) -> str:
    """The picture of where an MMA keeps D (as ``tcgen05 tmem d --svg``)."""
    return _native._svg_d(m, n, cta_group=cta_group, ws=ws, sparse=sparse)


def svg_sf(
    operand: str, m: int, n: int, scale_vec: str, *, sf_id: int = 0, cta_group: int = 1,
    ws: bool = False,
) -> str:
    """The picture of where ``scale_A`` or ``scale_B`` lives (as ``tcgen05 tmem sf --svg``);
    arguments as :func:`sf_layout`."""
    return _native._svg_sf(operand, m, n, scale_vec, sf_id=sf_id, cta_group=cta_group, ws=ws)


def svg_cp(shape: str, *, multicast: Optional[str] = None) -> str:
    """The picture of which lanes each ``tcgen05.cp`` row lands in (as ``tcgen05 tmem cp
    --svg``); ``shape`` like ``"32x128b"``, ``multicast`` like ``"warpx4"``."""
    return _native._svg_cp(shape, multicast=multicast)
