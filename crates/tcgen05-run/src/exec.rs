//! Executes a kernel: CTAs one after another, each CTA's warps round-robin, each warp 32
//! threads with their own registers and program counters.
//!
//! Divergence and reconvergence: a warp always executes the instruction of the smallest
//! program counter among its runnable threads, for every thread at that counter (min-PC
//! scheduling). Threads that branched ahead wait until the others reach them, so a warp
//! reconverges at the first instruction both paths reach, as structured PTX code requires.
//! `bar.sync` blocks the threads that reach it until every thread of the CTA that has not
//! exited waits there (PTX ISA 9.7.13.1); a CTA in which no warp can move is reported.

mod arith;
mod atom;
mod bulk_copy;
mod bulk_group;
mod cluster;
mod compare;
mod convert;
mod function;
mod generic;
mod mbarrier;
mod warp;

use crate::error::RunError;
use crate::float::{f32_fma, ftz32};
use crate::host::Hooks;
use crate::int::{self, mask, sext};
use crate::memory::{read_window, write_window, Global};
use crate::module::Kernel;
use crate::observe::{Event, Observer};
use crate::op::{Addr, Op, OpKind, ShflMode, Space, Special, Src, Ty};
use crate::schedule::Schedule;
use crate::tensor_map::{Copy, TensorMap};
use crate::wgmma::{complete, Pending, Queue};
use std::collections::HashMap;

mod approx;
mod hooks;
mod issue;
mod progress;
mod tmem_hooks;

use compare::{boolean, compare, float_binary};
use convert::{convert, sat_f32};
use mbarrier::{complete_copy, cp_async_op, map_index, mbarrier_op, no_mbarrier};

/// Threads per warp.
pub const WARP: usize = 32;

/// Bounds of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most warp-instructions the whole run may execute.
    pub steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps: 1_000_000_000,
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Warp-instructions executed (one per instruction a warp issues, whatever its mask).
    pub warp_instructions: u64,
    /// Thread-instructions executed (guard-true threads).
    pub thread_instructions: u64,
    /// CTAs run.
    pub ctas: u64,
    /// Matrix multiply-accumulates: `wgmma` counted once per warpgroup, `tcgen05.mma` once
    /// per completed operation.
    pub mmas: u64,
    /// Bytes of global memory read and written (loads, stores, tensor copies).
    pub bytes_moved: u64,
    /// Lanes of approximate instructions computed as correctly rounded ([`crate::approx`]).
    pub approximated: crate::approx::Counts,
}

/// The launch shape of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Grid dimensions in CTAs.
    pub grid: [u32; 3],
    /// Block dimensions in threads.
    pub block: [u32; 3],
    /// Cluster dimensions in CTAs (each divides the grid's).
    pub cluster: [u32; 3],
    /// Whether the launch or the kernel named a cluster shape (`%is_explicit_cluster`).
    pub explicit_cluster: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Run,
    Barrier,
    /// Waiting at a named barrier ([`crate::barrier`]).
    Named,
    Exited,
    /// Waiting at `barrier.cluster.wait` ([`cluster`]).
    ClusterWait,
}

struct Warp {
    id: u32,
    /// Issued `wgmma` operations not yet retired.
    wgmma: Queue,
    /// Lanes that exist (the last warp of a CTA may be partial).
    lanes: usize,
    pc: [usize; WARP],
    state: [State; WARP],
    regs: Vec<u64>,
    /// The cluster barrier phase each thread last arrived at (`barrier.cluster.arrive`).
    cluster_arrived: [Option<u64>; WARP],
    /// Each thread's `.local` memory, `Kernel::local_bytes` per lane ([`generic`]).
    local: Vec<u8>,
    /// Each thread's call area, `Kernel::call_bytes` per lane ([`function`]).
    call_area: Vec<u8>,
    /// Each thread's active calls.
    frames: Vec<Vec<function::Frame>>,
    /// Polling an mbarrier that has not changed phase: (address, phase seen, pc of the wait).
    spin: Option<(u32, u64, usize)>,
    /// Each lane's `cp.async` copies not yet performed.
    cp_async: Vec<crate::cp_async::Queue>,
}

