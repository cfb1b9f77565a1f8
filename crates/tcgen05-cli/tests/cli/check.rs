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
    assert_eq!(
        keys(&v),
        ["errors", "files", "instructions", "tensor_maps", "warnings"]
    );
    // No --tensor-map given: nothing to link.
    assert_eq!(v["tensor_maps"], serde_json::Value::Null);
    assert_eq!(v["instructions"], 2);
    assert_eq!(v["errors"], 1);
    let f = &v["files"][0];
    assert_eq!(
        keys(f),
        [
            "alloc_pairing_undecided",
            "instructions",
            "path",
            "scale_operands_unlinked",
            "smem_descriptors",
            "target"
        ]
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

/// Wraps a kernel body in a module for sm_100a, PTX ISA 8.7.
fn module(body: &str) -> String {
    format!(
        ".version 8.7\n.target sm_100a\n.address_size 64\n\
         .extern .shared .align 16 .b8 global_smem[];\n\
         .visible .entry k()\n{{\n\
         .reg .b32 %r<80>; .reg .b64 %rd<20>; .reg .pred %p<4>;\n{body}\nret;\n}}\n"
    )
}

/// `check --json` on `text`, with extra arguments.
fn check_json(name: &str, text: &str, extra: &[&str]) -> (Value, i32) {
    let p = write(name, text.as_bytes());
    let mut args = vec!["check", "--json"];
    args.extend_from_slice(extra);
    args.push(p.to_str().expect("utf-8"));
    let r = run(&args);
    (r.json(), r.code)
}

// Issue 26, item 2: the known bits of what a reader can see.

#[test]
fn a_k_step_keeps_the_descriptor_fields_of_a_shared_address() {
    // Triton's recipe for the k-th step: bits 4..17 of a `.shared` address (below 2^18), plus
    // 2 (32 bytes), packed with a constant high word (0x40004040: SBO 1024, fixed 0b001,
    // 128B swizzle). A 14-bit value plus 2 cannot carry past bit 14, so bits 15-31 (LBO and
    // the reserved bits) stay known zero and every field but the start address is known.
    let body = "mov.u32 %r4, global_smem;\n\
        bfe.u32 %r5, %r4, 4, 14;\n\
        add.s32 %r6, %r5, 2;\n\
        mov.b32 %r7, 1073758272;\n\
        mov.b64 %rd1, {%r6, %r7};\n\
        mov.b32 %r1, 136381584;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;";
    let (v, code) = check_json("kstep.ptx", &module(body), &["--no-assume"]);
    assert_eq!(code, 0, "{v}");
    let a = &v["files"][0]["instructions"][0]["a_desc"];
    // Without assumptions: bits 0-13 (start address) and bit 14 (a carry out of the 14-bit
    // address can set it) unknown; bits 15-63 known.
    assert_eq!(a["known"], "0xffffffffffff8000", "{v}");
    assert_eq!(a["value"], "0x4000404000000000", "{v}");
    // Under rules.md R7 (the default: the addition does not carry out of the
    // start-address field) bit 14 is known too, and the summary says the assumption was used.
    let (v, _) = check_json("kstep.ptx", &module(body), &[]);
    let f = &v["files"][0];
    assert_eq!(
        f["instructions"][0]["a_desc"]["known"], "0xffffffffffffc000",
        "{v}"
    );
    assert_eq!(f["smem_descriptors"]["assumed_r7"], 1, "{v}");
}

#[test]
fn signed_shared_addresses_and_shuffled_values_keep_their_high_bits() {
    // `shr.s32` of a shared address (below 2^18: its sign bit is 0), `cvt.s64.s32`, and
    // `shfl.sync` of the result: bits 14-63 stay known zero, so the descriptor
    // `addr | 0x4000404000000000` has every field but the start address known.
    let body = "mov.u32 %r4, global_smem;\n\
        shr.s32 %r5, %r4, 4;\n\
        shfl.sync.idx.b32 %r6|%p2, %r5, 0, 31, -1;\n\
        cvt.s64.s32 %rd2, %r6;\n\
        or.b64 %rd1, %rd2, 4611756662049472512;\n\
        mov.b32 %r1, 136381584;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;";
    let (v, _) = check_json("signed.ptx", &module(body), &[]);
    let a = &v["files"][0]["instructions"][0]["a_desc"];
    assert_eq!(a["known"], "0xffffffffffffc000", "{v}");
    assert_eq!(a["value"], "0x4000404000000000", "{v}");
}

#[test]
fn each_constant_a_selp_chooses_is_checked_and_named() {
    // 0x08210490 is a valid bf16 128x128 descriptor; 0x03200490 has M = 48 (no shape of
    // Table 39). The finding names the bad one and the line that writes it.
    let body = "selp.b32 %r1, 136381584, 52429968, %p2;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;";
    let (v, code) = check_json("selp.ptx", &module(body), &[]);
    assert_eq!(code, 1, "{v}");
    let e = &v["files"][0]["instructions"][0]["errors"][0];
    assert_eq!(e["candidate"], "0x3200490", "{v}");
    assert_eq!(e["operand"], "idesc", "{v}");
    assert_eq!(e["line"], 8, "{v}");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("M = 48")),
        "{v}"
    );
    // The same choice written as two predicated moves.
    let body = "@%p2 mov.b32 %r1, 136381584;\n\
        @!%p2 mov.b32 %r1, 52429968;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;";
    let (v, code) = check_json("pmov.ptx", &module(body), &[]);
    assert_eq!(code, 1, "{v}");
    let e = &v["files"][0]["instructions"][0]["errors"][0];
    assert_eq!(e["candidate"], "0x3200490", "{v}");
    assert_eq!(e["line"], 9, "{v}");
}

