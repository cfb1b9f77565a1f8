//! The fields of a Tensor Memory check ([`TmemField`]), the operation ([`TmemOp`]) and
//! [`TmemError`].

use super::cp::{CpMulticast, CpShape};
use super::ld_st::{LdStShape, Num};
use super::shape::{DataMovementShape, TmemOp};
use super::{warp_first_lane, LANES_PER_WARP, MAX_REGISTERS_PER_THREAD, TMEM_COLUMNS, TMEM_LANES};
use crate::diagnostic::{Diagnostic, Source};
use crate::diagnostic::{Rule, Severity};
use core::fmt;

/// What a [`TmemError`] is about: the two fields of a TMEM address, and the operands and
/// qualifiers of the data-movement and allocation instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TmemField {
    /// The lane (row) index, address bits 31-16.
    Lane,
    /// The column index, address bits 15-0.
    Column,
    /// The warp that executes a `tcgen05.ld` / `tcgen05.st`.
    Warp,
    /// The `nCols` operand of `tcgen05.alloc` / `tcgen05.dealloc`.
    NCols,
    /// The `.shape` qualifier.
    Shape,
    /// The `.num` qualifier of `tcgen05.ld` / `tcgen05.st`.
    Num,
    /// The `.multicast` qualifier of `tcgen05.cp`.
    Multicast,
}

impl TmemField {
    /// The field's JSON key in the command-line tool, for example `"n_cols"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TmemField::Lane => "lane",
            TmemField::Column => "column",
            TmemField::Warp => "warp",
            TmemField::NCols => "n_cols",
            TmemField::Shape => "shape",
            TmemField::Num => "num",
            TmemField::Multicast => "multicast",
        }
    }
}

impl fmt::Display for TmemField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule of Tensor Memory addressing, allocation or data movement that a value breaks.
///
/// Every variant names its [`TmemField`], the value it saw ([`Diagnostic::value`]) and the
/// rule's [`Source`], read from the rule's row ([`TmemError::rule`]). Name-parsing errors have no number to report: their value is 0 and the
/// message says what was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum TmemError {
    /// The lane is 128 or more: a CTA has 128 lanes (PTX ISA 9.7.16.1.1; rules.md R24).
    LaneOutOfRange {
        /// The lane asked for.
        lane: u64,
    },
    /// The column is 512 or more: a CTA has 512 columns (PTX ISA 9.7.16.1.1; rules.md R24).
    ColumnOutOfRange {
        /// The column asked for.
        column: u64,
    },
    /// Warp `warp` may access only lanes `32 * (warp % 4)` to `32 * (warp % 4) + 31`
    /// (PTX ISA 9.7.16.8.1).
    LaneNotInWarpQuadrant {
        /// The lane of the address.
        lane: u32,
        /// The warp's index in its CTA (only `warp % 4` matters).
        warp: u32,
    },
    /// `nCols` is below 32 or above 512 (PTX ISA 9.7.16.7.1; rules.md R24).
    NColsOutOfRange {
        /// The column count asked for.
        n_cols: u32,
    },
    /// `nCols` is between 32 and 512 but not a power of two (PTX ISA 9.7.16.7.1; rules.md
    /// R24).
    NColsNotPowerOfTwo {
        /// The column count asked for.
        n_cols: u32,
    },
    /// The name is no data-movement shape of this instruction, nor of any other (PTX ISA
    /// 9.7.16.2.3).
    UnknownShape {
        /// The instruction whose shape was asked for.
        op: TmemOp,
    },
    /// The name is the shape of another instruction, for example `.31x256b` (the implicit shape
    /// of `tcgen05.shift`) given as a `tcgen05.cp` shape (rules.md R23).
    ShapeOfOtherOp {
        /// The shape the name stands for.
        shape: DataMovementShape,
        /// The instruction whose shape was asked for.
        wanted: TmemOp,
    },
    /// `.num` is not one of `.x1`, `.x2`, `.x4`, ... `.x128` (PTX ISA 9.7.16.8.3).
    InvalidNum {
        /// The repetition count asked for.
        num: u32,
    },
    /// The shape does not take this `.num`: the register vector would exceed 128 registers
    /// (Table 49 for `tcgen05.ld`, Table 50 for `tcgen05.st`).
    NumTooLargeForShape {
        /// The shape.
        shape: LdStShape,
        /// The repetition count.
        num: Num,
    },
    /// The name is not a `.multicast` qualifier of `tcgen05.cp` (PTX ISA 9.7.16.9.2).
    UnknownMulticast,
    /// The `tcgen05.cp` shape needs another `.multicast` qualifier: `.64x128b` needs
    /// `.warpx2::02_13` or `.warpx2::01_23`, `.32x128b` needs `.warpx4`, the other shapes take
    /// none (PTX ISA 9.7.16.9.2; rules.md R23).
    CpMulticastMismatch {
        /// The copy shape.
        shape: CpShape,
        /// The qualifier given.
        multicast: CpMulticast,
    },
    /// The lane of a `tcgen05.shift` address is not a multiple of 32 (PTX ISA 9.7.16.9.3).
    ShiftLaneNotAligned {
        /// The lane of the address.
        lane: u32,
    },
}