/// Everything a warp's instruction may touch besides its own registers.
struct Cta<'a> {
    kernel: &'a Kernel,
    shape: Shape,
    ctaid: [u32; 3],
    params: &'a [u8],
    shared: Vec<u8>,
    global: &'a mut Global,
    nregs: usize,
    /// The launch's tensor maps with their tensors' addresses.
    maps: &'a [(TensorMap, u64)],
    /// Initialised mbarriers by shared address.
    mbars: HashMap<u32, Mbar>,
    /// Bulk tensor copies issued and not yet performed.
    copies: Vec<Copy>,
    /// The CTA's place in its cluster and the other CTAs' state ([`cluster`]).
    cluster: cluster::Place,
    /// Bulk loads issued to this CTA and not yet performed ([`bulk_copy`]).
    bulk: Vec<crate::bulk_copy::Pending>,
    /// The observer of accesses and events, if any.
    obs: Option<&'a mut dyn Observer>,
    /// The schedule.
    sched: Schedule,
    /// The next asynchronous operation's id.
    next_async: u64,
    /// Named barriers.
    bars: crate::barrier::Barriers,
    /// Tensor Memory and the pending tcgen05 operations.
    tc: crate::tcgen05::Tcgen05State,
    /// Matrix multiply-accumulate instructions issued (once per warpgroup).
    mmas: u64,
    /// The approximate instructions the run computes as correctly rounded ([`crate::approx`]).
    approx: crate::approx::Approx,
    /// Lanes so computed.
    approximated: crate::approx::Counts,
}

/// The state of one mbarrier (PTX ISA 9.7.13.15.1): arrivals expected per phase, arrivals
/// still pending, the transaction count, and the current phase.
#[derive(Clone, Copy, Debug)]
struct Mbar {
    expected: u64,
    pending: u64,
    tx: i64,
    phase: u64,
}

impl Mbar {
    /// Completes the current phase when every arrival and every transaction byte is in.
    fn settle(&mut self) {
        if self.pending == 0 && self.tx == 0 {
            self.phase += 1;
            self.pending = self.expected;
        }
    }
}

/// Runs every cluster of the grid, one after another; the CTAs of a cluster run interleaved
/// ([`cluster::run_cluster`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    kernel: &Kernel,
    shape: Shape,
    params: &[u8],
    dynamic_shared: u32,
    global: &mut Global,
    maps: &[(TensorMap, u64)],
    limits: Limits,
    mut hooks: Hooks<'_>,
) -> Result<Stats, RunError> {
    let mut stats = Stats::default();
    let mut sched = Schedule::new(hooks.seed);
    let mut choices = hooks.choices.take();
    sched.explore = choices.as_deref_mut().map(std::mem::take);
    let shared_bytes = (kernel.static_shared + dynamic_shared) as usize;
    let c = shape.cluster;
    for z in (0..shape.grid[2]).step_by(c[2] as usize) {
        for y in (0..shape.grid[1]).step_by(c[1] as usize) {
            for x in (0..shape.grid[0]).step_by(c[0] as usize) {
                let mut cta = Cta {
                    kernel,
                    shape,
                    ctaid: [x, y, z],
                    params,
                    shared: vec![0; shared_bytes],
                    global,
                    nregs: kernel.registers as usize,
                    maps,
                    mbars: HashMap::new(),
                    copies: Vec::new(),
                    cluster: cluster::Place::new(shape, [x, y, z], shared_bytes),
                    bulk: Vec::new(),
                    obs: match hooks.observer {
                        Some(ref mut o) => Some(&mut **o as &mut dyn Observer),
                        None => None,
                    },
                    sched: std::mem::take(&mut sched),
                    next_async: 0,
                    bars: Default::default(),
                    tc: Default::default(),
                    mmas: 0,
                    approx: hooks.approx,
                    approximated: Default::default(),
                };
                hooks::cta_start(&mut cta);
                tmem_hooks::start(&mut cta);
                let result = cluster::run_cluster(&mut cta, &mut stats, limits);
                hooks::emit(&mut cta, &Event::CtaEnd);
                sched = std::mem::take(&mut cta.sched);
                if let Err(e) = result {
                    crate::schedule::give_back(sched, choices);
                    return Err(e);
                }
                stats.mmas += cta.mmas;
                stats.approximated.add(cta.approximated);
            }
        }
    }
    stats.bytes_moved = global.moved.get();
    crate::schedule::give_back(sched, choices);
    Ok(stats)
}

fn count(warps: &[Warp], f: impl Fn(State) -> bool) -> usize {
    warps
        .iter()
        .map(|w| w.state.iter().filter(|&&s| f(s)).count())
        .sum()
}

/// Releases the threads of every named barrier that has completed (`live` threads have not
/// exited). Returns whether any thread was released.
fn release_named(cta: &mut Cta<'_>, warps: &mut [Warp], live: usize) -> bool {
    let go = cta.bars.complete(live as u32);
    hooks::named_release(cta, warps, &go);
    for &(wi, lanes, _) in &go {
        for l in 0..WARP {
            if lanes >> l & 1 == 1 && warps[wi].state[l] == State::Named {
                warps[wi].state[l] = State::Run;
                warps[wi].pc[l] += 1;
            }
        }
    }
    !go.is_empty()
}

