# Type stubs of the native module (crates/tcgen05-py/src). Every docstring's PTX citation is in
# the Rust source's doc comments, which PyO3 turns into the runtime docstrings.
from typing import Optional, Sequence, Union, final

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
        m: int,
        n: int,
        sparse: Optional[bool] = None,
        sparsity_selector: Optional[int] = None,
        saturate: Optional[bool] = None,
        negate_a: Optional[bool] = None,
        negate_b: Optional[bool] = None,
        transpose_a: Optional[bool] = None,
        transpose_b: Optional[bool] = None,
        max_shift: Optional[int] = None,
        scale_type: Optional[str] = None,
        sfa_id: Optional[int] = None,
        sfb_id: Optional[int] = None,
        k96: Optional[bool] = None,
    ) -> None: ...
    @staticmethod
    def encode(
        *,
        kind: str,
        d_type: str,
        a_type: str,
        b_type: str,
        m: int,
        n: int,
        sparse: Optional[bool] = None,
        sparsity_selector: Optional[int] = None,
        saturate: Optional[bool] = None,
        negate_a: Optional[bool] = None,
        negate_b: Optional[bool] = None,
        transpose_a: Optional[bool] = None,
        transpose_b: Optional[bool] = None,
        max_shift: Optional[int] = None,
        scale_type: Optional[str] = None,
        sfa_id: Optional[int] = None,
        sfb_id: Optional[int] = None,
        k96: Optional[bool] = None,
    ) -> InstructionDescriptor: ...
    @staticmethod
    def decode(raw: int, *, kind: str) -> InstructionDescriptor: ...
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
    def _repr_html_(self) -> str: ...

@final
class SmemDescriptor:
    """The 64-bit shared memory descriptor (PTX ISA 9.7.16.4.1, Tables 40-41); bytes."""

    def __init__(
        self,
        *,
        start_address: int,
        leading_byte_offset: int,
        stride_byte_offset: int,
        swizzle: str,
        base_offset: Optional[int] = None,
        lbo_mode: Optional[str] = None,
        target: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def encode(
        *,
        start_address: int,
        leading_byte_offset: int,
        stride_byte_offset: int,
        swizzle: str,
        base_offset: Optional[int] = None,
        lbo_mode: Optional[str] = None,
        target: Optional[str] = None,
    ) -> SmemDescriptor: ...
    @staticmethod
    def decode(raw: int, *, target: Optional[str] = None) -> SmemDescriptor: ...
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
        skip_span: Optional[int] = None,
        use_span: Optional[int] = None,
        column_shift: Optional[int] = None,
        m: Optional[int] = None,
        n: Optional[int] = None,
        max_shift: Optional[int] = None,
    ) -> None: ...
    @staticmethod
    def encode(
        *,
        start_count: Optional[Sequence[int]] = None,
        first_span: Optional[Sequence[bool]] = None,
        non_zero_mask: Optional[bool] = None,
        skip_span: Optional[int] = None,
        use_span: Optional[int] = None,
        column_shift: Optional[int] = None,
        m: Optional[int] = None,
        n: Optional[int] = None,
        max_shift: Optional[int] = None,
    ) -> ZeroColumnMask: ...
    @staticmethod
    def decode(
        raw: int,
        *,
        m: Optional[int] = None,
        n: Optional[int] = None,
        max_shift: Optional[int] = None,
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
    def column_mask(self, m: int, n: int) -> list[bool]: ...
    def to_dict(self) -> dict[str, Union[int, bool, list[int], list[bool]]]: ...
    def rows(self) -> list[BitRow]: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
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

def valid_kinds(raw: int) -> list[str]: ...
def shapes(
    *,
    kind: Optional[str] = None,
    cta_group: Optional[int] = None,
    target: Optional[str] = None,
    ws: Optional[bool] = None,
    sparse: Optional[bool] = None,
) -> list[Shape]: ...
def decode_idesc_records(data: bytes, kind: str, threads: Optional[int] = None) -> bytearray: ...
def decode_smem_records(data: bytes, target: str, threads: Optional[int] = None) -> bytearray: ...
