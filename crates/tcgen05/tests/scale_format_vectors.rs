//! The scale-format bits of block-scaled instruction descriptors written by NVIDIA's CuTe DSL 4.8.1
//! (`conformance/vectors/cutedsl-4.8.1-scale-format.jsonl`, from
//! `conformance/kernels/gen_scale_format.py`): the per-target decode of rules.md D9 reads back the
//! format every builder was asked for on `sm_107a`/`sm_107f`, and before `sm_107` refuses exactly
//! the words with bit 24 set (UE5M3), naming what the bits would mean.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use serde_json::Value;
use tcgen05::instruction_descriptor::scale_format::{
    decode_scale_format, ScaleFormat, ScaleFormatError,
};
use tcgen05::{Kind, Target};

fn records() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../conformance/vectors/cutedsl-4.8.1-scale-format.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn cutedsl_words_decode_per_target() {
    let recs = records();
    // 3 formats x 4 shapes x 3 kinds.
    assert_eq!(recs.len(), 36);
    let (mut ok107, mut refused100) = (0, 0);
    for r in &recs {
        let word = u32::try_from(r["word"].as_u64().unwrap()).unwrap();
        let kind = Kind::from_name(r["kind"].as_str().unwrap()).unwrap();
        let want = match r["scale_format"].as_str().unwrap() {
            "UE4M3" => ScaleFormat::Ue4m3,
            "E8M0" => ScaleFormat::Ue8m0,
            "UE5M3" => ScaleFormat::Ue5m3,
            other => panic!("{other}"),
        };
        for t in [Target::Sm107a, Target::Sm107f] {
            match decode_scale_format(word, kind, t) {
                Ok(b) => {
                    assert_eq!(b.format, want, "{r}");
                    assert_eq!(b.code, u32::try_from(r["code"].as_u64().unwrap()).unwrap());
                    ok107 += 1;
                }
                // CuTe DSL packs any format into any kind; R12 / D7 allow UE4M3 and UE5M3
                // with .kind::mxf4nvf4 only.
                Err(ScaleFormatError::NotForKind { format, .. }) => {
                    assert_eq!(format, want);
                    assert_ne!(kind, Kind::Mxf4nvf4, "{r}");
                }
                Err(e) => panic!("{r}: {e}"),
            }
        }
        for t in [Target::Sm100a, Target::Sm103a, Target::Sm110a] {
            let got = decode_scale_format(word, kind, t);
            if want == ScaleFormat::Ue5m3 {
                let e = got.unwrap_err();
                assert_eq!(e, ScaleFormatError::ReservedBit24 { target: t, code: 2 });
                assert!(e.to_string().contains("ue5m3"), "{e}");
                refused100 += 1;
            } else if let Ok(b) = got {
                assert_eq!(b.format, want, "{r}");
            }
        }
    }
    // On sm_107: every mxf4nvf4 word (3 formats x 4 shapes) and the E8M0 words of the other
    // two kinds (4 shapes each), on two targets.
    assert_eq!(ok107, 2 * (12 + 8));
    // Before sm_107: the 12 UE5M3 words on three targets.
    assert_eq!(refused100, 3 * 12);
}
