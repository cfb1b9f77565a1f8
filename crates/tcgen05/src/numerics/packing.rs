//! Operand packing as the MMA reads it: where a 4- or 6-bit element sits in its byte, which
//! nibble of a packed FP4 byte is element k, and which byte of a scale word is scale s.
//!
//! Sources: PTX ISA 9.7.14.5.14 (mma.sync `kind::f8f6f4` containers: e2m1 in bits 5:2 with two
//! zero bits above and below, e3m2/e2m3 in bits 5:0 with two zero MSBs; mxf4/mxf4nvf4 two e2m1 per
//! byte without padding), 9.7.16.10.4.3-6 (tcgen05 packing formats, the same containers in
//! Tensor Memory and shared memory), 9.7.16.10.7 (scale factors: scale s of a row in byte s of
//! its 32-bit Tensor Memory word, after the SF_ID byte offset), summarised in
//! `../shared/spec/ptx-beyond-seeds.md` sections 3.4 and 5.2-5.3.
//!
//! Decision D5 (module docs of [`crate::numerics`]): in a packed FP4 byte the element with the
//! lower K index is the low nibble. The PTX figures are images; this follows the byte order of
//! TMA's `.b4x16` copies and the MMA-Sim 2.1.1 harness (`tcgen05mma.h` packs element k in the
//! low nibble, k+1 in the high one). Random tests cannot tell the orders apart (the dot product
//! is invariant under a permutation of both operands), so this stays a decision until a
//! hardware test with distinct per-nibble values confirms it.

use super::format::Format;
use core::fmt;

/// Why a container byte does not hold an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum PackingError {
    /// Bits outside the element's field are set (PTX requires them zero).
    PaddingBitsSet {
        /// The element format.
        format: Format,
        /// The container byte as given.
        byte: u8,
    },
    /// The format is not an element of kind::f8f6f4 / mxf8f6f4.
    NotF8f6f4 {
        /// The format.
        format: Format,
    },
}

impl fmt::Display for PackingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackingError::PaddingBitsSet { format, byte } => write!(
                f,
                "container byte {byte:#04x} has bits set outside the {format} field (PTX ISA 9.7.14.5.14: the other bits are zero)"
            ),
            PackingError::NotF8f6f4 { format } => write!(f, "{format} is not a kind::f8f6f4 element type"),
        }
    }
}

impl core::error::Error for PackingError {}

/// The (lowest bit, width) of an element inside its kind::f8f6f4 / mxf8f6f4 byte container.
///
/// # Errors
/// [`PackingError::NotF8f6f4`] for other formats.
pub const fn container_field(format: Format) -> Result<(u32, u32), PackingError> {
    match format {
        Format::E4m3 | Format::E5m2 => Ok((0, 8)),
        Format::E3m2 | Format::E2m3 => Ok((0, 6)),
        Format::E2m1 => Ok((2, 4)),
        _ => Err(PackingError::NotF8f6f4 { format }),
    }
}

/// The element code held in a kind::f8f6f4 container byte.
///
/// # Errors
/// [`PackingError::PaddingBitsSet`] when a bit outside the field is set.
pub const fn unpack_container(format: Format, byte: u8) -> Result<u32, PackingError> {
    let (lo, w) = match container_field(format) {
        Ok(x) => x,
        Err(e) => return Err(e),
    };
    let mask = ((1u32 << w) - 1) << lo;
    if (byte as u32) & !mask != 0 {
        return Err(PackingError::PaddingBitsSet { format, byte });
    }
    Ok(((byte as u32) & mask) >> lo)
}

/// The container byte of an element code (the code must fit the format's width).
///
/// # Errors
/// [`PackingError::NotF8f6f4`] for other formats.
pub const fn pack_container(format: Format, code: u32) -> Result<u8, PackingError> {
    match container_field(format) {
        Ok((lo, w)) => Ok(((code & ((1 << w) - 1)) << lo) as u8),
        Err(e) => Err(e),
    }
}

/// Element `k` of packed FP4 bytes (mxf4 / mxf4nvf4): byte `k / 2`, low nibble for even k
/// (decision D5). `None` when `k` is past the bytes.
#[must_use]
pub const fn unpack_fp4(bytes: &[u8], k: usize) -> Option<u32> {
    if k / 2 >= bytes.len() {
        return None;
    }
    let b = bytes[k / 2] as u32;
    Some(if k % 2 == 0 { b & 0xF } else { b >> 4 })
}

/// Packs two FP4 codes into one byte (element 2i low, 2i+1 high; decision D5).
#[must_use]
pub const fn pack_fp4(even: u32, odd: u32) -> u8 {
    ((even & 0xF) | ((odd & 0xF) << 4)) as u8
}

/// Scale `s` (0..4) of a row in its 32-bit Tensor Memory scale word, after the SF_ID byte
/// offset `sf_id` (PTX ISA 9.7.16.10.7.2-3; `None` past byte 3).
#[must_use]
pub const fn scale_byte(word: u32, sf_id: u32, s: u32) -> Option<u8> {
    let byte = sf_id + s;
    if byte > 3 {
        return None;
    }
    Some((word >> (8 * byte)) as u8)
}
