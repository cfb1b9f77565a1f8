//! The rules of Tables 42-44 as tables built at compile time: the validity masks of
//! [`InstructionDescriptor::is_valid`] and the problem tables of [`InstructionDescriptor::decode`].

use super::codes::{field, has, layout_index, m_codes, m_shapes, problems, FIELD_BITS};
use super::{at, reserved_mask, IdescField};
use crate::mma::{ElementType, Kind, ScaleType};

/// The validity rules of one kind as masks, for [`InstructionDescriptor::is_valid`].
#[derive(Clone, Copy)]
pub(super) struct Validity {
    /// Bits that must be 0 (rules.md R10).
    pub(super) reserved: u32,
    /// Allowed values of bits 24-28 (M, Table 39).
    pub(super) m_codes: u32,
    /// Allowed combinations of bits 4-5, 7-12, 15-16 (dtype, atype, btype, transpose A and B;
    /// R8, R11, R12), as a 1024-bit set.
    pub(super) types: [u32; 32],
    /// Allowed combinations of bits 0-3, 13-14 (selector, sparsity, saturate, negate A and B;
    /// R11), as a 64-bit set.
    pub(super) modifiers: u64,
    /// Allowed combinations of bits 4-5, 23, 29-30 (scale-factor B ID, scale type, scale-factor
    /// A ID; R12, R13), as a 32-bit set.
    pub(super) scales: u32,
    /// Bits that must not be all set (Table 44: K = 96 with sparsity); 0 when no such pair.
    pub(super) k96_sparse: u32,
}

/// The masks of each kind, indexed by `kind as usize`.
pub(super) const VALIDITY: [Validity; 7] = {
    let mut out = [Validity {
        reserved: 0,
        m_codes: 0,
        types: [0; 32],
        modifiers: 0,
        scales: 0,
        k96_sparse: 0,
    }; 7];
    let mut k = 0;
    while k < Kind::ALL.len() {
        out[k] = validity(Kind::ALL[k]);
        k += 1;
    }
    out
};

/// Spreads the bits of `index` over the word positions `at` (lowest index bit first).
const fn scatter(index: u32, at: &[u32]) -> u32 {
    let mut raw = 0;
    let mut i = 0;
    while i < at.len() {
        raw |= ((index >> i) & 1) << at[i];
        i += 1;
    }
    raw
}

const TYPE_BITS: [u32; 10] = [4, 5, 7, 8, 9, 10, 11, 12, 15, 16];
const MODIFIER_BITS: [u32; 6] = [0, 1, 2, 3, 13, 14];
const SCALE_BITS: [u32; 5] = [4, 5, 23, 29, 30];

/// What the kind allows, stated as what a value may hold (where [`check_fields`] states what
/// it must not).
const fn validity(kind: Kind) -> Validity {
    let l = layout_index(kind);
    let table42 = l == 0;
    let mut v = Validity {
        reserved: reserved_mask(kind),
        m_codes: m_codes(kind),
        types: [0; 32],
        modifiers: 0,
        scales: 0,
        k96_sparse: 0,
    };
    let mut i = 0u32;
    while i < 1024 {
        let raw = scatter(i, &TYPE_BITS);
        let d = if kind.is_block_scaled() {
            Some(ElementType::F32)
        } else {
            ElementType::from_d_code(kind, field(raw, l, IdescField::DType) as u8)
        };
        let a = ElementType::from_ab_code(kind, field(raw, l, IdescField::AType) as u8);
        let b = ElementType::from_ab_code(kind, field(raw, l, IdescField::BType) as u8);
        let ok = match (d, a, b) {
            (Some(d), Some(a), Some(b)) => {
                let mn_major_ok = !matches!(kind, Kind::Mxf4 | Kind::Mxf4nvf4);
                let inputs_ok = !matches!(d, ElementType::F16)
                    || !matches!(kind, Kind::F16)
                    || (matches!(a, ElementType::F16) && matches!(b, ElementType::F16));
                let ta = field(raw, l, IdescField::TransposeA) != 0;
                let tb = field(raw, l, IdescField::TransposeB) != 0;
                inputs_ok
                    && (!ta || (mn_major_ok && !a.is_sub_byte()))
                    && (!tb || (mn_major_ok && !b.is_sub_byte()))
            }
            _ => false,
        };
        if ok {
            v.types[(i >> 5) as usize] |= 1 << (i & 31);
        }
        i += 1;
    }
    let mut i = 0u32;
    while i < 64 {
        let raw = scatter(i, &MODIFIER_BITS);
        let selector = field(raw, l, IdescField::SparsitySelector);
        let sparse = field(raw, l, IdescField::Sparse) != 0;
        let saturate = field(raw, l, IdescField::Saturate) != 0;
        let negate =
            field(raw, l, IdescField::NegateA) != 0 || field(raw, l, IdescField::NegateB) != 0;
        let i8 = matches!(kind, Kind::I8);
        let selector_ok = selector == 0 || (sparse && !matches!(kind, Kind::I8 | Kind::F8f6f4));
        if selector_ok && (!saturate || i8 || !table42) && (!negate || !i8) {
            v.modifiers |= 1 << i;
        }
        i += 1;
    }
    let mut i = 0u32;
    while i < 32 {
        let raw = scatter(i, &SCALE_BITS);
        let ok = if kind.is_block_scaled() {
            let sfa = field(raw, l, IdescField::SfaId);
            let sfb = field(raw, l, IdescField::SfbId);
            match ScaleType::from_code(field(raw, l, IdescField::ScaleType) as u8) {
                Some(ScaleType::Ue8m0) => {
                    matches!(kind, Kind::Mxf8f6f4) || (sfa % 2 == 0 && sfb % 2 == 0)
                }
                Some(ScaleType::Ue4m3) => matches!(kind, Kind::Mxf4nvf4) && sfa == 0 && sfb == 0,
                None => false,
            }
        } else {
            true
        };
        if ok {
            v.scales |= 1 << i;
        }
        i += 1;
    }
    let (k_lo, k_mask) = FIELD_BITS[l][IdescField::K as usize];
    let (s_lo, _) = FIELD_BITS[l][IdescField::Sparse as usize];
    if k_mask != 0 {
        v.k96_sparse = (1 << k_lo) | (1 << s_lo);
    }
    v
}

