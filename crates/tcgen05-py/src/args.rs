//! Reading Python arguments into the core crate's types, strictly: a wrong Python type is a
//! `TypeError` at once; a wrong value (an unknown name, a negative number, a number beyond the
//! field's type) is a [`Problem`], collected so that every one is reported together.

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use tcgen05::{Kind, Source, Target};

use crate::problem::{Problem, Value};

/// The problems found so far in one call's arguments.
#[derive(Debug, Default)]
pub struct Args {
    /// Every value problem, in argument order.
    pub problems: Vec<Problem>,
}

/// The Python type name of `obj`, for `TypeError` messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// `obj` as a Python `int`: an `int` itself, or an object whose `__index__` gives one (NumPy's
/// integer scalars, `np.uint32(5)`); never a `bool` (nor NumPy's); `None` for anything else.
pub fn index<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyString>() {
        return None;
    }
    if obj.is_instance_of::<PyInt>() {
        return Some(obj.clone());
    }
    if type_name(obj) == "bool" || !obj.hasattr("__index__").unwrap_or(false) {
        return None;
    }
    obj.call_method0("__index__")
        .ok()
        .filter(|i| i.is_instance_of::<PyInt>() && !i.is_instance_of::<PyBool>())
}

impl Args {
    /// An integer in `0..=max`: a Python `int` or a NumPy integer scalar ([`index`]). `bool`
    /// is refused (a `TypeError`), as any other type; a negative or too large value is a
    /// problem (and reads as 0).
    pub fn int(
        &mut self,
        field: &str,
        obj: &Bound<'_, PyAny>,
        max: u64,
        source: Source,
    ) -> PyResult<u64> {
        let Some(obj) = index(obj) else {
            return Err(PyTypeError::new_err(format!(
                "{field}: expected int, got {}",
                type_name(obj)
            )));
        };
        let obj = &obj;
        let value = match obj.extract::<i128>() {
            Ok(v) => v,
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                let text = obj.str().map_or_else(|_| "?".to_owned(), |s| s.to_string());
                self.problems.push(Problem::argument(
                    field,
                    Value::Name(text.clone()),
                    format!("{text} is out of range (0 to {max})"),
                    source,
                ));
                return Ok(0);
            }
            Err(e) => return Err(e),
        };
        if value < 0 || value > i128::from(max) {
            self.problems.push(Problem::argument(
                field,
                Value::Int(value),
                format!("{value} is out of range (0 to {max})"),
                source,
            ));
            return Ok(0);
        }
        // In range, so it fits.
        Ok(u64::try_from(value).unwrap_or(0))
    }

    /// A `bool` (`None` reads as `default`); anything else is a `TypeError`.
    pub fn flag(field: &str, obj: Option<&Bound<'_, PyAny>>, default: bool) -> PyResult<bool> {
        match obj {
            None => Ok(default),
            Some(o) if o.is_none() => Ok(default),
            Some(o) if o.is_instance_of::<PyBool>() => o.extract::<bool>(),
            Some(o) => Err(PyTypeError::new_err(format!(
                "{field}: expected bool, got {}",
                type_name(o)
            ))),
        }
    }

    /// A name parsed by the core crate's `from_name`; an unknown one is a problem listing the
    /// accepted names. A non-`str` is a `TypeError`.
    pub fn name<T>(
        &mut self,
        field: &str,
        obj: &Bound<'_, PyAny>,
        parse: impl Fn(&str) -> Option<T>,
        accepted: &[&str],
        source: Source,
    ) -> PyResult<Option<T>> {
        if !obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{field}: expected str, got {}",
                type_name(obj)
            )));
        }
        let text: String = obj.extract()?;
        match parse(&text) {
            Some(v) => Ok(Some(v)),
            None => {
                self.problems.push(Problem::argument(
                    field,
                    Value::Name(text.clone()),
                    format!(
                        "unknown name {text:?} (expected one of {})",
                        accepted.join(", ")
                    ),
                    source,
                ));
                Ok(None)
            }
        }
    }

    /// A kind name (`"f16"` or `"kind::f16"`, as the core parses it).
    pub fn kind(&mut self, obj: &Bound<'_, PyAny>) -> PyResult<Option<Kind>> {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        self.name("kind", obj, Kind::from_name, &names, Source::PtxTable(39))
    }

    /// A target name (`"sm_100a"`, ...); `None` is the default target, `sm_100a`.
    pub fn target(&mut self, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Target>> {
        let Some(obj) = obj.filter(|o| !o.is_none()) else {
            return Ok(Some(Target::DEFAULT));
        };
        let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
        self.name(
            "target",
            obj,
            |s| Target::from_name(s).ok(),
            &names,
            Source::PtxSection("9.7.16.1"),
        )
    }
}

/// A raw descriptor value: an `int` in `0..=max`; a wrong type is a `TypeError`, a value out of
/// range a `DescriptorError`.
pub fn raw(
    py: Python<'_>,
    what: &str,
    obj: &Bound<'_, PyAny>,
    max: u64,
    table: u8,
) -> PyResult<u64> {
    let mut a = Args::default();
    let v = a.int("raw", obj, max, Source::PtxTable(table))?;
    if a.problems.is_empty() {
        Ok(v)
    } else {
        Err(crate::problem::descriptor_error(py, what, &a.problems))
    }
}
