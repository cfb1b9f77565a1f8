//! `tcgen05.mma`: operands fetched through their descriptors and Tensor Memory addresses, D
//! computed by the form's measured arithmetic and written per data-path layout (PTX ISA
//! 9.7.16.10).
//!
//! The entry point [`mma`] takes the instruction's typed form and operand values
//! ([`MmaOperation`]) and reads and writes the memories through [`TensorCoreMemory`], in named
//! stages (read A, read B, zero columns, scales, C, sparsity metadata, arithmetic, write D). The
//! emulator's line form (`mma_line`) and a whole-kernel interpreter both run it.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::k96;
use super::memory::TensorCoreMemory;
use super::mma_operand::{ashift, read_cell, read_element, scaled_c, Copies};
use super::problem::{EmuError, EmuRule, Problem};
use super::random::Random;
use super::scale_format;
use super::sparse;
use super::state::{CollectorBuffer, Cta};
use crate::canonical_layout::{ElementStorage, MatrixLayout, Operand as LayoutOperand};
use crate::data_path::{a_cell, DLayout, DataPathLayout, ScaleVec as SfVec, SfLayout, SfOperand};
use crate::instruction_descriptor::{IdescFields, InstructionDescriptor};
use crate::mma::{CtaGroup, ElementType, Kind, Major, ScaleType};
use crate::numerics::fast::MmaOperands;
use crate::numerics::packing::{pack_container, unpack_container};
use crate::numerics::params::{Arch, Form, Instruction as NumInstruction, ParamRow};
use crate::numerics::Format;
use crate::ptx::{Collector, CollectorOp, ScaleVec};
use crate::shared_memory_descriptor::SmemDescriptor;
use crate::targets::Target;
use crate::tensor_memory::TmemAddress;
use crate::zero_column_mask::ZeroColumnMask;

/// The numerics format of an element type.
#[must_use]
pub(super) const fn format_of(t: ElementType) -> Format {
    match t {
        ElementType::F16 => Format::F16,
        ElementType::Bf16 => Format::Bf16,
        ElementType::Tf32 => Format::Tf32,
        ElementType::F32 => Format::F32,
        ElementType::E4m3 => Format::E4m3,
        ElementType::E5m2 => Format::E5m2,
        ElementType::E2m3 => Format::E2m3,
        ElementType::E3m2 => Format::E3m2,
        ElementType::E2m1 => Format::E2m1,
        ElementType::S8 => Format::S8,
        ElementType::U8 => Format::U8,
        ElementType::S32 => Format::S32,
    }
}

/// Flips the sign bit of a floating-point code (negation, E5 of the module docs).
pub(super) const fn negate(format: Format, code: u32) -> u32 {
    match format {
        Format::Tf32 | Format::F32 => code ^ (1 << 31),
        Format::F16 | Format::Bf16 => code ^ (1 << 15),
        Format::E4m3 | Format::E5m2 => code ^ (1 << 7),
        Format::E3m2 | Format::E2m3 => code ^ (1 << 5),
        Format::E2m1 => code ^ (1 << 3),
        _ => code,
    }
}

/// What the last MMA wrote: enough to read D back as a matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaRecord {
    /// D's Tensor Memory address (the same in both CTAs of a pair).
    pub d_address: TmemAddress,
    /// D's placement.
    pub layout: DLayout,
    /// D's element type.
    pub d_type: ElementType,
    /// A's and B's element types.
    pub ab_types: (ElementType, ElementType),
    /// The kind.
    pub kind: Kind,
    /// K of the MMA.
    pub k: u32,
    /// The operands as the MMA read them (codes after negation and zero columns), A row-major
    /// M x K, B column-major N x K, the scale codes per (row, block) and (column, block), and
    /// C as M x N codes: for the exact reference.
    pub inputs: MmaInputs,
    /// Lanes that `disable-output-lane` kept from being written, per CTA (bit = lane).
    pub disabled: [u128; 2],
}

/// The operands of one MMA as it read them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MmaInputs {
    /// A, M x K codes.
    pub a: Vec<u32>,
    /// B, N x K codes.
    pub b: Vec<u32>,
    /// C, M x N codes in D's format (0 with `enable-input-d` false).
    pub c: Vec<u32>,
    /// scale_A, M x blocks codes (empty for unscaled kinds).
    pub sfa: Vec<u32>,
    /// scale_B, N x blocks codes.
    pub sfb: Vec<u32>,
    /// The scale format, for block-scaled kinds.
    pub scale_format: Option<Format>,
}

/// D of an MMA as an M x N row-major matrix of codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DMatrix {
    /// Rows.
    pub m: u32,
    /// Columns.
    pub n: u32,
    /// The element type.
    pub d_type: ElementType,
    /// Codes, row-major (16-bit D in the low 16 bits).
    pub codes: Vec<u32>,
}

