//! Conformance of the global scale-factor layouts (`tcgen05::scale_factors`) with what the
//! libraries compute:
//! - CUTLASS 4.2.0: `conformance/vectors/cutlass-4.2.0-sf-layout.jsonl`, written by
//!   `conformance/cutlass/gen_sf_layout.cpp` from CUTLASS's own `Sm1xxBlockScaledConfig<16/32>`,
//!   `Sm103BlockScaledConfig<16/32>` (`tile_atom_to_shape_SFA/SFB`) and
//!   `Sm1xxBlockScaledTensorConfig`, evaluated with g++.
//! - PyTorch's documented `to_blocked`: `conformance/vectors/pytorch-to-blocked.jsonl`, written
//!   by `conformance/scales/gen_torch_to_blocked.py`, which carries out its tensor operations.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use serde_json::Value;
use tcgen05::scale_factors::{GlobalSfLayout, SfArrangement, SfIndex};

const CUTLASS: &str = include_str!("../../../conformance/vectors/cutlass-4.2.0-sf-layout.jsonl");
const TORCH: &str = include_str!("../../../conformance/vectors/pytorch-to-blocked.jsonl");

fn records(text: &str, kind: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|r| r["kind"] == kind)
        .collect()
}

fn int(v: &Value) -> u32 {
    u32::try_from(v.as_u64().expect("a non-negative integer")).expect("fits u32")
}

/// Every (batch, row, K block) of every configuration CUTLASS's headers were instantiated for
/// (108 layouts: 2 configs x 2 vectors x 2 operands x 12 shapes, plus 12 of the tensor config)
/// has the offset CUTLASS computes.
#[test]
fn blocked_layout_matches_cutlass_sm1xx_and_sm103_configs() {
    let all = records(CUTLASS, "sf_layout");
    assert_eq!(all.len(), 108, "records in the CUTLASS vector file");
    let mut checked = 0u64;
    for r in &all {
        let (rows, kb, l) = (int(&r["rows"]), int(&r["k_blocks"]), int(&r["batches"]));
        let g = GlobalSfLayout::try_new(SfArrangement::Blocked128x4, rows, kb, l).unwrap();
        let offsets = r["offsets"].as_array().expect("offsets");
        assert_eq!(offsets.len() as u64, u64::from(rows * kb * l));
        for (i, want) in offsets.iter().enumerate() {
            let i = i as u32;
            let index = SfIndex {
                batch: i / (rows * kb),
                row: (i / kb) % rows,
                k_block: i % kb,
            };
            let got = g.offset(index).unwrap();
            assert_eq!(
                got,
                want.as_u64().unwrap(),
                "{} vec {} {} {rows}x{kb}x{l}: {index:?}",
                r["config"],
                r["vec"],
                r["operand"]
            );
            assert_eq!(g.element(got).unwrap(), Some(index));
            checked += 1;
        }
        // CuTe's cosize never exceeds the padded size (padding rounds up to whole tiles).
        assert!(u64::from(int(&r["cosize"])) <= g.bytes());
    }
    assert_eq!(checked, 112_738, "(row, k_block) pairs checked");
}

/// PyTorch's `to_blocked`: every element's index in the flattened output, and which indices
/// are padding (filled with zeros).
#[test]
fn blocked_layout_matches_pytorch_to_blocked() {
    let all = records(TORCH, "to_blocked");
    assert_eq!(all.len(), 9);
    for r in &all {
        let (rows, kb) = (int(&r["rows"]), int(&r["k_blocks"]));
        let g = GlobalSfLayout::try_new(SfArrangement::Blocked128x4, rows, kb, 1).unwrap();
        assert_eq!(g.bytes(), r["bytes"].as_u64().unwrap());
        for (i, want) in r["offsets"].as_array().unwrap().iter().enumerate() {
            let index = SfIndex {
                batch: 0,
                row: i as u32 / kb,
                k_block: i as u32 % kb,
            };
            assert_eq!(
                g.offset(index).unwrap(),
                want.as_u64().unwrap(),
                "{index:?}"
            );
        }
        for p in r["padding"].as_array().unwrap() {
            assert_eq!(g.element(p.as_u64().unwrap()).unwrap(), None);
        }
        assert_eq!(
            g.padding_bytes(),
            r["padding"].as_array().unwrap().len() as u64
        );
    }
}
