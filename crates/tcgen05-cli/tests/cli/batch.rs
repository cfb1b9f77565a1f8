//! Batch mode: one value per line of stdin, one result per line of stdout (policy in `--help`).

use serde_json::Value;

use crate::run_stdin;

const SMEM_VALID: &str =
    "0x4000404000010040\n0x0000400800800040\n0x4000408000400040\n0x2000410000200040\n";

#[test]
fn every_decoder_in_both_modes() {
    for (what, input, extra) in [
        ("smem", SMEM_VALID, &[][..]),
        ("idesc", "0x08100490\n0x04020000\n0x084004a8\n", &[][..]),
        (
            "idesc",
            "0x08a00480\n0x08400480\n",
            &["--kind", "mxf4nvf4"][..],
        ),
        (
            "zmask",
            "0x0003028000000000\n0x0203028301020100\n",
            &["--m", "32", "--n", "128"][..],
        ),
        ("zmask", "0x0003028000000000\n", &[][..]),
    ] {
        let count = input.lines().count();
        let human = run_stdin(
            &[&["decode", what, "-"][..], extra].concat(),
            input.as_bytes(),
        );
        human.code(0);
        assert_eq!(human.stdout.lines().count(), count, "{}", human.stdout);
        for (line, value) in human.stdout.lines().zip(input.lines()) {
            assert!(line.starts_with(value), "{line} should start with {value}");
            assert!(line.contains(" valid"), "{line}");
        }
        assert!(human.stderr.is_empty(), "{}", human.stderr);
        let json = run_stdin(
            &[&["decode", what, "-", "--json"][..], extra].concat(),
            input.as_bytes(),
        );
        json.code(0);
        let objs = json.json_lines();
        assert_eq!(objs.len(), count);
        for (o, value) in objs.iter().zip(input.lines()) {
            assert_eq!(o["hex"], value);
        }
    }
}

#[test]
fn batch_json_matches_single_value_json() {
    for v in SMEM_VALID
        .lines()
        .chain(["0x6000000000004040", "0xffffffffffffffff"])
    {
        let single = crate::run(&["decode", "smem", v, "--json"]).json();
        let batch = run_stdin(
            &["decode", "smem", "-", "--json"],
            format!("{v}\n").as_bytes(),
        );
        assert_eq!(batch.json_lines(), vec![single]);
    }
    for v in ["0x08100490", "0xffffffff", "0"] {
        let single = crate::run(&["decode", "idesc", v, "--json"]).json();
        let batch = run_stdin(&["decode", "idesc", "-", "--json"], v.as_bytes());
        assert_eq!(batch.json_lines(), vec![single]);
    }
}

#[test]
fn invalid_values_exit_1_and_are_counted() {
    let r = run_stdin(
        &["decode", "smem", "-"],
        b"0x4000404000010040\n0x6000000000004040\n",
    );
    r.code(1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[1].starts_with("0x6000000000004040 invalid "));
    assert!(lines[1].contains(" | error: bit 14 = 1: "));
    assert_eq!(
        r.stderr_lines(),
        ["error: 1 of 2 values break a rule (see their result lines)"]
    );
    let r = run_stdin(&["decode", "idesc", "-", "--json"], b"0xffffffff\n");
    r.code(1);
    assert_eq!(r.json_lines()[0]["kinds"], serde_json::json!([]));
}

#[test]
fn unreadable_lines_keep_alignment_and_exit_2() {
    let input = b"0x4000404000010040\n\n   \n0xzz\n-1\n0x1_0000_0000_0000_0000\n\xff\xfe\x00\x01\n0x6000000000004040\r\n";
    let r = run_stdin(&["decode", "smem", "-", "--json"], input);
    r.code(2);
    let objs = r.json_lines();
    assert_eq!(objs.len(), 8);
    assert_eq!(objs[0]["valid"], true);
    for (i, o) in objs.iter().enumerate().take(7).skip(1) {
        assert_eq!(o["line"], i + 1, "{o}");
        assert_eq!(o["valid"], false);
        assert!(o["error"].as_str().is_some_and(|e| !e.is_empty()));
        assert!(o.get("input").is_some());
    }
    assert_eq!(objs[7]["hex"], "0x6000000000004040");
    let err = r.stderr_lines();
    assert_eq!(
        err.iter().filter(|l| l.starts_with("error: line ")).count(),
        6
    );
    assert!(
        err.contains(&"error: 6 of 8 lines are not numbers"),
        "{}",
        r.stderr
    );
    // Human mode: the same alignment.
    let h = run_stdin(&["decode", "smem", "-"], input);
    h.code(2);
    let lines: Vec<&str> = h.stdout.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(
        lines[1],
        "\"\" unreadable: empty value (expected a number such as 0x1f or 31)"
    );
    assert!(
        lines[6].starts_with("\"\\xff\\xfe\\x00\\x01\" unreadable: "),
        "{}",
        lines[6]
    );
    // idesc: a 33-bit value is unreadable.
    let r = run_stdin(&["decode", "idesc", "-", "--json"], b"0x1_0000_0000\n");
    r.code(2);
    assert!(r.json_lines()[0]["error"]
        .as_str()
        .is_some_and(|e| e.contains("32 bits")));
}

#[test]
fn empty_input() {
    for what in ["smem", "idesc", "zmask"] {
        let r = run_stdin(&["decode", what, "-"], b"");
        r.code(0);
        assert!(r.stdout.is_empty());
        assert_eq!(r.stderr_lines(), ["warning: no values on standard input"]);
    }
}

