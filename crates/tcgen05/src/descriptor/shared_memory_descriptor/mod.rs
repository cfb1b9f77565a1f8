//! The 64-bit shared memory descriptor (matrix descriptor) of `tcgen05.mma`: where an operand
//! matrix lies in shared memory and how it is laid out (PTX ISA 9.7.16.4.1, Tables 40-41).
//!
//! CUTLASS calls this value `UMMA::SmemDescriptor`. Its layout is [`SMEM_LAYOUT`]; the rules that
//! the PTX text leaves open are decided by decisions.md R1-R7:
//!
//! - **R1** bits 46-48 always hold 0b001 and bits 53-60 are zero (Table 40's "0xb00000000" is a
//!   typo for eight zero bits).
//! - **R2** bits 14-15 and 30-31 are reserved: encoded as zero, reported bit by bit when set.
//! - **R3** every API takes **bytes** and applies Table 40's
//!   `matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4` itself. A byte value that is not 16-byte
//!   aligned or does not fit in 18 bits is an error naming the field and the value; it is never
//!   masked. Decoded byte fields are the field value times 16.
//! - **R4** the base offset is 0 when the swizzle pattern starts on its repeat boundary (Table 41)
//!   and `(pattern_start >> 7) & 7` otherwise ([`base_offset_for`]); without swizzling a non-zero
//!   base offset has no meaning and is a warning.
//! - **R5** the absolute leading-dimension mode (bit 52) exists only on `sm_103a` (target note
//!   9.7.16.4.1.1), only with 128-Byte swizzling and base offset 0. It is also only for K-major
//!   operands, which a descriptor does not record: that part is the caller's to check.
//! - **R6** the leading byte offset of a swizzled K-major operand is unused by the hardware; the
//!   encoder writes whatever it is given and the decoder does not object.
//! - **R7** advancing along K adds `bytes >> 4` to the start-address field
//!   ([`SmemDescriptor::advance_k`], [`SmemDescriptor::advance_k_unchecked`]).
//!
//! # Decision in this crate: pattern starts that are not on a 128-byte line
//!
//! Table 41 says the base offset is 0 when the repeating pattern starts on its boundary and
//! "otherwise ... must be a non-zero value, computed using `(pattern start addr >> 0x7) & 0x7`".
//! The formula can give 0 for a pattern that is *not* on its boundary: with 128-Byte swizzling a
//! pattern starting at 1024 + 64 = 0x440 gives `(0x440 >> 7) & 7 = 0`, and so does a 64-Byte
//! pattern at 2048 + 16 = 0x810. The text then demands a value that cannot be both non-zero and
//! the formula's. Every such address lies inside a 128-byte line: the swizzle patterns permute
//! 16-byte chunks *within* 128-byte lines and the base offset counts whole lines, so a pattern
//! that starts part-way into a line cannot be described by any base offset. This crate therefore
//! rejects, with [`SmemError::PatternStartNotLineAligned`], any swizzled pattern start that is
//! neither on its repeat boundary nor a multiple of 128 bytes (a strict superset of the
//! contradictory cases, and the only ones where the field cannot express the pattern's phase).
//! Every other off-boundary start is a multiple of 128 not on its boundary, for which the formula
//! is always non-zero, as Table 41 requires.
//!
//! Two consequences worth knowing: a pattern start *on* its boundary gets 0 even where the formula
//! would not give 0 (64-Byte swizzling at 0x600 gives 0, not `(0x600 >> 7) & 7 = 4`), as R4 says;
//! and the 128-Byte-with-32B-atomicity mode uses the 1024-byte boundary of 128-Byte swizzling
//! (R4), although its XOR pattern itself repeats every 512 bytes (ptx-beyond-seeds.md §1.6).
//!
//! # Examples
//!
//! CUTLASS 4.2's descriptor for a K-major bf16 128x64 tile with 128-Byte swizzling at shared
//! address 0x400, and its advance to the next 16-element K block (32 bytes):
//!
//! ```
//! use tcgen05::shared_memory_descriptor::{SmemDescriptor, SmemFields, Swizzle};
//! use tcgen05::Target;
//!
//! const A: SmemDescriptor = SmemDescriptor::new(
//!     SmemFields::new(0x400, 16, 1024, Swizzle::B128),
//!     Target::Sm100a,
//! );
//! assert_eq!(A.bits(), 0x4000_4040_0001_0040);
//! assert_eq!(A.advance_k(32)?.bits(), 0x4000_4040_0001_0042);
//! # Ok::<(), tcgen05::shared_memory_descriptor::SmemError>(())
//! ```
//!
//! A start address that is not 16-byte aligned is refused, never masked (R3); in a `const` item
//! the mistake stops the build:
//!
//! ```compile_fail
//! use tcgen05::shared_memory_descriptor::{SmemDescriptor, SmemFields, Swizzle};
//! use tcgen05::Target;
//!
//! const A: SmemDescriptor = SmemDescriptor::new(
//!     SmemFields::new(0x408, 16, 1024, Swizzle::B128),
//!     Target::Sm100a,
//! );
//! ```

use core::fmt;

use crate::bit_layout;
use crate::bits::{Addressing, BitField, CodeName, LayoutField, Meaning, Role, RowValue, Word};
use crate::diagnostic::{Diagnostic, Diagnostics, OneLine, Rule, RuleSource, Severity, Source};
use crate::mma::bytes_eq;
use crate::targets::Target;

/// A run of bits of the shared memory descriptor: the six fields of Table 40, its two fixed
/// constants and the two unnamed (reserved) pairs of bits.
///
/// The discriminant is the row's index in [`SMEM_LAYOUT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SmemField {
    /// Bits 0-13: matrix-descriptor-encode(matrix start address).
    StartAddress,
    /// Bits 14-15: not described by Table 40; reserved (decisions.md R2).
    Reserved14To15,
    /// Bits 16-29: matrix-descriptor-encode(leading dimension byte offset), or of the leading
    /// dimension byte address in absolute mode.
    LeadingByteOffset,
    /// Bits 30-31: not described by Table 40; reserved (decisions.md R2).
    Reserved30To31,
    /// Bits 32-45: matrix-descriptor-encode(stride dimension byte offset).
    StrideByteOffset,
    /// Bits 46-48: the fixed constant 0b001 (decisions.md R1; CUTLASS's 2-bit `version_` = 1).
    Fixed46To48,
    /// Bits 49-51: matrix base offset (Table 41).
    BaseOffset,
    /// Bit 52: leading dimension stride mode (0 relative, 1 absolute).
    LboMode,
    /// Bits 53-60: the fixed constant 0 (decisions.md R1).
    Fixed53To60,
    /// Bits 61-63: swizzling mode.
    Swizzle,
}

impl SmemField {
    /// Every row, in bit order (the order of [`SMEM_LAYOUT`]).
    pub const ALL: [SmemField; 10] = [
        SmemField::StartAddress,
        SmemField::Reserved14To15,
        SmemField::LeadingByteOffset,
        SmemField::Reserved30To31,
        SmemField::StrideByteOffset,
        SmemField::Fixed46To48,
        SmemField::BaseOffset,
        SmemField::LboMode,
        SmemField::Fixed53To60,
        SmemField::Swizzle,
    ];

    /// The field's JSON key in the command-line tool, for example `"leading_byte_offset"` or
    /// `"fixed_46_48"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SmemField::StartAddress => "start_address",
            SmemField::Reserved14To15 => "reserved_14_15",
            SmemField::LeadingByteOffset => "leading_byte_offset",
            SmemField::Reserved30To31 => "reserved_30_31",
            SmemField::StrideByteOffset => "stride_byte_offset",
            SmemField::Fixed46To48 => "fixed_46_48",
            SmemField::BaseOffset => "base_offset",
            SmemField::LboMode => "lbo_mode",
            SmemField::Fixed53To60 => "fixed_53_60",
            SmemField::Swizzle => "swizzle",
        }
    }

    /// Parses a JSON key as given by [`SmemField::name`].
    #[must_use]
    pub const fn from_name(name: &str) -> Option<SmemField> {
        let mut i = 0;
        while i < SmemField::ALL.len() {
            if bytes_eq(name.as_bytes(), SmemField::ALL[i].name().as_bytes()) {
                return Some(SmemField::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// The field's row of [`SMEM_LAYOUT`]: its bits, role, PTX wording and source.
    #[must_use]
    pub const fn row(self) -> &'static BitField<SmemField> {
        // In bounds: a compile-time check below proves row i describes `ALL[i]`.
        &SMEM_LAYOUT[self as usize]
    }

    /// How the field is described in PTX wording (used in error messages).
    const fn ptx_words(self) -> &'static str {
        match self {
            SmemField::StartAddress => "matrix start address",
            SmemField::LeadingByteOffset => "leading dimension byte offset",
            SmemField::StrideByteOffset => "stride dimension byte offset",
            SmemField::BaseOffset => "matrix base offset",
            SmemField::LboMode => "leading dimension stride mode",
            SmemField::Swizzle => "swizzling mode",
            SmemField::Reserved14To15 | SmemField::Reserved30To31 => "reserved bits",
            SmemField::Fixed46To48 | SmemField::Fixed53To60 => "fixed constant bits",
        }
    }
}

impl fmt::Display for SmemField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl LayoutField for SmemField {
    fn name(self) -> &'static str {
        SmemField::name(self)
    }
}

/// Meaning of bits 0-13: `matrix-descriptor-encode(matrix start address)`, a byte address in
/// 16-byte units (Table 40; decisions.md R3).
pub const START_ADDRESS_BYTES: Meaning = Meaning::Bytes {
    shift: UNIT_SHIFT as u8,
    addressing: Addressing::Address,
};

/// Meaning of bits 16-29: the leading dimension byte offset in 16-byte units, or its byte
/// address while bit 52 selects the absolute mode (Table 40; decisions.md R3, R5).
pub const LEADING_BYTES: Meaning = Meaning::Bytes {
    shift: UNIT_SHIFT as u8,
    addressing: Addressing::AddressWhenBit(52),
};

/// Meaning of bits 32-45: the stride dimension byte offset in 16-byte units (Table 40;
/// decisions.md R3).
pub const STRIDE_BYTES: Meaning = Meaning::Bytes {
    shift: UNIT_SHIFT as u8,
    addressing: Addressing::Offset,
};

/// Meaning of bits 49-51: the matrix base offset, in 128-byte lines (Table 41), which means
/// nothing without swizzling, that is while bits 61-63 are zero (decisions.md R4).
pub const BASE_OFFSET_LINES: Meaning = Meaning::Gated {
    needs: 0b111 << 61,
    note: " (no meaning without swizzling)",
};

/// The leading dimension stride modes of bit 52 (Table 40), from [`LboMode::ALL`].
pub const LBO_MODE_CODES: [CodeName; 2] = {
    let mut t = [CodeName {
        code: 0,
        name: "",
        words: "",
    }; 2];
    let mut i = 0;
    while i < t.len() {
        let m = LboMode::ALL[i];
        t[i] = CodeName {
            code: m.code(),
            name: m.name(),
            words: m.description(),
        };
        i += 1;
    }
    t
};

/// Meaning of bit 52: a code of [`LBO_MODE_CODES`] (Table 40).
pub const LBO_MODE_CODE: Meaning = Meaning::Code(&LBO_MODE_CODES);

/// The swizzling modes of bits 61-63 (Table 40), from [`Swizzle::ALL`]; codes 3, 5 and 7 are
/// missing because they are invalid.
pub const SWIZZLE_CODES: [CodeName; 5] = {
    let mut t = [CodeName {
        code: 0,
        name: "",
        words: "",
    }; 5];
    let mut i = 0;
    while i < t.len() {
        let s = Swizzle::ALL[i];
        t[i] = CodeName {
            code: s.code(),
            name: s.name(),
            words: s.description(),
        };
        i += 1;
    }
    t
};

/// Meaning of bits 61-63: a code of [`SWIZZLE_CODES`] (Table 40).
pub const SWIZZLE_CODE: Meaning = Meaning::Code(&SWIZZLE_CODES);

/// The entry of [`SWIZZLE_CODES`] for a mode.
const fn swizzle_value(swizzle: Swizzle) -> RowValue {
    let mut i = 0;
    while i < SWIZZLE_CODES.len() {
        if SWIZZLE_CODES[i].code == swizzle.code() {
            return RowValue::Name(&SWIZZLE_CODES[i]);
        }
        i += 1;
    }
    RowValue::InvalidCode(swizzle.code() as u64)
}

