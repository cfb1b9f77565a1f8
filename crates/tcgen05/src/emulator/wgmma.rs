//! Hopper mode: the same shared memory and addressing running `wgmma.mma_async` (m64nNkK, A
//! and B from descriptors) with Hopper's arithmetic, so that the model can be proven on an H100
//! (`hw/emulator/`).
//!
//! The `wgmma` descriptor has tcgen05's fields without the fixed bits 46-48 and with a 2-bit
//! layout type at bits 62-63 (0 none, 1 128B, 2 64B, 3 32B; PTX ISA 9.7.15.5.1.2.2,
//! `../shared/spec/oracles.md` section 3). D is 64 x N, row-major here, as `wgmma` returns it in
//! registers (the harness writes it out row-major).

use alloc::vec;
use alloc::vec::Vec;

use super::mma::{format_of, negate};
use super::problem::{EmuError, EmuRule, Problem};
use super::state::Cta;
use crate::canonical_layout::{ElementStorage, MatrixLayout, Operand as LayoutOperand};
use crate::mma::{ElementType, Kind, Major};
use crate::numerics::fast::MmaOperands;
use crate::numerics::params::{Arch, Form, Instruction};
use crate::shared_memory_descriptor::{LboMode, SmemFields, Swizzle};

/// One `wgmma` form: types, N, transposes, and the immediates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WgmmaForm {
    /// A's type (f16, bf16, tf32, e4m3, e5m2, s8, u8).
    pub a: ElementType,
    /// B's type.
    pub b: ElementType,
    /// D's type (f32, f16, s32).
    pub d: ElementType,
    /// N, 8 to 256.
    pub n: u32,
    /// A is M-major (`imm-trans-a` = 1; f16 / bf16 only).
    pub transpose_a: bool,
    /// B is N-major (`imm-trans-b` = 1; f16 / bf16 only).
    pub transpose_b: bool,
    /// `imm-scale-a` = -1.
    pub negate_a: bool,
    /// `imm-scale-b` = -1.
    pub negate_b: bool,
    /// `.satfinite` (integer forms).
    pub satfinite: bool,
}

impl WgmmaForm {
    /// K of the form: 256 bits of A per row (16 for 16-bit types, 8 for tf32, 32 for 8-bit).
    #[must_use]
    pub const fn k(&self) -> u32 {
        256 / self.a.bits() as u32
    }
}

/// The fields of a Hopper `wgmma` shared memory descriptor.
///
/// # Errors
/// [`EmuRule::Operands`] naming `bits 46-48` or `bits 14-15, 30-31, 46-48, 52-61` when reserved
/// bits are set.
pub fn hopper_fields(desc: u64) -> Result<SmemFields, Problem> {
    let reserved = 0b11u64 << 14 | 0b11 << 30 | 0b111 << 46 | 0x3FF << 52;
    if desc & reserved != 0 {
        return Err(Problem::emu(
            EmuRule::Operands,
            "wgmma descriptor reserved bits",
            desc & reserved,
        ));
    }
    let swizzle = match desc >> 62 {
        0 => Swizzle::None,
        1 => Swizzle::B128,
        2 => Swizzle::B64,
        _ => Swizzle::B32,
    };
    Ok(SmemFields {
        start_address: ((desc & 0x3FFF) << 4) as u32,
        leading_byte_offset: (((desc >> 16) & 0x3FFF) << 4) as u32,
        stride_byte_offset: (((desc >> 32) & 0x3FFF) << 4) as u32,
        base_offset: ((desc >> 49) & 7) as u8,
        lbo_mode: LboMode::Relative,
        swizzle,
    })
}

fn kind_of(t: ElementType) -> Kind {
    match t {
        ElementType::F16 | ElementType::Bf16 => Kind::F16,
        ElementType::Tf32 => Kind::Tf32,
        ElementType::S8 | ElementType::U8 => Kind::I8,
        _ => Kind::F8f6f4,
    }
}

/// Runs one `wgmma` on a CTA's shared memory: D (64 x N codes, row-major) from A and B read
/// through their Hopper descriptors and C (`None`: `scale-d` = 0).
///
/// # Errors
/// The descriptors' and layouts' rules, reads of never-written shared memory, operand
/// codes the arithmetic refuses, and a form that has no parameter row.
pub fn run(
    cta: &Cta,
    form: &WgmmaForm,
    a_desc: u64,
    b_desc: u64,
    c: Option<&[u32]>,
) -> Result<Vec<u32>, EmuError> {
    let k = form.k();
    let (fa, fb, fd) = (format_of(form.a), format_of(form.b), format_of(form.d));
    let row = Form {
        arch: Arch::Sm90a,
        instruction: Some(Instruction::Wgmma),
        kind: kind_of(form.a),
        a: fa,
        b: fb,
        d: Some(fd),
        scale: None,
        block: None,
    }
    .row()
    .map_err(|e| EmuError {
        problems: e.problems.iter().map(Problem::from).collect(),
    })?;
    let read = |desc: u64,
                ty: ElementType,
                major: Major,
                mn: u32,
                field: &'static str|
     -> Result<Vec<u32>, EmuError> {
        let fields = hopper_fields(desc)?;
        let storage = ElementStorage::of(ty, None).map_err(Problem::from)?;
        let ml = MatrixLayout::from_fields(fields, LayoutOperand::new(storage, major, mn, k))
            .map_err(Problem::from)?;
        let mut out = vec![0u32; (mn * k) as usize];
        for i in 0..mn {
            for kk in 0..k {
                let loc = ml.address(i, kk).map_err(Problem::from)?;
                let bytes = u32::from(loc.bits).div_ceil(8);
                let mut w = 0u32;
                for b in 0..bytes {
                    let byte = cta.smem_byte(loc.address + b)?.ok_or_else(|| {
                        Problem::emu(
                            EmuRule::SmemUninitialised,
                            field,
                            u64::from(loc.address + b),
                        )
                    })?;
                    w |= u32::from(byte) << (8 * b);
                }
                out[(i * k + kk) as usize] = w;
            }
        }
        Ok(out)
    };
    let major = |t: bool| if t { Major::Mn } else { Major::K };
    let mut a = read(a_desc, form.a, major(form.transpose_a), 64, "a")?;
    let mut b = read(b_desc, form.b, major(form.transpose_b), form.n, "b")?;
    if form.negate_a {
        a.iter_mut().for_each(|x| *x = negate(fa, *x));
    }
    if form.negate_b {
        b.iter_mut().for_each(|x| *x = negate(fb, *x));
    }
    let n = form.n as usize;
    let ops = MmaOperands {
        m: 64,
        n,
        a: &a,
        b: &b,
        c: c.unwrap_or(&[]),
        sfa: &[],
        sfb: &[],
    };
    row.fast().mma(&ops, form.satfinite).map_err(|e| EmuError {
        problems: e.problems.iter().map(Problem::from).collect(),
    })
}
