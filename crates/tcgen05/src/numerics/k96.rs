//! The arithmetic of the K = 96 block-scaled MMAs (`.kind::mxf4` and `.kind::mxf4nvf4` on
//! `sm_103a` and `sm_107a`; PTX ISA 9.7.16.2.1.1, the K = 96 row of Table 39).
//!
//! PTX ISA 9.7.16.10 defines the block-scaled product for every K alike: element `k` of a row
//! of A and of a column of B, each multiplied by the scale factor of its block of 32
//! (`.block32`, "3X" at K = 96) or 16 (`.block16`, "6X") elements, summed with C. It gives no
//! arithmetic of its own for K = 96, and nothing public has measured one. This module's
//! reading (ruling D8 of `docs/rules.md`): the K = 96 MMA fuses its 96 products in one block
//! exactly as the measured K = 64 MMA fuses its 64 (MMA-Sim's GST-FDPA on a B200: exact sums
//! of 16 products, aligned by their scale exponents with `F = 35` fraction bits, zero terms at
//! `e_zero = -139`, one round toward zero to f32). The K = 64 parameters are kept; only the
//! number of products changes.

use super::fdpa::Algorithm;
use super::params::{Evidence, Location, NumericsError, ParamRow, Problem, RuleId};
use crate::diagnostic::Diagnostics;
use crate::mma::Kind;

/// K of the K = 96 MMAs.
pub const K96: u32 = 96;

/// Where the K = 96 row's parameters come from.
const EVIDENCE: [Evidence; 2] = [
    Evidence::MmaSim(
        "sim.py TCGen05MMABlockScale (the K = 64 parameters), hardware-tested by mmasim-kernels tcgen05mma_sm100a.cu",
    ),
    Evidence::Decision("D8: K = 96 fuses its 96 products as K = 64 fuses 64 (unmeasured)"),
];

/// The K = 96 row of a K = 64 `.kind::mxf4` / `.kind::mxf4nvf4` row of the tables: the same
/// GST-FDPA over 96 products (ruling D8).
///
/// # Errors
/// [`RuleId::NoSuchForm`] at field `k` for any other row (no other kind has a K = 96 shape in
/// Table 39).
#[allow(clippy::result_large_err)] // every problem, by value, as the rest of the module
pub fn k96_row(row: ParamRow) -> Result<ParamRow, NumericsError> {
    match (row.kind, row.algorithm) {
        (
            Kind::Mxf4 | Kind::Mxf4nvf4,
            Algorithm::GstFdpa {
                f, group, e_zero, ..
            },
        ) if K96 % group == 0 => Ok(ParamRow {
            algorithm: Algorithm::GstFdpa {
                f,
                group,
                l: K96,
                e_zero,
            },
            evidence: &EVIDENCE,
            ..row
        }),
        _ => {
            let mut problems = Diagnostics::new();
            problems.push(Problem {
                rule: RuleId::NoSuchForm,
                location: Location::Field("k"),
                value: u64::from(K96),
                expected: None,
                decode: None,
            });
            Err(NumericsError { problems })
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

    use super::*;
    use crate::numerics::fdpa::Operands;
    use crate::numerics::params::{Arch, Form, Instruction};
    use crate::numerics::Format;

    fn nvfp4(block: u32, scale: Format) -> ParamRow {
        Form {
            arch: Arch::Sm100a,
            instruction: Some(Instruction::Tcgen05Mma),
            kind: Kind::Mxf4nvf4,
            a: Format::E2m1,
            b: Format::E2m1,
            d: Some(Format::F32),
            scale: Some(scale),
            block: Some(block),
        }
        .row()
        .unwrap()
    }

    /// Small exact operands: the 96-product dot equals the plain sum
    /// `sum_k a_k b_k sa(k) sb(k)` of the PTX text (every partial sum is exact in f32), and the
    /// last 32 products count (a K = 64 truncation would drop them).
    #[test]
    fn k96_dot_is_the_texts_sum_over_96_products() {
        // e2m1 codes: 0x2 = 1.0, 0x4 = 2.0, 0xA = -1.0; ue8m0 0x7F = 1, 0x80 = 2, 0x7E = 0.5.
        let e2m1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
        let val = |c: u32| {
            let v = e2m1[(c & 7) as usize];
            if c & 8 != 0 {
                -v
            } else {
                v
            }
        };
        let a: [u32; 96] = core::array::from_fn(|i| (i as u32 * 7 + 3) % 16);
        let b: [u32; 96] = core::array::from_fn(|i| (i as u32 * 5 + 1) % 16);
        let sfa = [0x7Fu32, 0x80, 0x7E];
        let sfb = [0x80u32, 0x7E, 0x81];
        let ue8m0 = |c: u32| 2f64.powi(c as i32 - 127);
        let want: f64 = (0..96)
            .map(|k| val(a[k]) * val(b[k]) * ue8m0(sfa[k / 32]) * ue8m0(sfb[k / 32]))
            .sum();
        let row = k96_row(nvfp4(32, Format::Ue8m0)).unwrap();
        let ops = Operands {
            a: &a,
            b: &b,
            c: 0,
            sfa: &sfa,
            sfb: &sfb,
        };
        let d = row.dot(&ops, false).unwrap();
        assert_eq!(f64::from(f32::from_bits(d.d_bits)), want);
        let first64: f64 = (0..64)
            .map(|k| val(a[k]) * val(b[k]) * ue8m0(sfa[k / 32]) * ue8m0(sfb[k / 32]))
            .sum();
        assert_ne!(want, first64);
    }

    #[test]
    fn only_the_4_bit_block_scaled_kinds_have_k96() {
        assert!(k96_row(nvfp4(16, Format::Ue4m3)).is_ok());
        let mx8 = Form {
            arch: Arch::Sm100a,
            instruction: Some(Instruction::Tcgen05Mma),
            kind: Kind::Mxf8f6f4,
            a: Format::E4m3,
            b: Format::E4m3,
            d: Some(Format::F32),
            scale: Some(Format::Ue8m0),
            block: Some(32),
        }
        .row()
        .unwrap();
        let e = k96_row(mx8).unwrap_err();
        assert_eq!(e.problems.get(0).unwrap().location, Location::Field("k"));
    }
}
