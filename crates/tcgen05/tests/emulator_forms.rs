//! The emulator forms beyond the dense MMA: `tcgen05.cp` decompression (PTX ISA 9.7.16.9.1).
//!
//! Expected values come from outside the model: the expansions are computed here from the PTX
//! text's definition of the source formats (16 elements of 4 or 6 bits, contiguous from bit 0,
//! then padding), placed in the byte as decision E9 says; the end-to-end cases compare an MMA
//! that reads A decompressed in Tensor Memory with the same MMA reading the same bytes through
//! a shared-memory descriptor (the path proven against MMA-Sim and the H100), and with the
//! all-ones result of NVIDIA's CuTe DSL example `cp_narrow_a_to_tmem_mma.py` (D = K).

#![cfg(feature = "alloc")]
#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // a failed unwrap is a failed test

use tcgen05::emulator::{Machine, TMEM_COLUMNS};
use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
use tcgen05::mma::{ElementType, Kind};
use tcgen05::targets::Target;

/// A no-swizzle K-major descriptor (PTX ISA Table 40): start, LBO, SBO in bytes; bits 46-48 =
/// 0b001.
fn desc(start: u32, lbo: u32, sbo: u32) -> u64 {
    u64::from(start >> 4) | u64::from(lbo >> 4) << 16 | u64::from(sbo >> 4) << 32 | 1 << 46
}

/// The byte address of byte `b` of row `r` in the no-swizzle K-major picture (PTX ISA
/// 9.7.16.3.3): 8 rows x 16 bytes per core matrix, `lbo` along K, `sbo` along rows.
fn addr(start: u32, r: u32, b: u32, lbo: u32, sbo: u32) -> u32 {
    start + (r % 8) * 16 + (r / 8) * sbo + (b % 16) + (b / 16) * lbo
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }
}

/// The 16 bytes of a source chunk for 16 codes of `w` bits (4 or 6): code `e` at bits
/// `w*e .. w*e + w` of the chunk read as a little-endian number (PTX ISA 9.7.16.9.1: "a
/// contiguous set of 16 elements"), then padding filled with `pad`.
fn chunk(codes: &[u8], w: u32, pad: u8) -> [u8; 16] {
    let mut x: u128 = 0;
    for (e, &c) in codes.iter().enumerate() {
        x |= u128::from(c) << (w as usize * e);
    }
    let mut out = x.to_le_bytes();
    for b in out.iter_mut().skip((16 * w / 8) as usize) {
        *b = pad;
    }
    out
}

/// The byte a code becomes (decision E9: the `kind::f8f6f4` container of PTX ISA 9.7.14.5.14,
/// e2m1 at bits 5:2, e3m2 / e2m3 at bits 5:0).
fn holder(code: u8, w: u32) -> u8 {
    if w == 4 {
        code << 2
    } else {
        code
    }
}

/// Writes `rows` rows of `chunks` chunks, row r chunk j holding codes `f(r, 16j + e)`, and
/// returns the codes.
#[allow(clippy::too_many_arguments)] // the source picture's parameters, named
fn fill_source(
    m: &mut Machine,
    rows: u32,
    chunks: u32,
    w: u32,
    lbo: u32,
    sbo: u32,
    f: &mut dyn FnMut(u32, u32) -> u8,
    pad: Option<u8>,
) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    for r in 0..rows {
        let mut row = Vec::new();
        for j in 0..chunks {
            let codes: Vec<u8> = (0..16).map(|e| f(r, 16 * j + e)).collect();
            let bytes = chunk(&codes, w, pad.unwrap_or(0));
            let data = (16 * w / 8) as usize;
            let n = if pad.is_some() { 16 } else { data };
            for (i, &b) in bytes.iter().enumerate().take(n) {
                m.cta_mut(0)
                    .write_smem(addr(0, r, 16 * j + i as u32, lbo, sbo), &[b])
                    .unwrap();
            }
            row.extend(codes);
        }
        all.push(row);
    }
    all
}

fn cell_byte(m: &Machine, lane: u32, column: u32, byte: u32) -> u8 {
    let w = m.cta(0).tmem_cell(lane, column).unwrap().expect("written");
    (w >> (8 * byte)) as u8
}

#[test]
fn cp_b4x16_p64_expands_every_nibble_into_its_byte() {
    for (shape, chunks) in [("128x128b", 1u32), ("128x256b", 2)] {
        for pad in [None, Some(0xFF)] {
            let mut m = Machine::new(Target::Sm100a);
            let (lbo, sbo) = (2048, 128);
            let src = fill_source(
                &mut m,
                128,
                chunks,
                4,
                lbo,
                sbo,
                &mut |r, e| ((r * 3 + e * 5) % 16) as u8,
                pad,
            );
            let line = format!(
                "tcgen05.cp.cta_group::1.{shape}.b8x16.b4x16_p64 [0x00000010], {:#x};",
                desc(0, lbo, sbo)
            );
            let out = m.execute(&line).unwrap();
            assert!(
                out.effect.contains("decompressed from 4-bit"),
                "{}",
                out.effect
            );
            for r in 0..128 {
                for e in 0..16 * chunks {
                    let got = cell_byte(&m, r, 16 + e / 4, e % 4);
                    let want = holder(src[r as usize][e as usize], 4);
                    assert_eq!(got, want, "{shape} lane {r} element {e} pad {pad:?}");
                }
            }
        }
    }
}

