//! `tmem`: the Tensor Memory maps, as text, JSON and SVG pictures: which thread and register
//! hold which cell after `tcgen05.ld` / `.st` (`tmem ld`), where an MMA keeps D (`tmem d`) and
//! A (`tmem a`), where the block-scale factors live (`tmem sf`), and which lanes a `tcgen05.cp`
//! row lands in (`tmem cp`). Every map comes from `tcgen05::tmem_fragment` and
//! `tcgen05::data_path`; this file only parses, prints and draws.

use std::fmt::{self, Write as _};

use tcgen05::data_path::{
    a_bits_have_shape, a_cell, a_k_fits, d_element_bits, DLayout, DataPathError, DataPathLayout,
    SfLayout, SfOperand,
};
use tcgen05::diagnostic::Source;
use tcgen05::tensor_memory::{LdStShape, Num, TmemAddress, TmemError};
use tcgen05::tmem_fragment::{cp_row, cp_rows, BitRange, FragmentError, LdStFragment, Packing};
use tcgen05::CtaGroup;

use tcgen05_svg::{svg_cp, svg_d, svg_ld, svg_sf};

use super::problem::narrow;
use crate::args::tmem::{AArgs, CpArgs, DArgs, LdArgs, SfArgs, Tmem};
use crate::render::svg::write_svg;
use crate::render::{Ctx, Obj, Report};

/// Runs a `tmem` subcommand.
pub fn run(ctx: Ctx, t: &Tmem) -> Result<Report, fmt::Error> {
    match t {
        Tmem::Ld(a) => ld(ctx, a),
        Tmem::D(a) => d(ctx, a),
        Tmem::A(a) => a_map(ctx, a),
        Tmem::Sf(a) => sf(ctx, a),
        Tmem::Cp(a) => cp(ctx, a),
    }
}

/// A flag's number narrowed to `u32`, or a problem recorded.
fn u32_of(
    rep: &mut Report,
    ctx: Ctx,
    field: &'static str,
    v: u64,
    source: Source,
) -> Result<Option<u32>, fmt::Error> {
    match narrow::<u32>(field, v, u64::from(u32::MAX), u64::from(u32::MAX), source) {
        Ok(x) => Ok(Some(x)),
        Err(e) => {
            rep.problems(&[e], ctx.err)?;
            Ok(None)
        }
    }
}

fn address_of(rep: &mut Report, ctx: Ctx, v: u64) -> Result<Option<TmemAddress>, fmt::Error> {
    let Some(raw) = u32_of(rep, ctx, "address", v, Source::Decision(24))? else {
        return Ok(None);
    };
    match TmemAddress::from_bits(raw) {
        Ok(a) => Ok(Some(a)),
        Err(_) => {
            let d = TmemAddress::validate(raw);
            let all: Vec<TmemError> = d.iter().collect();
            rep.problems(&all, ctx.err)?;
            Ok(None)
        }
    }
}

fn bits_json(buf: &mut String, lo: u8, hi: u8) {
    let _ = write!(buf, "[{lo},{hi}]");
}

// ---------------------------------------------------------------------------------------------
// ld / st
// ---------------------------------------------------------------------------------------------

/// `tmem ld --json`: the fragment's shape and sizes, and every (thread, register) piece.
fn ld_json(rep: &mut Report, f: &LdStFragment, num: Num, pack: bool) -> Result<(), fmt::Error> {
    let mut o = Obj::open(&mut rep.out);
    o.str(key!("shape"), f.shape().name().trim_start_matches('.'))?;
    o.num(key!("num"), u64::from(num.count()))?;
    o.bool(key!("pack"), pack)?;
    o.num(key!("half_split_offset"), u64::from(f.half_split_offset()))?;
    o.num(key!("registers"), u64::from(f.registers()))?;
    o.num(key!("lanes"), u64::from(f.lanes()))?;
    o.num(key!("columns"), u64::from(f.column_span()))?;
    let buf = o.key(key!("entries"));
    buf.push('[');
    for (i, p) in f.pieces().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        let _ = write!(
            buf,
            "{{\"thread\":{},\"reg\":{},\"lane\":{},\"column\":{},\"bits\":",
            p.thread, p.register, p.lane, p.column
        );
        bits_json(buf, p.bits.lo, p.bits.hi);
        buf.push_str(",\"reg_bits\":");
        bits_json(buf, p.register_bits.lo, p.register_bits.hi);
        buf.push('}');
    }
    buf.push(']');
    o.close();
    rep.out.push('\n');
    Ok(())
}

