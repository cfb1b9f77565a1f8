//! The MMA as one concept: the parameters of a `tcgen05.mma` that the descriptors and shape
//! rules talk about (the MMA kind, element types and their per-kind codes, scale-factor types,
//! `.cta_group`, operand major-ness and the `.ws` maximum shift), and, in [`shapes`]
//! (reached as [`crate::shapes`]), the valid M, N, K of each kind (Table 39) and the validation
//! of a whole MMA configuration.
//!
//! Sources: PTX ISA 9.7.16.4.2 Tables 42-44 (codes), 9.7.16.2.1 Table 39 (which types go with
//! which kind), rules.md R8 and R12.
//!
//! The MMA's other faces live with their own concepts: its PTX text in [`crate::ptx`] (the
//! `Mma` builder), its instruction descriptor in [`crate::instruction_descriptor`], where its
//! operands sit in Tensor Memory in [`crate::data_path`].

use core::fmt;

use crate::bytes::{bytes_eq, strip_prefix};

pub mod shapes;
mod table_39;
pub(crate) use table_39::{kind_allows_m, N_MAX, N_MIN};

/// The `.kind` qualifier of `tcgen05.mma`.
///
/// The kind decides which of the three instruction-descriptor layouts applies (rules.md R8):
/// Table 42 for `tf32`, `f16`, `f8f6f4` and `i8`; Table 43 for `mxf8f6f4`; Table 44 for `mxf4`
/// and `mxf4nvf4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Kind {
    /// `.kind::f16`: f16 or bf16 inputs, f16 or f32 accumulator.
    F16,
    /// `.kind::tf32`: tf32 inputs, f32 accumulator.
    Tf32,
    /// `.kind::f8f6f4`: 8-, 6- and 4-bit float inputs, f16 or f32 accumulator.
    F8f6f4,
    /// `.kind::i8`: signed or unsigned 8-bit integer inputs, s32 accumulator.
    I8,
    /// `.kind::mxf8f6f4`: block-scaled 8/6/4-bit floats with UE8M0 scales.
    Mxf8f6f4,
    /// `.kind::mxf4`: block-scaled E2M1 with UE8M0 scales.
    Mxf4,
    /// `.kind::mxf4nvf4`: block-scaled E2M1 with UE8M0 or UE4M3 scales.
    Mxf4nvf4,
}

/// Which table of PTX ISA 9.7.16.4.2 lays out an instruction descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum IdescLayout {
    /// Table 42: `.kind::tf32`, `.kind::f16`, `.kind::f8f6f4`, `.kind::i8`.
    Table42,
    /// Table 43: `.kind::mxf8f6f4`.
    Table43,
    /// Table 44: `.kind::mxf4`, `.kind::mxf4nvf4`.
    Table44,
}

impl Kind {
    /// Every kind, in the order of the command-line tool's listing.
    pub const ALL: [Kind; 7] = [
        Kind::F16,
        Kind::Tf32,
        Kind::F8f6f4,
        Kind::I8,
        Kind::Mxf8f6f4,
        Kind::Mxf4,
        Kind::Mxf4nvf4,
    ];

