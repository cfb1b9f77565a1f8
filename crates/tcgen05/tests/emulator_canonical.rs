//! The emulator against operand placements and negations written from the PTX text, not from
//! this crate's layout code.
//!
//! - **Placement.** A and B are written to shared memory by the canonical-layout formulas of
//!   PTX ISA 9.7.16.3.3 (K-major `((8,m),(T,2k)) : ((1T,SBO),(1,LBO))` without swizzling and
//!   `((8,m),(T,2k)) : ((W/16 T,SBO),(1,T))` with a W-byte swizzle; MN-major
//!   `((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))` and `((T,W/16,m),(8,k)) : ((1,T,LBO),(W/16 T,SBO))`),
//!   the swizzle applied to the byte address as CuTe's `Swizzle<B,4,3>` (bits 4.. ^= bits 7..);
//!   the shared memory descriptors are assembled from the bit positions of Table 40; D is read
//!   from Tensor Memory at lane `i`, column `j` (data-path layout D, M = 128, 9.7.16.10.5). The
//!   operands are small integers in f16, so D is their exact dot product, computed here.
//! - **Negation.** Instruction descriptor bits 13 and 14 (Table 44) negate A and B: for every
//!   kind that allows it, D must equal the measured arithmetic (`tcgen05::numerics`) of the
//!   inputs with their sign bits flipped, A only, B only and both.
//!
//! Neither test goes through `TileLayout`, `DLayout` or `SfLayout`: a placement bug in the
//! emulator's reading shows here even where the writer of `tests/emulator_mmasim.rs` shares it.

#![cfg(feature = "alloc")]
#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // a failed unwrap is a failed test

use tcgen05::emulator::Machine;
use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
use tcgen05::mma::{ElementType, Kind, ScaleType};
use tcgen05::numerics::format::{Format, Value};
use tcgen05::numerics::rng::SplitMix64;
use tcgen05::numerics::{Arch, Form, Instruction, Operands};
use tcgen05::targets::Target;

/// Swizzle width in bytes (0: none) and its Table 40 code (bits 61-63).
const fn swizzle_code(w: u32) -> u64 {
    match w {
        0 => 0,
        32 => 6,
        64 => 4,
        _ => 2, // 128
    }
}

/// One operand's placement: start address, LBO, SBO (bytes), swizzle width (0: none), MN-major.
#[derive(Clone, Copy, Debug)]
struct Place {
    start: u32,
    lbo: u32,
    sbo: u32,
    swizzle: u32,
    mn_major: bool,
}

impl Place {
    /// The shared memory descriptor, bit by bit from Table 40: the start address, LBO and SBO
    /// in 16-byte units in bits 0-13, 16-29 and 32-45, the fixed 0b001 in 46-48, base offset 0
    /// (49-51), relative LBO mode (52), the swizzle code in 61-63.
    fn descriptor(self) -> u64 {
        u64::from(self.start >> 4)
            | u64::from(self.lbo >> 4) << 16
            | u64::from(self.sbo >> 4) << 32
            | 1 << 46
            | swizzle_code(self.swizzle) << 61
    }

    /// The byte of element (mn, k) of a 2-byte element type (T = 8 per 16-byte chunk).
    fn byte(self, mn: u32, k: u32) -> u32 {
        const T: u32 = 8;
        const E: u32 = 2;
        let w = self.swizzle;
        let pre = match (self.mn_major, w) {
            (false, 0) => (mn % 8) * 16 + (mn / 8) * self.sbo + (k / T) * self.lbo + (k % T) * E,
            (false, _) => (mn % 8) * w + (mn / 8) * self.sbo + k * E,
            (true, 0) => (mn % T) * E + (mn / T) * self.sbo + (k % 8) * 16 + (k / 8) * self.lbo,
            (true, _) => {
                let per = w / 16;
                (mn % T) * E
                    + ((mn / T) % per) * 16
                    + (mn / (T * per)) * self.lbo
                    + (k % 8) * w
                    + (k / 8) * self.sbo
            }
        };
        let addr = self.start + pre;
        let b = match w {
            0 => return addr,
            32 => 1,
            64 => 2,
            _ => 3,
        };
        addr ^ (((addr >> 7) & ((1 << b) - 1)) << 4)
    }
}

