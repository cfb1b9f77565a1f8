//! Hand-written block-scaled kernels: the expected lanes and columns come from PTX ISA
//! 9.7.16.10.7 (scale_A row `i` in lane `i % 32` of every subpartition, column `i / 32`;
//! scale_B of the 2x2 layout B in lanes `n' % 32 + 64 h` and `+ 32`) and 9.7.16.9.2 (the cp
//! multicasts), and from facebookexperimental/triton#3653 (`b_scale[n] = b_scale[n % 64]`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::check::{check, CheckRule, Finding, Options, Rule};
use crate::instruction_descriptor::{IdescFields, InstructionDescriptor};
use crate::mma::{ElementType, Kind};
use crate::ptx::OperandName;

/// The instruction descriptor of an mxf8f6f4 e4m3 x e4m3 -> f32 MMA of M x N.
fn idesc(m: u16, n: u16) -> u32 {
    let f = IdescFields::new(
        Kind::Mxf8f6f4,
        ElementType::F32,
        ElementType::E4m3,
        ElementType::E4m3,
        m,
        n,
    );
    InstructionDescriptor::try_new(f)
        .map(InstructionDescriptor::bits)
        .unwrap_or(0)
}

/// Line 7 is the first cp (one cp a line from there), the MMA the line after the last.
fn kernel(group: u32, m: u16, n: u16, cps: &[(&str, &str)], sfa: &str, sfb: &str) -> String {
    let mut s = format!(
        ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k() {{\n\
         .reg .b32 %r<40>; .reg .b64 %rd<40>; .reg .pred %p<2>;\n\
         mov.b32 %r1, {};\n",
        idesc(m, n)
    );
    for (i, (quals, addr)) in cps.iter().enumerate() {
        s += &format!("tcgen05.cp.cta_group::{quals} [{addr}], %rd{};\n", i + 10);
    }
    s += &format!(
        "mov.b32 %r2, 0;\nmov.b32 %r3, {sfa};\nmov.b32 %r4, {sfb};\n\
         tcgen05.mma.cta_group::{group}.kind::mxf8f6f4.block_scale.scale_vec::1X [%r2], %rd1, %rd2, %r1, [%r3], [%r4], %p1;\n\
         ret;\n}}\n"
    );
    s
}

/// The findings of the checker's scale-factor rules, and the unlinked count.
fn scale_findings(ptx: &str) -> (Vec<Finding>, usize) {
    let report = check(ptx.as_bytes(), &Options::default());
    let ours = [
        CheckRule::ScaleCpSplit,
        CheckRule::ScaleCpAlias,
        CheckRule::ScaleCpCtaGroup,
        CheckRule::ScaleUnwritten,
    ];
    let findings = report
        .instructions
        .iter()
        .flat_map(|i| i.findings.iter().copied())
        .filter(|f| matches!(f.rule, Rule::Check(r) if ours.contains(&r)))
        .collect();
    (findings, report.scale_operands_unlinked)
}

/// CUTLASS's 1-CTA M = 128 mainloop: scale_A and scale_B each by one `.32x128b.warpx4` cp, 4
/// columns each (128 rows / 32 lanes), at columns 256 and 260.
#[test]
fn cutlass_like_one_cta_chain_is_clean() {
    let ptx = kernel(
        1,
        128,
        128,
        &[("1.32x128b.warpx4", "%r5"), ("1.32x128b.warpx4", "%r6")],
        "256",
        "260",
    )
    .replace(
        "mov.b32 %r1,",
        "mov.b32 %r5, 256;\nmov.b32 %r6, 260;\nmov.b32 %r1,",
    );
    let (f, unlinked) = scale_findings(&ptx);
    assert!(f.is_empty(), "{f:?}");
    assert_eq!(unlinked, 0);
}

/// The same kernel with `.128x128b` for scale_A: source row r lands only in lane r, but row 0
/// is read in lanes 0, 32, 64 and 96, which hold source rows 0, 32, 64 and 96.
#[test]
fn cp_128x128b_splits_scale_a_over_subpartitions() {
    let ptx = kernel(
        1,
        128,
        128,
        &[("1.128x128b", "256"), ("1.32x128b.warpx4", "260")],
        "256",
        "260",
    );
    let (f, _) = scale_findings(&ptx);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].rule, Rule::Check(CheckRule::ScaleCpSplit));
    assert_eq!(f[0].operand, Some(OperandName::ScaleA));
    assert_eq!(f[0].value, crate::check::FindingValue::Number(0));
    assert_eq!(f[0].line, 7); // the cp
    assert_eq!(f[0].rule_id(), "check.scale_cp_split");
    assert_eq!(f[0].severity, crate::diagnostic::Severity::Warning);
}

