//! `decode smem` and `encode smem`: CUTLASS values (spec/oracles.md §2) and every rule.

use crate::{errors_of, has, run, warnings_of};

/// CUTLASS 4.2.0 descriptors (oracles.md §2) and the fields they encode:
/// (hex, start address, LBO, SBO, swizzle).
const CUTLASS: [(&str, u64, u64, u64, &str); 4] = [
    ("0x4000404000010040", 0x400, 16, 1024, "128B"),
    ("0x0000400800800040", 0x400, 2048, 128, "none"),
    ("0x4000408000400040", 0x400, 1024, 2048, "128B"),
    ("0x2000410000200040", 0x400, 512, 4096, "128B_base32B"),
];

#[test]
fn cutlass_values_decode() {
    for (hex, start, lbo, sbo, sw) in CUTLASS {
        let r = run(&["decode", "smem", hex, "--json"]);
        r.code(0);
        let v = r.json();
        assert_eq!(v["hex"], hex);
        assert_eq!(v["valid"], true);
        let f = &v["fields"];
        assert_eq!(f["start_address"], start, "{hex}");
        assert_eq!(f["leading_byte_offset"], lbo, "{hex}");
        assert_eq!(f["stride_byte_offset"], sbo, "{hex}");
        assert_eq!(f["base_offset"], 0);
        assert_eq!(f["lbo_mode"], "relative");
        assert_eq!(f["swizzle"], sw);
        assert_eq!(f.as_object().map(|o| o.len()), Some(6));
        assert!(errors_of(&v).is_empty() && warnings_of(&v).is_empty());
        // Human mode: the table and the verdict, nothing on stderr.
        let h = run(&["decode", "smem", hex]);
        h.code(0);
        assert!(h.stdout.contains("start_address") && h.stdout.ends_with("valid\n"));
        assert!(h.stderr.is_empty());
    }
}

#[test]
fn cutlass_values_encode_from_fields() {
    for (hex, start, lbo, sbo, sw) in CUTLASS {
        let (start, lbo, sbo) = (start.to_string(), lbo.to_string(), sbo.to_string());
        let args = [
            "encode",
            "smem",
            "--start-address",
            &start,
            "--lbo",
            &lbo,
            "--sbo",
            &sbo,
            "--swizzle",
            sw,
        ];
        let r = run(&[&args[..], &["--json"]].concat());
        r.code(0);
        let v = r.json();
        assert_eq!(v["hex"], hex);
        assert_eq!(v.as_object().map(|o| o.len()), Some(2), "{v}");
        assert_eq!(v["fields"]["swizzle"], sw);
        let h = run(&args);
        h.code(0);
        assert!(h.stdout.contains(hex), "{}", h.stdout);
    }
}

#[test]
fn cutlass_k_block_advances_decode() {
    // Each next 16-element k-block adds 2 to the start field (K-major) or 0x100 (MN-major).
    for (hex, start) in [
        ("0x4000404000010042", 0x420),
        ("0x4000404000010044", 0x440),
        ("0x4000404000010046", 0x460),
        ("0x4000408000400140", 0x1400),
    ] {
        let v = run(&["decode", "smem", hex, "--json"]).code(0).json();
        assert_eq!(v["fields"]["start_address"], start);
    }
}

#[test]
fn separators_and_decimal_are_accepted() {
    let a = run(&["decode", "smem", "0x4000_4040_0001_0040", "--json"])
        .code(0)
        .json();
    let b = run(&["decode", "smem", "4611756662049538112", "--json"])
        .code(0)
        .json();
    assert_eq!(a, b);
    assert_eq!(a["hex"], "0x4000404000010040");
}

/// Decodes `hex` for `target` and returns the JSON object, checking the exit status.
fn decode(hex: &str, target: &str, code: i32) -> serde_json::Value {
    let r = run(&["decode", "smem", hex, "--target", target, "--json"]);
    r.code(code);
    let v = r.json();
    assert_eq!(v["valid"], code == 0, "{v}");
    // Every error is also an `error:` line on stderr.
    let errs = errors_of(&v);
    let lines = r.stderr_lines();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("error:")).count(),
        errs.len(),
        "{}",
        r.stderr
    );
    for (field, source) in &errs {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("error: {field}")) && l.contains(source.as_str())),
            "no stderr line for {field} ({source}):\n{}",
            r.stderr
        );
    }
    v
}

