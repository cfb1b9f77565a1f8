//! `tcgen05 check`: find every tcgen05 instruction of a PTX module, recover the bits of its
//! operands known at compile time, and apply this crate's rules to them.
//!
//! Compilers write descriptors as constants that ptxas never looks into: Triton's instruction
//! descriptor is `mov.b32 %r305, 136381584;` (0x08210490) and its shared-memory descriptors are
//! a constant high word packed with bits of a run-time address
//! (`bfe.u32 %r308, %r149, 4, 15; mov.b32 %r311, 1073758272; mov.b64 %rd198, {%r308, %r311};`).
//! The checker reads the input with [`crate::ptx_reader`] (each `.version` starts a module with
//! its own `.target`, as `cuobjdump -ptx` prints several), runs the known-bits dataflow of
//! [`dataflow`] over each function (sums known up to the first bit a carry can reach, shared
//! memory addresses below 2^18, `shfl.sync`; `desc + stage * C` under rules.md R7 unless
//! [`Options::no_assume`]), and for each tcgen05 instruction:
//!
//! - decodes it once into its typed [`ptx`](crate::ptx) form by the grammar the writer walks
//!   ([`crate::ptx::parse`]; a line the grammar refuses is read tolerantly by the same grammar,
//!   each departure a finding), gives the form the operand values the dataflow proves (a
//!   register known to hold a constant is checked as that immediate), and runs the form's
//!   validation against its module's `.target` and `.version`: every qualifier rule,
//!   and, where the instruction descriptor, the zero-column mask or an `alloc` column count is
//!   fully known, every rule of those values and their cross-checks with the instruction
//!   (`.sp` vs the sparse bit, Table 39 for `cta_group` and `.ws`, the scale vector, the target);
//!   an instruction descriptor chosen among constants (`selp`, predicated `mov`s) is checked
//!   per constant ([`Finding::candidate`]), and one with a few unknown bits gets every finding
//!   all its completions share;
//! - checks the shared memory descriptors on their known bits only ([`smem`]): a rule of
//!   [`SmemDescriptor::decode`](crate::shared_memory_descriptor::SmemDescriptor::decode) is
//!   reported only when every bit it reads is known, so a partly known descriptor never gives a
//!   finding that depends on an unknown bit;
//! - checks each kernel as a whole ([`kernel`]): the Tensor Memory columns its MMAs' D and its
//!   loads span against the columns it allocates, an allocation never deallocated, a stride
//!   byte offset of 0 on a K-major operand;
//! - checks each block-scaled MMA's `[scale_A]` / `[scale_B]` against the `tcgen05.cp`s that
//!   wrote that Tensor Memory, linked only through addresses known at compile time
//!   (`block_scale`): the cp's shape and multicast against the lanes the MMA's M and
//!   `.cta_group` read the scale factors from (PTX ISA 9.7.16.10.7), the cp's `.cta_group`,
//!   and columns no cp wrote; operands with an unknown address are counted in
//!   [`Report::scale_operands_unlinked`].
//!
//! The rules are those of the modules they come from; the checker adds only the few of its own
//! in [`RULES`] (a qualifier outside the grammar, operands that do not match the form, ...).
//! Every finding carries its severity, the operand and field, the value, the rule (typed) with
//! its source, and the line where the value was defined.
//!
//! # Examples
//! ```
//! use tcgen05::check::{check, Options};
//!
//! let ptx = b".version 8.7\n.target sm_100a\n.address_size 64\n\
//! .visible .entry k() {\n\
//!   .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n\
//!   mov.b32 %r1, 52429968;\n\
//!   tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;\n\
//!   ret;\n}\n";
//! let report = check(ptx, &Options::default());
//! let mma = &report.instructions[0];
//! assert_eq!(mma.idesc, Some(0x0320_0490)); // M = 48: no shape of Table 39
//! assert!(mma.findings.iter().any(|f| f.to_string().contains("M = 48")));
//! assert_eq!(mma.findings[0].line, 6); // where the constant is written
//! ```

mod alloc_pairing;
pub mod dataflow;
pub mod known_bits;
pub mod smem;
pub mod tensor_map;

mod block_scale;
pub(crate) mod decode;
mod instructions;
pub mod kernel;
mod qualifiers;

use alloc::vec::Vec;
use core::fmt;

use crate::diagnostic::{Rule as RuleRow, RuleSource, Severity, Source};
use crate::mma::Kind;
use crate::ptx::{OperandName, PtxError};
use crate::ptx_reader::{self, Function, Instruction, Module, ReadProblem};
use crate::shared_memory_descriptor::SmemError;
use crate::targets::{Target, TargetError};

