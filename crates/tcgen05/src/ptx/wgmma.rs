//! `wgmma` (Hopper's warpgroup MMA, PTX ISA 9.7.15) as data: the qualifier slots and operand
//! positions of `wgmma.mma_async`, `wgmma.fence`, `wgmma.commit_group` and `wgmma.wait_group`
//! (each a [`Grammar`], the tables tcgen05's forms are written in, introduced on `sm_90a`:
//! [`HOPPER`]), their typed forms ([`Wgmma`]), the writer ([`Wgmma::write`]) and the reader
//! (`parse_wgmma`, with `alloc`), both walking the same tables, and the legality of a form
//! ([`MmaAsync::validate`]).
//!
//! Every wgmma spelling but `.sp` (PTX ISA 8.2, [`SPARSE`]) came with PTX ISA 8.0 for `sm_90a`
//! ([`INTRODUCED`]). Covered: every `mma_async` form of PTX ISA 9.7.15.5.2 and 9.7.15.6.2: A
//! in shared memory (`a-desc`) or in registers (`{a}`), B in shared memory, dense or sparse
//! (`.sp`), for f16, bf16, tf32, e4m3, e5m2, s8, u8 and `.b1` (`.and.popc`).
//!
//! # Examples
//! ```
//! use tcgen05::ptx::{Wgmma, WgmmaType, MmaAsync, DType, Value};
//!
//! let d = ["%f1", "%f2", "%f3", "%f4"];
//! let m = MmaAsync::new(8, DType::F32, WgmmaType::Bf16, WgmmaType::Bf16, &d, "%rd1", "%rd2",
//!                       Value::Reg("%p1"));
//! let m = MmaAsync { imm_scale: Some((1, 1)), imm_trans_a: Some(0), imm_trans_b: Some(1), ..m };
//! assert!(m.validate().is_ok());
//! let mut s = String::new();
//! Wgmma::MmaAsync(m).write(&mut s).unwrap();
//! assert_eq!(s, "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 \
//!                {%f1,%f2,%f3,%f4}, %rd1, %rd2, %p1, 1, 1, 0, 1;");
//! ```

use core::fmt;

use super::grammar::{
    write_spelled, Arch, Arg, Family, Grammar, ImmStyle, OperandSlot, Shape, Since, Slot, Spelled,
    When,
};
use super::{Syntax, Value};

/// The PTX ISA version (major * 10 + minor) and the target that introduced every wgmma
/// spelling but `.sp`: PTX ISA 8.0, `sm_90a` (PTX ISA 9.7.15 target notes). Two came later:
/// `.sp` needs PTX ISA 8.2 ([`SPARSE`]; ptxas 13.5: "Feature 'Sparse WGMMA with floating point
/// types' requires PTX ISA .version 8.2 or later") and mixed integer types (`.s8.u8`,
/// `.u8.s8`) PTX ISA 8.4 ([`MmaAsync::introduced`]; ptxas 13.5: "Feature 'WGMMA with mixed
/// integer types' requires PTX ISA .version 8.4 or later").
pub const INTRODUCED: (u8, &str) = (HOPPER.ptx, HOPPER.target.name());

/// [`INTRODUCED`] as the grammar's slots record it.
pub const HOPPER: Since = Since {
    ptx: 80,
    target: Arch::Sm90a,
};

/// `wgmma.mma_async.sp`: PTX ISA 8.2 on `sm_90a` (ptxas 13.5, quoted at [`INTRODUCED`]).
pub const SPARSE: Since = Since {
    ptx: 82,
    target: Arch::Sm90a,
};

/// The PTX ISA version that introduced mixed `.s8` / `.u8` input types.
pub const MIXED_INTEGER_PTX: u8 = 84;

/// The K values of the shape slot, in value order: 16 (f16, bf16), 8 (tf32), 32 (8-bit types;
/// f16, bf16 with `.sp`), 64 (8-bit types with `.sp`), 256 (`.b1`); tf32 with `.sp` is 16.
pub const SHAPE_K: [u16; 5] = [16, 8, 32, 64, 256];

