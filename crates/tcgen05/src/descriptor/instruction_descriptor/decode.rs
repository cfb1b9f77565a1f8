//! Decoding: any 32-bit value under a kind, read into its fields and the set of problems it
//! has (PTX ISA 9.7.16.4.2, Tables 42-44), and the validity test without building problems.

use super::codes::{field, has, layout_index, placeholder, AB_TYPES, CODES, D_TYPES};
use super::diagnostics::IdescDiagnostics;
use super::diagnostics::{IdescDecoded, KindSet};
use super::encode::InstructionDescriptor;
use super::error::{IdescError, MAX_PROBLEMS};
use super::field_rules::read_and_check;
use super::tables::{problems_by_table, valid_by_table};
use super::{m_unit, IdescField, IdescFields};
use crate::diagnostic::Diagnostics;
use crate::mma::{Kind, MaxShift, ScaleType};

impl InstructionDescriptor {
    /// Decodes any 32-bit value under `kind`, reporting every problem. Never panics.
    ///
    /// The problems are kept as a set of the rules broken ([`IdescDiagnostics`](super::IdescDiagnostics)); each
    /// [`IdescError`] is built from the value when it is read, in the order of the fields
    /// concerned: the reserved bits first, lowest first, then the type codes and the rules of
    /// rules.md R11-R13 and Table 39.
    #[must_use]
    #[inline(always)]
    pub const fn decode(bits: u32, kind: Kind) -> IdescDecoded {
        // One copy per kind, in which the layout and the codes are constants.
        match kind {
            Kind::F16 => decode_as::<0>(bits),
            Kind::Tf32 => decode_as::<1>(bits),
            Kind::F8f6f4 => decode_as::<2>(bits),
            Kind::I8 => decode_as::<3>(bits),
            Kind::Mxf8f6f4 => decode_as::<4>(bits),
            Kind::Mxf4 => decode_as::<5>(bits),
            Kind::Mxf4nvf4 => decode_as::<6>(bits),
        }
    }

    /// True when `bits` is a valid instruction descriptor under `kind`: exactly when
    /// [`InstructionDescriptor::decode`] reports no error (warnings allowed), which the
    /// exhaustive sweep (`conformance/idesc-sweep`) checks on all 2^32 values of every kind.
    ///
    /// The rules of Tables 42-44 (reserved bits, rules.md R10; type codes, R8 and R12;
    /// transposition, negation, saturation and the sparsity selector, R11; scale type and
    /// scale-factor IDs, R12-R13) and the Table 39 ranges of M and N are read here as bit sets
    /// per kind, built at compile time by running the field rules on every value of each group
    /// of bits the layout tables give, without building any diagnostic.
    ///
    /// ```
    /// use tcgen05::instruction_descriptor::InstructionDescriptor;
    /// use tcgen05::Kind;
    ///
    /// const OK: bool = InstructionDescriptor::is_valid(0x0810_0490, Kind::F16);
    /// assert!(OK);
    /// assert!(!InstructionDescriptor::is_valid(0x0810_0490 | 1 << 23, Kind::F16));
    /// ```
    #[must_use]
    #[inline(always)]
    pub const fn is_valid(bits: u32, kind: Kind) -> bool {
        valid_by_table(bits, kind)
    }

    /// The decode of a raw value through its fields: reads them, then applies
    /// [`IdescFields::validate`]'s rules to them, after the reserved bits and undefined type
    /// codes. [`InstructionDescriptor::decode`] gives the same fields and the same problems in
    /// the same order (checked by the tests and by the sweep): its tables are built from this
    /// path, group of bits by group of bits, and this path reads whole words.
    #[doc(hidden)]
    #[must_use]
    pub const fn decode_by_fields(
        bits: u32,
        kind: Kind,
    ) -> (Option<IdescFields>, Diagnostics<IdescError, MAX_PROBLEMS>) {
        read_and_check(bits, kind)
    }

    /// The kinds under which `bits` decodes without errors (warnings allowed), in
    /// [`Kind::ALL`] order: those for which [`InstructionDescriptor::is_valid`] holds.
    #[must_use]
    #[inline]
    pub const fn valid_kinds(bits: u32) -> KindSet {
        let mut set = KindSet::EMPTY;
        let mut i = 0;
        while i < Kind::ALL.len() {
            let k = Kind::ALL[i];
            if Self::is_valid(bits, k) {
                set = set.with(k);
            }
            i += 1;
        }
        set
    }
}

/// [`InstructionDescriptor::decode`] under the kind `Kind::ALL[K]`.
#[inline(always)]
pub(super) const fn decode_as<const K: usize>(bits: u32) -> IdescDecoded {
    let kind = Kind::ALL[K];
    IdescDecoded {
        bits,
        kind,
        fields: decode_fields(bits, kind),
        diagnostics: IdescDiagnostics {
            bits,
            kind,
            set: problems_by_table(bits, kind),
        },
    }
}

/// The fields of a raw value under `kind`, or `None` when a type code names no type.
#[inline(always)]
const fn decode_fields(bits: u32, kind: Kind) -> Option<IdescFields> {
    let l = layout_index(kind);
    let k = kind as usize;
    let c = &CODES[k];
    let a_code = field(bits, l, IdescField::AType);
    let b_code = field(bits, l, IdescField::BType);
    let d_code = field(bits, l, IdescField::DType);
    if !(has(c.ab, a_code) & has(c.ab, b_code) & has(c.d, d_code)) {
        return None;
    }
    // Every code the masks accept names a type (`CODES` is built from these tables).
    let d_type = placeholder(D_TYPES[k][d_code as usize]);
    let a_type = placeholder(AB_TYPES[k][a_code as usize]);
    let b_type = placeholder(AB_TYPES[k][b_code as usize]);
    Some(IdescFields {
        kind,
        d_type,
        a_type,
        b_type,
        m: field(bits, l, IdescField::M) as u16 * m_unit(kind),
        n: (field(bits, l, IdescField::N) as u16) << 3,
        sparse: field(bits, l, IdescField::Sparse) != 0,
        sparsity_selector: field(bits, l, IdescField::SparsitySelector) as u8,
        saturate: field(bits, l, IdescField::Saturate) != 0,
        negate_a: field(bits, l, IdescField::NegateA) != 0,
        negate_b: field(bits, l, IdescField::NegateB) != 0,
        transpose_a: field(bits, l, IdescField::TransposeA) != 0,
        transpose_b: field(bits, l, IdescField::TransposeB) != 0,
        max_shift: match MaxShift::from_code(field(bits, l, IdescField::MaxShift) as u8) {
            Some(s) => s,
            None => MaxShift::None,
        },
        scale_type: if kind.is_block_scaled() {
            ScaleType::from_code(field(bits, l, IdescField::ScaleType) as u8)
        } else {
            None
        },
        sfa_id: field(bits, l, IdescField::SfaId) as u8,
        sfb_id: field(bits, l, IdescField::SfbId) as u8,
        k96: field(bits, l, IdescField::K) != 0,
    })
}
