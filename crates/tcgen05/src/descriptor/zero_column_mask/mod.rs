//! The zero-column mask descriptor of `tcgen05.mma.ws` (PTX ISA 9.7.16.4.3, Table 45): which
//! columns of B an MMA replaces by zeros, and from which column of B it starts reading.
//!
//! The descriptor is a 64-bit register value. It does not list the zeroed columns; it describes
//! a periodic pattern that the hardware expands into an N-bit *column mask*, where a 1-bit means
//! "use zeros for this whole column of B" and a 0-bit means "use the column from shared memory".
//!
//! # The pattern (decisions.md R19-R21)
//!
//! - **Spans.** Table 45's description column says Skip Span counts the columns where B is used
//!   and Use Span the columns where zeros are used. The worked examples of the same section, the
//!   field names and CUTLASS all say the opposite, and the examples win (decisions.md R19):
//!   `skip_span + 1` is the length of every run of **zeroed** columns (mask bits 1) and
//!   `use_span + 1` the length of every run of **used** columns (mask bits 0).
//! - **Sub-masks.** M = 128 has one sub-mask of N bits, M = 64 two of N/2 bits, M = 32 four of N/4
//!   bits; the column mask is their concatenation, sub-mask 0 in the lowest columns (R21).
//! - **Each sub-mask** `i` is the periodic sequence that starts with a run of value
//!   `first_span[i]` (1 = a zeroed run first) and alternates runs of `skip_span + 1` ones and
//!   `use_span + 1` zeros; `start_count[i]` positions of that sequence are skipped before the
//!   sub-mask's bit 0 (R20). All sub-masks share the two spans.
//! - **Non-zero mask** (bit 39) = 0 makes the whole mask zero whatever the other fields hold
//!   (example 1; R21).
//! - **Column shift** `s`: the MMA reads B columns `s .. s+N-1` (example 4; R22). Mask bit `j`
//!   concerns the MMA's column `j`, that is B column `s + j`; every mask and column list of this
//!   module is indexed by `j` (before the shift). The shift is at most 16 for M = 32 and 32
//!   otherwise (Table 45), and at most the instruction descriptor's maximum shift when that is
//!   known (R22).
//!
//! # What this module offers
//!
//! - [`ZMASK_LAYOUT`]: the bit layout, written once.
//! - [`ZmaskFields`]: every field as stored; [`ZeroColumnMask`]: the validated 64-bit value.
//! - [`ZeroColumnMask::decode`] / [`ZeroColumnMask::decode_for`] and [`validate_for`]: every
//!   problem of a raw value, with and without the MMA's M, N and maximum shift.
//! - [`sub_mask`], [`sub_masks`], [`column_mask`], [`zeroed_columns`]: the generated masks, as
//!   [`ColumnMask`] values (up to 256 bits, no allocation).
//! - [`solve`]: the inverse, fields that generate a wanted column mask, or a proof that none
//!   exist.
//!
//! # Decisions where the PTX text is silent
//!
//! - A start count at least as long as the first run (so that the whole first run is skipped) is
//!   continued periodically, as R20 rules, and reported as a warning
//!   ([`ZmaskError::StartCountPastFirstRun`]). R20 says "longer than"; a count *equal* to the
//!   first run's length also skips a whole run, which no example shows either, and one emulator
//!   clamps counts at the run length minus one, so the warning starts there.
//! - A start count or first span set for a sub-mask that M does not use (sub-masks 1-3 for
//!   M = 128, 2-3 for M = 64) is ignored by the hardware (Table 45's "used" columns) and reported
//!   as a warning. With non-zero mask 0 the pattern fields are all ignored (example 1 sets them)
//!   and draw no warnings.
//! - The generators accept any N from 1 to 256 that splits into whole sub-masks, so that small
//!   patterns can be explored; [`validate_for`] insists on the `.ws` values 64, 128 and 256
//!   (decisions.md R16).
//!
//! # Examples
//!
//! PTX example 4 (M = 32), built, encoded and expanded:
//!
//! ```
//! use tcgen05::zero_column_mask::{sub_mask, ZeroColumnMask, ZmaskFields};
//!
//! const EXAMPLE_4: ZeroColumnMask = ZeroColumnMask::new(ZmaskFields {
//!     start_count: [0, 1, 2, 1],
//!     first_span: [true, true, false, false],
//!     non_zero_mask: true,
//!     skip_span: 2,
//!     use_span: 3,
//!     column_shift: 2,
//! });
//! assert_eq!(EXAMPLE_4.bits(), 0x0203_0283_0102_0100);
//! let mask1 = sub_mask(&EXAMPLE_4.fields(), 1, 32, 64).unwrap().unwrap();
//! // "Output mask1: 0b … 0000 111 0000 11" (N = 64: 16 bits per sub-mask)
//! assert_eq!(mask1.to_string(), "1110000111000011");
//! assert_eq!(EXAMPLE_4.fields().read_columns(128), 2..130);
//! ```

use core::fmt;
use core::ops::Range;

use crate::bit_layout;
use crate::bits::{BitField, Role};
use crate::diagnostic::{Diagnostic, Diagnostics, Severity, Source};
use crate::mma::MaxShift;

/// A row of [`ZMASK_LAYOUT`]: one field of the zero-column mask descriptor (Table 45).
///
/// The discriminant is the row's index in [`ZMASK_LAYOUT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ZmaskField {
    /// Start Count 0 (sc0), bits 0-7.
    StartCount0,
    /// Start Count 1 (sc1), bits 8-15.
    StartCount1,
    /// Start Count 2 (sc2), bits 16-23.
    StartCount2,
    /// Start Count 3 (sc3), bits 24-31.
    StartCount3,
    /// First Span 0 (fs0), bit 32.
    FirstSpan0,
    /// First Span 1 (fs1), bit 33.
    FirstSpan1,
    /// First Span 2 (fs2), bit 34.
    FirstSpan2,
    /// First Span 3 (fs3), bit 35.
    FirstSpan3,
    /// Reserved bits 36-38.
    Reserved36,
    /// Non-Zero Mask, bit 39.
    NonZeroMask,
    /// Skip Span, bits 40-47: length of each run of zeroed columns, minus one (decisions.md R19).
    SkipSpan,
    /// Use Span, bits 48-55: length of each run of used columns, minus one (decisions.md R19).
    UseSpan,
    /// Column Shift, bits 56-61.
    ColumnShift,
    /// Reserved bits 62-63 (decisions.md R22).
    Reserved62,
}

impl ZmaskField {
    /// Every row, in bit order (the order of [`ZMASK_LAYOUT`]).
    pub const ALL: [ZmaskField; 14] = [
        ZmaskField::StartCount0,
        ZmaskField::StartCount1,
        ZmaskField::StartCount2,
        ZmaskField::StartCount3,
        ZmaskField::FirstSpan0,
        ZmaskField::FirstSpan1,
        ZmaskField::FirstSpan2,
        ZmaskField::FirstSpan3,
        ZmaskField::Reserved36,
        ZmaskField::NonZeroMask,
        ZmaskField::SkipSpan,
        ZmaskField::UseSpan,
        ZmaskField::ColumnShift,
        ZmaskField::Reserved62,
    ];

