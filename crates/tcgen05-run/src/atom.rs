//! Atomic operations on memory (PTX ISA 9.7.13.7 `atom`, 9.7.13.8 `red`): their decoded form
//! and the new value each operation stores. Every thread's read-modify-write is indivisible; the
//! run performs the threads of a warp in lane order, one of the orders the GPU may choose.

use tcgen05::numerics::{Exact, Format, Rounding};

use crate::int::{mask, sext};
use crate::op::{Addr, Space, Src, Ty};

/// The operation of `atom` / `red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    /// `.add` (integer wrapping; float rounded to nearest even).
    Add,
    /// `.min`.
    Min,
    /// `.max`.
    Max,
    /// `.inc`: `old >= b ? 0 : old + 1` (unsigned 32-bit).
    Inc,
    /// `.dec`: `old == 0 || old > b ? b : old - 1`.
    Dec,
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
    /// `.exch`: store `b`.
    Exch,
    /// `.cas`: store `c` when `old == b`.
    Cas,
}

/// One `atom` or `red` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The operation.
    pub op: AtomOp,
    /// The element type (`F16`/`Bf16` with `pairs` for `.f16x2`/`.bf16x2`).
    pub ty: Ty,
    /// A packed pair of 16-bit floats.
    pub pairs: bool,
    /// The state space (global, shared, shared::cluster, or generic).
    pub space: Space,
    /// The destination of `atom` (the old value); `None` for `red` or `_`.
    pub d: Option<u32>,
    /// The address.
    pub addr: Addr,
    /// The operand.
    pub b: Src,
    /// The swap value of `.cas`.
    pub c: Option<Src>,
    /// The memory ordering semantics (`.relaxed` when not written, PTX ISA 9.7.13.7).
    pub sem: AtomSem,
    /// The scope (`.gpu` when not written, PTX ISA 9.7.13.7).
    pub scope: AtomScope,
}

/// The memory ordering semantics of `atom`/`red` (PTX ISA 9.7.13.7, 8.4 "Operation types"):
/// what the hazard checker orders through them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AtomSem {
    /// `.relaxed` (the default): atomic, no ordering of other accesses.
    #[default]
    Relaxed,
    /// `.acquire`: later accesses of the thread are ordered after the releases it reads from.
    Acquire,
    /// `.release`: earlier accesses of the thread are released with the value it writes.
    Release,
    /// `.acq_rel`: both.
    AcqRel,
}

impl AtomSem {
    /// Whether it acquires.
    #[must_use]
    pub fn acquires(self) -> bool {
        matches!(self, AtomSem::Acquire | AtomSem::AcqRel)
    }
    /// Whether it releases.
    #[must_use]
    pub fn releases(self) -> bool {
        matches!(self, AtomSem::Release | AtomSem::AcqRel)
    }
}

/// The scope of `atom`/`red` (PTX ISA 8.5 "Scope"): the threads with which it is morally
/// strong and synchronises. `.sys` covers the one GPU of a run as `.gpu` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum AtomScope {
    /// `.cta`: the threads of the CTA.
    Cta,
    /// `.cluster`: the threads of the cluster.
    Cluster,
    /// `.gpu` (the default).
    #[default]
    Gpu,
    /// `.sys`.
    Sys,
}

impl Atom {
    /// Bytes the operation reads and writes.
    #[must_use]
    pub fn size(&self) -> u32 {
        self.ty.bytes() * if self.pairs { 2 } else { 1 }
    }
}

/// The value an atomic operation stores, given the old value and its operands (all as the
/// low bits of `u64`s).
#[must_use]
pub fn apply(a: &Atom, old: u64, b: u64, c: u64) -> u64 {
    let bits = a.ty.bits() * if a.pairs { 2 } else { 1 };
    let m = mask(bits);
    let (old, b, c) = (old & m, b & m, c & m);
    let signed = a.ty.signed();
    match a.op {
        AtomOp::Add => match a.ty {
            Ty::F32 => u64::from(add_f32(old as u32, b as u32)),
            Ty::F64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
            Ty::F16 | Ty::Bf16 => {
                let f = if a.ty == Ty::F16 {
                    Format::F16
                } else {
                    Format::Bf16
                };
                let lo = add_16(f, old as u16, b as u16);
                if a.pairs {
                    let hi = add_16(f, (old >> 16) as u16, (b >> 16) as u16);
                    u64::from(hi) << 16 | u64::from(lo)
                } else {
                    u64::from(lo)
                }
            }
            _ => old.wrapping_add(b) & m,
        },
        AtomOp::Min | AtomOp::Max => {
            let less = if signed {
                sext(old, bits) < sext(b, bits)
            } else {
                old < b
            };
            if less == (a.op == AtomOp::Min) {
                old
            } else {
                b
            }
        }
        AtomOp::Inc => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if old == b {
                c
            } else {
                old
            }
        }
    }
}

/// `atom.add.f32`: the f32 sum rounded to nearest even, NaN canonical.
fn add_f32(a: u32, b: u32) -> u32 {
    let r = f32::from_bits(a) + f32::from_bits(b);
    if r.is_nan() {
        0x7FFF_FFFF
    } else {
        r.to_bits()
    }
}

/// `atom.add.noftz.{f16,bf16}` of one element: the exact sum (exact in f64: both operands have
/// at most 11 significant bits and exponents within 2^-133..2^127) rounded to nearest even once.
fn add_16(f: Format, a: u16, b: u16) -> u16 {
    let x = decode_16(f, a) + decode_16(f, b);
    if x.is_nan() {
        return 0x7FFF;
    }
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let inf = if f == Format::F16 { 0x7C00 } else { 0x7F80 };
    if x.is_infinite() {
        return sign | inf;
    }
    match Exact::from_f64(x).and_then(|e| f.encode(e, Rounding::NearestEven).ok()) {
        Some(code) => code as u16,
        None => sign | inf,
    }
}

/// The exact value of a 16-bit float code.
pub(crate) fn decode_16(f: Format, h: u16) -> f64 {
    if f == Format::Bf16 {
        return f64::from(f32::from_bits(u32::from(h) << 16));
    }
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1F);
    let m = f64::from(h & 0x3FF);
    match e {
        0 => sign * m * 2f64.powi(-24),
        31 if m == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1024.0 + m) * 2f64.powi(e - 25),
    }
}
