//! `decode zmask`, `encode zmask` and `solve zmask`: the four worked examples of PTX ISA
//! 9.7.16.4.3 (seed 002), every rule of Table 45 and rules.md R19-R22.

use serde_json::Value;

use crate::{errors_of, has, run, warnings_of};

/// The four examples as encode flags, M, their descriptor, and the tail of each sub-mask as
/// the PTX text prints it ("0b … 111 0000 111 0000", most significant first).
struct Example {
    flags: &'static [&'static str],
    m: u16,
    hex: &'static str,
    tails: &'static [&'static str],
}

const EXAMPLES: [Example; 4] = [
    // Example 1: non-zero mask 0, so the mask is 0x0 whatever the spans say.
    Example {
        flags: &[
            "--skip-span",
            "4",
            "--use-span",
            "3",
            "--non-zero-mask",
            "0",
        ],
        m: 128,
        hex: "0x0003040000000000",
        tails: &["0000000000000000"],
    },
    // Example 2: M = 128.
    Example {
        flags: &["--skip-span", "2", "--use-span", "3"],
        m: 128,
        hex: "0x0003028000000000",
        tails: &["11100001110000"],
    },
    // Example 3: M = 64, fs0 = 1.
    Example {
        flags: &["--skip-span", "2", "--use-span", "3", "--first-span", "1,0"],
        m: 64,
        hex: "0x0003028100000000",
        tails: &["11100001110000111", "000011100001110000"],
    },
    // Example 4: M = 32, sc = {0, 1, 2, 1}, fs = {1, 1, 0, 0}, shift 2.
    Example {
        flags: &[
            "--skip-span",
            "2",
            "--use-span",
            "3",
            "--first-span",
            "1,1,0,0",
            "--start-count",
            "0,1,2,1",
            "--column-shift",
            "2",
        ],
        m: 32,
        hex: "0x0203028301020100",
        tails: &[
            "00001110000111",
            "0000111000011",
            "111000011100",
            "1110000111000",
        ],
    },
];

/// Checks masks and zeroed columns of a JSON object against an example for N.
fn check_masks(v: &Value, ex: &Example, n: u16) {
    let masks: Vec<&str> = v["masks"]
        .as_array()
        .expect("masks")
        .iter()
        .map(|m| m.as_str().expect("mask string"))
        .collect();
    assert_eq!(masks.len(), ex.tails.len(), "{v}");
    let width = usize::from(n) / masks.len();
    let mut zeroed = Vec::new();
    for (i, (mask, tail)) in masks.iter().zip(ex.tails).enumerate() {
        assert_eq!(mask.len(), width, "mask{i} is exactly its width: {v}");
        assert!(mask.bytes().all(|b| b == b'0' || b == b'1'));
        assert!(
            mask.ends_with(tail),
            "mask{i} = {mask} should end with {tail}"
        );
        for (j, b) in mask.bytes().rev().enumerate() {
            if b == b'1' {
                zeroed.push(i * width + j);
            }
        }
    }
    let got: Vec<usize> = v["zeroed_columns"]
        .as_array()
        .expect("zeroed_columns")
        .iter()
        .map(|c| usize::try_from(c.as_u64().expect("column")).expect("small"))
        .collect();
    assert_eq!(got, zeroed, "zeroed columns are the 1-bits, sorted: {v}");
}

#[test]
fn ptx_examples_encode_decode_and_solve() {
    for ex in &EXAMPLES {
        let m = ex.m.to_string();
        for n in [64u16, 128, 256] {
            let ns = n.to_string();
            // Encode from the fields.
            let args = [
                &["encode", "zmask"][..],
                ex.flags,
                &["--m", &m, "--n", &ns, "--json"],
            ]
            .concat();
            let r = run(&args);
            r.code(0);
            let v = r.json();
            assert_eq!(v["hex"], ex.hex, "{args:?}");
            check_masks(&v, ex, n);
            // Decode the descriptor.
            let r = run(&["decode", "zmask", ex.hex, "--m", &m, "--n", &ns, "--json"]);
            r.code(0);
            let d = r.json();
            assert_eq!(d["valid"], true);
            assert_eq!(d["fields"], v["fields"]);
            check_masks(&d, ex, n);
            // Solve for the full mask: the solution generates the same masks.
            let full: String = d["masks"]
                .as_array()
                .expect("masks")
                .iter()
                .rev()
                .map(|m| m.as_str().expect("mask"))
                .collect();
            let r = run(&[
                "solve", "zmask", "--m", &m, "--n", &ns, "--mask", &full, "--json",
            ]);
            r.code(0);
            let s = r.json();
            assert_eq!(s["masks"], d["masks"], "solve {full}");
            assert_eq!(s["zeroed_columns"], d["zeroed_columns"]);
        }
    }
}