bit_layout! {
    /// The 64 bits of the shared memory descriptor (PTX ISA 9.7.16.4.1, Table 40), with the
    /// unnamed bits (decisions.md R2) and the corrected fixed constant (decisions.md R1).
    ///
    /// The byte fields hold `matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4`: the byte value in
    /// units of 16 bytes (decisions.md R3).
    pub const SMEM_LAYOUT: [BitField<SmemField>; 64 bits] = {
        0 ..= 13  StartAddress      value: START_ADDRESS_BYTES "matrix-descriptor-encode (Matrix start address)" (Table 40);
        14 ..= 15 Reserved14To15    reserved      "Not described by Table 40; reserved on sm_100a and sm_103a" (R 2);
        16 ..= 29 LeadingByteOffset value: LEADING_BYTES "matrix-descriptor-encode (Leading dimension byte offset relative) OR matrix-descriptor-encode (Leading dimension byte address absolute)" (Table 40);
        30 ..= 31 Reserved30To31    reserved      "Not described by Table 40; reserved on sm_100a and sm_103a" (R 2);
        32 ..= 45 StrideByteOffset  value: STRIDE_BYTES  "matrix-descriptor-encode (Stride dimension byte offset)" (Table 40);
        46 ..= 48 Fixed46To48       fixed = 0b001 "Fixed constant value of 0b001" (Table 40);
        49 ..= 51 BaseOffset        value: BASE_OFFSET_LINES "Matrix base offset" (Table 40);
        52 ..= 52 LboMode           value: LBO_MODE_CODE "Leading dimension stride mode: 0: byte offset relative, 1: byte address absolute" (Table 40);
        53 ..= 60 Fixed53To60       fixed = 0     "Fixed constant value of 0 (printed 0xb00000000, a typo for eight zero bits)" (R 1);
        61 ..= 63 Swizzle           value: SWIZZLE_CODE  "Specifies the swizzling mode to be used" (Table 40);
    }
}

// Row i of the table describes `SmemField::ALL[i]`, so `SmemField::row` indexes in bounds; entry
// i of `LBO_MODE_CODES` is code i; the base offset's meaning names the swizzle's bits.
const _: () = {
    assert!(LBO_MODE_CODES[0].code == 0 && LBO_MODE_CODES[1].code == 1);
    assert!(match BASE_OFFSET_LINES {
        Meaning::Gated { needs, .. } => needs == SmemField::Swizzle.row().mask(),
        _ => false,
    });
    assert!(SMEM_LAYOUT.len() == SmemField::ALL.len());
    let mut i = 0;
    while i < SMEM_LAYOUT.len() {
        assert!(SMEM_LAYOUT[i].field as usize == i);
        assert!(SmemField::ALL[i] as usize == i);
        i += 1;
    }
};

/// The byte fields are stored in units of 16 bytes (Table 40: `(x & 0x3FFFF) >> 4`).
const UNIT_SHIFT: u32 = 4;

/// Bytes per swizzle line: the base offset counts 128-byte lines (Table 41's `>> 0x7`).
pub const SWIZZLE_LINE_BYTES: u32 = 128;

/// How many problems one descriptor or one set of fields can have at most, with room to spare.
pub const SMEM_DIAGNOSTICS_CAPACITY: usize = 16;

/// Every problem found in one shared memory descriptor.
pub type SmemDiagnostics = Diagnostics<SmemError, SMEM_DIAGNOSTICS_CAPACITY>;

/// The swizzling mode of bits 61-63 (Table 40), with its PTX code as discriminant.
///
/// Codes 3, 5 and 7 are invalid. The code of each mode except
/// [`Swizzle::B128Base32B`] is twice Hopper's `wgmma` layout type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum Swizzle {
    /// 0: no swizzling (CUTLASS `SWIZZLE_NONE`, the "interleave" layout).
    #[default]
    None = 0,
    /// 1: 128-Byte with 32B atomic swizzling (CUTLASS `SWIZZLE_128B_BASE32B`); MN-major tf32
    /// only (decisions.md R18).
    B128Base32B = 1,
    /// 2: 128-Byte swizzling (CUTLASS `SWIZZLE_128B`).
    B128 = 2,
    /// 4: 64-Byte swizzling (CUTLASS `SWIZZLE_64B`).
    B64 = 4,
    /// 6: 32-Byte swizzling (CUTLASS `SWIZZLE_32B`).
    B32 = 6,
}

impl Swizzle {
    /// Every mode, in code order.
    pub const ALL: [Swizzle; 5] = [
        Swizzle::None,
        Swizzle::B128Base32B,
        Swizzle::B128,
        Swizzle::B64,
        Swizzle::B32,
    ];

    /// The 3-bit code of bits 61-63.
    #[must_use]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The mode of a code of bits 61-63.
    ///
    /// # Errors
    /// [`SmemError::InvalidSwizzle`], keeping the code, for 3, 5, 7 (Table 40: "Values 3, 5 and 7
    /// are invalid") and for anything above 7.
    pub const fn from_code(code: u8) -> Result<Swizzle, SmemError> {
        match code {
            0 => Ok(Swizzle::None),
            1 => Ok(Swizzle::B128Base32B),
            2 => Ok(Swizzle::B128),
            4 => Ok(Swizzle::B64),
            6 => Ok(Swizzle::B32),
            _ => Err(SmemError::InvalidSwizzle { code }),
        }
    }

    /// The mode's short name, used by the command-line tool: `"none"`, `"128B_base32B"`,
    /// `"128B"`, `"64B"` or `"32B"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Swizzle::None => "none",
            Swizzle::B128Base32B => "128B_base32B",
            Swizzle::B128 => "128B",
            Swizzle::B64 => "64B",
            Swizzle::B32 => "32B",
        }
    }

    /// Parses a name as given by [`Swizzle::name`].
    #[must_use]
    pub const fn from_name(name: &str) -> Option<Swizzle> {
        let mut i = 0;
        while i < Swizzle::ALL.len() {
            if bytes_eq(name.as_bytes(), Swizzle::ALL[i].name().as_bytes()) {
                return Some(Swizzle::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// The mode in Table 40's words, for example `"128-Byte with 32B atomic swizzling"`.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Swizzle::None => "No swizzling",
            Swizzle::B128Base32B => "128-Byte with 32B atomic swizzling",
            Swizzle::B128 => "128-Byte swizzling",
            Swizzle::B64 => "64-Byte swizzling",
            Swizzle::B32 => "32-Byte swizzling",
        }
    }

    /// True for every mode except [`Swizzle::None`].
    #[must_use]
    pub const fn is_swizzled(self) -> bool {
        !matches!(self, Swizzle::None)
    }

    /// The boundary on which the mode's repeating pattern starts with base offset 0 (Table 41,
    /// decisions.md R4): 1024 bytes for 128-Byte swizzling with either atomicity, 512 for 64-Byte,
    /// 256 for 32-Byte; `None` without swizzling (there is no pattern).
    #[must_use]
    pub const fn repeat_bytes(self) -> Option<u32> {
        match self {
            Swizzle::None => None,
            Swizzle::B128Base32B | Swizzle::B128 => Some(1024),
            Swizzle::B64 => Some(512),
            Swizzle::B32 => Some(256),
        }
    }

    /// Bytes of one row of the swizzle atom along the contiguous dimension: 16 without
    /// swizzling, otherwise 32, 64 or 128 (PTX ISA 9.7.16.10.6 Table 55).
    #[must_use]
    pub const fn width_bytes(self) -> u32 {
        match self {
            Swizzle::None => 16,
            Swizzle::B32 => 32,
            Swizzle::B64 => 64,
            Swizzle::B128 | Swizzle::B128Base32B => 128,
        }
    }

    /// The unit the swizzle moves around: 32 bytes for 128-Byte with 32B atomicity, 16 bytes
    /// otherwise.
    #[must_use]
    pub const fn atomicity_bytes(self) -> u32 {
        match self {
            Swizzle::B128Base32B => 32,
            _ => 16,
        }
    }

    /// Bytes of one swizzle atom: 8 rows of [`Swizzle::width_bytes`], except 128-Byte with 32B
    /// atomicity, whose atom is 4 rows of 128 bytes (PTX ISA 9.7.16.10.6 Table 55). So 128, 256,
    /// 512, 1024, and 512 for 128B_base32B.
    #[must_use]
    pub const fn atom_bytes(self) -> u32 {
        match self {
            Swizzle::B128Base32B => 4 * 128,
            _ => 8 * self.width_bytes(),
        }
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The leading dimension stride mode of bit 52 (Table 40).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum LboMode {
    /// 0: the leading-dimension field is a byte offset relative to the start address (the only
    /// mode CUTLASS writes outside SM103 K=96).
    #[default]
    Relative = 0,
    /// 1: the leading-dimension field is an absolute byte address (sm_103a only; decisions.md
    /// R5).
    Absolute = 1,
}

impl LboMode {
    /// Both modes, in code order.
    pub const ALL: [LboMode; 2] = [LboMode::Relative, LboMode::Absolute];

    /// The value of bit 52.
    #[must_use]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The mode of a value of bit 52 (0 or 1).
    #[must_use]
    pub const fn from_code(code: u8) -> Option<LboMode> {
        match code {
            0 => Some(LboMode::Relative),
            1 => Some(LboMode::Absolute),
            _ => None,
        }
    }

    /// `"relative"` or `"absolute"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LboMode::Relative => "relative",
            LboMode::Absolute => "absolute",
        }
    }

    /// The mode in Table 40's words: `"leading byte offset"` (relative) or
    /// `"leading byte address (sm_103a)"` (absolute, decisions.md R5).
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            LboMode::Relative => "leading byte offset",
            LboMode::Absolute => "leading byte address (sm_103a)",
        }
    }

    /// Parses `"relative"` or `"absolute"`.
    #[must_use]
    pub const fn from_name(name: &str) -> Option<LboMode> {
        if bytes_eq(name.as_bytes(), b"relative") {
            Some(LboMode::Relative)
        } else if bytes_eq(name.as_bytes(), b"absolute") {
            Some(LboMode::Absolute)
        } else {
            None
        }
    }
}

impl fmt::Display for LboMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every field of a shared memory descriptor as a user thinks of it: byte values, not the
/// encoded 16-byte units (decisions.md R3).
///
/// A plain value with no invariant: [`SmemDescriptor::validate`] lists its problems and
/// [`SmemDescriptor::try_new`] encodes it. `SmemDescriptor::decode(d.bits(), t).fields` gives back
/// the fields `d` was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SmemFields {
    /// Matrix start address in shared memory, in bytes (16-byte aligned, below 2^18).
    pub start_address: u32,
    /// Leading dimension byte offset in bytes; in [`LboMode::Absolute`] the leading dimension
    /// byte address (16-byte aligned, below 2^18). Unused for swizzled K-major operands
    /// (decisions.md R6).
    pub leading_byte_offset: u32,
    /// Stride dimension byte offset in bytes (16-byte aligned, below 2^18).
    pub stride_byte_offset: u32,
    /// Matrix base offset, 0-7 (Table 41; see [`base_offset_for`]).
    pub base_offset: u8,
    /// Leading dimension stride mode (bit 52).
    pub lbo_mode: LboMode,
    /// Swizzling mode (bits 61-63).
    pub swizzle: Swizzle,
}

impl SmemFields {
    /// Fields in the common form: relative leading-dimension mode and base offset 0 (what CUTLASS
    /// always writes). All values in bytes.
    #[must_use]
    pub const fn new(
        start_address: u32,
        leading_byte_offset: u32,
        stride_byte_offset: u32,
        swizzle: Swizzle,
    ) -> SmemFields {
        SmemFields {
            start_address,
            leading_byte_offset,
            stride_byte_offset,
            base_offset: 0,
            lbo_mode: LboMode::Relative,
            swizzle,
        }
    }

    /// The same fields with an explicit base offset (0-7; checked when encoded).
    #[must_use]
    pub const fn with_base_offset(self, base_offset: u8) -> SmemFields {
        SmemFields {
            base_offset,
            ..self
        }
    }

