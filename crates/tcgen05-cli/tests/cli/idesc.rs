//! `decode idesc` and `encode idesc`: CUTLASS values (spec/oracles.md §2), kinds, Table 39, and
//! every rule of Tables 42-44 (rules.md R8-R17).

use serde_json::Value;

use crate::{errors_of, has, run, run_stdin, warnings_of};

/// CUTLASS 4.2.0 instruction descriptors (oracles.md §2): hex, kind, the encode flags that
/// build it, and fields to check in the decode.
const CUTLASS: [(&str, &str, &[&str]); 6] = [
    (
        "0x08100490",
        "f16",
        &[
            "--m", "128", "--n", "64", "--d-type", "f32", "--a-type", "bf16", "--b-type", "bf16",
        ],
    ),
    (
        "0x04020000",
        "f16",
        &[
            "--m", "64", "--n", "8", "--d-type", "f16", "--a-type", "f16", "--b-type", "f16",
        ],
    ),
    (
        "0x084004a8",
        "i8",
        &[
            "--m",
            "128",
            "--n",
            "256",
            "--d-type",
            "s32",
            "--a-type",
            "s8",
            "--b-type",
            "s8",
            "--saturate",
        ],
    ),
    (
        "0xc4200490",
        "f16",
        &[
            "--m",
            "64",
            "--n",
            "128",
            "--d-type",
            "f32",
            "--a-type",
            "bf16",
            "--b-type",
            "bf16",
            "--max-shift",
            "32",
            "--ws",
        ],
    ),
    (
        "0x08a00480",
        "mxf4",
        &[
            "--m", "128", "--n", "128", "--a-type", "e2m1", "--b-type", "e2m1",
        ],
    ),
    (
        "0x08400480",
        "mxf4nvf4",
        &[
            "--m",
            "128",
            "--n",
            "256",
            "--a-type",
            "e2m1",
            "--b-type",
            "e2m1",
            "--scale-type",
            "ue4m3",
        ],
    ),
];

/// The value of flag `name` in `args`.
fn flag<'a>(args: &[&'a str], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| *a == name)
        .and_then(|i| args.get(i + 1).copied())
}

fn check_fields(v: &Value, kind: &str, args: &[&str]) {
    let f = &v["fields"];
    assert_eq!(f["m"].to_string(), flag(args, "--m").expect("m"), "{v}");
    assert_eq!(f["n"].to_string(), flag(args, "--n").expect("n"), "{v}");
    assert_eq!(f["a_type"], flag(args, "--a-type").expect("a"));
    assert_eq!(f["b_type"], flag(args, "--b-type").expect("b"));
    assert_eq!(f["d_type"], flag(args, "--d-type").unwrap_or("f32"));
    assert_eq!(f["saturate"], args.contains(&"--saturate"));
    assert_eq!(
        f["max_shift"].to_string(),
        flag(args, "--max-shift").unwrap_or("0")
    );
    let block_scaled = kind.starts_with("mx");
    for key in ["scale_type", "sfa_id", "sfb_id"] {
        assert_eq!(f.get(key).is_some(), block_scaled, "{key} in {v}");
    }
    assert_eq!(f.get("k").is_some(), kind.starts_with("mxf4"), "k in {v}");
    if block_scaled {
        assert_eq!(
            f["scale_type"],
            flag(args, "--scale-type").unwrap_or("ue8m0")
        );
    }
    for key in [
        "sparsity_selector",
        "sparse",
        "saturate",
        "d_type",
        "a_type",
        "b_type",
        "negate_a",
        "negate_b",
        "transpose_a",
        "transpose_b",
        "m",
        "n",
        "max_shift",
    ] {
        assert!(f.get(key).is_some(), "{key} missing in {v}");
    }
}

#[test]
fn cutlass_values_decode_under_their_kind() {
    for (hex, kind, args) in CUTLASS {
        let r = run(&["decode", "idesc", hex, "--kind", kind, "--json"]);
        r.code(0);
        let v = r.json();
        assert_eq!(v["hex"], hex);
        assert_eq!(v["kind"], kind);
        assert_eq!(v["valid"], true);
        check_fields(&v, kind, args);
        assert!(errors_of(&v).is_empty());
    }
}

