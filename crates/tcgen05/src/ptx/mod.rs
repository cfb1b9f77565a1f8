//! PTX text for every tcgen05 instruction, checked before it is written.
//!
//! Rust kernels reach the tensor cores through PTX text: `asm!` on the nvptx target,
//! cuda-oxide's inline PTX, or NVRTC sources. A misspelled qualifier costs a compile round trip,
//! an illegal combination (`.ws` with `.cta_group::2`, `.scale_vec::2X` with `.kind::mxf8f6f4`,
//! `.ashift` with A in shared memory) is caught only by ptxas, and ptxas never looks inside
//! descriptor values: an immediate instruction descriptor with M = 48 assembles and fails on the
//! GPU. The builders here write the PTX syntax of PTX ISA 9.7.16 (instruction forms in
//! 9.7.16.7-9.7.16.10.9) and refuse, before writing anything, every form that breaks a rule:
//!
//! - the rules ptxas enforces (qualifier pairings, operand counts and vector lengths, immediate
//!   ranges, target and PTX ISA version requirements), each cited by the PTX section that states
//!   it; [`PtxError::ptxas_checks`] says that ptxas 13.5 would refuse the form too;
//! - the rules ptxas cannot see: an immediate instruction descriptor is checked against Table 39
//!   and rules.md through [`validate_mma`](crate::shapes::validate_mma), an immediate
//!   zero-column mask through [`ZeroColumnMask::decode_for`](crate::zero_column_mask::ZeroColumnMask::decode_for), an immediate shared memory
//!   descriptor through [`SmemDescriptor::decode`](crate::shared_memory_descriptor::SmemDescriptor::decode), an immediate column count through
//!   [`validate_alloc_columns`](crate::tensor_memory::validate_alloc_columns).
//!
//! Operands are registers named by the caller (any PTX identifier, `%r1`, `taddr`, ...) or
//! immediates; register vectors must have exactly the length the form needs. Rendering writes to
//! any [`core::fmt::Write`], so it works without `alloc`.
//!
//! # Examples
//! ```
//! use tcgen05::ptx::{ASource, Context, Mma, Value};
//! use tcgen05::{CtaGroup, Kind, Target};
//!
//! let mma = Mma::new(CtaGroup::One, Kind::F16, "d", ASource::Smem("adesc"), "bdesc",
//!                    Value::Imm(0x0810_0490), Value::Reg("p"));
//! let mut s = String::new();
//! mma.render(&Context::new(Target::Sm100a), &mut s).unwrap();
//! assert_eq!(s, "tcgen05.mma.cta_group::1.kind::f16 [d], adesc, bdesc, 0x08100490, p;");
//!
//! // M = 48 assembles with ptxas but is no shape of Table 39: refused here.
//! let bad = Mma { idesc: Value::Imm(0x0310_0490), ..mma };
//! let problems = bad.validate(&Context::new(Target::Sm100a));
//! assert!(problems.iter().any(|e| e.to_string().contains("M = 48")));
//! ```

use core::fmt;

use crate::mma::CtaGroup;
use crate::targets::Target;

// One file per instruction family, plus the errors; their items are this module's.
mod alloc;
mod cp;
mod error;
mod form_error;
pub mod grammar;
mod kernel;
mod ld_st;
mod mma;
#[cfg(feature = "alloc")]
mod parse;
mod shift;
mod spelling;
mod sync;
pub mod syntax;
#[cfg(feature = "alloc")]
pub(crate) mod walk;
pub mod wgmma;
#[cfg(feature = "alloc")]
mod wgmma_parse;

pub use alloc::*;
pub use cp::*;
pub use error::*;
pub use form_error::{FormError, FormRule};
pub use kernel::*;
pub use ld_st::*;
pub use mma::*;
#[cfg(feature = "alloc")]
pub use parse::{parse, Form};
pub use shift::*;
pub use sync::*;
pub use wgmma::{DType, MmaAsync, Wgmma, WgmmaA, WgmmaSparsity, WgmmaType};
#[cfg(feature = "alloc")]
pub use wgmma_parse::{parse_wgmma, WgmmaForm};

/// The scale-vector qualifier, one type with [`crate::data_path::ScaleVec`] (defined in
/// [`crate::mma`]).
pub use crate::mma::ScaleVec;

// ---------------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------------

/// An operand that is either a register named by the caller or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value<'a, T> {
    /// A register (or, for address operands, a variable) by its PTX name, for example `"%r3"`.
    Reg(&'a str),
    /// An immediate, written in the instruction.
    Imm(T),
}