pub use known_bits::KnownBits;

/// A rule of the checker itself (the rules of the descriptors and instruction forms are those
/// of their modules). Each has one row in [`RULES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CheckRule {
    /// A qualifier that is not part of the instruction's syntax.
    UnknownQualifier,
    /// A qualifier the instruction requires is missing (`.cta_group`, `.kind`, a shape, `.num`).
    MissingQualifier,
    /// A qualifier written twice.
    DuplicateQualifier,
    /// A qualifier written after one that the instruction's syntax puts after it.
    QualifierOrder,
    /// The operands do not match the instruction's form (count or kind).
    Operands,
    /// An immediate that does not fit its operand (a 32-bit instruction descriptor, a column
    /// count).
    ImmediateTooWide,
    /// The module's target has no tcgen05 instructions or is unknown.
    Target,
    /// No `.target` directive and no `--target`: the rules are applied for `sm_100a`.
    NoTarget,
    /// The module's PTX ISA version is above the one whose forms this crate implements: the
    /// forms are checked as that version's.
    VersionAboveModel,
    /// A shared memory descriptor's swizzling mode that the operand's major-ness (the
    /// instruction descriptor's transpose bit) and element type do not allow.
    SwizzleForMajor,
    /// An MMA's D or a `tcgen05.ld` / `tcgen05.st` spans more Tensor Memory columns than the
    /// kernel allocates.
    TmemColumns,
    /// A kernel allocates Tensor Memory and never deallocates it.
    AllocWithoutDealloc,
    /// A K-major operand of more than 8 rows whose descriptor's stride byte offset is 0.
    SboZero,
    // Block-scaled MMAs against their scale-factor `tcgen05.cp` (module `block_scale`).
    /// The copies of one scale factor in several subpartitions come from different source
    /// rows of the `tcgen05.cp` that wrote them (a warning: shared memory may repeat the
    /// rows).
    ScaleCpSplit,
    /// Two scale factors of one MMA come from the same source byte of a `tcgen05.cp`.
    ScaleCpAlias,
    /// A `.cta_group::2` MMA reads scale factors a `.cta_group::1` cp wrote.
    ScaleCpCtaGroup,
    /// A scale factor's Tensor Memory byte that no `tcgen05.cp` of the function writes.
    ScaleUnwritten,
    /// A path of the kernel from a `tcgen05.alloc` to an exit with no `tcgen05.dealloc`.
    AllocLeakOnPath,
    /// A path of the kernel that deallocates twice after one `tcgen05.alloc`.
    DoubleDealloc,
    /// A path of the kernel that allocates after `tcgen05.relinquish_alloc_permit`.
    AllocAfterRelinquish,
    /// A shared memory descriptor whose swizzling mode differs from that of the tensor map
    /// whose `cp.async.bulk.tensor` fills the buffer it reads.
    TensorMapSwizzle,
}

