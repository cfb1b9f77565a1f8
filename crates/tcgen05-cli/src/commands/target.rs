//! `--target` as the subcommands take it.

use std::fmt;

use tcgen05::Target;

use crate::args::value::TargetArg;
use crate::render::{Report, Style};

/// Resolves `--target`: a name without tcgen05 (sm_120*, sm_121*, unsuffixed) is a rule error.
pub fn resolve_target(
    t: TargetArg,
    rep: &mut Report,
    style: Style,
) -> Result<Option<Target>, fmt::Error> {
    match t.0 {
        Ok(t) => Ok(Some(t)),
        Err(e) => {
            rep.problems(&[e], style)?;
            Ok(None)
        }
    }
}
