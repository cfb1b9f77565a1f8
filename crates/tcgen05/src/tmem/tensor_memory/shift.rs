//! `.31x256b`, the implicit shape of `tcgen05.shift` (PTX ISA 9.7.16.9.3; R23).

use super::address::TmemAddress;
use super::error::{TmemError, TmemOp};
use super::shape::DataMovementShape;
use super::LANES_PER_WARP;
use core::fmt;

/// `.31x256b`, the implicit shape of `tcgen05.shift.cta_group.down`: 31 rows of 256 bits move
/// down one row (PTX ISA 9.7.16.2.3, 9.7.16.9.3). It is never written in the instruction and is
/// not a `tcgen05.cp` shape (rules.md R23).
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
