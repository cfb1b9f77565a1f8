"""Run a whole PTX kernel on the CPU, bit for bit, with NumPy arrays as its buffers.

The ``tcgen05-run`` interpreter (the Rust crate behind ``tcgen05 run``) reads the PTX module,
matches the arguments against the kernel's ``.param`` list by kind, size and alignment, and runs
every CTA's warps with the GPU's arithmetic. What it does not model is refused by name and line.

- :func:`launch`: like ``cuLaunchKernel``. A NumPy array is a device buffer (the kernel gets its
  address; the array is modified in place, any dtype: the bytes are what the kernel sees), a
  Python ``int`` or ``float`` a scalar typed by its ``.param`` (an integer that fits the
  parameter's width, a float rounded to ``.f32`` or kept for ``.f64``), ``None`` a null pointer,
  a :class:`TensorMap` a ``CUtensorMap`` with its tensor.
- :class:`TensorMap`: built like ``cuTensorMapEncodeTiled`` from an array, checked with the
  driver's rules (CUDA driver API 6.30) when it is made.
- Errors: :class:`RunError` and its subclasses carry the interpreter's fields as attributes
  (``line``, ``what``, ``why``, ``param``, ``field``, ``value``, ...).
- Hazards: ``launch(..., hazards=True)`` runs the kernel under the hazard checker of
  ``tcgen05 run --hazards`` (data races, reads before an asynchronous operation is known
  complete, missing ``fence.proxy.async``, mbarrier counts and ``expect_tx`` bytes, wrong wait
  parity, deadlocks, Tensor Memory's lifecycle) and returns the list of :class:`Hazard` found
  (empty: none) instead of the :class:`Stats`; ``schedules=N`` adds N seeded schedules.
- Approximations: ``launch(..., approx="ex2=rn,div=rn")`` (or ``approx={"ex2": "rn", "div":
  "rn"}``) computes ``ex2.approx{.ftz}.f32`` and ``div.full{.ftz}.f32`` as the correctly rounded
  function, as ``tcgen05 run --approx`` does; without it they are refused
  (:class:`UnsupportedError` naming the instruction and its line).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Mapping, Optional, Sequence, Union, overload

from . import _native
from ._native import (
    ArgumentError,
    InvalidPtxError,
    LaunchError,
    MemoryAccessError,
    NoKernelError,
    NoProgressError,
    RunError,
    StepLimitError,
    TensorMapError,
    UnsupportedError,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ArgumentError",
    "Hazard",
    "InvalidPtxError",
    "LaunchError",
    "MemoryAccessError",
    "NoKernelError",
    "NoProgressError",
    "Param",
    "RunError",
    "Stats",
    "StepLimitError",
    "TensorMap",
    "TensorMapError",
    "UnsupportedError",
    "Walk",
    "launch",
    "params",
]

Dims = Union[int, Sequence[int]]

#: NumPy dtype names and the ``CUtensorMapDataType`` each is copied as (the tensor memory
#: accelerator copies bytes: int8 and the 8-bit floats travel as UINT8).
_MAP_TYPES = {
    "uint8": "u8", "int8": "u8", "bool": "u8", "uint16": "u16", "int16": "u16",
    "uint32": "u32", "int32": "i32", "uint64": "u64", "int64": "i64", "float16": "f16",
    "float32": "f32", "float64": "f64", "bfloat16": "bf16", "float8_e4m3fn": "u8",
    "float8_e5m2": "u8", "float8_e8m0fnu": "u8", "float4_e2m1fn": "u8",
}


@dataclass(frozen=True)
class Stats:
    """What a run did: CTAs, warp- and thread-instructions executed, matrix multiply-accumulate
    instructions issued (once per warpgroup), bytes of global memory read and written, and the
    wall time of the run in seconds."""

    ctas: int
    warp_instructions: int
    thread_instructions: int
    mmas: int
    bytes_moved: int
    seconds: float


@dataclass(frozen=True)
class Hazard:
    """One hazard the checker found (the fields of ``tcgen05 run --hazards --json``): its
    ``kind`` (``"data-race"``, ``"read-before-complete"``, ``"write-before-complete"``,
    ``"missing-proxy-fence"``, ``"mbarrier-count"``, ``"expect-tx"``, ``"wait-parity"``,
    ``"deadlock"``, ``"tmem-leak"``, ``"dealloc-in-use"``,
    ``"missing-relinquish"``), the PTX ``line`` of the access that shows it and the conflicting
    ``other_line``, the threads (index in their CTA) of each, the ``address`` (shared-window
    offset, global address or Tensor Memory cell), what happened, the rule's ``source`` (a PTX
    ISA section), the CTA (linear index) and the schedule's ``seed`` that first showed it (0:
    the default schedule)."""

    kind: str
    line: int
    other_line: Optional[int]
    thread: Optional[int]
    other_thread: Optional[int]
    address: Optional[int]
    message: str
    source: str
    cta: int
    seed: int


@dataclass(frozen=True)
class Walk:
    """A walk of a kernel's schedules (``launch(..., hazards=True, exhaustive=N)`` or
    ``replay=TOKEN``; ``tcgen05 run --hazards --exhaustive --json``'s fields): the ``mode``
    (``"exhaustive"`` or ``"replay"``), the :class:`Hazard` list of the schedule shown (the first
    counterexample, or the replayed schedule; empty: none), that schedule's ``replay`` token
    (None when every schedule walked was clean; pass it as ``replay=`` to run it again), its
    deadlock or run ``error`` (None: none), the schedules run, the distinct choice points of the
    tree, the most choice points of one schedule, whether every schedule was run
    (``exhausted``) and whether the ``exhaustive`` bound stopped the walk first (``cut``)."""

    mode: str
    hazards: list[Hazard]
    replay: Optional[str]
    error: Optional[str]
    schedules_explored: int
    choice_points: int
    depth: int
    exhausted: bool
    cut: bool


@dataclass(frozen=True)
class Param:
    """One ``.param`` of a kernel: its name, size and alignment in bytes, its PTX type (``U(32)``,
    ``B(8)`` for byte arrays, ...) and whether it is declared ``.ptr``."""

    name: str
    size: int
    align: int
    type: str
    pointer: bool


def _error(cls: type[RunError], message: str, **fields: Any) -> RunError:
    """An exception raised by this module, with the fields the interpreter's own carry."""
    e = cls(message)
    e.kind = cls.__name__.removesuffix("Error")
    for k, v in fields.items():
        setattr(e, k, v)
    return e


