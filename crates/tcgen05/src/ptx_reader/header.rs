//! The header lines `cuobjdump -ptx` writes before each module it prints (not PTX: the reader
//! skips them).

/// Length of a line `cuobjdump -ptx` writes between modules, at the start of `b` (through its
/// newline): `Fatbin ptx code:`, a rule of `=`, and the `key = value` lines of its header
/// (`arch = sm_100a`, `code version = [8,7]`, `host = linux`, `compile_size = 64bit`,
/// `compressed`, `ptxasOptions = ...`, `identifier = ...`).
pub(super) fn header_line(b: &[u8]) -> Option<usize> {
    // Only a line that starts like one is scanned, and at most 4 KiB of it: the reader stays
    // linear on long lines of many statements.
    let first = *b.first()?;
    if !matches!(first, b'F' | b'=' | b'a' | b'c' | b'h' | b'p' | b'i') {
        return None;
    }
    let window = &b[..b.len().min(4096)];
    let end = window
        .iter()
        .position(|&c| c == b'\n')
        .or((window.len() == b.len()).then_some(b.len()))?;
    let line = core::str::from_utf8(&b[..end]).ok()?.trim_end();
    let keys = [
        "arch =",
        "code version =",
        "host =",
        "compile_size =",
        "ptxasOptions =",
        "identifier =",
    ];
    let header = (line.starts_with("Fatbin ") && line.ends_with(" code:"))
        || (!line.is_empty() && line.bytes().all(|c| c == b'='))
        || line == "compressed"
        || keys.iter().any(|k| line.starts_with(k));
    header.then_some(end)
}
