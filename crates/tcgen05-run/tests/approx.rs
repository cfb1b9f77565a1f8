//! `--approx` ([`tcgen05_run::approx`]): `ex2.approx{.ftz}.f32` and `div.full{.ftz}.f32`
//! computed as the correctly rounded function when asked, refused by name (with the flag)
//! otherwise; and `add`/`sub`/`mul` `.f32x2` ([`tcgen05_run::f32x2`]).
//!
//! Expected values come from outside the code under test: the f32 rounding of the platform's
//! f64 `exp2` on inputs where that rounding is decided (hw/approx/refcheck.rs showed, over all
//! 2^32 inputs, that it equals the GPU's f64 reference digest in hw/approx/results), 60-digit
//! decimal arithmetic for the 12 inputs where it is not (hw/approx/hard_cases.py, its output
//! in hw/approx/results/hard_cases.txt), IEEE f64 division rounded to f32 (exact: 53 >= 2 * 24
//! + 2), and PTX ISA 9.7.4's special values.

mod common;

use common::inputs::repo;
use tcgen05_run::approx::{div_rn, ex2_rn, Approx};
use tcgen05_run::{launch, launch_with, Arg, Config, Hooks, Module};

/// The 12 hard inputs and their correctly rounded 2^x (hw/approx/results/hard_cases.txt).
fn hard_cases() -> Vec<(u32, u32)> {
    let text = std::fs::read_to_string(repo("hw/approx/results/hard_cases.txt")).expect("file");
    text.lines()
        .map(|l| {
            let mut w = l
                .split_whitespace()
                .map(|h| u32::from_str_radix(h.trim_start_matches("0x"), 16).expect("hex"));
            (w.next().expect("x"), w.next().expect("2^x"))
        })
        .collect()
}

fn flush(b: u32) -> u32 {
    if b & 0x7F80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

/// The f32 rounding of f64 `exp2` (with `.ftz`'s flushes), for inputs it decides.
fn libm_ex2(x: u32, ftz: bool) -> u32 {
    let x = if ftz { flush(x) } else { x };
    let r = (f64::from(f32::from_bits(x)).exp2() as f32).to_bits();
    if f32::from_bits(r).is_nan() {
        0x7FFF_FFFF
    } else if ftz {
        flush(r)
    } else {
        r
    }
}

#[test]
fn ex2_hard_cases_are_rounded_correctly() {
    let hard = hard_cases();
    assert_eq!(hard.len(), 12);
    for &(x, want) in &hard {
        assert_eq!(ex2_rn(x, false), want, "ex2 of {x:#010x}");
        assert_eq!(ex2_rn(x, true), flush(want), "ex2.ftz of {x:#010x}");
    }
}

#[test]
fn ex2_equals_the_rounded_f64_exp2_on_sampled_inputs() {
    let hard: Vec<u32> = hard_cases().iter().map(|h| h.0).collect();
    let mut n = 0u64;
    // Every 4099th input from several starts: about 4.2 million inputs over all binades.
    for start in [0u64, 1, 2047] {
        let mut i = start;
        while i < 1 << 32 {
            let x = i as u32;
            if !hard.contains(&x) {
                for ftz in [false, true] {
                    assert_eq!(ex2_rn(x, ftz), libm_ex2(x, ftz), "x = {x:#010x} ftz {ftz}");
                }
                n += 1;
            }
            i += 4099 * 3;
        }
    }
    assert!(n > 300_000, "{n} inputs");
}

#[test]
fn ex2_special_values() {
    let cases = [
        (f32::INFINITY.to_bits(), false, f32::INFINITY.to_bits()),
        (f32::NEG_INFINITY.to_bits(), false, 0),
        (0x7FC0_0001, false, 0x7FFF_FFFF),
        (128f32.to_bits(), false, f32::INFINITY.to_bits()),
        ((-149f32).to_bits(), false, 1),
        ((-149f32).to_bits(), true, 0),
        ((-126f32).to_bits(), true, 0x0080_0000),
        ((-150f32).to_bits(), false, 0), // exactly half the smallest subnormal: ties to even
        (0x8000_0001, true, 1f32.to_bits()),
        (0, false, 1f32.to_bits()),
        (0x8000_0000, false, 1f32.to_bits()),
    ];
    for (x, ftz, want) in cases {
        assert_eq!(ex2_rn(x, ftz), want, "ex2 of {x:#010x} ftz {ftz}");
    }
}

#[test]
fn div_equals_ieee_division() {
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 32) as u32
    };
    for _ in 0..200_000 {
        let (a, b) = (next(), next());
        let q = f64::from(f32::from_bits(a)) / f64::from(f32::from_bits(b));
        let want = if q.is_nan() {
            0x7FFF_FFFF
        } else {
            (q as f32).to_bits()
        };
        assert_eq!(div_rn(a, b, false), want, "{a:#010x} / {b:#010x}");
        let q = f64::from(f32::from_bits(flush(a))) / f64::from(f32::from_bits(flush(b)));
        let want = if q.is_nan() {
            0x7FFF_FFFF
        } else {
            flush((q as f32).to_bits())
        };
        assert_eq!(div_rn(a, b, true), want, "ftz {a:#010x} / {b:#010x}");
    }
}