/// f16 codes of the values -3..=3 in halves: code of `h / 2`.
fn f16_half(h: i32) -> u16 {
    let mag = match h.unsigned_abs() {
        0 => 0,
        1 => 0x3800, // 0.5
        2 => 0x3C00, // 1
        3 => 0x3E00, // 1.5
        4 => 0x4000, // 2
        5 => 0x4100, // 2.5
        _ => 0x4200, // 3
    };
    if h < 0 {
        mag | 0x8000
    } else {
        mag
    }
}

const M: u32 = 128;
const N: u32 = 64;
const K: u32 = 16;

fn run_placement(pa: Place, pb: Place) -> (usize, usize) {
    let mut rng = SplitMix64::new(u64::from(pa.swizzle) << 8 ^ u64::from(pb.swizzle) ^ 0x5EED);
    let mut half = || (rng.next_u64() % 13) as i32 - 6;
    let a: Vec<i32> = (0..M * K).map(|_| half()).collect();
    let b: Vec<i32> = (0..N * K).map(|_| half()).collect();
    let mut mach = Machine::new(Target::Sm100a);
    let mut smem = vec![0u8; 0x10000];
    for (p, vals, rows) in [(pa, &a, M), (pb, &b, N)] {
        for r in 0..rows {
            for k in 0..K {
                let at = p.byte(r, k) as usize;
                assert!(smem[at..at + 2] == [0, 0], "{p:?}: ({r}, {k}) overlaps");
                let code = f16_half(vals[(r * K + k) as usize]);
                smem[at..at + 2].copy_from_slice(&code.to_le_bytes());
            }
        }
    }
    mach.cta_mut(0).write_smem(0, &smem).unwrap();
    let mut fields = IdescFields::new(
        Kind::F16,
        ElementType::F32,
        ElementType::F16,
        ElementType::F16,
        M as u16,
        N as u16,
    );
    fields.transpose_a = pa.mn_major;
    fields.transpose_b = pb.mn_major;
    let idesc = InstructionDescriptor::try_new(fields).unwrap().bits();
    let line = format!(
        "tcgen05.mma.cta_group::1.kind::f16 [0], {:#x}, {:#x}, {idesc:#x}, 0;",
        pa.descriptor(),
        pb.descriptor()
    );
    mach.execute(&line)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut wrong = 0;
    for i in 0..M {
        for j in 0..N {
            let quarters: i32 = (0..K)
                .map(|k| a[(i * K + k) as usize] * b[(j * K + k) as usize])
                .sum();
            let want = (quarters as f32 / 4.0).to_bits();
            let got = mach.cta(0).tmem_cell(i, j).unwrap().unwrap();
            wrong += usize::from(got != want);
        }
    }
    (wrong, (M * N) as usize)
}

#[test]
fn operands_placed_by_the_ptx_canonical_layouts() {
    let k_none = |start, lbo, sbo| Place {
        start,
        lbo,
        sbo,
        swizzle: 0,
        mn_major: false,
    };
    let k_sw = |start, w| Place {
        start,
        lbo: 16,
        sbo: 8 * w,
        swizzle: w,
        mn_major: false,
    };
    let mn_none = |start, lbo, sbo| Place {
        start,
        lbo,
        sbo,
        swizzle: 0,
        mn_major: true,
    };
    let mn_sw = |start, w, lbo| Place {
        start,
        lbo,
        sbo: 8 * w,
        swizzle: w,
        mn_major: true,
    };
    let cases = [
        // K-major without swizzling: the second K chunk far away (LBO), 8-row groups packed
        (k_none(0, 0x800, 0x80), k_sw(0x8000, 128)),
        (k_sw(0, 32), k_sw(0x8000, 64)),
        (k_sw(0, 128), k_none(0x8000, 0x80, 0x100)),
        (mn_none(0, 0x800, 0x80), mn_sw(0x8000, 128, 0x800)),
        (mn_sw(0, 64, 0x1000), mn_sw(0x8000, 32, 0x400)),
        (mn_sw(0, 128, 0x1000), k_none(0x8000, 0x80, 0x100)),
    ];
    let mut total = 0;
    for (pa, pb) in cases {
        let (wrong, n) = run_placement(pa, pb);
        assert_eq!(
            wrong, 0,
            "A {pa:?}, B {pb:?}: {wrong} of {n} D values differ"
        );
        total += n;
    }
    println!(
        "{} placements, {total} D values equal to the exact dot products",
        cases.len()
    );
}

