//! The same arithmetic as [`fdpa::dot`], computing only D's bits: operands
//! decoded once (per row of A and column of B, not per product), no term explanations, no
//! exact-sum bookkeeping, fixed-size integer accumulators. For whole MMAs
//! ([`FastRow::mma`]) and the functional model ([`crate::emulator`]).
//!
//! Every result equals the explained path's: the tests run both on every committed oracle vector
//! (MMA-Sim 2.1.1, Khattak & Mikaitis, our H100 run) and on seeded random codes of every form of
//! the parameter table (`tests/numerics_fast.rs`). The FP8 `mma.sync` emulation
//! ([`Algorithm::HmmaFp8`]) has no fast path: [`FastRow::dot`] hands it to the explained one.

use super::fdpa::{self, output, Algorithm, Formats, Operands, OutputRounding};
use super::format::{DecodeError, Format, Value};
use super::params::ParamRow;

/// One operand code, decoded for the fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The code as given (for the explained fallback).
    pub code: u32,
    class: Class,
    neg: bool,
    /// `max(floor(log2 |x|), emin)` for finite values; 0 otherwise.
    exp: i32,
    /// Integer significand (finite), or the integer value's magnitude.
    sig: u32,
    /// Power of two of the significand's unit: `exp - frac`.
    lsb: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Class {
    Zero,
    Finite,
    Int,
    // Inf and NaN last: `class >= Inf` is "special".
    Inf,
    NaN,
}

impl Decoded {
    /// Decodes one code of `format`.
    ///
    /// # Errors
    /// As [`Format::decode`].
    pub const fn new(format: Format, code: u32) -> Result<Decoded, DecodeError> {
        if let Format::F32 = format {
            return Ok(Self::ieee(code, 8, 23, 127, 31));
        }
        let v = match format.decode(code) {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        let (class, neg, exp, sig, lsb) = match v {
            Value::Zero { neg } => (Class::Zero, neg, 0, 0, 0),
            Value::Finite {
                neg,
                exp,
                sig,
                frac,
            } => {
                // tf32 decodes as the f32 word with its low 13 bits cleared: keep its own 10
                // fraction bits (the same value), so that every format's significand has
                // `precision - 1` fraction bits.
                let drop = if matches!(format, Format::Tf32) {
                    13
                } else {
                    0
                };
                (
                    Class::Finite,
                    neg,
                    exp,
                    sig >> drop,
                    exp - frac as i32 + drop,
                )
            }
            Value::Inf { neg } => (Class::Inf, neg, 0, 0, 0),
            Value::NaN => (Class::NaN, false, 0, 0, 0),
            Value::Int(i) => (Class::Int, i < 0, 0, i.unsigned_abs() as u32, 0),
        };
        Ok(Decoded {
            code,
            class,
            neg,
            exp,
            sig,
            lsb,
        })
    }

    /// An IEEE binary code with `eb` exponent and `mb` fraction bits (what [`Format::decode`]
    /// gives, without its general layout lookup): subnormals at `emin = 1 - bias`.
    const fn ieee(code: u32, eb: u32, mb: u32, bias: i32, sign_bit: u32) -> Decoded {
        let neg = (code >> sign_bit) & 1 == 1;
        let e_field = (code >> mb) & ((1 << eb) - 1);
        let m_field = code & ((1 << mb) - 1);
        let (class, exp, sig) = if e_field == (1 << eb) - 1 {
            (if m_field == 0 { Class::Inf } else { Class::NaN }, 0, 0)
        } else if e_field == 0 {
            if m_field == 0 {
                (Class::Zero, 0, 0)
            } else {
                (Class::Finite, 1 - bias, m_field)
            }
        } else {
            (Class::Finite, e_field as i32 - bias, (1 << mb) | m_field)
        };
        let neg = neg && !matches!(class, Class::NaN);
        let lsb = if matches!(class, Class::Finite) {
            exp - mb as i32
        } else {
            0
        };
        Decoded {
            code,
            class,
            neg,
            exp,
            sig,
            lsb,
        }
    }

    const fn int(self) -> i64 {
        if self.neg {
            -(self.sig as i64)
        } else {
            self.sig as i64
        }
    }
}

/// A form's arithmetic, ready for the fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastRow {
    row: ParamRow,
}

/// Truncates `mag * 2^lsb` toward zero to a multiple of `2^unit`, signed.
#[inline]
fn kept(neg: bool, mag: u128, lsb: i32, unit: i32) -> i128 {
    if mag == 0 {
        return 0;
    }
    let shift = unit - lsb;
    let k = if shift <= 0 {
        mag << (-shift) as u32
    } else if shift >= 128 {
        0
    } else {
        mag >> shift as u32
    };
    if neg {
        -(k as i128)
    } else {
        k as i128
    }
}

impl FastRow {
    /// The fast path of a parameter row.
    #[must_use]
    pub const fn new(row: ParamRow) -> FastRow {
        FastRow { row }
    }

    /// The row.
    #[must_use]
    pub const fn row(&self) -> ParamRow {
        self.row
    }

