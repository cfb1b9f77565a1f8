//! The fused dot-product-add family: T-FDPA, ST-FDPA and GST-FDPA, the integer MMA, and the
//! ptxas emulation of FP8 `mma.sync` on sm_90a/sm_100a.
//!
//! The algorithm, in words (`../shared/spec/mma-numerics.md` sections 2.2-2.5; MMA-Sim 2.1.1
//! `mmasim/arithmetic/fdpa.py`; Khattak & Mikaitis `Generic_BFMA_TC.m`):
//!
//! 1. **Specials first.** Any NaN operand or scale, `Inf * 0`, or `+Inf` with `-Inf` among the
//!    terms gives the canonical NaN (`0x7FFFFFFF` for f32 D, `0x7FFF` for f16 D); otherwise any
//!    infinite term gives that infinity.
//! 2. **Terms.** Each product `a_k * b_k` is exact and is not renormalised: its alignment
//!    exponent is `exp(a_k) + exp(b_k)` (T-FDPA), plus the two UE8M0 scale exponents (ST-FDPA).
//!    GST-FDPA first sums each group of 16 products exactly and multiplies the group sum by its
//!    two scales; the group's alignment exponent is the sum of the scale exponents only. C is
//!    one more term with `exp(c)`. A zero product, an all-zero group, a zero scale product or a
//!    zero C takes the exponent for zero `e_zero`.
//! 3. **Alignment.** `e_max` is the largest alignment exponent; every term is truncated toward
//!    zero (on its magnitude) to a multiple of `2^(e_max - F)`.
//! 4. **Sum.** The truncated terms are added exactly (an `i128`; nothing is lost).
//! 5. **Output.** The sum is converted once: RZ to f32, RZ to 13 fraction bits (Hopper FP8 with
//!    f32 D), or RNE to f16 (overflow to Inf at `2^16`). A zero result, of either sign, is +0.

use core::fmt;

use super::exact::ExactSum;
use super::format::{round, DecodeError, Exact, Format, Rounded, Rounding, Value};

/// The single conversion of the exact sum into D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum OutputRounding {
    /// Truncation to f32 (24 significant bits, subnormals to `2^-149`, `>= 2^128` is Inf).
    RzF32,
    /// Truncation to 14 significant bits (13 fraction bits), stored as f32: Hopper FP8 with f32 D.
    /// Subnormal quantum `2^-139`.
    RzE8m13,
    /// Round to nearest even f16 straight from the exact sum (no f32 step).
    RneF16,
}

impl OutputRounding {
    /// The name used in tables and JSON (`"RZ-FP32"`, `"RZ-E8M13"`, `"RNE-FP16"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OutputRounding::RzF32 => "RZ-FP32",
            OutputRounding::RzE8m13 => "RZ-E8M13",
            OutputRounding::RneF16 => "RNE-FP16",
        }
    }

    /// The format D is stored in.
    #[must_use]
    pub const fn d_format(self) -> Format {
        match self {
            OutputRounding::RzF32 | OutputRounding::RzE8m13 => Format::F32,
            OutputRounding::RneF16 => Format::F16,
        }
    }
}

/// What the integer MMA does when the exact s32 sum does not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Overflow {
    /// Wrap around modulo 2^32 (PTX ISA 9.7.15.5 / 9.7.16: the default).
    Wrap,
    /// `.satfinite` (wgmma) or the saturate bit (tcgen05 kind::i8): clamp to
    /// `[INT32_MIN, INT32_MAX]`. Applied to the final sum (module decision D3).
    Saturate,
}

