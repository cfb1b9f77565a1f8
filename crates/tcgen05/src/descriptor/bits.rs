//! Bit-layout tables: each descriptor's fields written once, with their bit ranges and sources.
//!
//! A descriptor module declares its layout with the `bit_layout!` macro, one line per field, its
//! bit range beside it, as the PTX table prints it, and what its value means ([`Meaning`]). The
//! resulting `const` table drives encoding, decoding, validation of fixed and reserved bits, the
//! one generic reading of a raw word ([`Word`], [`RowValue`]) with its `Display` table, the
//! command-line tool's output and the rustdoc table on the constant itself. A compile-time check
//! proves that the fields of each table do not overlap and cover every bit.

use core::fmt;

use crate::bytes::bytes_eq;
use crate::diagnostic::Source;

/// What a run of bits holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A field whose value the caller chooses.
    Value,
    /// Bits that must hold this constant (for example 0b001 at bits 46-48 of the shared memory
    /// descriptor).
    Fixed(u64),
    /// Bits that must be zero.
    Reserved,
}

/// Whether a byte field ([`Meaning::Bytes`]) holds an address or an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Addressing {
    /// Always a byte offset (shown as `1024 bytes`).
    Offset,
    /// Always a byte address (shown as `byte address 0x400`).
    Address,
    /// An offset, or an address while the word's bit `n` is set (the leading dimension byte
    /// offset under its stride mode bit 52, PTX ISA Table 40).
    AddressWhenBit(u8),
}

/// One defined code of a coded field ([`Meaning::Code`]): its number, short name and the PTX
/// table's words for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CodeName {
    /// The code.
    pub code: u8,
    /// The short name the command-line tool and the JSON output use, for example `"128B"`.
    pub name: &'static str,
    /// The PTX table's words, for example `"128-Byte swizzling"`.
    pub words: &'static str,
}

