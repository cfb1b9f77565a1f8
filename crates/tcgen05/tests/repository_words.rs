//! The repository speaks of itself only: no absolute paths to places outside it (notes, the
//! shared spec), and no credits to people by issue or role; every ruling it cites
//! (`rules.md R10`, `rules.md R14-R17`) is a section of `docs/rules.md`, and nothing cites the
//! document the rulings were first written in. Every tracked text file is read.

use std::path::Path;
use std::process::Command;

use tcgen05::rules::decision;

/// Phrases that must not appear (built at run time so that this file does not match itself).
fn forbidden() -> Vec<String> {
    vec![
        ["/", "work", "/"].concat(),
        ["/", "home", "/"].concat(),
        ["'s hardware ", "engineer"].concat(),
        ["'s ", "engineer"].concat(),
        ["notes", "/issue"].concat(),
    ]
}

/// The tracked files, and the text of those that are text.
fn tracked() -> (Vec<String>, Vec<(String, String)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["ls-files", "-z"])
        .output()
        .expect("git ls-files");
    assert!(out.status.success(), "git ls-files failed");
    let files: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    // Binary files, and files deleted in the work tree, are not read.
    let texts = files
        .iter()
        .filter_map(|f| Some((f.clone(), std::fs::read_to_string(root.join(f)).ok()?)))
        .collect();
    (files, texts)
}

#[test]
fn no_outside_paths_or_credits() {
    let (files, texts) = tracked();
    assert!(files.len() > 50, "only {} tracked files", files.len());
    let words = forbidden();
    let mut hits = Vec::new();
    let read = texts.len();
    for (f, text) in &texts {
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for w in &words {
                if lower.contains(w.as_str()) {
                    hits.push(format!("{f}:{}: {line}", n + 1));
                }
            }
            // "issue N's ..." (N a number) credits a person by issue number.
            if let Some(i) = lower.find("issue ") {
                let rest = &lower[i + 6..];
                let digits = rest.chars().take_while(char::is_ascii_digit).count();
                if digits > 0 && rest[digits..].starts_with("'s") {
                    hits.push(format!("{f}:{}: {line}", n + 1));
                }
            }
        }
    }
    assert!(read > 50, "only {read} text files read");
    assert!(hits.is_empty(), "{}", hits.join("\n"));
}

/// The byte strings spelled by runs of consecutive `.b8 N` lines (the form LLVM's NVPTX back end
/// gives the DWARF sections, DW_AT_comp_dir included), split at each zero byte, with the line
/// each starts on. A text search cannot see a path spelled this way.
fn b8_strings(text: &str) -> Vec<(usize, Vec<u8>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<u8>)> = None;
    for (n, line) in text.lines().enumerate() {
        let byte = line
            .trim()
            .strip_prefix(".b8")
            .and_then(|rest| rest.split("//").next())
            .and_then(|v| v.trim().parse::<u8>().ok());
        match byte {
            Some(0) => out.extend(current.take()),
            Some(b) => current.get_or_insert_with(|| (n + 1, Vec::new())).1.push(b),
            None => out.extend(current.take()),
        }
    }
    out.extend(current);
    out
}

/// A byte string that names a place outside the repository: one of the forbidden paths, or
/// printable ASCII beginning with `/` (an absolute path).
fn absolute(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes).to_lowercase();
    let places = [["/", "tmp", "/"].concat(), ["/", "root", "/"].concat()];
    forbidden()[..2]
        .iter()
        .chain(&places)
        .any(|w| text.contains(w.as_str()))
        || (bytes.len() >= 3 && bytes[0] == b'/' && bytes.iter().all(|b| (0x20..0x7f).contains(b)))
}

#[test]
fn no_outside_paths_in_ptx_debug_bytes() {
    let (_, texts) = tracked();
    let mut ptx = 0;
    let mut strings = 0;
    let mut hits = Vec::new();
    for (f, text) in texts.iter().filter(|(f, _)| f.ends_with(".ptx")) {
        ptx += 1;
        for (line, bytes) in b8_strings(text) {
            strings += 1;
            if absolute(&bytes) {
                hits.push(format!("{f}:{line}: {}", String::from_utf8_lossy(&bytes)));
            }
        }
    }
    // Dozens of committed PTX files, the Triton ones with DWARF sections.
    assert!(ptx > 40, "only {ptx} PTX files read");
    assert!(strings > 100, "only {strings} .b8 strings decoded");
    assert!(
        hits.is_empty(),
        "absolute paths in .b8 bytes:\n{}",
        hits.join("\n")
    );
}

#[test]
fn b8_strings_decode_and_absolute_paths_are_found() {
    let text = ".b8 104 // DW_AT_comp_dir\n.b8 119\n.b8 0\n.b32 7\n.b8 47\n.b8 119\n.b8 111\n";
    let got = b8_strings(text);
    assert_eq!(got, vec![(1, b"hw".to_vec()), (5, b"/wo".to_vec())]);
    assert!(absolute(b"/opt/x") && absolute(&[b"/w".as_slice(), b"ork/a"].concat()));
    assert!(!absolute(b"hw/run") && !absolute(&[47, 29, 5]));
}

/// The numbers of `R<n>` and `R<n>-R<m>` at the start of `text`.
fn cited_numbers(text: &str) -> Vec<u8> {
    let number = |t: &str| -> (Option<u8>, usize) {
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        (digits.parse().ok(), digits.len())
    };
    let Some(rest) = text.strip_prefix('R') else {
        return Vec::new();
    };
    let (Some(first), len) = number(rest) else {
        return Vec::new();
    };
    let after = &rest[len..];
    match after.strip_prefix("-R").map(number) {
        Some((Some(last), _)) if last >= first => (first..=last).collect(),
        _ => vec![first],
    }
}

#[test]
fn every_cited_ruling_is_in_the_rules_document() {
    let old = ["decisions", ".md"].concat();
    let mut cited = 0;
    let mut bad = Vec::new();
    for (file, text) in tracked().1 {
        if text.contains(&old) {
            bad.push(format!("{file}: cites {old}"));
        }
        for (i, _) in text.match_indices("rules.md ") {
            for n in cited_numbers(&text[i + "rules.md ".len()..]) {
                cited += 1;
                if decision(n).is_none() {
                    bad.push(format!("{file}: rules.md R{n} is not in docs/rules.md"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The messages, tests and docs cite the rulings hundreds of times.
    assert!(cited > 200, "only {cited} citations found");
}

#[test]
fn ranges_expand() {
    assert_eq!(cited_numbers("R14-R17)"), vec![14, 15, 16, 17]);
    assert_eq!(cited_numbers("R3: never"), vec![3]);
    assert_eq!(cited_numbers("ruling"), Vec::<u8>::new());
}
