use super::tables::problems_by_table;
use super::*;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Severity;
use crate::diagnostic::Source;
use crate::mma::ElementType::*;
use std::{format, string::ToString, vec, vec::Vec};

fn errors_of(f: IdescFields) -> Vec<IdescError> {
    f.validate().iter().collect()
}

fn fields_named(f: IdescFields) -> Vec<&'static str> {
    f.validate().iter().map(|e| e.field()).collect()
}

#[test]
fn cutlass_values_from_oracles_md() {
    let cases: [(IdescFields, u32); 6] = [
        (
            IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, 64),
            0x0810_0490,
        ),
        (
            IdescFields::new(Kind::F16, F16, F16, F16, 64, 8),
            0x0402_0000,
        ),
        (
            IdescFields::new(Kind::I8, S32, S8, S8, 128, 256).with_saturate(true),
            0x0840_04a8,
        ),
        (
            IdescFields::new(Kind::F16, F32, Bf16, Bf16, 64, 128).with_max_shift(MaxShift::Rows32),
            0xc420_0490,
        ),
        (
            IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 128),
            0x08a0_0480,
        ),
        (
            IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 128, 256).with_scale(
                ScaleType::Ue4m3,
                0,
                0,
            ),
            0x0840_0480,
        ),
    ];
    for (f, want) in cases {
        let d = InstructionDescriptor::try_new(f).expect("valid");
        assert_eq!(d.bits(), want, "{f:?}");
        let back = InstructionDescriptor::decode(want, f.kind);
        assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
        assert_eq!(back.fields, Some(f));
    }
}

#[test]
fn const_construction_works() {
    const D: InstructionDescriptor = InstructionDescriptor::new(
        IdescFields::new(Kind::Tf32, F32, Tf32, Tf32, 128, 256).with_transpose(true, true),
    );
    assert_eq!(D.bits() >> 15 & 3, 3);
    assert_eq!(D.raw_field(IdescField::N), Some(32));
    assert_eq!(D.raw_field(IdescField::SfaId), None);
}

#[test]
fn codes_differ_by_kind() {
    // E2M1 is 5 under f8f6f4 / mxf8f6f4, 1 under mxf4 (R8).
    let f8 = IdescFields::new(Kind::F8f6f4, F32, E2m1, E2m1, 128, 64).encode();
    assert_eq!(f8.map(|d| (d.bits() >> 7) & 7), Ok(5));
    let mx = IdescFields::new(Kind::Mxf8f6f4, F32, E2m1, E2m1, 128, 64).encode();
    assert_eq!(mx.map(|d| (d.bits() >> 7) & 7), Ok(5));
    let m4 = IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).encode();
    assert_eq!(m4.map(|d| (d.bits() >> 10) & 3), Ok(1));
    // M >> 7 at 27 for block-scaled; M >> 4 at 24 otherwise (R9).
    let m256 = IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 256, 64).encode();
    assert_eq!(m256.map(|d| d.bits() >> 27 & 3), Ok(2));
}

#[test]
fn every_reserved_bit_is_reported_by_number() {
    let base = [
        (Kind::F16, 0x0810_0490u32),
        (
            Kind::Mxf8f6f4,
            IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64)
                .encode()
                .map(|d| d.bits())
                .unwrap_or(0),
        ),
        (Kind::Mxf4, 0x08a0_0480),
    ];
    for (kind, good) in base {
        assert!(InstructionDescriptor::from_bits(good, kind).is_ok());
        for r in layout(kind).iter().filter(|r| r.role == Role::Reserved) {
            for bit in r.lo..=r.hi() {
                let bad = good | (1 << bit);
                let dec = InstructionDescriptor::decode(bad, kind);
                let e: Vec<_> = dec.diagnostics.iter().collect();
                assert!(
                    e.contains(&IdescError::ReservedBit { bit, kind }),
                    "{kind} bit {bit}: {e:?}"
                );
                assert_eq!(
                    e.iter()
                        .find(|x| matches!(x, IdescError::ReservedBit { .. }))
                        .map(|x| x.field()),
                    Some(format!("bit {bit}").as_str())
                );
            }
        }
    }
}

