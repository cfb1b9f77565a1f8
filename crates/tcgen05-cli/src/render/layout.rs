//! Descriptor fields, for every descriptor with a `bit_layout!` table: the human bit table, the
//! `"fields"` JSON object and the `key=value` text of batch lines, all made from the core's
//! layout rows, their [`Meaning`] and their values ([`RowValue`]). No field is named here.

use std::fmt;

use tcgen05::bits::{Addressing, BitField, LayoutField, Listed, Meaning, RowValue, Show, Word};
use tcgen05::diagnostic::Diagnostic;

use super::json::Obj;
use super::text::{concerns, push_dec, BitRange, RawBits, Row};

/// The value rows of a word, each with its value.
pub fn word_values<F: LayoutField>(
    word: Word<F>,
) -> impl Iterator<Item = (&'static BitField<F>, RowValue)> {
    word.rows().filter_map(|r| r.value().map(|v| (r.row, v)))
}

/// The value rows of `layout` with the values `value` gives (fields that may not encode, such as
/// the fields of a failed `encode`).
pub fn given_values<F: LayoutField>(
    layout: &'static [BitField<F>],
    value: impl Fn(F) -> Option<RowValue>,
) -> impl Iterator<Item = (&'static BitField<F>, RowValue)> {
    layout
        .iter()
        .filter_map(move |r| value(r.field).map(|v| (r, v)))
}

/// The human table of a word: bit range, row name, raw bits, the core's meaning, and whether a
/// problem concerns the row.
pub fn word_rows<F: LayoutField, D: Diagnostic>(word: Word<F>, problems: &[D]) -> Vec<Row> {
    word.rows()
        .map(|r| {
            let row = r.row;
            let field = row.field.name();
            Row {
                bits: BitRange(row.lo, row.hi()).to_string(),
                field: field.to_string(),
                raw: RawBits {
                    value: r.bits(),
                    width: row.width,
                }
                .to_string(),
                meaning: r.to_string(),
                flagged: problems
                    .iter()
                    .any(|d| concerns(d.field(), field, row.lo, row.hi())),
            }
        })
        .collect()
}

/// Writes one value as JSON: numbers and bytes as numbers, a flag as 0 or 1, a switch as `true`
/// or `false`, a code by its name (or its number when the enumeration does not define it).
#[inline]
fn value_json(buf: &mut String, v: RowValue) {
    match v {
        RowValue::Number(n) | RowValue::Bytes(n) | RowValue::InvalidCode(n) => push_dec(buf, n),
        RowValue::Flag(b) => buf.push(if b { '1' } else { '0' }),
        RowValue::Bool(b) => buf.push_str(if b { "true" } else { "false" }),
        RowValue::Name(c) => {
            buf.push('"');
            buf.push_str(c.name);
            buf.push('"');
        }
    }
}

/// Writes one value for a batch line: as in JSON, but a byte address in hexadecimal and a name
/// without quotes.
fn value_text<F: Copy>(buf: &mut String, row: &BitField<F>, v: RowValue) {
    match (row.meaning, v) {
        (
            Meaning::Bytes {
                addressing: Addressing::Address,
                ..
            },
            RowValue::Bytes(b),
        ) => {
            use std::fmt::Write as _;
            // Writing to a String cannot fail.
            let _ = write!(buf, "{b:#x}");
        }
        (_, RowValue::Name(c)) => buf.push_str(c.name),
        (_, v) => value_json(buf, v),
    }
}

