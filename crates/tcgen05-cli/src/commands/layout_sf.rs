//! `layout sf`: global scale-factor layouts (the core crate's `scale_factors`) and the chain
//! from the user's scale tensor to the MMA that consumes it (`scale_factor_chain`).

use std::fmt::{self, Write as _};

use tcgen05::scale_factor_chain::{
    chain_reads, check_chain, one_tile_chain, ChainAgreement, SfPath,
};
use tcgen05::scale_factors::{
    validate_scheme, GlobalSfLayout, ScaleFormat, SfArrangement, SfIndex,
};
use tcgen05::tensor_memory::{CpMulticast, CpShape};

use crate::args::layout_sf::{Sf, SfCheckArgs, SfConvertArgs, SfExplainArgs, SfShapeArgs};
use tcgen05_svg::{svg_sf_chain, svg_sf_global};

use crate::render::svg::write_svg;
use crate::render::{problem_json, Ctx, Obj, Report, Status};

/// Runs a `layout sf` subcommand.
pub fn run(ctx: Ctx, sf: &Sf) -> Result<Report, fmt::Error> {
    match sf {
        Sf::Explain(a) => explain(ctx, a),
        Sf::Convert(a) => convert(ctx, a),
        Sf::Check(a) => check(ctx, a),
    }
}

fn usage(rep: &mut Report, msg: fmt::Arguments<'_>) -> fmt::Result {
    writeln!(rep.err, "error: {msg}")?;
    rep.status = Status::Usage;
    Ok(())
}

fn arrangement(
    rep: &mut Report,
    flag: &str,
    name: &str,
) -> Result<Option<SfArrangement>, fmt::Error> {
    let a = SfArrangement::from_name(name);
    if a.is_none() {
        usage(
            rep,
            format_args!(
                "--{flag} {name}: not a layout (blocked, 128x4, k-major, mn-major, blocked-twice)"
            ),
        )?;
    }
    Ok(a)
}

/// Reports a core error as a rule problem (stderr, or the JSON object's `errors`).
fn problem(ctx: Ctx, rep: &mut Report, e: tcgen05::scale_factors::ScaleFactorError) -> fmt::Result {
    if ctx.json {
        let mut p = String::new();
        problem_json(&mut p, &e)?;
        let mut o = Obj::open(&mut rep.out);
        o.raw(key!("sf"), "null")?;
        o.raw(key!("errors"), &format!("[{p}]"))?;
        o.close();
        rep.out.push('\n');
        rep.status = Status::Rule;
        return Ok(());
    }
    rep.problems(&[e], ctx.err)
}

fn u32_of(rep: &mut Report, flag: &str, v: u64) -> Result<Option<u32>, fmt::Error> {
    match u32::try_from(v) {
        Ok(x) => Ok(Some(x)),
        Err(_) => {
            usage(rep, format_args!("--{flag} {v}: more than 32 bits"))?;
            Ok(None)
        }
    }
}

/// The global layout of `shape`, or `None` after reporting why not.
fn layout_of(
    ctx: Ctx,
    rep: &mut Report,
    a: SfArrangement,
    s: &SfShapeArgs,
) -> Result<Option<GlobalSfLayout>, fmt::Error> {
    let Some(format) = ScaleFormat::from_name(&s.format) else {
        usage(
            rep,
            format_args!("--format {}: not a scale format (ue8m0, ue4m3)", s.format),
        )?;
        return Ok(None);
    };
    let (Some(rows), Some(kb), Some(l), Some(vec)) = (
        u32_of(rep, "rows", s.rows)?,
        u32_of(rep, "k-blocks", s.k_blocks)?,
        u32_of(rep, "batches", s.batches)?,
        u32_of(rep, "vec", s.vec)?,
    ) else {
        return Ok(None);
    };
    if let Err(e) = validate_scheme(format, vec) {
        problem(ctx, rep, e)?;
        return Ok(None);
    }
    match GlobalSfLayout::try_new(a, rows, kb, l) {
        Ok(g) => Ok(Some(g)),
        Err(e) => {
            problem(ctx, rep, e)?;
            Ok(None)
        }
    }
}

