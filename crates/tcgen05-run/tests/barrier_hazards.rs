//! The hazard checker on named barriers and on unordered stores of the same value, small
//! hand-written kernels whose verdicts follow from the PTX text:
//! - a named barrier (`bar.sync 1, 64` / `bar.arrive 1, 64`, PTX ISA 9.7.13.1) orders the
//!   arriving threads' earlier accesses before the waiting threads' later ones; without it, a
//!   write of one warp and a read of another race;
//! - two warps storing the same bytes to one shared word without ordering are not reported
//!   (rules.md I11), two different values are (`data-race` at the second store's line).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use tcgen05_run::hazard::{check, HazardKind, Options};
use tcgen05_run::{Arg, Config, Limits, Module};

/// The kernel's findings over the default schedule and 8 seeded ones: (kind, line, other).
fn findings(body: &str) -> Vec<(HazardKind, u32, Option<u32>)> {
    let src = format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\
         .visible .entry k(.param .u64 out)\n{{\n\
         .reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
         .shared .align 16 .b8 buf[64];\n{body}\n}}\n"
    );
    let m = Module::read(&src).unwrap();
    let config = Config {
        grid: [1, 1, 1],
        block: [64, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Limits { steps: 100_000 },
    };
    let mut args = [Arg::Buffer(vec![0; 256])];
    let r = check(&m, "k", &config, &mut args, &Options { schedules: 8 }).unwrap();
    r.findings
        .iter()
        .map(|f| (f.kind, f.line, f.other_line))
        .collect()
}

/// The 1-based line of the kernel text (9 header lines before `body`) of body line `i`.
const fn line(i: u32) -> u32 {
    9 + i
}

/// Warp 1 writes and arrives (`bar.arrive 1, 64`, or nothing); warp 0 waits (`bar.sync 1,
/// 64`, or nothing) and reads.
fn producer_consumer(arrive: &str, sync: &str) -> String {
    format!(
        "mov.u32 %r1, %tid.x;\n\
         setp.lt.u32 %p1, %r1, 32;\n\
         @%p1 bra CONSUMER;\n\
         mov.u32 %r2, 7;\n\
         st.shared.u32 [buf], %r2;\n\
         {arrive}\n\
         ret;\n\
         CONSUMER:\n\
         {sync}\n\
         ld.shared.u32 %r3, [buf];\n\
         ret;"
    )
}

#[test]
fn a_named_barrier_orders_the_arrivals_before_the_waiters() {
    let synced = producer_consumer("bar.arrive 1, 64;", "bar.sync 1, 64;");
    assert_eq!(findings(&synced), vec![]);
    // Without the barrier (its lines emptied): the read (body line 10) races with the write
    // (body line 5), found at whichever of the two a schedule runs second.
    let unsynced = findings(&producer_consumer("", ""));
    let pair = [line(5), line(10)];
    assert!(!unsynced.is_empty());
    for (k, l, o) in unsynced {
        assert!(
            k == HazardKind::DataRace
                && pair.contains(&l)
                && o.is_some_and(|o| pair.contains(&o) && o != l)
        );
    }
}

/// Both warps store `value` (a register per warp, or an immediate) to `buf`, then `bar.sync
/// 0` and every thread reads it.
fn both_store(value: &str) -> String {
    format!(
        "mov.u32 %r1, %tid.x;\n\
         shr.u32 %r2, %r1, 5;\n\
         st.shared.u32 [buf], {value};\n\
         bar.sync 0;\n\
         ld.shared.u32 %r3, [buf];\n\
         ret;"
    )
}

#[test]
fn stores_of_the_same_value_do_not_race_and_different_values_do() {
    // Every thread stores 0x02000101 (Triton's dispatch word): clean.
    assert_eq!(findings(&both_store("33554689")), vec![]);
    // Every thread stores its warp index: warp 1's store (body line 3) races with warp 0's.
    assert_eq!(
        findings(&both_store("%r2")),
        vec![(HazardKind::DataRace, line(3), Some(line(3)))]
    );
}
