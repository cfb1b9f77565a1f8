//! Worked examples with published answers, and the special-value rules.
//!
//! MMA-Sim's example (paper Eq. 10 / Table 8, `../shared/spec/mma-numerics.md` 6.2):
//! a = [-2^13, -0.5, -0.25, -0.125], b = [2^10, 1, 1, 1], C = 2^23, padded with zeros. Exact
//! -0.875; Hopper wgmma f16 -> -0.75; Hopper wgmma e5m2 -> 0.0; Blackwell tcgen05 e5m2 -> -0.75.
use tcgen05::mma::Kind;
use tcgen05::numerics::format::{Exact, Format, Rounding};
use tcgen05::numerics::{Arch, Dot, Form, Operands};

fn code(f: Format, x: f64) -> u32 {
    match Exact::from_f64(x) {
        Some(e) => f.encode(e, Rounding::NearestEven).expect("test input"),
        // infinities: all-ones exponent
        None => match (f, x > 0.0) {
            (Format::F16, true) => 0x7C00,
            (Format::F16, false) => 0xFC00,
            (_, true) => 0x7F80_0000,
            (_, false) => 0xFF80_0000,
        },
    }
}

fn run(arch: Arch, kind: Kind, t: Format, a: &[f64], b: &[f64], c: f64) -> Dot {
    let row = Form {
        arch,
        instruction: None,
        kind,
        a: t,
        b: t,
        d: None,
        scale: None,
        block: None,
    }
    .row()
    .expect("test input");
    let k = row.algorithm.k() as usize;
    let mut av: Vec<u32> = a.iter().map(|&x| code(t, x)).collect();
    let mut bv: Vec<u32> = b.iter().map(|&x| code(t, x)).collect();
    av.resize(k, 0);
    bv.resize(k, 0);
    row.dot(
        &Operands {
            a: &av,
            b: &bv,
            c: code(Format::F32, c),
            sfa: &[],
            sfb: &[],
        },
        false,
    )
    .expect("test input")
}

#[test]
fn mma_sim_worked_example() {
    let a = [-8192.0, -0.5, -0.25, -0.125];
    let b = [1024.0, 1.0, 1.0, 1.0];
    let c = 8_388_608.0;
    let hopper_f16 = run(Arch::Sm90a, Kind::F16, Format::F16, &a, &b, c);
    assert_eq!(f32::from_bits(hopper_f16.d_bits), -0.75);
    assert_eq!(hopper_f16.exact.to_string(), "-0.875");
    assert_eq!(hopper_f16.e_max, Some(23));
    let hopper_e5m2 = run(Arch::Sm90a, Kind::F8f6f4, Format::E5m2, &a, &b, c);
    assert_eq!(hopper_e5m2.d_bits, 0, "+0.0, not -0.0");
    let blackwell_e5m2 = run(Arch::Sm100a, Kind::F8f6f4, Format::E5m2, &a, &b, c);
    assert_eq!(f32::from_bits(blackwell_e5m2.d_bits), -0.75);
    assert_eq!(blackwell_e5m2.exact.to_string(), "-0.875");
}

