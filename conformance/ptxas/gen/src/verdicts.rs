//! The committed verdict of every form: `conformance/ptxas/verdicts.tsv.gz`.
//!
//! One line per form, sorted, tab-separated: the target, the PTX ISA version, the form's key (its
//! PTX line; a kernel-level form's lines joined by spaces; a minimal kernel's entry name,
//! instruction descriptor and a hash of its text), how many times the enumeration writes it
//! (a few MMA forms come from two products), our verdict (`legal`, `illegal` or
//! `ours-alone`), the rule ids of our errors (`-` for none) and ptxas's verdict (`accepts`,
//! `refuses`). `run.sh` writes it from a ptxas run; the unit test of this program compares the
//! builders' current verdicts with it without ptxas, and `run.sh --check` compares a new ptxas
//! run with it, form by form.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

/// The file's first line: the names of its columns.
const HEADER: &str = "#target\tversion\tform\ttimes\tours\trules\tptxas";

/// One form's verdicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// How many times the enumeration writes the form.
    pub times: usize,
    /// Our verdict: `legal`, `illegal` or `ours-alone`.
    pub ours: String,
    /// The rule ids of our errors, comma-separated; `-` for none.
    pub rules: String,
    /// ptxas's verdict: `accepts`, `refuses`, or `unknown` when no ptxas ran.
    pub ptxas: String,
}

impl Entry {
    /// The entry as the diff messages show it.
    fn show(&self, with_ptxas: bool) -> String {
        let mut s = format!(
            "ours {} (rules {}), enumerated {}x",
            self.ours, self.rules, self.times
        );
        if with_ptxas {
            s.push_str(&format!(", ptxas {}", self.ptxas));
        }
        s
    }
}

/// Every form's verdicts, by form id (`target<TAB>version<TAB>key`).
pub type Table = BTreeMap<String, Entry>;

/// The id of a form in the table.
pub fn form_id(target: &str, version: u8, key: &str) -> String {
    format!("{target}\t{version}\t{key}")
}

/// The table as text: the header, then one sorted line per form.
pub fn to_text(t: &Table) -> String {
    let mut s = String::from(HEADER);
    s.push('\n');
    for (id, e) in t {
        s.push_str(&format!(
            "{id}\t{}\t{}\t{}\t{}\n",
            e.times, e.ours, e.rules, e.ptxas
        ));
    }
    s
}

/// Reads the table's text; a malformed line is an error naming its number.
pub fn parse(text: &str) -> Result<Table, String> {
    let mut t = Table::new();
    for (n, line) in text.lines().enumerate() {
        if n == 0 && line == HEADER {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let [target, version, key, times, ours, rules, ptxas] = f[..] else {
            return Err(format!("line {}: {} columns, expected 7", n + 1, f.len()));
        };
        let times = times
            .parse()
            .map_err(|_| format!("line {}: times `{times}` is not a count", n + 1))?;
        let entry = Entry {
            times,
            ours: ours.to_string(),
            rules: rules.to_string(),
            ptxas: ptxas.to_string(),
        };
        let id = format!("{target}\t{version}\t{key}");
        if t.insert(id, entry).is_some() {
            return Err(format!("line {}: form listed twice", n + 1));
        }
    }
    Ok(t)
}

/// Writes the table gzip-compressed (the gzip header carries no time, so the bytes depend only
/// on the table).
pub fn write_gz(path: &Path, t: &Table) -> std::io::Result<()> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(to_text(t).as_bytes())?;
    std::fs::write(path, enc.finish()?)
}

/// Reads a table written by [`write_gz`].
pub fn read_gz(path: &Path) -> Result<Table, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every difference between the committed table `old` and `new`, one message per form naming it
/// and both verdicts: a form whose verdicts changed, a form missing from `new`, a form added.
/// `with_ptxas`: compare ptxas's verdict too (false where `new` comes from no ptxas run).
pub fn diff(old: &Table, new: &Table, with_ptxas: bool) -> Vec<String> {
    let same = |a: &Entry, b: &Entry| {
        a.times == b.times
            && a.ours == b.ours
            && a.rules == b.rules
            && (!with_ptxas || a.ptxas == b.ptxas)
    };
    let name = |id: &str| format!("`{}`", id.replace('\t', " "));
    let mut out = Vec::new();
    for (id, o) in old {
        match new.get(id) {
            Some(n) if same(o, n) => {}
            Some(n) => out.push(format!(
                "changed: {}: committed {}, now {}",
                name(id),
                o.show(with_ptxas),
                n.show(with_ptxas)
            )),
            None => out.push(format!(
                "missing: {}: committed {}, no longer enumerated",
                name(id),
                o.show(with_ptxas)
            )),
        }
    }
    for (id, n) in new {
        if !old.contains_key(id) {
            out.push(format!(
                "added: {}: not committed, now {}",
                name(id),
                n.show(with_ptxas)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{diff, parse, to_text};

    const TEXT: &str = "#target\tversion\tform\ttimes\tours\trules\tptxas\n\
        sm_100a\t86\ttcgen05.a;\t1\tlegal\t-\taccepts\n\
        sm_100a\t86\ttcgen05.b;\t2\tillegal\tptx.x\trefuses\n";

    /// The text reads back to the same text, and a malformed line is refused with its number.
    #[test]
    fn text_round_trips_and_bad_lines_are_named() {
        let t = parse(TEXT).expect("a well-formed table");
        assert_eq!(to_text(&t), TEXT);
        let e = parse("sm_100a\t86\ttcgen05.a;\tlegal\t-\taccepts\n").expect_err("6 columns");
        assert!(e.starts_with("line 1: 6 columns"), "{e}");
        let e = parse("sm_100a\t86\tf;\tmany\tlegal\t-\taccepts\n").expect_err("a bad count");
        assert!(e.contains("times `many`"), "{e}");
        let twice = format!("{TEXT}sm_100a\t86\ttcgen05.a;\t1\tlegal\t-\taccepts\n");
        assert!(parse(&twice)
            .expect_err("a repeated form")
            .contains("line 4"));
    }

    /// A changed verdict, a changed count, a missing and an added form are each one message
    /// naming the form; ptxas's verdict counts only when asked for.
    #[test]
    fn diff_names_every_changed_missing_and_added_form() {
        let old = parse(TEXT).expect("a well-formed table");
        let new = parse(
            "sm_100a\t86\ttcgen05.b;\t1\tillegal\tptx.x\tunknown\n\
             sm_100a\t86\ttcgen05.c;\t1\tlegal\t-\tunknown\n",
        )
        .expect("a well-formed table");
        let d = diff(&old, &new, false);
        assert_eq!(d.len(), 3, "{d:#?}");
        assert!(
            d[0].starts_with("missing: `sm_100a 86 tcgen05.a;`"),
            "{}",
            d[0]
        );
        assert!(
            d[1].starts_with("changed: `sm_100a 86 tcgen05.b;`"),
            "{}",
            d[1]
        );
        assert!(d[1].contains("enumerated 2x") && d[1].contains("enumerated 1x"));
        assert!(
            d[2].starts_with("added: `sm_100a 86 tcgen05.c;`"),
            "{}",
            d[2]
        );
        let same_but_ptxas = parse(&TEXT.replace("accepts", "refuses")).expect("well-formed");
        assert!(diff(&old, &same_but_ptxas, false).is_empty());
        assert_eq!(diff(&old, &same_but_ptxas, true).len(), 1);
    }
}
