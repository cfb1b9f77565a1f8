//! The 64-bit shared memory descriptor (matrix descriptor) of `tcgen05.mma`: where an operand
//! matrix lies in shared memory and how it is laid out (PTX ISA 9.7.16.4.1, Tables 40-41).
//!
//! CUTLASS calls this value `UMMA::SmemDescriptor`. Its layout is [`SMEM_LAYOUT`]; the rules that
//! the PTX text leaves open are decided by rules.md R1-R7:
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
use crate::bits::{Addressing, BitField, CodeName, LayoutField, Meaning, RowValue};
use crate::bytes::bytes_eq;
use crate::diagnostic::Diagnostics;

mod descriptor;
mod encode;
mod error;
mod fields;
mod problems;
pub use descriptor::*;
pub use encode::*;
pub use error::*;
pub use fields::*;
pub use problems::*;

/// A run of bits of the shared memory descriptor: the six fields of Table 40, its two fixed
/// constants and the two unnamed (reserved) pairs of bits.
///
/// The discriminant is the row's index in [`SMEM_LAYOUT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SmemField {
    /// Bits 0-13: matrix-descriptor-encode(matrix start address).
    StartAddress,
    /// Bits 14-15: not described by Table 40; reserved (rules.md R2).
    Reserved14To15,
    /// Bits 16-29: matrix-descriptor-encode(leading dimension byte offset), or of the leading
    /// dimension byte address in absolute mode.
    LeadingByteOffset,
    /// Bits 30-31: not described by Table 40; reserved (rules.md R2).
    Reserved30To31,
    /// Bits 32-45: matrix-descriptor-encode(stride dimension byte offset).
    StrideByteOffset,
    /// Bits 46-48: the fixed constant 0b001 (rules.md R1; CUTLASS's 2-bit `version_` = 1).
    Fixed46To48,
    /// Bits 49-51: matrix base offset (Table 41).
    BaseOffset,
    /// Bit 52: leading dimension stride mode (0 relative, 1 absolute).
    LboMode,
    /// Bits 53-60: the fixed constant 0 (rules.md R1).
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
/// 16-byte units (Table 40; rules.md R3).
pub const START_ADDRESS_BYTES: Meaning = Meaning::Bytes {
    shift: UNIT_SHIFT as u8,
    addressing: Addressing::Address,
};

/// Meaning of bits 16-29: the leading dimension byte offset in 16-byte units, or its byte
/// address while bit 52 selects the absolute mode (Table 40; rules.md R3, R5).
pub const LEADING_BYTES: Meaning = Meaning::Bytes {
    shift: UNIT_SHIFT as u8,
    addressing: Addressing::AddressWhenBit(52),
};

/// Meaning of bits 32-45: the stride dimension byte offset in 16-byte units (Table 40;
/// rules.md R3).
pub const STRIDE_BYTES: Meaning = Meaning::Bytes {
    shift: UNIT_SHIFT as u8,
    addressing: Addressing::Offset,
};

/// Meaning of bits 49-51: the matrix base offset, in 128-byte lines (Table 41), which means
/// nothing without swizzling, that is while bits 61-63 are zero (rules.md R4).
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
    /// unnamed bits (rules.md R2) and the corrected fixed constant (rules.md R1).
    ///
    /// The byte fields hold `matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4`: the byte value in
    /// units of 16 bytes (rules.md R3).
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

/// Every problem found in one set of shared memory descriptor fields
/// ([`SmemDescriptor::validate`]), or a decoded value's problems as a list
/// ([`SmemDiagnostics::to_list`]).
pub type SmemProblemList = Diagnostics<SmemError, SMEM_DIAGNOSTICS_CAPACITY>;

#[cfg(test)]
mod tests;
