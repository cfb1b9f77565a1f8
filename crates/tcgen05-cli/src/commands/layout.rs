//! `layout`: the shared-memory layout model of the core crate's `canonical_layout` and
//! `tensor_copy` modules: descriptors from intent (`layout desc`), addresses from a descriptor
//! (`layout addr`), and whether an MMA reads what a tensor copy wrote (`layout tma`).
//! `--svg FILE` draws the operand as it sits in shared memory.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use tcgen05::canonical_layout::{
    ElementLocation, ElementStorage, LayoutError, MatrixLayout, Operand, TileLayout, CHUNK_BYTES,
};
use tcgen05::diagnostic::{Diagnostic, Severity, Source};
use tcgen05::mma::Major;
use tcgen05::shared_memory_descriptor::SmemDescriptor;
use tcgen05::tensor_copy::{agreement, Agreement, TensorCopyBox};
use tcgen05_svg::{layout_chunks, svg_smem, tile_chunks, SmemPicture};

use super::problem::{narrow, CliError};
use crate::args::layout::{AddrArgs, DescArgs, Layout, OperandArgs, TmaArgs};
use crate::args::value::TargetArg;
use crate::render::svg::write_svg;
use crate::render::{problem_json, Ctx, Obj, Report, Status};

/// Runs a `layout` subcommand. In JSON mode a command stopped by problems still prints one
/// object: its result key empty, and the problems as `errors` / `warnings`.
pub fn run(ctx: Ctx, l: &Layout) -> Result<Report, fmt::Error> {
    let mut js = Vec::new();
    let (mut rep, key, empty) = match l {
        Layout::Desc(a) => (desc(ctx, a, &mut js)?, key!("descriptors"), "[]"),
        Layout::Addr(a) => (addr(ctx, a, &mut js)?, key!("addresses"), "[]"),
        Layout::Tma(a) => (tma(ctx, a, &mut js)?, key!("agree"), "null"),
        Layout::Sf(sf) => return super::layout_sf::run(ctx, sf),
    };
    if ctx.json && rep.out.is_empty() && !js.is_empty() {
        let mut o = Obj::open(&mut rep.out);
        o.raw(key, empty)?;
        for (k, sev) in [
            (key!("errors"), Severity::Error),
            (key!("warnings"), Severity::Warning),
        ] {
            let items: Vec<&str> = js
                .iter()
                .filter(|p| p.0 == sev)
                .map(|p| p.1.as_str())
                .collect();
            o.raw(k, &format!("[{}]", items.join(",")))?;
        }
        o.close();
        rep.out.push('\n');
    }
    Ok(rep)
}

/// Problems as JSON objects, kept for the JSON object of a stopped command.
type JsonProblems = Vec<(Severity, String)>;

/// Records problems: stderr lines and exit status in `rep`, JSON objects in `js`.
fn note<D: Diagnostic>(
    rep: &mut Report,
    js: &mut JsonProblems,
    items: &[D],
    style: crate::render::Style,
) -> fmt::Result {
    for d in items {
        let mut buf = String::new();
        problem_json(&mut buf, d)?;
        js.push((d.severity(), buf));
    }
    rep.problems(items, style)
}

/// The target, or the problem with it.
fn target_of(
    t: TargetArg,
    rep: &mut Report,
    js: &mut JsonProblems,
    style: crate::render::Style,
) -> Result<Option<tcgen05::Target>, fmt::Error> {
    match t.0 {
        Ok(t) => Ok(Some(t)),
        Err(e) => {
            note(rep, js, &[e], style)?;
            Ok(None)
        }
    }
}

/// Narrows an extent or address flag to 32 bits.
fn u32_arg(field: &'static str, v: u64, cli: &mut Vec<CliError>) -> u32 {
    narrow::<u32>(
        field,
        v,
        u64::from(u32::MAX),
        u64::from(u32::MAX),
        Source::PtxSection("9.7.16.3.3"),
    )
    .unwrap_or_else(|e| {
        cli.push(e);
        0
    })
}

