//! What each row of Tables 42-44 means, per kind: the scaled M and N, the switches, the maximum
//! shift in rows, the type codes named under each kind, K derived from the kind and the sparsity
//! and K bits, and the two value lists of the command's output (the JSON `"fields"` order and
//! the batch line).

use super::codes::{layout_index, AB_TYPES, D_TYPES, FIELD_BITS};
use super::{layout, row, IdescField, IdescFields, ROW_INDEX, TABLE_42, TABLE_43, TABLE_44};
use crate::bits::{BitField, Word};
use crate::bits::{CodeName, Listed, Meaning, Show};
use crate::mma::{ElementType, Kind, MaxShift, ScaleType};

/// Meaning of bits 17-22: N without its 3 low bits (Tables 42-44).
pub const N_BY_8: Meaning = Meaning::Scaled {
    shift: 3,
    text: "N = {}",
};

/// Meaning of bits 24-28 of Table 42: M without its 4 low bits.
pub const M_BY_16: Meaning = Meaning::Scaled {
    shift: 4,
    text: "M = {}",
};

/// Meaning of bits 27-28 of Tables 43-44: M without its 7 low bits.
pub const M_BY_128: Meaning = Meaning::Scaled {
    shift: 7,
    text: "M = {}",
};

/// Meaning of bit 2: "Sparsity: Dense = 0, Sparse = 1" (Tables 42-44).
pub const SPARSITY: Meaning = Meaning::Switch {
    names: ["dense", "sparse"],
};

/// Meaning of the saturate and negate bits (3, 13, 14 of Tables 42-44): no or yes.
pub const YES_NO: Meaning = Meaning::Switch {
    names: ["no", "yes"],
};

/// Meaning of bit 15, "Transpose A Matrix" (Tables 42-44): A is K-major or, transposed, M-major.
pub const TRANSPOSE_A: Meaning = Meaning::Switch {
    names: ["K-major", "M-major (transposed)"],
};

/// Meaning of bit 16, "Transpose B Matrix" (Tables 42-44): B is K-major or, transposed, N-major.
pub const TRANSPOSE_B: Meaning = Meaning::Switch {
    names: ["K-major", "N-major (transposed)"],
};

/// The rows each code of bits 30-31 stands for ([`MaxShift::rows`], Table 42).
const MAX_SHIFT_ROWS: [u64; 4] = {
    let mut out = [0; 4];
    let mut code = 0;
    while code < out.len() {
        if let Some(s) = MaxShift::from_code(code as u8) {
            out[code] = s.rows() as u64;
        }
        code += 1;
    }
    out
};

/// Meaning of bits 30-31 of Table 42: the maximum shift of `.ws`, in rows.
pub const MAX_SHIFT: Meaning = Meaning::Numbered {
    numbers: &MAX_SHIFT_ROWS,
    zero: "no shift",
    text: "{} rows (.ws only)",
};

/// The scale types of bit 23 ([`ScaleType::from_code`], Tables 43-44).
const SCALE_TYPE_NAMES: [CodeName; 2] = {
    let mut out = [CodeName {
        code: 0,
        name: "",
        words: "",
    }; 2];
    let mut code = 0;
    while code < out.len() {
        if let Some(s) = ScaleType::from_code(code as u8) {
            out[code] = CodeName {
                code: code as u8,
                name: s.name(),
                words: s.name(),
            };
        }
        code += 1;
    }
    out
};

/// Meaning of bit 23 of Tables 43-44: the scale factors' type.
pub const SCALE_TYPE: Meaning = Meaning::Named {
    names: &SCALE_TYPE_NAMES,
    text: ".{}",
    invalid: "code {}",
    scope: "",
};

/// The codes that name a type in `types`, first, as [`CodeName`]s, and how many there are.
const fn type_names<const N: usize>(types: [Option<ElementType>; N]) -> ([CodeName; N], usize) {
    let mut out = [CodeName {
        code: 0,
        name: "",
        words: "",
    }; N];
    let mut count = 0;
    let mut code = 0;
    while code < N {
        if let Some(t) = types[code] {
            out[count] = CodeName {
                code: code as u8,
                name: t.name(),
                words: t.name(),
            };
            count += 1;
        }
        code += 1;
    }
    (out, count)
}

