//! Each typed form to and from its [`Spelled`] grammar form ([`crate::ptx::syntax`]): the one
//! mapping between the builders' fields and the grammar's slots and operands, which both the
//! writer and the reader use.

use super::form_error::{FormError, FormRule};
use super::grammar::{Arg, Grammar, Spelled};
use super::syntax::{
    collector_of_value, cp_slot, ld_op, ld_slot, mma_op, mma_slot, st_slot, ALLOC, ALLOC_EXCLUSIVE,
    COMMIT, COMMIT_MULTICAST, COMMIT_SYNC_RESTRICT, CP, DEALLOC, FENCE, KIND_TI16, LD, MMA,
    RELINQUISH, SHIFT, ST, WAIT,
};
use super::{
    ASource, Alloc, BlockScale, Collector, CollectorOp, Commit, CommitMulticast, Cp,
    CpSourceFormat, Dealloc, Fence, Instruction, Mma, RedOp, RedType, Reduction, Shift, Spcompress,
    TmemLoad, TmemStore, Value, Wait,
};
use crate::mma::{CtaGroup, Kind, ScaleVec};
use crate::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};

/// The index of `$v` in `$all`, an array of a field-less enum.
macro_rules! index_in {
    ($all:expr, $v:expr) => {{
        let all = $all;
        let mut i = 0;
        while i < all.len() && all[i] as u32 != $v as u32 {
            i += 1;
        }
        i as u16
    }};
}

const fn cta(g: CtaGroup) -> u16 {
    match g {
        CtaGroup::One => 0,
        CtaGroup::Two => 1,
    }
}

const fn reg_or_imm<'a>(v: Value<'a, u64>) -> Arg<'a> {
    match v {
        Value::Reg(r) => Arg::Reg(r),
        Value::Imm(i) => Arg::Imm(i),
    }
}

const fn reg_or_imm32<'a>(v: Value<'a, u32>) -> Arg<'a> {
    match v {
        Value::Reg(r) => Arg::Reg(r),
        Value::Imm(i) => Arg::Imm(i as u64),
    }
}

const fn collector_value(c: Collector) -> u16 {
    match c {
        Collector::A(op) => op as u16,
        Collector::B(n, op) => 4 + n as u16 * 4 + op as u16,
    }
}

impl<'a> Mma<'a> {
    const fn spell(self) -> Spelled<'a> {
        let mut s = Spelled::empty(&MMA)
            .q(0, 0)
            .flag(mma_slot::WS, self.ws)
            .flag(mma_slot::SP, self.sparse_metadata.is_some())
            .q(mma_slot::CTA, cta(self.cta_group))
            .q(
                mma_slot::KIND,
                if self.ti16 {
                    KIND_TI16
                } else {
                    index_in!(Kind::ALL, self.kind)
                },
            )
            .flag(mma_slot::ASHIFT, self.ashift)
            .op(0, Arg::Addr(self.d, 0))
            .op(
                1,
                match self.a {
                    ASource::Smem(r) => Arg::Reg(r),
                    ASource::Tmem(r) => Arg::Addr(r, 0),
                },
            )
            .op(2, Arg::Reg(self.b))
            .op(mma_op::IDESC, reg_or_imm32(self.idesc))
            .op(
                mma_op::ENABLE,
                match self.enable_input_d {
                    Value::Reg(r) => Arg::Reg(r),
                    Value::Imm(b) => Arg::Imm(b as u64),
                },
            );
        if let Some(m) = self.sparse_metadata {
            s = s.op(mma_op::SP_META, Arg::Addr(m, 0));
        }
        if let Some(m) = self.decompress_lut {
            s = s
                .flag(mma_slot::DECOMPRESS, true)
                .op(mma_op::LUT, Arg::Addr(m, 0));
        }
        if let Some(bs) = self.block_scale {
            s = s.flag(mma_slot::BLOCK_SCALE, true);
            if !matches!(bs.vec, ScaleVec::Default) {
                s = s.q(mma_slot::SCALE_VEC, index_in!(ScaleVec::ALL, bs.vec) - 1);
            }
            s = s
                .op(mma_op::SCALE_A, Arg::Addr(bs.scale_a, 0))
                .op(mma_op::SCALE_B, Arg::Addr(bs.scale_b, 0));
        }
        if let Some(c) = self.collector {
            s = s.q(mma_slot::COLLECTOR, collector_value(c));
        }
        if let Some(op) = self.collector_b {
            s = s.q(mma_slot::COLLECTOR_B, op as u16);
        }
        if let Some(v) = self.disable_output_lane {
            s = s.op(mma_op::DISABLE, Arg::Vector(v));
        }
        if let Some(v) = self.scale_input_d {
            s = s.op(mma_op::SCALE_INPUT_D, Arg::Imm(v as u64));
        }
        if let Some(z) = self.zero_column_mask {
            s = s.op(mma_op::ZMASK, reg_or_imm(z));
        }
        s
    }
}