const PTX: &str = r"
.version 8.8
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 io)
{
    .reg .b32 %f<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [io];
    mov.u32 %f0, %tid.x;
    mul.wide.u32 %rd2, %f0, 32;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.f32 %f1, [%rd3];
    ld.global.f32 %f2, [%rd3+4];
    ld.global.b64 %rd4, [%rd3+8];
    ex2.approx.ftz.f32 %f3, %f1;
    ex2.approx.f32 %f4, %f1;
    div.full.f32 %f5, %f1, %f2;
    add.f32x2 %rd5, %rd4, %rd4;
    mul.rn.f32x2 %rd6, %rd4, %rd4;
    st.global.f32 [%rd3+16], %f3;
    st.global.f32 [%rd3+20], %f4;
    st.global.f32 [%rd3+24], %f5;
    st.global.b32 [%rd3+28], %f0;
    st.global.b64 [%rd3+8], %rd5;
    st.global.b64 [%rd3], %rd6;
    ret;
}
";

fn inputs() -> Vec<[f32; 4]> {
    (0..32)
        .map(|t| {
            let t = t as f32;
            [t * 0.37 - 6.0, 1.0 + t * 0.11, t * 1.5 - 3.0, 0.1 * t + 0.3]
        })
        .collect()
}

fn run(approx: Approx) -> Result<(Vec<u8>, tcgen05_run::Stats), String> {
    let bytes: Vec<u8> = inputs()
        .iter()
        .flat_map(|c| [c[0], c[1], c[2], c[3], 0.0, 0.0, 0.0, 0.0])
        .flat_map(f32::to_le_bytes)
        .collect();
    let module = Module::read(PTX).map_err(|e| e.to_string())?;
    let mut args = vec![Arg::Buffer(bytes)];
    let config = Config {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    };
    let hooks = Hooks {
        approx,
        ..Hooks::default()
    };
    let stats = launch_with(&module, "k", &config, &mut args, hooks).map_err(|e| e.to_string())?;
    let Arg::Buffer(out) = args.remove(0) else {
        unreachable!()
    };
    Ok((out, stats))
}

#[test]
fn the_run_refuses_each_approximation_naming_its_flag() {
    let module = Module::read(PTX).expect("reads");
    let mut args = vec![Arg::Buffer(vec![0; 32 * 32])];
    let config = Config {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    };
    let e = launch(&module, "k", &config, &mut args).expect_err("refused");
    let line = PTX
        .lines()
        .position(|l| l.contains("ex2.approx.ftz"))
        .expect("line")
        + 1;
    let e = e.to_string();
    assert!(
        e.contains(&format!("line {line}:"))
            && e.contains("ex2.approx.ftz.f32")
            && e.contains("--approx ex2=rn"),
        "{e}"
    );
    let e = run(Approx::parse("ex2=rn").expect("flag")).expect_err("div refused");
    assert!(
        e.contains("div.full.f32") && e.contains("--approx div=rn"),
        "{e}"
    );
    let e = Approx::parse("ex2=rn,lg2=rn")
        .expect_err("lg2 is not offered")
        .to_string();
    assert!(e.contains("lg2=rn") && e.contains("ex2=rn"), "{e}");
}

