//! Byte values and codes into descriptor fields, with their checks: Table 40's
//! matrix-descriptor-encode of byte values (rules.md R3), the swizzle code, and the base offset of
//! a pattern start (Table 41, rules.md R4).

use super::error::SmemError;
use super::fields::{SmemFields, Swizzle};
use super::{SmemField, SWIZZLE_LINE_BYTES, UNIT_SHIFT};

impl Swizzle {
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
}

impl SmemFields {
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