impl MmaRecord {
    /// Reads D back from Tensor Memory.
    pub(super) fn read_d(&self, ctas: &[Cta; 2]) -> Result<DMatrix, EmuError> {
        let (m, n) = (self.layout.m(), self.layout.n());
        let mut codes = vec![0u32; (m * n) as usize];
        for row in 0..m {
            for col in 0..n {
                let cell = self.layout.locate(row, col).map_err(Problem::from)?;
                let lane = self.d_address.lane() + cell.lane;
                let column = self.d_address.column() + cell.column;
                let v = ctas[cell.cta as usize]
                    .tmem_cell(lane, column)?
                    .ok_or_else(|| {
                        Problem::emu(
                            EmuRule::TmemUninitialised,
                            "d",
                            u64::from(lane << 16 | column),
                        )
                    })?;
                codes[(row * n + col) as usize] = if self.d_type == ElementType::F16 {
                    v & 0xFFFF
                } else {
                    v
                };
            }
        }
        Ok(DMatrix {
            m,
            n,
            d_type: self.d_type,
            codes,
        })
    }
}

/// One `tcgen05.mma` as the hardware receives it: the typed form (its qualifiers) and the
/// operand values (PTX ISA 9.7.16.10.9), whether they came from a line's immediates or from a
/// kernel's registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaOperation {
    /// `.cta_group::1` or `::2`.
    pub group: CtaGroup,
    /// `.kind::*`.
    pub kind: Kind,
    /// `.ws`.
    pub ws: bool,
    /// `.scale_vec::*` / `.block16` / `.block32` (block-scaled kinds).
    pub vec: ScaleVec,
    /// `.collector::a::*` / `.collector::bN::*`.
    pub collector: Option<Collector>,
    /// D's Tensor Memory address.
    pub d: TmemAddress,
    /// A: a shared memory descriptor or a Tensor Memory address.
    pub a: ASource,
    /// B's shared memory descriptor.
    pub b: u64,
    /// The instruction descriptor.
    pub idesc: u32,
    /// scale_A's and scale_B's Tensor Memory addresses (`.block_scale`).
    pub scales: Option<(TmemAddress, TmemAddress)>,
    /// `disable-output-lane`: 4 words per CTA, bit = lane.
    pub disable: Option<Vec<u32>>,
    /// `enable-input-d`: D = A x B + D when true, A x B when false.
    pub enable_input_d: bool,
    /// `scale-input-d` (0-15; f16 and tf32 kinds).
    pub scale_input_d: u32,
    /// The `.ws` zero-column mask.
    pub zmask: Option<u64>,
    /// The sparsity metadata address of `.sp`.
    pub meta: Option<TmemAddress>,
    /// `.ashift` (E11).
    pub ashift: bool,
}

/// Where an MMA reads A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ASource {
    /// Shared memory, through this descriptor.
    Smem(u64),
    /// Tensor Memory at this address.
    Tmem(TmemAddress),
}

/// What the emulator needs besides the operation and the memories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaOptions {
    /// The target whose shared memory descriptor rules apply.
    pub target: Target,
    /// Whether Tensor Memory accesses must lie in an allocation (E1).
    pub check_allocation: bool,
}

/// What one MMA did.
#[derive(Clone, Debug, PartialEq)]
pub struct MmaDone {
    /// Its record: D's place and the operands as read.
    pub record: MmaRecord,
    /// Warnings (the MMA completed).
    pub warnings: Vec<Problem>,
    /// Cells of D written (all CTAs).
    pub written: u32,
    /// A one-line account (`D 128x64x16 f32 += bf16 x bf16, layout D at lane 0 column 0, ...`).
    pub effect: String,
}

/// The data-path scale vector of a block-scaled form.
fn sf_vec(kind: Kind, vec: ScaleVec) -> SfVec {
    match vec {
        v @ (ScaleVec::X1 | ScaleVec::X2 | ScaleVec::X3 | ScaleVec::X6) => v,
        ScaleVec::X4 | ScaleVec::Block16 => SfVec::X4,
        ScaleVec::Default | ScaleVec::Block32 => {
            if kind == Kind::Mxf8f6f4 {
                SfVec::X1
            } else {
                SfVec::X2
            }
        }
    }
}

/// An operand problem naming its field.
pub(super) fn operand_error(field: &'static str, value: u64) -> Problem {
    Problem::emu(EmuRule::Operands, field, value)
}

/// What the stages of one MMA share: the instruction descriptor's fields and the shape, layout
/// and arithmetic they select.
struct Setup {
    fields: IdescFields,
    layout: DataPathLayout,
    d_layout: DLayout,
    fa: Format,
    fb: Format,
    fd: Format,
    m: u32,
    n: u32,
    /// K of A as stored.
    k: u32,
    /// K of B (twice `k` for `.sp`).
    kb: u32,
    ctas: u32,
    per: u32,
    n_per: u32,
    sfvec: Option<SfVec>,
    form: Form,
    row: ParamRow,
}

