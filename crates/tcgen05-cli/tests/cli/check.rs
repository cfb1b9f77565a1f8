//! `tcgen05 check`: exit statuses, the exact JSON shape of the issue, SARIF 2.1.0, stdin.

use serde_json::Value;

use crate::{run, run_stdin};

/// A kernel with one clean MMA (line 9) and one whose idesc has M = 48 (line 11, defined on 10).
const PTX: &str = ".version 8.8
.target sm_100a
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;
  mov.b64 %rd1, 0x4000404000010040;
  mov.b32 %r1, 0x08100490;
  tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;
  mov.b32 %r3, 0x03100490;
  tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r3, %p1;
  ret;
}
";

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect();
    k.sort_unstable();
    k
}

fn write(name: &str, text: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tcgen05-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn json_has_exactly_the_documented_shape_and_exit_1_on_errors() {
    let p = write("two.ptx", PTX.as_bytes());
    let path = p.to_str().expect("utf-8 path");
    let r = run(&["check", "--json", path]);
    r.code(1);
    let v = r.json();
    assert_eq!(keys(&v), ["errors", "files", "instructions", "warnings"]);
    assert_eq!(v["instructions"], 2);
    assert_eq!(v["errors"], 1);
    let f = &v["files"][0];
    assert_eq!(
        keys(f),
        ["instructions", "path", "smem_descriptors", "target"]
    );
    // Four descriptors (a and b of two MMAs), all constants: every field known.
    assert_eq!(
        f["smem_descriptors"],
        serde_json::json!({"total": 4, "known_but_start_address": 4, "partly_unknown": 0, "assumed_r7": 0})
    );
    assert_eq!(f["target"], "sm_100a");
    let ins = f["instructions"].as_array().expect("array");
    assert_eq!(ins.len(), 2);
    for i in ins {
        assert_eq!(
            keys(i),
            [
                "a_desc",
                "b_desc",
                "errors",
                "idesc",
                "instruction",
                "line",
                "warnings"
            ]
        );
        assert_eq!(i["instruction"], "tcgen05.mma.cta_group::1.kind::f16");
        assert_eq!(keys(&i["a_desc"]), ["known", "value"]);
        assert_eq!(i["a_desc"]["known"], "0xffffffffffffffff");
        assert_eq!(i["a_desc"]["value"], "0x4000404000010040");
    }
    assert_eq!(ins[0]["line"], 9);
    assert_eq!(ins[0]["idesc"], "0x08100490");
    assert_eq!(ins[0]["errors"].as_array().map(Vec::len), Some(0));
    assert_eq!(ins[1]["line"], 11);
    assert_eq!(ins[1]["idesc"], "0x03100490");
    let e = &ins[1]["errors"][0];
    assert_eq!(
        keys(e),
        ["field", "line", "message", "operand", "rule", "source"]
    );
    assert_eq!(e["line"], 10);
    assert_eq!(e["operand"], "idesc");
    assert_eq!(e["rule"], "idesc.m_not_in_table_39");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("M = 48")),
        "{e}"
    );
}

#[test]
fn text_exit_statuses_and_stdin() {
    let clean = PTX.replace("0x03100490", "0x08100490");
    let r = run_stdin(&["check", "-"], clean.as_bytes());
    r.code(0);
    assert!(
        r.stdout.contains(
            "2 instructions checked, 0 errors, 0 warnings\n\
             4 shared memory descriptors: 4 with every field but the start address known, 0 left partly unknown\n"
        ),
        "{}",
        r.stdout
    );
    let r = run_stdin(&["check", "-"], PTX.as_bytes());
    r.code(1);
    assert!(r.stdout.contains("<stdin>:11:"), "{}", r.stdout);
    assert!(r.stdout.contains("[value from line 10]"), "{}", r.stdout);
    // Unreadable input: a missing file, and bytes with no PTX in them, exit 2 (JSON too).
    let r = run(&["check", "no-such-file.ptx"]);
    r.code(2);
    let junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x80)
        .collect();
    let r = run_stdin(&["check", "--json", "-"], &junk);
    r.code(2);
    let v = r.json();
    assert!(v["files"][0]["error"].is_string(), "{v}");
}

#[test]
fn sarif_is_2_1_0_with_one_result_per_finding() {
    let p = write("sarif.ptx", PTX.as_bytes());
    let out = write("out.sarif", b"");
    let r = run(&[
        "check",
        "--sarif",
        out.to_str().expect("utf-8"),
        p.to_str().expect("utf-8"),
    ]);
    r.code(1);
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("sarif written"))
        .expect("SARIF is JSON");
    assert_eq!(s["version"], "2.1.0");
    assert!(
        s["$schema"].as_str().is_some_and(|u| u.contains("sarif")),
        "{s}"
    );
    let run0 = &s["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "tcgen05");
    let results = run0["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{s}");
    let res = &results[0];
    assert_eq!(res["level"], "error");
    assert!(res["ruleId"].is_string());
    assert!(res["message"]["text"]
        .as_str()
        .is_some_and(|m| m.contains("M = 48")));
    let loc = &res["locations"][0]["physicalLocation"];
    assert!(loc["artifactLocation"]["uri"]
        .as_str()
        .is_some_and(|u| u.ends_with("sarif.ptx")));
    assert_eq!(loc["region"]["startLine"], 11);
}