fn explain(ctx: Ctx, a: &SfExplainArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(arr) = arrangement(&mut rep, "layout", &a.layout)? else {
        return Ok(rep);
    };
    let Some(g) = layout_of(ctx, &mut rep, arr, &a.shape)? else {
        return Ok(rep);
    };
    let mut at = Vec::new();
    for &(r, k) in &a.at {
        let (Some(row), Some(k_block)) = (u32_of(&mut rep, "at", r)?, u32_of(&mut rep, "at", k)?)
        else {
            return Ok(rep);
        };
        match g.offset(SfIndex {
            batch: 0,
            row,
            k_block,
        }) {
            Ok(o) => at.push((row, k_block, o)),
            Err(e) => {
                problem(ctx, &mut rep, e)?;
                return Ok(rep);
            }
        }
    }
    let mut bytes = Vec::new();
    for &o in &a.offset {
        match g.element(o) {
            Ok(e) => bytes.push((o, e)),
            Err(e) => {
                problem(ctx, &mut rep, e)?;
                return Ok(rep);
            }
        }
    }
    if let Some(path) = &a.svg {
        write_svg(&mut rep, ctx.err, path, &svg_sf_global(&g))?;
    }
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("layout"), arr.name())?;
        o.num(key!("rows"), u64::from(g.rows()))?;
        o.num(key!("k_blocks"), u64::from(g.k_blocks()))?;
        o.num(key!("batches"), u64::from(g.batches()))?;
        o.num(key!("padded_rows"), g.padded_rows())?;
        o.num(key!("padded_k_blocks"), g.padded_k_blocks())?;
        o.num(key!("bytes"), g.bytes())?;
        o.num(key!("padding_bytes"), g.padding_bytes())?;
        let list: Vec<String> = at
            .iter()
            .map(|(r, k, o)| format!("{{\"row\":{r},\"k_block\":{k},\"offset\":{o}}}"))
            .collect();
        o.raw(key!("at"), &format!("[{}]", list.join(",")))?;
        let list: Vec<String> = bytes
            .iter()
            .map(|(o, e)| match e {
                Some(i) => format!(
                    "{{\"offset\":{o},\"batch\":{},\"row\":{},\"k_block\":{}}}",
                    i.batch, i.row, i.k_block
                ),
                None => format!("{{\"offset\":{o},\"padding\":true}}"),
            })
            .collect();
        o.raw(key!("offsets"), &format!("[{}]", list.join(",")))?;
        o.close();
        rep.out.push('\n');
        return Ok(rep);
    }
    let out = &mut rep.out;
    writeln!(
        out,
        "{} scale factors, {} rows x {} K blocks x {} batch(es): {} bytes ({} padded rows x {} padded K blocks per batch), {} padding bytes (zero)",
        arr.name(),
        g.rows(),
        g.k_blocks(),
        g.batches(),
        g.bytes(),
        g.padded_rows(),
        g.padded_k_blocks(),
        g.padding_bytes()
    )?;
    match arr {
        SfArrangement::Blocked128x4 => writeln!(
            out,
            "  offset = 512 * (row / 128 * {} + k_block / 4) + 16 * (row % 32) + 4 * (row / 32 % 4) + k_block % 4",
            g.padded_k_blocks() / 4
        )?,
        SfArrangement::KMajor => writeln!(out, "  offset = row * {} + k_block", g.k_blocks())?,
        SfArrangement::MnMajor => writeln!(out, "  offset = k_block * {} + row", g.rows())?,
        SfArrangement::BlockedTwice => writeln!(
            out,
            "  the blocked permutation applied to the blocked bytes read as a {} x {} row-major tensor",
            g.padded_rows(),
            g.padded_k_blocks()
        )?,
    }
    let rows: Vec<u32> = [0, 1, 2, 31, 32, 33, 64, 96, 127, 128, 129]
        .into_iter()
        .filter(|&r| r < g.rows())
        .collect();
    let kbs = g.k_blocks().min(8);
    write!(out, "  row \\ k_block")?;
    for k in 0..kbs {
        write!(out, " {k:>6}")?;
    }
    writeln!(out)?;
    for r in rows {
        write!(out, "  {r:<13}")?;
        for k in 0..kbs {
            let i = SfIndex {
                batch: 0,
                row: r,
                k_block: k,
            };
            match g.offset(i) {
                Ok(o) => write!(out, " {o:>6}")?,
                Err(_) => write!(out, " {:>6}", "-")?,
            }
        }
        writeln!(out)?;
    }
    for (r, k, o) in at {
        writeln!(out, "  row {r}, K block {k} is byte {o}")?;
    }
    for (o, e) in bytes {
        match e {
            Some(i) => writeln!(
                out,
                "  byte {o} holds batch {}, row {}, K block {}",
                i.batch, i.row, i.k_block
            )?,
            None => writeln!(out, "  byte {o} is padding")?,
        }
    }
    Ok(rep)
}