#[test]
fn cp_b6x16_p32_expands_every_six_bit_code_into_its_byte() {
    for (shape, chunks) in [("128x128b", 1u32), ("128x256b", 2)] {
        let mut m = Machine::new(Target::Sm100a);
        let (lbo, sbo) = (2048, 128);
        let src = fill_source(
            &mut m,
            128,
            chunks,
            6,
            lbo,
            sbo,
            &mut |r, e| ((r * 7 + e * 13 + 1) % 64) as u8,
            Some(0xA5),
        );
        let line = format!(
            "tcgen05.cp.cta_group::1.{shape}.b8x16.b6x16_p32 [0], {:#x};",
            desc(0, lbo, sbo)
        );
        m.execute(&line).unwrap();
        for r in 0..128 {
            for e in 0..16 * chunks {
                let got = cell_byte(&m, r, e / 4, e % 4);
                assert_eq!(
                    got,
                    holder(src[r as usize][e as usize], 6),
                    "lane {r} element {e}"
                );
            }
        }
    }
}

/// `.32x128b.warpx4`: each of the 32 decompressed rows lands in all four lane quadrants; with
/// `.cta_group::2` in both CTAs.
#[test]
fn cp_decompression_with_multicast_and_two_ctas() {
    let mut m = Machine::new(Target::Sm100a);
    let (lbo, sbo) = (512, 128);
    let src = fill_source(
        &mut m,
        32,
        1,
        4,
        lbo,
        sbo,
        &mut |r, e| ((r + e) % 16) as u8,
        None,
    );
    // The peer's shared memory holds the same bytes.
    for a in 0..512u32 {
        if let Ok(Some(b)) = m.cta(0).smem_byte(a) {
            m.cta_mut(1).write_smem(a, &[b]).unwrap();
        }
    }
    let line = format!(
        "tcgen05.cp.cta_group::2.32x128b.warpx4.b8x16.b4x16_p64 [0], {:#x};",
        desc(0, lbo, sbo)
    );
    m.execute(&line).unwrap();
    for cta in 0..2 {
        for r in 0..32u32 {
            for q in 0..4 {
                for e in 0..16u32 {
                    let w = m.cta(cta).tmem_cell(r + 32 * q, e / 4).unwrap().unwrap();
                    let got = (w >> (8 * (e % 4))) as u8;
                    assert_eq!(got, holder(src[r as usize][e as usize], 4));
                }
            }
        }
    }
}

/// A decompressing copy that fails (a data byte never written) changes nothing.
#[test]
fn cp_decompression_reads_data_bytes_and_changes_nothing_on_error() {
    let mut m = Machine::new(Target::Sm100a);
    let (lbo, sbo) = (2048, 128);
    fill_source(&mut m, 127, 1, 6, lbo, sbo, &mut |_, _| 1, None);
    let line = format!(
        "tcgen05.cp.cta_group::1.128x128b.b8x16.b6x16_p32 [0], {:#x};",
        desc(0, lbo, sbo)
    );
    let e = m.execute(&line).unwrap_err();
    assert!(format!("{e}").contains("never written"), "{e}");
    assert!((0..TMEM_COLUMNS).all(|c| m.cta(0).tmem_cell(0, c).unwrap().is_none()));
}

fn f8f6f4_idesc(a: ElementType) -> u32 {
    let f = IdescFields::new(
        Kind::F8f6f4,
        ElementType::F32,
        a,
        ElementType::E4m3,
        128,
        64,
    );
    InstructionDescriptor::new(f).bits()
}

