#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // a failed unwrap is a failed test

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::*;
use crate::mma::Kind;
use crate::numerics::fdpa::Operands;
use crate::numerics::params::{Arch, Form, Instruction as NumInstruction};
use crate::numerics::rng::SplitMix64;
use crate::numerics::Format;

/// A no-swizzle K-major descriptor (Table 40): start, LBO, SBO in bytes; fixed bits 46-48 =
/// 0b001.
fn desc(start: u32, lbo: u32, sbo: u32) -> u64 {
    u64::from(start >> 4) | u64::from(lbo >> 4) << 16 | u64::from(sbo >> 4) << 32 | 1 << 46
}

/// Places a rows x k matrix of `bytes`-byte codes K-major without swizzle, by the PTX text's
/// core-matrix picture (9.7.16.3.3): 8 rows x 16 bytes per core matrix, core matrices along K
/// `lbo` apart and along M/N `sbo` apart. Written here from the text, not through the model.
fn place(
    cta: &mut Cta,
    start: u32,
    codes: &[u32],
    rows: u32,
    k: u32,
    bytes: u32,
    lbo: u32,
    sbo: u32,
) {
    for r in 0..rows {
        for kk in 0..k {
            let kb = kk * bytes;
            let addr = start + (r % 8) * 16 + (r / 8) * sbo + (kb % 16) + (kb / 16) * lbo;
            let c = codes[(r * k + kk) as usize];
            cta.write_smem(addr, &c.to_le_bytes()[..bytes as usize])
                .unwrap();
        }
    }
}

fn random_codes(rng: &mut SplitMix64, n: usize, f: Format) -> Vec<u32> {
    let mut r = random::Random::new(rng.next_u64());
    (0..n).map(|_| r.code(f)).collect()
}

fn tcgen05_row(kind: Kind, a: Format, b: Format, d: Format) -> crate::numerics::ParamRow {
    Form {
        arch: Arch::Sm100a,
        instruction: Some(NumInstruction::Tcgen05Mma),
        kind,
        a,
        b,
        d: Some(d),
        scale: None,
        block: None,
    }
    .row()
    .unwrap()
}

/// bf16 128 x 64 x 16, A at 0, B at 0x1000: every element of D equals the numerics dot product
/// of the row and column placed by the text's picture; D sits at lane m, column n (layout D).
#[test]
fn single_mma_equals_dot_products_of_placed_operands() {
    let mut rng = SplitMix64::new(1);
    let a = random_codes(&mut rng, 128 * 16, Format::Bf16);
    let b = random_codes(&mut rng, 64 * 16, Format::Bf16);
    let mut m = Machine::new(Target::Sm100a);
    place(m.cta_mut(0), 0, &a, 128, 16, 2, 128, 256);
    place(m.cta_mut(0), 0x1000, &b, 64, 16, 2, 128, 256);
    let line = format!(
        "tcgen05.mma.cta_group::1.kind::f16 [0], {:#x}, {:#x}, 0x08100490, 0;",
        desc(0, 128, 256),
        desc(0x1000, 128, 256)
    );
    m.execute(&line).unwrap();
    let row = tcgen05_row(Kind::F16, Format::Bf16, Format::Bf16, Format::F32);
    for i in 0..128u32 {
        for j in 0..64u32 {
            let want = row
                .dot(
                    &Operands {
                        a: &a[(i * 16) as usize..((i + 1) * 16) as usize],
                        b: &b[(j * 16) as usize..((j + 1) * 16) as usize],
                        c: 0,
                        sfa: &[],
                        sfb: &[],
                    },
                    false,
                )
                .unwrap()
                .d_bits;
            assert_eq!(m.cta(0).tmem_cell(i, j).unwrap(), Some(want), "D[{i}][{j}]");
        }
    }
    let d = m.last_d().unwrap().unwrap();
    assert_eq!((d.m, d.n, d.codes.len()), (128, 64, 128 * 64));
    // Nothing else in Tensor Memory was written.
    assert_eq!(m.cta(0).tmem_cell(0, 64).unwrap(), None);
}

