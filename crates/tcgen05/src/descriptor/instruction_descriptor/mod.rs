//! The 32-bit instruction descriptor of `tcgen05.mma` (PTX ISA 9.7.16.4.2, Tables 42-44).
//!
//! The descriptor gives the shapes, types, sparsity, negation, transposition and (for the
//! block-scaled kinds) the scale-factor selection of one MMA. Its layout depends on the MMA kind
//! (decisions.md R8), so a raw value cannot be decoded without the kind:
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

use core::fmt;

use crate::bits::{BitField, Role};
use crate::diagnostic::{Diagnostic, Diagnostics, OneLine, Rule, RuleSource, Severity, Source};
use crate::mma::{ElementType, IdescLayout, Kind, MaxShift, ScaleType};

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

crate::bit_layout! {
    /// Instruction descriptor layout for `.kind::tf32`, `.kind::f16`, `.kind::f8f6f4` and
    /// `.kind::i8` (PTX ISA 9.7.16.4.2 Table 42).
    pub const TABLE_42: [BitField<IdescField>; 32 bits] = {
        0 ..= 1   SparsitySelector value "Sparsity selector, if Sparsity is enabled" (Table 42);
        2 ..= 2   Sparse           value "Sparsity: Dense = 0, Sparse = 1" (Table 42);
        3 ..= 3   Saturate         value "Saturate for integer types" (Table 42);
        4 ..= 5   DType            value "dtype (Matrix D type)" (Table 42);
        6 ..= 6   Reserved6        reserved "Reserved" (Table 42);
        7 ..= 9   AType            value "atype (Matrix A type)" (Table 42);
        10 ..= 12 BType            value "btype (Matrix B type)" (Table 42);
        13 ..= 13 NegateA          value "Negate A Matrix" (Table 42);
        14 ..= 14 NegateB          value "Negate B Matrix" (Table 42);
        15 ..= 15 TransposeA       value "Transpose A Matrix" (Table 42);
        16 ..= 16 TransposeB       value "Transpose B Matrix" (Table 42);
        17 ..= 22 N                value "N, Dimension of Matrix B (3 LSBs not included)" (Table 42);
        23 ..= 23 Reserved23       reserved "Reserved" (Table 42);
        24 ..= 28 M                value "M, Dimension of Matrix A (4 LSBs not included)" (Table 42);
        29 ..= 29 Reserved29       reserved "Reserved" (Table 42);
        30 ..= 31 MaxShift         value "Maximum shift while attempting B matrix reuse in .ws" (Table 42);
    }
}

crate::bit_layout! {
    /// Instruction descriptor layout for `.kind::mxf8f6f4` (PTX ISA 9.7.16.4.2 Table 43).
    pub const TABLE_43: [BitField<IdescField>; 32 bits] = {
        0 ..= 1   Reserved0   reserved "Reserved" (Table 43);
        2 ..= 2   Sparse      value "Sparsity: Dense = 0, Sparse = 1" (Table 43);
        3 ..= 3   Reserved3   reserved "Reserved" (Table 43);
        4 ..= 5   SfbId       value "Matrix B Scale Factor Data ID" (Table 43);
        6 ..= 6   Reserved6   reserved "Reserved" (Table 43);
        7 ..= 9   AType       value "atype (Matrix A type)" (Table 43);
        10 ..= 12 BType       value "btype (Matrix B type)" (Table 43);
        13 ..= 13 NegateA     value "Negate A Matrix" (Table 43);
        14 ..= 14 NegateB     value "Negate B Matrix" (Table 43);
        15 ..= 15 TransposeA  value "Transpose A Matrix" (Table 43);
        16 ..= 16 TransposeB  value "Transpose B Matrix" (Table 43);
        17 ..= 22 N           value "N, Dimension of Matrix B (3 LSBs not included)" (Table 43);
        23 ..= 23 ScaleType   value "Scale Matrix Type, for both scale_A / scale_B" (Table 43);
        24 ..= 26 Reserved24  reserved "Reserved" (Table 43);
        27 ..= 28 M           value "M, Dimension of Matrix A (7 LSBs not included)" (Table 43);
        29 ..= 30 SfaId       value "Matrix A Scale Factor Data ID" (Table 43);
        31 ..= 31 Reserved31  reserved "Reserved" (Table 43);
    }
}

crate::bit_layout! {
    /// Instruction descriptor layout for `.kind::mxf4` and `.kind::mxf4nvf4` (PTX ISA
    /// 9.7.16.4.2 Table 44). btype is 2 bits wide here and E2M1 is code 1 (decisions.md R8).
    pub const TABLE_44: [BitField<IdescField>; 32 bits] = {
        0 ..= 1   Reserved0   reserved "Reserved" (Table 44);
        2 ..= 2   Sparse      value "Sparsity: Dense = 0, Sparse = 1" (Table 44);
        3 ..= 3   Reserved3   reserved "Reserved" (Table 44);
        4 ..= 5   SfbId       value "Matrix B Scale Factor Data ID" (Table 44);
        6 ..= 6   Reserved6   reserved "Reserved" (Table 44);
        7 ..= 9   AType       value "atype (Matrix A type)" (Table 44);
        10 ..= 11 BType       value "btype (Matrix B type)" (Table 44);
        12 ..= 12 Reserved12  reserved "Reserved" (Table 44);
        13 ..= 13 NegateA     value "Negate A Matrix" (Table 44);
        14 ..= 14 NegateB     value "Negate B Matrix" (Table 44);
        15 ..= 15 TransposeA  value "Transpose A Matrix" (Table 44);
        16 ..= 16 TransposeB  value "Transpose B Matrix" (Table 44);
        17 ..= 22 N           value "N, Dimension of Matrix B (3 LSBs not included)" (Table 44);
        23 ..= 23 ScaleType   value "Scale Matrix Type, for both scale_A / scale_B" (Table 44);
        24 ..= 26 Reserved24  reserved "Reserved" (Table 44);
        27 ..= 28 M           value "M, Dimension of Matrix A (7 LSBs not included)" (Table 44);
        29 ..= 30 SfaId       value "Matrix A Scale Factor Data ID" (Table 44);
        31 ..= 31 K           value "K Dimension: (Dense K=64 / Sparse K=128) = 0, (Dense K=96) = 1" (Table 44);
    }
}

/// The layout table of a kind (decisions.md R8).
#[must_use]
pub const fn layout(kind: Kind) -> &'static [BitField<IdescField>] {
    match kind.idesc_layout() {
        IdescLayout::Table42 => TABLE_42,
        IdescLayout::Table43 => TABLE_43,
        IdescLayout::Table44 => TABLE_44,
    }
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

/// The bits that `kind`'s layout reserves (decisions.md R10).
#[must_use]
pub const fn reserved_mask(kind: Kind) -> u32 {
    match kind.idesc_layout() {
        IdescLayout::Table42 => RESERVED_MASKS[0],
        IdescLayout::Table43 => RESERVED_MASKS[1],
        IdescLayout::Table44 => RESERVED_MASKS[2],
    }
}

/// The row of `field` in `kind`'s layout, or `None` when that layout has no such field.
#[must_use]
pub const fn row(kind: Kind, field: IdescField) -> Option<&'static BitField<IdescField>> {
    let (table, index) = match kind.idesc_layout() {
        IdescLayout::Table42 => (TABLE_42, &ROW_INDEX[0]),
        IdescLayout::Table43 => (TABLE_43, &ROW_INDEX[1]),
        IdescLayout::Table44 => (TABLE_44, &ROW_INDEX[2]),
    };
    let i = index[field as usize] as usize;
    if i < table.len() {
        Some(&table[i])
    } else {
        None
    }
}

/// The granularity of M in a kind's layout: 16 (M >> 4, Table 42) or 128 (M >> 7, Tables 43-44).
#[must_use]
pub const fn m_unit(kind: Kind) -> u16 {
    match kind.idesc_layout() {
        IdescLayout::Table42 => 16,
        IdescLayout::Table43 | IdescLayout::Table44 => 128,
    }
}

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

/// Capacity of the problem lists of this module: more than one value can break at once.
pub const MAX_PROBLEMS: usize = 32;

