//! The model against our own H100 run (`hw/numerics/`): every Hopper `wgmma` type combination
//! (f16 -> f32 and f16, bf16, tf32, the four e4m3/e5m2 mixes -> f32 and f16, the four s8/u8 mixes
//! with and without `.satfinite`), one `m64n8k*` instruction per block, 32 blocks per
//! configuration and variant: scale-d = 1 with a random C, scale-d = 0, and for the floating
//! types imm-scale-a = -1, imm-scale-b = -1 and corner codes (exponent fields 0..=2). 1,245,184
//! outputs in all, compared bit for bit.
//!
//! The operands are uniform random bit patterns (NaN, Inf, subnormals and -0 included) from
//! splitmix64 streams whose seeds the harness (`hw/numerics/numerics.cu`) and this test derive
//! the same way; the hardware's D values are committed in `hw/numerics/results/wgmma-d.bin.gz`.

mod numerics_common;

use std::io::Read;

use tcgen05::mma::Kind;
use tcgen05::numerics::format::Format;
use tcgen05::numerics::rng::SplitMix64;
use tcgen05::numerics::{Algorithm, Arch, Form, Operands, ParamRow};

/// The same row with the exponent of a zero term moved by `by`.
fn e_zero_moved(row: ParamRow, by: i32) -> ParamRow {
    let mut r = row;
    if let Algorithm::TFdpa { f, l, e_zero, out } = row.algorithm {
        r.algorithm = Algorithm::TFdpa {
            f,
            l,
            e_zero: e_zero + by,
            out,
        };
    }
    r
}

const BLOCKS: usize = 32;

/// (A, B, D, kind, K, integer saturation) of each harness configuration, in its order.
fn configs() -> Vec<(Format, Format, Format, Kind, usize, bool)> {
    use Format::*;
    let mut v = vec![
        (F16, F16, F32, Kind::F16, 16, false),
        (F16, F16, F16, Kind::F16, 16, false),
        (Bf16, Bf16, F32, Kind::F16, 16, false),
        (Tf32, Tf32, F32, Kind::Tf32, 8, false),
    ];
    for d in [F32, F16] {
        for (a, b) in [(E4m3, E4m3), (E4m3, E5m2), (E5m2, E4m3), (E5m2, E5m2)] {
            v.push((a, b, d, Kind::F8f6f4, 32, false));
        }
    }
    for sat in [false, true] {
        for (a, b) in [(S8, S8), (S8, U8), (U8, S8), (U8, U8)] {
            v.push((a, b, S32, Kind::I8, 32, sat));
        }
    }
    v
}

/// The exponent field's lowest bit of a floating-point format (the corner variant's codes).
fn shift(f: Format) -> u32 {
    match f {
        Format::F16 => 10,
        Format::Bf16 => 7,
        Format::Tf32 | Format::F32 => 23,
        Format::E4m3 => 3,
        _ => 2, // e5m2
    }
}

/// A corner code: random sign and fraction, exponent field 0, 1 or 2 (as the harness).
fn corner(r: u64, f: Format) -> u64 {
    let (bits, sh) = (width(f), shift(f));
    let keep = (1u64 << (bits - 1)) | ((1u64 << sh) - 1);
    (r & keep) | (((r >> 40) % 3) << sh)
}

fn width(f: Format) -> u32 {
    match f {
        Format::F16 | Format::Bf16 => 16,
        Format::Tf32 | Format::F32 | Format::S32 => 32,
        _ => 8,
    }
}

