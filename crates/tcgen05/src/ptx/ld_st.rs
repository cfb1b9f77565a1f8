//! `tcgen05.ld` and `tcgen05.st` (PTX ISA 9.7.16.8.3-9.7.16.8.4).

use super::error::{OperandName, PtxDiagnostics, PtxError, PtxRule, RenderError};
use super::{check_name, check_names, ld_red_on, str_eq, Context, Instruction};
use crate::targets::Target;
use crate::tensor_memory::{registers_per_thread, LdStShape, Num, TMEM_COLUMNS};
use core::fmt;

/// The reduction of `tcgen05.ld.red` (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RedOp {
    /// `.min`.
    Min,
    /// `.max`.
    Max,
}

/// The element type of `tcgen05.ld.red` (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RedType {
    /// `.f32` (takes `.abs` and `.NaN`).
    F32,
    /// `.u32`.
    U32,
    /// `.s32`.
    S32,
}

impl RedType {
    /// The PTX spelling without the dot.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RedType::F32 => "f32",
            RedType::U32 => "u32",
            RedType::S32 => "s32",
        }
    }
}

/// The `.red` part of `tcgen05.ld.red`: min or max across the loaded columns of each lane, into
/// `redval` (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reduction<'a> {
    /// `.min` or `.max`.
    pub op: RedOp,
    /// `.abs` (`.f32` only).
    pub abs: bool,
    /// `.NaN` (`.f32` only).
    pub nan: bool,
    /// The element type.
    pub ty: RedType,
    /// The register that receives the reduction.
    pub redval: &'a str,
}

/// The `.spcompress` part of `tcgen05.ld{.red}.spcompress`: each group of 4 loaded columns
/// keeps its 2 largest (`.max`) or smallest (`.min`) values, 2:4 sparse, into `r` (num / 2
/// registers), with their 2-bit positions (`.b2`) in `mdata` (max(1, num / 32) registers)
/// (PTX ISA 9.4 §9.7.18.8.3, `sm_107a`; the operand sizes as ptxas 13.5.37 takes them,
/// docs/ptx-9.5.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spcompress<'a> {
    /// `.min` or `.max`; with `.red` the reduction's `.op` is written (the two must agree).
    pub op: RedOp,
    /// `.abs`; with `.red` the reduction's `.abs` is written (the two must agree).
    pub abs: bool,
    /// The metadata registers `{mdata}`.
    pub mdata: &'a [&'a str],
}

/// `tcgen05.ld` (and `tcgen05.ld.red`): Tensor Memory to registers (PTX ISA 9.7.16.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemLoad<'a> {
    /// The data-movement shape.
    pub shape: LdStShape,
    /// `.num`.
    pub num: Num,
    /// `.pack::16b`.
    pub pack: bool,
    /// The destination registers, exactly as many as Table 49 says.
    pub dst: &'a [&'a str],
    /// Register holding the Tensor Memory address.
    pub taddr: &'a str,
    /// `immHalfSplitoff` (`.16x32bx2` only), in columns.
    pub offset: Option<u32>,
    /// `.red` and its operands.
    pub red: Option<Reduction<'a>>,
    /// `.spcompress` and its metadata operand (PTX ISA 9.4, `sm_107a`).
    pub spcompress: Option<Spcompress<'a>>,
}

