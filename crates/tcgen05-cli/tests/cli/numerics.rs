//! `numerics dot` and `numerics error`: the MMA-Sim worked example end to end, JSON keys,
//! every problem reported, one JSON object on error.

use crate::run;

const EX: [&str; 4] = ["--a=-8192,-0.5,-0.25,-0.125", "--b", "1024,1,1,1", "--c"];

fn dot(arch: &str, kind: &str, t: &str) -> serde_json::Value {
    let r = run(&[
        &[
            "numerics", "dot", "--json", "--arch", arch, "--kind", kind, "--a-type", t, "--b-type",
            t,
        ][..],
        &EX[..],
        &["8388608"],
    ]
    .concat());
    r.code(0);
    r.json()
}

#[test]
fn worked_example_in_json() {
    let h16 = dot("sm_90a", "f16", "f16");
    assert_eq!(h16["d_bits"], "0xbf400000");
    assert_eq!(h16["d"], "-0.75");
    assert_eq!(h16["exact"], "-0.875");
    assert_eq!(h16["e_max"], 23);
    assert_eq!(h16["terms"].as_array().expect("test input").len(), 17);
    let h8 = dot("sm_90a", "f8f6f4", "e5m2");
    assert_eq!(h8["d_bits"], "0x00000000");
    assert_eq!(h8["f"], 13);
    let b8 = dot("sm_100a", "f8f6f4", "e5m2");
    assert_eq!(b8["d"], "-0.75");
    assert_eq!(b8["f"], 25);
}

#[test]
fn text_explains_the_terms() {
    let r = run(&[
        &[
            "numerics", "dot", "--arch", "sm_90a", "--kind", "f16", "--a-type", "f16", "--b-type",
            "f16",
        ][..],
        &EX[..],
        &["8388608"],
    ]
    .concat());
    r.code(0);
    for want in [
        "D      = -0.75 (0xbf400000)",
        "exact  = -0.875",
        "e_max  = 23",
        "a3*b3",
        "1 bits",
        "sum    = -3 x 2^-2",
    ] {
        assert!(r.stdout.contains(want), "{want} in\n{}", r.stdout);
    }
}

#[test]
fn f16_d_bits_have_four_digits_and_integers_wrap_or_saturate() {
    let r = run(&[
        "numerics", "dot", "--json", "--arch", "sm_100a", "--kind", "f16", "--a-type", "f16",
        "--b-type", "f16", "--d-type", "f16", "--a", "1,0x7c00", "--b", "2,-1", "--c", "1",
    ]);
    r.code(0);
    assert_eq!(r.json()["d_bits"], "0xfc00");
    let base = [
        "numerics",
        "dot",
        "--json",
        "--arch",
        "sm_90a",
        "--kind",
        "i8",
        "--a-type",
        "s8",
        "--b-type",
        "s8",
        "--a",
        "-128,-128",
        "--b",
        "-128,-128",
        "--c",
        "2147483647",
    ];
    let w = run(&base);
    w.code(0);
    assert_eq!(w.json()["d_bits"], "0x80007fff");
    let s = run(&[&base[..], &["--satfinite"]].concat());
    assert_eq!(s.json()["d_bits"], "0x7fffffff");
}

#[test]
fn block_scaled_kinds_take_scales() {
    let r = run(&[
        "numerics",
        "dot",
        "--json",
        "--arch",
        "sm_100a",
        "--kind",
        "mxf4nvf4",
        "--a-type",
        "e2m1",
        "--b-type",
        "e2m1",
        "--scale-type",
        "ue4m3",
        "--a",
        "6,6",
        "--b",
        "1,1",
        "--sfa",
        "2,1,1,1",
        "--sfb",
        "0.5,1,1,1",
    ]);
    r.code(0);
    assert_eq!(r.json()["d"], "12");
    assert_eq!(r.json()["algorithm"], "GST-FDPA");
}

