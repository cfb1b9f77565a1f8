//! The typed form of one PTX instruction: every instruction of a kernel is decoded once into an
//! [`Op`] (registers resolved to slots, immediates parsed, types and modifiers as enums) before
//! the run starts, so execution never looks at text.

/// A PTX fundamental type (PTX ISA 5.2.1), as an instruction's type qualifier names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `.b8` .. `.b64`: untyped bits of that width.
    B(u8),
    /// `.u8` .. `.u64`.
    U(u8),
    /// `.s8` .. `.s64`.
    S(u8),
    /// `.f16`.
    F16,
    /// `.bf16`.
    Bf16,
    /// `.f32`.
    F32,
    /// `.f64`.
    F64,
    /// `.pred`.
    Pred,
}

impl Ty {
    /// The type a qualifier names (`u32`, `f32`, ...), if it is one.
    #[must_use]
    pub fn parse(q: &str) -> Option<Ty> {
        if q == "bf16" {
            return Some(Ty::Bf16);
        }
        if q.is_empty() {
            return None;
        }
        let (kind, bits) = (q.get(..1)?, q.get(1..)?);
        let bits: u8 = match bits {
            "8" => 8,
            "16" => 16,
            "32" => 32,
            "64" => 64,
            _ => return if q == "pred" { Some(Ty::Pred) } else { None },
        };
        Some(match (kind, bits) {
            ("b", b) => Ty::B(b),
            ("u", b) => Ty::U(b),
            ("s", b) => Ty::S(b),
            ("f", 16) => Ty::F16,
            ("f", 32) => Ty::F32,
            ("f", 64) => Ty::F64,
            _ => return None,
        })
    }

    /// Width in bits (1 for `.pred`).
    #[must_use]
    pub fn bits(self) -> u32 {
        match self {
            Ty::B(b) | Ty::U(b) | Ty::S(b) => u32::from(b),
            Ty::F16 | Ty::Bf16 => 16,
            Ty::F32 => 32,
            Ty::F64 => 64,
            Ty::Pred => 1,
        }
    }

    /// Width in bytes of a memory access of this type.
    #[must_use]
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// Whether the type is a signed integer.
    #[must_use]
    pub fn signed(self) -> bool {
        matches!(self, Ty::S(_))
    }

    /// Whether the type is a floating-point type.
    #[must_use]
    pub fn float(self) -> bool {
        matches!(self, Ty::F16 | Ty::Bf16 | Ty::F32 | Ty::F64)
    }
}

/// A special register (PTX ISA 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `%tid.{x,y,z}`.
    Tid(u8),
    /// `%ntid.{x,y,z}`.
    Ntid(u8),
    /// `%ctaid.{x,y,z}`.
    Ctaid(u8),
    /// `%nctaid.{x,y,z}`.
    Nctaid(u8),
    /// `%laneid`.
    Laneid,
    /// `%warpid`.
    Warpid,
    /// `%nwarpid`.
    Nwarpid,
    /// `%cluster_ctarank`: the CTA's rank in its cluster.
    ClusterCtarank,
    /// `%cluster_nctarank`: CTAs per cluster.
    ClusterNctarank,
    /// `%clusterid.{x,y,z}`: the cluster's position in the grid.
    Clusterid(u8),
    /// `%nclusterid.{x,y,z}`: clusters in the grid.
    Nclusterid(u8),
    /// `%cluster_ctaid.{x,y,z}`: the CTA's position in its cluster.
    ClusterCtaid(u8),
    /// `%cluster_nctaid.{x,y,z}`: the cluster's shape.
    ClusterNctaid(u8),
    /// `%lanemask_lt`.
    LanemaskLt,
    /// `%is_explicit_cluster`: whether the launch or the kernel named a cluster shape.
    IsExplicitCluster,
    /// `%dynamic_smem_size`: the bytes of shared memory allocated dynamically at launch
    /// (PTX ISA 10.32).
    DynamicSmemSize,
}

