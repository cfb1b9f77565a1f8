use super::*;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Source;
use crate::diagnostic::{OneLine, Severity};
use std::{format, string::ToString, vec::Vec};

/// Table 49 (= Table 50) as ptx-beyond-seeds.md section 2.1 prints it; `None` = n/a.
const TABLE_49: [(Num, [Option<u16>; 3]); 8] = [
    (Num::X1, [Some(1), Some(2), Some(4)]),
    (Num::X2, [Some(2), Some(4), Some(8)]),
    (Num::X4, [Some(4), Some(8), Some(16)]),
    (Num::X8, [Some(8), Some(16), Some(32)]),
    (Num::X16, [Some(16), Some(32), Some(64)]),
    (Num::X32, [Some(32), Some(64), Some(128)]),
    (Num::X64, [Some(64), Some(128), None]),
    (Num::X128, [Some(128), None, None]),
];

const fn column_of(shape: LdStShape) -> usize {
    match shape {
        LdStShape::S16x32bx2 | LdStShape::S16x64b | LdStShape::S32x32b => 0,
        LdStShape::S16x128b => 1,
        LdStShape::S16x256b => 2,
    }
}

#[test]
fn register_counts_follow_table_49_for_every_shape_and_num() {
    let mut checked = 0;
    for shape in LdStShape::ALL {
        for (num, row) in TABLE_49 {
            let want = row[column_of(shape)];
            let got = registers_per_thread(shape, num);
            match want {
                Some(r) => assert_eq!(got, Ok(r), "{shape}{num}"),
                None => {
                    let e = got.expect_err("must fail");
                    assert_eq!(e, TmemError::NumTooLargeForShape { shape, num });
                    assert_eq!(e.field(), "num");
                    assert_eq!(e.value(), u64::from(num.count()));
                    assert_eq!(e.source(), Source::PtxTable(49));
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 40);
}

#[test]
fn valid_nums_are_exactly_the_table_cells() {
    for shape in LdStShape::ALL {
        let listed: Vec<Num> = valid_nums(shape).to_vec();
        let from_table: Vec<Num> = TABLE_49
            .iter()
            .filter(|(_, row)| row[column_of(shape)].is_some())
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(listed, from_table, "{shape}");
        assert_eq!(listed.last(), Some(&shape.max_num()));
        assert_eq!(
            registers_per_thread(shape, shape.max_num()),
            Ok(MAX_REGISTERS_PER_THREAD)
        );
    }
    assert_eq!(valid_nums(LdStShape::S16x256b).len(), 6);
    assert_eq!(valid_nums(LdStShape::S16x128b).len(), 7);
    assert_eq!(valid_nums(LdStShape::S32x32b).len(), 8);
}

#[test]
fn shape_geometry_agrees_with_register_counts() {
    // 32 threads x registers x 32 bits = lanes x bits x accesses.
    for s in LdStShape::ALL {
        assert_eq!(
            32 * 32 * u32::from(s.registers_per_num()),
            s.lanes() * s.bits_per_lane() * s.accesses(),
            "{s}"
        );
        assert_eq!(s.columns_per_num() * 32, s.bits_per_lane());
    }
    let geo: Vec<_> = LdStShape::ALL
        .iter()
        .map(|s| (s.lanes(), s.bits_per_lane(), s.columns_per_num()))
        .collect();
    assert_eq!(
        geo,
        [
            (16, 64, 2),
            (16, 128, 4),
            (16, 256, 8),
            (16, 32, 1),
            (32, 32, 1)
        ]
    );
    assert_eq!(LdStShape::S16x32bx2.accesses(), 2);
}

#[test]
fn shape_names_parse_with_and_without_dot() {
    for s in LdStShape::ALL {
        assert_eq!(LdStShape::from_name(s.name()), Ok(s));
        assert_eq!(LdStShape::from_name(&s.name()[1..]), Ok(s));
        assert_eq!(s.to_string(), s.name());
    }
    for s in CpShape::ALL {
        assert_eq!(CpShape::from_name(s.name()), Ok(s));
        assert_eq!(CpShape::from_name(&s.name()[1..]), Ok(s));
    }
    assert_eq!(ShiftShape::from_name("31x256b"), Ok(ShiftShape));
    for s in DataMovementShape::ALL {
        assert_eq!(DataMovementShape::from_name(s.name()), Ok(s));
    }
    for bad in [
        "",
        ".",
        "16x32b",
        ".16x64",
        "x",
        ".32x32bx2",
        "..16x64b",
        "16X64B",
    ] {
        assert_eq!(
            LdStShape::from_name(bad),
            Err(TmemError::UnknownShape { op: TmemOp::LdSt }),
            "{bad:?}"
        );
        assert_eq!(
            CpShape::from_name(bad),
            Err(TmemError::UnknownShape { op: TmemOp::Cp })
        );
    }
}

#[test]
fn shift_shape_is_not_a_cp_shape() {
    let e = CpShape::from_name(".31x256b").expect_err("must fail");
    assert_eq!(
        e,
        TmemError::ShapeOfOtherOp {
            shape: DataMovementShape::Shift(ShiftShape),
            wanted: TmemOp::Cp
        }
    );
    assert_eq!(e.field(), "shape");
    assert_eq!(e.source(), Source::Decision(23));
    assert_eq!(
        e.to_string(),
        ".31x256b is the implicit shape of tcgen05.shift, not a tcgen05.cp shape"
    );
    let e = LdStShape::from_name("31x256b").expect_err("must fail");
    assert!(e.to_string().contains("implicit shape of tcgen05.shift"));
    let e = LdStShape::from_name(".128x256b").expect_err("must fail");
    assert_eq!(
        e.to_string(),
        ".128x256b is a tcgen05.cp shape, not a tcgen05.ld/st shape"
    );
    let e = CpShape::from_name(".32x32b").expect_err("must fail");
    assert_eq!(
        e.to_string(),
        ".32x32b is a tcgen05.ld/st shape, not a tcgen05.cp shape"
    );
    assert!(ShiftShape::from_name(".4x256b").is_err());
    let s = ShiftShape;
    assert_eq!(
        (s.lanes(), s.bits_per_lane(), s.columns_per_lane()),
        (31, 256, 8)
    );
}

#[test]
fn shift_address_lane_must_be_a_multiple_of_32() {
    for lane in 0..TMEM_LANES {
        let r = ShiftShape.validate_address(TmemAddress::new(lane, 7));
        if lane % 32 == 0 {
            assert_eq!(r, Ok(()));
        } else {
            let e = r.expect_err("must fail");
            assert_eq!(e, TmemError::ShiftLaneNotAligned { lane });
            assert_eq!(e.field(), "lane");
            assert_eq!(e.source(), Source::PtxSection("9.7.16.9.3"));
        }
    }
}

#[test]
fn cp_multicast_rules() {
    let mut ok = Vec::new();
    for s in CpShape::ALL {
        for m in CpMulticast::ALL {
            match validate_cp(s, m) {
                Ok(()) => ok.push((s, m)),
                Err(e) => {
                    assert_eq!(
                        e,
                        TmemError::CpMulticastMismatch {
                            shape: s,
                            multicast: m
                        }
                    );
                    assert_eq!(e.field(), "multicast");
                    assert_eq!(e.value(), u64::from(m.code()));
                }
            }
        }
    }
    use CpMulticast as M;
    use CpShape as S;
    assert_eq!(
        ok,
        [
            (S::S128x256b, M::None),
            (S::S4x256b, M::None),
            (S::S128x128b, M::None),
            (S::S64x128b, M::Warpx2_02_13),
            (S::S64x128b, M::Warpx2_01_23),
            (S::S32x128b, M::Warpx4),
        ]
    );
    assert_eq!(
        validate_cp(S::S64x128b, M::None)
            .expect_err("must fail")
            .to_string(),
        "shape .64x128b requires .warpx2::02_13 or .warpx2::01_23, not no multicast"
    );
    assert_eq!(
        validate_cp(S::S32x128b, M::Warpx2_01_23)
            .expect_err("must fail")
            .to_string(),
        "shape .32x128b requires .warpx4, not .warpx2::01_23"
    );
    assert_eq!(
        validate_cp(S::S4x256b, M::Warpx4)
            .expect_err("must fail")
            .to_string(),
        "shape .4x256b takes no .multicast qualifier, not .warpx4"
    );
}

#[test]
fn cp_geometry_and_multicast_names() {
    let geo: Vec<_> = CpShape::ALL
        .iter()
        .map(|s| (s.lanes(), s.bits_per_lane(), s.columns_per_lane()))
        .collect();
    assert_eq!(
        geo,
        [
            (128, 256, 8),
            (4, 256, 8),
            (128, 128, 4),
            (64, 128, 4),
            (32, 128, 4)
        ]
    );
    for m in CpMulticast::ALL {
        assert_eq!(CpMulticast::from_name(m.name()), Ok(m));
    }
    assert_eq!(CpMulticast::from_name("warpx4"), Ok(CpMulticast::Warpx4));
    assert_eq!(CpMulticast::from_name("none"), Ok(CpMulticast::None));
    assert_eq!(
        CpMulticast::from_name(".warpx2"),
        Err(TmemError::UnknownMulticast)
    );
    assert_eq!(TmemError::UnknownMulticast.field(), "multicast");
}

#[test]
fn nums_parse_and_refuse() {
    for n in Num::ALL {
        assert_eq!(Num::from_name(n.name()), Ok(n));
        assert_eq!(Num::from_name(&n.name()[1..]), Ok(n));
        assert_eq!(Num::from_count(u32::from(n.count())), Ok(n));
    }
    for c in [0u32, 3, 5, 6, 7, 12, 96, 127, 129, 256, 1024, u32::MAX] {
        let e = Num::from_count(c).expect_err("must fail");
        assert_eq!(e, TmemError::InvalidNum { num: c });
        assert_eq!(e.field(), "num");
        assert_eq!(e.value(), u64::from(c));
    }
    assert_eq!(Num::from_name(".x3"), Err(TmemError::InvalidNum { num: 3 }));
    assert_eq!(
        Num::from_name("x256"),
        Err(TmemError::InvalidNum { num: 256 })
    );
    assert_eq!(Num::from_name("x"), Err(TmemError::InvalidNum { num: 0 }));
    assert_eq!(
        Num::from_name("x99999999999"),
        Err(TmemError::InvalidNum { num: 0 })
    );
    assert_eq!(Num::from_name("4"), Err(TmemError::InvalidNum { num: 4 }));
}

#[test]
fn address_packing_and_worked_values() {
    let a = TmemAddress::new(0x45, 0x1f3);
    assert_eq!(a.bits(), 0x0045_01f3);
    assert_eq!((a.lane(), a.column()), (0x45, 0x1f3));
    assert_eq!(u32::from(a), 0x0045_01f3);
    assert_eq!(format!("{a:x}"), "4501f3");
    assert_eq!(TmemAddress::from_bits(0x0045_01f3), Ok(a));
    assert_eq!(TmemAddress::ZERO.bits(), 0);
    assert_eq!(TmemAddress::new(127, 511).bits(), 0x007f_01ff);
    assert_eq!(
        a.fields(),
        TmemAddressFields {
            lane: 0x45,
            column: 0x1f3
        }
    );
    assert_eq!(TmemAddress::from_fields(a.fields()), Ok(a));
}

#[test]
fn address_fields_out_of_range() {
    let e = TmemAddress::try_new(128, 0).expect_err("must fail");
    assert_eq!(e, TmemError::LaneOutOfRange { lane: 128 });
    assert_eq!((e.field(), e.value()), ("lane", 128));
    assert_eq!(e.source(), Source::Decision(24));
    assert_eq!(e.severity(), Severity::Error);
    let e = TmemAddress::try_new(0, 512).expect_err("must fail");
    assert_eq!(e, TmemError::ColumnOutOfRange { column: 512 });
    assert_eq!((e.field(), e.value()), ("column", 512));
    assert_eq!(
        TmemAddress::try_new(u32::MAX, u32::MAX),
        Err(TmemError::LaneOutOfRange {
            lane: u64::from(u32::MAX)
        })
    );
    // Both problems of one raw value are reported.
    let d = TmemAddress::validate(0xc000_0200);
    assert_eq!(d.len(), 2);
    assert!(!d.overflowed());
    assert_eq!(d.get(0), Some(TmemError::LaneOutOfRange { lane: 0xc000 }));
    assert_eq!(
        d.get(1),
        Some(TmemError::ColumnOutOfRange { column: 0x200 })
    );
    assert!(TmemAddress::validate(0x007f_01ff).is_empty());
    assert_eq!(
        format!("{}", OneLine(&TmemError::ColumnOutOfRange { column: 512 })),
        "column: column 512 (0x200) is outside Tensor Memory: a CTA has columns 0-511 \
         (rules.md R24)"
    );
}

#[test]
fn offsets_stay_inside_one_cta() {
    let a = TmemAddress::new(96, 500);
    assert_eq!(a.offset(31, 11), Ok(TmemAddress::new(127, 511)));
    assert_eq!(
        a.offset(32, 0),
        Err(TmemError::LaneOutOfRange { lane: 128 })
    );
    assert_eq!(
        a.offset(0, 12),
        Err(TmemError::ColumnOutOfRange { column: 512 })
    );
    assert_eq!(
        a.offset(u32::MAX, u32::MAX),
        Err(TmemError::LaneOutOfRange {
            lane: 96 + u64::from(u32::MAX)
        })
    );
    assert_eq!(TmemAddress::ZERO.offset(0, 0), Ok(TmemAddress::ZERO));
}

#[test]
fn warp_quadrant_rule() {
    for lane in 0..TMEM_LANES {
        let a = TmemAddress::new(lane, 0);
        assert_eq!(a.lane_quadrant(), lane / 32);
        for warp in 0..16u32 {
            let ok = lane >= 32 * (warp % 4) && lane < 32 * (warp % 4) + 32;
            assert_eq!(a.accessible_by_warp(warp), ok, "lane {lane} warp {warp}");
            assert_eq!(a.check_warp_access(warp).is_ok(), ok);
        }
    }
    assert!(TmemAddress::new(0, 0).accessible_by_warp(u32::MAX - 3)); // u32::MAX-3 % 4 == 0
    let e = TmemAddress::new(96, 3)
        .check_warp_access(5)
        .expect_err("must fail");
    assert_eq!(e, TmemError::LaneNotInWarpQuadrant { lane: 96, warp: 5 });
    assert_eq!((e.field(), e.value()), ("lane", 96));
    assert_eq!(e.source(), Source::PtxSection("9.7.16.8.1"));
    assert_eq!(
        e.to_string(),
        "warp 5 (warp 1 of its warpgroup) can access only lanes 32-63, not lane 96"
    );
    assert_eq!(warp_first_lane(7), 96);
}

#[test]
fn alloc_sizes() {
    let mut valid = Vec::new();
    for n in 0..=2048u32 {
        match AllocColumns::try_new(n) {
            Ok(c) => {
                assert_eq!(c.get(), n);
                valid.push(n);
            }
            Err(e) => {
                assert_eq!(e.field(), "n_cols");
                assert_eq!(e.value(), u64::from(n));
                assert_eq!(e.source(), Source::PtxSection("9.7.16.7.1"));
                if (32..=512).contains(&n) {
                    assert_eq!(e, TmemError::NColsNotPowerOfTwo { n_cols: n });
                } else {
                    assert_eq!(e, TmemError::NColsOutOfRange { n_cols: n });
                }
            }
        }
    }
    assert_eq!(valid, [32, 64, 128, 256, 512]);
    let all: Vec<u32> = AllocColumns::ALL.iter().map(|c| c.get()).collect();
    assert_eq!(all, valid);
    for p in 0..32 {
        let n = 1u32 << p;
        assert_eq!(
            validate_alloc_columns(n).is_ok(),
            (5..=9).contains(&p),
            "{n}"
        );
    }
    assert_eq!(
        validate_alloc_columns(u32::MAX),
        Err(TmemError::NColsOutOfRange { n_cols: u32::MAX })
    );
    assert_eq!(
        validate_alloc_columns(0),
        Err(TmemError::NColsOutOfRange { n_cols: 0 })
    );
    assert_eq!(AllocColumns::MIN.get(), 32);
    assert_eq!(AllocColumns::MAX.get(), 512);
    assert_eq!(AllocColumns::new(64).to_string(), "64 columns");
}

#[test]
fn display_is_a_table_from_the_layout() {
    let s = TmemAddress::new(64, 16).to_string();
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 3, "{s}");
    assert_eq!(lines[0], "TMEM address 0x00400010");
    assert!(
        lines[1].contains("31-16") && lines[1].contains("Lane index"),
        "{s}"
    );
    assert!(
        lines[1].contains("0x0040") && lines[1].contains(" 64"),
        "{s}"
    );
    assert!(
        lines[2].contains("15-0") && lines[2].contains("Column index"),
        "{s}"
    );
    assert!(lines[2].contains("rules.md R24"), "{s}");
    assert_eq!(
        format!("{:?}", TmemAddress::new(1, 2)),
        "TmemAddress(0x00010002: lane 1, column 2)"
    );
}

#[test]
fn every_error_names_a_field_and_a_message() {
    let errors = [
        TmemError::LaneOutOfRange { lane: 200 },
        TmemError::ColumnOutOfRange { column: 600 },
        TmemError::LaneNotInWarpQuadrant { lane: 0, warp: 1 },
        TmemError::NColsOutOfRange { n_cols: 16 },
        TmemError::NColsNotPowerOfTwo { n_cols: 48 },
        TmemError::UnknownShape { op: TmemOp::Shift },
        TmemError::ShapeOfOtherOp {
            shape: DataMovementShape::Cp(CpShape::S4x256b),
            wanted: TmemOp::Shift,
        },
        TmemError::InvalidNum { num: 3 },
        TmemError::NumTooLargeForShape {
            shape: LdStShape::S16x256b,
            num: Num::X64,
        },
        TmemError::UnknownMulticast,
        TmemError::CpMulticastMismatch {
            shape: CpShape::S128x128b,
            multicast: CpMulticast::Warpx4,
        },
        TmemError::ShiftLaneNotAligned { lane: 5 },
    ];
    for e in errors {
        let msg = e.to_string();
        assert!(!msg.is_empty() && !msg.ends_with('.'), "{msg}");
        assert!(!e.field().is_empty());
        assert_eq!(e.field(), e.tmem_field().name());
    }
    assert_eq!(
        TmemError::NumTooLargeForShape {
            shape: LdStShape::S16x256b,
            num: Num::X64
        }
        .to_string(),
        "shape .16x256b takes .num up to .x32: .x64 would need 256 registers per thread \
         (at most 128)"
    );
}

#[test]
fn const_construction() {
    const A: TmemAddress = TmemAddress::new(32, 128);
    const N: AllocColumns = AllocColumns::new(128);
    const R: Result<u16, TmemError> = registers_per_thread(LdStShape::S16x128b, Num::X16);
    const C: Result<(), TmemError> = validate_cp(CpShape::S32x128b, CpMulticast::Warpx4);
    const S: Result<CpShape, TmemError> = CpShape::from_name(".128x128b");
    assert_eq!(A.lane(), 32);
    assert_eq!(N.get(), 128);
    assert_eq!(R, Ok(32));
    assert_eq!(C, Ok(()));
    assert_eq!(S, Ok(CpShape::S128x128b));
}

#[test]
#[should_panic(expected = "TMEM lane out of range")]
fn new_panics_on_a_bad_lane() {
    let _ = TmemAddress::new(std::hint::black_box(128), 0);
}

#[test]
#[should_panic(expected = "TMEM column out of range")]
fn new_panics_on_a_bad_column() {
    let _ = TmemAddress::new(0, std::hint::black_box(512));
}

#[test]
#[should_panic(expected = "nCols must be a power of two")]
fn alloc_new_panics() {
    let _ = AllocColumns::new(std::hint::black_box(48));
}