    /// D's bits for one dot product of decoded operands: `a` and `b` hold the form's K codes,
    /// `sfa` and `sfb` one scale per block (empty for unscaled forms), `c` is in D's format.
    /// `saturate` clamps integer sums (the caller refuses it for floating-point forms).
    ///
    /// The operands must have been decoded in the row's formats (A, B, D, scale).
    #[must_use]
    pub fn dot(
        &self,
        a: &[Decoded],
        b: &[Decoded],
        c: Decoded,
        sfa: &[Decoded],
        sfb: &[Decoded],
        saturate: bool,
    ) -> u32 {
        let r = &self.row;
        let k = a.len().min(b.len());
        match r.algorithm {
            Algorithm::Integer { .. } => {
                let mut s = i128::from(c.int());
                for i in 0..k {
                    s += i128::from(a[i].int() * b[i].int());
                }
                if saturate {
                    s.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32 as u32
                } else {
                    s as i32 as u32
                }
            }
            Algorithm::HmmaFp8 { .. } => {
                let ac: [u32; 64] = core::array::from_fn(|i| a.get(i).map_or(0, |x| x.code));
                let bc: [u32; 64] = core::array::from_fn(|i| b.get(i).map_or(0, |x| x.code));
                let fm = Formats {
                    a: r.a,
                    b: r.b,
                    d: r.d,
                    scale: r.scale,
                };
                fdpa::dot(
                    r.algorithm,
                    fm,
                    &Operands {
                        a: &ac[..k],
                        b: &bc[..k],
                        c: c.code,
                        sfa: &[],
                        sfb: &[],
                    },
                )
                .map_or(0, |d| d.d_bits)
            }
            Algorithm::TFdpa { f, e_zero, out, .. } => {
                Self::narrow(a, b, c, sfa, sfb, k, f, e_zero, out, false)
                    .unwrap_or_else(|| self.float(a, b, c, sfa, sfb, k, f, e_zero, out, 0))
            }
            Algorithm::StFdpa { f, e_zero, .. } => {
                let out = OutputRounding::RzF32;
                Self::narrow(a, b, c, sfa, sfb, k, f, e_zero, out, true)
                    .unwrap_or_else(|| self.float(a, b, c, sfa, sfb, k, f, e_zero, out, 1))
            }
            Algorithm::GstFdpa {
                f, e_zero, group, ..
            } => self.float(
                a,
                b,
                c,
                sfa,
                sfb,
                k,
                f,
                e_zero,
                OutputRounding::RzF32,
                group as usize,
            ),
        }
    }

    /// T-FDPA and ST-FDPA without special operands, in 64-bit integers: a product's
    /// significand is below `2^48` (two 24-bit significands at most) times the scales', a kept
    /// term below `2^(F + 2)` units, so nothing overflows. `None` when an operand is Inf or NaN
    /// (then [`FastRow::float`] decides).
    #[allow(clippy::too_many_arguments)] // the parameters of the algorithm, named
    #[inline]
    fn narrow(
        a: &[Decoded],
        b: &[Decoded],
        c: Decoded,
        sfa: &[Decoded],
        sfb: &[Decoded],
        k: usize,
        f: u32,
        e_zero: i32,
        out: OutputRounding,
        scaled: bool,
    ) -> Option<u32> {
        if c.class as u8 >= Class::Inf as u8 {
            return None;
        }
        let block = if scaled {
            k / sfa.len().max(1)
        } else {
            usize::MAX
        };
        if scaled
            && sfa
                .iter()
                .chain(sfb)
                .any(|s| s.class as u8 >= Class::Inf as u8)
        {
            return None;
        }
        let mut e_max = if c.sig == 0 { e_zero } else { c.exp };
        for i in 0..k {
            let (x, y) = (a[i], b[i]);
            if (x.class as u8).max(y.class as u8) >= Class::Inf as u8 {
                return None;
            }
            let e = if x.sig == 0 || y.sig == 0 {
                e_zero
            } else if scaled {
                let (sa, sb) = (sfa[i / block], sfb[i / block]);
                x.exp + y.exp + sa.exp + sb.exp
            } else {
                x.exp + y.exp
            };
            e_max = e_max.max(e);
        }
        let unit = e_max - f as i32;
        let kept64 = |neg: bool, mag: u64, lsb: i32| kept64(neg, mag, unit - lsb);
        let mut sum = kept64(c.neg, u64::from(c.sig), c.lsb);
        for i in 0..k {
            let (x, y) = (a[i], b[i]);
            let mut mag = u64::from(x.sig) * u64::from(y.sig);
            if mag == 0 {
                continue;
            }
            let mut lsb = x.lsb + y.lsb;
            if scaled {
                let (sa, sb) = (sfa[i / block], sfb[i / block]);
                mag *= u64::from(sa.sig) * u64::from(sb.sig);
                lsb += sa.lsb + sb.lsb;
            }
            sum += kept64(x.neg ^ y.neg, mag, lsb);
        }
        Some(output(i128::from(sum), unit, out))
    }

