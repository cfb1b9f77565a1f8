//! `Display` of an instruction descriptor as its layout table (Tables 42-44) and
//! [`RowMeaning`], one row's value in words.

use super::encode::InstructionDescriptor;
use super::{layout, row, table_number, IdescField};
use crate::bits::BitField;
use crate::bits::RowReading;
use crate::diagnostic::{Diagnostic, OneLine, Severity};
use crate::mma::Kind;
use core::fmt;

/// The meaning, in words, of one layout row's bits in a raw value: what [`Display`] prints in
/// the last column, and what the command-line tool prints too.
///
/// ```
/// use tcgen05::instruction_descriptor::{row, IdescField, RowMeaning};
/// use tcgen05::Kind;
///
/// let n = row(Kind::F16, IdescField::N).expect("Table 42 has N");
/// assert_eq!(RowMeaning::new(0x0810_0490, Kind::F16, n).to_string(), "N = 64");
/// ```
///
/// [`Display`]: fmt::Display
#[derive(Clone, Copy, Debug)]
pub struct RowMeaning {
    bits: u32,
    kind: Kind,
    row: &'static BitField<IdescField>,
}

impl RowMeaning {
    /// The meaning of `row`'s bits in `bits`, read under `kind`.
    #[must_use]
    pub const fn new(bits: u32, kind: Kind, row: &'static BitField<IdescField>) -> Self {
        Self { bits, kind, row }
    }
}

impl fmt::Display for RowMeaning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The kind's own row gives the meaning (a row of Table 42 itself names no types).
        let row = row(self.kind, self.row.field).unwrap_or(self.row);
        RowReading {
            row,
            word: self.bits as u64,
        }
        .fmt(f)
    }
}

impl fmt::Display for InstructionDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let table = layout(self.kind);
        writeln!(
            f,
            "instruction descriptor 0x{:08x} (.kind::{}, PTX Table {})",
            self.bits,
            self.kind,
            table_number(self.kind)
        )?;
        for r in table.iter().rev() {
            let v = r.get(self.bits as u64);
            if r.width == 1 {
                write!(f, "  {:>5}", r.lo)?;
            } else {
                write!(f, "  {:>2}-{:<2}", r.lo, r.hi())?;
            }
            writeln!(
                f,
                "  {:<17} {:>8}  {}",
                r.field.name(),
                Binary(v, r.width),
                RowMeaning::new(self.bits, self.kind, r)
            )?;
        }
        let decoded = InstructionDescriptor::decode(self.bits, self.kind);
        for e in decoded.diagnostics.iter() {
            let sev = match e.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(f, "  {sev}: {}", OneLine(&e))?;
        }
        Ok(())
    }
}

/// A field's raw bits in binary, exactly as wide as the field.
pub(crate) struct Binary(pub u64, pub u8);

impl fmt::Display for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [b'0'; 64];
        let w = (self.1 as usize).clamp(1, 64);
        for (i, c) in buf[..w].iter_mut().enumerate() {
            if (self.0 >> (w - 1 - i)) & 1 == 1 {
                *c = b'1';
            }
        }
        f.pad(core::str::from_utf8(&buf[..w]).unwrap_or("?"))
    }
}
