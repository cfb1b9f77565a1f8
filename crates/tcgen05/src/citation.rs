//! A rule's source cited in the numbering of the PTX ISA manual a file declares.
//!
//! PTX ISA 9.4 moved the tcgen05 chapter from §9.7.16 to §9.7.18 and inserted §9.7.18.10.8
//! ("Decompression of input matrices"), so the sparse-matrix sections (§9.7.16.10.8 before)
//! are §9.7.18.10.9 and the MMA instruction sections (§9.7.16.10.9.x before) are
//! §9.7.18.10.10.x (the PTX ISA 9.4 section tree; `docs/ptx-9.5.md`, "Renumbering"). The
//! project's rule tables keep the numbers of the PTX ISA 9.1 text they were written from
//! ([`Source`]); [`Citation`] prints them for a given manual version:
//!
//! - a file of `.version 9.4` or later: the section in PTX ISA 9.4's numbering (9.5's was not
//!   read; 9.4's is cited), labelled `PTX ISA 9.4`;
//! - a file of 8.6 to 9.3: the §9.7.16 numbering, labelled with the file's version;
//! - no file ([`Source::cite`] with `None`): the newest numbering read, PTX ISA 9.4's.
//!
//! Sections outside §9.7.16 (§4.4, §5.2, §11.1, ...) are labelled `PTX ISA 9.1` whatever the
//! version: their 9.4 numbers were not read. Tables keep their PTX ISA 9.1 numbers, named as
//! such (the 9.4 table numbers were not read either).

use core::fmt;

use crate::bytes::starts_with;
use crate::diagnostic::Source;

/// The newest PTX ISA version whose section numbering this crate has read: 9.4.
pub const NEWEST_NUMBERING: u8 = 94;

/// The first PTX ISA version that numbers the tcgen05 chapter §9.7.18.
pub const RENUMBERED_IN: u8 = 94;

/// A rule's source as the PTX ISA manual of one version numbers it ([`Source::cite`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Citation {
    /// The source, in the PTX ISA 9.1 numbering of the rule tables.
    pub source: Source,
    /// The manual version cited, major * 10 + minor.
    pub version: u8,
}

impl Source {
    /// This source cited in the numbering of the PTX ISA manual `version` (the `.version` a file
    /// declares); `None`: the newest numbering read ([`NEWEST_NUMBERING`]).
    ///
    /// # Examples
    /// ```
    /// use tcgen05::diagnostic::Source;
    ///
    /// let s = Source::PtxSection("9.7.16.10.9.1");
    /// assert_eq!(s.cite(Some(88)).to_string(), "PTX ISA 8.8 §9.7.16.10.9.1");
    /// assert_eq!(s.cite(Some(95)).to_string(), "PTX ISA 9.4 §9.7.18.10.10.1");
    /// assert_eq!(s.cite(None).to_string(), "PTX ISA 9.4 §9.7.18.10.10.1");
    /// ```
    #[must_use]
    pub const fn cite(self, version: Option<u8>) -> Citation {
        Citation {
            source: self,
            version: match version {
                Some(v) => v,
                None => NEWEST_NUMBERING,
            },
        }
    }
}

/// `section` in PTX ISA 9.4's numbering: the new prefix and the rest of the number, or `None`
/// for a section outside §9.7.16.
#[must_use]
pub fn renumbered(section: &str) -> Option<(&'static str, &str)> {
    // Longest prefixes first: the two that moved inside §9.7.18.10.
    const MAP: [(&str, &str); 3] = [
        ("9.7.16.10.8", "9.7.18.10.9"),
        ("9.7.16.10.9", "9.7.18.10.10"),
        ("9.7.16", "9.7.18"),
    ];
    let b = section.as_bytes();
    let mut i = 0;
    while i < MAP.len() {
        let (old, new) = MAP[i];
        let o = old.as_bytes();
        // The prefix must end at a number boundary: 9.7.16.10.8 is not a prefix of 9.7.16.10.80.
        if starts_with(b, o) && (b.len() == o.len() || b[o.len()] == b'.') {
            let (_, rest) = section.split_at(o.len());
            return Some((new, rest));
        }
        i += 1;
    }
    None
}

fn version_label(f: &mut fmt::Formatter<'_>, v: u8) -> fmt::Result {
    write!(f, "PTX ISA {}.{}", v / 10, v % 10)
}

