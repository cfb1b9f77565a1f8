//! The functional model's Hopper mode against our own H100 run (`hw/emulator/`): every case of
//! `hw/cases/emulator.txt` is one `wgmma.mma_async m64n8k*` whose A and B the tensor core read
//! through the case's descriptors (every swizzle mode, K- and MN-major where wgmma has them,
//! tiles built by `TileLayout` at several starts and K-blocks) from a 32 KiB shared-memory window
//! of seeded random bytes, with a seeded C or none. The emulator reads the same window through
//! the same descriptors (`emulator::wgmma::run`) and must give every D bit for bit.
//!
//! The case list is generated here (`cases()`) and committed; this test checks the committed
//! file is the generated one (`TCGEN05_WRITE_EMULATOR_CASES=1` rewrites it), regenerates every
//! window from its seed with the fill rules of `hw/emulator/emulator.cu`, and compares with the
//! committed H100 output `hw/emulator/results/emulator-d.bin.gz`.

#![cfg(feature = "alloc")]
#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // a failed unwrap is a failed test

use std::collections::BTreeSet;
use std::io::Read;

use tcgen05::canonical_layout::{ElementStorage, TileLayout};
use tcgen05::emulator::wgmma::{run, WgmmaForm};
use tcgen05::emulator::Cta;
use tcgen05::mma::{ElementType, Major};
use tcgen05::numerics::rng::SplitMix64;
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::targets::Target;

const WINDOW: usize = 32768;
const CASES_PATH: &str = "../../hw/cases/emulator.txt";
const RESULTS_PATH: &str = "../../hw/emulator/results/emulator-d.bin.gz";

/// (A, B, D, satfinite) of each harness configuration, in `emulator.cu`'s order.
fn config(c: u32) -> (ElementType, ElementType, ElementType, bool) {
    use ElementType::*;
    let fp8 = [(E4m3, E4m3), (E4m3, E5m2), (E5m2, E4m3), (E5m2, E5m2)];
    let int = [(S8, S8), (S8, U8), (U8, S8), (U8, U8)];
    match c {
        0 => (F16, F16, F32, false),
        1 => (F16, F16, F16, false),
        2 => (Bf16, Bf16, F32, false),
        3 => (Tf32, Tf32, F32, false),
        4..=7 => (fp8[c as usize - 4].0, fp8[c as usize - 4].1, F32, false),
        8..=11 => (fp8[c as usize - 8].0, fp8[c as usize - 8].1, F16, false),
        _ => (
            int[(c as usize - 12) % 4].0,
            int[(c as usize - 12) % 4].1,
            S32,
            c >= 16,
        ),
    }
}

/// The Hopper descriptor of tcgen05 descriptor fields (2-bit layout type at 62-63).
fn hopper(d: tcgen05::shared_memory_descriptor::SmemDescriptor) -> u64 {
    let f = d.fields();
    let layout: u64 = match f.swizzle {
        Swizzle::None => 0,
        Swizzle::B128 => 1,
        Swizzle::B64 => 2,
        _ => 3,
    };
    u64::from(f.start_address >> 4)
        | u64::from(f.leading_byte_offset >> 4) << 16
        | u64::from(f.stride_byte_offset >> 4) << 32
        | u64::from(f.base_offset) << 49
        | layout << 62
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Case {
    id: u32,
    cfg: u32,
    ta: bool,
    tb: bool,
    scale_d: bool,
    mode: u32,
    seed: u64,
    a: u64,
    b: u64,
}

impl Case {
    fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {:016x} {:016x} {:016x}",
            self.id,
            self.cfg,
            u8::from(self.ta),
            u8::from(self.tb),
            u8::from(self.scale_d),
            self.mode,
            self.seed,
            self.a,
            self.b
        )
    }
}

