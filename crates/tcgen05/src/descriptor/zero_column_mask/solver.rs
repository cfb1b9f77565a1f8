//! [`solve`]: descriptor fields that generate a wanted column mask.

use super::bitset::ColumnMask;
use super::error::ZmaskError;
use super::{max_column_shift, sub_mask_width, ZmaskFields};
use crate::diagnostic::Rule;
use crate::diagnostic::{Diagnostic, Severity, Source};
use crate::mma::MaxShift;
use core::fmt;

/// What [`solve`] may choose besides the pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SolveOptions {
    /// The column shift to put in the result (it does not change the mask). Default 0.
    pub column_shift: u8,
    /// The instruction descriptor's maximum shift, when known: the column shift must not exceed
    /// it (rules.md R22).
    pub max_shift: Option<MaxShift>,
}

impl SolveOptions {
    /// Column shift 0, maximum shift unknown.
    pub const DEFAULT: SolveOptions = SolveOptions {
        column_shift: 0,
        max_shift: None,
    };

    /// These options with column shift `shift`.
    #[must_use]
    pub const fn with_column_shift(self, shift: u8) -> SolveOptions {
        SolveOptions {
            column_shift: shift,
            ..self
        }
    }

    /// These options with the instruction descriptor's maximum shift.
    #[must_use]
    pub const fn with_max_shift(self, max_shift: MaxShift) -> SolveOptions {
        SolveOptions {
            max_shift: Some(max_shift),
            ..self
        }
    }
}

/// Why [`solve`] found no descriptor.
///
/// The last two variants are proofs that no descriptor generates the wanted mask: every run of
/// zeroed columns that does not touch a sub-mask's edge must be exactly `skip_span + 1` long,
/// every such run of used columns `use_span + 1`, and runs at the edges no longer than that
/// (rules.md R19-R21). Its source and severity are those of its rule's row
/// ([`SolveError::rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum SolveError {
    /// M is not 32, 64 or 128 (Table 45).
    M {
        /// The M given.
        m: u16,
    },
    /// N is 0, above 256, or does not split into whole sub-masks for M (rules.md R21).
    MaskWidth {
        /// The N given.
        n: u16,
        /// The M given.
        m: u16,
    },
    /// The wanted mask is not N bits wide.
    WidthMismatch {
        /// The wanted mask's width.
        width: u16,
        /// The N given.
        n: u16,
    },
    /// The requested column shift is above Table 45's maximum (16 for M = 32, 32 otherwise).
    ColumnShift {
        /// The shift asked for.
        shift: u8,
        /// The maximum for M.
        max: u8,
    },
    /// The requested column shift is above the instruction descriptor's maximum shift
    /// (rules.md R22).
    ColumnShiftAboveMaxShift {
        /// The shift asked for.
        shift: u8,
        /// The maximum shift.
        max_shift: MaxShift,
    },
    /// Two inner runs of the same kind have different lengths, but one span fixes them all.
    RunLengthsDiffer {
        /// True for runs of zeroed columns (skip span), false for used columns (use span).
        zeroed: bool,
        /// The length of the later run.
        length: u16,
        /// Its first column.
        column: u16,
        /// The length of the earlier run.
        expected: u16,
        /// Its first column.
        expected_column: u16,
    },
    /// A run at the edge of a sub-mask is longer than the inner runs of its kind.
    EdgeRunTooLong {
        /// True for runs of zeroed columns (skip span), false for used columns (use span).
        zeroed: bool,
        /// The edge run's length.
        length: u16,
        /// Its first column.
        column: u16,
        /// The length the inner runs fix.
        limit: u16,
    },
}

impl SolveError {
    /// True for the variants that prove no descriptor generates the mask (as opposed to bad
    /// arguments).
    #[must_use]
    pub const fn is_no_solution(&self) -> bool {
        matches!(
            self,
            SolveError::RunLengthsDiffer { .. } | SolveError::EdgeRunTooLong { .. }
        )
    }
}

const fn kind(zeroed: bool) -> &'static str {
    if zeroed {
        "zeroed"
    } else {
        "used"
    }
}

