//! The 32-bit instruction descriptor of `tcgen05.mma` (PTX ISA 9.7.16.4.2, Tables 42-44).
//!
//! The descriptor gives the shapes, types, sparsity, negation, transposition and (for the
//! block-scaled kinds) the scale-factor selection of one MMA. Its layout depends on the MMA kind
//! (rules.md R8), so a raw value cannot be decoded without the kind:
//!
//! | Kinds | Layout |
//! |---|---|
//! | `tf32`, `f16`, `f8f6f4`, `i8` | [`TABLE_42`] |
//! | `mxf8f6f4` | [`TABLE_43`] |
//! | `mxf4`, `mxf4nvf4` | [`TABLE_44`] |
//!
//! [`IdescFields`] holds the fields as a kernel author thinks of them (M and N as numbers, types
//! by name); [`InstructionDescriptor`] is a value that satisfies every rule of its kind's table
//! that can be checked without knowing `.cta_group`, `.ws` or the target. The rules that need
//! those (Table 39) live in [`crate::shapes`].
//!
//! ```
//! use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
//! use tcgen05::{ElementType::*, Kind};
//!
//! // bf16 x bf16 -> f32, M = 128, N = 64, both operands K-major (CUTLASS writes 0x08100490).
//! const IDESC: InstructionDescriptor =
//!     InstructionDescriptor::new(IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, 64));
//! assert_eq!(IDESC.bits(), 0x0810_0490);
//!
//! let decoded = InstructionDescriptor::decode(0x0810_0490, Kind::F16);
//! assert!(decoded.diagnostics.is_empty());
//! assert_eq!(decoded.fields.map(|f| f.n), Some(64));
//! ```
//!
//! A descriptor that breaks a rule in a `const` item does not compile (here M = 48, which the
//! descriptor could store as 48 >> 4 = 3 but no shape of Table 39 allows):
//!
//! ```compile_fail
//! use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
//! use tcgen05::{ElementType::*, Kind};
//!
//! const BAD: InstructionDescriptor =
//!     InstructionDescriptor::new(IdescFields::new(Kind::F16, F32, F16, F16, 48, 64));
//! ```

use crate::bits::{BitField, LayoutField, Meaning, Role};
use crate::diagnostic::Diagnostics;
use crate::mma::{ElementType, IdescLayout, Kind, MaxShift, ScaleType};

mod codes;
mod decode;
mod diagnostics;
mod display;
mod encode;
mod error;
mod field_rules;
pub mod scale_format;
mod tables;
mod values;
use codes::*;
pub use diagnostics::*;
pub use display::*;
pub use encode::*;
pub use error::*;
use field_rules::{check_fields, TypesKnown};
pub use values::*;

/// A field of the instruction descriptor, in any of its three layouts.
///
/// Reserved runs of bits are fields of their own so that errors can point at them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum IdescField {
    /// Sparsity selector (bits 0-1 of Table 42): which metadata sub-columns a sparse MMA reads.
    SparsitySelector,
    /// Sparsity (bit 2): dense or sparse A.
    Sparse,
    /// Saturate for integer types (bit 3 of Table 42).
    Saturate,
    /// dtype, the type of D (bits 4-5 of Table 42).
    DType,
    /// atype, the type of A (bits 7-9).
    AType,
    /// btype, the type of B (bits 10-12, or 10-11 in Table 44).
    BType,
    /// Negate A (bit 13).
    NegateA,
    /// Negate B (bit 14).
    NegateB,
    /// Transpose A (bit 15): A is M-major.
    TransposeA,
    /// Transpose B (bit 16): B is N-major.
    TransposeB,
    /// N >> 3 (bits 17-22).
    N,
    /// M >> 4 (bits 24-28 of Table 42) or M >> 7 (bits 27-28 of Tables 43-44).
    M,
    /// Maximum shift while attempting B-matrix reuse in `.ws` (bits 30-31 of Table 42).
    MaxShift,
    /// Scale matrix type for both scale_A and scale_B (bit 23 of Tables 43-44).
    ScaleType,
    /// Matrix A scale factor data ID (bits 29-30 of Tables 43-44).
    SfaId,
    /// Matrix B scale factor data ID (bits 4-5 of Tables 43-44).
    SfbId,
    /// K dimension: dense K = 96 when set (bit 31 of Table 44).
    K,
    /// Reserved bits 0-1 (Tables 43-44).
    Reserved0,
    /// Reserved bit 3 (Tables 43-44).
    Reserved3,
    /// Reserved bit 6.
    Reserved6,
    /// Reserved bit 12 (Table 44).
    Reserved12,
    /// Reserved bit 23 (Table 42).
    Reserved23,
    /// Reserved bits 24-26 (Tables 43-44).
    Reserved24,
    /// Reserved bit 29 (Table 42).
    Reserved29,
    /// Reserved bit 31 (Table 43).
    Reserved31,
}

