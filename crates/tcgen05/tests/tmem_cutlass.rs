//! Conformance with NVIDIA CUTLASS: the Tensor Memory maps of `tmem_fragment` and `data_path`
//! against CUTLASS 4.2.0's own evaluation of its CuTe layouts, in
//! `conformance/vectors/cutlass-4.2.0-tmem.jsonl` (written by `conformance/cutlass/gen_tmem.cpp`):
//! every `SM100_TMEM_LOAD_*` / `SM100_TMEM_STORE_*` atom, every `SM100_UTCCP_*` atom, and the
//! `tmem_frg`, `tmem_frg_ws` and `tmem_sf_frg` layouts it prints.

use std::collections::HashMap;

use serde_json::Value;
use tcgen05::data_path::{a_cell, DLayout, DataPathLayout, ScaleVec, SfLayout, SfOperand};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};
use tcgen05::tmem_fragment::{cp_row, cp_rows, LdStFragment, Packing};

const VECTORS: &str = include_str!("../../../conformance/vectors/cutlass-4.2.0-tmem.jsonl");

fn records() -> Vec<Value> {
    VECTORS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn int(v: &Value) -> u32 {
    u32::try_from(v.as_u64().expect("a non-negative integer")).expect("fits u32")
}

fn ints(v: &Value) -> Vec<u32> {
    v.as_array().expect("an array").iter().map(int).collect()
}

fn of_kind<'a>(all: &'a [Value], kind: &str) -> Vec<&'a Value> {
    all.iter().filter(|r| r["kind"] == kind).collect()
}

