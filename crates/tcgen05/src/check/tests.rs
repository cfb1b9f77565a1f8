use super::*;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

fn kernel(body: &str) -> String {
    format!(
        ".version 8.8\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{{\n{body}\n}}\n"
    )
}

fn fields(r: &InstructionReport<'_>) -> Vec<(&'static str, Severity, u32)> {
    r.findings
        .iter()
        .map(|f| (f.field, f.severity, f.line))
        .collect()
}

#[test]
fn every_rule_has_one_row() {
    for rule in [
        CheckRule::UnknownQualifier,
        CheckRule::MissingQualifier,
        CheckRule::Operands,
        CheckRule::ImmediateTooWide,
        CheckRule::Target,
        CheckRule::NoTarget,
        CheckRule::VersionAboveModel,
        CheckRule::SwizzleForMajor,
    ] {
        assert_eq!(
            RULES.iter().filter(|r| *r == rule.row()).count(),
            1,
            "{rule:?}"
        );
    }
}

#[test]
fn idesc_cross_checks_with_the_instruction() {
    // Line 6: sparse bit set (0x08100494) on a dense MMA; .ws with M = 256 (0x10100490).
    let src = kernel(
        "mov.b32 %r1, 0x08100494;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;\n\
         mov.b32 %r3, 0x10100490;\n\
         tcgen05.mma.ws.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r3, %p1;",
    );
    let r = check(src.as_bytes(), &Options::default());
    assert_eq!(r.instructions.len(), 2);
    assert_eq!(r.instructions[0].idesc, Some(0x0810_0494));
    assert_eq!(fields(&r.instructions[0]), [("sparse", Severity::Error, 6)]);
    assert!(r.instructions[1]
        .errors()
        .any(|f| f.line == 8 && f.operand == Some(crate::ptx::OperandName::Idesc)));
    // Both descriptors unknown: no smem finding, and JSON-level "known" is 0.
    assert_eq!(r.instructions[0].a_desc, Some(KnownBits::UNKNOWN));
}

#[test]
fn qualifiers_target_and_operands() {
    let src = kernel(
        "tcgen05.mma.cta_group::3.kind::f17 [%r2], %rd1, %rd2, %r1, %p1;\n\
         tcgen05.mma.cta_group::1.kind::i8 [%r2], %rd1, %rd2, %r1;\n\
         tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r5], 48;\n\
         tcgen05.shift.cta_group::1.down [%r5];\n\
         tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.b64 [%r6];",
    );
    let r = check(
        src.as_bytes(),
        &Options {
            target: Some(Target::Sm100f),
            ..Options::default()
        },
    );
    let ids: Vec<Vec<&str>> = r
        .instructions
        .iter()
        .map(|i| i.findings.iter().map(Finding::rule_id).collect())
        .collect();
    assert_eq!(
        ids[0],
        [
            "check.missing_qualifier",
            "check.missing_qualifier",
            "check.unknown_qualifier",
            "check.unknown_qualifier"
        ]
    );
    // i8 on sm_100f (rules.md R17), and one operand missing.
    assert!(
        ids[1].contains(&"check.operands") && ids[1].contains(&"ptx.kind_not_on_target"),
        "{ids:?}"
    );
    // 48 columns, and no tcgen05.dealloc in the kernel.
    assert_eq!(
        ids[2],
        [
            "tmem.n_cols_not_power_of_two",
            "check.alloc_without_dealloc"
        ]
    );
    assert_eq!(ids[3], ["ptx.shift_not_on_target"]); // tcgen05.shift only on the 'a' targets
    assert_eq!(ids[4], ["ptx.cta_group_mixed"]); // ::2 after ::1 in one kernel
}

#[test]
fn smem_known_bits_and_their_lines() {
    // High word 0x40000040: bit 46 clear (fixed bits wrong), swizzle 2; low word unknown.
    let src = kernel(
        "ld.shared.b32 %r1, [a];\n\
         mov.b32 %r2, 0x40000040;\n\
         mov.b64 %rd1, {%r1, %r2};\n\
         mov.b64 %rd2, 0x6000404000010040;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r9], %rd1, %rd2, 0x08100490, 1;",
    );
    let r = check(src.as_bytes(), &Options::default());
    let i = &r.instructions[0];
    assert_eq!(i.idesc, Some(0x0810_0490));
    let f: Vec<_> = i
        .findings
        .iter()
        .map(|f| (f.operand.map(|o| o.name()), f.field, f.line))
        .collect();
    assert_eq!(
        f,
        [
            (Some("a_desc"), "fixed_46_48", 7),
            (Some("b_desc"), "swizzle", 9)
        ],
        "{:?}",
        i.findings
    );
}

