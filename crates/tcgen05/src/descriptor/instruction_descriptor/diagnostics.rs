//! [`IdescDiagnostics`] (the problems of a decoded value, Tables 42-44), [`IdescDecoded`] and
//! [`KindSet`].

use super::*;

/// Every problem of a decoded instruction descriptor, kept as the set of checks it fails.
///
/// Reading the list ([`IdescDiagnostics::iter`], [`IdescDiagnostics::get`]) builds each
/// [`IdescError`] from the raw value, so decoding itself builds no list. It answers the same
/// questions as a [`Diagnostics`] list, in the same order; [`IdescDiagnostics::to_list`] gives
/// one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IdescDiagnostics {
    pub(super) bits: u32,
    pub(super) kind: Kind,
    pub(super) set: u64,
}

impl IdescDiagnostics {
    /// Number of problems.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.set.count_ones() as usize
    }

    /// True when there is no problem.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.set == 0
    }

    /// Always false: the set holds every problem one value can have. (Kept so that this type
    /// answers the same questions as [`Diagnostics`].)
    #[must_use]
    pub const fn overflowed(&self) -> bool {
        false
    }

    /// The `i`-th problem, in the order reported.
    #[must_use]
    pub const fn get(&self, i: usize) -> Option<IdescError> {
        let mut set = self.set;
        let mut n = 0;
        while set != 0 {
            if n == i {
                return Some(problem_at(self.bits, self.kind, set.trailing_zeros()));
            }
            set &= set - 1;
            n += 1;
        }
        None
    }

    /// All problems, in the order reported.
    #[inline]
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn iter(&self) -> IdescProblems {
        IdescProblems {
            bits: self.bits,
            kind: self.kind,
            set: self.set,
        }
    }

    /// The problems of severity [`Severity::Error`].
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn errors(&self) -> IdescProblems {
        IdescProblems {
            bits: self.bits,
            kind: self.kind,
            set: self.set & !WARNINGS,
        }
    }

    /// The problems of severity [`Severity::Warning`].
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn warnings(&self) -> IdescProblems {
        IdescProblems {
            bits: self.bits,
            kind: self.kind,
            set: self.set & WARNINGS,
        }
    }

    /// True when one of the problems breaks `rule`.
    #[must_use]
    pub const fn breaks(&self, rule: IdescRule) -> bool {
        let positions = match rule {
            IdescRule::ReservedBit => 0xffff_ffff,
            IdescRule::InvalidTypeCode => (1 << at::D_CODE) | (1 << at::A_CODE) | (1 << at::B_CODE),
            IdescRule::F16AccumulatorNeedsF16Inputs => (1 << at::F16_ACC_A) | (1 << at::F16_ACC_B),
            IdescRule::MixedF16Bf16 => 1 << at::MIXED_F16_BF16,
            IdescRule::SaturateNotI8 => 1 << at::SATURATE,
            IdescRule::NegateI8 => (1 << at::NEGATE_A) | (1 << at::NEGATE_B),
            IdescRule::TransposeNotAllowed => (1 << at::TRANSPOSE_A) | (1 << at::TRANSPOSE_B),
            IdescRule::SparsitySelectorWithoutSparsity => 1 << at::SELECTOR_DENSE,
            IdescRule::SparsitySelectorNotZero => 1 << at::SELECTOR_NOT_ZERO,
            IdescRule::NOutOfRange => 1 << at::N_RANGE,
            IdescRule::MNotInTable39 => 1 << at::M_SHAPE,
            IdescRule::ScaleTypeNotForKind => 1 << at::SCALE_TYPE,
            IdescRule::SfIdNotAllowed => (1 << at::SFA_ID) | (1 << at::SFB_ID),
            IdescRule::K96Sparse => 1 << at::K96_SPARSE,
            // Rules about field values that a raw word cannot hold (a type the kind does not
            // take, a field the layout lacks, a value wider than its bits, an M or N that the
            // word cannot store).
            IdescRule::TypeNotForKind
            | IdescRule::FieldNotInLayout
            | IdescRule::FieldTooWide
            | IdescRule::NNotMultipleOf8
            | IdescRule::MNotEncodable => 0,
        };
        self.set & positions != 0
    }

    /// Number of errors.
    #[must_use]
    pub const fn error_count(&self) -> usize {
        (self.set & !WARNINGS).count_ones() as usize
    }

    /// True when at least one problem is an error.
    #[must_use]
    pub const fn has_errors(&self) -> bool {
        self.set & !WARNINGS != 0
    }

    /// The first error, if any.
    #[must_use]
    pub const fn first_error(&self) -> Option<IdescError> {
        let errors = self.set & !WARNINGS;
        if errors == 0 {
            None
        } else {
            Some(problem_at(self.bits, self.kind, errors.trailing_zeros()))
        }
    }

    /// The problems as a fixed-capacity list.
    #[must_use]
    pub const fn to_list(&self) -> Diagnostics<IdescError, MAX_PROBLEMS> {
        let mut out = Diagnostics::new();
        let mut set = self.set;
        while set != 0 {
            out.push(problem_at(self.bits, self.kind, set.trailing_zeros()));
            set &= set - 1;
        }
        out
    }
}

impl fmt::Debug for IdescDiagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl IntoIterator for &IdescDiagnostics {
    type Item = IdescError;
    type IntoIter = IdescProblems;

    fn into_iter(self) -> IdescProblems {
        self.iter()
    }
}

/// The problems of an [`IdescDiagnostics`], in the order reported.
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct IdescProblems {
    bits: u32,
    kind: Kind,
    set: u64,
}

impl Iterator for IdescProblems {
    type Item = IdescError;

    #[inline]
    fn next(&mut self) -> Option<IdescError> {
        if self.set == 0 {
            return None;
        }
        let position = self.set.trailing_zeros();
        self.set &= self.set - 1;
        Some(problem_at(self.bits, self.kind, position))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.set.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for IdescProblems {}

impl core::iter::FusedIterator for IdescProblems {}

/// A raw instruction descriptor decoded under one kind: the fields (when every type code is
/// defined for the kind) and every problem found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdescDecoded {
    /// The raw value.
    pub bits: u32,
    /// The kind it was decoded under.
    pub kind: Kind,
    /// The fields; `None` when a type field holds a code the kind does not define.
    pub fields: Option<IdescFields>,
    /// Every error and warning, in bit order of the fields concerned.
    pub diagnostics: IdescDiagnostics,
}

impl IdescDecoded {
    /// True when no problem is an error.
    #[must_use]
    pub const fn is_valid(&self) -> bool {
        !self.diagnostics.has_errors()
    }
}

/// A set of kinds, for "under which kinds is this raw value valid".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KindSet(u8);

impl KindSet {
    /// No kind.
    pub const EMPTY: KindSet = KindSet(0);

    /// The set with `kind` added.
    #[must_use]
    pub const fn with(self, kind: Kind) -> KindSet {
        KindSet(self.0 | (1 << kind as u8))
    }

    /// True when `kind` is in the set.
    #[must_use]
    pub const fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }

    /// True for the empty set.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of kinds in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The kinds in the set, in [`Kind::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}
