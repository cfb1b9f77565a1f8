"""Shared memory operand layouts (PTX ISA 9.7.16.10.4-6; rules.md R4-R9) as NumPy arrays.

:class:`TileLayout` builds a tile of canonical swizzle atoms and the descriptor of each K-block
from intent; :class:`MatrixLayout` gives the byte and bit of every element an MMA reads through
one descriptor; :func:`agreement` says whether TMA boxes put every element where the MMA reads
it. Every address comes from the Rust core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Sequence, Union

from . import _native
from ._native import SmemDescriptor

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Agreement", "MatrixLayout", "TensorCopyBox", "TileLayout", "agreement"]


def _unpack(raw: bytes, shape: tuple[int, int]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    import numpy as np

    count = shape[0] * shape[1]
    addresses = np.frombuffer(raw, dtype=np.uint32, count=count).reshape(shape).copy()
    bits = np.frombuffer(raw, dtype=np.uint8, offset=4 * count, count=count).reshape(shape).copy()
    return addresses, bits


class TileLayout:
    """A tile of one operand (``mn`` x ``k`` elements of ``element_type``) in canonical swizzle
    atoms at ``start_address``, and the shared memory descriptor of each K-block (PTX ISA
    9.7.16.10.6 Table 55). ``major`` is ``"k"`` or ``"mn"``; ``kind`` decides the storage of 4-
    and 6-bit types; ``order`` ``"mn_first"`` (default) or ``"k_first"``; ``anchor``
    ``"tile_start"`` (default; R4 base offset) or ``"address"`` (CuTe/TMA absolute swizzle)."""

    def __init__(
        self,
        *,
        element_type: str,
        major: str,
        swizzle: str,
        mn: int,
        k: int,
        kind: Optional[str] = None,
        start_address: int = 0,
        order: Optional[str] = None,
        anchor: Optional[str] = None,
        k_per_block: Optional[int] = None,
    ) -> None:
        self._native = _native._TileLayout(
            element_type=element_type, major=major, swizzle=swizzle, mn=mn, k=k, kind=kind,
            start_address=start_address, order=order, anchor=anchor, k_per_block=k_per_block,
        )
        self.element_type = element_type
        self.major = major
        self.kind = kind

    @property
    def shape(self) -> tuple[int, int]:
        """``(mn, k)`` of the tile."""
        return self._native.shape

    @property
    def k_blocks(self) -> int:
        """K-blocks, one MMA each."""
        return self._native.k_blocks

    @property
    def k_per_block(self) -> int:
        """Elements of K per MMA."""
        return self._native.k_per_block

    @property
    def atom(self) -> tuple[int, int]:
        """The swizzle atom, ``(mn, k)`` in elements."""
        return self._native.atom

    def descriptor(self, k_block: int = 0, *, target: Optional[str] = None) -> SmemDescriptor:
        """The shared memory descriptor of K-block ``k_block``."""
        return SmemDescriptor.decode(self._native.descriptor_bits(k_block, target=target), target=target)

    def descriptors(self, *, target: Optional[str] = None) -> list[SmemDescriptor]:
        """The descriptor of every K-block, in order."""
        return [self.descriptor(i, target=target) for i in range(self.k_blocks)]

    def addresses(self) -> np.ndarray[Any, np.dtype[np.uint32]]:
        """The byte address of every tile element, shape ``(mn, k)``."""
        return _unpack(self._native.locations(), self.shape)[0]

    def bit_offsets(self) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The first bit of every element in its byte (non-zero only for 4-bit packed storage)."""
        return _unpack(self._native.locations(), self.shape)[1]

    def matrix_layout(self, k_block: int = 0, *, target: Optional[str] = None) -> MatrixLayout:
        """The operand one MMA of K-block ``k_block`` reads through its descriptor."""
        return MatrixLayout(
            self.descriptor(k_block, target=target), element_type=self.element_type,
            major=self.major, mn=self.shape[0], k=self.k_per_block, kind=self.kind, target=target,
        )

    def svg(self, *, operand: str = "a") -> str:
        """The picture of the tile in shared memory (as ``tcgen05 layout tile --svg``): each
        16-byte chunk with the elements it holds, coloured by core matrix, the swizzle repeat as
        a thick rule. ``operand`` ``"a"`` or ``"b"`` names the M/N index ``m`` or ``n``."""
        return self._native.svg(operand=operand)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return repr(self._native)


