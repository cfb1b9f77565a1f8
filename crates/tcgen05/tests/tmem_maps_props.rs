//! Properties of the Tensor Memory maps: `tmem_fragment` (tcgen05.ld/st fragments, tcgen05.cp
//! rows; PTX ISA 9.7.16.2.3, 9.7.16.8, 9.7.16.9.2) and `data_path` (layouts A-G, A, scale
//! factors; PTX ISA 9.7.16.10.5, 9.7.16.10.7).

use proptest::prelude::*;
use tcgen05::data_path::{a_cell, DLayout, DataPathLayout, ScaleVec, SfLayout, SfOperand};
use tcgen05::tensor_memory::{
    CpShape, LdStShape, Num, TmemAddress, LANES_PER_WARP, TMEM_COLUMNS, TMEM_LANES,
};
use tcgen05::tmem_fragment::{cp_row, cp_rows, LdStFragment, Packing};
use tcgen05::Diagnostic;

fn fragment() -> impl Strategy<Value = LdStFragment> {
    (
        prop::sample::select(LdStShape::ALL.to_vec()),
        prop::sample::select(Num::ALL.to_vec()),
        any::<bool>(),
        prop::option::of(0u32..TMEM_COLUMNS),
    )
        .prop_filter_map("valid fragments", |(shape, num, pack, off)| {
            let packing = if pack {
                Packing::Pack16b
            } else {
                Packing::None
            };
            let off = if shape == LdStShape::S16x32bx2 {
                off
            } else {
                None
            };
            LdStFragment::try_new(shape, num, packing, off).ok()
        })
}

proptest! {
    /// A piece's cell is owned by the piece's thread and register, with the same bits.
    #[test]
    fn piece_then_owner(f in fragment(), t in 0u32..32, r in 0u32..128, h in 0u32..2) {
        let r = r % f.registers();
        let h = h % f.pieces_per_register();
        let p = f.piece(t, r, h).expect("in range");
        prop_assert!(u32::from(p.lane) < f.lanes());
        prop_assert!(u32::from(p.column) < f.column_span());
        let owners = f.owners(p.lane.into(), p.column.into());
        prop_assert!(owners.iter().flatten().any(|o| o.thread == p.thread
            && o.register == p.register && o.register_bits == p.register_bits && o.bits == p.bits));
    }

    /// Every owner of a cell maps back to that cell; cells outside the access have none.
    #[test]
    fn owner_then_piece(f in fragment(), lane in 0u32..40, column in 0u32..600) {
        for o in f.owners(lane, column).into_iter().flatten() {
            let h = u32::from(o.register_bits.lo / 16) % f.pieces_per_register();
            let p = f.piece(o.thread.into(), o.register.into(), h).expect("in range");
            prop_assert_eq!((u32::from(p.lane), u32::from(p.column)), (lane, column));
        }
        if lane >= f.lanes() || column >= f.column_span() {
            prop_assert!(f.owners(lane, column).iter().all(Option::is_none));
        }
    }

    /// The address check accepts exactly the addresses whose lanes lie in the warp's quadrant
    /// (PTX ISA 9.7.16.8.1) and whose columns end by column 511 (R24).
    #[test]
    fn address_check(f in fragment(), lane in 0..TMEM_LANES, column in 0..TMEM_COLUMNS, warp in 0u32..32) {
        let taddr = TmemAddress::new(lane, column);
        let first = (warp % 4) * LANES_PER_WARP;
        let lanes_ok = lane >= first && lane + f.lanes() <= first + 32;
        let cols_ok = column + f.column_span() <= TMEM_COLUMNS;
        let d = f.check_address(taddr, warp);
        prop_assert_eq!(d.len(), usize::from(!lanes_ok) + usize::from(!cols_ok));
        for e in d.iter() {
            prop_assert!(e.field() == "lane" || e.field() == "column");
        }
    }

    /// D placement inverts, stays inside 128 lanes and its columns, and respects the layout's
    /// column split.
    #[test]
    fn d_round_trip(l in prop::sample::select(DataPathLayout::ALL.to_vec()), n in 1u32..=32, m in 0u32..256, nn in 0u32..256) {
        let n = 8 * n;
        let Ok(d) = DLayout::with_layout(l, n) else { return Ok(()); };
        let (m, nn) = (m % d.m(), nn % n);
        let c = d.locate(m, nn).expect("inside D");
        prop_assert!(c.lane < 128 && c.column < d.columns() && c.cta < l.ctas());
        prop_assert_eq!(d.element_at(c.cta, c.lane, c.column), Some((m, nn)));
        if l.half_datapath() {
            prop_assert!(c.lane % 32 < 16);
        }
    }

    /// A's copies sit in distinct lanes, one per column part of D, and the element's bits lie in
    /// its container.
    #[test]
    fn a_cells(l in prop::sample::select(DataPathLayout::ALL.to_vec()), m in 0u32..256, k in 0u32..64, bits in prop::sample::select(vec![4u32, 8, 16, 32])) {
        let m = m % l.m();
        let a = a_cell(l, m, k, bits).expect("valid");
        prop_assert_eq!(a.lanes().len() as u32, l.column_split());
        prop_assert!(a.lanes().iter().all(|&x| x < 128));
        prop_assert_eq!(a.bits.width(), bits);
        prop_assert_eq!(a.column * (32 / bits) + u32::from(a.bits.lo) / bits, k);
    }

    /// Scale factors: byte = SF_ID + K block, copies in distinct 32-lane subpartitions.
    #[test]
    fn scale_factors(l in prop::sample::select(vec![DataPathLayout::A, DataPathLayout::B, DataPathLayout::D]),
                     b in any::<bool>(), v in prop::sample::select(vec![ScaleVec::X1, ScaleVec::X2, ScaleVec::X4]),
                     id in 0u32..4, i in 0u32..256, kb in 0u32..4, n in 1u32..=16) {
        let op = if b { SfOperand::B } else { SfOperand::A };
        let Ok(s) = SfLayout::try_new(l, op, v, 16 * n, id) else {
            prop_assert!(!v.id_ok(id));
            return Ok(());
        };
        let (i, kb) = (i % s.extent(), kb % v.count());
        let c = s.locate(i, kb).expect("inside");
        prop_assert_eq!(c.byte, id + kb);
        prop_assert!(c.byte < 4);
        prop_assert!(c.column < s.columns());
        let quads: Vec<u32> = c.lanes().iter().map(|l| l / 32).collect();
        let mut q = quads.clone();
        q.sort_unstable();
        q.dedup();
        prop_assert_eq!(q.len(), quads.len());
    }

    /// tcgen05.cp rows land in the lanes of their warps, never twice in one lane.
    #[test]
    fn cp_rows_are_disjoint(shape in prop::sample::select(CpShape::ALL.to_vec()), row in 0u32..128) {
        let mc = shape.allowed_multicasts()[0];
        let row = row % cp_rows(shape);
        let r = cp_row(shape, mc, row).expect("valid");
        prop_assert!(r.lanes().iter().all(|&l| u32::from(l) < 128));
        for other in 0..cp_rows(shape) {
            if other != row {
                let o = cp_row(shape, mc, other).expect("valid");
                prop_assert!(o.lanes().iter().all(|l| !r.lanes().contains(l)));
            }
        }
    }
}