    /// The kind's name without the `.kind::` prefix, for example `"mxf4nvf4"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::F16 => "f16",
            Kind::Tf32 => "tf32",
            Kind::F8f6f4 => "f8f6f4",
            Kind::I8 => "i8",
            Kind::Mxf8f6f4 => "mxf8f6f4",
            Kind::Mxf4 => "mxf4",
            Kind::Mxf4nvf4 => "mxf4nvf4",
        }
    }

    /// Parses a kind name (with or without the `kind::` prefix).
    #[must_use]
    pub const fn from_name(name: &str) -> Option<Kind> {
        let b = strip_prefix(name.as_bytes(), b"kind::");
        let mut i = 0;
        while i < Kind::ALL.len() {
            if bytes_eq(b, Kind::ALL[i].name().as_bytes()) {
                return Some(Kind::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// The instruction-descriptor layout of this kind (rules.md R8).
    #[must_use]
    pub const fn idesc_layout(self) -> IdescLayout {
        match self {
            Kind::F16 | Kind::Tf32 | Kind::F8f6f4 | Kind::I8 => IdescLayout::Table42,
            Kind::Mxf8f6f4 => IdescLayout::Table43,
            Kind::Mxf4 | Kind::Mxf4nvf4 => IdescLayout::Table44,
        }
    }

    /// True for the block-scaled kinds (`mxf8f6f4`, `mxf4`, `mxf4nvf4`).
    #[must_use]
    pub const fn is_block_scaled(self) -> bool {
        matches!(self, Kind::Mxf8f6f4 | Kind::Mxf4 | Kind::Mxf4nvf4)
    }

    /// The dense K of one MMA of this kind (Table 39): 256 bits of A per row. Sparse doubles it.
    #[must_use]
    pub const fn dense_k(self) -> u16 {
        DENSE_K[self as usize]
    }
}

/// [`Kind::dense_k`] of each kind, by `kind as usize`: the K of the kind's `.cta_group::1`
/// dense row of Table 39, read at compile time.
const DENSE_K: [u16; 7] = {
    let mut out = [0; 7];
    let mut i = 0;
    while i < Kind::ALL.len() {
        out[Kind::ALL[i] as usize] = table_39::dense_k_of(Kind::ALL[i]);
        i += 1;
    }
    out
};

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An element type of matrix A, B or D (PTX ISA 5.2, Table 39).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ElementType {
    /// IEEE half precision.
    F16,
    /// bfloat16.
    Bf16,
    /// TensorFloat-32 (stored in 32 bits).
    Tf32,
    /// IEEE single precision (accumulator only).
    F32,
    /// 8-bit float, 4 exponent and 3 mantissa bits.
    E4m3,
    /// 8-bit float, 5 exponent and 2 mantissa bits.
    E5m2,
    /// 6-bit float, 2 exponent and 3 mantissa bits.
    E2m3,
    /// 6-bit float, 3 exponent and 2 mantissa bits.
    E3m2,
    /// 4-bit float, 2 exponent and 1 mantissa bit.
    E2m1,
    /// Signed 8-bit integer.
    S8,
    /// Unsigned 8-bit integer.
    U8,
    /// Signed 32-bit integer (accumulator only).
    S32,
}

impl ElementType {
    /// Every element type, in the order of the command-line tool's listing.
    pub const ALL: [ElementType; 12] = [
        ElementType::F16,
        ElementType::Bf16,
        ElementType::Tf32,
        ElementType::F32,
        ElementType::E4m3,
        ElementType::E5m2,
        ElementType::E2m3,
        ElementType::E3m2,
        ElementType::E2m1,
        ElementType::S8,
        ElementType::U8,
        ElementType::S32,
    ];

    /// The PTX type name without the dot, for example `"e4m3"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ElementType::F16 => "f16",
            ElementType::Bf16 => "bf16",
            ElementType::Tf32 => "tf32",
            ElementType::F32 => "f32",
            ElementType::E4m3 => "e4m3",
            ElementType::E5m2 => "e5m2",
            ElementType::E2m3 => "e2m3",
            ElementType::E3m2 => "e3m2",
            ElementType::E2m1 => "e2m1",
            ElementType::S8 => "s8",
            ElementType::U8 => "u8",
            ElementType::S32 => "s32",
        }
    }

    /// Parses a type name (with or without a leading dot).
    #[must_use]
    pub const fn from_name(name: &str) -> Option<ElementType> {
        let b = strip_prefix(name.as_bytes(), b".");
        let mut i = 0;
        while i < ElementType::ALL.len() {
            if bytes_eq(b, ElementType::ALL[i].name().as_bytes()) {
                return Some(ElementType::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// Bits per element as the type is defined (tf32 counts as 32, its container).
    #[must_use]
    pub const fn bits(self) -> u8 {
        match self {
            ElementType::F16 | ElementType::Bf16 => 16,
            ElementType::Tf32 | ElementType::F32 | ElementType::S32 => 32,
            ElementType::E4m3 | ElementType::E5m2 | ElementType::S8 | ElementType::U8 => 8,
            ElementType::E2m3 | ElementType::E3m2 => 6,
            ElementType::E2m1 => 4,
        }
    }

    /// The code of this type in the atype/btype fields under `kind`, or `None` when the kind
    /// does not take it as an input (Tables 42-44; E2M1 is 5 under f8f6f4 and mxf8f6f4 but 1
    /// under mxf4 and mxf4nvf4, rules.md R8).
    #[must_use]
    pub const fn ab_code(self, kind: Kind) -> Option<u8> {
        match kind {
            Kind::Tf32 => match self {
                ElementType::Tf32 => Some(2),
                _ => None,
            },
            Kind::F16 => match self {
                ElementType::F16 => Some(0),
                ElementType::Bf16 => Some(1),
                _ => None,
            },
            Kind::F8f6f4 | Kind::Mxf8f6f4 => match self {
                ElementType::E4m3 => Some(0),
                ElementType::E5m2 => Some(1),
                ElementType::E2m3 => Some(3),
                ElementType::E3m2 => Some(4),
                ElementType::E2m1 => Some(5),
                _ => None,
            },
            Kind::I8 => match self {
                ElementType::U8 => Some(0),
                ElementType::S8 => Some(1),
                _ => None,
            },
            Kind::Mxf4 | Kind::Mxf4nvf4 => match self {
                ElementType::E2m1 => Some(1),
                _ => None,
            },
        }
    }

    /// The input type that `code` stands for in the atype/btype fields under `kind`.
    #[must_use]
    pub const fn from_ab_code(kind: Kind, code: u8) -> Option<ElementType> {
        let mut i = 0;
        while i < ElementType::ALL.len() {
            let t = ElementType::ALL[i];
            if let Some(c) = t.ab_code(kind) {
                if c == code {
                    return Some(t);
                }
            }
            i += 1;
        }
        None
    }

    /// The code of this type in the dtype field (bits 4-5) of Table 42, or `None` when `kind`
    /// does not accumulate into it. Block-scaled kinds have no dtype field: D is always f32.
    #[must_use]
    pub const fn d_code(self, kind: Kind) -> Option<u8> {
        match (kind, self) {
            (Kind::Tf32, ElementType::F32) => Some(1),
            (Kind::F16 | Kind::F8f6f4, ElementType::F16) => Some(0),
            (Kind::F16 | Kind::F8f6f4, ElementType::F32) => Some(1),
            (Kind::I8, ElementType::S32) => Some(2),
            _ => None,
        }
    }

    /// The accumulator type that `code` stands for in the dtype field under `kind`.
    #[must_use]
    pub const fn from_d_code(kind: Kind, code: u8) -> Option<ElementType> {
        let mut i = 0;
        while i < ElementType::ALL.len() {
            let t = ElementType::ALL[i];
            if let Some(c) = t.d_code(kind) {
                if c == code {
                    return Some(t);
                }
            }
            i += 1;
        }
        None
    }

    /// True for the 4- and 6-bit types, which cannot be MN-major (rules.md R11).
    #[must_use]
    pub const fn is_sub_byte(self) -> bool {
        matches!(
            self,
            ElementType::E2m3 | ElementType::E3m2 | ElementType::E2m1
        )
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The scale-factor element type of the block-scaled kinds (Tables 43-44, bit 23).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum ScaleType {
    /// Unsigned 4-exponent, 3-mantissa float (mxf4nvf4 only). Code 0.
    Ue4m3 = 0,
    /// Unsigned 8-exponent power of two. Code 1.
    Ue8m0 = 1,
}

impl ScaleType {
    /// The PTX name, for example `"ue8m0"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ScaleType::Ue4m3 => "ue4m3",
            ScaleType::Ue8m0 => "ue8m0",
        }
    }

    /// Parses a scale type name (with or without a leading dot).
    #[must_use]
    pub const fn from_name(name: &str) -> Option<ScaleType> {
        let b = strip_prefix(name.as_bytes(), b".");
        if bytes_eq(b, b"ue4m3") {
            Some(ScaleType::Ue4m3)
        } else if bytes_eq(b, b"ue8m0") {
            Some(ScaleType::Ue8m0)
        } else {
            None
        }
    }

    /// The scale type stored as `code` in bit 23.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<ScaleType> {
        match code {
            0 => Some(ScaleType::Ue4m3),
            1 => Some(ScaleType::Ue8m0),
            _ => None,
        }
    }
}

impl fmt::Display for ScaleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The `.cta_group` qualifier: how many CTAs of a pair take part in the MMA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum CtaGroup {
    /// `.cta_group::1`.
    #[default]
    One,
    /// `.cta_group::2`: a CTA pair shares the MMA; M counts both CTAs' rows.
    Two,
}

impl CtaGroup {
    /// 1 or 2.
    #[must_use]
    pub const fn count(self) -> u8 {
        match self {
            CtaGroup::One => 1,
            CtaGroup::Two => 2,
        }
    }

    /// The group for a count of 1 or 2.
    #[must_use]
    pub const fn from_count(n: u64) -> Option<CtaGroup> {
        match n {
            1 => Some(CtaGroup::One),
            2 => Some(CtaGroup::Two),
            _ => None,
        }
    }
}

impl fmt::Display for CtaGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cta_group::{}", self.count())
    }
}

/// Which dimension of an operand is contiguous in shared memory (PTX ISA 9.7.16.3.3).
///
/// The instruction descriptor's transpose bits (15 for A, 16 for B) select MN-major.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Major {
    /// K is contiguous (no transpose; the BLAS default for both A and B).
    #[default]
    K,
    /// M (for A) or N (for B) is contiguous (transposed).
    Mn,
}

impl Major {
    /// The major-ness a name spells, in any case: `"k"` for [`Major::K`]; `"mn"` (or `"m"`,
    /// `"n"`: the M of A, the N of B) for [`Major::Mn`] (PTX ISA 9.7.16.10.4: K-major,
    /// MN-major). `None` for anything else.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Major> {
        let t = name.trim_ascii();
        if t.eq_ignore_ascii_case("k") {
            Some(Major::K)
        } else if ["mn", "m", "n"].iter().any(|m| t.eq_ignore_ascii_case(m)) {
            Some(Major::Mn)
        } else {
            None
        }
    }
}

