//! Tensor Memory (TMEM): addresses, allocation sizes, and the data-movement shapes of
//! `tcgen05.ld`, `tcgen05.st`, `tcgen05.cp` and `tcgen05.shift`.
//!
//! Sources: PTX ISA 9.7.16.1.1 (addressing), 9.7.16.2.3 (data movement shapes), 9.7.16.7.1
//! (allocation), 9.7.16.8.1 (which warp may access which lanes), 9.7.16.8.3 Tables 49-50 (`.num`
//! and register counts), 9.7.16.9.2 (`tcgen05.cp`), 9.7.16.9.3 (`tcgen05.shift`), and
//! decisions.md R23-R24.
//!
//! - [`TmemAddress`]: a 32-bit TMEM address, lane in bits 31-16 and column in bits 15-0, always
//!   inside the 128 lanes x 512 columns of one CTA (R24).
//! - [`AllocColumns`]: the column count of `tcgen05.alloc` / `tcgen05.dealloc`, a power of two
//!   from 32 to 512 (R24).
//! - [`LdStShape`] with [`Num`] and [`registers_per_thread`]: the `tcgen05.ld` / `tcgen05.st`
//!   shapes and their register vectors (Tables 49-50).
//! - [`CpShape`] with [`CpMulticast`] and [`validate_cp`]: the `tcgen05.cp` shapes and the
//!   multicast qualifier each one needs (R23).
//! - [`ShiftShape`]: `.31x256b`, the implicit shape of `tcgen05.shift` (not a `.cp` shape, R23).
//! - [`DataMovementShape`]: any of the above, parsed from its PTX name.
//!
//! Every problem is a [`TmemError`], which names the field, the value and the rule's [`Source`].
//!
//! # Examples
//!
//! ```
//! use tcgen05::tensor_memory::{registers_per_thread, LdStShape, Num, TmemAddress};
//!
//! // Lane 64, column 16: the third warp of a warpgroup owns lanes 64-95.
//! const D: TmemAddress = TmemAddress::new(64, 16);
//! assert_eq!(D.bits(), 0x0040_0010);
//! assert!(D.accessible_by_warp(6)); // 6 % 4 == 2
//! assert!(!D.accessible_by_warp(1));
//!
//! // tcgen05.ld.sync.aligned.16x256b.x8.b32 needs 32 registers per thread.
//! assert_eq!(registers_per_thread(LdStShape::S16x256b, Num::X8), Ok(32));
//! assert!(registers_per_thread(LdStShape::S16x256b, Num::X64).is_err());
//! ```

use core::fmt;

use crate::bits::BitField;
use crate::diagnostic::{Diagnostic, Diagnostics, Source};
use crate::mma::{bytes_eq, strip_prefix};

/// Lanes (rows) of Tensor Memory per CTA on every tcgen05 target (PTX ISA 9.7.16.1; R24).
pub const TMEM_LANES: u32 = 128;

/// 32-bit columns of Tensor Memory per CTA on every tcgen05 target (PTX ISA 9.7.16.1; R24).
pub const TMEM_COLUMNS: u32 = 512;

/// Lanes each warp of a warpgroup may access: warp `w` owns lanes `32 * (w % 4)` to
/// `32 * (w % 4) + 31` (PTX ISA 9.7.16.8.1).
pub const LANES_PER_WARP: u32 = 32;

/// The largest register vector of one `tcgen05.ld` / `tcgen05.st`, per thread (Tables 49-50).
pub const MAX_REGISTERS_PER_THREAD: u16 = 128;

// ---------------------------------------------------------------------------------------------
// Fields and errors
// ---------------------------------------------------------------------------------------------

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

/// The tcgen05 instructions that move data to or from Tensor Memory, as far as shapes go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TmemOp {
    /// `tcgen05.ld` and `tcgen05.st` (same shapes).
    LdSt,
    /// `tcgen05.cp`.
    Cp,
    /// `tcgen05.shift`.
    Shift,
}

impl TmemOp {
    /// The instruction's name, for example `"tcgen05.ld/st"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TmemOp::LdSt => "tcgen05.ld/st",
            TmemOp::Cp => "tcgen05.cp",
            TmemOp::Shift => "tcgen05.shift",
        }
    }
}

impl fmt::Display for TmemOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule of Tensor Memory addressing, allocation or data movement that a value breaks.
///
/// Every variant names its [`TmemField`], the value it saw ([`Diagnostic::value`]) and the
/// rule's [`Source`]. Name-parsing errors have no number to report: their value is 0 and the
/// message says what was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TmemError {
    /// The lane is 128 or more: a CTA has 128 lanes (PTX ISA 9.7.16.1.1; decisions.md R24).
    LaneOutOfRange {
        /// The lane asked for.
        lane: u64,
    },
    /// The column is 512 or more: a CTA has 512 columns (PTX ISA 9.7.16.1.1; decisions.md R24).
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
    /// `nCols` is below 32 or above 512 (PTX ISA 9.7.16.7.1; decisions.md R24).
    NColsOutOfRange {
        /// The column count asked for.
        n_cols: u32,
    },
    /// `nCols` is between 32 and 512 but not a power of two (PTX ISA 9.7.16.7.1; decisions.md
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
    /// of `tcgen05.shift`) given as a `tcgen05.cp` shape (decisions.md R23).
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
    /// none (PTX ISA 9.7.16.9.2; decisions.md R23).
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

