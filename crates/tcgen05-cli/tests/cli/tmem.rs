//! `tmem`: Tensor Memory maps (ld/st fragments, D and A layouts, scale factors, cp rows) as text,
//! JSON and SVG.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::run;

fn json(args: &[&str]) -> Value {
    let r = run(&[&["tmem"][..], args, &["--json"]].concat());
    r.code(0);
    r.json()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn ld_json_has_the_documented_keys_and_one_entry_per_register() {
    for (shape, num, regs) in [
        ("32x32b", "x4", 4),
        ("16x64b", "2", 2),
        ("16x128b", ".x2", 4),
        ("16x256b", "1", 4),
        ("16x32bx2", "x8", 8),
    ] {
        let v = json(&["ld", "--shape", shape, "--num", num]);
        assert_eq!(u(&v["registers"]), regs, "{shape}");
        let e = v["entries"].as_array().expect("entries");
        assert_eq!(e.len() as u64, 32 * regs, "{shape}");
        let mut cells = BTreeSet::new();
        for x in e {
            let keys: BTreeSet<&str> = x
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                keys,
                ["bits", "column", "lane", "reg", "reg_bits", "thread"]
                    .into_iter()
                    .collect()
            );
            assert_eq!(x["bits"], serde_json::json!([0, 31]));
            assert!(
                cells.insert((u(&x["lane"]), u(&x["column"]))),
                "{shape}: {x} twice"
            );
        }
    }
}

#[test]
fn ld_32x32b_is_thread_per_lane_register_per_column() {
    // PTX ISA 9.7.16.2.3.1.1: a warp accesses 32 lanes, 32 * .num bits in each.
    let v = json(&["ld", "--shape", "32x32b", "--num", "8"]);
    for x in v["entries"].as_array().expect("entries") {
        assert_eq!(x["lane"], x["thread"]);
        assert_eq!(x["column"], x["reg"]);
    }
}

#[test]
fn ld_pack_splits_registers_into_adjacent_columns() {
    let v = json(&["ld", "--shape", "32x32b", "--num", "2", "--pack"]);
    let e = v["entries"].as_array().expect("entries");
    assert_eq!(e.len(), 32 * 2 * 2);
    assert_eq!(u(&v["columns"]), 4);
    let t5: Vec<&Value> = e
        .iter()
        .filter(|x| x["thread"] == 5 && x["reg"] == 1)
        .collect();
    assert_eq!(t5.len(), 2);
    assert_eq!(
        (u(&t5[0]["column"]), &t5[0]["reg_bits"]),
        (2, &serde_json::json!([0, 15]))
    );
    assert_eq!(
        (u(&t5[1]["column"]), &t5[1]["reg_bits"]),
        (3, &serde_json::json!([16, 31]))
    );
    assert_eq!(t5[1]["bits"], serde_json::json!([0, 15]));
}

#[test]
fn ld_16x32bx2_half_split_offset() {
    // Default: halves adjacent, the immediate CUTLASS emits (.num columns, twice that packed).
    for (num, pack, want) in [("1", false, 1), ("4", false, 4), ("4", true, 8)] {
        let mut args = vec!["ld", "--shape", "16x32bx2", "--num", num];
        if pack {
            args.push("--pack");
        }
        let v = json(&args);
        assert_eq!(u(&v["half_split_offset"]), want);
    }
    let v = json(&["ld", "--shape", "16x32bx2", "--num", "2", "--offset", "32"]);
    assert_eq!(u(&v["columns"]), 34);
    let e = v["entries"].as_array().expect("entries");
    let x = e
        .iter()
        .find(|x| x["thread"] == 20 && x["reg"] == 1)
        .expect("thread 20 register 1");
    assert_eq!((u(&x["lane"]), u(&x["column"])), (4, 33));
    // Overlapping halves are a warning, not an error.
    let r = run(&[
        "tmem", "ld", "--shape", "16x32bx2", "--num", "4", "--offset", "2",
    ]);
    r.code(0);
    assert!(r.stderr_lines()[0].starts_with("warning: half_split_offset = 2"));
}