fn release_barrier(cta: &mut Cta<'_>, warps: &mut [Warp]) {
    hooks::bar_sync(cta, warps);
    for w in warps {
        for l in 0..WARP {
            if w.state[l] == State::Barrier {
                w.state[l] = State::Run;
                w.pc[l] += 1;
            }
        }
    }
}

/// Runs one warp until all its threads exit or wait at a barrier, or for a quantum of
/// instructions. Returns whether it executed anything.
fn run_warp(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    stats: &mut Stats,
    limits: Limits,
) -> Result<bool, RunError> {
    let mut ran = false;
    for _ in 0..cta.sched.quantum() {
        let Some((pc, active)) = issue::issue(w) else {
            break;
        };
        stats.warp_instructions += 1;
        if stats.warp_instructions > limits.steps {
            return Err(RunError::StepLimit {
                limit: limits.steps,
            });
        }
        ran = true;
        let op = &cta.kernel.ops[pc];
        let exec = guard_mask(w, cta.nregs, op, active);
        stats.thread_instructions += u64::from(exec.count_ones());
        step(cta, w, op, active, exec)?;
        if progress::failed_poll(cta, w, op, exec, pc) {
            break;
        }
        if cta.sched.yields(op) {
            break;
        }
    }
    Ok(ran)
}

fn guard_mask(w: &Warp, nregs: usize, op: &Op, active: u32) -> u32 {
    match op.guard {
        None => active,
        Some((p, neg)) => {
            let mut m = 0;
            for l in 0..WARP {
                if active >> l & 1 == 1 && ((w.regs[l * nregs + p as usize] & 1 == 1) != neg) {
                    m |= 1 << l;
                }
            }
            m
        }
    }
}

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    (0..WARP).filter(move |l| mask >> l & 1 == 1)
}

/// `brx.idx` for the threads of `active` (`exec`: those whose guard is true): each moves to
/// the label its index picks (crate `brx`), the others to the next instruction.
fn brx_step(
    cta: &Cta<'_>,
    w: &mut Warp,
    line: u32,
    (active, exec): (u32, u32),
    index: Src,
    targets: &[usize],
) -> Result<(), RunError> {
    let n = cta.nregs;
    for l in lanes(active) {
        w.pc[l] = if exec >> l & 1 == 1 {
            crate::brx::target(line, targets, val(cta, w, n, l, index))?
        } else {
            w.pc[l] + 1
        };
    }
    Ok(())
}

/// Three-input `min`/`max.f32` (`OpKind::MinMax3`): the destination and `op(op(a, b), c)`.
fn min_max3(kind: &OpKind, v: &dyn Fn(Src) -> u64) -> (u32, u64) {
    let OpKind::MinMax3 {
        max,
        ftz,
        d,
        a,
        b,
        c,
    } = kind
    else {
        unreachable!("min_max3 of another instruction")
    };
    let o = if *max {
        crate::op::FloatOp::Max
    } else {
        crate::op::FloatOp::Min
    };
    let ab = float_binary(o, Ty::F32, v(*a), v(*b), *ftz, false);
    (*d, float_binary(o, Ty::F32, ab, v(*c), *ftz, false))
}