impl TmemError {
    /// The field the error is about.
    #[must_use]
    pub const fn tmem_field(&self) -> TmemField {
        match self {
            TmemError::LaneOutOfRange { .. }
            | TmemError::LaneNotInWarpQuadrant { .. }
            | TmemError::ShiftLaneNotAligned { .. } => TmemField::Lane,
            TmemError::ColumnOutOfRange { .. } => TmemField::Column,
            TmemError::NColsOutOfRange { .. } | TmemError::NColsNotPowerOfTwo { .. } => {
                TmemField::NCols
            }
            TmemError::UnknownShape { .. } | TmemError::ShapeOfOtherOp { .. } => TmemField::Shape,
            TmemError::InvalidNum { .. } | TmemError::NumTooLargeForShape { .. } => TmemField::Num,
            TmemError::UnknownMulticast | TmemError::CpMulticastMismatch { .. } => {
                TmemField::Multicast
            }
        }
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
        match self {
            TmemError::LaneOutOfRange { .. } | TmemError::ColumnOutOfRange { .. } => {
                Source::Decision(24)
            }
            TmemError::LaneNotInWarpQuadrant { .. } => Source::PtxSection("9.7.16.8.1"),
            TmemError::NColsOutOfRange { .. } | TmemError::NColsNotPowerOfTwo { .. } => {
                Source::PtxSection("9.7.16.7.1")
            }
            TmemError::UnknownShape { .. } => Source::PtxSection("9.7.16.2.3"),
            TmemError::ShapeOfOtherOp { .. } | TmemError::CpMulticastMismatch { .. } => {
                Source::Decision(23)
            }
            TmemError::InvalidNum { .. } => Source::PtxSection("9.7.16.8.3"),
            TmemError::NumTooLargeForShape { .. } => Source::PtxTable(49),
            TmemError::UnknownMulticast => Source::PtxSection("9.7.16.9.2"),
            TmemError::ShiftLaneNotAligned { .. } => Source::PtxSection("9.7.16.9.3"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TmemError {}

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

crate::bit_layout! {
    /// The 32-bit Tensor Memory address (PTX ISA 9.7.16.1.1 Figure "Tensor Memory addressing";
    /// decisions.md R24): `lane << 16 | column`.
    pub const TMEM_ADDRESS_LAYOUT: [BitField<TmemField>; 32 bits] = {
        0 ..= 15  Column  value  "Column index"  (R 24);
        16 ..= 31 Lane    value  "Lane index"    (R 24);
    }
}

const COLUMN_ROW: BitField<TmemField> = TMEM_ADDRESS_LAYOUT[0];
const LANE_ROW: BitField<TmemField> = TMEM_ADDRESS_LAYOUT[1];
const _: () = assert!(
    matches!(COLUMN_ROW.field, TmemField::Column) && matches!(LANE_ROW.field, TmemField::Lane),
    "TMEM_ADDRESS_LAYOUT rows are out of order"
);

/// The first lane that warp `warp_id` of a CTA may access: `32 * (warp_id % 4)`
/// (PTX ISA 9.7.16.8.1). The warp owns that lane and the 31 after it.
#[must_use]
pub const fn warp_first_lane(warp_id: u32) -> u32 {
    (warp_id % 4) * LANES_PER_WARP
}

/// The lane and column of a Tensor Memory address as the user thinks of them, without the
/// range checks of [`TmemAddress`] (for showing any raw value, valid or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TmemAddressFields {
    /// Lane (row) index, bits 31-16; valid below 128.
    pub lane: u32,
    /// Column index (32-bit cells), bits 15-0; valid below 512.
    pub column: u32,
}

impl TmemAddressFields {
    /// Splits a raw 32-bit address into its fields, checking nothing.
    #[must_use]
    pub const fn from_bits(raw: u32) -> Self {
        Self {
            lane: LANE_ROW.get(raw as u64) as u32,
            column: COLUMN_ROW.get(raw as u64) as u32,
        }
    }

    /// Every rule the fields break: lane below 128, column below 512 (decisions.md R24).
    #[must_use]
    pub const fn validate(&self) -> Diagnostics<TmemError, 2> {
        let mut d = Diagnostics::new();
        if self.lane >= TMEM_LANES {
            d.push(TmemError::LaneOutOfRange {
                lane: self.lane as u64,
            });
        }
        if self.column >= TMEM_COLUMNS {
            d.push(TmemError::ColumnOutOfRange {
                column: self.column as u64,
            });
        }
        d
    }

    /// The address of these fields.
    ///
    /// # Errors
    /// The first rule broken, as [`TmemAddress::try_new`].
    pub const fn encode(self) -> Result<TmemAddress, TmemError> {
        TmemAddress::try_new(self.lane, self.column)
    }
}

/// A Tensor Memory address: lane (row) index in bits 31-16, column index in bits 15-0
/// (PTX ISA 9.7.16.1.1; decisions.md R24).
///
/// A `TmemAddress` always satisfies R24: lane below 128 and column below 512, the size of one
/// CTA's Tensor Memory on every tcgen05 target. (CUTLASS keeps a sub-word byte offset in bits
/// 31-30 of its internal addresses; such values are not PTX addresses and are refused.)
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(transparent)]
pub struct TmemAddress(u32);

impl TmemAddress {
    /// Lane 0, column 0.
    pub const ZERO: TmemAddress = TmemAddress(0);

    /// The address of `lane` and `column`.
    ///
    /// # Errors
    /// [`TmemError::LaneOutOfRange`] when `lane >= 128`, otherwise
    /// [`TmemError::ColumnOutOfRange`] when `column >= 512` (decisions.md R24).
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::{TmemAddress, TmemError};
    /// assert_eq!(TmemAddress::try_new(32, 8).map(|a| a.bits()), Ok(0x0020_0008));
    /// assert_eq!(
    ///     TmemAddress::try_new(128, 0),
    ///     Err(TmemError::LaneOutOfRange { lane: 128 })
    /// );
    /// ```
    pub const fn try_new(lane: u32, column: u32) -> Result<Self, TmemError> {
        if lane >= TMEM_LANES {
            return Err(TmemError::LaneOutOfRange { lane: lane as u64 });
        }
        if column >= TMEM_COLUMNS {
            return Err(TmemError::ColumnOutOfRange {
                column: column as u64,
            });
        }
        let raw = LANE_ROW.set(COLUMN_ROW.set(0, column as u64), lane as u64);
        Ok(Self(raw as u32))
    }

    /// The address of `lane` and `column`, for constants.
    ///
    /// # Panics
    /// When [`TmemAddress::try_new`] fails; in a `const` item that is a compile error.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::TmemAddress;
    /// const ACC: TmemAddress = TmemAddress::new(0, 256);
    /// assert_eq!(ACC.column(), 256);
    /// ```
    #[must_use]
    pub const fn new(lane: u32, column: u32) -> Self {
        match Self::try_new(lane, column) {
            Ok(a) => a,
            Err(TmemError::LaneOutOfRange { .. }) => {
                panic!("TMEM lane out of range: a CTA has lanes 0-127 (decisions.md R24)")
            }
            Err(_) => {
                panic!("TMEM column out of range: a CTA has columns 0-511 (decisions.md R24)")
            }
        }
    }

    /// Decodes a raw 32-bit address, such as the one `tcgen05.alloc` writes to shared memory.
    ///
    /// # Errors
    /// The first rule broken, as [`TmemAddress::try_new`]; [`TmemAddress::validate`] lists all.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::TmemAddress;
    /// let a = TmemAddress::from_bits(0x0060_01f0).expect("must succeed");
    /// assert_eq!((a.lane(), a.column()), (96, 496));
    /// assert!(TmemAddress::from_bits(0x0000_0200).is_err()); // column 512
    /// ```
    pub const fn from_bits(raw: u32) -> Result<Self, TmemError> {
        TmemAddressFields::from_bits(raw).encode()
    }

    /// Every rule a raw address breaks (at most one per field).
    #[must_use]
    pub const fn validate(raw: u32) -> Diagnostics<TmemError, 2> {
        TmemAddressFields::from_bits(raw).validate()
    }

    /// The address of `fields`.
    ///
    /// # Errors
    /// As [`TmemAddress::try_new`].
    pub const fn from_fields(fields: TmemAddressFields) -> Result<Self, TmemError> {
        fields.encode()
    }

    /// The raw 32-bit address, as a `tcgen05` instruction takes it.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The lane (row) index, 0-127.
    #[must_use]
    pub const fn lane(self) -> u32 {
        LANE_ROW.get(self.0 as u64) as u32
    }

    /// The column index, 0-511, in 32-bit cells.
    #[must_use]
    pub const fn column(self) -> u32 {
        COLUMN_ROW.get(self.0 as u64) as u32
    }

    /// The lane and column.
    #[must_use]
    pub const fn fields(self) -> TmemAddressFields {
        TmemAddressFields {
            lane: self.lane(),
            column: self.column(),
        }
    }

    /// The address `lanes` rows down and `columns` columns right of this one.
    ///
    /// # Errors
    /// [`TmemError::LaneOutOfRange`] or [`TmemError::ColumnOutOfRange`] (with the lane or column
    /// that would result) when the result leaves the CTA's 128 x 512 cells.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::TmemAddress;
    /// let base = TmemAddress::new(0, 128);
    /// assert_eq!(base.offset(32, 64), Ok(TmemAddress::new(32, 192)));
    /// assert!(base.offset(0, 384).is_err());
    /// ```
    pub const fn offset(self, lanes: u32, columns: u32) -> Result<Self, TmemError> {
        let lane = self.lane() as u64 + lanes as u64;
        let column = self.column() as u64 + columns as u64;
        if lane >= TMEM_LANES as u64 {
            return Err(TmemError::LaneOutOfRange { lane });
        }
        if column >= TMEM_COLUMNS as u64 {
            return Err(TmemError::ColumnOutOfRange { column });
        }
        Self::try_new(lane as u32, column as u32)
    }

    /// The 32-lane quadrant (sub-partition) of the address's lane: `lane / 32`, 0-3.
    #[must_use]
    pub const fn lane_quadrant(self) -> u32 {
        self.lane() / LANES_PER_WARP
    }

    /// True when warp `warp_id` of the CTA may access this lane: warp `w` reaches only lanes
    /// `32 * (w % 4)` to `32 * (w % 4) + 31` (PTX ISA 9.7.16.8.1). Every column is accessible.
    #[must_use]
    pub const fn accessible_by_warp(self, warp_id: u32) -> bool {
        warp_id % 4 == self.lane_quadrant()
    }

    /// Checks the warp-to-lane rule of [`TmemAddress::accessible_by_warp`].
    ///
    /// # Errors
    /// [`TmemError::LaneNotInWarpQuadrant`] when the warp may not access the lane.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::TmemAddress;
    /// assert!(TmemAddress::new(40, 0).check_warp_access(5).is_ok());
    /// assert!(TmemAddress::new(40, 0).check_warp_access(4).is_err());
    /// ```
    pub const fn check_warp_access(self, warp_id: u32) -> Result<(), TmemError> {
        if self.accessible_by_warp(warp_id) {
            Ok(())
        } else {
            Err(TmemError::LaneNotInWarpQuadrant {
                lane: self.lane(),
                warp: warp_id,
            })
        }
    }
}

impl From<TmemAddress> for u32 {
    fn from(a: TmemAddress) -> u32 {
        a.bits()
    }
}

impl fmt::Debug for TmemAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TmemAddress({:#010x}: lane {}, column {})",
            self.0,
            self.lane(),
            self.column()
        )
    }
}

impl fmt::LowerHex for TmemAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.0, f)
    }
}

