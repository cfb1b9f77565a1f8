//! The qualifiers of a `tcgen05.mma` as written that name a value of the core's: the scale
//! vector (`.scale_vec::2X`, `.block32`, ...) and the collector usage (`.collector::a::fill`,
//! PTX ISA 9.7.16.10.9).

use crate::mma::ScaleVec;
use crate::ptx::{Collector, CollectorOp};

/// The scale vector a qualifier (without its leading dot) names, if it names one.
pub(crate) fn scale_vec_of(s: &str) -> Option<ScaleVec> {
    ScaleVec::ALL
        .into_iter()
        .find(|v| *v != ScaleVec::Default && v.name().trim_start_matches('.') == s)
}

/// The collector usage a qualifier (without its leading dot) names, if it names one.
pub(crate) fn collector_of(s: &str) -> Option<Collector> {
    let rest = s.strip_prefix("collector::")?;
    let (buf, op) = rest.split_once("::")?;
    let op = CollectorOp::ALL.into_iter().find(|o| o.name() == op)?;
    if buf == "a" {
        return Some(Collector::A(op));
    }
    let n: u8 = buf.strip_prefix('b')?.parse().ok()?;
    Some(Collector::B(n, op))
}
