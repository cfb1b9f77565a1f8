//! The committed hardware case file is what the generator writes now, and the committed H100
//! results show every correct case matching and every deliberately wrong descriptor caught.

use std::path::PathBuf;
use std::sync::OnceLock;

use tcgen05::canonical_layout::BaseOffsetReading;
use tcgen05::shared_memory_descriptor::{LboMode, SmemDescriptor, SmemFields, Swizzle};
use tcgen05::{Major, Target};
use tcgen05_hw_cases::{
    cases, hopper_descriptor, parse_results, render_cases, render_ops, Case, TranslateError,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    let path = root().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The generated cases, computed once for all tests.
fn all_cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| cases().unwrap_or_else(|e| panic!("generator failed: {e}")))
}

/// FNV-1a, 64-bit: what the harness prints as `cases_fnv1a64` for the file it ran.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

const RESULTS: &str = "hw/results/wgmma-h100.txt";

#[test]
fn committed_case_file_is_what_the_generator_writes() {
    let cases = all_cases();
    let text = render_cases(cases).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        read("hw/cases/wgmma.txt") == text,
        "hw/cases/wgmma.txt is stale: run `cargo run -p tcgen05-hw-cases -- write`"
    );
    assert!(
        read("hw/wgmma/wgmma_ops.cuh") == render_ops(cases),
        "hw/wgmma/wgmma_ops.cuh is stale: run `cargo run -p tcgen05-hw-cases -- write`"
    );
}

#[test]
fn cases_cover_every_type_major_swizzle_and_operand() {
    let cases = all_cases();
    for ty in ["f16", "bf16", "tf32", "e4m3", "s8"] {
        let majors: &[&str] = if ty == "f16" || ty == "bf16" {
            &["k", "mn"]
        } else {
            &["k"]
        };
        for major in majors {
            for swizzle in ["none", "32B", "64B", "128B"] {
                for op in ["a", "b"] {
                    let prefix = format!("{op}-{ty}-{major}-{swizzle}-");
                    let n = cases
                        .iter()
                        .filter(|c| c.expect_match && c.name.starts_with(&prefix))
                        .count();
                    assert!(n >= 3, "only {n} correct cases for {prefix}");
                }
            }
        }
    }
    // Every swizzled mode meets a non-zero base offset, and every wrong kind occurs.
    for swizzle in ["32B", "64B", "128B"] {
        assert!(cases.iter().any(|c| c.expect_match
            && c.name.contains(&format!("-{swizzle}-"))
            && c.under_test().desc.base_offset() != 0));
    }
    for kind in [
        "start_plus_core",
        "swap_lbo_sbo",
        "wrong_swizzle",
        "base_offset_zero",
        "wrong_base_offset",
    ] {
        let n = cases
            .iter()
            .filter(|c| !c.expect_match && c.name.ends_with(kind))
            .count();
        assert!(n >= 5, "only {n} wrong cases of kind {kind}");
    }
}

#[test]
fn wrong_cases_read_elsewhere_and_correct_cases_read_where_the_data_is() {
    for c in all_cases() {
        for o in [&c.a, &c.b] {
            assert!(hopper_descriptor(o.desc).is_ok(), "{}", c.name);
        }
        let u = c.under_test();
        assert_eq!(u.read == u.place, c.expect_match, "{}", c.name);
        // The other operand is always read where it was placed.
        let other = if std::ptr::eq(u, &c.a) { &c.b } else { &c.a };
        assert_eq!(other.read, other.place, "{}", c.name);
    }
}

#[test]
fn base_offset_cases_tell_the_readings_apart() {
    let mut absolute = 0;
    let mut start_line = 0;
    for c in all_cases().iter().filter(|c| c.expect_match) {
        for r in c.refuted_readings().unwrap_or_else(|e| panic!("{e}")) {
            match r {
                BaseOffsetReading::Absolute => absolute += 1,
                BaseOffsetReading::StartLine => start_line += 1,
                BaseOffsetReading::PatternStart => panic!("the default reading refutes itself"),
            }
        }
    }
    assert!(absolute >= 50, "{absolute}");
    assert!(start_line >= 50, "{start_line}");
}