impl<'a> TmemLoad<'a> {
    const fn spell(self) -> Spelled<'a> {
        let mut s = Spelled::empty(&LD)
            .q(0, 0)
            .q(ld_slot::SYNC, 0)
            .q(ld_slot::ALIGNED, 0)
            .q(ld_slot::SHAPE, index_in!(LdStShape::ALL, self.shape))
            .q(ld_slot::NUM, index_in!(Num::ALL, self.num))
            .flag(ld_slot::PACK, self.pack)
            .q(ld_slot::TYPE, 0)
            .op(ld_op::R, Arg::Vector(self.dst))
            .op(ld_op::TADDR, Arg::Addr(self.taddr, 0));
        if let Some(sp) = self.spcompress {
            s = s
                .flag(ld_slot::SPCOMPRESS, true)
                .q(ld_slot::RED_OP, sp.op as u16)
                .flag(ld_slot::SP, true)
                .flag(ld_slot::ABS, sp.abs)
                .q(ld_slot::TYPE, 1 + RedType::F32 as u16)
                .flag(ld_slot::B2, true)
                .op(ld_op::MDATA, Arg::Vector(sp.mdata));
        }
        if let Some(r) = self.red {
            s = s
                .flag(ld_slot::RED, true)
                .q(ld_slot::RED_OP, r.op as u16)
                .flag(ld_slot::ABS, r.abs)
                .flag(ld_slot::NAN, r.nan)
                .q(ld_slot::TYPE, 1 + r.ty as u16)
                .op(ld_op::REDVAL, Arg::Reg(r.redval));
        }
        if let Some(o) = self.offset {
            s = s.op(ld_op::OFFSET, Arg::Imm(o as u64));
        }
        s
    }
}

impl<'a> TmemStore<'a> {
    const fn spell(self) -> Spelled<'a> {
        let mut s = Spelled::empty(&ST)
            .q(0, 0)
            .q(1, 0)
            .q(2, 0)
            .q(st_slot::SHAPE, index_in!(LdStShape::ALL, self.shape))
            .q(st_slot::NUM, index_in!(Num::ALL, self.num))
            .flag(st_slot::UNPACK, self.unpack)
            .q(6, 0)
            .op(0, Arg::Addr(self.taddr, 0))
            .op(2, Arg::Vector(self.src));
        if let Some(o) = self.offset {
            s = s.op(1, Arg::Imm(o as u64));
        }
        s
    }
}

