//! [`IdescError`], [`IdescRule`] and [`IDESC_RULES`]: the rules of Tables 42-44 (rules.md
//! R8-R13, Table 39's M and N) and their wording.

use super::{m_unit, table_number, IdescField};
use crate::diagnostic::{Diagnostic, Rule, RuleSource, Severity, Source};
use crate::mma::{ElementType, Kind, ScaleType};
use core::fmt;

/// Capacity of the problem lists of this module: more than one value can break at once.
pub const MAX_PROBLEMS: usize = 32;

/// What makes an instruction descriptor, or the fields meant for one, invalid.
///
/// Each variant breaks one rule of [`IDESC_RULES`] ([`IdescError::rule`]), which gives its
/// identifier, source and severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IdescError {
    /// A reserved bit is set (rules.md R10).
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
    /// A type that the kind does not take for this operand (Tables 39, 42-44; rules.md R12).
    TypeNotForKind {
        /// `DType`, `AType` or `BType`.
        field: IdescField,
        /// The type given.
        ty: ElementType,
        /// The kind.
        kind: Kind,
    },
    /// An f16 accumulator with a bf16 input (rules.md R12: D = f16 only with f16 inputs).
    F16AccumulatorNeedsF16Inputs {
        /// The offending input's field.
        field: IdescField,
    },
    /// f16 mixed with bf16 (a warning: Table 39 does not list the pair; rules.md R12).
    MixedF16Bf16,
    /// A field that the kind's layout does not have was given a non-default value
    /// (rules.md R11).
    FieldNotInLayout {
        /// The field.
        field: IdescField,
        /// Its value.
        value: u64,
        /// The kind.
        kind: Kind,
    },
    /// Saturate is only for `.kind::i8` (Table 42; rules.md R11).
    SaturateNotI8 {
        /// The kind.
        kind: Kind,
    },
    /// Negation is not allowed with `.kind::i8` (Table 42; rules.md R11).
    NegateI8 {
        /// `NegateA` or `NegateB`.
        field: IdescField,
    },
    /// Transposition (MN-major) is not allowed for this kind or element type (rules.md R11;
    /// PTX ISA 9.7.16.10.1).
    TransposeNotAllowed {
        /// `TransposeA` or `TransposeB`.
        field: IdescField,
        /// The kind.
        kind: Kind,
        /// The operand's type.
        ty: ElementType,
    },
    /// A non-zero sparsity selector with a dense MMA (Table 42; rules.md R11).
    SparsitySelectorWithoutSparsity {
        /// The selector.
        value: u8,
    },
    /// A non-zero sparsity selector with `.kind::i8` or `.kind::f8f6f4` (rules.md R11).
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
    /// (Tables 43-44; rules.md R12).
    ScaleTypeNotForKind {
        /// The scale type (`None` when missing).
        scale: Option<ScaleType>,
        /// The kind.
        kind: Kind,
    },
    /// A scale-factor ID the kind does not allow (rules.md R13: 0-3 for mxf8f6f4, 0 or 2 for
    /// mxf4/mxf4nvf4, only 0 with UE4M3 scales, which imply the 4X / block16 vector; with the
    /// K = 96 bit, rules.md D10: 0-3, and 0 or 2 with UE4M3 scales, the 6X vector).
    SfIdNotAllowed {
        /// `SfaId` or `SfbId`.
        field: IdescField,
        /// The ID.
        value: u8,
        /// The kind.
        kind: Kind,
        /// The scale type.
        scale: Option<ScaleType>,
        /// The K bit of Table 44 (dense K = 96).
        k96: bool,
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
        message: None,
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
/// ranges that hold for every `.cta_group` and `.ws`, rules.md R8-R13), one row each,
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
        "Scale-factor IDs are 0-3 for mxf8f6f4, 0 or 2 for mxf4 and mxf4nvf4, and 0 with UE4M3 scales; with K = 96 (bit 31) 0-3, and 0 or 2 with UE4M3 scales.",
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
            // No rule of this descriptor cites text.
            RuleSource::LayoutTable | RuleSource::Text(_) => {
                Source::PtxTable(table_number(self.layout_kind()))
            }
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

/// The bit that PTX ISA 9.4 adds to the scale format of `.kind::mxf4nvf4` (bits 23-24, code 2
/// UE5M3, `sm_107f` family), reserved in Table 44 of the targets before.
const UE5M3_BIT: u8 = 24;

/// The bit that NVIDIA's newer block-scaled layout for 4-bit kinds makes the upper bit of a
/// two-bit K field (CuTe DSL `Tcgen05MxOmmaInstrDesc`, `k_dim_upper` at bit 3; rules.md D9),
/// reserved in Table 44.
const K_UPPER_BIT: u8 = 3;

impl fmt::Display for IdescError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IdescError::ReservedBit { bit, kind } => {
                write!(
                    f,
                    "bit {bit} is reserved in the .kind::{kind} layout (Table {}) and must be 0",
                    table_number(kind)
                )?;
                if bit == UE5M3_BIT && matches!(kind, Kind::Mxf4nvf4) {
                    // PTX ISA 9.4 widens the scale format to bits 23-24 on the sm_107 family.
                    f.write_str(
                        " (from PTX ISA 9.4, on sm_107a and sm_107f, bits 23-24 are the scale \
                         format: 2 is UE5M3)",
                    )?;
                }
                if bit == K_UPPER_BIT && matches!(kind, Kind::Mxf4 | Kind::Mxf4nvf4) {
                    // The newer layout's K field (rules.md D9): the 8X block16 forms.
                    f.write_str(
                        " (newer layouts make bit 3 the upper bit of a two-bit K field: the \
                         block16 K = 128/256 forms \"semantically equivalent to scale_vec::8X\" \
                         of PTX ISA 9.4 §9.7.18.10.7.2.6 and §9.7.18.10.7.3.6, whose \
                         scale-factor placement the text gives only as pictures; not modelled)",
                    )?;
                }
                Ok(())
            }
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
                k96,
            } => {
                if k96 {
                    // Only UE4M3 scales (the 6X vector) limit the K = 96 IDs (rules.md D10).
                    write!(
                        f,
                        "{} = {value} but K = 96 UE4M3 scales (6X / block16 vectors) need ID 0 \
                         or 2 (rules.md T3, D10)",
                        field.name()
                    )
                } else if matches!(scale, Some(ScaleType::Ue4m3)) {
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
                        "{} = {value} but .kind::{kind} allows only 0 or 2 (0-3 with K = 96, \
                         bit 31)",
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
