//! `.31x256b`, the implicit shape of `tcgen05.shift` (PTX ISA 9.7.16.9.3; R23).

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
}

impl fmt::Display for ShiftShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
