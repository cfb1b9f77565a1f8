//! The decoder's fast paths, built at compile time from the two things written once: the layout
//! tables (which bits each field holds, Tables 42-44) and the rules on the fields
//! ([`check_fields`](super::field_rules::check_fields), run through [`read_and_check`]). No
//! bit position and no rule is stated here.
//!
//! The word is cut into groups of bits ([`Group`]), each the union over the three layouts of
//! some fields' bits: the types with the transpositions ([`TYPES`]); the sparsity selector with
//! sparsity and K, saturate with the negations, the scale fields with K, N, and M ([`SMALL`]).
//! K (Table 44's bit 31) is in two groups, because two checks read it with fields of different
//! groups: K = 96 only dense (with sparsity) and the scale-factor IDs 1 and 3 only with K = 96
//! (with the IDs and the scale type; rules.md D10). A check whose verdict changes with the bits
//! of one group only is that group's, whichever bits it shares with another; a word with K
//! set and every other bit of a group 0 breaks neither check in the other group. For every
//! kind and every value of a group's bits (those of the kind's own fields in the group; every
//! other bit 0), the rules run once and their problems are kept; the checks
//! whose verdict changes with a group's bits are that group's, and the build fails unless every
//! check belongs to exactly one group. [`problems_by_table`] (the decoder) ORs a word's entries;
//! [`valid_by_table`] ([`InstructionDescriptor::is_valid`](super::InstructionDescriptor::is_valid))
//! reads the same entries as bit sets. That each check depends on its group's bits alone is
//! what the tests and the exhaustive sweep (`conformance/idesc-sweep`) check, by comparing the
//! tables with [`read_and_check`] on whole words.

use super::codes::{at, layout_index, FIELD_BITS, WARNINGS};
use super::error::IdescError;
use super::field_rules::read_and_check;
use super::{reserved_mask, IdescField};
use crate::mma::Kind;

/// A group of bits of the word, read as one index (lowest bit first, a software `pext`).
#[derive(Clone, Copy)]
struct Group {
    /// The bits: the union over the three layouts of the group's fields' bits.
    mask: u32,
    /// The bits of the group's fields in each layout (0 for Table 42).
    own: [u32; 3],
    /// The mask as runs of adjacent bits: (right shift, mask after the shift); unused runs are
    /// (0, 0).
    runs: [(u32, u32); 4],
}

impl Group {
    /// The group of `fields`, from [`FIELD_BITS`] (read from the layout tables).
    const fn of(fields: &[IdescField]) -> Group {
        let mut own = [0u32; 3];
        let mut l = 0;
        while l < 3 {
            let mut i = 0;
            while i < fields.len() {
                let (lo, width) = FIELD_BITS[l][fields[i] as usize];
                own[l] |= width << lo;
                i += 1;
            }
            l += 1;
        }
        let mask = own[0] | own[1] | own[2];
        let mut runs = [(0, 0); 4];
        let (mut n, mut packed, mut bit) = (0, 0u32, 0u32);
        while bit < 32 {
            if (mask >> bit) & 1 == 0 {
                bit += 1;
                continue;
            }
            let lo = bit;
            while bit < 32 && (mask >> bit) & 1 == 1 {
                bit += 1;
            }
            assert!(n < 4, "a group of bits has at most four runs");
            runs[n] = (lo - packed, (((1u64 << (bit - lo)) - 1) as u32) << packed);
            packed += bit - lo;
            n += 1;
        }
        Group { mask, own, runs }
    }

    /// The number of indices: 2 to the number of bits.
    const fn size(self) -> usize {
        1 << self.mask.count_ones()
    }

    /// The group's bits of `bits`, packed.
    #[inline(always)]
    const fn index(&self, bits: u32) -> usize {
        let r = &self.runs;
        (((bits >> r[0].0) & r[0].1)
            | ((bits >> r[1].0) & r[1].1)
            | ((bits >> r[2].0) & r[2].1)
            | ((bits >> r[3].0) & r[3].1)) as usize
    }

