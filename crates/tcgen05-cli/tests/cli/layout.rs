//! `layout desc`, `layout addr`, `layout tma`: CUTLASS descriptors from intent
//! (spec/oracles.md §2), the address map and its inverse, overlaps, buffers, TMA agreement,
//! every rule, and the SVG drawing.

use serde_json::Value;

use crate::run;

fn descs(args: &[&str]) -> Vec<(u64, String)> {
    let r = run(&[&["layout", "desc", "--json"][..], args].concat());
    r.code(0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let v = r.json();
    assert_eq!(v.as_object().map(|o| o.len()), Some(1), "{v}");
    v["descriptors"]
        .as_array()
        .expect("descriptors")
        .iter()
        .map(|d| {
            assert_eq!(d.as_object().map(|o| o.len()), Some(2), "{d}");
            (
                d["k_block"].as_u64().expect("k_block"),
                d["hex"].as_str().expect("hex").to_string(),
            )
        })
        .collect()
}

/// CUTLASS 4.2.0's descriptors (oracles.md §2) from the intent that produced them.
#[test]
fn desc_gives_cutlass_descriptors() {
    let k128 = descs(&[
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "64",
        "--start-address",
        "0x400",
    ]);
    assert_eq!(
        k128,
        [
            (0, "0x4000404000010040".to_string()),
            (1, "0x4000404000010042".to_string()),
            (2, "0x4000404000010044".to_string()),
            (3, "0x4000404000010046".to_string())
        ]
    );
    let none = descs(&[
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "none",
        "--mn",
        "128",
        "--k",
        "16",
        "--start-address",
        "0x400",
    ]);
    assert_eq!(none, [(0, "0x0000400800800040".to_string())]);
    let mn = descs(&[
        "--type",
        "bf16",
        "--major",
        "mn",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "64",
        "--start-address",
        "0x400",
        "--operand",
        "b",
    ]);
    let hex: Vec<&str> = mn.iter().map(|d| d.1.as_str()).collect();
    assert_eq!(
        hex,
        [
            "0x4000408000400040",
            "0x4000408000400140",
            "0x4000408000400240",
            "0x4000408000400340"
        ]
    );
    let tf32 = descs(&[
        "--type",
        "tf32",
        "--major",
        "mn",
        "--swizzle",
        "128B_base32B",
        "--mn",
        "256",
        "--k",
        "8",
        "--start-address",
        "0x400",
    ]);
    assert_eq!(tf32, [(0, "0x2000410000200040".to_string())]);
}

#[test]
fn desc_text_and_order() {
    let r = run(&[
        "layout",
        "desc",
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "64",
        "--start-address",
        "0x400",
    ]);
    r.code(0);
    assert!(r.stdout.contains("0x4000404000010046"), "{}", r.stdout);
    assert!(r.stdout.contains("4 K-blocks of K = 16"), "{}", r.stdout);
    // K-first atoms: the MN stride (SBO) spans all K atoms: 2 atoms of 1024 bytes.
    let kf = descs(&[
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "128",
        "--start-address",
        "0x400",
        "--order",
        "k_first",
    ]);
    let d = run(&["decode", "smem", &kf[0].1, "--json"]).json();
    assert_eq!(d["fields"]["stride_byte_offset"], 2048);
    // Start off the 1024-byte boundary: base offset from R4.
    let off = descs(&[
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "8",
        "--k",
        "64",
        "--start-address",
        "0x480",
    ]);
    let d = run(&["decode", "smem", &off[0].1, "--json"]).json();
    assert_eq!(d["fields"]["base_offset"], 1);
    // ... or 0 when the pattern follows absolute addresses (TMA, CuTe; CUTLASS's value).
    let abs = descs(&[
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "8",
        "--k",
        "64",
        "--start-address",
        "0x480",
        "--anchor",
        "address",
    ]);
    let d = run(&["decode", "smem", &abs[0].1, "--json"]).json();
    assert_eq!(d["fields"]["base_offset"], 0);
    assert_eq!(d["fields"]["start_address"], 0x480);
    // Kind-dependent storage of e2m1: 32 per K-block under f8f6f4, 64 under mxf4.
    let f8 = descs(&[
        "--type",
        "e2m1",
        "--kind",
        "f8f6f4",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "128",
        "--start-address",
        "0",
    ]);
    assert_eq!(f8.len(), 4);
    let mx = descs(&[
        "--type",
        "e2m1",
        "--kind",
        "mxf4",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "256",
        "--start-address",
        "0",
    ]);
    assert_eq!(mx.len(), 4);
}

#[test]
fn desc_reports_every_problem() {
    let r = run(&[
        "layout",
        "desc",
        "--type",
        "e2m1",
        "--kind",
        "f8f6f4",
        "--major",
        "mn",
        "--swizzle",
        "128B_base32B",
        "--mn",
        "12",
        "--k",
        "7",
        "--start-address",
        "0x408",
    ]);
    r.code(1);
    let lines = r.stderr_lines();
    let fields: Vec<&str> = lines
        .iter()
        .map(|l| {
            l.trim_start_matches("error: ")
                .split(' ')
                .next()
                .unwrap_or("")
        })
        .collect();
    assert_eq!(
        fields,
        ["major", "swizzle", "mn", "k", "start_address"],
        "{}",
        r.stderr
    );
    assert!(lines[0].contains("rules.md R11"));
    assert!(lines[1].contains("rules.md R18"));
    assert!(r.stdout.is_empty());
    // 4-bit without the kind: the storage is unknown.
    let r = run(&[
        "layout",
        "desc",
        "--type",
        "e2m1",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "128",
        "--start-address",
        "0",
    ]);
    r.code(1);
    assert!(r.stderr.starts_with("error: kind = e2m1:"), "{}", r.stderr);
    // Swizzle pattern start inside a 128-byte line: no base offset describes it.
    let r = run(&[
        "layout",
        "desc",
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "8",
        "--k",
        "64",
        "--start-address",
        "0x440",
    ]);
    r.code(1);
    assert!(r.stderr.contains("pattern"), "{}", r.stderr);
    // Usage errors exit 2.
    for bad in [["--type", "bf17"], ["--major", "x"]] {
        let mut args = vec![
            "layout",
            "desc",
            "--type",
            "bf16",
            "--major",
            "k",
            "--swizzle",
            "128B",
            "--mn",
            "8",
            "--k",
            "64",
            "--start-address",
            "0",
        ];
        let i = args.iter().position(|a| *a == bad[0]).expect("flag");
        args[i + 1] = bad[1];
        run(&args).code(2);
    }
}

fn addr(args: &[&str]) -> Value {
    let r = run(&[&["layout", "addr", "--json"][..], args].concat());
    r.code(0);
    r.json()
}

#[test]
fn addr_map_and_inverse() {
    let v = addr(&[
        "0x4000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "16",
        "--k",
        "16",
        "--at",
        "0x490",
        "--at",
        "0x2000",
    ]);
    let rows = v["addresses"].as_array().expect("rows");
    assert_eq!(rows.len(), 16);
    for (mn, row) in rows.iter().enumerate() {
        let row = row.as_array().expect("row");
        assert_eq!(row.len(), 16);
        for (k, a) in row.iter().enumerate() {
            // 128B swizzle on the absolute address: chunk ^= line (PTX ISA 9.7.16.3.3, §1.6).
            let pre = 0x400 + (mn % 8) * 128 + (mn / 8) * 1024 + k * 2;
            let want = pre ^ (((pre >> 7) & 7) << 4);
            assert_eq!(a.as_u64(), Some(want as u64), "({mn},{k})");
        }
    }
    assert_eq!(v["at"][0]["address"], "0x490");
    assert_eq!(v["at"][0]["elements"], serde_json::json!([[1, 0]]));
    assert_eq!(v["at"][1]["elements"], serde_json::json!([]));
    assert_eq!(v["errors"], serde_json::json!([]));
    // Packed 4-bit: the bit offsets come too, two elements share a byte.
    let v = addr(&[
        "0x4000404000010000",
        "--type",
        "e2m1",
        "--kind",
        "mxf4",
        "--major",
        "k",
        "--mn",
        "8",
        "--k",
        "64",
        "--at",
        "0",
    ]);
    assert_eq!(v["bits"][0][0], 0);
    assert_eq!(v["bits"][0][1], 4);
    assert_eq!(v["addresses"][0][1], 0);
    assert_eq!(v["at"][0]["elements"], serde_json::json!([[0, 0], [0, 1]]));
}

#[test]
fn addr_overlaps_and_buffer_are_errors() {
    // SBO 0 (encoded 0x...0000 in bits 32-45) folds rows 8-15 onto rows 0-7.
    let r = run(&[
        "layout",
        "addr",
        "0x4000400000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "16",
        "--k",
        "16",
    ]);
    r.code(1);
    // 128 overlaps: 16 lines, then one count of the other 112 (stderr only; --json lists all).
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 16 + 1, "{}", r.stderr);
    assert!(
        lines[0].starts_with("error: address = 0x400: elements (0, 0) and (8, 0)"),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[16],
        "error: and 112 more address problems like these (PTX ISA 9.7.16.3.3)"
    );
    let r = run(&[
        "layout",
        "addr",
        "0x4000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "16",
        "--k",
        "16",
        "--buffer",
        "0x400:0x800",
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(8 * 16));
    assert!(v["errors"][0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("outside the buffer")));
    // Rules of the descriptor and of the operand, all reported.
    let r = run(&[
        "layout",
        "addr",
        "0x2000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "12",
        "--k",
        "16",
    ]);
    r.code(1);
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 2, "{}", r.stderr);
    assert!(
        lines[0].starts_with("error: swizzle = 128B_base32B"),
        "{}",
        r.stderr
    );
    assert!(lines[1].starts_with("error: mn = 12"), "{}", r.stderr);
    // A descriptor that breaks Table 40 (reserved bit 14).
    let r = run(&[
        "layout",
        "addr",
        "0x4000404000014040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "8",
        "--k",
        "16",
    ]);
    r.code(1);
    assert!(r.stderr.contains("bit 14"), "{}", r.stderr);
}