/// The arithmetic of one instruction form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Algorithm {
    /// Truncated fused dot-product-add of `l` products and C.
    TFdpa {
        /// Fraction bits kept below `2^e_max`.
        f: u32,
        /// Products fused in one block (the instruction's K).
        l: u32,
        /// Exponent of a zero term.
        e_zero: i32,
        /// Output conversion.
        out: OutputRounding,
    },
    /// Scaled T-FDPA: one UE8M0 scale pair per block, whose exponents join every product's.
    StFdpa {
        /// Fraction bits.
        f: u32,
        /// Products per block.
        l: u32,
        /// Exponent of a zero term.
        e_zero: i32,
    },
    /// Group-scaled FDPA: exact sums of `group` products, aligned by their scale exponents.
    GstFdpa {
        /// Fraction bits.
        f: u32,
        /// Products per group.
        group: u32,
        /// Products per instruction.
        l: u32,
        /// Exponent of a zero group or zero C.
        e_zero: i32,
    },
    /// Exact integer dot product into s32.
    Integer {
        /// Products per instruction.
        l: u32,
    },
    /// FP8 `mma.sync` as ptxas lowers it on sm_90a and sm_100a: FP8 unpacked to f16, two
    /// 16-product HMMA blocks (k mod 4 in {0,1}, then {2,3}) chained from +0, then C added
    /// with one round-to-nearest addition in D's format (FADD / HADD2).
    HmmaFp8 {
        /// D's format (f32 or f16).
        out: OutputRounding,
    },
}

impl Algorithm {
    /// Products per instruction (the K the operand vectors must have).
    #[must_use]
    pub const fn k(self) -> u32 {
        match self {
            Algorithm::TFdpa { l, .. }
            | Algorithm::StFdpa { l, .. }
            | Algorithm::GstFdpa { l, .. }
            | Algorithm::Integer { l } => l,
            Algorithm::HmmaFp8 { .. } => 32,
        }
    }

    /// Fraction bits kept below `2^e_max` (`None` for integers).
    #[must_use]
    pub const fn f(self) -> Option<u32> {
        match self {
            Algorithm::TFdpa { f, .. }
            | Algorithm::StFdpa { f, .. }
            | Algorithm::GstFdpa { f, .. } => Some(f),
            Algorithm::HmmaFp8 { .. } => Some(25),
            Algorithm::Integer { .. } => None,
        }
    }

    /// The model's name: `"T-FDPA"`, `"ST-FDPA"`, `"GST-FDPA"`, `"integer"`, `"HMMA-FP8"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::TFdpa { .. } => "T-FDPA",
            Algorithm::StFdpa { .. } => "ST-FDPA",
            Algorithm::GstFdpa { .. } => "GST-FDPA",
            Algorithm::Integer { .. } => "integer",
            Algorithm::HmmaFp8 { .. } => "HMMA-FP8",
        }
    }
}

/// The most terms one instruction fuses: 64 products and C.
pub const MAX_TERMS: usize = 65;

/// The most products one instruction multiplies: 96 (the K = 96 block-scaled MMAs, whose
/// GST-FDPA fuses 6 group sums, not 96 terms).
pub const MAX_PRODUCTS: usize = 96;

/// Which operand a term comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TermSource {
    /// The product `a_k * b_k` (with its scales for ST-FDPA).
    Product(u32),
    /// The sum of the products of group `g` times its scales (GST-FDPA).
    Group(u32),
    /// The accumulator input C.
    C,
}

/// One term of the fused sum, with what alignment did to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Term {
    /// Where it comes from.
    pub source: TermSource,
    /// Its exact value.
    pub value: Exact,
    /// Its alignment exponent (`e_zero` for a zero term).
    pub align_exp: i32,
    /// True when the term took `e_zero`.
    pub zero: bool,
    /// The truncated term in units of `2^(e_max - F)` (signed).
    pub kept: i128,
    /// Bits of the term's magnitude below the unit `2^(e_max - F)` that truncation dropped
    /// (0 when the term is kept exactly).
    pub dropped_bits: u32,
}

const EMPTY_TERM: Term = Term {
    source: TermSource::C,
    value: Exact {
        neg: false,
        mag: 0,
        scale: 0,
    },
    align_exp: 0,
    zero: true,
    kept: 0,
    dropped_bits: 0,
};

/// Why the result is a special value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SpecialCause {
    /// A NaN operand, C or scale.
    NanInput,
    /// An infinite factor times a zero factor.
    InfTimesZero,
    /// Infinite terms of both signs.
    InfMinusInf,
    /// An infinite term (the result is that infinity).
    InfTerm,
}

