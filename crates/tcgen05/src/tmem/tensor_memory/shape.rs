//! [`DataMovementShape`]: any data-movement shape, parsed from its PTX name (PTX ISA 9.7.16.2.3).

use super::cp::CpShape;
use super::error::{TmemError, TmemOp};
use super::ld_st::LdStShape;
use super::shift::ShiftShape;
use crate::bytes::{bytes_eq, strip_prefix};
use core::fmt;

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