/// The reading state of one MMA: random fills, the allocation check, what went wrong.
struct Reader<'r> {
    target: Target,
    random: &'r mut Option<Random>,
    check_alloc: bool,
    problems: Vec<Problem>,
    warnings: &'r mut Vec<Problem>,
}

/// Decodes the instruction descriptor and derives the shape, layouts and arithmetic (K = 96
/// from [`k96`]).
fn setup(op: &MmaOperation, target: Target) -> Result<Setup, EmuError> {
    // UE5M3 in bits 23-24 on the sm_107 family (D9), read before the layout tables.
    let (idesc, ue5m3) = scale_format::split(op.idesc, op.kind, target)?;
    let fields: IdescFields = InstructionDescriptor::from_bits(idesc, op.kind)
        .map_err(Problem::from)?
        .fields()
        .ok_or_else(|| EmuError::one(operand_error("idesc", u64::from(idesc))))?;
    if fields.k96 {
        k96::check(&fields, op.group, op.meta.is_some(), target)?;
    }
    let kind = op.kind;
    let (m, n) = (u32::from(fields.m), u32::from(fields.n));
    let layout =
        DataPathLayout::for_mma(m, op.group, op.ws, op.meta.is_some()).map_err(Problem::from)?;
    let d_layout = DLayout::with_layout(layout, n).map_err(Problem::from)?;
    // D's lane, and A's in Tensor Memory, is the layout's lane alignment: 0, or 0 or 16 for
    // the half-datapath layouts (M = 64; PTX ISA 9.7.16.10.5).
    let mut lanes = vec![("d_tmem", layout.check_address(op.d))];
    if let ASource::Tmem(a) = op.a {
        lanes.push(("a_tmem", layout.check_address(a)));
    }
    let misaligned: Vec<Problem> = lanes
        .into_iter()
        .filter_map(|(field, r)| r.err().map(|e| Problem { field, ..e.into() }))
        .collect();
    if !misaligned.is_empty() {
        return Err(EmuError {
            problems: misaligned,
        });
    }
    let (fa, fb, fd) = (
        format_of(fields.a_type),
        format_of(fields.b_type),
        format_of(fields.d_type),
    );
    // K of A as stored; B has the logical K, twice that for `.sp` (E10).
    let k = if fields.k96 {
        k96::K96
    } else {
        u32::from(kind.dense_k())
    };
    let kb = if op.meta.is_some() { 2 * k } else { k };
    if op.meta.is_some() {
        sparse::supported(kind, m, op.group, &fields)?;
    }
    let sfvec = if fields.k96 {
        Some(k96::scale_vec(kind, op.vec)?)
    } else {
        kind.is_block_scaled().then(|| sf_vec(kind, op.vec))
    };
    let form = Form {
        arch: Arch::Sm100a,
        instruction: Some(NumInstruction::Tcgen05Mma),
        kind,
        a: fa,
        b: fb,
        d: Some(fd),
        scale: fields.scale_type.map(|s| match s {
            ScaleType::Ue8m0 => Format::Ue8m0,
            ScaleType::Ue4m3 => Format::Ue4m3,
        }),
        block: sfvec.map(|v| k / v.count()),
    };
    let row: ParamRow = form.row().map_err(|e| EmuError {
        problems: e.problems.iter().map(Problem::from).collect(),
    })?;
    let row = if ue5m3 { scale_format::row(row)? } else { row };
    let row = if fields.k96 { k96::row(row)? } else { row };
    let mut form = form;
    if ue5m3 {
        form.scale = Some(scale_format::UE5M3);
    }
    let ctas = layout.ctas();
    Ok(Setup {
        fields,
        layout,
        d_layout,
        fa,
        fb,
        fd,
        m,
        n,
        k,
        kb,
        ctas,
        per: layout.rows_per_cta(),
        n_per: n / ctas,
        sfvec,
        form,
        row,
    })
}

/// Runs one `tcgen05.mma` on `mem` (PTX ISA 9.7.16.10), stage by stage: read A, read B, zero
/// columns, negation, scale factors, C, sparsity metadata, the arithmetic (the numerics
/// module's fast path for the form's parameter row), write D.
///
/// D is written only when every stage succeeded. Reads of never-written memory are errors
/// ([`EmuRule::SmemUninitialised`], [`EmuRule::TmemUninitialised`]). `.ashift` and the
/// collector buffers change `mem` as they are read, before D is written.
///
/// # Errors
/// Every problem of the operands (descriptors, addresses, layouts, element codes) and of the
/// memories they point into.
pub fn mma<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    options: MmaOptions,
) -> Result<MmaDone, EmuError> {
    let mut random = None;
    let mut warnings = Vec::new();
    let (record, written, effect) = run(mem, op, options, &mut random, &mut warnings)?;
    Ok(MmaDone {
        record,
        warnings,
        written,
        effect,
    })
}

