//! Asynchronous groups (PTX ISA 9.7.9.25.3.2 `cp.async.commit_group` / `wait_group`, 9.7.15.7.2
//! `wgmma.commit_group` / 9.7.15.7.3 `wait_group`): the operations a thread (or warp) issued
//! and not yet committed join a new group at `commit_group`, and `wait_group N` retires every
//! group but the newest N. One rule for both queues.

/// An issued operation that belongs to a group once committed.
pub(crate) trait Grouped {
    /// Its group, `None` while not yet committed.
    fn group(&self) -> Option<u64>;
    /// Puts it in group `g`.
    fn join(&mut self, g: u64);
}

/// `commit_group`: every uncommitted operation of `pending` joins group `*groups`, which is
/// then counted (an empty group is a group too).
pub(crate) fn commit<T: Grouped>(pending: &mut [T], groups: &mut u64) {
    for p in pending.iter_mut().filter(|p| p.group().is_none()) {
        p.join(*groups);
    }
    *groups += 1;
}

/// `wait_group n`: the operations of every group but the newest `n` of the `groups`
/// committed, taken out of `pending`, oldest first.
pub(crate) fn retire<T: Grouped>(pending: &mut Vec<T>, groups: u64, n: u64) -> Vec<T> {
    let keep_from = groups.saturating_sub(n);
    let (done, rest): (Vec<_>, Vec<_>) = std::mem::take(pending)
        .into_iter()
        .partition(|p| p.group().is_some_and(|g| g < keep_from));
    *pending = rest;
    done
}