impl<'a> TmemLoad<'a> {
    /// A plain load.
    #[must_use]
    pub const fn new(shape: LdStShape, num: Num, dst: &'a [&'a str], taddr: &'a str) -> Self {
        TmemLoad {
            shape,
            num,
            pack: false,
            dst,
            taddr,
            offset: None,
            red: None,
            spcompress: None,
        }
    }

    /// With `.pack::16b`.
    #[must_use]
    pub const fn with_pack(mut self, pack: bool) -> Self {
        self.pack = pack;
        self
    }

    /// With `immHalfSplitoff`.
    #[must_use]
    pub const fn with_offset(mut self, offset: u32) -> Self {
        self.offset = Some(offset);
        self
    }

    /// With `.red`.
    #[must_use]
    pub const fn with_red(mut self, red: Reduction<'a>) -> Self {
        self.red = Some(red);
        self
    }

    /// With `.spcompress`.
    #[must_use]
    pub const fn with_spcompress(mut self, sp: Spcompress<'a>) -> Self {
        self.spcompress = Some(sp);
        self
    }

    /// 8.6, or 8.8 with `.red`, 9.4 with `.spcompress`: read from the grammar ([`super::syntax::LD`]).
    #[must_use]
    pub const fn min_ptx_version(&self) -> u8 {
        Instruction::Load(*self).min_ptx_version()
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        check_names(self.dst, OperandName::Registers, &mut d);
        if let Some(sp) = self.spcompress {
            self.check_spcompress(&sp, ctx, &mut d);
        } else {
            check_ld_st_common(self.shape, self.num, self.dst.len(), self.offset, &mut d);
        }
        // Duplicate destinations.
        let mut i = 1;
        while i < self.dst.len() {
            let mut j = 0;
            while j < i {
                if str_eq(self.dst[i], self.dst[j]) {
                    d.push(PtxError::rule(PtxRule::DuplicateRegister, i as u64));
                    break;
                }
                j += 1;
            }
            i += 1;
        }
        if let Some(r) = self.red {
            check_name(r.redval, OperandName::Redval, 0, &mut d);
            let mut j = 0;
            while j < self.dst.len() {
                if str_eq(r.redval, self.dst[j]) {
                    d.push(PtxError::rule(
                        PtxRule::DuplicateRegister,
                        self.dst.len() as u64,
                    ));
                    break;
                }
                j += 1;
            }
            if !ld_red_on(ctx.target) && self.spcompress.is_none() {
                d.push(PtxError::named(PtxRule::RedNotOnTarget, ctx.target.name()));
            }
            if self.spcompress.is_none() {
                ctx.check_version(self.min_ptx_version(), "tcgen05.ld.red", &mut d);
            }
            if !matches!(self.shape, LdStShape::S32x32b | LdStShape::S16x32bx2) {
                d.push(PtxError::named(PtxRule::RedShape, self.shape.name()));
            }
            if matches!(self.num, Num::X1) && self.spcompress.is_none() {
                d.push(PtxError::rule(PtxRule::RedNum, 1));
            }
            if self.pack && self.spcompress.is_none() {
                d.push(PtxError::rule(PtxRule::RedPack, 1));
            }
            if (r.abs || r.nan) && !matches!(r.ty, RedType::F32) {
                d.push(PtxError::named(PtxRule::RedAbsNaNType, r.ty.name()));
            }
        }
        d
    }

    /// The rules of `.spcompress` (ptxas 13.5.37 on `sm_107a` at 9.4, docs/ptx-9.5.md): on
    /// `sm_107a` only, from PTX ISA 9.4; `.32x32b`, `.x4` to `.x128`, no `.pack::16b`, no
    /// `immHalfSplitoff`; with `.red`, `.f32` and the same `.op` and `.abs`; `{r}` of num / 2
    /// registers and `{mdata}` of max(1, num / 32), the metadata distinct from `{r}`.
    const fn check_spcompress(&self, sp: &Spcompress<'a>, ctx: &Context, d: &mut PtxDiagnostics) {
        check_names(sp.mdata, OperandName::Registers, d);
        if !matches!(ctx.target, Target::Sm107a) {
            d.push(PtxError::named(
                PtxRule::SpcompressNotOnTarget,
                ctx.target.name(),
            ));
        }
        ctx.check_version(94, "tcgen05.ld.spcompress", d);
        if !matches!(self.shape, LdStShape::S32x32b) {
            spcompress_form(d, self.shape.name());
        }
        if matches!(self.num, Num::X1 | Num::X2) {
            spcompress_form(
                d,
                if matches!(self.num, Num::X1) {
                    ".x1"
                } else {
                    ".x2"
                },
            );
        }
        if self.pack {
            spcompress_form(d, ".pack::16b");
        }
        if self.offset.is_some() {
            spcompress_form(d, "immHalfSplitoff");
        }
        if let Some(r) = self.red {
            if !matches!(r.ty, RedType::F32) {
                spcompress_form(d, r.ty.name());
            }
            if r.op as u8 != sp.op as u8 || r.abs != sp.abs {
                spcompress_form(d, "an .op or .abs other than .red's");
            }
        }
        let num = self.num as usize;
        if self.dst.len() != num / 2 {
            d.push(PtxError::Rule {
                rule: PtxRule::SpcompressCount,
                value: self.dst.len() as u64,
                name: Some("r"),
            });
        }
        let m = if num < 32 { 1 } else { num / 32 };
        if sp.mdata.len() != m {
            d.push(PtxError::Rule {
                rule: PtxRule::SpcompressCount,
                value: sp.mdata.len() as u64,
                name: Some("mdata"),
            });
        }
        let mut i = 0;
        while i < sp.mdata.len() {
            let mut j = 0;
            while j < self.dst.len() {
                if str_eq(sp.mdata[i], self.dst[j]) {
                    d.push(PtxError::rule(PtxRule::DuplicateRegister, j as u64));
                }
                j += 1;
            }
            i += 1;
        }
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Load(*self).write_unchecked(w)
    }

    /// Validates the form on `ctx`, then writes it.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem, or [`RenderError::Fmt`].
    #[allow(clippy::result_large_err)]
    pub fn render<W: fmt::Write>(&self, ctx: &Context, w: &mut W) -> Result<(), RenderError> {
        Instruction::Load(*self).render(ctx, w)
    }
}