/// What the value of a [`Role::Value`] row means. Fixed and reserved rows are read from their
/// [`Role`]; their meaning is [`Meaning::NUMBER`].
///
/// A `text` is the wording of the value in the bit table, with `{}` standing for the value (or,
/// for a flag, its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    /// A number as stored.
    Number {
        /// Wording, `{}` for the number.
        text: &'static str,
    },
    /// A number that means something only while some bit of `needs` is set in the word; a
    /// non-zero value while they are all zero gets `note` after it (the matrix base offset
    /// without swizzling, rules.md R4).
    Gated {
        /// Bits of the word, in place, that give the value its meaning.
        needs: u64,
        /// Appended to a non-zero value that has no meaning.
        note: &'static str,
    },
    /// A count stored as the count minus `plus` (the spans of Table 45, rules.md R19): the
    /// value is the stored number, the wording shows the count.
    Count {
        /// What the stored number is less than the count.
        plus: u8,
        /// Wording, `{}` for the count.
        text: &'static str,
    },
    /// Bytes stored in units of `1 << shift` (Table 40's `matrix-descriptor-encode`,
    /// rules.md R3): the value is in bytes.
    Bytes {
        /// Bits dropped by the encoding.
        shift: u8,
        /// Address or offset.
        addressing: Addressing,
    },
    /// A single bit read as a boolean.
    Flag {
        /// Names of 0 and 1.
        names: [&'static str; 2],
        /// Wording, `{}` for the name.
        text: &'static str,
    },
    /// A code of an enumeration; codes not listed are invalid.
    Code(&'static [CodeName]),
    /// A number stored without its `shift` low bits (M >> 4 and N >> 3 of PTX ISA Tables
    /// 42-44): the value is the number itself.
    Scaled {
        /// Low bits the field leaves out.
        shift: u8,
        /// Wording, `{}` for the number.
        text: &'static str,
    },
    /// A code of an enumeration whose names depend on a scope outside the word (the type codes of
    /// PTX ISA Tables 42-44 name different types under each MMA kind): one table of names per
    /// scope; codes not listed are invalid.
    Named {
        /// The codes the scope defines.
        names: &'static [CodeName],
        /// Wording of a defined code, `{}` for its name.
        text: &'static str,
        /// Wording of an undefined code, `{}` for the code, followed by `scope`.
        invalid: &'static str,
        /// The scope the names belong to, as the wording of an undefined code ends.
        scope: &'static str,
    },
    /// A code that stands for a number (the maximum shift of PTX ISA Table 42: code 1 is 8 rows):
    /// the value is `numbers[code]`; a code past the list is invalid.
    Numbered {
        /// The number of each code, in code order.
        numbers: &'static [u64],
        /// Wording of the number 0.
        zero: &'static str,
        /// Wording of any other number, `{}` for it.
        text: &'static str,
    },
    /// A single bit that, with bit `with` of the word, picks a number (the K bit of PTX ISA
    /// Table 44 with the sparsity bit): the value is `numbers[bit][bit with]`. `with` may be the
    /// bit itself (K from the sparsity bit alone, Tables 42-43).
    Picked {
        /// The other bit of the word.
        with: u8,
        /// The number for each value of this bit, then of bit `with`.
        numbers: [[u64; 2]; 2],
        /// Wording of each value of this bit.
        names: [&'static str; 2],
    },
    /// A single bit read as true or false (the switches of PTX ISA Tables 42-44, written `true`
    /// and `false` in JSON where a [`Meaning::Flag`] is written 0 or 1).
    Switch {
        /// Names of 0 and 1.
        names: [&'static str; 2],
    },
    /// A value a layout implies without storing it (the f32 accumulator of the block-scaled
    /// kinds, whose Tables 43-44 have no dtype field): only a [`Listed`] entry has it, never a
    /// row of a layout, and its bits are not read.
    Implied(RowValue),
}

impl Meaning {
    /// A plain number, shown as it is.
    pub const NUMBER: Meaning = Meaning::Number { text: "{}" };
}

/// A row's value in one word, as [`Meaning`] reads it: what the JSON output and the typed
/// getters give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowValue {
    /// A number as stored ([`Meaning::Number`], [`Meaning::Gated`], [`Meaning::Count`]).
    Number(u64),
    /// A byte value, already multiplied out ([`Meaning::Bytes`]).
    Bytes(u64),
    /// A flag ([`Meaning::Flag`]).
    Flag(bool),
    /// A defined code ([`Meaning::Code`]).
    Name(&'static CodeName),
    /// A code the enumeration does not define ([`Meaning::Code`], [`Meaning::Named`],
    /// [`Meaning::Numbered`]).
    InvalidCode(u64),
    /// A switch ([`Meaning::Switch`]).
    Bool(bool),
}

impl RowValue {
    /// True for the number 0, a false flag or switch: the values a batch line leaves out
    /// ([`Show::UnlessZero`]).
    #[must_use]
    pub const fn is_zero(self) -> bool {
        matches!(
            self,
            RowValue::Number(0)
                | RowValue::Bytes(0)
                | RowValue::Flag(false)
                | RowValue::Bool(false)
        )
    }
}

/// The names a descriptor's field enum gives its rows.
pub trait LayoutField: Copy + 'static {
    /// The row's own snake_case name, as the bit tables print it (`"start_address"`,
    /// `"start_count_2"`).
    fn name(self) -> &'static str;
    /// The key of the value in JSON output. Consecutive value rows with the same key form one
    /// array (the four start counts of Table 45 are `"start_count": [..]`).
    fn key(self) -> &'static str {
        self.name()
    }
}

/// One row of a descriptor's bit layout.
///
/// `F` is the descriptor's field enum; reserved rows name a field of their own so that errors can
/// point at them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitField<F: Copy> {
    /// The field these bits hold.
    pub field: F,
    /// Lowest bit.
    pub lo: u8,
    /// Number of bits.
    pub width: u8,
    /// Value, fixed constant or reserved.
    pub role: Role,
    /// The row's wording in the PTX table.
    pub title: &'static str,
    /// The table or ruling that defines the row.
    pub source: Source,
    /// What a value row's bits mean.
    pub meaning: Meaning,
}

impl<F: Copy> BitField<F> {
    /// Highest bit (inclusive).
    #[must_use]
    pub const fn hi(&self) -> u8 {
        self.lo + self.width - 1
    }

    /// The largest value the field can hold.
    #[must_use]
    pub const fn max(&self) -> u64 {
        if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }

    /// The field's bits in place.
    #[must_use]
    pub const fn mask(&self) -> u64 {
        self.max() << self.lo
    }

    /// Reads the field from a raw value.
    #[must_use]
    pub const fn get(&self, raw: u64) -> u64 {
        (raw >> self.lo) & self.max()
    }

    /// True when `value` fits in the field's width.
    #[must_use]
    pub const fn fits(&self, value: u64) -> bool {
        value <= self.max()
    }

    /// Writes `value` into the field, keeping the other bits.
    ///
    /// Bits of `value` above the field's width are dropped: callers check [`BitField::fits`]
    /// first (every public encoder of this crate does).
    #[must_use]
    pub const fn set(&self, raw: u64, value: u64) -> u64 {
        (raw & !self.mask()) | ((value & self.max()) << self.lo)
    }

