//! Who holds what after a `tcgen05.ld`, and what a `tcgen05.st` or `tcgen05.cp` writes where:
//! the fragment maps of the Tensor Memory data-movement shapes.
//!
//! The PTX ISA draws these maps only as pictures (9.7.16.2.3.1 Figures 183-187 for `.ld` / `.st`,
//! 9.7.16.8.2 Figure 193 for `.pack::16b` / `.unpack::16b`); the text says only how many lanes
//! and bits each shape moves. The maps here are reconstructed from that text and from CUTLASS
//! 4.2.0 (`cute/atom/copy_traits_sm100.hpp`: the `ValID` and `DstLayout` of every
//! `SM100_TMEM_LOAD_*` / `SM100_TMEM_STORE_*` atom and the `ValID` of every `SM100_UTCCP_*` atom),
//! and checked against CUTLASS's own evaluation of those layouts by
//! `crates/tcgen05/tests/tmem_cutlass.rs`.
//!
//! - [`LdStFragment`]: `tcgen05.ld` / `tcgen05.st` with a shape, `.num`, [`Packing`] and (for
//!   `.16x32bx2`) the half-split offset. [`LdStFragment::piece`] maps (thread, register) to
//!   (lane offset, column offset, bits) relative to the instruction's address;
//!   [`LdStFragment::owners`] is the inverse; [`LdStFragment::check_address`] applies the
//!   warp-to-lane-quadrant rule (PTX ISA 9.7.16.8.1).
//! - [`cp_row`]: the lanes that one source row of a `tcgen05.cp` shape and multicast lands in
//!   (PTX ISA 9.7.16.9.2).
//!
//! With `t` the thread's lane id (0-31), `j` the repetition (0 to `.num` - 1), the logical
//! 32-bit column `c` (physical columns `2c` and `2c + 1` with `.pack::16b`), and lane and column
//! offsets from the address:
//!
//! | shape | registers | lane | logical column |
//! |---|---|---|---|
//! | `.32x32b` | `r[j]` | `t` | `j` |
//! | `.16x64b` | `r[j]` | `t / 4 + 8 * (t % 2)` | `2j + (t / 2) % 2` |
//! | `.16x128b` | `r[2j + h]` | `t / 4 + 8h` | `4j + t % 4` |
//! | `.16x256b` | `r[4j + 2h + e]` | `t / 4 + 8h` | `8j + 2 * (t % 4) + e` |
//! | `.16x32bx2` | `r[j]` | `t % 16` | `j` (threads 16-31: plus the half-split offset) |
//!
//! # Examples
//!
//! ```
//! use tcgen05::tensor_memory::{LdStShape, Num};
//! use tcgen05::tmem_fragment::{LdStFragment, Packing};
//!
//! // tcgen05.ld.sync.aligned.16x256b.x1.b32: thread 5 register 2 holds lane 9, column 2.
//! const F: LdStFragment = LdStFragment::new(LdStShape::S16x256b, Num::X1, Packing::None, None);
//! let p = F.piece(5, 2, 0).unwrap();
//! assert_eq!((p.lane, p.column), (9, 2));
//! // ... and the inverse.
//! let owners = F.owners(9, 2);
//! assert_eq!(owners[0].map(|o| (o.thread, o.register)), Some((5, 2)));
//! ```

use core::fmt;

use crate::diagnostic::{Diagnostic, Diagnostics, Rule, RuleSource, Severity, Source};
use crate::tensor_memory::{
    registers_per_thread, warp_first_lane, CpMulticast, CpShape, LdStShape, Num, TmemAddress,
    LANES_PER_WARP, TMEM_COLUMNS,
};

/// Threads of the warp that executes a `tcgen05.ld` / `tcgen05.st` (PTX ISA 9.7.16.8.3).
pub const WARP_THREADS: u32 = 32;

/// What a [`FragmentError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FragmentField {
    /// The `.num` qualifier.
    Num,
    /// The `immHalfSplitoff` operand of `.16x32bx2`.
    HalfSplitOffset,
    /// A thread (lane id) of the warp.
    Thread,
    /// A register of the thread's vector.
    Register,
    /// The 16-bit half of a packed register.
    Half,
    /// The lane of the instruction's Tensor Memory address.
    Lane,
    /// The column of the instruction's Tensor Memory address.
    Column,
    /// A source row of `tcgen05.cp`.
    Row,
    /// The `.multicast` qualifier of `tcgen05.cp`.
    Multicast,
}

impl FragmentField {
    /// The field's JSON key, for example `"half_split_offset"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FragmentField::Num => "num",
            FragmentField::HalfSplitOffset => "half_split_offset",
            FragmentField::Thread => "thread",
            FragmentField::Register => "register",
            FragmentField::Half => "half",
            FragmentField::Lane => "lane",
            FragmentField::Column => "column",
            FragmentField::Row => "row",
            FragmentField::Multicast => "multicast",
        }
    }
}