    /// The same fields with the base offset computed from the address where the swizzle's
    /// repeating pattern starts, by [`base_offset_for`] with these fields' swizzle.
    ///
    /// # Errors
    /// [`SmemError::PatternStartNotLineAligned`] as [`base_offset_for`].
    pub const fn with_pattern_start(self, pattern_start: u32) -> Result<SmemFields, SmemError> {
        match base_offset_for(pattern_start, self.swizzle) {
            Ok(base_offset) => Ok(self.with_base_offset(base_offset)),
            Err(e) => Err(e),
        }
    }

    /// The same fields with another leading dimension stride mode.
    #[must_use]
    pub const fn with_lbo_mode(self, lbo_mode: LboMode) -> SmemFields {
        SmemFields { lbo_mode, ..self }
    }

    /// The value of one row as its [`Meaning`] reads it (bytes, a number or a code name), as
    /// given, whether valid or not; `None` for fixed and reserved rows. Encoding writes these
    /// values, and the command prints them for fields that do not encode.
    #[must_use]
    pub const fn value(&self, field: SmemField) -> Option<RowValue> {
        match field {
            SmemField::StartAddress => Some(RowValue::Bytes(self.start_address as u64)),
            SmemField::LeadingByteOffset => Some(RowValue::Bytes(self.leading_byte_offset as u64)),
            SmemField::StrideByteOffset => Some(RowValue::Bytes(self.stride_byte_offset as u64)),
            SmemField::BaseOffset => Some(RowValue::Number(self.base_offset as u64)),
            SmemField::LboMode => Some(RowValue::Name(&LBO_MODE_CODES[self.lbo_mode as usize])),
            SmemField::Swizzle => Some(swizzle_value(self.swizzle)),
            SmemField::Reserved14To15
            | SmemField::Reserved30To31
            | SmemField::Fixed46To48
            | SmemField::Fixed53To60 => None,
        }
    }
}

/// The warning that a pattern start has no effect, when `swizzle` is [`Swizzle::None`]:
/// [`base_offset_for`] then gives 0 whatever the address (decisions.md R4).
///
/// # Examples
/// ```
/// use tcgen05::shared_memory_descriptor::{pattern_start_ignored, SmemError, Swizzle};
///
/// assert_eq!(pattern_start_ignored(0x500, Swizzle::B128), None);
/// assert_eq!(
///     pattern_start_ignored(0x500, Swizzle::None),
///     Some(SmemError::PatternStartWithoutSwizzle { address: 0x500 })
/// );
/// ```
#[must_use]
pub const fn pattern_start_ignored(pattern_start: u32, swizzle: Swizzle) -> Option<SmemError> {
    if swizzle.is_swizzled() {
        None
    } else {
        Some(SmemError::PatternStartWithoutSwizzle {
            address: pattern_start,
        })
    }
}

/// The matrix base offset for a swizzle pattern that starts at `pattern_start` (a shared memory
/// byte address), per Table 41 and decisions.md R4.
///
/// - Without swizzling: 0 (the field has no meaning).
/// - Pattern on its repeat boundary ([`Swizzle::repeat_bytes`]): 0.
/// - Otherwise `(pattern_start >> 7) & 7`, which is then non-zero, as Table 41 requires.
///
/// # Errors
/// [`SmemError::PatternStartNotLineAligned`] when the pattern is swizzled, not on its boundary, and
/// does not start on a 128-byte line: no base offset describes it (a decision of this crate; see
/// the [module documentation](self)).
///
/// # Examples
/// ```
/// use tcgen05::shared_memory_descriptor::{base_offset_for, Swizzle};
///
/// assert_eq!(base_offset_for(0x800, Swizzle::B128), Ok(0)); // 1024-byte boundary
/// assert_eq!(base_offset_for(0x500, Swizzle::B64), Ok(2)); // 1024 + 256: (0x500 >> 7) & 7
/// assert_eq!(base_offset_for(0x600, Swizzle::B64), Ok(0)); // 512-byte boundary
/// assert!(base_offset_for(0x440, Swizzle::B128).is_err()); // formula 0, not on the boundary
/// ```
pub const fn base_offset_for(pattern_start: u32, swizzle: Swizzle) -> Result<u8, SmemError> {
    let Some(repeat) = swizzle.repeat_bytes() else {
        return Ok(0);
    };
    if pattern_start % repeat == 0 {
        return Ok(0);
    }
    if pattern_start % SWIZZLE_LINE_BYTES != 0 {
        return Err(SmemError::PatternStartNotLineAligned {
            swizzle,
            address: pattern_start,
        });
    }
    let lines = (pattern_start / SWIZZLE_LINE_BYTES) as u64;
    // At most the field's maximum (7), so the cast keeps every bit.
    Ok((lines & SmemField::BaseOffset.row().max()) as u8)
}

/// Table 40's `matrix-descriptor-encode` for one byte field, checked (decisions.md R3): the field
/// value for `bytes`, which must be 16-byte aligned and below 2^18.
///
/// Only [`SmemField::StartAddress`], [`SmemField::LeadingByteOffset`] and
/// [`SmemField::StrideByteOffset`] hold bytes; any other field gives `None`.
///
/// # Examples
/// ```
/// use tcgen05::shared_memory_descriptor::{encode_bytes, SmemError, SmemField};
///
/// assert_eq!(encode_bytes(SmemField::StrideByteOffset, 1024), Some(Ok(64)));
/// assert_eq!(
///     encode_bytes(SmemField::StartAddress, 0x408),
///     Some(Err(SmemError::Misaligned { field: SmemField::StartAddress, value: 0x408 }))
/// );
/// ```
#[must_use]
pub const fn encode_bytes(field: SmemField, bytes: u32) -> Option<Result<u16, SmemError>> {
    if !is_byte_field(field) {
        return None;
    }
    if bytes % (1 << UNIT_SHIFT) != 0 {
        return Some(Err(SmemError::Misaligned {
            field,
            value: bytes,
        }));
    }
    let units = bytes >> UNIT_SHIFT;
    if !field.row().fits(units as u64) {
        return Some(Err(SmemError::OutOfRange {
            field,
            value: bytes,
        }));
    }
    // Fits in 14 bits, so in u16.
    Some(Ok(units as u16))
}

const fn is_byte_field(field: SmemField) -> bool {
    matches!(
        field,
        SmemField::StartAddress | SmemField::LeadingByteOffset | SmemField::StrideByteOffset
    )
}

/// The rules of the shared memory descriptor, one per [`SmemError`] variant; each has one row in
/// [`SMEM_RULES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum SmemRule {
    /// [`SmemError::Misaligned`].
    Misaligned,
    /// [`SmemError::OutOfRange`].
    OutOfRange,
    /// [`SmemError::BaseOffsetOutOfRange`].
    BaseOffsetOutOfRange,
    /// [`SmemError::BaseOffsetWithoutSwizzle`].
    BaseOffsetWithoutSwizzle,
    /// [`SmemError::PatternStartWithoutSwizzle`].
    PatternStartWithoutSwizzle,
    /// [`SmemError::InvalidSwizzle`].
    InvalidSwizzle,
    /// [`SmemError::ReservedBit`].
    ReservedBit,
    /// [`SmemError::FixedBits`].
    FixedBits,
    /// [`SmemError::AbsoluteModeTarget`].
    AbsoluteModeTarget,
    /// [`SmemError::AbsoluteModeSwizzle`].
    AbsoluteModeSwizzle,
    /// [`SmemError::AbsoluteModeBaseOffset`].
    AbsoluteModeBaseOffset,
    /// [`SmemError::PatternStartNotLineAligned`].
    PatternStartNotLineAligned,
    /// [`SmemError::AdvanceMisaligned`].
    AdvanceMisaligned,
    /// [`SmemError::AdvanceOverflow`].
    AdvanceOverflow,
}

impl SmemRule {
    /// Every rule, in the order of [`SMEM_RULES`].
    pub const ALL: [SmemRule; 14] = [
        SmemRule::Misaligned,
        SmemRule::OutOfRange,
        SmemRule::BaseOffsetOutOfRange,
        SmemRule::BaseOffsetWithoutSwizzle,
        SmemRule::PatternStartWithoutSwizzle,
        SmemRule::InvalidSwizzle,
        SmemRule::ReservedBit,
        SmemRule::FixedBits,
        SmemRule::AbsoluteModeTarget,
        SmemRule::AbsoluteModeSwizzle,
        SmemRule::AbsoluteModeBaseOffset,
        SmemRule::PatternStartNotLineAligned,
        SmemRule::AdvanceMisaligned,
        SmemRule::AdvanceOverflow,
    ];

    /// The rule's row of [`SMEM_RULES`].
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &SMEM_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"smem.reserved_bit"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// Shorthand for a row of [`SMEM_RULES`].
const fn smem_rule(
    id: &'static str,
    source: Source,
    severity: Severity,
    statement: &'static str,
) -> Rule {
    Rule {
        id,
        source: RuleSource::Fixed(source),
        severity,
        statement,
    }
}

/// Every rule of the shared memory descriptor (PTX ISA 9.7.16.4.1, Tables 40-41, decisions.md
/// R1-R5 and R7), one row each, indexed by [`SmemRule`]. [`SmemError`] reads its identifier,
/// source and severity here.
pub const SMEM_RULES: [Rule; 14] = [
    smem_rule(
        "smem.misaligned",
        Source::PtxSection("9.7.16.4.1"),
        Severity::Error,
        "Start address and byte offsets are multiples of 16 bytes (matrix-descriptor-encode drops the 4 low bits).",
    ),
    smem_rule(
        "smem.out_of_range",
        Source::Decision(3),
        Severity::Error,
        "A byte field fits the 18 bits that matrix-descriptor-encode keeps.",
    ),
    smem_rule(
        "smem.base_offset_out_of_range",
        Source::PtxTable(40),
        Severity::Error,
        "The base offset fits its 3 bits.",
    ),
    smem_rule(
        "smem.base_offset_without_swizzle",
        Source::Decision(4),
        Severity::Warning,
        "A base offset has a meaning only with swizzling.",
    ),
    smem_rule(
        "smem.pattern_start_without_swizzle",
        Source::Decision(4),
        Severity::Warning,
        "A swizzle pattern start has a meaning only with swizzling.",
    ),
    smem_rule(
        "smem.invalid_swizzle",
        Source::PtxTable(40),
        Severity::Error,
        "The swizzling mode is one of the codes 0, 1, 2, 4 and 6.",
    ),
    smem_rule(
        "smem.reserved_bit",
        Source::Decision(2),
        Severity::Error,
        "Bits 14, 15, 30 and 31 are 0.",
    ),
    smem_rule(
        "smem.fixed_bits",
        Source::Decision(1),
        Severity::Error,
        "Bits 46-48 hold 0b001 and bits 53-60 hold 0.",
    ),
    smem_rule(
        "smem.absolute_mode_target",
        Source::PtxSection("9.7.16.4.1.1"),
        Severity::Error,
        "The absolute leading-dimension mode exists on sm_103a only.",
    ),
    smem_rule(
        "smem.absolute_mode_swizzle",
        Source::Decision(5),
        Severity::Error,
        "The absolute leading-dimension mode goes with 128-byte swizzling (16-byte atomicity).",
    ),
    smem_rule(
        "smem.absolute_mode_base_offset",
        Source::Decision(5),
        Severity::Error,
        "The absolute leading-dimension mode goes with base offset 0.",
    ),
    smem_rule(
        "smem.pattern_start_not_line_aligned",
        Source::PtxTable(41),
        Severity::Error,
        "A swizzle pattern start lies on its repeat boundary or on a 128-byte line.",
    ),
    smem_rule(
        "smem.advance_misaligned",
        Source::Decision(7),
        Severity::Error,
        "A K advance is a multiple of 16 bytes.",
    ),
    smem_rule(
        "smem.advance_overflow",
        Source::Decision(7),
        Severity::Error,
        "A K advance keeps the start address within its 14-bit field.",
    ),
];

/// A problem with a shared memory descriptor or its fields: the field, the value, and the rule
/// ([`SmemError::rule`], whose row of [`SMEM_RULES`] gives its identifier, source and
/// severity).
///
/// All are errors except [`SmemError::BaseOffsetWithoutSwizzle`] and
/// [`SmemError::PatternStartWithoutSwizzle`], warnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SmemError {
    /// A byte field (start address, leading or stride dimension byte offset) is not 16-byte
    /// aligned (PTX ISA 9.7.16.4.1; decisions.md R3).
    Misaligned {
        /// The field.
        field: SmemField,
        /// The byte value given.
        value: u32,
    },
    /// A byte field needs more than the 18 bits that `matrix-descriptor-encode` keeps
    /// (decisions.md R3).
    OutOfRange {
        /// The field.
        field: SmemField,
        /// The byte value given.
        value: u32,
    },
    /// The base offset does not fit in its 3 bits (Table 40).
    BaseOffsetOutOfRange {
        /// The base offset given.
        value: u8,
    },
    /// A non-zero base offset without swizzling, where it has no meaning (decisions.md R4).
    /// A warning.
    BaseOffsetWithoutSwizzle {
        /// The base offset.
        value: u8,
    },
    /// A swizzle pattern start given without swizzling: there is no pattern, so it sets
    /// nothing (decisions.md R4). A warning ([`pattern_start_ignored`]).
    PatternStartWithoutSwizzle {
        /// The pattern start address given.
        address: u32,
    },
    /// Swizzling mode code 3, 5 or 7 (or above 7) (Table 40).
    InvalidSwizzle {
        /// The code.
        code: u8,
    },
    /// A reserved bit (14, 15, 30 or 31) is set (decisions.md R2).
    ReservedBit {
        /// The bit's position.
        bit: u8,
    },
    /// Bits 46-48 are not 0b001, or bits 53-60 are not zero (decisions.md R1).
    FixedBits {
        /// [`SmemField::Fixed46To48`] or [`SmemField::Fixed53To60`].
        field: SmemField,
        /// The bits found, shifted down to bit 0.
        found: u8,
    },
    /// The absolute leading-dimension byte address mode on a target other than `sm_103a`
    /// (PTX ISA 9.7.16.4.1.1; decisions.md R5).
    AbsoluteModeTarget {
        /// The target.
        target: Target,
    },
    /// The absolute leading-dimension mode with a swizzling mode other than 128-Byte (16-byte
    /// atomicity) (decisions.md R5).
    AbsoluteModeSwizzle {
        /// The swizzle code (possibly an invalid one).
        code: u8,
    },
    /// The absolute leading-dimension mode with a non-zero base offset (decisions.md R5).
    AbsoluteModeBaseOffset {
        /// The base offset.
        value: u8,
    },
    /// A swizzle pattern start that is neither on its repeat boundary nor on a 128-byte line, so
    /// that no base offset describes it (Table 41; a decision of this crate, see the module
    /// documentation).
    PatternStartNotLineAligned {
        /// The swizzle mode.
        swizzle: Swizzle,
        /// The pattern start address in bytes.
        address: u32,
    },
    /// A K advance that is not a multiple of 16 bytes (decisions.md R7).
    AdvanceMisaligned {
        /// The advance in bytes.
        bytes: u32,
    },
    /// A K advance that carries the start address out of its 14-bit field (decisions.md R7).
    AdvanceOverflow {
        /// The start address before the advance, in bytes.
        start: u32,
        /// The advance in bytes.
        bytes: u32,
    },
}