/// For e2m1, e3m2 and e2m3 A: D of `kind::f8f6f4` with A read through a shared-memory
/// descriptor (the path checked against MMA-Sim and the H100) equals, bit for bit, D of the
/// same MMA with A copied by a decompressing `tcgen05.cp` from the same bytes and read from
/// Tensor Memory.
#[test]
fn mma_on_decompressed_a_equals_mma_on_shared_a() {
    for (a_type, w, fmt) in [
        (ElementType::E2m1, 4u32, "b4x16_p64"),
        (ElementType::E3m2, 6, "b6x16_p32"),
        (ElementType::E2m3, 6, "b6x16_p32"),
    ] {
        for seed in 1..4u64 {
            let mut rng = Lcg(seed * 77 + u64::from(w));
            let mut m = Machine::new(Target::Sm100a);
            // A: 128 x 32 at 0x0 (two 16-element chunks a row), B: 64 x 32 e4m3 at 0x2000.
            let (lbo, sbo) = (2048, 128);
            fill_source(
                &mut m,
                128,
                2,
                w,
                lbo,
                sbo,
                &mut |_, _| (rng.next() % (1 << w)) as u8,
                Some(0x5A),
            );
            for r in 0..64 {
                for b in 0..32 {
                    let mut c = (rng.next() % 256) as u8;
                    if c & 0x7F == 0x7F {
                        c = 0x38; // not the e4m3 NaN
                    }
                    m.cta_mut(0)
                        .write_smem(addr(0x2000, r, b, 1024, 128), &[c])
                        .unwrap();
                }
            }
            let (a, b, idesc) = (
                desc(0, lbo, sbo),
                desc(0x2000, 1024, 128),
                f8f6f4_idesc(a_type),
            );
            m.execute(&format!(
                "tcgen05.mma.cta_group::1.kind::f8f6f4 [0], {a:#x}, {b:#x}, {idesc:#x}, 0;"
            ))
            .unwrap();
            let from_smem = m.last_d().unwrap().unwrap();
            m.execute(&format!(
                "tcgen05.cp.cta_group::1.128x256b.b8x16.{fmt} [0x00000080], {a:#x};"
            ))
            .unwrap();
            m.execute(&format!(
                "tcgen05.mma.cta_group::1.kind::f8f6f4 [0x00000100], [0x00000080], {b:#x}, {idesc:#x}, 0;"
            ))
            .unwrap();
            let from_tmem = m.last_d().unwrap().unwrap();
            assert_eq!(from_smem.codes.len(), 128 * 64);
            let differ = from_smem
                .codes
                .iter()
                .zip(&from_tmem.codes)
                .filter(|(x, y)| x != y)
                .count();
            assert_eq!(differ, 0, "{a_type:?} seed {seed}: {differ} of 8192 differ");
        }
    }
}

/// NVIDIA's CuTe DSL example `cp_narrow_a_to_tmem_mma.py` copies all-ones FP4 (code 0x2) and
/// FP6 E3M2 (code 0x0C) A to Tensor Memory with the decompressing copy and multiplies it by
/// all-ones e4m3 B; its reference is D = K everywhere. Here K = 32.
#[test]
fn all_ones_through_the_decompressing_copy_give_k() {
    for (a_type, w, fmt, one) in [
        (ElementType::E2m1, 4u32, "b4x16_p64", 0x2u8),
        (ElementType::E3m2, 6, "b6x16_p32", 0x0C),
    ] {
        let mut m = Machine::new(Target::Sm100a);
        let (lbo, sbo) = (2048, 128);
        fill_source(&mut m, 128, 2, w, lbo, sbo, &mut |_, _| one, None);
        let ones = [0x38u8; 2048];
        m.cta_mut(0).write_smem(0x2000, &ones).unwrap();
        let (a, b, idesc) = (
            desc(0, lbo, sbo),
            desc(0x2000, 1024, 128),
            f8f6f4_idesc(a_type),
        );
        m.execute(&format!(
            "tcgen05.cp.cta_group::1.128x256b.b8x16.{fmt} [0x00000080], {a:#x};"
        ))
        .unwrap();
        m.execute(&format!(
            "tcgen05.mma.cta_group::1.kind::f8f6f4 [0], [0x00000080], {b:#x}, {idesc:#x}, 0;"
        ))
        .unwrap();
        let d = m.last_d().unwrap().unwrap();
        assert!(
            d.codes.iter().all(|&c| f32::from_bits(c) == 32.0),
            "{a_type:?}: D[0][0] = {}",
            f32::from_bits(d.codes[0])
        );
    }
}

/// A 4-bit element of A in Tensor Memory whose container has a bit outside bits 5:2 set is a
/// typed error, and the MMA changes nothing.
#[test]
fn a_container_with_padding_bits_is_refused() {
    let mut m = Machine::new(Target::Sm100a);
    for lane in 0..128 {
        for col in 0..8 {
            // 1.0 (0x08) in every container, but lane 5 column 3 byte 1 has bit 0 set.
            let w = if lane == 5 && col == 3 {
                0x0808_0908
            } else {
                0x0808_0808
            };
            m.cta_mut(0).write_tmem(lane, 0x80 + col, w).unwrap();
        }
    }
    m.cta_mut(0).write_smem(0x2000, &[0x38u8; 2048]).unwrap();
    let idesc = f8f6f4_idesc(ElementType::E2m1);
    let e = m
        .execute(&format!(
            "tcgen05.mma.cta_group::1.kind::f8f6f4 [0], [0x00000080], {:#x}, {idesc:#x}, 0;",
            desc(0x2000, 1024, 128)
        ))
        .unwrap_err();
    assert!(format!("{e}").contains("container"), "{e}");
    assert!(m.cta(0).tmem_cell(0, 0).unwrap().is_none());
    assert!(m.last_mma().is_none());
}

// ---------------------------------------------------------------------------------------------
// `.sp` (PTX ISA 9.7.16.10.8; decision E10).

