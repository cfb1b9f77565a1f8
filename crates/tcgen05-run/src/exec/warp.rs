//! Execution of the warp-wide instructions: every taking-part thread's operand is read before
//! any result is written. The threads taking part are those of the member mask that execute
//! the instruction (PTX ISA 9.7.13.4: a thread of the mask that does not execute it is an
//! error on the GPU, which the run reports).

use super::{lanes, val, Cta, Warp, WARP};
use crate::error::RunError;
use crate::int::mask;
use crate::op::Op;
use crate::warp::{redux, VoteMode, WarpOp};

/// The member mask of lane `l`, checked: every thread that executes must name the same mask,
/// it must include the thread itself, and every thread it names must execute the instruction.
fn members(
    cta: &Cta<'_>,
    w: &Warp,
    op: &Op,
    m: crate::op::Src,
    exec: u32,
) -> Result<u32, RunError> {
    let n = cta.nregs;
    let first = exec.trailing_zeros() as usize;
    let want = val(cta, w, n, first, m) as u32;
    for l in lanes(exec) {
        let x = val(cta, w, n, l, m) as u32;
        if x != want || x >> l & 1 == 0 || x & !exec != 0 {
            return Err(RunError::Invalid {
                line: op.line,
                what: format!("membermask 0x{x:08x} of lane {l} (executing 0x{exec:08x})"),
                why: "every thread of the member mask must execute the instruction with the same mask (PTX ISA 9.7.13)",
            });
        }
    }
    Ok(want)
}

/// Executes a warp-wide instruction for the threads of `exec` (`active`: the threads at it,
/// guard true or not).
pub(super) fn warp_op(
    cta: &Cta<'_>,
    w: &mut Warp,
    op: &Op,
    x: &WarpOp,
    active: u32,
    exec: u32,
) -> Result<(), RunError> {
    let n = cta.nregs;
    if exec == 0 {
        return Ok(());
    }
    match x {
        WarpOp::BarWarpSync { mask: m } => {
            members(cta, w, op, *m, exec)?;
        }
        WarpOp::Activemask { d } => {
            for l in lanes(exec) {
                w.regs[l * n + *d as usize] = u64::from(active);
            }
        }
        WarpOp::Vote {
            mode,
            d,
            a,
            negate,
            mask: m,
        } => {
            let m = members(cta, w, op, *m, exec)?;
            let ballot = lanes(m)
                .filter(|&l| (val(cta, w, n, l, *a) & 1 == 1) != *negate)
                .fold(0u32, |b, l| b | 1 << l);
            let r = match mode {
                VoteMode::All => u64::from(ballot == m),
                VoteMode::Any => u64::from(ballot != 0),
                VoteMode::Uni => u64::from(ballot == m || ballot == 0),
                VoteMode::Ballot => u64::from(ballot),
            };
            for l in lanes(exec) {
                w.regs[l * n + *d as usize] = r;
            }
        }
        WarpOp::Redux {
            op: o,
            ty,
            d,
            a,
            mask: m,
        } => {
            let m = members(cta, w, op, *m, exec)?;
            let values: Vec<u32> = lanes(m).map(|l| val(cta, w, n, l, *a) as u32).collect();
            let r = redux(*o, *ty, &values);
            for l in lanes(exec) {
                w.regs[l * n + *d as usize] = u64::from(r);
            }
        }
        WarpOp::Match {
            all,
            bits,
            d,
            p,
            a,
            mask: m,
        } => {
            let m = members(cta, w, op, *m, exec)?;
            let mut v = [0u64; WARP];
            for l in lanes(m) {
                v[l] = val(cta, w, n, l, *a) & mask(*bits);
            }
            let same = |l: usize| {
                lanes(m)
                    .filter(|&j| v[j] == v[l])
                    .fold(0u32, |b, j| b | 1 << j)
            };
            let uniform = same(m.trailing_zeros() as usize) == m;
            for l in lanes(exec) {
                let r = if *all {
                    if uniform {
                        m
                    } else {
                        0
                    }
                } else {
                    same(l)
                };
                w.regs[l * n + *d as usize] = u64::from(r);
                if let Some(p) = p {
                    w.regs[l * n + *p as usize] = u64::from(uniform);
                }
            }
        }
    }
    Ok(())
}
