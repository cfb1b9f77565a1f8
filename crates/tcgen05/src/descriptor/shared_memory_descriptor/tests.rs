use super::*;
use crate::bits::Role;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Severity;
use crate::diagnostic::Source;
use crate::targets::Target;
use std::{format, string::String, vec::Vec};

#[test]
fn each_rule_has_one_row_with_a_unique_identifier() {
    for (i, rule) in SmemRule::ALL.iter().enumerate() {
        assert_eq!(*rule as usize, i);
        assert!(rule.id().starts_with("smem."), "{}", rule.id());
        assert!(!rule.row().statement.is_empty());
    }
    let mut ids: Vec<_> = SMEM_RULES.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), SMEM_RULES.len());
    let warnings: Vec<_> = SmemRule::ALL
        .iter()
        .filter(|r| r.row().severity == Severity::Warning)
        .collect();
    assert_eq!(
        warnings,
        [
            &SmemRule::BaseOffsetWithoutSwizzle,
            &SmemRule::PatternStartWithoutSwizzle
        ]
    );
    let e = SmemError::ReservedBit { bit: 14 };
    assert_eq!(e.rule(), SmemRule::ReservedBit);
    assert_eq!(Diagnostic::rule_id(&e), Some("smem.reserved_bit"));
    assert_eq!(e.source(), Source::Decision(2));
    let boxed: &dyn core::error::Error = &e;
    assert!(!format!("{boxed}").is_empty());
}

const T: Target = Target::Sm100a;

fn problems(d: &SmemDiagnostics) -> Vec<SmemError> {
    d.iter().collect()
}

fn listed(d: &SmemProblemList) -> Vec<SmemError> {
    d.iter().collect()
}

/// CUTLASS 4.2.0 values (spec/oracles.md §2): raw value and the fields it encodes.
const CUTLASS: [(u64, SmemFields); 4] = [
    // K-major bf16, 128B swizzle, 128x64 tile at 0x400.
    (
        0x4000_4040_0001_0040,
        SmemFields::new(0x400, 16, 1024, Swizzle::B128),
    ),
    // K-major bf16, no swizzle, 128x16 at 0x400: LBO 2048 B, SBO 128 B.
    (
        0x0000_4008_0080_0040,
        SmemFields::new(0x400, 2048, 128, Swizzle::None),
    ),
    // MN-major bf16, 128B swizzle, 128x64 at 0x400.
    (
        0x4000_4080_0040_0040,
        SmemFields::new(0x400, 1024, 2048, Swizzle::B128),
    ),
    // MN-major tf32, 128B with 32B atomicity, 256x8 at 0x400.
    (
        0x2000_4100_0020_0040,
        SmemFields::new(0x400, 512, 4096, Swizzle::B128Base32B),
    ),
];

#[test]
fn layout_rows_are_in_order_and_named_uniquely() {
    let mut next = 0u8;
    for (i, row) in SMEM_LAYOUT.iter().enumerate() {
        assert_eq!(row.lo, next, "row {i} starts where the previous ended");
        assert_eq!(row.field, SmemField::ALL[i]);
        assert_eq!(row.field.row(), row);
        assert_eq!(SmemField::from_name(row.field.name()), Some(row.field));
        next = row.hi() + 1;
    }
    assert_eq!(next, 64);
    let names: Vec<_> = SmemField::ALL.iter().map(|f| f.name()).collect();
    for (i, a) in names.iter().enumerate() {
        assert!(!names[i + 1..].contains(a), "{a} twice");
    }
    assert_eq!(SmemField::Fixed46To48.row().role, Role::Fixed(0b001));
    assert_eq!(SmemField::Fixed53To60.row().role, Role::Fixed(0));
    assert_eq!(SmemField::Swizzle.row().lo, 61);
}

#[test]
fn cutlass_values_encode_and_decode() {
    for (raw, fields) in CUTLASS {
        let d = SmemDescriptor::try_new(fields, T).expect("valid");
        assert_eq!(d.bits(), raw, "{fields:?}");
        let dec = SmemDescriptor::decode(raw, T);
        assert!(dec.diagnostics.is_empty(), "{:?}", dec.diagnostics);
        assert_eq!(dec.fields, fields);
        assert_eq!(d.fields(), fields);
        assert_eq!(SmemDescriptor::from_bits(raw, T), Ok(d));
        assert_eq!(d.start_address(), fields.start_address);
        assert_eq!(d.leading_byte_offset(), fields.leading_byte_offset);
        assert_eq!(d.stride_byte_offset(), fields.stride_byte_offset);
        assert_eq!(d.swizzle(), fields.swizzle);
        assert_eq!(d.base_offset(), 0);
        assert_eq!(d.lbo_mode(), LboMode::Relative);
    }
}

