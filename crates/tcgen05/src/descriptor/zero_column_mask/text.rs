//! Text forms of a [`ColumnMask`]: parsing binary and hexadecimal strings, and `Display`,
//! `Debug` and `{:x}`.

use super::bitset::{ColumnMask, ColumnMaskError};
use core::fmt;

impl ColumnMask {
    /// Parses a binary string, most significant bit first as the PTX examples print masks
    /// (`"0b0000111"`): an optional `0b` prefix, then `0` and `1` digits; `_` and spaces are
    /// ignored. The width is the number of digits.
    ///
    /// # Errors
    /// [`ColumnMaskError::BadDigit`] for any other character, [`ColumnMaskError::NoDigits`]
    /// without digits, [`ColumnMaskError::WidthTooLarge`] beyond 256 digits.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::zero_column_mask::ColumnMask;
    /// let m = ColumnMask::parse_bits("0b111_0000").unwrap();
    /// assert_eq!((m.width(), m.bit(4), m.bit(3)), (7, true, false));
    /// ```
    pub const fn parse_bits(s: &str) -> Result<ColumnMask, ColumnMaskError> {
        let b = strip_0x(s.as_bytes(), b'b');
        let mut digits: u16 = 0;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'0' | b'1' => {
                    if digits >= Self::MAX_WIDTH {
                        return Err(ColumnMaskError::WidthTooLarge {
                            width: Self::MAX_WIDTH + 1,
                        });
                    }
                    digits += 1;
                }
                b'_' | b' ' => {}
                c => return Err(ColumnMaskError::BadDigit { byte: c }),
            }
            i += 1;
        }
        if digits == 0 {
            return Err(ColumnMaskError::NoDigits);
        }
        let mut m = ColumnMask::blank(digits);
        let mut col = digits;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'0' || b[i] == b'1' {
                col -= 1;
                if b[i] == b'1' {
                    m.set_range(col, col + 1);
                }
            }
            i += 1;
        }
        Ok(m)
    }

    /// Parses a hexadecimal string (optional `0x` prefix, `_` ignored) into a mask of `width`
    /// columns.
    ///
    /// # Errors
    /// [`ColumnMaskError::WidthTooLarge`] above 256, [`ColumnMaskError::BadDigit`] for a
    /// character that is not a hex digit, [`ColumnMaskError::NoDigits`] without digits,
    /// [`ColumnMaskError::BitBeyondWidth`] when the value needs more than `width` bits.
    pub const fn parse_hex(s: &str, width: u16) -> Result<ColumnMask, ColumnMaskError> {
        if width > Self::MAX_WIDTH {
            return Err(ColumnMaskError::WidthTooLarge { width });
        }
        let b = strip_0x(s.as_bytes(), b'x');
        let mut words = [0u64; 4];
        let mut any = false;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            i += 1;
            let nibble = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                b'_' => continue,
                _ => return Err(ColumnMaskError::BadDigit { byte: c }),
            };
            any = true;
            if words[3] >> 60 != 0 {
                return Err(ColumnMaskError::BitBeyondWidth {
                    bit: Self::MAX_WIDTH,
                    width,
                });
            }
            words[3] = (words[3] << 4) | (words[2] >> 60);
            words[2] = (words[2] << 4) | (words[1] >> 60);
            words[1] = (words[1] << 4) | (words[0] >> 60);
            words[0] = (words[0] << 4) | nibble as u64;
        }
        if !any {
            return Err(ColumnMaskError::NoDigits);
        }
        ColumnMask::from_words(words, width)
    }

    /// Writes the mask most significant bit first, exactly `width` characters of `0` and `1`
    /// (no prefix), without allocating.
    ///
    /// # Errors
    /// Those of the writer.
    pub fn write_bits(&self, f: &mut impl fmt::Write) -> fmt::Result {
        let mut col = self.width;
        while col > 0 {
            col -= 1;
            f.write_char(if self.bit(col) { '1' } else { '0' })?;
        }
        Ok(())
    }
}

const fn strip_0x(b: &[u8], letter: u8) -> &[u8] {
    if b.len() >= 2 && b[0] == b'0' && (b[1] == letter || b[1] == letter - 32) {
        b.split_at(2).1
    } else {
        b
    }
}

impl fmt::Display for ColumnMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_bits(f)
    }
}

impl fmt::Debug for ColumnMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ColumnMask<{}>(0b", self.width)?;
        self.write_bits(f)?;
        f.write_str(")")
    }
}

impl fmt::LowerHex for ColumnMask {
    /// `ceil(width / 4)` hexadecimal digits, most significant first; `{:#x}` adds `0x`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str("0x")?;
        }
        let mut nibble = self.width.div_ceil(4);
        if nibble == 0 {
            return f.write_str("0");
        }
        while nibble > 0 {
            nibble -= 1;
            let c = nibble * 4;
            let v = (self.words[(c >> 6) as usize] >> (c & 63)) & 0xf;
            write!(f, "{v:x}")?;
        }
        Ok(())
    }
}