#[test]
fn cutlass_values_decode_without_kind() {
    for (hex, kind, args) in CUTLASS {
        let r = run(&["decode", "idesc", hex, "--json"]);
        r.code(0);
        let v = r.json();
        assert_eq!(v["hex"], hex);
        assert_eq!(v.as_object().map(|o| o.len()), Some(2));
        let kinds = v["kinds"].as_array().expect("kinds");
        let mine = kinds
            .iter()
            .find(|k| k["kind"] == kind)
            .unwrap_or_else(|| panic!("{kind} not among the kinds of {hex}: {v}"));
        check_fields(mine, kind, args);
        // Only valid kinds are listed.
        assert!(kinds.iter().all(|k| k["valid"] == true));
        let h = run(&["decode", "idesc", hex]);
        h.code(0);
        assert!(
            h.stdout.contains(&format!("as .kind::{kind} ")),
            "{}",
            h.stdout
        );
    }
}

#[test]
fn cutlass_values_encode_from_fields() {
    for (hex, kind, args) in CUTLASS {
        let all = [&["encode", "idesc", "--kind", kind][..], args, &["--json"]].concat();
        let r = run(&all);
        r.code(0);
        let v = r.json();
        assert_eq!(v["hex"], hex, "{all:?}");
        assert_eq!(v.as_object().map(|o| o.len()), Some(2));
        check_fields(&v, kind, args);
        let h = run(&all[..all.len() - 1]);
        h.code(0);
        assert!(h.stdout.contains(hex));
    }
}

#[test]
fn k_flag() {
    let base = [
        "encode",
        "idesc",
        "--kind",
        "mxf4",
        "--m",
        "256",
        "--n",
        "256",
        "--a-type",
        "e2m1",
        "--b-type",
        "e2m1",
        "--cta-group",
        "2",
        "--json",
    ];
    // K = 96: Table 44 bit 31, sm_103a only (R15).
    let v = run(&[&base[..], &["--k", "96", "--target", "sm_103a"]].concat())
        .code(0)
        .json();
    assert_eq!(v["fields"]["k"], 96);
    assert_eq!(v["hex"], "0x90c00480");
    let v = run(&[&base[..], &["--k", "96"]].concat()).code(1).json();
    assert!(has(&errors_of(&v), "target", "9.7.16.2.1.1"), "{v}");
    // Any other K must be the implied one.
    let v = run(&[&base[..], &["--k", "64"]].concat()).code(0).json();
    assert_eq!(v["fields"]["k"], 64);
    let v = run(&[&base[..], &["--k", "128"]].concat()).code(1).json();
    assert!(has(&errors_of(&v), "k", "R15"));
    let v = run(&[&base[..], &["--k", "128", "--sparse"]].concat())
        .code(0)
        .json();
    assert_eq!(v["fields"]["k"], 128);
}

/// Encodes with `flags` and returns the failure object (exit status 1).
fn encode_fails(flags: &[&str]) -> Value {
    let r = run(&[&["encode", "idesc"][..], flags, &["--json"]].concat());
    r.code(1);
    let v = r.json();
    assert_eq!(v["hex"], Value::Null);
    assert_eq!(v["valid"], false);
    assert!(!r.stderr_lines().is_empty());
    v
}

const F16: [&str; 12] = [
    "--kind", "f16", "--m", "128", "--n", "64", "--d-type", "f32", "--a-type", "bf16", "--b-type",
    "bf16",
];

