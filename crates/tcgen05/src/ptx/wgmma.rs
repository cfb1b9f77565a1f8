//! `wgmma` (Hopper's warpgroup MMA, PTX ISA 9.7.15) as data: the qualifier slots and operand
//! positions of `wgmma.mma_async`, `wgmma.fence`, `wgmma.commit_group` and `wgmma.wait_group`
//! (each a [`Grammar`], the tables tcgen05's forms are written in, introduced on `sm_90a`:
//! [`HOPPER`]), their typed forms ([`Wgmma`]), the writer ([`Wgmma::write`]) and the reader
//! (`parse_wgmma`, with `alloc`), both walking the same tables, and the legality of a form
//! ([`MmaAsync::validate`]).
//!
//! Every wgmma spelling came with PTX ISA 8.0 for `sm_90a` ([`INTRODUCED`]). Covered: the dense
//! forms with A and B in shared memory (`a-desc`, `b-desc`) for f16, bf16, tf32, e4m3, e5m2, s8
//! and u8; not yet: A in registers, `.sp`, and `.b1` (`.and.popc`).
//!
//! # Examples
//! ```
//! use tcgen05::ptx::{Wgmma, WgmmaType, MmaAsync, DType, Value};
//!
//! let d = ["%f1", "%f2", "%f3", "%f4"];
//! let m = MmaAsync::new(8, DType::F32, WgmmaType::Bf16, WgmmaType::Bf16, &d, "%rd1", "%rd2",
//!                       Value::Reg("%p1"));
//! let m = MmaAsync { imm_scale: Some((1, 1)), imm_trans: Some((0, 1)), ..m };
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
/// spelling: PTX ISA 8.0, `sm_90a` (PTX ISA 9.7.15 target notes). One combination came later:
/// mixed integer types (`.s8.u8`, `.u8.s8`) need PTX ISA 8.4 ([`MmaAsync::introduced`]; ptxas
/// 13.5: "Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4 or later").
pub const INTRODUCED: (u8, &str) = (HOPPER.ptx, HOPPER.target.name());

/// [`INTRODUCED`] as the grammar's slots record it.
pub const HOPPER: Since = Since {
    ptx: 80,
    target: Arch::Sm90a,
};

/// The PTX ISA version that introduced mixed `.s8` / `.u8` input types.
pub const MIXED_INTEGER_PTX: u8 = 84;

/// The K values of the shape slot, in value order: 16 (f16, bf16), 8 (tf32), 32 (8-bit types).
pub const SHAPE_K: [u16; 3] = [16, 8, 32];

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

/// Slot indices of [`MMA_ASYNC`].
mod slot {
    pub const SHAPE: usize = 3;
    pub const SATFINITE: usize = 4;
    pub const DTYPE: usize = 5;
    pub const ATYPE: usize = 6;
    pub const BTYPE: usize = 7;
}

/// Spellings of `.atype` / `.btype`, in [`WgmmaType`] order.
const TYPES: [&str; 7] = ["f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"];
/// Spellings of `.dtype`, in [`DType`] order.
const DTYPES: [&str; 3] = ["f16", "f32", "s32"];

