"""Run a ``@triton.jit`` kernel on the CPU: Triton's own compiler (no GPU needed) and the
``tcgen05-run`` interpreter, with NumPy arrays in place of torch tensors.

A Triton user changes one line::

    kernel[grid](x, y, out, n, BLOCK=1024)                   # on a GPU, torch tensors
    tcgen05.triton.run(kernel, grid, x, y, out, n, BLOCK=1024)  # on the CPU, NumPy arrays

and the arrays are modified in place as the GPU would modify the tensors.

What it does, as ``JITFunction.run`` and Triton's CUDA launcher do (Triton 3.9.0):

- binds the arguments with Triton's own binder (constexpr and ``do_not_specialize``
  parameters, defaults, the specialisation of integers equal to 1 and of 16-divisible integers
  and pointers) and compiles with ``triton.compile`` for ``target`` (``"sm_100a"`` by default,
  ``"sm_90a"``, ...; any ``sm_NN[a]``), with the meta options ``num_warps``, ``num_stages``,
  ``num_ctas``, ... (a compiled kernel is kept for the next call with the same specialisation);
- the grid is an int, a tuple, or a callable of the bound arguments (``lambda meta: ...``);
  the block is ``32 * num_warps`` threads, the dynamic shared memory the compiler's; with
  ``num_ctas > 1`` the grid's x is multiplied by it and the CTAs form clusters of ``num_ctas``;
- the kernel's PTX parameters are its non-constexpr arguments in order, a host-side tensor
  descriptor expanded to (``CUtensorMap``, shape, strides) with the swizzle, element type and
  block the compiler chose (``metadata.tensordesc_meta``), then the ``global_scratch`` and
  ``profile_scratch`` buffers (zeroed, ``size x grid x num_ctas`` bytes; null when the compiler
  asks none), as the launcher passes them.

With ``hazards=True`` the kernel runs under the hazard checker of ``tcgen05 run --hazards``
(``schedules=N`` adds N seeded schedules) and :func:`run` returns a :class:`Checked`: the
:class:`tcgen05.run.Hazard` list (empty: none) with the PTX its lines refer to. ``approx=``
(``"ex2=rn,div=rn"`` or ``{"ex2": "rn", "div": "rn"}``) is :func:`tcgen05.run.launch`'s: what
``tl.math.exp2`` and ``/`` compile to (``ex2.approx.ftz.f32``, ``div.full.f32``) computed as
correctly rounded; without it such a kernel is refused at that instruction.

Arrays: any dtype with a Triton counterpart (bool, int8-64, uint8-64, float16/32/64, and
``ml_dtypes`` bfloat16, float8_e4m3fn, float8_e5m2); :func:`pointer` gives an array another
element type (uint16 bits as bf16, ...). Host-side descriptors: :func:`tensor_descriptor` (the
NumPy counterpart of ``TensorDescriptor.from_tensor``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence, Union, overload

from . import run as _run
from .run import Hazard, Stats, Walk

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Checked", "Launched", "pointer", "run", "tensor_descriptor"]

#: NumPy dtype names and the Triton element type of a pointer to them.
_TRITON_TYPES = {
    "bool": "int1", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float16": "float16", "float32": "float32", "float64": "float64", "bfloat16": "bfloat16",
    "float8_e4m3fn": "float8e4nv", "float8_e5m2": "float8e5",
}

# Triton's device-side TMA element codes to the driver's CUtensorMapDataType (the table of
# triton/backends/nvidia/driver.py, TMA_DTYPE_DEVICE_TO_HOST) and the TF32 code.
_DEVICE_TO_HOST = {i: i for i in range(16)}
_DEVICE_TO_HOST.update({8: 10, 9: 8, 10: 9})
_TMA_TF32 = 11
_DATA_TYPE_NAMES = ["u8", "u16", "u32", "i32", "u64", "i64", "f16", "f32", "f64", "bf16",
                    "FLOAT32_FTZ", "tf32", "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B",
                    "16U6_ALIGN16B"]
_SWIZZLE_NAMES = ["none", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B",
                  "128B_ATOM_64B"]


def _tl() -> Any:
    # Triton warns when this is unset; 1 is its default (FP fusion on).
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    import triton.language as tl  # type: ignore[import-untyped,unused-ignore]

    return tl


class _Array:
    """An array as Triton's binder sees a tensor: a Triton element type and a 16-byte aligned
    address (every buffer of the interpreter is)."""

    def __init__(self, array: Any, dtype: Any) -> None:
        self.array = array
        self.dtype = dtype

    @staticmethod
    def data_ptr() -> int:
        return 0


def pointer(array: np.ndarray[Any, Any], dtype: Any) -> Any:
    """``array`` passed as a pointer to ``dtype`` (a ``triton.language`` type or its name:
    ``"bfloat16"``, ``"float8e4nv"``, ...), whatever its NumPy dtype: the bytes are what the
    kernel reads."""
    tl = _tl()
    return _Array(_run._contiguous("pointer", array), getattr(tl, dtype) if isinstance(dtype, str) else dtype)


def _wrap(what: str, v: Any) -> Any:
    import numpy

    if isinstance(v, numpy.ndarray):
        name = _TRITON_TYPES.get(v.dtype.name)
        if name is None:
            raise TypeError(f"{what}: no Triton element type for dtype {v.dtype.name}; use tcgen05.triton.pointer(array, dtype)")
        return _Array(_run._contiguous(what, v), getattr(_tl(), name))
    return v


def tensor_descriptor(array: np.ndarray[Any, Any], block_shape: Sequence[int], padding: str = "zero",
                      round_f32_to_tf32: bool = False) -> Any:
    """A host-side ``triton.tools.tensor_descriptor.TensorDescriptor`` over ``array`` (its
    shape, its strides in elements, ``block_shape``), as ``TensorDescriptor.from_tensor`` makes
    one from a tensor; Triton's own checks apply."""
    from triton.tools.tensor_descriptor import TensorDescriptor  # type: ignore[import-untyped,unused-ignore]

    a = _wrap("tensor_descriptor", array)
    item = array.dtype.itemsize
    strides = [s // item for s in array.strides]
    return TensorDescriptor(a, list(array.shape), strides, list(block_shape), padding, round_f32_to_tf32)


def _target(name: str) -> Any:
    from triton.backends.compiler import GPUTarget  # type: ignore[import-untyped,unused-ignore]

    m = re.fullmatch(r"sm_(\d+)[af]?", name)
    if m is None:
        raise ValueError(f"target={name!r}: expected sm_NN, sm_NNa or sm_NNf (sm_100a, sm_90a, ...)")
    return GPUTarget("cuda", int(m.group(1)), 32)


@dataclass(frozen=True)
class Launched:
    """A Triton kernel run: its PTX name, the grid, block, cluster and dynamic shared memory it
    ran with, the PTX Triton wrote, and the run's :class:`tcgen05.run.Stats`."""

    name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    cluster: tuple[int, int, int]
    shared: int
    ptx: str
    stats: Stats


@dataclass(frozen=True)
class Checked:
    """A Triton kernel run under the hazard checker (``run(..., hazards=True)``): its PTX name,
    the grid, block, cluster and dynamic shared memory it ran with, the PTX Triton wrote (the
    lines the hazards name are its lines), the :class:`tcgen05.run.Hazard` list found (empty:
    none), the runs made (the default schedule and the seeded ones), and the default schedule's
    :class:`tcgen05.run.Stats` (None when that run ended in a deadlock, itself a hazard, or
    when the schedules were walked); with ``exhaustive=`` or ``replay=``, the
    :class:`tcgen05.run.Walk` (its ``replay`` token reproduces the counterexample)."""

    name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    cluster: tuple[int, int, int]
    shared: int
    ptx: str
    hazards: list[Hazard]
    runs: int
    stats: Optional[Stats]
    walk: Optional[Walk] = None


_compiled: dict[Any, Any] = {}


def _compile(fn: Any, target_name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Triton's bind, specialise and compile: (compiled kernel, bound arguments, signature)."""
    from triton.compiler import ASTSource, compile, make_backend  # type: ignore[import-untyped,unused-ignore]
    from triton.runtime.jit import create_function_from_signature  # type: ignore[import-untyped,unused-ignore]

    target = _target(target_name)
    backend = make_backend(target)
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    kwargs = dict(kwargs)
    kwargs.setdefault("debug", bool(getattr(fn, "debug", False)))
    bound, specialization, options = binder(*args, **kwargs)
    key = (fn, target_name, repr(specialization), repr(sorted(options.items())))
    hit = _compiled.get(key)
    if hit is not None:
        return hit[0], bound, hit[1]
    opts, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound, specialization, options)
    kernel = compile(ASTSource(fn, signature, constexprs, attrs), target=target, options=opts.__dict__)
    _compiled[key] = (kernel, signature)
    return kernel, bound, signature


def _grid(grid: Any, bound: dict[str, Any]) -> tuple[int, int, int]:
    given = grid(bound) if callable(grid) else grid
    g = [int(given)] if isinstance(given, int) else [int(x) for x in given]
    if not 1 <= len(g) <= 3:
        raise ValueError(f"grid: expected 1 to 3 dimensions, got {given!r}")
    g += [1] * (3 - len(g))
    return (g[0], g[1], g[2])


def _descriptor_map(desc: Any, meta: Optional[dict[str, Any]]) -> list[Any]:
    """A host-side descriptor as Triton's launcher expands it: the map, then shape and
    strides (``make_tensordesc_arg`` of triton/backends/nvidia/driver.py)."""
    base = desc.base
    if not isinstance(base, _Array):
        raise TypeError("a TensorDescriptor over a torch tensor: build it with tcgen05.triton.tensor_descriptor(array, block_shape)")
    shape, strides = [int(s) for s in desc.shape], [int(s) for s in desc.strides]
    if meta is None:
        return [base, *shape, *strides, desc.padding == "nan", desc.round_f32_to_tf32, *shape, *strides]
    if meta.get("is_im2col", False):
        why = "im2col tensor maps are not modelled by tcgen05 run (tiled maps only)"
        raise _run._error(_run.TensorMapError, f"cuTensorMapEncodeIm2col: {why}", field="cuTensorMapEncodeIm2col",
                          value="im2col", why=why, problems=[("cuTensorMapEncodeIm2col", "im2col", why)])
    elem = int(meta["elem_size"])
    code = _TMA_TF32 if desc.round_f32_to_tf32 else _DEVICE_TO_HOST[int(meta["elem_type"])]
    expanded = list(shape)
    if meta["fp4_padded"]:
        expanded[-1] *= 2
    data = base.array
    item = data.dtype.itemsize
    m = _run.TensorMap(
        data,
        [int(b) for b in meta["block_size"]],
        swizzle=_SWIZZLE_NAMES[int(meta["swizzle"])],
        l2_promotion="128B",
        oob_fill="nan" if desc.padding == "nan" else "none",
        data_type=_DATA_TYPE_NAMES[code],
        shape=expanded,
        strides=[s * elem // item for s in strides],
    )
    return [m, *shape, *strides]


def _kernel_args(fn: Any, bound: dict[str, Any], signature: dict[str, Any], metadata: Any,
                 grid: tuple[int, int, int]) -> list[Any]:
    descs = list(getattr(metadata, "tensordesc_meta", None) or [])
    out: list[Any] = []
    d = 0
    for p in fn.params:
        ty = signature[p.name]
        v = bound[p.name]
        if ty == "constexpr":
            continue
        if isinstance(ty, str) and ty.startswith("tensordesc"):
            out.extend(_descriptor_map(v, descs[d] if descs else None))
            d += 1
        elif isinstance(v, _Array):
            out.append(v.array)
        else:
            out.append(v)
    programs = grid[0] * grid[1] * grid[2] * int(getattr(metadata, "num_ctas", 1))
    import numpy

    for size in (metadata.global_scratch_size, metadata.profile_scratch_size):
        out.append(numpy.zeros(size * programs, dtype=numpy.uint8) if size > 0 else None)
    return [o.array if isinstance(o, _Array) else o for o in out]


Grid = Union[int, Sequence[int], Callable[[dict[str, Any]], Any]]


@overload
def run(fn: Any, grid: Grid, *args: Any, target: str = ..., max_steps: int = ...,
        hazards: Literal[False] = ..., schedules: int = ..., approx: _run.Approx = ...,
        **kwargs: Any) -> Launched: ...


@overload
def run(fn: Any, grid: Grid, *args: Any, target: str = ..., max_steps: int = ...,
        hazards: Literal[True], schedules: int = ..., exhaustive: Optional[int] = ...,
        replay: Optional[str] = ..., approx: _run.Approx = ...,
        **kwargs: Any) -> Checked: ...


def run(fn: Any, grid: Grid, *args: Any, target: str = "sm_100a", max_steps: int = 1_000_000_000,
        hazards: bool = False, schedules: int = 0, exhaustive: Optional[int] = None,
        replay: Optional[str] = None, approx: _run.Approx = None,
        **kwargs: Any) -> Union[Launched, Checked]:
    """Compiles ``fn`` (a ``@triton.jit`` function, under ``@triton.heuristics`` too) for ``target`` with Triton and runs it over
    ``grid`` with ``args`` and ``kwargs`` as ``fn[grid](*args, **kwargs)`` would, NumPy arrays
    in place of tensors (modified in place). Meta options (``num_warps``, ``num_stages``,
    ``num_ctas``, ...) go in ``kwargs`` as with Triton. Raises Triton's errors for the
    compilation and :class:`tcgen05.run.RunError` subclasses for the run. With ``hazards=True``
    (and ``schedules=N``) the run is made under the hazard checker and a :class:`Checked` is
    returned; ``exhaustive=N`` walks every schedule at the choice points instead (at most N)
    and ``replay=TOKEN`` runs one (:func:`tcgen05.run.launch`). ``approx`` is :func:`tcgen05.run.launch`'s
    (``"ex2=rn,div=rn"``)."""
    from triton.runtime.autotuner import Heuristics  # type: ignore[import-untyped,unused-ignore]
    from triton.runtime.jit import JITFunction  # type: ignore[import-untyped,unused-ignore]

    # @triton.heuristics: each value computed from the arguments, as Heuristics.run does.
    while isinstance(fn, Heuristics):
        for name, heur in fn.values.items():
            kwargs[name] = heur({**dict(zip(fn.arg_names, args)), **kwargs})
        fn = fn.fn
    if not isinstance(fn, JITFunction):
        raise TypeError(
            f"expected a @triton.jit function, got {type(fn).__name__} (for an autotuned kernel, pass "
            "its .fn with the chosen config's meta as keyword arguments: there is nothing to time on a CPU)"
        )
    wrapped = tuple(_wrap(f"argument {i}", a) for i, a in enumerate(args))
    kw = {k: _wrap(k, v) for k, v in kwargs.items()}
    kernel, bound, signature = _compile(fn, target, wrapped, kw)
    md = kernel.metadata
    g = _grid(grid, {k: (v.array if isinstance(v, _Array) else v) for k, v in bound.items()})
    num_ctas = int(getattr(md, "num_ctas", 1))
    launch_grid = (g[0] * num_ctas, g[1], g[2])
    cluster = (num_ctas, 1, 1)
    block = (32 * int(md.num_warps), 1, 1)
    values = _kernel_args(fn, bound, signature, md, g)
    ptx = kernel.asm["ptx"]
    if (exhaustive is not None or replay is not None) and not hazards:
        raise TypeError("exhaustive= and replay= need hazards=True")
    if hazards:
        st, found, runs, walk = _run._launch(ptx, md.name, launch_grid, block, values, cluster, int(md.shared),
                                             max_steps, True, schedules, exhaustive, replay, approx)
        return Checked(md.name, launch_grid, block, cluster, int(md.shared), ptx, found, runs, st, walk)
    stats = _run.launch(ptx, md.name, launch_grid, block, values, cluster, int(md.shared), max_steps=max_steps,
                        approx=approx)
    return Launched(md.name, launch_grid, block, cluster, int(md.shared), ptx, stats)

