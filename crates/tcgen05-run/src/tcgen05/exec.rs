//! Executes the `tcgen05.*` instructions of one warp on its CTA's Tensor Memory.
//!
//! - `alloc`, `dealloc`, `relinquish_alloc_permit`, `ld`, `st`, `wait::*` are `.sync.aligned`:
//!   every thread of the warp executes them together, once per warp.
//! - `tcgen05.mma` is issued by each thread that executes it, with its operand values read
//!   then, and joins the CTA's queue of pending asynchronous operations.
//! - `tcgen05.commit` completes the committing thread's pending operations, oldest first
//!   (here at the commit; the queue lets a later change complete them later), each through the
//!   core's MMA stages ([`tcgen05::emulator::mma`]), then arrives once on its mbarrier.
//! - `tcgen05.ld` reads Tensor Memory when issued and writes the destination registers then:
//!   the thread's later instructions see the values through the register dependency (PTX ISA
//!   9.7.16.6.4.5; rules.md I12); `tcgen05.wait::ld` orders only the load's read of Tensor
//!   Memory, which the hazard checker follows. `tcgen05.st` writes when issued.
//! - The fences order only and do nothing in a run whose operations complete in order.

use tcgen05::emulator::{
    cp_copy, ld_st_pieces, mma, shift_down, ASource, CpOperation, MmaOperation, MmaOptions,
    TensorCoreMemory,
};
use tcgen05::mma::Kind;
use tcgen05::targets::Target;
use tcgen05::tensor_memory::TmemAddress;
use tcgen05::tmem_fragment::{LdStFragment, Packing};

use super::op::{MmaA, MmaForm, Tcgen05};
use super::tensor_memory::{Memories, TensorMemory};
use super::trace::{Recorder, Trace};
use crate::error::RunError;
use crate::memory::write_window;
use crate::op::{Addr, Src};

/// The tcgen05 state of one CTA.
#[derive(Debug, Default)]
pub(crate) struct Tcgen05State {
    pub(super) tmem: Option<Box<TensorMemory>>,
    /// Issued asynchronous operations not yet complete, oldest first.
    pub(super) pending: Vec<Issued>,
    /// MMAs completed.
    pub mmas: u64,
    /// The lifecycle step of the last warp instruction, for an observer: alloc / dealloc
    /// `(first column, columns)`, ld `(first column, columns)`, wait::ld.
    pub did: Option<Did>,
    /// The CTA pair's state of `.cta_group::2` ([`super::pair`]).
    pub(super) pair: super::pair::PairState,
    /// What the hazard checker sees of each instruction, while an observer is attached.
    pub trace: Option<Box<Trace>>,
}

/// A Tensor Memory lifecycle step ([`Tcgen05State::did`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Did {
    Alloc(u32, u32),
    Dealloc(u32, u32),
    Ld(u32, u32),
    WaitLd,
    Relinquish,
}

/// An issued asynchronous tcgen05 operation, waiting for its thread's `tcgen05.commit`.
#[derive(Clone, Debug)]
pub(super) struct Issued {
    pub(super) id: u64,
    pub(super) line: u32,
    pub(super) warp: u32,
    pub(super) lane: usize,
    pub(super) op: Async,
    /// The CTAs it works on: 1, or 2 for `.cta_group::2` (the pair).
    pub(super) ctas: u32,
    /// The target whose rules the emulator applies ([`super::target`]).
    pub(super) target: Target,
}

/// The asynchronous tcgen05 operations (PTX ISA 9.7.16.6.1), with their operand values.
#[derive(Clone, Debug)]
pub(super) enum Async {
    Mma(Box<MmaOperation>),
    Cp(CpOperation),
    Shift(TmemAddress),
}

/// One warp's registers: `regs[lane * n + slot]`.
pub(crate) struct Regs<'r> {
    /// The registers.
    pub regs: &'r mut [u64],
    /// Slots per lane.
    pub n: usize,
    /// The warp's id in its CTA.
    pub warp: u32,
    /// The module's target, for the emulator ([`super::target::emulated`]).
    pub target: Target,
    /// The CTA's rank in its cluster: the rank bits of its shared addresses
    /// ([`crate::cluster`]).
    pub rank: u32,
}

