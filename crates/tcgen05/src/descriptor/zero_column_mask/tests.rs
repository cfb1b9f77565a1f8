use super::*;
use crate::bits::Role;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Severity;
use crate::diagnostic::Source;
use crate::mma::MaxShift;
use std::{format, string::String, string::ToString, vec::Vec};

const EX1: ZmaskFields = ZmaskFields {
    start_count: [0; 4],
    first_span: [false; 4],
    non_zero_mask: false,
    skip_span: 4,
    use_span: 3,
    column_shift: 0,
};
const EX2: ZmaskFields = ZmaskFields {
    start_count: [0; 4],
    first_span: [false; 4],
    non_zero_mask: true,
    skip_span: 2,
    use_span: 3,
    column_shift: 0,
};
const EX3: ZmaskFields = ZmaskFields {
    start_count: [0; 4],
    first_span: [true, false, false, false],
    non_zero_mask: true,
    skip_span: 2,
    use_span: 3,
    column_shift: 0,
};
// Seed 002 lists {sc3, sc2, sc1, sc0} = {1, 2, 1, 0} and {fs3, fs2, fs1, fs0} = {0, 0, 1, 1}.
const EX4: ZmaskFields = ZmaskFields {
    start_count: [0, 1, 2, 1],
    first_span: [true, true, false, false],
    non_zero_mask: true,
    skip_span: 2,
    use_span: 3,
    column_shift: 2,
};

/// The low bits of `mask`, most significant first, without separators.
fn low(mask: &ColumnMask, digits: &str) -> bool {
    let want: String = digits.chars().filter(|c| *c == '0' || *c == '1').collect();
    mask.to_string().ends_with(&want)
}

fn all<const N: usize>(d: &Diagnostics<ZmaskError, N>) -> Vec<ZmaskError> {
    d.iter().collect()
}

#[test]
fn raw_values_of_the_worked_examples() {
    // Bits written by hand from Table 45: skip 40-47, use 48-55, nzm 39, fs 32-35,
    // sc 0-31, shift 56-61.
    assert_eq!(ZeroColumnMask::new(EX1).bits(), 0x0003_0400_0000_0000);
    assert_eq!(ZeroColumnMask::new(EX2).bits(), 0x0003_0280_0000_0000);
    assert_eq!(ZeroColumnMask::new(EX3).bits(), 0x0003_0281_0000_0000);
    assert_eq!(ZeroColumnMask::new(EX4).bits(), 0x0203_0283_0102_0100);
    for f in [EX1, EX2, EX3, EX4] {
        let d = ZeroColumnMask::new(f);
        assert_eq!(d.fields(), f);
        assert_eq!(ZeroColumnMask::from_bits(d.bits()), Ok(d));
        assert!(ZeroColumnMask::decode(d.bits()).diagnostics.is_empty());
    }
}

#[test]
fn example_1_is_all_zeros_for_every_n() {
    for n in [64, 128, 256] {
        let m = column_mask(&EX1, 128, n).expect("valid");
        assert!(m.is_zero());
        assert_eq!(m.width(), n);
        assert_eq!(zeroed_columns(&EX1, 128, n).expect("valid").count(), 0);
    }
    assert!(all(&validate_for(&EX1, 128, 128, None)).is_empty());
}

#[test]
fn example_2_low_bits() {
    for n in [64, 128, 256] {
        let m = sub_mask(&EX2, 0, 128, n).expect("valid").expect("valid");
        assert!(low(&m, "111 0000 111 0000"), "{n}: {m}");
        assert_eq!(column_mask(&EX2, 128, n).expect("valid"), m);
        // Period 7: 3 zeroed of every 7 columns.
        assert_eq!(
            m.count_ones(),
            (n / 7) * 3 + [0, 0, 0, 0, 0, 1, 2][(n % 7) as usize]
        );
    }
    assert!(all(&validate_for(&EX2, 128, 256, None)).is_empty());
}

