//! The error of a whole K loop: a GEMM's inner product computed as a chain of MMA instructions
//! (D rounded by the instruction after each step, as a kernel's main loop does) against the
//! exact inner product. Lets a user compare, for example, Hopper FP8 (`F = 13`, D truncated to
//! 13 fraction bits) with Blackwell FP8 (`F = 25`) at their K.
//!
//! Inputs are drawn in `f64` from a [`Distribution`] with [`SplitMix64`] and rounded to the
//! operand format (RNE, saturating to the largest finite value). Block-scaled kinds get unit
//! scales (ue8m0 `0x7F`, ue4m3 `0x38`), so they show the arithmetic, not a scaling recipe.
//! Needs the `std` feature (logarithms and cosines for the normal distribution).

use super::exact::ExactSum;
use super::fdpa::Operands;
use super::format::{Exact, Format, Rounding, Value};
use super::params::ParamRow;
use super::rng::SplitMix64;
use alloc::vec::Vec;

/// How the operand values are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// Standard normal N(0, 1).
    Normal,
    /// Uniform on [-1, 1).
    Uniform,
    /// A DNN-like mixture: N(0, 1) plus, with probability 0.001, an outlier from N(0, 100)
    /// (the mixture MMA-Sim's paper uses, per `../shared/spec/mma-numerics.md` 5.1).
    Llm,
}

impl Distribution {
    /// Parses `normal`, `uniform`, `llm`.
    #[must_use]
    pub fn from_name(s: &str) -> Option<Distribution> {
        match s {
            "normal" => Some(Distribution::Normal),
            "uniform" => Some(Distribution::Uniform),
            "llm" => Some(Distribution::Llm),
            _ => None,
        }
    }

    fn draw(self, r: &mut SplitMix64) -> f64 {
        let normal = |r: &mut SplitMix64| {
            let u1 = 1.0 - r.next_f64();
            let u2 = r.next_f64();
            (-2.0 * u1.ln()).sqrt() * (core::f64::consts::TAU * u2).cos()
        };
        match self {
            Distribution::Normal => normal(r),
            Distribution::Uniform => 2.0 * r.next_f64() - 1.0,
            Distribution::Llm => {
                let x = normal(r);
                if r.next_f64() < 0.001 {
                    x + 10.0 * normal(r)
                } else {
                    x
                }
            }
        }
    }
}

/// The error statistics at one K.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checkpoint {
    /// The K reached (a multiple of the instruction's K).
    pub k: u64,
    /// Mean of |D - exact| / |exact| over the trials (trials with an exact zero are skipped).
    pub mean_rel: f64,
    /// Largest relative error.
    pub max_rel: f64,
    /// Mean error in units in the last place of the exact result in D's format.
    pub mean_ulp: f64,
    /// Largest error in ulps.
    pub max_ulp: f64,
    /// Trials counted (exact result nonzero and D finite).
    pub trials: u32,
}

/// Why a study cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StudyError {
    /// K is zero or not a multiple of the instruction's K.
    KNotMultiple {
        /// K as given.
        k: u64,
        /// The instruction's K.
        instruction_k: u32,
    },
    /// Integer kinds are exact: there is no error to study.
    Integer,
    /// No trials.
    NoTrials,
}

impl core::fmt::Display for StudyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StudyError::KNotMultiple { k, instruction_k } => write!(f, "k: {k} is not a positive multiple of the instruction's K = {instruction_k} (PTX ISA 9.7.16.2.1 Table 39)"),
            StudyError::Integer => f.write_str("kind: integer MMA is exact; there is no rounding error to study"),
            StudyError::NoTrials => f.write_str("trials: at least one trial is needed"),
        }
    }
}

impl core::error::Error for StudyError {}

fn to_code(f: Format, x: f64) -> u32 {
    let e = Exact::from_f64(x).unwrap_or(Exact {
        neg: false,
        mag: 0,
        scale: 0,
    });
    match f.encode(e, Rounding::NearestEven) {
        Ok(c) => c,
        Err(_) => {
            // saturate: the largest finite code of the format, with the sign
            let max = (0..1u32 << f.width().min(16))
                .rev()
                .find(|&c| matches!(f.decode(c), Ok(Value::Finite { neg: false, .. })));
            let m = max.unwrap_or(0);
            if x < 0.0 {
                m | 1 << (f.width() - 1)
            } else {
                m
            }
        }
    }
}

