"""The functional model of the tcgen05 instructions, from Python: shared memory, Tensor Memory
and registers of a CTA pair, and instruction lines in PTX syntax with immediate operands, run
bit for bit on the CPU by the Rust core (``tcgen05::emulator``), or refused with every rule they
break (:class:`tcgen05.EmulationError`; the instruction then changed nothing).

What a functional model cannot know: timing, the asynchrony between the issuing thread and the
tensor core, and memory ordering; ``commit``, ``fence`` and ``wait`` are checked and change
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from . import _native
from ._native import Outcome

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Emulator", "Outcome", "ReferenceError"]


class ReferenceError(NamedTuple):
    """How far the last MMA's D is from the exact product of the operands it read."""

    max_ulps: float
    at: tuple[int, int]
    compared: int
    not_finite: int


class Emulator:
    """A CTA pair with empty shared and Tensor Memory. Reads of never-written memory are
    errors, unless ``random_inputs`` (a seed) gives them seeded random finite values of the
    type read."""

    def __init__(self, *, target: Optional[str] = None, random_inputs: Optional[int] = None) -> None:
        self._native = _native._Emulator(target=target, random_inputs=random_inputs)

    @property
    def target(self) -> str:
        return self._native.target

    def write_smem(self, address: int, data: Union[bytes, bytearray, npt.ArrayLike], *, cta: int = 0) -> None:
        """Writes ``data`` (bytes, or any NumPy array's raw bytes) at shared memory ``address``.
        A ``str`` is refused (``TypeError``): its characters are not bytes of a matrix."""
        if isinstance(data, str):
            raise TypeError("write_smem: expected bytes or a NumPy array, got str")
        if not isinstance(data, (bytes, bytearray)):
            import numpy as np

            data = np.ascontiguousarray(data).tobytes()
        self._native.write_smem(address, bytes(data), cta=cta)

    def read_smem(self, address: int, length: int, *, cta: int = 0) -> bytes:
        """``length`` bytes of shared memory (never-written bytes read as 0)."""
        return self._native.read_smem(address, length, cta=cta)[0]

    def write_tmem(self, lane: int, column: int, values: npt.ArrayLike, *, cta: int = 0) -> None:
        """Writes a 2-D array of 32-bit cells (rows are lanes) at (``lane``, ``column``); float32
        values are stored as their bits."""
        import numpy as np

        a = np.asarray(values)
        if a.ndim == 1:
            a = a.reshape(1, -1)
        if a.ndim != 2 or a.dtype.itemsize != 4:
            raise TypeError("write_tmem: expected a 2-D array of 32-bit values")
        words = np.ascontiguousarray(a).view(np.uint32)
        self._native.write_tmem(lane, column, a.shape[1], words.tobytes(), cta=cta)

    def tmem(self, *, cta: int = 0) -> np.ndarray[Any, np.dtype[np.uint32]]:
        """The whole Tensor Memory, 128 lanes x 512 columns of uint32 (unwritten cells as 0)."""
        import numpy as np

        cells, _ = self._native.tmem(cta=cta)
        return np.frombuffer(cells, dtype=np.uint32).reshape(128, 512).copy()

    def tmem_written(self, *, cta: int = 0) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Which Tensor Memory cells were ever written, 128 x 512."""
        import numpy as np

        _, mask = self._native.tmem(cta=cta)
        return np.frombuffer(mask, dtype=np.uint8).reshape(128, 512).astype(bool)

    def registers(self, warp: int = 0, *, cta: int = 0) -> dict[str, list[Optional[int]]]:
        """The registers of ``warp`` written by ``tcgen05.ld``: name -> 32 values."""
        return dict(self._native.registers(warp, cta=cta))

    def allocations(self, *, cta: int = 0) -> list[tuple[int, int]]:
        """The column ranges ``tcgen05.alloc`` holds, as ``(first column, columns)``."""
        return self._native.allocations(cta=cta)

    def set_warp(self, warp: int) -> None:
        """The warp that issues the following ``tcgen05.ld`` / ``.st``."""
        self._native.set_warp(warp)

    def execute(self, line: str) -> Outcome:
        """Executes one instruction line."""
        return self._native.execute(line)

    def run(self, program: str) -> list[Outcome]:
        """Executes a program, one instruction per line (``// @warp N`` sets the issuing warp);
        the error names the first line that fails."""
        return self._native.run(program)

    def last_d(self) -> Optional[np.ndarray[Any, Any]]:
        """D of the last MMA, M x N, as float32, float16 or int32 (None when no MMA ran)."""
        import numpy as np

        r = self._native.last_d()
        if r is None:
            return None
        m, n, d_type, raw = r
        codes = np.frombuffer(raw, dtype=np.uint32).reshape(m, n)
        if d_type == "f16":
            return codes.astype(np.uint16).view(np.float16)
        if d_type == "s32":
            return codes.view(np.int32).copy()
        return codes.view(np.float32).copy()

    def reference_error(self) -> Optional[ReferenceError]:
        """D's largest error in ulps against the exact product of what the MMA read."""
        r = self._native.reference_error()
        return None if r is None else ReferenceError(*r)
