//! From a parsed tcgen05 instruction to the [`ptx`](crate::ptx) builder of its form, whose
//! validation holds the rules; plus the known-bits checks of the shared memory descriptors.

use alloc::vec::Vec;

use super::dataflow::{self, Registers, Value};
use super::decode::{self, Decoded};
use super::known_bits::KnownBits;
use super::{smem, CheckRule, Finding, FindingValue, InstructionReport, Options, Report, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::instruction_descriptor::scale_format::layout_word;
use crate::instruction_descriptor::InstructionDescriptor;
use crate::mma::{CtaGroup, ElementType, Kind, Major};
use crate::ptx::grammar::Arg;
use crate::ptx::syntax::{mma_op, mma_slot, MMA};
use crate::ptx::walk::placeholder_name;
use crate::ptx::{
    self, ASource, Alloc, Context, Cp, Dealloc, Form, FormError, Mma, OperandName, PtxError,
    PtxRule, MAX_PTX_VERSION,
};
use crate::ptx_reader::{Function, Instruction, Module, Operand};
use crate::shapes::swizzle_allowed;
use crate::shared_memory_descriptor::Swizzle;
use crate::targets::Target;

/// The values an instruction descriptor that is not fully known can take, where few: the
/// constants a `selp` or predicated `mov`s choose between (each checked on its own, its
/// findings naming it), or every completion of a few unknown bits (a sparsity selector or
/// scale factor ids set at run time: a finding is kept when every completion has it, so each
/// rule is applied when the bits it reads are known).
enum Alternatives {
    None,
    Candidates(Vec<(u64, u32)>),
    Completions(Vec<u64>),
}

/// Most unknown bits of an instruction descriptor whose completions are all checked.
const MAX_UNKNOWN_IDESC_BITS: u32 = 8;

impl Alternatives {
    fn of(
        f: &Function<'_>,
        regs: &Registers<'_>,
        name: Option<&str>,
        bits: KnownBits,
    ) -> Alternatives {
        if let Some(c) = name.and_then(|n| dataflow::candidates(f, regs, n)) {
            return Alternatives::Candidates(c);
        }
        let unknown = !bits.known & 0xffff_ffff;
        if unknown == 0 || unknown.count_ones() > MAX_UNKNOWN_IDESC_BITS {
            return Alternatives::None;
        }
        // Every subset of the unknown bits (Knuth's enumeration of submasks).
        let mut out = Vec::new();
        let mut sub: u64 = 0;
        loop {
            out.push((bits.value & 0xffff_ffff) | sub);
            sub = sub.wrapping_sub(unknown) & unknown;
            if sub == 0 {
                break;
            }
        }
        Alternatives::Completions(out)
    }

    /// The findings the alternatives add to those of the unknown descriptor (`base`): with
    /// the candidate that has each, and the line to report.
    fn findings(
        &self,
        mma: &Mma<'_>,
        ctx: &Context,
        base: &[PtxError],
        line: u32,
    ) -> Vec<(PtxError, Option<u64>, u32)> {
        let validate = |v: u64| -> Vec<PtxError> {
            let mut m = *mma;
            m.idesc = ptx::Value::Imm(u32::try_from(v).unwrap_or(u32::MAX));
            m.validate(ctx)
                .iter()
                .filter(|e| !base.contains(e))
                .collect()
        };
        let mut out = Vec::new();
        match self {
            Alternatives::None => {}
            Alternatives::Candidates(c) => {
                for &(v, line) in c {
                    for e in validate(v) {
                        out.push((e, Some(v), line));
                    }
                }
            }
            Alternatives::Completions(values) => {
                let mut sets = values.iter().map(|&v| validate(v));
                let Some(first) = sets.next() else { return out };
                let mut common = first;
                for set in sets {
                    common.retain(|e| set.contains(e));
                }
                out.extend(common.into_iter().map(|e| (e, None, line)));
            }
        }
        out
    }
}

/// The newest PTX ISA version read without a warning: 9.5 (compilers of 2026 write 9.4 and
/// 9.5). Its instructions are checked as [`MAX_PTX_VERSION`]'s forms.
const MAX_READ_VERSION: u8 = 95;

/// Where the module's directives are.
struct Places {
    target_line: u32,
    version_line: u32,
}

/// Keeps [`InstructionReport::assumed`] only where rules.md R7 changed what is known of a
/// descriptor: the function is analysed again without it and the descriptors compared.
fn confirm_assumed<'a>(
    f: &Function<'a>,
    regs: &Registers<'a>,
    env: &dataflow::Environment<'_, 'a>,
    reports: &mut [InstructionReport<'_>],
) {
    if !reports.iter().any(|r| r.assumed) {
        return;
    }
    // Only the descriptors' backward slice is analysed again.
    let mut names: Vec<&'a str> = Vec::new();
    let tc = f
        .instructions
        .iter()
        .filter(|i| i.opcode.starts_with("tcgen05."));
    for (ins, r) in tc.zip(reports.iter()) {
        if r.assumed {
            for op in ins.operands.iter().take(3) {
                if let Operand::Name(n) = op {
                    names.push(n);
                }
            }
        }
    }
    let part = dataflow::slice(f, regs, &names);
    let plain = dataflow::analyse_in(
        &part,
        &dataflow::Environment {
            assume_no_carry_out: false,
            ..*env
        },
    );
    let tc = f
        .instructions
        .iter()
        .filter(|i| i.opcode.starts_with("tcgen05."));
    for (ins, r) in tc.zip(reports.iter_mut()) {
        if !r.assumed {
            continue;
        }
        let bits_of = |k: usize| match ins.operands.get(k) {
            Some(Operand::Name(n)) => Some(plain.get(n).bits),
            _ => None,
        };
        let same = if ins.opcode.starts_with("tcgen05.cp") {
            r.s_desc.is_none_or(|d| bits_of(1) == Some(d))
        } else {
            r.a_desc.is_none_or(|d| bits_of(1) == Some(d))
                && r.b_desc.is_none_or(|d| bits_of(2) == Some(d))
        };
        r.assumed = !same;
    }
}

/// The rules' context of one module of the input: its target, and the findings every
/// instruction of it carries (an unknown target, no `.target`).
struct ModuleContext<'a> {
    places: Places,
    target: Option<Target>,
    target_name: Option<&'a str>,
    version: Option<u8>,
    findings: Vec<Finding>,
}

