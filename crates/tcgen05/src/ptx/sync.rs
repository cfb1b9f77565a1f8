//! `tcgen05.commit`, `tcgen05.fence::*` and `tcgen05.wait::*` (PTX ISA 9.7.16; `wait` in 9.7.16.8.5).

use super::error::{OperandName, PtxDiagnostics, PtxError, PtxRule};
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
    /// `.multicast::cluster` with its `ctaMask` (a register or an immediate; 16 bits, 32 with
    /// [`CommitMulticast::Cluster32b`], whose immediates above 16 bits the typed form cannot
    /// hold).
    pub multicast: Option<Value<'a, u16>>,
    /// How the multicast qualifier is spelled (read only with [`Commit::multicast`]).
    pub multicast_spelling: CommitMulticast,
    /// `.sync_restrict::shared::read::mma::a`: the mbarrier tracks only the reads of matrix A
    /// from shared memory (PTX ISA 9.4, `sm_107a` / `sm_107f`).
    pub sync_restrict_a: bool,
}

/// The spelling of `tcgen05.commit`'s multicast qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CommitMulticast {
    /// `.multicast::cluster`, a 16-bit `ctaMask` (PTX ISA 8.6).
    #[default]
    Cluster,
    /// `.multicast::cluster::16b`, the same with its width written (PTX ISA 9.4, every tcgen05
    /// target: rules.md F2).
    Cluster16b,
    /// `.multicast::cluster::32b`, a 32-bit `ctaMask` (PTX ISA 9.4, `sm_107a` / `sm_107f`).
    Cluster32b,
}

impl<'a> Commit<'a> {
    /// `tcgen05.commit` with `.multicast::cluster` when `multicast` is given, without the PTX
    /// ISA 9.4 qualifiers.
    #[must_use]
    pub const fn new(
        cta_group: CtaGroup,
        mbar: &'a str,
        multicast: Option<Value<'a, u16>>,
    ) -> Self {
        Commit {
            cta_group,
            mbar,
            multicast,
            multicast_spelling: CommitMulticast::Cluster,
            sync_restrict_a: false,
        }
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.mbar, OperandName::Mbar, 0, &mut d);
        if let Some(Value::Reg(r)) = self.multicast {
            check_name(r, OperandName::CtaMask, 0, &mut d);
        }
        let wide = self.multicast.is_some()
            && matches!(self.multicast_spelling, CommitMulticast::Cluster32b);
        let on = ctx.target.supports_sm107_forms();
        if self.sync_restrict_a && !on {
            d.push(PtxError::named(
                PtxRule::Sm107NotOnTarget,
                ".sync_restrict::shared::read::mma::a",
            ));
        }
        if wide && !on {
            d.push(PtxError::named(
                PtxRule::Sm107NotOnTarget,
                ".multicast::cluster::32b",
            ));
        }
        let need = Instruction::Commit(*self).min_ptx_version();
        if need > ctx.target.min_ptx_version() {
            let what = if self.sync_restrict_a {
                ".sync_restrict::shared::read::mma::a"
            } else if wide {
                ".multicast::cluster::32b"
            } else {
                ".multicast::cluster::16b"
            };
            ctx.check_version(need, what, &mut d);
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
