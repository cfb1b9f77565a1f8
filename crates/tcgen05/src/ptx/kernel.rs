//! A minimal kernel: one whole MMA round trip, written as PTX from a configuration.

use super::alloc::{Alloc, Dealloc};
use super::error::{PtxDiagnostics, PtxError, RenderError};
use super::ld_st::TmemLoad;
use super::mma::Mma;
use super::sync::{Commit, Fence, Wait};
use super::{cta, validate_kernel, ASource, CommitMulticast, Context, Instruction, Value};
use crate::mma::ScaleVec;
use crate::mma::{Kind, ScaleType};
use crate::shapes::{validate_mma, MmaConfig, MmaError};
use crate::tensor_memory::{LdStShape, Num, TMEM_COLUMNS};
use core::fmt;

/// The scale-vector qualifier the minimal kernel uses for a block-scaled configuration: none for
/// `mxf8f6f4` and `mxf4` (their default), and for `mxf4nvf4` the 16-element vector with UE4M3
/// scales, the 32-element one with UE8M0 (`.scale_vec::NX` on the `a` targets, `.blockN` on the
/// family targets and for K = 96).
#[must_use]
pub const fn kernel_scale_vec(cfg: &MmaConfig) -> Option<ScaleVec> {
    let f = &cfg.idesc;
    match f.kind {
        Kind::Mxf8f6f4 | Kind::Mxf4 => Some(ScaleVec::Default),
        Kind::Mxf4nvf4 => {
            let ue4m3 = matches!(f.scale_type, Some(ScaleType::Ue4m3));
            let block = f.k96 || !cfg.target.is_arch_specific();
            Some(match (ue4m3, block) {
                (true, false) => ScaleVec::X4,
                (false, false) => ScaleVec::X2,
                (true, true) => ScaleVec::Block16,
                (false, true) => ScaleVec::Block32,
            })
        }
        _ => None,
    }
}

/// Tensor Memory columns the minimal kernel allocates for `cfg`: D's N columns, 16 for the scale
/// factors of a block-scaled kind, 32 for sparsity metadata, rounded up to a power of two
/// (rules.md R24).
#[must_use]
pub const fn kernel_columns(cfg: &MmaConfig) -> u32 {
    let f = &cfg.idesc;
    let mut need = f.n as u32;
    if f.kind.is_block_scaled() {
        need += 16;
    }
    if f.sparse {
        need += 32;
    }
    let mut cols = 32;
    while cols < need && cols < TMEM_COLUMNS {
        cols *= 2;
    }
    cols
}

