//! Every rule this crate applies, in one place: the project's rulings document (`docs/rules.md`,
//! compiled into the crate) and the rows of every rule table, so that a front end can explain
//! any rule identifier or ruling a message prints without the source tree.
//!
//! A message cites a ruling as `rules.md R10`
//! ([`Source::Decision`](crate::diagnostic::Source::Decision)); a rule of a table has a stable
//! identifier such as `idesc.reserved_bit` ([`Rule::id`]). [`lookup`] finds either,
//! case-insensitively, and suggests close names when it finds neither.
//!
//! # Examples
//! ```
//! use tcgen05::rules::{lookup, Found};
//!
//! let Ok(Found::Ruling(r)) = lookup("r19") else { panic!() };
//! assert_eq!(r.name, "R19");
//! assert!(r.body.contains("example"));
//! let Ok(Found::Rule(id)) = lookup("IDESC.RESERVED_BIT") else { panic!() };
//! assert_eq!(id, "idesc.reserved_bit");
//! let close = lookup("idesc.reserved_bits").unwrap_err();
//! assert_eq!(close.close[0], Some("idesc.reserved_bit"));
//! ```

use crate::diagnostic::Rule;
#[cfg(test)]
use crate::diagnostic::{Severity, Source};

/// The rulings document, `docs/rules.md`, as the crate was built with it.
pub const DOCUMENT: &str = include_str!("../rules.md");

/// The rule tables, one per module that has rules; [`Entry::group`] names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    Smem,
    Idesc,
    Zmask,
    ColumnMask,
    ZmaskSolve,
    Mma,
    Layout,
    TensorCopy,
    Tmem,
    Fragment,
    DataPath,
    Target,
    Ptx,
    Numerics,
    #[cfg(feature = "alloc")]
    Check,
    #[cfg(feature = "alloc")]
    Emulate,
}

const GROUPS: &[Group] = &[
    Group::Smem,
    Group::Idesc,
    Group::Zmask,
    Group::ColumnMask,
    Group::ZmaskSolve,
    Group::Mma,
    Group::Layout,
    Group::TensorCopy,
    Group::Tmem,
    Group::Fragment,
    Group::DataPath,
    Group::Target,
    Group::Ptx,
    Group::Numerics,
    #[cfg(feature = "alloc")]
    Group::Check,
    #[cfg(feature = "alloc")]
    Group::Emulate,
];

impl Group {
    /// The module whose table this is, as the rule identifiers and the document name it.
    const fn name(self) -> &'static str {
        match self {
            Group::Smem => "shared_memory_descriptor",
            Group::Idesc => "instruction_descriptor",
            Group::Zmask => "zero_column_mask",
            Group::ColumnMask => "zero_column_mask (column masks)",
            Group::ZmaskSolve => "zero_column_mask (solve)",
            Group::Mma => "shapes",
            Group::Layout => "canonical_layout",
            Group::TensorCopy => "tensor_copy",
            Group::Tmem => "tensor_memory",
            Group::Fragment => "tmem_fragment",
            Group::DataPath => "data_path",
            Group::Target => "targets",
            Group::Ptx => "ptx",
            Group::Numerics => "numerics",
            #[cfg(feature = "alloc")]
            Group::Check => "check",
            #[cfg(feature = "alloc")]
            Group::Emulate => "emulator",
        }
    }

    /// Row `i` of the group's table.
    fn row(self, i: usize) -> Option<Entry> {
        let rows: &'static [Rule] = match self {
            Group::Smem => &crate::shared_memory_descriptor::SMEM_RULES,
            Group::Idesc => &crate::instruction_descriptor::IDESC_RULES,
            Group::Zmask => &crate::zero_column_mask::ZMASK_RULES,
            Group::ColumnMask => &crate::zero_column_mask::COLUMN_MASK_RULES,
            Group::ZmaskSolve => &crate::zero_column_mask::SOLVE_RULES,
            Group::Mma => &crate::shapes::MMA_RULES,
            Group::Layout => &crate::canonical_layout::LAYOUT_RULES,
            Group::TensorCopy => &crate::tensor_copy::TENSOR_COPY_RULES,
            Group::Tmem => &crate::tensor_memory::TMEM_RULES,
            Group::Fragment => &crate::tmem_fragment::FRAGMENT_RULES,
            Group::DataPath => &crate::data_path::DATA_PATH_RULES,
            Group::Target => &crate::targets::TARGET_RULES,
            Group::Ptx => &crate::ptx::PTX_RULES,
            Group::Numerics => &crate::numerics::RULES,
            #[cfg(feature = "alloc")]
            Group::Check => &crate::check::RULES,
            #[cfg(feature = "alloc")]
            Group::Emulate => &crate::emulator::RULES,
        };
        rows.get(i).map(|rule| Entry {
            group: self.name(),
            rule,
        })
    }
}