#[test]
fn every_problem_in_one_json_object() {
    let r = run(&[
        "numerics",
        "dot",
        "--json",
        "--arch",
        "sm_100a",
        "--kind",
        "f8f6f4",
        "--a-type",
        "e4m3",
        "--b-type",
        "e4m3",
        "--a",
        "0.105,1000,1",
        "--b",
        "1",
        "--c",
        "0.300000005",
    ]);
    r.code(1);
    let v = r.json();
    assert_eq!(v["ok"], false);
    let p = v["problems"].as_array().expect("test input");
    assert_eq!(p.len(), 3, "{v}");
    assert_eq!(p[0]["field"], "a");
    assert_eq!(p[0]["value"], "0.105");
    // e4m3's values around it are 1.625 * 2^-4 and 1.75 * 2^-4 (PTX ISA 5.2.5.1).
    assert!(p[0]["message"]
        .as_str()
        .expect("test input")
        .contains("0.1015625"));
    // f32's value nearest 0.300000005 is 0.300000011920928955078125 (IEEE 754 binary32).
    assert!(p[2]["message"]
        .as_str()
        .expect("test input")
        .contains("0.300000011920928955078125"));
    let u = run(&[
        "numerics", "dot", "--json", "--arch", "sm_99", "--kind", "f17", "--a-type", "e4m3",
        "--b-type", "e9m9", "--a", "1", "--b", "1",
    ]);
    u.code(2);
    assert_eq!(
        u.json()["problems"].as_array().expect("test input").len(),
        3
    );
    let k = run(&[
        "numerics", "dot", "--json", "--arch", "sm_90a", "--kind", "f16", "--a-type", "bf16",
        "--b-type", "bf16", "--d-type", "f16", "--a", "1", "--b", "1",
    ]);
    k.code(1);
    assert_eq!(k.json()["ok"], false);
}

#[test]
fn error_compares_hopper_and_blackwell_fp8() {
    let svg = std::env::temp_dir().join(format!("tcgen05-numerics-{}.svg", std::process::id()));
    let r = run(&[
        "numerics",
        "error",
        "--json",
        "--arch",
        "sm_90a",
        "--arch",
        "sm_100a",
        "--kind",
        "f8f6f4",
        "--a-type",
        "e4m3",
        "--b-type",
        "e4m3",
        "--k",
        "1024",
        "--trials",
        "20",
        "--svg",
        svg.to_str().expect("test input"),
    ]);
    r.code(0);
    let v = r.json();
    let c = v["configs"].as_array().expect("test input");
    assert_eq!(c.len(), 2);
    let last = |i: usize| {
        c[i]["points"]
            .as_array()
            .expect("test input")
            .last()
            .expect("test input")["mean_rel"]
            .as_f64()
            .expect("test input")
    };
    assert!(
        last(0) > 100.0 * last(1).max(1e-12),
        "Hopper FP8 (F = 13) loses far more than Blackwell (F = 25)"
    );
    let text = std::fs::read_to_string(&svg).expect("test input");
    assert!(text.starts_with("<svg") && text.contains("polyline"));
    let _ = std::fs::remove_file(&svg);
    let bad = run(&[
        "numerics", "error", "--json", "--arch", "sm_100a", "--kind", "f16", "--a-type", "f16",
        "--b-type", "f16", "--k", "100",
    ]);
    bad.code(1);
    assert_eq!(bad.json()["ok"], false);
}

#[test]
fn readme_error_plot_is_what_the_command_draws() {
    // The README's FP8 K-loop plot (docs/img/numerics-fp8-error.svg), redrawn with its command.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let fresh = std::env::temp_dir().join(format!("tcgen05-fp8-{}.svg", std::process::id()));
    let fresh_s = fresh.to_str().expect("utf-8");
    crate::run(&[
        "numerics", "error", "--arch", "sm_90a", "--arch", "sm_100a", "--kind", "f8f6f4",
        "--a-type", "e4m3", "--b-type", "e4m3", "--k", "4096", "--svg", fresh_s,
    ])
    .code(0);
    let want = std::fs::read_to_string(root.join("docs/img/numerics-fp8-error.svg"))
        .expect("committed plot");
    let got = std::fs::read_to_string(&fresh).expect("fresh plot");
    let _ = std::fs::remove_file(&fresh);
    assert!(
        want == got,
        "docs/img/numerics-fp8-error.svg differs from the command's output"
    );
}

/// The value of term `name` in a `numerics dot --json` answer.
fn term(v: &serde_json::Value, name: &str) -> String {
    v["terms"]
        .as_array()
        .expect("terms")
        .iter()
        .find(|t| t["term"] == name)
        .unwrap_or_else(|| panic!("no term {name} in {v}"))["value"]
        .as_str()
        .expect("value")
        .to_string()
}

