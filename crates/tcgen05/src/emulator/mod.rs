//! A functional model of the tcgen05 instructions: given the bytes of shared memory, the
//! contents of Tensor Memory and a sequence of tcgen05 instruction lines with immediate
//! operands, compute the Tensor Memory and registers the hardware leaves, bit for bit, or stop
//! with the rule the sequence breaks.
//!
//! Every piece is one this crate already has, put together:
//!
//! - the line is read by [`ptx_reader`] and its form checked by
//!   [`check`] (the same rules as `tcgen05 check`: the instruction's qualifiers,
//!   the immediate instruction descriptor, zero-column mask and shared memory descriptors);
//! - operands are fetched from shared memory through their descriptors by
//!   [`MatrixLayout`](crate::canonical_layout::MatrixLayout) (swizzle, base offset, LBO mode),
//!   and A, D and the scale factors are found in Tensor Memory by
//!   [`data_path`](crate::data_path);
//! - each element of D is the dot product of [`numerics`](crate::numerics) for the form's
//!   parameter row (the measured tensor-core arithmetic);
//! - `tcgen05.ld` / `.st` move registers through [`tmem_fragment`](crate::tmem_fragment)'s maps,
//!   with the warp-to-lane-quadrant rule of PTX ISA 9.7.16.8.1.
//!
//! An instruction either completes or changes nothing: it is computed first, checked, and only
//! then written. Reads of shared or Tensor Memory that was never written are errors
//! ([`EmuRule::SmemUninitialised`], [`EmuRule::TmemUninitialised`]) unless random inputs are
//! asked for ([`Machine::set_random_inputs`]), in which case each such read gets a random
//! finite value of the type it is read as, once, and keeps it.
//!
//! # What the model cannot know
//! The model is functional: it gives the values an instruction sequence computes when every
//! instruction completes in program order. It knows nothing of time: not how long anything
//! takes, not the asynchrony between the issuing thread and the tensor core (an `ld` that
//! reads D before the MMA that writes it has completed reads the new D here), not memory
//! ordering between proxies or threads (`fence`, `commit` and `wait` are checked for their
//! syntax and do nothing), and not what other CTAs of a cluster do besides the pair's peer.
//!
//! # Decisions where the sources are silent
//! - **E1 allocation.** `tcgen05.alloc` takes the lowest free range of `n` columns starting at
//!   a multiple of `n` (PTX ISA 9.7.16.7.1 says only that the unit is 32 columns and the count a
//!   power of two from 32 to 512) and writes its address to shared memory at `[dst]`. The
//!   allocation is checked on every Tensor Memory access once the sequence has allocated
//!   anything ([`Machine::check_allocation`]); a sequence that never allocates may use all of
//!   Tensor Memory, as a single `--exec` line does.
//! - **E2 16-bit D** is written to bits 15-0 of its cell with bits 31-16 zero (PTX ISA
//!   9.7.16.10.4.1: not packed).
//! - **E3 `.cta_group::2`.** Each CTA of the pair reads its own rows of A from its own shared
//!   memory (or Tensor Memory) at the same descriptor, and its half of B's columns (N/2) from
//!   its own shared memory at the same descriptor; D's rows are in the CTA that owns them
//!   (data-path layouts A and B). The peer is CTA 1.
//! - **E4 zero columns.** A column of B that the `.ws` zero-column mask selects is read as +0
//!   codes, whatever shared memory holds there. With a column shift `s` the MMA's column `j` is
//!   B's column `s + j` of the descriptor's layout (rules.md R22), and mask bit `j` concerns
//!   the MMA's column `j`.
//! - **E5 negation** of A or B (instruction descriptor bits 13, 14) flips the sign bit of every
//!   element code before the arithmetic.
//! - **E6 `scale-input-d`** `s` (PTX ISA 9.7.16.10: D = A*B + D * 2^-s) scales C before the
//!   fused sum. Where `C * 2^-s` is exactly a code of D's format it is that code (then where the
//!   scaling happens makes no difference); where it would need rounding (C subnormal after the
//!   scaling) the MMA is refused as not modelled, since that rounding is unmeasured.
//!
//! - **E7 `tcgen05.shift.down`** (PTX ISA 9.7.16.9.3: "shifting of 32-byte elements downwards
//!   across all the rows, except the last, by one row", for the matrix at `taddr`, "for a warp",
//!   lane aligned to 32; implicit shape `.31x256b`): the 32 lanes from `taddr`'s lane and the 8
//!   columns (256 bits) from its column; lane `L + i` takes lane `L + i - 1`'s cells for `i` =
//!   31 down to 1 (rows move to higher lanes, the last row's old cells are overwritten), and lane
//!   `L` keeps its cells, as a following `tcgen05.cp.4x256b` (one row per 32-lane subpartition,
//!   ptx-beyond-seeds.md 4.2) refreshes it. A never-written source cell leaves its destination
//!   never written. With `.cta_group::2` both CTAs shift.
//! - **E8 `tcgen05.ld.red`** (sm_101a / sm_110a; ptx-beyond-seeds.md 2.1: "reduces (min/max)
//!   across the columns loaded in each lane, result per thread in `redval`"): the registers are
//!   loaded as by `tcgen05.ld`, and `redval` of each thread is the minimum or maximum of that
//!   thread's loaded values. The qualifiers `.abs` and `.NaN` and the order of zeros follow the
//!   same qualifiers of `redux.sync` (PTX ISA 9.7.13.11): `.abs` reduces the absolute values;
//!   +0.0 > -0.0; with `.NaN` any NaN makes the result the canonical NaN `0x7FFFFFFF`, without
//!   it NaNs are skipped and only all-NaN inputs give the canonical NaN.
//!
//! - **E9 4- and 6-bit elements in bytes.** `tcgen05.cp` with `.b8x16.b4x16_p64` /
//!   `.b8x16.b6x16_p32` (PTX ISA 9.7.16.9.1: "16 elements of 4-bits each followed by 8 bytes of
//!   padding" / "16 elements of 6-bits each followed by 4 bytes of padding" become "16 elements
//!   of 8-bits each") reads each 16-byte chunk of a source row through the descriptor as the
//!   plain copy does, takes element `e` from bits `w*e .. w*e + w` of the chunk's data bytes
//!   (low bits first, as the shared-memory packing of `kind::f8f6f4` and decision D5 have it),
//!   never reads the padding bytes, and writes element `e` to byte `e` of the 16 bytes. Inside
//!   its byte the element is placed in the `kind::f8f6f4` container that `tcgen05.mma` reads
//!   (PTX ISA 9.7.14.5.14, [`crate::numerics::packing`]): a 4-bit element at bits 5:2, a 6-bit
//!   element at bits 5:0, the other bits zero. The per-element pictures (Figures 195, 197, 198)
//!   are images. For 4 bits this agrees with NVIDIA's CuTe DSL example
//!   `cp_narrow_a_to_tmem_mma.py` (`00xxxx00`); that example's docstring draws a 6-bit element
//!   at bits 6:1 (`0xxxxxx0`), which disagrees with the `mma.sync` container text; its test
//!   (all ones, D = K) holds for either reading as long as the copy and the MMA agree, which
//!   they do here. A `tcgen05.ld` of a decompressed cell on hardware would settle it. The same
//!   container is how `tcgen05.mma` reads an e2m1 / e2m3 / e3m2 A from Tensor Memory: a
//!   container with bits set outside the field is [`EmuRule::ContainerPadding`].
//! - **E10 `.sp`** (PTX ISA 9.7.16.10.8; details in the source's `sparse` module): the
//!   metadata values and their meaning are the text's; their place in Tensor Memory is CUTLASS's `tmem_e_frg`
//!   (M = 128) for M = 128 with `.cta_group::1` and M = 256 with `.cta_group::2`, sparsity
//!   selector 0; each row's stored elements are multiplied with the B elements the metadata
//!   selects, summed as the dense form sums its K products. A value the text does not call
//!   meaningful is [`EmuRule::SparseMetadata`].
//! - **E11 `.ashift`** (PTX ISA 9.7.16.10.9.1, as `../shared/spec/ptx-beyond-seeds.md` 3.1
//!   summarises it: the rows of A, in Tensor Memory, shift down one row except the last row;
//!   M = 128 or 256). Read here as: before the MMA reads A, A's rows move in Tensor Memory
//!   within each 32-lane subpartition, lane `32q + i` taking lane `32q + i + 1`'s cells
//!   (i = 0..30) over A's columns (the 256 bits of a row, the `.31x256b` of `tcgen05.shift`),
//!   and lanes 31, 63, 95 and 127 keeping theirs. The project's notes on NVIDIA's CuTe DSL NVVM
//!   wrapper (`../shared/spec/anchors.md`) record that the shift is per 32-lane sub-partition
//!   and that rows 31, 63, 95 and 127 keep their values. The shift stays in Tensor Memory, so
//!   successive `.ashift` MMAs slide A further, as a convolution's taps need. The direction,
//!   that the shift precedes the read and that it persists are this reading, not measured (E7
//!   reads the "down" of `tcgen05.shift` the other way): every `.ashift` MMA warns with
//!   [`EmuRule::AshiftReading`].
//!
//! Not modelled (each is refused with [`EmuRule::NotModelled`], naming it): `.sp` with M = 64,
//! with `.cta_group::2` and M = 128, with `.ws` and M = 32 or 64, and with a sparsity selector
//! other than 0 (their metadata layouts are drawn only as pictures); `scale-input-d` where the
//! scaled C is inexact (the rounding is unmeasured); and K = 96 with `.scale_vec::2X` /
//! `::4X` (no placement in the text).
//!
//! - **K = 96** (`sm_103a`, `sm_107a`; the `k96` module): A and B are read as 96 elements along
//!   K through their descriptors, the 3 (`.block32`) or 6 (`.block16`) scale factors of a row
//!   where ruling T3 of `docs/rules.md` places them ([`crate::data_path::SfLayout`]), and the
//!   arithmetic is the K = 64 GST-FDPA over 96 products (ruling D8, [`crate::numerics::k96`]);
//!   neither the placement nor the arithmetic has run on a Blackwell.
//!
//! # Example
//! ```
//! use tcgen05::emulator::Machine;
//! use tcgen05::targets::Target;
//!
//! let mut m = Machine::new(Target::Sm100a);
//! m.set_random_inputs(7);
//! // A 128 x 64 x 16 f16 MMA: A at 0x0, B at 0x1000 (K-major, no swizzle), D at column 0.
//! m.execute("tcgen05.mma.cta_group::1.kind::f16 [0], 0x0000401000080000, 0x0000401000080100, 0x08100490, 0;")?;
//! let d = m.last_d().expect("an MMA ran")?;
//! assert_eq!((d.m, d.n), (128, 64));
//! # Ok::<(), tcgen05::emulator::EmuError>(())
//! ```