/// Our map of one atom in CUTLASS's shape: per thread, per register, the pieces
/// `[lane, column, cell_bit_lo, width]` in register-bit order.
fn our_map(f: &LdStFragment) -> Vec<Vec<Vec<u32>>> {
    (0..32)
        .map(|t| {
            (0..f.registers())
                .map(|r| {
                    let mut pieces: Vec<_> = (0..f.pieces_per_register())
                        .map(|h| f.piece(t, r, h).expect("in range"))
                        .collect();
                    pieces.sort_by_key(|p| p.register_bits.lo);
                    pieces
                        .iter()
                        .flat_map(|p| {
                            [
                                u32::from(p.lane),
                                u32::from(p.column),
                                u32::from(p.bits.lo),
                                p.bits.width(),
                            ]
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

fn cutlass_map(v: &Value) -> Vec<Vec<Vec<u32>>> {
    v.as_array()
        .expect("threads")
        .iter()
        .map(|t| t.as_array().expect("registers").iter().map(ints).collect())
        .collect()
}

#[test]
fn every_ld_st_atom_matches() {
    let all = records();
    assert_eq!(all[0]["cutlass"], "4.2.0");
    let atoms = of_kind(&all, "ldst");
    let maps: HashMap<&str, &Value> = atoms
        .iter()
        .filter_map(|a| a.get("map").map(|m| (a["atom"].as_str().expect("name"), m)))
        .collect();
    let mut compared = 0;
    for a in &atoms {
        let name = a["atom"].as_str().expect("name");
        let shape = LdStShape::from_name(a["shape"].as_str().expect("shape")).expect("a shape");
        let num = Num::from_count(int(&a["num"])).expect("a .num");
        let packing = if a["pack"] == true {
            Packing::Pack16b
        } else {
            Packing::None
        };
        // CUTLASS emits immHalfSplitoff = .num columns (2 * .num packed): our default.
        let f = LdStFragment::try_new(shape, num, packing, None).expect("a valid fragment");
        assert_eq!(f.registers(), int(&a["registers"]), "{name}");
        let theirs = match a.get("map") {
            Some(m) => m,
            None => maps[a["same_map_as"].as_str().expect("a load atom")],
        };
        assert_eq!(our_map(&f), cutlass_map(theirs), "{name}");
        compared += 1;
    }
    // 5 shapes x (8 + 8 + 7 + 6 + 8 = 37 .num) x {ld, st} x {plain, 16b}.
    assert_eq!(compared, 148);
}

#[test]
fn every_utccp_atom_matches() {
    let all = records();
    let atoms = of_kind(&all, "cp");
    assert_eq!(atoms.len(), 12);
    for a in atoms {
        let name = a["atom"].as_str().expect("name");
        let shape = CpShape::from_name(a["shape"].as_str().expect("shape")).expect("a cp shape");
        let mc = CpMulticast::from_name(a["multicast"].as_str().expect("multicast"))
            .expect("a multicast");
        let rows = a["rows"].as_array().expect("rows");
        assert_eq!(rows.len() as u32, cp_rows(shape), "{name}");
        for row in rows {
            let v = ints(row);
            let ours = cp_row(shape, mc, v[0]).expect("a row");
            let mut lanes: Vec<u32> = ours.lanes().iter().map(|&l| u32::from(l)).collect();
            lanes.sort_unstable();
            assert_eq!(lanes, v[1..], "{name} row {}", v[0]);
            assert_eq!(u32::from(ours.columns), int(&a["columns"]), "{name}");
        }
    }
}

/// The D layout CUTLASS's fragment stands for, per CTA.
fn d_layout_of(r: &Value) -> DataPathLayout {
    let m = int(&r["m_mma"]);
    let two = int(&r["cta_group"]) == 2;
    let ws = r.get("ws") == Some(&Value::Bool(true));
    match (m, two, ws) {
        (32, false, true) => DataPathLayout::G,
        (64, false, true) => DataPathLayout::E,
        (64, false, false) => DataPathLayout::F,
        (128, false, _) => DataPathLayout::D,
        (64, true, false) => DataPathLayout::B,
        (128, true, false) => DataPathLayout::A,
        other => panic!("no layout for {other:?}"),
    }
}

#[test]
fn d_fragments_match() {
    let all = records();
    let mut compared = 0;
    for r in of_kind(&all, "frg")
        .into_iter()
        // The sparse atoms' records are the departure below, not a PTX layout.
        .filter(|r| r["role"] == "d" && r["sparse"] != true)
    {
        let layout = d_layout_of(r);
        let n = int(&r["n"]);
        let d = DLayout::with_layout(layout, n).expect("an N of Table 39");
        let bits = int(&r["element_bits"]);
        for e in r["entries"].as_array().expect("entries") {
            let v = ints(e);
            // CUTLASS's fragment is one CTA's rows: CTA 0 of a pair.
            let c = d.locate(v[0], v[1]).expect("inside D");
            assert_eq!((c.cta, c.lane, c.column), (0, v[2], v[3]), "{layout} {e}");
            let want_lo = u32::from(
                tcgen05::data_path::d_element_bits(bits)
                    .expect("16 or 32")
                    .lo,
            );
            assert_eq!(
                v[4], want_lo,
                "{layout} {e}: a D element starts at bit 0 of its cell"
            );
        }
        compared += 1;
    }
    assert_eq!(compared, 13);
}

#[test]
fn sparse_two_cta_layout_c_is_where_ptx_and_cutlass_differ() {
    // CUTLASS 4.2.0's sparse 2-SM atoms map D as the dense 2x2 layout B; the PTX table says
    // layout C, F's half-datapath organization. We follow the PTX table; this test records the
    // difference. The records are each sparse atom's own FrgTypeC, evaluated by gen_tmem.cpp (not
    // a fragment type named here), so that a CUTLASS change of any of them shows up.
    let all = records();
    let sparse: Vec<&Value> = of_kind(&all, "frg")
        .into_iter()
        .filter(|r| r["sparse"] == true)
        .collect();
    let atoms = ["TF32", "F16BF16", "S8", "F8F6F4", "MXF8F6F4", "MXF4NVF4"];
    assert_eq!(sparse.len(), atoms.len(), "one record per sparse 2-SM atom");
    for (r, atom) in sparse.iter().zip(atoms) {
        let name = r["frg"].as_str().expect("name");
        assert!(
            name.starts_with(&format!("SM100_MMA_{atom}_2x1SM_SS_SPARSE<"))
                && name.ends_with(">::FrgTypeC"),
            "{name}"
        );
        assert_eq!((int(&r["m_mma"]), int(&r["n"])), (64, 64), "{name}");
        assert_eq!((r["role"].as_str(), int(&r["cta_group"])), (Some("d"), 2));
        let b = DLayout::with_layout(DataPathLayout::B, 64).expect("N = 64");
        let c = DLayout::with_layout(DataPathLayout::C, 64).expect("N = 64");
        let (mut same_b, mut same_c, mut total) = (0, 0, 0);
        for e in r["entries"].as_array().expect("entries") {
            let v = ints(e);
            let ob = b.locate(v[0], v[1]).expect("in B");
            let oc = c.locate(v[0], v[1]).expect("in C");
            same_b += usize::from((ob.lane, ob.column) == (v[2], v[3]));
            same_c += usize::from((oc.lane, oc.column) == (v[2], v[3]));
            total += 1;
        }
        assert_eq!(total, 64 * 64, "{name}");
        assert_eq!(same_b, total, "{name}");
        assert!(same_c < total / 2, "{name}: {same_c} of {total}");
    }
}

#[test]
fn a_fragments_match() {
    let all = records();
    let mut compared = 0;
    for r in of_kind(&all, "frg")
        .into_iter()
        .filter(|r| r["role"] == "a")
    {
        let name = r["frg"].as_str().expect("name");
        let two = int(&r["cta_group"]) == 2;
        let m_mma = int(&r["m_mma"]);
        let bits = int(&r["element_bits"]);
        // Duplicated: the fragment's rows run over both copies (64 rows each).
        let (layout, rows_per_copy) = match (m_mma, two) {
            (64, false) => (DataPathLayout::F, 64),
            (128, false) => (DataPathLayout::D, 128),
            (64, true) => (DataPathLayout::B, 64),
            (128, true) => (DataPathLayout::A, 128),
            other => panic!("{other:?}"),
        };
        for e in r["entries"].as_array().expect("entries") {
            let v = ints(e);
            let copy = (v[0] / rows_per_copy) as usize;
            let a = a_cell(layout, v[0] % rows_per_copy, v[1], bits).expect("inside A");
            assert_eq!(a.cta, 0, "{name} {e}");
            assert_eq!(
                (a.lanes()[copy], a.column, u32::from(a.bits.lo)),
                (v[2], v[3], v[4]),
                "{name} {e}"
            );
        }
        compared += 1;
    }
    assert_eq!(compared, 6);
}

#[test]
fn scale_factor_fragments_match() {
    let all = records();
    let mut compared = 0;
    for r in of_kind(&all, "sf") {
        let name = r["frg"].as_str().expect("name");
        let mn = int(&r["mn"]);
        let operand = if r["operand"] == "a" {
            SfOperand::A
        } else {
            SfOperand::B
        };
        let two = int(&r["cta_group"]) == 2;
        let vec = match int(&r["vec"]) {
            1 => ScaleVec::X1,
            2 => ScaleVec::X2,
            4 => ScaleVec::X4,
            other => panic!("{other}"),
        };
        let layout = match (two, operand, r["alloc"].as_str()) {
            (false, _, _) => DataPathLayout::D,
            (true, SfOperand::A, _) => DataPathLayout::B,
            (true, SfOperand::B, Some("2x2")) => DataPathLayout::B,
            (true, SfOperand::B, _) => DataPathLayout::A,
        };
        let sf = SfLayout::try_new(layout, operand, vec, mn, 0).expect("a placement");
        let copies = int(&r["atom_rows"]) / mn;
        for e in r["entries"].as_array().expect("entries") {
            let v = ints(e);
            let (index, copy) = (v[0] % mn, (v[0] / mn) as usize);
            let c = sf.locate(index, v[1]).expect("inside");
            assert_eq!(c.lanes().len() as u32, copies, "{name}");
            assert_eq!(
                (c.cta, c.lanes()[copy], c.column, 8 * c.byte),
                (0, v[2], v[3], v[4]),
                "{name} {e}"
            );
        }
        compared += 1;
    }
    assert_eq!(compared, 8);
}
