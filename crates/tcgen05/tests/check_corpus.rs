//! The check corpus: real kernels compiled by pinned compilers (conformance/kernels/run.sh).
//!
//! For every PTX file of `$TCGEN05_KERNELS_DIR` (with its `.json` of kernel parameters written
//! by the generator):
//! - `check` finds no error, except those the parameters list as expected
//!   (`expected_errors`: rule, field and a phrase the message must say), each of which it must
//!   find (Triton's NVFP4 kernel with uint8 scales sets bit 24, reserved on sm_100a, and the
//!   message must name it UE5M3);
//! - every `tcgen05.mma` instruction descriptor is recovered in full, and decodes under the
//!   instruction's `.kind` to the kernel's M, N and element types (the expected side is the
//!   kernel's source parameters, not this crate), with the scale type and K = 96 where the
//!   parameters give them (the bits of expected errors cleared first);
//! - five mutations of the file each give an error whose line is the mutated line: the idesc
//!   constant with M field code 3 (M = 48 under Table 42), a reserved idesc bit set, the sparse
//!   bit set without `.sp`, B's shared memory descriptor with bit 46 cleared, and with swizzle
//!   code 3.
//!
//!
//! The grammar round trip (issue 23) runs on the same corpus: every tcgen05 line parses with
//! `tcgen05::ptx::parse` and writes back as written (up to whitespace and `+ 0` offsets), and
//! its qualifiers dropped, doubled, swapped and misspelled are refused by the rule they break.
//!
//! Ignored by `cargo test`: it needs the generated corpus, and `run.sh` runs it with
//! `--ignored` (failing when the directory is missing, never skipping).
#![cfg(feature = "alloc")]

mod grammar_common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tcgen05::check::{self, dataflow, Options};
use tcgen05::instruction_descriptor::{self as idesc, IdescField, InstructionDescriptor};
use tcgen05::mma::{ElementType, Kind};
use tcgen05::ptx_reader::{self, Operand};
use tcgen05::Severity;

fn params(path: &Path) -> BTreeMap<String, serde_json::Value> {
    let text = std::fs::read_to_string(path.with_extension("json")).expect("kernel parameters");
    serde_json::from_str(&text).expect("JSON")
}

fn corpus() -> Vec<PathBuf> {
    let dir = std::env::var("TCGEN05_KERNELS_DIR")
        .expect("TCGEN05_KERNELS_DIR must name the generated corpus (conformance/kernels/run.sh)");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no PTX in {dir}");
    v
}

/// The first MMA's idesc and B-descriptor operands and the function they are in.
struct Site {
    idesc_line: u32,
    b_line_46: u32,
    b_line_61: u32,
    b_shift_46: u32,
    b_shift_61: u32,
    kind: Kind,
}

fn site(text: &[u8]) -> Site {
    let m = ptx_reader::read(text);
    for f in &m.functions {
        let Some(mma) = f
            .instructions
            .iter()
            .find(|i| i.opcode.starts_with("tcgen05.mma"))
        else {
            continue;
        };
        let regs = dataflow::analyse(f);
        let name = |o: &Operand<'_>| match o {
            Operand::Name(n) => n.to_string(),
            other => panic!("operand {other:?}"),
        };
        let kind = mma
            .qualifiers()
            .find_map(|q| q.strip_prefix("kind::").and_then(Kind::from_name))
            .expect("kind");
        let idesc = name(&mma.operands[3]);
        let b = name(&mma.operands[2]);
        let bv = regs.get(&b);
        let origin = |bit: u32| {
            bv.origins()
                .iter()
                .rev()
                .find(|o| o.mask >> bit & 1 == 1)
                .copied()
                .expect("origin of a descriptor bit")
        };
        let (o46, o61) = (origin(46), origin(61));
        return Site {
            idesc_line: regs.def_line(&idesc).expect("one idesc definition"),
            b_line_46: o46.line,
            b_line_61: o61.line,
            b_shift_46: o46.mask.trailing_zeros(),
            b_shift_61: o61.mask.trailing_zeros(),
            kind,
        };
    }
    panic!("no tcgen05.mma");
}

/// Replaces the immediate of `line` (its last operand) with `f(old)`.
fn mutate(text: &str, line: u32, f: impl Fn(u64) -> u64) -> String {
    let mut out = String::new();
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line as usize {
            let (head, tail) = l.rsplit_once(',').expect("operands");
            let (imm, rest) = tail.split_once(';').expect(";");
            let one = format!("mov.b32 %r0, {};", imm.trim());
            let ins = ptx_reader::read_instruction(&one).expect("immediate");
            let Operand::Imm(old) = ins.operands[1] else {
                panic!("not an immediate: {l}")
            };
            out.push_str(&format!("{head}, {};{rest}", f(old)));
        } else {
            out.push_str(l);
        }
    }
    out
}

/// A mutation: its name, the line it changes and how it changes the immediate.
type Mutation = (&'static str, u32, Box<dyn Fn(u64) -> u64>);

fn type_name(t: ElementType) -> &'static str {
    t.name()
}