/// The checker's own rules, one row each, indexed by [`CheckRule`]; each row writes its message,
/// `{}` standing for the value.
pub const RULES: [RuleRow; 21] = [
    RuleRow {
        id: "check.unknown_qualifier",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16")),
        message: Some("the qualifier is not part of this instruction's syntax"),
        statement: "Every qualifier is one of the instruction's syntax.",
    },
    RuleRow {
        id: "check.missing_qualifier",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16")),
        message: Some("the instruction needs a {} qualifier"),
        statement: "The qualifiers the instruction requires (.cta_group, .kind, a shape, .num) are written.",
    },
    RuleRow {
        id: "check.duplicate_qualifier",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16")),
        message: Some("the qualifier is written twice"),
        statement: "Each qualifier of the instruction's syntax is written at most once.",
    },
    RuleRow {
        id: "check.qualifier_order",
        severity: Severity::Warning,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16")),
        message: Some("the qualifier stands after one that the instruction's syntax puts after it"),
        statement: "The qualifiers are written in the order of the instruction's syntax.",
    },
    RuleRow {
        id: "check.operands",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16")),
        message: Some("the operands do not match the instruction's form: {}"),
        statement: "The operands match the instruction's form in count and kind.",
    },
    RuleRow {
        id: "check.immediate_too_wide",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16")),
        message: Some("the immediate does not fit the operand"),
        statement: "An immediate fits its operand (32 bits for an instruction descriptor and a column count).",
    },
    RuleRow {
        id: "check.target",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::Decision(17)),
        message: Some("target {} has no tcgen05 instructions"),
        statement: "The module's target has tcgen05 instructions.",
    },
    RuleRow {
        id: "check.no_target",
        severity: Severity::Warning,
        source: RuleSource::Fixed(Source::PtxSection("11.1")),
        message: Some("no .target directive: the rules are applied for {}"),
        statement: "A module has a .target directive; without one the rules are applied for sm_100a.",
    },
    RuleRow {
        id: "check.version_above_model",
        severity: Severity::Warning,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16")),
        message: Some("PTX ISA {} is above 9.5, the newest version this crate reads; the instruction is checked as a 9.5 form"),
        statement: "The module's PTX ISA version is one this crate reads (up to 9.5, as ptxas 13.5); above it, its tcgen05 forms are checked as 9.5's.",
    },
    RuleRow {
        id: "check.swizzle_for_major",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::Decision(18)),
        message: Some("swizzling mode {} is not allowed for this operand's major-ness and type (K-major and MN-major 8/16-bit: every mode but 128B_base32B; MN-major tf32: only 128B_base32B)"),
        statement: "A shared memory descriptor's swizzling mode is one the operand's major-ness and element type allow.",
    },
    RuleRow {
        id: "check.tmem_columns",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.7.1")),
        message: Some("spans {} Tensor Memory columns, more than the kernel allocates (every tcgen05.alloc of the kernel is known)"),
        statement: "An MMA's D and a tcgen05.ld / tcgen05.st stay within the Tensor Memory columns the kernel allocates.",
    },
    RuleRow {
        id: "check.alloc_without_dealloc",
        severity: Severity::Warning,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.7.1")),
        message: Some("the kernel allocates Tensor Memory ({} columns) and has no tcgen05.dealloc: all of it must be deallocated before the kernel exits"),
        statement: "A kernel that allocates Tensor Memory deallocates it before it exits.",
    },
    RuleRow {
        id: "check.sbo_zero",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxTable(40)),
        message: Some("stride byte offset {} for a K-major operand of more than 8 rows: every group of 8 rows would be read from the same address"),
        statement: "A K-major operand of more than 8 rows has a non-zero stride byte offset.",
    },
    // Block-scaled MMAs against their scale-factor `tcgen05.cp` (module `block_scale`).
    RuleRow {
        id: "check.scale_cp_split",
        severity: Severity::Warning,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.10.7")),
        message: Some("the MMA reads the scale factor of index {} in several subpartitions, and the tcgen05.cp that wrote them (the line of this finding) took them from different source rows: its shape and multicast do not match the MMA's M and cta_group, unless shared memory repeats those rows"),
        statement: "Every copy of one scale factor that a block-scaled MMA reads comes from the same source byte of the tcgen05.cp that wrote it.",
    },
    RuleRow {
        id: "check.scale_cp_alias",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.10.7")),
        message: Some("the MMA reads the scale factor of index {} from the same source byte of the tcgen05.cp (the line of this finding) as an earlier index: both get one scale whatever shared memory holds (its shape and multicast do not match the MMA's M and cta_group)"),
        statement: "Two scale factors of one block-scaled MMA never come from the same source byte of a tcgen05.cp.",
    },
    RuleRow {
        id: "check.scale_cp_cta_group",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.10.7")),
        message: Some("a .cta_group::2 MMA reads scale factors that a .cta_group::{} tcgen05.cp (the line of this finding) wrote in one CTA only"),
        statement: "A .cta_group::2 block-scaled MMA reads scale factors written by a .cta_group::2 tcgen05.cp, which writes both CTAs of the pair.",
    },
    RuleRow {
        id: "check.scale_unwritten",
        severity: Severity::Warning,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.10.7")),
        message: Some("the MMA reads scale factors from Tensor Memory column {}, which no tcgen05.cp of the function writes (every tcgen05.cp address is known; no tcgen05.st, no call)"),
        statement: "A block-scaled MMA reads its scale factors from Tensor Memory that a tcgen05.cp of the function writes.",
    },
    RuleRow {
        id: "check.alloc_leak_on_path",
        severity: Severity::Warning,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.7.1")),
        message: Some("this tcgen05.alloc is not deallocated on a path to the exit at line {}: all Tensor Memory allocated must be deallocated before the kernel exits"),
        statement: "On every path of a kernel, each tcgen05.alloc is followed by a tcgen05.dealloc before the kernel exits (paths are read with each predicate register taking one value until it is written; branches the reading cannot relate are left not decided).",
    },
    RuleRow {
        id: "check.double_dealloc",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.7.1")),
        message: Some("a path deallocates twice after the tcgen05.alloc at line {}: this second tcgen05.dealloc frees Tensor Memory no longer allocated"),
        statement: "On every path of a kernel, each tcgen05.dealloc frees an allocation of a tcgen05.alloc not yet deallocated.",
    },
    RuleRow {
        id: "check.alloc_after_relinquish",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxSection("9.7.16.7.1")),
        message: Some("this tcgen05.alloc follows the tcgen05.relinquish_alloc_permit at line {} on a path: the CTA may no longer allocate"),
        statement: "No path of a kernel executes a tcgen05.alloc after tcgen05.relinquish_alloc_permit.",
    },
    RuleRow {
        id: "check.tensor_map_swizzle",
        severity: Severity::Error,
        source: RuleSource::Fixed(Source::PtxTable(40)),
        message: Some("swizzling mode {}: cp.async.bulk.tensor fills this buffer with the tensor map's swizzle (a copy at the line given), which the descriptor must describe"),
        statement: "A shared memory descriptor's swizzling mode is that of the tensor map whose cp.async.bulk.tensor fills the buffer it reads.",
    },
];

