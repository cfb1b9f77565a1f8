//! `wgmma` (Hopper's warpgroup MMA, PTX ISA 9.7.15): decoding, the queue of issued MMAs, and
//! their completion at `wgmma.wait_group` through the core's emulator
//! ([`tcgen05::emulator::wgmma::run`], Hopper's arithmetic from the numerics module).
//!
//! An `mma_async` is queued when issued and computed when a `wait_group` retires its group, as
//! late as PTX allows: shared memory is read then, and its accumulator registers are read and
//! written then. Each warp of the warpgroup computes its own 16 rows of D (rows 16w..16w+15,
//! w = warp id mod 4): rows of D depend on the same rows of A only.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use tcgen05::canonical_layout::{ElementStorage, MatrixLayout, Operand as LayoutOperand};
use tcgen05::emulator::wgmma::{hopper_fields, WgmmaForm};
use tcgen05::numerics::fast::MmaOperands;
use tcgen05::numerics::{Arch, Form, Format, Instruction};
use tcgen05::{ElementType, Kind, Major};

use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::op::{OpKind, Src};

/// Decodes a `wgmma` instruction.
pub(crate) fn decode(v: &View<'_>, q: &[&str]) -> Result<OpKind, RunError> {
    match q {
        ["fence", "sync", "aligned"] => return Ok(OpKind::Fence),
        ["commit_group", "sync", "aligned"] => return Ok(OpKind::WgmmaCommit),
        ["wait_group", "sync", "aligned"] => {
            return match v.operands.as_slice() {
                [Resolved::Src(Src::Imm(n))] => Ok(OpKind::WgmmaWait { n: *n }),
                _ => Err(invalid(
                    v.line,
                    v.text,
                    "wait_group takes an immediate count",
                )),
            }
        }
        ["mma_async", "sync", "aligned", shape, "f32", a, b] => {
            return mma(v, shape, ElementType::F32, false, a, b);
        }
        ["mma_async", "sync", "aligned", shape, "s32", a, b] => {
            return mma(v, shape, ElementType::S32, false, a, b);
        }
        ["mma_async", "sync", "aligned", shape, "satfinite", "s32", a, b] => {
            return mma(v, shape, ElementType::S32, true, a, b);
        }
        _ => {}
    }
    Err(unsupported(
        v.line,
        v.opcode,
        "wgmma form not modelled yet (m64nNkK .f32 from f16, bf16, tf32, e4m3, e5m2 and .s32 from s8, u8, with descriptors only)",
    ))
}

