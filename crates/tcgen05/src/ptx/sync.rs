//! `tcgen05.commit`, `tcgen05.fence::*` and `tcgen05.wait::*` (PTX ISA 9.7.16; `wait` in 9.7.16.8.5).

use super::error::{OperandName, PtxDiagnostics};
use super::{check_name, Context, Instruction, Value};
use crate::mma::CtaGroup;
use core::fmt;

/// `tcgen05.commit`: make an mbarrier track the completion of this thread's earlier
/// asynchronous tcgen05 operations (PTX ISA 9.7.16 `tcgen05.commit`, anchor
/// `#tcgen05-instructions-tcgen05-commit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Commit<'a> {
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// The mbarrier's shared memory variable or address register.
    pub mbar: &'a str,
    /// `.multicast::cluster` with its 16-bit `ctaMask` (a `.b16` register or an immediate).
    pub multicast: Option<Value<'a, u16>>,
}

impl Commit<'_> {
    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.mbar, OperandName::Mbar, 0, &mut d);
        if let Some(Value::Reg(r)) = self.multicast {
            check_name(r, OperandName::CtaMask, 0, &mut d);
        }
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Commit(*self).write_unchecked(w)
    }
}

/// `tcgen05.fence::*`: order tcgen05 operations around thread synchronization (PTX ISA 9.7.16
/// `tcgen05.fence`, anchor `#tcgen05-instructions-tcgen05-fence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fence {
    /// `tcgen05.fence::before_thread_sync`.
    BeforeThreadSync,
    /// `tcgen05.fence::after_thread_sync`.
    AfterThreadSync,
}

/// `tcgen05.wait::*` (PTX ISA 9.7.16.8.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wait {
    /// `tcgen05.wait::ld.sync.aligned`.
    Ld,
    /// `tcgen05.wait::st.sync.aligned`.
    St,
}
