//! What a bulk copy or reduction from shared to global memory (`.bulk_group`, PTX ISA
//! 9.7.9.25.4) reports to an observer: two asynchronous operations of the issuing thread, its
//! reads of the shared source (complete at `cp.async.bulk.wait_group.read` or `wait_group`
//! covering its bulk group) and its writes of global memory (complete at `wait_group`). The run
//! performs the copy at issue (its source must stay unchanged until the read completes, so the
//! bytes are the same); the observer sees the accesses then, stamped with the operations'
//! clocks, and a generic access that conflicts with them before the wait is a hazard.

use super::hooks::emit;
use super::Cta;
use crate::atom::{AtomScope, AtomSem};
use crate::observe::{Access, AsyncKind, Event, Proxy, Space};

/// A bulk store of `size` bytes from shared `src` (the running CTA's offset) to global `dst`
/// issued by `thread` at `line`; `reduces` for `cp.reduce.async.bulk`, whose element-wise
/// read-modify-writes of global memory are atomic (relaxed, `.gpu` scope).
pub(super) fn stored(
    cta: &mut Cta<'_>,
    (line, thread): (u32, u32),
    (dst, src, size): (u64, u64, u32),
    reduces: bool,
) {
    if cta.obs.is_none() {
        return;
    }
    let sides = [
        (false, Space::Shared, src & 0xFFFF_FFFF),
        (true, Space::Global, dst),
    ];
    for (write, space, address) in sides {
        let id = cta.next_async;
        cta.next_async += 1;
        let kind = AsyncKind::BulkStore { thread, write };
        let threads = [thread];
        emit(
            cta,
            &Event::AsyncIssue {
                id,
                line,
                kind,
                threads: &threads,
            },
        );
        emit(cta, &Event::AsyncPerform { id });
        if write && reduces {
            let (sem, scope) = (AtomSem::Relaxed, AtomScope::Gpu);
            let cas = false;
            emit(cta, &Event::Atomic { sem, scope, cas });
        }
        if let Some(o) = cta.obs.as_deref_mut() {
            o.access(&Access {
                space,
                address,
                size,
                write,
                line,
                thread,
                proxy: Proxy::Async(id),
            });
        }
    }
}