#[test]
fn unknown_target_and_unreadable_input() {
    let src = ".version 8.7\n.target sm_90a\ntcgen05.fence::before_thread_sync;\n";
    let r = check(src.as_bytes(), &Options::default());
    assert_eq!(r.target, None);
    assert_eq!(r.instructions[0].findings[0].field, "target");
    assert_eq!(r.instructions[0].findings[0].line, 2);
    let junk = check(b"\x00\x01\x02\xff\xfe", &Options::default());
    assert!(junk.unreadable());
}

#[test]
fn swizzle_against_major_ness_and_type() {
    // tf32, B N-major (0x08110910: transpose_b = 1): only 128B_base32B (code 1) is allowed for B
    // (rules.md R18). A stays K-major, where every mode but 128B_base32B is allowed.
    // Each case: A's descriptor, B's descriptor, idesc, the fields expected (the line of the
    // mov of the descriptor that breaks the rule: 7 for A, 8 for B).
    let k_major_128b = "0x4000404000010040"; // swizzle code 2 (128B)
    let base32b = "0x2000404000010040"; // swizzle code 1 (128B_base32B)
    let cases = [
        (k_major_128b, base32b, "0x08110910", Vec::new()),
        (
            k_major_128b,
            k_major_128b,
            "0x08110910",
            vec![("swizzle", Severity::Error, 8)],
        ),
        (
            base32b,
            base32b,
            "0x08110910",
            vec![("swizzle", Severity::Error, 7)],
        ),
        // bf16, both K-major (0x08100490): 128B_base32B is refused for B only.
        (
            k_major_128b,
            base32b,
            "0x08100490",
            vec![("swizzle", Severity::Error, 8)],
        ),
        (k_major_128b, k_major_128b, "0x08100490", Vec::new()),
        // bf16 with B N-major (0x08110490): 128B allowed, 128B_base32B refused.
        (k_major_128b, k_major_128b, "0x08110490", Vec::new()),
        (
            k_major_128b,
            base32b,
            "0x08110490",
            vec![("swizzle", Severity::Error, 8)],
        ),
    ];
    for (a, b, idesc, want) in cases {
        let kind = if idesc == "0x08110910" { "tf32" } else { "f16" };
        let ptx = kernel(&format!(
            "  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n  mov.b64 %rd1, {a};\n  mov.b64 %rd2, {b};\n  mov.b32 %r1, {idesc};\n  tcgen05.mma.cta_group::1.kind::{kind} [%r2], %rd1, %rd2, %r1, %p1;"
        ));
        let report = check(ptx.as_bytes(), &Options::default());
        let mma = &report.instructions[0];
        assert_eq!(fields(mma), want, "A {a}, B {b}, idesc {idesc}:\n{ptx}");
        for f in &mma.findings {
            assert_eq!(f.rule, Rule::Check(CheckRule::SwizzleForMajor));
            assert_eq!(f.source, Source::Decision(18));
        }
    }
    // An unknown swizzle field is never reported.
    let ptx = kernel(
        "  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n  ld.param.b64 %rd1, [p];\n  mov.b64 %rd2, 0x2000404000010040;\n  mov.b32 %r1, 0x08100490;\n  tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;",
    );
    let report = check(ptx.as_bytes(), &Options::default());
    assert_eq!(
        fields(&report.instructions[0]),
        vec![("swizzle", Severity::Error, 8)]
    );
}

#[test]
fn a_partly_known_idesc_is_not_taken_as_known() {
    // The CuTe DSL run-time negate case: `selp` between two descriptors that differ in bit 13
    // (negate A), so bit 13 is unknown at compile time and the idesc is not one constant.
    let src = kernel(
        "selp.b32 %r1, 0x08100490, 0x08102490, %p2;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;",
    );
    let r = check(src.as_bytes(), &Options::default());
    let i = &r.instructions[0];
    assert_eq!(i.idesc, None, "bit 13 depends on %p2");
    let bits = i.idesc_bits.expect("the operand's known bits");
    assert_eq!(bits.known & 0x2000, 0, "bit 13 is unknown");
    assert_eq!(
        bits.value & 0xffff_dfff,
        0x0810_0490,
        "the other bits are known"
    );
    assert_eq!(i.errors().count(), 0, "nothing checked that needs bit 13");
}