/// The maximum shift while attempting B-matrix reuse in `.ws` MMAs (instruction descriptor bits
/// 30-31 of Table 42), in rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum MaxShift {
    /// No shift. Code 0.
    #[default]
    None = 0,
    /// At most 8 rows. Code 1.
    Rows8 = 1,
    /// At most 16 rows. Code 2.
    Rows16 = 2,
    /// At most 32 rows. Code 3.
    Rows32 = 3,
}

impl MaxShift {
    /// The field code (0-3).
    #[must_use]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The shift for a field code (0-3).
    #[must_use]
    pub const fn from_code(code: u8) -> Option<MaxShift> {
        match code {
            0 => Some(MaxShift::None),
            1 => Some(MaxShift::Rows8),
            2 => Some(MaxShift::Rows16),
            3 => Some(MaxShift::Rows32),
            _ => None,
        }
    }

    /// The shift in rows: 0, 8, 16 or 32.
    #[must_use]
    pub const fn rows(self) -> u8 {
        match self {
            MaxShift::None => 0,
            MaxShift::Rows8 => 8,
            MaxShift::Rows16 => 16,
            MaxShift::Rows32 => 32,
        }
    }

    /// The shift for a row count of 0, 8, 16 or 32.
    #[must_use]
    pub const fn from_rows(rows: u64) -> Option<MaxShift> {
        match rows {
            0 => Some(MaxShift::None),
            8 => Some(MaxShift::Rows8),
            16 => Some(MaxShift::Rows16),
            32 => Some(MaxShift::Rows32),
            _ => None,
        }
    }
}

