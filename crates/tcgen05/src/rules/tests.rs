//! The rulings document against the rule tables: every identifier and ruling a message can
//! print resolves in `docs/rules.md`, and the document names nothing the code lacks.

use std::collections::BTreeSet;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use super::*;
use crate::mma::Kind;

const START: &str = "<!-- rule-index:start -->\n";
const END: &str = "<!-- rule-index:end -->";

/// The rule index as the tables give it: one Markdown table per rule table.
fn index() -> String {
    let mut out = String::new();
    let mut group = "";
    for e in entries() {
        if e.group != group {
            group = e.group;
            out.push_str(&format!(
                "\n### Rules of `{group}`\n\n| id | severity | source | rule |\n|---|---|---|---|\n"
            ));
        }
        let severity = match e.rule.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let cell = |s: &str| s.replace('|', "\\|");
        out.push_str(&format!(
            "| `{}` | {severity} | {} | {} |\n",
            e.rule.id,
            cell(&e.rule.source.to_string()),
            cell(e.rule.text())
        ));
    }
    out.push('\n');
    out
}

#[test]
fn the_rule_index_is_the_rule_tables() {
    let (head, rest) = DOCUMENT.split_once(START).expect("index start marker");
    let (have, tail) = rest.split_once(END).expect("index end marker");
    let want = index();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() && have != want {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules.md");
        std::fs::write(path, format!("{head}{START}{want}{END}{tail}")).expect("write rules.md");
        return;
    }
    assert!(
        have == want,
        "the rule index of docs/rules.md differs from the rule tables; \
         UPDATE_SNAPSHOTS=1 cargo test -p tcgen05 --all-features --lib rules:: rewrites it"
    );
}

/// Every R-number a message can print: the sources of the rule tables and of the descriptors'
/// layout rows.
fn cited_rulings() -> BTreeSet<u8> {
    let mut out: BTreeSet<u8> = entries().filter_map(|e| e.rule.source.ruling()).collect();
    let mut add = |s: Source| {
        if let Source::Decision(n) = s {
            out.insert(n);
        }
    };
    for row in crate::shared_memory_descriptor::SMEM_LAYOUT {
        add(row.source);
    }
    for row in crate::zero_column_mask::ZMASK_LAYOUT {
        add(row.source);
    }
    for row in crate::tensor_memory::TMEM_ADDRESS_LAYOUT {
        add(row.source);
    }
    for kind in Kind::ALL {
        for row in crate::instruction_descriptor::layout(kind) {
            add(row.source);
        }
    }
    out
}

#[test]
fn every_cited_ruling_resolves() {
    let cited = cited_rulings();
    // The rule tables cite most of the rulings; an empty set would mean the scan is broken.
    assert!(cited.len() >= 15, "{cited:?}");
    for n in cited {
        let r = decision(n).unwrap_or_else(|| panic!("rules.md has no R{n}"));
        assert!(
            !r.body.is_empty() && r.body.contains("Evidence"),
            "R{n}: {r:?}"
        );
    }
}

#[test]
fn the_rulings_are_numbered_without_gaps_or_repeats() {
    for letter in ['R', 'E', 'D', 'T', 'C', 'I'] {
        let numbers: Vec<u32> = rulings()
            .filter_map(|r| r.name.strip_prefix(letter)?.parse().ok())
            .collect();
        let want: Vec<u32> = (1..=numbers.len() as u32).collect();
        assert_eq!(numbers, want, "{letter} rulings");
    }
    assert_eq!(rulings().filter(|r| r.name.starts_with('R')).count(), 24);
    for r in rulings() {
        assert!(r.body.contains("Evidence"), "{} has no evidence", r.name);
    }
}