    /// T-FDPA (`group` 0), ST-FDPA (`group` 1: scales join every product) and GST-FDPA
    /// (`group` > 1: exact group sums aligned by their scale exponents), as
    /// [`fdpa::dot`] computes them.
    #[allow(clippy::too_many_arguments)] // the parameters of the algorithm, named
    #[inline]
    fn float(
        &self,
        a: &[Decoded],
        b: &[Decoded],
        c: Decoded,
        sfa: &[Decoded],
        sfb: &[Decoded],
        k: usize,
        f: u32,
        e_zero: i32,
        out: OutputRounding,
        group: usize,
    ) -> u32 {
        let d = self.row.d;
        let block = self.row.scale.map_or(usize::MAX, |(_, b)| b as usize);
        // Specials.
        let mut any_nan = c.class == Class::NaN;
        let mut pos_inf = c.class == Class::Inf && !c.neg;
        let mut neg_inf = c.class == Class::Inf && c.neg;
        let mut inf_zero = false;
        if group > 0 {
            any_nan |= sfa.iter().chain(sfb).any(|s| s.class == Class::NaN);
        }
        // Terms: (neg, magnitude, lsb, alignment exponent); at most 64 products or 4 groups, and C.
        let mut terms = [(false, 0u128, 0i32, 0i32); 65];
        let mut n = 0;
        let mut specials = false;
        for i in 0..k {
            let (x, y) = (a[i], b[i]);
            if x.class as u8 >= Class::Inf as u8 || y.class as u8 >= Class::Inf as u8 {
                specials = true;
                match (x.class, y.class) {
                    (Class::NaN, _) | (_, Class::NaN) => any_nan = true,
                    (Class::Inf, Class::Inf) => {
                        if x.neg ^ y.neg {
                            neg_inf = true;
                        } else {
                            pos_inf = true;
                        }
                    }
                    (Class::Inf, o) | (o, Class::Inf) => {
                        let other = if x.class == Class::Inf { y } else { x };
                        let inf = if x.class == Class::Inf { x } else { y };
                        match o {
                            Class::Zero => inf_zero = true,
                            Class::Finite => {
                                if inf.neg ^ other.neg {
                                    neg_inf = true;
                                } else {
                                    pos_inf = true;
                                }
                            }
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
        }
        if any_nan || inf_zero || (pos_inf && neg_inf) {
            return if d == Format::F16 {
                0x7FFF
            } else {
                0x7FFF_FFFF
            };
        }
        if pos_inf || neg_inf {
            return match (d, neg_inf) {
                (Format::F16, false) => 0x7C00,
                (Format::F16, true) => 0xFC00,
                (_, false) => 0x7F80_0000,
                (_, true) => 0xFF80_0000,
            };
        }
        debug_assert!(!specials);
        if group > 1 {
            for gi in 0..k.div_ceil(group) {
                // The group's exact sum, in units of 2^lo.
                let lo = (gi * group..(gi * group + group).min(k))
                    .filter(|&i| a[i].sig != 0 && b[i].sig != 0)
                    .map(|i| a[i].lsb + b[i].lsb)
                    .min();
                let mut sum = 0i128;
                if let Some(lo) = lo {
                    for i in gi * group..(gi * group + group).min(k) {
                        let (x, y) = (a[i], b[i]);
                        let mag = u128::from(x.sig) * u128::from(y.sig);
                        if mag != 0 {
                            let v = (mag << (x.lsb + y.lsb - lo) as u32) as i128;
                            sum += if x.neg ^ y.neg { -v } else { v };
                        }
                    }
                }
                let (sa, sb) = (sfa[gi * group / block], sfb[gi * group / block]);
                let scale_zero = sa.sig == 0 || sb.sig == 0;
                let zero = lo.is_none() || scale_zero;
                let mag = sum.unsigned_abs() * u128::from(sa.sig) * u128::from(sb.sig);
                let align = if zero { e_zero } else { sa.exp + sb.exp };
                terms[n] = (sum < 0, mag, lo.unwrap_or(0) + sa.lsb + sb.lsb, align);
                n += 1;
            }
        } else {
            for i in 0..k {
                let (x, y) = (a[i], b[i]);
                let mut mag = u128::from(x.sig) * u128::from(y.sig);
                let mut lsb = x.lsb + y.lsb;
                let mut align = if mag == 0 { e_zero } else { x.exp + y.exp };
                if group == 1 {
                    let (sa, sb) = (sfa[i / block], sfb[i / block]);
                    if mag != 0 {
                        align += sa.exp + sb.exp;
                    }
                    mag *= u128::from(sa.sig) * u128::from(sb.sig);
                    lsb += sa.lsb + sb.lsb;
                }
                terms[n] = (x.neg ^ y.neg, mag, lsb, align);
                n += 1;
            }
        }
        terms[n] = (
            c.neg,
            u128::from(c.sig),
            c.lsb,
            if c.sig == 0 { e_zero } else { c.exp },
        );
        n += 1;
        let e_max = terms[..n].iter().map(|t| t.3).max().unwrap_or(e_zero);
        let unit = e_max - f as i32;
        let s: i128 = terms[..n]
            .iter()
            .map(|&(neg, mag, lsb, _)| kept(neg, mag, lsb, unit))
            .sum();
        output(s, unit, out)
    }
}

impl ParamRow {
    /// The fast path of this row ([`FastRow`]).
    #[must_use]
    pub const fn fast(&self) -> FastRow {
        FastRow::new(*self)
    }
}

/// The operands of one whole MMA as codes: A row-major M x K, B as N rows of K (column `j` of B
/// is `b[j*K..(j+1)*K]`), C row-major M x N in D's format, and for block-scaled forms the scale
/// codes of each row of A (`sfa`, M x blocks) and each column of B (`sfb`, N x blocks).
#[derive(Clone, Copy, Debug)]
pub struct MmaOperands<'a> {
    /// Rows of A and D.
    pub m: usize,
    /// Columns of B and D.
    pub n: usize,
    /// A's codes.
    pub a: &'a [u32],
    /// B's codes, column by column.
    pub b: &'a [u32],
    /// C's codes; empty for C = +0 everywhere (`enable-input-d` false, `scale-d` 0).
    pub c: &'a [u32],
    /// scale_A's codes (empty for unscaled forms).
    pub sfa: &'a [u32],
    /// scale_B's codes.
    pub sfb: &'a [u32],
}

#[cfg(feature = "alloc")]
impl FastRow {
    /// D of a whole MMA, row-major M x N: every element the same bits as
    /// [`ParamRow::dot`] on its row of A and column of B, each code decoded once.
    ///
    /// # Errors
    /// Operand lengths that do not match M, N, K and the blocks ([`RuleId::OperandCount`],
    /// [`RuleId::ScaleCount`]), saturation of a floating-point form
    /// ([`RuleId::SatfiniteNotInteger`]), and the codes that do not decode
    /// ([`RuleId::BadCode`]; up to the list's capacity, each with its operand and index).
    ///
    /// [`RuleId::OperandCount`]: super::RuleId::OperandCount
    /// [`RuleId::ScaleCount`]: super::RuleId::ScaleCount
    /// [`RuleId::SatfiniteNotInteger`]: super::RuleId::SatfiniteNotInteger
    /// [`RuleId::BadCode`]: super::RuleId::BadCode
    #[allow(clippy::result_large_err)] // every problem, by value, as ParamRow::dot
    pub fn mma(
        &self,
        ops: &MmaOperands<'_>,
        saturate: bool,
    ) -> Result<alloc::vec::Vec<u32>, super::NumericsError> {
        use super::params::{Location, Problem};
        use super::RuleId;
        use crate::diagnostic::Diagnostics;
        let r = &self.row;
        let k = r.algorithm.k() as usize;
        let blocks = r.scale.map_or(0, |(_, b)| k / b as usize);
        let mut problems: Diagnostics<Problem, 16> = Diagnostics::new();
        let mut count = |name: &'static str, rule: RuleId, got: usize, want: usize| {
            if got != want {
                problems.push(Problem {
                    rule,
                    location: Location::Operand(name),
                    value: got as u64,
                    expected: Some(want as u64),
                    decode: None,
                });
            }
        };
        count("a", RuleId::OperandCount, ops.a.len(), ops.m * k);
        count("b", RuleId::OperandCount, ops.b.len(), ops.n * k);
        if !ops.c.is_empty() {
            count("c", RuleId::OperandCount, ops.c.len(), ops.m * ops.n);
        }
        count("sfa", RuleId::ScaleCount, ops.sfa.len(), ops.m * blocks);
        count("sfb", RuleId::ScaleCount, ops.sfb.len(), ops.n * blocks);
        if saturate && !matches!(r.algorithm, Algorithm::Integer { .. }) {
            problems.push(Problem {
                rule: RuleId::SatfiniteNotInteger,
                location: Location::Field("satfinite"),
                value: 1,
                expected: None,
                decode: None,
            });
        }
        if !problems.is_empty() {
            return Err(super::NumericsError { problems });
        }
        // Large MMAs: rows split over the machine's threads (each computes whole rows, the
        // same bits as one thread).
        #[cfg(feature = "std")]
        {
            let threads = machine_threads().min(ops.m / 32).min(16);
            if threads > 1 {
                return self.compute_threads(ops, saturate, threads);
            }
        }
        self.compute(ops, saturate)
    }

    /// [`FastRow::mma`] on `threads` threads (this one and `threads - 1` scoped ones), rows
    /// split evenly.
    #[cfg(feature = "std")]
    #[allow(clippy::result_large_err)] // every problem, by value, as ParamRow::dot
    fn compute_threads(
        &self,
        ops: &MmaOperands<'_>,
        saturate: bool,
        threads: usize,
    ) -> Result<alloc::vec::Vec<u32>, super::NumericsError> {
        let k = self.row.algorithm.k() as usize;
        let blocks = self.row.scale.map_or(0, |(_, b)| k / b as usize);
        let per = ops.m.div_ceil(threads);
        let part = |r0: usize| {
            let r1 = (r0 + per).min(ops.m);
            MmaOperands {
                m: r1 - r0,
                n: ops.n,
                a: &ops.a[r0 * k..r1 * k],
                b: ops.b,
                c: if ops.c.is_empty() {
                    &[]
                } else {
                    &ops.c[r0 * ops.n..r1 * ops.n]
                },
                sfa: &ops.sfa[r0 * blocks..r1 * blocks],
                sfb: ops.sfb,
            }
        };
        let parts: alloc::vec::Vec<_> = std::thread::scope(|s| {
            // The first part on this thread, the others on spawned ones (one spawn fewer per
            // MMA; the parts are joined in row order all the same).
            let handles: alloc::vec::Vec<_> = (per..ops.m)
                .step_by(per)
                .map(|r0| {
                    let sub = part(r0);
                    s.spawn(move || self.compute(&sub, saturate))
                })
                .collect();
            let first = self.compute(&part(0), saturate);
            core::iter::once(first)
                .chain(
                    handles
                        .into_iter()
                        .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))),
                )
                .collect()
        });
        let mut d = alloc::vec::Vec::with_capacity(ops.m * ops.n);
        for p in parts {
            d.extend(p?);
        }
        Ok(d)
    }

    /// [`FastRow::mma`] after the counts are checked, on this thread.
    #[allow(clippy::result_large_err)] // every problem, by value, as ParamRow::dot
    fn compute(
        &self,
        ops: &MmaOperands<'_>,
        saturate: bool,
    ) -> Result<alloc::vec::Vec<u32>, super::NumericsError> {
        use super::fdpa::TermSourceOperand as At;
        use super::params::{Location, Problem};
        use super::RuleId;
        use crate::diagnostic::Diagnostics;
        let r = &self.row;
        let k = r.algorithm.k() as usize;
        let blocks = r.scale.map_or(0, |(_, b)| k / b as usize);
        let mut problems: Diagnostics<Problem, 16> = Diagnostics::new();
        let scale = r.scale.map_or(Format::Ue8m0, |(f, _)| f);
        let mut decode = |f: Format, codes: &[u32], at: fn(u32) -> At| {
            codes
                .iter()
                .enumerate()
                .map(|(i, &code)| {
                    Decoded::new(f, code).unwrap_or_else(|e| {
                        problems.push(Problem {
                            rule: RuleId::BadCode,
                            location: Location::Code(at((i % k.max(1)) as u32)),
                            value: u64::from(code),
                            expected: None,
                            decode: Some(e),
                        });
                        Decoded::ZERO
                    })
                })
                .collect::<alloc::vec::Vec<_>>()
        };
        let a = decode(r.a, ops.a, At::A);
        let b = decode(r.b, ops.b, At::B);
        // An f32 C (every word decodes) of a T-FDPA form is decoded element by element where
        // it is used, not all at once (the arithmetic reads each once).
        let lazy_c = r.d == Format::F32 && matches!(r.algorithm, Algorithm::TFdpa { .. });
        let c = if lazy_c {
            alloc::vec::Vec::new()
        } else {
            decode(r.d, ops.c, |_| At::C)
        };
        let c_at = |i: usize| -> Decoded {
            if lazy_c {
                ops.c
                    .get(i)
                    .map_or(Decoded::ZERO, |&x| Decoded::ieee(x, 8, 23, 127, 31))
            } else {
                c.get(i).copied().unwrap_or(Decoded::ZERO)
            }
        };
        let sfa = decode(scale, ops.sfa, At::Sfa);
        let sfb = decode(scale, ops.sfb, At::Sfb);
        if !problems.is_empty() {
            return Err(super::NumericsError { problems });
        }
        let mut d = alloc::vec![0u32; ops.m * ops.n];
        // Whole T-FDPA matrices: every element without an Inf or NaN operand in 64-bit
        // integers; the rest (and the other algorithms) element by element.
        let mut done = alloc::vec![false; ops.m * ops.n];
        if let Algorithm::TFdpa { f, e_zero, out, .. } = r.algorithm {
            let _ = tfdpa_matrix(
                (r.a, r.b),
                &a,
                &b,
                &c_at,
                ops.m,
                ops.n,
                k,
                f,
                e_zero,
                out,
                &mut d,
                &mut done,
            );
        }
        if let Algorithm::GstFdpa {
            f, e_zero, group, ..
        } = r.algorithm
        {
            if r.a == Format::E2m1 && r.b == Format::E2m1 && blocks > 0 {
                gst_e2m1_matrix(
                    (&a, &b, &c, &sfa, &sfb),
                    (ops.m, ops.n, k, blocks),
                    (f, e_zero, group as usize),
                    &mut d,
                    &mut done,
                );
            }
        }
        for i in 0..ops.m {
            let (ar, sa) = (&a[i * k..(i + 1) * k], &sfa[i * blocks..(i + 1) * blocks]);
            for j in 0..ops.n {
                if done[i * ops.n + j] {
                    continue;
                }
                d[i * ops.n + j] = self.dot(
                    ar,
                    &b[j * k..(j + 1) * k],
                    c_at(i * ops.n + j),
                    sa,
                    &sfb[j * blocks..(j + 1) * blocks],
                    saturate,
                );
            }
        }
        Ok(d)
    }
}