/// A table of the address, one line per field of [`TMEM_ADDRESS_LAYOUT`], highest bits first.
impl fmt::Display for TmemAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TMEM address {:#010x}", self.0)?;
        let mut i = TMEM_ADDRESS_LAYOUT.len();
        while i > 0 {
            i -= 1;
            if let Some(row) = TMEM_ADDRESS_LAYOUT.get(i) {
                let v = row.get(self.0 as u64);
                writeln!(
                    f,
                    "  bits {:>2}-{:<2}  {:#06x}  {:<6} {:>3}  ({}, {})",
                    row.hi(),
                    row.lo,
                    v,
                    row.field.name(),
                    v,
                    row.title,
                    row.source
                )?;
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Allocation
// ---------------------------------------------------------------------------------------------

/// A column count that `tcgen05.alloc` and `tcgen05.dealloc` accept: a power of two from 32 to
/// 512 (PTX ISA 9.7.16.7.1; decisions.md R24). Allocation always covers all 128 lanes.
///
/// An `AllocColumns` always holds 32, 64, 128, 256 or 512.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(transparent)]
pub struct AllocColumns(u32);

impl AllocColumns {
    /// The smallest allocation (also the allocation unit): 32 columns.
    pub const MIN: AllocColumns = AllocColumns(32);
    /// The whole Tensor Memory of a CTA: 512 columns.
    pub const MAX: AllocColumns = AllocColumns(TMEM_COLUMNS);
    /// Every valid column count, smallest first.
    pub const ALL: [AllocColumns; 5] = [
        AllocColumns(32),
        AllocColumns(64),
        AllocColumns(128),
        AllocColumns(256),
        AllocColumns(512),
    ];

    /// Checks an `nCols` operand.
    ///
    /// # Errors
    /// [`TmemError::NColsOutOfRange`] below 32 or above 512 (0 included);
    /// [`TmemError::NColsNotPowerOfTwo`] for other values that are not powers of two.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::{AllocColumns, TmemError};
    /// assert_eq!(AllocColumns::try_new(256).map(AllocColumns::get), Ok(256));
    /// assert_eq!(AllocColumns::try_new(96), Err(TmemError::NColsNotPowerOfTwo { n_cols: 96 }));
    /// assert_eq!(AllocColumns::try_new(1024), Err(TmemError::NColsOutOfRange { n_cols: 1024 }));
    /// ```
    pub const fn try_new(n_cols: u32) -> Result<Self, TmemError> {
        if n_cols < Self::MIN.0 || n_cols > Self::MAX.0 {
            Err(TmemError::NColsOutOfRange { n_cols })
        } else if !n_cols.is_power_of_two() {
            Err(TmemError::NColsNotPowerOfTwo { n_cols })
        } else {
            Ok(Self(n_cols))
        }
    }

    /// A column count for constants.
    ///
    /// # Panics
    /// When [`AllocColumns::try_new`] fails; in a `const` item that is a compile error.
    #[must_use]
    pub const fn new(n_cols: u32) -> Self {
        match Self::try_new(n_cols) {
            Ok(n) => n,
            Err(_) => panic!(
                "tcgen05.alloc nCols must be a power of two from 32 to 512 (PTX ISA 9.7.16.7.1)"
            ),
        }
    }

    /// The number of columns.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }
}

impl fmt::Display for AllocColumns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} columns", self.0)
    }
}

/// Checks the `nCols` operand of `tcgen05.alloc` / `tcgen05.dealloc`; the same as
/// [`AllocColumns::try_new`].
///
/// # Errors
/// As [`AllocColumns::try_new`].
pub const fn validate_alloc_columns(n_cols: u32) -> Result<AllocColumns, TmemError> {
    AllocColumns::try_new(n_cols)
}

// ---------------------------------------------------------------------------------------------
// tcgen05.ld / tcgen05.st
// ---------------------------------------------------------------------------------------------

/// A data-movement shape of `tcgen05.ld` and `tcgen05.st`, written `lanes x bits` per lane
/// (PTX ISA 9.7.16.2.3; decisions.md R23).
///
/// One warp executes the instruction; each repetition (`.num`) moves [`LdStShape::bits_per_lane`]
/// bits in each of [`LdStShape::lanes`] lanes, [`LdStShape::accesses`] times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum LdStShape {
    /// `.16x64b`: 16 lanes, 64 bits (2 columns) each.
    S16x64b,
    /// `.16x128b`: 16 lanes, 128 bits (4 columns) each.
    S16x128b,
    /// `.16x256b`: 16 lanes, 256 bits (8 columns) each.
    S16x256b,
    /// `.16x32bx2`: two `.16x32b` accesses, at `taddr` and at `taddr + immHalfSplitoff`.
    S16x32bx2,
    /// `.32x32b`: 32 lanes, 32 bits (1 column) each.
    S32x32b,
}

impl LdStShape {
    /// Every shape, in the order of PTX ISA 9.7.16.2.3.
    pub const ALL: [LdStShape; 5] = [
        LdStShape::S16x64b,
        LdStShape::S16x128b,
        LdStShape::S16x256b,
        LdStShape::S16x32bx2,
        LdStShape::S32x32b,
    ];

    /// The PTX qualifier, for example `".16x64b"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LdStShape::S16x64b => ".16x64b",
            LdStShape::S16x128b => ".16x128b",
            LdStShape::S16x256b => ".16x256b",
            LdStShape::S16x32bx2 => ".16x32bx2",
            LdStShape::S32x32b => ".32x32b",
        }
    }

    /// Parses a shape name, with or without the leading dot.
    ///
    /// # Errors
    /// [`TmemError::ShapeOfOtherOp`] for a `tcgen05.cp` shape or `.31x256b`;
    /// [`TmemError::UnknownShape`] otherwise.
    pub const fn from_name(name: &str) -> Result<LdStShape, TmemError> {
        match DataMovementShape::from_name(name) {
            Ok(DataMovementShape::LdSt(s)) => Ok(s),
            Ok(shape) => Err(TmemError::ShapeOfOtherOp {
                shape,
                wanted: TmemOp::LdSt,
            }),
            Err(_) => Err(TmemError::UnknownShape { op: TmemOp::LdSt }),
        }
    }

    /// Lanes (rows) of Tensor Memory one warp accesses: 16 or 32.
    #[must_use]
    pub const fn lanes(self) -> u32 {
        match self {
            LdStShape::S32x32b => 32,
            _ => 16,
        }
    }

    /// Bits per lane of one access in one repetition, as the shape's name writes them
    /// (`.16x32bx2`: 32, in each of its two accesses).
    #[must_use]
    pub const fn bits_per_lane(self) -> u32 {
        match self {
            LdStShape::S16x64b => 64,
            LdStShape::S16x128b => 128,
            LdStShape::S16x256b => 256,
            LdStShape::S16x32bx2 | LdStShape::S32x32b => 32,
        }
    }

    /// Accesses per repetition: 2 for `.16x32bx2` (at `taddr` and `taddr + immHalfSplitoff`),
    /// 1 for the others.
    #[must_use]
    pub const fn accesses(self) -> u32 {
        match self {
            LdStShape::S16x32bx2 => 2,
            _ => 1,
        }
    }

    /// 32-bit columns one access touches in each lane per repetition: `bits_per_lane / 32`
    /// (2, 4, 8, 1, 1). With `.numxN` an access spans `N` times as many consecutive columns
    /// from the address's column (twice that with `.pack::16b` / `.unpack::16b`); `.16x32bx2`
    /// touches this many in each of its two accesses.
    ///
    /// This and [`LdStShape::lanes`] are what a thread-to-(lane, column) fragment map needs.
    #[must_use]
    pub const fn columns_per_num(self) -> u32 {
        self.bits_per_lane() / 32
    }

    /// 32-bit registers per thread at `.x1`: `lanes * bits_per_lane * accesses / (32 threads *
    /// 32 bits)` = 1, 2, 4, 1, 1 (Tables 49-50).
    #[must_use]
    pub const fn registers_per_num(self) -> u16 {
        match self {
            LdStShape::S16x64b | LdStShape::S16x32bx2 | LdStShape::S32x32b => 1,
            LdStShape::S16x128b => 2,
            LdStShape::S16x256b => 4,
        }
    }

    /// The largest `.num` the shape takes (Tables 49-50): `.x128` for `.16x64b`, `.16x32bx2`
    /// and `.32x32b`, `.x64` for `.16x128b`, `.x32` for `.16x256b` (128 registers each).
    #[must_use]
    pub const fn max_num(self) -> Num {
        match self {
            LdStShape::S16x64b | LdStShape::S16x32bx2 | LdStShape::S32x32b => Num::X128,
            LdStShape::S16x128b => Num::X64,
            LdStShape::S16x256b => Num::X32,
        }
    }
}

