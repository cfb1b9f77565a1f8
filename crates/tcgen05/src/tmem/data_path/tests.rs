use super::*;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Source;
use crate::mma::CtaGroup;
use crate::tensor_memory::TmemAddress;
use crate::tmem_fragment::BitRange;
use std::collections::BTreeSet;
#[test]
fn every_data_path_rule_has_one_row_that_says_what_the_rule_said() {
    use crate::diagnostic::{check_rule_table, Rule, Severity};
    let rows: std::vec::Vec<Rule> = DATA_PATH_RULES.to_vec();
    let e = Severity::Error;
    let sec = Source::PtxSection;
    check_rule_table(
        "data_path",
        &rows,
        &[
            (
                DataPathError::NoLayout {
                    m: 96,
                    cta_group: CtaGroup::One,
                    ws: false,
                    sparse: false,
                },
                "m",
                sec("9.7.16.10.5"),
                e,
            ),
            (
                DataPathError::InvalidN { layout: None, n: 7 },
                "n",
                Source::PtxTable(39),
                e,
            ),
            (
                DataPathError::RowOutOfRange { row: 9, rows: 8 },
                "row",
                sec("9.7.16.2.1"),
                e,
            ),
            (
                DataPathError::ColumnOutOfRange {
                    column: 9,
                    columns: 8,
                },
                "column",
                sec("9.7.16.2.1"),
                e,
            ),
            (
                DataPathError::LaneAlignment {
                    layout: DataPathLayout::C,
                    lane: 3,
                },
                "lane",
                sec("9.7.16.10.5"),
                e,
            ),
            (
                DataPathError::ElementBits { bits: 12 },
                "element_bits",
                sec("9.7.16.10.4"),
                e,
            ),
            (
                DataPathError::SfId {
                    vec: ScaleVec::X4,
                    id: 1,
                },
                "sf_id",
                Source::Decision(13),
                e,
            ),
            (
                DataPathError::ScaleVecOfKind {
                    vec: ScaleVec::Default,
                },
                "scale_vec",
                Source::PtxTable(56),
                e,
            ),
            (
                DataPathError::KBlockOutOfRange {
                    k_block: 4,
                    count: 4,
                },
                "k_block",
                sec("9.7.16.10.7.1"),
                e,
            ),
            (
                DataPathError::KTooLarge {
                    k: 9000,
                    container_bits: 8,
                },
                "k",
                sec("9.7.16.1.1"),
                e,
            ),
            (
                DataPathError::NoFourBitShape {
                    m: 64,
                    cta_group: CtaGroup::One,
                    ws: true,
                    sparse: false,
                },
                "element_bits",
                Source::PtxTable(39),
                e,
            ),
            (
                DataPathError::K96Layout {
                    layout: DataPathLayout::B,
                },
                "m",
                sec("9.7.16.10.7.3.4"),
                e,
            ),
            (
                DataPathError::NoBlockScaling {
                    layout: DataPathLayout::E,
                },
                "m",
                Source::PtxTable(39),
                e,
            ),
        ],
    );
}

/// `a_cell` refuses a K whose column is past the 512 columns, for every container size.
#[test]
fn a_cell_column_bounded() {
    for bits in [4u32, 8, 16, 32] {
        let per_word = 32 / bits;
        let last = 512 * per_word - 1;
        assert_eq!(
            a_cell(DataPathLayout::D, 0, last, bits).unwrap().column,
            511
        );
        assert_eq!(
            a_cell(DataPathLayout::D, 0, last + 1, bits),
            Err(DataPathError::KTooLarge {
                k: last + 1,
                container_bits: bits
            })
        );
        assert!(a_cell(DataPathLayout::D, 0, u32::MAX, bits).is_err());
        assert_eq!(a_k_fits(last + 1, bits), Ok(()));
        assert!(a_k_fits(last + 2, bits).is_err());
        assert!(a_k_fits(u32::MAX, bits).is_err());
    }
}