/// The machine's hardware threads, asked once per process (`available_parallelism` reads the
/// process's CPU set and cgroup limits each time: measured at about 2% of a GEMM's run time
/// when asked once per MMA).
#[cfg(feature = "std")]
fn machine_threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, core::num::NonZero::get))
}

impl Decoded {
    /// +0 (the placeholder of a code that did not decode).
    pub const ZERO: Decoded = Decoded {
        code: 0,
        class: Class::Zero,
        neg: false,
        exp: 0,
        sig: 0,
        lsb: 0,
    };
}

/// The T-FDPA of every element whose operands are all finite or zero, from structure-of-arrays
/// copies of A's rows and B's columns (exponent, signed significand). The same steps as
/// [`FastRow::narrow`]: `e_max` over the products' and C's alignment exponents (a zero term at
/// `e_zero`), every term truncated toward zero to `2^(e_max - F)`, one exact sum, one
/// conversion. A product `p` of exponent `e` has its unit at `e - fa - fb` (the formats'
/// fraction bits), so its kept part is `(|p| << (F - fa - fb)) >> (e_max - e)`: exact, since
/// `|p| < 2^(fa + fb + 2)`. Elements with an Inf or NaN operand are skipped (the caller
/// computes them). `None` (nothing written) when `fa + fb > F`.
#[cfg(feature = "alloc")]
#[allow(clippy::too_many_arguments)] // the parameters of the algorithm, named
fn tfdpa_matrix(
    formats: (Format, Format),
    a: &[Decoded],
    b: &[Decoded],
    c: &impl Fn(usize) -> Decoded,
    m: usize,
    n: usize,
    k: usize,
    f: u32,
    e_zero: i32,
    out: OutputRounding,
    d: &mut [u32],
    done: &mut [bool],
) -> Option<()> {
    use alloc::vec::Vec;
    let frac = |f: Format| f.precision().map(|p| p - 1);
    let lift = f.checked_sub(frac(formats.0)? + frac(formats.1)?)?;
    let special = |x: &Decoded| x.class as u8 >= Class::Inf as u8;
    // Structure of arrays: exponents and signed significands.
    let exps = |v: &[Decoded]| -> Vec<i32> {
        v.iter()
            .map(|x| if x.sig == 0 { ZERO_EXP } else { x.exp })
            .collect()
    };
    let sigs = |v: &[Decoded]| -> Vec<i64> {
        v.iter()
            .map(|x| {
                if x.neg {
                    -i64::from(x.sig)
                } else {
                    i64::from(x.sig)
                }
            })
            .collect()
    };
    let (ae, asg) = (exps(&a[..m * k]), sigs(&a[..m * k]));
    let (be, bsg) = (exps(&b[..n * k]), sigs(&b[..n * k]));
    // When every kept term and their sum fit in 31 bits (measured on these operands: the
    // largest significands' product, lifted, times K) and every exponent is one of f64's
    // normal ones, the products run in f64 ([`products_f64`]).
    let top = |v: &[i64]| v.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0);
    let normal = |v: &[i32]| {
        v.iter()
            .all(|&e| e == ZERO_EXP || (-1022..=1023).contains(&e))
    };
    let narrow = k == 16
        && normal(&ae)
        && normal(&be)
        && (top(&asg) * top(&bsg))
            .checked_shl(lift)
            .is_some_and(|x| x.saturating_mul(16) < 1 << 31);
    let values = |e: &[i32], sg: &[i64]| -> Vec<f64> {
        e.iter()
            .zip(sg)
            .map(|(&e, &x)| if x == 0 { 0.0 } else { x as f64 * pow2(e) })
            .collect()
    };
    let (av, bv) = if narrow {
        (values(&ae, &asg), values(&be, &bsg))
    } else {
        (Vec::new(), Vec::new())
    };
    let row_special: Vec<bool> = (0..m)
        .map(|i| a[i * k..(i + 1) * k].iter().any(special))
        .collect();
    let col_special: Vec<bool> = (0..n)
        .map(|j| b[j * k..(j + 1) * k].iter().any(special))
        .collect();
    for i in 0..m {
        if row_special[i] {
            continue;
        }
        let (are, ars) = (&ae[i * k..(i + 1) * k], &asg[i * k..(i + 1) * k]);
        for j in 0..n {
            let cc = c(i * n + j);
            if col_special[j] || special(&cc) {
                continue;
            }
            let (bce, bcs) = (&be[j * k..(j + 1) * k], &bsg[j * k..(j + 1) * k]);
            let e_c = if cc.sig == 0 { e_zero } else { cc.exp };
            let fast = if narrow {
                let (x, y) = (&av[i * k..(i + 1) * k], &bv[j * k..(j + 1) * k]);
                products_f64(are, x, bce, y, e_c, e_zero, lift)
            } else {
                None
            };
            let (e_max, mut sum) = match k {
                _ if fast.is_some() => fast.unwrap_or_default(),
                8 => products::<8>(are, ars, bce, bcs, e_c, e_zero, lift),
                16 => products::<16>(are, ars, bce, bcs, e_c, e_zero, lift),
                32 => products::<32>(are, ars, bce, bcs, e_c, e_zero, lift),
                _ => products_any(are, ars, bce, bcs, e_c, e_zero, lift),
            };
            let unit = e_max - f as i32;
            // C: its unit is at cc.lsb.
            sum += kept64(cc.neg, u64::from(cc.sig), unit - cc.lsb);
            done[i * n + j] = true;
            d[i * n + j] = if out == OutputRounding::RzF32 {
                rz_f32(sum, unit)
            } else {
                output(i128::from(sum), unit, out)
            };
        }
    }
    Some(())
}

