//! [`Swizzle`] (bits 61-63), [`LboMode`] (bit 52) and [`SmemFields`]: the fields of Table 40 as
//! stated, in bytes, and the base offset of Table 41.

use super::{swizzle_value, SmemField, LBO_MODE_CODES};
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
    /// Matrix base offset, 0-7 (Table 41; see [`base_offset_for`](super::base_offset_for)).
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
