//! Table 39 of PTX ISA 9.7.16.2.1 as data, in one place: for each kind, `.ws` or not,
//! `.cta_group` and dense or sparse, the valid M, the valid N and the implied K (rules.md R14).
//!
//! Everything else reads these rows: [`crate::shapes`] validates whole MMA configurations
//! against them, the instruction descriptor takes the M of each kind and the range of N from
//! them ([`kind_allows_m`], [`N_MIN`], [`N_MAX`]), and [`Kind::dense_k`] takes its K. The rows sit
//! in a file of their own, beside the MMA's parameter enums, so that the descriptors can read
//! them without importing the shape validation that imports the descriptors.

use core::fmt;

use crate::mma::{CtaGroup, Kind};

/// The valid N of a Table 39 row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NSet {
    /// `min..=max` in steps of `step`.
    Range {
        /// Smallest N.
        min: u16,
        /// Largest N.
        max: u16,
        /// Step.
        step: u16,
    },
    /// `.kind::i8` with `.cta_group::1`: 8, 16, 24, 32, then 48 to 256 in steps of 16.
    I8CtaGroup1,
    /// An explicit list (the `.ws` rows).
    List(&'static [u16]),
}

impl NSet {
    /// True when `n` is in the set.
    #[must_use]
    pub const fn contains(&self, n: u16) -> bool {
        match *self {
            NSet::Range { min, max, step } => n >= min && n <= max && (n - min) % step == 0,
            NSet::I8CtaGroup1 => {
                matches!(n, 8 | 16 | 24 | 32) || (n >= 48 && n <= 256 && n % 16 == 0)
            }
            NSet::List(list) => {
                let mut i = 0;
                while i < list.len() {
                    if list[i] == n {
                        return true;
                    }
                    i += 1;
                }
                false
            }
        }
    }

    /// The smallest member greater than `after` (or the smallest of all when `after` is `None`).
    #[must_use]
    pub const fn next(&self, after: Option<u16>) -> Option<u16> {
        let mut n = match after {
            Some(a) => a + 8,
            None => 8,
        };
        while n <= 256 {
            if self.contains(n) {
                return Some(n);
            }
            n += 8;
        }
        None
    }
}

impl fmt::Display for NSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NSet::Range { min, max, step } => write!(f, "{min}..={max} step {step}"),
            NSet::I8CtaGroup1 => f.write_str("8, 16, 24, 32, then 48..=256 step 16"),
            NSet::List(list) => {
                for (i, n) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{n}")?;
                }
                Ok(())
            }
        }
    }
}

/// One row of Table 39: the shapes valid for a kind, `.ws` or not, a `.cta_group` and a
/// sparsity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShapeRule {
    /// The kind.
    pub kind: Kind,
    /// `tcgen05.mma.ws`.
    pub ws: bool,
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// Sparse A (`.sp`).
    pub sparse: bool,
    /// Valid M.
    pub m: &'static [u16],
    /// Valid N.
    pub n: NSet,
    /// The implied K.
    pub k: u16,
}

const N8: NSet = NSet::Range {
    min: 8,
    max: 256,
    step: 8,
};
const N16: NSet = NSet::Range {
    min: 16,
    max: 256,
    step: 16,
};
const N32: NSet = NSet::Range {
    min: 32,
    max: 256,
    step: 32,
};
const WS_DENSE: NSet = NSet::List(&[64, 128, 256]);
const WS_SPARSE: NSet = NSet::List(&[64, 128]);
const M_CG1: &[u16] = &[64, 128];
const M_CG2: &[u16] = &[128, 256];
const M_WS: &[u16] = &[32, 64, 128];

const fn rule(
    kind: Kind,
    ws: bool,
    cta_group: CtaGroup,
    sparse: bool,
    m: &'static [u16],
    n: NSet,
    k: u16,
) -> ShapeRule {
    ShapeRule {
        kind,
        ws,
        cta_group,
        sparse,
        m,
        n,
        k,
    }
}

use CtaGroup::{One as CG1, Two as CG2};