#[test]
fn findings_lines_count_block_comment_newlines_and_name_the_definition() {
    // Body lines start at 6. The comment of lines 6-8 ends where the first definition is (8);
    // line 9 copies it (a `mov` between registers is no definition of the value); the MMA that
    // reads the copy is on line 10. The sparse bit (0x08100494 on a dense MMA) is a value of
    // line 8.
    let src = kernel(
        "/* a comment\n   over three\n   lines */ mov.b32 %r1, 0x08100494;\n\
         mov.b32 %r5, %r1;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r5, %p1;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r2], /* x\n y */ %rd1, %rd2, %r1, %p1;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;",
    );
    let r = check(src.as_bytes(), &Options::default());
    let at: Vec<u32> = r.instructions.iter().map(|i| i.line).collect();
    assert_eq!(at, [10, 11, 13]);
    for i in &r.instructions {
        assert_eq!(
            fields(i),
            [("sparse", Severity::Error, 8)],
            "line {}",
            i.line
        );
    }
}

#[test]
fn mixed_cta_groups_name_both_groups_in_the_order_met() {
    // PTX ISA 9.7.16: every tcgen05 instruction of a kernel uses one .cta_group. The message
    // names the group met first and the one met second, whichever order they come in.
    for (first, second) in [(2, 1), (1, 2)] {
        let src = kernel(&format!(
            "tcgen05.relinquish_alloc_permit.cta_group::{first}.sync.aligned;\n\
             tcgen05.relinquish_alloc_permit.cta_group::{second}.sync.aligned;"
        ));
        let report = check(src.as_bytes(), &Options::default());
        let messages: Vec<String> = report
            .instructions
            .iter()
            .flat_map(|i| i.findings.iter().map(|f| format!("{f}")))
            .collect();
        let want = format!("mixes .cta_group::{first} and .cta_group::{second}");
        assert!(
            messages.iter().any(|m| m.contains(&want)),
            "{want} not in {messages:?}"
        );
    }
}

#[test]
fn the_grammar_reads_each_line_and_every_departure_is_a_finding() {
    // PTX ISA 9.7.16.10.9 writes `tcgen05.mma.cta_group.kind`: `.kind` first is out of order
    // (a warning), `.cta_group` twice is an error; each line is still checked as the form it
    // spells (the sparse bit of 0x08100494 on a dense MMA, line 6). PTX ISA 9.7.16.8.3 writes
    // `.sync.aligned` before the shape: a `tcgen05.ld` without `.sync` misses it.
    let src = kernel(
        "mov.b32 %r1, 0x08100494;\n\
         tcgen05.mma.kind::f16.cta_group::1 [%r2], %rd1, %rd2, %r1, %p1;\n\
         tcgen05.mma.cta_group::1.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;\n\
         tcgen05.ld.aligned.32x32b.x1.b32 {%r3}, [%r4];\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, 5, %r1, %p1;",
    );
    let r = check(src.as_bytes(), &Options::default());
    let ids: Vec<Vec<(&str, u32)>> = r
        .instructions
        .iter()
        .map(|i| i.findings.iter().map(|f| (f.rule_id(), f.line)).collect())
        .collect();
    assert_eq!(
        ids[0],
        [("check.qualifier_order", 7), ("ptx.sparse_mismatch", 6)]
    );
    assert_eq!(r.instructions[0].findings[0].severity, Severity::Warning);
    assert_eq!(
        r.instructions[0].findings[0].source,
        Source::PtxSection("9.7.16.10.9")
    );
    assert_eq!(
        ids[1],
        [("check.duplicate_qualifier", 8), ("ptx.sparse_mismatch", 6)]
    );
    assert_eq!(ids[2], [("check.missing_qualifier", 9)]);
    // An immediate where the syntax has the b-desc register (as `tcgen05 emulate` writes
    // lines): its bits are read as a shared memory descriptor's (bits 46-48 of 5 are not
    // 0b001).
    assert!(ids[3].contains(&("smem.fixed_bits", 10)), "{:?}", ids[3]);
    assert!(!ids[3].contains(&("check.operands", 10)), "{:?}", ids[3]);
}
