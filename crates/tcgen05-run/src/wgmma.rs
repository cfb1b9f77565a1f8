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
use tcgen05::ptx::{parse_wgmma, DType, FormRule, MmaAsync, Wgmma, WgmmaA, WgmmaType};
use tcgen05::ptx_reader::Instruction as PtxInstruction;
use tcgen05::{ElementType, Kind, Major};

use crate::async_group::{self, Grouped};
use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::op::OpKind;

/// Decodes a `wgmma` instruction through the core's grammar ([`parse_wgmma`], PTX ISA
/// 9.7.15); `v` holds its operands as the run resolved them.
pub(crate) fn decode(ins: &PtxInstruction<'_>, v: &View<'_>) -> Result<OpKind, RunError> {
    let form = parse_wgmma(ins).map_err(|e| match e.rule {
        FormRule::UnknownInstruction | FormRule::UnknownQualifier => unsupported(
            v.line,
            e.text,
            "wgmma form not modelled (m64nNkK with descriptors: f16, bf16, tf32, e4m3, e5m2 into .f32, s8, u8 into .s32)",
        ),
        _ => invalid(v.line, &e.to_string(), "not a form of the wgmma grammar (PTX ISA 9.7.15)"),
    })?;
    match form.instruction() {
        Wgmma::Fence => Ok(OpKind::Fence),
        Wgmma::CommitGroup => Ok(OpKind::WgmmaCommit),
        Wgmma::WaitGroup(n) => Ok(OpKind::WgmmaWait { n }),
        Wgmma::MmaAsync(m) => mma(v, &m),
    }
}

/// The element type of a wgmma `.atype` / `.btype`; `None` for `.b1` (not modelled).
const fn element(t: WgmmaType) -> Option<ElementType> {
    Some(match t {
        WgmmaType::B1 => return None,
        WgmmaType::F16 => ElementType::F16,
        WgmmaType::Bf16 => ElementType::Bf16,
        WgmmaType::Tf32 => ElementType::Tf32,
        WgmmaType::E4m3 => ElementType::E4m3,
        WgmmaType::E5m2 => ElementType::E5m2,
        WgmmaType::S8 => ElementType::S8,
        WgmmaType::U8 => ElementType::U8,
    })
}

/// `wgmma.mma_async.sync.aligned.shape.dtype.atype.btype` (PTX ISA 9.7.15.5.2): the parsed
/// form, checked by [`MmaAsync::validate`], with the run's operands `{d}, a-desc, b-desc,
/// scale-d` (the grammar's first four positions).
fn mma(v: &View<'_>, m: &MmaAsync<'_>) -> Result<OpKind, RunError> {
    m.validate().map_err(|why| invalid(v.line, v.text, why))?;
    // Read by the grammar, checked by `validate`, not computed by the emulator yet.
    if m.sparse.is_some() {
        return Err(unsupported(
            v.line,
            ".sp",
            "sparse wgmma is not modelled yet",
        ));
    }
    if let WgmmaA::Regs(_) = m.a {
        return Err(unsupported(
            v.line,
            "{a}",
            "wgmma with A in registers is not modelled yet",
        ));
    }
    let (Some(a), Some(b)) = (element(m.atype), element(m.btype)) else {
        return Err(unsupported(
            v.line,
            ".b1",
            "wgmma with .b1 inputs is not modelled yet",
        ));
    };
    let d = match m.dtype {
        DType::F32 => ElementType::F32,
        DType::S32 => ElementType::S32,
        DType::F16 => {
            return Err(unsupported(
                v.line,
                "f16",
                "wgmma with .f16 accumulators is not modelled yet",
            ))
        }
    };
    let [Resolved::Vector(dregs), Resolved::Src(a_desc), Resolved::Src(b_desc), Resolved::Src(scale_d), ..] =
        v.operands.as_slice()
    else {
        return Err(invalid(
            v.line,
            v.text,
            "operands must be {d}, a-desc, b-desc, scale-d (registers or immediates)",
        ));
    };
    let (scale_a, scale_b) = m.imm_scale.unwrap_or((1, 1));
    let (trans_a, trans_b) = (m.imm_trans_a.unwrap_or(0), m.imm_trans_b.unwrap_or(0));
    Ok(OpKind::Wgmma {
        form: WgmmaForm {
            a,
            b,
            d,
            n: u32::from(m.n),
            transpose_a: trans_a == 1,
            transpose_b: trans_b == 1,
            negate_a: scale_a == -1,
            negate_b: scale_b == -1,
            satfinite: m.satfinite,
        },
        d: dregs.clone(),
        a_desc: *a_desc,
        b_desc: *b_desc,
        scale_d: *scale_d,
    })
}

impl Grouped for Pending {
    fn group(&self) -> Option<u64> {
        self.group
    }

    fn join(&mut self, g: u64) {
        self.group = Some(g);
    }
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
    /// `commit_group` ([`async_group::commit`]).
    pub fn commit(&mut self) {
        async_group::commit(&mut self.pending, &mut self.groups);
    }

    /// `wait_group n` ([`async_group::retire`]): the retired operations, oldest first, for
    /// the caller to perform.
    pub fn retire(&mut self, n: u64) -> Vec<Pending> {
        async_group::retire(&mut self.pending, self.groups, n)
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