/// Table 39 of PTX ISA 9.7.16.2.1 as data: every valid combination of kind, `.ws`, `.cta_group`
/// and sparsity, with its M, N and K. Combinations missing here are invalid ("Invalid" in the
/// table). K = 96 (the `K1` column of mxf4 and mxf4nvf4) is a row of its own; it needs
/// `sm_103a` (rules.md R15).
pub const TABLE_39: &[ShapeRule] = &[
    // .kind::f16
    rule(Kind::F16, false, CG1, false, M_CG1, N8, 16),
    rule(Kind::F16, false, CG1, true, M_CG1, N8, 32),
    rule(Kind::F16, false, CG2, false, M_CG2, N16, 16),
    rule(Kind::F16, false, CG2, true, M_CG2, N16, 32),
    rule(Kind::F16, true, CG1, false, M_WS, WS_DENSE, 16),
    rule(Kind::F16, true, CG1, true, M_WS, WS_SPARSE, 32),
    // .kind::tf32
    rule(Kind::Tf32, false, CG1, false, M_CG1, N8, 8),
    rule(Kind::Tf32, false, CG1, true, M_CG1, N8, 16),
    rule(Kind::Tf32, false, CG2, false, M_CG2, N16, 8),
    rule(Kind::Tf32, false, CG2, true, M_CG2, N16, 16),
    rule(Kind::Tf32, true, CG1, false, M_WS, WS_DENSE, 8),
    rule(Kind::Tf32, true, CG1, true, M_WS, WS_SPARSE, 16),
    // .kind::f8f6f4
    rule(Kind::F8f6f4, false, CG1, false, M_CG1, N8, 32),
    rule(Kind::F8f6f4, false, CG1, true, M_CG1, N8, 64),
    rule(Kind::F8f6f4, false, CG2, false, M_CG2, N16, 32),
    rule(Kind::F8f6f4, false, CG2, true, M_CG2, N16, 64),
    rule(Kind::F8f6f4, true, CG1, false, M_WS, WS_DENSE, 32),
    rule(Kind::F8f6f4, true, CG1, true, M_WS, WS_SPARSE, 64),
    // .kind::mxf8f6f4
    rule(Kind::Mxf8f6f4, false, CG1, false, &[128], N8, 32),
    rule(Kind::Mxf8f6f4, false, CG1, true, &[128], N8, 64),
    rule(Kind::Mxf8f6f4, false, CG2, false, M_CG2, N16, 32),
    rule(Kind::Mxf8f6f4, false, CG2, true, &[256], N16, 64),
    // .kind::i8
    rule(Kind::I8, false, CG1, false, M_CG1, NSet::I8CtaGroup1, 32),
    rule(Kind::I8, false, CG1, true, M_CG1, NSet::I8CtaGroup1, 64),
    rule(Kind::I8, false, CG2, false, M_CG2, N32, 32),
    rule(Kind::I8, false, CG2, true, M_CG2, N32, 64),
    rule(Kind::I8, true, CG1, false, M_WS, WS_DENSE, 32),
    rule(Kind::I8, true, CG1, true, M_WS, WS_SPARSE, 64),
    // .kind::mxf4
    rule(Kind::Mxf4, false, CG1, false, &[128], N8, 64),
    rule(Kind::Mxf4, false, CG1, true, &[128], N8, 128),
    rule(Kind::Mxf4, false, CG2, false, M_CG2, N16, 64),
    rule(Kind::Mxf4, false, CG2, false, &[256], N16, 96),
    rule(Kind::Mxf4, false, CG2, true, &[256], N16, 128),
    // .kind::mxf4nvf4
    rule(Kind::Mxf4nvf4, false, CG1, false, &[128], N8, 64),
    rule(Kind::Mxf4nvf4, false, CG1, true, &[128], N8, 128),
    rule(Kind::Mxf4nvf4, false, CG2, false, M_CG2, N16, 64),
    rule(Kind::Mxf4nvf4, false, CG2, false, &[256], N16, 96),
    rule(Kind::Mxf4nvf4, false, CG2, true, &[256], N16, 128),
];

pub(crate) const fn m_in(list: &[u16], m: u16) -> bool {
    let mut i = 0;
    while i < list.len() {
        if list[i] == m {
            return true;
        }
        i += 1;
    }
    false
}

/// The Table 39 row for a kind, `.ws`, `.cta_group`, sparsity and K (`k96` selects the K = 96
/// row), or `None` when the table calls the combination invalid.
#[must_use]
pub const fn find_rule(
    kind: Kind,
    ws: bool,
    cta_group: CtaGroup,
    sparse: bool,
    k96: bool,
) -> Option<&'static ShapeRule> {
    let mut i = 0;
    while i < TABLE_39.len() {
        let r = &TABLE_39[i];
        if r.kind as u8 == kind as u8
            && r.ws == ws
            && r.cta_group as u8 == cta_group as u8
            && r.sparse == sparse
            && (r.k == 96) == k96
        {
            return Some(r);
        }
        i += 1;
    }
    None
}

/// True when a row of Table 39 for `kind` (any `.ws`, `.cta_group` or sparsity) allows `m`:
/// the M values the instruction descriptor can hold for the kind (32, 64, 128, 256; 128, 256
/// when block-scaled).
#[must_use]
pub const fn kind_allows_m(kind: Kind, m: u16) -> bool {
    m % 16 == 0 && m / 16 < 32 && (M_BY_16[kind as usize] >> (m / 16)) & 1 == 1
}

/// The M of every row of each kind, by `kind as usize`, as a mask over M / 16, read from the
/// rows at compile time.
const M_BY_16: [u32; 7] = {
    let mut out = [0u32; 7];
    let mut i = 0;
    while i < TABLE_39.len() {
        let r = &TABLE_39[i];
        let mut j = 0;
        while j < r.m.len() {
            assert!(
                r.m[j] % 16 == 0 && r.m[j] / 16 < 32,
                "M is a multiple of 16 below 512"
            );
            out[r.kind as usize] |= 1 << (r.m[j] / 16);
            j += 1;
        }
        i += 1;
    }
    out
};

/// The largest N the instruction descriptor's six N bits can state (63 << 3); every N of
/// Table 39 is below it.
const N_ENCODABLE: u16 = 63 << 3;

/// The smallest or largest N of any row of Table 39, found by asking each row's [`NSet`]
/// about every N the descriptor can hold.
const fn n_bound(largest: bool) -> u16 {
    let mut out = if largest { 0 } else { u16::MAX };
    let mut i = 0;
    while i < TABLE_39.len() {
        let mut n = 1;
        while n <= N_ENCODABLE {
            let further = if largest { n > out } else { n < out };
            if further && TABLE_39[i].n.contains(n) {
                out = n;
            }
            n += 1;
        }
        i += 1;
    }
    out
}

/// The smallest N of any row of Table 39 (8).
pub const N_MIN: u16 = n_bound(false);

/// The largest N of any row of Table 39 (256).
pub const N_MAX: u16 = n_bound(true);

/// The dense K of `kind`: the K of its `.cta_group::1` dense row.
pub(crate) const fn dense_k_of(kind: Kind) -> u16 {
    match find_rule(kind, false, CtaGroup::One, false, false) {
        Some(r) => r.k,
        None => panic!("every kind has a cta_group::1 dense row in Table 39"),
    }
}