impl fmt::Display for LdStShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The `.num` qualifier of `tcgen05.ld` / `tcgen05.st`: how many times the shape repeats along
/// the columns (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum Num {
    /// `.x1`.
    X1 = 1,
    /// `.x2`.
    X2 = 2,
    /// `.x4`.
    X4 = 4,
    /// `.x8`.
    X8 = 8,
    /// `.x16`.
    X16 = 16,
    /// `.x32`.
    X32 = 32,
    /// `.x64`.
    X64 = 64,
    /// `.x128`.
    X128 = 128,
}

const NUMS_TO_X128: [Num; 8] = Num::ALL;
const NUMS_TO_X64: [Num; 7] = [
    Num::X1,
    Num::X2,
    Num::X4,
    Num::X8,
    Num::X16,
    Num::X32,
    Num::X64,
];
const NUMS_TO_X32: [Num; 6] = [Num::X1, Num::X2, Num::X4, Num::X8, Num::X16, Num::X32];

impl Num {
    /// Every `.num`, smallest first.
    pub const ALL: [Num; 8] = [
        Num::X1,
        Num::X2,
        Num::X4,
        Num::X8,
        Num::X16,
        Num::X32,
        Num::X64,
        Num::X128,
    ];

    /// The repetition count, 1-128.
    #[must_use]
    pub const fn count(self) -> u8 {
        self as u8
    }

    /// The `.num` of a repetition count.
    ///
    /// # Errors
    /// [`TmemError::InvalidNum`] unless `count` is a power of two from 1 to 128.
    pub const fn from_count(count: u32) -> Result<Num, TmemError> {
        let mut i = 0;
        while i < Num::ALL.len() {
            if Num::ALL[i].count() as u32 == count {
                return Ok(Num::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::InvalidNum { num: count })
    }

    /// The PTX qualifier, for example `".x4"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Num::X1 => ".x1",
            Num::X2 => ".x2",
            Num::X4 => ".x4",
            Num::X8 => ".x8",
            Num::X16 => ".x16",
            Num::X32 => ".x32",
            Num::X64 => ".x64",
            Num::X128 => ".x128",
        }
    }

    /// Parses `.x4`, `x4` (or any other `.num`).
    ///
    /// # Errors
    /// [`TmemError::InvalidNum`] (value 0 when the name holds no number).
    pub const fn from_name(name: &str) -> Result<Num, TmemError> {
        let b = strip_prefix(name.as_bytes(), b".");
        let mut i = 0;
        while i < Num::ALL.len() {
            let n = strip_prefix(Num::ALL[i].name().as_bytes(), b".");
            if bytes_eq(b, n) {
                return Ok(Num::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::InvalidNum {
            num: parse_count(strip_prefix(b, b"x")),
        })
    }
}

/// The decimal number in `digits`, or 0 when it is empty, holds another character, or exceeds
/// `u32`.
const fn parse_count(digits: &[u8]) -> u32 {
    if digits.is_empty() {
        return 0;
    }
    let mut v: u32 = 0;
    let mut i = 0;
    while i < digits.len() {
        let c = digits[i];
        if !c.is_ascii_digit() {
            return 0;
        }
        v = match v.checked_mul(10) {
            Some(x) => match x.checked_add((c - b'0') as u32) {
                Some(y) => y,
                None => return 0,
            },
            None => return 0,
        };
        i += 1;
    }
    v
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// 32-bit registers per thread of `tcgen05.ld` / `tcgen05.st` with `shape` and `num`
/// (Table 49 for `.ld`, the same Table 50 for `.st`; `.pack::16b` / `.unpack::16b` do not change
/// it).
///
/// | `.num` | `.16x32bx2`, `.16x64b`, `.32x32b` | `.16x128b` | `.16x256b` |
/// |---|---|---|---|
/// | `.x1` ... `.x32` | 1 ... 32 | 2 ... 64 | 4 ... 128 |
/// | `.x64` | 64 | 128 | invalid |
/// | `.x128` | 128 | invalid | invalid |
///
/// # Errors
/// [`TmemError::NumTooLargeForShape`] for the invalid cells.
///
/// # Examples
/// ```
/// use tcgen05::tensor_memory::{registers_per_thread, LdStShape, Num};
/// assert_eq!(registers_per_thread(LdStShape::S32x32b, Num::X128), Ok(128));
/// assert_eq!(registers_per_thread(LdStShape::S16x128b, Num::X4), Ok(8));
/// assert!(registers_per_thread(LdStShape::S16x128b, Num::X128).is_err());
/// ```
pub const fn registers_per_thread(shape: LdStShape, num: Num) -> Result<u16, TmemError> {
    if num.count() > shape.max_num().count() {
        return Err(TmemError::NumTooLargeForShape { shape, num });
    }
    Ok(shape.registers_per_num() * num.count() as u16)
}

/// Every `.num` that `shape` takes, smallest first (Tables 49-50).
#[must_use]
pub const fn valid_nums(shape: LdStShape) -> &'static [Num] {
    match shape.max_num() {
        Num::X128 => &NUMS_TO_X128,
        Num::X64 => &NUMS_TO_X64,
        _ => &NUMS_TO_X32,
    }
}

// ---------------------------------------------------------------------------------------------
// tcgen05.cp
// ---------------------------------------------------------------------------------------------

/// A data-movement shape of `tcgen05.cp` (shared memory to Tensor Memory), written
/// `lanes x bits` per lane (PTX ISA 9.7.16.2.3, 9.7.16.9.2; decisions.md R23).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum CpShape {
    /// `.128x256b`: 128 rows of 256 bits (8 columns). Takes no multicast.
    S128x256b,
    /// `.4x256b`: 4 rows of 256 bits. Takes no multicast.
    S4x256b,
    /// `.128x128b`: 128 rows of 128 bits (4 columns). Takes no multicast.
    S128x128b,
    /// `.64x128b`: 64 rows of 128 bits; needs `.warpx2::02_13` or `.warpx2::01_23`.
    S64x128b,
    /// `.32x128b`: 32 rows of 128 bits; needs `.warpx4`.
    S32x128b,
}

const NO_MULTICAST: [CpMulticast; 1] = [CpMulticast::None];
const WARPX2: [CpMulticast; 2] = [CpMulticast::Warpx2_02_13, CpMulticast::Warpx2_01_23];
const WARPX4: [CpMulticast; 1] = [CpMulticast::Warpx4];

impl CpShape {
    /// Every shape, in the order of the `tcgen05.cp` syntax (PTX ISA 9.7.16.9.2).
    pub const ALL: [CpShape; 5] = [
        CpShape::S128x256b,
        CpShape::S4x256b,
        CpShape::S128x128b,
        CpShape::S64x128b,
        CpShape::S32x128b,
    ];

