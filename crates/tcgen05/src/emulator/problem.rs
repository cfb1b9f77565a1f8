//! What stops an instruction: every problem, each with its rule, field, value and source.

use alloc::vec::Vec;
use core::fmt;

use crate::canonical_layout::LayoutError;
use crate::check::{Finding, FindingValue};
use crate::data_path::DataPathError;
use crate::diagnostic::{Diagnostic, Rule as RuleRow, RuleSource, Severity, Source};
use crate::instruction_descriptor::IdescError;
use crate::numerics::params::Problem as NumericsProblem;
use crate::ptx::PtxError;
use crate::ptx_reader::ReadProblem;
use crate::shared_memory_descriptor::SmemError;
use crate::tensor_memory::TmemError;
use crate::tmem_fragment::FragmentError;
use crate::zero_column_mask::ZmaskError;

/// The emulator's own rules: what a sequence of instructions can break beyond the rules of a
/// single instruction's form (those come from the [`ptx`](crate::ptx) builders and the
/// descriptor validators). Each has one row in [`RULES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EmuRule {
    /// The line is not an instruction the model executes.
    Unsupported,
    /// The operands do not match the form the model executes (an operand that must be an
    /// immediate, a count).
    Operands,
    /// A qualifier the model does not know.
    Qualifier,
    /// A shared-memory access outside the CTA's shared memory (228 KiB).
    SmemOutOfRange,
    /// A read of shared memory that was never written.
    SmemUninitialised,
    /// A Tensor Memory access to a column no `tcgen05.alloc` holds.
    TmemNotAllocated,
    /// A read of a Tensor Memory cell that was never written.
    TmemUninitialised,
    /// A Tensor Memory access beyond lane 127 or column 511.
    TmemOutOfRange,
    /// A `tcgen05.ld` / `.st` lane outside the issuing warp's quadrant.
    WarpQuadrant,
    /// `tcgen05.alloc` after `tcgen05.relinquish_alloc_permit`.
    AllocAfterRelinquish,
    /// No free range of the requested columns.
    AllocNoSpace,
    /// `tcgen05.dealloc` of a range that is not one allocation.
    DeallocNotAllocated,
    /// A register read before any instruction wrote it.
    RegisterUninitialised,
    /// `.collector::a::use` / `::lastuse` with no filled collector buffer.
    CollectorEmpty,
    /// `.collector::a::use` after the shared memory the buffer was filled from changed: the
    /// hardware may use the old A (warning; the model uses the buffer).
    CollectorStale,
    /// A form whose semantics the model does not implement (named in the value).
    NotModelled,
    /// Copies of a scale factor (or of A in Tensor Memory) that should be equal differ: the
    /// model reads the first copy (warning).
    CopiesDiffer,
    /// `tcgen05.shift` with a lane that is not a multiple of 32.
    ShiftLane,
    /// A 4- or 6-bit element of A in Tensor Memory whose 8-bit container has bits set outside
    /// the element's field (decision E9).
    ContainerPadding,
    /// A sparsity metadata value the PTX text does not call meaningful (decision E10).
    SparseMetadata,
    /// `.ashift` ran with the model's reading of the shift (decision E11), which no public
    /// source confirms for every detail (warning).
    AshiftReading,
}

/// A row of [`RULES`]: the message says the rule; the problem's value follows it.
const fn row(
    id: &'static str,
    severity: Severity,
    source: Source,
    message: &'static str,
) -> RuleRow {
    RuleRow::with_message(id, RuleSource::Fixed(source), severity, message)
}

