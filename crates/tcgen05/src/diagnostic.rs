//! Where each rule comes from, and fixed-capacity lists of every problem found in a value.
//!
//! Every error and warning in this crate names the field it concerns, the value it saw, and the
//! [`Source`] of the rule it applies: a table or section of the PTX ISA, or a ruling of the
//! project's `rules.md`. Validation never stops at the first problem: it fills a
//! [`Diagnostics`] list with all of them.

use core::fmt;

/// The document a rule comes from.
///
/// PTX sections follow PTX ISA 9.1 numbering (the same as the specification seeds); rulings are
/// those of the project's `rules.md` (R1-R24), which decide where the PTX text contradicts
/// itself or is silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Source {
    /// A numbered table of the PTX ISA, for example Table 40 (shared memory descriptor layout).
    PtxTable(u8),
    /// A section of the PTX ISA, for example `"9.7.16.4.1.1"` (the target note on absolute
    /// leading-dimension mode).
    PtxSection(&'static str),
    /// A ruling of `rules.md`, for example `Decision(3)` for R3.
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
            Source::Decision(r) => write!(f, "rules.md R{r}"),
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
    /// 42, 43 or 44 according to the kind; rules.md R8).
    LayoutTable,
    /// A source written as text, for rules that cite several sections at once (the numerics
    /// rules).
    Text(&'static str),
}

/// The section every rule with [`RuleSource::LayoutTable`] points to: the instruction
/// descriptor's table of the kind (Table 42, 43 or 44).
const LAYOUT_TABLE_SOURCE: &str = "PTX ISA 9.7.16.4.2 Tables 42-44 (the layout of the kind)";

impl RuleSource {
    /// The ruling the source is, if it is one (`Some(10)` for `rules.md R10`).
    #[must_use]
    pub const fn ruling(self) -> Option<u8> {
        match self {
            RuleSource::Fixed(Source::Decision(n)) => Some(n),
            _ => None,
        }
    }
}

impl fmt::Display for RuleSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RuleSource::Fixed(s) => write!(f, "{s}"),
            RuleSource::LayoutTable => f.write_str(LAYOUT_TABLE_SOURCE),
            RuleSource::Text(t) => f.write_str(t),
        }
    }
}

/// One rule, written once: its identifier, its source, how bad breaking it is, what it says
/// and, where the table writes it, the message a problem of it prints.
///
/// This is the one row type of every rule table of the crate: each module that has rules keeps
/// one `const` table of these, indexed by its rule enum (a test checks that every variant has
/// its row, in order); the errors of that module read their [`Diagnostic::rule_id`],
/// [`Diagnostic::source`] and [`Diagnostic::severity`] from it, and
/// [`rules::entries`](crate::rules::entries) lists every table. What a rule's row does not
/// hold (the field it concerns, whether ptxas checks it) stays with its enum.
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
    /// The message a problem of this rule prints, `{}` standing for the value where the message
    /// has one, for the tables that write their messages (the checker's, the emulator's and the
    /// numerics'); `None` where the error type writes each message from its values.
    pub message: Option<&'static str>,
}

impl Rule {
    /// A rule whose source is the same for every value and whose errors write their own
    /// messages.
    #[must_use]
    pub const fn fixed(
        id: &'static str,
        source: Source,
        severity: Severity,
        statement: &'static str,
    ) -> Rule {
        Rule {
            id,
            source: RuleSource::Fixed(source),
            severity,
            statement,
            message: None,
        }
    }

    /// A rule whose message is written in its row and says the rule too: the message serves
    /// as the statement.
    #[must_use]
    pub const fn with_message(
        id: &'static str,
        source: RuleSource,
        severity: Severity,
        message: &'static str,
    ) -> Rule {
        Rule {
            id,
            source,
            severity,
            statement: message,
            message: Some(message),
        }
    }

    /// What `tcgen05 explain` prints for the rule: its message where the row writes one, else
    /// its statement.
    #[must_use]
    pub const fn text(&self) -> &'static str {
        match self.message {
            Some(m) => m,
            None => self.statement,
        }
    }
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