/// Where matrix A of a `tcgen05.mma` comes from (PTX ISA 9.7.16.10, Table 53).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ASource<'a> {
    /// Shared memory, described by the 64-bit shared memory descriptor in this register
    /// (`a-desc`).
    Smem(&'a str),
    /// Tensor Memory at the address in this 32-bit register (`[a-tmem]`).
    Tmem(&'a str),
}

/// What a collector-buffer qualifier does (PTX ISA 9.7.16.10.9.1, `.collector_usage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CollectorOp {
    /// `::fill`: read the operand and keep it in the collector buffer.
    Fill,
    /// `::use`: read the operand from the collector buffer, keep it.
    Use,
    /// `::lastuse`: read the operand from the collector buffer, then drop it.
    Lastuse,
    /// `::discard`: read the operand, keep nothing (the default).
    Discard,
}

impl CollectorOp {
    /// Every operation.
    pub const ALL: [CollectorOp; 4] = [
        CollectorOp::Fill,
        CollectorOp::Use,
        CollectorOp::Lastuse,
        CollectorOp::Discard,
    ];

    /// The PTX spelling without the leading `::`, for example `"lastuse"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CollectorOp::Fill => "fill",
            CollectorOp::Use => "use",
            CollectorOp::Lastuse => "lastuse",
            CollectorOp::Discard => "discard",
        }
    }
}

/// A collector-buffer qualifier of `tcgen05.mma` (PTX ISA 9.7.16.10.9.1): on matrix A for the
/// activation-stationary forms, on one of four B buffers for `.ws`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collector {
    /// `.collector::a::op` (not with `.ws`).
    A(CollectorOp),
    /// `.collector::bN::op` with N = 0..3 (`.ws` only).
    B(u8, CollectorOp),
}

/// The scale-factor operands of a block-scaled `tcgen05.mma` (PTX ISA 9.7.16.10.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockScale<'a> {
    /// The scale-vector qualifier.
    pub vec: ScaleVec,
    /// Register holding the Tensor Memory address of scale_A (`[scale-A-tmem]`).
    pub scale_a: &'a str,
    /// Register holding the Tensor Memory address of scale_B (`[scale-B-tmem]`).
    pub scale_b: &'a str,
}

// ---------------------------------------------------------------------------------------------
// Context: target and PTX ISA version
// ---------------------------------------------------------------------------------------------

/// The highest PTX ISA version (major * 10 + minor) this module writes: 9.5, the newest
/// ptxas 13.5 reads. Every form it writes is certified by ptxas 13.5 at each version from the
/// form's lowest to this one (`conformance/ptxas`), the PTX ISA 9.4 forms included
/// (docs/ptx-9.5.md).
pub const MAX_PTX_VERSION: u8 = 95;

/// The target and PTX ISA version a form is written for: what the `.target` and `.version`
/// directives of the module say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    /// The target.
    pub target: Target,
    /// The PTX ISA version, major * 10 + minor (for example 88 for 8.8).
    pub version: u8,
}

impl Context {
    /// `target` at the lowest PTX ISA version that has tcgen05 on it
    /// ([`Target::min_ptx_version`]).
    #[must_use]
    pub const fn new(target: Target) -> Context {
        Context {
            target,
            version: target.min_ptx_version(),
        }
    }

    /// The same target at another PTX ISA version.
    #[must_use]
    pub const fn with_version(mut self, version: u8) -> Context {
        self.version = version;
        self
    }

    /// The lowest version that suits `target` and every instruction of `body` (each
    /// instruction's [`Instruction::min_ptx_version`]).
    #[must_use]
    pub const fn for_instructions(target: Target, body: &[Instruction<'_>]) -> Context {
        let mut v = target.min_ptx_version();
        let mut i = 0;
        while i < body.len() {
            let need = body[i].min_ptx_version();
            if need > v {
                v = need;
            }
            i += 1;
        }
        Context { target, version: v }
    }

    /// Writes the `.version`, `.target` and `.address_size 64` directives, one per line.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_preamble<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        writeln!(
            w,
            ".version {}.{}\n.target {}\n.address_size 64",
            self.version / 10,
            self.version % 10,
            self.target.name()
        )
    }

    const fn check_version(&self, need: u8, what: &'static str, d: &mut PtxDiagnostics) {
        if self.version < need {
            d.push(PtxError::Rule {
                rule: PtxRule::VersionTooLow,
                value: self.version as u64,
                name: Some(what),
            });
        }
    }

    /// Every problem of the version itself: below the target's minimum, or above
    /// [`MAX_PTX_VERSION`].
    #[must_use]
    pub const fn validate(&self) -> PtxDiagnostics {
        let mut d = PtxDiagnostics::new();
        self.check_version(self.target.min_ptx_version(), self.target.name(), &mut d);
        if self.version > MAX_PTX_VERSION {
            d.push(PtxError::rule(PtxRule::VersionTooHigh, self.version as u64));
        }
        d
    }
}

