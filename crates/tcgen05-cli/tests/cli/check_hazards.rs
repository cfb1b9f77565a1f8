//! `tcgen05 check --hazards`: every kernel of a file run under the hazard checker with the
//! launch its header declares. The committed Triton GEMM (`.reqntid 128`) is clean; a copy
//! without its `tcgen05.wait::ld` (the line left empty, so every other line keeps its number)
//! has a `dealloc-in-use` finding at its `tcgen05.dealloc`, with the ld's line (the load's read
//! of Tensor Memory is outstanding there), and none at the first later line naming one of the
//! `tcgen05.ld`'s destination registers (the register dependency orders that use, rules.md
//! I12), in text, JSON and SARIF, and exits 1 (the lines computed here from the PTX text); a
//! kernel taking tensor maps, one without a launch size and
//! one launched against its `.reqntid` are each reported as not checked, naming the piece.

use std::path::PathBuf;

use serde_json::Value;

use super::run;

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

const GEMM: &str = "examples/kernels/triton_gemm_bf16.ptx";

/// Whether `line` is the instruction `opcode` (a guard allowed).
fn is_op(line: &str, opcode: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix('@').map_or(t, |r| {
        r.split_once(char::is_whitespace)
            .map_or(r, |x| x.1.trim_start())
    });
    t.starts_with(opcode)
}

