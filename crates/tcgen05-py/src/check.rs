//! `tcgen05.check_ptx`: every tcgen05 instruction of a PTX module checked by
//! [`tcgen05::check`] (the library's one PTX reader, known-bits dataflow, and the `ptx` module's
//! and the descriptors' own rules), as Python objects.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use tcgen05::check::{check, Finding, FindingValue, InstructionReport, Options};
use tcgen05::Severity;

use crate::args::Args;
use crate::problem::{descriptor_error, py_str};

/// One error or warning about one instruction (`tcgen05.Finding`).
#[pyclass(module = "tcgen05", frozen, name = "Finding")]
#[derive(Clone, Debug)]
pub struct PyFinding {
    /// `"error"` or `"warning"`.
    #[pyo3(get)]
    severity: &'static str,
    /// The rule's identifier (the checker's rule id, or the field for the instruction's and the
    /// descriptors' own rules).
    #[pyo3(get)]
    rule: &'static str,
    /// The operand the value comes from (`"idesc"`, `"a_desc"`, ...), if any.
    #[pyo3(get)]
    operand: Option<&'static str>,
    /// The field concerned.
    #[pyo3(get)]
    field: &'static str,
    /// The value: an int, or a name as written.
    value: Value,
    /// What is wrong.
    #[pyo3(get)]
    message: String,
    /// Where the rule is written.
    #[pyo3(get)]
    source: String,
    /// 1-based line where the value was defined.
    #[pyo3(get)]
    line: u32,
}

#[derive(Clone, Debug)]
enum Value {
    Int(u64),
    Text(String),
}

#[pymethods]
impl PyFinding {
    /// The value: an int, or a str for names.
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match &self.value {
            Value::Int(v) => v.into_pyobject(py)?.into_any(),
            Value::Text(s) => s.into_pyobject(py)?.into_any(),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding(severity={}, rule={}, field={}, line={}, message={})",
            py_str(self.severity),
            py_str(self.rule),
            py_str(self.field),
            self.line,
            py_str(&self.message)
        )
    }

    fn __str__(&self) -> String {
        format!("{}: {} ({})", self.field, self.message, self.source)
    }
}

/// Known bits of a descriptor operand: `known` is the mask of proven bits, `value` their values.
#[pyclass(module = "tcgen05", frozen, name = "KnownBits")]
#[derive(Clone, Copy, Debug)]
pub struct PyKnownBits {
    /// Mask of the proven bits.
    #[pyo3(get)]
    known: u64,
    /// The proven bits' values (zero where not proven).
    #[pyo3(get)]
    value: u64,
}

#[pymethods]
impl PyKnownBits {
    fn __repr__(&self) -> String {
        format!(
            "KnownBits(known={:#018x}, value={:#018x})",
            self.known, self.value
        )
    }
}

/// What the checker knows of one tcgen05 instruction (`tcgen05.CheckedInstruction`).
#[pyclass(module = "tcgen05", frozen, name = "CheckedInstruction")]
#[derive(Clone, Debug)]
pub struct PyInstruction {
    /// 1-based line.
    #[pyo3(get)]
    line: u32,
    /// 1-based column.
    #[pyo3(get)]
    column: u32,
    /// The opcode with its qualifiers as written.
    #[pyo3(get)]
    instruction: String,
    /// The statement as written.
    #[pyo3(get)]
    text: String,
    /// The function it is in.
    #[pyo3(get)]
    function: Option<String>,
    /// The MMA's `.kind`.
    #[pyo3(get)]
    kind: Option<&'static str>,
    /// The instruction descriptor when all 32 bits are known.
    #[pyo3(get)]
    idesc: Option<u32>,
    /// Known bits of the instruction descriptor.
    #[pyo3(get)]
    idesc_bits: Option<PyKnownBits>,
    /// Known bits of A's shared memory descriptor.
    #[pyo3(get)]
    a_desc: Option<PyKnownBits>,
    /// Known bits of B's shared memory descriptor.
    #[pyo3(get)]
    b_desc: Option<PyKnownBits>,
    /// Known bits of `tcgen05.cp`'s source descriptor.
    #[pyo3(get)]
    s_desc: Option<PyKnownBits>,
    /// Every error and warning.
    #[pyo3(get)]
    findings: Vec<PyFinding>,
}

#[pymethods]
impl PyInstruction {
    /// The errors.
    #[getter]
    fn errors(&self) -> Vec<PyFinding> {
        self.findings
            .iter()
            .filter(|f| f.severity == "error")
            .cloned()
            .collect()
    }

    /// The warnings.
    #[getter]
    fn warnings(&self) -> Vec<PyFinding> {
        self.findings
            .iter()
            .filter(|f| f.severity == "warning")
            .cloned()
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "CheckedInstruction(line={}, instruction={}, idesc={}, findings={})",
            self.line,
            py_str(&self.instruction),
            self.idesc.map_or("None".into(), |v| format!("{v:#010x}")),
            self.findings.len()
        )
    }
}

