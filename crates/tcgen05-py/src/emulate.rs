//! `tcgen05.Emulator`: the library's functional model of the tcgen05 instructions
//! ([`tcgen05::emulator`]): shared memory, Tensor Memory and registers of a CTA pair, and
//! instruction lines in PTX syntax with immediate operands, executed bit for bit or refused with
//! every rule they break.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tcgen05::emulator::{reference_error, EmuError, Machine, Outcome, Problem as EmuProblem};
use tcgen05::{Severity, Target};

use crate::args::Args;
use crate::problem::{self, descriptor_error, py_str, DescriptorError, Problem};

pyo3::create_exception!(
    tcgen05,
    EmulationError,
    DescriptorError,
    "An instruction broke one or more rules and changed nothing; `problems` lists every one, \
     `line` is the 1-based line of a program (0 for a single instruction)."
);

fn problem(p: &EmuProblem) -> Problem {
    let source = p.source.to_string();
    let text = p.to_string();
    // The core's one-line form ends with the source, which `Problem` keeps apart.
    let message = text
        .strip_suffix(&format!(" ({source})"))
        .map_or_else(|| text.clone(), str::to_owned);
    Problem {
        field: p.field.to_owned(),
        severity: match p.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        message,
        source,
        value: problem::Value::Int(p.value.into()),
    }
}

/// An `EmulationError` listing every problem of `e`, raised at program line `line`.
fn emulation_error(py: Python<'_>, what: &str, line: usize, e: &EmuError) -> PyErr {
    let problems: Vec<Problem> = e.problems.iter().map(problem).collect();
    let base = descriptor_error(py, what, &problems);
    let msg = base.value(py).to_string();
    let err = EmulationError::new_err(if line > 0 {
        format!("line {line}: {msg}")
    } else {
        msg
    });
    let attach = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("problems", base.value(py).getattr("problems")?)?;
        v.setattr("line", line)
    };
    match attach() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// What one executed instruction did (`tcgen05.Outcome`).
#[pyclass(module = "tcgen05", frozen, name = "Outcome")]
#[derive(Clone, Debug)]
pub struct PyOutcome {
    /// The opcode as written.
    #[pyo3(get)]
    opcode: String,
    /// A one-line account of the effect.
    #[pyo3(get)]
    effect: String,
    /// Warnings (the instruction completed).
    #[pyo3(get)]
    warnings: Vec<Problem>,
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(opcode={}, effect={}, warnings={})",
            py_str(&self.opcode),
            py_str(&self.effect),
            self.warnings.len()
        )
    }
}

fn outcome(o: &Outcome) -> PyOutcome {
    PyOutcome {
        opcode: o.opcode.clone(),
        effect: o.effect.clone(),
        warnings: o.warnings.iter().map(problem).collect(),
    }
}

/// D of the last MMA: rows, columns, element type, codes.
type LastD<'py> = Option<(u32, u32, &'static str, Bound<'py, PyBytes>)>;

/// How far D is from the exact product: largest ulps, where, compared, not finite.
type RefError = Option<(f64, (u32, u32), u32, u32)>;

/// A CTA pair running tcgen05 instructions on a CPU (`tcgen05.Emulator`; the native half, the
/// NumPy views are in `tcgen05._emulate`).
#[pyclass(module = "tcgen05", name = "_Emulator")]
#[derive(Debug)]
pub struct PyEmulator {
    machine: Machine,
}

fn cta_index(cta: u32) -> PyResult<usize> {
    match cta {
        0 | 1 => Ok(cta as usize),
        _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "cta: {cta} is not a CTA of the pair (0, or 1 for the peer)"
        ))),
    }
}