/// The result of one instruction on one dot product, with its explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dot {
    /// D's bits in D's format (f32 and s32 in 32 bits, f16 in the low 16).
    pub d_bits: u32,
    /// D's format.
    pub d_format: Format,
    /// Set when D is NaN or Inf because of special inputs.
    pub special: Option<SpecialCause>,
    /// The exact value of `sum(a_k b_k [scales]) + c` (when no special value occurs).
    pub exact: ExactSum,
    /// The alignment exponent (floating-point kinds without specials).
    pub e_max: Option<i32>,
    /// The exact integer sum of the truncated terms, in units of `2^(e_max - F)`.
    pub sum: i128,
    terms: [Term; MAX_TERMS],
    n_terms: usize,
    /// For [`Algorithm::HmmaFp8`]: the two intermediate HMMA results (D's format bits).
    pub hmma_steps: Option<(u32, u32)>,
}

impl Dot {
    /// The terms of the fused sum, products (or groups) first and C last.
    #[must_use]
    pub fn terms(&self) -> &[Term] {
        &self.terms[..self.n_terms]
    }
}

/// The operand codes of one dot product: `a[k]`, `b[k]` in their formats' codes, `c` in D's
/// format, and for block-scaled kinds the scale codes that cover each k
/// (`sfa[k / block]`, `sfb[k / block]`).
#[derive(Clone, Copy, Debug)]
pub struct Operands<'a> {
    /// A's element codes.
    pub a: &'a [u32],
    /// B's element codes.
    pub b: &'a [u32],
    /// C's code in D's format.
    pub c: u32,
    /// A's scale codes (empty for unscaled kinds).
    pub sfa: &'a [u32],
    /// B's scale codes.
    pub sfb: &'a [u32],
}

/// The formats an algorithm reads its operands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formats {
    /// A's element format.
    pub a: Format,
    /// B's element format.
    pub b: Format,
    /// C's and D's format.
    pub d: Format,
    /// The scale format and block size (elements per scale), for block-scaled kinds.
    pub scale: Option<(Format, u32)>,
}

/// A code that could not be decoded, with where it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadCode {
    /// The operand and index.
    pub at: TermSourceOperand,
    /// Why.
    pub error: DecodeError,
}

/// An operand position, for errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TermSourceOperand {
    /// `a[k]`.
    A(u32),
    /// `b[k]`.
    B(u32),
    /// C.
    C,
    /// `sfa[i]`.
    Sfa(u32),
    /// `sfb[i]`.
    Sfb(u32),
}

impl fmt::Display for TermSourceOperand {
    /// The position as the tools name it: `a[k]`, `b[k]`, `c`, `sfa[i]`, `sfb[i]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TermSourceOperand::A(k) => write!(f, "a[{k}]"),
            TermSourceOperand::B(k) => write!(f, "b[{k}]"),
            TermSourceOperand::C => f.write_str("c"),
            TermSourceOperand::Sfa(k) => write!(f, "sfa[{k}]"),
            TermSourceOperand::Sfb(k) => write!(f, "sfb[{k}]"),
        }
    }
}

fn dec(f: Format, code: u32, at: TermSourceOperand) -> Result<Value, BadCode> {
    f.decode(code).map_err(|error| BadCode { at, error })
}

fn exp_of(v: Value) -> i32 {
    match v {
        Value::Finite { exp, .. } => exp,
        _ => 0,
    }
}

fn mul(x: Exact, y: Exact) -> Exact {
    Exact {
        neg: x.neg ^ y.neg,
        mag: x.mag * y.mag,
        scale: x.scale + y.scale,
    }
}

/// Truncates `v` toward zero to a multiple of `2^unit`; returns (signed kept count, dropped bits).
fn truncate(v: Exact, unit: i32) -> (i128, u32) {
    if v.mag == 0 {
        return (0, 0);
    }
    let shift = unit - v.scale;
    let (kept, dropped) = if shift <= 0 {
        (v.mag << (-shift) as u32, 0)
    } else if shift >= 128 {
        (0, 128 - v.mag.leading_zeros())
    } else {
        let s = shift as u32;
        let low = v.mag & ((1u128 << s) - 1);
        let dropped = if low == 0 {
            0
        } else {
            s - low.trailing_zeros()
        };
        (v.mag >> s, dropped)
    };
    let kept = kept as i128;
    (if v.neg { -kept } else { kept }, dropped)
}

