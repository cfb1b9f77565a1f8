//! Where a `tcgen05.mma` keeps its Tensor Memory operands: the data-path layouts A-G of D
//! (and of A for the forms that read A from Tensor Memory), and the placement of block-scale
//! factors.
//!
//! PTX ISA 9.7.16.10.5 names the layout of each MMA configuration in a table and draws each
//! layout only as a picture (Figures 205-218); 9.7.16.10.7.2-3 draws the scale-factor columns
//! the same way (Figures 231-258). The maps here follow the table's words ("4x1", "2x2",
//! "1x4", "1/2 datapath utilized", the lane alignment) and CUTLASS 4.2.0's `UMMA::tmem_frg`,
//! `tmem_frg_ws` and `tmem_sf_frg` (`cute/atom/mma_traits_sm100.hpp`), which
//! `crates/tcgen05/tests/tmem_cutlass.rs` evaluates and compares. Two rulings, written out in
//! the README's "Tensor Memory maps" section:
//!
//! - Layout E (M = 64, `.ws`) is printed "2x3" in the table; no 2x3 split of 64 rows exists, and
//!   CUTLASS's `tmem_frg_ws` builds a 2x2 layout: we use 2x2.
//! - Layout C (M = 128, `.cta_group::2`, sparse A) is "4x1 (1/2 datapath utilized)" with lane
//!   alignment 0 or 16 in the table, the organization of layout F in each CTA; CUTLASS 4.2.0's
//!   sparse 2-SM atoms reuse the dense 2x2 `tmem_frg_2sm`. The PTX table wins (decisions.md
//!   preamble: the PTX text first): we use F's organization. The cross-check test records the
//!   difference.
//!
//! With `m`, `n` the row and column of D (`m` counted over the whole MMA, both CTAs of a pair),
//! `m'` the row within its CTA, and `N` the MMA's N:
//!
//! | layout | MMA | CTA | lane | column |
//! |---|---|---|---|---|
//! | A | M = 256, `::2` | `m / 128` | `m'` | `n` |
//! | B | M = 128, `::2`, dense | `m / 64` | `m' + 64 * (n / (N/2))` | `n % (N/2)` |
//! | C | M = 128, `::2`, sparse | `m / 64` | `m' % 16 + 32 * (m' / 16)` | `n` |
//! | D | M = 128, `::1` | 0 | `m` | `n` |
//! | E | M = 64, `::1`, `.ws` | 0 | `m + 64 * (n / (N/2))` | `n % (N/2)` |
//! | F | M = 64, `::1` | 0 | `m % 16 + 32 * (m / 16)` | `n` |
//! | G | M = 32, `::1`, `.ws` | 0 | `m + 32 * (n / (N/4))` | `n % (N/4)` |
//!
//! Lanes and columns are offsets from the D address, whose lane must be 0 (16 is also allowed
//! for C and F). A 16-bit D element sits in bits 15-0 of its 32-bit cell (9.7.16.10.4.1).
//!
//! # Examples
//!
//! ```
//! use tcgen05::data_path::{DLayout, DataPathLayout};
//! use tcgen05::CtaGroup;
//!
//! // tcgen05.mma.cta_group::2, M = 128, N = 256, dense: layout B, the "2x2" data path.
//! let d = DLayout::try_new(128, 256, CtaGroup::Two, false, false).unwrap();
//! assert_eq!(d.layout(), DataPathLayout::B);
//! let c = d.locate(70, 200).unwrap();
//! assert_eq!((c.cta, c.lane, c.column), (1, 6 + 64, 72));
//! assert_eq!(d.element_at(c.cta, c.lane, c.column), Some((70, 200)));
//! ```

use core::fmt;

use crate::diagnostic::{Diagnostic, Diagnostics, Rule, RuleSource, Severity, Source};
use crate::mma::CtaGroup;
/// The scale vector of a block-scaled MMA, one type with [`crate::ptx::ScaleVec`] (defined in
/// [`crate::mma`]).
pub use crate::mma::ScaleVec;
use crate::tensor_memory::TmemAddress;
use crate::tmem_fragment::BitRange;

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
    /// A; decisions.md R14, R16).
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
    /// 4X (PTX ISA 9.7.16.10.7.2-3; decisions.md R13).
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
    /// (PTX ISA 9.7.16.1.1; decisions.md R24).
    KTooLarge {
        /// K as asked.
        k: u32,
        /// Bits per container.
        container_bits: u32,
    },
    /// 4-bit A (mxf4 / mxf4nvf4) exists only for M = 128 (`.cta_group::1` dense or sparse,
    /// `.cta_group::2` dense) and M = 256 (`.cta_group::2`), never with `.ws` (Table 39;
    /// decisions.md R16).
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
        }
    }

    /// The field the error is about.
    #[must_use]
    pub const fn data_path_field(&self) -> DataPathField {
        DATA_PATH_RULES[self.rule() as usize].0
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
}

impl DataPathRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &DATA_PATH_RULES[self as usize].1
    }

    /// The rule's stable identifier, for example `"data_path.no_layout"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// A row of [`DATA_PATH_RULES`].
const fn rule(
    field: DataPathField,
    id: &'static str,
    source: Source,
    statement: &'static str,
) -> (DataPathField, Rule) {
    (
        field,
        Rule {
            id,
            source: RuleSource::Fixed(source),
            severity: Severity::Error,
            statement,
        },
    )
}