    /// The word whose group bits are `index` (the inverse of [`Group::index`]), every other bit
    /// 0.
    const fn word(&self, index: usize) -> u32 {
        let (mut word, mut i, mut bit) = (0u32, 0, 0);
        while bit < 32 {
            if (self.mask >> bit) & 1 == 1 {
                word |= (((index >> i) & 1) as u32) << bit;
                i += 1;
            }
            bit += 1;
        }
        word
    }
}

/// The types with the transpositions: 1,024 indices, read from a table of problem sets.
const TYPES: Group = Group::of(&[
    IdescField::DType,
    IdescField::AType,
    IdescField::BType,
    IdescField::TransposeA,
    IdescField::TransposeB,
]);

/// The small groups (64 indices at most), read as one bit set per check, so that a decoder
/// running in vector registers shifts instead of gathering: the sparsity selector with
/// sparsity and K, saturate with the negations, the scale fields with K (6 bits), N, and M.
const SMALL: [Group; 5] = [
    Group::of(&[
        IdescField::SparsitySelector,
        IdescField::Sparse,
        IdescField::K,
    ]),
    Group::of(&[
        IdescField::Saturate,
        IdescField::NegateA,
        IdescField::NegateB,
    ]),
    Group::of(&[
        IdescField::SfbId,
        IdescField::ScaleType,
        IdescField::SfaId,
        IdescField::K,
    ]),
    Group::of(&[IdescField::N]),
    Group::of(&[IdescField::M]),
];

/// The number of checks: positions 32 to [`at::K96_SPARSE`].
const CHECKS: usize = (at::K96_SPARSE - 31) as usize;

/// The position of a problem in an [`IdescDiagnostics`](super::IdescDiagnostics) set. Only
/// the problems a raw word can have have one; the rules never report the others for a word
/// read through its layout, and the build fails if they do.
const fn position(e: IdescError) -> u32 {
    match e {
        IdescError::ReservedBit { bit, .. } => bit as u32,
        IdescError::InvalidTypeCode { field, .. } => match field {
            IdescField::DType => at::D_CODE,
            IdescField::AType => at::A_CODE,
            _ => at::B_CODE,
        },
        IdescError::F16AccumulatorNeedsF16Inputs { field } => {
            pick(is_a(field), at::F16_ACC_A, at::F16_ACC_B)
        }
        IdescError::MixedF16Bf16 => at::MIXED_F16_BF16,
        IdescError::SaturateNotI8 { .. } => at::SATURATE,
        IdescError::NegateI8 { field } => pick(is_a(field), at::NEGATE_A, at::NEGATE_B),
        IdescError::TransposeNotAllowed { field, .. } => {
            pick(is_a(field), at::TRANSPOSE_A, at::TRANSPOSE_B)
        }
        IdescError::SparsitySelectorWithoutSparsity { .. } => at::SELECTOR_DENSE,
        IdescError::SparsitySelectorNotZero { .. } => at::SELECTOR_NOT_ZERO,
        IdescError::NOutOfRange { .. } => at::N_RANGE,
        IdescError::MNotInTable39 { .. } => at::M_SHAPE,
        IdescError::ScaleTypeNotForKind { .. } => at::SCALE_TYPE,
        IdescError::SfIdNotAllowed { field, .. } => pick(is_a(field), at::SFA_ID, at::SFB_ID),
        IdescError::K96Sparse => at::K96_SPARSE,
        IdescError::TypeNotForKind { .. }
        | IdescError::FieldNotInLayout { .. }
        | IdescError::FieldTooWide { .. }
        | IdescError::NNotMultipleOf8 { .. }
        | IdescError::MNotEncodable { .. } => {
            panic!("a rule reported for a raw word a problem that only stated fields can have")
        }
    }
}

/// True for the fields of A (the first of each pair of checks).
const fn is_a(field: IdescField) -> bool {
    matches!(
        field,
        IdescField::AType | IdescField::TransposeA | IdescField::NegateA | IdescField::SfaId
    )
}