/// Converts `s * 2^unit` into D's bits with `out`, giving +0 for any zero.
pub(crate) fn output(s: i128, unit: i32, out: OutputRounding) -> u32 {
    let x = Exact {
        neg: s < 0,
        mag: s.unsigned_abs(),
        scale: unit,
    };
    let bits = match out {
        OutputRounding::RzF32 => Format::F32.encode(x, Rounding::TowardZero),
        OutputRounding::RneF16 => Format::F16.encode(x, Rounding::NearestEven),
        OutputRounding::RzE8m13 => match round(x, 14, -126, Rounding::TowardZero) {
            Rounded::Zero => Ok(0),
            Rounded::Finite { sig, q } => Format::F32.encode(
                Exact {
                    neg: x.neg,
                    mag: u128::from(sig),
                    scale: q,
                },
                Rounding::TowardZero,
            ),
        },
    };
    // encode never fails for f32/f16 (they have Inf); a zero keeps no sign
    let bits = bits.unwrap_or(0);
    let mag_mask = if matches!(out, OutputRounding::RneF16) {
        0x7FFF
    } else {
        0x7FFF_FFFF
    };
    if bits & mag_mask == 0 {
        0
    } else {
        bits
    }
}

fn nan_bits(d: Format) -> u32 {
    if d == Format::F16 {
        0x7FFF
    } else {
        0x7FFF_FFFF
    }
}

fn inf_bits(d: Format, neg: bool) -> u32 {
    match (d, neg) {
        (Format::F16, false) => 0x7C00,
        (Format::F16, true) => 0xFC00,
        (_, false) => 0x7F80_0000,
        (_, true) => 0xFF80_0000,
    }
}

/// Runs one instruction's arithmetic on one dot product.
///
/// The caller (usually [`super::params::ParamRow::dot`]) has checked the lengths: `a` and `b`
/// hold exactly `alg.k()` codes and the scale slices one code per block.
///
/// # Errors
/// The first code that does not decode in its format.
pub fn dot(alg: Algorithm, fm: Formats, ops: &Operands<'_>) -> Result<Dot, BadCode> {
    let mut r = Dot {
        d_bits: 0,
        d_format: fm.d,
        special: None,
        exact: ExactSum::ZERO,
        e_max: None,
        sum: 0,
        terms: [EMPTY_TERM; MAX_TERMS],
        n_terms: 0,
        hmma_steps: None,
    };
    let k = ops.a.len().min(ops.b.len());
    if let Algorithm::Integer { .. } = alg {
        return integer_dot(fm, ops, k, r);
    }
    if let Algorithm::HmmaFp8 { out } = alg {
        return hmma_fp8(out, fm, ops, r);
    }

    // Decode everything first (every code is checked even when a NaN settles the result).
    let c = dec(fm.d, ops.c, TermSourceOperand::C)?;
    let decoded = decode_products(alg, fm, ops, k, c)?;
    if let Some(cause) = decoded.special() {
        r.special = Some(cause);
        r.d_bits = match cause {
            SpecialCause::InfTerm => inf_bits(fm.d, decoded.neg_inf),
            _ => nan_bits(fm.d),
        };
        return Ok(r);
    }

    let (f, e_zero, out) = match alg {
        Algorithm::TFdpa { f, e_zero, out, .. } => (f, e_zero, out),
        Algorithm::StFdpa { f, e_zero, .. } | Algorithm::GstFdpa { f, e_zero, .. } => {
            (f, e_zero, OutputRounding::RzF32)
        }
        _ => (25, -133, OutputRounding::RzF32),
    };
    let mut n = if let Algorithm::GstFdpa { group, .. } = alg {
        group_terms(
            &mut r.terms,
            &decoded.prods[..k],
            group,
            fm.scale,
            ops,
            e_zero,
        )?
    } else {
        product_terms(&mut r.terms, &decoded.prods[..k], e_zero)
    };
    let cval = Exact::of(c).unwrap_or(Exact {
        neg: false,
        mag: 0,
        scale: 0,
    });
    r.terms[n] = Term {
        source: TermSource::C,
        value: cval,
        align_exp: if cval.mag == 0 { e_zero } else { exp_of(c) },
        zero: cval.mag == 0,
        kept: 0,
        dropped_bits: 0,
    };
    n += 1;
    r.n_terms = n;
    align_and_sum(&mut r, f, e_zero, out);
    Ok(r)
}

