//! Throughput of the whole-kernel interpreter, as a release binary printing its figures
//! (`cargo bench -p tcgen05-run --bench run [-- --size N] [-- --only NAME]`).
//!
//! Each case runs one committed Triton kernel on seeded inputs and prints the wall time, this
//! process's CPU time, the warp-instructions executed and their rate, and a hash of the
//! output buffers (so that two builds' runs are compared byte for byte). In the same run, the
//! baseline: a plain f32 GEMM of the same size in Rust (i-k-j loops, one thread), so that a
//! figure taken on a loaded machine reads against the machine's speed at that moment.
//!
//! Cases: `gemm_bf16_128`, the 1024 x 1024 x 1024 bf16 -> f32 GEMM of 128 x 128 x 64 tiles
//! for sm_90a (8 warps, wgmma m64n128k16; `hw/run/ptx`, the PTX the Hopper proof runs,
//! `tests/hopper.rs`); `gemm_sm100a`, the same Triton kernel compiled for sm_100a with Triton's
//! default 4 warps (`benches/gemm_bf16_128_sm100a.ptx`, written by `benches/gen_sm100a.py`: 64
//! CTAs of 128 threads, 4,096 `tcgen05.mma` kind::f16 128x128x16); `fma_f32`, 2^20 elements of
//! a scalar kernel (warp-instruction rate without MMAs).
//!
//! Then the cost of hazard tracking (issue 25): the two committed Blackwell kernels of
//! `examples/kernels` (Triton 3.9.0 for sm_100a, as in the check corpus: `triton_gemm_bf16`,
//! 4 CTAs of a 512 x 128 x 128 bf16 GEMM; `triton_dot_scaled_mxfp8`, 4 CTAs of 512 x 128 x 256
//! mxfp8) run plainly and under `hazard::check` (default schedule), best of 5 each in CPU
//! time, in the same process, and the ratio is printed (`--only hazards` runs only these).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed benchmark setup

use std::path::PathBuf;
use std::time::Instant;

use tcgen05_run::hazard::{check, Options};
use tcgen05_run::{launch, Arg, Config, Limits, Module};

/// One benchmark case: a kernel of `hw/run/ptx` and its launch.
struct Case {
    /// Name (also the PTX file's, in `hw/run/ptx` unless `file` names another).
    name: &'static str,
    /// The kernel's entry name.
    kernel: &'static str,
    /// The PTX file, relative to the repository root.
    file: String,
    /// What it computes, for the report.
    what: String,
    /// Grid (CTAs) and block (threads).
    grid: [u32; 3],
    block: [u32; 3],
    /// Dynamic shared memory.
    shared: u32,
    /// The arguments.
    args: Vec<Arg>,
}

/// SplitMix64 (as hw/run/harness.cu).
fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// bf16 codes with magnitudes 2^-5 to 2^5 (the harness's `inputs_lowp`).
fn bf16s(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|_| {
            let r = splitmix(&mut seed);
            (((r & 1) << 15 | (122 + (r >> 1) % 10) << 7 | (r >> 8) & 0x7F) as u16).to_le_bytes()
        })
        .collect()
}

/// f32 words with magnitudes 2^-7 to 2^3.
fn f32s(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|_| {
            let r = splitmix(&mut seed);
            let w = ((r & 1) << 31 | (120 + (r >> 1) % 10) << 23 | (r >> 8) & 0x7F_FFFF) as u32;
            w.to_le_bytes()
        })
        .collect()
}