/// Decodes `wgmma.mma_async.sync.aligned.shape.dtype.atype.btype` (PTX ISA 9.7.15.5.2): `d`
/// is f32 for floating-point inputs and s32 (optionally `.satfinite`) for s8/u8 ones.
fn mma(
    v: &View<'_>,
    shape: &str,
    d: ElementType,
    satfinite: bool,
    a: &str,
    b: &str,
) -> Result<OpKind, RunError> {
    let bad = |why| unsupported(v.line, v.opcode, why);
    let ty = |t: &str| match t {
        "f16" => Ok(ElementType::F16),
        "bf16" => Ok(ElementType::Bf16),
        "tf32" => Ok(ElementType::Tf32),
        "e4m3" => Ok(ElementType::E4m3),
        "e5m2" => Ok(ElementType::E5m2),
        "s8" => Ok(ElementType::S8),
        "u8" => Ok(ElementType::U8),
        _ => Err(bad(
            "only f16, bf16, tf32, e4m3, e5m2, s8 and u8 inputs are modelled yet",
        )),
    };
    let (ta, tb) = (ty(a)?, ty(b)?);
    let integer = |t: ElementType| matches!(t, ElementType::S8 | ElementType::U8);
    // Integer inputs accumulate in s32, floating-point ones in f32 (PTX ISA 9.7.15.5.2's
    // table of .dtype per .atype); f16 and bf16 need equal types, e4m3/e5m2 may mix.
    let same_family = integer(ta) == integer(tb)
        && (ta == tb || (ta.bits() == 8 && tb.bits() == 8 && !integer(ta)));
    if !same_family || integer(ta) != (d == ElementType::S32) {
        return Err(bad(
            "the .dtype/.atype/.btype combination is not a wgmma form (PTX ISA 9.7.15.5.2)",
        ));
    }
    // K covers 256 bits of A per row: 16 for 16-bit types, 32 for 8-bit ones (PTX ISA 9.7.15.2).
    let k = 256 / ta.bits() as u32;
    let n: u32 = shape
        .strip_prefix("m64n")
        .and_then(|r| r.strip_suffix(&format!("k{k}")))
        .and_then(|n| n.parse().ok())
        .filter(|n| n % 8 == 0 && (8..=256).contains(n))
        .ok_or_else(|| {
            bad("shape must be m64nNkK, N a multiple of 8 up to 256, K 256 bits of A")
        })?;
    // The 16-bit forms take imm-trans-a and imm-trans-b; the 8-bit and tf32 forms have none
    // (K-major); the integer forms take no imm-scale-a/b either.
    let sixteen = ta.bits() == 16;
    let (head, rest) = v.operands.split_at(4.min(v.operands.len()));
    let [Resolved::Vector(dregs), Resolved::Src(a_desc), Resolved::Src(b_desc), Resolved::Src(scale_d)] =
        head
    else {
        return Err(bad("operands must be {d}, a-desc, b-desc, scale-d[, imm-scale-a, imm-scale-b[, imm-trans-a, imm-trans-b]]"));
    };
    let (sa, sb, trans) = match (integer(ta), rest) {
        (true, []) => (1, 1, rest),
        (false, [Resolved::Src(Src::Imm(sa)), Resolved::Src(Src::Imm(sb)), trans @ ..]) => {
            (*sa, *sb, trans)
        }
        _ => {
            return Err(bad(
                "imm-scale-a and imm-scale-b are given exactly for floating-point inputs",
            ))
        }
    };
    let (trans_a, trans_b) = match (sixteen, trans) {
        (true, [Resolved::Src(Src::Imm(x)), Resolved::Src(Src::Imm(y))]) => (*x, *y),
        (false, []) => (0, 0),
        _ => {
            return Err(bad(
                "imm-trans-a and imm-trans-b are given exactly for 16-bit inputs",
            ))
        }
    };
    if dregs.len() as u32 != n / 2 {
        return Err(invalid(
            v.line,
            v.text,
            "an f32 or s32 D fragment of m64nN has N/2 registers per thread",
        ));
    }
    let scale = |x: u64| match x as i64 {
        1 => Ok(false),
        -1 => Ok(true),
        _ => Err(invalid(v.line, v.text, "imm-scale-a/b must be 1 or -1")),
    };
    let tr = |x: u64| match x {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(invalid(v.line, v.text, "imm-trans-a/b must be 0 or 1")),
    };
    Ok(OpKind::Wgmma {
        form: WgmmaForm {
            a: ta,
            b: tb,
            d,
            n,
            transpose_a: tr(trans_a)?,
            transpose_b: tr(trans_b)?,
            negate_a: scale(sa)?,
            negate_b: scale(sb)?,
            satfinite,
        },
        d: dregs.clone(),
        a_desc: *a_desc,
        b_desc: *b_desc,
        scale_d: *scale_d,
    })
}

/// One issued `mma_async` of one warp, waiting for its group to be retired.
#[derive(Clone, Debug)]
pub(crate) struct Pending {
    /// The op's line.
    pub line: u32,
    /// Form.
    pub form: WgmmaForm,
    /// Accumulator slots.
    pub d: Vec<u32>,
    /// Descriptors (uniform over the warp).
    pub a_desc: u64,
    /// B's descriptor.
    pub b_desc: u64,
    /// `scale-d`.
    pub accumulate: bool,
    /// Committed (part of a group) or not yet.
    pub group: Option<u64>,
    /// The asynchronous operation's id (what an observer sees).
    pub id: u64,
}

/// The `wgmma` state of one warp: issued MMAs and the number of groups committed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Queue {
    /// Issued, not yet computed, oldest first.
    pub pending: Vec<Pending>,
    /// Groups committed so far.
    pub groups: u64,
    /// Operand layouts seen so far.
    pub layouts: Layouts,
}

impl Queue {
    /// `commit_group`: every uncommitted MMA joins a new group.
    pub fn commit(&mut self) {
        let g = self.groups;
        for p in self.pending.iter_mut().filter(|p| p.group.is_none()) {
            p.group = Some(g);
        }
        self.groups += 1;
    }