/// The result of checking one module (`tcgen05.CheckReport`).
#[pyclass(module = "tcgen05", frozen, name = "CheckReport")]
#[derive(Clone, Debug)]
pub struct PyReport {
    /// The target the rules were applied for (None when the module's cannot have tcgen05).
    #[pyo3(get)]
    target: Option<&'static str>,
    /// Every tcgen05 instruction, in order.
    #[pyo3(get)]
    instructions: Vec<PyInstruction>,
    /// What the reader skipped, as `(line, column, message)`.
    #[pyo3(get)]
    read_problems: Vec<(u32, u32, String)>,
    /// Statements read.
    #[pyo3(get)]
    statements: usize,
}

#[pymethods]
impl PyReport {
    /// Number of errors over all instructions.
    #[getter]
    fn errors(&self) -> usize {
        self.count("error")
    }

    /// Number of warnings over all instructions.
    #[getter]
    fn warnings(&self) -> usize {
        self.count("warning")
    }

    /// True when no instruction has an error and the input was PTX text.
    #[getter]
    fn ok(&self) -> bool {
        self.errors() == 0 && (self.statements != 0 || self.read_problems.is_empty())
    }

    fn __repr__(&self) -> String {
        format!(
            "CheckReport(target={}, instructions={}, errors={}, warnings={})",
            self.target.map_or("None".into(), py_str),
            self.instructions.len(),
            self.errors(),
            self.warnings()
        )
    }
}

impl PyReport {
    fn count(&self, severity: &str) -> usize {
        self.instructions
            .iter()
            .map(|i| i.findings.iter().filter(|f| f.severity == severity).count())
            .sum()
    }
}

fn bits(b: Option<tcgen05::check::KnownBits>) -> Option<PyKnownBits> {
    b.map(|b| PyKnownBits {
        known: b.known,
        value: b.value,
    })
}

fn finding(f: &Finding, text: &str, target: Option<&str>) -> PyFinding {
    PyFinding {
        severity: match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        rule: f.rule_id(),
        operand: f.operand.map(|o| o.name()),
        field: f.field,
        value: match f.value {
            FindingValue::Number(v) => Value::Int(v),
            FindingValue::Name(n) => Value::Text(n.to_owned()),
            FindingValue::Text(s, e) => Value::Text(text.get(s..e).unwrap_or("?").to_owned()),
            FindingValue::Target => Value::Text(target.unwrap_or("?").to_owned()),
        },
        message: f.to_string(),
        source: f.source.to_string(),
        line: f.line,
    }
}

fn instruction(i: &InstructionReport<'_>) -> PyInstruction {
    PyInstruction {
        line: i.line,
        column: i.column,
        instruction: i.instruction.to_owned(),
        text: i.text.to_owned(),
        function: i.function.map(str::to_owned),
        kind: i.kind.map(tcgen05::Kind::name),
        idesc: i.idesc,
        idesc_bits: bits(i.idesc_bits),
        a_desc: bits(i.a_desc),
        b_desc: bits(i.b_desc),
        s_desc: bits(i.s_desc),
        findings: i
            .findings
            .iter()
            .map(|f| finding(f, i.text, i.target_name))
            .collect(),
    }
}

/// The PTX that `check_ptx`'s argument gives: the text of a `str` or `bytes`, or the contents of
/// the file an `os.PathLike` names, or a one-line `str` without `;` names (such a line cannot be
/// a PTX statement: every statement ends with `;`, PTX ISA 4.1).
///
/// # Errors
/// `TypeError` for any other type; the `OSError` of a file that cannot be read.
fn ptx_source(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = text.cast::<PyString>() {
        let s = s.extract::<String>()?;
        if s.contains('\n') || s.contains(';') || s.trim().is_empty() {
            Ok(s.into_bytes())
        } else {
            Ok(std::fs::read(&s)?)
        }
    } else if let Ok(b) = text.cast::<PyBytes>() {
        Ok(b.as_bytes().to_vec())
    } else if text.hasattr("__fspath__")? {
        let path: std::path::PathBuf = text.call_method0("__fspath__")?.extract()?;
        Ok(std::fs::read(path)?)
    } else {
        Err(PyTypeError::new_err(
            "check_ptx: expected the PTX text (str or bytes) or a path (os.PathLike, or a str \
             naming a file)",
        ))
    }
}

/// Checks every tcgen05 instruction of a PTX module (`str` or `bytes`, or a file named by a path): its form (PTX ISA
/// 9.7.16), its immediate or compile-time-known descriptors (Tables 39-45) and its target; the
/// module's `.target` is used unless `target` overrides it.
#[pyfunction]
#[pyo3(signature = (text, *, target=None))]
pub fn check_ptx(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyReport> {
    let src = ptx_source(text)?;
    let mut a = Args::default();
    let target = match target.filter(|o| !o.is_none()) {
        Some(o) => match a.target(Some(o))? {
            Some(t) => Some(t),
            None => return Err(descriptor_error(py, "check_ptx", &a.problems)),
        },
        None => None,
    };
    let report = py.detach(|| {
        let r = check(
            &src,
            &Options {
                target,
                ..Options::default()
            },
        );
        PyReport {
            target: r.target.map(tcgen05::Target::name),
            instructions: r.instructions.iter().map(instruction).collect(),
            read_problems: r
                .read_problems
                .iter()
                .map(|p| (p.line, p.column, p.to_string()))
                .collect(),
            statements: r.statements,
        }
    });
    Ok(report)
}