/// The scale vector of a block-scaled `tcgen05.mma` (PTX ISA 9.7.16.10.7.1, Tables 56-57): the
/// qualifier as written ([`crate::ptx`]) and, once resolved for a kind ([`ScaleVec::resolve`]),
/// the scale factors per row of A (per column of B) per MMA ([`crate::data_path`]).
///
/// One type, re-exported as `ptx::ScaleVec` and `data_path::ScaleVec`. K = 96 (3 or 6 scale
/// factors, `sm_103a`) is not modelled: the PTX text gives its placement only as pictures
/// (Figures 234-239, 243-258) and CUTLASS 4.2.0 does not build it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ScaleVec {
    /// No qualifier: `.block32`'s meaning for `mxf8f6f4` and `mxf4`; not allowed for
    /// `mxf4nvf4`.
    Default,
    /// `.scale_vec::1X` (`mxf8f6f4`; `.block32` of mxf8f6f4): one scale factor per row,
    /// 1-byte sub-column.
    X1,
    /// `.scale_vec::2X` (`mxf4`, `mxf4nvf4`; `.block32` of both): two per row, 2-byte
    /// sub-column.
    X2,
    /// `.scale_vec::4X` (`mxf4nvf4`; `.block16`): four per row, the whole 32-bit cell.
    X4,
    /// `.block16` (`mxf4nvf4`): 16 elements of K share a scale.
    Block16,
    /// `.block32` (all three): 32 elements of K share a scale.
    Block32,
    /// `.block32` with K = 96 (`mxf4`, `mxf4nvf4`; `sm_103a`): three per row, "semantically
    /// equivalent to scale_vec::3X" (PTX ISA 9.7.16.10.7.2.4, Table 54). Not a qualifier: the
    /// size [`ScaleVec::resolve_k96`] gives; the placement is ruling T3 of `docs/rules.md`.
    X3,
    /// `.block16` with K = 96 (`mxf4nvf4`; `sm_103a`): six per row, "semantically equivalent to
    /// scale_vec::6X" (PTX ISA 9.7.16.10.7.2.5, Table 54). Not a qualifier, like [`ScaleVec::X3`].
    X6,
}

