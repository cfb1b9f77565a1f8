//! The kernels of `hw/run/breadth` (hand-written PTX for clusters, distributed shared memory,
//! multicast copies, warp votes and atomics; Triton 3.9.0 kernels for sm_90a) run in the
//! interpreter on the inputs `hw/run/breadth/harness.cu` gives them on the GPU; every output
//! byte (16 guard words past the end included) must equal the bytes the GPU wrote
//! (`hw/run/breadth/results/*.out`, recorded on a Hopper GPU).

mod common;

use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05_run::tensor_map::TensorMap;
use tcgen05_run::{launch, Arg, Config, Module};

use common::inputs::{float_code, repo, splitmix};

/// The harness's `input`: `n` words of the given kind.
fn input(kind: &str, mut seed: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| {
            if kind == "f16" {
                return (0..2).fold(0u32, |w, h| {
                    let c = float_code(splitmix(&mut seed), 15, 10, (10, 10)) as u32;
                    w | c << (16 * h)
                });
            }
            let r = splitmix(&mut seed);
            match kind {
                "bits" => r as u32,
                "small" => (r % 1000) as u32,
                "lanes" => (r % 4) as u32,
                _ => float_code(r, 31, 23, (110, 30)) as u32,
            }
        })
        .collect()
}

fn dims(s: &str) -> [u32; 3] {
    let mut d = [1; 3];
    for (i, x) in s.split(',').enumerate() {
        d[i] = x.parse().expect("dimension");
    }
    d
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// One line of `kernels.txt`, run in the interpreter: the output buffer's bytes.
fn run_line(line: &str) -> (String, Vec<u8>) {
    let f: Vec<&str> = line.split_whitespace().collect();
    let name = f[0].to_string();
    let spec: Vec<&str> = f[5].split(':').collect();
    let input = input(
        spec[0],
        spec[1].parse().expect("a number in kernels.txt"),
        spec[2].parse().expect("a number in kernels.txt"),
    );
    let out_words: usize = f[6].parse().expect("a number in kernels.txt");
    let mut out_at = 0;
    let mut args = Vec::new();
    for a in f[7].split(',') {
        args.push(match a {
            "in" => Arg::Buffer(bytes(&input)),
            "out" => {
                out_at = args.len();
                Arg::Buffer(bytes(&vec![0xABAB_ABAB; out_words + 16]))
            }
            "null" => Arg::Null,
            "tmap" => {
                let t: Vec<u32> = f[8]
                    .split(',')
                    .map(|x| x.parse().expect("a number in kernels.txt"))
                    .collect();
                let m = TensorMap {
                    element_bytes: 4,
                    dims: vec![u64::from(t[0]), u64::from(t[1])],
                    strides: vec![u64::from(t[0]) * 4],
                    box_dims: vec![t[2], t[3]],
                    element_strides: vec![1, 1],
                    swizzle: Swizzle::None,
                };
                Arg::TensorMap(m, bytes(&input))
            }
            i => Arg::i32(
                i.strip_prefix("i32:")
                    .expect("argument kind")
                    .parse()
                    .expect("a number in kernels.txt"),
            ),
        });
    }
    let src = std::fs::read_to_string(repo(&format!("hw/run/breadth/ptx/{name}.ptx")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let module = Module::read(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
    let config = Config {
        grid: dims(f[1]),
        block: dims(f[2]),
        cluster: dims(f[3]),
        shared: f[4].parse().expect("a number in kernels.txt"),
        limits: Default::default(),
    };
    launch(&module, &name, &config, &mut args).unwrap_or_else(|e| panic!("{name}: {e}"));
    match &args[out_at] {
        Arg::Buffer(b) => (name, b.clone()),
        _ => unreachable!(),
    }
}

fn kernels() -> Vec<String> {
    std::fs::read_to_string(repo("hw/run/breadth/kernels.txt"))
        .expect("kernels.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Runs the kernel `name` of kernels.txt and compares its output with the GPU's, word by word.
fn check(name: &str) {
    let line = kernels()
        .into_iter()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("{name} not in kernels.txt"));
    let (_, got) = run_line(&line);
    if std::env::var_os("BREADTH_DUMP").is_some() {
        std::fs::write(std::env::temp_dir().join(format!("{name}.out")), &got).expect("dump");
    }
    let path = format!("hw/run/breadth/results/{name}.out");
    let want = std::fs::read(repo(&path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(got.len(), want.len(), "{name}: output size");
    let diffs: Vec<usize> = (0..want.len() / 4)
        .filter(|i| got[i * 4..i * 4 + 4] != want[i * 4..i * 4 + 4])
        .collect();
    assert!(
        diffs.is_empty(),
        "{name}: {} of {} words differ from the GPU, first at word {:?}: got {:02x?}, GPU {:02x?}",
        diffs.len(),
        want.len() / 4,
        diffs.first(),
        diffs.first().map(|&i| &got[i * 4..i * 4 + 4]),
        diffs.first().map(|&i| &want[i * 4..i * 4 + 4]),
    );
}

#[test]
fn every_kernel_has_a_test() {
    let tested = include_str!("breadth.rs");
    for line in kernels() {
        let name = line.split_whitespace().next().expect("kernel name");
        assert!(
            tested.contains(&format!("check(\"{name}\")")),
            "{name} has no test"
        );
    }
}

#[test]
fn cluster_ids() {
    check("cluster_ids");
}

#[test]
fn dsmem_ring() {
    check("dsmem_ring");
}

#[test]
fn mbar_remote() {
    check("mbar_remote");
}

#[test]
fn tma_multicast() {
    check("tma_multicast");
}

#[test]
fn warp_vote() {
    check("warp_vote");
}

#[test]
fn atomics() {
    check("atomics");
}

#[test]
fn tri_atomic() {
    check("tri_atomic");
}

#[test]
fn tri_reduce() {
    check("tri_reduce");
}

#[test]
fn tri_f16() {
    check("tri_f16");
}

#[test]
fn tri_call() {
    check("tri_call");
}

#[test]
fn cluster16() {
    check("cluster16");
}

#[test]
fn cluster_req() {
    check("cluster_req");
}

#[test]
fn generic_local() {
    check("generic_local");
}

#[test]
fn half_ops() {
    check("half_ops");
}

#[test]
fn cvt_int() {
    check("cvt_int");
}

#[test]
fn recursion() {
    check("recursion");
}

#[test]
fn bulk_copy() {
    check("bulk_copy");
}

#[test]
fn float_fn() {
    check("float_fn");
}

#[test]
fn directed() {
    check("directed");
}
