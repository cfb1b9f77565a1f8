//! The ptxas conformance check of `tcgen05::ptx`.
//!
//! Enumerates, as cartesian products of every qualifier and operand choice, the tcgen05
//! instruction forms the builders can write for sm_100a, sm_103a, sm_107a and sm_110a (and a
//! smaller set for the family targets), at the lowest PTX ISA version that suits each and at
//! every later version up to 9.5 ([`versions`]); classifies each with the builders' own
//! validation; assembles each with ptxas 13.5.37; and compares:
//!
//! - a form we accept must assemble (and its disassembly must show the expected SASS opcode);
//! - a form we refuse for at least one rule that ptxas checks must be refused by ptxas;
//! - a form we refuse only for rules ptxas cannot see (descriptor values, a few PTX-text rules)
//!   must assemble: it is counted as "ours alone".
//!
//! Any other outcome is a disagreement; the program exits 1 when there is one. Illegal forms
//! kept from the products are those that break exactly one rule (plus hand-made variants for
//! rules a product cannot reach: operand names, versions, kernels that mix `.cta_group`).
//!
//! ```text
//! tcgen05-ptxas-conformance --ptxas PATH --nvdisasm PATH [--out SUMMARY.md]
//!                           [--verdicts-out verdicts.tsv.gz] [--check verdicts.tsv.gz]
//!                           [--work DIR] [--jobs N] [--filter FAMILY] [--sample N]
//! ```
//! `--sample N` assembles every form at its lowest version and one in N of the forms at a later
//! version (by a hash of the form's id); `--check` without `--sample` takes
//! [`versions::CHECK_SAMPLE`], `--sample 1` assembles every form. `--check` compares only the
//! forms assembled.
//! `--verdicts-out` writes every form's verdicts (ours and ptxas's, see [`verdicts`]);
//! `--check` compares them, form by form, with a committed verdict file and fails on any
//! difference. The summary (`--out`) is a report for people: nothing compares its text.
//! Many forms share one PTX file; ptxas names the line of every error, so each form's verdict
//! is exact: lines with an error are refused, the rest of a failed file is assembled again
//! without them (down to single lines when ptxas names no line).

mod round_trip;
mod verdicts;
mod versions;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use tcgen05::instruction_descriptor::{reserved_mask, IdescFields, InstructionDescriptor};
use tcgen05::ptx::{
    ASource, Alloc, Collector, CollectorOp, Commit, CommitMulticast, Context, Cp, CpSourceFormat,
    Dealloc, Fence, Instruction, Mma, PtxError, RedOp, RedType, Reduction, ScaleVec, Shift,
    Spcompress, TmemLoad, TmemStore, Value, Wait,
};
use tcgen05::shapes::{shapes, ShapeFilter};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};
use tcgen05::zero_column_mask::ZmaskFields;
use tcgen05::{CtaGroup, Diagnostic, ElementType, Kind, ScaleType, Target};

/// The targets the check covers.
const TARGETS: [Target; 4] = [
    Target::Sm100a,
    Target::Sm103a,
    Target::Sm107a,
    Target::Sm110a,
];

/// Forms per PTX file.
const BATCH: usize = 3000;

/// Lines of the kernel before the first instruction.
const HEADER_LINES: usize = 12;

// ---------------------------------------------------------------------------------------------
// Register names
// ---------------------------------------------------------------------------------------------

fn names() -> &'static [&'static str] {
    static NAMES: OnceLock<&'static [&'static str]> = OnceLock::new();
    NAMES.get_or_init(|| {
        let v: Vec<&'static str> = (0..300)
            .map(|i| &*Box::leak(format!("r{i}").into_boxed_str()))
            .collect();
        Box::leak(v.into_boxed_slice())
    })
}

/// `n` consecutive 32-bit registers from `r10`.
fn vector(n: usize) -> &'static [&'static str] {
    &names()[10..10 + n]
}

fn leak_slice(v: Vec<&'static str>) -> &'static [&'static str] {
    Box::leak(v.into_boxed_slice())
}

// ---------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------

/// What ptxas's disassembly must show for an accepted form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Sass {
    opcode: &'static str,
    ws: bool,
    two_cta: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// No error.
    Legal,
    /// At least one error ptxas checks: ptxas must refuse.
    Illegal,
    /// Only errors ptxas cannot see: ptxas must accept.
    OursAlone,
}

#[derive(Clone, Debug)]
struct Case {
    target: Target,
    version: u8,
    cta: u8,
    family: &'static str,
    /// The instruction lines (one for most cases; several for kernel-level cases).
    lines: Vec<String>,
    /// The form's key in `verdicts.tsv.gz`: the PTX it is (see [`verdicts`]).
    key: String,
    ours: Verdict,
    /// Field and source of each error, for the summary's rule table.
    rules: Vec<String>,
    /// The rule id of each error (see [`rule_name`]), for `verdicts.tsv.gz`.
    rule_ids: Vec<&'static str>,
    sass: Option<Sass>,
    /// For a minimal kernel from `write_minimal_kernel`: its entry's name and the instruction
    /// descriptor its disassembly must show (the lines are then the whole kernel).
    kernel: Option<(String, u32)>,
    /// Enumerated at a version above its lowest ([`versions::later`]): `--sample` keeps some.
    swept: bool,
}

fn family(i: &Instruction<'_>) -> &'static str {
    match i {
        Instruction::Mma(m) if m.ti16 || m.decompress_lut.is_some() || m.collector_b.is_some() => {
            if m.ws {
                "tcgen05.mma.ws.ptx94"
            } else {
                "tcgen05.mma.ptx94"
            }
        }
        Instruction::Alloc(a) if a.exclusive => "tcgen05.alloc.ptx94",
        Instruction::Dealloc(a) if a.exclusive => "tcgen05.dealloc.ptx94",
        Instruction::Commit(c)
            if c.sync_restrict_a
                || (c.multicast.is_some()
                    && !matches!(c.multicast_spelling, CommitMulticast::Cluster)) =>
        {
            "tcgen05.commit.ptx94"
        }
        Instruction::Mma(m) => {
            if m.ws {
                "tcgen05.mma.ws"
            } else {
                "tcgen05.mma"
            }
        }
        Instruction::Load(l) if l.spcompress.is_some() => "tcgen05.ld.ptx94",
        Instruction::Load(l) => {
            if l.red.is_some() {
                "tcgen05.ld.red"
            } else {
                "tcgen05.ld"
            }
        }
        Instruction::Store(_) => "tcgen05.st",
        Instruction::Cp(_) => "tcgen05.cp",
        Instruction::Shift(_) => "tcgen05.shift",
        Instruction::Alloc(_) => "tcgen05.alloc",
        Instruction::Dealloc(_) => "tcgen05.dealloc",
        Instruction::RelinquishAllocPermit(_) => "tcgen05.relinquish_alloc_permit",
        Instruction::Commit(_) => "tcgen05.commit",
        Instruction::Fence(_) => "tcgen05.fence",
        Instruction::Wait(_) => "tcgen05.wait",
    }
}

fn expected_sass(i: &Instruction<'_>) -> Option<Sass> {
    let plain = |opcode| {
        Some(Sass {
            opcode,
            ws: false,
            two_cta: false,
        })
    };
    match i {
        // ptxas 13.5 writes `.kind::ti16` as UTCHMMA (nvdisasm 13.5 on sm_107a).
        Instruction::Mma(m) if m.ti16 => Some(Sass {
            opcode: "UTCHMMA",
            ws: m.ws,
            two_cta: matches!(m.cta_group, CtaGroup::Two),
        }),
        Instruction::Mma(m) => Some(Sass {
            opcode: match m.kind {
                Kind::F16 | Kind::Tf32 => "UTCHMMA",
                Kind::F8f6f4 | Kind::Mxf8f6f4 => "UTCQMMA",
                Kind::I8 => "UTCIMMA",
                Kind::Mxf4 | Kind::Mxf4nvf4 => "UTCOMMA",
            },
            ws: m.ws,
            two_cta: matches!(m.cta_group, CtaGroup::Two),
        }),
        Instruction::Load(_) => plain("LDTM"),
        Instruction::Store(_) => plain("STTM"),
        Instruction::Cp(_) => plain("UTCCP"),
        Instruction::Shift(_) => plain("UTCSHIFT"),
        Instruction::Alloc(_) | Instruction::Dealloc(_) => plain("UTCATOMSWS"),
        Instruction::Commit(_) => plain("UTCBAR"),
        Instruction::RelinquishAllocPermit(_) | Instruction::Fence(_) | Instruction::Wait(_) => {
            None
        }
    }
}

/// The FNV-1a 64-bit hash of `text`: names a minimal kernel's text in its key.
fn fnv1a64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every case's verdicts as [`verdicts::Table`]: ours from the builders, ptxas's from `outcomes`
/// (`unknown` without them). A form enumerated several times is one entry with its count; also
/// returns the ids of forms enumerated several times with different verdicts (the same PTX text
/// must have one verdict).
fn verdict_table(cases: &[Case], outcomes: Option<&[Outcome]>) -> (verdicts::Table, Vec<String>) {
    let mut t = verdicts::Table::new();
    let mut twice = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let ours = match c.ours {
            Verdict::Legal => "legal",
            Verdict::Illegal => "illegal",
            Verdict::OursAlone => "ours-alone",
        };
        let ptxas = match outcomes.map(|o| o[i].accepted) {
            Some(Some(true)) => "accepts",
            Some(Some(false)) => "refuses",
            _ => "unknown",
        };
        let rules = if c.rule_ids.is_empty() {
            "-".to_string()
        } else {
            c.rule_ids.join(",")
        };
        let entry = verdicts::Entry {
            times: 1,
            ours: ours.to_string(),
            rules,
            ptxas: ptxas.to_string(),
        };
        let id = verdicts::form_id(c.target.name(), c.version, &c.key);
        match t.get_mut(&id) {
            None => {
                t.insert(id, entry);
            }
            Some(e)
                if verdicts::Entry {
                    times: e.times,
                    ..entry
                } == *e =>
            {
                e.times += 1
            }
            Some(_) => twice.push(id),
        }
    }
    (t, twice)
}

