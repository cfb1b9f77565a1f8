//! [`InstructionDescriptor`]: encoding from [`IdescFields`] and the field-by-field checks of
//! Tables 42-44.

use super::error::IdescError;
use super::{layout, m_unit, row, IdescField, IdescFields};
use crate::bits::Role;
use crate::mma::Kind;

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