impl IdescField {
    /// The field's key in the command-line tool's JSON (`"d_type"`, `"m"`, ...); reserved runs
    /// are `"reserved"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            IdescField::SparsitySelector => "sparsity_selector",
            IdescField::Sparse => "sparse",
            IdescField::Saturate => "saturate",
            IdescField::DType => "d_type",
            IdescField::AType => "a_type",
            IdescField::BType => "b_type",
            IdescField::NegateA => "negate_a",
            IdescField::NegateB => "negate_b",
            IdescField::TransposeA => "transpose_a",
            IdescField::TransposeB => "transpose_b",
            IdescField::N => "n",
            IdescField::M => "m",
            IdescField::MaxShift => "max_shift",
            IdescField::ScaleType => "scale_type",
            IdescField::SfaId => "sfa_id",
            IdescField::SfbId => "sfb_id",
            IdescField::K => "k",
            IdescField::Reserved0
            | IdescField::Reserved3
            | IdescField::Reserved6
            | IdescField::Reserved12
            | IdescField::Reserved23
            | IdescField::Reserved24
            | IdescField::Reserved29
            | IdescField::Reserved31 => "reserved",
        }
    }
}

impl LayoutField for IdescField {
    fn name(self) -> &'static str {
        IdescField::name(self)
    }
}

crate::bit_layout! {
    /// Instruction descriptor layout for `.kind::tf32`, `.kind::f16`, `.kind::f8f6f4` and
    /// `.kind::i8` (PTX ISA 9.7.16.4.2 Table 42). Its type rows hold plain codes; [`layout`]
    /// gives each kind's table, with the codes named under the kind.
    pub const TABLE_42: [BitField<IdescField>; 32 bits] = {
        0 ..= 1   SparsitySelector value "Sparsity selector, if Sparsity is enabled" (Table 42);
        2 ..= 2   Sparse           value: SPARSITY "Sparsity: Dense = 0, Sparse = 1" (Table 42);
        3 ..= 3   Saturate         value: YES_NO "Saturate for integer types" (Table 42);
        4 ..= 5   DType            value "dtype (Matrix D type)" (Table 42);
        6 ..= 6   Reserved6        reserved "Reserved" (Table 42);
        7 ..= 9   AType            value "atype (Matrix A type)" (Table 42);
        10 ..= 12 BType            value "btype (Matrix B type)" (Table 42);
        13 ..= 13 NegateA          value: YES_NO "Negate A Matrix" (Table 42);
        14 ..= 14 NegateB          value: YES_NO "Negate B Matrix" (Table 42);
        15 ..= 15 TransposeA       value: TRANSPOSE_A "Transpose A Matrix" (Table 42);
        16 ..= 16 TransposeB       value: TRANSPOSE_B "Transpose B Matrix" (Table 42);
        17 ..= 22 N                value: N_BY_8 "N, Dimension of Matrix B (3 LSBs not included)" (Table 42);
        23 ..= 23 Reserved23       reserved "Reserved" (Table 42);
        24 ..= 28 M                value: M_BY_16 "M, Dimension of Matrix A (4 LSBs not included)" (Table 42);
        29 ..= 29 Reserved29       reserved "Reserved" (Table 42);
        30 ..= 31 MaxShift         value: MAX_SHIFT "Maximum shift while attempting B matrix reuse in .ws" (Table 42);
    }
}

