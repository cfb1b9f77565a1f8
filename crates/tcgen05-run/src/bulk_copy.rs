//! Non-tensor bulk copies (PTX ISA 9.7.9.25.4: `cp.async.bulk`, `cp.reduce.async.bulk`) and
//! the correctly rounded floating-point functions (`sqrt`, `rcp`); their decoded forms.
//!
//! A copy from global to shared memory completes its bytes on an mbarrier: the run queues it
//! when issued and performs it when a thread of the destination CTA waits on that mbarrier (as
//! late as PTX allows, like the tensor copies). A copy or reduction from shared to global
//! memory (`.bulk_group`) is performed when issued: PTX requires its source to stay unchanged
//! until `cp.async.bulk.wait_group.read`, so reading it then gives the same bytes.

use crate::atom::AtomOp;
use crate::op::{Addr, Src, Ty};

/// A bulk copy or reduction, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bulk {
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes[.multicast::cluster]
    /// [dst], [src], size, [mbar][, ctaMask]`.
    Load {
        /// Shared destination (its offset is used in every destination CTA).
        dst: Addr,
        /// Global source.
        src: Addr,
        /// Bytes (a multiple of 16).
        size: Src,
        /// The mbarrier (same offset in every destination CTA).
        mbar: Addr,
        /// The CTA mask of a multicast copy.
        mask: Option<Src>,
    },
    /// `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size` and, with `op`,
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.op.type [dst], [src], size`.
    Store {
        /// Global destination.
        dst: Addr,
        /// Shared source.
        src: Addr,
        /// Bytes.
        size: Src,
        /// The reduction and its element type (`None`: a plain copy).
        op: Option<(AtomOp, Ty)>,
    },
    /// `cp.async.bulk.commit_group`: the thread's uncommitted bulk stores form a bulk
    /// async-group (PTX ISA 9.7.9.25.4.3). No effect on values (the stores are performed at
    /// issue); seen by the hazard checker.
    Commit,
    /// `cp.async.bulk.wait_group[.read] n` (PTX ISA 9.7.9.25.4.4): every bulk group of the
    /// thread but the `n` newest complete (with `.read`, their reads of the source).
    Wait {
        /// Groups that may stay pending (an immediate).
        n: u32,
        /// `.read`.
        read: bool,
    },
}

/// A pending bulk load of one destination CTA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    /// The instruction's line.
    pub line: u32,
    /// Shared offset of the destination.
    pub dst: u32,
    /// Global source address.
    pub src: u64,
    /// Bytes.
    pub size: u32,
    /// Shared offset of the mbarrier.
    pub mbar: u32,
    /// The asynchronous operation's id (what an observer sees), one per destination CTA.
    pub id: u64,
}

/// `sqrt.f64` of a negative number: the NaN an H200 gives (measured by hw/run/breadth float_fn
/// and directed: `0xFFF8000000000000`, not the canonical NaN of other f64 results).
pub(crate) const SQRT_NEGATIVE_F64: u64 = 0xFFF8_0000_0000_0000;

/// `sqrt` or `rcp` with a rounding (PTX ISA 9.7.3.16, 9.7.3.15): the IEEE 754 correctly rounded
/// result (`.rn` here, the directed roundings in `directed.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundedFn {
    /// `sqrt` (true) or `rcp`.
    pub sqrt: bool,
    /// `.f32` or `.f64`.
    pub ty: Ty,
    /// `.ftz` (f32).
    pub ftz: bool,
    /// The rounding (`.rn`, or a directed one: `directed.rs`).
    pub rnd: crate::op::Rnd,
    /// Destination slot.
    pub d: u32,
    /// Source.
    pub a: Src,
}

impl RoundedFn {
    /// The result bits for the source bits `a` (NaN results canonical).
    #[must_use]
    pub fn apply(&self, a: u64) -> u64 {
        if self.ty == Ty::F64 {
            let x = f64::from_bits(a);
            if self.sqrt && x < 0.0 {
                return SQRT_NEGATIVE_F64;
            }
            let r = if self.sqrt { x.sqrt() } else { 1.0 / x };
            return if r.is_nan() {
                0x7FFF_FFFF_FFFF_FFFF
            } else {
                r.to_bits()
            };
        }
        let flush = |b: u32| {
            if self.ftz && b & 0x7F80_0000 == 0 {
                b & 0x8000_0000
            } else {
                b
            }
        };
        let x = f32::from_bits(flush(a as u32));
        let r = if self.sqrt { x.sqrt() } else { 1.0 / x };
        u64::from(if r.is_nan() {
            0x7FFF_FFFF
        } else {
            flush(r.to_bits())
        })
    }
}
