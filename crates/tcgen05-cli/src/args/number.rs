//! Numbers as users type them: `0x`-prefixed hexadecimal or decimal, with `_` separators.
//!
//! Anything else (a sign, another radix, a stray character, a value too wide for its descriptor) is
//! refused with a message that says why; the caller turns that into exit status 2.

use std::fmt;

/// Why a piece of text is not a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumError {
    /// Nothing (or only blanks) where a value was expected.
    Empty,
    /// `0x` with no digit after it, or only `_`.
    NoDigits,
    /// A character that is not a digit of the radix (the byte, and whether the radix was 16).
    BadDigit { byte: u8, hex: bool },
    /// The value needs more bits than the descriptor or flag holds.
    TooWide { bits: u32 },
    /// The input was longer than any number could be (the line was cut).
    TooLong,
}

impl fmt::Display for NumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NumError::Empty => f.write_str("empty value (expected a number such as 0x1f or 31)"),
            NumError::NoDigits => f.write_str("no digits (expected a number such as 0x1f or 31)"),
            NumError::BadDigit { byte, hex } => {
                let radix = if hex { "hexadecimal" } else { "decimal" };
                if byte.is_ascii_graphic() {
                    write!(f, "'{}' is not a {radix} digit", byte as char)?;
                } else {
                    write!(f, "byte {byte:#04x} is not a {radix} digit")?;
                }
                f.write_str(
                    " (numbers are 0x-prefixed hexadecimal or decimal, `_` may separate digits)",
                )
            }
            NumError::TooWide { bits } => write!(f, "the value does not fit in {bits} bits"),
            NumError::TooLong => f.write_str("the value is too long to be a number"),
        }
    }
}

/// Parses `text` (surrounding ASCII blanks allowed) as a number of at most `bits` bits.
///
/// Accepted: `0x`/`0X` followed by hexadecimal digits, or decimal digits; `_` anywhere after the
/// prefix. Never panics, whatever the bytes.
pub fn parse(text: &[u8], bits: u32) -> Result<u64, NumError> {
    let t = text.trim_ascii();
    if t.is_empty() {
        return Err(NumError::Empty);
    }
    let (digits, hex) = match t {
        [b'0', b'x' | b'X', rest @ ..] => (rest, true),
        _ => (t, false),
    };
    let radix: u64 = if hex { 16 } else { 10 };
    let mut value: u64 = 0;
    let mut seen = false;
    for &b in digits {
        let d = match b {
            b'_' => continue,
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' if hex => b - b'a' + 10,
            b'A'..=b'F' if hex => b - b'A' + 10,
            _ => return Err(NumError::BadDigit { byte: b, hex }),
        };
        seen = true;
        value = value
            .checked_mul(radix)
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or(NumError::TooWide { bits: 64 })?;
    }
    if !seen {
        return Err(NumError::NoDigits);
    }
    if bits < 64 && value >> bits != 0 {
        return Err(NumError::TooWide { bits });
    }
    Ok(value)
}

/// clap value parser: a number that fits in 64 bits.
pub fn arg_u64(s: &str) -> Result<u64, ArgError> {
    arg_num(s, 64, FLAG_SOURCE)
}

/// clap value parser: a number that fits in 32 bits (`--block`, `--trials`, `--warp`).
pub fn arg_u32(s: &str) -> Result<u32, ArgError> {
    arg_num(s, 32, FLAG_SOURCE).map(|v| v as u32)
}

/// Where the 64-bit limit of the command's numbers is written down.
pub const FLAG_SOURCE: &str = "README.md, Flags: one convention";