impl fmt::Display for FragmentField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule of the Tensor Memory fragment maps that a value breaks; its field, source and
/// severity are those of its rule's row ([`FragmentError::rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum FragmentError {
    /// The shape does not take this `.num` (Table 49 for `.ld`, Table 50 for `.st`).
    NumTooLargeForShape {
        /// The shape.
        shape: LdStShape,
        /// The repetition count.
        num: Num,
    },
    /// Only `.16x32bx2` takes an `immHalfSplitoff` operand (PTX ISA 9.7.16.8.3).
    HalfSplitOffsetNotAllowed {
        /// The shape given.
        shape: LdStShape,
        /// The offset given, in columns.
        offset: u32,
    },
    /// The half-split offset reaches past the 512 columns of Tensor Memory (PTX ISA 9.7.16.8.3;
    /// rules.md R24).
    HalfSplitOffsetTooLarge {
        /// The offset, in columns.
        offset: u32,
    },
    /// The second `.16x32b` access of `.16x32bx2` starts inside the columns of the first, so
    /// some cells are accessed by two threads (PTX ISA 9.7.16.8.3 does not forbid it; warning).
    HalvesOverlap {
        /// The offset, in columns.
        offset: u32,
        /// The columns one half spans.
        span: u32,
    },
    /// A warp has 32 threads.
    ThreadOutOfRange {
        /// The thread asked for.
        thread: u32,
    },
    /// The register index is past the vector (Tables 49-50).
    RegisterOutOfRange {
        /// The register asked for.
        register: u32,
        /// The registers each thread has.
        registers: u32,
    },
    /// Without `.pack::16b` a register has one piece; with it, two 16-bit halves.
    HalfOutOfRange {
        /// The half asked for.
        half: u32,
    },
    /// The access reaches lanes outside the 32 lanes the warp may access: warp `w` of a
    /// warpgroup accesses lanes `32 * (w % 4)` to `32 * (w % 4) + 31` (PTX ISA 9.7.16.8.1).
    LanesOutsideWarpQuadrant {
        /// The lane of the address.
        lane: u32,
        /// The lanes the shape accesses.
        lanes: u32,
        /// The warp's index in its CTA.
        warp: u32,
    },
    /// The access reaches past column 511 (PTX ISA 9.7.16.1.1; rules.md R24).
    ColumnsPastEnd {
        /// The column of the address.
        column: u32,
        /// The columns the access spans from it.
        span: u32,
    },
    /// The row is past the rows of the `tcgen05.cp` shape (PTX ISA 9.7.16.2.3).
    RowOutOfRange {
        /// The shape.
        shape: CpShape,
        /// The row asked for.
        row: u32,
    },
    /// The `tcgen05.cp` shape needs another multicast (PTX ISA 9.7.16.9.2; rules.md R23).
    CpMulticastMismatch {
        /// The shape.
        shape: CpShape,
        /// The qualifier given.
        multicast: CpMulticast,
    },
}

impl FragmentError {
    /// The rule this error breaks.
    #[must_use]
    pub const fn rule(&self) -> FragmentRule {
        match self {
            FragmentError::NumTooLargeForShape { .. } => FragmentRule::NumTooLargeForShape,
            FragmentError::HalfSplitOffsetNotAllowed { .. } => {
                FragmentRule::HalfSplitOffsetNotAllowed
            }
            FragmentError::HalfSplitOffsetTooLarge { .. } => FragmentRule::HalfSplitOffsetTooLarge,
            FragmentError::HalvesOverlap { .. } => FragmentRule::HalvesOverlap,
            FragmentError::ThreadOutOfRange { .. } => FragmentRule::ThreadOutOfRange,
            FragmentError::RegisterOutOfRange { .. } => FragmentRule::RegisterOutOfRange,
            FragmentError::HalfOutOfRange { .. } => FragmentRule::HalfOutOfRange,
            FragmentError::LanesOutsideWarpQuadrant { .. } => {
                FragmentRule::LanesOutsideWarpQuadrant
            }
            FragmentError::ColumnsPastEnd { .. } => FragmentRule::ColumnsPastEnd,
            FragmentError::RowOutOfRange { .. } => FragmentRule::RowOutOfRange,
            FragmentError::CpMulticastMismatch { .. } => FragmentRule::CpMulticastMismatch,
        }
    }

    /// The field the error is about.
    #[must_use]
    pub const fn fragment_field(&self) -> FragmentField {
        FRAGMENT_RULES[self.rule() as usize].0
    }
}

/// The rules of the fragment maps, one per [`FragmentError`] variant, each with one row
/// ([`FragmentRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum FragmentRule {
    /// [`FragmentError::NumTooLargeForShape`].
    NumTooLargeForShape,
    /// [`FragmentError::HalfSplitOffsetNotAllowed`].
    HalfSplitOffsetNotAllowed,
    /// [`FragmentError::HalfSplitOffsetTooLarge`].
    HalfSplitOffsetTooLarge,
    /// [`FragmentError::HalvesOverlap`].
    HalvesOverlap,
    /// [`FragmentError::ThreadOutOfRange`].
    ThreadOutOfRange,
    /// [`FragmentError::RegisterOutOfRange`].
    RegisterOutOfRange,
    /// [`FragmentError::HalfOutOfRange`].
    HalfOutOfRange,
    /// [`FragmentError::LanesOutsideWarpQuadrant`].
    LanesOutsideWarpQuadrant,
    /// [`FragmentError::ColumnsPastEnd`].
    ColumnsPastEnd,
    /// [`FragmentError::RowOutOfRange`].
    RowOutOfRange,
    /// [`FragmentError::CpMulticastMismatch`].
    CpMulticastMismatch,
}

impl FragmentRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &FRAGMENT_RULES[self as usize].1
    }

    /// The rule's stable identifier, for example `"fragment.thread_out_of_range"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// A row of [`FRAGMENT_RULES`].
const fn rule(
    field: FragmentField,
    id: &'static str,
    source: Source,
    severity: Severity,
    statement: &'static str,
) -> (FragmentField, Rule) {
    (
        field,
        Rule {
            id,
            source: RuleSource::Fixed(source),
            severity,
            statement,
        },
    )
}