/// Writes element `(r, kk)` of `bits` bits (`t` elements per 16-byte chunk) of a K-major,
/// no-swizzle matrix at `start` (PTX ISA 9.7.16.3.3's picture: 8 rows x 16 bytes per core
/// matrix, chunks along K `lbo` apart, 8-row groups `sbo` apart).
/// `shape` = (bits, t, lbo, sbo).
fn put(
    m: &mut Machine,
    cta: usize,
    start: u32,
    r: u32,
    kk: u32,
    code: u32,
    shape: (u32, u32, u32, u32),
) {
    let (bits, t, lbo, sbo) = shape;
    let bit = (kk % t) * bits;
    let a = start + (r % 8) * 16 + (r / 8) * sbo + (kk / t) * lbo + bit / 8;
    if bits >= 8 {
        m.cta_mut(cta)
            .write_smem(a, &code.to_le_bytes()[..(bits / 8) as usize])
            .unwrap();
    } else {
        let old = m.cta(cta).smem_byte(a).unwrap().unwrap_or(0);
        let mask = ((1u32 << bits) - 1) << (bit % 8);
        let new = (u32::from(old) & !mask) | ((code << (bit % 8)) & mask);
        m.cta_mut(cta).write_smem(a, &[new as u8]).unwrap();
    }
}

/// Where metadata stream bit `t` of row `row` lives, written here from CUTLASS's `tmem_e_frg`
/// (M = 128): 32-bit streams (f16, tf32) interleave 8-row groups over lanes and 16-bit halves;
/// 64-bit streams (8-bit kinds, mxf4) are one lane per row, two columns.
fn meta_loc(stream32: bool, row: u32, t: u32) -> (u32, u32, u32) {
    if stream32 {
        let lane = row % 8 + 16 * (row / 16) + 8 * (t / 16);
        (lane, 0, t % 16 + 16 * ((row / 8) % 2))
    } else {
        (row, t / 32, t % 32)
    }
}

struct SpCase {
    name: &'static str,
    kind: Kind,
    a: ElementType,
    b: ElementType,
    d: ElementType,
    /// Dense K of the kind (stored elements of A per row); logical K is twice that.
    k: u32,
    bits: u32,
    /// Elements per 16-byte chunk in shared memory.
    t: u32,
    /// Codes to draw A and B from (exact small values: every sum is exact).
    pool: &'static [u32],
    /// ".block_scale" forms: the scale-vector qualifier.
    scaled: Option<&'static str>,
}

const F16_POOL: &[u32] = &[0x0000, 0x3C00, 0x4000, 0x4200, 0xBC00, 0xC000, 0x3800];
const TF32_POOL: &[u32] = &[
    0,
    0x3F80_0000,
    0x4000_0000,
    0x4040_0000,
    0xBF80_0000,
    0xC000_0000,
];
const E4M3_POOL: &[u32] = &[0x00, 0x38, 0x40, 0x44, 0x30, 0xB8, 0xC0];
const E2M1_POOL: &[u32] = &[0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15];

fn sp_cases() -> Vec<SpCase> {
    let s8: Vec<u32> = (0..256).collect();
    let s8: &'static [u32] = Box::leak(s8.into_boxed_slice());
    vec![
        SpCase {
            name: "i8",
            kind: Kind::I8,
            a: ElementType::S8,
            b: ElementType::S8,
            d: ElementType::S32,
            k: 32,
            bits: 8,
            t: 16,
            pool: s8,
            scaled: None,
        },
        SpCase {
            name: "f16",
            kind: Kind::F16,
            a: ElementType::F16,
            b: ElementType::F16,
            d: ElementType::F32,
            k: 16,
            bits: 16,
            t: 8,
            pool: F16_POOL,
            scaled: None,
        },
        SpCase {
            name: "tf32",
            kind: Kind::Tf32,
            a: ElementType::Tf32,
            b: ElementType::Tf32,
            d: ElementType::F32,
            k: 8,
            bits: 32,
            t: 4,
            pool: TF32_POOL,
            scaled: None,
        },
        SpCase {
            name: "f8f6f4 e4m3",
            kind: Kind::F8f6f4,
            a: ElementType::E4m3,
            b: ElementType::E4m3,
            d: ElementType::F32,
            k: 32,
            bits: 8,
            t: 16,
            pool: E4M3_POOL,
            scaled: None,
        },
        SpCase {
            name: "f8f6f4 e2m1",
            kind: Kind::F8f6f4,
            a: ElementType::E2m1,
            b: ElementType::E2m1,
            d: ElementType::F32,
            k: 32,
            bits: 4,
            t: 16,
            pool: E2M1_POOL,
            scaled: None,
        },
        SpCase {
            name: "mxf8f6f4 e4m3",
            kind: Kind::Mxf8f6f4,
            a: ElementType::E4m3,
            b: ElementType::E4m3,
            d: ElementType::F32,
            k: 32,
            bits: 8,
            t: 16,
            pool: E4M3_POOL,
            scaled: Some("scale_vec::1X"),
        },
        SpCase {
            name: "mxf4",
            kind: Kind::Mxf4,
            a: ElementType::E2m1,
            b: ElementType::E2m1,
            d: ElementType::F32,
            k: 64,
            bits: 4,
            t: 32,
            pool: E2M1_POOL,
            scaled: Some("scale_vec::2X"),
        },
        SpCase {
            name: "mxf4nvf4",
            kind: Kind::Mxf4nvf4,
            a: ElementType::E2m1,
            b: ElementType::E2m1,
            d: ElementType::F32,
            k: 64,
            bits: 4,
            t: 32,
            pool: E2M1_POOL,
            scaled: Some("scale_vec::2X"),
        },
    ]
}