#[test]
fn encode_rules() {
    let with = |extra: &[&str]| encode_fails(&[&F16[..], extra].concat());
    // R11.
    assert!(has(&errors_of(&with(&["--saturate"])), "saturate", "R11"));
    assert!(has(
        &errors_of(&with(&["--max-shift", "8"])),
        "max_shift",
        "R11"
    ));
    assert!(has(
        &errors_of(&with(&["--sparsity-selector", "1"])),
        "sparsity_selector",
        "R11"
    ));
    // R12: an f16 accumulator needs f16 inputs.
    assert!(has(
        &errors_of(&with(&["--d-type", "f16"])),
        "a_type",
        "R12"
    ));
    // R13 only for block-scaled kinds; a scale type on f16 is wrong (R12).
    assert!(has(
        &errors_of(&with(&["--scale-type", "ue8m0"])),
        "scale_type",
        "R12"
    ));
    // Table 39: M, N for the CTA group, .ws (R16), targets (R17).
    assert!(has(&errors_of(&with(&["--m", "48"])), "m", "Table 39"));
    assert!(has(&errors_of(&with(&["--n", "7"])), "n", "Table 42"));
    assert!(has(&errors_of(&with(&["--n", "264"])), "n", "Table 39"));
    assert!(has(
        &errors_of(&with(&["--cta-group", "2", "--m", "64"])),
        "m",
        "Table 39"
    ));
    assert!(has(
        &errors_of(&with(&["--cta-group", "2", "--m", "256", "--n", "24"])),
        "n",
        "R14"
    ));
    assert!(has(
        &errors_of(&with(&["--ws", "--m", "256"])),
        "m",
        "Table 39"
    ));
    assert!(has(&errors_of(&with(&["--m", "70000"])), "m", "Table 39"));
    // .ws is cta_group::1 only.
    assert!(has(
        &errors_of(&with(&["--ws", "--cta-group", "2"])),
        "ws",
        "R16"
    ));
    // Mixing f16 with bf16: a warning only (R12).
    let r = run(&[
        &["encode", "idesc"][..],
        &F16[..],
        &["--a-type", "f16", "--json"],
    ]
    .concat());
    r.code(0);
    // (After the warning that --a-type is given twice.)
    assert!(r.stderr.contains("\nwarning: b_type"), "{}", r.stderr);

    let i8 = [
        "--kind", "i8", "--m", "128", "--n", "64", "--d-type", "s32", "--a-type", "s8", "--b-type",
        "u8",
    ];
    let w = |extra: &[&str]| encode_fails(&[&i8[..], extra].concat());
    assert!(has(&errors_of(&w(&["--negate-a"])), "negate_a", "R11"));
    assert!(has(
        &errors_of(&w(&["--target", "sm_100f"])),
        "target",
        "R17"
    ));
    assert!(has(&errors_of(&w(&["--n", "40"])), "n", "R14"));
    // N = 24 is valid for i8 cta_group::1 (Table 39 over CUTLASS, R14).
    run(&[&["encode", "idesc"][..], &i8[..], &["--n", "24"]].concat()).code(0);

    let f8 = [
        "--kind", "f8f6f4", "--m", "128", "--n", "64", "--d-type", "f32", "--a-type", "e2m1",
        "--b-type", "e4m3",
    ];
    let v = encode_fails(&[&f8[..], &["--transpose-a"]].concat());
    assert!(has(&errors_of(&v), "transpose_a", "R11"));
    let v = encode_fails(&[&f8[..], &["--sparse", "--sparsity-selector", "2"]].concat());
    assert!(has(&errors_of(&v), "sparsity_selector", "R11"));
    let v = encode_fails(&[&f8[..], &["--a-type", "bf16"]].concat());
    assert!(has(&errors_of(&v), "a_type", "R12"));

    let mx = [
        "--kind", "mxf4nvf4", "--m", "128", "--n", "64", "--a-type", "e2m1", "--b-type", "e2m1",
    ];
    let v = encode_fails(&[&mx[..], &["--sfa-id", "1"]].concat());
    assert!(has(&errors_of(&v), "sfa_id", "R13"));
    let v = encode_fails(&[&mx[..], &["--scale-type", "ue4m3", "--sfb-id", "2"]].concat());
    assert!(has(&errors_of(&v), "sfb_id", "R13"));
    let v = encode_fails(&[&mx[..], &["--sfa-id", "9"]].concat());
    assert!(has(&errors_of(&v), "sfa_id", "Table 42") || has(&errors_of(&v), "sfa_id", "R13"));
    let v = encode_fails(&[&mx[..], &["--transpose-b"]].concat());
    assert!(has(&errors_of(&v), "transpose_b", "R11"));
    let v = encode_fails(&[&mx[..], &["--sparse", "--target", "sm_100f"]].concat());
    assert!(has(&errors_of(&v), "target", "R17"));
    let v = encode_fails(&[&mx[..], &["--ws"]].concat());
    assert!(has(&errors_of(&v), "ws", "R16"));
    let v = encode_fails(&[&mx[..], &["--k", "96", "--sparse", "--target", "sm_103a"]].concat());
    assert!(has(&errors_of(&v), "k", "Table 44"), "{v}");
    let mx8 = [
        "--kind", "mxf8f6f4", "--m", "128", "--n", "64", "--a-type", "e4m3", "--b-type", "e4m3",
    ];
    let v = encode_fails(&[&mx8[..], &["--scale-type", "ue4m3"]].concat());
    assert!(has(&errors_of(&v), "scale_type", "R12"));
    run(&[&["encode", "idesc"][..], &mx8[..], &["--sfa-id", "3"]].concat()).code(0);
}

