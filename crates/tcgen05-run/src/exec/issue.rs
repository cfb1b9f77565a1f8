//! Which threads of a warp issue its next instruction (min-PC scheduling, [`super`]), in one
//! pass over the lanes; and a store's source values staged without a heap allocation.

use super::{function, State, Warp, WARP};
use crate::op::Src;

/// The next instruction of warp `w` and the threads that execute it: among the runnable
/// threads, those deepest in calls and, among them, at the smallest program counter (the
/// threads of a callee run before their callers' others; PTX ISA 9.7.12). `None` when no
/// thread can run.
#[inline]
pub(super) fn issue(w: &Warp) -> Option<(usize, u32)> {
    let mut best: Option<(usize, usize)> = None;
    let mut active = 0u32;
    for l in 0..WARP {
        if w.state[l] != State::Run {
            continue;
        }
        let (depth, pc) = (function::depth(w, l), w.pc[l]);
        match best {
            Some((d, p)) if (d, p) == (depth, pc) => active |= 1 << l,
            Some((d, p)) if depth < d || (depth == d && pc > p) => {}
            _ => {
                best = Some((depth, pc));
                active = 1 << l;
            }
        }
    }
    best.map(|(_, pc)| (pc, active))
}

/// The values of a store's source operands, read before any is written (a vector store has
/// at most 8 on the stack; a longer list, never decoded today, spills to the heap).
pub(super) enum Values {
    /// Up to 8 values.
    Inline([u64; 8], usize),
    /// More.
    Heap(Vec<u64>),
}

impl Values {
    /// Reads every source of `a` through `v`.
    #[inline]
    pub(super) fn read(a: &[Src], v: impl Fn(Src) -> u64) -> Values {
        if a.len() <= 8 {
            let mut x = [0u64; 8];
            for (slot, s) in x.iter_mut().zip(a) {
                *slot = v(*s);
            }
            Values::Inline(x, a.len())
        } else {
            Values::Heap(a.iter().map(|s| v(*s)).collect())
        }
    }

    /// The values, in operand order.
    #[inline]
    pub(super) fn as_slice(&self) -> &[u64] {
        match self {
            Values::Inline(x, n) => &x[..*n],
            Values::Heap(v) => v,
        }
    }
}
