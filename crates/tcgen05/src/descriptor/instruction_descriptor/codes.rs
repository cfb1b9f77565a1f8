//! The instruction descriptor's codes as data: where each field sits in Tables 42-44, which
//! type codes each kind takes, and the positions of the problem set (one bit per check), read
//! by the decoder and the tables built from the rules.

use super::{IdescField, FIELD_COUNT, TABLE_42, TABLE_43, TABLE_44};
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

/// The type codes of one kind as masks over the code (bit `c` for code `c`), read from
/// [`AB_TYPES`] and [`D_TYPES`] at compile time.
#[derive(Clone, Copy)]
pub(super) struct Codes {
    /// dtype codes that name a type (all four for the block-scaled kinds, which have no dtype).
    pub(super) d: u32,
    /// atype/btype codes that name a type.
    pub(super) ab: u32,
}

pub(super) const CODES: [Codes; 7] = {
    let mut out = [Codes { d: 0, ab: 0 }; 7];
    let mut k = 0;
    while k < 7 {
        let mut c = 0;
        while c < 8 {
            if AB_TYPES[k][c].is_some() {
                out[k].ab |= 1 << c;
            }
            if c < 4 && D_TYPES[k][c].is_some() {
                out[k].d |= 1 << c;
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

/// A decoded type, or a placeholder for a code that names no type (its rules are skipped).
pub(super) const fn placeholder(t: Option<ElementType>) -> ElementType {
    match t {
        Some(t) => t,
        None => ElementType::F32,
    }
}
