//! Warnings about the command line itself, found before it is run: a target given by its
//! earlier name (`sm_101a`, an alias of `sm_110a`: rules.md R17) and a flag given more than
//! once, of which only the last value counts.

use std::ffi::OsString;

use clap::{ArgAction, CommandFactory};
use tcgen05::targets::{Target, TargetAlias};

use super::Cli;

/// What [`scan`] found, in the order its warnings are given.
#[derive(Debug, Default)]
pub struct Findings {
    /// Each `--target` given by an earlier name, in command-line order.
    pub aliases: Vec<TargetAlias>,
    /// Each flag given more than once, with its values as typed (empty for a switch), in the
    /// order first seen.
    pub repeated: Vec<(String, Vec<String>)>,
}

/// Scans the arguments (without the program name) of a command line that parsed.
pub fn scan(args: &[OsString]) -> Findings {
    let mut found = Findings::default();
    let root = Cli::command();
    let mut cmd = &root;
    // (flag, values as typed) in the order first seen.
    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let Some(tok) = args[i].to_str() else {
            i += 1;
            continue;
        };
        i += 1;
        if tok == "--" {
            break;
        }
        let Some(flag) = tok.strip_prefix("--") else {
            if !tok.starts_with('-') {
                if let Some(sub) = cmd.find_subcommand(tok) {
                    cmd = sub;
                }
            }
            continue;
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        let arg = cmd
            .get_arguments()
            .chain(root.get_arguments())
            .find(|a| a.get_long() == Some(name));
        let Some(arg) = arg else { continue };
        let takes_value = matches!(arg.get_action(), ArgAction::Set | ArgAction::Append);
        let value = match inline {
            Some(v) => v,
            None if takes_value && i < args.len() => {
                i += 1;
                args[i - 1].to_string_lossy().into_owned()
            }
            None => String::new(),
        };
        if name == "target" {
            if let Some(alias) = Target::alias_of(&value.trim_ascii().to_ascii_lowercase()) {
                found.aliases.push(alias);
            }
        }
        if matches!(arg.get_action(), ArgAction::Append | ArgAction::Count) {
            continue;
        }
        match seen.iter_mut().find(|(n, _)| n == name) {
            Some((_, values)) => values.push(value),
            None => seen.push((name.to_string(), vec![value])),
        }
    }
    seen.retain(|(_, values)| values.len() > 1);
    found.repeated = seen;
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn finds_aliases_and_repeated_flags_in_order() {
        let found = scan(&args(&[
            "decode",
            "smem",
            "0x10",
            "--target",
            "SM_101A",
            "--target=sm_101f",
            "--json",
            "--json",
        ]));
        let names: Vec<&str> = found.aliases.iter().map(|a| a.name).collect();
        assert_eq!(names, ["sm_101a", "sm_101f"]);
        assert_eq!(
            found.repeated,
            [
                (
                    "target".to_string(),
                    vec!["SM_101A".to_string(), "sm_101f".to_string()]
                ),
                ("json".to_string(), vec![String::new(), String::new()]),
            ]
        );
        let quiet = scan(&args(&["shapes", "--kind", "f16", "--", "--kind"]));
        assert!(quiet.aliases.is_empty() && quiet.repeated.is_empty());
    }
}
