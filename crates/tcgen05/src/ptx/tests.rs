use super::*;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Severity;
use crate::diagnostic::Source;
use crate::mma::Kind;
use crate::tensor_memory::CpMulticast;
use crate::tensor_memory::CpShape;
use crate::tensor_memory::LdStShape;
use crate::tensor_memory::Num;
use crate::zero_column_mask::ZmaskError;
use std::{string::String, vec::Vec};

fn text(i: Instruction<'_>, ctx: &Context) -> String {
    let mut s = String::new();
    i.render(ctx, &mut s).expect("valid form");
    s
}

fn rules(i: Instruction<'_>, ctx: &Context) -> Vec<&'static str> {
    i.validate(ctx).errors().map(|e| e.field()).collect()
}

const A100: Context = Context::new(Target::Sm100a);

fn base() -> Mma<'static> {
    Mma::new(
        CtaGroup::One,
        Kind::F16,
        "d",
        ASource::Smem("adesc"),
        "bdesc",
        Value::Reg("idesc"),
        Value::Reg("p"),
    )
}

#[test]
fn oracle_minimal_kernel_instructions() {
    // The instructions of the minimal kernel in oracles.md section 1, as written there.
    let m = base();
    assert_eq!(
        text(Instruction::Mma(m), &A100),
        "tcgen05.mma.cta_group::1.kind::f16 [d], adesc, bdesc, idesc, p;"
    );
    let alloc = Alloc {
        cta_group: CtaGroup::One,
        dst: "smem_slot",
        n_cols: Value::Imm(32),
        exclusive: false,
    };
    assert_eq!(
        text(Instruction::Alloc(alloc), &A100),
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem_slot], 32;"
    );
    let c = Commit {
        cta_group: CtaGroup::One,
        mbar: "mbar",
        multicast: None,
        multicast_spelling: CommitMulticast::Cluster,
        sync_restrict_a: false,
    };
    assert_eq!(
        text(Instruction::Commit(c), &A100),
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];"
    );
    let regs = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"];
    let ld = TmemLoad::new(LdStShape::S32x32b, Num::X8, &regs, "taddr");
    assert_eq!(
        text(Instruction::Load(ld), &A100),
        "tcgen05.ld.sync.aligned.32x32b.x8.b32 {r0,r1,r2,r3,r4,r5,r6,r7}, [taddr];"
    );
    assert_eq!(
        text(Instruction::Wait(Wait::Ld), &A100),
        "tcgen05.wait::ld.sync.aligned;"
    );
    let dealloc = Dealloc {
        cta_group: CtaGroup::One,
        taddr: "taddr",
        n_cols: Value::Imm(32),
        exclusive: false,
    };
    assert_eq!(
        text(Instruction::Dealloc(dealloc), &A100),
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, 32;"
    );
}

#[test]
fn every_mma_option_renders_in_syntax_order() {
    let lanes = ["l0", "l1", "l2", "l3"];
    let m = base()
        .with_sparse("meta")
        .with_collector(Collector::A(CollectorOp::Lastuse))
        .with_ashift(true)
        .with_disable_output_lane(&lanes)
        .with_scale_input_d(15);
    let m = Mma {
        a: ASource::Tmem("atmem"),
        enable_input_d: Value::Imm(true),
        ..m
    };
    assert_eq!(
        text(Instruction::Mma(m), &A100),
        "tcgen05.mma.sp.cta_group::1.kind::f16.ashift.collector::a::lastuse [d], [atmem], \
         bdesc, [meta], idesc, {l0,l1,l2,l3}, 1, 15;"
    );
    let ws = base()
        .with_ws(true)
        .with_collector(Collector::B(3, CollectorOp::Fill))
        .with_zero_column_mask(Value::Reg("zm"));
    assert_eq!(
        text(Instruction::Mma(ws), &A100),
        "tcgen05.mma.ws.cta_group::1.kind::f16.collector::b3::fill [d], adesc, bdesc, idesc, p, zm;"
    );
    let bs = Mma {
        kind: Kind::Mxf4nvf4,
        ..base()
    }
    .with_block_scale(ScaleVec::X4, "sfa", "sfb");
    assert_eq!(
        text(
            Instruction::Mma(bs),
            &Context::new(Target::Sm100a).with_version(87)
        ),
        "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [d], adesc, bdesc, \
         idesc, [sfa], [sfb], p;"
    );
}