#[test]
fn special_values() {
    let inf = f64::INFINITY;
    let r =
        |a: &[f64], b: &[f64], c: f64| run(Arch::Sm100a, Kind::F16, Format::F16, a, b, c).d_bits;
    assert_eq!(r(&[inf, 1.0], &[1.0, 1.0], 0.0), 0x7F80_0000);
    assert_eq!(r(&[inf, 1.0], &[-1.0, 1.0], 0.0), 0xFF80_0000);
    assert_eq!(r(&[inf, inf], &[1.0, -1.0], 0.0), 0x7FFF_FFFF, "+Inf - Inf");
    assert_eq!(r(&[inf], &[0.0], 0.0), 0x7FFF_FFFF, "Inf * 0");
    assert_eq!(r(&[1.0], &[1.0], -inf), 0xFF80_0000);
    assert_eq!(
        r(&[-0.0, -0.0], &[1.0, 1.0], -0.0),
        0,
        "-0 products and -0 C give +0"
    );
    assert_eq!(r(&[1.0], &[-1.0], 1.0), 0, "exact cancellation gives +0");
    // a negative result below half the smallest f16 subnormal rounds to +0, not -0
    let f16d = Form {
        arch: Arch::Sm100a,
        instruction: None,
        kind: Kind::F16,
        a: Format::F16,
        b: Format::F16,
        d: Some(Format::F16),
        scale: None,
        block: None,
    }
    .row()
    .expect("test input");
    let mut a = vec![0u32; 16];
    a[0] = code(Format::F16, -(2f64.powi(-14)));
    let mut b = vec![0u32; 16];
    b[0] = code(Format::F16, 2f64.powi(-14));
    let d = f16d
        .dot(
            &Operands {
                a: &a,
                b: &b,
                c: 0,
                sfa: &[],
                sfb: &[],
            },
            false,
        )
        .expect("test input");
    assert_eq!(d.d_bits, 0, "-2^-28 in f16 D is +0");
    b[0] = code(Format::F16, 2f64.powi(-10)); // -2^-24: the smallest subnormal, kept
    let d = f16d
        .dot(
            &Operands {
                a: &a,
                b: &b,
                c: 0,
                sfa: &[],
                sfb: &[],
            },
            false,
        )
        .expect("test input");
    assert_eq!(d.d_bits, 0x8001);
    // NaN inputs give the canonical NaN, f16 D too
    let nan16 = Form {
        arch: Arch::Sm90a,
        instruction: None,
        kind: Kind::F16,
        a: Format::F16,
        b: Format::F16,
        d: Some(Format::F16),
        scale: None,
        block: None,
    }
    .row()
    .expect("test input");
    let mut a = vec![0u32; 16];
    a[3] = 0x7E01;
    let d = nan16
        .dot(
            &Operands {
                a: &a,
                b: &[0x3C00; 16],
                c: 0,
                sfa: &[],
                sfb: &[],
            },
            false,
        )
        .expect("test input");
    assert_eq!(d.d_bits, 0x7FFF);
}

#[test]
fn integer_wrap_and_saturation() {
    let row = Form {
        arch: Arch::Sm90a,
        instruction: None,
        kind: Kind::I8,
        a: Format::S8,
        b: Format::S8,
        d: None,
        scale: None,
        block: None,
    }
    .row()
    .expect("test input");
    let a = [0x80u32; 32]; // -128
    let b = [0x80u32; 32]; // -128: 32 * 16384 = 524288
    let c = 0x7FFF_FFFFu32;
    let wrap = row
        .dot(
            &Operands {
                a: &a,
                b: &b,
                c,
                sfa: &[],
                sfb: &[],
            },
            false,
        )
        .expect("test input");
    assert_eq!(wrap.d_bits, 0x7FFF_FFFFu32.wrapping_add(524_288));
    let sat = row
        .dot(
            &Operands {
                a: &a,
                b: &b,
                c,
                sfa: &[],
                sfb: &[],
            },
            true,
        )
        .expect("test input");
    assert_eq!(sat.d_bits, 0x7FFF_FFFF);
}

#[test]
fn every_problem_is_reported() {
    let row = Form {
        arch: Arch::Sm100a,
        instruction: None,
        kind: Kind::Mxf4nvf4,
        a: Format::E2m1,
        b: Format::E2m1,
        d: None,
        scale: Some(Format::Ue4m3),
        block: Some(16),
    }
    .row()
    .expect("test input");
    let mut a = vec![0u32; 63];
    a[5] = 0x10;
    let err = row
        .dot(
            &Operands {
                a: &a,
                b: &[0; 64],
                c: 0,
                sfa: &[0x80, 0, 0, 0],
                sfb: &[0; 3],
            },
            true,
        )
        .expect_err("an error");
    let text = err.to_string();
    for want in [
        "a: ",
        "sfb: ",
        "a[5]",
        "sfa[0]",
        "satfinite",
        "operand-count",
        "scale-count",
        "bad-code",
        "ue4m3 code 0x80",
    ] {
        assert!(text.contains(want), "{want} missing from {text}");
    }
    assert_eq!(err.problems.len(), 5);
}