impl Regs<'_> {
    pub(super) fn val(&self, lane: usize, s: Src) -> u64 {
        match s {
            Src::Reg(r) => self.regs[lane * self.n + r as usize],
            Src::Imm(v) => v,
            // Refused when decoded.
            Src::Special(_) => 0,
            Src::Shared(a) => u64::from(self.rank) << crate::cluster::RANK_SHIFT | a,
        }
    }

    /// The offset in the CTA's own shared memory of a `.shared::cta` address
    /// ([`crate::cluster::own_offset`]).
    pub(super) fn own(&self, at: u64) -> u64 {
        crate::cluster::own_offset(self.rank, at)
    }

    pub(super) fn addr(&self, lane: usize, a: Addr) -> u64 {
        self.val(lane, a.base).wrapping_add(a.offset as u64)
    }
}

pub(super) fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |l| mask >> l & 1 == 1)
}

pub(super) fn invalid(line: u32, what: String, why: &'static str) -> RunError {
    RunError::Invalid { line, what, why }
}

pub(super) fn emu(line: u32, what: &str, e: impl std::fmt::Display) -> RunError {
    invalid(
        line,
        format!("{what}: {e}"),
        "breaks a rule of the tcgen05 model (see the message)",
    )
}

/// A Tensor Memory address operand's value.
fn taddr(line: u32, raw: u64) -> Result<TmemAddress, RunError> {
    let bits = u32::try_from(raw).map_err(|_| {
        invalid(
            line,
            format!("0x{raw:x}"),
            "a Tensor Memory address is 32 bits",
        )
    })?;
    TmemAddress::from_bits(bits).map_err(|e| emu(line, "Tensor Memory address", e))
}

/// The value of `s` in every thread of `mask`, which must agree (PTX ISA 9.7.16: the
/// operands of a `.sync.aligned` tcgen05 instruction are the same in every thread).
pub(super) fn uniform(
    regs: &Regs<'_>,
    line: u32,
    mask: u32,
    f: impl Fn(usize) -> u64,
) -> Result<u64, RunError> {
    let first = f(mask.trailing_zeros() as usize);
    if lanes(mask).all(|l| f(l) == first) {
        Ok(first)
    } else {
        let _ = regs;
        Err(invalid(
            line,
            "tcgen05 operand".into(),
            "must be the same in every thread of the warp (.sync.aligned, PTX ISA 9.7.16)",
        ))
    }
}

impl Tcgen05State {
    pub(super) fn tmem(&mut self) -> &mut TensorMemory {
        self.tmem
            .get_or_insert_with(|| Box::new(TensorMemory::new()))
    }

    /// Executes one tcgen05 instruction for the threads of `exec` (of the warp's `active`
    /// ones). Returns the shared addresses of the mbarriers to arrive on, one per arrival.
    pub fn step(
        &mut self,
        shared: &mut [u8],
        regs: &mut Regs<'_>,
        line: u32,
        t: &Tcgen05,
        active: u32,
        exec: u32,
    ) -> Result<Vec<u32>, RunError> {
        self.did = None;
        if exec == 0 {
            return Ok(Vec::new());
        }
        match t {
            Tcgen05::Mma(_) | Tcgen05::Cp { .. } | Tcgen05::Shift { .. } => {
                for l in lanes(exec) {
                    let op = issue(regs, l, line, t)?;
                    let warp = regs.warp;
                    let id = self.trace.as_mut().map_or(0, |tr| tr.issue(l));
                    self.pending.push(Issued {
                        id,
                        line,
                        warp,
                        lane: l,
                        op,
                        ctas: 1,
                        target: regs.target,
                    });
                }
                return Ok(Vec::new());
            }
            Tcgen05::Commit { mbar, .. } => {
                let mut arrive = Vec::new();
                for l in lanes(exec) {
                    self.complete(shared, regs.warp, l)?;
                    arrive.push(regs.own(regs.addr(l, *mbar)) as u32);
                }
                return Ok(arrive);
            }
            Tcgen05::Fence(_) => return Ok(Vec::new()),
            _ => {}
        }
        if exec != active || active != u32::MAX {
            return Err(RunError::Unsupported {
                line,
                what: "tcgen05 .sync.aligned instruction by part of a warp".into(),
                why: "every thread of the warp executes it (PTX ISA 9.7.16)",
            });
        }
        self.warp_op(shared, regs, line, t, exec)?;
        Ok(Vec::new())
    }