/// Every rule of the data-path layouts and the scale-factor placement, with the field it
/// concerns, indexed by [`DataPathRule`].
const DATA_PATH_RULES: [(DataPathField, Rule); 12] = {
    use DataPathField as F;
    const LAYOUTS: Source = Source::PtxSection("9.7.16.10.5");
    [
        rule(F::M, "data_path.no_layout", LAYOUTS,
            "A data-path layout exists for the M, .cta_group, sparsity and .ws."),
        rule(F::N, "data_path.invalid_n", Source::PtxTable(39),
            "N is an N of Table 39 for the configuration."),
        rule(F::Row, "data_path.row_out_of_range", Source::PtxSection("9.7.16.2.1"),
            "A row index lies within the matrix."),
        rule(F::Column, "data_path.column_out_of_range", Source::PtxSection("9.7.16.2.1"),
            "A column index lies within the matrix."),
        rule(F::Lane, "data_path.lane_alignment", LAYOUTS,
            "The operand's lane is 0, or 0 or 16 for the half-datapath layouts C and F."),
        rule(F::ElementBits, "data_path.element_bits", Source::PtxSection("9.7.16.10.4"),
            "D holds 16- or 32-bit elements and A in Tensor Memory 32-, 16-, 8- or 4-bit containers."),
        rule(F::SfId, "data_path.sf_id", Source::Decision(13),
            "A scale-factor ID is one the scale vector allows."),
        rule(F::ScaleVec, "data_path.scale_vec_of_kind", Source::PtxTable(56),
            "The placement needs a scale vector of fixed size: 1X, 2X, 4X or .block16."),
        rule(F::KBlock, "data_path.k_block_out_of_range", Source::PtxSection("9.7.16.10.7.1"),
            "A K block lies within the scale factors of a row."),
        rule(F::K, "data_path.k_too_large", Source::PtxSection("9.7.16.1.1"),
            "A's K fits the 512 columns of Tensor Memory."),
        rule(F::ElementBits, "data_path.no_four_bit_shape", Source::PtxTable(39),
            "4-bit A has M = 128 or 256 and no .ws."),
        rule(F::M, "data_path.no_block_scaling", Source::PtxTable(39),
            "Block-scaled MMAs use only layouts A, B and D."),
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
                    ScaleVec::X1 => "0-3",
                    ScaleVec::X2 => "0 or 2",
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
            DataPathError::NoBlockScaling { layout } => layout.m() as u64,
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

/// The data-path layouts of PTX ISA 9.7.16.10.5, by their letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DataPathLayout {
    /// M = 256, `.cta_group::2`: 4x1, 128 rows per CTA (9.7.16.10.5.1).
    A,
    /// M = 128, `.cta_group::2`, dense A: 2x2, 64 rows per CTA (9.7.16.10.5.2).
    B,
    /// M = 128, `.cta_group::2`, sparse A: 4x1 with half the data path, 64 rows per CTA
    /// (9.7.16.10.5.3).
    C,
    /// M = 128, `.cta_group::1`: 4x1 (9.7.16.10.5.4).
    D,
    /// M = 64, `.ws`: 2x2 (printed "2x3"; 9.7.16.10.5.5).
    E,
    /// M = 64, not `.ws`: 4x1 with half the data path (9.7.16.10.5.6).
    F,
    /// M = 32, `.ws`: 1x4 (9.7.16.10.5.7).
    G,
}

impl DataPathLayout {
    /// Every layout, A to G.
    pub const ALL: [DataPathLayout; 7] = [
        DataPathLayout::A,
        DataPathLayout::B,
        DataPathLayout::C,
        DataPathLayout::D,
        DataPathLayout::E,
        DataPathLayout::F,
        DataPathLayout::G,
    ];

    /// The layout of an MMA (the table of PTX ISA 9.7.16.10.5).
    ///
    /// # Errors
    /// [`DataPathError::NoLayout`] for a configuration the table does not list (`.ws` with
    /// `.cta_group::2`, M = 32 without `.ws`, ...).
    pub const fn for_mma(
        m: u32,
        cta_group: CtaGroup,
        ws: bool,
        sparse: bool,
    ) -> Result<DataPathLayout, DataPathError> {
        match (m, cta_group, ws, sparse) {
            (32, CtaGroup::One, true, _) => Ok(DataPathLayout::G),
            (64, CtaGroup::One, true, _) => Ok(DataPathLayout::E),
            (64, CtaGroup::One, false, _) => Ok(DataPathLayout::F),
            (128, CtaGroup::One, _, _) => Ok(DataPathLayout::D),
            (128, CtaGroup::Two, false, false) => Ok(DataPathLayout::B),
            (128, CtaGroup::Two, false, true) => Ok(DataPathLayout::C),
            (256, CtaGroup::Two, false, _) => Ok(DataPathLayout::A),
            _ => Err(DataPathError::NoLayout {
                m,
                cta_group,
                ws,
                sparse,
            }),
        }
    }

    /// The letter, `'A'` to `'G'`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            DataPathLayout::A => 'A',
            DataPathLayout::B => 'B',
            DataPathLayout::C => 'C',
            DataPathLayout::D => 'D',
            DataPathLayout::E => 'E',
            DataPathLayout::F => 'F',
            DataPathLayout::G => 'G',
        }
    }

    /// The layout of a letter (either case).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<DataPathLayout> {
        match c {
            'A' | 'a' => Some(DataPathLayout::A),
            'B' | 'b' => Some(DataPathLayout::B),
            'C' | 'c' => Some(DataPathLayout::C),
            'D' | 'd' => Some(DataPathLayout::D),
            'E' | 'e' => Some(DataPathLayout::E),
            'F' | 'f' => Some(DataPathLayout::F),
            'G' | 'g' => Some(DataPathLayout::G),
            _ => None,
        }
    }

    /// The MMA's M.
    #[must_use]
    pub const fn m(self) -> u32 {
        match self {
            DataPathLayout::A => 256,
            DataPathLayout::B | DataPathLayout::C | DataPathLayout::D => 128,
            DataPathLayout::E | DataPathLayout::F => 64,
            DataPathLayout::G => 32,
        }
    }

    /// CTAs the MMA spans: 2 for A, B, C.
    #[must_use]
    pub const fn ctas(self) -> u32 {
        match self {
            DataPathLayout::A | DataPathLayout::B | DataPathLayout::C => 2,
            _ => 1,
        }
    }

    /// Rows of D in each CTA.
    #[must_use]
    pub const fn rows_per_cta(self) -> u32 {
        self.m() / self.ctas()
    }

    /// `.cta_group` of the MMAs with this layout.
    #[must_use]
    pub const fn cta_group(self) -> CtaGroup {
        if self.ctas() == 2 {
            CtaGroup::Two
        } else {
            CtaGroup::One
        }
    }

    /// How many parts N is split into across lanes: 2 for the 2x2 layouts B and E, 4 for the
    /// 1x4 layout G, 1 otherwise.
    #[must_use]
    pub const fn column_split(self) -> u32 {
        match self {
            DataPathLayout::B | DataPathLayout::E => 2,
            DataPathLayout::G => 4,
            _ => 1,
        }
    }

    /// Layouts E and G are those of `.ws` MMAs (M = 64 and M = 32).
    #[must_use]
    pub const fn is_ws(self) -> bool {
        matches!(self, DataPathLayout::E | DataPathLayout::G)
    }

    /// Layouts C and F use half the data path: 16 lanes of each 32-lane subpartition.
    #[must_use]
    pub const fn half_datapath(self) -> bool {
        matches!(self, DataPathLayout::C | DataPathLayout::F)
    }

    /// The data-path organization as the table writes it (E as we read it).
    #[must_use]
    pub const fn organization(self) -> &'static str {
        match self {
            DataPathLayout::A | DataPathLayout::D => "4x1",
            DataPathLayout::B | DataPathLayout::E => "2x2",
            DataPathLayout::C | DataPathLayout::F => "4x1 (1/2 datapath utilized)",
            DataPathLayout::G => "1x4",
        }
    }

    /// The PTX section that draws the layout.
    #[must_use]
    pub const fn section(self) -> &'static str {
        match self {
            DataPathLayout::A => "9.7.16.10.5.1",
            DataPathLayout::B => "9.7.16.10.5.2",
            DataPathLayout::C => "9.7.16.10.5.3",
            DataPathLayout::D => "9.7.16.10.5.4",
            DataPathLayout::E => "9.7.16.10.5.5",
            DataPathLayout::F => "9.7.16.10.5.6",
            DataPathLayout::G => "9.7.16.10.5.7",
        }
    }

    /// Checks the lane of an operand address (D, A in Tensor Memory): 0, or 0 or 16 for C and
    /// F (PTX ISA 9.7.16.10.5).
    ///
    /// # Errors
    /// [`DataPathError::LaneAlignment`].
    pub const fn check_address(self, taddr: TmemAddress) -> Result<(), DataPathError> {
        let lane = taddr.lane();
        if lane == 0 || (lane == 16 && self.half_datapath()) {
            Ok(())
        } else {
            Err(DataPathError::LaneAlignment { layout: self, lane })
        }
    }

    /// The lane offset of row `row` (within its CTA) for the 4x1 layouts and of the first
    /// copy for the others, before the column split.
    const fn row_lane(self, row: u32) -> u32 {
        if self.half_datapath() {
            row % 16 + 32 * (row / 16)
        } else {
            row
        }
    }
}

