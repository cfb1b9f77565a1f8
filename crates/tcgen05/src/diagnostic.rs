//! Where each rule comes from, and fixed-capacity lists of every problem found in a value.
//!
//! Every error and warning in this crate names the field it concerns, the value it saw, and the
//! [`Source`] of the rule it applies: a table or section of the PTX ISA, or a ruling of the
//! project's `decisions.md`. Validation never stops at the first problem: it fills a
//! [`Diagnostics`] list with all of them.

use core::fmt;

/// The document a rule comes from.
///
/// PTX sections follow PTX ISA 9.1 numbering (the same as the specification seeds); rulings are
/// those of the project's `decisions.md` (R1-R24), which decide where the PTX text contradicts
/// itself or is silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Source {
    /// A numbered table of the PTX ISA, for example Table 40 (shared memory descriptor layout).
    PtxTable(u8),
    /// A section of the PTX ISA, for example `"9.7.16.4.1.1"` (the target note on absolute
    /// leading-dimension mode).
    PtxSection(&'static str),
    /// A ruling of `decisions.md`, for example `Decision(3)` for R3.
    Decision(u8),
}

impl Source {
    /// The PTX ISA section that holds a PTX table, or `None` for tables outside the tcgen05
    /// chapter.
    #[must_use]
    pub const fn table_section(table: u8) -> Option<&'static str> {
        match table {
            39 => Some("9.7.16.2.1"),
            40 | 41 => Some("9.7.16.4.1"),
            42..=44 => Some("9.7.16.4.2"),
            45 => Some("9.7.16.4.3"),
            47 => Some("9.7.16.1"),
            49 | 50 => Some("9.7.16.8.3"),
            _ => None,
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Source::PtxTable(t) => match Source::table_section(t) {
                Some(s) => write!(f, "PTX ISA {s} Table {t}"),
                None => write!(f, "PTX ISA Table {t}"),
            },
            Source::PtxSection(s) => write!(f, "PTX ISA {s}"),
            Source::Decision(r) => write!(f, "decisions.md R{r}"),
        }
    }
}

/// Whether a problem makes a value unusable or only deserves attention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Severity {
    /// The value breaks a rule: the hardware result is undefined or wrong.
    Error,
    /// The value is legal but unusual, or relies on behaviour no PTX example covers.
    Warning,
}

/// What every error and warning of this crate can tell about itself.
///
/// Each descriptor module has its own error enum (for example
/// [`SmemError`](crate::shared_memory_descriptor::SmemError)); they all implement this trait so
/// that tools can print them uniformly.
pub trait Diagnostic: Copy + fmt::Display + fmt::Debug {
    /// The field concerned, spelled as the JSON key of the command-line tool (for example
    /// `"leading_byte_offset"`, or `"bit 23"` for an unnamed reserved bit).
    fn field(&self) -> &'static str;
    /// The value found or given, as a number (bytes for byte fields, the raw code otherwise).
    fn value(&self) -> u64;
    /// The value as a name, when it is one rather than a number (an element type given for a
    /// kind that does not take it, a target): tools print this instead of [`Diagnostic::value`].
    fn value_name(&self) -> Option<&'static str> {
        None
    }
    /// The rule's source.
    fn source(&self) -> Source;
    /// Error or warning.
    fn severity(&self) -> Severity {
        Severity::Error
    }
    /// The identifier of the rule broken (for example `"idesc.reserved_bit"`), for error types
    /// whose rules are written as a [`Rule`] table; `None` for the others.
    fn rule_id(&self) -> Option<&'static str> {
        None
    }
}

/// Where a rule of a [`Rule`] table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum RuleSource {
    /// The same document for every value.
    Fixed(Source),
    /// The layout table of the descriptor's own variant (for the instruction descriptor, Table
    /// 42, 43 or 44 according to the kind; decisions.md R8).
    LayoutTable,
}

/// One rule of a descriptor, written once: its identifier, its source, how bad breaking it is,
/// and what it says.
///
/// Each descriptor module keeps one `const` table of these, indexed by its rule enum; the
/// errors of that module read their [`Diagnostic::rule_id`], [`Diagnostic::source`] and
/// [`Diagnostic::severity`] from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rule {
    /// Stable identifier, `module.rule` in snake case (for example `"idesc.n_out_of_range"`).
    pub id: &'static str,
    /// The document the rule comes from.
    pub source: RuleSource,
    /// Error or warning.
    pub severity: Severity,
    /// The rule in one sentence, as the PTX text or the ruling states it.
    pub statement: &'static str,
}

/// A fixed-capacity list of problems, filled by validation and decoding without allocating.
///
/// Capacity `N` is chosen per descriptor so that every problem one value can have fits. Should it
/// ever overflow, [`Diagnostics::overflowed`] says so rather than silently dropping entries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Diagnostics<D: Copy, const N: usize> {
    items: [Option<D>; N],
    len: usize,
    overflowed: bool,
}

impl<D: Copy, const N: usize> Diagnostics<D, N> {
    /// An empty list.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            items: [None; N],
            len: 0,
            overflowed: false,
        }
    }

    /// Appends a problem (or records the overflow when full).
    pub const fn push(&mut self, d: D) {
        if self.len < N {
            self.items[self.len] = Some(d);
            self.len += 1;
        } else {
            self.overflowed = true;
        }
    }

    /// Number of problems recorded.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// True when no problem was recorded.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when more problems were found than the capacity holds.
    #[must_use]
    pub const fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The `i`-th problem, in the order found.
    #[must_use]
    pub const fn get(&self, i: usize) -> Option<D> {
        if i < self.len {
            self.items[i]
        } else {
            None
        }
    }

    /// All problems, in the order found.
    pub fn iter(&self) -> impl Iterator<Item = D> + '_ {
        self.items[..self.len].iter().flatten().copied()
    }
}

impl<D: Diagnostic, const N: usize> Diagnostics<D, N> {
    /// The problems of severity [`Severity::Error`].
    pub fn errors(&self) -> impl Iterator<Item = D> + '_ {
        self.iter().filter(|d| d.severity() == Severity::Error)
    }

    /// The problems of severity [`Severity::Warning`].
    pub fn warnings(&self) -> impl Iterator<Item = D> + '_ {
        self.iter().filter(|d| d.severity() == Severity::Warning)
    }

    /// True when at least one problem is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }

    /// The first error, if any.
    #[must_use]
    pub fn first_error(&self) -> Option<D> {
        self.errors().next()
    }
}

impl<D: Copy, const N: usize> Default for Diagnostics<D, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: Copy + fmt::Debug, const N: usize> fmt::Debug for Diagnostics<D, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Formats a problem as `field: message (source)`, the one-line form the CLI prints.
#[derive(Clone, Copy, Debug)]
pub struct OneLine<'a, D>(pub &'a D);

impl<D: Diagnostic> fmt::Display for OneLine<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.0.field(), self.0, self.0.source())
    }
}
