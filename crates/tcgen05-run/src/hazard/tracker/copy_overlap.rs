//! A tensor copy issued into shared memory that another tensor copy, still in flight, writes
//! (`cp.async.bulk.tensor` is asynchronous and complete only at its mbarrier's `complete_tx`,
//! PTX ISA 9.7.13.15; nothing orders two copies in flight). In a pipeline this is a stage
//! refilled before the copy that filled it was consumed, as when the refill's wait on the
//! consumer's release passes at once on the wrong parity: `write-before-complete` at the new
//! copy, against the copy in flight.

use super::super::{Finding, HazardKind};
use super::{Tracker, MBARRIER_TX};
use crate::observe::AsyncKind;

impl Tracker {
    /// Reports each copy in flight whose destination overlaps `[dst, dst + bytes)` of the copy
    /// issued at `line` by `thread`.
    pub(super) fn copy_overlap(&mut self, line: u32, thread: u32, dst: u32, bytes: u64) {
        let (lo, hi) = (u64::from(dst), u64::from(dst) + bytes);
        let mut hits = Vec::new();
        for id in &self.pending_copies {
            let Some(op) = self.ops.get(id) else { continue };
            if let AsyncKind::TensorCopy {
                dst: d, bytes: n, ..
            } = op.kind
            {
                let (d0, d1) = (u64::from(d), u64::from(d) + n);
                if lo < d1 && d0 < hi {
                    hits.push((op.line, op.thread, lo.max(d0)));
                }
            }
        }
        for (other, other_thread, at) in hits {
            self.report(Finding {
                kind: HazardKind::WriteBeforeComplete,
                line,
                other_line: Some(other),
                thread: Some(thread),
                other_thread: Some(other_thread),
                address: Some(at),
                message: format!(
                    "the tensor copy of line {line} writes shared 0x{at:x} while the tensor copy of line {other} that writes it is still in flight (its mbarrier phase was not observed complete): a stage refilled before it was consumed"
                ),
                source: MBARRIER_TX,
                cta: self.cta,
                rank: None,
                other_rank: None,
            });
        }
    }
}