/// The check positions that each group of bits decides alone: the type fields with the
/// transpositions (bits 4-5, 7-12, 15-16), the modifiers with K (bits 0-3, 13-14, 31), and the
/// scale fields (bits 4-5, 23, 29-30). N (17-22) and M (24-28) are checked directly.
const TYPE_CHECKS: u64 = (1 << at::D_CODE)
    | (1 << at::A_CODE)
    | (1 << at::B_CODE)
    | (1 << at::F16_ACC_A)
    | (1 << at::F16_ACC_B)
    | (1 << at::MIXED_F16_BF16)
    | (1 << at::TRANSPOSE_A)
    | (1 << at::TRANSPOSE_B);
const MODIFIER_CHECKS: u64 = (1 << at::SATURATE)
    | (1 << at::NEGATE_A)
    | (1 << at::NEGATE_B)
    | (1 << at::SELECTOR_DENSE)
    | (1 << at::SELECTOR_NOT_ZERO)
    | (1 << at::K96_SPARSE);
const SCALE_CHECKS: u64 = (1 << at::SCALE_TYPE) | (1 << at::SFA_ID) | (1 << at::SFB_ID);
const PROBLEM_MODIFIER_BITS: [u32; 7] = [0, 1, 2, 3, 13, 14, 31];

/// [`problems`] of one kind as tables over each group of bits (the checks above 32, shifted
/// down by 32), built at compile time by running [`problems`] on every combination of the
/// group's bits. That each group decides its checks alone is what the tests and the sweep
/// check ([`problems_by_table`] against [`problems`] and against the field-by-field decode).
#[derive(Clone, Copy)]
struct ProblemTables {
    types: [u32; 1024],
    modifiers: [u32; 128],
    scales: [u32; 32],
}

// A `const`, not a `static`: `decode` is a `const fn` and reads it (each use is a promoted
// reference to one copy, 32 KiB in all).
#[allow(clippy::large_const_arrays)]
const PROBLEM_TABLES: [ProblemTables; 7] = {
    let mut out = [ProblemTables {
        types: [0; 1024],
        modifiers: [0; 128],
        scales: [0; 32],
    }; 7];
    let mut k = 0;
    while k < 7 {
        let kind = Kind::ALL[k];
        let mut i = 0;
        while i < 1024 {
            let p = problems(scatter(i, &TYPE_BITS), kind) & TYPE_CHECKS;
            out[k].types[i as usize] = (p >> 32) as u32;
            i += 1;
        }
        let mut i = 0;
        while i < 128 {
            let p = problems(scatter(i, &PROBLEM_MODIFIER_BITS), kind) & MODIFIER_CHECKS;
            out[k].modifiers[i as usize] = (p >> 32) as u32;
            i += 1;
        }
        let mut i = 0;
        while i < 32 {
            let p = problems(scatter(i, &SCALE_BITS), kind) & SCALE_CHECKS;
            out[k].scales[i as usize] = (p >> 32) as u32;
            i += 1;
        }
        k += 1;
    }
    out
};

/// [`m_shapes`] of each kind, by `kind as usize`, made at compile time (so that the decoder
/// reads one word, not the shapes' loop).
const M_SHAPES: [u32; 7] = {
    let mut out = [0; 7];
    let mut k = 0;
    while k < 7 {
        out[k] = m_shapes(Kind::ALL[k]);
        k += 1;
    }
    out
};

/// [`problems`] read from [`PROBLEM_TABLES`]: what [`InstructionDescriptor::decode`] uses.
#[inline(always)]
pub(super) const fn problems_by_table(bits: u32, kind: Kind) -> u64 {
    let t = &PROBLEM_TABLES[kind as usize];
    let l = layout_index(kind);
    let types = ((bits >> 4) & 0x3) | ((bits >> 5) & 0xfc) | ((bits >> 7) & 0x300);
    let modifiers = (bits & 0xf) | ((bits >> 9) & 0x30) | ((bits >> 25) & 0x40);
    let scales = ((bits >> 4) & 0x3) | ((bits >> 21) & 0x4) | ((bits >> 26) & 0x18);
    let n = field(bits, l, IdescField::N);
    let m = field(bits, l, IdescField::M);
    let high = t.types[types as usize]
        | t.modifiers[modifiers as usize]
        | t.scales[scales as usize]
        | (((n.wrapping_sub(1) >= 32) as u32) << (at::N_RANGE - 32))
        | ((!has(M_SHAPES[kind as usize], m) as u32) << (at::M_SHAPE - 32));
    (bits & reserved_mask(kind)) as u64 | ((high as u64) << 32)
}