impl fmt::Display for DataPathLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Where an element of D lives: the CTA of the pair (0 for `.cta_group::1`) and the lane and
/// column offsets from the D address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DCell {
    /// CTA of the pair: 0 (even `%cluster_ctarank`) or 1.
    pub cta: u32,
    /// Lane offset.
    pub lane: u32,
    /// Column offset.
    pub column: u32,
}

/// The Tensor Memory placement of D for one MMA configuration and N (PTX ISA 9.7.16.10.5).
///
/// A `DLayout` always has a layout of the table and an N of Table 39 for it (see
/// [`DataPathError::InvalidN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DLayout {
    layout: DataPathLayout,
    n: u32,
}

impl DLayout {
    /// Every rule M, N, `.cta_group`, `.ws` and sparsity break.
    #[must_use]
    pub const fn validate(
        m: u32,
        n: u32,
        cta_group: CtaGroup,
        ws: bool,
        sparse: bool,
    ) -> Diagnostics<DataPathError, 2> {
        let mut d = Diagnostics::new();
        match DataPathLayout::for_mma(m, cta_group, ws, sparse) {
            Ok(layout) => {
                if !n_ok_for(layout, n, ws, sparse) {
                    d.push(DataPathError::InvalidN {
                        layout: Some(layout),
                        n,
                    });
                }
            }
            Err(e) => {
                d.push(e);
                if n == 0 || n > 256 || n % 8 != 0 {
                    d.push(DataPathError::InvalidN { layout: None, n });
                }
            }
        }
        d
    }