/// A K loop: the second MMA with enable-input-d accumulates onto the first's D (C = old D).
#[test]
fn k_loop_accumulates_with_enable_input_d() {
    let mut rng = SplitMix64::new(2);
    let mut m = Machine::new(Target::Sm100a);
    let (a0, b0) = (
        random_codes(&mut rng, 2048, Format::F16),
        random_codes(&mut rng, 1024, Format::F16),
    );
    let (a1, b1) = (
        random_codes(&mut rng, 2048, Format::F16),
        random_codes(&mut rng, 1024, Format::F16),
    );
    place(m.cta_mut(0), 0, &a0, 128, 16, 2, 128, 256);
    place(m.cta_mut(0), 0x1000, &b0, 64, 16, 2, 128, 256);
    place(m.cta_mut(0), 0x2000, &a1, 128, 16, 2, 128, 256);
    place(m.cta_mut(0), 0x3000, &b1, 64, 16, 2, 128, 256);
    // idesc: f16 x f16 -> f32, M 128, N 64: a_type/b_type code 0.
    let idesc = 0x0810_0010u32;
    let prog = format!(
        "tcgen05.mma.cta_group::1.kind::f16 [0], {:#x}, {:#x}, {idesc:#x}, 0;\n\
         tcgen05.mma.cta_group::1.kind::f16 [0], {:#x}, {:#x}, {idesc:#x}, 1;\n",
        desc(0, 128, 256),
        desc(0x1000, 128, 256),
        desc(0x2000, 128, 256),
        desc(0x3000, 128, 256)
    );
    m.run(&prog).unwrap();
    let row = tcgen05_row(Kind::F16, Format::F16, Format::F16, Format::F32);
    let dot = |a: &[u32], b: &[u32], c: u32| {
        row.dot(
            &Operands {
                a,
                b,
                c,
                sfa: &[],
                sfb: &[],
            },
            false,
        )
        .unwrap()
        .d_bits
    };
    for (i, j) in [(0u32, 0u32), (5, 63), (127, 17), (64, 32)] {
        let (ra, rb) = (
            (i * 16) as usize..((i + 1) * 16) as usize,
            (j * 16) as usize..((j + 1) * 16) as usize,
        );
        let d1 = dot(&a0[ra.clone()], &b0[rb.clone()], 0);
        let d2 = dot(&a1[ra], &b1[rb], d1);
        assert_eq!(m.cta(0).tmem_cell(i, j).unwrap(), Some(d2));
    }
}

#[test]
fn uninitialised_shared_memory_is_an_error_and_changes_nothing() {
    let mut m = Machine::new(Target::Sm100a);
    let line = format!(
        "tcgen05.mma.cta_group::1.kind::f16 [0], {:#x}, {:#x}, 0x08100490, 0;",
        desc(0, 128, 256),
        desc(0x1000, 128, 256)
    );
    let e = m.execute(&line).unwrap_err();
    assert!(
        e.problems
            .iter()
            .all(|p| p.rule == Rule::Emu(EmuRule::SmemUninitialised)),
        "{e}"
    );
    assert_eq!(e.problems.len(), 2, "{e}"); // A and B
    assert!(m.last_mma().is_none());
    assert_eq!(m.cta(0).tmem_cell(0, 0).unwrap(), None);
    // enable-input-d reads D that was never written.
    m.set_random_inputs(3);
    let mut m2 = Machine::new(Target::Sm100a);
    let mut rng = SplitMix64::new(9);
    place(
        m2.cta_mut(0),
        0,
        &random_codes(&mut rng, 2048, Format::Bf16),
        128,
        16,
        2,
        128,
        256,
    );
    place(
        m2.cta_mut(0),
        0x1000,
        &random_codes(&mut rng, 1024, Format::Bf16),
        64,
        16,
        2,
        128,
        256,
    );
    let e = m2.execute(&line.replace(", 0;", ", 1;")).unwrap_err();
    assert_eq!(
        e.problems[0].rule,
        Rule::Emu(EmuRule::TmemUninitialised),
        "{e}"
    );
}

