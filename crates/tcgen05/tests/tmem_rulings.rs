//! Two readings of the PTX text on Tensor Memory, and the rulings this crate follows
//! (`conformance/DIFFERENCES.md`, "Rulings on the Tensor Memory maps"). Each test states the ruling
//! as a property of the maps, so that changing the map without changing the ruling fails here.

use std::collections::BTreeSet;

use tcgen05::data_path::{DLayout, DataPathLayout, ScaleVec, SfLayout, SfOperand};
use tcgen05::tensor_memory::{CpMulticast, CpShape};
use tcgen05::tmem_fragment::cp_row;

/// The 32-lane partitions (0-3) that hold D's column `n` in CTA 0.
fn d_partitions(d: &DLayout, n: u32) -> BTreeSet<u32> {
    (0..d.m())
        .filter_map(|m| d.locate(m, n).ok())
        .filter(|c| c.cta == 0)
        .map(|c| c.lane / 32)
        .collect()
}

/// The 32-lane partitions that hold scale factor `index`, K block 0.
fn sf_partitions(s: &SfLayout, index: u32) -> BTreeSet<u32> {
    let cell = s.locate(index, 0).expect("in range");
    cell.lanes().iter().map(|l| l / 32).collect()
}

/// Ruling T1 (scale factors "duplicated to all 32-lane partitions", PTX 9.7.16.10.7): a scale
/// factor is copied into every lane partition that computes with it. In the 4x1 layouts A and D,
/// and for scale_A in every layout, that is all four; for scale_B in the 2x2 layout B, the two
/// partitions that hold its column of D (CUTLASS's `ScaleFactorDuplicated2by2`), not four.
#[test]
fn scale_factors_sit_in_every_partition_that_uses_them() {
    let all: BTreeSet<u32> = (0..4).collect();
    for n in [64, 128, 256] {
        let d = DLayout::with_layout(DataPathLayout::B, n).expect("N of layout B");
        let sfb = SfLayout::try_new(DataPathLayout::B, SfOperand::B, ScaleVec::X1, n, 0)
            .expect("scale_B of layout B");
        for col in 0..n {
            let used = d_partitions(&d, col);
            assert_eq!(used.len(), 2, "layout B: D column {col} of N = {n}");
            assert_eq!(
                sf_partitions(&sfb, col),
                used,
                "scale_B column {col}, N = {n}"
            );
        }
        let sfa = SfLayout::try_new(DataPathLayout::B, SfOperand::A, ScaleVec::X1, n, 0)
            .expect("scale_A of layout B");
        for row in 0..sfa.extent() {
            assert_eq!(
                sf_partitions(&sfa, row),
                all,
                "scale_A row {row} of layout B"
            );
        }
    }
    for layout in [DataPathLayout::A, DataPathLayout::D] {
        let sfb = SfLayout::try_new(layout, SfOperand::B, ScaleVec::X1, 128, 0).expect("valid");
        for col in 0..128 {
            assert_eq!(
                sf_partitions(&sfb, col),
                all,
                "{layout} scale_B column {col}"
            );
        }
    }
}

/// Ruling T2 (`.warpx2::02_13` / `::01_23`, PTX 9.7.16.9.2): the qualifier names the warps that
/// receive the same rows. `02_13`: rows 0-31 go to warps 0 and 2, rows 32-63 to warps 1 and 3;
/// `01_23`: rows 0-31 to warps 0 and 1, rows 32-63 to warps 2 and 3 (CUTLASS's
/// `SM100_UTCCP_2x64dp128bitlw0213` / `lw0123`). The other reading (each warp of a named pair
/// takes one half of the 64 rows) swaps the two qualifiers; it is not followed.
#[test]
fn warpx2_names_the_warps_that_share_rows() {
    for (multicast, pairs) in [
        (CpMulticast::Warpx2_02_13, [[0, 2], [1, 3]]),
        (CpMulticast::Warpx2_01_23, [[0, 1], [2, 3]]),
    ] {
        for row in 0..64u32 {
            let r = cp_row(CpShape::S64x128b, multicast, row).expect("valid row");
            let warps: Vec<u32> = r.lanes().iter().map(|&l| u32::from(l) / 32).collect();
            let half = (row / 32) as usize;
            assert_eq!(warps, pairs[half], "{multicast:?} row {row}");
            for &l in r.lanes() {
                assert_eq!(
                    u32::from(l) % 32,
                    row % 32,
                    "{multicast:?} row {row}: lane {l}"
                );
            }
        }
    }
}
