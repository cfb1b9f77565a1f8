//! [`ZmaskError`]: a problem of a zero-column mask descriptor, in PTX wording.

use super::{sub_mask_count, ZmaskField, MAX_COLUMN_SHIFT};
use crate::diagnostic::Rule;
use crate::diagnostic::{Diagnostic, Severity, Source};
use crate::mma::MaxShift;
use core::fmt;

/// A problem of a zero-column mask descriptor, alone or in an MMA (Table 45; rules.md
/// R16, R19-R22); its source and severity are those of its rule's row ([`ZmaskError::rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ZmaskError {
    /// A reserved bit is set: 36-38 (Table 45) or 62-63 (rules.md R22). Error.
    ReservedBit {
        /// The bit number.
        bit: u8,
    },
    /// The column shift is above Table 45's maximum: 16 for M = 32, 32 otherwise. Error.
    ColumnShift {
        /// The shift.
        shift: u8,
        /// The maximum that applies (32 when M is not known).
        max: u8,
    },
    /// The column shift is above the instruction descriptor's maximum shift (bits 30-31 of
    /// Table 42; rules.md R22). Error.
    ColumnShiftAboveMaxShift {
        /// The shift.
        shift: u8,
        /// The instruction descriptor's maximum shift.
        max_shift: MaxShift,
    },
    /// M is not 32, 64 or 128, the M values of Table 45 (and of `.ws`, rules.md R16). Error.
    M {
        /// The M given.
        m: u16,
    },
    /// N is not 64, 128 or 256, the N values of `tcgen05.mma.ws` (Table 39; rules.md R16).
    /// Error.
    N {
        /// The N given.
        n: u16,
    },
    /// N is 0, above 256, or does not split into whole sub-masks for M (rules.md R21).
    /// Error; only the mask generators report it.
    MaskWidth {
        /// The N given.
        n: u16,
        /// The M given.
        m: u16,
    },
    /// A start count is set for a sub-mask that M does not use; the hardware ignores it
    /// (Table 45's "Start Column used"). Warning.
    UnusedStartCount {
        /// The sub-mask.
        sub_mask: u8,
        /// The start count.
        value: u8,
        /// The M given.
        m: u16,
    },
    /// A first span is set for a sub-mask that M does not use; the hardware ignores it
    /// (Table 45's "First Span used"). Warning.
    UnusedFirstSpan {
        /// The sub-mask.
        sub_mask: u8,
        /// The M given.
        m: u16,
    },
    /// A start count skips the whole first run of its sub-mask; no PTX example covers this and
    /// the pattern is continued periodically (rules.md R20). Warning.
    StartCountPastFirstRun {
        /// The sub-mask.
        sub_mask: u8,
        /// The start count.
        start_count: u8,
        /// The length of the first run (`skip_span + 1` or `use_span + 1`).
        first_run: u16,
    },
}

/// The rules of the zero-column mask descriptor, one per [`ZmaskError`] variant (two for
/// [`ZmaskError::ReservedBit`], whose bits come from two sources), each with one row
/// ([`ZmaskRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum ZmaskRule {
    /// [`ZmaskError::ReservedBit`] for bits 36-38 (Table 45).
    ReservedBit,
    /// [`ZmaskError::ReservedBit`] for bits 62-63 (rules.md R22).
    ReservedHighBit,
    /// [`ZmaskError::ColumnShift`].
    ColumnShift,
    /// [`ZmaskError::ColumnShiftAboveMaxShift`].
    ColumnShiftAboveMaxShift,
    /// [`ZmaskError::M`].
    M,
    /// [`ZmaskError::N`].
    N,
    /// [`ZmaskError::MaskWidth`].
    MaskWidth,
    /// [`ZmaskError::UnusedStartCount`].
    UnusedStartCount,
    /// [`ZmaskError::UnusedFirstSpan`].
    UnusedFirstSpan,
    /// [`ZmaskError::StartCountPastFirstRun`].
    StartCountPastFirstRun,
}

impl ZmaskRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &ZMASK_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"zmask.column_shift"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

const WARNING: Severity = Severity::Warning;
const ERROR: Severity = Severity::Error;

