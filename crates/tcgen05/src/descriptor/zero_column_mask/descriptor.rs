//! The zero-column mask descriptor itself (Table 45): the validated 64-bit word, its fields'
//! Display, validation against an MMA, and the column pattern its fields generate.

use super::bitset::{ColumnMask, Ones};
use super::error::ZmaskError;
use super::{
    max_column_shift, sub_mask_count, sub_mask_width, ZmaskDiagnostics, ZmaskField, ZmaskFields,
    ZMASK_LAYOUT,
};
use crate::bits::{Role, Word};
use crate::mma::MaxShift;
use core::fmt;

/// A validated zero-column mask descriptor (PTX ISA 9.7.16.4.3, Table 45).
///
/// Always satisfies Table 45 on its own: reserved bits 36-38 and 62-63 are zero and the column
/// shift is at most 32. Rules that depend on the MMA (M, N, the instruction descriptor's maximum
/// shift) are checked by [`ZeroColumnMask::validate_for`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(transparent)]
pub struct ZeroColumnMask(u64);

/// A decoded raw value: its fields and every problem found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZmaskDecoded {
    /// The fields, read whatever the problems (reserved bits are not part of them).
    pub fields: ZmaskFields,
    /// Every problem, in bit order.
    pub diagnostics: ZmaskDiagnostics,
}

impl ZeroColumnMask {
    /// The descriptor that zeroes nothing (all bits 0).
    pub const DISABLED: ZeroColumnMask = ZeroColumnMask(0);

    /// Encodes `fields`.
    ///
    /// # Errors
    /// [`ZmaskError::ColumnShift`] when the column shift is above 32 (Table 45).
    pub const fn try_new(fields: ZmaskFields) -> Result<ZeroColumnMask, ZmaskError> {
        match first_error(&fields.validate()) {
            Some(e) => Err(e),
            None => Ok(ZeroColumnMask(fields.to_raw_unchecked())),
        }
    }

    /// Encodes `fields`, for `const` items.
    ///
    /// # Panics
    /// When [`ZeroColumnMask::try_new`] fails (at compile time in a `const`).
    ///
    /// # Examples
    /// ```
    /// use tcgen05::zero_column_mask::{ZeroColumnMask, ZmaskFields};
    /// // PTX example 2: runs of 4 used then 3 zeroed columns.
    /// const EX2: ZeroColumnMask = ZeroColumnMask::new(ZmaskFields {
    ///     non_zero_mask: true,
    ///     skip_span: 2,
    ///     use_span: 3,
    ///     ..ZmaskFields::DISABLED
    /// });
    /// assert_eq!(EX2.bits(), 0x0003_0280_0000_0000);
    /// ```
    #[must_use]
    pub const fn new(fields: ZmaskFields) -> ZeroColumnMask {
        match ZeroColumnMask::try_new(fields) {
            Ok(d) => d,
            Err(_) => panic!("invalid zero-column mask descriptor: column shift above 32"),
        }
    }

    /// Decodes and validates a raw value.
    ///
    /// # Errors
    /// The first problem [`ZeroColumnMask::decode`] reports: [`ZmaskError::ReservedBit`] or
    /// [`ZmaskError::ColumnShift`].
    pub const fn from_bits(raw: u64) -> Result<ZeroColumnMask, ZmaskError> {
        match first_error(&ZeroColumnMask::decode(raw).diagnostics) {
            Some(e) => Err(e),
            None => Ok(ZeroColumnMask(raw)),
        }
    }

    /// Wraps a raw value without checking it. [`ZeroColumnMask::bits`] returns it unchanged,
    /// reserved bits included.
    #[must_use]
    pub const fn from_bits_unchecked(raw: u64) -> ZeroColumnMask {
        ZeroColumnMask(raw)
    }

    /// The raw 64-bit value, as the `tcgen05.mma.ws` operand takes it.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The descriptor read through [`ZMASK_LAYOUT`]: each row's bits, value and meaning (the
    /// generic decoded result that the bit table and the command's output are made from).
    #[must_use]
    pub const fn word(self) -> Word<ZmaskField> {
        Word::new(ZMASK_LAYOUT, self.0)
    }

    /// The fields.
    #[must_use]
    pub const fn fields(self) -> ZmaskFields {
        ZmaskFields::from_raw(self.0)
    }

