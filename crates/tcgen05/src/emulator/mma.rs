//! `tcgen05.mma`: operands fetched through their descriptors and Tensor Memory addresses, D
//! computed by the form's measured arithmetic and written per data-path layout (PTX ISA
//! 9.7.16.10).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::problem::{EmuError, EmuRule, Problem};
use super::random::Random;
use super::sparse;
use super::state::{CollectorBuffer, Cta};
use super::Machine;
use crate::canonical_layout::{
    ElementLocation, ElementStorage, MatrixLayout, Operand as LayoutOperand,
};
use crate::check::{collector_of, scale_vec_of};
use crate::data_path::{a_cell, DLayout, DataPathLayout, ScaleVec as SfVec, SfLayout, SfOperand};
use crate::instruction_descriptor::{IdescFields, InstructionDescriptor};
use crate::mma::{CtaGroup, ElementType, Kind, Major, ScaleType};
use crate::numerics::fast::MmaOperands;
use crate::numerics::packing::{pack_container, unpack_container};
use crate::numerics::params::{Arch, Form, Instruction as NumInstruction, ParamRow};
use crate::numerics::Format;
use crate::ptx::{Collector, CollectorOp, ScaleVec};
use crate::ptx_reader::{Instruction, Operand};
use crate::shared_memory_descriptor::SmemDescriptor;
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

/// The parsed form of one `tcgen05.mma` line.
struct MmaLine {
    group: CtaGroup,
    kind: Kind,
    ws: bool,
    vec: ScaleVec,
    collector: Option<Collector>,
    d: TmemAddress,
    a: ASrc,
    b: u64,
    idesc: u32,
    scales: Option<(TmemAddress, TmemAddress)>,
    disable: Option<Vec<u32>>,
    enable_input_d: bool,
    scale_input_d: u32,
    zmask: Option<u64>,
    /// The sparsity metadata address of `.sp`.
    meta: Option<TmemAddress>,
    /// `.ashift` (E11).
    ashift: bool,
}

enum ASrc {
    Smem(u64),
    Tmem(TmemAddress),
}

fn operand_error(field: &'static str, value: u64) -> Problem {
    Problem::emu(EmuRule::Operands, field, value)
}

fn tmem_address(op: Option<&Operand<'_>>, field: &'static str) -> Result<TmemAddress, Problem> {
    match op {
        Some(Operand::Address { base: None, offset }) => {
            let raw = u32::try_from(*offset).map_err(|_| operand_error(field, *offset as u64))?;
            TmemAddress::from_bits(raw).map_err(Problem::from)
        }
        _ => Err(operand_error(field, 0)),
    }
}

fn immediate(op: Option<&Operand<'_>>, field: &'static str) -> Result<u64, Problem> {
    match op {
        Some(Operand::Imm(v)) => Ok(*v),
        _ => Err(operand_error(field, 0)),
    }
}