/// The operand's storage and extents, or the problems with them.
fn operand_of(
    a: &OperandArgs,
    rep: &mut Report,
    js: &mut JsonProblems,
    style: crate::render::Style,
) -> Result<Option<(ElementStorage, u32, u32)>, fmt::Error> {
    let mut cli = Vec::new();
    let mn = u32_arg("mn", a.mn, &mut cli);
    let k = u32_arg("k", a.k, &mut cli);
    note(rep, js, &cli, style)?;
    let storage = match ElementStorage::of(a.element, a.kind) {
        Ok(s) => Some(s),
        Err(e) => {
            note(rep, js, &[e], style)?;
            None
        }
    };
    Ok(match storage {
        Some(s) if cli.is_empty() => Some((s, mn, k)),
        _ => None,
    })
}

fn major_name(m: Major) -> &'static str {
    match m {
        Major::K => "K-major",
        Major::Mn => "MN-major",
    }
}

fn row_letter(a: &OperandArgs) -> char {
    if a.operand == 'b' {
        'n'
    } else {
        'm'
    }
}

/// `layout desc`.
fn desc(ctx: Ctx, a: &DescArgs, js: &mut JsonProblems) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(target) = target_of(a.target, &mut rep, js, ctx.err)? else {
        return Ok(rep);
    };
    let Some((storage, mn, k)) = operand_of(&a.op, &mut rep, js, ctx.err)? else {
        return Ok(rep);
    };
    let mut cli = Vec::new();
    let start = u32_arg("start_address", a.start_address, &mut cli);
    let kpb = a
        .k_per_block
        .map(|v| u32_arg("k_per_block", v, &mut cli))
        .unwrap_or_else(|| storage.dense_k());
    if !cli.is_empty() {
        note(&mut rep, js, &cli, ctx.err)?;
        return Ok(rep);
    }
    let tile = TileLayout::new(storage, a.op.major, a.swizzle, mn, k, start)
        .with_order(a.order)
        .with_anchor(a.anchor)
        .with_k_per_block(kpb);
    let problems: Vec<LayoutError> = tile.validate().iter().collect();
    if !problems.is_empty() {
        note(&mut rep, js, &problems, ctx.err)?;
        return Ok(rep);
    }
    let mut descs = Vec::new();
    for kb in 0..tile.k_blocks() {
        match tile.descriptor(kb, target) {
            Ok(d) => descs.push(d),
            Err(e) => {
                note(&mut rep, js, &[e], ctx.err)?;
                return Ok(rep);
            }
        }
    }
    if let Some(path) = &a.svg {
        let title = format!(
            "{} {} {}, {} swizzle, {} x {} at {:#x}, atoms {}",
            a.op.element,
            operand_name(&a.op),
            major_name(a.op.major),
            a.swizzle.name(),
            mn,
            k,
            start,
            a.order.name()
        );
        let svg = svg_smem(&SmemPicture {
            title: &title,
            chunks: &tile_chunks(&tile),
            major: a.op.major,
            storage,
            row: row_letter(&a.op),
            swizzle: a.swizzle,
            flagged: &std::collections::BTreeSet::new(),
        });
        write_svg(&mut rep, ctx.err, path, &svg)?;
        if rep.status == Status::Usage {
            return Ok(rep);
        }
    }
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        let buf = o.key(key!("descriptors"));
        buf.push('[');
        for (kb, d) in descs.iter().enumerate() {
            if kb > 0 {
                buf.push(',');
            }
            let mut e = Obj::open(buf);
            e.num(key!("k_block"), kb as u64)?;
            e.hex(key!("hex"), d.bits(), 16);
            e.close();
        }
        buf.push(']');
        o.close();
        rep.out.push('\n');
        return Ok(rep);
    }
    let st = ctx.out;
    let (am, ak) = tile.atom();
    writeln!(
        rep.out,
        "{}{} {} {}, {} swizzle, {mn} x {k} ({} x K) at {start:#x}{}",
        st.bold(),
        a.op.element,
        operand_name(&a.op),
        major_name(a.op.major),
        a.swizzle.name(),
        row_letter(&a.op).to_ascii_uppercase(),
        st.reset()
    )?;
    writeln!(
        rep.out,
        "  atoms of {am} x {ak} elements ({} bytes), {}; {} K-blocks of K = {kpb} \
         (PTX ISA 9.7.16.3.3; rules.md R3-R7)",
        tile.atom_bytes(),
        a.order.name(),
        descs.len()
    )?;
    writeln!(
        rep.out,
        "  {}k_block  k range     descriptor          start     LBO     SBO     base{}",
        st.dim(),
        st.reset()
    )?;
    for (kb, d) in descs.iter().enumerate() {
        let kb = kb as u32;
        writeln!(
            rep.out,
            "  {:<8} {:<10} {:#018x}  {:<9} {:<7} {:<7} {}",
            kb,
            format!("{}..{}", kb * kpb, (kb + 1) * kpb),
            d.bits(),
            format!("{:#x}", d.start_address()),
            d.leading_byte_offset(),
            d.stride_byte_offset(),
            d.base_offset()
        )?;
    }
    Ok(rep)
}

