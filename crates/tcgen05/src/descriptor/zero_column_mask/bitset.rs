//! [`ColumnMask`]: the fixed-size bitset of up to 256 columns that a pattern generates, with
//! its iterator and its errors.

use crate::diagnostic::{Diagnostic, Severity, Source};
use crate::diagnostic::{Rule, RuleSource};
use core::fmt;

/// A column mask of up to 256 bits (N is at most 256): bit `j` set means column `j` is zeroed.
///
/// Bits at and above [`ColumnMask::width`] are always zero, so `==` compares masks exactly.
/// Printed (`Display`) most significant bit first, exactly `width` characters of `0`/`1`, as
/// the PTX examples print them; `{:x}` prints hexadecimal.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ColumnMask {
    pub(super) words: [u64; 4],
    pub(super) width: u16,
}

impl ColumnMask {
    /// The widest mask: N = 256.
    pub const MAX_WIDTH: u16 = 256;

    /// A mask of width 0.
    pub const EMPTY: ColumnMask = ColumnMask {
        words: [0; 4],
        width: 0,
    };

    /// An all-zero mask, `width` clamped to 256.
    pub(super) const fn blank(width: u16) -> ColumnMask {
        ColumnMask {
            words: [0; 4],
            width: if width > Self::MAX_WIDTH {
                Self::MAX_WIDTH
            } else {
                width
            },
        }
    }

    /// An all-zero mask of `width` columns (nothing zeroed).
    ///
    /// # Errors
    /// [`ColumnMaskError::WidthTooLarge`] above 256.
    pub const fn zeros(width: u16) -> Result<ColumnMask, ColumnMaskError> {
        if width > Self::MAX_WIDTH {
            return Err(ColumnMaskError::WidthTooLarge { width });
        }
        Ok(ColumnMask::blank(width))
    }

    /// A mask of `width` columns, all set (every column zeroed).
    ///
    /// # Errors
    /// [`ColumnMaskError::WidthTooLarge`] above 256.
    pub const fn all_ones(width: u16) -> Result<ColumnMask, ColumnMaskError> {
        if width > Self::MAX_WIDTH {
            return Err(ColumnMaskError::WidthTooLarge { width });
        }
        let mut m = ColumnMask::blank(width);
        m.set_range(0, width);
        Ok(m)
    }

    /// A mask from four 64-bit words, column 0 in bit 0 of `words[0]`.
    ///
    /// # Errors
    /// [`ColumnMaskError::WidthTooLarge`] above 256; [`ColumnMaskError::BitBeyondWidth`] when a
    /// bit at or above `width` is set.
    pub const fn from_words(words: [u64; 4], width: u16) -> Result<ColumnMask, ColumnMaskError> {
        if width > Self::MAX_WIDTH {
            return Err(ColumnMaskError::WidthTooLarge { width });
        }
        let m = ColumnMask { words, width };
        match m.highest_one_from(width) {
            Some(bit) => Err(ColumnMaskError::BitBeyondWidth { bit, width }),
            None => Ok(m),
        }
    }

    /// A mask of at most 128 columns from an integer, column 0 in bit 0.
    ///
    /// # Errors
    /// As [`ColumnMask::from_words`].
    pub const fn from_u128(value: u128, width: u16) -> Result<ColumnMask, ColumnMaskError> {
        ColumnMask::from_words([value as u64, (value >> 64) as u64, 0, 0], width)
    }

    /// The number of columns (N, or a sub-mask's width).
    #[must_use]
    pub const fn width(&self) -> u16 {
        self.width
    }

    /// The four 64-bit words, column 0 in bit 0 of the first.
    #[must_use]
    pub const fn words(&self) -> [u64; 4] {
        self.words
    }

    /// True when column `col` is zeroed; false at and beyond the width.
    #[must_use]
    pub const fn bit(&self, col: u16) -> bool {
        if col >= self.width {
            return false;
        }
        (self.words[(col >> 6) as usize] >> (col & 63)) & 1 != 0
    }

    /// A copy with column `col` set to `value`.
    ///
    /// # Errors
    /// [`ColumnMaskError::ColumnOutOfRange`] when `col` is not below the width.
    pub const fn with_bit(self, col: u16, value: bool) -> Result<ColumnMask, ColumnMaskError> {
        if col >= self.width {
            return Err(ColumnMaskError::ColumnOutOfRange {
                column: col,
                width: self.width,
            });
        }
        let mut m = self;
        let w = (col >> 6) as usize;
        if value {
            m.words[w] |= 1u64 << (col & 63);
        } else {
            m.words[w] &= !(1u64 << (col & 63));
        }
        Ok(m)
    }