/// Every case: 20 configurations x majors (K-major; for f16/bf16 also M-major A, N-major B and
/// both) x swizzle modes x tile starts x K-blocks, each with three fillings (raw bits, no
/// Inf/NaN, and no Inf/NaN but one element in 16 raw).
fn cases() -> Vec<Case> {
    let swizzles = [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128];
    let mut out = Vec::new();
    let mut id = 0;
    for cfg in 0..20 {
        let (ta_ty, tb_ty, _, _) = config(cfg);
        let majors: &[(bool, bool)] = if cfg <= 2 {
            &[(false, false), (true, false), (false, true), (true, true)]
        } else {
            &[(false, false)]
        };
        for &(ta, tb) in majors {
            for &swz in &swizzles {
                // N = 8 holds no swizzle atom of an N-major B (16 to 64 elements wide).
                let swz_b = if tb { Swizzle::None } else { swz };
                for (v, (start_a, start_b)) in [(0u32, 0x4000u32), (0x180, 0x4100), (0x400, 0x5000)]
                    .into_iter()
                    .enumerate()
                {
                    let sa = ElementStorage::of(ta_ty, None).unwrap();
                    let sb = ElementStorage::of(tb_ty, None).unwrap();
                    let k = sa.dense_k();
                    let major = |t: bool| if t { Major::Mn } else { Major::K };
                    let tile_a = TileLayout::new(sa, major(ta), swz, 64, 2 * k, start_a);
                    let tile_b = TileLayout::new(sb, major(tb), swz_b, 8, 2 * k, start_b);
                    let kb = (v as u32) % 2;
                    let (Ok(a), Ok(b)) = (
                        tile_a.descriptor(kb, Target::Sm100a),
                        tile_b.descriptor(kb, Target::Sm100a),
                    ) else {
                        continue;
                    };
                    for mode in 0..3 {
                        let mut s = SplitMix64::new(0xE4A1_0000 + u64::from(id));
                        out.push(Case {
                            id,
                            cfg,
                            ta,
                            tb,
                            scale_d: mode == 1 || id % 2 == 1,
                            mode,
                            seed: s.next_u64(),
                            a: hopper(a),
                            b: hopper(b),
                        });
                        id += 1;
                    }
                }
            }
        }
    }
    out
}

fn esize(t: ElementType) -> usize {
    usize::from(t.bits()) / 8
}

/// The window of a case, as `emulator.cu`'s `fill`.
fn window(seed: u64, mode: u32, esize: usize, integer: bool) -> Vec<u8> {
    let mut s = SplitMix64::new(seed);
    let mut w = Vec::with_capacity(WINDOW);
    while w.len() < WINDOW {
        w.extend_from_slice(&s.next_u64().to_le_bytes());
    }
    if mode != 0 && !integer {
        for e in 0..WINDOW / esize {
            if mode == 2 && (e as u32).wrapping_mul(0x9E37_79B1) >> 28 == 0 {
                continue;
            }
            w[e * esize + esize - 1] &= 0xBF;
        }
    }
    w
}

/// C of a case, as `emulator.cu`'s `fill_c`.
fn c_values(seed: u64, d: ElementType) -> Vec<u32> {
    let mut s = SplitMix64::new(seed ^ 0xC0C0_C0C0_C0C0_C0C0);
    (0..512)
        .map(|_| {
            let r = s.next_u64();
            match d {
                ElementType::F16 => (r & 0xBFFF) as u32,
                ElementType::F32 => (r as u32) & 0xBFFF_FFFF,
                _ => r as u32,
            }
        })
        .collect()
}

fn case_file() -> String {
    let mut s = String::from(
        "# Cases of hw/emulator/emulator.cu, generated by crates/tcgen05/tests/emulator_h100.rs\n\
         # (TCGEN05_WRITE_EMULATOR_CASES=1 cargo test -p tcgen05 --test emulator_h100).\n\
         # id config trans-a trans-b scale-d fill seed a-desc b-desc (Hopper descriptors, start\n\
         # address relative to the 1024-byte-aligned 32 KiB window)\n",
    );
    for c in cases() {
        s.push_str(&c.line());
        s.push('\n');
    }
    s
}

#[test]
fn committed_case_file_is_the_generated_one() {
    let want = case_file();
    if std::env::var_os("TCGEN05_WRITE_EMULATOR_CASES").is_some() {
        std::fs::write(CASES_PATH, &want).unwrap();
    }
    let got = std::fs::read_to_string(CASES_PATH).expect("hw/cases/emulator.txt");
    assert!(
        got == want,
        "hw/cases/emulator.txt differs from the generated cases"
    );
}