/// Every rule of the fragment maps, with the field it concerns, indexed by [`FragmentRule`].
pub(crate) const FRAGMENT_RULES: [(FragmentField, Rule); 11] = {
    use FragmentField as F;
    const E: Severity = Severity::Error;
    const LD: Source = Source::PtxSection("9.7.16.8.3");
    [
        rule(F::Num, "fragment.num_too_large_for_shape", Source::PtxTable(49), E,
            "The shape takes the .num (Table 49 for tcgen05.ld, Table 50 for tcgen05.st)."),
        rule(F::HalfSplitOffset, "fragment.half_split_offset_not_allowed", LD, E,
            "Only .16x32bx2 takes an immHalfSplitoff operand."),
        rule(F::HalfSplitOffset, "fragment.half_split_offset_too_large", Source::Decision(24), E,
            "The half-split offset stays within Tensor Memory's 512 columns."),
        rule(F::HalfSplitOffset, "fragment.halves_overlap", LD, Severity::Warning,
            "The second .16x32b access of .16x32bx2 starts past the columns of the first."),
        rule(F::Thread, "fragment.thread_out_of_range", LD, E, "A warp has threads 0 to 31."),
        rule(F::Register, "fragment.register_out_of_range", Source::PtxTable(49), E,
            "A register index lies within the thread's register vector."),
        rule(F::Half, "fragment.half_out_of_range", Source::PtxSection("9.7.16.8.2"), E,
            "A register has two 16-bit halves with .pack::16b / .unpack::16b and one piece otherwise."),
        rule(F::Lane, "fragment.lanes_outside_warp_quadrant", Source::PtxSection("9.7.16.8.1"), E,
            "Warp w of a warpgroup accesses only lanes 32 * (w % 4) to 32 * (w % 4) + 31."),
        rule(F::Column, "fragment.columns_past_end", Source::Decision(24), E,
            "An access stays within columns 0 to 511."),
        rule(F::Row, "fragment.row_out_of_range", Source::PtxSection("9.7.16.2.3"), E,
            "A row lies within the rows of the tcgen05.cp shape."),
        rule(F::Multicast, "fragment.cp_multicast_mismatch", Source::Decision(23), E,
            ".64x128b takes .warpx2::02_13 or .warpx2::01_23, .32x128b takes .warpx4, and the other tcgen05.cp shapes take none."),
    ]
};

impl fmt::Display for FragmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FragmentError::NumTooLargeForShape { shape, num } => write!(
                f,
                "shape {shape} takes .num up to {}, not {num}",
                shape.max_num()
            ),
            FragmentError::HalfSplitOffsetNotAllowed { shape, offset } => write!(
                f,
                "only .16x32bx2 takes immHalfSplitoff; shape {shape} does not (offset {offset})"
            ),
            FragmentError::HalfSplitOffsetTooLarge { offset } => write!(
                f,
                "immHalfSplitoff {offset} reaches past the {TMEM_COLUMNS} columns of Tensor Memory"
            ),
            FragmentError::HalvesOverlap { offset, span } => write!(
                f,
                "immHalfSplitoff {offset} is less than the {span} columns of the first half: \
                 the two .16x32b accesses overlap"
            ),
            FragmentError::ThreadOutOfRange { thread } => {
                write!(f, "thread {thread} is outside the warp (threads 0-31)")
            }
            FragmentError::RegisterOutOfRange {
                register,
                registers,
            } => write!(
                f,
                "register {register} is outside the vector of {registers} registers"
            ),
            FragmentError::HalfOutOfRange { half } => write!(
                f,
                "half {half} does not exist: a register has two 16-bit halves only with \
                 .pack::16b / .unpack::16b, one piece otherwise"
            ),
            FragmentError::LanesOutsideWarpQuadrant { lane, lanes, warp } => {
                let first = warp_first_lane(warp);
                write!(
                    f,
                    "warp {warp} can access only lanes {first}-{}, but lanes {lane}-{} are \
                     accessed",
                    first + LANES_PER_WARP - 1,
                    lane + lanes - 1
                )
            }
            FragmentError::ColumnsPastEnd { column, span } => write!(
                f,
                "the access spans columns {column}-{}, past the last column {}",
                column + span - 1,
                TMEM_COLUMNS - 1
            ),
            FragmentError::RowOutOfRange { shape, row } => {
                write!(
                    f,
                    "row {row} is outside the {} rows of {shape}",
                    shape.lanes()
                )
            }
            FragmentError::CpMulticastMismatch { shape, multicast } => {
                crate::tensor_memory::TmemError::CpMulticastMismatch { shape, multicast }.fmt(f)
            }
        }
    }
}

impl Diagnostic for FragmentError {
    fn field(&self) -> &'static str {
        self.fragment_field().name()
    }

    fn value(&self) -> u64 {
        match *self {
            FragmentError::NumTooLargeForShape { num, .. } => num.count() as u64,
            FragmentError::HalfSplitOffsetNotAllowed { offset, .. }
            | FragmentError::HalfSplitOffsetTooLarge { offset }
            | FragmentError::HalvesOverlap { offset, .. } => offset as u64,
            FragmentError::ThreadOutOfRange { thread } => thread as u64,
            FragmentError::RegisterOutOfRange { register, .. } => register as u64,
            FragmentError::HalfOutOfRange { half } => half as u64,
            FragmentError::LanesOutsideWarpQuadrant { lane, .. } => lane as u64,
            FragmentError::ColumnsPastEnd { column, .. } => column as u64,
            FragmentError::RowOutOfRange { row, .. } => row as u64,
            FragmentError::CpMulticastMismatch { multicast, .. } => multicast.code() as u64,
        }
    }

    fn source(&self) -> Source {
        self.rule()
            .row()
            .fixed_source(Source::PtxSection("9.7.16.8"))
    }

    fn severity(&self) -> Severity {
        self.rule().row().severity
    }

    fn rule_id(&self) -> Option<&'static str> {
        Some(self.rule().id())
    }
}

impl core::error::Error for FragmentError {}

