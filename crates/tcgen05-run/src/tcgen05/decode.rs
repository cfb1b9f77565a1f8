//! Decodes every `tcgen05.*` instruction into its typed form ([`Tcgen05`]); a form or
//! qualifier the run does not model is refused by name and line.

use tcgen05::emulator::SourceFormat;
use tcgen05::mma::{CtaGroup, Kind};
use tcgen05::ptx::{Collector, CollectorOp, ScaleVec};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};

use super::op::{MmaA, MmaForm, Tcgen05};
use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::op::{Addr, OpKind, Src};

/// Decodes a `tcgen05` instruction; `q` are its qualifiers after `tcgen05`.
pub(crate) fn decode(v: &View<'_>, q: &[&str]) -> Result<OpKind, RunError> {
    let Some((&what, rest)) = q.split_first() else {
        return Err(unsupported(v.line, v.opcode, "tcgen05 needs an operation"));
    };
    let t = match what {
        "alloc" => {
            group(v, rest, &["sync", "aligned", "shared::cta", "b32"])?;
            let [dst, ncols] = two(v)?;
            Tcgen05::Alloc {
                dst: address(v, dst)?,
                ncols: src(v, ncols)?,
            }
        }
        "dealloc" => {
            group(v, rest, &["sync", "aligned", "b32"])?;
            let [taddr, ncols] = two(v)?;
            Tcgen05::Dealloc {
                taddr: src(v, taddr)?,
                ncols: src(v, ncols)?,
            }
        }
        "relinquish_alloc_permit" => {
            group(v, rest, &["sync", "aligned"])?;
            Tcgen05::Relinquish
        }
        "commit" => {
            let allowed = [
                "mbarrier::arrive::one",
                "shared::cluster",
                "shared::cta",
                "b64",
            ];
            group(v, rest, &allowed)?;
            match v.operands.as_slice() {
                [m] => Tcgen05::Commit {
                    mbar: address(v, m)?,
                },
                _ => return Err(unsupported(
                    v.line,
                    v.opcode,
                    "tcgen05.commit with a multicast mask is not modelled (clusters of one CTA)",
                )),
            }
        }
        "mma" => Tcgen05::Mma(Box::new(mma(v, rest)?)),
        "ld" | "st" => ld_st(v, what == "ld", rest)?,
        "wait::ld" | "wait::st" => {
            no_others(v, rest, &["sync", "aligned"])?;
            if what == "wait::ld" {
                Tcgen05::WaitLd
            } else {
                Tcgen05::WaitSt
            }
        }
        "fence::before_thread_sync" | "fence::after_thread_sync" => {
            no_others(v, rest, &[])?;
            Tcgen05::Fence
        }
        "cp" => cp(v, rest)?,
        "shift" => {
            group(v, rest, &["down"])?;
            if !rest.contains(&"down") {
                return Err(invalid(v.line, v.text, "tcgen05.shift needs .down"));
            }
            match v.operands.as_slice() {
                [t] => Tcgen05::Shift {
                    taddr: address(v, t)?,
                },
                _ => return Err(invalid(v.line, v.text, "tcgen05.shift takes [taddr]")),
            }
        }
        _ => {
            return Err(unsupported(
                v.line,
                v.opcode,
                "tcgen05 instruction not modelled by the run",
            ))
        }
    };
    Ok(OpKind::Tcgen05(t))
}

/// The `.cta_group::1` qualifier (required, PTX ISA 9.7.16.7) among `allowed` others;
/// `.cta_group::2` is refused by name (CTA pairs need clusters).
fn group(v: &View<'_>, q: &[&str], allowed: &[&str]) -> Result<(), RunError> {
    if q.contains(&"cta_group::2") {
        return Err(unsupported(
            v.line,
            "cta_group::2",
            "CTA pairs need clusters of two CTAs, not modelled yet",
        ));
    }
    let rest: Vec<&str> = q.iter().copied().filter(|x| *x != "cta_group::1").collect();
    no_others(v, &rest, allowed)
}

fn no_others(v: &View<'_>, q: &[&str], allowed: &[&str]) -> Result<(), RunError> {
    match q.iter().find(|x| !allowed.contains(x)) {
        Some(x) => Err(unsupported(
            v.line,
            x,
            "tcgen05 qualifier not modelled for this instruction",
        )),
        None => Ok(()),
    }
}

fn two<'r>(v: &'r View<'_>) -> Result<[&'r Resolved; 2], RunError> {
    match v.operands.as_slice() {
        [a, b] => Ok([a, b]),
        _ => Err(invalid(v.line, v.text, "wrong number of operands")),
    }
}