const fn span(zeroed: bool) -> &'static str {
    if zeroed {
        "skip span"
    } else {
        "use span"
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SolveError::M { m } => ZmaskError::M { m }.fmt(f),
            SolveError::MaskWidth { n, m } => ZmaskError::MaskWidth { n, m }.fmt(f),
            SolveError::WidthMismatch { width, n } => {
                write!(f, "the wanted mask has {width} columns but N = {n}")
            }
            SolveError::ColumnShift { shift, max } => ZmaskError::ColumnShift { shift, max }.fmt(f),
            SolveError::ColumnShiftAboveMaxShift { shift, max_shift } => {
                ZmaskError::ColumnShiftAboveMaxShift { shift, max_shift }.fmt(f)
            }
            SolveError::RunLengthsDiffer {
                zeroed,
                length,
                column,
                expected,
                expected_column,
            } => write!(
                f,
                "no zero-column mask generates this: the run of {length} {k} column(s) at column {column} differs from the run of {expected} at column {expected_column}, and one {s} fixes every inner run",
                k = kind(zeroed),
                s = span(zeroed)
            ),
            SolveError::EdgeRunTooLong {
                zeroed,
                length,
                column,
                limit,
            } => write!(
                f,
                "no zero-column mask generates this: the run of {length} {k} column(s) at column {column} is longer than the {limit} that the inner runs fix for the {s}",
                k = kind(zeroed),
                s = span(zeroed)
            ),
        }
    }
}

impl SolveError {
    /// The rule that rules out every descriptor.
    #[must_use]
    pub const fn rule(&self) -> SolveRule {
        match self {
            SolveError::M { .. } => SolveRule::M,
            SolveError::MaskWidth { .. } => SolveRule::MaskWidth,
            SolveError::WidthMismatch { .. } => SolveRule::WidthMismatch,
            SolveError::ColumnShift { .. } => SolveRule::ColumnShift,
            SolveError::ColumnShiftAboveMaxShift { .. } => SolveRule::ColumnShiftAboveMaxShift,
            SolveError::RunLengthsDiffer { .. } => SolveRule::RunLengthsDiffer,
            SolveError::EdgeRunTooLong { .. } => SolveRule::EdgeRunTooLong,
        }
    }
}

/// The rules by which [`solve`] finds no descriptor, one per [`SolveError`] variant, each with
/// one row ([`SolveRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum SolveRule {
    /// [`SolveError::M`].
    M,
    /// [`SolveError::MaskWidth`].
    MaskWidth,
    /// [`SolveError::WidthMismatch`].
    WidthMismatch,
    /// [`SolveError::ColumnShift`].
    ColumnShift,
    /// [`SolveError::ColumnShiftAboveMaxShift`].
    ColumnShiftAboveMaxShift,
    /// [`SolveError::RunLengthsDiffer`].
    RunLengthsDiffer,
    /// [`SolveError::EdgeRunTooLong`].
    EdgeRunTooLong,
}

impl SolveRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &SOLVE_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"zmask_solve.run_lengths_differ"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// Every rule by which no descriptor generates a mask, indexed by [`SolveRule`].
pub(crate) const SOLVE_RULES: [Rule; 7] = {
    const E: Severity = Severity::Error;
    [
        Rule::fixed("zmask_solve.m", Source::PtxTable(45), E,
            "A zero-column mask is for M = 32, 64 or 128."),
        Rule::fixed("zmask_solve.mask_width", Source::Decision(21), E,
            "N is 1 to 256 and splits into whole sub-masks for M."),
        Rule::fixed("zmask_solve.width_mismatch", Source::Decision(21), E,
            "The wanted mask is N bits wide."),
        Rule::fixed("zmask_solve.column_shift", Source::PtxTable(45), E,
            "The column shift is at most 16 for M = 32 and at most 32 otherwise."),
        Rule::fixed("zmask_solve.column_shift_above_max_shift", Source::Decision(22), E,
            "The column shift is at most the instruction descriptor's maximum shift."),
        Rule::fixed("zmask_solve.run_lengths_differ", Source::Decision(20), E,
            "Every inner run of zeroed columns is skip_span + 1 long and every inner run of used columns use_span + 1."),
        Rule::fixed("zmask_solve.edge_run_too_long", Source::Decision(20), E,
            "A run at the edge of a sub-mask is no longer than the inner runs of its kind."),
    ]
};

/// The field each rule of [`SOLVE_RULES`] concerns (`skip_span`
/// stands for the span of the run's kind), indexed by [`SolveRule`].
const SOLVE_FIELDS: [&str; 7] = [
    "m",
    "n",
    "n",
    "column_shift",
    "column_shift",
    "skip_span",
    "skip_span",
];

