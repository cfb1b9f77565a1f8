//! Decoding of the cluster instructions (`barrier.cluster`, `mapa`, `getctarank`, mbarrier
//! arrivals on a `.shared::cluster` address, multicast bulk tensor copies) into
//! [`ClusterOp`]s.

use tcgen05::ptx_reader::Operand;

use super::D;
use crate::cluster::ClusterOp;
use crate::error::{invalid, RunError};
use crate::op::{OpKind, Src};

/// Memory-ordering and scope qualifiers that change nothing in a sequentially consistent run
/// (PTX ISA 8.4, 8.5).
const ORDERING: [&str; 8] = [
    "release", "acquire", "relaxed", "acq_rel", "cta", "cluster", "gpu", "sys",
];

/// The qualifiers of an instruction without its ordering and scope qualifiers.
pub(super) fn without_ordering<'q>(q: &[&'q str]) -> Vec<&'q str> {
    q.iter()
        .copied()
        .filter(|x| !ORDERING.contains(x))
        .collect()
}

/// `barrier.cluster.arrive` / `barrier.cluster.wait` with their ordering and `.aligned`.
pub(super) fn barrier(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(0)?;
    let op = match q {
        ["cluster", "arrive", rest @ ..]
            if rest
                .iter()
                .all(|x| matches!(*x, "release" | "relaxed" | "aligned")) =>
        {
            if rest.contains(&"relaxed") {
                ClusterOp::ArriveRelaxed
            } else {
                ClusterOp::Arrive
            }
        }
        ["cluster", "wait", rest @ ..]
            if rest.iter().all(|x| matches!(*x, "acquire" | "aligned")) =>
        {
            ClusterOp::Wait
        }
        _ => return Err(d.unsupported(d.ins.opcode, "barrier.cluster form not modelled")),
    };
    Ok(OpKind::Cluster(op))
}

/// `mapa.shared::cluster.u32 d, a, rank` / `mapa[.generic].u64 d, a, rank` (PTX ISA 9.7.9.22).
pub(super) fn mapa(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(3)?;
    let generic = match q {
        ["shared::cluster", "u32" | "b32"] => false,
        ["u64" | "b64"] | ["generic", "u64" | "b64"] => true,
        _ => return Err(d.unsupported(d.ins.opcode, "mapa form not modelled")),
    };
    Ok(OpKind::Cluster(ClusterOp::Mapa {
        d: d.dst(0)?,
        a: d.src(1)?,
        rank: d.src(2)?,
        generic,
    }))
}

/// `getctarank.shared::cluster.u32 d, a` / `getctarank[.generic].u64 d, a` (PTX ISA 9.7.9.23).
pub(super) fn getctarank(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(2)?;
    let generic = match q {
        ["shared::cluster", "u32" | "b32"] => false,
        ["u64" | "b64"] | ["generic", "u64" | "b64"] => true,
        _ => return Err(d.unsupported(d.ins.opcode, "getctarank form not modelled")),
    };
    Ok(OpKind::Cluster(ClusterOp::Getctarank {
        d: d.dst(0)?,
        a: d.src(1)?,
        generic,
    }))
}

/// Whether an `mbarrier` instruction names the `.shared::cluster` window (an arrival on any
/// CTA's barrier), so that [`mbarrier_arrive`] decodes it.
pub(super) fn is_cluster_mbarrier(q: &[&str]) -> bool {
    q.first() == Some(&"arrive") && q.contains(&"shared::cluster")
}

/// `mbarrier.arrive[.expect_tx][.sem][.scope].shared::cluster.b64 _, [addr][, tx]` (PTX ISA
/// 9.7.13.15.13: the remote form returns no state).
pub(super) fn mbarrier_arrive(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let mut expect_tx = false;
    for x in &q[1..] {
        match *x {
            "expect_tx" => expect_tx = true,
            "shared::cluster" | "b64" => {}
            // A relaxed remote arrival orders only through the tcgen05 fences (rules.md I9),
            // which the checker does not follow across CTAs.
            "relaxed" => {
                return Err(d.unsupported(x, "relaxed arrival on a peer's mbarrier not modelled"))
            }
            x if ORDERING.contains(&x) => {}
            x => return Err(d.unsupported(x, "mbarrier.arrive qualifier not modelled")),
        }
    }
    if !matches!(d.operand(0)?, Operand::Name("_")) {
        return Err(invalid(
            d.line,
            d.ins.text,
            "an arrival on a .shared::cluster mbarrier returns no state: its destination is _ (PTX ISA 9.7.13.15.13)",
        ));
    }
    let tx = if expect_tx {
        d.count(3)?;
        Some(d.src(2)?)
    } else {
        d.count(2)?;
        None
    };
    Ok(OpKind::Cluster(ClusterOp::MbarArrive {
        addr: d.addr(1)?,
        tx,
    }))
}