    /// The PTX qualifier, for example `".128x256b"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CpShape::S128x256b => ".128x256b",
            CpShape::S4x256b => ".4x256b",
            CpShape::S128x128b => ".128x128b",
            CpShape::S64x128b => ".64x128b",
            CpShape::S32x128b => ".32x128b",
        }
    }

    /// Parses a shape name, with or without the leading dot.
    ///
    /// # Errors
    /// [`TmemError::ShapeOfOtherOp`] for `.31x256b` (the implicit shape of `tcgen05.shift`,
    /// decisions.md R23) and for the `tcgen05.ld` / `.st` shapes; [`TmemError::UnknownShape`]
    /// otherwise.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::CpShape;
    /// assert_eq!(CpShape::from_name("64x128b"), Ok(CpShape::S64x128b));
    /// let e = CpShape::from_name(".31x256b").expect_err("must fail");
    /// assert!(e.to_string().contains("implicit shape of tcgen05.shift"));
    /// ```
    pub const fn from_name(name: &str) -> Result<CpShape, TmemError> {
        match DataMovementShape::from_name(name) {
            Ok(DataMovementShape::Cp(s)) => Ok(s),
            Ok(shape) => Err(TmemError::ShapeOfOtherOp {
                shape,
                wanted: TmemOp::Cp,
            }),
            Err(_) => Err(TmemError::UnknownShape { op: TmemOp::Cp }),
        }
    }

    /// Rows of the source matrix (as the shape's name writes them). With a multicast qualifier
    /// the rows land in more Tensor Memory lanes than this (see [`CpMulticast`]).
    #[must_use]
    pub const fn lanes(self) -> u32 {
        match self {
            CpShape::S128x256b | CpShape::S128x128b => 128,
            CpShape::S4x256b => 4,
            CpShape::S64x128b => 64,
            CpShape::S32x128b => 32,
        }
    }

    /// Bits per row: 256 or 128.
    #[must_use]
    pub const fn bits_per_lane(self) -> u32 {
        match self {
            CpShape::S128x256b | CpShape::S4x256b => 256,
            CpShape::S128x128b | CpShape::S64x128b | CpShape::S32x128b => 128,
        }
    }

    /// 32-bit columns each destination lane receives: `bits_per_lane / 32` (8 or 4), before any
    /// decompression (`.b8x16` from `.b6x16_p32` / `.b4x16_p64`).
    #[must_use]
    pub const fn columns_per_lane(self) -> u32 {
        self.bits_per_lane() / 32
    }

    /// The `.multicast` qualifiers the shape takes: `.64x128b` one of the two `.warpx2`,
    /// `.32x128b` `.warpx4`, the others none (decisions.md R23).
    #[must_use]
    pub const fn allowed_multicasts(self) -> &'static [CpMulticast] {
        match self {
            CpShape::S64x128b => &WARPX2,
            CpShape::S32x128b => &WARPX4,
            CpShape::S128x256b | CpShape::S4x256b | CpShape::S128x128b => &NO_MULTICAST,
        }
    }
}

impl fmt::Display for CpShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The `.multicast` qualifier of `tcgen05.cp`: how the copied rows are spread over the four
/// 32-lane quadrants of Tensor Memory (PTX ISA 9.7.16.9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum CpMulticast {
    /// No qualifier. Code 0.
    #[default]
    None = 0,
    /// `.warpx2::02_13`: warps 0 and 2, and 1 and 3, form pairs. Code 1.
    Warpx2_02_13 = 1,
    /// `.warpx2::01_23`: warps 0 and 1, and 2 and 3, form pairs. Code 2.
    Warpx2_01_23 = 2,
    /// `.warpx4`: the rows go to all four quadrants. Code 3.
    Warpx4 = 3,
}

impl CpMulticast {
    /// Every qualifier, `None` first.
    pub const ALL: [CpMulticast; 4] = [
        CpMulticast::None,
        CpMulticast::Warpx2_02_13,
        CpMulticast::Warpx2_01_23,
        CpMulticast::Warpx4,
    ];

    /// This crate's code for the qualifier (0-3), the value of its errors.
    #[must_use]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The PTX qualifier, for example `".warpx2::02_13"`; the empty string for `None`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CpMulticast::None => "",
            CpMulticast::Warpx2_02_13 => ".warpx2::02_13",
            CpMulticast::Warpx2_01_23 => ".warpx2::01_23",
            CpMulticast::Warpx4 => ".warpx4",
        }
    }

    /// Parses a qualifier, with or without the leading dot; `""` and `"none"` give `None`.
    ///
    /// # Errors
    /// [`TmemError::UnknownMulticast`].
    pub const fn from_name(name: &str) -> Result<CpMulticast, TmemError> {
        let b = strip_prefix(name.as_bytes(), b".");
        if b.is_empty() || bytes_eq(b, b"none") {
            return Ok(CpMulticast::None);
        }
        let mut i = 1;
        while i < CpMulticast::ALL.len() {
            let n = strip_prefix(CpMulticast::ALL[i].name().as_bytes(), b".");
            if bytes_eq(b, n) {
                return Ok(CpMulticast::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::UnknownMulticast)
    }
}

impl fmt::Display for CpMulticast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CpMulticast::None => f.write_str("no multicast"),
            other => f.write_str(other.name()),
        }
    }
}

/// Checks the pairing of a `tcgen05.cp` shape and `.multicast` qualifier (PTX ISA 9.7.16.9.2;
/// decisions.md R23): `.64x128b` requires `.warpx2::02_13` or `.warpx2::01_23`, `.32x128b`
/// requires `.warpx4`, and `.128x256b`, `.4x256b`, `.128x128b` take no qualifier.
///
/// # Errors
/// [`TmemError::CpMulticastMismatch`].
///
/// # Examples
/// ```
/// use tcgen05::tensor_memory::{validate_cp, CpMulticast, CpShape};
/// assert!(validate_cp(CpShape::S32x128b, CpMulticast::Warpx4).is_ok());
/// assert!(validate_cp(CpShape::S64x128b, CpMulticast::None).is_err());
/// assert!(validate_cp(CpShape::S128x256b, CpMulticast::Warpx4).is_err());
/// ```
pub const fn validate_cp(shape: CpShape, multicast: CpMulticast) -> Result<(), TmemError> {
    let allowed = shape.allowed_multicasts();
    let mut i = 0;
    while i < allowed.len() {
        if allowed[i] as u8 == multicast as u8 {
            return Ok(());
        }
        i += 1;
    }
    Err(TmemError::CpMulticastMismatch { shape, multicast })
}

// ---------------------------------------------------------------------------------------------
// tcgen05.shift
// ---------------------------------------------------------------------------------------------

/// `.31x256b`, the implicit shape of `tcgen05.shift.cta_group.down`: 31 rows of 256 bits move
/// down one row (PTX ISA 9.7.16.2.3, 9.7.16.9.3). It is never written in the instruction and is
/// not a `tcgen05.cp` shape (decisions.md R23).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ShiftShape;

impl ShiftShape {
    /// The shape's name as PTX ISA 9.7.16.2.3 prints it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        ".31x256b"
    }

    /// Parses `.31x256b` (with or without the dot).
    ///
    /// # Errors
    /// [`TmemError::ShapeOfOtherOp`] for the `tcgen05.ld` / `.st` / `.cp` shapes;
    /// [`TmemError::UnknownShape`] otherwise.
    pub const fn from_name(name: &str) -> Result<ShiftShape, TmemError> {
        match DataMovementShape::from_name(name) {
            Ok(DataMovementShape::Shift(s)) => Ok(s),
            Ok(shape) => Err(TmemError::ShapeOfOtherOp {
                shape,
                wanted: TmemOp::Shift,
            }),
            Err(_) => Err(TmemError::UnknownShape { op: TmemOp::Shift }),
        }
    }

    /// Rows that move: 31 (the last row of each 32 keeps its value).
    #[must_use]
    pub const fn lanes(self) -> u32 {
        31
    }

    /// Bits per row: 256 (8 columns).
    #[must_use]
    pub const fn bits_per_lane(self) -> u32 {
        256
    }

    /// 32-bit columns per row: 8.
    #[must_use]
    pub const fn columns_per_lane(self) -> u32 {
        self.bits_per_lane() / 32
    }

    /// Checks the address operand of `tcgen05.shift`: its lane must be a multiple of 32
    /// (PTX ISA 9.7.16.9.3). `tcgen05.shift` exists on the `a` targets only
    /// ([`Target::supports_shift`](crate::Target::supports_shift)).
    ///
    /// # Errors
    /// [`TmemError::ShiftLaneNotAligned`].
    pub const fn validate_address(self, taddr: TmemAddress) -> Result<(), TmemError> {
        if taddr.lane() % LANES_PER_WARP == 0 {
            Ok(())
        } else {
            Err(TmemError::ShiftLaneNotAligned { lane: taddr.lane() })
        }
    }
}