    /// The D placement of an MMA with M, N, `.cta_group`, `.ws` and sparse A.
    ///
    /// # Errors
    /// The first of [`DLayout::validate`].
    pub const fn try_new(
        m: u32,
        n: u32,
        cta_group: CtaGroup,
        ws: bool,
        sparse: bool,
    ) -> Result<DLayout, DataPathError> {
        match DataPathLayout::for_mma(m, cta_group, ws, sparse) {
            Ok(layout) => {
                if n_ok_for(layout, n, ws, sparse) {
                    Ok(DLayout { layout, n })
                } else {
                    Err(DataPathError::InvalidN {
                        layout: Some(layout),
                        n,
                    })
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The D placement of `layout` with N.
    ///
    /// # Errors
    /// [`DataPathError::InvalidN`].
    pub const fn with_layout(layout: DataPathLayout, n: u32) -> Result<DLayout, DataPathError> {
        if n_ok(layout, n) {
            Ok(DLayout { layout, n })
        } else {
            Err(DataPathError::InvalidN {
                layout: Some(layout),
                n,
            })
        }
    }

    /// The layout.
    #[must_use]
    pub const fn layout(&self) -> DataPathLayout {
        self.layout
    }

    /// M.
    #[must_use]
    pub const fn m(&self) -> u32 {
        self.layout.m()
    }

    /// N.
    #[must_use]
    pub const fn n(&self) -> u32 {
        self.n
    }

    /// Columns D occupies from its address in each CTA: `N / column_split`.
    #[must_use]
    pub const fn columns(&self) -> u32 {
        self.n / self.layout.column_split()
    }

    /// Where `D[m][n]` lives.
    ///
    /// # Errors
    /// [`DataPathError::RowOutOfRange`], [`DataPathError::ColumnOutOfRange`].
    pub const fn locate(&self, m: u32, n: u32) -> Result<DCell, DataPathError> {
        let rows = self.m();
        if m >= rows {
            return Err(DataPathError::RowOutOfRange { row: m, rows });
        }
        if n >= self.n {
            return Err(DataPathError::ColumnOutOfRange {
                column: n,
                columns: self.n,
            });
        }
        let per = self.layout.rows_per_cta();
        let cta = m / per;
        let row = m % per;
        let cols = self.columns();
        let part = n / cols;
        let lane = self.layout.row_lane(row) + part * per;
        Ok(DCell {
            cta,
            lane,
            column: n % cols,
        })
    }

    /// The element of D at a cell (CTA, lane offset, column offset), if D uses it: the inverse of
    /// [`DLayout::locate`].
    #[must_use]
    pub const fn element_at(&self, cta: u32, lane: u32, column: u32) -> Option<(u32, u32)> {
        if cta >= self.layout.ctas() || column >= self.columns() || lane >= 128 {
            return None;
        }
        let per = self.layout.rows_per_cta();
        let (row, part) = if self.layout.half_datapath() {
            if lane % 32 >= 16 {
                return None;
            }
            (lane % 32 + 16 * (lane / 32), 0)
        } else {
            (lane % per, lane / per)
        };
        if part >= self.layout.column_split() {
            return None;
        }
        Some((cta * per + row, part * self.columns() + column))
    }

    /// Every element of D and its cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = (u32, u32, DCell)> + '_ {
        (0..self.m()).flat_map(move |m| {
            (0..self.n).filter_map(move |n| match self.locate(m, n) {
                Ok(c) => Some((m, n, c)),
                Err(_) => None,
            })
        })
    }
}

/// Whether N is an N of Table 39 for the layout (decisions.md R14, R16).
/// N allowed for a configuration (Table 39 of PTX ISA 9.7.16.10.1, decisions.md R14, R16):
/// the layout's own N, and with `.ws` only 64, 128, 256, or 64, 128 when A is sparse.
const fn n_ok_for(layout: DataPathLayout, n: u32, ws: bool, sparse: bool) -> bool {
    if !n_ok(layout, n) {
        return false;
    }
    if ws {
        if sparse {
            matches!(n, 64 | 128)
        } else {
            matches!(n, 64 | 128 | 256)
        }
    } else {
        true
    }
}

const fn n_ok(layout: DataPathLayout, n: u32) -> bool {
    match layout {
        DataPathLayout::E | DataPathLayout::G => matches!(n, 64 | 128 | 256),
        DataPathLayout::A | DataPathLayout::B | DataPathLayout::C => {
            n >= 16 && n <= 256 && n % 16 == 0
        }
        DataPathLayout::D | DataPathLayout::F => n >= 8 && n <= 256 && n % 8 == 0,
    }
}

/// The bits of a 32-bit cell that hold a D element of `bits` bits: 15-0 for 16-bit D, which is
/// not packed (PTX ISA 9.7.16.10.4.1), 31-0 for 32-bit D.
///
/// # Errors
/// [`DataPathError::ElementBits`] for other sizes.
pub const fn d_element_bits(bits: u32) -> Result<BitRange, DataPathError> {
    match bits {
        16 => Ok(BitRange::new(0, 15)),
        32 => Ok(BitRange::WORD),
        _ => Err(DataPathError::ElementBits { bits }),
    }
}

/// Where an element of A lives when A is read from Tensor Memory: the copies (CTA, lane
/// offset), the column offset and the bits of the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ACell {
    /// CTA of the pair.
    pub cta: u32,
    lanes: [u32; 4],
    copies: u32,
    /// Column offset.
    pub column: u32,
    /// The element's bits in the cell.
    pub bits: BitRange,
}

impl ACell {
    /// The lanes that hold the element (one per copy).
    #[must_use]
    pub fn lanes(&self) -> &[u32] {
        let n = if (self.copies as usize) < 4 {
            self.copies as usize
        } else {
            4
        };
        &self.lanes[..n]
    }
}

/// Where `A[m][k]` lives for the forms that read A from Tensor Memory (`[a-tmem]`), with
/// elements in `container_bits`-bit containers packed from bit 0 up in each 32-bit cell (32 for
/// tf32, 16 for f16/bf16, 8 for i8 and the 8-bit containers of f8f6f4 / mxf8f6f4, 4 for
/// mxf4 / mxf4nvf4; PTX ISA 9.7.16.10.4.3, .5). `k` counts stored elements (`K/2` of them for
/// sparse A).
///
/// Rows use the lanes of D's rows. Where D splits N across lanes (B, E: 2x2; G: 1x4) every
/// lane group needs all of A, so A is stored in each: lanes `m'` and `m' + 64` for B (CUTLASS
/// `TmemAllocMode::Duplicated`) and E, `m + 32q` for G (derived the same way; CUTLASS has no
/// `.ws`).
///
/// # Errors
/// [`DataPathError::ElementBits`], [`DataPathError::RowOutOfRange`], and
/// [`DataPathError::KTooLarge`] when `k` falls past the 512 columns of Tensor Memory
/// (PTX ISA 9.7.16.1.1; decisions.md R24).
pub const fn a_cell(
    layout: DataPathLayout,
    m: u32,
    k: u32,
    container_bits: u32,
) -> Result<ACell, DataPathError> {
    if !matches!(container_bits, 4 | 8 | 16 | 32) {
        return Err(DataPathError::ElementBits {
            bits: container_bits,
        });
    }
    let rows = layout.m();
    if m >= rows {
        return Err(DataPathError::RowOutOfRange { row: m, rows });
    }
    let per = layout.rows_per_cta();
    let row = m % per;
    let base = layout.row_lane(row);
    let split = layout.column_split();
    let mut lanes = [0u32; 4];
    let mut i = 0;
    while i < split && i < 4 {
        lanes[i as usize] = base + i * per;
        i += 1;
    }
    let per_word = 32 / container_bits;
    if k / per_word >= crate::tensor_memory::TMEM_COLUMNS {
        return Err(DataPathError::KTooLarge { k, container_bits });
    }
    let lo = (k % per_word) * container_bits;
    Ok(ACell {
        cta: m / per,
        lanes,
        copies: split,
        column: k / per_word,
        bits: BitRange::new(lo as u8, (lo + container_bits - 1) as u8),
    })
}

/// Whether an MMA with this M, `.cta_group`, `.ws` and sparsity can read A of
/// `container_bits`-bit containers: 4-bit A belongs to mxf4 / mxf4nvf4 only, whose shapes are
/// M = 128 (`.cta_group::1` dense or sparse, `.cta_group::2` dense) and M = 256
/// (`.cta_group::2`), never `.ws` (PTX ISA 9.7.16.10.1 Table 39; decisions.md R16). Other
/// container sizes pass.
///
/// # Errors
/// [`DataPathError::NoFourBitShape`].
pub const fn a_bits_have_shape(
    m: u32,
    cta_group: CtaGroup,
    ws: bool,
    sparse: bool,
    container_bits: u32,
) -> Result<(), DataPathError> {
    if container_bits != 4 {
        return Ok(());
    }
    let ok = !ws
        && matches!(
            (m, cta_group, sparse),
            (128, CtaGroup::One, _) | (128, CtaGroup::Two, false) | (256, CtaGroup::Two, _)
        );
    if ok {
        Ok(())
    } else {
        Err(DataPathError::NoFourBitShape {
            m,
            cta_group,
            ws,
            sparse,
        })
    }
}

/// Whether A with `k` stored elements per row (`k` counts, indices `0..k`) of
/// `container_bits`-bit containers fits the 512 columns of Tensor Memory (PTX ISA 9.7.16.1.1;
/// decisions.md R24): `k <= 512 * 32 / container_bits`.
///
/// # Errors
/// [`DataPathError::ElementBits`], [`DataPathError::KTooLarge`].
pub const fn a_k_fits(k: u32, container_bits: u32) -> Result<(), DataPathError> {
    if !matches!(container_bits, 4 | 8 | 16 | 32) {
        return Err(DataPathError::ElementBits {
            bits: container_bits,
        });
    }
    if k > crate::tensor_memory::TMEM_COLUMNS * (32 / container_bits) {
        return Err(DataPathError::KTooLarge { k, container_bits });
    }
    Ok(())
}

/// Which scale-factor matrix: of A (one row per row of A) or of B (one per column of B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SfOperand {
    /// `scale_A`, M x count.
    A,
    /// `scale_B`, count x N.
    B,
}

/// Where one scale factor lives: CTAs, the lanes of its copies, the column offset from the
/// scale-factor address and the byte of the 32-bit cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SfCell {
    /// The CTA that holds it (the lower one when both do).
    pub cta: u32,
    /// Whether both CTAs of a pair hold it (scale_B with `.cta_group::2`).
    pub both_ctas: bool,
    lanes: [u32; 4],
    copies: u32,
    /// Column offset.
    pub column: u32,
    /// Byte of the cell, 0-3 (bits `8 * byte` to `8 * byte + 7`).
    pub byte: u32,
}