fn address(v: &View<'_>, r: &Resolved) -> Result<Addr, RunError> {
    match r {
        Resolved::Addr(a) if !matches!(a.base, Src::Special(_)) => Ok(*a),
        _ => Err(invalid(v.line, v.text, "operand must be an address [..]")),
    }
}

/// A register or immediate (special registers are not tcgen05 operands).
fn src(v: &View<'_>, r: &Resolved) -> Result<Src, RunError> {
    match r {
        Resolved::Src(s @ (Src::Reg(_) | Src::Imm(_))) => Ok(*s),
        _ => Err(invalid(
            v.line,
            v.text,
            "operand must be a register or an immediate",
        )),
    }
}

/// The qualifiers of `tcgen05.mma` (PTX ISA 9.7.16.10.9): every one the model runs, the
/// others refused by name.
fn mma_qualifiers(v: &View<'_>, q: &[&str]) -> Result<MmaForm, RunError> {
    let mut f = MmaForm {
        group: CtaGroup::One,
        kind: Kind::F16,
        ws: false,
        sp: false,
        block_scale: false,
        ashift: false,
        vec: ScaleVec::Default,
        collector: None,
        d: Addr {
            base: Src::Imm(0),
            offset: 0,
        },
        a: MmaA::Smem(Src::Imm(0)),
        b: Src::Imm(0),
        meta: None,
        idesc: Src::Imm(0),
        scales: None,
        disable: None,
        enable: Src::Imm(0),
        last: None,
    };
    let mut kind = None;
    for &x in q {
        match x {
            "cta_group::1" => {}
            "cta_group::2" => {
                return Err(unsupported(
                    v.line,
                    x,
                    "CTA pairs need clusters of two CTAs, not modelled yet",
                ))
            }
            "ws" => f.ws = true,
            "sp" => f.sp = true,
            "block_scale" => f.block_scale = true,
            "ashift" => f.ashift = true,
            _ => {
                if let Some(k) = x.strip_prefix("kind::").and_then(Kind::from_name) {
                    kind = Some(k);
                } else if let Some(s) = ScaleVec::ALL
                    .into_iter()
                    .find(|s| *s != ScaleVec::Default && s.name().trim_start_matches('.') == x)
                {
                    f.vec = s;
                } else if let Some(c) = collector(x) {
                    f.collector = Some(c);
                } else if matches!(x, "kind::ti16" | "decompress::lut::b") {
                    return Err(unsupported(
                        v.line,
                        x,
                        "not modelled: the PTX ISA text defining it (PTX ISA 9.4 §9.7.18.10) was not available",
                    ));
                } else {
                    return Err(unsupported(v.line, x, "tcgen05.mma qualifier not modelled"));
                }
            }
        }
    }
    f.kind = kind.ok_or_else(|| invalid(v.line, v.text, "tcgen05.mma needs .kind::*"))?;
    Ok(f)
}

/// `.collector::a::op` / `.collector::bN::op`.
fn collector(x: &str) -> Option<Collector> {
    let (buf, op) = x.strip_prefix("collector::")?.split_once("::")?;
    let op = CollectorOp::ALL.into_iter().find(|o| o.name() == op)?;
    if buf == "a" {
        return Some(Collector::A(op));
    }
    let n: u8 = buf.strip_prefix('b')?.parse().ok()?;
    (n < 4).then_some(Collector::B(n, op))
}

/// `tcgen05.mma` with its operands in PTX order: `[d], a, b[, [meta]], idesc[, [sfa],
/// [sfb]][, disable-output-lane], enable-input-d[, scale-input-d | zero-column-mask]`.
fn mma(v: &View<'_>, q: &[&str]) -> Result<MmaForm, RunError> {
    let mut f = mma_qualifiers(v, q)?;
    let ops = &v.operands;
    let mut i = 0;
    let mut next = || {
        let r = ops.get(i);
        i += 1;
        r.ok_or_else(|| invalid(v.line, v.text, "too few operands for tcgen05.mma"))
    };
    f.d = address(v, next()?)?;
    f.a = match next()? {
        Resolved::Addr(a) => MmaA::Tmem(*a),
        r => MmaA::Smem(src(v, r)?),
    };
    f.b = src(v, next()?)?;
    if f.sp {
        f.meta = Some(address(v, next()?)?);
    }
    f.idesc = src(v, next()?)?;
    if f.block_scale {
        let sa = address(v, next()?)?;
        let sb = address(v, next()?)?;
        f.scales = Some((sa, sb));
    }
    let r = next()?;
    let r = if let Resolved::Vector(regs) = r {
        f.disable = Some(regs.iter().map(|s| Src::Reg(*s)).collect());
        next()?
    } else {
        r
    };
    f.enable = src(v, r)?;
    if let Ok(r) = next() {
        f.last = Some(src(v, r)?);
    }
    if i < ops.len() {
        return Err(invalid(v.line, v.text, "too many operands for tcgen05.mma"));
    }
    Ok(f)
}