const fn pick(first: bool, a: u32, b: u32) -> u32 {
    if first {
        a
    } else {
        b
    }
}

/// The checks (positions 32 and up, shifted down by 32) that the rules find broken in `bits`
/// under `kind`.
const fn checks_broken(bits: u32, kind: Kind) -> u32 {
    let (_, list) = read_and_check(bits, kind);
    let mut set = 0u32;
    let mut i = 0;
    while i < list.len() {
        if let Some(e) = list.get(i) {
            let p = position(e);
            if p >= 32 {
                set |= 1 << (p - 32);
            }
        }
        i += 1;
    }
    set
}

/// The checks each value of each group's bits breaks under one kind (shifted down by 32),
/// every other check included (a word with M = 0 breaks the M check in every group's table).
#[derive(Clone, Copy)]
struct Broken {
    types: [u32; TYPES.size()],
    small: [[u32; 64]; SMALL.len()],
}

/// Fills `table` with the checks broken by each value of `group`'s bits of `kind`'s own fields
/// (an index that differs only in bits the kind's layout gives other fields copies the entry
/// with those bits clear).
const fn fill<const S: usize>(group: Group, kind: Kind, mut table: [u32; S]) -> [u32; S] {
    assert!(
        group.size() <= S,
        "the table holds every index of the group"
    );
    let own = group.own[layout_index(kind)];
    let mut i = 0;
    while i < group.size() {
        let word = group.word(i);
        table[i] = if word & own == word {
            checks_broken(word, kind)
        } else {
            table[group.index(word & own)]
        };
        i += 1;
    }
    table
}

// About 7,000 runs of the rules at compile time: more steps than the interpreter's default
// patience, which is not a loop.
#[allow(clippy::large_const_arrays, long_running_const_eval)]
const BROKEN: [Broken; 7] = {
    let mut out = [Broken {
        types: [0; TYPES.size()],
        small: [[0; 64]; SMALL.len()],
    }; 7];
    let mut k = 0;
    while k < 7 {
        let kind = Kind::ALL[k];
        out[k].types = fill(TYPES, kind, out[k].types);
        let mut g = 0;
        while g < SMALL.len() {
            out[k].small[g] = fill(SMALL[g], kind, out[k].small[g]);
            g += 1;
        }
        k += 1;
    }
    out
};

/// The checks whose verdict changes within the first `size` entries of `table`.
const fn varying(table: &[u32], size: usize) -> u32 {
    let mut v = 0;
    let mut i = 0;
    while i < size {
        v |= table[i] ^ table[0];
        i += 1;
    }
    v
}

/// The checks each group decides ([`TYPES`], then [`SMALL`]): those whose verdict changes with
/// the group's bits under some kind. The build fails unless they split every check.
const OWNED: [u32; 1 + SMALL.len()] = {
    let mut out = [0u32; 1 + SMALL.len()];
    let mut k = 0;
    while k < 7 {
        out[0] |= varying(&BROKEN[k].types, TYPES.size());
        let mut g = 0;
        while g < SMALL.len() {
            out[1 + g] |= varying(&BROKEN[k].small[g], SMALL[g].size());
            g += 1;
        }
        k += 1;
    }
    let (mut union, mut count, mut g) = (0u32, 0, 0);
    while g < out.len() {
        union |= out[g];
        count += out[g].count_ones();
        g += 1;
    }
    let every = (1u32 << CHECKS) - 1;
    assert!(
        union == every && count == every.count_ones(),
        "every check is decided by exactly one group of bits"
    );
    out
};

/// The problem tables of one kind: for [`TYPES`] the set of checks broken at each index (its
/// own checks only); for each of [`SMALL`], per check, the set of indices that break it.
#[derive(Clone, Copy)]
struct ProblemTables {
    types: [u32; TYPES.size()],
    small: [[u64; CHECKS]; SMALL.len()],
}

