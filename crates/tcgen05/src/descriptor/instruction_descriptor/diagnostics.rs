//! [`IdescDiagnostics`] (the problems of a decoded value, Tables 42-44), [`IdescDecoded`] and
//! [`KindSet`].

use super::codes::{field, layout_index, placeholder, AB_TYPES, FIELD_BITS, WARNINGS};
use super::error::{IdescError, IdescRule, MAX_PROBLEMS};
use super::{at, m_unit, IdescField, IdescFields};
use crate::diagnostic::problem_set;
use crate::diagnostic::Diagnostics;
use crate::mma::Kind;
use crate::mma::ScaleType;

problem_set! {
    /// Every problem of a decoded instruction descriptor, kept as the set of checks it fails.
    ///
    /// Reading the list ([`IdescDiagnostics::iter`], [`IdescDiagnostics::get`]) builds each
    /// [`IdescError`] from the raw value, so decoding itself builds no list. It answers the same
    /// questions as a [`Diagnostics`] list, in the same order; [`IdescDiagnostics::to_list`] gives
    /// one.
    set IdescDiagnostics, iterator IdescProblems, bits u64;
    context { bits: u32, kind: Kind }
    problem IdescError, list Diagnostics<IdescError, MAX_PROBLEMS>, warnings WARNINGS, built by problem_at;
}

impl IdescDiagnostics {
    /// The problems as positions, one bit each: positions 0-31 are the reserved bits of the word
    /// that are set, the positions above one check each, lowest first in the order reported.
    #[must_use]
    pub const fn positions(&self) -> u64 {
        self.set
    }

    /// The problem at `position` (a set bit of [`IdescDiagnostics::positions`]), or `None` when
    /// the set lacks it.
    #[must_use]
    pub const fn at(&self, position: u32) -> Option<IdescError> {
        if position < 64 && (self.set >> position) & 1 == 1 {
            Some(problem_at(self.bits, self.kind, position))
        } else {
            None
        }
    }

    /// The bits of a raw value under `kind` that the problem at `position` is built from: two
    /// values that agree on them have the same problem there (with the kind and the position, a
    /// key for a cache of rendered problems).
    #[must_use]
    pub const fn reads(kind: Kind, position: u32) -> u32 {
        let fields: &[IdescField] = match position {
            at::D_CODE => &[IdescField::DType],
            at::A_CODE | at::TRANSPOSE_A => &[IdescField::AType],
            at::B_CODE | at::TRANSPOSE_B => &[IdescField::BType],
            at::SELECTOR_DENSE | at::SELECTOR_NOT_ZERO => &[IdescField::SparsitySelector],
            at::N_RANGE => &[IdescField::N],
            at::M_SHAPE => &[IdescField::M],
            at::SCALE_TYPE => &[IdescField::ScaleType],
            at::SFA_ID => &[IdescField::SfaId, IdescField::ScaleType, IdescField::K],
            at::SFB_ID => &[IdescField::SfbId, IdescField::ScaleType, IdescField::K],
            _ => &[],
        };
        let table = &FIELD_BITS[layout_index(kind)];
        let mut mask = 0;
        let mut i = 0;
        while i < fields.len() {
            let (lo, width) = table[fields[i] as usize];
            mask |= width << lo;
            i += 1;
        }
        mask
    }

    /// True when one of the problems breaks `rule`.
    #[must_use]
    pub const fn breaks(&self, rule: IdescRule) -> bool {
        let positions = match rule {
            IdescRule::ReservedBit => 0xffff_ffff,
            IdescRule::InvalidTypeCode => (1 << at::D_CODE) | (1 << at::A_CODE) | (1 << at::B_CODE),
            IdescRule::F16AccumulatorNeedsF16Inputs => (1 << at::F16_ACC_A) | (1 << at::F16_ACC_B),
            IdescRule::MixedF16Bf16 => 1 << at::MIXED_F16_BF16,
            IdescRule::SaturateNotI8 => 1 << at::SATURATE,
            IdescRule::NegateI8 => (1 << at::NEGATE_A) | (1 << at::NEGATE_B),
            IdescRule::TransposeNotAllowed => (1 << at::TRANSPOSE_A) | (1 << at::TRANSPOSE_B),
            IdescRule::SparsitySelectorWithoutSparsity => 1 << at::SELECTOR_DENSE,
            IdescRule::SparsitySelectorNotZero => 1 << at::SELECTOR_NOT_ZERO,
            IdescRule::NOutOfRange => 1 << at::N_RANGE,
            IdescRule::MNotInTable39 => 1 << at::M_SHAPE,
            IdescRule::ScaleTypeNotForKind => 1 << at::SCALE_TYPE,
            IdescRule::SfIdNotAllowed => (1 << at::SFA_ID) | (1 << at::SFB_ID),
            IdescRule::K96Sparse => 1 << at::K96_SPARSE,
            // Rules about field values that a raw word cannot hold (a type the kind does not
            // take, a field the layout lacks, a value wider than its bits, an M or N that the
            // word cannot store).
            IdescRule::TypeNotForKind
            | IdescRule::FieldNotInLayout
            | IdescRule::FieldTooWide
            | IdescRule::NNotMultipleOf8
            | IdescRule::MNotEncodable => 0,
        };
        self.set & positions != 0
    }
}