/// Executes one instruction for the threads of `exec` (those of `active` whose guard is true)
/// and moves every thread of `active` to its next instruction.
fn step(cta: &mut Cta<'_>, w: &mut Warp, op: &Op, active: u32, exec: u32) -> Result<(), RunError> {
    let n = cta.nregs;
    match &op.kind {
        OpKind::Bra { target } => {
            for l in lanes(active) {
                w.pc[l] = if exec >> l & 1 == 1 {
                    *target
                } else {
                    w.pc[l] + 1
                };
            }
            return Ok(());
        }
        OpKind::BrxIdx { index, targets, .. } => {
            return brx_step(cta, w, op.line, (active, exec), *index, targets);
        }
        OpKind::Exit => {
            for l in lanes(active) {
                if exec >> l & 1 == 1 {
                    w.state[l] = State::Exited;
                } else {
                    w.pc[l] += 1;
                }
            }
            return Ok(());
        }
        OpKind::BarSync { id, count } => {
            if exec != active {
                return Err(RunError::Unsupported {
                    line: op.line,
                    what: "bar.sync under a guard false for some threads".into(),
                    why: "a predicated barrier is not modelled",
                });
            }
            let id = val(cta, w, n, 0, *id);
            if id != 0 || count.is_some() {
                return Err(RunError::Unsupported {
                    line: op.line,
                    what: format!(
                        "bar.sync {id}{}",
                        if count.is_some() { ", count" } else { "" }
                    ),
                    why: "only barrier 0 over the whole CTA is modelled",
                });
            }
            for l in lanes(active) {
                w.state[l] = State::Barrier;
            }
            return Ok(());
        }
        OpKind::Call(c) => {
            let bytes = cta.kernel.call_bytes as usize;
            let at = w.pc[active.trailing_zeros() as usize];
            return function::call(w, (op.line, at), (n, bytes), c, active, exec);
        }
        OpKind::Ret => {
            let bytes = cta.kernel.call_bytes as usize;
            return function::ret(w, n, bytes, active, exec);
        }
        // Threads whose guard is false do not arrive; the others arrive (and, for `sync`,
        // wait) with the id and count of the lowest of them.
        OpKind::NamedBarrier { id, count, sync } if exec != 0 => {
            let first = exec.trailing_zeros() as usize;
            let id = val(cta, w, n, first, *id);
            let c = count.map(|c| val(cta, w, n, first, c));
            cta.bars
                .arrive(op.line, id, c, w.id as usize, exec, *sync)?;
            hooks::named_arrive(cta, w, (id as u32, op.line), exec);
            if *sync {
                for l in lanes(exec) {
                    w.state[l] = State::Named;
                }
                for l in lanes(active & !exec) {
                    w.pc[l] += 1;
                }
                return Ok(());
            }
        }
        OpKind::Shfl { .. } => shfl(cta, w, op, exec)?,
        OpKind::Elect { d, p, mask } => {
            let m = exec & (val(cta, w, n, 0, *mask) as u32);
            let leader = m.trailing_zeros() as usize;
            for l in lanes(exec) {
                if let Some(d) = d {
                    w.regs[l * n + *d as usize] = if m == 0 { 0 } else { leader as u64 };
                }
                if let Some(p) = p {
                    w.regs[l * n + *p as usize] = u64::from(l == leader);
                }
            }
        }
        OpKind::Cluster(c) => {
            if cluster::warp_op(cta, w, op, c, active, exec)? {
                return Ok(());
            }
        }
        OpKind::Warp(x) => warp::warp_op(cta, w, op, x, active, exec)?,
        OpKind::Isspacep {
            p,
            a,
            space,
            cta_only,
        } => generic::isspacep(cta, w, *p, *a, *space, *cta_only, exec),
        OpKind::Trap if exec != 0 => {
            return Err(RunError::Trap {
                line: op.line,
                cta: cta.ctaid,
                thread: w.id * WARP as u32 + exec.trailing_zeros(),
            })
        }
        OpKind::Wgmma { .. }
        | OpKind::WgmmaCommit
        | OpKind::WgmmaWait { .. }
        | OpKind::SetMaxNReg { .. } => {
            if exec != active || active != u32::MAX {
                return Err(RunError::Unsupported {
                    line: op.line,
                    what: "wgmma or setmaxnreg by part of a warp".into(),
                    why: "wgmma is .sync.aligned: every thread of the warpgroup executes it (PTX ISA 9.7.15)",
                });
            }
            warp_wgmma(cta, w, op)?;
        }
        OpKind::Tcgen05(t) => tcgen05_op(cta, w, op, t, active, exec)?,
        OpKind::Approx(f) => approx::step(cta, w, op, f, exec)?,
        OpKind::Matrix(m) => {
            if exec != active || active != u32::MAX {
                return Err(RunError::Unsupported {
                    line: op.line,
                    what: "ldmatrix/stmatrix by part of a warp".into(),
                    why: "it is .sync.aligned: every thread of the warp executes it (PTX ISA 9.7.14.5.15)",
                });
            }
            let rank = cluster::rank(cta);
            crate::ldmatrix::step(&mut cta.shared, &mut w.regs, (n, rank), op.line, m)?;
        }
        _ => {
            for l in lanes(exec) {
                lane_op(cta, w, op, l)?;
            }
        }
    }
    for l in lanes(active) {
        w.pc[l] += 1;
    }
    Ok(())
}