/// N and K of value `v` of the shape slot ([`Family::Shape`]: N = 8 * (v mod 32 + 1),
/// K = [`SHAPE_K`]`[v / 32]`).
#[must_use]
pub const fn shape_of(v: u16) -> (u16, u16) {
    Family::shape_of(&SHAPE_K, v as usize)
}

/// The shape slot's value for `m64n{n}k{k}`, if the slot spells it (N a multiple of 8 up to
/// 256, K one of [`SHAPE_K`]).
#[must_use]
pub const fn shape_value(n: u16, k: u16) -> Option<u16> {
    Family::shape_value(&SHAPE_K, n, k)
}

/// Slot and operand indices of [`MMA_ASYNC`].
mod slot {
    pub const SP: usize = 1;
    pub const SHAPE: usize = 4;
    pub const SATFINITE: usize = 5;
    pub const DTYPE: usize = 6;
    pub const ATYPE: usize = 7;
    pub const BTYPE: usize = 8;
    pub const AND: usize = 9;
    pub const POPC: usize = 10;
    /// Operand position of A.
    pub const A: usize = 1;
}

/// Spellings of `.atype` / `.btype`, in [`WgmmaType`] order.
const TYPES: [&str; 8] = ["f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "b1"];
/// Spellings of `.dtype`, in [`DType`] order.
const DTYPES: [&str; 3] = ["f16", "f32", "s32"];

/// A required wgmma slot of one spelling.
const fn fixed(name: &'static str, spelling: &'static [&'static str]) -> Slot {
    Slot::fixed(name, spelling).with_since(HOPPER)
}

/// An optional wgmma slot of one spelling.
const fn flag(name: &'static str, spelling: &'static [&'static str]) -> Slot {
    Slot::flag(name, spelling).with_since(HOPPER)
}

/// A required wgmma slot of several spellings, each after a dot.
const fn one_of(name: &'static str, values: &'static [&'static str]) -> Slot {
    Slot::one_of(name, ".", values).with_since(HOPPER)
}

/// A wgmma immediate operand, written in decimal with its sign.
const fn imm(name: &'static str, shape: Shape) -> OperandSlot {
    OperandSlot::new(name, shape).imm(ImmStyle::Signed, u64::MAX)
}

/// `wgmma.mma_async{.sp}.sync.aligned.shape{.satfinite}.dtype.atype.btype{.and.popc} d,
/// a-desc | {a}, b-desc, {sp-meta, sp-sel,} scale-d{, imm-scale-a, imm-scale-b{,
/// imm-trans-a}{, imm-trans-b}}` (PTX ISA 9.7.15.5.2, `.sp` 9.7.15.6.2): A in shared memory
/// (a descriptor) or in four registers (then no `imm-trans-a`); `.sp` with the sparsity
/// metadata register and selector immediate; `.b1` with `.and.popc`.
pub static MMA_ASYNC: Grammar = Grammar {
    name: "wgmma.mma_async",
    section: "9.7.15.5.2",
    slots: &[
        fixed("instruction", &[".mma_async"]),
        Slot::flag("sp", &[".sp"]).with_since(SPARSE),
        fixed("sync", &[".sync"]),
        fixed("aligned", &[".aligned"]),
        Slot {
            family: Some(Family::Shape {
                m: 64,
                ks: &SHAPE_K,
            }),
            ..one_of("shape", &[])
        },
        flag("satfinite", &[".satfinite"]),
        one_of("dtype", &DTYPES),
        one_of("atype", &TYPES),
        one_of("btype", &TYPES),
        flag("op", &[".and"]),
        flag("popc", &[".popc"]),
    ],
    operands: &[
        OperandSlot::new("d", Shape::Vector),
        OperandSlot::new("a-desc", Shape::RegOrVector),
        OperandSlot::new("b-desc", Shape::Reg),
        OperandSlot::new("sp-meta", Shape::Reg).when(When::With(slot::SP)),
        imm("sp-sel", Shape::Imm).when(When::With(slot::SP)),
        imm("scale-d", Shape::RegOrImm),
        imm("imm-scale-a", Shape::Imm).when(When::Trailing),
        imm("imm-scale-b", Shape::Imm).when(When::Trailing),
        imm("imm-trans-a", Shape::Imm).when(When::TrailingUnlessVector(slot::A)),
        imm("imm-trans-b", Shape::Imm).when(When::Trailing),
    ],
};

/// `wgmma.fence.sync.aligned` (PTX ISA 9.7.15.7.1).
pub static FENCE: Grammar = Grammar {
    name: "wgmma.fence",
    section: "9.7.15.7.1",
    slots: &[
        fixed("instruction", &[".fence"]),
        fixed("sync", &[".sync"]),
        fixed("aligned", &[".aligned"]),
    ],
    operands: &[],
};

/// `wgmma.commit_group.sync.aligned` (PTX ISA 9.7.15.7.2).
pub static COMMIT_GROUP: Grammar = Grammar {
    name: "wgmma.commit_group",
    section: "9.7.15.7.2",
    slots: &[
        fixed("instruction", &[".commit_group"]),
        fixed("sync", &[".sync"]),
        fixed("aligned", &[".aligned"]),
    ],
    operands: &[],
};

/// `wgmma.wait_group.sync.aligned N` (PTX ISA 9.7.15.7.3).
pub static WAIT_GROUP: Grammar = Grammar {
    name: "wgmma.wait_group",
    section: "9.7.15.7.3",
    slots: &[
        fixed("instruction", &[".wait_group"]),
        fixed("sync", &[".sync"]),
        fixed("aligned", &[".aligned"]),
    ],
    operands: &[imm("N", Shape::Imm)],
};

/// Every wgmma form's grammar.
pub static WGMMA_GRAMMARS: [&Grammar; 4] = [&MMA_ASYNC, &FENCE, &COMMIT_GROUP, &WAIT_GROUP];

/// The type of matrix A or B (`.atype`, `.btype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WgmmaType {
    /// `.f16`.
    F16,
    /// `.bf16`.
    Bf16,
    /// `.tf32`.
    Tf32,
    /// `.e4m3`.
    E4m3,
    /// `.e5m2`.
    E5m2,
    /// `.s8`.
    S8,
    /// `.u8`.
    U8,
    /// `.b1` (single bit, with `.and.popc`).
    B1,
}

impl WgmmaType {
    /// Every type, in slot order.
    pub const ALL: [WgmmaType; 8] = [
        WgmmaType::F16,
        WgmmaType::Bf16,
        WgmmaType::Tf32,
        WgmmaType::E4m3,
        WgmmaType::E5m2,
        WgmmaType::S8,
        WgmmaType::U8,
        WgmmaType::B1,
    ];

    /// Bits of one element.
    #[must_use]
    pub const fn bits(self) -> u16 {
        match self {
            WgmmaType::F16 | WgmmaType::Bf16 => 16,
            WgmmaType::Tf32 => 32,
            WgmmaType::B1 => 1,
            _ => 8,
        }
    }

    /// K of the dense form: 256 bits of A per row, 8 for tf32 (PTX ISA 9.7.15.2); the sparse
    /// form (`.sp`) has twice this K (PTX ISA 9.7.15.6).
    #[must_use]
    pub const fn k(self) -> u16 {
        match self {
            WgmmaType::Tf32 => 8,
            t => 256 / t.bits(),
        }
    }

    const fn integer(self) -> bool {
        matches!(self, WgmmaType::S8 | WgmmaType::U8)
    }
}

/// The type of D (`.dtype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// `.f16`.
    F16,
    /// `.f32`.
    F32,
    /// `.s32`.
    S32,
}

impl DType {
    /// Every type, in slot order.
    pub const ALL: [DType; 3] = [DType::F16, DType::F32, DType::S32];
}

/// Where matrix A of a `wgmma.mma_async` comes from (PTX ISA 9.7.15.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WgmmaA<'a> {
    /// `a-desc`: a shared memory matrix descriptor in a register.
    Desc(&'a str),
    /// `{a0, a1, a2, a3}`: the warpgroup's fragment of A in registers.
    Regs(&'a [&'a str]),
}

/// The operands of `wgmma.mma_async.sp` (PTX ISA 9.7.15.6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WgmmaSparsity<'a> {
    /// `sp-meta`: the register of the sparsity metadata.
    pub meta: &'a str,
    /// `sp-sel`: the sparsity selector, an immediate (which threads of a group of four hold
    /// the metadata).
    pub selector: u64,
}