/// Defines the problems of a decoded value kept as a set of failed checks: a bit per check, in
/// the order the problems are reported, plus the raw value and context that each problem is
/// built from when read. Decoding then fills no list; reading answers the questions of
/// [`Diagnostics`] with the same names (`len`, `get`, `iter`, `errors`, `first_error`, ...), and
/// `to_list` gives one.
///
/// `problem_at(context..., position)` builds the problem of a position; `warnings` is the mask of
/// the positions whose rule is a warning.
macro_rules! problem_set {
    (
        $(#[$doc:meta])*
        set $Set:ident, iterator $Iter:ident, bits $S:ty;
        context { $($c:ident: $ct:ty),+ $(,)? }
        problem $E:ty, list $L:ty, warnings $W:expr, built by $at:ident;
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $Set {
            $(pub(super) $c: $ct,)+
            pub(super) set: $S,
        }

        impl $Set {
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

            /// Always false: the set holds every problem one value can have. (Kept so that this
            /// type answers the same questions as a `Diagnostics` list.)
            #[must_use]
            pub const fn overflowed(&self) -> bool {
                false
            }

            /// The `i`-th problem, in the order reported.
            #[must_use]
            pub const fn get(&self, i: usize) -> Option<$E> {
                let mut set = self.set;
                let mut n = 0;
                while set != 0 {
                    if n == i {
                        return Some($at($(self.$c,)+ set.trailing_zeros()));
                    }
                    set &= set - 1;
                    n += 1;
                }
                None
            }

            /// All problems, in the order reported.
            #[inline]
            pub fn iter(&self) -> $Iter {
                self.only(!0)
            }

            /// The problems of severity `Severity::Error`.
            pub fn errors(&self) -> $Iter {
                self.only(!$W)
            }

            /// The problems of severity `Severity::Warning`.
            pub fn warnings(&self) -> $Iter {
                self.only($W)
            }

            #[inline]
            fn only(&self, mask: $S) -> $Iter {
                $Iter {
                    $($c: self.$c,)+
                    set: self.set & mask,
                }
            }

            /// Number of errors.
            #[must_use]
            pub const fn error_count(&self) -> usize {
                (self.set & !$W).count_ones() as usize
            }

            /// Number of warnings.
            #[must_use]
            pub const fn warning_count(&self) -> usize {
                (self.set & $W).count_ones() as usize
            }

            /// True when at least one problem is an error.
            #[must_use]
            pub const fn has_errors(&self) -> bool {
                self.set & !$W != 0
            }

            /// The first error, in the order reported.
            #[must_use]
            pub const fn first_error(&self) -> Option<$E> {
                let errors = self.set & !$W;
                if errors == 0 {
                    None
                } else {
                    Some($at($(self.$c,)+ errors.trailing_zeros()))
                }
            }

            /// The problems as a fixed-capacity list.
            #[must_use]
            pub const fn to_list(&self) -> $L {
                let mut out = <$L>::new();
                let mut set = self.set;
                while set != 0 {
                    out.push($at($(self.$c,)+ set.trailing_zeros()));
                    set &= set - 1;
                }
                out
            }
        }

        impl core::fmt::Debug for $Set {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl IntoIterator for &$Set {
            type Item = $E;
            type IntoIter = $Iter;

            fn into_iter(self) -> $Iter {
                self.iter()
            }
        }

        #[doc = concat!("The problems of a [`", stringify!($Set), "`], in the order reported.")]
        #[derive(Clone, Debug)]
        #[must_use = "iterators are lazy and do nothing unless consumed"]
        pub struct $Iter {
            $($c: $ct,)+
            set: $S,
        }

        impl Iterator for $Iter {
            type Item = $E;

            #[inline]
            fn next(&mut self) -> Option<$E> {
                if self.set == 0 {
                    return None;
                }
                let position = self.set.trailing_zeros();
                self.set &= self.set - 1;
                Some($at($(self.$c,)+ position))
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.set.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $Iter {}

        impl core::iter::FusedIterator for $Iter {}
    };
}
pub(crate) use problem_set;

/// Formats a problem as `field: message (source)`, the one-line form the CLI prints.
#[derive(Clone, Copy, Debug)]
pub struct OneLine<'a, D>(pub &'a D);

impl<D: Diagnostic> fmt::Display for OneLine<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.0.field(), self.0, self.0.source())
    }
}

impl Rule {
    /// The rule's source, for the rules whose source is [`RuleSource::Fixed`]; `fallback` for
    /// those that take it from a layout table.
    pub(crate) const fn fixed_source(&self, fallback: Source) -> Source {
        match self.source {
            RuleSource::Fixed(s) => s,
            RuleSource::LayoutTable | RuleSource::Text(_) => fallback,
        }
    }
}