fn operand_name(a: &OperandArgs) -> &'static str {
    if a.operand == 'b' {
        "B"
    } else {
        "A"
    }
}

/// Decodes the descriptor and builds the layout, or records every problem.
fn layout_of(
    raw: u64,
    op: &OperandArgs,
    target: TargetArg,
    rep: &mut Report,
    js: &mut JsonProblems,
    ctx: Ctx,
) -> Result<Option<MatrixLayout>, fmt::Error> {
    let Some(target) = target_of(target, rep, js, ctx.err)? else {
        return Ok(None);
    };
    let decoded = SmemDescriptor::decode(raw, target);
    let smem: Vec<_> = decoded.diagnostics.iter().collect();
    note(rep, js, &smem, ctx.err)?;
    let operand = operand_of(op, rep, js, ctx.err)?;
    let (Some(d), Some((storage, mn, k))) = (decoded.descriptor(), operand) else {
        return Ok(None);
    };
    let operand = Operand::new(storage, op.major, mn, k);
    let problems: Vec<LayoutError> = MatrixLayout::validate(&d.fields(), &operand)
        .iter()
        .collect();
    if !problems.is_empty() {
        note(rep, js, &problems, ctx.err)?;
        return Ok(None);
    }
    match MatrixLayout::try_new(d, operand) {
        Ok(l) => Ok(Some(l)),
        Err(e) => {
            note(rep, js, &[e], ctx.err)?;
            Ok(None)
        }
    }
}

/// `layout addr --svg`: the operand's 16-byte chunks in shared memory, those with an overlap
/// or a read outside the buffer outlined in red.
fn addr_svg(
    ctx: Ctx,
    a: &AddrArgs,
    layout: &MatrixLayout,
    locs: &[ElementLocation],
    problems: &[LayoutError],
    path: &std::path::Path,
    rep: &mut Report,
) -> fmt::Result {
    let op = layout.operand();
    let f = layout.fields();
    let chunks = layout_chunks(layout, locs);
    // Chunks with an overlap or a read outside the buffer are outlined in red.
    let flagged: std::collections::BTreeSet<u32> = problems
        .iter()
        .filter_map(|p| match *p {
            LayoutError::Overlap { address, .. } | LayoutError::OutsideBuffer { address, .. } => {
                Some(address & !(CHUNK_BYTES - 1))
            }
            _ => None,
        })
        .collect();
    let title = format!(
        "{} {} {}, descriptor {:#018x}: {} swizzle, start {:#x}, LBO {}, SBO {}, base offset {}",
        a.op.element,
        operand_name(&a.op),
        major_name(a.op.major),
        a.desc,
        f.swizzle.name(),
        f.start_address,
        f.leading_byte_offset,
        f.stride_byte_offset,
        f.base_offset
    );
    let svg = svg_smem(&SmemPicture {
        title: &title,
        chunks: &chunks,
        major: a.op.major,
        storage: op.storage,
        row: row_letter(&a.op),
        swizzle: f.swizzle,
        flagged: &flagged,
    });
    write_svg(rep, ctx.err, path, &svg)
}