impl Special {
    /// The special register a name denotes, if any.
    #[must_use]
    pub fn parse(name: &str) -> Option<Special> {
        let (base, dim) = match name.rsplit_once('.') {
            Some((b, "x")) => (b, 0),
            Some((b, "y")) => (b, 1),
            Some((b, "z")) => (b, 2),
            _ => (name, 3),
        };
        Some(match (base, dim) {
            ("%tid", d) if d < 3 => Special::Tid(d),
            ("%ntid", d) if d < 3 => Special::Ntid(d),
            ("%ctaid", d) if d < 3 => Special::Ctaid(d),
            ("%nctaid", d) if d < 3 => Special::Nctaid(d),
            ("%clusterid", d) if d < 3 => Special::Clusterid(d),
            ("%nclusterid", d) if d < 3 => Special::Nclusterid(d),
            ("%cluster_ctaid", d) if d < 3 => Special::ClusterCtaid(d),
            ("%cluster_nctaid", d) if d < 3 => Special::ClusterNctaid(d),
            ("%laneid", 3) => Special::Laneid,
            ("%warpid", 3) => Special::Warpid,
            ("%nwarpid", 3) => Special::Nwarpid,
            ("%cluster_ctarank", 3) => Special::ClusterCtarank,
            ("%cluster_nctarank", 3) => Special::ClusterNctarank,
            ("%lanemask_lt", 3) => Special::LanemaskLt,
            ("%is_explicit_cluster", 3) => Special::IsExplicitCluster,
            ("%dynamic_smem_size", 3) => Special::DynamicSmemSize,
            _ => return None,
        })
    }
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// A register slot.
    Reg(u32),
    /// An immediate, as its bit pattern (floats in their PTX hexadecimal form already).
    Imm(u64),
    /// A special register.
    Special(Special),
    /// The address of a shared variable at this offset: with the executing CTA's rank in its
    /// bits 24 and up, as the hardware writes it ([`crate::cluster`]).
    Shared(u64),
}

/// A state space of a memory access (PTX ISA 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// `.global`.
    Global,
    /// `.shared` (`.shared::cta`).
    Shared,
    /// `.param` (kernel parameters).
    Param,
    /// `.shared::cluster`: the shared memory of any CTA of the cluster ([`crate::cluster`]).
    SharedCluster,
    /// No state space: a generic address, resolved by its window when executed.
    Generic,
    /// `.local`: the thread's own memory.
    Local,
}

impl Space {
    /// The name as PTX writes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Param => "param",
            Space::SharedCluster => "shared::cluster",
            Space::Generic => "generic",
            Space::Local => "local",
        }
    }
}

/// An address operand: a base and a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    /// The base: a register, or an absolute address (a variable's, or 0).
    pub base: Src,
    /// The constant byte offset.
    pub offset: i64,
}

/// A floating-point rounding modifier (PTX ISA 9.7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    /// `.rn`, or no modifier: to nearest, ties to even.
    Rn,
    /// `.rz`: toward zero.
    Rz,
    /// `.rm`: toward minus infinity.
    Rm,
    /// `.rp`: toward plus infinity.
    Rp,
}

/// An integer rounding modifier of `cvt` from float to integer (PTX ISA 9.7.9.21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IRnd {
    /// `.rni`: nearest even.
    Rni,
    /// `.rzi`: toward zero.
    Rzi,
    /// `.rmi`: toward minus infinity.
    Rmi,
    /// `.rpi`: toward plus infinity.
    Rpi,
}

/// A two-operand integer or bit operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `mul.lo`.
    MulLo,
    /// `mul.hi`.
    MulHi,
    /// `mul.wide` (destination twice the type's width).
    MulWide,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `shl`.
    Shl,
    /// `shr` (arithmetic for signed types).
    Shr,
    /// `div` (truncating).
    Div,
    /// `rem`.
    Rem,
}

/// A floating-point binary operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp {
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `mul`.
    Mul,
    /// `min` (PTX ISA 9.7.3.10: a NaN operand yields the other operand).
    Min,
    /// `max`.
    Max,
    /// `div.rn` (IEEE division).
    Div,
}

