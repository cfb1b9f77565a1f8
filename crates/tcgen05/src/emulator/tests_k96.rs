//! The K = 96 block-scaled MMAs of `sm_103a` against the PTX text: operands placed in shared
//! memory by the text's pictures (written here, not through the model), scale factors placed in
//! Tensor Memory by ruling T3 (written here from its words, not through `SfLayout`), and D
//! compared with (1) the numerics module's reference algorithm (`ParamRow::dot`, not the fast
//! path the emulator runs) over 96 products, and (2) on small operands, the text's plain sum
//! `D = sum_k A B scale_A scale_B` in `f64`.

#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // a failed unwrap is a failed test

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::random::Random;
use super::{Cta, Machine};
use crate::mma::Kind;
use crate::numerics::fdpa::{Algorithm, Operands};
use crate::numerics::params::{Arch, Form, Instruction as NumInstruction, ParamRow};
use crate::numerics::rng::SplitMix64;
use crate::numerics::Format;
use crate::targets::Target;

const M: u32 = 256;
const K: u32 = 96;
/// Scale-factor Tensor Memory columns.
const SFA_COL: u32 = 256;
const SFB_COL: u32 = 288;

/// Table 44 (PTX ISA 9.7.16.4.2): E2M1 A and B (codes 1), N >> 3 at 17-22, scale type at 23
/// (UE8M0 = 1, UE4M3 = 0), M >> 7 at 27-28, SFA_ID at 29-30, SFB_ID at 4-5, K = 96 at bit 31.
fn idesc(n: u32, ue8m0: bool, sfa_id: u32, sfb_id: u32) -> u32 {
    1 << 7
        | 1 << 10
        | (n >> 3) << 17
        | u32::from(ue8m0) << 23
        | (M >> 7) << 27
        | sfa_id << 29
        | sfb_id << 4
        | 1 << 31
}

/// The operands of one K = 96 MMA: A M x 96, B N x 96 (E2M1 codes), scale codes per (row,
/// block) and (column, block).
struct Ops {
    n: u32,
    blocks: u32,
    a: Vec<u32>,
    b: Vec<u32>,
    sfa: Vec<u32>,
    sfb: Vec<u32>,
}

fn random_ops(seed: u64, n: u32, blocks: u32, sf: Format) -> Ops {
    let mut rng = SplitMix64::new(seed);
    let mut r = Random::new(rng.next_u64());
    let mut codes = |count: u32, f: Format| (0..count).map(|_| r.code(f)).collect::<Vec<u32>>();
    Ops {
        n,
        blocks,
        a: codes(M * K, Format::E2m1),
        b: codes(n * K, Format::E2m1),
        sfa: codes(M * blocks, sf),
        sfb: codes(n * blocks, sf),
    }
}

/// Writes `rows` x 96 E2M1 codes into `cta`'s shared memory: byte `kb` (0-47) of row `r` at
/// `addr(r, kb)`, element `2i` in the low nibble (rules.md D5).
fn place(cta: &mut Cta, codes: &[u32], rows: u32, addr: impl Fn(u32, u32) -> u32) {
    for r in 0..rows {
        for kb in 0..K / 2 {
            let i = (r * K + 2 * kb) as usize;
            let byte = (codes[i] & 0xF) | (codes[i + 1] & 0xF) << 4;
            cta.write_smem(addr(r, kb), &[byte as u8]).unwrap();
        }
    }
}

/// Sets byte `byte` of a Tensor Memory cell, keeping the others.
fn set_byte(cta: &mut Cta, lane: u32, col: u32, byte: u32, v: u32) {
    let old = cta.tmem_cell(lane, col).unwrap().unwrap_or(0);
    let w = old & !(0xFF << (8 * byte)) | (v & 0xFF) << (8 * byte);
    cta.write_tmem(lane, col, w).unwrap();
}