/// `wgmma.mma_async` (PTX ISA 9.7.15.5.2; with `.sp`, 9.7.15.6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaAsync<'a> {
    /// N of `.m64nNkK`.
    pub n: u16,
    /// K of `.m64nNkK`.
    pub k: u16,
    /// `.satfinite`.
    pub satfinite: bool,
    /// `.dtype`.
    pub dtype: DType,
    /// `.atype`.
    pub atype: WgmmaType,
    /// `.btype`.
    pub btype: WgmmaType,
    /// `.and` (the `.b1` forms' operation).
    pub op_and: bool,
    /// `.popc` (the `.b1` forms' reduction).
    pub popc: bool,
    /// The accumulator registers `d`.
    pub d: &'a [&'a str],
    /// Matrix A: a descriptor or registers.
    pub a: WgmmaA<'a>,
    /// B's shared memory descriptor.
    pub b_desc: &'a str,
    /// `.sp` with its metadata and selector.
    pub sparse: Option<WgmmaSparsity<'a>>,
    /// `scale-d`: a predicate or 0 / 1 (D = A*B + D when true, A*B when false).
    pub scale_d: Value<'a, u64>,
    /// `imm-scale-a`, `imm-scale-b` (1 or -1) as written.
    pub imm_scale: Option<(i64, i64)>,
    /// `imm-trans-a` (0 or 1) as written; only with A in shared memory.
    pub imm_trans_a: Option<i64>,
    /// `imm-trans-b` (0 or 1) as written.
    pub imm_trans_b: Option<i64>,
}

