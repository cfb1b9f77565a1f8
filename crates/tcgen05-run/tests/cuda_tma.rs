//! Hand-written CUDA C++ Blackwell GEMMs with TMA and tcgen05 fences, compiled by the pinned
//! nvcc 13.5.37 (`conformance/kernels/cuda/gen_cuda.py`, committed PTX): each runs in the
//! interpreter with tensor maps built by the host API (`encode_tiled`, like
//! `cuTensorMapEncodeTiled`), and C must equal an independent reference: the chain of K = 16
//! MMAs as the numerics module defines the tensor core's arithmetic (`ParamRow::dot`, each
//! step's D the next step's C), applied to the input matrices directly.
//!
//! The hazard checker runs them clean; with a `tcgen05.fence::after_thread_sync` or
//! `before_thread_sync` of a relaxed hand-off deleted, it reports `missing-tcgen05-fence` at
//! the access that lost its ordering (rules.md I9); the fences around `bar.sync` are not needed
//! (acquire/release synchronisation, I9) and their deletion stays clean.

mod common;

use tcgen05::mma::Kind;
use tcgen05::numerics::fdpa::Operands;
use tcgen05::numerics::params::{Arch, Form, Instruction, ParamRow};
use tcgen05::numerics::Format;
use tcgen05_run::hazard::{check, HazardKind, Options};
use tcgen05_run::tensor_map_encode::{encode_tiled, DataType, EncodeTiled, MapSwizzle};
use tcgen05_run::{launch, Arg, Config, Module};

use common::inputs::{float_code, repo, splitmix};

/// The kernels: (stem, f16 operands).
const KERNELS: [(&str, bool); 4] = [
    ("cuda_tma_gemm_bf16_s1", false),
    ("cuda_tma_gemm_bf16_s2", false),
    ("cuda_tma_gemm_bf16_s3", false),
    ("cuda_tma_gemm_f16_s2", true),
];

/// M, N, K of every run: two 128 x 128 tiles of one CTA (the accumulator reused), three K
/// tiles of 64 each (stages refilled).
const SHAPE: (usize, usize, usize) = (128, 256, 192);

fn ptx(stem: &str) -> String {
    std::fs::read_to_string(repo(&format!("conformance/kernels/cuda/{stem}.ptx")))
        .expect("the committed PTX")
}

/// `n` 16-bit codes: bf16 with biased exponent in [120, 134), or f16 in [10, 20); random sign
/// and fraction.
fn codes(mut seed: u64, n: usize, f16: bool) -> Vec<u32> {
    let (frac, range) = if f16 { (10, (10, 10)) } else { (7, (120, 14)) };
    (0..n)
        .map(|_| float_code(splitmix(&mut seed), 15, frac, range) as u32)
        .collect()
}

fn bytes16(codes: &[u32]) -> Vec<u8> {
    codes
        .iter()
        .flat_map(|c| (*c as u16).to_le_bytes())
        .collect()
}

/// A tensor map over a row-major `rows x cols` matrix of 16-bit elements with 128 x 64
/// boxes and 128B swizzle, through the driver-style encoder.
fn map(codes: &[u32], rows: usize, cols: usize, f16: bool) -> Arg {
    let p = EncodeTiled {
        data_type: if f16 {
            DataType::Float16
        } else {
            DataType::Bfloat16
        },
        global_address: 0,
        global_dim: vec![cols as u64, rows as u64],
        global_strides: vec![cols as u64 * 2],
        box_dim: vec![64, 128],
        element_strides: vec![1, 1],
        interleave: Default::default(),
        swizzle: MapSwizzle::B128,
        l2_promotion: Default::default(),
        oob_fill: Default::default(),
    };
    let m = encode_tiled(&p).unwrap_or_else(|e| panic!("tensor map refused: {e:?}"));
    Arg::TensorMap(m, bytes16(codes))
}