fn ld(ctx: Ctx, a: &LdArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let num = match u32::try_from(a.num)
        .map_err(|_| ())
        .and_then(|n| Num::from_count(n).map_err(|_| ()))
    {
        Ok(n) => n,
        Err(()) => {
            let e = TmemError::InvalidNum {
                num: u32::try_from(a.num).unwrap_or(u32::MAX),
            };
            rep.problems(&[e], ctx.err)?;
            return Ok(rep);
        }
    };
    let offset = match a.offset {
        Some(v) => match u32_of(
            &mut rep,
            ctx,
            "half_split_offset",
            v,
            Source::PtxSection("9.7.16.8.3"),
        )? {
            Some(o) => Some(o),
            None => return Ok(rep),
        },
        None => None,
    };
    let packing = if a.pack {
        Packing::Pack16b
    } else {
        Packing::None
    };
    let problems: Vec<FragmentError> = LdStFragment::validate(a.shape, num, packing, offset)
        .iter()
        .collect();
    rep.problems(&problems, ctx.err)?;
    let f = match LdStFragment::try_new(a.shape, num, packing, offset) {
        Ok(f) => f,
        Err(_) => return Ok(rep),
    };
    // (address, warp) when both are known, for the text header.
    let mut placed = None;
    if let Some(addr) = a.address {
        if let Some(taddr) = address_of(&mut rep, ctx, addr)? {
            let warp = match a.warp {
                Some(w) => u32_of(&mut rep, ctx, "warp", w, Source::PtxSection("9.7.16.8.1"))?,
                None => Some(taddr.lane() / 32),
            };
            if let Some(w) = warp {
                let d: Vec<FragmentError> = f.check_address(taddr, w).iter().collect();
                rep.problems(&d, ctx.err)?;
                placed = Some((taddr, w));
            }
        }
    }
    if let Some(path) = &a.svg {
        let svg = svg_ld(&f);
        write_svg(&mut rep, ctx.err, path, &svg)?;
    }
    if ctx.json {
        ld_json(&mut rep, &f, num, a.pack)?;
        return Ok(rep);
    }
    let st = ctx.out;
    writeln!(
        rep.out,
        "{}tcgen05.ld/st{}{}{}: {} registers per thread, {} lanes x {} columns from the address{}",
        st.bold(),
        f.shape(),
        num,
        packing.ld_name(),
        f.registers(),
        f.lanes(),
        f.column_span(),
        st.reset()
    )?;
    if matches!(f.shape(), LdStShape::S16x32bx2) {
        writeln!(
            rep.out,
            "half-split offset: {} columns",
            f.half_split_offset()
        )?;
    }
    if let Some((taddr, w)) = placed {
        let first = tcgen05::tensor_memory::warp_first_lane(w);
        writeln!(
            rep.out,
            "address {:#010x}: lanes {}-{}, columns {}-{}; warp {w} may access lanes {first}-{} (PTX ISA 9.7.16.8.1)",
            taddr.bits(),
            taddr.lane(),
            taddr.lane() + f.lanes() - 1,
            taddr.column(),
            taddr.column() + f.column_span() - 1,
            first + 31
        )?;
    }
    writeln!(
        rep.out,
        "cell (lane, column) <- thread T.register r{} (PTX ISA 9.7.16.2.3.1; CUTLASS copy_traits_sm100.hpp)",
        if a.pack { ", .lo/.hi = register bits 15-0 / 31-16 holding cell bits 15-0" } else { "" }
    )?;
    for lane in 0..f.lanes() {
        write!(rep.out, "lane {lane:>2}:")?;
        for col in 0..f.column_span() {
            let owners = f.owners(lane, col);
            match owners[0] {
                Some(o) => {
                    write!(rep.out, " T{}.r{}", o.thread, o.register)?;
                    if a.pack {
                        rep.out.push_str(if o.register_bits.lo == 0 {
                            ".lo"
                        } else {
                            ".hi"
                        });
                    }
                    if let Some(o2) = owners[1] {
                        write!(rep.out, "+T{}.r{}", o2.thread, o2.register)?;
                    }
                }
                None => rep.out.push_str(" -"),
            }
        }
        rep.out.push('\n');
    }
    Ok(rep)
}