def _np() -> Any:
    import numpy

    return numpy


def _dims(name: str, d: Dims) -> tuple[int, int, int]:
    v = [d] if isinstance(d, int) else list(d)
    if not 1 <= len(v) <= 3 or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise TypeError(f"{name}: expected an int or 1 to 3 ints, got {d!r}")
    if any(x < 0 or x >= 1 << 32 for x in v):
        raise _error(LaunchError, f"--{name} {d!r}: each dimension must be in 0..2^32", field=name, value=repr(d),
                     why="each dimension must be in 0..2^32")
    v += [1] * (3 - len(v))
    return (v[0], v[1], v[2])


def _contiguous(what: str, a: Any) -> Any:
    np = _np()
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{what}: expected a NumPy array, got {type(a).__name__}")
    if not a.flags.c_contiguous:
        raise ValueError(
            f"{what}: a {a.shape} array with strides {a.strides} is not C-contiguous; the kernel "
            "gets its address and reads the bytes in order (pass np.ascontiguousarray(a))"
        )
    return a


class TensorMap:
    """A tiled tensor map over ``array`` (``cuTensorMapEncodeTiled``), checked with the CUDA
    driver's rules when it is made (:class:`TensorMapError` lists every problem).

    ``box`` is the box shape in the array's order (outermost dimension first, like
    ``array.shape`` and Triton's ``block_shape``); the driver's ``globalDim``, ``globalStrides``
    and ``boxDim`` are the reverse (innermost first). ``swizzle`` is ``"none"``, ``"32B"``,
    ``"64B"``, ``"128B"`` (or another ``CU_TENSOR_MAP_SWIZZLE_`` suffix); ``element_strides``
    (array order, default all 1), ``interleave`` (``"none"``, ``"16B"``, ``"32B"``),
    ``l2_promotion`` (``"none"``, ``"64B"``, ``"128B"``, ``"256B"``), ``oob_fill`` (``"none"``:
    zeros, ``"nan"``) and ``data_type`` (default from the dtype: ``"f16"``, ``"bf16"``, ``"f32"``,
    ``"u8"``, ...) are the driver's other parameters. ``shape`` and ``strides`` (in elements,
    array order) describe a view of the array's bytes other than its own shape, as Triton's
    ``TensorDescriptor`` does. The array is modified in place by the kernel's stores through the
    map."""

    def __init__(
        self,
        array: np.ndarray[Any, Any],
        box: Sequence[int],
        *,
        swizzle: str = "none",
        element_strides: Optional[Sequence[int]] = None,
        interleave: str = "none",
        l2_promotion: str = "none",
        oob_fill: str = "none",
        data_type: Optional[str] = None,
        shape: Optional[Sequence[int]] = None,
        strides: Optional[Sequence[int]] = None,
    ) -> None:
        a = _contiguous("TensorMap", array)
        if data_type is None:
            data_type = _MAP_TYPES.get(a.dtype.name)
            if data_type is None:
                raise TypeError(
                    f"TensorMap: no CUtensorMapDataType for dtype {a.dtype.name}; pass data_type="
                )
        item = a.dtype.itemsize
        shape = list(a.shape) if shape is None else [int(x) for x in shape]
        if strides is None:
            strides_bytes = [s for s in a.strides]
        else:
            strides_bytes = [int(s) * item for s in strides]
        rank = len(shape)
        estr = [1] * rank if element_strides is None else [int(e) for e in element_strides]
        self.array = a
        self.spec: dict[str, Any] = {
            "data_type": data_type,
            "global_address": 0,
            "global_dim": [int(d) for d in reversed(shape)],
            "global_strides": [int(s) for s in reversed(strides_bytes[:-1])],
            "box_dim": [int(b) for b in reversed(list(box))],
            "element_strides": list(reversed(estr)),
            "interleave": interleave,
            "swizzle": swizzle,
            "l2_promotion": l2_promotion,
            "oob_fill": oob_fill,
        }
        _native._run_check_tensor_map(self.spec, a.nbytes)

    def __repr__(self) -> str:
        s = self.spec
        return (
            f"TensorMap(dtype={self.array.dtype.name}, globalDim={s['global_dim']}, "
            f"globalStrides={s['global_strides']}, boxDim={s['box_dim']}, swizzle={s['swizzle']!r})"
        )