#[test]
fn missing_d_type_is_a_usage_error() {
    let r = run(&[
        "encode", "idesc", "--kind", "f16", "--m", "128", "--n", "64", "--a-type", "f16",
        "--b-type", "f16",
    ]);
    r.code(2);
    assert!(r.stderr.starts_with("error: --d-type is required"));
}

/// Decodes `hex` under `kind` with `extra` flags and returns the object.
fn decode(hex: &str, kind: &str, extra: &[&str], code: i32) -> Value {
    let r = run(&[
        &["decode", "idesc", hex, "--kind", kind, "--json"][..],
        extra,
    ]
    .concat());
    r.code(code);
    r.json()
}

#[test]
fn decode_rules() {
    let good: u32 = 0x0810_0490;
    let hex = |v: u32| format!("{v:#010x}");
    // R10: reserved bits of Table 42, by position.
    for bit in [6, 23, 29] {
        let v = decode(&hex(good | 1 << bit), "f16", &[], 1);
        assert!(has(&errors_of(&v), &format!("bit {bit}"), "R10"), "{v}");
    }
    // Reserved bits of Table 43 / 44 under the block-scaled kinds.
    let v = decode("0x08a00481", "mxf4", &[], 1);
    assert!(has(&errors_of(&v), "bit 0", "R10"));
    let v = decode("0x08a01480", "mxf4", &[], 1);
    assert!(has(&errors_of(&v), "bit 12", "R10"));
    let v = decode("0x88a00480", "mxf8f6f4", &[], 1);
    assert!(has(&errors_of(&v), "bit 31", "R10"));
    // A type code that names no type under the kind: the field keeps the code (Table 42).
    let v = decode(&hex(good), "tf32", &[], 1);
    assert!(has(&errors_of(&v), "a_type", "Table 42"), "{v}");
    assert_eq!(v["fields"]["a_type"], 1);
    assert_eq!(v["fields"]["d_type"], "f32");
    let v = decode(&hex(good), "i8", &[], 1);
    assert!(has(&errors_of(&v), "d_type", "Table 42"));
    assert_eq!(v["fields"]["d_type"], 1);
    // M not of Table 39 and N = 0.
    let v = decode("0x03100490", "f16", &[], 1);
    assert!(has(&errors_of(&v), "m", "Table 39"), "{v}");
    let v = decode("0x08000490", "f16", &[], 1);
    assert!(has(&errors_of(&v), "n", "Table 39"), "{v}");
    // Sparsity selector without sparsity (R11).
    let v = decode(&hex(good | 1), "f16", &[], 1);
    assert!(has(&errors_of(&v), "sparsity_selector", "R11"));
}

