use super::*;
use crate::diagnostic::{Diagnostic, Severity, Source};
use crate::tensor_memory::{CpMulticast, CpShape, LdStShape, Num, TmemAddress};
use std::collections::BTreeMap;
use std::vec::Vec;
#[test]
fn every_fragment_rule_has_one_row_that_says_what_the_rule_said() {
    use crate::diagnostic::{check_rule_table, Rule};
    let rows: Vec<Rule> = FRAGMENT_RULES.to_vec();
    let (e, w) = (Severity::Error, Severity::Warning);
    let ld = Source::PtxSection("9.7.16.8.3");
    check_rule_table(
        "fragment",
        &rows,
        &[
            (
                FragmentError::NumTooLargeForShape {
                    shape: LdStShape::S16x256b,
                    num: Num::X128,
                },
                "num",
                Source::PtxTable(49),
                e,
            ),
            (
                FragmentError::HalfSplitOffsetNotAllowed {
                    shape: LdStShape::S32x32b,
                    offset: 8,
                },
                "half_split_offset",
                ld,
                e,
            ),
            (
                FragmentError::HalfSplitOffsetTooLarge { offset: 600 },
                "half_split_offset",
                Source::Decision(24),
                e,
            ),
            (
                FragmentError::HalvesOverlap { offset: 1, span: 2 },
                "half_split_offset",
                ld,
                w,
            ),
            (
                FragmentError::ThreadOutOfRange { thread: 32 },
                "thread",
                ld,
                e,
            ),
            (
                FragmentError::RegisterOutOfRange {
                    register: 9,
                    registers: 4,
                },
                "register",
                Source::PtxTable(49),
                e,
            ),
            (
                FragmentError::HalfOutOfRange { half: 2 },
                "half",
                Source::PtxSection("9.7.16.8.2"),
                e,
            ),
            (
                FragmentError::LanesOutsideWarpQuadrant {
                    lane: 16,
                    lanes: 32,
                    warp: 0,
                },
                "lane",
                Source::PtxSection("9.7.16.8.1"),
                e,
            ),
            (
                FragmentError::ColumnsPastEnd {
                    column: 510,
                    span: 4,
                },
                "column",
                Source::Decision(24),
                e,
            ),
            (
                FragmentError::RowOutOfRange {
                    shape: CpShape::S4x256b,
                    row: 4,
                },
                "row",
                Source::PtxSection("9.7.16.2.3"),
                e,
            ),
            (
                FragmentError::CpMulticastMismatch {
                    shape: CpShape::S32x128b,
                    multicast: CpMulticast::None,
                },
                "multicast",
                Source::Decision(23),
                e,
            ),
        ],
    );
}

fn all_fragments() -> Vec<LdStFragment> {
    let mut v = Vec::new();
    for shape in LdStShape::ALL {
        for num in Num::ALL {
            for packing in [Packing::None, Packing::Pack16b] {
                if let Ok(f) = LdStFragment::try_new(shape, num, packing, None) {
                    v.push(f);
                }
            }
        }
    }
    v
}

#[test]
fn every_fragment_is_a_bijection_onto_its_cells() {
    let fs = all_fragments();
    // 5 shapes: 8 + 8 + 7 + 6 + 8 valid .num, times 2 packings.
    assert_eq!(fs.len(), 2 * (8 + 7 + 6 + 8 + 8));
    for f in fs {
        let mut cells = BTreeMap::new();
        let mut n = 0;
        for p in f.pieces() {
            n += 1;
            assert!((p.lane as u32) < f.lanes());
            assert!((p.column as u32) < f.column_span());
            let prev = cells.insert((p.lane, p.column), p);
            assert!(prev.is_none(), "{f:?}: cell {:?} twice", (p.lane, p.column));
            let o = f.owners(p.lane.into(), p.column.into());
            let o = o[0].unwrap();
            assert_eq!(
                (o.thread, o.register, o.register_bits, o.bits),
                (p.thread, p.register, p.register_bits, p.bits)
            );
        }
        // Every register bit is placed exactly once; every cell of the span is covered.
        assert_eq!(n, 32 * f.registers() * f.pieces_per_register());
        let cells_expected = f.lanes() * f.column_span();
        assert_eq!(cells.len() as u32, cells_expected, "{f:?}");
    }
}

#[test]
fn bits_moved_per_lane_match_the_shape_name() {
    // PTX ISA 9.7.16.2.3.1: each lane moves shape_bits * num bits.
    for f in all_fragments() {
        let mut per_lane = [0u32; 32];
        for p in f.pieces() {
            per_lane[p.lane as usize] += p.bits.width();
        }
        let want = f.shape().bits_per_lane() * f.shape().accesses() * f.num().count() as u32;
        for (l, bits) in per_lane.iter().enumerate().take(f.lanes() as usize) {
            assert_eq!(*bits, want, "{f:?} lane {l}");
        }
    }
}