crate::bit_layout! {
    /// Instruction descriptor layout for `.kind::mxf8f6f4` (PTX ISA 9.7.16.4.2 Table 43).
    pub const TABLE_43: [BitField<IdescField>; 32 bits] = {
        0 ..= 1   Reserved0   reserved "Reserved" (Table 43);
        2 ..= 2   Sparse      value: SPARSITY "Sparsity: Dense = 0, Sparse = 1" (Table 43);
        3 ..= 3   Reserved3   reserved "Reserved" (Table 43);
        4 ..= 5   SfbId       value "Matrix B Scale Factor Data ID" (Table 43);
        6 ..= 6   Reserved6   reserved "Reserved" (Table 43);
        7 ..= 9   AType       value "atype (Matrix A type)" (Table 43);
        10 ..= 12 BType       value "btype (Matrix B type)" (Table 43);
        13 ..= 13 NegateA     value: YES_NO "Negate A Matrix" (Table 43);
        14 ..= 14 NegateB     value: YES_NO "Negate B Matrix" (Table 43);
        15 ..= 15 TransposeA  value: TRANSPOSE_A "Transpose A Matrix" (Table 43);
        16 ..= 16 TransposeB  value: TRANSPOSE_B "Transpose B Matrix" (Table 43);
        17 ..= 22 N           value: N_BY_8 "N, Dimension of Matrix B (3 LSBs not included)" (Table 43);
        23 ..= 23 ScaleType   value: SCALE_TYPE "Scale Matrix Type, for both scale_A / scale_B" (Table 43);
        24 ..= 26 Reserved24  reserved "Reserved" (Table 43);
        27 ..= 28 M           value: M_BY_128 "M, Dimension of Matrix A (7 LSBs not included)" (Table 43);
        29 ..= 30 SfaId       value "Matrix A Scale Factor Data ID" (Table 43);
        31 ..= 31 Reserved31  reserved "Reserved" (Table 43);
    }
}

crate::bit_layout! {
    /// Instruction descriptor layout for `.kind::mxf4` and `.kind::mxf4nvf4` (PTX ISA
    /// 9.7.16.4.2 Table 44). btype is 2 bits wide here and E2M1 is code 1 (rules.md R8).
    pub const TABLE_44: [BitField<IdescField>; 32 bits] = {
        0 ..= 1   Reserved0   reserved "Reserved" (Table 44);
        2 ..= 2   Sparse      value: SPARSITY "Sparsity: Dense = 0, Sparse = 1" (Table 44);
        3 ..= 3   Reserved3   reserved "Reserved" (Table 44);
        4 ..= 5   SfbId       value "Matrix B Scale Factor Data ID" (Table 44);
        6 ..= 6   Reserved6   reserved "Reserved" (Table 44);
        7 ..= 9   AType       value "atype (Matrix A type)" (Table 44);
        10 ..= 11 BType       value "btype (Matrix B type)" (Table 44);
        12 ..= 12 Reserved12  reserved "Reserved" (Table 44);
        13 ..= 13 NegateA     value: YES_NO "Negate A Matrix" (Table 44);
        14 ..= 14 NegateB     value: YES_NO "Negate B Matrix" (Table 44);
        15 ..= 15 TransposeA  value: TRANSPOSE_A "Transpose A Matrix" (Table 44);
        16 ..= 16 TransposeB  value: TRANSPOSE_B "Transpose B Matrix" (Table 44);
        17 ..= 22 N           value: N_BY_8 "N, Dimension of Matrix B (3 LSBs not included)" (Table 44);
        23 ..= 23 ScaleType   value: SCALE_TYPE "Scale Matrix Type, for both scale_A / scale_B" (Table 44);
        24 ..= 26 Reserved24  reserved "Reserved" (Table 44);
        27 ..= 28 M           value: M_BY_128 "M, Dimension of Matrix A (7 LSBs not included)" (Table 44);
        29 ..= 30 SfaId       value "Matrix A Scale Factor Data ID" (Table 44);
        31 ..= 31 K           value: K_BIT "K Dimension: (Dense K=64 / Sparse K=128) = 0, (Dense K=96) = 1" (Table 44);
    }
}

/// The layout table of a kind (rules.md R8), with the meanings the kind gives its rows:
/// the type codes named under the kind and, in Table 44, the K bit giving the kind's K.
#[must_use]
pub const fn layout(kind: Kind) -> &'static [BitField<IdescField>] {
    kind_layout(kind)
}