/// Checks a rule table in tests: every identifier is `prefix.snake_case`, unique, and every
/// statement is one sentence.
#[cfg(test)]
pub(crate) fn check_rule_ids<'a>(prefix: &str, rules: impl IntoIterator<Item = &'a Rule>) {
    let mut seen: std::vec::Vec<&str> = std::vec::Vec::new();
    for r in rules {
        let name = r.id.strip_prefix(prefix).and_then(|n| n.strip_prefix('.'));
        let name = name.unwrap_or_else(|| panic!("{} does not start with {prefix}.", r.id));
        assert!(
            !name.is_empty()
                && name.starts_with(|c: char| c.is_ascii_lowercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && !name.contains("__")
                && !name.ends_with('_'),
            "{} is not module.snake_case",
            r.id
        );
        assert!(!seen.contains(&r.id), "{} twice", r.id);
        seen.push(r.id);
        assert!(
            r.statement.ends_with('.') && !r.statement.trim_end_matches('.').contains(". "),
            "{}: the statement is one sentence",
            r.id
        );
    }
    assert!(!seen.is_empty());
}

/// Checks a module's rule table in tests: well-formed unique identifiers
/// ([`check_rule_ids`]), and for one error of every rule the field, source and severity
/// expected from the PTX text or ruling, with a row of the table as its rule.
#[cfg(test)]
pub(crate) fn check_rule_table<D: Diagnostic>(
    prefix: &str,
    rows: &[Rule],
    cases: &[(D, &str, Source, Severity)],
) {
    check_rule_ids(prefix, rows);
    let mut hit = std::vec![false; rows.len()];
    for (e, field, source, severity) in cases {
        assert_eq!(
            (e.field(), e.source(), e.severity()),
            (*field, *source, *severity),
            "{e:?}"
        );
        let id = e
            .rule_id()
            .unwrap_or_else(|| panic!("{e:?} has no rule id"));
        let row = rows.iter().position(|r| r.id == id);
        let row = row.unwrap_or_else(|| panic!("{id} is not a row of the table"));
        hit[row] = true;
    }
    for (row, hit) in rows.iter().zip(hit) {
        assert!(hit, "no case breaks {}", row.id);
    }
}

/// Checks in tests that a rule table is indexed by its rule enum: `all` holds every variant
/// once, in the order of `rows`; `index` (the enum's own lookup) gives each variant its
/// position; and each row's identifier, after its table's prefix, is the variant's name in snake
/// case, or kebab case for the tables whose identifiers are (`ReservedBit`: `reserved_bit`),
/// except for the `(variant, name)` pairs of `renamed`.
#[cfg(test)]
pub(crate) fn check_rows_follow_enum<E: Copy + fmt::Debug>(
    all: &[E],
    index: impl Fn(E) -> usize,
    rows: &[Rule],
    renamed: &[(&str, &str)],
) {
    use std::string::{String, ToString};
    assert_eq!(all.len(), rows.len(), "one variant per row: {all:?}");
    let mut used = std::vec![false; renamed.len()];
    for (i, &v) in all.iter().enumerate() {
        assert_eq!(index(v), i, "{v:?} reads row {}, not its own {i}", index(v));
        let debug = std::format!("{v:?}");
        let variant = debug.split(['(', ' ', '{']).next().unwrap_or("");
        let id = rows[i].id;
        let name = id.rsplit_once('.').map_or(id, |(_, n)| n);
        let sep = if name.contains('-') { '-' } else { '_' };
        let want = match renamed.iter().position(|(v, _)| *v == variant) {
            Some(k) => {
                used[k] = true;
                renamed[k].1.to_string()
            }
            None => {
                let mut out = String::new();
                for c in variant.chars() {
                    if c.is_ascii_uppercase() && !out.is_empty() {
                        out.push(sep);
                    }
                    out.push(c.to_ascii_lowercase());
                }
                out
            }
        };
        assert_eq!(name, want, "row {i}, {id}, is not the row of {variant}");
    }
    let unused: std::vec::Vec<_> = renamed.iter().zip(&used).filter(|(_, u)| !**u).collect();
    assert!(
        unused.is_empty(),
        "renamed variants not in the enum: {unused:?}"
    );
}
