//! [`SmemDescriptor`] and [`SmemDecoded`]: encoding, decoding and `Display` of Table 40's 64-bit
//! word.

use super::error::{check_bytes, check_combination, first_error, SmemError};
use super::fields::{LboMode, SmemFields, Swizzle};
use super::{SmemDiagnostics, SmemField, SmemProblemList, SMEM_LAYOUT, UNIT_SHIFT};
use crate::bits::{Role, Word};
use crate::diagnostic::{Diagnostics, OneLine, Severity};
use crate::targets::Target;
use core::fmt;

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
        !self.diagnostics.has_errors()
    }

    /// The first error, in bit order.
    #[must_use]
    pub const fn first_error(&self) -> Option<SmemError> {
        self.diagnostics.first_error()
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

/// A shared memory descriptor (PTX ISA 9.7.16.4.1) that satisfies Tables 40-41 and rules.md
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
    pub const fn validate(fields: &SmemFields, target: Target) -> SmemProblemList {
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
        SmemDecoded {
            raw,
            target,
            // An invalid swizzle code reads as no swizzling; the problem set reports the code.
            fields: SmemDescriptor(raw).fields(),
            diagnostics: SmemDiagnostics::of(raw, target),
        }
    }

    /// True when `raw` has no error for `target` (warnings allowed): the verdict of
    /// [`SmemDescriptor::decode`] without the fields.
    #[must_use]
    pub const fn is_valid(raw: u64, target: Target) -> bool {
        SmemDiagnostics::of(raw, target).error_count() == 0
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
    /// ([`base_offset_for`](super::base_offset_for) with this descriptor's swizzle).
    ///
    /// # Errors
    /// [`SmemError::PatternStartNotLineAligned`] as [`base_offset_for`](super::base_offset_for);
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
    /// start-address field (rules.md R7), as CUTLASS's descriptor iterator does, the base
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