impl<'a> Instruction<'a> {
    /// The form in its grammar ([`crate::ptx::syntax`]): what [`Instruction::write_unchecked`]
    /// writes.
    #[must_use]
    pub const fn spell(&self) -> Spelled<'a> {
        match *self {
            Instruction::Mma(m) => m.spell(),
            Instruction::Load(l) => l.spell(),
            Instruction::Store(st) => st.spell(),
            Instruction::Cp(c) => {
                let mut s = Spelled::empty(&CP)
                    .q(0, 0)
                    .q(cp_slot::CTA, cta(c.cta_group))
                    .q(cp_slot::SHAPE, index_in!(CpShape::ALL, c.shape))
                    .op(0, Arg::Addr(c.taddr, 0))
                    .op(1, reg_or_imm(c.sdesc));
                if !matches!(c.multicast, CpMulticast::None) {
                    s = s.q(cp_slot::MULTICAST, c.multicast.code() as u16 - 1);
                }
                if let Some(f) = c.source_format {
                    s = s.flag(cp_slot::B8X16, true).q(cp_slot::SRC_FMT, f as u16);
                }
                s
            }
            Instruction::Shift(sh) => Spelled::empty(&SHIFT)
                .q(0, 0)
                .q(1, cta(sh.cta_group))
                .q(2, 0)
                .op(0, Arg::Addr(sh.taddr, 0)),
            Instruction::Alloc(a) => Spelled::empty(&ALLOC)
                .q(0, 0)
                .flag(ALLOC_EXCLUSIVE, a.exclusive)
                .q(2, cta(a.cta_group))
                .q(3, 0)
                .q(4, 0)
                .q(5, 0)
                .q(6, 0)
                .op(0, Arg::Addr(a.dst, 0))
                .op(1, reg_or_imm32(a.n_cols)),
            Instruction::Dealloc(a) => Spelled::empty(&DEALLOC)
                .q(0, 0)
                .flag(ALLOC_EXCLUSIVE, a.exclusive)
                .q(2, cta(a.cta_group))
                .q(3, 0)
                .q(4, 0)
                .q(5, 0)
                .op(0, Arg::Reg(a.taddr))
                .op(1, reg_or_imm32(a.n_cols)),
            Instruction::RelinquishAllocPermit(g) => Spelled::empty(&RELINQUISH)
                .q(0, 0)
                .q(1, cta(g))
                .q(2, 0)
                .q(3, 0),
            Instruction::Commit(c) => {
                let s = Spelled::empty(&COMMIT)
                    .q(0, 0)
                    .q(1, cta(c.cta_group))
                    .q(2, 0)
                    .flag(COMMIT_SYNC_RESTRICT, c.sync_restrict_a)
                    .q(4, 0)
                    .q(6, 0)
                    .op(0, Arg::Addr(c.mbar, 0));
                let mc = c.multicast_spelling as u16;
                match c.multicast {
                    None => s,
                    Some(Value::Reg(r)) => s.q(COMMIT_MULTICAST, mc).op(1, Arg::Reg(r)),
                    Some(Value::Imm(m)) => s.q(COMMIT_MULTICAST, mc).op(1, Arg::Imm(m as u64)),
                }
            }
            Instruction::Fence(f) => Spelled::empty(&FENCE).q(0, f as u16),
            Instruction::Wait(w) => Spelled::empty(&WAIT).q(0, w as u16).q(1, 0).q(2, 0),
        }
    }
}

/// Reads the fields of a typed form out of a [`Spelled`] whose slots and operands the reader
/// has matched against the grammar.
struct Fields<'s, 'a> {
    s: &'s Spelled<'a>,
}

