//! `tcgen05 check` on the `tcgen05` forms PTX ISA 9.4 added (issue 27, item 6): a
//! `.version 9.4` file for `sm_107a` using each of them checks with no error, as ptxas 13.5
//! assembles every one of these lines for `sm_107a` at 9.4 (docs/ptx-9.5.md); the same lines
//! under `.version 9.3`, or for `.target sm_100a`, are errors naming the version or the
//! targets that introduced them.
#![cfg(feature = "alloc")]

use tcgen05::check::{check, Options};
use tcgen05::diagnostic::Severity;

const LINES: [&str; 9] = [
    "tcgen05.mma.cta_group::1.kind::ti16 [%r1], %rd1, %rd2, %r3, %p1;",
    "tcgen05.mma.ws.sp.cta_group::1.kind::ti16 [%r1], %rd1, %rd2, [%r4], %r3, %p1;",
    "tcgen05.mma.cta_group::1.kind::f16.collector::a::fill.collector::b::use [%r1], %rd1, %rd2, %r3, %p1;",
    "tcgen05.mma.cta_group::1.kind::f8f6f4.decompress::lut::b [%r1], %rd1, %rd2, [%r4], %r3, %p1;",
    "tcgen05.alloc.exclusive.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;",
    "tcgen05.dealloc.exclusive.cta_group::1.sync.aligned.b32 %r5, 32;",
    "tcgen05.commit.cta_group::1.mbarrier::arrive::one.sync_restrict::shared::read::mma::a.shared::cluster.b64 [mbar];",
    "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster::32b.b64 [mbar], %r6;",
    "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster::16b.b64 [mbar], %rs1;",
];

/// `tcgen05.ld{.red}.spcompress`: ptxas 13.5.37 assembles these for `sm_107a` at 9.4 and 9.5
/// only (not `sm_107f`; docs/ptx-9.5.md).
const SPCOMPRESS: [&str; 2] = [
    "tcgen05.ld.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.f32.b2 {%r1}, {%r2, %r3}, [%r5];",
    "tcgen05.ld.red.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.abs.NaN.f32.b2 {%r1}, {%r2, %r3}, %r4, [%r5];",
];

fn file(version: &str, target: &str, line: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
         .visible .entry k()\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n\
         .reg .b16 %rs<2>;\n.shared .align 8 .b64 mbar;\n.shared .align 4 .b32 slot;\n\
         {line}\nret;\n}}\n"
    )
}

fn errors(text: &str) -> Vec<String> {
    let report = check(text.as_bytes(), &Options::default());
    report
        .instructions
        .iter()
        .flat_map(|i| i.findings.iter())
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{}: {:?}", f.field, f.rule))
        .collect()
}

/// `check` reads each line through `ptx::parse`, whose grammar has the PTX ISA 9.4 forms (the
/// same lines in `tests/ptx94_forms.rs`).
#[test]
fn a_9_4_file_for_sm_107a_with_each_new_form_checks_clean() {
    for line in LINES {
        let e = errors(&file("9.4", "sm_107a", line));
        assert!(e.is_empty(), "{line}: {e:?}");
        let e = errors(&file("9.5", "sm_107f", line));
        assert!(e.is_empty(), "{line}: {e:?}");
    }
}

#[test]
fn the_same_lines_under_9_3_or_sm_100a_are_errors() {
    for line in LINES {
        let e = errors(&file("9.3", "sm_100a", line));
        assert!(!e.is_empty(), "{line} under .version 9.3");
    }
    for line in &LINES[..8] {
        if line.contains(".exclusive") {
            continue;
        }
        let e = errors(&file("9.4", "sm_100a", line));
        assert!(!e.is_empty(), "{line} for sm_100a");
    }
}

#[test]
fn spcompress_checks_clean_on_sm_107a_at_9_4_and_is_an_error_elsewhere() {
    for line in SPCOMPRESS {
        for version in ["9.4", "9.5"] {
            let e = errors(&file(version, "sm_107a", line));
            assert!(e.is_empty(), "{line}: {e:?}");
        }
        for (version, target) in [("9.3", "sm_107a"), ("9.4", "sm_100a"), ("9.5", "sm_107f")] {
            let e = errors(&file(version, target, line));
            assert!(
                !e.is_empty(),
                "{line} under .version {version} for {target}"
            );
        }
    }
}