/// Every rule of the zero-column mask descriptor, indexed by [`ZmaskRule`].
pub(crate) const ZMASK_RULES: [Rule; 10] = [
    Rule::fixed("zmask.reserved_bit", Source::PtxTable(45), ERROR,
        "Bits 36-38 of the zero-column mask descriptor are 0."),
    Rule::fixed("zmask.reserved_high_bit", Source::Decision(22), ERROR,
        "Bits 62-63 of the zero-column mask descriptor are 0."),
    Rule::fixed("zmask.column_shift", Source::PtxTable(45), ERROR,
        "The column shift is at most 16 for M = 32 and at most 32 otherwise."),
    Rule::fixed("zmask.column_shift_above_max_shift", Source::Decision(22), ERROR,
        "The column shift is at most the instruction descriptor's maximum shift."),
    Rule::fixed("zmask.m", Source::PtxTable(45), ERROR,
        "A zero-column mask is for M = 32, 64 or 128."),
    Rule::fixed("zmask.n", Source::Decision(16), ERROR,
        "The N of tcgen05.mma.ws is 64, 128 or 256."),
    Rule::fixed("zmask.mask_width", Source::Decision(21), ERROR,
        "N is 1 to 256 and splits into whole sub-masks for M."),
    Rule::fixed("zmask.unused_start_count", Source::PtxTable(45), WARNING,
        "A start count of a sub-mask that M does not use is 0, as the hardware ignores it."),
    Rule::fixed("zmask.unused_first_span", Source::PtxTable(45), WARNING,
        "A first span of a sub-mask that M does not use is 0, as the hardware ignores it."),
    Rule::fixed("zmask.start_count_past_first_run", Source::Decision(20), WARNING,
        "A start count stays within the first run of its sub-mask, the case the PTX examples cover."),
];

/// The field each rule of [`ZMASK_RULES`] concerns (`bit N`, `start_count_i` and `first_span_i`
/// name the bit or sub-mask of the value), indexed by [`ZmaskRule`].
const ZMASK_FIELDS: [&str; 10] = [
    "bit N",
    "bit N",
    "column_shift",
    "column_shift",
    "m",
    "n",
    "n",
    "start_count_i",
    "first_span_i",
    "start_count_i",
];

impl ZmaskError {
    /// The rule this error breaks.
    #[must_use]
    pub const fn rule(&self) -> ZmaskRule {
        match self {
            ZmaskError::ReservedBit { bit } if *bit >= 62 => ZmaskRule::ReservedHighBit,
            ZmaskError::ReservedBit { .. } => ZmaskRule::ReservedBit,
            ZmaskError::ColumnShift { .. } => ZmaskRule::ColumnShift,
            ZmaskError::ColumnShiftAboveMaxShift { .. } => ZmaskRule::ColumnShiftAboveMaxShift,
            ZmaskError::M { .. } => ZmaskRule::M,
            ZmaskError::N { .. } => ZmaskRule::N,
            ZmaskError::MaskWidth { .. } => ZmaskRule::MaskWidth,
            ZmaskError::UnusedStartCount { .. } => ZmaskRule::UnusedStartCount,
            ZmaskError::UnusedFirstSpan { .. } => ZmaskRule::UnusedFirstSpan,
            ZmaskError::StartCountPastFirstRun { .. } => ZmaskRule::StartCountPastFirstRun,
        }
    }

    /// True for errors, false for warnings (the `const` form of [`Diagnostic::severity`]).
    #[must_use]
    pub const fn is_error(&self) -> bool {
        matches!(self.rule().row().severity, Severity::Error)
    }
}

impl fmt::Display for ZmaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ZmaskError::ReservedBit { bit } => write!(
                f,
                "reserved bit {bit} of the zero-column mask descriptor is set (bits 36-38 and 62-63 must be 0)"
            ),
            ZmaskError::ColumnShift { shift, max } => {
                if max < MAX_COLUMN_SHIFT {
                    write!(f, "column shift {shift} is above the maximum shift amount {max} for M = 32")
                } else {
                    write!(f, "column shift {shift} is above the maximum shift amount {max}")
                }
            }
            ZmaskError::ColumnShiftAboveMaxShift { shift, max_shift } => write!(
                f,
                "column shift {shift} is above the instruction descriptor's maximum shift {}",
                max_shift.rows()
            ),
            ZmaskError::M { m } => write!(
                f,
                "M = {m} has no zero-column mask: it must be 32, 64 or 128"
            ),
            ZmaskError::N { n } => write!(
                f,
                "N = {n} is not an N of tcgen05.mma.ws: it must be 64, 128 or 256"
            ),
            ZmaskError::MaskWidth { n, m } => {
                let k = sub_mask_count(m).unwrap_or(1);
                write!(
                    f,
                    "N = {n} does not split into {k} sub-mask(s) of whole columns for M = {m} (N must be 1 to 256 and a multiple of {k})"
                )
            }
            ZmaskError::UnusedStartCount { sub_mask, value, m } => write!(
                f,
                "start count {sub_mask} = {value} is ignored for M = {m}, which does not use sub-mask {sub_mask}"
            ),
            ZmaskError::UnusedFirstSpan { sub_mask, m } => write!(
                f,
                "first span {sub_mask} = 1 is ignored for M = {m}, which does not use sub-mask {sub_mask}"
            ),
            ZmaskError::StartCountPastFirstRun {
                sub_mask,
                start_count,
                first_run,
            } => write!(
                f,
                "start count {sub_mask} = {start_count} skips the whole first run of {first_run} column(s); no PTX example covers this, so the pattern is continued periodically"
            ),
        }
    }
}

