//! Decoding of the warp-wide instructions (`vote.sync`, `activemask`, `redux.sync`,
//! `match.sync`) into [`WarpOp`]s.

use tcgen05::ptx_reader::Operand;

use super::D;
use crate::error::{invalid, RunError};
use crate::op::{OpKind, Src, Ty};
use crate::warp::{ReduxOp, VoteMode, WarpOp};

/// `vote.sync.{all,any,uni}.pred d, {!}a, membermask` / `vote.sync.ballot.b32 d, {!}a,
/// membermask` (the forms without `.sync` are not available on sm_70 and later).
pub(super) fn vote(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(3)?;
    let mode = match q {
        ["sync", "all", "pred"] => VoteMode::All,
        ["sync", "any", "pred"] => VoteMode::Any,
        ["sync", "uni", "pred"] => VoteMode::Uni,
        ["sync", "ballot", "b32"] => VoteMode::Ballot,
        _ => return Err(d.unsupported(d.ins.opcode, "vote form not modelled (vote.sync only)")),
    };
    let (a, negate) = match d.operand(1)? {
        Operand::Not(n) => (Src::Reg(d.reg(n)?), true),
        o => (d.src_of(o)?, false),
    };
    Ok(OpKind::Warp(WarpOp::Vote {
        mode,
        d: d.dst(0)?,
        a,
        negate,
        mask: d.src(2)?,
    }))
}

/// `bar.warp.sync membermask`.
pub(super) fn bar_warp_sync(d: &D<'_, '_>) -> Result<OpKind, RunError> {
    d.count(1)?;
    Ok(OpKind::Warp(WarpOp::BarWarpSync { mask: d.src(0)? }))
}

/// `activemask.b32 d`.
pub(super) fn activemask(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    if q != ["b32"] {
        return Err(d.unsupported(d.ins.opcode, "activemask form not modelled"));
    }
    d.count(1)?;
    Ok(OpKind::Warp(WarpOp::Activemask { d: d.dst(0)? }))
}

/// `redux.sync.{add,min,max}.{u32,s32}` / `redux.sync.{and,or,xor}.b32 d, a, membermask` (the
/// f32 forms are sm_100a's and not modelled).
pub(super) fn redux(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(3)?;
    let (op, ty) = match q {
        ["sync", op, ty @ ("u32" | "s32")] if matches!(*op, "add" | "min" | "max") => {
            let op = match *op {
                "add" => ReduxOp::Add,
                "min" => ReduxOp::Min,
                _ => ReduxOp::Max,
            };
            (op, Ty::parse(ty).unwrap_or(Ty::U(32)))
        }
        ["sync", op, "b32"] if matches!(*op, "and" | "or" | "xor") => {
            let op = match *op {
                "and" => ReduxOp::And,
                "or" => ReduxOp::Or,
                _ => ReduxOp::Xor,
            };
            (op, Ty::B(32))
        }
        _ => return Err(d.unsupported(d.ins.opcode, "redux.sync form not modelled")),
    };
    Ok(OpKind::Warp(WarpOp::Redux {
        op,
        ty,
        d: d.dst(0)?,
        a: d.src(1)?,
        mask: d.src(2)?,
    }))
}

/// `match.any.sync.{b32,b64} d, a, membermask` / `match.all.sync.{b32,b64} d[|p], a,
/// membermask`.
pub(super) fn match_sync(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(3)?;
    let (all, bits) = match q {
        ["any", "sync", "b32"] => (false, 32),
        ["any", "sync", "b64"] => (false, 64),
        ["all", "sync", "b32"] => (true, 32),
        ["all", "sync", "b64"] => (true, 64),
        _ => return Err(d.unsupported(d.ins.opcode, "match form not modelled")),
    };
    let (dst, p) = match d.operand(0)? {
        Operand::Pair(a, b) if all => (d.reg(a)?, Some(d.reg(b)?)),
        Operand::Pair(..) => {
            return Err(invalid(
                d.line,
                d.ins.text,
                "match.any has no predicate destination (PTX ISA 9.7.13.5)",
            ))
        }
        _ => (d.dst(0)?, None),
    };
    Ok(OpKind::Warp(WarpOp::Match {
        all,
        bits,
        d: dst,
        p,
        a: d.src(1)?,
        mask: d.src(2)?,
    }))
}