#[test]
fn example_3_low_bits() {
    for n in [64, 128, 256] {
        let [m0, m1, m2, m3] = sub_masks(&EX3, 64, n).expect("valid");
        let (m0, m1) = (m0.expect("valid"), m1.expect("valid"));
        assert!(m2.is_none() && m3.is_none());
        assert_eq!((m0.width(), m1.width()), (n / 2, n / 2));
        assert!(low(&m0, "111 0000 111 0000 111"), "{n}: {m0}");
        assert!(low(&m1, "0000 111 0000 111 0000"), "{n}: {m1}");
        let full = column_mask(&EX3, 64, n).expect("valid");
        assert_eq!(full.slice(0, n / 2).expect("valid"), m0);
        assert_eq!(full.slice(n / 2, n / 2).expect("valid"), m1);
    }
    assert!(all(&validate_for(&EX3, 64, 128, None)).is_empty());
}

#[test]
fn example_4_low_bits_of_each_sub_mask() {
    for n in [64, 128, 256] {
        let masks = sub_masks(&EX4, 32, n).expect("valid");
        let expect = [
            "0000 111 0000 111",
            "0000 111 0000 11",
            "111 0000 111 00",
            "111 0000 111 000",
        ];
        for (i, e) in expect.iter().enumerate() {
            let m = masks[i].expect("valid");
            assert_eq!(m.width(), n / 4);
            assert!(low(&m, e), "N {n} mask{i}: {m}");
            let cols = sub_mask_columns(i, 32, n).expect("valid").expect("valid");
            assert_eq!(
                column_mask(&EX4, 32, n)
                    .expect("valid")
                    .slice(cols.start, n / 4)
                    .expect("valid"),
                m
            );
        }
    }
    // "If N = 128 then B Matrix with columns from 2 to 129 will be used."
    assert_eq!(EX4.read_columns(128), 2..130);
    assert!(all(&validate_for(&EX4, 32, 128, Some(MaxShift::Rows8))).is_empty());
}

#[test]
fn full_mask_of_example_4_for_n_64() {
    let m = column_mask(&EX4, 32, 64).expect("valid");
    // Written by hand from R20, MSB first: mask3, mask2, mask1, mask0 (16 bits each).
    assert_eq!(
        m.to_string(),
        [
            "0001110000111000",
            "0000111000011100",
            "1110000111000011",
            "1100001110000111",
        ]
        .concat()
    );
    // Exact, column by column, from R20's definition (independent of `pattern`).
    for i in 0..4usize {
        let sc = EX4.start_count[i] as u16;
        for j in 0..16u16 {
            let q = (j + sc) % 7;
            let first = if EX4.first_span[i] { 3 } else { 4 };
            let v = if q < first {
                EX4.first_span[i]
            } else {
                !EX4.first_span[i]
            };
            assert_eq!(m.bit(i as u16 * 16 + j), v, "mask{i} bit {j}");
        }
    }
}

#[test]
fn solver_reproduces_the_examples() {
    for n in [64u16, 128, 256] {
        let opts = SolveOptions::DEFAULT.with_column_shift(2);
        let f = solve(32, n, &column_mask(&EX4, 32, n).expect("valid"), opts).expect("valid");
        assert_eq!(f, EX4, "N {n}");
        let f = solve(
            64,
            n,
            &column_mask(&EX3, 64, n).expect("valid"),
            SolveOptions::DEFAULT,
        );
        assert_eq!(f, Ok(EX3));
        let f = solve(
            128,
            n,
            &column_mask(&EX2, 128, n).expect("valid"),
            SolveOptions::DEFAULT,
        );
        assert_eq!(f, Ok(EX2));
        let f = solve(
            128,
            n,
            &column_mask(&EX1, 128, n).expect("valid"),
            SolveOptions::DEFAULT,
        );
        assert_eq!(f, Ok(ZmaskFields::DISABLED));
    }
}

