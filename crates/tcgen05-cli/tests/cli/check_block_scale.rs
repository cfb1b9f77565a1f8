//! `tcgen05 check` on block-scaled MMAs and the `tcgen05.cp`s that fill their scale factors
//! (PTX ISA 9.7.16.10.7; facebookexperimental/triton#3653).

use serde_json::Value;

use crate::run;

/// An mxf8f6f4 MMA, M = 128 with `.cta_group::2`, N = 128 (idesc 0x08a00000: N >> 3 = 16 at
/// bits 17-22, UE8M0 at bit 23, M >> 4 = 8 at bits 24-28), whose scale_B (columns 260-263)
/// was copied with `.32x128b.warpx4` (line 9): column 64 of B reads column 0's scale.
fn kernel(scale_b_cp: &str, sfa: &str) -> String {
    format!(
        ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<2>;\n\
         mov.b32 %r1, 0x08a00000;\n\
         tcgen05.cp.cta_group::2.32x128b.warpx4 [256], %rd10;\n\
         tcgen05.cp.cta_group::2.{scale_b_cp} [260], %rd11;\n\
         mov.b32 %r2, 0;\n\
         {sfa}\n\
         mov.b32 %r4, 260;\n\
         tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X [%r2], %rd1, %rd2, %r1, [%r3], [%r4], %p1;\n\
         ret;\n}}\n"
    )
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tcgen05-check-sf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn triton_3653_scale_b_copy_is_an_error_with_both_lines() {
    let p = write("3653.ptx", &kernel("32x128b.warpx4", "mov.b32 %r3, 256;"));
    let path = p.to_str().expect("utf-8 path");
    let r = run(&["check", "--json", path]);
    r.code(1);
    let v: Value = r.json();
    let mma = &v["files"][0]["instructions"][2];
    assert_eq!(mma["line"], 13, "{v}");
    let errors = mma["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{v}");
    let e = &errors[0];
    assert_eq!(e["rule"], "check.scale_cp_alias");
    assert_eq!(e["operand"], "scale_b");
    assert_eq!(e["line"], 9); // the cp
                              // The file declares .version 8.7: the section in that manual's numbering.
    assert_eq!(e["source"], "PTX ISA 8.7 §9.7.16.10.7");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("index 64")),
        "{e}"
    );
    // SARIF names the rule with its statement.
    let s = run(&["check", "--sarif", "-", path]);
    let sarif: Value = s.json();
    let rules = &sarif["runs"][0]["tool"]["driver"]["rules"];
    assert!(
        rules
            .as_array()
            .is_some_and(|a| a.iter().any(|r| r["id"] == "check.scale_cp_alias")),
        "{sarif}"
    );
    // `.64x128b.warpx2::01_23` puts scale_B where layout B reads it: clean.
    let p = write(
        "fixed.ptx",
        &kernel("64x128b.warpx2::01_23", "mov.b32 %r3, 256;"),
    );
    run(&["check", p.to_str().expect("utf-8 path")]).code(0);
}

#[test]
fn an_unknown_scale_address_is_counted_not_guessed() {
    let p = write(
        "unknown.ptx",
        &kernel("64x128b.warpx2::01_23", "ld.shared.b32 %r3, [%rd5];"),
    );
    let r = run(&["check", p.to_str().expect("utf-8 path")]);
    r.code(0);
    assert!(
        r.stdout.contains(
            "1 scale operand of block-scaled MMAs not checked against a tcgen05.cp: Tensor Memory address or instruction descriptor not known at compile time\n"
        ),
        "{}",
        r.stdout
    );
}