#[test]
fn every_decode_rule() {
    let good: u64 = 0x4000_4040_0001_0040;
    let hex = |v: u64| format!("{v:#018x}");
    // R2: each reserved bit, named by position.
    for bit in [14, 15, 30, 31] {
        let v = decode(&hex(good | 1 << bit), "sm_100a", 1);
        assert!(has(&errors_of(&v), &format!("bit {bit}"), "R2"), "{v}");
    }
    // R1: bits 46-48 must be 0b001; 53-60 zero.
    let v = decode(&hex(good & !(1 << 46)), "sm_100a", 1);
    assert!(has(&errors_of(&v), "fixed_46_48", "R1"));
    let v = decode(&hex(good | 1 << 55), "sm_100a", 1);
    assert!(has(&errors_of(&v), "fixed_53_60", "R1"));
    // Table 40: swizzle codes 3, 5, 7 are invalid; the field keeps the raw code.
    for code in [3u64, 5, 7] {
        let v = decode(&hex(good & !(7 << 61) | code << 61), "sm_100a", 1);
        assert!(has(&errors_of(&v), "swizzle", "Table 40"));
        assert_eq!(v["fields"]["swizzle"], code);
    }
    // R4: a base offset without swizzling is a warning only.
    let v = decode("0x0002400800800040", "sm_100a", 0);
    assert!(has(&warnings_of(&v), "base_offset", "R4"), "{v}");
    assert_eq!(v["fields"]["base_offset"], 1);
    // R5: the absolute mode, sm_103a only, 128B only, base offset 0.
    let abs = good | 1 << 52;
    let v = decode(&hex(abs), "sm_100a", 1);
    assert!(has(&errors_of(&v), "lbo_mode", "9.7.16.4.1.1"), "{v}");
    let v = decode(&hex(abs), "sm_103a", 0);
    assert_eq!(v["fields"]["lbo_mode"], "absolute");
    let v = decode(&hex(abs & !(7 << 61) | 4 << 61), "sm_103a", 1);
    assert!(has(&errors_of(&v), "swizzle", "R5"));
    let v = decode(&hex(abs | 1 << 49), "sm_103a", 1);
    assert!(has(&errors_of(&v), "base_offset", "R5"));
    // Everything at once: every problem is listed.
    let v = decode("0xffffffffffffffff", "sm_100a", 1);
    assert!(errors_of(&v).len() >= 8, "{v}");
}

#[test]
fn human_decode_flags_rows_and_lists_errors_on_stderr() {
    let r = run(&["decode", "smem", "0x6000000000004040"]);
    r.code(1);
    assert!(r.stdout.contains("! 14-15"), "{}", r.stdout);
    assert!(r.stdout.contains("INVALID: 3 errors"));
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("error: bit 14 = 1: ") && lines[0].ends_with("(rules.md R2)"));
}

/// Runs `encode smem` with the given flags after the three byte fields of CUTLASS's first value.
fn encode(extra: &[&str], code: i32) -> crate::Run {
    let base = [
        "encode",
        "smem",
        "--start-address",
        "0x400",
        "--lbo",
        "16",
        "--sbo",
        "1024",
    ];
    let r = run(&[&base[..], extra].concat());
    r.code(code);
    r
}