const PAIRS: [u32; 7] = [0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110];

/// The logical positions in its chunk of each stored element, read from the PTX text: two
/// 2-bit indices, bits 1:0 the first (9.7.16.10.8.2); for mxf4 the indices of 2-wide pairs
/// (9.7.16.10.8.3); for tf32 0b0100 = position 0, 0b1110 = position 1 (9.7.16.10.8.1).
fn expand(kind: Kind, v: u32) -> Vec<u32> {
    let (i0, i1) = (v & 3, v >> 2 & 3);
    match kind {
        Kind::Tf32 => vec![if v == 0b0100 { 0 } else { 1 }],
        Kind::Mxf4 | Kind::Mxf4nvf4 => vec![2 * i0, 2 * i0 + 1, 2 * i1, 2 * i1 + 1],
        _ => vec![i0, i1],
    }
}

/// Runs one sparse case: a random 2:4 (1:2, 4:8) A, its metadata written where E10 says, the
/// sparse MMA; then the dense MMA of the same kind on the decompressed A, as two MMAs over the
/// two halves of K accumulating with `enable-input-d`. `wrong_lane` moves every metadata value
/// one lane down (the test must then fail).
fn run_sp(c: &SpCase, seed: u64, wrong_layout: bool) -> (Vec<u32>, Vec<u32>) {
    run_sp_on(c, seed, wrong_layout, 1)
}

fn run_sp_on(c: &SpCase, seed: u64, wrong_layout: bool, ctas: u32) -> (Vec<u32>, Vec<u32>) {
    run_sp_with(c, seed, wrong_layout, ctas, "", false)
}