fn section(f: &mut fmt::Formatter<'_>, s: &str, version: u8) -> fmt::Result {
    match renumbered(s) {
        Some((new, rest)) if version >= RENUMBERED_IN => {
            version_label(f, NEWEST_NUMBERING)?;
            write!(f, " §{new}{rest}")
        }
        Some(_) if version >= 86 => {
            version_label(f, version)?;
            write!(f, " §{s}")
        }
        _ => write!(f, "PTX ISA 9.1 §{s}"),
    }
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source {
            Source::Decision(r) => write!(f, "rules.md R{r}"),
            Source::PtxSection(s) => section(f, s, self.version),
            Source::PtxTable(t) => match Source::table_section(t) {
                Some(s) => {
                    section(f, s, self.version)?;
                    write!(f, " (Table {t} of PTX ISA 9.1)")
                }
                None => write!(f, "PTX ISA 9.1 Table {t}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    /// The PTX ISA 9.4 number of each section the rule tables cite, written out from the 9.4
    /// section tree (headings matched by hand to the 9.1 sections; docs/ptx-9.5.md).
    #[test]
    fn sections_in_the_9_4_numbering() {
        let rows = [
            ("9.7.16", "9.7.18"),
            ("9.7.16.1", "9.7.18.1"),
            ("9.7.16.2.1", "9.7.18.2.1"),
            ("9.7.16.2.1.1", "9.7.18.2.1.1"),
            ("9.7.16.3.1.2", "9.7.18.3.1.2"),
            ("9.7.16.3.3", "9.7.18.3.3"),
            ("9.7.16.4.1.1", "9.7.18.4.1.1"),
            ("9.7.16.4.2", "9.7.18.4.2"),
            ("9.7.16.4.3", "9.7.18.4.3"),
            ("9.7.16.7.1", "9.7.18.7.1"),
            ("9.7.16.8.3", "9.7.18.8.3"),
            ("9.7.16.9.2", "9.7.18.9.2"),
            ("9.7.16.9.3", "9.7.18.9.3"),
            ("9.7.16.10.4.4", "9.7.18.10.4.4"),
            ("9.7.16.10.7.1", "9.7.18.10.7.1"),
            ("9.7.16.10.8", "9.7.18.10.9"),
            ("9.7.16.10.9.1", "9.7.18.10.10.1"),
            ("9.7.16.10.9.3", "9.7.18.10.10.3"),
            ("9.7.16.11.1", "9.7.18.11.1"),
        ];
        for (old, new) in rows {
            let c = Source::PtxSection(old);
            assert_eq!(
                c.cite(Some(94)).to_string(),
                std::format!("PTX ISA 9.4 §{new}")
            );
            assert_eq!(
                c.cite(Some(95)).to_string(),
                std::format!("PTX ISA 9.4 §{new}")
            );
            assert_eq!(c.cite(None).to_string(), std::format!("PTX ISA 9.4 §{new}"));
            assert_eq!(
                c.cite(Some(93)).to_string(),
                std::format!("PTX ISA 9.3 §{old}")
            );
            assert_eq!(
                c.cite(Some(86)).to_string(),
                std::format!("PTX ISA 8.6 §{old}")
            );
        }
        // Not a prefix at a number boundary; outside the chapter.
        assert_eq!(renumbered("9.7.16.10.80"), Some(("9.7.18", ".10.80")));
        assert_eq!(renumbered("9.7.1"), None);
        for s in ["4.4", "5.5.7", "11.1", "9.7.14.5.14"] {
            let c = Source::PtxSection(s);
            assert_eq!(
                c.cite(Some(95)).to_string(),
                std::format!("PTX ISA 9.1 §{s}")
            );
            assert_eq!(
                c.cite(Some(88)).to_string(),
                std::format!("PTX ISA 9.1 §{s}")
            );
        }
        assert_eq!(
            Source::PtxTable(42).cite(Some(94)).to_string(),
            "PTX ISA 9.4 §9.7.18.4.2 (Table 42 of PTX ISA 9.1)"
        );
        assert_eq!(
            Source::PtxTable(39).cite(Some(90)).to_string(),
            "PTX ISA 9.0 §9.7.16.2.1 (Table 39 of PTX ISA 9.1)"
        );
        assert_eq!(
            Source::Decision(17).cite(Some(94)).to_string(),
            "rules.md R17"
        );
    }
}