/// RZ to f32 of `sum * 2^unit` ([`output`] with [`OutputRounding::RzF32`]), directly for
/// results in f32's normal range and through [`output`] otherwise (zero gives +0).
#[cfg(feature = "alloc")]
#[inline]
fn rz_f32(sum: i64, unit: i32) -> u32 {
    if sum == 0 {
        return 0;
    }
    let mag = sum.unsigned_abs();
    let msb = 63 - mag.leading_zeros() as i32;
    let e = msb + unit;
    if !(-126..=127).contains(&e) {
        return output(i128::from(sum), unit, OutputRounding::RzF32);
    }
    let sig = if msb >= 23 {
        mag >> (msb - 23)
    } else {
        mag << (23 - msb)
    };
    let sign = if sum < 0 { 1u32 << 31 } else { 0 };
    sign | ((e + 127) as u32) << 23 | (sig as u32 & 0x7F_FFFF)
}

/// A zero factor's exponent in the structure-of-arrays copies: far below any real one, so that
/// a zero product's sum of exponents stays below [`ZERO_BELOW`] and is replaced by `e_zero`.
#[cfg(feature = "alloc")]
const ZERO_EXP: i32 = -(1 << 20);
/// See [`ZERO_EXP`].
#[cfg(feature = "alloc")]
const ZERO_BELOW: i32 = -(1 << 19);