/// `layout addr --json`: the byte address (and bit, below a byte) of every element, the
/// elements that each `--at` byte holds, and the problems.
fn addr_json(
    rep: &mut Report,
    locs: &[ElementLocation],
    k: u32,
    sub_byte: bool,
    at: &[u32],
    owners: &BTreeMap<u32, Vec<(u32, u32)>>,
    problems: &[LayoutError],
) -> fmt::Result {
    let mut o = Obj::open(&mut rep.out);
    rows_json(o.key(key!("addresses")), locs, k, |l| u64::from(l.address));
    if sub_byte {
        rows_json(o.key(key!("bits")), locs, k, |l| u64::from(l.bit));
    }
    if !at.is_empty() {
        let buf = o.key(key!("at"));
        buf.push('[');
        for (i, b) in at.iter().enumerate() {
            if i > 0 {
                buf.push(',');
            }
            let mut e = Obj::open(buf);
            e.str(key!("address"), format_args!("{b:#x}"))?;
            let list = owners.get(b).cloned().unwrap_or_default();
            let mut s = String::from("[");
            for (j, (mn, k)) in list.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                write!(s, "[{mn},{k}]")?;
            }
            s.push(']');
            e.raw(key!("elements"), &s)?;
            e.close();
        }
        buf.push(']');
    }
    crate::render::problems_json2::<LayoutError, LayoutError>(&mut o, problems, &[])?;
    o.close();
    rep.out.push('\n');
    Ok(())
}

/// `layout addr`.
fn addr(ctx: Ctx, a: &AddrArgs, js: &mut JsonProblems) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(layout) = layout_of(a.desc, &a.op, a.target, &mut rep, js, ctx)? else {
        return Ok(rep);
    };
    let layout = layout.with_reading(a.reading);
    let op = layout.operand();
    let mut cli = Vec::new();
    let buffer = a
        .buffer
        .map(|(s, e)| u32_arg("buffer", s, &mut cli)..u32_arg("buffer", e, &mut cli));
    let at: Vec<u32> = a.at.iter().map(|&b| u32_arg("at", b, &mut cli)).collect();
    if !cli.is_empty() {
        note(&mut rep, js, &cli, ctx.err)?;
        return Ok(rep);
    }
    let locs = match layout.locations() {
        Ok(l) => l,
        Err(e) => {
            note(&mut rep, js, &[e], ctx.err)?;
            return Ok(rep);
        }
    };
    let problems = match layout.check(buffer) {
        Ok(p) => p,
        Err(e @ LayoutError::EmptyBuffer { .. }) => {
            // Nothing can be checked against an empty buffer: report it alone.
            note(&mut rep, js, &[e], ctx.err)?;
            return Ok(rep);
        }
        Err(e) => vec![e],
    };
    // Inverse: byte -> elements, from the map.
    let mut owners: BTreeMap<u32, Vec<(u32, u32)>> = BTreeMap::new();
    for (i, l) in locs.iter().enumerate() {
        let (mn, k) = (i as u32 / op.k, i as u32 % op.k);
        for b in l.address..l.end_address() {
            owners.entry(b).or_default().push((mn, k));
        }
    }
    if let Some(path) = &a.svg {
        addr_svg(ctx, a, &layout, &locs, &problems, path, &mut rep)?;
        if rep.status == Status::Usage {
            return Ok(rep);
        }
    }
    let sub_byte = op.storage.bits() < 8 || op.storage.bits() % 8 != 0;
    if ctx.json {
        addr_json(&mut rep, &locs, op.k, sub_byte, &at, &owners, &problems)?;
    } else {
        let st = ctx.out;
        let f = layout.fields();
        writeln!(
            rep.out,
            "{}{} {} {}, {} x {} ({} x K), read through {:#018x}{}",
            st.bold(),
            a.op.element,
            operand_name(&a.op),
            major_name(a.op.major),
            op.mn,
            op.k,
            row_letter(&a.op).to_ascii_uppercase(),
            a.desc,
            st.reset()
        )?;
        writeln!(
            rep.out,
            "  {} swizzle, start {:#x}, LBO {}, SBO {}, base offset {} ({} reading); \
             {} elements per 16-byte chunk (PTX ISA 9.7.16.3.3)",
            f.swizzle.name(),
            f.start_address,
            f.leading_byte_offset,
            f.stride_byte_offset,
            f.base_offset,
            layout.reading().name(),
            op.storage.per_chunk()
        )?;
        writeln!(
            rep.out,
            "  {}row  byte address of k = 0, 1, 2, ...{}",
            st.dim(),
            st.reset()
        )?;
        for mn in 0..op.mn {
            write!(rep.out, "  {mn:<4}")?;
            for k in 0..op.k {
                let l = locs[(mn * op.k + k) as usize];
                write!(rep.out, " {:#x}", l.address)?;
                if sub_byte {
                    write!(rep.out, ".{}", l.bit)?;
                }
            }
            rep.out.push('\n');
        }
        for b in &at {
            match owners.get(b) {
                Some(list) => {
                    let names: Vec<String> =
                        list.iter().map(|(mn, k)| format!("({mn}, {k})")).collect();
                    writeln!(
                        rep.out,
                        "  byte {b:#x} holds element {}",
                        names.join(" and ")
                    )?;
                }
                None => writeln!(rep.out, "  byte {b:#x} holds no element of the operand")?,
            }
        }
    }
    note(&mut rep, js, &problems, ctx.err)?;
    Ok(rep)
}