/// Ruling T3, from its words: K block `s` of index `i` (a row of A in its CTA, a column of B)
/// is byte `(id + s) % 4` of column `i / 32 + ((id + s) / 4) * group` at lane `i % 32` of each
/// 32-lane partition; a group is 4 columns per 128 rows or columns.
fn place_scales(m: &mut Machine, o: &Ops, sfa_id: u32, sfb_id: u32) {
    // Noise in every byte the scale factors might occupy, so a misplaced read differs.
    let mut noise = Random::new(99);
    for c in 0..2 {
        for lane in 0..128 {
            for col in SFA_COL..SFB_COL + 32 {
                let w = (0..4).fold(0, |w, i| w | (noise.code(Format::Ue8m0) & 0x7F) << (8 * i));
                m.cta_mut(c).write_tmem(lane, col, w).unwrap();
            }
        }
    }
    let group_a = 4;
    let group_b = 4 * o.n.div_ceil(128);
    for row in 0..M {
        let (cta, i) = ((row / 128) as usize, row % 128);
        for s in 0..o.blocks {
            let b = sfa_id + s;
            let col = SFA_COL + i / 32 + (b / 4) * group_a;
            for q in 0..4 {
                let v = o.sfa[(row * o.blocks + s) as usize];
                set_byte(m.cta_mut(cta), i % 32 + 32 * q, col, b % 4, v);
            }
        }
    }
    // scale_B: every column in both CTAs of the pair (T1).
    for j in 0..o.n {
        for s in 0..o.blocks {
            let b = sfb_id + s;
            let col = SFB_COL + j / 32 + (b / 4) * group_b;
            for cta in 0..2 {
                for q in 0..4 {
                    let v = o.sfb[(j * o.blocks + s) as usize];
                    set_byte(m.cta_mut(cta), j % 32 + 32 * q, col, b % 4, v);
                }
            }
        }
    }
}

/// A no-swizzle K-major descriptor (Table 40): start, LBO, SBO in bytes, bits 46-48 = 0b001.
fn desc(start: u32, lbo: u32, sbo: u32) -> u64 {
    u64::from(start >> 4) | u64::from(lbo >> 4) << 16 | u64::from(sbo >> 4) << 32 | 1 << 46
}

/// The no-swizzle K-major picture (9.7.16.3.3): core matrices of 8 rows x 16 bytes, `lbo`
/// apart along K and `sbo` apart along M / N.
fn no_swizzle(start: u32, lbo: u32, sbo: u32) -> impl Fn(u32, u32) -> u32 {
    move |r, kb| start + (r % 8) * 16 + (r / 8) * sbo + kb % 16 + (kb / 16) * lbo
}

/// Places A (each CTA its 128 rows) and B (each CTA its N / 2 columns) without swizzling: A at
/// 0, B at 0x8000, LBO 128 (three core matrices along K), SBO 384.
fn place_operands_plain(m: &mut Machine, o: &Ops) -> (u64, u64) {
    let half = o.n / 2;
    for c in 0..2u32 {
        let a = &o.a[(c * 128 * K) as usize..((c + 1) * 128 * K) as usize];
        let b = &o.b[(c * half * K) as usize..((c + 1) * half * K) as usize];
        place(m.cta_mut(c as usize), a, 128, no_swizzle(0, 128, 384));
        place(m.cta_mut(c as usize), b, half, no_swizzle(0x8000, 128, 384));
    }
    (desc(0, 128, 384), desc(0x8000, 128, 384))
}

/// The numerics reference row over 96 products: the K = 64 row's GST-FDPA with `l` = 96
/// (ruling D8), built here from the tables' K = 64 row.
fn reference_row(kind: Kind, scale: Format, block: u32) -> ParamRow {
    let row = Form {
        arch: Arch::Sm100a,
        instruction: Some(NumInstruction::Tcgen05Mma),
        kind,
        a: Format::E2m1,
        b: Format::E2m1,
        d: Some(Format::F32),
        scale: Some(scale),
        block: Some(block),
    }
    .row()
    .unwrap();
    let Algorithm::GstFdpa {
        f, group, e_zero, ..
    } = row.algorithm
    else {
        panic!("{row:?}")
    };
    ParamRow {
        algorithm: Algorithm::GstFdpa {
            f,
            group,
            l: 96,
            e_zero,
        },
        ..row
    }
}