/// `e_max` over the products and `e_c`, and the sum of the products truncated to
/// `2^(e_max - F)` (see [`tfdpa_matrix`]), for a K known at compile time.
#[cfg(feature = "alloc")]
#[inline]
fn products<const K: usize>(
    ae: &[i32],
    asg: &[i64],
    be: &[i32],
    bsg: &[i64],
    e_c: i32,
    e_zero: i32,
    lift: u32,
) -> (i32, i64) {
    let (Ok(ae), Ok(asg), Ok(be), Ok(bsg)) = (
        <&[i32; K]>::try_from(ae),
        <&[i64; K]>::try_from(asg),
        <&[i32; K]>::try_from(be),
        <&[i64; K]>::try_from(bsg),
    ) else {
        return products_any(ae, asg, be, bsg, e_c, e_zero, lift);
    };
    let mut e = [0i32; K];
    let mut e_max = e_c;
    for t in 0..K {
        e[t] = ae[t] + be[t];
        e_max = e_max.max(if e[t] < ZERO_BELOW { e_zero } else { e[t] });
    }
    let mut sum = 0i64;
    for t in 0..K {
        let p = asg[t] * bsg[t];
        let drop = ((e_max - e[t]) as u32).min(63);
        let sgn = p >> 63;
        let kept = ((p.unsigned_abs() << lift) >> drop) as i64;
        sum += (kept ^ sgn) - sgn;
    }
    (e_max, sum)
}

