//! The CTA pair of `.cta_group::2` (PTX ISA 9.7.16.5.1) end to end: the hand-written kernel
//! `tests/pair/mma_m256.ptx` allocates Tensor Memory in both CTAs of a pair, issues two
//! `tcgen05.mma.cta_group::2.kind::f16` of M = 256 (each CTA reads its 128 rows of A and its
//! 32 columns of B from its own shared memory) and commits them with `.multicast::cluster` to
//! both CTAs' mbarriers; each CTA stores its rows of D.
//!
//! The expected D is computed without the interpreter and without the emulator: the chain of
//! two MMAs of K = 16 as the numerics module defines the tensor core's arithmetic
//! (`ParamRow::dot`, the exact per-element model, as `tests/blackwell.rs` does), applied to the
//! matrices directly. The shared memory images are laid out by the canonical K-major layout
//! without swizzling written out from PTX ISA 9.7.16.3 (core matrices of 8 rows x 16 bytes).
//! Mutations of the kernel check the pair's errors: each names its line.

use std::path::PathBuf;

use tcgen05::mma::Kind;
use tcgen05::numerics::fdpa::Operands;
use tcgen05::numerics::params::{Arch, Form, Instruction, ParamRow};
use tcgen05::numerics::Format;
use tcgen05_run::{launch, Arg, Config, Module, RunError};

const M: usize = 256;
const N: usize = 64;
const K: usize = 32;
/// Bytes of one CTA's shared memory image: A's 128 rows, then B's 32 columns.
const IMAGE: usize = 10240;

fn ptx() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/pair/mma_m256.ptx");
    std::fs::read_to_string(path).expect("the committed PTX")
}

/// The 1-based line of the first line of `src` containing `what`.
fn line_of(src: &str, what: &str) -> u32 {
    src.lines()
        .position(|l| l.contains(what))
        .map(|i| i as u32 + 1)
        .unwrap_or_else(|| panic!("no line with {what}"))
}

/// SplitMix64.
fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `n` f16 codes: random sign, biased exponent in [10, 20), random fraction.
fn f16_codes(mut seed: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| {
            let r = splitmix(&mut seed);
            ((r & 1) << 15 | (10 + (r >> 1) % 10) << 10 | (r >> 8) & 0x3FF) as u32
        })
        .collect()
}

/// The byte offset of element (`row`, `k`) of a 16-bit K-major operand without swizzling,
/// K = 32 stored: 8 x 8 core matrices of 16-byte rows, 128 bytes apart along K (LBO) and 512
/// bytes apart between 8-row groups (SBO) (PTX ISA 9.7.16.3, the canonical layouts).
fn kmajor(row: usize, k: usize) -> usize {
    (row / 8) * 512 + (k / 8) * 128 + (row % 8) * 16 + (k % 8) * 2
}

/// The two CTAs' shared memory images: CTA `r` holds A's rows `128 r ..` and B's columns
/// `32 r ..` (A row-major M x K, B row-major K x N).
fn images(a: &[u32], b: &[u32]) -> Vec<u8> {
    let mut img = vec![0u8; 2 * IMAGE];
    for r in 0..2 {
        let base = r * IMAGE;
        for row in 0..128 {
            for k in 0..K {
                let code = a[(128 * r + row) * K + k] as u16;
                let at = base + kmajor(row, k);
                img[at..at + 2].copy_from_slice(&code.to_le_bytes());
            }
        }
        for col in 0..N / 2 {
            for k in 0..K {
                let code = b[k * N + 32 * r + col] as u16;
                let at = base + 8192 + kmajor(col, k);
                img[at..at + 2].copy_from_slice(&code.to_le_bytes());
            }
        }
    }
    img
}

/// D (m x n) of A (m x k, row-major) and B (k x n, row-major) after the chain of MMAs of
/// K = 16, each step's D the next step's C (+0 before the first).
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

