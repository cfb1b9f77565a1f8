//! The scale format of a block-scaled MMA on its target (rulings D7 and D9 of `docs/rules.md`):
//! on `sm_107a` / `sm_107f` bits 23-24 of the instruction descriptor are the format, and code 2
//! (UE5M3) is read here before the layout tables (PTX ISA 9.1 Tables 43-44, which reserve bit
//! 24) see the word.

use super::problem::{EmuError, Problem};
use crate::instruction_descriptor::scale_format::{
    decode_scale_format, ScaleFormat, ScaleFormatField,
};
use crate::mma::Kind;
use crate::numerics::ue5m3::ue5m3_row;
use crate::numerics::{Format, ParamRow};
use crate::ptx::PtxError;
use crate::shapes::MmaError;
use crate::targets::Target;

/// The word the layout tables read, and UE5M3 when the target's two-bit field holds it (the
/// word then carries UE4M3's code 0, whose rules UE5M3 shares: `.kind::mxf4nvf4`, 16-element
/// blocks, scale-factor ID 0).
///
/// # Errors
/// `mma.scale_format` with the code, for code 3 or UE5M3 with a kind other than
/// `.kind::mxf4nvf4` on a target with the two-bit field.
pub(super) fn split(idesc: u32, kind: Kind, target: Target) -> Result<(u32, bool), EmuError> {
    if !kind.is_block_scaled() || ScaleFormatField::of(target) == ScaleFormatField::Bit23 {
        return Ok((idesc, false));
    }
    if let Some(e) = MmaError::scale_format(idesc, kind, target) {
        // Code 3, or UE5M3 with a kind other than `.kind::mxf4nvf4` (`mma.scale_format`).
        return Err(EmuError::one(Problem::from(PtxError::Idesc(e))));
    }
    match decode_scale_format(idesc, kind, target) {
        Ok(b) if b.format == ScaleFormat::Ue5m3 => Ok((idesc & !(3 << 23), true)),
        // UE4M3 with a kind that does not take it is the layout tables' error.
        Ok(_) | Err(_) => Ok((idesc, false)),
    }
}

/// The UE5M3 row of the form's UE4M3 row.
pub(super) fn row(row: ParamRow) -> Result<ParamRow, EmuError> {
    ue5m3_row(row).map_err(|e| EmuError {
        problems: e
            .problems
            .iter()
            .map(super::problem::Problem::from)
            .collect(),
    })
}

/// The numerics format of UE5M3 scale factors.
pub(super) const UE5M3: Format = Format::Ue5m3;
