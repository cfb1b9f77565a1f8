//! The instruction descriptor's codes as data: where each field sits in Tables 42-44, which
//! type codes each kind takes, and the problems of a raw value as a bit set (one bit per
//! check), read by the decoder and the validity tables.

use super::{m_unit, reserved_mask, IdescField, FIELD_COUNT, TABLE_42, TABLE_43, TABLE_44};
use crate::bits::BitField;
use crate::mma::{ElementType, IdescLayout, Kind};

// ---------------------------------------------------------------------------------------------
// The decoder's fast path: field positions, type codes and the rules as data.
// ---------------------------------------------------------------------------------------------

/// Where each field sits in each layout, as (lowest bit, mask of its width; 0 when the layout
/// lacks it), read from [`TABLE_42`], [`TABLE_43`] and [`TABLE_44`] at compile time.
pub(super) const FIELD_BITS: [[(u32, u32); FIELD_COUNT]; 3] = [
    field_bits(TABLE_42),
    field_bits(TABLE_43),
    field_bits(TABLE_44),
];

const fn field_bits(table: &[BitField<IdescField>]) -> [(u32, u32); FIELD_COUNT] {
    let mut out = [(0u32, 0u32); FIELD_COUNT];
    let mut i = 0;
    while i < table.len() {
        out[table[i].field as usize] = (table[i].lo as u32, table[i].max() as u32);
        i += 1;
    }
    out
}

/// The raw bits of `field` in `bits` under the layout numbered `layout` (0 for Table 42), or 0
/// when that layout lacks the field.
#[inline(always)]
pub(super) const fn field(bits: u32, layout: usize, field: IdescField) -> u32 {
    let (lo, mask) = FIELD_BITS[layout][field as usize];
    (bits >> lo) & mask
}

pub(super) const fn layout_index(kind: Kind) -> usize {
    match kind.idesc_layout() {
        IdescLayout::Table42 => 0,
        IdescLayout::Table43 => 1,
        IdescLayout::Table44 => 2,
    }
}

/// The type each atype/btype code stands for under each kind ([`ElementType::from_ab_code`],
/// Tables 42-44 and rules.md R8), indexed by `kind as usize` and the code.
pub(super) const AB_TYPES: [[Option<ElementType>; 8]; 7] = {
    let mut out = [[None; 8]; 7];
    let mut k = 0;
    while k < Kind::ALL.len() {
        let kind = Kind::ALL[k];
        assert!(kind as usize == k, "Kind::ALL is in declaration order");
        let mut code = 0;
        while code < 8 {
            out[k][code] = ElementType::from_ab_code(kind, code as u8);
            code += 1;
        }
        k += 1;
    }
    out
};

/// The accumulator type each dtype code stands for under each kind
/// ([`ElementType::from_d_code`]; block-scaled kinds have no dtype field and always get f32).
pub(super) const D_TYPES: [[Option<ElementType>; 4]; 7] = {
    let mut out = [[None; 4]; 7];
    let mut k = 0;
    while k < Kind::ALL.len() {
        let kind = Kind::ALL[k];
        let mut code = 0;
        while code < 4 {
            out[k][code] = if kind.is_block_scaled() {
                Some(ElementType::F32)
            } else {
                ElementType::from_d_code(kind, code as u8)
            };
            code += 1;
        }
        k += 1;
    }
    out
};

/// The M field codes of the Table 39 shapes (32, 64, 128, 256; block-scaled 128, 256), as a
/// mask over the field's value (M >> 4 in Table 42, M >> 7 in Tables 43-44).
pub(super) const fn m_shapes(kind: Kind) -> u32 {
    let shapes: &[u16] = if kind.is_block_scaled() {
        &[128, 256]
    } else {
        &[32, 64, 128, 256]
    };
    let mut mask = 0u32;
    let mut i = 0;
    while i < shapes.len() {
        mask |= 1 << (shapes[i] / m_unit(kind));
        i += 1;
    }
    mask
}

