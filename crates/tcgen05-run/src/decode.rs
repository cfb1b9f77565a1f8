//! Decodes one instruction, as the core's PTX reader returns it, into its typed [`Op`]:
//! registers to slots, symbols to addresses, every qualifier to an enum. A qualifier, opcode or
//! operand form the run does not model is refused here, before execution starts.

mod atom;
mod brx;
mod bulk_copy;
mod cluster;
mod half;
mod misc;
mod warp;

use std::collections::HashMap;

use tcgen05::ptx_reader::{Instruction, Operand};

use crate::error::{invalid, unsupported, RunError};
use crate::module::Param;
use crate::op::{
    Addr, BoolOp, Cmp, Conv, FloatOp, IRnd, IntOp, IntUnaryOp, Op, OpKind, Rnd, ShflMode, Space,
    Special, Src, Ty, UCmp,
};

/// What names resolve to while a kernel is decoded.
pub(crate) struct Names<'a> {
    /// Register scopes, innermost last.
    pub scopes: &'a [HashMap<String, u32>],
    /// The kernel's parameters.
    pub params: &'a [Param],
    /// Kernel-scope shared variables.
    pub shared: &'a HashMap<String, u64>,
    /// Kernel-scope local variables.
    pub local: &'a HashMap<String, u64>,
    /// Module-scope shared variables.
    pub module_shared: &'a HashMap<String, u64>,
    /// Module-scope global variables.
    pub globals: &'a HashMap<String, u64>,
}

impl Names<'_> {
    fn register(&self, name: &str) -> Option<u32> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn symbol(&self, name: &str) -> Option<u64> {
        if let Some(p) = self.params.iter().find(|p| p.name == name) {
            return Some(u64::from(p.offset));
        }
        self.shared
            .get(name)
            .or_else(|| self.local.get(name))
            .or_else(|| self.module_shared.get(name))
            .or_else(|| self.globals.get(name))
            .copied()
    }

    /// A symbol as a source operand: a shared variable's address carries the executing CTA's
    /// rank ([`Src::Shared`]), any other symbol is its address.
    fn symbol_src(&self, name: &str) -> Option<Src> {
        let shared = !self.params.iter().any(|p| p.name == name)
            && (self.shared.contains_key(name)
                || (!self.local.contains_key(name) && self.module_shared.contains_key(name)));
        let a = self.symbol(name)?;
        Some(if shared { Src::Shared(a) } else { Src::Imm(a) })
    }
}

/// Decoding state of one instruction.
struct D<'a, 'n> {
    ins: &'a Instruction<'a>,
    line: u32,
    names: &'a Names<'n>,
}

/// What the `wgmma` decoder needs of an instruction.
pub(crate) struct View<'v> {
    /// Its line.
    pub line: u32,
    /// Its opcode.
    pub opcode: &'v str,
    /// Its text.
    pub text: &'v str,
    /// Its operands, resolved: a register vector as slots, anything else as a source.
    pub operands: Vec<Resolved>,
}

/// An operand resolved for the `wgmma` decoder.
#[derive(Clone, Debug)]
pub(crate) enum Resolved {
    /// A register vector.
    Vector(Vec<u32>),
    /// A register, immediate or special register.
    Src(Src),
    /// An address `[base+offset]`.
    Addr(Addr),
    /// Anything else.
    Other,
}