    /// The row's own snake_case name, for example `"start_count_2"` or `"reserved_36_38"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ZmaskField::StartCount0 => "start_count_0",
            ZmaskField::StartCount1 => "start_count_1",
            ZmaskField::StartCount2 => "start_count_2",
            ZmaskField::StartCount3 => "start_count_3",
            ZmaskField::FirstSpan0 => "first_span_0",
            ZmaskField::FirstSpan1 => "first_span_1",
            ZmaskField::FirstSpan2 => "first_span_2",
            ZmaskField::FirstSpan3 => "first_span_3",
            ZmaskField::Reserved36 => "reserved_36_38",
            ZmaskField::NonZeroMask => "non_zero_mask",
            ZmaskField::SkipSpan => "skip_span",
            ZmaskField::UseSpan => "use_span",
            ZmaskField::ColumnShift => "column_shift",
            ZmaskField::Reserved62 => "reserved_62_63",
        }
    }

    /// The JSON key of the [`ZmaskFields`] member that holds this row: the four start counts
    /// share `"start_count"` and the four first spans `"first_span"`; reserved rows give
    /// `"reserved"`.
    #[must_use]
    pub const fn json_key(self) -> &'static str {
        match self {
            ZmaskField::StartCount0
            | ZmaskField::StartCount1
            | ZmaskField::StartCount2
            | ZmaskField::StartCount3 => "start_count",
            ZmaskField::FirstSpan0
            | ZmaskField::FirstSpan1
            | ZmaskField::FirstSpan2
            | ZmaskField::FirstSpan3 => "first_span",
            ZmaskField::Reserved36 | ZmaskField::Reserved62 => "reserved",
            ZmaskField::NonZeroMask => "non_zero_mask",
            ZmaskField::SkipSpan => "skip_span",
            ZmaskField::UseSpan => "use_span",
            ZmaskField::ColumnShift => "column_shift",
        }
    }

    /// The sub-mask a start-count or first-span row belongs to, `None` for the other rows.
    #[must_use]
    pub const fn sub_mask(self) -> Option<u8> {
        match self {
            ZmaskField::StartCount0 | ZmaskField::FirstSpan0 => Some(0),
            ZmaskField::StartCount1 | ZmaskField::FirstSpan1 => Some(1),
            ZmaskField::StartCount2 | ZmaskField::FirstSpan2 => Some(2),
            ZmaskField::StartCount3 | ZmaskField::FirstSpan3 => Some(3),
            _ => None,
        }
    }

    /// The start-count row of sub-mask `i` (`i` is taken modulo 4).
    #[must_use]
    pub const fn start_count(i: usize) -> ZmaskField {
        match i & 3 {
            0 => ZmaskField::StartCount0,
            1 => ZmaskField::StartCount1,
            2 => ZmaskField::StartCount2,
            _ => ZmaskField::StartCount3,
        }
    }

    /// The first-span row of sub-mask `i` (`i` is taken modulo 4).
    #[must_use]
    pub const fn first_span(i: usize) -> ZmaskField {
        match i & 3 {
            0 => ZmaskField::FirstSpan0,
            1 => ZmaskField::FirstSpan1,
            2 => ZmaskField::FirstSpan2,
            _ => ZmaskField::FirstSpan3,
        }
    }

    /// This row of [`ZMASK_LAYOUT`].
    #[must_use]
    pub const fn row(self) -> &'static BitField<ZmaskField> {
        &ZMASK_LAYOUT[self as usize]
    }
}

impl fmt::Display for ZmaskField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

bit_layout! {
    /// The zero-column mask descriptor's bit layout (PTX ISA 9.7.16.4.3, Table 45), one row per
    /// field. Skip Span and Use Span follow the worked examples, not the table's description
    /// column (decisions.md R19); bits 62-63, which Table 45 does not list, are reserved (R22).
    pub const ZMASK_LAYOUT: [BitField<ZmaskField>; 64 bits] = {
        0 ..= 7   StartCount0 value    "Start Count 0 (sc0)"                 (Table 45);
        8 ..= 15  StartCount1 value    "Start Count 1 (sc1)"                 (Table 45);
        16 ..= 23 StartCount2 value    "Start Count 2 (sc2)"                 (Table 45);
        24 ..= 31 StartCount3 value    "Start Count 3 (sc3)"                 (Table 45);
        32 ..= 32 FirstSpan0  value    "First Span 0 (fs0)"                  (Table 45);
        33 ..= 33 FirstSpan1  value    "First Span 1 (fs1)"                  (Table 45);
        34 ..= 34 FirstSpan2  value    "First Span 2 (fs2)"                  (Table 45);
        35 ..= 35 FirstSpan3  value    "First Span 3 (fs3)"                  (Table 45);
        36 ..= 38 Reserved36  reserved "Reserved"                            (Table 45);
        39 ..= 39 NonZeroMask value    "Non-Zero Mask"                       (Table 45);
        40 ..= 47 SkipSpan    value    "Skip Span (zeroed columns - 1)"      (R 19);
        48 ..= 55 UseSpan     value    "Use Span (used columns - 1)"         (R 19);
        56 ..= 61 ColumnShift value    "Column Shift"                        (Table 45);
        62 ..= 63 Reserved62  reserved "Unnamed"                             (R 22);
    }
}

/// Proves that each row of [`ZMASK_LAYOUT`] sits at its field's discriminant, so that
/// [`ZmaskField::row`] is a plain lookup.
// Used only by the assertion below, which rustc before 1.84 does not count as a use.
#[allow(dead_code)]
const fn layout_order_matches() -> bool {
    if ZMASK_LAYOUT.len() != ZmaskField::ALL.len() {
        return false;
    }
    let mut i = 0;
    while i < ZMASK_LAYOUT.len() {
        if ZMASK_LAYOUT[i].field as usize != i || ZmaskField::ALL[i] as usize != i {
            return false;
        }
        i += 1;
    }
    true
}
const _: () = assert!(
    layout_order_matches(),
    "ZMASK_LAYOUT rows must follow ZmaskField's order"
);

/// The largest column shift Table 45 allows for any M (16 for M = 32, 32 otherwise).
pub const MAX_COLUMN_SHIFT: u8 = 32;

/// The largest column shift Table 45 allows for `m`: 16 for M = 32, 32 otherwise.
#[must_use]
pub const fn max_column_shift(m: u16) -> u8 {
    if m == 32 {
        16
    } else {
        MAX_COLUMN_SHIFT
    }
}

/// How many sub-masks M splits the column mask into (Table 45; decisions.md R21): 1 for
/// M = 128, 2 for M = 64, 4 for M = 32, `None` for any other M.
#[must_use]
pub const fn sub_mask_count(m: u16) -> Option<u8> {
    match m {
        128 => Some(1),
        64 => Some(2),
        32 => Some(4),
        _ => None,
    }
}

/// The width of each sub-mask: N / (128 / M) (Table 45; decisions.md R21).
///
/// # Errors
/// [`ZmaskError::M`] when M is not 32, 64 or 128; [`ZmaskError::MaskWidth`] when N is 0, above
/// 256, or not a multiple of the sub-mask count.
pub const fn sub_mask_width(m: u16, n: u16) -> Result<u16, ZmaskError> {
    let count = match sub_mask_count(m) {
        Some(c) => c as u16,
        None => return Err(ZmaskError::M { m }),
    };
    if n == 0 || n > ColumnMask::MAX_WIDTH || n % count != 0 {
        return Err(ZmaskError::MaskWidth { n, m });
    }
    Ok(n / count)
}