#[test]
fn every_h100_wgmma_output_bit_for_bit() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../hw/numerics/results/wgmma-d.bin.gz"
    );
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("committed results"))
        .read_to_end(&mut raw)
        .expect("gzip");
    let hw: Vec<u32> = raw
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut at = 0;
    let mut report = Vec::new();
    let (mut total, mut bad) = (0usize, 0usize);
    let (mut nan, mut inf, mut zero, mut finite, mut wrapped) = (0usize, 0, 0, 0, 0);
    // Corner outputs that a zero exponent 8 binades higher would change: the data bounds the
    // floor from above, loosely (one binade higher changes none of them, and a lower floor none:
    // e_max is a maximum over the terms).
    let mut floor_up = 0usize;
    for (ci, &(a_f, b_f, d_f, kind, k, sat)) in configs().iter().enumerate() {
        let row = Form {
            arch: Arch::Sm90a,
            instruction: None,
            kind,
            a: a_f,
            b: b_f,
            d: Some(d_f),
            scale: None,
            block: None,
        }
        .row()
        .expect("a wgmma row");
        let variants = if kind == Kind::I8 { 2 } else { 5 };
        for v in 0..variants {
            let mut wrong = 0;
            for blk in 0..BLOCKS {
                let seed = ((ci as u64 * 8 + v as u64) << 32) ^ blk as u64 ^ 0x7C6E_5D4C_3B2A_1908;
                let mut r = SplitMix64::new(seed);
                let (wa, wb, wd) = (width(a_f), width(b_f), width(d_f));
                let mask = |w: u32| if w == 32 { u32::MAX } else { (1 << w) - 1 };
                // Variant 4 draws corner codes (exponent field 0..=2) for A, B and C.
                let mut draw = |f: Format, w: u32| {
                    let x = r.next_u64();
                    (if v == 4 { corner(x, f) } else { x }) as u32 & mask(w)
                };
                let mut a: Vec<Vec<u32>> = (0..64)
                    .map(|_| (0..k).map(|_| draw(a_f, wa)).collect())
                    .collect();
                let mut b: Vec<Vec<u32>> = (0..8)
                    .map(|_| (0..k).map(|_| draw(b_f, wb)).collect())
                    .collect();
                let c: Vec<u32> = (0..512).map(|_| draw(d_f, wd)).collect();
                // imm-scale-a/b = -1 negate A or B: their sign bits flip.
                if v == 2 {
                    a.iter_mut().flatten().for_each(|x| *x ^= 1 << (wa - 1));
                }
                if v == 3 {
                    b.iter_mut().flatten().for_each(|x| *x ^= 1 << (wb - 1));
                }
                for m in 0..64 {
                    for n in 0..8 {
                        // scale-d = 0: D = A x B, C not read (given as +0).
                        let cc = if v == 1 { 0 } else { c[m * 8 + n] };
                        let ops = Operands {
                            a: &a[m],
                            b: &b[n],
                            c: cc,
                            sfa: &[],
                            sfb: &[],
                        };
                        let want = row.dot(&ops, sat).expect("valid operands").d_bits;
                        assert_eq!(
                            numerics_common::fast_dot(&row, &ops, sat),
                            want,
                            "fast path"
                        );
                        let got = hw[at + blk * 512 + m * 8 + n];
                        total += 1;
                        match d_f {
                            Format::F32 => match f32::from_bits(got) {
                                x if x.is_nan() => nan += 1,
                                x if x.is_infinite() => inf += 1,
                                0.0 => zero += 1,
                                _ => finite += 1,
                            },
                            Format::F16 => match (got >> 10 & 0x1F, got & 0x3FF) {
                                (0x1F, 0) => inf += 1,
                                (0x1F, _) => nan += 1,
                                (0, 0) => zero += 1,
                                _ => finite += 1,
                            },
                            _ => {
                                let other = row.dot(&ops, !sat).expect("valid operands").d_bits;
                                wrapped += usize::from(other != got);
                            }
                        }
                        if v == 4 {
                            let up = e_zero_moved(row, 8).dot(&ops, sat).expect("valid").d_bits;
                            floor_up += usize::from(up != got);
                        }
                        if want != got {
                            wrong += 1;
                            if wrong <= 3 {
                                report.push(format!(
                                    "config {ci} ({a_f:?} x {b_f:?} -> {d_f:?}, sat {sat}) variant {v} block {blk} D[{m}][{n}]: model {want:#x}, H100 {got:#x}"
                                ));
                            }
                        }
                    }
                }
            }
            at += BLOCKS * 512;
            bad += wrong;
            println!("config {ci:2} ({a_f:?} x {b_f:?} -> {d_f:?}, satfinite {sat}) variant {v}: {} outputs, {wrong} differ", BLOCKS * 512);
        }
    }
    assert_eq!(
        at,
        hw.len(),
        "the committed file holds exactly the harness's outputs"
    );
    // The random bit patterns reach every path in a real share of the outputs.
    println!("D: {nan} NaN, {inf} Inf, {zero} zero, {finite} finite non-zero (floating kinds); {wrapped} integer outputs where .satfinite changes D");
    assert!(nan > total / 20 && inf > total / 20 && zero > 0 && finite > total / 10);
    assert!(wrapped > 0, "no integer output reached saturation");
    println!("corner variant: {floor_up} outputs change with the zero exponent 8 binades higher");
    assert!(
        floor_up > 100,
        "the corner codes do not pin the exponent for zero"
    );
    assert_eq!(total, 1_245_184);
    assert!(
        bad == 0,
        "{bad} of {total} outputs differ:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_comparison_tells_hopper_from_blackwell() {
    // The same e4m3 inputs through the Blackwell row (F = 25) must differ from the Hopper
    // outputs somewhere: the committed data can tell the two accumulators apart.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../hw/numerics/results/wgmma-d.bin.gz"
    );
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("committed results"))
        .read_to_end(&mut raw)
        .expect("gzip");
    let at = (4 * 5) * BLOCKS * 512; // configuration 4 (e4m3 x e4m3 -> f32), variant 0
    let blackwell = Form {
        arch: Arch::Sm100a,
        instruction: None,
        kind: Kind::F8f6f4,
        a: Format::E4m3,
        b: Format::E4m3,
        d: Some(Format::F32),
        scale: None,
        block: None,
    }
    .row()
    .expect("a tcgen05 row");
    let mut differ = 0;
    for blk in 0..BLOCKS {
        let mut r = SplitMix64::new(((4u64 * 8) << 32) ^ blk as u64 ^ 0x7C6E_5D4C_3B2A_1908);
        let a: Vec<Vec<u32>> = (0..64)
            .map(|_| (0..32).map(|_| r.next_u64() as u32 & 0xFF).collect())
            .collect();
        let b: Vec<Vec<u32>> = (0..8)
            .map(|_| (0..32).map(|_| r.next_u64() as u32 & 0xFF).collect())
            .collect();
        let c: Vec<u32> = (0..512).map(|_| r.next_u64() as u32).collect();
        for m in 0..64 {
            for n in 0..8 {
                let i = 4 * (at + blk * 512 + m * 8 + n);
                let got = u32::from_le_bytes([raw[i], raw[i + 1], raw[i + 2], raw[i + 3]]);
                let ops = Operands {
                    a: &a[m],
                    b: &b[n],
                    c: c[m * 8 + n],
                    sfa: &[],
                    sfb: &[],
                };
                differ += usize::from(blackwell.dot(&ops, false).expect("valid").d_bits != got);
            }
        }
    }
    println!(
        "{differ} of {} e4m3 outputs differ under Blackwell's F = 25",
        BLOCKS * 512
    );
    assert!(
        differ > 100,
        "only {differ} outputs tell F = 13 from F = 25"
    );
}
