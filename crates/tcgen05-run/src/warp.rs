//! Warp-wide instructions (PTX ISA 9.7.13.4 `vote.sync`, 9.7.13.5 `match.sync`, 9.7.13.6
//! `activemask`, 9.7.13.10 `redux.sync`): their decoded forms and their results over the threads
//! that take part (those of the member mask that execute the instruction).

use crate::op::{Src, Ty};

/// The mode of `vote.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    /// `.all`: true when the predicate is true in every taking-part thread.
    All,
    /// `.any`: true when it is true in some thread.
    Any,
    /// `.uni`: true when it is the same in every thread.
    Uni,
    /// `.ballot.b32`: the mask of the threads where it is true.
    Ballot,
}

/// The operation of `redux.sync` (integer forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    /// `.add` (wrapping, `.u32`/`.s32`).
    Add,
    /// `.min`.
    Min,
    /// `.max`.
    Max,
    /// `.and` (`.b32`).
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
}

/// A warp-wide instruction, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WarpOp {
    /// `vote.sync.mode.{pred,b32} d, {!}a, membermask`.
    Vote {
        /// The mode.
        mode: VoteMode,
        /// Destination slot (a predicate, or a `.b32` for ballot).
        d: u32,
        /// The predicate voted.
        a: Src,
        /// `!a`.
        negate: bool,
        /// Member mask.
        mask: Src,
    },
    /// `bar.warp.sync membermask` (PTX ISA, "bar.warp.sync"): the threads of the mask wait for
    /// each other; run when every one of them executes it together (checked like the member
    /// masks of the other `.sync` instructions), it has no other effect.
    BarWarpSync {
        /// Member mask.
        mask: Src,
    },
    /// `activemask.b32 d`.
    Activemask {
        /// Destination slot.
        d: u32,
    },
    /// `redux.sync.op.type d, a, membermask`.
    Redux {
        /// The operation.
        op: ReduxOp,
        /// `.u32`, `.s32` or `.b32`.
        ty: Ty,
        /// Destination slot.
        d: u32,
        /// The value reduced.
        a: Src,
        /// Member mask.
        mask: Src,
    },
    /// `match.{any,all}.sync.{b32,b64} d[|p], a, membermask`.
    Match {
        /// `.all` (true) or `.any`.
        all: bool,
        /// Width of the compared value in bits.
        bits: u32,
        /// Destination slot (a `.b32` mask).
        d: u32,
        /// Predicate destination of `.all`.
        p: Option<u32>,
        /// The value compared.
        a: Src,
        /// Member mask.
        mask: Src,
    },
}

/// The result of `redux.sync` over `values` (PTX ISA 9.7.13.10: `.add` wraps, `.min`/`.max`
/// compare as the type says).
#[must_use]
pub fn redux(op: ReduxOp, ty: Ty, values: &[u32]) -> u32 {
    let signed = ty.signed();
    let mut it = values.iter().copied();
    let Some(first) = it.next() else { return 0 };
    it.fold(first, |acc, x| match op {
        ReduxOp::Add => acc.wrapping_add(x),
        ReduxOp::And => acc & x,
        ReduxOp::Or => acc | x,
        ReduxOp::Xor => acc ^ x,
        ReduxOp::Min if signed => (acc as i32).min(x as i32) as u32,
        ReduxOp::Max if signed => (acc as i32).max(x as i32) as u32,
        ReduxOp::Min => acc.min(x),
        ReduxOp::Max => acc.max(x),
    })
}
