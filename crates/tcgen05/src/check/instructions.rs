//! From a parsed tcgen05 instruction to the [`ptx`](crate::ptx) builder of its form, whose
//! validation holds the rules; plus the known-bits checks of the shared memory descriptors.

use alloc::vec::Vec;

use super::dataflow::{self, Registers, Value};
use super::known_bits::KnownBits;
use super::qualifiers::{
    cp_qualifiers, cta_group_of, ld_st_qualifiers, mma_qualifiers, LdStQuals, MmaQuals, Quals,
};
use super::{smem, CheckRule, Finding, FindingValue, InstructionReport, Options, Report, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::instruction_descriptor::InstructionDescriptor;
use crate::mma::{CtaGroup, ElementType, Major};
use crate::ptx::{
    self, ASource, Alloc, Commit, CommitMulticast, Context, Cp, Dealloc, Fence, Mma, OperandName,
    PtxError, PtxRule, RedType, Reduction, ScaleVec, Shift, TmemLoad, TmemStore, Wait,
    MAX_PTX_VERSION,
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
            let group = check_instruction(ins, f, &regs, ctx, places, &mut r);
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
                super::block_scale::check_block_scale(f, &regs, reports);
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

/// An operand's value: a name's analysed value, an immediate's bits.
struct Op<'a> {
    /// The name to give the builder (a register, or a placeholder for an immediate).
    name: &'a str,
    value: Value,
    /// Line where the value was defined.
    line: u32,
    present: bool,
}

fn operand<'a>(
    regs: &Registers<'_>,
    op: Option<&Operand<'a>>,
    placeholder: &'a str,
    line: u32,
) -> Op<'a> {
    match op {
        Some(Operand::Name(n)) => {
            let value = regs.get(n);
            let def = regs
                .def_line(n)
                .or_else(|| value.line_of(!0))
                .unwrap_or(line);
            Op {
                name: n,
                value,
                line: def,
                present: true,
            }
        }
        Some(Operand::Not(n)) => Op {
            name: n,
            value: Value::UNKNOWN,
            line,
            present: true,
        },
        Some(o @ (Operand::Imm(_) | Operand::Float(_))) => Op {
            name: placeholder,
            value: regs.operand(o, line),
            line,
            present: true,
        },
        Some(Operand::Address { base, .. }) => Op {
            name: base.unwrap_or(placeholder),
            value: Value::UNKNOWN,
            line,
            present: true,
        },
        _ => Op {
            name: placeholder,
            value: Value::UNKNOWN,
            line,
            present: op.is_some(),
        },
    }
}

fn constant(v: &Value, width: u32) -> Option<u64> {
    v.bits
        .is_constant(width)
        .then_some(v.bits.value & super::known_bits::width_mask(width))
}

