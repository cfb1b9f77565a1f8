//! `call` and `ret` of device functions for the threads of a warp, and the threads' call areas
//! ([`crate::function`]).

use super::{lanes, State, Warp, WARP};
use crate::error::RunError;
use crate::function::{Call, CALL_BASE, MAX_DEPTH};
use crate::memory::{read_window, write_window};

/// One activation of a device function: where to return, and what the call saved.
#[derive(Clone, Debug, Default)]
pub(super) struct Frame {
    /// The call instruction.
    at: usize,
    /// The callee's register slots and their values before the call.
    regs: (u32, Vec<u64>),
    /// The callee's call area and its bytes before the call.
    area: (u32, Vec<u8>),
    /// The return copies of the call.
    rets: Vec<(u32, u32, u32)>,
}

/// The call area of lane `l`.
fn area(w: &mut Warp, bytes: usize, l: usize) -> &mut [u8] {
    &mut w.call_area[l * bytes..(l + 1) * bytes]
}

/// `call` for the threads of `exec`; the others of `active` move on.
pub(super) fn call(
    w: &mut Warp,
    (line, at): (u32, usize),
    (nregs, bytes): (usize, usize),
    c: &Call,
    active: u32,
    exec: u32,
) -> Result<(), RunError> {
    for l in lanes(active) {
        if exec >> l & 1 == 0 {
            w.pc[l] += 1;
            continue;
        }
        if w.frames[l].len() >= MAX_DEPTH {
            return Err(RunError::Unsupported {
                line,
                what: format!("call of {}", c.callee),
                why: "calls nested deeper than 4096 (an unbounded recursion?)",
            });
        }
        let (r0, r1) = (c.regs.0 as usize, c.regs.1 as usize);
        let saved_regs = w.regs[l * nregs + r0..l * nregs + r1].to_vec();
        let a = area(w, bytes, l);
        let (a0, a1) = (c.area.0 as usize, c.area.1 as usize);
        let saved_area = a[a0..a1].to_vec();
        let args: Vec<(u32, Vec<u8>)> = c
            .args
            .iter()
            .map(|&(src, dst, n)| (dst, a[src as usize..(src + n) as usize].to_vec()))
            .collect();
        for (dst, v) in args {
            a[dst as usize..dst as usize + v.len()].copy_from_slice(&v);
        }
        w.frames[l].push(Frame {
            at,
            regs: (c.regs.0, saved_regs),
            area: (c.area.0, saved_area),
            rets: c.rets.clone(),
        });
        w.pc[l] = c.target;
    }
    Ok(())
}

/// `ret` from a device function for the threads of `exec`.
pub(super) fn ret(
    w: &mut Warp,
    nregs: usize,
    bytes: usize,
    active: u32,
    exec: u32,
) -> Result<(), RunError> {
    for l in lanes(active) {
        if exec >> l & 1 == 0 {
            w.pc[l] += 1;
            continue;
        }
        let Some(f) = w.frames[l].pop() else {
            // A `ret` outside any call ends the thread, as in a kernel.
            w.state[l] = State::Exited;
            continue;
        };
        let a = area(w, bytes, l);
        let rets: Vec<(u32, Vec<u8>)> = f
            .rets
            .iter()
            .map(|&(src, dst, n)| (dst, a[src as usize..(src + n) as usize].to_vec()))
            .collect();
        let (a0, saved) = &f.area;
        a[*a0 as usize..*a0 as usize + saved.len()].copy_from_slice(saved);
        for (dst, v) in rets {
            a[dst as usize..dst as usize + v.len()].copy_from_slice(&v);
        }
        let (r0, saved) = &f.regs;
        let at = l * nregs + *r0 as usize;
        w.regs[at..at + saved.len()].copy_from_slice(saved);
        w.pc[l] = f.at + 1;
    }
    Ok(())
}

/// Whether a `.param`-space address lies in the threads' call area.
pub(super) fn in_call_area(at: u64) -> bool {
    at >= u64::from(CALL_BASE)
}

/// Reads `size` bytes of lane `l`'s call area.
pub(super) fn read(
    w: &Warp,
    bytes: usize,
    line: u32,
    l: usize,
    at: u64,
    size: u32,
) -> Result<u64, RunError> {
    let win = &w.call_area[l * bytes..(l + 1) * bytes];
    read_window(win, line, "param", at - u64::from(CALL_BASE), size)
}

/// Writes `size` bytes of lane `l`'s call area.
pub(super) fn write(
    w: &mut Warp,
    bytes: usize,
    line: u32,
    l: usize,
    at: u64,
    size: u32,
    v: u64,
) -> Result<(), RunError> {
    write_window(
        area(w, bytes, l),
        line,
        "param",
        at - u64::from(CALL_BASE),
        size,
        v,
    )
}

/// The call depth of each lane, for scheduling: a thread inside a call runs before those that
/// wait after it, so that a warp reconverges after the call returns.
pub(super) fn depth(w: &Warp, l: usize) -> usize {
    w.frames.get(l).map_or(0, Vec::len)
}

/// Empty call stacks for a warp.
pub(super) fn frames() -> Vec<Vec<Frame>> {
    vec![Vec::new(); WARP]
}
