//! `prmt.b32 d, a, b, c` (PTX ISA 9.7.8.7, permute bytes), default mode: byte `i` of `d` is
//! the byte of {b, a} (bytes 0-3 of `a`, 4-7 of `b`) that nibble `i` of `c` selects with its
//! low 3 bits; with the nibble's bit 3 set, the selected byte's sign bit is replicated over the
//! byte instead.

use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::op::{OpKind, Src};

/// Decodes `prmt.b32` (the `.f4e`, `.b4e`, `.rc8`, `.ecl`, `.ecr`, `.rc16` modes are refused
/// by name).
pub(crate) fn decode(v: &View<'_>, q: &[&str]) -> Result<OpKind, RunError> {
    if let Some(x) = q.iter().find(|x| **x != "b32") {
        return Err(unsupported(
            v.line,
            x,
            "prmt mode not modelled (default mode only)",
        ));
    }
    if q.is_empty() {
        return Err(invalid(v.line, v.text, "prmt needs .b32"));
    }
    match v.operands.as_slice() {
        [Resolved::Src(Src::Reg(d)), Resolved::Src(a), Resolved::Src(b), Resolved::Src(c)] => {
            Ok(OpKind::Prmt {
                d: *d,
                a: *a,
                b: *b,
                c: *c,
            })
        }
        _ => Err(invalid(v.line, v.text, "prmt takes d, a, b, c")),
    }
}

/// The default-mode permutation.
pub(crate) fn prmt(a: u64, b: u64, c: u64) -> u64 {
    let src = (b & 0xFFFF_FFFF) << 32 | (a & 0xFFFF_FFFF);
    let mut d = 0u64;
    for i in 0..4 {
        let nibble = (c >> (4 * i)) & 0xF;
        let byte = (src >> (8 * (nibble & 7))) & 0xFF;
        let byte = if nibble & 8 != 0 {
            if byte & 0x80 != 0 {
                0xFF
            } else {
                0
            }
        } else {
            byte
        };
        d |= byte << (8 * i);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::prmt;

    /// Selectors Triton writes, and the sign replication, worked by hand from PTX ISA 9.7.8.7.
    #[test]
    fn selects_and_replicates_bytes() {
        let (a, b) = (0x4433_2211, 0x8877_6655);
        assert_eq!(prmt(a, b, 0x3210), 0x4433_2211);
        assert_eq!(prmt(a, b, 0x7654), 0x8877_6655);
        assert_eq!(prmt(a, b, 0x5410), 0x6655_2211);
        assert_eq!(prmt(a, b, 0x3340), 0x4444_5511);
        // Bit 3 of a nibble: the sign of byte 7 (0x88) is 1, of byte 0 (0x11) is 0; the
        // nibbles 0 above them select byte 0.
        assert_eq!(prmt(a, b, 0x8F), 0x1111_00FF);
        assert_eq!(prmt(a, b, 0xF8), 0x1111_FF00);
    }
}