/// A required wgmma slot of one spelling.
const fn fixed(name: &'static str, spelling: &'static [&'static str]) -> Slot {
    Slot::fixed(name, spelling).since(HOPPER)
}

/// A required wgmma slot of several spellings, each after a dot.
const fn one_of(name: &'static str, values: &'static [&'static str]) -> Slot {
    Slot::one_of(name, ".", values).since(HOPPER)
}

/// A wgmma immediate operand, written in decimal with its sign.
const fn imm(name: &'static str, shape: Shape) -> OperandSlot {
    OperandSlot::new(name, shape).imm(ImmStyle::Signed, u64::MAX)
}

/// `wgmma.mma_async.sync.aligned.shape{.satfinite}.dtype.atype.btype d, a-desc, b-desc,
/// scale-d{, imm-scale-a, imm-scale-b{, imm-trans-a, imm-trans-b}}` (PTX ISA 9.7.15.5.2).
pub static MMA_ASYNC: Grammar = Grammar {
    name: "wgmma.mma_async",
    section: "9.7.15.5.2",
    slots: &[
        fixed("instruction", &[".mma_async"]),
        fixed("sync", &[".sync"]),
        fixed("aligned", &[".aligned"]),
        Slot {
            family: Some(Family::Shape {
                m: 64,
                ks: &SHAPE_K,
            }),
            ..one_of("shape", &[])
        },
        Slot::flag("satfinite", &[".satfinite"]).since(HOPPER),
        one_of("dtype", &DTYPES),
        one_of("atype", &TYPES),
        one_of("btype", &TYPES),
    ],
    operands: &[
        OperandSlot::new("d", Shape::Vector),
        OperandSlot::new("a-desc", Shape::Reg),
        OperandSlot::new("b-desc", Shape::Reg),
        imm("scale-d", Shape::RegOrImm),
        imm("imm-scale-a", Shape::Imm).when(When::Trailing),
        imm("imm-scale-b", Shape::Imm).when(When::Trailing),
        imm("imm-trans-a", Shape::Imm).when(When::Trailing),
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
}

impl WgmmaType {
    /// Every type, in slot order.
    pub const ALL: [WgmmaType; 7] = [
        WgmmaType::F16,
        WgmmaType::Bf16,
        WgmmaType::Tf32,
        WgmmaType::E4m3,
        WgmmaType::E5m2,
        WgmmaType::S8,
        WgmmaType::U8,
    ];

    /// Bits of one element.
    #[must_use]
    pub const fn bits(self) -> u16 {
        match self {
            WgmmaType::F16 | WgmmaType::Bf16 => 16,
            WgmmaType::Tf32 => 32,
            _ => 8,
        }
    }

    /// K of the form: 256 bits of A per row, 8 for tf32 (PTX ISA 9.7.15.2).
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

/// `wgmma.mma_async` with A and B in shared memory (PTX ISA 9.7.15.5.2).
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
    /// The accumulator registers `d`.
    pub d: &'a [&'a str],
    /// A's shared memory descriptor.
    pub a_desc: &'a str,
    /// B's shared memory descriptor.
    pub b_desc: &'a str,
    /// `scale-d`: a predicate or 0 / 1 (D = A*B + D when true, A*B when false).
    pub scale_d: Value<'a, u64>,
    /// `imm-scale-a`, `imm-scale-b` (1 or -1) as written.
    pub imm_scale: Option<(i64, i64)>,
    /// `imm-trans-a`, `imm-trans-b` (0 or 1) as written.
    pub imm_trans: Option<(i64, i64)>,
}

impl<'a> MmaAsync<'a> {
    /// The form of these types and N, K from the A type, without `.satfinite` or immediates.
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
            d,
            a_desc,
            b_desc,
            scale_d,
            imm_scale: None,
            imm_trans: None,
        }
    }

    /// The lowest PTX ISA version (major * 10 + minor) of the form, on `sm_90a`:
    /// [`MIXED_INTEGER_PTX`] for mixed `.s8` / `.u8` inputs, [`INTRODUCED`] otherwise.
    #[must_use]
    pub const fn introduced(&self) -> u8 {
        if self.atype.integer() && self.btype.integer() && self.atype as u8 != self.btype as u8 {
            MIXED_INTEGER_PTX
        } else {
            INTRODUCED.0
        }
    }

    /// Whether the form is legal (PTX ISA 9.7.15.5.2) at PTX ISA [`MmaAsync::introduced`]: the types go together, the shape's K is
    /// the A type's, N is one the types allow, `.satfinite` only for s32, the immediates
    /// present exactly where the types take them and of their values, and `d` has its length.
    ///
    /// # Errors
    /// The first rule broken, in words.
    pub const fn validate(&self) -> Result<(), &'static str> {
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
        };
        if !types_ok {
            return Err(".dtype, .atype and .btype are no wgmma combination");
        }
        if self.k != a.k() {
            return Err("K of the shape is not the one of .atype (256 bits of A, 8 for tf32)");
        }
        if self.n == 0 || self.n % 8 != 0 || self.n > 256 {
            return Err("N must be a multiple of 8 from 8 to 256");
        }
        if a.integer() && self.n > 32 && self.n % 16 != 0 {
            return Err("with .s8/.u8, N above 32 must be a multiple of 16");
        }
        if self.satfinite && !matches!(self.dtype, DType::S32) {
            return Err(".satfinite is for .s32 accumulators only");
        }
        match (self.imm_scale, a.integer()) {
            (Some(_), true) => return Err("integer forms take no imm-scale-a / imm-scale-b"),
            (None, false) => return Err("floating-point forms take imm-scale-a and imm-scale-b"),
            (Some((x, y)), false) if (x != 1 && x != -1) || (y != 1 && y != -1) => {
                return Err("imm-scale-a / imm-scale-b must be 1 or -1")
            }
            _ => {}
        }
        match (self.imm_trans, a.bits() == 16) {
            (Some(_), false) => return Err("only f16 / bf16 forms take imm-trans-a / -b"),
            (None, true) => return Err("f16 / bf16 forms take imm-trans-a and imm-trans-b"),
            (Some((x, y)), true) if (x != 0 && x != 1) || (y != 0 && y != 1) => {
                return Err("imm-trans-a / imm-trans-b must be 0 or 1")
            }
            _ => {}
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
            Wgmma::WaitGroup(n) => {
                let mut s = spelled(&WAIT_GROUP);
                s.operands[0] = Some(Arg::Imm(n));
                s
            }
            Wgmma::MmaAsync(m) => {
                let mut s = spelled(&MMA_ASYNC);
                s.quals[slot::SHAPE] = shape_value(m.n, m.k);
                s.quals[slot::SATFINITE] = m.satfinite.then_some(0);
                s.quals[slot::DTYPE] = Some(m.dtype as u16);
                s.quals[slot::ATYPE] = Some(m.atype as u16);
                s.quals[slot::BTYPE] = Some(m.btype as u16);
                let imm = |v: i64| Some(Arg::Imm(v as u64));
                let ops = [
                    Some(Arg::Vector(m.d)),
                    Some(Arg::Reg(m.a_desc)),
                    Some(Arg::Reg(m.b_desc)),
                    Some(match m.scale_d {
                        Value::Reg(r) => Arg::Reg(r),
                        Value::Imm(v) => Arg::Imm(v),
                    }),
                    m.imm_scale.and_then(|x| imm(x.0)),
                    m.imm_scale.and_then(|x| imm(x.1)),
                    m.imm_trans.and_then(|x| imm(x.0)),
                    m.imm_trans.and_then(|x| imm(x.1)),
                ];
                s.operands[..ops.len()].copy_from_slice(&ops);
                s
            }
        }
    }

    /// The typed form of a spelled one (its vector operand `d` as given). `None` where the
    /// spelling is no typed form: a shape the slot does not spell, or the immediates not in
    /// pairs.
    #[must_use]
    pub fn from_spelled(s: &Spelled<'a>) -> Option<Self> {
        let g = s.grammar;
        if core::ptr::eq(g, &FENCE) {
            return Some(Wgmma::Fence);
        }
        if core::ptr::eq(g, &COMMIT_GROUP) {
            return Some(Wgmma::CommitGroup);
        }
        let imm = |i: usize| match s.operands[i] {
            Some(Arg::Imm(v)) => Some(v),
            _ => None,
        };
        if core::ptr::eq(g, &WAIT_GROUP) {
            return imm(0).map(Wgmma::WaitGroup);
        }
        let (n, k) = shape_of(s.quals[slot::SHAPE]?);
        let pair = |i: usize| match (imm(i), imm(i + 1)) {
            (Some(x), Some(y)) => Some(Some((x as i64, y as i64))),
            (None, None) => Some(None),
            _ => None,
        };
        let reg = |i: usize| match s.operands[i] {
            Some(Arg::Reg(r)) => Some(r),
            _ => None,
        };
        let imm_scale = pair(4)?;
        let imm_trans = pair(6)?;
        if imm_scale.is_none() && imm_trans.is_some() {
            return None;
        }
        Some(Wgmma::MmaAsync(MmaAsync {
            n,
            k,
            satfinite: s.quals[slot::SATFINITE].is_some(),
            dtype: *DType::ALL.get(usize::from(s.quals[slot::DTYPE]?))?,
            atype: *WgmmaType::ALL.get(usize::from(s.quals[slot::ATYPE]?))?,
            btype: *WgmmaType::ALL.get(usize::from(s.quals[slot::BTYPE]?))?,
            d: match s.operands[0] {
                Some(Arg::Vector(v)) => v,
                _ => return None,
            },
            a_desc: reg(1)?,
            b_desc: reg(2)?,
            scale_d: match s.operands[3]? {
                Arg::Reg(r) => Value::Reg(r),
                Arg::Imm(v) => Value::Imm(v),
                _ => return None,
            },
            imm_scale,
            imm_trans,
        }))
    }

    /// Writes the instruction as one line of PTX (ending in `;`), without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        write_spelled(w, &self.spell(), Syntax::Ptx)
    }
}