    /// Reads any 64-bit value and reports every problem it has on its own: each reserved bit
    /// set (by bit number) and a column shift above 32. Never panics.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::zero_column_mask::{ZeroColumnMask, ZmaskError};
    /// let d = ZeroColumnMask::decode(0x8000_0040_0000_0000);
    /// let errors: Vec<_> = d.diagnostics.iter().collect();
    /// assert_eq!(errors, [ZmaskError::ReservedBit { bit: 38 }, ZmaskError::ReservedBit { bit: 63 }]);
    /// ```
    #[must_use]
    pub const fn decode(raw: u64) -> ZmaskDecoded {
        let fields = ZmaskFields::from_raw(raw);
        let mut diagnostics = ZmaskDiagnostics::new();
        push_reserved_bits(&mut diagnostics, raw);
        let own = fields.validate();
        append(&mut diagnostics, &own);
        ZmaskDecoded {
            fields,
            diagnostics,
        }
    }

    /// Reads any 64-bit value and reports every problem it has in an MMA with these M, N and
    /// (when known) instruction-descriptor maximum shift: those of [`ZeroColumnMask::decode`]
    /// followed by those of [`validate_for`]. Never panics.
    #[must_use]
    pub const fn decode_for(raw: u64, m: u16, n: u16, max_shift: Option<MaxShift>) -> ZmaskDecoded {
        let fields = ZmaskFields::from_raw(raw);
        let mut diagnostics = ZmaskDiagnostics::new();
        push_reserved_bits(&mut diagnostics, raw);
        let rest = validate_for(&fields, m, n, max_shift);
        append(&mut diagnostics, &rest);
        ZmaskDecoded {
            fields,
            diagnostics,
        }
    }

    /// Every problem of this descriptor in an MMA with these M, N and maximum shift
    /// ([`validate_for`]).
    #[must_use]
    pub const fn validate_for(
        self,
        m: u16,
        n: u16,
        max_shift: Option<MaxShift>,
    ) -> ZmaskDiagnostics {
        validate_for(&self.fields(), m, n, max_shift)
    }

    /// The N-bit column mask this descriptor generates for M ([`column_mask`]).
    ///
    /// # Errors
    /// As [`column_mask`].
    pub const fn column_mask(self, m: u16, n: u16) -> Result<ColumnMask, ZmaskError> {
        column_mask(&self.fields(), m, n)
    }
}

impl fmt::Debug for ZeroColumnMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ZeroColumnMask({:#018x})", self.0)
    }
}

/// A heading, then the bit table of [`ZMASK_LAYOUT`] ([`ZeroColumnMask::word`]).
impl fmt::Display for ZeroColumnMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "zero-column mask descriptor {:#018x} (PTX ISA 9.7.16.4.3, Table 45)",
            self.0
        )?;
        write!(f, "{}", self.word())
    }
}

const fn push_reserved_bits(d: &mut ZmaskDiagnostics, raw: u64) {
    let mut i = 0;
    while i < ZMASK_LAYOUT.len() {
        let row = &ZMASK_LAYOUT[i];
        if let Role::Reserved = row.role {
            let mut b = row.lo;
            while b <= row.hi() {
                if raw & (1u64 << b) != 0 {
                    d.push(ZmaskError::ReservedBit { bit: b });
                }
                b += 1;
            }
        }
        i += 1;
    }
}

const fn append(d: &mut ZmaskDiagnostics, more: &ZmaskDiagnostics) {
    let mut i = 0;
    while i < more.len() {
        if let Some(e) = more.get(i) {
            d.push(e);
        }
        i += 1;
    }
}

const fn first_error(d: &ZmaskDiagnostics) -> Option<ZmaskError> {
    let mut i = 0;
    while i < d.len() {
        if let Some(e) = d.get(i) {
            if e.is_error() {
                return Some(e);
            }
        }
        i += 1;
    }
    None
}