#[test]
fn decode_with_mma_checks_table_39() {
    // M = 128 with cta_group::1 is fine; with ::2 N = 64 is fine too, M = 128 allowed.
    decode("0x08100490", "f16", &["--cta-group", "1"], 0);
    let v = decode("0x04020000", "f16", &["--cta-group", "2"], 1);
    assert!(has(&errors_of(&v), "m", "Table 39"), "{v}");
    // max shift without .ws (R11), fine with .ws.
    let v = decode("0xc4200490", "f16", &["--target", "sm_100a"], 1);
    assert!(has(&errors_of(&v), "max_shift", "R11"), "{v}");
    decode("0xc4200490", "f16", &["--ws"], 0);
    // Without MMA flags only the descriptor's own rules apply.
    decode("0xc4200490", "f16", &[], 0);
    // i8 is not on sm_103a (R17).
    let v = decode("0x084004a8", "i8", &["--target", "sm_103a"], 1);
    assert!(has(&errors_of(&v), "target", "R17"));
    // Without --kind the MMA flags narrow the kinds.
    let r = run(&[
        "decode",
        "idesc",
        "0x04020000",
        "--cta-group",
        "2",
        "--json",
    ]);
    r.code(1);
    assert_eq!(r.json()["kinds"], serde_json::json!([]));
    // Consumer Blackwell: the R17 message, exit status 1.
    let r = run(&["decode", "idesc", "0x08100490", "--target", "sm_120a"]);
    r.code(1);
    assert!(r
        .stderr
        .starts_with("error: target: no tcgen05 on consumer Blackwell"));
}

#[test]
fn no_valid_kind() {
    let r = run(&["decode", "idesc", "0xffffffff", "--json"]);
    r.code(1);
    assert_eq!(
        r.json(),
        serde_json::json!({
            "hex": "0xffffffff",
            "kinds": [],
            "valid": false,
            "errors": [{
                "field": "kind",
                "message": "0xffffffff is not a valid instruction descriptor under any kind \
                            (f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4)",
                "source": "rules.md R8"
            }],
            "warnings": []
        })
    );
    let lines = r.stderr_lines();
    assert!(lines[0].starts_with("error: kind: 0xffffffff is not a valid instruction descriptor"));
    assert_eq!(lines.len(), 8, "{}", r.stderr);
    let h = run(&["decode", "idesc", "0xffffffff"]);
    h.code(1);
    assert!(h
        .stdout
        .contains("not a valid instruction descriptor under any kind"));
}

#[test]
fn warnings_do_not_fail() {
    // f16 x bf16 -> f32: valid with a warning (R12).
    let v = decode("0x08100410", "f16", &[], 0);
    assert!(has(&warnings_of(&v), "b_type", "R12"), "{v}");
    assert_eq!(v["fields"]["a_type"], "f16");
}

/// Issue 16 D3: a number too wide for its field is one error naming the value as typed; the 0
/// that stands in for it while the fields are built gives no second, false error.
#[test]
fn too_wide_m_or_n_is_one_error_with_the_value_typed() {
    for (flag, value) in [("--n", "65536"), ("--m", "65536"), ("--n", "4294967296")] {
        let mut flags = F16.to_vec();
        let at = flags.iter().position(|f| *f == flag).expect("flag") + 1;
        flags[at] = value;
        let v = encode_fails(&flags);
        let field = &flag[2..];
        assert_eq!(
            errors_of(&v),
            [(field.to_string(), "PTX ISA 9.7.16.2.1 Table 39".into())]
        );
        assert!(
            v["errors"][0]["message"]
                .as_str()
                .is_some_and(|m| m.contains(value)),
            "{v}"
        );
        assert_eq!(
            v["fields"][field].to_string(),
            value,
            "fields as typed: {v}"
        );
        let r = run(&[&["encode", "idesc"][..], &flags].concat());
        r.code(1);
        assert_eq!(r.stderr_lines().len(), 1, "{}", r.stderr);
        assert!(
            r.stderr.contains(&format!("{field} = {value}")),
            "{}",
            r.stderr
        );
    }
}