impl D<'_, '_> {
    fn wgmma_view(&self) -> Result<View<'_>, RunError> {
        let operands = self
            .ins
            .operands
            .iter()
            .map(|o| match o {
                Operand::Vector(v) if v.len() > 1 => v
                    .iter()
                    .map(|x| match x {
                        Operand::Name(n) => self.reg(n),
                        _ => Err(invalid(
                            self.line,
                            self.ins.text,
                            "vector of registers expected",
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Resolved::Vector),
                Operand::Address { .. } => self.addr_of(o).map(Resolved::Addr),
                o => Ok(self.src_of(o).map_or(Resolved::Other, Resolved::Src)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(View {
            line: self.line,
            opcode: self.ins.opcode,
            text: self.ins.text,
            operands,
        })
    }

    fn unsupported(&self, what: &str, why: &'static str) -> RunError {
        unsupported(self.line, what, why)
    }

    fn operand(&self, i: usize) -> Result<&Operand<'_>, RunError> {
        self.ins
            .operands
            .get(i)
            .ok_or_else(|| invalid(self.line, self.ins.text, "too few operands"))
    }

    fn count(&self, n: usize) -> Result<(), RunError> {
        if self.ins.operands.len() == n {
            Ok(())
        } else {
            Err(invalid(
                self.line,
                self.ins.text,
                "wrong number of operands",
            ))
        }
    }

    fn reg(&self, name: &str) -> Result<u32, RunError> {
        self.names
            .register(name)
            .ok_or_else(|| invalid(self.line, name, "register not declared (PTX ISA 5.1.1)"))
    }

    /// A destination register (a one-element vector `{%r1}` too).
    fn dst(&self, i: usize) -> Result<u32, RunError> {
        match self.operand(i)? {
            Operand::Name(n) => self.reg(n),
            Operand::Vector(v) if v.len() == 1 => match &v[0] {
                Operand::Name(n) => self.reg(n),
                _ => Err(invalid(
                    self.line,
                    self.ins.text,
                    "destination must be a register",
                )),
            },
            _ => Err(invalid(
                self.line,
                self.ins.text,
                "destination must be a register",
            )),
        }
    }

    fn src_of(&self, o: &Operand<'_>) -> Result<Src, RunError> {
        match o {
            Operand::Name(n) => {
                if let Some(r) = self.names.register(n) {
                    Ok(Src::Reg(r))
                } else if let Some(s) = Special::parse(n) {
                    Ok(Src::Special(s))
                } else if let Some(a) = self.names.symbol_src(n) {
                    Ok(a)
                } else if n.starts_with('%') {
                    Err(self.unsupported(n, "register or special register not modelled"))
                } else {
                    Err(invalid(self.line, n, "name not declared"))
                }
            }
            Operand::Imm(v) | Operand::Float(v) => Ok(Src::Imm(*v)),
            Operand::Vector(v) if v.len() == 1 => self.src_of(&v[0]),
            _ => Err(invalid(
                self.line,
                self.ins.text,
                "operand must be a register or immediate",
            )),
        }
    }

    fn src(&self, i: usize) -> Result<Src, RunError> {
        self.src_of(self.operand(i)?)
    }

    fn addr(&self, i: usize) -> Result<Addr, RunError> {
        self.addr_of(self.operand(i)?)
    }

    fn addr_of(&self, o: &Operand<'_>) -> Result<Addr, RunError> {
        match o {
            Operand::Address { base, offset } => {
                let base = match base {
                    None => Src::Imm(0),
                    Some(n) => self.src_of(&Operand::Name(n))?,
                };
                Ok(Addr {
                    base,
                    offset: *offset,
                })
            }
            _ => Err(invalid(
                self.line,
                self.ins.text,
                "operand must be an address [..]",
            )),
        }
    }
}

/// Decodes one instruction. Returns the op and, for a branch, its label (resolved by the
/// caller once the whole body is read).
pub(crate) fn decode(
    ins: &Instruction<'_>,
    line: u32,
    names: &Names<'_>,
) -> Result<(Op, Option<String>), RunError> {
    let d = D { ins, line, names };
    let guard = match ins.guard {
        Some(g) => Some((d.reg(g.predicate)?, g.negated)),
        None => None,
    };
    let q: Vec<&str> = ins.qualifiers().collect();
    let mut label = None;
    let kind = match ins.base() {
        "add" | "sub" | "mul" | "fma" | "min" | "max" | "neg" | "abs" if half::is_half(&q) => {
            half::decode(&d, &q)?
        }
        "mov" => mov(&d, &q)?,
        "add" | "sub" | "mul" | "min" | "max" | "and" | "or" | "xor" | "shl" | "shr" | "div"
        | "rem" => binary(&d, &q)?,
        "mad" => mad(&d, &q)?,
        "fma" => fma(&d, &q)?,
        "not" | "cnot" | "popc" | "clz" | "brev" | "neg" | "abs" => unary(&d, &q)?,
        "setp" => setp(&d, &q)?,
        "selp" => {
            d.count(4)?;
            let ty = one_type(&d, &q)?;
            OpKind::Selp {
                d: d.dst(0)?,
                a: d.src(1)?,
                b: d.src(2)?,
                c: d.src(3)?,
                bits: ty.bits(),
            }
        }
        "cvt" => cvt(&d, &q)?,
        "ld" | "st" => memory(&d, &q)?,
        "bra" => {
            if q.iter().any(|x| *x != "uni") {
                return Err(d.unsupported(ins.opcode, "bra qualifier not modelled"));
            }
            d.count(1)?;
            match d.operand(0)? {
                Operand::Name(n) => label = Some((*n).to_string()),
                _ => return Err(invalid(line, ins.text, "bra needs a label")),
            }
            OpKind::Bra { target: usize::MAX }
        }
        "brx" => brx::decode(&d, &q, &mut label)?,
        "ret" | "exit" => {
            if q.iter().any(|x| *x != "uni") {
                return Err(d.unsupported(ins.opcode, "qualifier not modelled"));
            }
            OpKind::Exit
        }
        "barrier" if q.first() == Some(&"cluster") => cluster::barrier(&d, &q)?,
        "bar" if q == ["warp", "sync"] => warp::bar_warp_sync(&d)?,
        "bar" | "barrier" => match crate::barrier::decode(&d.wgmma_view()?, ins.base(), &q) {
            Some(named) => named?,
            None => barrier(&d, &q)?,
        },
        "setmaxnreg" => crate::barrier::setmaxnreg(&d.wgmma_view()?, &q)?,
        "prmt" => crate::prmt::decode(&d.wgmma_view()?, &q)?,
        "shfl" => shfl(&d, &q)?,
        "bfe" => {
            only(&d, &q, &[])?;
            d.count(4)?;
            OpKind::Bfe {
                ty: one_type(&d, &q)?,
                d: d.dst(0)?,
                a: d.src(1)?,
                b: d.src(2)?,
                c: d.src(3)?,
            }
        }
        "fence" if q == ["mbarrier_init", "release", "cluster"] => {
            d.count(0)?;
            OpKind::FenceMbarrierInit
        }
        "fence" | "membar" if misc::is_ordering(&q) && !q.starts_with(&["proxy", "async"]) => {
            OpKind::Fence
        }
        "fence" | "membar" => fence(&d, &q)?,
        "nanosleep" | "prefetch" | "prefetchu" | "griddepcontrol" => misc::no_effect(&d, &q)?,
        "trap" => {
            d.count(0)?;
            OpKind::Trap
        }
        "vote" => warp::vote(&d, &q)?,
        "activemask" => warp::activemask(&d, &q)?,
        "redux" => warp::redux(&d, &q)?,
        "match" => warp::match_sync(&d, &q)?,
        "atom" | "red" => atom::atom(&d, &q)?,
        "isspacep" => misc::isspacep(&d, &q)?,
        "cvta" => cvta(&d, &q)?,
        "elect" => {
            if q != ["sync"] {
                return Err(d.unsupported(ins.opcode, "elect form not modelled"));
            }
            d.count(2)?;
            let name = |n: &str| {
                if n == "_" {
                    Ok(None)
                } else {
                    d.reg(n).map(Some)
                }
            };
            let (dst, p) = match d.operand(0)? {
                Operand::Pair(a, b) => (name(a)?, name(b)?),
                Operand::Name(a) => (name(a)?, None),
                _ => return Err(invalid(line, ins.text, "elect.sync needs d|p")),
            };
            OpKind::Elect {
                d: dst,
                p,
                mask: d.src(1)?,
            }
        }
        "mbarrier" if cluster::is_cluster_mbarrier(&q) => cluster::mbarrier_arrive(&d, &q)?,
        "mbarrier" => mbarrier(&d, &q)?,
        "cp" if bulk_copy::is_bulk(&q) => bulk_copy::bulk(&d, &q)?,
        "cp" if q.contains(&"tensor") && q.iter().any(|x| x.starts_with("cta_group::")) => {
            cluster::group_load(&d, &q)?
        }
        "cp" if q.contains(&"multicast::cluster") => cluster::multicast(&d, &q)?,
        "sqrt" | "rcp" | "rsqrt" | "ex2" | "lg2" | "sin" | "cos" | "tanh" => {
            bulk_copy::rounded_fn(&d, &q)?
        }
        "cp" if crate::cp_async::is_cp_async(&q) => crate::cp_async::decode(&d.wgmma_view()?, &q)?,
        "cp" => tma(&d, &q)?,
        "mapa" => cluster::mapa(&d, &q)?,
        "getctarank" => cluster::getctarank(&d, &q)?,
        "wgmma" => crate::wgmma::decode(d.ins, &d.wgmma_view()?)?,
        "tcgen05" => crate::tcgen05::decode(d.ins, &d.wgmma_view()?)?,
        "ldmatrix" | "stmatrix" => {
            crate::ldmatrix::decode(&d.wgmma_view()?, &q, ins.base() == "ldmatrix")?
        }
        _ => return Err(d.unsupported(ins.opcode, "instruction not modelled yet")),
    };
    Ok((Op { line, guard, kind }, label))
}

/// The one type qualifier of an instruction (the last qualifier that is a type).
fn one_type(d: &D<'_, '_>, q: &[&str]) -> Result<Ty, RunError> {
    q.iter()
        .rev()
        .find_map(|x| Ty::parse(x))
        .ok_or_else(|| invalid(d.line, d.ins.opcode, "the instruction needs a type"))
}

/// Qualifiers that are neither a type nor in `allowed` are refused by name.
fn only(d: &D<'_, '_>, q: &[&str], allowed: &[&str]) -> Result<(), RunError> {
    for x in q {
        if Ty::parse(x).is_none() && !allowed.contains(x) {
            return Err(d.unsupported(x, "qualifier not modelled for this instruction"));
        }
    }
    Ok(())
}

fn rounding(q: &[&str]) -> Rnd {
    if q.contains(&"rz") {
        Rnd::Rz
    } else if q.contains(&"rm") {
        Rnd::Rm
    } else if q.contains(&"rp") {
        Rnd::Rp
    } else {
        Rnd::Rn
    }
}

fn mov(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    only(d, q, &[])?;
    d.count(2)?;
    let ty = one_type(d, q)?;
    match (d.operand(0)?, d.operand(1)?) {
        (Operand::Vector(parts), src) if parts.len() > 1 => {
            let part_bits = ty.bits() / u32::try_from(parts.len()).unwrap_or(1);
            let parts = parts
                .iter()
                .map(|p| match p {
                    Operand::Name("_") => Ok(None),
                    Operand::Name(n) => d.reg(n).map(Some),
                    _ => Err(invalid(
                        d.line,
                        d.ins.text,
                        "vector element must be a register",
                    )),
                })
                .collect::<Result<_, _>>()?;
            Ok(OpKind::Unpack {
                parts,
                a: d.src_of(src)?,
                part_bits,
            })
        }
        (_, Operand::Vector(parts)) if parts.len() > 1 => {
            let part_bits = ty.bits() / u32::try_from(parts.len()).unwrap_or(1);
            let parts = parts
                .iter()
                .map(|p| d.src_of(p))
                .collect::<Result<_, _>>()?;
            Ok(OpKind::Pack {
                d: d.dst(0)?,
                parts,
                part_bits,
            })
        }
        _ => Ok(OpKind::Mov {
            d: d.dst(0)?,
            a: d.src(1)?,
            bits: ty.bits(),
        }),
    }
}

fn binary(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    if d.ins.operands.len() == 4 && matches!(d.ins.base(), "min" | "max") {
        if !matches!(q, ["f32"] | ["ftz", "f32"]) {
            return Err(d.unsupported(d.ins.opcode, "three-input min/max form not modelled"));
        }
        return Ok(OpKind::MinMax3 {
            max: d.ins.base() == "max",
            ftz: q.contains(&"ftz"),
            d: d.dst(0)?,
            a: d.src(1)?,
            b: d.src(2)?,
            c: d.src(3)?,
        });
    }
    d.count(3)?;
    if q.last() == Some(&"f32x2") {
        return f32x2(d, q);
    }
    let ty = one_type(d, q)?;
    let base = d.ins.base();
    if base == "div" && matches!(q, ["full", "f32"] | ["full", "ftz", "f32"]) {
        return Ok(OpKind::Approx(crate::approx::ApproxFn {
            div: true,
            ftz: q.contains(&"ftz"),
            d: d.dst(0)?,
            a: d.src(1)?,
            b: d.src(2)?,
        }));
    }
    if ty.float() {
        if !matches!(ty, Ty::F32 | Ty::F64) {
            return Err(d.unsupported(d.ins.opcode, "f16/bf16 arithmetic is not modelled yet"));
        }
        only(d, q, &["rn", "rz", "rm", "rp", "ftz", "sat"])?;
        let op = match base {
            "add" => FloatOp::Add,
            "sub" => FloatOp::Sub,
            "mul" => FloatOp::Mul,
            "min" => FloatOp::Min,
            "max" => FloatOp::Max,
            "div" if q.iter().any(|x| matches!(*x, "rn" | "rz" | "rm" | "rp")) => FloatOp::Div,
            "div" => {
                return Err(d.unsupported(d.ins.opcode, "div.approx/div.full are not modelled"))
            }
            _ => return Err(d.unsupported(d.ins.opcode, "not a floating-point operation")),
        };
        return Ok(OpKind::Float {
            op,
            ty,
            rnd: rounding(q),
            ftz: q.contains(&"ftz"),
            sat: q.contains(&"sat"),
            d: d.dst(0)?,
            a: d.src(1)?,
            b: d.src(2)?,
        });
    }
    only(d, q, &["lo", "hi", "wide"])?;
    let op = match (base, q.first().copied()) {
        ("add", _) => IntOp::Add,
        ("sub", _) => IntOp::Sub,
        ("mul", Some("lo")) => IntOp::MulLo,
        ("mul", Some("hi")) => IntOp::MulHi,
        ("mul", Some("wide")) => IntOp::MulWide,
        ("min", _) => IntOp::Min,
        ("max", _) => IntOp::Max,
        ("and", _) => IntOp::And,
        ("or", _) => IntOp::Or,
        ("xor", _) => IntOp::Xor,
        ("shl", _) => IntOp::Shl,
        ("shr", _) => IntOp::Shr,
        ("div", _) => IntOp::Div,
        ("rem", _) => IntOp::Rem,
        _ => return Err(d.unsupported(d.ins.opcode, "integer form not modelled")),
    };
    Ok(OpKind::Int {
        op,
        ty,
        d: d.dst(0)?,
        a: d.src(1)?,
        b: d.src(2)?,
    })
}

fn mad(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(4)?;
    let ty = one_type(d, q)?;
    if ty.float() {
        return fma(d, q);
    }
    only(d, q, &["lo", "hi", "wide"])?;
    let op = match q.first().copied() {
        Some("lo") => IntOp::MulLo,
        Some("hi") => IntOp::MulHi,
        Some("wide") => IntOp::MulWide,
        _ => return Err(d.unsupported(d.ins.opcode, "mad needs .lo, .hi or .wide")),
    };
    Ok(OpKind::Mad {
        op,
        ty,
        d: d.dst(0)?,
        a: d.src(1)?,
        b: d.src(2)?,
        c: d.src(3)?,
    })
}

fn fma(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(4)?;
    only(d, q, &["rn", "rz", "rm", "rp", "ftz", "sat"])?;
    let ty = one_type(d, q)?;
    if !matches!(ty, Ty::F32 | Ty::F64) {
        return Err(d.unsupported(d.ins.opcode, "f16/bf16 fma is not modelled yet"));
    }
    Ok(OpKind::Fma {
        ty,
        rnd: rounding(q),
        ftz: q.contains(&"ftz"),
        sat: q.contains(&"sat"),
        d: d.dst(0)?,
        a: d.src(1)?,
        b: d.src(2)?,
        c: d.src(3)?,
    })
}

fn unary(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(2)?;
    let ty = one_type(d, q)?;
    let base = d.ins.base();
    if ty.float() {
        only(d, q, &["ftz"])?;
        if !matches!(base, "neg" | "abs") || !matches!(ty, Ty::F32 | Ty::F64) {
            return Err(d.unsupported(d.ins.opcode, "floating-point form not modelled"));
        }
        return Ok(OpKind::FloatSign {
            abs: base == "abs",
            ty,
            ftz: q.contains(&"ftz"),
            d: d.dst(0)?,
            a: d.src(1)?,
        });
    }
    only(d, q, &[])?;
    let op = match base {
        "not" => IntUnaryOp::Not,
        "cnot" => IntUnaryOp::Cnot,
        "popc" => IntUnaryOp::Popc,
        "clz" => IntUnaryOp::Clz,
        "brev" => IntUnaryOp::Brev,
        "neg" => IntUnaryOp::Neg,
        _ => IntUnaryOp::Abs,
    };
    Ok(OpKind::IntUnary {
        op,
        ty,
        d: d.dst(0)?,
        a: d.src(1)?,
    })
}

fn comparison(c: &str) -> Option<Cmp> {
    Some(match c {
        "eq" => Cmp::Eq,
        "ne" => Cmp::Ne,
        "lt" => Cmp::Lt,
        "le" => Cmp::Le,
        "gt" => Cmp::Gt,
        "ge" => Cmp::Ge,
        "lo" => Cmp::Lo,
        "ls" => Cmp::Ls,
        "hi" => Cmp::Hi,
        "hs" => Cmp::Hs,
        "equ" => Cmp::Unordered(UCmp::Eq),
        "neu" => Cmp::Unordered(UCmp::Ne),
        "ltu" => Cmp::Unordered(UCmp::Lt),
        "leu" => Cmp::Unordered(UCmp::Le),
        "gtu" => Cmp::Unordered(UCmp::Gt),
        "geu" => Cmp::Unordered(UCmp::Ge),
        "num" => Cmp::Num,
        "nan" => Cmp::Nan,
        _ => return None,
    })
}

fn setp(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let ty = one_type(d, q)?;
    let mut cmp = None;
    let mut combine_op = None;
    for x in q {
        if let Some(c) = comparison(x).filter(|_| cmp.is_none()) {
            cmp = Some(c);
        } else if let Some(b) = match *x {
            "and" => Some(BoolOp::And),
            "or" => Some(BoolOp::Or),
            "xor" => Some(BoolOp::Xor),
            _ => None,
        } {
            combine_op = Some(b);
        } else if *x != "ftz" && Ty::parse(x).is_none() {
            return Err(d.unsupported(x, "setp qualifier not modelled"));
        }
    }
    let cmp = cmp.ok_or_else(|| invalid(d.line, d.ins.opcode, "setp needs a comparison"))?;
    if q.iter().any(|x| matches!(*x, "f16x2" | "bf16x2")) {
        return Err(d.unsupported(
            d.ins.opcode,
            "packed f16x2/bf16x2 comparison is not modelled yet",
        ));
    }
    let (p, qd) = match d.operand(0)? {
        Operand::Pair(a, b) => (d.reg(a)?, Some(d.reg(b)?)),
        _ => (d.dst(0)?, None),
    };
    let combine = match combine_op {
        Some(op) => {
            d.count(4)?;
            let (src, neg) = match d.operand(3)? {
                Operand::Not(n) => (Src::Reg(d.reg(n)?), true),
                o => (d.src_of(o)?, false),
            };
            Some((op, src, neg))
        }
        None => {
            d.count(3)?;
            None
        }
    };
    Ok(OpKind::Setp {
        cmp,
        ty,
        ftz: q.contains(&"ftz"),
        p,
        q: qd,
        a: d.src(1)?,
        b: d.src(2)?,
        combine,
    })
}

fn cvt(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let mut rnd = None;
    let mut irnd = None;
    let (mut ftz, mut sat, mut relu, mut satfinite) = (false, false, false, false);
    let mut types: Vec<&str> = Vec::new();
    for x in q {
        match *x {
            "rn" | "rz" | "rm" | "rp" => rnd = Some(rounding(&[x])),
            "rni" => irnd = Some(IRnd::Rni),
            "rzi" => irnd = Some(IRnd::Rzi),
            "rmi" => irnd = Some(IRnd::Rmi),
            "rpi" => irnd = Some(IRnd::Rpi),
            "ftz" => ftz = true,
            "sat" => sat = true,
            "relu" => relu = true,
            "satfinite" => satfinite = true,
            t => types.push(t),
        }
    }
    let [to, from] = types[..] else {
        return Err(invalid(
            d.line,
            d.ins.opcode,
            "cvt needs a destination and a source type",
        ));
    };
    let packed = |e4m3: Option<bool>, bf16: Option<bool>| -> Result<OpKind, RunError> {
        d.count(3)?;
        if from != "f32" {
            return Err(d.unsupported(
                d.ins.opcode,
                "packed conversion from this type not modelled",
            ));
        }
        let conv = match (e4m3, bf16) {
            (Some(e4m3), _) => {
                if rnd != Some(Rnd::Rn) || !satfinite {
                    return Err(d.unsupported(d.ins.opcode, "f8x2 conversions need .rn.satfinite"));
                }
                Conv::F32ToF8x2 { e4m3, relu }
            }
            (None, Some(bf16)) => Conv::F32ToF16x2 {
                bf16,
                rnd: rnd.ok_or_else(|| invalid(d.line, d.ins.opcode, "needs a rounding"))?,
                relu,
                satfinite,
            },
            _ => unreachable_conv(d)?,
        };
        Ok(OpKind::Cvt {
            conv,
            d: d.dst(0)?,
            a: d.src(1)?,
            b: Some(d.src(2)?),
        })
    };
    match to {
        "e4m3x2" => return packed(Some(true), None),
        "e5m2x2" => return packed(Some(false), None),
        "bf16x2" => return packed(None, Some(true)),
        "f16x2" => return packed(None, Some(false)),
        _ => {}
    }
    d.count(2)?;
    let bad = || d.unsupported(d.ins.opcode, "conversion not modelled");
    let to = Ty::parse(to).ok_or_else(bad)?;
    let from = Ty::parse(from).ok_or_else(bad)?;
    let conv = match (to.float(), from.float()) {
        (false, false) => Conv::IntInt { to, from, sat },
        (true, true) => Conv::FloatFloat {
            to,
            from,
            rnd: rnd.unwrap_or(Rnd::Rn),
            ftz,
            sat,
            relu,
            satfinite,
        },
        (false, true) => Conv::FloatInt {
            to,
            from,
            rnd: irnd.ok_or_else(|| invalid(d.line, d.ins.opcode, "needs .rni/.rzi/.rmi/.rpi"))?,
            ftz,
        },
        (true, false) => Conv::IntFloat {
            to,
            from,
            rnd: rnd.ok_or_else(|| invalid(d.line, d.ins.opcode, "needs .rn/.rz/.rm/.rp"))?,
        },
    };
    Ok(OpKind::Cvt {
        conv,
        d: d.dst(0)?,
        a: d.src(1)?,
        b: None,
    })
}

fn unreachable_conv(d: &D<'_, '_>) -> Result<Conv, RunError> {
    Err(d.unsupported(d.ins.opcode, "conversion not modelled"))
}

/// Cache and eviction qualifiers of `ld`/`st` that change no value a single run observes
/// (PTX ISA 9.7.9.8-9).
const CACHE_HINTS: [&str; 12] = [
    "ca",
    "cg",
    "cs",
    "lu",
    "cv",
    "wb",
    "wt",
    "nc",
    "L1::evict_normal",
    "L1::evict_last",
    "L1::evict_first",
    "L1::no_allocate",
];

fn memory(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let mut space = None;
    let mut width = 1usize;
    for x in q {
        match *x {
            "global" => space = Some(Space::Global),
            "shared" | "shared::cta" => space = Some(Space::Shared),
            "shared::cluster" => space = Some(Space::SharedCluster),
            "local" => space = Some(Space::Local),
            "relaxed" | "acquire" | "release" | "weak" | "volatile" | "cta" | "cluster" | "gpu"
            | "sys" => {}
            "param" => space = Some(Space::Param),
            "v2" => width = 2,
            "v4" => width = 4,
            x if CACHE_HINTS.contains(&x) || Ty::parse(x).is_some() => {}
            x => return Err(d.unsupported(x, "ld/st qualifier or state space not modelled")),
        }
    }
    let space = space.unwrap_or(Space::Generic);
    let ty = one_type(d, q)?;
    d.count(2)?;
    let (addr_at, val_at) = if d.ins.base() == "ld" { (1, 0) } else { (0, 1) };
    let addr = d.addr(addr_at)?;
    let vals: Vec<&Operand<'_>> = match d.operand(val_at)? {
        Operand::Vector(v) => v.iter().collect(),
        o => vec![o],
    };
    if vals.len() != width {
        return Err(invalid(
            d.line,
            d.ins.text,
            "vector width and operand count differ",
        ));
    }
    if d.ins.base() == "ld" {
        let dsts = vals
            .iter()
            .map(|o| match o {
                Operand::Name("_") => Ok(None),
                Operand::Name(n) => d.reg(n).map(Some),
                _ => Err(invalid(
                    d.line,
                    d.ins.text,
                    "ld destination must be a register",
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(OpKind::Ld {
            space,
            ty,
            d: dsts,
            addr,
        })
    } else {
        let srcs = vals.iter().map(|o| d.src_of(o)).collect::<Result<_, _>>()?;
        Ok(OpKind::St {
            space,
            ty,
            a: srcs,
            addr,
        })
    }
}

fn cvta(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(2)?;
    let (to_generic, rest) = match q {
        ["to", rest @ ..] => (false, rest),
        rest => (true, rest),
    };
    let window = match rest {
        ["param", "u64"] => crate::op::PARAM_WINDOW,
        ["global", "u64"] => 0,
        ["shared" | "shared::cta" | "shared::cluster", "u64"] => crate::cluster::SHARED_WINDOW,
        ["local", "u64"] => crate::op::LOCAL_WINDOW,
        _ => {
            return Err(d.unsupported(
                d.ins.opcode,
                "cvta form not modelled (param and global only)",
            ))
        }
    };
    Ok(OpKind::Cvta {
        d: d.dst(0)?,
        a: d.src(1)?,
        window,
        to_generic,
    })
}

fn mbarrier(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    // Ordering and scope qualifiers change nothing in a sequentially consistent run; the hazard
    // checker reads `.relaxed` (rules.md I9).
    let relaxed = q.contains(&"relaxed");
    let q: Vec<&str> = cluster::without_ordering(q);
    let q = q.as_slice();
    let shared = |s: &str| s == "shared::cta" || s == "shared";
    let state = |i: usize| -> Result<Option<u32>, RunError> {
        match d.operand(i)? {
            Operand::Name("_") => Ok(None),
            _ => d.dst(i).map(Some),
        }
    };
    match q {
        ["init", s, "b64"] if shared(s) => {
            d.count(2)?;
            Ok(OpKind::MbarInit {
                addr: d.addr(0)?,
                count: d.src(1)?,
            })
        }
        ["arrive", "expect_tx", s, "b64"] if shared(s) => {
            d.count(3)?;
            Ok(OpKind::MbarArrive {
                state: state(0)?,
                addr: d.addr(1)?,
                tx: Some(d.src(2)?),
                relaxed,
            })
        }
        ["arrive", s, "b64"] if shared(s) && d.ins.operands.len() == 3 => {
            Ok(OpKind::MbarArriveCount {
                state: state(0)?,
                addr: d.addr(1)?,
                count: d.src(2)?,
            })
        }
        ["arrive", s, "b64"] if shared(s) => {
            d.count(2)?;
            Ok(OpKind::MbarArrive {
                state: state(0)?,
                addr: d.addr(1)?,
                tx: None,
                relaxed,
            })
        }
        ["try_wait" | "test_wait", "parity", s, "b64"] if shared(s) => {
            // try_wait's optional suspendTimeHint (PTX ISA 9.7.13.15.16) bounds how long the
            // thread may wait inside the instruction; the result is the same: read, not kept.
            if q[0] == "try_wait" && d.ins.operands.len() == 4 {
                d.src(3)?;
            } else {
                d.count(3)?;
            }
            Ok(OpKind::MbarTryWait {
                p: d.dst(0)?,
                addr: d.addr(1)?,
                parity: d.src(2)?,
                relaxed,
            })
        }
        ["inval", s, "b64"] if shared(s) => {
            d.count(1)?;
            Ok(OpKind::MbarInval { addr: d.addr(0)? })
        }
        _ => Err(d.unsupported(d.ins.opcode, "mbarrier form not modelled")),
    }
}

/// `cp.async.bulk.tensor.{1d,2d}.shared::cta.global[.tile].mbarrier::complete_tx::bytes` (the
/// tensor operand `[map, {c0, c1}]` is read as two operands, `[map]` and `{c0, c1}`).
fn tma(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    // `.L2::cache_hint` adds a 64-bit cache-policy operand, a performance hint only (PTX ISA
    // 9.7.9.25.5.1): read, not kept.
    let hint = q.last() == Some(&"L2::cache_hint");
    let q = if hint { &q[..q.len() - 1] } else { q };
    let dims = match q {
        ["async", "bulk", "tensor", dim, dst, "global", rest @ ..]
            if matches!(*dst, "shared::cta" | "shared::cluster")
                && (rest == ["mbarrier::complete_tx::bytes"]
                    || rest == ["tile", "mbarrier::complete_tx::bytes"]) =>
        {
            cluster::tensor_rank(d, dim)?
        }
        _ => return Err(d.unsupported(d.ins.opcode, "cp.async form not modelled yet")),
    };
    if hint {
        d.count(5)?;
        d.src(4)?;
    } else {
        d.count(4)?;
    }
    let coords = match d.operand(2)? {
        Operand::Vector(v) => v
            .iter()
            .map(|o| d.src_of(o))
            .collect::<Result<Vec<_>, _>>()?,
        o => vec![d.src_of(o)?],
    };
    if coords.len() != dims {
        return Err(invalid(d.line, d.ins.text, "one coordinate per dimension"));
    }
    Ok(OpKind::TmaLoad {
        dst: d.addr(0)?,
        map: d.addr(1)?,
        coords,
        mbar: d.addr(3)?,
    })
}

/// Fences whose ordering a sequentially consistent run already gives.
fn fence(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let known: &[&[&str]] = &[
        &["proxy", "async"],
        &["proxy", "async", "shared::cta"],
        &["proxy", "async", "shared::cluster"],
        &["proxy", "async", "global"],
        &["mbarrier_init", "release", "cluster"],
        &["sc", "cta"],
        &["acq_rel", "cta"],
        &["sc", "gpu"],
        &["acq_rel", "gpu"],
        &["cta"],
        &["gl"],
    ];
    if q.first() == Some(&"proxy") && known.contains(&q) {
        Ok(OpKind::FenceProxyAsync)
    } else if known.contains(&q) {
        Ok(OpKind::Fence)
    } else {
        Err(d.unsupported(d.ins.opcode, "fence form not modelled"))
    }
}

fn barrier(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    let ok = match d.ins.base() {
        "bar" => q == ["sync"] || q == ["cta", "sync"] || q == ["sync", "aligned"],
        _ => q == ["sync"] || q == ["sync", "aligned"] || q == ["cta", "sync", "aligned"],
    };
    if !ok {
        return Err(d.unsupported(d.ins.opcode, "barrier form not modelled"));
    }
    let id = d.src(0)?;
    let count = if d.ins.operands.len() > 1 {
        Some(d.src(1)?)
    } else {
        None
    };
    Ok(OpKind::BarSync { id, count })
}

fn shfl(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    d.count(5)?;
    let mut mode = None;
    for x in q {
        match *x {
            "sync" | "b32" => {}
            "up" => mode = Some(ShflMode::Up),
            "down" => mode = Some(ShflMode::Down),
            "bfly" => mode = Some(ShflMode::Bfly),
            "idx" => mode = Some(ShflMode::Idx),
            x => return Err(d.unsupported(x, "shfl qualifier not modelled")),
        }
    }
    let mode = mode.ok_or_else(|| invalid(d.line, d.ins.opcode, "shfl needs a mode"))?;
    let (dst, p) = match d.operand(0)? {
        Operand::Pair(a, b) => (d.reg(a)?, Some(d.reg(b)?)),
        _ => (d.dst(0)?, None),
    };
    Ok(OpKind::Shfl {
        mode,
        d: dst,
        p,
        a: d.src(1)?,
        b: d.src(2)?,
        c: d.src(3)?,
        mask: d.src(4)?,
    })
}

/// `add`/`sub`/`mul` `{.rn}{.ftz}.f32x2` ([`crate::f32x2`]).
fn f32x2(d: &D<'_, '_>, q: &[&str]) -> Result<OpKind, RunError> {
    use crate::f32x2::{F32x2, PairOp};
    for x in &q[..q.len() - 1] {
        if !matches!(*x, "rn" | "ftz") {
            return Err(d.unsupported(x, "f32x2: only .rn and .ftz are modelled"));
        }
    }
    let op = match d.ins.base() {
        "add" => PairOp::Add,
        "sub" => PairOp::Sub,
        "mul" => PairOp::Mul,
        _ => return Err(d.unsupported(d.ins.opcode, "f32x2 form not modelled")),
    };
    Ok(OpKind::F32x2(F32x2 {
        op,
        ftz: q.contains(&"ftz"),
        d: d.dst(0)?,
        a: d.src(1)?,
        b: d.src(2)?,
    }))
}