/// Every problem of `fields` in a `tcgen05.mma.ws` with these M and N and, when the instruction
/// descriptor is known, its maximum shift (bits 30-31 of Table 42).
///
/// Errors: M not 32, 64 or 128 (Table 45); N not 64, 128 or 256 (`.ws` rows of Table 39,
/// rules.md R16); a column shift above 16 for M = 32 or above 32 otherwise (Table 45); a
/// column shift above the maximum shift (rules.md R22). Warnings (only with non-zero mask
/// 1): a start count or first span set for a sub-mask that M does not use (Table 45); a start
/// count at least as long as its sub-mask's first run (rules.md R20). Reserved bits are not
/// part of [`ZmaskFields`]: [`ZeroColumnMask::decode_for`] adds them.
///
/// # Examples
/// ```
/// use tcgen05::mma::MaxShift;
/// use tcgen05::zero_column_mask::{validate_for, ZmaskError, ZmaskFields};
/// let f = ZmaskFields { column_shift: 20, ..ZmaskFields::DISABLED };
/// let d = validate_for(&f, 32, 128, Some(MaxShift::Rows16));
/// let all: Vec<_> = d.iter().collect();
/// assert_eq!(all, [
///     ZmaskError::ColumnShift { shift: 20, max: 16 },
///     ZmaskError::ColumnShiftAboveMaxShift { shift: 20, max_shift: MaxShift::Rows16 },
/// ]);
/// ```
#[must_use]
pub const fn validate_for(
    fields: &ZmaskFields,
    m: u16,
    n: u16,
    max_shift: Option<MaxShift>,
) -> ZmaskDiagnostics {
    let mut d = ZmaskDiagnostics::new();
    let count = sub_mask_count(m);
    if count.is_none() {
        d.push(ZmaskError::M { m });
    }
    if !matches!(n, 64 | 128 | 256) {
        d.push(ZmaskError::N { n });
    }
    let limit = max_column_shift(m);
    if fields.column_shift > limit {
        d.push(ZmaskError::ColumnShift {
            shift: fields.column_shift,
            max: limit,
        });
    }
    if let Some(ms) = max_shift {
        if fields.column_shift > ms.rows() {
            d.push(ZmaskError::ColumnShiftAboveMaxShift {
                shift: fields.column_shift,
                max_shift: ms,
            });
        }
    }
    if let Some(count) = count {
        if fields.non_zero_mask {
            let mut i = 0;
            while i < 4 {
                let sc = fields.start_count[i];
                if i < count as usize {
                    let first_run = fields.first_run(i);
                    if sc as u16 >= first_run {
                        d.push(ZmaskError::StartCountPastFirstRun {
                            sub_mask: i as u8,
                            start_count: sc,
                            first_run,
                        });
                    }
                } else {
                    if sc != 0 {
                        d.push(ZmaskError::UnusedStartCount {
                            sub_mask: i as u8,
                            value: sc,
                            m,
                        });
                    }
                    if fields.first_span[i] {
                        d.push(ZmaskError::UnusedFirstSpan {
                            sub_mask: i as u8,
                            m,
                        });
                    }
                }
                i += 1;
            }
        }
    }
    d
}

/// The pattern of one sub-mask with non-zero mask 1 (rules.md R20): the periodic sequence
/// that starts with a run of `first_span`, alternating `skip_span + 1` ones and `use_span + 1`
/// zeros, with `start_count` positions skipped. `width` is at most 256.
pub(super) const fn pattern(
    first_span: bool,
    start_count: u8,
    skip_span: u8,
    use_span: u8,
    width: u16,
) -> ColumnMask {
    let ones = skip_span as u16 + 1;
    let zeros = use_span as u16 + 1;
    let period = ones + zeros;
    let first = if first_span { ones } else { zeros };
    let mut mask = ColumnMask::blank(width);
    // Position of bit 0 in the sequence; each run is then filled whole.
    let mut phase = start_count as u16 % period;
    let mut value = first_span;
    let mut left = first;
    if phase >= first {
        phase -= first;
        value = !first_span;
        left = if first_span { zeros } else { ones };
    }
    left -= phase;
    let mut p = 0u16;
    while p < mask.width {
        let end = if left > mask.width - p {
            mask.width
        } else {
            p + left
        };
        if value {
            mask.set_range(p, end);
        }
        p = end;
        value = !value;
        left = if value { ones } else { zeros };
    }
    mask
}

