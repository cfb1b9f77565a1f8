//! [`Swizzle`] (bits 61-63), [`LboMode`] (bit 52) and [`SmemFields`]: the fields of Table 40 as
//! stated, in bytes, and the base offset of Table 41.

use super::error::SmemError;
use super::{swizzle_value, SmemField, LBO_MODE_CODES, SWIZZLE_LINE_BYTES, UNIT_SHIFT};
use crate::bits::RowValue;
use crate::bytes::bytes_eq;
use core::fmt;

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
    /// only (rules.md R18).
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
    /// rules.md R4): 1024 bytes for 128-Byte swizzling with either atomicity, 512 for 64-Byte,
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
    /// 1: the leading-dimension field is an absolute byte address (sm_103a only; rules.md
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
    /// `"leading byte address (sm_103a)"` (absolute, rules.md R5).
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
/// encoded 16-byte units (rules.md R3).
///
/// A plain value with no invariant: [`SmemDescriptor::validate`](super::SmemDescriptor::validate) lists its problems and
/// [`SmemDescriptor::try_new`](super::SmemDescriptor::try_new) encodes it. `SmemDescriptor::decode(d.bits(), t).fields` gives back
/// the fields `d` was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SmemFields {
    /// Matrix start address in shared memory, in bytes (16-byte aligned, below 2^18).
    pub start_address: u32,
    /// Leading dimension byte offset in bytes; in [`LboMode::Absolute`] the leading dimension
    /// byte address (16-byte aligned, below 2^18). Unused for swizzled K-major operands
    /// (rules.md R6).
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

    /// The value of one row as its [`Meaning`](super::Meaning) reads it (bytes, a number or a code name), as
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
/// [`base_offset_for`] then gives 0 whatever the address (rules.md R4).
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
/// byte address), per Table 41 and rules.md R4.
///
/// - Without swizzling: 0 (the field has no meaning).
/// - Pattern on its repeat boundary ([`Swizzle::repeat_bytes`]): 0.
/// - Otherwise `(pattern_start >> 7) & 7`, which is then non-zero, as Table 41 requires.
///
/// # Errors
/// [`SmemError::PatternStartNotLineAligned`] when the pattern is swizzled, not on its boundary, and
/// does not start on a 128-byte line: no base offset describes it (a decision of this crate; see
/// the [module documentation](crate::shared_memory_descriptor)).
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

/// Table 40's `matrix-descriptor-encode` for one byte field, checked (rules.md R3): the field
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
