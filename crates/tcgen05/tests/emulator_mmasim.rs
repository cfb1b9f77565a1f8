//! The functional model end to end against MMA-Sim 2.1.1's whole-instruction simulators
//! (`TCGen05MMA`, `TCGen05MMABlockScale`; `conformance/mmasim/e2e.py`, results committed in
//! `conformance/mmasim/e2e-mmasim-2.1.1.txt.gz`).
//!
//! MMA-Sim takes plain A, B, C and scale matrices. Here the same codes are placed in shared
//! memory by `TileLayout` (four placements per configuration: every swizzle mode, K- and MN-major
//! where the type allows it, padded starts), read by the emulator through the real descriptors;
//! the scale factors are written to Tensor Memory at the lanes, columns and SF ID bytes of the
//! PTX text's placement (9.7.16.10.7), C to D's cells of data-path layout D or F; one
//! `tcgen05.mma` line with `enable-input-d` runs, and D must equal MMA-Sim's bit for bit.

#![cfg(feature = "alloc")]
#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // a failed unwrap is a failed test

use std::collections::BTreeSet;
use std::io::Read;

use tcgen05::canonical_layout::{ElementStorage, TileLayout};
use tcgen05::data_path::{DLayout, DataPathLayout, ScaleVec, SfLayout, SfOperand};
use tcgen05::emulator::Machine;
use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
use tcgen05::mma::{CtaGroup, ElementType, Kind, Major, ScaleType};
use tcgen05::numerics::rng::SplitMix64;
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::targets::Target;

const PATH: &str = "../../conformance/mmasim/e2e-mmasim-2.1.1.txt.gz";

fn fnv1a64(s: &str) -> u64 {
    s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x100_0000_01B3)
    })
}

fn ty(s: &str) -> ElementType {
    ElementType::from_name(s).unwrap_or_else(|| panic!("type {s}"))
}

fn width(s: &str) -> u32 {
    match s {
        "f32" | "tf32" => 32,
        "f16" | "bf16" => 16,
        "e4m3" | "e5m2" | "ue8m0" => 8,
        "ue4m3" => 7,
        "e3m2" | "e2m3" => 6,
        "e2m1" => 4,
        _ => panic!("{s}"),
    }
}

struct Config {
    kind: Kind,
    m: u32,
    n: u32,
    k: u32,
    d: String,
    a: String,
    b: String,
    scale: Option<(String, u32)>,
}

/// `m128n64k16.kind::f16.f32.f16.f16` or `m128n32k64.kind::mxf4.block32.f32.e2m1.e2m1.ue8m0`.
fn parse(name: &str) -> Config {
    let parts: Vec<&str> = name.split('.').collect();
    let shape = parts[0];
    let (m, rest) = shape[1..].split_once('n').unwrap();
    let (n, k) = rest.split_once('k').unwrap();
    let kind = Kind::from_name(parts[1].trim_start_matches("kind::")).unwrap();
    let (d, a, b, scale) = if parts.len() == 7 {
        let blk: u32 = parts[2].trim_start_matches("block").parse().unwrap();
        (
            parts[3],
            parts[4],
            parts[5],
            Some((parts[6].to_string(), blk)),
        )
    } else {
        (parts[2], parts[3], parts[4], None)
    };
    Config {
        kind,
        m: m.parse().unwrap(),
        n: n.parse().unwrap(),
        k: k.parse().unwrap(),
        d: d.into(),
        a: a.into(),
        b: b.into(),
        scale,
    }
}

/// Writes `bits` bits of `code` at a shared memory element location.
fn put(m: &mut Machine, addr: u32, bit: u8, bits: u8, code: u32) {
    let nbytes = (u32::from(bit) + u32::from(bits)).div_ceil(8);
    let mut word = 0u64;
    for i in 0..nbytes {
        word |= u64::from(m.cta(0).smem_byte(addr + i).unwrap().unwrap_or(0)) << (8 * i);
    }
    let mask = ((1u64 << bits) - 1) << bit;
    word = (word & !mask) | (u64::from(code) << bit & mask);
    m.cta_mut(0)
        .write_smem(addr, &word.to_le_bytes()[..nbytes as usize])
        .unwrap();
}

