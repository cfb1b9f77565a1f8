//! Thread block clusters (PTX ISA 5.2.3, 9.7.13.2 `barrier.cluster`, 9.7.9.22 `mapa`, 9.7.9.23
//! `getctarank`, 5.1.4 the `.shared::cluster` window): the instruction forms of the cluster,
//! and how a run writes addresses of distributed shared memory.
//!
//! Addresses, as the hardware writes them. The shared memory of the CTA of rank `r` is the
//! window `r << 24 | offset` of the `.shared::cluster` space (offset below 2^24: a CTA has at
//! most 227 KiB), and its `.shared::cta` addresses are the same numbers: PTX ISA 5.1.4 puts the
//! `.shared::cta` window inside the `.shared::cluster` window, so an address of the executing
//! CTA's variable is a valid `.shared::cluster` address of it. The rank in bits 24 and up is
//! what compilers rely on: Triton's two-CTA kernels reach the even CTA of a pair by clearing
//! bit 24 of their own address (`and.b32 ..., 0xFEFFFFF0`, `examples/kernels/
//! gluon_pair_tma_dot_f16.ptx`). A shared variable's address (`mov`, `cvta`, an address
//! operand) carries its CTA's rank ([`crate::op::Src::Shared`]); a `.shared::cta` access
//! takes the offset of an address with the executing CTA's rank (or none, as a rank-0 kernel
//! writes it). A generic address of shared memory is [`SHARED_WINDOW`] plus the
//! `.shared::cluster` address.

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

/// The bits of a `.shared::cluster` address below the rank: the offset in a CTA's shared memory.
pub const OFFSET_MASK: u32 = (1 << RANK_SHIFT) - 1;

/// The `.shared::cluster` address of `offset` in the CTA of rank `rank`.
#[must_use]
pub fn cluster_address(rank: u32, offset: u32) -> u32 {
    rank << RANK_SHIFT | (offset & OFFSET_MASK)
}

/// A `.shared::cluster` address split into its CTA rank and its offset in that CTA's shared
/// memory.
#[must_use]
pub fn split_address(address: u32) -> (u32, u32) {
    (address >> RANK_SHIFT, address & OFFSET_MASK)
}

/// The offset in its own shared memory of a `.shared::cta` address used by the CTA of rank
/// `rank`: the address without its rank bits when they are the CTA's own (or zero); any other
/// address is returned unchanged (its low 32 bits), so that the access lies outside the CTA's
/// shared memory and is refused as such (PTX ISA 5.1.4: a `.shared::cta` address names the
/// executing CTA's memory).
#[must_use]
pub fn own_offset(rank: u32, address: u64) -> u64 {
    let a = address & 0xFFFF_FFFF;
    if a >> RANK_SHIFT == u64::from(rank) {
        a & u64::from(OFFSET_MASK)
    } else {
        a
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
    /// `cp.async.bulk.tensor.{1d,2d}.cta_group::{1,2}.shared::{cta,cluster}.global[.tile]
    /// .mbarrier::complete_tx::bytes [dst], [map, {coords}], [mbar]`: a tiled copy into the
    /// shared memory `dst` names whose bytes complete on the mbarrier `mbar` names; with
    /// `.cta_group::2` (`pair`) that mbarrier may be in either CTA of the destination's CTA pair
    /// (PTX ISA 9.7.9.25.5.1), with `::1` it is in the destination's CTA
    /// ([`crate::exec`]'s `bulk_tensor`).
    GroupLoad {
        /// The `.shared::cluster` destination.
        dst: Addr,
        /// The tensor map's address.
        map: Addr,
        /// Box coordinates, innermost first.
        coords: Vec<Src>,
        /// The mbarrier's `.shared::cluster` address.
        mbar: Addr,
        /// `.cta_group::2`.
        pair: bool,
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
