//! `tcgen05 check` reads the scale-format bits of a block-scaled MMA's instruction descriptor
//! for the file's `.target` (rules.md D9; issue 27): on `sm_107a` / `sm_107f` bits 23-24 are
//! the scale format and code 2 is UE5M3 (with `.kind::mxf4nvf4` only, D7); before `sm_107`
//! bit 24 is reserved (PTX ISA 9.1 Tables 43-44). The words are those NVIDIA's CuTe DSL 4.8.1
//! wrote (`conformance/vectors/cutedsl-4.8.1-scale-format.jsonl`) and Triton 3.9.0's nvfp4
//! word with uint8 scales; the verdicts expected are written from D9, D7 and R12, not from the
//! checker.
#![cfg(feature = "alloc")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use serde_json::Value;
use tcgen05::check::{check, Options};
use tcgen05::diagnostic::Severity;

/// Triton 3.9.0's `tl.dot_scaled` nvfp4 word with uint8 scales: M = 128, N = 128, E2M1 A and
/// B, scale-format code 2 in bits 23-24 (issue 27).
const TRITON_NVFP4_U8: u32 = 0x0920_0480;

/// A kernel for `target` at `version` whose one MMA takes `word` as its descriptor.
fn file(version: &str, target: &str, kind: &str, vec: &str, word: u32) -> String {
    // M = 256 (bits 27-28 = 2 in Tables 43-44) is a .cta_group::2 shape (Table 39).
    let cta = if (word >> 27) & 3 == 2 { 2 } else { 1 };
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
         .visible .entry k()\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n\
         mov.b32 %r3, {word:#010x};\n\
         tcgen05.mma.cta_group::{cta}.kind::{kind}.block_scale.{vec} [%r1], %rd1, %rd2, %r3, [%r4], \
         [%r5], %p1;\nret;\n}}\n"
    )
}

/// The errors of a file: field, and the message.
fn errors(text: &str) -> Vec<String> {
    let report = check(text.as_bytes(), &Options::default());
    report
        .instructions
        .iter()
        .flat_map(|i| i.findings.iter())
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{}: {f}", f.field))
        .collect()
}

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
fn triton_nvfp4_code_2_is_ue5m3_on_sm_107a_and_reserved_on_sm_100a() {
    for (version, target) in [("9.4", "sm_107a"), ("9.5", "sm_107f")] {
        let text = file(version, target, "mxf4nvf4", "block16", TRITON_NVFP4_U8);
        let e = errors(&text);
        assert!(e.is_empty(), "{target}: {e:?}");
    }
    for target in ["sm_100a", "sm_103a"] {
        let text = file("9.4", target, "mxf4nvf4", "block16", TRITON_NVFP4_U8);
        let e = errors(&text);
        assert!(
            e.iter()
                .any(|m| m.contains("bit 24") && m.contains("sm_107")),
            "{target}: {e:?}"
        );
    }
}

/// Every CuTe DSL word (3 formats x 4 shapes x 3 kinds) on `sm_107a` and `sm_100a`.
#[test]
fn cutedsl_words_check_per_target() {
    let recs = records();
    assert_eq!(recs.len(), 36);
    let (mut clean, mut refused) = (0, 0);
    for r in &recs {
        let kind = r["kind"].as_str().unwrap();
        // The scale-format bits CuTe DSL wrote, in a word of the kind written from Tables
        // 43-44 (M = 128, N = 128; E4M3 A and B for .kind::mxf8f6f4, E2M1 codes 1 for the
        // 4-bit kinds): CuTe DSL's other bits follow its own builders (its .kind::mxf4 words
        // carry .kind::mxf8f6f4's E2M1 code 5, its 4-bit words set bit 12), not the question
        // here.
        let base: u32 = if kind == "mxf8f6f4" {
            0x0820_0000
        } else {
            0x0820_0480
        };
        let word = base | (u32::try_from(r["word"].as_u64().unwrap()).unwrap() & (3 << 23));
        let format = r["scale_format"].as_str().unwrap();
        // UE4M3 and UE5M3 take 16-element blocks (R12, D7); E8M0 takes 32.
        let vec = if format == "E8M0" {
            "block32"
        } else {
            "block16"
        };
        let nvf4 = kind == "mxf4nvf4";
        for (version, target, want_clean) in [
            // D9: bits 23-24 on sm_107; UE4M3 and UE5M3 with .kind::mxf4nvf4 only (R12, D7).
            ("9.4", "sm_107a", format == "E8M0" || nvf4),
            // Before sm_107 bit 24 (UE5M3's code 2) is reserved.
            (
                "9.4",
                "sm_100a",
                format == "E8M0" || (format == "UE4M3" && nvf4),
            ),
        ] {
            let e = errors(&file(version, target, kind, vec, word));
            assert_eq!(e.is_empty(), want_clean, "{target} {r}: {e:?}");
            if want_clean {
                clean += 1;
            } else {
                refused += 1;
            }
        }
    }
    // sm_107a: 12 mxf4nvf4 words and 8 E8M0 words of the other kinds; sm_100a: 8 mxf4nvf4
    // words (E8M0, UE4M3) and the same 8 E8M0 words.
    assert_eq!((clean, refused), (20 + 16, 16 + 20));
}