/// Whether `line` names register `r` as a whole token.
fn names(line: &str, r: &str) -> bool {
    line.match_indices(r).any(|(at, _)| {
        !line[at + r.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The planted copy's path, its ld's line, its dealloc's line and the line of the first read
/// of a destination register after the deleted wait (1-based).
fn planted() -> (String, u64, u64, u64) {
    let text = std::fs::read_to_string(repo(GEMM)).expect("read the kernel");
    let mut lines: Vec<&str> = text.lines().collect();
    let ld = (0..lines.len())
        .find(|&i| is_op(lines[i], "tcgen05.ld"))
        .expect("a tcgen05.ld");
    let wait = (ld..lines.len())
        .find(|&i| is_op(lines[i], "tcgen05.wait::ld"))
        .expect("its wait::ld");
    let l = lines[ld];
    let regs: Vec<String> = l[l.find('{').expect("{") + 1..l.find('}').expect("}")]
        .split(',')
        .map(|r| r.trim().to_string())
        .collect();
    let read = (wait + 1..lines.len())
        .find(|&j| regs.iter().any(|r| names(lines[j], r)))
        .expect("a read of the loaded registers");
    let dealloc = (wait..lines.len())
        .find(|&i| is_op(lines[i], "tcgen05.dealloc"))
        .expect("a tcgen05.dealloc");
    lines[wait] = "";
    let dir = std::env::temp_dir().join(format!("tcgen05-chz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("gemm_no_wait.ptx");
    std::fs::write(&path, lines.join("\n") + "\n").expect("write the copy");
    (
        path.to_string_lossy().into_owned(),
        ld as u64 + 1,
        dealloc as u64 + 1,
        read as u64 + 1,
    )
}

#[test]
fn clean_gemm_has_no_hazards_with_the_block_of_its_reqntid() {
    let text = std::fs::read_to_string(repo(GEMM)).expect("read");
    assert!(text.lines().any(|l| l.trim() == ".reqntid 128"));
    let r = run(&["check", "--hazards", &repo(GEMM)]);
    r.code(0);
    assert!(
        r.stdout
            .contains("dot_kernel: 0 hazard(s) over 1 run(s) (grid 1,1,1, block 128,1,1"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("hazards: 0 in 1 kernel(s) checked"),
        "{}",
        r.stdout
    );
    let j = run(&["check", "--hazards", "--json", &repo(GEMM)])
        .code(0)
        .json();
    assert_eq!(j["hazards"], 0);
    let f = &j["files"][0];
    assert_eq!(f["hazards"].as_array().map(Vec::len), Some(0));
    let k = &f["hazard_kernels"][0];
    assert_eq!(k["kernel"], "dot_kernel");
    assert_eq!(k["checked"], true);
    assert_eq!(k["block"], serde_json::json!([128, 1, 1]));
    // `.param .u32 dot_kernel_param_3` gets 128, the `.ptr` parameters buffers.
    assert_eq!(k["args"][3]["value"], "128");
    assert_eq!(k["args"][0]["value"], "buffer of 1048576 bytes");
}

#[test]
fn deleted_wait_ld_is_found_at_the_dealloc_in_text_json_and_sarif() {
    let (path, ld, dealloc, read) = planted();
    let r = run(&["check", "--hazards", &path]);
    r.code(1);
    let expect = format!("{path}:{dealloc} (and line {ld}): dealloc-in-use in dot_kernel: ");
    assert!(r.stdout.contains(&expect), "{expect}\n{}", r.stdout);
    assert!(
        !r.stdout.contains(&format!("{path}:{read} ")),
        "{}",
        r.stdout
    );

    let j = run(&["check", "--hazards", "--json", &path]).code(1).json();
    let hazards = j["files"][0]["hazards"].as_array().expect("hazards");
    assert_eq!(j["hazards"].as_u64(), Some(hazards.len() as u64));
    assert!(hazards.iter().all(|h| h["line"] != read), "{hazards:?}");
    let h = hazards
        .iter()
        .find(|h| h["line"] == dealloc)
        .unwrap_or_else(|| panic!("no finding at line {dealloc}: {hazards:?}"));
    assert_eq!(h["kind"], "dealloc-in-use");
    assert_eq!(h["other_line"], ld);
    assert_eq!(h["kernel"], "dot_kernel");
    for key in ["thread", "other_thread", "address"] {
        assert!(h.get(key).is_some(), "{key} in {h}");
    }
    for key in ["message", "source"] {
        assert!(
            h[key].as_str().is_some_and(|s| !s.is_empty()),
            "{key} in {h}"
        );
    }

    let s = run(&["check", "--hazards", "--sarif", "-", &path])
        .code(1)
        .json();
    let results = s["runs"][0]["results"].as_array().expect("results");
    let found = results.iter().find(|x| {
        x["ruleId"] == "hazard.dealloc-in-use"
            && x["locations"][0]["physicalLocation"]["region"]["startLine"] == dealloc
    });
    let found = found.unwrap_or_else(|| panic!("no SARIF result at {dealloc}"));
    assert_eq!(found["level"], "error");
    assert_eq!(
        found["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
        ld
    );
    let rules = s["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "hazard.dealloc-in-use"));
    assert!(!rules.iter().any(|r| r["id"] == "hazard.ld-before-wait"));
}

/// The parameters the PTX declares as `.param .align 64 .b8 NAME[128]` (tensor maps).
fn tensor_map_params(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains(".param .align 64 .b8") && l.contains("[128]"))
        .map(|l| {
            let w = l.split_whitespace().last().expect("a name");
            w[..w.find('[').expect("[")].to_string()
        })
        .collect()
}

fn notices(j: &Value) -> Vec<(String, String)> {
    j["files"][0]["hazard_kernels"][0]["notices"]
        .as_array()
        .expect("notices")
        .iter()
        .map(|n| {
            (
                n["kind"].as_str().unwrap_or("").to_string(),
                n["what"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn kernel_taking_tensor_maps_is_not_checked_and_names_each_map() {
    let file = repo("hw/run/ptx/dot_tma.ptx");
    let maps = tensor_map_params(&std::fs::read_to_string(&file).expect("read"));
    assert_eq!(maps.len(), 2, "{maps:?}");
    let r = run(&["check", "--hazards", &file]);
    r.code(0);
    for m in &maps {
        let line = format!("dot_tma not checked for hazards (tensor-map-parameter, {m})");
        assert!(r.stdout.contains(&line), "{line}\n{}", r.stdout);
    }
    assert!(r.stdout.contains("1 not checked"), "{}", r.stdout);
    let j = run(&["check", "--hazards", "--json", &file]).code(0).json();
    assert_eq!(j["files"][0]["hazard_kernels"][0]["checked"], false);
    let want: Vec<(String, String)> = maps
        .iter()
        .map(|m| ("tensor-map-parameter".to_string(), m.clone()))
        .collect();
    assert_eq!(notices(&j), want);
    let s = run(&["check", "--hazards", "--sarif", "-", &file])
        .code(0)
        .json();
    let results = s["runs"][0]["results"].as_array().expect("results");
    assert_eq!(
        results
            .iter()
            .filter(|x| x["ruleId"] == "hazard.not-checked.tensor-map-parameter")
            .count(),
        2
    );
}

#[test]
fn launch_size_comes_from_the_file_or_the_flags() {
    // No .reqntid or .maxntid: not checked until --block gives one.
    let file = repo("hw/run/breadth/ptx/atomics.ptx");
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(!text.contains(".reqntid") && !text.contains(".maxntid"));
    let j = run(&["check", "--hazards", "--json", &file]).code(0).json();
    assert_eq!(
        notices(&j),
        vec![("no-launch-size".to_string(), "block".to_string())]
    );
    let j = run(&["check", "--hazards", "--json", "--block", "64", &file])
        .code(0)
        .json();
    let k = &j["files"][0]["hazard_kernels"][0];
    assert_eq!(k["checked"], true, "{k}");
    assert_eq!(k["block"], serde_json::json!([64, 1, 1]));
    // A block that differs from .reqntid 128 is refused, as the driver refuses the launch.
    let j = run(&[
        "check",
        "--hazards",
        "--json",
        "--block",
        "256",
        &repo(GEMM),
    ])
    .code(0)
    .json();
    assert_eq!(
        notices(&j),
        vec![("launch-refused".to_string(), "block".to_string())]
    );
}

#[test]
fn hazard_flags_are_checked() {
    let r = run(&["check", "--hazards", "--arg", "nope=3", &repo(GEMM)]);
    r.code(2);
    assert!(r.stderr.contains("--arg nope"), "{}", r.stderr);
    let j = run(&["check", "--hazards", "--json", "--grid", "x", &repo(GEMM)])
        .code(2)
        .json();
    assert!(
        j["error"].as_str().is_some_and(|e| e.contains("--grid x")),
        "{j}"
    );
    // The launch flags need --hazards.
    run(&["check", "--block", "128", &repo(GEMM)]).code(2);
}
