//! mbarriers (PTX ISA 9.7.13.15) and the asynchronous copies that complete on them: tensor
//! copies (`cp.async.bulk.tensor`, 9.7.9.25) and `cp.async` (9.7.9.25.3), for one lane.

use super::{address, bulk_copy, hooks, val, Cta, Mbar, Warp};
use crate::error::RunError;
use crate::int::sext;
use crate::memory::read_window;
use crate::observe::Event;
use crate::op::PARAM_WINDOW;
use crate::op::{Addr, Op, OpKind};
use crate::tensor_map::{perform, Copy, TAG};

pub(super) fn no_mbarrier(line: u32, at: u32) -> RunError {
    RunError::Invalid {
        line,
        what: format!("mbarrier at shared 0x{at:x}"),
        why: "used before mbarrier.init (PTX ISA 9.7.13.15)",
    }
}

/// The mbarrier and bulk tensor copy instructions, for one thread.
pub(super) fn mbarrier_op(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    l: usize,
) -> Result<(), RunError> {
    let n = cta.nregs;
    let shared_at = |cta: &Cta<'_>, a: Addr| super::own(cta, address(cta, w, l, a)) as u32;
    match &op.kind {
        OpKind::MbarInit { addr, count } => {
            let c = val(cta, w, n, l, *count);
            let (mbar, thread, line) = (shared_at(cta, *addr), hooks::tid(w, l), op.line);
            let e = Event::MbarInit {
                thread,
                line,
                mbar,
                count: c,
            };
            hooks::emit(cta, &e);
            cta.mbars.insert(
                mbar,
                Mbar {
                    expected: c,
                    pending: c,
                    tx: 0,
                    phase: 0,
                },
            );
        }
        OpKind::MbarArrive {
            addr,
            tx,
            state,
            relaxed,
        } => {
            let at = shared_at(cta, *addr);
            let bytes = tx.map_or(0, |t| val(cta, w, n, l, t) as i64);
            let (thread, line, tx) = (hooks::tid(w, l), op.line, bytes as u64);
            hooks::emit(
                cta,
                &Event::MbarArrive {
                    thread,
                    line,
                    mbar: at,
                    tx,
                    relaxed: *relaxed,
                },
            );
            let m = cta
                .mbars
                .get_mut(&at)
                .ok_or_else(|| no_mbarrier(op.line, at))?;
            let phase = m.phase;
            m.tx += bytes;
            m.pending = m.pending.saturating_sub(1);
            m.settle();
            if let Some(s) = state {
                w.regs[l * n + *s as usize] = phase;
            }
        }
        OpKind::MbarArriveCount { addr, count, state } => {
            let at = shared_at(cta, *addr);
            let c = val(cta, w, n, l, *count);
            let m = cta
                .mbars
                .get_mut(&at)
                .ok_or_else(|| no_mbarrier(op.line, at))?;
            let phase = m.phase;
            if c == 0 || c > m.pending {
                return Err(crate::barrier::bad_arrive_count(op.line, c, m.pending));
            }
            m.pending -= c;
            m.settle();
            if let Some(s) = state {
                w.regs[l * n + *s as usize] = phase;
            }
        }
        OpKind::MbarTryWait {
            p,
            addr,
            parity,
            relaxed,
        } => {
            let at = shared_at(cta, *addr);
            let want = val(cta, w, n, l, *parity) & 1;
            // Bulk (non-tensor) copies complete when a thread first waits on their mbarrier.
            bulk_copy::perform(cta, at)?;
            let m = cta
                .mbars
                .get_mut(&at)
                .ok_or_else(|| no_mbarrier(op.line, at))?;
            m.settle();
            let done = m.phase & 1 != want;
            w.regs[l * n + *p as usize] = u64::from(done);
            let (thread, line, parity) = (hooks::tid(w, l), op.line, want);
            hooks::emit(
                cta,
                &Event::MbarWait {
                    thread,
                    line,
                    mbar: at,
                    parity,
                    done,
                    relaxed: *relaxed,
                },
            );
        }
        OpKind::MbarInval { addr } => {
            let at = shared_at(cta, *addr);
            cta.mbars.remove(&at);
        }
        OpKind::TmaLoad {
            dst,
            map,
            coords,
            mbar,
        } => {
            let index = map_index(cta, address(cta, w, l, *map), op.line)?;
            let coords = coords
                .iter()
                .map(|c| sext(val(cta, w, n, l, *c), 32))
                .collect();
            let copy = Copy {
                line: op.line,
                map: index,
                coords,
                dst: shared_at(cta, *dst),
                mbar: shared_at(cta, *mbar),
                mbar_rank: None,
                id: cta.next_async,
            };
            cta.next_async += 1;
            hooks::copy_issued(cta, &copy, hooks::tid(w, l));
            cta.copies.push(copy);
        }
        _ => {}
    }
    Ok(())
}

/// `cp.async`, `cp.async.commit_group` and `cp.async.wait_group` / `wait_all` of one thread.
pub(super) fn cp_async_op(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    l: usize,
) -> Result<(), RunError> {
    let issued = match &op.kind {
        OpKind::CpAsync {
            dst, src, src_size, ..
        } => Some((
            address(cta, w, l, *dst),
            address(cta, w, l, *src),
            src_size.map(|s| val(cta, w, cta.nregs, l, s)),
        )),
        _ => None,
    };
    let queue = &mut w.cp_async[l];
    let before = hooks::cp_async_queue(cta.obs.is_some(), op, queue);
    let issued = issued.map(|(dst, src, size)| (super::own(cta, dst), src, size));
    crate::cp_async::execute(op, issued, queue, &mut cta.shared, cta.global)?;
    hooks::cp_async_retired(cta, w, l, &before);
    Ok(())
}

/// The index in the launch's tensor maps of the map parameter at `map_at` (a generic or a
/// parameter-space address).
pub(super) fn map_index(cta: &Cta<'_>, map_at: u64, line: u32) -> Result<usize, RunError> {
    let off = map_at.checked_sub(PARAM_WINDOW).unwrap_or(map_at);
    let tag = read_window(cta.params, line, "param", off, 8)?;
    let index = read_window(cta.params, line, "param", off + 8, 8)?;
    if tag.to_le_bytes() != TAG || index as usize >= cta.maps.len() {
        return Err(RunError::Invalid {
            line,
            what: format!("tensor map at 0x{map_at:x}"),
            why: "not the address of a tensor map parameter",
        });
    }
    Ok(index as usize)
}

/// Performs pending copy `i` and completes its transactions on its mbarrier; the schedule
/// chooses when (by default, when no warp can move without it: as late as PTX allows).
pub(super) fn complete_copy(cta: &mut Cta<'_>, i: usize) -> Result<(), RunError> {
    let c = cta.copies.remove(i);
    let at = c.mbar;
    {
        hooks::copy_performed(cta, &c, cta.maps[c.map].0.box_bytes());
        let (map, base) = &cta.maps[c.map];
        let global = &*cta.global;
        let line = c.line;
        perform(map, *base, &c, &mut cta.shared, &mut |a, s| {
            global.read(line, a, s)
        })?;
        let bytes = map.box_bytes() as i64;
        let mbars = match c.mbar_rank {
            None => &mut cta.mbars,
            Some(r) => super::cluster::mbars_of(cta, r),
        };
        let m = mbars.get_mut(&at).ok_or_else(|| no_mbarrier(c.line, at))?;
        m.tx -= bytes;
        m.settle();
    }
    Ok(())
}