#[test]
fn each_mma_rule_is_reported_with_its_field() {
    let two = Mma {
        cta_group: CtaGroup::Two,
        ..base()
    };
    assert_eq!(
        rules(Instruction::Mma(two.with_ws(true)), &A100),
        ["cta_group"]
    );
    let mx = Mma {
        kind: Kind::Mxf8f6f4,
        ..base()
    };
    assert_eq!(rules(Instruction::Mma(mx), &A100), ["block_scale"]);
    assert_eq!(
        rules(
            Instruction::Mma(mx.with_block_scale(ScaleVec::X2, "a", "b")),
            &A100
        ),
        ["scale_vec"]
    );
    assert_eq!(
        rules(Instruction::Mma(base().with_ashift(true)), &A100),
        ["ashift"]
    );
    assert_eq!(
        rules(Instruction::Mma(base().with_scale_input_d(16)), &A100),
        ["scale_input_d"]
    );
    let i8 = Mma {
        kind: Kind::I8,
        ..base()
    };
    assert_eq!(
        rules(Instruction::Mma(i8), &Context::new(Target::Sm103a)),
        ["target"]
    );
    let e = i8.with_scale_input_d(1).validate(&A100);
    assert_eq!(e.len(), 1);
    assert!(!e.get(0).map(|e| e.ptxas_checks()).unwrap_or(true));
    let three = ["a", "b", "c"];
    assert_eq!(
        rules(
            Instruction::Mma(base().with_disable_output_lane(&three)),
            &A100
        ),
        ["disable_output_lane"]
    );
    assert_eq!(
        rules(Instruction::Mma(Mma { d: "1d", ..base() }), &A100),
        ["d_tmem"]
    );
    // Every problem, not only the first.
    let many = two.with_ws(true).with_ashift(true).with_scale_input_d(20);
    assert!(many.validate(&A100).len() >= 4);
}

#[test]
fn immediate_descriptors_are_checked() {
    let ok = Mma {
        idesc: Value::Imm(0x0810_0490),
        ..base()
    };
    assert!(ok.validate(&A100).is_empty());
    // M = 48: ptxas accepts, Table 39 does not.
    let m48 = Mma {
        idesc: Value::Imm(0x0310_0490),
        ..base()
    };
    let d = m48.validate(&A100);
    assert!(d.has_errors());
    assert!(d.errors().all(|e| !e.ptxas_checks()));
    // Sparsity bit without .sp.
    let sp = Mma {
        idesc: Value::Imm(0x0810_0494),
        ..base()
    };
    assert!(sp.validate(&A100).errors().any(|e| e.field() == "sparse"));
    // A zero-column mask with a reserved bit.
    let ws = Mma {
        idesc: Value::Imm(0x0810_0490),
        ..base()
    }
    .with_ws(true)
    .with_zero_column_mask(Value::Imm(1 << 62));
    assert!(ws.validate(&A100).has_errors());
}