/// [`mma`] with the emulator's random inputs: the stages in order.
pub(super) fn run<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    options: MmaOptions,
    random: &mut Option<Random>,
    warnings: &mut Vec<Problem>,
) -> Result<(MmaRecord, u32, String), EmuError> {
    let s = setup(op, options.target)?;
    let mut rd = Reader {
        target: options.target,
        random,
        check_alloc: options.check_allocation,
        problems: Vec::new(),
        warnings,
    };
    let mut a = read_a(mem, op, &s, &mut rd)?;
    let mut b = read_b(mem, op, &s, &mut rd)?;
    zero_columns(op, &s, &mut b, &mut rd.problems);
    // Negation (E5).
    if s.fields.negate_a {
        a.iter_mut().for_each(|x| *x = negate(s.fa, *x));
    }
    if s.fields.negate_b {
        b.iter_mut().for_each(|x| *x = negate(s.fb, *x));
    }
    let (sfa, sfb) = read_scales(mem, op, &s, &mut rd);
    let d_cells = d_cells(mem, op, &s, &mut rd)?;
    let c = read_c(mem, op, &s, &d_cells, &mut rd);
    let gather = read_metadata(mem, op, &s, &mut rd);
    if !rd.problems.is_empty() {
        return Err(EmuError {
            problems: rd.problems,
        });
    }
    let mut inputs = MmaInputs {
        a,
        b,
        c,
        sfa,
        sfb,
        scale_format: s
            .form
            .scale
            .or(op.kind.is_block_scaled().then_some(Format::Ue8m0)),
    };
    let dvals = arithmetic(op, &s, &inputs, &gather)?;
    inputs.a = a_logical(&s, inputs.a, &gather);
    let (disabled, written) = write_d(mem, op, &d_cells, &dvals)?;
    let effect = format!(
        "D {}x{}x{} {} += {} x {}{}, layout {} at lane {} column {}, {} cells written in {} CTA(s)",
        s.m,
        s.n,
        s.kb,
        s.fields.d_type.name(),
        s.fields.a_type.name(),
        s.fields.b_type.name(),
        if gather.is_empty() {
            ""
        } else {
            " (sparse A, metadata read)"
        },
        s.layout.letter(),
        op.d.lane(),
        op.d.column(),
        written,
        s.ctas
    );
    let record = MmaRecord {
        d_address: op.d,
        layout: s.d_layout,
        d_type: s.fields.d_type,
        ab_types: (s.fields.a_type, s.fields.b_type),
        kind: op.kind,
        k: s.kb,
        inputs,
        disabled,
    };
    Ok((record, written, effect))
}

/// Copies a filled collector buffer into `out` (the operand's codes of CTA `c`), warning when
/// the shared memory it was filled from has changed since.
fn use_collector<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    c: u32,
    name: &'static str,
    field: &'static str,
    out: &mut [u32],
    lastuse: bool,
    rd: &mut Reader<'_>,
) {
    let Some(buf) = mem.collector(c, name) else {
        rd.problems
            .push(Problem::emu(EmuRule::CollectorEmpty, field, u64::from(c)));
        return;
    };
    if buf.codes.len() == out.len() {
        out.copy_from_slice(&buf.codes);
    }
    if buf
        .source
        .iter()
        .any(|&(addr, byte)| mem.smem_byte(c, addr).flatten() != Some(byte))
    {
        rd.warnings
            .push(Problem::emu(EmuRule::CollectorStale, field, u64::from(c)));
    }
    if lastuse {
        mem.set_collector(c, name, None);
    }
}

/// Stage "read A": M x K codes, each CTA's rows from its own memories (a collector buffer,
/// shared memory through the descriptor, or Tensor Memory).
fn read_a<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    s: &Setup,
    rd: &mut Reader<'_>,
) -> Result<Vec<u32>, EmuError> {
    let (per, k) = (s.per, s.k);
    let mut a = vec![0u32; (s.m * k) as usize];
    let storage = ElementStorage::of(s.fields.a_type, Some(op.kind)).map_err(Problem::from)?;
    let collector = match op.collector {
        Some(Collector::A(o)) => Some(o),
        _ => None,
    };
    let keep = collector == Some(CollectorOp::Fill);
    for c in 0..s.ctas {
        let part = (c * per * k) as usize..((c + 1) * per * k) as usize;
        if matches!(collector, Some(CollectorOp::Use | CollectorOp::Lastuse)) {
            let last = collector == Some(CollectorOp::Lastuse);
            use_collector(mem, c, "a", "collector::a", &mut a[part], last, rd);
            continue;
        }
        let mut source = Vec::new();
        let done = match op.a {
            ASource::Smem(desc) => {
                let major = if s.fields.transpose_a {
                    Major::Mn
                } else {
                    Major::K
                };
                let shape = LayoutOperand::new(storage, major, per, k);
                let out = &mut a[part.clone()];
                let read = SmemRead {
                    desc,
                    shape,
                    format: s.fa,
                    field: "a",
                    keep,
                    shift: 0,
                };
                read.matrix(mem, c, out, &mut source, rd)
            }
            ASource::Tmem(addr) => a_from_tmem(mem, c, addr, op.ashift, s, storage, &mut a, rd),
        };
        if !done {
            continue;
        }
        if keep {
            let codes = a[part].to_vec();
            mem.set_collector(c, "a", Some(CollectorBuffer { codes, source }));
        } else if collector == Some(CollectorOp::Discard) || collector.is_none() {
            mem.set_collector(c, "a", None);
        }
    }
    Ok(a)
}