/// `"fields": {...}`: each value row under its key; consecutive rows sharing a key form a list.
pub fn fields_json<F: LayoutField>(
    o: &mut Obj<'_>,
    values: impl Iterator<Item = (&'static BitField<F>, RowValue)>,
) -> fmt::Result {
    let buf = o.key(key!("fields"));
    let mut p = Obj::open(buf);
    let mut values = values.peekable();
    while let Some((row, v)) = values.next() {
        let key = row.field.key();
        let same = |(r, _): &(&'static BitField<F>, RowValue)| r.field.key() == key;
        let list = values.peek().is_some_and(same);
        let b = p.named_key(key);
        if list {
            b.push('[');
        }
        value_json(b, v);
        while let Some((_, v)) = values.next_if(same) {
            b.push(',');
            value_json(b, v);
        }
        if list {
            b.push(']');
        }
    }
    p.close();
    Ok(())
}

/// ` key=value` for each value row of a batch line; consecutive rows sharing a key give
/// `key=a,b,c`.
pub fn fields_text<F: LayoutField>(
    buf: &mut String,
    values: impl Iterator<Item = (&'static BitField<F>, RowValue)>,
) {
    let mut values = values.peekable();
    while let Some((row, v)) = values.next() {
        let key = row.field.key();
        buf.push(' ');
        buf.push_str(key);
        buf.push('=');
        value_text(buf, row, v);
        while let Some((row, v)) = values.next_if(|(r, _)| r.field.key() == key) {
            buf.push(',');
            value_text(buf, row, v);
        }
    }
}

/// The bits of a raw value that a value list entry reads: the row's bits and, for
/// [`Meaning::Picked`], the other bit above them; `None` for a row too wide to be written ahead
/// (more than [`Group::MAX_ENTRY_BITS`] bits).
fn entry_bits<F: Copy>(l: &Listed<F>) -> Option<u64> {
    let (lo, width) = (l.row.lo, l.row.width);
    if width > Group::MAX_ENTRY_BITS {
        return None;
    }
    let mut mask = ((1u64 << width) - 1) << lo;
    if let Meaning::Picked { with, .. } = l.row.meaning {
        mask |= 1 << with;
    }
    Some(mask)
}

/// A run of consecutive entries of a value list, written together: either the text of all of
/// them for each value of the bits they read (at most [`Group::MAX_BITS`] bits), or one entry
/// written from its value each time.
enum Group {
    /// Texts made ahead, found by the entries' bits gathered into one index.
    Made {
        /// The runs of consecutive bits read: lowest bit, mask of the run's width, and where
        /// the run goes in the index.
        runs: Vec<(u32, u64, u32)>,
        /// Every text, one after the other.
        texts: String,
        /// The end of each text in `texts`, by index.
        ends: Vec<u32>,
    },
    /// The entry at this place of the list, written each time.
    Each(usize),
}

/// How an entry of a value list is written.
type Writer<F> = fn(&mut String, &Listed<F>, RowValue);

impl Group {
    /// The widest row whose texts are made ahead.
    const MAX_ENTRY_BITS: u8 = 6;

    /// The most bits one group of texts reads (1024 texts).
    const MAX_BITS: u32 = 10;

    /// The groups of `list`, in its order: each entry joins the group before it while the bits
    /// they read together stay within [`Group::MAX_BITS`].
    fn split<F: Copy>(list: &[Listed<F>], between: &str, write: Writer<F>) -> Vec<Group> {
        let mut groups = Vec::new();
        let mut start = 0;
        let mut mask = 0u64;
        for (i, l) in list.iter().enumerate() {
            match entry_bits(l) {
                Some(m) if (mask | m).count_ones() <= Self::MAX_BITS => mask |= m,
                Some(m) => {
                    groups.push(Self::made(
                        list.get(start..i).unwrap_or_default(),
                        mask,
                        between,
                        write,
                    ));
                    start = i;
                    mask = m;
                }
                None => {
                    if start < i {
                        groups.push(Self::made(
                            list.get(start..i).unwrap_or_default(),
                            mask,
                            between,
                            write,
                        ));
                    }
                    groups.push(Group::Each(i));
                    start = i + 1;
                    mask = 0;
                }
            }
        }
        if start < list.len() {
            groups.push(Self::made(
                list.get(start..).unwrap_or_default(),
                mask,
                between,
                write,
            ));
        }
        groups
    }

    /// The texts of `entries` for each value of `mask`'s bits.
    fn made<F: Copy>(entries: &[Listed<F>], mask: u64, between: &str, write: Writer<F>) -> Group {
        let mut runs = Vec::new();
        let (mut rest, mut at) = (mask, 0);
        while rest != 0 {
            let lo = rest.trailing_zeros();
            let width = (rest >> lo).trailing_ones();
            let m = if width >= 64 {
                u64::MAX
            } else {
                (1 << width) - 1
            };
            runs.push((lo, m, at));
            at += width;
            rest &= !(m << lo);
        }
        let (mut texts, mut ends) = (String::new(), Vec::new());
        for i in 0..1u64 << at {
            let raw = runs
                .iter()
                .fold(0, |raw, &(lo, m, at)| raw | ((i >> at) & m) << lo);
            for (n, l) in entries.iter().enumerate() {
                if n > 0 {
                    texts.push_str(between);
                }
                write(&mut texts, l, l.value(raw));
            }
            ends.push(u32::try_from(texts.len()).unwrap_or(u32::MAX));
        }
        Group::Made { runs, texts, ends }
    }
}

/// The groups of each value list, writer and separator, found by their addresses.
type Made = Vec<((usize, usize, usize), Vec<Group>)>;

thread_local! {
    /// The groups made on this thread.
    static LISTED_TEXTS: std::cell::RefCell<Made> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Writes each entry of `list` with `write`, `between` between two entries, from texts made
/// once per thread for each value of the bits that a few entries read together.
fn write_listed<F: Copy>(
    buf: &mut String,
    list: &'static [Listed<F>],
    raw: u64,
    between: &str,
    write: Writer<F>,
) {
    let id = (
        list.as_ptr() as usize,
        write as usize,
        between.as_ptr() as usize,
    );
    LISTED_TEXTS.with_borrow_mut(|made| {
        let i = match made.iter().position(|(at, _)| *at == id) {
            Some(i) => i,
            None => {
                made.push((id, Group::split(list, between, write)));
                made.len() - 1
            }
        };
        let Some((_, groups)) = made.get(i) else {
            return;
        };
        for (n, g) in groups.iter().enumerate() {
            if n > 0 {
                buf.push_str(between);
            }
            match g {
                Group::Made { runs, texts, ends } => {
                    let i = runs
                        .iter()
                        .fold(0, |i, &(lo, m, at)| i | ((raw >> lo) & m) << at)
                        as usize;
                    let start = match i.checked_sub(1) {
                        Some(j) => ends.get(j).copied().unwrap_or(0),
                        None => 0,
                    };
                    let end = ends.get(i).copied().unwrap_or(0);
                    buf.push_str(texts.get(start as usize..end as usize).unwrap_or_default());
                }
                Group::Each(i) => {
                    if let Some(l) = list.get(*i) {
                        write(buf, l, l.value(raw));
                    }
                }
            }
        }
    });
}

/// `"key":value`.
fn entry_json<F: Copy>(buf: &mut String, l: &Listed<F>, v: RowValue) {
    buf.push('"');
    buf.push_str(l.key);
    buf.push_str("\":");
    value_json(buf, v);
}

/// ` key=value`, ` key` for a set switch or flag, or nothing where [`Show::UnlessZero`] leaves
/// the value out.
fn entry_text<F: Copy>(buf: &mut String, l: &Listed<F>, v: RowValue) {
    if l.show == Show::UnlessZero && v.is_zero() {
        return;
    }
    buf.push(' ');
    buf.push_str(l.key);
    if !matches!(v, RowValue::Flag(true) | RowValue::Bool(true)) {
        buf.push('=');
        value_text(buf, &l.row, v);
    }
}

/// `"fields": {...}` of a value list (the instruction descriptor's JSON order, PTX ISA Tables
/// 42-44): each entry's value in `raw` under its key (the keys of a list are distinct,
/// `bits::lists_within`).
pub fn listed_json<F: Copy>(o: &mut Obj<'_>, list: &'static [Listed<F>], raw: u64) -> fmt::Result {
    let buf = o.key(key!("fields"));
    buf.push('{');
    write_listed(buf, list, raw, ",", entry_json);
    buf.push('}');
    Ok(())
}

/// ` key=value` for each entry of a value list that its [`Show`] writes (a batch line of the
/// instruction descriptor): a set switch or flag as its key alone.
pub fn listed_text<F: Copy>(buf: &mut String, list: &'static [Listed<F>], raw: u64) {
    write_listed(buf, list, raw, "", entry_text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcgen05::instruction_descriptor::{json_fields, line_fields};
    use tcgen05::Kind;

    /// Each entry written from its value, without the texts made ahead.
    fn direct<F: Copy>(list: &[Listed<F>], raw: u64, between: &str, write: Writer<F>) -> String {
        let mut out = String::new();
        for (n, l) in list.iter().enumerate() {
            if n > 0 {
                out.push_str(between);
            }
            write(&mut out, l, l.value(raw));
        }
        out
    }

    #[test]
    fn texts_made_ahead_equal_the_values_written_each_time() {
        let mut s = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let raw = s & 0xffff_ffff;
            for kind in Kind::ALL {
                let mut json = String::new();
                write_listed(&mut json, json_fields(kind), raw, ",", entry_json);
                assert_eq!(json, direct(json_fields(kind), raw, ",", entry_json));
                let mut line = String::new();
                listed_text(&mut line, line_fields(kind), raw);
                assert_eq!(line, direct(line_fields(kind), raw, "", entry_text));
            }
        }
    }
}