fn classify(errors: &[PtxError]) -> Verdict {
    if errors.is_empty() {
        Verdict::Legal
    } else if errors.iter().any(PtxError::ptxas_checks) {
        Verdict::Illegal
    } else {
        Verdict::OursAlone
    }
}

/// The rule's name: its stable identifier from the core's rule tables (for example
/// `ptx.ws_cta_group`, or `tmem.cp_multicast_mismatch` for a Tensor Memory rule). An immediate
/// descriptor whose error type has no rule table yet is named by the descriptor.
fn rule_name(e: &PtxError) -> &'static str {
    match (e.rule_id(), e) {
        (Some(id), _) => id,
        (None, PtxError::Idesc(_)) => "idesc",
        (None, PtxError::Smem(_)) => "smem",
        (None, PtxError::Zmask(_)) => "zmask",
        (None, _) => "ptx",
    }
}

fn rule_names(errors: &[PtxError]) -> Vec<String> {
    errors
        .iter()
        .map(|e| {
            format!(
                "`{}` {} ({}){}",
                rule_name(e),
                e.field(),
                e.source(),
                if e.ptxas_checks() {
                    ""
                } else {
                    " [ours alone]"
                }
            )
        })
        .collect()
}

struct Gen {
    cases: Vec<Case>,
    /// When set, every candidate form also goes through the grammar round trip.
    round_trip: Option<round_trip::RoundTrip>,
    /// What the enumeration did, for the summary's statement of scope.
    scope: Scope,
}

/// How many candidate forms the enumeration wrote and what became of them.
#[derive(Clone, Copy, Debug, Default)]
struct Scope {
    /// Every candidate form the builders wrote (before any was dropped).
    candidates: usize,
    /// Illegal candidates dropped because they break two or more rules ptxas may check.
    dropped_multi: usize,
    /// Illegal candidates of one rule dropped where only legal forms were asked for.
    dropped_unasked: usize,
}

impl Gen {
    /// Adds `instr` written for `ctx`. `keep_illegal`: keep it when it breaks exactly one rule
    /// (or only rules ptxas cannot see); legal forms are always kept.
    fn add(&mut self, ctx: Context, instr: Instruction<'static>, keep_illegal: bool) {
        if let Some(rt) = &mut self.round_trip {
            rt.check(&instr);
        }
        let errors: Vec<PtxError> = instr.validate(&ctx).errors().collect();
        let ours = classify(&errors);
        self.scope.candidates += 1;
        match ours {
            Verdict::Legal => {}
            Verdict::OursAlone => {}
            Verdict::Illegal => {
                if errors.len() != 1 {
                    self.scope.dropped_multi += 1;
                    return;
                }
                if !keep_illegal {
                    self.scope.dropped_unasked += 1;
                    return;
                }
            }
        }
        let mut line = String::new();
        instr
            .write_unchecked(&mut line)
            .expect("a String never fails");
        let key = line.clone();
        let mut lines = vec![line];
        if let Instruction::Load(ld) = instr {
            // Consume the loaded registers, so that ptxas keeps the load for the SASS check.
            let mdata = ld.spcompress.map_or(&[][..], |sp| sp.mdata);
            for r in ld
                .dst
                .iter()
                .chain(ld.red.as_ref().map(|r| &r.redval))
                .chain(mdata)
            {
                lines.push(format!("add.u32 r299, r299, {r};"));
            }
        }
        self.cases.push(Case {
            target: ctx.target,
            version: ctx.version,
            cta: instr
                .cta_group()
                .map_or(1, |g| if matches!(g, CtaGroup::Two) { 2 } else { 1 }),
            family: family(&instr),
            lines,
            key,
            ours,
            rules: rule_names(&errors),
            rule_ids: errors.iter().map(rule_name).collect(),
            sass: if ours == Verdict::Illegal {
                None
            } else {
                expected_sass(&instr)
            },
            kernel: None,
            swept: false,
        });
    }

    /// Adds `instr` at the lowest version that suits it on `target`, and again at every later
    /// PTX ISA version ([`versions::later`]).
    fn add_min(&mut self, target: Target, instr: Instruction<'static>, keep_illegal: bool) {
        let ctx = Context::for_instructions(target, &[instr]);
        let before = self.cases.len();
        self.add(ctx, instr, keep_illegal);
        if self.cases.len() == before {
            // Dropped (two or more rules, or an unasked illegal form): at a later version it
            // breaks the same rules (no version rule fires at or above the lowest version).
            return;
        }
        for v in versions::later(ctx.version) {
            let n = self.cases.len();
            self.add(ctx.with_version(v), instr, keep_illegal);
            for c in &mut self.cases[n..] {
                c.swept = true;
            }
        }
    }
}

fn idesc_fields(kind: Kind, m: u16, n: u16) -> IdescFields {
    use ElementType as E;
    let (d, ab) = match kind {
        Kind::F16 => (E::F32, E::Bf16),
        Kind::Tf32 => (E::F32, E::Tf32),
        Kind::F8f6f4 | Kind::Mxf8f6f4 => (E::F32, E::E4m3),
        Kind::I8 => (E::S32, E::S8),
        Kind::Mxf4 | Kind::Mxf4nvf4 => (E::F32, E::E2m1),
    };
    let f = IdescFields::new(kind, d, ab, ab, m, n);
    if kind.is_block_scaled() {
        f.with_scale(ScaleType::Ue8m0, 0, 0)
    } else {
        f
    }
}

fn default_vec(kind: Kind) -> Option<ScaleVec> {
    match kind {
        Kind::Mxf8f6f4 | Kind::Mxf4 => Some(ScaleVec::Default),
        Kind::Mxf4nvf4 => Some(ScaleVec::Block32),
        _ => None,
    }
}

fn base_mma(cta: CtaGroup, kind: Kind) -> Mma<'static> {
    Mma::new(
        cta,
        kind,
        "r1",
        ASource::Smem("rd1"),
        "rd2",
        Value::Reg("r3"),
        Value::Reg("p1"),
    )
}