#[test]
fn cutlass_k_block_advance() {
    let d = SmemDescriptor::from_bits(0x4000_4040_0001_0040, T).expect("valid");
    // Each 16-element bf16 K block is 32 bytes: 2 in the start field.
    let mut expected = [
        0x4000_4040_0001_0042u64,
        0x4000_4040_0001_0044,
        0x4000_4040_0001_0046,
    ]
    .into_iter();
    let mut cur = d;
    for _ in 0..3 {
        cur = cur.advance_k(32).expect("fits");
        assert_eq!(Some(cur.bits()), expected.next());
    }
    assert_eq!(d.advance_k_unchecked(96), cur);
    // MN-major: K blocks are 0x100 apart in the start field (4096 bytes).
    let mn = SmemDescriptor::from_bits(0x4000_4080_0040_0040, T).expect("valid");
    assert_eq!(
        mn.advance_k(0x100 << 4).map(SmemDescriptor::bits),
        Ok(0x4000_4080_0040_0140)
    );
    assert_eq!(
        mn.advance_k_unchecked(0x100 << 4).bits(),
        0x4000_4080_0040_0140
    );
}

#[test]
fn canonical_layout_examples_of_ptx() {
    // ptx-beyond-seeds.md §1.5 (PTX figures 188-192): (swizzle, LBO bytes, SBO bytes,
    // encoded LBO, encoded SBO).
    let cases = [
        (Swizzle::None, 256, 128, 16, 8),  // K-major, none, tf32
        (Swizzle::B32, 16, 256, 1, 16),    // K-major, 32B, tf32 (LBO unused: 1)
        (Swizzle::None, 256, 128, 16, 8),  // MN-major, none, bf16
        (Swizzle::B32, 256, 512, 16, 32),  // MN-major, 32B, bf16
        (Swizzle::B64, 512, 1024, 32, 64), // MN-major, 64B, bf16
    ];
    for (sw, lbo, sbo, lbo_enc, sbo_enc) in cases {
        let d = SmemDescriptor::try_new(SmemFields::new(0, lbo, sbo, sw), T).expect("valid");
        assert_eq!(SmemField::LeadingByteOffset.row().get(d.bits()), lbo_enc);
        assert_eq!(SmemField::StrideByteOffset.row().get(d.bits()), sbo_enc);
        assert_eq!(
            encode_bytes(SmemField::LeadingByteOffset, lbo),
            Some(Ok(lbo_enc as u16))
        );
        assert_eq!(SmemField::Swizzle.row().get(d.bits()), sw.code() as u64);
    }
}

