//! `ldmatrix` and `stmatrix` (PTX ISA 9.7.14.5.15, 9.7.14.5.16): a warp loads or stores up to
//! four 8 x 8 matrices of 16-bit elements in shared memory, each row at an address that one
//! thread supplies (threads 8i..8i+7 give the rows of matrix i), each thread holding two
//! adjacent elements of each matrix in one 32-bit register.

use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::memory::{read_window, write_window};
use crate::op::{Addr, OpKind, Src};

/// One `ldmatrix` / `stmatrix`.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// `ldmatrix` (true) or `stmatrix`.
    pub load: bool,
    /// `.trans`: each register holds two elements of a column.
    pub trans: bool,
    /// The registers, one per matrix (`.x1`, `.x2`, `.x4`): destination or source slots.
    pub regs: Vec<u32>,
    /// The shared-memory row address of each thread.
    pub addr: Addr,
}

/// Decodes `ldmatrix.sync.aligned.m8n8.xN[.trans].shared[::cta].b16` and the same
/// `stmatrix`; other shapes and types are refused by name.
pub(crate) fn decode(v: &View<'_>, q: &[&str], load: bool) -> Result<OpKind, RunError> {
    let mut num = None;
    let mut trans = false;
    for &x in q {
        match x {
            "sync" | "aligned" | "m8n8" | "shared" | "shared::cta" | "b16" => {}
            "x1" => num = Some(1),
            "x2" => num = Some(2),
            "x4" => num = Some(4),
            "trans" => trans = true,
            _ => {
                return Err(unsupported(
                    v.line,
                    x,
                    "ldmatrix/stmatrix form not modelled (m8n8 .b16 only)",
                ))
            }
        }
    }
    let num = num.ok_or_else(|| invalid(v.line, v.text, "needs .x1, .x2 or .x4"))?;
    for needed in ["m8n8", "b16"] {
        if !q.contains(&needed) {
            return Err(invalid(v.line, v.text, "needs .m8n8 and .b16"));
        }
    }
    let (regs, addr) = match (load, v.operands.as_slice()) {
        (true, [r, Resolved::Addr(a)]) | (false, [Resolved::Addr(a), r]) => (r, *a),
        _ => return Err(invalid(v.line, v.text, "operands must be {regs}, [addr]")),
    };
    let regs = match regs {
        Resolved::Vector(x) => x.clone(),
        Resolved::Src(Src::Reg(x)) => vec![*x],
        _ => return Err(invalid(v.line, v.text, "a vector of registers expected")),
    };
    if regs.len() != num {
        return Err(invalid(v.line, v.text, "one register per matrix"));
    }
    if matches!(addr.base, Src::Special(_)) {
        return Err(invalid(v.line, v.text, "the address must be a register"));
    }
    Ok(OpKind::Matrix(Matrix {
        load,
        trans,
        regs,
        addr,
    }))
}

/// Executes one `ldmatrix` / `stmatrix` for the whole warp (`.sync.aligned`).
/// `rank` is the CTA's rank in its cluster (the rank bits of its shared addresses,
/// [`crate::cluster`]).
pub(crate) fn step(
    shared: &mut [u8],
    regs: &mut [u64],
    (n, rank): (usize, u32),
    line: u32,
    m: &Matrix,
) -> Result<(), RunError> {
    let val = |regs: &[u64], lane: usize, s: Src| match s {
        Src::Reg(r) => regs[lane * n + r as usize],
        Src::Imm(x) => x,
        // Refused when decoded.
        Src::Special(_) => 0,
        Src::Shared(a) => u64::from(rank) << crate::cluster::RANK_SHIFT | a,
    };
    // The shared address of element (row, column) of matrix i.
    let at = |regs: &[u64], i: usize, row: usize, col: usize| -> u64 {
        let base = val(regs, 8 * i + row, m.addr.base).wrapping_add(m.addr.offset as u64);
        crate::cluster::own_offset(rank, base) + 2 * col as u64
    };
    // Thread t's register for matrix i holds elements (row, col) and (row, col + 1) of the
    // matrix, or with .trans (row, col) and (row + 1, col) of the stored matrix.
    let place = |t: usize, j: usize| -> (usize, usize) {
        if m.trans {
            (2 * (t % 4) + j, t / 4)
        } else {
            (t / 4, 2 * (t % 4) + j)
        }
    };
    for i in 0..m.regs.len() {
        for row in 0..8 {
            let a = at(regs, i, row, 0);
            if a % 16 != 0 {
                return Err(RunError::Memory {
                    line,
                    space: "shared",
                    address: a,
                    size: 16,
                    why: "an ldmatrix/stmatrix row must be 16-byte aligned",
                });
            }
        }
    }
    if m.load {
        let mut out = vec![0u64; 32 * m.regs.len()];
        for t in 0..32 {
            for i in 0..m.regs.len() {
                let mut v = 0u64;
                for j in 0..2 {
                    let (r, c) = place(t, j);
                    let x = read_window(shared, line, "shared", at(regs, i, r, c), 2)?;
                    v |= x << (16 * j);
                }
                out[t * m.regs.len() + i] = v;
            }
        }
        for t in 0..32 {
            for (i, slot) in m.regs.iter().enumerate() {
                regs[t * n + *slot as usize] = out[t * m.regs.len() + i];
            }
        }
    } else {
        for t in 0..32 {
            for (i, slot) in m.regs.iter().enumerate() {
                let v = regs[t * n + *slot as usize];
                for j in 0..2 {
                    let (r, c) = place(t, j);
                    let a = at(regs, i, r, c);
                    write_window(shared, line, "shared", a, 2, (v >> (16 * j)) & 0xFFFF)?;
                }
            }
        }
    }
    Ok(())
}
