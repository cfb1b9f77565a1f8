//! The zero-column mask descriptor of `tcgen05.mma.ws` (PTX ISA 9.7.16.4.3, Table 45): which
//! columns of B an MMA replaces by zeros, and from which column of B it starts reading.
//!
//! The descriptor is a 64-bit register value. It does not list the zeroed columns; it describes
//! a periodic pattern that the hardware expands into an N-bit *column mask*, where a 1-bit means
//! "use zeros for this whole column of B" and a 0-bit means "use the column from shared memory".
//!
//! # The pattern (rules.md R19-R21)
//!
//! - **Spans.** Table 45's description column says Skip Span counts the columns where B is used
//!   and Use Span the columns where zeros are used. The worked examples of the same section, the
//!   field names and CUTLASS all say the opposite, and the examples win (rules.md R19):
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
//!   (rules.md R16).
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
use crate::bits::{BitField, LayoutField, Meaning, RowValue};
use crate::diagnostic::Diagnostics;

// The descriptor, the column-mask bitset and its text forms, the errors and the solver, one
// file each; their items are this module's.
mod bitset;
mod descriptor;
mod error;
mod solver;
mod text;

pub use bitset::*;
pub use descriptor::*;
pub use error::*;
pub use solver::*;

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
    /// Skip Span, bits 40-47: length of each run of zeroed columns, minus one (rules.md R19).
    SkipSpan,
    /// Use Span, bits 48-55: length of each run of used columns, minus one (rules.md R19).
    UseSpan,
    /// Column Shift, bits 56-61.
    ColumnShift,
    /// Reserved bits 62-63 (rules.md R22).
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

impl LayoutField for ZmaskField {
    fn name(self) -> &'static str {
        ZmaskField::name(self)
    }
    fn key(self) -> &'static str {
        self.json_key()
    }
}

/// Meaning of Start Count 0: positions of sub-mask 0's pattern skipped before its bit 0, for
/// every M (Table 45; rules.md R20).
pub const START_COUNT_0: Meaning = Meaning::Number {
    text: "mask0 skips {} position(s) of its pattern (every M)",
};
/// Meaning of Start Count 1, used for M = 32 and 64 (Table 45; rules.md R20).
pub const START_COUNT_1: Meaning = Meaning::Number {
    text: "mask1 skips {} position(s) of its pattern (M = 32, 64)",
};
/// Meaning of Start Count 2, used for M = 32 only (Table 45; rules.md R20).
pub const START_COUNT_2: Meaning = Meaning::Number {
    text: "mask2 skips {} position(s) of its pattern (M = 32)",
};
/// Meaning of Start Count 3, used for M = 32 only (Table 45; rules.md R20).
pub const START_COUNT_3: Meaning = Meaning::Number {
    text: "mask3 skips {} position(s) of its pattern (M = 32)",
};

/// The names of a First Span bit: 0 starts the pattern with used columns, 1 with zeroed ones
/// (Table 45; rules.md R19).
const FIRST_SPAN_NAMES: [&str; 2] = ["used", "zeroed"];

/// Meaning of First Span 0, for every M (Table 45).
pub const FIRST_SPAN_0: Meaning = Meaning::Flag {
    names: FIRST_SPAN_NAMES,
    text: "mask0 starts with {} columns (every M)",
};
/// Meaning of First Span 1, used for M = 32 and 64 (Table 45).
pub const FIRST_SPAN_1: Meaning = Meaning::Flag {
    names: FIRST_SPAN_NAMES,
    text: "mask1 starts with {} columns (M = 32, 64)",
};
/// Meaning of First Span 2, used for M = 32 only (Table 45).
pub const FIRST_SPAN_2: Meaning = Meaning::Flag {
    names: FIRST_SPAN_NAMES,
    text: "mask2 starts with {} columns (M = 32)",
};
/// Meaning of First Span 3, used for M = 32 only (Table 45).
pub const FIRST_SPAN_3: Meaning = Meaning::Flag {
    names: FIRST_SPAN_NAMES,
    text: "mask3 starts with {} columns (M = 32)",
};

/// Meaning of Non-Zero Mask: 0 zeroes no column whatever the other fields hold (PTX example 1;
/// rules.md R21), 1 generates the mask.
pub const NON_ZERO_MASK: Meaning = Meaning::Flag {
    names: ["0: no column is zeroed", "1: generate the mask"],
    text: "{}",
};

/// Meaning of Skip Span: each run of zeroed columns is one longer (rules.md R19).
pub const SKIP_SPAN: Meaning = Meaning::Count {
    plus: 1,
    text: "runs of {} zeroed column(s) (R19)",
};

/// Meaning of Use Span: each run of used columns is one longer (rules.md R19).
pub const USE_SPAN: Meaning = Meaning::Count {
    plus: 1,
    text: "runs of {} used column(s) (R19)",
};

/// Meaning of Column Shift: the first column of B the MMA reads (Table 45; rules.md R22).
pub const COLUMN_SHIFT: Meaning = Meaning::Number {
    text: "the MMA reads B columns {}..{}+N-1",
};