/// `2^e` for an exponent of f64's normal range.
#[cfg(feature = "alloc")]
#[inline]
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// [`products`] for K = 16 in f64: with `x = sig_a 2^e_a` and `y = sig_b 2^e_b` (exact, the
/// exponents normal), a term's kept part `(|p| << lift) >> (e_max - e)` is
/// `trunc(x y 2^(lift - e_max))` with its sign: `x y` is exact (the product of two significands
/// below 2^31 at a normal exponent), scaling by a power of two is exact wherever the result
/// could be 1 or more, and the truncation toward zero is exact in f64 (see the body). For
/// operands whose kept terms are below 2^27, so that 16 sum below 2^31 (checked by
/// [`tfdpa_matrix`]). `None` when `2^(lift - e_max)` is not a normal f64 (the caller uses
/// [`products`]).
#[cfg(feature = "alloc")]
#[inline]
fn products_f64(
    ae: &[i32],
    x: &[f64],
    be: &[i32],
    y: &[f64],
    e_c: i32,
    e_zero: i32,
    lift: u32,
) -> Option<(i32, i64)> {
    const K: usize = 16;
    let (ae, x, be, y) = (&ae[..K], &x[..K], &be[..K], &y[..K]);
    let mut e_max = e_c;
    for t in 0..K {
        let e = ae[t] + be[t];
        e_max = e_max.max(if e < ZERO_BELOW { e_zero } else { e });
    }
    let unit = lift as i32 - e_max;
    if !(-1022..=1023).contains(&unit) {
        return None;
    }
    let scale = pow2(unit);
    // Each term truncated toward zero in f64, without a conversion per term: for
    // `0 <= a < 2^52`, `(a + 2^52) - 2^52` is `a` rounded to an integer (both steps exact but
    // the rounding), one less when that is above `a` gives `floor(a)`, and the sign of the
    // product makes it `trunc`. The terms are integers below 2^27 in magnitude, so their sum
    // is exact in any order (below 2^31); element-wise steps over arrays, so that the compiler
    // runs them two or four at a time.
    const ROUND: f64 = 4_503_599_627_370_496.0; // 2^52
    let mut kept = [0.0f64; K];
    for t in 0..K {
        let p = x[t] * y[t] * scale;
        let a = p.abs();
        let r = (a + ROUND) - ROUND;
        let floor = r - if r > a { 1.0 } else { 0.0 };
        kept[t] = floor.copysign(p);
    }
    let mut half = [0.0f64; K / 2];
    for t in 0..K / 2 {
        half[t] = kept[t] + kept[t + K / 2];
    }
    let mut quarter = [0.0f64; K / 4];
    for t in 0..K / 4 {
        quarter[t] = half[t] + half[t + K / 4];
    }
    let sum = (quarter[0] + quarter[2]) + (quarter[1] + quarter[3]);
    Some((e_max, sum as i64))
}

/// [`products`] for any K.
#[cfg(feature = "alloc")]
fn products_any(
    ae: &[i32],
    asg: &[i64],
    be: &[i32],
    bsg: &[i64],
    e_c: i32,
    e_zero: i32,
    lift: u32,
) -> (i32, i64) {
    let mut e_max = e_c;
    for (x, y) in ae.iter().zip(be) {
        let e = x + y;
        e_max = e_max.max(if e < ZERO_BELOW { e_zero } else { e });
    }
    let mut sum = 0i64;
    for ((xe, ye), (xs, ys)) in ae.iter().zip(be).zip(asg.iter().zip(bsg)) {
        let p = xs * ys;
        let drop = ((e_max - (xe + ye)) as u32).min(63);
        let sgn = p >> 63;
        let kept = ((p.unsigned_abs() << lift) >> drop) as i64;
        sum += (kept ^ sgn) - sgn;
    }
    (e_max, sum)
}