#[test]
fn each_rule_names_its_field() {
    let f16 = IdescFields::new(Kind::F16, F32, F16, F16, 128, 64);
    let cases: Vec<(IdescFields, &str)> = vec![
        (IdescFields { d_type: S32, ..f16 }, "d_type"),
        (
            IdescFields {
                a_type: E4m3,
                ..f16
            },
            "a_type",
        ),
        (
            IdescFields {
                b_type: Tf32,
                ..f16
            },
            "b_type",
        ),
        (
            IdescFields {
                d_type: F16,
                a_type: Bf16,
                b_type: Bf16,
                ..f16
            },
            "a_type",
        ),
        (f16.with_saturate(true), "saturate"),
        (
            IdescFields::new(Kind::I8, S32, S8, U8, 128, 64).with_negate(true, false),
            "negate_a",
        ),
        (
            IdescFields::new(Kind::I8, S32, S8, U8, 128, 64).with_negate(false, true),
            "negate_b",
        ),
        (
            IdescFields::new(Kind::F8f6f4, F32, E2m1, E4m3, 128, 64).with_transpose(true, false),
            "transpose_a",
        ),
        (
            IdescFields::new(Kind::F8f6f4, F32, E4m3, E3m2, 128, 64).with_transpose(false, true),
            "transpose_b",
        ),
        (
            IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).with_transpose(false, true),
            "transpose_b",
        ),
        (f16.with_sparse(false, 2), "sparsity_selector"),
        (
            IdescFields::new(Kind::I8, S32, S8, S8, 128, 64).with_sparse(true, 1),
            "sparsity_selector",
        ),
        (f16.with_sparse(true, 4), "sparsity_selector"),
        (IdescFields { n: 60, ..f16 }, "n"),
        (IdescFields { n: 0, ..f16 }, "n"),
        (IdescFields { n: 264, ..f16 }, "n"),
        (IdescFields { m: 48, ..f16 }, "m"),
        (IdescFields { m: 100, ..f16 }, "m"),
        (IdescFields { m: 512, ..f16 }, "m"),
        (IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 64, 64), "m"),
        (
            IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64).with_scale(
                ScaleType::Ue4m3,
                0,
                0,
            ),
            "scale_type",
        ),
        (
            IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).with_scale(
                ScaleType::Ue4m3,
                0,
                0,
            ),
            "scale_type",
        ),
        (
            IdescFields {
                scale_type: None,
                ..IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64)
            },
            "scale_type",
        ),
        (
            IdescFields {
                scale_type: Some(ScaleType::Ue8m0),
                ..f16
            },
            "scale_type",
        ),
        (
            IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).with_scale(
                ScaleType::Ue8m0,
                1,
                0,
            ),
            "sfa_id",
        ),
        (
            IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 128, 64).with_scale(
                ScaleType::Ue4m3,
                0,
                2,
            ),
            "sfb_id",
        ),
        (
            IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64).with_scale(
                ScaleType::Ue8m0,
                4,
                0,
            ),
            "sfa_id",
        ),
        (IdescFields { sfb_id: 1, ..f16 }, "sfb_id"),
        (
            IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64)
                .with_max_shift(MaxShift::Rows8),
            "max_shift",
        ),
        (
            IdescFields {
                d_type: F16,
                ..IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 64)
            },
            "d_type",
        ),
        (
            IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 256, 64)
                .with_sparse(true, 0)
                .with_k96(true),
            "k",
        ),
        (f16.with_k96(true), "k"),
    ];
    for (f, field) in cases {
        let names = fields_named(f);
        assert!(
            names.contains(&field),
            "{f:?}: expected an error naming {field}, got {:?}",
            errors_of(f)
        );
        assert!(InstructionDescriptor::try_new(f).is_err(), "{f:?}");
    }
}

#[test]
fn mixed_f16_bf16_is_only_a_warning() {
    let f = IdescFields::new(Kind::F16, F32, F16, Bf16, 128, 64);
    let d = f.validate();
    assert_eq!(d.len(), 1);
    assert_eq!(d.get(0).map(|e| e.severity()), Some(Severity::Warning));
    assert!(InstructionDescriptor::try_new(f).is_ok());
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    // i8 with negation, a tf32 B, N = 0 and bits 6 and 29 set.
    let raw = (1u32 << 6) | (1 << 29) | (1 << 13) | (1 << 14) | (2 << 4) | (5 << 10) | (8 << 24);
    let d = InstructionDescriptor::decode(raw, Kind::I8);
    let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
    assert_eq!(d.fields, None, "b_type code 5 is not defined for i8");
    assert!(
        names.contains(&"bit 6") && names.contains(&"bit 29"),
        "{names:?}"
    );
    assert!(names.contains(&"b_type"), "{names:?}");
    let raw = (1u32 << 13) | (1 << 14) | (2 << 4) | (1 << 7) | (1 << 10) | (8 << 24);
    let d = InstructionDescriptor::decode(raw, Kind::I8);
    let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
    assert_eq!(names, ["negate_a", "negate_b", "n"]);
}

