//! Intent -> descriptors against NVIDIA CUTLASS: for every shared-memory layout vector that
//! CUTLASS 4.2.0's `make_umma_desc` produced over `tile_to_shape(<atom>, MNxK)` (see
//! `conformance/cutlass/`, `conformance/vectors/cutlass-4.2.0.jsonl`), `TileLayout::descriptor`
//! gives exactly CUTLASS's 64-bit value, for every K-block of the tile.
//!
//! And descriptor -> addresses against intent: every descriptor the builder gives makes
//! `MatrixLayout::address` read exactly the bytes where the tile put each element.
//!
//! And addresses against CuTe: for the `smem_addr` records (CuTe's own layout function of 204
//! tiles of every swizzle, 128B_base32B included, and of the 4/6-bit f8f6f4 byte storage and the
//! packed mxf4 storage), `TileLayout::address` and `MatrixLayout::address` through each K-block's
//! descriptor give CuTe's byte address and bit for every listed element.

use tcgen05::canonical_layout::{
    AtomOrder, BaseOffsetReading, ElementStorage, MatrixLayout, SwizzleAnchor, TileLayout,
};
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::{ElementType, Kind, Major, Target};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../conformance/vectors/");

fn number(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|e| panic!("bad number {s:?}: {e}"))
}

fn major(s: &str) -> Major {
    match s {
        "k" | "K" => Major::K,
        "mn" | "MN" => Major::Mn,
        _ => panic!("bad major {s:?}"),
    }
}

fn swizzle(s: &str) -> Swizzle {
    Swizzle::from_name(s).unwrap_or_else(|| panic!("bad swizzle {s:?}"))
}

/// oracles.md §2: CUTLASS 4.2.0 values for the four example tiles, with K-block advances.
#[test]
fn oracle_examples() {
    let bf16 = ElementStorage::of(ElementType::Bf16, None).expect("bf16");
    let tf32 = ElementStorage::of(ElementType::Tf32, None).expect("tf32");
    let t = TileLayout::new(bf16, Major::K, Swizzle::B128, 128, 64, 0x400);
    let got: Vec<u64> = (0..4)
        .map(|kb| t.descriptor(kb, Target::Sm100a).expect("ok").bits())
        .collect();
    assert_eq!(
        got,
        [
            0x4000404000010040,
            0x4000404000010042,
            0x4000404000010044,
            0x4000404000010046
        ]
    );
    let t = TileLayout::new(bf16, Major::K, Swizzle::None, 128, 16, 0x400);
    assert_eq!(
        t.descriptor(0, Target::Sm100a).expect("ok").bits(),
        0x0000400800800040
    );
    let t = TileLayout::new(bf16, Major::Mn, Swizzle::B128, 128, 64, 0x400);
    let got: Vec<u64> = (0..4)
        .map(|kb| t.descriptor(kb, Target::Sm100a).expect("ok").bits())
        .collect();
    assert_eq!(
        got,
        [
            0x4000408000400040,
            0x4000408000400140,
            0x4000408000400240,
            0x4000408000400340
        ]
    );
    let t = TileLayout::new(tf32, Major::Mn, Swizzle::B128Base32B, 256, 8, 0x400);
    assert_eq!(
        t.descriptor(0, Target::Sm100a).expect("ok").bits(),
        0x2000410000200040
    );
}

/// Every storage the canonical layouts know, with every swizzle its major-ness allows.
fn storages() -> Vec<(ElementStorage, Vec<Major>)> {
    let s = |e, k| ElementStorage::of(e, k).expect("storage");
    vec![
        (s(ElementType::Tf32, None), vec![Major::K, Major::Mn]),
        (s(ElementType::Bf16, None), vec![Major::K, Major::Mn]),
        (s(ElementType::E4m3, None), vec![Major::K, Major::Mn]),
        (s(ElementType::E2m3, Some(Kind::F8f6f4)), vec![Major::K]),
        (s(ElementType::E2m1, Some(Kind::Mxf8f6f4)), vec![Major::K]),
        (s(ElementType::E2m1, Some(Kind::Mxf4)), vec![Major::K]),
    ]
}

