//! [`ZmaskError`]: a problem of a zero-column mask descriptor, in PTX wording.

use super::*;

/// A problem of a zero-column mask descriptor, alone or in an MMA (Table 45; decisions.md
/// R16, R19-R22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ZmaskError {
    /// A reserved bit is set: 36-38 (Table 45) or 62-63 (decisions.md R22). Error.
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
    /// Table 42; decisions.md R22). Error.
    ColumnShiftAboveMaxShift {
        /// The shift.
        shift: u8,
        /// The instruction descriptor's maximum shift.
        max_shift: MaxShift,
    },
    /// M is not 32, 64 or 128, the M values of Table 45 (and of `.ws`, decisions.md R16). Error.
    M {
        /// The M given.
        m: u16,
    },
    /// N is not 64, 128 or 256, the N values of `tcgen05.mma.ws` (Table 39; decisions.md R16).
    /// Error.
    N {
        /// The N given.
        n: u16,
    },
    /// N is 0, above 256, or does not split into whole sub-masks for M (decisions.md R21).
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
    /// the pattern is continued periodically (decisions.md R20). Warning.
    StartCountPastFirstRun {
        /// The sub-mask.
        sub_mask: u8,
        /// The start count.
        start_count: u8,
        /// The length of the first run (`skip_span + 1` or `use_span + 1`).
        first_run: u16,
    },
}

impl ZmaskError {
    /// True for errors, false for warnings (the `const` form of [`Diagnostic::severity`]).
    #[must_use]
    pub const fn is_error(&self) -> bool {
        !matches!(
            self,
            ZmaskError::UnusedStartCount { .. }
                | ZmaskError::UnusedFirstSpan { .. }
                | ZmaskError::StartCountPastFirstRun { .. }
        )
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
            ZmaskError::ColumnShift { .. } | ZmaskError::ColumnShiftAboveMaxShift { .. } => {
                "column_shift"
            }
            ZmaskError::M { .. } => "m",
            ZmaskError::N { .. } | ZmaskError::MaskWidth { .. } => "n",
            ZmaskError::UnusedStartCount { sub_mask, .. }
            | ZmaskError::StartCountPastFirstRun { sub_mask, .. } => {
                ZmaskField::start_count(sub_mask as usize).name()
            }
            ZmaskError::UnusedFirstSpan { sub_mask, .. } => {
                ZmaskField::first_span(sub_mask as usize).name()
            }
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
        match *self {
            ZmaskError::ReservedBit { bit } => {
                if bit >= 62 {
                    Source::Decision(22)
                } else {
                    Source::PtxTable(45)
                }
            }
            ZmaskError::ColumnShift { .. }
            | ZmaskError::M { .. }
            | ZmaskError::UnusedStartCount { .. }
            | ZmaskError::UnusedFirstSpan { .. } => Source::PtxTable(45),
            ZmaskError::ColumnShiftAboveMaxShift { .. } => Source::Decision(22),
            ZmaskError::N { .. } => Source::Decision(16),
            ZmaskError::MaskWidth { .. } => Source::Decision(21),
            ZmaskError::StartCountPastFirstRun { .. } => Source::Decision(20),
        }
    }

    fn severity(&self) -> Severity {
        if self.is_error() {
            Severity::Error
        } else {
            Severity::Warning
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ZmaskError {}