#[test]
fn load_store_rules() {
    let two = ["a", "b"];
    let ld = TmemLoad::new(LdStShape::S16x32bx2, Num::X2, &two, "t");
    assert_eq!(rules(Instruction::Load(ld), &A100), ["offset"]);
    assert_eq!(
        text(Instruction::Load(ld.with_offset(2)), &A100),
        "tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {a,b}, [t], 2;"
    );
    let st = TmemStore::new(LdStShape::S16x32bx2, Num::X2, "t", &two)
        .with_offset(2)
        .with_unpack(true);
    assert_eq!(
        text(Instruction::Store(st), &A100),
        "tcgen05.st.sync.aligned.16x32bx2.x2.unpack::16b.b32 [t], 2, {a,b};"
    );
    let short = TmemLoad::new(LdStShape::S16x128b, Num::X2, &two, "t");
    assert_eq!(rules(Instruction::Load(short), &A100), ["registers"]);
    let dup = ["a", "a"];
    let ld = TmemLoad::new(LdStShape::S32x32b, Num::X2, &dup, "t");
    assert_eq!(rules(Instruction::Load(ld), &A100), ["registers"]);
    let red = TmemLoad::new(LdStShape::S32x32b, Num::X2, &two, "t").with_red(Reduction {
        op: RedOp::Max,
        abs: true,
        nan: true,
        ty: RedType::F32,
        redval: "m",
    });
    assert_eq!(rules(Instruction::Load(red), &A100), ["target", "version"]);
    assert_eq!(
        rules(Instruction::Load(red), &A100.with_version(88)),
        ["target"]
    );
    assert_eq!(
        text(Instruction::Load(red), &Context::new(Target::Sm103a)),
        "tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.NaN.f32 {a,b}, m, [t];"
    );
}

#[test]
fn other_instructions() {
    let cp = Cp::new(
        CtaGroup::Two,
        CpShape::S64x128b,
        CpMulticast::Warpx2_01_23,
        "t",
        Value::Reg("s"),
    )
    .with_source_format(CpSourceFormat::B4x16P64);
    assert_eq!(
        text(Instruction::Cp(cp), &A100),
        "tcgen05.cp.cta_group::2.64x128b.warpx2::01_23.b8x16.b4x16_p64 [t], s;"
    );
    let bad = Cp {
        multicast: CpMulticast::None,
        ..cp
    };
    assert_eq!(rules(Instruction::Cp(bad), &A100), ["multicast"]);
    let sh = Shift {
        cta_group: CtaGroup::One,
        taddr: "t",
    };
    assert_eq!(
        text(Instruction::Shift(sh), &A100),
        "tcgen05.shift.cta_group::1.down [t];"
    );
    assert_eq!(
        rules(Instruction::Shift(sh), &Context::new(Target::Sm100f)),
        ["target"]
    );
    let a96 = Alloc {
        cta_group: CtaGroup::One,
        dst: "slot",
        n_cols: Value::Imm(96),
        exclusive: false,
    };
    let d = Instruction::Alloc(a96).validate(&A100);
    assert_eq!(d.len(), 1);
    assert_eq!(d.get(0).map(|e| e.field()), Some("n_cols"));
    let c = Commit {
        cta_group: CtaGroup::Two,
        mbar: "bar",
        multicast: Some(Value::Imm(3)),
        multicast_spelling: CommitMulticast::Cluster,
        sync_restrict_a: false,
    };
    assert_eq!(
        text(Instruction::Commit(c), &A100),
        "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [bar], 0x3;"
    );
}

