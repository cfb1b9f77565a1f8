"""Encode, decode and check NVIDIA Blackwell ``tcgen05`` descriptors and MMA shapes.

Python bindings of the ``tcgen05`` Rust crate: every rule, encoding and decoding is the crate's
(PTX ISA 9.7.16 and the project's ``rules.md``); this package reads Python arguments
strictly and renders the answers as Python objects.

- :class:`InstructionDescriptor`: the 32-bit ``idesc`` (PTX ISA 9.7.16.4.2, Tables 42-44).
- :class:`SmemDescriptor`: the 64-bit shared memory descriptor (9.7.16.4.1, Tables 40-41).
- :class:`ZeroColumnMask`: the zero-column mask descriptor of ``.ws`` (9.7.16.4.3, Table 45).
- :func:`valid_kinds`, :func:`shapes`: the kinds a raw ``idesc`` is valid for; Table 39.
- :func:`decode_idesc`, :func:`decode_smem`: NumPy arrays of raw values to structured arrays.
- :class:`TileLayout`, :class:`MatrixLayout`, :func:`agreement`: shared memory layouts (9.7.16.10.4-6).
- :mod:`tcgen05.tmem`: Tensor Memory maps (``ld``/``st`` fragments, D, A, scale factors).
- :mod:`tcgen05.ptx`: every PTX builder; :func:`check_ptx`: check a whole PTX module.
- :mod:`tcgen05.numerics`: the tensor cores' arithmetic; :class:`Emulator`: the functional model.
- :mod:`tcgen05.run`: whole PTX kernels on the CPU (``launch``, ``TensorMap``);
  :mod:`tcgen05.triton`: ``@triton.jit`` kernels compiled by Triton and run there (imported on
  demand: ``import tcgen05.triton``).

A bad value raises :class:`DescriptorError` (a ``ValueError``) whose ``problems`` lists every
problem found (``field``, ``value``, ``message``, ``source``); an argument of the wrong Python
type raises ``TypeError``.
"""

from typing import Any

from . import numerics, ptx, run, scales, tmem
from ._batch import decode_idesc, decode_smem
from ._emulate import Emulator, Outcome
from ._layout import Agreement, MatrixLayout, TensorCopyBox, TileLayout, agreement
from ._native import (
    ELEMENT_TYPES,
    KINDS,
    LBO_MODES,
    SCALE_TYPES,
    SWIZZLES,
    TARGETS,
    BitRow,
    CheckedInstruction,
    CheckReport,
    DescriptorError,
    EmulationError,
    Finding,
    KnownBits,
    InstructionDescriptor,
    Problem,
    Shape,
    SmemDescriptor,
    ZeroColumnMask,
    __version__,
    check_ptx,
    explain,
    shapes,
    valid_kinds,
)

__all__ = [
    "Agreement",
    "CheckReport",
    "CheckedInstruction",
    "ELEMENT_TYPES",
    "EmulationError",
    "Emulator",
    "Finding",
    "KnownBits",
    "MatrixLayout",
    "Outcome",
    "TensorCopyBox",
    "TileLayout",
    "agreement",
    "check_ptx",
    "explain",
    "numerics",
    "ptx",
    "run",
    "scales",
    "tmem",
    "IDESC_DTYPE",
    "KINDS",
    "LBO_MODES",
    "SCALE_TYPES",
    "SMEM_DTYPE",
    "SWIZZLES",
    "TARGETS",
    "BitRow",
    "DescriptorError",
    "InstructionDescriptor",
    "Problem",
    "Shape",
    "SmemDescriptor",
    "ZeroColumnMask",
    "__version__",
    "decode_idesc",
    "decode_smem",
    "shapes",
    "valid_kinds",
]


def __getattr__(name: str) -> Any:
    # The NumPy dtypes are built on first use: importing tcgen05 does not need NumPy.
    if name in ("IDESC_DTYPE", "SMEM_DTYPE"):
        from . import _batch

        return getattr(_batch, name)
    raise AttributeError(f"module 'tcgen05' has no attribute {name!r}")
