//! `to_dict()` of the descriptors, from the core's layout rows: each value row under its key,
//! consecutive rows sharing a key as one list (the four start counts of Table 45).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use tcgen05::bits::{LayoutField, RowValue, Word};

/// One value as Python sees it: numbers and bytes as `int`, a flag or switch as `bool`, a code
/// by its name, and a code the enumeration does not define as `None`.
fn value_py<'py>(py: Python<'py>, v: RowValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        RowValue::Number(n) | RowValue::Bytes(n) => n.into_pyobject(py)?.into_any(),
        RowValue::Flag(b) | RowValue::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        RowValue::Name(c) => c.name.into_pyobject(py)?.into_any(),
        RowValue::InvalidCode(_) => py.None().into_bound(py),
    })
}

/// The value rows of `word` as a dict, in layout order.
pub fn fields_dict<'py, F: LayoutField>(
    py: Python<'py>,
    word: Word<F>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let mut values = word
        .rows()
        .filter_map(|r| r.value().map(|v| (r.row.field.key(), v)))
        .peekable();
    while let Some((key, v)) = values.next() {
        if values.peek().is_some_and(|(k, _)| *k == key) {
            let list = PyList::empty(py);
            list.append(value_py(py, v)?)?;
            while let Some((_, v)) = values.next_if(|(k, _)| *k == key) {
                list.append(value_py(py, v)?)?;
            }
            d.set_item(key, list)?;
        } else {
            d.set_item(key, value_py(py, v)?)?;
        }
    }
    Ok(d)
}