/// What makes an instruction descriptor, or the fields meant for one, invalid.
///
/// Each variant breaks one rule of [`IDESC_RULES`] ([`IdescError::rule`]), which gives its
/// identifier, source and severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IdescError {
    /// A reserved bit is set (decisions.md R10).
    ReservedBit {
        /// The bit.
        bit: u8,
        /// The kind whose layout reserves it.
        kind: Kind,
    },
    /// A type field holds a code that the kind does not define (Tables 42-44).
    InvalidTypeCode {
        /// `DType`, `AType` or `BType`.
        field: IdescField,
        /// The code found.
        code: u8,
        /// The kind.
        kind: Kind,
    },
    /// A type that the kind does not take for this operand (Tables 39, 42-44; decisions.md R12).
    TypeNotForKind {
        /// `DType`, `AType` or `BType`.
        field: IdescField,
        /// The type given.
        ty: ElementType,
        /// The kind.
        kind: Kind,
    },
    /// An f16 accumulator with a bf16 input (decisions.md R12: D = f16 only with f16 inputs).
    F16AccumulatorNeedsF16Inputs {
        /// The offending input's field.
        field: IdescField,
    },
    /// f16 mixed with bf16 (a warning: Table 39 does not list the pair; decisions.md R12).
    MixedF16Bf16,
    /// A field that the kind's layout does not have was given a non-default value
    /// (decisions.md R11).
    FieldNotInLayout {
        /// The field.
        field: IdescField,
        /// Its value.
        value: u64,
        /// The kind.
        kind: Kind,
    },
    /// Saturate is only for `.kind::i8` (Table 42; decisions.md R11).
    SaturateNotI8 {
        /// The kind.
        kind: Kind,
    },
    /// Negation is not allowed with `.kind::i8` (Table 42; decisions.md R11).
    NegateI8 {
        /// `NegateA` or `NegateB`.
        field: IdescField,
    },
    /// Transposition (MN-major) is not allowed for this kind or element type (decisions.md R11;
    /// PTX ISA 9.7.16.10.1).
    TransposeNotAllowed {
        /// `TransposeA` or `TransposeB`.
        field: IdescField,
        /// The kind.
        kind: Kind,
        /// The operand's type.
        ty: ElementType,
    },
    /// A non-zero sparsity selector with a dense MMA (Table 42; decisions.md R11).
    SparsitySelectorWithoutSparsity {
        /// The selector.
        value: u8,
    },
    /// A non-zero sparsity selector with `.kind::i8` or `.kind::f8f6f4` (decisions.md R11).
    SparsitySelectorNotZero {
        /// The selector.
        value: u8,
        /// The kind.
        kind: Kind,
    },
    /// A field value that does not fit its bits (it would be silently truncated).
    FieldTooWide {
        /// The field.
        field: IdescField,
        /// The value given.
        value: u64,
    },
    /// N is not a multiple of 8 (the descriptor stores N >> 3; Table 42-44).
    NNotMultipleOf8 {
        /// N.
        n: u16,
    },
    /// N outside 8..=256, the range of every row of Table 39.
    NOutOfRange {
        /// N.
        n: u16,
    },
    /// M that the layout cannot store (a multiple of 16 in Table 42, of 128 in Tables 43-44).
    MNotEncodable {
        /// M.
        m: u16,
        /// The kind.
        kind: Kind,
    },
    /// M that no row of Table 39 allows for this kind (32, 64, 128, 256; block-scaled 128, 256).
    MNotInTable39 {
        /// M.
        m: u16,
        /// The kind.
        kind: Kind,
    },
    /// A block-scaled kind without a scale type, or a scale type the kind does not take
    /// (Tables 43-44; decisions.md R12).
    ScaleTypeNotForKind {
        /// The scale type (`None` when missing).
        scale: Option<ScaleType>,
        /// The kind.
        kind: Kind,
    },
    /// A scale-factor ID the kind does not allow (decisions.md R13: 0-3 for mxf8f6f4, 0 or 2 for
    /// mxf4/mxf4nvf4, only 0 with UE4M3 scales, which imply the 4X / block16 vector).
    SfIdNotAllowed {
        /// `SfaId` or `SfbId`.
        field: IdescField,
        /// The ID.
        value: u8,
        /// The kind.
        kind: Kind,
        /// The scale type.
        scale: Option<ScaleType>,
    },
    /// K = 96 with sparsity (Table 44: K = 96 is dense only).
    K96Sparse,
}

impl IdescError {
    /// The field concerned.
    #[must_use]
    pub const fn idesc_field(&self) -> Option<IdescField> {
        match *self {
            IdescError::ReservedBit { .. } => None,
            IdescError::InvalidTypeCode { field, .. }
            | IdescError::TypeNotForKind { field, .. }
            | IdescError::F16AccumulatorNeedsF16Inputs { field }
            | IdescError::FieldNotInLayout { field, .. }
            | IdescError::NegateI8 { field }
            | IdescError::TransposeNotAllowed { field, .. }
            | IdescError::FieldTooWide { field, .. }
            | IdescError::SfIdNotAllowed { field, .. } => Some(field),
            IdescError::MixedF16Bf16 => Some(IdescField::BType),
            IdescError::SaturateNotI8 { .. } => Some(IdescField::Saturate),
            IdescError::SparsitySelectorWithoutSparsity { .. }
            | IdescError::SparsitySelectorNotZero { .. } => Some(IdescField::SparsitySelector),
            IdescError::NNotMultipleOf8 { .. } | IdescError::NOutOfRange { .. } => {
                Some(IdescField::N)
            }
            IdescError::MNotEncodable { .. } | IdescError::MNotInTable39 { .. } => {
                Some(IdescField::M)
            }
            IdescError::ScaleTypeNotForKind { .. } => Some(IdescField::ScaleType),
            IdescError::K96Sparse => Some(IdescField::K),
        }
    }
}

/// The rules of the instruction descriptor, one per [`IdescError`] variant; each has one row in
/// [`IDESC_RULES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum IdescRule {
    /// [`IdescError::ReservedBit`].
    ReservedBit,
    /// [`IdescError::InvalidTypeCode`].
    InvalidTypeCode,
    /// [`IdescError::TypeNotForKind`].
    TypeNotForKind,
    /// [`IdescError::F16AccumulatorNeedsF16Inputs`].
    F16AccumulatorNeedsF16Inputs,
    /// [`IdescError::MixedF16Bf16`].
    MixedF16Bf16,
    /// [`IdescError::FieldNotInLayout`].
    FieldNotInLayout,
    /// [`IdescError::SaturateNotI8`].
    SaturateNotI8,
    /// [`IdescError::NegateI8`].
    NegateI8,
    /// [`IdescError::TransposeNotAllowed`].
    TransposeNotAllowed,
    /// [`IdescError::SparsitySelectorWithoutSparsity`].
    SparsitySelectorWithoutSparsity,
    /// [`IdescError::SparsitySelectorNotZero`].
    SparsitySelectorNotZero,
    /// [`IdescError::FieldTooWide`].
    FieldTooWide,
    /// [`IdescError::NNotMultipleOf8`].
    NNotMultipleOf8,
    /// [`IdescError::NOutOfRange`].
    NOutOfRange,
    /// [`IdescError::MNotEncodable`].
    MNotEncodable,
    /// [`IdescError::MNotInTable39`].
    MNotInTable39,
    /// [`IdescError::ScaleTypeNotForKind`].
    ScaleTypeNotForKind,
    /// [`IdescError::SfIdNotAllowed`].
    SfIdNotAllowed,
    /// [`IdescError::K96Sparse`].
    K96Sparse,
}

impl IdescRule {
    /// Every rule, in the order of [`IDESC_RULES`].
    pub const ALL: [IdescRule; 19] = [
        IdescRule::ReservedBit,
        IdescRule::InvalidTypeCode,
        IdescRule::TypeNotForKind,
        IdescRule::F16AccumulatorNeedsF16Inputs,
        IdescRule::MixedF16Bf16,
        IdescRule::FieldNotInLayout,
        IdescRule::SaturateNotI8,
        IdescRule::NegateI8,
        IdescRule::TransposeNotAllowed,
        IdescRule::SparsitySelectorWithoutSparsity,
        IdescRule::SparsitySelectorNotZero,
        IdescRule::FieldTooWide,
        IdescRule::NNotMultipleOf8,
        IdescRule::NOutOfRange,
        IdescRule::MNotEncodable,
        IdescRule::MNotInTable39,
        IdescRule::ScaleTypeNotForKind,
        IdescRule::SfIdNotAllowed,
        IdescRule::K96Sparse,
    ];

