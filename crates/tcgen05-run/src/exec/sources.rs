//! The register slots an instruction reads, from its decoded operands: its guard predicate,
//! every register source operand and every register an address is based on. The hazard
//! checker asks for them while a warp has a `tcgen05.ld` not yet waited (PTX ISA 9.7.16.8.3:
//! the destination registers are undefined until `tcgen05.wait::ld`). Each match lists every
//! form, so that a new instruction form must say what it reads.

use crate::bulk_copy::Bulk;
use crate::cluster::ClusterOp;
use crate::op::{Addr, Op, OpKind, Src};
use crate::tcgen05::op::{MmaA, Tcgen05};
use crate::warp::WarpOp;

/// Collects register slots.
struct Reads(Vec<u32>);

impl Reads {
    fn src(&mut self, s: Src) {
        if let Src::Reg(r) = s {
            self.0.push(r);
        }
    }

    fn opt(&mut self, s: Option<Src>) {
        if let Some(s) = s {
            self.src(s);
        }
    }

    fn all(&mut self, s: &[Src]) {
        for &x in s {
            self.src(x);
        }
    }

    fn addr(&mut self, a: Addr) {
        self.src(a.base);
    }
}

/// The register slots `op` reads (its guard first).
pub(super) fn sources(op: &Op) -> Vec<u32> {
    let mut r = Reads(op.guard.map(|(p, _)| p).into_iter().collect());
    match &op.kind {
        OpKind::Mov { a, .. }
        | OpKind::Unpack { a, .. }
        | OpKind::IntUnary { a, .. }
        | OpKind::FloatSign { a, .. }
        | OpKind::Cvta { a, .. }
        | OpKind::Isspacep { a, .. } => r.src(*a),
        OpKind::Pack { parts, .. } => r.all(parts),
        OpKind::Int { a, b, .. } | OpKind::Float { a, b, .. } => r.all(&[*a, *b]),
        OpKind::Mad { a, b, c, .. }
        | OpKind::Fma { a, b, c, .. }
        | OpKind::Selp { a, b, c, .. }
        | OpKind::Bfe { a, b, c, .. }
        | OpKind::Prmt { a, b, c, .. }
        | OpKind::MinMax3 { a, b, c, .. } => r.all(&[*a, *b, *c]),
        OpKind::BrxIdx { index, .. } => r.src(*index),
        OpKind::Setp { a, b, combine, .. } => {
            r.all(&[*a, *b]);
            r.opt(combine.map(|c| c.1));
        }
        OpKind::Cvt { a, b, .. } => {
            r.src(*a);
            r.opt(*b);
        }
        OpKind::Ld { addr, .. } | OpKind::MbarInval { addr } => r.addr(*addr),
        OpKind::St { a, addr, .. } => {
            r.all(a);
            r.addr(*addr);
        }
        OpKind::BarSync { id, count } | OpKind::NamedBarrier { id, count, .. } => {
            r.src(*id);
            r.opt(*count);
        }
        OpKind::Shfl { a, b, c, mask, .. } => r.all(&[*a, *b, *c, *mask]),
        OpKind::Wgmma {
            d,
            a_desc,
            b_desc,
            scale_d,
            ..
        } => {
            r.0.extend(d);
            r.all(&[*a_desc, *b_desc, *scale_d]);
        }
        OpKind::Elect { mask, .. } => r.src(*mask),
        OpKind::MbarInit { addr, count } | OpKind::MbarArriveCount { addr, count, .. } => {
            r.addr(*addr);
            r.src(*count);
        }
        OpKind::MbarArrive { addr, tx, .. } => {
            r.addr(*addr);
            r.opt(*tx);
        }
        OpKind::MbarTryWait { addr, parity, .. } => {
            r.addr(*addr);
            r.src(*parity);
        }
        OpKind::TmaLoad {
            dst,
            map,
            coords,
            mbar,
        } => {
            r.addr(*dst);
            r.addr(*map);
            r.all(coords);
            r.addr(*mbar);
        }
        OpKind::CpAsync {
            dst, src, src_size, ..
        } => {
            r.addr(*dst);
            r.addr(*src);
            r.opt(*src_size);
        }
        OpKind::Cluster(c) => cluster(&mut r, c),
        OpKind::Warp(w) => warp(&mut r, w),
        OpKind::Atom(a) => {
            r.addr(a.addr);
            r.src(a.b);
            r.opt(a.c);
        }
        OpKind::Half(h) => {
            r.src(h.a);
            r.opt(h.b);
            r.opt(h.c);
        }
        OpKind::Bulk(b) => bulk(&mut r, b),
        OpKind::RoundedFn(f) => r.src(f.a),
        OpKind::F32x2(p) => {
            r.src(p.a);
            r.src(p.b);
        }
        OpKind::Approx(f) => {
            r.src(f.a);
            r.src(f.b);
        }
        OpKind::Tcgen05(t) => tcgen05(&mut r, t),
        OpKind::Matrix(m) => {
            if !m.load {
                r.0.extend(&m.regs);
            }
            r.addr(m.addr);
        }
        // Arguments of a call travel through the call area, not registers.
        OpKind::Bra { .. }
        | OpKind::Fence
        | OpKind::FenceProxyAsync
        | OpKind::FenceMbarrierInit
        | OpKind::WgmmaCommit
        | OpKind::WgmmaWait { .. }
        | OpKind::CpAsyncCommit
        | OpKind::CpAsyncWait { .. }
        | OpKind::SetMaxNReg { .. }
        | OpKind::Exit
        | OpKind::Trap
        | OpKind::Call(_)
        | OpKind::Ret => {}
    }
    r.0
}

