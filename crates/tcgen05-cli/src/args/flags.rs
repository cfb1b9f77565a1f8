//! One convention for flags across subcommands (README.md, "Flags: one convention"):
//!
//! - `--ws` and `--sparse` are switches everywhere, and everywhere also take `=true` / `=false`;
//!   the sparsity-metadata register of `ptx mma` is `--sparse-meta REG`.
//! - `--num` is written `4`, `x4` or `.x4` in `tmem ld/st` and `ptx ld/st` alike.
//! - The scale vector is `--scale-vec` with its PTX names (`1X`, `2X`, `4X`, `block16`, ...).
//! - Names (kinds, types, swizzles, targets, shapes, ...) are read in any case.
//! - A number too big for its field is a rule error: exit status 1, in every subcommand.
//!
//! The spellings used before stay accepted: [`rewrite`] turns them into the new ones before
//! clap sees the command line, with a `warning: --X is deprecated, use --Y` each.

use std::ffi::OsString;

use clap::CommandFactory;

use super::Cli;

/// One old spelling found on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deprecated {
    /// The flag as a JSON key (`vec`, `sparse`).
    pub field: &'static str,
    /// The old spelling, as typed.
    pub old: String,
    /// What to write instead.
    pub new: String,
}

/// The subcommand path (`["tmem", "sf"]`) of a command line.
fn path_of(args: &[OsString]) -> Vec<String> {
    let root = Cli::command();
    let mut cmd = &root;
    let mut path = Vec::new();
    for a in args {
        let Some(t) = a.to_str() else { continue };
        if t == "--" {
            break;
        }
        if t.starts_with('-') {
            continue;
        }
        match cmd.find_subcommand(t) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                cmd = sub;
            }
            None => break,
        }
    }
    path
}

/// A bare `1`, `2` or `4` as a scale vector: the old `tmem sf --vec` spelling of `1X` ...
fn bare_scale_vec(v: &str) -> Option<&'static str> {
    match v.trim_ascii() {
        "1" => Some("1X"),
        "2" => Some("2X"),
        "4" => Some("4X"),
        _ => None,
    }
}

/// Rewrites the old spellings of a command line (without the program name) into the new ones.
pub fn rewrite(args: Vec<OsString>) -> (Vec<OsString>, Vec<Deprecated>) {
    let path = path_of(&args);
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let mut out = Vec::with_capacity(args.len() + 2);
    let mut found = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let tok = args[i].to_str().map(str::to_string);
        i += 1;
        let Some(tok) = tok else {
            out.push(args[i - 1].clone());
            continue;
        };
        if tok == "--" {
            out.extend(args[i - 1..].iter().cloned());
            break;
        }
        let (name, inline) = match tok.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (tok.as_str(), None),
        };
        match (path.as_slice(), name) {
            // ptx mma --sparse REG / --sparse=REG: the metadata register has its own flag.
            (["ptx", "mma"], "--sparse") => {
                let reg = match inline {
                    Some(v) if !matches!(v.as_str(), "true" | "false") => Some(v),
                    Some(_) => None,
                    None => match args.get(i).and_then(|a| a.to_str()) {
                        Some(n) if !n.starts_with('-') => {
                            i += 1;
                            Some(n.to_string())
                        }
                        _ => None,
                    },
                };
                match reg {
                    Some(r) => {
                        found.push(Deprecated {
                            field: "sparse",
                            old: format!("--sparse {r}"),
                            new: format!("--sparse --sparse-meta {r}"),
                        });
                        out.push("--sparse".into());
                        out.push("--sparse-meta".into());
                        out.push(r.into());
                    }
                    None => out.push(tok.into()),
                }
            }
            // tmem sf --vec V: the scale vector is --scale-vec, as in ptx mma.
            (["tmem", "sf"], "--vec" | "--scale-vec") => {
                let value = match inline {
                    Some(v) => Some(v),
                    None => {
                        let v = args.get(i).and_then(|a| a.to_str()).map(str::to_string);
                        if v.is_some() {
                            i += 1;
                        }
                        v
                    }
                };
                let Some(v) = value else {
                    out.push(tok.into());
                    continue;
                };
                let new_v = bare_scale_vec(&v).map_or_else(|| v.clone(), str::to_string);
                if name == "--vec" || new_v != v {
                    found.push(Deprecated {
                        field: "scale_vec",
                        old: format!("{name} {v}"),
                        new: format!("--scale-vec {new_v}"),
                    });
                }
                out.push("--scale-vec".into());
                out.push(new_v.into());
            }
            _ => out.push(tok.into()),
        }
    }
    (out, found)
}
