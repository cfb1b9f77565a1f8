//! Named CTA barriers (PTX ISA 9.7.13.1, `bar`/`barrier`: `bar.sync a{, b}`, `bar.arrive a, b`,
//! barrier ids 0-15 with an optional thread count) and `setmaxnreg` (PTX ISA, "Miscellaneous Instructions: setmaxnreg").
//!
//! `bar.sync 0` with no count keeps the executor's whole-CTA barrier (every thread that has not
//! exited). Every other barrier is counted here: threads arrive (and, for `sync`, wait) on
//! barrier `id`; when the arrivals reach the count (the CTA's threads that have not exited
//! when no count is given), the barrier completes, its waiting threads go on and its count
//! restarts.

use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::op::{OpKind, Src};

/// Barrier ids per CTA (PTX ISA 9.7.13.1: 0 to 15).
pub const BARRIERS: usize = 16;

/// The state of one named barrier.
#[derive(Clone, Debug, Default)]
pub(crate) struct Named {
    /// Threads arrived in the current phase.
    pub arrived: u32,
    /// The count the first arrival of the phase gave (`None`: every thread of the CTA).
    pub count: Option<u32>,
    /// Waiting threads: (warp index, lane mask).
    pub waiting: Vec<(usize, u32)>,
}

/// The named barriers of one CTA.
#[derive(Clone, Debug, Default)]
pub(crate) struct Barriers {
    /// One per id.
    pub bars: [Named; BARRIERS],
}

impl Barriers {
    /// Threads `lanes` of warp `warp` arrive at barrier `id` with `count` (checked: the same
    /// count in every arrival of a phase, a multiple of the warp size). `wait`: they wait for
    /// its completion (`bar.sync`), or go on (`bar.arrive`).
    pub fn arrive(
        &mut self,
        line: u32,
        id: u64,
        count: Option<u64>,
        warp: usize,
        lanes: u32,
        wait: bool,
    ) -> Result<(), RunError> {
        let bad = |why| RunError::Invalid {
            line,
            what: format!(
                "barrier {id}{}",
                count.map_or(String::new(), |c| format!(", {c}"))
            ),
            why,
        };
        if id >= BARRIERS as u64 {
            return Err(bad("the barrier id must be 0 to 15 (PTX ISA 9.7.13.1)"));
        }
        let count = match count {
            Some(c) if c == 0 || c % 32 != 0 || c > 1024 => return Err(bad(
                "the thread count must be a non-zero multiple of the warp size (PTX ISA 9.7.13.1)",
            )),
            Some(c) => Some(c as u32),
            None => None,
        };
        let b = &mut self.bars[id as usize];
        if b.arrived > 0 && b.count != count {
            return Err(bad(
                "every arrival of one barrier phase must give the same thread count",
            ));
        }
        b.count = count;
        b.arrived += lanes.count_ones();
        if wait {
            b.waiting.push((warp, lanes));
        }
        Ok(())
    }

    /// The barriers that complete with `live` threads not exited in the CTA: each one's
    /// waiting threads (warp index, lanes, barrier id), its phase restarted.
    pub fn complete(&mut self, live: u32) -> Vec<(usize, u32, u32)> {
        let mut go = Vec::new();
        for (id, b) in self.bars.iter_mut().enumerate() {
            let need = b.count.unwrap_or(live);
            if b.arrived > 0 && b.arrived >= need {
                go.extend(b.waiting.drain(..).map(|(w, l)| (w, l, id as u32)));
                b.arrived = 0;
                b.count = None;
            }
        }
        go
    }
}

/// Decodes `bar{.cta}.sync a{, b}`, `bar{.cta}.arrive a, b`, `barrier{.cta}.sync{.aligned} a{,
/// b}` and `barrier{.cta}.arrive{.aligned} a, b` (not `.red`). Returns `None` for `bar.sync 0`
/// / `barrier.sync 0` with no count (the executor's whole-CTA barrier).
pub(crate) fn decode(v: &View<'_>, base: &str, q: &[&str]) -> Option<Result<OpKind, RunError>> {
    let q: Vec<&str> = q.iter().copied().filter(|x| *x != "cta").collect();
    // `bar` is `barrier.aligned`; the run executes a warp's converged threads together, so
    // the aligned and non-aligned forms behave the same here.
    let sync = match (base, q.as_slice()) {
        ("bar", ["sync"]) | ("barrier", ["sync"] | ["sync", "aligned"]) => true,
        ("bar", ["arrive"]) | ("barrier", ["arrive"] | ["arrive", "aligned"]) => false,
        _ => return None,
    };
    let (id, count) = match v.operands.as_slice() {
        [Resolved::Src(id)] => (*id, None),
        [Resolved::Src(id), Resolved::Src(c)] => (*id, Some(*c)),
        _ => {
            return Some(Err(invalid(
                v.line,
                v.text,
                "a barrier takes an id and an optional thread count",
            )))
        }
    };
    if sync && count.is_none() && id == Src::Imm(0) {
        return None;
    }
    if !sync && count.is_none() {
        return Some(Err(invalid(
            v.line,
            v.text,
            "bar.arrive needs a thread count (PTX ISA 9.7.13.1)",
        )));
    }
    Some(Ok(OpKind::NamedBarrier { id, count, sync }))
}

/// Decodes `setmaxnreg.{inc,dec}.sync.aligned.u32 N` (N a multiple of 8 from 24 to 256).
pub(crate) fn setmaxnreg(v: &View<'_>, q: &[&str]) -> Result<OpKind, RunError> {
    let inc = match q {
        ["inc", "sync", "aligned", "u32"] => true,
        ["dec", "sync", "aligned", "u32"] => false,
        _ => {
            return Err(unsupported(
                v.line,
                v.opcode,
                "setmaxnreg form not modelled",
            ))
        }
    };
    match v.operands.as_slice() {
        [Resolved::Src(Src::Imm(n))] if *n % 8 == 0 && (24..=256).contains(n) => {
            Ok(OpKind::SetMaxNReg { inc, count: *n as u32 })
        }
        _ => Err(invalid(
            v.line,
            v.text,
            "setmaxnreg takes an immediate count, a multiple of 8 from 24 to 256 (PTX ISA, setmaxnreg)",
        )),
    }
}

/// The error of `mbarrier.arrive` with a count of 0 or more than the phase's pending arrivals.
pub(crate) fn bad_arrive_count(line: u32, count: u64, pending: u64) -> RunError {
    RunError::Invalid {
        line,
        what: format!("mbarrier.arrive count {count} with {pending} pending"),
        why: "the count must be at least 1 and at most the pending arrivals (PTX ISA, mbarrier.arrive)",
    }
}