/// Writes the smallest complete PTX module that exercises an MMA configuration: a kernel
/// `tcgen05_minimal(a_desc, b_desc, out)` that allocates Tensor Memory, issues one
/// `tcgen05.mma` with the configuration's instruction descriptor as an immediate (so the
/// disassembly shows it), commits to an mbarrier, waits on it, loads 8 columns of D with
/// `tcgen05.ld`, waits for the load, stores one word, and frees Tensor Memory. It is meant to be
/// assembled (`ptxas -arch=<target>`) to check a setup, not to compute a product: the shared
/// memory descriptors come from the parameters as they are.
///
/// # Errors
/// [`RenderError::Invalid`] with every problem of the configuration ([`validate_mma`], as
/// [`PtxError::Idesc`]) or of the kernel's instructions; [`RenderError::Fmt`] when the writer
/// fails.
///
/// # Examples
/// ```
/// use tcgen05::instruction_descriptor::IdescFields;
/// use tcgen05::ptx::write_minimal_kernel;
/// use tcgen05::shapes::MmaConfig;
/// use tcgen05::{ElementType::{Bf16, F32}, Kind};
///
/// let cfg = MmaConfig::new(IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, 64));
/// let mut ptx = String::new();
/// write_minimal_kernel(&cfg, &mut ptx).unwrap();
/// assert!(ptx.contains("tcgen05.mma.cta_group::1.kind::f16 [taddr], a_desc, b_desc, 0x08100490, 0;"));
/// ```
#[allow(clippy::result_large_err)]
pub fn write_minimal_kernel<W: fmt::Write>(cfg: &MmaConfig, w: &mut W) -> Result<(), RenderError> {
    let problems = validate_mma(cfg);
    if problems.has_errors() {
        let mut d = PtxDiagnostics::new();
        for e in problems.iter() {
            d.push(PtxError::Idesc(e));
        }
        return Err(RenderError::Invalid(d));
    }
    let bits = match cfg.idesc.encode() {
        Ok(i) => i.bits(),
        Err(e) => {
            let mut d = PtxDiagnostics::new();
            d.push(PtxError::Idesc(MmaError::Idesc(e)));
            return Err(RenderError::Invalid(d));
        }
    };
    let g = cfg.cta_group;
    let cols = kernel_columns(cfg);
    let f = &cfg.idesc;
    let mut mma = Mma::new(
        g,
        f.kind,
        "taddr",
        ASource::Smem("a_desc"),
        "b_desc",
        Value::Imm(bits),
        Value::Imm(false),
    )
    .with_ws(cfg.ws);
    if f.sparse {
        mma = mma.with_sparse("sp_meta");
    }
    if let Some(vec) = kernel_scale_vec(cfg) {
        mma = mma.with_block_scale(vec, "scale_a", "scale_b");
    }
    const D: [&str; 8] = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"];
    let body = [
        Instruction::Alloc(Alloc {
            cta_group: g,
            dst: "tmem_slot",
            n_cols: Value::Imm(cols),
            exclusive: false,
        }),
        Instruction::RelinquishAllocPermit(g),
        Instruction::Fence(Fence::AfterThreadSync),
        Instruction::Mma(mma),
        Instruction::Commit(Commit {
            cta_group: g,
            mbar: "mbar",
            multicast: None,
            multicast_spelling: CommitMulticast::Cluster,
            sync_restrict_a: false,
        }),
        Instruction::Fence(Fence::AfterThreadSync),
        Instruction::Load(TmemLoad::new(LdStShape::S32x32b, Num::X8, &D, "taddr")),
        Instruction::Wait(Wait::Ld),
        Instruction::Fence(Fence::BeforeThreadSync),
        Instruction::Dealloc(Dealloc {
            cta_group: g,
            taddr: "taddr",
            n_cols: Value::Imm(cols),
            exclusive: false,
        }),
    ];
    let ctx = Context::for_instructions(cfg.target, &body);
    let d = validate_kernel(&ctx, &body);
    if d.has_errors() {
        return Err(RenderError::Invalid(d));
    }
    let line = |w: &mut W, i: &Instruction<'_>, pred: &str| -> fmt::Result {
        write!(w, "    {pred}")?;
        i.write_unchecked(w)?;
        w.write_char('\n')
    };
    writeln!(
        w,
        "// Minimal tcgen05 kernel: .kind::{} {}{} M = {} N = {} K = {}{}, instruction descriptor \
         {bits:#010x}",
        f.kind.name(),
        if cfg.ws { ".ws " } else { "" },
        &cta(g)[1..],
        f.m,
        f.n,
        f.k(),
        if f.sparse { " sparse" } else { "" },
    )?;
    ctx.write_preamble(w)?;
    w.write_str(
        "\n.visible .entry tcgen05_minimal(\n    .param .u64 a_desc_param,\n    \
         .param .u64 b_desc_param,\n    .param .u64 out_param\n)\n{\n    \
         .reg .b64 a_desc, b_desc, out;\n    \
         .reg .b32 taddr, scale_a, scale_b, sp_meta, d0, d1, d2, d3, d4, d5, d6, d7, sum;\n    \
         .reg .pred leader, done;\n    .shared .align 4 .b32 tmem_slot;\n    \
         .shared .align 8 .b64 mbar;\n\n    ld.param.u64 a_desc, [a_desc_param];\n    \
         ld.param.u64 b_desc, [b_desc_param];\n    ld.param.u64 out, [out_param];\n",
    )?;
    line(w, &body[0], "")?;
    line(w, &body[1], "")?;
    w.write_str("    mbarrier.init.shared::cta.b64 [mbar], 1;\n    bar.sync 0;\n")?;
    line(w, &body[2], "")?;
    w.write_str("    ld.shared.b32 taddr, [tmem_slot];\n")?;
    writeln!(w, "    add.u32 scale_a, taddr, {};", f.n)?;
    writeln!(w, "    add.u32 scale_b, taddr, {};", u32::from(f.n) + 8)?;
    writeln!(w, "    add.u32 sp_meta, taddr, {};", u32::from(f.n) + 16)?;
    w.write_str("    elect.sync _|leader, 0xffffffff;\n")?;
    line(w, &body[3], "@leader ")?;
    line(w, &body[4], "@leader ")?;
    w.write_str(
        "wait_mma:\n    mbarrier.try_wait.parity.shared::cta.b64 done, [mbar], 0;\n    \
         @!done bra wait_mma;\n",
    )?;
    line(w, &body[5], "")?;
    line(w, &body[6], "")?;
    line(w, &body[7], "")?;
    w.write_str("    add.u32 sum, d0, d7;\n    st.global.u32 [out], sum;\n")?;
    line(w, &body[8], "")?;
    w.write_str("    bar.sync 0;\n")?;
    line(w, &body[9], "")?;
    w.write_str("    ret;\n}\n")?;
    Ok(())
}