impl SmemError {
    /// The field concerned, as a JSON key: the [`SmemField::name`] of the field, `"bit 14"` for a
    /// reserved bit, `"pattern_start_address"` or `"advance_bytes"` for builder inputs.
    #[must_use]
    pub const fn field_name(&self) -> &'static str {
        match *self {
            SmemError::Misaligned { field, .. }
            | SmemError::OutOfRange { field, .. }
            | SmemError::FixedBits { field, .. } => field.name(),
            SmemError::BaseOffsetOutOfRange { .. }
            | SmemError::BaseOffsetWithoutSwizzle { .. }
            | SmemError::AbsoluteModeBaseOffset { .. } => SmemField::BaseOffset.name(),
            SmemError::PatternStartWithoutSwizzle { .. } => "pattern_start_address",
            SmemError::InvalidSwizzle { .. } | SmemError::AbsoluteModeSwizzle { .. } => {
                SmemField::Swizzle.name()
            }
            SmemError::ReservedBit { bit } => match bit {
                14 => "bit 14",
                15 => "bit 15",
                30 => "bit 30",
                31 => "bit 31",
                _ => "reserved bit",
            },
            SmemError::AbsoluteModeTarget { .. } => SmemField::LboMode.name(),
            SmemError::PatternStartNotLineAligned { .. } => "pattern_start_address",
            SmemError::AdvanceMisaligned { .. } => "advance_bytes",
            SmemError::AdvanceOverflow { .. } => SmemField::StartAddress.name(),
        }
    }

    /// The value concerned: bytes for byte fields and addresses, the code or bits otherwise
    /// (1 for a set reserved bit or the absolute-mode bit); for an overflowing advance, the byte
    /// address the start would have reached.
    #[must_use]
    pub const fn value(&self) -> u64 {
        match *self {
            SmemError::Misaligned { value, .. } | SmemError::OutOfRange { value, .. } => {
                value as u64
            }
            SmemError::BaseOffsetOutOfRange { value }
            | SmemError::BaseOffsetWithoutSwizzle { value }
            | SmemError::AbsoluteModeBaseOffset { value } => value as u64,
            SmemError::InvalidSwizzle { code } | SmemError::AbsoluteModeSwizzle { code } => {
                code as u64
            }
            SmemError::ReservedBit { .. } | SmemError::AbsoluteModeTarget { .. } => 1,
            SmemError::FixedBits { found, .. } => found as u64,
            SmemError::PatternStartNotLineAligned { address, .. }
            | SmemError::PatternStartWithoutSwizzle { address } => address as u64,
            SmemError::AdvanceMisaligned { bytes } => bytes as u64,
            SmemError::AdvanceOverflow { start, bytes } => start as u64 + bytes as u64,
        }
    }

    /// The rule this error breaks.
    #[must_use]
    pub const fn rule(&self) -> SmemRule {
        match self {
            SmemError::Misaligned { .. } => SmemRule::Misaligned,
            SmemError::OutOfRange { .. } => SmemRule::OutOfRange,
            SmemError::BaseOffsetOutOfRange { .. } => SmemRule::BaseOffsetOutOfRange,
            SmemError::BaseOffsetWithoutSwizzle { .. } => SmemRule::BaseOffsetWithoutSwizzle,
            SmemError::PatternStartWithoutSwizzle { .. } => SmemRule::PatternStartWithoutSwizzle,
            SmemError::InvalidSwizzle { .. } => SmemRule::InvalidSwizzle,
            SmemError::ReservedBit { .. } => SmemRule::ReservedBit,
            SmemError::FixedBits { .. } => SmemRule::FixedBits,
            SmemError::AbsoluteModeTarget { .. } => SmemRule::AbsoluteModeTarget,
            SmemError::AbsoluteModeSwizzle { .. } => SmemRule::AbsoluteModeSwizzle,
            SmemError::AbsoluteModeBaseOffset { .. } => SmemRule::AbsoluteModeBaseOffset,
            SmemError::PatternStartNotLineAligned { .. } => SmemRule::PatternStartNotLineAligned,
            SmemError::AdvanceMisaligned { .. } => SmemRule::AdvanceMisaligned,
            SmemError::AdvanceOverflow { .. } => SmemRule::AdvanceOverflow,
        }
    }

    /// Where the rule comes from (the rule's row of [`SMEM_RULES`]).
    #[must_use]
    pub const fn source(&self) -> Source {
        match self.rule().row().source {
            RuleSource::Fixed(s) => s,
            // No rule of this descriptor depends on a layout variant.
            RuleSource::LayoutTable => Source::PtxTable(40),
        }
    }

    /// [`Severity::Warning`] for [`SmemError::BaseOffsetWithoutSwizzle`] and
    /// [`SmemError::PatternStartWithoutSwizzle`], [`Severity::Error`] otherwise (the rule's row
    /// of [`SMEM_RULES`]).
    #[must_use]
    pub const fn severity(&self) -> Severity {
        self.rule().row().severity
    }

    /// True when the problem is an error rather than a warning.
    #[must_use]
    pub const fn is_error(&self) -> bool {
        matches!(self.severity(), Severity::Error)
    }
}

/// Writes a swizzle code by name, or as `code N` when it is invalid.
struct SwizzleCode(u8);

impl fmt::Display for SwizzleCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Swizzle::from_code(self.0) {
            Ok(s) => write!(f, "{} ({})", s.name(), s.description()),
            Err(_) => write!(f, "invalid code {}", self.0),
        }
    }
}

impl fmt::Display for SmemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SmemError::Misaligned { field, value } => {
                write!(f, "{} {value:#x} is not 16-byte aligned", field.ptx_words())
            }
            SmemError::OutOfRange { field, value } => write!(
                f,
                "{} {value:#x} does not fit in the 18 bits kept by matrix-descriptor-encode \
                 (at most {:#x})",
                field.ptx_words(),
                field.row().max() << UNIT_SHIFT
            ),
            SmemError::BaseOffsetOutOfRange { value } => {
                write!(f, "matrix base offset {value} does not fit in 3 bits (0-7)")
            }
            SmemError::BaseOffsetWithoutSwizzle { value } => write!(
                f,
                "matrix base offset {value} has no meaning without swizzling (expected 0)"
            ),
            SmemError::PatternStartWithoutSwizzle { address } => write!(
                f,
                "pattern start {address:#x} has no effect without swizzling: there is no \
                 pattern, and the base offset stays 0"
            ),
            SmemError::InvalidSwizzle { code } => write!(
                f,
                "swizzling mode {code} is invalid (valid: 0, 1, 2, 4, 6; values 3, 5 and 7 are \
                 invalid)"
            ),
            SmemError::ReservedBit { bit } => {
                write!(f, "bit {bit} is not described by Table 40 and must be 0")
            }
            SmemError::FixedBits { field, found } => {
                let row = field.row();
                let expected = match row.role {
                    Role::Fixed(v) => v,
                    _ => 0,
                };
                write!(
                    f,
                    "bits {}-{} must hold the fixed constant value {expected:#0w$b}, found \
                     {found:#0w$b}",
                    row.lo,
                    row.hi(),
                    w = row.width as usize + 2
                )
            }
            SmemError::AbsoluteModeTarget { target } => write!(
                f,
                "the byte address mode for the leading dimension stride is supported on sm_103a \
                 only, not on {target}"
            ),
            SmemError::AbsoluteModeSwizzle { code } => write!(
                f,
                "the leading dimension byte address absolute mode needs 128-Byte swizzling, not \
                 {}",
                SwizzleCode(code)
            ),
            SmemError::AbsoluteModeBaseOffset { value } => write!(
                f,
                "the leading dimension byte address absolute mode needs matrix base offset 0, \
                 not {value}"
            ),
            SmemError::PatternStartNotLineAligned { swizzle, address } => write!(
                f,
                "the repeating pattern of {} starting at {address:#x} is neither on its \
                 {}-byte boundary nor on a 128-byte line, so no base offset describes it",
                swizzle.description(),
                swizzle.repeat_bytes().unwrap_or_default()
            ),
            SmemError::AdvanceMisaligned { bytes } => {
                write!(f, "K advance of {bytes:#x} bytes is not 16-byte aligned")
            }
            SmemError::AdvanceOverflow { start, bytes } => write!(
                f,
                "advancing matrix start address {start:#x} by {bytes:#x} bytes carries out of \
                 its 14-bit field (at most {:#x})",
                SmemField::StartAddress.row().max() << UNIT_SHIFT
            ),
        }
    }
}

impl Diagnostic for SmemError {
    fn field(&self) -> &'static str {
        self.field_name()
    }
    fn value(&self) -> u64 {
        SmemError::value(self)
    }
    fn source(&self) -> Source {
        SmemError::source(self)
    }
    fn severity(&self) -> Severity {
        SmemError::severity(self)
    }
    fn rule_id(&self) -> Option<&'static str> {
        Some(self.rule().id())
    }
}

impl core::error::Error for SmemError {}

/// The first error (not warning) of a list, in the order found.
const fn first_error(d: &SmemDiagnostics) -> Option<SmemError> {
    let mut i = 0;
    while i < d.len() {
        if let Some(e) = d.get(i) {
            if e.is_error() {
                return Some(e);
            }
        }
        i += 1;
    }
    None
}

/// Checks one byte field for alignment and range, recording each problem.
const fn check_bytes(d: &mut SmemDiagnostics, field: SmemField, bytes: u32) {
    if bytes % (1 << UNIT_SHIFT) != 0 {
        d.push(SmemError::Misaligned {
            field,
            value: bytes,
        });
    }
    if !field.row().fits((bytes >> UNIT_SHIFT) as u64) {
        d.push(SmemError::OutOfRange {
            field,
            value: bytes,
        });
    }
}

