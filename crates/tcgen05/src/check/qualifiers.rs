//! The qualifiers of a `tcgen05.mma` as written that name a value of the core's: the scale
//! vector (`.scale_vec::2X`, `.block32`, ...) and the collector usage (`.collector::a::fill`,
//! PTX ISA 9.7.16.10.9), read through the form's grammar ([`crate::ptx::syntax::MMA`]).

use crate::mma::ScaleVec;
use crate::ptx::syntax::{collector_of_value, mma_slot, MMA};
use crate::ptx::Collector;

/// The scale vector a qualifier (without its leading dot) names, if it names one.
pub(crate) fn scale_vec_of(s: &str) -> Option<ScaleVec> {
    let v = MMA.slots[mma_slot::SCALE_VEC].value_of(s)?;
    // The slot spells `ScaleVec::ALL` without `Default`.
    ScaleVec::ALL.get(usize::from(v) + 1).copied()
}

/// The collector usage a qualifier (without its leading dot) names, if it names one.
pub(crate) fn collector_of(s: &str) -> Option<Collector> {
    MMA.slots[mma_slot::COLLECTOR]
        .value_of(s)
        .map(collector_of_value)
}