// A problem carries its rule by value (a checker finding, a layout or numerics error): about
// 160 bytes, returned only when an instruction fails.
#![allow(clippy::result_large_err)]

mod decompress;
mod k96;
mod memory;
mod mma;
mod mma_line;
mod mma_operand;
mod movement;
pub mod placement;
mod problem;
pub mod program;
mod random;
mod reference;
mod scale_format;
mod sparse;
mod state;
pub mod wgmma;

pub use decompress::SourceFormat;
pub use memory::TensorCoreMemory;
pub use mma::{mma, ASource, DMatrix, MmaDone, MmaInputs, MmaOperation, MmaOptions, MmaRecord};
pub use movement::{cp_copy, ld_st_pieces, shift_down, CpOperation, LdStPiece};
pub use problem::{EmuError, EmuRule, Problem, Rule, RULES};
pub use reference::{exact_d, reference_error, ReferenceError};
pub use state::{CollectorBuffer, Cta, SMEM_BYTES, TMEM_COLUMNS, TMEM_LANES};

use alloc::string::String;
use alloc::vec::Vec;

use crate::check;
use crate::ptx_reader::{self, Instruction};
use crate::targets::Target;
use random::Random;

/// What one executed instruction did, for reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The instruction's opcode as written.
    pub opcode: String,
    /// Warnings (the instruction completed).
    pub warnings: Vec<Problem>,
    /// A one-line account of the effect (`D 128x64 f32 -> lanes 0-127, columns 0-63`).
    pub effect: String,
}