fn want(row: &ParamRow, o: &Ops, i: u32, j: u32) -> u32 {
    let bl = o.blocks as usize;
    let (i, j) = (i as usize, j as usize);
    row.dot(
        &Operands {
            a: &o.a[i * 96..(i + 1) * 96],
            b: &o.b[j * 96..(j + 1) * 96],
            c: 0,
            sfa: &o.sfa[i * bl..(i + 1) * bl],
            sfb: &o.sfb[j * bl..(j + 1) * bl],
        },
        false,
    )
    .unwrap()
    .d_bits
}

/// D by the reference row, M x N row-major.
fn wanted(row: &ParamRow, o: &Ops) -> Vec<u32> {
    (0..M * o.n)
        .map(|x| want(row, o, x / o.n, x % o.n))
        .collect()
}

/// Elements of the last D that differ from `want`.
fn differing(m: &Machine, want: &[u32], o: &Ops) -> usize {
    let d = m.last_d().unwrap().unwrap();
    assert_eq!((d.m, d.n), (M, o.n));
    d.codes.iter().zip(want).filter(|(x, y)| x != y).count()
}

fn line(qual: &str, a: u64, b: u64, idesc: u32) -> String {
    format!(
        "tcgen05.mma.cta_group::2.kind::{qual} [0], {a:#x}, {b:#x}, {idesc:#x}, [{SFA_COL}], [{SFB_COL}], 0;"
    )
}

/// `.kind::mxf4nvf4.block32` (3X, UE8M0) with SF_IDs 0-3 for A and B (the bytes of SF_IDs 2
/// and 3 run into the next group of columns; CUTLASS's sm_103 mainloop passes 0, 3, 2 and 1,
/// rulings T3 and D10): D is the reference's 96-product dot product everywhere, and another
/// SFA_ID gives another D.
#[test]
fn k96_3x_reads_scale_factors_by_t3_and_sums_96_products() {
    for (sfa_id, sfb_id, n) in [
        (0, 2, 256),
        (2, 0, 128),
        (2, 2, 64),
        (3, 1, 128),
        (1, 3, 256),
        (3, 3, 64),
    ] {
        let o = random_ops(10 + u64::from(sfa_id), n, 3, Format::Ue8m0);
        let mut m = Machine::new(Target::Sm103a);
        let (da, db) = place_operands_plain(&mut m, &o);
        place_scales(&mut m, &o, sfa_id, sfb_id);
        let id = idesc(o.n, true, sfa_id, sfb_id);
        m.execute(&line("mxf4nvf4.block_scale.block32", da, db, id))
            .unwrap();
        let want = wanted(&reference_row(Kind::Mxf4nvf4, Format::Ue8m0, 32), &o);
        assert_eq!(differing(&m, &want, &o), 0, "SF IDs {sfa_id}, {sfb_id}");
        // Another SFA_ID reads other bytes.
        let other = idesc(o.n, true, (sfa_id + 2) % 4, sfb_id);
        m.execute(&line("mxf4nvf4.block_scale.block32", da, db, other))
            .unwrap();
        let differ = differing(&m, &want, &o);
        assert!(
            differ > (M * n / 2) as usize,
            "SF IDs {sfa_id}, {sfb_id}: {differ}"
        );
    }
}

/// `.kind::mxf4` (no qualifier: `.block32`, 3X) with N = 128 (scale_B's group 4 columns).
#[test]
fn k96_mxf4_default_vector_is_3x() {
    let o = random_ops(21, 128, 3, Format::Ue8m0);
    let mut m = Machine::new(Target::Sm103a);
    let (da, db) = place_operands_plain(&mut m, &o);
    place_scales(&mut m, &o, 2, 0);
    m.execute(&line("mxf4.block_scale", da, db, idesc(128, true, 2, 0)))
        .unwrap();
    let want = wanted(&reference_row(Kind::Mxf4, Format::Ue8m0, 32), &o);
    assert_eq!(differing(&m, &want, &o), 0);
}

