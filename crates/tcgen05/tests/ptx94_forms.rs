//! The `tcgen05` forms PTX ISA 9.4 added (issue 27): `.kind::ti16`, `.decompress::lut::b`,
//! `.collector::b::*`, `tcgen05.alloc/dealloc .exclusive`, and `tcgen05.commit`'s
//! `.sync_restrict::shared::read::mma::a` and `.multicast::cluster::16b/::32b`.
//!
//! Every line below is one that ptxas 13.5.37 assembles (`LEGAL`: for `sm_107a` and `sm_107f`
//! at `.version 9.4` and `9.5`, and refuses at every lower version and, for the `sm_107`
//! forms, on every other target) or refuses (`REFUSED`, with ptxas's message), as measured on
//! these exact lines (docs/ptx-9.5.md, "Forms of PTX ISA 9.4: evidence"). The expected
//! verdicts come from ptxas, not from the grammar under test.
#![cfg(feature = "alloc")]

use tcgen05::ptx::{parse, Context, PtxDiagnostics};
use tcgen05::ptx_reader::read;
use tcgen05::Target;

/// Lines ptxas 13.5 assembles for `sm_107a` and `sm_107f` at `.version 9.4` and `9.5`, each
/// with what a lower version or another target must name: the qualifier and the version (or
/// `sm_107a`/`sm_107f`) that introduced it, and whether `sm_100a` at 9.4 has it.
const LEGAL: [(&str, &str, bool); 17] = [
    ("tcgen05.mma.cta_group::1.kind::ti16 [d], a, b, i, p;", ".kind::ti16", false),
    ("tcgen05.mma.cta_group::2.kind::ti16 [d], a, b, i, {l0,l1,l2,l3,l4,l5,l6,l7}, p;", ".kind::ti16", false),
    ("tcgen05.mma.sp.cta_group::1.kind::ti16 [d], a, b, [m], i, p;", ".kind::ti16", false),
    ("tcgen05.mma.ws.cta_group::1.kind::ti16 [d], a, b, i, p;", ".kind::ti16", false),
    ("tcgen05.mma.ws.sp.cta_group::1.kind::ti16 [d], a, b, [m], i, p;", ".kind::ti16", false),
    ("tcgen05.mma.ws.cta_group::1.kind::ti16.collector::b1::fill [d], a, b, i, p, z;", ".kind::ti16", false),
    ("tcgen05.mma.cta_group::1.kind::ti16.ashift [d], [at], b, i, p;", ".kind::ti16", false),
    ("tcgen05.mma.cta_group::1.kind::ti16.collector::a::fill.collector::b::use [d], a, b, i, p;", ".kind::ti16", false),
    ("tcgen05.mma.cta_group::1.kind::f16.collector::b::fill [d], a, b, i, p;", ".collector::b::fill", false),
    ("tcgen05.mma.sp.cta_group::1.kind::f16.collector::b::fill [d], a, b, [m], i, p;", ".collector::b::fill", false),
    ("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::b::fill [d], a, b, i, [sa], [sb], p;", ".collector::b::fill", false),
    ("tcgen05.mma.cta_group::1.kind::f8f6f4.decompress::lut::b [d], a, b, [lut], i, p;", ".decompress::lut::b", false),
    ("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.decompress::lut::b.block32 [d], a, b, [lut], i, [sa], [sb], p;", ".decompress::lut::b", false),
    ("tcgen05.alloc.exclusive.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;", ".exclusive", true),
    ("tcgen05.dealloc.exclusive.cta_group::1.sync.aligned.b32 t, 32;", ".exclusive", true),
    ("tcgen05.commit.cta_group::1.mbarrier::arrive::one.sync_restrict::shared::read::mma::a.shared::cluster.b64 [mbar];", ".sync_restrict::shared::read::mma::a", false),
    ("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster::32b.b64 [mbar], mask;", ".multicast::cluster::32b", false),
];

/// `.multicast::cluster::16b` (ptxas 13.5: every tcgen05 target from `.version 9.4`).
const SIXTEEN: &str =
    "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster::16b.b64 [mbar], mask;";