fn parse(ins: &Instruction<'_>) -> Result<MmaLine, EmuError> {
    let mut problems = Vec::new();
    let (mut group, mut kind) = (CtaGroup::One, Kind::F16);
    let (mut ws, mut sp, mut block_scale, mut ashift) = (false, false, false, false);
    let mut vec = ScaleVec::Default;
    let mut collector = None;
    for q in ins.qualifiers().skip(1) {
        match q {
            "cta_group::1" => group = CtaGroup::One,
            "cta_group::2" => group = CtaGroup::Two,
            "ws" => ws = true,
            "sp" => sp = true,
            "block_scale" => block_scale = true,
            "ashift" => ashift = true,
            _ => {
                if let Some(k) = q.strip_prefix("kind::").and_then(Kind::from_name) {
                    kind = k;
                } else if let Some(v) = scale_vec_of(q) {
                    vec = v;
                } else if let Some(c) = collector_of(q) {
                    collector = Some(c);
                }
                // Anything else was refused by the form check.
            }
        }
    }
    if !problems.is_empty() {
        return Err(EmuError { problems });
    }
    let ops = &ins.operands;
    let mut i = 0;
    let take = |i: &mut usize, n: usize| {
        let r = *i;
        *i += n;
        r
    };
    let d = tmem_address(ops.get(take(&mut i, 1)), "d_tmem");
    let a = match ops.get(take(&mut i, 1)) {
        Some(o @ Operand::Address { .. }) => tmem_address(Some(o), "a_tmem").map(ASrc::Tmem),
        o => immediate(o, "a_desc").map(ASrc::Smem),
    };
    let b = immediate(ops.get(take(&mut i, 1)), "b_desc");
    let meta = if sp {
        match tmem_address(ops.get(take(&mut i, 1)), "sp_meta_tmem") {
            Ok(a) => Some(a),
            Err(p) => {
                problems.push(p);
                None
            }
        }
    } else {
        None
    };
    let idesc = immediate(ops.get(take(&mut i, 1)), "idesc");
    let scales = if block_scale {
        let sa = tmem_address(ops.get(take(&mut i, 1)), "scale_a");
        let sb = tmem_address(ops.get(take(&mut i, 1)), "scale_b");
        Some((sa, sb))
    } else {
        None
    };
    let mut disable = None;
    if let Some(Operand::Vector(v)) = ops.get(i) {
        take(&mut i, 1);
        let mut words = Vec::new();
        for o in v {
            match o {
                Operand::Imm(x) => words.push(*x as u32),
                _ => problems.push(operand_error("disable_output_lane", 0)),
            }
        }
        disable = Some(words);
    }
    let enable = immediate(ops.get(take(&mut i, 1)), "enable_input_d");
    let last = ops.get(take(&mut i, 1));
    let mut zmask = None;
    let mut scale_input_d = 0;
    if let Some(o) = last {
        let v = immediate(
            Some(o),
            if ws {
                "zero_column_mask"
            } else {
                "scale_input_d"
            },
        );
        match v {
            Ok(v) if ws => zmask = Some(v),
            // The form check bounds it to 0-15 (f16 and tf32 kinds only).
            Ok(v) => scale_input_d = v as u32,
            Err(p) => problems.push(p),
        }
    }
    fn ok<T>(problems: &mut Vec<Problem>, r: Result<T, Problem>) -> Option<T> {
        r.map_err(|p| problems.push(p)).ok()
    }
    let d = ok(&mut problems, d);
    let a = ok(&mut problems, a);
    let b = ok(&mut problems, b);
    let idesc = ok(&mut problems, idesc);
    let enable = ok(&mut problems, enable);
    let scales = match scales {
        Some((sa, sb)) => {
            let (sa, sb) = (ok(&mut problems, sa), ok(&mut problems, sb));
            Some(sa.zip(sb))
        }
        None => None,
    };
    match (d, a, b, idesc, enable, scales) {
        (Some(d), Some(a), Some(b), Some(idesc), Some(enable), scales)
            if problems.is_empty() && scales.is_none_or(|s| s.is_some()) =>
        {
            Ok(MmaLine {
                group,
                kind,
                ws,
                vec,
                collector,
                d,
                a,
                b,
                idesc: idesc as u32,
                scales: scales.flatten(),
                disable,
                enable_input_d: enable != 0,
                zmask,
                scale_input_d,
                meta,
                ashift,
            })
        }
        _ => Err(EmuError { problems }),
    }
}

/// Reads one element's bits from shared memory, or fills it with a random code of `format`.
fn read_element(
    cta: &mut Cta,
    loc: ElementLocation,
    format: Format,
    random: &mut Option<Random>,
    field: &'static str,
    source: &mut Vec<(u32, u8)>,
    keep_source: bool,
) -> Result<u32, Problem> {
    let end_bit = u32::from(loc.bit) + u32::from(loc.bits);
    let nbytes = end_bit.div_ceil(8);
    let mut word: u64 = 0;
    let mut missing = false;
    for i in 0..nbytes {
        match cta.smem_get(loc.address + i) {
            Some(Some(b)) => word |= u64::from(b) << (8 * i),
            Some(None) => missing = true,
            None => {
                return Err(Problem::emu(
                    EmuRule::SmemOutOfRange,
                    "address",
                    u64::from(loc.address + i),
                ))
            }
        }
    }
    let mask = (1u64 << loc.bits) - 1;
    if missing {
        let Some(r) = random.as_mut() else {
            return Err(Problem::emu(
                EmuRule::SmemUninitialised,
                field,
                u64::from(loc.address),
            ));
        };
        let code = u64::from(r.code(format)) & mask;
        word = (word & !(mask << loc.bit)) | (code << loc.bit);
        let bytes = word.to_le_bytes();
        cta.write_smem(loc.address, &bytes[..nbytes as usize])
            .map_err(|e| e.problems[0])?;
    }
    if keep_source {
        for i in 0..nbytes {
            source.push((loc.address + i, (word >> (8 * i)) as u8));
        }
    }
    Ok(((word >> loc.bit) & mask) as u32)
}