impl CheckRule {
    /// The rule's row.
    #[must_use]
    pub const fn row(self) -> &'static RuleRow {
        &RULES[self as usize]
    }

    /// Where the rule is written (every checker rule has a fixed source).
    #[must_use]
    pub const fn source(self) -> Source {
        self.row().fixed_source(Source::PtxSection("9.7.16"))
    }

    /// A finding of this rule, with the row's severity and source.
    pub(crate) fn finding(
        self,
        operand: Option<OperandName>,
        field: &'static str,
        value: FindingValue,
        line: u32,
    ) -> Finding {
        let row = self.row();
        Finding {
            severity: row.severity,
            operand,
            field,
            value,
            rule: Rule::Check(self),
            source: self.source(),
            line,
            candidate: None,
        }
    }
}

/// The tcgen05 instructions of `f`, in order: the instructions its reports follow.
pub(crate) fn tcgen05_instructions<'f, 'a>(f: &'f Function<'a>) -> Vec<&'f Instruction<'a>> {
    f.instructions
        .iter()
        .filter(|i| i.opcode.starts_with("tcgen05."))
        .collect()
}

/// The rule a finding reports: the typed error of the module that holds the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A rule of an instruction form, or of an immediate descriptor it carries (the
    /// [`ptx`](crate::ptx) module's validation).
    Ptx(PtxError),
    /// A rule of a shared memory descriptor, on its known bits.
    Smem(SmemError),
    /// The target cannot have tcgen05 instructions.
    Target(TargetError),
    /// A rule of the checker ([`RULES`]).
    Check(CheckRule),
}

/// The value a finding concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingValue {
    /// A number.
    Number(u64),
    /// A name (a qualifier, a target).
    Name(&'static str),
    /// A name as written in the input (an unknown qualifier), by its byte range in the
    /// instruction's text.
    Text(usize, usize),
    /// The module's `.target` as written ([`InstructionReport::target_name`]).
    Target,
}

/// One error or warning about one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// The operand the value comes from, if it is an operand.
    pub operand: Option<OperandName>,
    /// The field concerned (for example `"m"`, `"fixed_46_48"`, `"cta_group"`).
    pub field: &'static str,
    /// The value.
    pub value: FindingValue,
    /// The rule.
    pub rule: Rule,
    /// Where the rule is written.
    pub source: Source,
    /// 1-based line where the value was defined (the instruction's own line for qualifiers;
    /// the `.target` or `.version` line for those).
    pub line: u32,
    /// The value of the operand this finding is about, where the operand can take one of a
    /// few constants (`selp`, predicated `mov`s) and only this one breaks the rule.
    pub candidate: Option<u64>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            Rule::Ptx(e) => e.fmt(f),
            Rule::Smem(e) => e.fmt(f),
            Rule::Target(e) => e.fmt(f),
            Rule::Check(r) => {
                let row = r.row();
                let Some((before, after)) = row.text().split_once("{}") else {
                    return f.write_str(row.text());
                };
                f.write_str(before)?;
                match self.value {
                    FindingValue::Number(v) if r == CheckRule::VersionAboveModel => {
                        write!(f, "{}.{}", v / 10, v % 10)?;
                    }
                    FindingValue::Number(v) if v < 1024 || self.field.ends_with("_line") => {
                        write!(f, "{v}")?;
                    }
                    FindingValue::Number(v) => write!(f, "{v:#x}")?,
                    FindingValue::Name(n) => f.write_str(n)?,
                    FindingValue::Text(..) => f.write_str("as written")?,
                    FindingValue::Target => f.write_str("of .target")?,
                }
                f.write_str(after)
            }
        }
    }
}