/// The same shapes as a mask over the five bits 24-28 (Table 42 stores M >> 4 there; Tables
/// 43-44 store M >> 7 at 27-28 and reserve 24-26).
pub(super) const fn m_codes(kind: Kind) -> u32 {
    let (lo, _) = FIELD_BITS[layout_index(kind)][IdescField::M as usize];
    let shapes = m_shapes(kind);
    let mut mask = 0u32;
    let mut code = 0;
    while code < 32 {
        if (shapes >> code) & 1 == 1 {
            mask |= 1 << (code << (lo - 24));
        }
        code += 1;
    }
    mask
}

/// Positions in an [`IdescDiagnostics`] set. Positions 0-31 are the reserved bits of the word
/// themselves (rules.md R10); the others are one check each, numbered in the order
/// [`InstructionDescriptor::decode`] reports them.
pub(super) mod at {
    pub const D_CODE: u32 = 32;
    pub const A_CODE: u32 = 33;
    pub const B_CODE: u32 = 34;
    pub const F16_ACC_A: u32 = 35;
    pub const F16_ACC_B: u32 = 36;
    pub const MIXED_F16_BF16: u32 = 37;
    pub const SATURATE: u32 = 38;
    pub const NEGATE_A: u32 = 39;
    pub const NEGATE_B: u32 = 40;
    pub const TRANSPOSE_A: u32 = 41;
    pub const TRANSPOSE_B: u32 = 42;
    pub const SELECTOR_DENSE: u32 = 43;
    pub const SELECTOR_NOT_ZERO: u32 = 44;
    pub const N_RANGE: u32 = 45;
    pub const M_SHAPE: u32 = 46;
    pub const SCALE_TYPE: u32 = 47;
    pub const SFA_ID: u32 = 48;
    pub const SFB_ID: u32 = 49;
    pub const K96_SPARSE: u32 = 50;
}

/// The positions whose problems are warnings (rules.md R12's mixed f16/bf16 pair).
pub(super) const WARNINGS: u64 = 1 << at::MIXED_F16_BF16;

#[inline(always)]
const fn flag(broken: bool, position: u32) -> u64 {
    (broken as u64) << position
}

/// The type codes of one kind as masks over the code (bit `c` for code `c`), read from
/// [`AB_TYPES`] and [`D_TYPES`] at compile time.
#[derive(Clone, Copy)]
pub(super) struct Codes {
    /// dtype codes that name a type (all four for the block-scaled kinds, which have no dtype).
    pub(super) d: u32,
    /// dtype codes that name f16.
    pub(super) d_f16: u32,
    /// atype/btype codes that name a type.
    pub(super) ab: u32,
    /// atype/btype codes that name bf16.
    pub(super) ab_bf16: u32,
    /// atype/btype codes that name a 4- or 6-bit type (rules.md R11).
    pub(super) ab_sub_byte: u32,
}

pub(super) const CODES: [Codes; 7] = {
    let mut out = [Codes {
        d: 0,
        d_f16: 0,
        ab: 0,
        ab_bf16: 0,
        ab_sub_byte: 0,
    }; 7];
    let mut k = 0;
    while k < 7 {
        let mut c = 0;
        while c < 8 {
            if let Some(t) = AB_TYPES[k][c] {
                out[k].ab |= 1 << c;
                if matches!(t, ElementType::Bf16) {
                    out[k].ab_bf16 |= 1 << c;
                }
                if t.is_sub_byte() {
                    out[k].ab_sub_byte |= 1 << c;
                }
            }
            if c < 4 {
                if let Some(t) = D_TYPES[k][c] {
                    out[k].d |= 1 << c;
                    if matches!(t, ElementType::F16) {
                        out[k].d_f16 |= 1 << c;
                    }
                }
            }
            c += 1;
        }
        k += 1;
    }
    out
};

/// True when bit `i` of `mask` is set.
#[inline(always)]
pub(super) const fn has(mask: u32, i: u32) -> bool {
    (mask >> i) & 1 == 1
}

