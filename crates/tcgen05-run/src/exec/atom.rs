//! Execution of `atom` and `red` for one thread: the old value read, the new one written, in
//! one step (no other thread runs in between).

use super::{address, load, store, val, Cta, Warp};
use crate::atom::{apply, Atom};
use crate::error::RunError;
use crate::int::sext;
use crate::observe::Event;
use crate::op::{Op, Space};

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
    observe(cta, w, (op.line, l), a, at);
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

/// Tells the observer, if any, of the atomic access (its semantics and scope, then the
/// access itself, a read-modify-write of `size` bytes; a generic address resolved to its
/// window).
fn observe(cta: &mut Cta<'_>, w: &Warp, (line, l): (u32, usize), a: &Atom, at: u64) {
    if cta.obs.is_none() {
        return;
    }
    let (space, at) = match a.space {
        Space::Generic => super::generic::resolve(at),
        s => (s, at),
    };
    if !matches!(space, Space::Global | Space::Shared | Space::SharedCluster) {
        return;
    }
    let (sem, scope, cas) = (a.sem, a.scope, a.op == crate::atom::AtomOp::Cas);
    super::hooks::emit(cta, &Event::Atomic { sem, scope, cas });
    super::hooks::access(cta, w, l, line, (space, at, a.size(), true));
}
