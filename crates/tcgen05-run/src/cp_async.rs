//! `cp.async` (PTX ISA 9.7.9.25.3): a thread's asynchronous copy of 4, 8 or 16 bytes from
//! global to shared memory, the bytes past `src-size` zero-filled; `cp.async.commit_group`
//! closes the thread's group of copies and `cp.async.wait_group N` / `wait_all` waits until at
//! most `N` of its groups are pending (PTX ISA 9.7.9.25.4).
//!
//! Copies are queued per thread when issued and performed when a wait retires their group, as
//! late as PTX allows: global memory is read and shared memory written then.

use std::collections::HashMap;

use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::memory::{write_window, Global};
use crate::op::{Addr, OpKind, Src};

/// One `cp.async` instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum CpAsync {
    /// `cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size[, src-size]`.
    Copy {
        /// Shared destination.
        dst: Addr,
        /// Global source.
        src: Addr,
        /// Bytes copied (4, 8 or 16).
        size: u32,
        /// Bytes read from the source (the rest zero-filled).
        src_size: Option<Src>,
    },
    /// `cp.async.commit_group`.
    Commit,
    /// `cp.async.wait_group N` (`wait_all`: N = 0).
    Wait {
        /// The most groups left pending.
        n: u64,
    },
}

/// Decodes `cp.async` (not `cp.async.bulk`); the `.L2::*` hints, `ignore-src` and cache
/// policies are refused by name.
pub(crate) fn decode(v: &View<'_>, q: &[&str]) -> Result<OpKind, RunError> {
    let op = match q {
        ["async", "commit_group"] => CpAsync::Commit,
        ["async", "wait_all"] => CpAsync::Wait { n: 0 },
        ["async", "wait_group"] => match v.operands.as_slice() {
            [Resolved::Src(Src::Imm(n))] => CpAsync::Wait { n: *n },
            _ => return Err(invalid(v.line, v.text, "wait_group takes an immediate count")),
        },
        ["async", cache, dst, "global"]
            if matches!(*cache, "ca" | "cg") && matches!(*dst, "shared" | "shared::cta") =>
        {
            copy(v)?
        }
        _ => {
            return Err(unsupported(
                v.line,
                v.opcode,
                "cp.async form not modelled (.ca/.cg .shared.global, commit_group, wait_group, wait_all)",
            ))
        }
    };
    Ok(OpKind::CpAsync(op))
}

fn copy(v: &View<'_>) -> Result<CpAsync, RunError> {
    let (dst, src, size, src_size) = match v.operands.as_slice() {
        [Resolved::Address(d), Resolved::Address(s), Resolved::Src(Src::Imm(z))] => (d, s, z, None),
        [Resolved::Address(d), Resolved::Address(s), Resolved::Src(Src::Imm(z)), Resolved::Src(r)] => {
            (d, s, z, Some(*r))
        }
        _ => {
            return Err(unsupported(
                v.line,
                v.opcode,
                "operands must be [dst], [src], cp-size[, src-size] (ignore-src and cache policies are not modelled)",
            ))
        }
    };
    let special = |s: &Src| matches!(s, Src::Special(_));
    if special(&dst.base) || special(&src.base) || src_size.as_ref().is_some_and(special) {
        return Err(invalid(
            v.line,
            v.text,
            "operands must be registers or immediates",
        ));
    }
    if !matches!(size, 4 | 8 | 16) {
        return Err(invalid(v.line, v.text, "cp-size must be 4, 8 or 16"));
    }
    Ok(CpAsync::Copy {
        dst: *dst,
        src: *src,
        size: *size as u32,
        src_size,
    })
}

/// A copy waiting for its group to be retired.
#[derive(Clone, Debug)]
struct Pending {
    line: u32,
    dst: u64,
    src: u64,
    size: u32,
    src_size: u32,
    group: Option<u64>,
}

/// The `cp.async` state of one CTA: each thread's queue and its committed group count.
#[derive(Debug, Default)]
pub(crate) struct CpAsyncState {
    threads: HashMap<(u32, usize), (Vec<Pending>, u64)>,
}

impl CpAsyncState {
    /// Executes one `cp.async` instruction for the threads of `exec`; `value(lane, src)` reads
    /// an operand.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        shared: &mut [u8],
        global: &Global,
        warp: u32,
        line: u32,
        op: &CpAsync,
        exec: u32,
        value: &dyn Fn(usize, Src) -> u64,
    ) -> Result<(), RunError> {
        for l in (0..32).filter(|l| exec >> l & 1 == 1) {
            let (queue, groups) = self.threads.entry((warp, l)).or_default();
            match op {
                CpAsync::Copy {
                    dst,
                    src,
                    size,
                    src_size,
                } => {
                    let at = |a: &Addr| value(l, a.base).wrapping_add(a.offset as u64);
                    queue.push(Pending {
                        line,
                        dst: at(dst) & 0xFFFF_FFFF,
                        src: at(src),
                        size: *size,
                        src_size: src_size.map_or(*size, |s| value(l, s) as u32),
                        group: None,
                    });
                }
                CpAsync::Commit => {
                    let g = *groups;
                    for p in queue.iter_mut().filter(|p| p.group.is_none()) {
                        p.group = Some(g);
                    }
                    *groups += 1;
                }
                CpAsync::Wait { n } => {
                    let keep_from = groups.saturating_sub(*n);
                    let (done, rest): (Vec<Pending>, Vec<Pending>) = std::mem::take(queue)
                        .into_iter()
                        .partition(|p| p.group.is_some_and(|g| g < keep_from));
                    *queue = rest;
                    for p in done {
                        perform(shared, global, &p)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Copies `src_size` bytes (at most `size`) and zero-fills the rest.
fn perform(shared: &mut [u8], global: &Global, p: &Pending) -> Result<(), RunError> {
    if p.dst % u64::from(p.size) != 0 {
        return Err(RunError::Memory {
            line: p.line,
            space: "shared",
            address: p.dst,
            size: p.size,
            why: "a cp.async destination must be aligned to cp-size",
        });
    }
    for i in 0..p.size {
        let byte = if i < p.src_size {
            global.read(p.line, p.src + u64::from(i), 1)?
        } else {
            0
        };
        write_window(shared, p.line, "shared", p.dst + u64::from(i), 1, byte)?;
    }
    Ok(())
}