/// `tcgen05.cp` (PTX ISA 9.7.16.9.1): shape, multicast and decompression qualifiers.
fn cp(v: &View<'_>, q: &[&str]) -> Result<Tcgen05, RunError> {
    let (mut shape, mut multicast, mut source, mut b8x16) = (None, CpMulticast::None, None, false);
    for &x in q {
        if x == "cta_group::1" {
            continue;
        }
        if x == "cta_group::2" {
            return Err(unsupported(
                v.line,
                x,
                "CTA pairs need clusters of two CTAs, not modelled yet",
            ));
        }
        if let Ok(s) = CpShape::from_name(x) {
            shape = Some(s);
        } else if let Some(m) = x
            .starts_with("warpx")
            .then(|| CpMulticast::from_name(x).ok())
            .flatten()
        {
            multicast = m;
        } else if let Some(f) = SourceFormat::from_qualifier(x) {
            source = Some(f);
        } else if x == "b8x16" {
            b8x16 = true;
        } else {
            return Err(unsupported(v.line, x, "tcgen05.cp qualifier not modelled"));
        }
    }
    let shape = shape.ok_or_else(|| invalid(v.line, v.text, "tcgen05.cp needs a shape"))?;
    if source.is_some() != b8x16 {
        return Err(invalid(
            v.line,
            v.text,
            "a decompressing tcgen05.cp names .b8x16 and its source format (PTX ISA 9.7.16.9.1)",
        ));
    }
    let [t, d] = two(v)?;
    Ok(Tcgen05::Cp {
        shape,
        multicast,
        source,
        taddr: address(v, t)?,
        desc: src(v, d)?,
    })
}

/// `tcgen05.ld` / `tcgen05.st` (PTX ISA 9.7.16.8.3, 9.7.16.8.4).
fn ld_st(v: &View<'_>, load: bool, q: &[&str]) -> Result<Tcgen05, RunError> {
    let (mut shape, mut num, mut pack) = (None, None, false);
    for &x in q {
        if let Ok(s) = LdStShape::from_name(x) {
            shape = Some(s);
        } else if let Ok(n) = Num::from_name(x) {
            num = Some(n);
        } else if (load && x == "pack::16b") || (!load && x == "unpack::16b") {
            pack = true;
        } else if !matches!(x, "sync" | "aligned" | "b32") {
            return Err(unsupported(
                v.line,
                x,
                "tcgen05.ld/st qualifier not modelled (tcgen05.ld.red is sm_101a / sm_110a)",
            ));
        }
    }
    let (Some(shape), Some(num)) = (shape, num) else {
        return Err(invalid(
            v.line,
            v.text,
            "tcgen05.ld/st needs .shape and .num",
        ));
    };
    let ops = &v.operands;
    let regs_of = |r: &Resolved| -> Result<Vec<u32>, RunError> {
        match r {
            Resolved::Vector(x) => Ok(x.clone()),
            Resolved::Src(Src::Reg(x)) => Ok(vec![*x]),
            _ => Err(invalid(v.line, v.text, "a vector of registers expected")),
        }
    };
    let offset = |r: Option<&Resolved>| -> Result<Option<u32>, RunError> {
        match r {
            None => Ok(None),
            Some(Resolved::Src(Src::Imm(x))) => Ok(Some(*x as u32)),
            Some(_) => Err(invalid(
                v.line,
                v.text,
                "the half-split offset is an immediate",
            )),
        }
    };
    if load {
        let (regs, rest) = ops
            .split_first()
            .ok_or_else(|| invalid(v.line, v.text, "too few operands"))?;
        let taddr = address(
            v,
            rest.first()
                .ok_or_else(|| invalid(v.line, v.text, "too few operands"))?,
        )?;
        Ok(Tcgen05::Ld {
            shape,
            num,
            pack,
            regs: regs_of(regs)?,
            taddr,
            offset: offset(rest.get(1))?,
        })
    } else {
        let (regs, rest) = ops
            .split_last()
            .ok_or_else(|| invalid(v.line, v.text, "too few operands"))?;
        let taddr = address(
            v,
            rest.first()
                .ok_or_else(|| invalid(v.line, v.text, "too few operands"))?,
        )?;
        Ok(Tcgen05::St {
            shape,
            num,
            pack,
            regs: regs_of(regs)?.into_iter().map(Src::Reg).collect(),
            taddr,
            offset: offset(rest.get(1))?,
        })
    }
}