#[test]
fn an_undefined_type_code_does_not_hide_the_other_problems() {
    // d_type code 3 (undefined for f16), M = 0, N = 0: all three reported (issue 16 D3).
    let d = InstructionDescriptor::decode(3 << 4, Kind::F16);
    let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
    assert_eq!(d.fields, None);
    assert_eq!(names, ["d_type", "n", "m"]);
    // An undefined A code under mxf4 with transpose_a: the kind forbids transposition
    // whatever the type, so it is reported; sub-byte rules of an unknown type are not.
    let raw = (7u32 << 7) | (1 << 15);
    let d = InstructionDescriptor::decode(raw, Kind::Mxf4);
    let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
    assert!(
        names.contains(&"a_type") && names.contains(&"transpose_a"),
        "{names:?}"
    );
    // An undefined B code under f8f6f4 with transpose_b: whether B is sub-byte is unknown,
    // so no transpose error; M = 64 and N = 128 are fine, so nothing else.
    let raw = (1u32 << 4) | (7 << 10) | (1 << 16) | (16 << 17) | (4 << 24);
    let d = InstructionDescriptor::decode(raw, Kind::F8f6f4);
    let names: Vec<_> = d.diagnostics.iter().map(|e| e.field()).collect();
    assert_eq!(names, ["b_type"]);
}

#[test]
fn valid_kinds_of_a_raw_value() {
    let set = InstructionDescriptor::valid_kinds(0x0810_0490);
    assert!(set.contains(Kind::F16));
    assert!(!set.contains(Kind::I8), "i8 has no dtype code 1");
    assert!(!set.contains(Kind::Mxf4));
    let set = InstructionDescriptor::valid_kinds(0x08a0_0480);
    assert_eq!(
        set.iter().collect::<Vec<_>>(),
        [Kind::Mxf8f6f4, Kind::Mxf4, Kind::Mxf4nvf4],
        "E5M2 under mxf8f6f4, E2M1 under mxf4*"
    );
    assert!(InstructionDescriptor::valid_kinds(0xffff_ffff).is_empty());
}

#[test]
fn display_lists_every_row_and_problem() {
    let text =
        InstructionDescriptor::from_bits_unchecked(0x0810_0490 | (1 << 23), Kind::F16).to_string();
    assert!(text.contains("0x08900490"), "{text}");
    assert!(text.contains("N = 64") && text.contains("M = 128") && text.contains(".bf16"));
    assert!(text.contains("error: bit 23:"), "{text}");
    assert!(text.contains("rules.md R10"), "{text}");
    assert_eq!(text.lines().count(), 1 + TABLE_42.len() + 1);
}

/// A small deterministic generator, so that failures reproduce.
fn xorshift(state: &mut u64) -> u32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state as u32
}

/// Values that reach every branch of the rules: valid encodings of every kind with zero,
/// one or two bits flipped, and random words.
fn probe_values() -> Vec<u32> {
    let mut s = 0x9E37_79B9_7F4A_7C15;
    let mut valid = Vec::new();
    // Valid values of every kind, found among the words with the reserved bits clear and
    // N = 64, M = 128.
    for kind in Kind::ALL {
        let mut found = 0;
        for _ in 0..200_000 {
            let r = xorshift(&mut s) & !reserved_mask(kind);
            let r = (r & !(0x3f << 17) & !(0x1f << 24)) | (8 << 17);
            // M = 128: code 8 at bit 24 (Table 42) and code 1 at bit 27 (Tables 43-44)
            // are the same bits.
            let r = r | (8 << 24);
            if InstructionDescriptor::decode(r, kind).is_valid() {
                valid.push(r);
                found += 1;
            }
        }
        assert!(found > 50, "{kind}: only {found} valid probes");
    }
    let mut out = valid.clone();
    for &v in &valid {
        let b1 = xorshift(&mut s) % 32;
        let b2 = xorshift(&mut s) % 32;
        out.push(v ^ (1 << b1));
        out.push(v ^ (1 << b1) ^ (1 << b2));
    }
    out.extend((0..20_000).map(|_| xorshift(&mut s)));
    out.extend([0, u32::MAX, 0x0810_0490, 0x08a0_0480]);
    out
}

