//! Element formats as the tensor cores read them: decoding a code to (sign, exponent,
//! significand), and encoding an exact value back with a chosen rounding.
//!
//! Conventions (`../shared/spec/mma-numerics.md` section 2.1, from MMA-Sim 2.1.1 `helper.py` and
//! `fdpa.py`): a finite nonzero value `x` of a floating-point format has the exponent
//! `exp(x) = max(floor(log2 |x|), emin)` and the integer significand `sig` with `frac` fraction
//! bits, so `x = (-1)^sign * sig * 2^(exp - frac)`. Normal values have `sig` in
//! `[2^frac, 2^(frac+1))`; subnormal values keep `exp = emin` and have `sig < 2^frac` (they are
//! not renormalised). The bit layouts and special values follow PTX ISA 5.2.5 (alternate
//! floating-point formats) and IEEE 754 for f32/f16; bf16 and tf32 follow PTX ISA 5.2.3.
//!
//! | format | bits | exponent/fraction | emin | specials |
//! |---|---|---|---|---|
//! | f32 | 32 | 8/23 | -126 | IEEE Inf, NaN |
//! | tf32 | 32 | 8/10 | -126 | the f32 word with its low 13 bits cleared first (so a NaN whose payload lies only there reads as Inf) |
//! | f16 | 16 | 5/10 | -14 | IEEE |
//! | bf16 | 16 | 8/7 | -126 | IEEE |
//! | e5m2 | 8 | 5/2 | -14 | IEEE-like Inf and NaN |
//! | e4m3 | 8 | 4/3 | -6 | no Inf; NaN = S.1111.111 |
//! | e3m2 | 6 | 3/2 | -2 | none |
//! | e2m3 | 6 | 2/3 | 0 | none |
//! | e2m1 | 4 | 2/1 | 0 | none |
//! | ue8m0 | 8 | 8/0, unsigned | -127 | 0xFF = NaN; no zero (code 0 is 2^-127) |
//! | ue4m3 | 8 | 4/3, unsigned | -6 | 0x7F = NaN; bit 7 must be 0 (PTX); see [`DecodeError`] |
//! | ue5m3 | 8 | 5/3, unsigned | -14 | 0xFF = NaN; no Inf (PTX ISA 9.4; bias 15, rules.md D7). No MMA form of the numerics table takes it yet (its arithmetic is unmeasured) |
//! | s8, u8, s32 | 8, 8, 32 | integers | - | - |

use core::fmt;

/// An element format of an MMA operand, accumulator or scale factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Format {
    /// IEEE binary32.
    F32,
    /// TensorFloat-32 as the hardware reads it: an f32 word whose low 13 bits are ignored.
    Tf32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
    /// FP8 E4M3 (OCP "fn": no Inf).
    E4m3,
    /// FP8 E5M2.
    E5m2,
    /// FP6 E3M2.
    E3m2,
    /// FP6 E2M3.
    E2m3,
    /// FP4 E2M1.
    E2m1,
    /// Unsigned E8M0 scale factor (a power of two).
    Ue8m0,
    /// Unsigned E4M3 scale factor.
    Ue4m3,
    /// Unsigned E5M3 scale factor (PTX ISA 9.4; `sm_107f` family): 8 bits, 5 exponent and 3
    /// fraction bits, no sign, no infinity, 0xFF the only NaN; bias 15, the one under which the
    /// text's smallest value 2^-17 (code 0x01) and largest 114688 (0xFE) hold.
    Ue5m3,
    /// Signed 8-bit integer.
    S8,
    /// Unsigned 8-bit integer.
    U8,
    /// Signed 32-bit integer.
    S32,
}

/// How a format encodes Inf and NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Specials {
    /// IEEE: all-ones exponent; zero fraction = Inf, otherwise NaN.
    Ieee,
    /// Only the all-ones magnitude code is NaN (e4m3, ue4m3); no Inf.
    NanOnly,
    /// The all-ones code is NaN and there is no zero (ue8m0).
    E8m0,
    /// No special values (e3m2, e2m3, e2m1).
    None,
}