fn module_context<'a>(
    options: &Options,
    version: Option<(u8, u32)>,
    module_target: Option<(&'a str, u32)>,
) -> ModuleContext<'a> {
    let places = Places {
        target_line: module_target.map_or(0, |t| t.1),
        version_line: version.map_or(0, |v| v.1),
    };
    let mut findings: Vec<Finding> = Vec::new();
    let (target, target_name) = match (options.target, module_target) {
        (Some(t), _) => (Some(t), Some(t.name())),
        (None, Some((name, line))) => match Target::from_name(name) {
            Ok(t) => (Some(t), Some(name)),
            Err(e) => {
                findings.push(Finding {
                    severity: Severity::Error,
                    operand: None,
                    field: "target",
                    value: FindingValue::Target,
                    rule: Rule::Target(e),
                    source: e.source(),
                    line,
                    candidate: None,
                });
                (None, Some(name))
            }
        },
        (None, None) => {
            findings.push(check_finding(
                CheckRule::NoTarget,
                None,
                "target",
                FindingValue::Name(Target::Sm100a.name()),
                0,
            ));
            (Some(Target::Sm100a), None)
        }
    };
    ModuleContext {
        places,
        target,
        target_name,
        version: version.map(|v| v.0),
        findings,
    }
}

pub(super) fn check_module<'a>(module: &Module<'a>, options: &Options) -> Report<'a> {
    check_module_parsed(module, options, None)
}