/// One operand's read from shared memory through its descriptor.
struct SmemRead {
    desc: u64,
    shape: LayoutOperand,
    format: Format,
    field: &'static str,
    keep: bool,
    /// The `.ws` column shift (B only).
    shift: u32,
}

impl SmemRead {
    /// Reads rows `0..out.len() / K` (columns for B) of K codes into `out`; false when the
    /// descriptor or layout is refused (the problem is recorded).
    fn matrix<M: TensorCoreMemory + ?Sized>(
        &self,
        mem: &mut M,
        c: u32,
        out: &mut [u32],
        source: &mut Vec<(u32, u8)>,
        rd: &mut Reader<'_>,
    ) -> bool {
        let d = match SmemDescriptor::from_bits(self.desc, rd.target) {
            Ok(d) => d,
            Err(e) => {
                rd.problems.push(e.into());
                return false;
            }
        };
        let ml = match MatrixLayout::try_new(d, self.shape) {
            Ok(l) => l,
            Err(e) => {
                rd.problems.push(e.into());
                return false;
            }
        };
        let k = self.shape.k;
        let rows = out.len() as u32 / k.max(1);
        'rows: for r in 0..rows {
            for kk in 0..k {
                let got = ml
                    .address(r + self.shift, kk)
                    .map_err(Problem::from)
                    .and_then(|loc| {
                        read_element(
                            mem,
                            c,
                            loc,
                            self.format,
                            rd.random,
                            self.field,
                            source,
                            self.keep,
                        )
                    });
                match got {
                    Ok(code) => out[(r * k + kk) as usize] = code,
                    Err(p) => {
                        rd.problems.push(p);
                        break 'rows;
                    }
                }
            }
        }
        true
    }
}

/// A from Tensor Memory for CTA `c` (layouts' `a_cell`), after `.ashift` if asked (E11); false
/// when the read stopped before it began.
#[allow(clippy::too_many_arguments)]
fn a_from_tmem<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    c: u32,
    addr: TmemAddress,
    shift: bool,
    s: &Setup,
    storage: ElementStorage,
    a: &mut [u32],
    rd: &mut Reader<'_>,
) -> bool {
    let (per, k, fa) = (s.per, s.k, s.fa);
    let bits = 128 / u32::from(storage.per_chunk());
    if shift {
        // E11: A's rows move one lane up within each 32-lane subpartition before the MMA
        // reads them; the 256 bits of a row are k * bits / 32 columns.
        if let Err(p) = ashift(mem, c, addr, k * bits / 32, rd.check_alloc) {
            rd.problems.push(p);
            return false;
        }
        if c == 0 {
            rd.warnings
                .push(Problem::emu(EmuRule::AshiftReading, "ashift", 1));
        }
    }
    // A 4- or 6-bit element in an 8-bit container sits in the container's field (E9 of the
    // module docs; PTX ISA 9.7.16.10.4.3).
    let container = bits == 8 && matches!(fa, Format::E2m1 | Format::E2m3 | Format::E3m2);
    let mut differ = false;
    'rows: for r in 0..per {
        for kk in 0..k {
            let global = c * per + r;
            let cell = match a_cell(s.layout, global, kk, bits) {
                Ok(x) => x,
                Err(e) => {
                    rd.problems.push(e.into());
                    break 'rows;
                }
            };
            // A whole cell of random codes of A's type, if random inputs fill it.
            let fill = |rr: &mut Random| {
                let mut w = 0u32;
                for i in 0..(32 / bits) {
                    let code = rr.code(fa);
                    let held = if container {
                        pack_container(fa, code).map_or(0, u32::from)
                    } else {
                        code & ((1u64 << bits) - 1) as u32
                    };
                    w |= held << (i * bits);
                }
                w
            };
            let copies = Copies {
                lanes: cell.lanes(),
                base: addr,
                column: cell.column,
                lo: u32::from(cell.bits.lo),
                width: cell.bits.width(),
            };
            let first = match copies.read(mem, c, rd.random, fill, "a_tmem", rd.check_alloc) {
                Ok((v, d)) => {
                    differ |= d;
                    v
                }
                Err(p) => {
                    rd.problems.push(p);
                    break 'rows;
                }
            };
            let first = if container {
                match unpack_container(fa, first as u8) {
                    Ok(c) => c,
                    Err(_) => {
                        rd.problems.push(Problem::emu(
                            EmuRule::ContainerPadding,
                            "a_tmem",
                            u64::from(first),
                        ));
                        break 'rows;
                    }
                }
            } else {
                first
            };
            a[(global * k + kk) as usize] = first;
        }
    }
    if differ {
        rd.warnings.push(Problem::emu(
            EmuRule::CopiesDiffer,
            "a_tmem",
            u64::from(addr.bits()),
        ));
    }
    true
}