#[test]
fn hopper_descriptor_clears_the_fixed_bits_and_keeps_the_layout_type() {
    // CUTLASS 4.2.0 K-major bf16 128B at 0x400 (oracles.md §2): Hopper layout type 1 (128B) at
    // bits 62-63, no bit 46.
    let d = SmemDescriptor::from_bits(0x4000_4040_0001_0040, Target::Sm100a).expect("valid");
    assert_eq!(hopper_descriptor(d), Ok(0x4000_0040_0001_0040));
    let cases = [
        (Swizzle::None, 0u64),
        (Swizzle::B128, 1),
        (Swizzle::B64, 2),
        (Swizzle::B32, 3),
    ];
    for (swizzle, code) in cases {
        let f = SmemFields::new(0x1230, 0x40, 0x400, swizzle).with_base_offset(5);
        let d = SmemDescriptor::try_new(f, Target::Sm100a).expect("valid");
        let w = hopper_descriptor(d).expect("translates");
        assert_eq!(w >> 62, code, "{swizzle}");
        assert_eq!((w >> 46) & 7, 0);
        assert_eq!((w >> 49) & 7, 5);
        assert_eq!(w & 0x3fff, 0x123);
        assert_eq!((w >> 16) & 0x3fff, 0x4);
        assert_eq!((w >> 32) & 0x3fff, 0x40);
        // Apart from bits 46-48 the two encodings are the same bits.
        assert_eq!(w, d.bits() & !(7 << 46), "{swizzle}");
    }
    let base32 = SmemDescriptor::try_new(
        SmemFields::new(0x400, 0x40, 0x400, Swizzle::B128Base32B),
        Target::Sm100a,
    )
    .expect("valid");
    assert_eq!(
        hopper_descriptor(base32),
        Err(TranslateError::Base32BSwizzle)
    );
    let abs = SmemDescriptor::try_new(
        SmemFields::new(0x400, 0x480, 0x400, Swizzle::B128).with_lbo_mode(LboMode::Absolute),
        Target::Sm103a,
    )
    .expect("valid on sm_103a");
    assert_eq!(hopper_descriptor(abs), Err(TranslateError::AbsoluteLbo));
}

#[test]
fn committed_h100_results_match_every_case_and_catch_every_wrong_descriptor() {
    let text = read(RESULTS);
    let r = parse_results(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.device.contains("H100"), "device line: {}", r.device);
    assert!(r.device.contains("cc 9.0"), "device line: {}", r.device);
    assert!(!r.date.is_empty(), "no date line");
    assert!(r.done, "the harness did not run to the end");
    // The results are of the committed case file.
    let fnv = format!("{:#018x}", fnv1a(read("hw/cases/wgmma.txt").as_bytes()));
    assert!(
        text.lines()
            .any(|l| l.starts_with("window ") && l.ends_with(&format!("cases_fnv1a64 {fnv}"))),
        "{RESULTS} is not the output for the committed hw/cases/wgmma.txt (fnv {fnv})"
    );
    let cases = all_cases();
    assert_eq!(r.results.len(), cases.len(), "one result per case");
    let (mut matched, mut caught) = (0, 0);
    for (c, res) in cases.iter().zip(&r.results) {
        assert_eq!(res.name, c.name);
        let f = |k: &str| res.fields.get(k).map_or("", String::as_str);
        let expect = if c.expect_match { "match" } else { "mismatch" };
        assert_eq!(f("expect"), expect, "{}", c.name);
        assert_eq!(f("product"), expect, "{}: product", c.name);
        // The tensor core fetched exactly what the model says, also for wrong descriptors.
        assert_eq!(f("probe"), "match", "{}: probe", c.name);
        assert_eq!(f("verdict"), "ok", "{}", c.name);
        if c.expect_match {
            assert_eq!(f("product_bad").split('/').next(), Some("0"));
            matched += 1;
        } else {
            assert_ne!(f("product_bad").split('/').next(), Some("0"));
            caught += 1;
        }
    }
    assert!(matched >= 400 && caught >= 80, "{matched} {caught}");
    // Descriptors built from intent (TileLayout), every type/major/swizzle and both atom orders.
    let tiles = cases.iter().filter(|c| c.name.starts_with("tile-")).count();
    assert!(tiles >= 100, "{tiles} tile cases");
    let majors = cases
        .iter()
        .filter(|c| c.under_test().major == Major::Mn)
        .count();
    assert!(majors >= 60, "{majors} MN-major cases");
}

const TMA_RESULTS: &str = "hw/results/tma-h100.txt";

fn tma_cases() -> &'static [tcgen05_hw_cases::tma::TmaCase] {
    static CASES: OnceLock<Vec<tcgen05_hw_cases::tma::TmaCase>> = OnceLock::new();
    CASES.get_or_init(|| {
        tcgen05_hw_cases::tma::tma_cases().unwrap_or_else(|e| panic!("generator failed: {e}"))
    })
}

#[test]
fn committed_tma_case_file_is_what_the_generator_writes() {
    assert!(
        read("hw/cases/tma.txt") == tcgen05_hw_cases::tma::render_tma_cases(tma_cases()),
        "hw/cases/tma.txt is stale: run `cargo run -p tcgen05-hw-cases -- write`"
    );
}

