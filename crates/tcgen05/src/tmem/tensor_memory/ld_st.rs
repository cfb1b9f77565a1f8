//! The shapes and `.num` of `tcgen05.ld` / `tcgen05.st` and their register vectors (PTX ISA
//! 9.7.16.8.3, Tables 49-50).

use core::fmt;

/// A data-movement shape of `tcgen05.ld` and `tcgen05.st`, written `lanes x bits` per lane
/// (PTX ISA 9.7.16.2.3; rules.md R23).
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
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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