impl fmt::Display for ShiftShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---------------------------------------------------------------------------------------------
// Any shape
// ---------------------------------------------------------------------------------------------

/// Any data-movement shape of PTX ISA 9.7.16.2.3, with the instruction it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DataMovementShape {
    /// A shape of `tcgen05.ld` / `tcgen05.st`.
    LdSt(LdStShape),
    /// A shape of `tcgen05.cp`.
    Cp(CpShape),
    /// The implicit shape of `tcgen05.shift`.
    Shift(ShiftShape),
}

impl DataMovementShape {
    /// Every shape: the ld/st shapes, the cp shapes, then `.31x256b`.
    pub const ALL: [DataMovementShape; 11] = [
        DataMovementShape::LdSt(LdStShape::S16x64b),
        DataMovementShape::LdSt(LdStShape::S16x128b),
        DataMovementShape::LdSt(LdStShape::S16x256b),
        DataMovementShape::LdSt(LdStShape::S16x32bx2),
        DataMovementShape::LdSt(LdStShape::S32x32b),
        DataMovementShape::Cp(CpShape::S128x256b),
        DataMovementShape::Cp(CpShape::S4x256b),
        DataMovementShape::Cp(CpShape::S128x128b),
        DataMovementShape::Cp(CpShape::S64x128b),
        DataMovementShape::Cp(CpShape::S32x128b),
        DataMovementShape::Shift(ShiftShape),
    ];

    /// The PTX name, for example `".31x256b"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            DataMovementShape::LdSt(s) => s.name(),
            DataMovementShape::Cp(s) => s.name(),
            DataMovementShape::Shift(s) => s.name(),
        }
    }

    /// The instruction the shape belongs to.
    #[must_use]
    pub const fn op(self) -> TmemOp {
        match self {
            DataMovementShape::LdSt(_) => TmemOp::LdSt,
            DataMovementShape::Cp(_) => TmemOp::Cp,
            DataMovementShape::Shift(_) => TmemOp::Shift,
        }
    }

    /// Lanes (rows) in the shape's name.
    #[must_use]
    pub const fn lanes(self) -> u32 {
        match self {
            DataMovementShape::LdSt(s) => s.lanes(),
            DataMovementShape::Cp(s) => s.lanes(),
            DataMovementShape::Shift(s) => s.lanes(),
        }
    }

    /// Bits per lane in the shape's name.
    #[must_use]
    pub const fn bits_per_lane(self) -> u32 {
        match self {
            DataMovementShape::LdSt(s) => s.bits_per_lane(),
            DataMovementShape::Cp(s) => s.bits_per_lane(),
            DataMovementShape::Shift(s) => s.bits_per_lane(),
        }
    }

    /// Parses any shape name, with or without the leading dot.
    ///
    /// # Errors
    /// [`TmemError::UnknownShape`] (reported for `tcgen05.ld/st`, the most common use).
    pub const fn from_name(name: &str) -> Result<DataMovementShape, TmemError> {
        let b = strip_prefix(name.as_bytes(), b".");
        let mut i = 0;
        while i < Self::ALL.len() {
            let n = strip_prefix(Self::ALL[i].name().as_bytes(), b".");
            if bytes_eq(b, n) {
                return Ok(Self::ALL[i]);
            }
            i += 1;
        }
        Err(TmemError::UnknownShape { op: TmemOp::LdSt })
    }
}

