//! [`InstructionDescriptor`]: encoding from [`IdescFields`] and the field-by-field checks of
//! Tables 42-44.

use super::error::{IdescError, MAX_PROBLEMS};
use super::{layout, m_unit, row, IdescField, IdescFields};
use crate::bits::Role;
use crate::diagnostic::Diagnostics;
use crate::mma::{ElementType, IdescLayout, Kind, ScaleType};

/// A 32-bit instruction descriptor together with its kind, satisfying every rule of the kind's
/// layout (Tables 42-44, rules.md R8-R13) that does not depend on `.cta_group`, `.ws` or the
/// target.
///
/// Build one with [`InstructionDescriptor::try_new`] / [`InstructionDescriptor::new`] from
/// [`IdescFields`], or from raw bits with [`InstructionDescriptor::from_bits`]; decode any raw
/// value with [`InstructionDescriptor::decode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstructionDescriptor {
    pub(super) bits: u32,
    pub(super) kind: Kind,
}

impl InstructionDescriptor {
    /// Encodes and validates the fields.
    ///
    /// # Errors
    /// The first problem [`IdescFields::validate`] reports.
    pub const fn try_new(fields: IdescFields) -> Result<Self, IdescError> {
        let d = fields.validate();
        let mut i = 0;
        while i < d.len() {
            if let Some(e) = d.get(i) {
                if !matches!(e, IdescError::MixedF16Bf16) {
                    return Err(e);
                }
            }
            i += 1;
        }
        Ok(Self {
            bits: encode_unchecked(&fields),
            kind: fields.kind,
        })
    }

    /// Encodes the fields, panicking when they break a rule, so that a bad descriptor in a
    /// `const` item fails to compile.
    ///
    /// # Panics
    /// When [`InstructionDescriptor::try_new`] fails.
    #[must_use]
    pub const fn new(fields: IdescFields) -> Self {
        match Self::try_new(fields) {
            Ok(d) => d,
            Err(_) => panic!("invalid tcgen05 instruction descriptor fields"),
        }
    }

    /// Decodes and validates a raw value under `kind`.
    ///
    /// # Errors
    /// The first error [`InstructionDescriptor::decode`] reports.
    pub const fn from_bits(bits: u32, kind: Kind) -> Result<Self, IdescError> {
        match Self::decode(bits, kind).diagnostics.first_error() {
            Some(e) => Err(e),
            None => Ok(Self { bits, kind }),
        }
    }

    /// Wraps a raw value without checking it. Nothing in this crate relies on its validity, but
    /// [`InstructionDescriptor::fields`] may then return `None`.
    #[must_use]
    pub const fn from_bits_unchecked(bits: u32, kind: Kind) -> Self {
        Self { bits, kind }
    }

    /// The 32-bit value that `tcgen05.mma` takes as `idesc`.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.bits
    }

    /// The kind whose layout the value follows.
    #[must_use]
    pub const fn kind(self) -> Kind {
        self.kind
    }

    /// The fields, or `None` for a value from [`InstructionDescriptor::from_bits_unchecked`]
    /// whose type codes are not defined for its kind.
    #[must_use]
    pub const fn fields(self) -> Option<IdescFields> {
        Self::decode(self.bits, self.kind).fields
    }

    /// The raw bits of `field` in this value's layout, or `None` if the layout lacks the field.
    #[must_use]
    pub const fn raw_field(self, field: IdescField) -> Option<u32> {
        match row(self.kind, field) {
            Some(r) => Some(r.get(self.bits as u64) as u32),
            None => None,
        }
    }
}

/// Which of the three types are known: a decoded type code may name no type under the kind.
#[derive(Clone, Copy)]
pub(super) struct TypesKnown {
    pub(super) d: bool,
    pub(super) a: bool,
    pub(super) b: bool,
}

impl TypesKnown {
    pub(super) const ALL: TypesKnown = TypesKnown {
        d: true,
        a: true,
        b: true,
    };
}

