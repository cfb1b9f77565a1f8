//! `shapes`: the valid M, N, K of Table 39 (PTX ISA 9.7.16.2.1; rules.md R14-R17).

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};

use tcgen05::shapes::{rule_on_target, shapes, ShapeFilter, ShapeRule, TABLE_39};

use super::target::resolve_target;
use crate::args::descriptor::ShapesArgs;
use crate::render::{Ctx, Obj, Report};

/// `shapes`.
pub fn run(ctx: Ctx, a: &ShapesArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(target) = resolve_target(a.target, &mut rep, ctx.err)? else {
        return Ok(rep);
    };
    let filter = ShapeFilter {
        kind: a.kind,
        cta_group: a.cta_group,
        ws: a.ws,
        sparse: a.sparse,
    };
    // Ordered as Table 39 lists them; the set only guards against duplicates.
    let mut seen = BTreeSet::new();
    let all: Vec<_> = shapes(target, filter).filter(|s| seen.insert(*s)).collect();
    if ctx.json {
        rep.out.push('[');
        for (i, s) in all.iter().enumerate() {
            rep.out.push_str(if i == 0 { "\n" } else { ",\n" });
            let mut o = Obj::open(&mut rep.out);
            o.name(key!("kind"), s.kind.name())?;
            o.num(key!("cta_group"), s.cta_group.count().into())?;
            o.bool(key!("ws"), s.ws)?;
            o.bool(key!("sparse"), s.sparse)?;
            o.num(key!("m"), s.m.into())?;
            o.num(key!("n"), s.n.into())?;
            o.num(key!("k"), s.k.into())?;
            o.close();
        }
        rep.out
            .push_str(if all.is_empty() { "]\n" } else { "\n]\n" });
        return Ok(rep);
    }
    let st = ctx.out;
    writeln!(
        rep.out,
        "{}Table 39 shapes on {target}{} (PTX ISA 9.7.16.2.1; rules.md R14-R17)",
        st.bold(),
        st.reset()
    )?;
    let rules: Vec<&ShapeRule> = TABLE_39
        .iter()
        .filter(|r| filter.accepts(r) && rule_on_target(r, target))
        .collect();
    if rules.is_empty() {
        writeln!(
            rep.out,
            "  no shape of Table 39 matches these filters on {target}"
        )?;
        return Ok(rep);
    }
    let cells: Vec<(String, String)> = rules
        .iter()
        .map(|r| {
            let m: Vec<String> = r.m.iter().map(u16::to_string).collect();
            (m.join(", "), r.n.to_string())
        })
        .collect();
    let wm = cells.iter().map(|c| c.0.len()).max().unwrap_or(0).max(1);
    let wn = cells.iter().map(|c| c.1.len()).max().unwrap_or(0).max(1);
    writeln!(
        rep.out,
        "  {}{:<9} {:<10} {:<4} {:<7} {:<wm$}  {:<wn$}  K{}",
        st.dim(),
        "kind",
        "cta_group",
        ".ws",
        "sparse",
        "M",
        "N",
        st.reset()
    )?;
    for (r, (m, n)) in rules.iter().zip(&cells) {
        writeln!(
            rep.out,
            "  {:<9} {:<10} {:<4} {:<7} {m:<wm$}  {n:<wn$}  {}",
            r.kind.name(),
            r.cta_group.count(),
            if r.ws { "yes" } else { "no" },
            if r.sparse { "yes" } else { "no" },
            r.k
        )?;
    }
    writeln!(
        rep.out,
        "  {} row{}, {} (kind, cta_group, .ws, sparse, M, N, K) combinations (--json lists each)",
        rules.len(),
        if rules.len() == 1 { "" } else { "s" },
        all.len()
    )?;
    Ok(rep)
}