def _read_ptx(ptx: Union[str, os.PathLike[str]]) -> str:
    if isinstance(ptx, os.PathLike) or (isinstance(ptx, str) and "\n" not in ptx and ptx.endswith(".ptx")):
        with open(ptx, encoding="utf-8") as f:
            return f.read()
    if not isinstance(ptx, str):
        raise TypeError(f"ptx: expected the PTX text or a path, got {type(ptx).__name__}")
    return ptx


def params(ptx: Union[str, os.PathLike[str]], kernel: str) -> list[Param]:
    """The ``.param`` list of ``kernel`` in ``ptx`` (the text, or a path to a ``.ptx`` file)."""
    return [Param(*p) for p in _native._run_params(_read_ptx(ptx), kernel)]


def _tag(what: str, v: Any) -> tuple[str, Any]:
    np = _np()
    if v is None:
        return ("null", None)
    if isinstance(v, TensorMap):
        return ("tensormap", (v.spec, v.array.tobytes()))
    if isinstance(v, np.ndarray):
        return ("buffer", _contiguous(what, v).tobytes())
    if isinstance(v, (bool, np.bool_)):
        return ("int", int(v))
    if isinstance(v, (int, np.integer)):
        return ("int", int(v))
    if isinstance(v, (float, np.floating)):
        return ("float", float(v))
    if isinstance(v, (bytes, bytearray)):
        return ("bytes", bytes(v))
    raise TypeError(
        f"{what}: expected a NumPy array, an int, a float, None or a TensorMap, got {type(v).__name__}"
    )


