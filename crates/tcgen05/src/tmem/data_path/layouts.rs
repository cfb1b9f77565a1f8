//! [`DataPathLayout`]: the data-path layouts A-G of D (PTX ISA 9.7.16.10.5, Figures 205-218)
//! and their geometry.

use crate::mma::CtaGroup;
use core::fmt;

/// The data-path layouts of PTX ISA 9.7.16.10.5, by their letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DataPathLayout {
    /// M = 256, `.cta_group::2`: 4x1, 128 rows per CTA (9.7.16.10.5.1).
    A,
    /// M = 128, `.cta_group::2`, dense A: 2x2, 64 rows per CTA (9.7.16.10.5.2).
    B,
    /// M = 128, `.cta_group::2`, sparse A: 4x1 with half the data path, 64 rows per CTA
    /// (9.7.16.10.5.3).
    C,
    /// M = 128, `.cta_group::1`: 4x1 (9.7.16.10.5.4).
    D,
    /// M = 64, `.ws`: 2x2 (printed "2x3"; 9.7.16.10.5.5).
    E,
    /// M = 64, not `.ws`: 4x1 with half the data path (9.7.16.10.5.6).
    F,
    /// M = 32, `.ws`: 1x4 (9.7.16.10.5.7).
    G,
}

impl DataPathLayout {
    /// Every layout, A to G.
    pub const ALL: [DataPathLayout; 7] = [
        DataPathLayout::A,
        DataPathLayout::B,
        DataPathLayout::C,
        DataPathLayout::D,
        DataPathLayout::E,
        DataPathLayout::F,
        DataPathLayout::G,
    ];

    /// The letter, `'A'` to `'G'`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            DataPathLayout::A => 'A',
            DataPathLayout::B => 'B',
            DataPathLayout::C => 'C',
            DataPathLayout::D => 'D',
            DataPathLayout::E => 'E',
            DataPathLayout::F => 'F',
            DataPathLayout::G => 'G',
        }
    }

    /// The layout of a letter (either case).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<DataPathLayout> {
        match c {
            'A' | 'a' => Some(DataPathLayout::A),
            'B' | 'b' => Some(DataPathLayout::B),
            'C' | 'c' => Some(DataPathLayout::C),
            'D' | 'd' => Some(DataPathLayout::D),
            'E' | 'e' => Some(DataPathLayout::E),
            'F' | 'f' => Some(DataPathLayout::F),
            'G' | 'g' => Some(DataPathLayout::G),
            _ => None,
        }
    }

    /// The MMA's M.
    #[must_use]
    pub const fn m(self) -> u32 {
        match self {
            DataPathLayout::A => 256,
            DataPathLayout::B | DataPathLayout::C | DataPathLayout::D => 128,
            DataPathLayout::E | DataPathLayout::F => 64,
            DataPathLayout::G => 32,
        }
    }

    /// CTAs the MMA spans: 2 for A, B, C.
    #[must_use]
    pub const fn ctas(self) -> u32 {
        match self {
            DataPathLayout::A | DataPathLayout::B | DataPathLayout::C => 2,
            _ => 1,
        }
    }

    /// Rows of D in each CTA.
    #[must_use]
    pub const fn rows_per_cta(self) -> u32 {
        self.m() / self.ctas()
    }

    /// `.cta_group` of the MMAs with this layout.
    #[must_use]
    pub const fn cta_group(self) -> CtaGroup {
        if self.ctas() == 2 {
            CtaGroup::Two
        } else {
            CtaGroup::One
        }
    }

    /// How many parts N is split into across lanes: 2 for the 2x2 layouts B and E, 4 for the
    /// 1x4 layout G, 1 otherwise.
    #[must_use]
    pub const fn column_split(self) -> u32 {
        match self {
            DataPathLayout::B | DataPathLayout::E => 2,
            DataPathLayout::G => 4,
            _ => 1,
        }
    }

    /// Layouts E and G are those of `.ws` MMAs (M = 64 and M = 32).
    #[must_use]
    pub const fn is_ws(self) -> bool {
        matches!(self, DataPathLayout::E | DataPathLayout::G)
    }

    /// Layouts C and F use half the data path: 16 lanes of each 32-lane subpartition.
    #[must_use]
    pub const fn half_datapath(self) -> bool {
        matches!(self, DataPathLayout::C | DataPathLayout::F)
    }

    /// The data-path organization as the table writes it (E as we read it).
    #[must_use]
    pub const fn organization(self) -> &'static str {
        match self {
            DataPathLayout::A | DataPathLayout::D => "4x1",
            DataPathLayout::B | DataPathLayout::E => "2x2",
            DataPathLayout::C | DataPathLayout::F => "4x1 (1/2 datapath utilized)",
            DataPathLayout::G => "1x4",
        }
    }

    /// The PTX section that draws the layout.
    #[must_use]
    pub const fn section(self) -> &'static str {
        match self {
            DataPathLayout::A => "9.7.16.10.5.1",
            DataPathLayout::B => "9.7.16.10.5.2",
            DataPathLayout::C => "9.7.16.10.5.3",
            DataPathLayout::D => "9.7.16.10.5.4",
            DataPathLayout::E => "9.7.16.10.5.5",
            DataPathLayout::F => "9.7.16.10.5.6",
            DataPathLayout::G => "9.7.16.10.5.7",
        }
    }

    /// The lane offset of row `row` (within its CTA) for the 4x1 layouts and of the first
    /// copy for the others, before the column split.
    pub(super) const fn row_lane(self, row: u32) -> u32 {
        if self.half_datapath() {
            row % 16 + 32 * (row / 16)
        } else {
            row
        }
    }
}

impl fmt::Display for DataPathLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
