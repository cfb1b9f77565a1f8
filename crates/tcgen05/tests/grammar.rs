//! The grammar round trip (issue 23) on the committed PTX examples: every tcgen05 line of
//! `examples/kernels/*.ptx` (Triton, CUTLASS and hand-written kernels) parses with
//! `tcgen05::ptx::parse` and writes back as written, up to whitespace; each line's qualifiers
//! dropped, doubled, swapped and misspelled are refused by the rule they break.
#![cfg(feature = "alloc")]

mod grammar_common;

use std::path::Path;

use grammar_common::Tally;

#[test]
fn example_kernels_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("hand")] {
        for e in std::fs::read_dir(&dir).expect("examples/kernels") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "ptx") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut t = Tally::default();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("PTX");
        t.add_text(&f.display().to_string(), &text);
    }
    eprintln!(
        "grammar round trip: {} files, {} tcgen05 lines, {} written back as written, {} mutations refused",
        files.len(),
        t.lines,
        t.round_tripped,
        t.mutations_refused
    );
    assert!(t.failures.is_empty(), "{}", t.failures.join("\n"));
    assert_eq!(t.round_tripped, t.lines);
    assert!(t.lines > 0);
}

/// Each grammar rule on a line written for it, with what the error must name (the slot, the
/// text as written, the PTX ISA section of the form's syntax).
#[test]
fn each_grammar_rule_names_the_qualifier_or_operand() {
    use tcgen05::ptx::{parse, FormRule};
    use tcgen05::ptx_reader::read;
    let mma = "tcgen05.mma.cta_group::1.kind::f16";
    let ops = "[d], a, b, i, p;";
    let cases: [(String, FormRule, &str, &str); 10] = [
        (
            format!("{mma}.kind::f16 {ops}"),
            FormRule::DuplicateQualifier,
            "kind",
            "kind::f16",
        ),
        (
            format!("tcgen05.mma.kind::f16.cta_group::1 {ops}"),
            FormRule::QualifierOrder { after: "kind" },
            "cta_group",
            "cta_group::1",
        ),
        (
            format!("tcgen05.mma.cta_group::1 {ops}"),
            FormRule::MissingQualifier,
            "kind",
            "",
        ),
        (
            format!("tcgen05.mma.cta_group::1.kind::f61 {ops}"),
            FormRule::UnknownQualifier,
            "qualifier",
            "kind::f61",
        ),
        (
            "tcgen05.mma.cta_group::1.kind::mxf4.scale_vec::2X [d], a, b, i, p;".into(),
            FormRule::QualifierNeeds {
                needs: "block_scale",
            },
            "scale_vec",
            "scale_vec::2X",
        ),
        (
            format!("{mma} [d], a, b, i, p, q, r;"),
            FormRule::ExtraOperand,
            "operands",
            "q",
        ),
        (
            format!("{mma} [d], a, b;"),
            FormRule::MissingOperand,
            "idesc",
            "",
        ),
        (
            format!("{mma} d, a, b, i, p;"),
            FormRule::OperandShape {
                expected: tcgen05::ptx::grammar::Shape::Addr,
            },
            "d-tmem",
            "d",
        ),
        (
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [s], 4294967296;".into(),
            FormRule::ImmediateTooWide {
                max: u64::from(u32::MAX),
            },
            "nCols",
            "4294967296",
        ),
        (
            "tcgen05.ld.sync.aligned.32x32b.x1.f32 {r}, [t];".into(),
            FormRule::QualifierNeeds { needs: "red" },
            "type",
            "f32",
        ),
    ];
    for (line, rule, what, text) in cases {
        let module = read(line.as_bytes());
        let ins = &module.functions[0].instructions[0];
        let e = parse(ins).expect_err(&line);
        assert_eq!((e.rule, e.what), (rule, what), "{line}: {e}");
        if !text.is_empty() {
            assert_eq!(e.text, text, "{line}");
        }
        let section = if line.starts_with("tcgen05.mma") {
            "9.7.16.10.9"
        } else if line.starts_with("tcgen05.ld") {
            "9.7.16.8.3"
        } else {
            "9.7.16.7.1"
        };
        assert_eq!(e.section, section, "{line}");
        assert!(e.to_string().contains(section), "{e}");
    }
    let module = read(b"tcgen05.mmma.cta_group::1 [d];");
    let e = parse(&module.functions[0].instructions[0]).expect_err("no such instruction");
    assert_eq!((e.rule, e.text), (FormRule::UnknownInstruction, "mmma"));
}