const fn scale_input_d_on(target: Target) -> bool {
    target.supports_scale_input_d()
}

const fn ld_red_on(target: Target) -> bool {
    target.supports_ld_red()
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// True when `name` is a PTX identifier (PTX ISA 4.4): `[a-zA-Z][a-zA-Z0-9_$]*` or
/// `[_$%][a-zA-Z0-9_$]+`.
#[must_use]
pub const fn is_identifier(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_empty() {
        return false;
    }
    let first = b[0];
    let start_ok = first.is_ascii_alphabetic();
    let sym = first == b'_' || first == b'$' || first == b'%';
    if !start_ok && !sym {
        return false;
    }
    if sym && b.len() < 2 {
        return false;
    }
    let mut i = 1;
    while i < b.len() {
        let c = b[i];
        if !(c.is_ascii_alphanumeric() || c == b'_' || c == b'$') {
            return false;
        }
        i += 1;
    }
    true
}

/// True when `name` can stand for an operand: a PTX identifier ([`is_identifier`]), or a Rust
/// inline-assembly placeholder `{name}` / `{0}` (a Rust identifier or a number in braces), which
/// `asm!` replaces with the register it allocates.
#[must_use]
pub const fn is_operand_name(name: &str) -> bool {
    if is_identifier(name) {
        return true;
    }
    let b = name.as_bytes();
    if b.len() < 3 || b[0] != b'{' || b[b.len() - 1] != b'}' {
        return false;
    }
    let first = b[1];
    let digits = first.is_ascii_digit();
    if !(digits || first.is_ascii_alphabetic() || first == b'_') {
        return false;
    }
    let mut i = 1;
    while i < b.len() - 1 {
        let c = b[i];
        let ok = if digits {
            c.is_ascii_digit()
        } else {
            c.is_ascii_alphanumeric() || c == b'_'
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

const fn check_name(name: &str, op: OperandName, index: usize, d: &mut PtxDiagnostics) {
    if !is_operand_name(name) {
        d.push(PtxError::rule(PtxRule::RegisterName(op), index as u64));
    }
}

const fn check_names(names: &[&str], op: OperandName, d: &mut PtxDiagnostics) {
    let mut i = 0;
    while i < names.len() {
        check_name(names[i], op, i, d);
        i += 1;
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    crate::bytes::bytes_eq(a.as_bytes(), b.as_bytes())
}

/// The text an instruction is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Syntax {
    /// PTX, as ptxas reads it.
    #[default]
    Ptx,
    /// A Rust `asm!` template string: the braces of register vectors are doubled (`{{r0,r1}}`),
    /// so that only operand placeholders such as `{taddr}` are single braces.
    RustAsm,
}

pub(crate) fn write_vector<W: fmt::Write>(w: &mut W, regs: &[&str], syntax: Syntax) -> fmt::Result {
    let (open, close) = match syntax {
        Syntax::Ptx => ("{", "}"),
        Syntax::RustAsm => ("{{", "}}"),
    };
    w.write_str(open)?;
    for (i, r) in regs.iter().enumerate() {
        if i > 0 {
            w.write_char(',')?;
        }
        w.write_str(r)?;
    }
    w.write_str(close)
}

fn cta(g: CtaGroup) -> &'static str {
    match g {
        CtaGroup::One => ".cta_group::1",
        CtaGroup::Two => ".cta_group::2",
    }
}

const fn cta_count(g: CtaGroup) -> u64 {
    match g {
        CtaGroup::One => 1,
        CtaGroup::Two => 2,
    }
}

// ---------------------------------------------------------------------------------------------
// Any instruction
// ---------------------------------------------------------------------------------------------

/// Any tcgen05 instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction<'a> {
    /// `tcgen05.mma` in any form.
    Mma(Mma<'a>),
    /// `tcgen05.ld` / `tcgen05.ld.red`.
    Load(TmemLoad<'a>),
    /// `tcgen05.st`.
    Store(TmemStore<'a>),
    /// `tcgen05.cp`.
    Cp(Cp<'a>),
    /// `tcgen05.shift`.
    Shift(Shift<'a>),
    /// `tcgen05.alloc`.
    Alloc(Alloc<'a>),
    /// `tcgen05.dealloc`.
    Dealloc(Dealloc<'a>),
    /// `tcgen05.relinquish_alloc_permit`.
    RelinquishAllocPermit(CtaGroup),
    /// `tcgen05.commit`.
    Commit(Commit<'a>),
    /// `tcgen05.fence::*`.
    Fence(Fence),
    /// `tcgen05.wait::*`.
    Wait(Wait),
}

impl<'a> Instruction<'a> {
    /// The text of operand `op` (element `index` of a vector operand, else `index` 0) as
    /// given, or `None` when the instruction has no such operand or it is an immediate. What a
    /// [`PtxRule::RegisterName`] error is about, to show it as typed.
    #[must_use]
    pub const fn operand_text(&self, op: OperandName, index: usize) -> Option<&'a str> {
        const fn reg<T: Copy>(v: Value<'_, T>) -> Option<&str> {
            match v {
                Value::Reg(r) => Some(r),
                Value::Imm(_) => None,
            }
        }
        const fn at<'b>(v: &'b [&'b str], i: usize) -> Option<&'b str> {
            if i < v.len() {
                Some(v[i])
            } else {
                None
            }
        }
        let scalar = index == 0;
        match (*self, op) {
            (Instruction::Mma(m), OperandName::DTmem) if scalar => Some(m.d),
            (Instruction::Mma(m), OperandName::ADesc) if scalar => match m.a {
                ASource::Smem(r) => Some(r),
                ASource::Tmem(_) => None,
            },
            (Instruction::Mma(m), OperandName::ATmem) if scalar => match m.a {
                ASource::Tmem(r) => Some(r),
                ASource::Smem(_) => None,
            },
            (Instruction::Mma(m), OperandName::BDesc) if scalar => Some(m.b),
            (Instruction::Mma(m), OperandName::LutTmem) if scalar => m.decompress_lut,
            (Instruction::Mma(m), OperandName::SparseMetadata) if scalar => m.sparse_metadata,
            (Instruction::Mma(m), OperandName::Idesc) if scalar => reg(m.idesc),
            (Instruction::Mma(m), OperandName::EnableInputD) if scalar => reg(m.enable_input_d),
            (Instruction::Mma(m), OperandName::ZeroColumnMask) if scalar => {
                match m.zero_column_mask {
                    Some(v) => reg(v),
                    None => None,
                }
            }
            (Instruction::Mma(m), OperandName::ScaleA) if scalar => match m.block_scale {
                Some(b) => Some(b.scale_a),
                None => None,
            },
            (Instruction::Mma(m), OperandName::ScaleB) if scalar => match m.block_scale {
                Some(b) => Some(b.scale_b),
                None => None,
            },
            (Instruction::Mma(m), OperandName::DisableOutputLane) => match m.disable_output_lane {
                Some(v) => at(v, index),
                None => None,
            },
            (Instruction::Load(l), OperandName::Taddr) if scalar => Some(l.taddr),
            (Instruction::Load(l), OperandName::Registers) => at(l.dst, index),
            (Instruction::Load(l), OperandName::Redval) if scalar => match l.red {
                Some(r) => Some(r.redval),
                None => None,
            },
            (Instruction::Store(st), OperandName::Taddr) if scalar => Some(st.taddr),
            (Instruction::Store(st), OperandName::Registers) => at(st.src, index),
            (Instruction::Cp(c), OperandName::Taddr) if scalar => Some(c.taddr),
            (Instruction::Cp(c), OperandName::Sdesc) if scalar => reg(c.sdesc),
            (Instruction::Shift(sh), OperandName::Taddr) if scalar => Some(sh.taddr),
            (Instruction::Alloc(a), OperandName::Dst) if scalar => Some(a.dst),
            (Instruction::Alloc(a), OperandName::NCols) if scalar => reg(a.n_cols),
            (Instruction::Dealloc(d), OperandName::Taddr) if scalar => Some(d.taddr),
            (Instruction::Dealloc(d), OperandName::NCols) if scalar => reg(d.n_cols),
            (Instruction::Commit(c), OperandName::Mbar) if scalar => Some(c.mbar),
            (Instruction::Commit(c), OperandName::CtaMask) if scalar => match c.multicast {
                Some(v) => reg(v),
                None => None,
            },
            _ => None,
        }
    }

    /// The `.cta_group` the instruction names, if any.
    #[must_use]
    pub const fn cta_group(&self) -> Option<CtaGroup> {
        match self {
            Instruction::Mma(m) => Some(m.cta_group),
            Instruction::Cp(c) => Some(c.cta_group),
            Instruction::Shift(s) => Some(s.cta_group),
            Instruction::Alloc(a) => Some(a.cta_group),
            Instruction::Dealloc(a) => Some(a.cta_group),
            Instruction::RelinquishAllocPermit(g) => Some(*g),
            Instruction::Commit(c) => Some(c.cta_group),
            Instruction::Load(_)
            | Instruction::Store(_)
            | Instruction::Fence(_)
            | Instruction::Wait(_) => None,
        }
    }

    /// The lowest PTX ISA version of the form (the target may need more: [`Context::new`]): the
    /// highest version that introduced a qualifier it spells, read from its grammar
    /// ([`syntax`]).
    #[must_use]
    pub const fn min_ptx_version(&self) -> u8 {
        let s = self.spell();
        s.grammar.min_version(&s).0
    }

    /// Every problem of the form on `ctx`.
    #[must_use]
    pub const fn validate(&self, ctx: &Context) -> PtxDiagnostics {
        match self {
            Instruction::Mma(m) => m.validate(ctx),
            Instruction::Load(l) => l.validate(ctx),
            Instruction::Store(s) => s.validate(ctx),
            Instruction::Cp(c) => c.validate(ctx),
            Instruction::Shift(s) => s.validate(ctx),
            Instruction::Alloc(a) => a.validate(ctx),
            Instruction::Dealloc(a) => a.validate(ctx),
            Instruction::Commit(c) => c.validate(ctx),
            Instruction::RelinquishAllocPermit(_)
            | Instruction::Fence(_)
            | Instruction::Wait(_) => ctx.validate(),
        }
    }

    /// Writes the instruction (one line, ending in `;`, no newline) without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        self.write_unchecked_as(w, Syntax::Ptx)
    }

    /// Writes the instruction in `syntax` without checking it.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_unchecked_as<W: fmt::Write>(&self, w: &mut W, syntax: Syntax) -> fmt::Result {
        grammar::write_spelled(w, &self.spell(), syntax)
    }

    /// Validates the form on `ctx` and writes it only when it breaks no rule.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem (nothing is written), or
    /// [`RenderError::Fmt`].
    #[allow(clippy::result_large_err)]
    pub fn render<W: fmt::Write>(&self, ctx: &Context, w: &mut W) -> Result<(), RenderError> {
        self.render_as(ctx, w, Syntax::Ptx)
    }

    /// Validates the form on `ctx` and writes it in `syntax` only when it breaks no rule.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] with every problem (nothing is written), or
    /// [`RenderError::Fmt`].
    ///
    /// # Examples
    /// ```
    /// use tcgen05::ptx::{Context, Instruction, Syntax, TmemLoad};
    /// use tcgen05::tensor_memory::{LdStShape, Num};
    /// use tcgen05::Target;
    ///
    /// let ld = Instruction::Load(TmemLoad::new(LdStShape::S32x32b, Num::X2, &["{a}", "{b}"], "{t}"));
    /// let mut s = String::new();
    /// ld.render_as(&Context::new(Target::Sm100a), &mut s, Syntax::RustAsm).unwrap();
    /// assert_eq!(s, "tcgen05.ld.sync.aligned.32x32b.x2.b32 {{{a},{b}}}, [{t}];");
    /// ```
    #[allow(clippy::result_large_err)]
    pub fn render_as<W: fmt::Write>(
        &self,
        ctx: &Context,
        w: &mut W,
        syntax: Syntax,
    ) -> Result<(), RenderError> {
        let d = self.validate(ctx);
        if d.has_errors() {
            return Err(RenderError::Invalid(d));
        }
        self.write_unchecked_as(w, syntax)?;
        Ok(())
    }
}

/// Every problem of a kernel body on `ctx`: each instruction's, then the kernel-wide rule that
/// all tcgen05 instructions use one `.cta_group` (PTX ISA 9.7.16.10.9.1; ptxas 13.5 enforces
/// it).
#[must_use]
pub const fn validate_kernel(ctx: &Context, body: &[Instruction<'_>]) -> PtxDiagnostics {
    let mut d = ctx.validate();
    let skip = d.len();
    let mut first: Option<CtaGroup> = None;
    let mut mixed = false;
    let mut i = 0;
    while i < body.len() {
        let one = body[i].validate(ctx);
        // The context's own problems are already in the list once.
        let mut j = skip;
        while j < one.len() {
            if let Some(e) = one.get(j) {
                d.push(e);
            }
            j += 1;
        }
        if let Some(g) = body[i].cta_group() {
            match first {
                None => first = Some(g),
                Some(f) => {
                    if cta_count(f) != cta_count(g) && !mixed {
                        mixed = true;
                        d.push(PtxError::rule(PtxRule::CtaGroupMixed, cta_count(g)));
                    }
                }
            }
        }
        i += 1;
    }
    d
}

#[cfg(test)]
mod tests;