/// The atype/btype names of each kind, from [`AB_TYPES`], indexed by `kind as usize`.
const AB_NAMES: [([CodeName; 8], usize); 7] = {
    let mut out = [type_names([None; 8]); 7];
    let mut k = 0;
    while k < out.len() {
        out[k] = type_names(AB_TYPES[k]);
        k += 1;
    }
    out
};

/// The dtype names of each kind, from [`D_TYPES`] (every code names f32 under the block-scaled
/// kinds, which have no dtype field), indexed by `kind as usize`.
const D_NAMES: [([CodeName; 4], usize); 7] = {
    let mut out = [type_names([None; 4]); 7];
    let mut k = 0;
    while k < out.len() {
        out[k] = type_names(D_TYPES[k]);
        k += 1;
    }
    out
};

/// The type names a kind gives a type row, or `None` for any other row.
const fn names_of(kind: Kind, field: IdescField) -> Option<&'static [CodeName]> {
    let (names, count): (&'static [CodeName], usize) = match field {
        IdescField::DType => (&D_NAMES[kind as usize].0, D_NAMES[kind as usize].1),
        IdescField::AType | IdescField::BType => {
            (&AB_NAMES[kind as usize].0, AB_NAMES[kind as usize].1)
        }
        _ => return None,
    };
    Some(names.split_at(count).0)
}

/// The meaning of a type row under `kind`: its codes named by the kind (Tables 42-44, R8).
const fn type_meaning(kind: Kind, field: IdescField) -> Option<Meaning> {
    match names_of(kind, field) {
        Some(names) => Some(Meaning::Named {
            names,
            text: ".{}",
            invalid: "invalid code {} for .kind::",
            scope: kind.name(),
        }),
        None => None,
    }
}

/// K of Table 39 for each value of the K bit (bit 31 of Table 44) and the sparsity bit, as
/// [`IdescFields::k`] computes it for `kind`.
const fn k_numbers(kind: Kind, k_bit: bool) -> [[u64; 2]; 2] {
    let f = IdescFields::new(
        kind,
        ElementType::F32,
        ElementType::F32,
        ElementType::F32,
        0,
        0,
    );
    let mut out = [[0; 2]; 2];
    let mut k96 = 0;
    while k96 < 2 {
        let mut sparse = 0;
        while sparse < 2 {
            let g = f.with_sparse(sparse == 1, 0).with_k96(k_bit && k96 == 1);
            out[k96][sparse] = g.k() as u64;
            sparse += 1;
        }
        k96 += 1;
    }
    out
}

/// The wording of the K bit of Table 44.
const K_NAMES: [&str; 2] = ["K = 64 dense / 128 sparse", "K = 96 (dense, sm_103a)"];

/// Meaning of bit 31 of Table 44 before a kind gives its K: "(Dense K=64 / Sparse K=128) = 0,
/// (Dense K=96) = 1".
pub const K_BIT: Meaning = Meaning::Switch { names: K_NAMES };

/// `table` with the meanings that depend on `kind`: the type rows named by the kind and the K
/// bit giving the kind's K.
const fn for_kind<const N: usize>(
    table: &[BitField<IdescField>],
    kind: Kind,
) -> [BitField<IdescField>; N] {
    let mut out = [table[0]; N];
    let sparse_lo = FIELD_BITS[layout_index(kind)][IdescField::Sparse as usize].0 as u8;
    let mut i = 0;
    while i < N {
        out[i] = table[i];
        if let Some(m) = type_meaning(kind, table[i].field) {
            out[i].meaning = m;
        }
        if matches!(table[i].field, IdescField::K) {
            out[i].meaning = Meaning::Picked {
                with: sparse_lo,
                numbers: k_numbers(kind, true),
                names: K_NAMES,
            };
        }
        i += 1;
    }
    out
}

