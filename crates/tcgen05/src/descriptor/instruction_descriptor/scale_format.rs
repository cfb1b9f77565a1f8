//! The scale-format bits of the block-scaled instruction descriptors (Tables 43 and 44), per
//! target: one bit (23) before the `sm_107` family, two (23-24) on it.
//!
//! PTX ISA 9.1 Tables 43 and 44 give the scale type one bit, 23 (UE8M0 = 1, UE4M3 = 0), and
//! reserve bit 24. PTX ISA 9.4 adds UE5M3 scale factors on `sm_107f` (Table 72; ruling D7 of
//! `docs/rules.md`); its descriptor tables (§9.7.18.4.2) were not read here. The newer layout
//! comes from two public sources that agree: NVIDIA's CuTe DSL descriptor types (the wheel
//! `nvidia-cutlass-dsl` 4.8.1 that `conformance/kernels/setup.sh` pins,
//! `cutlass/experimental/primitives/descriptors.py`, `Tcgen05MxInstrDesc`: "\[23:25) scale_format ... \[24\] reserved in SM100", with
//! UE4M3 = 0, E8M0 = 1, UE5M3 = 2) and Triton's tcgen05 lowering (its `scaleKind` enumeration,
//! ue4m3 = 0, e8m0 = 1, ue5m3 = 2, written into bits 23-24). Ruling D9 of `docs/rules.md`
//! records the reading: two bits on `sm_107a` / `sm_107f`, one bit and a reserved bit 24
//! everywhere else; UE5M3 only with `.kind::mxf4nvf4` (D7); code 3 names no format.
//!
//! This module decodes the field alone, for `decode` and `check` to name the bits per
//! target; the layouts of the rest of the word are [`super::InstructionDescriptor`]'s.

use core::fmt;

use crate::mma::Kind;
use crate::targets::Target;

/// How many bits the scale format has on a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ScaleFormatField {
    /// Bit 23 (PTX ISA 9.1 Tables 43-44); bit 24 reserved.
    Bit23,
    /// Bits 23-24 (the `sm_107` family, PTX ISA 9.4; ruling D9).
    Bits23To24,
}

impl ScaleFormatField {
    /// The field on `target`.
    #[must_use]
    pub const fn of(target: Target) -> ScaleFormatField {
        match target {
            Target::Sm107a | Target::Sm107f => ScaleFormatField::Bits23To24,
            _ => ScaleFormatField::Bit23,
        }
    }

    /// The field's bits in the word.
    #[must_use]
    pub const fn mask(self) -> u32 {
        match self {
            ScaleFormatField::Bit23 => 1 << 23,
            ScaleFormatField::Bits23To24 => 3 << 23,
        }
    }
}

/// A scale-factor format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ScaleFormat {
    /// UE4M3, code 0 (`.kind::mxf4nvf4`).
    Ue4m3,
    /// UE8M0, code 1.
    Ue8m0,
    /// UE5M3, code 2 (`.kind::mxf4nvf4` on the `sm_107` family; ruling D7).
    Ue5m3,
}

impl ScaleFormat {
    /// The PTX name, for example `"ue5m3"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ScaleFormat::Ue4m3 => "ue4m3",
            ScaleFormat::Ue8m0 => "ue8m0",
            ScaleFormat::Ue5m3 => "ue5m3",
        }
    }

    /// The format of a field code (0-2), `None` for 3.
    #[must_use]
    pub const fn from_code(code: u32) -> Option<ScaleFormat> {
        match code {
            0 => Some(ScaleFormat::Ue4m3),
            1 => Some(ScaleFormat::Ue8m0),
            2 => Some(ScaleFormat::Ue5m3),
            _ => None,
        }
    }

    /// Whether `kind` takes this format (R12; UE5M3 as UE4M3, `.kind::mxf4nvf4` only).
    #[must_use]
    pub const fn allowed_for(self, kind: Kind) -> bool {
        match self {
            ScaleFormat::Ue8m0 => kind.is_block_scaled(),
            ScaleFormat::Ue4m3 | ScaleFormat::Ue5m3 => matches!(kind, Kind::Mxf4nvf4),
        }
    }
}

/// The scale-format bits of one word, read for a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScaleFormatBits {
    /// The field on the target.
    pub field: ScaleFormatField,
    /// The field's value.
    pub code: u32,
    /// Its format.
    pub format: ScaleFormat,
}

/// Why the scale-format bits do not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ScaleFormatError {
    /// The kind has no scale format (Table 42).
    NotBlockScaled {
        /// The kind.
        kind: Kind,
    },
    /// Bit 24 set on a target where it is reserved: what bits 23-24 would mean on `sm_107`.
    ReservedBit24 {
        /// The target.
        target: Target,
        /// Bits 23-24 read as the `sm_107` field.
        code: u32,
    },
    /// Code 3 of the two-bit field names no format.
    UndefinedCode {
        /// The code.
        code: u32,
    },
    /// A format the kind does not take.
    NotForKind {
        /// The format.
        format: ScaleFormat,
        /// The kind.
        kind: Kind,
    },
}