/// The decoded value of one code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Value {
    /// A zero (the sign is kept: the tensor-core rules treat both zeros alike, the decoder
    /// does not hide the difference).
    Zero {
        /// True for -0.
        neg: bool,
    },
    /// A finite nonzero value `(-1)^neg * sig * 2^(exp - frac)`.
    Finite {
        /// Sign.
        neg: bool,
        /// `max(floor(log2|x|), emin)`.
        exp: i32,
        /// Integer significand (with the implicit bit for normal values).
        sig: u32,
        /// Number of fraction bits of `sig`.
        frac: u32,
    },
    /// An infinity.
    Inf {
        /// True for -Inf.
        neg: bool,
    },
    /// Not a number.
    NaN,
    /// An integer (s8, u8, s32).
    Int(i64),
}

/// Why a code cannot be decoded in a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DecodeError {
    /// The code has bits set above the format's width (for example 0x40 for a 6-bit format).
    TooWide {
        /// The format.
        format: Format,
        /// The code as given.
        code: u32,
    },
    /// A UE4M3 scale with bit 7 set. PTX ISA 5.2.5 defines ue4m3 as unsigned with the most
    /// significant bit zero; MMA-Sim 2.1.1 clears the bit before decoding (its measurement, not
    /// a PTX rule), so this model refuses the code rather than guess.
    Ue4m3SignBit {
        /// The code as given.
        code: u32,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeError::TooWide { format, code } => write!(
                f,
                "code {code:#x} does not fit the {} bits of {} (PTX ISA 5.2)",
                format.width(),
                format.name()
            ),
            DecodeError::Ue4m3SignBit { code } => write!(
                f,
                "ue4m3 code {code:#04x} has bit 7 set; ue4m3 is unsigned with bit 7 zero (PTX ISA 5.2.5)"
            ),
        }
    }
}

impl core::error::Error for DecodeError {}

impl Format {
    /// Every format, in the order of the module table.
    pub const ALL: [Format; 15] = [
        Format::F32,
        Format::Tf32,
        Format::F16,
        Format::Bf16,
        Format::E4m3,
        Format::E5m2,
        Format::E3m2,
        Format::E2m3,
        Format::E2m1,
        Format::Ue8m0,
        Format::Ue4m3,
        Format::Ue5m3,
        Format::S8,
        Format::U8,
        Format::S32,
    ];