/// The set of problems of a raw value under `kind`: the rules of [`check_fields`] as they apply
/// to decoded fields, one bit each, plus the reserved bits. The decoder reads them from
/// [`PROBLEM_TABLES`], built from this function.
#[inline(always)]
pub(super) const fn problems(bits: u32, kind: Kind) -> u64 {
    let l = layout_index(kind);
    let c = &CODES[kind as usize];
    let table42 = l == 0;
    let a_code = field(bits, l, IdescField::AType);
    let b_code = field(bits, l, IdescField::BType);
    let d_code = field(bits, l, IdescField::DType);
    let (a_ok, b_ok, d_ok) = (has(c.ab, a_code), has(c.ab, b_code), has(c.d, d_code));
    let mut p = (bits & reserved_mask(kind)) as u64;
    p |= flag(!d_ok, at::D_CODE) | flag(!a_ok, at::A_CODE) | flag(!b_ok, at::B_CODE);
    if matches!(kind, Kind::F16) {
        // R12: an f16 accumulator takes f16 inputs; f16 with bf16 is a warning.
        let both = a_ok & b_ok;
        let d16 = d_ok & has(c.d_f16, d_code);
        p |= flag(both & d16 & has(c.ab_bf16, a_code), at::F16_ACC_A);
        p |= flag(both & d16 & has(c.ab_bf16, b_code), at::F16_ACC_B);
        p |= flag(both & (a_code != b_code), at::MIXED_F16_BF16);
    }
    let i8 = matches!(kind, Kind::I8);
    let saturate = field(bits, l, IdescField::Saturate) != 0;
    p |= flag(table42 & saturate & !i8, at::SATURATE);
    p |= flag(
        i8 & (field(bits, l, IdescField::NegateA) != 0),
        at::NEGATE_A,
    );
    p |= flag(
        i8 & (field(bits, l, IdescField::NegateB) != 0),
        at::NEGATE_B,
    );
    let no_transpose = matches!(kind, Kind::Mxf4 | Kind::Mxf4nvf4);
    let ta = field(bits, l, IdescField::TransposeA) != 0;
    let tb = field(bits, l, IdescField::TransposeB) != 0;
    p |= flag(
        ta & (no_transpose | has(c.ab_sub_byte, a_code)),
        at::TRANSPOSE_A,
    );
    p |= flag(
        tb & (no_transpose | has(c.ab_sub_byte, b_code)),
        at::TRANSPOSE_B,
    );
    let selector = field(bits, l, IdescField::SparsitySelector) != 0;
    let sparse = field(bits, l, IdescField::Sparse) != 0;
    p |= flag(selector & !sparse, at::SELECTOR_DENSE);
    p |= flag(
        selector & sparse & matches!(kind, Kind::I8 | Kind::F8f6f4),
        at::SELECTOR_NOT_ZERO,
    );
    let n = field(bits, l, IdescField::N);
    p |= flag(n.wrapping_sub(1) >= 32, at::N_RANGE);
    p |= flag(
        !has(m_shapes(kind), field(bits, l, IdescField::M)),
        at::M_SHAPE,
    );
    if kind.is_block_scaled() {
        // Code 1 is UE8M0, code 0 UE4M3 (Tables 43-44); IDs per rules.md R13.
        let ue4m3 = field(bits, l, IdescField::ScaleType) == 0;
        p |= flag(ue4m3 & !matches!(kind, Kind::Mxf4nvf4), at::SCALE_TYPE);
        if !matches!(kind, Kind::Mxf8f6f4) {
            let allowed = if ue4m3 { 0b0001 } else { 0b0101 };
            p |= flag(!has(allowed, field(bits, l, IdescField::SfaId)), at::SFA_ID);
            p |= flag(!has(allowed, field(bits, l, IdescField::SfbId)), at::SFB_ID);
        }
    }
    p |= flag(
        (field(bits, l, IdescField::K) != 0) & sparse,
        at::K96_SPARSE,
    );
    p
}

/// A decoded type, or a placeholder for a code that names no type (its rules are skipped).
pub(super) const fn placeholder(t: Option<ElementType>) -> ElementType {
    match t {
        Some(t) => t,
        None => ElementType::F32,
    }
}