/// Runs `src` on the seeded inputs with `ctaMask` `mask` and the launch's cluster shape.
fn run(src: &str, mask: u32, cluster: [u32; 3]) -> Result<Vec<u32>, RunError> {
    let a = f16_codes(24, M * K);
    let b = f16_codes(25, K * N);
    let module = Module::read(src)?;
    let mut args = vec![
        Arg::Buffer(images(&a, &b)),
        Arg::Buffer(vec![0xAB; M * N * 4]),
        Arg::i32(mask as i32),
    ];
    let config = Config {
        grid: [2, 1, 1],
        block: [128, 1, 1],
        cluster,
        shared: 0,
        limits: Default::default(),
    };
    launch(&module, "pair_mma", &config, &mut args)?;
    let Arg::Buffer(d) = &args[1] else {
        unreachable!()
    };
    Ok(d.chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

#[test]
fn pair_mma_m256_equals_the_chain_of_mmas() {
    let got = run(&ptx(), 0b11, [1, 1, 1]).unwrap_or_else(|e| panic!("mma_m256.ptx: {e}"));
    let want = reference(&f16_codes(24, M * K), &f16_codes(25, K * N), (M, N, K));
    assert_equal("mma_m256.ptx", &got, &want, N);
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

/// Triton 3.9.0's Gluon compiles a two-CTA `tcgen05_mma` (`TensorMemoryLayout(...,
/// two_ctas=True)`, `num_ctas=2`) to `tcgen05.alloc/mma/commit/dealloc.cta_group::2` with the
/// commit multicast to both CTAs (`examples/kernels/gluon_pair_dot_f16.ptx`, generated by
/// `examples/kernels/generate.py`): C (256 x 128, f32) = A (256 x 64, f16) x B (64 x 128,
/// f16), each CTA loading its 128 rows of A and 64 columns of B into its own shared memory
/// (128B-swizzled), four MMAs of M = 256, N = 128, K = 16.
#[test]
fn gluon_two_cta_dot_equals_the_chain_of_mmas() {
    let (m, n, k) = (256, 128, 64);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/kernels/gluon_pair_dot_f16.ptx");
    let src = std::fs::read_to_string(path).expect("the committed PTX");
    let (a, b) = (f16_codes(26, m * k), f16_codes(27, k * n));
    let bytes = |codes: &[u32]| -> Vec<u8> {
        codes
            .iter()
            .flat_map(|c| (*c as u16).to_le_bytes())
            .collect()
    };
    let module = Module::read(&src).unwrap_or_else(|e| panic!("{e}"));
    let mut args = vec![
        Arg::Buffer(bytes(&a)),
        Arg::Buffer(bytes(&b)),
        Arg::Buffer(vec![0xAB; m * n * 4]),
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
    launch(&module, "pair_dot", &config, &mut args)
        .unwrap_or_else(|e| panic!("gluon_pair_dot_f16.ptx: {e}"));
    let Arg::Buffer(d) = &args[2] else {
        unreachable!()
    };
    let got: Vec<u32> = d
        .chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    assert_equal(
        "gluon_pair_dot_f16.ptx",
        &got,
        &reference(&a, &b, (m, n, k)),
        n,
    );
}

/// The odd CTA's thread 0 issues the MMAs and the commit: D is the same, the even CTA still
/// holding rows 0 to 127 (rules.md I4).
#[test]
fn pair_mma_issued_by_the_odd_cta_is_the_same() {
    let src = ptx().replace(
        "\tor.b32 %r16, %r1, %r2;\n",
        "\txor.b32 %r16, %r2, 1;\n\tor.b32 %r16, %r16, %r1;\n",
    );
    assert!(src.contains("xor.b32 %r16"));
    let got = run(&src, 0b11, [1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    let want = reference(&f16_codes(24, M * K), &f16_codes(25, K * N), (M, N, K));
    assert_equal("mma_m256.ptx issued by rank 1", &got, &want, N);
}

/// A commit multicast to the even CTA only leaves the odd CTA waiting on its mbarrier forever;
/// to the odd CTA only, the even one.
#[test]
fn commit_multicast_reaches_exactly_the_masked_ctas() {
    let src = ptx();
    let wait = line_of(&src, "mbarrier.try_wait");
    for mask in [0b01, 0b10] {
        match run(&src, mask, [1, 1, 1]) {
            Err(RunError::Deadlock { warps, .. }) => {
                // The 4 warps of the CTA outside the mask; the other CTA's warps exited.
                assert_eq!(warps.len(), 4, "ctaMask {mask:#b}: {warps:?}");
                assert!(warps.iter().all(|w| w.line == wait), "{warps:?}");
            }
            other => panic!("ctaMask {mask:#b}: expected a deadlock, got {other:?}"),
        }
    }
}

fn invalid_at(r: Result<Vec<u32>, RunError>, line: u32, text: &str) {
    match r {
        Err(RunError::Invalid { line: l, what, why }) => {
            assert_eq!(l, line, "{what}: {why}");
            assert!(
                what.contains(text) || why.contains(text),
                "{what}: {why} (expected {text})"
            );
        }
        other => panic!("expected an error at line {line}, got {other:?}"),
    }
}

/// The two warps of a pair allocate different column counts: refused at the second alloc.
#[test]
fn mismatched_alloc_in_the_pair_is_refused() {
    let src = ptx().replace(
        "\ttcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r13], 64;",
        "\tshl.b32 %r25, %r2, 6;\n\tadd.u32 %r25, %r25, 64;\n\ttcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r13], %r25;",
    );
    let line = line_of(&src, "tcgen05.alloc");
    invalid_at(
        run(&src, 0b11, [1, 1, 1]),
        line,
        "the other CTA of the pair allocated 64",
    );
}

/// Only the even CTA's warp allocates: the odd CTA never joins, reported at the even CTA's
/// alloc when the cluster ends.
#[test]
fn alloc_the_other_cta_never_joins_is_refused() {
    let src = ptx().replace(
        "\t@%p2 bra ALLOCATED;",
        "\tsetp.ne.or.u32 %p2, %r2, 0, %p2;\n\t@%p2 bra ALLOCATED;",
    );
    let line = line_of(&src, "tcgen05.alloc");
    invalid_at(
        run(&src, 0b11, [1, 1, 1]),
        line,
        "never executed by CTA rank 1",
    );
}

/// `.cta_group::2` without a pair: a launch of clusters of one CTA.
#[test]
fn pair_in_a_cluster_of_one_is_refused() {
    let src = ptx().replace(".reqnctapercluster 2, 1, 1\n", "");
    let line = line_of(&src, "tcgen05.alloc");
    invalid_at(run(&src, 0b11, [1, 1, 1]), line, "cluster of 1 CTA(s)");
}

/// A `.cta_group::1` instruction after `.cta_group::2` ones in the same kernel.
#[test]
fn mixed_cta_groups_are_refused() {
    let src = ptx().replace(
        "relinquish_alloc_permit.cta_group::2",
        "relinquish_alloc_permit.cta_group::1",
    );
    let line = line_of(&src, "relinquish_alloc_permit");
    let first = line_of(&src, "tcgen05.alloc");
    invalid_at(
        run(&src, 0b11, [1, 1, 1]),
        line,
        &format!("after .cta_group::2 at line {first}"),
    );
}

/// A ctaMask naming a CTA outside the cluster.
#[test]
fn commit_mask_outside_the_cluster_is_refused() {
    let src = ptx();
    let line = line_of(&src, "tcgen05.commit");
    invalid_at(run(&src, 0b111, [1, 1, 1]), line, "ctaMask 0x7");
}

/// `tcgen05.cp.cta_group::2.128x256b` issued by the even CTA writes both CTAs' Tensor Memory,
/// each from its own shared memory at the descriptor's address (rules.md I4): the kernel with
/// its MMAs replaced by one copy of A's first 16 columns (row `r` of 32 bytes to lane `r`,
/// columns 0 to 7, PTX ISA 9.7.16.9.1 and the 128x256b shape of 9.7.16.2.3), read back.
#[test]
fn pair_cp_writes_both_ctas_tensor_memory() {
    let src = ptx()
        .replace(
            "\ttcgen05.mma.cta_group::2.kind::f16 [%r15], %rd8, %rd9, %r18, %p5;\n",
            "\ttcgen05.cp.cta_group::2.128x256b [%r15], %rd8;\n",
        )
        .replace(
            "\ttcgen05.mma.cta_group::2.kind::f16 [%r15], %rd10, %rd11, %r18, %p6;\n",
            "",
        )
        .replace("setp.lt.u32 %p1, %r23, 64;", "setp.lt.u32 %p1, %r23, 8;");
    assert!(!src.contains("\ttcgen05.mma"));
    let got = run(&src, 0b11, [1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    let a = f16_codes(24, M * K);
    for row in 0..M {
        for col in 0..N {
            let want = if col < 8 {
                a[row * K + 2 * col] | a[row * K + 2 * col + 1] << 16
            } else {
                0xABAB_ABAB
            };
            assert_eq!(got[row * N + col], want, "row {row} column {col}");
        }
    }
}
