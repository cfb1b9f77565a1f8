//! `explain`: the rulings and rules of the core's rules document and tables ([`tcgen05::rules`]),
//! rendered as text or one JSON object.

use std::fmt::{self, Write as _};

use tcgen05::diagnostic::Severity;
use tcgen05::rules::{self, Entry, Ruling, Unknown};
use tcgen05_run::hazard::HazardKind;

use crate::args::explain::ExplainArgs;
use crate::render::{json_str, Ctx, Obj, Report, Status};

/// `explain [RULE]`.
pub fn run(ctx: Ctx, a: &ExplainArgs) -> Result<Report, fmt::Error> {
    let mut rep = Report::default();
    let Some(name) = &a.rule else {
        let rulings: Vec<Ruling> = rules::rulings().collect();
        let entries: Vec<Entry> = rules::entries().collect();
        if ctx.json {
            json(&mut rep.out, &rulings, &entries, false)?;
            hazards_json(&mut rep.out, &HazardKind::ALL);
        } else {
            list_text(&mut rep.out, ctx, &rulings, &entries)?;
            hazards_text(&mut rep.out, ctx, &HazardKind::ALL, true)?;
        }
        return Ok(rep);
    };
    if let Some(k) = HazardKind::parse(name) {
        if ctx.json {
            json(&mut rep.out, &[], &[], true)?;
            hazards_json(&mut rep.out, &[k]);
        } else {
            hazards_text(&mut rep.out, ctx, &[k], false)?;
        }
        return Ok(rep);
    }
    let (rulings, entries, by_rule) = match rules::explain(name) {
        Ok(e) => (e.rulings, e.entries, e.by_rule),
        Err(u) => return unknown(ctx, name, &u),
    };
    if ctx.json {
        json(&mut rep.out, &rulings, &entries, true)?;
    } else {
        one_text(&mut rep.out, ctx, &rulings, &entries, by_rule)?;
    }
    Ok(rep)
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Every ruling by name and title, then every rule: identifier, statement, source.
fn list_text(out: &mut String, ctx: Ctx, rulings: &[Ruling], entries: &[Entry]) -> fmt::Result {
    let st = ctx.out;
    writeln!(out, "{}Rulings (docs/rules.md){}", st.bold(), st.reset())?;
    for r in rulings {
        writeln!(out, "  {:<4} {}", r.name, r.title)?;
    }
    let width = entries.iter().map(|e| e.rule.id.len()).max().unwrap_or(0);
    let mut group = "";
    for e in entries {
        if e.group != group {
            group = e.group;
            writeln!(out, "\n{}Rules of {group}{}", st.bold(), st.reset())?;
        }
        let r = e.rule;
        writeln!(out, "  {:<width$} {} ({})", r.id, r.text(), r.source)?;
    }
    writeln!(
        out,
        "\n`tcgen05 explain NAME` prints one of them with its evidence."
    )
}

/// A ruling with the rules that cite it, or (`by_rule`) a rule with the ruling it cites.
fn one_text(
    out: &mut String,
    ctx: Ctx,
    rulings: &[Ruling],
    entries: &[Entry],
    by_rule: bool,
) -> fmt::Result {
    let st = ctx.out;
    let write_rulings = |out: &mut String| -> fmt::Result {
        for r in rulings {
            writeln!(
                out,
                "{}{}. {}{} (docs/rules.md)",
                st.bold(),
                r.name,
                r.title,
                st.reset()
            )?;
            writeln!(out, "{}\n", r.body)?;
        }
        Ok(())
    };
    if by_rule {
        for e in entries {
            writeln!(
                out,
                "{}{}{} ({}, {} of {})\n{}\n",
                st.bold(),
                e.rule.id,
                st.reset(),
                e.rule.source,
                severity(e.rule.severity),
                e.group,
                e.rule.text()
            )?;
        }
        write_rulings(out)?;
    } else {
        write_rulings(out)?;
        if !entries.is_empty() {
            writeln!(out, "Rules that cite it:")?;
            for e in entries {
                writeln!(
                    out,
                    "  {} ({}): {}",
                    e.rule.id,
                    severity(e.rule.severity),
                    e.rule.text()
                )?;
            }
        }
    }
    Ok(())
}

/// `{"rulings": [...], "rules": [...]}`; `text` adds each ruling's body.
fn json(out: &mut String, rulings: &[Ruling], entries: &[Entry], text: bool) -> fmt::Result {
    let mut o = Obj::open(out);
    let buf = o.key(key!("rulings"));
    buf.push('[');
    for (i, r) in rulings.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        let mut ro = Obj::open(buf);
        ro.str(key!("name"), r.name)?;
        ro.str(key!("title"), r.title)?;
        if text {
            ro.str(key!("text"), r.body)?;
        }
        ro.close();
    }
    buf.push(']');
    let buf = o.key(key!("rules"));
    buf.push('[');
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        let mut eo = Obj::open(buf);
        let r = e.rule;
        eo.str(key!("id"), r.id)?;
        eo.str(key!("group"), e.group)?;
        eo.name(key!("severity"), severity(r.severity))?;
        eo.str(key!("source"), r.source)?;
        match r.source.ruling() {
            Some(n) => eo.str(key!("ruling"), format_args!("R{n}"))?,
            None => eo.raw(key!("ruling"), "null")?,
        }
        eo.str(key!("statement"), r.text())?;
        eo.close();
    }
    buf.push(']');
    o.close();
    out.push('\n');
    Ok(())
}