#[test]
fn every_rule_broken_once() {
    let ok = SmemFields::new(0x400, 16, 1024, Swizzle::B128);
    let cases: [(SmemFields, Target, SmemError, &str); 9] = [
        (
            SmemFields {
                start_address: 0x408,
                ..ok
            },
            T,
            SmemError::Misaligned {
                field: SmemField::StartAddress,
                value: 0x408,
            },
            "start_address",
        ),
        (
            SmemFields {
                leading_byte_offset: 24,
                ..ok
            },
            T,
            SmemError::Misaligned {
                field: SmemField::LeadingByteOffset,
                value: 24,
            },
            "leading_byte_offset",
        ),
        (
            SmemFields {
                stride_byte_offset: 1 << 18,
                ..ok
            },
            T,
            SmemError::OutOfRange {
                field: SmemField::StrideByteOffset,
                value: 1 << 18,
            },
            "stride_byte_offset",
        ),
        (
            ok.with_base_offset(8),
            T,
            SmemError::BaseOffsetOutOfRange { value: 8 },
            "base_offset",
        ),
        (
            ok.with_lbo_mode(LboMode::Absolute),
            Target::Sm100a,
            SmemError::AbsoluteModeTarget {
                target: Target::Sm100a,
            },
            "lbo_mode",
        ),
        (
            ok.with_lbo_mode(LboMode::Absolute),
            Target::Sm103f,
            SmemError::AbsoluteModeTarget {
                target: Target::Sm103f,
            },
            "lbo_mode",
        ),
        (
            SmemFields {
                swizzle: Swizzle::B64,
                ..ok
            }
            .with_lbo_mode(LboMode::Absolute),
            Target::Sm103a,
            SmemError::AbsoluteModeSwizzle { code: 4 },
            "swizzle",
        ),
        (
            SmemFields {
                swizzle: Swizzle::B128Base32B,
                ..ok
            }
            .with_lbo_mode(LboMode::Absolute),
            Target::Sm103a,
            SmemError::AbsoluteModeSwizzle { code: 1 },
            "swizzle",
        ),
        (
            ok.with_lbo_mode(LboMode::Absolute).with_base_offset(2),
            Target::Sm103a,
            SmemError::AbsoluteModeBaseOffset { value: 2 },
            "base_offset",
        ),
    ];
    for (fields, target, err, field) in cases {
        assert_eq!(listed(&SmemDescriptor::validate(&fields, target)), [err]);
        assert_eq!(SmemDescriptor::try_new(fields, target), Err(err));
        assert_eq!(err.field(), field);
        assert_eq!(err.severity(), Severity::Error);
        assert!(!format!("{err}").is_empty());
    }
    // Absolute mode is fine on sm_103a with 128B swizzle and base offset 0.
    let abs = ok.with_lbo_mode(LboMode::Absolute).with_base_offset(0);
    let d = SmemDescriptor::try_new(abs, Target::Sm103a).expect("valid on sm_103a");
    assert_eq!(d.lbo_mode(), LboMode::Absolute);
    assert_eq!(d.bits() >> 52 & 1, 1);
    // Base offset without swizzle: a warning, and the value is still encoded.
    let w = SmemFields::new(0x400, 16, 1024, Swizzle::None).with_base_offset(3);
    let diags = SmemDescriptor::validate(&w, T);
    assert_eq!(
        listed(&diags),
        [SmemError::BaseOffsetWithoutSwizzle { value: 3 }]
    );
    assert_eq!(diags.get(0).map(|e| e.severity()), Some(Severity::Warning));
    assert_eq!(diags.get(0).map(|e| e.field()), Some("base_offset"));
    let d = SmemDescriptor::try_new(w, T).expect("warnings do not fail");
    assert_eq!(d.base_offset(), 3);
    assert_eq!(
        problems(&SmemDescriptor::decode(d.bits(), T).diagnostics),
        [SmemError::BaseOffsetWithoutSwizzle { value: 3 }]
    );
    // Builder input errors.
    let e = base_offset_for(0x440, Swizzle::B128).expect_err("inside a line");
    assert_eq!(e.field(), "pattern_start_address");
    assert_eq!(e.value(), 0x440);
    let e = SmemDescriptor::new(ok, T)
        .advance_k(8)
        .expect_err("misaligned");
    assert_eq!(e, SmemError::AdvanceMisaligned { bytes: 8 });
    assert_eq!(e.field(), "advance_bytes");
}

#[test]
fn misaligned_and_too_large_is_two_problems() {
    let f = SmemFields::new(0x4_0008, 0, 0, Swizzle::None);
    assert_eq!(
        listed(&SmemDescriptor::validate(&f, T)),
        [
            SmemError::Misaligned {
                field: SmemField::StartAddress,
                value: 0x4_0008
            },
            SmemError::OutOfRange {
                field: SmemField::StartAddress,
                value: 0x4_0008
            },
        ]
    );
    // The largest encodable values.
    let top = SmemFields::new(0x3_fff0, 0x3_fff0, 0x3_fff0, Swizzle::None);
    let d = SmemDescriptor::try_new(top, T).expect("fits");
    assert_eq!(d.bits() & 0x3fff_3fff_3fff, 0x3fff_3fff_3fff);
    assert_eq!(d.fields(), top);
    // Never masked: 0x40000 would encode to 0 with `& 0x3FFFF`.
    assert_eq!(
        SmemDescriptor::try_new(SmemFields::new(0x4_0000, 0, 0, Swizzle::None), T),
        Err(SmemError::OutOfRange {
            field: SmemField::StartAddress,
            value: 0x4_0000
        })
    );
    assert_eq!(encode_bytes(SmemField::BaseOffset, 16), None);
}