/// The rules of Tensor Memory addressing, allocation and data movement, one per [`TmemError`]
/// variant, each with one row ([`TmemRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum TmemRule {
    /// [`TmemError::LaneOutOfRange`].
    LaneOutOfRange,
    /// [`TmemError::ColumnOutOfRange`].
    ColumnOutOfRange,
    /// [`TmemError::LaneNotInWarpQuadrant`].
    LaneNotInWarpQuadrant,
    /// [`TmemError::NColsOutOfRange`].
    NColsOutOfRange,
    /// [`TmemError::NColsNotPowerOfTwo`].
    NColsNotPowerOfTwo,
    /// [`TmemError::UnknownShape`].
    UnknownShape,
    /// [`TmemError::ShapeOfOtherOp`].
    ShapeOfOtherOp,
    /// [`TmemError::InvalidNum`].
    InvalidNum,
    /// [`TmemError::NumTooLargeForShape`].
    NumTooLargeForShape,
    /// [`TmemError::UnknownMulticast`].
    UnknownMulticast,
    /// [`TmemError::CpMulticastMismatch`].
    CpMulticastMismatch,
    /// [`TmemError::ShiftLaneNotAligned`].
    ShiftLaneNotAligned,
}

impl TmemRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &TMEM_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"tmem.n_cols_out_of_range"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }

    /// The field the rule concerns.
    #[must_use]
    pub const fn field(self) -> TmemField {
        TMEM_FIELDS[self as usize]
    }
}

/// A row of [`TMEM_RULES`].
const fn rule(id: &'static str, source: Source, statement: &'static str) -> Rule {
    Rule::fixed(id, source, Severity::Error, statement)
}

/// Every rule of Tensor Memory addressing, allocation and data movement, indexed by
/// [`TmemRule`].
pub(crate) const TMEM_RULES: [Rule; 12] = {
    [
        rule("tmem.lane_out_of_range", Source::Decision(24), "A CTA's Tensor Memory has lanes 0 to 127."),
        rule("tmem.column_out_of_range", Source::Decision(24), "A CTA's Tensor Memory has columns 0 to 511."),
        rule("tmem.lane_not_in_warp_quadrant", Source::PtxSection("9.7.16.8.1"),
            "Warp w of a warpgroup accesses only lanes 32 * (w % 4) to 32 * (w % 4) + 31."),
        rule("tmem.n_cols_out_of_range", Source::PtxSection("9.7.16.7.1"),
            "The number of columns to allocate is from 32 to 512."),
        rule("tmem.n_cols_not_power_of_two", Source::PtxSection("9.7.16.7.1"),
            "The number of columns to allocate is a power of two."),
        rule("tmem.unknown_shape", Source::PtxSection("9.7.16.2.3"),
            "A data-movement shape is one the instruction defines."),
        rule("tmem.shape_of_other_op", Source::Decision(23),
            "A shape of one instruction is not a shape of another."),
        rule("tmem.invalid_num", Source::PtxSection("9.7.16.8.3"),
            ".num is one of .x1, .x2, .x4, .x8, .x16, .x32, .x64 and .x128."),
        rule("tmem.num_too_large_for_shape", Source::PtxTable(49),
            "The shape and .num need at most 128 registers per thread."),
        rule("tmem.unknown_multicast", Source::PtxSection("9.7.16.9.2"),
            "A .multicast qualifier of tcgen05.cp is .warpx2::02_13, .warpx2::01_23 or .warpx4."),
        rule("tmem.cp_multicast_mismatch", Source::Decision(23),
            ".64x128b takes .warpx2::02_13 or .warpx2::01_23, .32x128b takes .warpx4, and the other tcgen05.cp shapes take none."),
        rule("tmem.shift_lane_not_aligned", Source::PtxSection("9.7.16.9.3"),
            "The lane of a tcgen05.shift address is a multiple of 32."),
    ]
};