// A `const`, not a `static`: `decode` is a `const fn` and reads it (each use is a promoted
// reference to one copy, 33 KiB in all).
#[allow(clippy::large_const_arrays)]
const PROBLEM_TABLES: [ProblemTables; 7] = {
    let mut out = [ProblemTables {
        types: [0; TYPES.size()],
        small: [[0; CHECKS]; SMALL.len()],
    }; 7];
    let mut k = 0;
    while k < 7 {
        let b = &BROKEN[k];
        let mut i = 0;
        while i < TYPES.size() {
            out[k].types[i] = b.types[i] & OWNED[0];
            i += 1;
        }
        let mut g = 0;
        while g < SMALL.len() {
            let mut i = 0;
            while i < SMALL[g].size() {
                let mut c = 0;
                while c < CHECKS {
                    if (b.small[g][i] & OWNED[1 + g]) >> c & 1 == 1 {
                        out[k].small[g][c] |= 1 << i;
                    }
                    c += 1;
                }
                i += 1;
            }
            g += 1;
        }
        k += 1;
    }
    out
};

/// The checks of small group `g` that index `i` breaks, from one bit set per owned check.
#[inline(always)]
const fn small_broken(sets: &[u64; CHECKS], g: usize, i: usize) -> u32 {
    let mut high = 0;
    let mut c = 0;
    while c < CHECKS {
        if (OWNED[1 + g] >> c) & 1 == 1 {
            high |= (((sets[c] >> i) & 1) as u32) << c;
        }
        c += 1;
    }
    high
}

/// The problem set of a raw value under `kind`, read from [`PROBLEM_TABLES`]: what
/// [`InstructionDescriptor::decode`](super::InstructionDescriptor::decode) keeps.
#[inline(always)]
pub(super) const fn problems_by_table(bits: u32, kind: Kind) -> u64 {
    let t = &PROBLEM_TABLES[kind as usize];
    let mut high = t.types[TYPES.index(bits)];
    let mut g = 0;
    while g < SMALL.len() {
        high |= small_broken(&t.small[g], g, SMALL[g].index(bits));
        g += 1;
    }
    (bits & reserved_mask(kind)) as u64 | ((high as u64) << 32)
}

/// The indices of each group that break no rule under one kind (warnings allowed), as bit
/// sets, and the kind's reserved bits.
#[derive(Clone, Copy)]
struct Validity {
    reserved: u32,
    types: [u32; TYPES.size() / 32],
    small: [u64; SMALL.len()],
}

/// The checks that are errors, shifted down by 32.
const ERRORS: u32 = !((WARNINGS >> 32) as u32);

const VALIDITY: [Validity; 7] = {
    let mut out = [Validity {
        reserved: 0,
        types: [0; TYPES.size() / 32],
        small: [0; SMALL.len()],
    }; 7];
    let mut k = 0;
    while k < 7 {
        let b = &BROKEN[k];
        out[k].reserved = reserved_mask(Kind::ALL[k]);
        let mut i = 0;
        while i < TYPES.size() {
            if b.types[i] & OWNED[0] & ERRORS == 0 {
                out[k].types[i >> 5] |= 1 << (i & 31);
            }
            i += 1;
        }
        let mut g = 0;
        while g < SMALL.len() {
            let mut i = 0;
            while i < SMALL[g].size() {
                if b.small[g][i] & OWNED[1 + g] & ERRORS == 0 {
                    out[k].small[g] |= 1 << i;
                }
                i += 1;
            }
            g += 1;
        }
        k += 1;
    }
    out
};

/// True when `bits` breaks no rule under `kind` (warnings allowed), read from [`VALIDITY`]
/// without building any problem.
#[inline(always)]
pub(super) const fn valid_by_table(bits: u32, kind: Kind) -> bool {
    let v = &VALIDITY[kind as usize];
    let i = TYPES.index(bits);
    let mut ok = (bits & v.reserved == 0) & ((v.types[i >> 5] >> (i & 31)) & 1 == 1);
    let mut g = 0;
    while g < SMALL.len() {
        ok &= (v.small[g] >> SMALL[g].index(bits)) & 1 == 1;
        g += 1;
    }
    ok
}