/// [`check_module`], keeping in `form` the typed form its tcgen05 instruction decoded to (for
/// a module of one tcgen05 instruction, the emulator's line, which is then executed as the
/// checker read it; `None` where the line decoded to none).
pub(super) fn check_module_parsed<'a>(
    module: &Module<'a>,
    options: &Options,
    mut form: Option<&mut Option<Form<'a>>>,
) -> Report<'a> {
    let first = module_context(options, module.version, module.target);
    let mut report = Report {
        target: first.target,
        target_name: first.target_name,
        version: first.version,
        instructions: Vec::new(),
        read_problems: module.problems.clone(),
        read_problems_dropped: module.problems_dropped,
        statements: module.statements,
        binary: module.binary,
        assumed: 0,
        scale_operands_unlinked: 0,
        alloc_undecided: 0,
    };
    let mut version_reported = false;
    let mut first_set = false;
    for f in &module.functions {
        if !f
            .instructions
            .iter()
            .any(|i| i.opcode.starts_with("tcgen05."))
        {
            continue;
        }
        let mc = module_context(options, f.version, f.target);
        if !first_set {
            first_set = true;
            report.target = mc.target;
            report.target_name = mc.target_name;
        }
        let (places, target, version, file_findings) =
            (&mc.places, mc.target, mc.version, &mc.findings);
        let env = dataflow::Environment {
            shared: &module.shared,
            assume_no_carry_out: !options.no_assume,
        };
        let regs = dataflow::analyse_in(f, &env);
        let first_of_function = report.instructions.len();
        let mut first_group: Option<CtaGroup> = None;
        let mut mixed_reported = false;
        for ins in &f.instructions {
            if !ins.opcode.starts_with("tcgen05.") {
                continue;
            }
            let mut r = InstructionReport {
                line: ins.line,
                column: ins.column,
                instruction: ins.opcode,
                text: ins.text,
                function: f.name,
                target_name: mc.target_name,
                kind: None,
                idesc: None,
                idesc_bits: None,
                a_desc: None,
                b_desc: None,
                s_desc: None,
                findings: Vec::new(),
                assumed: false,
            };
            // File-level problems go on every instruction: each is checked under them.
            r.findings.extend(file_findings.iter().copied());
            let ctx = match target {
                Some(t) => {
                    let v = version.unwrap_or(t.min_ptx_version());
                    if v > MAX_READ_VERSION {
                        if !version_reported {
                            version_reported = true;
                            r.findings.push(check_finding(
                                CheckRule::VersionAboveModel,
                                None,
                                "version",
                                FindingValue::Number(u64::from(v)),
                                places.version_line,
                            ));
                        }
                        Some(Context::new(t).with_version(MAX_PTX_VERSION.max(t.min_ptx_version())))
                    } else if v > MAX_PTX_VERSION {
                        // Unreachable while MAX_PTX_VERSION is MAX_READ_VERSION (both 9.5, as
                        // ptxas 13.5): a file of 9.2-9.5 is checked at its own version.
                        Some(Context::new(t).with_version(MAX_PTX_VERSION.max(t.min_ptx_version())))
                    } else {
                        Some(Context::new(t).with_version(v))
                    }
                }
                None => None,
            };
            let group =
                check_instruction(ins, f, &regs, (ctx, form.as_deref_mut()), places, &mut r);
            if let Some(g) = group {
                match first_group {
                    None => first_group = Some(g),
                    Some(first) if first != g && !mixed_reported => {
                        mixed_reported = true;
                        r.findings.push(ptx_finding(
                            PtxError::Rule {
                                rule: PtxRule::CtaGroupMixed,
                                value: u64::from(g.count()),
                                name: None,
                            },
                            None,
                            ins.line,
                        ));
                    }
                    _ => {}
                }
            }
            report.instructions.push(r);
        }
        if let Some(reports) = report.instructions.get_mut(first_of_function..) {
            confirm_assumed(f, &regs, &env, reports);
            report.assumed += reports.iter().filter(|r| r.assumed).count();
            report.alloc_undecided +=
                super::kernel::check_kernel(f, &module.functions, &regs, reports);
            report.scale_operands_unlinked +=
                super::block_scale::check_block_scale(f, &regs, reports, report.target);
        }
    }
    report
}

fn check_finding(
    rule: CheckRule,
    operand: Option<OperandName>,
    field: &'static str,
    value: FindingValue,
    line: u32,
) -> Finding {
    rule.finding(operand, field, value, line)
}

fn ptx_finding(e: PtxError, operand: Option<OperandName>, line: u32) -> Finding {
    Finding {
        severity: e.severity(),
        operand,
        field: e.field(),
        value: match e.value_name() {
            Some(n) => FindingValue::Name(n),
            None => FindingValue::Number(e.value()),
        },
        rule: Rule::Ptx(e),
        source: e.source(),
        line,
        candidate: None,
    }
}

/// An operand's value: a register's analysed value, an immediate's bits.
struct Op<'a> {
    /// The name to give the builder (a register, or the grammar's name of the position).
    name: &'a str,
    value: Value,
    /// Line where the value was defined.
    line: u32,
}