def _ordered(names: list[str], args: Union[Sequence[Any], Mapping[Union[str, int], Any]]) -> list[Any]:
    if not isinstance(args, Mapping):
        return list(args)
    out: list[Any] = []
    missing = []
    for i, n in enumerate(names):
        if n in args:
            out.append(args[n])
        elif i in args:
            out.append(args[i])
        else:
            missing.append(n)
    unknown = [k for k in args if k not in names and not (isinstance(k, int) and 0 <= k < len(names))]
    if missing or unknown:
        why = f"missing {missing}, unknown {unknown} (the kernel's parameters: {names})"
        raise _error(ArgumentError, f"arguments by name: {why}", param=", ".join(missing + [str(u) for u in unknown]),
                     why=why)
    return out


def _check_aliasing(values: list[Any]) -> None:
    np = _np()
    arrays = [(i, v.array if isinstance(v, TensorMap) else v) for i, v in enumerate(values)]
    arrays = [(i, a) for i, a in arrays if isinstance(a, np.ndarray) and a.ndim > 0]
    for x in range(len(arrays)):
        for y in range(x + 1, len(arrays)):
            if np.shares_memory(arrays[x][1], arrays[y][1]):
                why = ("share memory: each argument gets its own buffer in the interpreter, so writes "
                       "through one would not be seen through the other")
                raise _error(ArgumentError, f"arguments {arrays[x][0]} and {arrays[y][0]} {why}",
                             param=f"{arrays[x][0]}, {arrays[y][0]}", why=why)


Args = Union[Sequence[Any], Mapping[Union[str, int], Any]]

#: ``approx=``: the command's ``--approx`` list (``"ex2=rn,div=rn"``) or a mapping from the
#: instruction to its computation (``{"ex2": "rn", "div": "rn"}``); ``None``: none.
Approx = Union[str, Mapping[str, str], None]


def _approx(approx: Approx) -> str:
    """``approx=`` as the command's ``--approx`` text (the interpreter checks each item)."""
    if approx is None:
        return ""
    if isinstance(approx, str):
        return approx
    if isinstance(approx, Mapping):
        for k, v in approx.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError(f"approx: expected str keys and values, got {k!r}: {v!r}")
        return ",".join(f"{k}={v}" for k, v in approx.items())
    raise TypeError(f"approx: expected a str such as 'ex2=rn,div=rn' or a mapping, got {approx!r}")


@overload
def launch(
    ptx: Union[str, os.PathLike[str]], kernel: str, grid: Dims, block: Dims, args: Args,
    cluster: Dims = ..., shared: int = ..., *, max_steps: int = ..., hazards: Literal[False] = ...,
    schedules: int = ..., approx: Approx = ...,
) -> Stats: ...


@overload
def launch(
    ptx: Union[str, os.PathLike[str]], kernel: str, grid: Dims, block: Dims, args: Args,
    cluster: Dims = ..., shared: int = ..., *, max_steps: int = ..., hazards: Literal[True],
    schedules: int = ..., exhaustive: None = ..., replay: None = ..., approx: Approx = ...,
) -> list[Hazard]: ...


@overload
def launch(
    ptx: Union[str, os.PathLike[str]], kernel: str, grid: Dims, block: Dims, args: Args,
    cluster: Dims = ..., shared: int = ..., *, max_steps: int = ..., hazards: Literal[True],
    schedules: int = ..., exhaustive: Optional[int] = ..., replay: Optional[str] = ...,
) -> Walk: ...


