//! The typed forms of the `tcgen05.*` instructions (PTX ISA 9.7.16), decoded once: qualifiers
//! as the core's enums, operands as register slots, immediates and addresses.

use tcgen05::emulator::SourceFormat;
use tcgen05::mma::{CtaGroup, Kind};
use tcgen05::ptx::{Collector, ScaleVec};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};

use crate::op::{Addr, Src};

/// One `tcgen05.*` instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Tcgen05 {
    /// `tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [dst], ncols` (PTX ISA
    /// 9.7.16.7.1): the warp allocates `ncols` columns and writes their address to `[dst]`.
    Alloc {
        /// Shared-memory destination of the address.
        dst: Addr,
        /// Columns (a power of two, 32 to 512).
        ncols: Src,
        /// `.cta_group::N`: with `::2`, one warp of each CTA of the pair, collectively.
        group: CtaGroup,
    },
    /// `tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, ncols`.
    Dealloc {
        /// The allocation's address.
        taddr: Src,
        /// Its columns.
        ncols: Src,
        /// `.cta_group::N`.
        group: CtaGroup,
    },
    /// `tcgen05.relinquish_alloc_permit.cta_group::N.sync.aligned`.
    Relinquish {
        /// `.cta_group::N`.
        group: CtaGroup,
    },
    /// `tcgen05.mma` (PTX ISA 9.7.16.10.9), issued by each thread that executes it.
    Mma(Box<MmaForm>),
    /// `tcgen05.commit.cta_group::1.mbarrier::arrive::one[.shared::cluster].b64 [mbar]`
    /// (PTX ISA 9.7.16.11.1): the mbarrier arrives once the thread's earlier asynchronous
    /// tcgen05 operations complete.
    Commit {
        /// The mbarrier.
        mbar: Addr,
        /// `.cta_group::N`.
        group: CtaGroup,
        /// The 16-bit `ctaMask` of `.multicast::cluster`: the mbarrier at the same offset in
        /// every CTA of the mask arrives (PTX ISA 9.7.16.11.1).
        multicast: Option<Src>,
    },
    /// `tcgen05.ld.sync.aligned.shape.num[.pack::16b].b32 {regs}, [taddr][, offset]`.
    Ld {
        /// The fragment shape.
        shape: LdStShape,
        /// Its repeat count.
        num: Num,
        /// `.pack::16b`.
        pack: bool,
        /// Destination slots.
        regs: Vec<u32>,
        /// The Tensor Memory address.
        taddr: Addr,
        /// The `.16x32bx2` half-split offset.
        offset: Option<u32>,
        /// `.red` with an integer type: the reduction into `redval` ([`super::ld_red`]).
        red: Option<super::ld_red::IntReduction>,
    },
    /// `tcgen05.st.sync.aligned.shape.num[.unpack::16b].b32 [taddr][, offset], {regs}`.
    St {
        /// The fragment shape.
        shape: LdStShape,
        /// Its repeat count.
        num: Num,
        /// `.unpack::16b`.
        pack: bool,
        /// Source registers.
        regs: Vec<Src>,
        /// The Tensor Memory address.
        taddr: Addr,
        /// The `.16x32bx2` half-split offset.
        offset: Option<u32>,
    },
    /// `tcgen05.wait::ld.sync.aligned`: the warp's loads are in its registers.
    WaitLd,
    /// `tcgen05.wait::st.sync.aligned`.
    WaitSt,
    /// `tcgen05.fence::before_thread_sync` / `::after_thread_sync`: ordering only (the hazard
    /// checker's tcgen05 ordering, rules.md I9).
    Fence(tcgen05::ptx::Fence),
    /// `tcgen05.cp.cta_group::1.shape[.multicast][.b8x16.src_fmt] [taddr], s-desc` (PTX ISA
    /// 9.7.16.9.1), issued by each thread that executes it.
    Cp {
        /// The shape.
        shape: CpShape,
        /// The warp multicast.
        multicast: CpMulticast,
        /// The decompression, if any.
        source: Option<SourceFormat>,
        /// The destination.
        taddr: Addr,
        /// The source's shared memory descriptor.
        desc: Src,
        /// `.cta_group::N`: with `::2`, both CTAs of the pair.
        group: CtaGroup,
    },
    /// `tcgen05.shift.cta_group::N.down [taddr]` (PTX ISA 9.7.16.9.3).
    Shift {
        /// The matrix's address.
        taddr: Addr,
        /// `.cta_group::N`.
        group: CtaGroup,
    },
}

/// The typed form and the operands of one `tcgen05.mma`.
#[derive(Clone, Debug, PartialEq)]
pub struct MmaForm {
    /// `.cta_group::N`.
    pub group: CtaGroup,
    /// `.kind::*`.
    pub kind: Kind,
    /// `.ws`.
    pub ws: bool,
    /// `.sp`.
    pub sp: bool,
    /// `.block_scale`.
    pub block_scale: bool,
    /// `.ashift`.
    pub ashift: bool,
    /// The scale vector qualifier.
    pub vec: ScaleVec,
    /// The collector usage.
    pub collector: Option<Collector>,
    /// `[d-tmem]`.
    pub d: Addr,
    /// A: a descriptor register (shared memory) or `[a-tmem]`.
    pub a: MmaA,
    /// B's descriptor.
    pub b: Src,
    /// `[sp-meta-tmem]` of `.sp`.
    pub meta: Option<Addr>,
    /// The instruction descriptor.
    pub idesc: Src,
    /// `[scale-A-tmem]`, `[scale-B-tmem]`.
    pub scales: Option<(Addr, Addr)>,
    /// `disable-output-lane`.
    pub disable: Option<Vec<Src>>,
    /// `enable-input-d` (a predicate).
    pub enable: Src,
    /// `scale-input-d`, or the `.ws` zero-column mask.
    pub last: Option<Src>,
}

impl Tcgen05 {
    /// The instruction's `.cta_group`, for those that take one (`ld`, `st`, `wait`, the
    /// fences do not).
    #[must_use]
    pub fn group(&self) -> Option<CtaGroup> {
        match self {
            Tcgen05::Alloc { group, .. }
            | Tcgen05::Dealloc { group, .. }
            | Tcgen05::Relinquish { group }
            | Tcgen05::Commit { group, .. }
            | Tcgen05::Cp { group, .. }
            | Tcgen05::Shift { group, .. } => Some(*group),
            Tcgen05::Mma(f) => Some(f.group),
            _ => None,
        }
    }
}

/// Where `tcgen05.mma` reads A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaA {
    /// Shared memory, through the descriptor in this operand.
    Smem(Src),
    /// Tensor Memory at this address.
    Tmem(Addr),
}
