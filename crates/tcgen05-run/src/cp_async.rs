//! `cp.async` (PTX ISA 9.7.9.25.3, non-bulk asynchronous copies from global to shared memory),
//! `cp.async.commit_group` and `cp.async.wait_group` / `wait_all`.
//!
//! A copy is queued by the thread that issues it and performed, as late as PTX allows, when
//! that thread's `wait_group` retires its group: the global bytes are read then, and the
//! shared bytes written then (`src-size` bytes copied, the rest of `cp-size` zero-filled).

use crate::async_group::{self, Grouped};
use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::memory::{write_window, Global};
use crate::op::{Op, OpKind, Src};

/// One copy issued by one thread, waiting for its group to be retired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    /// The op's line.
    pub line: u32,
    /// Shared destination address.
    pub dst: u32,
    /// Global source address.
    pub src: u64,
    /// Bytes written to shared memory (4, 8 or 16).
    pub cp_size: u32,
    /// Bytes read from global memory (the rest are zero).
    pub src_size: u32,
    /// Committed group, or `None` while not yet committed.
    pub group: Option<u64>,
}

impl Grouped for Pending {
    fn group(&self) -> Option<u64> {
        self.group
    }

    fn join(&mut self, g: u64) {
        self.group = Some(g);
    }
}

/// The `cp.async` state of one thread.
#[derive(Clone, Debug, Default)]
pub(crate) struct Queue {
    /// Issued copies, oldest first.
    pub pending: Vec<Pending>,
    /// Groups committed so far.
    pub groups: u64,
}

impl Queue {
    /// `commit_group` ([`async_group::commit`]).
    pub fn commit(&mut self) {
        async_group::commit(&mut self.pending, &mut self.groups);
    }

    /// `wait_group n` ([`async_group::retire`]): the retired operations, oldest first, for
    /// the caller to perform.
    pub fn retire(&mut self, n: u64) -> Vec<Pending> {
        async_group::retire(&mut self.pending, self.groups, n)
    }
}

/// Whether the qualifiers of a `cp` instruction are a non-bulk `cp.async` form (this module's)
/// rather than a bulk copy.
pub(crate) fn is_cp_async(q: &[&str]) -> bool {
    matches!(
        q,
        [
            "async",
            "ca" | "cg" | "commit_group" | "wait_group" | "wait_all",
            ..
        ]
    )
}

/// Decodes `cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size}`,
/// `cp.async.commit_group`, `cp.async.wait_group N` and `cp.async.wait_all`.
pub(crate) fn decode(v: &View<'_>, q: &[&str]) -> Result<OpKind, RunError> {
    match q {
        ["async", "commit_group"] => Ok(OpKind::CpAsyncCommit),
        ["async", "wait_all"] => Ok(OpKind::CpAsyncWait { n: None }),
        ["async", "wait_group"] => match v.operands.as_slice() {
            [Resolved::Src(Src::Imm(n))] => Ok(OpKind::CpAsyncWait { n: Some(*n) }),
            _ => Err(invalid(
                v.line,
                v.text,
                "wait_group takes an immediate count",
            )),
        },
        ["async", cache @ ("ca" | "cg"), "shared" | "shared::cta", "global"] => {
            copy(v, cache == &"cg")
        }
        _ => Err(unsupported(
            v.line,
            v.opcode,
            "cp.async form not modelled (cache hints, prefetch sizes and .ignore-src are not yet)",
        )),
    }
}