impl SfCell {
    /// The lanes of the copies: one in each 32-lane subpartition (layouts A, D; scale_A of B),
    /// or two (scale_B of layout B).
    #[must_use]
    pub fn lanes(&self) -> &[u32] {
        let n = if (self.copies as usize) < 4 {
            self.copies as usize
        } else {
            4
        };
        &self.lanes[..n]
    }
}

/// The scale-factor placement of one block-scaled MMA (PTX ISA 9.7.16.10.7; the sub-column
/// pictures Figures 231-233 and 240-242 read through CUTLASS's `tmem_sf_frg`):
///
/// - scale_A, and scale_B of the 4x1 layouts A and D: index `i` (row of A in its CTA, or column
///   of B) goes to lane `i % 32` of each of the four 32-lane subpartitions ("duplicated to all
///   32-lane partitions", 9.7.16.10.7), column `i / 32`.
/// - scale_B of layout B (2x2): with `h = n / (N/2)` and `n' = n % (N/2)`, lanes
///   `n' % 32 + 64h` and that `+ 32`, column `n' / 32`: the two partitions that hold D's column
///   `n`, which is how this crate reads "duplicated to all 32-lane partitions" for layout B
///   (ruling T1 of `conformance/DIFFERENCES.md`, as CUTLASS's `ScaleFactorDuplicated2by2`).
/// - K block `s` of the row is byte `SF_ID + s` of the cell: SF_ID selects the 1-byte (1X) or
///   2-byte (2X) sub-column; 4X fills the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SfLayout {
    layout: DataPathLayout,
    operand: SfOperand,
    vec: ScaleVec,
    /// Rows of A in each CTA (scale_A) or N (scale_B).
    extent: u32,
    sf_id: u32,
}

