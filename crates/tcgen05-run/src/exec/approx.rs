//! `ex2.approx{.ftz}.f32` and `div.full{.ftz}.f32` for a warp: the correctly rounded result when
//! the run was asked for it (`--approx ex2=rn` / `div=rn`, [`crate::approx`]), else the refusal
//! naming the flag.

use super::{lanes, val, Cta, Warp};
use crate::approx::{ApproxFn, FORMS, REFUSED_DIV, REFUSED_EX2};
use crate::error::RunError;
use crate::op::Op;

/// Executes `f` for the lanes of `exec`, or refuses it when the run was not asked to compute it.
pub(super) fn step(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    f: &ApproxFn,
    exec: u32,
) -> Result<(), RunError> {
    if !f.enabled(cta.approx) {
        return Err(RunError::Unsupported {
            line: op.line,
            what: FORMS[f.index()].form.to_string(),
            why: if f.div { REFUSED_DIV } else { REFUSED_EX2 },
        });
    }
    let n = cta.nregs;
    for l in lanes(exec) {
        let a = val(cta, w, n, l, f.a) as u32;
        let b = val(cta, w, n, l, f.b) as u32;
        w.regs[l * n + f.d as usize] = u64::from(f.apply(a, b));
    }
    cta.approximated.lanes[f.index()] += u64::from(exec.count_ones());
    Ok(())
}
