//! [`MatrixLayout`]: the byte an MMA reads for each operand element under a shared memory
//! descriptor (PTX ISA 9.7.16.3.3), and the swizzle that maps it.

use super::error::{LayoutError, LayoutField};
use super::{
    BaseOffsetReading, ElementLocation, LayoutDiagnostics, Operand, CHUNK_BYTES, CORE_ROWS,
    MAX_OPERAND_EXTENT, SHARED_WINDOW_BYTES,
};
use crate::diagnostic::Diagnostics;
use crate::mma::Major;
use crate::shared_memory_descriptor::{
    encode_bytes, LboMode, SmemDescriptor, SmemField, SmemFields, Swizzle, SWIZZLE_LINE_BYTES,
};

/// The XOR of a swizzle mode as CuTe's `Swizzle<B, M, 3>`: `(B, M)`, or `None` without
/// swizzling (`spec/ptx-beyond-seeds.md` §1.6).
const fn swizzle_bits(swizzle: Swizzle) -> Option<(u32, u32)> {
    match swizzle {
        Swizzle::None => None,
        Swizzle::B32 => Some((1, 4)),
        Swizzle::B64 => Some((2, 4)),
        Swizzle::B128 => Some((3, 4)),
        Swizzle::B128Base32B => Some((2, 5)),
    }
}

/// Applies a swizzle mode to a pre-swizzle byte address (see the [module docs](crate::canonical_layout)).
#[must_use]
pub const fn swizzle_address(
    pre: u64,
    swizzle: Swizzle,
    base_offset: u8,
    start: u32,
    reading: BaseOffsetReading,
) -> u64 {
    let Some((b, m)) = swizzle_bits(swizzle) else {
        return pre;
    };
    let line = pre >> 7;
    let phase = match reading {
        BaseOffsetReading::PatternStart => line.wrapping_sub(base_offset as u64),
        BaseOffsetReading::Absolute => line,
        BaseOffsetReading::StartLine => line
            .wrapping_sub((start >> 7) as u64)
            .wrapping_add(base_offset as u64),
    };
    pre ^ ((phase & ((1 << b) - 1)) << m)
}

/// An operand in shared memory as one MMA reads it: a descriptor plus the operand's storage,
/// major-ness and extent, checked against the canonical layouts' rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MatrixLayout {
    fields: SmemFields,
    operand: Operand,
    reading: BaseOffsetReading,
}

/// The unit an extent must be a multiple of: `(mn unit, k unit)`.
const fn extent_units(op: &Operand, swizzle: Swizzle) -> (u32, u32) {
    let t = op.storage.per_chunk as u32;
    match op.major {
        Major::K => (CORE_ROWS, t),
        Major::Mn => match swizzle {
            Swizzle::B128Base32B => (t, 4),
            _ => (t, CORE_ROWS),
        },
    }
}

impl MatrixLayout {
    /// Every problem of `operand` read through a descriptor with `fields`: element storage and
    /// major-ness (R11), swizzle for the major-ness and width (R18), the absolute mode's layout
    /// (R5), extents that are not whole core-matrix rows or chunks, and a K-major K block that
    /// crosses its swizzle row (PTX ISA 9.7.16.3.1.2).
    #[must_use]
    pub const fn validate(fields: &SmemFields, operand: &Operand) -> LayoutDiagnostics {
        let mut d = Diagnostics::new();
        // Byte fields the descriptor could not hold (rules.md R3), for hand-made fields.
        let bytes = [
            (SmemField::StartAddress, fields.start_address),
            (SmemField::LeadingByteOffset, fields.leading_byte_offset),
            (SmemField::StrideByteOffset, fields.stride_byte_offset),
        ];
        let mut i = 0;
        while i < bytes.len() {
            if let Some(Err(e)) = encode_bytes(bytes[i].0, bytes[i].1) {
                d.push(LayoutError::Descriptor(e));
            }
            i += 1;
        }
        let bits = operand.storage.bits;
        let swizzle = fields.swizzle;
        if matches!(operand.major, Major::Mn) && bits < 8 {
            d.push(LayoutError::SubByteMnMajor { bits });
        }
        let base32 = matches!(swizzle, Swizzle::B128Base32B);
        let swizzle_ok = match operand.major {
            Major::K => !base32,
            Major::Mn => base32 == (bits == 32),
        };
        if !swizzle_ok {
            d.push(LayoutError::SwizzleNotAllowed {
                swizzle,
                major: operand.major,
                bits,
            });
        }
        if matches!(fields.lbo_mode, LboMode::Absolute)
            && !(matches!(operand.major, Major::K) && matches!(swizzle, Swizzle::B128))
        {
            d.push(LayoutError::AbsoluteModeLayout {
                swizzle,
                major: operand.major,
            });
        }
        let (mn_unit, k_unit) = extent_units(operand, swizzle);
        if operand.mn > MAX_OPERAND_EXTENT {
            d.push(LayoutError::ExtentTooLarge {
                field: LayoutField::Mn,
                value: operand.mn,
                max: MAX_OPERAND_EXTENT,
            });
        } else if operand.mn == 0 || operand.mn % mn_unit != 0 {
            d.push(LayoutError::Extent {
                field: LayoutField::Mn,
                value: operand.mn,
                unit: mn_unit,
            });
        }
        if operand.k > MAX_OPERAND_EXTENT {
            d.push(LayoutError::ExtentTooLarge {
                field: LayoutField::K,
                value: operand.k,
                max: MAX_OPERAND_EXTENT,
            });
        } else if operand.k == 0 || operand.k % k_unit != 0 {
            d.push(LayoutError::Extent {
                field: LayoutField::K,
                value: operand.k,
                unit: k_unit,
            });
        } else if matches!(operand.major, Major::K)
            && swizzle.is_swizzled()
            && matches!(fields.lbo_mode, LboMode::Relative)
        {
            let width = swizzle.width_bytes();
            let offset = fields.start_address % width;
            let bytes = operand.k / operand.storage.per_chunk as u32 * CHUNK_BYTES;
            if offset as u64 + bytes as u64 > width as u64 {
                d.push(LayoutError::KCrossesSwizzleRow {
                    offset,
                    bytes,
                    width,
                });
            }
        }
        d
    }