/// Lines ptxas 13.5 refuses for `sm_107a` at `.version 9.4`, with the words of its message.
const REFUSED: [(&str, &str); 9] = [
    ("tcgen05.mma.cta_group::1.kind::ti16.block_scale [d], a, b, i, [sa], [sb], p;", "'.kind::ti16' cannot be combined with modifier '.block_scale'"),
    ("tcgen05.mma.cta_group::1.kind::ti16 [d], a, b, i, p, 3;", "Unexpected intrinsic param number"),
    ("tcgen05.mma.ws.cta_group::1.kind::ti16.collector::b::fill [d], a, b, i, p;", "Illegal modifier '.collector::b::fill' for instruction 'tcgen05.mma.ws'"),
    ("tcgen05.mma.cta_group::1.kind::f16.decompress::lut::b [d], a, b, [lut], i, p;", "'.decompress::lut::b' cannot be combined with modifier '.kind::f16'"),
    ("tcgen05.mma.cta_group::1.kind::ti16.decompress::lut::b [d], a, b, [lut], i, p;", "'.decompress::lut::b' cannot be combined with modifier '.kind::ti16'"),
    ("tcgen05.mma.cta_group::1.kind::mxf4.block_scale.decompress::lut::b.block32 [d], a, b, [lut], i, [sa], [sb], p;", "cannot be combined with modifier '.kind::mxf4'"),
    ("tcgen05.mma.sp.cta_group::1.kind::f8f6f4.decompress::lut::b [d], a, b, [m], [lut], i, p;", "Arguments mismatch"),
    ("tcgen05.mma.cta_group::1.kind::f8f6f4.decompress::lut::b.ashift [d], [at], b, [lut], i, p;", "'.decompress::lut::b' cannot be combined with modifier '.ashift'"),
    ("tcgen05.mma.cta_group::1.kind::ti16.ashift.collector::a::fill [d], [at], b, i, p;", "'.collector::a::fill' cannot be combined with modifier '.ashift'"),
];