#[test]
fn a_partly_known_instruction_descriptor_gets_the_rules_its_known_bits_decide() {
    // The sparsity selector (bits 0-1) set at run time; M = 48 (bits 24-28 = 3) is known
    // and breaks Table 39 whatever the selector is.
    let body = "ld.param.u32 %r5, [p];\n\
        and.b32 %r6, %r5, 3;\n\
        or.b32 %r1, %r6, 52429972;\n\
        tcgen05.mma.cta_group::1.kind::f16.sp [%r2], %rd1, %rd2, [%r3], %r1, %p1;";
    let (v, code) = check_json("partial.ptx", &module(body), &[]);
    assert_eq!(code, 1, "{v}");
    let errors = v["files"][0]["instructions"][0]["errors"]
        .as_array()
        .expect("errors");
    assert!(
        errors
            .iter()
            .any(|e| e["message"].as_str().is_some_and(|m| m.contains("M = 48"))),
        "{v}"
    );
}

#[test]
fn desc_plus_stage_times_c_under_the_reported_assumption() {
    // CUTLASS's `desc + stage * 64` with a run-time stage: under rules.md R7 (an addition
    // into a descriptor does not carry out of the start-address field) the fields above bit
    // 13 are the descriptor's; --no-assume turns it off and they are unknown.
    let body = "ld.param.u32 %r5, [p];\n\
        mov.b64 %rd3, 4611756662049472512;\n\
        mul.wide.u32 %rd4, %r5, 64;\n\
        add.s64 %rd1, %rd3, %rd4;\n\
        mov.b32 %r1, 136381584;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;";
    let p = write("stage.ptx", module(body).as_bytes());
    let path = p.to_str().expect("utf-8");
    let r = run(&["check", path]);
    r.code(0);
    assert!(
        r.stdout.contains("2 shared memory descriptors: 2 with every field but the start address known, 0 left partly unknown; 1 instruction read under rules.md R7"),
        "{}",
        r.stdout
    );
    let r = run(&["check", "--no-assume", path]);
    assert!(
        r.stdout.contains("2 shared memory descriptors: 0 with every field but the start address known, 2 left partly unknown\n"),
        "{}",
        r.stdout
    );
}

// Issue 26, item 3: modules, headers and input that is not PTX.

