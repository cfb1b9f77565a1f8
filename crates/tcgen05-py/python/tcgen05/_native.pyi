# Type stubs of the native module (crates/tcgen05-py/src). Every docstring's PTX citation is in
# the Rust source's doc comments, which PyO3 turns into the runtime docstrings.
import os
from typing import Any, Optional, Sequence, SupportsIndex, Union, final

KINDS: tuple[str, ...]
ELEMENT_TYPES: tuple[str, ...]
TARGETS: tuple[str, ...]
SWIZZLES: tuple[str, ...]
LBO_MODES: tuple[str, ...]
SCALE_TYPES: tuple[str, ...]
IDESC_RECORD: list[tuple[str, str, int]]
IDESC_RECORD_SIZE: int
SMEM_RECORD: list[tuple[str, str, int]]
SMEM_RECORD_SIZE: int
__version__: str

class DescriptorError(ValueError):
    """A value breaks one or more rules; ``problems`` lists every one."""

    problems: list[Problem]

@final
class Problem:
    """One error or warning: field, value, message and the rule's source."""

    @property
    def field(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def value(self) -> Union[int, str]: ...
    @property
    def is_error(self) -> bool: ...

@final
class BitRow:
    """One row of a descriptor's bit table."""

    @property
    def lo(self) -> int: ...
    @property
    def hi(self) -> int: ...
    @property
    def field(self) -> str: ...
    @property
    def raw(self) -> int: ...
    @property
    def meaning(self) -> str: ...

@final
class InstructionDescriptor:
    """The 32-bit instruction descriptor (PTX ISA 9.7.16.4.2, Tables 42-44)."""

    def __init__(
        self,
        *,
        kind: str,
        d_type: str,
        a_type: str,
        b_type: str,
        m: SupportsIndex,
        n: SupportsIndex,
        sparse: Optional[bool] = None,
        sparsity_selector: Optional[SupportsIndex] = None,
        saturate: Optional[bool] = None,
        negate_a: Optional[bool] = None,
        negate_b: Optional[bool] = None,
        transpose_a: Optional[bool] = None,
        transpose_b: Optional[bool] = None,
        max_shift: Optional[SupportsIndex] = None,
        scale_type: Optional[str] = None,
        sfa_id: Optional[SupportsIndex] = None,
        sfb_id: Optional[SupportsIndex] = None,
        k96: Optional[bool] = None,
    ) -> None: ...
    @staticmethod
    def encode(
        *,
        kind: str,
        d_type: str,
        a_type: str,
        b_type: str,
        m: SupportsIndex,
        n: SupportsIndex,
        sparse: Optional[bool] = None,
        sparsity_selector: Optional[SupportsIndex] = None,
        saturate: Optional[bool] = None,
        negate_a: Optional[bool] = None,
        negate_b: Optional[bool] = None,
        transpose_a: Optional[bool] = None,
        transpose_b: Optional[bool] = None,
        max_shift: Optional[SupportsIndex] = None,
        scale_type: Optional[str] = None,
        sfa_id: Optional[SupportsIndex] = None,
        sfb_id: Optional[SupportsIndex] = None,
        k96: Optional[bool] = None,
    ) -> InstructionDescriptor: ...
    @staticmethod
    def decode(raw: SupportsIndex, *, kind: str) -> InstructionDescriptor: ...
    @property
    def bits(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def table(self) -> int: ...
    @property
    def m(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def k(self) -> Optional[int]: ...
    @property
    def d_type(self) -> Optional[str]: ...
    @property
    def a_type(self) -> Optional[str]: ...
    @property
    def b_type(self) -> Optional[str]: ...
    @property
    def sparse(self) -> bool: ...
    @property
    def sparsity_selector(self) -> int: ...
    @property
    def saturate(self) -> bool: ...
    @property
    def negate_a(self) -> bool: ...
    @property
    def negate_b(self) -> bool: ...
    @property
    def transpose_a(self) -> bool: ...
    @property
    def transpose_b(self) -> bool: ...
    @property
    def max_shift(self) -> int: ...
    @property
    def scale_type(self) -> Optional[str]: ...
    @property
    def sfa_id(self) -> int: ...
    @property
    def sfb_id(self) -> int: ...
    @property
    def k96(self) -> bool: ...
    @property
    def valid(self) -> bool: ...
    @property
    def errors(self) -> list[Problem]: ...
    @property
    def warnings(self) -> list[Problem]: ...
    def to_dict(self) -> dict[str, Union[int, str, bool, None]]: ...
    def rows(self) -> list[BitRow]: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def _repr_html_(self) -> str: ...

@final
class SmemDescriptor:
    """The 64-bit shared memory descriptor (PTX ISA 9.7.16.4.1, Tables 40-41); bytes."""

    def __init__(
        self,
        *,
        start_address: SupportsIndex,
        leading_byte_offset: SupportsIndex,
        stride_byte_offset: SupportsIndex,
        swizzle: str,
        base_offset: Optional[SupportsIndex] = None,
        lbo_mode: Optional[str] = None,
        target: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def encode(
        *,
        start_address: SupportsIndex,
        leading_byte_offset: SupportsIndex,
        stride_byte_offset: SupportsIndex,
        swizzle: str,
        base_offset: Optional[SupportsIndex] = None,
        lbo_mode: Optional[str] = None,
        target: Optional[str] = None,
    ) -> SmemDescriptor: ...
    @staticmethod
    def decode(raw: SupportsIndex, *, target: Optional[str] = None) -> SmemDescriptor: ...
    @property
    def bits(self) -> int: ...
    @property
    def target(self) -> str: ...
    @property
    def start_address(self) -> int: ...
    @property
    def leading_byte_offset(self) -> int: ...
    @property
    def stride_byte_offset(self) -> int: ...
    @property
    def base_offset(self) -> int: ...
    @property
    def lbo_mode(self) -> str: ...
    @property
    def swizzle(self) -> Optional[str]: ...
    @property
    def valid(self) -> bool: ...
    @property
    def errors(self) -> list[Problem]: ...
    @property
    def warnings(self) -> list[Problem]: ...
    def to_dict(self) -> dict[str, Union[int, str, None]]: ...
    def rows(self) -> list[BitRow]: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def _repr_html_(self) -> str: ...

@final
class ZeroColumnMask:
    """The zero-column mask descriptor of ``.ws`` MMAs (PTX ISA 9.7.16.4.3, Table 45)."""

    def __init__(
        self,
        *,
        start_count: Optional[Sequence[int]] = None,
        first_span: Optional[Sequence[bool]] = None,
        non_zero_mask: Optional[bool] = None,
        skip_span: Optional[SupportsIndex] = None,
        use_span: Optional[SupportsIndex] = None,
        column_shift: Optional[SupportsIndex] = None,
        m: Optional[SupportsIndex] = None,
        n: Optional[SupportsIndex] = None,
        max_shift: Optional[SupportsIndex] = None,
    ) -> None: ...
    @staticmethod
    def encode(
        *,
        start_count: Optional[Sequence[int]] = None,
        first_span: Optional[Sequence[bool]] = None,
        non_zero_mask: Optional[bool] = None,
        skip_span: Optional[SupportsIndex] = None,
        use_span: Optional[SupportsIndex] = None,
        column_shift: Optional[SupportsIndex] = None,
        m: Optional[SupportsIndex] = None,
        n: Optional[SupportsIndex] = None,
        max_shift: Optional[SupportsIndex] = None,
    ) -> ZeroColumnMask: ...
    @staticmethod
    def decode(
        raw: SupportsIndex,
        *,
        m: Optional[SupportsIndex] = None,
        n: Optional[SupportsIndex] = None,
        max_shift: Optional[SupportsIndex] = None,
    ) -> ZeroColumnMask: ...
    @property
    def bits(self) -> int: ...
    @property
    def start_count(self) -> list[int]: ...
    @property
    def first_span(self) -> list[bool]: ...
    @property
    def non_zero_mask(self) -> bool: ...
    @property
    def skip_span(self) -> int: ...
    @property
    def use_span(self) -> int: ...
    @property
    def column_shift(self) -> int: ...
    @property
    def valid(self) -> bool: ...
    @property
    def errors(self) -> list[Problem]: ...
    @property
    def warnings(self) -> list[Problem]: ...
    def column_mask(self, m: SupportsIndex, n: SupportsIndex) -> list[bool]: ...
    def to_dict(self) -> dict[str, Union[int, bool, list[int], list[bool]]]: ...
    def rows(self) -> list[BitRow]: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def _repr_html_(self) -> str: ...

@final
class Shape:
    """One valid MMA shape of Table 39 (PTX ISA 9.7.16.2.1)."""

    @property
    def kind(self) -> str: ...
    @property
    def cta_group(self) -> int: ...
    @property
    def ws(self) -> bool: ...
    @property
    def sparse(self) -> bool: ...
    @property
    def m(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def k(self) -> int: ...

def valid_kinds(raw: SupportsIndex) -> list[str]: ...
def explain(name: str) -> dict[str, list[dict[str, str | None]]]: ...
def shapes(
    *,
    kind: Optional[str] = None,
    cta_group: Optional[SupportsIndex] = None,
    target: Optional[str] = None,
    ws: Optional[bool] = None,
    sparse: Optional[bool] = None,
) -> list[Shape]: ...
def decode_idesc_records(data: bytes, kind: str, threads: Optional[SupportsIndex] = None) -> bytearray: ...
def decode_smem_records(data: bytes, target: str, threads: Optional[SupportsIndex] = None) -> bytearray: ...

# --- PTX builders (src/ptx.rs; PTX ISA 9.7.16.7-9.7.16.11) -----------------------------------

def ptx_mma(
    *,
    cta_group: SupportsIndex,
    kind: str,
    d: str,
    a: str,
    b: str,
    idesc: Union[str, int],
    enable_input_d: Union[str, bool],
    a_tmem: Optional[bool] = None,
    ws: Optional[bool] = None,
    sparse_metadata: Optional[str] = None,
    scale_vec: Optional[str] = None,
    scale_a: Optional[str] = None,
    scale_b: Optional[str] = None,
    collector: Optional[str] = None,
    ashift: Optional[bool] = None,
    disable_output_lane: Optional[Sequence[str]] = None,
    scale_input_d: Optional[SupportsIndex] = None,
    zero_column_mask: Optional[Union[str, int]] = None,
    target: Optional[str] = None,
    version: Optional[SupportsIndex] = None,
    syntax: Optional[str] = None,
) -> str: ...
def ptx_ld(
    *,
    shape: str,
    num: str,
    dst: Sequence[str],
    taddr: str,
    pack: Optional[bool] = None,
    offset: Optional[SupportsIndex] = None,
    red: Optional[str] = None,
    red_type: Optional[str] = None,
    redval: Optional[str] = None,
    red_abs: Optional[bool] = None,
    red_nan: Optional[bool] = None,
    target: Optional[str] = None,
    version: Optional[SupportsIndex] = None,
    syntax: Optional[str] = None,
) -> str: ...
def ptx_st(
    *,
    shape: str,
    num: str,
    taddr: str,
    src: Sequence[str],
    unpack: Optional[bool] = None,
    offset: Optional[SupportsIndex] = None,
    target: Optional[str] = None,
    version: Optional[SupportsIndex] = None,
    syntax: Optional[str] = None,
) -> str: ...
def ptx_cp(
    *,
    cta_group: SupportsIndex,
    shape: str,
    taddr: str,
    sdesc: Union[str, int],
    multicast: Optional[str] = None,
    source_format: Optional[str] = None,
    target: Optional[str] = None,
    version: Optional[SupportsIndex] = None,
    syntax: Optional[str] = None,
) -> str: ...
def ptx_group_op(
    op: str,
    *,
    cta_group: SupportsIndex,
    taddr: Optional[str] = None,
    dst: Optional[str] = None,
    n_cols: Optional[Union[str, int]] = None,
    mbar: Optional[str] = None,
    multicast: Optional[Union[str, int]] = None,
    target: Optional[str] = None,
    version: Optional[SupportsIndex] = None,
    syntax: Optional[str] = None,
) -> str: ...
def ptx_fence_wait(
    op: str, which: str, *, target: Optional[str] = None, version: Optional[SupportsIndex] = None
) -> str: ...
def ptx_preamble(*, target: Optional[str] = None, version: Optional[SupportsIndex] = None) -> str: ...

# --- check_ptx (src/check.rs) -----------------------------------------------------------------

@final
class Finding:
    """One error or warning about one instruction."""

    @property
    def severity(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def operand(self) -> Optional[str]: ...
    @property
    def field(self) -> str: ...
    @property
    def value(self) -> Union[int, str]: ...
    @property
    def message(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def line(self) -> int: ...

@final
class KnownBits:
    """The proven bits of a descriptor operand."""

    @property
    def known(self) -> int: ...
    @property
    def value(self) -> int: ...

@final
class CheckedInstruction:
    """What the checker knows of one tcgen05 instruction."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def instruction(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def function(self) -> Optional[str]: ...
    @property
    def kind(self) -> Optional[str]: ...
    @property
    def idesc(self) -> Optional[int]: ...
    @property
    def idesc_bits(self) -> Optional[KnownBits]: ...
    @property
    def a_desc(self) -> Optional[KnownBits]: ...
    @property
    def b_desc(self) -> Optional[KnownBits]: ...
    @property
    def s_desc(self) -> Optional[KnownBits]: ...
    @property
    def findings(self) -> list[Finding]: ...
    @property
    def errors(self) -> list[Finding]: ...
    @property
    def warnings(self) -> list[Finding]: ...

@final
class CheckReport:
    """The result of checking one PTX module."""

    @property
    def target(self) -> Optional[str]: ...
    @property
    def instructions(self) -> list[CheckedInstruction]: ...
    @property
    def read_problems(self) -> list[tuple[int, int, str]]: ...
    @property
    def statements(self) -> int: ...
    @property
    def errors(self) -> int: ...
    @property
    def warnings(self) -> int: ...
    @property
    def ok(self) -> bool: ...

def check_ptx(
    text: Union[str, bytes, "os.PathLike[str]"], *, target: Optional[str] = None
) -> CheckReport: ...

# --- numerics (src/numerics.rs) ---------------------------------------------------------------

@final
class Term:
    """One term of the fused sum."""

    @property
    def term(self) -> str: ...
    @property
    def value(self) -> str: ...
    @property
    def align_exp(self) -> int: ...
    @property
    def zero(self) -> bool: ...
    @property
    def kept(self) -> int: ...
    @property
    def dropped_bits(self) -> int: ...

@final
class Dot:
    """One instruction's result on one dot product, with its explanation."""

    @property
    def d_bits(self) -> int: ...
    @property
    def d(self) -> Union[float, int]: ...
    @property
    def d_type(self) -> str: ...
    @property
    def exact(self) -> Optional[str]: ...
    @property
    def special(self) -> Optional[str]: ...
    @property
    def e_max(self) -> Optional[int]: ...
    @property
    def sum(self) -> int: ...
    @property
    def terms(self) -> list[Term]: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def f(self) -> Optional[int]: ...
    @property
    def evidence(self) -> list[str]: ...

def numerics_dot(
    *,
    arch: str,
    kind: str,
    a_type: str,
    b_type: str,
    a: Sequence[Union[int, float]],
    b: Sequence[Union[int, float]],
    d_type: Optional[str] = None,
    scale_type: Optional[str] = None,
    block: Optional[SupportsIndex] = None,
    instruction: Optional[str] = None,
    c: Optional[Union[int, float]] = None,
    sfa: Optional[Sequence[Union[int, float]]] = None,
    sfb: Optional[Sequence[Union[int, float]]] = None,
    satfinite: bool = False,
    codes: bool = False,
) -> Dot: ...
def numerics_form(
    *,
    arch: str,
    kind: str,
    a_type: str,
    b_type: str,
    d_type: Optional[str] = None,
    scale_type: Optional[str] = None,
    block: Optional[SupportsIndex] = None,
    instruction: Optional[str] = None,
) -> tuple[int, str, Optional[str], Optional[int], str]: ...
def numerics_mma_codes(
    *,
    arch: str,
    kind: str,
    a_type: str,
    b_type: str,
    m: SupportsIndex,
    n: SupportsIndex,
    a: bytes,
    b: bytes,
    c: bytes,
    sfa: bytes,
    sfb: bytes,
    d_type: Optional[str] = None,
    scale_type: Optional[str] = None,
    block: Optional[SupportsIndex] = None,
    instruction: Optional[str] = None,
    satfinite: bool = False,
) -> bytes: ...
def numerics_rows() -> list[
    tuple[str, str, str, str, str, str, Optional[str], Optional[int], str, Optional[int]]
]: ...

def numerics_encode(format: str, value: Union[SupportsIndex, float]) -> int: ...
def numerics_decode(format: str, code: SupportsIndex) -> Union[int, float]: ...

# --- layouts (src/layout.rs) ------------------------------------------------------------------

@final
class _TileLayout:
    def __init__(
        self,
        *,
        element_type: str,
        major: str,
        swizzle: str,
        mn: SupportsIndex,
        k: SupportsIndex,
        kind: Optional[str] = None,
        start_address: Optional[SupportsIndex] = None,
        order: Optional[str] = None,
        anchor: Optional[str] = None,
        k_per_block: Optional[SupportsIndex] = None,
    ) -> None: ...
    @property
    def k_blocks(self) -> int: ...
    @property
    def atom(self) -> tuple[int, int]: ...
    @property
    def atom_bytes(self) -> int: ...
    @property
    def k_per_block(self) -> int: ...
    @property
    def storage(self) -> tuple[int, int]: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    def descriptor_bits(self, k_block: SupportsIndex, *, target: Optional[str] = None) -> int: ...
    def locations(self) -> bytes: ...
    def svg(self, *, operand: str = "a") -> str: ...

@final
class _MatrixLayout:
    def __init__(
        self,
        descriptor: SupportsIndex,
        *,
        element_type: str,
        major: str,
        mn: SupportsIndex,
        k: SupportsIndex,
        kind: Optional[str] = None,
        target: Optional[str] = None,
    ) -> None: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    def locations(self) -> bytes: ...
    def address(self, mn: SupportsIndex, k: SupportsIndex) -> tuple[int, int]: ...
    def elements_at(self, address: SupportsIndex) -> list[tuple[int, int]]: ...
    def check(self, *, buffer: Optional[tuple[int, int]] = None) -> list[Problem]: ...
    def svg(self, *, operand: str = "a", buffer: Optional[tuple[int, int]] = None) -> str: ...

def _agreement(
    layout: _MatrixLayout,
    boxes: Sequence[tuple[str, int, int, int, int, int]],
    *,
    k_start: SupportsIndex = 0,
) -> tuple[Any, ...]: ...

# --- Tensor Memory maps (src/tmem.rs) ---------------------------------------------------------

def _ld_fragment(
    shape: str, num: str, *, pack: bool = False, offset: Optional[SupportsIndex] = None
) -> tuple[bytes, int, int, int]: ...
def _d_layout(
    m: SupportsIndex, n: SupportsIndex, *, cta_group: Optional[SupportsIndex] = None, ws: bool = False, sparse: bool = False
) -> tuple[str, int, int, bytes]: ...
def _a_layout(
    m: SupportsIndex,
    k: SupportsIndex,
    bits: SupportsIndex,
    *,
    cta_group: Optional[SupportsIndex] = None,
    ws: bool = False,
    sparse: bool = False,
) -> tuple[str, bytes]: ...
def _sf_layout(
    operand: str,
    m: SupportsIndex,
    n: SupportsIndex,
    scale_vec: str,
    *,
    sf_id: SupportsIndex = 0,
    cta_group: Optional[SupportsIndex] = None,
    ws: bool = False,
) -> tuple[int, int, int, bytes]: ...
def _sf_offsets(
    layout: str, rows: int, k_blocks: int, *, batches: int = 1, format: str = "ue8m0", vec: int = 32
) -> tuple[bytes, int]: ...
def _sf_check_chain(
    host: str, rows: int, k_blocks: int, *, cp: str = "32x128b.warpx4"
) -> tuple[
    int,
    Optional[
        tuple[
            int, int, int, Optional[tuple[int, int]], tuple[int, int, int, int], Optional[int],
            Optional[int], Optional[tuple[int, int]],
        ]
    ],
]: ...
def _svg_sf_global(
    layout: str, rows: int, k_blocks: int, *, batches: int = 1, format: str = "ue8m0", vec: int = 32
) -> str: ...
def _svg_sf_chain(host: str, rows: int, k_blocks: int, *, cp: str = "32x128b.warpx4") -> str: ...

def _svg_ld(shape: str, num: str, *, pack: bool = False, offset: Optional[SupportsIndex] = None) -> str: ...
def _svg_d(
    m: SupportsIndex, n: SupportsIndex, *, cta_group: Optional[SupportsIndex] = None, ws: bool = False, sparse: bool = False
) -> str: ...
def _svg_cp(shape: str, *, multicast: Optional[str] = None) -> str: ...
def _svg_sf(
    operand: str, m: SupportsIndex, n: SupportsIndex, scale_vec: str, *, sf_id: SupportsIndex = 0, cta_group: Any = None,
    ws: bool = False,
) -> str: ...

# --- the functional model (src/emulate.rs) ----------------------------------------------------

class EmulationError(DescriptorError):
    """An instruction broke one or more rules and changed nothing."""

    line: int

@final
class Outcome:
    """What one executed instruction did."""

    @property
    def opcode(self) -> str: ...
    @property
    def effect(self) -> str: ...
    @property
    def warnings(self) -> list[Problem]: ...

class _Emulator:
    def __init__(self, *, target: Optional[str] = None, random_inputs: Optional[SupportsIndex] = None) -> None: ...
    @property
    def target(self) -> str: ...
    check_allocation: bool
    def set_warp(self, warp: SupportsIndex) -> None: ...
    def write_smem(self, address: SupportsIndex, data: bytes, *, cta: SupportsIndex = 0) -> None: ...
    def read_smem(self, address: SupportsIndex, length: SupportsIndex, *, cta: SupportsIndex = 0) -> tuple[bytes, list[int]]: ...
    def write_tmem(
        self, lane: SupportsIndex, column: SupportsIndex, columns: SupportsIndex, words: bytes, *, cta: SupportsIndex = 0
    ) -> None: ...
    def tmem(self, *, cta: SupportsIndex = 0) -> tuple[bytes, bytes]: ...
    def registers(self, warp: SupportsIndex = 0, *, cta: SupportsIndex = 0) -> list[tuple[str, list[Optional[int]]]]: ...
    def allocations(self, *, cta: SupportsIndex = 0) -> list[tuple[int, int]]: ...
    def execute(self, line: str) -> Outcome: ...
    def run(self, program: str) -> list[Outcome]: ...
    def last_d(self) -> Optional[tuple[int, int, str, bytes]]: ...
    def reference_error(self) -> Optional[tuple[float, tuple[int, int], int, int]]: ...

# tcgen05.run: whole kernels through the tcgen05-run interpreter.

class RunError(Exception):
    """A kernel could not be run, or its run stopped; ``kind`` names the interpreter's error and
    its fields are attributes."""

    kind: str

class UnsupportedError(RunError):
    """An instruction, qualifier, directive or state space the interpreter does not model."""

    line: int
    what: str
    why: str

class InvalidPtxError(RunError):
    """A statement that is not valid PTX."""

    line: int
    what: str
    why: str

class NoKernelError(RunError):
    """No ``.entry`` of that name."""

    name: str
    available: list[str]

class ArgumentError(RunError):
    """The arguments do not match the kernel's ``.param`` list."""

    param: str
    why: str

class LaunchError(RunError):
    """A launch configuration outside the limits."""

    field: str
    value: str
    why: str

class MemoryAccessError(RunError):
    """An access outside every buffer, or misaligned."""

    line: int
    space: str
    address: int
    size: int
    why: str

class StepLimitError(RunError):
    """The run exceeded its limit of warp-instructions."""

    limit: int

class NoProgressError(RunError):
    """No warp of a CTA can make progress."""

    cta: tuple[int, int, int]
    waiting: str

class TensorMapError(RunError):
    """Tensor map parameters that break cuTensorMapEncodeTiled's rules or that the interpreter
    does not model; ``problems`` lists every one as (field, value, why)."""

    field: str
    value: str
    why: str
    problems: list[tuple[str, str, str]]

def _run_launch(
    ptx: str,
    kernel: str,
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    cluster: tuple[int, int, int],
    shared: int,
    args: list[tuple[str, Any]],
    max_steps: int,
    approx: str = ...,
) -> tuple[dict[str, Any], list[Optional[bytes]]]: ...
def _run_hazards(
    ptx: str,
    kernel: str,
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    cluster: tuple[int, int, int],
    shared: int,
    args: list[tuple[str, Any]],
    max_steps: int,
    schedules: int,
    exhaustive: Optional[int] = None,
    replay: Optional[str] = None,
    approx: str = ...,
) -> tuple[
    Optional[dict[str, Any]], list[dict[str, Any]], int, list[Optional[bytes]], Optional[dict[str, Any]]
]: ...
def _run_params(ptx: str, kernel: str) -> list[tuple[str, int, int, str, bool]]: ...
def _run_check_tensor_map(spec: dict[str, Any], data_len: int) -> None: ...
