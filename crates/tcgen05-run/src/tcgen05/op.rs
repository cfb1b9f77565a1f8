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
        /// `.cta_group::N` (only `::1` is executed yet).
        group: CtaGroup,
        /// Shared-memory destination of the address.
        dst: Addr,
        /// Columns (a power of two, 32 to 512).
        ncols: Src,
    },
    /// `tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, ncols`.
    Dealloc {
        /// `.cta_group::N` (only `::1` is executed yet).
        group: CtaGroup,
        /// The allocation's address.
        taddr: Src,
        /// Its columns.
        ncols: Src,
    },
    /// `tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned`.
    Relinquish {
        /// `.cta_group::N` (only `::1` is executed yet).
        group: CtaGroup,
    },
    /// `tcgen05.mma` (PTX ISA 9.7.16.10.9), issued by each thread that executes it.
    Mma(Box<MmaForm>),
    /// `tcgen05.commit.cta_group::1.mbarrier::arrive::one[.shared::cluster].b64 [mbar]`
    /// (PTX ISA 9.7.16.11.1): the mbarrier arrives once the thread's earlier asynchronous
    /// tcgen05 operations complete.
    Commit {
        /// `.cta_group::N` (only `::1` is executed yet).
        group: CtaGroup,
        /// The mbarrier.
        mbar: Addr,
        /// `.multicast::cluster`'s 16-bit `ctaMask`: the CTAs of the cluster whose mbarrier
        /// at `mbar` arrives.
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
    /// `tcgen05.fence::before_thread_sync` / `::after_thread_sync`: ordering only.
    Fence,
    /// `tcgen05.cp.cta_group::1.shape[.multicast][.b8x16.src_fmt] [taddr], s-desc` (PTX ISA
    /// 9.7.16.9.1), issued by each thread that executes it.
    Cp {
        /// `.cta_group::N` (only `::1` is executed yet).
        group: CtaGroup,
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
    },
    /// `tcgen05.shift.cta_group::1.down [taddr]` (PTX ISA 9.7.16.9.3).
    Shift {
        /// `.cta_group::N` (only `::1` is executed yet).
        group: CtaGroup,
        /// The matrix's address.
        taddr: Addr,
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

/// Where `tcgen05.mma` reads A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaA {
    /// Shared memory, through the descriptor in this operand.
    Smem(Src),
    /// Tensor Memory at this address.
    Tmem(Addr),
}