/// The state of one CTA pair and the tcgen05 instructions that run on it.
#[derive(Clone, Debug)]
pub struct Machine {
    target: Target,
    ctas: [Cta; 2],
    warp: u32,
    random: Option<Random>,
    /// Whether Tensor Memory accesses are checked against the allocations (E1).
    pub check_allocation: bool,
    last_mma: Option<MmaRecord>,
}

impl Machine {
    /// A pair of CTAs with empty shared and Tensor Memory (nothing written), no allocation, the
    /// issuing warp 0.
    #[must_use]
    pub fn new(target: Target) -> Machine {
        Machine {
            target,
            ctas: [Cta::new(), Cta::new()],
            warp: 0,
            random: None,
            check_allocation: false,
            last_mma: None,
        }
    }

    /// The target whose rules apply.
    #[must_use]
    pub fn target(&self) -> Target {
        self.target
    }

    /// Gives every read of never-written memory a random finite value of the type read
    /// (seeded, deterministic), instead of an error.
    pub fn set_random_inputs(&mut self, seed: u64) {
        self.random = Some(Random::new(seed));
    }

    /// The warp (0-3 of its warpgroup, or any warp id) that issues the following `ld` / `st`.
    pub fn set_warp(&mut self, warp: u32) {
        self.warp = warp;
    }