#[test]
fn solver_all_ones_and_bad_arguments() {
    let ones = ColumnMask::all_ones(256).expect("valid");
    let f = solve(128, 256, &ones, SolveOptions::DEFAULT).expect("valid");
    assert_eq!(
        (f.skip_span, f.use_span, f.first_span[0], f.start_count[0]),
        (255, 0, true, 0)
    );
    assert_eq!(column_mask(&f, 128, 256).expect("valid"), ones);
    let f = solve(32, 256, &ones, SolveOptions::DEFAULT).expect("valid");
    assert_eq!((f.skip_span, f.first_span), (63, [true; 4]));
    assert_eq!(
        solve(16, 256, &ones, SolveOptions::DEFAULT),
        Err(SolveError::M { m: 16 })
    );
    assert_eq!(
        solve(32, 130, &ones, SolveOptions::DEFAULT),
        Err(SolveError::MaskWidth { n: 130, m: 32 })
    );
    assert_eq!(
        solve(128, 128, &ones, SolveOptions::DEFAULT),
        Err(SolveError::WidthMismatch { width: 256, n: 128 })
    );
    assert_eq!(
        solve(32, 256, &ones, SolveOptions::DEFAULT.with_column_shift(17)),
        Err(SolveError::ColumnShift { shift: 17, max: 16 })
    );
    assert_eq!(
        solve(
            64,
            256,
            &ones,
            SolveOptions::DEFAULT
                .with_column_shift(9)
                .with_max_shift(MaxShift::Rows8)
        ),
        Err(SolveError::ColumnShiftAboveMaxShift {
            shift: 9,
            max_shift: MaxShift::Rows8
        })
    );
}

#[test]
fn solver_proves_impossibility() {
    // Inner zeroed runs of 3 then 2.
    let m = ColumnMask::parse_bits("0 11 0000 111 0").expect("valid");
    let e = solve(128, 11, &m, SolveOptions::DEFAULT).expect_err("fails");
    assert_eq!(
        e,
        SolveError::RunLengthsDiffer {
            zeroed: true,
            length: 2,
            column: 8,
            expected: 3,
            expected_column: 1
        }
    );
    assert!(e.is_no_solution());
    assert_eq!(e.field(), "skip_span");
    // An edge run of 4 zeroed columns but inner runs of 2.
    let m = ColumnMask::parse_bits("1111 0 11 0").expect("valid");
    assert_eq!(
        solve(128, 8, &m, SolveOptions::DEFAULT),
        Err(SolveError::EdgeRunTooLong {
            zeroed: true,
            length: 4,
            column: 4,
            limit: 2
        })
    );
    // Sub-masks disagree: mask0 has inner used runs of 1, mask1 of 2 (M = 64).
    let m = ColumnMask::parse_bits("1001_1001 0101_0101").expect("valid");
    assert!(solve(64, 16, &m, SolveOptions::DEFAULT)
        .expect_err("fails")
        .is_no_solution());
    // An all-zero sub-mask needs used runs at least as long as it; mask0's inner used run
    // is 2 long (M = 64). Without that inner run a use span of 8 would do.
    let ok = ColumnMask::parse_bits("0000_0000 0001_1000").expect("valid");
    let f = solve(64, 16, &ok, SolveOptions::DEFAULT).expect("valid");
    assert_eq!((f.skip_span, f.use_span, f.start_count[0]), (1, 7, 5));
    assert_eq!(column_mask(&f, 64, 16), Ok(ok));
    let m = ColumnMask::parse_bits("0000_0000 1001_1001").expect("valid");
    assert_eq!(
        solve(64, 16, &m, SolveOptions::DEFAULT),
        Err(SolveError::EdgeRunTooLong {
            zeroed: false,
            length: 8,
            column: 8,
            limit: 2
        })
    );
    let msg = format!(
        "{}",
        solve(64, 16, &m, SolveOptions::DEFAULT).expect_err("fails")
    );
    assert!(msg.contains("no zero-column mask generates this"), "{msg}");
}

