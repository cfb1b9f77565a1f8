//! `ptx`: instruction text and minimal kernels (PTX ISA 9.7.16.7-9.7.16.10.9). The expected
//! lines are the forms ptxas 13.5.37 accepts (oracles.md section 1; conformance/ptxas checks
//! every form the builders can write).

use crate::{errors_of, has, run};

/// The single stdout line of a valid run.
fn line(args: &[&str]) -> String {
    let r = run(&[&["ptx"][..], args].concat());
    r.code(0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stdout);
    lines[0].to_string()
}

/// Runs a form that breaks rules: exit 1, nothing on stdout, one error line per problem.
fn refused(args: &[&str]) -> Vec<String> {
    let r = run(&[&["ptx"][..], args].concat());
    r.code(1);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    r.stderr_lines()
        .iter()
        .filter(|l| l.starts_with("error:"))
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn the_issue_example() {
    assert_eq!(
        line(&[
            "mma",
            "--kind",
            "f16",
            "--cta-group",
            "1",
            "--idesc",
            "0x08100490"
        ]),
        "tcgen05.mma.cta_group::1.kind::f16 [d_tmem], a_desc, b_desc, 0x08100490, enable_input_d;"
    );
}

#[test]
fn oracle_minimal_kernel_lines() {
    assert_eq!(
        line(&["alloc", "--dst", "smem_slot", "--n-cols", "32"]),
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem_slot], 32;"
    );
    assert_eq!(
        line(&["commit", "--mbar", "mbar"]),
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];"
    );
    assert_eq!(
        line(&["ld", "--shape", "32x32b", "--num", "x8"]),
        "tcgen05.ld.sync.aligned.32x32b.x8.b32 {r0,r1,r2,r3,r4,r5,r6,r7}, [taddr];"
    );
    assert_eq!(line(&["wait", "ld"]), "tcgen05.wait::ld.sync.aligned;");
    assert_eq!(
        line(&["dealloc", "--n-cols", "32"]),
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, 32;"
    );
}

#[test]
fn every_instruction_prints() {
    for (args, want) in [
        (
            &["mma", "--kind", "mxf4nvf4", "--scale-vec", "block16", "--sparse", "--cta-group", "2"][..],
            "tcgen05.mma.sp.cta_group::2.kind::mxf4nvf4.block_scale.block16 [d_tmem], a_desc, \
             b_desc, [sp_meta], idesc, [scale_a], [scale_b], enable_input_d;",
        ),
        (
            &["mma", "--kind", "i8", "--ws", "--collector", "b2::lastuse", "--zero-column-mask", "zm", "--enable-input-d", "1"][..],
            "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b2::lastuse [d_tmem], a_desc, b_desc, \
             idesc, 1, zm;",
        ),
        (
            &["mma", "--kind", "tf32", "--a-tmem", "--ashift", "--collector", "a::lastuse", "--disable-output-lane", "l0,l1,l2,l3", "--scale-input-d", "15"][..],
            "tcgen05.mma.cta_group::1.kind::tf32.ashift.collector::a::lastuse [d_tmem], [a_tmem], \
             b_desc, idesc, {l0,l1,l2,l3}, enable_input_d, 15;",
        ),
        (
            &["st", "--shape", "16x32bx2", "--num", "x2", "--offset", "2", "--unpack"][..],
            "tcgen05.st.sync.aligned.16x32bx2.x2.unpack::16b.b32 [taddr], 2, {r0,r1};",
        ),
        (
            &["cp", "--shape", "32x128b", "--multicast", "warpx4", "--format", "b4x16_p64", "--sdesc", "sd"][..],
            "tcgen05.cp.cta_group::1.32x128b.warpx4.b8x16.b4x16_p64 [taddr], sd;",
        ),
        (
            &["shift", "--cta-group", "2"][..],
            "tcgen05.shift.cta_group::2.down [taddr];",
        ),
        (
            &["relinquish-alloc-permit"][..],
            "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
        ),
        (
            &["commit", "--multicast", "0x3"][..],
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [mbar], 0x3;",
        ),
        (
            &["fence", "before-thread-sync"][..],
            "tcgen05.fence::before_thread_sync;",
        ),
        (&["wait", "st"][..], "tcgen05.wait::st.sync.aligned;"),
    ] {
        assert_eq!(line(args), want, "{args:?}");
    }
}