/// The columns (of the MMA's N, before the shift) that sub-mask `i` covers: for M = 64,
/// sub-mask 1 covers `N/2 .. N` (Table 45's coverage table). `None` when M does not use
/// sub-mask `i`.
///
/// # Errors
/// As [`sub_mask_width`].
pub const fn sub_mask_columns(i: usize, m: u16, n: u16) -> Result<Option<Range<u16>>, ZmaskError> {
    let width = match sub_mask_width(m, n) {
        Ok(w) => w,
        Err(e) => return Err(e),
    };
    let count = n / width;
    if i >= count as usize {
        return Ok(None);
    }
    let lo = i as u16 * width;
    Ok(Some(lo..lo + width))
}

/// Every field of a zero-column mask descriptor, as stored (Table 45).
///
/// The spans hold the stored values, one less than the run lengths (decisions.md R19). Index `i`
/// of `start_count` and `first_span` is sub-mask `i` (`sc_i`, `fs_i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ZmaskFields {
    /// Start Count `sc_i` (bits 0-31, 8 bits each): how many positions of sub-mask `i`'s
    /// periodic pattern are skipped before its bit 0 (decisions.md R20).
    pub start_count: [u8; 4],
    /// First Span `fs_i` (bits 32-35): `true` when sub-mask `i`'s pattern starts with a run of
    /// zeroed columns, `false` when it starts with a run of used columns.
    pub first_span: [bool; 4],
    /// Non-Zero Mask (bit 39): `false` makes the whole mask zero (no column zeroed) whatever the
    /// other fields hold; `true` generates the mask.
    pub non_zero_mask: bool,
    /// Skip Span (bits 40-47): each run of zeroed columns (mask bits 1) is `skip_span + 1` long
    /// (decisions.md R19).
    pub skip_span: u8,
    /// Use Span (bits 48-55): each run of used columns (mask bits 0) is `use_span + 1` long
    /// (decisions.md R19).
    pub use_span: u8,
    /// Column Shift (bits 56-61): the MMA reads B columns `column_shift .. column_shift + N`.
    /// At most 16 for M = 32 and 32 otherwise (Table 45; decisions.md R22).
    pub column_shift: u8,
}

impl ZmaskFields {
    /// The descriptor that zeroes nothing: every field 0 (non-zero mask 0, example 1).
    pub const DISABLED: ZmaskFields = ZmaskFields {
        start_count: [0; 4],
        first_span: [false; 4],
        non_zero_mask: false,
        skip_span: 0,
        use_span: 0,
        column_shift: 0,
    };

    /// Reads every field of a raw value, ignoring the reserved bits (which
    /// [`ZeroColumnMask::decode`] reports).
    #[must_use]
    pub const fn from_raw(raw: u64) -> ZmaskFields {
        let mut f = ZmaskFields::DISABLED;
        let mut i = 0;
        while i < 4 {
            f.start_count[i] = ZmaskField::start_count(i).row().get(raw) as u8;
            f.first_span[i] = ZmaskField::first_span(i).row().get(raw) != 0;
            i += 1;
        }
        f.non_zero_mask = ZmaskField::NonZeroMask.row().get(raw) != 0;
        f.skip_span = ZmaskField::SkipSpan.row().get(raw) as u8;
        f.use_span = ZmaskField::UseSpan.row().get(raw) as u8;
        f.column_shift = ZmaskField::ColumnShift.row().get(raw) as u8;
        f
    }

    /// Packs the fields without validating them. A column shift above 63 loses its high bits:
    /// [`ZeroColumnMask::try_new`] is the checked form.
    #[must_use]
    pub const fn to_raw_unchecked(&self) -> u64 {
        let mut raw = 0u64;
        let mut i = 0;
        while i < 4 {
            raw = ZmaskField::start_count(i)
                .row()
                .set(raw, self.start_count[i] as u64);
            raw = ZmaskField::first_span(i)
                .row()
                .set(raw, self.first_span[i] as u64);
            i += 1;
        }
        raw = ZmaskField::NonZeroMask
            .row()
            .set(raw, self.non_zero_mask as u64);
        raw = ZmaskField::SkipSpan.row().set(raw, self.skip_span as u64);
        raw = ZmaskField::UseSpan.row().set(raw, self.use_span as u64);
        ZmaskField::ColumnShift
            .row()
            .set(raw, self.column_shift as u64)
    }

    /// Every problem these fields have on their own (without M, N or the instruction
    /// descriptor): a column shift above 32 (Table 45).
    #[must_use]
    pub const fn validate(&self) -> ZmaskDiagnostics {
        let mut d = ZmaskDiagnostics::new();
        if self.column_shift > MAX_COLUMN_SHIFT {
            d.push(ZmaskError::ColumnShift {
                shift: self.column_shift,
                max: MAX_COLUMN_SHIFT,
            });
        }
        d
    }

    /// The length of the run that sub-mask `i`'s pattern starts with: `skip_span + 1` when it
    /// starts zeroed, `use_span + 1` otherwise (decisions.md R19, R20). `i` is taken modulo 4.
    #[must_use]
    pub const fn first_run(&self, i: usize) -> u16 {
        if self.first_span[i & 3] {
            self.skip_span as u16 + 1
        } else {
            self.use_span as u16 + 1
        }
    }

    /// The columns of B that an MMA of width `n` reads: `column_shift .. column_shift + n`
    /// (Table 45; PTX example 4: shift 2 and N = 128 read columns 2 to 129; decisions.md R22).
    /// Bit `j` of the column mask concerns B column `column_shift + j`.
    #[must_use]
    pub const fn read_columns(&self, n: u16) -> Range<u16> {
        let start = self.column_shift as u16;
        start..start.saturating_add(n)
    }
}

/// The diagnostics list of this module: room for every problem one value can have.
pub type ZmaskDiagnostics = Diagnostics<ZmaskError, 16>;

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

impl fmt::Display for ZeroColumnMask {
    /// One line per row of [`ZMASK_LAYOUT`]: bit range, field, raw bits, meaning.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "zero-column mask descriptor {:#018x} (PTX ISA 9.7.16.4.3, Table 45)",
            self.0
        )?;
        let mut i = 0;
        while i < ZMASK_LAYOUT.len() {
            let row = &ZMASK_LAYOUT[i];
            f.write_str("\n  ")?;
            if row.width == 1 {
                write!(f, "{:>5}", row.lo)?;
            } else {
                write!(f, "{:>2}-{:<2}", row.lo, row.hi())?;
            }
            let v = row.get(self.0);
            write!(
                f,
                "  {:<15} 0b{:0w$b}{:pad$}  ",
                row.field.name(),
                v,
                "",
                w = row.width as usize,
                pad = 8 - row.width as usize
            )?;
            write!(f, "{}", ZmaskRowMeaning::new(self.0, row))?;
            i += 1;
        }
        Ok(())
    }
}

