//! Instructions that change no value a run computes, accepted by name: memory fences and
//! barriers of ordering only (a run's memory is sequentially consistent), `nanosleep`,
//! `prefetch`/`prefetchu` (caches are not modelled), `griddepcontrol` (one grid per run: there
//! is no prerequisite grid to wait for and no dependent grid to launch), `setmaxnreg` (register
//! counts are not modelled); and `isspacep`.

use super::D;
use crate::error::RunError;
use crate::op::{OpKind, Space};

/// `membar.{cta,gl,sys}`, `fence.{sc,acq_rel}.{cta,cluster,gpu,sys}`, `fence.proxy.async` with
/// a state space, `fence.proxy.alias`: ordering only (PTX ISA 9.7.13.4).
pub(super) fn is_ordering(q: &[&str]) -> bool {
    matches!(
        q,
        ["cta" | "gl" | "sys"]
            | ["sc" | "acq_rel", "cta" | "cluster" | "gpu" | "sys"]
            | [
                "proxy",
                "async",
                "shared::cluster" | "shared::cta" | "global"
            ]
            | ["proxy", "alias"]
            | ["mbarrier_init", "release", "cluster"]
    )
}

/// `nanosleep.u32 t`, `prefetch{.space}.level [a]`, `prefetchu.L1 [a]`,
/// `griddepcontrol.{launch_dependents,wait}`, `setmaxnreg.{inc,dec}.sync.aligned.u32 n`.
pub(super) fn no_effect(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let ok = match d.ins.base() {
        "nanosleep" => q == ["u32"] && d.count(1).is_ok(),
        "prefetch" => {
            d.count(1).is_ok()
                && q.iter().all(|x| {
                    matches!(
                        *x,
                        "global"
                            | "local"
                            | "L1"
                            | "L2"
                            | "L2::evict_last"
                            | "L2::evict_normal"
                            | "tensormap"
                            | "param"
                            | "const"
                    )
                })
        }
        "prefetchu" => q == ["L1"] && d.count(1).is_ok(),
        "griddepcontrol" => matches!(q, ["launch_dependents"] | ["wait"]) && d.count(0).is_ok(),
        _ => matches!(q, ["inc" | "dec", "sync", "aligned", "u32"]) && d.count(1).is_ok(),
    };
    if ok {
        Ok(OpKind::Fence)
    } else {
        Err(d.unsupported(d.ins.opcode, "form not modelled"))
    }
}

/// `isspacep.{global,shared,shared::cta,shared::cluster,local,param} p, a` (PTX ISA 9.7.9.20).
pub(super) fn isspacep(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(2)?;
    let (space, cta_only) = match q {
        ["global"] => (Space::Global, false),
        ["shared" | "shared::cta"] => (Space::SharedCluster, true),
        ["shared::cluster"] => (Space::SharedCluster, false),
        ["local"] => (Space::Local, false),
        ["param" | "param::entry"] => (Space::Param, false),
        _ => return Err(d.unsupported(d.ins.opcode, "isspacep form not modelled")),
    };
    Ok(OpKind::Isspacep {
        p: d.dst(0)?,
        a: d.src(1)?,
        space,
        cta_only,
    })
}
