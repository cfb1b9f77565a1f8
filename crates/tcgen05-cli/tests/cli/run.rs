//! `tcgen05 run`: a Triton kernel from hw/run/ptx run by the command on the inputs the Hopper
//! harness gave it (hw/run/harness.cu, seed 4) must write the GPU's output bytes
//! (hw/run/results/row_sum.out); refusals are typed, exit 2 (arguments) or 1 (the kernel), and
//! `--json` prints one object.

use std::path::PathBuf;

use super::run;

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// SplitMix64 and the harness's `inputs(seed, n, 110, 30, false)`.
fn inputs(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|_| {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            let r = z ^ (z >> 31);
            let w = ((r & 1) as u32) << 31
                | (110 + ((r >> 1) % 30) as u32) << 23
                | (r >> 8) as u32 & 0x7F_FFFF;
            w.to_le_bytes()
        })
        .collect()
}

#[test]
fn row_sum_writes_the_gpu_bytes_text_and_json() {
    let dir = std::env::temp_dir().join(format!("tcgen05-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let x = dir.join("x.bin");
    let sums = dir.join("sums.bin");
    let got = dir.join("got.bin");
    std::fs::write(&x, inputs(4, 8 * 1000)).expect("write x");
    std::fs::write(&sums, vec![0xAB; 48]).expect("write sums");
    let ptx = repo("hw/run/ptx/row_sum.ptx");
    let (xa, sa, outa) = (
        format!("row_sum_param_0={}", x.display()),
        format!("1={}", sums.display()),
        format!("1={}", got.display()),
    );
    let args = [
        "run", &ptx, "--kernel", "row_sum", "--grid", "8", "--block", "128", "--shared", "16",
        "--arg", &xa, "--arg", &sa, "--arg", "2=1000", "--arg", "3=0", "--arg", "4=0", "--out",
        &outa,
    ];
    let r = run(&args);
    r.code(0);
    assert!(
        r.stdout.starts_with("ran row_sum: 8 CTAs, "),
        "{}",
        r.stdout
    );
    let want = std::fs::read(repo("hw/run/results/row_sum.out")).expect("GPU output");
    assert_eq!(std::fs::read(&got).expect("output"), want);
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let j = run(&json_args).code(0).json();
    assert_eq!(j["ok"], true);
    assert_eq!(j["ctas"], 8);
    assert!(j["warp_instructions"].as_u64().is_some_and(|n| n > 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refusals_are_named() {
    let ptx = repo("hw/run/ptx/row_sum.ptx");
    // A missing argument and an unknown parameter: both named, exit 2, one JSON object.
    let r = run(&[
        "run", &ptx, "--kernel", "row_sum", "--grid", "1", "--block", "128", "--arg", "nope=1",
        "--json",
    ]);
    let j = r.code(2).json();
    let errors: Vec<String> = j["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e.as_str().unwrap_or("").to_string())
        .collect();
    assert!(
        errors.iter().any(|e| e.contains("no parameter `nope`")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("`row_sum_param_0`") && e.contains("has no --arg")),
        "{errors:?}"
    );
    // No such kernel.
    let r = run(&[
        "run", &ptx, "--kernel", "other", "--grid", "1", "--block", "32",
    ]);
    r.code(2);
    assert!(
        r.stderr_lines()[0].contains("no .entry named `other`"),
        "{}",
        r.stderr
    );
    // An unmodelled instruction stops the read by name and line.
    let dir = std::env::temp_dir().join(format!("tcgen05-run-u-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("k.ptx");
    std::fs::write(&f, ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<2>;\nex2.approx.f32 %r1, %r1;\nret;\n}\n").expect("write");
    let fs = f.to_string_lossy().into_owned();
    let r = run(&["run", &fs, "--kernel", "k", "--grid", "1", "--block", "32"]);
    r.code(2);
    assert!(
        r.stderr
            .contains("line 7: `ex2.approx.f32` is not supported"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