/// Issue 16 D3: an undefined type code does not hide the other problems of the value.
#[test]
fn decode_reports_m_and_n_next_to_an_undefined_type_code() {
    // d_type code 3 (undefined for f16), M = 0, N = 0.
    let v = decode("0x00000030", "f16", &[], 1);
    let fields: Vec<String> = errors_of(&v).into_iter().map(|(f, _)| f).collect();
    assert_eq!(fields, ["d_type", "n", "m"], "{v}");
    assert_eq!(v["fields"]["d_type"], 3);
}

/// `decode idesc --target` reads the scale-format bits per target (rules.md D9): Triton 3.9.0's
/// nvfp4 word with uint8 scales (bits 23-24 = 2, issue 27) is UE5M3 on sm_107a / sm_107f and a
/// reserved bit 24 on sm_100a, whose message says what the bits mean on sm_107.
#[test]
fn decode_idesc_scale_format_per_target() {
    for t in ["sm_107a", "sm_107f"] {
        let r = run(&[
            "decode",
            "idesc",
            "0x09200480",
            "--kind",
            "mxf4nvf4",
            "--target",
            t,
            "--json",
        ]);
        let v = r.code(0).json();
        assert_eq!(v["valid"], true, "{v}");
        assert_eq!(v["scale_format"], "ue5m3", "{v}");
        assert!(errors_of(&v).is_empty(), "{v}");
        // Without --kind, the kinds listed are read on the target too.
        let r = run(&["decode", "idesc", "0x09200480", "--target", t]);
        assert!(
            r.code(0).stdout.contains("UE5M3 on ") && r.stdout.contains("under 1 kind"),
            "{}",
            r.stdout
        );
    }
    let r = run(&[
        "decode",
        "idesc",
        "0x09200480",
        "--kind",
        "mxf4nvf4",
        "--target",
        "sm_100a",
        "--json",
    ]);
    let v = r.code(1).json();
    assert_eq!(v["valid"], false, "{v}");
    assert!(v.get("scale_format").is_none(), "{v}");
    let msg = v["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(
        has(&errors_of(&v), "bit 24", "rules.md R10")
            && msg.contains("sm_107")
            && msg.contains("UE5M3"),
        "{v}"
    );
    // Code 1 (UE8M0) is the same on both targets.
    for t in ["sm_100a", "sm_107a"] {
        let r = run(&[
            "decode",
            "idesc",
            "0x08a00480",
            "--kind",
            "mxf4nvf4",
            "--target",
            t,
            "--json",
        ]);
        assert_eq!(r.code(0).json()["fields"]["scale_type"], "ue8m0");
    }
}

/// On sm_107a / sm_107f bits 23-24 are one row of the table, with the format the target reads
/// (rules.md D9): Triton 3.9.0's nvfp4 word 0x09200480 is `.ue5m3` there, in the summary too,
/// and bits 25-26 are the reserved row; code 3 (0x09a00480) is one error naming the field, the
/// code and the target, not reserved bit 24 (rules.md D9, D10). sm_100a keeps Table 44's rows.
#[test]
fn decode_idesc_two_bit_scale_format_row() {
    let r = run(&[
        "decode",
        "idesc",
        "0x09200480",
        "--kind",
        "mxf4nvf4",
        "--target",
        "sm_107a",
    ]);
    let out = &r.code(0).stdout;
    let row = |bits: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(bits))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
    };
    assert_eq!(
        row("23-24"),
        Some(vec!["23-24", "scale_format", "10", ".ue5m3"]),
        "{out}"
    );
    assert_eq!(
        row("25-26"),
        Some(vec!["25-26", "reserved", "00", "reserved,", "0"]),
        "{out}"
    );
    assert!(row("23").is_none() && row("24-26").is_none(), "{out}");
    assert!(
        out.contains("scales .ue5m3") && !out.contains(".ue4m3"),
        "{out}"
    );
    let r = run(&[
        "decode",
        "idesc",
        "0x09200480",
        "--kind",
        "mxf4nvf4",
        "--target",
        "sm_100a",
    ]);
    assert!(
        r.code(1).stdout.contains("  23     scale_type"),
        "{}",
        r.stdout
    );
    for t in ["sm_107a", "sm_107f"] {
        let v = decode("0x09a00480", "mxf4nvf4", &["--target", t], 1);
        let errors = errors_of(&v);
        assert_eq!(errors.len(), 1, "{v}");
        let msg = v["errors"][0]["message"].as_str().unwrap_or_default();
        assert!(
            errors[0].0 == "scale_format"
                && msg.contains("code 3 is reserved on ")
                && msg.contains(t)
                && !msg.contains("bit 24 is reserved"),
            "{v}"
        );
        let r = run(&[
            "decode",
            "idesc",
            "0x09a00480",
            "--kind",
            "mxf4nvf4",
            "--target",
            t,
        ]);
        assert!(
            r.code(1)
                .stdout
                .contains("! 23-24  scale_format  11      code 3: reserved"),
            "{}",
            r.stdout
        );
    }
}