#[test]
fn encode_base_offset_and_pattern_start() {
    // Table 41 / R4: 64B swizzle, pattern at 1024 + 256: (0x500 >> 7) & 7 = 2.
    let v = encode(
        &["--swizzle", "64B", "--pattern-start", "0x500", "--json"],
        0,
    )
    .json();
    assert_eq!(v["fields"]["base_offset"], 2);
    assert_eq!(v["hex"], "0x8004404000010040");
    // On its 512-byte boundary: 0.
    let v = encode(
        &["--swizzle", "64B", "--pattern-start", "0x600", "--json"],
        0,
    )
    .json();
    assert_eq!(v["fields"]["base_offset"], 0);
    let v = encode(&["--swizzle", "64B", "--base-offset", "5", "--json"], 0).json();
    assert_eq!(v["fields"]["base_offset"], 5);
    // Not on a 128-byte line: no base offset describes it (Table 41).
    let r = encode(
        &["--swizzle", "128B", "--pattern-start", "0x440", "--json"],
        1,
    );
    let v = r.json();
    assert_eq!(v["hex"], serde_json::Value::Null);
    assert!(has(&errors_of(&v), "pattern_start_address", "Table 41"));
    // Mutually exclusive.
    encode(
        &[
            "--swizzle",
            "64B",
            "--pattern-start",
            "0x500",
            "--base-offset",
            "1",
        ],
        2,
    );
}

#[test]
fn encode_rules() {
    // R3: misaligned and out-of-range byte values are errors, never masked.
    let r = run(&[
        "encode",
        "smem",
        "--start-address",
        "0x408",
        "--lbo",
        "0x40000",
        "--sbo",
        "0x1_0000_0000",
        "--swizzle",
        "none",
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    let e = errors_of(&v);
    assert!(has(&e, "start_address", "9.7.16.4.1"), "{v}");
    assert!(has(&e, "leading_byte_offset", "R3"), "{v}");
    assert!(has(&e, "stride_byte_offset", "R3"), "{v}");
    assert_eq!(v["valid"], false);
    assert_eq!(r.stderr_lines().len(), 3);
    // Table 40: base offset 0-7.
    let v = encode(&["--swizzle", "128B", "--base-offset", "8", "--json"], 1).json();
    assert!(has(&errors_of(&v), "base_offset", "Table 40"));
    let v = encode(&["--swizzle", "128B", "--base-offset", "300", "--json"], 1).json();
    assert!(has(&errors_of(&v), "base_offset", "Table 40"));
    // R4 warning: base offset without swizzling still encodes.
    let r = encode(&["--swizzle", "none", "--base-offset", "1"], 0);
    assert!(
        r.stderr.starts_with("warning: base_offset = 1:"),
        "{}",
        r.stderr
    );
    // R5: absolute mode.
    let v = encode(
        &["--swizzle", "128B", "--lbo-mode", "absolute", "--json"],
        1,
    )
    .json();
    assert!(has(&errors_of(&v), "lbo_mode", "9.7.16.4.1.1"));
    let v = encode(
        &[
            "--swizzle",
            "128B",
            "--lbo-mode",
            "absolute",
            "--target",
            "sm_103a",
            "--json",
        ],
        0,
    )
    .json();
    assert_eq!(v["fields"]["lbo_mode"], "absolute");
    let v = encode(
        &[
            "--swizzle",
            "64B",
            "--lbo-mode",
            "absolute",
            "--target",
            "sm_103a",
            "--json",
        ],
        1,
    )
    .json();
    assert!(has(&errors_of(&v), "swizzle", "R5"));
}

#[test]
fn names_are_checked() {
    encode(&["--swizzle", "16B"], 2);
    encode(&["--swizzle", "128B", "--lbo-mode", "sideways"], 2);
    // Names are case-insensitive.
    encode(&["--swizzle", "128b"], 0);
    encode(&["--swizzle", "128B_BASE32B"], 0);
}

/// Issue 16 D5: a pattern start without swizzling sets nothing: a warning from the library
/// (rules.md R4), and the descriptor is the one without it.
#[test]
fn pattern_start_without_swizzle_warns() {
    let r = encode(&["--swizzle", "none", "--pattern-start", "0x500"], 0);
    assert_eq!(
        r.stderr_lines(),
        [
            "warning: pattern_start_address = 0x500: pattern start 0x500 has no effect without \
          swizzling: there is no pattern, and the base offset stays 0 (rules.md R4)"
        ]
    );
    let with = encode(
        &["--swizzle", "none", "--pattern-start", "0x500", "--json"],
        0,
    )
    .json();
    let without = encode(&["--swizzle", "none", "--json"], 0).json();
    assert_eq!(with["hex"], without["hex"]);
    let r = encode(&["--swizzle", "64B", "--pattern-start", "0x500"], 0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}