impl<'a> MmaAsync<'a> {
    /// The dense form of these types with A in shared memory, N, and K from the A type;
    /// without `.satfinite`, `.and.popc` or immediates.
    #[allow(clippy::too_many_arguments)]
    #[must_use]
    pub const fn new(
        n: u16,
        dtype: DType,
        atype: WgmmaType,
        btype: WgmmaType,
        d: &'a [&'a str],
        a_desc: &'a str,
        b_desc: &'a str,
        scale_d: Value<'a, u64>,
    ) -> Self {
        MmaAsync {
            n,
            k: atype.k(),
            satfinite: false,
            dtype,
            atype,
            btype,
            op_and: false,
            popc: false,
            d,
            a: WgmmaA::Desc(a_desc),
            b_desc,
            sparse: None,
            scale_d,
            imm_scale: None,
            imm_trans_a: None,
            imm_trans_b: None,
        }
    }

    /// The lowest PTX ISA version (major * 10 + minor) of the form, on `sm_90a`:
    /// [`MIXED_INTEGER_PTX`] for mixed `.s8` / `.u8` inputs, [`SPARSE`]'s for `.sp`,
    /// [`INTRODUCED`]'s otherwise.
    #[must_use]
    pub const fn introduced(&self) -> u8 {
        if self.atype.integer() && self.btype.integer() && self.atype as u8 != self.btype as u8 {
            MIXED_INTEGER_PTX
        } else if self.sparse.is_some() {
            SPARSE.ptx
        } else {
            INTRODUCED.0
        }
    }

    /// Whether the form is legal (PTX ISA 9.7.15.5.2, 9.7.15.6.2) at PTX ISA
    /// [`MmaAsync::introduced`]: the types go together, the shape's K is the A type's (twice
    /// it with `.sp`), N is one the types allow, `.satfinite` only for s32 with 8-bit inputs,
    /// `.and.popc` exactly with `.b1`, which has no `.sp`; the immediates present exactly
    /// where the types and A's source take them, and of their values; A in four registers;
    /// the sparsity selector 0 or 1 for 16- and 32-bit types, 0 for 8-bit ones (ptxas 13.5:
    /// "unexpected value '2', expected to be 0 or 1"); and `d` has its length.
    ///
    /// # Errors
    /// The first rule broken, in words.
    pub const fn validate(&self) -> Result<(), &'static str> {
        if let Err(e) = self.validate_types() {
            return Err(e);
        }
        if let Err(e) = self.validate_immediates() {
            return Err(e);
        }
        if let WgmmaA::Regs(a) = self.a {
            if a.len() != 4 {
                return Err("A in registers is four registers {a0, a1, a2, a3}");
            }
        }
        if let Some(sp) = self.sparse {
            let max = if self.atype.bits() == 8 { 0 } else { 1 };
            if sp.selector > max {
                return Err("sp-sel is 0 or 1 for f16, bf16 and tf32, 0 for 8-bit types");
            }
        }
        if let Value::Imm(s) = self.scale_d {
            if s > 1 {
                return Err("an immediate scale-d is 0 or 1");
            }
        }
        let per_thread = match self.dtype {
            DType::F16 => self.n / 4,
            _ => self.n / 2,
        };
        if self.d.len() != per_thread as usize {
            return Err("d has N/2 registers (f32, s32) or N/4 (f16) per thread");
        }
        Ok(())
    }

    /// The types, the shape and the qualifiers that go with the types.
    const fn validate_types(&self) -> Result<(), &'static str> {
        let (a, b) = (self.atype, self.btype);
        let types_ok = match a {
            WgmmaType::F16 => matches!(b, WgmmaType::F16) && !matches!(self.dtype, DType::S32),
            WgmmaType::Bf16 | WgmmaType::Tf32 => {
                b as u8 == a as u8 && matches!(self.dtype, DType::F32)
            }
            WgmmaType::E4m3 | WgmmaType::E5m2 => {
                matches!(b, WgmmaType::E4m3 | WgmmaType::E5m2) && !matches!(self.dtype, DType::S32)
            }
            WgmmaType::S8 | WgmmaType::U8 => b.integer() && matches!(self.dtype, DType::S32),
            WgmmaType::B1 => matches!(b, WgmmaType::B1) && matches!(self.dtype, DType::S32),
        };
        if !types_ok {
            return Err(".dtype, .atype and .btype are no wgmma combination");
        }
        let b1 = matches!(a, WgmmaType::B1);
        if b1 && self.sparse.is_some() {
            return Err(".b1 has no .sp form");
        }
        if self.op_and != b1 || self.popc != b1 {
            return Err(".and.popc goes with .b1, and .b1 takes it");
        }
        let k = if self.sparse.is_some() {
            2 * a.k()
        } else {
            a.k()
        };
        if self.k != k {
            return Err("K of the shape is not the one of .atype (256 bits of A, 8 for tf32; twice that with .sp)");
        }
        if self.n == 0 || self.n % 8 != 0 || self.n > 256 {
            return Err("N must be a multiple of 8 from 8 to 256");
        }
        if (a.integer() || b1) && self.n > 32 && self.n % 16 != 0 {
            return Err("with .s8/.u8/.b1, N above 32 must be a multiple of 16");
        }
        if self.satfinite && !a.integer() {
            return Err(".satfinite is for .s8 / .u8 inputs into .s32 only");
        }
        Ok(())
    }

    /// The trailing immediates: present exactly where the types and A's source take them.
    const fn validate_immediates(&self) -> Result<(), &'static str> {
        let a = self.atype;
        let float = !a.integer() && !matches!(a, WgmmaType::B1);
        match (self.imm_scale, float) {
            (Some(_), false) => return Err("integer forms take no imm-scale-a / imm-scale-b"),
            (None, true) => return Err("floating-point forms take imm-scale-a and imm-scale-b"),
            (Some((x, y)), true) if (x != 1 && x != -1) || (y != 1 && y != -1) => {
                return Err("imm-scale-a / imm-scale-b must be 1 or -1")
            }
            _ => {}
        }
        let trans = a.bits() == 16;
        let regs = matches!(self.a, WgmmaA::Regs(_));
        match (self.imm_trans_a, trans && !regs) {
            (Some(_), false) => {
                return Err("only f16 / bf16 forms with A in shared memory take imm-trans-a")
            }
            (None, true) => return Err("f16 / bf16 forms with a-desc take imm-trans-a"),
            (Some(x), true) if x != 0 && x != 1 => return Err("imm-trans-a must be 0 or 1"),
            _ => {}
        }
        match (self.imm_trans_b, trans) {
            (Some(_), false) => return Err("only f16 / bf16 forms take imm-trans-b"),
            (None, true) => return Err("f16 / bf16 forms take imm-trans-b"),
            (Some(x), true) if x != 0 && x != 1 => return Err("imm-trans-b must be 0 or 1"),
            _ => {}
        }
        if self.imm_scale.is_none() && (self.imm_trans_a.is_some() || self.imm_trans_b.is_some()) {
            return Err("imm-trans-a / imm-trans-b come after imm-scale-a and imm-scale-b");
        }
        Ok(())
    }
}