    /// The PTX name, for example `"e4m3"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Format::F32 => "f32",
            Format::Tf32 => "tf32",
            Format::F16 => "f16",
            Format::Bf16 => "bf16",
            Format::E4m3 => "e4m3",
            Format::E5m2 => "e5m2",
            Format::E3m2 => "e3m2",
            Format::E2m3 => "e2m3",
            Format::E2m1 => "e2m1",
            Format::Ue8m0 => "ue8m0",
            Format::Ue4m3 => "ue4m3",
            Format::Ue5m3 => "ue5m3",
            Format::S8 => "s8",
            Format::U8 => "u8",
            Format::S32 => "s32",
        }
    }

    /// Parses a PTX format name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// Bits of one code (tf32 counts its 32-bit container).
    #[must_use]
    pub const fn width(self) -> u32 {
        match self {
            Format::F32 | Format::Tf32 | Format::S32 => 32,
            Format::F16 | Format::Bf16 => 16,
            Format::E4m3
            | Format::E5m2
            | Format::Ue8m0
            | Format::Ue4m3
            | Format::Ue5m3
            | Format::S8
            | Format::U8 => 8,
            Format::E3m2 | Format::E2m3 => 6,
            Format::E2m1 => 4,
        }
    }

    /// True for s8, u8 and s32.
    #[must_use]
    pub const fn is_integer(self) -> bool {
        matches!(self, Format::S8 | Format::U8 | Format::S32)
    }

    /// (exponent bits, fraction bits, bias, signed, specials) of a floating-point format.
    const fn layout(self) -> Option<(u32, u32, i32, bool, Specials)> {
        Some(match self {
            Format::F32 => (8, 23, 127, true, Specials::Ieee),
            Format::Tf32 => (8, 23, 127, true, Specials::Ieee),
            Format::F16 => (5, 10, 15, true, Specials::Ieee),
            Format::Bf16 => (8, 7, 127, true, Specials::Ieee),
            Format::E5m2 => (5, 2, 15, true, Specials::Ieee),
            Format::E4m3 => (4, 3, 7, true, Specials::NanOnly),
            Format::E3m2 => (3, 2, 3, true, Specials::None),
            Format::E2m3 => (2, 3, 1, true, Specials::None),
            Format::E2m1 => (2, 1, 1, true, Specials::None),
            Format::Ue8m0 => (8, 0, 127, false, Specials::E8m0),
            Format::Ue4m3 => (4, 3, 7, false, Specials::NanOnly),
            Format::Ue5m3 => (5, 3, 15, false, Specials::NanOnly),
            Format::S8 | Format::U8 | Format::S32 => return None,
        })
    }

    /// The smallest exponent of the format: `1 - bias` (normal and subnormal values below
    /// `2^emin` share it), or `None` for integers.
    #[must_use]
    pub const fn emin(self) -> Option<i32> {
        match self.layout() {
            Some((_, _, bias, _, Specials::E8m0)) => Some(-bias),
            Some((_, _, bias, _, _)) => Some(1 - bias),
            None => None,
        }
    }

    /// Significant bits of a normal value (fraction bits + 1); tf32 has 11.
    #[must_use]
    pub const fn precision(self) -> Option<u32> {
        match self {
            Format::Tf32 => Some(11),
            _ => match self.layout() {
                Some((_, m, _, _, _)) => Some(m + 1),
                None => None,
            },
        }
    }

    /// Decodes one code (the code in the low [`Format::width`] bits).
    ///
    /// # Errors
    /// [`DecodeError::TooWide`] when bits above the width are set;
    /// [`DecodeError::Ue4m3SignBit`] for a UE4M3 code with bit 7 set.
    pub const fn decode(self, code: u32) -> Result<Value, DecodeError> {
        let w = self.width();
        if w < 32 && code >> w != 0 {
            return Err(DecodeError::TooWide { format: self, code });
        }
        match self {
            Format::S8 => return Ok(Value::Int(code as u8 as i8 as i64)),
            Format::U8 => return Ok(Value::Int(code as i64)),
            Format::S32 => return Ok(Value::Int(code as i32 as i64)),
            Format::Ue4m3 if code & 0x80 != 0 => return Err(DecodeError::Ue4m3SignBit { code }),
            _ => {}
        }
        let code = if matches!(self, Format::Tf32) {
            code & !0x1FFF
        } else {
            code
        };
        let Some((eb, mb, bias, signed, specials)) = self.layout() else {
            return Ok(Value::NaN); // unreachable: integers returned above
        };
        let mag_bits = if signed { w - 1 } else { w };
        let neg = signed && (code >> mag_bits) & 1 == 1;
        let mag = code & ((1u32 << mag_bits) - 1);
        let e_field = (mag >> mb) & ((1 << eb) - 1);
        let m_field = mag & ((1 << mb) - 1);
        let e_all_ones = e_field == (1 << eb) - 1;
        match specials {
            Specials::Ieee if e_all_ones => {
                return Ok(if m_field == 0 {
                    Value::Inf { neg }
                } else {
                    Value::NaN
                })
            }
            Specials::NanOnly if mag == (1 << (eb + mb)) - 1 => return Ok(Value::NaN),
            Specials::E8m0 => {
                if code == 0xFF {
                    return Ok(Value::NaN);
                }
                return Ok(Value::Finite {
                    neg: false,
                    exp: code as i32 - bias,
                    sig: 1,
                    frac: 0,
                });
            }
            _ => {}
        }
        if e_field == 0 {
            if m_field == 0 {
                return Ok(Value::Zero { neg });
            }
            return Ok(Value::Finite {
                neg,
                exp: 1 - bias,
                sig: m_field,
                frac: mb,
            });
        }
        Ok(Value::Finite {
            neg,
            exp: e_field as i32 - bias,
            sig: (1 << mb) | m_field,
            frac: mb,
        })
    }

    /// Encodes an exact value with `mode`, in the format's own code (tf32: the f32 word with
    /// the low 13 bits zero). Values whose rounded magnitude reaches `2^(emax+1)` become Inf in
    /// formats that have one; zero results keep the value's sign.
    ///
    /// # Errors
    /// [`EncodeError::Overflow`] when the rounded value is too large for a format without Inf
    /// (or above the largest value of e4m3/ue4m3); [`EncodeError::Negative`] for a negative value
    /// in an unsigned format; [`EncodeError::NotFloat`] for integer formats;
    /// [`EncodeError::Unrepresentable`] for a nonzero value in ue8m0 that is not a power of two
    /// after rounding and zero in ue8m0.
    pub fn encode(self, x: Exact, mode: Rounding) -> Result<u32, EncodeError> {
        let Some((eb, mb, bias, signed, specials)) = self.layout() else {
            return Err(EncodeError::NotFloat { format: self });
        };
        let mb = if matches!(self, Format::Tf32) { 10 } else { mb };
        let sign_shift = if matches!(self, Format::Tf32) {
            31
        } else {
            eb + mb
        };
        if x.neg && !signed && x.mag != 0 {
            return Err(EncodeError::Negative { format: self });
        }
        let sign_bit = if x.neg && signed {
            1u32 << sign_shift
        } else {
            0
        };
        let emin = if matches!(specials, Specials::E8m0) {
            -bias
        } else {
            1 - bias
        };
        let r = round(x, mb + 1, emin, mode);
        let emax = match specials {
            Specials::Ieee => (1 << eb) - 2 - bias,
            _ => (1 << eb) - 1 - bias,
        };
        let inf = match specials {
            Specials::Ieee => Some(sign_bit | (((1u32 << eb) - 1) << mb)),
            _ => None,
        };
        let shift_out = if matches!(self, Format::Tf32) { 13 } else { 0 };
        match r {
            Rounded::Zero => {
                if matches!(specials, Specials::E8m0) {
                    return Err(EncodeError::Unrepresentable { format: self });
                }
                Ok(sign_bit)
            }
            Rounded::Finite { sig, q } => {
                let top = q + mb as i32; // floor(log2) of sig * 2^q when normal
                let normal = sig >> mb != 0;
                if normal && top > emax {
                    return inf.ok_or(EncodeError::Overflow { format: self });
                }
                let field = if normal {
                    (((top + bias) as u32) << mb) | (sig & ((1 << mb) - 1))
                } else {
                    sig
                };
                let code = sign_bit | (field << shift_out);
                // The all-ones magnitude of e4m3/ue4m3 is NaN, not a number.
                if matches!(specials, Specials::NanOnly) {
                    let mag_mask = (1u32 << (eb + mb)) - 1;
                    if code & mag_mask == mag_mask {
                        return Err(EncodeError::Overflow { format: self });
                    }
                }
                Ok(code)
            }
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an exact value has no code in a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum EncodeError {
    /// Too large for a format without Inf.
    Overflow {
        /// The format.
        format: Format,
    },
    /// Negative value in an unsigned format.
    Negative {
        /// The format.
        format: Format,
    },
    /// The format has no code for the value (zero or a non-power of two in ue8m0).
    Unrepresentable {
        /// The format.
        format: Format,
    },
    /// An integer format has no rounding encoder.
    NotFloat {
        /// The format.
        format: Format,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Overflow { format } => write!(f, "value too large for {format}"),
            EncodeError::Negative { format } => write!(f, "negative value for unsigned {format}"),
            EncodeError::Unrepresentable { format } => {
                write!(f, "{format} has no code for this value")
            }
            EncodeError::NotFloat { format } => write!(f, "{format} is an integer format"),
        }
    }
}

impl core::error::Error for EncodeError {}

/// An exact binary value `(-1)^neg * mag * 2^scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Exact {
    /// Sign.
    pub neg: bool,
    /// Magnitude as an integer.
    pub mag: u128,
    /// Power of two of the magnitude's unit.
    pub scale: i32,
}

