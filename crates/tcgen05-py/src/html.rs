//! The bit tables that `_repr_html_` renders in Jupyter, from the core's layout tables and
//! row meanings.

use pyo3::prelude::*;
use tcgen05::bits::{LayoutField, Word};

use crate::problem::Problem;

/// One row of a descriptor's bit table (the core's `bit_layout!` row, read from one value).
#[pyclass(module = "tcgen05", frozen, name = "BitRow")]
#[derive(Clone, Debug)]
pub struct Row {
    /// Lowest bit.
    #[pyo3(get)]
    pub lo: u8,
    /// Highest bit.
    #[pyo3(get)]
    pub hi: u8,
    /// The field's name.
    #[pyo3(get)]
    pub field: String,
    /// The raw bits of the field.
    #[pyo3(get)]
    pub raw: u64,
    /// What the bits mean, as the core's row meaning says it.
    #[pyo3(get)]
    pub meaning: String,
}

#[pymethods]
impl Row {
    fn __repr__(&self) -> String {
        format!(
            "BitRow(lo={}, hi={}, field={:?}, raw={}, meaning={:?})",
            self.lo, self.hi, self.field, self.raw, self.meaning
        )
    }
}

/// The rows of a word read through its layout, each with the core's meaning.
pub fn word_rows<F: LayoutField>(word: Word<F>) -> Vec<Row> {
    word.rows()
        .map(|r| Row {
            lo: r.row.lo,
            hi: r.row.hi(),
            field: r.row.field.name().to_owned(),
            raw: r.bits(),
            meaning: r.to_string(),
        })
        .collect()
}

/// `s` with the HTML special characters escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// An HTML table: a caption, one row per field (highest bits first, as the PTX tables read
/// left to right in the bit diagrams), then every problem.
pub fn bit_table(caption: &str, rows: &[Row], problems: &[Problem]) -> String {
    let mut s = String::from("<table>\n<caption>");
    s.push_str(&escape(caption));
    s.push_str("</caption>\n<tr><th>bits</th><th>field</th><th>raw</th><th>meaning</th></tr>\n");
    for r in rows.iter().rev() {
        let bits = if r.lo == r.hi {
            r.lo.to_string()
        } else {
            format!("{}-{}", r.lo, r.hi)
        };
        s.push_str(&format!(
            "<tr><td>{bits}</td><td>{}</td><td>{:#x}</td><td>{}</td></tr>\n",
            escape(&r.field),
            r.raw,
            escape(&r.meaning)
        ));
    }
    for p in problems {
        s.push_str(&format!(
            "<tr><td colspan=\"4\"><b>{}</b> {}</td></tr>\n",
            p.severity,
            escape(&p.line())
        ));
    }
    s.push_str("</table>");
    s
}