/// The value each layout field takes for `f` (M and N already shifted).
const fn field_value(f: &IdescFields, field: IdescField) -> u64 {
    match field {
        IdescField::SparsitySelector => f.sparsity_selector as u64,
        IdescField::Sparse => f.sparse as u64,
        IdescField::Saturate => f.saturate as u64,
        IdescField::DType => match f.d_type.d_code(f.kind) {
            Some(c) => c as u64,
            None => 0,
        },
        IdescField::AType => match f.a_type.ab_code(f.kind) {
            Some(c) => c as u64,
            None => 0,
        },
        IdescField::BType => match f.b_type.ab_code(f.kind) {
            Some(c) => c as u64,
            None => 0,
        },
        IdescField::NegateA => f.negate_a as u64,
        IdescField::NegateB => f.negate_b as u64,
        IdescField::TransposeA => f.transpose_a as u64,
        IdescField::TransposeB => f.transpose_b as u64,
        IdescField::N => (f.n >> 3) as u64,
        IdescField::M => (f.m / m_unit(f.kind)) as u64,
        IdescField::MaxShift => f.max_shift.code() as u64,
        IdescField::ScaleType => match f.scale_type {
            Some(s) => s as u64,
            None => 0,
        },
        IdescField::SfaId => f.sfa_id as u64,
        IdescField::SfbId => f.sfb_id as u64,
        IdescField::K => f.k96 as u64,
        IdescField::Reserved0
        | IdescField::Reserved3
        | IdescField::Reserved6
        | IdescField::Reserved12
        | IdescField::Reserved23
        | IdescField::Reserved24
        | IdescField::Reserved29
        | IdescField::Reserved31 => 0,
    }
}

/// Packs the fields through the kind's layout table without checking them.
const fn encode_unchecked(f: &IdescFields) -> u32 {
    let table = layout(f.kind);
    let mut raw = 0u64;
    let mut i = 0;
    while i < table.len() {
        let r = &table[i];
        if matches!(r.role, Role::Value) {
            raw = r.set(raw, field_value(f, r.field));
        }
        i += 1;
    }
    raw as u32
}