// ---------------------------------------------------------------------------------------------
// D and A
// ---------------------------------------------------------------------------------------------

/// `tmem d --json`: the layout, its parameters and every D[m][n] -> (cta, lane, column).
fn d_json(
    rep: &mut Report,
    dl: &DLayout,
    a: &DArgs,
    (m, n): (u32, u32),
    elem: BitRange,
) -> Result<(), fmt::Error> {
    let l = dl.layout();
    let mut o = Obj::open(&mut rep.out);
    o.str(key!("layout"), l)?;
    o.str(key!("organization"), l.organization())?;
    o.num(key!("m"), u64::from(m))?;
    o.num(key!("n"), u64::from(n))?;
    o.num(key!("cta_group"), u64::from(a.cta_group.count()))?;
    o.bool(key!("ws"), a.ws)?;
    o.bool(key!("sparse"), a.sparse)?;
    o.num(key!("columns"), u64::from(dl.columns()))?;
    o.raw(
        key!("lane_alignment"),
        if l.half_datapath() { "[0,16]" } else { "[0]" },
    )?;
    bits_json(o.key(key!("bits")), elem.lo, elem.hi);
    let buf = o.key(key!("entries"));
    buf.push('[');
    for (i, (mm, nn, c)) in dl.cells().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        let _ = write!(
            buf,
            "{{\"m\":{mm},\"n\":{nn},\"cta\":{},\"lane\":{},\"column\":{}}}",
            c.cta, c.lane, c.column
        );
    }
    buf.push(']');
    o.close();
    rep.out.push('\n');
    Ok(())
}

fn d(ctx: Ctx, a: &DArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let (Some(m), Some(n), Some(bits)) = (
        u32_of(&mut rep, ctx, "m", a.m, Source::PtxSection("9.7.16.10.5"))?,
        u32_of(&mut rep, ctx, "n", a.n, Source::PtxTable(39))?,
        u32_of(
            &mut rep,
            ctx,
            "element_bits",
            a.bits,
            Source::PtxSection("9.7.16.10.4.1"),
        )?,
    ) else {
        return Ok(rep);
    };
    let mut problems: Vec<DataPathError> = DLayout::validate(m, n, a.cta_group, a.ws, a.sparse)
        .iter()
        .collect();
    let elem = d_element_bits(bits);
    if let Err(e) = elem {
        problems.push(e);
    }
    let layout = DLayout::try_new(m, n, a.cta_group, a.ws, a.sparse);
    if let (Some(addr), Ok(dl)) = (a.address, &layout) {
        if let Some(taddr) = address_of(&mut rep, ctx, addr)? {
            if let Err(e) = dl.layout().check_address(taddr) {
                problems.push(e);
            }
        }
    }
    rep.problems(&problems, ctx.err)?;
    let (Ok(dl), Ok(elem)) = (layout, elem) else {
        return Ok(rep);
    };
    if let Some(path) = &a.svg {
        let svg = svg_d(&dl);
        write_svg(&mut rep, ctx.err, path, &svg)?;
    }
    let l = dl.layout();
    if ctx.json {
        d_json(&mut rep, &dl, a, (m, n), elem)?;
        return Ok(rep);
    }
    let st = ctx.out;
    writeln!(
        rep.out,
        "{}D of M = {m}, N = {n}, .cta_group::{}{}{}: layout {l} ({}), PTX ISA {}{}",
        st.bold(),
        a.cta_group.count(),
        if a.ws { " .ws" } else { "" },
        if a.sparse { " sparse" } else { "" },
        l.organization(),
        l.section(),
        st.reset()
    )?;
    writeln!(
        rep.out,
        "{} rows per CTA in {} column(s) from the D address; lane alignment {}; D element in cell bits {}-{}",
        l.rows_per_cta(),
        dl.columns(),
        if l.half_datapath() { "0 or 16" } else { "0" },
        elem.hi,
        elem.lo
    )?;
    writeln!(
        rep.out,
        "per warp of the warpgroup (warp w % 4 may access lanes 32w to 32w + 31, PTX ISA 9.7.16.8.1):"
    )?;
    for cta in 0..l.ctas() {
        for w in 0..4 {
            let held: Vec<(u32, u32, u32)> = (32 * w..32 * w + 32)
                .filter_map(|lane| dl.element_at(cta, lane, 0).map(|(m, n)| (lane, m, n)))
                .collect();
            if l.ctas() > 1 {
                write!(rep.out, "  CTA {cta} warp {w}: ")?;
            } else {
                write!(rep.out, "  warp {w}: ")?;
            }
            let (Some(first), Some(last)) = (held.first(), held.last()) else {
                writeln!(rep.out, "no D")?;
                continue;
            };
            let n1 = dl
                .element_at(cta, first.0, dl.columns() - 1)
                .map_or(first.2, |(_, n)| n);
            let count = last.0 - first.0 + 1;
            writeln!(
                rep.out,
                "taddr = D + ({} << 16): lanes {}-{} hold D[m][n] for m {}-{}, n {}-{}{}",
                first.0,
                first.0,
                last.0,
                first.1,
                last.1,
                first.2,
                n1,
                if count == 16 {
                    " (16 lanes: a .16x* shape)"
                } else {
                    ""
                }
            )?;
        }
    }
    for cta in 0..l.ctas() {
        for lane in 0..128 {
            let Some((m0, n0)) = dl.element_at(cta, lane, 0) else {
                continue;
            };
            let (_, n1) = dl
                .element_at(cta, lane, dl.columns() - 1)
                .unwrap_or((m0, n0));
            if l.ctas() > 1 {
                write!(rep.out, "CTA {cta} ")?;
            }
            writeln!(
                rep.out,
                "lane {lane:>3} (warp {}): D[{m0}][{n0}..={n1}] in columns 0-{}",
                lane / 32,
                dl.columns() - 1
            )?;
        }
    }
    Ok(rep)
}