#[test]
fn addr_base_offset_readings() {
    // Pattern starting on line 1 of the 1024-byte repeat, base offset 1 (Table 41).
    let hex = "0x4002404000010048";
    let pattern = addr(&[
        hex, "--type", "bf16", "--major", "k", "--mn", "8", "--k", "16",
    ]);
    assert_eq!(pattern["addresses"][0][0], 0x480);
    let absolute = addr(&[
        hex,
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "8",
        "--k",
        "16",
        "--reading",
        "absolute",
    ]);
    assert_eq!(absolute["addresses"][0][0], 0x490);
}

fn tma(extra: &[&str]) -> crate::Run {
    run(&[
        &[
            "layout",
            "tma",
            "0x4000404000010040",
            "--type",
            "bf16",
            "--major",
            "k",
            "--mn",
            "128",
            "--k",
            "16",
        ][..],
        extra,
    ]
    .concat())
}

/// Issue 16 D4: `--k-start` is checked against the K range the copies cover, and messages
/// speak of tile elements only.
#[test]
fn tma_k_start_is_checked_in_tile_coordinates() {
    let copy = ["--swizzle", "128B", "--box", "64x128", "--dst", "0x400"];
    for (k_start, end) in [("49", "65"), ("64", "80"), ("4294967295", "4294967311")] {
        let r = tma(&[&copy[..], &["--k-start", k_start, "--json"]].concat());
        r.code(1);
        let v = r.json();
        assert_eq!(
            crate::errors_of(&v),
            [("k_start".to_string(), "PTX ISA 5.5.7".to_string())],
            "{v}"
        );
        let message = v["errors"][0]["message"].as_str().expect("message");
        assert!(
            message.contains(&format!("tile K {k_start}..{end}")) && message.contains("0..64"),
            "{message}"
        );
    }
    // The K-block of tile K 48..64 read through the first K-block's descriptor: the tile
    // element the MMA reads, (0, 48), and the one the copy put there, (0, 0), both in tile
    // coordinates; the JSON keeps the MMA's own K (0) next to the tile's (48).
    let r = tma(&[&copy[..], &["--k-start", "48"]].concat());
    r.code(1);
    assert_eq!(
        r.stderr_lines(),
        ["error: address = 0x400: the MMA reads tile element (0, 48) from 0x400, but the copy put \
          it at 0x460; the copy put tile element (0, 0) there (PTX ISA 5.5.7)"]
    );
    let r = tma(&[&copy[..], &["--k-start", "48", "--json"]].concat());
    assert_eq!(r.json()["first_difference"]["k"], 0);
    assert_eq!(r.json()["first_difference"]["tile_k"], 48);
}