impl Diagnostic for ZmaskError {
    fn field(&self) -> &'static str {
        match *self {
            ZmaskError::ReservedBit { bit } => match bit {
                36 => "bit 36",
                37 => "bit 37",
                38 => "bit 38",
                62 => "bit 62",
                63 => "bit 63",
                _ => "reserved",
            },
            ZmaskError::UnusedStartCount { sub_mask, .. }
            | ZmaskError::StartCountPastFirstRun { sub_mask, .. } => {
                ZmaskField::start_count(sub_mask as usize).name()
            }
            ZmaskError::UnusedFirstSpan { sub_mask, .. } => {
                ZmaskField::first_span(sub_mask as usize).name()
            }
            _ => ZMASK_FIELDS[self.rule() as usize],
        }
    }

    fn value(&self) -> u64 {
        match *self {
            ZmaskError::ReservedBit { .. } | ZmaskError::UnusedFirstSpan { .. } => 1,
            ZmaskError::ColumnShift { shift, .. }
            | ZmaskError::ColumnShiftAboveMaxShift { shift, .. } => shift as u64,
            ZmaskError::M { m } => m as u64,
            ZmaskError::N { n } | ZmaskError::MaskWidth { n, .. } => n as u64,
            ZmaskError::UnusedStartCount { value, .. } => value as u64,
            ZmaskError::StartCountPastFirstRun { start_count, .. } => start_count as u64,
        }
    }

    fn source(&self) -> Source {
        self.rule().row().fixed_source(Source::PtxTable(45))
    }

    fn severity(&self) -> Severity {
        self.rule().row().severity
    }

    fn rule_id(&self) -> Option<&'static str> {
        Some(self.rule().id())
    }
}

impl core::error::Error for ZmaskError {}

#[cfg(test)]
mod rule_tests {
    use super::*;
    use crate::diagnostic::check_rule_table;
    use std::vec::Vec;

    #[test]
    fn every_zmask_rule_has_one_row_that_says_what_the_rule_said() {
        let rows: Vec<Rule> = ZMASK_RULES.to_vec();
        let (e, w) = (Severity::Error, Severity::Warning);
        let t45 = Source::PtxTable(45);
        check_rule_table(
            "zmask",
            &rows,
            &[
                (ZmaskError::ReservedBit { bit: 37 }, "bit 37", t45, e),
                (
                    ZmaskError::ReservedBit { bit: 63 },
                    "bit 63",
                    Source::Decision(22),
                    e,
                ),
                (
                    ZmaskError::ColumnShift { shift: 20, max: 16 },
                    "column_shift",
                    t45,
                    e,
                ),
                (
                    ZmaskError::ColumnShiftAboveMaxShift {
                        shift: 9,
                        max_shift: MaxShift::Rows8,
                    },
                    "column_shift",
                    Source::Decision(22),
                    e,
                ),
                (ZmaskError::M { m: 256 }, "m", t45, e),
                (ZmaskError::N { n: 8 }, "n", Source::Decision(16), e),
                (
                    ZmaskError::MaskWidth { n: 0, m: 64 },
                    "n",
                    Source::Decision(21),
                    e,
                ),
                (
                    ZmaskError::UnusedStartCount {
                        sub_mask: 3,
                        value: 1,
                        m: 32,
                    },
                    "start_count_3",
                    t45,
                    w,
                ),
                (
                    ZmaskError::UnusedFirstSpan { sub_mask: 2, m: 64 },
                    "first_span_2",
                    t45,
                    w,
                ),
                (
                    ZmaskError::StartCountPastFirstRun {
                        sub_mask: 0,
                        start_count: 9,
                        first_run: 4,
                    },
                    "start_count_0",
                    Source::Decision(20),
                    w,
                ),
            ],
        );
        assert!(!ZmaskError::UnusedFirstSpan { sub_mask: 2, m: 64 }.is_error());
        assert!(ZmaskError::M { m: 256 }.is_error());
    }
}