/// Why a number on the command line was refused. A number too big for its field is a rule
/// error (exit status 1, like every other value that breaks a rule); text that is not a number
/// is a usage error (exit status 2). `main` tells them apart by this type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// The number does not fit in `bits` bits; `source` is where that width is given.
    TooBig { bits: u32, source: &'static str },
    /// Anything else, as its message.
    Other(String),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::TooBig { bits, source } => {
                write!(f, "the value does not fit in {bits} bits ({source})")
            }
            ArgError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ArgError {}

impl From<ArgError> for String {
    fn from(e: ArgError) -> String {
        e.to_string()
    }
}

impl From<&str> for ArgError {
    fn from(m: &str) -> ArgError {
        ArgError::Other(m.to_string())
    }
}

impl From<String> for ArgError {
    fn from(m: String) -> ArgError {
        ArgError::Other(m)
    }
}

/// A number of at most `bits` bits, `source` naming where that width comes from.
pub fn arg_num(s: &str, bits: u32, source: &'static str) -> Result<u64, ArgError> {
    parse(s.as_bytes(), bits).map_err(|e| match e {
        // A value past 64 bits is too big for any field of `bits` bits.
        NumError::TooWide { .. } => ArgError::TooBig { bits, source },
        e => ArgError::Other(e.to_string()),
    })
}

/// An operand: a number, or what the flag accepts in place of one ([`Stdin`] for the `VALUE` of
/// the decoders, a [`Reg`]ister for the operands of `ptx`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand<T> {
    /// A number given on the command line.
    Value(u64),
    /// What was given instead of a number.
    Other(T),
}

/// `-` as a decoder's `VALUE`: one value per line of standard input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stdin;

/// A register name as a PTX operand: any text that does not start with a digit (checked as a
/// PTX identifier when the instruction is built).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reg(pub String);

/// How many bits an operand holds, and where that width is given: a wider number is a rule
/// error naming `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Width {
    /// The operand's width.
    pub bits: u32,
    /// Where the width is given.
    pub source: &'static str,
}

/// A shared memory descriptor.
pub const SMEM: Width = Width {
    bits: 64,
    source: "PTX ISA 9.7.16.4.1 Table 40: a shared memory descriptor is 64 bits",
};

/// An instruction descriptor.
pub const IDESC: Width = Width {
    bits: 32,
    source: "PTX ISA 9.7.16.4.2 Table 42: an instruction descriptor is 32 bits",
};

/// A zero-column mask descriptor.
pub const ZMASK: Width = Width {
    bits: 64,
    source: "PTX ISA 9.7.16.4.3 Table 45: a zero-column mask descriptor is 64 bits",
};

/// A decoder's `VALUE`: a number of `width`, or `-` for standard input.
pub fn value_or_stdin(s: &str, width: Width) -> Result<Operand<Stdin>, ArgError> {
    if s.trim_ascii() == "-" {
        return Ok(Operand::Other(Stdin));
    }
    arg_num(s, width.bits, width.source).map(Operand::Value)
}

/// A PTX operand: a number of `width` when the text starts with a digit, else a register.
pub fn value_or_reg(s: &str, width: Width) -> Result<Operand<Reg>, ArgError> {
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        arg_num(s, width.bits, width.source).map(Operand::Value)
    } else {
        Ok(Operand::Other(Reg(s.to_string())))
    }
}

/// clap value parser for the operand of `decode smem` (a 64-bit shared memory descriptor).
pub fn operand_smem(s: &str) -> Result<Operand<Stdin>, ArgError> {
    value_or_stdin(s, SMEM)
}

/// clap value parser for the operand of `decode zmask` (a 64-bit zero-column mask descriptor).
pub fn operand_zmask(s: &str) -> Result<Operand<Stdin>, ArgError> {
    value_or_stdin(s, ZMASK)
}

/// clap value parser for the operand of `decode idesc` (32-bit values).
pub fn operand32(s: &str) -> Result<Operand<Stdin>, ArgError> {
    value_or_stdin(s, IDESC)
}

/// `--num` of `tmem ld/st` and `ptx ld/st`: the repetition count, written `4`, `x4` or `.x4`
/// (any case). Whether it is one of .x1 .. .x128 is a rule, checked later (exit status 1).
pub fn parse_num(s: &str) -> Result<u64, ArgError> {
    let t = s.trim_ascii();
    let t = t.strip_prefix('.').unwrap_or(t);
    let t = t.strip_prefix(['x', 'X']).unwrap_or(t);
    arg_num(t, 64, FLAG_SOURCE).map_err(|e| match e {
        ArgError::TooBig { .. } => e,
        e => ArgError::Other(format!("'{s}' is not a .num ({e}); write 4, x4 or .x4")),
    })
}

