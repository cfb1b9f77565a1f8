//! The rules of Tables 42-44 (rules.md R8-R13) and the Table 39 ranges of M and N, written
//! once, on the fields: [`IdescFields::validate`] applies them to fields a kernel author
//! states, [`read_and_check`] to the fields read from a raw value, and the decoder's tables
//! (`tables.rs`) are built at compile time by running [`read_and_check`] on every combination
//! of each group of bits.

use super::codes::{placeholder, AB_TYPES, D_TYPES};
use super::error::{IdescError, MAX_PROBLEMS};
use super::{m_unit, reserved_mask, row, IdescField, IdescFields};
use crate::diagnostic::Diagnostics;
use crate::mma::{
    kind_allows_m, ElementType, IdescLayout, Kind, MaxShift, ScaleType, N_MAX, N_MIN,
};

/// The problem list the rules fill.
type List = Diagnostics<IdescError, MAX_PROBLEMS>;

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

/// The rules of R8-R13 and the Table 39 ranges that hold for every `.cta_group` and `.ws`, in
/// the order they are reported.
///
/// Rules that read a type whose code is unknown (`known`) are skipped: its value is a placeholder.
pub(super) const fn check_fields(f: &IdescFields, known: TypesKnown, d: &mut List) {
    check_types(f, known, d);
    check_layout_fields(f, d);
    check_modifiers(f, known, d);
    check_shape(f, d);
    check_scales(f, d);
}

