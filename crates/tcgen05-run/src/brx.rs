//! `brx.idx` and `.branchtargets`: an indirect branch through a list of labels (PTX ISA,
//! "Control Flow Instructions: brx.idx", and the `.branchtargets` directive). Triton 3.9.0's
//! warp-specialised kernels dispatch each warp group to its partition this way.
//!
//! `brx.idx{.uni} index, tlist;`: `tlist` names a `.branchtargets` list declared in the body
//! (the label just before the directive); a thread branches to the `index`-th label (a `.u32`
//! register). An index past the list is undefined behaviour in the PTX text: the run stops
//! with an error naming the index and the list's length.

use crate::error::{invalid, RunError};

/// The labels of a `.branchtargets` directive (`.branchtargets L0, L1, ...;`), in order.
///
/// # Errors
/// [`RunError::Invalid`] for an empty list or a name that is not a label.
pub(crate) fn branch_targets(line: u32, text: &str) -> Result<Vec<String>, RunError> {
    let list = text
        .trim()
        .trim_start_matches(".branchtargets")
        .trim()
        .trim_end_matches(';');
    let labels: Vec<String> = list
        .split(',')
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    if labels.is_empty() {
        return Err(invalid(line, text, ".branchtargets lists no label"));
    }
    if let Some(bad) = labels.iter().find(|l| {
        !l.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_$%.".contains(c))
    }) {
        return Err(invalid(line, bad, "not a label in a .branchtargets list"));
    }
    Ok(labels)
}

/// The target of one thread's `brx.idx`: the `index`-th of `targets`.
///
/// # Errors
/// [`RunError::Invalid`] naming the index when it is past the list (undefined in PTX).
pub(crate) fn target(line: u32, targets: &[usize], index: u64) -> Result<usize, RunError> {
    let i = index as u32 as usize;
    targets.get(i).copied().ok_or_else(|| {
        invalid(
            line,
            &format!("brx.idx index {i} of a list of {}", targets.len()),
            "index past the .branchtargets list (undefined behaviour, PTX ISA brx.idx)",
        )
    })
}
