//! Decoding of half-precision arithmetic (`.f16`, `.f16x2`, `.bf16`, `.bf16x2`) into [`Half`]s.

use super::D;
use crate::error::RunError;
use crate::half::{Half, HalfOp};
use crate::op::OpKind;

/// Whether an arithmetic instruction's type is a half-precision one.
pub(super) fn is_half(q: &[&str]) -> bool {
    q.iter()
        .any(|x| matches!(*x, "f16" | "f16x2" | "bf16" | "bf16x2"))
}

/// `add|sub|mul{.rn}{.ftz}{.sat}`, `fma.rn{.ftz}{.sat|.relu}`, `neg|abs{.ftz}`,
/// `min|max{.ftz}{.NaN}` on `.f16`/`.f16x2`/`.bf16`/`.bf16x2` (PTX ISA 9.7.4).
pub(super) fn decode(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let op = match d.ins.base() {
        "add" => HalfOp::Add,
        "sub" => HalfOp::Sub,
        "mul" => HalfOp::Mul,
        "fma" => HalfOp::Fma,
        "min" => HalfOp::Min,
        "max" => HalfOp::Max,
        "neg" => HalfOp::Neg,
        _ => HalfOp::Abs,
    };
    let (mut bf16, mut pairs, mut rn) = (false, false, false);
    let (mut ftz, mut sat, mut relu, mut nan) = (false, false, false, false);
    for x in q {
        match *x {
            "f16" => {}
            "f16x2" => pairs = true,
            "bf16" => bf16 = true,
            "bf16x2" => (bf16, pairs) = (true, true),
            "rn" => rn = true,
            "ftz" if !bf16 => ftz = true,
            "sat" if !bf16 => sat = true,
            "relu" if op == HalfOp::Fma => relu = true,
            "NaN" if matches!(op, HalfOp::Min | HalfOp::Max) => nan = true,
            x => {
                return Err(d.unsupported(
                    x,
                    "qualifier not modelled for half-precision arithmetic (rounding is .rn only)",
                ))
            }
        }
    }
    if op == HalfOp::Fma && !rn {
        return Err(d.unsupported(d.ins.opcode, "fma on half-precision types needs .rn"));
    }
    let sources = match op {
        HalfOp::Neg | HalfOp::Abs => 1,
        HalfOp::Fma => 3,
        _ => 2,
    };
    d.count(1 + sources)?;
    Ok(OpKind::Half(Half {
        op,
        bf16,
        pairs,
        ftz,
        sat,
        relu,
        nan,
        d: d.dst(0)?,
        a: d.src(1)?,
        b: if sources > 1 { Some(d.src(2)?) } else { None },
        c: if sources > 2 { Some(d.src(3)?) } else { None },
    }))
}