#[test]
fn versions_and_kernels() {
    let bs = Mma {
        kind: Kind::Mxf4nvf4,
        ..base()
    }
    .with_block_scale(ScaleVec::Block16, "a", "b");
    assert_eq!(rules(Instruction::Mma(bs), &A100), ["version"]);
    let body = [
        Instruction::Mma(bs),
        Instruction::Fence(Fence::AfterThreadSync),
    ];
    let ctx = Context::for_instructions(Target::Sm100a, &body);
    assert_eq!(ctx.version, 88);
    assert!(validate_kernel(&ctx, &body).is_empty());
    let mixed = [
        Instruction::Mma(base()),
        Instruction::RelinquishAllocPermit(CtaGroup::Two),
    ];
    let d = validate_kernel(&A100, &mixed);
    assert_eq!(
        d.errors().map(|e| e.field()).collect::<Vec<_>>(),
        ["cta_group"]
    );
    // 9.2 to 9.5 are read (ptxas 13.5 reads up to 9.5 and refuses 9.6).
    for v in [92, 93, 94, 95] {
        assert!(rules(Instruction::Wait(Wait::St), &A100.with_version(v)).is_empty());
    }
    assert_eq!(
        rules(Instruction::Wait(Wait::St), &A100.with_version(96)),
        ["version"]
    );
    // sm_107a exists from PTX ISA 9.4 on (PTX ISA 9.4 Table 71).
    let a107 = Context::new(Target::Sm107a);
    assert_eq!(a107.version, 94);
    assert!(rules(Instruction::Wait(Wait::St), &a107).is_empty());
    assert_eq!(
        rules(Instruction::Wait(Wait::St), &a107.with_version(93)),
        ["version"]
    );
    let mut s = String::new();
    Context::new(Target::Sm110a)
        .write_preamble(&mut s)
        .expect("a String never fails");
    assert_eq!(s, ".version 9.0\n.target sm_110a\n.address_size 64\n");
    assert!(is_identifier("%r1") && is_identifier("x_$1") && !is_identifier("%"));
    assert!(!is_identifier("1r") && !is_identifier("a b") && !is_identifier(""));
    assert!(is_operand_name("{taddr}") && is_operand_name("{0}") && is_operand_name("%rd1"));
    for bad in ["{}", "{t", "t}", "{a b}", "{1a}", "{{t}}", "{%r}"] {
        assert!(!is_operand_name(bad), "{bad}");
    }
}