/// A `tcgen05.*` instruction of a warp; the mbarrier arrivals of the commits it completed.
fn tcgen05_op(
    cta: &mut Cta<'_>,
    w: &mut Warp,
    op: &Op,
    t: &crate::tcgen05::op::Tcgen05,
    active: u32,
    exec: u32,
) -> Result<(), RunError> {
    crate::tcgen05::same_group(&mut cta.tc, op.line, t)?;
    if crate::tcgen05::needs_pair(t) {
        return cluster::pair::step(cta, w, op, t, active, exec);
    }
    let mut regs = crate::tcgen05::Regs {
        regs: &mut w.regs,
        n: cta.nregs,
        warp: w.id,
        target: cta.kernel.target,
        rank: cluster::rank(cta),
    };
    let arrivals = cta
        .tc
        .step(&mut cta.shared, &mut regs, op.line, t, active, exec)?;
    tmem_hooks::lifecycle(cta, w, op, exec, &arrivals);
    for at in arrivals {
        let m = cta
            .mbars
            .get_mut(&at)
            .ok_or_else(|| no_mbarrier(op.line, at))?;
        m.pending = m.pending.saturating_sub(1);
        m.settle();
    }
    Ok(())
}

#[inline(never)]
fn special(cta: &Cta<'_>, w: &Warp, lane: usize, s: Special) -> u64 {
    let b = cta.shape.block;
    let t = w.id as usize * WARP + lane;
    let tid = [
        t as u32 % b[0],
        (t as u32 / b[0]) % b[1],
        t as u32 / (b[0] * b[1]),
    ];
    u64::from(match s {
        Special::Tid(d) => tid[d as usize],
        Special::Ntid(d) => b[d as usize],
        Special::Ctaid(d) => cta.ctaid[d as usize],
        Special::Nctaid(d) => cta.shape.grid[d as usize],
        Special::Laneid => lane as u32,
        Special::Warpid => w.id,
        Special::Nwarpid => (b[0] * b[1] * b[2]).div_ceil(WARP as u32),
        Special::Clusterid(_)
        | Special::Nclusterid(_)
        | Special::ClusterCtarank
        | Special::ClusterCtaid(_)
        | Special::ClusterNctarank
        | Special::ClusterNctaid(_)
        | Special::IsExplicitCluster => cluster::special(cta, s),
        Special::LanemaskLt => (1u32 << lane) - 1,
        Special::DynamicSmemSize => cta.shared.len() as u32 - cta.kernel.static_shared,
    })
}

#[inline(always)]
fn val(cta: &Cta<'_>, w: &Warp, n: usize, lane: usize, s: Src) -> u64 {
    match s {
        Src::Reg(r) => w.regs[lane * n + r as usize],
        Src::Imm(v) => v,
        Src::Special(sp) => special(cta, w, lane, sp),
        Src::Shared(a) => u64::from(cluster::rank(cta)) << crate::cluster::RANK_SHIFT | a,
    }
}

/// The offset in the running CTA's shared memory of a `.shared::cta` address
/// ([`crate::cluster::own_offset`]).
fn own(cta: &Cta<'_>, at: u64) -> u64 {
    crate::cluster::own_offset(cluster::rank(cta), at)
}

#[inline]
fn address(cta: &Cta<'_>, w: &Warp, lane: usize, a: Addr) -> u64 {
    val(cta, w, cta.nregs, lane, a.base).wrapping_add(a.offset as u64)
}

fn load(cta: &Cta<'_>, line: u32, space: Space, at: u64, size: u32) -> Result<u64, RunError> {
    match space {
        Space::Global => cta.global.read(line, at, size),
        Space::Shared => read_window(&cta.shared, line, "shared", own(cta, at), size),
        Space::Param => read_window(cta.params, line, "param", at, size),
        Space::SharedCluster => cluster::load(cta, line, at, size),
        Space::Generic => match generic::resolve(at) {
            (Space::Generic | Space::Local, _) => Err(generic::no_local(line, at, size)),
            (s, a) => load(cta, line, s, a, size),
        },
        Space::Local => Err(generic::no_local(line, at, size)),
    }
}

fn store(
    cta: &mut Cta<'_>,
    line: u32,
    space: Space,
    at: u64,
    size: u32,
    v: u64,
) -> Result<(), RunError> {
    match space {
        Space::Global => cta.global.write(line, at, size, v),
        Space::Shared => {
            let at = own(cta, at);
            write_window(&mut cta.shared, line, "shared", at, size, v)
        }
        Space::Param => Err(RunError::Unsupported {
            line,
            what: "st.param".into(),
            why: "kernel parameters are read-only",
        }),
        Space::SharedCluster => cluster::store(cta, line, at, size, v),
        Space::Generic => match generic::resolve(at) {
            (Space::Generic | Space::Local, _) => Err(generic::no_local(line, at, size)),
            (s, a) => store(cta, line, s, a, size, v),
        },
        Space::Local => Err(generic::no_local(line, at, size)),
    }
}

