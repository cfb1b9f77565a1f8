//! Warnings about the command line itself, as stderr lines and JSON problems: old spellings of
//! flags ([`crate::args::flags`]), targets given by an earlier name and flags given more than
//! once ([`crate::args::scan`]).

use std::fmt::{self, Write as _};

use crate::args::flags::Deprecated;
use crate::args::number::FLAG_SOURCE;
use crate::args::scan::Findings;
use crate::render::{json_str, problem_json, problem_line, Style};

/// `warning: --X is deprecated, use --Y`.
pub fn deprecated_line(d: &Deprecated, buf: &mut String, style: Style) -> fmt::Result {
    writeln!(
        buf,
        "{}warning{}: {} is deprecated, use {} ({FLAG_SOURCE})",
        style.yellow(),
        style.reset(),
        d.old,
        d.new
    )
}

/// `{"field", "message", "source"}` of an old spelling.
pub fn deprecated_json(d: &Deprecated, buf: &mut String) -> fmt::Result {
    buf.push_str("{\"field\":");
    json_str(buf, d.field)?;
    buf.push_str(",\"message\":");
    json_str(buf, format_args!("{} is deprecated, use {}", d.old, d.new))?;
    buf.push_str(",\"source\":");
    json_str(buf, FLAG_SOURCE)?;
    buf.push('}');
    Ok(())
}

/// The warnings of [`crate::args::scan::scan`]: stderr lines, and the JSON problems that may go
/// in a `--json` object.
#[derive(Debug, Default)]
pub struct ArgWarnings {
    /// One `warning: ...` line each.
    pub text: String,
    /// `(false, {"field", "message", "source"})` for the warnings that have a rule source.
    pub json: Vec<(bool, String)>,
}

/// Renders what the scan of a command line found.
pub fn scan_warnings(found: &Findings, style: Style) -> Result<ArgWarnings, fmt::Error> {
    let mut w = ArgWarnings::default();
    for alias in &found.aliases {
        problem_line(&mut w.text, alias, style)?;
        let mut j = String::new();
        problem_json(&mut j, alias)?;
        w.json.push((false, j));
    }
    for (name, values) in &found.repeated {
        write!(
            w.text,
            "{}warning{}: --{name} is given {} times",
            style.yellow(),
            style.reset(),
            values.len()
        )?;
        if values.iter().all(String::is_empty) {
            w.text.push('\n');
        } else {
            let last = values.last().map_or("", String::as_str);
            writeln!(
                w.text,
                " ({}); only the last, {last}, is used",
                values.join(", ")
            )?;
        }
    }
    Ok(w)
}
