//! Thread block clusters (PTX ISA 5.2.3, 9.7.13.2 `barrier.cluster`, 9.7.9.22 `mapa`, 9.7.9.23
//! `getctarank`, 5.1.4 the `.shared::cluster` window): the instruction forms of the cluster,
//! and how a run writes addresses of distributed shared memory.
//!
//! Addresses. A `.shared::cta` address is a byte offset in the CTA's own shared memory (below
//! 2^24: a CTA has at most 227 KiB). A `.shared::cluster` address of the CTA of rank `r` is
//! `(r + 1) << 24 | offset`; an address with no rank bits is the executing CTA's own (PTX ISA
//! 5.1.4: the `.shared::cta` window lies inside the `.shared::cluster` window). A generic
//! address of shared memory is [`SHARED_WINDOW`] plus either form. A kernel sees these values
//! only through `mapa`, `cvta` and `getctarank`; the hardware's own numbers differ, and no
//! result of a correct kernel depends on them.

use crate::error::{invalid, RunError};
use crate::host::Config;
use crate::module::Kernel;
use crate::op::{Addr, Src};

/// The generic address of shared memory offset 0 (what `cvta.shared` adds).
pub const SHARED_WINDOW: u64 = 0x0700_0000_0000;

/// The bit where the rank of a `.shared::cluster` address starts.
pub const RANK_SHIFT: u32 = 24;

/// The most CTAs of one cluster: 16 with the non-portable cluster size of sm_90 (CUDA C++
/// Programming Guide, thread block clusters; 8 is the portable size).
pub const MAX_CLUSTER: u32 = 16;

/// The `.shared::cluster` address of `offset` in the CTA of rank `rank`.
#[must_use]
pub fn cluster_address(rank: u32, offset: u32) -> u32 {
    (rank + 1) << RANK_SHIFT | (offset & ((1 << RANK_SHIFT) - 1))
}

/// A `.shared::cluster` address split into its CTA rank (`None`: the executing CTA's own) and
/// its offset in that CTA's shared memory.
#[must_use]
pub fn split_address(address: u32) -> (Option<u32>, u32) {
    let rank = address >> RANK_SHIFT;
    let offset = address & ((1 << RANK_SHIFT) - 1);
    if rank == 0 {
        (None, offset)
    } else {
        (Some(rank - 1), offset)
    }
}

/// A cluster instruction, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClusterOp {
    /// `barrier.cluster.arrive[.release|.relaxed][.aligned]`: the thread arrives at the cluster
    /// barrier's current phase without waiting.
    Arrive,
    /// `barrier.cluster.arrive.relaxed[.aligned]`: [`ClusterOp::Arrive`] without release
    /// semantics (PTX ISA 9.7.13.2: the thread's earlier accesses are not ordered by it).
    ArriveRelaxed,
    /// `barrier.cluster.wait[.acquire][.aligned]`: the thread waits until every non-exited thread
    /// of the cluster has arrived at the phase it arrived at.
    Wait,
    /// `mapa.shared::cluster.u32 d, a, rank` (`generic` false) or `mapa.u64 d, a, rank`: the
    /// address of the same shared variable in the CTA of that rank.
    Mapa {
        /// Destination slot.
        d: u32,
        /// Source address.
        a: Src,
        /// Target CTA rank.
        rank: Src,
        /// Generic addresses (`.u64`) rather than `.shared::cluster` ones.
        generic: bool,
    },
    /// `getctarank.shared::cluster.u32 d, a` / `getctarank.u64 d, a`: the rank of the CTA whose
    /// shared memory holds `a`.
    Getctarank {
        /// Destination slot.
        d: u32,
        /// Source address.
        a: Src,
        /// Generic address.
        generic: bool,
    },
    /// `mbarrier.arrive[.expect_tx][.release][.cluster].shared::cluster.b64 _, [addr][, tx]`:
    /// an arrival (after adding `tx` transaction bytes) on an mbarrier of any CTA of the cluster.
    MbarArrive {
        /// The mbarrier's `.shared::cluster` address.
        addr: Addr,
        /// Expected transaction bytes.
        tx: Option<Src>,
    },
    /// `cp.async.bulk.tensor.Nd.shared::cluster.global[.tile].mbarrier::complete_tx::bytes
    /// .multicast::cluster [dst], [map, {coords}], [mbar], mask`: the box lands at the same
    /// offset in every CTA whose rank bit is set in `mask`, and completes its bytes on the
    /// mbarrier at the same offset in each (PTX ISA 9.7.9.25.5.1).
    Multicast {
        /// Shared destination (its offset is used in every destination CTA).
        dst: Addr,
        /// The tensor map's address.
        map: Addr,
        /// Box coordinates, innermost first.
        coords: Vec<Src>,
        /// The mbarrier (its offset is used in every destination CTA).
        mbar: Addr,
        /// The 16-bit CTA mask.
        mask: Src,
    },
}

