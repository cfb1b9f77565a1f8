//! `tcgen05.shift` (PTX ISA 9.7.16.9.3).

use super::error::{OperandName, PtxDiagnostics, PtxError, PtxRule};
use super::{check_name, Context, Instruction};
use crate::mma::CtaGroup;
use core::fmt;

/// `tcgen05.shift.cta_group.down`: shift 32-byte rows of Tensor Memory down by one row (PTX ISA
/// 9.7.16.9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shift<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// Register holding the Tensor Memory address (its lane a multiple of 32).
    pub taddr: &'a str,
}

impl Shift<'_> {
    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        if !ctx.target.supports_shift() {
            d.push(PtxError::named(
                PtxRule::ShiftNotOnTarget,
                ctx.target.name(),
            ));
        }
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Shift(*self).write_unchecked(w)
    }
}