#[test]
fn flipping_reserved_and_fixed_bits_is_reported() {
    for (raw, _) in CUTLASS {
        for row in SMEM_LAYOUT {
            for bit in row.lo..=row.hi() {
                let flipped = raw ^ (1u64 << bit);
                let dec = SmemDescriptor::decode(flipped, T);
                match row.role {
                    Role::Reserved => {
                        assert_eq!(problems(&dec.diagnostics), [SmemError::ReservedBit { bit }]);
                        assert_eq!(
                            dec.first_error().map(|e| e.field()),
                            Some(format!("bit {bit}").as_str())
                        );
                    }
                    Role::Fixed(v) => {
                        let found = (row.get(flipped)) as u8;
                        assert_ne!(found as u64, v);
                        assert_eq!(
                            problems(&dec.diagnostics),
                            [SmemError::FixedBits {
                                field: row.field,
                                found
                            }]
                        );
                        assert_eq!(
                            SmemDescriptor::from_bits(flipped, T).map_err(|e| e.field()),
                            Err(row.field.name())
                        );
                    }
                    Role::Value => {}
                }
            }
        }
    }
}

#[test]
fn every_invalid_swizzle_code() {
    for code in [3u8, 5, 7] {
        assert_eq!(
            Swizzle::from_code(code),
            Err(SmemError::InvalidSwizzle { code })
        );
        let raw = 0x0000_4040_0001_0040 | (code as u64) << 61;
        let dec = SmemDescriptor::decode(raw, T);
        assert_eq!(
            problems(&dec.diagnostics),
            [SmemError::InvalidSwizzle { code }]
        );
        assert_eq!(dec.fields.swizzle, Swizzle::None);
        assert!(!dec.is_valid());
        assert_eq!(dec.descriptor(), None);
        let e = SmemDescriptor::from_bits(raw, T).expect_err("invalid");
        assert_eq!((e.field(), e.value()), ("swizzle", code as u64));
        let unchecked = SmemDescriptor::from_bits_unchecked(raw);
        assert_eq!(unchecked.swizzle_code(), code);
        assert_eq!(unchecked.swizzle(), Swizzle::None);
    }
    assert_eq!(
        Swizzle::from_code(8),
        Err(SmemError::InvalidSwizzle { code: 8 })
    );
    for s in Swizzle::ALL {
        assert_eq!(Swizzle::from_code(s.code()), Ok(s));
        assert_eq!(Swizzle::from_name(s.name()), Some(s));
    }
    assert_eq!(Swizzle::from_name("128b"), None);
    for m in LboMode::ALL {
        assert_eq!(LboMode::from_code(m.code()), Some(m));
        assert_eq!(LboMode::from_name(m.name()), Some(m));
    }
}

#[test]
fn many_problems_at_once() {
    // Every reserved bit, both fixed fields wrong, absolute mode off sm_103a without 128B and
    // with a base offset, and an invalid swizzle code.
    let raw = 0xffff_ffff_ffff_ffffu64;
    let dec = SmemDescriptor::decode(raw, T);
    assert!(!dec.diagnostics.overflowed());
    assert_eq!(
        problems(&dec.diagnostics),
        [
            SmemError::ReservedBit { bit: 14 },
            SmemError::ReservedBit { bit: 15 },
            SmemError::ReservedBit { bit: 30 },
            SmemError::ReservedBit { bit: 31 },
            SmemError::FixedBits {
                field: SmemField::Fixed46To48,
                found: 0b111
            },
            SmemError::FixedBits {
                field: SmemField::Fixed53To60,
                found: 0xff
            },
            SmemError::InvalidSwizzle { code: 7 },
            SmemError::AbsoluteModeTarget { target: T },
            SmemError::AbsoluteModeSwizzle { code: 7 },
            SmemError::AbsoluteModeBaseOffset { value: 7 },
        ]
    );
    // The same without swizzle: the warning replaces the invalid code.
    let dec = SmemDescriptor::decode(raw & !(7 << 61), T);
    assert_eq!(dec.diagnostics.len(), 10);
    assert!(problems(&dec.diagnostics).contains(&SmemError::BaseOffsetWithoutSwizzle { value: 7 }));
    // Worst case for fields: every byte field misaligned and too large, base offset too large
    // without swizzle, absolute mode on the wrong target.
    let f = SmemFields {
        start_address: u32::MAX,
        leading_byte_offset: u32::MAX,
        stride_byte_offset: u32::MAX,
        base_offset: u8::MAX,
        lbo_mode: LboMode::Absolute,
        swizzle: Swizzle::None,
    };
    let d = SmemDescriptor::validate(&f, T);
    assert!(!d.overflowed());
    assert_eq!(d.len(), 11);
    assert_eq!(d.warnings().count(), 1);
}