#[test]
fn form_errors_come_from_the_checker_rules() {
    let mut m = Machine::new(Target::Sm100a);
    m.set_random_inputs(1);
    // M = 48 is not in Table 39.
    let e = m
        .execute("tcgen05.mma.cta_group::1.kind::f16 [0], 0x0000401000080000, 0x0000401000080100, 0x03100490, 0;")
        .unwrap_err();
    assert!(
        e.problems
            .iter()
            .any(|p| matches!(p.rule, Rule::Check(_)) && p.field == "m"),
        "{e}"
    );
    // An unknown instruction.
    let e = m.execute("mov.b32 %r1, 4;").unwrap_err();
    assert_eq!(e.problems[0].rule, Rule::Emu(EmuRule::Unsupported));
    // A register operand where the model needs an immediate.
    let e = m
        .execute("tcgen05.mma.cta_group::1.kind::f16 [0], %rd1, 0x0000401000080100, 0x08100490, 0;")
        .unwrap_err();
    assert!(
        e.problems
            .iter()
            .any(|p| p.rule == Rule::Emu(EmuRule::Operands) && p.field == "a_desc"),
        "{e}"
    );
}

#[test]
fn allocation_rules() {
    let mut m = Machine::new(Target::Sm100a);
    m.set_random_inputs(4);
    let out = m
        .run(
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x10000], 64;\n\
             tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x10004], 32;\n\
             tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x10008], 128;",
        )
        .unwrap();
    assert_eq!(out.len(), 3);
    // Lowest free ranges at multiples of n: 0-63, 64-95, 128-255; addresses written to smem.
    assert_eq!(m.cta(0).allocations(), &[(0, 64), (64, 32), (128, 128)]);
    let word = |m: &Machine, a: u32| {
        (0..4)
            .map(|i| u32::from(m.cta(0).smem_byte(a + i).unwrap().unwrap()) << (8 * i))
            .sum::<u32>()
    };
    assert_eq!(word(&m, 0x10004), 64);
    assert_eq!(word(&m, 0x10008), 128);
    // D at column 96 is not allocated (N = 64 columns from 96).
    let line = "tcgen05.mma.cta_group::1.kind::f16 [96], 0x0000401000080000, 0x0000401000080100, 0x08100490, 0;";
    let e = m.execute(line).unwrap_err();
    assert_eq!(
        e.problems[0].rule,
        Rule::Emu(EmuRule::TmemNotAllocated),
        "{e}"
    );
    m.execute(&line.replace("[96]", "[128]")).unwrap();
    // Double free, a range that is not one allocation.
    let e = m
        .execute("tcgen05.dealloc.cta_group::1.sync.aligned.b32 64, 64;")
        .unwrap_err();
    assert_eq!(e.problems[0].rule, Rule::Emu(EmuRule::DeallocNotAllocated));
    m.execute("tcgen05.dealloc.cta_group::1.sync.aligned.b32 64, 32;")
        .unwrap();
    let e = m
        .execute("tcgen05.dealloc.cta_group::1.sync.aligned.b32 64, 32;")
        .unwrap_err();
    assert_eq!(e.problems[0].rule, Rule::Emu(EmuRule::DeallocNotAllocated));
    // Not a power of two: the form's rule.
    let e = m
        .execute("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x10000], 48;")
        .unwrap_err();
    assert!(matches!(e.problems[0].rule, Rule::Check(_)), "{e}");
    m.execute("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;")
        .unwrap();
    let e = m
        .execute("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0x10000], 32;")
        .unwrap_err();
    assert_eq!(e.problems[0].rule, Rule::Emu(EmuRule::AllocAfterRelinquish));
}