/// A wgmma instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wgmma<'a> {
    /// `wgmma.mma_async`.
    MmaAsync(MmaAsync<'a>),
    /// `wgmma.fence.sync.aligned`.
    Fence,
    /// `wgmma.commit_group.sync.aligned`.
    CommitGroup,
    /// `wgmma.wait_group.sync.aligned N`: wait until at most N groups are pending.
    WaitGroup(u64),
}

/// `g` with each required slot at its first value (the one of a single spelling).
const fn spelled<'a>(g: &'static Grammar) -> Spelled<'a> {
    let mut s = Spelled::empty(g);
    let mut i = 0;
    while i < g.slots.len() {
        if g.slots[i].required {
            s.quals[i] = Some(0);
        }
        i += 1;
    }
    s
}

impl<'a> Wgmma<'a> {
    /// The form spelled out in its grammar.
    #[must_use]
    pub fn spell(&self) -> Spelled<'a> {
        match *self {
            Wgmma::Fence => spelled(&FENCE),
            Wgmma::CommitGroup => spelled(&COMMIT_GROUP),
            Wgmma::WaitGroup(n) => spelled(&WAIT_GROUP).op(0, Arg::Imm(n)),
            Wgmma::MmaAsync(m) => spell_mma_async(&m),
        }
    }

    /// The typed form of a spelled one (its vector operands as given). `None` where the
    /// spelling is no typed form: a shape the slot does not spell, or `imm-scale-a` without
    /// `imm-scale-b`.
    #[must_use]
    pub fn from_spelled(s: &Spelled<'a>) -> Option<Self> {
        let g = s.grammar;
        if core::ptr::eq(g, &FENCE) {
            return Some(Wgmma::Fence);
        }
        if core::ptr::eq(g, &COMMIT_GROUP) {
            return Some(Wgmma::CommitGroup);
        }
        if core::ptr::eq(g, &WAIT_GROUP) {
            return match s.operands[0] {
                Some(Arg::Imm(v)) => Some(Wgmma::WaitGroup(v)),
                _ => None,
            };
        }
        mma_async_of(s).map(Wgmma::MmaAsync)
    }

    /// Writes the instruction as one line of PTX (ending in `;`), without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        write_spelled(w, &self.spell(), Syntax::Ptx)
    }
}