    /// Completes every pending operation that thread (`warp`, `lane`) issued, oldest first.
    fn complete(&mut self, shared: &mut [u8], warp: u32, lane: usize) -> Result<(), RunError> {
        let (mine, rest): (Vec<Issued>, Vec<Issued>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|i| i.warp == warp && i.lane == lane);
        self.pending = rest;
        for i in mine {
            if i.ctas != 1 {
                return Err(invalid(
                    i.line,
                    "a .cta_group::2 operation".into(),
                    "completed by a .cta_group::1 tcgen05.commit (PTX ISA 9.7.16: one .cta_group per kernel)",
                ));
            }
            let mut mem = Memories {
                shared: &mut *shared,
                tmem: self
                    .tmem
                    .get_or_insert_with(|| Box::new(TensorMemory::new())),
            };
            if let Some(tr) = self.trace.as_mut() {
                let mut seen = Recorder::new(&mut mem);
                perform(&mut seen, &i)?;
                tr.performed.push(seen.finish(i.id, i.lane, i.line));
            } else {
                perform(&mut mem, &i)?;
            }
            self.mmas += u64::from(matches!(i.op, Async::Mma(_)));
        }
        Ok(())
    }

    /// Refuses to read or free Tensor Memory while an issued MMA has not been committed: its
    /// completion relative to this access is not modelled.
    fn no_pending(&self, line: u32) -> Result<(), RunError> {
        match self.pending.first() {
            Some(i) => Err(RunError::Unsupported {
                line,
                what: format!(
                    "Tensor Memory access while the tcgen05.mma of line {} is not committed",
                    i.line
                ),
                why: "an MMA completes at its thread's tcgen05.commit in this model",
            }),
            None => Ok(()),
        }
    }