fn a_map(ctx: Ctx, a: &AArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let (Some(m), Some(k), Some(bits)) = (
        u32_of(&mut rep, ctx, "m", a.m, Source::PtxSection("9.7.16.10.5"))?,
        u32_of(&mut rep, ctx, "k", a.k, Source::PtxSection("9.7.16.10.4"))?,
        u32_of(
            &mut rep,
            ctx,
            "element_bits",
            a.bits,
            Source::PtxSection("9.7.16.10.4"),
        )?,
    ) else {
        return Ok(rep);
    };
    let layout = match DataPathLayout::for_mma(m, a.cta_group, a.ws, a.sparse) {
        Ok(l) => l,
        Err(e) => {
            rep.problems(&[e], ctx.err)?;
            return Ok(rep);
        }
    };
    let problems: Vec<DataPathError> = [
        a_cell(layout, 0, 0, bits).err(),
        a_k_fits(k, bits).err(),
        a_bits_have_shape(m, a.cta_group, a.ws, a.sparse, bits).err(),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !problems.is_empty() {
        rep.problems(&problems, ctx.err)?;
        return Ok(rep);
    }
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("layout"), layout)?;
        o.num(key!("m"), u64::from(m))?;
        o.num(key!("k"), u64::from(k))?;
        o.num(key!("element_bits"), u64::from(bits))?;
        let buf = o.key(key!("entries"));
        buf.push('[');
        let mut first = true;
        for mm in 0..m {
            for kk in 0..k {
                let Ok(c) = a_cell(layout, mm, kk, bits) else {
                    continue;
                };
                if !first {
                    buf.push(',');
                }
                first = false;
                let _ = write!(buf, "{{\"m\":{mm},\"k\":{kk},\"cta\":{},\"lanes\":[", c.cta);
                for (i, l) in c.lanes().iter().enumerate() {
                    let _ = write!(buf, "{}{l}", if i > 0 { "," } else { "" });
                }
                let _ = write!(buf, "],\"column\":{},\"bits\":", c.column);
                bits_json(buf, c.bits.lo, c.bits.hi);
                buf.push('}');
            }
        }
        buf.push(']');
        o.close();
        rep.out.push('\n');
        return Ok(rep);
    }
    writeln!(
        rep.out,
        "A in Tensor Memory, M = {m}, layout {layout}: {}-bit containers, {} per 32-bit cell",
        bits,
        32 / bits
    )?;
    for mm in 0..m {
        let Ok(c) = a_cell(layout, mm, 0, bits) else {
            continue;
        };
        let last = a_cell(layout, mm, k.saturating_sub(1), bits).map_or(0, |c| c.column);
        write!(rep.out, "A[{mm}][0..{k}]: CTA {} lane(s)", c.cta)?;
        for l in c.lanes() {
            write!(rep.out, " {l}")?;
        }
        writeln!(rep.out, ", columns 0-{last}")?;
    }
    Ok(rep)
}