/// The value of operand position `i` of `d` (the grammar's index): a register's known bits
/// from the dataflow, an immediate's own, nothing known of an address.
fn operand<'a>(regs: &Registers<'_>, d: &Decoded<'a>, i: usize, line: u32) -> Op<'a> {
    let placeholder = d
        .grammar()
        .operands
        .get(i)
        .map_or("operand", |s| placeholder_name(s.name));
    match d.arg(i) {
        Some(Arg::Reg(n)) => {
            let value = regs.get(n);
            let def = regs
                .def_line(n)
                .or_else(|| value.line_of(!0))
                .unwrap_or(line);
            Op {
                name: n,
                value,
                line: def,
            }
        }
        Some(Arg::Imm(v)) => Op {
            name: placeholder,
            value: regs.operand(&Operand::Imm(v), line),
            line,
        },
        Some(Arg::Addr(n, _)) => Op {
            name: n,
            value: Value::UNKNOWN,
            line,
        },
        _ => Op {
            name: placeholder,
            value: Value::UNKNOWN,
            line,
        },
    }
}

fn constant(v: &Value, width: u32) -> Option<u64> {
    v.bits
        .is_constant(width)
        .then_some(v.bits.value & super::known_bits::width_mask(width))
}

/// The known-bits glue: a register operand whose value the dataflow proves is given to the
/// builder as the immediate it holds, so that the builder checks it as it checks one written.
fn known<'a, T: TryFrom<u64>>(op: &Op<'a>, width: u32) -> ptx::Value<'a, T> {
    match constant(&op.value, width).and_then(|v| T::try_from(v).ok()) {
        Some(v) => ptx::Value::Imm(v),
        None => ptx::Value::Reg(op.name),
    }
}

/// Checks one instruction, filling `r`; returns its `.cta_group`.
fn check_instruction<'a>(
    ins: &Instruction<'a>,
    f: &Function<'a>,
    regs: &Registers<'_>,
    (ctx, decoded): (Option<Context>, Option<&mut Option<Form<'a>>>),
    places: &Places,
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let site = Site {
        ins,
        places,
        line: ins.line,
    };
    let d = match decode::decode(ins) {
        Ok(d) => d,
        Err(e) => {
            site.form_errors(r, core::slice::from_ref(&e));
            return None;
        }
    };
    site.form_errors(r, &d.problems);
    if let Some(out) = decoded {
        *out = d.form();
    }
    let g = d.grammar();
    if core::ptr::eq(g, &MMA) {
        // `.kind::ti16` (PTX ISA 9.4) is no [`Kind`]: its arithmetic is not modelled (rules.md F3).
        r.kind = d
            .qual(mma_slot::KIND)
            .and_then(|v| Kind::ALL.get(usize::from(v)).copied());
    }
    let group = g
        .slots
        .iter()
        .position(|s| s.name == "cta_group")
        .and_then(|j| d.qual(j))
        .map(|v| if v == 0 { CtaGroup::One } else { CtaGroup::Two });
    let Some(form) = d.instruction() else {
        return group;
    };
    let line = site.line;
    let at_line = |_: &PtxError| (None, line);
    let read = Read {
        site: &site,
        regs,
        ctx,
        d: &d,
    };
    match form {
        ptx::Instruction::Mma(m) => check_mma(&read, f, m, r),
        ptx::Instruction::Cp(c) => check_cp(&read, c, r),
        ptx::Instruction::Alloc(_) | ptx::Instruction::Dealloc(_) => {
            // The column count, where the dataflow knows it, as the immediate it is.
            let n = operand(regs, &d, 1, line);
            let i = match form {
                ptx::Instruction::Alloc(a) => ptx::Instruction::Alloc(Alloc {
                    n_cols: known(&n, 32),
                    ..a
                }),
                ptx::Instruction::Dealloc(a) => ptx::Instruction::Dealloc(Dealloc {
                    n_cols: known(&n, 32),
                    ..a
                }),
                other => other,
            };
            site.finish(r, ctx.map(|c| i.validate(&c)), &n_cols_lines(&n, line));
        }
        other => site.finish(r, ctx.map(|c| other.validate(&c)), &at_line),
    }
    group
}

/// Where an `alloc` / `dealloc` finding is: a column count rule at the line that defines the
/// count.
fn n_cols_lines(n: &Op<'_>, line: u32) -> impl Fn(&PtxError) -> (Option<OperandName>, u32) {
    let n_line = n.line;
    move |e: &PtxError| match e {
        PtxError::Tmem(_) => (Some(OperandName::NCols), n_line),
        _ => (None, line),
    }
}