#[test]
fn worked_points() {
    let f = LdStFragment::new(LdStShape::S16x64b, Num::X1, Packing::None, None);
    let p = f.piece(1, 0, 0).unwrap();
    assert_eq!((p.lane, p.column), (8, 0));
    let p = f.piece(2, 0, 0).unwrap();
    assert_eq!((p.lane, p.column), (0, 1));
    let f = LdStFragment::new(LdStShape::S16x128b, Num::X2, Packing::None, None);
    let p = f.piece(7, 3, 0).unwrap();
    assert_eq!((p.lane, p.column), (9, 7));
    let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(100));
    let p = f.piece(17, 3, 0).unwrap();
    assert_eq!((p.lane, p.column), (1, 103));
    let f = LdStFragment::new(LdStShape::S32x32b, Num::X2, Packing::Pack16b, None);
    let p = f.piece(3, 1, 1).unwrap();
    assert_eq!(
        (p.lane, p.column, p.register_bits, p.bits),
        (3, 3, BitRange::new(16, 31), BitRange::new(0, 15))
    );
    // Default half-split offset: adjacent halves (N, 2N with packing).
    let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X2, Packing::Pack16b, None);
    assert_eq!(f.half_split_offset(), 4);
}

#[test]
fn every_rule_broken_once() {
    let e = LdStFragment::try_new(LdStShape::S16x256b, Num::X64, Packing::None, None).unwrap_err();
    assert_eq!(e.field(), "num");
    let e = LdStFragment::try_new(LdStShape::S32x32b, Num::X1, Packing::None, Some(1)).unwrap_err();
    assert_eq!(e.field(), "half_split_offset");
    let e =
        LdStFragment::try_new(LdStShape::S16x32bx2, Num::X1, Packing::None, Some(512)).unwrap_err();
    assert!(matches!(
        e,
        FragmentError::HalfSplitOffsetTooLarge { offset: 512 }
    ));
    let d = LdStFragment::validate(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(2));
    assert_eq!(d.len(), 1);
    assert_eq!(d.get(0).unwrap().severity(), Severity::Warning);
    assert!(LdStFragment::try_new(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(2)).is_ok());
    let d = LdStFragment::validate(LdStShape::S16x256b, Num::X128, Packing::None, Some(3));
    assert_eq!(d.len(), 2);
    let f = LdStFragment::new(LdStShape::S16x64b, Num::X1, Packing::None, None);
    assert_eq!(f.piece(32, 0, 0).unwrap_err().field(), "thread");
    assert_eq!(f.piece(0, 1, 0).unwrap_err().field(), "register");
    assert_eq!(f.piece(0, 0, 1).unwrap_err().field(), "half");
    // Warp quadrant: warp 5 owns lanes 32-63; a 16-lane access at lane 48 fits, at 56 not.
    assert!(f.check_address(TmemAddress::new(48, 0), 5).is_empty());
    let d = f.check_address(TmemAddress::new(56, 0), 5);
    assert_eq!(d.get(0).unwrap().field(), "lane");
    let d = f.check_address(TmemAddress::new(0, 0), 1);
    assert_eq!(d.len(), 1);
    let d = f.check_address(TmemAddress::new(0, 511), 0);
    assert_eq!(d.get(0).unwrap().field(), "column");
}

#[test]
fn packed_second_half_at_an_odd_offset() {
    // The second access's 16-bit halves count from its own start (found by proptest).
    let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X1, Packing::Pack16b, Some(271));
    let p = f.piece(16, 0, 0).unwrap();
    assert_eq!((p.lane, p.column), (0, 271));
    let o = f.owners(0, 271)[0].unwrap();
    assert_eq!((o.thread, o.register_bits), (16, BitRange::new(0, 15)));
    let o = f.owners(0, 272)[0].unwrap();
    assert_eq!((o.thread, o.register_bits), (16, BitRange::new(16, 31)));
}

#[test]
fn overlapping_halves_have_two_owners() {
    let f = LdStFragment::new(LdStShape::S16x32bx2, Num::X4, Packing::None, Some(2));
    let o = f.owners(3, 2);
    assert_eq!(o[0].unwrap().thread, 3);
    assert_eq!(o[1].unwrap().thread, 19);
    assert_eq!(o[1].unwrap().register, 0);
}

#[test]
fn cp_rows_land_where_cutlass_says() {
    let r = cp_row(CpShape::S64x128b, CpMulticast::Warpx2_01_23, 33).unwrap();
    assert_eq!(r.lanes(), &[65, 97]);
    let r = cp_row(CpShape::S64x128b, CpMulticast::Warpx2_02_13, 33).unwrap();
    assert_eq!(r.lanes(), &[33, 97]);
    let r = cp_row(CpShape::S4x256b, CpMulticast::None, 3).unwrap();
    assert_eq!((r.lanes(), r.columns), (&[96u8][..], 8));
    assert_eq!(
        cp_row(CpShape::S128x128b, CpMulticast::None, 128)
            .unwrap_err()
            .field(),
        "row"
    );
    assert_eq!(
        cp_row(CpShape::S128x128b, CpMulticast::Warpx4, 0)
            .unwrap_err()
            .field(),
        "multicast"
    );
    // Every shape covers each destination lane at most once.
    for shape in CpShape::ALL {
        for mc in shape.allowed_multicasts() {
            let mut seen = [false; 128];
            for row in 0..cp_rows(shape) {
                for &l in cp_row(shape, *mc, row).unwrap().lanes() {
                    assert!(!seen[l as usize]);
                    seen[l as usize] = true;
                }
            }
        }
    }
}