/// The integer MMA: the exact sum of C and the products, wrapped to 32 bits (saturation is
/// applied by the caller).
fn integer_dot(fm: Formats, ops: &Operands<'_>, k: usize, mut r: Dot) -> Result<Dot, BadCode> {
    let c = match dec(fm.d, ops.c, TermSourceOperand::C)? {
        Value::Int(c) => c,
        _ => 0,
    };
    let mut s = i128::from(c);
    for i in 0..k {
        let a = dec(fm.a, ops.a[i], TermSourceOperand::A(i as u32))?;
        let b = dec(fm.b, ops.b[i], TermSourceOperand::B(i as u32))?;
        if let (Value::Int(a), Value::Int(b)) = (a, b) {
            s += i128::from(a * b);
        }
    }
    r.sum = s;
    r.exact.add(Exact {
        neg: s < 0,
        mag: s.unsigned_abs(),
        scale: 0,
    });
    r.d_bits = s as i32 as u32; // wrap; saturation is applied by the caller
    Ok(r)
}

/// The scale code that covers element `i` (`sl[i / block]`), decoded; `None` for an unscaled
/// kind.
fn scale_of(
    scale: Option<(Format, u32)>,
    sl: &[u32],
    i: usize,
    which: fn(u32) -> TermSourceOperand,
) -> Result<Option<Value>, BadCode> {
    match scale {
        Some((f, block)) => {
            let j = i / block as usize;
            let v = dec(f, sl[j], which(j as u32))?;
            Ok(Some(v))
        }
        None => Ok(None),
    }
}

/// Every product decoded, with what the special values among the inputs say.
struct Products {
    /// Per product: its exact value (with its scales for ST-FDPA) and its alignment exponent
    /// (`None` for a zero product).
    prods: [(Exact, Option<i32>); MAX_PRODUCTS],
    /// A NaN element, scale or C.
    any_nan: bool,
    /// A positive infinite term.
    pos_inf: bool,
    /// A negative infinite term.
    neg_inf: bool,
    /// An infinite factor times a zero factor.
    inf_zero: bool,
}

impl Products {
    /// Why the result is a special value, if it is one.
    fn special(&self) -> Option<SpecialCause> {
        if self.any_nan || self.inf_zero || (self.pos_inf && self.neg_inf) {
            Some(if self.any_nan {
                SpecialCause::NanInput
            } else if self.inf_zero {
                SpecialCause::InfTimesZero
            } else {
                SpecialCause::InfMinusInf
            })
        } else if self.pos_inf || self.neg_inf {
            Some(SpecialCause::InfTerm)
        } else {
            None
        }
    }
}

/// Decodes the `k` products `a_i * b_i` (and their scales), after C (decoded as `c`).
fn decode_products(
    alg: Algorithm,
    fm: Formats,
    ops: &Operands<'_>,
    k: usize,
    c: Value,
) -> Result<Products, BadCode> {
    let mut d = Products {
        prods: [(
            Exact {
                neg: false,
                mag: 0,
                scale: 0,
            },
            None::<i32>,
        ); MAX_PRODUCTS],
        any_nan: matches!(c, Value::NaN),
        pos_inf: matches!(c, Value::Inf { neg: false }),
        neg_inf: matches!(c, Value::Inf { neg: true }),
        inf_zero: false,
    };
    for (i, prod) in d.prods.iter_mut().enumerate().take(k) {
        let a = dec(fm.a, ops.a[i], TermSourceOperand::A(i as u32))?;
        let b = dec(fm.b, ops.b[i], TermSourceOperand::B(i as u32))?;
        let sa = scale_of(fm.scale, ops.sfa, i, TermSourceOperand::Sfa)?;
        let sb = scale_of(fm.scale, ops.sfb, i, TermSourceOperand::Sfb)?;
        for s in [sa, sb].into_iter().flatten() {
            d.any_nan |= matches!(s, Value::NaN);
        }
        match (a, b) {
            (Value::NaN, _) | (_, Value::NaN) => d.any_nan = true,
            (Value::Inf { neg: x }, Value::Inf { neg: y }) => {
                if x ^ y {
                    d.neg_inf = true;
                } else {
                    d.pos_inf = true;
                }
            }
            (Value::Inf { neg: x }, o) | (o, Value::Inf { neg: x }) => match o {
                Value::Zero { .. } => d.inf_zero = true,
                Value::Finite { neg: y, .. } => {
                    if x ^ y {
                        d.neg_inf = true;
                    } else {
                        d.pos_inf = true;
                    }
                }
                _ => {}
            },
            (a, b) => {
                let (Some(ea), Some(eb)) = (Exact::of(a), Exact::of(b)) else {
                    continue;
                };
                let p = mul(ea, eb);
                let e = if p.mag == 0 {
                    None
                } else {
                    let mut e = exp_of(a) + exp_of(b);
                    if let (Algorithm::StFdpa { .. }, Some(sa), Some(sb)) = (alg, sa, sb) {
                        e += exp_of(sa) + exp_of(sb);
                    }
                    Some(e)
                };
                let mut p = p;
                if let Algorithm::StFdpa { .. } | Algorithm::GstFdpa { .. } = alg {
                    // the exact value includes the scales (GST: applied to the group sum below)
                    if let (Algorithm::StFdpa { .. }, Some(sa), Some(sb)) = (alg, sa, sb) {
                        if let (Some(xa), Some(xb)) = (Exact::of(sa), Exact::of(sb)) {
                            p = mul(p, mul(xa, xb));
                        }
                    }
                }
                *prod = (p, e);
            }
        }
    }
    Ok(d)
}