/// `.pack::16b` on `tcgen05.ld` / `.unpack::16b` on `tcgen05.st` (PTX ISA 9.7.16.8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Packing {
    /// No qualifier: each 32-bit register holds one whole 32-bit cell.
    #[default]
    None,
    /// `.pack::16b` / `.unpack::16b`: each register holds the low 16 bits of two adjacent
    /// columns, the lower column in register bits 15-0 (Figure 193; CUTLASS `_16b` atoms).
    Pack16b,
}

impl Packing {
    /// Physical columns per logical 32-bit column: 1, or 2 with packing.
    #[must_use]
    pub const fn columns_per_register_column(self) -> u32 {
        match self {
            Packing::None => 1,
            Packing::Pack16b => 2,
        }
    }

    /// The `.ld` qualifier: `""` or `".pack::16b"`.
    #[must_use]
    pub const fn ld_name(self) -> &'static str {
        match self {
            Packing::None => "",
            Packing::Pack16b => ".pack::16b",
        }
    }

    /// The `.st` qualifier: `""` or `".unpack::16b"`.
    #[must_use]
    pub const fn st_name(self) -> &'static str {
        match self {
            Packing::None => "",
            Packing::Pack16b => ".unpack::16b",
        }
    }
}

/// An inclusive range of bits, `lo..=hi`, as the PTX tables write bit fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BitRange {
    /// Lowest bit.
    pub lo: u8,
    /// Highest bit (inclusive).
    pub hi: u8,
}

impl BitRange {
    /// All 32 bits of a register or cell.
    pub const WORD: BitRange = BitRange { lo: 0, hi: 31 };

    /// Bits `lo..=hi`.
    #[must_use]
    pub const fn new(lo: u8, hi: u8) -> BitRange {
        BitRange { lo, hi }
    }

    /// The number of bits.
    #[must_use]
    pub const fn width(self) -> u32 {
        (self.hi as u32 + 1).saturating_sub(self.lo as u32)
    }
}

/// One piece of a fragment map: which bits of which register of which thread go to which bits
/// of which Tensor Memory cell, the cell given as offsets from the instruction's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FragmentPiece {
    /// The thread's lane id in the warp, 0-31.
    pub thread: u8,
    /// The register's index in the thread's vector, `r0` = 0.
    pub register: u8,
    /// The register's bits.
    pub register_bits: BitRange,
    /// Lane offset from the address's lane.
    pub lane: u8,
    /// Column offset from the address's column.
    pub column: u16,
    /// The cell's bits.
    pub bits: BitRange,
}

/// Who holds a Tensor Memory cell: the inverse of a fragment map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Owner {
    /// The thread's lane id, 0-31.
    pub thread: u8,
    /// The register index.
    pub register: u8,
    /// The register's bits that hold the cell's bits.
    pub register_bits: BitRange,
    /// The cell's bits that are moved (bits 15-0 only with packing).
    pub bits: BitRange,
}

/// One `tcgen05.ld` / `tcgen05.st`: shape, `.num`, packing and, for `.16x32bx2`, the half-split
/// offset (PTX ISA 9.7.16.8.3-4).
///
/// An `LdStFragment` always satisfies Tables 49-50 (`.num` within the shape's limit) and, for
/// `.16x32bx2`, has an offset below 512 columns; other shapes have offset 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LdStFragment {
    shape: LdStShape,
    num: Num,
    packing: Packing,
    half_split_offset: u32,
}

impl LdStFragment {
    /// Every rule the arguments break: `.num` within the shape's limit (Tables 49-50), a
    /// half-split offset only for `.16x32bx2`, below 512, and (warning) not inside the first
    /// half.
    #[must_use]
    pub const fn validate(
        shape: LdStShape,
        num: Num,
        packing: Packing,
        half_split_offset: Option<u32>,
    ) -> Diagnostics<FragmentError, 3> {
        let mut d = Diagnostics::new();
        if registers_per_thread(shape, num).is_err() {
            d.push(FragmentError::NumTooLargeForShape { shape, num });
        }
        if let Some(offset) = half_split_offset {
            if !matches!(shape, LdStShape::S16x32bx2) {
                d.push(FragmentError::HalfSplitOffsetNotAllowed { shape, offset });
            } else if offset >= TMEM_COLUMNS {
                d.push(FragmentError::HalfSplitOffsetTooLarge { offset });
            } else {
                let span = num.count() as u32 * packing.columns_per_register_column();
                if offset < span {
                    d.push(FragmentError::HalvesOverlap { offset, span });
                }
            }
        }
        d
    }

    /// The fragment of `shape`, `num`, `packing` and `half_split_offset` (in columns; `None`
    /// for every shape but `.16x32bx2`, where `None` means the halves are adjacent: `.num`
    /// columns, twice that with packing, which is what CUTLASS emits).
    ///
    /// # Errors
    /// The first error of [`LdStFragment::validate`] (warnings are accepted).
    pub const fn try_new(
        shape: LdStShape,
        num: Num,
        packing: Packing,
        half_split_offset: Option<u32>,
    ) -> Result<Self, FragmentError> {
        let d = Self::validate(shape, num, packing, half_split_offset);
        let mut i = 0;
        while i < d.len() {
            if let Some(e) = d.get(i) {
                if !matches!(e, FragmentError::HalvesOverlap { .. }) {
                    return Err(e);
                }
            }
            i += 1;
        }
        let offset = match (shape, half_split_offset) {
            (LdStShape::S16x32bx2, Some(o)) => o,
            (LdStShape::S16x32bx2, None) => {
                num.count() as u32 * packing.columns_per_register_column()
            }
            _ => 0,
        };
        Ok(Self {
            shape,
            num,
            packing,
            half_split_offset: offset,
        })
    }