    /// The rule's row of [`IDESC_RULES`].
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &IDESC_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"idesc.reserved_bit"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// Shorthand for a row of [`IDESC_RULES`].
const fn rule(
    id: &'static str,
    source: RuleSource,
    severity: Severity,
    statement: &'static str,
) -> Rule {
    Rule {
        id,
        source,
        severity,
        statement,
    }
}

const R10: RuleSource = RuleSource::Fixed(Source::Decision(10));
const R11: RuleSource = RuleSource::Fixed(Source::Decision(11));
const R12: RuleSource = RuleSource::Fixed(Source::Decision(12));
const R13: RuleSource = RuleSource::Fixed(Source::Decision(13));
const T39: RuleSource = RuleSource::Fixed(Source::PtxTable(39));
const T42: RuleSource = RuleSource::Fixed(Source::PtxTable(42));
const T44: RuleSource = RuleSource::Fixed(Source::PtxTable(44));
const KIND_TABLE: RuleSource = RuleSource::LayoutTable;
const ERROR: Severity = Severity::Error;

/// Every rule of the instruction descriptor (PTX ISA 9.7.16.4.2 Tables 42-44, the Table 39
/// ranges that hold for every `.cta_group` and `.ws`, decisions.md R8-R13), one row each,
/// indexed by [`IdescRule`]. [`IdescError`] reads its identifier, source and severity here.
pub const IDESC_RULES: [Rule; 19] = [
    rule("idesc.reserved_bit", R10, ERROR, "Bits that the kind's layout reserves are 0."),
    rule(
        "idesc.type_code_undefined",
        KIND_TABLE,
        ERROR,
        "dtype, atype and btype hold a code that the kind's table defines.",
    ),
    rule("idesc.type_not_for_kind", R12, ERROR, "Each operand has a type that the kind takes."),
    rule(
        "idesc.f16_accumulator_inputs",
        R12,
        ERROR,
        "An .f16 accumulator takes .f16 inputs only.",
    ),
    rule(
        "idesc.mixed_f16_bf16",
        R12,
        Severity::Warning,
        "A and B do not mix .f16 with .bf16, a pair Table 39 does not list.",
    ),
    rule(
        "idesc.field_not_in_layout",
        R11,
        ERROR,
        "A field that the kind's layout lacks keeps its default.",
    ),
    rule("idesc.saturate_not_i8", R11, ERROR, "Saturate is set with .kind::i8 only."),
    rule("idesc.negate_i8", R11, ERROR, ".kind::i8 negates neither A nor B."),
    rule(
        "idesc.transpose_not_allowed",
        R11,
        ERROR,
        "An MN-major operand has an 8-bit or wider type, and .kind::mxf4 and .kind::mxf4nvf4 take none.",
    ),
    rule(
        "idesc.selector_without_sparsity",
        R11,
        ERROR,
        "A dense MMA has sparsity selector 0.",
    ),
    rule(
        "idesc.selector_not_zero",
        R11,
        ERROR,
        "The sparsity selector is 0 under .kind::i8 and .kind::f8f6f4.",
    ),
    rule("idesc.field_too_wide", T42, ERROR, "Each field's value fits its bits."),
    rule(
        "idesc.n_not_multiple_of_8",
        T42,
        ERROR,
        "N is a multiple of 8 (the descriptor stores N >> 3).",
    ),
    rule("idesc.n_out_of_range", T39, ERROR, "N lies in 8..=256, the range of every shape."),
    rule(
        "idesc.m_not_encodable",
        KIND_TABLE,
        ERROR,
        "M is a multiple of the layout's unit (M >> 4 in Table 42, M >> 7 in Tables 43-44) that fits its bits.",
    ),
    rule(
        "idesc.m_not_in_table_39",
        T39,
        ERROR,
        "M is a shape of the kind: 32 (.ws), 64, 128 or 256; 128 or 256 when block-scaled.",
    ),
    rule(
        "idesc.scale_type_not_for_kind",
        R12,
        ERROR,
        "A block-scaled kind has a scale type it takes (UE4M3 with .kind::mxf4nvf4 only); other kinds have none.",
    ),
    rule(
        "idesc.sf_id_not_allowed",
        R13,
        ERROR,
        "Scale-factor IDs are 0-3 for mxf8f6f4, 0 or 2 for mxf4 and mxf4nvf4, and 0 with UE4M3 scales.",
    ),
    rule("idesc.k96_sparse", T44, ERROR, "K = 96 (Table 44 bit 31) is for dense MMAs only."),
];

impl IdescError {
    /// The rule this error breaks.
    #[must_use]
    pub const fn rule(&self) -> IdescRule {
        match self {
            IdescError::ReservedBit { .. } => IdescRule::ReservedBit,
            IdescError::InvalidTypeCode { .. } => IdescRule::InvalidTypeCode,
            IdescError::TypeNotForKind { .. } => IdescRule::TypeNotForKind,
            IdescError::F16AccumulatorNeedsF16Inputs { .. } => {
                IdescRule::F16AccumulatorNeedsF16Inputs
            }
            IdescError::MixedF16Bf16 => IdescRule::MixedF16Bf16,
            IdescError::FieldNotInLayout { .. } => IdescRule::FieldNotInLayout,
            IdescError::SaturateNotI8 { .. } => IdescRule::SaturateNotI8,
            IdescError::NegateI8 { .. } => IdescRule::NegateI8,
            IdescError::TransposeNotAllowed { .. } => IdescRule::TransposeNotAllowed,
            IdescError::SparsitySelectorWithoutSparsity { .. } => {
                IdescRule::SparsitySelectorWithoutSparsity
            }
            IdescError::SparsitySelectorNotZero { .. } => IdescRule::SparsitySelectorNotZero,
            IdescError::FieldTooWide { .. } => IdescRule::FieldTooWide,
            IdescError::NNotMultipleOf8 { .. } => IdescRule::NNotMultipleOf8,
            IdescError::NOutOfRange { .. } => IdescRule::NOutOfRange,
            IdescError::MNotEncodable { .. } => IdescRule::MNotEncodable,
            IdescError::MNotInTable39 { .. } => IdescRule::MNotInTable39,
            IdescError::ScaleTypeNotForKind { .. } => IdescRule::ScaleTypeNotForKind,
            IdescError::SfIdNotAllowed { .. } => IdescRule::SfIdNotAllowed,
            IdescError::K96Sparse => IdescRule::K96Sparse,
        }
    }

    /// The kind whose layout a [`RuleSource::LayoutTable`] rule refers to.
    const fn layout_kind(&self) -> Kind {
        match *self {
            IdescError::ReservedBit { kind, .. }
            | IdescError::InvalidTypeCode { kind, .. }
            | IdescError::MNotEncodable { kind, .. } => kind,
            _ => Kind::F16,
        }
    }

    /// Error or warning, from the rule's row.
    #[must_use]
    pub const fn severity_of(&self) -> Severity {
        self.rule().row().severity
    }

    /// The rule's source, from the rule's row (the kind's table for layout-dependent rules).
    #[must_use]
    pub const fn source_of(&self) -> Source {
        match self.rule().row().source {
            RuleSource::Fixed(s) => s,
            RuleSource::LayoutTable => Source::PtxTable(table_number(self.layout_kind())),
        }
    }
}

const RESERVED_BIT_NAMES: [&str; 32] = [
    "bit 0", "bit 1", "bit 2", "bit 3", "bit 4", "bit 5", "bit 6", "bit 7", "bit 8", "bit 9",
    "bit 10", "bit 11", "bit 12", "bit 13", "bit 14", "bit 15", "bit 16", "bit 17", "bit 18",
    "bit 19", "bit 20", "bit 21", "bit 22", "bit 23", "bit 24", "bit 25", "bit 26", "bit 27",
    "bit 28", "bit 29", "bit 30", "bit 31",
];

impl Diagnostic for IdescError {
    #[inline]
    fn field(&self) -> &'static str {
        match *self {
            IdescError::ReservedBit { bit, .. } => RESERVED_BIT_NAMES[(bit & 31) as usize],
            _ => match self.idesc_field() {
                Some(f) => f.name(),
                None => "reserved",
            },
        }
    }

    #[inline]
    fn value(&self) -> u64 {
        match *self {
            IdescError::ReservedBit { .. } => 1,
            IdescError::InvalidTypeCode { code, .. } => code as u64,
            IdescError::TypeNotForKind { ty, .. } => ty as u64,
            IdescError::F16AccumulatorNeedsF16Inputs { .. } | IdescError::MixedF16Bf16 => 1,
            IdescError::FieldNotInLayout { value, .. } | IdescError::FieldTooWide { value, .. } => {
                value
            }
            IdescError::SaturateNotI8 { .. }
            | IdescError::NegateI8 { .. }
            | IdescError::TransposeNotAllowed { .. }
            | IdescError::K96Sparse => 1,
            IdescError::SparsitySelectorWithoutSparsity { value }
            | IdescError::SparsitySelectorNotZero { value, .. }
            | IdescError::SfIdNotAllowed { value, .. } => value as u64,
            IdescError::NNotMultipleOf8 { n } | IdescError::NOutOfRange { n } => n as u64,
            IdescError::MNotEncodable { m, .. } | IdescError::MNotInTable39 { m, .. } => m as u64,
            IdescError::ScaleTypeNotForKind { scale, .. } => match scale {
                Some(s) => s as u64,
                None => 0,
            },
        }
    }

    fn value_name(&self) -> Option<&'static str> {
        match *self {
            IdescError::TypeNotForKind { ty, .. } => Some(ty.name()),
            IdescError::F16AccumulatorNeedsF16Inputs { .. } => Some("bf16"),
            IdescError::ScaleTypeNotForKind { scale: Some(s), .. } => Some(s.name()),
            IdescError::ScaleTypeNotForKind { scale: None, .. } => Some("none"),
            _ => None,
        }
    }

    #[inline]
    fn source(&self) -> Source {
        self.source_of()
    }

    #[inline]
    fn severity(&self) -> Severity {
        self.severity_of()
    }

    fn rule_id(&self) -> Option<&'static str> {
        Some(self.rule().id())
    }
}