def launch(
    ptx: Union[str, os.PathLike[str]],
    kernel: str,
    grid: Dims,
    block: Dims,
    args: Args,
    cluster: Dims = (1, 1, 1),
    shared: int = 0,
    *,
    max_steps: int = 1_000_000_000,
    hazards: bool = False,
    schedules: int = 0,
    exhaustive: Optional[int] = None,
    replay: Optional[str] = None,
    approx: Approx = None,
) -> Union[Stats, list[Hazard], Walk]:
    """Runs ``kernel`` of ``ptx`` (the PTX text, or a path to a ``.ptx`` file) over ``grid`` CTAs
    of ``block`` threads, with ``shared`` bytes of dynamic shared memory.

    ``args`` gives one value per ``.param``, in order, or a mapping from parameter names (or
    positions) to values. Arrays (and the arrays of tensor maps) are modified in place. Raises a
    :class:`RunError` subclass naming what stopped the run; ``max_steps`` bounds the
    warp-instructions executed (:class:`StepLimitError`).

    With ``hazards=True`` the run is made under the hazard checker (the default schedule, then
    ``schedules`` seeded ones) and the list of :class:`Hazard` found is returned (empty: none;
    a deadlock is a hazard, not an error); the arrays receive the default schedule's bytes.
    ``exhaustive=N`` walks every schedule at the synchronisation choice points instead (at most
    N; ``tcgen05 run --hazards --exhaustive``), stopping at the first that shows a hazard, a
    deadlock or a run error, and ``replay=TOKEN`` runs the one schedule of a token; either
    returns a :class:`Walk` (the arrays receive the first schedule's bytes).

    ``approx`` (``"ex2=rn,div=rn"`` or ``{"ex2": "rn", "div": "rn"}``, as ``tcgen05 run
    --approx``) computes those approximate instructions as correctly rounded; without it a
    kernel that executes one is refused (:class:`UnsupportedError`), and an unknown item is a
    :class:`LaunchError` naming it (not with ``exhaustive`` or ``replay``: ``ValueError``)."""
    if (exhaustive is not None or replay is not None) and not hazards:
        raise TypeError("exhaustive= and replay= need hazards=True")
    stats, found, _, walk = _launch(ptx, kernel, grid, block, args, cluster, shared, max_steps, hazards, schedules,
                                    exhaustive, replay, approx)
    if walk is not None:
        return walk
    if hazards:
        return found
    assert stats is not None
    return stats


def _launch(
    ptx: Union[str, os.PathLike[str]], kernel: str, grid: Dims, block: Dims, args: Args, cluster: Dims,
    shared: int, max_steps: int, hazards: bool, schedules: int, exhaustive: Optional[int] = None,
    replay: Optional[str] = None, approx: Approx = None,
) -> tuple[Optional[Stats], list[Hazard], int, Optional[Walk]]:
    """:func:`launch`'s work: (the run's stats, None when a hazard run ended in a deadlock or
    walked schedules; the hazards found; the runs made; the walk, with ``exhaustive`` or
    ``replay``)."""
    spec = _approx(approx)
    text = _read_ptx(ptx)
    names = [p[0] for p in _native._run_params(text, kernel)]
    values = _ordered(names, args)
    _check_aliasing(values)
    tagged = [_tag(names[i] if i < len(names) else f"argument {i}", v) for i, v in enumerate(values)]
    dims = (_dims("grid", grid), _dims("block", block), _dims("cluster", cluster))
    found: list[Hazard] = []
    runs = 1
    walk: Optional[Walk] = None
    if hazards:
        if isinstance(schedules, bool) or not isinstance(schedules, int) or not 0 <= schedules < 1 << 32:
            raise TypeError(f"schedules: expected an int in 0..2^32, got {schedules!r}")
        if exhaustive is not None and (isinstance(exhaustive, bool) or not isinstance(exhaustive, int)
                                       or not 1 <= exhaustive < 1 << 32):
            raise TypeError(f"exhaustive: expected the most schedules to run, an int in 1..2^32, got {exhaustive!r}")
        if replay is not None and not isinstance(replay, str):
            raise TypeError(f"replay: expected a token (choice indices joined by dots), got {replay!r}")
        if (exhaustive is not None or replay is not None) and schedules:
            raise TypeError("schedules= samples schedules; exhaustive= and replay= walk them: give one")
        stats_d, rows, runs, outs, walked = _native._run_hazards(text, kernel, *dims, shared, tagged, max_steps,
                                                                 schedules, exhaustive, replay, spec)
        found = [Hazard(**r) for r in rows]
        if walked is not None:
            walk = Walk(hazards=found, **walked)
    else:
        stats_d, outs = _native._run_launch(text, kernel, *dims, shared, tagged, max_steps, spec)
    np = _np()
    for v, out in zip(values, outs):
        target = v.array if isinstance(v, TensorMap) else v
        if out is None or not isinstance(target, np.ndarray):
            continue
        flat = target.reshape(-1).view(np.uint8)
        new = np.frombuffer(out, dtype=np.uint8)
        if not np.array_equal(flat, new):
            flat[:] = new
    return (None if stats_d is None else Stats(**stats_d)), found, runs, walk