/// Reads a Tensor Memory cell, or fills it with `fill()` when random inputs are on.
fn read_cell(
    cta: &mut Cta,
    lane: u32,
    column: u32,
    random: &mut Option<Random>,
    fill: impl Fn(&mut Random) -> u32,
    field: &'static str,
    check_alloc: bool,
) -> Result<u32, Problem> {
    if check_alloc && column < super::TMEM_COLUMNS && !cta.allocated(column) {
        return Err(Problem::emu(
            EmuRule::TmemNotAllocated,
            field,
            u64::from(lane << 16 | column),
        ));
    }
    match cta.tmem_cell(lane, column)? {
        Some(v) => Ok(v),
        None => match random.as_mut() {
            Some(r) => {
                let v = fill(r);
                cta.write_tmem(lane, column, v)?;
                Ok(v)
            }
            None => Err(Problem::emu(
                EmuRule::TmemUninitialised,
                field,
                u64::from(lane << 16 | column),
            )),
        },
    }
}

/// The copies of one value in Tensor Memory (A of layouts B, E, G; scale factors in every
/// 32-lane subpartition): the lanes, the cell's column and the value's bits.
struct Copies<'l> {
    lanes: &'l [u32],
    base: TmemAddress,
    column: u32,
    lo: u32,
    width: u32,
}

impl Copies<'_> {
    /// The first copy's value, and whether another copy differs from it.
    fn read(
        &self,
        cta: &mut Cta,
        random: &mut Option<Random>,
        fill: impl Fn(&mut Random) -> u32,
        field: &'static str,
        check_alloc: bool,
    ) -> Result<(u32, bool), Problem> {
        let mask = ((1u64 << self.width) - 1) as u32;
        let mut first = None;
        let mut differ = false;
        for &lane_off in self.lanes {
            let lane = self.base.lane() + lane_off;
            let column = self.base.column() + self.column;
            let v = read_cell(cta, lane, column, random, &fill, field, check_alloc)?;
            let code = (v >> self.lo) & mask;
            match first {
                None => first = Some(code),
                Some(f) if f != code => differ = true,
                _ => {}
            }
        }
        Ok((first.unwrap_or(0), differ))
    }
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