/// `m` spelled out in [`MMA_ASYNC`].
fn spell_mma_async<'a>(m: &MmaAsync<'a>) -> Spelled<'a> {
    let mut s = spelled(&MMA_ASYNC);
    s.quals[slot::SP] = m.sparse.map(|_| 0);
    s.quals[slot::SHAPE] = shape_value(m.n, m.k);
    s.quals[slot::SATFINITE] = m.satfinite.then_some(0);
    s.quals[slot::DTYPE] = Some(m.dtype as u16);
    s.quals[slot::ATYPE] = Some(m.atype as u16);
    s.quals[slot::BTYPE] = Some(m.btype as u16);
    s.quals[slot::AND] = m.op_and.then_some(0);
    s.quals[slot::POPC] = m.popc.then_some(0);
    let imm = |v: i64| Some(Arg::Imm(v as u64));
    let ops = [
        Some(Arg::Vector(m.d)),
        Some(match m.a {
            WgmmaA::Desc(r) => Arg::Reg(r),
            WgmmaA::Regs(r) => Arg::Vector(r),
        }),
        Some(Arg::Reg(m.b_desc)),
        m.sparse.map(|sp| Arg::Reg(sp.meta)),
        m.sparse.map(|sp| Arg::Imm(sp.selector)),
        Some(match m.scale_d {
            Value::Reg(r) => Arg::Reg(r),
            Value::Imm(v) => Arg::Imm(v),
        }),
        m.imm_scale.and_then(|x| imm(x.0)),
        m.imm_scale.and_then(|x| imm(x.1)),
        m.imm_trans_a.and_then(imm),
        m.imm_trans_b.and_then(imm),
    ];
    s.operands[..ops.len()].copy_from_slice(&ops);
    s
}