/// Checks one instruction, filling `r`; returns its `.cta_group`.
fn check_instruction<'a>(
    ins: &Instruction<'a>,
    _f: &Function<'a>,
    regs: &Registers<'_>,
    ctx: Option<Context>,
    places: &Places,
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let quals: Vec<&str> = ins.qualifiers().collect();
    let &op = quals.first()?;
    let rest = &quals[1..];
    let line = ins.line;
    let mut q = Quals::default();
    let push_unknown = |q: &mut Quals<'a>, s: &'a str| q.unknown.push(s);
    let site = Site { ins, places, line };
    let finish = |r: &mut InstructionReport<'a>,
                  q: &Quals<'a>,
                  problems: Option<ptx::PtxDiagnostics>,
                  lines: &dyn Fn(&PtxError) -> (Option<OperandName>, u32)| {
        site.finish(r, q, problems, lines);
    };
    let missing = |r: &mut InstructionReport<'a>, what: &'static str| site.missing(r, what);
    let bad_operands =
        |r: &mut InstructionReport<'a>, what: &'static str| site.bad_operands(r, what);
    let ops = &ins.operands;
    let at_line = |_: &PtxError| (None, line);
    match op {
        "mma" => {
            let MmaQuals {
                kind,
                ws,
                sp,
                block_scale,
                ashift,
                vec,
                collector,
            } = mma_qualifiers(rest, &mut q);
            r.kind = kind;
            let (Some(group), Some(kind)) = (q.cta_group, kind) else {
                if q.cta_group.is_none() {
                    missing(r, ".cta_group::1 / .cta_group::2");
                }
                if kind.is_none() {
                    missing(r, ".kind");
                }
                finish(r, &q, None, &at_line);
                return q.cta_group;
            };
            // [d], a, b, {[sp]}, idesc, {[sa], [sb]}, {dol}, enable, {scale | zmask}
            let mut i = 0;
            let d = operand(regs, ops.get(i), "d_tmem", line);
            i += 1;
            let a_op = ops.get(i);
            let a = operand(regs, a_op, "a_desc", line);
            let a_tmem = matches!(a_op, Some(Operand::Address { .. }));
            i += 1;
            let b = operand(regs, ops.get(i), "b_desc", line);
            i += 1;
            let sp_meta = if sp {
                i += 1;
                Some(operand(regs, ops.get(i - 1), "sp_meta", line).name)
            } else {
                None
            };
            let mut idesc = operand(regs, ops.get(i), "idesc", line);
            if regs.assumed(idesc.name) {
                // Decisions R7 is about shared memory descriptors: an instruction descriptor
                // is read only from what holds without it.
                idesc.value = Value::UNKNOWN;
            }
            i += 1;
            let scales = if block_scale {
                let sa = operand(regs, ops.get(i), "scale_a", line).name;
                let sb = operand(regs, ops.get(i + 1), "scale_b", line).name;
                i += 2;
                Some((sa, sb))
            } else {
                None
            };
            let mut dol: Vec<&str> = Vec::new();
            let has_dol = if let Some(Operand::Vector(v)) = ops.get(i) {
                for o in v {
                    dol.push(match o {
                        Operand::Name(n) => n,
                        _ => "disable_output_lane",
                    });
                }
                i += 1;
                true
            } else {
                false
            };
            let enable = operand(regs, ops.get(i), "enable_input_d", line);
            let enable_op = ops.get(i);
            i += 1;
            let last = ops.get(i);
            let last_op = operand(regs, last, "zero_column_mask", line);
            if last.is_some() {
                i += 1;
            }
            if !d.present
                || !a.present
                || !b.present
                || !idesc.present
                || !enable.present
                || i < ops.len()
            {
                bad_operands(r, "tcgen05.mma [d-tmem], a-desc|[a-tmem], b-desc, {[sp-meta],} idesc, {[scale-A], [scale-B],} {disable-output-lane,} enable-input-d {, scale-input-d | zero-column-mask}");
            }
            // Operand values.
            let idesc_value = match ops.get(if sp { 4 } else { 3 }) {
                Some(Operand::Imm(v)) if *v > u64::from(u32::MAX) => {
                    r.findings.push(check_finding(
                        CheckRule::ImmediateTooWide,
                        Some(OperandName::Idesc),
                        "idesc",
                        FindingValue::Number(*v),
                        line,
                    ));
                    None
                }
                _ => constant(&idesc.value, 32).and_then(|v| u32::try_from(v).ok()),
            };
            r.idesc_bits = Some(idesc.value.bits.truncate(32));
            r.idesc = idesc_value;
            let idesc_v = match idesc_value {
                Some(v) => ptx::Value::Imm(v),
                None => ptx::Value::Reg(idesc.name),
            };
            let enable_v = match enable_op {
                Some(Operand::Imm(v)) => ptx::Value::Imm(*v != 0),
                _ => ptx::Value::Reg(enable.name),
            };
            let a_src = if a_tmem {
                ASource::Tmem(a.name)
            } else {
                r.a_desc = Some(a.value.bits);
                ASource::Smem(a.name)
            };
            r.b_desc = Some(b.value.bits);
            r.assumed = (!a_tmem && regs.assumed(a.name)) || regs.assumed(b.name);
            let mut mma = Mma::new(group, kind, d.name, a_src, b.name, idesc_v, enable_v)
                .with_ws(ws)
                .with_ashift(ashift);
            if let Some(m) = sp_meta {
                mma = mma.with_sparse(m);
            }
            if let Some((sa, sb)) = scales {
                mma = mma.with_block_scale(vec, sa, sb);
            } else if vec != ScaleVec::Default {
                push_unknown(&mut q, vec.name().trim_start_matches('.'));
            }
            if let Some(c) = collector {
                mma = mma.with_collector(c);
            }
            if has_dol {
                mma = mma.with_disable_output_lane(&dol);
            }
            let mut zmask_line = line;
            if last.is_some() {
                if ws {
                    zmask_line = last_op.line;
                    mma = mma.with_zero_column_mask(match constant(&last_op.value, 64) {
                        Some(z) => ptx::Value::Imm(z),
                        None => ptx::Value::Reg(last_op.name),
                    });
                } else {
                    match last {
                        Some(Operand::Imm(v)) => match u8::try_from(*v) {
                            Ok(s) => mma = mma.with_scale_input_d(s),
                            Err(_) => r.findings.push(ptx_finding(
                                PtxError::Rule {
                                    rule: PtxRule::ScaleInputDRange,
                                    value: *v,
                                    name: None,
                                },
                                None,
                                line,
                            )),
                        },
                        _ => bad_operands(r, "scale-input-d is an immediate"),
                    }
                }
            }
            let problems = ctx.map(|c| mma.validate(&c));
            let idesc_line = idesc.value.line_of(!0).unwrap_or(idesc.line);
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
            finish(r, &q, problems, &lines);
            if let (None, Some(c)) = (idesc_value, ctx) {
                let name = match ops.get(if sp { 4 } else { 3 }) {
                    Some(Operand::Name(n)) => Some(*n),
                    _ => None,
                };
                let base: Vec<PtxError> = problems.map(|p| p.iter().collect()).unwrap_or_default();
                let alternatives = Alternatives::of(_f, regs, name, idesc.value.bits);
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
            if let Some(fields) = idesc_value
                .and_then(|v| InstructionDescriptor::from_bits(v, kind).ok())
                .and_then(InstructionDescriptor::fields)
            {
                let operands = [
                    (
                        !a_tmem,
                        &a.value,
                        OperandName::ADesc,
                        fields.a_type,
                        fields.transpose_a,
                    ),
                    (
                        true,
                        &b.value,
                        OperandName::BDesc,
                        fields.b_type,
                        fields.transpose_b,
                    ),
                ];
                for (smem, v, name, ty, transposed) in operands {
                    if smem {
                        swizzle_finding(r, v, name, ty, transposed);
                    }
                }
            }
            Some(group)
        }
        "ld" | "st" => check_ld_st(&site, regs, ctx, op, rest, r),
        "cp" => check_cp(&site, regs, ctx, rest, r),
        "shift" => check_shift(&site, regs, ctx, rest, r),
        "alloc" | "dealloc" | "relinquish_alloc_permit" => {
            check_alloc(&site, regs, ctx, op, rest, r)
        }
        "commit" => check_commit(&site, regs, ctx, rest, r),
        _ => check_sync(&site, ctx, op, rest, r),
    }
}