// ---------------------------------------------------------------------------------------------
// Scale factors and cp
// ---------------------------------------------------------------------------------------------

fn sf(ctx: Ctx, a: &SfArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let (Some(m), Some(n), Some(id)) = (
        u32_of(&mut rep, ctx, "m", a.m, Source::PtxSection("9.7.16.10.5"))?,
        u32_of(&mut rep, ctx, "n", a.n, Source::PtxTable(39))?,
        u32_of(&mut rep, ctx, "sf_id", a.sf_id, Source::Decision(13))?,
    ) else {
        return Ok(rep);
    };
    let layout = match DataPathLayout::for_mma(m, a.cta_group, false, false) {
        Ok(l) => l,
        Err(e) => {
            rep.problems(&[e], ctx.err)?;
            return Ok(rep);
        }
    };
    let problems: Vec<DataPathError> = SfLayout::validate(layout, a.operand, a.scale_vec, n, id)
        .iter()
        .collect();
    rep.problems(&problems, ctx.err)?;
    let Ok(s) = SfLayout::try_new(layout, a.operand, a.scale_vec, n, id) else {
        return Ok(rep);
    };
    if let Some(path) = &a.svg {
        let svg = svg_sf(&s);
        write_svg(&mut rep, ctx.err, path, &svg)?;
    }
    let op = match a.operand {
        SfOperand::A => "a",
        SfOperand::B => "b",
    };
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.name(key!("operand"), op)?;
        o.str(key!("layout"), layout)?;
        let v = a.scale_vec.name().trim_start_matches(".scale_vec::");
        o.str(key!("scale_vec"), v)?;
        // The key of the releases before the flag was named --scale-vec.
        o.str(key!("vec"), v)?;
        o.num(key!("sf_id"), u64::from(id))?;
        o.num(key!("columns"), u64::from(s.columns()))?;
        let buf = o.key(key!("entries"));
        buf.push('[');
        let mut first = true;
        for i in 0..s.extent() {
            for kb in 0..a.scale_vec.count() {
                let Ok(c) = s.locate(i, kb) else { continue };
                if !first {
                    buf.push(',');
                }
                first = false;
                let _ = write!(
                    buf,
                    "{{\"index\":{i},\"k_block\":{kb},\"cta\":{},\"both_ctas\":{},\"lanes\":[",
                    c.cta, c.both_ctas
                );
                for (j, l) in c.lanes().iter().enumerate() {
                    let _ = write!(buf, "{}{l}", if j > 0 { "," } else { "" });
                }
                let _ = write!(buf, "],\"column\":{},\"byte\":{}}}", c.column, c.byte);
            }
        }
        buf.push(']');
        o.close();
        rep.out.push('\n');
        return Ok(rep);
    }
    if a.scale_vec.is_k96() {
        writeln!(
            rep.out,
            "scale_{} of M = {m}, N = {n}, .cta_group::{} (layout {layout}), K = 96 {}, SF_ID {id}: {} column(s); K block s is byte (SF_ID + s) % 4 of the cell (SF_ID + s) / 4 groups of {} columns further (rules.md T3: the text of PTX ISA 9.7.16.10.7 with CUTLASS 4.2.0's sm_103 mainloop; its figures unread, no Blackwell has confirmed it)",
            op.to_ascii_uppercase(),
            a.cta_group.count(),
            a.scale_vec,
            s.columns(),
            s.group_columns()
        )?;
    } else {
        writeln!(
            rep.out,
            "scale_{} of M = {m}, N = {n}, .cta_group::{} (layout {layout}), {}, SF_ID {id}: {} column(s), bytes {}-{} of each cell",
            op.to_ascii_uppercase(),
            a.cta_group.count(),
            a.scale_vec,
            s.columns(),
            id,
            id + a.scale_vec.count() - 1
        )?;
    }
    for i in 0..s.extent() {
        let Ok(c) = s.locate(i, 0) else { continue };
        write!(
            rep.out,
            "{} {i:>3}: {}lanes",
            if a.operand == SfOperand::A {
                "row"
            } else {
                "col"
            },
            if c.both_ctas {
                "both CTAs, ".to_string()
            } else if layout.ctas() > 1 {
                format!("CTA {}, ", c.cta)
            } else {
                String::new()
            }
        )?;
        for l in c.lanes() {
            write!(rep.out, " {l}")?;
        }
        if a.scale_vec.is_k96() {
            write!(rep.out, ", K blocks at column.byte")?;
            for kb in 0..a.scale_vec.count() {
                let Ok(c) = s.locate(i, kb) else { continue };
                write!(rep.out, " {}.{}", c.column, c.byte)?;
            }
            writeln!(rep.out)?;
        } else {
            writeln!(rep.out, ", column {}", c.column)?;
        }
    }
    Ok(rep)
}

