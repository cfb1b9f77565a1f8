//! `shapes`: Table 39 per target (rules.md R14-R17).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::run;

fn list(args: &[&str]) -> Vec<Value> {
    let r = run(&[&["shapes", "--json"][..], args].concat());
    r.code(0);
    let v = r.json();
    let a = v.as_array().expect("a JSON array").clone();
    let mut seen = BTreeSet::new();
    for e in &a {
        let o = e.as_object().expect("object");
        let keys: Vec<&str> = o.keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 7, "{e}");
        for k in ["kind", "cta_group", "ws", "sparse", "m", "n", "k"] {
            assert!(o.contains_key(k), "{k} in {e}");
        }
        assert!(seen.insert(e.to_string()), "duplicate {e}");
    }
    a
}

#[test]
fn default_target_is_sm_100a() {
    let all = list(&[]);
    assert_eq!(all, list(&["--target", "sm_100a"]));
    assert!(all.iter().any(|e| e["kind"] == "i8"));
    assert!(all.iter().all(|e| e["k"] != 96), "K = 96 is sm_103a only");
    // R14 examples: i8 N = 24 with cta_group::1; f16 M = 128 any multiple of 8.
    assert!(all
        .iter()
        .any(|e| e["kind"] == "i8" && e["cta_group"] == 1 && e["n"] == 24));
    assert!(!all
        .iter()
        .any(|e| e["kind"] == "i8" && e["cta_group"] == 1 && e["n"] == 40));
    assert!(all
        .iter()
        .any(|e| e["kind"] == "f16" && e["m"] == 128 && e["n"] == 8));
}

#[test]
fn targets_differ() {
    let f = list(&["--target", "sm_100f"]);
    assert!(
        !f.iter().any(|e| e["kind"] == "i8"),
        "i8 only on sm_100a and sm_110a"
    );
    assert!(
        !f.iter().any(|e| e["kind"] == "mxf4" && e["sparse"] == true),
        "sparse mxf4 only on a targets"
    );
    let a103 = list(&["--target", "sm_103a"]);
    let k96: Vec<_> = a103.iter().filter(|e| e["k"] == 96).collect();
    assert!(!k96.is_empty());
    assert!(k96
        .iter()
        .all(|e| e["cta_group"] == 2 && e["m"] == 256 && e["sparse"] == false));
    assert_eq!(
        list(&["--target", "sm_101a"]),
        list(&["--target", "sm_110a"])
    );
}

#[test]
fn filters() {
    let ws = list(&["--ws"]);
    assert!(!ws.is_empty());
    for e in &ws {
        assert_eq!(e["ws"], true);
        assert_eq!(e["cta_group"], 1);
        assert!([32, 64, 128].contains(&e["m"].as_u64().expect("m")));
        assert!([64, 128, 256].contains(&e["n"].as_u64().expect("n")));
        assert!(!e["kind"].as_str().expect("kind").starts_with("mx"), "R16");
    }
    let not_ws = list(&["--ws=false"]);
    assert!(not_ws.iter().all(|e| e["ws"] == false));
    assert_eq!(ws.len() + not_ws.len(), list(&[]).len());
    let sparse = list(&["--kind", "f16", "--cta-group", "2", "--sparse"]);
    assert!(sparse
        .iter()
        .all(|e| e["kind"] == "f16" && e["cta_group"] == 2 && e["sparse"] == true && e["k"] == 32));
    assert!(list(&["--kind", "mxf4", "--ws"]).is_empty());
}

#[test]
fn human_and_errors() {
    let r = run(&["shapes", "--kind", "i8"]);
    r.code(0);
    assert!(
        r.stdout.contains("8, 16, 24, 32, then 48..=256 step 16"),
        "{}",
        r.stdout
    );
    let r = run(&["shapes", "--target", "sm_121a"]);
    r.code(1);
    assert!(r
        .stderr
        .starts_with("error: target: no tcgen05 on consumer Blackwell"));
    assert!(r.stderr.contains("rules.md R17"));
    assert!(r.stdout.is_empty());
    run(&["shapes", "--target", "sm_90a"]).code(2);
    run(&["shapes", "--kind", "f64"]).code(2);
    run(&["shapes", "--cta-group", "3"]).code(2);
    run(&["shapes", "--ws=maybe"]).code(2);
}
