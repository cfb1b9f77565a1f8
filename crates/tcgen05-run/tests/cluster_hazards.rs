//! The hazard checker across the CTAs of a cluster (issue 25; rules.md I7): the Hopper cluster
//! kernels of `hw/run/breadth` (distributed shared memory, remote mbarrier arrivals, multicast
//! TMA and bulk copies, `barrier.cluster`) and the CTA-pair kernels (`tests/pair/mma_m256.ptx`,
//! Triton Gluon's two-CTA `examples/kernels/gluon_pair_dot_f16.ptx`) run clean with the default
//! schedule and `HAZARD_SCHEDULES` seeded ones (2 unless set; the report used 50).

mod common;

use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05_run::hazard::{check, HazardKind, Options, Report};
use tcgen05_run::tensor_map::TensorMap;
use tcgen05_run::{Arg, Config, Module};

use common::inputs::{repo, splitmix};

fn schedules() -> u32 {
    std::env::var("HAZARD_SCHEDULES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2)
}

fn dims(s: &str) -> [u32; 3] {
    let mut d = [1; 3];
    for (i, x) in s.split(',').enumerate() {
        d[i] = x.parse().expect("dimension");
    }
    d
}

fn words(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed;
    (0..n)
        .flat_map(|_| ((splitmix(&mut s) % 1000) as u32).to_le_bytes())
        .collect()
}

/// One line of `hw/run/breadth/kernels.txt`: the kernel, its launch and arguments (inputs
/// drawn here: the checker needs a run, not the GPU's numbers).
fn breadth(line: &str) -> (String, Module, Config, Vec<Arg>) {
    let f: Vec<&str> = line.split_whitespace().collect();
    let n: usize = f[5].split(':').nth(2).expect("count").parse().expect("n");
    let out: usize = f[6].parse().expect("words");
    let args = f[7]
        .split(',')
        .map(|a| match a {
            "in" => Arg::Buffer(words(1, n)),
            "out" => Arg::Buffer(vec![0; (out + 16) * 4]),
            "null" => Arg::Null,
            "tmap" => {
                let t: Vec<u64> = f[8].split(',').map(|x| x.parse().expect("n")).collect();
                let m = TensorMap {
                    element_bytes: 4,
                    dims: vec![t[0], t[1]],
                    strides: vec![t[0] * 4],
                    box_dims: vec![t[2] as u32, t[3] as u32],
                    element_strides: vec![1, 1],
                    swizzle: Swizzle::None,
                };
                Arg::TensorMap(m, words(1, n))
            }
            i => Arg::i32(i.trim_start_matches("i32:").parse().expect("i32")),
        })
        .collect();
    let path = repo(&format!("hw/run/breadth/ptx/{}.ptx", f[0]));
    let module = Module::read(&std::fs::read_to_string(path).expect("ptx")).expect("reads");
    let config = Config {
        grid: dims(f[1]),
        block: dims(f[2]),
        cluster: dims(f[3]),
        shared: f[4].parse().expect("shared"),
        limits: Default::default(),
    };
    (f[0].to_string(), module, config, args)
}

/// Whether the kernel of a line of `kernels.txt` runs in clusters of more than one CTA (by
/// its launch or its `.reqnctapercluster`).
fn clustered(line: &str) -> bool {
    let f: Vec<&str> = line.split_whitespace().collect();
    let path = repo(&format!("hw/run/breadth/ptx/{}.ptx", f[0]));
    let src = std::fs::read_to_string(path).expect("ptx");
    dims(f[3]).iter().product::<u32>() > 1 || src.contains(".reqnctapercluster 2")
}

fn checked(name: &str, module: &Module, config: &Config, args: &mut [Arg], n: u32) -> Report {
    check(module, name, config, args, &Options { schedules: n })
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_clean(name: &str, r: &Report) {
    assert!(
        r.findings.is_empty(),
        "{name}: seeds {:?}: {:#?}",
        r.seeds,
        r.findings
    );
    eprintln!("{name}: clean over {} runs", r.runs);
}

/// Every kernel of `hw/run/breadth/kernels.txt` launched in clusters of more than one CTA.
#[test]
fn breadth_cluster_kernels_are_clean() {
    let text = std::fs::read_to_string(repo("hw/run/breadth/kernels.txt")).expect("list");
    let mut ran = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if !clustered(line) {
            continue;
        }
        let (name, module, config, mut args) = breadth(line);
        let r = checked(&name, &module, &config, &mut args, schedules());
        assert_clean(&name, &r);
        ran += 1;
    }
    assert_eq!(
        ran, 7,
        "cluster_ids, dsmem_ring, mbar_remote, tma_multicast, cluster16, cluster_req, bulk_copy"
    );
}

fn f16_ones(n: usize) -> Vec<u8> {
    let mut s = 7;
    (0..n)
        .flat_map(|_| {
            let r = splitmix(&mut s);
            (((r & 1) << 15 | (12 + (r >> 1) % 6) << 10 | (r >> 8) & 0x3FF) as u16).to_le_bytes()
        })
        .collect()
}

/// `tests/pair/mma_m256.ptx` (or a text derived from it) under the checker.
fn pair_report(src: &str, n: u32) -> Result<Report, tcgen05_run::RunError> {
    let module = Module::read(src)?;
    let mut args = vec![
        Arg::Buffer(f16_ones(2 * 10240 / 2)),
        Arg::Buffer(vec![0; 256 * 64 * 4]),
        Arg::i32(3),
    ];
    let config = Config {
        grid: [2, 1, 1],
        block: [128, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    };
    check(
        &module,
        "pair_mma",
        &config,
        &mut args,
        &Options { schedules: n },
    )
}

fn pair_ptx() -> String {
    std::fs::read_to_string(repo("crates/tcgen05-run/tests/pair/mma_m256.ptx")).expect("ptx")
}

#[test]
fn pair_mma_kernel_is_clean() {
    let r = pair_report(&pair_ptx(), schedules()).unwrap_or_else(|e| panic!("{e}"));
    assert_clean("mma_m256", &r);
}

#[test]
fn gluon_two_cta_dot_is_clean() {
    let src =
        std::fs::read_to_string(repo("examples/kernels/gluon_pair_dot_f16.ptx")).expect("ptx");
    let module = Module::read(&src).expect("reads");
    let mut args = vec![
        Arg::Buffer(f16_ones(256 * 64)),
        Arg::Buffer(f16_ones(64 * 128)),
        Arg::Buffer(vec![0; 256 * 128 * 4]),
        Arg::Null,
        Arg::Null,
    ];
    let config = Config {
        grid: [2, 1, 1],
        block: [128, 1, 1],
        cluster: [1, 1, 1],
        shared: 64 * 1024,
        limits: Default::default(),
    };
    let r = checked("pair_dot", &module, &config, &mut args, schedules());
    assert_clean("gluon_pair_dot_f16", &r);
}

/// A bug planted in a cluster kernel by a rule over its text: (what, the copy, the line the
/// finding must straddle).
fn cluster_plants(src: &str) -> Vec<(String, String, u32)> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let code = l.trim_start();
        if code.starts_with("barrier.cluster.arrive") && !code.contains(".relaxed") {
            let relaxed = l
                .replace(".release.aligned", ".aligned")
                .replace(".aligned", ".relaxed.aligned");
            let mut copy = lines.clone();
            copy[i] = &relaxed;
            out.push((
                format!("arrive at {} relaxed", i + 1),
                copy.join("\n"),
                i as u32 + 1,
            ));
        }
        if code.starts_with("mbarrier.try_wait") {
            let mut copy = lines.clone();
            copy[i] = "";
            if let Some(j) = (i + 1..lines.len()).find(|&j| lines[j].contains("bra")) {
                copy[j] = "";
            }
            out.push((
                format!("wait at {} deleted", i + 1),
                copy.join("\n"),
                i as u32 + 1,
            ));
        }
    }
    out
}