#[test]
fn the_rule_set_decode_equals_the_field_by_field_decode() {
    let (mut valid, mut invalid) = (0, 0);
    for raw in probe_values() {
        for kind in Kind::ALL {
            let fast = InstructionDescriptor::decode(raw, kind);
            let (fields, list) = InstructionDescriptor::decode_by_fields(raw, kind);
            let got: Vec<_> = fast.diagnostics.iter().collect();
            let want: Vec<_> = list.iter().collect();
            assert_eq!(got, want, "{raw:#010x} under {kind}");
            assert_eq!(fast.fields, fields, "{raw:#010x} under {kind}");
            assert_eq!(fast.diagnostics.to_list(), list);
            assert_eq!(fast.diagnostics.len(), list.len());
            for (i, e) in want.iter().enumerate() {
                assert_eq!(fast.diagnostics.get(i), Some(*e));
            }
            assert_eq!(fast.diagnostics.get(want.len()), None);
            for rule in IdescRule::ALL {
                assert_eq!(
                    fast.diagnostics.breaks(rule),
                    want.iter().any(|e| e.rule() == rule),
                    "{raw:#010x} under {kind}: {rule:?}"
                );
            }
            assert_eq!(fast.diagnostics.first_error(), list.first_error());
            assert_eq!(
                fast.diagnostics.warnings().collect::<Vec<_>>(),
                list.warnings().collect::<Vec<_>>()
            );
            if fast.is_valid() {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
    }
    // Both verdicts occur in a real share of the cases.
    assert!(
        valid > 2_000 && invalid > 20_000,
        "{valid} valid, {invalid} invalid"
    );
}

#[test]
fn the_problem_tables_equal_the_rules() {
    for raw in probe_values() {
        for kind in Kind::ALL {
            // The set the tables give against the problems the rules find in the whole word.
            let (_, list) = field_rules::read_and_check(raw, kind);
            let mut want = 0u64;
            for e in list.iter() {
                let p = match e {
                    IdescError::ReservedBit { bit, .. } => u32::from(bit),
                    _ => (32..64)
                        .find(|&p| problem_at(raw, kind, p) == e)
                        .expect("every problem of a word has a position"),
                };
                want |= 1 << p;
            }
            assert_eq!(
                problems_by_table(raw, kind),
                want,
                "{raw:#010x} under {kind}"
            );
        }
    }
}

#[test]
fn is_valid_is_the_verdict_of_decode() {
    let (mut valid, mut invalid) = (0, 0);
    for raw in probe_values() {
        for kind in Kind::ALL {
            let verdict = InstructionDescriptor::decode(raw, kind).is_valid();
            assert_eq!(
                InstructionDescriptor::is_valid(raw, kind),
                verdict,
                "{raw:#010x} under {kind}"
            );
            assert_eq!(
                InstructionDescriptor::valid_kinds(raw).contains(kind),
                verdict
            );
            assert_eq!(InstructionDescriptor::from_bits(raw, kind).is_ok(), verdict);
            if verdict {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
    }
    assert!(
        valid > 2_000 && invalid > 20_000,
        "{valid} valid, {invalid} invalid"
    );
}

#[test]
fn each_rule_has_one_row_with_a_unique_identifier() {
    for (i, rule) in IdescRule::ALL.iter().enumerate() {
        assert_eq!(*rule as usize, i);
        assert!(rule.id().starts_with("idesc."), "{}", rule.id());
        assert!(!rule.row().statement.is_empty());
    }
    let mut ids: Vec<_> = IDESC_RULES.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), IDESC_RULES.len());
    // Only the mixed f16/bf16 pair is a warning (rules.md R12).
    let warnings: Vec<_> = IdescRule::ALL
        .iter()
        .filter(|r| r.row().severity == Severity::Warning)
        .collect();
    assert_eq!(warnings, [&IdescRule::MixedF16Bf16]);
}

#[test]
fn errors_read_source_and_severity_from_their_rule() {
    let e = IdescError::InvalidTypeCode {
        field: IdescField::AType,
        code: 7,
        kind: Kind::Mxf4,
    };
    assert_eq!(e.source(), Source::PtxTable(44), "the kind's layout table");
    assert_eq!(e.rule_id(), Some("idesc.type_code_undefined"));
    let e = IdescError::MNotEncodable {
        m: 100,
        kind: Kind::F16,
    };
    assert_eq!(e.source(), Source::PtxTable(42));
    assert_eq!(IdescError::MixedF16Bf16.severity(), Severity::Warning);
    assert_eq!(IdescError::K96Sparse.source(), Source::PtxTable(44));
    assert_eq!(
        IdescError::ReservedBit {
            bit: 6,
            kind: Kind::Mxf4
        }
        .source(),
        Source::Decision(10)
    );
    let boxed: &dyn core::error::Error = &IdescError::K96Sparse;
    assert!(boxed.to_string().contains("K = 96"));
}

#[test]
fn k_is_implied_by_kind_and_sparsity() {
    assert_eq!(
        IdescFields::new(Kind::Tf32, F32, Tf32, Tf32, 128, 64).k(),
        8
    );
    assert_eq!(
        IdescFields::new(Kind::F16, F32, F16, F16, 128, 64)
            .with_sparse(true, 0)
            .k(),
        32
    );
    assert_eq!(
        IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 256, 64)
            .with_k96(true)
            .k(),
        96
    );
}

/// A row value written as the command's JSON writes it, for comparing value lists.
fn shown(v: crate::bits::RowValue) -> std::string::String {
    use crate::bits::RowValue;
    match v {
        RowValue::Number(n) | RowValue::Bytes(n) | RowValue::InvalidCode(n) => n.to_string(),
        RowValue::Flag(b) => (b as u8).to_string(),
        RowValue::Bool(b) => b.to_string(),
        RowValue::Name(c) => format!("\"{}\"", c.name),
    }
}

/// The JSON fields of a value whose fields decode, as Tables 42-44 define them through
/// [`IdescFields`]: the fields of Table 42 for every kind, the scale fields for the block-scaled
/// kinds and K where Table 44 stores its bit.
fn fields_as_decoded(f: &IdescFields) -> Vec<(&'static str, std::string::String)> {
    let mut out = vec![
        ("sparsity_selector", f.sparsity_selector.to_string()),
        ("sparse", f.sparse.to_string()),
        ("saturate", f.saturate.to_string()),
        ("d_type", format!("\"{}\"", f.d_type.name())),
        ("a_type", format!("\"{}\"", f.a_type.name())),
        ("b_type", format!("\"{}\"", f.b_type.name())),
        ("negate_a", f.negate_a.to_string()),
        ("negate_b", f.negate_b.to_string()),
        ("transpose_a", f.transpose_a.to_string()),
        ("transpose_b", f.transpose_b.to_string()),
        ("m", f.m.to_string()),
        ("n", f.n.to_string()),
        ("max_shift", f.max_shift.rows().to_string()),
    ];
    if let Some(s) = f.scale_type {
        out.push(("scale_type", format!("\"{}\"", s.name())));
        out.push(("sfa_id", f.sfa_id.to_string()));
        out.push(("sfb_id", f.sfb_id.to_string()));
    }
    if f.kind.idesc_layout() == IdescLayout::Table44 {
        out.push(("k", f.k().to_string()));
    }
    out
}

#[test]
fn json_values_are_the_decoded_fields() {
    let mut checked = 0;
    for raw in probe_values() {
        for kind in Kind::ALL {
            let Some(f) = InstructionDescriptor::decode(raw, kind).fields else {
                continue;
            };
            let got: Vec<_> = json_fields(kind)
                .iter()
                .map(|l| (l.key, shown(l.value(raw.into()))))
                .collect();
            assert_eq!(got, fields_as_decoded(&f), "{raw:#010x} under {kind}");
            let k = line_field(kind, IdescField::K).map(|l| l.value(raw.into()));
            assert_eq!(k.map(shown), Some(f.k().to_string()), "{raw:#010x} {kind}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} values decoded");
}

#[test]
fn type_rows_name_the_codes_of_their_kind() {
    use crate::bits::RowValue;
    for raw in probe_values().into_iter().take(3000) {
        for kind in Kind::ALL {
            for field in [IdescField::DType, IdescField::AType, IdescField::BType] {
                let Some(r) = row(kind, field) else {
                    assert!(kind.is_block_scaled() && field == IdescField::DType);
                    continue;
                };
                let code = r.get(raw.into());
                let want = if field == IdescField::DType {
                    ElementType::from_d_code(kind, code as u8)
                } else {
                    ElementType::from_ab_code(kind, code as u8)
                };
                let reading = crate::bits::RowReading {
                    row: r,
                    word: raw.into(),
                };
                match (r.value(raw.into()), want) {
                    (Some(RowValue::Name(c)), Some(t)) => {
                        assert_eq!(c.name, t.name());
                        assert_eq!(reading.to_string(), format!(".{t}"));
                    }
                    (Some(RowValue::InvalidCode(c)), None) => {
                        assert_eq!(c, code);
                        assert_eq!(
                            reading.to_string(),
                            format!("invalid code {code} for .kind::{kind}")
                        );
                    }
                    (got, _) => panic!("{raw:#010x} {kind} {field:?}: {got:?} for {want:?}"),
                }
            }
        }
    }
}

#[test]
fn value_lists_follow_the_json_order_and_the_batch_line() {
    let keys = |kind| json_fields(kind).iter().map(|l| l.key).collect::<Vec<_>>();
    let table42 = [
        "sparsity_selector",
        "sparse",
        "saturate",
        "d_type",
        "a_type",
        "b_type",
        "negate_a",
        "negate_b",
        "transpose_a",
        "transpose_b",
        "m",
        "n",
        "max_shift",
    ];
    assert_eq!(keys(Kind::F16), table42);
    let mut table43 = table42.to_vec();
    table43.extend(["scale_type", "sfa_id", "sfb_id"]);
    assert_eq!(keys(Kind::Mxf8f6f4), table43);
    table43.push("k");
    assert_eq!(keys(Kind::Mxf4nvf4), table43);
    let line = |kind| line_fields(kind).iter().map(|l| l.key).collect::<Vec<_>>();
    assert_eq!(line(Kind::I8)[..6], ["M", "N", "K", "d", "a", "b"]);
    assert_eq!(line(Kind::I8).last(), Some(&"max_shift"));
    assert_eq!(line(Kind::Mxf4).last(), Some(&"sfb_id"));
    // M and N give their real values; the layouts store M >> 4 or M >> 7 and N >> 3.
    assert_eq!(m_unit(Kind::F16), 16);
    assert_eq!(m_unit(Kind::Mxf4), 128);
    let m = row(Kind::Mxf4, IdescField::M).expect("Table 44 has M");
    assert_eq!(
        m.value(0x0800_0000),
        Some(crate::bits::RowValue::Number(128))
    );
    assert_eq!(m.bits_of(crate::bits::RowValue::Number(256)), 2);
}

#[test]
fn a_problem_is_built_from_the_bits_it_reads() {
    let mut s = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s as u32
    };
    for _ in 0..20_000 {
        let (bits, other) = (next(), next());
        for kind in Kind::ALL {
            let d = InstructionDescriptor::decode(bits, kind).diagnostics;
            let mut set = d.positions();
            let mut listed = d.iter();
            while set != 0 {
                let p = set.trailing_zeros();
                set &= set - 1;
                let e = d.at(p).expect("a position of the set");
                assert_eq!(Some(e), listed.next());
                let reads = IdescDiagnostics::reads(kind, p);
                let mixed = (bits & reads) | (other & !reads);
                assert_eq!(problem_at(mixed, kind, p), e, "{bits:#x} {kind:?} at {p}");
            }
            assert_eq!(listed.next(), None);
            assert_eq!(d.at(64), None);
        }
    }
}

/// Bit 24 of `.kind::mxf4nvf4` (Table 44: reserved) is the high bit of the scale format from
/// PTX ISA 9.4 on the sm_107 family, where bits 23-24 = 2 are UE5M3: the reserved-bit error
/// names that meaning; other kinds' bit 24 stays plain.
#[test]
fn reserved_bit_24_names_the_ue5m3_scale_format() {
    let e = IdescError::ReservedBit {
        bit: 24,
        kind: Kind::Mxf4nvf4,
    }
    .to_string();
    assert!(
        e.contains("bits 23-24 are the scale format: 2 is UE5M3"),
        "{e}"
    );
    assert!(e.contains("sm_107a and sm_107f"), "{e}");
    for (bit, kind) in [(24, Kind::Mxf4), (24, Kind::Mxf8f6f4), (25, Kind::Mxf4nvf4)] {
        let e = IdescError::ReservedBit { bit, kind }.to_string();
        assert!(!e.contains("UE5M3"), "{kind:?} bit {bit}: {e}");
    }
}