#[pymethods]
impl PyEmulator {
    #[new]
    #[pyo3(signature = (*, target=None, random_inputs=None))]
    fn new(
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        random_inputs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyEmulator> {
        let mut a = Args::default();
        let target = a.target(target)?;
        let seed = match random_inputs.filter(|o| !o.is_none()) {
            Some(o) => Some(a.int(
                "random_inputs",
                o,
                u64::MAX,
                tcgen05::Source::PtxSection("9.7.16"),
            )?),
            None => None,
        };
        let Some(target) = target.filter(|_| a.problems.is_empty()) else {
            return Err(descriptor_error(py, "Emulator", &a.problems));
        };
        let mut machine = Machine::new(target);
        if let Some(s) = seed {
            machine.set_random_inputs(s);
        }
        Ok(PyEmulator { machine })
    }

    /// The target whose rules apply.
    #[getter]
    fn target(&self) -> &'static str {
        Target::name(self.machine.target())
    }

    /// Whether Tensor Memory accesses are checked against `tcgen05.alloc`'s allocations.
    #[getter]
    fn check_allocation(&self) -> bool {
        self.machine.check_allocation
    }

    #[setter]
    fn set_check_allocation(&mut self, on: bool) {
        self.machine.check_allocation = on;
    }

    /// Sets the warp that issues the following `tcgen05.ld` / `.st`.
    fn set_warp(&mut self, warp: u32) {
        self.machine.set_warp(warp);
    }

    /// Writes bytes to shared memory at `address` of CTA `cta`.
    #[pyo3(signature = (address, data, *, cta=0))]
    fn write_smem(&mut self, py: Python<'_>, address: u32, data: &[u8], cta: u32) -> PyResult<()> {
        let i = cta_index(cta)?;
        self.machine
            .cta_mut(i)
            .write_smem(address, data)
            .map_err(|e| emulation_error(py, "write_smem", 0, &e))
    }