/// One row of one of the crate's rule tables, with the table that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The module whose table holds the row.
    pub group: &'static str,
    /// The row: its identifier (`idesc.reserved_bit`, `check.tmem_columns`; the emulator's
    /// own rules are unprefixed, such as `operands`), severity, source, statement and message
    /// ([`Rule::text`] is what `tcgen05 explain` prints).
    pub rule: &'static Rule,
}

/// Every row of every rule table, table by table, in each table's order. The checker's and the
/// emulator's tables are there with the `alloc` feature, which those modules need.
pub fn entries() -> impl Iterator<Item = Entry> {
    GROUPS
        .iter()
        .flat_map(|&g| (0..).map_while(move |i| g.row(i)))
}

/// The rows whose identifier is `id` (exactly as stored; more than one if two tables ever share
/// an identifier).
pub fn entries_with_id(id: &str) -> impl Iterator<Item = Entry> + '_ {
    entries().filter(move |e| e.rule.id == id)
}

/// One section of the rulings document: a ruling where the PTX ISA is silent or contradicts
/// itself (`R1`-`R24` for the descriptors, shapes and Tensor Memory; `E1`-`E11` for the
/// emulator; `D1`-`D6` for the arithmetic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Its name, `R10`.
    pub name: &'static str,
    /// Its heading, one line.
    pub title: &'static str,
    /// The ruling and its evidence, as the document writes them (Markdown).
    pub body: &'static str,
}

impl Ruling {
    /// The number of an `R` ruling (`Some(10)` for `R10`), the form
    /// [`Source::Decision`](crate::diagnostic::Source::Decision) holds.
    #[must_use]
    pub fn number(&self) -> Option<u8> {
        self.name.strip_prefix('R')?.parse().ok()
    }
}

/// The heading that opens a ruling: `### R10. Title`.
fn ruling_heading(line: &'static str) -> Option<(&'static str, &'static str)> {
    let rest = line.strip_prefix("### ")?;
    let (name, title) = rest.split_once(". ")?;
    let mut chars = name.chars();
    let letter = chars.next()?;
    let digits = chars.as_str();
    if !matches!(letter, 'R' | 'E' | 'D' | 'T' | 'C' | 'I')
        || digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((name, title.trim()))
}

/// Every ruling of the document, in its order.
pub fn rulings() -> impl Iterator<Item = Ruling> {
    let mut rest = DOCUMENT;
    core::iter::from_fn(move || loop {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        if line.is_empty() && after.is_empty() {
            return None;
        }
        rest = after;
        let Some((name, title)) = ruling_heading(line) else {
            continue;
        };
        // The body runs to the next heading.
        let mut end = 0;
        for l in rest.split_inclusive('\n') {
            if l.starts_with('#') {
                break;
            }
            end += l.len();
        }
        let body = rest[..end].trim();
        rest = &rest[end..];
        return Some(Ruling { name, title, body });
    })
}

/// The ruling named `name` (`R10`, `r10`, `E11`), if the document has it.
#[must_use]
pub fn ruling(name: &str) -> Option<Ruling> {
    rulings().find(|r| r.name.eq_ignore_ascii_case(name.trim()))
}

/// The ruling a message's [`Source::Decision`](crate::diagnostic::Source::Decision) cites.
#[must_use]
pub fn decision(n: u8) -> Option<Ruling> {
    rulings().find(|r| r.number() == Some(n))
}

/// What a name looked up is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// A ruling of the document.
    Ruling(Ruling),
    /// A rule identifier, as stored ([`entries_with_id`] gives its rows).
    Rule(&'static str),
}

/// A name that is neither a ruling nor a rule identifier, with up to three close names, closest
/// first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unknown {
    /// Close rule identifiers or ruling names.
    pub close: [Option<&'static str>; 3],
}

