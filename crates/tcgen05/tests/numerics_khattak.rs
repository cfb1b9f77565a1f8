//! Published hardware data: every result file of Khattak & Mikaitis' H100 and B200 folders
//! (`../shared/oracles/khattak-mikaitis/`, 16 files of 5,000 results) reproduced bit for bit by
//! the model of the instruction that produced it (that folder's README says which):
//!
//! - H100 and B200 fp16/bf16/tf32: WMMA = `mma.sync` (HMMA) rows of the table;
//! - H100 E4M3/E5M2 with f32 D: `wgmma` with C = 0 (the Hopper FP8 path, F = 13);
//! - H100 E4M3/E5M2 with f16 D and every B200 FP8 file: `mma.sync` FP8, which ptxas lowers to
//!   two HMMA blocks and an add of C (the `HmmaFp8` rows).
//!
//! For f16-D files the C the hardware saw is the f32 C rounded to f16 (RNE). Operand vectors
//! shorter than the instruction's K are padded with zeros.
mod numerics_common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use tcgen05::mma::Kind;
use tcgen05::numerics::format::{Exact, Format, Rounding};
use tcgen05::numerics::{Arch, Form, Instruction, Operands};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracles/khattak-mikaitis")
}

fn lines(path: &PathBuf) -> Vec<String> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(flate2::read::GzDecoder::new(f))
        .lines()
        .map(Result::unwrap)
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// An FP32 word of a value exactly representable in `f`, as `f`'s code.
fn code_of(f: Format, word: u32) -> u32 {
    let x = Exact::from_f64(f64::from(f32::from_bits(word))).expect("finite input");
    let c = f.encode(x, Rounding::NearestEven).expect("representable");
    let back = Exact::of(f.decode(c).expect("test input")).expect("test input");
    assert_eq!(
        back.to_f64(),
        x.to_f64(),
        "input {word:#010x} is exact in {f}"
    );
    c
}

struct Case {
    gpu: &'static str,
    fmt: &'static str,
    dout: &'static str,
    arch: Arch,
    instruction: Instruction,
    kind: Kind,
    ab: Format,
    d: Format,
    c_zero: bool,
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (gpu, arch) in [("H100", Arch::Sm90a), ("B200", Arch::Sm100a)] {
        for (fmt, kind, ab, douts) in [
            ("fp16", Kind::F16, Format::F16, &["fp32", "fp16"][..]),
            ("bf16", Kind::F16, Format::Bf16, &["fp32"][..]),
            ("tf32", Kind::Tf32, Format::Tf32, &["fp32"][..]),
            ("E4M3", Kind::F8f6f4, Format::E4m3, &["fp32", "fp16"][..]),
            ("E5M2", Kind::F8f6f4, Format::E5m2, &["fp32", "fp16"][..]),
        ] {
            for &dout in douts {
                let d = if dout == "fp32" {
                    Format::F32
                } else {
                    Format::F16
                };
                let wgmma = gpu == "H100" && kind == Kind::F8f6f4 && d == Format::F32;
                v.push(Case {
                    gpu,
                    fmt,
                    dout,
                    arch,
                    instruction: if wgmma {
                        Instruction::Wgmma
                    } else {
                        Instruction::MmaSync
                    },
                    kind,
                    ab,
                    d,
                    c_zero: wgmma,
                });
            }
        }
    }
    v
}