impl Finding {
    /// The rule's stable identifier (for example `"idesc.n_out_of_range"`,
    /// `"check.unknown_qualifier"`): that of the rule table the rule is written in
    /// ([`Diagnostic::rule_id`](crate::Diagnostic::rule_id)), or the field where the error type
    /// has no table.
    #[must_use]
    pub fn rule_id(&self) -> &'static str {
        use crate::diagnostic::Diagnostic;
        let id = match self.rule {
            Rule::Check(r) => Some(r.row().id),
            Rule::Ptx(e) => e.rule_id(),
            Rule::Smem(e) => e.rule_id(),
            Rule::Target(e) => e.rule_id(),
        };
        id.unwrap_or(self.field)
    }

    /// The rule in one sentence, as its table states it.
    #[must_use]
    pub fn statement(&self) -> &'static str {
        use crate::shapes::MmaError;
        match self.rule {
            Rule::Check(r) => r.row().statement,
            Rule::Ptx(PtxError::Rule { rule, .. }) => rule.row().statement,
            Rule::Ptx(PtxError::Idesc(MmaError::Idesc(e))) => e.rule().row().statement,
            Rule::Ptx(PtxError::Idesc(e)) => e.rule().map_or("", |r| r.row().statement),
            Rule::Ptx(PtxError::Zmask(e)) => e.rule().row().statement,
            Rule::Ptx(PtxError::Smem(e)) | Rule::Smem(e) => e.rule().row().statement,
            Rule::Ptx(PtxError::Tmem(e)) => e.rule().row().statement,
            Rule::Target(e) => e.row().statement,
        }
    }
}

/// Bits 14-63 of a shared memory descriptor: every field but the start address (Table 40).
pub const FIELDS_BUT_START_ADDRESS: u64 = !0x3fff;

/// True when every field of a shared memory descriptor but its start address is known: what
/// a compiler fixes at compile time (the start address comes from the buffer's run-time
/// address).
#[must_use]
pub const fn known_but_start_address(bits: KnownBits) -> bool {
    bits.known & FIELDS_BUT_START_ADDRESS == FIELDS_BUT_START_ADDRESS
}

/// What the checker knows of one tcgen05 instruction, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstructionReport<'a> {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The opcode with its qualifiers as written (`tcgen05.mma.cta_group::1.kind::f16`).
    pub instruction: &'a str,
    /// The statement as written.
    pub text: &'a str,
    /// The function it is in.
    pub function: Option<&'a str>,
    /// The `.target` of its module as written (or the override's name).
    pub target_name: Option<&'a str>,
    /// The `.kind` of an MMA.
    pub kind: Option<Kind>,
    /// The instruction descriptor when all 32 bits are known.
    pub idesc: Option<u32>,
    /// The instruction descriptor's known bits (`None` where the instruction has none).
    pub idesc_bits: Option<KnownBits>,
    /// Matrix A's shared memory descriptor's known bits (`None` where A is not a descriptor).
    pub a_desc: Option<KnownBits>,
    /// Matrix B's shared memory descriptor's known bits.
    pub b_desc: Option<KnownBits>,
    /// `tcgen05.cp`'s source descriptor's known bits.
    pub s_desc: Option<KnownBits>,
    /// Every error and warning.
    pub findings: Vec<Finding>,
    /// Its shared memory descriptors' known bits rely on rules.md R7: an addition into a
    /// descriptor does not carry out of the start-address field ([`Options::no_assume`]).
    pub assumed: bool,
}

impl InstructionReport<'_> {
    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
    }
}

/// How to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// Overrides the module's `.target`.
    pub target: Option<Target>,
    /// Turns rules.md R7 off: an addition into a shared memory descriptor may carry out of
    /// the start-address field, so `desc + stage * C` with a run-time `stage` leaves the
    /// descriptor's fields unknown (`--no-assume`).
    pub no_assume: bool,
}