/// GST-FDPA of e2m1 operands (mxf4, mxf4nvf4) for every element without a special scale or C,
/// as [`FastRow::float`] computes it: every e2m1 value is a multiple of 2^-1 below 8, so a
/// product is an integer number of quarters and a group of 16 products sums exactly in an
/// `i32` (an integer dot product of halves); the group's value is that sum times its two scales, aligned by the
/// scales' exponents; the kept part of every term is below 2^(F + 14) and fits an `i64`.
#[cfg(feature = "alloc")]
#[allow(clippy::type_complexity)] // the operands, grouped as the caller holds them
fn gst_e2m1_matrix(
    (a, b, c, sfa, sfb): (&[Decoded], &[Decoded], &[Decoded], &[Decoded], &[Decoded]),
    (m, n, k, blocks): (usize, usize, usize, usize),
    (f, e_zero, group): (u32, i32, usize),
    d: &mut [u32],
    done: &mut [bool],
) {
    use alloc::vec::Vec;
    let groups = k / group;
    let block = k / blocks;
    if group == 0 || k % group != 0 || group % block != 0 && block % group != 0 {
        return;
    }
    // Every e2m1 value is a whole number of halves (0.5 to 6 -> 1 to 12), so a product is a
    // whole number of quarters and a group sum is an integer dot product of halves: signed
    // halves for the sum, their magnitudes for "some product is non-zero".
    let halves = |v: &[Decoded]| -> Option<(Vec<i16>, Vec<i16>)> {
        let mut signed = Vec::with_capacity(v.len());
        let mut abs = Vec::with_capacity(v.len());
        for x in v {
            let h = i16::try_from(x.sig << u32::try_from(x.lsb + 1).ok()?).ok()?;
            signed.push(if x.neg { -h } else { h });
            abs.push(h);
        }
        Some((signed, abs))
    };
    let (Some((ah, aa)), Some((bh, ba))) = (halves(a), halves(b)) else {
        return;
    };
    let special = |x: &Decoded| x.class as u8 >= Class::Inf as u8;
    let row_bad: Vec<bool> = (0..m)
        .map(|i| sfa[i * blocks..(i + 1) * blocks].iter().any(special))
        .collect();
    let col_bad: Vec<bool> = (0..n)
        .map(|j| sfb[j * blocks..(j + 1) * blocks].iter().any(special))
        .collect();
    let mut sums = [0i32; 8];
    let mut nz = [false; 8];
    if groups > sums.len() {
        return;
    }
    // The scale of group g (no division in the loops).
    let mut sidx = [0usize; 8];
    for (g, x) in sidx.iter_mut().enumerate().take(groups) {
        *x = g * group / block;
    }
    for i in 0..m {
        if row_bad[i] {
            continue;
        }
        for j in 0..n {
            let cc = c.get(i * n + j).copied().unwrap_or(Decoded::ZERO);
            if col_bad[j] || special(&cc) {
                continue;
            }
            if group == 16 {
                // Fixed 16-element groups: array views the compiler can vectorize.
                for g in 0..groups {
                    let (lo, alo) = (j * k + g * 16, i * k + g * 16);
                    let (x, y) = (&ah[alo..alo + 16], &bh[lo..lo + 16]);
                    if let (Ok(x), Ok(y)) = (<&[i16; 16]>::try_from(x), <&[i16; 16]>::try_from(y)) {
                        sums[g] = dot16(x, y);
                    }
                    nz[g] = sums[g] != 0 || {
                        let (x, y) = (&aa[alo..alo + 16], &ba[lo..lo + 16]);
                        x.iter().zip(y).any(|(&p, &q)| p != 0 && q != 0)
                    };
                }
            } else {
                for g in 0..groups {
                    let (lo, hi) = (j * k + g * group, j * k + (g + 1) * group);
                    let (alo, ahi) = (i * k + g * group, i * k + (g + 1) * group);
                    let dot = |x: &[i16], y: &[i16]| -> i32 {
                        x.iter()
                            .zip(y)
                            .map(|(&p, &q)| i32::from(p) * i32::from(q))
                            .sum()
                    };
                    sums[g] = dot(&ah[alo..ahi], &bh[lo..hi]);
                    nz[g] = sums[g] != 0 || dot(&aa[alo..ahi], &ba[lo..hi]) != 0;
                }
            }
            let mut e_max = if cc.sig == 0 { e_zero } else { cc.exp };
            let scale = |g: usize| (sfa[i * blocks + sidx[g]], sfb[j * blocks + sidx[g]]);
            for (g, &any) in nz.iter().enumerate().take(groups) {
                let (sa, sb) = scale(g);
                let zero = !any || sa.sig == 0 || sb.sig == 0;
                e_max = e_max.max(if zero { e_zero } else { sa.exp + sb.exp });
            }
            let unit = e_max - f as i32;
            let mut sum = kept64(cc.neg, u64::from(cc.sig), unit - cc.lsb);
            for (g, &gs) in sums.iter().enumerate().take(groups) {
                let (sa, sb) = scale(g);
                let mag = u64::from(gs.unsigned_abs()) * u64::from(sa.sig) * u64::from(sb.sig);
                sum += kept64(gs < 0, mag, unit - (sa.lsb + sb.lsb - 2));
            }
            done[i * n + j] = true;
            d[i * n + j] = rz_f32(sum, unit);
        }
    }
}

/// An exact dot product of 16 small integers (halves of e2m1 values).
#[cfg(feature = "alloc")]
#[inline]
fn dot16(x: &[i16; 16], y: &[i16; 16]) -> i32 {
    let mut s = 0i32;
    for t in 0..16 {
        s += i32::from(x[t]) * i32::from(y[t]);
    }
    s
}

/// A term `mag * 2^lsb` truncated toward zero to a multiple of `2^unit`, signed, given
/// `shift = unit - lsb`: for a left shift the caller's bounds guarantee no overflow (kept terms
/// are below `2^(F + 14)`); a zero magnitude keeps nothing whatever its unit.
#[inline]
fn kept64(neg: bool, mag: u64, shift: i32) -> i64 {
    let k = if mag == 0 {
        0
    } else if shift <= 0 {
        mag << (-shift).min(63) as u32
    } else {
        mag.checked_shr(shift as u32).unwrap_or(0)
    } as i64;
    if neg {
        -k
    } else {
        k
    }
}
