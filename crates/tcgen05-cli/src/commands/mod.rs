//! What each subcommand does: it reads its arguments ([`crate::args`]), computes through the
//! `tcgen05` crate and hands the result to [`crate::render`]. One module per subcommand (the
//! three descriptors each have one for `decode`, `encode` and `solve`), [`batch`] for the
//! one-value-per-line mode of the decoders, [`problem`] for what the command finds itself.

pub mod batch;
pub mod check;
pub mod command_line;
pub mod emulate;
pub mod idesc;
pub mod layout;
pub mod numerics;
pub mod problem;
pub mod ptx;
pub mod shapes;
pub mod smem;
pub mod tmem;
pub mod zmask;

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
