//! The K = 96 block-scaled MMAs of `sm_103a` and `sm_107a` (instruction descriptor bit 31 of
//! Table 44; PTX ISA 9.7.16.2.1.1, the K = 96 row of Table 39): what the MMA's stages take
//! from this module instead of K = 64's.
//!
//! - K is 96: A and B are read through their descriptors as 96 elements along K (48 bytes of
//!   E2M1), which the canonical layouts place as any K (the absolute leading-dimension mode of
//!   rules.md R5 lets the 48 bytes run from one 128-byte swizzle row into the next K block).
//! - The scale vector is 3X (`.block32`, or no qualifier with `.kind::mxf4`) or 6X
//!   (`.block16`), whose factors lie as ruling T3 of `docs/rules.md` places them
//!   ([`crate::data_path::SfLayout`]); `.scale_vec::2X` / `::4X` have no K = 96 placement in the
//!   text and are refused.
//! - The arithmetic is the K = 64 GST-FDPA over 96 products ([`crate::numerics::k96`],
//!   ruling D8).
//! - Only the row Table 39 gives: a dense `.cta_group::2` MMA with M = 256 on a target with
//!   K = 96.

use super::problem::{EmuError, EmuRule, Problem};
use crate::instruction_descriptor::IdescFields;
use crate::mma::{CtaGroup, Kind, ScaleVec};
use crate::numerics::k96::k96_row;
use crate::numerics::ParamRow;
use crate::ptx::PtxError;
use crate::shapes::MmaError;
use crate::targets::Target;

pub(super) use crate::numerics::k96::K96;

/// Every rule of Table 39's K = 96 row that the MMA breaks: the target, the shape.
pub(super) fn check(
    fields: &IdescFields,
    group: CtaGroup,
    sparse: bool,
    target: Target,
) -> Result<(), EmuError> {
    let mut problems = alloc::vec::Vec::new();
    if !target.supports_k96() {
        problems.push(Problem::from(PtxError::Idesc(MmaError::K96NotOnTarget {
            target,
        })));
    }
    if matches!(group, CtaGroup::One) || fields.m != 256 || sparse {
        problems.push(Problem::from(PtxError::Idesc(MmaError::K96Shape {
            cta_group: group,
            m: fields.m,
        })));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(EmuError { problems })
    }
}

/// The K = 96 scale vector of the MMA's qualifier: 3X or 6X.
///
/// # Errors
/// [`EmuRule::NotModelled`] naming `scale_vec (K = 96)` for `.scale_vec::2X` / `::4X` (and a
/// qualifier the kind does not take), whose K = 96 placement the text does not give.
pub(super) fn scale_vec(kind: Kind, vec: ScaleVec) -> Result<ScaleVec, Problem> {
    vec.resolve_k96(kind).ok_or_else(|| {
        Problem::emu(
            EmuRule::NotModelled,
            "scale_vec (K = 96)",
            u64::from(vec.count()),
        )
    })
}

/// The K = 96 row of the form's K = 64 row of the numerics tables (ruling D8).
pub(super) fn row(row: ParamRow) -> Result<ParamRow, EmuError> {
    k96_row(row).map_err(|e| EmuError {
        problems: e.problems.iter().map(Problem::from).collect(),
    })
}