/// Runs one `tcgen05.mma` line on the machine.
pub(super) fn execute(
    machine: &mut Machine,
    ins: &Instruction<'_>,
    warnings: &mut Vec<Problem>,
) -> Result<String, EmuError> {
    let line = parse(ins)?;
    let fields: IdescFields = InstructionDescriptor::from_bits(line.idesc, line.kind)
        .ok()
        .and_then(InstructionDescriptor::fields)
        .ok_or_else(|| EmuError::one(operand_error("idesc", u64::from(line.idesc))))?;
    if fields.k96 {
        return Err(Problem::emu(EmuRule::NotModelled, "k96", 1).into());
    }
    let target = machine.target;
    let kind = line.kind;
    let (m, n) = (u32::from(fields.m), u32::from(fields.n));
    let layout = DataPathLayout::for_mma(m, line.group, line.ws, line.meta.is_some())
        .map_err(Problem::from)?;
    let d_layout = DLayout::with_layout(layout, n).map_err(Problem::from)?;
    // D's lane, and A's in Tensor Memory, is the layout's lane alignment: 0, or 0 or 16 for
    // the half-datapath layouts (M = 64; PTX ISA 9.7.16.10.5).
    let mut lanes = vec![("d_tmem", layout.check_address(line.d))];
    if let ASrc::Tmem(a) = line.a {
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
    let k = u32::from(kind.dense_k());
    let kb = if line.meta.is_some() { 2 * k } else { k };
    if line.meta.is_some() {
        sparse::supported(kind, m, line.group, &fields)?;
    }
    let sfvec = kind.is_block_scaled().then(|| sf_vec(kind, line.vec));
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
    let ctas = layout.ctas();
    let per = layout.rows_per_cta();
    let n_per = n / ctas;
    let check_alloc = machine.check_allocation;
    // Work on copies: the instruction changes nothing unless it completes.
    let mut work: Vec<Cta> = machine.ctas[..ctas as usize].to_vec();
    let mut random = machine.random.clone();
    let mut problems: Vec<Problem> = Vec::new();

    // A: M x K codes.
    let mut a = vec![0u32; (m * k) as usize];
    let a_storage = ElementStorage::of(fields.a_type, Some(kind)).map_err(Problem::from)?;
    let a_collector = match line.collector {
        Some(Collector::A(op)) => Some(op),
        _ => None,
    };
    let keep_a = a_collector == Some(CollectorOp::Fill);
    for c in 0..ctas {
        let cta = &mut work[c as usize];
        let mut source = Vec::new();
        let from_buffer = matches!(a_collector, Some(CollectorOp::Use | CollectorOp::Lastuse));
        if from_buffer {
            let Some(buf) = cta.collectors.get("a").cloned() else {
                problems.push(Problem::emu(
                    EmuRule::CollectorEmpty,
                    "collector::a",
                    u64::from(c),
                ));
                continue;
            };
            if buf.codes.len() == (per * k) as usize {
                a[(c * per * k) as usize..((c + 1) * per * k) as usize].copy_from_slice(&buf.codes);
            }
            if buf
                .source
                .iter()
                .any(|&(addr, byte)| cta.smem_byte(addr).ok().flatten() != Some(byte))
            {
                warnings.push(Problem::emu(
                    EmuRule::CollectorStale,
                    "collector::a",
                    u64::from(c),
                ));
            }
            if a_collector == Some(CollectorOp::Lastuse) {
                cta.collectors.remove("a");
            }
            continue;
        }
        match line.a {
            ASrc::Smem(desc) => {
                let d = match SmemDescriptor::from_bits(desc, target) {
                    Ok(d) => d,
                    Err(e) => {
                        problems.push(e.into());
                        continue;
                    }
                };
                let major = if fields.transpose_a {
                    Major::Mn
                } else {
                    Major::K
                };
                let ml =
                    match MatrixLayout::try_new(d, LayoutOperand::new(a_storage, major, per, k)) {
                        Ok(l) => l,
                        Err(e) => {
                            problems.push(e.into());
                            continue;
                        }
                    };
                'rows: for r in 0..per {
                    for kk in 0..k {
                        let got = ml.address(r, kk).map_err(Problem::from).and_then(|loc| {
                            read_element(cta, loc, fa, &mut random, "a", &mut source, keep_a)
                        });
                        match got {
                            Ok(code) => a[((c * per + r) * k + kk) as usize] = code,
                            Err(p) => {
                                problems.push(p);
                                break 'rows;
                            }
                        }
                    }
                }
            }
            ASrc::Tmem(addr) => {
                let bits = 128 / u32::from(a_storage.per_chunk());
                if line.ashift {
                    // E11: A's rows move one lane up within each 32-lane subpartition before
                    // the MMA reads them; the 256 bits of a row are k * bits / 32 columns.
                    if let Err(p) = ashift(cta, addr, k * bits / 32, check_alloc) {
                        problems.push(p);
                        continue;
                    }
                    if c == 0 {
                        warnings.push(Problem::emu(EmuRule::AshiftReading, "ashift", 1));
                    }
                }
                // A 4- or 6-bit element in an 8-bit container sits in the container's field
                // (E9 of the module docs; PTX ISA 9.7.16.10.4.3).
                let container =
                    bits == 8 && matches!(fa, Format::E2m1 | Format::E2m3 | Format::E3m2);
                let mut differ = false;
                'rows: for r in 0..per {
                    for kk in 0..k {
                        let global = c * per + r;
                        let cell = match a_cell(layout, global, kk, bits) {
                            Ok(x) => x,
                            Err(e) => {
                                problems.push(e.into());
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
                        let first = match copies.read(cta, &mut random, fill, "a_tmem", check_alloc)
                        {
                            Ok((v, d)) => {
                                differ |= d;
                                v
                            }
                            Err(p) => {
                                problems.push(p);
                                break 'rows;
                            }
                        };
                        let first = if container {
                            match unpack_container(fa, first as u8) {
                                Ok(c) => c,
                                Err(_) => {
                                    problems.push(Problem::emu(
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
                    warnings.push(Problem::emu(
                        EmuRule::CopiesDiffer,
                        "a_tmem",
                        u64::from(addr.bits()),
                    ));
                }
            }
        }
        if a_collector == Some(CollectorOp::Fill) {
            cta.collectors.insert(
                "a",
                CollectorBuffer {
                    codes: a[(c * per * k) as usize..((c + 1) * per * k) as usize].to_vec(),
                    source,
                },
            );
        } else if a_collector == Some(CollectorOp::Discard) || a_collector.is_none() {
            cta.collectors.remove("a");
        }
    }

    // The `.ws` column shift: the MMA's column j is B's column s + j (rules.md R22).
    let b_shift = line.zmask.map_or(0, |z| {
        u32::from(ZeroColumnMask::from_bits_unchecked(z).fields().column_shift)
    });
    // B: N x K codes, N/ctas columns from each CTA.
    let mut b = vec![0u32; (n * kb) as usize];
    let b_storage = ElementStorage::of(fields.b_type, Some(kind)).map_err(Problem::from)?;
    let b_collector = match line.collector {
        Some(Collector::B(i, op)) => Some((["b0", "b1", "b2", "b3"][usize::from(i & 3)], op)),
        _ => None,
    };
    let keep_b = matches!(b_collector, Some((_, CollectorOp::Fill)));
    for c in 0..ctas {
        let cta = &mut work[c as usize];
        let mut source = Vec::new();
        if let Some((name, CollectorOp::Use | CollectorOp::Lastuse)) = b_collector {
            match cta.collectors.get(name).cloned() {
                Some(buf) => {
                    if buf.codes.len() == (n_per * kb) as usize {
                        b[(c * n_per * kb) as usize..((c + 1) * n_per * kb) as usize]
                            .copy_from_slice(&buf.codes);
                    }
                    if buf
                        .source
                        .iter()
                        .any(|&(addr, byte)| cta.smem_byte(addr).ok().flatten() != Some(byte))
                    {
                        warnings.push(Problem::emu(
                            EmuRule::CollectorStale,
                            "collector::b",
                            u64::from(c),
                        ));
                    }
                    if matches!(b_collector, Some((_, CollectorOp::Lastuse))) {
                        cta.collectors.remove(name);
                    }
                }
                None => problems.push(Problem::emu(
                    EmuRule::CollectorEmpty,
                    "collector::b",
                    u64::from(c),
                )),
            }
            continue;
        }
        let d = match SmemDescriptor::from_bits(line.b, target) {
            Ok(d) => d,
            Err(e) => {
                problems.push(e.into());
                continue;
            }
        };
        let major = if fields.transpose_b {
            Major::Mn
        } else {
            Major::K
        };
        let extent = n_per + b_shift.div_ceil(8) * 8;
        let ml = match MatrixLayout::try_new(d, LayoutOperand::new(b_storage, major, extent, kb)) {
            Ok(l) => l,
            Err(e) => {
                problems.push(e.into());
                continue;
            }
        };
        'cols: for col in 0..n_per {
            for kk in 0..kb {
                let got = ml
                    .address(col + b_shift, kk)
                    .map_err(Problem::from)
                    .and_then(|loc| {
                        read_element(cta, loc, fb, &mut random, "b", &mut source, keep_b)
                    });
                match got {
                    Ok(code) => b[((c * n_per + col) * kb + kk) as usize] = code,
                    Err(p) => {
                        problems.push(p);
                        break 'cols;
                    }
                }
            }
        }
        if let Some((name, op)) = b_collector {
            if op == CollectorOp::Fill {
                cta.collectors.insert(
                    name,
                    CollectorBuffer {
                        codes: b[(c * n_per * kb) as usize..((c + 1) * n_per * kb) as usize]
                            .to_vec(),
                        source,
                    },
                );
            } else {
                cta.collectors.remove(name);
            }
        }
    }

    // Zero columns of `.ws` (E4).
    if let Some(z) = line.zmask {
        match ZeroColumnMask::from_bits(z).and_then(|zm| zm.column_mask(m as u16, n as u16)) {
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

    // Negation (E5).
    if fields.negate_a {
        a.iter_mut().for_each(|x| *x = negate(fa, *x));
    }
    if fields.negate_b {
        b.iter_mut().for_each(|x| *x = negate(fb, *x));
    }

    // Scale factors.
    let blocks = sfvec.map_or(0, |v| v.count());
    let mut sfa = vec![0u32; (m * blocks) as usize];
    let mut sfb = vec![0u32; (n * blocks) as usize];
    if let (Some(vec), Some((sa, sb))) = (sfvec, line.scales) {
        let sf_format = form.scale.unwrap_or(Format::Ue8m0);
        for (operand, addr, id, extent, out, field) in [
            (
                SfOperand::A,
                sa,
                u32::from(fields.sfa_id),
                m,
                &mut sfa,
                "scale_a",
            ),
            (
                SfOperand::B,
                sb,
                u32::from(fields.sfb_id),
                n,
                &mut sfb,
                "scale_b",
            ),
        ] {
            let sl = match SfLayout::try_new(layout, operand, vec, n, id) {
                Ok(l) => l,
                Err(e) => {
                    problems.push(e.into());
                    continue;
                }
            };
            let mut differ = false;
            'sf: for index in 0..extent {
                for blk in 0..blocks {
                    let cell = match sl.locate(index, blk) {
                        Ok(c) => c,
                        Err(e) => {
                            problems.push(e.into());
                            break 'sf;
                        }
                    };
                    let cta = &mut work[cell.cta as usize];
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
                    let first = match copies.read(cta, &mut random, fill, field, check_alloc) {
                        Ok((v, d)) => {
                            differ |= d;
                            v
                        }
                        Err(p) => {
                            problems.push(p);
                            break 'sf;
                        }
                    };
                    out[(index * blocks + blk) as usize] = first;
                }
            }
            if differ {
                warnings.push(Problem::emu(
                    EmuRule::CopiesDiffer,
                    field,
                    u64::from(addr.bits()),
                ));
            }
        }
    }

    // C from the old D.
    let d_bits = if fd == Format::F16 { 16 } else { 32 };
    let mut cmat = vec![0u32; (m * n) as usize];
    let mut d_cells = Vec::with_capacity((m * n) as usize);
    // D's columns come in parts of `columns()` (one per lane group of the layout); within a
    // part, the lane is that of the part's first column and the column offset is n % columns
    // (PTX ISA 9.7.16.10.5; `DLayout::locate`), so one lookup per row and part.
    let part = d_layout.columns().max(1);
    for r in 0..m {
        let mut first = (0, 0);
        for col in 0..n {
            if col % part == 0 {
                match d_layout.locate(r, col) {
                    Ok(cell) => first = (cell.cta, cell.lane),
                    Err(e) => {
                        problems.push(e.into());
                        return Err(EmuError { problems });
                    }
                }
            }
            let (cta, lane) = first;
            d_cells.push((cta, line.d.lane() + lane, line.d.column() + col % part));
        }
    }
    for &(cta, lane, column) in &d_cells {
        if lane >= super::TMEM_LANES || column >= super::TMEM_COLUMNS {
            problems.push(Problem::emu(
                EmuRule::TmemOutOfRange,
                "d_tmem",
                u64::from(lane << 16 | column),
            ));
            break;
        }
        if check_alloc && !work[cta as usize].allocated(column) {
            problems.push(Problem::emu(
                EmuRule::TmemNotAllocated,
                "d_tmem",
                u64::from(lane << 16 | column),
            ));
            break;
        }
    }
    if line.enable_input_d && problems.is_empty() {
        for (i, &(cta, lane, column)) in d_cells.iter().enumerate() {
            let v = read_cell(
                &mut work[cta as usize],
                lane,
                column,
                &mut random,
                |rr| rr.code(fd),
                "d_tmem",
                check_alloc,
            );
            let v = v.and_then(|v| {
                let c = if d_bits == 16 { v & 0xFFFF } else { v };
                scaled_c(fd, c, line.scale_input_d)
            });
            match v {
                Ok(v) => cmat[i] = v,
                Err(p) => {
                    problems.push(p);
                    break;
                }
            }
        }
    }
    // `.sp`: the logical K position of every stored element of A, from the metadata (E10).
    let mut gather: Vec<u32> = Vec::new();
    if let (Some(meta), true) = (line.meta, problems.is_empty()) {
        let ch = sparse::chunk(kind);
        'meta: for row_g in 0..m {
            let (c, r) = (row_g / per, row_g % per);
            for q in 0..kb / ch {
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
                    problems.push(Problem::emu(
                        EmuRule::TmemOutOfRange,
                        "sp_meta_tmem",
                        u64::from(lane << 16 | col),
                    ));
                    break 'meta;
                }
                let v = match read_cell(
                    &mut work[c as usize],
                    lane,
                    col,
                    &mut random,
                    fill,
                    "sp_meta_tmem",
                    check_alloc,
                ) {
                    Ok(v) => (v >> bit & 0xF) as u8,
                    Err(p) => {
                        problems.push(p);
                        break 'meta;
                    }
                };
                if !sparse::meaningful(kind, v) {
                    problems.push(sparse::bad_value(lane, col, v));
                    break 'meta;
                }
                for p in sparse::positions(kind, v) {
                    gather.push(q * ch + p);
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(EmuError { problems });
    }

    // The arithmetic: every element of D through the form's fast path (the same bits as
    // `ParamRow::dot`, each operand code decoded once).
    let numerics_error = |e: crate::numerics::NumericsError| EmuError {
        problems: e.problems.iter().map(Problem::from).collect(),
    };
    let dvals = if gather.is_empty() {
        let ops = MmaOperands {
            m: m as usize,
            n: n as usize,
            a: &a,
            b: &b,
            c: if line.enable_input_d { &cmat } else { &[] },
            sfa: &sfa,
            sfb: &sfb,
        };
        row.fast()
            .mma(&ops, fields.saturate)
            .map_err(numerics_error)?
    } else {
        // Row by row: the stored elements of row r against the B elements its metadata
        // selects (E10).
        let mut out = Vec::with_capacity((m * n) as usize);
        let mut bg = vec![0u32; (n * k) as usize];
        for r in 0..m as usize {
            let g = &gather[r * k as usize..(r + 1) * k as usize];
            for col in 0..n as usize {
                for (s, &pos) in g.iter().enumerate() {
                    bg[col * k as usize + s] = b[col * kb as usize + pos as usize];
                }
            }
            let nn = n as usize;
            let ops = MmaOperands {
                m: 1,
                n: nn,
                a: &a[r * k as usize..(r + 1) * k as usize],
                b: &bg,
                c: if line.enable_input_d {
                    &cmat[r * nn..(r + 1) * nn]
                } else {
                    &[]
                },
                sfa: &sfa[r * blocks as usize..(r + 1) * blocks as usize],
                sfb: &sfb,
            };
            out.extend(
                row.fast()
                    .mma(&ops, fields.saturate)
                    .map_err(numerics_error)?,
            );
        }
        out
    };
    // For the record and the exact reference: A as the MMA's logical M x K, +0 where the
    // metadata puts no stored element.
    let a_logical = if gather.is_empty() {
        a
    } else {
        let mut full = vec![0u32; (m * kb) as usize];
        for r in 0..m as usize {
            for s in 0..k as usize {
                let i = r * k as usize + s;
                full[r * kb as usize + gather[i] as usize] = a[i];
            }
        }
        full
    };

    // Write D, except the disabled lanes.
    let mut disabled = [0u128; 2];
    if let Some(words) = &line.disable {
        for (i, w) in words.iter().enumerate() {
            let cta = i / 4;
            let base = (i % 4) * 32;
            if cta < 2 {
                disabled[cta] |= u128::from(*w) << base;
            }
        }
    }
    let mut written = 0u32;
    for (i, &(cta, lane, column)) in d_cells.iter().enumerate() {
        if disabled[cta as usize] >> lane & 1 == 1 {
            continue;
        }
        work[cta as usize].write_tmem(lane, column, dvals[i])?;
        written += 1;
    }
    for (dst, src) in machine.ctas.iter_mut().zip(work) {
        *dst = src;
    }
    machine.random = random;
    machine.last_mma = Some(MmaRecord {
        d_address: line.d,
        layout: d_layout,
        d_type: fields.d_type,
        ab_types: (fields.a_type, fields.b_type),
        kind,
        k: kb,
        inputs: MmaInputs {
            a: a_logical,
            b,
            c: cmat,
            sfa,
            sfb,
            scale_format: form
                .scale
                .or(kind.is_block_scaled().then_some(Format::Ue8m0)),
        },
        disabled,
    });
    Ok(format!(
        "D {}x{}x{} {} += {} x {}{}, layout {} at lane {} column {}, {} cells written in {} CTA(s)",
        m,
        n,
        kb,
        fields.d_type.name(),
        fields.a_type.name(),
        fields.b_type.name(),
        if gather.is_empty() {
            ""
        } else {
            " (sparse A, metadata read)"
        },
        layout.letter(),
        line.d.lane(),
        line.d.column(),
        written,
        ctas
    ))
}

/// `.ashift` on one CTA's Tensor Memory (E11): for each 32-lane subpartition of the 128 lanes
/// from A's address, lane `32q + i` takes the cells of lane `32q + i + 1` (i = 0..30) in A's
/// `columns` columns, and lane `32q + 31` keeps its cells. A never-written source cell leaves
/// its destination never written.
fn ashift(
    cta: &mut Cta,
    addr: TmemAddress,
    columns: u32,
    check_alloc: bool,
) -> Result<(), Problem> {
    let (l0, c0) = (addr.lane(), addr.column());
    if l0 + 128 > super::TMEM_LANES || c0 + columns > super::TMEM_COLUMNS {
        return Err(Problem::emu(
            EmuRule::TmemOutOfRange,
            "a_tmem",
            u64::from(addr.bits()),
        ));
    }
    if check_alloc && (c0..c0 + columns).any(|c| !cta.allocated(c)) {
        return Err(Problem::emu(
            EmuRule::TmemNotAllocated,
            "a_tmem",
            u64::from(addr.bits()),
        ));
    }
    for q in 0..4 {
        for i in 0..31 {
            let (dst, src) = (l0 + 32 * q + i, l0 + 32 * q + i + 1);
            for col in c0..c0 + columns {
                cta.copy_tmem((src, col), (dst, col))?;
            }
        }
    }
    Ok(())
}

/// `C * 2^-scale_input_d` (PTX ISA 9.7.16.10: D = A*B + D * 2^-s) when it is exactly a code of
/// D's format, so that the arithmetic sees the scaled C unchanged (E6 of the module docs); a
/// scaled C that would need rounding is refused, since how the hardware rounds it is unmeasured.
fn scaled_c(fd: Format, c: u32, s: u32) -> Result<u32, Problem> {
    use crate::numerics::format::{Exact, Rounding, Value};
    if s == 0 {
        return Ok(c);
    }
    let refused = || {
        Problem::emu(
            EmuRule::NotModelled,
            "scale_input_d (inexact scaled C)",
            u64::from(c),
        )
    };
    match fd.decode(c).map_err(|_| refused())? {
        Value::Zero { .. } | Value::Inf { .. } | Value::NaN => Ok(c),
        v => {
            let mut x = Exact::of(v).ok_or_else(refused)?;
            x.scale -= s as i32;
            let down = fd.encode(x, Rounding::TowardZero).map_err(|_| refused())?;
            let back = fd
                .decode(down)
                .ok()
                .and_then(Exact::of)
                .ok_or_else(refused)?;
            // Exact when the code decodes to the scaled value itself.
            let norm = |e: Exact| {
                let tz = if e.mag == 0 {
                    0
                } else {
                    e.mag.trailing_zeros()
                };
                (e.neg, e.mag >> tz, e.scale + tz as i32)
            };
            let same = norm(back) == norm(x);
            if same {
                Ok(down)
            } else {
                Err(refused())
            }
        }
    }
}
