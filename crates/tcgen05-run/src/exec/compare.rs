//! Floating-point binary operations, `setp` comparisons and predicate logic (PTX ISA 9.7.3,
//! 9.7.7.1).

use crate::float::{f32_binary, ftz32};
use crate::int::{mask, sext};
use crate::op::{BoolOp, Cmp, FloatOp, Ty, UCmp};

pub(super) fn float_binary(op: FloatOp, ty: Ty, a: u64, b: u64, ftz: bool, sat: bool) -> u64 {
    if ty == Ty::F64 {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let r = match op {
            FloatOp::Add => x + y,
            FloatOp::Sub => x - y,
            FloatOp::Mul => x * y,
            FloatOp::Div => x / y,
            FloatOp::Min => x.min(y),
            FloatOp::Max => x.max(y),
        };
        return if r.is_nan() {
            0x7FFF_FFFF_FFFF_FFFF
        } else {
            r.to_bits()
        };
    }
    u64::from(f32_binary(op, a as u32, b as u32, ftz, sat))
}

pub(super) fn boolean(op: BoolOp, a: bool, b: bool) -> bool {
    match op {
        BoolOp::And => a && b,
        BoolOp::Or => a || b,
        BoolOp::Xor => a ^ b,
    }
}

pub(super) fn compare(cmp: Cmp, ty: Ty, ftz: bool, a: u64, b: u64) -> bool {
    use core::cmp::Ordering::{Equal, Greater, Less};
    let ord = if ty.float() {
        let (x, y) = if matches!(ty, Ty::F16 | Ty::Bf16) {
            crate::half::compare_operands(ty == Ty::Bf16, ftz, a, b)
        } else if ty == Ty::F64 {
            (f64::from_bits(a), f64::from_bits(b))
        } else {
            let (a, b) = if ftz {
                (ftz32(a as u32), ftz32(b as u32))
            } else {
                (a as u32, b as u32)
            };
            (f64::from(f32::from_bits(a)), f64::from(f32::from_bits(b)))
        };
        x.partial_cmp(&y)
    } else if ty.signed() {
        Some(sext(a, ty.bits()).cmp(&sext(b, ty.bits())))
    } else {
        Some((a & mask(ty.bits())).cmp(&(b & mask(ty.bits()))))
    };
    let unsigned = || (a & mask(ty.bits())).cmp(&(b & mask(ty.bits())));
    match cmp {
        Cmp::Eq => ord == Some(Equal),
        Cmp::Ne => ord.is_some_and(|o| o != Equal),
        Cmp::Lt => ord == Some(Less),
        Cmp::Le => matches!(ord, Some(Less | Equal)),
        Cmp::Gt => ord == Some(Greater),
        Cmp::Ge => matches!(ord, Some(Greater | Equal)),
        Cmp::Lo => unsigned() == Less,
        Cmp::Ls => unsigned() != Greater,
        Cmp::Hi => unsigned() == Greater,
        Cmp::Hs => unsigned() != Less,
        Cmp::Unordered(u) => match ord {
            None => true,
            Some(o) => match u {
                UCmp::Eq => o == Equal,
                UCmp::Ne => o != Equal,
                UCmp::Lt => o == Less,
                UCmp::Le => o != Greater,
                UCmp::Gt => o == Greater,
                UCmp::Ge => o != Less,
            },
        },
        Cmp::Num => ord.is_some(),
        Cmp::Nan => ord.is_none(),
    }
}