/// As [`run_sp`], with `ctas` = 2 for M = 256 with `.cta_group::2`: each CTA holds its 128
/// rows of A, half of B's columns and its rows' metadata, at the same addresses.
/// `ws` is "" or ".ws"; `a_tmem` copies the compressed A to Tensor Memory (column 0x140) with
/// `tcgen05.cp` (decompressing 4-bit f8f6f4 A) and has the sparse MMA read it from there.
fn run_sp_with(
    c: &SpCase,
    seed: u64,
    wrong_layout: bool,
    ctas: u32,
    ws: &str,
    a_tmem: bool,
) -> (Vec<u32>, Vec<u32>) {
    let (rows, n) = (128 * ctas, 64u32);
    let n_per = n / ctas;
    let kl = 2 * c.k; // logical K
    let mut rng = Lcg(seed);
    let mut m = Machine::new(Target::Sm100a);
    let pick = |rng: &mut Lcg| c.pool[(rng.next() as usize) % c.pool.len()];
    let (chunk, stored) = match c.kind {
        Kind::Tf32 => (2, 1),
        Kind::Mxf4 | Kind::Mxf4nvf4 => (8, 4),
        _ => (4, 2),
    };
    // A compressed (rows x k), A decompressed (rows x kl), metadata values (rows x kl/chunk).
    let mut a_c = vec![0u32; (rows * c.k) as usize];
    let mut a_d = vec![0u32; (rows * kl) as usize];
    let mut meta = vec![0u32; (rows * kl / chunk) as usize];
    for r in 0..rows {
        for q in 0..kl / chunk {
            let v = if c.kind == Kind::Tf32 {
                [0b0100, 0b1110][(rng.next() % 2) as usize]
            } else {
                PAIRS[(rng.next() % 7) as usize]
            };
            meta[(r * (kl / chunk) + q) as usize] = v;
            for (j, p) in expand(c.kind, v).into_iter().enumerate() {
                let code = pick(&mut rng);
                a_c[(r * c.k + q * stored + j as u32) as usize] = code;
                a_d[(r * kl + q * chunk + p) as usize] = code;
            }
        }
    }
    let b: Vec<u32> = (0..n * kl).map(|_| pick(&mut rng)).collect();
    // Shared memory: compressed A at 0x0, B (n x kl) at 0x8000, the decompressed halves of A
    // at 0x10000 and 0x18000. Chunks along K are 0x1000 apart, 8-row groups 128 bytes.
    let (lbo, sbo) = (0x1000, 128);
    for r in 0..rows {
        let (cta, rr) = ((r / 128) as usize, r % 128);
        for kk in 0..c.k {
            let code = a_c[(r * c.k + kk) as usize];
            put(&mut m, cta, 0, rr, kk, code, (c.bits, c.t, lbo, sbo));
            for h in 0..2 {
                let code = a_d[(r * kl + h * c.k + kk) as usize];
                put(
                    &mut m,
                    cta,
                    0x10000 + h * 0x8000,
                    rr,
                    kk,
                    code,
                    (c.bits, c.t, lbo, sbo),
                );
            }
        }
    }
    for col in 0..n {
        let (cta, cc) = ((col / n_per) as usize, col % n_per);
        for kk in 0..kl {
            let code = b[(col * kl + kk) as usize];
            put(&mut m, cta, 0x8000, cc, kk, code, (c.bits, c.t, lbo, sbo));
        }
    }
    // Metadata at column 0x100, as E10 places it.
    let stream32 = matches!(c.kind, Kind::F16 | Kind::Tf32);
    let mut cells = std::collections::BTreeMap::<(usize, u32, u32), u32>::new();
    for r in 0..rows {
        for q in 0..kl / chunk {
            let (mut lane, col, bit) = meta_loc(stream32, r % 128, 4 * q);
            if wrong_layout {
                // Every value one lane down; the lane that would be left empty gets lane
                // 127's values (a rotation, so every cell holds meaningful values).
                lane = (lane + 1) % 128;
            }
            *cells.entry(((r / 128) as usize, lane, col)).or_insert(0) |=
                meta[(r * (kl / chunk) + q) as usize] << bit;
        }
    }
    for ((cta, lane, col), w) in cells {
        m.cta_mut(cta).write_tmem(lane, 0x100 + col, w).unwrap();
    }
    // Scale factors 1.0 (ue8m0 0x7F) in every byte of columns 0x180.. for the scaled kinds.
    if c.scaled.is_some() {
        for cta in 0..ctas as usize {
            for lane in 0..128 {
                for col in 0..16 {
                    m.cta_mut(cta)
                        .write_tmem(lane, 0x180 + col, 0x7F7F_7F7F)
                        .unwrap();
                }
            }
        }
    }
    let mut f = IdescFields::new(c.kind, c.d, c.a, c.b, rows as u16, n as u16);
    if c.scaled.is_some() {
        f = f.with_scale(tcgen05::mma::ScaleType::Ue8m0, 0, 0);
    }
    let dense = InstructionDescriptor::new(f).bits();
    let sparse = InstructionDescriptor::new(f.with_sparse(true, 0)).bits();
    let (qual, scales) = match c.scaled {
        Some(v) => (format!(".block_scale.{v}"), ", [0x00000180], [0x00000188]"),
        None => (String::new(), ""),
    };
    let kind = c.kind.name();
    let bd = |start: u32| desc(start, lbo, sbo);
    let a_operand = if a_tmem {
        let fmt = if c.bits == 4 && c.t == 16 {
            ".b8x16.b4x16_p64"
        } else {
            ""
        };
        m.execute(&format!(
            "tcgen05.cp.cta_group::{ctas}.128x256b{fmt} [0x00000140], {:#x};",
            bd(0)
        ))
        .unwrap();
        "[0x00000140]".to_string()
    } else {
        format!("{:#x}", bd(0))
    };
    m.execute(&format!(
        "tcgen05.mma{ws}.sp.cta_group::{ctas}.kind::{kind}{qual} [0], {a_operand}, {:#x}, [0x00000100], {sparse:#x}{scales}, 0;",
        bd(0x8000)
    ))
    .unwrap();
    let sp = m.last_d().unwrap().unwrap().codes;
    // The second half of B starts k / t chunks further along K.
    let half = (c.k / c.t) * lbo;
    m.execute(&format!(
        "tcgen05.mma{ws}.cta_group::{ctas}.kind::{kind}{qual} [0x00000040], {:#x}, {:#x}, {dense:#x}{scales}, 0;",
        bd(0x10000),
        bd(0x8000)
    ))
    .unwrap();
    m.execute(&format!(
        "tcgen05.mma{ws}.cta_group::{ctas}.kind::{kind}{qual} [0x00000040], {:#x}, {:#x}, {dense:#x}{scales}, 1;",
        bd(0x18000),
        bd(0x8000 + half)
    ))
    .unwrap();
    let de = m.last_d().unwrap().unwrap().codes;
    (sp, de)
}

/// For every kind that allows `.sp`: the sparse MMA on compressed A with its metadata equals
/// the dense MMA on the decompressed A (two dense MMAs over the halves of K, accumulating;
/// the values are small enough that every sum is exact, and `kind::i8` is exact anyway).
#[test]
fn sparse_mma_equals_dense_mma_on_the_decompressed_a() {
    for c in sp_cases() {
        for seed in 1..3 {
            let (sp, de) = run_sp(&c, seed * 1000 + u64::from(c.k), false);
            let differ = sp.iter().zip(&de).filter(|(x, y)| x != y).count();
            assert_eq!(
                differ,
                0,
                "{} seed {seed}: {differ} of {} differ",
                c.name,
                sp.len()
            );
            assert!(sp.iter().any(|&x| x != 0), "{}: all zero", c.name);
        }
    }
}

