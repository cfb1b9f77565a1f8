//! Execution of `atom` and `red` for one thread: the old value read, the new one written, in
//! one step (no other thread runs in between).

use super::{address, load, store, val, Cta, Warp};
use crate::atom::{apply, Atom};
use crate::error::RunError;
use crate::int::sext;
use crate::op::Op;

/// One thread's atomic read-modify-write; `atom` returns the old value.
pub(super) fn atom(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    a: &Atom,
    l: usize,
) -> Result<(), RunError> {
    let n = cta.nregs;
    let at = address(cta, w, l, a.addr);
    let size = a.size();
    let old = load(cta, op.line, a.space, at, size)?;
    let b = val(cta, w, n, l, a.b);
    let c = a.c.map_or(0, |c| val(cta, w, n, l, c));
    store(cta, op.line, a.space, at, size, apply(a, old, b, c))?;
    if let Some(d) = a.d {
        w.regs[l * n + d as usize] = if a.ty.signed() {
            sext(old, a.ty.bits()) as u64
        } else {
            old
        };
    }
    Ok(())
}
