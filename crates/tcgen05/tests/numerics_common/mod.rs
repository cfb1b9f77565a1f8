//! Shared by the numerics oracle tests: the fast path of a dot product, for comparison with
//! the explained path and the oracle on every vector.

use tcgen05::numerics::format::Format;
use tcgen05::numerics::{Decoded, Operands, ParamRow};

/// D's bits through [`tcgen05::numerics::FastRow::dot`], decoding the codes as the row does.
pub fn fast_dot(row: &ParamRow, ops: &Operands<'_>, saturate: bool) -> u32 {
    let d = |f: Format, c: u32| Decoded::new(f, c).expect("a code the explained path accepted");
    let sf = row.scale.map_or(Format::Ue8m0, |(f, _)| f);
    let a: Vec<Decoded> = ops.a.iter().map(|&c| d(row.a, c)).collect();
    let b: Vec<Decoded> = ops.b.iter().map(|&c| d(row.b, c)).collect();
    let sfa: Vec<Decoded> = ops.sfa.iter().map(|&c| d(sf, c)).collect();
    let sfb: Vec<Decoded> = ops.sfb.iter().map(|&c| d(sf, c)).collect();
    row.fast()
        .dot(&a, &b, d(row.d, ops.c), &sfa, &sfb, saturate)
}