impl Unknown {
    /// The close names, closest first.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.close.iter().flatten().copied()
    }
}

/// Finds a ruling (`R10`, `E11`) or a rule identifier (`idesc.reserved_bit`), ignoring case and
/// surrounding spaces; a leading `rules.md ` is accepted, as messages print it.
///
/// # Errors
/// [`Unknown`] with the closest names when `query` is neither.
pub fn lookup(query: &str) -> Result<Found, Unknown> {
    let q = query.trim();
    let q = strip_prefix_ignore_case(q, "rules.md").map_or(q, str::trim);
    if let Some(r) = ruling(q) {
        return Ok(Found::Ruling(r));
    }
    if let Some(e) = entries().find(|e| e.rule.id.eq_ignore_ascii_case(q)) {
        return Ok(Found::Rule(e.rule.id));
    }
    Err(Unknown { close: closest(q) })
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Every name [`lookup`] accepts: the rulings, then the rule identifiers (repeats included).
fn names() -> impl Iterator<Item = &'static str> {
    rulings()
        .map(|r| r.name)
        .chain(entries().map(|e| e.rule.id))
}

/// The three names closest to `q` by edit distance (a name containing `q` counts as distance
/// 1), among those within a third of the longer length, at least 2.
fn closest(q: &str) -> [Option<&'static str>; 3] {
    let mut best: [Option<(usize, &'static str)>; 3] = [None; 3];
    for name in names() {
        let d = if q.len() >= 3 && contains_ignore_case(name, q) {
            1
        } else {
            distance(q, name)
        };
        if d > (q.len().max(name.len()) / 3).max(2) || best.iter().flatten().any(|b| b.1 == name) {
            continue;
        }
        // Insert in order; ties keep the earlier name.
        let mut slot = Some((d, name));
        for b in &mut best {
            match (*b, slot) {
                (None, s) => {
                    *b = s;
                    slot = None;
                }
                (Some(have), Some(new)) if new.0 < have.0 => {
                    *b = Some(new);
                    slot = Some(have);
                }
                _ => {}
            }
        }
    }
    best.map(|b| b.map(|(_, n)| n))
}

fn contains_ignore_case(hay: &str, needle: &str) -> bool {
    hay.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Levenshtein distance between `a` and `b`, ignoring ASCII case; names longer than 64 bytes
/// count as far from everything.
fn distance(a: &str, b: &str) -> usize {
    const MAX: usize = 64;
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() > MAX || b.len() > MAX {
        return usize::MAX;
    }
    let mut row = [0usize; MAX + 1];
    for (j, r) in row.iter_mut().enumerate().take(b.len() + 1) {
        *r = j;
    }
    for (i, &ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(!ca.eq_ignore_ascii_case(&cb));
            let next = (diag + cost).min(row[j] + 1).min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests;

/// What `tcgen05 explain NAME` shows: the rulings and the rule rows a name stands for.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// For a ruling, that ruling; for a rule, the rulings its rows cite.
    pub rulings: alloc::vec::Vec<Ruling>,
    /// For a ruling, the rules citing it; for a rule, its rows.
    pub entries: alloc::vec::Vec<Entry>,
    /// True when the name is a rule identifier, false when it is a ruling.
    pub by_rule: bool,
}

/// The rulings and rules a name stands for ([`lookup`], then what each side cites).
///
/// # Errors
/// [`Unknown`] with the closest names when `name` is neither a ruling nor a rule identifier.
#[cfg(feature = "alloc")]
pub fn explain(name: &str) -> Result<Explained, Unknown> {
    use alloc::vec::Vec;
    match lookup(name)? {
        Found::Ruling(r) => Ok(Explained {
            rulings: alloc::vec![r],
            entries: match r.number() {
                Some(n) => entries()
                    .filter(|e| e.rule.source.ruling() == Some(n))
                    .collect(),
                None => Vec::new(),
            },
            by_rule: false,
        }),
        Found::Rule(id) => {
            let entries: Vec<Entry> = entries_with_id(id).collect();
            let mut rulings: Vec<Ruling> = Vec::new();
            for r in entries
                .iter()
                .filter_map(|e| decision(e.rule.source.ruling()?))
            {
                if !rulings.contains(&r) {
                    rulings.push(r);
                }
            }
            Ok(Explained {
                rulings,
                entries,
                by_rule: true,
            })
        }
    }
}