/// Stage "read B": N x K codes (K doubled for `.sp`), N / ctas columns from each CTA's shared
/// memory or collector buffer; with `.ws`, the MMA's column j is B's column s + j (rules.md
/// R22).
fn read_b<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    s: &Setup,
    rd: &mut Reader<'_>,
) -> Result<Vec<u32>, EmuError> {
    let (n_per, kb) = (s.n_per, s.kb);
    let shift = op.zmask.map_or(0, |z| {
        u32::from(ZeroColumnMask::from_bits_unchecked(z).fields().column_shift)
    });
    let mut b = vec![0u32; (s.n * kb) as usize];
    let storage = ElementStorage::of(s.fields.b_type, Some(op.kind)).map_err(Problem::from)?;
    let collector = match op.collector {
        Some(Collector::B(i, o)) => Some((["b0", "b1", "b2", "b3"][usize::from(i & 3)], o)),
        _ => None,
    };
    let keep = matches!(collector, Some((_, CollectorOp::Fill)));
    for c in 0..s.ctas {
        let part = (c * n_per * kb) as usize..((c + 1) * n_per * kb) as usize;
        if let Some((name, o @ (CollectorOp::Use | CollectorOp::Lastuse))) = collector {
            let last = o == CollectorOp::Lastuse;
            use_collector(mem, c, name, "collector::b", &mut b[part], last, rd);
            continue;
        }
        let major = if s.fields.transpose_b {
            Major::Mn
        } else {
            Major::K
        };
        let extent = n_per + shift.div_ceil(8) * 8;
        let read = SmemRead {
            desc: op.b,
            shape: LayoutOperand::new(storage, major, extent, kb),
            format: s.fb,
            field: "b",
            keep,
            shift,
        };
        let mut source = Vec::new();
        if !read.matrix(mem, c, &mut b[part.clone()], &mut source, rd) {
            continue;
        }
        if let Some((name, o)) = collector {
            if o == CollectorOp::Fill {
                let codes = b[part].to_vec();
                mem.set_collector(c, name, Some(CollectorBuffer { codes, source }));
            } else {
                mem.set_collector(c, name, None);
            }
        }
    }
    Ok(b)
}

/// Stage "zero columns" of `.ws` (E4): the columns the mask selects are read as +0 codes.
fn zero_columns(op: &MmaOperation, s: &Setup, b: &mut [u32], problems: &mut Vec<Problem>) {
    let Some(z) = op.zmask else {
        return;
    };
    let (n, kb) = (s.n, s.kb);
    match ZeroColumnMask::from_bits(z).and_then(|zm| zm.column_mask(s.m as u16, n as u16)) {
        Ok(mask) => {
            for col in 0..n {
                if mask.bit(col as u16) {
                    b[(col * kb) as usize..((col + 1) * kb) as usize].fill(0);
                }
            }
        }
        Err(e) => problems.push(e.into()),
    }
}

/// Stage "scales": scale_A (M x blocks) and scale_B (N x blocks) codes from Tensor Memory,
/// placed by the scale-factor layouts; empty for kinds without block scaling.
fn read_scales<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    s: &Setup,
    rd: &mut Reader<'_>,
) -> (Vec<u32>, Vec<u32>) {
    let blocks = s.sfvec.map_or(0, |v| v.count());
    let mut sfa = vec![0u32; (s.m * blocks) as usize];
    let mut sfb = vec![0u32; (s.n * blocks) as usize];
    let (Some(vec), Some((sa, sb))) = (s.sfvec, op.scales) else {
        return (sfa, sfb);
    };
    let sf_format = s.form.scale.unwrap_or(Format::Ue8m0);
    let (ida, idb) = (u32::from(s.fields.sfa_id), u32::from(s.fields.sfb_id));
    for (operand, addr, id, extent, out, field) in [
        (SfOperand::A, sa, ida, s.m, &mut sfa, "scale_a"),
        (SfOperand::B, sb, idb, s.n, &mut sfb, "scale_b"),
    ] {
        let sl = match SfLayout::try_new(s.layout, operand, vec, s.n, id) {
            Ok(l) => l,
            Err(e) => {
                rd.problems.push(e.into());
                continue;
            }
        };
        let mut differ = false;
        'sf: for index in 0..extent {
            for blk in 0..blocks {
                let cell = match sl.locate(index, blk) {
                    Ok(c) => c,
                    Err(e) => {
                        rd.problems.push(e.into());
                        break 'sf;
                    }
                };
                let fill = |rr: &mut Random| {
                    let mut w = 0u32;
                    for i in 0..4 {
                        w |= (rr.code(sf_format) & 0xFF) << (8 * i);
                    }
                    w
                };
                let copies = Copies {
                    lanes: cell.lanes(),
                    base: addr,
                    column: cell.column,
                    lo: 8 * cell.byte,
                    width: 8,
                };
                match copies.read(mem, cell.cta, rd.random, fill, field, rd.check_alloc) {
                    Ok((v, d)) => {
                        differ |= d;
                        out[(index * blocks + blk) as usize] = v;
                    }
                    Err(p) => {
                        rd.problems.push(p);
                        break 'sf;
                    }
                }
            }
        }
        if differ {
            rd.warnings.push(Problem::emu(
                EmuRule::CopiesDiffer,
                field,
                u64::from(addr.bits()),
            ));
        }
    }
    (sfa, sfb)
}