/// GST-FDPA's terms: the exact sum of each group of `group` products times the group's two
/// scales, aligned by the scales' exponents (`e_zero` for a zero group); returns their count.
fn group_terms(
    terms: &mut [Term; MAX_TERMS],
    prods: &[(Exact, Option<i32>)],
    group: u32,
    scale: Option<(Format, u32)>,
    ops: &Operands<'_>,
    e_zero: i32,
) -> Result<usize, BadCode> {
    let k = prods.len();
    let g = group as usize;
    let mut n = 0;
    for gi in 0..k.div_ceil(g) {
        let mut sum = ExactSum::ZERO;
        let mut all_zero = true;
        for (p, e) in &prods[gi * g..(gi * g + g).min(k)] {
            sum.add(*p);
            all_zero &= e.is_none();
        }
        let psum = sum.to_exact().unwrap_or(Exact {
            neg: false,
            mag: 0,
            scale: 0,
        });
        let sa = scale_of(scale, ops.sfa, gi * g, TermSourceOperand::Sfa)?;
        let sb = scale_of(scale, ops.sfb, gi * g, TermSourceOperand::Sfb)?;
        let (xa, xb) = match (sa.and_then(Exact::of), sb.and_then(Exact::of)) {
            (Some(x), Some(y)) => (x, y),
            _ => (
                Exact {
                    neg: false,
                    mag: 1,
                    scale: 0,
                },
                Exact {
                    neg: false,
                    mag: 1,
                    scale: 0,
                },
            ),
        };
        let scale_zero = xa.mag == 0 || xb.mag == 0;
        let value = mul(psum, mul(xa, xb));
        let zero = all_zero || scale_zero;
        let align = if zero {
            e_zero
        } else {
            exp_of(sa.unwrap_or(Value::Zero { neg: false }))
                + exp_of(sb.unwrap_or(Value::Zero { neg: false }))
        };
        terms[n] = Term {
            source: TermSource::Group(gi as u32),
            value,
            align_exp: align,
            zero,
            kept: 0,
            dropped_bits: 0,
        };
        n += 1;
    }
    Ok(n)
}

/// T-FDPA's and ST-FDPA's terms: one per product, aligned by its exponent (`e_zero` for a zero
/// product); returns their count.
fn product_terms(
    terms: &mut [Term; MAX_TERMS],
    prods: &[(Exact, Option<i32>)],
    e_zero: i32,
) -> usize {
    let mut n = 0;
    for (i, (p, e)) in prods.iter().enumerate() {
        terms[n] = Term {
            source: TermSource::Product(i as u32),
            value: *p,
            align_exp: e.unwrap_or(e_zero),
            zero: e.is_none(),
            kept: 0,
            dropped_bits: 0,
        };
        n += 1;
    }
    n
}