/// Sub-mask `i` of the mask `fields` generate for M and N (Table 45; rules.md R20, R21),
/// or `Ok(None)` when M does not use sub-mask `i`. Bit 0 is the lowest column the sub-mask
/// covers ([`sub_mask_columns`](super::sub_mask_columns)). With non-zero mask 0 every sub-mask is all zeros.
///
/// # Errors
/// As [`sub_mask_width`].
///
/// # Examples
/// ```
/// use tcgen05::zero_column_mask::{sub_mask, ZmaskFields};
/// // PTX example 3 (M = 64), N = 64: "Output mask0: 0b … 111 0000 111 0000 111".
/// let ex3 = ZmaskFields {
///     first_span: [true, false, false, false],
///     non_zero_mask: true,
///     skip_span: 2,
///     use_span: 3,
///     ..ZmaskFields::DISABLED
/// };
/// let mask0 = sub_mask(&ex3, 0, 64, 64).unwrap().unwrap();
/// assert!(mask0.to_string().ends_with("11100001110000111"));
/// assert_eq!(mask0.width(), 32);
/// ```
pub const fn sub_mask(
    fields: &ZmaskFields,
    i: usize,
    m: u16,
    n: u16,
) -> Result<Option<ColumnMask>, ZmaskError> {
    let width = match sub_mask_width(m, n) {
        Ok(w) => w,
        Err(e) => return Err(e),
    };
    if i >= (n / width) as usize || i >= 4 {
        return Ok(None);
    }
    if !fields.non_zero_mask {
        return Ok(Some(ColumnMask::blank(width)));
    }
    Ok(Some(pattern(
        fields.first_span[i],
        fields.start_count[i],
        fields.skip_span,
        fields.use_span,
        width,
    )))
}

/// All four sub-masks for M and N: `Some` for those M uses (1, 2 or 4), `None` for the others.
///
/// # Errors
/// As [`sub_mask_width`].
pub const fn sub_masks(
    fields: &ZmaskFields,
    m: u16,
    n: u16,
) -> Result<[Option<ColumnMask>; 4], ZmaskError> {
    let mut out = [None; 4];
    let mut i = 0;
    while i < 4 {
        out[i] = match sub_mask(fields, i, m, n) {
            Ok(s) => s,
            Err(e) => return Err(e),
        };
        i += 1;
    }
    Ok(out)
}

/// The N-bit column mask: the sub-masks side by side, sub-mask 0 in the lowest columns
/// (rules.md R21). Bit `j` set means the MMA's column `j` (B column `column_shift + j`) is
/// replaced by zeros.
///
/// # Errors
/// As [`sub_mask_width`].
///
/// # Examples
/// ```
/// use tcgen05::zero_column_mask::{column_mask, ZmaskFields};
/// // PTX example 1: non-zero mask 0 gives 0x0 whatever the spans say.
/// let ex1 = ZmaskFields { skip_span: 4, use_span: 3, ..ZmaskFields::DISABLED };
/// assert!(column_mask(&ex1, 128, 256).unwrap().is_zero());
/// ```
pub const fn column_mask(fields: &ZmaskFields, m: u16, n: u16) -> Result<ColumnMask, ZmaskError> {
    let width = match sub_mask_width(m, n) {
        Ok(w) => w,
        Err(e) => return Err(e),
    };
    let mut full = ColumnMask::blank(n);
    if !fields.non_zero_mask {
        return Ok(full);
    }
    let count = n / width;
    let mut i = 0u16;
    while i < count && i < 4 {
        let part = pattern(
            fields.first_span[i as usize],
            fields.start_count[i as usize],
            fields.skip_span,
            fields.use_span,
            width,
        );
        full.copy_from(&part, i * width);
        i += 1;
    }
    Ok(full)
}

/// The MMA columns (0 .. N, before the column shift) that the mask replaces by zeros: the 1-bits
/// of [`column_mask`], lowest first.
///
/// # Errors
/// As [`sub_mask_width`].
///
/// # Examples
/// ```
/// use tcgen05::zero_column_mask::{zeroed_columns, ZmaskFields};
/// let ex2 = ZmaskFields { non_zero_mask: true, skip_span: 2, use_span: 3, ..ZmaskFields::DISABLED };
/// let cols: Vec<u16> = zeroed_columns(&ex2, 128, 64).unwrap().take(6).collect();
/// assert_eq!(cols, [4, 5, 6, 11, 12, 13]);
/// ```
pub const fn zeroed_columns(fields: &ZmaskFields, m: u16, n: u16) -> Result<Ones, ZmaskError> {
    match column_mask(fields, m, n) {
        Ok(mask) => Ok(mask.iter_ones()),
        Err(e) => Err(e),
    }
}