    /// The layout of `operand` read through `descriptor`, with the default
    /// [`BaseOffsetReading`].
    ///
    /// # Errors
    /// The first problem [`MatrixLayout::validate`] finds.
    pub const fn try_new(
        descriptor: SmemDescriptor,
        operand: Operand,
    ) -> Result<MatrixLayout, LayoutError> {
        MatrixLayout::from_fields(descriptor.fields(), operand)
    }

    /// As [`MatrixLayout::try_new`], from descriptor fields (which must already satisfy
    /// [`SmemDescriptor::validate`]; the Hopper `wgmma` descriptor has the same fields).
    ///
    /// # Errors
    /// The first problem [`MatrixLayout::validate`] finds.
    pub const fn from_fields(
        fields: SmemFields,
        operand: Operand,
    ) -> Result<MatrixLayout, LayoutError> {
        let d = MatrixLayout::validate(&fields, &operand);
        if let Some(e) = d.get(0) {
            return Err(e);
        }
        Ok(MatrixLayout {
            fields,
            operand,
            reading: BaseOffsetReading::PatternStart,
        })
    }

    /// The same layout under another reading of the base offset (for hardware experiments).
    #[must_use]
    pub const fn with_reading(self, reading: BaseOffsetReading) -> MatrixLayout {
        MatrixLayout { reading, ..self }
    }

    /// The descriptor fields.
    #[must_use]
    pub const fn fields(&self) -> SmemFields {
        self.fields
    }

    /// The operand.
    #[must_use]
    pub const fn operand(&self) -> Operand {
        self.operand
    }

    /// The base-offset reading in use.
    #[must_use]
    pub const fn reading(&self) -> BaseOffsetReading {
        self.reading
    }

    /// Byte address of the chunk holding `(mn, k)` before swizzling, and the element's index in
    /// the chunk. Indexes must be in range.
    const fn pre_swizzle(&self, mn: u32, k: u32) -> (u64, u32) {
        let f = &self.fields;
        let t = self.operand.storage.per_chunk as u64;
        let start = f.start_address as u64;
        let lbo = f.leading_byte_offset as u64;
        let sbo = f.stride_byte_offset as u64;
        let chunk = CHUNK_BYTES as u64;
        let (mn, k) = (mn as u64, k as u64);
        match self.operand.major {
            Major::K => {
                let kc = k / t;
                let j = (k % t) as u32;
                let rows = (mn % 8) * f.swizzle.width_bytes() as u64 + (mn / 8) * sbo;
                let pre = match (f.swizzle, f.lbo_mode) {
                    (Swizzle::None, _) => start + rows + kc * lbo,
                    (_, LboMode::Absolute) => {
                        let line = SWIZZLE_LINE_BYTES as u64;
                        let kb = kc * chunk;
                        let room = line - start % line;
                        if kb < room {
                            start + rows + kb
                        } else {
                            lbo + rows + (kb - room)
                        }
                    }
                    _ => start + rows + kc * chunk,
                };
                (pre, j)
            }
            Major::Mn => {
                let mc = mn / t;
                let j = (mn % t) as u32;
                let pre = match f.swizzle {
                    Swizzle::None => start + mc * sbo + (k % 8) * chunk + (k / 8) * lbo,
                    Swizzle::B128Base32B => {
                        start + (mc % 8) * chunk + (mc / 8) * lbo + (k % 4) * 128 + (k / 4) * sbo
                    }
                    _ => {
                        let w = f.swizzle.width_bytes() as u64;
                        let per_row = w / chunk;
                        start
                            + (mc % per_row) * chunk
                            + (mc / per_row) * lbo
                            + (k % 8) * w
                            + (k / 8) * sbo
                    }
                };
                (pre, j)
            }
        }
    }