/// The types (R12): each a type of the kind, an f16 accumulator with f16 inputs, f16 not mixed
/// with bf16 (a warning).
const fn check_types(f: &IdescFields, known: TypesKnown, d: &mut List) {
    let kind = f.kind;
    let d_ok = if kind.is_block_scaled() {
        matches!(f.d_type, ElementType::F32)
    } else {
        f.d_type.d_code(kind).is_some()
    };
    // An unknown d_type is reported by the decoder as an undefined code.
    if known.d && !d_ok {
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
}

/// Fields that the kind's layout lacks keep their defaults (R11).
const fn check_layout_fields(f: &IdescFields, d: &mut List) {
    let kind = f.kind;
    if !matches!(kind.idesc_layout(), IdescLayout::Table42) {
        if f.sparsity_selector != 0 {
            d.push(absent(
                IdescField::SparsitySelector,
                f.sparsity_selector as u64,
                kind,
            ));
        }
        if f.saturate {
            d.push(absent(IdescField::Saturate, 1, kind));
        }
        if f.max_shift.code() != 0 {
            d.push(absent(
                IdescField::MaxShift,
                f.max_shift.rows() as u64,
                kind,
            ));
        }
    } else {
        if f.scale_type.is_some() {
            d.push(IdescError::ScaleTypeNotForKind {
                scale: f.scale_type,
                kind,
            });
        }
        if f.sfa_id != 0 {
            d.push(absent(IdescField::SfaId, f.sfa_id as u64, kind));
        }
        if f.sfb_id != 0 {
            d.push(absent(IdescField::SfbId, f.sfb_id as u64, kind));
        }
    }
    if f.k96 && !matches!(kind.idesc_layout(), IdescLayout::Table44) {
        d.push(absent(IdescField::K, 96, kind));
    }
}

/// Saturate, negation, transposition and the sparsity selector (R11).
const fn check_modifiers(f: &IdescFields, known: TypesKnown, d: &mut List) {
    let kind = f.kind;
    let table42 = matches!(kind.idesc_layout(), IdescLayout::Table42);
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
    if !table42 || f.sparsity_selector == 0 {
        return;
    }
    let value = f.sparsity_selector;
    if value > 3 {
        d.push(IdescError::FieldTooWide {
            field: IdescField::SparsitySelector,
            value: value as u64,
        });
    } else if !f.sparse {
        d.push(IdescError::SparsitySelectorWithoutSparsity { value });
    } else if matches!(kind, Kind::I8 | Kind::F8f6f4) {
        d.push(IdescError::SparsitySelectorNotZero { value, kind });
    }
}

/// N and M: what the layout can store (N >> 3; M >> 4 or M >> 7) and what Table 39 allows (N
/// in the range of every row, M a shape of the kind).
const fn check_shape(f: &IdescFields, d: &mut List) {
    let kind = f.kind;
    if f.n % 8 != 0 {
        d.push(IdescError::NNotMultipleOf8 { n: f.n });
    } else if f.n < N_MIN || f.n > N_MAX {
        d.push(IdescError::NOutOfRange { n: f.n });
    }
    let unit = m_unit(kind);
    if f.m % unit != 0 || f.m / unit > 31 {
        d.push(IdescError::MNotEncodable { m: f.m, kind });
    } else if !kind_allows_m(kind, f.m) {
        d.push(IdescError::MNotInTable39 { m: f.m, kind });
    }
}

/// The scale type and scale-factor IDs of the block-scaled kinds (R12, R13), and K = 96 only
/// dense (Table 44).
const fn check_scales(f: &IdescFields, d: &mut List) {
    let kind = f.kind;
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

/// A field that `kind`'s layout lacks, given `value`.
const fn absent(field: IdescField, value: u64, kind: Kind) -> IdescError {
    IdescError::FieldNotInLayout { field, value, kind }
}

const fn check_sf_id(f: &IdescFields, field: IdescField, id: u8, d: &mut List) {
    if id > 3 {
        d.push(IdescError::FieldTooWide {
            field,
            value: id as u64,
        });
        return;
    }
    // Table 44's "0 or 2" is the K = 64/128 rule. With the K bit set (K = 96, rules.md D10)
    // the scale vector is 3X (`.block32`, IDs 0-3) or 6X (`.block16`, IDs 0 or 2): UE4M3
    // scales imply 6X; UE8M0 scales leave the choice to the instruction's qualifier
    // (`ptx.scale_factor_id_for_scale_vec`).
    let ok = match f.kind {
        Kind::Mxf8f6f4 => true,
        _ => match (f.scale_type, f.k96) {
            (Some(ScaleType::Ue4m3), false) => id == 0,
            (Some(ScaleType::Ue4m3), true) | (_, false) => id == 0 || id == 2,
            (_, true) => true,
        },
    };
    if !ok {
        d.push(IdescError::SfIdNotAllowed {
            field,
            value: id,
            kind: f.kind,
            scale: f.scale_type,
            k96: f.k96,
        });
    }
}

/// Reads a raw value's fields under `kind` through its layout table and applies the rules:
/// the reserved bits first (one error per set bit, lowest first), then the undefined type
/// codes, then [`check_fields`]. The fields are `None` when a type code names no type.
pub(super) const fn read_and_check(bits: u32, kind: Kind) -> (Option<IdescFields>, List) {
    let raw = bits as u64;
    let mut d = Diagnostics::new();
    let mut reserved = bits & reserved_mask(kind);
    while reserved != 0 {
        let bit = reserved.trailing_zeros() as u8;
        d.push(IdescError::ReservedBit { bit, kind });
        reserved &= reserved - 1;
    }
    let a_code = get(raw, kind, IdescField::AType) as u8;
    let b_code = get(raw, kind, IdescField::BType) as u8;
    let a_type = AB_TYPES[kind as usize][a_code as usize];
    let b_type = AB_TYPES[kind as usize][b_code as usize];
    let d_type = if kind.is_block_scaled() {
        Some(ElementType::F32)
    } else {
        let c = get(raw, kind, IdescField::DType) as u8;
        let t = D_TYPES[kind as usize][c as usize];
        if t.is_none() {
            d.push(IdescError::InvalidTypeCode {
                field: IdescField::DType,
                code: c,
                kind,
            });
        }
        t
    };
    if a_type.is_none() {
        d.push(IdescError::InvalidTypeCode {
            field: IdescField::AType,
            code: a_code,
            kind,
        });
    }
    if b_type.is_none() {
        d.push(IdescError::InvalidTypeCode {
            field: IdescField::BType,
            code: b_code,
            kind,
        });
    }
    // Every rule that does not read a type is checked even when a type code names no type
    // (an M = 0 or an N = 0 is reported next to a bad d_type); a placeholder stands in for
    // each unknown type and the rules that read it are skipped (`TypesKnown`).
    let known = TypesKnown {
        d: d_type.is_some(),
        a: a_type.is_some(),
        b: b_type.is_some(),
    };
    let f = read_fields(raw, kind, d_type, a_type, b_type);
    check_fields(&f, known, &mut d);
    let fields = if known.d && known.a && known.b {
        Some(f)
    } else {
        None
    };
    (fields, d)
}

/// The fields of `raw` under `kind`, with the types already read (a placeholder for each
/// unknown one).
const fn read_fields(
    raw: u64,
    kind: Kind,
    d_type: Option<ElementType>,
    a_type: Option<ElementType>,
    b_type: Option<ElementType>,
) -> IdescFields {
    IdescFields {
        kind,
        d_type: placeholder(d_type),
        a_type: placeholder(a_type),
        b_type: placeholder(b_type),
        m: (get(raw, kind, IdescField::M) as u16) * m_unit(kind),
        n: (get(raw, kind, IdescField::N) as u16) << 3,
        sparse: get(raw, kind, IdescField::Sparse) == 1,
        sparsity_selector: get(raw, kind, IdescField::SparsitySelector) as u8,
        saturate: get(raw, kind, IdescField::Saturate) == 1,
        negate_a: get(raw, kind, IdescField::NegateA) == 1,
        negate_b: get(raw, kind, IdescField::NegateB) == 1,
        transpose_a: get(raw, kind, IdescField::TransposeA) == 1,
        transpose_b: get(raw, kind, IdescField::TransposeB) == 1,
        max_shift: match MaxShift::from_code(get(raw, kind, IdescField::MaxShift) as u8) {
            Some(s) => s,
            None => MaxShift::None,
        },
        scale_type: if kind.is_block_scaled() {
            ScaleType::from_code(get(raw, kind, IdescField::ScaleType) as u8)
        } else {
            None
        },
        sfa_id: get(raw, kind, IdescField::SfaId) as u8,
        sfb_id: get(raw, kind, IdescField::SfbId) as u8,
        k96: get(raw, kind, IdescField::K) == 1,
    }
}

/// Reads `field` from `raw` under `kind`, or 0 when the layout lacks it.
const fn get(raw: u64, kind: Kind, field: IdescField) -> u64 {
    match row(kind, field) {
        Some(r) => r.get(raw),
        None => 0,
    }
}