/// The rules that tie fields together (decisions.md R4, R5), shared by validation and decoding.
/// `swizzle_code` may be an invalid code when decoding.
const fn check_combination(
    d: &mut SmemDiagnostics,
    base_offset: u8,
    lbo_mode: LboMode,
    swizzle_code: u8,
    target: Target,
) {
    if base_offset != 0 && swizzle_code == Swizzle::None.code() {
        d.push(SmemError::BaseOffsetWithoutSwizzle { value: base_offset });
    }
    if let LboMode::Absolute = lbo_mode {
        if !target.supports_absolute_lbo() {
            d.push(SmemError::AbsoluteModeTarget { target });
        }
        if swizzle_code != Swizzle::B128.code() {
            d.push(SmemError::AbsoluteModeSwizzle { code: swizzle_code });
        }
        if base_offset != 0 {
            d.push(SmemError::AbsoluteModeBaseOffset { value: base_offset });
        }
    }
}

/// A raw 64-bit value decoded into fields, with every problem found in it.
///
/// Made by [`SmemDescriptor::decode`], which never fails: an invalid value still gives its
/// fields (an invalid swizzle code reads as [`Swizzle::None`], with
/// [`SmemError::InvalidSwizzle`] in the diagnostics; `raw` keeps the code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemDecoded {
    /// The value decoded.
    pub raw: u64,
    /// The target it was checked for.
    pub target: Target,
    /// Its fields, in bytes.
    pub fields: SmemFields,
    /// Every error and warning, in bit order.
    pub diagnostics: SmemDiagnostics,
}

impl SmemDecoded {
    /// The raw value read through [`SMEM_LAYOUT`]: each row's bits, value and meaning (the
    /// generic decoded result that the bit table and the command's output are made from).
    #[must_use]
    pub const fn word(&self) -> Word<SmemField> {
        Word::new(SMEM_LAYOUT, self.raw)
    }

    /// True when no problem is an error (warnings allowed).
    #[must_use]
    pub const fn is_valid(&self) -> bool {
        first_error(&self.diagnostics).is_none()
    }

    /// The first error, in bit order.
    #[must_use]
    pub const fn first_error(&self) -> Option<SmemError> {
        first_error(&self.diagnostics)
    }

    /// The validated descriptor, when the value has no error.
    #[must_use]
    pub const fn descriptor(&self) -> Option<SmemDescriptor> {
        if self.is_valid() {
            Some(SmemDescriptor(self.raw))
        } else {
            None
        }
    }
}

/// A shared memory descriptor (PTX ISA 9.7.16.4.1) that satisfies Tables 40-41 and decisions.md
/// R1-R5 for the target it was built or checked for.
///
/// Always: bits 46-48 are 0b001 and bits 53-60 zero (R1), the reserved bits 14-15 and 30-31 are
/// zero (R2), the swizzle code is valid (Table 40), and the absolute leading-dimension mode appears
/// only with 128-Byte swizzling and base offset 0, for `sm_103a` (R5). It may carry a warning (a
/// base offset without swizzling, R4). Only [`SmemDescriptor::from_bits_unchecked`] and
/// [`SmemDescriptor::advance_k_unchecked`] can break this.
///
/// Pass [`SmemDescriptor::bits`] as the `a-desc` / `b-desc` operand of `tcgen05.mma`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(transparent)]
pub struct SmemDescriptor(u64);

impl SmemDescriptor {
    /// Every problem with `fields` for `target`: misaligned or too large byte values (R3), a base
    /// offset above 7 (Table 40), a base offset without swizzling (a warning, R4) and the
    /// restrictions of the absolute mode (R5).
    ///
    /// # Examples
    /// ```
    /// use tcgen05::shared_memory_descriptor::{SmemDescriptor, SmemFields, Swizzle};
    /// use tcgen05::{Diagnostic, Target};
    ///
    /// let d = SmemDescriptor::validate(&SmemFields::new(0x408, 0x40000, 128, Swizzle::B64), Target::Sm100a);
    /// let fields: Vec<_> = d.iter().map(|e| e.field()).collect();
    /// assert_eq!(fields, ["start_address", "leading_byte_offset"]);
    /// ```
    #[must_use]
    pub const fn validate(fields: &SmemFields, target: Target) -> SmemDiagnostics {
        let mut d = Diagnostics::new();
        check_bytes(&mut d, SmemField::StartAddress, fields.start_address);
        check_bytes(
            &mut d,
            SmemField::LeadingByteOffset,
            fields.leading_byte_offset,
        );
        check_bytes(
            &mut d,
            SmemField::StrideByteOffset,
            fields.stride_byte_offset,
        );
        if !SmemField::BaseOffset.row().fits(fields.base_offset as u64) {
            d.push(SmemError::BaseOffsetOutOfRange {
                value: fields.base_offset,
            });
        }
        check_combination(
            &mut d,
            fields.base_offset,
            fields.lbo_mode,
            fields.swizzle.code(),
            target,
        );
        d
    }

    /// Encodes `fields` for `target`.
    ///
    /// Writes the fixed bits 46-48 = 0b001 (R1), zero reserved bits (R2), each byte field as
    /// `bytes >> 4` (R3), and the base offset, mode and swizzle as given: a base offset without
    /// swizzling is kept (and is a warning of [`SmemDescriptor::validate`]), and so is any leading
    /// byte offset of a swizzled K-major operand (R6).
    ///
    /// # Errors
    /// The first error [`SmemDescriptor::validate`] finds.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::shared_memory_descriptor::{SmemDescriptor, SmemError, SmemField, SmemFields, Swizzle};
    /// use tcgen05::Target;
    ///
    /// let d = SmemDescriptor::try_new(SmemFields::new(0x400, 2048, 128, Swizzle::None), Target::Sm100a)?;
    /// assert_eq!(d.bits(), 0x0000_4008_0080_0040);
    /// assert_eq!(
    ///     SmemDescriptor::try_new(SmemFields::new(0x400, 2048, 120, Swizzle::None), Target::Sm100a),
    ///     Err(SmemError::Misaligned { field: SmemField::StrideByteOffset, value: 120 })
    /// );
    /// # Ok::<(), SmemError>(())
    /// ```
    pub const fn try_new(fields: SmemFields, target: Target) -> Result<SmemDescriptor, SmemError> {
        let d = SmemDescriptor::validate(&fields, target);
        if let Some(e) = first_error(&d) {
            return Err(e);
        }
        Ok(SmemDescriptor(encode(&fields)))
    }

    /// Encodes `fields` for `target`, for constants: an invalid value in a `const` item fails to
    /// compile.
    ///
    /// # Panics
    /// When [`SmemDescriptor::try_new`] returns an error.
    #[must_use]
    pub const fn new(fields: SmemFields, target: Target) -> SmemDescriptor {
        match SmemDescriptor::try_new(fields, target) {
            Ok(d) => d,
            Err(_) => {
                panic!("invalid shared memory descriptor fields (see SmemDescriptor::validate)")
            }
        }
    }

    /// Decodes a raw value and lists every problem in it for `target`: each set reserved bit by
    /// position (R2), wrong fixed bits (R1), an invalid swizzle code (Table 40), a base offset
    /// without swizzling (a warning, R4), and the absolute mode off `sm_103a`, without 128-Byte
    /// swizzling or with a base offset (R5). Never panics.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::shared_memory_descriptor::{SmemDescriptor, SmemError};
    /// use tcgen05::Target;
    ///
    /// let d = SmemDescriptor::decode(0x6000_0000_0000_4040, Target::Sm100a);
    /// let problems: Vec<_> = d.diagnostics.iter().collect();
    /// assert_eq!(problems, [
    ///     SmemError::ReservedBit { bit: 14 },
    ///     SmemError::FixedBits { field: tcgen05::shared_memory_descriptor::SmemField::Fixed46To48, found: 0 },
    ///     SmemError::InvalidSwizzle { code: 3 },
    /// ]);
    /// assert_eq!(d.fields.start_address, 0x400);
    /// ```
    #[must_use]
    pub const fn decode(raw: u64, target: Target) -> SmemDecoded {
        let mut d = Diagnostics::new();
        let mut i = 0;
        while i < SMEM_LAYOUT.len() {
            let row = &SMEM_LAYOUT[i];
            match row.role {
                Role::Reserved => {
                    let mut bit = row.lo;
                    while bit <= row.hi() {
                        if (raw >> bit) & 1 != 0 {
                            d.push(SmemError::ReservedBit { bit });
                        }
                        bit += 1;
                    }
                }
                Role::Fixed(v) => {
                    let found = row.get(raw);
                    if found != v {
                        // Fixed rows are at most 8 bits wide, so the cast keeps every bit.
                        d.push(SmemError::FixedBits {
                            field: row.field,
                            found: found as u8,
                        });
                    }
                }
                Role::Value => {}
            }
            i += 1;
        }
        // Three bits, so the cast keeps every bit.
        let code = SmemField::Swizzle.row().get(raw) as u8;
        let swizzle = match Swizzle::from_code(code) {
            Ok(s) => s,
            Err(e) => {
                d.push(e);
                Swizzle::None
            }
        };
        let fields = fields_of(raw, swizzle);
        check_combination(&mut d, fields.base_offset, fields.lbo_mode, code, target);
        SmemDecoded {
            raw,
            target,
            fields,
            diagnostics: d,
        }
    }

    /// Checks a raw value for `target` and wraps it.
    ///
    /// # Errors
    /// The first error [`SmemDescriptor::decode`] finds, in bit order.
    pub const fn from_bits(raw: u64, target: Target) -> Result<SmemDescriptor, SmemError> {
        let d = SmemDescriptor::decode(raw, target);
        match d.first_error() {
            Some(e) => Err(e),
            None => Ok(SmemDescriptor(raw)),
        }
    }

    /// Wraps a raw value without checking it. The getters still never panic; an invalid swizzle
    /// code reads as [`Swizzle::None`] (see [`SmemDescriptor::swizzle_code`]).
    #[must_use]
    pub const fn from_bits_unchecked(raw: u64) -> SmemDescriptor {
        SmemDescriptor(raw)
    }

    /// The 64-bit value for the `tcgen05.mma` operand.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The descriptor read through [`SMEM_LAYOUT`]: each row's bits, value and meaning.
    #[must_use]
    pub const fn word(self) -> Word<SmemField> {
        Word::new(SMEM_LAYOUT, self.0)
    }

    /// All fields, in bytes.
    #[must_use]
    pub const fn fields(self) -> SmemFields {
        fields_of(self.0, self.swizzle())
    }

    /// Matrix start address in bytes.
    #[must_use]
    pub const fn start_address(self) -> u32 {
        byte_field(self.0, SmemField::StartAddress)
    }

    /// Leading dimension byte offset in bytes (the byte address in absolute mode).
    #[must_use]
    pub const fn leading_byte_offset(self) -> u32 {
        byte_field(self.0, SmemField::LeadingByteOffset)
    }

    /// Stride dimension byte offset in bytes.
    #[must_use]
    pub const fn stride_byte_offset(self) -> u32 {
        byte_field(self.0, SmemField::StrideByteOffset)
    }

    /// Matrix base offset (0-7).
    #[must_use]
    pub const fn base_offset(self) -> u8 {
        // Three bits, so the cast keeps every bit.
        SmemField::BaseOffset.row().get(self.0) as u8
    }

    /// Leading dimension stride mode.
    #[must_use]
    pub const fn lbo_mode(self) -> LboMode {
        lbo_mode_of(self.0)
    }

    /// Swizzling mode ([`Swizzle::None`] for an invalid code, which only
    /// [`SmemDescriptor::from_bits_unchecked`] can produce).
    #[must_use]
    pub const fn swizzle(self) -> Swizzle {
        match Swizzle::from_code(self.swizzle_code()) {
            Ok(s) => s,
            Err(_) => Swizzle::None,
        }
    }

    /// The raw 3-bit swizzle code of bits 61-63.
    #[must_use]
    pub const fn swizzle_code(self) -> u8 {
        // Three bits, so the cast keeps every bit.
        SmemField::Swizzle.row().get(self.0) as u8
    }

