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
    // ex2.approx is decoded and refused when executed (exit 1), naming --approx.
    let r = run(&["run", &fs, "--kernel", "k", "--grid", "1", "--block", "32"]);
    r.code(1);
    assert!(
        r.stderr
            .contains("line 7: `ex2.approx.f32` is not supported")
            && r.stderr.contains("--approx ex2=rn"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A little-endian `.npy` file (format 1.0) of `descr` and `shape` around `data`.
fn npy(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
    let mut dict = format!(
        "{{'descr': '{descr}', 'fortran_order': False, 'shape': ({}{}), }}",
        dims.join(", "),
        if shape.len() == 1 { "," } else { "" }
    );
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend_from_slice(data);
    out
}

/// The harness's `inputs16`: f16 codes, random sign, biased exponent in [10, 20).
fn inputs16(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|_| {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            let r = z ^ (z >> 31);
            (((r & 1) << 15 | (10 + (r >> 1) % 10) << 10 | (r >> 8) & 0x3FF) as u16).to_le_bytes()
        })
        .collect()
}

/// `dot_tma` with its two operands given as `tensormap:` specs over `.npy` files (64B and 128B
/// swizzles, as hw/run/harness.cu encodes them) writes the Hopper GPU's bytes; the summary
/// counts its MMAs (4 CTAs x 3 K steps x the 2 wgmma of the PTX's loop).
#[test]
fn tensor_map_specs_run_dot_tma_to_the_gpu_bytes() {
    let dir = std::env::temp_dir().join(format!("tcgen05-run-tm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (m, n, k) = (128usize, 128usize, 96usize);
    let (a, b, c) = (dir.join("a.npy"), dir.join("b.npy"), dir.join("c.npy"));
    std::fs::write(&a, npy("<f2", &[m, k], &inputs16(14, m * k))).expect("a");
    std::fs::write(&b, npy("<f2", &[k, n], &inputs16(15, k * n))).expect("b");
    std::fs::write(&c, npy("<u4", &[m * n + 16], &vec![0xAB; 4 * (m * n + 16)])).expect("c");
    let ptx = repo("hw/run/ptx/dot_tma.ptx");
    let (ma, mb, cs) = (
        format!("0=tensormap:{},box=64x32,swizzle=64B", a.display()),
        format!("5=tensormap:{},box=32x64,swizzle=128B", b.display()),
        format!("10={}", c.display()),
    );
    let mut args = vec![
        "run", &ptx, "--kernel", "dot_tma", "--grid", "2,2", "--block", "128", "--shared", "24600",
        "--arg", &ma, "--arg", &mb, "--arg", &cs, "--out", &cs,
    ];
    let scalars = [
        "1=128", "2=96", "3=96", "4=1", "6=96", "7=128", "8=128", "9=1", "11=128", "12=128",
        "13=96", "14=0", "15=0",
    ];
    for s in &scalars {
        args.push("--arg");
        args.push(s);
    }
    let r = run(&args);
    r.code(0);
    assert!(r.stdout.contains(", 24 MMAs, "), "{}", r.stdout);
    let out = std::fs::read(&c).expect("c");
    let want = std::fs::read(repo("hw/run/results/dot_tma.out")).expect("GPU output");
    assert_eq!(&out[out.len() - want.len()..], &want[..]);
    args.push("--json");
    let j = run(&args).code(0).json();
    assert_eq!(j["mmas"], 24);
    // Global traffic: every byte of both operands is read by the two CTAs that use each tile
    // (128 x 96 f16 each, read twice), the 128 x 128 f32 result written once.
    assert_eq!(
        j["bytes_moved"],
        2 * 2 * (m * k * 2) as u64 + (m * n * 4) as u64
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tensor map specs and typed scalars are refused with the driver's parameter, the value and
/// the rule; every problem listed, one JSON object.
#[test]
fn tensor_map_spec_refusals_name_the_driver_parameter() {
    let dir = std::env::temp_dir().join(format!("tcgen05-run-tmr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let a = dir.join("a.npy");
    std::fs::write(&a, npy("<f2", &[128, 96], &vec![0; 128 * 96 * 2])).expect("a");
    let ptx = repo("hw/run/ptx/dot_tma.ptx");
    let bad = format!("0=tensormap:{},box=300x4,swizzle=64B", a.display());
    let unknown = format!("5=tensormap:{},box=32x64,swizle=128B", a.display());
    let r = run(&[
        "run", &ptx, "--kernel", "dot_tma", "--grid", "1", "--block", "128", "--arg", &bad,
        "--arg", &unknown, "--arg", "1=1.5", "--arg", "2=-1", "--arg", "10=7", "--json",
    ]);
    let j = r.code(2).json();
    assert_eq!(j["ok"], false);
    let errors: Vec<String> = j["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e.as_str().unwrap_or("").to_string())
        .collect();
    let has = |s: &str| errors.iter().any(|e| e.contains(s));
    assert!(
        has("tensor map boxDim[1] = 300: must be non-zero and at most 256 (CUDA driver API 6.30"),
        "{errors:?}"
    );
    assert!(
        has("tensor map boxDim[0] = 4: boxDim[0] x element size = 8 bytes must be a multiple of 16 bytes"),
        "{errors:?}"
    );
    assert!(has("unknown key `swizle`"), "{errors:?}");
    assert!(
        has("--arg dot_tma_param_1=1.5: argument for `dot_tma_param_1`: a float given"),
        "{errors:?}"
    );
    assert!(has("the integer 7 for a `.ptr` parameter"), "{errors:?}");
    // -1 fits a .u32 as a signed number: no error for parameter 2.
    assert!(!has("dot_tma_param_2="), "{errors:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