/// The rules of R8-R13 and the Table 39 ranges that hold for every `.cta_group` and `.ws`.
///
/// Rules that read a type whose code is unknown (`known`) are skipped: its value is a placeholder.
pub(super) const fn check_fields(
    f: &IdescFields,
    known: TypesKnown,
    d: &mut Diagnostics<IdescError, MAX_PROBLEMS>,
) {
    let kind = f.kind;
    // Types (R12).
    if !known.d {
        // Reported by the decoder as an undefined code.
    } else if kind.is_block_scaled() {
        if !matches!(f.d_type, ElementType::F32) {
            d.push(IdescError::TypeNotForKind {
                field: IdescField::DType,
                ty: f.d_type,
                kind,
            });
        }
    } else if f.d_type.d_code(kind).is_none() {
        d.push(IdescError::TypeNotForKind {
            field: IdescField::DType,
            ty: f.d_type,
            kind,
        });
    }
    let a_ok = known.a && f.a_type.ab_code(kind).is_some();
    let b_ok = known.b && f.b_type.ab_code(kind).is_some();
    if known.a && !a_ok {
        d.push(IdescError::TypeNotForKind {
            field: IdescField::AType,
            ty: f.a_type,
            kind,
        });
    }
    if known.b && !b_ok {
        d.push(IdescError::TypeNotForKind {
            field: IdescField::BType,
            ty: f.b_type,
            kind,
        });
    }
    if matches!(kind, Kind::F16) && a_ok && b_ok {
        if known.d && matches!(f.d_type, ElementType::F16) {
            if matches!(f.a_type, ElementType::Bf16) {
                d.push(IdescError::F16AccumulatorNeedsF16Inputs {
                    field: IdescField::AType,
                });
            }
            if matches!(f.b_type, ElementType::Bf16) {
                d.push(IdescError::F16AccumulatorNeedsF16Inputs {
                    field: IdescField::BType,
                });
            }
        }
        if f.a_type as u8 != f.b_type as u8 {
            d.push(IdescError::MixedF16Bf16);
        }
    }
    // Fields some layouts lack (R11).
    let table42 = matches!(kind.idesc_layout(), IdescLayout::Table42);
    if !table42 {
        if f.sparsity_selector != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::SparsitySelector,
                value: f.sparsity_selector as u64,
                kind,
            });
        }
        if f.saturate {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::Saturate,
                value: 1,
                kind,
            });
        }
        if f.max_shift.code() != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::MaxShift,
                value: f.max_shift.rows() as u64,
                kind,
            });
        }
    } else {
        if f.scale_type.is_some() {
            d.push(IdescError::ScaleTypeNotForKind {
                scale: f.scale_type,
                kind,
            });
        }
        if f.sfa_id != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::SfaId,
                value: f.sfa_id as u64,
                kind,
            });
        }
        if f.sfb_id != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::SfbId,
                value: f.sfb_id as u64,
                kind,
            });
        }
    }
    if f.k96 && !matches!(kind.idesc_layout(), IdescLayout::Table44) {
        d.push(IdescError::FieldNotInLayout {
            field: IdescField::K,
            value: 96,
            kind,
        });
    }
    // Saturate, negate (R11).
    if table42 && f.saturate && !matches!(kind, Kind::I8) {
        d.push(IdescError::SaturateNotI8 { kind });
    }
    if matches!(kind, Kind::I8) {
        if f.negate_a {
            d.push(IdescError::NegateI8 {
                field: IdescField::NegateA,
            });
        }
        if f.negate_b {
            d.push(IdescError::NegateI8 {
                field: IdescField::NegateB,
            });
        }
    }
    // Transpose (R11).
    let no_transpose_kind = matches!(kind, Kind::Mxf4 | Kind::Mxf4nvf4);
    if f.transpose_a && (no_transpose_kind || (known.a && f.a_type.is_sub_byte())) {
        d.push(IdescError::TransposeNotAllowed {
            field: IdescField::TransposeA,
            kind,
            ty: f.a_type,
        });
    }
    if f.transpose_b && (no_transpose_kind || (known.b && f.b_type.is_sub_byte())) {
        d.push(IdescError::TransposeNotAllowed {
            field: IdescField::TransposeB,
            kind,
            ty: f.b_type,
        });
    }
    // Sparsity selector (R11).
    if table42 {
        if f.sparsity_selector > 3 {
            d.push(IdescError::FieldTooWide {
                field: IdescField::SparsitySelector,
                value: f.sparsity_selector as u64,
            });
        } else if f.sparsity_selector != 0 {
            if !f.sparse {
                d.push(IdescError::SparsitySelectorWithoutSparsity {
                    value: f.sparsity_selector,
                });
            } else if matches!(kind, Kind::I8 | Kind::F8f6f4) {
                d.push(IdescError::SparsitySelectorNotZero {
                    value: f.sparsity_selector,
                    kind,
                });
            }
        }
    }
    // N (Tables 42-44 store N >> 3; Table 39 ranges).
    if f.n % 8 != 0 {
        d.push(IdescError::NNotMultipleOf8 { n: f.n });
    } else if f.n < 8 || f.n > 256 {
        d.push(IdescError::NOutOfRange { n: f.n });
    }
    // M.
    let unit = m_unit(kind);
    if f.m % unit != 0 || f.m / unit > 31 {
        d.push(IdescError::MNotEncodable { m: f.m, kind });
    } else {
        let ok = if kind.is_block_scaled() {
            matches!(f.m, 128 | 256)
        } else {
            matches!(f.m, 32 | 64 | 128 | 256)
        };
        if !ok {
            d.push(IdescError::MNotInTable39 { m: f.m, kind });
        }
    }
    // Scale type and scale-factor IDs (R12, R13).
    if kind.is_block_scaled() {
        let scale_ok = match f.scale_type {
            Some(ScaleType::Ue8m0) => true,
            Some(ScaleType::Ue4m3) => matches!(kind, Kind::Mxf4nvf4),
            None => false,
        };
        if !scale_ok {
            d.push(IdescError::ScaleTypeNotForKind {
                scale: f.scale_type,
                kind,
            });
        }
        check_sf_id(f, IdescField::SfaId, f.sfa_id, d);
        check_sf_id(f, IdescField::SfbId, f.sfb_id, d);
    }
    if f.k96 && f.sparse && matches!(kind.idesc_layout(), IdescLayout::Table44) {
        d.push(IdescError::K96Sparse);
    }
}

const fn check_sf_id(
    f: &IdescFields,
    field: IdescField,
    id: u8,
    d: &mut Diagnostics<IdescError, MAX_PROBLEMS>,
) {
    if id > 3 {
        d.push(IdescError::FieldTooWide {
            field,
            value: id as u64,
        });
        return;
    }
    let ok = match f.kind {
        Kind::Mxf8f6f4 => true,
        _ => match f.scale_type {
            Some(ScaleType::Ue4m3) => id == 0,
            _ => id == 0 || id == 2,
        },
    };
    if !ok {
        d.push(IdescError::SfIdNotAllowed {
            field,
            value: id,
            kind: f.kind,
            scale: f.scale_type,
        });
    }
}