impl ScaleVec {
    /// Every qualifier.
    pub const ALL: [ScaleVec; 6] = [
        ScaleVec::Default,
        ScaleVec::X1,
        ScaleVec::X2,
        ScaleVec::X4,
        ScaleVec::Block16,
        ScaleVec::Block32,
    ];

    /// The qualifier a name spells (one of [`ScaleVec::ALL`]): the PTX qualifier with or
    /// without its dot and `scale_vec::` (`".scale_vec::2X"`, `"2X"`, `"block16"`), in any
    /// case; `"default"` or `"none"` for [`ScaleVec::Default`]. `None` for anything else.
    #[must_use]
    pub fn from_name(name: &str) -> Option<ScaleVec> {
        let t = name.trim_ascii();
        let t = t.strip_prefix('.').unwrap_or(t);
        let bare = |q: &'static str| {
            let q = q.strip_prefix('.').unwrap_or(q);
            q.strip_prefix("scale_vec::").unwrap_or(q)
        };
        let t = match t.get(..11) {
            Some(p) if p.eq_ignore_ascii_case("scale_vec::") => &t[11..],
            _ => t,
        };
        if t.eq_ignore_ascii_case("default") || t.eq_ignore_ascii_case("none") {
            return Some(ScaleVec::Default);
        }
        ScaleVec::ALL
            .into_iter()
            .find(|v| !v.name().is_empty() && bare(v.name()).eq_ignore_ascii_case(t))
    }

    /// The PTX qualifier, for example `".scale_vec::2X"`; `""` for [`ScaleVec::Default`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ScaleVec::Default => "",
            ScaleVec::X1 => ".scale_vec::1X",
            ScaleVec::X2 => ".scale_vec::2X",
            ScaleVec::X4 => ".scale_vec::4X",
            ScaleVec::Block16 => ".block16",
            ScaleVec::Block32 => ".block32",
            ScaleVec::X3 => ".scale_vec::3X",
            ScaleVec::X6 => ".scale_vec::6X",
        }
    }

    /// True when the qualifier is allowed with `kind` (Tables 56-57): `mxf8f6f4` takes none,
    /// `1X`, `block32`; `mxf4` none, `2X`, `block32`; `mxf4nvf4` `2X`, `4X`, `block16`,
    /// `block32`.
    #[must_use]
    pub const fn allowed_for(self, kind: Kind) -> bool {
        match kind {
            Kind::Mxf8f6f4 => matches!(self, ScaleVec::Default | ScaleVec::X1 | ScaleVec::Block32),
            Kind::Mxf4 => matches!(self, ScaleVec::Default | ScaleVec::X2 | ScaleVec::Block32),
            Kind::Mxf4nvf4 => matches!(
                self,
                ScaleVec::X2 | ScaleVec::X4 | ScaleVec::Block16 | ScaleVec::Block32
            ),
            _ => false,
        }
    }

    /// True for `.scale_vec::4X` and `.block16`: four scales per 32-bit word, so the scale
    /// factor IDs must be 0 and the scale type may be UE4M3 (rules.md R12, R13).
    #[must_use]
    pub const fn is_16_elements(self) -> bool {
        matches!(self, ScaleVec::X4 | ScaleVec::Block16)
    }

    /// Whether this is a vector size: 1X, 2X, 4X or `.block16` (four scale factors). `Default`
    /// and `.block32` mean one or two depending on the kind ([`ScaleVec::resolve`]).
    #[must_use]
    pub const fn is_resolved(self) -> bool {
        !matches!(self, ScaleVec::Default | ScaleVec::Block32)
    }

    /// The vector size this qualifier means with `kind` (Tables 56-57): `Default` and `.block32`
    /// are 1X for `mxf8f6f4` and 2X for `mxf4` / `mxf4nvf4`, `.block16` is 4X; `None` when the
    /// qualifier is not allowed with `kind` ([`ScaleVec::allowed_for`]).
    #[must_use]
    pub const fn resolve(self, kind: Kind) -> Option<ScaleVec> {
        if !self.allowed_for(kind) {
            return None;
        }
        Some(match self {
            ScaleVec::X4 | ScaleVec::Block16 => ScaleVec::X4,
            ScaleVec::X1 | ScaleVec::X2 | ScaleVec::X3 | ScaleVec::X6 => self,
            ScaleVec::Default | ScaleVec::Block32 => {
                if matches!(kind, Kind::Mxf8f6f4) {
                    ScaleVec::X1
                } else {
                    ScaleVec::X2
                }
            }
        })
    }

    /// The vector size this qualifier means with `kind` at K = 96 (Table 54): `.block32` (and no
    /// qualifier, `.block32`'s meaning for `mxf4`) is [`ScaleVec::X3`], `.block16`
    /// [`ScaleVec::X6`]; `None` for `mxf8f6f4` (no K = 96 row) and for `.scale_vec::2X` and
    /// `::4X`, whose K = 96 placement the text does not give.
    #[must_use]
    pub const fn resolve_k96(self, kind: Kind) -> Option<ScaleVec> {
        if !self.allowed_for(kind) || matches!(kind, Kind::Mxf8f6f4) {
            return None;
        }
        match self {
            ScaleVec::Default | ScaleVec::Block32 => Some(ScaleVec::X3),
            ScaleVec::Block16 => Some(ScaleVec::X6),
            _ => None,
        }
    }

    /// True for the K = 96 sizes [`ScaleVec::X3`] and [`ScaleVec::X6`], whose scale factors
    /// continue past the 32-bit cell (ruling T3).
    #[must_use]
    pub const fn is_k96(self) -> bool {
        matches!(self, ScaleVec::X3 | ScaleVec::X6)
    }

    /// Scale factors per row (per MMA): 1 for 1X, 2 for 2X, 4 for 4X and `.block16`; 0 for
    /// `Default` and `.block32`, whose count depends on the kind ([`ScaleVec::resolve`] them
    /// first).
    #[must_use]
    pub const fn count(self) -> u32 {
        match self {
            ScaleVec::X1 => 1,
            ScaleVec::X2 => 2,
            ScaleVec::X4 | ScaleVec::Block16 => 4,
            ScaleVec::X3 => 3,
            ScaleVec::X6 => 6,
            ScaleVec::Default | ScaleVec::Block32 => 0,
        }
    }

    /// Whether `id` is a scale-factor ID of this vector size (R13): 0-3 for 1X (one byte of the
    /// cell), 0 or 2 for 2X (two bytes), 0 for 4X and `.block16` (the whole cell); none for
    /// `Default` and `.block32` before they are resolved.
    #[must_use]
    pub const fn id_ok(self, id: u32) -> bool {
        match self {
            // K = 96: the text draws SFA_ID 00-11 for 3X (Figures 234-237) and 00, 10 for 6X
            // (Figures 238-239).
            ScaleVec::X1 | ScaleVec::X3 => id <= 3,
            ScaleVec::X2 | ScaleVec::X6 => id == 0 || id == 2,
            ScaleVec::X4 | ScaleVec::Block16 => id == 0,
            ScaleVec::Default | ScaleVec::Block32 => false,
        }
    }
}

