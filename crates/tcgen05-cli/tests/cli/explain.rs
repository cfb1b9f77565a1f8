//! `explain`: rulings and rules by the names messages print. Expected text is read from the
//! repository's `docs/rules.md` by this test, not from the command's core.

use std::collections::BTreeSet;

use super::run;

fn document() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules.md"))
        .expect("docs/rules.md")
}

/// The rulings of the document: (name, title) of each `### X<n>. Title` heading.
fn headings(doc: &str) -> Vec<(String, String)> {
    doc.lines()
        .filter_map(|l| l.strip_prefix("### "))
        .filter_map(|h| h.split_once(". "))
        .filter(|(n, _)| {
            n.len() >= 2
                && n.starts_with(['R', 'E', 'D', 'T', 'C', 'I'])
                && n[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

/// The identifiers of the document's rule index: the first cell of each index row.
fn index_ids(doc: &str) -> BTreeSet<String> {
    let index = doc
        .split_once("<!-- rule-index:start -->")
        .expect("index")
        .1;
    index
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(id, _)| id.to_string())
        .collect()
}

#[test]
fn a_ruling_prints_its_section_of_the_document() {
    let doc = document();
    let (head, body) = doc.split_once("### R19. ").expect("R19 in docs/rules.md");
    assert!(!head.is_empty());
    let title = body.lines().next().expect("title");
    let first_line = body.lines().nth(1).expect("first line");
    for name in ["R19", "r19", "rules.md R19"] {
        let r = run(&["explain", name]);
        r.code(0);
        assert!(
            r.stdout.starts_with(&format!("R19. {title}")),
            "{}",
            r.stdout
        );
        assert!(r.stdout.contains(first_line), "{}", r.stdout);
        assert!(r.stderr.is_empty(), "{}", r.stderr);
    }
}

#[test]
fn a_rule_prints_its_source_statement_and_ruling() {
    let r = run(&["explain", "PTX.WS_CTA_GROUP"]);
    r.code(0);
    let first = r.stdout.lines().next().expect("a line");
    assert!(
        first.starts_with("ptx.ws_cta_group ") && first.contains("rules.md R16"),
        "{first}"
    );
    assert!(r.stdout.contains("R16. `.ws`"), "{}", r.stdout);
    let v = run(&["explain", "--json", "ptx.ws_cta_group"]).json();
    assert_eq!(v["rules"][0]["id"], "ptx.ws_cta_group");
    assert_eq!(v["rules"][0]["severity"], "error");
    assert_eq!(v["rules"][0]["ruling"], "R16");
    assert_eq!(v["rulings"][0]["name"], "R16");
    // A rule of the checker, by the id its findings carry in JSON and SARIF.
    let v = run(&["explain", "--json", "check.tmem_columns"]).json();
    assert_eq!(v["rules"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["rules"][0]["source"], "PTX ISA 9.7.16.7.1");
}

#[test]
fn an_unknown_name_exits_2_naming_close_ones() {
    let r = run(&["explain", "idesc.reserved_bits"]);
    r.code(2);
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("error: rule = idesc.reserved_bits: ")
            && lines[0].contains("close: idesc.reserved_bit"),
        "{}",
        lines[0]
    );
    let r = run(&["explain", "--json", "R99"]);
    r.code(2);
    let v = r.json();
    assert_eq!(v["valid"], false);
    assert_eq!(v["errors"][0]["field"], "rule");
    assert_eq!(v["errors"][0]["value"], "R99");
    assert!(v["errors"][0]["close"].is_array());
}

#[test]
fn the_list_is_every_ruling_and_every_rule_of_the_document() {
    let doc = document();
    let v = run(&["explain", "--json"]).json();
    let names: Vec<String> = v["rulings"]
        .as_array()
        .expect("rulings")
        .iter()
        .map(|r| r["name"].as_str().expect("name").to_string())
        .collect();
    let want: Vec<String> = headings(&doc).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, want);
    assert!(want.len() >= 24 + 11 + 6 + 2, "{want:?}");
    let ids: BTreeSet<String> = v["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect();
    assert_eq!(ids, index_ids(&doc));
    let text = run(&["explain"]);
    text.code(0);
    for (name, title) in headings(&doc) {
        assert!(
            text.stdout.contains(&format!("  {name:<4} {title}\n")),
            "{name}"
        );
    }
}

/// Every ruling that the errors of a few failing commands cite can be explained.
#[test]
fn every_ruling_errors_cite_explains() {
    let runs = [
        run(&["decode", "smem", "0x6000000000004040"]),
        // The README's example: R11 and R14.
        run(&[
            "encode",
            "idesc",
            "--kind",
            "i8",
            "--m",
            "128",
            "--n",
            "40",
            "--d-type",
            "s32",
            "--a-type",
            "s8",
            "--b-type",
            "s8",
            "--negate-a",
        ]),
        run(&[
            "encode", "idesc", "--kind", "f16", "--m", "128", "--n", "64", "--d-type", "f16",
            "--a-type", "bf16", "--b-type", "bf16",
        ]),
        run(&["decode", "idesc", "0xffffffff"]),
        run(&["shapes", "--target", "sm_120a"]),
    ];
    let mut cited = BTreeSet::new();
    for r in &runs {
        for part in r.stderr.split("rules.md R").skip(1) {
            let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
            cited.insert(format!("R{digits}"));
        }
    }
    assert!(cited.len() >= 5, "{cited:?}");
    for name in &cited {
        run(&["explain", name]).code(0);
    }
}

/// Every rule of the document's index explains as exactly its one row, whatever table holds it
/// (the descriptors', `ptx`'s, the numerics', the checker's or the emulator's).
#[test]
fn every_rule_of_the_index_explains_as_its_one_row() {
    let ids = index_ids(&document());
    assert!(ids.len() > 200, "{}", ids.len());
    for id in &ids {
        let r = run(&["explain", "--json", id]);
        r.code(0);
        let v = r.json();
        let rows = v["rules"].as_array().expect("rules");
        assert_eq!(rows.len(), 1, "{id}: {rows:?}");
        assert_eq!(rows[0]["id"], id.as_str());
        assert!(
            !rows[0]["statement"].as_str().unwrap_or("").is_empty(),
            "{id}"
        );
    }
}

/// The hazard kinds of the interpreter's README table (`| \`kind\` | what |` rows of its
/// Hazards section, read here): `explain --json` lists exactly them, and `explain KIND` (also
/// as SARIF's `hazard.KIND`) prints each with its source.
#[test]
fn every_hazard_kind_of_the_readme_explains_and_no_other() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tcgen05-run/README.md"
    ))
    .expect("crates/tcgen05-run/README.md");
    let section = readme
        .split_once("## Hazards")
        .expect("Hazards section")
        .1
        .split_once("\n## ")
        .map_or("", |s| s.0);
    let table = section
        .split_once("| kind | what |")
        .expect("kind table")
        .1
        .split("\n\n")
        .next()
        .unwrap_or("");
    let kinds: BTreeSet<String> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(k, _)| k.to_string())
        .collect();
    assert!(kinds.len() >= 16, "{kinds:?}");
    let v = run(&["explain", "--json"]).json();
    let listed: BTreeSet<String> = v["hazards"]
        .as_array()
        .expect("hazards")
        .iter()
        .map(|h| h["kind"].as_str().expect("kind").to_string())
        .collect();
    assert_eq!(listed, kinds);
    for k in &kinds {
        let r = run(&["explain", k]);
        r.code(0);
        assert!(
            r.stdout.starts_with(&format!("{k} (hazard kind")) && r.stdout.lines().count() == 2,
            "{}",
            r.stdout
        );
        let j = run(&["explain", "--json", &format!("hazard.{k}")]).json();
        assert_eq!(j["hazards"][0]["kind"], k.as_str());
    }
    run(&["explain", "data_race"]).code(2);
}