#[test]
fn default_registers_match_tables_49_and_50() {
    for (shape, num, n) in [
        ("32x32b", "x128", 128),
        ("16x64b", "x4", 4),
        ("16x128b", "x64", 128),
        ("16x256b", "x32", 128),
        ("16x256b", "x1", 4),
    ] {
        let l = line(&["ld", "--shape", shape, "--num", num]);
        let regs = l.split('{').nth(1).and_then(|r| r.split('}').next());
        assert_eq!(regs.map(|r| r.split(',').count()), Some(n), "{l}");
    }
}

#[test]
fn preamble_and_version_follow_target_and_form() {
    let r = run(&[
        "ptx",
        "ld",
        "--shape",
        "32x32b",
        "--num",
        "x2",
        "--red",
        "min",
        "--target",
        "sm_110a",
        "--preamble",
    ]);
    r.code(0);
    assert!(
        r.stdout
            .starts_with(".version 9.0\n.target sm_110a\n.address_size 64\n"),
        "{}",
        r.stdout
    );
    let r = run(&[
        "ptx",
        "mma",
        "--kind",
        "mxf4nvf4",
        "--scale-vec",
        "2X",
        "--preamble",
    ]);
    r.code(0);
    assert!(
        r.stdout.starts_with(".version 8.7\n.target sm_100a\n"),
        "{}",
        r.stdout
    );
    // An explicit version below what the form needs is refused.
    let e = refused(&[
        "mma",
        "--kind",
        "mxf4nvf4",
        "--scale-vec",
        "block32",
        "--ptx-version",
        "8.7",
    ]);
    assert!(
        e.iter()
            .any(|l| l
                .starts_with("error: version = 8.7: PTX ISA version 8.7 is too low for .block32")),
        "{e:?}"
    );
}

#[test]
fn each_rule_is_refused_with_its_field_and_source() {
    for (args, field, source) in [
        (
            &["mma", "--kind", "f16", "--ws", "--cta-group", "2"][..],
            "cta_group",
            "rules.md R16)",
        ),
        (
            &["mma", "--kind", "mxf8f6f4", "--scale-vec", "2X"][..],
            "scale_vec",
            "9.7.16.10.7.1)",
        ),
        (
            &["mma", "--kind", "f16", "--ashift"][..],
            "ashift",
            "9.7.16.10.9.1)",
        ),
        (
            &["mma", "--kind", "f16", "--scale-input-d", "16"][..],
            "scale_input_d",
            "9.7.16.10.9.1)",
        ),
        (
            &["mma", "--kind", "f8f6f4", "--scale-input-d", "1"][..],
            "scale_input_d",
            "9.7.16.10.9.1)",
        ),
        (
            &["mma", "--kind", "i8", "--target", "sm_103a"][..],
            "target",
            "rules.md R17)",
        ),
        (
            &["mma", "--kind", "f16", "--disable-output-lane", "a,b,c"][..],
            "disable_output_lane",
            "9.7.16.10.9.1)",
        ),
        (
            &["mma", "--kind", "f16", "--collector", "b0::fill"][..],
            "collector",
            "9.7.16.10.9.1)",
        ),
        (
            &["mma", "--kind", "f16", "--zero-column-mask", "zm"][..],
            "zero_column_mask",
            "9.7.16.10.9.3)",
        ),
        (
            &["mma", "--kind", "mxf4nvf4"][..],
            "scale_vec",
            "9.7.16.10.7.1)",
        ),
        (
            &["mma", "--kind", "f16", "--d", "1bad"][..],
            "d_tmem",
            "PTX ISA 4.4)",
        ),
        (
            &["ld", "--shape", "16x32bx2", "--num", "x1"][..],
            "offset",
            "9.7.16.8.3)",
        ),
        (
            &["ld", "--shape", "16x256b", "--num", "x64"][..],
            "num",
            "Table 49)",
        ),
        (
            &["ld", "--shape", "32x32b", "--num", "x2", "--dst", "a"][..],
            "registers",
            "Table 49)",
        ),
        (
            &["ld", "--shape", "32x32b", "--num", "x2", "--red", "max"][..],
            "target",
            "9.7.16.8.3)",
        ),
        (
            &["cp", "--shape", "64x128b"][..],
            "multicast",
            "rules.md R23)",
        ),
        (
            &["shift", "--target", "sm_100f"][..],
            "target",
            "9.7.16.9.3)",
        ),
        (&["alloc", "--n-cols", "48"][..], "n_cols", "9.7.16.7.1)"),
    ] {
        let e = refused(args);
        assert!(
            e.iter()
                .any(|l| l.starts_with(&format!("error: {field}")) && l.ends_with(source)),
            "{args:?}: {e:?}"
        );
    }
}