impl fmt::Display for IdescError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IdescError::ReservedBit { bit, kind } => write!(
                f,
                "bit {bit} is reserved in the .kind::{kind} layout (Table {}) and must be 0",
                table_number(kind)
            ),
            IdescError::InvalidTypeCode { field, code, kind } => write!(
                f,
                "{} code {code} is not defined for .kind::{kind}",
                field.name()
            ),
            IdescError::TypeNotForKind { field, ty, kind } => {
                write!(
                    f,
                    "{} .{ty} is not allowed with .kind::{kind}",
                    field.name()
                )
            }
            IdescError::F16AccumulatorNeedsF16Inputs { field } => write!(
                f,
                "an .f16 accumulator needs .f16 inputs, but {} is .bf16",
                field.name()
            ),
            IdescError::MixedF16Bf16 => {
                f.write_str("A and B mix .f16 with .bf16, a pair Table 39 does not list")
            }
            IdescError::FieldNotInLayout { field, value, kind } => write!(
                f,
                "{} = {value} but the .kind::{kind} layout (Table {}) has no such field",
                field.name(),
                table_number(kind)
            ),
            IdescError::SaturateNotI8 { kind } => {
                write!(f, "saturate is only for .kind::i8, not .kind::{kind}")
            }
            IdescError::NegateI8 { field } => {
                write!(f, "{} is not allowed with .kind::i8", field.name())
            }
            IdescError::TransposeNotAllowed { field, kind, ty } => {
                if matches!(kind, Kind::Mxf4 | Kind::Mxf4nvf4) {
                    write!(
                        f,
                        "{} (MN-major) is not supported by .kind::{kind}",
                        field.name()
                    )
                } else {
                    write!(
                        f,
                        "{} (MN-major) is not supported for the {}-bit type .{ty}",
                        field.name(),
                        ty.bits()
                    )
                }
            }
            IdescError::SparsitySelectorWithoutSparsity { value } => {
                write!(f, "sparsity selector {value} is given but sparsity is off")
            }
            IdescError::SparsitySelectorNotZero { value, kind } => {
                write!(f, "sparsity selector {value} must be 0 for .kind::{kind}")
            }
            IdescError::FieldTooWide { field, value } => {
                write!(f, "{} = {value} does not fit its bits", field.name())
            }
            IdescError::NNotMultipleOf8 { n } => write!(
                f,
                "N = {n} is not a multiple of 8 (the descriptor stores N >> 3)"
            ),
            IdescError::NOutOfRange { n } => {
                write!(f, "N = {n} is outside 8..=256, the range of every shape")
            }
            IdescError::MNotEncodable { m, kind } => write!(
                f,
                "M = {m} cannot be stored for .kind::{kind} (the descriptor stores M >> {})",
                if m_unit(kind) == 16 { 4 } else { 7 }
            ),
            IdescError::MNotInTable39 { m, kind } => write!(
                f,
                "M = {m} is not a shape of .kind::{kind} (allowed: {})",
                if kind.is_block_scaled() {
                    "128, 256"
                } else {
                    "32 (.ws), 64, 128, 256 (cta_group::2)"
                }
            ),
            IdescError::ScaleTypeNotForKind { scale, kind } => match scale {
                Some(s) => write!(f, "scale type .{s} is not allowed with .kind::{kind}"),
                None => write!(f, ".kind::{kind} needs a scale type"),
            },
            IdescError::SfIdNotAllowed {
                field,
                value,
                kind,
                scale,
            } => {
                if matches!(scale, Some(ScaleType::Ue4m3)) {
                    write!(
                        f,
                        "{} = {value} but UE4M3 scales (4X / block16 vectors) need ID 0",
                        field.name()
                    )
                } else if matches!(kind, Kind::Mxf8f6f4) {
                    write!(f, "{} = {value} is outside 0-3", field.name())
                } else {
                    write!(
                        f,
                        "{} = {value} but .kind::{kind} allows only 0 or 2",
                        field.name()
                    )
                }
            }
            IdescError::K96Sparse => {
                f.write_str("K = 96 exists only for dense MMAs (sparse mxf4 is K = 128)")
            }
        }
    }
}

impl core::error::Error for IdescError {}

/// A 32-bit instruction descriptor together with its kind, satisfying every rule of the kind's
/// layout (Tables 42-44, decisions.md R8-R13) that does not depend on `.cta_group`, `.ws` or the
/// target.
///
/// Build one with [`InstructionDescriptor::try_new`] / [`InstructionDescriptor::new`] from
/// [`IdescFields`], or from raw bits with [`InstructionDescriptor::from_bits`]; decode any raw
/// value with [`InstructionDescriptor::decode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstructionDescriptor {
    bits: u32,
    kind: Kind,
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

    /// Decodes any 32-bit value under `kind`, reporting every problem. Never panics.
    ///
    /// The problems are kept as a set of the rules broken ([`IdescDiagnostics`]); each
    /// [`IdescError`] is built from the value when it is read, in the order of the fields
    /// concerned: the reserved bits first, lowest first, then the type codes and the rules of
    /// decisions.md R11-R13 and Table 39.
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
    /// The rules of Tables 42-44 (reserved bits, decisions.md R10; type codes, R8 and R12;
    /// transposition, negation, saturation and the sparsity selector, R11; scale type and
    /// scale-factor IDs, R12-R13) and the Table 39 ranges of M and N are read here as masks and
    /// small per-kind tables built at compile time, without building any diagnostic.
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
        let v = &VALIDITY[kind as usize];
        let types = ((bits >> 4) & 0x3) | ((bits >> 5) & 0xfc) | ((bits >> 7) & 0x300);
        let modifiers = (bits & 0xf) | ((bits >> 9) & 0x30);
        let scales = ((bits >> 4) & 0x3) | ((bits >> 21) & 0x4) | ((bits >> 26) & 0x18);
        let n = (bits >> 17) & 0x3f;
        let m = (bits >> 24) & 0x1f;
        (bits & v.reserved == 0)
            & (n.wrapping_sub(1) < 32)
            & ((v.m_codes >> m) & 1 == 1)
            & ((v.types[(types >> 5) as usize] >> (types & 31)) & 1 == 1)
            & ((v.modifiers >> modifiers) & 1 == 1)
            & ((v.scales >> scales) & 1 == 1)
            & ((bits & v.k96_sparse != v.k96_sparse) | (v.k96_sparse == 0))
    }

    /// The decode of a raw value through its fields: reads them, then applies
    /// [`IdescFields::validate`]'s rules to them, after the reserved bits and undefined type
    /// codes. [`InstructionDescriptor::decode`] gives the same fields and the same problems in
    /// the same order (checked by the tests and by the sweep); this path stays as the second
    /// reading that proves it.
    #[doc(hidden)]
    #[must_use]
    pub const fn decode_by_fields(
        bits: u32,
        kind: Kind,
    ) -> (Option<IdescFields>, Diagnostics<IdescError, MAX_PROBLEMS>) {
        let raw = bits as u64;
        let mut d = Diagnostics::new();
        // Reserved bits, one error per set bit, lowest first.
        let mut reserved = bits & reserved_mask(kind);
        while reserved != 0 {
            let bit = reserved.trailing_zeros() as u8;
            d.push(IdescError::ReservedBit { bit, kind });
            reserved &= reserved - 1;
        }
        let a_code = get(raw, kind, IdescField::AType) as u8;
        let b_code = get(raw, kind, IdescField::BType) as u8;
        let a_type = ElementType::from_ab_code(kind, a_code);
        let b_type = ElementType::from_ab_code(kind, b_code);
        let d_type = if kind.is_block_scaled() {
            Some(ElementType::F32)
        } else {
            let c = get(raw, kind, IdescField::DType) as u8;
            let t = ElementType::from_d_code(kind, c);
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
        let scale_type = if kind.is_block_scaled() {
            ScaleType::from_code(get(raw, kind, IdescField::ScaleType) as u8)
        } else {
            None
        };
        // Every rule that does not read a type is checked even when a type code names no type
        // (an M = 0 or an N = 0 is reported next to a bad d_type); a placeholder stands in for
        // each unknown type and the rules that read it are skipped (`TypesKnown`).
        let known = TypesKnown {
            d: d_type.is_some(),
            a: a_type.is_some(),
            b: b_type.is_some(),
        };
        let f = IdescFields {
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
            scale_type,
            sfa_id: get(raw, kind, IdescField::SfaId) as u8,
            sfb_id: get(raw, kind, IdescField::SfbId) as u8,
            k96: get(raw, kind, IdescField::K) == 1,
        };
        check_fields(&f, known, &mut d);
        let fields = if known.d && known.a && known.b {
            Some(f)
        } else {
            None
        };
        (fields, d)
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

/// A decoded type, or a placeholder for a code that names no type (its rules are skipped).
const fn placeholder(t: Option<ElementType>) -> ElementType {
    match t {
        Some(t) => t,
        None => ElementType::F32,
    }
}

/// Which of the three types are known: a decoded type code may name no type under the kind.
#[derive(Clone, Copy)]
struct TypesKnown {
    d: bool,
    a: bool,
    b: bool,
}

impl TypesKnown {
    const ALL: TypesKnown = TypesKnown {
        d: true,
        a: true,
        b: true,
    };
}

/// Reads `field` from `raw` under `kind`, or 0 when the layout lacks it.
const fn get(raw: u64, kind: Kind, field: IdescField) -> u64 {
    match row(kind, field) {
        Some(r) => r.get(raw),
        None => 0,
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

/// The rules of R8-R13 and the Table 39 ranges that hold for every `.cta_group` and `.ws`.
///
/// Rules that read a type whose code is unknown (`known`) are skipped: its value is a placeholder.
const fn check_fields(
    f: &IdescFields,
    known: TypesKnown,
    d: &mut Diagnostics<IdescError, MAX_PROBLEMS>,
) {
    let kind = f.kind;
    // Types (R12).
    if !known.d {
        // Reported by the decoder as an undefined code.
    } else if kind.is_block_scaled() {
        if !matches!(f.d_type, ElementType::F32) {
            d.push(IdescError::TypeNotForKind {
                field: IdescField::DType,
                ty: f.d_type,
                kind,
            });
        }
    } else if f.d_type.d_code(kind).is_none() {
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
    // Fields some layouts lack (R11).
    let table42 = matches!(kind.idesc_layout(), IdescLayout::Table42);
    if !table42 {
        if f.sparsity_selector != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::SparsitySelector,
                value: f.sparsity_selector as u64,
                kind,
            });
        }
        if f.saturate {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::Saturate,
                value: 1,
                kind,
            });
        }
        if f.max_shift.code() != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::MaxShift,
                value: f.max_shift.rows() as u64,
                kind,
            });
        }
    } else {
        if f.scale_type.is_some() {
            d.push(IdescError::ScaleTypeNotForKind {
                scale: f.scale_type,
                kind,
            });
        }
        if f.sfa_id != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::SfaId,
                value: f.sfa_id as u64,
                kind,
            });
        }
        if f.sfb_id != 0 {
            d.push(IdescError::FieldNotInLayout {
                field: IdescField::SfbId,
                value: f.sfb_id as u64,
                kind,
            });
        }
    }
    if f.k96 && !matches!(kind.idesc_layout(), IdescLayout::Table44) {
        d.push(IdescError::FieldNotInLayout {
            field: IdescField::K,
            value: 96,
            kind,
        });
    }
    // Saturate, negate (R11).
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
    // Transpose (R11).
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
    // Sparsity selector (R11).
    if table42 {
        if f.sparsity_selector > 3 {
            d.push(IdescError::FieldTooWide {
                field: IdescField::SparsitySelector,
                value: f.sparsity_selector as u64,
            });
        } else if f.sparsity_selector != 0 {
            if !f.sparse {
                d.push(IdescError::SparsitySelectorWithoutSparsity {
                    value: f.sparsity_selector,
                });
            } else if matches!(kind, Kind::I8 | Kind::F8f6f4) {
                d.push(IdescError::SparsitySelectorNotZero {
                    value: f.sparsity_selector,
                    kind,
                });
            }
        }
    }
    // N (Tables 42-44 store N >> 3; Table 39 ranges).
    if f.n % 8 != 0 {
        d.push(IdescError::NNotMultipleOf8 { n: f.n });
    } else if f.n < 8 || f.n > 256 {
        d.push(IdescError::NOutOfRange { n: f.n });
    }
    // M.
    let unit = m_unit(kind);
    if f.m % unit != 0 || f.m / unit > 31 {
        d.push(IdescError::MNotEncodable { m: f.m, kind });
    } else {
        let ok = if kind.is_block_scaled() {
            matches!(f.m, 128 | 256)
        } else {
            matches!(f.m, 32 | 64 | 128 | 256)
        };
        if !ok {
            d.push(IdescError::MNotInTable39 { m: f.m, kind });
        }
    }
    // Scale type and scale-factor IDs (R12, R13).
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