#[test]
#[ignore = "needs the generated kernel corpus: run conformance/kernels/run.sh"]
fn corpus_kernels_check_clean_and_mutations_are_found() {
    let files = corpus();
    let (mut mmas, mut instructions, mut mutations, mut expected_errors) = (0, 0, 0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).expect("PTX");
        let p = params(path);
        let report = check::check(text.as_bytes(), &Options::default());
        assert!(
            report.read_problems.is_empty(),
            "{path:?}: {:?}",
            report.read_problems
        );
        let expected: Vec<(String, String, String)> = p
            .get("expected_errors")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .map(|e| {
                        let f = |k: &str| e[k].as_str().expect("expected error entry").to_string();
                        (f("rule"), f("field"), f("says"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut seen = vec![0usize; expected.len()];
        // Bits the expected errors name (`bit N`), cleared before decoding.
        let mut cleared = 0u32;
        for (_, field, _) in &expected {
            if let Some(b) = field
                .strip_prefix("bit ")
                .and_then(|b| b.parse::<u32>().ok())
            {
                cleared |= 1 << b;
            }
        }
        for i in &report.instructions {
            instructions += 1;
            let errors: Vec<String> = i
                .errors()
                .filter(|e| {
                    let text = e.to_string();
                    let hit = expected.iter().position(|(r, f, says)| {
                        e.rule_id() == r && e.field == f && text.contains(says.as_str())
                    });
                    if let Some(k) = hit {
                        seen[k] += 1;
                    }
                    hit.is_none()
                })
                .map(|e| format!("{}: {e}", e.field))
                .collect();
            assert!(
                errors.is_empty(),
                "{path:?}:{}: {} {errors:?}",
                i.line,
                i.instruction
            );
            if !i.instruction.starts_with("tcgen05.mma") {
                continue;
            }
            mmas += 1;
            let kind = i.kind.expect("kind");
            assert_eq!(kind.name(), p["kind"], "{path:?}:{}", i.line);
            let v = i
                .idesc
                .unwrap_or_else(|| panic!("{path:?}:{}: idesc not recovered", i.line));
            let f = InstructionDescriptor::decode(v & !cleared, kind)
                .fields
                .expect("valid idesc");
            if let Some(st) = p.get("scale_type") {
                let got = f.scale_type.map(|t| t.name());
                assert_eq!(got, st.as_str(), "{path:?}:{} scale type of {v:#x}", i.line);
            }
            if let Some(k) = p.get("k") {
                assert_eq!(f.k96, k == 96, "{path:?}:{} K bit of {v:#x}", i.line);
            }
            assert_eq!(u64::from(f.m), p["m"], "{path:?}:{} M of {v:#x}", i.line);
            assert_eq!(u64::from(f.n), p["n"], "{path:?}:{} N of {v:#x}", i.line);
            assert_eq!(type_name(f.a_type), p["a_type"], "{path:?}:{}", i.line);
            assert_eq!(type_name(f.b_type), p["b_type"], "{path:?}:{}", i.line);
            assert_eq!(type_name(f.d_type), p["d_type"], "{path:?}:{}", i.line);
            if let Some(g) = p.get("cta_group") {
                let q = format!(".cta_group::{g}.");
                assert!(
                    i.instruction.contains(&q),
                    "{path:?}:{} {}",
                    i.line,
                    i.instruction
                );
            }
        }
        for (k, (rule, field, says)) in expected.iter().enumerate() {
            assert!(
                seen[k] > 0,
                "{path:?}: the expected error {rule} {field} ('{says}') was not found"
            );
            expected_errors += seen[k];
        }
        // Mutations.
        let s = site(text.as_bytes());
        let m_row = idesc::row(s.kind, IdescField::M).expect("M row");
        let sparse_row = idesc::row(s.kind, IdescField::Sparse).expect("sparse row");
        let reserved = idesc::reserved_mask(s.kind).trailing_zeros();
        let cases: [Mutation; 5] = [
            (
                "M field code 3",
                s.idesc_line,
                Box::new(move |v| m_row.set(v, 3)),
            ),
            (
                "reserved idesc bit",
                s.idesc_line,
                Box::new(move |v| v | 1 << reserved),
            ),
            (
                "sparse bit without .sp",
                s.idesc_line,
                Box::new(move |v| sparse_row.set(v, 1)),
            ),
            (
                "smem bit 46 cleared",
                s.b_line_46,
                Box::new({
                    let b = 46 - s.b_shift_46;
                    move |v| v & !(1u64 << b)
                }),
            ),
            (
                "smem swizzle code 3",
                s.b_line_61,
                Box::new({
                    let b = 61 - s.b_shift_61;
                    move |v| (v & !(7u64 << b)) | (3u64 << b)
                }),
            ),
        ];
        for (what, line, f) in &cases {
            let bad = mutate(&text, *line, f);
            let r = check::check(bad.as_bytes(), &Options::default());
            let hit = r.instructions.iter().any(|i| {
                i.findings
                    .iter()
                    .any(|e| e.severity == Severity::Error && e.line == *line)
            });
            assert!(
                hit,
                "{path:?}: mutation '{what}' of line {line} gives no error at that line"
            );
            mutations += 1;
        }
    }
    println!(
        "corpus: {} files, {instructions} tcgen05 instructions ({mmas} tcgen05.mma) with 0 errors but the {expected_errors} expected; {mutations} mutations each found at their line",
        files.len()
    );
}

#[test]
#[ignore = "needs the generated kernel corpus: run conformance/kernels/run.sh"]
fn corpus_lines_parse_and_write_back() {
    let files = corpus();
    let mut t = grammar_common::Tally::default();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("PTX");
        t.add_text(&f.display().to_string(), &text);
    }
    println!(
        "corpus: grammar round trip: {} files, {} tcgen05 lines, {} written back as written; {} qualifier mutations refused by their rule",
        files.len(),
        t.lines,
        t.round_tripped,
        t.mutations_refused
    );
    assert!(t.failures.is_empty(), "{}", t.failures.join("\n"));
    assert_eq!(t.round_tripped, t.lines);
    assert!(t.lines > 0);
}