const fn table_number(kind: Kind) -> u8 {
    match kind.idesc_layout() {
        IdescLayout::Table42 => 42,
        IdescLayout::Table43 => 43,
        IdescLayout::Table44 => 44,
    }
}

/// Number of [`IdescField`] variants.
const FIELD_COUNT: usize = IdescField::Reserved31 as usize + 1;

/// For each layout, the index of each field's row (or `u8::MAX` when the layout lacks it),
/// computed from the layout tables at compile time.
const ROW_INDEX: [[u8; FIELD_COUNT]; 3] = [
    index_rows(TABLE_42),
    index_rows(TABLE_43),
    index_rows(TABLE_44),
];

const fn index_rows(table: &[BitField<IdescField>]) -> [u8; FIELD_COUNT] {
    let mut index = [u8::MAX; FIELD_COUNT];
    let mut i = 0;
    while i < table.len() {
        index[table[i].field as usize] = i as u8;
        i += 1;
    }
    index
}

/// The reserved bits of each layout, computed from the layout tables at compile time.
const RESERVED_MASKS: [u32; 3] = [
    role_mask(TABLE_42),
    role_mask(TABLE_43),
    role_mask(TABLE_44),
];

const fn role_mask(table: &[BitField<IdescField>]) -> u32 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < table.len() {
        if matches!(table[i].role, Role::Reserved) {
            mask |= table[i].mask();
        }
        i += 1;
    }
    mask as u32
}

/// The bits that `kind`'s layout reserves (rules.md R10).
#[must_use]
pub const fn reserved_mask(kind: Kind) -> u32 {
    match kind.idesc_layout() {
        IdescLayout::Table42 => RESERVED_MASKS[0],
        IdescLayout::Table43 => RESERVED_MASKS[1],
        IdescLayout::Table44 => RESERVED_MASKS[2],
    }
}

/// The row of `field` in `kind`'s layout ([`layout`]), or `None` when that layout has no such
/// field.
#[must_use]
pub const fn row(kind: Kind, field: IdescField) -> Option<&'static BitField<IdescField>> {
    let table = layout(kind);
    let i = ROW_INDEX[layout_index(kind)][field as usize] as usize;
    if i < table.len() {
        Some(&table[i])
    } else {
        None
    }
}

/// The granularity of M in a kind's layout: 16 (M >> 4, Table 42) or 128 (M >> 7, Tables 43-44),
/// as the M row's meaning scales it.
#[must_use]
pub const fn m_unit(kind: Kind) -> u16 {
    M_UNITS[kind as usize]
}

/// [`m_unit`] of each kind, read from the M rows once, at compile time (decoding asks for it
/// with every value).
const M_UNITS: [u16; Kind::ALL.len()] = {
    let mut out = [1; Kind::ALL.len()];
    let mut i = 0;
    while i < Kind::ALL.len() {
        let kind = Kind::ALL[i];
        if let Some(BitField {
            meaning: Meaning::Scaled { shift, .. },
            ..
        }) = row(kind, IdescField::M)
        {
            out[kind as usize] = 1 << *shift;
        }
        i += 1;
    }
    out
};

/// Every field of an instruction descriptor, as a kernel author states them.
///
/// M and N are the matrix dimensions themselves (the descriptor stores M >> 4 or M >> 7 and
/// N >> 3). Fields that a kind's layout lacks must keep their defaults: `saturate`,
/// `sparsity_selector`, `max_shift` and `d_type` other than f32 exist only in Table 42;
/// `scale_type`, `sfa_id` and `sfb_id` only in Tables 43-44; `k96` only in Table 44.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IdescFields {
    /// The MMA kind, which selects the layout.
    pub kind: Kind,
    /// Type of D (the accumulator).
    pub d_type: ElementType,
    /// Type of A.
    pub a_type: ElementType,
    /// Type of B.
    pub b_type: ElementType,
    /// Rows of A and D.
    pub m: u16,
    /// Columns of B and D.
    pub n: u16,
    /// Sparse A (`tcgen05.mma.sp`).
    pub sparse: bool,
    /// Sparsity selector, 0-3 (Table 42 only; must be 0 when dense).
    pub sparsity_selector: u8,
    /// Saturate the integer result (`.kind::i8` only).
    pub saturate: bool,
    /// Negate A.
    pub negate_a: bool,
    /// Negate B.
    pub negate_b: bool,
    /// A is M-major (transposed).
    pub transpose_a: bool,
    /// B is N-major (transposed).
    pub transpose_b: bool,
    /// Maximum shift for B reuse in `.ws` MMAs (Table 42 only).
    pub max_shift: MaxShift,
    /// Scale factor type (block-scaled kinds only; `None` otherwise).
    pub scale_type: Option<ScaleType>,
    /// Matrix A scale factor data ID (block-scaled kinds only).
    pub sfa_id: u8,
    /// Matrix B scale factor data ID (block-scaled kinds only).
    pub sfb_id: u8,
    /// Dense K = 96 (Table 44 bit 31; `sm_103a` only).
    pub k96: bool,
}

