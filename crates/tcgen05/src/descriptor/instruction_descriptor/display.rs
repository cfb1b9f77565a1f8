//! `Display` of an instruction descriptor as its layout table (Tables 42-44) and
//! [`RowMeaning`], one row's value in words.

use super::*;

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
        let kind = self.kind;
        let v = self.row.get(self.bits as u64);
        if matches!(self.row.role, Role::Reserved) {
            return f.write_str(if v == 0 {
                "reserved, 0"
            } else {
                "reserved: SET, must be 0"
            });
        }
        let yes_no = |b: u64| if b == 1 { "yes" } else { "no" };
        match self.row.field {
            IdescField::DType => match ElementType::from_d_code(kind, v as u8) {
                Some(t) => write!(f, ".{t}"),
                None => write!(f, "invalid code {v} for .kind::{kind}"),
            },
            IdescField::AType | IdescField::BType => {
                match ElementType::from_ab_code(kind, v as u8) {
                    Some(t) => write!(f, ".{t}"),
                    None => write!(f, "invalid code {v} for .kind::{kind}"),
                }
            }
            IdescField::Sparse => f.write_str(if v == 1 { "sparse" } else { "dense" }),
            IdescField::TransposeA => f.write_str(if v == 1 {
                "M-major (transposed)"
            } else {
                "K-major"
            }),
            IdescField::TransposeB => f.write_str(if v == 1 {
                "N-major (transposed)"
            } else {
                "K-major"
            }),
            IdescField::Saturate | IdescField::NegateA | IdescField::NegateB => {
                f.write_str(yes_no(v))
            }
            IdescField::N => write!(f, "N = {}", v << 3),
            IdescField::M => write!(f, "M = {}", v * m_unit(kind) as u64),
            IdescField::MaxShift => match MaxShift::from_code(v as u8) {
                Some(MaxShift::None) | None => f.write_str("no shift"),
                Some(s) => write!(f, "{} rows (.ws only)", s.rows()),
            },
            IdescField::ScaleType => match ScaleType::from_code(v as u8) {
                Some(s) => write!(f, ".{s}"),
                None => write!(f, "code {v}"),
            },
            IdescField::K => f.write_str(if v == 1 {
                "K = 96 (dense, sm_103a)"
            } else {
                "K = 64 dense / 128 sparse"
            }),
            _ => write!(f, "{v}"),
        }
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