/// A comparison of `setp` (PTX ISA 9.7.3.x, Table "comparison operators").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `eq`.
    Eq,
    /// `ne`.
    Ne,
    /// `lt`.
    Lt,
    /// `le`.
    Le,
    /// `gt`.
    Gt,
    /// `ge`.
    Ge,
    /// `lo` (unsigned <).
    Lo,
    /// `ls` (unsigned <=).
    Ls,
    /// `hi` (unsigned >).
    Hi,
    /// `hs` (unsigned >=).
    Hs,
    /// `equ`, `neu`, `ltu`, `leu`, `gtu`, `geu`: the ordered comparison, or true when either
    /// operand is NaN.
    Unordered(UCmp),
    /// `num`: neither is NaN.
    Num,
    /// `nan`: either is NaN.
    Nan,
}

/// The base comparison of an unordered floating-point comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UCmp {
    /// `equ`.
    Eq,
    /// `neu`.
    Ne,
    /// `ltu`.
    Lt,
    /// `leu`.
    Le,
    /// `gtu`.
    Gt,
    /// `geu`.
    Ge,
}

/// A boolean combination of `setp`'s result with a third predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
}

/// The mode of `shfl.sync` (PTX ISA 9.7.9.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// `.up`.
    Up,
    /// `.down`.
    Down,
    /// `.bfly`.
    Bfly,
    /// `.idx`.
    Idx,
}

/// A conversion of `cvt` (PTX ISA 9.7.9.21), with its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv {
    /// Integer to integer (sign- or zero-extension, truncation; `.sat` clamps).
    IntInt {
        /// Destination type.
        to: Ty,
        /// Source type.
        from: Ty,
        /// `.sat`.
        sat: bool,
    },
    /// Float to a narrower or equal float (`f32` to `f16`/`bf16`, `f64` to `f32`, ...).
    FloatFloat {
        /// Destination type.
        to: Ty,
        /// Source type.
        from: Ty,
        /// Rounding (a widening conversion is exact and takes none).
        rnd: Rnd,
        /// `.ftz`.
        ftz: bool,
        /// `.sat` (clamp to [0, 1]).
        sat: bool,
        /// `.relu` (negative results to +0, NaN to canonical NaN).
        relu: bool,
        /// `.satfinite`.
        satfinite: bool,
    },
    /// Float to integer (`.rni`, `.rzi`, `.rmi`, `.rpi`; saturating as PTX requires).
    FloatInt {
        /// Destination type.
        to: Ty,
        /// Source type.
        from: Ty,
        /// Rounding.
        rnd: IRnd,
        /// `.ftz`.
        ftz: bool,
    },
    /// Integer to float.
    IntFloat {
        /// Destination type.
        to: Ty,
        /// Source type.
        from: Ty,
        /// Rounding.
        rnd: Rnd,
    },
    /// Two `f32` to a packed pair of 8-bit floats (`e4m3x2`, `e5m2x2`; `.rn.satfinite`, `.relu`
    /// optional): the first source goes to the upper byte.
    F32ToF8x2 {
        /// E4M3 (true) or E5M2.
        e4m3: bool,
        /// `.relu`.
        relu: bool,
    },
    /// Two `f32` to a packed pair of 16-bit floats (`f16x2`, `bf16x2`, `.rn`/`.rz`, `.relu`,
    /// `.satfinite`): the first source goes to the upper half.
    F32ToF16x2 {
        /// `bf16x2` (true) or `f16x2`.
        bf16: bool,
        /// Rounding.
        rnd: Rnd,
        /// `.relu`.
        relu: bool,
        /// `.satfinite`.
        satfinite: bool,
    },
}

