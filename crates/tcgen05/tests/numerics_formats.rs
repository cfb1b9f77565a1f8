//! Element formats against independent expectations: every code of every format of 8 bits or
//! fewer, all 2^16 codes of f16 and bf16, and a sample of f32/tf32 words.
//!
//! Expectations: the `half` crate (f16, bf16, and e5m2 as the top byte of an f16), the `float8`
//! crate (e4m3), Rust's own `f32` (f32, tf32), and for e3m2/e2m3/e2m1/ue8m0/ue4m3 the value
//! formula of the OCP MX specification evaluated in `f64`, anchored on the largest values the
//! PTX ISA / CUTLASS `exmy_base.h` state (28, 7.5, 6, 448).
use tcgen05::numerics::format::{DecodeError, Exact, Format, Rounding, Value};

fn value_f64(v: Value) -> Option<f64> {
    match v {
        Value::Zero { neg } => Some(if neg { -0.0 } else { 0.0 }),
        Value::Finite { .. } => Some(Exact::of(v).expect("test input").to_f64()),
        Value::Inf { neg } => Some(if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }),
        Value::NaN => None,
        Value::Int(i) => Some(i as f64),
    }
}

/// Checks one code: same class and same value (bitwise on f64, so the sign of zero counts).
fn check(f: Format, code: u32, want: f64) {
    let got = f
        .decode(code)
        .unwrap_or_else(|e| panic!("{f} {code:#x}: {e}"));
    match value_f64(got) {
        None => assert!(want.is_nan(), "{f} {code:#x}: got NaN, want {want}"),
        Some(g) => assert_eq!(
            g.to_bits(),
            want.to_bits(),
            "{f} {code:#x}: got {g}, want {want}"
        ),
    }
    // exponent convention: max(floor(log2|x|), emin), significand < 2 (normal) or < 1 (subnormal)
    if let Value::Finite { exp, sig, frac, .. } = got {
        let emin = f.emin().expect("test input");
        assert!(exp >= emin);
        let normal = sig >> frac == 1;
        assert!(sig >> frac <= 1);
        if !normal {
            assert_eq!(exp, emin, "{f} {code:#x}: subnormal keeps emin");
        } else {
            assert_eq!(2f64.powi(exp), 2f64.powi(want.abs().log2().floor() as i32));
        }
    }
    // encode(decode(code)) == code for every non-NaN code, both roundings
    if let Some(x) = Exact::of(got) {
        for mode in [Rounding::NearestEven, Rounding::TowardZero] {
            assert_eq!(
                f.encode(x, mode),
                Ok(code),
                "{f} {code:#x} re-encodes to itself"
            );
        }
    }
    if matches!(got, Value::Inf { .. }) {
        let ok = matches!(
            f,
            Format::F16 | Format::Bf16 | Format::E5m2 | Format::F32 | Format::Tf32
        );
        assert!(ok);
    }
}

fn ocp(code: u32, e_bits: u32, m_bits: u32, bias: i32) -> f64 {
    let s = if code >> (e_bits + m_bits) & 1 == 1 {
        -1.0
    } else {
        1.0
    };
    let e = (code >> m_bits) & ((1 << e_bits) - 1);
    let m = f64::from(code & ((1 << m_bits) - 1)) / f64::from(1u32 << m_bits);
    if e == 0 {
        s * 2f64.powi(1 - bias) * m
    } else {
        s * 2f64.powi(e as i32 - bias) * (1.0 + m)
    }
}

#[test]
fn f16_all_65536_codes_match_half() {
    for c in 0..=0xFFFFu32 {
        check(
            Format::F16,
            c,
            f64::from(half::f16::from_bits(c as u16).to_f32()),
        );
    }
}

#[test]
fn bf16_all_65536_codes_match_half() {
    for c in 0..=0xFFFFu32 {
        check(
            Format::Bf16,
            c,
            f64::from(half::bf16::from_bits(c as u16).to_f32()),
        );
    }
}

#[test]
fn e5m2_all_codes_are_the_top_byte_of_an_f16() {
    for c in 0..=0xFFu32 {
        check(
            Format::E5m2,
            c,
            f64::from(half::f16::from_bits((c << 8) as u16).to_f32()),
        );
    }
}

