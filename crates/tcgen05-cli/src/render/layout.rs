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

/// The entries of a value list (the instruction descriptor's JSON order, PTX ISA Tables 42-44),
/// each with its value in `raw`.
pub fn listed_values<F: LayoutField>(
    list: &'static [Listed<F>],
    raw: u64,
) -> impl Iterator<Item = (&'static BitField<F>, RowValue)> {
    list.iter().map(move |l| (&l.row, l.value(raw)))
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

/// ` key=value` for each entry of a value list that its [`Show`] writes (a batch line of the
/// instruction descriptor): a set switch or flag as its key alone.
pub fn listed_text<F: Copy>(buf: &mut String, list: &'static [Listed<F>], raw: u64) {
    for l in list {
        let v = l.value(raw);
        if l.show == Show::UnlessZero && v.is_zero() {
            continue;
        }
        buf.push(' ');
        buf.push_str(l.key);
        if !matches!(v, RowValue::Flag(true) | RowValue::Bool(true)) {
            buf.push('=');
            value_text(buf, &l.row, v);
        }
    }
}
