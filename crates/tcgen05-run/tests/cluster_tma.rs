//! Cluster kernels fed by the tensor memory accelerator, end to end: Triton 3.9.0 Gluon kernels
//! compiled for sm_100a (`conformance/kernels/gen_gluon.py`, committed as
//! `examples/kernels/gluon_*_f16.ptx` by `examples/kernels/generate.py`) run in the interpreter
//! with tensor maps built by the host API, and every output word must equal an independent
//! reference computed without the interpreter and without the emulator: the chain of MMAs of
//! K = 16 as the numerics module defines the tensor core's arithmetic (`ParamRow::dot`, the
//! exact per-element model), each step's D the next step's C, applied to the matrices directly.
//!
//! - `gluon_multicast_dot_f16.ptx`: a 2 x 2 cluster; each K step loads every tile of A and B
//!   once and multicasts it (`cp.async.bulk.tensor.2d ... .multicast::cluster` with the
//!   ctaMasks `0b0101 << (rank & 1)` and `0b0011 << (rank & 2)`, PTX ISA 9.7.9.25.5.1) to the
//!   two CTAs that use it, whose mbarriers each receive the box's `complete_tx`.

mod common;

use tcgen05::mma::Kind;
use tcgen05::numerics::fdpa::Operands;
use tcgen05::numerics::params::{Arch, Form, Instruction, ParamRow};
use tcgen05::numerics::Format;
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05_run::hazard::{self, Finding};
use tcgen05_run::tensor_map::TensorMap;
use tcgen05_run::{launch, Arg, Config, Module, RunError};

use common::inputs::{float_code, repo, splitmix};

/// `n` f16 codes: random sign, biased exponent in [10, 20), random fraction.
fn f16_codes(mut seed: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| float_code(splitmix(&mut seed), 15, 10, (10, 10)) as u32)
        .collect()
}

fn bytes16(codes: &[u32]) -> Vec<u8> {
    codes
        .iter()
        .flat_map(|c| (*c as u16).to_le_bytes())
        .collect()
}