/// `tcgen05.mma`: the typed form with its instruction descriptor and zero-column mask where
/// the dataflow knows them, validated by the builder; then the alternatives of a descriptor
/// not fully known, and the shared memory descriptors on their known bits.
fn check_mma<'a>(
    at: &Read<'_, '_, 'a>,
    f: &Function<'a>,
    m: Mma<'_>,
    r: &mut InstructionReport<'a>,
) {
    let Read { site, regs, ctx, d } = *at;
    let line = site.line;
    let a = operand(regs, d, mma_op::A, line);
    let a_tmem = matches!(m.a, ASource::Tmem(_));
    let b = operand(regs, d, mma_op::B, line);
    let mut idesc = operand(regs, d, mma_op::IDESC, line);
    if regs.assumed(idesc.name) {
        // rules.md R7 is about shared memory descriptors: an instruction descriptor is read
        // only from what holds without it.
        idesc.value = Value::UNKNOWN;
    }
    let idesc_value = constant(&idesc.value, 32).and_then(|v| u32::try_from(v).ok());
    r.idesc_bits = Some(idesc.value.bits.truncate(32));
    r.idesc = idesc_value;
    if !a_tmem {
        r.a_desc = Some(a.value.bits);
    }
    r.b_desc = Some(b.value.bits);
    r.assumed = (!a_tmem && regs.assumed(a.name)) || regs.assumed(b.name);
    let zmask = operand(regs, d, mma_op::ZMASK, line);
    let mut mma = Mma {
        idesc: known(&idesc, 32),
        ..m
    };
    if m.zero_column_mask.is_some() {
        mma.zero_column_mask = Some(known(&zmask, 64));
    }
    let problems = ctx.map(|c| mma.validate(&c));
    let idesc_line = idesc.value.line_of(!0).unwrap_or(idesc.line);
    let zmask_line = if m.zero_column_mask.is_some() {
        zmask.line
    } else {
        line
    };
    let lines = |e: &PtxError| -> (Option<OperandName>, u32) {
        match e {
            PtxError::Idesc(_)
            | PtxError::Rule {
                rule:
                    PtxRule::SparseMismatch
                    | PtxRule::AshiftM
                    | PtxRule::ScaleTypeForScaleVec
                    | PtxRule::ScaleFactorIdForScaleVec,
                ..
            } => (Some(OperandName::Idesc), idesc_line),
            PtxError::Zmask(_) => (Some(OperandName::ZeroColumnMask), zmask_line),
            _ => (None, line),
        }
    };
    site.finish(r, problems, &lines);
    if let (None, Some(c)) = (idesc_value, ctx) {
        let name = match d.arg(mma_op::IDESC) {
            Some(Arg::Reg(n)) => Some(n),
            _ => None,
        };
        let base: Vec<PtxError> = problems.map(|p| p.iter().collect()).unwrap_or_default();
        let alternatives = Alternatives::of(f, regs, name, idesc.value.bits);
        for (e, candidate, at) in alternatives.findings(&mma, &c, &base, idesc_line) {
            let (operand, _) = lines(&e);
            let mut finding = ptx_finding(e, operand, at);
            finding.candidate = candidate;
            r.findings.push(finding);
        }
    }
    // Shared memory descriptors, on their known bits.
    if let Some(t) = ctx.map(|c| c.target) {
        if !a_tmem {
            smem_findings(r, &a.value, OperandName::ADesc, t);
        }
        smem_findings(r, &b.value, OperandName::BDesc, t);
    }
    // Their swizzling modes against the operands' major-ness and types (R18), where the
    // instruction descriptor is known and valid and the swizzle bits are known.
    let target = ctx.map_or(Target::DEFAULT, |c| c.target);
    if let Some(fields) = idesc_value
        .map(|v| layout_word(v, m.kind, target))
        .and_then(|v| InstructionDescriptor::from_bits(v, m.kind).ok())
        .and_then(InstructionDescriptor::fields)
    {
        if !a_tmem {
            swizzle_finding(
                r,
                &a.value,
                OperandName::ADesc,
                fields.a_type,
                fields.transpose_a,
            );
        }
        swizzle_finding(
            r,
            &b.value,
            OperandName::BDesc,
            fields.b_type,
            fields.transpose_b,
        );
    }
}