fn copy(v: &View<'_>, cg: bool) -> Result<OpKind, RunError> {
    let (dst, src, size, src_size) = match v.operands.as_slice() {
        [Resolved::Addr(d), Resolved::Addr(s), Resolved::Src(Src::Imm(c))] => (*d, *s, *c, None),
        [Resolved::Addr(d), Resolved::Addr(s), Resolved::Src(Src::Imm(c)), Resolved::Src(z)] => {
            (*d, *s, *c, Some(*z))
        }
        _ => {
            return Err(invalid(
                v.line,
                v.text,
                "cp.async takes [dst], [src], cp-size[, src-size] (PTX ISA 9.7.9.25.3.1)",
            ))
        }
    };
    // .ca copies 4, 8 or 16 bytes; .cg 16 only.
    if !(size == 16 || (!cg && (size == 4 || size == 8))) {
        return Err(invalid(
            v.line,
            v.text,
            "cp-size must be 4, 8 or 16 (.ca) or 16 (.cg) (PTX ISA 9.7.9.25.3.1)",
        ));
    }
    Ok(OpKind::CpAsync {
        dst,
        src,
        cp_size: size as u32,
        src_size,
    })
}

/// Executes one thread's `cp.async` op: `issued` holds a copy's shared and global addresses and
/// its `src-size` (resolved by the caller); `commit_group` and `wait_group` act on the thread's
/// `queue`, and the copies a wait retires are performed on `shared` from `global`.
///
/// # Errors
/// A misaligned copy, a `src-size` over `cp-size`, and reads or writes outside memory.
pub(crate) fn execute(
    op: &Op,
    issued: Option<(u64, u64, Option<u64>)>,
    queue: &mut Queue,
    shared: &mut [u8],
    global: &Global,
) -> Result<(), RunError> {
    let keep = match (&op.kind, issued) {
        (OpKind::CpAsync { cp_size, .. }, Some((dst, src, src_size))) => {
            let p = Pending {
                line: op.line,
                dst: (dst & 0xFFFF_FFFF) as u32,
                src,
                cp_size: *cp_size,
                src_size: src_size.map_or(*cp_size, |s| s as u32),
                group: None,
            };
            check(&p)?;
            queue.pending.push(p);
            return Ok(());
        }
        (OpKind::CpAsyncCommit, _) => {
            queue.commit();
            return Ok(());
        }
        (OpKind::CpAsyncWait { n: Some(keep) }, _) => *keep,
        (OpKind::CpAsyncWait { n: None }, _) => {
            queue.commit();
            0
        }
        _ => return Ok(()),
    };
    for p in queue.retire(keep) {
        let data = bytes(&p, &mut |a, s| global.read(p.line, a, s))?;
        for (i, b) in data.iter().enumerate() {
            let at = u64::from(p.dst) + i as u64;
            write_window(shared, p.line, "shared", at, 1, u64::from(*b))?;
        }
    }
    Ok(())
}

/// The bytes a retired copy writes to shared memory: `src_size` bytes read through `read`
/// (address, size in bytes), zeros up to `cp_size`.
///
/// # Errors
/// A `src-size` larger than `cp-size`, and what `read` returns.
fn bytes(
    p: &Pending,
    read: &mut dyn FnMut(u64, u32) -> Result<u64, RunError>,
) -> Result<Vec<u8>, RunError> {
    if p.src_size > p.cp_size {
        return Err(RunError::Invalid {
            line: p.line,
            what: format!("cp.async src-size {}", p.src_size),
            why: "src-size must not exceed cp-size (PTX ISA 9.7.9.25.3.1)",
        });
    }
    let mut out = vec![0u8; p.cp_size as usize];
    for (i, b) in out.iter_mut().enumerate().take(p.src_size as usize) {
        *b = read(p.src + i as u64, 1)? as u8;
    }
    Ok(out)
}

/// Checks a copy's alignment: both addresses aligned to `cp-size` (PTX ISA 9.7.9.25.3.1).
fn check(p: &Pending) -> Result<(), RunError> {
    let size = u64::from(p.cp_size);
    if u64::from(p.dst) % size != 0 || p.src % size != 0 {
        return Err(RunError::Memory {
            line: p.line,
            space: "shared/global",
            address: if u64::from(p.dst) % size != 0 {
                u64::from(p.dst)
            } else {
                p.src
            },
            size: p.cp_size,
            why: "cp.async addresses must be aligned to cp-size",
        });
    }
    Ok(())
}