/// `.ws` (M = 128, the same metadata layout) for the kinds `.ws` takes, and sparse A read from
/// Tensor Memory after a `tcgen05.cp` for every kind: both equal the dense MMA.
#[test]
fn sparse_ws_and_sparse_a_in_tensor_memory_equal_dense_mma() {
    for c in sp_cases() {
        let mut runs = vec![("", true)];
        if c.scaled.is_none() {
            runs.push((".ws", false));
        }
        for (ws, a_tmem) in runs {
            let (sp, de) = run_sp_with(&c, 5, false, 1, ws, a_tmem);
            let differ = sp.iter().zip(&de).filter(|(x, y)| x != y).count();
            assert_eq!(
                differ, 0,
                "{} {ws} a_tmem {a_tmem}: {differ} differ",
                c.name
            );
        }
    }
}

/// M = 256 with `.cta_group::2`: every CTA reads its rows' metadata at the same address.
#[test]
fn sparse_mma_with_two_ctas_equals_dense_mma() {
    for c in sp_cases() {
        let (sp, de) = run_sp_on(&c, 11, false, 2);
        assert_eq!(sp.len(), 256 * 64);
        let differ = sp.iter().zip(&de).filter(|(x, y)| x != y).count();
        assert_eq!(differ, 0, "{}: {differ} differ", c.name);
    }
}

/// The same cases with every metadata value written one lane off: D differs (or a value is
/// read where none was written), so the test above can fail.
#[test]
fn sparse_mma_with_metadata_one_lane_off_differs() {
    for c in sp_cases() {
        let (sp, de) = run_sp(&c, 7, true);
        let differ = sp.iter().zip(&de).filter(|(x, y)| x != y).count();
        println!("{}: {differ} of {} D values differ", c.name, sp.len());
        assert!(
            differ > 0,
            "{}: a wrong metadata layout went unnoticed",
            c.name
        );
    }
}

fn i8_sparse_machine(meta_word: u32) -> (Machine, String) {
    let mut m = Machine::new(Target::Sm100a);
    m.set_random_inputs(3);
    for lane in 0..128 {
        for col in 0..2 {
            m.cta_mut(0)
                .write_tmem(lane, 0x100 + col, 0x4444_4444)
                .unwrap();
        }
    }
    m.cta_mut(0).write_tmem(9, 0x101, meta_word).unwrap();
    let f = IdescFields::new(
        Kind::I8,
        ElementType::S32,
        ElementType::S8,
        ElementType::S8,
        128,
        64,
    )
    .with_sparse(true, 0);
    let line = format!(
        "tcgen05.mma.sp.cta_group::1.kind::i8 [0], {:#x}, {:#x}, [0x00000100], {:#x}, 0;",
        desc(0, 0x1000, 128),
        desc(0x8000, 0x1000, 128),
        InstructionDescriptor::new(f).bits()
    );
    (m, line)
}

/// A metadata value the text does not call meaningful (here 0b0101: both indices 1) is a
/// typed error naming the cell, and the MMA changes nothing.
#[test]
fn sparse_metadata_value_not_meaningful_is_refused() {
    let (mut m, line) = i8_sparse_machine(0x4444_4544);
    let e = m.execute(&line).unwrap_err();
    assert_eq!(
        e.problems[0].rule,
        tcgen05::emulator::Rule::Emu(tcgen05::emulator::EmuRule::SparseMetadata),
        "{e}"
    );
    assert_eq!(e.problems[0].value, 9 << 24 | 0x101 << 8 | 0b0101);
    assert!(m.cta(0).tmem_cell(0, 0).unwrap().is_none());
    assert!(m.last_mma().is_none());
    // Every meaningful value passes.
    let (mut m, line) = i8_sparse_machine(0x4689_CDE4);
    m.execute(&line).unwrap();
}