/// Hazard kinds of `run --hazards` / `check --hazards` (the interpreter's table): name, source
/// and meaning; `list` as the list's last section.
fn hazards_text(out: &mut String, ctx: Ctx, kinds: &[HazardKind], list: bool) -> fmt::Result {
    let st = ctx.out;
    if list {
        writeln!(
            out,
            "\n{}Hazard kinds (tcgen05 run --hazards, tcgen05 check --hazards){}",
            st.bold(),
            st.reset()
        )?;
        for k in kinds {
            writeln!(out, "  {:<21} ({})", k.name(), k.source())?;
        }
        return Ok(());
    }
    for k in kinds {
        writeln!(
            out,
            "{}{}{} (hazard kind of tcgen05 run --hazards and tcgen05 check --hazards; {})\n{}",
            st.bold(),
            k.name(),
            st.reset(),
            k.source(),
            k.meaning()
        )?;
    }
    Ok(())
}

/// `,"hazards":[{"kind","source","meaning"}]` inserted before the closing brace of `json`'s
/// object.
fn hazards_json(out: &mut String, kinds: &[HazardKind]) {
    let end = out.trim_end().len();
    let mut s = String::from(",\"hazards\":[");
    for (i, k) in kinds.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str("{\"kind\":");
        // Names, sources and meanings are ASCII without quotes or backslashes.
        let _ = json_str(&mut s, k.name());
        s.push_str(",\"source\":");
        let _ = json_str(&mut s, k.source());
        s.push_str(",\"meaning\":");
        let _ = json_str(&mut s, k.meaning());
        s.push('}');
    }
    s.push(']');
    out.insert_str(end - 1, &s);
}

/// A name that is neither a ruling nor a rule: a usage error naming the close ones (with
/// `--json`, the one object of a failed run, its error carrying `close`).
fn unknown(ctx: Ctx, name: &str, u: &Unknown) -> Result<Report, fmt::Error> {
    let mut rep = Report {
        status: Status::Usage,
        ..Report::default()
    };
    let close: Vec<&str> = u.names().collect();
    let mut message = String::from("no ruling or rule has this name");
    if close.is_empty() {
        message.push_str("; `tcgen05 explain` lists them all");
    } else {
        write!(message, "; close: {}", close.join(", "))?;
    }
    let st = ctx.err;
    writeln!(
        rep.err,
        "{}error{}: rule = {name}: {message} (docs/rules.md)",
        st.red(),
        st.reset()
    )?;
    let mut j = String::new();
    let mut o = Obj::open(&mut j);
    o.str(key!("field"), "rule")?;
    o.str(key!("value"), name)?;
    o.str(key!("message"), &message)?;
    o.str(key!("source"), "docs/rules.md")?;
    let buf = o.key(key!("close"));
    buf.push('[');
    for (i, c) in close.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        json_str(buf, c)?;
    }
    buf.push(']');
    o.close();
    rep.json_problems.push((true, j));
    Ok(rep)
}