/// The meaning, in words, of one [`ZMASK_LAYOUT`] row's bits in a raw descriptor: the last
/// column of the [`Display`](fmt::Display) table, and of the command-line tool's table.
///
/// ```
/// use tcgen05::zero_column_mask::{ZmaskField, ZmaskRowMeaning};
///
/// let skip = ZmaskField::SkipSpan.row();
/// assert_eq!(
///     ZmaskRowMeaning::new(0x0003_0280_0000_0000, skip).to_string(),
///     "runs of 3 zeroed column(s) (R19)"
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ZmaskRowMeaning {
    raw: u64,
    row: &'static BitField<ZmaskField>,
}

impl ZmaskRowMeaning {
    /// The meaning of `row`'s bits in `raw`.
    #[must_use]
    pub const fn new(raw: u64, row: &'static BitField<ZmaskField>) -> Self {
        Self { raw, row }
    }
}

impl fmt::Display for ZmaskRowMeaning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = self.row;
        let v = row.get(self.raw);
        if row.role == Role::Reserved {
            return f.write_str(if v == 0 {
                "reserved, 0"
            } else {
                "reserved: SET, must be 0"
            });
        }
        let used_by = match row.field.sub_mask() {
            Some(0) => "every M",
            Some(1) => "M = 32, 64",
            _ => "M = 32",
        };
        let i = row.field.sub_mask().unwrap_or(0);
        match row.field {
            ZmaskField::StartCount0
            | ZmaskField::StartCount1
            | ZmaskField::StartCount2
            | ZmaskField::StartCount3 => {
                write!(
                    f,
                    "mask{i} skips {v} position(s) of its pattern ({used_by})"
                )
            }
            ZmaskField::FirstSpan0
            | ZmaskField::FirstSpan1
            | ZmaskField::FirstSpan2
            | ZmaskField::FirstSpan3 => write!(
                f,
                "mask{i} starts with {} columns ({used_by})",
                if v == 1 { "zeroed" } else { "used" }
            ),
            ZmaskField::NonZeroMask => f.write_str(if v == 1 {
                "1: generate the mask"
            } else {
                "0: no column is zeroed"
            }),
            ZmaskField::SkipSpan => write!(f, "runs of {} zeroed column(s) (R19)", v + 1),
            ZmaskField::UseSpan => write!(f, "runs of {} used column(s) (R19)", v + 1),
            ZmaskField::ColumnShift => write!(f, "the MMA reads B columns {v}..{v}+N-1"),
            _ => write!(f, "{v}"),
        }
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
/// decisions.md R16); a column shift above 16 for M = 32 or above 32 otherwise (Table 45); a
/// column shift above the maximum shift (decisions.md R22). Warnings (only with non-zero mask
/// 1): a start count or first span set for a sub-mask that M does not use (Table 45); a start
/// count at least as long as its sub-mask's first run (decisions.md R20). Reserved bits are not
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

/// The pattern of one sub-mask with non-zero mask 1 (decisions.md R20): the periodic sequence
/// that starts with a run of `first_span`, alternating `skip_span + 1` ones and `use_span + 1`
/// zeros, with `start_count` positions skipped. `width` is at most 256.
const fn pattern(
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

/// Sub-mask `i` of the mask `fields` generate for M and N (Table 45; decisions.md R20, R21),
/// or `Ok(None)` when M does not use sub-mask `i`. Bit 0 is the lowest column the sub-mask
/// covers ([`sub_mask_columns`]). With non-zero mask 0 every sub-mask is all zeros.
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
/// (decisions.md R21). Bit `j` set means the MMA's column `j` (B column `column_shift + j`) is
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

/// A column mask of up to 256 bits (N is at most 256): bit `j` set means column `j` is zeroed.
///
/// Bits at and above [`ColumnMask::width`] are always zero, so `==` compares masks exactly.
/// Printed (`Display`) most significant bit first, exactly `width` characters of `0`/`1`, as
/// the PTX examples print them; `{:x}` prints hexadecimal.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ColumnMask {
    words: [u64; 4],
    width: u16,
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
    const fn blank(width: u16) -> ColumnMask {
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

    /// Parses a binary string, most significant bit first as the PTX examples print masks
    /// (`"0b0000111"`): an optional `0b` prefix, then `0` and `1` digits; `_` and spaces are
    /// ignored. The width is the number of digits.
    ///
    /// # Errors
    /// [`ColumnMaskError::BadDigit`] for any other character, [`ColumnMaskError::NoDigits`]
    /// without digits, [`ColumnMaskError::WidthTooLarge`] beyond 256 digits.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::zero_column_mask::ColumnMask;
    /// let m = ColumnMask::parse_bits("0b111_0000").unwrap();
    /// assert_eq!((m.width(), m.bit(4), m.bit(3)), (7, true, false));
    /// ```
    pub const fn parse_bits(s: &str) -> Result<ColumnMask, ColumnMaskError> {
        let b = strip_0x(s.as_bytes(), b'b');
        let mut digits: u16 = 0;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'0' | b'1' => {
                    if digits >= Self::MAX_WIDTH {
                        return Err(ColumnMaskError::WidthTooLarge {
                            width: Self::MAX_WIDTH + 1,
                        });
                    }
                    digits += 1;
                }
                b'_' | b' ' => {}
                c => return Err(ColumnMaskError::BadDigit { byte: c }),
            }
            i += 1;
        }
        if digits == 0 {
            return Err(ColumnMaskError::NoDigits);
        }
        let mut m = ColumnMask::blank(digits);
        let mut col = digits;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'0' || b[i] == b'1' {
                col -= 1;
                if b[i] == b'1' {
                    m.set_range(col, col + 1);
                }
            }
            i += 1;
        }
        Ok(m)
    }

    /// Parses a hexadecimal string (optional `0x` prefix, `_` ignored) into a mask of `width`
    /// columns.
    ///
    /// # Errors
    /// [`ColumnMaskError::WidthTooLarge`] above 256, [`ColumnMaskError::BadDigit`] for a
    /// character that is not a hex digit, [`ColumnMaskError::NoDigits`] without digits,
    /// [`ColumnMaskError::BitBeyondWidth`] when the value needs more than `width` bits.
    pub const fn parse_hex(s: &str, width: u16) -> Result<ColumnMask, ColumnMaskError> {
        if width > Self::MAX_WIDTH {
            return Err(ColumnMaskError::WidthTooLarge { width });
        }
        let b = strip_0x(s.as_bytes(), b'x');
        let mut words = [0u64; 4];
        let mut any = false;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            i += 1;
            let nibble = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                b'_' => continue,
                _ => return Err(ColumnMaskError::BadDigit { byte: c }),
            };
            any = true;
            if words[3] >> 60 != 0 {
                return Err(ColumnMaskError::BitBeyondWidth {
                    bit: Self::MAX_WIDTH,
                    width,
                });
            }
            words[3] = (words[3] << 4) | (words[2] >> 60);
            words[2] = (words[2] << 4) | (words[1] >> 60);
            words[1] = (words[1] << 4) | (words[0] >> 60);
            words[0] = (words[0] << 4) | nibble as u64;
        }
        if !any {
            return Err(ColumnMaskError::NoDigits);
        }
        ColumnMask::from_words(words, width)
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

    /// Writes the mask most significant bit first, exactly `width` characters of `0` and `1`
    /// (no prefix), without allocating.
    ///
    /// # Errors
    /// Those of the writer.
    pub fn write_bits(&self, f: &mut impl fmt::Write) -> fmt::Result {
        let mut col = self.width;
        while col > 0 {
            col -= 1;
            f.write_char(if self.bit(col) { '1' } else { '0' })?;
        }
        Ok(())
    }

    /// Sets columns `lo .. hi` (both at most the width).
    const fn set_range(&mut self, lo: u16, hi: u16) {
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
    const fn copy_from(&mut self, part: &ColumnMask, offset: u16) {
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

const fn strip_0x(b: &[u8], letter: u8) -> &[u8] {
    if b.len() >= 2 && b[0] == b'0' && (b[1] == letter || b[1] == letter - 32) {
        b.split_at(2).1
    } else {
        b
    }
}

impl fmt::Display for ColumnMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_bits(f)
    }
}