#[test]
fn emulator_equals_h100_on_every_case() {
    let cases = cases();
    // At least 200 distinct descriptor/type configurations, every swizzle mode, both majors.
    let configs: BTreeSet<_> = cases
        .iter()
        .map(|c| (c.cfg, c.ta, c.tb, c.a, c.b))
        .collect();
    assert!(configs.len() >= 200, "{} configurations", configs.len());
    let swz: BTreeSet<u64> = cases.iter().map(|c| c.a >> 62).collect();
    assert_eq!(swz.len(), 4);
    let mut gz = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(RESULTS_PATH).expect("committed H100 results"),
    )
    .read_to_end(&mut gz)
    .unwrap();
    assert_eq!(gz.len(), cases.len() * 512 * 4, "one 64 x 8 D per case");
    let hw: Vec<u32> = gz
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let (mut equal, mut mismatched_cases) = (0usize, Vec::new());
    let (mut nan, mut inf) = (0usize, 0usize);
    for c in &cases {
        let (a, b, d, sat) = config(c.cfg);
        let mut cta = Cta::new();
        cta.write_smem(0, &window(c.seed, c.mode, esize(a), c.cfg >= 12))
            .unwrap();
        let form = WgmmaForm {
            a,
            b,
            d,
            n: 8,
            transpose_a: c.ta,
            transpose_b: c.tb,
            negate_a: false,
            negate_b: false,
            satfinite: sat,
        };
        let cv = c_values(c.seed, d);
        let got = run(&cta, &form, c.a, c.b, c.scale_d.then_some(&cv[..]))
            .unwrap_or_else(|e| panic!("case {}: {e}", c.id));
        let want = &hw[c.id as usize * 512..(c.id as usize + 1) * 512];
        let same = got.iter().zip(want).filter(|(x, y)| x == y).count();
        equal += same;
        if same != 512 {
            mismatched_cases.push(c.id);
        }
        for &x in want {
            match d {
                ElementType::F32 if (x >> 23) & 0xFF == 0xFF => {
                    if x & 0x7F_FFFF != 0 {
                        nan += 1
                    } else {
                        inf += 1
                    }
                }
                ElementType::F16 if (x >> 10) & 0x1F == 0x1F => {
                    if x & 0x3FF != 0 {
                        nan += 1
                    } else {
                        inf += 1
                    }
                }
                _ => {}
            }
        }
    }
    println!(
        "{} cases ({} descriptor/type configurations): {equal} of {} D values equal; {nan} NaN and {inf} Inf outputs among them",
        cases.len(),
        configs.len(),
        hw.len()
    );
    assert!(
        mismatched_cases.is_empty(),
        "cases with differing D: {mismatched_cases:?}"
    );
    // The fillings reach the special values.
    assert!(nan > 0 && inf > 0);
}

/// The committed H100 D values, one 64 x 8 block per case.
fn hw_results() -> Vec<u32> {
    let mut gz = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(RESULTS_PATH).expect("committed H100 results"),
    )
    .read_to_end(&mut gz)
    .unwrap();
    gz.chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// D of one case on the emulator, with A read through `a_desc`.
fn d_of(c: &Case, a_desc: u64) -> Vec<u32> {
    let (a, b, d, sat) = config(c.cfg);
    let mut cta = Cta::new();
    cta.write_smem(0, &window(c.seed, c.mode, esize(a), c.cfg >= 12))
        .unwrap();
    let form = WgmmaForm {
        a,
        b,
        d,
        n: 8,
        transpose_a: c.ta,
        transpose_b: c.tb,
        negate_a: false,
        negate_b: false,
        satfinite: sat,
    };
    let cv = c_values(c.seed, d);
    run(&cta, &form, a_desc, c.b, c.scale_d.then_some(&cv[..]))
        .unwrap_or_else(|e| panic!("case {}: {e}", c.id))
}

/// The README's sensitivity figure: the H100 data tells the base offset apart. Flipping bit 49
/// (the base offset's low bit, Table 40) of every swizzled A descriptor must change exactly the
/// 237,307 D values the README states (of the 281,088 of those cases).
#[test]
fn flipping_the_base_offset_of_swizzled_a_changes_237307_values() {
    let hw = hw_results();
    let (mut differ, mut total) = (0usize, 0usize);
    for c in cases().iter().filter(|c| c.a >> 62 != 0) {
        let got = d_of(c, c.a ^ 1 << 49);
        let want = &hw[c.id as usize * 512..(c.id as usize + 1) * 512];
        differ += got.iter().zip(want).filter(|(x, y)| x != y).count();
        total += 512;
    }
    println!("base offset bit 49 flipped in every swizzled A descriptor: {differ} of {total} D values differ from the H100's");
    assert_eq!(differ, 237_307);
}