const TF32_LAYOUT: &[BitField<IdescField>] = &for_kind::<16>(TABLE_42, Kind::Tf32);
const F16_LAYOUT: &[BitField<IdescField>] = &for_kind::<16>(TABLE_42, Kind::F16);
const F8F6F4_LAYOUT: &[BitField<IdescField>] = &for_kind::<16>(TABLE_42, Kind::F8f6f4);
const I8_LAYOUT: &[BitField<IdescField>] = &for_kind::<16>(TABLE_42, Kind::I8);
const MXF8F6F4_LAYOUT: &[BitField<IdescField>] = &for_kind::<17>(TABLE_43, Kind::Mxf8f6f4);
const MXF4_LAYOUT: &[BitField<IdescField>] = &for_kind::<18>(TABLE_44, Kind::Mxf4);
const MXF4NVF4_LAYOUT: &[BitField<IdescField>] = &for_kind::<18>(TABLE_44, Kind::Mxf4nvf4);

/// The layout of `kind` with every meaning.
pub(super) const fn kind_layout(kind: Kind) -> &'static [BitField<IdescField>] {
    match kind {
        Kind::Tf32 => TF32_LAYOUT,
        Kind::F16 => F16_LAYOUT,
        Kind::F8f6f4 => F8F6F4_LAYOUT,
        Kind::I8 => I8_LAYOUT,
        Kind::Mxf8f6f4 => MXF8F6F4_LAYOUT,
        Kind::Mxf4 => MXF4_LAYOUT,
        Kind::Mxf4nvf4 => MXF4NVF4_LAYOUT,
    }
}

/// The fields of the JSON `"fields"` object, in its order (not the bit order: M before N, the
/// scale fields and K last).
const JSON_ORDER: [IdescField; 17] = [
    IdescField::SparsitySelector,
    IdescField::Sparse,
    IdescField::Saturate,
    IdescField::DType,
    IdescField::AType,
    IdescField::BType,
    IdescField::NegateA,
    IdescField::NegateB,
    IdescField::TransposeA,
    IdescField::TransposeB,
    IdescField::M,
    IdescField::N,
    IdescField::MaxShift,
    IdescField::ScaleType,
    IdescField::SfaId,
    IdescField::SfbId,
    IdescField::K,
];

/// The fields of a batch line, in its order, with the short key of those written under one
/// (else the field's name) and when the line writes them.
const LINE_ORDER: [(IdescField, Option<&str>, Show); 17] = [
    (IdescField::M, Some("M"), Show::Always),
    (IdescField::N, Some("N"), Show::Always),
    (IdescField::K, Some("K"), Show::Always),
    (IdescField::DType, Some("d"), Show::Always),
    (IdescField::AType, Some("a"), Show::Always),
    (IdescField::BType, Some("b"), Show::Always),
    (IdescField::Sparse, None, Show::UnlessZero),
    (IdescField::Saturate, None, Show::UnlessZero),
    (IdescField::NegateA, None, Show::UnlessZero),
    (IdescField::NegateB, None, Show::UnlessZero),
    (IdescField::TransposeA, None, Show::UnlessZero),
    (IdescField::TransposeB, None, Show::UnlessZero),
    (IdescField::SparsitySelector, None, Show::UnlessZero),
    (IdescField::MaxShift, None, Show::UnlessZero),
    (IdescField::ScaleType, None, Show::Always),
    (IdescField::SfaId, None, Show::Always),
    (IdescField::SfbId, None, Show::Always),
];

/// The entry of `field` in `kind`'s value lists: its row in the kind's layout; else, for K, the
/// sparsity bit giving the kind's K (Tables 42-43 have no K bit); else, for a field Table 42
/// has, the value its row reads from zero bits under the kind (the block-scaled kinds' f32
/// accumulator, a zero selector and shift, no saturation); else none.
const fn entry(
    kind: Kind,
    field: IdescField,
    key: &'static str,
    show: Show,
) -> Option<Listed<IdescField>> {
    if let Some(r) = row(kind, field) {
        return Some(Listed { key, row: *r, show });
    }
    if matches!(field, IdescField::K) {
        if let Some(sparse) = row(kind, IdescField::Sparse) {
            let mut r = *sparse;
            r.field = IdescField::K;
            r.meaning = Meaning::Picked {
                with: r.lo,
                numbers: k_numbers(kind, false),
                names: SPARSITY_K,
            };
            return Some(Listed { key, row: r, show });
        }
        return None;
    }
    let l42 = &ROW_INDEX[0];
    let i = l42[field as usize] as usize;
    if i >= TABLE_42.len() {
        return None;
    }
    let mut r = TABLE_42[i];
    if let Some(m) = type_meaning(kind, field) {
        r.meaning = m;
    }
    let implied = match r.value(0) {
        Some(v) => v,
        None => return None,
    };
    r.meaning = Meaning::Implied(implied);
    Some(Listed { key, row: r, show })
}