impl fmt::Debug for ColumnMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ColumnMask<{}>(0b", self.width)?;
        self.write_bits(f)?;
        f.write_str(")")
    }
}

impl fmt::LowerHex for ColumnMask {
    /// `ceil(width / 4)` hexadecimal digits, most significant first; `{:#x}` adds `0x`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str("0x")?;
        }
        let mut nibble = self.width.div_ceil(4);
        if nibble == 0 {
            return f.write_str("0");
        }
        while nibble > 0 {
            nibble -= 1;
            let c = nibble * 4;
            let v = (self.words[(c >> 6) as usize] >> (c & 63)) & 0xf;
            write!(f, "{v:x}")?;
        }
        Ok(())
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

/// Why a [`ColumnMask`] could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
        Source::PtxSection("9.7.16.4.3")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ColumnMaskError {}

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

/// What [`solve`] may choose besides the pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SolveOptions {
    /// The column shift to put in the result (it does not change the mask). Default 0.
    pub column_shift: u8,
    /// The instruction descriptor's maximum shift, when known: the column shift must not exceed
    /// it (decisions.md R22).
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
/// (decisions.md R19-R21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SolveError {
    /// M is not 32, 64 or 128 (Table 45).
    M {
        /// The M given.
        m: u16,
    },
    /// N is 0, above 256, or does not split into whole sub-masks for M (decisions.md R21).
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
    /// (decisions.md R22).
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