impl fmt::Display for ScaleFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScaleFormatError::NotBlockScaled { kind } => write!(
                f,
                ".kind::{} has no scale format (PTX ISA 9.7.16.4.2 Table 42)",
                kind.name()
            ),
            ScaleFormatError::ReservedBit24 { target, code } => {
                write!(
                    f,
                    "bit 24 is reserved on {} (PTX ISA 9.7.16.4.2 Tables 43-44); bits 23-24 = {code} \
                     would be ",
                    target.name()
                )?;
                match ScaleFormat::from_code(code) {
                    Some(s) => write!(f, "{}", s.name())?,
                    None => f.write_str("no format")?,
                }
                f.write_str(" on sm_107a / sm_107f (PTX ISA 9.4; rules.md D9)")
            }
            ScaleFormatError::UndefinedCode { code } => write!(
                f,
                "scale format code {code} (bits 23-24) names no format: 0 UE4M3, 1 UE8M0, 2 UE5M3 \
                 (rules.md D9)"
            ),
            ScaleFormatError::NotForKind { format, kind } => write!(
                f,
                "{} scale factors are not allowed with .kind::{} (rules.md R12, D7)",
                format.name(),
                kind.name()
            ),
        }
    }
}

/// The scale format of `raw` under `kind` on `target` (ruling D9).
///
/// # Errors
/// [`ScaleFormatError`]: a kind without scale factors, bit 24 on a target that reserves it
/// (saying what the bits would mean on `sm_107`), code 3, a format the kind does not take.
pub const fn decode_scale_format(
    raw: u32,
    kind: Kind,
    target: Target,
) -> Result<ScaleFormatBits, ScaleFormatError> {
    if !kind.is_block_scaled() {
        return Err(ScaleFormatError::NotBlockScaled { kind });
    }
    let field = ScaleFormatField::of(target);
    let wide = (raw >> 23) & 3;
    let code = match field {
        ScaleFormatField::Bit23 => {
            if wide & 2 != 0 {
                return Err(ScaleFormatError::ReservedBit24 { target, code: wide });
            }
            wide
        }
        ScaleFormatField::Bits23To24 => wide,
    };
    let Some(format) = ScaleFormat::from_code(code) else {
        return Err(ScaleFormatError::UndefinedCode { code });
    };
    if !format.allowed_for(kind) {
        return Err(ScaleFormatError::NotForKind { format, kind });
    }
    Ok(ScaleFormatBits {
        field,
        code,
        format,
    })
}

/// The word that the PTX ISA 9.1 layout tables (Tables 43-44) should read for `raw` on
/// `target`: on `sm_107a` / `sm_107f`, a UE5M3 code (2 in bits 23-24, `.kind::mxf4nvf4`) is
/// replaced by UE4M3's code 0, whose rules UE5M3 shares (16-element blocks, scale-factor ID
/// 0; rulings D7 and D9); every other word, on every other target, is returned as it is, so
/// that a set bit 24 before `sm_107` stays the reserved-bit error of Tables 43-44 and code 3
/// or UE5M3 with another kind stays an error on `sm_107`.
#[must_use]
pub const fn layout_word(raw: u32, kind: Kind, target: Target) -> u32 {
    if matches!(ScaleFormatField::of(target), ScaleFormatField::Bit23) {
        return raw;
    }
    match decode_scale_format(raw, kind, target) {
        Ok(ScaleFormatBits {
            format: ScaleFormat::Ue5m3,
            ..
        }) => raw & !(3 << 23),
        _ => raw,
    }
}

/// Bits 23-24 of a word on a target with the two-bit field (ruling D9), in words, for the row
/// of a layout table: `.ue4m3`, `.ue8m0`, `.ue5m3`, `.ue5m3, not for .kind::mxf4`, or
/// `code 3: reserved`. Empty for a kind without scale factors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldMeaning {
    /// The word.
    pub raw: u32,
    /// The kind.
    pub kind: Kind,
    /// The target.
    pub target: Target,
}

impl fmt::Display for FieldMeaning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match decode_scale_format(self.raw, self.kind, self.target) {
            Ok(b) => write!(f, ".{}", b.format.name()),
            Err(ScaleFormatError::UndefinedCode { code }) => write!(f, "code {code}: reserved"),
            Err(ScaleFormatError::NotForKind { format, kind }) => {
                write!(f, ".{}, not for .kind::{}", format.name(), kind.name())
            }
            Err(
                ScaleFormatError::ReservedBit24 { .. } | ScaleFormatError::NotBlockScaled { .. },
            ) => Ok(()),
        }
    }
}