    /// The target this descriptor is checked against when a setter changes it: `sm_103a` when it
    /// is in absolute mode (only valid there), otherwise the default target (relative-mode rules
    /// do not depend on the target).
    const fn implied_target(self) -> Target {
        match self.lbo_mode() {
            LboMode::Absolute => Target::Sm103a,
            LboMode::Relative => Target::DEFAULT,
        }
    }

    const fn with_fields(self, fields: SmemFields) -> Result<SmemDescriptor, SmemError> {
        SmemDescriptor::try_new(fields, self.implied_target())
    }

    /// The same descriptor at another start address (bytes).
    ///
    /// # Errors
    /// [`SmemError::Misaligned`] or [`SmemError::OutOfRange`] (R3).
    pub const fn with_start_address(self, bytes: u32) -> Result<SmemDescriptor, SmemError> {
        let mut f = self.fields();
        f.start_address = bytes;
        self.with_fields(f)
    }

    /// The same descriptor with another leading dimension byte offset (or, in absolute mode,
    /// byte address).
    ///
    /// # Errors
    /// [`SmemError::Misaligned`] or [`SmemError::OutOfRange`] (R3).
    pub const fn with_leading_byte_offset(self, bytes: u32) -> Result<SmemDescriptor, SmemError> {
        let mut f = self.fields();
        f.leading_byte_offset = bytes;
        self.with_fields(f)
    }

    /// The same descriptor with another stride dimension byte offset.
    ///
    /// # Errors
    /// [`SmemError::Misaligned`] or [`SmemError::OutOfRange`] (R3).
    pub const fn with_stride_byte_offset(self, bytes: u32) -> Result<SmemDescriptor, SmemError> {
        let mut f = self.fields();
        f.stride_byte_offset = bytes;
        self.with_fields(f)
    }

    /// The same descriptor with another base offset (0-7).
    ///
    /// # Errors
    /// [`SmemError::BaseOffsetOutOfRange`] above 7; [`SmemError::AbsoluteModeBaseOffset`] when
    /// non-zero in absolute mode (R5).
    pub const fn with_base_offset(self, base_offset: u8) -> Result<SmemDescriptor, SmemError> {
        let mut f = self.fields();
        f.base_offset = base_offset;
        self.with_fields(f)
    }

    /// The same descriptor with the base offset of a swizzle pattern starting at `pattern_start`
    /// ([`base_offset_for`] with this descriptor's swizzle).
    ///
    /// # Errors
    /// [`SmemError::PatternStartNotLineAligned`] as [`base_offset_for`];
    /// [`SmemError::AbsoluteModeBaseOffset`] when non-zero in absolute mode (R5).
    pub const fn with_pattern_start(self, pattern_start: u32) -> Result<SmemDescriptor, SmemError> {
        match self.fields().with_pattern_start(pattern_start) {
            Ok(f) => self.with_fields(f),
            Err(e) => Err(e),
        }
    }

    /// The same descriptor with another swizzling mode (the base offset is kept).
    ///
    /// # Errors
    /// [`SmemError::AbsoluteModeSwizzle`] for a mode other than 128-Byte in absolute mode (R5).
    pub const fn with_swizzle(self, swizzle: Swizzle) -> Result<SmemDescriptor, SmemError> {
        let mut f = self.fields();
        f.swizzle = swizzle;
        self.with_fields(f)
    }

    /// The same descriptor with another leading dimension stride mode, checked for `target`.
    ///
    /// # Errors
    /// For [`LboMode::Absolute`]: [`SmemError::AbsoluteModeTarget`] off `sm_103a`,
    /// [`SmemError::AbsoluteModeSwizzle`] without 128-Byte swizzling,
    /// [`SmemError::AbsoluteModeBaseOffset`] with a base offset (R5).
    pub const fn with_lbo_mode(
        self,
        lbo_mode: LboMode,
        target: Target,
    ) -> Result<SmemDescriptor, SmemError> {
        let mut f = self.fields();
        f.lbo_mode = lbo_mode;
        SmemDescriptor::try_new(f, target)
    }

    /// The descriptor of the same matrix `bytes` further along K: `bytes >> 4` added to the
    /// start-address field (decisions.md R7), as CUTLASS's descriptor iterator does, the base
    /// offset unchanged. In absolute mode the leading-dimension address is not moved: set it with
    /// [`SmemDescriptor::with_leading_byte_offset`].
    ///
    /// # Errors
    /// [`SmemError::AdvanceMisaligned`] when `bytes` is not a multiple of 16;
    /// [`SmemError::AdvanceOverflow`] when the start address would leave its 14-bit field.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::shared_memory_descriptor::SmemDescriptor;
    /// use tcgen05::Target;
    ///
    /// // CUTLASS, MN-major bf16 with 128-Byte swizzling: each K block is 4096 bytes further.
    /// let d = SmemDescriptor::from_bits(0x4000_4080_0040_0040, Target::Sm100a)?;
    /// assert_eq!(d.advance_k(4096)?.bits(), 0x4000_4080_0040_0140);
    /// assert!(d.advance_k(8).is_err());
    /// # Ok::<(), tcgen05::shared_memory_descriptor::SmemError>(())
    /// ```
    pub const fn advance_k(self, bytes: u32) -> Result<SmemDescriptor, SmemError> {
        if bytes % (1 << UNIT_SHIFT) != 0 {
            return Err(SmemError::AdvanceMisaligned { bytes });
        }
        let row = SmemField::StartAddress.row();
        // Both terms are below 2^28, so the sum cannot overflow.
        let units = row.get(self.0) + (bytes >> UNIT_SHIFT) as u64;
        if !row.fits(units) {
            return Err(SmemError::AdvanceOverflow {
                start: self.start_address(),
                bytes,
            });
        }
        Ok(SmemDescriptor(row.set(self.0, units)))
    }

    /// [`SmemDescriptor::advance_k`] without checks, for hot loops: adds `bytes >> 4` to the
    /// 14-bit start-address field modulo 2^14 and leaves every other bit alone. The low four bits
    /// of `bytes` are dropped, and an advance past the top of the field wraps around to low
    /// addresses instead of carrying into reserved bit 14 (as CUTLASS's 32-bit add would). It
    /// never panics, but the result is only meaningful when [`SmemDescriptor::advance_k`] would
    /// have succeeded.
    #[must_use]
    pub const fn advance_k_unchecked(self, bytes: u32) -> SmemDescriptor {
        let row = SmemField::StartAddress.row();
        let units = row.get(self.0).wrapping_add((bytes >> UNIT_SHIFT) as u64);
        SmemDescriptor(row.set(self.0, units & row.max()))
    }
}

/// Encodes fields that passed validation (every value fits its row).
const fn encode(fields: &SmemFields) -> u64 {
    let mut raw = 0u64;
    let mut i = 0;
    while i < SMEM_LAYOUT.len() {
        let row = &SMEM_LAYOUT[i];
        let bits = match row.role {
            Role::Fixed(v) => v,
            Role::Reserved => 0,
            Role::Value => match fields.value(row.field) {
                Some(v) => row.bits_of(v),
                None => 0,
            },
        };
        raw = row.set(raw, bits);
        i += 1;
    }
    raw
}

/// A byte field's value in bytes.
const fn byte_field(raw: u64, field: SmemField) -> u32 {
    // 14 bits shifted by 4 fit in u32.
    (field.row().get(raw) << UNIT_SHIFT) as u32
}

const fn lbo_mode_of(raw: u64) -> LboMode {
    match SmemField::LboMode.row().get(raw) {
        0 => LboMode::Relative,
        _ => LboMode::Absolute,
    }
}

const fn fields_of(raw: u64, swizzle: Swizzle) -> SmemFields {
    SmemFields {
        start_address: byte_field(raw, SmemField::StartAddress),
        leading_byte_offset: byte_field(raw, SmemField::LeadingByteOffset),
        stride_byte_offset: byte_field(raw, SmemField::StrideByteOffset),
        // Three bits, so the cast keeps every bit.
        base_offset: SmemField::BaseOffset.row().get(raw) as u8,
        lbo_mode: lbo_mode_of(raw),
        swizzle,
    }
}

impl From<SmemDescriptor> for u64 {
    fn from(d: SmemDescriptor) -> u64 {
        d.bits()
    }
}

impl fmt::Debug for SmemDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SmemDescriptor({:#018x})", self.0)
    }
}

/// A table with one line per row of [`SMEM_LAYOUT`]: bit range, raw bits, meaning in bytes.
impl fmt::Display for SmemDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "shared memory descriptor {:#018x}", self.0)?;
        write!(f, "{}", self.word())
    }
}