const fn check_sf_id(
    f: &IdescFields,
    field: IdescField,
    id: u8,
    d: &mut Diagnostics<IdescError, MAX_PROBLEMS>,
) {
    if id > 3 {
        d.push(IdescError::FieldTooWide {
            field,
            value: id as u64,
        });
        return;
    }
    let ok = match f.kind {
        Kind::Mxf8f6f4 => true,
        _ => match f.scale_type {
            Some(ScaleType::Ue4m3) => id == 0,
            _ => id == 0 || id == 2,
        },
    };
    if !ok {
        d.push(IdescError::SfIdNotAllowed {
            field,
            value: id,
            kind: f.kind,
            scale: f.scale_type,
        });
    }
}

// ---------------------------------------------------------------------------------------------
// The decoder's fast path: field positions, type codes and the rules as data.
// ---------------------------------------------------------------------------------------------

/// Where each field sits in each layout, as (lowest bit, mask of its width; 0 when the layout
/// lacks it), read from [`TABLE_42`], [`TABLE_43`] and [`TABLE_44`] at compile time.
const FIELD_BITS: [[(u32, u32); FIELD_COUNT]; 3] = [
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
const fn field(bits: u32, layout: usize, field: IdescField) -> u32 {
    let (lo, mask) = FIELD_BITS[layout][field as usize];
    (bits >> lo) & mask
}

const fn layout_index(kind: Kind) -> usize {
    match kind.idesc_layout() {
        IdescLayout::Table42 => 0,
        IdescLayout::Table43 => 1,
        IdescLayout::Table44 => 2,
    }
}

/// The type each atype/btype code stands for under each kind ([`ElementType::from_ab_code`],
/// Tables 42-44 and decisions.md R8), indexed by `kind as usize` and the code.
const AB_TYPES: [[Option<ElementType>; 8]; 7] = {
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
const D_TYPES: [[Option<ElementType>; 4]; 7] = {
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
const fn m_shapes(kind: Kind) -> u32 {
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
const fn m_codes(kind: Kind) -> u32 {
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
/// themselves (decisions.md R10); the others are one check each, numbered in the order
/// [`InstructionDescriptor::decode`] reports them.
mod at {
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

/// The positions whose problems are warnings (decisions.md R12's mixed f16/bf16 pair).
const WARNINGS: u64 = 1 << at::MIXED_F16_BF16;

#[inline(always)]
const fn flag(broken: bool, position: u32) -> u64 {
    (broken as u64) << position
}

/// The type codes of one kind as masks over the code (bit `c` for code `c`), read from
/// [`AB_TYPES`] and [`D_TYPES`] at compile time.
#[derive(Clone, Copy)]
struct Codes {
    /// dtype codes that name a type (all four for the block-scaled kinds, which have no dtype).
    d: u32,
    /// dtype codes that name f16.
    d_f16: u32,
    /// atype/btype codes that name a type.
    ab: u32,
    /// atype/btype codes that name bf16.
    ab_bf16: u32,
    /// atype/btype codes that name a 4- or 6-bit type (decisions.md R11).
    ab_sub_byte: u32,
}

const CODES: [Codes; 7] = {
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
const fn has(mask: u32, i: u32) -> bool {
    (mask >> i) & 1 == 1
}

/// The set of problems of a raw value under `kind`: the rules of [`check_fields`] as they apply
/// to decoded fields, one bit each, plus the reserved bits. The decoder reads them from
/// [`PROBLEM_TABLES`], built from this function.
#[inline(always)]
const fn problems(bits: u32, kind: Kind) -> u64 {
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
        // Code 1 is UE8M0, code 0 UE4M3 (Tables 43-44); IDs per decisions.md R13.
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

/// [`InstructionDescriptor::decode`] under the kind `Kind::ALL[K]`.
#[inline(always)]
const fn decode_as<const K: usize>(bits: u32) -> IdescDecoded {
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

/// The problem at `position` of a raw value's set, with its field and value read from the
/// value.
#[inline]
const fn problem_at(bits: u32, kind: Kind, position: u32) -> IdescError {
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
        },
        at::SFB_ID => IdescError::SfIdNotAllowed {
            field: IdescField::SfbId,
            value: field(bits, l, IdescField::SfbId) as u8,
            kind,
            scale,
        },
        at::K96_SPARSE => IdescError::K96Sparse,
        bit => IdescError::ReservedBit {
            bit: (bit & 31) as u8,
            kind,
        },
    }
}

/// Every problem of a decoded instruction descriptor, kept as the set of checks it fails.
///
/// Reading the list ([`IdescDiagnostics::iter`], [`IdescDiagnostics::get`]) builds each
/// [`IdescError`] from the raw value, so decoding itself builds no list. It answers the same
/// questions as a [`Diagnostics`] list, in the same order; [`IdescDiagnostics::to_list`] gives
/// one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IdescDiagnostics {
    bits: u32,
    kind: Kind,
    set: u64,
}

impl IdescDiagnostics {
    /// Number of problems.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.set.count_ones() as usize
    }

    /// True when there is no problem.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.set == 0
    }

    /// Always false: the set holds every problem one value can have. (Kept so that this type
    /// answers the same questions as [`Diagnostics`].)
    #[must_use]
    pub const fn overflowed(&self) -> bool {
        false
    }

    /// The `i`-th problem, in the order reported.
    #[must_use]
    pub const fn get(&self, i: usize) -> Option<IdescError> {
        let mut set = self.set;
        let mut n = 0;
        while set != 0 {
            if n == i {
                return Some(problem_at(self.bits, self.kind, set.trailing_zeros()));
            }
            set &= set - 1;
            n += 1;
        }
        None
    }

    /// All problems, in the order reported.
    #[inline]
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn iter(&self) -> IdescProblems {
        IdescProblems {
            bits: self.bits,
            kind: self.kind,
            set: self.set,
        }
    }

    /// The problems of severity [`Severity::Error`].
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn errors(&self) -> IdescProblems {
        IdescProblems {
            bits: self.bits,
            kind: self.kind,
            set: self.set & !WARNINGS,
        }
    }

    /// The problems of severity [`Severity::Warning`].
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn warnings(&self) -> IdescProblems {
        IdescProblems {
            bits: self.bits,
            kind: self.kind,
            set: self.set & WARNINGS,
        }
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

    /// Number of errors.
    #[must_use]
    pub const fn error_count(&self) -> usize {
        (self.set & !WARNINGS).count_ones() as usize
    }

    /// True when at least one problem is an error.
    #[must_use]
    pub const fn has_errors(&self) -> bool {
        self.set & !WARNINGS != 0
    }

    /// The first error, if any.
    #[must_use]
    pub const fn first_error(&self) -> Option<IdescError> {
        let errors = self.set & !WARNINGS;
        if errors == 0 {
            None
        } else {
            Some(problem_at(self.bits, self.kind, errors.trailing_zeros()))
        }
    }

    /// The problems as a fixed-capacity list.
    #[must_use]
    pub const fn to_list(&self) -> Diagnostics<IdescError, MAX_PROBLEMS> {
        let mut out = Diagnostics::new();
        let mut set = self.set;
        while set != 0 {
            out.push(problem_at(self.bits, self.kind, set.trailing_zeros()));
            set &= set - 1;
        }
        out
    }
}

impl fmt::Debug for IdescDiagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl IntoIterator for &IdescDiagnostics {
    type Item = IdescError;
    type IntoIter = IdescProblems;

    fn into_iter(self) -> IdescProblems {
        self.iter()
    }
}

/// The problems of an [`IdescDiagnostics`], in the order reported.
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct IdescProblems {
    bits: u32,
    kind: Kind,
    set: u64,
}

impl Iterator for IdescProblems {
    type Item = IdescError;

    #[inline]
    fn next(&mut self) -> Option<IdescError> {
        if self.set == 0 {
            return None;
        }
        let position = self.set.trailing_zeros();
        self.set &= self.set - 1;
        Some(problem_at(self.bits, self.kind, position))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.set.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for IdescProblems {}

impl core::iter::FusedIterator for IdescProblems {}

/// The validity rules of one kind as masks, for [`InstructionDescriptor::is_valid`].
#[derive(Clone, Copy)]
struct Validity {
    /// Bits that must be 0 (decisions.md R10).
    reserved: u32,
    /// Allowed values of bits 24-28 (M, Table 39).
    m_codes: u32,
    /// Allowed combinations of bits 4-5, 7-12, 15-16 (dtype, atype, btype, transpose A and B;
    /// R8, R11, R12), as a 1024-bit set.
    types: [u32; 32],
    /// Allowed combinations of bits 0-3, 13-14 (selector, sparsity, saturate, negate A and B;
    /// R11), as a 64-bit set.
    modifiers: u64,
    /// Allowed combinations of bits 4-5, 23, 29-30 (scale-factor B ID, scale type, scale-factor
    /// A ID; R12, R13), as a 32-bit set.
    scales: u32,
    /// Bits that must not be all set (Table 44: K = 96 with sparsity); 0 when no such pair.
    k96_sparse: u32,
}

/// The masks of each kind, indexed by `kind as usize`.
const VALIDITY: [Validity; 7] = {
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

/// [`problems`] read from [`PROBLEM_TABLES`]: what [`InstructionDescriptor::decode`] uses.
#[inline(always)]
const fn problems_by_table(bits: u32, kind: Kind) -> u64 {
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
        | ((!has(m_shapes(kind), m) as u32) << (at::M_SHAPE - 32));
    (bits & reserved_mask(kind)) as u64 | ((high as u64) << 32)
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

/// The meaning, in words, of one layout row's bits in a raw value: what [`Display`] prints in
/// the last column, and what the command-line tool prints too.
///
/// ```
/// use tcgen05::instruction_descriptor::{row, IdescField, RowMeaning};
/// use tcgen05::Kind;
///
/// let n = row(Kind::F16, IdescField::N).expect("Table 42 has N");
/// assert_eq!(RowMeaning::new(0x0810_0490, Kind::F16, n).to_string(), "N = 64");
/// ```
///
/// [`Display`]: fmt::Display
#[derive(Clone, Copy, Debug)]
pub struct RowMeaning {
    bits: u32,
    kind: Kind,
    row: &'static BitField<IdescField>,
}

impl RowMeaning {
    /// The meaning of `row`'s bits in `bits`, read under `kind`.
    #[must_use]
    pub const fn new(bits: u32, kind: Kind, row: &'static BitField<IdescField>) -> Self {
        Self { bits, kind, row }
    }
}

impl fmt::Display for RowMeaning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind;
        let v = self.row.get(self.bits as u64);
        if matches!(self.row.role, Role::Reserved) {
            return f.write_str(if v == 0 {
                "reserved, 0"
            } else {
                "reserved: SET, must be 0"
            });
        }
        let yes_no = |b: u64| if b == 1 { "yes" } else { "no" };
        match self.row.field {
            IdescField::DType => match ElementType::from_d_code(kind, v as u8) {
                Some(t) => write!(f, ".{t}"),
                None => write!(f, "invalid code {v} for .kind::{kind}"),
            },
            IdescField::AType | IdescField::BType => {
                match ElementType::from_ab_code(kind, v as u8) {
                    Some(t) => write!(f, ".{t}"),
                    None => write!(f, "invalid code {v} for .kind::{kind}"),
                }
            }
            IdescField::Sparse => f.write_str(if v == 1 { "sparse" } else { "dense" }),
            IdescField::TransposeA => f.write_str(if v == 1 {
                "M-major (transposed)"
            } else {
                "K-major"
            }),
            IdescField::TransposeB => f.write_str(if v == 1 {
                "N-major (transposed)"
            } else {
                "K-major"
            }),
            IdescField::Saturate | IdescField::NegateA | IdescField::NegateB => {
                f.write_str(yes_no(v))
            }
            IdescField::N => write!(f, "N = {}", v << 3),
            IdescField::M => write!(f, "M = {}", v * m_unit(kind) as u64),
            IdescField::MaxShift => match MaxShift::from_code(v as u8) {
                Some(MaxShift::None) | None => f.write_str("no shift"),
                Some(s) => write!(f, "{} rows (.ws only)", s.rows()),
            },
            IdescField::ScaleType => match ScaleType::from_code(v as u8) {
                Some(s) => write!(f, ".{s}"),
                None => write!(f, "code {v}"),
            },
            IdescField::K => f.write_str(if v == 1 {
                "K = 96 (dense, sm_103a)"
            } else {
                "K = 64 dense / 128 sparse"
            }),
            _ => write!(f, "{v}"),
        }
    }
}

impl fmt::Display for InstructionDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let table = layout(self.kind);
        writeln!(
            f,
            "instruction descriptor 0x{:08x} (.kind::{}, PTX Table {})",
            self.bits,
            self.kind,
            table_number(self.kind)
        )?;
        for r in table.iter().rev() {
            let v = r.get(self.bits as u64);
            if r.width == 1 {
                write!(f, "  {:>5}", r.lo)?;
            } else {
                write!(f, "  {:>2}-{:<2}", r.lo, r.hi())?;
            }
            writeln!(
                f,
                "  {:<17} {:>8}  {}",
                r.field.name(),
                Binary(v, r.width),
                RowMeaning::new(self.bits, self.kind, r)
            )?;
        }
        let decoded = InstructionDescriptor::decode(self.bits, self.kind);
        for e in decoded.diagnostics.iter() {
            let sev = match e.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(f, "  {sev}: {}", OneLine(&e))?;
        }
        Ok(())
    }
}

/// A field's raw bits in binary, exactly as wide as the field.
pub(crate) struct Binary(pub u64, pub u8);

impl fmt::Display for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [b'0'; 64];
        let w = (self.1 as usize).clamp(1, 64);
        for (i, c) in buf[..w].iter_mut().enumerate() {
            if (self.0 >> (w - 1 - i)) & 1 == 1 {
                *c = b'1';
            }
        }
        f.pad(core::str::from_utf8(&buf[..w]).unwrap_or("?"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mma::ElementType::*;
    use std::{format, string::ToString, vec, vec::Vec};

    fn errors_of(f: IdescFields) -> Vec<IdescError> {
        f.validate().iter().collect()
    }

    fn fields_named(f: IdescFields) -> Vec<&'static str> {
        f.validate().iter().map(|e| e.field()).collect()
    }

    #[test]
    fn cutlass_values_from_oracles_md() {
        let cases: [(IdescFields, u32); 6] = [
            (
                IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, 64),
                0x0810_0490,
            ),
            (
                IdescFields::new(Kind::F16, F16, F16, F16, 64, 8),
                0x0402_0000,
            ),
            (
                IdescFields::new(Kind::I8, S32, S8, S8, 128, 256).with_saturate(true),
                0x0840_04a8,
            ),
            (
                IdescFields::new(Kind::F16, F32, Bf16, Bf16, 64, 128)
                    .with_max_shift(MaxShift::Rows32),
                0xc420_0490,
            ),
            (
                IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 128),
                0x08a0_0480,
            ),
            (
                IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 128, 256).with_scale(
                    ScaleType::Ue4m3,
                    0,
                    0,
                ),
                0x0840_0480,
            ),
        ];
        for (f, want) in cases {
            let d = InstructionDescriptor::try_new(f).expect("valid");
            assert_eq!(d.bits(), want, "{f:?}");
            let back = InstructionDescriptor::decode(want, f.kind);
            assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
            assert_eq!(back.fields, Some(f));
        }
    }

    #[test]
    fn const_construction_works() {
        const D: InstructionDescriptor = InstructionDescriptor::new(
            IdescFields::new(Kind::Tf32, F32, Tf32, Tf32, 128, 256).with_transpose(true, true),
        );
        assert_eq!(D.bits() >> 15 & 3, 3);
        assert_eq!(D.raw_field(IdescField::N), Some(32));
        assert_eq!(D.raw_field(IdescField::SfaId), None);
    }

    #[test]
    fn codes_differ_by_kind() {
        // E2M1 is 5 under f8f6f4 / mxf8f6f4, 1 under mxf4 (R8).
        let f8 = IdescFields::new(Kind::F8f6f4, F32, E2m1, E2m1, 128, 64).encode();
        assert_eq!(f8.map(|d| (d.bits() >> 7) & 7), Ok(5));
        let mx = IdescFields::new(Kind::Mxf8f6f4, F32, E2m1, E2m1, 128, 64).encode();
        assert_eq!(mx.map(|d| (d.bits() >> 7) & 7), Ok(5));
        let m4 = IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).encode();
        assert_eq!(m4.map(|d| (d.bits() >> 10) & 3), Ok(1));
        // M >> 7 at 27 for block-scaled; M >> 4 at 24 otherwise (R9).
        let m256 = IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 256, 64).encode();
        assert_eq!(m256.map(|d| d.bits() >> 27 & 3), Ok(2));
    }

    #[test]
    fn every_reserved_bit_is_reported_by_number() {
        let base = [
            (Kind::F16, 0x0810_0490u32),
            (
                Kind::Mxf8f6f4,
                IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64)
                    .encode()
                    .map(|d| d.bits())
                    .unwrap_or(0),
            ),
            (Kind::Mxf4, 0x08a0_0480),
        ];
        for (kind, good) in base {
            assert!(InstructionDescriptor::from_bits(good, kind).is_ok());
            for r in layout(kind).iter().filter(|r| r.role == Role::Reserved) {
                for bit in r.lo..=r.hi() {
                    let bad = good | (1 << bit);
                    let dec = InstructionDescriptor::decode(bad, kind);
                    let e: Vec<_> = dec.diagnostics.iter().collect();
                    assert!(
                        e.contains(&IdescError::ReservedBit { bit, kind }),
                        "{kind} bit {bit}: {e:?}"
                    );
                    assert_eq!(
                        e.iter()
                            .find(|x| matches!(x, IdescError::ReservedBit { .. }))
                            .map(|x| x.field()),
                        Some(format!("bit {bit}").as_str())
                    );
                }
            }
        }
    }

    #[test]
    fn each_rule_names_its_field() {
        let f16 = IdescFields::new(Kind::F16, F32, F16, F16, 128, 64);
        let cases: Vec<(IdescFields, &str)> = vec![
            (IdescFields { d_type: S32, ..f16 }, "d_type"),
            (
                IdescFields {
                    a_type: E4m3,
                    ..f16
                },
                "a_type",
            ),
            (
                IdescFields {
                    b_type: Tf32,
                    ..f16
                },
                "b_type",
            ),
            (
                IdescFields {
                    d_type: F16,
                    a_type: Bf16,
                    b_type: Bf16,
                    ..f16
                },
                "a_type",
            ),
            (f16.with_saturate(true), "saturate"),
            (
                IdescFields::new(Kind::I8, S32, S8, U8, 128, 64).with_negate(true, false),
                "negate_a",
            ),
            (
                IdescFields::new(Kind::I8, S32, S8, U8, 128, 64).with_negate(false, true),
                "negate_b",
            ),
            (
                IdescFields::new(Kind::F8f6f4, F32, E2m1, E4m3, 128, 64)
                    .with_transpose(true, false),
                "transpose_a",
            ),
            (
                IdescFields::new(Kind::F8f6f4, F32, E4m3, E3m2, 128, 64)
                    .with_transpose(false, true),
                "transpose_b",
            ),
            (
                IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).with_transpose(false, true),
                "transpose_b",
            ),
            (f16.with_sparse(false, 2), "sparsity_selector"),
            (
                IdescFields::new(Kind::I8, S32, S8, S8, 128, 64).with_sparse(true, 1),
                "sparsity_selector",
            ),
            (f16.with_sparse(true, 4), "sparsity_selector"),
            (IdescFields { n: 60, ..f16 }, "n"),
            (IdescFields { n: 0, ..f16 }, "n"),
            (IdescFields { n: 264, ..f16 }, "n"),
            (IdescFields { m: 48, ..f16 }, "m"),
            (IdescFields { m: 100, ..f16 }, "m"),
            (IdescFields { m: 512, ..f16 }, "m"),
            (IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 64, 64), "m"),
            (
                IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64).with_scale(
                    ScaleType::Ue4m3,
                    0,
                    0,
                ),
                "scale_type",
            ),
            (
                IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).with_scale(
                    ScaleType::Ue4m3,
                    0,
                    0,
                ),
                "scale_type",
            ),
            (
                IdescFields {
                    scale_type: None,
                    ..IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64)
                },
                "scale_type",
            ),
            (
                IdescFields {
                    scale_type: Some(ScaleType::Ue8m0),
                    ..f16
                },
                "scale_type",
            ),
            (
                IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).with_scale(
                    ScaleType::Ue8m0,
                    1,
                    0,
                ),
                "sfa_id",
            ),
            (
                IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 128, 64).with_scale(
                    ScaleType::Ue4m3,
                    0,
                    2,
                ),
                "sfb_id",
            ),
            (
                IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64).with_scale(
                    ScaleType::Ue8m0,
                    4,
                    0,
                ),
                "sfa_id",
            ),
            (IdescFields { sfb_id: 1, ..f16 }, "sfb_id"),
            (
                IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64)
                    .with_max_shift(MaxShift::Rows8),
                "max_shift",
            ),
            (
                IdescFields {
                    d_type: F16,
                    ..IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64)
                },
                "d_type",
            ),
            (
                IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 256, 64)
                    .with_sparse(true, 0)
                    .with_k96(true),
                "k",
            ),
            (f16.with_k96(true), "k"),
        ];
        for (f, field) in cases {
            let names = fields_named(f);
            assert!(
                names.contains(&field),
                "{f:?}: expected an error naming {field}, got {:?}",
                errors_of(f)
            );
            assert!(InstructionDescriptor::try_new(f).is_err(), "{f:?}");
        }
    }

    #[test]
    fn mixed_f16_bf16_is_only_a_warning() {
        let f = IdescFields::new(Kind::F16, F32, F16, Bf16, 128, 64);
        let d = f.validate();
        assert_eq!(d.len(), 1);
        assert_eq!(d.get(0).map(|e| e.severity()), Some(Severity::Warning));
        assert!(InstructionDescriptor::try_new(f).is_ok());
    }

    #[test]
    fn every_problem_is_reported_not_only_the_first() {
        // i8 with negation, a tf32 B, N = 0 and bits 6 and 29 set.
        let raw =
            (1u32 << 6) | (1 << 29) | (1 << 13) | (1 << 14) | (2 << 4) | (5 << 10) | (8 << 24);
        let d = InstructionDescriptor::decode(raw, Kind::I8);
        let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
        assert_eq!(d.fields, None, "b_type code 5 is not defined for i8");
        assert!(
            names.contains(&"bit 6") && names.contains(&"bit 29"),
            "{names:?}"
        );
        assert!(names.contains(&"b_type"), "{names:?}");
        let raw = (1u32 << 13) | (1 << 14) | (2 << 4) | (1 << 7) | (1 << 10) | (8 << 24);
        let d = InstructionDescriptor::decode(raw, Kind::I8);
        let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
        assert_eq!(names, ["negate_a", "negate_b", "n"]);
    }

    #[test]
    fn an_undefined_type_code_does_not_hide_the_other_problems() {
        // d_type code 3 (undefined for f16), M = 0, N = 0: all three reported (issue 16 D3).
        let d = InstructionDescriptor::decode(3 << 4, Kind::F16);
        let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
        assert_eq!(d.fields, None);
        assert_eq!(names, ["d_type", "n", "m"]);
        // An undefined A code under mxf4 with transpose_a: the kind forbids transposition
        // whatever the type, so it is reported; sub-byte rules of an unknown type are not.
        let raw = (7u32 << 7) | (1 << 15);
        let d = InstructionDescriptor::decode(raw, Kind::Mxf4);
        let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
        assert!(
            names.contains(&"a_type") && names.contains(&"transpose_a"),
            "{names:?}"
        );
        // An undefined B code under f8f6f4 with transpose_b: whether B is sub-byte is unknown,
        // so no transpose error; M = 64 and N = 128 are fine, so nothing else.
        let raw = (1u32 << 4) | (7 << 10) | (1 << 16) | (16 << 17) | (4 << 24);
        let d = InstructionDescriptor::decode(raw, Kind::F8f6f4);
        let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
        assert_eq!(names, ["b_type"]);
    }

    #[test]
    fn valid_kinds_of_a_raw_value() {
        let set = InstructionDescriptor::valid_kinds(0x0810_0490);
        assert!(set.contains(Kind::F16));
        assert!(!set.contains(Kind::I8), "i8 has no dtype code 1");
        assert!(!set.contains(Kind::Mxf4));
        let set = InstructionDescriptor::valid_kinds(0x08a0_0480);
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Kind::Mxf8f6f4, Kind::Mxf4, Kind::Mxf4nvf4],
            "E5M2 under mxf8f6f4, E2M1 under mxf4*"
        );
        assert!(InstructionDescriptor::valid_kinds(0xffff_ffff).is_empty());
    }

    #[test]
    fn display_lists_every_row_and_problem() {
        let text = InstructionDescriptor::from_bits_unchecked(0x0810_0490 | (1 << 23), Kind::F16)
            .to_string();
        assert!(text.contains("0x08900490"), "{text}");
        assert!(text.contains("N = 64") && text.contains("M = 128") && text.contains(".bf16"));
        assert!(text.contains("error: bit 23:"), "{text}");
        assert!(text.contains("decisions.md R10"), "{text}");
        assert_eq!(text.lines().count(), 1 + TABLE_42.len() + 1);
    }

    /// A small deterministic generator, so that failures reproduce.
    fn xorshift(state: &mut u64) -> u32 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state as u32
    }

    /// Values that reach every branch of the rules: valid encodings of every kind with zero,
    /// one or two bits flipped, and random words.
    fn probe_values() -> Vec<u32> {
        let mut s = 0x9E37_79B9_7F4A_7C15;
        let mut valid = Vec::new();
        // Valid values of every kind, found among the words with the reserved bits clear and
        // N = 64, M = 128.
        for kind in Kind::ALL {
            let mut found = 0;
            for _ in 0..200_000 {
                let r = xorshift(&mut s) & !reserved_mask(kind);
                let r = (r & !(0x3f << 17) & !(0x1f << 24)) | (8 << 17);
                // M = 128: code 8 at bit 24 (Table 42) and code 1 at bit 27 (Tables 43-44)
                // are the same bits.
                let r = r | (8 << 24);
                if InstructionDescriptor::decode(r, kind).is_valid() {
                    valid.push(r);
                    found += 1;
                }
            }
            assert!(found > 50, "{kind}: only {found} valid probes");
        }
        let mut out = valid.clone();
        for &v in &valid {
            let b1 = xorshift(&mut s) % 32;
            let b2 = xorshift(&mut s) % 32;
            out.push(v ^ (1 << b1));
            out.push(v ^ (1 << b1) ^ (1 << b2));
        }
        out.extend((0..20_000).map(|_| xorshift(&mut s)));
        out.extend([0, u32::MAX, 0x0810_0490, 0x08a0_0480]);
        out
    }

    #[test]
    fn the_rule_set_decode_equals_the_field_by_field_decode() {
        let (mut valid, mut invalid) = (0, 0);
        for raw in probe_values() {
            for kind in Kind::ALL {
                let fast = InstructionDescriptor::decode(raw, kind);
                let (fields, list) = InstructionDescriptor::decode_by_fields(raw, kind);
                let got: Vec<_> = fast.diagnostics.iter().collect();
                let want: Vec<_> = list.iter().collect();
                assert_eq!(got, want, "{raw:#010x} under {kind}");
                assert_eq!(fast.fields, fields, "{raw:#010x} under {kind}");
                assert_eq!(fast.diagnostics.to_list(), list);
                assert_eq!(fast.diagnostics.len(), list.len());
                for (i, e) in want.iter().enumerate() {
                    assert_eq!(fast.diagnostics.get(i), Some(*e));
                }
                assert_eq!(fast.diagnostics.get(want.len()), None);
                for rule in IdescRule::ALL {
                    assert_eq!(
                        fast.diagnostics.breaks(rule),
                        want.iter().any(|e| e.rule() == rule),
                        "{raw:#010x} under {kind}: {rule:?}"
                    );
                }
                assert_eq!(fast.diagnostics.first_error(), list.first_error());
                assert_eq!(
                    fast.diagnostics.warnings().collect::<Vec<_>>(),
                    list.warnings().collect::<Vec<_>>()
                );
                if fast.is_valid() {
                    valid += 1;
                } else {
                    invalid += 1;
                }
            }
        }
        // Both verdicts occur in a real share of the cases.
        assert!(
            valid > 2_000 && invalid > 20_000,
            "{valid} valid, {invalid} invalid"
        );
    }

    #[test]
    fn the_problem_tables_equal_the_rules() {
        for raw in probe_values() {
            for kind in Kind::ALL {
                assert_eq!(
                    problems_by_table(raw, kind),
                    problems(raw, kind),
                    "{raw:#010x} under {kind}"
                );
            }
        }
    }

    #[test]
    fn is_valid_is_the_verdict_of_decode() {
        let (mut valid, mut invalid) = (0, 0);
        for raw in probe_values() {
            for kind in Kind::ALL {
                let verdict = InstructionDescriptor::decode(raw, kind).is_valid();
                assert_eq!(
                    InstructionDescriptor::is_valid(raw, kind),
                    verdict,
                    "{raw:#010x} under {kind}"
                );
                assert_eq!(
                    InstructionDescriptor::valid_kinds(raw).contains(kind),
                    verdict
                );
                assert_eq!(InstructionDescriptor::from_bits(raw, kind).is_ok(), verdict);
                if verdict {
                    valid += 1;
                } else {
                    invalid += 1;
                }
            }
        }
        assert!(
            valid > 2_000 && invalid > 20_000,
            "{valid} valid, {invalid} invalid"
        );
    }

    #[test]
    fn each_rule_has_one_row_with_a_unique_identifier() {
        for (i, rule) in IdescRule::ALL.iter().enumerate() {
            assert_eq!(*rule as usize, i);
            assert!(rule.id().starts_with("idesc."), "{}", rule.id());
            assert!(!rule.row().statement.is_empty());
        }
        let mut ids: Vec<_> = IDESC_RULES.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), IDESC_RULES.len());
        // Only the mixed f16/bf16 pair is a warning (decisions.md R12).
        let warnings: Vec<_> = IdescRule::ALL
            .iter()
            .filter(|r| r.row().severity == Severity::Warning)
            .collect();
        assert_eq!(warnings, [&IdescRule::MixedF16Bf16]);
    }

    #[test]
    fn errors_read_source_and_severity_from_their_rule() {
        let e = IdescError::InvalidTypeCode {
            field: IdescField::AType,
            code: 7,
            kind: Kind::Mxf4,
        };
        assert_eq!(e.source(), Source::PtxTable(44), "the kind's layout table");
        assert_eq!(e.rule_id(), Some("idesc.type_code_undefined"));
        let e = IdescError::MNotEncodable {
            m: 100,
            kind: Kind::F16,
        };
        assert_eq!(e.source(), Source::PtxTable(42));
        assert_eq!(IdescError::MixedF16Bf16.severity(), Severity::Warning);
        assert_eq!(IdescError::K96Sparse.source(), Source::PtxTable(44));
        assert_eq!(
            IdescError::ReservedBit {
                bit: 6,
                kind: Kind::Mxf4
            }
            .source(),
            Source::Decision(10)
        );
        let boxed: &dyn core::error::Error = &IdescError::K96Sparse;
        assert!(boxed.to_string().contains("K = 96"));
    }

    #[test]
    fn k_is_implied_by_kind_and_sparsity() {
        assert_eq!(
            IdescFields::new(Kind::Tf32, F32, Tf32, Tf32, 128, 64).k(),
            8
        );
        assert_eq!(
            IdescFields::new(Kind::F16, F32, F16, F16, 128, 64)
                .with_sparse(true, 0)
                .k(),
            32
        );
        assert_eq!(
            IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 256, 64)
                .with_k96(true)
                .k(),
            96
        );
    }
}