bit_layout! {
    /// The zero-column mask descriptor's bit layout (PTX ISA 9.7.16.4.3, Table 45), one row per
    /// field. Skip Span and Use Span follow the worked examples, not the table's description
    /// column (rules.md R19); bits 62-63, which Table 45 does not list, are reserved (R22).
    pub const ZMASK_LAYOUT: [BitField<ZmaskField>; 64 bits] = {
        0 ..= 7   StartCount0 value: START_COUNT_0 "Start Count 0 (sc0)"                 (Table 45);
        8 ..= 15  StartCount1 value: START_COUNT_1 "Start Count 1 (sc1)"                 (Table 45);
        16 ..= 23 StartCount2 value: START_COUNT_2 "Start Count 2 (sc2)"                 (Table 45);
        24 ..= 31 StartCount3 value: START_COUNT_3 "Start Count 3 (sc3)"                 (Table 45);
        32 ..= 32 FirstSpan0  value: FIRST_SPAN_0  "First Span 0 (fs0)"                  (Table 45);
        33 ..= 33 FirstSpan1  value: FIRST_SPAN_1  "First Span 1 (fs1)"                  (Table 45);
        34 ..= 34 FirstSpan2  value: FIRST_SPAN_2  "First Span 2 (fs2)"                  (Table 45);
        35 ..= 35 FirstSpan3  value: FIRST_SPAN_3  "First Span 3 (fs3)"                  (Table 45);
        36 ..= 38 Reserved36  reserved             "Reserved"                            (Table 45);
        39 ..= 39 NonZeroMask value: NON_ZERO_MASK "Non-Zero Mask"                       (Table 45);
        40 ..= 47 SkipSpan    value: SKIP_SPAN     "Skip Span (zeroed columns - 1)"      (R 19);
        48 ..= 55 UseSpan     value: USE_SPAN      "Use Span (used columns - 1)"         (R 19);
        56 ..= 61 ColumnShift value: COLUMN_SHIFT  "Column Shift"                        (Table 45);
        62 ..= 63 Reserved62  reserved             "Unnamed"                             (R 22);
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

/// How many sub-masks M splits the column mask into (Table 45; rules.md R21): 1 for
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

/// The width of each sub-mask: N / (128 / M) (Table 45; rules.md R21).
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
/// The spans hold the stored values, one less than the run lengths (rules.md R19). Index `i`
/// of `start_count` and `first_span` is sub-mask `i` (`sc_i`, `fs_i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ZmaskFields {
    /// Start Count `sc_i` (bits 0-31, 8 bits each): how many positions of sub-mask `i`'s
    /// periodic pattern are skipped before its bit 0 (rules.md R20).
    pub start_count: [u8; 4],
    /// First Span `fs_i` (bits 32-35): `true` when sub-mask `i`'s pattern starts with a run of
    /// zeroed columns, `false` when it starts with a run of used columns.
    pub first_span: [bool; 4],
    /// Non-Zero Mask (bit 39): `false` makes the whole mask zero (no column zeroed) whatever the
    /// other fields hold; `true` generates the mask.
    pub non_zero_mask: bool,
    /// Skip Span (bits 40-47): each run of zeroed columns (mask bits 1) is `skip_span + 1` long
    /// (rules.md R19).
    pub skip_span: u8,
    /// Use Span (bits 48-55): each run of used columns (mask bits 0) is `use_span + 1` long
    /// (rules.md R19).
    pub use_span: u8,
    /// Column Shift (bits 56-61): the MMA reads B columns `column_shift .. column_shift + N`.
    /// At most 16 for M = 32 and 32 otherwise (Table 45; rules.md R22).
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
        while i < ZMASK_LAYOUT.len() {
            let row = &ZMASK_LAYOUT[i];
            if let Some(v) = self.value(row.field) {
                raw = row.set(raw, row.bits_of(v));
            }
            i += 1;
        }
        raw
    }

    /// The value of one row as its [`Meaning`] reads it (a number or a flag), as given, whether
    /// valid or not; `None` for the reserved rows. Encoding writes these values, and the command
    /// prints them.
    #[must_use]
    pub const fn value(&self, field: ZmaskField) -> Option<RowValue> {
        Some(match field {
            ZmaskField::StartCount0
            | ZmaskField::StartCount1
            | ZmaskField::StartCount2
            | ZmaskField::StartCount3 => RowValue::Number(
                self.start_count[field as usize - ZmaskField::StartCount0 as usize] as u64,
            ),
            ZmaskField::FirstSpan0
            | ZmaskField::FirstSpan1
            | ZmaskField::FirstSpan2
            | ZmaskField::FirstSpan3 => {
                RowValue::Flag(self.first_span[field as usize - ZmaskField::FirstSpan0 as usize])
            }
            ZmaskField::NonZeroMask => RowValue::Flag(self.non_zero_mask),
            ZmaskField::SkipSpan => RowValue::Number(self.skip_span as u64),
            ZmaskField::UseSpan => RowValue::Number(self.use_span as u64),
            ZmaskField::ColumnShift => RowValue::Number(self.column_shift as u64),
            ZmaskField::Reserved36 | ZmaskField::Reserved62 => return None,
        })
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
    /// starts zeroed, `use_span + 1` otherwise (rules.md R19, R20). `i` is taken modulo 4.
    #[must_use]
    pub const fn first_run(&self, i: usize) -> u16 {
        if self.first_span[i & 3] {
            self.skip_span as u16 + 1
        } else {
            self.use_span as u16 + 1
        }
    }

    /// The columns of B that an MMA of width `n` reads: `column_shift .. column_shift + n`
    /// (Table 45; PTX example 4: shift 2 and N = 128 read columns 2 to 129; rules.md R22).
    /// Bit `j` of the column mask concerns B column `column_shift + j`.
    #[must_use]
    pub const fn read_columns(&self, n: u16) -> Range<u16> {
        let start = self.column_shift as u16;
        start..start.saturating_add(n)
    }
}

/// The diagnostics list of this module: room for every problem one value can have.
pub type ZmaskDiagnostics = Diagnostics<ZmaskError, 16>;

#[cfg(test)]
mod tests;