class MatrixLayout:
    """The operand an MMA reads through one shared memory descriptor (``SmemDescriptor`` or its
    raw 64-bit value): ``mn`` x ``k`` elements of ``element_type`` (PTX ISA 9.7.16.10.4-5)."""

    def __init__(
        self,
        descriptor: Union[SmemDescriptor, int],
        *,
        element_type: str,
        major: str,
        mn: int,
        k: int,
        kind: Optional[str] = None,
        target: Optional[str] = None,
    ) -> None:
        raw = descriptor.bits if isinstance(descriptor, SmemDescriptor) else descriptor
        self._native = _native._MatrixLayout(
            raw, element_type=element_type, major=major, mn=mn, k=k, kind=kind, target=target
        )

    @property
    def shape(self) -> tuple[int, int]:
        """``(mn, k)``."""
        return self._native.shape

    def addresses(self) -> np.ndarray[Any, np.dtype[np.uint32]]:
        """The byte address of every element, shape ``(mn, k)``."""
        return _unpack(self._native.locations(), self.shape)[0]

    def bit_offsets(self) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The first bit of every element in its byte."""
        return _unpack(self._native.locations(), self.shape)[1]

    def address(self, mn: int, k: int) -> tuple[int, int]:
        """``(byte address, first bit)`` of element ``(mn, k)``."""
        return self._native.address(mn, k)

    def elements_at(self, address: int) -> list[tuple[int, int]]:
        """The elements ``(mn, k)`` with bits in the byte at ``address``."""
        return self._native.elements_at(address)

    def check(self, *, buffer: Optional[tuple[int, int]] = None) -> list[_native.Problem]:
        """Every overlap, and every element read outside ``buffer=(start, end)``."""
        return self._native.check(buffer=buffer)

    def svg(self, *, operand: str = "a", buffer: Optional[tuple[int, int]] = None) -> str:
        """The picture of the operand as the descriptor places it (as ``tcgen05 layout addr
        --svg``); chunks with an overlap or outside ``buffer=(start, end)`` are outlined in red."""
        return self._native.svg(operand=operand, buffer=buffer)

    def _repr_svg_(self) -> str:
        return self.svg()


class TensorCopyBox(NamedTuple):
    """One TMA box copy: ``inner`` x ``outer`` elements written at ``destination`` with
    ``swizzle``, holding the tile elements from ``(origin_inner, origin_outer)`` on."""

    swizzle: str
    inner: int
    outer: int
    destination: int
    origin_inner: int = 0
    origin_outer: int = 0


class Agreement(NamedTuple):
    """The result of :func:`agreement`."""

    agree: bool
    elements: Optional[int]
    """Elements checked (when they agree)."""
    mn: Optional[int] = None
    k: Optional[int] = None
    mma: Optional[tuple[int, int]] = None
    """``(address, bit)`` where the MMA reads the first differing element."""
    copy: Optional[tuple[int, int]] = None
    """Where the copies put it (None: no box holds it)."""
    found: Optional[tuple[int, int]] = None
    """The tile element the copies put at the byte the MMA reads, if any."""


def agreement(
    layout: MatrixLayout, boxes: Sequence[TensorCopyBox], *, k_start: int = 0
) -> Agreement:
    """Whether the MMA reading ``layout`` finds every element ``(mn, k_start + k)`` where the
    copies put it (PTX ISA 9.7.9.27 and 9.7.16.10.5; rules.md R4)."""
    rows = [
        (b.swizzle, b.inner, b.outer, b.destination, b.origin_inner, b.origin_outer)
        for b in boxes
    ]
    r = _native._agreement(layout._native, rows, k_start=k_start)
    if r[0] == "agree":
        return Agreement(True, r[1])
    return Agreement(False, None, r[1], r[2], r[3], r[4], r[5])
