//! When a `tcgen05.ld`'s registers get their values, and what `tcgen05.wait::ld` orders
//! (rules.md I12; PTX ISA 9.7.16.6.4.5, "Register dependencies, same thread": a true register
//! dependency on a `tcgen05.ld` is respected without other synchronisation, and it orders no
//! memory access; `tcgen05.wait::ld` orders the load's read of Tensor Memory before later
//! accesses, 9.7.16.8.5). A hand-written one-warp kernel stores `3t + 7` in lane `t`'s cell
//! (`tcgen05.st.32x32b.x1`: thread `t` and lane `t`, column 0, 9.7.16.8.3), loads it back, adds
//! 1 to the loaded register before any `wait::ld`, overwrites the cell with `tcgen05.st`, and
//! stores the sum to global memory. Expected from the text alone: every thread stores `3t + 8`
//! whether or not the kernel waits; the hazard checker reports nothing with the wait before the
//! overwrite, and without it the overwrite (`write-before-complete`, against the ld) and, with no
//! wait at all, the dealloc (`dealloc-in-use`, against the ld).

use tcgen05_run::hazard::{check, HazardKind, Options};
use tcgen05_run::{Arg, Config, Limits, Module};

/// Where the kernel waits for its load: before the overwrite, only before the dealloc, or never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    BeforeOverwrite,
    BeforeDealloc,
    Never,
}

/// The kernel and the 1-based lines of its `tcgen05.ld`, overwriting `tcgen05.st` and dealloc.
fn kernel(wait: Wait) -> (String, u32, u32, u32) {
    let w = |here: bool| {
        if here {
            "tcgen05.wait::ld.sync.aligned;"
        } else {
            "// no wait::ld"
        }
    };
    let lines = [
        ".version 8.6",
        ".target sm_100a",
        ".address_size 64",
        ".visible .entry k(.param .u64 out)",
        "{",
        ".reg .b32 %r<30>;",
        ".reg .b64 %rd<8>;",
        ".shared .align 16 .b8 smem[16];",
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;",
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
        "ld.shared.b32 %r1, [smem];",
        "mov.u32 %r2, %tid.x;",
        "mad.lo.u32 %r10, %r2, 3, 7;",
        "tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r10};",
        "tcgen05.wait::st.sync.aligned;",
        "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r20}, [%r1];",
        "add.u32 %r21, %r20, 1;",
        w(wait == Wait::BeforeOverwrite),
        "mov.u32 %r22, 0;",
        "tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r22};",
        "tcgen05.wait::st.sync.aligned;",
        "ld.param.u64 %rd1, [out];",
        "mul.wide.u32 %rd2, %r2, 4;",
        "add.u64 %rd3, %rd1, %rd2;",
        "st.global.b32 [%rd3], %r21;",
        w(wait == Wait::BeforeDealloc),
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;",
        "ret;",
        "}",
    ];
    let at = |op: &str| {
        lines
            .iter()
            .rposition(|l| l.starts_with(op))
            .expect("the instruction") as u32
            + 1
    };
    (
        lines.join("\n") + "\n",
        at("tcgen05.ld."),
        at("tcgen05.st."),
        at("tcgen05.dealloc"),
    )
}

/// A finding as (kind, line, other line).
type Found = (HazardKind, u32, Option<u32>);

/// Runs the kernel under the hazard checker (2 seeded schedules too): its findings and what
/// each thread stored.
fn run(wait: Wait) -> (Vec<Found>, Vec<u32>) {
    let (src, ..) = kernel(wait);
    let module = Module::read(&src).unwrap_or_else(|e| panic!("{e}"));
    let mut args = vec![Arg::Buffer(vec![0xAB; 32 * 4])];
    let config = Config {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Limits { steps: 1_000_000 },
    };
    let report = check(&module, "k", &config, &mut args, &Options { schedules: 2 })
        .unwrap_or_else(|e| panic!("{wait:?}: {e}"));
    let Arg::Buffer(out) = &args[0] else {
        unreachable!()
    };
    let words = out
        .chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    let found = report
        .findings
        .iter()
        .map(|f| (f.kind, f.line, f.other_line))
        .collect();
    (found, words)
}

#[test]
fn the_registers_hold_the_loaded_values_before_the_wait() {
    let want: Vec<u32> = (0..32).map(|t| 3 * t + 8).collect();
    for wait in [Wait::BeforeOverwrite, Wait::BeforeDealloc, Wait::Never] {
        let (_, got) = run(wait);
        assert_eq!(got, want, "{wait:?}");
    }
}

#[test]
fn a_register_use_before_the_wait_is_no_finding() {
    let (found, _) = run(Wait::BeforeOverwrite);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn the_load_read_is_outstanding_until_the_wait() {
    let (_, ld, overwrite, dealloc) = kernel(Wait::BeforeDealloc);
    let (found, _) = run(Wait::BeforeDealloc);
    assert_eq!(
        found,
        vec![(HazardKind::WriteBeforeComplete, overwrite, Some(ld))]
    );
    let (found, _) = run(Wait::Never);
    assert_eq!(
        found,
        vec![
            (HazardKind::WriteBeforeComplete, overwrite, Some(ld)),
            (HazardKind::DeallocInUse, dealloc, Some(ld)),
        ]
    );
}