    /// `wait_group n`: the MMAs of every group but the newest `n` are returned, oldest first,
    /// for the caller to compute.
    pub fn retire(&mut self, n: u64) -> Vec<Pending> {
        let keep_from = self.groups.saturating_sub(n);
        let (done, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|p| p.group.is_some_and(|g| g < keep_from));
        self.pending = rest;
        done
    }
}

/// The shared memory addresses of an operand's elements, row by row (`mn` rows of K), as its
/// descriptor places them: computed once per descriptor and operand shape, then reused by
/// every MMA that reads the same layout (a pipelined K loop cycles through a few).
type Addresses = Vec<u32>;

/// Cached operand layouts of one warp, keyed by descriptor, type, major-ness and rows.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layouts {
    map: HashMap<(u64, ElementType, bool, u32), Addresses>,
}

impl Layouts {
    /// The addresses of `mn x k` elements of type `ty` read through Hopper descriptor `desc`
    /// (PTX ISA 9.7.15.5.1.2: the canonical layouts of the core's [`MatrixLayout`]).
    fn get(
        &mut self,
        desc: u64,
        ty: ElementType,
        mn_major: bool,
        (mn, k): (u32, u32),
    ) -> Result<&Addresses, String> {
        const MAX: usize = 256;
        if self.map.len() > MAX {
            self.map.clear();
        }
        let key = (desc, ty, mn_major, mn);
        match self.map.entry(key) {
            Entry::Occupied(e) => Ok(e.into_mut()),
            Entry::Vacant(e) => {
                let fields = hopper_fields(desc).map_err(|e| e.to_string())?;
                let storage = ElementStorage::of(ty, None).map_err(|e| e.to_string())?;
                let major = if mn_major { Major::Mn } else { Major::K };
                let operand = LayoutOperand::new(storage, major, mn, k);
                let ml = MatrixLayout::from_fields(fields, operand).map_err(|e| e.to_string())?;
                let mut at = Vec::with_capacity((mn * k) as usize);
                for i in 0..mn {
                    for kk in 0..k {
                        at.push(ml.address(i, kk).map_err(|e| e.to_string())?.address);
                    }
                }
                Ok(e.insert(at))
            }
        }
    }
}

/// The codes of an operand's elements (`bytes` each, little-endian) at `at` in `smem`, rows
/// `rows` only, sign-flipped when `negate` (the sign bit of a `bytes`-byte float).
fn gather(
    smem: &[u8],
    at: &[u32],
    k: usize,
    rows: std::ops::Range<usize>,
    bytes: usize,
    negate: bool,
) -> Result<Vec<u32>, u32> {
    let sign = if negate { 1u32 << (8 * bytes - 1) } else { 0 };
    at[rows.start * k..rows.end * k]
        .iter()
        .map(|&a| {
            let b = smem.get(a as usize..a as usize + bytes).ok_or(a)?;
            let w = b
                .iter()
                .rev()
                .fold(0u32, |acc, &x| (acc << 8) | u32::from(x));
            Ok(w ^ sign)
        })
        .collect()
}

fn format_of(t: ElementType) -> Format {
    match t {
        ElementType::F16 => Format::F16,
        ElementType::Bf16 => Format::Bf16,
        ElementType::Tf32 => Format::Tf32,
        ElementType::E4m3 => Format::E4m3,
        ElementType::E5m2 => Format::E5m2,
        ElementType::S8 => Format::S8,
        ElementType::U8 => Format::U8,
        ElementType::S32 => Format::S32,
        _ => Format::F32,
    }
}

fn kind_of(t: ElementType) -> Kind {
    match t {
        ElementType::F16 | ElementType::Bf16 => Kind::F16,
        ElementType::Tf32 => Kind::Tf32,
        ElementType::S8 | ElementType::U8 => Kind::I8,
        _ => Kind::F8f6f4,
    }
}