fn vector_align(line: u32, space: Space, at: u64, size: u32) -> Result<(), RunError> {
    if at % u64::from(size) == 0 {
        Ok(())
    } else {
        Err(RunError::Memory {
            line,
            space: space.name(),
            address: at,
            size,
            why: "a vector access must be aligned to its whole size",
        })
    }
}

/// Executes a per-thread instruction for one lane.
fn lane_op(cta: &mut Cta<'_>, w: &mut Warp, op: &Op, l: usize) -> Result<(), RunError> {
    if arith::handles(&op.kind) && arith::lane(cta, w, op, l) {
        return Ok(());
    }
    let n = cta.nregs;
    let v = |s: Src| val(cta, w, n, l, s);
    let (d, value) = match &op.kind {
        OpKind::Mov { d, a, bits } => (*d, v(*a) & mask(*bits)),
        OpKind::Pack {
            d,
            parts,
            part_bits,
        } => {
            let mut x = 0u64;
            for (i, p) in parts.iter().enumerate() {
                x |= (v(*p) & mask(*part_bits)) << (i as u32 * part_bits);
            }
            (*d, x)
        }
        OpKind::Unpack {
            parts,
            a,
            part_bits,
        } => {
            let x = v(*a);
            for (i, p) in parts.iter().enumerate() {
                if let Some(p) = p {
                    w.regs[l * n + *p as usize] = (x >> (i as u32 * part_bits)) & mask(*part_bits);
                }
            }
            return Ok(());
        }
        OpKind::Int { op: o, ty, d, a, b } => (*d, int::binary(*o, *ty, v(*a), v(*b))),
        OpKind::Mad {
            op: o,
            ty,
            d,
            a,
            b,
            c,
        } => {
            let p = int::binary(*o, *ty, v(*a), v(*b));
            let bits = if *o == crate::op::IntOp::MulWide {
                2 * ty.bits()
            } else {
                ty.bits()
            };
            (*d, p.wrapping_add(v(*c)) & mask(bits))
        }
        OpKind::IntUnary { op: o, ty, d, a } => (*d, int::unary(*o, *ty, v(*a))),
        OpKind::Float {
            op: o,
            ty,
            ftz,
            sat,
            d,
            a,
            b,
            ..
        } => (*d, float_binary(*o, *ty, v(*a), v(*b), *ftz, *sat)),
        OpKind::Fma {
            ty,
            ftz,
            sat,
            d,
            a,
            b,
            c,
            ..
        } => (*d, fma(*ty, v(*a), v(*b), v(*c), *ftz, *sat)),
        OpKind::FloatSign { abs, ty, ftz, d, a } => (*d, float_sign(*abs, *ty, *ftz, v(*a))),
        OpKind::MinMax3 { .. } => min_max3(&op.kind, &v),
        OpKind::Setp { .. } => return setp(cta, w, op, l),
        OpKind::Selp { d, a, b, c, bits } => {
            let x = if v(*c) & 1 == 1 { v(*a) } else { v(*b) };
            (*d, x & mask(*bits))
        }
        OpKind::Cvt { conv, d, a, b } => {
            let bv = b.map(v);
            (*d, convert(op.line, *conv, v(*a), bv)?)
        }
        OpKind::Ld { .. } | OpKind::St { .. } => return memory_op(cta, w, op, l),
        OpKind::FenceProxyAsync | OpKind::FenceMbarrierInit => return hooks::fence(cta, w, l, op),
        OpKind::Bfe { ty, d, a, b, c } => (*d, bfe(*ty, v(*a), v(*b), v(*c))),
        OpKind::Prmt { mode, d, a, b, c } => (
            *d,
            u64::from(crate::prmt::permute(
                *mode,
                v(*a) as u32,
                v(*b) as u32,
                v(*c) as u32,
            )),
        ),
        OpKind::CpAsync { .. } | OpKind::CpAsyncCommit | OpKind::CpAsyncWait { .. } => {
            return cp_async_op(cta, w, op, l)
        }
        OpKind::Cvta {
            d,
            a,
            window,
            to_generic,
        } => {
            let x = v(*a);
            (
                *d,
                if *to_generic {
                    x.wrapping_add(*window)
                } else {
                    x.wrapping_sub(*window)
                },
            )
        }
        OpKind::MbarInit { .. }
        | OpKind::MbarArrive { .. }
        | OpKind::MbarArriveCount { .. }
        | OpKind::MbarTryWait { .. }
        | OpKind::MbarInval { .. }
        | OpKind::TmaLoad { .. } => return mbarrier_op(cta, w, op, l),
        OpKind::Bra { .. }
        | OpKind::BrxIdx { .. }
        | OpKind::Exit
        | OpKind::BarSync { .. }
        | OpKind::Shfl { .. }
        | OpKind::Elect { .. }
        | OpKind::Fence
        | OpKind::NamedBarrier { .. }
        | OpKind::SetMaxNReg { .. }
        | OpKind::Wgmma { .. }
        | OpKind::WgmmaCommit
        | OpKind::WgmmaWait { .. }
        | OpKind::Cluster(_)
        | OpKind::Warp(_)
        | OpKind::Isspacep { .. }
        | OpKind::Trap
        | OpKind::Call(_)
        | OpKind::Ret
        | OpKind::RoundedFn(_)
        | OpKind::Tcgen05(_)
        | OpKind::Matrix(_) => return Ok(()),
        OpKind::Half(_) | OpKind::Approx(_) | OpKind::F32x2(_) => return Ok(()),
        OpKind::Atom(a) => return atom::atom(cta, w, op, a, l),
        OpKind::Bulk(b) => return bulk_copy::issue(cta, w, op, b, l),
    };
    w.regs[l * n + d as usize] = value;
    Ok(())
}