#[test]
fn base_offset_from_pattern_start() {
    // On the boundary: 0, even where the formula is not 0.
    assert_eq!(base_offset_for(0, Swizzle::B128), Ok(0));
    assert_eq!(base_offset_for(0x1400, Swizzle::B128), Ok(0));
    assert_eq!(base_offset_for(0x600, Swizzle::B64), Ok(0)); // formula: 4
    assert_eq!(base_offset_for(0x500, Swizzle::B32), Ok(0)); // formula: 2
    assert_eq!(base_offset_for(0x800, Swizzle::B128Base32B), Ok(0));
    // Off the boundary on a 128-byte line: the formula, non-zero.
    assert_eq!(base_offset_for(0x480, Swizzle::B128), Ok(1));
    assert_eq!(base_offset_for(0x780, Swizzle::B128), Ok(7));
    assert_eq!(base_offset_for(0x500, Swizzle::B64), Ok(2)); // 1024 + 256
    assert_eq!(base_offset_for(0x700, Swizzle::B64), Ok(6));
    assert_eq!(base_offset_for(0x480, Swizzle::B32), Ok(1));
    assert_eq!(base_offset_for(0x600, Swizzle::B128Base32B), Ok(4));
    // The contradiction of Table 41 (formula 0 off the boundary), and any start inside a line.
    for (addr, sw) in [
        (0x440, Swizzle::B128),
        (0x810, Swizzle::B64),
        (0x410, Swizzle::B32),
        (0x4a0, Swizzle::B128),
    ] {
        assert_eq!(
            base_offset_for(addr, sw),
            Err(SmemError::PatternStartNotLineAligned {
                swizzle: sw,
                address: addr
            })
        );
    }
    // Without swizzle there is no pattern: always 0.
    assert_eq!(base_offset_for(0x4a8, Swizzle::None), Ok(0));
    // Every off-boundary line start gives a non-zero value (Table 41's requirement).
    for sw in Swizzle::ALL {
        for line in 0..64u32 {
            let addr = line * 128;
            let b = base_offset_for(addr, sw).expect("line aligned");
            let on_boundary = sw.repeat_bytes().is_none_or(|r| addr % r == 0);
            assert_eq!(b == 0, on_boundary, "{sw} {addr:#x}");
        }
    }
    // Builders.
    let f = SmemFields::new(0x500, 16, 1024, Swizzle::B64)
        .with_pattern_start(0x500)
        .expect("line aligned");
    assert_eq!(f.base_offset, 2);
    let d = SmemDescriptor::new(f, T);
    assert_eq!(d.base_offset(), 2);
    assert_eq!(d.with_pattern_start(0x400).map(|d| d.base_offset()), Ok(0));
    assert!(d.with_pattern_start(0x408).is_err());
}

#[test]
fn advance_checks_and_wraps() {
    let d = SmemDescriptor::new(SmemFields::new(0x3_ff00, 16, 1024, Swizzle::B128), T);
    assert_eq!(d.advance_k(0xf0).map(|d| d.start_address()), Ok(0x3_fff0));
    assert_eq!(
        d.advance_k(0x100),
        Err(SmemError::AdvanceOverflow {
            start: 0x3_ff00,
            bytes: 0x100
        })
    );
    let e = d.advance_k(0x100).expect_err("overflow");
    assert_eq!((e.field(), e.value()), ("start_address", 0x4_0000));
    assert_eq!(
        d.advance_k(u32::MAX - 15).map(|_| ()),
        Err(SmemError::AdvanceOverflow {
            start: 0x3_ff00,
            bytes: u32::MAX - 15
        })
    );
    // Unchecked: wraps within the 14 bits, the other bits untouched, low 4 bits ignored.
    let w = d.advance_k_unchecked(0x10f);
    assert_eq!(w.start_address(), 0);
    assert_eq!(w.bits() & !0x3fff, d.bits() & !0x3fff);
    assert_eq!(SmemDescriptor::decode(w.bits(), T).diagnostics.len(), 0);
    let _ = d.advance_k_unchecked(u32::MAX);
    assert_eq!(d.advance_k(0), Ok(d));
}

