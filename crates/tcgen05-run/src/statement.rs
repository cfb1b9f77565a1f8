//! Splits PTX text into statements (PTX ISA 4): directives, instructions, labels and braces,
//! each with its line. Comments are removed first (kept as spaces so lines stay where they
//! are); `.section` blocks (DWARF debug data) are skipped whole.

/// One statement of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stmt<'a> {
    /// `{`.
    Open,
    /// `}`.
    Close,
    /// `name:`.
    Label(&'a str),
    /// A directive (text from its `.` to its end, without `;`).
    Directive(&'a str),
    /// An instruction (text with its `;`).
    Instruction(&'a str),
}

/// Directives that end at the end of their line (they take no `;`, PTX ISA 11).
const LINE_DIRECTIVES: [&str; 5] = [".version", ".target", ".address_size", ".loc", ".file"];

/// The source with every comment replaced by spaces (newlines kept).
pub(crate) fn strip_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            in_string = c != b'"';
            out.push(c);
            i += 1;
        } else if c == b'"' {
            in_string = true;
            out.push(c);
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            out.extend_from_slice(b"  ");
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            if i < b.len() {
                out.extend_from_slice(b"  ");
                i += 2;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes, and comment bytes were replaced whole.
    String::from_utf8(out).unwrap_or_default()
}

/// The statements of comment-free PTX text, each with its 1-based line.
pub(crate) fn statements(src: &str) -> Vec<(u32, Stmt<'_>)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let start_line = line;
        let end = match c {
            b'{' => {
                out.push((line, Stmt::Open));
                i += 1;
                continue;
            }
            b'}' => {
                out.push((line, Stmt::Close));
                i += 1;
                continue;
            }
            b'.' => directive_end(b, i),
            _ => {
                if let Some(n) = label_len(&b[i..]) {
                    let name = src[i..i + n].trim_end_matches(':').trim_end();
                    out.push((line, Stmt::Label(name)));
                    i += n;
                    continue;
                }
                find(b, i, b';')
            }
        };
        let text = src[start..end].trim();
        line += count_newlines(&b[start..end.min(b.len())]);
        // Step over a `;`; a line directive's newline and a header's `{` are read next.
        i = if b.get(end) == Some(&b';') {
            end + 1
        } else {
            end
        };
        if c == b'.' {
            out.push((start_line, Stmt::Directive(text)));
            if text.starts_with(".section") {
                // The block after `.section` holds debug data, not PTX statements.
                let (skip_to, lines) = skip_block(b, i);
                line += lines;
                i = skip_to;
            }
        } else {
            // The core's reader takes an instruction with its `;`.
            let with_semi = src[start..(end + 1).min(b.len())].trim();
            out.push((start_line, Stmt::Instruction(with_semi)));
        }
    }
    out
}

fn count_newlines(b: &[u8]) -> u32 {
    u32::try_from(b.iter().filter(|&&c| c == b'\n').count()).unwrap_or(u32::MAX)
}

/// Index of the first `want` at or after `i` (the end of the text if none).
fn find(b: &[u8], i: usize, want: u8) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == want)
        .map_or(b.len(), |p| i + p)
}

/// Where a directive starting at `i` ends: its line for line directives and `.section`, the
/// `{` of a function header, or its `;`.
fn directive_end(b: &[u8], i: usize) -> usize {
    let word_end = b[i..]
        .iter()
        .position(|c| c.is_ascii_whitespace())
        .map_or(b.len(), |p| i + p);
    let word = &b[i..word_end];
    if LINE_DIRECTIVES.iter().any(|d| d.as_bytes() == word) || word == b".section" {
        return find(b, i, b'\n');
    }
    // A function header (`.visible .entry f( ... ) .reqntid 128 {`) ends before its body's `{`
    // or, for a declaration, at its `;`.
    let semi = find(b, i, b';');
    let brace = find(b, i, b'{');
    let header = std::str::from_utf8(&b[i..semi.min(brace)]).is_ok_and(|t| {
        t.split_ascii_whitespace()
            .any(|w| w == ".entry" || w == ".func")
    });
    if header && brace < semi {
        return brace;
    }
    semi
}

/// Skips whitespace and one balanced `{ ... }` block from `i`; returns the index after it and
/// the newlines passed.
fn skip_block(b: &[u8], mut i: usize) -> (usize, u32) {
    let mut lines = 0;
    while i < b.len() && b[i].is_ascii_whitespace() {
        lines += u32::from(b[i] == b'\n');
        i += 1;
    }
    if b.get(i) != Some(&b'{') {
        return (i, lines);
    }
    let mut depth = 0u32;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return (i + 1, lines);
                }
            }
            b'\n' => lines += 1,
            _ => {}
        }
        i += 1;
    }
    (i, lines)
}

/// Length of a label `name:` at the start of `b`, colon included.
fn label_len(b: &[u8]) -> Option<usize> {
    let first = *b.first()?;
    if !(first.is_ascii_alphabetic() || matches!(first, b'_' | b'$' | b'%')) {
        return None;
    }
    let mut i = 1;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$')) {
        i += 1;
    }
    let mut j = i;
    while j < b.len() && matches!(b[j], b' ' | b'\t') {
        j += 1;
    }
    (b.get(j) == Some(&b':') && b.get(j + 1) != Some(&b':')).then_some(j + 1)
}