    /// The number of zeroed columns.
    #[must_use]
    pub const fn count_ones(&self) -> u16 {
        (self.words[0].count_ones()
            + self.words[1].count_ones()
            + self.words[2].count_ones()
            + self.words[3].count_ones()) as u16
    }

    /// True when no column is zeroed.
    #[must_use]
    pub const fn is_zero(&self) -> bool {
        self.words[0] | self.words[1] | self.words[2] | self.words[3] == 0
    }

    /// The lowest zeroed column at or after `from`.
    #[must_use]
    pub const fn next_one(&self, from: u16) -> Option<u16> {
        let mut col = from;
        while col < self.width {
            let w = self.words[(col >> 6) as usize] >> (col & 63);
            if w != 0 {
                let c = col + w.trailing_zeros() as u16;
                return if c < self.width { Some(c) } else { None };
            }
            col = (col | 63) + 1;
        }
        None
    }

    /// The zeroed columns, lowest first.
    #[must_use]
    pub const fn iter_ones(&self) -> Ones {
        Ones {
            mask: *self,
            next: 0,
        }
    }

    /// `width` columns of this mask starting at column `lo`.
    ///
    /// # Errors
    /// [`ColumnMaskError::ColumnOutOfRange`] when the range does not fit in the width.
    pub const fn slice(&self, lo: u16, width: u16) -> Result<ColumnMask, ColumnMaskError> {
        let end = lo as u32 + width as u32;
        if end > self.width as u32 {
            return Err(ColumnMaskError::ColumnOutOfRange {
                column: if end > u16::MAX as u32 {
                    u16::MAX
                } else {
                    end as u16
                },
                width: self.width,
            });
        }
        let mut out = ColumnMask::blank(width);
        let mut j = 0;
        while j < width {
            if self.bit(lo + j) {
                out.set_range(j, j + 1);
            }
            j += 1;
        }
        Ok(out)
    }

    /// Sets columns `lo .. hi` (both at most the width).
    pub(super) const fn set_range(&mut self, lo: u16, hi: u16) {
        let hi = if hi > self.width { self.width } else { hi };
        let mut c = lo;
        while c < hi {
            let w = (c >> 6) as usize;
            let in_word = 64 - (c & 63);
            let n = if hi - c < in_word { hi - c } else { in_word };
            let bits = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            self.words[w] |= bits << (c & 63);
            c += n;
        }
    }

    /// ORs `part` into this mask at column `offset`, dropping what falls beyond the width.
    pub(super) const fn copy_from(&mut self, part: &ColumnMask, offset: u16) {
        let mut j = 0;
        while j < part.width {
            if part.bit(j) {
                let c = offset as u32 + j as u32;
                if c < self.width as u32 {
                    self.set_range(c as u16, c as u16 + 1);
                }
            }
            j += 1;
        }
    }

    /// The highest set bit at or above `from`, if any.
    const fn highest_one_from(&self, from: u16) -> Option<u16> {
        let mut w = 4;
        while w > 0 {
            w -= 1;
            let word = self.words[w];
            if word != 0 {
                let bit = w as u16 * 64 + 63 - word.leading_zeros() as u16;
                return if bit >= from { Some(bit) } else { None };
            }
        }
        None
    }
}

/// The zeroed columns of a [`ColumnMask`], lowest first ([`ColumnMask::iter_ones`]).
#[derive(Clone, Copy, Debug)]
pub struct Ones {
    mask: ColumnMask,
    next: u16,
}

impl Iterator for Ones {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        match self.mask.next_one(self.next) {
            Some(c) => {
                self.next = c + 1;
                Some(c)
            }
            None => {
                self.next = self.mask.width;
                None
            }
        }
    }
}

/// Why a [`ColumnMask`] could not be built; every variant is a row of the column-mask rules
/// ([`ColumnMaskError::row`]), all on field `mask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ColumnMaskError {
    /// More than 256 columns (N is at most 256).
    WidthTooLarge {
        /// The width asked for.
        width: u16,
    },
    /// A bit at or above the width is set.
    BitBeyondWidth {
        /// The highest such bit (256 when the value needs more than 256 bits).
        bit: u16,
        /// The width.
        width: u16,
    },
    /// A column at or beyond the width.
    ColumnOutOfRange {
        /// The column.
        column: u16,
        /// The width.
        width: u16,
    },
    /// A character that is not a digit of the base (nor `_` or a space in binary).
    BadDigit {
        /// The byte found.
        byte: u8,
    },
    /// A string without digits.
    NoDigits,
}

