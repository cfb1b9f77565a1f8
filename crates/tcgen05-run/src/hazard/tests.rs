//! The tracker on hand-made event sequences, each with the verdict the PTX rules give: a
//! write and a read of another thread race unless a `bar.sync` is between them (9.7.13.1); the
//! async proxy reads a generic write safely only when the writer's `fence.proxy.async` comes
//! after the write and before the synchronisation (9.7.13.4); a tensor copy's bytes may be read
//! only after a wait observed its phase complete (9.7.13.15).

use super::tracker::Tracker;
use super::HazardKind;
use crate::observe::{Access, AsyncKind, Event, Observer, Proxy, Space};

fn access(thread: u32, line: u32, write: bool, proxy: Proxy) -> Access {
    Access {
        space: Space::Shared,
        address: 64,
        size: 4,
        write,
        line,
        thread,
        proxy,
    }
}

fn start(t: &mut Tracker) {
    t.event(&Event::CtaStart {
        cta: 0,
        threads: 64,
    });
}

fn kinds(t: &Tracker) -> Vec<HazardKind> {
    t.findings.iter().map(|f| f.kind).collect()
}

#[test]
fn bar_sync_orders_a_write_before_another_threads_read() {
    for synced in [false, true] {
        let mut t = Tracker::default();
        start(&mut t);
        t.access(&access(0, 10, true, Proxy::Generic));
        if synced {
            let all: Vec<u32> = (0..64).collect();
            t.event(&Event::BarSync {
                line: 11,
                threads: &all,
            });
        }
        t.access(&access(33, 12, false, Proxy::Generic));
        let want = if synced {
            vec![]
        } else {
            vec![HazardKind::DataRace]
        };
        assert_eq!(kinds(&t), want, "synced {synced}");
    }
}

/// Thread 0 writes, fences (before or after the barrier), thread 32's warp issues a `wgmma`
/// reading the bytes.
#[test]
fn the_proxy_fence_must_come_between_the_write_and_the_barrier() {
    for fence_first in [true, false] {
        let mut t = Tracker::default();
        start(&mut t);
        let all: Vec<u32> = (0..64).collect();
        t.access(&access(0, 10, true, Proxy::Generic));
        let fence = Event::FenceProxyAsync {
            thread: 0,
            line: 11,
        };
        if fence_first {
            t.event(&fence);
        }
        t.event(&Event::BarSync {
            line: 12,
            threads: &all,
        });
        if !fence_first {
            t.event(&fence);
        }
        let warp: Vec<u32> = (32..64).collect();
        let kind = AsyncKind::Wgmma { warp: 1 };
        t.event(&Event::AsyncIssue {
            id: 7,
            line: 13,
            kind,
            threads: &warp,
        });
        t.event(&Event::AsyncPerform { id: 7 });
        t.access(&access(32, 13, false, Proxy::Async(7)));
        let want = if fence_first {
            vec![]
        } else {
            vec![HazardKind::MissingProxyFence]
        };
        assert_eq!(kinds(&t), want, "fence first {fence_first}");
    }
}

/// A 4-byte tensor copy on an mbarrier of count 1 (initialised by thread 0, then `bar.sync`,
/// which orders the init before the other threads' operations on it): thread 1 reads after a
/// wait that saw the phase complete; thread 2 reads without waiting.
#[test]
fn a_tensor_copy_is_read_safely_only_after_its_phase_is_observed() {
    let mut t = Tracker::default();
    start(&mut t);
    let mbar = 256;
    t.event(&Event::MbarInit {
        thread: 0,
        line: 1,
        mbar,
        count: 1,
    });
    let threads: Vec<u32> = (0..64).collect();
    t.event(&Event::BarSync {
        line: 1,
        threads: &threads,
    });
    t.event(&Event::MbarArrive {
        thread: 0,
        line: 2,
        mbar,
        tx: 4,
        relaxed: false,
    });
    let kind = AsyncKind::TensorCopy {
        dst: 64,
        bytes: 4,
        mbar,
    };
    t.event(&Event::AsyncIssue {
        id: 1,
        line: 3,
        kind,
        threads: &[0],
    });
    t.event(&Event::AsyncPerform { id: 1 });
    t.access(&access(0, 3, true, Proxy::Async(1)));
    t.event(&Event::CompleteTx {
        id: 1,
        mbar,
        bytes: 4,
    });
    let (line, parity) = (4, 0);
    t.event(&Event::MbarWait {
        thread: 1,
        line,
        mbar,
        parity,
        done: true,
        relaxed: false,
    });
    t.access(&access(1, 5, false, Proxy::Generic));
    assert_eq!(kinds(&t), vec![]);
    t.access(&access(2, 6, false, Proxy::Generic));
    assert_eq!(kinds(&t), vec![HazardKind::ReadBeforeComplete]);
    let f = &t.findings[0];
    assert_eq!((f.line, f.other_line), (6, Some(3)));
}

/// An mbarrier wait by a thread the init is not ordered before races with the init (PTX ISA
/// 9.7.13.15.2): thread 1 waits on thread 0's mbarrier with no synchronisation between.
#[test]
fn a_wait_not_ordered_after_the_init_races_with_it() {
    let mut t = Tracker::default();
    start(&mut t);
    let mbar = 256;
    t.event(&Event::MbarInit {
        thread: 0,
        line: 1,
        mbar,
        count: 1,
    });
    t.event(&Event::MbarWait {
        thread: 1,
        line: 4,
        mbar,
        parity: 0,
        done: false,
        relaxed: false,
    });
    assert_eq!(kinds(&t), vec![HazardKind::DataRace]);
    let f = &t.findings[0];
    assert_eq!(
        (f.line, f.other_line, f.thread, f.other_thread, f.address),
        (4, Some(1), Some(1), Some(0), Some(256))
    );
}