#[test]
fn ld_errors_report_every_problem() {
    let r = run(&[
        "tmem", "ld", "--shape", "16x256b", "--num", "64", "--offset", "3",
    ]);
    r.code(1);
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("error: num = 64:")
            && lines[0].ends_with("(PTX ISA 9.7.16.8.3 Table 49)")
    );
    assert!(lines[1].starts_with("error: half_split_offset = 3:"));
    let r = run(&["tmem", "ld", "--shape", "16x64b", "--num", "3"]);
    r.code(1);
    assert!(r.stderr_lines()[0].starts_with("error: num = 3:"));
    run(&["tmem", "ld", "--shape", "31x256b", "--num", "1"]).code(2);
    run(&["tmem", "ld", "--shape", "16x64b", "--num", "four"]).code(2);
}

#[test]
fn ld_warp_quadrant_rule() {
    // Warp 5 (warp 1 of its warpgroup) owns lanes 32-63 (PTX ISA 9.7.16.8.1).
    run(&[
        "tmem",
        "ld",
        "--shape",
        "16x64b",
        "--num",
        "1",
        "--address",
        "0x00300000",
        "--warp",
        "5",
    ])
    .code(0);
    let r = run(&[
        "tmem",
        "ld",
        "--shape",
        "16x64b",
        "--num",
        "1",
        "--address",
        "0x00300010",
    ]);
    r.code(0);
    assert!(r
        .stdout
        .contains("address 0x00300010: lanes 48-63, columns 16-17; warp 1 may access lanes 32-63"));
    let r = run(&[
        "tmem",
        "ld",
        "--shape",
        "16x64b",
        "--num",
        "1",
        "--address",
        "0x00380000",
        "--warp",
        "5",
    ]);
    r.code(1);
    assert!(r.stderr_lines()[0].starts_with("error: lane = 56:"));
    let r = run(&[
        "tmem",
        "ld",
        "--shape",
        "32x32b",
        "--num",
        "128",
        "--address",
        "0x000001ff",
    ]);
    r.code(1);
    assert!(r.stderr_lines()[0].starts_with("error: column = 511:"));
    let r = run(&[
        "tmem",
        "ld",
        "--shape",
        "32x32b",
        "--num",
        "1",
        "--address",
        "0x00800000",
    ]);
    r.code(1);
    assert!(r.stderr_lines()[0].starts_with("error: lane = 128:"));
}

#[test]
fn st_is_the_same_map() {
    let a = json(&["ld", "--shape", "16x128b", "--num", "2"]);
    let b = json(&["st", "--shape", "16x128b", "--num", "2"]);
    assert_eq!(a, b);
}

#[test]
fn d_layout_letters_follow_the_table() {
    for (args, letter) in [
        (&["--m", "32", "--n", "64", "--ws"][..], "G"),
        (&["--m", "64", "--n", "64", "--ws"][..], "E"),
        (&["--m", "64", "--n", "64"][..], "F"),
        (&["--m", "128", "--n", "64"][..], "D"),
        (&["--m", "128", "--n", "64", "--ws", "--sparse"][..], "D"),
        (&["--m", "128", "--n", "64", "--cta-group", "2"][..], "B"),
        (
            &["--m", "128", "--n", "64", "--cta-group", "2", "--sparse"][..],
            "C",
        ),
        (&["--m", "256", "--n", "64", "--cta-group", "2"][..], "A"),
    ] {
        let v = json(&[&["d"][..], args].concat());
        assert_eq!(v["layout"], letter, "{args:?}");
        let e = v["entries"].as_array().expect("entries");
        let m = u(&v["m"]);
        assert_eq!(e.len() as u64, m * 64);
        let cells: BTreeSet<(u64, u64, u64)> = e
            .iter()
            .map(|x| (u(&x["cta"]), u(&x["lane"]), u(&x["column"])))
            .collect();
        assert_eq!(cells.len(), e.len(), "{letter}: two elements share a cell");
        assert!(cells.iter().all(|c| c.1 < 128 && c.2 < u(&v["columns"])));
    }
}