#[test]
fn example_fields_and_shift() {
    let v = run(&["decode", "zmask", EXAMPLES[3].hex, "--json"])
        .code(0)
        .json();
    assert_eq!(
        v["fields"],
        serde_json::json!({
            "start_count": [0, 1, 2, 1], "first_span": [1, 1, 0, 0], "non_zero_mask": 1,
            "skip_span": 2, "use_span": 3, "column_shift": 2
        })
    );
    assert!(v.get("masks").is_none(), "masks only with --m/--n");
    // "If N = 128 then B Matrix with columns from 2 to 129 will be used".
    let r = run(&[
        "decode",
        "zmask",
        EXAMPLES[3].hex,
        "--m",
        "32",
        "--n",
        "128",
    ]);
    r.code(0);
    assert!(
        r.stdout.contains("the MMA reads B columns 2..129"),
        "{}",
        r.stdout
    );
    // Example 1: no column zeroed.
    let r = run(&[
        "decode",
        "zmask",
        EXAMPLES[0].hex,
        "--m",
        "128",
        "--n",
        "128",
    ]);
    assert!(
        r.stdout.contains("zeroed columns (0): none"),
        "{}",
        r.stdout
    );
}

fn decode(hex: &str, extra: &[&str], code: i32) -> Value {
    let r = run(&[&["decode", "zmask", hex, "--json"][..], extra].concat());
    r.code(code);
    r.json()
}

#[test]
fn decode_rules() {
    let base: u64 = 0x0003_0280_0000_0000;
    let hex = |v: u64| format!("{v:#018x}");
    for bit in [36, 37, 38] {
        let v = decode(&hex(base | 1 << bit), &[], 1);
        assert!(
            has(&errors_of(&v), &format!("bit {bit}"), "Table 45"),
            "{v}"
        );
    }
    for bit in [62, 63] {
        let v = decode(&hex(base | 1 << bit), &[], 1);
        assert!(has(&errors_of(&v), &format!("bit {bit}"), "R22"), "{v}");
    }
    // Column shift: at most 32 (16 for M = 32), and at most the maximum shift (R22).
    let shift = |s: u64| hex(base | s << 56);
    let v = decode(&shift(33), &[], 1);
    assert!(has(&errors_of(&v), "column_shift", "Table 45"));
    decode(&shift(32), &["--m", "128", "--n", "128"], 0);
    let v = decode(&shift(17), &["--m", "32", "--n", "128"], 1);
    assert!(has(&errors_of(&v), "column_shift", "Table 45"));
    let v = decode(&shift(9), &["--max-shift", "8"], 1);
    assert!(has(&errors_of(&v), "column_shift", "R22"), "{v}");
    let v = decode(
        &shift(9),
        &["--max-shift", "8", "--m", "64", "--n", "64"],
        1,
    );
    assert!(has(&errors_of(&v), "column_shift", "R22"), "{v}");
    decode(&shift(8), &["--max-shift", "8"], 0);
    // M and N of a .ws MMA.
    let v = decode(&hex(base), &["--m", "256", "--n", "128"], 1);
    assert!(has(&errors_of(&v), "m", "Table 45"));
    assert_eq!(v["masks"], Value::Null);
    let v = decode(&hex(base), &["--m", "128", "--n", "32"], 1);
    assert!(has(&errors_of(&v), "n", "R16"));
    assert!(v["masks"].is_array(), "masks still shown for small N: {v}");
    // Warnings: start count past the first run (R20), unused sub-mask fields (Table 45).
    let v = decode(&hex(base | 5), &["--m", "128", "--n", "64"], 0);
    assert!(has(&warnings_of(&v), "start_count_0", "R20"), "{v}");
    let v = decode(
        &hex(base | 1 << 8 | 1 << 33),
        &["--m", "128", "--n", "64"],
        0,
    );
    assert!(has(&warnings_of(&v), "start_count_1", "Table 45"), "{v}");
    assert!(has(&warnings_of(&v), "first_span_1", "Table 45"), "{v}");
}

