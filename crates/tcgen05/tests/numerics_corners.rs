//! The model against MMA-Sim 2.1.1 on corner vectors that uniform random bit patterns never
//! reach (`conformance/mmasim/corners.py`, results committed in
//! `conformance/mmasim/corners-mmasim-2.1.1.txt`): all-zero products, products below the
//! exponent for zero, one product of opposite sign at each binade around the truncation
//! quantum, one large and many tiny terms, and Hopper FP8 outputs in f32's subnormal range.
//!
//! The second test shows that the vectors pin each row's exponent for zero: moving it by 1..8
//! binades either way makes some vector differ from MMA-Sim. The exception is
//! `kind::f8f6f4` with f32 D, where no input can tell (see the test).
mod numerics_common;

use std::path::PathBuf;

use tcgen05::mma::Kind;
use tcgen05::numerics::format::Format;
use tcgen05::numerics::{Algorithm, Arch, Form, Instruction, Operands, ParamRow};

struct Vector {
    name: String,
    a: Vec<u32>,
    b: Vec<u32>,
    c: u32,
    sfa: Vec<u32>,
    sfb: Vec<u32>,
    d: u32,
}

fn hex_list(s: &str) -> Vec<u32> {
    if s.is_empty() {
        return Vec::new();
    }
    s.split(',')
        .map(|x| u32::from_str_radix(x, 16).unwrap_or_else(|e| panic!("{x}: {e}")))
        .collect()
}

fn vectors() -> Vec<Vector> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/mmasim/corners-mmasim-2.1.1.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let mut parts = line.split(' ');
            let name = parts.next().expect("a name").to_string();
            let mut field = |key: &str| {
                let p = parts.next().expect("a field");
                p.strip_prefix(key)
                    .unwrap_or_else(|| panic!("{line}: {key}"))
                    .to_string()
            };
            let (a, b, c) = (field("a="), field("b="), field("c="));
            let (sfa, sfb, d) = (field("sfa="), field("sfb="), field("d="));
            Vector {
                name,
                a: hex_list(&a),
                b: hex_list(&b),
                c: hex_list(&c)[0],
                sfa: hex_list(&sfa),
                sfb: hex_list(&sfb),
                d: hex_list(&d)[0],
            }
        })
        .collect()
}

fn fmt(s: &str) -> Format {
    Format::from_name(s).unwrap_or_else(|| panic!("format {s}"))
}

