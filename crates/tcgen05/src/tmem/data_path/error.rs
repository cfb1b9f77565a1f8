//! [`DataPathField`], [`DataPathError`], [`DataPathRule`] and the rules table of the data-path
//! layouts (PTX ISA 9.7.16.10.5, Table 39) and of the scale-factor placement (9.7.16.10.7).

use super::layouts::DataPathLayout;
use crate::diagnostic::{Diagnostic, Rule, Severity, Source};
use crate::mma::CtaGroup;
use crate::mma::ScaleVec;
use core::fmt;

/// What a [`DataPathError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DataPathField {
    /// The MMA's M (with `.cta_group`, `.ws` and sparsity: the configuration).
    M,
    /// The MMA's N.
    N,
    /// A row index of D, A or a scale-factor matrix.
    Row,
    /// A column index of D, or a K index of A.
    Column,
    /// The lane of the operand's Tensor Memory address.
    Lane,
    /// Bits per element.
    ElementBits,
    /// The scale-factor ID (SFA_ID / SFB_ID).
    SfId,
    /// The scale vector size.
    ScaleVec,
    /// The K block of a scale factor.
    KBlock,
    /// K of A stored in Tensor Memory (elements per row).
    K,
}

impl DataPathField {
    /// The field's JSON key, for example `"sf_id"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            DataPathField::M => "m",
            DataPathField::N => "n",
            DataPathField::Row => "row",
            DataPathField::Column => "column",
            DataPathField::Lane => "lane",
            DataPathField::ElementBits => "element_bits",
            DataPathField::SfId => "sf_id",
            DataPathField::ScaleVec => "scale_vec",
            DataPathField::KBlock => "k_block",
            DataPathField::K => "k",
        }
    }
}

impl fmt::Display for DataPathField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule of the data-path layouts or the scale-factor placement that a value breaks; its
/// field, source and severity are those of its rule's row ([`DataPathError::rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum DataPathError {
    /// No row of the table of PTX ISA 9.7.16.10.5 has this M, `.cta_group`, sparsity and `.ws`
    /// (nor does Table 39).
    NoLayout {
        /// M.
        m: u32,
        /// `.cta_group`.
        cta_group: CtaGroup,
        /// `.ws`.
        ws: bool,
        /// Sparse A.
        sparse: bool,
    },
    /// N is not an N of Table 39 for this configuration: a multiple of 8 (16 with
    /// `.cta_group::2`) from 8 to 256, or 64, 128, 256 with `.ws` (64, 128 with `.ws` and sparse
    /// A; rules.md R14, R16).
    InvalidN {
        /// The layout, when the configuration has one.
        layout: Option<DataPathLayout>,
        /// N.
        n: u32,
    },
    /// A row index past the matrix.
    RowOutOfRange {
        /// The row.
        row: u32,
        /// The rows there are.
        rows: u32,
    },
    /// A column (or K) index past the matrix.
    ColumnOutOfRange {
        /// The column.
        column: u32,
        /// The columns there are.
        columns: u32,
    },
    /// The operand's lane is not the layout's lane alignment: 0, or 0 or 16 for the
    /// half-datapath layouts C and F (PTX ISA 9.7.16.10.5, 9.7.16.10.8.5).
    LaneAlignment {
        /// The layout.
        layout: DataPathLayout,
        /// The lane of the address.
        lane: u32,
    },
    /// Elements of D are 16 or 32 bits (9.7.16.10.4.1); A in Tensor Memory uses 32-, 16-, 8- or
    /// 4-bit containers (9.7.16.10.4.3, .5).
    ElementBits {
        /// The bits given.
        bits: u32,
    },
    /// The scale-factor ID is not one the scale vector allows: 0-3 for 1X, 0 or 2 for 2X, 0 for
    /// 4X (PTX ISA 9.7.16.10.7.2-3; rules.md R13).
    SfId {
        /// The scale vector.
        vec: ScaleVec,
        /// The ID.
        id: u32,
    },
    /// The scale vector is a qualifier whose size depends on the kind (`Default`, `.block32`):
    /// the placement needs 1X, 2X, 4X or `.block16` ([`ScaleVec::resolve`]; Tables 56-57).
    ScaleVecOfKind {
        /// The scale vector.
        vec: ScaleVec,
    },
    /// The K block is past the scale factors of one row (Table 56).
    KBlockOutOfRange {
        /// The K block.
        k_block: u32,
        /// The scale factors per row.
        count: u32,
    },
    /// A's K (stored elements per row) needs more than the 512 columns of Tensor Memory
    /// (PTX ISA 9.7.16.1.1; rules.md R24).
    KTooLarge {
        /// K as asked.
        k: u32,
        /// Bits per container.
        container_bits: u32,
    },
    /// 4-bit A (mxf4 / mxf4nvf4) exists only for M = 128 (`.cta_group::1` dense or sparse,
    /// `.cta_group::2` dense) and M = 256 (`.cta_group::2`), never with `.ws` (Table 39;
    /// rules.md R16).
    NoFourBitShape {
        /// M.
        m: u32,
        /// `.cta_group`.
        cta_group: CtaGroup,
        /// `.ws`.
        ws: bool,
        /// Sparse A.
        sparse: bool,
    },
    /// Block-scaled MMAs use only layouts A, B and D (M = 128 or 256, Table 39).
    NoBlockScaling {
        /// The layout.
        layout: DataPathLayout,
    },
    /// The K = 96 scale factors (3X, 6X) of scale_B in layout B (M = 128, `.cta_group::2`):
    /// PTX ISA 9.7.16.10.7.3.4-5 draw scale_B only for the four-partition data path, so the
    /// placement is undefined here and refused (rules.md T3).
    K96Layout {
        /// The layout.
        layout: DataPathLayout,
    },
}