/// The wording of K read from the sparsity bit.
const SPARSITY_K: [&str; 2] = ["dense K", "sparse K"];

/// A value list of `kind` with room for every field, and how many entries it has.
type List = ([Listed<IdescField>; 17], usize);

/// The entries of the JSON `"fields"` object under `kind`, in [`JSON_ORDER`].
const fn json_list(kind: Kind) -> List {
    let none = Listed {
        key: "",
        row: TABLE_42[0],
        show: Show::Always,
    };
    let mut out = [none; 17];
    let mut n = 0;
    let mut i = 0;
    while i < JSON_ORDER.len() {
        let f = JSON_ORDER[i];
        // K is in the JSON only where the layout stores its bit (Table 44).
        let stored = !matches!(f, IdescField::K) || row(kind, f).is_some();
        if let (true, Some(e)) = (stored, entry(kind, f, f.name(), Show::Always)) {
            out[n] = e;
            n += 1;
        }
        i += 1;
    }
    (out, n)
}

/// The entries of a batch line under `kind`, in [`LINE_ORDER`].
const fn line_list(kind: Kind) -> List {
    let none = Listed {
        key: "",
        row: TABLE_42[0],
        show: Show::Always,
    };
    let mut out = [none; 17];
    let mut n = 0;
    let mut i = 0;
    while i < LINE_ORDER.len() {
        let (f, key, show) = LINE_ORDER[i];
        let key = match key {
            Some(k) => k,
            None => f.name(),
        };
        if let Some(e) = entry(kind, f, key, show) {
            out[n] = e;
            n += 1;
        }
        i += 1;
    }
    (out, n)
}

/// The JSON list of each kind, indexed by `kind as usize`, checked at compile time.
static JSON_LISTS: [List; 7] = {
    let mut out = [json_list(Kind::Tf32); 7];
    let mut k = 0;
    while k < 7 {
        assert!(Kind::ALL[k] as usize == k);
        out[k] = json_list(Kind::ALL[k]);
        assert!(crate::bits::lists_within(out[k].0.split_at(out[k].1).0, 32));
        k += 1;
    }
    out
};

/// The batch line list of each kind, indexed by `kind as usize`, checked at compile time.
static LINE_LISTS: [List; 7] = {
    let mut out = [line_list(Kind::Tf32); 7];
    let mut k = 0;
    while k < 7 {
        assert!(Kind::ALL[k] as usize == k);
        out[k] = line_list(Kind::ALL[k]);
        assert!(crate::bits::lists_within(out[k].0.split_at(out[k].1).0, 32));
        k += 1;
    }
    out
};

/// The values of the command's JSON `"fields"` object under `kind`, in its key order: each
/// field of the kind's layout (Tables 42-44), the fields of Table 42 that the block-scaled
/// layouts lack at the values they imply, and, for Table 44, K.
#[must_use]
pub fn json_fields(kind: Kind) -> &'static [Listed<IdescField>] {
    let (list, n) = &JSON_LISTS[kind as usize];
    &list[..*n]
}

/// The values of a batch line under `kind`, in its order and under its short keys: M, N, K
/// (Table 39, from the kind, the sparsity bit and the K bit), the types, the switches and
/// numbers that are set, and the scale fields of the block-scaled kinds.
#[must_use]
pub fn line_fields(kind: Kind) -> &'static [Listed<IdescField>] {
    let (list, n) = &LINE_LISTS[kind as usize];
    &list[..*n]
}

/// The entry of `field` in `kind`'s batch line list ([`line_fields`]), which holds every field
/// the kind gives a value.
#[must_use]
pub fn line_field(kind: Kind, field: IdescField) -> Option<&'static Listed<IdescField>> {
    line_fields(kind)
        .iter()
        .find(|l| l.row.field as usize == field as usize)
}

/// `bits` read through `kind`'s layout: the rows of the bit table with their values and
/// meanings.
#[must_use]
pub const fn word(bits: u32, kind: Kind) -> Word<IdescField> {
    Word::new(layout(kind), bits as u64)
}