#[test]
fn setters_revalidate() {
    let d = SmemDescriptor::new(SmemFields::new(0x400, 16, 1024, Swizzle::B128), T);
    assert_eq!(
        d.with_start_address(0x800).map(|d| d.bits()),
        Ok(0x4000_4040_0001_0080)
    );
    assert_eq!(
        d.with_stride_byte_offset(1000),
        Err(SmemError::Misaligned {
            field: SmemField::StrideByteOffset,
            value: 1000
        })
    );
    assert_eq!(
        d.with_leading_byte_offset(32)
            .map(|d| d.leading_byte_offset()),
        Ok(32)
    );
    assert_eq!(
        d.with_base_offset(9),
        Err(SmemError::BaseOffsetOutOfRange { value: 9 })
    );
    assert_eq!(
        d.with_swizzle(Swizzle::B32).map(|d| d.swizzle()),
        Ok(Swizzle::B32)
    );
    assert_eq!(
        d.with_lbo_mode(LboMode::Absolute, Target::Sm100a),
        Err(SmemError::AbsoluteModeTarget {
            target: Target::Sm100a
        })
    );
    let abs = d
        .with_lbo_mode(LboMode::Absolute, Target::Sm103a)
        .expect("sm_103a");
    // Setters keep checking the absolute-mode rules (as for sm_103a).
    assert_eq!(
        abs.with_swizzle(Swizzle::B64),
        Err(SmemError::AbsoluteModeSwizzle { code: 4 })
    );
    assert_eq!(
        abs.with_base_offset(1),
        Err(SmemError::AbsoluteModeBaseOffset { value: 1 })
    );
    assert_eq!(
        abs.with_leading_byte_offset(0x1000)
            .map(|d| d.leading_byte_offset()),
        Ok(0x1000)
    );
    assert_eq!(
        abs.with_lbo_mode(LboMode::Relative, T)
            .map(|d| d.lbo_mode()),
        Ok(LboMode::Relative)
    );
}

#[test]
fn swizzled_k_major_lbo_is_written_as_given() {
    // rules.md R6: CUTLASS writes 16 bytes, DeepGEMM 0, Triton a derived value; all encode.
    for lbo in [0, 16, 256, 0x3_fff0] {
        let f = SmemFields::new(0x400, lbo, 1024, Swizzle::B128);
        let d = SmemDescriptor::try_new(f, T).expect("any aligned LBO");
        assert_eq!(d.leading_byte_offset(), lbo);
        assert!(SmemDescriptor::decode(d.bits(), T).diagnostics.is_empty());
    }
}

#[test]
fn const_construction() {
    const D: SmemDescriptor = SmemDescriptor::new(
        SmemFields::new(0x400, 16, 1024, Swizzle::B128),
        Target::Sm100a,
    );
    const RAW: u64 = D.bits();
    const NEXT: u64 = D.advance_k_unchecked(32).bits();
    const DEC: SmemDecoded = SmemDescriptor::decode(RAW, Target::Sm100a);
    assert_eq!(RAW, 0x4000_4040_0001_0040);
    assert_eq!(NEXT, 0x4000_4040_0001_0042);
    assert!(DEC.is_valid());
    assert_eq!(u64::from(D), RAW);
}

#[test]
#[should_panic(expected = "invalid shared memory descriptor")]
fn new_panics_on_invalid_fields() {
    let _ = SmemDescriptor::new(SmemFields::new(0x401, 0, 0, Swizzle::None), T);
}