    /// The row's value in `raw` as its [`Meaning`] reads it; `None` for fixed and reserved rows.
    #[must_use]
    #[inline]
    pub const fn value(&self, raw: u64) -> Option<RowValue> {
        if !matches!(self.role, Role::Value) {
            return None;
        }
        let v = self.get(raw);
        Some(match self.meaning {
            Meaning::Number { .. } | Meaning::Gated { .. } | Meaning::Count { .. } => {
                RowValue::Number(v)
            }
            Meaning::Bytes { shift, .. } => {
                RowValue::Bytes(if shift >= 64 { 0 } else { v << shift })
            }
            Meaning::Scaled { shift, .. } => {
                RowValue::Number(if shift >= 64 { 0 } else { v << shift })
            }
            Meaning::Flag { .. } => RowValue::Flag(v != 0),
            Meaning::Switch { .. } => RowValue::Bool(v != 0),
            Meaning::Code(names) | Meaning::Named { names, .. } => match code_name(names, v) {
                Some(c) => RowValue::Name(c),
                None => RowValue::InvalidCode(v),
            },
            Meaning::Numbered { numbers, .. } => {
                if v < numbers.len() as u64 {
                    RowValue::Number(numbers[v as usize])
                } else {
                    RowValue::InvalidCode(v)
                }
            }
            Meaning::Picked { with, numbers, .. } => {
                let other = if with < 64 { (raw >> with) & 1 } else { 0 };
                RowValue::Number(numbers[(v & 1) as usize][other as usize])
            }
            Meaning::Implied(value) => value,
        })
    }

    /// The bits that hold `value` in this row, before [`BitField::set`] places them: bytes
    /// divided by the unit, a flag as 0 or 1, a name as its code. Not checked: callers validate
    /// first (a byte value that is not a multiple of the unit loses its low bits).
    #[must_use]
    pub const fn bits_of(&self, value: RowValue) -> u64 {
        match value {
            RowValue::Number(n) => match self.meaning {
                Meaning::Scaled { shift, .. } if shift < 64 => n >> shift,
                Meaning::Numbered { numbers, .. } => {
                    let mut code = 0;
                    while code < numbers.len() && numbers[code] != n {
                        code += 1;
                    }
                    code as u64
                }
                Meaning::Picked { numbers, .. } => {
                    (numbers[1][0] == n || numbers[1][1] == n) as u64
                }
                _ => n,
            },
            RowValue::InvalidCode(n) => n,
            RowValue::Bytes(b) => match self.meaning {
                Meaning::Bytes { shift, .. } if shift < 64 => b >> shift,
                _ => b,
            },
            RowValue::Flag(b) | RowValue::Bool(b) => b as u64,
            RowValue::Name(c) => c.code as u64,
        }
    }
}

/// The entry of `names` for `code`, if the enumeration defines it.
const fn code_name(names: &'static [CodeName], code: u64) -> Option<&'static CodeName> {
    let mut i = 0;
    while i < names.len() {
        if names[i].code as u64 == code {
            return Some(&names[i]);
        }
        i += 1;
    }
    None
}

/// True when a row's [`Meaning`] fits its bits: a flag, switch or picking bit is one bit wide,
/// bytes and scaled numbers do not shift out of 64 bits, every code of an enumeration fits the
/// field, every code of the field has its number, and no layout row is implied.
const fn meaning_fits<F: Copy>(row: &BitField<F>) -> bool {
    match row.meaning {
        Meaning::Flag { .. } | Meaning::Switch { .. } => row.width == 1,
        Meaning::Picked { with, .. } => row.width == 1 && with < 64,
        Meaning::Bytes { shift, .. } | Meaning::Scaled { shift, .. } => {
            shift as u32 + row.width as u32 <= 64
        }
        Meaning::Code(names) | Meaning::Named { names, .. } => {
            let mut i = 0;
            while i < names.len() {
                if !row.fits(names[i].code as u64) {
                    return false;
                }
                i += 1;
            }
            true
        }
        Meaning::Numbered { numbers, .. } => {
            row.width < 64 && numbers.len() as u64 == row.max() + 1
        }
        Meaning::Implied(_) => false,
        Meaning::Number { .. } | Meaning::Gated { .. } | Meaning::Count { .. } => true,
    }
}

/// True when the keys of `list` are distinct and every entry reads bits inside `0..total_bits`
/// through a meaning that fits them ([`covers_exactly`]'s rules for one row), or is implied: the
/// compile-time check of a [`Listed`] value list.
#[must_use]
pub const fn lists_within<F: Copy>(list: &[Listed<F>], total_bits: u32) -> bool {
    let mut i = 0;
    while i < list.len() {
        let mut j = i + 1;
        while j < list.len() {
            if bytes_eq(list[i].key.as_bytes(), list[j].key.as_bytes()) {
                return false;
            }
            j += 1;
        }
        let row = &list[i].row;
        let implied = matches!(row.meaning, Meaning::Implied(_));
        if !matches!(row.role, Role::Value)
            || row.width == 0
            || row.lo as u32 + row.width as u32 > total_bits
            || !(implied || meaning_fits(row))
        {
            return false;
        }
        i += 1;
    }
    true
}

/// True when the rows of `table` do not overlap and together cover bits `0..total_bits` exactly,
/// and each row's fixed value and [`Meaning`] fit its bits.
///
/// Every layout of this crate is checked with this at compile time.
#[must_use]
pub const fn covers_exactly<F: Copy>(table: &[BitField<F>], total_bits: u32) -> bool {
    let mut seen: u64 = 0;
    let mut i = 0;
    while i < table.len() {
        let row = &table[i];
        if row.width == 0 || row.lo as u32 + row.width as u32 > total_bits {
            return false;
        }
        if seen & row.mask() != 0 {
            return false;
        }
        if let Role::Fixed(v) = row.role {
            if !row.fits(v) {
                return false;
            }
        }
        if !meaning_fits(row) {
            return false;
        }
        seen |= row.mask();
        i += 1;
    }
    let all = if total_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << total_bits) - 1
    };
    seen == all
}