#[test]
fn e4m3_all_codes_match_float8() {
    let mut nans = 0;
    for c in 0..=0xFFu32 {
        let want = float8::F8E4M3::from_bits(c as u8).to_f64();
        nans += u32::from(want.is_nan());
        check(Format::E4m3, c, want);
    }
    assert_eq!(nans, 2, "only 0x7F and 0xFF are NaN (PTX ISA 5.2.5)");
    assert_eq!(
        value_f64(Format::E4m3.decode(0x7E).expect("test input")),
        Some(448.0)
    );
}

#[test]
fn fp6_fp4_all_codes_match_the_ocp_formula_and_ptx_maxima() {
    for (f, eb, mb, bias, max) in [
        (Format::E3m2, 3, 2, 3, 28.0),
        (Format::E2m3, 2, 3, 1, 7.5),
        (Format::E2m1, 2, 1, 1, 6.0),
    ] {
        let n = 1u32 << (1 + eb + mb);
        let mut largest = 0f64;
        for c in 0..n {
            let want = ocp(c, eb, mb, bias);
            largest = largest.max(want);
            check(f, c, want);
        }
        assert_eq!(largest, max, "{f}");
        assert_eq!(
            f.decode(n),
            Err(DecodeError::TooWide { format: f, code: n })
        );
    }
    let e2m1: Vec<f64> = (0..8)
        .map(|c| value_f64(Format::E2m1.decode(c).expect("test input")).expect("test input"))
        .collect();
    assert_eq!(e2m1, [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]);
}

#[test]
fn scale_formats_all_codes() {
    for c in 0..=0xFFu32 {
        let want = if c == 0xFF {
            f64::NAN
        } else {
            2f64.powi(c as i32 - 127)
        };
        check(Format::Ue8m0, c, want);
    }
    for c in 0..=0x7Fu32 {
        let want = if c == 0x7F { f64::NAN } else { ocp(c, 4, 3, 7) };
        check(Format::Ue4m3, c, want);
    }
    for c in 0x80..=0xFFu32 {
        assert_eq!(
            Format::Ue4m3.decode(c),
            Err(DecodeError::Ue4m3SignBit { code: c })
        );
    }
    assert_eq!(
        value_f64(Format::Ue4m3.decode(0x7E).expect("test input")),
        Some(448.0)
    );
}

/// UE5M3 (PTX ISA 9.4): unsigned, 5 exponent and 3 fraction bits, no infinity, 0xFF the only
/// NaN; the text's smallest value 2^-17 (0x01) and largest 114688 (0xFE) fix the bias at 15.
/// Every code against the unsigned OCP formula with that bias, the landmarks as the text gives
/// them, and each value re-encoding to its code ([`check`]).
#[test]
fn ue5m3_all_codes_match_the_ptx_9_4_format() {
    for c in 0..=0xFFu32 {
        let want = if c == 0xFF {
            f64::NAN
        } else {
            ocp(c, 5, 3, 15)
        };
        check(Format::Ue5m3, c, want);
    }
    let v = |c| value_f64(Format::Ue5m3.decode(c).expect("a code"));
    assert_eq!(v(0x01), Some(2f64.powi(-17)));
    assert_eq!(v(0xFE), Some(114688.0));
    assert_eq!(v(0xFF), None);
    assert_eq!(v(0x78), Some(1.0));
    assert_eq!(Format::from_name("ue5m3"), Some(Format::Ue5m3));
    // Codes rise with the value: no sign bit, no infinity.
    for c in 1..0xFFu32 {
        assert!(v(c) > v(c - 1), "{c:#x}");
    }
}

#[test]
fn integers_all_codes() {
    for c in 0..=0xFFu32 {
        assert_eq!(
            Format::S8.decode(c),
            Ok(Value::Int(i64::from(c as u8 as i8)))
        );
        assert_eq!(Format::U8.decode(c), Ok(Value::Int(i64::from(c))));
    }
    assert_eq!(Format::S32.decode(0x8000_0000), Ok(Value::Int(-(1 << 31))));
    assert_eq!(
        Format::S8.decode(0x100),
        Err(DecodeError::TooWide {
            format: Format::S8,
            code: 0x100
        })
    );
}

