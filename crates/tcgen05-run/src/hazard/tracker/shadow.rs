//! The tracker's shadow memory and tables, laid out for speed (issue 25: hazard tracking at
//! most 3x the plain run). A byte's (or Tensor Memory cell's) history is a `Copy` cell of two
//! stamps; the rarer third and later readers of a byte live in a [`ReadLists`] arena the cell
//! indexes, so that shadows are plain arrays with nothing to drop. Shadows are paged and a page
//! is allocated when one of its cells is first touched ([`Shadow`]), so that a kernel using 64
//! columns of Tensor Memory or a few words at the far end of shared memory does not pay for the
//! whole space. The tracker's maps are keyed by small integers and use [`IntHasher`] (the
//! multiply-and-rotate hash of Firefox's FxHash), not SipHash: nothing outside the run chooses
//! their keys.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::{Cell, Stamp};

/// A hasher for keys made of a few integers.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IntHasher(u64);

impl IntHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// A map with [`IntHasher`].
pub(crate) type Map<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;
/// A set with [`IntHasher`].
pub(crate) type Set<K> = HashSet<K, BuildHasherDefault<IntHasher>>;

/// A shadow of `2^BITS`-cell pages, each allocated when first touched.
#[derive(Clone, Debug, Default)]
pub(super) struct Shadow<const BITS: u32> {
    pages: Vec<Vec<Cell>>,
}

impl<const BITS: u32> Shadow<BITS> {
    /// The cell of index `i`, its page allocated if it was not.
    pub fn cell(&mut self, i: usize) -> &mut Cell {
        let p = i >> BITS;
        if self.pages.len() <= p {
            self.pages.resize_with(p + 1, Vec::new);
        }
        let page = &mut self.pages[p];
        if page.is_empty() {
            *page = vec![Cell::default(); 1 << BITS];
        }
        &mut page[i & ((1 << BITS) - 1)]
    }

    /// The cell of index `i`, if its page was touched.
    pub fn get(&self, i: usize) -> Option<&Cell> {
        self.pages
            .get(i >> BITS)
            .and_then(|p| p.get(i & ((1 << BITS) - 1)))
    }

    /// Every cell of the touched pages with its index, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Cell)> {
        self.pages.iter().enumerate().flat_map(|(p, page)| {
            page.iter()
                .enumerate()
                .map(move |(i, c)| ((p << BITS) + i, c))
        })
    }
}

/// The reads of a byte beyond its first since its last write, one per clock slot: lists a
/// cell names by index + 1 (`Cell::more`, 0: none), recycled when the byte is written.
#[derive(Clone, Debug, Default)]
pub(super) struct ReadLists {
    lists: Vec<Vec<Stamp>>,
    free: Vec<u32>,
}

impl ReadLists {
    /// The reads of list `more` (empty for 0).
    pub fn get(&self, more: u32) -> &[Stamp] {
        match more {
            0 => &[],
            m => self.lists.get(m as usize - 1).map_or(&[], Vec::as_slice),
        }
    }

    /// Empties list `more` for reuse (the byte was written).
    pub fn release(&mut self, more: u32) {
        if let Some(l) = more
            .checked_sub(1)
            .and_then(|m| self.lists.get_mut(m as usize))
        {
            l.clear();
            self.free.push(more);
        }
    }

    /// Records the read `now` in the list `*more` names (one a cell without one), replacing
    /// the earlier read of its slot.
    #[cfg(test)]
    pub fn record(&mut self, more: &mut u32, now: Stamp) {
        self.record_unless(more, now, |_| false);
    }

    /// [`ReadLists::record`], but an earlier read of the slot for which `keep` holds stays
    /// beside `now` (an atomic's stamp is not replaced by a plain read of its thread).
    pub fn record_unless(&mut self, more: &mut u32, now: Stamp, keep: impl Fn(&Stamp) -> bool) {
        if *more == 0 {
            *more = self.free.pop().unwrap_or_else(|| {
                self.lists.push(Vec::new());
                self.lists.len() as u32
            });
        }
        let list = &mut self.lists[*more as usize - 1];
        if let Some(r) = list.iter_mut().find(|r| r.slot == now.slot && !keep(r)) {
            *r = now;
        } else {
            list.push(now);
        }
    }
}

/// Every stamp of `cell`: its write, its first read and the others (`lists`).
pub(super) fn stamps<'a>(cell: &'a Cell, lists: &'a ReadLists) -> impl Iterator<Item = &'a Stamp> {
    cell.write
        .iter()
        .chain(cell.first.iter())
        .chain(lists.get(cell.more))
}

#[cfg(test)]
mod tests {
    use super::super::Stamp;
    use super::{ReadLists, Shadow};

    fn stamp(slot: u32, line: u32) -> Stamp {
        Stamp {
            slot,
            clock: 1,
            line,
            thread: slot,
            cta: 0,
            op: None,
            instance: 1,
            atomic: 0,
        }
    }

    #[test]
    fn pages_are_allocated_on_first_touch() {
        let mut s: Shadow<6> = Shadow::default();
        assert!(s.get(1000).is_none());
        s.cell(1000).value = Some(7);
        assert_eq!(s.get(1000).and_then(|c| c.value), Some(7));
        assert_eq!(s.get(960).map(|c| c.value), Some(None));
        assert!(s.get(959).is_none_or(|c| c.value.is_none()));
        let touched: Vec<usize> = s.iter().map(|(i, _)| i).collect();
        assert_eq!(touched, (960..1024).collect::<Vec<_>>());
    }

    #[test]
    fn read_lists_keep_one_read_per_slot_and_are_recycled() {
        let mut l = ReadLists::default();
        let mut more = 0;
        l.record(&mut more, stamp(3, 10));
        l.record(&mut more, stamp(4, 11));
        l.record(&mut more, stamp(3, 12));
        let lines: Vec<u32> = l.get(more).iter().map(|s| s.line).collect();
        assert_eq!(lines, vec![12, 11]);
        l.release(more);
        let mut again = 0;
        l.record(&mut again, stamp(5, 13));
        assert_eq!(again, more);
        assert_eq!(l.get(again).len(), 1);
        assert!(l.get(0).is_empty());
    }

    /// An atomic's stamp stays beside a later plain read of its thread (what `keep` holds for),
    /// and that plain read is replaced by the thread's next one (`atomic::note`).
    #[test]
    fn kept_reads_stay_beside_a_newer_read_of_their_slot() {
        let keep = |r: &Stamp| r.atomic != 0;
        let mut l = ReadLists::default();
        let mut more = 0;
        let atomic = Stamp {
            atomic: 3,
            ..stamp(5, 10)
        };
        l.record_unless(&mut more, atomic, keep);
        l.record_unless(&mut more, stamp(5, 11), keep);
        let lines = |l: &ReadLists, m: u32| l.get(m).iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!(lines(&l, more), [10, 11]);
        l.record_unless(&mut more, stamp(5, 12), keep);
        assert_eq!(lines(&l, more), [10, 12]);
    }
}