/// facebookexperimental/triton#3653: M = 128 with `.cta_group::2` (layout B) and scale_B
/// copied with `.32x128b.warpx4` as for the 4x1 layouts: column 64 reads column 0's scale.
/// With `.64x128b.warpx2::01_23` (column n' in lanes n' % 32 + 64 h and + 32) it is clean.
#[test]
fn triton_3653_scale_b_alias_and_its_fix() {
    let bad = kernel(
        2,
        128,
        128,
        &[("2.32x128b.warpx4", "256"), ("2.32x128b.warpx4", "260")],
        "256",
        "260",
    );
    let (f, _) = scale_findings(&bad);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].rule, Rule::Check(CheckRule::ScaleCpAlias));
    assert_eq!(f[0].operand, Some(OperandName::ScaleB));
    assert_eq!(f[0].value, crate::check::FindingValue::Number(64));
    assert_eq!(f[0].line, 8);
    let good = kernel(
        2,
        128,
        128,
        &[
            ("2.32x128b.warpx4", "256"),
            ("2.64x128b.warpx2::01_23", "260"),
        ],
        "256",
        "260",
    );
    let (f, _) = scale_findings(&good);
    assert!(f.is_empty(), "{f:?}");
    // `.warpx2::02_13` puts row r in lanes r and r + 64: column 32 (lanes 0 and 32, column
    // 1 of layout B) would read row 0 in lane 0 and row 32 in lane 32.
    let other = kernel(
        2,
        128,
        128,
        &[
            ("2.32x128b.warpx4", "256"),
            ("2.64x128b.warpx2::02_13", "260"),
        ],
        "256",
        "260",
    );
    let (f, _) = scale_findings(&other);
    assert_eq!(f.len(), 2, "{f:?}");
    assert_eq!(f[0].rule, Rule::Check(CheckRule::ScaleCpSplit));
}

/// scale_B read from columns 264-267, but the cps wrote 256-259 and 260-263.
#[test]
fn scale_address_no_cp_wrote() {
    let ptx = kernel(
        1,
        128,
        128,
        &[("1.32x128b.warpx4", "256"), ("1.32x128b.warpx4", "260")],
        "256",
        "264",
    );
    let (f, _) = scale_findings(&ptx);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].rule, Rule::Check(CheckRule::ScaleUnwritten));
    assert_eq!(f[0].operand, Some(OperandName::ScaleB));
    assert_eq!(f[0].value, crate::check::FindingValue::Number(264));
    assert_eq!(f[0].rule_id(), "check.scale_unwritten");
}

/// M = 256 with `.cta_group::2`: the scale_B cp lacks `.cta_group::2`, so the peer CTA's
/// Tensor Memory never receives scale_B.
#[test]
fn two_cta_pair_cp_without_cta_group_2() {
    let ptx = kernel(
        2,
        256,
        128,
        &[("2.32x128b.warpx4", "256"), ("1.32x128b.warpx4", "260")],
        "256",
        "260",
    );
    let (f, _) = scale_findings(&ptx);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].rule, Rule::Check(CheckRule::ScaleCpCtaGroup));
    assert_eq!(f[0].operand, Some(OperandName::ScaleB));
    assert_eq!(f[0].line, 8);
    let fixed = ptx.replace("cta_group::1.32x128b", "cta_group::2.32x128b");
    assert!(scale_findings(&fixed).0.is_empty());
}

/// An operand whose address is not known is counted, never guessed; a cp whose address is
/// not known makes the written set incomplete, so no "unwritten" finding.
#[test]
fn unknown_addresses_say_nothing() {
    let ptx = kernel(
        1,
        128,
        128,
        &[("1.128x128b", "%r30"), ("1.32x128b.warpx4", "260")],
        "%r31",
        "264",
    )
    .replace("mov.b32 %r3, %r31;", "ld.shared.b32 %r3, [%rd5];");
    let (f, unlinked) = scale_findings(&ptx);
    assert!(f.is_empty(), "{f:?}");
    assert_eq!(unlinked, 1);
}

/// Triton writes `.block_scale.block32` (1X for mxf8f6f4): the same triton#3653 copy is found.
#[test]
fn block32_spelling_is_read_as_1x() {
    let ptx = kernel(
        2,
        128,
        128,
        &[("2.32x128b.warpx4", "256"), ("2.32x128b.warpx4", "260")],
        "256",
        "260",
    )
    .replace("scale_vec::1X", "block32");
    let (f, _) = scale_findings(&ptx);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].rule, Rule::Check(CheckRule::ScaleCpAlias));
}

