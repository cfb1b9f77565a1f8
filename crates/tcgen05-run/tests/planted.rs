//! Planted bugs: every kernel of `hw/run/ptx` is mutated by rules written here from the PTX
//! text (never from the checker's output), one bug per copy, and the hazard checker must find
//! each at the mutated line with the kind the mutation implies. Line numbers are kept: a deleted
//! instruction becomes an empty line, an inserted one shares the mutated line.
//!
//! Classes: delete a `fence.proxy.async` (missing-proxy-fence straddling the line); change an
//! `mbarrier.init` count by one (mbarrier-count at the init); change an `expect_tx` byte count
//! by 16 (expect-tx at the arrive); wait on the other phase parity (wait-parity at the wait);
//! delete a `bar.sync` that publishes shared-memory stores or a proxy fence (data-race
//! straddling the line).

mod common;

use common::hopper_cases::{cases, ptx};
use tcgen05_run::hazard::{check, Finding, HazardKind, Options};
use tcgen05_run::Module;

/// Where a planted bug must be reported.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// A finding of this kind at this line.
    At(HazardKind, u32),
    /// A finding of this kind whose two lines are on both sides of this (deleted) line.
    Straddle(HazardKind, u32),
}

struct Plant {
    class: &'static str,
    kernel: &'static str,
    ptx: String,
    expect: Expect,
}

fn with_line(lines: &[&str], i: usize, new: &str) -> String {
    let mut out: Vec<String> = lines.iter().map(|s| (*s).to_string()).collect();
    out[i] = new.to_string();
    out.join("\n") + "\n"
}

/// Replaces the last number before the final `;` of an instruction line by `f(number)`.
fn last_number(line: &str, f: impl Fn(u64) -> u64) -> Option<String> {
    let semi = line.rfind(';')?;
    let head = &line[..semi];
    let start = head.rfind(|c: char| !c.is_ascii_digit())? + 1;
    let n: u64 = head[start..].parse().ok()?;
    Some(format!("{}{}{}", &head[..start], f(n), &line[semi..]))
}

/// Every planted bug of one kernel.
fn plants(kernel: &'static str, text: &str) -> Vec<Plant> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut add = |class, ptx, expect| {
        out.push(Plant {
            class,
            kernel,
            ptx,
            expect,
        })
    };
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let t = t.strip_prefix('@').map_or(t, |r| {
            r.split_once(char::is_whitespace)
                .map_or(r, |x| x.1.trim_start())
        });
        let line = i as u32 + 1;
        if t.starts_with("fence.proxy.async") {
            add(
                "fence.proxy.async deleted",
                with_line(&lines, i, ""),
                Expect::Straddle(HazardKind::MissingProxyFence, line),
            );
        }
        if t.starts_with("mbarrier.init") {
            for (d, class) in [
                (1i64, "mbarrier.init count + 1"),
                (-1, "mbarrier.init count - 1"),
            ] {
                if let Some(m) = last_number(l, |n| (n as i64 + d) as u64) {
                    add(
                        class,
                        with_line(&lines, i, &m),
                        Expect::At(HazardKind::MbarrierCount, line),
                    );
                }
            }
        }
        if t.starts_with("mbarrier.arrive.expect_tx") {
            for (d, class) in [
                (16i64, "expect_tx bytes + 16"),
                (-16, "expect_tx bytes - 16"),
            ] {
                if let Some(m) = last_number(l, |n| (n as i64 + d) as u64) {
                    add(
                        class,
                        with_line(&lines, i, &m),
                        Expect::At(HazardKind::ExpectTx, line),
                    );
                }
            }
        }
        if t.starts_with("mbarrier.try_wait.parity") || t.starts_with("mbarrier.test_wait.parity") {
            let semi = l.rfind(';').unwrap_or(l.len());
            let comma = l[..semi].rfind(',').unwrap_or(0);
            let reg = l[comma + 1..semi].trim();
            let m = format!(
                ".reg .b32 %flip; xor.b32 %flip, {reg}, 1; {}, %flip;",
                l[..comma].trim()
            );
            add(
                "wait on the other parity",
                with_line(&lines, i, &m),
                Expect::At(HazardKind::WaitParity, line),
            );
        }
        let publishes = lines[i.saturating_sub(3)..i].iter().any(|p| {
            let p = p.trim_start();
            p.starts_with("st.shared") || p.starts_with("fence.proxy.async")
        });
        if t.starts_with("bar.sync") && publishes {
            add(
                "bar.sync deleted",
                with_line(&lines, i, ""),
                Expect::Straddle(HazardKind::DataRace, line),
            );
        }
    }
    out
}

fn matches(e: Expect, f: &Finding) -> bool {
    match e {
        Expect::At(k, line) => f.kind == k && f.line == line,
        Expect::Straddle(k, line) => {
            f.kind == k
                && f.other_line.is_some_and(|o| {
                    let (lo, hi) = (o.min(f.line), o.max(f.line));
                    lo < line && line < hi
                })
        }
    }
}

#[test]
fn planted_bugs_are_found_at_their_lines() {
    let mut rows = Vec::new();
    let mut missed = Vec::new();
    for c in cases() {
        for p in plants(c.name, &ptx(c.name)) {
            let module = Module::read(&p.ptx).unwrap_or_else(|e| panic!("{}: {e}", p.kernel));
            let mut args = c.args.clone();
            let report = check(&module, c.name, &c.config(), &mut args, &Options::default())
                .unwrap_or_else(|e| panic!("{} {}: {e}", p.kernel, p.class));
            let found = report.findings.iter().any(|f| matches(p.expect, f));
            rows.push(format!(
                "{:<28} {:<10} {:?}: {}",
                p.class,
                p.kernel,
                p.expect,
                if found { "found" } else { "MISSED" }
            ));
            if !found {
                missed.push(format!(
                    "{} {} {:?}: {:#?}",
                    p.kernel, p.class, p.expect, report.findings
                ));
            }
        }
    }
    eprintln!("{}", rows.join("\n"));
    assert!(rows.len() >= 20, "{} planted bugs", rows.len());
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}