/// What one instruction does, with typed operands.
#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// `mov` (also `cvta` between identical windows): `d = a`.
    Mov {
        /// Destination slot.
        d: u32,
        /// Source.
        a: Src,
        /// Type width in bits (the value is truncated to it).
        bits: u32,
    },
    /// `mov` packing registers into a wider one: `d = {parts[0] (low), parts[1], ...}`.
    Pack {
        /// Destination slot.
        d: u32,
        /// Sources, lowest first.
        parts: Vec<Src>,
        /// Width of each part in bits.
        part_bits: u32,
    },
    /// `mov` unpacking a wider register into parts.
    Unpack {
        /// Destination slots, lowest first (`None` for `_`).
        parts: Vec<Option<u32>>,
        /// Source.
        a: Src,
        /// Width of each part in bits.
        part_bits: u32,
    },
    /// Integer and bit arithmetic: `d = a op b`.
    Int {
        /// The operation.
        op: IntOp,
        /// The type.
        ty: Ty,
        /// Destination slot.
        d: u32,
        /// First source.
        a: Src,
        /// Second source.
        b: Src,
    },
    /// `mad.lo`, `mad.hi`, `mad.wide`: `d = a * b + c`.
    Mad {
        /// `MulLo`, `MulHi` or `MulWide`.
        op: IntOp,
        /// The type of `a` and `b`.
        ty: Ty,
        /// Destination slot.
        d: u32,
        /// Sources.
        a: Src,
        /// Second factor.
        b: Src,
        /// Addend.
        c: Src,
    },
    /// `not`, `neg` (integer), `popc`, `clz`, `brev`, `cnot`.
    IntUnary {
        /// The opcode.
        op: IntUnaryOp,
        /// The type.
        ty: Ty,
        /// Destination slot.
        d: u32,
        /// Source.
        a: Src,
    },
    /// Floating-point binary arithmetic.
    Float {
        /// The operation.
        op: FloatOp,
        /// `F32` or `F64`.
        ty: Ty,
        /// Rounding.
        rnd: Rnd,
        /// `.ftz`.
        ftz: bool,
        /// `.sat`.
        sat: bool,
        /// Destination slot.
        d: u32,
        /// First source.
        a: Src,
        /// Second source.
        b: Src,
    },
    /// `fma.rnd.{f32,f64}`: `d = a * b + c` rounded once.
    Fma {
        /// `F32` or `F64`.
        ty: Ty,
        /// Rounding.
        rnd: Rnd,
        /// `.ftz`.
        ftz: bool,
        /// `.sat`.
        sat: bool,
        /// Destination slot.
        d: u32,
        /// Sources.
        a: Src,
        /// Second factor.
        b: Src,
        /// Addend.
        c: Src,
    },
    /// `neg.f32`, `abs.f32` (sign-bit operations).
    FloatSign {
        /// True for `abs`, false for `neg`.
        abs: bool,
        /// `F32` or `F64`.
        ty: Ty,
        /// `.ftz`.
        ftz: bool,
        /// Destination slot.
        d: u32,
        /// Source.
        a: Src,
    },
    /// `setp.cmp[.bool].ty p[|q], a, b[, c]`.
    Setp {
        /// Comparison.
        cmp: Cmp,
        /// Operand type.
        ty: Ty,
        /// `.ftz`.
        ftz: bool,
        /// Destination predicate slot.
        p: u32,
        /// Complement destination (`p|q`).
        q: Option<u32>,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Combination with a third predicate (which may be negated).
        combine: Option<(BoolOp, Src, bool)>,
    },
    /// `selp.ty d, a, b, c`: `d = c ? a : b`.
    Selp {
        /// Destination slot.
        d: u32,
        /// Value when true.
        a: Src,
        /// Value when false.
        b: Src,
        /// Predicate.
        c: Src,
        /// Width in bits.
        bits: u32,
    },
    /// `cvt`.
    Cvt {
        /// The conversion.
        conv: Conv,
        /// Destination slot.
        d: u32,
        /// Source (the first of two for packed conversions).
        a: Src,
        /// The second source of a packed conversion.
        b: Option<Src>,
    },
    /// `ld.space[.vN].ty d, [addr]`.
    Ld {
        /// State space.
        space: Space,
        /// Element type.
        ty: Ty,
        /// Destination slots (one per vector element; `None` for `_`).
        d: Vec<Option<u32>>,
        /// Address.
        addr: Addr,
    },
    /// `st.space[.vN].ty [addr], a`.
    St {
        /// State space.
        space: Space,
        /// Element type.
        ty: Ty,
        /// Sources (one per vector element).
        a: Vec<Src>,
        /// Address.
        addr: Addr,
    },
    /// `bra[.uni] target`.
    Bra {
        /// Index of the target instruction.
        target: usize,
    },
    /// `min{.ftz}.f32 d, a, b, c` / `max{.ftz}.f32 d, a, b, c` (three inputs, PTX ISA 8.8,
    /// sm_100 and later): the two-input operation applied twice, `op(op(a, b), c)` (a NaN input
    /// is dropped unless all three are NaN, as with two inputs).
    MinMax3 {
        /// `max` (else `min`).
        max: bool,
        /// `.ftz`.
        ftz: bool,
        /// Destination slot.
        d: u32,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source.
        c: Src,
    },
    /// `brx.idx[.uni] index, tlist` (crate `brx`): a thread branches to the `index`-th label of
    /// the `.branchtargets` list `tlist`.
    BrxIdx {
        /// The index (a `.u32` register).
        index: Src,
        /// The list's labels, in order.
        labels: Vec<String>,
        /// Index of each label's target instruction (`usize::MAX` until resolved).
        targets: Vec<usize>,
    },
    /// `bar.sync` / `barrier.sync` (`.aligned`): CTA barrier `id` over `count` threads (all when
    /// `None`).
    BarSync {
        /// Barrier id.
        id: Src,
        /// Thread count.
        count: Option<Src>,
    },
    /// `shfl.sync.mode.b32 d[|p], a, b, c, membermask`.
    Shfl {
        /// Mode.
        mode: ShflMode,
        /// Destination slot.
        d: u32,
        /// Validity predicate destination.
        p: Option<u32>,
        /// Value.
        a: Src,
        /// Lane or offset.
        b: Src,
        /// Clamp and segment mask.
        c: Src,
        /// Member mask.
        mask: Src,
    },
    /// `bfe.ty d, a, b, c`: `c` bits of `a` from bit `b`, sign-extended for signed types
    /// (PTX ISA 9.7.1.19).
    Bfe {
        /// The type.
        ty: Ty,
        /// Destination slot.
        d: u32,
        /// Source.
        a: Src,
        /// Start bit.
        b: Src,
        /// Length.
        c: Src,
    },
    /// A fence with no effect on a run whose memory is sequentially consistent and whose
    /// asynchronous operations complete through their own mechanism: `fence.proxy.async`,
    /// `wgmma.fence`, `membar`/`fence.sc`/`fence.acq_rel`.
    Fence,
    /// `fence.proxy.async[.shared::cta|.global]`: orders the thread's generic-proxy accesses
    /// before its later async-proxy ones (PTX ISA 9.7.13.4); no effect on values, seen by the
    /// hazard checker.
    FenceProxyAsync,
    /// `fence.mbarrier_init.release.cluster`: releases the thread's prior `mbarrier.init`s at
    /// cluster scope (PTX ISA 9.7.13.4); no effect on values, seen by the hazard checker.
    FenceMbarrierInit,
    /// `wgmma.mma_async.sync.aligned.m64nNkK` (.f32 from f16, bf16, tf32, e4m3, e5m2; .s32 from
    /// s8, u8) with A and B from descriptors:
    /// queued, computed at its `wgmma.wait_group` (PTX ISA 9.7.15.5.2).
    Wgmma {
        /// The form (types, N, transposes, negations).
        form: tcgen05::emulator::wgmma::WgmmaForm,
        /// The accumulator registers, N / 2 of them (f32 D fragment).
        d: Vec<u32>,
        /// A's descriptor.
        a_desc: Src,
        /// B's descriptor.
        b_desc: Src,
        /// `scale-d`: D = A x B + D when true, A x B when false.
        scale_d: Src,
    },
    /// `wgmma.commit_group.sync.aligned`.
    WgmmaCommit,
    /// `wgmma.wait_group.sync.aligned N`.
    WgmmaWait {
        /// The most groups left pending.
        n: u64,
    },
    /// `cvta.param.u64` / `cvta.to.param.u64`: between a parameter-space address and its
    /// generic address ([`PARAM_WINDOW`] + offset); `cvta.global` is the identity.
    Cvta {
        /// Destination slot.
        d: u32,
        /// Source.
        a: Src,
        /// The generic window's first address (0 for global).
        window: u64,
        /// To generic (true) or from generic (`.to`).
        to_generic: bool,
    },
    /// `elect.sync d|p, membermask`: the lowest active lane of the mask is elected (PTX ISA
    /// 9.7.13.x): `d` = its lane id in every thread, `p` true in it alone.
    Elect {
        /// Lane id destination (`None` for `_`).
        d: Option<u32>,
        /// Predicate destination.
        p: Option<u32>,
        /// Member mask.
        mask: Src,
    },
    /// `mbarrier.init.shared::cta.b64 [addr], count` (PTX ISA 9.7.13.15).
    MbarInit {
        /// The mbarrier's shared address.
        addr: Addr,
        /// Expected arrivals per phase.
        count: Src,
    },
    /// `mbarrier.arrive[.expect_tx].shared::cta.b64 state, [addr][, tx]`: adds `tx` to the
    /// transaction count, then one arrival.
    MbarArrive {
        /// The mbarrier's shared address.
        addr: Addr,
        /// Expected transaction bytes.
        tx: Option<Src>,
        /// The state destination (`None` for `_`).
        state: Option<u32>,
        /// `.relaxed`: no memory ordering (PTX ISA 9.7.13.15.12; rules.md I9).
        relaxed: bool,
    },
    /// `mbarrier.arrive.shared::cta.b64 state, [addr], count`: `count` arrivals at once.
    MbarArriveCount {
        /// The mbarrier's shared address.
        addr: Addr,
        /// Arrivals.
        count: Src,
        /// The state destination (`None` for `_`).
        state: Option<u32>,
    },
    /// `mbarrier.try_wait.parity.shared::cta.b64 p, [addr], parity` (also `test_wait`): true
    /// once the phase of that parity has completed.
    MbarTryWait {
        /// Predicate destination.
        p: u32,
        /// The mbarrier's shared address.
        addr: Addr,
        /// Phase parity.
        parity: Src,
        /// `.relaxed`: no memory ordering (PTX ISA 9.7.13.15.16; rules.md I9).
        relaxed: bool,
    },
    /// `mbarrier.inval.shared::cta.b64 [addr]`.
    MbarInval {
        /// The mbarrier's shared address.
        addr: Addr,
    },
    /// `cp.async.bulk.tensor.Nd.shared::cta.global.mbarrier::complete_tx::bytes [dst], [map,
    /// {coords}], [mbar]` (tile mode): queued; performed when a thread waits on `mbar`.
    TmaLoad {
        /// Shared destination.
        dst: Addr,
        /// The tensor map's address (generic or parameter space).
        map: Addr,
        /// Box coordinates, innermost first.
        coords: Vec<Src>,
        /// The mbarrier.
        mbar: Addr,
    },
    /// `prmt.b32{.mode} d, a, b, c`: bytes of `{b, a}` picked by `c` (PTX ISA 9.7.9.7).
    Prmt {
        /// The mode.
        mode: crate::prmt::PrmtMode,
        /// Destination slot.
        d: u32,
        /// Bytes 0-3.
        a: Src,
        /// Bytes 4-7.
        b: Src,
        /// Selector.
        c: Src,
    },
    /// `cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}`: queued per thread,
    /// performed at the `cp.async.wait_group` that retires its group.
    CpAsync {
        /// Shared destination.
        dst: Addr,
        /// Global source.
        src: Addr,
        /// Bytes written (4, 8, 16).
        cp_size: u32,
        /// Bytes read (the rest zero-filled); `cp_size` when absent.
        src_size: Option<Src>,
    },
    /// `cp.async.commit_group`.
    CpAsyncCommit,
    /// `cp.async.wait_group N` (`None`: `cp.async.wait_all`).
    CpAsyncWait {
        /// The most groups left pending.
        n: Option<u64>,
    },
    /// A named barrier (`bar.sync 1, 128`, `barrier.sync 1`, `bar.arrive 2, 256`; not `bar.sync
    /// 0` without a count, which is [`OpKind::BarSync`]).
    NamedBarrier {
        /// Barrier id (0 to 15).
        id: Src,
        /// Thread count (`None`: every thread of the CTA).
        count: Option<Src>,
        /// `sync` waits for completion; `arrive` does not.
        sync: bool,
    },
    /// `setmaxnreg.{inc,dec}.sync.aligned.u32 N`: a register-allocation hint with no effect on
    /// a run whose registers are all allocated at launch.
    SetMaxNReg {
        /// `.inc` (true) or `.dec`.
        inc: bool,
        /// The new per-thread register count.
        count: u32,
    },
    /// `ret` from the kernel, or `exit`.
    Exit,
    /// A cluster instruction ([`crate::cluster`]).
    Cluster(crate::cluster::ClusterOp),
    /// A warp-wide instruction ([`crate::warp`]).
    Warp(crate::warp::WarpOp),
    /// `atom` / `red` ([`crate::atom`]).
    Atom(crate::atom::Atom),
    /// `isspacep.space p, a`: whether the generic address `a` lies in the window of `space`
    /// (`cta_only`: `.shared::cta`, the executing CTA's own shared memory).
    Isspacep {
        /// Predicate destination.
        p: u32,
        /// The generic address.
        a: Src,
        /// The state space asked about.
        space: Space,
        /// `.shared::cta` rather than `.shared::cluster`.
        cta_only: bool,
    },
    /// `trap`: stops the run with [`crate::RunError::Trap`].
    Trap,
    /// A direct `call` ([`crate::function`]).
    Call(Box<crate::function::Call>),
    /// `ret` from a device function (in a kernel's own body `ret` is [`OpKind::Exit`]).
    Ret,
    /// Half-precision arithmetic ([`crate::half`]).
    Half(crate::half::Half),
    /// A non-tensor bulk copy or reduction ([`crate::bulk_copy`]).
    Bulk(crate::bulk_copy::Bulk),
    /// `sqrt.rn` / `rcp.rn` ([`crate::bulk_copy::RoundedFn`]).
    RoundedFn(crate::bulk_copy::RoundedFn),
    /// `ex2.approx{.ftz}.f32`, computed only when the run is asked to ([`crate::approx`]).
    Approx(crate::approx::ApproxFn),
    /// `add`/`sub`/`mul` `.f32x2` ([`crate::f32x2`]).
    F32x2(crate::f32x2::F32x2),
    /// A `tcgen05.*` instruction (PTX ISA 9.7.16).
    Tcgen05(crate::tcgen05::op::Tcgen05),
    /// `ldmatrix` / `stmatrix` (PTX ISA 9.7.14.5.15-16).
    Matrix(crate::ldmatrix::Matrix),
}

/// The generic address of parameter-space offset 0 (what `cvta.param` adds).
pub const PARAM_WINDOW: u64 = 0x0600_0000_0000;

/// The generic address of local-space offset 0 (what `cvta.local` adds).
pub const LOCAL_WINDOW: u64 = 0x0500_0000_0000;

/// A one-operand integer operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntUnaryOp {
    /// `not` (bitwise; logical for `.pred`).
    Not,
    /// `neg` (two's complement).
    Neg,
    /// `cnot`.
    Cnot,
    /// `popc`.
    Popc,
    /// `clz`.
    Clz,
    /// `brev`.
    Brev,
    /// `abs`.
    Abs,
}

/// One decoded instruction: its guard, its operation and its source line.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// 1-based PTX line.
    pub line: u32,
    /// Guard predicate slot and negation (`@%p`, `@!%p`).
    pub guard: Option<(u32, bool)>,
    /// What it does.
    pub kind: OpKind,
}