impl DataPathError {
    /// The rule this error breaks.
    #[must_use]
    pub const fn rule(&self) -> DataPathRule {
        match self {
            DataPathError::NoLayout { .. } => DataPathRule::NoLayout,
            DataPathError::InvalidN { .. } => DataPathRule::InvalidN,
            DataPathError::RowOutOfRange { .. } => DataPathRule::RowOutOfRange,
            DataPathError::ColumnOutOfRange { .. } => DataPathRule::ColumnOutOfRange,
            DataPathError::LaneAlignment { .. } => DataPathRule::LaneAlignment,
            DataPathError::ElementBits { .. } => DataPathRule::ElementBits,
            DataPathError::SfId { .. } => DataPathRule::SfId,
            DataPathError::ScaleVecOfKind { .. } => DataPathRule::ScaleVecOfKind,
            DataPathError::KBlockOutOfRange { .. } => DataPathRule::KBlockOutOfRange,
            DataPathError::KTooLarge { .. } => DataPathRule::KTooLarge,
            DataPathError::NoFourBitShape { .. } => DataPathRule::NoFourBitShape,
            DataPathError::NoBlockScaling { .. } => DataPathRule::NoBlockScaling,
            DataPathError::K96Layout { .. } => DataPathRule::K96Layout,
        }
    }

    /// The field the error is about.
    #[must_use]
    pub const fn data_path_field(&self) -> DataPathField {
        DATA_PATH_FIELDS[self.rule() as usize]
    }
}

/// The rules of the data-path layouts and the scale-factor placement, one per
/// [`DataPathError`] variant, each with one row ([`DataPathRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum DataPathRule {
    /// [`DataPathError::NoLayout`].
    NoLayout,
    /// [`DataPathError::InvalidN`].
    InvalidN,
    /// [`DataPathError::RowOutOfRange`].
    RowOutOfRange,
    /// [`DataPathError::ColumnOutOfRange`].
    ColumnOutOfRange,
    /// [`DataPathError::LaneAlignment`].
    LaneAlignment,
    /// [`DataPathError::ElementBits`].
    ElementBits,
    /// [`DataPathError::SfId`].
    SfId,
    /// [`DataPathError::ScaleVecOfKind`].
    ScaleVecOfKind,
    /// [`DataPathError::KBlockOutOfRange`].
    KBlockOutOfRange,
    /// [`DataPathError::KTooLarge`].
    KTooLarge,
    /// [`DataPathError::NoFourBitShape`].
    NoFourBitShape,
    /// [`DataPathError::NoBlockScaling`].
    NoBlockScaling,
    /// [`DataPathError::K96Layout`].
    K96Layout,
}

