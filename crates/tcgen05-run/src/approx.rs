//! PTX's approximate instructions, computed on request as the correctly rounded function.
//!
//! PTX ISA 9.7.4.10 (`ex2`) defines `ex2.approx.f32` and `ex2.approx.ftz.f32` only by an error
//! bound ("maximum relative error 2^-22"), so no bit pattern follows from the ISA, and a run
//! refuses them unless the user names them in [`Approx`]: `--approx ex2=rn` computes them as
//! the correctly rounded 2^x (round to nearest even; `.ftz` flushes a subnormal input and a
//! subnormal result to a sign-preserving zero, PTX ISA 9.7.4). The run's [`crate::exec::Stats`]
//! counts every lane so computed, and [`FORMS`] says how far an H100 is from it (measured by
//! `hw/approx`). `div.full{.ftz}.f32` (PTX ISA 9.7.4.6, at most 2 ulp) likewise with `div=rn`.

use crate::error::RunError;
use crate::op::Src;

/// The approximate operations a run may compute as the correctly rounded function (all off by
/// default: the run refuses them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Approx {
    /// `ex2.approx{.ftz}.f32` as the correctly rounded 2^x (`ex2=rn`).
    pub ex2: bool,
    /// `div.full{.ftz}.f32` as the correctly rounded quotient (`div=rn`).
    pub div: bool,
}

impl Approx {
    /// Reads one `OP=MODE` item of `--approx` (the only one is `ex2=rn`); several items are
    /// separated by commas.
    ///
    /// # Errors
    /// [`RunError::Launch`] naming the item as written.
    pub fn parse(spec: &str) -> Result<Approx, RunError> {
        let mut a = Approx::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item {
                "ex2=rn" => a.ex2 = true,
                "div=rn" => a.div = true,
                _ => {
                    return Err(RunError::Launch {
                        field: "approx",
                        value: item.to_string(),
                        why: "the approximations a run can compute are ex2=rn (ex2.approx{.ftz}.f32 as the correctly rounded 2^x) and div=rn (div.full{.ftz}.f32 as the correctly rounded quotient)",
                    })
                }
            }
        }
        Ok(a)
    }
}

/// How many lanes computed each approximate form as its correctly rounded function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Lanes per form, in the order of [`FORMS`].
    pub lanes: [u64; 4],
}

impl Counts {
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: Counts) {
        for (x, y) in self.lanes.iter_mut().zip(o.lanes) {
            *x += y;
        }
    }

    /// One line per form used: its name, the lanes computed, and the H100's measured distance
    /// from the correctly rounded result; empty when none was.
    #[must_use]
    pub fn describe(&self) -> Vec<String> {
        self.lanes
            .iter()
            .zip(FORMS.iter())
            .filter(|(n, _)| **n > 0)
            .map(|(n, f)| {
                format!(
                    "{}: {n} lanes computed as the correctly rounded {} (--approx {}); {}",
                    f.form, f.function, f.flag, f.h100
                )
            })
            .collect()
    }
}

/// One approximate form the run can compute as correctly rounded, with what `hw/approx`
/// measured on an NVIDIA H100 80GB HBM3 (sm_90a; hw/approx/results/approx-h100.txt). For `ex2`
/// the counts are the sweep's less the 2 inputs (0x3b429d37, 0xbcf3a937) where the sweep's f64
/// reference rounded to the wrong f32 and the H100 gave the correctly rounded value
/// (hw/approx/README.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// The PTX form.
    pub form: &'static str,
    /// The function it approximates.
    pub function: &'static str,
    /// The `--approx` item that enables it.
    pub flag: &'static str,
    /// The H100's measured distance from the correctly rounded result, in words.
    pub h100: &'static str,
    /// Inputs the H100 was measured on, and how many of the non-NaN results differed.
    pub measured: (u64, u64),
    /// The largest difference in ulps.
    pub max_ulp: u32,
}