/// Every qualifier combination of `tcgen05.mma` with register operands.
fn mma_products(g: &mut Gen, target: Target) {
    let collectors: Vec<Option<Collector>> = std::iter::once(None)
        .chain(CollectorOp::ALL.iter().map(|&op| Some(Collector::A(op))))
        .chain((0..=4u8).flat_map(|n| {
            CollectorOp::ALL
                .iter()
                .map(move |&op| Some(Collector::B(n, op)))
        }))
        .collect();
    let dol4 = vector(4);
    let dol8 = vector(8);
    for cta in [CtaGroup::One, CtaGroup::Two] {
        for ws in [false, true] {
            for sp in [false, true] {
                for kind in Kind::ALL {
                    let vecs = std::iter::once(None).chain(ScaleVec::ALL.iter().map(|&v| Some(v)));
                    for vec in vecs {
                        for a_tmem in [false, true] {
                            for &coll in &collectors {
                                for ashift in [false, true] {
                                    for dol in [None, Some(dol4), Some(dol8)] {
                                        for sid in [None, Some(0u8), Some(15), Some(16)] {
                                            for zm in [false, true] {
                                                let mut m = base_mma(cta, kind).with_ws(ws);
                                                if sp {
                                                    m = m.with_sparse("r250");
                                                }
                                                if let Some(v) = vec {
                                                    m = m.with_block_scale(v, "r251", "r252");
                                                }
                                                if a_tmem {
                                                    m.a = ASource::Tmem("r2");
                                                }
                                                m.collector = coll;
                                                m.ashift = ashift;
                                                m.disable_output_lane = dol;
                                                m.scale_input_d = sid;
                                                if zm {
                                                    // A register mask: an immediate would read
                                                    // as scale-input-d without .ws.
                                                    m = m.with_zero_column_mask(Value::Reg("rd5"));
                                                }
                                                // scale-input-d with .ws would read as an
                                                // immediate zero-column mask: not a form
                                                // ptxas can judge as written.
                                                let keep = !(ws && sid.is_some());
                                                g.add_min(target, Instruction::Mma(m), keep);
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    // Every scale-input-d value and both kinds of enable-input-d operand.
    for kind in [Kind::F16, Kind::Tf32, Kind::I8, Kind::F8f6f4] {
        for cta in [CtaGroup::One, CtaGroup::Two] {
            for s in 0..=16u8 {
                for en in [Value::Reg("p1"), Value::Imm(false), Value::Imm(true)] {
                    let m = Mma {
                        enable_input_d: en,
                        ..base_mma(cta, kind)
                    }
                    .with_scale_input_d(s);
                    g.add_min(target, Instruction::Mma(m), true);
                }
            }
        }
    }
}

/// Every shape of Table 39 on `target`, as an immediate instruction descriptor, and variants
/// whose descriptor breaks a rule ptxas cannot see.
fn mma_immediates(g: &mut Gen, target: Target) {
    for (i, s) in shapes(target, ShapeFilter::default()).enumerate() {
        let cta = s.cta_group;
        let mut f = idesc_fields(s.kind, s.m, s.n).with_k96(s.k == 96);
        if s.sparse {
            f = f.with_sparse(true, 0);
        }
        let Ok(idesc) = InstructionDescriptor::try_new(f) else {
            panic!("Table 39 shape {s:?} does not encode");
        };
        let mut m = Mma {
            idesc: Value::Imm(idesc.bits()),
            ..base_mma(cta, s.kind)
        }
        .with_ws(s.ws);
        if s.sparse {
            m = m.with_sparse("r250");
        }
        if let Some(v) = default_vec(s.kind) {
            m = m.with_block_scale(v, "r251", "r252");
        }
        if s.ws {
            m = m.with_zero_column_mask(Value::Imm(0));
        }
        g.add_min(target, Instruction::Mma(m), true);
        if i % 8 != 0 {
            continue;
        }
        // Descriptor values ptxas never reads.
        let bits = idesc.bits();
        let reserved = reserved_mask(s.kind);
        let lowest_reserved = reserved & reserved.wrapping_neg();
        let variants = [
            bits | lowest_reserved,
            bits ^ 0b100, // the sparsity bit flipped
            bits & !(0x3f << 17),
        ];
        for v in variants {
            g.add_min(
                target,
                Instruction::Mma(Mma {
                    idesc: Value::Imm(v),
                    ..m
                }),
                true,
            );
        }
        if s.ws {
            let mut z = ZmaskFields::from_raw(0);
            z.column_shift = 40;
            for raw in [1u64 << 62, z.to_raw_unchecked()] {
                g.add_min(
                    target,
                    Instruction::Mma(Mma {
                        zero_column_mask: Some(Value::Imm(raw)),
                        ..m
                    }),
                    true,
                );
            }
        }
        if s.kind == Kind::Mxf4nvf4 {
            // UE4M3 scales with a 32-element scale vector; a non-zero scale factor ID with a
            // 16-element one.
            let ue4m3 = InstructionDescriptor::try_new(f.with_scale(ScaleType::Ue4m3, 0, 0))
                .map(InstructionDescriptor::bits);
            let sf2 = InstructionDescriptor::try_new(f.with_scale(ScaleType::Ue8m0, 2, 0))
                .map(InstructionDescriptor::bits);
            if let (Ok(ue4m3), Ok(sf2)) = (ue4m3, sf2) {
                for (bits, vec) in [(ue4m3, ScaleVec::Block32), (sf2, ScaleVec::Block16)] {
                    let v = Mma {
                        idesc: Value::Imm(bits),
                        ..m
                    }
                    .with_block_scale(vec, "r251", "r252");
                    g.add_min(target, Instruction::Mma(v), true);
                }
            }
        }
        if !s.ws && !s.kind.is_block_scaled() {
            // .ashift with M other than 128 / 256.
            let a = Mma {
                a: ASource::Tmem("r2"),
                ..m
            }
            .with_ashift(true);
            g.add_min(target, Instruction::Mma(a), true);
        }
    }
}

fn load_store(g: &mut Gen, target: Target) {
    for shape in LdStShape::ALL {
        for num in Num::ALL {
            let n = tcgen05::tensor_memory::registers_per_thread(shape, num)
                .map_or(usize::from(num.count()), usize::from);
            let offsets: &[Option<u32>] = &[None, Some(0), Some(511), Some(512)];
            for &offset in offsets {
                for pack in [false, true] {
                    let mut ld = TmemLoad::new(shape, num, vector(n), "r1").with_pack(pack);
                    ld.offset = offset;
                    g.add_min(target, Instruction::Load(ld), true);
                    let mut st = TmemStore::new(shape, num, "r1", vector(n)).with_unpack(pack);
                    st.offset = offset;
                    g.add_min(target, Instruction::Store(st), true);
                    // .red
                    for op in [RedOp::Min, RedOp::Max] {
                        for ty in [RedType::F32, RedType::U32, RedType::S32] {
                            for abs in [false, true] {
                                for nan in [false, true] {
                                    let red = Reduction {
                                        op,
                                        abs,
                                        nan,
                                        ty,
                                        redval: "r200",
                                    };
                                    g.add_min(target, Instruction::Load(ld.with_red(red)), true);
                                }
                            }
                        }
                    }
                }
            }
            // A register short, and a repeated destination.
            if shape != LdStShape::S16x32bx2 && n >= 2 {
                let short = vector(n - 1);
                g.add_min(
                    target,
                    Instruction::Load(TmemLoad::new(shape, num, short, "r1")),
                    true,
                );
                g.add_min(
                    target,
                    Instruction::Store(TmemStore::new(shape, num, "r1", short)),
                    true,
                );
                let mut dup: Vec<&'static str> = vector(n).to_vec();
                dup[n - 1] = dup[0];
                g.add_min(
                    target,
                    Instruction::Load(TmemLoad::new(shape, num, leak_slice(dup), "r1")),
                    true,
                );
            }
        }
    }
}

fn copies(g: &mut Gen, target: Target) {
    for cta in [CtaGroup::One, CtaGroup::Two] {
        for shape in CpShape::ALL {
            for mc in CpMulticast::ALL {
                for fmt in [
                    None,
                    Some(CpSourceFormat::B6x16P32),
                    Some(CpSourceFormat::B4x16P64),
                ] {
                    for sdesc in [
                        Value::Reg("rd3"),
                        Value::Imm(0x4000_4040_0001_0040),
                        Value::Imm(0x4000_4040_0001_4040),
                    ] {
                        let mut c = Cp::new(cta, shape, mc, "r1", sdesc);
                        c.source_format = fmt;
                        g.add_min(target, Instruction::Cp(c), true);
                    }
                }
            }
        }
        g.add_min(
            target,
            Instruction::Shift(Shift {
                cta_group: cta,
                taddr: "r1",
            }),
            true,
        );
        let ncols = [0u32, 16, 32, 48, 64, 96, 128, 160, 256, 512, 1024]
            .into_iter()
            .map(Value::Imm)
            .chain([Value::Reg("r5")]);
        for n in ncols {
            g.add_min(
                target,
                Instruction::Alloc(Alloc {
                    cta_group: cta,
                    dst: "slot",
                    n_cols: n,
                    exclusive: false,
                }),
                true,
            );
            g.add_min(
                target,
                Instruction::Dealloc(Dealloc {
                    cta_group: cta,
                    taddr: "r1",
                    n_cols: n,
                    exclusive: false,
                }),
                true,
            );
        }
        g.add_min(target, Instruction::RelinquishAllocPermit(cta), true);
        for mc in [
            None,
            Some(Value::Imm(0)),
            Some(Value::Imm(3)),
            Some(Value::Imm(0xffff)),
            Some(Value::Reg("rs1")),
        ] {
            g.add_min(
                target,
                Instruction::Commit(Commit {
                    cta_group: cta,
                    mbar: "mbar",
                    multicast: mc,
                    multicast_spelling: CommitMulticast::Cluster,
                    sync_restrict_a: false,
                }),
                true,
            );
        }
    }
    for i in [
        Instruction::Fence(Fence::BeforeThreadSync),
        Instruction::Fence(Fence::AfterThreadSync),
        Instruction::Wait(Wait::Ld),
        Instruction::Wait(Wait::St),
    ] {
        g.add_min(target, i, true);
    }
}

/// Variants no product reaches: operand names, versions, kernels mixing `.cta_group`.
fn hand_variants(g: &mut Gen, target: Target) {
    let m = base_mma(CtaGroup::One, Kind::F16);
    for bad in ["1r", "r-1", "%"] {
        g.add_min(target, Instruction::Mma(Mma { d: bad, ..m }), true);
        g.add_min(target, Instruction::Mma(Mma { b: bad, ..m }), true);
        g.add_min(
            target,
            Instruction::Load(TmemLoad::new(LdStShape::S32x32b, Num::X1, vector(1), bad)),
            true,
        );
        g.add_min(
            target,
            Instruction::Alloc(Alloc {
                cta_group: CtaGroup::One,
                dst: bad,
                n_cols: Value::Imm(32),
                exclusive: false,
            }),
            true,
        );
    }
    // Every legal-version form one version too low, and one too high.
    let mx = base_mma(CtaGroup::One, Kind::Mxf4nvf4);
    let lows: [(Instruction<'static>, u8); 4] = [
        (
            Instruction::Mma(mx.with_block_scale(ScaleVec::X4, "r251", "r252")),
            86,
        ),
        (
            Instruction::Mma(mx.with_block_scale(ScaleVec::Block16, "r251", "r252")),
            87,
        ),
        (Instruction::Mma(m), 0),
        (Instruction::Wait(Wait::Ld), 0),
    ];
    for (i, v) in lows {
        let v = if v == 0 {
            target.min_ptx_version() - 1
        } else {
            v
        };
        g.add(Context::new(target).with_version(v), i, true);
    }
    g.add(
        Context::new(target).with_version(versions::NEWEST + 1),
        Instruction::Mma(m),
        true,
    );
    // A kernel that mixes .cta_group::1 and ::2.
    let body = [
        Instruction::Mma(m),
        Instruction::RelinquishAllocPermit(CtaGroup::Two),
    ];
    let ctx = Context::for_instructions(target, &body);
    let errors: Vec<PtxError> = tcgen05::ptx::validate_kernel(&ctx, &body)
        .errors()
        .collect();
    let lines: Vec<String> = body
        .iter()
        .map(|i| {
            let mut s = String::new();
            i.write_unchecked(&mut s).expect("a String never fails");
            s
        })
        .collect();
    g.scope.candidates += 1;
    g.cases.push(Case {
        target,
        version: ctx.version,
        cta: 0,
        family: "kernel (.cta_group mix)",
        key: lines.join(" "),
        lines,
        ours: classify(&errors),
        rules: rule_names(&errors),
        rule_ids: errors.iter().map(rule_name).collect(),
        sass: None,
        kernel: None,
        swept: false,
    });
}

/// The family targets: the forms whose legality depends on the target (every kind and scale
/// vector, `.sp`, scale-input-d, `tcgen05.ld.red`, `tcgen05.shift`), so that the target rules
/// the three `a` targets never break are checked too.
fn family_target_forms(g: &mut Gen, target: Target) {
    for cta in [CtaGroup::One, CtaGroup::Two] {
        for sp in [false, true] {
            for kind in Kind::ALL {
                let vecs = std::iter::once(None).chain(ScaleVec::ALL.iter().map(|&v| Some(v)));
                for vec in vecs {
                    for sid in [None, Some(1u8)] {
                        let mut m = base_mma(cta, kind);
                        if sp {
                            m = m.with_sparse("r250");
                        }
                        if let Some(v) = vec {
                            m = m.with_block_scale(v, "r251", "r252");
                        }
                        m.scale_input_d = sid;
                        g.add_min(target, Instruction::Mma(m), true);
                    }
                }
            }
        }
        g.add_min(
            target,
            Instruction::Shift(Shift {
                cta_group: cta,
                taddr: "r1",
            }),
            true,
        );
    }
    for shape in [LdStShape::S32x32b, LdStShape::S16x32bx2] {
        let mut ld = TmemLoad::new(shape, Num::X2, vector(2), "r1").with_red(Reduction {
            op: RedOp::Max,
            abs: true,
            nan: false,
            ty: RedType::F32,
            redval: "r200",
        });
        if shape == LdStShape::S16x32bx2 {
            ld = ld.with_offset(2);
        }
        g.add_min(target, Instruction::Load(ld), true);
    }
}

/// Adds `instr` on `target` at every PTX ISA version from the target's lowest to 9.5
/// ([`versions::VERSIONS`]): the lowest version that suits the form is its own, the others are
/// swept (sampled by `--sample`); forms breaking two or more rules are dropped by [`Gen::add`].
fn add_every_version(g: &mut Gen, target: Target, instr: Instruction<'static>) {
    let lowest = Context::for_instructions(target, &[instr]).version;
    for &v in versions::VERSIONS
        .iter()
        .filter(|&&v| v >= target.min_ptx_version())
    {
        let n = g.cases.len();
        g.add(Context::new(target).with_version(v), instr, true);
        for c in &mut g.cases[n..] {
            c.swept = v != lowest;
        }
    }
}

/// The forms PTX ISA 9.4 added (issue 27; docs/ptx-9.5.md): every combination of
/// `.kind::ti16`, `.decompress::lut::b` and `.collector::b::*` with the other qualifiers and
/// operands of `tcgen05.mma` (`full`: all of them; else the qualifiers alone), and
/// `tcgen05.alloc/dealloc .exclusive` and the `tcgen05.commit` qualifiers, each on `target` at
/// every PTX ISA version.
fn ptx94_forms(g: &mut Gen, target: Target, full: bool) {
    let kinds = Kind::ALL.into_iter().map(Some).chain([None]);
    let coll_a = [
        None,
        Some(Collector::A(CollectorOp::Fill)),
        Some(Collector::A(CollectorOp::Lastuse)),
        Some(Collector::B(1, CollectorOp::Fill)),
    ];
    let vecs = [
        None,
        Some(ScaleVec::Default),
        Some(ScaleVec::Block32),
        Some(ScaleVec::Block16),
        Some(ScaleVec::X2),
    ];
    let bools: &[bool] = if full { &[false, true] } else { &[false] };
    for kind in kinds {
        for cta in [CtaGroup::One, CtaGroup::Two] {
            for ws in [false, true] {
                for sp in [false, true] {
                    for vec in vecs {
                        for &ca in &coll_a {
                            for cb in std::iter::once(None).chain(CollectorOp::ALL.map(Some)) {
                                for lut in [false, true] {
                                    if kind.is_some() && !lut && cb.is_none() {
                                        continue; // a form of PTX ISA 8.6-8.8
                                    }
                                    for &a_tmem in bools {
                                        for &ashift in bools {
                                            for &dol in bools {
                                                for &zm in bools {
                                                    let mut m =
                                                        base_mma(cta, kind.unwrap_or(Kind::F16))
                                                            .with_ws(ws)
                                                            .with_ti16(kind.is_none());
                                                    if sp {
                                                        m = m.with_sparse("r250");
                                                    }
                                                    if let Some(v) = vec {
                                                        m = m.with_block_scale(v, "r251", "r252");
                                                    }
                                                    if lut {
                                                        m = m.with_decompress_lut("r253");
                                                    }
                                                    if a_tmem {
                                                        m.a = ASource::Tmem("r2");
                                                    }
                                                    m.collector = ca;
                                                    m.collector_b = cb;
                                                    m.ashift = ashift;
                                                    if dol {
                                                        m.disable_output_lane = Some(vector(
                                                            if matches!(cta, CtaGroup::One) {
                                                                4
                                                            } else {
                                                                8
                                                            },
                                                        ));
                                                    }
                                                    if zm {
                                                        m = m.with_zero_column_mask(Value::Reg(
                                                            "rd5",
                                                        ));
                                                    }
                                                    add_every_version(
                                                        g,
                                                        target,
                                                        Instruction::Mma(m),
                                                    );
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for cta in [CtaGroup::One, CtaGroup::Two] {
        for n in [Value::Imm(32), Value::Imm(544), Value::Reg("r5")] {
            let a = Alloc {
                cta_group: cta,
                dst: "slot",
                n_cols: n,
                exclusive: true,
            };
            add_every_version(g, target, Instruction::Alloc(a));
            let d = Dealloc {
                cta_group: cta,
                taddr: "r1",
                n_cols: n,
                exclusive: true,
            };
            add_every_version(g, target, Instruction::Dealloc(d));
        }
        for sync_restrict_a in [false, true] {
            // ptxas 13.5 wants a 16-bit ctaMask register with `.multicast::cluster{::16b}` and
            // a 32-bit one with `::32b`; the builders do not know register widths.
            for (spelling, masks) in [
                (
                    CommitMulticast::Cluster,
                    [None, Some(Value::Reg("rs1")), Some(Value::Imm(0xffff))],
                ),
                (
                    CommitMulticast::Cluster16b,
                    [None, Some(Value::Reg("rs1")), Some(Value::Imm(3))],
                ),
                (
                    CommitMulticast::Cluster32b,
                    [None, Some(Value::Reg("r5")), Some(Value::Imm(0xffff))],
                ),
            ] {
                for multicast in masks {
                    if multicast.is_none() && !matches!(spelling, CommitMulticast::Cluster) {
                        continue;
                    }
                    let old = multicast.is_none() || matches!(spelling, CommitMulticast::Cluster);
                    if old && !sync_restrict_a {
                        continue; // a form of PTX ISA 8.6
                    }
                    let c = Commit {
                        cta_group: cta,
                        mbar: "mbar",
                        multicast,
                        multicast_spelling: spelling,
                        sync_restrict_a,
                    };
                    add_every_version(g, target, Instruction::Commit(c));
                }
            }
        }
    }
    spcompress_forms(g, target);
}

/// `tcgen05.ld{.red}.spcompress` (PTX ISA 9.4, docs/ptx-9.5.md): every `.num` with `.min` /
/// `.max`, `.abs`, `.NaN` (with `.red`), with `{r}` of num / 2 and `{mdata}` of
/// max(1, num / 32) registers; and the other shapes, `.pack::16b`, `.u32` and one register
/// too many in each vector, at `.x4`.
fn spcompress_forms(g: &mut Gen, target: Target) {
    let form = |num: Num, red: Option<(RedOp, bool, bool, RedType)>, op: RedOp, abs: bool| {
        let n = num as usize;
        let mdata = &names()[200..200 + if n < 32 { 1 } else { n / 32 }];
        let mut ld = TmemLoad::new(LdStShape::S32x32b, num, vector((n / 2).max(1)), "r1")
            .with_spcompress(Spcompress { op, abs, mdata });
        if let Some((op, abs, nan, ty)) = red {
            ld = ld.with_red(Reduction {
                op,
                abs,
                nan,
                ty,
                redval: "r290",
            });
        }
        ld
    };
    for num in Num::ALL {
        for op in [RedOp::Min, RedOp::Max] {
            for abs in [false, true] {
                let ld = form(num, None, op, abs);
                add_every_version(g, target, Instruction::Load(ld));
                for nan in [false, true] {
                    let ld = form(num, Some((op, abs, nan, RedType::F32)), op, abs);
                    add_every_version(g, target, Instruction::Load(ld));
                }
            }
        }
    }
    let x4 = form(Num::X4, None, RedOp::Max, false);
    for shape in LdStShape::ALL {
        if !matches!(shape, LdStShape::S32x32b) {
            let mut ld = x4;
            ld.shape = shape;
            if matches!(shape, LdStShape::S16x32bx2) {
                ld.offset = Some(0);
            }
            add_every_version(g, target, Instruction::Load(ld));
        }
    }
    let mut packed = x4;
    packed.pack = true;
    let u32_red = form(
        Num::X4,
        Some((RedOp::Max, false, false, RedType::U32)),
        RedOp::Max,
        false,
    );
    let mut long_r = x4;
    long_r.dst = vector(3);
    let mut long_m = x4;
    if let Some(sp) = &mut long_m.spcompress {
        sp.mdata = &names()[200..202];
    }
    for ld in [packed, u32_red, long_r, long_m] {
        add_every_version(g, target, Instruction::Load(ld));
    }
}

/// The minimal kernel of `tcgen05 ptx kernel` for the first and the last shape of every row of
/// Table 39 on every target (default types of the kind).
fn minimal_kernels(g: &mut Gen) {
    let mut n = 0usize;
    for target in Target::ALL {
        let all: Vec<_> = shapes(target, ShapeFilter::default()).collect();
        let mut picked = Vec::new();
        for (i, s) in all.iter().enumerate() {
            let key = |x: &tcgen05::shapes::Shape| (x.kind, x.cta_group, x.ws, x.sparse, x.k);
            let first = i == 0 || key(&all[i - 1]) != key(s);
            let last = i + 1 == all.len() || key(&all[i + 1]) != key(s);
            if first || last {
                picked.push(*s);
            }
        }
        for s in picked {
            let mut f = idesc_fields(s.kind, s.m, s.n).with_k96(s.k == 96);
            if s.sparse {
                f = f.with_sparse(true, 0);
            }
            let mut cfg = tcgen05::shapes::MmaConfig::new(f);
            cfg.cta_group = s.cta_group;
            cfg.ws = s.ws;
            cfg.target = target;
            let mut text = String::new();
            tcgen05::ptx::write_minimal_kernel(&cfg, &mut text)
                .unwrap_or_else(|e| panic!("minimal kernel for {s:?} on {target}: {e}"));
            let version = text
                .lines()
                .find_map(|l| l.strip_prefix(".version "))
                .and_then(|v| v.split_once('.'))
                .and_then(|(a, b)| Some(a.parse::<u8>().ok()? * 10 + b.parse::<u8>().ok()?))
                .expect("a .version line");
            let body = text
                .split_once(".address_size 64\n")
                .map(|(_, b)| b.to_string())
                .expect("a preamble");
            let name = format!("tcgen05_minimal_{n}");
            n += 1;
            let body = body.replace("tcgen05_minimal(", &format!("{name}("));
            let bits = tcgen05::instruction_descriptor::InstructionDescriptor::try_new(f)
                .map(tcgen05::instruction_descriptor::InstructionDescriptor::bits)
                .expect("a Table 39 shape encodes");
            g.scope.candidates += 1;
            g.cases.push(Case {
                target,
                version,
                cta: if matches!(s.cta_group, CtaGroup::Two) {
                    2
                } else {
                    1
                },
                family: "minimal kernel (tcgen05 ptx kernel)",
                key: format!(
                    "kernel {name} idesc {bits:#010x} text-fnv1a64 {:016x}",
                    fnv1a64(&body)
                ),
                lines: body.lines().map(str::to_string).collect(),
                ours: Verdict::Legal,
                rules: Vec::new(),
                rule_ids: Vec::new(),
                sass: expected_sass(&Instruction::Mma(Mma {
                    ws: s.ws,
                    ..base_mma(s.cta_group, s.kind)
                })),
                kernel: Some((name, bits)),
                swept: false,
            });
        }
    }
}

fn generate() -> (Vec<Case>, Scope) {
    let (cases, scope, _) = generate_with(None);
    (cases, scope)
}

/// [`generate`], with every candidate form also put through `round_trip` when given.
fn generate_with(
    round_trip: Option<round_trip::RoundTrip>,
) -> (Vec<Case>, Scope, Option<round_trip::RoundTrip>) {
    let mut g = Gen {
        cases: Vec::new(),
        round_trip,
        scope: Scope::default(),
    };
    for target in TARGETS {
        mma_products(&mut g, target);
        mma_immediates(&mut g, target);
        load_store(&mut g, target);
        copies(&mut g, target);
        hand_variants(&mut g, target);
        ptx94_forms(&mut g, target, true);
    }
    for target in [
        Target::Sm100f,
        Target::Sm103f,
        Target::Sm107f,
        Target::Sm110f,
    ] {
        family_target_forms(&mut g, target);
        ptx94_forms(&mut g, target, false);
    }
    minimal_kernels(&mut g);
    (g.cases, g.scope, g.round_trip)
}

// ---------------------------------------------------------------------------------------------
// Running ptxas
// ---------------------------------------------------------------------------------------------

struct Tools {
    ptxas: PathBuf,
    nvdisasm: PathBuf,
    work: PathBuf,
}

#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    accepted: Option<bool>,
    /// SASS check of an accepted form: Some(true) shown, Some(false) missing.
    sass_ok: Option<bool>,
    /// The family of ptxas's error message for a refused form (see [`message_family`]).
    message: Option<&'static str>,
}

/// For each expected opcode: accepted forms that expect it, and the instances of it nvdisasm
/// shows in their modules.
static SASS_SEEN: Mutex<BTreeMap<Sass, (usize, usize)>> = Mutex::new(BTreeMap::new());

/// The message families seen, each kept once for the life of the program.
static FAMILIES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// ptxas's error message with what varies between forms taken out: quoted names become `'…'`,
/// numbers `N` (digits inside a name, as in `tcgen05`, stay).
fn message_family(message: &str) -> &'static str {
    let mut out = String::new();
    let mut quoted = false;
    let mut last_digit = false;
    // A digit run right after a letter is part of a name (`tcgen05`) and stays.
    let mut in_word = false;
    for c in message.trim().chars() {
        if c == '\'' {
            if !quoted {
                out.push_str("'…'");
            }
            quoted = !quoted;
            continue;
        }
        if quoted {
            continue;
        }
        if c.is_ascii_digit() && !in_word {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        in_word = c.is_ascii_alphanumeric() || c == '_';
        out.push(c);
    }
    let mut set = FAMILIES.lock().expect("no poisoned lock");
    if let Some(f) = set.get(out.as_str()) {
        return f;
    }
    let f: &'static str = Box::leak(out.into_boxed_str());
    set.insert(f);
    f
}

fn kernel_text(target: Target, version: u8, lines: &[&str]) -> String {
    let mut s = String::new();
    Context::new(target)
        .with_version(version)
        .write_preamble(&mut s)
        .expect("a String never fails");
    s.push_str(
        ".visible .entry k(.param .u64 p)\n{\n.reg .b32 r<300>;\n.reg .b64 rd<20>;\n\
         .reg .pred p<4>;\n.reg .b16 rs<4>;\n.shared .align 8 .b64 mbar;\n\
         .shared .align 4 .b32 slot;\n",
    );
    debug_assert_eq!(s.lines().count(), HEADER_LINES - 1);
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("st.global.u32 [rd19], r299;\nret;\n}\n");
    s
}

/// Line numbers (1-based, in the file) that ptxas reports an error on, each with its message.
fn error_lines(stderr: &str) -> Vec<(usize, &str)> {
    let mut v = Vec::new();
    for l in stderr.lines() {
        if !(l.contains("error") || l.contains("fatal")) {
            continue;
        }
        let message = l.split_once(" : ").map_or(l, |(_, m)| m);
        if let Some(pos) = l.find(", line ") {
            let rest = &l[pos + 7..];
            let num: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = num.parse() {
                v.push((n, message));
            }
        }
    }
    v
}

/// Counts each (opcode, .WS, .2CTA) in the disassembly.
fn sass_counts(disasm: &str) -> BTreeMap<Sass, usize> {
    let mut counts = BTreeMap::new();
    for l in disasm.lines() {
        let Some(start) = l.find("*/") else { continue };
        let mut toks = l[start + 2..].split_whitespace();
        let mut tok = toks.next().unwrap_or("");
        if tok.starts_with('@') {
            tok = toks.next().unwrap_or("");
        }
        let mut parts = tok.trim_end_matches(';').split('.');
        let base = parts.next().unwrap_or("");
        let opcode = [
            "UTCHMMA",
            "UTCQMMA",
            "UTCIMMA",
            "UTCOMMA",
            "LDTM",
            "STTM",
            "UTCCP",
            "UTCBAR",
            "UTCSHIFT",
            "UTCATOMSWS",
        ]
        .into_iter()
        .find(|o| *o == base);
        let Some(opcode) = opcode else { continue };
        let mods: Vec<&str> = parts.collect();
        // Only the MMA opcodes are checked for their .WS / .2CTA suffixes.
        let mma = opcode.ends_with("MMA");
        let key = Sass {
            opcode,
            ws: mma && mods.contains(&"WS"),
            two_cta: mma && mods.contains(&"2CTA"),
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    counts
}

/// Assembles the cases `idx` (all of one target, version and `.cta_group`) and records each
/// verdict in `out`.
fn assemble(
    tools: &Tools,
    worker: usize,
    cases: &[Case],
    idx: Vec<usize>,
    out: &Mutex<Vec<Outcome>>,
) {
    let mut queue = vec![idx];
    while let Some(batch) = queue.pop() {
        if batch.is_empty() {
            continue;
        }
        let first = &cases[batch[0]];
        // Line of the file -> case.
        let mut lines: Vec<&str> = Vec::new();
        let mut owner: Vec<usize> = Vec::new();
        for &i in &batch {
            for l in &cases[i].lines {
                lines.push(l);
                owner.push(i);
            }
        }
        let text = kernel_text(first.target, first.version, &lines);
        let ptx = tools.work.join(format!("w{worker}.ptx"));
        let cubin = tools.work.join(format!("w{worker}.cubin"));
        std::fs::write(&ptx, text).expect("write the PTX file");
        let _ = std::fs::remove_file(&cubin);
        let res = Command::new(&tools.ptxas)
            .arg(format!("-arch={}", first.target.name()))
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin)
            .output()
            .expect("run ptxas");
        let want_sass = batch.iter().any(|&i| cases[i].sass.is_some());
        if res.status.success() && !want_sass {
            let mut o = out.lock().expect("no poisoned lock");
            for &i in &batch {
                o[i] = Outcome {
                    accepted: Some(true),
                    sass_ok: None,
                    message: None,
                };
            }
            continue;
        }
        if res.status.success() {
            let dis = Command::new(&tools.nvdisasm)
                .arg(&cubin)
                .output()
                .expect("run nvdisasm");
            let counts = sass_counts(&String::from_utf8_lossy(&dis.stdout));
            let mut want: BTreeMap<Sass, usize> = BTreeMap::new();
            for &i in &batch {
                if let Some(s) = cases[i].sass {
                    *want.entry(s).or_insert(0) += 1;
                }
            }
            {
                let mut seen = SASS_SEEN.lock().expect("no poisoned lock");
                for (s, n) in &want {
                    let e = seen.entry(*s).or_insert((0, 0));
                    e.0 += n;
                    e.1 += counts.get(s).copied().unwrap_or(0);
                }
            }
            let mut o = out.lock().expect("no poisoned lock");
            for &i in &batch {
                let ok = cases[i]
                    .sass
                    .map(|s| counts.get(&s).copied().unwrap_or(0) >= want[&s]);
                o[i] = Outcome {
                    accepted: Some(true),
                    sass_ok: ok,
                    message: None,
                };
            }
            continue;
        }
        let stderr = String::from_utf8_lossy(&res.stderr);
        let named: Vec<(usize, &str)> = error_lines(&stderr)
            .into_iter()
            .filter_map(|(l, m)| l.checked_sub(HEADER_LINES).map(|k| (k, m)))
            .filter_map(|(k, m)| owner.get(k).map(|&i| (i, m)))
            .collect();
        let bad: Vec<usize> = named.iter().map(|&(i, _)| i).collect();
        let message_of = |i: usize| -> Option<&'static str> {
            named
                .iter()
                .find(|&&(j, _)| j == i)
                .map(|&(_, m)| message_family(m))
        };
        if batch.len() == 1 {
            let message = message_of(batch[0]).or_else(|| {
                stderr
                    .lines()
                    .find(|l| l.contains("error") || l.contains("fatal"))
                    .map(|l| message_family(l.split_once(" : ").map_or(l, |(_, m)| m)))
            });
            out.lock().expect("no poisoned lock")[batch[0]] = Outcome {
                accepted: Some(false),
                sass_ok: None,
                message,
            };
            continue;
        }
        if bad.is_empty() {
            // No line named: split.
            let (a, b) = batch.split_at(batch.len() / 2);
            queue.push(a.to_vec());
            queue.push(b.to_vec());
            continue;
        }
        {
            let mut o = out.lock().expect("no poisoned lock");
            for &i in &bad {
                o[i] = Outcome {
                    accepted: Some(false),
                    sass_ok: None,
                    message: message_of(i),
                };
            }
        }
        let rest: Vec<usize> = batch.into_iter().filter(|i| !bad.contains(i)).collect();
        queue.push(rest);
    }
}

/// Assembles minimal kernels (all of one target, version and `.cta_group`) as one module and
/// checks each kernel's disassembly for its MMA opcode and its instruction descriptor
/// (`UMOV URx, 0x...`). A module that fails is assembled again kernel by kernel.
fn assemble_kernels(
    tools: &Tools,
    worker: usize,
    cases: &[Case],
    idx: Vec<usize>,
    out: &Mutex<Vec<Outcome>>,
) {
    let first = &cases[idx[0]];
    let mut text = String::new();
    Context::new(first.target)
        .with_version(first.version)
        .write_preamble(&mut text)
        .expect("a String never fails");
    for &i in &idx {
        for l in &cases[i].lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    let ptx = tools.work.join(format!("k{worker}.ptx"));
    let cubin = tools.work.join(format!("k{worker}.cubin"));
    std::fs::write(&ptx, text).expect("write the PTX file");
    let _ = std::fs::remove_file(&cubin);
    let res = Command::new(&tools.ptxas)
        .arg(format!("-arch={}", first.target.name()))
        .arg(&ptx)
        .arg("-o")
        .arg(&cubin)
        .output()
        .expect("run ptxas");
    if !res.status.success() {
        if idx.len() == 1 {
            out.lock().expect("no poisoned lock")[idx[0]] = Outcome {
                accepted: Some(false),
                sass_ok: None,
                message: None,
            };
        } else {
            for i in idx {
                assemble_kernels(tools, worker, cases, vec![i], out);
            }
        }
        return;
    }
    let dis = Command::new(&tools.nvdisasm)
        .arg(&cubin)
        .output()
        .expect("run nvdisasm");
    let dis = String::from_utf8_lossy(&dis.stdout);
    // One section per kernel: `.text.NAME:`.
    let mut sections: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for l in dis.lines() {
        if let Some(rest) = l.trim().strip_prefix(".text.") {
            if let Some(name) = rest.strip_suffix(':') {
                current = Some(name.to_string());
                continue;
            }
        }
        if let Some(c) = &current {
            let e = sections.entry(c.clone()).or_default();
            e.push_str(l);
            e.push('\n');
        }
    }
    let mut o = out.lock().expect("no poisoned lock");
    for i in idx {
        let c = &cases[i];
        let Some((name, bits)) = &c.kernel else {
            continue;
        };
        let sec = sections.get(name).map_or("", String::as_str);
        let counts = sass_counts(sec);
        let opcode_ok = c
            .sass
            .is_none_or(|s| counts.get(&s).copied().unwrap_or(0) >= 1);
        let imm = format!(", {bits:#x} ;");
        let idesc_ok = sec.lines().any(|l| l.contains("UMOV") && l.contains(&imm));
        o[i] = Outcome {
            accepted: Some(true),
            sass_ok: Some(opcode_ok && idesc_ok),
            message: None,
        };
    }
}

fn run_all(tools: &Tools, cases: &[Case], jobs: usize) -> Vec<Outcome> {
    // Batches: one target, version and .cta_group each, at most BATCH forms; kernel cases
    // alone. (nvdisasm takes half a second to start: few large files keep the run short.)
    let mut groups: BTreeMap<(Target, u8, u8), Vec<usize>> = BTreeMap::new();
    let mut batches: Vec<Vec<usize>> = Vec::new();
    let mut kernel_groups: BTreeMap<(Target, u8, u8), Vec<usize>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        if c.kernel.is_some() {
            kernel_groups
                .entry((c.target, c.version, c.cta))
                .or_default()
                .push(i);
        } else if c.cta == 0 {
            batches.push(vec![i]);
        } else {
            groups
                .entry((c.target, c.version, c.cta))
                .or_default()
                .push(i);
        }
    }
    for (_, v) in groups {
        for chunk in v.chunks(BATCH) {
            batches.push(chunk.to_vec());
        }
    }
    let out = Mutex::new(vec![Outcome::default(); cases.len()]);
    // Kernel modules are marked by a leading usize::MAX.
    for (_, v) in kernel_groups {
        batches.push(std::iter::once(usize::MAX).chain(v).collect());
    }
    let queue = Mutex::new(batches);
    std::thread::scope(|s| {
        for w in 0..jobs {
            let (queue, out) = (&queue, &out);
            s.spawn(move || loop {
                let next = queue.lock().expect("no poisoned lock").pop();
                let Some(b) = next else { break };
                if b.first() == Some(&usize::MAX) {
                    assemble_kernels(tools, w, cases, b[1..].to_vec(), out);
                } else {
                    assemble(tools, w, cases, b, out);
                }
            });
        }
    });
    out.into_inner().expect("no poisoned lock")
}

// ---------------------------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Row {
    legal: usize,
    refused_both: usize,
    ours_alone: usize,
    sass_checked: usize,
    disagreements: usize,
}

fn summary(cases: &[Case], outcomes: &[Outcome], scope: Scope) -> (String, usize, Vec<String>) {
    let mut rows: BTreeMap<(&'static str, Target), Row> = BTreeMap::new();
    let mut rules: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    // Rule -> ptxas message family -> forms: what ptxas says about the forms of each rule.
    let mut messages: BTreeMap<String, BTreeMap<&'static str, usize>> = BTreeMap::new();
    let mut problems = Vec::new();
    for (c, o) in cases.iter().zip(outcomes) {
        let row = rows.entry((c.family, c.target)).or_default();
        let accepted = o.accepted.unwrap_or(false);
        let agree = match c.ours {
            Verdict::Legal => {
                row.legal += 1;
                accepted
            }
            Verdict::Illegal => {
                row.refused_both += usize::from(!accepted);
                !accepted
            }
            Verdict::OursAlone => {
                row.ours_alone += usize::from(accepted);
                accepted
            }
        };
        if c.ours != Verdict::Legal {
            for r in &c.rules {
                let e = rules.entry(r.clone()).or_default();
                e.0 += 1;
                e.1 += usize::from(agree);
            }
        }
        if let (Verdict::Illegal, [r], Some(m)) = (c.ours, c.rules.as_slice(), o.message) {
            *messages.entry(r.clone()).or_default().entry(m).or_insert(0) += 1;
        }
        let sass_bad = o.sass_ok == Some(false);
        if o.sass_ok == Some(true) {
            row.sass_checked += 1;
        }
        if !agree || sass_bad {
            row.disagreements += 1;
            problems.push(format!(
                "{} v{}: ours {:?}, ptxas {}{}: {} [{}]",
                c.target,
                c.version,
                c.ours,
                if accepted { "accepts" } else { "refuses" },
                if sass_bad {
                    " (expected SASS opcode missing)"
                } else {
                    ""
                },
                c.lines.join(" "),
                c.rules.join("; ")
            ));
        }
    }
    let mut s = String::new();
    let total_dis: usize = rows.values().map(|r| r.disagreements).sum();
    let _ = writeln!(
        s,
        "# ptxas conformance of `tcgen05::ptx`\n\n\
         Generated by `conformance/ptxas/run.sh` (ptxas and nvdisasm 13.5.37 from PyPI); do not \
         edit.\nEvery form below was written by the builders and assembled with `ptxas \
         -arch=<target>` at the lowest PTX ISA version the builders chose for it and again at every \
         later PTX ISA version up to 9.5 (8.6, 8.7, 8.8, 9.0, 9.1, 9.2, 9.3, 9.4, 9.5; the \
         minimal kernels and the version variants (one version below the lowest, one above 9.5) at \
         one version each).\n\n\
         - **legal**: we accept; ptxas must accept.\n\
         - **SASS checked**: accepted forms (legal and ours alone) whose expected opcode nvdisasm \
         shows (UTCHMMA, UTCQMMA, UTCIMMA, UTCOMMA with their .WS / .2CTA suffixes, LDTM, STTM, \
         UTCCP, UTCBAR, UTCSHIFT, UTCATOMSWS); fences, waits and relinquish_alloc_permit have no \
         opcode of their own to check.\n\
         - **refused by both**: we refuse for a rule ptxas checks; ptxas must refuse.\n\
         - **ours alone**: we refuse only for rules ptxas cannot see (descriptor values, \
         PTX-text rules ptxas lets through); ptxas must accept.\n\
         - **disagreements**: any other outcome (must be 0).\n\n\
         Total forms: {}; disagreements: **{}**.\n\n\
         Scope: the enumeration wrote {} candidate forms (every qualifier and operand combination \
         of each instruction on each target, descriptor immediates for every 8th MMA shape). \
         {} of them break two or more rules that ptxas may check and were dropped before ptxas, \
         because a refusal could not tell which rule ptxas saw; {} break one rule where the \
         enumeration asked for legal forms only. Every other candidate is assembled: {} forms \
         (the minimal kernels included).\n",
        cases.len(),
        total_dis,
        scope.candidates,
        scope.dropped_multi,
        scope.dropped_unasked,
        cases.len()
    );
    let mut per_version: BTreeMap<(Target, u8), (usize, usize)> = BTreeMap::new();
    for (c, o) in cases.iter().zip(outcomes) {
        let e = per_version.entry((c.target, c.version)).or_default();
        e.0 += 1;
        e.1 += usize::from(o.accepted == Some(true));
    }
    let _ = writeln!(
        s,
        "Forms per target and PTX ISA version (ptxas accepts / assembled):\n\n\
         | target | version | forms | ptxas accepts |\n|---|---|---:|---:|"
    );
    for ((t, v), (n, acc)) in &per_version {
        let _ = writeln!(s, "| {t} | {}.{} | {n} | {acc} |", v / 10, v % 10);
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| instruction | target | legal | SASS checked | refused by both | ours alone | disagreements |\n\
         |---|---|---:|---:|---:|---:|---:|"
    );
    let mut tot = Row::default();
    for ((fam, t), r) in &rows {
        let _ = writeln!(
            s,
            "| `{fam}` | {t} | {} | {} | {} | {} | {} |",
            r.legal, r.sass_checked, r.refused_both, r.ours_alone, r.disagreements
        );
        tot.legal += r.legal;
        tot.sass_checked += r.sass_checked;
        tot.refused_both += r.refused_both;
        tot.ours_alone += r.ours_alone;
        tot.disagreements += r.disagreements;
    }
    let _ = writeln!(
        s,
        "| **all** | | **{}** | **{}** | **{}** | **{}** | **{}** |\n",
        tot.legal, tot.sass_checked, tot.refused_both, tot.ours_alone, tot.disagreements
    );
    let _ = writeln!(
        s,
        "## Illegal forms per rule\n\nEach illegal form breaks one rule (descriptor variants may \
         break several, all ours alone). `[ours alone]` marks rules ptxas does not check.\n\n\
         | rule, field (source) | forms | verdict agrees |\n|---|---:|---:|"
    );
    for (r, (n, ok)) in &rules {
        let _ = writeln!(s, "| {r} | {n} | {ok} |");
    }
    let _ = writeln!(
        s,
        "\n## SASS opcodes\n\nFor each opcode the checked forms expect: the forms, and how many \
         instances nvdisasm shows in their modules (a form may lower to several, as an \
         `.x128` load does; every form must have at least one).\n\n\
         | opcode | forms | instances | per form |\n|---|---:|---:|---:|"
    );
    for (k, (forms, instances)) in SASS_SEEN.lock().expect("no poisoned lock").iter() {
        let name = format!(
            "{}{}{}",
            k.opcode,
            if k.ws { ".WS" } else { "" },
            if k.two_cta { ".2CTA" } else { "" }
        );
        let _ = writeln!(
            s,
            "| {name} | {forms} | {instances} | {:.2} |",
            *instances as f64 / (*forms).max(1) as f64
        );
    }
    let _ = writeln!(
        s,
        "\n## ptxas's message for each rule\n\nFor the forms refused by both, the message ptxas \
         gives on the form's line, with names and numbers taken out (`'…'`, `N`): which kind of \
         error ptxas reports for the rule we name. A rule with several families is one ptxas \
         words differently by qualifier or operand.\n\n\
         | rule, field (source) | ptxas message family | forms |\n|---|---|---:|"
    );
    for (r, fams) in &messages {
        for (m, n) in fams {
            let m = m.replace('|', "\\|");
            let _ = writeln!(s, "| {r} | {m} | {n} |");
        }
    }
    (s, total_dis, problems)
}

// ---------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------

fn main() -> ExitCode {
    let mut ptxas = None;
    let mut nvdisasm = None;
    let mut out_file: Option<PathBuf> = None;
    let mut check_file: Option<PathBuf> = None;
    let mut verdicts_out: Option<PathBuf> = None;
    let mut work = PathBuf::from(".cache/ptxas-work");
    let mut filter: Option<String> = None;
    let mut sample: Option<u64> = None;
    let mut jobs = std::thread::available_parallelism().map_or(2, usize::from);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().map(PathBuf::from);
        match a.as_str() {
            "--ptxas" => ptxas = val(),
            "--nvdisasm" => nvdisasm = val(),
            "--out" => out_file = val(),
            "--check" => check_file = val(),
            "--verdicts-out" => verdicts_out = val(),
            "--work" => work = val().unwrap_or(work),
            "--filter" => filter = args.next(),
            "--sample" => {
                let Some(n) = val().and_then(|p| p.to_str().and_then(|s| s.parse().ok())) else {
                    eprintln!("error: --sample takes a number (1: every form)");
                    return ExitCode::from(2);
                };
                sample = Some(n);
            }
            "--jobs" => {
                jobs = val()
                    .and_then(|p| p.to_str().and_then(|s| s.parse().ok()))
                    .unwrap_or(jobs)
            }
            _ => {
                eprintln!("usage: tcgen05-ptxas-conformance --ptxas PATH --nvdisasm PATH [--out SUMMARY.md] [--verdicts-out verdicts.tsv.gz] [--check verdicts.tsv.gz] [--work DIR] [--jobs N] [--filter FAMILY] [--sample N]");
                return ExitCode::from(2);
            }
        }
    }
    let (Some(ptxas), Some(nvdisasm)) = (ptxas, nvdisasm) else {
        eprintln!(
            "error: --ptxas and --nvdisasm are required (conformance/ptxas/setup.sh installs them)"
        );
        return ExitCode::from(2);
    };
    for p in [&ptxas, &nvdisasm] {
        if !Path::new(p).is_file() {
            eprintln!("error: {} does not exist", p.display());
            return ExitCode::from(2);
        }
    }
    std::fs::create_dir_all(&work).expect("create the work directory");
    let t0 = Instant::now();
    let (mut cases, scope) = generate();
    if let Some(f) = &filter {
        cases.retain(|c| c.family.contains(f.as_str()));
    }
    let enumerated = cases.len();
    // --check alone assembles CI's sample; --sample 1 assembles every form.
    let sample = sample.unwrap_or(if check_file.is_some() {
        versions::CHECK_SAMPLE
    } else {
        1
    });
    if sample > 1 {
        cases.retain(|c| {
            !c.swept
                || versions::sampled(
                    &verdicts::form_id(c.target.name(), c.version, &c.key),
                    sample,
                )
        });
        eprintln!(
            "--sample {sample}: assembling {} of the {enumerated} forms (every form at its lowest \
             version, one in {sample} at later versions)",
            cases.len()
        );
    }
    let t_gen = t0.elapsed();
    let tools = Tools {
        ptxas,
        nvdisasm,
        work,
    };
    let t1 = Instant::now();
    let outcomes = run_all(&tools, &cases, jobs.max(1));
    let t_run = t1.elapsed();
    let (text, disagreements, problems) = summary(&cases, &outcomes, scope);
    eprintln!(
        "ptxas conformance: {} forms generated in {:.2?}, assembled in {:.2?} with {jobs} jobs; {disagreements} disagreements",
        cases.len(),
        t_gen,
        t_run
    );
    for p in problems.iter().take(20) {
        eprintln!("disagreement: {p}");
    }
    let all = tools.work.join("disagreements.txt");
    std::fs::write(&all, problems.join("\n")).expect("write the disagreement list");
    if !problems.is_empty() {
        eprintln!("all {} disagreements: {}", problems.len(), all.display());
    }
    if let Some(f) = &out_file {
        std::fs::write(f, &text).expect("write the summary");
    }
    let mut failed = disagreements != 0;
    let (table, twice) = verdict_table(&cases, Some(&outcomes));
    for id in &twice {
        eprintln!(
            "error: form enumerated twice with different verdicts: `{}`",
            id.replace('\t', " ")
        );
        failed = true;
    }
    if let Some(f) = &verdicts_out {
        if filter.is_some() || sample > 1 {
            eprintln!(
                "error: --verdicts-out writes every form; it cannot be used with --filter or --sample"
            );
            return ExitCode::from(2);
        }
        verdicts::write_gz(f, &table).expect("write the verdict file");
    }
    if let Some(f) = &check_file {
        match verdicts::read_gz(f) {
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
            }
            Ok(mut committed) => {
                if filter.is_some() || sample > 1 {
                    // Only the filtered or sampled forms ran: compare those.
                    let wanted: BTreeSet<String> = cases
                        .iter()
                        .map(|c| verdicts::form_id(c.target.name(), c.version, &c.key))
                        .collect();
                    committed.retain(|id, _| wanted.contains(id));
                    eprintln!("comparing the {} forms assembled", wanted.len());
                }
                let diffs = verdicts::diff(&committed, &table, true);
                for d in &diffs {
                    eprintln!("verdict: {d}");
                }
                if !diffs.is_empty() {
                    eprintln!(
                        "error: {} forms differ from {} (run conformance/ptxas/run.sh to update it)",
                        diffs.len(),
                        f.display()
                    );
                    failed = true;
                }
            }
        }
    }
    if out_file.is_none() && check_file.is_none() {
        print!("{text}");
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{generate, generate_with, round_trip::RoundTrip, verdict_table, verdicts};

    /// The committed verdict file, written by `conformance/ptxas/run.sh` from a ptxas run.
    const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../verdicts.tsv.gz");

    /// Every form the builders enumerate today has the verdict and rules committed in
    /// `verdicts.tsv.gz`, and no committed form is missing: a rule dropped from `tcgen05::ptx`
    /// (one ptxas cannot see included) or a form leaving the enumeration fails here, naming the
    /// form, without ptxas. The committed ptxas verdicts are ptxas's own, from the run that
    /// wrote the file; this test checks that they agree with the committed verdicts of ours.
    #[test]
    fn every_form_has_its_committed_verdict() {
        let committed = verdicts::read_gz(Path::new(COMMITTED)).expect("the committed verdicts");
        let (cases, _) = generate();
        let (now, twice) = verdict_table(&cases, None);
        assert!(
            twice.is_empty(),
            "forms enumerated twice with different verdicts: {twice:?}"
        );
        let diffs = verdicts::diff(&committed, &now, false);
        assert!(
            diffs.is_empty(),
            "{} forms differ from conformance/ptxas/verdicts.tsv.gz (when a change is intended, \
             run conformance/ptxas/run.sh to regenerate it with ptxas):\n{}",
            diffs.len(),
            diffs
                .iter()
                .take(50)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
        let wrong: Vec<String> = committed
            .iter()
            .filter(|(_, e)| {
                let must_accept = e.ours != "illegal";
                e.ptxas != if must_accept { "accepts" } else { "refuses" }
            })
            .map(|(id, e)| format!("{id}: ours {}, ptxas {}", e.ours, e.ptxas))
            .collect();
        assert!(wrong.is_empty(), "committed disagreements: {wrong:?}");
    }

    /// The grammar round trip (issue 23) on every `stride`-th candidate form of the
    /// enumeration (legal or not): each is written, read back with `ptx_reader` and parsed with
    /// `tcgen05::ptx::parse`; a form of the grammar must come back as itself, and a form outside
    /// it (a typed form holding what no text tells apart, or a register name that is no PTX
    /// identifier) must not.
    fn round_trip(stride: usize) {
        let rt = RoundTrip {
            stride,
            ..RoundTrip::default()
        };
        let (_, _, rt) = generate_with(Some(rt));
        let rt = rt.expect("the round trip was asked for");
        eprintln!(
            "grammar round trip: {} of {} candidate forms checked, {} parsed back to \
             themselves, outside the grammar: {:?}",
            rt.forms, rt.seen, rt.exact, rt.outside
        );
        assert!(
            rt.failures.is_empty(),
            "{} forms fail the round trip:\n{}",
            rt.failed,
            rt.failures.join("\n")
        );
        let outside: usize = rt.outside.values().sum();
        assert_eq!(rt.exact + outside, rt.forms);
        assert!(rt.exact * 3 > rt.forms, "{} forms round-tripped", rt.exact);
    }

    /// Every 7th candidate form (408,010 of 2,856,068), in CI.
    #[test]
    fn sampled_candidate_forms_parse_back_to_themselves() {
        round_trip(7);
    }

    /// Every candidate form (2,856,068; about 3 minutes unoptimised):
    /// `cargo test -p tcgen05-ptxas-conformance --release -- --ignored`.
    #[test]
    #[ignore = "every candidate form: run by hand"]
    fn every_candidate_form_parses_back_to_itself() {
        round_trip(1);
    }
}