fn cluster(r: &mut Reads, c: &ClusterOp) {
    match c {
        ClusterOp::Arrive | ClusterOp::ArriveRelaxed | ClusterOp::Wait => {}
        ClusterOp::Mapa { a, rank, .. } => r.all(&[*a, *rank]),
        ClusterOp::Getctarank { a, .. } => r.src(*a),
        ClusterOp::MbarArrive { addr, tx } => {
            r.addr(*addr);
            r.opt(*tx);
        }
        ClusterOp::Multicast {
            dst,
            map,
            coords,
            mbar,
            mask,
        } => {
            r.addr(*dst);
            r.addr(*map);
            r.all(coords);
            r.addr(*mbar);
            r.src(*mask);
        }
        ClusterOp::GroupLoad {
            dst,
            map,
            coords,
            mbar,
            ..
        } => {
            r.addr(*dst);
            r.addr(*map);
            r.all(coords);
            r.addr(*mbar);
        }
    }
}

fn warp(r: &mut Reads, w: &WarpOp) {
    match w {
        WarpOp::Vote { a, mask, .. }
        | WarpOp::Redux { a, mask, .. }
        | WarpOp::Match { a, mask, .. } => r.all(&[*a, *mask]),
        WarpOp::BarWarpSync { mask } => r.src(*mask),
        WarpOp::Activemask { .. } => {}
    }
}

fn bulk(r: &mut Reads, b: &Bulk) {
    match b {
        Bulk::Load {
            dst,
            src,
            size,
            mbar,
            mask,
        } => {
            r.addr(*dst);
            r.addr(*src);
            r.src(*size);
            r.addr(*mbar);
            r.opt(*mask);
        }
        Bulk::Store { dst, src, size, .. } => {
            r.addr(*dst);
            r.addr(*src);
            r.src(*size);
        }
        Bulk::Commit | Bulk::Wait { .. } => {}
    }
}

fn tcgen05(r: &mut Reads, t: &Tcgen05) {
    match t {
        Tcgen05::Alloc { dst, ncols, .. } => {
            r.addr(*dst);
            r.src(*ncols);
        }
        Tcgen05::Dealloc { taddr, ncols, .. } => r.all(&[*taddr, *ncols]),
        Tcgen05::Mma(f) => {
            r.addr(f.d);
            match f.a {
                MmaA::Smem(s) => r.src(s),
                MmaA::Tmem(a) => r.addr(a),
            }
            r.src(f.b);
            if let Some(m) = f.meta {
                r.addr(m);
            }
            r.src(f.idesc);
            if let Some((a, b)) = f.scales {
                r.addr(a);
                r.addr(b);
            }
            if let Some(d) = &f.disable {
                r.all(d);
            }
            r.src(f.enable);
            r.opt(f.last);
        }
        Tcgen05::Commit {
            mbar, multicast, ..
        } => {
            r.addr(*mbar);
            r.opt(*multicast);
        }
        Tcgen05::Ld { taddr, .. } | Tcgen05::Shift { taddr, .. } => r.addr(*taddr),
        Tcgen05::St { regs, taddr, .. } => {
            r.all(regs);
            r.addr(*taddr);
        }
        Tcgen05::Cp { taddr, desc, .. } => {
            r.addr(*taddr);
            r.src(*desc);
        }
        Tcgen05::Relinquish { .. } | Tcgen05::WaitLd | Tcgen05::WaitSt | Tcgen05::Fence(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::sources;
    use crate::ldmatrix::Matrix;
    use crate::op::{Addr, Op, OpKind, Src};

    fn op(kind: OpKind) -> Op {
        Op {
            line: 1,
            guard: Some((9, false)),
            kind,
        }
    }

    #[test]
    fn stmatrix_reads_its_registers_and_ldmatrix_only_its_address() {
        // `stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r3], {%r5, %r6}` reads %r5, %r6 and the
        // address register (PTX ISA 9.7.14.5.16); `ldmatrix` writes its registers.
        let addr = Addr {
            base: Src::Reg(3),
            offset: 0,
        };
        let m = |load| {
            OpKind::Matrix(Matrix {
                load,
                trans: false,
                regs: vec![5, 6],
                addr,
            })
        };
        assert_eq!(sources(&op(m(false))), vec![9, 5, 6, 3]);
        assert_eq!(sources(&op(m(true))), vec![9, 3]);
    }
}