/// The field each rule of [`TMEM_RULES`] concerns, indexed by [`TmemRule`].
const TMEM_FIELDS: [TmemField; 12] = {
    use TmemField as F;
    [
        F::Lane,
        F::Column,
        F::Lane,
        F::NCols,
        F::NCols,
        F::Shape,
        F::Shape,
        F::Num,
        F::Num,
        F::Multicast,
        F::Multicast,
        F::Lane,
    ]
};

impl TmemError {
    /// The rule this error breaks.
    #[must_use]
    pub const fn rule(&self) -> TmemRule {
        match self {
            TmemError::LaneOutOfRange { .. } => TmemRule::LaneOutOfRange,
            TmemError::ColumnOutOfRange { .. } => TmemRule::ColumnOutOfRange,
            TmemError::LaneNotInWarpQuadrant { .. } => TmemRule::LaneNotInWarpQuadrant,
            TmemError::NColsOutOfRange { .. } => TmemRule::NColsOutOfRange,
            TmemError::NColsNotPowerOfTwo { .. } => TmemRule::NColsNotPowerOfTwo,
            TmemError::UnknownShape { .. } => TmemRule::UnknownShape,
            TmemError::ShapeOfOtherOp { .. } => TmemRule::ShapeOfOtherOp,
            TmemError::InvalidNum { .. } => TmemRule::InvalidNum,
            TmemError::NumTooLargeForShape { .. } => TmemRule::NumTooLargeForShape,
            TmemError::UnknownMulticast => TmemRule::UnknownMulticast,
            TmemError::CpMulticastMismatch { .. } => TmemRule::CpMulticastMismatch,
            TmemError::ShiftLaneNotAligned { .. } => TmemRule::ShiftLaneNotAligned,
        }
    }

    /// The field the error is about.
    #[must_use]
    pub const fn tmem_field(&self) -> TmemField {
        self.rule().field()
    }
}

impl fmt::Display for TmemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TmemError::LaneOutOfRange { lane } => write!(
                f,
                "lane {lane} ({lane:#x}) is outside Tensor Memory: a CTA has lanes 0-{}",
                TMEM_LANES - 1
            ),
            TmemError::ColumnOutOfRange { column } => write!(
                f,
                "column {column} ({column:#x}) is outside Tensor Memory: a CTA has columns 0-{}",
                TMEM_COLUMNS - 1
            ),
            TmemError::LaneNotInWarpQuadrant { lane, warp } => {
                let first = warp_first_lane(warp);
                write!(
                    f,
                    "warp {warp} (warp {} of its warpgroup) can access only lanes {first}-{}, \
                     not lane {lane}",
                    warp % 4,
                    first + LANES_PER_WARP - 1
                )
            }
            TmemError::NColsOutOfRange { n_cols } => write!(
                f,
                "nCols {n_cols} is out of range: the number of columns to allocate must be \
                 from 32 to 512"
            ),
            TmemError::NColsNotPowerOfTwo { n_cols } => write!(
                f,
                "nCols {n_cols} is not a power of two: allocate 32, 64, 128, 256 or 512 columns"
            ),
            TmemError::UnknownShape { op } => match op {
                TmemOp::LdSt => f.write_str(
                    "unknown tcgen05.ld/st shape (expected .16x64b, .16x128b, .16x256b, \
                     .16x32bx2 or .32x32b)",
                ),
                TmemOp::Cp => f.write_str(
                    "unknown tcgen05.cp shape (expected .128x256b, .4x256b, .128x128b, \
                     .64x128b or .32x128b)",
                ),
                TmemOp::Shift => f.write_str(
                    "unknown tcgen05.shift shape (its only shape is the implicit .31x256b)",
                ),
            },
            TmemError::ShapeOfOtherOp { shape, wanted } => match shape {
                DataMovementShape::Shift(s) => write!(
                    f,
                    "{s} is the implicit shape of tcgen05.shift, not a {wanted} shape"
                ),
                other => write!(f, "{other} is a {} shape, not a {wanted} shape", other.op()),
            },
            TmemError::InvalidNum { num } => write!(
                f,
                ".num .x{num} is invalid: .num must be .x1, .x2, .x4, .x8, .x16, .x32, .x64 \
                 or .x128"
            ),
            TmemError::NumTooLargeForShape { shape, num } => write!(
                f,
                "shape {shape} takes .num up to {}: {num} would need {} registers per thread \
                 (at most {MAX_REGISTERS_PER_THREAD})",
                shape.max_num(),
                shape.registers_per_num() as u32 * num.count() as u32
            ),
            TmemError::UnknownMulticast => f.write_str(
                "unknown tcgen05.cp multicast qualifier (expected .warpx2::02_13, \
                 .warpx2::01_23 or .warpx4)",
            ),
            TmemError::CpMulticastMismatch { shape, multicast } => match shape {
                CpShape::S64x128b => write!(
                    f,
                    "shape .64x128b requires .warpx2::02_13 or .warpx2::01_23, not {multicast}"
                ),
                CpShape::S32x128b => {
                    write!(f, "shape .32x128b requires .warpx4, not {multicast}")
                }
                _ => write!(
                    f,
                    "shape {shape} takes no .multicast qualifier, not {multicast}"
                ),
            },
            TmemError::ShiftLaneNotAligned { lane } => write!(
                f,
                "the lane of a tcgen05.shift address must be a multiple of 32, not {lane}"
            ),
        }
    }
}