#[test]
fn every_problem_is_reported() {
    let e = refused(&[
        "mma",
        "--kind",
        "f16",
        "--ws",
        "--cta-group",
        "2",
        "--ashift",
        "--scale-input-d",
        "20",
    ]);
    assert!(e.len() >= 4, "{e:?}");
}

#[test]
fn descriptor_values_ptxas_cannot_see_are_refused() {
    // M = 48 (0x03 at bits 24-28): ptxas assembles it; Table 39 has no such shape.
    let e = refused(&["mma", "--kind", "f16", "--idesc", "0x03100490"]);
    assert!(
        e.iter()
            .any(|l| l.starts_with("error: m = 48") && l.ends_with("Table 39)")),
        "{e:?}"
    );
    // A reserved bit of the zero-column mask.
    let e = refused(&[
        "mma",
        "--kind",
        "f16",
        "--ws",
        "--idesc",
        "0x08100490",
        "--zero-column-mask",
        "0x4000000000000000",
    ]);
    assert!(e.iter().any(|l| l.starts_with("error: bit 62")), "{e:?}");
    // A shared memory descriptor with reserved bit 14 set.
    let e = refused(&["cp", "--shape", "128x256b", "--sdesc", "0x4000404000014040"]);
    assert!(e.iter().any(|l| l.starts_with("error: bit 14")), "{e:?}");
    // nCols 96: a multiple of 32 but not a power of two.
    let e = refused(&["alloc", "--n-cols", "96"]);
    assert!(e.iter().any(|l| l.contains("power of two")), "{e:?}");
}