/// The fused sum of `r`'s terms: each truncated to a multiple of `2^(e_max - f)`, the integer
/// sum converted into D's bits with `out`.
fn align_and_sum(r: &mut Dot, f: u32, e_zero: i32, out: OutputRounding) {
    let n = r.n_terms;
    let e_max = r.terms[..n]
        .iter()
        .map(|t| t.align_exp)
        .max()
        .unwrap_or(e_zero);
    let unit = e_max - f as i32;
    let mut s = 0i128;
    for t in &mut r.terms[..n] {
        r.exact.add(t.value);
        let (kept, dropped) = truncate(t.value, unit);
        t.kept = kept;
        t.dropped_bits = dropped;
        s += kept;
    }
    r.e_max = Some(e_max);
    r.sum = s;
    r.d_bits = output(s, unit, out);
}

/// FP8 `mma.sync` on sm_90a/sm_100a, as ptxas lowers it (mma-numerics.md section 3.3).
fn hmma_fp8(
    out: OutputRounding,
    fm: Formats,
    ops: &Operands<'_>,
    mut r: Dot,
) -> Result<Dot, BadCode> {
    let e_zero = if out == OutputRounding::RneF16 {
        -21
    } else {
        -133
    };
    let step = Algorithm::TFdpa {
        f: 25,
        l: 16,
        e_zero,
        out,
    };
    let pick = |sel: [usize; 2], src: &[u32]| {
        let mut v = [0u32; 16];
        let mut j = 0;
        for (k, &x) in src.iter().enumerate().take(32) {
            if k % 4 == sel[0] || k % 4 == sel[1] {
                v[j] = x;
                j += 1;
            }
        }
        v
    };
    // A and B are FP8; every FP8 value is exact in f16, and the f16 HMMA decodes them alike.
    let (a1, b1) = (pick([0, 1], ops.a), pick([0, 1], ops.b));
    let (a2, b2) = (pick([2, 3], ops.a), pick([2, 3], ops.b));
    let d1 = dot(
        step,
        Formats { scale: None, ..fm },
        &Operands {
            a: &a1,
            b: &b1,
            c: 0,
            sfa: &[],
            sfb: &[],
        },
    )?;
    let d2 = dot(
        step,
        Formats { scale: None, ..fm },
        &Operands {
            a: &a2,
            b: &b2,
            c: d1.d_bits,
            sfa: &[],
            sfb: &[],
        },
    )?;
    // D = RN(D2 + C) in D's format (FADD / HADD2).
    let x = dec(fm.d, d2.d_bits, TermSourceOperand::C)?;
    let c = dec(fm.d, ops.c, TermSourceOperand::C)?;
    r.hmma_steps = Some((d1.d_bits, d2.d_bits));
    r.e_max = d2.e_max;
    r.d_bits = match (x, c) {
        (Value::NaN, _) | (_, Value::NaN) => nan_bits(fm.d),
        (Value::Inf { neg: p }, Value::Inf { neg: q }) if p != q => nan_bits(fm.d),
        (Value::Inf { neg }, _) | (_, Value::Inf { neg }) => inf_bits(fm.d, neg),
        (x, c) => {
            let (ex, ec) = (
                Exact::of(x).unwrap_or(Exact {
                    neg: false,
                    mag: 0,
                    scale: 0,
                }),
                Exact::of(c).unwrap_or(Exact {
                    neg: false,
                    mag: 0,
                    scale: 0,
                }),
            );
            let mut s = ExactSum::ZERO;
            s.add(ex);
            s.add(ec);
            r.exact = s;
            let v = s.to_exact().unwrap_or(Exact {
                neg: false,
                mag: 0,
                scale: 0,
            });
            if v.mag == 0 {
                // IEEE: x + (-x) is +0 in round-to-nearest; -0 + -0 is -0.
                let both_neg = matches!(x, Value::Zero { neg: true })
                    && matches!(c, Value::Zero { neg: true });
                if both_neg {
                    if fm.d == Format::F16 {
                        0x8000
                    } else {
                        0x8000_0000
                    }
                } else {
                    0
                }
            } else {
                fm.d.encode(v, Rounding::NearestEven).unwrap_or(0)
            }
        }
    };
    Ok(r)
}