impl SfLayout {
    /// Every rule the arguments break.
    #[must_use]
    pub const fn validate(
        layout: DataPathLayout,
        operand: SfOperand,
        vec: ScaleVec,
        n: u32,
        sf_id: u32,
    ) -> Diagnostics<DataPathError, 3> {
        let mut d = Diagnostics::new();
        if !matches!(
            layout,
            DataPathLayout::A | DataPathLayout::B | DataPathLayout::D
        ) {
            d.push(DataPathError::NoBlockScaling { layout });
        }
        if matches!(operand, SfOperand::B) && !n_ok(layout, n) {
            d.push(DataPathError::InvalidN {
                layout: Some(layout),
                n,
            });
        }
        if !vec.is_resolved() {
            d.push(DataPathError::ScaleVecOfKind { vec });
        } else if !vec.id_ok(sf_id) {
            d.push(DataPathError::SfId { vec, id: sf_id });
        }
        d
    }

    /// The placement of `operand`'s scale factors for an MMA with `layout` and N (`n` is only
    /// checked for scale_B).
    ///
    /// # Errors
    /// The first of [`SfLayout::validate`].
    pub const fn try_new(
        layout: DataPathLayout,
        operand: SfOperand,
        vec: ScaleVec,
        n: u32,
        sf_id: u32,
    ) -> Result<SfLayout, DataPathError> {
        let d = Self::validate(layout, operand, vec, n, sf_id);
        if let Some(e) = d.get(0) {
            return Err(e);
        }
        let extent = match operand {
            SfOperand::A => layout.m(),
            SfOperand::B => n,
        };
        Ok(SfLayout {
            layout,
            operand,
            vec,
            extent,
            sf_id,
        })
    }

    /// The rows of A (scale_A, over both CTAs) or the columns of B (scale_B).
    #[must_use]
    pub const fn extent(&self) -> u32 {
        self.extent
    }

    /// The scale vector.
    #[must_use]
    pub const fn vec(&self) -> ScaleVec {
        self.vec
    }

    /// The operand.
    #[must_use]
    pub const fn operand(&self) -> SfOperand {
        self.operand
    }

    /// The data-path layout.
    #[must_use]
    pub const fn layout(&self) -> DataPathLayout {
        self.layout
    }

    /// Columns used from the scale-factor address.
    #[must_use]
    pub const fn columns(&self) -> u32 {
        let per = self.per_cta();
        let per = if self.two_by_two() { per / 2 } else { per };
        per.div_ceil(32)
    }

    const fn two_by_two(&self) -> bool {
        matches!(self.operand, SfOperand::B) && matches!(self.layout, DataPathLayout::B)
    }

    /// Indices held in each CTA.
    const fn per_cta(&self) -> u32 {
        match self.operand {
            SfOperand::A => self.layout.rows_per_cta(),
            SfOperand::B => self.extent,
        }
    }

