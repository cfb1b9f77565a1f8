//! `tcgen05.explain`: the rulings and rules of the core's rules document and tables
//! (`tcgen05::rules::explain`), as the command's `explain --json` gives them.

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use tcgen05::diagnostic::Severity;
use tcgen05::rules;

/// The ruling (`"R10"`) or rule identifier (`"idesc.reserved_bit"`) `name` stands for, case
/// ignored: `{"rulings": [{"name", "title", "text"}], "rules": [{"id", "group", "severity",
/// "source", "ruling", "statement"}]}` (docs/rules.md). Raises `KeyError` naming the closest
/// names when `name` is neither.
#[pyfunction]
pub fn explain<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let found = rules::explain(name).map_err(|u| {
        let close: Vec<&str> = u.names().collect();
        PyKeyError::new_err(format!(
            "{name:?}: no ruling or rule has this name; close: {} (docs/rules.md)",
            close.join(", ")
        ))
    })?;
    let rulings = PyList::empty(py);
    for r in &found.rulings {
        let d = PyDict::new(py);
        d.set_item("name", r.name)?;
        d.set_item("title", r.title)?;
        d.set_item("text", r.body)?;
        rulings.append(d)?;
    }
    let entries = PyList::empty(py);
    for e in &found.entries {
        let d = PyDict::new(py);
        let r = e.rule;
        d.set_item("id", r.id)?;
        d.set_item("group", e.group)?;
        let severity = match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        d.set_item("severity", severity)?;
        d.set_item("source", r.source.to_string())?;
        d.set_item("ruling", r.source.ruling().map(|n| format!("R{n}")))?;
        d.set_item("statement", r.text())?;
        entries.append(d)?;
    }
    let out = PyDict::new(py);
    out.set_item("rulings", rulings)?;
    out.set_item("rules", entries)?;
    Ok(out)
}