/// The cluster directives of a kernel header after its name (PTX ISA 11.4.3-11.4.5):
/// `.reqnctapercluster X[, Y[, Z]]` gives the cluster shape, `.explicitcluster` marks the
/// kernel as launched in clusters; `.maxclusterrank N` changes nothing a run computes.
pub(crate) fn header(line: u32, text: &str) -> Result<(Option<[u32; 3]>, bool), RunError> {
    let explicit = text.contains(".explicitcluster");
    let Some((_, rest)) = text.split_once(".reqnctapercluster") else {
        return Ok((None, explicit));
    };
    let end = rest.find(['.', '{']).unwrap_or(rest.len());
    let mut dims = [1u32; 3];
    let parts: Vec<&str> = rest[..end].split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(invalid(
            line,
            text,
            ".reqnctapercluster takes 1 to 3 dimensions",
        ));
    }
    for (i, p) in parts.iter().enumerate() {
        dims[i] = p
            .parse()
            .ok()
            .filter(|&d| d >= 1)
            .ok_or_else(|| invalid(line, p, ".reqnctapercluster needs positive integers"))?;
    }
    Ok((Some(dims), true))
}

/// The cluster shape a launch runs: the configuration's, or the kernel's `.reqnctapercluster`
/// when the configuration gives 1 x 1 x 1; and whether it is explicit.
pub(crate) fn launch_shape(k: &Kernel, c: &Config) -> ([u32; 3], bool) {
    if c.cluster == [1, 1, 1] {
        match k.cluster {
            Some(d) => (d, true),
            None => ([1, 1, 1], k.explicit_cluster),
        }
    } else {
        (c.cluster, true)
    }
}

/// The launch rules of a cluster shape (CUDA driver API, `cuLaunchKernelEx` with
/// `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`): each dimension at least 1 and dividing the grid's,
/// at most 16 CTAs, and equal to the kernel's `.reqnctapercluster` when it declares one.
pub(crate) fn check_launch(k: &Kernel, c: &Config) -> Result<(), RunError> {
    let dims = |v: [u32; 3]| format!("{},{},{}", v[0], v[1], v[2]);
    let refuse = |why| {
        Err(RunError::Launch {
            field: "cluster",
            value: dims(c.cluster),
            why,
        })
    };
    if c.cluster.contains(&0) {
        return refuse("each cluster dimension is at least 1");
    }
    if let Some(req) = k.cluster {
        if c.cluster != [1, 1, 1] && c.cluster != req {
            return refuse("differs from the kernel's .reqnctapercluster (PTX ISA 11.4.4)");
        }
    }
    let (shape, _) = launch_shape(k, c);
    if shape.iter().product::<u32>() > MAX_CLUSTER {
        return refuse("more than 16 CTAs in a cluster (sm_90 allows 8, 16 non-portable)");
    }
    if (0..3).any(|i| c.grid[i] % shape[i] != 0) {
        return refuse("each grid dimension must be a multiple of the cluster's (CUDA driver API)");
    }
    Ok(())
}
