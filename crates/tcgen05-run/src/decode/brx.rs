//! Decoding of `brx.idx{.uni} index, tlist` (crate `brx`).

use tcgen05::ptx_reader::Operand;

use super::D;
use crate::error::{invalid, RunError};
use crate::op::OpKind;

/// `brx.idx{.uni} index, tlist`: the op (its labels filled in once the `.branchtargets` list
/// `tlist`, returned in `label`, is known).
pub(super) fn decode(
    d: &D<'_, '_>,
    q: &[&str],
    label: &mut Option<String>,
) -> Result<OpKind, RunError> {
    if q.iter().any(|x| !matches!(*x, "idx" | "uni")) || !q.contains(&"idx") {
        return Err(d.unsupported(d.ins.opcode, "brx qualifier not modelled"));
    }
    d.count(2)?;
    match d.operand(1)? {
        Operand::Name(n) => *label = Some((*n).to_string()),
        _ => {
            return Err(invalid(
                d.line,
                d.ins.text,
                "brx.idx needs a .branchtargets label",
            ))
        }
    }
    Ok(OpKind::BrxIdx {
        index: d.src(0)?,
        labels: Vec::new(),
        targets: Vec::new(),
    })
}