/// The emulator's rules, one row each, indexed by [`EmuRule`].
pub const RULES: [RuleRow; 21] = [
    row(
        "unsupported-instruction",
        Severity::Error,
        Source::PtxSection("9.7.16"),
        "not a tcgen05 instruction this model executes",
    ),
    row(
        "operands",
        Severity::Error,
        Source::PtxSection("9.7.16"),
        "operands do not match the form (the model needs immediate operands)",
    ),
    row(
        "qualifier",
        Severity::Error,
        Source::PtxSection("9.7.16"),
        "qualifier not part of this instruction's syntax",
    ),
    row(
        "smem-out-of-range",
        Severity::Error,
        Source::PtxSection("9.7.16.3"),
        "shared-memory access beyond 228 KiB",
    ),
    row(
        "smem-uninitialised",
        Severity::Error,
        Source::PtxSection("9.7.16.3"),
        "read of shared memory never written",
    ),
    row(
        "tmem-not-allocated",
        Severity::Error,
        Source::PtxSection("9.7.16.7.1"),
        "Tensor Memory column not allocated",
    ),
    row(
        "tmem-uninitialised",
        Severity::Error,
        Source::PtxSection("9.7.16.1"),
        "read of a Tensor Memory cell never written",
    ),
    row(
        "tmem-out-of-range",
        Severity::Error,
        Source::Decision(24),
        "Tensor Memory access beyond 128 lanes x 512 columns",
    ),
    row(
        "warp-quadrant",
        Severity::Error,
        Source::PtxSection("9.7.16.8.1"),
        "warp accesses a lane outside its quadrant",
    ),
    row(
        "alloc-after-relinquish",
        Severity::Error,
        Source::PtxSection("9.7.16.7.1"),
        "tcgen05.alloc after tcgen05.relinquish_alloc_permit",
    ),
    row(
        "alloc-no-space",
        Severity::Error,
        Source::PtxSection("9.7.16.7.1"),
        "no free range of this many columns (the hardware would block)",
    ),
    row(
        "dealloc-not-allocated",
        Severity::Error,
        Source::PtxSection("9.7.16.7.1"),
        "tcgen05.dealloc of a range that is not one allocation",
    ),
    row(
        "register-uninitialised",
        Severity::Error,
        Source::PtxSection("9.7.16.8.4"),
        "register read before it was written",
    ),
    row(
        "collector-empty",
        Severity::Error,
        Source::PtxSection("9.7.16.10"),
        "collector buffer used before it was filled",
    ),
    row(
        "collector-stale",
        Severity::Warning,
        Source::PtxSection("9.7.16.10"),
        "shared memory of the collector's A changed since the fill: the buffer's old A is used",
    ),
    row(
        "not-modelled",
        Severity::Error,
        Source::PtxSection("9.7.16.10"),
        "form not modelled",
    ),
    row(
        "copies-differ",
        Severity::Warning,
        Source::PtxSection("9.7.16.10.7"),
        "copies that must be equal differ; the first copy is read",
    ),
    row(
        "shift-lane",
        Severity::Error,
        Source::PtxSection("9.7.16.9.3"),
        "the lane of tcgen05.shift's address must be aligned to 32",
    ),
    row(
        "container-padding",
        Severity::Error,
        Source::PtxSection("9.7.14.5.14"),
        "a 4- or 6-bit element's 8-bit container has bits set outside the element's field (they must be zero)",
    ),
    row(
        "sparse-metadata",
        Severity::Error,
        Source::PtxSection("9.7.16.10.8"),
        "sparsity metadata value is not one of the meaningful values (the others are undefined behaviour); value = lane << 24 | column << 8 | metadata",
    ),
    row(
        "ashift-reading",
        Severity::Warning,
        Source::PtxSection("9.7.16.10.9.1"),
        ".ashift modelled as decision E11 (in place, before the read, row i takes row i + 1 within each 32-lane subpartition); the direction and persistence are not confirmed on hardware",
    ),
];

impl EmuRule {
    /// The rule's row.
    #[must_use]
    pub const fn row(self) -> &'static RuleRow {
        &RULES[self as usize]
    }
}

/// The rule a problem breaks: the emulator's own, or one of the module it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// An emulator rule.
    Emu(EmuRule),
    /// The PTX reader could not read the line.
    Read(ReadProblem),
    /// A rule of the instruction's form, as [`tcgen05 check`](crate::check) applies it to the
    /// line: the [`ptx`](crate::ptx) builders' rules, the immediate instruction descriptor's,
    /// zero-column mask's and shared memory descriptors' rules.
    Check(Finding),
    /// A rule of the instruction's form ([`crate::ptx`]).
    Ptx(PtxError),
    /// A shared memory descriptor rule.
    Smem(SmemError),
    /// An instruction descriptor rule (Tables 42-44, rules.md R8-R13).
    Idesc(IdescError),
    /// A layout rule of the operand read through its descriptor.
    Layout(LayoutError),
    /// A data-path rule (D, A or scale-factor placement).
    DataPath(DataPathError),
    /// A Tensor Memory address or allocation rule.
    Tmem(TmemError),
    /// A `tcgen05.ld` / `.st` fragment rule.
    Fragment(FragmentError),
    /// A zero-column mask rule.
    Zmask(ZmaskError),
    /// An operand code the arithmetic refuses.
    Numerics(NumericsProblem),
}

/// One problem: its rule, severity, the field and value, and the rule's source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Problem {
    /// The rule.
    pub rule: Rule,
    /// Error or warning.
    pub severity: Severity,
    /// The field or operand concerned.
    pub field: &'static str,
    /// The value found.
    pub value: u64,
    /// Where the rule is written.
    pub source: Source,
}

