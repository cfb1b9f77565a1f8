//! Generic addressing (PTX ISA 6.4.1.1: the windows of the state spaces in the generic address
//! space) and the `.local` state space (PTX ISA 5.1.5: per-thread memory).
//!
//! The run's windows: `.param` at [`PARAM_WINDOW`], `.shared` at [`SHARED_WINDOW`] (both forms
//! of [`crate::cluster`]'s addresses), `.local` at [`LOCAL_WINDOW`], each 2^32 bytes; any other
//! address is global.

use super::{address, function, lanes, load, store, val, Cta, Warp, WARP};
use crate::cluster::{split_address, SHARED_WINDOW};
use crate::error::RunError;
use crate::int::sext;
use crate::memory::{read_window, write_window};
use crate::op::{Op, OpKind, Space, Src, LOCAL_WINDOW, PARAM_WINDOW};

const WINDOW: u64 = 1 << 32;

/// The state space and the address in it of a generic address.
pub(super) fn resolve(at: u64) -> (Space, u64) {
    for (base, space) in [
        (SHARED_WINDOW, Space::SharedCluster),
        (PARAM_WINDOW, Space::Param),
        (LOCAL_WINDOW, Space::Local),
    ] {
        if (base..base + WINDOW).contains(&at) {
            return (space, at - base);
        }
    }
    (Space::Global, at)
}

/// `ld`/`st` of one lane when the space is generic or `.local`; `None` for the other spaces.
pub(super) fn memory_op(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    l: usize,
) -> Option<Result<(), RunError>> {
    let (space, ty, addr) = match &op.kind {
        OpKind::Ld {
            space, ty, addr, ..
        }
        | OpKind::St {
            space, ty, addr, ..
        } if matches!(space, Space::Generic | Space::Local | Space::Param) => (*space, *ty, *addr),
        _ => return None,
    };
    let at = address(cta, w, l, addr);
    if space == Space::Param && !function::in_call_area(at) {
        return None;
    }
    let (space, at) = if space == Space::Generic {
        resolve(at)
    } else {
        (space, at)
    };
    let size = ty.bytes();
    let n = cta.nregs;
    Some((|| {
        match &op.kind {
            OpKind::Ld { d, .. } => {
                let total = size * d.len() as u32;
                if at % u64::from(total) != 0 {
                    return Err(misaligned(op.line, space, at, total));
                }
                for (i, dst) in d.iter().enumerate() {
                    let a = at + u64::from(size) * i as u64;
                    let x = if space == Space::Param {
                        function::read(w, cta.kernel.call_bytes as usize, op.line, l, a, size)?
                    } else if space == Space::Local {
                        local_read(cta, w, op.line, l, a, size)?
                    } else {
                        load(cta, op.line, space, a, size)?
                    };
                    let x = if ty.signed() {
                        sext(x, ty.bits()) as u64
                    } else {
                        x
                    };
                    if let Some(dst) = dst {
                        w.regs[l * n + *dst as usize] = x;
                    }
                }
            }
            OpKind::St { a, .. } => {
                let total = size * a.len() as u32;
                if at % u64::from(total) != 0 {
                    return Err(misaligned(op.line, space, at, total));
                }
                let vals = super::issue::Values::read(a, |s| val(cta, w, n, l, s));
                for (i, &x) in vals.as_slice().iter().enumerate() {
                    let a = at + u64::from(size) * i as u64;
                    if space == Space::Param {
                        let bytes = cta.kernel.call_bytes as usize;
                        function::write(w, bytes, op.line, l, a, size, x)?;
                    } else if space == Space::Local {
                        local_write(cta, w, op.line, l, a, size, x)?;
                    } else {
                        store(cta, op.line, space, a, size, x)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    })())
}

fn misaligned(line: u32, space: Space, address: u64, size: u32) -> RunError {
    RunError::Memory {
        line,
        space: space.name(),
        address,
        size,
        why: "a vector access must be aligned to its whole size",
    }
}

/// The local memory of lane `l`: `local_bytes` bytes per thread.
fn local_span(cta: &Cta<'_>, l: usize) -> std::ops::Range<usize> {
    let b = cta.kernel.local_bytes as usize;
    l * b..(l + 1) * b
}

fn local_read(
    cta: &Cta<'_>,
    w: &Warp,
    line: u32,
    l: usize,
    at: u64,
    size: u32,
) -> Result<u64, RunError> {
    read_window(&w.local[local_span(cta, l)], line, "local", at, size)
}

fn local_write(
    cta: &Cta<'_>,
    w: &mut Warp,
    line: u32,
    l: usize,
    at: u64,
    size: u32,
    v: u64,
) -> Result<(), RunError> {
    let span = local_span(cta, l);
    write_window(&mut w.local[span], line, "local", at, size, v)
}

/// The bytes of local memory a warp needs.
pub(super) fn local_bytes(kernel: &crate::module::Kernel) -> usize {
    kernel.local_bytes as usize * WARP
}

/// `isspacep.space p, a` for the threads of `exec` (PTX ISA 9.7.9.20).
pub(super) fn isspacep(
    cta: &Cta<'_>,
    w: &mut Warp,
    p: u32,
    a: Src,
    space: Space,
    cta_only: bool,
    exec: u32,
) {
    let n = cta.nregs;
    for l in lanes(exec) {
        let (s, off) = resolve(val(cta, w, n, l, a));
        let yes = match (space, s) {
            (Space::SharedCluster, Space::SharedCluster) => {
                let (rank, _) = split_address(off as u32);
                let size = cta.shape.cluster.iter().product::<u32>();
                if cta_only {
                    rank == super::cluster::rank(cta)
                } else {
                    rank < size
                }
            }
            // A kernel parameter's generic address lies in the global window too (measured on an
            // H200 by hw/run/breadth generic_local: isspacep.global is true for it).
            (Space::Global, Space::Param) => true,
            (want, got) => want == got,
        };
        w.regs[l * n + p as usize] = u64::from(yes);
    }
}

/// Local memory reached by an instruction other than `ld`/`st` (an atomic operation).
pub(super) fn no_local(line: u32, address: u64, size: u32) -> RunError {
    RunError::Memory {
        line,
        space: "local",
        address,
        size,
        why: "only ld and st reach local memory (PTX ISA 9.7.13.7: atom takes global and shared)",
    }
}
