//! The shapes of `tcgen05.cp` and the multicast each one needs (PTX ISA 9.7.16.9.2; R23).

use core::fmt;

/// A data-movement shape of `tcgen05.cp` (shared memory to Tensor Memory), written
/// `lanes x bits` per lane (PTX ISA 9.7.16.2.3, 9.7.16.9.2; rules.md R23).
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
    /// `.32x128b` `.warpx4`, the others none (rules.md R23).
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
}

impl fmt::Display for CpMulticast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CpMulticast::None => f.write_str("no multicast"),
            other => f.write_str(other.name()),
        }
    }
}