/// Pushes [`PtxRule::SpcompressForm`] naming `what`.
const fn spcompress_form(d: &mut PtxDiagnostics, what: &'static str) {
    d.push(PtxError::named(PtxRule::SpcompressForm, what));
}

const fn check_ld_st_common(
    shape: LdStShape,
    num: Num,
    len: usize,
    offset: Option<u32>,
    d: &mut PtxDiagnostics,
) {
    match registers_per_thread(shape, num) {
        Ok(n) => {
            if len != n as usize {
                d.push(PtxError::rule(PtxRule::RegisterCount, len as u64));
            }
        }
        Err(e) => d.push(PtxError::Tmem(e)),
    }
    match (shape, offset) {
        (LdStShape::S16x32bx2, None) => d.push(PtxError::rule(PtxRule::OffsetMissing, 0)),
        (LdStShape::S16x32bx2, Some(o)) => {
            if o >= TMEM_COLUMNS {
                d.push(PtxError::rule(PtxRule::OffsetOutOfRange, o as u64));
            }
        }
        (_, Some(_)) => d.push(PtxError::named(PtxRule::OffsetNotForShape, shape.name())),
        (_, None) => {}
    }
}

/// `tcgen05.st`: registers to Tensor Memory (PTX ISA 9.7.16.8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemStore<'a> {
    /// The data-movement shape.
    pub shape: LdStShape,
    /// `.num`.
    pub num: Num,
    /// `.unpack::16b`.
    pub unpack: bool,
    /// Register holding the Tensor Memory address.
    pub taddr: &'a str,
    /// `immHalfSplitoff` (`.16x32bx2` only), in columns.
    pub offset: Option<u32>,
    /// The source registers, exactly as many as Table 50 says.
    pub src: &'a [&'a str],
}

impl<'a> TmemStore<'a> {
    /// A plain store.
    #[must_use]
    pub const fn new(shape: LdStShape, num: Num, taddr: &'a str, src: &'a [&'a str]) -> Self {
        TmemStore {
            shape,
            num,
            unpack: false,
            taddr,
            offset: None,
            src,
        }
    }

    /// With `.unpack::16b`.
    #[must_use]
    pub const fn with_unpack(mut self, unpack: bool) -> Self {
        self.unpack = unpack;
        self
    }

    /// With `immHalfSplitoff`.
    #[must_use]
    pub const fn with_offset(mut self, offset: u32) -> Self {
        self.offset = Some(offset);
        self
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        let mut d = ctx.validate();
        check_name(self.taddr, OperandName::Taddr, 0, &mut d);
        check_names(self.src, OperandName::Registers, &mut d);
        check_ld_st_common(self.shape, self.num, self.src.len(), self.offset, &mut d);
        d
    }

    /// Writes the instruction without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        Instruction::Store(*self).write_unchecked(w)
    }

    /// Validates the form on `ctx`, then writes it.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem, or [`RenderError::Fmt`].
    #[allow(clippy::result_large_err)]
    pub fn render<W: fmt::Write>(&self, ctx: &Context, w: &mut W) -> Result<(), RenderError> {
        Instruction::Store(*self).render(ctx, w)
    }
}