    /// Where the scale factor of row (scale_A) or column (scale_B) `index`, K block `k_block`,
    /// lives.
    ///
    /// # Errors
    /// [`DataPathError::RowOutOfRange`], [`DataPathError::KBlockOutOfRange`].
    pub const fn locate(&self, index: u32, k_block: u32) -> Result<SfCell, DataPathError> {
        if index >= self.extent {
            return Err(DataPathError::RowOutOfRange {
                row: index,
                rows: self.extent,
            });
        }
        let count = self.vec.count();
        if k_block >= count {
            return Err(DataPathError::KBlockOutOfRange { k_block, count });
        }
        let per = self.per_cta();
        let (cta, both) = match self.operand {
            SfOperand::A => (index / per, false),
            SfOperand::B => (0, self.layout.ctas() == 2),
        };
        let i = index % per;
        let mut lanes = [0u32; 4];
        let (copies, column) = if self.two_by_two() {
            let half = per / 2;
            let h = i / half;
            let j = i % half;
            lanes[0] = j % 32 + 64 * h;
            lanes[1] = lanes[0] + 32;
            (2, j / 32)
        } else {
            let mut q = 0;
            while q < 4 {
                lanes[q as usize] = i % 32 + 32 * q;
                q += 1;
            }
            (4, i / 32)
        };
        Ok(SfCell {
            cta,
            both_ctas: both,
            lanes,
            copies,
            column,
            byte: self.sf_id + k_block,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    #[test]
    fn every_data_path_rule_has_one_row_that_says_what_the_rule_said() {
        use crate::diagnostic::{check_rule_table, Rule, Severity};
        let rows: std::vec::Vec<Rule> = DATA_PATH_RULES.iter().map(|(_, r)| *r).collect();
        let e = Severity::Error;
        let sec = Source::PtxSection;
        check_rule_table(
            "data_path",
            &rows,
            &[
                (
                    DataPathError::NoLayout {
                        m: 96,
                        cta_group: CtaGroup::One,
                        ws: false,
                        sparse: false,
                    },
                    "m",
                    sec("9.7.16.10.5"),
                    e,
                ),
                (
                    DataPathError::InvalidN { layout: None, n: 7 },
                    "n",
                    Source::PtxTable(39),
                    e,
                ),
                (
                    DataPathError::RowOutOfRange { row: 9, rows: 8 },
                    "row",
                    sec("9.7.16.2.1"),
                    e,
                ),
                (
                    DataPathError::ColumnOutOfRange {
                        column: 9,
                        columns: 8,
                    },
                    "column",
                    sec("9.7.16.2.1"),
                    e,
                ),
                (
                    DataPathError::LaneAlignment {
                        layout: DataPathLayout::C,
                        lane: 3,
                    },
                    "lane",
                    sec("9.7.16.10.5"),
                    e,
                ),
                (
                    DataPathError::ElementBits { bits: 12 },
                    "element_bits",
                    sec("9.7.16.10.4"),
                    e,
                ),
                (
                    DataPathError::SfId {
                        vec: ScaleVec::X4,
                        id: 1,
                    },
                    "sf_id",
                    Source::Decision(13),
                    e,
                ),
                (
                    DataPathError::ScaleVecOfKind {
                        vec: ScaleVec::Default,
                    },
                    "scale_vec",
                    Source::PtxTable(56),
                    e,
                ),
                (
                    DataPathError::KBlockOutOfRange {
                        k_block: 4,
                        count: 4,
                    },
                    "k_block",
                    sec("9.7.16.10.7.1"),
                    e,
                ),
                (
                    DataPathError::KTooLarge {
                        k: 9000,
                        container_bits: 8,
                    },
                    "k",
                    sec("9.7.16.1.1"),
                    e,
                ),
                (
                    DataPathError::NoFourBitShape {
                        m: 64,
                        cta_group: CtaGroup::One,
                        ws: true,
                        sparse: false,
                    },
                    "element_bits",
                    Source::PtxTable(39),
                    e,
                ),
                (
                    DataPathError::NoBlockScaling {
                        layout: DataPathLayout::E,
                    },
                    "m",
                    Source::PtxTable(39),
                    e,
                ),
            ],
        );
    }

    /// `a_cell` refuses a K whose column is past the 512 columns, for every container size.
    #[test]
    fn a_cell_column_bounded() {
        for bits in [4u32, 8, 16, 32] {
            let per_word = 32 / bits;
            let last = 512 * per_word - 1;
            assert_eq!(
                a_cell(DataPathLayout::D, 0, last, bits).unwrap().column,
                511
            );
            assert_eq!(
                a_cell(DataPathLayout::D, 0, last + 1, bits),
                Err(DataPathError::KTooLarge {
                    k: last + 1,
                    container_bits: bits
                })
            );
            assert!(a_cell(DataPathLayout::D, 0, u32::MAX, bits).is_err());
            assert_eq!(a_k_fits(last + 1, bits), Ok(()));
            assert!(a_k_fits(last + 2, bits).is_err());
            assert!(a_k_fits(u32::MAX, bits).is_err());
        }
    }

    /// 4-bit A: the four shapes of Table 39 with mxf4 pass, every other configuration that has
    /// a layout is refused; 8-bit A passes everywhere.
    #[test]
    fn four_bit_a_only_where_table_39_has_it() {
        use CtaGroup::{One, Two};
        let mut passed = std::vec::Vec::new();
        for m in [32, 64, 128, 256] {
            for cg in [One, Two] {
                for ws in [false, true] {
                    for sparse in [false, true] {
                        if DataPathLayout::for_mma(m, cg, ws, sparse).is_err() {
                            continue;
                        }
                        assert_eq!(a_bits_have_shape(m, cg, ws, sparse, 8), Ok(()));
                        if a_bits_have_shape(m, cg, ws, sparse, 4).is_ok() {
                            passed.push((m, cg.count(), ws, sparse));
                        }
                    }
                }
            }
        }
        assert_eq!(
            passed,
            [
                (128, 1, false, false),
                (128, 1, false, true),
                (128, 2, false, false),
                (256, 2, false, false),
                (256, 2, false, true)
            ]
        );
    }

    /// `.ws` N follows Table 39 (decisions.md R16): 64, 128, 256 dense, 64, 128 sparse, for
    /// every `.ws` M; `validate` and `try_new` agree on every N from 0 to 512.
    #[test]
    fn ws_n_follows_table_39() {
        for m in [32, 64, 128] {
            for sparse in [false, true] {
                let expect: &[u32] = if sparse { &[64, 128] } else { &[64, 128, 256] };
                let mut got = std::vec::Vec::new();
                for n in 0..=512 {
                    let ok = DLayout::try_new(m, n, CtaGroup::One, true, sparse).is_ok();
                    let valid = DLayout::validate(m, n, CtaGroup::One, true, sparse).is_empty();
                    assert_eq!(ok, valid, "M {m} N {n} sparse {sparse}");
                    if ok {
                        got.push(n);
                    }
                }
                assert_eq!(got, expect, "M {m} sparse {sparse}");
            }
        }
        // Without `.ws`, M = 128 keeps every multiple of 8 (32 values).
        let dense = (0..=512)
            .filter(|&n| DLayout::try_new(128, n, CtaGroup::One, false, false).is_ok())
            .count();
        assert_eq!(dense, 32);
    }

    #[test]
    fn table_rows() {
        use CtaGroup::{One, Two};
        let rows = [
            (32, One, true, false, 'G'),
            (32, One, true, true, 'G'),
            (64, One, true, false, 'E'),
            (64, One, false, true, 'F'),
            (128, One, false, false, 'D'),
            (128, One, true, true, 'D'),
            (128, Two, false, false, 'B'),
            (128, Two, false, true, 'C'),
            (256, Two, false, false, 'A'),
            (256, Two, false, true, 'A'),
        ];
        for (m, g, ws, sp, l) in rows {
            assert_eq!(DataPathLayout::for_mma(m, g, ws, sp).unwrap().letter(), l);
        }
        for (m, g, ws) in [
            (32, One, false),
            (256, One, false),
            (128, Two, true),
            (64, Two, false),
        ] {
            let e = DataPathLayout::for_mma(m, g, ws, false).unwrap_err();
            assert_eq!(e.field(), "m");
        }
    }

    #[test]
    fn every_layout_is_injective_and_inverts() {
        for layout in DataPathLayout::ALL {
            for n in [64u32, 128, 256] {
                let d = DLayout::with_layout(layout, n).unwrap();
                let mut seen = BTreeSet::new();
                for (m, nn, c) in d.cells() {
                    assert!(c.lane < 128 && c.column < d.columns(), "{layout} {m} {nn}");
                    assert!(seen.insert((c.cta, c.lane, c.column)), "{layout} {m} {nn}");
                    assert_eq!(d.element_at(c.cta, c.lane, c.column), Some((m, nn)));
                }
                assert_eq!(seen.len() as u32, layout.m() * n);
                // Cells D does not use have no element.
                for cta in 0..2 {
                    for lane in 0..128 {
                        for col in 0..d.columns() + 1 {
                            if !seen.contains(&(cta, lane, col)) {
                                assert_eq!(d.element_at(cta, lane, col), None);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn worked_points() {
        let f = DLayout::try_new(64, 8, CtaGroup::One, false, false).unwrap();
        assert_eq!(
            f.locate(17, 3).unwrap(),
            DCell {
                cta: 0,
                lane: 33,
                column: 3
            }
        );
        let g = DLayout::try_new(32, 64, CtaGroup::One, true, false).unwrap();
        assert_eq!(
            g.locate(5, 40).unwrap(),
            DCell {
                cta: 0,
                lane: 69,
                column: 8
            }
        );
        let c = DLayout::try_new(128, 32, CtaGroup::Two, false, true).unwrap();
        assert_eq!(
            c.locate(64 + 20, 1).unwrap(),
            DCell {
                cta: 1,
                lane: 36,
                column: 1
            }
        );
        assert!(DataPathLayout::C
            .check_address(TmemAddress::new(16, 0))
            .is_ok());
        assert_eq!(
            DataPathLayout::D
                .check_address(TmemAddress::new(16, 0))
                .unwrap_err()
                .field(),
            "lane"
        );
        assert_eq!(d_element_bits(16).unwrap(), BitRange::new(0, 15));
        assert_eq!(d_element_bits(8).unwrap_err().field(), "element_bits");
    }

    #[test]
    fn rules_broken() {
        let d = DLayout::validate(48, 7, CtaGroup::One, false, false);
        assert_eq!(d.len(), 2);
        assert_eq!(
            DLayout::try_new(32, 96, CtaGroup::One, true, false)
                .unwrap_err()
                .field(),
            "n"
        );
        assert_eq!(
            DLayout::try_new(128, 24, CtaGroup::Two, false, false)
                .unwrap_err()
                .field(),
            "n"
        );
        let d = DLayout::try_new(128, 64, CtaGroup::One, false, false).unwrap();
        assert_eq!(d.locate(128, 0).unwrap_err().field(), "row");
        assert_eq!(d.locate(0, 64).unwrap_err().field(), "column");
    }

    #[test]
    fn a_in_tensor_memory() {
        let a = a_cell(DataPathLayout::B, 70, 5, 16).unwrap();
        assert_eq!(
            (a.cta, a.lanes(), a.column, a.bits),
            (1, &[6u32, 70][..], 2, BitRange::new(16, 31))
        );
        let a = a_cell(DataPathLayout::F, 20, 9, 8).unwrap();
        assert_eq!(
            (a.lanes(), a.column, a.bits),
            (&[36u32][..], 2, BitRange::new(8, 15))
        );
        let a = a_cell(DataPathLayout::G, 1, 0, 32).unwrap();
        assert_eq!(a.lanes(), &[1, 33, 65, 97]);
        assert_eq!(
            a_cell(DataPathLayout::D, 0, 0, 6).unwrap_err().field(),
            "element_bits"
        );
    }

    #[test]
    fn scale_factors() {
        let s = SfLayout::try_new(DataPathLayout::D, SfOperand::A, ScaleVec::X1, 0, 2).unwrap();
        let c = s.locate(37, 0).unwrap();
        assert_eq!(
            (c.lanes(), c.column, c.byte),
            (&[5u32, 37, 69, 101][..], 1, 2)
        );
        assert_eq!(s.columns(), 4);
        let s = SfLayout::try_new(DataPathLayout::B, SfOperand::B, ScaleVec::X2, 256, 2).unwrap();
        let c = s.locate(130, 1).unwrap();
        assert_eq!(
            (c.both_ctas, c.lanes(), c.column, c.byte),
            (true, &[66u32, 98][..], 0, 3)
        );
        assert_eq!(s.columns(), 4);
        let s = SfLayout::try_new(DataPathLayout::B, SfOperand::A, ScaleVec::X4, 0, 0).unwrap();
        let c = s.locate(100, 3).unwrap();
        assert_eq!((c.cta, c.lanes()[0], c.column, c.byte), (1, 4, 1, 3));
        assert_eq!(s.locate(0, 4).unwrap_err().field(), "k_block");
        let d = SfLayout::validate(DataPathLayout::F, SfOperand::B, ScaleVec::X2, 12, 1);
        assert_eq!(d.len(), 3);
        assert_eq!(
            SfLayout::try_new(DataPathLayout::D, SfOperand::A, ScaleVec::X4, 0, 2)
                .unwrap_err()
                .field(),
            "sf_id"
        );
    }
}