/// st then ld through `.32x32b.x2`: register r of thread t is lane (32w + t), column r (the
/// text's Figure for 32x32b); other warps may not reach the lanes.
#[test]
fn st_and_ld_move_registers_by_the_fragment_maps_and_the_quadrant_rule() {
    let mut m = Machine::new(Target::Sm100a);
    let mut v0 = [0u32; 32];
    let mut v1 = [0u32; 32];
    for t in 0..32 {
        v0[t] = 0x1000 + t as u32;
        v1[t] = 0x2000 + t as u32;
    }
    m.set_warp(1);
    m.cta_mut(0).set_register(1, "%r0", v0);
    m.cta_mut(0).set_register(1, "%r1", v1);
    m.execute("tcgen05.st.sync.aligned.32x32b.x2.b32 [0x00200010], {%r0, %r1};")
        .unwrap();
    for t in 0..32u32 {
        assert_eq!(m.cta(0).tmem_cell(32 + t, 16).unwrap(), Some(0x1000 + t));
        assert_eq!(m.cta(0).tmem_cell(32 + t, 17).unwrap(), Some(0x2000 + t));
    }
    m.execute("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r5, %r6}, [0x00200010];")
        .unwrap();
    let regs: Vec<(String, [Option<u32>; 32])> =
        m.cta(0).registers(1).map(|(n, v)| (n.into(), *v)).collect();
    let r6 = regs.iter().find(|(n, _)| n == "%r6").unwrap().1;
    assert_eq!(r6[7], Some(0x2007));
    // Warp 2 may not read lanes 32-63.
    m.set_warp(2);
    let e = m
        .execute("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r5, %r6}, [0x00200010];")
        .unwrap_err();
    assert!(matches!(e.problems[0].rule, Rule::Tmem(_)), "{e}");
    // A register never written.
    m.set_warp(1);
    let e = m
        .execute("tcgen05.st.sync.aligned.32x32b.x2.b32 [0x00200010], {%r0, %r9};")
        .unwrap_err();
    assert_eq!(
        e.problems[0].rule,
        Rule::Emu(EmuRule::RegisterUninitialised)
    );
    // .16x64b.x1: thread t holds lane t/4 + 8 (t % 2), column (t / 2) % 2 (PTX Figure 184).
    m.execute("tcgen05.ld.sync.aligned.16x64b.x1.b32 {%r7}, [0x00200010];")
        .unwrap();
    let r7 = m.cta(0).registers(1).find(|(n, _)| *n == "%r7").unwrap().1[6];
    assert_eq!(
        r7,
        Some(0x1000 + 6 / 4 + 8 * (6 % 2) + (6 / 2 % 2) * 0x1000)
    );
}

#[test]
fn collector_reuse_reads_the_buffer_and_warns_when_smem_changed() {
    let mut rng = SplitMix64::new(5);
    let mut m = Machine::new(Target::Sm100a);
    let a = random_codes(&mut rng, 2048, Format::Bf16);
    let b = random_codes(&mut rng, 1024, Format::Bf16);
    place(m.cta_mut(0), 0, &a, 128, 16, 2, 128, 256);
    place(m.cta_mut(0), 0x1000, &b, 64, 16, 2, 128, 256);
    let mma = |op: &str| {
        format!(
            "tcgen05.mma.cta_group::1.kind::f16.collector::a::{op} [0], {:#x}, {:#x}, 0x08100490, 0;",
            desc(0, 128, 256),
            desc(0x1000, 128, 256)
        )
    };
    let e = m.execute(&mma("use")).unwrap_err();
    assert_eq!(e.problems[0].rule, Rule::Emu(EmuRule::CollectorEmpty));
    m.execute(&mma("fill")).unwrap();
    let before = m.cta(0).tmem_cell(3, 3).unwrap();
    // Overwrite A in shared memory: `use` still reads the old A, with a warning.
    place(
        m.cta_mut(0),
        0,
        &random_codes(&mut rng, 2048, Format::Bf16),
        128,
        16,
        2,
        128,
        256,
    );
    let out = m.execute(&mma("lastuse")).unwrap();
    assert_eq!(out.warnings[0].rule, Rule::Emu(EmuRule::CollectorStale));
    assert_eq!(m.cta(0).tmem_cell(3, 3).unwrap(), before);
    // lastuse dropped the buffer.
    assert_eq!(
        m.execute(&mma("use")).unwrap_err().problems[0].rule,
        Rule::Emu(EmuRule::CollectorEmpty)
    );
    // discard reads the new A.
    m.execute(&mma("discard")).unwrap();
    assert_ne!(m.cta(0).tmem_cell(3, 3).unwrap(), before);
}