#[test]
fn cuobjdump_output_has_one_target_per_module_and_its_headers_are_skipped() {
    let first = module(
        "mov.b32 %r1, 136381584;\n\
         tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd2, %r1, %p1;",
    );
    let text = format!(
        "\nFatbin elf code:\n================\narch = sm_100a\ncode version = [1,8]\nhost = linux\ncompile_size = 64bit\n\n\
         Fatbin ptx code:\n================\narch = sm_100a\ncode version = [8,7]\nhost = linux\ncompile_size = 64bit\ncompressed\nptxasOptions = \n\n\
         {first}\n\
         Fatbin ptx code:\n================\narch = sm_80\ncode version = [7,0]\nhost = linux\ncompile_size = 64bit\n\n\
         .version 7.0\n.target sm_80\n.address_size 64\n.visible .entry j()\n{{\nret;\n}}\n"
    );
    let r = run_stdin(&["check", "-"], text.as_bytes());
    r.code(0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(
        r.stdout
            .contains("1 instruction checked, 0 errors, 0 warnings"),
        "{}",
        r.stdout
    );
}

#[test]
fn binary_input_exits_2_with_one_message() {
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
    elf.extend_from_slice(b".version 8.7\n.target sm_100a\n");
    let r = run_stdin(&["check", "-"], &elf);
    r.code(2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("not PTX"), "{}", r.stderr);
}

#[test]
fn a_file_without_tcgen05_says_so() {
    let text = ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n";
    let r = run_stdin(&["check", "-"], text.as_bytes());
    r.code(0);
    assert!(r.stdout.contains("no tcgen05 instruction"), "{}", r.stdout);
}

#[test]
fn tma_operands_branch_targets_extern_declarations_and_9_5_read_silently() {
    let text = ".version 9.5\n.target sm_100a\n.address_size 64\n\
        .extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n\
        .visible .entry k()\n{\n\
        .reg .b32 %r<9>; .reg .b64 %rd<9>; .reg .pred %p<3>;\n\
        cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];\n\
        ts: .branchtargets\n\t$L1,\n\t$L2;\n\
        brx.idx %r5, ts;\n\
        $L1:\n$L2:\n\
        tcgen05.fence::before_thread_sync;\n\
        ret;\n}\n";
    let r = run_stdin(&["check", "-"], text.as_bytes());
    r.code(0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(
        r.stdout
            .contains("1 instruction checked, 0 errors, 0 warnings"),
        "{}",
        r.stdout
    );
}

// Issue 26, item 4: what a finding says.

#[test]
fn messages_have_no_placeholders_and_name_the_defining_line() {
    let text = ".version 8.5\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n\
        .reg .b32 %r<9>; .reg .b64 %rd<9>; .reg .pred %p<3>;\n\
        mov.b64 %rd3, 4611756662049472512;\n\
        ld.shared.u64 %rd4, [x];\n\
        and.b64 %rd5, %rd4, 16383;\n\
        or.b64 %rd1, %rd5, %rd3;\n\
        mov.b32 %r1, 136381584;\n\
        tcgen05.mma.cta_group::1.kind::f16.foo [%r2], %rd1, %rd1, %r1, %p1;\n\
        tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 48;\n\
        ret;\n}\n\
        .version 8.7\n.target sm_90a\n.visible .entry j()\n{\ntcgen05.fence::before_thread_sync;\nret;\n}\n";
    let r = run_stdin(&["check", "-"], text.as_bytes());
    let out = &r.stdout;
    assert!(out.contains("qualifier = .foo:"), "{out}");
    assert!(!out.contains("as written"), "{out}");
    assert!(!out.contains("n_cols n_cols"), "{out}");
    assert!(out.contains("target = sm_90a:"), "{out}");
    assert!(!out.contains("mxf4nvf4"), "{out}");
    assert!(
        !out.contains(" 1 errors") && !out.contains(" 1 warnings"),
        "{out}"
    );
}

#[test]
fn the_line_of_a_field_is_the_line_that_wrote_it() {
    // or(address bits, constant high word): the fixed bits 46-48 (here 0b000, wrong) come
    // from the constant on line 7, not from the address on line 9.
    let text = ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n\
        .reg .b32 %r<9>; .reg .b64 %rd<9>; .reg .pred %p<3>;\n\
        mov.b64 %rd3, 4611686293305294848;\n\
        ld.shared.u64 %rd4, [x];\n\
        and.b64 %rd5, %rd4, 16383;\n\
        or.b64 %rd1, %rd3, %rd5;\n\
        mov.b32 %r1, 136381584;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;\n\
        ret;\n}\n";
    let (v, _) = check_json("line.ptx", text, &[]);
    let e = &v["files"][0]["instructions"][0]["errors"][0];
    assert_eq!(e["field"], "fixed_46_48", "{v}");
    assert_eq!(e["line"], 7, "{v}");
    assert_eq!(e["operand"], "a_desc", "{v}");
}

#[test]
fn sarif_rule_ids_are_the_rule_tables_and_dash_is_stdout() {
    let p = write("sarif2.ptx", PTX.as_bytes());
    let r = run(&["check", "--sarif", "-", p.to_str().expect("utf-8")]);
    r.code(1);
    let s: Value = serde_json::from_str(&r.stdout).expect("stdout is the SARIF log");
    let run0 = &s["runs"][0];
    assert_eq!(
        run0["results"][0]["ruleId"], "idesc.m_not_in_table_39",
        "{s}"
    );
    let rule = &run0["tool"]["driver"]["rules"][0];
    assert_eq!(rule["id"], "idesc.m_not_in_table_39");
    assert!(rule["fullDescription"]["text"].is_string(), "{s}");
    assert!(!std::path::Path::new("-").exists());
}

// Issue 26, item 5: static checks of a kernel.

#[test]
fn tmem_columns_alloc_counts_and_pairing() {
    // 32 columns allocated, an N = 256 f32 MMA (256 columns) - idesc 0x08400490; an alloc
    // count that fits no integer; no dealloc.
    let body = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n\
        mov.b64 %rd1, 4611756662049472512;\n\
        mov.b32 %r1, 138413200;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;\n\
        tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 99999999999999999999999;";
    let (v, code) = check_json("tmem.ptx", &module(body), &[]);
    assert_eq!(code, 1, "{v}");
    let ins = &v["files"][0]["instructions"];
    let rules = |k: usize, key: &str| -> Vec<String> {
        ins[k][key]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| e["rule"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert!(
        rules(2, "errors").contains(&"check.immediate_too_wide".to_string()),
        "{v}"
    );
    assert!(
        rules(0, "warnings").contains(&"check.alloc_without_dealloc".to_string()),
        "{v}"
    );
    // The second alloc's count is unknown as a number: the columns check needs every
    // allocation known, so check it on a kernel with the first alloc only.
    let body = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n\
        mov.b64 %rd1, 4611756662049472512;\n\
        mov.b32 %r1, 138413200;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;\n\
        tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 32;";
    let (v, _) = check_json("tmem2.ptx", &module(body), &[]);
    let errors = &v["files"][0]["instructions"][1]["errors"];
    assert_eq!(errors[0]["rule"], "check.tmem_columns", "{v}");
    assert_eq!(errors[0]["operand"], "d_tmem", "{v}");
}

#[test]
fn alloc_and_dealloc_are_paired_on_every_path() {
    // Body lines start at 8: 8 alloc, 9 setp, 10 branch past the dealloc, 11 dealloc,
    // 12 label, 13 mov, 14 the module's ret.
    let alloc = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;";
    let dealloc = "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;";
    let body = format!(
        "{alloc}\nsetp.eq.s32 %p1, %r5, 0;\n@%p1 bra $L_out;\n{dealloc}\n$L_out:\nmov.b32 %r6, 0;"
    );
    let (v, code) = check_json("leak.ptx", &module(&body), &[]);
    assert_eq!(code, 0, "{v}");
    let w = &v["files"][0]["instructions"][0]["warnings"][0];
    assert_eq!(w["rule"], "check.alloc_leak_on_path", "{v}");
    assert_eq!(w["line"], 8, "{v}");
    assert!(
        w["message"]
            .as_str()
            .is_some_and(|m| m.contains("exit at line 14")),
        "{v}"
    );
    // The same predicate guarding both (Triton): clean, and decided.
    let body = format!("setp.lt.u32 %p1, %r5, 32;\n@%p1 {alloc}\n@%p1 {dealloc}");
    let (v, code) = check_json("guarded.ptx", &module(&body), &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["warnings"], 0, "{v}");
    assert_eq!(v["files"][0]["alloc_pairing_undecided"], 0, "{v}");
    // A second dealloc: an error naming the alloc's line, in text and SARIF.
    let body = format!("{alloc}\n{dealloc}\n{dealloc}");
    let p = write("double.ptx", module(&body).as_bytes());
    let path = p.to_str().expect("utf-8");
    let r = run(&["check", path]);
    r.code(1);
    assert!(
        r.stdout
            .contains("deallocates twice after the tcgen05.alloc at line 8"),
        "{}",
        r.stdout
    );
    let r = run(&["check", "--sarif", "-", path]);
    let s: Value = serde_json::from_str(&r.stdout).expect("SARIF");
    let result = &s["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "check.double_dealloc", "{s}");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"], 10,
        "{s}"
    );
}

#[test]
fn a_k_major_operand_with_sbo_0_is_refused() {
    // 0x4000400000010040: SBO (bits 32-45) 0, 128B swizzle, K-major (idesc transpose bits 0).
    let body = "mov.b64 %rd1, 4611756387171631168;\n\
        mov.b32 %r1, 136316048;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;";
    let (v, code) = check_json("sbo.ptx", &module(body), &[]);
    assert_eq!(code, 1, "{v}");
    let errors = v["files"][0]["instructions"][0]["errors"]
        .as_array()
        .expect("errors")
        .clone();
    let sbo: Vec<&Value> = errors
        .iter()
        .filter(|e| e["rule"] == "check.sbo_zero")
        .collect();
    assert_eq!(sbo.len(), 2, "{v}");
}

#[test]
fn verbose_prints_the_idesc_in_bit_order_and_known_smem_fields_by_meaning() {
    // A descriptor whose high word is known (SBO 1024 bytes, 128B swizzle) and whose start
    // address is not.
    let body = "ld.shared.u32 %r4, [global_smem];\n\
        and.b32 %r5, %r4, 16383;\n\
        mov.b32 %r7, 1073758272;\n\
        mov.b64 %rd1, {%r5, %r7};\n\
        mov.b32 %r1, 136381584;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd1, %rd1, %r1, %p1;";
    let p = write("verbose.ptx", module(body).as_bytes());
    let r = run(&["check", "--verbose", p.to_str().expect("utf-8")]);
    r.code(0);
    let out = &r.stdout;
    // Table 42 lists bits 0-1 (sparsity selector) first and 30-31 (max shift) last.
    let first = out.find("sparsity_selector").expect("idesc rows");
    let last = out.find("max_shift").expect("idesc rows");
    assert!(first < last, "{out}");
    assert!(out.contains("1024 bytes"), "{out}");
    assert!(out.contains("128B"), "{out}");
}

#[test]
fn a_tensor_maps_swizzle_is_compared_with_the_descriptor_that_reads_its_buffer() {
    // Triton's pattern: the map is a .param, the copy writes global_smem + 16384, the
    // descriptor packs bfe(addr, 4, 14) with the high word 0x80004040 (bits 61-63 = 4: 64B).
    let text = ".version 8.7\n.target sm_100a\n.address_size 64\n\
        .extern .shared .align 1024 .b8 global_smem[];\n\
        .visible .entry k(.param .align 64 .b8 desc_a[128]) {\n\
        .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<2>;\n\
        mov.u64 %rd1, desc_a;\n\
        mov.u32 %r1, global_smem;\n\
        add.s32 %r2, %r1, 16384;\n\
        cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1, {%r3, %r4}], [%r5];\n\
        bfe.u32 %r6, %r2, 4, 14;\n\
        mov.b32 %r7, 2147500096;\n\
        mov.b64 %rd2, {%r6, %r7};\n\
        mov.b32 %r8, 136381584;\n\
        tcgen05.mma.cta_group::1.kind::f16 [%r9], %rd2, %rd2, %r8, %p1;\n\
        ret;\n}\n";
    let p = write("tmap.ptx", text.as_bytes());
    let path = p.to_str().expect("utf-8");
    let r = run(&["check", "--tensor-map", "desc_a=swizzle:128B", path]);
    r.code(1);
    assert!(
        r.stdout
            .contains("swizzling mode 64B (the tensor map's 128B)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("[value from line 10]"), "{}", r.stdout);
    assert!(
        r.stdout.contains("2 MMA descriptors linked"),
        "{}",
        r.stdout
    );
    // The same counts in JSON: both descriptors of the MMA linked through the map.
    let v = run(&[
        "check",
        "--json",
        "--tensor-map",
        "desc_a=swizzle:128B",
        path,
    ])
    .json();
    assert_eq!(
        v["tensor_maps"],
        serde_json::json!({"linked": 2, "unlinked": 0}),
        "{v}"
    );
    let r = run(&["check", "--tensor-map", "desc_a=swizzle:64B", path]);
    r.code(0);
    // Without the map: nothing to compare.
    run(&["check", path]).code(0);
    // A spec that is not NAME=swizzle:MODE: a usage error naming it.
    let r = run(&["check", "--tensor-map", "desc_a=128B", path]);
    r.code(2);
    assert!(r.stderr.contains("desc_a=128B"), "{}", r.stderr);
    // The 96-byte mode (rules.md T4): no descriptor mode to compare with, said so.
    let r = run(&["check", "--tensor-map", "desc_a=swizzle:96B", path]);
    r.code(2);
    assert!(r.stderr.contains("rules.md T4"), "{}", r.stderr);
}