    /// Where element `(mn, k)` lives: row `mn` along M (or N), `k` along K.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfRange`] for an index outside the operand,
    /// [`LayoutError::AddressOutOfRange`] when the address leaves the 18-bit window.
    pub const fn address(&self, mn: u32, k: u32) -> Result<ElementLocation, LayoutError> {
        if mn >= self.operand.mn {
            return Err(LayoutError::IndexOutOfRange {
                field: LayoutField::MnIndex,
                value: mn,
                extent: self.operand.mn,
            });
        }
        if k >= self.operand.k {
            return Err(LayoutError::IndexOutOfRange {
                field: LayoutField::KIndex,
                value: k,
                extent: self.operand.k,
            });
        }
        let (pre, j) = self.pre_swizzle(mn, k);
        let chunk = swizzle_address(
            pre,
            self.fields.swizzle,
            self.fields.base_offset,
            self.fields.start_address,
            self.reading,
        );
        let bit = j * self.operand.storage.bits as u32;
        let address = chunk + (bit / 8) as u64;
        if address >= SHARED_WINDOW_BYTES {
            return Err(LayoutError::AddressOutOfRange { mn, k, address });
        }
        Ok(ElementLocation {
            address: address as u32,
            bit: (bit % 8) as u8,
            bits: self.operand.storage.bits,
        })
    }

    /// The elements (at most two: elements are at least 4 bits wide) that hold any bit of
    /// shared memory byte `address`, in row-major order, as `(mn, k)`. The inverse of
    /// [`MatrixLayout::address`]; a scan over the operand.
    #[must_use]
    pub const fn elements_at(&self, address: u32) -> [Option<(u32, u32)>; 2] {
        let mut found = [None, None];
        let mut n = 0;
        let mut mn = 0;
        while mn < self.operand.mn {
            let mut k = 0;
            while k < self.operand.k {
                if let Ok(loc) = self.address(mn, k) {
                    if loc.address <= address && address < loc.end_address() && n < 2 {
                        found[n] = Some((mn, k));
                        n += 1;
                    }
                }
                k += 1;
            }
            mn += 1;
        }
        found
    }

    /// Every element's location, row-major (`mn * K + k`).
    ///
    /// # Errors
    /// The first [`LayoutError::AddressOutOfRange`].
    #[cfg(any(feature = "alloc", test))]
    pub fn locations(&self) -> Result<alloc::vec::Vec<ElementLocation>, LayoutError> {
        let mut v =
            alloc::vec::Vec::with_capacity(self.operand.mn as usize * self.operand.k as usize);
        for mn in 0..self.operand.mn {
            for k in 0..self.operand.k {
                v.push(self.address(mn, k)?);
            }
        }
        Ok(v)
    }

    /// Every overlap (two elements sharing a bit; each pair reported once, by the element
    /// whose first bit is lower) and, when `buffer` (a byte range `start..end`) is given, every
    /// element read outside it.
    ///
    /// # Errors
    /// [`LayoutError::AddressOutOfRange`] when an element leaves the shared memory window.
    #[cfg(any(feature = "alloc", test))]
    pub fn check(
        &self,
        buffer: Option<core::ops::Range<u32>>,
    ) -> Result<alloc::vec::Vec<LayoutError>, LayoutError> {
        if let Some(b) = &buffer {
            if b.end <= b.start {
                return Err(LayoutError::EmptyBuffer {
                    start: b.start,
                    end: b.end,
                });
            }
        }
        let locs = self.locations()?;
        let k_extent = self.operand.k;
        let coord = |i: usize| ((i as u32) / k_extent, (i as u32) % k_extent);
        let mut problems = alloc::vec::Vec::new();
        if let Some(buffer) = &buffer {
            for (i, loc) in locs.iter().enumerate() {
                if loc.address < buffer.start || loc.end_address() > buffer.end {
                    let (mn, k) = coord(i);
                    problems.push(LayoutError::OutsideBuffer {
                        mn,
                        k,
                        address: loc.address,
                    });
                }
            }
        }
        let mut order: alloc::vec::Vec<usize> = (0..locs.len()).collect();
        order.sort_by_key(|&i| (locs[i].first_bit(), i));
        let bits = self.operand.storage.bits as u64;
        for pair in order.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if locs[b].first_bit() < locs[a].first_bit() + bits {
                let (mn, k) = coord(a.min(b));
                let (other_mn, other_k) = coord(a.max(b));
                problems.push(LayoutError::Overlap {
                    mn,
                    k,
                    other_mn,
                    other_k,
                    address: locs[b].address,
                });
            }
        }
        Ok(problems)
    }
}