#[test]
fn encode_rules() {
    let enc = |extra: &[&str], code: i32| {
        let r = run(&[
            &[
                "encode",
                "zmask",
                "--skip-span",
                "2",
                "--use-span",
                "3",
                "--json",
            ][..],
            extra,
        ]
        .concat());
        r.code(code);
        r.json()
    };
    let v = enc(&["--column-shift", "40"], 1);
    assert_eq!(v["hex"], Value::Null);
    assert!(has(&errors_of(&v), "column_shift", "Table 45"));
    let v = enc(&["--column-shift", "300"], 1);
    assert!(has(&errors_of(&v), "column_shift", "Table 45"));
    let v = enc(&["--column-shift", "16", "--max-shift", "8"], 1);
    assert!(has(&errors_of(&v), "column_shift", "R22"));
    let v = enc(&["--first-span", "0,2"], 1);
    assert!(has(&errors_of(&v), "first_span_1", "Table 45"), "{v}");
    let v = enc(&["--start-count", "0,0,256"], 1);
    assert!(has(&errors_of(&v), "start_count_2", "Table 45"), "{v}");
    let v = enc(&["--m", "48", "--n", "64"], 1);
    assert!(has(&errors_of(&v), "m", "Table 45"));
    let r = run(&["encode", "zmask", "--skip-span", "256", "--use-span", "3"]);
    r.code(1);
    assert!(
        r.stderr.starts_with("error: skip_span = 256:"),
        "{}",
        r.stderr
    );
    // Usage errors.
    run(&[
        "encode",
        "zmask",
        "--skip-span",
        "2",
        "--use-span",
        "3",
        "--start-count",
        "1,2,3,4,5",
    ])
    .code(2);
    run(&[
        "encode",
        "zmask",
        "--skip-span",
        "2",
        "--use-span",
        "3",
        "--non-zero-mask",
        "2",
    ])
    .code(2);
    run(&[
        "encode",
        "zmask",
        "--skip-span",
        "2",
        "--use-span",
        "3",
        "--m",
        "32",
    ])
    .code(2);
    run(&["encode", "zmask", "--skip-span", "2"]).code(2);
}

#[test]
fn solve_failures() {
    // Two runs of zeroed columns of different lengths: no descriptor (R19-R21).
    let r = run(&[
        "solve",
        "zmask",
        "--m",
        "128",
        "--n",
        "64",
        "--mask",
        &format!("{:0>64}", "0011000111000111"),
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["hex"], Value::Null);
    assert!(!errors_of(&v).is_empty());
    assert!(
        r.stderr.contains("no zero-column mask generates this"),
        "{}",
        r.stderr
    );
    // Wrong width: exit 1 naming n.
    let r = run(&[
        "solve", "zmask", "--m", "128", "--n", "64", "--mask", "0111",
    ]);
    r.code(1);
    assert!(r.stderr.starts_with("error: n = 4:"), "{}", r.stderr);
    // Not a mask: usage error.
    run(&[
        "solve", "zmask", "--m", "128", "--n", "8", "--mask", "01x10000",
    ])
    .code(2);
    run(&["solve", "zmask", "--m", "128", "--n", "8", "--mask", ""]).code(2);
    // Bad M.
    let r = run(&[
        "solve", "zmask", "--m", "16", "--n", "8", "--mask", "01110000",
    ]);
    r.code(1);
    assert!(r.stderr.starts_with("error: m = 16:"));
    // Column shift against the maximum shift.
    let r = run(&[
        "solve",
        "zmask",
        "--m",
        "128",
        "--n",
        "8",
        "--mask",
        "01110000",
        "--column-shift",
        "9",
        "--max-shift",
        "8",
    ]);
    r.code(1);
    // Human output of a success shows the mask and the columns.
    let r = run(&[
        "solve",
        "zmask",
        "--m",
        "128",
        "--n",
        "64",
        "--mask",
        &format!("{:0>64}", "111"),
    ]);
    r.code(0);
    assert!(r.stdout.contains("zeroed columns (3): 0-2"), "{}", r.stdout);
}