fn value(f: Format, code: u32) -> Option<f64> {
    match f.decode(code) {
        Ok(v @ Value::Finite { .. }) => Exact::of(v).map(Exact::to_f64),
        Ok(Value::Zero { .. }) => Some(0.0),
        _ => None,
    }
}

/// Runs `trials` K loops of length `k` through `row`; statistics at K = instruction K times
/// 1, 2, 4, ... and at `k`.
///
/// # Errors
/// [`StudyError`] for a K that is not a multiple of the instruction's, integer kinds, or zero
/// trials.
pub fn run(
    row: &ParamRow,
    k: u64,
    dist: Distribution,
    trials: u32,
    seed: u64,
) -> Result<Vec<Checkpoint>, StudyError> {
    let ik = row.algorithm.k();
    if matches!(row.algorithm, super::fdpa::Algorithm::Integer { .. }) {
        return Err(StudyError::Integer);
    }
    if k == 0 || k % u64::from(ik) != 0 {
        return Err(StudyError::KNotMultiple {
            k,
            instruction_k: ik,
        });
    }
    if trials == 0 {
        return Err(StudyError::NoTrials);
    }
    let steps = (k / u64::from(ik)) as usize;
    let mut marks: Vec<usize> = Vec::new();
    let mut s = 1;
    while s < steps {
        marks.push(s);
        s *= 2;
    }
    marks.push(steps);
    let mut acc: Vec<(f64, f64, f64, f64, u32)> = alloc::vec![(0.0, 0.0, 0.0, 0.0, 0); marks.len()];
    let mut rng = SplitMix64::new(seed);
    let (sfa, sfb): (Vec<u32>, Vec<u32>) = match row.scale {
        Some((f, block)) => {
            let one = if f == Format::Ue4m3 { 0x38 } else { 0x7F };
            let n = (ik / block) as usize;
            (alloc::vec![one; n], alloc::vec![one; n])
        }
        None => (Vec::new(), Vec::new()),
    };
    let ulp_p = match row.d {
        Format::F16 => 11,
        _ => 24,
    };
    for _ in 0..trials {
        let mut d = 0u32;
        let mut exact = ExactSum::ZERO;
        let mut mi = 0;
        let mut a = alloc::vec![0u32; ik as usize];
        let mut b = alloc::vec![0u32; ik as usize];
        for step in 1..=steps {
            for i in 0..ik as usize {
                a[i] = to_code(row.a, dist.draw(&mut rng));
                b[i] = to_code(row.b, dist.draw(&mut rng));
                if let (Ok(x), Ok(y)) = (row.a.decode(a[i]), row.b.decode(b[i])) {
                    if let (Some(x), Some(y)) = (Exact::of(x), Exact::of(y)) {
                        exact.add(Exact {
                            neg: x.neg ^ y.neg,
                            mag: x.mag * y.mag,
                            scale: x.scale + y.scale,
                        });
                    }
                }
            }
            let ops = Operands {
                a: &a,
                b: &b,
                c: d,
                sfa: &sfa,
                sfb: &sfb,
            };
            d = match row.dot(&ops, false) {
                Ok(r) => r.d_bits,
                Err(_) => return Err(StudyError::NoTrials),
            };
            if mi < marks.len() && step == marks[mi] {
                let ex = exact.to_f64();
                if let Some(dv) = value(row.d, d) {
                    if ex != 0.0 {
                        let err = (dv - ex).abs();
                        let rel = err / ex.abs();
                        let ulp = 2f64.powi(ex.abs().log2().floor() as i32 - (ulp_p - 1));
                        let e = &mut acc[mi];
                        e.0 += rel;
                        e.1 = e.1.max(rel);
                        e.2 += err / ulp;
                        e.3 = e.3.max(err / ulp);
                        e.4 += 1;
                    }
                }
                mi += 1;
            }
        }
    }
    Ok(marks
        .iter()
        .zip(acc)
        .map(|(&m, (sr, mr, su, mu, n))| Checkpoint {
            k: m as u64 * u64::from(ik),
            mean_rel: if n > 0 { sr / f64::from(n) } else { f64::NAN },
            max_rel: mr,
            mean_ulp: if n > 0 { su / f64::from(n) } else { f64::NAN },
            max_ulp: mu,
            trials: n,
        })
        .collect())
}