#[test]
fn each_rule_broken_once() {
    let ok = EX4;
    type Case = (
        ZmaskFields,
        u16,
        u16,
        Option<MaxShift>,
        ZmaskError,
        &'static str,
    );
    let cases: [Case; 8] = [
        (ok, 48, 128, None, ZmaskError::M { m: 48 }, "m"),
        (ok, 32, 96, None, ZmaskError::N { n: 96 }, "n"),
        (
            ZmaskFields {
                column_shift: 17,
                ..ok
            },
            32,
            128,
            None,
            ZmaskError::ColumnShift { shift: 17, max: 16 },
            "column_shift",
        ),
        (
            ZmaskFields {
                column_shift: 33,
                ..EX2
            },
            128,
            128,
            None,
            ZmaskError::ColumnShift { shift: 33, max: 32 },
            "column_shift",
        ),
        (
            ok,
            32,
            128,
            Some(MaxShift::None),
            ZmaskError::ColumnShiftAboveMaxShift {
                shift: 2,
                max_shift: MaxShift::None,
            },
            "column_shift",
        ),
        (
            ZmaskFields {
                start_count: [0, 5, 0, 0],
                ..EX2
            },
            128,
            128,
            None,
            ZmaskError::UnusedStartCount {
                sub_mask: 1,
                value: 5,
                m: 128,
            },
            "start_count_1",
        ),
        (
            ZmaskFields {
                first_span: [false, false, false, true],
                ..EX3
            },
            64,
            128,
            None,
            ZmaskError::UnusedFirstSpan { sub_mask: 3, m: 64 },
            "first_span_3",
        ),
        (
            ZmaskFields {
                start_count: [0, 0, 4, 1],
                ..ok
            },
            32,
            128,
            None,
            ZmaskError::StartCountPastFirstRun {
                sub_mask: 2,
                start_count: 4,
                first_run: 4,
            },
            "start_count_2",
        ),
    ];
    for (f, m, n, ms, want, field) in cases {
        let got = all(&validate_for(&f, m, n, ms));
        assert_eq!(got, [want], "{want}");
        assert_eq!(want.field(), field);
        let sev = if matches!(
            want,
            ZmaskError::UnusedStartCount { .. }
                | ZmaskError::UnusedFirstSpan { .. }
                | ZmaskError::StartCountPastFirstRun { .. }
        ) {
            Severity::Warning
        } else {
            Severity::Error
        };
        assert_eq!(want.severity(), sev);
        assert!(!format!("{want}").is_empty());
    }
    // The warning's model: the pattern continues (start count 4 skips the 4 used columns).
    let f = ZmaskFields {
        start_count: [0, 0, 4, 1],
        ..ok
    };
    let m2 = sub_mask(&f, 2, 32, 64).expect("valid").expect("valid");
    assert!(low(&m2, "0000 111 0000 111"));
    // With non-zero mask 0 the pattern fields draw no warning.
    let f = ZmaskFields {
        start_count: [200, 9, 9, 9],
        first_span: [true; 4],
        ..EX1
    };
    assert!(validate_for(&f, 128, 128, None).is_empty());
    assert_eq!(
        sub_mask_width(32, 102),
        Err(ZmaskError::MaskWidth { n: 102, m: 32 })
    );
    assert_eq!(
        sub_mask_width(32, 0),
        Err(ZmaskError::MaskWidth { n: 0, m: 32 })
    );
    assert_eq!(
        sub_mask_width(128, 257),
        Err(ZmaskError::MaskWidth { n: 257, m: 128 })
    );
    assert_eq!(sub_mask(&EX2, 1, 128, 64), Ok(None));
    assert_eq!(sub_mask(&EX2, 9, 32, 64), Ok(None));
}

#[test]
fn try_new_and_new_check_the_shift() {
    assert_eq!(
        ZeroColumnMask::try_new(ZmaskFields {
            column_shift: 33,
            ..EX2
        }),
        Err(ZmaskError::ColumnShift { shift: 33, max: 32 })
    );
    assert_eq!(
        ZeroColumnMask::try_new(ZmaskFields {
            column_shift: 200,
            ..EX2
        }),
        Err(ZmaskError::ColumnShift {
            shift: 200,
            max: 32
        })
    );
    assert!(ZeroColumnMask::try_new(ZmaskFields {
        column_shift: 32,
        ..EX2
    })
    .is_ok());
    let r = std::panic::catch_unwind(|| {
        ZeroColumnMask::new(ZmaskFields {
            column_shift: 40,
            ..EX2
        })
    });
    assert!(r.is_err());
}

#[test]
fn every_reserved_bit_flipped() {
    let base = ZeroColumnMask::new(EX4).bits();
    for bit in [36u8, 37, 38, 62, 63] {
        let raw = base | (1u64 << bit);
        let d = ZeroColumnMask::decode(raw);
        assert_eq!(all(&d.diagnostics), [ZmaskError::ReservedBit { bit }]);
        assert_eq!(d.fields, EX4);
        let e = ZeroColumnMask::from_bits(raw).expect_err("fails");
        assert_eq!(e, ZmaskError::ReservedBit { bit });
        assert_eq!(e.field(), format!("bit {bit}"));
        assert_eq!(
            e.source(),
            if bit >= 62 {
                Source::Decision(22)
            } else {
                Source::PtxTable(45)
            }
        );
        assert_eq!(ZeroColumnMask::from_bits_unchecked(raw).bits(), raw);
    }
}