impl Diagnostic for SolveError {
    fn field(&self) -> &'static str {
        match *self {
            SolveError::M { .. } => "m",
            SolveError::MaskWidth { .. } | SolveError::WidthMismatch { .. } => "n",
            SolveError::ColumnShift { .. } | SolveError::ColumnShiftAboveMaxShift { .. } => {
                "column_shift"
            }
            SolveError::RunLengthsDiffer { zeroed, .. }
            | SolveError::EdgeRunTooLong { zeroed, .. } => {
                if zeroed {
                    "skip_span"
                } else {
                    "use_span"
                }
            }
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
        match *self {
            SolveError::M { .. } | SolveError::ColumnShift { .. } => Source::PtxTable(45),
            SolveError::MaskWidth { .. } | SolveError::WidthMismatch { .. } => Source::Decision(21),
            SolveError::ColumnShiftAboveMaxShift { .. } => Source::Decision(22),
            SolveError::RunLengthsDiffer { .. } | SolveError::EdgeRunTooLong { .. } => {
                Source::Decision(20)
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SolveError {}

/// Finds descriptor fields that generate `wanted`, the N-bit column mask of an MMA with this M,
/// or proves that none exist. A `const fn`, linear in N (a few hundred steps for N = 256).
///
/// The mask is cut into its sub-masks (decisions.md R21) and each into maximal runs. In any
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
/// The result always passes [`validate_for`] without warnings when N is a `.ws` N.
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
mod tests {
    use super::*;
    use std::{format, string::String, string::ToString, vec::Vec};

    const EX1: ZmaskFields = ZmaskFields {
        start_count: [0; 4],
        first_span: [false; 4],
        non_zero_mask: false,
        skip_span: 4,
        use_span: 3,
        column_shift: 0,
    };
    const EX2: ZmaskFields = ZmaskFields {
        start_count: [0; 4],
        first_span: [false; 4],
        non_zero_mask: true,
        skip_span: 2,
        use_span: 3,
        column_shift: 0,
    };
    const EX3: ZmaskFields = ZmaskFields {
        start_count: [0; 4],
        first_span: [true, false, false, false],
        non_zero_mask: true,
        skip_span: 2,
        use_span: 3,
        column_shift: 0,
    };
    // Seed 002 lists {sc3, sc2, sc1, sc0} = {1, 2, 1, 0} and {fs3, fs2, fs1, fs0} = {0, 0, 1, 1}.
    const EX4: ZmaskFields = ZmaskFields {
        start_count: [0, 1, 2, 1],
        first_span: [true, true, false, false],
        non_zero_mask: true,
        skip_span: 2,
        use_span: 3,
        column_shift: 2,
    };

    /// The low bits of `mask`, most significant first, without separators.
    fn low(mask: &ColumnMask, digits: &str) -> bool {
        let want: String = digits.chars().filter(|c| *c == '0' || *c == '1').collect();
        mask.to_string().ends_with(&want)
    }

    fn all<const N: usize>(d: &Diagnostics<ZmaskError, N>) -> Vec<ZmaskError> {
        d.iter().collect()
    }

    #[test]
    fn raw_values_of_the_worked_examples() {
        // Bits written by hand from Table 45: skip 40-47, use 48-55, nzm 39, fs 32-35,
        // sc 0-31, shift 56-61.
        assert_eq!(ZeroColumnMask::new(EX1).bits(), 0x0003_0400_0000_0000);
        assert_eq!(ZeroColumnMask::new(EX2).bits(), 0x0003_0280_0000_0000);
        assert_eq!(ZeroColumnMask::new(EX3).bits(), 0x0003_0281_0000_0000);
        assert_eq!(ZeroColumnMask::new(EX4).bits(), 0x0203_0283_0102_0100);
        for f in [EX1, EX2, EX3, EX4] {
            let d = ZeroColumnMask::new(f);
            assert_eq!(d.fields(), f);
            assert_eq!(ZeroColumnMask::from_bits(d.bits()), Ok(d));
            assert!(ZeroColumnMask::decode(d.bits()).diagnostics.is_empty());
        }
    }

    #[test]
    fn example_1_is_all_zeros_for_every_n() {
        for n in [64, 128, 256] {
            let m = column_mask(&EX1, 128, n).expect("valid");
            assert!(m.is_zero());
            assert_eq!(m.width(), n);
            assert_eq!(zeroed_columns(&EX1, 128, n).expect("valid").count(), 0);
        }
        assert!(all(&validate_for(&EX1, 128, 128, None)).is_empty());
    }

    #[test]
    fn example_2_low_bits() {
        for n in [64, 128, 256] {
            let m = sub_mask(&EX2, 0, 128, n).expect("valid").expect("valid");
            assert!(low(&m, "111 0000 111 0000"), "{n}: {m}");
            assert_eq!(column_mask(&EX2, 128, n).expect("valid"), m);
            // Period 7: 3 zeroed of every 7 columns.
            assert_eq!(
                m.count_ones(),
                (n / 7) * 3 + [0, 0, 0, 0, 0, 1, 2][(n % 7) as usize]
            );
        }
        assert!(all(&validate_for(&EX2, 128, 256, None)).is_empty());
    }

    #[test]
    fn example_3_low_bits() {
        for n in [64, 128, 256] {
            let [m0, m1, m2, m3] = sub_masks(&EX3, 64, n).expect("valid");
            let (m0, m1) = (m0.expect("valid"), m1.expect("valid"));
            assert!(m2.is_none() && m3.is_none());
            assert_eq!((m0.width(), m1.width()), (n / 2, n / 2));
            assert!(low(&m0, "111 0000 111 0000 111"), "{n}: {m0}");
            assert!(low(&m1, "0000 111 0000 111 0000"), "{n}: {m1}");
            let full = column_mask(&EX3, 64, n).expect("valid");
            assert_eq!(full.slice(0, n / 2).expect("valid"), m0);
            assert_eq!(full.slice(n / 2, n / 2).expect("valid"), m1);
        }
        assert!(all(&validate_for(&EX3, 64, 128, None)).is_empty());
    }

    #[test]
    fn example_4_low_bits_of_each_sub_mask() {
        for n in [64, 128, 256] {
            let masks = sub_masks(&EX4, 32, n).expect("valid");
            let expect = [
                "0000 111 0000 111",
                "0000 111 0000 11",
                "111 0000 111 00",
                "111 0000 111 000",
            ];
            for (i, e) in expect.iter().enumerate() {
                let m = masks[i].expect("valid");
                assert_eq!(m.width(), n / 4);
                assert!(low(&m, e), "N {n} mask{i}: {m}");
                let cols = sub_mask_columns(i, 32, n).expect("valid").expect("valid");
                assert_eq!(
                    column_mask(&EX4, 32, n)
                        .expect("valid")
                        .slice(cols.start, n / 4)
                        .expect("valid"),
                    m
                );
            }
        }
        // "If N = 128 then B Matrix with columns from 2 to 129 will be used."
        assert_eq!(EX4.read_columns(128), 2..130);
        assert!(all(&validate_for(&EX4, 32, 128, Some(MaxShift::Rows8))).is_empty());
    }

    #[test]
    fn full_mask_of_example_4_for_n_64() {
        let m = column_mask(&EX4, 32, 64).expect("valid");
        // Written by hand from R20, MSB first: mask3, mask2, mask1, mask0 (16 bits each).
        assert_eq!(
            m.to_string(),
            [
                "0001110000111000",
                "0000111000011100",
                "1110000111000011",
                "1100001110000111",
            ]
            .concat()
        );
        // Exact, column by column, from R20's definition (independent of `pattern`).
        for i in 0..4usize {
            let sc = EX4.start_count[i] as u16;
            for j in 0..16u16 {
                let q = (j + sc) % 7;
                let first = if EX4.first_span[i] { 3 } else { 4 };
                let v = if q < first {
                    EX4.first_span[i]
                } else {
                    !EX4.first_span[i]
                };
                assert_eq!(m.bit(i as u16 * 16 + j), v, "mask{i} bit {j}");
            }
        }
    }

    #[test]
    fn solver_reproduces_the_examples() {
        for n in [64u16, 128, 256] {
            let opts = SolveOptions::DEFAULT.with_column_shift(2);
            let f = solve(32, n, &column_mask(&EX4, 32, n).expect("valid"), opts).expect("valid");
            assert_eq!(f, EX4, "N {n}");
            let f = solve(
                64,
                n,
                &column_mask(&EX3, 64, n).expect("valid"),
                SolveOptions::DEFAULT,
            );
            assert_eq!(f, Ok(EX3));
            let f = solve(
                128,
                n,
                &column_mask(&EX2, 128, n).expect("valid"),
                SolveOptions::DEFAULT,
            );
            assert_eq!(f, Ok(EX2));
            let f = solve(
                128,
                n,
                &column_mask(&EX1, 128, n).expect("valid"),
                SolveOptions::DEFAULT,
            );
            assert_eq!(f, Ok(ZmaskFields::DISABLED));
        }
    }

    #[test]
    fn solver_all_ones_and_bad_arguments() {
        let ones = ColumnMask::all_ones(256).expect("valid");
        let f = solve(128, 256, &ones, SolveOptions::DEFAULT).expect("valid");
        assert_eq!(
            (f.skip_span, f.use_span, f.first_span[0], f.start_count[0]),
            (255, 0, true, 0)
        );
        assert_eq!(column_mask(&f, 128, 256).expect("valid"), ones);
        let f = solve(32, 256, &ones, SolveOptions::DEFAULT).expect("valid");
        assert_eq!((f.skip_span, f.first_span), (63, [true; 4]));
        assert_eq!(
            solve(16, 256, &ones, SolveOptions::DEFAULT),
            Err(SolveError::M { m: 16 })
        );
        assert_eq!(
            solve(32, 130, &ones, SolveOptions::DEFAULT),
            Err(SolveError::MaskWidth { n: 130, m: 32 })
        );
        assert_eq!(
            solve(128, 128, &ones, SolveOptions::DEFAULT),
            Err(SolveError::WidthMismatch { width: 256, n: 128 })
        );
        assert_eq!(
            solve(32, 256, &ones, SolveOptions::DEFAULT.with_column_shift(17)),
            Err(SolveError::ColumnShift { shift: 17, max: 16 })
        );
        assert_eq!(
            solve(
                64,
                256,
                &ones,
                SolveOptions::DEFAULT
                    .with_column_shift(9)
                    .with_max_shift(MaxShift::Rows8)
            ),
            Err(SolveError::ColumnShiftAboveMaxShift {
                shift: 9,
                max_shift: MaxShift::Rows8
            })
        );
    }

    #[test]
    fn solver_proves_impossibility() {
        // Inner zeroed runs of 3 then 2.
        let m = ColumnMask::parse_bits("0 11 0000 111 0").expect("valid");
        let e = solve(128, 11, &m, SolveOptions::DEFAULT).expect_err("fails");
        assert_eq!(
            e,
            SolveError::RunLengthsDiffer {
                zeroed: true,
                length: 2,
                column: 8,
                expected: 3,
                expected_column: 1
            }
        );
        assert!(e.is_no_solution());
        assert_eq!(e.field(), "skip_span");
        // An edge run of 4 zeroed columns but inner runs of 2.
        let m = ColumnMask::parse_bits("1111 0 11 0").expect("valid");
        assert_eq!(
            solve(128, 8, &m, SolveOptions::DEFAULT),
            Err(SolveError::EdgeRunTooLong {
                zeroed: true,
                length: 4,
                column: 4,
                limit: 2
            })
        );
        // Sub-masks disagree: mask0 has inner used runs of 1, mask1 of 2 (M = 64).
        let m = ColumnMask::parse_bits("1001_1001 0101_0101").expect("valid");
        assert!(solve(64, 16, &m, SolveOptions::DEFAULT)
            .expect_err("fails")
            .is_no_solution());
        // An all-zero sub-mask needs used runs at least as long as it; mask0's inner used run
        // is 2 long (M = 64). Without that inner run a use span of 8 would do.
        let ok = ColumnMask::parse_bits("0000_0000 0001_1000").expect("valid");
        let f = solve(64, 16, &ok, SolveOptions::DEFAULT).expect("valid");
        assert_eq!((f.skip_span, f.use_span, f.start_count[0]), (1, 7, 5));
        assert_eq!(column_mask(&f, 64, 16), Ok(ok));
        let m = ColumnMask::parse_bits("0000_0000 1001_1001").expect("valid");
        assert_eq!(
            solve(64, 16, &m, SolveOptions::DEFAULT),
            Err(SolveError::EdgeRunTooLong {
                zeroed: false,
                length: 8,
                column: 8,
                limit: 2
            })
        );
        let msg = format!(
            "{}",
            solve(64, 16, &m, SolveOptions::DEFAULT).expect_err("fails")
        );
        assert!(msg.contains("no zero-column mask generates this"), "{msg}");
    }

    #[test]
    fn each_rule_broken_once() {
        let ok = EX4;
        type Case = (
            ZmaskFields,
            u16,
            u16,
            Option<MaxShift>,
            ZmaskError,
            &'static str,
        );
        let cases: [Case; 8] = [
            (ok, 48, 128, None, ZmaskError::M { m: 48 }, "m"),
            (ok, 32, 96, None, ZmaskError::N { n: 96 }, "n"),
            (
                ZmaskFields {
                    column_shift: 17,
                    ..ok
                },
                32,
                128,
                None,
                ZmaskError::ColumnShift { shift: 17, max: 16 },
                "column_shift",
            ),
            (
                ZmaskFields {
                    column_shift: 33,
                    ..EX2
                },
                128,
                128,
                None,
                ZmaskError::ColumnShift { shift: 33, max: 32 },
                "column_shift",
            ),
            (
                ok,
                32,
                128,
                Some(MaxShift::None),
                ZmaskError::ColumnShiftAboveMaxShift {
                    shift: 2,
                    max_shift: MaxShift::None,
                },
                "column_shift",
            ),
            (
                ZmaskFields {
                    start_count: [0, 5, 0, 0],
                    ..EX2
                },
                128,
                128,
                None,
                ZmaskError::UnusedStartCount {
                    sub_mask: 1,
                    value: 5,
                    m: 128,
                },
                "start_count_1",
            ),
            (
                ZmaskFields {
                    first_span: [false, false, false, true],
                    ..EX3
                },
                64,
                128,
                None,
                ZmaskError::UnusedFirstSpan { sub_mask: 3, m: 64 },
                "first_span_3",
            ),
            (
                ZmaskFields {
                    start_count: [0, 0, 4, 1],
                    ..ok
                },
                32,
                128,
                None,
                ZmaskError::StartCountPastFirstRun {
                    sub_mask: 2,
                    start_count: 4,
                    first_run: 4,
                },
                "start_count_2",
            ),
        ];
        for (f, m, n, ms, want, field) in cases {
            let got = all(&validate_for(&f, m, n, ms));
            assert_eq!(got, [want], "{want}");
            assert_eq!(want.field(), field);
            let sev = if matches!(
                want,
                ZmaskError::UnusedStartCount { .. }
                    | ZmaskError::UnusedFirstSpan { .. }
                    | ZmaskError::StartCountPastFirstRun { .. }
            ) {
                Severity::Warning
            } else {
                Severity::Error
            };
            assert_eq!(want.severity(), sev);
            assert!(!format!("{want}").is_empty());
        }
        // The warning's model: the pattern continues (start count 4 skips the 4 used columns).
        let f = ZmaskFields {
            start_count: [0, 0, 4, 1],
            ..ok
        };
        let m2 = sub_mask(&f, 2, 32, 64).expect("valid").expect("valid");
        assert!(low(&m2, "0000 111 0000 111"));
        // With non-zero mask 0 the pattern fields draw no warning.
        let f = ZmaskFields {
            start_count: [200, 9, 9, 9],
            first_span: [true; 4],
            ..EX1
        };
        assert!(validate_for(&f, 128, 128, None).is_empty());
        assert_eq!(
            sub_mask_width(32, 102),
            Err(ZmaskError::MaskWidth { n: 102, m: 32 })
        );
        assert_eq!(
            sub_mask_width(32, 0),
            Err(ZmaskError::MaskWidth { n: 0, m: 32 })
        );
        assert_eq!(
            sub_mask_width(128, 257),
            Err(ZmaskError::MaskWidth { n: 257, m: 128 })
        );
        assert_eq!(sub_mask(&EX2, 1, 128, 64), Ok(None));
        assert_eq!(sub_mask(&EX2, 9, 32, 64), Ok(None));
    }

    #[test]
    fn try_new_and_new_check_the_shift() {
        assert_eq!(
            ZeroColumnMask::try_new(ZmaskFields {
                column_shift: 33,
                ..EX2
            }),
            Err(ZmaskError::ColumnShift { shift: 33, max: 32 })
        );
        assert_eq!(
            ZeroColumnMask::try_new(ZmaskFields {
                column_shift: 200,
                ..EX2
            }),
            Err(ZmaskError::ColumnShift {
                shift: 200,
                max: 32
            })
        );
        assert!(ZeroColumnMask::try_new(ZmaskFields {
            column_shift: 32,
            ..EX2
        })
        .is_ok());
        let r = std::panic::catch_unwind(|| {
            ZeroColumnMask::new(ZmaskFields {
                column_shift: 40,
                ..EX2
            })
        });
        assert!(r.is_err());
    }

    #[test]
    fn every_reserved_bit_flipped() {
        let base = ZeroColumnMask::new(EX4).bits();
        for bit in [36u8, 37, 38, 62, 63] {
            let raw = base | (1u64 << bit);
            let d = ZeroColumnMask::decode(raw);
            assert_eq!(all(&d.diagnostics), [ZmaskError::ReservedBit { bit }]);
            assert_eq!(d.fields, EX4);
            let e = ZeroColumnMask::from_bits(raw).expect_err("fails");
            assert_eq!(e, ZmaskError::ReservedBit { bit });
            assert_eq!(e.field(), format!("bit {bit}"));
            assert_eq!(
                e.source(),
                if bit >= 62 {
                    Source::Decision(22)
                } else {
                    Source::PtxTable(45)
                }
            );
            assert_eq!(ZeroColumnMask::from_bits_unchecked(raw).bits(), raw);
        }
    }

    #[test]
    fn many_problems_at_once() {
        // All reserved bits, shift 63, and with context: M = 128 using sub-mask fields 1-3,
        // N = 100, max shift 8, start count 0 past a first run of 1.
        let f = ZmaskFields {
            start_count: [1, 2, 3, 4],
            first_span: [false, true, true, true],
            non_zero_mask: true,
            skip_span: 0,
            use_span: 0,
            column_shift: 63,
        };
        let raw = f.to_raw_unchecked() | 0xC000_0070_0000_0000;
        let d = ZeroColumnMask::decode(raw).diagnostics;
        assert_eq!(d.len(), 6);
        let d = ZeroColumnMask::decode_for(raw, 128, 100, Some(MaxShift::Rows8)).diagnostics;
        let got = all(&d);
        assert_eq!(
            got,
            [
                ZmaskError::ReservedBit { bit: 36 },
                ZmaskError::ReservedBit { bit: 37 },
                ZmaskError::ReservedBit { bit: 38 },
                ZmaskError::ReservedBit { bit: 62 },
                ZmaskError::ReservedBit { bit: 63 },
                ZmaskError::N { n: 100 },
                ZmaskError::ColumnShift { shift: 63, max: 32 },
                ZmaskError::ColumnShiftAboveMaxShift {
                    shift: 63,
                    max_shift: MaxShift::Rows8
                },
                ZmaskError::StartCountPastFirstRun {
                    sub_mask: 0,
                    start_count: 1,
                    first_run: 1
                },
                ZmaskError::UnusedStartCount {
                    sub_mask: 1,
                    value: 2,
                    m: 128
                },
                ZmaskError::UnusedFirstSpan {
                    sub_mask: 1,
                    m: 128
                },
                ZmaskError::UnusedStartCount {
                    sub_mask: 2,
                    value: 3,
                    m: 128
                },
                ZmaskError::UnusedFirstSpan {
                    sub_mask: 2,
                    m: 128
                },
                ZmaskError::UnusedStartCount {
                    sub_mask: 3,
                    value: 4,
                    m: 128
                },
                ZmaskError::UnusedFirstSpan {
                    sub_mask: 3,
                    m: 128
                },
            ]
        );
        assert!(!d.overflowed());
        assert_eq!(d.errors().count(), 8);
        assert_eq!(d.warnings().count(), 7);
        // M unknown too: M, N, shift errors, no sub-mask checks.
        let got = all(&ZeroColumnMask::decode_for(raw, 0, 0, Some(MaxShift::Rows32)).diagnostics);
        assert_eq!(got.len(), 5 + 4);
        // The worst case for M = 32.
        let d = ZeroColumnMask::decode_for(u64::MAX, 32, 1, Some(MaxShift::None)).diagnostics;
        assert!(!d.overflowed());
    }

    #[test]
    fn layout_table_covers_table_45() {
        let names: Vec<&str> = ZMASK_LAYOUT.iter().map(|r| r.field.name()).collect();
        assert_eq!(names.len(), 14);
        for (i, f) in ZmaskField::ALL.iter().enumerate() {
            assert_eq!(f.row().field, *f);
            assert_eq!(ZMASK_LAYOUT[i].field, *f);
        }
        assert_eq!(ZmaskField::SkipSpan.row().lo, 40);
        assert_eq!(ZmaskField::UseSpan.row().lo, 48);
        assert_eq!(ZmaskField::ColumnShift.row().width, 6);
        let reserved: u64 = ZMASK_LAYOUT
            .iter()
            .filter(|r| r.role == Role::Reserved)
            .map(|r| r.mask())
            .fold(0, |a, b| a | b);
        assert_eq!(reserved, 0xC000_0070_0000_0000);
        assert_eq!(ZmaskField::StartCount2.json_key(), "start_count");
        assert_eq!(ZmaskField::FirstSpan1.sub_mask(), Some(1));
    }

    #[test]
    fn display_table() {
        let s = format!("{}", ZeroColumnMask::new(EX4));
        assert!(
            s.starts_with("zero-column mask descriptor 0x0203028301020100"),
            "{s}"
        );
        assert_eq!(s.lines().count(), 15);
        assert!(
            s.contains("start_count_2   0b00000010  mask2 skips 2 position(s)"),
            "{s}"
        );
        assert!(s.contains("runs of 3 zeroed column(s)"), "{s}");
        assert!(s.contains("runs of 4 used column(s)"), "{s}");
        assert!(s.contains("B columns 2..2+N-1"), "{s}");
        assert!(s.contains("   39  non_zero_mask   0b1"), "{s}");
        let bad = format!("{}", ZeroColumnMask::from_bits_unchecked(1 << 63));
        assert!(bad.contains("reserved: SET"), "{bad}");
    }

    #[test]
    fn column_mask_helpers() {
        let m = ColumnMask::parse_bits(
            "0b1000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0001_1",
        )
        .expect("valid");
        assert_eq!(m.width(), 65);
        assert_eq!(m.iter_ones().collect::<Vec<_>>(), [0, 1, 64]);
        assert_eq!(m.count_ones(), 3);
        assert_eq!(format!("{m:x}"), "10000000000000003");
        assert_eq!(format!("{m:#x}"), "0x10000000000000003");
        assert_eq!(ColumnMask::parse_hex("0x1_0000_0000_0000_0003", 65), Ok(m));
        assert_eq!(
            ColumnMask::parse_hex("0x3_0000_0000_0000_0003", 65),
            Err(ColumnMaskError::BitBeyondWidth { bit: 65, width: 65 })
        );
        assert_eq!(ColumnMask::parse_bits("0b"), Err(ColumnMaskError::NoDigits));
        assert_eq!(
            ColumnMask::parse_bits("012"),
            Err(ColumnMaskError::BadDigit { byte: b'2' })
        );
        assert_eq!(ColumnMask::parse_hex("", 8), Err(ColumnMaskError::NoDigits));
        let long: String = core::iter::repeat_n('1', 257).collect();
        assert!(matches!(
            ColumnMask::parse_bits(&long),
            Err(ColumnMaskError::WidthTooLarge { .. })
        ));
        let full = ColumnMask::all_ones(256).expect("valid");
        assert_eq!(full.count_ones(), 256);
        assert_eq!(full.to_string().len(), 256);
        assert_eq!(ColumnMask::parse_bits(&full.to_string()), Ok(full));
        assert_eq!(format!("{full:x}").len(), 64);
        assert_eq!(
            ColumnMask::zeros(257),
            Err(ColumnMaskError::WidthTooLarge { width: 257 })
        );
        assert_eq!(
            ColumnMask::from_words([0, 0, 0, 1 << 63], 255),
            Err(ColumnMaskError::BitBeyondWidth {
                bit: 255,
                width: 255
            })
        );
        let z = ColumnMask::zeros(10)
            .expect("valid")
            .with_bit(9, true)
            .expect("valid");
        assert_eq!(z.to_string(), "1000000000");
        assert_eq!(
            z.with_bit(9, false).expect("valid"),
            ColumnMask::zeros(10).expect("valid")
        );
        assert_eq!(
            z.with_bit(10, true),
            Err(ColumnMaskError::ColumnOutOfRange {
                column: 10,
                width: 10
            })
        );
        assert!(!z.bit(300));
        assert_eq!(z.next_one(10), None);
        assert_eq!(ColumnMask::EMPTY.to_string(), "");
        assert_eq!(format!("{:?}", z), "ColumnMask<10>(0b1000000000)");
        assert_eq!(
            ColumnMask::from_u128(5, 3).expect("valid").to_string(),
            "101"
        );
    }

    #[test]
    fn pattern_matches_the_bitwise_definition() {
        for skip in [0u8, 1, 2, 5, 63, 64, 200, 255] {
            for use_ in [0u8, 1, 3, 63, 64, 65, 255] {
                for sc in [0u8, 1, 2, 7, 64, 127, 255] {
                    for fs in [false, true] {
                        let m = pattern(fs, sc, skip, use_, 256);
                        let (a, b) = (skip as u16 + 1, use_ as u16 + 1);
                        let first = if fs { a } else { b };
                        for j in 0..256u16 {
                            let q = (j + sc as u16) % (a + b);
                            let v = if q < first { fs } else { !fs };
                            assert_eq!(
                                m.bit(j),
                                v,
                                "skip {skip} use {use_} sc {sc} fs {fs} bit {j}"
                            );
                        }
                    }
                }
            }
        }
    }
}
