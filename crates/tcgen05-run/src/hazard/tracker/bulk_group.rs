//! Bulk async-groups in the tracker (PTX ISA 9.7.9.25.4: `cp.async.bulk.global.shared::cta`
//! and `cp.reduce.async.bulk.global.shared::cta` with `.bulk_group`, `cp.async.bulk.commit_group`,
//! `cp.async.bulk.wait_group[.read]`). Each bulk store is two asynchronous operations of its
//! thread ([`crate::observe::AsyncKind::BulkStore`]): the reads of its shared source and the
//! writes of global memory, each with the thread's clock at issue and a clock slot of its own
//! per thread and side (so one thread's bulk stores are ordered in issue order). A thread's
//! uncommitted stores form a group at `commit_group`; `wait_group n` completes every group but
//! the `n` newest (the thread acquires their clocks), `wait_group.read n` only their reads (the
//! writes complete at a later `wait_group`). Until then, a generic write of the source bytes is
//! `write-before-complete` and a generic access of the destination bytes `read-before-complete`
//! or `write-before-complete`, against the store's line.

use std::collections::HashMap;

use super::Tracker;

/// The source of bulk-group findings.
pub(super) const SOURCE: &str = "PTX ISA 9.7.9.25.4 (cp.async.bulk / cp.reduce.async.bulk with .bulk_group: the shared source is read until cp.async.bulk.wait_group.read, and global memory written until cp.async.bulk.wait_group, covers the bulk async-group)";

/// The bulk stores of each thread.
#[derive(Default)]
pub(super) struct BulkGroups {
    /// Each bulk store side's operation id: whether it is the write side.
    ids: HashMap<u64, bool>,
    /// Per thread: operations not yet committed.
    pending: HashMap<u32, Vec<u64>>,
    /// Per thread: its committed groups, oldest first.
    groups: HashMap<u32, Vec<Vec<u64>>>,
    /// Per thread: write sides of groups a `wait_group.read` completed the reads of.
    writes_left: HashMap<u32, Vec<u64>>,
}

impl BulkGroups {
    /// Whether operation `id` is a side of a bulk store.
    pub(super) fn is_bulk(&self, id: u64) -> bool {
        self.ids.contains_key(&id)
    }

    /// A side of a bulk store issued by `thread`.
    pub(super) fn issued(&mut self, id: u64, thread: u32, write: bool) {
        self.ids.insert(id, write);
        self.pending.entry(thread).or_default().push(id);
    }
}

impl Tracker {
    /// `cp.async.bulk.commit_group` by (cluster) thread `g`.
    pub(super) fn bulk_commit(&mut self, g: u32) {
        let group = self.bulk.pending.remove(&g).unwrap_or_default();
        self.bulk.groups.entry(g).or_default().push(group);
    }

    /// `cp.async.bulk.wait_group[.read] n` by (cluster) thread `g`: the operations it
    /// completes are acquired by the thread.
    pub(super) fn bulk_wait(&mut self, g: u32, n: u32, read: bool) {
        let groups = self.bulk.groups.entry(g).or_default();
        let k = groups.len().saturating_sub(n as usize);
        let retired: Vec<u64> = groups.drain(..k).flatten().collect();
        let mut done = Vec::new();
        for id in retired {
            if read && self.bulk.ids.get(&id) == Some(&true) {
                self.bulk.writes_left.entry(g).or_default().push(id);
            } else {
                done.push(id);
            }
        }
        if !read {
            done.extend(self.bulk.writes_left.remove(&g).unwrap_or_default());
        }
        for id in done {
            if let Some(op) = self.ops.remove(&id) {
                if let Some(c) = self.clocks.get_mut(g as usize) {
                    c.join(&op.clock);
                }
            }
        }
    }
}
