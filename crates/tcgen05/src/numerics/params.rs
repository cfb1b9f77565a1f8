//! The parameter table: one row per (architecture family, instruction, kind, A/B types, D type,
//! scale type), each with its algorithm, its parameters and the evidence for them.
//!
//! The rows come from `../shared/spec/mma-numerics.md` section 3 (MMA-Sim 2.1.1 `nv_ptx/sim.py`,
//! Khattak & Mikaitis' `H100TC.m` and `B200TC.m`, the PTX ISA for the integer kinds) and from this
//! project's own checks. For `wgmma` and `mma.sync` the kind names the `tcgen05.mma` kind with
//! the same input family (`tf32`, `f16`, `f8f6f4` for FP8, `i8`), so one vocabulary serves both
//! architectures.

use super::fdpa::{
    self, Algorithm, BadCode, Dot, Formats, Operands, OutputRounding, Overflow, TermSourceOperand,
};
use super::format::{DecodeError, Format};
use crate::diagnostic::{Diagnostics, Rule, RuleSource, Severity};
use crate::mma::Kind;
use crate::targets::Target;
use core::fmt;

/// The GPU architecture family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Arch {
    /// Hopper, `sm_90a`.
    Sm90a,
    /// Blackwell data-centre, `sm_100a`.
    Sm100a,
}

impl Arch {
    /// The target name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sm90a => "sm_90a",
            Arch::Sm100a => "sm_100a",
        }
    }
    /// Parses `sm_90a`, or any target name with tcgen05 that [`Target::from_name`] reads
    /// (`sm_100a`, `sm_100f`, `sm_103a`, `sm_103f`, `sm_110a`, `sm_110f` and the `sm_101`
    /// aliases): their tensor cores share one Blackwell model, [`Arch::Sm100a`] (its rows'
    /// evidence is B200's, mma-numerics.md section 3).
    #[must_use]
    pub fn from_name(s: &str) -> Option<Arch> {
        if s == Arch::Sm90a.name() {
            Some(Arch::Sm90a)
        } else {
            Target::from_name(s).ok().map(|_| Arch::Sm100a)
        }
    }
    /// The instruction an MMA of this architecture uses by default.
    #[must_use]
    pub const fn default_instruction(self) -> Instruction {
        match self {
            Arch::Sm90a => Instruction::Wgmma,
            Arch::Sm100a => Instruction::Tcgen05Mma,
        }
    }
}

/// The MMA instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Instruction {
    /// `wgmma.mma_async` (PTX ISA 9.7.15).
    Wgmma,
    /// `tcgen05.mma` (PTX ISA 9.7.16.10).
    Tcgen05Mma,
    /// The warp-level `mma.sync` / WMMA path (HMMA; PTX ISA 9.7.14).
    MmaSync,
}

impl Instruction {
    /// The PTX mnemonic.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Instruction::Wgmma => "wgmma",
            Instruction::Tcgen05Mma => "tcgen05.mma",
            Instruction::MmaSync => "mma.sync",
        }
    }
    /// Parses a mnemonic.
    #[must_use]
    pub fn from_name(s: &str) -> Option<Instruction> {
        [
            Instruction::Wgmma,
            Instruction::Tcgen05Mma,
            Instruction::MmaSync,
        ]
        .into_iter()
        .find(|a| a.name() == s)
    }
}

