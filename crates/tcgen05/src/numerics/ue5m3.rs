//! UE5M3 scale factors in the block-scaled arithmetic (`.kind::mxf4nvf4` on `sm_107a` /
//! `sm_107f`, PTX ISA 9.4; rulings D7 and D9 of `docs/rules.md`).
//!
//! PTX ISA 9.7.16.10.7 defines the block-scaled product for every scale format alike: each
//! element times its block's scale factors. UE5M3 (5 exponent bits, 3 fraction bits, bias 15,
//! [`super::Format::Ue5m3`]) takes the place of UE4M3 in `.kind::mxf4nvf4` with 16-element
//! blocks; the arithmetic is the UE4M3 row's GST-FDPA, each group's value being its exact sum
//! times its two UE5M3 scales. No hardware has run it (D7).

use super::fdpa::Algorithm;
use super::format::Format;
use super::params::{Evidence, Location, NumericsError, ParamRow, Problem, RuleId};
use crate::diagnostic::Diagnostics;
use crate::mma::Kind;

/// Where the UE5M3 row's parameters come from.
const EVIDENCE: [Evidence; 2] = [
    Evidence::MmaSim(
        "sim.py TCGen05MMABlockScale (the UE4M3 parameters), hardware-tested by mmasim-kernels tcgen05mma_sm100a.cu",
    ),
    Evidence::Decision("D9: UE5M3 scales take UE4M3's place in the same arithmetic (unmeasured)"),
];

/// The UE5M3 row of a `.kind::mxf4nvf4` row with UE4M3 scales over 16-element blocks.
///
/// # Errors
/// [`RuleId::NoSuchForm`] at field `scale_type` for any other row.
#[allow(clippy::result_large_err)] // every problem, by value, as the rest of the module
pub fn ue5m3_row(row: ParamRow) -> Result<ParamRow, NumericsError> {
    match (row.kind, row.scale, row.algorithm) {
        (Kind::Mxf4nvf4, Some((Format::Ue4m3, 16)), Algorithm::GstFdpa { .. }) => Ok(ParamRow {
            scale: Some((Format::Ue5m3, 16)),
            evidence: &EVIDENCE,
            ..row
        }),
        _ => {
            let mut problems = Diagnostics::new();
            problems.push(Problem {
                rule: RuleId::NoSuchForm,
                location: Location::Field("scale_type"),
                value: 2,
                expected: None,
                decode: None,
            });
            Err(NumericsError { problems })
        }
    }
}
