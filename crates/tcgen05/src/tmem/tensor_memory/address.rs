//! Tensor Memory addresses: lane in bits 31-16, column in bits 15-0 (PTX ISA 9.7.16.1.1; R24).

use super::error::{TmemError, TmemField};
use super::{LANES_PER_WARP, TMEM_COLUMNS, TMEM_LANES};
use crate::bits::BitField;
use crate::diagnostic::Diagnostics;
use core::fmt;

crate::bit_layout! {
    /// The 32-bit Tensor Memory address (PTX ISA 9.7.16.1.1 Figure "Tensor Memory addressing";
    /// rules.md R24): `lane << 16 | column`.
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

    /// Every rule the fields break: lane below 128, column below 512 (rules.md R24).
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
/// (PTX ISA 9.7.16.1.1; rules.md R24).
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
    /// [`TmemError::ColumnOutOfRange`] when `column >= 512` (rules.md R24).
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
                panic!("TMEM lane out of range: a CTA has lanes 0-127 (rules.md R24)")
            }
            Err(_) => {
                panic!("TMEM column out of range: a CTA has columns 0-511 (rules.md R24)")
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