/// One placement of a configuration run on the emulator.
struct Run {
    v: u32,
    line: String,
    d: Vec<u32>,
    swizzle: u8,
    majors: (bool, bool),
    layout: char,
}

/// Every placement of configuration `name` (up to four; those whose swizzle atom does not fit
/// are counted in the second value), with the scale factors' SF IDs in the instruction
/// descriptor moved by `sf_id_shift` bytes from where they were written.
fn runs(name: &str, want_len: usize, sf_id_shift: u32) -> (Vec<Run>, usize) {
    let c = parse(name);
    assert_eq!(want_len as u32, c.m * c.n, "{name}");
    // The codes, in e2e.py's order.
    let blocks = c.scale.as_ref().map_or(0, |(_, b)| c.k / b);
    let mut rng = SplitMix64::new(fnv1a64(&format!("e2e:{name}")));
    let mut take = |count: u32, w: u32| -> Vec<u32> {
        (0..count)
            .map(|_| (rng.next_u64() >> (64 - w)) as u32)
            .collect()
    };
    let a = take(c.m * c.k, width(&c.a));
    let b = take(c.n * c.k, width(&c.b));
    let cc = take(c.m * c.n, width(&c.d));
    let (sfa, sfb) = match &c.scale {
        Some((s, _)) => (take(c.m * blocks, width(s)), take(c.n * blocks, width(s))),
        None => (Vec::new(), Vec::new()),
    };
    let (ta, tb, td) = (ty(&c.a), ty(&c.b), ty(&c.d));
    let (mut out, mut skipped) = (Vec::new(), 0);
    for v in 0..4u32 {
        let swizzle = [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128][v as usize];
        // MN-major where the PTX text allows it for this type: 8- and 16-bit elements (tf32
        // MN-major needs 128B_base32B, 4/6-bit none).
        let mn_ok = |t: ElementType| matches!(t.bits(), 8 | 16) && !c.kind.is_block_scaled();
        let major_a = if v % 2 == 1 && mn_ok(ta) {
            Major::Mn
        } else {
            Major::K
        };
        let major_b = if v >= 2 && mn_ok(tb) {
            Major::Mn
        } else {
            Major::K
        };
        let sa_st = ElementStorage::of(ta, Some(c.kind)).unwrap();
        let sb_st = ElementStorage::of(tb, Some(c.kind)).unwrap();
        let start_b = 0x10000 + 0x80 * (v % 2) * u32::from(swizzle == Swizzle::None);
        // A K-major tile spans at least one swizzle row along K; the MMA reads K-block 0.
        let k_of = |st: ElementStorage, major: Major| {
            let row = swizzle.width_bytes() / 16 * u32::from(st.per_chunk());
            if major == Major::K {
                c.k.max(row)
            } else {
                c.k
            }
        };
        let tile_a = TileLayout::new(sa_st, major_a, swizzle, c.m, k_of(sa_st, major_a), 0)
            .with_k_per_block(c.k);
        let tile_b = TileLayout::new(sb_st, major_b, swizzle, c.n, k_of(sb_st, major_b), start_b)
            .with_k_per_block(c.k);
        let (Ok(da), Ok(db)) = (
            tile_a.descriptor(0, Target::Sm100a),
            tile_b.descriptor(0, Target::Sm100a),
        ) else {
            // A swizzle atom wider than the operand (N = 24 with 128B MN-major, ...).
            skipped += 1;
            continue;
        };
        let mut mach = Machine::new(Target::Sm100a);
        mach.cta_mut(0).write_smem(0, &vec![0; 0x20000]).unwrap();
        for i in 0..c.m {
            for kk in 0..c.k {
                let l = tile_a.address(i, kk).unwrap();
                put(
                    &mut mach,
                    l.address,
                    l.bit,
                    l.bits,
                    a[(i * c.k + kk) as usize],
                );
            }
        }
        for j in 0..c.n {
            for kk in 0..c.k {
                let l = tile_b.address(j, kk).unwrap();
                put(
                    &mut mach,
                    l.address,
                    l.bit,
                    l.bits,
                    b[(j * c.k + kk) as usize],
                );
            }
        }
        // C in D's cells.
        let layout = DataPathLayout::for_mma(c.m, CtaGroup::One, false, false).unwrap();
        let dl = DLayout::with_layout(layout, c.n).unwrap();
        for i in 0..c.m {
            for j in 0..c.n {
                let cell = dl.locate(i, j).unwrap();
                mach.cta_mut(0)
                    .write_tmem(cell.lane, cell.column, cc[(i * c.n + j) as usize])
                    .unwrap();
            }
        }
        let mut fields = IdescFields::new(c.kind, td, ta, tb, c.m as u16, c.n as u16);
        fields.transpose_a = major_a == Major::Mn;
        fields.transpose_b = major_b == Major::Mn;
        let mut qual = String::new();
        let mut scale_ops = String::new();
        if let Some((s, blk)) = &c.scale {
            let vec = match (blocks, c.kind) {
                (1, _) => ScaleVec::X1,
                (2, _) => ScaleVec::X2,
                _ => ScaleVec::X4,
            };
            // SF IDs: every byte (1X) or half (2X) over the variants; 4X has only 0.
            let (ida, idb) = match vec {
                ScaleVec::X1 => (v % 4, (v + 1) % 4),
                ScaleVec::X2 => (2 * (v % 2), 2 * ((v / 2) % 2)),
                ScaleVec::X4 => (0, 0),
                // One ScaleVec type since the data path's and the PTX qualifier's merged.
                _ => unreachable!("built as 1X, 2X or 4X just above"),
            };
            let st = if s == "ue4m3" {
                ScaleType::Ue4m3
            } else {
                ScaleType::Ue8m0
            };
            // `sf_id_shift` reads the byte next to the one written (the README's check).
            fields = fields.with_scale(
                st,
                ((ida + sf_id_shift) % 4) as u8,
                ((idb + sf_id_shift) % 4) as u8,
            );
            // The qualifier spelled both ways over the variants.
            qual = match (vec, v % 2, *blk) {
                (ScaleVec::X1, 0, _) => ".block_scale.scale_vec::1X".into(),
                (ScaleVec::X2, 0, _) => ".block_scale.scale_vec::2X".into(),
                (ScaleVec::X4, 0, _) => ".block_scale.scale_vec::4X".into(),
                (_, _, 16) => ".block_scale.block16".into(),
                _ if c.kind == Kind::Mxf4nvf4 => ".block_scale.block32".into(),
                _ => ".block_scale".into(),
            };
            let (col_a, col_b) = (c.n, c.n + 8);
            for (op, id, extent, codes, col) in [
                (SfOperand::A, ida, c.m, &sfa, col_a),
                (SfOperand::B, idb, c.n, &sfb, col_b),
            ] {
                let sl = SfLayout::try_new(layout, op, vec, c.n, id).unwrap();
                for i in 0..extent {
                    for blkk in 0..blocks {
                        let cell = sl.locate(i, blkk).unwrap();
                        for &lane in cell.lanes() {
                            let old = mach
                                .cta(0)
                                .tmem_cell(lane, col + cell.column)
                                .unwrap()
                                .unwrap_or(0);
                            let byte = codes[(i * blocks + blkk) as usize];
                            let w = old & !(0xFF << (8 * cell.byte)) | byte << (8 * cell.byte);
                            mach.cta_mut(0)
                                .write_tmem(lane, col + cell.column, w)
                                .unwrap();
                        }
                    }
                }
            }
            scale_ops = format!(", [{col_a}], [{col_b}]");
        }
        let idesc = InstructionDescriptor::try_new(fields)
            .unwrap_or_else(|e| panic!("{name} v{v}: {e}"))
            .bits();
        let line = format!(
            "tcgen05.mma.cta_group::1.kind::{}{qual} [0], {:#x}, {:#x}, {idesc:#x}{scale_ops}, 1;",
            c.kind.name(),
            da.bits(),
            db.bits()
        );
        mach.execute(&line)
            .unwrap_or_else(|e| panic!("{name} v{v}: {line}: {e}"));
        let d = mach.last_d().unwrap().unwrap();
        out.push(Run {
            v,
            line,
            d: d.codes.clone(),
            swizzle: swizzle as u8,
            majors: (major_a == Major::Mn, major_b == Major::Mn),
            layout: layout.letter(),
        });
    }
    (out, skipped)
}