/// The arguments of `gemm_bf16_128` (a, b, c, M, N, K and Triton's two scratch pointers).
fn gemm_args(size: usize) -> Vec<Arg> {
    let (m, n, k) = (size, size, size);
    vec![
        Arg::Buffer(bf16s(1, m * k)),
        Arg::Buffer(bf16s(2, k * n)),
        Arg::Buffer(vec![0; 4 * m * n]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ]
}

fn cases(size: usize) -> Vec<Case> {
    let (m, n, k) = (size, size, size);
    let elems = size * size;
    let grid = [(m / 128) as u32, (n / 128) as u32, 1];
    vec![
        Case {
            name: "gemm_bf16_128",
            kernel: "gemm_bf16_128",
            file: "hw/run/ptx/gemm_bf16_128.ptx".into(),
            what: format!("{m}x{n}x{k} bf16 -> f32 GEMM, sm_90a wgmma, 128x128x64 tiles, 8 warps"),
            grid,
            block: [256, 1, 1],
            shared: 65536,
            args: gemm_args(size),
        },
        Case {
            name: "gemm_sm100a",
            kernel: "gemm_bf16_128",
            file: "crates/tcgen05-run/benches/gemm_bf16_128_sm100a.ptx".into(),
            what: format!(
                "{m}x{n}x{k} bf16 -> f32 GEMM, sm_100a tcgen05.mma, 128x128x64 tiles, 4 warps"
            ),
            grid,
            block: [128, 1, 1],
            shared: 65552,
            args: gemm_args(size),
        },
        Case {
            name: "fma_f32",
            kernel: "fma_f32",
            file: "hw/run/ptx/fma_f32.ptx".into(),
            what: format!("{elems} f32 fused multiply-adds, 128 threads per CTA"),
            grid: [elems.div_ceil(256) as u32, 1, 1],
            block: [128, 1, 1],
            shared: 0,
            args: vec![
                Arg::Buffer(f32s(3, elems)),
                Arg::Buffer(f32s(4, elems)),
                Arg::Buffer(f32s(5, elems)),
                Arg::Buffer(vec![0; 4 * elems]),
                Arg::i32(elems as i32),
                Arg::Null,
                Arg::Null,
            ],
        },
    ]
}

/// This process's CPU time (user + system) in seconds, from `/proc/self/stat` (Linux; `None`
/// elsewhere): on a shared machine the wall time counts other processes' turns too.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which ends with the last ')'): utime and stime are the
    // 12th and 13th, in clock ticks (100 per second on Linux).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The baseline: C = A x B in f32, `size` cubed, i-k-j loops on one thread. Returns seconds.
fn baseline(size: usize) -> f64 {
    let a: Vec<f32> = (0..size * size).map(|i| (i % 7) as f32 * 0.25).collect();
    let b: Vec<f32> = (0..size * size).map(|i| (i % 5) as f32 * 0.5).collect();
    let mut c = vec![0f32; size * size];
    let t = Instant::now();
    for i in 0..size {
        for kk in 0..size {
            let x = a[i * size + kk];
            let row = &b[kk * size..(kk + 1) * size];
            for (cj, bj) in c[i * size..(i + 1) * size].iter_mut().zip(row) {
                *cj += x * bj;
            }
        }
    }
    std::hint::black_box(&c);
    t.elapsed().as_secs_f64()
}

/// The Blackwell kernels with and without hazard tracking: (name, file, entry, args).
fn blackwell() -> Vec<(&'static str, &'static str, &'static str, Vec<Arg>)> {
    let (m, n) = (512usize, 128usize);
    let pattern = |len: usize, modulus: usize| -> Vec<u8> {
        (0..len).map(|i| (i % modulus) as u8 + 0x30).collect()
    };
    let tail = |k: usize| {
        vec![
            Arg::Buffer(vec![0; m * n * 4]),
            Arg::i32(k as i32),
            Arg::Null,
            Arg::Null,
        ]
    };
    let mut bf16 = vec![
        Arg::Buffer(pattern(m * 128 * 2, 7)),
        Arg::Buffer(pattern(128 * n * 2, 5)),
    ];
    bf16.extend(tail(128));
    let mut mx = vec![
        Arg::Buffer(pattern(m * 256, 7)),
        Arg::Buffer(pattern(256 * n, 5)),
        Arg::Buffer(vec![127; m * 256 / 32]),
        Arg::Buffer(vec![127; n * 256 / 32]),
    ];
    mx.extend(tail(256));
    vec![
        (
            "triton_gemm_bf16",
            "triton_gemm_bf16.ptx",
            "dot_kernel",
            bf16,
        ),
        (
            "triton_dot_scaled_mxfp8",
            "triton_dot_scaled_mxfp8.ptx",
            "dot_scaled_kernel",
            mx,
        ),
    ]
}

/// Plain run against `hazard::check`, best of 5 each.
fn hazard_cost() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels");
    let t0 = Instant::now();
    for (name, file, entry, args) in blackwell() {
        let src = std::fs::read_to_string(root.join(file)).unwrap();
        let module = Module::read(&src).unwrap();
        let config = Config {
            grid: [4, 1, 1],
            block: [128, 1, 1],
            cluster: [1, 1, 1],
            shared: 227 * 1024,
            limits: Limits::default(),
        };
        // CPU time of this process (wall time where /proc is missing): on a shared machine the
        // wall time of a 0.1 s run counts other processes' turns.
        let now = || cpu_seconds().unwrap_or_else(|| t0.elapsed().as_secs_f64());
        let best = |hazards: bool| {
            (0..5)
                .map(|_| {
                    let mut a = args.clone();
                    let t = now();
                    if hazards {
                        let r =
                            check(&module, entry, &config, &mut a, &Options::default()).unwrap();
                        assert!(r.findings.is_empty(), "{name}: {:?}", r.findings);
                    } else {
                        launch(&module, entry, &config, &mut a).unwrap();
                    }
                    now() - t
                })
                .fold(f64::INFINITY, f64::min)
        };
        let (plain, hazards) = (best(false), best(true));
        println!(
            "{name:<24} 4 CTAs: plain {plain:.3} s CPU, --hazards {hazards:.3} s CPU ({:.2}x), best of 5",
            hazards / plain
        );
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let opt = |flag: &str| {
        argv.iter()
            .position(|a| a == flag)
            .and_then(|i| argv.get(i + 1))
            .cloned()
    };
    let size: usize = opt("--size").map_or(1024, |s| s.parse().unwrap());
    let only = opt("--only");
    if only.as_deref() == Some("hazards") {
        hazard_cost();
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    println!("tcgen05-run benchmark: {threads} hardware threads");
    let cpu0 = cpu_seconds();
    let base = baseline(size);
    let cpu = |c0: Option<f64>| match (c0, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{:.2} s CPU", b - a),
        _ => "CPU time not available".to_string(),
    };
    println!(
        "baseline       {size}x{size}x{size} f32 GEMM in plain Rust (one thread): {base:.3} s wall, {} ({:.2} GFLOP/s)",
        cpu(cpu0),
        2.0 * (size as f64).powi(3) / base / 1e9
    );
    for mut c in cases(size) {
        if only.as_deref().is_some_and(|o| o != c.name) {
            continue;
        }
        let src = std::fs::read_to_string(root.join(&c.file)).unwrap();
        let t = Instant::now();
        let module = Module::read(&src).unwrap();
        let read = t.elapsed().as_secs_f64();
        let config = Config {
            grid: c.grid,
            block: c.block,
            cluster: [1, 1, 1],
            shared: c.shared,
            limits: Limits {
                steps: u64::MAX >> 1,
            },
        };
        let (t, cpu0) = (Instant::now(), cpu_seconds());
        let stats = launch(&module, c.kernel, &config, &mut c.args).unwrap();
        let secs = t.elapsed().as_secs_f64();
        // The output buffers' bytes, hashed (FNV-1a), so that two builds' runs compare.
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for a in &c.args {
            if let Arg::Buffer(b) = a {
                for &x in b {
                    hash = (hash ^ u64::from(x)).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
        println!(
            "{:<14} {}: {secs:.3} s wall ({:.1} x baseline), {}, read {:.1} ms, {} CTAs, {} warp-instructions ({:.2} M/s), {} thread-instructions, buffers {hash:016x}",
            c.name,
            c.what,
            secs / base,
            cpu(cpu0),
            read * 1e3,
            stats.ctas,
            stats.warp_instructions,
            stats.warp_instructions as f64 / secs / 1e6,
            stats.thread_instructions,
        );
    }
    if only.is_none() {
        hazard_cost();
    }
}