impl Exact {
    /// The exact value of a finite decoded value; `None` for Inf, NaN and integers.
    #[must_use]
    pub const fn of(v: Value) -> Option<Exact> {
        match v {
            Value::Zero { neg } => Some(Exact {
                neg,
                mag: 0,
                scale: 0,
            }),
            Value::Finite {
                neg,
                exp,
                sig,
                frac,
            } => Some(Exact {
                neg,
                mag: sig as u128,
                scale: exp - frac as i32,
            }),
            _ => None,
        }
    }

    /// The exact value of a finite `f64` (`None` for Inf and NaN).
    #[must_use]
    pub fn from_f64(x: f64) -> Option<Exact> {
        if !x.is_finite() {
            return None;
        }
        let bits = x.to_bits();
        let neg = bits >> 63 == 1;
        let e = ((bits >> 52) & 0x7FF) as i32;
        let m = bits & ((1 << 52) - 1);
        let (mag, scale) = if e == 0 {
            (m, -1074)
        } else {
            (m | 1 << 52, e - 1075)
        };
        Some(Exact {
            neg,
            mag: mag as u128,
            scale,
        })
    }

    /// The nearest `f64` (for statistics and display only; rounding is not exact).
    #[must_use]
    pub fn to_f64(self) -> f64 {
        if self.mag == 0 {
            return if self.neg { -0.0 } else { 0.0 };
        }
        // Keep the top 64 bits; the rest only affects the last f64 bit.
        let lz = self.mag.leading_zeros() as i32;
        let drop = (64 - lz).max(0);
        let top = (self.mag >> drop) as u64;
        let v = top as f64 * pow2(self.scale + drop);
        if self.neg {
            -v
        } else {
            v
        }
    }
}