    fn warp_op(
        &mut self,
        shared: &mut [u8],
        regs: &mut Regs<'_>,
        line: u32,
        t: &Tcgen05,
        exec: u32,
    ) -> Result<(), RunError> {
        match t {
            Tcgen05::Alloc { dst, ncols, .. } => {
                let n = uniform(regs, line, exec, |l| regs.val(l, *ncols))?;
                let at = regs.own(uniform(regs, line, exec, |l| regs.addr(l, *dst))?);
                if !(32..=512).contains(&n) || !n.is_power_of_two() {
                    return Err(invalid(
                        line,
                        format!("ncols {n}"),
                        "a power of two from 32 to 512 (PTX ISA 9.7.16.7.1)",
                    ));
                }
                let tm = self.tmem();
                if tm.relinquished {
                    return Err(invalid(
                        line,
                        "tcgen05.alloc".into(),
                        "after tcgen05.relinquish_alloc_permit (PTX ISA 9.7.16.7.1)",
                    ));
                }
                let first = tm.allocate(n as u32).ok_or_else(|| {
                    invalid(
                        line,
                        format!("tcgen05.alloc of {n} columns"),
                        "no free range: the warp would wait forever",
                    )
                })?;
                self.did = Some(Did::Alloc(first, n as u32));
                let bits = TmemAddress::new(0, first).bits();
                write_window(shared, line, "shared", at, 4, u64::from(bits))
            }
            Tcgen05::Dealloc {
                taddr: a, ncols, ..
            } => {
                self.no_pending(line)?;
                let n = uniform(regs, line, exec, |l| regs.val(l, *ncols))?;
                let a = taddr(line, uniform(regs, line, exec, |l| regs.val(l, *a))?)?;
                if a.lane() != 0 || !self.tmem().free(a.column(), n as u32) {
                    return Err(invalid(
                        line,
                        format!("tcgen05.dealloc of column {} x {n}", a.column()),
                        "not an allocation of this CTA (PTX ISA 9.7.16.7.1)",
                    ));
                }
                self.did = Some(Did::Dealloc(a.column(), n as u32));
                Ok(())
            }
            Tcgen05::Relinquish { .. } => {
                self.tmem().relinquished = true;
                self.did = Some(Did::Relinquish);
                Ok(())
            }
            Tcgen05::Ld { .. } | Tcgen05::St { .. } => self.ld_st(regs, line, t, exec),
            Tcgen05::WaitLd => {
                self.did = Some(Did::WaitLd);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// `tcgen05.ld` / `tcgen05.st` of the whole warp through the core's fragment maps.
    fn ld_st(
        &mut self,
        regs: &mut Regs<'_>,
        line: u32,
        t: &Tcgen05,
        exec: u32,
    ) -> Result<(), RunError> {
        self.no_pending(line)?;
        let (shape, num, pack, a, offset, count) = match t {
            Tcgen05::Ld {
                shape,
                num,
                pack,
                taddr,
                offset,
                regs,
                ..
            } => (*shape, *num, *pack, *taddr, *offset, regs.len()),
            Tcgen05::St {
                shape,
                num,
                pack,
                taddr,
                offset,
                regs,
            } => (*shape, *num, *pack, *taddr, *offset, regs.len()),
            _ => return Ok(()),
        };
        let packing = if pack {
            Packing::Pack16b
        } else {
            Packing::None
        };
        let frag = LdStFragment::try_new(shape, num, packing, offset)
            .map_err(|e| emu(line, "tcgen05.ld/st fragment", e))?;
        if count != frag.registers() as usize {
            return Err(invalid(
                line,
                format!("{count} registers"),
                "the fragment's register count (PTX ISA 9.7.16.8)",
            ));
        }
        let at = taddr(line, uniform(regs, line, exec, |l| regs.addr(l, a))?)?;
        let pieces =
            ld_st_pieces(&frag, at, regs.warp).map_err(|e| emu(line, "tcgen05.ld/st", e))?;
        if let Some(tr) = self.trace.as_mut() {
            let cells = pieces
                .iter()
                .map(|p| (u32::from(p.thread), p.lane, p.column));
            tr.cells = cells.collect();
        }
        let tm = self.tmem();
        for p in &pieces {
            if !tm.allocated(p.column) {
                return Err(invalid(
                    line,
                    format!("Tensor Memory lane {} column {}", p.lane, p.column),
                    "outside every allocation (PTX ISA 9.7.16.7)",
                ));
            }
        }
        let mask = |w: u32| if w >= 32 { u32::MAX } else { (1u32 << w) - 1 };
        match t {
            Tcgen05::Ld { regs: dst, red, .. } => {
                let mut values = vec![0u32; 32 * count];
                for p in &pieces {
                    let cell = tm
                        .cell(p.lane, p.column)
                        .map_err(|e| emu(line, "tcgen05.ld", e))?
                        .ok_or_else(|| {
                            invalid(
                                line,
                                format!("Tensor Memory lane {} column {}", p.lane, p.column),
                                "read before any write",
                            )
                        })?;
                    let (cb, rb) = (p.bits, p.register_bits);
                    let bits = (cell >> cb.lo) & mask(cb.width());
                    values[usize::from(p.thread) * count + usize::from(p.register)] |=
                        bits << rb.lo;
                }
                let first = pieces.iter().map(|p| p.column).min().unwrap_or(0);
                let end = pieces.iter().map(|p| p.column + 1).max().unwrap_or(first);
                self.did = Some(Did::Ld(first, end - first));
                // The registers hold the values read at issue (rules.md I12).
                for thread in 0..32 {
                    let base = thread * regs.n;
                    for (r, slot) in dst.iter().enumerate() {
                        regs.regs[base + *slot as usize] = u64::from(values[thread * count + r]);
                    }
                    if let Some(red) = red {
                        let words = &values[thread * count..(thread + 1) * count];
                        let v = super::ld_red::reduce(red, words);
                        regs.regs[base + red.redval as usize] = u64::from(v);
                    }
                }
            }
            Tcgen05::St { regs: src, .. } => {
                for p in &pieces {
                    let v = regs.val(usize::from(p.thread), src[usize::from(p.register)]) as u32;
                    let (cb, rb) = (p.bits, p.register_bits);
                    let bits = (v >> rb.lo) & mask(rb.width());
                    let old = tm
                        .cell(p.lane, p.column)
                        .map_err(|e| emu(line, "tcgen05.st", e))?
                        .unwrap_or(0);
                    let cell = if cb.width() == 32 {
                        bits
                    } else {
                        (old & !(mask(cb.width()) << cb.lo)) | (bits << cb.lo)
                    };
                    tm.set(p.lane, p.column, cell)
                        .map_err(|e| emu(line, "tcgen05.st", e))?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Performs one issued operation through the core's emulator on `mem`.
fn perform<M: TensorCoreMemory>(mem: &mut M, i: &Issued) -> Result<(), RunError> {
    let target = i.target;
    match &i.op {
        Async::Mma(op) => {
            let options = MmaOptions {
                target,
                check_allocation: true,
            };
            mma(mem, op, options).map_err(|e| emu(i.line, "tcgen05.mma", e))?;
        }
        Async::Cp(op) => {
            cp_copy(mem, op, 1, target, true).map_err(|e| emu(i.line, "tcgen05.cp", e))?;
        }
        Async::Shift(a) => {
            shift_down(mem, *a, 1, true).map_err(|e| emu(i.line, "tcgen05.shift", e))?;
        }
    }
    Ok(())
}

/// The asynchronous operation thread `l` issues: the form with the thread's operand values.
pub(super) fn issue(regs: &Regs<'_>, l: usize, line: u32, t: &Tcgen05) -> Result<Async, RunError> {
    let ta = |a: Addr| taddr(line, regs.addr(l, a));
    Ok(match t {
        Tcgen05::Mma(f) => Async::Mma(Box::new(operation(regs, l, line, f)?)),
        Tcgen05::Cp {
            shape,
            multicast,
            source,
            taddr: a,
            desc,
            ..
        } => Async::Cp(CpOperation {
            shape: *shape,
            multicast: *multicast,
            source: *source,
            taddr: ta(*a)?,
            desc: regs.val(l, *desc),
        }),
        Tcgen05::Shift { taddr: a, .. } => Async::Shift(ta(*a)?),
        _ => {
            return Err(invalid(
                line,
                "tcgen05 instruction".into(),
                "not an asynchronous operation",
            ))
        }
    })
}

/// The typed MMA of one issuing thread: its form with the thread's operand values.
fn operation(regs: &Regs<'_>, l: usize, line: u32, f: &MmaForm) -> Result<MmaOperation, RunError> {
    let ta = |a: Addr| taddr(line, regs.addr(l, a));
    let a = match f.a {
        MmaA::Smem(s) => ASource::Smem(regs.val(l, s)),
        MmaA::Tmem(a) => ASource::Tmem(ta(a)?),
    };
    let scales = match f.scales {
        Some((sa, sb)) => Some((ta(sa)?, ta(sb)?)),
        None => None,
    };
    let meta = match f.meta {
        Some(m) => Some(ta(m)?),
        None => None,
    };
    let last = f.last.map(|s| regs.val(l, s));
    let scale_input_d = match (f.ws, last) {
        (false, Some(s)) if s > 15 => {
            return Err(invalid(
                line,
                format!("scale-input-d {s}"),
                "0 to 15 (PTX ISA 9.7.16.10.9)",
            ))
        }
        (false, Some(s)) if s != 0 && !matches!(f.kind, Kind::F16 | Kind::Tf32) => {
            return Err(invalid(
                line,
                format!("scale-input-d {s}"),
                "only kind::f16 and kind::tf32 take scale-input-d (PTX ISA 9.7.16.10.9)",
            ))
        }
        (false, Some(s)) => s as u32,
        _ => 0,
    };
    Ok(MmaOperation {
        group: f.group,
        kind: f.kind,
        ws: f.ws,
        vec: f.vec,
        collector: f.collector,
        d: ta(f.d)?,
        a,
        b: regs.val(l, f.b),
        idesc: regs.val(l, f.idesc) as u32,
        scales,
        disable: f
            .disable
            .as_ref()
            .map(|v| v.iter().map(|s| regs.val(l, *s) as u32).collect()),
        enable_input_d: regs.val(l, f.enable) & 1 == 1,
        scale_input_d,
        zmask: if f.ws { last } else { None },
        meta,
        ashift: f.ashift,
    })
}