fn convert(ctx: Ctx, a: &SfConvertArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let (Some(from), Some(to)) = (
        arrangement(&mut rep, "from", &a.from)?,
        arrangement(&mut rep, "to", &a.to)?,
    ) else {
        return Ok(rep);
    };
    let (Some(gi), Some(go)) = (
        layout_of(ctx, &mut rep, from, &a.shape)?,
        layout_of(ctx, &mut rep, to, &a.shape)?,
    ) else {
        return Ok(rep);
    };
    let data = match read_npy_bytes(&a.input) {
        Ok(d) => d,
        Err(e) => {
            usage(&mut rep, format_args!("{e}"))?;
            return Ok(rep);
        }
    };
    if data.len() as u64 != gi.bytes() {
        usage(
            &mut rep,
            format_args!(
                "{}: {} bytes, but a {} layout of {} x {} x {} has {} (padding included)",
                a.input.display(),
                data.len(),
                from.name(),
                gi.rows(),
                gi.k_blocks(),
                gi.batches(),
                gi.bytes()
            ),
        )?;
        return Ok(rep);
    }
    let mut out = vec![0u8; go.bytes() as usize];
    for batch in 0..gi.batches() {
        for row in 0..gi.rows() {
            for k_block in 0..gi.k_blocks() {
                let i = SfIndex {
                    batch,
                    row,
                    k_block,
                };
                let (Ok(s), Ok(d)) = (gi.offset(i), go.offset(i)) else {
                    unreachable!("in range by construction");
                };
                out[d as usize] = data[s as usize];
            }
        }
    }
    let l = u64::from(go.batches());
    let mut shape: Vec<u64> = match to {
        SfArrangement::KMajor => vec![u64::from(go.rows()), u64::from(go.k_blocks())],
        SfArrangement::MnMajor => vec![u64::from(go.k_blocks()), u64::from(go.rows())],
        _ => vec![go.batch_bytes()],
    };
    if l > 1 {
        shape.insert(0, l);
    }
    if let Err(e) = write_npy_bytes(&a.output, &shape, &out) {
        usage(
            &mut rep,
            format_args!("cannot write {}: {e}", a.output.display()),
        )?;
        return Ok(rep);
    }
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("from"), from.name())?;
        o.str(key!("to"), to.name())?;
        o.num(key!("bytes"), go.bytes())?;
        o.num(key!("padding_bytes"), go.padding_bytes())?;
        o.close();
        rep.out.push('\n');
    } else {
        writeln!(
            rep.out,
            "{} -> {}: {} scale factors, {} bytes written to {} ({} padding bytes, zero)",
            from.name(),
            to.name(),
            u64::from(go.rows()) * u64::from(go.k_blocks()) * l,
            go.bytes(),
            a.output.display(),
            go.padding_bytes()
        )?;
    }
    Ok(rep)
}

fn read_npy_bytes(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let raw = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let npy = npyz::NpyFile::new(&raw[..])
        .map_err(|e| format!("{}: not a .npy file: {e}", path.display()))?;
    let descr = npy.dtype().descr();
    if npy.dtype().num_bytes() != Some(1) || npy.order() != npyz::Order::C {
        return Err(format!(
            "{}: dtype {descr}: scale factors are read from a C-order array of bytes (uint8)",
            path.display()
        ));
    }
    let len = npy.len() as usize;
    if len > raw.len() {
        return Err(format!(
            "{}: the data is shorter than its shape",
            path.display()
        ));
    }
    Ok(raw[raw.len() - len..].to_vec())
}

fn write_npy_bytes(path: &std::path::Path, shape: &[u64], data: &[u8]) -> std::io::Result<()> {
    use npyz::WriterBuilder;
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(file)
        .begin_nd()?;
    w.extend(data.iter().copied())?;
    w.finish()
}

