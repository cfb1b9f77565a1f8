//! The scale-factor IDs of K = 96 block-scaled MMAs (`sm_103a`, `sm_107a`; rulings T3 and D10
//! of `docs/rules.md`), written from the PTX text and CUTLASS, not from the model:
//!
//! - the words are laid out by hand from Table 44 (PTX ISA 9.7.16.4.2): SFB_ID at bits 4-5, E2M1
//!   A and B (codes 1 at bits 7 and 10), N >> 3 at 17-22, the scale type at 23 (UE8M0 = 1,
//!   UE4M3 = 0), M >> 7 at 27-28, SFA_ID at 29-30, the K bit at 31 (dense K = 96);
//! - the IDs allowed are the text's (PTX ISA 9.7.16.10.7.2-3, as `../shared/spec/ptx-beyond-seeds.md`
//!   §3.4 records it): `.scale_vec::2X` (32-element blocks, K = 64) 0 or 2; 4X (16-element
//!   blocks, which UE4M3 scales imply) 0; K = 96 `.block32` (3X) 0-3, the byte offset in the
//!   Tensor Memory word; K = 96 `.block16` (6X) 0 or 2. CUTLASS 4.2.0's sm_103 mainloop passes
//!   IDs 0, 3, 2 and 1 to the four K = 96 MMAs of a 384-wide K tile.
//!
//! The descriptor alone (no qualifier) allows with the K bit the union for its scale type:
//! 0-3 with UE8M0 (3X, or 6X with `.block16`), 0 or 2 with UE4M3 (6X only). `check` narrows
//! UE8M0 `.block16` to 0 or 2 with the instruction's qualifier.
#![cfg(feature = "alloc")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use tcgen05::check::{check, Options};
use tcgen05::diagnostic::Severity;
use tcgen05::instruction_descriptor::InstructionDescriptor;
use tcgen05::Kind;

/// A Table 44 word: M = 256, N = 128, E2M1 A and B.
fn word(ue8m0: bool, k96: bool, sfa: u32, sfb: u32) -> u32 {
    sfb << 4
        | 1 << 7
        | 1 << 10
        | (128 >> 3) << 17
        | u32::from(ue8m0) << 23
        | (256 >> 7) << 27
        | sfa << 29
        | u32::from(k96) << 31
}

/// The IDs the text gives a descriptor of this scale type with or without the K bit.
fn text_allows(ue8m0: bool, k96: bool, id: u32) -> bool {
    match (ue8m0, k96) {
        (true, false) => id == 0 || id == 2,
        (false, false) => id == 0,
        (true, true) => id <= 3,
        (false, true) => id == 0 || id == 2,
    }
}

/// Every ID pair, both scale types and both K bits, under `.kind::mxf4` and
/// `.kind::mxf4nvf4`: `is_valid`, the decoder's problem set and the field-by-field decode agree
/// with the text (UE4M3 is `.kind::mxf4nvf4`'s only, R12).
#[test]
fn descriptor_ids_follow_the_text() {
    let (mut valid, mut refused) = (0, 0);
    for kind in [Kind::Mxf4, Kind::Mxf4nvf4] {
        for ue8m0 in [false, true] {
            for k96 in [false, true] {
                for sfa in 0..4 {
                    for sfb in 0..4 {
                        let w = word(ue8m0, k96, sfa, sfb);
                        let want = (ue8m0 || kind == Kind::Mxf4nvf4)
                            && text_allows(ue8m0, k96, sfa)
                            && text_allows(ue8m0, k96, sfb);
                        let what = format!("{w:#010x} under {kind}");
                        assert_eq!(InstructionDescriptor::is_valid(w, kind), want, "{what}");
                        let dec = InstructionDescriptor::decode(w, kind);
                        assert_eq!(dec.is_valid(), want, "{what}: {:?}", dec.diagnostics);
                        let (_, list) = InstructionDescriptor::decode_by_fields(w, kind);
                        assert_eq!(list.has_errors(), !want, "{what}");
                        // Each refused ID is reported by its field, naming K = 96 when set.
                        for (field, id) in [("sfa_id", sfa), ("sfb_id", sfb)] {
                            let named = dec
                                .diagnostics
                                .iter()
                                .find(|e| tcgen05::diagnostic::Diagnostic::field(e) == field);
                            assert_eq!(
                                named.is_some(),
                                !text_allows(ue8m0, k96, id),
                                "{what} {field}"
                            );
                            if let (Some(e), true) = (named, k96) {
                                assert!(e.to_string().contains("K = 96"), "{what}: {e}");
                            }
                        }
                        if want {
                            valid += 1;
                        } else {
                            refused += 1;
                        }
                    }
                }
            }
        }
    }
    // mxf4: UE8M0 only, 4 + 16 pairs; mxf4nvf4: UE8M0 4 + 16, UE4M3 1 + 4.
    assert_eq!((valid, refused), (45, 83));
}