/// D's cells, row-major (CTA, lane, column), checked against Tensor Memory's bounds and the
/// allocations.
fn d_cells<M: TensorCoreMemory + ?Sized>(
    mem: &M,
    op: &MmaOperation,
    s: &Setup,
    rd: &mut Reader<'_>,
) -> Result<Vec<(u32, u32, u32)>, EmuError> {
    let mut cells = Vec::with_capacity((s.m * s.n) as usize);
    // D's columns come in parts of `columns()` (one per lane group of the layout); within a
    // part, the lane is that of the part's first column and the column offset is n % columns
    // (PTX ISA 9.7.16.10.5; `DLayout::locate`), so one lookup per row and part.
    let part = s.d_layout.columns().max(1);
    for r in 0..s.m {
        let mut first = (0, 0);
        for col in 0..s.n {
            if col % part == 0 {
                match s.d_layout.locate(r, col) {
                    Ok(cell) => first = (cell.cta, cell.lane),
                    Err(e) => {
                        let mut problems = core::mem::take(&mut rd.problems);
                        problems.push(e.into());
                        return Err(EmuError { problems });
                    }
                }
            }
            let (cta, lane) = first;
            cells.push((cta, op.d.lane() + lane, op.d.column() + col % part));
        }
    }
    for &(cta, lane, column) in &cells {
        let at = u64::from(lane << 16 | column);
        if lane >= super::TMEM_LANES || column >= super::TMEM_COLUMNS {
            rd.problems
                .push(Problem::emu(EmuRule::TmemOutOfRange, "d_tmem", at));
            break;
        }
        if rd.check_alloc && !mem.allocated(cta, column) {
            rd.problems
                .push(Problem::emu(EmuRule::TmemNotAllocated, "d_tmem", at));
            break;
        }
    }
    Ok(cells)
}

/// Stage "C": the old D (M x N codes) when `enable-input-d` is true, scaled by
/// `scale-input-d` (E6); zeros otherwise.
fn read_c<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    s: &Setup,
    cells: &[(u32, u32, u32)],
    rd: &mut Reader<'_>,
) -> Vec<u32> {
    let fd = s.fd;
    let mut c = vec![0u32; (s.m * s.n) as usize];
    if !op.enable_input_d || !rd.problems.is_empty() {
        return c;
    }
    for (i, &(cta, lane, column)) in cells.iter().enumerate() {
        let v = read_cell(
            mem,
            cta,
            lane,
            column,
            rd.random,
            |rr| rr.code(fd),
            "d_tmem",
            rd.check_alloc,
        );
        let v = v.and_then(|v| {
            let code = if fd == Format::F16 { v & 0xFFFF } else { v };
            // scaled_c leaves C unchanged when scale-input-d is 0 (the common case, not called).
            if op.scale_input_d == 0 {
                Ok(code)
            } else {
                scaled_c(fd, code, op.scale_input_d)
            }
        });
        match v {
            Ok(v) => c[i] = v,
            Err(p) => {
                rd.problems.push(p);
                break;
            }
        }
    }
    c
}