fn rows_json(
    buf: &mut String,
    locs: &[ElementLocation],
    k: u32,
    f: impl Fn(&ElementLocation) -> u64,
) {
    buf.push('[');
    for (i, row) in locs.chunks(k as usize).enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push('[');
        for (j, l) in row.iter().enumerate() {
            if j > 0 {
                buf.push(',');
            }
            crate::render::push_dec(buf, f(l));
        }
        buf.push(']');
    }
    buf.push(']');
}

/// The MMA does not read what the copy wrote (a problem of `layout tma`). Its message speaks
/// of tile elements `(mn, k)` only: the MMA's K index `k` is tile K `k_start + k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mismatch {
    mn: u32,
    /// Tile K of the element the MMA reads (`k_start` + the MMA's K index).
    tile_k: u64,
    mma: u32,
    copy: Option<u32>,
    found: Option<(u32, u32)>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the MMA reads tile element ({}, {}) from {:#x}",
            self.mn, self.tile_k, self.mma
        )?;
        match self.copy {
            Some(c) => write!(f, ", but the copy put it at {c:#x}")?,
            None => write!(f, ", but no copy box holds it")?,
        }
        match self.found {
            Some((m, k)) => write!(f, "; the copy put tile element ({m}, {k}) there"),
            None => write!(f, "; the copy wrote nothing there"),
        }
    }
}

impl Diagnostic for Mismatch {
    fn field(&self) -> &'static str {
        "address"
    }
    fn value(&self) -> u64 {
        u64::from(self.mma)
    }
    fn source(&self) -> Source {
        Source::PtxSection("5.5.7")
    }
}