/// A kernel for `target` whose one MMA (`.cta_group::2`, `qual`) takes `w` as its descriptor.
fn file(target: &str, qual: &str, w: u32) -> String {
    format!(
        ".version 8.8\n.target {target}\n.address_size 64\n\
         .visible .entry k()\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n\
         mov.b32 %r3, {w:#010x};\n\
         tcgen05.mma.cta_group::2.kind::{qual} [%r1], %rd1, %rd2, %r3, [%r4], [%r5], %p1;\n\
         ret;\n}}\n"
    )
}

/// The errors `check` finds: field and message.
fn errors(text: &str) -> Vec<String> {
    check(text.as_bytes(), &Options::default())
        .instructions
        .iter()
        .flat_map(|i| i.findings.iter())
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{}: {f}", f.field))
        .collect()
}

/// `check` on `sm_103a`: CUTLASS's four IDs (0, 3, 2, 1) with `.block32` (3X) are clean;
/// `.block16` (6X) takes 0 and 2 only, by the descriptor for UE4M3 and by the qualifier for
/// UE8M0; the same words without the K bit (K = 64, 2X / 4X) take 0 and 2 with `.block32`
/// and 0 with `.block16`; on `sm_100a` the K bit itself is the error.
#[test]
fn check_reads_the_ids_with_the_qualifier() {
    for id in [0, 3, 2, 1] {
        for qual in ["mxf4nvf4.block_scale.block32", "mxf4.block_scale.block32"] {
            let e = errors(&file("sm_103a", qual, word(true, true, id, id)));
            assert!(e.is_empty(), "{qual} ID {id}: {e:?}");
        }
        let six_x = id == 0 || id == 2;
        for ue8m0 in [true, false] {
            let e = errors(&file(
                "sm_103a",
                "mxf4nvf4.block_scale.block16",
                word(ue8m0, true, id, 0),
            ));
            assert_eq!(e.is_empty(), six_x, "block16 UE8M0 {ue8m0} ID {id}: {e:?}");
            if !six_x {
                assert!(e.iter().all(|m| m.contains("sf")), "{e:?}");
            }
        }
        let e = errors(&file(
            "sm_103a",
            "mxf4nvf4.block_scale.block32",
            word(true, false, id, 0),
        ));
        assert_eq!(e.is_empty(), six_x, "K = 64 block32 ID {id}: {e:?}");
        let e = errors(&file(
            "sm_103a",
            "mxf4nvf4.block_scale.block16",
            word(true, false, id, 0),
        ));
        assert_eq!(e.is_empty(), id == 0, "K = 64 block16 ID {id}: {e:?}");
        let e = errors(&file(
            "sm_100a",
            "mxf4.block_scale.block32",
            word(true, true, id, id),
        ));
        assert!(
            e.iter().any(|m| m.contains("K = 96")),
            "sm_100a ID {id}: {e:?}"
        );
    }
}

/// Scale-format code 3 in bits 23-24 on `sm_107a` (rulings D9, D10): one error naming the
/// field, the code, the target and the section in the file's numbering (PTX ISA 9.4
/// §9.7.18.4.2), not Tables 43-44's reserved bit 24 nor a scale type read from bit 23 alone.
#[test]
fn code_3_is_the_two_bit_fields_reserved_code() {
    let w = word(true, false, 0, 0) | 1 << 24;
    for (target, version) in [("sm_107a", "9.4"), ("sm_107f", "9.5")] {
        let text = file(target, "mxf4nvf4.block_scale.block32", w)
            .replace(".version 8.8", &format!(".version {version}"));
        let report = check(text.as_bytes(), &Options::default());
        let found: Vec<String> = report
            .instructions
            .iter()
            .flat_map(|i| i.findings.iter())
            .filter(|f| f.severity == Severity::Error)
            .map(|f| format!("{}: {f} ({})", f.field, f.source.cite(report.version)))
            .collect();
        assert_eq!(found.len(), 1, "{target}: {found:?}");
        let m = &found[0];
        assert!(
            m.starts_with("scale_format")
                && m.contains("code 3 is reserved on ")
                && m.contains(target)
                && m.contains("9.7.18.4.2"),
            "{m}"
        );
        assert!(!m.contains("bit 24 is reserved"), "{m}");
    }
    // Before sm_107 bit 24 stays Tables 43-44's reserved bit.
    let e = errors(&file("sm_103a", "mxf4nvf4.block_scale.block32", w));
    assert!(e.iter().any(|m| m.contains("bit 24 is reserved")), "{e:?}");
}