#[test]
fn many_problems_at_once() {
    // All reserved bits, shift 63, and with context: M = 128 using sub-mask fields 1-3,
    // N = 100, max shift 8, start count 0 past a first run of 1.
    let f = ZmaskFields {
        start_count: [1, 2, 3, 4],
        first_span: [false, true, true, true],
        non_zero_mask: true,
        skip_span: 0,
        use_span: 0,
        column_shift: 63,
    };
    let raw = f.to_raw_unchecked() | 0xC000_0070_0000_0000;
    let d = ZeroColumnMask::decode(raw).diagnostics;
    assert_eq!(d.len(), 6);
    let d = ZeroColumnMask::decode_for(raw, 128, 100, Some(MaxShift::Rows8)).diagnostics;
    let got = all(&d);
    assert_eq!(
        got,
        [
            ZmaskError::ReservedBit { bit: 36 },
            ZmaskError::ReservedBit { bit: 37 },
            ZmaskError::ReservedBit { bit: 38 },
            ZmaskError::ReservedBit { bit: 62 },
            ZmaskError::ReservedBit { bit: 63 },
            ZmaskError::N { n: 100 },
            ZmaskError::ColumnShift { shift: 63, max: 32 },
            ZmaskError::ColumnShiftAboveMaxShift {
                shift: 63,
                max_shift: MaxShift::Rows8
            },
            ZmaskError::StartCountPastFirstRun {
                sub_mask: 0,
                start_count: 1,
                first_run: 1
            },
            ZmaskError::UnusedStartCount {
                sub_mask: 1,
                value: 2,
                m: 128
            },
            ZmaskError::UnusedFirstSpan {
                sub_mask: 1,
                m: 128
            },
            ZmaskError::UnusedStartCount {
                sub_mask: 2,
                value: 3,
                m: 128
            },
            ZmaskError::UnusedFirstSpan {
                sub_mask: 2,
                m: 128
            },
            ZmaskError::UnusedStartCount {
                sub_mask: 3,
                value: 4,
                m: 128
            },
            ZmaskError::UnusedFirstSpan {
                sub_mask: 3,
                m: 128
            },
        ]
    );
    assert!(!d.overflowed());
    assert_eq!(d.errors().count(), 8);
    assert_eq!(d.warnings().count(), 7);
    // M unknown too: M, N, shift errors, no sub-mask checks.
    let got = all(&ZeroColumnMask::decode_for(raw, 0, 0, Some(MaxShift::Rows32)).diagnostics);
    assert_eq!(got.len(), 5 + 4);
    // The worst case for M = 32.
    let d = ZeroColumnMask::decode_for(u64::MAX, 32, 1, Some(MaxShift::None)).diagnostics;
    assert!(!d.overflowed());
}

#[test]
fn layout_table_covers_table_45() {
    let names: Vec<&str> = ZMASK_LAYOUT.iter().map(|r| r.field.name()).collect();
    assert_eq!(names.len(), 14);
    for (i, f) in ZmaskField::ALL.iter().enumerate() {
        assert_eq!(f.row().field, *f);
        assert_eq!(ZMASK_LAYOUT[i].field, *f);
    }
    assert_eq!(ZmaskField::SkipSpan.row().lo, 40);
    assert_eq!(ZmaskField::UseSpan.row().lo, 48);
    assert_eq!(ZmaskField::ColumnShift.row().width, 6);
    let reserved: u64 = ZMASK_LAYOUT
        .iter()
        .filter(|r| r.role == Role::Reserved)
        .map(|r| r.mask())
        .fold(0, |a, b| a | b);
    assert_eq!(reserved, 0xC000_0070_0000_0000);
    assert_eq!(ZmaskField::StartCount2.json_key(), "start_count");
    assert_eq!(ZmaskField::FirstSpan1.sub_mask(), Some(1));
}