    /// CTA `i` of the pair (0, or 1 for the peer).
    #[must_use]
    pub fn cta(&self, i: usize) -> &Cta {
        &self.ctas[i & 1]
    }

    /// CTA `i` of the pair, to write inputs.
    pub fn cta_mut(&mut self, i: usize) -> &mut Cta {
        &mut self.ctas[i & 1]
    }

    /// The last MMA that completed.
    #[must_use]
    pub fn last_mma(&self) -> Option<&MmaRecord> {
        self.last_mma.as_ref()
    }

    /// D of the last MMA as an M x N row-major matrix of element codes, read back from Tensor
    /// Memory (`None` when no MMA ran).
    ///
    /// # Errors
    /// When a later instruction overwrote or freed part of D.
    #[must_use]
    pub fn last_d(&self) -> Option<Result<DMatrix, EmuError>> {
        self.last_mma.as_ref().map(|r| r.read_d(&self.ctas))
    }

    /// Executes one instruction line (PTX syntax, immediate operands).
    ///
    /// # Errors
    /// Every problem of the line: its form (the rules of `tcgen05 check`), its operands, and
    /// what executing it would break. Nothing changes then.
    pub fn execute(&mut self, line: &str) -> Result<Outcome, EmuError> {
        let text = line.trim();
        let ins = ptx_reader::read_instruction(text).map_err(|p| EmuError::one(p.into()))?;
        let unsupported = || EmuError::one(Problem::emu(EmuRule::Unsupported, "opcode", 0));
        if !ins.opcode.starts_with("tcgen05.") {
            return Err(unsupported());
        }
        // The line's one decoding: the checker validates this form, and it is executed.
        let (mut warnings, form) = self.check_form(&ins)?;
        // A line decoded to no form has its form errors reported above.
        let form = form.ok_or_else(unsupported)?;
        let op = ins.qualifiers().next().unwrap_or("");
        let typed = form.instruction();
        let effect = match typed {
            crate::ptx::Instruction::Mma(m) => mma_line::execute(self, &ins, &m, &mut warnings)?,
            _ => movement::execute(self, op, (&ins, &typed), &mut warnings)?,
        };
        Ok(Outcome {
            opcode: ins.opcode.into(),
            warnings,
            effect,
        })
    }

    /// Executes a program: one instruction per line; blank lines, `//` comments and the
    /// directive comment `// @warp N` (the issuing warp of the following lines) are allowed.
    ///
    /// # Errors
    /// The 1-based line and the error of the first line that fails (the lines before it have
    /// run).
    pub fn run(&mut self, program: &str) -> Result<Vec<Outcome>, (usize, EmuError)> {
        let mut out = Vec::new();
        if program.contains("tcgen05.alloc") {
            self.check_allocation = true;
        }
        for (i, raw) in program.lines().enumerate() {
            let line = raw.trim();
            if let Some(rest) = line.strip_prefix("//") {
                if let Some(w) = rest.trim().strip_prefix("@warp") {
                    match w.trim().parse::<u32>() {
                        Ok(w) => self.warp = w,
                        Err(_) => {
                            return Err((
                                i + 1,
                                EmuError::one(Problem::emu(EmuRule::Operands, "@warp", 0)),
                            ))
                        }
                    }
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            out.push(self.execute(line).map_err(|e| (i + 1, e))?);
        }
        Ok(out)
    }

    /// Runs `tcgen05 check`'s rules on the line read once ([`check::check_line`]); errors stop
    /// it, warnings are returned with the typed form the checker decoded.
    fn check_form<'a>(
        &self,
        ins: &Instruction<'a>,
    ) -> Result<(Vec<Problem>, Option<crate::ptx::Form<'a>>), EmuError> {
        let (report, form) = check::check_line(ins, self.target);
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        for p in &report.read_problems {
            errors.push(Problem::from(*p));
        }
        for i in &report.instructions {
            for f in &i.findings {
                let p = Problem::from(*f);
                if f.severity == crate::diagnostic::Severity::Error {
                    errors.push(p);
                } else {
                    warnings.push(p);
                }
            }
        }
        if errors.is_empty() {
            Ok((warnings, form))
        } else {
            Err(EmuError { problems: errors })
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_k96;
#[cfg(test)]
mod tests_ue5m3;