/// 4-bit A: the four shapes of Table 39 with mxf4 pass, every other configuration that has
/// a layout is refused; 8-bit A passes everywhere.
#[test]
fn four_bit_a_only_where_table_39_has_it() {
    use CtaGroup::{One, Two};
    let mut passed = std::vec::Vec::new();
    for m in [32, 64, 128, 256] {
        for cg in [One, Two] {
            for ws in [false, true] {
                for sparse in [false, true] {
                    if DataPathLayout::for_mma(m, cg, ws, sparse).is_err() {
                        continue;
                    }
                    assert_eq!(a_bits_have_shape(m, cg, ws, sparse, 8), Ok(()));
                    if a_bits_have_shape(m, cg, ws, sparse, 4).is_ok() {
                        passed.push((m, cg.count(), ws, sparse));
                    }
                }
            }
        }
    }
    assert_eq!(
        passed,
        [
            (128, 1, false, false),
            (128, 1, false, true),
            (128, 2, false, false),
            (256, 2, false, false),
            (256, 2, false, true)
        ]
    );
}

/// `.ws` N follows Table 39 (rules.md R16): 64, 128, 256 dense, 64, 128 sparse, for
/// every `.ws` M; `validate` and `try_new` agree on every N from 0 to 512.
#[test]
fn ws_n_follows_table_39() {
    for m in [32, 64, 128] {
        for sparse in [false, true] {
            let expect: &[u32] = if sparse { &[64, 128] } else { &[64, 128, 256] };
            let mut got = std::vec::Vec::new();
            for n in 0..=512 {
                let ok = DLayout::try_new(m, n, CtaGroup::One, true, sparse).is_ok();
                let valid = DLayout::validate(m, n, CtaGroup::One, true, sparse).is_empty();
                assert_eq!(ok, valid, "M {m} N {n} sparse {sparse}");
                if ok {
                    got.push(n);
                }
            }
            assert_eq!(got, expect, "M {m} sparse {sparse}");
        }
    }
    // Without `.ws`, M = 128 keeps every multiple of 8 (32 values).
    let dense = (0..=512)
        .filter(|&n| DLayout::try_new(128, n, CtaGroup::One, false, false).is_ok())
        .count();
    assert_eq!(dense, 32);
}

#[test]
fn table_rows() {
    use CtaGroup::{One, Two};
    let rows = [
        (32, One, true, false, 'G'),
        (32, One, true, true, 'G'),
        (64, One, true, false, 'E'),
        (64, One, false, true, 'F'),
        (128, One, false, false, 'D'),
        (128, One, true, true, 'D'),
        (128, Two, false, false, 'B'),
        (128, Two, false, true, 'C'),
        (256, Two, false, false, 'A'),
        (256, Two, false, true, 'A'),
    ];
    for (m, g, ws, sp, l) in rows {
        assert_eq!(DataPathLayout::for_mma(m, g, ws, sp).unwrap().letter(), l);
    }
    for (m, g, ws) in [
        (32, One, false),
        (256, One, false),
        (128, Two, true),
        (64, Two, false),
    ] {
        let e = DataPathLayout::for_mma(m, g, ws, false).unwrap_err();
        assert_eq!(e.field(), "m");
    }
}