#[test]
fn decimals_as_python_and_numpy_print_them() {
    // NumPy prints np.float16(0.1) as `0.1`; its value is 1638 * 2^-14 = 0.0999755859375.
    // Python prints repr(float(np.float32(0.1))) as `0.10000000149011612`; NumPy prints
    // np.float32(0.1) as `0.1`; the value is 13421773 * 2^-27 = 0.100000001490116119384765625.
    for (a, c) in [
        ("0.1", "0.1"),
        ("0.0999755859375", "0.10000000149011612"),
        ("0.09997558", "0.100000001490116119384765625"),
    ] {
        let r = run(&[
            "numerics", "dot", "--json", "--kind", "f16", "--a-type", "f16", "--b-type", "f16",
            "--a", a, "--b", "1", "--c", c,
        ]);
        if a == "0.09997558" {
            // Neither the exact value nor a shortest decimal of any f16 value.
            r.code(1);
            let v = r.json();
            let p = v["problems"].as_array().expect("problems");
            assert_eq!(p.len(), 1, "{v}");
            assert_eq!(p[0]["field"], "a");
            assert!(
                p[0]["message"]
                    .as_str()
                    .expect("message")
                    .contains("0.0999755859375 (0x2e66)"),
                "{v}"
            );
            continue;
        }
        r.code(0);
        let v = r.json();
        assert_eq!(term(&v, "a0*b0"), "0.0999755859375", "{a}");
        assert_eq!(term(&v, "c"), "0.100000001490116119384765625", "{c}");
    }
}

#[test]
fn arch_defaults_to_sm_100a_and_takes_every_tcgen05_target() {
    let args = [
        "numerics", "dot", "--json", "--kind", "f16", "--a-type", "f16", "--b-type", "f16", "--a",
        "1", "--b", "1",
    ];
    let base = run(&args);
    base.code(0);
    assert_eq!(base.json()["arch"], "sm_100a");
    // The target names `tcgen05 check`, `decode`, `shapes` accept (PTX ISA 9.7.16 target notes).
    for t in [
        "sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f", "sm_101a",
    ] {
        let r = run(&[&args[..], &["--arch", t]].concat());
        r.code(0);
        assert_eq!(r.json()["d_bits"], base.json()["d_bits"], "{t}");
    }
    // A name no command accepts is a usage error.
    run(&[&args[..], &["--arch", "sm_120a"]].concat()).code(2);
    run(&[&args[..], &["--arch", "sm_80"]].concat()).code(2);
}

#[test]
fn error_plot_shows_zero_error_points() {
    // FP8 products summed over short K loops are often exact in f32: a mean relative error of
    // 0, which a log axis cannot show. Every such checkpoint must still be drawn and named.
    let dir = std::env::temp_dir().join(format!("tcgen05-zero-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("e4m3.svg");
    let r = run(&[
        "numerics",
        "error",
        "--json",
        "--kind",
        "f8f6f4",
        "--a-type",
        "e4m3",
        "--b-type",
        "e4m3",
        "--k",
        "256",
        "--trials",
        "3",
        "--svg",
        svg.to_str().expect("utf-8 path"),
    ]);
    r.code(0);
    let text = std::fs::read_to_string(&svg).expect("svg written");
    std::fs::remove_dir_all(&dir).ok();
    let v = r.json();
    let zero_k: Vec<u64> = v["configs"][0]["points"]
        .as_array()
        .unwrap_or_else(|| panic!("points in {v}"))
        .iter()
        .filter(|c| c["mean_rel"].as_f64() == Some(0.0))
        .map(|c| c["k"].as_u64().expect("k"))
        .collect();
    assert!(!zero_k.is_empty(), "the case has zero-error points: {v}");
    for k in &zero_k {
        assert!(
            text.contains(&format!("<title>K = {k}: mean relative error 0</title>")),
            "K = {k} not drawn"
        );
    }
    let ks: Vec<String> = zero_k.iter().map(u64::to_string).collect();
    assert!(text.contains(&format!("error 0 at K = {}", ks.join(", "))));
}