impl Problem {
    /// A problem of an emulator rule.
    #[must_use]
    pub fn emu(rule: EmuRule, field: &'static str, value: u64) -> Problem {
        let r = rule.row();
        Problem {
            rule: Rule::Emu(rule),
            severity: r.severity,
            field,
            value,
            source: r.fixed_source(Source::PtxSection("9.7.16")),
        }
    }

    fn of<D: Diagnostic>(rule: Rule, d: &D) -> Problem {
        Problem {
            rule,
            severity: d.severity(),
            field: d.field(),
            value: d.value(),
            source: d.source(),
        }
    }

    /// The rule's identifier, as reports print it: the emulator's rule id
    /// (`tmem-uninitialised`), the checker's rule id, or for a rule of another module (a layout,
    /// data-path, Tensor Memory or numerics rule) the field it concerns, as `tcgen05 check` does.
    #[must_use]
    pub fn id(&self) -> &'static str {
        match &self.rule {
            Rule::Emu(r) => r.row().id,
            Rule::Read(_) => "read",
            Rule::Check(f) => f.rule_id(),
            _ => self.field,
        }
    }
}

impl From<PtxError> for Problem {
    fn from(e: PtxError) -> Problem {
        Problem::of(Rule::Ptx(e), &e)
    }
}
impl From<IdescError> for Problem {
    fn from(e: IdescError) -> Problem {
        Problem::of(Rule::Idesc(e), &e)
    }
}
impl From<SmemError> for Problem {
    fn from(e: SmemError) -> Problem {
        Problem::of(Rule::Smem(e), &e)
    }
}
impl From<LayoutError> for Problem {
    fn from(e: LayoutError) -> Problem {
        Problem::of(Rule::Layout(e), &e)
    }
}
impl From<DataPathError> for Problem {
    fn from(e: DataPathError) -> Problem {
        Problem::of(Rule::DataPath(e), &e)
    }
}
impl From<TmemError> for Problem {
    fn from(e: TmemError) -> Problem {
        Problem::of(Rule::Tmem(e), &e)
    }
}
impl From<FragmentError> for Problem {
    fn from(e: FragmentError) -> Problem {
        Problem::of(Rule::Fragment(e), &e)
    }
}
impl From<ZmaskError> for Problem {
    fn from(e: ZmaskError) -> Problem {
        Problem::of(Rule::Zmask(e), &e)
    }
}
impl From<NumericsProblem> for Problem {
    fn from(p: NumericsProblem) -> Problem {
        Problem {
            rule: Rule::Numerics(p),
            severity: Severity::Error,
            field: "operand code",
            value: p.value,
            source: Source::PtxSection("9.7.16.10"),
        }
    }
}
impl From<Finding> for Problem {
    fn from(x: Finding) -> Problem {
        Problem {
            rule: Rule::Check(x),
            severity: x.severity,
            field: x.field,
            value: match x.value {
                FindingValue::Number(v) => v,
                FindingValue::Name(_) | FindingValue::Text(..) | FindingValue::Target => 0,
            },
            source: x.source,
        }
    }
}

impl From<ReadProblem> for Problem {
    fn from(p: ReadProblem) -> Problem {
        Problem {
            rule: Rule::Read(p),
            severity: Severity::Error,
            field: "line",
            value: u64::from(p.column),
            source: Source::PtxSection("4"),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rule {
            Rule::Emu(r) => write!(
                f,
                "{}: {} = {:#x} ({})",
                r.row().text(),
                self.field,
                self.value,
                self.source
            ),
            Rule::Read(p) => write!(f, "{p}"),
            Rule::Check(x) => write!(f, "{x} ({})", x.source),
            Rule::Ptx(e) => write!(f, "{e}"),
            Rule::Smem(e) => write!(f, "{e}"),
            Rule::Idesc(e) => write!(f, "{e}"),
            Rule::Layout(e) => write!(f, "{e}"),
            Rule::DataPath(e) => write!(f, "{e}"),
            Rule::Tmem(e) => write!(f, "{e}"),
            Rule::Fragment(e) => write!(f, "{e}"),
            Rule::Zmask(e) => write!(f, "{e}"),
            Rule::Numerics(p) => write!(f, "{p}"),
        }
    }
}

/// Why an instruction did not complete: every problem found (it changed nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct EmuError {
    /// The problems, errors first in the order found.
    pub problems: Vec<Problem>,
}

impl EmuError {
    /// An error of one problem.
    #[must_use]
    pub fn one(p: Problem) -> EmuError {
        EmuError {
            problems: alloc::vec![p],
        }
    }
}

impl From<Problem> for EmuError {
    fn from(p: Problem) -> EmuError {
        EmuError::one(p)
    }
}

impl fmt::Display for EmuError {
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

impl core::error::Error for EmuError {}