/// A raw word read through its layout: the one decoded result that every descriptor's bit
/// table, `Display`, JSON output and doc table are made from.
///
/// `Display` writes the bit table: a heading line, then per row its bit range, name, raw bits
/// (binary up to 8 bits wide, hexadecimal above) and [`RowReading`]'s meaning.
///
/// # Examples
/// ```
/// use tcgen05::bits::Word;
/// use tcgen05::shared_memory_descriptor::SMEM_LAYOUT;
///
/// let w = Word::new(SMEM_LAYOUT, 0x4000_4040_0001_0040);
/// let meanings: Vec<String> = w.rows().map(|r| r.to_string()).collect();
/// assert_eq!(meanings[0], "byte address 0x400");
/// assert_eq!(meanings[9], "128B: 128-Byte swizzling");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word<F: Copy + 'static> {
    /// The layout the word is read through.
    pub layout: &'static [BitField<F>],
    /// The word.
    pub raw: u64,
}

impl<F: Copy + 'static> Word<F> {
    /// `raw` read through `layout`.
    #[must_use]
    pub const fn new(layout: &'static [BitField<F>], raw: u64) -> Word<F> {
        Word { layout, raw }
    }

    /// Every row of the layout, in table order, read from the word.
    pub fn rows(self) -> impl Iterator<Item = RowReading<F>> {
        self.layout.iter().map(move |row| RowReading {
            row,
            word: self.raw,
        })
    }
}

/// When a batch line writes an entry of a [`Listed`] value list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Show {
    /// Always, as `key=value`.
    Always,
    /// Only when the value is not zero ([`RowValue::is_zero`]); a switch or flag that is set is
    /// written as its key alone.
    UnlessZero,
}

/// One entry of a value list: a descriptor's values in the order and under the keys an output
/// gives them, where that order is not the bit order of the layout (the instruction
/// descriptor's JSON `"fields"` and batch lines, PTX ISA Tables 42-44). The entry reads a row
/// of the layout, or a row of its own (K from the sparsity bit, a value the layout implies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listed<F: Copy + 'static> {
    /// The key the output writes (JSON keys are the row's [`LayoutField::key`]).
    pub key: &'static str,
    /// The bits read and their meaning.
    pub row: BitField<F>,
    /// When a batch line writes the entry.
    pub show: Show,
}

impl<F: Copy + 'static> Listed<F> {
    /// The entry's value in `raw`; every entry of a list is a value row (checked by
    /// [`lists_within`]), so the 0 of a fixed or reserved row never shows.
    #[must_use]
    #[inline]
    pub const fn value(&self, raw: u64) -> RowValue {
        match self.row.value(raw) {
            Some(v) => v,
            None => RowValue::Number(0),
        }
    }
}

/// One row of a [`Word`]: the row, the whole word it is read from (a row's meaning may depend on
/// other bits, as the leading dimension byte offset does on its mode bit), its raw bits and its
/// value. `Display` writes the meaning in words, the last column of the bit table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowReading<F: Copy + 'static> {
    /// The layout row.
    pub row: &'static BitField<F>,
    /// The whole word.
    pub word: u64,
}

impl<F: Copy + 'static> RowReading<F> {
    /// The row's bits, shifted down to bit 0.
    #[must_use]
    pub const fn bits(&self) -> u64 {
        self.row.get(self.word)
    }

    /// The row's value ([`BitField::value`]); `None` for fixed and reserved rows.
    #[must_use]
    pub const fn value(&self) -> Option<RowValue> {
        self.row.value(self.word)
    }

    /// True when a byte value is an address rather than an offset in this word.
    #[must_use]
    pub const fn is_address(&self) -> bool {
        match self.row.meaning {
            Meaning::Bytes { addressing, .. } => match addressing {
                Addressing::Offset => false,
                Addressing::Address => true,
                Addressing::AddressWhenBit(n) => n < 64 && (self.word >> n) & 1 == 1,
            },
            _ => false,
        }
    }
}

