//! Execution of the non-tensor bulk copies and reductions ([`crate::bulk_copy`]) for one
//! thread, and the late performance of the loads on their mbarrier.

use super::{address, cluster, no_mbarrier, val, Cta, Warp};
use crate::atom::{apply, Atom};
use crate::bulk_copy::{Bulk, Pending};
use crate::cluster::split_address;
use crate::error::RunError;
use crate::memory::{read_window, write_window};
use crate::op::{Addr, Op, Space, Src};

fn bad(line: u32, what: String, why: &'static str) -> RunError {
    RunError::Invalid { line, what, why }
}

/// Issues a bulk copy or reduction for lane `l`.
pub(super) fn issue(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    b: &Bulk,
    l: usize,
) -> Result<(), RunError> {
    let n = cta.nregs;
    let size_of = |cta: &Cta<'_>, w: &Warp, s: Src| -> Result<u32, RunError> {
        let size = val(cta, w, n, l, s);
        if size == 0 || size % 16 != 0 || size > u64::from(u32::MAX) {
            return Err(bad(
                op.line,
                format!("size {size}"),
                "a bulk copy's size is a nonzero multiple of 16 (PTX ISA 9.7.9.25.4.1)",
            ));
        }
        Ok(size as u32)
    };
    let aligned = |a: u64| -> Result<u64, RunError> {
        if a % 16 == 0 {
            Ok(a)
        } else {
            Err(bad(
                op.line,
                format!("address 0x{a:x}"),
                "a bulk copy's addresses are 16-byte aligned (PTX ISA 9.7.9.25.4.1)",
            ))
        }
    };
    match b {
        Bulk::Load {
            dst,
            src,
            size,
            mbar,
            mask,
        } => {
            let size = size_of(cta, w, *size)?;
            let dst_at = split_address(aligned(address(cta, w, l, *dst))? as u32);
            let p = Pending {
                line: op.line,
                dst: dst_at.1,
                src: aligned(address(cta, w, l, *src))?,
                size,
                mbar: split_address(address(cta, w, l, *mbar) as u32).1,
                id: 0,
            };
            let ranks = match mask {
                Some(m) => val(cta, w, n, l, *m) & 0xFFFF,
                None => 1 << dst_at.0,
            };
            cluster::queue_bulk(cta, op.line, ranks, &p, super::hooks::tid(w, l))
        }
        Bulk::Store {
            dst,
            src,
            size,
            op: reduce,
        } => {
            let size = size_of(cta, w, *size)?;
            let dst = aligned(address(cta, w, l, *dst))?;
            let src = super::own(cta, aligned(address(cta, w, l, *src))?);
            let thread = super::hooks::tid(w, l);
            let reduces = reduce.is_some();
            super::bulk_group::stored(cta, (op.line, thread), (dst, src, size), reduces);
            store(cta, op.line, dst, src, size, *reduce)
        }
        Bulk::Commit => {
            let thread = super::hooks::tid(w, l);
            super::hooks::emit(cta, &crate::observe::Event::BulkCommit { thread });
            Ok(())
        }
        &Bulk::Wait { n, read } => {
            let thread = super::hooks::tid(w, l);
            super::hooks::emit(cta, &crate::observe::Event::BulkWait { thread, n, read });
            Ok(())
        }
    }
}

/// Copies (or reduces into) global memory `size` bytes of the CTA's shared memory.
fn store(
    cta: &mut Cta<'_>,
    line: u32,
    dst: u64,
    src: u64,
    size: u32,
    reduce: Option<(crate::atom::AtomOp, crate::op::Ty)>,
) -> Result<(), RunError> {
    let elem = reduce.map_or(8, |(_, ty)| ty.bytes());
    let elem = if elem == 8 && size % 8 != 0 { 4 } else { elem };
    for i in (0..size).step_by(elem as usize) {
        let x = read_window(&cta.shared, line, "shared", src + u64::from(i), elem)?;
        let at = dst + u64::from(i);
        let v = match reduce {
            None => x,
            Some((op, ty)) => {
                let a = Atom {
                    op,
                    ty,
                    pairs: false,
                    space: Space::Global,
                    d: None,
                    addr: Addr {
                        base: Src::Imm(0),
                        offset: 0,
                    },
                    b: Src::Imm(0),
                    c: None,
                    sem: crate::atom::AtomSem::Relaxed,
                    scope: crate::atom::AtomScope::Gpu,
                };
                apply(&a, cta.global.read(line, at, elem)?, x, 0)
            }
        };
        cta.global.write(line, at, elem, v)?;
    }
    Ok(())
}

/// Performs, in issue order, the pending bulk loads of the running CTA that complete on the
/// mbarrier at `at`: bytes from global memory, then `complete_tx` of their size.
pub(super) fn perform(cta: &mut Cta<'_>, at: u32) -> Result<(), RunError> {
    let (mine, rest): (Vec<Pending>, Vec<Pending>) = std::mem::take(&mut cta.bulk)
        .into_iter()
        .partition(|p| p.mbar == at);
    cta.bulk = rest;
    for p in mine {
        let id = p.id;
        super::hooks::emit(cta, &crate::observe::Event::AsyncPerform { id });
        super::hooks::bulk_performed(cta, &p);
        for i in (0..p.size).step_by(8) {
            let x = cta.global.read(p.line, p.src + u64::from(i), 8)?;
            write_window(
                &mut cta.shared,
                p.line,
                "shared",
                u64::from(p.dst + i),
                8,
                x,
            )?;
        }
        let m = cta
            .mbars
            .get_mut(&at)
            .ok_or_else(|| no_mbarrier(p.line, at))?;
        m.tx -= i64::from(p.size);
        m.settle();
        let (mbar, bytes) = (at, u64::from(p.size));
        super::hooks::emit(cta, &crate::observe::Event::CompleteTx { id, mbar, bytes });
    }
    Ok(())
}