/// The table of [`SmemDescriptor`]'s `Display`, followed by one line per problem
/// (`error: field: message (source)`).
impl fmt::Display for SmemDecoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "shared memory descriptor {:#018x} for {}",
            self.raw, self.target
        )?;
        write!(f, "{}", self.word())?;
        if self.diagnostics.is_empty() {
            return f.write_str("no problems\n");
        }
        for d in self.diagnostics.iter() {
            let level = match d.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(f, "{level}: {}", OneLine(&d))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{format, string::String, vec::Vec};

    #[test]
    fn each_rule_has_one_row_with_a_unique_identifier() {
        for (i, rule) in SmemRule::ALL.iter().enumerate() {
            assert_eq!(*rule as usize, i);
            assert!(rule.id().starts_with("smem."), "{}", rule.id());
            assert!(!rule.row().statement.is_empty());
        }
        let mut ids: Vec<_> = SMEM_RULES.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), SMEM_RULES.len());
        let warnings: Vec<_> = SmemRule::ALL
            .iter()
            .filter(|r| r.row().severity == Severity::Warning)
            .collect();
        assert_eq!(
            warnings,
            [
                &SmemRule::BaseOffsetWithoutSwizzle,
                &SmemRule::PatternStartWithoutSwizzle
            ]
        );
        let e = SmemError::ReservedBit { bit: 14 };
        assert_eq!(e.rule(), SmemRule::ReservedBit);
        assert_eq!(Diagnostic::rule_id(&e), Some("smem.reserved_bit"));
        assert_eq!(e.source(), Source::Decision(2));
        let boxed: &dyn core::error::Error = &e;
        assert!(!format!("{boxed}").is_empty());
    }

    const T: Target = Target::Sm100a;

    fn problems(d: &SmemDiagnostics) -> Vec<SmemError> {
        d.iter().collect()
    }

    /// CUTLASS 4.2.0 values (spec/oracles.md §2): raw value and the fields it encodes.
    const CUTLASS: [(u64, SmemFields); 4] = [
        // K-major bf16, 128B swizzle, 128x64 tile at 0x400.
        (
            0x4000_4040_0001_0040,
            SmemFields::new(0x400, 16, 1024, Swizzle::B128),
        ),
        // K-major bf16, no swizzle, 128x16 at 0x400: LBO 2048 B, SBO 128 B.
        (
            0x0000_4008_0080_0040,
            SmemFields::new(0x400, 2048, 128, Swizzle::None),
        ),
        // MN-major bf16, 128B swizzle, 128x64 at 0x400.
        (
            0x4000_4080_0040_0040,
            SmemFields::new(0x400, 1024, 2048, Swizzle::B128),
        ),
        // MN-major tf32, 128B with 32B atomicity, 256x8 at 0x400.
        (
            0x2000_4100_0020_0040,
            SmemFields::new(0x400, 512, 4096, Swizzle::B128Base32B),
        ),
    ];

    #[test]
    fn layout_rows_are_in_order_and_named_uniquely() {
        let mut next = 0u8;
        for (i, row) in SMEM_LAYOUT.iter().enumerate() {
            assert_eq!(row.lo, next, "row {i} starts where the previous ended");
            assert_eq!(row.field, SmemField::ALL[i]);
            assert_eq!(row.field.row(), row);
            assert_eq!(SmemField::from_name(row.field.name()), Some(row.field));
            next = row.hi() + 1;
        }
        assert_eq!(next, 64);
        let names: Vec<_> = SmemField::ALL.iter().map(|f| f.name()).collect();
        for (i, a) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(a), "{a} twice");
        }
        assert_eq!(SmemField::Fixed46To48.row().role, Role::Fixed(0b001));
        assert_eq!(SmemField::Fixed53To60.row().role, Role::Fixed(0));
        assert_eq!(SmemField::Swizzle.row().lo, 61);
    }

    #[test]
    fn cutlass_values_encode_and_decode() {
        for (raw, fields) in CUTLASS {
            let d = SmemDescriptor::try_new(fields, T).expect("valid");
            assert_eq!(d.bits(), raw, "{fields:?}");
            let dec = SmemDescriptor::decode(raw, T);
            assert!(dec.diagnostics.is_empty(), "{:?}", dec.diagnostics);
            assert_eq!(dec.fields, fields);
            assert_eq!(d.fields(), fields);
            assert_eq!(SmemDescriptor::from_bits(raw, T), Ok(d));
            assert_eq!(d.start_address(), fields.start_address);
            assert_eq!(d.leading_byte_offset(), fields.leading_byte_offset);
            assert_eq!(d.stride_byte_offset(), fields.stride_byte_offset);
            assert_eq!(d.swizzle(), fields.swizzle);
            assert_eq!(d.base_offset(), 0);
            assert_eq!(d.lbo_mode(), LboMode::Relative);
        }
    }

    #[test]
    fn cutlass_k_block_advance() {
        let d = SmemDescriptor::from_bits(0x4000_4040_0001_0040, T).expect("valid");
        // Each 16-element bf16 K block is 32 bytes: 2 in the start field.
        let mut expected = [
            0x4000_4040_0001_0042u64,
            0x4000_4040_0001_0044,
            0x4000_4040_0001_0046,
        ]
        .into_iter();
        let mut cur = d;
        for _ in 0..3 {
            cur = cur.advance_k(32).expect("fits");
            assert_eq!(Some(cur.bits()), expected.next());
        }
        assert_eq!(d.advance_k_unchecked(96), cur);
        // MN-major: K blocks are 0x100 apart in the start field (4096 bytes).
        let mn = SmemDescriptor::from_bits(0x4000_4080_0040_0040, T).expect("valid");
        assert_eq!(
            mn.advance_k(0x100 << 4).map(SmemDescriptor::bits),
            Ok(0x4000_4080_0040_0140)
        );
        assert_eq!(
            mn.advance_k_unchecked(0x100 << 4).bits(),
            0x4000_4080_0040_0140
        );
    }

    #[test]
    fn canonical_layout_examples_of_ptx() {
        // ptx-beyond-seeds.md §1.5 (PTX figures 188-192): (swizzle, LBO bytes, SBO bytes,
        // encoded LBO, encoded SBO).
        let cases = [
            (Swizzle::None, 256, 128, 16, 8),  // K-major, none, tf32
            (Swizzle::B32, 16, 256, 1, 16),    // K-major, 32B, tf32 (LBO unused: 1)
            (Swizzle::None, 256, 128, 16, 8),  // MN-major, none, bf16
            (Swizzle::B32, 256, 512, 16, 32),  // MN-major, 32B, bf16
            (Swizzle::B64, 512, 1024, 32, 64), // MN-major, 64B, bf16
        ];
        for (sw, lbo, sbo, lbo_enc, sbo_enc) in cases {
            let d = SmemDescriptor::try_new(SmemFields::new(0, lbo, sbo, sw), T).expect("valid");
            assert_eq!(SmemField::LeadingByteOffset.row().get(d.bits()), lbo_enc);
            assert_eq!(SmemField::StrideByteOffset.row().get(d.bits()), sbo_enc);
            assert_eq!(
                encode_bytes(SmemField::LeadingByteOffset, lbo),
                Some(Ok(lbo_enc as u16))
            );
            assert_eq!(SmemField::Swizzle.row().get(d.bits()), sw.code() as u64);
        }
    }

    #[test]
    fn every_rule_broken_once() {
        let ok = SmemFields::new(0x400, 16, 1024, Swizzle::B128);
        let cases: [(SmemFields, Target, SmemError, &str); 9] = [
            (
                SmemFields {
                    start_address: 0x408,
                    ..ok
                },
                T,
                SmemError::Misaligned {
                    field: SmemField::StartAddress,
                    value: 0x408,
                },
                "start_address",
            ),
            (
                SmemFields {
                    leading_byte_offset: 24,
                    ..ok
                },
                T,
                SmemError::Misaligned {
                    field: SmemField::LeadingByteOffset,
                    value: 24,
                },
                "leading_byte_offset",
            ),
            (
                SmemFields {
                    stride_byte_offset: 1 << 18,
                    ..ok
                },
                T,
                SmemError::OutOfRange {
                    field: SmemField::StrideByteOffset,
                    value: 1 << 18,
                },
                "stride_byte_offset",
            ),
            (
                ok.with_base_offset(8),
                T,
                SmemError::BaseOffsetOutOfRange { value: 8 },
                "base_offset",
            ),
            (
                ok.with_lbo_mode(LboMode::Absolute),
                Target::Sm100a,
                SmemError::AbsoluteModeTarget {
                    target: Target::Sm100a,
                },
                "lbo_mode",
            ),
            (
                ok.with_lbo_mode(LboMode::Absolute),
                Target::Sm103f,
                SmemError::AbsoluteModeTarget {
                    target: Target::Sm103f,
                },
                "lbo_mode",
            ),
            (
                SmemFields {
                    swizzle: Swizzle::B64,
                    ..ok
                }
                .with_lbo_mode(LboMode::Absolute),
                Target::Sm103a,
                SmemError::AbsoluteModeSwizzle { code: 4 },
                "swizzle",
            ),
            (
                SmemFields {
                    swizzle: Swizzle::B128Base32B,
                    ..ok
                }
                .with_lbo_mode(LboMode::Absolute),
                Target::Sm103a,
                SmemError::AbsoluteModeSwizzle { code: 1 },
                "swizzle",
            ),
            (
                ok.with_lbo_mode(LboMode::Absolute).with_base_offset(2),
                Target::Sm103a,
                SmemError::AbsoluteModeBaseOffset { value: 2 },
                "base_offset",
            ),
        ];
        for (fields, target, err, field) in cases {
            assert_eq!(problems(&SmemDescriptor::validate(&fields, target)), [err]);
            assert_eq!(SmemDescriptor::try_new(fields, target), Err(err));
            assert_eq!(err.field(), field);
            assert_eq!(err.severity(), Severity::Error);
            assert!(!format!("{err}").is_empty());
        }
        // Absolute mode is fine on sm_103a with 128B swizzle and base offset 0.
        let abs = ok.with_lbo_mode(LboMode::Absolute).with_base_offset(0);
        let d = SmemDescriptor::try_new(abs, Target::Sm103a).expect("valid on sm_103a");
        assert_eq!(d.lbo_mode(), LboMode::Absolute);
        assert_eq!(d.bits() >> 52 & 1, 1);
        // Base offset without swizzle: a warning, and the value is still encoded.
        let w = SmemFields::new(0x400, 16, 1024, Swizzle::None).with_base_offset(3);
        let diags = SmemDescriptor::validate(&w, T);
        assert_eq!(
            problems(&diags),
            [SmemError::BaseOffsetWithoutSwizzle { value: 3 }]
        );
        assert_eq!(diags.get(0).map(|e| e.severity()), Some(Severity::Warning));
        assert_eq!(diags.get(0).map(|e| e.field()), Some("base_offset"));
        let d = SmemDescriptor::try_new(w, T).expect("warnings do not fail");
        assert_eq!(d.base_offset(), 3);
        assert_eq!(
            problems(&SmemDescriptor::decode(d.bits(), T).diagnostics),
            [SmemError::BaseOffsetWithoutSwizzle { value: 3 }]
        );
        // Builder input errors.
        let e = base_offset_for(0x440, Swizzle::B128).expect_err("inside a line");
        assert_eq!(e.field(), "pattern_start_address");
        assert_eq!(e.value(), 0x440);
        let e = SmemDescriptor::new(ok, T)
            .advance_k(8)
            .expect_err("misaligned");
        assert_eq!(e, SmemError::AdvanceMisaligned { bytes: 8 });
        assert_eq!(e.field(), "advance_bytes");
    }

    #[test]
    fn misaligned_and_too_large_is_two_problems() {
        let f = SmemFields::new(0x4_0008, 0, 0, Swizzle::None);
        assert_eq!(
            problems(&SmemDescriptor::validate(&f, T)),
            [
                SmemError::Misaligned {
                    field: SmemField::StartAddress,
                    value: 0x4_0008
                },
                SmemError::OutOfRange {
                    field: SmemField::StartAddress,
                    value: 0x4_0008
                },
            ]
        );
        // The largest encodable values.
        let top = SmemFields::new(0x3_fff0, 0x3_fff0, 0x3_fff0, Swizzle::None);
        let d = SmemDescriptor::try_new(top, T).expect("fits");
        assert_eq!(d.bits() & 0x3fff_3fff_3fff, 0x3fff_3fff_3fff);
        assert_eq!(d.fields(), top);
        // Never masked: 0x40000 would encode to 0 with `& 0x3FFFF`.
        assert_eq!(
            SmemDescriptor::try_new(SmemFields::new(0x4_0000, 0, 0, Swizzle::None), T),
            Err(SmemError::OutOfRange {
                field: SmemField::StartAddress,
                value: 0x4_0000
            })
        );
        assert_eq!(encode_bytes(SmemField::BaseOffset, 16), None);
    }

    #[test]
    fn flipping_reserved_and_fixed_bits_is_reported() {
        for (raw, _) in CUTLASS {
            for row in SMEM_LAYOUT {
                for bit in row.lo..=row.hi() {
                    let flipped = raw ^ (1u64 << bit);
                    let dec = SmemDescriptor::decode(flipped, T);
                    match row.role {
                        Role::Reserved => {
                            assert_eq!(
                                problems(&dec.diagnostics),
                                [SmemError::ReservedBit { bit }]
                            );
                            assert_eq!(
                                dec.first_error().map(|e| e.field()),
                                Some(format!("bit {bit}").as_str())
                            );
                        }
                        Role::Fixed(v) => {
                            let found = (row.get(flipped)) as u8;
                            assert_ne!(found as u64, v);
                            assert_eq!(
                                problems(&dec.diagnostics),
                                [SmemError::FixedBits {
                                    field: row.field,
                                    found
                                }]
                            );
                            assert_eq!(
                                SmemDescriptor::from_bits(flipped, T).map_err(|e| e.field()),
                                Err(row.field.name())
                            );
                        }
                        Role::Value => {}
                    }
                }
            }
        }
    }

    #[test]
    fn every_invalid_swizzle_code() {
        for code in [3u8, 5, 7] {
            assert_eq!(
                Swizzle::from_code(code),
                Err(SmemError::InvalidSwizzle { code })
            );
            let raw = 0x0000_4040_0001_0040 | (code as u64) << 61;
            let dec = SmemDescriptor::decode(raw, T);
            assert_eq!(
                problems(&dec.diagnostics),
                [SmemError::InvalidSwizzle { code }]
            );
            assert_eq!(dec.fields.swizzle, Swizzle::None);
            assert!(!dec.is_valid());
            assert_eq!(dec.descriptor(), None);
            let e = SmemDescriptor::from_bits(raw, T).expect_err("invalid");
            assert_eq!((e.field(), e.value()), ("swizzle", code as u64));
            let unchecked = SmemDescriptor::from_bits_unchecked(raw);
            assert_eq!(unchecked.swizzle_code(), code);
            assert_eq!(unchecked.swizzle(), Swizzle::None);
        }
        assert_eq!(
            Swizzle::from_code(8),
            Err(SmemError::InvalidSwizzle { code: 8 })
        );
        for s in Swizzle::ALL {
            assert_eq!(Swizzle::from_code(s.code()), Ok(s));
            assert_eq!(Swizzle::from_name(s.name()), Some(s));
        }
        assert_eq!(Swizzle::from_name("128b"), None);
        for m in LboMode::ALL {
            assert_eq!(LboMode::from_code(m.code()), Some(m));
            assert_eq!(LboMode::from_name(m.name()), Some(m));
        }
    }

    #[test]
    fn many_problems_at_once() {
        // Every reserved bit, both fixed fields wrong, absolute mode off sm_103a without 128B and
        // with a base offset, and an invalid swizzle code.
        let raw = 0xffff_ffff_ffff_ffffu64;
        let dec = SmemDescriptor::decode(raw, T);
        assert!(!dec.diagnostics.overflowed());
        assert_eq!(
            problems(&dec.diagnostics),
            [
                SmemError::ReservedBit { bit: 14 },
                SmemError::ReservedBit { bit: 15 },
                SmemError::ReservedBit { bit: 30 },
                SmemError::ReservedBit { bit: 31 },
                SmemError::FixedBits {
                    field: SmemField::Fixed46To48,
                    found: 0b111
                },
                SmemError::FixedBits {
                    field: SmemField::Fixed53To60,
                    found: 0xff
                },
                SmemError::InvalidSwizzle { code: 7 },
                SmemError::AbsoluteModeTarget { target: T },
                SmemError::AbsoluteModeSwizzle { code: 7 },
                SmemError::AbsoluteModeBaseOffset { value: 7 },
            ]
        );
        // The same without swizzle: the warning replaces the invalid code.
        let dec = SmemDescriptor::decode(raw & !(7 << 61), T);
        assert_eq!(dec.diagnostics.len(), 10);
        assert!(
            problems(&dec.diagnostics).contains(&SmemError::BaseOffsetWithoutSwizzle { value: 7 })
        );
        // Worst case for fields: every byte field misaligned and too large, base offset too large
        // without swizzle, absolute mode on the wrong target.
        let f = SmemFields {
            start_address: u32::MAX,
            leading_byte_offset: u32::MAX,
            stride_byte_offset: u32::MAX,
            base_offset: u8::MAX,
            lbo_mode: LboMode::Absolute,
            swizzle: Swizzle::None,
        };
        let d = SmemDescriptor::validate(&f, T);
        assert!(!d.overflowed());
        assert_eq!(d.len(), 11);
        assert_eq!(d.warnings().count(), 1);
    }

    #[test]
    fn base_offset_from_pattern_start() {
        // On the boundary: 0, even where the formula is not 0.
        assert_eq!(base_offset_for(0, Swizzle::B128), Ok(0));
        assert_eq!(base_offset_for(0x1400, Swizzle::B128), Ok(0));
        assert_eq!(base_offset_for(0x600, Swizzle::B64), Ok(0)); // formula: 4
        assert_eq!(base_offset_for(0x500, Swizzle::B32), Ok(0)); // formula: 2
        assert_eq!(base_offset_for(0x800, Swizzle::B128Base32B), Ok(0));
        // Off the boundary on a 128-byte line: the formula, non-zero.
        assert_eq!(base_offset_for(0x480, Swizzle::B128), Ok(1));
        assert_eq!(base_offset_for(0x780, Swizzle::B128), Ok(7));
        assert_eq!(base_offset_for(0x500, Swizzle::B64), Ok(2)); // 1024 + 256
        assert_eq!(base_offset_for(0x700, Swizzle::B64), Ok(6));
        assert_eq!(base_offset_for(0x480, Swizzle::B32), Ok(1));
        assert_eq!(base_offset_for(0x600, Swizzle::B128Base32B), Ok(4));
        // The contradiction of Table 41 (formula 0 off the boundary), and any start inside a line.
        for (addr, sw) in [
            (0x440, Swizzle::B128),
            (0x810, Swizzle::B64),
            (0x410, Swizzle::B32),
            (0x4a0, Swizzle::B128),
        ] {
            assert_eq!(
                base_offset_for(addr, sw),
                Err(SmemError::PatternStartNotLineAligned {
                    swizzle: sw,
                    address: addr
                })
            );
        }
        // Without swizzle there is no pattern: always 0.
        assert_eq!(base_offset_for(0x4a8, Swizzle::None), Ok(0));
        // Every off-boundary line start gives a non-zero value (Table 41's requirement).
        for sw in Swizzle::ALL {
            for line in 0..64u32 {
                let addr = line * 128;
                let b = base_offset_for(addr, sw).expect("line aligned");
                let on_boundary = sw.repeat_bytes().is_none_or(|r| addr % r == 0);
                assert_eq!(b == 0, on_boundary, "{sw} {addr:#x}");
            }
        }
        // Builders.
        let f = SmemFields::new(0x500, 16, 1024, Swizzle::B64)
            .with_pattern_start(0x500)
            .expect("line aligned");
        assert_eq!(f.base_offset, 2);
        let d = SmemDescriptor::new(f, T);
        assert_eq!(d.base_offset(), 2);
        assert_eq!(d.with_pattern_start(0x400).map(|d| d.base_offset()), Ok(0));
        assert!(d.with_pattern_start(0x408).is_err());
    }

    #[test]
    fn advance_checks_and_wraps() {
        let d = SmemDescriptor::new(SmemFields::new(0x3_ff00, 16, 1024, Swizzle::B128), T);
        assert_eq!(d.advance_k(0xf0).map(|d| d.start_address()), Ok(0x3_fff0));
        assert_eq!(
            d.advance_k(0x100),
            Err(SmemError::AdvanceOverflow {
                start: 0x3_ff00,
                bytes: 0x100
            })
        );
        let e = d.advance_k(0x100).expect_err("overflow");
        assert_eq!((e.field(), e.value()), ("start_address", 0x4_0000));
        assert_eq!(
            d.advance_k(u32::MAX - 15).map(|_| ()),
            Err(SmemError::AdvanceOverflow {
                start: 0x3_ff00,
                bytes: u32::MAX - 15
            })
        );
        // Unchecked: wraps within the 14 bits, the other bits untouched, low 4 bits ignored.
        let w = d.advance_k_unchecked(0x10f);
        assert_eq!(w.start_address(), 0);
        assert_eq!(w.bits() & !0x3fff, d.bits() & !0x3fff);
        assert_eq!(SmemDescriptor::decode(w.bits(), T).diagnostics.len(), 0);
        let _ = d.advance_k_unchecked(u32::MAX);
        assert_eq!(d.advance_k(0), Ok(d));
    }

    #[test]
    fn setters_revalidate() {
        let d = SmemDescriptor::new(SmemFields::new(0x400, 16, 1024, Swizzle::B128), T);
        assert_eq!(
            d.with_start_address(0x800).map(|d| d.bits()),
            Ok(0x4000_4040_0001_0080)
        );
        assert_eq!(
            d.with_stride_byte_offset(1000),
            Err(SmemError::Misaligned {
                field: SmemField::StrideByteOffset,
                value: 1000
            })
        );
        assert_eq!(
            d.with_leading_byte_offset(32)
                .map(|d| d.leading_byte_offset()),
            Ok(32)
        );
        assert_eq!(
            d.with_base_offset(9),
            Err(SmemError::BaseOffsetOutOfRange { value: 9 })
        );
        assert_eq!(
            d.with_swizzle(Swizzle::B32).map(|d| d.swizzle()),
            Ok(Swizzle::B32)
        );
        assert_eq!(
            d.with_lbo_mode(LboMode::Absolute, Target::Sm100a),
            Err(SmemError::AbsoluteModeTarget {
                target: Target::Sm100a
            })
        );
        let abs = d
            .with_lbo_mode(LboMode::Absolute, Target::Sm103a)
            .expect("sm_103a");
        // Setters keep checking the absolute-mode rules (as for sm_103a).
        assert_eq!(
            abs.with_swizzle(Swizzle::B64),
            Err(SmemError::AbsoluteModeSwizzle { code: 4 })
        );
        assert_eq!(
            abs.with_base_offset(1),
            Err(SmemError::AbsoluteModeBaseOffset { value: 1 })
        );
        assert_eq!(
            abs.with_leading_byte_offset(0x1000)
                .map(|d| d.leading_byte_offset()),
            Ok(0x1000)
        );
        assert_eq!(
            abs.with_lbo_mode(LboMode::Relative, T)
                .map(|d| d.lbo_mode()),
            Ok(LboMode::Relative)
        );
    }

    #[test]
    fn swizzled_k_major_lbo_is_written_as_given() {
        // decisions.md R6: CUTLASS writes 16 bytes, DeepGEMM 0, Triton a derived value; all encode.
        for lbo in [0, 16, 256, 0x3_fff0] {
            let f = SmemFields::new(0x400, lbo, 1024, Swizzle::B128);
            let d = SmemDescriptor::try_new(f, T).expect("any aligned LBO");
            assert_eq!(d.leading_byte_offset(), lbo);
            assert!(SmemDescriptor::decode(d.bits(), T).diagnostics.is_empty());
        }
    }

    #[test]
    fn const_construction() {
        const D: SmemDescriptor = SmemDescriptor::new(
            SmemFields::new(0x400, 16, 1024, Swizzle::B128),
            Target::Sm100a,
        );
        const RAW: u64 = D.bits();
        const NEXT: u64 = D.advance_k_unchecked(32).bits();
        const DEC: SmemDecoded = SmemDescriptor::decode(RAW, Target::Sm100a);
        assert_eq!(RAW, 0x4000_4040_0001_0040);
        assert_eq!(NEXT, 0x4000_4040_0001_0042);
        assert!(DEC.is_valid());
        assert_eq!(u64::from(D), RAW);
    }

    #[test]
    #[should_panic(expected = "invalid shared memory descriptor")]
    fn new_panics_on_invalid_fields() {
        let _ = SmemDescriptor::new(SmemFields::new(0x401, 0, 0, Swizzle::None), T);
    }

    #[test]
    fn display_is_a_table_of_the_layout() {
        let d = SmemDescriptor::new(SmemFields::new(0x400, 16, 1024, Swizzle::B128), T);
        let s = format!("{d}");
        assert_eq!(s.lines().count(), 2 + SMEM_LAYOUT.len(), "{s}");
        assert!(s.contains("0x4000404000010040"), "{s}");
        assert!(
            s.contains("  0-13   start_address        0x0040    byte address 0x400\n"),
            "{s}"
        );
        assert!(
            s.contains("  16-29  leading_byte_offset  0x0001    16 bytes\n"),
            "{s}"
        );
        assert!(
            s.contains("  32-45  stride_byte_offset   0x0040    1024 bytes\n"),
            "{s}"
        );
        assert!(
            s.contains("  46-48  fixed_46_48          001       fixed 0b001\n"),
            "{s}"
        );
        assert!(
            s.contains("  52     lbo_mode             0         relative: leading byte offset\n"),
            "{s}"
        );
        assert!(
            s.contains("  53-60  fixed_53_60          00000000  fixed 0b00000000\n"),
            "{s}"
        );
        assert!(
            s.contains("  61-63  swizzle              010       128B: 128-Byte swizzling\n"),
            "{s}"
        );
        assert_eq!(format!("{d:?}"), "SmemDescriptor(0x4000404000010040)");

        let dec = SmemDescriptor::decode(0x6000_0000_4000_4040, T);
        let s: String = format!("{dec}");
        assert!(s.contains("reserved: SET, must be 0"), "{s}");
        assert!(s.contains("invalid code 3"), "{s}");
        assert!(
            s.contains("error: bit 14: bit 14 is not described by Table 40"),
            "{s}"
        );
        assert!(
            s.contains("error: fixed_46_48: bits 46-48 must hold"),
            "{s}"
        );
        assert!(s.contains("(decisions.md R1)"), "{s}");
        assert!(format!("{}", SmemDescriptor::decode(d.bits(), T)).ends_with("no problems\n"));
    }

    #[test]
    fn error_messages_name_value_and_source() {
        let cases = [
            (
                SmemError::Misaligned {
                    field: SmemField::StartAddress,
                    value: 0x408,
                },
                "matrix start address 0x408 is not 16-byte aligned",
                "PTX ISA 9.7.16.4.1",
            ),
            (
                SmemError::OutOfRange {
                    field: SmemField::LeadingByteOffset,
                    value: 0x40000,
                },
                "leading dimension byte offset 0x40000 does not fit in the 18 bits kept by \
                 matrix-descriptor-encode (at most 0x3fff0)",
                "decisions.md R3",
            ),
            (
                SmemError::FixedBits {
                    field: SmemField::Fixed46To48,
                    found: 0,
                },
                "bits 46-48 must hold the fixed constant value 0b001, found 0b000",
                "decisions.md R1",
            ),
            (
                SmemError::AbsoluteModeTarget {
                    target: Target::Sm100f,
                },
                "the byte address mode for the leading dimension stride is supported on \
                 sm_103a only, not on sm_100f",
                "PTX ISA 9.7.16.4.1.1",
            ),
            (
                SmemError::InvalidSwizzle { code: 5 },
                "swizzling mode 5 is invalid (valid: 0, 1, 2, 4, 6; values 3, 5 and 7 are \
                 invalid)",
                "PTX ISA 9.7.16.4.1 Table 40",
            ),
        ];
        for (e, msg, source) in cases {
            assert_eq!(format!("{e}"), msg);
            assert_eq!(format!("{}", e.source()), source);
        }
    }
}