/// Where an instruction is, for its findings: the statement, the module's directive lines, the
/// instruction's line.
struct Site<'s, 'a> {
    ins: &'s Instruction<'a>,
    places: &'s Places,
    line: u32,
}

impl<'a> Site<'_, 'a> {
    /// Adds the unknown qualifiers of `q` and the builder's `problems` (each at the line
    /// `lines` gives) to `r`.
    fn finish(
        &self,
        r: &mut InstructionReport<'a>,
        q: &Quals<'a>,
        problems: Option<ptx::PtxDiagnostics>,
        lines: &dyn Fn(&PtxError) -> (Option<OperandName>, u32),
    ) {
        for u in &q.unknown {
            let start = self.ins.text.find(u).unwrap_or(0);
            r.findings.push(check_finding(
                CheckRule::UnknownQualifier,
                None,
                "qualifier",
                FindingValue::Text(start, start + u.len()),
                self.line,
            ));
        }
        if let Some(d) = problems {
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

    /// A required qualifier is missing.
    fn missing(&self, r: &mut InstructionReport<'a>, what: &'static str) {
        r.findings.push(check_finding(
            CheckRule::MissingQualifier,
            None,
            "qualifier",
            FindingValue::Name(what),
            self.line,
        ));
    }

    /// The operands are not those of the form.
    fn bad_operands(&self, r: &mut InstructionReport<'a>, what: &'static str) {
        r.findings.push(check_finding(
            CheckRule::Operands,
            None,
            "operands",
            FindingValue::Name(what),
            self.line,
        ));
    }
}

/// `tcgen05.alloc`, `.dealloc` and `.relinquish_alloc_permit` (`op`): their qualifiers and
/// operands to the builders, whose validation holds the rules.
fn check_alloc<'a>(
    site: &Site<'_, 'a>,
    regs: &Registers<'_>,
    ctx: Option<Context>,
    op: &'a str,
    rest: &[&'a str],
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let (ins, line) = (site.ins, site.line);
    let ops = &ins.operands;
    let at_line = |_: &PtxError| (None, line);
    let mut q = Quals::default();
    for &s in rest {
        match cta_group_of(s) {
            Some(Some(g)) => q.cta_group = Some(g),
            _ if matches!(s, "sync" | "aligned" | "b32" | "shared::cta") => {}
            _ => q.unknown.push(s),
        }
    }
    let Some(group) = q.cta_group else {
        site.missing(r, ".cta_group::1 / .cta_group::2");
        site.finish(r, &q, None, &at_line);
        return None;
    };
    if op == "relinquish_alloc_permit" {
        if !ops.is_empty() {
            site.bad_operands(r, "no operands");
        }
        let i = ptx::Instruction::RelinquishAllocPermit(group);
        site.finish(r, &q, ctx.map(|c| i.validate(&c)), &at_line);
        return Some(group);
    }
    let first = operand(regs, ops.first(), "dst", line);
    let n = operand(regs, ops.get(1), "n_cols", line);
    if ops.len() != 2 {
        site.bad_operands(r, "two operands");
    }
    if let Some(Operand::Other(w)) = ops.get(1) {
        // A decimal too large for 64 bits (`99999999999999999999999`): the reader keeps
        // it as written; it fits no column count.
        if w.bytes().next().is_some_and(|c| c.is_ascii_digit()) {
            let start = ins.text.find(w).unwrap_or(0);
            r.findings.push(check_finding(
                CheckRule::ImmediateTooWide,
                Some(OperandName::NCols),
                "n_cols",
                FindingValue::Text(start, start + w.len()),
                line,
            ));
        }
    }
    let n_cols = match constant(&n.value, 32) {
        Some(v) => ptx::Value::Imm(u32::try_from(v).unwrap_or(u32::MAX)),
        None => ptx::Value::Reg(n.name),
    };
    let n_line = n.line;
    let lines = move |e: &PtxError| match e {
        PtxError::Tmem(_) => (Some(OperandName::NCols), n_line),
        _ => (None, line),
    };
    let problems = if op == "alloc" {
        let a = Alloc {
            cta_group: group,
            dst: first.name,
            n_cols,
            exclusive: false,
        };
        ctx.map(|c| a.validate(&c))
    } else {
        let a = Dealloc {
            cta_group: group,
            taddr: first.name,
            n_cols,
            exclusive: false,
        };
        ctx.map(|c| a.validate(&c))
    };
    site.finish(r, &q, problems, &lines);
    Some(group)
}

/// `tcgen05.ld` / `.st` (`op`): its qualifiers and operands to the builder, whose validation holds the rules.
fn check_ld_st<'a>(
    site: &Site<'_, 'a>,
    regs: &Registers<'_>,
    ctx: Option<Context>,
    op: &'a str,
    rest: &[&'a str],
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let (ins, line) = (site.ins, site.line);
    let ops = &ins.operands;
    let at_line = |_: &PtxError| (None, line);
    let mut q = Quals::default();
    let LdStQuals {
        shape,
        num,
        pack,
        red,
    } = ld_st_qualifiers(op, rest, &mut q);
    let (Some(shape), Some(num)) = (shape, num) else {
        if shape.is_none() {
            site.missing(r, "shape (.16x64b, .16x128b, .16x256b, .32x32b, .16x32bx2)");
        }
        if num.is_none() {
            site.missing(r, ".num (.x1 .. .x128)");
        }
        site.finish(r, &q, None, &at_line);
        return None;
    };
    let mut names: Vec<&str> = Vec::new();
    let vector = if op == "ld" { ops.first() } else { ops.last() };
    match vector {
        Some(Operand::Vector(v)) => {
            for o in v {
                names.push(match o {
                    Operand::Name(n) => n,
                    _ => "registers",
                });
            }
        }
        _ => site.bad_operands(r, "a register vector {...}"),
    }
    let taddr_at = if op == "ld" {
        if red.is_some() {
            2
        } else {
            1
        }
    } else {
        0
    };
    let taddr = operand(regs, ops.get(taddr_at), "taddr", line).name;
    let offset = match ops.get(taddr_at + 1) {
        Some(Operand::Imm(v)) if op == "ld" => Some(*v),
        _ if op == "st" && ops.len() == 3 => match ops.get(1) {
            Some(Operand::Imm(v)) => Some(*v),
            _ => None,
        },
        _ => None,
    };
    let offset = offset.map(|v| u32::try_from(v).unwrap_or(u32::MAX));
    let problems = if op == "ld" {
        let mut l = TmemLoad::new(shape, num, &names, taddr).with_pack(pack);
        if let Some(o) = offset {
            l = l.with_offset(o);
        }
        if let Some((rop, abs, nan, ty)) = red {
            let redval = operand(regs, ops.get(1), "redval", line).name;
            l = l.with_red(Reduction {
                op: rop,
                abs,
                nan,
                ty: ty.unwrap_or(RedType::F32),
                redval,
            });
        }
        ctx.map(|c| l.validate(&c))
    } else {
        let mut s = TmemStore::new(shape, num, taddr, &names).with_unpack(pack);
        if let Some(o) = offset {
            s = s.with_offset(o);
        }
        ctx.map(|c| s.validate(&c))
    };
    site.finish(r, &q, problems, &at_line);
    None
}

/// `tcgen05.cp`: its qualifiers and operands to the builder, whose validation holds the rules.
fn check_cp<'a>(
    site: &Site<'_, 'a>,
    regs: &Registers<'_>,
    ctx: Option<Context>,
    rest: &[&'a str],
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let (ins, line) = (site.ins, site.line);
    let ops = &ins.operands;
    let at_line = |_: &PtxError| (None, line);
    let mut q = Quals::default();
    let (shape, multicast, fmt) = cp_qualifiers(rest, &mut q);
    let (Some(group), Some(shape)) = (q.cta_group, shape) else {
        if q.cta_group.is_none() {
            site.missing(r, ".cta_group::1 / .cta_group::2");
        }
        if shape.is_none() {
            site.missing(
                r,
                "shape (.128x256b, .4x256b, .128x128b, .64x128b, .32x128b)",
            );
        }
        site.finish(r, &q, None, &at_line);
        return q.cta_group;
    };
    let taddr = operand(regs, ops.first(), "taddr", line);
    let sdesc = operand(regs, ops.get(1), "s_desc", line);
    if ops.len() != 2 {
        site.bad_operands(r, "tcgen05.cp [taddr], s-desc");
    }
    r.s_desc = Some(sdesc.value.bits);
    r.assumed = regs.assumed(sdesc.name);
    // The descriptor is checked on its known bits below, whether fully known or not.
    let mut cp = Cp::new(
        group,
        shape,
        multicast,
        taddr.name,
        ptx::Value::Reg(sdesc.name),
    );
    if let Some(f) = fmt {
        cp = cp.with_source_format(f);
    }
    site.finish(r, &q, ctx.map(|c| cp.validate(&c)), &at_line);
    if let Some(t) = ctx.map(|c| c.target) {
        smem_findings(r, &sdesc.value, OperandName::Sdesc, t);
    }
    Some(group)
}

/// `tcgen05.shift`: its qualifiers and operands to the builder, whose validation holds the rules.
fn check_shift<'a>(
    site: &Site<'_, 'a>,
    regs: &Registers<'_>,
    ctx: Option<Context>,
    rest: &[&'a str],
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let (ins, line) = (site.ins, site.line);
    let ops = &ins.operands;
    let at_line = |_: &PtxError| (None, line);
    let mut q = Quals::default();
    for &s in rest {
        match cta_group_of(s) {
            Some(Some(g)) => q.cta_group = Some(g),
            _ if s == "down" => {}
            _ => q.unknown.push(s),
        }
    }
    let Some(group) = q.cta_group else {
        site.missing(r, ".cta_group::1 / .cta_group::2");
        site.finish(r, &q, None, &at_line);
        return None;
    };
    let taddr = operand(regs, ops.first(), "taddr", line).name;
    let s = Shift {
        cta_group: group,
        taddr,
    };
    site.finish(r, &q, ctx.map(|c| s.validate(&c)), &at_line);
    Some(group)
}

/// `tcgen05.commit`: its qualifiers and operands to the builder, whose validation holds the rules.
fn check_commit<'a>(
    site: &Site<'_, 'a>,
    regs: &Registers<'_>,
    ctx: Option<Context>,
    rest: &[&'a str],
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let (ins, line) = (site.ins, site.line);
    let ops = &ins.operands;
    let at_line = |_: &PtxError| (None, line);
    let mut q = Quals::default();
    let mut multicast = false;
    for &s in rest {
        match cta_group_of(s) {
            Some(Some(g)) => q.cta_group = Some(g),
            _ if matches!(s, "mbarrier::arrive::one" | "shared::cluster" | "b64") => {}
            _ if s == "multicast::cluster" => multicast = true,
            _ => q.unknown.push(s),
        }
    }
    let Some(group) = q.cta_group else {
        site.missing(r, ".cta_group::1 / .cta_group::2");
        site.finish(r, &q, None, &at_line);
        return None;
    };
    let mbar = operand(regs, ops.first(), "mbar", line).name;
    let mask = if multicast {
        let m = operand(regs, ops.get(1), "cta_mask", line);
        Some(match ops.get(1) {
            Some(Operand::Imm(v)) => ptx::Value::Imm(u16::try_from(*v).unwrap_or(u16::MAX)),
            _ => ptx::Value::Reg(m.name),
        })
    } else {
        None
    };
    if ops.len() != 1 + usize::from(multicast) {
        site.bad_operands(r, "[mbar] {, ctaMask}");
    }
    let c = Commit {
        cta_group: group,
        mbar,
        multicast: mask,
        multicast_spelling: CommitMulticast::Cluster,
        sync_restrict_a: false,
    };
    site.finish(r, &q, ctx.map(|cx| c.validate(&cx)), &at_line);
    Some(group)
}

/// `tcgen05.fence::*` / `tcgen05.wait::*` (`op`), or an unknown instruction: its qualifiers and operands to the builder, whose validation holds the rules.
fn check_sync<'a>(
    site: &Site<'_, 'a>,
    ctx: Option<Context>,
    op: &'a str,
    rest: &[&'a str],
    r: &mut InstructionReport<'a>,
) -> Option<CtaGroup> {
    let (ins, line) = (site.ins, site.line);
    let ops = &ins.operands;
    let at_line = |_: &PtxError| (None, line);
    let mut q = Quals::default();
    // fence::before_thread_sync, fence::after_thread_sync, wait::ld, wait::st.
    let i = match op {
        "fence::before_thread_sync" => Some(ptx::Instruction::Fence(Fence::BeforeThreadSync)),
        "fence::after_thread_sync" => Some(ptx::Instruction::Fence(Fence::AfterThreadSync)),
        "wait::ld" => Some(ptx::Instruction::Wait(Wait::Ld)),
        "wait::st" => Some(ptx::Instruction::Wait(Wait::St)),
        _ => None,
    };
    match i {
        Some(i) => {
            for &s in rest {
                if !(op.starts_with("wait") && matches!(s, "sync" | "aligned")) {
                    q.unknown.push(s);
                }
            }
            if !ops.is_empty() {
                site.bad_operands(r, "no operands");
            }
            site.finish(r, &q, ctx.map(|c| i.validate(&c)), &at_line);
        }
        None => {
            q.unknown.push(op);
            site.finish(r, &q, None, &at_line);
        }
    }
    None
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
            source: rule.row().source,
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