/// Writes `text` with each `{}` replaced by `arg`.
fn fill(f: &mut fmt::Formatter<'_>, text: &str, arg: impl fmt::Display) -> fmt::Result {
    let mut parts = text.split("{}");
    if let Some(first) = parts.next() {
        f.write_str(first)?;
    }
    for part in parts {
        write!(f, "{arg}")?;
        f.write_str(part)?;
    }
    Ok(())
}

/// Writes the codes of a field of `width` bits that `names` leaves undefined: `3, 5 and 7 are
/// invalid`.
fn write_invalid_codes(
    f: &mut fmt::Formatter<'_>,
    names: &'static [CodeName],
    max: u64,
) -> fmt::Result {
    let undefined = || (0..=max.min(255)).filter(|c| code_name(names, *c).is_none());
    let count = undefined().count();
    for (i, c) in undefined().enumerate() {
        if i > 0 {
            f.write_str(if i + 1 == count { " and " } else { ", " })?;
        }
        write!(f, "{c}")?;
    }
    f.write_str(if count == 1 {
        " is invalid"
    } else {
        " are invalid"
    })
}

impl<F: Copy + 'static> fmt::Display for RowReading<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = self.row;
        let v = self.bits();
        match row.role {
            Role::Reserved => {
                return f.write_str(if v == 0 {
                    "reserved, 0"
                } else {
                    "reserved: SET, must be 0"
                })
            }
            Role::Fixed(want) => {
                let w = row.width as usize + 2;
                return if v == want {
                    write!(f, "fixed {want:#0w$b}")
                } else {
                    write!(f, "WRONG: must be the fixed {want:#0w$b}")
                };
            }
            Role::Value => {}
        }
        match row.meaning {
            Meaning::Number { text } => fill(f, text, v),
            Meaning::Gated { needs, note } => {
                write!(f, "{v}")?;
                if v != 0 && self.word & needs == 0 {
                    f.write_str(note)?;
                }
                Ok(())
            }
            Meaning::Count { plus, text } => fill(f, text, v.saturating_add(plus as u64)),
            Meaning::Bytes { .. } => {
                let bytes = match self.value() {
                    Some(RowValue::Bytes(b)) => b,
                    _ => v,
                };
                if self.is_address() {
                    write!(f, "byte address {bytes:#x}")
                } else {
                    write!(f, "{bytes} bytes")
                }
            }
            Meaning::Flag { names, text } => fill(f, text, names[(v & 1) as usize]),
            Meaning::Switch { names } | Meaning::Picked { names, .. } => {
                f.write_str(names[(v & 1) as usize])
            }
            Meaning::Scaled { text, .. } => match self.value() {
                Some(RowValue::Number(n)) => fill(f, text, n),
                _ => fill(f, text, v),
            },
            Meaning::Named {
                names,
                text,
                invalid,
                scope,
            } => match code_name(names, v) {
                Some(c) => fill(f, text, c.name),
                None => {
                    fill(f, invalid, v)?;
                    f.write_str(scope)
                }
            },
            Meaning::Numbered { zero, text, .. } => match self.value() {
                Some(RowValue::Number(0)) => f.write_str(zero),
                Some(RowValue::Number(n)) => fill(f, text, n),
                _ => write!(f, "invalid code {v}"),
            },
            Meaning::Implied(value) => match value {
                RowValue::Number(n) | RowValue::Bytes(n) | RowValue::InvalidCode(n) => {
                    write!(f, "{n}")
                }
                RowValue::Flag(b) | RowValue::Bool(b) => write!(f, "{b}"),
                RowValue::Name(c) => f.write_str(c.name),
            },
            Meaning::Code(names) => match code_name(names, v) {
                Some(c) => write!(f, "{}: {}", c.name, c.words),
                None => {
                    write!(f, "invalid code {v} (")?;
                    write_invalid_codes(f, names, row.max())?;
                    f.write_str(")")
                }
            },
        }
    }
}

/// Digits of `n` in decimal.
const fn decimal_len(n: u8) -> usize {
    if n >= 100 {
        3
    } else if n >= 10 {
        2
    } else {
        1
    }
}

/// Length of a row's bit-range cell: `17-22`, or `2` for one bit.
const fn bits_cell_len<F: Copy>(row: &BitField<F>) -> usize {
    if row.width == 1 {
        decimal_len(row.lo)
    } else {
        decimal_len(row.lo) + 1 + decimal_len(row.hi())
    }
}

/// Length of a row's raw-bits cell: the width in binary up to 8 bits, `0x` and hex digits above.
const fn raw_cell_len<F: Copy>(row: &BitField<F>) -> usize {
    if row.width <= 8 {
        row.width as usize
    } else {
        (row.width as usize).div_ceil(4) + 2
    }
}