#[test]
fn tma_cases_cover_every_mode_element_size_and_destination_kind() {
    let cases = tma_cases();
    for swizzle in ["none", "32B", "64B", "128B"] {
        for e in [1, 2, 4] {
            let placed = cases
                .iter()
                .filter(|c| c.swizzle.name() == swizzle && c.esize == e && !c.expect_fault())
                .count();
            assert!(placed >= 6, "{swizzle} e{e}: {placed} placement cases");
        }
        // A destination off the 128-byte line must be refused in every mode.
        assert!(cases
            .iter()
            .any(|c| c.swizzle.name() == swizzle && c.expect_fault()));
        // Placement cases start mid-pattern too (a destination not on the repeat boundary).
        if swizzle != "none" {
            assert!(cases.iter().any(|c| c.swizzle.name() == swizzle
                && !c.expect_fault()
                && c.destination % 1024 != 0));
        }
    }
}

#[test]
fn committed_h100_tma_results_place_every_element_where_the_model_says() {
    let text = read(TMA_RESULTS);
    let r = parse_results(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        r.device.contains("H100") && r.device.contains("cc 9.0"),
        "{}",
        r.device
    );
    assert!(!r.date.is_empty() && r.done, "incomplete results");
    let fnv = format!("{:#018x}", fnv1a(read("hw/cases/tma.txt").as_bytes()));
    assert!(
        text.lines()
            .any(|l| l.starts_with("window ") && l.ends_with(&format!("cases_fnv1a64 {fnv}"))),
        "{TMA_RESULTS} is not the output for the committed hw/cases/tma.txt (fnv {fnv})"
    );
    let cases = tma_cases();
    assert_eq!(r.results.len(), cases.len(), "one result per case");
    let (mut placed, mut refused) = (0, 0);
    for (c, res) in cases.iter().zip(&r.results) {
        assert_eq!(res.name, c.name);
        let f = |k: &str| res.fields.get(k).map_or("", String::as_str);
        assert_eq!(f("verdict"), "ok", "{}", c.name);
        if c.expect_fault() {
            assert_eq!(f("expect"), "fault", "{}", c.name);
            assert_eq!(f("outcome"), "fault", "{}", c.name);
            refused += 1;
        } else {
            assert_eq!(f("expect"), "match", "{}", c.name);
            assert_eq!(f("placement"), "match", "{}", c.name);
            assert_eq!(f("bad"), format!("0/{}", c.inner * c.outer), "{}", c.name);
            assert_eq!(f("extra"), "0", "{}", c.name);
            placed += 1;
        }
    }
    assert!(placed >= 80 && refused >= 9, "{placed} {refused}");
}

#[test]
fn committed_e2e_cases_and_h100_results_follow_the_agreement_check() {
    let cases =
        tcgen05_hw_cases::e2e::e2e_cases().unwrap_or_else(|e| panic!("generator failed: {e}"));
    assert!(
        read("hw/cases/e2e.txt") == tcgen05_hw_cases::e2e::render_e2e_cases(&cases),
        "hw/cases/e2e.txt is stale: run `cargo run -p tcgen05-hw-cases -- write`"
    );
    // Both answers occur: the address-anchored descriptors agree with the copies, Table 41's
    // base offset on a copy off the repeat boundary does not.
    let differ = cases.iter().filter(|c| !c.agree).count();
    assert!(
        differ >= 3 && cases.len() - differ >= 6,
        "{differ} of {}",
        cases.len()
    );
    let text = read("hw/results/e2e-h100.txt");
    let r = parse_results(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        r.device.contains("H100") && r.device.contains("cc 9.0"),
        "{}",
        r.device
    );
    assert!(!r.date.is_empty() && r.done, "incomplete results");
    let fnv = format!("{:#018x}", fnv1a(read("hw/cases/e2e.txt").as_bytes()));
    assert!(
        text.lines()
            .any(|l| l.starts_with("window ") && l.ends_with(&format!("cases_fnv1a64 {fnv}"))),
        "hw/results/e2e-h100.txt is not the output for the committed hw/cases/e2e.txt"
    );
    assert_eq!(r.results.len(), cases.len());
    for (c, res) in cases.iter().zip(&r.results) {
        let f = |k: &str| res.fields.get(k).map_or("", String::as_str);
        assert_eq!(res.name, c.name);
        assert_eq!(f("expect"), if c.agree { "agree" } else { "differ" });
        assert_eq!(
            f("product"),
            if c.agree { "match" } else { "mismatch" },
            "{}",
            c.name
        );
        assert_eq!(f("verdict"), "ok", "{}", c.name);
    }
}
