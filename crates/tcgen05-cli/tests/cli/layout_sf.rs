//! `layout sf explain`, `convert`, `check`: offsets against PyTorch's documented `to_blocked`
//! (the committed vectors of `conformance/scales/gen_torch_to_blocked.py` and the offset
//! worked out from its formula by hand), conversion of a `.npy`, the chain check with the
//! flashinfer#4087 mistake, and the errors.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use serde_json::Value;

use crate::run;

const TORCH: &str = include_str!("../../../../conformance/vectors/pytorch-to-blocked.jsonl");

/// Row 129, K block 5 of a 300 x 6 tensor: tile (1, 1) of 2 K tiles = tile 3 (1536), then
/// 16 * (129 % 32) + 4 * (129 / 32 % 4) + 5 % 4 = 16 + 0 + 1: byte 1553. 3 x 128 padded rows
/// x 8 padded K blocks = 3072 bytes, 1272 of them padding.
#[test]
fn explain_gives_the_blocked_offset_and_the_padding() {
    let r = run(&[
        "layout",
        "sf",
        "explain",
        "--layout",
        "blocked",
        "--rows",
        "300",
        "--k-blocks",
        "6",
        "--at",
        "129,5",
        "--offset",
        "1553",
        "--offset",
        "3071",
        "--json",
    ]);
    r.code(0);
    let v = r.json();
    assert_eq!(v["bytes"], 3072);
    assert_eq!(v["padding_bytes"], 1272);
    assert_eq!(v["at"][0]["offset"], 1553);
    assert_eq!(v["offsets"][0]["row"], 129);
    assert_eq!(v["offsets"][0]["k_block"], 5);
    assert_eq!(v["offsets"][1]["padding"], true);
}