/// The forms, in the order of [`Counts::lanes`].
pub const FORMS: [Form; 4] = [
    Form {
        form: "ex2.approx.ftz.f32",
        function: "2^x",
        flag: "ex2=rn",
        h100: "an H100 differs from it in 189046179 of all 2^32 inputs, by at most 2 ulp (hw/approx)",
        measured: (1 << 32, 189_046_179),
        max_ulp: 2,
    },
    Form {
        form: "ex2.approx.f32",
        function: "2^x",
        flag: "ex2=rn",
        h100: "an H100 differs from it in 189192458 of all 2^32 inputs, by at most 2 ulp (hw/approx)",
        measured: (1 << 32, 189_192_458),
        max_ulp: 2,
    },
    Form {
        form: "div.full.ftz.f32",
        function: "quotient",
        flag: "div=rn",
        h100: "not measured on an H100 (PTX ISA 9.7.4.6: at most 2 ulp)",
        measured: (0, 0),
        max_ulp: 2,
    },
    Form {
        form: "div.full.f32",
        function: "quotient",
        flag: "div=rn",
        h100: "an H100 differs from it in 951311101 of 2^32 seeded input pairs, by at most 2 ulp (hw/approx)",
        measured: (1 << 32, 951_311_101),
        max_ulp: 2,
    },
];

/// An approximate instruction the run computes on request ([`Approx`]): `ex2.approx{.ftz}.f32`
/// or `div.full{.ftz}.f32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApproxFn {
    /// `div.full` (true) or `ex2.approx`.
    pub div: bool,
    /// `.ftz`.
    pub ftz: bool,
    /// Destination slot.
    pub d: u32,
    /// Source (the dividend for `div`).
    pub a: Src,
    /// The divisor (`div`; unused for `ex2`).
    pub b: Src,
}

impl ApproxFn {
    /// The index of this form in [`FORMS`] and [`Counts::lanes`].
    #[must_use]
    pub fn index(&self) -> usize {
        if self.div {
            2 + usize::from(!self.ftz)
        } else {
            usize::from(!self.ftz)
        }
    }

    /// Whether `a` enables this form.
    #[must_use]
    pub fn enabled(&self, a: Approx) -> bool {
        if self.div {
            a.div
        } else {
            a.ex2
        }
    }

    /// The correctly rounded result for the f32 bits `a` (and `b`).
    #[must_use]
    pub fn apply(&self, a: u32, b: u32) -> u32 {
        if self.div {
            div_rn(a, b, self.ftz)
        } else {
            ex2_rn(a, self.ftz)
        }
    }
}

/// The refusal of `ex2.approx` when the run was not asked to compute it.
pub(crate) const REFUSED_EX2: &str = "a hardware approximation (PTX ISA 9.7.4.10 gives only its error bound); `--approx ex2=rn` computes it as the correctly rounded 2^x instead (an H100 gives that result for 95.6% of f32 inputs, and is at most 2 ulp from it: hw/approx)";

/// The refusal of `div.full` when the run was not asked to compute it.
pub(crate) const REFUSED_DIV: &str = "a hardware approximation (PTX ISA 9.7.4.6 gives only its error bound, 2 ulp); `--approx div=rn` computes it as the correctly rounded quotient instead (an H100 gives that result for 77.8% of 2^32 seeded pairs, and is at most 2 ulp from it: hw/approx)";

const F32_MIN_NORMAL: u32 = 0x0080_0000;