/// The kernel's arguments for A (M x K) and B (N x K): A's map, B's map, C, M, N, K.
fn args(a: &[u32], b: &[u32], f16: bool) -> Vec<Arg> {
    let (m, n, k) = SHAPE;
    vec![
        map(a, m, k, f16),
        map(b, n, k, f16),
        Arg::Buffer(vec![0xAB; m * n * 4]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
    ]
}

fn config() -> Config {
    Config {
        grid: [1, 1, 1],
        block: [128, 1, 1],
        cluster: [1, 1, 1],
        shared: 3 * 32768 + 1024,
        limits: Default::default(),
    }
}

/// C[i][j] after the chain of K = 16 MMAs of sm_100a's `.kind::f16` with f32 D: A row i and
/// B row j (B is N x K), +0 before the first step.
fn reference(a: &[u32], b: &[u32], f16: bool) -> Vec<u32> {
    let (m, n, k) = SHAPE;
    let ab = if f16 { Format::F16 } else { Format::Bf16 };
    let row: ParamRow = Form {
        arch: Arch::Sm100a,
        instruction: Some(Instruction::Tcgen05Mma),
        kind: Kind::F16,
        a: ab,
        b: ab,
        d: Some(Format::F32),
        scale: None,
        block: None,
    }
    .row()
    .expect("the tcgen05.mma .kind::f16 row");
    let mut c = vec![0u32; m * n];
    for i in 0..m {
        for j in 0..n {
            for k0 in (0..k).step_by(16) {
                let ops = Operands {
                    a: &a[i * k + k0..i * k + k0 + 16],
                    b: &b[j * k + k0..j * k + k0 + 16],
                    c: c[i * n + j],
                    sfa: &[],
                    sfb: &[],
                };
                c[i * n + j] = row.dot(&ops, false).expect("finite codes").d_bits;
            }
        }
    }
    c
}

fn words(arg: &Arg) -> Vec<u32> {
    let Arg::Buffer(c) = arg else {
        unreachable!("C is a buffer")
    };
    c.chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

#[test]
fn every_kernel_equals_the_chain_of_mmas() {
    let (m, n, k) = SHAPE;
    for (i, (stem, f16)) in KERNELS.into_iter().enumerate() {
        let (a, b) = (
            codes(10 + i as u64, m * k, f16),
            codes(20 + i as u64, n * k, f16),
        );
        let module = Module::read(&ptx(stem)).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let mut args = args(&a, &b, f16);
        launch(&module, stem, &config(), &mut args).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let got = words(&args[2]);
        let want = reference(&a, &b, f16);
        let bad = (0..m * n).filter(|&x| got[x] != want[x]).count();
        assert_eq!(
            bad,
            0,
            "{stem}: {bad} of {} words differ from the reference (first at {:?})",
            m * n,
            (0..m * n).find(|&x| got[x] != want[x])
        );
    }
}

/// The hazards of `stem`'s PTX text `src` over the default and `schedules` seeded schedules.
fn hazards(stem: &str, src: &str, schedules: u32) -> Vec<(HazardKind, u32, Option<u32>)> {
    let (m, n, k) = SHAPE;
    let f16 = stem.contains("f16");
    let (a, b) = (codes(1, m * k, f16), codes(2, n * k, f16));
    let module = Module::read(src).unwrap_or_else(|e| panic!("{stem}: {e}"));
    let mut args = args(&a, &b, f16);
    let r = check(&module, stem, &config(), &mut args, &Options { schedules })
        .unwrap_or_else(|e| panic!("{stem}: {e}"));
    r.findings
        .iter()
        .map(|f| (f.kind, f.line, f.other_line))
        .collect()
}

/// The 1-based lines of `src` whose instruction starts with `opcode`.
fn lines_of(src: &str, opcode: &str) -> Vec<u32> {
    src.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with(opcode))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// `src` with line `line` (1-based) emptied.
fn without(src: &str, line: u32) -> String {
    src.lines()
        .enumerate()
        .map(|(i, l)| if i as u32 + 1 == line { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether the fence at `line` guards a relaxed hand-off: the nearest mbarrier instruction
/// before an `after_thread_sync` (after a `before_thread_sync`) is `.relaxed`.
fn relaxed_hand_off(src: &str, line: u32, after: bool) -> bool {
    let all: Vec<&str> = src.lines().collect();
    let i = line as usize - 1;
    let near = if after {
        all[..i]
            .iter()
            .rev()
            .find(|l| l.contains("mbarrier.") || l.contains("bar.sync"))
    } else {
        all[i + 1..]
            .iter()
            .find(|l| l.contains("mbarrier.") || l.contains("bar.sync"))
    };
    near.is_some_and(|l| l.contains(".relaxed"))
}

#[test]
fn clean_and_every_relaxed_hand_off_fence_is_needed() {
    for (stem, _) in KERNELS {
        let src = ptx(stem);
        assert_eq!(hazards(stem, &src, 2), vec![], "{stem}: unmodified");
        let mut found = 0;
        for (opcode, after) in [
            ("tcgen05.fence::after_thread_sync", true),
            ("tcgen05.fence::before_thread_sync", false),
        ] {
            for line in lines_of(&src, opcode) {
                let got = hazards(stem, &without(&src, line), 0);
                if relaxed_hand_off(&src, line, after) {
                    assert!(
                        got.iter()
                            .any(|(k, _, _)| *k == HazardKind::MissingTcgen05Fence),
                        "{stem}: {opcode} of line {line} deleted: {got:?}"
                    );
                    assert!(
                        got.iter()
                            .all(|(k, _, _)| *k == HazardKind::MissingTcgen05Fence),
                        "{stem}: {opcode} of line {line} deleted: other kinds too: {got:?}"
                    );
                    found += 1;
                } else {
                    assert_eq!(
                        got,
                        vec![],
                        "{stem}: {opcode} of line {line} (around bar.sync)"
                    );
                }
            }
        }
        // Two after_thread_sync (the MMA thread's and the epilogue's) and one
        // before_thread_sync (the epilogue's) guard relaxed hand-offs.
        assert_eq!(found, 3, "{stem}");
    }
}

/// Two planted bugs the checker once missed (conformance/kernels/planted.tsv), in the first
/// CUDA kernel, with every expected line read off the PTX text:
/// - each `mbarrier.init` count lowered by one (to 0): `mbarrier-count` at the init, also
///   when the run then stops with an error (the accumulator's `acc_full` at 0 lets the
///   epilogue's `tcgen05.ld` read Tensor Memory no MMA wrote; the finding made before the
///   error is kept);
/// - the refill's wait on the consumer's release (the first `try_wait.parity` followed by a
///   `cp.async.bulk.tensor` before the next MMA) on the other parity: it passes at once on
///   the stage the consumer has not released, and the refill's tensor copy is issued while
///   the copy that filled the stage is in flight (`write-before-complete` at a copy after the
///   wait, against a copy).
#[test]
fn lowered_init_counts_and_a_flipped_refill_parity_are_found() {
    let stem = KERNELS[0].0;
    let src = ptx(stem);
    let lines: Vec<&str> = src.lines().collect();
    for at in lines_of(&src, "mbarrier.init") {
        let line = lines[at as usize - 1];
        let (head, count) = line.rsplit_once(',').expect("init count");
        let n: u32 = count.trim().trim_end_matches(';').parse().expect("count");
        let mutated: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i as u32 + 1 == at {
                    format!("{head}, {};", n - 1)
                } else {
                    (*l).to_string()
                }
            })
            .collect();
        let found = hazards(stem, &mutated.join("\n"), 0);
        assert!(
            found
                .iter()
                .any(|&(k, l, _)| k == HazardKind::MbarrierCount && l == at),
            "init count {} at line {at}: {found:?}",
            n - 1
        );
    }
    let mmas = lines_of(&src, "tcgen05.mma");
    let copies = lines_of(&src, "cp.async.bulk.tensor");
    let wait = lines_of(&src, "mbarrier.try_wait.parity")
        .into_iter()
        .find(|&w| {
            let next = mmas.iter().find(|&&m| m > w).copied().unwrap_or(u32::MAX);
            copies.iter().any(|&c| w < c && c < next)
        })
        .expect("a refill wait");
    let text = lines[wait as usize - 1];
    let (before, parity) = text.rsplit_once(',').expect("parity operand");
    let parity = parity.trim().trim_end_matches(';');
    let mut mutated: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
    // The statement before the wait in its inline-asm block declares its predicate; the
    // flipped parity is computed there.
    mutated[wait as usize - 2].push_str(&format!(
        " .reg .b32 %plantpar; xor.b32 %plantpar, {parity}, 1;"
    ));
    mutated[wait as usize - 1] = format!("{before}, %plantpar;");
    let next = mmas
        .iter()
        .find(|&&m| m > wait)
        .copied()
        .unwrap_or(u32::MAX);
    let refill: Vec<u32> = copies
        .iter()
        .copied()
        .filter(|&c| wait < c && c < next)
        .collect();
    let found = hazards(stem, &mutated.join("\n"), 0);
    assert!(
        found
            .iter()
            .any(|&(k, l, o)| k == HazardKind::WriteBeforeComplete
                && refill.contains(&l)
                && o.is_some_and(|o| copies.contains(&o))),
        "flipped parity at line {wait}: {found:?}"
    );
}
