//! The repository speaks of itself only: no absolute paths to places outside it (notes, the
//! shared spec), and no credits to people by issue or role. Every tracked text file is read.

use std::path::Path;
use std::process::Command;

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

#[test]
fn no_outside_paths_or_credits() {
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
    assert!(files.len() > 50, "only {} tracked files", files.len());
    let words = forbidden();
    let mut hits = Vec::new();
    let mut read = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(root.join(f)) else {
            continue; // binary, or deleted in the work tree
        };
        read += 1;
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
