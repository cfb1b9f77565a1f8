//! Half-precision arithmetic (PTX ISA 9.7.4: `add`, `sub`, `mul`, `fma`, `neg`, `abs`, `min`,
//! `max` on `.f16`, `.f16x2`, `.bf16`, `.bf16x2`): each result is the exact value rounded once
//! to nearest even (the only rounding these instructions take), with `.ftz` (f16 subnormal
//! inputs and results to signed zero), `.sat` (clamp to [0, 1], NaN to +0), `.relu` (negative
//! to +0) and canonical NaN results (`0x7FFF`).

use tcgen05::numerics::{Exact, Format, Rounding};

use crate::atom::decode_16;
use crate::op::Src;

/// The operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalfOp {
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `mul`.
    Mul,
    /// `fma.rn`: `a * b + c` rounded once.
    Fma,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `neg`.
    Neg,
    /// `abs`.
    Abs,
}

/// One half-precision instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Half {
    /// The operation.
    pub op: HalfOp,
    /// bf16 (true) or f16.
    pub bf16: bool,
    /// A packed pair (`.f16x2`, `.bf16x2`): the operation on each half.
    pub pairs: bool,
    /// `.ftz`.
    pub ftz: bool,
    /// `.sat`.
    pub sat: bool,
    /// `.relu`.
    pub relu: bool,
    /// `.NaN` of `min`/`max`: a NaN operand gives NaN.
    pub nan: bool,
    /// Destination slot.
    pub d: u32,
    /// Sources (`b` and `c` where the operation takes them).
    pub a: Src,
    /// Second source.
    pub b: Option<Src>,
    /// Third source (`fma`).
    pub c: Option<Src>,
}

const NAN: u16 = 0x7FFF;

impl Half {
    fn format(&self) -> Format {
        if self.bf16 {
            Format::Bf16
        } else {
            Format::F16
        }
    }

    /// The result for operand registers `a`, `b`, `c` (each the low 16 or 32 bits).
    #[must_use]
    pub fn apply(&self, a: u64, b: u64, c: u64) -> u64 {
        let lo = self.one(a as u16, b as u16, c as u16);
        if self.pairs {
            let hi = self.one((a >> 16) as u16, (b >> 16) as u16, (c >> 16) as u16);
            u64::from(hi) << 16 | u64::from(lo)
        } else {
            u64::from(lo)
        }
    }

    fn flush(&self, x: u16) -> u16 {
        let exp_mask = if self.bf16 { 0x7F80 } else { 0x7C00 };
        if self.ftz && x & exp_mask == 0 {
            x & 0x8000
        } else {
            x
        }
    }

    fn one(&self, a: u16, b: u16, c: u16) -> u16 {
        let (a, b, c) = (self.flush(a), self.flush(b), self.flush(c));
        let f = self.format();
        let r = match self.op {
            // Sign-bit operations whose NaN results are canonical (measured on an H200 by
            // hw/run/breadth half_ops: neg and abs of a NaN give 0x7FFF).
            HalfOp::Neg => return if is_nan(f, a) { NAN } else { a ^ 0x8000 },
            HalfOp::Abs => return if is_nan(f, a) { NAN } else { a & 0x7FFF },
            HalfOp::Min | HalfOp::Max => self.minmax(a, b),
            HalfOp::Add => round(f, decode_16(f, a), 1.0, Some(decode_16(f, b))),
            HalfOp::Sub => round(f, decode_16(f, a), 1.0, Some(-decode_16(f, b))),
            HalfOp::Mul => round(f, decode_16(f, a), decode_16(f, b), None),
            HalfOp::Fma => round(f, decode_16(f, a), decode_16(f, b), Some(decode_16(f, c))),
        };
        let r = self.flush(r);
        if self.sat {
            let x = decode_16(f, r);
            if x.is_nan() || x <= 0.0 {
                return 0;
            }
            if x >= 1.0 {
                return if self.bf16 { 0x3F80 } else { 0x3C00 };
            }
        }
        if self.relu && !is_nan(f, r) && r & 0x8000 != 0 {
            return 0;
        }
        r
    }