    /// As [`LdStFragment::try_new`].
    ///
    /// # Panics
    /// On any error, on purpose, so that a bad fragment in a `const` item fails to compile.
    #[must_use]
    pub const fn new(
        shape: LdStShape,
        num: Num,
        packing: Packing,
        half_split_offset: Option<u32>,
    ) -> Self {
        match Self::try_new(shape, num, packing, half_split_offset) {
            Ok(f) => f,
            Err(_) => panic!("invalid tcgen05.ld/st fragment"),
        }
    }

    /// The shape.
    #[must_use]
    pub const fn shape(&self) -> LdStShape {
        self.shape
    }

    /// The `.num`.
    #[must_use]
    pub const fn num(&self) -> Num {
        self.num
    }

    /// The packing.
    #[must_use]
    pub const fn packing(&self) -> Packing {
        self.packing
    }

    /// The half-split offset in columns (0 for shapes other than `.16x32bx2`).
    #[must_use]
    pub const fn half_split_offset(&self) -> u32 {
        self.half_split_offset
    }

    /// Registers per thread (Tables 49-50).
    #[must_use]
    pub const fn registers(&self) -> u32 {
        self.shape.registers_per_num() as u32 * self.num.count() as u32
    }

    /// Pieces per register: 1, or 2 (16-bit halves) with packing.
    #[must_use]
    pub const fn pieces_per_register(&self) -> u32 {
        self.packing.columns_per_register_column()
    }

    /// Lanes accessed from the address's lane: 16 or 32.
    #[must_use]
    pub const fn lanes(&self) -> u32 {
        self.shape.lanes()
    }

    /// Columns one access spans from its start: `columns_per_num * .num`, doubled by packing.
    #[must_use]
    pub const fn access_columns(&self) -> u32 {
        self.shape.columns_per_num()
            * self.num.count() as u32
            * self.packing.columns_per_register_column()
    }

    /// Columns from the address's column to the last one accessed, plus one.
    #[must_use]
    pub const fn column_span(&self) -> u32 {
        match self.shape {
            LdStShape::S16x32bx2 => {
                let second = self.half_split_offset + self.access_columns();
                if second > self.access_columns() {
                    second
                } else {
                    self.access_columns()
                }
            }
            _ => self.access_columns(),
        }
    }

    /// Where piece `half` (0, or 0-1 with packing) of register `register` of thread `thread`
    /// goes: lane and column offsets from the instruction's address and the bits.
    ///
    /// # Errors
    /// [`FragmentError::ThreadOutOfRange`], [`FragmentError::RegisterOutOfRange`],
    /// [`FragmentError::HalfOutOfRange`].
    pub const fn piece(
        &self,
        thread: u32,
        register: u32,
        half: u32,
    ) -> Result<FragmentPiece, FragmentError> {
        if thread >= WARP_THREADS {
            return Err(FragmentError::ThreadOutOfRange { thread });
        }
        let registers = self.registers();
        if register >= registers {
            return Err(FragmentError::RegisterOutOfRange {
                register,
                registers,
            });
        }
        let p = self.packing.columns_per_register_column();
        if half >= p {
            return Err(FragmentError::HalfOutOfRange { half });
        }
        let t = thread;
        let r = register;
        // (lane offset, logical column, first physical column of this access)
        let (lane, logical, base) = match self.shape {
            LdStShape::S32x32b => (t, r, 0),
            LdStShape::S16x64b => (t / 4 + 8 * (t % 2), 2 * r + (t / 2) % 2, 0),
            LdStShape::S16x128b => (t / 4 + 8 * (r % 2), 4 * (r / 2) + t % 4, 0),
            LdStShape::S16x256b => (
                t / 4 + 8 * ((r % 4) / 2),
                8 * (r / 4) + 2 * (t % 4) + r % 2,
                0,
            ),
            LdStShape::S16x32bx2 => {
                if t < 16 {
                    (t, r, 0)
                } else {
                    (t - 16, r, self.half_split_offset)
                }
            }
        };
        let (register_bits, bits) = match self.packing {
            Packing::None => (BitRange::WORD, BitRange::WORD),
            Packing::Pack16b => (
                BitRange::new(16 * half as u8, 16 * half as u8 + 15),
                BitRange::new(0, 15),
            ),
        };
        Ok(FragmentPiece {
            thread: t as u8,
            register: r as u8,
            register_bits,
            lane: lane as u8,
            column: (base + logical * p + half) as u16,
            bits,
        })
    }

    /// Who holds the cell at lane offset `lane` and column offset `column` from the address:
    /// up to two owners (two only when the halves of `.16x32bx2` overlap), `None` for a cell the
    /// instruction does not access.
    #[must_use]
    pub const fn owners(&self, lane: u32, column: u32) -> [Option<Owner>; 2] {
        let mut out = [None, None];
        if lane >= self.lanes() {
            return out;
        }
        let p = self.packing.columns_per_register_column();
        let (register_bits, bits) = self.packing_bits(column);
        let l = lane;
        let span = self.access_columns();
        let lc = column / p;
        match self.shape {
            LdStShape::S32x32b => {
                if column < span {
                    out[0] = Some(owner(register_bits, bits, l, lc));
                }
            }
            LdStShape::S16x64b => {
                if column < span {
                    out[0] = Some(owner(
                        register_bits,
                        bits,
                        4 * (l % 8) + 2 * (lc % 2) + l / 8,
                        lc / 2,
                    ));
                }
            }
            LdStShape::S16x128b => {
                if column < span {
                    out[0] = Some(owner(
                        register_bits,
                        bits,
                        4 * (l % 8) + lc % 4,
                        2 * (lc / 4) + l / 8,
                    ));
                }
            }
            LdStShape::S16x256b => {
                if column < span {
                    let w = lc % 8;
                    out[0] = Some(owner(
                        register_bits,
                        bits,
                        4 * (l % 8) + w / 2,
                        4 * (lc / 8) + 2 * (l / 8) + w % 2,
                    ));
                }
            }
            LdStShape::S16x32bx2 => {
                let mut k = 0;
                if column < span {
                    out[0] = Some(owner(register_bits, bits, l, lc));
                    k = 1;
                }
                let off = self.half_split_offset;
                if column >= off && column - off < span {
                    // The second access's halves count from its own first column.
                    let (register_bits, bits) = self.packing_bits(column - off);
                    out[k] = Some(owner(register_bits, bits, l + 16, (column - off) / p));
                }
            }
        }
        out
    }