/// Where a row's parameters come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Evidence {
    /// MMA-Sim 2.1.1 (PyPI `mmasim`): the model class and the hardware harness that tested it.
    MmaSim(&'static str),
    /// A hardware-output file of Khattak & Mikaitis (`../shared/oracles/khattak-mikaitis/`),
    /// reproduced bit for bit by `tests/numerics_khattak.rs`.
    Khattak(&'static str),
    /// The PTX ISA text.
    Ptx(&'static str),
    /// A decision of this module (see the module docs of [`crate::numerics`]).
    Decision(&'static str),
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::MmaSim(s) => write!(f, "MMA-Sim 2.1.1 {s}"),
            Evidence::Khattak(s) => write!(f, "Khattak & Mikaitis {s}"),
            Evidence::Ptx(s) => write!(f, "PTX ISA {s}"),
            Evidence::Decision(s) => write!(f, "decision {s}"),
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ParamRow {
    /// Architecture family.
    pub arch: Arch,
    /// Instruction.
    pub instruction: Instruction,
    /// Kind (for wgmma and mma.sync, the tcgen05 kind of the same input family).
    pub kind: Kind,
    /// A's type.
    pub a: Format,
    /// B's type.
    pub b: Format,
    /// C's and D's type.
    pub d: Format,
    /// Scale format and elements per scale, for block-scaled kinds.
    pub scale: Option<(Format, u32)>,
    /// The arithmetic.
    pub algorithm: Algorithm,
    /// Where the parameters come from.
    pub evidence: &'static [Evidence],
}

const F8: [Format; 2] = [Format::E4m3, Format::E5m2];
const F864: [Format; 5] = [
    Format::E4m3,
    Format::E5m2,
    Format::E3m2,
    Format::E2m3,
    Format::E2m1,
];
const I8: [Format; 2] = [Format::S8, Format::U8];

const fn t(f: u32, l: u32, e_zero: i32, out: OutputRounding) -> Algorithm {
    Algorithm::TFdpa { f, l, e_zero, out }
}

/// A group of rows: every (a, b) of `a x b` with the same parameters.
#[derive(Clone, Copy, Debug)]
struct Group {
    arch: Arch,
    instruction: Instruction,
    kind: Kind,
    a: &'static [Format],
    b: &'static [Format],
    d: Format,
    scale: Option<(Format, u32)>,
    algorithm: Algorithm,
    evidence: &'static [Evidence],
}

#[allow(clippy::too_many_arguments)] // one argument per column of the table
const fn g(
    arch: Arch,
    instruction: Instruction,
    kind: Kind,
    a: &'static [Format],
    b: &'static [Format],
    d: Format,
    scale: Option<(Format, u32)>,
    algorithm: Algorithm,
    evidence: &'static [Evidence],
) -> Group {
    Group {
        arch,
        instruction,
        kind,
        a,
        b,
        d,
        scale,
        algorithm,
        evidence,
    }
}

use Arch::{Sm100a, Sm90a};
use Format::{Bf16, E2m1, Tf32, Ue4m3, Ue8m0, F16, F32, S32};
use Instruction::{MmaSync, Tcgen05Mma, Wgmma};
use OutputRounding::{RneF16, RzE8m13, RzF32};

const WG: Evidence =
    Evidence::MmaSim("sim.py WGMMA, hardware-tested by mmasim-kernels wgmma_sm90a.cu");
const TC: Evidence =
    Evidence::MmaSim("sim.py TCGen05MMA, hardware-tested by mmasim-kernels tcgen05mma_sm100a.cu");
const TCB: Evidence = Evidence::MmaSim(
    "sim.py TCGen05MMABlockScale, hardware-tested by mmasim-kernels tcgen05mma_sm100a.cu",
);
const MMA: Evidence = Evidence::MmaSim("sim.py MMA (_mma_* tables for sm_90/sm_100)");
const INT_WG: Evidence =
    Evidence::Ptx("9.7.15.5 wgmma: s32 accumulation, .satfinite optional for integer types");
const INT_TC: Evidence =
    Evidence::Ptx("9.7.16.4.2 Table 42 bit 3: saturate for integer types (kind::i8)");
const SAT: Evidence = Evidence::Decision("D3: saturation applies to the final sum");
const EMU: Evidence = Evidence::Ptx("ptxas 13.5.37 lowers FP8 mma.sync on sm_90a/sm_100a to F2FP + 2 HMMA.16816 + FADD/HADD2 (mma-numerics.md 3.3)");

/// The table, in groups (expanded by [`rows`]).
const GROUPS: &[Group] = &[
    // Hopper wgmma (mma-numerics.md 3.1)
    g(
        Sm90a,
        Wgmma,
        Kind::Tf32,
        &[Tf32],
        &[Tf32],
        F32,
        None,
        t(25, 8, -133, RzF32),
        &[WG],
    ),
    g(
        Sm90a,
        Wgmma,
        Kind::F16,
        &[F16],
        &[F16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[WG],
    ),
    g(
        Sm90a,
        Wgmma,
        Kind::F16,
        &[Bf16],
        &[Bf16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[WG],
    ),
    g(
        Sm90a,
        Wgmma,
        Kind::F16,
        &[F16],
        &[F16],
        F16,
        None,
        t(25, 16, -21, RneF16),
        &[WG],
    ),
    g(
        Sm90a,
        Wgmma,
        Kind::F8f6f4,
        &F8,
        &F8,
        F32,
        None,
        t(13, 32, -133, RzE8m13),
        &[
            WG,
            Evidence::Khattak(
                "H100/E4M3/d_H100_fp32.txt and H100/E5M2/d_H100_fp32.txt (wgmma, C = 0)",
            ),
        ],
    ),
    g(
        Sm90a,
        Wgmma,
        Kind::F8f6f4,
        &F8,
        &F8,
        F16,
        None,
        t(13, 32, -21, RneF16),
        &[WG],
    ),
    g(
        Sm90a,
        Wgmma,
        Kind::I8,
        &I8,
        &I8,
        S32,
        None,
        Algorithm::Integer { l: 32 },
        &[INT_WG, SAT],
    ),
    // Blackwell tcgen05.mma (mma-numerics.md 3.2; every kind and type pair of Table 39)
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::Tf32,
        &[Tf32],
        &[Tf32],
        F32,
        None,
        t(25, 8, -133, RzF32),
        &[TC],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::F16,
        &[F16],
        &[F16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[TC],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::F16,
        &[Bf16],
        &[Bf16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[TC],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::F16,
        &[F16],
        &[F16],
        F16,
        None,
        t(25, 16, -21, RneF16),
        &[TC],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::F8f6f4,
        &F864,
        &F864,
        F32,
        None,
        t(25, 32, -133, RzF32),
        &[TC],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::F8f6f4,
        &F864,
        &F864,
        F16,
        None,
        t(25, 32, -21, RneF16),
        &[TC],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::Mxf8f6f4,
        &F864,
        &F864,
        F32,
        Some((Ue8m0, 32)),
        Algorithm::StFdpa {
            f: 25,
            l: 32,
            e_zero: -133,
        },
        &[TCB],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::Mxf4,
        &[E2m1],
        &[E2m1],
        F32,
        Some((Ue8m0, 32)),
        Algorithm::GstFdpa {
            f: 35,
            group: 16,
            l: 64,
            e_zero: -139,
        },
        &[TCB],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::Mxf4nvf4,
        &[E2m1],
        &[E2m1],
        F32,
        Some((Ue8m0, 32)),
        Algorithm::GstFdpa {
            f: 35,
            group: 16,
            l: 64,
            e_zero: -139,
        },
        &[TCB],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::Mxf4nvf4,
        &[E2m1],
        &[E2m1],
        F32,
        Some((Ue8m0, 16)),
        Algorithm::GstFdpa {
            f: 35,
            group: 16,
            l: 64,
            e_zero: -139,
        },
        &[TCB],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::Mxf4nvf4,
        &[E2m1],
        &[E2m1],
        F32,
        Some((Ue4m3, 16)),
        Algorithm::GstFdpa {
            f: 35,
            group: 16,
            l: 64,
            e_zero: -139,
        },
        &[TCB],
    ),
    g(
        Sm100a,
        Tcgen05Mma,
        Kind::I8,
        &I8,
        &I8,
        S32,
        None,
        Algorithm::Integer { l: 32 },
        &[INT_TC, SAT],
    ),
    // Legacy mma.sync / WMMA (HMMA) on Hopper and Blackwell (mma-numerics.md 3.3)
    g(
        Sm90a,
        MmaSync,
        Kind::Tf32,
        &[Tf32],
        &[Tf32],
        F32,
        None,
        t(25, 8, -133, RzF32),
        &[MMA, Evidence::Khattak("H100/tf32/d_H100_fp32.txt")],
    ),
    g(
        Sm90a,
        MmaSync,
        Kind::F16,
        &[F16],
        &[F16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[MMA, Evidence::Khattak("H100/fp16/d_H100_fp32.txt")],
    ),
    g(
        Sm90a,
        MmaSync,
        Kind::F16,
        &[Bf16],
        &[Bf16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[MMA, Evidence::Khattak("H100/bf16/d_H100_fp32.txt")],
    ),
    g(
        Sm90a,
        MmaSync,
        Kind::F16,
        &[F16],
        &[F16],
        F16,
        None,
        t(25, 16, -21, RneF16),
        &[MMA, Evidence::Khattak("H100/fp16/d_H100_fp16.txt")],
    ),
    g(
        Sm90a,
        MmaSync,
        Kind::F8f6f4,
        &F8,
        &F8,
        F32,
        None,
        Algorithm::HmmaFp8 { out: RzF32 },
        &[EMU],
    ),
    g(
        Sm90a,
        MmaSync,
        Kind::F8f6f4,
        &F8,
        &F8,
        F16,
        None,
        Algorithm::HmmaFp8 { out: RneF16 },
        &[
            EMU,
            Evidence::Khattak("H100/E4M3/d_H100_fp16.txt and H100/E5M2/d_H100_fp16.txt"),
        ],
    ),
    g(
        Sm100a,
        MmaSync,
        Kind::Tf32,
        &[Tf32],
        &[Tf32],
        F32,
        None,
        t(25, 8, -133, RzF32),
        &[MMA, Evidence::Khattak("B200/tf32/d_B200_fp32.txt")],
    ),
    g(
        Sm100a,
        MmaSync,
        Kind::F16,
        &[F16],
        &[F16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[MMA, Evidence::Khattak("B200/fp16/d_B200_fp32.txt")],
    ),
    g(
        Sm100a,
        MmaSync,
        Kind::F16,
        &[Bf16],
        &[Bf16],
        F32,
        None,
        t(25, 16, -133, RzF32),
        &[MMA, Evidence::Khattak("B200/bf16/d_B200_fp32.txt")],
    ),
    g(
        Sm100a,
        MmaSync,
        Kind::F16,
        &[F16],
        &[F16],
        F16,
        None,
        t(25, 16, -21, RneF16),
        &[MMA, Evidence::Khattak("B200/fp16/d_B200_fp16.txt")],
    ),
    g(
        Sm100a,
        MmaSync,
        Kind::F8f6f4,
        &F8,
        &F8,
        F32,
        None,
        Algorithm::HmmaFp8 { out: RzF32 },
        &[
            EMU,
            Evidence::Khattak("B200/E4M3/d_B200_fp32.txt and B200/E5M2/d_B200_fp32.txt"),
        ],
    ),
    g(
        Sm100a,
        MmaSync,
        Kind::F8f6f4,
        &F8,
        &F8,
        F16,
        None,
        Algorithm::HmmaFp8 { out: RneF16 },
        &[
            EMU,
            Evidence::Khattak("B200/E4M3/d_B200_fp16.txt and B200/E5M2/d_B200_fp16.txt"),
        ],
    ),
];

/// Every row of the table, one per (arch, instruction, kind, A type, B type, D type, scale).
pub fn rows() -> impl Iterator<Item = ParamRow> {
    GROUPS.iter().flat_map(|gr| {
        gr.a.iter().flat_map(move |&a| {
            gr.b.iter().map(move |&b| ParamRow {
                arch: gr.arch,
                instruction: gr.instruction,
                kind: gr.kind,
                a,
                b,
                d: gr.d,
                scale: gr.scale,
                algorithm: gr.algorithm,
                evidence: gr.evidence,
            })
        })
    })
}

/// What a user asks for: the instruction form whose arithmetic to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// Architecture.
    pub arch: Arch,
    /// Instruction (`None`: the architecture's default, wgmma or tcgen05.mma).
    pub instruction: Option<Instruction>,
    /// Kind.
    pub kind: Kind,
    /// A's type.
    pub a: Format,
    /// B's type.
    pub b: Format,
    /// D's type (`None`: f32, or s32 for kind::i8).
    pub d: Option<Format>,
    /// Scale type (block-scaled kinds; `None`: ue8m0).
    pub scale: Option<Format>,
    /// Elements per scale (`None`: 32, the default block of mxf8f6f4 and mxf4; mxf4nvf4 with
    /// ue4m3 needs 16).
    pub block: Option<u32>,
}

/// The identifier of a numerics rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum RuleId {
    /// No row of the table has this (arch, instruction, kind, types, scale).
    NoSuchForm,
    /// A or B does not hold K values.
    OperandCount,
    /// A scale operand does not hold one code per block.
    ScaleCount,
    /// A code does not decode in its format.
    BadCode,
    /// `.satfinite` asked for a floating-point kind.
    SatfiniteNotInteger,
}

/// A numerics rule as its serde form shows it (identifier, short name, source, severity,
/// message): a view of its row of [`RULES`], for serialisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RuleView {
    /// Identifier.
    pub id: RuleId,
    /// Short name (JSON): the row's identifier.
    pub name: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
    /// Severity.
    pub severity: Severity,
    /// What it says.
    pub message: &'static str,
}

/// A row of [`RULES`]: every numerics rule is an error whose message says it.
const fn rule(name: &'static str, source: &'static str, message: &'static str) -> Rule {
    Rule::with_message(name, RuleSource::Text(source), Severity::Error, message)
}

/// Every rule of the numerics model, one row each, indexed by [`RuleId`].
pub const RULES: [Rule; 5] = [
    rule(
        "no-such-form",
        "PTX ISA 9.7.16.2.1 Table 39 (tcgen05.mma), 9.7.15.5 (wgmma), 9.7.14.5.14 (mma.sync)",
        "no instruction form takes these types",
    ),
    rule(
        "operand-count",
        "PTX ISA 9.7.16.2.1 Table 39 (K of each kind)",
        "A and B must hold exactly K values, the K of one instruction",
    ),
    rule(
        "scale-count",
        "PTX ISA 9.7.16.10.7.1 Tables 56-57 (scale_vec)",
        "a block-scaled kind takes one scale per block of K (and none otherwise)",
    ),
    rule(
        "bad-code",
        "PTX ISA 5.2.5 (element formats)",
        "the code does not decode in its format",
    ),
    rule(
        "satfinite-not-integer",
        "PTX ISA 9.7.15.5 (wgmma .satfinite: integer types), 9.7.16.4.2 Table 42 bit 3",
        "saturation exists only for integer kinds",
    ),
];

impl RuleId {
    /// The rule's row.
    #[must_use]
    pub const fn rule(self) -> &'static Rule {
        &RULES[self as usize]
    }

    /// The rule as its serde form shows it.
    #[must_use]
    pub const fn view(self) -> RuleView {
        let r = self.rule();
        RuleView {
            id: self,
            name: r.id,
            source: match r.source {
                RuleSource::Text(t) => t,
                // Every numerics rule cites its sections as text.
                RuleSource::Fixed(_) | RuleSource::LayoutTable => "",
            },
            severity: r.severity,
            message: r.text(),
        }
    }
}

/// Where a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Location {
    /// A field of the form (`"arch"`, `"kind"`, `"a_type"`, `"b_type"`, `"d_type"`,
    /// `"scale_type"`, `"block"`, `"satfinite"`).
    Field(&'static str),
    /// An operand (`"a"`, `"b"`, `"sfa"`, `"sfb"`) as a whole, for counts.
    Operand(&'static str),
    /// One code of an operand.
    Code(TermSourceOperand),
}

/// One problem: the rule, where, and the value as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Problem {
    /// The rule broken.
    pub rule: RuleId,
    /// Where.
    pub location: Location,
    /// The value (a count, or a code).
    pub value: u64,
    /// The value the rule expects, when it is one number (the K, the scale count).
    pub expected: Option<u64>,
    /// The decode error, for [`RuleId::BadCode`].
    pub decode: Option<DecodeError>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.rule.rule();
        match self.location {
            Location::Field(n) | Location::Operand(n) => write!(f, "{n}: ")?,
            Location::Code(at) => write!(f, "{at}: ")?,
        }
        match (self.decode, self.expected) {
            (Some(e), _) => write!(f, "{e}")?,
            (None, Some(x)) => write!(f, "{} (got {}, expected {x})", r.text(), self.value)?,
            (None, None) => write!(f, "{}", r.text())?,
        }
        write!(f, " [{}; {}]", r.id, r.source)
    }
}

/// Every problem found in a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumericsError {
    /// The problems, in the order found.
    pub problems: Diagnostics<Problem, 16>,
}

impl fmt::Display for NumericsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl core::error::Error for NumericsError {}

impl Form {
    /// The table row of this form.
    ///
    /// # Errors
    /// [`RuleId::NoSuchForm`] naming the arch, kind and types.
    #[allow(clippy::result_large_err)] // every problem, by value: no allocation in no_std
    pub fn row(&self) -> Result<ParamRow, NumericsError> {
        let instruction = self.instruction.unwrap_or(self.arch.default_instruction());
        let d = self
            .d
            .unwrap_or(if self.kind == Kind::I8 { S32 } else { F32 });
        let want_scale = if self.kind.is_block_scaled() {
            Some((
                self.scale.unwrap_or(Ue8m0),
                self.block
                    .unwrap_or(if self.scale == Some(Ue4m3) { 16 } else { 32 }),
            ))
        } else {
            None
        };
        let found = rows().find(|r| {
            r.arch == self.arch
                && r.instruction == instruction
                && r.kind == self.kind
                && r.a == self.a
                && r.b == self.b
                && r.d == d
                && (r.scale == want_scale
                    || (!self.kind.is_block_scaled()
                        && self.scale.is_none()
                        && self.block.is_none()))
        });
        let mut problems = Diagnostics::new();
        match found {
            Some(r)
                if !self.kind.is_block_scaled()
                    && (self.scale.is_some() || self.block.is_some()) =>
            {
                let _ = r;
                problems.push(Problem {
                    rule: RuleId::NoSuchForm,
                    location: Location::Field("scale_type"),
                    value: 0,
                    expected: None,
                    decode: None,
                });
                Err(NumericsError { problems })
            }
            Some(r) => Ok(r),
            None => {
                problems.push(Problem {
                    rule: RuleId::NoSuchForm,
                    location: Location::Field("kind"),
                    value: 0,
                    expected: None,
                    decode: None,
                });
                Err(NumericsError { problems })
            }
        }
    }
}

impl ParamRow {
    /// Runs this form's arithmetic on one dot product (`saturate` only for integer kinds).
    ///
    /// # Errors
    /// Every problem: operand counts ([`RuleId::OperandCount`]), scale counts
    /// ([`RuleId::ScaleCount`]), each code that does not decode ([`RuleId::BadCode`]), and
    /// saturation asked of a floating-point kind.
    #[allow(clippy::result_large_err)] // every problem, by value: no allocation in no_std
    pub fn dot(&self, ops: &Operands<'_>, saturate: bool) -> Result<Dot, NumericsError> {
        let mut problems = Diagnostics::new();
        let k = self.algorithm.k() as usize;
        for (name, v) in [("a", ops.a), ("b", ops.b)] {
            if v.len() != k {
                problems.push(Problem {
                    rule: RuleId::OperandCount,
                    location: Location::Operand(name),
                    value: v.len() as u64,
                    expected: Some(k as u64),
                    decode: None,
                });
            }
        }
        let nscale = self.scale.map_or(0, |(_, b)| k / b as usize);
        for (name, v) in [("sfa", ops.sfa), ("sfb", ops.sfb)] {
            if v.len() != nscale {
                problems.push(Problem {
                    rule: RuleId::ScaleCount,
                    location: Location::Operand(name),
                    value: v.len() as u64,
                    expected: Some(nscale as u64),
                    decode: None,
                });
            }
        }
        let integer = matches!(self.algorithm, Algorithm::Integer { .. });
        if saturate && !integer {
            problems.push(Problem {
                rule: RuleId::SatfiniteNotInteger,
                location: Location::Field("satfinite"),
                value: 1,
                expected: None,
                decode: None,
            });
        }
        // Every code, every problem (not only the first).
        let check = |problems: &mut Diagnostics<Problem, 16>,
                     f: Format,
                     codes: &[u32],
                     mk: fn(u32) -> TermSourceOperand| {
            for (i, &c) in codes.iter().enumerate() {
                if let Err(e) = f.decode(c) {
                    problems.push(Problem {
                        rule: RuleId::BadCode,
                        location: Location::Code(mk(i as u32)),
                        value: u64::from(c),
                        expected: None,
                        decode: Some(e),
                    });
                }
            }
        };
        check(&mut problems, self.a, ops.a, TermSourceOperand::A);
        check(&mut problems, self.b, ops.b, TermSourceOperand::B);
        check(&mut problems, self.d, &[ops.c], |_| TermSourceOperand::C);
        if let Some((sf, _)) = self.scale {
            check(&mut problems, sf, ops.sfa, TermSourceOperand::Sfa);
            check(&mut problems, sf, ops.sfb, TermSourceOperand::Sfb);
        }
        if !problems.is_empty() {
            return Err(NumericsError { problems });
        }
        let fm = Formats {
            a: self.a,
            b: self.b,
            d: self.d,
            scale: self.scale,
        };
        let mut r = fdpa::dot(self.algorithm, fm, ops).map_err(|BadCode { at, error }| {
            let mut problems = Diagnostics::new();
            problems.push(Problem {
                rule: RuleId::BadCode,
                location: Location::Code(at),
                value: 0,
                expected: None,
                decode: Some(error),
            });
            NumericsError { problems }
        })?;
        if integer {
            let mode = if saturate {
                Overflow::Saturate
            } else {
                Overflow::Wrap
            };
            r.d_bits = match mode {
                Overflow::Wrap => r.sum as i32 as u32,
                Overflow::Saturate => {
                    r.sum.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32 as u32
                }
            };
        }
        Ok(r)
    }
}