    /// `min`/`max` (PTX ISA 9.7.4.10-11): a NaN operand gives the other one (both NaN, or any
    /// with `.NaN`: canonical NaN); -0 orders below +0.
    fn minmax(&self, a: u16, b: u16) -> u16 {
        let f = self.format();
        let (x, y) = (decode_16(f, a), decode_16(f, b));
        match (x.is_nan(), y.is_nan()) {
            (true, true) => NAN,
            (true, false) | (false, true) if self.nan => NAN,
            (true, false) => b,
            (false, true) => a,
            _ => {
                let a_first = x < y || (x == y && a & 0x8000 != 0);
                if a_first == (self.op == HalfOp::Min) {
                    a
                } else {
                    b
                }
            }
        }
    }
}

/// The values `setp.{f16,bf16}` compares (f16 subnormals flushed under `.ftz`).
pub(crate) fn compare_operands(bf16: bool, ftz: bool, a: u64, b: u64) -> (f64, f64) {
    let f = if bf16 { Format::Bf16 } else { Format::F16 };
    let h = Half {
        op: HalfOp::Add,
        bf16,
        pairs: false,
        ftz: ftz && !bf16,
        sat: false,
        relu: false,
        nan: false,
        d: 0,
        a: Src::Imm(0),
        b: None,
        c: None,
    };
    (
        decode_16(f, h.flush(a as u16)),
        decode_16(f, h.flush(b as u16)),
    )
}

fn is_nan(f: Format, x: u16) -> bool {
    decode_16(f, x).is_nan()
}

/// `a * b + c` rounded once to nearest even in format `f` (also `a + c` with `b = 1`, and
/// `a * b` with no `c`: adding a zero would lose the sign of a zero product). The product is
/// exact in f64 (at most 22 significant bits, exponents within f64's range); the sum is formed
/// exactly from the two f64 values.
fn round(f: Format, a: f64, b: f64, c: Option<f64>) -> u16 {
    let p = a * b;
    let r = c.map_or(p, |c| p + c);
    let c = c.unwrap_or(0.0);
    if r.is_nan() {
        return NAN;
    }
    let inf = if f == Format::F16 { 0x7C00 } else { 0x7F80 };
    let sign = if r.is_sign_negative() { 0x8000 } else { 0 };
    if r.is_infinite() {
        return sign | inf;
    }
    // An exact zero keeps the sign IEEE addition gives it (f64 cannot underflow here).
    if r == 0.0 && exact_sum(p, c).mag == 0 {
        return sign;
    }
    match f.encode(exact_sum(p, c), Rounding::NearestEven) {
        Ok(code) => code as u16,
        Err(_) => sign | inf,
    }
}

/// The sum of two finite f64 values, exact where it fits 120 bits and otherwise with the bits
/// below kept as one sticky bit (far below the 11 bits a half-precision result keeps).
fn exact_sum(x: f64, y: f64) -> Exact {
    let (Some(ex), Some(ey)) = (Exact::from_f64(x), Exact::from_f64(y)) else {
        return Exact {
            neg: false,
            mag: 0,
            scale: 0,
        };
    };
    let top = |e: &Exact| e.scale + (128 - e.mag.leading_zeros()) as i32;
    let hi = top(&ex).max(top(&ey));
    let base = hi - 120;
    let aligned = |e: &Exact| -> i128 {
        if e.mag == 0 {
            return 0;
        }
        let m = if e.scale >= base {
            e.mag << (e.scale - base) as u32
        } else {
            let k = (base - e.scale) as u32;
            let kept = if k >= 128 { 0 } else { e.mag >> k };
            let lost = k >= 128 || e.mag & ((1u128 << k) - 1) != 0;
            kept | u128::from(lost)
        };
        if e.neg {
            -(m as i128)
        } else {
            m as i128
        }
    };
    let s = aligned(&ex) + aligned(&ey);
    Exact {
        neg: s < 0,
        mag: s.unsigned_abs(),
        scale: base,
    }
}