    /// Register bits and cell bits of the cell `column` columns after the start of its access.
    const fn packing_bits(&self, column: u32) -> (BitRange, BitRange) {
        match self.packing {
            Packing::None => (BitRange::WORD, BitRange::WORD),
            Packing::Pack16b => {
                let h = (column % 2) as u8;
                (BitRange::new(16 * h, 16 * h + 15), BitRange::new(0, 15))
            }
        }
    }

    /// Checks the instruction's address against the warp that executes it: the lanes accessed
    /// must lie in the warp's lane quadrant, lanes `32 * (warp % 4)` to `32 * (warp % 4) + 31`
    /// (PTX ISA 9.7.16.8.1), and the columns must end by column 511 (R24).
    #[must_use]
    pub const fn check_address(
        &self,
        taddr: TmemAddress,
        warp: u32,
    ) -> Diagnostics<FragmentError, 2> {
        let mut d = Diagnostics::new();
        let first = warp_first_lane(warp);
        let lane = taddr.lane();
        if lane < first || lane + self.lanes() > first + LANES_PER_WARP {
            d.push(FragmentError::LanesOutsideWarpQuadrant {
                lane,
                lanes: self.lanes(),
                warp,
            });
        }
        let span = self.column_span();
        if taddr.column() + span > TMEM_COLUMNS {
            d.push(FragmentError::ColumnsPastEnd {
                column: taddr.column(),
                span,
            });
        }
        d
    }

    /// Every piece of the map, thread by thread, register by register, half by half.
    pub fn pieces(&self) -> impl Iterator<Item = FragmentPiece> + '_ {
        let regs = self.registers();
        let halves = self.pieces_per_register();
        (0..WARP_THREADS).flat_map(move |t| {
            (0..regs).flat_map(move |r| (0..halves).filter_map(move |h| self.piece(t, r, h).ok()))
        })
    }
}

const fn owner(register_bits: BitRange, bits: BitRange, thread: u32, register: u32) -> Owner {
    Owner {
        thread: thread as u8,
        register: register as u8,
        register_bits,
        bits,
    }
}

/// The Tensor Memory lanes that one source row of a `tcgen05.cp` lands in, relative to the
/// lane of the instruction's address, and the columns it fills from the address's column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CpRow {
    lanes: [u8; 4],
    copies: u8,
    /// 32-bit columns the row fills from the address's column: 8 for `x256b`, 4 for `x128b`.
    pub columns: u8,
}

impl CpRow {
    /// The lanes (one per copy).
    #[must_use]
    pub fn lanes(&self) -> &[u8] {
        let n = if (self.copies as usize) < self.lanes.len() {
            self.copies as usize
        } else {
            self.lanes.len()
        };
        &self.lanes[..n]
    }

    /// How many lanes receive the row: 1, 2 (`.warpx2::*`) or 4 (`.warpx4`).
    #[must_use]
    pub const fn copies(&self) -> u32 {
        self.copies as u32
    }

    /// Lane of copy `i`, if there is one.
    #[must_use]
    pub const fn lane(&self, i: u32) -> Option<u32> {
        if i < self.copies as u32 && i < 4 {
            Some(self.lanes[i as usize] as u32)
        } else {
            None
        }
    }
}

/// Where source row `row` of a `tcgen05.cp` with `shape` and `multicast` lands (PTX ISA
/// 9.7.16.9.2; the pictures are not in the text, the lanes follow CUTLASS's `SM100_UTCCP_*`
/// `ValID`s):
///
/// | shape, multicast | rows | lanes of row `r` |
/// |---|---|---|
/// | `.128x256b`, `.128x128b` | 128 | `r` |
/// | `.4x256b` | 4 | `32r` (one row per 32-lane subpartition, as CUTLASS models it) |
/// | `.64x128b.warpx2::02_13` | 64 | `r`, `r + 64` |
/// | `.64x128b.warpx2::01_23` | 64 | `r % 32 + 64 * (r / 32)`, and that `+ 32` |
/// | `.32x128b.warpx4` | 32 | `r`, `r + 32`, `r + 64`, `r + 96` |
///
/// With `.cta_group::2` the same lanes of both CTAs of the pair are written. A `.warpx2` qualifier
/// names the warps that receive the same rows (ruling T2 of `conformance/DIFFERENCES.md`: the
/// other reading of the text swaps `02_13` and `01_23`).
///
/// # Errors
/// [`FragmentError::CpMulticastMismatch`], [`FragmentError::RowOutOfRange`].
///
/// # Examples
/// ```
/// use tcgen05::tensor_memory::{CpMulticast, CpShape};
/// use tcgen05::tmem_fragment::cp_row;
/// let r = cp_row(CpShape::S32x128b, CpMulticast::Warpx4, 5).unwrap();
/// assert_eq!(r.lanes(), &[5, 37, 69, 101]);
/// assert_eq!(r.columns, 4);
/// ```
pub const fn cp_row(
    shape: CpShape,
    multicast: CpMulticast,
    row: u32,
) -> Result<CpRow, FragmentError> {
    if crate::tensor_memory::validate_cp(shape, multicast).is_err() {
        return Err(FragmentError::CpMulticastMismatch { shape, multicast });
    }
    let rows = cp_rows(shape);
    if row >= rows {
        return Err(FragmentError::RowOutOfRange { shape, row });
    }
    let columns = shape.columns_per_lane() as u8;
    let r = row as u8;
    let (lanes, copies) = match (shape, multicast) {
        (CpShape::S4x256b, _) => ([32 * r, 0, 0, 0], 1),
        (CpShape::S64x128b, CpMulticast::Warpx2_02_13) => ([r, r + 64, 0, 0], 2),
        (CpShape::S64x128b, _) => {
            let base = r % 32 + 64 * (r / 32);
            ([base, base + 32, 0, 0], 2)
        }
        (CpShape::S32x128b, _) => ([r, r + 32, r + 64, r + 96], 4),
        _ => ([r, 0, 0, 0], 1),
    };
    Ok(CpRow {
        lanes,
        copies,
        columns,
    })
}