#[test]
fn tma_agreement() {
    let r = tma(&["--swizzle", "128B", "--box", "64x128", "--dst", "0x400"]);
    r.code(0);
    assert!(r.stdout.starts_with("agree:"), "{}", r.stdout);
    let r = tma(&[
        "--swizzle",
        "128B",
        "--box",
        "64x128",
        "--dst",
        "0x400",
        "--json",
    ]);
    assert_eq!(
        r.json(),
        serde_json::json!({"agree": true, "unproven_on_hardware": false, "elements": 2048})
    );
    // The 96B mode (PTX ISA 5.5.7, read from the text): rows 96 bytes apart, marked unproven.
    let r = tma(&[
        "--swizzle",
        "96B",
        "--box",
        "48x128",
        "--dst",
        "0x400",
        "--json",
    ]);
    r.code(1);
    assert_eq!(r.json()["unproven_on_hardware"], serde_json::json!(true));
    let r = tma(&["--swizzle", "96B", "--box", "48x128", "--dst", "0x400"]);
    assert!(
        r.stdout.contains("no hardware has confirmed it"),
        "{}",
        r.stdout
    );
    tma(&["--swizzle", "96B", "--box", "56x128", "--dst", "0x400"]).code(1);
    // The wrong swizzle on the copy: the first element that differs is named.
    let r = tma(&[
        "--swizzle",
        "64B",
        "--box",
        "32x128",
        "--dst",
        "0x400",
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["agree"], false);
    assert_eq!(
        v["first_difference"],
        serde_json::json!({"mn": 1, "k": 0, "tile_k": 0, "mma_address": "0x490", "copy_address": "0x440", "found": [2, 0]})
    );
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].contains("(PTX ISA 5.5.7)"));
    // The next K-block's descriptor with --k-start.
    let r = run(&[
        "layout",
        "tma",
        "0x4000404000010042",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "128",
        "--k",
        "16",
        "--swizzle",
        "128B",
        "--box",
        "64x128",
        "--dst",
        "0x400",
        "--k-start",
        "16",
    ]);
    r.code(0);
    // Box rules: inner wider than the swizzle span, destination alignment.
    let r = tma(&["--swizzle", "64B", "--box", "64x128", "--dst", "0x408"]);
    r.code(1);
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 2, "{}", r.stderr);
    assert!(
        lines[0].starts_with("error: box_inner = 128"),
        "{}",
        r.stderr
    );
    assert!(
        lines[1].starts_with("error: destination = 0x408"),
        "{}",
        r.stderr
    );
}