/// `2^e` as an `f64` (0 or Inf outside the range), without `std`.
#[must_use]
pub fn pow2(e: i32) -> f64 {
    let mut v = 1.0f64;
    let mut k = e;
    while k > 600 {
        v *= f64::from_bits(0x7F70_0000_0000_0000); // 2^1016
        k -= 1016;
    }
    while k < -600 {
        v *= f64::from_bits(0x0070_0000_0000_0000); // 2^-1016
        k += 1016;
    }
    v * f64::from_bits(((k + 1023) as u64) << 52)
}

/// A rounding of an exact value to a number of significant bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Rounding {
    /// Toward zero (truncation of the magnitude).
    TowardZero,
    /// To nearest, ties to even.
    NearestEven,
}

/// An exact value rounded to `p` significant bits with exponent floor `emin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounded {
    /// The rounded magnitude is zero.
    Zero,
    /// `sig * 2^q`, `sig < 2^p`; normal when `sig >= 2^(p-1)`. The exponent range above is
    /// unbounded: the caller decides overflow.
    Finite {
        /// Significand.
        sig: u32,
        /// Exponent of the unit in the last place.
        q: i32,
    },
}

/// Rounds `x` to `p <= 31` significant bits, with subnormal quantum `2^(emin - p + 1)`.
#[must_use]
pub fn round(x: Exact, p: u32, emin: i32, mode: Rounding) -> Rounded {
    if x.mag == 0 {
        return Rounded::Zero;
    }
    let msb = 127 - x.mag.leading_zeros() as i32;
    let e = (msb + x.scale).max(emin);
    let q = e - (p as i32 - 1);
    let shift = q - x.scale;
    let (mut sig, q) = if shift <= 0 {
        ((x.mag << (-shift) as u32) as u64, q)
    } else {
        let s = shift as u32;
        let kept = if s >= 128 { 0 } else { x.mag >> s };
        let mut sig = kept as u64;
        if let Rounding::NearestEven = mode {
            // half = 2^(s-1); compare the dropped bits with it.
            let (above, exact_half) = if s > 128 {
                (false, false)
            } else {
                let rem = if s == 128 {
                    x.mag
                } else {
                    x.mag & ((1u128 << s) - 1)
                };
                let half = 1u128 << (s - 1);
                (rem > half, rem == half)
            };
            if above || (exact_half && sig & 1 == 1) {
                sig += 1;
            }
        }
        (sig, q)
    };
    let mut q = q;
    if sig >> p != 0 {
        sig >>= 1;
        q += 1;
    }
    if sig == 0 {
        return Rounded::Zero;
    }
    Rounded::Finite { sig: sig as u32, q }
}