#[test]
fn display_is_a_table_of_the_layout() {
    let d = SmemDescriptor::new(SmemFields::new(0x400, 16, 1024, Swizzle::B128), T);
    let s = format!("{d}");
    assert_eq!(s.lines().count(), 2 + SMEM_LAYOUT.len(), "{s}");
    assert!(s.contains("0x4000404000010040"), "{s}");
    assert!(
        s.contains("  0-13   start_address        0x0040    byte address 0x400\n"),
        "{s}"
    );
    assert!(
        s.contains("  16-29  leading_byte_offset  0x0001    16 bytes\n"),
        "{s}"
    );
    assert!(
        s.contains("  32-45  stride_byte_offset   0x0040    1024 bytes\n"),
        "{s}"
    );
    assert!(
        s.contains("  46-48  fixed_46_48          001       fixed 0b001\n"),
        "{s}"
    );
    assert!(
        s.contains("  52     lbo_mode             0         relative: leading byte offset\n"),
        "{s}"
    );
    assert!(
        s.contains("  53-60  fixed_53_60          00000000  fixed 0b00000000\n"),
        "{s}"
    );
    assert!(
        s.contains("  61-63  swizzle              010       128B: 128-Byte swizzling\n"),
        "{s}"
    );
    assert_eq!(format!("{d:?}"), "SmemDescriptor(0x4000404000010040)");

    let dec = SmemDescriptor::decode(0x6000_0000_4000_4040, T);
    let s: String = format!("{dec}");
    assert!(s.contains("reserved: SET, must be 0"), "{s}");
    assert!(s.contains("invalid code 3"), "{s}");
    assert!(
        s.contains("error: bit 14: bit 14 is not described by Table 40"),
        "{s}"
    );
    assert!(
        s.contains("error: fixed_46_48: bits 46-48 must hold"),
        "{s}"
    );
    assert!(s.contains("(rules.md R1)"), "{s}");
    assert!(format!("{}", SmemDescriptor::decode(d.bits(), T)).ends_with("no problems\n"));
}

#[test]
fn error_messages_name_value_and_source() {
    let cases = [
        (
            SmemError::Misaligned {
                field: SmemField::StartAddress,
                value: 0x408,
            },
            "matrix start address 0x408 is not 16-byte aligned",
            "PTX ISA 9.7.16.4.1",
        ),
        (
            SmemError::OutOfRange {
                field: SmemField::LeadingByteOffset,
                value: 0x40000,
            },
            "leading dimension byte offset 0x40000 does not fit in the 18 bits kept by \
             matrix-descriptor-encode (at most 0x3fff0)",
            "rules.md R3",
        ),
        (
            SmemError::FixedBits {
                field: SmemField::Fixed46To48,
                found: 0,
            },
            "bits 46-48 must hold the fixed constant value 0b001, found 0b000",
            "rules.md R1",
        ),
        (
            SmemError::AbsoluteModeTarget {
                target: Target::Sm100f,
            },
            "the byte address mode for the leading dimension stride is supported on \
             sm_103a only, not on sm_100f",
            "PTX ISA 9.7.16.4.1.1",
        ),
        (
            SmemError::InvalidSwizzle { code: 5 },
            "swizzling mode 5 is invalid (valid: 0, 1, 2, 4, 6; values 3, 5 and 7 are \
             invalid)",
            "PTX ISA 9.7.16.4.1 Table 40",
        ),
    ];
    for (e, msg, source) in cases {
        assert_eq!(format!("{e}"), msg);
        assert_eq!(format!("{}", e.source()), source);
    }
}

/// The problems of a raw value as Table 40 and rules.md R1, R2, R4 and R5 state them, written
/// out bit by bit without the layout table.
fn reference_problems(raw: u64, target: Target) -> Vec<SmemError> {
    let mut out = Vec::new();
    for bit in [14, 15, 30, 31] {
        if raw >> bit & 1 == 1 {
            out.push(SmemError::ReservedBit { bit });
        }
    }
    let fixed46 = (raw >> 46 & 0b111) as u8;
    if fixed46 != 0b001 {
        out.push(SmemError::FixedBits {
            field: SmemField::Fixed46To48,
            found: fixed46,
        });
    }
    let fixed53 = (raw >> 53 & 0xff) as u8;
    if fixed53 != 0 {
        out.push(SmemError::FixedBits {
            field: SmemField::Fixed53To60,
            found: fixed53,
        });
    }
    let code = (raw >> 61) as u8;
    // Table 40: 0 none, 1 128B with 32B atomicity, 2 128B, 4 64B, 6 32B.
    if ![0, 1, 2, 4, 6].contains(&code) {
        out.push(SmemError::InvalidSwizzle { code });
    }
    let base = (raw >> 49 & 0b111) as u8;
    if base != 0 && code == 0 {
        out.push(SmemError::BaseOffsetWithoutSwizzle { value: base });
    }
    if raw >> 52 & 1 == 1 {
        if target != Target::Sm103a {
            out.push(SmemError::AbsoluteModeTarget { target });
        }
        if code != 2 {
            out.push(SmemError::AbsoluteModeSwizzle { code });
        }
        if base != 0 {
            out.push(SmemError::AbsoluteModeBaseOffset { value: base });
        }
    }
    out
}