/// Issue 16 D9: a 256 x 256 operand (1,024 lines of 128 bytes) is folded into columns of 128
/// lines, so that the picture is about 4,400 px high rather than 35,000; a small one is not.
#[test]
fn svg_of_a_large_tile_is_folded() {
    let dir = std::env::temp_dir().join(format!("tcgen05-layout-fold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("big.svg");
    let p = path.to_str().expect("utf-8 path");
    let draw = |mn: &str, k: &str| -> String {
        run(&[
            "layout",
            "desc",
            "--type",
            "bf16",
            "--major",
            "k",
            "--swizzle",
            "128B",
            "--mn",
            mn,
            "--k",
            k,
            "--start-address",
            "0",
            "--svg",
            p,
        ])
        .code(0);
        std::fs::read_to_string(&path).expect("svg written")
    };
    let size = |svg: &str| -> (u32, u32) {
        let num = |key: &str| -> u32 {
            let at = svg.find(&format!("{key}=\"")).expect("attribute") + key.len() + 2;
            svg[at..]
                .split('"')
                .next()
                .expect("v")
                .parse()
                .expect("number")
        };
        (num("width"), num("height"))
    };
    let big = draw("256", "256");
    let (w, h) = size(&big);
    assert!(h <= 4500, "height {h}");
    assert_eq!(w, 8 * 1048, "eight columns of 128 lines");
    assert_eq!(
        big.matches("<title>").count(),
        256 * 256 / 8,
        "every chunk is drawn"
    );
    assert!(big.contains("128 lines per column"));
    // The last line, 0x1ff80 (line 1023), is drawn and labelled.
    assert!(big.contains(">0x1ff80</text>"));
    let small = draw("16", "64");
    assert_eq!(size(&small), (1048, 56 + 16 * 34 + 30));
    assert!(!small.contains("lines per column"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn svg_drawing() {
    let dir = std::env::temp_dir().join(format!("tcgen05-layout-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("tile.svg");
    let p = path.to_str().expect("utf-8 path");
    let r = run(&[
        "layout",
        "desc",
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "16",
        "--k",
        "64",
        "--start-address",
        "0x400",
        "--svg",
        p,
    ]);
    r.code(0);
    let svg = std::fs::read_to_string(&path).expect("svg written");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // 16 rows x 64 bf16 = 128 chunks, each a labelled cell; the swizzle shows: line 1 starts
    // with row 1's chunk k8-15 (chunk index 1 XOR line 1 = 0).
    assert_eq!(svg.matches("<title>").count(), 128);
    assert!(
        svg.contains("<title>0x480: m1 k8-15</title>"),
        "swizzle not visible"
    );
    assert!(svg.contains("<title>0x400: m0 k0-7</title>"));
    // addr draws the operand of one MMA; B operands are labelled by n.
    let path2 = dir.join("op.svg");
    let p2 = path2.to_str().expect("utf-8 path");
    let r = run(&[
        "layout",
        "addr",
        "0x4000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "8",
        "--k",
        "16",
        "--operand",
        "b",
        "--svg",
        p2,
    ]);
    r.code(0);
    let svg = std::fs::read_to_string(&path2).expect("svg written");
    assert_eq!(svg.matches("<title>").count(), 16);
    assert!(svg.contains("<title>0x490: n1 k0-7</title>"));
    // Reads outside the buffer are outlined in red: rows 8-15, two chunks each.
    let path3 = dir.join("outside.svg");
    let r = run(&[
        "layout",
        "addr",
        "0x4000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "16",
        "--k",
        "16",
        "--buffer",
        "0x400:0x800",
        "--svg",
        path3.to_str().expect("utf-8"),
    ]);
    r.code(1);
    let svg = std::fs::read_to_string(&path3).expect("svg written");
    assert_eq!(svg.matches("stroke=\"#d00\"").count(), 16);
    // An unwritable path is an input/output error (exit 2).
    let bad = dir.join("no/such/dir/x.svg");
    let r = run(&[
        "layout",
        "addr",
        "0x4000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "8",
        "--k",
        "16",
        "--svg",
        bad.to_str().expect("utf-8"),
    ]);
    r.code(2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two copies (one per 64-element K atom column) feed the K-blocks of a 128 x 128 tile; without
/// the second copy, the K-blocks past 64 read bytes no copy wrote.
#[test]
fn tma_several_copies() {
    let d = descs(&[
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "128",
        "--k",
        "128",
        "--start-address",
        "0x400",
    ]);
    assert_eq!(d.len(), 8);
    let second = format!("{:#x}", 0x400 + 128 * 128);
    for (kb, hex) in &d {
        let k_start = (kb * 16).to_string();
        let base = [
            "layout",
            "tma",
            hex.as_str(),
            "--type",
            "bf16",
            "--major",
            "k",
            "--mn",
            "128",
            "--k",
            "16",
            "--swizzle",
            "128B",
            "--box",
            "64x128",
            "--k-start",
            &k_start,
            "--json",
        ];
        let both = run(&[
            &base[..],
            &[
                "--dst",
                "0x400",
                "--box-origin",
                "0,0",
                "--dst",
                &second,
                "--box-origin",
                "64,0",
            ],
        ]
        .concat());
        both.code(0);
        assert_eq!(both.json()["agree"], true, "k_block {kb}");
        let one = run(&[&base[..], &["--dst", "0x400"]].concat());
        if *kb < 4 {
            one.code(0);
        } else {
            one.code(1);
            assert_eq!(one.json()["first_difference"]["copy_address"], Value::Null);
        }
    }
    // Origins must pair with destinations.
    let r = run(&[
        "layout",
        "tma",
        &d[0].1,
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "128",
        "--k",
        "16",
        "--swizzle",
        "128B",
        "--box",
        "64x128",
        "--dst",
        "0x400",
        "--dst",
        "0x4400",
        "--box-origin",
        "0,0",
    ]);
    r.code(2);
}

/// In JSON mode a command stopped by problems still prints one object with its result key empty
/// and every problem, as well as the stderr lines.
#[test]
fn json_problems() {
    let r = run(&[
        "layout",
        "desc",
        "--type",
        "bf16",
        "--major",
        "k",
        "--swizzle",
        "128B",
        "--mn",
        "12",
        "--k",
        "64",
        "--start-address",
        "0x408",
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["descriptors"], serde_json::json!([]));
    let fields: Vec<&str> = v["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["field"].as_str().expect("field"))
        .collect();
    assert_eq!(fields, ["mn", "start_address"]);
    assert_eq!(r.stderr_lines().len(), 2);
    let r = run(&[
        "layout",
        "addr",
        "0x4000404000014040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "8",
        "--k",
        "16",
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["addresses"], serde_json::json!([]));
    assert_eq!(v["errors"][0]["source"], "rules.md R2");
    let r = run(&[
        "layout",
        "tma",
        "0x4000404000010040",
        "--type",
        "bf16",
        "--major",
        "k",
        "--mn",
        "128",
        "--k",
        "16",
        "--swizzle",
        "none",
        "--box",
        "8x128",
        "--dst",
        "0x410",
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["agree"], Value::Null);
    assert_eq!(v["errors"][0]["field"], "destination");
}

/// A buffer whose end is not after its start is one error naming both bounds as typed, not one
/// "outside the buffer" line per element.
#[test]
fn addr_buffer_end_before_start_is_one_error() {
    for buffer in ["0x800:0x400", "0x400:0x400"] {
        let r = run(&[
            "layout",
            "addr",
            "0x4000404000010040",
            "--type",
            "bf16",
            "--major",
            "k",
            "--mn",
            "16",
            "--k",
            "16",
            "--buffer",
            buffer,
        ]);
        r.code(1);
        let lines = r.stderr_lines();
        assert_eq!(lines.len(), 1, "{}", r.stderr);
        assert!(lines[0].contains("ends before it starts"), "{}", lines[0]);
        let (s, e) = buffer.split_once(':').expect("START:END");
        assert!(lines[0].contains(&format!("{s}:{e}")), "{}", lines[0]);
    }
}
