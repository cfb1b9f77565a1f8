//! Kernel arguments matched against the kernel's `.param` list (PTX ISA 5.1.6.1, kernel
//! parameters): a buffer is a 64-bit integer pointer, a tensor map a 128-byte parameter aligned
//! to 64 bytes (`CUtensorMap` must be 64-byte aligned: CUDA driver API 6.30), and a scalar is
//! written from a value typed by its parameter: an integer in the range of the parameter's
//! type, a float rounded to `.f32` or kept as `.f64`. Every mismatch names the parameter.

use crate::error::RunError;
use crate::host::Arg;
use crate::module::Param;
use crate::op::Ty;

fn mismatch(p: &Param, why: String) -> RunError {
    RunError::Argument {
        param: p.name.clone(),
        why,
    }
}

/// The parameter's declared type, as PTX writes it (`.u32`, `.b8[128]`).
fn declared(p: &Param) -> String {
    let ty = match p.ty {
        Ty::B(b) => format!(".b{b}"),
        Ty::U(b) => format!(".u{b}"),
        Ty::S(b) => format!(".s{b}"),
        Ty::F16 => ".f16".into(),
        Ty::Bf16 => ".bf16".into(),
        Ty::F32 => ".f32".into(),
        Ty::F64 => ".f64".into(),
        Ty::Pred => ".pred".into(),
    };
    let bytes = p.ty.bits() / 8;
    if bytes > 0 && p.size > bytes {
        format!("{ty}[{}] (.align {})", p.size / bytes, p.align)
    } else {
        ty
    }
}

/// Checks that `a` can be passed for `p` by kind, size and alignment.
///
/// # Errors
/// [`RunError::Argument`] naming the parameter, its declaration and what was given.
pub fn check(p: &Param, a: &Arg) -> Result<(), RunError> {
    match a {
        Arg::Buffer(_) | Arg::Null => {
            if p.size != 8 || matches!(p.ty, Ty::F64 | Ty::F32 | Ty::F16 | Ty::Bf16) {
                return Err(mismatch(
                    p,
                    format!(
                        "a buffer is passed as a 64-bit integer pointer, the parameter is {}",
                        declared(p)
                    ),
                ));
            }
        }
        Arg::TensorMap(..) => {
            if p.size != 128 || p.align < 64 {
                return Err(mismatch(
                    p,
                    format!(
                        "a tensor map is passed as `.param .align 64 .b8 [128]` (CUtensorMap, 64-byte aligned: CUDA driver API 6.30), the parameter is {}",
                        declared(p)
                    ),
                ));
            }
        }
        Arg::Scalar(s) => {
            if s.len() != p.size as usize {
                return Err(mismatch(
                    p,
                    format!(
                        "{} bytes given, the parameter is {} bytes ({})",
                        s.len(),
                        p.size,
                        declared(p)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// An integer scalar for `p` that fits its width as a signed or an unsigned number (compilers
/// declare signed integers `.u32`: Triton's `i32` arguments are `.param .u32`); for a `.ptr`
/// parameter only 0, the null pointer.
///
/// # Errors
/// [`RunError::Argument`] when `p` is not an integer parameter or `v` is out of its range.
pub fn int_arg(p: &Param, v: i128) -> Result<Arg, RunError> {
    if p.pointer {
        // The interpreter's buffer addresses are its own: a number can only be the null pointer.
        return if v == 0 {
            Ok(Arg::Null)
        } else {
            Err(mismatch(
                p,
                format!(
                    "the integer {v} for a `.ptr` parameter: pass a buffer (0 is the null pointer)"
                ),
            ))
        };
    }
    let (bits, lo, hi) = match p.ty {
        Ty::U(b) | Ty::S(b) | Ty::B(b) => (b, -(1i128 << (b - 1)), (1i128 << b) - 1),
        Ty::F32 | Ty::F64 => return float_arg(p, v as f64),
        _ => {
            return Err(mismatch(
                p,
                format!("an integer given, the parameter is {}", declared(p)),
            ))
        }
    };
    if p.size != u32::from(bits) / 8 {
        return Err(mismatch(
            p,
            format!("an integer given, the parameter is {}", declared(p)),
        ));
    }
    if v < lo || v > hi {
        return Err(mismatch(
            p,
            format!("{v} is outside {lo}..={hi}, the range of {}", declared(p)),
        ));
    }
    let bytes = (v as u128).to_le_bytes();
    Ok(Arg::Scalar(bytes[..usize::from(bits / 8)].to_vec()))
}

/// A float scalar for `p`: rounded to nearest even for `.f32`, kept for `.f64`.
///
/// # Errors
/// [`RunError::Argument`] when `p` is not an `.f32` or `.f64` parameter.
pub fn float_arg(p: &Param, v: f64) -> Result<Arg, RunError> {
    match (p.ty, p.size) {
        (Ty::F32, 4) | (Ty::B(32), 4) => Ok(Arg::f32(v as f32)),
        (Ty::F64, 8) | (Ty::B(64), 8) => Ok(Arg::Scalar(v.to_le_bytes().to_vec())),
        _ => Err(mismatch(
            p,
            format!(
                "a float given, the parameter is {} (floats go to .f32 or .f64 parameters)",
                declared(p)
            ),
        )),
    }
}