/// The problem set gives, through every accessor, the list Table 40 gives: random words and
/// valid CUTLASS words with single fields mutated, on both targets, with each rule broken in a
/// real share of the cases and some values clean.
#[test]
fn problem_set_matches_table_40_through_every_accessor() {
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut broken = std::collections::BTreeMap::<SmemRule, usize>::new();
    let (mut clean, mut with_warning_only) = (0, 0);
    let cases = 200_000;
    for i in 0..cases {
        let r = next();
        let raw = match i % 4 {
            0 => r,
            // A valid word with one random field rewritten.
            _ => {
                let base = CUTLASS[(r % 4) as usize].0;
                let row = &SMEM_LAYOUT[(r >> 8) as usize % SMEM_LAYOUT.len()];
                let value = (r >> 16) & ((1 << row.width) - 1);
                (base & !row.mask()) | (value << row.lo) | if i % 16 == 1 { 1 << 52 } else { 0 }
            }
        };
        let target = if r >> 63 == 1 { Target::Sm103a } else { T };
        let want = reference_problems(raw, target);
        let d = SmemDescriptor::decode(raw, target);
        let set = d.diagnostics;
        assert_eq!(problems(&set), want, "{raw:#018x} {target}");
        assert_eq!(listed(&set.to_list()), want);
        assert_eq!(set.len(), want.len());
        assert_eq!(set.is_empty(), want.is_empty());
        assert_eq!(set.iter().len(), want.len());
        for (k, e) in want.iter().enumerate() {
            assert_eq!(set.get(k), Some(*e));
        }
        assert_eq!(set.get(want.len()), None);
        let errors: Vec<_> = want.iter().copied().filter(SmemError::is_error).collect();
        let warnings: Vec<_> = want.iter().copied().filter(|e| !e.is_error()).collect();
        assert_eq!(set.errors().collect::<Vec<_>>(), errors);
        assert_eq!(set.warnings().collect::<Vec<_>>(), warnings);
        assert_eq!(set.error_count(), errors.len());
        assert_eq!(set.warning_count(), warnings.len());
        assert_eq!(set.has_errors(), !errors.is_empty());
        assert_eq!(set.first_error(), errors.first().copied());
        assert_eq!(d.is_valid(), errors.is_empty());
        assert_eq!(SmemDescriptor::is_valid(raw, target), errors.is_empty());
        assert_eq!(
            SmemDescriptor::from_bits(raw, target).is_ok(),
            errors.is_empty()
        );
        for rule in SmemRule::ALL {
            assert_eq!(set.breaks(rule), want.iter().any(|e| e.rule() == rule));
        }
        for e in &want {
            *broken.entry(e.rule()).or_default() += 1;
        }
        clean += usize::from(want.is_empty());
        with_warning_only += usize::from(!want.is_empty() && errors.is_empty());
    }
    // Every rule a raw word can break is broken in at least 0.5% of the cases.
    for rule in [
        SmemRule::ReservedBit,
        SmemRule::FixedBits,
        SmemRule::InvalidSwizzle,
        SmemRule::BaseOffsetWithoutSwizzle,
        SmemRule::AbsoluteModeTarget,
        SmemRule::AbsoluteModeSwizzle,
        SmemRule::AbsoluteModeBaseOffset,
    ] {
        let n = broken.get(&rule).copied().unwrap_or(0);
        assert!(n * 200 >= cases, "{rule:?} broken in {n} of {cases} cases");
    }
    assert!(clean * 200 >= cases, "{clean} clean values of {cases}");
    assert!(
        with_warning_only * 1000 >= cases,
        "{with_warning_only} values with only warnings"
    );
}
