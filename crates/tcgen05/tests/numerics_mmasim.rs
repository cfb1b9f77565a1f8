//! Differential test against MMA-Sim 2.1.1: for every tcgen05.mma kind and type pair and every
//! wgmma form (95 forms), the D that MMA-Sim computed for seeded uniform random bit patterns
//! (NaN, Inf, subnormals and -0 all occur) must equal this model's, bit for bit.
//!
//! `conformance/mmasim/run.sh` installs MMA-Sim 2.1.1 with torch in a pinned virtual
//! environment and writes `conformance/mmasim/mmasim-2.1.1.txt.gz` (one line per form: its name
//! and the hex D codes). The inputs are not stored: this test regenerates them from the form's
//! name exactly as `conformance/mmasim/gen.py` does (splitmix64 seeded with FNV-1a of the name;
//! a code is the top `width` bits of one output word).
mod numerics_common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use tcgen05::mma::Kind;
use tcgen05::numerics::format::Format;
use tcgen05::numerics::rng::SplitMix64;
use tcgen05::numerics::{Arch, Form, Instruction, Operands};

fn fnv1a64(s: &str) -> u64 {
    s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x100_0000_01B3)
    })
}

fn fmt(s: &str) -> Format {
    Format::from_name(s).unwrap_or_else(|| panic!("format {s}"))
}

/// The code width the generator draws (ue4m3: 7, its bit 7 must be zero).
fn width(f: Format) -> u32 {
    if f == Format::Ue4m3 {
        7
    } else {
        f.width()
    }
}

/// The form a vector-file name stands for.
fn form_of(name: &str) -> Form {
    let parts: Vec<&str> = name.split('.').collect();
    let kind_of = |a: Format| match a {
        Format::Tf32 => Kind::Tf32,
        Format::F16 | Format::Bf16 => Kind::F16,
        _ => Kind::F8f6f4,
    };
    match parts[0] {
        "wgmma" => {
            let (d, a, b) = (fmt(parts[2]), fmt(parts[3]), fmt(parts[4]));
            Form {
                arch: Arch::Sm90a,
                instruction: Some(Instruction::Wgmma),
                kind: kind_of(a),
                a,
                b,
                d: Some(d),
                scale: None,
                block: None,
            }
        }
        _ => {
            let kind = Kind::from_name(parts[2]).expect("kind");
            if kind.is_block_scaled() {
                let block: u32 = parts[3].trim_start_matches("block").parse().expect("block");
                Form {
                    arch: Arch::Sm100a,
                    instruction: Some(Instruction::Tcgen05Mma),
                    kind,
                    a: fmt(parts[5]),
                    b: fmt(parts[6]),
                    d: Some(fmt(parts[4])),
                    scale: Some(fmt(parts[7])),
                    block: Some(block),
                }
            } else {
                Form {
                    arch: Arch::Sm100a,
                    instruction: Some(Instruction::Tcgen05Mma),
                    kind,
                    a: fmt(parts[4]),
                    b: fmt(parts[5]),
                    d: Some(fmt(parts[3])),
                    scale: None,
                    block: None,
                }
            }
        }
    }
}

#[test]
fn every_mmasim_vector_bit_for_bit() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/mmasim/mmasim-2.1.1.txt.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut forms = 0;
    let mut total = 0;
    let mut fast_checked = 0usize;
    let mut wgmma = 0;
    let mut failures = Vec::new();
    let (mut nan_d, mut inf_d, mut zero_d) = (0, 0, 0);
    for line in BufReader::new(flate2::read::GzDecoder::new(file)).lines() {
        let line = line.expect("readable");
        let (name, hex) = line.split_once('\t').expect("NAME<TAB>codes");
        let form = form_of(name);
        let row = form.row().unwrap_or_else(|e| panic!("{name}: {e}"));
        let k = row.algorithm.k() as usize;
        let ns = row.scale.map_or(0, |(_, b)| k / b as usize);
        let digits = if row.d == Format::F16 { 4 } else { 8 };
        let want: Vec<u32> = (0..hex.len() / digits)
            .map(|i| u32::from_str_radix(&hex[i * digits..(i + 1) * digits], 16).expect("hex"))
            .collect();
        let mut rng = SplitMix64::new(fnv1a64(name));
        let mut draw = |f: Format| (rng.next_u64() >> (64 - width(f))) as u32;
        let sf = row.scale.map_or(Format::Ue8m0, |(f, _)| f);
        let mut bad = 0;
        for (v, &w) in want.iter().enumerate() {
            let a: Vec<u32> = (0..k).map(|_| draw(row.a)).collect();
            let b: Vec<u32> = (0..k).map(|_| draw(row.b)).collect();
            let c = draw(row.d);
            let sfa: Vec<u32> = (0..ns).map(|_| draw(sf)).collect();
            let sfb: Vec<u32> = (0..ns).map(|_| draw(sf)).collect();
            let ops = Operands {
                a: &a,
                b: &b,
                c,
                sfa: &sfa,
                sfb: &sfb,
            };
            let got = row
                .dot(&ops, false)
                .unwrap_or_else(|e| panic!("{name} vector {v}: {e}"))
                .d_bits;
            // The fast path gives the explained path's bits on every vector.
            assert_eq!(
                numerics_common::fast_dot(&row, &ops, false),
                got,
                "{name} vector {v}: fast path"
            );
            fast_checked += 1;
            let (nan, inf) = if row.d == Format::F16 {
                (0x7FFF, 0x7C00)
            } else {
                (0x7FFF_FFFF, 0x7F80_0000)
            };
            nan_d += usize::from(w == nan);
            inf_d += usize::from(w & nan == inf);
            zero_d += usize::from(w == 0);
            if got != w {
                bad += 1;
                if bad <= 3 {
                    failures.push(format!("{name} vector {v}: model {got:#x}, MMA-Sim {w:#x}; a {a:x?} b {b:x?} c {c:#x} sfa {sfa:x?} sfb {sfb:x?}"));
                }
            }
        }
        println!("{name}: {} of {} identical", want.len() - bad, want.len());
        forms += 1;
        total += want.len();
        wgmma += usize::from(name.starts_with("wgmma"));
        assert!(want.len() >= 10_000, "{name}: only {} vectors", want.len());
    }
    println!("{forms} forms ({wgmma} wgmma), {total} vectors; D was NaN {nan_d}, Inf {inf_d}, +0 {zero_d} times");
    assert!(
        failures.is_empty(),
        "{} mismatching forms:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((forms, wgmma), (95, 12));
    assert_eq!(
        fast_checked, total,
        "every vector through the fast path too"
    );
    // the uniform bit patterns reach the special paths in a real share of the vectors
    let finite = total - nan_d - inf_d;
    println!("D finite {finite}");
    assert!(nan_d > total / 100 && inf_d > total / 1000 && finite > total / 10);
}