/// NVFP4 (mxf4nvf4, `.block16`: four UE4M3 scales fill each 32-bit cell), M = 128, N = 256,
/// one CTA: scale_A by one `.32x128b.warpx4` (4 columns), scale_B by two (8 columns for 256
/// columns of B, column n / 32): clean. Reading scale_B from column 266 instead of 264
/// reads columns 266-273, and the cps wrote up to 271: column 272 is unwritten.
#[test]
fn nvf4_block16_chain_and_a_shifted_scale_b() {
    let f = IdescFields::new(
        Kind::Mxf4nvf4,
        ElementType::F32,
        ElementType::E2m1,
        ElementType::E2m1,
        128,
        256,
    )
    .with_scale(crate::mma::ScaleType::Ue4m3, 0, 0);
    let bits = InstructionDescriptor::try_new(f)
        .map(InstructionDescriptor::bits)
        .unwrap_or(0);
    let base = kernel(
        1,
        128,
        128,
        &[
            ("1.32x128b.warpx4", "256"),
            ("1.32x128b.warpx4", "264"),
            ("1.32x128b.warpx4", "268"),
        ],
        "256",
        "264",
    )
    .replace(&format!("{}", idesc(128, 128)), &format!("{bits}"))
    .replace(
        "kind::mxf8f6f4.block_scale.scale_vec::1X",
        "kind::mxf4nvf4.block_scale.block16",
    );
    let (found, unlinked) = scale_findings(&base);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(unlinked, 0);
    let shifted = base.replace("mov.b32 %r4, 264;", "mov.b32 %r4, 266;");
    let (found, _) = scale_findings(&shifted);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, Rule::Check(CheckRule::ScaleUnwritten));
    assert_eq!(found[0].value, crate::check::FindingValue::Number(272));
}

/// The same chain with UE5M3 scale factors on `sm_107a` (bits 23-24 = 2, rulings D7 and D9,
/// written from CuTe DSL's and Triton's code; `.block16`, 16-element blocks as UE4M3): linked
/// and clean, and the shifted scale_B is the same unwritten column 272. On `sm_100a` the word's
/// bit 24 is reserved, so the descriptor is not read and both operands stay unlinked.
#[test]
fn nvf4_ue5m3_block16_chain_on_sm_107a() {
    // Table 44: E2M1 A and B (codes 1 at 7 and 10), N = 256 (32 at 17-22), bits 23-24 = 2
    // (UE5M3), M = 128 (1 at 27-28).
    let bits: u32 = 1 << 7 | 1 << 10 | 32 << 17 | 2 << 23 | 1 << 27;
    let base = kernel(
        1,
        128,
        128,
        &[
            ("1.32x128b.warpx4", "256"),
            ("1.32x128b.warpx4", "264"),
            ("1.32x128b.warpx4", "268"),
        ],
        "256",
        "264",
    )
    .replace(&format!("{}", idesc(128, 128)), &format!("{bits}"))
    .replace(
        "kind::mxf8f6f4.block_scale.scale_vec::1X",
        "kind::mxf4nvf4.block_scale.block16",
    );
    let sm107 = base
        .replace(".version 8.7", ".version 9.4")
        .replace(".target sm_100a", ".target sm_107a");
    let (found, unlinked) = scale_findings(&sm107);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(unlinked, 0);
    let shifted = sm107.replace("mov.b32 %r4, 264;", "mov.b32 %r4, 266;");
    let (found, _) = scale_findings(&shifted);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, Rule::Check(CheckRule::ScaleUnwritten));
    assert_eq!(found[0].value, crate::check::FindingValue::Number(272));
    // sm_100a: bit 24 is reserved there, the descriptor is not read.
    let (_, unlinked) = scale_findings(&base.replace(".version 8.7", ".version 9.4"));
    assert_eq!(unlinked, 2);
}

/// Each scale-factor rule has one row of the checker's table, with its own identifier, citing
/// the scale-factor section.
#[test]
fn every_scale_rule_has_one_row() {
    let ours = [
        (CheckRule::ScaleCpSplit, "check.scale_cp_split"),
        (CheckRule::ScaleCpAlias, "check.scale_cp_alias"),
        (CheckRule::ScaleCpCtaGroup, "check.scale_cp_cta_group"),
        (CheckRule::ScaleUnwritten, "check.scale_unwritten"),
    ];
    for (rule, id) in ours {
        assert_eq!(rule.row().id, id);
        assert_eq!(
            rule.source(),
            crate::diagnostic::Source::PtxSection("9.7.16.10.7")
        );
        assert_eq!(crate::check::RULES.iter().filter(|r| r.id == id).count(), 1);
    }
}
