//! `prmt` (PTX ISA 9.7.9.7, "Data Movement and Conversion Instructions: prmt"): picks four
//! bytes out of the eight of `{b, a}` (a's bytes are 0-3, b's 4-7) as the selector `c` says.

use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::op::OpKind;

/// The mode of a `prmt`: the generic form (a 4-bit selector per result byte) or one of the
/// six fixed permutations chosen by `c`'s two low bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// No mode: nibble `i` of `c` selects result byte `i`; its bit 3 replicates the selected
    /// byte's sign bit.
    Generic,
    /// `.f4e`: forward 4 extract.
    F4e,
    /// `.b4e`: backward 4 extract.
    B4e,
    /// `.rc8`: replicate one byte.
    Rc8,
    /// `.ecl`: edge clamp left.
    Ecl,
    /// `.ecr`: edge clamp right.
    Ecr,
    /// `.rc16`: replicate one 16-bit half.
    Rc16,
}

/// Decodes `prmt.b32{.mode} d, a, b, c`.
pub(crate) fn decode(v: &View<'_>, q: &[&str]) -> Result<OpKind, RunError> {
    let mode = match q {
        ["b32"] => PrmtMode::Generic,
        ["b32", m] => match *m {
            "f4e" => PrmtMode::F4e,
            "b4e" => PrmtMode::B4e,
            "rc8" => PrmtMode::Rc8,
            "ecl" => PrmtMode::Ecl,
            "ecr" => PrmtMode::Ecr,
            "rc16" => PrmtMode::Rc16,
            _ => return Err(unsupported(v.line, m, "not a prmt mode (PTX ISA 9.7.9.7)")),
        },
        _ => {
            return Err(unsupported(
                v.line,
                v.opcode,
                "prmt takes .b32 and an optional mode",
            ))
        }
    };
    match v.operands.as_slice() {
        [Resolved::Src(crate::op::Src::Reg(d)), Resolved::Src(a), Resolved::Src(b), Resolved::Src(c)] => {
            Ok(OpKind::Prmt {
                mode,
                d: *d,
                a: *a,
                b: *b,
                c: *c,
            })
        }
        _ => Err(invalid(
            v.line,
            v.text,
            "prmt takes a destination register and three sources",
        )),
    }
}

/// The result of `prmt` on 32-bit `a`, `b` and selector `c`.
#[must_use]
pub fn permute(mode: PrmtMode, a: u32, b: u32, c: u32) -> u32 {
    let bytes = u64::from(b) << 32 | u64::from(a);
    let byte = |i: u32| (bytes >> (8 * (i & 7))) as u8;
    // Result byte indices (byte 0 first) of the fixed modes, from the PTX ISA's table,
    // written there as b3 b2 b1 b0 per value of c[1:0].
    let fixed = |table: [[u32; 4]; 4]| {
        let sel = table[(c & 3) as usize];
        u32::from_le_bytes([byte(sel[0]), byte(sel[1]), byte(sel[2]), byte(sel[3])])
    };
    match mode {
        PrmtMode::Generic => {
            let mut r = [0u8; 4];
            for (i, out) in r.iter_mut().enumerate() {
                let s = c >> (4 * i) & 0xF;
                let x = byte(s & 7);
                *out = if s & 8 != 0 {
                    if x & 0x80 != 0 {
                        0xFF
                    } else {
                        0
                    }
                } else {
                    x
                };
            }
            u32::from_le_bytes(r)
        }
        PrmtMode::F4e => fixed([[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]),
        PrmtMode::B4e => fixed([[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]]),
        PrmtMode::Rc8 => fixed([[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]),
        PrmtMode::Ecl => fixed([[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]]),
        PrmtMode::Ecr => fixed([[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]]),
        PrmtMode::Rc16 => fixed([[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]]),
    }
}

#[cfg(test)]
mod tests {
    use super::{permute, PrmtMode};

    /// The PTX ISA's examples and table rows, written out by hand.
    #[test]
    fn selectors_pick_the_bytes_the_isa_lists() {
        let (a, b) = (0x4433_2211, 0x8877_6655);
        // Generic: c = 0x3210 copies a; 0x7654 copies b; 0x7770 is Triton's zero extension
        // of byte 0 ("b" = 0 gives zero bytes 4-7).
        assert_eq!(permute(PrmtMode::Generic, a, b, 0x3210), a);
        assert_eq!(permute(PrmtMode::Generic, a, b, 0x7654), b);
        assert_eq!(permute(PrmtMode::Generic, 0x1234_5678, 0, 0x7770), 0x78);
        // Bit 3 replicates the sign of the selected byte: 0x88 has its sign bit set.
        assert_eq!(permute(PrmtMode::Generic, a, b, 0x000F), 0x1111_11FF);
        assert_eq!(permute(PrmtMode::Generic, a, b, 0x0008), 0x1111_1100);
        assert_eq!(permute(PrmtMode::F4e, a, b, 1), 0x5544_3322);
        assert_eq!(permute(PrmtMode::B4e, a, b, 0), 0x6677_8811);
        assert_eq!(permute(PrmtMode::Rc8, a, b, 2), 0x3333_3333);
        assert_eq!(permute(PrmtMode::Ecl, a, b, 1), 0x4433_2222);
        assert_eq!(permute(PrmtMode::Ecr, a, b, 2), 0x3333_2211);
        assert_eq!(permute(PrmtMode::Rc16, a, b, 1), 0x4433_4433);
    }
}