/// A kind that allows negation, with its types and block scaling.
struct NegCase {
    kind: Kind,
    a: ElementType,
    f: Format,
    k: u32,
    /// element bits in shared memory (fp4 of mxf4: packed, 4)
    bits: u32,
    scale: Option<(ScaleType, Format, u32, u32, &'static str)>, // type, format, one, block, qualifier
}

/// Random finite codes of `f` (NaN and Inf redrawn).
fn finite(rng: &mut SplitMix64, f: Format) -> u32 {
    loop {
        let c = (rng.next_u64() >> (64 - f.width())) as u32;
        if matches!(f.decode(c), Ok(Value::Finite { .. } | Value::Zero { .. })) {
            return c;
        }
    }
}

fn run_negation(case: &NegCase, neg_a: bool, neg_b: bool) -> usize {
    const NN: u32 = 16;
    let (k, f) = (case.k, case.f);
    let mut rng = SplitMix64::new(u64::from(case.k) << 4 ^ u64::from(case.bits) ^ 0x4E47);
    // fp4 packed two per byte: both nibbles of a byte hold the same code, so the nibble order
    // does not matter here.
    let pair = case.bits == 4;
    let mut draw = |n: u32| -> Vec<u32> {
        let mut v: Vec<u32> = Vec::new();
        while v.len() < (n * k) as usize {
            let c = finite(&mut rng, f);
            v.push(c);
            if pair {
                v.push(c);
            }
        }
        v
    };
    let a = draw(M);
    let b = draw(NN);
    // K-major, no swizzling: element (r, k) at (r % 8) * 16 + (r / 8) * SBO + chunk * LBO.
    let per_chunk = 128 / case.bits;
    let place = |start: u32, r: u32, kk: u32| {
        start
            + (r % 8) * 16
            + (r / 8) * 256
            + (kk / per_chunk) * 128
            + (kk % per_chunk) * case.bits / 8
    };
    let mut smem = vec![0u8; 0x10000];
    for (start, vals, rows) in [(0u32, &a, M), (0x8000, &b, NN)] {
        for r in 0..rows {
            for kk in 0..k {
                let code = vals[(r * k + kk) as usize];
                let at = place(start, r, kk) as usize;
                match case.bits {
                    4 => smem[at] = (code | code << 4) as u8,
                    8 => smem[at] = code as u8,
                    16 => smem[at..at + 2].copy_from_slice(&(code as u16).to_le_bytes()),
                    _ => smem[at..at + 4].copy_from_slice(&code.to_le_bytes()),
                }
            }
        }
    }
    let desc = |start: u32| u64::from(start >> 4) | 8 << 16 | 16 << 32 | 1 << 46;
    let mut mach = Machine::new(Target::Sm100a);
    mach.cta_mut(0).write_smem(0, &smem).unwrap();
    let mut fields = IdescFields::new(
        case.kind,
        ElementType::F32,
        case.a,
        case.a,
        M as u16,
        NN as u16,
    )
    .with_negate(neg_a, neg_b);
    let mut extra = String::new();
    let mut qual = "";
    let mut sf = (Vec::new(), Vec::new());
    if let Some((st, sf_format, one, block, q)) = case.scale {
        fields = fields.with_scale(st, 0, 0);
        qual = q;
        // Every byte of the scale columns holds 1.0: D does not depend on where they are read.
        for lane in 0..128 {
            for col in 256..320 {
                mach.cta_mut(0)
                    .write_tmem(lane, col, one * 0x0101_0101)
                    .unwrap();
            }
        }
        extra = ", [256], [288]".into();
        let blocks = k / block;
        sf = (vec![one; blocks as usize], vec![one; blocks as usize]);
        let _ = sf_format;
    }
    let idesc = InstructionDescriptor::try_new(fields).unwrap().bits();
    let line = format!(
        "tcgen05.mma.cta_group::1.kind::{}{qual} [0], {:#x}, {:#x}, {idesc:#x}{extra}, 0;",
        case.kind.name(),
        desc(0),
        desc(0x8000)
    );
    mach.execute(&line)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let row = Form {
        arch: Arch::Sm100a,
        instruction: Some(Instruction::Tcgen05Mma),
        kind: case.kind,
        a: f,
        b: f,
        d: Some(Format::F32),
        scale: case.scale.map(|s| s.1),
        block: case.scale.map(|s| s.3),
    }
    .row()
    .unwrap();
    let sign = 1 << (f.width() - 1);
    let flip = |v: &[u32], on: bool| -> Vec<u32> {
        v.iter().map(|&c| if on { c ^ sign } else { c }).collect()
    };
    let mut wrong = 0;
    for i in 0..M {
        let ai = flip(&a[(i * k) as usize..((i + 1) * k) as usize], neg_a);
        for j in 0..NN {
            let bj = flip(&b[(j * k) as usize..((j + 1) * k) as usize], neg_b);
            let ops = Operands {
                a: &ai,
                b: &bj,
                c: 0,
                sfa: &sf.0,
                sfb: &sf.1,
            };
            let want = row.dot(&ops, false).unwrap().d_bits;
            let got = mach.cta(0).tmem_cell(i, j).unwrap().unwrap();
            wrong += usize::from(got != want);
        }
    }
    wrong
}

#[test]
fn negation_of_a_b_and_both_in_every_kind_that_allows_it() {
    let cases = [
        NegCase {
            kind: Kind::Tf32,
            a: ElementType::Tf32,
            f: Format::Tf32,
            k: 8,
            bits: 32,
            scale: None,
        },
        NegCase {
            kind: Kind::F16,
            a: ElementType::F16,
            f: Format::F16,
            k: 16,
            bits: 16,
            scale: None,
        },
        NegCase {
            kind: Kind::F16,
            a: ElementType::Bf16,
            f: Format::Bf16,
            k: 16,
            bits: 16,
            scale: None,
        },
        NegCase {
            kind: Kind::F8f6f4,
            a: ElementType::E4m3,
            f: Format::E4m3,
            k: 32,
            bits: 8,
            scale: None,
        },
        NegCase {
            kind: Kind::Mxf8f6f4,
            a: ElementType::E5m2,
            f: Format::E5m2,
            k: 32,
            bits: 8,
            scale: Some((
                ScaleType::Ue8m0,
                Format::Ue8m0,
                0x7F,
                32,
                ".block_scale.scale_vec::1X",
            )),
        },
        NegCase {
            kind: Kind::Mxf4,
            a: ElementType::E2m1,
            f: Format::E2m1,
            k: 64,
            bits: 4,
            scale: Some((
                ScaleType::Ue8m0,
                Format::Ue8m0,
                0x7F,
                32,
                ".block_scale.scale_vec::2X",
            )),
        },
        NegCase {
            kind: Kind::Mxf4nvf4,
            a: ElementType::E2m1,
            f: Format::E2m1,
            k: 64,
            bits: 4,
            scale: Some((
                ScaleType::Ue4m3,
                Format::Ue4m3,
                0x38,
                16,
                ".block_scale.block16",
            )),
        },
    ];
    for case in &cases {
        for (na, nb) in [(false, false), (true, false), (false, true), (true, true)] {
            let wrong = run_negation(case, na, nb);
            assert_eq!(
                wrong, 0,
                "kind::{} {:?}, negate A {na}, negate B {nb}: {wrong} D values differ from the arithmetic of the negated inputs",
                case.kind.name(),
                case.a
            );
        }
    }
    println!("{} kinds x 4 negations, every D value equal", cases.len());
}
