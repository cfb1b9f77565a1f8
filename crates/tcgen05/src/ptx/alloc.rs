//! `tcgen05.alloc` and `tcgen05.dealloc` (PTX ISA 9.7.16.7.1); `tcgen05.relinquish_alloc_permit`,
//! without operands, is only an [`Instruction`] variant.

use super::error::{OperandName, PtxDiagnostics, PtxError};
use super::{check_name, Context, Instruction, Value};
use crate::mma::CtaGroup;
use crate::tensor_memory::{validate_alloc_columns, TmemError};
use core::fmt;

const fn check_ncols(n: Value<'_, u32>, exclusive: bool, d: &mut PtxDiagnostics) {
    match n {
        Value::Reg(r) => check_name(r, OperandName::NCols, 0, d),
        // With `.exclusive` ptxas 13.5 takes any nonzero multiple of 32 (544, 1024: measured,
        // docs/ptx-9.5.md); the upper bound the PTX ISA 9.4 text sets was not read, so only
        // what ptxas refuses is refused (rules.md F2).
        Value::Imm(v) if exclusive => {
            if v < 32 {
                d.push(PtxError::Tmem(TmemError::NColsOutOfRange { n_cols: v }));
            } else if v % 32 != 0 {
                d.push(PtxError::Tmem(TmemError::NColsNotPowerOfTwo { n_cols: v }));
            }
        }
        Value::Imm(v) => {
            if let Err(e) = validate_alloc_columns(v) {
                d.push(PtxError::Tmem(e));
            }
        }
    }
}

/// `tcgen05.alloc`: allocate Tensor Memory columns and write their address to shared memory
/// (PTX ISA 9.7.16.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Alloc<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// The shared memory variable or address register that receives the address (`[dst]`).
    pub dst: &'a str,
    /// `nCols`: a power of two from 32 to 512 (rules.md R24).
    pub n_cols: Value<'a, u32>,
    /// `.exclusive` (PTX ISA 9.4; every tcgen05 target from `.version 9.4` on, rules.md F2).
    /// With it an immediate `nCols` need only be a nonzero multiple of 32 (ptxas 13.5; the
    /// upper bound is not checked, rules.md F2).
    pub exclusive: bool,
}

/// The PTX ISA version `.exclusive` needs, checked where the target needs less.
const fn check_exclusive(exclusive: bool, ctx: &Context, d: &mut PtxDiagnostics) {
    if exclusive && 94 > ctx.target.min_ptx_version() {
        ctx.check_version(94, ".exclusive", d);
    }
}

impl<'a> Alloc<'a> {
    /// `tcgen05.alloc` without `.exclusive`.
    #[must_use]
    pub const fn new(cta_group: CtaGroup, dst: &'a str, n_cols: Value<'a, u32>) -> Self {
        Alloc {
            cta_group,
            dst,
            n_cols,
            exclusive: false,
        }
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.dst, OperandName::Dst, 0, &mut d);
        check_ncols(self.n_cols, self.exclusive, &mut d);
        check_exclusive(self.exclusive, ctx, &mut d);
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Alloc(*self).write_unchecked(w)
    }
}

/// `tcgen05.dealloc`: free Tensor Memory columns (PTX ISA 9.7.16.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dealloc<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// Register holding the address `tcgen05.alloc` returned.
    pub taddr: &'a str,
    /// `nCols`, as allocated.
    pub n_cols: Value<'a, u32>,
    /// `.exclusive` (PTX ISA 9.4, as [`Alloc::exclusive`]).
    pub exclusive: bool,
}

impl<'a> Dealloc<'a> {
    /// `tcgen05.dealloc` without `.exclusive`.
    #[must_use]
    pub const fn new(cta_group: CtaGroup, taddr: &'a str, n_cols: Value<'a, u32>) -> Self {
        Dealloc {
            cta_group,
            taddr,
            n_cols,
            exclusive: false,
        }
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        check_ncols(self.n_cols, self.exclusive, &mut d);
        check_exclusive(self.exclusive, ctx, &mut d);
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Dealloc(*self).write_unchecked(w)
    }
}