fn problems(line: &str, ctx: Context) -> (String, PtxDiagnostics) {
    let module = read(line.as_bytes());
    let form =
        parse(&module.functions[0].instructions[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut back = String::new();
    form.write_unchecked(&mut back).expect("write");
    (back, form.instruction().validate(&ctx))
}

fn errors(d: &PtxDiagnostics) -> Vec<String> {
    d.errors().map(|e| e.to_string()).collect()
}

#[test]
fn ptx94_forms_read_write_back_and_check_clean_where_ptxas_assembles_them() {
    for (line, _, _) in LEGAL.iter().copied().chain([(SIXTEEN, "", true)]) {
        for target in [Target::Sm107a, Target::Sm107f] {
            for version in [94, 95] {
                let (back, d) = problems(line, Context::new(target).with_version(version));
                assert_eq!(back, line, "round trip");
                assert!(
                    errors(&d).is_empty(),
                    "{line} on {target:?} {version}: {:?}",
                    errors(&d)
                );
            }
        }
    }
}

#[test]
fn ptx94_forms_under_an_older_version_or_target_name_what_introduced_them() {
    for (line, qualifier, everywhere) in LEGAL {
        // `.version 9.3` for sm_100a: the qualifier is named with the version that introduced it.
        let (_, d) = problems(line, Context::new(Target::Sm100a).with_version(93));
        let want =
            format!("PTX ISA version 9.3 is too low for {qualifier}, which PTX ISA 9.4 introduced");
        assert!(errors(&d).contains(&want), "{line}: {:?}", errors(&d));
        // `.target sm_100a` at 9.4: the sm_107 forms are refused naming the targets.
        let (_, d) = problems(line, Context::new(Target::Sm100a).with_version(94));
        let on_target = format!(
            "{qualifier} was introduced by PTX ISA 9.4 for sm_107a and sm_107f and exists on no other target"
        );
        if everywhere {
            assert!(errors(&d).is_empty(), "{line}: {:?}", errors(&d));
        } else {
            assert!(errors(&d).contains(&on_target), "{line}: {:?}", errors(&d));
        }
        // `.version 9.3` for sm_107a: the target itself needs 9.4.
        let (_, d) = problems(line, Context::new(Target::Sm107a).with_version(93));
        assert!(
            errors(&d)
                .iter()
                .any(|e| e.contains("9.3 is too low for sm_107a")),
            "{line}: {:?}",
            errors(&d)
        );
    }
    let (_, d) = problems(SIXTEEN, Context::new(Target::Sm100a).with_version(94));
    assert!(errors(&d).is_empty(), "{:?}", errors(&d));
    let (_, d) = problems(SIXTEEN, Context::new(Target::Sm110f).with_version(93));
    assert!(errors(&d)
        .contains(&"PTX ISA version 9.3 is too low for .multicast::cluster::16b, which PTX ISA 9.4 introduced".to_string()));
}

#[test]
fn ptx94_forms_ptxas_refuses_are_refused() {
    for (line, ptxas) in REFUSED {
        let module = read(line.as_bytes());
        let refused = match parse(&module.functions[0].instructions[0]) {
            Err(_) => true,
            Ok(f) => f
                .instruction()
                .validate(&Context::new(Target::Sm107a).with_version(94))
                .has_errors(),
        };
        assert!(refused, "{line} (ptxas: {ptxas})");
    }
}

/// `tcgen05.ld{.red}.spcompress` lines ptxas 13.5.37 assembles for `sm_107a` at `.version` 9.4
/// and 9.5 only (refused below 9.4 and on every other target, `sm_107f` included), with `{r}`
/// of num / 2 and `{mdata}` of max(1, num / 32) registers (docs/ptx-9.5.md).
fn spcompress_legal() -> Vec<String> {
    let regs = |p: &str, n: usize| {
        let v: Vec<String> = (0..n).map(|i| format!("{p}{i}")).collect();
        format!("{{{}}}", v.join(","))
    };
    vec![
        "tcgen05.ld.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.f32.b2 {m}, {c0,c1}, [t];".into(),
        "tcgen05.ld.red.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.abs.NaN.f32.b2 {m}, {c0,c1}, v, [t];".into(),
        "tcgen05.ld.spcompress.sync.aligned.32x32b.x8.min.sp::2:4.abs.f32.b2 {m}, {c0,c1,c2,c3}, [t];".into(),
        format!("tcgen05.ld.spcompress.sync.aligned.32x32b.x64.max.sp::2:4.f32.b2 {}, {}, [t];", regs("m", 2), regs("c", 32)),
        format!("tcgen05.ld.red.spcompress.sync.aligned.32x32b.x128.min.sp::2:4.NaN.f32.b2 {}, {}, v, [t];", regs("m", 4), regs("c", 64)),
    ]
}

/// `tcgen05.ld{.red}.spcompress` lines ptxas 13.5.37 refuses for `sm_107a` at 9.4, with the
/// words of its message.
const SPCOMPRESS_REFUSED: [(&str, &str); 11] = [
    ("tcgen05.ld.spcompress.sync.aligned.16x64b.x4.max.sp::2:4.f32.b2 {m}, {c0, c1}, [t];", "Illegal matrix shape '.16x64b'"),
    ("tcgen05.ld.spcompress.sync.aligned.32x32b.x2.max.sp::2:4.f32.b2 {m}, {c0}, [t];", "Modifier .x2 not allowed"),
    ("tcgen05.ld.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.NaN.f32.b2 {m}, {c0, c1}, [t];", "Illegal modifier '.NaN'"),
    ("tcgen05.ld.spcompress.sync.aligned.32x32b.x4.pack::16b.max.sp::2:4.f32.b2 {m}, {c0, c1}, [t];", "Illegal modifier '.pack::16b'"),
    ("tcgen05.ld.red.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.u32.b2 {m}, {c0, c1}, v, [t];", "Unexpected instruction types"),
    ("tcgen05.ld.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.f32.b2 {m}, {c0, c1, c2, c3}, [t];", "Argument vector size mismatch"),
    ("tcgen05.ld.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.f32.b2 {m0, m1}, {c0, c1}, [t];", "Argument vector size mismatch"),
    ("tcgen05.ld.spcompress.sync.aligned.32x32b.x4.max.f32.b2 {m}, {c0, c1}, [t];", ".sp::2:4 modifier required"),
    ("tcgen05.ld.spcompress.sync.aligned.32x32b.x4.sp::2:4.f32.b2 {m}, {c0, c1}, [t];", "Reduction operation is required"),
    ("tcgen05.ld.sync.aligned.spcompress.32x32b.x4.max.sp::2:4.f32.b2 {m}, {c0, c1}, [t];", "Unknown modifier '.spcompress'"),
    ("tcgen05.ld.red.spcompress.sync.aligned.32x32b.x4.max.sp::2:4.f32.b2 {m}, {c0, c1}, [t];", "Arguments mismatch"),
];

#[test]
fn spcompress_reads_writes_back_and_checks_clean_on_sm_107a_only() {
    for line in spcompress_legal() {
        for version in [94, 95] {
            let (back, d) = problems(&line, Context::new(Target::Sm107a).with_version(version));
            assert_eq!(back, line, "round trip");
            assert!(
                errors(&d).is_empty(),
                "{line} at {version}: {:?}",
                errors(&d)
            );
        }
        let (_, d) = problems(&line, Context::new(Target::Sm107a).with_version(93));
        let want = "PTX ISA version 9.3 is too low for tcgen05.ld.spcompress, which PTX ISA 9.4 introduced";
        assert!(
            errors(&d).contains(&want.to_string()),
            "{line}: {:?}",
            errors(&d)
        );
        for target in [
            Target::Sm100a,
            Target::Sm103a,
            Target::Sm107f,
            Target::Sm110a,
        ] {
            let (_, d) = problems(&line, Context::new(target).with_version(94));
            let want = format!(
                "tcgen05.ld.spcompress was introduced by PTX ISA 9.4 for sm_107a and is not on {}",
                target.name()
            );
            assert!(
                errors(&d).contains(&want),
                "{line} on {target:?}: {:?}",
                errors(&d)
            );
        }
    }
}

#[test]
fn spcompress_ptxas_refuses_are_refused() {
    for (line, ptxas) in SPCOMPRESS_REFUSED {
        let module = read(line.as_bytes());
        let refused = match parse(&module.functions[0].instructions[0]) {
            Err(_) => true,
            Ok(f) => f
                .instruction()
                .validate(&Context::new(Target::Sm107a).with_version(94))
                .has_errors(),
        };
        assert!(refused, "{line} (ptxas: {ptxas})");
    }
}
