//! The exact product an MMA was meant to compute, and how far D is from it.

use alloc::vec::Vec;

use super::mma::{format_of, MmaRecord};
use super::DMatrix;
use crate::numerics::exact::ExactSum;
use crate::numerics::format::{Exact, Format, Value};

/// How far D is from the exact `C + sum_k (a_k * sfa) * (b_k * sfb)` of the operands the MMA
/// read, in units in the last place of D's format at the exact value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReferenceError {
    /// The largest error in ulps over the finite elements.
    pub max_ulps: f64,
    /// Where (row, column).
    pub at: (u32, u32),
    /// Elements compared (finite exact value and finite D).
    pub compared: u32,
    /// Elements where the exact value or D is not finite (Inf, NaN operands or an overflow).
    pub not_finite: u32,
}

fn exact_of(f: Format, code: u32) -> Option<Exact> {
    match f.decode(code).ok()? {
        Value::Int(i) => Some(Exact {
            neg: i < 0,
            mag: u128::from(i.unsigned_abs()),
            scale: 0,
        }),
        v => Exact::of(v),
    }
}

fn mul(a: Exact, b: Exact) -> Exact {
    Exact {
        neg: a.neg != b.neg,
        mag: a.mag * b.mag,
        scale: a.scale + b.scale,
    }
}

/// The unit in the last place of `f` at `x` (`x` finite).
fn ulp(f: Format, x: f64) -> f64 {
    let (p, emin) = match f {
        Format::F16 => (11, -14),
        Format::S32 => return 1.0,
        _ => (24, -126),
    };
    let e = if x == 0.0 {
        emin
    } else {
        (libm_floor_log2(magnitude(x))).max(emin)
    };
    crate::numerics::format::pow2(e - (p - 1))
}

/// `|x|`: `f64::abs` is in `core` only from Rust 1.85, above this crate's rust-version.
fn magnitude(x: f64) -> f64 {
    f64::from_bits(x.to_bits() & !(1 << 63))
}

/// `floor(log2(x))` for a positive finite `x`, without `std`.
fn libm_floor_log2(x: f64) -> i32 {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7FF) as i32;
    if e == 0 {
        // Subnormal f64: far below any D format's range.
        -1075
    } else {
        e - 1023
    }
}

/// The exact result of every element, rounded to `f64` (`None` where an operand is Inf or NaN).
#[must_use]
pub fn exact_d(r: &MmaRecord) -> Vec<Option<f64>> {
    let (m, n, k) = (r.layout.m(), r.layout.n(), r.k);
    let (fa, fb, fd) = (
        format_of(r.ab_types.0),
        format_of(r.ab_types.1),
        format_of(r.d_type),
    );
    let blocks = if r.inputs.sfa.is_empty() {
        0
    } else {
        r.inputs.sfa.len() as u32 / m
    };
    let fs = r.inputs.scale_format.unwrap_or(Format::Ue8m0);
    let mut out = Vec::with_capacity((m * n) as usize);
    for i in 0..m {
        for j in 0..n {
            let mut sum = ExactSum::ZERO;
            let mut ok = true;
            match exact_of(fd, r.inputs.c[(i * n + j) as usize]) {
                Some(c) => sum.add(c),
                None => ok = false,
            }
            for kk in 0..k {
                let a = exact_of(fa, r.inputs.a[(i * k + kk) as usize]);
                let b = exact_of(fb, r.inputs.b[(j * k + kk) as usize]);
                let (Some(a), Some(b)) = (a, b) else {
                    ok = false;
                    break;
                };
                let mut p = mul(a, b);
                if let Some(per_block) = k.checked_div(blocks) {
                    let blk = kk / per_block;
                    let sa = exact_of(fs, r.inputs.sfa[(i * blocks + blk) as usize]);
                    let sb = exact_of(fs, r.inputs.sfb[(j * blocks + blk) as usize]);
                    let (Some(sa), Some(sb)) = (sa, sb) else {
                        ok = false;
                        break;
                    };
                    p = mul(mul(p, sa), sb);
                }
                sum.add(p);
            }
            out.push(ok.then(|| sum.to_f64()));
        }
    }
    out
}

/// Compares D with the exact result.
#[must_use]
pub fn reference_error(r: &MmaRecord, d: &DMatrix) -> ReferenceError {
    let fd = format_of(r.d_type);
    let exact = exact_d(r);
    let mut e = ReferenceError {
        max_ulps: 0.0,
        at: (0, 0),
        compared: 0,
        not_finite: 0,
    };
    for (idx, x) in exact.iter().enumerate() {
        let got = match fd.decode(d.codes[idx]).ok() {
            Some(Value::Int(i)) => Some(i as f64),
            Some(v) => Exact::of(v).map(Exact::to_f64),
            None => None,
        };
        match (x, got) {
            (Some(x), Some(g)) if x.is_finite() => {
                let u = magnitude(g - x) / ulp(fd, *x);
                e.compared += 1;
                if u > e.max_ulps {
                    e.max_ulps = u;
                    e.at = (idx as u32 / d.n, idx as u32 % d.n);
                }
            }
            _ => e.not_finite += 1,
        }
    }
    e
}
