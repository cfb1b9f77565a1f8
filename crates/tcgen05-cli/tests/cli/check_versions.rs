//! `tcgen05 check` on files of PTX ISA 9.2 to 9.5 and the `sm_107a` / `sm_107f` targets: each
//! file is checked at its own version, and every source is cited in the numbering of the
//! manual the file declares (docs/ptx-9.5.md).

use serde_json::Value;

use crate::run;

/// A `.kind::i8` MMA (line 7) and a `.kind::f16` one (line 8) with an immediate instruction
/// descriptor whose sparsity bit (bit 2) is set without `.sp`.
fn kernel(version: &str, target: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .b32 %r<10>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n\
         tcgen05.mma.cta_group::1.kind::i8 [%r1], %rd1, %rd2, %r3, %p1;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, 0x04100494, %p1;\n\
         ret;\n}}\n"
    )
}

fn check(version: &str, target: &str) -> Value {
    let dir = std::env::temp_dir().join(format!("tcgen05-check-v-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(format!("{target}-{version}.ptx"));
    std::fs::write(&p, kernel(version, target)).expect("write");
    let r = run(&["check", "--json", p.to_str().expect("utf-8 path")]);
    r.code(1);
    r.json()
}

/// The (rule, source) of every error of instruction `i`.
fn errors(v: &Value, i: usize) -> Vec<(String, String)> {
    v["files"][0]["instructions"][i]["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["rule"].as_str().expect("rule").to_string(),
                e["source"].as_str().expect("source").to_string(),
            )
        })
        .collect()
}

#[test]
fn sm_107a_at_9_4_and_9_5_has_no_kind_i8_and_cites_the_9_4_numbering() {
    // PTX ISA 9.4 Table 72 lists .kind::i8 for sm_100a and sm_110a only; ptxas 13.5 refuses it
    // on sm_107a ("Feature '.kind::i8' not supported on .target 'sm_107a'"). The immediate
    // descriptor's sparsity bit without .sp is PTX ISA 9.3 §9.7.16.4.2, §9.7.18.4.2 in the PTX
    // ISA 9.4 section tree.
    for version in ["9.4", "9.5"] {
        let v = check(version, "sm_107a");
        assert_eq!(v["files"][0]["target"], "sm_107a", "{v}");
        assert_eq!(
            errors(&v, 0),
            [("ptx.kind_not_on_target".into(), "rules.md R17".into())],
            "{v}"
        );
        assert_eq!(
            errors(&v, 1),
            [(
                "ptx.sparse_mismatch".into(),
                "PTX ISA 9.4 §9.7.18.4.2".into()
            )],
            "{v}"
        );
        // No "above the model" warning for 9.4 and 9.5.
        let warned = v["files"][0]["instructions"]
            .as_array()
            .expect("instructions")
            .iter()
            .any(|i| !i["warnings"].as_array().expect("warnings").is_empty());
        assert!(!warned, "{v}");
    }
}

#[test]
fn older_files_cite_the_9_7_16_numbering_and_sm_107_needs_9_4() {
    let v = check("9.2", "sm_100a");
    assert!(errors(&v, 0).is_empty(), "{v}");
    assert_eq!(
        errors(&v, 1),
        [(
            "ptx.sparse_mismatch".into(),
            "PTX ISA 9.2 §9.7.16.4.2".into()
        )],
        "{v}"
    );
    // PTX ISA 9.4 Table 71: sm_107f first appears in 9.4 (ptxas 13.5: "PTX .version 9.3 does
    // not support .target sm_107a").
    let v = check("9.3", "sm_107f");
    let e = errors(&v, 1);
    assert!(
        e.contains(&("ptx.version_too_low".into(), "PTX ISA 9.3 §9.7.16".into())),
        "{v}"
    );
}
