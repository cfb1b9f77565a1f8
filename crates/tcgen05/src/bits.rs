//! Bit-layout tables: each descriptor's fields written once, with their bit ranges and sources.
//!
//! A descriptor module declares its layout with the `bit_layout!` macro, one line per field, its
//! bit range beside it, as the PTX table prints it. The resulting `const` table drives encoding,
//! decoding, validation of fixed and reserved bits, `Display`, the command-line tool's output and
//! the rustdoc table on the constant itself. A compile-time check proves that the fields of each
//! table do not overlap and cover every bit.

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
}

/// True when the rows of `table` do not overlap and together cover bits `0..total_bits` exactly.
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

/// Text for a source tag in a layout table: `Table 40` or `R2`.
#[doc(hidden)]
#[macro_export]
macro_rules! __source_doc {
    (Table $n:literal) => {
        concat!("PTX Table ", stringify!($n))
    };
    (R $n:literal) => {
        concat!("decisions.md R", stringify!($n))
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
/// ```text
/// bit_layout! {
///     /// Doc for the table.
///     pub const SMEM_LAYOUT: [BitField<SmemField>; 64 bits] = {
///         0 ..= 13  StartAddress       value       "Matrix start address"  (Table 40);
///         14 ..= 15 Reserved14         reserved    "Unnamed"               (R 2);
///         46 ..= 48 Fixed46            fixed = 0b001 "Fixed constant"      (Table 40);
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! bit_layout {
    (
        $(#[$meta:meta])*
        $vis:vis const $NAME:ident : [BitField<$F:ident>; $bits:literal bits] = {
            $( $lo:literal ..= $hi:literal $Var:ident $role:ident $(= $fixed:literal)? $title:literal ($sk:ident $sn:literal); )+
        }
    ) => {
        $(#[$meta])*
        ///
        /// | Bits | Field | PTX wording | Source |
        /// |---|---|---|---|
        $(
            #[doc = concat!(
                "| ", stringify!($lo), "-", stringify!($hi), " | `", stringify!($Var), "`",
                $crate::__role_doc!($role $(= $fixed)?), " | ", $title, " | ", $crate::__source_doc!($sk $sn), " |"
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
                },
            )+
        ];
        const _: () = assert!(
            $crate::bits::covers_exactly($NAME, $bits),
            concat!(stringify!($NAME), ": rows overlap, leave gaps, or hold a fixed value too wide")
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
    fn get_set_round_trip() {
        let f = BitField {
            field: T::B,
            lo: 17,
            width: 6,
            role: Role::Value,
            title: "",
            source: Source::PtxTable(42),
        };
        assert_eq!(f.mask(), 0x3f << 17);
        let raw = f.set(u64::MAX, 5);
        assert_eq!(f.get(raw), 5);
        assert_eq!(raw | f.mask(), u64::MAX);
        assert!(f.fits(63));
        assert!(!f.fits(64));
    }
}
