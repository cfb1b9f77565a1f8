//! What the interpreter reports about Tensor Memory's lifecycle (PTX ISA 9.7.16.7.1,
//! 9.7.16.8): each `tcgen05.alloc`, `dealloc`, `ld` and `wait::ld` as it is performed, and the
//! register slots an instruction reads while its warp has a `tcgen05.ld` not yet waited. Both
//! functions return at once when no observer is attached.

use super::hooks::emit;
use super::{Cta, Warp};
use crate::observe::{Event, TmemStep};
use crate::op::{Op, OpKind};
use crate::tcgen05::op::Tcgen05;
use crate::tcgen05::Did;

/// The register slots `op` reads: its guard predicate and every register source operand
/// (each [`crate::op::Src::Reg`] in the typed instruction, found through its `Debug` form so
/// that every instruction form is covered without a list per form).
fn sources(op: &Op) -> Vec<u32> {
    let mut slots: Vec<u32> = op.guard.map(|(p, _)| p).into_iter().collect();
    let text = format!("{:?}", op.kind);
    for piece in text.split("Reg(").skip(1) {
        let digits: String = piece.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(slot) = digits.parse() {
            slots.push(slot);
        }
    }
    slots
}

/// Before warp `w` executes `op`: the slots it reads, if the warp has a load not waited.
pub(super) fn reads(cta: &mut Cta<'_>, w: &Warp, op: &Op) {
    if cta.obs.is_none() || !cta.tc.loading(w.id) {
        return;
    }
    let slots = sources(op);
    if !slots.is_empty() {
        let (warp, line) = (w.id, op.line);
        let step = TmemStep::Read(&slots);
        emit(cta, &Event::Tmem { warp, line, step });
    }
}

/// After warp `w` executed the tcgen05 instruction `op`: its lifecycle step, if any.
pub(super) fn lifecycle(cta: &mut Cta<'_>, w: &Warp, op: &Op) {
    if cta.obs.is_none() {
        return;
    }
    let Some(did) = cta.tc.did else {
        return;
    };
    let dst = match &op.kind {
        OpKind::Tcgen05(Tcgen05::Ld { regs, .. }) => regs.clone(),
        _ => Vec::new(),
    };
    let step = match did {
        Did::Alloc(first, n) => TmemStep::Alloc(first, n),
        Did::Dealloc(first, n) => TmemStep::Dealloc(first, n),
        Did::Ld(first, n) => TmemStep::Ld(first, n, &dst),
        Did::WaitLd => TmemStep::WaitLd,
    };
    let (warp, line) = (w.id, op.line);
    emit(cta, &Event::Tmem { warp, line, step });
}