#[test]
fn d_layouts_in_the_table_words() {
    // "2x2": the second half of N sits in lanes 64-127 of each CTA.
    let v = json(&["d", "--m", "128", "--n", "32", "--cta-group", "2"]);
    assert_eq!(u(&v["columns"]), 16);
    for x in v["entries"].as_array().expect("entries") {
        assert_eq!(u(&x["cta"]), u(&x["m"]) / 64);
        assert_eq!(u(&x["lane"]) >= 64, u(&x["n"]) >= 16, "{x}");
    }
    // "1/2 datapath utilized", lane alignment 0 or 16: only 16 lanes of each 32-lane quadrant.
    let v = json(&["d", "--m", "64", "--n", "8"]);
    assert_eq!(v["lane_alignment"], serde_json::json!([0, 16]));
    assert!(v["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .all(|x| u(&x["lane"]) % 32 < 16));
    // 16-bit D is not packed (PTX ISA 9.7.16.10.4.1).
    let v = json(&["d", "--m", "128", "--n", "8", "--bits", "16"]);
    assert_eq!(v["bits"], serde_json::json!([0, 15]));
    assert_eq!(u(&v["columns"]), 8);
}

#[test]
fn d_errors() {
    let r = run(&["tmem", "d", "--m", "48", "--n", "7"]);
    r.code(1);
    let l = r.stderr_lines();
    assert_eq!(l.len(), 2, "{l:?}");
    assert!(l[0].starts_with("error: m = 48:") && l[0].ends_with("(PTX ISA 9.7.16.10.5)"));
    assert!(l[1].starts_with("error: n = 7:"));
    run(&[
        "tmem",
        "d",
        "--m",
        "128",
        "--n",
        "64",
        "--cta-group",
        "2",
        "--ws",
    ])
    .code(1);
    let r = run(&[
        "tmem",
        "d",
        "--m",
        "128",
        "--n",
        "64",
        "--address",
        "0x00100000",
    ]);
    r.code(1);
    assert!(r.stderr_lines()[0].starts_with("error: lane = 16:"));
    run(&[
        "tmem",
        "d",
        "--m",
        "64",
        "--n",
        "64",
        "--address",
        "0x00100000",
    ])
    .code(0);
    run(&["tmem", "d", "--m", "128", "--n", "64", "--bits", "8"]).code(1);
    run(&["tmem", "d", "--m", "128", "--n", "64", "--cta-group", "3"]).code(2);
}

#[test]
fn a_in_tensor_memory() {
    let v = json(&[
        "a",
        "--m",
        "128",
        "--k",
        "4",
        "--bits",
        "16",
        "--cta-group",
        "2",
    ]);
    assert_eq!(v["layout"], "B");
    let e = v["entries"].as_array().expect("entries");
    assert_eq!(e.len(), 128 * 4);
    let x = &e[70 * 4 + 3];
    assert_eq!((u(&x["m"]), u(&x["k"]), u(&x["cta"])), (70, 3, 1));
    assert_eq!(x["lanes"], serde_json::json!([6, 70]));
    assert_eq!(
        (u(&x["column"]), &x["bits"]),
        (1, &serde_json::json!([16, 31]))
    );
    run(&["tmem", "a", "--m", "128", "--k", "4", "--bits", "6"]).code(1);
}

#[test]
fn scale_factors() {
    let v = json(&[
        "sf",
        "--operand",
        "a",
        "--m",
        "128",
        "--n",
        "64",
        "--scale-vec",
        "1X",
        "--sf-id",
        "3",
    ]);
    assert_eq!(u(&v["columns"]), 4);
    for x in v["entries"].as_array().expect("entries") {
        let i = u(&x["index"]);
        let lanes: Vec<u64> = x["lanes"]
            .as_array()
            .expect("lanes")
            .iter()
            .map(u)
            .collect();
        // Duplicated to all four 32-lane subpartitions (PTX ISA 9.7.16.10.7).
        assert_eq!(lanes, [i % 32, i % 32 + 32, i % 32 + 64, i % 32 + 96]);
        assert_eq!(u(&x["byte"]), 3);
    }
    let v = json(&[
        "sf",
        "--operand",
        "b",
        "--m",
        "128",
        "--n",
        "256",
        "--cta-group",
        "2",
        "--scale-vec",
        "2X",
    ]);
    let e = v["entries"].as_array().expect("entries");
    assert_eq!(e.len(), 256 * 2);
    assert!(e
        .iter()
        .all(|x| x["both_ctas"] == true && x["lanes"].as_array().map(Vec::len) == Some(2)));
    let r = run(&[
        "tmem",
        "sf",
        "--operand",
        "b",
        "--m",
        "64",
        "--n",
        "12",
        "--scale-vec",
        "4X",
        "--sf-id",
        "2",
    ]);
    r.code(1);
    assert_eq!(r.stderr_lines().len(), 3);
    run(&[
        "tmem",
        "sf",
        "--operand",
        "a",
        "--m",
        "128",
        "--n",
        "64",
        "--scale-vec",
        "5X",
    ])
    .code(2);
    // 8X (PTX ISA 9.4, K = 128/256 .block16): refused by name, its text unread.
    let r = run(&[
        "tmem",
        "sf",
        "--operand",
        "a",
        "--m",
        "128",
        "--n",
        "64",
        "--scale-vec",
        "8X",
    ]);
    r.code(2);
    assert!(r.stderr.contains("is not modelled"), "{}", r.stderr);
}

/// K = 96 (rules.md T3): six scale factors of column 40 of B from byte 2 (SF_ID 2) run into
/// the next group of 8 columns (N = 256): block 3 is byte (2 + 3) % 4 = 1 of column
/// 40 / 32 + 8. Layout B's scale_B is refused with its rule.
#[test]
fn sf_k96_bytes_run_on_past_the_cell() {
    let v = json(&[
        "sf",
        "--operand",
        "b",
        "--m",
        "256",
        "--n",
        "256",
        "--cta-group",
        "2",
        "--scale-vec",
        "6X",
        "--sf-id",
        "2",
    ]);
    assert_eq!(u(&v["columns"]), 16);
    let e = v["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| u(&e["index"]) == 40 && u(&e["k_block"]) == 3)
        .expect("entry");
    assert_eq!((u(&e["column"]), u(&e["byte"])), (9, 1));
    let r = run(&[
        "tmem",
        "sf",
        "--operand",
        "b",
        "--m",
        "128",
        "--n",
        "128",
        "--cta-group",
        "2",
        "--scale-vec",
        "3X",
    ]);
    r.code(1);
    assert!(
        r.stderr_lines()[0].contains("data_path.k96_layout") || r.stderr_lines()[0].contains("T3")
    );
    let r = run(&[
        "tmem",
        "sf",
        "--operand",
        "a",
        "--m",
        "256",
        "--n",
        "128",
        "--cta-group",
        "2",
        "--scale-vec",
        "3X",
        "--sf-id",
        "3",
    ]);
    r.code(0);
    assert!(r.stdout.contains("no Blackwell has confirmed it"));
}

#[test]
fn cp_rows() {
    let v = json(&["cp", "--shape", "32x128b", "--multicast", "warpx4"]);
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 32);
    assert_eq!(rows[7]["lanes"], serde_json::json!([7, 39, 71, 103]));
    let v = json(&["cp", "--shape", "64x128b", "--multicast", "warpx2::02_13"]);
    assert_eq!(v["rows"][40]["lanes"], serde_json::json!([40, 104]));
    let r = run(&["tmem", "cp", "--shape", "64x128b"]);
    r.code(1);
    assert!(r.stderr_lines()[0].contains("(rules.md R23)"));
    run(&["tmem", "cp", "--shape", "31x256b"]).code(2);
}

#[test]
fn svg_pictures_are_drawn_from_the_map() {
    let dir = std::env::temp_dir().join(format!("tcgen05-tmem-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ld = dir.join("ld.svg");
    let p = ld.to_str().expect("utf-8 path");
    run(&["tmem", "ld", "--shape", "16x64b", "--num", "2", "--svg", p]).code(0);
    let s = std::fs::read_to_string(&ld).expect("svg written");
    assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
    // One coloured cell per Tensor Memory cell (16 lanes x 4 columns), each labelled.
    assert_eq!(s.matches("<rect x=").count(), 64);
    assert!(s.contains(">T31<") && s.contains(">r1<"));
    // Band pictures: runs of lanes labelled with the ranges they hold.
    for (args, labels) in [
        (
            &["d", "--m", "128", "--n", "16", "--cta-group", "2"][..],
            &[">CTA 1<", ">m64-95<", ">n8-15<", ">m32-63<"][..],
        ),
        (
            &[
                "sf",
                "--operand",
                "b",
                "--m",
                "128",
                "--n",
                "128",
                "--cta-group",
                "2",
                "--scale-vec",
                "2X",
                "--sf-id",
                "2",
            ][..],
            &[">n0-31<", ">n96-127<", ">k0-1<", ">c1.b3<"][..],
        ),
        (
            &["cp", "--shape", "64x128b", "--multicast", "warpx2::01_23"][..],
            &[">row0-31<", ">row32-63<", ">c0-3<"][..],
        ),
    ] {
        let f = dir.join("x.svg");
        let fp = f.to_str().expect("utf-8 path");
        run(&[&["tmem"][..], args, &["--svg", fp]].concat()).code(0);
        let s = std::fs::read_to_string(&f).expect("svg written");
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        for l in labels {
            assert!(s.contains(l), "{args:?}: no {l}");
        }
    }
    // Layout F leaves half of each quadrant unused: 4 bands, not 8.
    let f = dir.join("f.svg");
    let fp = f.to_str().expect("utf-8 path");
    run(&["tmem", "d", "--m", "64", "--n", "16", "--svg", fp]).code(0);
    let s = std::fs::read_to_string(&f).expect("svg written");
    assert_eq!(s.matches("stroke=\"#333\"").count(), 4);
    let missing = dir.join("no/such/dir/x.svg");
    let r = run(&[
        "tmem",
        "cp",
        "--shape",
        "128x128b",
        "--svg",
        missing.to_str().expect("utf-8"),
    ]);
    r.code(2);
    assert!(r.stderr_lines()[0].starts_with("error: input/output:"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_output_shows_the_fragment() {
    let r = run(&["tmem", "ld", "--shape", "16x256b", "--num", "1"]);
    r.code(0);
    // mma.sync m16n8 accumulator order: lane 0 holds T0.r0 T0.r1 T1.r0 ...; lane 8 the r2/r3.
    assert!(r
        .stdout
        .contains("lane  0: T0.r0 T0.r1 T1.r0 T1.r1 T2.r0 T2.r1 T3.r0 T3.r1\n"));
    assert!(r.stdout.contains("lane  8: T0.r2 T0.r3 T1.r2 T1.r3"));
    let r = run(&["tmem", "d", "--m", "128", "--n", "16", "--cta-group", "2"]);
    r.code(0);
    assert!(r.stdout.contains("layout B (2x2)"));
    assert!(r.stdout.contains(
        "CTA 1 warp 2: taddr = D + (64 << 16): lanes 64-95 hold D[m][n] for m 64-95, n 8-15\n"
    ));
    let f = run(&["tmem", "d", "--m", "64", "--n", "32"]);
    assert!(f.stdout.contains(
        "warp 3: taddr = D + (96 << 16): lanes 96-111 hold D[m][n] for m 48-63, n 0-31 (16 lanes: a .16x* shape)\n"
    ));
    assert!(r
        .stdout
        .contains("CTA 1 lane  64 (warp 2): D[64][8..=15] in columns 0-7"));
}

#[test]
fn readme_pictures_are_what_the_command_draws() {
    // scripts/tmem-pictures.sh lists the commands; each committed picture must be their output.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = std::fs::read_to_string(root.join("scripts/tmem-pictures.sh")).expect("script");
    let dir = std::env::temp_dir().join(format!("tcgen05-tmem-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut n = 0;
    for line in script.lines() {
        let Some(args) = line
            .trim()
            .strip_prefix('"')
            .and_then(|l| l.strip_suffix('"'))
        else {
            continue;
        };
        let words: Vec<&str> = args.split_whitespace().collect();
        let (committed, rest) = words.split_last().expect("a path last");
        assert_eq!(rest.last(), Some(&"--svg"), "{line}");
        let fresh = dir.join(format!("{n}.svg"));
        let fresh_s = fresh.to_str().expect("utf-8");
        run(&[&["tmem"][..], rest, &[fresh_s]].concat()).code(0);
        let want = std::fs::read_to_string(root.join(committed)).expect("committed picture");
        let got = std::fs::read_to_string(&fresh).expect("fresh picture");
        assert!(
            want == got,
            "{committed} differs from the command's output: run scripts/tmem-pictures.sh"
        );
        n += 1;
    }
    assert_eq!(n, 6);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `width` and `height` of an SVG picture.
fn svg_size(svg: &str) -> (u32, u32) {
    let num = |key: &str| -> u32 {
        let at = svg.find(&format!("{key}=\"")).expect("attribute") + key.len() + 2;
        svg[at..]
            .split('"')
            .next()
            .expect("value")
            .parse()
            .expect("number")
    };
    (num("width"), num("height"))
}

/// Issue 16 D9: pictures hide nothing: overlapping `.16x32bx2` halves show both threads in
/// red; the `.ws` D title says `.ws`; the subtitle fits the picture.
#[test]
fn svg_pictures_show_overlaps_ws_and_whole_subtitles() {
    let dir = std::env::temp_dir().join(format!("tcgen05-tmem-d9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("x.svg");
    let fp = f.to_str().expect("utf-8 path");
    let draw = |args: &[&str]| -> String {
        run(&[&["tmem"][..], args, &["--svg", fp]].concat()).code(0);
        std::fs::read_to_string(&f).expect("svg written")
    };
    // Offset 1 < the 2 columns of a half: column 1 of every lane is T(l).r1 and T(l+16).r0.
    let s = draw(&["ld", "--shape", "16x32bx2", "--num", "2", "--offset", "1"]);
    assert_eq!(
        s.matches("fill=\"#e33\"").count(),
        16,
        "one red cell per lane"
    );
    assert!(s.contains(">T0/T16<") && s.contains(">r1/r0<"), "{s}");
    assert!(s.contains(">T31<"), "threads 16-31 are drawn");
    assert!(s.contains("red: the two halves overlap"));
    // Adjacent halves: nothing red.
    let s = draw(&["ld", "--shape", "16x32bx2", "--num", "2"]);
    assert!(!s.contains("#e33"));
    // .ws in the title of a .ws D (layout E), not in the others.
    let s = draw(&["d", "--m", "64", "--n", "64", "--ws"]);
    assert!(s.contains(".cta_group::1, .ws: layout E"), "{s}");
    let s = draw(&["d", "--m", "64", "--n", "64"]);
    assert!(!s.contains(".ws"), "{s}");
    // The long subtitle of a packed load (at x = 64, about 6 px per character) fits.
    let s = draw(&["ld", "--shape", "32x32b", "--num", "1", "--pack"]);
    let line = s
        .lines()
        .find(|l| l.contains(" across, lanes down"))
        .expect("subtitle");
    let text = line
        .split('>')
        .nth(1)
        .expect("text")
        .split('<')
        .next()
        .expect("text");
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let (width, _) = svg_size(&s);
    assert!(
        64 + 6 * u32::try_from(text.len()).expect("len") <= width,
        "{width}: {text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