impl IdescFields {
    /// Fields for a dense, non-negated, K-major MMA of `kind` with the given types and shape.
    /// Block-scaled kinds get UE8M0 scales with both scale-factor IDs 0.
    #[must_use]
    pub const fn new(
        kind: Kind,
        d_type: ElementType,
        a_type: ElementType,
        b_type: ElementType,
        m: u16,
        n: u16,
    ) -> Self {
        Self {
            kind,
            d_type,
            a_type,
            b_type,
            m,
            n,
            sparse: false,
            sparsity_selector: 0,
            saturate: false,
            negate_a: false,
            negate_b: false,
            transpose_a: false,
            transpose_b: false,
            max_shift: MaxShift::None,
            scale_type: if kind.is_block_scaled() {
                Some(ScaleType::Ue8m0)
            } else {
                None
            },
            sfa_id: 0,
            sfb_id: 0,
            k96: false,
        }
    }

    /// The same fields with sparse A and the given sparsity selector.
    #[must_use]
    pub const fn with_sparse(mut self, sparse: bool, selector: u8) -> Self {
        self.sparse = sparse;
        self.sparsity_selector = selector;
        self
    }

    /// The same fields with the given transposition (major-ness) of A and B.
    #[must_use]
    pub const fn with_transpose(mut self, a: bool, b: bool) -> Self {
        self.transpose_a = a;
        self.transpose_b = b;
        self
    }

    /// The same fields with the given negation of A and B.
    #[must_use]
    pub const fn with_negate(mut self, a: bool, b: bool) -> Self {
        self.negate_a = a;
        self.negate_b = b;
        self
    }

    /// The same fields with saturation on or off.
    #[must_use]
    pub const fn with_saturate(mut self, saturate: bool) -> Self {
        self.saturate = saturate;
        self
    }

    /// The same fields with the given `.ws` maximum shift.
    #[must_use]
    pub const fn with_max_shift(mut self, max_shift: MaxShift) -> Self {
        self.max_shift = max_shift;
        self
    }

    /// The same fields with the given scale type and scale-factor IDs.
    #[must_use]
    pub const fn with_scale(mut self, scale_type: ScaleType, sfa_id: u8, sfb_id: u8) -> Self {
        self.scale_type = Some(scale_type);
        self.sfa_id = sfa_id;
        self.sfb_id = sfb_id;
        self
    }

    /// The same fields with dense K = 96 on or off.
    #[must_use]
    pub const fn with_k96(mut self, k96: bool) -> Self {
        self.k96 = k96;
        self
    }

    /// The K of one MMA with these fields (Table 39): implied by kind and sparsity, or 96.
    #[must_use]
    pub const fn k(&self) -> u16 {
        if self.k96 {
            96
        } else if self.sparse {
            self.kind.dense_k() * 2
        } else {
            self.kind.dense_k()
        }
    }

    /// Every problem with these fields that the instruction descriptor alone decides.
    #[must_use]
    pub const fn validate(&self) -> Diagnostics<IdescError, MAX_PROBLEMS> {
        let mut d = Diagnostics::new();
        check_fields(self, TypesKnown::ALL, &mut d);
        d
    }

    /// Encodes the fields.
    ///
    /// # Errors
    /// The first error [`IdescFields::validate`] finds.
    pub const fn encode(&self) -> Result<InstructionDescriptor, IdescError> {
        InstructionDescriptor::try_new(*self)
    }
}

#[cfg(test)]
mod tests;