#[test]
fn json_output() {
    let r = run(&[
        "ptx",
        "mma",
        "--kind",
        "f16",
        "--idesc",
        "0x08100490",
        "--json",
    ]);
    r.code(0);
    let v = r.json();
    assert_eq!(v["valid"], true);
    assert_eq!(v["target"], "sm_100a");
    assert_eq!(v["version"], "8.6");
    assert!(v["ptx"]
        .as_str()
        .is_some_and(|p| p.starts_with("tcgen05.mma.cta_group::1.kind::f16")));
    let r = run(&[
        "ptx",
        "mma",
        "--kind",
        "f16",
        "--idesc",
        "0x03100490",
        "--json",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["valid"], false);
    assert!(v["ptx"].is_null());
    assert!(has(&errors_of(&v), "m", "Table 39"), "{v}");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["ptx", "mma", "--kind", "f17"][..],
        &["ptx", "mma", "--kind", "f16", "--collector", "c::fill"],
        &["ptx", "mma", "--kind", "f16", "--scale-vec", "3X"],
        &["ptx", "ld", "--shape", "31x256b", "--num", "x1"],
        &["ptx", "wait", "cp"],
        &["ptx", "mma", "--kind", "f16", "--ptx-version", "9"],
    ] {
        let r = run(args);
        r.code(2);
        assert!(r.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn kernel_takes_the_encode_idesc_flags() {
    let flags = [
        "--kind", "f16", "--m", "128", "--n", "64", "--d-type", "f32", "--a-type", "bf16",
        "--b-type", "bf16",
    ];
    let r = run(&[&["ptx", "kernel"][..], &flags].concat());
    r.code(0);
    let k = &r.stdout;
    for want in [
        ".version 8.6\n.target sm_100a\n.address_size 64\n",
        ".visible .entry tcgen05_minimal(",
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [tmem_slot], 64;",
        "@leader tcgen05.mma.cta_group::1.kind::f16 [taddr], a_desc, b_desc, 0x08100490, 0;",
        "@leader tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];",
        "mbarrier.try_wait.parity.shared::cta.b64 done, [mbar], 0;",
        "tcgen05.ld.sync.aligned.32x32b.x8.b32 {d0,d1,d2,d3,d4,d5,d6,d7}, [taddr];",
        "tcgen05.wait::ld.sync.aligned;",
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, 64;",
    ] {
        assert!(k.contains(want), "{want} not in\n{k}");
    }
    // The instruction descriptor is the one `encode idesc` prints for the same flags.
    let e = run(&[&["encode", "idesc", "--json"][..], &flags].concat());
    e.code(0);
    let hex = e.json()["hex"].as_str().expect("hex").to_string();
    assert!(k.contains(&format!(", {hex}, 0;")), "{hex}");
    let j = run(&[&["ptx", "kernel", "--json"][..], &flags].concat());
    j.code(0);
    assert_eq!(j.json()["idesc"], hex.as_str());
    // Block-scaled, sparse, cta_group::2 on a family target.
    let r = run(&[
        "ptx",
        "kernel",
        "--kind",
        "mxf4nvf4",
        "--m",
        "256",
        "--n",
        "256",
        "--a-type",
        "e2m1",
        "--b-type",
        "e2m1",
        "--scale-type",
        "ue4m3",
        "--sparse",
        "--cta-group",
        "2",
        "--target",
        "sm_100a",
    ]);
    r.code(0);
    assert!(
        r.stdout
            .contains("tcgen05.mma.sp.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("[tmem_slot], 512;"), "{}", r.stdout);
}

#[test]
fn kernel_refuses_what_encode_idesc_refuses() {
    let r = run(&[
        "ptx", "kernel", "--kind", "f16", "--m", "48", "--n", "64", "--d-type", "f32", "--a-type",
        "bf16", "--b-type", "bf16",
    ]);
    r.code(1);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr_lines()
            .iter()
            .any(|l| l.starts_with("error: m = 48")),
        "{}",
        r.stderr
    );
    let r = run(&[
        "ptx", "kernel", "--kind", "i8", "--m", "128", "--n", "64", "--d-type", "s32", "--a-type",
        "s8", "--b-type", "s8", "--target", "sm_103a",
    ]);
    r.code(1);
    // A missing --d-type is a usage error, as for encode idesc.
    run(&[
        "ptx", "kernel", "--kind", "f16", "--m", "128", "--n", "64", "--a-type", "bf16",
        "--b-type", "bf16",
    ])
    .code(2);
}

#[test]
fn rust_asm_templates() {
    assert_eq!(
        line(&[
            "ld", "--shape", "32x32b", "--num", "x2", "--dst", "{a},{b}", "--taddr", "{t}", "--asm"
        ]),
        "tcgen05.ld.sync.aligned.32x32b.x2.b32 {{{a},{b}}}, [{t}];"
    );
    assert_eq!(
        line(&[
            "mma",
            "--kind",
            "f16",
            "--d",
            "{d}",
            "--a",
            "{a}",
            "--b",
            "{b}",
            "--idesc",
            "{idesc}",
            "--enable-input-d",
            "p",
            "--asm"
        ]),
        "tcgen05.mma.cta_group::1.kind::f16 [{d}], {a}, {b}, {idesc}, p;"
    );
    // A brace that is no placeholder is refused.
    let e = refused(&[
        "ld", "--shape", "32x32b", "--num", "x1", "--taddr", "{t", "--asm",
    ]);
    assert!(e.iter().any(|l| l.starts_with("error: taddr")), "{e:?}");
}

/// Issue 16 D5: the qualifiers of `tcgen05.ld.red` without `--red` change nothing; each gives a
/// warning naming the value typed, and the load is written as without them.
#[test]
fn ld_reduction_flags_without_red_warn() {
    let plain = line(&["ld", "--shape", "32x32b", "--num", "x1"]);
    let r = run(&[
        "ptx",
        "ld",
        "--shape",
        "32x32b",
        "--num",
        "x1",
        "--abs",
        "--nan",
        "--red-type",
        "u32",
        "--redval",
        "v7",
    ]);
    r.code(0);
    assert_eq!(r.stdout.trim_end(), plain);
    let lines = r.stderr_lines();
    assert_eq!(
        lines,
        [
            "warning: abs = true: --abs has no effect without --red and is ignored (PTX ISA 9.7.16.8.3)",
            "warning: nan = true: --nan has no effect without --red and is ignored (PTX ISA 9.7.16.8.3)",
            "warning: red_type = u32: --red-type has no effect without --red and is ignored (PTX ISA 9.7.16.8.3)",
            "warning: redval = v7: --redval has no effect without --red and is ignored (PTX ISA 9.7.16.8.3)",
        ]
    );
    let r = run(&[
        "ptx", "ld", "--shape", "32x32b", "--num", "x1", "--abs", "--json",
    ]);
    r.code(0);
    let v = r.json();
    assert_eq!(v["valid"], true);
    assert_eq!(
        crate::warnings_of(&v),
        [("abs".into(), "PTX ISA 9.7.16.8.3".into())]
    );
    // With --red they are used, and nothing is said.
    let r = run(&[
        "ptx", "ld", "--shape", "32x32b", "--num", "x2", "--red", "min", "--abs", "--target",
        "sm_103a",
    ]);
    r.code(0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(r.stdout.contains(".min.abs.f32"), "{}", r.stdout);
}

/// Issue 16 D6: problems show the value as typed: a register name, not its index (and no
/// "element" for a scalar operand); a PTX ISA version as X.Y, not major * 10 + minor nor the
/// target it is too low for.
#[test]
fn problems_show_the_value_typed() {
    let r = run(&[
        "ptx", "ld", "--shape", "32x32b", "--num", "x2", "--taddr", "[x]", "--dst", "a,9b",
    ]);
    r.code(1);
    assert_eq!(
        r.stderr_lines(),
        [
            "error: taddr = [x]: operand taddr is not a PTX identifier (nor an asm! placeholder \
             {name}) (PTX ISA 4.4)",
            "error: registers = 9b: operand registers (element 1) is not a PTX identifier (nor \
             an asm! placeholder {name}) (PTX ISA 4.4)",
        ]
    );
    for (v, tail) in [("9.9", "is above 9.5"), ("8.5", "is too low for sm_100a")] {
        let r = run(&[
            "ptx",
            "ld",
            "--shape",
            "32x32b",
            "--num",
            "x1",
            "--ptx-version",
            v,
        ]);
        r.code(1);
        let lines = r.stderr_lines();
        assert_eq!(lines.len(), 1, "{}", r.stderr);
        assert!(
            lines[0].starts_with(&format!("error: version = {v}: PTX ISA version {v} {tail}")),
            "{}",
            r.stderr
        );
    }
}