/// The committed MMA-Sim results: (configuration name, D codes).
fn results() -> Vec<(String, Vec<u32>)> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(PATH).expect("committed e2e results"))
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .map(|line| {
            let (name, hex) = line.split_once('\t').unwrap();
            let dw = if parse(name).d == "f16" { 4 } else { 8 };
            let want = (0..hex.len() / dw)
                .map(|i| u32::from_str_radix(&hex[i * dw..(i + 1) * dw], 16).unwrap())
                .collect();
            (name.to_string(), want)
        })
        .collect()
}

#[test]
fn emulator_equals_mmasim_on_whole_mmas() {
    let (mut runs_n, mut values, mut skipped) = (0usize, 0usize, 0usize);
    let mut swizzles = BTreeSet::new();
    let mut majors = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    let mut layouts = BTreeSet::new();
    for (name, want) in results() {
        let (rs, skip) = runs(&name, want.len(), 0);
        skipped += skip;
        for r in rs {
            let differ: Vec<usize> = (0..want.len()).filter(|&i| r.d[i] != want[i]).collect();
            assert!(
                differ.is_empty(),
                "{name} v{} ({}): {} of {} D values differ, first at {}: {:#x} vs MMA-Sim {:#x}",
                r.v,
                r.line,
                differ.len(),
                want.len(),
                differ[0],
                r.d[differ[0]],
                want[differ[0]]
            );
            runs_n += 1;
            values += want.len();
            swizzles.insert(r.swizzle);
            majors.insert(r.majors);
            kinds.insert(parse(&name).kind.name());
            layouts.insert(r.layout);
        }
    }
    println!(
        "{runs_n} MMAs ({skipped} placements skipped), {values} D values equal to MMA-Sim 2.1.1; kinds {kinds:?}, swizzles {swizzles:?}, (A, B) MN-major {majors:?}, layouts {layouts:?}"
    );
    assert_eq!(kinds.len(), 6);
    assert_eq!(swizzles.len(), 4);
    assert_eq!(majors.len(), 4);
    assert!(runs_n >= 60, "{runs_n}");
}

/// The README's sensitivity figure: the comparison sees where the scale factors are read.
/// Reading the byte next to the SF ID (the instruction descriptor's SF IDs one byte past the
/// bytes written) makes the first block-scaled configuration's first placement differ from
/// MMA-Sim in exactly 2,357 of its 4,096 D values.
#[test]
fn reading_the_scale_byte_next_to_the_sf_id_changes_2357_of_4096_values() {
    let (name, want) = results()
        .into_iter()
        .find(|(n, _)| n.contains(".block"))
        .expect("a block-scaled configuration");
    let (rs, _) = runs(&name, want.len(), 1);
    let r = &rs[0];
    let differ = (0..want.len()).filter(|&i| r.d[i] != want[i]).count();
    println!(
        "{name} v{} with the SF IDs one byte off: {differ} of {} D values differ from MMA-Sim's",
        r.v,
        want.len()
    );
    assert_eq!((differ, want.len()), (2_357, 4_096));
}
