//! `cp.async.bulk.tensor` with `.cta_group` (PTX ISA 9.7.9.25.5.1): a tiled copy into the
//! shared memory of a CTA of the cluster whose bytes complete on an mbarrier that, with
//! `.cta_group::2`, may be in the other CTA of the destination's CTA pair (the pair of
//! 9.7.16.5.1: ranks differing in bit 0). Triton's two-CTA kernels load each CTA's operands into
//! its own shared memory and complete both CTAs' copies on the even CTA's mbarrier, whose
//! address they form by clearing bit 24 of their own ([`crate::cluster`]).

use super::{bad, map_index, Cta};
use crate::cluster::split_address;
use crate::error::RunError;
use crate::observe::peer_key;
use crate::tensor_map::Copy;

/// The instruction's three addresses, as the thread computed them.
pub(super) struct At {
    /// The `.shared::cluster` (or `.shared::cta`) destination.
    pub dst: u64,
    /// The tensor map's address.
    pub map: u64,
    /// The mbarrier's `.shared::cluster` address.
    pub mbar: u64,
}

/// Queues the copy in the destination CTA. The destination must be the executing CTA or, with
/// `.cta_group::2`, the other CTA of its pair; the mbarrier must be in the destination's CTA or,
/// with `.cta_group::2`, in the other CTA of that pair. Anything else is refused at the line.
/// `issuer` is the issuing thread, for the hazard checker.
pub(super) fn group_load(
    cta: &mut Cta<'_>,
    line: u32,
    at: At,
    coords: Vec<i64>,
    (pair, issuer): (bool, u32),
) -> Result<(), RunError> {
    let index = map_index(cta, at.map, line)?;
    let rank = cta.cluster.rank;
    let size = cta.cluster.peers.len() as u32;
    let (dst_rank, dst) = split_address(at.dst as u32);
    let (mbar_rank, mbar) = split_address(at.mbar as u32);
    let group = if pair {
        ".cta_group::2"
    } else {
        ".cta_group::1"
    };
    if pair && (rank ^ 1) >= size {
        return Err(bad(
            line,
            format!("{group} in CTA rank {rank} of a cluster of {size} CTA(s)"),
            "the CTA pair is two CTAs of one cluster whose %cluster_ctarank differ in bit 0 (PTX ISA 9.7.16.5.1)",
        ));
    }
    if dst_rank != rank && !(pair && dst_rank == rank ^ 1) {
        return Err(bad(
            line,
            format!("cp.async.bulk.tensor{group} destination 0x{:x} (CTA rank {dst_rank})", at.dst),
            "the destination is the executing CTA's shared memory, or with .cta_group::2 its pair's (PTX ISA 9.7.9.25.5.1)",
        ));
    }
    if mbar_rank != dst_rank && !(pair && mbar_rank == dst_rank ^ 1) {
        return Err(bad(
            line,
            format!("cp.async.bulk.tensor{group} mbarrier 0x{:x} (CTA rank {mbar_rank})", at.mbar),
            "the mbarrier is in the destination's CTA, or with .cta_group::2 in either CTA of its pair (PTX ISA 9.7.9.25.5.1)",
        ));
    }
    let copy = Copy {
        line,
        map: index,
        coords,
        dst,
        mbar,
        mbar_rank: (mbar_rank != dst_rank).then_some(mbar_rank),
        id: cta.next_async,
    };
    cta.next_async += 1;
    if cta.obs.is_some() {
        let shown = Copy {
            dst: peer_key(dst_rank, dst),
            mbar: peer_key(mbar_rank, mbar),
            ..copy.clone()
        };
        super::super::hooks::copy_issued(cta, &shown, issuer);
    }
    if dst_rank == rank {
        cta.copies.push(copy);
    } else {
        cta.cluster.peers[dst_rank as usize].copies.push(copy);
    }
    Ok(())
}