/// Computes one MMA for warp `warp_in_group` of its warpgroup: D's rows 16w..16w+15 (they
/// depend on the same rows of A and C only) from the warp's registers `regs` (lane-major,
/// `nregs` per lane) and shared memory `smem`, with Hopper's arithmetic (the numerics module's
/// `sm_90a` wgmma row through its fast path, [`tcgen05::numerics::FastRow::mma`]), as
/// [`tcgen05::emulator::wgmma::run`] computes all 64 rows.
pub(crate) fn complete(
    layouts: &mut Layouts,
    smem: &[u8],
    p: &Pending,
    warp_in_group: usize,
    regs: &mut [u64],
    nregs: usize,
) -> Result<(), RunError> {
    let f = &p.form;
    let (n, k) = (f.n as usize, f.k() as usize);
    let rows = 16 * warp_in_group..16 * warp_in_group + 16;
    let err = |m: String| emu_error(p.line, &m);
    let outside = |a: u32| err(format!("operand address 0x{a:x} outside shared memory"));
    let floats = !matches!(f.a, ElementType::S8 | ElementType::U8);
    let at = layouts
        .get(p.a_desc, f.a, f.transpose_a, (64, k as u32))
        .map_err(err)?;
    let a = gather(
        smem,
        at,
        k,
        rows.clone(),
        f.a.bits() as usize / 8,
        f.negate_a && floats,
    )
    .map_err(outside)?;
    let at = layouts
        .get(p.b_desc, f.b, f.transpose_b, (f.n, k as u32))
        .map_err(err)?;
    let b = gather(
        smem,
        at,
        k,
        0..n,
        f.b.bits() as usize / 8,
        f.negate_b && floats,
    )
    .map_err(outside)?;
    // D fragment of m64nN with f32 or s32 accumulators (PTX ISA 9.7.15.5.1.1): register r of
    // lane l of warp w holds row 16w + l/4 + 8((r/2) mod 2), column 8(r/4) + 2(l mod 4) + r mod
    // 2; here rows are counted from 16w.
    let place = |lane: usize, r: usize| {
        let row = lane / 4 + 8 * ((r / 2) % 2);
        let col = 8 * (r / 4) + 2 * (lane % 4) + r % 2;
        row * n + col
    };
    let mut c = Vec::new();
    if p.accumulate {
        c = vec![0u32; 16 * n];
        for lane in 0..32 {
            for (r, slot) in p.d.iter().enumerate() {
                c[place(lane, r)] = regs[lane * nregs + *slot as usize] as u32;
            }
        }
    }
    let row = Form {
        arch: Arch::Sm90a,
        instruction: Some(Instruction::Wgmma),
        kind: kind_of(f.a),
        a: format_of(f.a),
        b: format_of(f.b),
        d: Some(format_of(f.d)),
        scale: None,
        block: None,
    }
    .row()
    .map_err(|e| err(e.to_string()))?;
    let ops = MmaOperands {
        m: 16,
        n,
        a: &a,
        b: &b,
        c: &c,
        sfa: &[],
        sfb: &[],
    };
    let d = row
        .fast()
        .mma(&ops, f.satfinite)
        .map_err(|e| err(e.to_string()))?;
    for lane in 0..32 {
        for (r, slot) in p.d.iter().enumerate() {
            regs[lane * nregs + *slot as usize] = u64::from(d[place(lane, r)]);
        }
    }
    Ok(())
}

/// The shared-memory bytes an MMA reads, A then B, as (address, length) runs, placed by its
/// descriptors through the core's canonical layouts (what the emulator reads; for the hazard
/// checker). Operands whose descriptors the emulator refuses are left out: the run stops there.
pub(crate) fn operand_bytes(p: &Pending) -> Vec<(u32, u32)> {
    let k = p.form.k();
    let major = |t: bool| if t { Major::Mn } else { Major::K };
    let mut out: Vec<(u32, u32)> = Vec::new();
    let operands = [
        (p.a_desc, p.form.a, major(p.form.transpose_a), 64),
        (p.b_desc, p.form.b, major(p.form.transpose_b), p.form.n),
    ];
    for (desc, ty, mj, mn) in operands {
        let Ok(fields) = hopper_fields(desc) else {
            continue;
        };
        let Ok(storage) = ElementStorage::of(ty, None) else {
            continue;
        };
        let Ok(ml) = MatrixLayout::from_fields(fields, LayoutOperand::new(storage, mj, mn, k))
        else {
            continue;
        };
        for i in 0..mn {
            for kk in 0..k {
                let Ok(loc) = ml.address(i, kk) else {
                    continue;
                };
                let len = u32::from(loc.bits).div_ceil(8);
                match out.last_mut() {
                    Some(last) if last.0 + last.1 == loc.address => last.1 += len,
                    _ => out.push((loc.address, len)),
                }
            }
        }
    }
    out
}

fn emu_error(line: u32, msg: &str) -> RunError {
    RunError::Invalid {
        line,
        what: format!("wgmma: {msg}"),
        why: "the MMA's operands break a rule of the emulator (see the message)",
    }
}
