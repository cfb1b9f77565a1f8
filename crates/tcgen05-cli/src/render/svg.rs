//! SVG pictures written to files (`--svg FILE` of `layout` and `tmem`).

use std::fmt::{self, Write as _};
use std::path::Path;

use super::{Report, Status, Style};

/// Writes `svg` to `path`. A failure is an input/output error: an `error:` line on stderr and
/// exit status 2.
pub fn write_svg(rep: &mut Report, style: Style, path: &Path, svg: &str) -> fmt::Result {
    if let Err(e) = std::fs::write(path, svg) {
        writeln!(
            rep.err,
            "{}error{}: input/output: cannot write {}: {e}",
            style.red(),
            style.reset(),
            path.display()
        )?;
        rep.status = rep.status.max(Status::Usage);
    }
    Ok(())
}