impl<'a> Fields<'_, 'a> {
    fn grammar(&self) -> &'static Grammar {
        self.s.grammar
    }

    fn error(&self, rule: FormRule, what: &'static str, operand: Option<usize>) -> FormError<'a> {
        FormError {
            rule,
            form: self.grammar().name,
            what,
            text: "",
            operand,
            section: self.grammar().section,
        }
    }

    fn flag(&self, slot: usize) -> bool {
        self.s.quals[slot].is_some()
    }

    fn req(&self, slot: usize) -> Result<usize, FormError<'a>> {
        match self.s.quals[slot] {
            Some(v) => Ok(usize::from(v)),
            None => Err(self.error(
                FormRule::MissingQualifier,
                self.grammar().slots[slot].name,
                None,
            )),
        }
    }

    fn cta(&self, slot: usize) -> Result<CtaGroup, FormError<'a>> {
        Ok(if self.req(slot)? == 0 {
            CtaGroup::One
        } else {
            CtaGroup::Two
        })
    }

    fn arg(&self, i: usize) -> Result<Arg<'a>, FormError<'a>> {
        self.s.operands[i].ok_or_else(|| {
            self.error(
                FormRule::MissingOperand,
                self.grammar().operands[i].name,
                Some(i),
            )
        })
    }

    fn shape_error(&self, i: usize) -> FormError<'a> {
        let slot = self.grammar().operands[i];
        self.error(
            FormRule::OperandShape {
                expected: slot.shape,
            },
            slot.name,
            Some(i),
        )
    }

    /// A register or an address (the name either way).
    fn name(&self, i: usize) -> Result<&'a str, FormError<'a>> {
        match self.arg(i)? {
            Arg::Reg(r) | Arg::Addr(r, _) => Ok(r),
            _ => Err(self.shape_error(i)),
        }
    }

    fn opt_name(&self, i: usize) -> Result<Option<&'a str>, FormError<'a>> {
        self.s.operands[i].map(|_| self.name(i)).transpose()
    }

    fn vector(&self, i: usize) -> Result<&'a [&'a str], FormError<'a>> {
        match self.arg(i)? {
            Arg::Vector(v) => Ok(v),
            _ => Err(self.shape_error(i)),
        }
    }

    /// A register or an immediate that fits `T` (the reader has checked its width).
    fn value<T: TryFrom<u64>>(&self, i: usize) -> Result<Value<'a, T>, FormError<'a>> {
        match self.arg(i)? {
            Arg::Reg(r) => Ok(Value::Reg(r)),
            Arg::Imm(v) => T::try_from(v).map(Value::Imm).map_err(|_| {
                let slot = self.grammar().operands[i];
                self.error(
                    FormRule::ImmediateTooWide { max: slot.max },
                    slot.name,
                    Some(i),
                )
            }),
            _ => Err(self.shape_error(i)),
        }
    }

    fn opt_value<T: TryFrom<u64>>(&self, i: usize) -> Result<Option<Value<'a, T>>, FormError<'a>> {
        self.s.operands[i].map(|_| self.value(i)).transpose()
    }

    fn opt_imm<T: TryFrom<u64>>(&self, i: usize) -> Result<Option<T>, FormError<'a>> {
        match self.opt_value::<T>(i)? {
            None => Ok(None),
            Some(Value::Imm(v)) => Ok(Some(v)),
            Some(Value::Reg(_)) => Err(self.shape_error(i)),
        }
    }

    fn mma(&self) -> Result<Mma<'a>, FormError<'a>> {
        let a = match self.arg(1)? {
            Arg::Reg(r) => ASource::Smem(r),
            Arg::Addr(r, _) => ASource::Tmem(r),
            _ => return Err(self.shape_error(1)),
        };
        let enable_input_d = match self.value::<u64>(mma_op::ENABLE)? {
            Value::Reg(r) => Value::Reg(r),
            Value::Imm(v) => Value::Imm(v != 0),
        };
        let block_scale = if self.flag(mma_slot::BLOCK_SCALE) {
            Some(BlockScale {
                vec: match self.s.quals[mma_slot::SCALE_VEC] {
                    Some(v) => ScaleVec::ALL[usize::from(v) + 1],
                    None => ScaleVec::Default,
                },
                scale_a: self.name(mma_op::SCALE_A)?,
                scale_b: self.name(mma_op::SCALE_B)?,
            })
        } else {
            None
        };
        let collector = self.s.quals[mma_slot::COLLECTOR].map(collector_of_value);
        let kind = self.req(mma_slot::KIND)?;
        let ti16 = kind == usize::from(KIND_TI16);
        Ok(Mma {
            cta_group: self.cta(mma_slot::CTA)?,
            // `.kind::ti16` is held by `ti16`; `kind` then keeps its default and is not read.
            kind: if ti16 { Kind::F16 } else { Kind::ALL[kind] },
            ws: self.flag(mma_slot::WS),
            sparse_metadata: self.opt_name(mma_op::SP_META)?,
            d: self.name(0)?,
            a,
            b: self.name(2)?,
            idesc: self.value(mma_op::IDESC)?,
            block_scale,
            collector,
            ashift: self.flag(mma_slot::ASHIFT),
            disable_output_lane: self.s.operands[mma_op::DISABLE]
                .map(|_| self.vector(mma_op::DISABLE))
                .transpose()?,
            enable_input_d,
            scale_input_d: self.opt_imm(mma_op::SCALE_INPUT_D)?,
            zero_column_mask: self.opt_value(mma_op::ZMASK)?,
            ti16,
            decompress_lut: self.opt_name(mma_op::LUT)?,
            collector_b: self.s.quals[mma_slot::COLLECTOR_B]
                .map(|v| CollectorOp::ALL[usize::from(v) & 3]),
        })
    }

    fn load(&self) -> Result<TmemLoad<'a>, FormError<'a>> {
        let ty = self.req(ld_slot::TYPE)?;
        let sp = self.flag(ld_slot::SPCOMPRESS);
        let op =
            self.s.quals[ld_slot::RED_OP].map(|v| if v == 0 { RedOp::Min } else { RedOp::Max });
        let red = self.flag(ld_slot::RED);
        if !red && !sp {
            // `.op` and `.abs` go with `.red` or `.spcompress` (PTX ISA 9.7.16.8.3).
            for (slot, what) in [(ld_slot::RED_OP, "op"), (ld_slot::ABS, "abs")] {
                if let Some(v) = self.s.quals[slot] {
                    let mut e = self.error(FormRule::QualifierNeeds { needs: "red" }, what, None);
                    e.text = if slot == ld_slot::ABS {
                        "abs"
                    } else {
                        ["min", "max"][usize::from(v) & 1]
                    };
                    return Err(e);
                }
            }
        }
        let spcompress = if sp {
            Some(self.spcompress(ty, op)?)
        } else {
            None
        };
        let red = if red {
            if ty == 0 {
                let mut e = self.error(FormRule::QualifierExcludes { with: "red" }, "type", None);
                e.text = "b32";
                return Err(e);
            }
            let Some(op) = op else {
                return Err(self.error(FormRule::MissingQualifier, "op", None));
            };
            Some(Reduction {
                op,
                abs: self.flag(ld_slot::ABS),
                nan: self.flag(ld_slot::NAN),
                ty: [RedType::F32, RedType::U32, RedType::S32][ty - 1],
                redval: self.name(ld_op::REDVAL)?,
            })
        } else {
            if ty != 0 && !sp {
                let mut e = self.error(FormRule::QualifierNeeds { needs: "red" }, "type", None);
                e.text = ["b32", "f32", "u32", "s32"][ty];
                return Err(e);
            }
            None
        };
        Ok(TmemLoad {
            shape: LdStShape::ALL[self.req(ld_slot::SHAPE)?],
            num: Num::ALL[self.req(ld_slot::NUM)?],
            pack: self.flag(ld_slot::PACK),
            dst: self.vector(ld_op::R)?,
            taddr: self.name(ld_op::TADDR)?,
            offset: self.opt_imm(ld_op::OFFSET)?,
            red,
            spcompress,
        })
    }

    /// The `.spcompress` part: `.op`, `.sp::2:4`, `.f32` and `.b2` are required with it (ptxas
    /// 13.5.37, docs/ptx-9.5.md); with `.red` another type is read, and refused by validation.
    fn spcompress(&self, ty: usize, op: Option<RedOp>) -> Result<Spcompress<'a>, FormError<'a>> {
        let Some(op) = op else {
            return Err(self.error(FormRule::MissingQualifier, "op", None));
        };
        for slot in [ld_slot::SP, ld_slot::B2] {
            if self.s.quals[slot].is_none() {
                return Err(self.error(FormRule::MissingQualifier, LD.slots[slot].name, None));
            }
        }
        // With `.red`, `.u32` / `.s32` read as the reduction's type (validation refuses them).
        if ty == 0 || (ty != 1 && !self.flag(ld_slot::RED)) {
            let mut e = self.error(
                FormRule::QualifierExcludes { with: "spcompress" },
                "type",
                None,
            );
            e.text = ["b32", "f32", "u32", "s32"][ty];
            return Err(e);
        }
        Ok(Spcompress {
            op,
            abs: self.flag(ld_slot::ABS),
            mdata: self.vector(ld_op::MDATA)?,
        })
    }

    fn store(&self) -> Result<TmemStore<'a>, FormError<'a>> {
        Ok(TmemStore {
            shape: LdStShape::ALL[self.req(st_slot::SHAPE)?],
            num: Num::ALL[self.req(st_slot::NUM)?],
            unpack: self.flag(st_slot::UNPACK),
            taddr: self.name(0)?,
            offset: self.opt_imm(1)?,
            src: self.vector(2)?,
        })
    }

    fn cp(&self) -> Result<Cp<'a>, FormError<'a>> {
        Ok(Cp {
            cta_group: self.cta(cp_slot::CTA)?,
            shape: CpShape::ALL[self.req(cp_slot::SHAPE)?],
            multicast: match self.s.quals[cp_slot::MULTICAST] {
                Some(v) => CpMulticast::ALL[usize::from(v) + 1],
                None => CpMulticast::None,
            },
            source_format: self.s.quals[cp_slot::SRC_FMT]
                .map(|v| [CpSourceFormat::B6x16P32, CpSourceFormat::B4x16P64][usize::from(v) & 1]),
            taddr: self.name(0)?,
            sdesc: self.value(1)?,
        })
    }

    fn instruction(&self) -> Result<Instruction<'a>, FormError<'a>> {
        let g = self.grammar();
        Ok(if core::ptr::eq(g, &MMA) {
            Instruction::Mma(self.mma()?)
        } else if core::ptr::eq(g, &LD) {
            Instruction::Load(self.load()?)
        } else if core::ptr::eq(g, &ST) {
            Instruction::Store(self.store()?)
        } else if core::ptr::eq(g, &CP) {
            Instruction::Cp(self.cp()?)
        } else if core::ptr::eq(g, &SHIFT) {
            Instruction::Shift(Shift {
                cta_group: self.cta(1)?,
                taddr: self.name(0)?,
            })
        } else if core::ptr::eq(g, &ALLOC) {
            Instruction::Alloc(Alloc {
                cta_group: self.cta(2)?,
                dst: self.name(0)?,
                n_cols: self.value(1)?,
                exclusive: self.flag(ALLOC_EXCLUSIVE),
            })
        } else if core::ptr::eq(g, &DEALLOC) {
            Instruction::Dealloc(Dealloc {
                cta_group: self.cta(2)?,
                taddr: self.name(0)?,
                n_cols: self.value(1)?,
                exclusive: self.flag(ALLOC_EXCLUSIVE),
            })
        } else if core::ptr::eq(g, &RELINQUISH) {
            Instruction::RelinquishAllocPermit(self.cta(1)?)
        } else if core::ptr::eq(g, &COMMIT) {
            Instruction::Commit(Commit {
                cta_group: self.cta(1)?,
                mbar: self.name(0)?,
                multicast: if self.flag(COMMIT_MULTICAST) {
                    Some(self.value(1)?)
                } else {
                    None
                },
                multicast_spelling: match self.s.quals[COMMIT_MULTICAST] {
                    Some(1) => CommitMulticast::Cluster16b,
                    Some(2) => CommitMulticast::Cluster32b,
                    _ => CommitMulticast::Cluster,
                },
                sync_restrict_a: self.flag(COMMIT_SYNC_RESTRICT),
            })
        } else if core::ptr::eq(g, &FENCE) {
            Instruction::Fence(if self.req(0)? == 0 {
                Fence::BeforeThreadSync
            } else {
                Fence::AfterThreadSync
            })
        } else if core::ptr::eq(g, &WAIT) {
            Instruction::Wait(if self.req(0)? == 0 {
                Wait::Ld
            } else {
                Wait::St
            })
        } else {
            return Err(self.error(FormRule::UnknownInstruction, "instruction", None));
        })
    }
}

impl<'a> Instruction<'a> {
    /// The typed form of a [`Spelled`] whose qualifiers and operands match its grammar (what
    /// [`crate::ptx::parse`] reads); the inverse of [`Instruction::spell`].
    ///
    /// # Errors
    /// A [`FormError`] (without text) where the spelled form is no typed form: a required slot
    /// or operand missing, an operand of the wrong kind, `.b32` with `.red` or `.f32` without
    /// it, an immediate too wide.
    pub fn from_spelled(s: &Spelled<'a>) -> Result<Instruction<'a>, FormError<'a>> {
        Fields { s }.instruction()
    }
}