/// `layout tma`.
fn tma(ctx: Ctx, a: &TmaArgs, js: &mut JsonProblems) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(layout) = layout_of(a.desc, &a.op, a.target, &mut rep, js, ctx)? else {
        return Ok(rep);
    };
    let op = layout.operand();
    let mut cli = Vec::new();
    let inner = u32_arg("box_inner", a.box_dims.0, &mut cli);
    let outer = u32_arg("box_outer", a.box_dims.1, &mut cli);
    let k_start = u32_arg("k_start", a.k_start, &mut cli);
    let origins: Vec<(u64, u64)> = match (a.dst.len(), a.box_origin.len()) {
        (_, 0) => vec![(0, 0); a.dst.len()],
        (n, m) if n == m => a.box_origin.clone(),
        (n, m) => {
            writeln!(
                rep.err,
                "error: {m} --box-origin values for {n} --dst values (give one per copy, or none)"
            )?;
            rep.status = Status::Usage;
            return Ok(rep);
        }
    };
    let mut copies = Vec::new();
    for (&dst, &(oi, oo)) in a.dst.iter().zip(&origins) {
        let dst = u32_arg("destination", dst, &mut cli);
        let oi = u32_arg("box_origin", oi, &mut cli);
        let oo = u32_arg("box_origin", oo, &mut cli);
        copies.push(
            TensorCopyBox::with_tma_swizzle(a.swizzle, op.storage, inner, outer, dst)
                .at_origin(oi, oo),
        );
    }
    if !cli.is_empty() {
        note(&mut rep, js, &cli, ctx.err)?;
        return Ok(rep);
    }
    let problems: Vec<_> = copies
        .iter()
        .flat_map(|c| c.validate().iter().collect::<Vec<_>>())
        .collect();
    if !problems.is_empty() {
        note(&mut rep, js, &problems, ctx.err)?;
        return Ok(rep);
    }
    let result = match agreement(&layout, &copies, k_start) {
        Ok(r) => r,
        Err(e) => {
            note(&mut rep, js, &[e], ctx.err)?;
            return Ok(rep);
        }
    };
    let mismatch = match result {
        Agreement::Agree { .. } => None,
        Agreement::Differs {
            mn,
            k,
            mma,
            copy,
            found,
        } => Some(Mismatch {
            mn,
            tile_k: u64::from(k_start) + u64::from(k),
            mma: mma.address,
            copy: copy.map(|c| c.address),
            found,
        }),
    };
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.bool(key!("agree"), mismatch.is_none())?;
        o.bool(
            key!("unproven_on_hardware"),
            a.swizzle.unproven_on_hardware(),
        )?;
        match (result, mismatch) {
            (Agreement::Agree { elements }, _) => o.num(key!("elements"), u64::from(elements))?,
            (Agreement::Differs { k, .. }, Some(m)) => {
                let buf = o.key(key!("first_difference"));
                let mut e = Obj::open(buf);
                e.num(key!("mn"), u64::from(m.mn))?;
                e.num(key!("k"), u64::from(k))?;
                e.num(key!("tile_k"), m.tile_k)?;
                e.str(key!("mma_address"), format_args!("{:#x}", m.mma))?;
                match m.copy {
                    Some(c) => e.str(key!("copy_address"), format_args!("{c:#x}"))?,
                    None => e.raw(key!("copy_address"), "null")?,
                }
                match m.found {
                    Some((fm, fk)) => e.raw(key!("found"), &format!("[{fm},{fk}]"))?,
                    None => e.raw(key!("found"), "null")?,
                }
                e.close();
            }
            _ => {}
        }
        o.close();
        rep.out.push('\n');
    } else {
        match result {
            Agreement::Agree { elements } => writeln!(
                rep.out,
                "agree: the MMA reads each of the {elements} elements of its {} x {} operand \
                 where the {} copies of {inner}x{outer} boxes put them ({} cop{})",
                op.mn,
                op.k,
                a.swizzle.name(),
                copies.len(),
                if copies.len() == 1 { "y" } else { "ies" }
            )?,
            Agreement::Differs { .. } => writeln!(
                rep.out,
                "differ: the MMA does not read what the {} copies of {inner}x{outer} boxes \
                 wrote (first difference on stderr)",
                a.swizzle.name()
            )?,
        }
        if a.swizzle.unproven_on_hardware() {
            writeln!(
                rep.out,
                "note: the {} mode's placement is read from PTX ISA 5.5.7's text (the 32B table \
                 over {}-byte rows); no hardware has confirmed it",
                a.swizzle.name(),
                a.swizzle.span_bytes()
            )?;
        }
    }
    if let Some(m) = mismatch {
        note(&mut rep, js, &[m], ctx.err)?;
    }
    Ok(rep)
}