/// `setp` of one lane: the comparison, combined with a third predicate when written so, into
/// `p` and (when given) its negation into `q` (PTX ISA 9.7.7.1).
fn setp(cta: &Cta<'_>, w: &mut Warp, op: &Op, l: usize) -> Result<(), RunError> {
    let OpKind::Setp {
        cmp,
        ty,
        ftz,
        p,
        q,
        a,
        b,
        combine,
    } = &op.kind
    else {
        return Ok(());
    };
    let n = cta.nregs;
    let v = |s: Src| val(cta, w, n, l, s);
    let mut t = compare(*cmp, *ty, *ftz, v(*a), v(*b));
    let mut f = !t;
    if let Some((bop, c, neg)) = combine {
        let c = (v(*c) & 1 == 1) != *neg;
        t = boolean(*bop, t, c);
        f = boolean(*bop, f, c);
    }
    if let Some(q) = q {
        w.regs[l * n + *q as usize] = u64::from(f);
    }
    w.regs[l * n + *p as usize] = u64::from(t);
    Ok(())
}

/// `ld` and `st` of one lane: vector accesses aligned to their whole size, loads sign-extended
/// as their type says.
fn memory_op(cta: &mut Cta<'_>, w: &mut Warp, op: &Op, l: usize) -> Result<(), RunError> {
    if let Some(r) = generic::memory_op(cta, w, op, l) {
        return r;
    }
    let n = cta.nregs;
    let v = |cta: &Cta<'_>, w: &Warp, s: Src| val(cta, w, n, l, s);
    match &op.kind {
        OpKind::Ld { space, ty, d, addr } => {
            let at = address(cta, w, l, *addr);
            let size = ty.bytes();
            if d.len() > 1 {
                vector_align(op.line, *space, at, size * d.len() as u32)?;
            }
            let bytes = size * d.len() as u32;
            hooks::access(cta, w, l, op.line, (*space, at, bytes, false));
            for (i, dst) in d.iter().enumerate() {
                let x = load(cta, op.line, *space, at + u64::from(size) * i as u64, size)?;
                let x = if ty.signed() {
                    sext(x, ty.bits()) as u64
                } else {
                    x
                };
                if let Some(dst) = dst {
                    w.regs[l * n + *dst as usize] = x;
                }
            }
            Ok(())
        }
        OpKind::St { space, ty, a, addr } => {
            let at = address(cta, w, l, *addr);
            let size = ty.bytes();
            if a.len() > 1 {
                vector_align(op.line, *space, at, size * a.len() as u32)?;
            }
            let bytes = size * a.len() as u32;
            let vals = issue::Values::read(a, |s| v(cta, w, s));
            hooks::store_bytes(cta, *space, size, vals.as_slice());
            hooks::access(cta, w, l, op.line, (*space, at, bytes, true));
            for (i, &x) in vals.as_slice().iter().enumerate() {
                store(
                    cta,
                    op.line,
                    *space,
                    at + u64::from(size) * i as u64,
                    size,
                    x,
                )?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `fma.rn` of one lane: f64 through the host's fused multiply-add, f32 through `f32_fma` with
/// `.ftz` and `.sat`.
fn fma(ty: Ty, a: u64, b: u64, c: u64, ftz: bool, sat: bool) -> u64 {
    if ty == Ty::F64 {
        f64::from_bits(a)
            .mul_add(f64::from_bits(b), f64::from_bits(c))
            .to_bits()
    } else {
        u64::from(f32_fma(a as u32, b as u32, c as u32, ftz, sat))
    }
}

/// `abs` and `neg` of one lane: the sign bit cleared or flipped (f32 inputs flushed first under
/// `.ftz`).
fn float_sign(abs: bool, ty: Ty, ftz: bool, x: u64) -> u64 {
    if ty == Ty::F64 {
        if abs {
            x & !(1 << 63)
        } else {
            x ^ (1 << 63)
        }
    } else {
        let x = if ftz { ftz32(x as u32) } else { x as u32 };
        u64::from(if abs {
            x & 0x7FFF_FFFF
        } else {
            x ^ 0x8000_0000
        })
    }
}

/// `bfe`: `len` bits of `a` from bit `pos`, filled above with the sign bit for signed types
/// (PTX ISA 9.7.1.19: position and length are the low 8 bits of `b` and `c`).
fn bfe(ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    let bits = u64::from(ty.bits());
    let (pos, len) = (b & 0xFF, c & 0xFF);
    let bit = |i: u64| (a >> i.min(63)) & 1;
    let fill = if !ty.signed() || len == 0 {
        0
    } else {
        bit((pos + len - 1).min(bits - 1))
    };
    let mut r = 0u64;
    for i in 0..bits {
        let x = if i < len && pos + i < bits {
            bit(pos + i)
        } else {
            fill
        };
        r |= x << i;
    }
    r
}

/// `wgmma.mma_async`, `commit_group`, `wait_group` for a whole warp.
fn warp_wgmma(cta: &mut Cta<'_>, w: &mut Warp, op: &Op) -> Result<(), RunError> {
    let n = cta.nregs;
    match &op.kind {
        OpKind::Wgmma {
            form,
            d,
            a_desc,
            b_desc,
            scale_d,
        } => {
            let uniform = |s: Src| -> Result<u64, RunError> {
                let x = val(cta, w, n, 0, s);
                if (1..WARP).all(|l| val(cta, w, n, l, s) == x) {
                    Ok(x)
                } else {
                    Err(RunError::Invalid {
                        line: op.line,
                        what: "wgmma descriptor or scale-d".into(),
                        why:
                            "must be the same in every thread of the warpgroup (PTX ISA 9.7.15.5.2)",
                    })
                }
            };
            let pending = Pending {
                line: op.line,
                form: *form,
                d: d.clone(),
                a_desc: uniform(*a_desc)?,
                b_desc: uniform(*b_desc)?,
                accumulate: uniform(*scale_d)? & 1 == 1,
                group: None,
                id: cta.next_async,
            };
            cta.next_async += 1;
            hooks::wgmma_issued(cta, w, pending.id, op.line);
            w.wgmma.pending.push(pending);
            cta.mmas += u64::from(w.id % 4 == 0);
        }
        OpKind::WgmmaCommit => w.wgmma.commit(),
        OpKind::WgmmaWait { n: keep } => {
            let done = w.wgmma.retire(*keep);
            if !done.is_empty() {
                hooks::wgmma_retired(cta, w, &done, op.line);
                for p in &done {
                    let layouts = &mut w.wgmma.layouts;
                    complete(layouts, &cta.shared, p, (w.id % 4) as usize, &mut w.regs, n)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// `shfl.sync` for the threads of `exec`: every source value is read before any is written
/// (PTX ISA 9.7.9.6).
fn shfl(cta: &Cta<'_>, w: &mut Warp, op: &Op, exec: u32) -> Result<(), RunError> {
    let OpKind::Shfl {
        mode,
        d,
        p,
        a,
        b,
        c,
        mask: _,
    } = op.kind
    else {
        return Ok(());
    };
    let n = cta.nregs;
    let mut out = [(0u64, false); WARP];
    for l in lanes(exec) {
        let bval = (val(cta, w, n, l, b) & 0x1F) as i64;
        let cval = val(cta, w, n, l, c);
        let segmask = ((cval >> 8) & 0x1F) as i64;
        let clamp = (cval & 0x1F) as i64;
        let lane = l as i64;
        let max_lane = (lane & segmask) | (clamp & !segmask);
        let min_lane = lane & segmask;
        let (j, ok) = match mode {
            ShflMode::Up => (lane - bval, lane - bval >= max_lane),
            ShflMode::Down => (lane + bval, lane + bval <= max_lane),
            ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
            ShflMode::Idx => {
                let j = min_lane | (bval & !segmask);
                (j, j <= max_lane)
            }
        };
        let j = if ok { j as usize } else { l };
        out[l] = (val(cta, w, n, j, a) & 0xFFFF_FFFF, ok);
    }
    for l in lanes(exec) {
        w.regs[l * n + d as usize] = out[l].0;
        if let Some(p) = p {
            w.regs[l * n + p as usize] = u64::from(out[l].1);
        }
    }
    Ok(())
}