/// Issue 16 D6: the text of an operand, to show a bad name as typed.
#[test]
fn operand_text_gives_the_name_as_given() {
    let ld = TmemLoad::new(LdStShape::S32x32b, Num::X2, &["a", "9b"], "[x]");
    let i = Instruction::Load(ld);
    assert_eq!(i.operand_text(OperandName::Taddr, 0), Some("[x]"));
    assert_eq!(i.operand_text(OperandName::Registers, 1), Some("9b"));
    assert_eq!(i.operand_text(OperandName::Registers, 2), None);
    assert_eq!(i.operand_text(OperandName::Taddr, 1), None);
    assert_eq!(i.operand_text(OperandName::Mbar, 0), None);
    let d = i.validate(&Context::new(Target::Sm100a));
    let names: Vec<_> = d
        .iter()
        .filter_map(|e| match e {
            PtxError::Rule {
                rule: PtxRule::RegisterName(op),
                value,
                ..
            } => i.operand_text(op, value as usize),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["[x]", "9b"]);
}

#[test]
fn ptx_rule_rows_follow_the_enum() {
    // Every row's identifier is `ptx.snake_case` and unique, and the rows are in the order of
    // `PtxRule::index`, so that each rule reads its own row.
    crate::diagnostic::check_rule_ids("ptx", PtxRule::ALL.iter().map(|r| r.row()));
    for (i, rule) in PtxRule::ALL.into_iter().enumerate() {
        assert_eq!(&super::error::PTX_RULES[i], rule.row());
        assert_eq!(rule.index(), i, "{}", rule.id());
    }
}

#[test]
fn ptx_rule_rows_say_what_the_rules_said() {
    // Field, source and whether ptxas checks it, for every rule, as the PTX text (and the
    // ptxas measurements of conformance/ptxas) give them.
    use PtxRule as R;
    let sec = Source::PtxSection;
    let expected: [(PtxRule, &str, Source, bool); 51] = [
        (
            R::RegisterName(OperandName::Taddr),
            "taddr",
            sec("4.4"),
            true,
        ),
        (R::DuplicateRegister, "registers", sec("9.7.16.8.3"), true),
        (
            R::BlockScaleMissing,
            "block_scale",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (
            R::BlockScaleNotForKind,
            "block_scale",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (
            R::ScaleVecNotForKind,
            "scale_vec",
            sec("9.7.16.10.7.1"),
            true,
        ),
        (R::ScaleVecRequired, "scale_vec", sec("9.7.16.10.7.1"), true),
        (R::ScaleVecNotOnTarget, "target", sec("9.7.16.10.9.1"), true),
        (
            R::ScaleTypeForScaleVec,
            "scale_type",
            Source::Decision(12),
            false,
        ),
        (
            R::ScaleFactorIdForScaleVec,
            "sf_id",
            Source::Decision(13),
            false,
        ),
        (R::WsCtaGroup, "cta_group", Source::Decision(16), true),
        (R::WsBlockScaled, "ws", Source::Decision(16), true),
        (R::WsAshift, "ashift", sec("9.7.16.10.9.3"), true),
        (
            R::WsDisableOutputLane,
            "disable_output_lane",
            sec("9.7.16.10.9.3"),
            true,
        ),
        (
            R::WsScaleInputD,
            "scale_input_d",
            sec("9.7.16.10.9.3"),
            true,
        ),
        (R::CollectorAWithWs, "collector", sec("9.7.16.10.9.3"), true),
        (
            R::CollectorBWithoutWs,
            "collector",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (R::CollectorBIndex, "collector", sec("9.7.16.10.9.3"), true),
        (R::AshiftNeedsATmem, "ashift", sec("9.7.16.10.9.1"), true),
        (R::AshiftCollector, "collector", sec("9.7.16.10.9.1"), true),
        (R::AshiftBlockScaled, "ashift", sec("9.7.16.10.9.1"), true),
        (R::AshiftM, "m", sec("9.7.16.10.9.1"), false),
        (
            R::DisableOutputLaneLength,
            "disable_output_lane",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (
            R::DisableOutputLaneBlockScaled,
            "disable_output_lane",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (
            R::ScaleInputDRange,
            "scale_input_d",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (
            R::ScaleInputDKind,
            "scale_input_d",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (
            R::ScaleInputDI8,
            "scale_input_d",
            sec("9.7.16.10.9.1"),
            false,
        ),
        (
            R::ScaleInputDNotOnTarget,
            "target",
            sec("9.7.16.10.9.1"),
            true,
        ),
        (
            R::ZeroColumnMaskWithoutWs,
            "zero_column_mask",
            sec("9.7.16.10.9.3"),
            true,
        ),
        (R::KindNotOnTarget, "target", Source::Decision(17), true),
        (R::SparseNotOnTarget, "target", Source::Decision(17), true),
        (R::SparseMismatch, "sparse", sec("9.7.16.4.2"), false),
        (R::RegisterCount, "registers", Source::PtxTable(49), true),
        (R::OffsetMissing, "offset", sec("9.7.16.8.3"), true),
        (R::OffsetNotForShape, "offset", sec("9.7.16.8.3"), true),
        (R::OffsetOutOfRange, "offset", Source::Decision(24), false),
        (R::RedNotOnTarget, "target", sec("9.7.16.8.3"), true),
        (R::RedShape, "shape", sec("9.7.16.8.3"), true),
        (R::RedNum, "num", sec("9.7.16.8.3"), true),
        (R::RedPack, "pack", sec("9.7.16.8.3"), true),
        (R::RedAbsNaNType, "red", sec("9.7.16.8.3"), true),
        (R::ShiftNotOnTarget, "target", sec("9.7.16.9.3"), true),
        (R::CtaGroupMixed, "cta_group", sec("9.7.16.10.9.1"), true),
        (R::VersionTooLow, "version", sec("9.7.16"), true),
        (R::VersionTooHigh, "version", sec("9.7.16"), true),
        (R::Sm107NotOnTarget, "target", sec("9.7.16"), true),
        (R::DecompressKind, "kind", sec("9.7.16.10.9"), true),
        (R::DecompressForm, "decompress", sec("9.7.16.10.9"), true),
        (R::CollectorBWithWs, "collector", sec("9.7.16.10.9"), true),
        (R::SpcompressNotOnTarget, "target", sec("9.7.16"), true),
        (R::SpcompressForm, "spcompress", sec("9.7.16.8.3"), true),
        (R::SpcompressCount, "registers", sec("9.7.16.8.3"), true),
    ];
    for (rule, field, source, ptxas) in expected {
        let e = PtxError::rule(rule, 1);
        assert_eq!(
            (e.field(), e.source(), e.ptxas_checks(), e.severity()),
            (field, source, ptxas, Severity::Error),
            "{}",
            rule.id()
        );
        assert_eq!(e.rule_id(), Some(rule.id()));
    }
    // Every rule is listed above once.
    let mut listed: Vec<usize> = expected.iter().map(|(r, ..)| r.index()).collect();
    listed.sort_unstable();
    listed.dedup();
    assert_eq!(listed.len(), PtxRule::ALL.len());
    // The wrapped errors take their rule from their own table.
    let tmem = PtxError::Tmem(crate::tensor_memory::TmemError::InvalidNum { num: 3 });
    assert_eq!(tmem.rule_id(), Some("tmem.invalid_num"));
    assert!(tmem.ptxas_checks());
    let zmask = PtxError::Zmask(ZmaskError::ReservedBit { bit: 62 });
    assert_eq!(zmask.rule_id(), Some("zmask.reserved_high_bit"));
    assert!(!zmask.ptxas_checks());
}

/// `read` gives each `good` name its value and refuses each `bad` one.
fn reads_names<T: PartialEq + core::fmt::Debug>(
    read: impl Fn(&str) -> Option<T>,
    good: &[(&str, T)],
    bad: &[&str],
) {
    for (text, want) in good {
        assert_eq!(read(text).as_ref(), Some(want), "{text}");
    }
    for text in bad {
        assert_eq!(read(text), None, "{text}");
    }
}

/// The names the CLI and Python read through the core: the collector qualifiers of PTX ISA
/// 9.7.16.10.9.1 (`.collector::a::{fill,use,lastuse,discard}`, `.collector::bN::op`), the
/// scale-vector qualifiers of Tables 56-57, the major-ness of 9.7.16.10.4; each written as
/// PTX writes it, without its prefix, and in other case; misspellings refused.
#[test]
fn collector_scale_vec_and_major_names_read_through_the_core() {
    use crate::mma::Major;
    let ops = [
        ("fill", CollectorOp::Fill),
        ("use", CollectorOp::Use),
        ("lastuse", CollectorOp::Lastuse),
        ("discard", CollectorOp::Discard),
    ];
    let mut names = Vec::new();
    for (name, op) in ops {
        names.extend([
            (std::format!("a::{name}"), Collector::A(op)),
            (std::format!(".collector::a::{name}"), Collector::A(op)),
            (
                std::format!("COLLECTOR::A::{}", name.to_uppercase()),
                Collector::A(op),
            ),
            (std::format!("b0::{name}"), Collector::B(0, op)),
            (std::format!("collector::b3::{name}"), Collector::B(3, op)),
            (std::format!("b7::{name}"), Collector::B(7, op)),
        ]);
    }
    let good: Vec<(&str, Collector)> = names.iter().map(|(t, c)| (t.as_str(), *c)).collect();
    let bad = [
        "b::fill",
        "a::fil",
        "c::use",
        "b01::use",
        "a",
        "",
        "collector::",
    ];
    reads_names(Collector::from_name, &good, &bad);
    let good = [
        (".scale_vec::1X", ScaleVec::X1),
        ("2x", ScaleVec::X2),
        ("scale_vec::4X", ScaleVec::X4),
        ("block16", ScaleVec::Block16),
        (".block32", ScaleVec::Block32),
        ("default", ScaleVec::Default),
        ("none", ScaleVec::Default),
    ];
    let bad = [
        "3X",
        "8X",
        "",
        "scale_vec::",
        "block64",
        ".scale_vec::block16x",
    ];
    reads_names(ScaleVec::from_name, &good, &bad);
    let good = [
        ("k", Major::K),
        ("K", Major::K),
        (" mn ", Major::Mn),
        ("MN", Major::Mn),
        ("m", Major::Mn),
        ("n", Major::Mn),
    ];
    reads_names(Major::from_name, &good, &["km", "", "row", "mnk"]);
}