/// `.kind::mxf4nvf4.block16` (6X): UE4M3 scales (NVFP4) at SF_ID 0, and UE8M0 scales at
/// SF_ID 2 (bytes 2-3 of the first group, then all four of the next).
#[test]
fn k96_6x_reads_six_scale_factors() {
    for (id, sf, n) in [(0, Format::Ue4m3, 256), (2, Format::Ue8m0, 64)] {
        let o = random_ops(30 + u64::from(id), n, 6, sf);
        let mut m = Machine::new(Target::Sm103a);
        let (da, db) = place_operands_plain(&mut m, &o);
        place_scales(&mut m, &o, id, id);
        let q = "mxf4nvf4.block_scale.block16";
        m.execute(&line(q, da, db, idesc(o.n, sf == Format::Ue8m0, id, id)))
            .unwrap();
        let want = wanted(&reference_row(Kind::Mxf4nvf4, sf, 16), &o);
        assert_eq!(differing(&m, &want, &o), 0, "SF ID {id}");
    }
}

/// The 128-byte swizzle of the text (PTX ISA 9.7.16.3.1.2: the 16-byte chunk index, address
/// bits 4-6, XORed with the 128-byte line in the 1024-byte pattern, bits 7-9).
fn sw128(addr: u32) -> u32 {
    addr ^ ((addr >> 7) & 7) << 4
}

/// CUTLASS's sm_103 staging (`conformance/kernels/gen_cutlass.py`): K-major 128-byte-swizzled
/// rows of two K buffers 1024-aligned; the MMA's 48 bytes start at byte 96 of buffer 0's row
/// and continue at byte 0 of buffer 1's (absolute LBO mode, rules.md R5: the LBO field holds
/// buffer 1's address). Small operands (E2M1 magnitudes up to 6, scales 2^-2 to 2^2) keep every
/// sum exact in f32, so D must be the text's plain sum.
#[test]
fn k96_cutlass_staging_with_absolute_lbo_is_the_texts_sum() {
    let n = 128;
    let mut o = random_ops(40, n, 3, Format::Ue8m0);
    for s in o.sfa.iter_mut().chain(o.sfb.iter_mut()) {
        *s = 125 + *s % 5;
    }
    let (buf0_a, buf1_a, buf0_b, buf1_b) = (0x0000, 0x2000, 0x4000, 0x6000);
    let staged = |buf0: u32, buf1: u32| {
        move |r: u32, kb: u32| {
            let rows = (r % 8) * 128 + (r / 8) * 1024;
            let pre = if 96 + kb < 128 {
                buf0 + rows + 96 + kb
            } else {
                buf1 + rows + 96 + kb - 128
            };
            sw128(pre)
        }
    };
    let mut m = Machine::new(Target::Sm103a);
    for c in 0..2u32 {
        let a = &o.a[(c * 128 * K) as usize..((c + 1) * 128 * K) as usize];
        let b = &o.b[(c * 64 * K) as usize..((c + 1) * 64 * K) as usize];
        place(m.cta_mut(c as usize), a, 128, staged(buf0_a, buf1_a));
        place(m.cta_mut(c as usize), b, 64, staged(buf0_b, buf1_b));
    }
    place_scales(&mut m, &o, 0, 0);
    // Table 40: start, absolute LBO (bit 52), SBO 1024, 0b001 at 46-48, 128B swizzle (2).
    let d = |buf0: u32, buf1: u32| {
        u64::from((buf0 + 96) >> 4)
            | u64::from(buf1 >> 4) << 16
            | 64u64 << 32
            | 1 << 46
            | 1 << 52
            | 2 << 61
    };
    let line = line(
        "mxf4nvf4.block_scale.block32",
        d(buf0_a, buf1_a),
        d(buf0_b, buf1_b),
        idesc(n, true, 0, 0),
    );
    m.execute(&line).unwrap();
    let e2m1 = |c: u32| {
        let v = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0][(c & 7) as usize];
        if c & 8 != 0 {
            -v
        } else {
            v
        }
    };
    let ue8m0 = |c: u32| f64::from(2f32.powi(c as i32 - 127));
    let dm = m.last_d().unwrap().unwrap();
    let mut checked = 0;
    for i in 0..M {
        for j in 0..n {
            let sum: f64 = (0..K)
                .map(|k| {
                    let blk = (k / 32) as usize;
                    e2m1(o.a[(i * K + k) as usize])
                        * e2m1(o.b[(j * K + k) as usize])
                        * ue8m0(o.sfa[i as usize * 3 + blk])
                        * ue8m0(o.sfb[j as usize * 3 + blk])
                })
                .sum();
            let got = f64::from(f32::from_bits(dm.codes[(i * n + j) as usize]));
            // +0 for a zero sum (rules.md D2).
            assert_eq!(got, sum + 0.0, "D[{i}][{j}]");
            checked += 1;
        }
    }
    assert_eq!(checked, 256 * 128);
}