#[test]
fn approximations_run_as_correctly_rounded_and_are_counted() {
    let (out, stats) = run(Approx::parse("ex2=rn, div=rn").expect("flags")).expect("runs");
    let word = |t: usize, i: usize| {
        u32::from_le_bytes(
            out[t * 32 + 4 * i..t * 32 + 4 * i + 4]
                .try_into()
                .expect("4"),
        )
    };
    for (t, c) in inputs().iter().enumerate() {
        let x = c[0].to_bits();
        assert_eq!(word(t, 4), libm_ex2(x, true), "thread {t} ex2.ftz");
        assert_eq!(word(t, 5), libm_ex2(x, false), "thread {t} ex2");
        let q = (f64::from(c[0]) / f64::from(c[1])) as f32;
        assert_eq!(word(t, 6), q.to_bits(), "thread {t} div");
        assert_eq!(
            word(t, 2),
            (c[2] + c[2]).to_bits(),
            "thread {t} add.f32x2 low"
        );
        assert_eq!(
            word(t, 3),
            (c[3] + c[3]).to_bits(),
            "thread {t} add.f32x2 high"
        );
        assert_eq!(
            word(t, 0),
            (c[2] * c[2]).to_bits(),
            "thread {t} mul.f32x2 low"
        );
        assert_eq!(
            word(t, 1),
            (c[3] * c[3]).to_bits(),
            "thread {t} mul.f32x2 high"
        );
    }
    assert_eq!(stats.approximated.lanes, [32, 32, 0, 32]);
    let lines = stats.approximated.describe();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("ex2.approx.ftz.f32: 32 lanes"),
        "{lines:?}"
    );
    assert!(lines[2].starts_with("div.full.f32: 32 lanes"), "{lines:?}");
}

/// The H100 figures the run reports ([`tcgen05_run::approx::FORMS`]) are those of the committed
/// sweep (hw/approx/results/approx-h100.txt): the non-NaN results that differ from the sweep's
/// f64 reference, less the hard inputs where that reference rounded wrongly (it differs from
/// hard_cases.txt) and the H100 gave the correctly rounded value (the sweep's "hard input"
/// lines).
#[test]
fn reported_h100_figures_are_the_committed_sweep() {
    use tcgen05_run::approx::FORMS;
    let text = std::fs::read_to_string(repo("hw/approx/results/approx-h100.txt")).expect("results");
    assert!(text.contains("NVIDIA H100"), "the sweep names its GPU");
    let lines: Vec<&str> = text.lines().collect();
    let hard = hard_cases();
    for (idx, form) in [
        (0usize, "ex2.approx.ftz.f32"),
        (1, "ex2.approx.f32"),
        (3, "div.full.f32"),
    ] {
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("op {form}:")))
            .expect("the form's line");
        let hist = lines[at + 1];
        let mut differ = 0u64;
        let mut max_ulp = 0u32;
        let bins = hist.split_once("results):").expect("a histogram").1;
        for item in bins.split_whitespace() {
            let (bin, count) = item.split_once(':').expect("bin:count");
            let count: u64 = count.parse().expect("count");
            let bin: i64 = bin.parse().expect("bin");
            if bin != 0 {
                differ += count;
                max_ulp = max_ulp.max(bin.unsigned_abs() as u32);
            }
        }
        if idx < 2 {
            for &(x, want) in &hard {
                let hw_line = lines
                    .iter()
                    .find(|l| l.starts_with(&format!("hard input {x:#010x}:")))
                    .expect("the hard input's line");
                let hw = hw_line
                    .split_whitespace()
                    .nth(if idx == 0 { 4 } else { 6 })
                    .expect("bits");
                let hw = u32::from_str_radix(hw.trim_start_matches("0x"), 16).expect("hex");
                let f64_ref = libm_ex2(x, idx == 0);
                let want = if idx == 0 { flush(want) } else { want };
                if f64_ref != want && hw == want {
                    differ -= 1;
                }
            }
        }
        assert_eq!(FORMS[idx].form, form);
        assert_eq!(FORMS[idx].measured, (1 << 32, differ), "{form}");
        assert_eq!(FORMS[idx].max_ulp, max_ulp, "{form}");
    }
}