/// The sparse forms whose metadata layout is drawn only as a picture are refused by name.
#[test]
fn sparse_forms_without_a_known_layout_are_refused() {
    let mut m = Machine::new(Target::Sm100a);
    m.set_random_inputs(1);
    for (f, what) in [
        (
            IdescFields::new(
                Kind::F16,
                ElementType::F32,
                ElementType::F16,
                ElementType::F16,
                64,
                64,
            )
            .with_sparse(true, 0),
            "M / cta_group",
        ),
        (
            IdescFields::new(
                Kind::F16,
                ElementType::F32,
                ElementType::F16,
                ElementType::F16,
                128,
                64,
            )
            .with_sparse(true, 2),
            "sparsity selector",
        ),
    ] {
        let line = format!(
            "tcgen05.mma.sp.cta_group::1.kind::f16 [0], {:#x}, {:#x}, [0x00000100], {:#x}, 0;",
            desc(0, 0x1000, 128),
            desc(0x8000, 0x1000, 128),
            InstructionDescriptor::new(f).bits()
        );
        let e = m.execute(&line).unwrap_err();
        assert!(format!("{e}").contains(what), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// `.ashift` (PTX ISA 9.7.16.10.9.1; decision E11).

/// A machine with bf16 A (128 x 16, random small integers) in Tensor Memory at column 0x80
/// (layout D: row r in lane r, two elements a cell) and B (64 x 16, random small integers) in
/// shared memory, so that every D value is exact.
fn ashift_machine(seed: u64) -> Machine {
    let mut m = Machine::new(Target::Sm100a);
    let mut rng = Lcg(seed);
    let bf16 = |v: i32| -> u32 { (v as f32).to_bits() >> 16 };
    for lane in 0..128 {
        for col in 0..8 {
            let lo = bf16((rng.next() % 9) as i32 - 4);
            let hi = bf16((rng.next() % 9) as i32 - 4);
            m.cta_mut(0)
                .write_tmem(lane, 0x80 + col, lo | hi << 16)
                .unwrap();
        }
    }
    for r in 0..64 {
        for kk in 0..16 {
            let code = bf16((rng.next() % 7) as i32 - 3);
            put(&mut m, 0, 0x1000, r, kk, code, (16, 8, 2048, 128));
        }
    }
    m
}

fn ashift_line(ashift: bool) -> String {
    format!(
        "tcgen05.mma.cta_group::1.kind::f16{} [0], [0x00000080], {:#x}, 0x08100490, 0;",
        if ashift { ".ashift" } else { "" },
        desc(0x1000, 2048, 128)
    )
}

/// E11: with `.ashift` the MMA's row i is the unshifted MMA's row i + 1, except the last row of
/// each 32-lane subpartition (31, 63, 95, 127), which keeps its own; the shift stays in Tensor
/// Memory, so a second `.ashift` MMA moves the rows once more; each warns that the reading is
/// a decision.
#[test]
fn ashift_moves_the_rows_of_a_within_each_subpartition() {
    for seed in 1..4 {
        let mut plain = ashift_machine(seed);
        plain.execute(&ashift_line(false)).unwrap();
        let d0 = plain.last_d().unwrap().unwrap().codes;
        let mut m = ashift_machine(seed);
        let before: Vec<Option<u32>> = (0..128)
            .map(|l| m.cta(0).tmem_cell(l, 0x83).unwrap())
            .collect();
        let out = m.execute(&ashift_line(true)).unwrap();
        assert_eq!(
            out.warnings[0].rule,
            tcgen05::emulator::Rule::Emu(tcgen05::emulator::EmuRule::AshiftReading)
        );
        let d1 = m.last_d().unwrap().unwrap().codes;
        let row = |d: &[u32], r: u32| d[(r * 64) as usize..(r * 64 + 64) as usize].to_vec();
        for r in 0..128 {
            let src = if r % 32 == 31 { r } else { r + 1 };
            assert_eq!(row(&d1, r), row(&d0, src), "seed {seed} row {r}");
            assert_eq!(m.cta(0).tmem_cell(r, 0x83).unwrap(), before[src as usize]);
        }
        m.execute(&ashift_line(true)).unwrap();
        let d2 = m.last_d().unwrap().unwrap().codes;
        for r in 0..128 {
            let src = if r % 32 >= 30 { r - r % 32 + 31 } else { r + 2 };
            assert_eq!(
                row(&d2, r),
                row(&d0, src),
                "seed {seed} second shift, row {r}"
            );
        }
    }
}

/// `.ashift` with A in shared memory is refused by the form check (PTX ISA 9.7.16.10.9.1), and
/// changes nothing.
#[test]
fn ashift_with_a_in_shared_memory_is_refused() {
    let mut m = ashift_machine(1);
    let line = format!(
        "tcgen05.mma.cta_group::1.kind::f16.ashift [0], {:#x}, {:#x}, 0x08100490, 0;",
        desc(0x1000, 2048, 128),
        desc(0x1000, 2048, 128)
    );
    let e = m.execute(&line).unwrap_err();
    assert!(format!("{e}").contains("Tensor Memory"), "{e}");
    assert!(m.cta(0).tmem_cell(0, 0).unwrap().is_none());
}

/// An `.ashift` MMA that fails (B never written) leaves A unshifted: the instruction either
/// completes or changes nothing.
#[test]
fn failed_ashift_mma_leaves_a_unshifted() {
    let mut m = Machine::new(Target::Sm100a);
    for lane in 0..128 {
        for col in 0..8 {
            m.cta_mut(0)
                .write_tmem(lane, 0x80 + col, lane * 8 + col)
                .unwrap();
        }
    }
    let e = m.execute(&ashift_line(true)).unwrap_err();
    assert!(format!("{e}").contains("never written"), "{e}");
    for lane in 0..128 {
        assert_eq!(m.cta(0).tmem_cell(lane, 0x80).unwrap(), Some(lane * 8));
    }
}