/// K = 96 scale-factor IDs (rules.md D10): CUTLASS's sm_103 mainloop word with SFA_ID 3 and
/// SFB_ID 1 (M = 256, N = 128, E2M1, UE8M0, K bit; Table 44 positions) is valid on sm_103a and
/// sm_107a with `.cta_group::2`, refused on sm_100a for K = 96 alone; without the K bit the IDs
/// are refused by Table 44's "0 or 2".
#[test]
fn decode_idesc_k96_ids_1_and_3() {
    let w: u32 = 1 << 4 | 1 << 7 | 1 << 10 | 16 << 17 | 1 << 23 | 2 << 27 | 3 << 29 | 1 << 31;
    let hex = format!("{w:#010x}");
    for t in ["sm_103a", "sm_107a"] {
        let v = decode(&hex, "mxf4nvf4", &["--target", t, "--cta-group", "2"], 0);
        assert_eq!(v["fields"]["sfa_id"], 3, "{v}");
        assert_eq!(v["fields"]["sfb_id"], 1, "{v}");
        assert!(errors_of(&v).is_empty(), "{v}");
    }
    let v = decode(
        &hex,
        "mxf4nvf4",
        &["--target", "sm_100a", "--cta-group", "2"],
        1,
    );
    let fields: Vec<String> = errors_of(&v).into_iter().map(|(f, _)| f).collect();
    assert_eq!(fields, ["target"], "{v}");
    let v = decode(&format!("{:#010x}", w & !(1 << 31)), "mxf4", &[], 1);
    let fields: Vec<String> = errors_of(&v).into_iter().map(|(f, _)| f).collect();
    assert_eq!(fields, ["sfa_id", "sfb_id"], "{v}");
}

/// `check --verbose` shows the same per-target row on sm_107a (rules.md D9): Triton 3.9.0's
/// nvfp4 word 0x09200480 is `23-24 scale_format 10 .ue5m3`, without Tables 43-44's bit-24
/// error line; on sm_100a the table is Table 44's and the error stays.
#[test]
fn check_verbose_two_bit_scale_format_row() {
    let ptx = |target: &str| {
        format!(
            ".version 9.4\n.target {target}\n.address_size 64\n.visible .entry k()\n{{\n\
             .reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\nmov.b32 %r3, 0x09200480;\n\
             tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 [%r1], %rd1, %rd2, %r3, \
             [%r4], [%r5], %p1;\nret;\n}}\n"
        )
    };
    let r = run_stdin(&["check", "--verbose", "-"], ptx("sm_107a").as_bytes());
    let out = &r.code(0).stdout;
    let row = |bits: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(bits))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
    };
    assert_eq!(
        row("23-24"),
        Some(vec!["23-24", "scale_format", "10", ".ue5m3"]),
        "{out}"
    );
    assert_eq!(row("24-26"), None, "{out}");
    assert!(!out.contains("bit 24 is reserved"), "{out}");
    let r = run_stdin(&["check", "--verbose", "-"], ptx("sm_100a").as_bytes());
    let out = &r.code(1).stdout;
    assert!(out.contains("scale_type") && out.contains("24-26"), "{out}");
}