/// Planted bugs in the cluster kernels of `hw/run/breadth`: each `barrier.cluster.arrive`
/// made `.relaxed` (it releases nothing, PTX ISA 9.7.13.2) and each mbarrier wait deleted.
/// Each is found as a `data-race` or `read-before-complete` across the planted line (different
/// CTAs where the kernel's data crosses CTAs), or as `dsmem-after-exit` before it (the last
/// barrier of cluster16 and cluster_req: their `ld.shared::cluster` of a peer is no longer
/// ordered before the peer exits), except where the relaxed barrier orders nothing the kernel needs or the checker
/// sees: the last barrier of mbar_remote, tma_multicast and bulk_copy (what reaches a peer's
/// shared memory there completes on that peer's own mbarrier, which it waits on before it
/// exits), and a barrier after `fence.mbarrier_init.release.cluster` that publishes only the
/// init (the fence releases it; a relaxed arrival after it is CUTLASS's own pattern, so those
/// copies are correct). cluster16's first barrier orders thread 0's initialising store before
/// every CTA's `atom`/`red.shared::cluster` on it: relaxed, the atomics race with the store
/// (found since atomics are observed, `tests/observed_hazards.rs`).
#[test]
fn planted_cluster_bugs_are_found() {
    let text = std::fs::read_to_string(repo("hw/run/breadth/kernels.txt")).expect("list");
    let (mut found, mut total) = (0, 0);
    let mut clean = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if !clustered(line) {
            continue;
        }
        let (name, _, config, args) = breadth(line);
        let path = repo(&format!("hw/run/breadth/ptx/{name}.ptx"));
        let src = std::fs::read_to_string(path).expect("ptx");
        for (what, copy, at) in cluster_plants(&src) {
            total += 1;
            let module = Module::read(&copy).expect("reads");
            let mut args = args.clone();
            let r = check(
                &module,
                &name,
                &config,
                &mut args,
                &Options { schedules: 0 },
            );
            let first = r.as_ref().ok().and_then(|r| {
                r.findings.iter().find(|f| {
                    let across = f
                        .other_line
                        .is_some_and(|o| f.line.min(o) < at && at < f.line.max(o));
                    match f.kind {
                        HazardKind::DataRace | HazardKind::ReadBeforeComplete => across,
                        HazardKind::DsmemAfterExit => f.line < at,
                        _ => false,
                    }
                })
            });
            let hit = first.is_some();
            let seen = first.map(|f| (f.kind, f.line, f.other_line, f.rank, f.other_rank));
            eprintln!("{name}: {what}: {seen:?}");
            if hit {
                found += 1;
            } else {
                clean.push(format!("{name}: {what}: {:?}", r.map(|r| r.findings.len())));
            }
        }
    }
    eprintln!("{found} of {total} found; not: {clean:#?}");
    let expected_clean = [
        "mbar_remote: arrive at 29 relaxed: Ok(0)",
        "mbar_remote: arrive at 64 relaxed: Ok(0)",
        "tma_multicast: arrive at 77 relaxed: Ok(0)",
        "bulk_copy: arrive at 30 relaxed: Ok(0)",
        "bulk_copy: arrive at 69 relaxed: Ok(0)",
    ];
    assert_eq!(clean, expected_clean);
    assert_eq!((found, total), (11, 16));
}