fn swizzles(st: ElementStorage, m: Major) -> Vec<Swizzle> {
    match (m, st.bits()) {
        (Major::Mn, 32) => vec![Swizzle::B128Base32B],
        _ => vec![Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128],
    }
}

/// Descriptor -> addresses agrees with intent -> descriptors: for every K-block of tiles of
/// every storage, major-ness, swizzle and atom order, several shapes and start addresses
/// (including starts off the swizzle repeat, which need a base offset), the MMA reads element
/// (mn, k) of the block exactly where the tile put element (mn, k_block * K + k), and no two
/// elements share a bit.
#[test]
fn descriptors_read_the_tile() {
    let mut checked = 0u64;
    for (st, majors) in storages() {
        for m in majors {
            for s in swizzles(st, m) {
                for (order, anchor) in [
                    (AtomOrder::MnFirst, SwizzleAnchor::TileStart),
                    (AtomOrder::KFirst, SwizzleAnchor::TileStart),
                    (AtomOrder::MnFirst, SwizzleAnchor::Address),
                ] {
                    for start in [0x400u32, 0x480, 0x9300] {
                        let probe = TileLayout::new(st, m, s, 8, 8, start);
                        let (am, ak) = probe.atom();
                        let kpb = st.dense_k();
                        let k_unit = ak.max(kpb);
                        for (nm, nk) in [(1, 1), (2, 1), (3, 2), (16, 2)] {
                            if am * nm > 256 {
                                continue;
                            }
                            let t = TileLayout::new(st, m, s, am * nm, k_unit * nk, start)
                                .with_order(order)
                                .with_anchor(anchor);
                            for kb in 0..t.k_blocks() {
                                let d = t
                                    .descriptor(kb, Target::Sm100a)
                                    .unwrap_or_else(|e| panic!("{t:?} kb {kb}: {e}"));
                                let l = MatrixLayout::try_new(d, t.operand())
                                    .unwrap_or_else(|e| panic!("{t:?} kb {kb}: {e}"));
                                assert_eq!(l.reading(), BaseOffsetReading::PatternStart);
                                for mn in 0..t.mn {
                                    for k in 0..kpb {
                                        let got = l.address(mn, k).expect("address");
                                        let want = t.address(mn, kb * kpb + k).expect("in tile");
                                        assert_eq!(got, want, "{t:?} kb {kb} ({mn},{k})");
                                        checked += 1;
                                    }
                                }
                                let mut firsts: Vec<u64> = Vec::new();
                                for mn in 0..t.mn {
                                    for k in 0..kpb {
                                        firsts.push(l.address(mn, k).expect("address").first_bit());
                                    }
                                }
                                firsts.sort_unstable();
                                let width = u64::from(st.bits());
                                assert!(
                                    firsts.windows(2).all(|w| w[1] >= w[0] + width),
                                    "{t:?} kb {kb}: two elements overlap"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    println!("descriptors_read_the_tile: {checked} element reads checked");
    assert!(checked > 200_000, "only {checked} elements checked");
}

/// Where CUTLASS and the PTX rules part: CUTLASS always writes base offset 0 (its swizzled
/// layouts follow absolute addresses, and its kernels align swizzled tiles to the repeat), while
/// Table 41 / rules.md R4 ask for `(start >> 7) & 7` when the pattern starts off the repeat
/// boundary. Both are right for their data: the two anchors give the two values, and each
/// descriptor reads its own tile's bytes, not the other's.
#[test]
fn cutlass_and_table_41_base_offsets() {
    let bf16 = ElementStorage::of(ElementType::Bf16, None).expect("bf16");
    let t = TileLayout::new(bf16, Major::K, Swizzle::B128, 128, 64, 0x480);
    let cutlass = t.with_anchor(SwizzleAnchor::Address);
    let ptx = t.descriptor(0, Target::Sm100a).expect("ok");
    let cut = cutlass.descriptor(0, Target::Sm100a).expect("ok");
    assert_eq!(ptx.base_offset(), 1);
    assert_eq!(cut.base_offset(), 0);
    assert_eq!(ptx.bits() & !(7 << 49), cut.bits());
    let lp = MatrixLayout::try_new(ptx, t.operand()).expect("ok");
    let lc = MatrixLayout::try_new(cut, t.operand()).expect("ok");
    assert_eq!(lp.address(0, 0).expect("ok"), t.address(0, 0).expect("ok"));
    assert_eq!(
        lc.address(0, 0).expect("ok"),
        cutlass.address(0, 0).expect("ok")
    );
    assert_ne!(lp.address(0, 0).expect("ok"), lc.address(0, 0).expect("ok"));
}

/// One value of a flat JSON record: a string, a number, null, or a list of numbers.
#[derive(Debug, PartialEq)]
enum Json {
    Str(String),
    Num(u64),
    Null,
    List(Vec<u64>),
}

/// Parses one flat JSON object of the vector files (no nesting beyond lists of numbers, no
/// escapes in strings); panics on anything else, so a format change fails the test.
fn parse_record(line: &str) -> std::collections::HashMap<String, Json> {
    let body = line
        .trim()
        .strip_prefix('{')
        .and_then(|l| l.strip_suffix('}'))
        .unwrap_or_else(|| panic!("not an object: {line}"));
    let mut out = std::collections::HashMap::new();
    let mut rest = body;
    while !rest.trim().is_empty() {
        let r = rest.trim_start().trim_start_matches(',').trim_start();
        let r = r
            .strip_prefix('"')
            .unwrap_or_else(|| panic!("key expected: {line}"));
        let (key, r) = r.split_once('"').expect("key end");
        let r = r
            .trim_start()
            .strip_prefix(':')
            .expect("colon")
            .trim_start();
        let (value, r) = if let Some(s) = r.strip_prefix('"') {
            let (v, r) = s.split_once('"').expect("string end");
            (Json::Str(v.to_string()), r)
        } else if let Some(s) = r.strip_prefix('[') {
            let (v, r) = s.split_once(']').expect("list end");
            let items = v
                .split(',')
                .filter(|x| !x.trim().is_empty())
                .map(|x| x.trim().parse().expect("list number"))
                .collect();
            (Json::List(items), r)
        } else if let Some(r) = r.strip_prefix("null") {
            (Json::Null, r)
        } else {
            let end = r.find([',', '}']).unwrap_or(r.len());
            (
                Json::Num(r[..end].trim().parse().expect("number")),
                &r[end..],
            )
        };
        out.insert(key.to_string(), value);
        rest = r;
    }
    out
}

fn str_of<'a>(rec: &'a std::collections::HashMap<String, Json>, k: &str) -> &'a str {
    match rec.get(k) {
        Some(Json::Str(s)) => s,
        other => panic!("{k}: expected a string, found {other:?}"),
    }
}

fn num_of(rec: &std::collections::HashMap<String, Json>, k: &str) -> u64 {
    match rec.get(k) {
        Some(Json::Num(n)) => *n,
        Some(Json::Str(s)) => number(s),
        other => panic!("{k}: expected a number, found {other:?}"),
    }
}

/// The JSONL vectors of the CUTLASS harness (`conformance/vectors/cutlass-4.2.0.jsonl`): every
/// `smem` record's intent (type, kind, major, swizzle, order, tile, start, K per block) gives
/// exactly the record's `hex` for its K-block.
#[test]
fn every_jsonl_smem_record() {
    let path = format!("{VECTORS}cutlass-4.2.0.jsonl");
    let jsonl = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut n = 0;
    let mut failures = Vec::new();
    for (i, line) in jsonl.lines().enumerate() {
        if !line.contains("\"desc\":\"smem\"") {
            continue;
        }
        let rec = parse_record(line);
        let element = ElementType::from_name(str_of(&rec, "type")).expect("type name");
        let kind = match rec.get("kind") {
            Some(Json::Null) | None => None,
            Some(Json::Str(k)) => Some(Kind::from_name(k).expect("kind name")),
            other => panic!("kind: {other:?}"),
        };
        let st = ElementStorage::of(element, kind).expect("storage");
        let Some(Json::List(tile)) = rec.get("tile") else {
            panic!("tile")
        };
        let order = AtomOrder::from_name(str_of(&rec, "order")).expect("order");
        let t = TileLayout::new(
            st,
            major(str_of(&rec, "major")),
            swizzle(str_of(&rec, "swizzle")),
            tile[0] as u32,
            tile[1] as u32,
            num_of(&rec, "start") as u32,
        )
        .with_order(order)
        .with_k_per_block(num_of(&rec, "k_per_block") as u32);
        let kb = num_of(&rec, "k_block") as u32;
        let want = number(str_of(&rec, "hex"));
        match t.descriptor(kb, Target::Sm100a) {
            Ok(d) if d.bits() == want => {}
            other => failures.push(format!(
                "line {}: {t:?} k_block {kb}: {other:?}, CUTLASS {want:#018x}",
                i + 1
            )),
        }
        n += 1;
    }
    println!("every_jsonl_smem_record: {n} smem records");
    assert!(n >= 11_000, "only {n} smem records");
    assert!(
        failures.is_empty(),
        "{} of {n} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn record_parser() {
    let r = parse_record(
        r#"{"desc":"smem","type":"bf16","kind":null,"elem_bits":16,"tile":[128,64],"start":"0x400","hex":"0x4000404000010040"}"#,
    );
    assert_eq!(r["kind"], Json::Null);
    assert_eq!(r["tile"], Json::List(vec![128, 64]));
    assert_eq!(num_of(&r, "elem_bits"), 16);
    assert_eq!(num_of(&r, "start"), 0x400);
    // The brief's example record, checked end to end.
    let st = ElementStorage::of(ElementType::Bf16, None).expect("bf16");
    let t = TileLayout::new(st, Major::K, Swizzle::B128, 128, 64, 0x400);
    assert_eq!(
        t.descriptor(0, Target::Sm100a).expect("ok").bits(),
        number(str_of(&r, "hex"))
    );
}

/// CuTe's element -> address map (the `smem_addr` records of `gen_smem.cpp`) against the model's
/// two address paths: the tile's own layout and the MMA's read through each K-block's descriptor
/// (tiles of at most 256 rows, the largest M or N an MMA reads).
///
/// For the padded storage of `.kind::f8f6f4`'s 4- and 6-bit types CuTe keeps one element per
/// byte (`uint8_t` smem, 16 elements per 16-byte chunk): its map fixes each element's chunk and
/// index in the chunk, not the bits inside the chunk, which the PTX text gives only as pictures
/// (9.7.16.10.4.4 Figures 202-203; the model packs them as the `.b6x16_p32` / `.b4x16_p64`
/// formats). For those the chunk and the index are compared.
#[test]
fn cute_element_addresses_equal_both_address_paths() {
    let path = format!("{VECTORS}cutlass-4.2.0.jsonl");
    let jsonl = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut records, mut elements, mut through_mma, mut chunk_only) = (0, 0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    let mut swizzles = std::collections::BTreeSet::new();
    let mut storages = std::collections::BTreeSet::new();
    for line in jsonl
        .lines()
        .filter(|l| l.contains("\"desc\":\"smem_addr\""))
    {
        let r: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        let s = |k: &str| r[k].as_str().unwrap_or_else(|| panic!("{k}: {line}"));
        let element = ElementType::from_name(s("type")).expect("type name");
        let kind = r["kind"]
            .as_str()
            .map(|k| Kind::from_name(k).expect("kind name"));
        let st = ElementStorage::of(element, kind).expect("storage");
        let tile: Vec<u32> = r["tile"]
            .as_array()
            .expect("tile")
            .iter()
            .map(|v| v.as_u64().expect("n") as u32)
            .collect();
        let major = major(s("major"));
        let t = TileLayout::new(
            st,
            major,
            swizzle(s("swizzle")),
            tile[0],
            tile[1],
            number(s("start")) as u32,
        )
        .with_order(AtomOrder::from_name(s("order")).expect("order"));
        swizzles.insert(s("swizzle").to_string());
        storages.insert((st.bits(), st.per_chunk()));
        let padded = u32::from(st.bits()) * u32::from(st.per_chunk()) < 128;
        let kpb = t.k_per_block;
        for e in r["elems"].as_array().expect("elems") {
            let v: Vec<u64> = e
                .as_array()
                .expect("[mn,k,byte,bit]")
                .iter()
                .map(|x| x.as_u64().expect("n"))
                .collect();
            let (mn, k, byte, bit) = (v[0] as u32, v[1] as u32, v[2] as u32, v[3] as u8);
            // What is compared: the byte and bit, or for padded storage the chunk and the index.
            let seen = |l: Option<(u32, u8)>| -> Option<(u32, u32)> {
                l.map(|(a, b)| {
                    if padded {
                        (
                            a & !15,
                            ((a & 15) * 8 + u32::from(b)) / u32::from(st.bits()),
                        )
                    } else {
                        (a, u32::from(b))
                    }
                })
            };
            let cute = if padded {
                Some((byte & !15, byte & 15))
            } else {
                Some((byte, u32::from(bit)))
            };
            let tile_path = seen(t.address(mn, k).map(|l| (l.address, l.bit)));
            if tile_path != cute {
                failures.push(format!(
                    "{t:?} ({mn}, {k}): CuTe {cute:x?}, tile {tile_path:x?}"
                ));
            }
            if tile[0] <= 256 {
                let kb = k / kpb;
                let mma_path = seen(
                    t.descriptor(kb, Target::Sm100a)
                        .ok()
                        .and_then(|d| {
                            let op =
                                tcgen05::canonical_layout::Operand::new(st, major, tile[0], kpb);
                            MatrixLayout::try_new(d, op).ok()
                        })
                        .and_then(|m| m.address(mn, k % kpb).ok())
                        .map(|l| (l.address, l.bit)),
                );
                if mma_path != cute {
                    failures.push(format!(
                        "{t:?} ({mn}, {k}): CuTe {cute:x?}, MMA {mma_path:x?}"
                    ));
                }
                through_mma += 1;
            }
            chunk_only += usize::from(padded);
            elements += 1;
        }
        records += 1;
    }
    println!(
        "cute_element_addresses: {records} tiles, {elements} elements ({through_mma} also through \
         the MMA's descriptor; {chunk_only} padded 4/6-bit, chunk and index only)"
    );
    assert_eq!(records, 204, "smem_addr records");
    assert!(
        elements > 40_000 && through_mma > 30_000,
        "{elements}, {through_mma}"
    );
    assert!(chunk_only > 1_000, "padded storage: {chunk_only}");
    for sw in ["none", "32B", "64B", "128B", "128B_base32B"] {
        assert!(swizzles.contains(sw), "no {sw} tile");
    }
    // Packed 4-bit (mxf4), padded 4- and 6-bit (f8f6f4), 8, 16 and 32 bits.
    for st in [(4, 32), (4, 16), (6, 16), (8, 16), (16, 8), (32, 4)] {
        assert!(storages.contains(&st), "no storage {st:?}: {storages:?}");
    }
    assert!(
        failures.is_empty(),
        "{} of {elements} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
