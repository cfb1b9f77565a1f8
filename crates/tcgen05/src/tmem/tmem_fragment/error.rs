//! The rules of the fragment maps and the errors that name them: which field a value breaks,
//! the rule's row (its source and severity), and the message.

use core::fmt;

use crate::diagnostic::{Diagnostic, Rule, Severity, Source};
use crate::tensor_memory::{
    warp_first_lane, CpMulticast, CpShape, LdStShape, Num, LANES_PER_WARP, TMEM_COLUMNS,
};

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
        FRAGMENT_FIELDS[self.rule() as usize]
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
        &FRAGMENT_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"fragment.thread_out_of_range"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

/// A row of [`FRAGMENT_RULES`].
const fn rule(
    id: &'static str,
    source: Source,
    severity: Severity,
    statement: &'static str,
) -> Rule {
    Rule::fixed(id, source, severity, statement)
}

/// Every rule of the fragment maps, indexed by [`FragmentRule`].
pub(crate) const FRAGMENT_RULES: [Rule; 11] = {
    const E: Severity = Severity::Error;
    const LD: Source = Source::PtxSection("9.7.16.8.3");
    [
        rule("fragment.num_too_large_for_shape", Source::PtxTable(49), E,
            "The shape takes the .num (Table 49 for tcgen05.ld, Table 50 for tcgen05.st)."),
        rule("fragment.half_split_offset_not_allowed", LD, E,
            "Only .16x32bx2 takes an immHalfSplitoff operand."),
        rule("fragment.half_split_offset_too_large", Source::Decision(24), E,
            "The half-split offset stays within Tensor Memory's 512 columns."),
        rule("fragment.halves_overlap", LD, Severity::Warning,
            "The second .16x32b access of .16x32bx2 starts past the columns of the first."),
        rule("fragment.thread_out_of_range", LD, E, "A warp has threads 0 to 31."),
        rule("fragment.register_out_of_range", Source::PtxTable(49), E,
            "A register index lies within the thread's register vector."),
        rule("fragment.half_out_of_range", Source::PtxSection("9.7.16.8.2"), E,
            "A register has two 16-bit halves with .pack::16b / .unpack::16b and one piece otherwise."),
        rule("fragment.lanes_outside_warp_quadrant", Source::PtxSection("9.7.16.8.1"), E,
            "Warp w of a warpgroup accesses only lanes 32 * (w % 4) to 32 * (w % 4) + 31."),
        rule("fragment.columns_past_end", Source::Decision(24), E,
            "An access stays within columns 0 to 511."),
        rule("fragment.row_out_of_range", Source::PtxSection("9.7.16.2.3"), E,
            "A row lies within the rows of the tcgen05.cp shape."),
        rule("fragment.cp_multicast_mismatch", Source::Decision(23), E,
            ".64x128b takes .warpx2::02_13 or .warpx2::01_23, .32x128b takes .warpx4, and the other tcgen05.cp shapes take none."),
    ]
};

/// The field each rule of [`FRAGMENT_RULES`] concerns, indexed by [`FragmentRule`].
const FRAGMENT_FIELDS: [FragmentField; 11] = {
    use FragmentField as F;
    [
        F::Num,
        F::HalfSplitOffset,
        F::HalfSplitOffset,
        F::HalfSplitOffset,
        F::Thread,
        F::Register,
        F::Half,
        F::Lane,
        F::Column,
        F::Row,
        F::Multicast,
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