impl fmt::Display for DataMovementShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{OneLine, Severity};
    use std::{format, string::ToString, vec::Vec};

    /// Table 49 (= Table 50) as ptx-beyond-seeds.md section 2.1 prints it; `None` = n/a.
    const TABLE_49: [(Num, [Option<u16>; 3]); 8] = [
        (Num::X1, [Some(1), Some(2), Some(4)]),
        (Num::X2, [Some(2), Some(4), Some(8)]),
        (Num::X4, [Some(4), Some(8), Some(16)]),
        (Num::X8, [Some(8), Some(16), Some(32)]),
        (Num::X16, [Some(16), Some(32), Some(64)]),
        (Num::X32, [Some(32), Some(64), Some(128)]),
        (Num::X64, [Some(64), Some(128), None]),
        (Num::X128, [Some(128), None, None]),
    ];

    const fn column_of(shape: LdStShape) -> usize {
        match shape {
            LdStShape::S16x32bx2 | LdStShape::S16x64b | LdStShape::S32x32b => 0,
            LdStShape::S16x128b => 1,
            LdStShape::S16x256b => 2,
        }
    }

    #[test]
    fn register_counts_follow_table_49_for_every_shape_and_num() {
        let mut checked = 0;
        for shape in LdStShape::ALL {
            for (num, row) in TABLE_49 {
                let want = row[column_of(shape)];
                let got = registers_per_thread(shape, num);
                match want {
                    Some(r) => assert_eq!(got, Ok(r), "{shape}{num}"),
                    None => {
                        let e = got.expect_err("must fail");
                        assert_eq!(e, TmemError::NumTooLargeForShape { shape, num });
                        assert_eq!(e.field(), "num");
                        assert_eq!(e.value(), u64::from(num.count()));
                        assert_eq!(e.source(), Source::PtxTable(49));
                    }
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 40);
    }

    #[test]
    fn valid_nums_are_exactly_the_table_cells() {
        for shape in LdStShape::ALL {
            let listed: Vec<Num> = valid_nums(shape).to_vec();
            let from_table: Vec<Num> = TABLE_49
                .iter()
                .filter(|(_, row)| row[column_of(shape)].is_some())
                .map(|(n, _)| *n)
                .collect();
            assert_eq!(listed, from_table, "{shape}");
            assert_eq!(listed.last(), Some(&shape.max_num()));
            assert_eq!(
                registers_per_thread(shape, shape.max_num()),
                Ok(MAX_REGISTERS_PER_THREAD)
            );
        }
        assert_eq!(valid_nums(LdStShape::S16x256b).len(), 6);
        assert_eq!(valid_nums(LdStShape::S16x128b).len(), 7);
        assert_eq!(valid_nums(LdStShape::S32x32b).len(), 8);
    }

    #[test]
    fn shape_geometry_agrees_with_register_counts() {
        // 32 threads x registers x 32 bits = lanes x bits x accesses.
        for s in LdStShape::ALL {
            assert_eq!(
                32 * 32 * u32::from(s.registers_per_num()),
                s.lanes() * s.bits_per_lane() * s.accesses(),
                "{s}"
            );
            assert_eq!(s.columns_per_num() * 32, s.bits_per_lane());
        }
        let geo: Vec<_> = LdStShape::ALL
            .iter()
            .map(|s| (s.lanes(), s.bits_per_lane(), s.columns_per_num()))
            .collect();
        assert_eq!(
            geo,
            [
                (16, 64, 2),
                (16, 128, 4),
                (16, 256, 8),
                (16, 32, 1),
                (32, 32, 1)
            ]
        );
        assert_eq!(LdStShape::S16x32bx2.accesses(), 2);
    }

    #[test]
    fn shape_names_parse_with_and_without_dot() {
        for s in LdStShape::ALL {
            assert_eq!(LdStShape::from_name(s.name()), Ok(s));
            assert_eq!(LdStShape::from_name(&s.name()[1..]), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        for s in CpShape::ALL {
            assert_eq!(CpShape::from_name(s.name()), Ok(s));
            assert_eq!(CpShape::from_name(&s.name()[1..]), Ok(s));
        }
        assert_eq!(ShiftShape::from_name("31x256b"), Ok(ShiftShape));
        for s in DataMovementShape::ALL {
            assert_eq!(DataMovementShape::from_name(s.name()), Ok(s));
        }
        for bad in [
            "",
            ".",
            "16x32b",
            ".16x64",
            "x",
            ".32x32bx2",
            "..16x64b",
            "16X64B",
        ] {
            assert_eq!(
                LdStShape::from_name(bad),
                Err(TmemError::UnknownShape { op: TmemOp::LdSt }),
                "{bad:?}"
            );
            assert_eq!(
                CpShape::from_name(bad),
                Err(TmemError::UnknownShape { op: TmemOp::Cp })
            );
        }
    }

    #[test]
    fn shift_shape_is_not_a_cp_shape() {
        let e = CpShape::from_name(".31x256b").expect_err("must fail");
        assert_eq!(
            e,
            TmemError::ShapeOfOtherOp {
                shape: DataMovementShape::Shift(ShiftShape),
                wanted: TmemOp::Cp
            }
        );
        assert_eq!(e.field(), "shape");
        assert_eq!(e.source(), Source::Decision(23));
        assert_eq!(
            e.to_string(),
            ".31x256b is the implicit shape of tcgen05.shift, not a tcgen05.cp shape"
        );
        let e = LdStShape::from_name("31x256b").expect_err("must fail");
        assert!(e.to_string().contains("implicit shape of tcgen05.shift"));
        let e = LdStShape::from_name(".128x256b").expect_err("must fail");
        assert_eq!(
            e.to_string(),
            ".128x256b is a tcgen05.cp shape, not a tcgen05.ld/st shape"
        );
        let e = CpShape::from_name(".32x32b").expect_err("must fail");
        assert_eq!(
            e.to_string(),
            ".32x32b is a tcgen05.ld/st shape, not a tcgen05.cp shape"
        );
        assert!(ShiftShape::from_name(".4x256b").is_err());
        let s = ShiftShape;
        assert_eq!(
            (s.lanes(), s.bits_per_lane(), s.columns_per_lane()),
            (31, 256, 8)
        );
    }

    #[test]
    fn shift_address_lane_must_be_a_multiple_of_32() {
        for lane in 0..TMEM_LANES {
            let r = ShiftShape.validate_address(TmemAddress::new(lane, 7));
            if lane % 32 == 0 {
                assert_eq!(r, Ok(()));
            } else {
                let e = r.expect_err("must fail");
                assert_eq!(e, TmemError::ShiftLaneNotAligned { lane });
                assert_eq!(e.field(), "lane");
                assert_eq!(e.source(), Source::PtxSection("9.7.16.9.3"));
            }
        }
    }

    #[test]
    fn cp_multicast_rules() {
        let mut ok = Vec::new();
        for s in CpShape::ALL {
            for m in CpMulticast::ALL {
                match validate_cp(s, m) {
                    Ok(()) => ok.push((s, m)),
                    Err(e) => {
                        assert_eq!(
                            e,
                            TmemError::CpMulticastMismatch {
                                shape: s,
                                multicast: m
                            }
                        );
                        assert_eq!(e.field(), "multicast");
                        assert_eq!(e.value(), u64::from(m.code()));
                    }
                }
            }
        }
        use CpMulticast as M;
        use CpShape as S;
        assert_eq!(
            ok,
            [
                (S::S128x256b, M::None),
                (S::S4x256b, M::None),
                (S::S128x128b, M::None),
                (S::S64x128b, M::Warpx2_02_13),
                (S::S64x128b, M::Warpx2_01_23),
                (S::S32x128b, M::Warpx4),
            ]
        );
        assert_eq!(
            validate_cp(S::S64x128b, M::None)
                .expect_err("must fail")
                .to_string(),
            "shape .64x128b requires .warpx2::02_13 or .warpx2::01_23, not no multicast"
        );
        assert_eq!(
            validate_cp(S::S32x128b, M::Warpx2_01_23)
                .expect_err("must fail")
                .to_string(),
            "shape .32x128b requires .warpx4, not .warpx2::01_23"
        );
        assert_eq!(
            validate_cp(S::S4x256b, M::Warpx4)
                .expect_err("must fail")
                .to_string(),
            "shape .4x256b takes no .multicast qualifier, not .warpx4"
        );
    }

    #[test]
    fn cp_geometry_and_multicast_names() {
        let geo: Vec<_> = CpShape::ALL
            .iter()
            .map(|s| (s.lanes(), s.bits_per_lane(), s.columns_per_lane()))
            .collect();
        assert_eq!(
            geo,
            [
                (128, 256, 8),
                (4, 256, 8),
                (128, 128, 4),
                (64, 128, 4),
                (32, 128, 4)
            ]
        );
        for m in CpMulticast::ALL {
            assert_eq!(CpMulticast::from_name(m.name()), Ok(m));
        }
        assert_eq!(CpMulticast::from_name("warpx4"), Ok(CpMulticast::Warpx4));
        assert_eq!(CpMulticast::from_name("none"), Ok(CpMulticast::None));
        assert_eq!(
            CpMulticast::from_name(".warpx2"),
            Err(TmemError::UnknownMulticast)
        );
        assert_eq!(TmemError::UnknownMulticast.field(), "multicast");
    }

    #[test]
    fn nums_parse_and_refuse() {
        for n in Num::ALL {
            assert_eq!(Num::from_name(n.name()), Ok(n));
            assert_eq!(Num::from_name(&n.name()[1..]), Ok(n));
            assert_eq!(Num::from_count(u32::from(n.count())), Ok(n));
        }
        for c in [0u32, 3, 5, 6, 7, 12, 96, 127, 129, 256, 1024, u32::MAX] {
            let e = Num::from_count(c).expect_err("must fail");
            assert_eq!(e, TmemError::InvalidNum { num: c });
            assert_eq!(e.field(), "num");
            assert_eq!(e.value(), u64::from(c));
        }
        assert_eq!(Num::from_name(".x3"), Err(TmemError::InvalidNum { num: 3 }));
        assert_eq!(
            Num::from_name("x256"),
            Err(TmemError::InvalidNum { num: 256 })
        );
        assert_eq!(Num::from_name("x"), Err(TmemError::InvalidNum { num: 0 }));
        assert_eq!(
            Num::from_name("x99999999999"),
            Err(TmemError::InvalidNum { num: 0 })
        );
        assert_eq!(Num::from_name("4"), Err(TmemError::InvalidNum { num: 4 }));
    }

    #[test]
    fn address_packing_and_worked_values() {
        let a = TmemAddress::new(0x45, 0x1f3);
        assert_eq!(a.bits(), 0x0045_01f3);
        assert_eq!((a.lane(), a.column()), (0x45, 0x1f3));
        assert_eq!(u32::from(a), 0x0045_01f3);
        assert_eq!(format!("{a:x}"), "4501f3");
        assert_eq!(TmemAddress::from_bits(0x0045_01f3), Ok(a));
        assert_eq!(TmemAddress::ZERO.bits(), 0);
        assert_eq!(TmemAddress::new(127, 511).bits(), 0x007f_01ff);
        assert_eq!(
            a.fields(),
            TmemAddressFields {
                lane: 0x45,
                column: 0x1f3
            }
        );
        assert_eq!(TmemAddress::from_fields(a.fields()), Ok(a));
    }

    #[test]
    fn address_fields_out_of_range() {
        let e = TmemAddress::try_new(128, 0).expect_err("must fail");
        assert_eq!(e, TmemError::LaneOutOfRange { lane: 128 });
        assert_eq!((e.field(), e.value()), ("lane", 128));
        assert_eq!(e.source(), Source::Decision(24));
        assert_eq!(e.severity(), Severity::Error);
        let e = TmemAddress::try_new(0, 512).expect_err("must fail");
        assert_eq!(e, TmemError::ColumnOutOfRange { column: 512 });
        assert_eq!((e.field(), e.value()), ("column", 512));
        assert_eq!(
            TmemAddress::try_new(u32::MAX, u32::MAX),
            Err(TmemError::LaneOutOfRange {
                lane: u64::from(u32::MAX)
            })
        );
        // Both problems of one raw value are reported.
        let d = TmemAddress::validate(0xc000_0200);
        assert_eq!(d.len(), 2);
        assert!(!d.overflowed());
        assert_eq!(d.get(0), Some(TmemError::LaneOutOfRange { lane: 0xc000 }));
        assert_eq!(
            d.get(1),
            Some(TmemError::ColumnOutOfRange { column: 0x200 })
        );
        assert!(TmemAddress::validate(0x007f_01ff).is_empty());
        assert_eq!(
            format!("{}", OneLine(&TmemError::ColumnOutOfRange { column: 512 })),
            "column: column 512 (0x200) is outside Tensor Memory: a CTA has columns 0-511 \
             (decisions.md R24)"
        );
    }

    #[test]
    fn offsets_stay_inside_one_cta() {
        let a = TmemAddress::new(96, 500);
        assert_eq!(a.offset(31, 11), Ok(TmemAddress::new(127, 511)));
        assert_eq!(
            a.offset(32, 0),
            Err(TmemError::LaneOutOfRange { lane: 128 })
        );
        assert_eq!(
            a.offset(0, 12),
            Err(TmemError::ColumnOutOfRange { column: 512 })
        );
        assert_eq!(
            a.offset(u32::MAX, u32::MAX),
            Err(TmemError::LaneOutOfRange {
                lane: 96 + u64::from(u32::MAX)
            })
        );
        assert_eq!(TmemAddress::ZERO.offset(0, 0), Ok(TmemAddress::ZERO));
    }

    #[test]
    fn warp_quadrant_rule() {
        for lane in 0..TMEM_LANES {
            let a = TmemAddress::new(lane, 0);
            assert_eq!(a.lane_quadrant(), lane / 32);
            for warp in 0..16u32 {
                let ok = lane >= 32 * (warp % 4) && lane < 32 * (warp % 4) + 32;
                assert_eq!(a.accessible_by_warp(warp), ok, "lane {lane} warp {warp}");
                assert_eq!(a.check_warp_access(warp).is_ok(), ok);
            }
        }
        assert!(TmemAddress::new(0, 0).accessible_by_warp(u32::MAX - 3)); // u32::MAX-3 % 4 == 0
        let e = TmemAddress::new(96, 3)
            .check_warp_access(5)
            .expect_err("must fail");
        assert_eq!(e, TmemError::LaneNotInWarpQuadrant { lane: 96, warp: 5 });
        assert_eq!((e.field(), e.value()), ("lane", 96));
        assert_eq!(e.source(), Source::PtxSection("9.7.16.8.1"));
        assert_eq!(
            e.to_string(),
            "warp 5 (warp 1 of its warpgroup) can access only lanes 32-63, not lane 96"
        );
        assert_eq!(warp_first_lane(7), 96);
    }

    #[test]
    fn alloc_sizes() {
        let mut valid = Vec::new();
        for n in 0..=2048u32 {
            match AllocColumns::try_new(n) {
                Ok(c) => {
                    assert_eq!(c.get(), n);
                    valid.push(n);
                }
                Err(e) => {
                    assert_eq!(e.field(), "n_cols");
                    assert_eq!(e.value(), u64::from(n));
                    assert_eq!(e.source(), Source::PtxSection("9.7.16.7.1"));
                    if (32..=512).contains(&n) {
                        assert_eq!(e, TmemError::NColsNotPowerOfTwo { n_cols: n });
                    } else {
                        assert_eq!(e, TmemError::NColsOutOfRange { n_cols: n });
                    }
                }
            }
        }
        assert_eq!(valid, [32, 64, 128, 256, 512]);
        let all: Vec<u32> = AllocColumns::ALL.iter().map(|c| c.get()).collect();
        assert_eq!(all, valid);
        for p in 0..32 {
            let n = 1u32 << p;
            assert_eq!(
                validate_alloc_columns(n).is_ok(),
                (5..=9).contains(&p),
                "{n}"
            );
        }
        assert_eq!(
            validate_alloc_columns(u32::MAX),
            Err(TmemError::NColsOutOfRange { n_cols: u32::MAX })
        );
        assert_eq!(
            validate_alloc_columns(0),
            Err(TmemError::NColsOutOfRange { n_cols: 0 })
        );
        assert_eq!(AllocColumns::MIN.get(), 32);
        assert_eq!(AllocColumns::MAX.get(), 512);
        assert_eq!(AllocColumns::new(64).to_string(), "64 columns");
    }

    #[test]
    fn display_is_a_table_from_the_layout() {
        let s = TmemAddress::new(64, 16).to_string();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 3, "{s}");
        assert_eq!(lines[0], "TMEM address 0x00400010");
        assert!(
            lines[1].contains("31-16") && lines[1].contains("Lane index"),
            "{s}"
        );
        assert!(
            lines[1].contains("0x0040") && lines[1].contains(" 64"),
            "{s}"
        );
        assert!(
            lines[2].contains("15-0") && lines[2].contains("Column index"),
            "{s}"
        );
        assert!(lines[2].contains("decisions.md R24"), "{s}");
        assert_eq!(
            format!("{:?}", TmemAddress::new(1, 2)),
            "TmemAddress(0x00010002: lane 1, column 2)"
        );
    }

    #[test]
    fn every_error_names_a_field_and_a_message() {
        let errors = [
            TmemError::LaneOutOfRange { lane: 200 },
            TmemError::ColumnOutOfRange { column: 600 },
            TmemError::LaneNotInWarpQuadrant { lane: 0, warp: 1 },
            TmemError::NColsOutOfRange { n_cols: 16 },
            TmemError::NColsNotPowerOfTwo { n_cols: 48 },
            TmemError::UnknownShape { op: TmemOp::Shift },
            TmemError::ShapeOfOtherOp {
                shape: DataMovementShape::Cp(CpShape::S4x256b),
                wanted: TmemOp::Shift,
            },
            TmemError::InvalidNum { num: 3 },
            TmemError::NumTooLargeForShape {
                shape: LdStShape::S16x256b,
                num: Num::X64,
            },
            TmemError::UnknownMulticast,
            TmemError::CpMulticastMismatch {
                shape: CpShape::S128x128b,
                multicast: CpMulticast::Warpx4,
            },
            TmemError::ShiftLaneNotAligned { lane: 5 },
        ];
        for e in errors {
            let msg = e.to_string();
            assert!(!msg.is_empty() && !msg.ends_with('.'), "{msg}");
            assert!(!e.field().is_empty());
            assert_eq!(e.field(), e.tmem_field().name());
        }
        assert_eq!(
            TmemError::NumTooLargeForShape {
                shape: LdStShape::S16x256b,
                num: Num::X64
            }
            .to_string(),
            "shape .16x256b takes .num up to .x32: .x64 would need 256 registers per thread \
             (at most 128)"
        );
    }

    #[test]
    fn const_construction() {
        const A: TmemAddress = TmemAddress::new(32, 128);
        const N: AllocColumns = AllocColumns::new(128);
        const R: Result<u16, TmemError> = registers_per_thread(LdStShape::S16x128b, Num::X16);
        const C: Result<(), TmemError> = validate_cp(CpShape::S32x128b, CpMulticast::Warpx4);
        const S: Result<CpShape, TmemError> = CpShape::from_name(".128x128b");
        assert_eq!(A.lane(), 32);
        assert_eq!(N.get(), 128);
        assert_eq!(R, Ok(32));
        assert_eq!(C, Ok(()));
        assert_eq!(S, Ok(CpShape::S128x128b));
    }

    #[test]
    #[should_panic(expected = "TMEM lane out of range")]
    fn new_panics_on_a_bad_lane() {
        let _ = TmemAddress::new(std::hint::black_box(128), 0);
    }

    #[test]
    #[should_panic(expected = "TMEM column out of range")]
    fn new_panics_on_a_bad_column() {
        let _ = TmemAddress::new(0, std::hint::black_box(512));
    }

    #[test]
    #[should_panic(expected = "nCols must be a power of two")]
    fn alloc_new_panics() {
        let _ = AllocColumns::new(std::hint::black_box(48));
    }
}