/// Stage "sparsity metadata" of `.sp` (E10): the logical K position of every stored element
/// of A, row by row (empty for dense MMAs).
fn read_metadata<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    s: &Setup,
    rd: &mut Reader<'_>,
) -> Vec<u32> {
    let mut gather: Vec<u32> = Vec::new();
    let Some(meta) = op.meta else {
        return gather;
    };
    if !rd.problems.is_empty() {
        return gather;
    }
    let kind = op.kind;
    let ch = sparse::chunk(kind);
    'meta: for row_g in 0..s.m {
        let (c, r) = (row_g / s.per, row_g % s.per);
        for q in 0..s.kb / ch {
            let (lane, col, bit) = sparse::location(kind, r, 4 * q);
            let (lane, col) = (meta.lane() + lane, meta.column() + col);
            let fill = |rr: &mut Random| {
                let mut w = 0u32;
                for i in 0..8 {
                    w |= u32::from(sparse::random_value(kind, rr.bits())) << (4 * i);
                }
                w
            };
            if lane >= super::TMEM_LANES || col >= super::TMEM_COLUMNS {
                rd.problems.push(Problem::emu(
                    EmuRule::TmemOutOfRange,
                    "sp_meta_tmem",
                    u64::from(lane << 16 | col),
                ));
                break 'meta;
            }
            let got = read_cell(
                mem,
                c,
                lane,
                col,
                rd.random,
                fill,
                "sp_meta_tmem",
                rd.check_alloc,
            );
            let v = match got {
                Ok(v) => (v >> bit & 0xF) as u8,
                Err(p) => {
                    rd.problems.push(p);
                    break 'meta;
                }
            };
            if !sparse::meaningful(kind, v) {
                rd.problems.push(sparse::bad_value(lane, col, v));
                break 'meta;
            }
            for p in sparse::positions(kind, v) {
                gather.push(q * ch + p);
            }
        }
    }
    gather
}

/// Stage "arithmetic": every element of D through the form's fast path (the same bits as
/// `ParamRow::dot`, each operand code decoded once); a sparse A row by row against the B
/// elements its metadata selects (E10).
fn arithmetic(
    op: &MmaOperation,
    s: &Setup,
    x: &MmaInputs,
    gather: &[u32],
) -> Result<Vec<u32>, EmuError> {
    let numerics_error = |e: crate::numerics::NumericsError| EmuError {
        problems: e.problems.iter().map(Problem::from).collect(),
    };
    let fast = s.row.fast();
    let saturate = s.fields.saturate;
    let c: &[u32] = if op.enable_input_d { &x.c } else { &[] };
    if gather.is_empty() {
        let ops = MmaOperands {
            m: s.m as usize,
            n: s.n as usize,
            a: &x.a,
            b: &x.b,
            c,
            sfa: &x.sfa,
            sfb: &x.sfb,
        };
        return fast.mma(&ops, saturate).map_err(numerics_error);
    }
    let (n, k, kb) = (s.n as usize, s.k as usize, s.kb as usize);
    let blocks = s.sfvec.map_or(0, |v| v.count()) as usize;
    let mut out = Vec::with_capacity(s.m as usize * n);
    let mut bg = vec![0u32; n * k];
    for r in 0..s.m as usize {
        let g = &gather[r * k..(r + 1) * k];
        for col in 0..n {
            for (i, &pos) in g.iter().enumerate() {
                bg[col * k + i] = x.b[col * kb + pos as usize];
            }
        }
        let ops = MmaOperands {
            m: 1,
            n,
            a: &x.a[r * k..(r + 1) * k],
            b: &bg,
            c: if c.is_empty() {
                &[]
            } else {
                &c[r * n..(r + 1) * n]
            },
            sfa: &x.sfa[r * blocks..(r + 1) * blocks],
            sfb: &x.sfb,
        };
        out.extend(fast.mma(&ops, saturate).map_err(numerics_error)?);
    }
    Ok(out)
}

/// A as the MMA's logical M x K for the record and the exact reference: +0 where the
/// metadata puts no stored element.
fn a_logical(s: &Setup, a: Vec<u32>, gather: &[u32]) -> Vec<u32> {
    if gather.is_empty() {
        return a;
    }
    let (k, kb) = (s.k as usize, s.kb as usize);
    let mut full = vec![0u32; s.m as usize * kb];
    for r in 0..s.m as usize {
        for i in 0..k {
            full[r * kb + gather[r * k + i] as usize] = a[r * k + i];
        }
    }
    full
}

/// Stage "write D": every cell but those of the lanes `disable-output-lane` disables. Returns
/// the disabled lanes per CTA and the cells written.
fn write_d<M: TensorCoreMemory + ?Sized>(
    mem: &mut M,
    op: &MmaOperation,
    cells: &[(u32, u32, u32)],
    values: &[u32],
) -> Result<([u128; 2], u32), EmuError> {
    let mut disabled = [0u128; 2];
    if let Some(words) = &op.disable {
        for (i, w) in words.iter().enumerate() {
            let cta = i / 4;
            if cta < 2 {
                disabled[cta] |= u128::from(*w) << ((i % 4) * 32);
            }
        }
    }
    let mut written = 0u32;
    for (&(cta, lane, column), &v) in cells.iter().zip(values) {
        if disabled[cta as usize] >> lane & 1 == 1 {
            continue;
        }
        mem.write_tmem(cta, lane, column, v)?;
        written += 1;
    }
    Ok((disabled, written))
}
