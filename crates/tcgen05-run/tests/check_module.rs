//! `hazard::check_module`: every kernel of a module launched as its header declares (PTX ISA,
//! performance-tuning and cluster dimension directives), on seeded random buffers. Each
//! expected value is read off the PTX text written here: the block of `.maxntid`, the line of
//! the store two warps make to one address (a data race), the parameter a notice names.

use tcgen05_run::hazard::{check_module, HazardKind, ModuleOptions, NoticeKind, Scalar};
use tcgen05_run::Module;

/// Each thread stores its index to `out[tid]` (`.maxntid 64`; no parameter is marked `.ptr`,
/// so the 64-bit `out` is a pointer); with `racy`, every thread stores to `out[0]`.
fn store_tid(racy: bool) -> String {
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\n\
         .visible .entry store_tid(.param .u64 out, .param .u32 n)\n.maxntid 64, 1, 1\n{{\n\
         .reg .b32 %r<2>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [out];\n\
         mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n{}\n\
         st.global.u32 [%rd1], %r1;\nret;\n}}\n",
        if racy {
            ""
        } else {
            "add.s64 %rd1, %rd1, %rd2;"
        }
    )
}

fn line_of(text: &str, needle: &str) -> u32 {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u32 + 1)
        .expect("the line")
}

#[test]
fn launch_comes_from_maxntid_and_a_race_is_found_at_its_store() {
    let clean = store_tid(false);
    let module = Module::read(&clean).expect("read");
    let r = check_module(&module, &ModuleOptions::default()).expect("check");
    assert_eq!(r.len(), 1);
    let launch = r[0].launch.as_ref().expect("launched");
    assert_eq!(launch.config.block, [64, 1, 1]);
    assert_eq!(launch.config.grid, [1, 1, 1]);
    assert_eq!(launch.config.shared, 0);
    assert_eq!(launch.args[0].value, "buffer of 1048576 bytes");
    assert_eq!(launch.args[1].value, "128");
    let report = r[0].result.as_ref().expect("checked");
    assert!(report.findings.is_empty(), "{:?}", report.findings);

    let racy = store_tid(true);
    let module = Module::read(&racy).expect("read");
    let options = ModuleOptions {
        scalars: vec![("n".into(), Scalar::Int(7))],
        schedules: 2,
        ..ModuleOptions::default()
    };
    let r = check_module(&module, &options).expect("check");
    assert_eq!(r[0].launch.as_ref().expect("launched").args[1].value, "7");
    let report = r[0].result.as_ref().expect("checked");
    assert_eq!(report.runs, 3);
    let st = line_of(&racy, "st.global.u32");
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.kind == HazardKind::DataRace && f.line == st && f.other_line == Some(st)),
        "{:?}",
        report.findings
    );
}

#[test]
fn notices_name_what_the_launch_lacks_or_breaks() {
    let text = ".version 8.0\n.target sm_100a\n.address_size 64\n\n\
        .visible .entry fixed(.param .u64 .ptr .global .align 1 p, .param .u64 len)\n.reqntid 32\n{\nret;\n}\n\
        .visible .entry ranked(.param .u32 n)\n.reqntid 32\n.maxclusterrank 1\n{\nret;\n}\n\
        .visible .entry half(.param .f16 h)\n.reqntid 32\n{\nret;\n}\n\
        .visible .entry mapped(.param .align 64 .b8 m[128], .param .align 8 .b8 s[24])\n{\nret;\n}\n";
    let module = Module::read(text).expect("read");
    let r = check_module(&module, &ModuleOptions::default()).expect("check");
    let kinds = |i: usize| -> Vec<(NoticeKind, String)> {
        r[i].result
            .as_ref()
            .err()
            .map(|ns| ns.iter().map(|n| (n.kind, n.what.clone())).collect())
            .unwrap_or_default()
    };
    // A kernel that marks its pointers `.ptr`: its unmarked 64-bit parameter is an integer.
    let fixed = r[0].launch.as_ref().expect("launched");
    assert_eq!(fixed.args[0].value, "buffer of 1048576 bytes");
    assert_eq!(fixed.args[1].value, "128");
    assert!(r[1].result.is_ok());
    assert_eq!(kinds(2), vec![(NoticeKind::ScalarType, "h".into())]);
    assert_eq!(
        kinds(3),
        vec![
            (NoticeKind::LaunchSize, "block".into()),
            (NoticeKind::TensorMap, "m".into()),
            (NoticeKind::ByValue, "s".into()),
        ]
    );
    // A block against .reqntid, a cluster above .maxclusterrank.
    let options = ModuleOptions {
        block: Some([64, 1, 1]),
        cluster: Some([2, 1, 1]),
        grid: Some([2, 1, 1]),
        ..ModuleOptions::default()
    };
    let r = check_module(&module, &options).expect("check");
    let kinds = |i: usize| -> Vec<(NoticeKind, String)> {
        r[i].result
            .as_ref()
            .err()
            .map(|ns| ns.iter().map(|n| (n.kind, n.what.clone())).collect())
            .unwrap_or_default()
    };
    assert_eq!(kinds(0), vec![(NoticeKind::Launch, "block".into())]);
    assert_eq!(kinds(1), vec![(NoticeKind::Launch, "block".into())]);
    let o = ModuleOptions {
        cluster: Some([2, 1, 1]),
        grid: Some([2, 1, 1]),
        ..ModuleOptions::default()
    };
    let r = check_module(&module, &o).expect("check");
    let notices = r[1].result.as_ref().expect_err("refused");
    assert_eq!(
        (notices[0].kind, notices[0].what.as_str()),
        (NoticeKind::Launch, "cluster")
    );
    // A scalar no kernel has is an error.
    let o = ModuleOptions {
        scalars: vec![("nope".into(), Scalar::Int(1))],
        ..ModuleOptions::default()
    };
    assert!(check_module(&module, &o).is_err());
}
