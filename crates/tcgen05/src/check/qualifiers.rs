//! The qualifier of a `tcgen05.mma` as written that names the scale vector (`.scale_vec::2X`,
//! `.block32`, ...), read through the form's grammar ([`crate::ptx::syntax::MMA`]).

use crate::mma::ScaleVec;
use crate::ptx::syntax::{mma_slot, MMA};

/// The scale vector a qualifier (without its leading dot) names, if it names one.
pub(crate) fn scale_vec_of(s: &str) -> Option<ScaleVec> {
    let v = MMA.slots[mma_slot::SCALE_VEC].value_of(s)?;
    // The slot spells `ScaleVec::ALL` without `Default`.
    ScaleVec::ALL.get(usize::from(v) + 1).copied()
}