/// Source rows of a `tcgen05.cp` shape (the first number of its name).
#[must_use]
pub const fn cp_rows(shape: CpShape) -> u32 {
    shape.lanes()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::vec::Vec;
    #[test]
    fn every_fragment_rule_has_one_row_that_says_what_the_rule_said() {
        use crate::diagnostic::{check_rule_table, Rule};
        let rows: Vec<Rule> = FRAGMENT_RULES.iter().map(|(_, r)| *r).collect();
        let (e, w) = (Severity::Error, Severity::Warning);
        let ld = Source::PtxSection("9.7.16.8.3");
        check_rule_table(
            "fragment",
            &rows,
            &[
                (
                    FragmentError::NumTooLargeForShape {
                        shape: LdStShape::S16x256b,
                        num: Num::X128,
                    },
                    "num",
                    Source::PtxTable(49),
                    e,
                ),
                (
                    FragmentError::HalfSplitOffsetNotAllowed {
                        shape: LdStShape::S32x32b,
                        offset: 8,
                    },
                    "half_split_offset",
                    ld,
                    e,
                ),
                (
                    FragmentError::HalfSplitOffsetTooLarge { offset: 600 },
                    "half_split_offset",
                    Source::Decision(24),
                    e,
                ),
                (
                    FragmentError::HalvesOverlap { offset: 1, span: 2 },
                    "half_split_offset",
                    ld,
                    w,
                ),
                (
                    FragmentError::ThreadOutOfRange { thread: 32 },
                    "thread",
                    ld,
                    e,
                ),
                (
                    FragmentError::RegisterOutOfRange {
                        register: 9,
                        registers: 4,
                    },
                    "register",
                    Source::PtxTable(49),
                    e,
                ),
                (
                    FragmentError::HalfOutOfRange { half: 2 },
                    "half",
                    Source::PtxSection("9.7.16.8.2"),
                    e,
                ),
                (
                    FragmentError::LanesOutsideWarpQuadrant {
                        lane: 16,
                        lanes: 32,
                        warp: 0,
                    },
                    "lane",
                    Source::PtxSection("9.7.16.8.1"),
                    e,
                ),
                (
                    FragmentError::ColumnsPastEnd {
                        column: 510,
                        span: 4,
                    },
                    "column",
                    Source::Decision(24),
                    e,
                ),
                (
                    FragmentError::RowOutOfRange {
                        shape: CpShape::S4x256b,
                        row: 4,
                    },
                    "row",
                    Source::PtxSection("9.7.16.2.3"),
                    e,
                ),
                (
                    FragmentError::CpMulticastMismatch {
                        shape: CpShape::S32x128b,
                        multicast: CpMulticast::None,
                    },
                    "multicast",
                    Source::Decision(23),
                    e,
                ),
            ],
        );
    }

    fn all_fragments() -> Vec<LdStFragment> {
        let mut v = Vec::new();
        for shape in LdStShape::ALL {
            for num in Num::ALL {
                for packing in [Packing::None, Packing::Pack16b] {
                    if let Ok(f) = LdStFragment::try_new(shape, num, packing, None) {
                        v.push(f);
                    }
                }
            }
        }
        v
    }

    #[test]
    fn every_fragment_is_a_bijection_onto_its_cells() {
        let fs = all_fragments();
        // 5 shapes: 8 + 8 + 7 + 6 + 8 valid .num, times 2 packings.
        assert_eq!(fs.len(), 2 * (8 + 7 + 6 + 8 + 8));
        for f in fs {
            let mut cells = BTreeMap::new();
            let mut n = 0;
            for p in f.pieces() {
                n += 1;
                assert!((p.lane as u32) < f.lanes());
                assert!((p.column as u32) < f.column_span());
                let prev = cells.insert((p.lane, p.column), p);
                assert!(prev.is_none(), "{f:?}: cell {:?} twice", (p.lane, p.column));
                let o = f.owners(p.lane.into(), p.column.into());
                let o = o[0].unwrap();
                assert_eq!(
                    (o.thread, o.register, o.register_bits, o.bits),
                    (p.thread, p.register, p.register_bits, p.bits)
                );
            }
            // Every register bit is placed exactly once; every cell of the span is covered.
            assert_eq!(n, 32 * f.registers() * f.pieces_per_register());
            let cells_expected = f.lanes() * f.column_span();
            assert_eq!(cells.len() as u32, cells_expected, "{f:?}");
        }
    }

    #[test]
    fn bits_moved_per_lane_match_the_shape_name() {
        // PTX ISA 9.7.16.2.3.1: each lane moves shape_bits * num bits.
        for f in all_fragments() {
            let mut per_lane = [0u32; 32];
            for p in f.pieces() {
                per_lane[p.lane as usize] += p.bits.width();
            }
            let want = f.shape().bits_per_lane() * f.shape().accesses() * f.num().count() as u32;
            for (l, bits) in per_lane.iter().enumerate().take(f.lanes() as usize) {
                assert_eq!(*bits, want, "{f:?} lane {l}");
            }
        }
    }

    #[test]
    fn worked_points() {
        let f = LdStFragment::new(LdStShape::S16x64b, Num::X1, Packing::None, None);
        let p = f.piece(1, 0, 0).unwrap();
        assert_eq!((p.lane, p.column), (8, 0));
        let p = f.piece(2, 0, 0).unwrap();
        assert_eq!((p.lane, p.column), (0, 1));
        let f = LdStFragment::new(LdStShape::S16x128b, Num::X2, Packing::None, None);
        let p = f.piece(7, 3, 0).unwrap();
        assert_eq!((p.lane, p.column), (9, 7));
        let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(100));
        let p = f.piece(17, 3, 0).unwrap();
        assert_eq!((p.lane, p.column), (1, 103));
        let f = LdStFragment::new(LdStShape::S32x32b, Num::X2, Packing::Pack16b, None);
        let p = f.piece(3, 1, 1).unwrap();
        assert_eq!(
            (p.lane, p.column, p.register_bits, p.bits),
            (3, 3, BitRange::new(16, 31), BitRange::new(0, 15))
        );
        // Default half-split offset: adjacent halves (N, 2N with packing).
        let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X2, Packing::Pack16b, None);
        assert_eq!(f.half_split_offset(), 4);
    }

    #[test]
    fn every_rule_broken_once() {
        let e =
            LdStFragment::try_new(LdStShape::S16x256b, Num::X64, Packing::None, None).unwrap_err();
        assert_eq!(e.field(), "num");
        let e =
            LdStFragment::try_new(LdStShape::S32x32b, Num::X1, Packing::None, Some(1)).unwrap_err();
        assert_eq!(e.field(), "half_split_offset");
        let e = LdStFragment::try_new(LdStShape::S16x32bx2, Num::X1, Packing::None, Some(512))
            .unwrap_err();
        assert!(matches!(
            e,
            FragmentError::HalfSplitOffsetTooLarge { offset: 512 }
        ));
        let d = LdStFragment::validate(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(2));
        assert_eq!(d.len(), 1);
        assert_eq!(d.get(0).unwrap().severity(), Severity::Warning);
        assert!(
            LdStFragment::try_new(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(2)).is_ok()
        );
        let d = LdStFragment::validate(LdStShape::S16x256b, Num::X128, Packing::None, Some(3));
        assert_eq!(d.len(), 2);
        let f = LdStFragment::new(LdStShape::S16x64b, Num::X1, Packing::None, None);
        assert_eq!(f.piece(32, 0, 0).unwrap_err().field(), "thread");
        assert_eq!(f.piece(0, 1, 0).unwrap_err().field(), "register");
        assert_eq!(f.piece(0, 0, 1).unwrap_err().field(), "half");
        // Warp quadrant: warp 5 owns lanes 32-63; a 16-lane access at lane 48 fits, at 56 not.
        assert!(f.check_address(TmemAddress::new(48, 0), 5).is_empty());
        let d = f.check_address(TmemAddress::new(56, 0), 5);
        assert_eq!(d.get(0).unwrap().field(), "lane");
        let d = f.check_address(TmemAddress::new(0, 0), 1);
        assert_eq!(d.len(), 1);
        let d = f.check_address(TmemAddress::new(0, 511), 0);
        assert_eq!(d.get(0).unwrap().field(), "column");
    }

    #[test]
    fn packed_second_half_at_an_odd_offset() {
        // The second access's 16-bit halves count from its own start (found by proptest).
        let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X1, Packing::Pack16b, Some(271));
        let p = f.piece(16, 0, 0).unwrap();
        assert_eq!((p.lane, p.column), (0, 271));
        let o = f.owners(0, 271)[0].unwrap();
        assert_eq!((o.thread, o.register_bits), (16, BitRange::new(0, 15)));
        let o = f.owners(0, 272)[0].unwrap();
        assert_eq!((o.thread, o.register_bits), (16, BitRange::new(16, 31)));
    }

    #[test]
    fn overlapping_halves_have_two_owners() {
        let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(2));
        let o = f.owners(3, 2);
        assert_eq!(o[0].unwrap().thread, 3);
        assert_eq!(o[1].unwrap().thread, 19);
        assert_eq!(o[1].unwrap().register, 0);
    }

    #[test]
    fn cp_rows_land_where_cutlass_says() {
        let r = cp_row(CpShape::S64x128b, CpMulticast::Warpx2_01_23, 33).unwrap();
        assert_eq!(r.lanes(), &[65, 97]);
        let r = cp_row(CpShape::S64x128b, CpMulticast::Warpx2_02_13, 33).unwrap();
        assert_eq!(r.lanes(), &[33, 97]);
        let r = cp_row(CpShape::S4x256b, CpMulticast::None, 3).unwrap();
        assert_eq!((r.lanes(), r.columns), (&[96u8][..], 8));
        assert_eq!(
            cp_row(CpShape::S128x128b, CpMulticast::None, 128)
                .unwrap_err()
                .field(),
            "row"
        );
        assert_eq!(
            cp_row(CpShape::S128x128b, CpMulticast::Warpx4, 0)
                .unwrap_err()
                .field(),
            "multicast"
        );
        // Every shape covers each destination lane at most once.
        for shape in CpShape::ALL {
            for mc in shape.allowed_multicasts() {
                let mut seen = [false; 128];
                for row in 0..cp_rows(shape) {
                    for &l in cp_row(shape, *mc, row).unwrap().lanes() {
                        assert!(!seen[l as usize]);
                        seen[l as usize] = true;
                    }
                }
            }
        }
    }
}
