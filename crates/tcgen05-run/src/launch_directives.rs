//! The directives of an `.entry` header that bound how the kernel may be launched (PTX ISA,
//! "Performance-Tuning Directives": `.maxntid`, `.reqntid`; "Cluster Dimension Directives":
//! `.maxclusterrank`; `.reqnctapercluster` and `.explicitcluster` are read by
//! [`crate::cluster`]). A launch of the whole file (`hazard::check_module`) takes its block
//! size from them; a plain run does not need them.

use crate::error::{invalid, RunError};

/// What a kernel's header declares about its launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchDirectives {
    /// `.reqntid X[, Y[, Z]]`: the block shape every launch must have.
    pub reqntid: Option<[u32; 3]>,
    /// `.maxntid X[, Y[, Z]]`: the largest block a launch may have (the product of its
    /// dimensions bounds the threads).
    pub maxntid: Option<[u32; 3]>,
    /// `.maxclusterrank N`: the most CTAs a cluster of a launch may have.
    pub maxclusterrank: Option<u32>,
}

/// The integers after `directive` in `text` (the header after its parameter list), up to the
/// next directive or the end: `None` when the directive is absent.
fn numbers(line: u32, text: &str, directive: &str) -> Result<Option<Vec<u32>>, RunError> {
    let Some(at) = text.find(directive) else {
        return Ok(None);
    };
    let rest = &text[at + directive.len()..];
    if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        // A longer directive name that begins with this one.
        return Ok(None);
    }
    let end = rest.find(['.', '{']).unwrap_or(rest.len());
    let parts: Vec<&str> = rest[..end].split(',').map(str::trim).collect();
    let mut out = Vec::with_capacity(parts.len());
    for p in &parts {
        let v = p
            .parse::<u32>()
            .ok()
            .filter(|&v| v >= 1)
            .ok_or_else(|| invalid(line, p, "a launch directive needs positive integers"))?;
        out.push(v);
    }
    Ok(Some(out))
}

/// A block shape of 1 to 3 dimensions, missing ones 1.
fn shape(line: u32, text: &str, directive: &str) -> Result<Option<[u32; 3]>, RunError> {
    let Some(v) = numbers(line, text, directive)? else {
        return Ok(None);
    };
    if v.is_empty() || v.len() > 3 {
        return Err(invalid(line, text, "takes 1 to 3 dimensions"));
    }
    let mut d = [1u32; 3];
    d[..v.len()].copy_from_slice(&v);
    Ok(Some(d))
}

/// Reads the launch directives of a kernel header: `text` is the header after the kernel's
/// name (its parameter list is skipped).
///
/// # Errors
/// [`RunError::Invalid`] for a directive whose operands are not 1 to 3 positive integers.
pub(crate) fn header(line: u32, text: &str) -> Result<LaunchDirectives, RunError> {
    // The directives follow the parameter list's closing parenthesis.
    let after = text.rfind(')').map_or(text, |i| &text[i + 1..]);
    let rank = match numbers(line, after, ".maxclusterrank")? {
        None => None,
        Some(v) if v.len() == 1 => Some(v[0]),
        Some(_) => return Err(invalid(line, text, ".maxclusterrank takes one integer")),
    };
    Ok(LaunchDirectives {
        reqntid: shape(line, after, ".reqntid")?,
        maxntid: shape(line, after, ".maxntid")?,
        maxclusterrank: rank,
    })
}

#[cfg(test)]
mod tests {
    use super::header;

    #[test]
    fn reads_the_directives_after_the_parameter_list() {
        let d = header(
            1,
            "(.param .u64 .ptr .align 16 a) .maxntid 128, 2, 1 .maxclusterrank 8",
        )
        .expect("read");
        assert_eq!(d.maxntid, Some([128, 2, 1]));
        assert_eq!(d.reqntid, None);
        assert_eq!(d.maxclusterrank, Some(8));
        let d = header(1, "(.param .u32 n)\n.reqntid 384\n").expect("read");
        assert_eq!(d.reqntid, Some([384, 1, 1]));
        assert!(header(1, "() .reqntid 0").is_err());
        assert!(header(1, "() .reqntid 1, 2, 3, 4").is_err());
    }
}