/// The form a vector's name stands for (the names of `conformance/mmasim/gen.py`).
fn row_of(name: &str) -> ParamRow {
    let p: Vec<&str> = name.split('.').collect();
    let form = if p[0] == "wgmma" {
        Form {
            arch: Arch::Sm90a,
            instruction: Some(Instruction::Wgmma),
            kind: Kind::F8f6f4,
            a: fmt(p[3]),
            b: fmt(p[4]),
            d: Some(fmt(p[2])),
            scale: None,
            block: None,
        }
    } else {
        let kind = Kind::from_name(p[2].trim_start_matches("kind::")).expect("kind");
        let scaled = kind.is_block_scaled();
        let at = if scaled { 4 } else { 3 };
        Form {
            arch: Arch::Sm100a,
            instruction: Some(Instruction::Tcgen05Mma),
            kind,
            a: fmt(p[at + 1]),
            b: fmt(p[at + 2]),
            d: Some(fmt(p[at])),
            scale: scaled.then(|| fmt(p[7])),
            block: scaled.then(|| p[3].trim_start_matches("block").parse().expect("block")),
        }
    };
    form.row().unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The same row with its exponent for zero moved by `by` binades.
fn e_zero_moved(row: ParamRow, by: i32) -> ParamRow {
    let mut r = row;
    r.algorithm = match row.algorithm {
        Algorithm::TFdpa { f, l, e_zero, out } => Algorithm::TFdpa {
            f,
            l,
            e_zero: e_zero + by,
            out,
        },
        Algorithm::StFdpa { f, l, e_zero } => Algorithm::StFdpa {
            f,
            l,
            e_zero: e_zero + by,
        },
        Algorithm::GstFdpa {
            f,
            group,
            l,
            e_zero,
        } => Algorithm::GstFdpa {
            f,
            group,
            l,
            e_zero: e_zero + by,
        },
        other => other,
    };
    r
}

fn d_of(row: &ParamRow, v: &Vector) -> u32 {
    let ops = Operands {
        a: &v.a,
        b: &v.b,
        c: v.c,
        sfa: &v.sfa,
        sfb: &v.sfb,
    };
    row.dot(&ops, false)
        .unwrap_or_else(|e| panic!("{}: {e}", v.name))
        .d_bits
}

fn forms(vs: &[Vector]) -> Vec<String> {
    let mut names: Vec<String> = vs.iter().map(|v| v.name.clone()).collect();
    names.dedup();
    names
}

#[test]
fn every_corner_vector_bit_for_bit() {
    let vs = vectors();
    let mut bad = Vec::new();
    let mut subnormal_d = 0;
    for v in &vs {
        let row = row_of(&v.name);
        let ops = Operands {
            a: &v.a,
            b: &v.b,
            c: v.c,
            sfa: &v.sfa,
            sfb: &v.sfb,
        };
        let got = d_of(&row, v);
        let fast = numerics_common::fast_dot(&row, &ops, false);
        if got != v.d || fast != v.d {
            bad.push(format!(
                "{} a={:x?} b={:x?} c={:x}: model {got:#x}, fast path {fast:#x}, MMA-Sim {:#x}",
                v.name, v.a, v.b, v.c, v.d
            ));
        }
        subnormal_d += usize::from(row.d == Format::F32 && v.d & 0x7F80_0000 == 0 && v.d != 0);
    }
    let forms = forms(&vs);
    println!(
        "{} corner vectors of {} forms equal to MMA-Sim 2.1.1 ({subnormal_d} subnormal f32 outputs)",
        vs.len() - bad.len(),
        forms.len()
    );
    assert_eq!(forms.len(), 8);
    assert!(vs.len() > 2000, "{}", vs.len());
    assert!(subnormal_d > 500, "{subnormal_d}");
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}

/// Vectors of one form that a row gets wrong.
fn wrong(row: &ParamRow, vs: &[&Vector]) -> usize {
    vs.iter().filter(|v| d_of(row, v) != v.d).count()
}

#[test]
fn the_corner_vectors_tell_each_exponent_for_zero_from_its_neighbours() {
    let vs = vectors();
    // The Hopper form is here for its output rounding's subnormal boundary (RZ to 13 fraction
    // bits, emin -126); its exponent for zero is pinned by tests/numerics_h100.rs.
    for name in forms(&vs).into_iter().filter(|n| !n.starts_with("wgmma")) {
        let of: Vec<&Vector> = vs.iter().filter(|v| v.name == name).collect();
        let row = row_of(&name);
        assert_eq!(wrong(&row, &of), 0, "{name}");
        // Where every non-zero product's alignment exponent (at least emin(A) + emin(B):
        // -28 for f16 and e5m2, more for the narrower types) lies above the exponent for zero
        // and D is f32 (every non-zero C at least -126, subnormals included), the exponent for
        // zero is the largest only when every term is zero (D = +0), or when C alone is
        // non-zero, where at or below -124 it truncates nothing C can hold (-124 - F = -149,
        // f32's quantum): -133 +- 8 are then equivalent over all inputs. Ten binades up
        // truncates C's last bit, which the vectors show.
        let emin = |f: Format| f.emin().expect("a floating-point format");
        // (Block scaling makes any term tiny: never unobservable there.)
        let unobservable = match row.algorithm {
            Algorithm::TFdpa { e_zero, .. } => {
                row.d == Format::F32 && emin(row.a) + emin(row.b) > e_zero + 8
            }
            _ => false,
        };
        let moves: Vec<i32> = (-8..=8).filter(|&m| m != 0).collect();
        let mut told = Vec::new();
        for by in moves {
            let n = wrong(&e_zero_moved(row, by), &of);
            if unobservable {
                assert_eq!(n, 0, "{name}: e_zero {by:+} should be unobservable");
            } else {
                assert!(
                    n > 0,
                    "{name}: no vector tells e_zero {by:+} from the row's"
                );
            }
            told.push(format!("{by:+}: {n}"));
        }
        if unobservable {
            assert!(wrong(&e_zero_moved(row, 10), &of) > 0, "{name}: e_zero +10");
        }
        println!(
            "{name}: vectors wrong with e_zero moved by {}",
            told.join(", ")
        );
    }
}