/// A little pseudo-random generator, so the test needs no crate and is the same every run.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn binary_garbage_never_panics() {
    let mut s = 0x9E37_79B9_7F4A_7C15;
    let mut garbage = Vec::new();
    for _ in 0..20_000 {
        garbage.push((xorshift(&mut s) >> 24) as u8);
    }
    // A very long line without a newline, too.
    garbage.extend(std::iter::repeat_n(b'7', 100_000));
    for what in ["smem", "idesc", "zmask"] {
        for json in [false, true] {
            let args = if json {
                vec!["decode", what, "-", "--json"]
            } else {
                vec!["decode", what, "-"]
            };
            let r = run_stdin(&args, &garbage);
            r.code(2);
            let lines = garbage.split(|&b| b == b'\n').count();
            assert_eq!(r.stdout.lines().count(), lines);
            if json {
                r.json_lines();
            }
        }
    }
}

#[test]
fn random_values_give_well_formed_json() {
    let mut s = 0x1234_5678_9abc_def1;
    let values: String = (0..3000)
        .map(|i| {
            let v = xorshift(&mut s);
            // Mix raw noise with values close to valid ones.
            let v = if i % 2 == 0 {
                v
            } else {
                v & 0xe3ff_3fff_3fff_3fff | 1 << 46
            };
            format!("{v:#x}\n")
        })
        .collect();
    let idesc: String = values
        .lines()
        .map(|l| format!("{}\n", &l[..l.len().min(10)]))
        .collect();
    for (what, input, extra) in [
        ("smem", &values, &[][..]),
        (
            "zmask",
            &values,
            &["--m", "64", "--n", "128", "--max-shift", "16"][..],
        ),
        ("idesc", &idesc, &[][..]),
        (
            "idesc",
            &idesc,
            &["--kind", "mxf8f6f4", "--cta-group", "2"][..],
        ),
    ] {
        let r = run_stdin(
            &[&["decode", what, "-", "--json"][..], extra].concat(),
            input.as_bytes(),
        );
        assert!(r.code == 0 || r.code == 1, "{r:?}");
        let objs: Vec<Value> = r.json_lines();
        assert_eq!(objs.len(), 3000);
        for o in &objs {
            assert!(o["hex"].is_string(), "{o}");
        }
        let h = run_stdin(
            &[&["decode", what, "-"][..], extra].concat(),
            input.as_bytes(),
        );
        assert_eq!(h.code, r.code);
        assert_eq!(h.stdout.lines().count(), 3000);
    }
}

#[test]
fn many_blocks_keep_input_order_whatever_the_thread_count() {
    // More lines than one block of the reader (4096), with unreadable lines in later blocks.
    let mut s = 0x0bad_cafe_f00d_u64;
    let mut input = String::new();
    for i in 0..10_000u32 {
        match i {
            5000 | 9999 => input.push_str("not a number\n"),
            _ => input.push_str(&format!(
                "{:#x}\n",
                xorshift(&mut s) & 0x7fff_3fff_3fff_3fff
            )),
        }
    }
    for args in [
        ["decode", "smem", "-", "--json"],
        ["decode", "zmask", "-", "--json"],
    ] {
        let one = crate::run_stdin_env(&args, input.as_bytes(), &[("TCGEN05_THREADS", "1")]);
        let four = crate::run_stdin_env(&args, input.as_bytes(), &[("TCGEN05_THREADS", "4")]);
        one.code(2);
        assert_eq!(one.stdout, four.stdout);
        assert_eq!(one.stderr, four.stderr);
        let objs = one.json_lines();
        assert_eq!(objs.len(), 10_000);
        for (o, line) in objs.iter().zip(input.lines()) {
            match o.get("hex") {
                Some(h) => assert_eq!(
                    u64::from_str_radix(&h.as_str().expect("hex")[2..], 16).ok(),
                    u64::from_str_radix(&line[2..], 16).ok()
                ),
                None => assert_eq!(o["input"], line),
            }
        }
        assert_eq!(objs[5000]["line"], 5001);
        assert!(
            one.stderr.contains("error: line 5001: \"not a number\": "),
            "{}",
            one.stderr
        );
        assert!(one.stderr.contains("error: line 10000: "), "{}", one.stderr);
    }
}

/// `| head`: the reader closes standard output after one line; the command stops quietly with
/// exit status 0 (the documented status), without a message and without hanging.
#[test]
fn a_closed_output_ends_quietly_with_status_0() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("tcgen05"))
        .args(["decode", "idesc", "-", "--kind", "f16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        // Far more than any pipe buffer; the writes fail once the command has gone.
        for _ in 0..200_000 {
            if stdin.write_all(b"0x08100490\n").is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut first).expect("first line");
    assert!(first.starts_with("0x08100490"), "{first}");
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An absurd thread count is capped with a warning (it once took 50 s and crashed).
#[test]
fn thread_count_is_capped() {
    let input = "0x08100490\n".repeat(1000);
    let r = crate::run_stdin_env(
        &["decode", "idesc", "-", "--kind", "f16"],
        input.as_bytes(),
        &[("TCGEN05_THREADS", "1000000")],
    );
    r.code(0);
    assert_eq!(r.stdout.lines().count(), 1000);
    assert_eq!(
        r.stderr_lines(),
        ["warning: TCGEN05_THREADS = \"1000000\": more than 256 threads; using 256"]
    );
}