/// `tcgen05.cp`: the typed form validated by the builder; the source descriptor is checked on
/// its known bits, whether fully known or not (so given to the builder as a register).
fn check_cp<'a>(at: &Read<'_, '_, 'a>, c: Cp<'_>, r: &mut InstructionReport<'a>) {
    let Read { site, regs, ctx, d } = *at;
    let line = site.line;
    let sdesc = operand(regs, d, 1, line);
    r.s_desc = Some(sdesc.value.bits);
    r.assumed = regs.assumed(sdesc.name);
    let cp = Cp {
        sdesc: ptx::Value::Reg(sdesc.name),
        ..c
    };
    site.finish(r, ctx.map(|cx| cp.validate(&cx)), &|_| (None, line));
    if let Some(t) = ctx.map(|cx| cx.target) {
        smem_findings(r, &sdesc.value, OperandName::Sdesc, t);
    }
}

/// One instruction as read: where it is, the function's register values, the rules' context
/// and its decoded form.
#[derive(Clone, Copy)]
struct Read<'s, 'r, 'a> {
    site: &'s Site<'s, 'a>,
    regs: &'s Registers<'r>,
    ctx: Option<Context>,
    d: &'s Decoded<'a>,
}

/// Where an instruction is, for its findings: the statement, the module's directive lines, the
/// instruction's line.
struct Site<'s, 'a> {
    ins: &'s Instruction<'a>,
    places: &'s Places,
    line: u32,
}

impl Site<'_, '_> {
    /// Adds what the line departs from the grammar in, as findings.
    fn form_errors(&self, r: &mut InstructionReport<'_>, problems: &[FormError<'_>]) {
        let mut operands_reported = false;
        for e in problems {
            if let Some(finding) = decode::finding(e, self.ins, &mut operands_reported) {
                r.findings.push(finding);
            }
        }
    }

    /// Adds the builder's `problems` (each at the line `lines` gives) to `r`.
    fn finish(
        &self,
        r: &mut InstructionReport<'_>,
        problems: Option<ptx::PtxDiagnostics>,
        lines: &dyn Fn(&PtxError) -> (Option<OperandName>, u32),
    ) {
        let Some(d) = problems else { return };
        for e in d.iter() {
            let (operand, at) = lines(&e);
            let mut finding = ptx_finding(e, operand, at);
            if let PtxError::Rule {
                rule: PtxRule::VersionTooLow,
                ..
            } = e
            {
                finding.line = self.places.version_line;
            }
            if finding.field == "target" {
                finding.line = self.places.target_line;
            }
            r.findings.push(finding);
        }
    }
}

/// Bits 61-63 of a shared memory descriptor: the swizzling mode (Table 40).
const SWIZZLE_BITS: u64 = 0b111 << 61;

fn swizzle_finding(
    r: &mut InstructionReport<'_>,
    v: &Value,
    operand: OperandName,
    ty: ElementType,
    transposed: bool,
) {
    if v.bits.known & SWIZZLE_BITS != SWIZZLE_BITS {
        return;
    }
    let code = ((v.bits.value & SWIZZLE_BITS) >> 61) as u8;
    let Ok(swizzle) = Swizzle::from_code(code) else {
        return; // an invalid code is reported by the descriptor's own rules
    };
    let major = if transposed { Major::Mn } else { Major::K };
    if !swizzle_allowed(ty, major, swizzle) {
        let rule = CheckRule::SwizzleForMajor;
        r.findings.push(Finding {
            severity: rule.row().severity,
            operand: Some(operand),
            field: "swizzle",
            value: FindingValue::Name(swizzle.name()),
            rule: Rule::Check(rule),
            source: rule.source(),
            line: v.line_of(SWIZZLE_BITS).unwrap_or(r.line),
            candidate: None,
        });
    }
}

fn smem_findings(r: &mut InstructionReport<'_>, v: &Value, operand: OperandName, target: Target) {
    let bits: KnownBits = v.bits;
    for (e, reads) in smem::known_problems(bits, target) {
        r.findings.push(Finding {
            severity: e.severity(),
            operand: Some(operand),
            field: e.field(),
            value: match e.value_name() {
                Some(n) => FindingValue::Name(n),
                None => FindingValue::Number(e.value()),
            },
            rule: Rule::Smem(e),
            source: e.source(),
            line: v.line_of(reads).unwrap_or(r.line),
            candidate: None,
        });
    }
}
