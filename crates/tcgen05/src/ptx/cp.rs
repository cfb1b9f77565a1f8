//! `tcgen05.cp` (PTX ISA 9.7.16.9.2).

use super::error::{OperandName, PtxDiagnostics, PtxError};
use super::{check_name, Context, Instruction, Value};
use crate::mma::CtaGroup;
use crate::shared_memory_descriptor::SmemDescriptor;
use crate::tensor_memory::{validate_cp, CpMulticast, CpShape};
use core::fmt;

/// The source format of a decompressing `tcgen05.cp` (destination format `.b8x16`; PTX ISA
/// 9.7.16.9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CpSourceFormat {
    /// `.b6x16_p32`: 16 six-bit elements and 32 bits of padding.
    B6x16P32,
    /// `.b4x16_p64`: 16 four-bit elements and 64 bits of padding.
    B4x16P64,
}

impl CpSourceFormat {
    /// The PTX qualifier.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CpSourceFormat::B6x16P32 => ".b6x16_p32",
            CpSourceFormat::B4x16P64 => ".b4x16_p64",
        }
    }
}

/// `tcgen05.cp`: shared memory to Tensor Memory (PTX ISA 9.7.16.9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cp<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// The shape.
    pub shape: CpShape,
    /// The `.multicast` qualifier the shape needs.
    pub multicast: CpMulticast,
    /// Decompression `.b8x16.src_fmt`.
    pub source_format: Option<CpSourceFormat>,
    /// Register holding the Tensor Memory address.
    pub taddr: &'a str,
    /// The shared memory descriptor: a 64-bit register or an immediate that is then checked.
    pub sdesc: Value<'a, u64>,
}

impl<'a> Cp<'a> {
    /// A copy without decompression.
    #[must_use]
    pub const fn new(
        cta_group: CtaGroup,
        shape: CpShape,
        multicast: CpMulticast,
        taddr: &'a str,
        sdesc: Value<'a, u64>,
    ) -> Self {
        Cp {
            cta_group,
            shape,
            multicast,
            source_format: None,
            taddr,
            sdesc,
        }
    }

    /// With decompression from `fmt` to `.b8x16`.
    #[must_use]
    pub const fn with_source_format(mut self, fmt: CpSourceFormat) -> Self {
        self.source_format = Some(fmt);
        self
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        if let Err(e) = validate_cp(self.shape, self.multicast) {
            d.push(PtxError::Tmem(e));
        }
        match self.sdesc {
            Value::Reg(r) => check_name(r, OperandName::Sdesc, 0, &mut d),
            Value::Imm(v) => {
                let dec = SmemDescriptor::decode(v, ctx.target);
                let mut i = 0;
                while i < dec.diagnostics.len() {
                    if let Some(e) = dec.diagnostics.get(i) {
                        d.push(PtxError::Smem(e));
                    }
                    i += 1;
                }
            }
        }
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Cp(*self).write_unchecked(w)
    }
}