/// A `.npy` of uint8, C order (format version 1.0).
fn npy(shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
    let tuple = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '|u1', 'fortran_order': False, 'shape': {tuple}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

/// k-major to blocked puts every scale factor where PyTorch's `to_blocked` does (100 x 3,
/// from the committed vectors) and zero in every padding byte; back again gives the input.
#[test]
fn convert_matches_pytorch_to_blocked_and_round_trips() {
    let rec: Value = TORCH
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["kind"] == "to_blocked" && r["rows"] == 100 && r["k_blocks"] == 3)
        .unwrap();
    let dir = std::env::temp_dir().join(format!("tcgen05-sf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (inp, out, back) = (
        dir.join("in.npy"),
        dir.join("out.npy"),
        dir.join("back.npy"),
    );
    let data: Vec<u8> = (0..300u32).map(|i| (i % 251 + 1) as u8).collect();
    std::fs::write(&inp, npy(&[100, 3], &data)).unwrap();
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let common = ["--rows", "100", "--k-blocks", "3"];
    let r = run(&[
        &[
            "layout", "sf", "convert", "--from", "k-major", "--to", "blocked",
        ][..],
        &common,
        &[&s(&inp), &s(&out)],
    ]
    .concat());
    r.code(0);
    let bytes = std::fs::read(&out).unwrap();
    let blocked = &bytes[bytes.len() - 512..];
    let offsets = rec["offsets"].as_array().unwrap();
    for (i, o) in offsets.iter().enumerate() {
        assert_eq!(
            blocked[o.as_u64().unwrap() as usize],
            data[i],
            "element {i}"
        );
    }
    for p in rec["padding"].as_array().unwrap() {
        assert_eq!(blocked[p.as_u64().unwrap() as usize], 0);
    }
    let r = run(&[
        &[
            "layout", "sf", "convert", "--from", "blocked", "--to", "k-major",
        ][..],
        &common,
        &[&s(&out), &s(&back)],
    ]
    .concat());
    r.code(0);
    let again = std::fs::read(&back).unwrap();
    assert_eq!(&again[again.len() - 300..], &data[..]);
    // The wrong size for the layout (100 x 5 blocked is 1024 bytes) is a usage error.
    let r = run(&[
        &[
            "layout",
            "sf",
            "convert",
            "--from",
            "blocked",
            "--to",
            "k-major",
            "--rows",
            "100",
            "--k-blocks",
            "5",
        ][..],
        &[&s(&out), &s(&back)],
    ]
    .concat());
    r.code(2);
    assert!(r.stderr.contains("512 bytes"), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The CUTLASS-style chain reads blocked scales: blocked agrees, row-major scales
/// (flashinfer#4087) differ first at row 1, whose blocked byte 16 holds row 4 row-major.
#[test]
fn check_names_the_first_wrong_scale_factor() {
    let r = run(&["layout", "sf", "check", "--host", "blocked", "--json"]);
    r.code(0);
    assert_eq!(r.json()["reads"], 2048);
    let r = run(&["layout", "sf", "check", "--host", "k-major", "--json"]);
    r.code(1);
    let d = &r.json()["first_difference"];
    assert_eq!(
        (d["row"].as_u64(), d["k_block"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(d["path"]["global"], 16);
    assert_eq!(d["path"]["smem"], 0x8010);
    assert_eq!(d["path"]["element"], serde_json::json!([4, 0]));
    let r = run(&["layout", "sf", "check", "--host", "k-major"]);
    r.code(1);
    assert!(r.stdout.contains("holds row 4, K block 0"), "{}", r.stdout);
}

#[test]
fn bad_parameters_are_errors_naming_the_field() {
    let r = run(&[
        "layout",
        "sf",
        "explain",
        "--layout",
        "blocked",
        "--rows",
        "4",
        "--k-blocks",
        "1",
        "--format",
        "ue5m3",
        "--json",
    ]);
    r.code(1);
    assert_eq!(r.json()["errors"][0]["field"], "format");
    let r = run(&[
        "layout",
        "sf",
        "explain",
        "--layout",
        "blocked",
        "--rows",
        "4",
        "--k-blocks",
        "1",
        "--format",
        "ue4m3",
        "--vec",
        "32",
        "--json",
    ]);
    r.code(1);
    assert_eq!(r.json()["errors"][0]["field"], "vec");
    let r = run(&[
        "layout",
        "sf",
        "explain",
        "--layout",
        "blocked",
        "--rows",
        "0",
        "--k-blocks",
        "1",
    ]);
    r.code(1);
    assert!(r.stderr.contains("rows"), "{}", r.stderr);
    let r = run(&[
        "layout",
        "sf",
        "explain",
        "--layout",
        "bogus",
        "--rows",
        "4",
        "--k-blocks",
        "1",
    ]);
    r.code(2);
    assert!(r.stderr.contains("--layout bogus"), "{}", r.stderr);
}

/// The chain picture of flashinfer#4087: the blocked byte of (r, k) is
/// `16 (r % 32) + 4 (r / 32) + k`, which row-major holds row `4 (r % 32) + r / 32`; that is r
/// only for rows 0 and 127, so 126 rows x 4 K blocks = 504 of the 512 cells are red. The layout
/// picture labels byte 16 of a blocked tile with row 1, K block 0.
#[test]
fn svg_pictures_of_a_layout_and_of_a_disagreement() {
    let dir = std::env::temp_dir().join(format!("tcgen05-sf-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chain = dir.join("chain.svg");
    let r = run(&[
        "layout",
        "sf",
        "check",
        "--host",
        "k-major",
        "--svg",
        chain.to_str().unwrap(),
    ]);
    r.code(1);
    let svg = std::fs::read_to_string(&chain).unwrap();
    assert!(svg.starts_with("<svg"));
    assert_eq!(svg.matches("fill=\"#e33\"").count(), 504);
    let layout = dir.join("layout.svg");
    let r = run(&[
        "layout",
        "sf",
        "explain",
        "--layout",
        "blocked",
        "--rows",
        "128",
        "--k-blocks",
        "4",
        "--svg",
        layout.to_str().unwrap(),
    ]);
    r.code(0);
    let svg = std::fs::read_to_string(&layout).unwrap();
    // Byte 16 is the cell of 16-byte row 1, column 0: y = TOP + 24 = 80, x = LEFT = 64.
    assert!(svg.contains("<rect x=\"64\" y=\"80\""), "{svg:.400}");
    let at = svg.find("<rect x=\"64\" y=\"80\"").unwrap();
    assert!(svg[at..at + 300].contains(">r1<") && svg[at..at + 300].contains(">k0<"));
    std::fs::remove_dir_all(&dir).unwrap();
}