#[test]
fn display_table() {
    let s = format!("{}", ZeroColumnMask::new(EX4));
    assert!(
        s.starts_with("zero-column mask descriptor 0x0203028301020100"),
        "{s}"
    );
    assert_eq!(s.lines().count(), 16);
    assert!(
        s.contains("  16-23  start_count_2   00000010  mask2 skips 2 position(s) of its pattern (M = 32)\n"),
        "{s}"
    );
    assert!(s.contains("runs of 3 zeroed column(s)"), "{s}");
    assert!(s.contains("runs of 4 used column(s)"), "{s}");
    assert!(s.contains("B columns 2..2+N-1"), "{s}");
    assert!(
        s.contains("  39     non_zero_mask   1         1: generate the mask\n"),
        "{s}"
    );
    let bad = format!("{}", ZeroColumnMask::from_bits_unchecked(1 << 63));
    assert!(bad.contains("reserved: SET"), "{bad}");
}

#[test]
fn column_mask_helpers() {
    let m = ColumnMask::parse_bits(
        "0b1000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0001_1",
    )
    .expect("valid");
    assert_eq!(m.width(), 65);
    assert_eq!(m.iter_ones().collect::<Vec<_>>(), [0, 1, 64]);
    assert_eq!(m.count_ones(), 3);
    assert_eq!(format!("{m:x}"), "10000000000000003");
    assert_eq!(format!("{m:#x}"), "0x10000000000000003");
    assert_eq!(ColumnMask::parse_hex("0x1_0000_0000_0000_0003", 65), Ok(m));
    assert_eq!(
        ColumnMask::parse_hex("0x3_0000_0000_0000_0003", 65),
        Err(ColumnMaskError::BitBeyondWidth { bit: 65, width: 65 })
    );
    assert_eq!(ColumnMask::parse_bits("0b"), Err(ColumnMaskError::NoDigits));
    assert_eq!(
        ColumnMask::parse_bits("012"),
        Err(ColumnMaskError::BadDigit { byte: b'2' })
    );
    assert_eq!(ColumnMask::parse_hex("", 8), Err(ColumnMaskError::NoDigits));
    let long: String = core::iter::repeat_n('1', 257).collect();
    assert!(matches!(
        ColumnMask::parse_bits(&long),
        Err(ColumnMaskError::WidthTooLarge { .. })
    ));
    let full = ColumnMask::all_ones(256).expect("valid");
    assert_eq!(full.count_ones(), 256);
    assert_eq!(full.to_string().len(), 256);
    assert_eq!(ColumnMask::parse_bits(&full.to_string()), Ok(full));
    assert_eq!(format!("{full:x}").len(), 64);
    assert_eq!(
        ColumnMask::zeros(257),
        Err(ColumnMaskError::WidthTooLarge { width: 257 })
    );
    assert_eq!(
        ColumnMask::from_words([0, 0, 0, 1 << 63], 255),
        Err(ColumnMaskError::BitBeyondWidth {
            bit: 255,
            width: 255
        })
    );
    let z = ColumnMask::zeros(10)
        .expect("valid")
        .with_bit(9, true)
        .expect("valid");
    assert_eq!(z.to_string(), "1000000000");
    assert_eq!(
        z.with_bit(9, false).expect("valid"),
        ColumnMask::zeros(10).expect("valid")
    );
    assert_eq!(
        z.with_bit(10, true),
        Err(ColumnMaskError::ColumnOutOfRange {
            column: 10,
            width: 10
        })
    );
    assert!(!z.bit(300));
    assert_eq!(z.next_one(10), None);
    assert_eq!(ColumnMask::EMPTY.to_string(), "");
    assert_eq!(format!("{:?}", z), "ColumnMask<10>(0b1000000000)");
    assert_eq!(
        ColumnMask::from_u128(5, 3).expect("valid").to_string(),
        "101"
    );
}

#[test]
fn pattern_matches_the_bitwise_definition() {
    for skip in [0u8, 1, 2, 5, 63, 64, 200, 255] {
        for use_ in [0u8, 1, 3, 63, 64, 65, 255] {
            for sc in [0u8, 1, 2, 7, 64, 127, 255] {
                for fs in [false, true] {
                    let m = pattern(fs, sc, skip, use_, 256);
                    let (a, b) = (skip as u16 + 1, use_ as u16 + 1);
                    let first = if fs { a } else { b };
                    for j in 0..256u16 {
                        let q = (j + sc as u16) % (a + b);
                        let v = if q < first { fs } else { !fs };
                        assert_eq!(
                            m.bit(j),
                            v,
                            "skip {skip} use {use_} sc {sc} fs {fs} bit {j}"
                        );
                    }
                }
            }
        }
    }
}
