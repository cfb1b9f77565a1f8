//! [`DataMovementShape`]: any data-movement shape, parsed from its PTX name (PTX ISA 9.7.16.2.3).

use super::cp::CpShape;
use super::ld_st::LdStShape;
use super::shift::ShiftShape;
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
}

impl fmt::Display for DataMovementShape {
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