impl Diagnostic for SolveError {
    fn field(&self) -> &'static str {
        match *self {
            SolveError::RunLengthsDiffer { zeroed: false, .. }
            | SolveError::EdgeRunTooLong { zeroed: false, .. } => "use_span",
            _ => SOLVE_FIELDS[self.rule() as usize],
        }
    }

    fn value(&self) -> u64 {
        match *self {
            SolveError::M { m } => m as u64,
            SolveError::MaskWidth { n, .. } => n as u64,
            SolveError::WidthMismatch { width, .. } => width as u64,
            SolveError::ColumnShift { shift, .. }
            | SolveError::ColumnShiftAboveMaxShift { shift, .. } => shift as u64,
            SolveError::RunLengthsDiffer { length, .. }
            | SolveError::EdgeRunTooLong { length, .. } => length as u64,
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

impl core::error::Error for SolveError {}

/// Finds descriptor fields that generate `wanted`, the N-bit column mask of an MMA with this M,
/// or proves that none exist. A `const fn`, linear in N (a few hundred steps for N = 256).
///
/// The mask is cut into its sub-masks (rules.md R21) and each into maximal runs. In any
/// generated mask (R19, R20) every run of zeroed columns that touches neither edge of its
/// sub-mask is exactly `skip_span + 1` long and every such run of used columns `use_span + 1`;
/// runs at an edge are cut from a full run, so no longer. Conversely, spans satisfying that,
/// with each sub-mask's first span set to its first run's value and its start count to the part
/// of that run cut off, generate the mask. So the spans are read from the inner runs, or, when a
/// kind has none, set to the longest edge run of that kind (1 if there is none), which makes
/// every start count as small as any solution allows. An all-zero mask gives non-zero mask 0
/// with every other pattern field 0 (example 1). Start counts and first spans of sub-masks M
/// does not use are 0. The column shift is `options.column_shift` (it does not change the
/// mask).
///
/// The result always passes [`validate_for`](super::validate_for) without warnings when N is a `.ws` N.
///
/// # Errors
/// [`SolveError::M`], [`SolveError::MaskWidth`], [`SolveError::WidthMismatch`],
/// [`SolveError::ColumnShift`], [`SolveError::ColumnShiftAboveMaxShift`] for bad arguments;
/// [`SolveError::RunLengthsDiffer`] or [`SolveError::EdgeRunTooLong`] when no descriptor
/// generates the mask.
///
/// # Examples
/// ```
/// use tcgen05::zero_column_mask::{column_mask, solve, ColumnMask, SolveOptions, SolveError};
/// // Runs of 3 zeroed and 4 used columns, starting with 2 used ones (PTX example 4's mask2).
/// let wanted = ColumnMask::parse_bits("0b0000_1110_0001_1100").unwrap();
/// let f = solve(128, 16, &wanted, SolveOptions::DEFAULT).unwrap();
/// assert_eq!((f.skip_span, f.use_span, f.first_span[0], f.start_count[0]), (2, 3, false, 2));
/// assert_eq!(column_mask(&f, 128, 16).unwrap(), wanted);
///
/// let two_run_lengths = ColumnMask::parse_bits("0b0011_0001_1100_0111").unwrap();
/// assert!(matches!(
///     solve(128, 16, &two_run_lengths, SolveOptions::DEFAULT),
///     Err(SolveError::RunLengthsDiffer { zeroed: true, .. })
/// ));
/// ```
pub const fn solve(
    m: u16,
    n: u16,
    wanted: &ColumnMask,
    options: SolveOptions,
) -> Result<ZmaskFields, SolveError> {
    let width = match sub_mask_width(m, n) {
        Ok(w) => w,
        Err(ZmaskError::M { m }) => return Err(SolveError::M { m }),
        Err(_) => return Err(SolveError::MaskWidth { n, m }),
    };
    if wanted.width != n {
        return Err(SolveError::WidthMismatch {
            width: wanted.width,
            n,
        });
    }
    let shift = options.column_shift;
    let limit = max_column_shift(m);
    if shift > limit {
        return Err(SolveError::ColumnShift { shift, max: limit });
    }
    if let Some(ms) = options.max_shift {
        if shift > ms.rows() {
            return Err(SolveError::ColumnShiftAboveMaxShift {
                shift,
                max_shift: ms,
            });
        }
    }
    let mut out = ZmaskFields::DISABLED;
    out.column_shift = shift;
    if wanted.is_zero() {
        return Ok(out);
    }

    // Index 1: runs of zeroed columns (ones); index 0: runs of used columns (zeros).
    // `inner[k]` is the length of the first inner run of kind k (0 = none yet), `edge[k]` the
    // longest edge run.
    let mut inner = [0u16; 2];
    let mut inner_col = [0u16; 2];
    let mut edge = [0u16; 2];
    let mut edge_col = [0u16; 2];
    let mut first_value = [false; 4];
    let mut first_len = [0u16; 4];
    let mut single = [false; 4];

    let count = n / width;
    let mut i = 0u16;
    while i < count && i < 4 {
        let lo = i * width;
        let hi = lo + width;
        let mut p = lo;
        while p < hi {
            let v = wanted.bit(p);
            let start = p;
            while p < hi && wanted.bit(p) == v {
                p += 1;
            }
            let len = p - start;
            let k = v as usize;
            let first = start == lo;
            let last = p == hi;
            if first {
                first_value[i as usize] = v;
                first_len[i as usize] = len;
                single[i as usize] = last;
            }
            if !first && !last {
                if inner[k] == 0 {
                    inner[k] = len;
                    inner_col[k] = start;
                } else if inner[k] != len {
                    return Err(SolveError::RunLengthsDiffer {
                        zeroed: v,
                        length: len,
                        column: start,
                        expected: inner[k],
                        expected_column: inner_col[k],
                    });
                }
            } else if len > edge[k] {
                edge[k] = len;
                edge_col[k] = start;
            }
        }
        i += 1;
    }

    let mut k = 2;
    while k > 0 {
        k -= 1;
        if inner[k] != 0 && edge[k] > inner[k] {
            return Err(SolveError::EdgeRunTooLong {
                zeroed: k == 1,
                length: edge[k],
                column: edge_col[k],
                limit: inner[k],
            });
        }
    }
    let ones = run_length(inner[1], edge[1]);
    let zeros = run_length(inner[0], edge[0]);
    out.non_zero_mask = true;
    out.skip_span = (ones - 1) as u8;
    out.use_span = (zeros - 1) as u8;
    let mut i = 0;
    while i < count as usize && i < 4 {
        let v = first_value[i];
        out.first_span[i] = v;
        if !single[i] {
            let full = if v { ones } else { zeros };
            out.start_count[i] = full.saturating_sub(first_len[i]) as u8;
        }
        i += 1;
    }
    Ok(out)
}

/// The run length a span must give: the inner runs' length, else the longest edge run, else 1.
const fn run_length(inner: u16, edge: u16) -> u16 {
    if inner != 0 {
        inner
    } else if edge != 0 {
        edge
    } else {
        1
    }
}

#[cfg(test)]
mod rule_tests {
    use super::*;
    use crate::diagnostic::check_rule_table;
    use std::vec::Vec;

    #[test]
    fn every_solve_rule_has_one_row_that_says_what_the_rule_said() {
        let rows: Vec<Rule> = SOLVE_RULES.to_vec();
        let e = Severity::Error;
        let run = |zeroed| SolveError::RunLengthsDiffer {
            zeroed,
            length: 3,
            column: 8,
            expected: 2,
            expected_column: 0,
        };
        let edge = |zeroed| SolveError::EdgeRunTooLong {
            zeroed,
            length: 5,
            column: 0,
            limit: 2,
        };
        check_rule_table(
            "zmask_solve",
            &rows,
            &[
                (SolveError::M { m: 256 }, "m", Source::PtxTable(45), e),
                (
                    SolveError::MaskWidth { n: 0, m: 64 },
                    "n",
                    Source::Decision(21),
                    e,
                ),
                (
                    SolveError::WidthMismatch { width: 8, n: 16 },
                    "n",
                    Source::Decision(21),
                    e,
                ),
                (
                    SolveError::ColumnShift { shift: 40, max: 32 },
                    "column_shift",
                    Source::PtxTable(45),
                    e,
                ),
                (
                    SolveError::ColumnShiftAboveMaxShift {
                        shift: 9,
                        max_shift: MaxShift::Rows8,
                    },
                    "column_shift",
                    Source::Decision(22),
                    e,
                ),
                (run(true), "skip_span", Source::Decision(20), e),
                (run(false), "use_span", Source::Decision(20), e),
                (edge(true), "skip_span", Source::Decision(20), e),
                (edge(false), "use_span", Source::Decision(20), e),
            ],
        );
    }
}