/// The result of checking one module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<'a> {
    /// The target the rules were applied for (`None` when the module's cannot have tcgen05).
    pub target: Option<Target>,
    /// The target as written in `.target` (or the override's name).
    pub target_name: Option<&'a str>,
    /// The module's `.version` (major * 10 + minor), `None` without one: findings cite their
    /// sources in that manual's numbering ([`crate::diagnostic::Source::cite`]).
    pub version: Option<u8>,
    /// Every tcgen05 instruction, in order.
    pub instructions: Vec<InstructionReport<'a>>,
    /// What the reader skipped.
    pub read_problems: Vec<ReadProblem>,
    /// Read problems beyond those kept.
    pub read_problems_dropped: usize,
    /// Statements read.
    pub statements: usize,
    /// The input is binary (a NUL byte, an ELF file), not PTX text.
    pub binary: bool,
    /// Instructions whose shared memory descriptors' known bits rely on rules.md R7
    /// ([`Options::no_assume`]).
    pub assumed: usize,
    /// Scale operands (`[scale_A]`, `[scale_B]`) of block-scaled MMAs not checked against the
    /// `tcgen05.cp`s: their Tensor Memory address or their instruction descriptor is not
    /// known at compile time.
    pub scale_operands_unlinked: usize,
    /// Kernels' `tcgen05.alloc` / `tcgen05.dealloc` pairings left not decided: a path that may
    /// leave an allocation, deallocate twice or allocate after the relinquish, but only through
    /// a branch this reading cannot relate to the allocation's (warp-dependent predicates
    /// computed twice), or control flow it cannot follow.
    pub alloc_undecided: usize,
}

impl Report<'_> {
    /// Number of errors over all instructions.
    #[must_use]
    pub fn errors(&self) -> usize {
        self.instructions.iter().map(|i| i.errors().count()).sum()
    }

    /// Number of warnings over all instructions.
    #[must_use]
    pub fn warnings(&self) -> usize {
        self.instructions.iter().map(|i| i.warnings().count()).sum()
    }

    /// The shared memory descriptors of every instruction (`a_desc`, `b_desc`, `s_desc`):
    /// how many, how many have every field but the start address known, and how many are
    /// left partly unknown.
    #[must_use]
    pub fn descriptors(&self) -> (usize, usize, usize) {
        let all = self
            .instructions
            .iter()
            .flat_map(|i| [i.a_desc, i.b_desc, i.s_desc])
            .flatten();
        let (mut n, mut known) = (0, 0);
        for d in all {
            n += 1;
            known += usize::from(known_but_start_address(d));
        }
        (n, known, n - known)
    }

    /// True when the input is not PTX: binary (a NUL byte, an ELF file), or no statement read
    /// but bytes skipped.
    #[must_use]
    pub fn unreadable(&self) -> bool {
        self.binary || (self.statements == 0 && !self.read_problems.is_empty())
    }
}

/// Reads and checks a PTX module.
#[must_use]
pub fn check<'a>(src: &'a [u8], options: &Options) -> Report<'a> {
    let module = ptx_reader::read(src);
    check_module(&module, options)
}

/// Checks a module already read.
#[must_use]
pub fn check_module<'a>(module: &Module<'a>, options: &Options) -> Report<'a> {
    instructions::check_module(module, options)
}

/// Checks one instruction already read as the one instruction of an entry of a module of
/// [`crate::ptx::MAX_PTX_VERSION`] for `target`: the rules `tcgen05 check` applies to it,
/// without writing or reading a module (the emulator's line; a line on its own has no
/// `.version`, and every target's forms exist at the highest version modelled). Returns the
/// report and the typed form the checker decoded the line to (`None` where it decoded to
/// none), so that the line is executed as checked without being parsed again.
#[must_use]
pub fn check_line<'a>(
    ins: &Instruction<'a>,
    target: Target,
) -> (Report<'a>, Option<crate::ptx::Form<'a>>) {
    let version = Some((crate::ptx::MAX_PTX_VERSION, 1));
    let module_target = Some((target.name(), 2));
    let module = Module {
        version,
        target: module_target,
        functions: alloc::vec![Function {
            name: Some("emulate"),
            kind: ptx_reader::FunctionKind::Entry,
            line: 4,
            instructions: alloc::vec![ins.clone()],
            labels: Vec::new(),
            version,
            target: module_target,
        }],
        shared: Vec::new(),
        statements: 1,
        binary: false,
        problems: Vec::new(),
        problems_dropped: 0,
    };
    let options = Options {
        target: Some(target),
        ..Options::default()
    };
    let mut form = None;
    let report = instructions::check_module_parsed(&module, &options, Some(&mut form));
    (report, form)
}

#[cfg(test)]
mod tests;
