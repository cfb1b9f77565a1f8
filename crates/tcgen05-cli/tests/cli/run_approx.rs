//! `tcgen05 run --approx`: `ex2.approx` and `div.full` are refused naming the flag (exit 1);
//! with `--approx ex2=rn,div=rn` they are computed as the correctly rounded function (the
//! expected words from Rust's f64 `exp2` and f32 division, outside the code under test) and the
//! summary and `--json` count them; an item not offered is a usage error (exit 2).

use super::run;

const PTX: &str = r"
.version 8.8
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 io)
{
    .reg .b32 %f<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [io];
    mov.u32 %f0, %tid.x;
    mul.wide.u32 %rd2, %f0, 16;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.f32 %f1, [%rd3];
    ld.global.f32 %f2, [%rd3+4];
    ex2.approx.ftz.f32 %f3, %f1;
    div.full.f32 %f4, %f1, %f2;
    st.global.f32 [%rd3+8], %f3;
    st.global.f32 [%rd3+12], %f4;
    ret;
}
";

#[test]
fn approx_refused_then_computed_and_counted() {
    let dir = std::env::temp_dir().join(format!("tcgen05-run-approx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ptx = dir.join("k.ptx");
    std::fs::write(&ptx, PTX).expect("write ptx");
    let xs: Vec<[f32; 2]> = (0..32)
        .map(|t| [t as f32 * 0.3 - 4.0, 1.5 + t as f32])
        .collect();
    let io = dir.join("io.bin");
    let bytes: Vec<u8> = xs
        .iter()
        .flat_map(|p| [p[0], p[1], 0.0, 0.0])
        .flat_map(f32::to_le_bytes)
        .collect();
    std::fs::write(&io, &bytes).expect("write io");
    let got = dir.join("got.bin");
    let (ptx, arg, out) = (
        ptx.display().to_string(),
        format!("io={}", io.display()),
        format!("io={}", got.display()),
    );
    let base = [
        "run", &ptx, "--kernel", "k", "--grid", "1", "--block", "32", "--arg", &arg,
    ];
    let r = run(&base);
    r.code(1);
    assert!(
        r.stderr.contains("line 15: `ex2.approx.ftz.f32`") && r.stderr.contains("--approx ex2=rn"),
        "{}",
        r.stderr
    );
    let mut with: Vec<&str> = base.to_vec();
    with.extend(["--approx", "ex2=rn,div=rn", "--out", &out]);
    let r = run(&with);
    r.code(0);
    assert!(
        r.stdout
            .contains("approximated: ex2.approx.ftz.f32: 32 lanes")
            && r.stdout.contains("approximated: div.full.f32: 32 lanes"),
        "{}",
        r.stdout
    );
    let words = std::fs::read(&got).expect("output");
    for (t, p) in xs.iter().enumerate() {
        let w = |i: usize| {
            u32::from_le_bytes(
                words[t * 16 + 4 * i..t * 16 + 4 * i + 4]
                    .try_into()
                    .expect("4"),
            )
        };
        assert_eq!(
            w(2),
            (f64::from(p[0]).exp2() as f32).to_bits(),
            "thread {t} ex2"
        );
        assert_eq!(w(3), (p[0] / p[1]).to_bits(), "thread {t} div");
    }
    with.push("--json");
    let j = run(&with).code(0).json();
    let a = j["approximated"].as_array().expect("approximated");
    assert_eq!(a.len(), 2, "{j}");
    assert_eq!(a[0]["op"], "ex2.approx.ftz.f32");
    assert_eq!(a[0]["lanes"], 32);
    assert_eq!(a[1]["op"], "div.full.f32");
    let mut bad: Vec<&str> = base.to_vec();
    bad.extend(["--approx", "lg2=rn", "--json"]);
    let r = run(&bad);
    r.code(2);
    assert!(
        r.json()["errors"][0]
            .as_str()
            .expect("error")
            .contains("lg2=rn"),
        "{}",
        r.stdout
    );
    std::fs::remove_dir_all(&dir).ok();
}