/// The error of bits 23-24 on a target where they are the two-bit scale format (`sm_107a` /
/// `sm_107f`; ruling D9), when bit 24 is set and the bits do not decode: code 3, which names
/// no format, or UE5M3 (code 2) with a kind other than `.kind::mxf4nvf4` (D7). The layout
/// tables, which read [`layout_word`] (here the word as it is), report bit 24 as reserved;
/// callers report this error in its place (`shapes::MmaError::ScaleFormat`). `None` on every
/// other target and word.
#[must_use]
pub const fn two_bit_field_error(raw: u32, kind: Kind, target: Target) -> Option<ScaleFormatError> {
    if matches!(ScaleFormatField::of(target), ScaleFormatField::Bit23) || raw & (1 << 24) == 0 {
        return None;
    }
    match decode_scale_format(raw, kind, target) {
        Err(e @ (ScaleFormatError::UndefinedCode { .. } | ScaleFormatError::NotForKind { .. })) => {
            Some(e)
        }
        _ => None,
    }
}

/// Whether `raw` carries UE5M3 scale factors on `target` (code 2 of bits 23-24 under
/// `.kind::mxf4nvf4` on `sm_107a` / `sm_107f`; ruling D9).
#[must_use]
pub const fn is_ue5m3(raw: u32, kind: Kind, target: Target) -> bool {
    layout_word(raw, kind, target) != raw
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

    use super::*;
    use alloc::format;

    /// Triton 3.9.0's `tl.dot_scaled` nvfp4 word with uint8 scales (issue 27): scale-format
    /// code 2 in bits 23-24, here with M = 128, N = 128, E2M1 A and B (Table 44 positions).
    const TRITON_U8_SCALES: u32 = 2 << 23 | 1 << 27 | (128 >> 3) << 17 | 1 << 7 | 1 << 10;

    #[test]
    fn bit_24_is_reserved_before_sm_107_and_ue5m3_on_it() {
        for t in [
            Target::Sm100a,
            Target::Sm103a,
            Target::Sm110a,
            Target::Sm100f,
        ] {
            let e = decode_scale_format(TRITON_U8_SCALES, Kind::Mxf4nvf4, t).unwrap_err();
            assert_eq!(e, ScaleFormatError::ReservedBit24 { target: t, code: 2 });
            let text = format!("{e}");
            assert!(
                text.contains("bit 24 is reserved on") && text.contains("ue5m3"),
                "{text}"
            );
        }
        for t in [Target::Sm107a, Target::Sm107f] {
            let got = decode_scale_format(TRITON_U8_SCALES, Kind::Mxf4nvf4, t).unwrap();
            assert_eq!(got.format, ScaleFormat::Ue5m3);
            assert_eq!(got.field, ScaleFormatField::Bits23To24);
        }
    }

    /// Every code of bits 23-24 under every block-scaled kind and target, against the table
    /// written from the sources (CuTe DSL, Triton; R12, D7).
    #[test]
    fn every_code_kind_and_target() {
        for t in Target::ALL {
            for kind in [Kind::Mxf8f6f4, Kind::Mxf4, Kind::Mxf4nvf4] {
                for code in 0..4u32 {
                    let raw = code << 23;
                    let got = decode_scale_format(raw, kind, t);
                    let sm107 = matches!(t, Target::Sm107a | Target::Sm107f);
                    let nv = kind == Kind::Mxf4nvf4;
                    let want_ok = match code {
                        0 => nv,
                        1 => true,
                        2 => sm107 && nv,
                        _ => false,
                    };
                    assert_eq!(got.is_ok(), want_ok, "{t:?} {kind:?} code {code}");
                    if code >= 2 && !sm107 {
                        assert!(matches!(got, Err(ScaleFormatError::ReservedBit24 { .. })));
                    }
                }
            }
        }
        assert!(matches!(
            decode_scale_format(1 << 23, Kind::F16, Target::Sm107a),
            Err(ScaleFormatError::NotBlockScaled { .. })
        ));
    }

    /// Bit 3 of the 4-bit kinds (the newer layouts' upper K bit, the "8X" forms) stays
    /// reserved, and the error names the sections whose placement is not in the text.
    #[test]
    fn bit_3_is_refused_naming_the_8x_sections() {
        let word = TRITON_U8_SCALES & !(3 << 23) | 1 << 23 | 1 << 3;
        let e = super::super::InstructionDescriptor::from_bits(word, Kind::Mxf4nvf4).unwrap_err();
        let text = format!("{e}");
        assert!(text.contains("bit 3 is reserved"), "{text}");
        assert!(
            text.contains("9.7.18.10.7.2.6") && text.contains("not modelled"),
            "{text}"
        );
    }
}