/// Identifiers in backquotes in the document's prose that look like rule identifiers (a
/// prefix the tables use, a dot, snake case) or the checker's and emulator's names.
#[test]
fn the_document_names_only_rules_that_exist() {
    let prose = DOCUMENT.split_once(START).map_or(DOCUMENT, |(h, _)| h);
    let prefixes: BTreeSet<&str> = entries()
        .filter_map(|e| e.rule.id.split_once('.'))
        .map(|p| p.0)
        .collect();
    let ids: BTreeSet<&str> = entries().map(|e| e.rule.id).collect();
    let mut checked = 0;
    for (i, quoted) in prose.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        let dotted = quoted.split_once('.').is_some_and(|(p, rest)| {
            prefixes.contains(p)
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        });
        // `mma.sync` is a PTX instruction whose name looks like an identifier of `mma`.
        if dotted && quoted != "mma.sync" {
            assert!(
                ids.contains(quoted),
                "docs/rules.md names `{quoted}`, which no rule table has"
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked}");
    // Rulings cited in the prose (`R22`, `(R22)`) exist.
    for word in prose.split(|c: char| !c.is_ascii_alphanumeric()) {
        let ruling_like = word.len() >= 2
            && word.starts_with(['R', 'E', 'D', 'T'])
            && word[1..].bytes().all(|b| b.is_ascii_digit());
        if ruling_like && word.starts_with('R') {
            assert!(
                ruling(word).is_some(),
                "docs/rules.md cites {word}, which it does not have"
            );
        }
    }
}

#[test]
fn lookup_finds_rulings_and_identifiers_in_any_case() {
    assert_eq!(
        lookup("R10").map(|f| matches!(f, Found::Ruling(r) if r.name == "R10")),
        Ok(true)
    );
    assert_eq!(
        lookup(" rules.md r19 ").map(|f| matches!(f, Found::Ruling(r) if r.name == "R19")),
        Ok(true)
    );
    assert_eq!(
        lookup("e11").map(|f| matches!(f, Found::Ruling(r) if r.name == "E11")),
        Ok(true)
    );
    assert_eq!(
        lookup("PTX.WS_CTA_GROUP"),
        Ok(Found::Rule("ptx.ws_cta_group"))
    );
    // The checker's rules carry the `check.` prefix; the emulator's `operands` is its own.
    assert_eq!(lookup("operands"), Ok(Found::Rule("operands")));
    assert_eq!(entries_with_id("operands").count(), 1);
    assert_eq!(
        lookup("Check.Tmem_Columns"),
        Ok(Found::Rule("check.tmem_columns"))
    );
}

#[test]
fn unknown_names_get_close_matches() {
    let u = lookup("idesc.reserved_bits").expect_err("not a rule");
    assert_eq!(u.close[0], Some("idesc.reserved_bit"));
    let u = lookup("R99").expect_err("not a rule");
    assert!(
        u.names().all(|n| n.starts_with('R') || n.len() <= 4),
        "{u:?}"
    );
    let u = lookup("ws_cta").expect_err("not a rule");
    assert_eq!(u.close[0], Some("ptx.ws_cta_group"));
    let u = lookup("completely unrelated words").expect_err("not a rule");
    assert_eq!(u.names().count(), 0, "{u:?}");
    assert!(lookup("").is_err());
}

#[test]
fn every_identifier_is_unique_across_the_tables_and_found_by_lookup() {
    let mut seen = BTreeSet::new();
    for e in entries() {
        let id = e.rule.id;
        assert!(seen.insert(id), "{id} twice ({})", e.group);
        assert!(!e.rule.statement.is_empty(), "{id}");
        assert!(!e.rule.text().is_empty(), "{id}");
        // Every row is found by its identifier, in any case, and is the only row of it.
        assert_eq!(lookup(&id.to_uppercase()), Ok(Found::Rule(id)));
        let rows: Vec<Entry> = entries_with_id(id).collect();
        assert_eq!(rows, [e], "{id}");
    }
    assert!(seen.len() > 150, "{}", seen.len());
}

#[test]
fn decision_sources_print_the_document() {
    assert_eq!(Source::Decision(10).to_string(), "rules.md R10");
    let e = entries()
        .find(|e| e.rule.id == "ptx.ws_cta_group")
        .expect("row");
    assert_eq!(e.rule.source.ruling(), Some(16));
    assert_eq!(e.rule.source.to_string(), "rules.md R16");
}

/// Every variant of a fieldless rule enum, in the order written; the match makes a variant
/// missing from the list a compile error.
macro_rules! variants {
    ($E:ident: $($v:ident),+ $(,)?) => {{
        fn _every(e: $E) {
            match e {
                $($E::$v => {})+
            }
        }
        [$($E::$v),+]
    }};
}

/// The position of a rule's row in its table, by the rule's own lookup.
fn position(rows: &[Rule], row: &Rule) -> usize {
    rows.iter().position(|r| r == row).unwrap_or(usize::MAX)
}

#[test]
fn every_table_is_indexed_by_its_rule_enum() {
    use crate::diagnostic::check_rows_follow_enum;
    {
        use crate::shared_memory_descriptor::SmemRule;
        let rows = &crate::shared_memory_descriptor::SMEM_RULES;
        let all = variants!(SmemRule: Misaligned, OutOfRange, BaseOffsetOutOfRange, BaseOffsetWithoutSwizzle, PatternStartWithoutSwizzle, InvalidSwizzle, ReservedBit, FixedBits, AbsoluteModeTarget, AbsoluteModeSwizzle, AbsoluteModeBaseOffset, PatternStartNotLineAligned, AdvanceMisaligned, AdvanceOverflow);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::instruction_descriptor::IdescRule;
        let rows = &crate::instruction_descriptor::IDESC_RULES;
        let all = variants!(IdescRule: ReservedBit, InvalidTypeCode, TypeNotForKind, F16AccumulatorNeedsF16Inputs, MixedF16Bf16, FieldNotInLayout, SaturateNotI8, NegateI8, TransposeNotAllowed, SparsitySelectorWithoutSparsity, SparsitySelectorNotZero, FieldTooWide, NNotMultipleOf8, NOutOfRange, MNotEncodable, MNotInTable39, ScaleTypeNotForKind, SfIdNotAllowed, K96Sparse);
        check_rows_follow_enum(
            &all,
            |r| position(rows, r.row()),
            rows,
            &[
                ("InvalidTypeCode", "type_code_undefined"),
                ("F16AccumulatorNeedsF16Inputs", "f16_accumulator_inputs"),
                (
                    "SparsitySelectorWithoutSparsity",
                    "selector_without_sparsity",
                ),
                ("SparsitySelectorNotZero", "selector_not_zero"),
                ("NNotMultipleOf8", "n_not_multiple_of_8"),
                ("MNotInTable39", "m_not_in_table_39"),
            ],
        );
    }
    {
        use crate::zero_column_mask::ZmaskRule;
        let rows = &crate::zero_column_mask::ZMASK_RULES;
        let all = variants!(ZmaskRule: ReservedBit, ReservedHighBit, ColumnShift, ColumnShiftAboveMaxShift, M, N, MaskWidth, UnusedStartCount, UnusedFirstSpan, StartCountPastFirstRun);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::zero_column_mask::SolveRule;
        let rows = &crate::zero_column_mask::SOLVE_RULES;
        let all = variants!(SolveRule: M, MaskWidth, WidthMismatch, ColumnShift, ColumnShiftAboveMaxShift, RunLengthsDiffer, EdgeRunTooLong);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::shapes::MmaRule;
        let rows = &crate::shapes::MMA_RULES;
        let all = variants!(MmaRule: NoSuchRow, WsNoSuchRow, M, N, NForMnMajor8Bit, KindNotOnTarget, SparseNotOnTarget, K96NotOnTarget, K96Shape, MaxShiftWithoutWs, SwizzleForMajor, ScaleFormat);
        check_rows_follow_enum(
            &all,
            |r| position(rows, r.row()),
            rows,
            &[("NForMnMajor8Bit", "n_for_mn_major_8bit")],
        );
    }
    {
        use crate::canonical_layout::LayoutRule;
        let rows = &crate::canonical_layout::LAYOUT_RULES;
        let all = variants!(LayoutRule: NotAnInput, KindRequired, NotInKind, SubByteMnMajor, SwizzleNotAllowed, AbsoluteModeLayout, Extent, ExtentTooLarge, KCrossesSwizzleRow, IndexOutOfRange, AddressOutOfRange, Overlap, OutsideBuffer, EmptyBuffer);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::tensor_copy::TensorCopyRule;
        let rows = &crate::tensor_copy::TENSOR_COPY_RULES;
        let all = variants!(TensorCopyRule: BoxExtent, InnerWiderThanSwizzle, Destination, OutOfWindow, StorageMismatch, KStartOutsideTile);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::tensor_memory::TmemRule;
        let rows = &crate::tensor_memory::TMEM_RULES;
        let all = variants!(TmemRule: LaneOutOfRange, ColumnOutOfRange, LaneNotInWarpQuadrant, NColsOutOfRange, NColsNotPowerOfTwo, UnknownShape, ShapeOfOtherOp, InvalidNum, NumTooLargeForShape, UnknownMulticast, CpMulticastMismatch, ShiftLaneNotAligned);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::tmem_fragment::FragmentRule;
        let rows = &crate::tmem_fragment::FRAGMENT_RULES;
        let all = variants!(FragmentRule: NumTooLargeForShape, HalfSplitOffsetNotAllowed, HalfSplitOffsetTooLarge, HalvesOverlap, ThreadOutOfRange, RegisterOutOfRange, HalfOutOfRange, LanesOutsideWarpQuadrant, ColumnsPastEnd, RowOutOfRange, CpMulticastMismatch);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::data_path::DataPathRule;
        let rows = &crate::data_path::DATA_PATH_RULES;
        let all = variants!(DataPathRule: NoLayout, InvalidN, RowOutOfRange, ColumnOutOfRange, LaneAlignment, ElementBits, SfId, ScaleVecOfKind, KBlockOutOfRange, KTooLarge, NoFourBitShape, NoBlockScaling, K96Layout);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::targets::TargetError;
        let rows = &crate::targets::TARGET_RULES[..3];
        let all = variants!(TargetError: ConsumerBlackwell, NoTcgen05, Unknown);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::numerics::RuleId;
        let rows = &crate::numerics::RULES;
        let all =
            variants!(RuleId: NoSuchForm, OperandCount, ScaleCount, BadCode, SatfiniteNotInteger);
        check_rows_follow_enum(&all, |r| position(rows, r.rule()), rows, &[]);
    }
    {
        use crate::check::CheckRule;
        let rows = &crate::check::RULES;
        let all = variants!(CheckRule: UnknownQualifier, MissingQualifier, DuplicateQualifier, QualifierOrder, Operands, ImmediateTooWide, Target, NoTarget, VersionAboveModel, SwizzleForMajor, TmemColumns, AllocWithoutDealloc, SboZero, ScaleCpSplit, ScaleCpAlias, ScaleCpCtaGroup, ScaleUnwritten, AllocLeakOnPath, DoubleDealloc, AllocAfterRelinquish, TensorMapSwizzle);
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
    {
        use crate::emulator::EmuRule;
        let rows = &crate::emulator::RULES;
        let all = variants!(EmuRule: Unsupported, Operands, Qualifier, SmemOutOfRange, SmemUninitialised, TmemNotAllocated, TmemUninitialised, TmemOutOfRange, WarpQuadrant, AllocAfterRelinquish, AllocNoSpace, DeallocNotAllocated, RegisterUninitialised, CollectorEmpty, CollectorStale, NotModelled, CopiesDiffer, ShiftLane, ContainerPadding, SparseMetadata, AshiftReading);
        check_rows_follow_enum(
            &all,
            |r| position(rows, r.row()),
            rows,
            &[("Unsupported", "unsupported-instruction")],
        );
    }
    {
        use crate::ptx::PtxRule;
        let rows = &crate::ptx::PTX_RULES;
        let renamed = [("RedAbsNaNType", "red_abs_nan_type")];
        check_rows_follow_enum(&PtxRule::ALL, |r| position(rows, r.row()), rows, &renamed);
    }
    {
        use crate::zero_column_mask::ColumnMaskError as C;
        let rows = &crate::zero_column_mask::COLUMN_MASK_RULES;
        let all = [
            C::WidthTooLarge { width: 257 },
            C::BitBeyondWidth { bit: 9, width: 8 },
            C::ColumnOutOfRange {
                column: 9,
                width: 8,
            },
            C::BadDigit { byte: b'x' },
            C::NoDigits,
        ];
        check_rows_follow_enum(&all, |r| position(rows, r.row()), rows, &[]);
    }
}