/// splitmix64, the generator the hardware inputs also use.
fn mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn f32_and_tf32_words_match_rust() {
    let mut s = 1u64;
    let mut words: Vec<u32> = (0..1_000_000).map(|_| mix(&mut s) as u32).collect();
    // every exponent and sign with the extreme fractions
    for e in 0..256u32 {
        for m in [0, 1, 0x1FFF, 0x2000, 0x7F_FFFF] {
            words.push(e << 23 | m);
            words.push(1 << 31 | e << 23 | m);
        }
    }
    let mut tf32_nan_to_inf = 0;
    for &w in &words {
        check(Format::F32, w, f64::from(f32::from_bits(w)));
        let t = f32::from_bits(w & !0x1FFF);
        tf32_nan_to_inf += u32::from(f32::from_bits(w).is_nan() && t.is_infinite());
        let got = Format::Tf32.decode(w).expect("test input");
        match value_f64(got) {
            None => assert!(t.is_nan()),
            Some(g) => assert_eq!(g.to_bits(), f64::from(t).to_bits(), "tf32 {w:#x}"),
        }
    }
    assert!(
        tf32_nan_to_inf > 0,
        "a NaN with payload only in the low 13 bits reads as Inf"
    );
}

#[test]
fn rne_and_rz_encoding_of_f16_and_bf16_midpoints_match_half() {
    // For each positive finite code: the midpoint to the next code, and points a quarter ulp on
    // either side, rounded by encode and by `half` (RNE), and by truncation toward zero.
    let mut cases = 0;
    for c in 0..0x7BFFu32 {
        for (f, lo, hi) in [
            (
                Format::F16,
                f64::from(half::f16::from_bits(c as u16).to_f32()),
                f64::from(half::f16::from_bits(c as u16 + 1).to_f32()),
            ),
            (
                Format::Bf16,
                f64::from(half::bf16::from_bits(c as u16).to_f32()),
                f64::from(half::bf16::from_bits(c as u16 + 1).to_f32()),
            ),
        ] {
            for x in [(lo + hi) / 2.0, lo + (hi - lo) / 4.0, hi - (hi - lo) / 4.0] {
                for neg in [false, true] {
                    let v = if neg { -x } else { x };
                    let e = Exact::from_f64(v).expect("test input");
                    let want_rne = match f {
                        Format::F16 => u32::from(half::f16::from_f64(v).to_bits()),
                        _ => u32::from(half::bf16::from_f64(v).to_bits()),
                    };
                    assert_eq!(
                        f.encode(e, Rounding::NearestEven),
                        Ok(want_rne),
                        "{f} RNE {v}"
                    );
                    let want_rz = c | if neg { 0x8000 } else { 0 };
                    assert_eq!(f.encode(e, Rounding::TowardZero), Ok(want_rz), "{f} RZ {v}");
                    cases += 1;
                }
            }
        }
    }
    assert_eq!(cases, 2 * 3 * 2 * 0x7BFF);
    // Overflow: f16 RNE reaches Inf at 65520; RZ keeps 65504 up to 65536.
    let e = |x: f64| Exact::from_f64(x).expect("test input");
    assert_eq!(
        Format::F16.encode(e(65519.0), Rounding::NearestEven),
        Ok(0x7BFF)
    );
    assert_eq!(
        Format::F16.encode(e(65520.0), Rounding::NearestEven),
        Ok(0x7C00)
    );
    assert_eq!(
        Format::F16.encode(e(65535.0), Rounding::TowardZero),
        Ok(0x7BFF)
    );
    assert_eq!(
        Format::F16.encode(e(65536.0), Rounding::TowardZero),
        Ok(0x7C00)
    );
    assert!(Format::E4m3
        .encode(e(480.0), Rounding::NearestEven)
        .is_err());
    assert!(Format::E2m1.encode(e(7.0), Rounding::NearestEven).is_err());
}