impl DataPathRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &DATA_PATH_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"data_path.no_layout"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// A row of [`DATA_PATH_RULES`].
const fn rule(id: &'static str, source: Source, statement: &'static str) -> Rule {
    Rule::fixed(id, source, Severity::Error, statement)
}

/// Every rule of the data-path layouts and the scale-factor placement, indexed by
/// [`DataPathRule`].
pub(crate) const DATA_PATH_RULES: [Rule; 13] = {
    const LAYOUTS: Source = Source::PtxSection("9.7.16.10.5");
    [
        rule("data_path.no_layout", LAYOUTS,
            "A data-path layout exists for the M, .cta_group, sparsity and .ws."),
        rule("data_path.invalid_n", Source::PtxTable(39),
            "N is an N of Table 39 for the configuration."),
        rule("data_path.row_out_of_range", Source::PtxSection("9.7.16.2.1"),
            "A row index lies within the matrix."),
        rule("data_path.column_out_of_range", Source::PtxSection("9.7.16.2.1"),
            "A column index lies within the matrix."),
        rule("data_path.lane_alignment", LAYOUTS,
            "The operand's lane is 0, or 0 or 16 for the half-datapath layouts C and F."),
        rule("data_path.element_bits", Source::PtxSection("9.7.16.10.4"),
            "D holds 16- or 32-bit elements and A in Tensor Memory 32-, 16-, 8- or 4-bit containers."),
        rule("data_path.sf_id", Source::Decision(13),
            "A scale-factor ID is one the scale vector allows."),
        rule("data_path.scale_vec_of_kind", Source::PtxTable(56),
            "The placement needs a scale vector of fixed size: 1X, 2X, 4X or .block16."),
        rule("data_path.k_block_out_of_range", Source::PtxSection("9.7.16.10.7.1"),
            "A K block lies within the scale factors of a row."),
        rule("data_path.k_too_large", Source::PtxSection("9.7.16.1.1"),
            "A's K fits the 512 columns of Tensor Memory."),
        rule("data_path.no_four_bit_shape", Source::PtxTable(39),
            "4-bit A has M = 128 or 256 and no .ws."),
        rule("data_path.no_block_scaling", Source::PtxTable(39),
            "Block-scaled MMAs use only layouts A, B and D."),
        rule("data_path.k96_layout", Source::PtxSection("9.7.16.10.7.3.4"),
            "K = 96 scale factors (3X, 6X) of scale_B are placed only in the four-partition layouts A and D."),
    ]
};

/// The field each rule of [`DATA_PATH_RULES`] concerns, indexed by [`DataPathRule`].
const DATA_PATH_FIELDS: [DataPathField; 13] = {
    use DataPathField as F;
    [
        F::M,
        F::N,
        F::Row,
        F::Column,
        F::Lane,
        F::ElementBits,
        F::SfId,
        F::ScaleVec,
        F::KBlock,
        F::K,
        F::ElementBits,
        F::M,
        F::M,
    ]
};