impl Diagnostic for TmemError {
    fn field(&self) -> &'static str {
        self.tmem_field().name()
    }

    fn value(&self) -> u64 {
        match *self {
            TmemError::LaneOutOfRange { lane } => lane,
            TmemError::ColumnOutOfRange { column } => column,
            TmemError::LaneNotInWarpQuadrant { lane, .. }
            | TmemError::ShiftLaneNotAligned { lane } => lane as u64,
            TmemError::NColsOutOfRange { n_cols } | TmemError::NColsNotPowerOfTwo { n_cols } => {
                n_cols as u64
            }
            TmemError::UnknownShape { .. }
            | TmemError::ShapeOfOtherOp { .. }
            | TmemError::UnknownMulticast => 0,
            TmemError::InvalidNum { num } => num as u64,
            TmemError::NumTooLargeForShape { num, .. } => num.count() as u64,
            TmemError::CpMulticastMismatch { multicast, .. } => multicast.code() as u64,
        }
    }

    fn source(&self) -> Source {
        self.rule().row().fixed_source(Source::PtxSection("9.7.16"))
    }

    fn severity(&self) -> Severity {
        self.rule().row().severity
    }

    fn rule_id(&self) -> Option<&'static str> {
        Some(self.rule().id())
    }
}

impl core::error::Error for TmemError {}

#[cfg(test)]
mod rule_tests {
    use super::super::shift::ShiftShape;
    use super::*;
    use crate::diagnostic::check_rule_table;
    use std::vec::Vec;

    #[test]
    fn every_tmem_rule_has_one_row_that_says_what_the_rule_said() {
        let rows: Vec<Rule> = TMEM_RULES.to_vec();
        let sec = Source::PtxSection;
        let e = Severity::Error;
        check_rule_table(
            "tmem",
            &rows,
            &[
                (
                    TmemError::LaneOutOfRange { lane: 128 },
                    "lane",
                    Source::Decision(24),
                    e,
                ),
                (
                    TmemError::ColumnOutOfRange { column: 512 },
                    "column",
                    Source::Decision(24),
                    e,
                ),
                (
                    TmemError::LaneNotInWarpQuadrant { lane: 40, warp: 0 },
                    "lane",
                    sec("9.7.16.8.1"),
                    e,
                ),
                (
                    TmemError::NColsOutOfRange { n_cols: 16 },
                    "n_cols",
                    sec("9.7.16.7.1"),
                    e,
                ),
                (
                    TmemError::NColsNotPowerOfTwo { n_cols: 48 },
                    "n_cols",
                    sec("9.7.16.7.1"),
                    e,
                ),
                (
                    TmemError::UnknownShape { op: TmemOp::Cp },
                    "shape",
                    sec("9.7.16.2.3"),
                    e,
                ),
                (
                    TmemError::ShapeOfOtherOp {
                        shape: DataMovementShape::Shift(ShiftShape),
                        wanted: TmemOp::Cp,
                    },
                    "shape",
                    Source::Decision(23),
                    e,
                ),
                (
                    TmemError::InvalidNum { num: 3 },
                    "num",
                    sec("9.7.16.8.3"),
                    e,
                ),
                (
                    TmemError::NumTooLargeForShape {
                        shape: LdStShape::S16x256b,
                        num: Num::X128,
                    },
                    "num",
                    Source::PtxTable(49),
                    e,
                ),
                (
                    TmemError::UnknownMulticast,
                    "multicast",
                    sec("9.7.16.9.2"),
                    e,
                ),
                (
                    TmemError::CpMulticastMismatch {
                        shape: CpShape::S32x128b,
                        multicast: CpMulticast::None,
                    },
                    "multicast",
                    Source::Decision(23),
                    e,
                ),
                (
                    TmemError::ShiftLaneNotAligned { lane: 3 },
                    "lane",
                    sec("9.7.16.9.3"),
                    e,
                ),
            ],
        );
    }
}
