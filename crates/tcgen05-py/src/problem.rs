//! One problem found in a value (`tcgen05.Problem`) and the exception that lists them
//! (`tcgen05.DescriptorError`, a `ValueError`).
//!
//! Every problem comes from the core crate's diagnostics (the [`tcgen05::Diagnostic`] trait: field,
//! value, source, severity, and its `Display` as the message), or from reading a Python argument
//! (an unknown name, a negative number, a number too large for the field's type): those cite the
//! PTX table of the field they concern.

use pyo3::prelude::*;
use pyo3::types::PyList;
use tcgen05::{Diagnostic, Severity, Source};

pyo3::create_exception!(
    tcgen05,
    DescriptorError,
    pyo3::exceptions::PyValueError,
    "A value breaks one or more rules; `problems` lists every one (field, value, message, source)."
);

/// The value a problem concerns: a number, or a name as written.
#[derive(Clone, Debug)]
pub enum Value {
    /// A number (bytes for byte fields, the raw code otherwise).
    Int(i128),
    /// A name, or a Python value that is not a number, as written.
    Name(String),
}

/// One error or warning: which field, which value, what is wrong, and the rule's source.
#[pyclass(module = "tcgen05", frozen, name = "Problem")]
#[derive(Clone, Debug)]
pub struct Problem {
    /// The field concerned, as named by the Rust crate and the command's JSON keys.
    #[pyo3(get)]
    pub field: String,
    /// `"error"` or `"warning"`.
    #[pyo3(get)]
    pub severity: &'static str,
    /// What is wrong, in one sentence.
    #[pyo3(get)]
    pub message: String,
    /// Where the rule comes from, for example `"PTX ISA 9.7.16.4.2 Table 42"`.
    #[pyo3(get)]
    pub source: String,
    /// The value found or given.
    pub value: Value,
}

#[pymethods]
impl Problem {
    /// The value found or given: an `int`, or a `str` for names.
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match &self.value {
            Value::Int(v) => v.into_pyobject(py)?.into_any(),
            Value::Name(s) => s.into_pyobject(py)?.into_any(),
        })
    }

    /// True for errors, false for warnings.
    #[getter(is_error)]
    fn py_is_error(&self) -> bool {
        self.is_error()
    }

    fn __repr__(&self) -> String {
        let value = match &self.value {
            Value::Int(v) => v.to_string(),
            Value::Name(s) => format!("{s:?}"),
        };
        format!(
            "Problem(field={:?}, severity={:?}, value={value}, message={:?}, source={:?})",
            self.field, self.severity, self.message, self.source
        )
    }

    fn __str__(&self) -> String {
        self.line()
    }
}

impl Problem {
    /// A problem found by the core crate.
    pub fn from_diagnostic<D: Diagnostic>(d: &D) -> Problem {
        Problem {
            field: d.field().to_owned(),
            severity: match d.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            message: d.to_string(),
            source: d.source().to_string(),
            value: match d.value_name() {
                Some(name) => Value::Name(name.to_owned()),
                None => Value::Int(i128::from(d.value())),
            },
        }
    }

    /// A problem found while reading a Python argument.
    pub fn argument(field: &str, value: Value, message: String, source: Source) -> Problem {
        Problem {
            field: field.to_owned(),
            severity: "error",
            message,
            source: source.to_string(),
            value,
        }
    }

    /// True for errors, false for warnings.
    pub fn is_error(&self) -> bool {
        self.severity == "error"
    }

    /// `field: message (source)`, the command's one-line form.
    pub fn line(&self) -> String {
        format!("{}: {} ({})", self.field, self.message, self.source)
    }
}

/// The problems of severity error.
pub fn errors(problems: &[Problem]) -> Vec<Problem> {
    problems.iter().filter(|p| p.is_error()).cloned().collect()
}

/// The problems of severity warning.
pub fn warnings(problems: &[Problem]) -> Vec<Problem> {
    problems.iter().filter(|p| !p.is_error()).cloned().collect()
}

/// A `DescriptorError` whose message lists every error (one per line) and whose `problems`
/// attribute holds them all, warnings included.
pub fn descriptor_error(py: Python<'_>, what: &str, problems: &[Problem]) -> PyErr {
    let errs = errors(problems);
    let mut msg = format!(
        "{what}: {} error{}",
        errs.len(),
        if errs.len() == 1 { "" } else { "s" }
    );
    for p in &errs {
        msg.push_str("\n  ");
        msg.push_str(&p.line());
    }
    let err = DescriptorError::new_err(msg);
    let attach = || -> PyResult<()> {
        let list = PyList::empty(py);
        for p in problems {
            list.append(Bound::new(py, p.clone())?)?;
        }
        err.value(py).setattr("problems", list)
    };
    match attach() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// `text` as Python's `repr` of a `str` writes it (single quotes), for `__repr__`s.
pub fn py_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
