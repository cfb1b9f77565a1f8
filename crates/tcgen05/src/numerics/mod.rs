//! Bit-accurate tensor-core arithmetic: what D an MMA returns, bit for bit, for every
//! `tcgen05.mma` kind on Blackwell (`sm_100a`), every `wgmma` form on Hopper (`sm_90a`), and the
//! legacy `mma.sync` (HMMA) path of both.
//!
//! NVIDIA documents none of this. The model is the fused dot-product-add family measured by two
//! public studies and distilled in `../shared/spec/mma-numerics.md`: MMA-Sim (Xie et al., arXiv
//! 2511.10909; PyPI `mmasim` 2.1.1) and Khattak & Mikaitis (arXiv 2512.07004). The facts are
//! theirs; this code is written from the algorithm's description.
//!
//! - [`format`]: the element formats (f32, tf32, f16, bf16, e4m3, e5m2, e3m2, e2m3, e2m1, ue8m0,
//!   ue4m3, s8, u8, s32), decoded to (sign, exponent, significand) and encoded back with a
//!   chosen rounding.
//! - [`fdpa`]: the algorithm (T-FDPA, ST-FDPA, GST-FDPA, integer, and the HMMA emulation of
//!   FP8 `mma.sync`), with the explanation of every term.
//! - [`fast`]: the same arithmetic giving only D's bits, with operands decoded once: for whole
//!   MMAs ([`FastRow::mma`]) and the functional model.
//! - [`params`]: the table of forms with their parameters and evidence, the rules and the typed
//!   errors.
//! - [`packing`]: containers, nibbles and scale bytes as the MMA reads them.
//! - [`exact`]: an exact accumulator and its decimal rendering.
//! - [`ue5m3`]: UE5M3 scale factors in `.kind::mxf4nvf4` (`sm_107`; rulings D7, D9).
//! - [`k96`]: the K = 96 block-scaled rows of `sm_103a` / `sm_107a` (ruling D8: the K = 64
//!   arithmetic over 96 products, unmeasured).
//! - `study` (feature `std`): the error of a whole K loop against the exact result.
//!
//! # The algorithm in words
//! Every floating-point MMA computes one fused block: the products `a_k * b_k` are exact; each
//! gets the alignment exponent `exp(a_k) + exp(b_k)` (not renormalised; subnormals keep the
//! format's smallest exponent); C is one more term with its own exponent; the largest exponent
//! `e_max` is the alignment point; every term is truncated toward zero at `F` fraction bits below
//! `2^e_max`; the truncated terms are summed exactly; the sum is converted once (RZ to f32, RZ to
//! 13 fraction bits for Hopper FP8, RNE to f16). Zero terms take the "exponent for zero"
//! (`-133` for f32 D, `-21` for f16 D, `-139` for mxf4/mxf4nvf4). Block-scaled kinds add the
//! scale exponents to the products' (mxf8f6f4) or sum 16-element groups exactly and align them
//! by the scale exponents only with `F = 35` (mxf4, mxf4nvf4). Hopper FP8 keeps `F = 13`;
//! everything else on Hopper and Blackwell keeps `F = 25`. NaN results are the canonical
//! `0x7FFFFFFF` / `0x7FFF`; a zero result is always +0. See [`fdpa`] for each step and
//! [`params`] for each form's parameters and evidence.
//!
//! **Status of the evidence.** The `tcgen05.mma` parameters are MMA-Sim's measurement on a
//! B200, not this project's: nobody here has run them on Blackwell. The Hopper FP8 `wgmma` and
//! the HMMA path of Hopper and Blackwell are reproduced bit for bit on every published hardware
//! output of Khattak & Mikaitis (`tests/numerics_khattak.rs`).
//!
//! # Decisions on what the sources leave open (mma-numerics.md section 7)
//! - **D1 exponent for zero.** MMA-Sim 2.1.1 gives a zero product or a zero C the exponent
//!   `e_zero`; Khattak floors the alignment exponent at the same value. They differ only when no
//!   C term exists. This model always has a C term: with `scale-d = 0` / `enable-input-d =
//!   false`, C is a +0 term at `e_zero` (the floor of both sources). Unmeasured.
//! - **D2 negative zero.** A zero result is always +0 (MMA-Sim 2.1.1, asserted on H100 by its
//!   2025 behaviour tests), including negative results truncated to zero.
//! - **D3 integer saturation.** `.satfinite` (wgmma) and the saturate bit (tcgen05 kind::i8)
//!   clamp the exact final sum `C + sum a_k b_k` to the s32 range; without it the sum wraps
//!   modulo 2^32. The PTX text does not say whether partial sums saturate; with at most 32
//!   products of at most 2^16 the exact sum never exceeds the i64 range, so only the final clamp
//!   is observable if the hardware sums exactly. Unmeasured.
//! - **D4 UE4M3 bit 7.** PTX defines ue4m3 with bit 7 zero; MMA-Sim clears it. This model
//!   refuses such a code ([`format::DecodeError::Ue4m3SignBit`]) rather than guess.
//! - **D5 FP4 nibble order.** Element 2i is the low nibble ([`packing`]).
//! - **D6 FP8 `mma.sync`** on sm_90a/sm_100a is modelled as ptxas's emulation (two HMMA blocks
//!   of the even and odd k pairs, then one RN add of C), not as a native FP8 path.
//! - **Not modelled:** `imm-scale-a/b = -1` and the tcgen05 negate bits, `scale-input-d`, `.ws`,
//!   `cta_group::2`, sparse `.sp`, sm_120a. K = 96 (sm_103a, sm_107a) is the K = 64 arithmetic
//!   over 96 products ([`k96`], ruling D8 of `docs/rules.md`), a reading nothing has measured.

pub mod exact;
pub mod fast;
pub mod fdpa;
pub mod format;
pub mod k96;
pub mod packing;
pub mod params;
pub mod rng;
#[cfg(feature = "std")]
pub mod study;
pub mod ue5m3;

pub use fast::{Decoded, FastRow};
pub use fdpa::{Algorithm, Dot, Operands, OutputRounding, Term, TermSource};
pub use format::{Exact, Format, Rounding, Value};
pub use params::{Arch, Form, Instruction, NumericsError, ParamRow, RuleId, RULES};