/// The rank of a `cp.async.bulk.tensor` copy (`.1d`, `.2d`: the ones modelled; PTX ISA
/// 9.7.9.25.5.1).
pub(super) fn tensor_rank(d: &D<'_, '_>, dim: &str) -> Result<usize, RunError> {
    match dim {
        "1d" => Ok(1),
        "2d" => Ok(2),
        _ => Err(d.unsupported(dim, "only 1-D and 2-D tensor copies are modelled yet")),
    }
}

/// `cp.async.bulk.tensor.{1d,2d}.shared::cluster.global[.tile].mbarrier::complete_tx::bytes
/// .multicast::cluster [dst], [map, {coords}], [mbar], mask` (PTX ISA 9.7.9.25.5.1).
pub(super) fn multicast(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let dims = match q {
        ["async", "bulk", "tensor", dim, "shared::cluster", "global", rest @ ..]
            if rest == ["mbarrier::complete_tx::bytes", "multicast::cluster"]
                || rest == ["tile", "mbarrier::complete_tx::bytes", "multicast::cluster"] =>
        {
            tensor_rank(d, dim)?
        }
        _ => {
            return Err(d.unsupported(
                d.ins.opcode,
                "multicast tensor copy form not modelled (cache hints, im2col)",
            ))
        }
    };
    d.count(5)?;
    let coords: Vec<Src> = match d.operand(2)? {
        Operand::Vector(v) => v.iter().map(|o| d.src_of(o)).collect::<Result<_, _>>()?,
        o => vec![d.src_of(o)?],
    };
    if coords.len() != dims {
        return Err(invalid(d.line, d.ins.text, "one coordinate per dimension"));
    }
    Ok(OpKind::Cluster(ClusterOp::Multicast {
        dst: d.addr(0)?,
        map: d.addr(1)?,
        coords,
        mbar: d.addr(3)?,
        mask: d.src(4)?,
    }))
}

/// `cp.async.bulk.tensor.{1d,2d}.cta_group::{1,2}.shared::{cta,cluster}.global[.tile]
/// .mbarrier::complete_tx::bytes [dst], [map, {coords}], [mbar]` (PTX ISA 9.7.9.25.5.1; Triton
/// writes `.cta_group` after the dimension). Multicast and cache hints with `.cta_group` are
/// refused by name.
pub(super) fn group_load(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let pair = match q
        .iter()
        .filter(|x| x.starts_with("cta_group::"))
        .collect::<Vec<_>>()[..]
    {
        [&"cta_group::1"] => false,
        [&"cta_group::2"] => true,
        _ => return Err(d.unsupported(d.ins.opcode, "a .cta_group qualifier not modelled")),
    };
    let rest: Vec<&str> = q
        .iter()
        .copied()
        .filter(|x| !x.starts_with("cta_group::"))
        .collect();
    let dims = match rest[..] {
        ["async", "bulk", "tensor", dim, "shared::cta" | "shared::cluster", "global", ref tail @ ..]
            if tail == ["mbarrier::complete_tx::bytes"]
                || tail == ["tile", "mbarrier::complete_tx::bytes"] =>
        {
            tensor_rank(d, dim)?
        }
        _ => {
            return Err(d.unsupported(
                d.ins.opcode,
                "tensor copy form with .cta_group not modelled (multicast, cache hints, im2col)",
            ))
        }
    };
    d.count(4)?;
    let coords: Vec<Src> = match d.operand(2)? {
        Operand::Vector(v) => v.iter().map(|o| d.src_of(o)).collect::<Result<_, _>>()?,
        o => vec![d.src_of(o)?],
    };
    if coords.len() != dims {
        return Err(invalid(d.line, d.ins.text, "one coordinate per dimension"));
    }
    Ok(OpKind::Cluster(ClusterOp::GroupLoad {
        dst: d.addr(0)?,
        map: d.addr(1)?,
        coords,
        mbar: d.addr(3)?,
        pair,
    }))
}
