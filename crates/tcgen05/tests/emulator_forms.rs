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