fn check(ctx: Ctx, a: &SfCheckArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(host) = arrangement(&mut rep, "host", &a.host)? else {
        return Ok(rep);
    };
    let (shape, multicast) = match a.cp.split_once('.') {
        Some((s, m)) => (CpShape::from_name(s), CpMulticast::from_name(m)),
        None => (CpShape::from_name(&a.cp), Ok(CpMulticast::None)),
    };
    let (Ok(shape), Ok(multicast)) = (shape, multicast) else {
        usage(
            &mut rep,
            format_args!("--cp {}: not a tcgen05.cp shape and multicast", a.cp),
        )?;
        return Ok(rep);
    };
    if a.rows == 0 || a.rows > 128 || a.k_blocks == 0 || a.k_blocks > 4 {
        usage(
            &mut rep,
            format_args!(
                "--rows {} --k-blocks {}: one 128 x 4 tile (rows 1-128, K blocks 1-4)",
                a.rows, a.k_blocks
            ),
        )?;
        return Ok(rep);
    }
    let (rows, kbs) = (a.rows as u32, a.k_blocks as u32);
    let global = match GlobalSfLayout::try_new(host, rows, kbs, 1) {
        Ok(g) => g,
        Err(e) => {
            problem(ctx, &mut rep, e)?;
            return Ok(rep);
        }
    };
    let chain = match one_tile_chain(global, shape, multicast) {
        Ok(c) => c,
        Err(e) => {
            usage(&mut rep, format_args!("{e}"))?;
            return Ok(rep);
        }
    };
    let result = match check_chain(&chain) {
        Ok(r) => r,
        Err(e) => {
            usage(&mut rep, format_args!("{e}"))?;
            return Ok(rep);
        }
    };
    if let Some(path) = &a.svg {
        let title = format!(
            "scale_A of one 128x4 tile: {} host tensor, tcgen05.cp{}{}",
            host.name(),
            shape.name(),
            multicast.name()
        );
        match chain_reads(&chain) {
            Ok(reads) => write_svg(&mut rep, ctx.err, path, &svg_sf_chain(&reads, &title))?,
            Err(e) => usage(&mut rep, format_args!("{e}"))?,
        }
    }
    write_check(ctx, &mut rep, host, shape, multicast, result)?;
    Ok(rep)
}

fn path_json(p: &SfPath) -> String {
    let el = match p.element {
        Some(i) => format!("[{},{}]", i.row, i.k_block),
        None => "null".into(),
    };
    let opt = |v: Option<u64>| v.map_or("null".to_string(), |x| x.to_string());
    format!(
        "{{\"tmem\":{{\"cta\":{},\"lane\":{},\"column\":{},\"byte\":{}}},\"smem\":{},\"global\":{},\"element\":{el}}}",
        p.tmem.0,
        p.tmem.1,
        p.tmem.2,
        p.tmem.3,
        opt(p.smem.map(u64::from)),
        opt(p.global)
    )
}

fn write_check(
    ctx: Ctx,
    rep: &mut Report,
    host: SfArrangement,
    shape: CpShape,
    multicast: CpMulticast,
    result: ChainAgreement,
) -> fmt::Result {
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.bool(
            key!("agree"),
            matches!(result, ChainAgreement::Agree { .. }),
        )?;
        match result {
            ChainAgreement::Agree { reads } => o.num(key!("reads"), reads)?,
            ChainAgreement::Differs {
                mma,
                index,
                k_block,
                path,
                ..
            } => o.raw(
                key!("first_difference"),
                &format!(
                    "{{\"mma\":{mma},\"row\":{index},\"k_block\":{k_block},\"path\":{}}}",
                    path_json(&path)
                ),
            )?,
        }
        o.close();
        rep.out.push('\n');
    } else {
        match result {
            ChainAgreement::Agree { reads } => writeln!(
                rep.out,
                "agree: every scale factor the MMAs read ({reads} Tensor Memory reads) is the one meant, through {}{} from a {} host tensor",
                shape.name(),
                multicast.name(),
                host.name()
            )?,
            ChainAgreement::Differs {
                mma,
                index,
                k_block,
                intended,
                path,
            } => {
                writeln!(rep.out, "differ: MMA {mma} (row {index}, its K block {k_block}) reads a scale factor that is not the one meant:")?;
                let (c, l, col, b) = path.tmem;
                writeln!(rep.out, "  Tensor Memory  CTA {c} lane {l} column {col} byte {b}")?;
                match path.smem {
                    Some(s) => writeln!(rep.out, "  <- shared memory {s:#x} (tcgen05.cp{}{})", shape.name(), multicast.name())?,
                    None => writeln!(rep.out, "  <- no tcgen05.cp wrote this byte")?,
                }
                match path.global {
                    Some(g) => writeln!(rep.out, "  <- global byte {g} (tensor copy)")?,
                    None if path.smem.is_some() => writeln!(rep.out, "  <- no tensor copy wrote this shared-memory byte")?,
                    None => {}
                }
                match (path.global, path.element) {
                    (_, Some(e)) => writeln!(rep.out, "  <- holds row {}, K block {} of the {} tensor", e.row, e.k_block, host.name())?,
                    (Some(_), None) => writeln!(rep.out, "  <- a padding byte")?,
                    _ => {}
                }
                if let Some(i) = intended {
                    writeln!(rep.out, "  meant: row {}, K block {}", i.row, i.k_block)?;
                }
                rep.status = Status::Rule;
            }
        }
    }
    if matches!(result, ChainAgreement::Differs { .. }) {
        rep.status = Status::Rule;
    }
    Ok(())
}
