//! `tcgen05.cp` decompression (PTX ISA 9.7.16.9.1): each 16-byte chunk of the source holds 16
//! elements of 4 bits followed by 8 bytes of padding (`.b4x16_p64`, 9.7.16.9.1.1) or 16
//! elements of 6 bits followed by 4 bytes of padding (`.b6x16_p32`, 9.7.16.9.1.2), and becomes
//! 16 bytes in Tensor Memory, one element per byte (`.b8x16`).
//!
//! Where each element sits inside its byte is drawn only in Figures 195, 197 and 198; the
//! reading chosen is decision E9 of the module docs: the element goes where `tcgen05.mma` reads
//! it, the `kind::f8f6f4` container of [`crate::numerics::packing`] (4-bit at bits 5:2, 6-bit at
//! bits 5:0, the other bits zero).

use crate::numerics::packing::container_field;
use crate::numerics::Format;

/// The source format of a decompressing `tcgen05.cp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    /// `.b4x16_p64`: 16 x 4 bits in bytes 0-7, bytes 8-15 padding.
    B4x16P64,
    /// `.b6x16_p32`: 16 x 6 bits in bytes 0-11, bytes 12-15 padding.
    B6x16P32,
}

impl SourceFormat {
    /// The format named by a qualifier (without the dot).
    #[must_use]
    pub fn from_qualifier(q: &str) -> Option<SourceFormat> {
        match q {
            "b4x16_p64" => Some(SourceFormat::B4x16P64),
            "b6x16_p32" => Some(SourceFormat::B6x16P32),
            _ => None,
        }
    }

    /// Bits of one element.
    #[must_use]
    pub const fn element_bits(self) -> u32 {
        match self {
            SourceFormat::B4x16P64 => 4,
            SourceFormat::B6x16P32 => 6,
        }
    }

    /// Bytes of a chunk that hold elements (the rest is padding, never read).
    #[must_use]
    pub const fn data_bytes(self) -> usize {
        match self {
            SourceFormat::B4x16P64 => 8,
            SourceFormat::B6x16P32 => 12,
        }
    }

    /// The lowest bit of an element inside its destination byte (E9).
    #[must_use]
    pub fn container_lo(self) -> u32 {
        // E2M1 for 4-bit elements, E3M2 (the same field as E2M3) for 6-bit ones.
        let format = match self {
            SourceFormat::B4x16P64 => Format::E2m1,
            SourceFormat::B6x16P32 => Format::E3m2,
        };
        container_field(format).map_or(0, |(lo, _)| lo)
    }

    /// Element `e` (0..16) of a chunk's data bytes: bits `e * w` up, little-endian (the order
    /// in which [`MatrixLayout`](crate::canonical_layout::MatrixLayout) packs 4- and 6-bit
    /// elements into a 16-byte chunk; for 4 bits, the low nibble first, decision D5).
    #[must_use]
    pub fn element(self, data: &[u8], e: u32) -> u8 {
        let w = self.element_bits();
        let bit = e * w;
        let mut word = 0u32;
        for i in 0..2 {
            let b = (bit / 8 + i) as usize;
            if let Some(&x) = data.get(b) {
                word |= u32::from(x) << (8 * i);
            }
        }
        ((word >> (bit % 8)) & ((1 << w) - 1)) as u8
    }

    /// The 16 destination bytes of one 16-byte source chunk (only the data bytes are used).
    #[must_use]
    pub fn expand(self, data: &[u8]) -> [u8; 16] {
        let lo = self.container_lo();
        let mut out = [0u8; 16];
        for (e, o) in out.iter_mut().enumerate() {
            *o = self.element(data, e as u32) << lo;
        }
        out
    }
}

/// The data bytes of one source chunk holding `codes` (16 codes of `format`'s width), the
/// inverse of [`SourceFormat::element`] (for the unit tests).
#[cfg(test)]
#[must_use]
pub fn compress(format: SourceFormat, codes: &[u8; 16]) -> alloc::vec::Vec<u8> {
    match format {
        SourceFormat::B4x16P64 => (0..8)
            .map(|i| {
                crate::numerics::packing::pack_fp4(
                    u32::from(codes[2 * i]),
                    u32::from(codes[2 * i + 1]),
                )
            })
            .collect(),
        SourceFormat::B6x16P32 => {
            let mut bytes = alloc::vec![0u8; 12];
            for (e, &c) in codes.iter().enumerate() {
                let bit = e * 6;
                let v = u32::from(c & 0x3F) << (bit % 8);
                bytes[bit / 8] |= v as u8;
                if bit / 8 + 1 < 12 {
                    bytes[bit / 8 + 1] |= (v >> 8) as u8;
                }
            }
            bytes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compress_and_expand_are_inverse() {
        let codes: [u8; 16] = core::array::from_fn(|i| (i * 5 + 3) as u8);
        for f in [SourceFormat::B4x16P64, SourceFormat::B6x16P32] {
            let mask = (1u8 << f.element_bits()) - 1;
            let c = codes.map(|x| x & mask);
            let data = compress(f, &c);
            assert_eq!(data.len(), f.data_bytes());
            let out = f.expand(&data);
            for e in 0..16 {
                assert_eq!(out[e] >> f.container_lo(), c[e]);
            }
        }
        // 0x21: element 0 is the low nibble (D5).
        assert_eq!(SourceFormat::B4x16P64.expand(&[0x21])[..2], [0x04, 0x08]);
    }
}