#[test]
fn every_layout_is_injective_and_inverts() {
    for layout in DataPathLayout::ALL {
        for n in [64u32, 128, 256] {
            let d = DLayout::with_layout(layout, n).unwrap();
            let mut seen = BTreeSet::new();
            for (m, nn, c) in d.cells() {
                assert!(c.lane < 128 && c.column < d.columns(), "{layout} {m} {nn}");
                assert!(seen.insert((c.cta, c.lane, c.column)), "{layout} {m} {nn}");
                assert_eq!(d.element_at(c.cta, c.lane, c.column), Some((m, nn)));
            }
            assert_eq!(seen.len() as u32, layout.m() * n);
            // Cells D does not use have no element.
            for cta in 0..2 {
                for lane in 0..128 {
                    for col in 0..d.columns() + 1 {
                        if !seen.contains(&(cta, lane, col)) {
                            assert_eq!(d.element_at(cta, lane, col), None);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn worked_points() {
    let f = DLayout::try_new(64, 8, CtaGroup::One, false, false).unwrap();
    assert_eq!(
        f.locate(17, 3).unwrap(),
        DCell {
            cta: 0,
            lane: 33,
            column: 3
        }
    );
    let g = DLayout::try_new(32, 64, CtaGroup::One, true, false).unwrap();
    assert_eq!(
        g.locate(5, 40).unwrap(),
        DCell {
            cta: 0,
            lane: 69,
            column: 8
        }
    );
    let c = DLayout::try_new(128, 32, CtaGroup::Two, false, true).unwrap();
    assert_eq!(
        c.locate(64 + 20, 1).unwrap(),
        DCell {
            cta: 1,
            lane: 36,
            column: 1
        }
    );
    assert!(DataPathLayout::C
        .check_address(TmemAddress::new(16, 0))
        .is_ok());
    assert_eq!(
        DataPathLayout::D
            .check_address(TmemAddress::new(16, 0))
            .unwrap_err()
            .field(),
        "lane"
    );
    assert_eq!(d_element_bits(16).unwrap(), BitRange::new(0, 15));
    assert_eq!(d_element_bits(8).unwrap_err().field(), "element_bits");
}

#[test]
fn rules_broken() {
    let d = DLayout::validate(48, 7, CtaGroup::One, false, false);
    assert_eq!(d.len(), 2);
    assert_eq!(
        DLayout::try_new(32, 96, CtaGroup::One, true, false)
            .unwrap_err()
            .field(),
        "n"
    );
    assert_eq!(
        DLayout::try_new(128, 24, CtaGroup::Two, false, false)
            .unwrap_err()
            .field(),
        "n"
    );
    let d = DLayout::try_new(128, 64, CtaGroup::One, false, false).unwrap();
    assert_eq!(d.locate(128, 0).unwrap_err().field(), "row");
    assert_eq!(d.locate(0, 64).unwrap_err().field(), "column");
}

#[test]
fn a_in_tensor_memory() {
    let a = a_cell(DataPathLayout::B, 70, 5, 16).unwrap();
    assert_eq!(
        (a.cta, a.lanes(), a.column, a.bits),
        (1, &[6u32, 70][..], 2, BitRange::new(16, 31))
    );
    let a = a_cell(DataPathLayout::F, 20, 9, 8).unwrap();
    assert_eq!(
        (a.lanes(), a.column, a.bits),
        (&[36u32][..], 2, BitRange::new(8, 15))
    );
    let a = a_cell(DataPathLayout::G, 1, 0, 32).unwrap();
    assert_eq!(a.lanes(), &[1, 33, 65, 97]);
    assert_eq!(
        a_cell(DataPathLayout::D, 0, 0, 6).unwrap_err().field(),
        "element_bits"
    );
}

#[test]
fn scale_factors() {
    let s = SfLayout::try_new(DataPathLayout::D, SfOperand::A, ScaleVec::X1, 0, 2).unwrap();
    let c = s.locate(37, 0).unwrap();
    assert_eq!(
        (c.lanes(), c.column, c.byte),
        (&[5u32, 37, 69, 101][..], 1, 2)
    );
    assert_eq!(s.columns(), 4);
    let s = SfLayout::try_new(DataPathLayout::B, SfOperand::B, ScaleVec::X2, 256, 2).unwrap();
    let c = s.locate(130, 1).unwrap();
    assert_eq!(
        (c.both_ctas, c.lanes(), c.column, c.byte),
        (true, &[66u32, 98][..], 0, 3)
    );
    assert_eq!(s.columns(), 4);
    let s = SfLayout::try_new(DataPathLayout::B, SfOperand::A, ScaleVec::X4, 0, 0).unwrap();
    let c = s.locate(100, 3).unwrap();
    assert_eq!((c.cta, c.lanes()[0], c.column, c.byte), (1, 4, 1, 3));
    assert_eq!(s.locate(0, 4).unwrap_err().field(), "k_block");
    let d = SfLayout::validate(DataPathLayout::F, SfOperand::B, ScaleVec::X2, 12, 1);
    assert_eq!(d.len(), 3);
    assert_eq!(
        SfLayout::try_new(DataPathLayout::D, SfOperand::A, ScaleVec::X4, 0, 2)
            .unwrap_err()
            .field(),
        "sf_id"
    );
}

/// K = 96 (ruling T3), against CUTLASS 4.2.0's sm_103 mainloop written out here: its scale
/// factors of a row sit one a byte in Tensor Memory byte order (`tmem_sf_frg`: a row's byte
/// `j` is byte `j % 4` of column `i / 32 + (j / 4) * (R / 32)`, `R` being the rows of A in a
/// CTA or N rounded up to 128), and its MMA `t` passes the address of byte `t * c` (`c` = 3
/// for `.block32`, 6 for `.block16`; `sf_stride` of `sm103_blockscaled_mma_warpspecialized`),
/// whose byte is the SF_ID and whose column the address.
#[test]
fn k96_placement_follows_the_byte_order_of_cutlass_sm103() {
    let cases = [
        (DataPathLayout::A, SfOperand::A, 256, 128),
        (DataPathLayout::A, SfOperand::B, 256, 64),
        (DataPathLayout::A, SfOperand::B, 256, 128),
        (DataPathLayout::A, SfOperand::B, 256, 256),
        (DataPathLayout::A, SfOperand::B, 256, 176),
        (DataPathLayout::D, SfOperand::A, 128, 128),
    ];
    let mut checked = 0u32;
    for (layout, op, m, n) in cases {
        for (vec, c) in [(ScaleVec::X3, 3u32), (ScaleVec::X6, 6u32)] {
            let rows = match op {
                SfOperand::A => m / layout.ctas(),
                SfOperand::B => n,
            };
            let padded = rows.div_ceil(128) * 128;
            // Eight MMAs cover 768 = 2 x 384 of K: CUTLASS's SF buffer of a 384-wide K tile.
            for t in 0..8u32 {
                let first = t * c;
                let (id, base) = (first % 4, (first / 4) * (padded / 32));
                let sl = SfLayout::try_new(layout, op, vec, n, id).unwrap();
                for i in 0..sl.extent() {
                    let r = i % rows;
                    for s in 0..c {
                        let j = first + s;
                        let want = (r / 32 + (j / 4) * (padded / 32), j % 4);
                        let cell = sl.locate(i, s).unwrap();
                        assert_eq!(
                            (base + cell.column, cell.byte),
                            want,
                            "{layout:?} {op:?} N {n} {vec:?} MMA {t} index {i} block {s}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 30_000, "{checked}");
}

/// The SF_IDs the text draws for K = 96 (Figures 234-239: 00-11 for `.block32`, 00 and 10 for
/// `.block16`), and layout B's scale_B refused (the text draws none).
#[test]
fn k96_ids_and_the_undrawn_layout() {
    for id in 0..5 {
        let ok3 = SfLayout::try_new(DataPathLayout::A, SfOperand::A, ScaleVec::X3, 128, id).is_ok();
        let ok6 = SfLayout::try_new(DataPathLayout::A, SfOperand::A, ScaleVec::X6, 128, id).is_ok();
        assert_eq!(ok3, id <= 3, "3X id {id}");
        assert_eq!(ok6, id == 0 || id == 2, "6X id {id}");
    }
    assert_eq!(
        SfLayout::try_new(DataPathLayout::B, SfOperand::B, ScaleVec::X3, 128, 0),
        Err(DataPathError::K96Layout {
            layout: DataPathLayout::B
        })
    );
    assert!(SfLayout::try_new(DataPathLayout::B, SfOperand::A, ScaleVec::X3, 128, 0).is_ok());
    // Six scale factors from byte 2 take 2 groups: 8 columns for 128 rows.
    let sl = SfLayout::try_new(DataPathLayout::A, SfOperand::A, ScaleVec::X6, 128, 2).unwrap();
    assert_eq!(sl.columns(), 8);
}
