//! The arithmetic whose rules live in their own modules, for one lane: directed roundings
//! ([`crate::directed`]), `sqrt`/`rcp` ([`crate::bulk_copy::RoundedFn`]) and half precision
//! ([`crate::half`]).

use super::{sat_f32, val, Cta, Warp};
use crate::directed::{compute, Op as Dop};
use crate::op::{Op, OpKind, Rnd, Src};

/// Whether `kind` is of the instructions [`lane`] may execute (the caller skips the call for
/// the others, most instructions of a kernel).
#[inline]
pub(super) fn handles(kind: &OpKind) -> bool {
    matches!(
        kind,
        OpKind::Float { .. }
            | OpKind::Fma { .. }
            | OpKind::RoundedFn(_)
            | OpKind::Half(_)
            | OpKind::F32x2(_)
    )
}

/// Executes `op` for lane `l` if it is one of these forms; returns whether it did.
pub(super) fn lane(cta: &Cta<'_>, w: &mut Warp, op: &Op, l: usize) -> bool {
    let n = cta.nregs;
    let v = |s: Src| val(cta, w, n, l, s);
    let sat = |on: bool, r: u64| if on { u64::from(sat_f32(r as u32)) } else { r };
    let (d, value) = match &op.kind {
        OpKind::Float {
            op: o,
            ty,
            rnd,
            ftz,
            sat: s,
            d,
            a,
            b,
        } if *rnd != Rnd::Rn => (
            *d,
            sat(
                *s,
                compute(Dop::Binary(*o), *ty, *rnd, *ftz, v(*a), v(*b), 0),
            ),
        ),
        OpKind::Fma {
            ty,
            rnd,
            ftz,
            sat: s,
            d,
            a,
            b,
            c,
        } if *rnd != Rnd::Rn => (
            *d,
            sat(*s, compute(Dop::Fma, *ty, *rnd, *ftz, v(*a), v(*b), v(*c))),
        ),
        OpKind::RoundedFn(f) if f.rnd != Rnd::Rn => {
            let o = if f.sqrt { Dop::Sqrt } else { Dop::Rcp };
            (f.d, compute(o, f.ty, f.rnd, f.ftz, v(f.a), 0, 0))
        }
        OpKind::RoundedFn(f) => (f.d, f.apply(v(f.a))),
        OpKind::Half(h) => (h.d, h.apply(v(h.a), h.b.map_or(0, v), h.c.map_or(0, v))),
        OpKind::F32x2(p) => (p.d, p.apply(v(p.a), v(p.b))),
        _ => return false,
    };
    w.regs[l * n + d as usize] = value;
    true
}