/// Writes `n` spaces.
fn spaces(f: &mut fmt::Formatter<'_>, n: usize) -> fmt::Result {
    for _ in 0..n {
        f.write_str(" ")?;
    }
    Ok(())
}

impl<F: LayoutField> fmt::Display for Word<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.layout.iter();
        let wb = rows.clone().map(bits_cell_len).max().unwrap_or(0).max(4);
        let wf = rows
            .clone()
            .map(|r| r.field.name().len())
            .max()
            .unwrap_or(0)
            .max(5);
        let wr = rows.map(raw_cell_len).max().unwrap_or(0).max(3);
        writeln!(
            f,
            "  {:<wb$}  {:<wf$}  {:<wr$}  meaning",
            "bits", "field", "raw"
        )?;
        for r in self.rows() {
            let row = r.row;
            f.write_str("  ")?;
            if row.width == 1 {
                write!(f, "{}", row.lo)?;
            } else {
                write!(f, "{}-{}", row.lo, row.hi())?;
            }
            spaces(f, wb - bits_cell_len(row) + 2)?;
            write!(f, "{:<wf$}  ", row.field.name())?;
            let v = r.bits();
            if row.width <= 8 {
                write!(f, "{v:0w$b}", w = row.width as usize)?;
            } else {
                write!(f, "{v:#0w$x}", w = raw_cell_len(row))?;
            }
            spaces(f, wr - raw_cell_len(row) + 2)?;
            writeln!(f, "{r}")?;
        }
        Ok(())
    }
}

/// Text for a source tag in a layout table: `Table 40` or `R2`.
#[doc(hidden)]
#[macro_export]
macro_rules! __source_doc {
    (Table $n:literal) => {
        concat!("PTX Table ", stringify!($n))
    };
    (R $n:literal) => {
        concat!("rules.md R", stringify!($n))
    };
}

/// The [`Source`] value for a source tag in a layout table.
#[doc(hidden)]
#[macro_export]
macro_rules! __source {
    (Table $n:literal) => {
        $crate::diagnostic::Source::PtxTable($n)
    };
    (R $n:literal) => {
        $crate::diagnostic::Source::Decision($n)
    };
}

/// The [`Role`] value for a role tag in a layout table.
#[doc(hidden)]
#[macro_export]
macro_rules! __role {
    (value) => {
        $crate::bits::Role::Value
    };
    (reserved) => {
        $crate::bits::Role::Reserved
    };
    (fixed = $v:literal) => {
        $crate::bits::Role::Fixed($v)
    };
}

/// The [`Meaning`] of a layout row: the named constant, or [`Meaning::NUMBER`].
#[doc(hidden)]
#[macro_export]
macro_rules! __meaning {
    () => {
        $crate::bits::Meaning::NUMBER
    };
    ($m:ident) => {
        $m
    };
}

/// The meaning column of a layout table's rustdoc: a link to the named constant, or empty.
#[doc(hidden)]
#[macro_export]
macro_rules! __meaning_doc {
    () => {
        ""
    };
    ($m:ident) => {
        concat!("[`", stringify!($m), "`]")
    };
}

/// Text for a role tag in a layout table.
#[doc(hidden)]
#[macro_export]
macro_rules! __role_doc {
    (value) => {
        ""
    };
    (reserved) => {
        " (reserved: 0)"
    };
    (fixed = $v:literal) => {
        concat!(" (fixed: ", stringify!($v), ")")
    };
}

