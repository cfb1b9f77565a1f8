//! Decoding of `atom` and `red` (PTX ISA 9.7.13.7-8) into [`Atom`]s.

use tcgen05::ptx_reader::Operand;

use super::D;
use crate::atom::{Atom, AtomOp, AtomScope, AtomSem};
use crate::error::{invalid, RunError};
use crate::op::{OpKind, Space, Ty};

/// `atom{.sem}{.scope}{.space}.op{.noftz}.type d, [a], b{, c}` and `red{.sem}{.scope}{.space}
/// .op{.noftz}.type [a], b`.
pub(super) fn atom(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let red = d.ins.base() == "red";
    let mut op = None;
    let mut ty = None;
    let mut pairs = false;
    let mut space = Space::Generic;
    let (mut sem, mut scope) = (AtomSem::Relaxed, AtomScope::Gpu);
    for x in q {
        match *x {
            "relaxed" => sem = AtomSem::Relaxed,
            "acquire" => sem = AtomSem::Acquire,
            "release" => sem = AtomSem::Release,
            "acq_rel" => sem = AtomSem::AcqRel,
            "cta" => scope = AtomScope::Cta,
            "cluster" => scope = AtomScope::Cluster,
            "gpu" => scope = AtomScope::Gpu,
            "sys" => scope = AtomScope::Sys,
            "noftz" => {}
            "global" => space = Space::Global,
            "shared" | "shared::cta" => space = Space::Shared,
            "shared::cluster" => space = Space::SharedCluster,
            "add" => op = Some(AtomOp::Add),
            "min" => op = Some(AtomOp::Min),
            "max" => op = Some(AtomOp::Max),
            "inc" => op = Some(AtomOp::Inc),
            "dec" => op = Some(AtomOp::Dec),
            "and" => op = Some(AtomOp::And),
            "or" => op = Some(AtomOp::Or),
            "xor" => op = Some(AtomOp::Xor),
            "exch" => op = Some(AtomOp::Exch),
            "cas" => op = Some(AtomOp::Cas),
            "f16x2" => (ty, pairs) = (Some(Ty::F16), true),
            "bf16x2" => (ty, pairs) = (Some(Ty::Bf16), true),
            x => match Ty::parse(x) {
                Some(t) => ty = Some(t),
                None => return Err(d.unsupported(x, "atom/red qualifier not modelled")),
            },
        }
    }
    let op = op.ok_or_else(|| invalid(d.line, d.ins.opcode, "atom/red needs an operation"))?;
    let ty = ty.ok_or_else(|| invalid(d.line, d.ins.opcode, "atom/red needs a type"))?;
    let ok = match op {
        AtomOp::Add => {
            matches!(ty, Ty::U(32 | 64) | Ty::S(32 | 64) | Ty::F32 | Ty::F64)
                || (matches!(ty, Ty::F16 | Ty::Bf16) && q.contains(&"noftz"))
        }
        AtomOp::Min | AtomOp::Max => matches!(ty, Ty::U(32 | 64) | Ty::S(32 | 64)),
        AtomOp::Inc | AtomOp::Dec => ty == Ty::U(32),
        AtomOp::And | AtomOp::Or | AtomOp::Xor => matches!(ty, Ty::B(32 | 64)),
        AtomOp::Exch | AtomOp::Cas => {
            matches!(ty, Ty::B(32 | 64)) || (op == AtomOp::Cas && ty == Ty::B(16))
        }
    };
    if !ok || (pairs && op != AtomOp::Add) {
        return Err(d.unsupported(
            d.ins.opcode,
            "atom/red operation and type not modelled (PTX ISA 9.7.13.7)",
        ));
    }
    let (first, dst) = if red {
        (0, None)
    } else {
        let dst = match d.operand(0)? {
            Operand::Name("_") => None,
            _ => Some(d.dst(0)?),
        };
        (1, dst)
    };
    let cas = op == AtomOp::Cas;
    if red && sem.acquires() {
        return Err(invalid(
            d.line,
            d.ins.opcode,
            "red has only .relaxed and .release semantics (PTX ISA 9.7.13.8)",
        ));
    }
    if red && cas {
        return Err(invalid(
            d.line,
            d.ins.opcode,
            "red has no .cas (PTX ISA 9.7.13.8)",
        ));
    }
    d.count(first + 2 + usize::from(cas))?;
    Ok(OpKind::Atom(Atom {
        op,
        ty,
        pairs,
        space,
        d: dst,
        addr: d.addr(first)?,
        b: d.src(first + 1)?,
        c: if cas { Some(d.src(first + 2)?) } else { None },
        sem,
        scope,
    }))
}