/// A raw instruction descriptor decoded under one kind: the fields (when every type code is
/// defined for the kind) and every problem found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdescDecoded {
    /// The raw value.
    pub bits: u32,
    /// The kind it was decoded under.
    pub kind: Kind,
    /// The fields; `None` when a type field holds a code the kind does not define.
    pub fields: Option<IdescFields>,
    /// Every error and warning, in bit order of the fields concerned.
    pub diagnostics: IdescDiagnostics,
}

impl IdescDecoded {
    /// True when no problem is an error.
    #[must_use]
    pub const fn is_valid(&self) -> bool {
        !self.diagnostics.has_errors()
    }
}

/// A set of kinds, for "under which kinds is this raw value valid".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KindSet(u8);

impl KindSet {
    /// No kind.
    pub const EMPTY: KindSet = KindSet(0);

    /// The set with `kind` added.
    #[must_use]
    pub const fn with(self, kind: Kind) -> KindSet {
        KindSet(self.0 | (1 << kind as u8))
    }

    /// True when `kind` is in the set.
    #[must_use]
    pub const fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }

    /// True for the empty set.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of kinds in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The kinds in the set, in [`Kind::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

/// The problem at `position` of a raw value's set, with its field and value read from the
/// value.
#[inline]
pub(super) const fn problem_at(bits: u32, kind: Kind, position: u32) -> IdescError {
    if position < 32 {
        return IdescError::ReservedBit {
            bit: position as u8,
            kind,
        };
    }
    let l = layout_index(kind);
    let k = kind as usize;
    let a_code = field(bits, l, IdescField::AType);
    let b_code = field(bits, l, IdescField::BType);
    let scale = if kind.is_block_scaled() {
        ScaleType::from_code(field(bits, l, IdescField::ScaleType) as u8)
    } else {
        None
    };
    let selector = field(bits, l, IdescField::SparsitySelector) as u8;
    match position {
        at::D_CODE => IdescError::InvalidTypeCode {
            field: IdescField::DType,
            code: field(bits, l, IdescField::DType) as u8,
            kind,
        },
        at::A_CODE => IdescError::InvalidTypeCode {
            field: IdescField::AType,
            code: a_code as u8,
            kind,
        },
        at::B_CODE => IdescError::InvalidTypeCode {
            field: IdescField::BType,
            code: b_code as u8,
            kind,
        },
        at::F16_ACC_A => IdescError::F16AccumulatorNeedsF16Inputs {
            field: IdescField::AType,
        },
        at::F16_ACC_B => IdescError::F16AccumulatorNeedsF16Inputs {
            field: IdescField::BType,
        },
        at::MIXED_F16_BF16 => IdescError::MixedF16Bf16,
        at::SATURATE => IdescError::SaturateNotI8 { kind },
        at::NEGATE_A => IdescError::NegateI8 {
            field: IdescField::NegateA,
        },
        at::NEGATE_B => IdescError::NegateI8 {
            field: IdescField::NegateB,
        },
        at::TRANSPOSE_A => IdescError::TransposeNotAllowed {
            field: IdescField::TransposeA,
            kind,
            ty: placeholder(AB_TYPES[k][a_code as usize]),
        },
        at::TRANSPOSE_B => IdescError::TransposeNotAllowed {
            field: IdescField::TransposeB,
            kind,
            ty: placeholder(AB_TYPES[k][b_code as usize]),
        },
        at::SELECTOR_DENSE => IdescError::SparsitySelectorWithoutSparsity { value: selector },
        at::SELECTOR_NOT_ZERO => IdescError::SparsitySelectorNotZero {
            value: selector,
            kind,
        },
        at::N_RANGE => IdescError::NOutOfRange {
            n: (field(bits, l, IdescField::N) as u16) << 3,
        },
        at::M_SHAPE => IdescError::MNotInTable39 {
            m: field(bits, l, IdescField::M) as u16 * m_unit(kind),
            kind,
        },
        at::SCALE_TYPE => IdescError::ScaleTypeNotForKind { scale, kind },
        at::SFA_ID => IdescError::SfIdNotAllowed {
            field: IdescField::SfaId,
            value: field(bits, l, IdescField::SfaId) as u8,
            kind,
            scale,
            k96: field(bits, l, IdescField::K) != 0,
        },
        at::SFB_ID => IdescError::SfIdNotAllowed {
            field: IdescField::SfbId,
            value: field(bits, l, IdescField::SfbId) as u8,
            kind,
            scale,
            k96: field(bits, l, IdescField::K) != 0,
        },
        at::K96_SPARSE => IdescError::K96Sparse,
        bit => IdescError::ReservedBit {
            bit: (bit & 31) as u8,
            kind,
        },
    }
}