/// Declares a descriptor's bit layout as a `const` table of [`BitField`] rows, with a rustdoc
/// table generated from the same lines and a compile-time proof that the rows tile the word.
///
/// A value row may name, after a colon, the `const` [`Meaning`] of its value; without one it is
/// a plain number ([`Meaning::NUMBER`]).
///
/// ```text
/// bit_layout! {
///     /// Doc for the table.
///     pub const SMEM_LAYOUT: [BitField<SmemField>; 64 bits] = {
///         0 ..= 13  StartAddress       value: START   "Matrix start address"  (Table 40);
///         14 ..= 15 Reserved14         reserved       "Unnamed"               (R 2);
///         46 ..= 48 Fixed46            fixed = 0b001  "Fixed constant"        (Table 40);
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! bit_layout {
    (
        $(#[$meta:meta])*
        $vis:vis const $NAME:ident : [BitField<$F:ident>; $bits:literal bits] = {
            $( $lo:literal ..= $hi:literal $Var:ident $role:ident $(= $fixed:literal)? $(: $meaning:ident)? $title:literal ($sk:ident $sn:literal); )+
        }
    ) => {
        $(#[$meta])*
        ///
        /// | Bits | Field | PTX wording | Meaning | Source |
        /// |---|---|---|---|---|
        $(
            #[doc = concat!(
                "| ", stringify!($lo), "-", stringify!($hi), " | `", stringify!($Var), "`",
                $crate::__role_doc!($role $(= $fixed)?), " | ", $title, " | ",
                $crate::__meaning_doc!($($meaning)?), " | ", $crate::__source_doc!($sk $sn), " |"
            )]
        )+
        $vis const $NAME: &[$crate::bits::BitField<$F>] = &[
            $(
                $crate::bits::BitField {
                    field: $F::$Var,
                    lo: $lo,
                    width: $hi - $lo + 1,
                    role: $crate::__role!($role $(= $fixed)?),
                    title: $title,
                    source: $crate::__source!($sk $sn),
                    meaning: $crate::__meaning!($($meaning)?),
                },
            )+
        ];
        const _: () = assert!(
            $crate::bits::covers_exactly($NAME, $bits),
            concat!(stringify!($NAME), ": rows overlap, leave gaps, or hold a fixed value or meaning too wide")
        );
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum T {
        A,
        B,
    }

    const fn row(lo: u8, width: u8, role: Role) -> BitField<T> {
        BitField {
            field: T::A,
            lo,
            width,
            role,
            title: "",
            source: Source::Decision(1),
            meaning: Meaning::NUMBER,
        }
    }

    #[test]
    fn coverage_detects_gaps_overlaps_and_wide_constants() {
        assert!(covers_exactly(
            &[row(0, 4, Role::Value), row(4, 4, Role::Reserved)],
            8
        ));
        assert!(!covers_exactly(&[row(0, 4, Role::Value)], 8), "gap");
        assert!(
            !covers_exactly(&[row(0, 5, Role::Value), row(4, 4, Role::Value)], 8),
            "overlap"
        );
        assert!(
            !covers_exactly(&[row(0, 4, Role::Value), row(4, 5, Role::Value)], 8),
            "past the end"
        );
        assert!(
            !covers_exactly(&[row(0, 4, Role::Fixed(16)), row(4, 4, Role::Value)], 8),
            "fixed value wider than its field"
        );
    }

    #[test]
    fn coverage_checks_meanings_against_widths() {
        const CODES: [CodeName; 2] = [
            CodeName {
                code: 0,
                name: "a",
                words: "A",
            },
            CodeName {
                code: 4,
                name: "b",
                words: "B",
            },
        ];
        let with = |width, meaning| BitField {
            meaning,
            ..row(0, width, Role::Value)
        };
        let flag = Meaning::Flag {
            names: ["no", "yes"],
            text: "{}",
        };
        assert!(covers_exactly(&[with(1, flag)], 1));
        assert!(!covers_exactly(&[with(2, flag)], 2), "a flag is one bit");
        assert!(covers_exactly(&[with(3, Meaning::Code(&CODES))], 3));
        assert!(
            !covers_exactly(&[with(2, Meaning::Code(&CODES))], 2),
            "code 4 needs 3 bits"
        );
        let bytes = Meaning::Bytes {
            shift: 60,
            addressing: Addressing::Offset,
        };
        assert!(!covers_exactly(&[with(8, bytes)], 8), "bytes past bit 63");
    }

    #[test]
    fn readings_of_each_meaning() {
        use std::string::ToString;
        static CODES: [CodeName; 2] = [
            CodeName {
                code: 0,
                name: "a",
                words: "A",
            },
            CodeName {
                code: 2,
                name: "b",
                words: "B",
            },
        ];
        static ROWS: [BitField<T>; 4] = [
            BitField {
                field: T::A,
                lo: 0,
                width: 2,
                role: Role::Value,
                title: "",
                source: Source::Decision(1),
                meaning: Meaning::Code(&CODES),
            },
            BitField {
                field: T::B,
                lo: 2,
                width: 4,
                role: Role::Value,
                title: "",
                source: Source::Decision(1),
                meaning: Meaning::Count {
                    plus: 1,
                    text: "{} long, {} again",
                },
            },
            BitField {
                field: T::A,
                lo: 6,
                width: 1,
                role: Role::Reserved,
                title: "",
                source: Source::Decision(1),
                meaning: Meaning::NUMBER,
            },
            BitField {
                field: T::B,
                lo: 7,
                width: 1,
                role: Role::Fixed(1),
                title: "",
                source: Source::Decision(1),
                meaning: Meaning::NUMBER,
            },
        ];
        let read = |raw| {
            ROWS.iter()
                .map(|row| RowReading { row, word: raw }.to_string())
                .collect::<std::vec::Vec<_>>()
        };
        assert_eq!(
            read((1 << 7) | (0b0011 << 2) | 0b10),
            ["b: B", "4 long, 4 again", "reserved, 0", "fixed 0b1"]
        );
        assert_eq!(
            read((1 << 6) | 0b01),
            [
                "invalid code 1 (1 and 3 are invalid)",
                "1 long, 1 again",
                "reserved: SET, must be 0",
                "WRONG: must be the fixed 0b1"
            ]
        );
        assert_eq!(ROWS[0].value(0b11), Some(RowValue::InvalidCode(3)));
        assert_eq!(ROWS[0].value(0b10), Some(RowValue::Name(&CODES[1])));
        assert_eq!(ROWS[0].bits_of(RowValue::Name(&CODES[1])), 2);
        assert_eq!(ROWS[2].value(0xff), None);
    }

    #[test]
    fn readings_of_the_instruction_descriptor_meanings() {
        use std::string::ToString;
        static NAMES: [CodeName; 1] = [CodeName {
            code: 1,
            name: "bf16",
            words: "bf16",
        }];
        static SHIFTS: [u64; 4] = [0, 8, 16, 32];
        let at = |lo, width, meaning| BitField {
            meaning,
            ..row(lo, width, Role::Value)
        };
        let text = |r: &'static BitField<T>, raw| RowReading { row: r, word: raw }.to_string();
        // A reading holds its row for the life of the program, as a layout's rows live.
        let leak = |r: BitField<T>| -> &'static BitField<T> {
            std::boxed::Box::leak(std::boxed::Box::new(r))
        };
        let scaled = leak(at(
            0,
            5,
            Meaning::Scaled {
                shift: 4,
                text: "M = {}",
            },
        ));
        assert_eq!(scaled.value(8), Some(RowValue::Number(128)));
        assert_eq!(scaled.bits_of(RowValue::Number(128)), 8);
        assert_eq!(text(scaled, 8), "M = 128");
        let named = leak(at(
            0,
            3,
            Meaning::Named {
                names: &NAMES,
                text: ".{}",
                invalid: "invalid code {} for .kind::",
                scope: "f16",
            },
        ));
        assert_eq!(named.value(1), Some(RowValue::Name(&NAMES[0])));
        assert_eq!(text(named, 1), ".bf16");
        assert_eq!(text(named, 5), "invalid code 5 for .kind::f16");
        let numbered = leak(at(
            0,
            2,
            Meaning::Numbered {
                numbers: &SHIFTS,
                zero: "no shift",
                text: "{} rows",
            },
        ));
        assert_eq!(numbered.value(3), Some(RowValue::Number(32)));
        assert_eq!(numbered.bits_of(RowValue::Number(16)), 2);
        assert_eq!(
            (text(numbered, 0), text(numbered, 1)),
            ("no shift".into(), "8 rows".into())
        );
        let picked = leak(at(
            3,
            1,
            Meaning::Picked {
                with: 0,
                numbers: [[64, 128], [96, 96]],
                names: ["dense or sparse", "96"],
            },
        ));
        assert_eq!(picked.value(0b0001), Some(RowValue::Number(128)));
        assert_eq!(picked.value(0b1000), Some(RowValue::Number(96)));
        assert_eq!(text(picked, 0b1000), "96");
        let switch = at(
            0,
            1,
            Meaning::Switch {
                names: ["no", "yes"],
            },
        );
        assert_eq!(switch.value(1), Some(RowValue::Bool(true)));
        assert!(RowValue::Bool(false).is_zero() && !RowValue::Number(8).is_zero());
        assert!(covers_exactly(&[switch], 1));
        assert!(
            !covers_exactly(&[at(0, 2, switch.meaning)], 2),
            "a switch is one bit"
        );
        let short = Meaning::Numbered {
            numbers: &SHIFTS[..3],
            zero: "",
            text: "",
        };
        assert!(
            !covers_exactly(&[at(0, 2, short)], 2),
            "code 3 has no number"
        );
        let implied = at(0, 1, Meaning::Implied(RowValue::Number(0)));
        assert!(
            !covers_exactly(&[implied], 1),
            "a layout row is never implied"
        );
        let listed = |row| Listed {
            key: "k",
            row,
            show: Show::Always,
        };
        assert!(
            !lists_within(&[listed(implied), listed(switch)], 1),
            "one key twice"
        );
        let other = Listed {
            key: "j",
            ..listed(switch)
        };
        assert!(lists_within(&[listed(implied), other], 1));
        assert!(
            !lists_within(&[listed(at(1, 1, switch.meaning))], 1),
            "past the end"
        );
        assert_eq!(listed(implied).value(u64::MAX), RowValue::Number(0));
    }

    #[test]
    fn get_set_round_trip() {
        let f = BitField {
            field: T::B,
            lo: 17,
            width: 6,
            role: Role::Value,
            title: "",
            source: Source::PtxTable(42),
            meaning: Meaning::NUMBER,
        };
        assert_eq!(f.mask(), 0x3f << 17);
        let raw = f.set(u64::MAX, 5);
        assert_eq!(f.get(raw), 5);
        assert_eq!(raw | f.mask(), u64::MAX);
        assert!(f.fits(63));
        assert!(!f.fits(64));
    }
}