/// K = 96 outside `sm_103a` / `sm_107a`, outside its Table 39 row, or with `.scale_vec::2X`:
/// refused with the rule, nothing written.
#[test]
fn k96_refusals() {
    let o = random_ops(50, 256, 3, Format::Ue8m0);
    let setup = |target| {
        let mut m = Machine::new(target);
        let (da, db) = place_operands_plain(&mut m, &o);
        place_scales(&mut m, &o, 0, 0);
        (m, da, db)
    };
    let (mut m, da, db) = setup(Target::Sm100a);
    let q = "mxf4nvf4.block_scale.block32";
    let e = m.execute(&line(q, da, db, idesc(256, true, 0, 0)));
    let text = format!("{}", e.unwrap_err());
    assert!(text.contains("K = 96"), "{text}");
    assert!(m.last_d().is_none());
    let (mut m, da, db) = setup(Target::Sm103a);
    let e = m.execute(&line(
        "mxf4nvf4.block_scale.scale_vec::2X",
        da,
        db,
        idesc(256, true, 0, 0),
    ));
    assert!(e.is_err());
    assert!(m.last_d().is_none());
    // M = 128 with K = 96.
    let m128 = idesc(256, true, 0, 0) & !(3 << 27) | 1 << 27;
    let e = m.execute(&line(q, da, db, m128));
    let text = format!("{}", e.unwrap_err());
    assert!(text.contains("K = 96"), "{text}");
}

/// The scale-factor IDs 1 and 3 (rulings T3, D10): refused with 6X (`.block16`, UE8M0 by the
/// instruction's qualifier, UE4M3 by the descriptor) and without K = 96 (Table 44's "0 or
/// 2"), with the rule named and nothing written.
#[test]
fn k96_ids_1_and_3_only_with_3x() {
    let o = random_ops(60, 128, 6, Format::Ue8m0);
    let mut m = Machine::new(Target::Sm103a);
    let (da, db) = place_operands_plain(&mut m, &o);
    place_scales(&mut m, &o, 0, 0);
    for (q, ue8m0, k96, want) in [
        ("mxf4nvf4.block_scale.block16", true, true, "ID "),
        ("mxf4nvf4.block_scale.block16", false, true, "sfa_id = "),
        ("mxf4nvf4.block_scale.block32", true, false, "sfa_id = "),
        ("mxf4.block_scale", true, false, "sfa_id = "),
    ] {
        for id in [1, 3] {
            let mut word = idesc(o.n, ue8m0, id, 0);
            if !k96 {
                word &= !(1 << 31);
            }
            let e = m.execute(&line(q, da, db, word)).unwrap_err();
            let text = format!("{e}");
            assert!(text.contains(&format!("{want}{id}")), "{q} ID {id}: {text}");
            assert!(m.last_d().is_none(), "{q} ID {id}");
        }
    }
}