    /// Reads `length` bytes of shared memory; never-written bytes come back as 0 and are listed
    /// in the second value (as offsets from `address`).
    #[pyo3(signature = (address, length, *, cta=0))]
    fn read_smem<'py>(
        &self,
        py: Python<'py>,
        address: u32,
        length: u32,
        cta: u32,
    ) -> PyResult<(Bound<'py, PyBytes>, Vec<u32>)> {
        let c = self.machine.cta(cta_index(cta)?);
        let mut out = Vec::with_capacity(length as usize);
        let mut unwritten = Vec::new();
        for k in 0..length {
            let at = address.checked_add(k).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err("address + length passes 2^32")
            })?;
            match c.smem_byte(at) {
                Ok(Some(b)) => out.push(b),
                Ok(None) => {
                    out.push(0);
                    unwritten.push(k);
                }
                Err(p) => {
                    return Err(emulation_error(py, "read_smem", 0, &EmuError::one(p)));
                }
            }
        }
        Ok((PyBytes::new(py, &out), unwritten))
    }

    /// Writes 32-bit cells (native-endian u32 words) to Tensor Memory, `columns` cells per lane
    /// starting at (`lane`, `column`).
    #[pyo3(signature = (lane, column, columns, words, *, cta=0))]
    fn write_tmem(
        &mut self,
        py: Python<'_>,
        lane: u32,
        column: u32,
        columns: u32,
        words: &[u8],
        cta: u32,
    ) -> PyResult<()> {
        let i = cta_index(cta)?;
        if words.len() % 4 != 0 || columns == 0 {
            return Err(PyTypeError::new_err(
                "write_tmem: expected whole 32-bit words and at least one column",
            ));
        }
        // All or nothing: check every cell on a copy first.
        let mut copy = self.machine.cta(i).clone();
        for (k, w) in words.chunks_exact(4).enumerate() {
            let k = k as u32;
            let (l, c) = (lane + k / columns, column + k % columns);
            copy.write_tmem(l, c, u32::from_ne_bytes([w[0], w[1], w[2], w[3]]))
                .map_err(|p| emulation_error(py, "write_tmem", 0, &EmuError::one(p)))?;
        }
        *self.machine.cta_mut(i) = copy;
        Ok(())
    }

    /// The whole Tensor Memory of CTA `cta`: 128 x 512 native-endian u32 cells (lane-major), and
    /// a mask of the same shape (one byte per cell, 1 where the cell was written).
    #[pyo3(signature = (*, cta=0))]
    fn tmem<'py>(
        &self,
        py: Python<'py>,
        cta: u32,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let c = self.machine.cta(cta_index(cta)?);
        let mut cells = Vec::with_capacity(128 * 512 * 4);
        let mut mask = Vec::with_capacity(128 * 512);
        for v in c.tmem_cells() {
            cells.extend_from_slice(&v.unwrap_or(0).to_ne_bytes());
            mask.push(u8::from(v.is_some()));
        }
        Ok((PyBytes::new(py, &cells), PyBytes::new(py, &mask)))
    }

    /// The registers of `warp` written so far: name -> 32 values (None where never written).
    #[pyo3(signature = (warp=0, *, cta=0))]
    fn registers(&self, warp: u32, cta: u32) -> PyResult<Vec<(String, Vec<Option<u32>>)>> {
        let c = self.machine.cta(cta_index(cta)?);
        Ok(c.registers(warp)
            .map(|(n, v)| (n.to_owned(), v.to_vec()))
            .collect())
    }

    /// The column ranges `tcgen05.alloc` holds, as `(first column, columns)`.
    #[pyo3(signature = (*, cta=0))]
    fn allocations(&self, cta: u32) -> PyResult<Vec<(u32, u32)>> {
        Ok(self.machine.cta(cta_index(cta)?).allocations().to_vec())
    }

    /// Executes one instruction line (PTX syntax, immediate operands); raises `EmulationError`
    /// with every problem, and then nothing changed.
    fn execute(&mut self, py: Python<'_>, line: &str) -> PyResult<PyOutcome> {
        match self.machine.execute(line) {
            Ok(o) => Ok(outcome(&o)),
            Err(e) => Err(emulation_error(py, "execute", 0, &e)),
        }
    }

    /// Executes a program, one instruction per line (blank lines, `//` comments, and
    /// `// @warp N` to set the issuing warp); raises `EmulationError` naming the first line
    /// that fails (the lines before it have run).
    fn run(&mut self, py: Python<'_>, program: &str) -> PyResult<Vec<PyOutcome>> {
        match self.machine.run(program) {
            Ok(v) => Ok(v.iter().map(outcome).collect()),
            Err((line, e)) => Err(emulation_error(py, "run", line, &e)),
        }
    }

    /// D of the last MMA read back from Tensor Memory: `(m, n, d_type, codes)` with the codes
    /// as native-endian u32 words, row-major (16-bit D in the low half); None when no MMA ran.
    fn last_d<'py>(&self, py: Python<'py>) -> PyResult<LastD<'py>> {
        match self.machine.last_d() {
            None => Ok(None),
            Some(Err(e)) => Err(emulation_error(py, "last_d", 0, &e)),
            Some(Ok(d)) => {
                let bytes: Vec<u8> = d.codes.iter().flat_map(|w| w.to_ne_bytes()).collect();
                Ok(Some((d.m, d.n, d.d_type.name(), PyBytes::new(py, &bytes))))
            }
        }
    }

    /// How far the last MMA's D is from the exact product of the operands it read:
    /// `(max_ulps, (row, column), compared, not_finite)`; None when no MMA ran.
    fn reference_error(&self, py: Python<'_>) -> PyResult<RefError> {
        let (Some(r), Some(d)) = (self.machine.last_mma(), self.machine.last_d()) else {
            return Ok(None);
        };
        let d = d.map_err(|e| emulation_error(py, "reference_error", 0, &e))?;
        let e = reference_error(r, &d);
        Ok(Some((e.max_ulps, e.at, e.compared, e.not_finite)))
    }
}