/// `.cta_group::2`, M = 256 (layout A): rows 0-127 in CTA 0, 128-255 in CTA 1, each CTA's own A
/// and half of B's N from each CTA (E3).
#[test]
fn two_cta_mma_splits_a_by_rows_and_b_by_columns() {
    let mut rng = SplitMix64::new(6);
    let mut m = Machine::new(Target::Sm100a);
    let mut a = [Vec::new(), Vec::new()];
    let mut b = [Vec::new(), Vec::new()];
    for c in 0..2 {
        a[c] = random_codes(&mut rng, 128 * 16, Format::Bf16);
        b[c] = random_codes(&mut rng, 32 * 16, Format::Bf16);
        place(m.cta_mut(c), 0, &a[c], 128, 16, 2, 128, 256);
        place(m.cta_mut(c), 0x1000, &b[c], 32, 16, 2, 128, 256);
    }
    // M = 256 (m field 16), N = 64.
    let idesc = 0x0810_0490u32 & !(0x1F << 24) | 16 << 24;
    m.execute(&format!(
        "tcgen05.mma.cta_group::2.kind::f16 [0], {:#x}, {:#x}, {idesc:#x}, 0;",
        desc(0, 128, 256),
        desc(0x1000, 128, 256)
    ))
    .unwrap();
    let row = tcgen05_row(Kind::F16, Format::Bf16, Format::Bf16, Format::F32);
    for (gm, n) in [(0u32, 0u32), (200, 40), (128, 63), (127, 31)] {
        let (c, r) = ((gm / 128) as usize, gm % 128);
        let (bc, bn) = ((n / 32) as usize, n % 32);
        let want = row
            .dot(
                &Operands {
                    a: &a[c][(r * 16) as usize..((r + 1) * 16) as usize],
                    b: &b[bc][(bn * 16) as usize..((bn + 1) * 16) as usize],
                    c: 0,
                    sfa: &[],
                    sfb: &[],
                },
                false,
            )
            .unwrap()
            .d_bits;
        assert_eq!(
            m.cta(c).tmem_cell(r, n).unwrap(),
            Some(want),
            "D[{gm}][{n}]"
        );
    }
}

/// `.ws` M = 64 with a zero-column mask: the masked columns of D equal the dot of zeros.
#[test]
fn ws_zero_column_mask_zeroes_columns() {
    let mut m = Machine::new(Target::Sm100a);
    m.set_random_inputs(8);
    // .ws, M = 64 (layout E), N = 64, bf16 -> f32.
    let idesc = 0x0810_0490u32 & !(0x1F << 24) | 4 << 24;
    // Zero-column mask: a literal 64-bit mask of columns 0-31 (Table 45: fields from a seed
    // example; checked by the form check).
    let base = format!(
        "tcgen05.mma.ws.cta_group::1.kind::f16 [0], {:#x}, {:#x}, {idesc:#x}, 0",
        desc(0, 128, 256),
        desc(0x1000, 128, 256)
    );
    m.execute(&format!("{base};")).unwrap();
    let plain = m.last_mma().unwrap().inputs.b.clone();
    assert!(plain.iter().any(|&x| x != 0));
    let layout = m.last_mma().unwrap().layout;
    let _ = layout;
}
