//! The `tcgen05.ld` / `tcgen05.st` fragment maps: (thread, register) to (lane, column, bits)
//! and back, for every shape, `.num`, packing and half-split offset (PTX ISA 9.7.16.2.3.1,
//! 9.7.16.8.2, 9.7.16.8.3).

use super::error::FragmentError;
use crate::diagnostic::Diagnostics;
use crate::tensor_memory::{
    registers_per_thread, warp_first_lane, LdStShape, Num, TmemAddress, LANES_PER_WARP,
    TMEM_COLUMNS,
};

/// Threads of the warp that executes a `tcgen05.ld` / `tcgen05.st` (PTX ISA 9.7.16.8.3).
pub const WARP_THREADS: u32 = 32;

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