impl fmt::Display for ScaleVec {
    /// The PTX qualifier ([`ScaleVec::name`]); empty for `Default`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
        assert_eq!(Kind::from_name("kind::i8"), Some(Kind::I8));
        assert_eq!(Kind::from_name("f32"), None);
        for t in ElementType::ALL {
            assert_eq!(ElementType::from_name(t.name()), Some(t));
        }
        assert_eq!(ElementType::from_name(".bf16"), Some(ElementType::Bf16));
        assert_eq!(ScaleType::from_name("ue4m3"), Some(ScaleType::Ue4m3));
        assert_eq!(ScaleType::from_name("ue5m3"), None);
    }

    #[test]
    fn codes_follow_tables_42_to_44() {
        use ElementType::*;
        assert_eq!(E2m1.ab_code(Kind::F8f6f4), Some(5));
        assert_eq!(E2m1.ab_code(Kind::Mxf8f6f4), Some(5));
        assert_eq!(E2m1.ab_code(Kind::Mxf4), Some(1));
        assert_eq!(E4m3.ab_code(Kind::Mxf4nvf4), None);
        assert_eq!(Tf32.ab_code(Kind::Tf32), Some(2));
        assert_eq!(S8.ab_code(Kind::I8), Some(1));
        assert_eq!(U8.ab_code(Kind::I8), Some(0));
        assert_eq!(ElementType::from_ab_code(Kind::F8f6f4, 2), None);
        assert_eq!(ElementType::from_ab_code(Kind::F8f6f4, 4), Some(E3m2));
        assert_eq!(S32.d_code(Kind::I8), Some(2));
        assert_eq!(F16.d_code(Kind::Tf32), None);
        assert_eq!(ElementType::from_d_code(Kind::F16, 1), Some(F32));
        assert_eq!(ElementType::from_d_code(Kind::I8, 1), None);
        for k in Kind::ALL {
            for t in ElementType::ALL {
                if let Some(c) = t.ab_code(k) {
                    assert_eq!(ElementType::from_ab_code(k, c), Some(t));
                }
            }
        }
    }
}
