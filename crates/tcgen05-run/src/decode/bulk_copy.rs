//! Decoding of the non-tensor bulk copies and reductions ([`Bulk`]), of `sqrt.rn`/`rcp.rn`,
//! and the refusal by name of the hardware approximations.

use super::D;
use crate::atom::AtomOp;
use crate::bulk_copy::{Bulk, RoundedFn};
use crate::error::RunError;
use crate::op::{OpKind, Rnd, Ty};

/// Whether a `cp` instruction is a non-tensor bulk copy or reduction.
pub(super) fn is_bulk(q: &[&str]) -> bool {
    matches!(q, ["async", "bulk", x, ..] if *x != "tensor" && *x != "prefetch")
        || matches!(q, ["reduce", "async", "bulk", x, ..] if *x != "tensor")
}

/// `cp.async.bulk.*`, `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group[.read] N`,
/// `cp.reduce.async.bulk.global.shared::cta.bulk_group.op.type`.
pub(super) fn bulk(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let kind = match q {
        ["async", "bulk", "commit_group"] => {
            return d.count(0).map(|()| OpKind::Bulk(Bulk::Commit))
        }
        ["async", "bulk", "wait_group"] | ["async", "bulk", "wait_group", "read"] => {
            d.count(1)?;
            let n =
                match d.src(0)? {
                    crate::op::Src::Imm(n) if n < 64 => n as u32,
                    _ => return Err(crate::error::invalid(
                        d.line,
                        d.ins.text,
                        "cp.async.bulk.wait_group takes an immediate count (PTX ISA 9.7.9.25.4.4)",
                    )),
                };
            let read = q.len() == 4;
            return Ok(OpKind::Bulk(Bulk::Wait { n, read }));
        }
        ["async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes"] => {
            d.count(4)?;
            Bulk::Load {
                dst: d.addr(0)?,
                src: d.addr(1)?,
                size: d.src(2)?,
                mbar: d.addr(3)?,
                mask: None,
            }
        }
        ["async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes", "multicast::cluster"] =>
        {
            d.count(5)?;
            Bulk::Load {
                dst: d.addr(0)?,
                src: d.addr(1)?,
                size: d.src(2)?,
                mbar: d.addr(3)?,
                mask: Some(d.src(4)?),
            }
        }
        ["async", "bulk", "global", "shared::cta", "bulk_group"] => {
            d.count(3)?;
            Bulk::Store {
                dst: d.addr(0)?,
                src: d.addr(1)?,
                size: d.src(2)?,
                op: None,
            }
        }
        ["reduce", "async", "bulk", "global", "shared::cta", "bulk_group", rest @ ..] => {
            let (op, ty) = reduction(d, rest)?;
            d.count(3)?;
            Bulk::Store {
                dst: d.addr(0)?,
                src: d.addr(1)?,
                size: d.src(2)?,
                op: Some((op, ty)),
            }
        }
        _ => {
            return Err(d.unsupported(
                d.ins.opcode,
                "bulk copy form not modelled (cache hints, shared-to-cluster copies, prefetch)",
            ))
        }
    };
    Ok(OpKind::Bulk(kind))
}

/// The `.op.type` of `cp.reduce.async.bulk` (PTX ISA 9.7.9.25.4.2; integer operations and
/// f32/f64 add).
fn reduction(d: &D<'_, '_>, rest: &[&str]) -> Result<(AtomOp, Ty), RunError> {
    let (op, ty) = match rest {
        [op, ty] | [op, "noftz", ty] => (*op, *ty),
        _ => return Err(d.unsupported(d.ins.opcode, "cp.reduce.async.bulk form not modelled")),
    };
    let ty = Ty::parse(ty).ok_or_else(|| d.unsupported(ty, "reduction type not modelled"))?;
    let op = match (op, ty) {
        ("add", Ty::U(32 | 64) | Ty::S(32) | Ty::F32 | Ty::F64) => AtomOp::Add,
        ("min", Ty::U(32 | 64) | Ty::S(32 | 64)) => AtomOp::Min,
        ("max", Ty::U(32 | 64) | Ty::S(32 | 64)) => AtomOp::Max,
        ("inc", Ty::U(32)) => AtomOp::Inc,
        ("dec", Ty::U(32)) => AtomOp::Dec,
        ("and", Ty::B(32 | 64)) => AtomOp::And,
        ("or", Ty::B(32 | 64)) => AtomOp::Or,
        ("xor", Ty::B(32 | 64)) => AtomOp::Xor,
        _ => return Err(d.unsupported(d.ins.opcode, "reduction and type not modelled")),
    };
    Ok((op, ty))
}

/// `sqrt.rnd{.ftz}.f32`, `sqrt.rnd.f64`, `rcp.rnd{.ftz}.f32`, `rcp.rnd.f64`; the approximate
/// forms (`.approx`, and `rsqrt`, `ex2`, `lg2`, `sin`, `cos`, `tanh`) are refused by name.
pub(super) fn rounded_fn(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let base = d.ins.base();
    if base == "ex2" && matches!(q, ["approx", "f32"] | ["approx", "ftz", "f32"]) {
        d.count(2)?;
        let a = d.src(1)?;
        return Ok(OpKind::Approx(crate::approx::ApproxFn {
            div: false,
            ftz: q.contains(&"ftz"),
            d: d.dst(0)?,
            a,
            b: a,
        }));
    }
    if q.contains(&"approx") || !matches!(base, "sqrt" | "rcp") {
        return Err(d.unsupported(
            d.ins.opcode,
            "a hardware approximation: PTX gives only its error bound and the run does not reproduce its bits",
        ));
    }
    let (rnd, ftz, ty) = match q {
        [r, "f32"] => (r, false, Ty::F32),
        [r, "ftz", "f32"] => (r, true, Ty::F32),
        [r, "f64"] => (r, false, Ty::F64),
        _ => return Err(d.unsupported(d.ins.opcode, "sqrt/rcp form not modelled")),
    };
    let rnd = match *rnd {
        "rn" => Rnd::Rn,
        "rz" => Rnd::Rz,
        "rm" => Rnd::Rm,
        "rp" => Rnd::Rp,
        _ => return Err(d.unsupported(d.ins.opcode, "sqrt/rcp need a rounding")),
    };
    d.count(2)?;
    Ok(OpKind::RoundedFn(RoundedFn {
        sqrt: base == "sqrt",
        ty,
        ftz,
        rnd,
        d: d.dst(0)?,
        a: d.src(1)?,
    }))
}