/// The cost of hazard tracking on the cluster kernels against the plain run, same process,
/// best of 3 each: `cargo test --release -p tcgen05-run --test cluster_hazards -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a benchmark: run in release"]
fn cost_on_cluster_kernels() {
    use std::time::Instant;
    let best = |f: &mut dyn FnMut()| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let text = std::fs::read_to_string(repo("hw/run/breadth/kernels.txt")).expect("list");
    let (mut plain_all, mut checked_all) = (0.0, 0.0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if !clustered(line) {
            continue;
        }
        let (name, module, config, args) = breadth(line);
        let plain = best(&mut || {
            let mut a = args.clone();
            tcgen05_run::launch(&module, &name, &config, &mut a).expect("runs");
        });
        let checked = best(&mut || {
            let mut a = args.clone();
            let r = checked(&name, &module, &config, &mut a, 0);
            assert!(r.findings.is_empty());
        });
        plain_all += plain;
        checked_all += checked;
        eprintln!(
            "{name:<14} plain {plain:>8.4} s  hazards {checked:>8.4} s  x{:.2}",
            checked / plain
        );
    }
    eprintln!(
        "all            plain {plain_all:>8.4} s  hazards {checked_all:>8.4} s  x{:.2}",
        checked_all / plain_all
    );
}