fn flush(b: u32) -> u32 {
    if b & 0x7F80_0000 == 0 && b & 0x007F_FFFF != 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

/// 2^x for the f32 bits `a`, correctly rounded to f32 (ties to even); with `ftz`, subnormal
/// input and result flushed to a sign-preserving zero. NaN gives the canonical NaN 0x7FFFFFFF.
#[must_use]
pub fn ex2_rn(a: u32, ftz: bool) -> u32 {
    let a = if ftz { flush(a) } else { a };
    let x = f32::from_bits(a);
    if x.is_nan() {
        return 0x7FFF_FFFF;
    }
    if x == f32::INFINITY {
        return f32::INFINITY.to_bits();
    }
    if x >= 128.0 {
        return f32::INFINITY.to_bits();
    }
    if x < -151.0 {
        return 0; // below half the smallest subnormal (2^-150), also -inf
    }
    let r = exp2_dd(f64::from(x));
    let f = round_dd(r.0, r.1);
    let b = f.to_bits();
    if ftz && b < F32_MIN_NORMAL {
        0
    } else {
        b
    }
}

/// The f32 nearest hi + lo (|lo| at most half an ulp of hi): hi's rounding, unless hi is
/// exactly halfway between two f32, where lo's sign decides.
fn round_dd(hi: f64, lo: f64) -> f32 {
    let f = hi as f32;
    let back = f64::from(f);
    if lo == 0.0 || back == hi {
        return f;
    }
    // hi is a midpoint when rounding it moved it by exactly half the gap to the next f32 away.
    let toward = if hi > back {
        f32::from_bits(f.to_bits() + 1)
    } else {
        f32::from_bits(f.to_bits() - 1)
    };
    let mid = (back + f64::from(toward)) / 2.0;
    if hi != mid {
        return f;
    }
    // Exactly halfway in hi: lo's sign picks the side.
    if (lo > 0.0) == (f64::from(toward) > back) {
        toward
    } else {
        f
    }
}

/// Exact sum of two f64 (Knuth's two-sum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// (a_hi + a_lo) * (b_hi + b_lo) to about 2^-104 relative.
fn dd_mul(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let p = a.0 * b.0;
    let e = a.0.mul_add(b.0, -p);
    let e = e + (a.0 * b.1 + a.1 * b.0);
    two_sum(p, e)
}

fn dd_add(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let (s, e) = two_sum(a.0, b.0);
    two_sum(s, e + a.1 + b.1)
}

/// ln 2 as a double-double (hi = the f64 nearest ln 2; lo = the f64 nearest ln 2 - hi).
const LN2: (f64, f64) = (core::f64::consts::LN_2, 2.319_046_813_846_299_6e-17);

/// 2^x for an f32-valued x in [-151, 128), as a double-double accurate to well under 2^-90
/// relative: x = n + f with n an integer and f in [-1/2, 1/2] (exact), e^(f ln 2) by its
/// Taylor series in double-double, scaled by 2^n.
fn exp2_dd(x: f64) -> (f64, f64) {
    let n = x.round();
    let f = x - n; // exact: x has 24 significant bits
    let t = dd_mul((f, 0.0), LN2); // |t| <= 0.347
                                   // Taylor series: sum t^k / k!, 30 terms (0.347^30 / 30! < 2^-190).
    let mut sum = (1.0, 0.0);
    let mut term = (1.0, 0.0);
    for k in 1..=30u32 {
        term = dd_mul(term, t);
        let inv = 1.0 / f64::from(k);
        let inv_lo = (-f64::from(k)).mul_add(inv, 1.0) / f64::from(k);
        term = dd_mul(term, (inv, inv_lo));
        sum = dd_add(sum, term);
    }
    // 2^n is a normal f64 for n in [-151, 128]: the scaling is exact.
    let s = pow2(n);
    (sum.0 * s, sum.1 * s)
}

/// 2^n as f64 for an integer n in [-151, 128] (always a normal f64, so exact).
fn pow2(n: f64) -> f64 {
    f64::from_bits(((n as i64 + 1023) as u64) << 52)
}

/// a / b for the f32 bits `a`, `b`, correctly rounded (IEEE 754 division, ties to even); with
/// `ftz`, subnormal inputs and result flushed to a sign-preserving zero. NaN gives 0x7FFFFFFF.
#[must_use]
pub fn div_rn(a: u32, b: u32, ftz: bool) -> u32 {
    let (a, b) = if ftz { (flush(a), flush(b)) } else { (a, b) };
    let q = f32::from_bits(a) / f32::from_bits(b);
    if q.is_nan() {
        return 0x7FFF_FFFF;
    }
    if ftz {
        flush(q.to_bits())
    } else {
        q.to_bits()
    }
}