/// D (m x n) of A (m x k, row-major) and B (k x n, row-major) after the chain of MMAs of
/// K = 16, each step's D the next step's C (+0 before the first), f16 inputs, f32 D.
fn reference(a: &[u32], b: &[u32], (m, n, k): (usize, usize, usize)) -> Vec<u32> {
    let row: ParamRow = Form {
        arch: Arch::Sm100a,
        instruction: Some(Instruction::Tcgen05Mma),
        kind: Kind::F16,
        a: Format::F16,
        b: Format::F16,
        d: Some(Format::F32),
        scale: None,
        block: None,
    }
    .row()
    .expect("the f16 form of the tables");
    let mut c = vec![0u32; m * n];
    for k0 in (0..k).step_by(16) {
        for j in 0..n {
            let bcol: Vec<u32> = (0..16).map(|kk| b[(k0 + kk) * n + j]).collect();
            for i in 0..m {
                let ops = Operands {
                    a: &a[i * k + k0..i * k + k0 + 16],
                    b: &bcol,
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

/// A 2-D f16 tensor map over a row-major `rows x cols` matrix with `box_rows x box_cols` boxes
/// and 128B swizzle (Triton's `tensordesc_meta` for these kernels: swizzle 3, the block sizes
/// of one CTA's share), followed by the descriptor's shape (i32) and strides (i64), the
/// parameters Triton 3.9.0 appends after each map.
fn f16_map(
    codes: &[u32],
    (rows, cols): (usize, usize),
    (box_rows, box_cols): (u32, u32),
) -> Vec<Arg> {
    let m = TensorMap {
        element_bytes: 2,
        dims: vec![cols as u64, rows as u64],
        strides: vec![cols as u64 * 2],
        box_dims: vec![box_cols, box_rows],
        element_strides: vec![1, 1],
        swizzle: Swizzle::B128,
    };
    vec![
        Arg::TensorMap(m, bytes16(codes)),
        Arg::i32(rows as i32),
        Arg::i32(cols as i32),
        Arg::i64(cols as i64),
        Arg::i64(1),
    ]
}

/// One Gluon TMA GEMM: C (M x N, f32) = A (M x K) x B (K x N), f16, M = 256, N = 128,
/// K = 128 in two steps of 64; A's boxes are 128 x 64 and B's 64 x `b_box_cols`. `ptx`
/// rewrites the kernel's text first (a mutation). Returns C's words and the reference.
fn run_gemm(
    file: &str,
    kernel: &str,
    ctas: u32,
    b_box_cols: u32,
    ptx: impl Fn(String) -> String,
) -> Result<(Vec<u32>, Vec<u32>), RunError> {
    let (got, want, _) = gemm(file, kernel, (ctas, b_box_cols), ptx, None)?;
    Ok((got, want))
}

/// C's words, the reference's and the hazard checker's findings.
type Checked = (Vec<u32>, Vec<u32>, Vec<Finding>);

/// [`run_gemm`], under the hazard checker with `schedules` seeded schedules when given (then
/// also its findings).
fn gemm(
    file: &str,
    kernel: &str,
    (ctas, b_box_cols): (u32, u32),
    ptx: impl Fn(String) -> String,
    schedules: Option<u32>,
) -> Result<Checked, RunError> {
    let (m, n, k) = (256usize, 128usize, 128usize);
    let src = ptx(std::fs::read_to_string(repo(file)).expect("the committed PTX"));
    let seed = file
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let (a, b) = (f16_codes(seed, m * k), f16_codes(seed + 1, k * n));
    let mut args = f16_map(&a, (m, k), (128, 64));
    args.extend(f16_map(&b, (k, n), (64, b_box_cols)));
    let out = args.len();
    args.push(Arg::Buffer(vec![0xAB; m * n * 4]));
    args.push(Arg::Null);
    args.push(Arg::Null);
    let config = Config {
        grid: [ctas, 1, 1],
        block: [128, 1, 1],
        cluster: [1, 1, 1],
        shared: 227 * 1024,
        limits: Default::default(),
    };
    let module = Module::read(&src)?;
    let findings = match schedules {
        None => {
            launch(&module, kernel, &config, &mut args)?;
            Vec::new()
        }
        Some(schedules) => {
            let options = hazard::Options { schedules };
            hazard::check(&module, kernel, &config, &mut args, &options)?.findings
        }
    };
    let Arg::Buffer(c) = &args[out] else {
        unreachable!()
    };
    let got = c
        .chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    Ok((got, reference(&a, &b, (m, n, k)), findings))
}

fn assert_equal(name: &str, got: &[u32], want: &[u32], n: usize) {
    assert_eq!(got.len(), want.len(), "{name}: output size");
    let diffs: Vec<usize> = (0..want.len()).filter(|&i| got[i] != want[i]).collect();
    assert!(
        diffs.is_empty(),
        "{name}: {} of {} words differ from the reference, first at row {} column {}: got {:#010x}, want {:#010x}",
        diffs.len(),
        want.len(),
        diffs[0] / n,
        diffs[0] % n,
        got[diffs[0]],
        want[diffs[0]],
    );
}

const MULTICAST: &str = "examples/kernels/gluon_multicast_dot_f16.ptx";

#[test]
fn gluon_multicast_dot_equals_the_chain_of_mmas() {
    let (got, want) = run_gemm(MULTICAST, "multicast_dot", 4, 64, |s| s)
        .unwrap_or_else(|e| panic!("{MULTICAST}: {e}"));
    assert_equal(MULTICAST, &got, &want, 128);
}

/// The multicast kernel's A copies with ctaMask `0b0001 << (rank & 1)` instead of
/// `0b0101 << ...`: ranks 2 and 3 never receive A's box, and their mbarriers never complete
/// (each expects the bytes of both boxes): their 8 warps are reported at the first wait on it,
/// the other CTAs' 8 at the cluster barrier after their first K step.
#[test]
fn multicast_mask_missing_a_cta_deadlocks_it() {
    let src = std::fs::read_to_string(repo(MULTICAST)).expect("the committed PTX");
    let wait = 1 + src
        .lines()
        .position(|l| l.contains("mbarrier.try_wait"))
        .expect("a wait") as u32;
    let r = run_gemm(MULTICAST, "multicast_dot", 4, 64, |s| {
        let t = s.replacen("mov.b32 \t%r21, 5;", "mov.b32 \t%r21, 1;", 1);
        assert_ne!(t, s, "the mask's constant");
        t
    });
    match r {
        Err(RunError::Deadlock { warps, .. }) => {
            let at_wait = warps.iter().filter(|w| w.line == wait).count();
            assert_eq!((at_wait, warps.len()), (8, 16), "{warps:?}");
        }
        other => panic!("expected a deadlock, got {:?}", other.map(|_| ())),
    }
}

const PAIR_TMA: &str = "examples/kernels/gluon_pair_tma_dot_f16.ptx";

/// The two-CTA MMA fed by `cp.async.bulk.tensor.2d.cta_group::2`: each CTA loads its 128 rows
/// of A and 64 columns of B into its own shared memory, and both CTAs' copies complete on the
/// even CTA's mbarrier, addressed by clearing bit 24 of the odd CTA's own address.
#[test]
fn gluon_pair_tma_dot_equals_the_chain_of_mmas() {
    let (got, want) = run_gemm(PAIR_TMA, "pair_tma_dot", 2, 64, |s| s)
        .unwrap_or_else(|e| panic!("{PAIR_TMA}: {e}"));
    assert_equal(PAIR_TMA, &got, &want, 128);
}

/// The error of a run refused at a line: (line, what, why).
fn refusal(r: Result<(Vec<u32>, Vec<u32>), RunError>) -> (u32, String, &'static str) {
    match r {
        Err(RunError::Invalid { line, what, why }) => (line, what, why),
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    }
}

/// The first copy of A with `.cta_group::1`: the odd CTA's copy names the even CTA's mbarrier,
/// which only `.cta_group::2` allows (PTX ISA 9.7.9.25.5.1); refused at its line.
#[test]
fn pair_tma_copy_without_cta_group_2_is_refused() {
    let src = std::fs::read_to_string(repo(PAIR_TMA)).expect("the committed PTX");
    let copy = 1 + src
        .lines()
        .position(|l| l.contains("cp.async.bulk.tensor"))
        .expect("a copy") as u32;
    let (line, what, why) = refusal(run_gemm(PAIR_TMA, "pair_tma_dot", 2, 64, |s| {
        s.replacen(".2d.cta_group::2.", ".2d.cta_group::1.", 1)
    }));
    assert_eq!(line, copy, "{what}: {why}");
    assert!(
        what.contains("mbarrier") && what.contains("CTA rank 0") && why.contains("9.7.9.25.5.1"),
        "{what}: {why}"
    );
}

/// The first copy of A naming an mbarrier with bit 25 set (rank 2, outside the pair and the
/// cluster of 2): refused at the copy's line.
#[test]
fn pair_tma_mbarrier_outside_the_pair_is_refused() {
    let src = std::fs::read_to_string(repo(PAIR_TMA)).expect("the committed PTX");
    let copy = src
        .lines()
        .position(|l| l.contains("cp.async.bulk.tensor"))
        .expect("a copy");
    let (line, what, why) = refusal(run_gemm(PAIR_TMA, "pair_tma_dot", 2, 64, |s| {
        let mut lines: Vec<String> = s.lines().map(str::to_string).collect();
        let text = lines[copy].replace("], [%r4];", "], [%rbad];");
        assert_ne!(text, lines[copy], "the copy's mbarrier operand");
        lines[copy] = text;
        lines.insert(copy, "\tor.b32 \t%rbad, %r4, 33554432;".into());
        lines.insert(copy, "\t.reg .b32 \t%rbad;".into());
        lines.join("\n")
    }));
    assert_eq!(line as usize, copy + 3, "{what}: {why}");
    assert!(
        what.contains("mbarrier") && what.contains("CTA rank 2") && why.contains("9.7.9.25.5.1"),
        "{what}: {why}"
    );
}

/// A multicast copy with `.cta_group::2` (CUTLASS's 2-SM form) is not modelled: refused by name
/// at its line when the module is read.
#[test]
fn multicast_with_cta_group_is_refused_by_name() {
    let src = std::fs::read_to_string(repo(MULTICAST)).expect("the committed PTX");
    let copy = 1 + src
        .lines()
        .position(|l| l.contains(".multicast::cluster"))
        .expect("a multicast copy") as u32;
    let src = src.replacen(".2d.shared::cluster", ".2d.cta_group::2.shared::cluster", 1);
    match Module::read(&src) {
        Err(RunError::Unsupported { line, what, why }) => {
            assert_eq!(line, copy, "{what}: {why}");
            assert!(
                what.contains("cta_group::2") && why.contains("multicast"),
                "{what}: {why}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Both cluster TMA kernels under the hazard checker (clusters, multicast copies, the pair's
/// copies completing on the even CTA's mbarrier): no finding with the default schedule and 2
/// seeded ones, and the default schedule's output still equals the reference.
#[test]
fn cluster_tma_kernels_run_clean_under_the_hazard_checker() {
    for (file, kernel, ctas) in [
        (MULTICAST, "multicast_dot", 4),
        (PAIR_TMA, "pair_tma_dot", 2),
    ] {
        let (got, want, findings) = gemm(file, kernel, (ctas, 64), |s| s, Some(2))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(findings.is_empty(), "{file}: {findings:#?}");
        assert_equal(file, &got, &want, 128);
    }
}