impl fmt::Display for DataPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DataPathError::NoLayout {
                m,
                cta_group,
                ws,
                sparse,
            } => write!(
                f,
                "no data-path layout for M = {m} with .cta_group::{}{}{}: the layouts are M = 32 \
                 .ws, 64, 128 (::1), 128 and 256 (::2)",
                cta_group.count(),
                if ws { " .ws" } else { "" },
                if sparse { " sparse" } else { "" }
            ),
            DataPathError::InvalidN { layout, n } => match layout {
                Some(l) => write!(f, "N = {n} is not an N of Table 39 for layout {l}"),
                None => write!(
                    f,
                    "N = {n} is not an N of Table 39 (multiples of 8 from 8 to 256)"
                ),
            },
            DataPathError::RowOutOfRange { row, rows } => {
                write!(f, "row {row} is outside the {rows} rows")
            }
            DataPathError::ColumnOutOfRange { column, columns } => {
                write!(f, "column {column} is outside the {columns} columns")
            }
            DataPathError::LaneAlignment { layout, lane } => write!(
                f,
                "lane {lane} of the address is not the lane alignment of layout {layout} ({})",
                if layout.half_datapath() {
                    "0 or 16"
                } else {
                    "0"
                }
            ),
            DataPathError::ElementBits { bits } => write!(
                f,
                "{bits}-bit elements do not exist here: D is 16 or 32 bits, A in Tensor Memory \
                 32, 16, 8 or 4"
            ),
            DataPathError::SfId { vec, id } => write!(
                f,
                "scale-factor ID {id} is not allowed with {vec} (allowed: {})",
                match vec {
                    ScaleVec::X1 | ScaleVec::X3 => "0-3",
                    ScaleVec::X2 | ScaleVec::X6 => "0 or 2",
                    ScaleVec::X4 | ScaleVec::Block16 => "0",
                    ScaleVec::Default | ScaleVec::Block32 => "none before the kind resolves it",
                }
            ),
            DataPathError::ScaleVecOfKind { vec } => write!(
                f,
                "{} gives one or two scale factors per row depending on the kind: the placement \
                 needs 1X, 2X or 4X",
                if vec.name().is_empty() {
                    "no .scale_vec qualifier"
                } else {
                    vec.name()
                }
            ),
            DataPathError::KBlockOutOfRange { k_block, count } => write!(
                f,
                "K block {k_block} is outside the {count} scale factors of a row"
            ),
            DataPathError::KTooLarge { k, container_bits } => write!(
                f,
                "K = {k} does not fit Tensor Memory: {}-bit elements, {} per 32-bit column, fill \
                 the 512 columns at K = {}",
                container_bits,
                32 / container_bits,
                512 * (32 / container_bits)
            ),
            DataPathError::NoFourBitShape {
                m,
                cta_group,
                ws,
                sparse,
            } => write!(
                f,
                "no MMA with 4-bit A has M = {m} with .cta_group::{}{}{}: mxf4 and mxf4nvf4 have \
                 M = 128 (::1, or ::2 dense) and M = 256 (::2), without .ws",
                cta_group.count(),
                if ws { " .ws" } else { "" },
                if sparse { " sparse" } else { "" }
            ),
            DataPathError::NoBlockScaling { layout } => write!(
                f,
                "layout {layout} has no block scaling: block-scaled MMAs have M = 128 or 256"
            ),
            DataPathError::K96Layout { layout } => write!(
                f,
                "the K = 96 scale factors of scale_B have no placement in layout {layout}: PTX ISA \
                 9.7.16.10.7.3.4-5 draw them only for the four-partition layouts A and D \
                 (rules.md T3)"
            ),
        }
    }
}

impl Diagnostic for DataPathError {
    fn field(&self) -> &'static str {
        self.data_path_field().name()
    }

    fn value(&self) -> u64 {
        match *self {
            DataPathError::NoLayout { m, .. } => m as u64,
            DataPathError::InvalidN { n, .. } => n as u64,
            DataPathError::RowOutOfRange { row, .. } => row as u64,
            DataPathError::ColumnOutOfRange { column, .. } => column as u64,
            DataPathError::LaneAlignment { lane, .. } => lane as u64,
            DataPathError::ElementBits { bits } => bits as u64,
            DataPathError::SfId { id, .. } => id as u64,
            DataPathError::ScaleVecOfKind { vec } => vec.count() as u64,
            DataPathError::KBlockOutOfRange { k_block, .. } => k_block as u64,
            DataPathError::NoBlockScaling { layout } | DataPathError::K96Layout { layout } => {
                layout.m() as u64
            }
            DataPathError::KTooLarge { k, .. } => k as u64,
            DataPathError::NoFourBitShape { .. } => 4,
        }
    }

    fn source(&self) -> Source {
        self.rule()
            .row()
            .fixed_source(Source::PtxSection("9.7.16.10.5"))
    }

    fn severity(&self) -> Severity {
        self.rule().row().severity
    }

    fn rule_id(&self) -> Option<&'static str> {
        Some(self.rule().id())
    }
}

impl core::error::Error for DataPathError {}
