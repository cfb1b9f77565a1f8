//! The qualifiers of a `tcgen05.mma` as written that name a value of the core's: the scale
//! vector (`.scale_vec::2X`, `.block32`, ...) and the collector usage (`.collector::a::fill`,
//! PTX ISA 9.7.16.10.9), read through the form's grammar ([`crate::ptx::syntax::MMA`]); and
//! the checker's reading of each form's qualifiers, in any order, each unknown one kept.

use alloc::vec::Vec;

use crate::mma::{CtaGroup, Kind, ScaleVec};
use crate::ptx::syntax::{collector_of_value, mma_slot, MMA};
use crate::ptx::{Collector, CpSourceFormat, RedOp, RedType};
use crate::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};

/// The scale vector a qualifier (without its leading dot) names, if it names one.
pub(crate) fn scale_vec_of(s: &str) -> Option<ScaleVec> {
    let v = MMA.slots[mma_slot::SCALE_VEC].value_of(s)?;
    // The slot spells `ScaleVec::ALL` without `Default`.
    ScaleVec::ALL.get(usize::from(v) + 1).copied()
}

/// The collector usage a qualifier (without its leading dot) names, if it names one.
pub(crate) fn collector_of(s: &str) -> Option<Collector> {
    MMA.slots[mma_slot::COLLECTOR]
        .value_of(s)
        .map(collector_of_value)
}

/// The parsed qualifiers of a tcgen05 instruction: what the form needs, and what was not
/// recognised.
#[derive(Default)]
pub(super) struct Quals<'a> {
    pub(super) cta_group: Option<CtaGroup>,
    pub(super) unknown: Vec<&'a str>,
}

pub(super) fn cta_group_of(q: &str) -> Option<Option<CtaGroup>> {
    match q {
        "cta_group::1" => Some(Some(CtaGroup::One)),
        "cta_group::2" => Some(Some(CtaGroup::Two)),
        _ if q.starts_with("cta_group::") => Some(None),
        _ => None,
    }
}

/// The qualifiers of a `tcgen05.mma` that the checker reads.
pub(super) struct MmaQuals {
    pub(super) kind: Option<Kind>,
    pub(super) ws: bool,
    pub(super) sp: bool,
    pub(super) block_scale: bool,
    pub(super) ashift: bool,
    pub(super) vec: ScaleVec,
    pub(super) collector: Option<Collector>,
}

/// Reads the qualifiers after `mma`, in any order, into `q` (the `.cta_group` and the unknown
/// ones) and the result.
pub(super) fn mma_qualifiers<'a>(rest: &[&'a str], q: &mut Quals<'a>) -> MmaQuals {
    let mut kind = None;
    let (mut ws, mut sp, mut block_scale, mut ashift) = (false, false, false, false);
    let mut vec = ScaleVec::Default;
    let mut collector = None;
    for &s in rest {
        if let Some(g) = cta_group_of(s) {
            match g {
                Some(g) => q.cta_group = Some(g),
                None => q.unknown.push(s),
            }
        } else if let Some(k) = s.strip_prefix("kind::") {
            match Kind::from_name(k) {
                Some(k) => kind = Some(k),
                None => q.unknown.push(s),
            }
        } else if s == "ws" {
            ws = true;
        } else if s == "sp" {
            sp = true;
        } else if s == "block_scale" {
            block_scale = true;
        } else if s == "ashift" {
            ashift = true;
        } else if let Some(v) = scale_vec_of(s) {
            vec = v;
        } else if let Some(c) = collector_of(s) {
            collector = Some(c);
        } else {
            q.unknown.push(s);
        }
    }
    MmaQuals {
        kind,
        ws,
        sp,
        block_scale,
        ashift,
        vec,
        collector,
    }
}

/// The `.red` part of a `tcgen05.ld.red` as read: operation, `.abs`, `.NaN`, type.
pub(super) type RedQuals = (RedOp, bool, bool, Option<RedType>);

/// The qualifiers of a `tcgen05.ld` / `.st` that the checker reads.
pub(super) struct LdStQuals {
    pub(super) shape: Option<LdStShape>,
    pub(super) num: Option<Num>,
    pub(super) pack: bool,
    pub(super) red: Option<RedQuals>,
}

/// Reads the qualifiers after `ld` / `st` (`op`), in any order, into `q` and the result.
pub(super) fn ld_st_qualifiers<'a>(op: &str, rest: &[&'a str], q: &mut Quals<'a>) -> LdStQuals {
    let mut shape = None;
    let mut num = None;
    let (mut pack, mut red) = (false, None::<(RedOp, bool, bool, Option<RedType>)>);
    for &s in rest {
        if let Ok(sh) = LdStShape::from_name(s) {
            shape = Some(sh);
        } else if let Ok(n) = Num::from_name(s) {
            num = Some(n);
        } else if (op == "ld" && s == "pack::16b") || (op == "st" && s == "unpack::16b") {
            pack = true;
        } else if matches!(s, "sync" | "aligned" | "b32") {
        } else if op == "ld" && s == "red" {
            red = Some((RedOp::Min, false, false, None));
        } else if let (Some(rd), true) = (red.as_mut(), op == "ld") {
            match s {
                "min" => rd.0 = RedOp::Min,
                "max" => rd.0 = RedOp::Max,
                "abs" => rd.1 = true,
                "NaN" => rd.2 = true,
                "f32" => rd.3 = Some(RedType::F32),
                "u32" => rd.3 = Some(RedType::U32),
                "s32" => rd.3 = Some(RedType::S32),
                _ => q.unknown.push(s),
            }
        } else {
            q.unknown.push(s);
        }
    }
    LdStQuals {
        shape,
        num,
        pack,
        red,
    }
}

/// The shape, multicast and source format of a `tcgen05.cp` as read.
pub(super) type CpQuals = (Option<CpShape>, CpMulticast, Option<CpSourceFormat>);

/// Reads the qualifiers after `cp`, in any order, into `q` and the result.
pub(super) fn cp_qualifiers<'a>(rest: &[&'a str], q: &mut Quals<'a>) -> CpQuals {
    let (mut shape, mut multicast, mut fmt) = (None, CpMulticast::None, None);
    for &s in rest {
        if let Some(g) = cta_group_of(s) {
            match g {
                Some(g) => q.cta_group = Some(g),
                None => q.unknown.push(s),
            }
        } else if let Ok(sh) = CpShape::from_name(s) {
            shape = Some(sh);
        } else if let (Ok(m), false) = (CpMulticast::from_name(s), s.is_empty() || s == "none") {
            multicast = m;
        } else if s == "b8x16" {
        } else if s == "b6x16_p32" {
            fmt = Some(CpSourceFormat::B6x16P32);
        } else if s == "b4x16_p64" {
            fmt = Some(CpSourceFormat::B4x16P64);
        } else {
            q.unknown.push(s);
        }
    }
    (shape, multicast, fmt)
}