/// The typed `mma_async` of a spelling of [`MMA_ASYNC`].
fn mma_async_of<'a>(s: &Spelled<'a>) -> Option<MmaAsync<'a>> {
    let (n, k) = shape_of(s.quals[slot::SHAPE]?);
    let imm = |i: usize| match s.operands[i] {
        Some(Arg::Imm(v)) => Some(v),
        _ => None,
    };
    let reg = |i: usize| match s.operands[i] {
        Some(Arg::Reg(r)) => Some(r),
        _ => None,
    };
    let imm_scale = match (imm(6), imm(7)) {
        (Some(x), Some(y)) => Some((x as i64, y as i64)),
        (None, None) => None,
        _ => return None,
    };
    let sparse = match s.quals[slot::SP] {
        Some(_) => Some(WgmmaSparsity {
            meta: reg(3)?,
            selector: imm(4)?,
        }),
        None => None,
    };
    Some(MmaAsync {
        n,
        k,
        satfinite: s.quals[slot::SATFINITE].is_some(),
        dtype: *DType::ALL.get(usize::from(s.quals[slot::DTYPE]?))?,
        atype: *WgmmaType::ALL.get(usize::from(s.quals[slot::ATYPE]?))?,
        btype: *WgmmaType::ALL.get(usize::from(s.quals[slot::BTYPE]?))?,
        op_and: s.quals[slot::AND].is_some(),
        popc: s.quals[slot::POPC].is_some(),
        d: match s.operands[0] {
            Some(Arg::Vector(v)) => v,
            _ => return None,
        },
        a: match s.operands[slot::A]? {
            Arg::Reg(r) => WgmmaA::Desc(r),
            Arg::Vector(v) => WgmmaA::Regs(v),
            _ => return None,
        },
        b_desc: reg(2)?,
        sparse,
        scale_d: match s.operands[5]? {
            Arg::Reg(r) => Value::Reg(r),
            Arg::Imm(v) => Value::Imm(v),
            _ => return None,
        },
        imm_scale,
        imm_trans_a: imm(8).map(|v| v as i64),
        imm_trans_b: imm(9).map(|v| v as i64),
    })
}