#[test]
fn every_khattak_h100_and_b200_file_bit_for_bit() {
    let mut total = 0;
    let mut files = 0;
    for cs in cases() {
        let dir = root().join(cs.gpu).join(cs.fmt);
        let a = lines(&dir.join(format!("a_{}_{}.txt.gz", cs.gpu, cs.fmt)));
        let b = lines(&dir.join(format!("b_{}_{}.txt.gz", cs.gpu, cs.fmt)));
        let c = lines(&dir.join(format!("c_{}_fp32.txt.gz", cs.gpu)));
        let d = lines(&dir.join(format!("d_{}_{}.txt.gz", cs.gpu, cs.dout)));
        assert_eq!(
            (a.len(), b.len(), c.len(), d.len()),
            (5000, 5000, 5000, 5000),
            "{}/{}",
            cs.gpu,
            cs.fmt
        );
        let row = Form {
            arch: cs.arch,
            instruction: Some(cs.instruction),
            kind: cs.kind,
            a: cs.ab,
            b: cs.ab,
            d: Some(cs.d),
            scale: None,
            block: None,
        }
        .row()
        .expect("test input");
        let k = row.algorithm.k() as usize;
        let mut mismatches = 0;
        let mut first = None;
        for i in 0..5000 {
            let parse = |l: &str| -> Vec<u32> {
                let mut v: Vec<u32> = l
                    .split_whitespace()
                    .map(|w| code_of(cs.ab, u32::from_str_radix(w, 16).expect("test input")))
                    .collect();
                assert!(v.len() <= k);
                v.resize(k, 0);
                v
            };
            let (av, bv) = (parse(&a[i]), parse(&b[i]));
            let c32 = u32::from_str_radix(c[i].trim(), 2).expect("test input");
            let cc = if cs.c_zero {
                0
            } else if cs.d == Format::F16 {
                let x = Exact::from_f64(f64::from(f32::from_bits(c32))).expect("test input");
                Format::F16
                    .encode(x, Rounding::NearestEven)
                    .expect("test input")
            } else {
                c32
            };
            let want32 = u32::from_str_radix(d[i].trim(), 2).expect("test input");
            let want = if cs.d == Format::F16 {
                // the file widens f16 results to f32 bits
                let x = Exact::from_f64(f64::from(f32::from_bits(want32))).expect("test input");
                Format::F16
                    .encode(x, Rounding::NearestEven)
                    .expect("test input")
            } else {
                want32
            };
            let ops = Operands {
                a: &av,
                b: &bv,
                c: cc,
                sfa: &[],
                sfb: &[],
            };
            let got = row.dot(&ops, false).expect("test input").d_bits;
            assert_eq!(
                numerics_common::fast_dot(&row, &ops, false),
                got,
                "fast path"
            );
            if got != want {
                mismatches += 1;
                first.get_or_insert((i, got, want));
            }
        }
        println!(
            "{}/{} d {}: {} {} {}: {} of 5000 identical",
            cs.gpu,
            cs.fmt,
            cs.dout,
            cs.instruction.name(),
            row.algorithm.name(),
            row.algorithm
                .f()
                .map_or(String::new(), |f| format!("F={f}")),
            5000 - mismatches
        );
        assert_eq!(
            mismatches, 0,
            "{}/{} d {}: first mismatch (line, model, hardware) {:?}",
            cs.gpu, cs.fmt, cs.dout, first
        );
        total += 5000;
        files += 1;
    }
    assert_eq!(files, 16);
    println!("{files} files, {total} results, all identical");
}

/// The data discriminates: a model one fraction bit off, or with the f32 output rounding on
/// Hopper FP8, disagrees with the hardware on many lines.
#[test]
fn wrong_parameters_are_caught() {
    use tcgen05::numerics::{Algorithm, OutputRounding};
    let dir = root().join("H100");
    let run = |fmt: &str, ab: Format, alg: Algorithm, kind: Kind| -> usize {
        let a = lines(&dir.join(fmt).join(format!("a_H100_{fmt}.txt.gz")));
        let b = lines(&dir.join(fmt).join(format!("b_H100_{fmt}.txt.gz")));
        let c = lines(&dir.join(fmt).join("c_H100_fp32.txt.gz"));
        let d = lines(&dir.join(fmt).join("d_H100_fp32.txt.gz"));
        let mut row = Form {
            arch: Arch::Sm90a,
            instruction: None,
            kind,
            a: ab,
            b: ab,
            d: None,
            scale: None,
            block: None,
        }
        .row()
        .expect("test input");
        row.algorithm = alg;
        let k = alg.k() as usize;
        let fp8 = kind == Kind::F8f6f4;
        (0..5000)
            .filter(|&i| {
                let p = |l: &str| -> Vec<u32> {
                    let mut v: Vec<u32> = l
                        .split_whitespace()
                        .map(|w| code_of(ab, u32::from_str_radix(w, 16).expect("test input")))
                        .collect();
                    v.resize(k, 0);
                    v
                };
                let cc = if fp8 {
                    0
                } else {
                    u32::from_str_radix(c[i].trim(), 2).expect("test input")
                };
                let want = u32::from_str_radix(d[i].trim(), 2).expect("test input");
                row.dot(
                    &Operands {
                        a: &p(&a[i]),
                        b: &p(&b[i]),
                        c: cc,
                        sfa: &[],
                        sfb: &[],
                    },
                    false,
                )
                .expect("test input")
                .d_bits
                    != want
            })
            .count()
    };
    let t = |f, l, out| Algorithm::TFdpa {
        f,
        l,
        e_zero: -133,
        out,
    };
    for (what, fmt, ab, kind, alg) in [
        (
            "F 12",
            "E4M3",
            Format::E4m3,
            Kind::F8f6f4,
            t(12, 32, OutputRounding::RzE8m13),
        ),
        (
            "F 14",
            "E4M3",
            Format::E4m3,
            Kind::F8f6f4,
            t(14, 32, OutputRounding::RzE8m13),
        ),
        (
            "RZ-FP32 output",
            "E4M3",
            Format::E4m3,
            Kind::F8f6f4,
            t(13, 32, OutputRounding::RzF32),
        ),
        (
            "F 24",
            "fp16",
            Format::F16,
            Kind::F16,
            t(24, 16, OutputRounding::RzF32),
        ),
        (
            "F 26",
            "fp16",
            Format::F16,
            Kind::F16,
            t(26, 16, OutputRounding::RzF32),
        ),
    ] {
        let bad = run(fmt, ab, alg, kind);
        println!("H100/{fmt} with {what}: {bad} of 5000 differ");
        assert!(bad > 250, "{what}: only {bad} mismatches");
    }
}