impl fmt::Display for ColumnMaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ColumnMaskError::WidthTooLarge { width } => {
                write!(
                    f,
                    "a column mask of {width} bits is wider than N's maximum 256"
                )
            }
            ColumnMaskError::BitBeyondWidth { bit, width } => {
                write!(f, "bit {bit} is set in a column mask of {width} bits")
            }
            ColumnMaskError::ColumnOutOfRange { column, width } => {
                write!(
                    f,
                    "column {column} is outside a column mask of {width} bits"
                )
            }
            ColumnMaskError::BadDigit { byte } => {
                write!(
                    f,
                    "unexpected character {:?} in a column mask",
                    byte as char
                )
            }
            ColumnMaskError::NoDigits => f.write_str("a column mask needs at least one digit"),
        }
    }
}

impl ColumnMaskError {
    /// The row of the rule this error breaks.
    #[must_use]
    pub const fn row(&self) -> &'static Rule {
        &COLUMN_MASK_RULES[match self {
            ColumnMaskError::WidthTooLarge { .. } => 0,
            ColumnMaskError::BitBeyondWidth { .. } => 1,
            ColumnMaskError::ColumnOutOfRange { .. } => 2,
            ColumnMaskError::BadDigit { .. } => 3,
            ColumnMaskError::NoDigits => 4,
        }]
    }
}

/// Every rule of a column mask (PTX ISA 9.7.16.4.3), in the order of the [`ColumnMaskError`]
/// variants.
pub(crate) const COLUMN_MASK_RULES: [Rule; 5] = {
    const fn rule(id: &'static str, statement: &'static str) -> Rule {
        Rule {
            id,
            source: RuleSource::Fixed(Source::PtxSection("9.7.16.4.3")),
            severity: Severity::Error,
            statement,
            message: None,
        }
    }
    [
        rule(
            "column_mask.width_too_large",
            "A column mask has at most 256 columns, N's maximum.",
        ),
        rule(
            "column_mask.bit_beyond_width",
            "No bit at or above the mask's width is set.",
        ),
        rule(
            "column_mask.column_out_of_range",
            "A column lies within the mask's width.",
        ),
        rule(
            "column_mask.bad_digit",
            "A mask is written in digits of its base, with _ or spaces between binary digits.",
        ),
        rule("column_mask.no_digits", "A mask has at least one digit."),
    ]
};

impl Diagnostic for ColumnMaskError {
    fn field(&self) -> &'static str {
        "mask"
    }
    fn value(&self) -> u64 {
        match *self {
            ColumnMaskError::WidthTooLarge { width } => width as u64,
            ColumnMaskError::BitBeyondWidth { bit, .. } => bit as u64,
            ColumnMaskError::ColumnOutOfRange { column, .. } => column as u64,
            ColumnMaskError::BadDigit { byte } => byte as u64,
            ColumnMaskError::NoDigits => 0,
        }
    }
    fn source(&self) -> Source {
        self.row().fixed_source(Source::PtxSection("9.7.16.4.3"))
    }
    fn severity(&self) -> Severity {
        self.row().severity
    }
    fn rule_id(&self) -> Option<&'static str> {
        Some(self.row().id)
    }
}

impl core::error::Error for ColumnMaskError {}

#[cfg(test)]
mod rule_tests {
    use super::*;
    use crate::diagnostic::check_rule_table;

    #[test]
    fn every_column_mask_rule_has_one_row_that_says_what_the_rule_said() {
        let s = Source::PtxSection("9.7.16.4.3");
        let e = Severity::Error;
        check_rule_table(
            "column_mask",
            &COLUMN_MASK_RULES,
            &[
                (ColumnMaskError::WidthTooLarge { width: 300 }, "mask", s, e),
                (
                    ColumnMaskError::BitBeyondWidth { bit: 9, width: 8 },
                    "mask",
                    s,
                    e,
                ),
                (
                    ColumnMaskError::ColumnOutOfRange {
                        column: 9,
                        width: 8,
                    },
                    "mask",
                    s,
                    e,
                ),
                (ColumnMaskError::BadDigit { byte: b'x' }, "mask", s, e),
                (ColumnMaskError::NoDigits, "mask", s, e),
            ],
        );
    }
}