/// The version and target that introduced a form as written, read from the grammar, against
/// the PTX ISA's target notes and release notes (tcgen05 in 8.6 on sm_100a; `.kind::mxf4nvf4`
/// in 8.7; `.block16` / `.block32` in 8.8 with the family targets; `tcgen05.ld.red` in 8.8 on
/// sm_101a, now sm_110a).
#[test]
fn introduced_by_the_grammar() {
    use tcgen05::ptx::grammar::Arch;
    use tcgen05::ptx::parse;
    use tcgen05::ptx_reader::read;
    use tcgen05::Target;
    let mma = "[d], a, b, i, [sa], [sb], p;";
    let cases = [
        (
            "tcgen05.mma.cta_group::1.kind::f16 [d], a, b, i, p;".to_string(),
            86,
            Target::Sm100a,
            "instruction",
        ),
        (
            format!("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X {mma}"),
            87,
            Target::Sm100a,
            "kind",
        ),
        (
            format!("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 {mma}"),
            88,
            Target::Sm100f,
            "scale_vec",
        ),
        (
            format!("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32 {mma}"),
            88,
            Target::Sm100f,
            "scale_vec",
        ),
        (
            "tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {r0, r1}, m, [t];".to_string(),
            88,
            Target::Sm110a,
            "red",
        ),
        (
            "tcgen05.wait::st.sync.aligned;".to_string(),
            86,
            Target::Sm100a,
            "instruction",
        ),
    ];
    for (line, ptx, target, slot) in cases {
        let module = read(line.as_bytes());
        let form = parse(&module.functions[0].instructions[0]).expect(&line);
        let (since, name) = form.introduced();
        assert_eq!(
            (since.ptx, since.target, name),
            (ptx, Arch::Tcgen05(target), slot),
            "{line}"
        );
        assert_eq!(form.instruction().min_ptx_version(), ptx, "{line}");
    }
}

/// A qualifier newer than the file's `.version` is refused naming the version that introduced
/// it (from the grammar): `.block32` is PTX ISA 8.8, `tcgen05.ld.red` 8.8, `.kind::mxf4nvf4`
/// 8.7 (PTX ISA target notes and release notes).
#[test]
fn too_low_a_version_names_the_version_that_introduced_the_qualifier() {
    use tcgen05::ptx::{
        ASource, Context, Mma, RedOp, RedType, Reduction, ScaleVec, TmemLoad, Value,
    };
    use tcgen05::tensor_memory::{LdStShape, Num};
    use tcgen05::{CtaGroup, Kind, Target};
    let mma = |kind| {
        Mma::new(
            CtaGroup::One,
            kind,
            "d",
            ASource::Smem("a"),
            "b",
            Value::Reg("i"),
            Value::Reg("p"),
        )
    };
    let too_low = |d: tcgen05::ptx::PtxDiagnostics| {
        d.iter()
            .map(|e| e.to_string())
            .find(|s| s.contains("too low") && !s.ends_with("sm_110a"))
            .expect("a version error")
    };
    let m = mma(Kind::Mxf8f6f4).with_block_scale(ScaleVec::Block32, "sa", "sb");
    assert_eq!(
        too_low(m.validate(&Context::new(Target::Sm100a).with_version(87))),
        "PTX ISA version 8.7 is too low for .block32, which PTX ISA 8.8 introduced"
    );
    let m = mma(Kind::Mxf4nvf4).with_block_scale(ScaleVec::X2, "sa", "sb");
    assert_eq!(
        too_low(m.validate(&Context::new(Target::Sm100a).with_version(86))),
        "PTX ISA version 8.6 is too low for .kind::mxf4nvf4, which PTX ISA 8.7 introduced"
    );
    let regs = ["r0", "r1"];
    let ld = TmemLoad::new(LdStShape::S32x32b, Num::X2, &regs, "t").with_red(Reduction {
        op: RedOp::Min,
        abs: false,
        nan: false,
        ty: RedType::F32,
        redval: "m",
    });
    assert_eq!(
        too_low(ld.validate(&Context::new(Target::Sm110a).with_version(87))),
        "PTX ISA version 8.7 is too low for tcgen05.ld.red, which PTX ISA 8.8 introduced"
    );
}