fn cp(ctx: Ctx, a: &CpArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    if let Err(e) = cp_row(a.shape, a.multicast, 0) {
        rep.problems(&[e], ctx.err)?;
        return Ok(rep);
    }
    if let Some(path) = &a.svg {
        let svg = svg_cp(a.shape, a.multicast);
        write_svg(&mut rep, ctx.err, path, &svg)?;
    }
    let columns = a.shape.columns_per_lane();
    if ctx.json {
        let mut o = Obj::open(&mut rep.out);
        o.str(key!("shape"), a.shape.name().trim_start_matches('.'))?;
        o.str(
            key!("multicast"),
            a.multicast.name().trim_start_matches('.'),
        )?;
        o.num(key!("cta_group"), u64::from(a.cta_group.count()))?;
        o.num(key!("columns"), u64::from(columns))?;
        let buf = o.key(key!("rows"));
        buf.push('[');
        for row in 0..cp_rows(a.shape) {
            let Ok(r) = cp_row(a.shape, a.multicast, row) else {
                continue;
            };
            if row > 0 {
                buf.push(',');
            }
            let _ = write!(buf, "{{\"row\":{row},\"lanes\":[");
            for (j, l) in r.lanes().iter().enumerate() {
                let _ = write!(buf, "{}{l}", if j > 0 { "," } else { "" });
            }
            buf.push_str("]}");
        }
        buf.push(']');
        o.close();
        rep.out.push('\n');
        return Ok(rep);
    }
    writeln!(
        rep.out,
        "tcgen05.cp.cta_group::{}{}{}: {} source rows, {} columns each from the address{}",
        a.cta_group.count(),
        a.shape,
        a.multicast.name(),
        cp_rows(a.shape),
        columns,
        if a.cta_group == CtaGroup::Two {
            ", in both CTAs of the pair"
        } else {
            ""
        }
    )?;
    for row in 0..cp_rows(a.shape) {
        let Ok(r) = cp_row(a.shape, a.multicast, row) else {
            continue;
        };
        write!(rep.out, "row {row:>3} -> lane(s)")?;
        for l in r.lanes() {
            write!(rep.out, " {l}")?;
        }
        rep.out.push('\n');
    }
    Ok(rep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::number::parse_num;
    use crate::commands::problem::CliError;
    use tcgen05::diagnostic::Diagnostic;

    #[test]
    fn num_spellings() {
        assert_eq!(parse_num("4"), Ok(4));
        assert_eq!(parse_num("x4"), Ok(4));
        assert_eq!(parse_num(".x128"), Ok(128));
        assert_eq!(parse_num("X4"), Ok(4));
        assert!(parse_num("four").is_err());
    }

    #[test]
    fn cli_error_is_a_diagnostic() {
        let e = narrow::<u32>(
            "m",
            1 << 40,
            u64::from(u32::MAX),
            u64::from(u32::MAX),
            Source::PtxTable(39),
        );
        assert!(matches!(e, Err(CliError::TooWide { .. })));
        assert_eq!(e.map_err(|e| e.field()), Err("m"));
    }
}