/// A comma-separated list of at most four numbers (`--first-span 1,1,0,0`); missing items are 0.
pub fn arg_list4(s: &str) -> Result<[u64; 4], ArgError> {
    let mut out = [0u64; 4];
    let t = s.trim_ascii();
    if t.is_empty() {
        return Err(
            "empty list (expected up to four comma-separated numbers, such as 1,0,2,0)".into(),
        );
    }
    for (n, item) in t.split(',').enumerate() {
        let slot = out.get_mut(n).ok_or_else(|| {
            "more than four items (one per sub-mask: mask0,mask1,mask2,mask3)".to_string()
        })?;
        *slot = arg_num(item, 64, FLAG_SOURCE).map_err(|e| match e {
            ArgError::TooBig { .. } => e,
            e => ArgError::Other(format!("item {n}: {e}")),
        })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_hex_decimal_and_separators() {
        assert_eq!(parse(b"0x1f", 64), Ok(31));
        assert_eq!(parse(b"0X1F", 64), Ok(31));
        assert_eq!(parse(b"31", 64), Ok(31));
        assert_eq!(
            parse(b"  0x4000_4040_0001_0040\r", 64),
            Ok(0x4000_4040_0001_0040)
        );
        assert_eq!(parse(b"1_000", 64), Ok(1000));
        assert_eq!(parse(b"0xffffffffffffffff", 64), Ok(u64::MAX));
        assert_eq!(parse(b"18446744073709551615", 64), Ok(u64::MAX));
        assert_eq!(parse(b"0xffffffff", 32), Ok(0xffff_ffff));
    }

    #[test]
    fn refuses_everything_else() {
        assert_eq!(parse(b"", 64), Err(NumError::Empty));
        assert_eq!(parse(b" \t", 64), Err(NumError::Empty));
        assert_eq!(parse(b"0x", 64), Err(NumError::NoDigits));
        assert_eq!(parse(b"0x__", 64), Err(NumError::NoDigits));
        assert_eq!(
            parse(b"-1", 64),
            Err(NumError::BadDigit {
                byte: b'-',
                hex: false
            })
        );
        assert_eq!(
            parse(b"0b101", 64),
            Err(NumError::BadDigit {
                byte: b'b',
                hex: false
            })
        );
        assert_eq!(
            parse(b"1f", 64),
            Err(NumError::BadDigit {
                byte: b'f',
                hex: false
            })
        );
        assert_eq!(
            parse(b"0xg", 64),
            Err(NumError::BadDigit {
                byte: b'g',
                hex: true
            })
        );
        assert_eq!(
            parse(b"0x1 2", 64),
            Err(NumError::BadDigit {
                byte: b' ',
                hex: true
            })
        );
        assert_eq!(
            parse(&[0xff, 0xfe], 64),
            Err(NumError::BadDigit {
                byte: 0xff,
                hex: false
            })
        );
        assert_eq!(
            parse(b"0x1_0000_0000_0000_0000", 64),
            Err(NumError::TooWide { bits: 64 })
        );
        assert_eq!(
            parse(b"18446744073709551616", 64),
            Err(NumError::TooWide { bits: 64 })
        );
        assert_eq!(
            parse(b"0x1_0000_0000", 32),
            Err(NumError::TooWide { bits: 32 })
        );
    }

    #[test]
    fn lists() {
        assert_eq!(arg_list4("1,1,0,0"), Ok([1, 1, 0, 0]));
        assert_eq!(arg_list4("0x3"), Ok([3, 0, 0, 0]));
        assert!(arg_list4("1,2,3,4,5").is_err());
        assert!(arg_list4("1,,2").is_err());
        assert!(arg_list4("").is_err());
    }

    #[test]
    fn operands_share_the_widths_of_the_descriptors() {
        assert_eq!(operand32("0x08100490"), Ok(Operand::Value(0x0810_0490)));
        assert_eq!(operand_smem(" - "), Ok(Operand::Other(Stdin)));
        assert_eq!(
            operand32("0x1_0000_0000"),
            Err(ArgError::TooBig {
                bits: 32,
                source: IDESC.source
            })
        );
        assert_eq!(
            value_or_reg("0x1_0000_0000", IDESC),
            Err(ArgError::TooBig {
                bits: 32,
                source: IDESC.source
            })
        );
        assert_eq!(
            value_or_reg("%r1", IDESC),
            Ok(Operand::Other(Reg("%r1".to_string())))
        );
        // `-` is a register name to a PTX operand, standard input to a decoder.
        assert_eq!(value_or_reg("-", SMEM), Ok(Operand::Other(Reg("-".into()))));
        assert!(matches!(
            value_or_stdin("0x1g", ZMASK),
            Err(ArgError::Other(_))
        ));
    }
}
