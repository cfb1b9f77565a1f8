//! CuTe DSL and CUTLASS kernels end to end: the GEMMs of `conformance/kernels/gen_cutedsl.py`
//! (nvidia-cutlass-dsl 4.8.1, sm_100a) and `gen_cutlass.py` (CUTLASS 4.2.0's CuTe C++ atoms,
//! nvcc 13.5.37) run in the interpreter on seeded inputs, and every word
//! of C (M x N f32, row-major) must equal an independent reference computed without the
//! interpreter: the chain of MMAs as the numerics module defines the tensor core's arithmetic
//! (`ParamRow::dot`, one dot product per output element and MMA, each MMA's D the next one's C,
//! +0 before the first), applied to the input matrices directly.
//!
//! `cutedsl_gemm_*` take three pointers (A M x BK and B N x BK, K-major; C); every thread
//! copies elements of A and B into CuTe's swizzled shared layouts, warp 0 issues the MMAs (the
//! first with the accumulator disabled) and `tcgen05.commit`s them to an mbarrier every thread
//! waits on (`mbarrier.try_wait.parity` with a suspend-time hint), and each warp reads its
//! lanes of D with `tcgen05.ld.32x32b.x32`. `cutedsl_tma_gemm_*` take two `CUtensorMap`s by
//! value (`.param .align 64 .b8 [128]`, built here with `encode_tiled` as CuTe's host code
//! encodes them: box 128 bytes of K by the tile's rows, 128B swizzle) and C's pointer, and
//! load each K block with `cp.async.bulk.tensor ... .L2::cache_hint` and expect_tx.
//!
//! `cutlass_gemm_*` have the pointer kernels' parameters and data flow, written with CUTLASS's
//! atoms: `UMMA::make_umma_desc` of each K slice, `SM100_MMA_F16BF16_SS`, `umma_arrive`,
//! `ClusterBarrier::wait`, `SM100_TMEM_LOAD_32dp32b32x`.
//!
//! Three kernels' PTX is committed (`conformance/kernels/cutedsl/`, `conformance/kernels/cutlass/`,
//! compared with the generators' output by `conformance/kernels/run.sh --check`); the ignored
//! test runs every GEMM of `$TCGEN05_KERNELS_DIR` (run.sh's output directory).

mod common;

use tcgen05::mma::Kind;
use tcgen05::numerics::fdpa::Operands;
use tcgen05::numerics::k96::k96_row;
use tcgen05::numerics::params::{Arch, Form, Instruction, ParamRow};
use tcgen05::numerics::Format;
use tcgen05_run::hazard::{check, Options};
use tcgen05_run::tensor_map_encode::{encode_tiled, DataType, EncodeTiled, MapSwizzle};
use tcgen05_run::{launch, Arg, Config, Module};

use common::codes::{e2m1_codes, e5m2_codes, s8_codes, scale_codes, ue4m3_scale_codes};
use common::inputs::{float_code, repo, splitmix};

/// A kernel's parameters, from the `.json` its generator writes beside the PTX (one key per
/// line, as `json.dump(..., indent=1)` writes them): the MMA kind, the element formats of A, B
/// and D, M and N of the MMA, the tile's K (elements) and the CTA group.
struct Spec {
    kind: Kind,
    a: Format,
    b: Format,
    d: Format,
    m: usize,
    n: usize,
    k: usize,
    ctas: u32,
}

impl Spec {
    fn read(json: &str) -> Spec {
        let field = |key: &str| -> String {
            json.lines()
                .find_map(|l| {
                    let v = l.trim().strip_prefix(&format!("\"{key}\": "))?;
                    Some(v.trim_end_matches(',').trim_matches('"').to_string())
                })
                .unwrap_or_else(|| panic!("no \"{key}\" in {json}"))
        };
        let format = |key: &str| {
            let name = field(key);
            Format::from_name(&name).unwrap_or_else(|| panic!("{key}: no format {name}"))
        };
        let int = |key: &str| field(key).parse::<usize>().expect(key);
        Spec {
            kind: Kind::from_name(&field("kind")).expect("kind"),
            a: format("a_type"),
            b: format("b_type"),
            d: format("d_type"),
            m: int("m"),
            n: int("n"),
            k: int("k"),
            ctas: int("cta_group") as u32,
        }
    }

    /// The K of one MMA: 32 bytes of K (PTX ISA 9.7.16.10.1).
    fn k_mma(&self) -> usize {
        256 / self.a.width() as usize
    }
}

/// `n` codes of `format`: random sign and fraction, exponents near 1 (f16 in [10, 20), bf16
/// and tf32 in [120, 134)); e4m3 and e5m2 every finite code, s8 every code.
fn codes(format: Format, mut seed: u64, n: usize) -> Vec<u32> {
    match format {
        Format::E5m2 => return e5m2_codes(seed, n),
        Format::S8 => return s8_codes(seed, n),
        _ => {}
    }
    (0..n)
        .map(|_| {
            let r = splitmix(&mut seed);
            match format {
                Format::F16 => float_code(r, 15, 10, (10, 10)) as u32,
                Format::Bf16 => float_code(r, 15, 7, (120, 14)) as u32,
                Format::Tf32 => float_code(r, 31, 23, (120, 14)) as u32,
                _ => match (r & 0xFF) as u32 {
                    c if c & 0x7F == 0x7F => c & 0x80,
                    c => c,
                },
            }
        })
        .collect()
}

fn bytes(codes: &[u32], width: usize) -> Vec<u8> {
    codes
        .iter()
        .flat_map(|c| c.to_le_bytes()[..width].to_vec())
        .collect()
}

/// The sm_100a `tcgen05.mma` row of the numerics tables for the kernel's kind and formats.
fn row(s: &Spec) -> ParamRow {
    Form {
        arch: Arch::Sm100a,
        instruction: Some(Instruction::Tcgen05Mma),
        kind: s.kind,
        a: s.a,
        b: s.b,
        d: Some(s.d),
        scale: None,
        block: None,
    }
    .row()
    .expect("a tcgen05.mma form of the tables")
}

/// The reference: C (m x n) after the chain of MMAs of K = `k_mma` over A (m x k) and B
/// (n x k), both K-major.
fn reference(
    row: &ParamRow,
    a: &[u32],
    b: &[u32],
    (m, n, k): (usize, usize, usize),
    k_mma: usize,
) -> Vec<u32> {
    let mut c = vec![0u32; m * n];
    for k0 in (0..k).step_by(k_mma) {
        for i in 0..m {
            for j in 0..n {
                let ops = Operands {
                    a: &a[i * k + k0..i * k + k0 + k_mma],
                    b: &b[j * k + k0..j * k + k0 + k_mma],
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

/// A tensor map over the K-major `rows x k` matrix of `codes` (`width`-byte elements): boxes of
/// 128 bytes of K by `rows`, 128B swizzle (the K-major SW128 shared layout CuTe's host code
/// encodes its map from), through the driver-style encoder.
fn map(codes: &[u32], rows: usize, k: usize, width: usize, format: Format) -> Arg {
    let p = EncodeTiled {
        data_type: match format {
            Format::F16 => DataType::Float16,
            _ => DataType::Bfloat16,
        },
        global_address: 0,
        global_dim: vec![k as u64, rows as u64],
        global_strides: vec![(k * width) as u64],
        box_dim: vec![(128 / width) as u32, rows as u32],
        element_strides: vec![1, 1],
        interleave: Default::default(),
        swizzle: MapSwizzle::B128,
        l2_promotion: Default::default(),
        oob_fill: Default::default(),
    };
    let m = encode_tiled(&p).unwrap_or_else(|e| panic!("tensor map refused: {e:?}"));
    Arg::TensorMap(m, bytes(codes, width))
}

/// Runs the kernel `stem` (pointers A, B, C; or with `cutedsl_tma_gemm_` two tensor maps and
/// C) from its PTX `src`, with the parameters of its `.json` text `json`, on seeded inputs and
/// compares C with the reference; returns the words compared. A kernel of `.cta_group::2` runs
/// as one cluster of two CTAs, each holding half of A's rows and of B's. With `schedules` > 0
/// the run is the hazard checker's (the default and that many seeded schedules), which must
/// find nothing.
fn gemm(stem: &str, src: &str, json: &str, schedules: u32) -> usize {
    let tma = stem.starts_with("cutedsl_tma_gemm_");
    let spec = Spec::read(json);
    let (m, n, k) = (spec.m, spec.n, spec.k);
    let (wa, wb, wd) = (
        spec.a.width().div_ceil(8) as usize,
        spec.b.width().div_ceil(8) as usize,
        spec.d.width().div_ceil(8) as usize,
    );
    let seed = stem
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let (a, b) = (codes(spec.a, seed, m * k), codes(spec.b, seed + 1, n * k));
    let module = Module::read(src).unwrap_or_else(|e| panic!("{stem}: {e}"));
    let kernel = module.kernels[0].name.clone();
    let mut args = if tma {
        vec![map(&a, m, k, wa, spec.a), map(&b, n, k, wb, spec.b)]
    } else {
        vec![Arg::Buffer(bytes(&a, wa)), Arg::Buffer(bytes(&b, wb))]
    };
    args.push(Arg::Buffer(vec![0xAB; m * n * wd]));
    let config = Config {
        grid: [spec.ctas, 1, 1],
        block: [128, 1, 1],
        cluster: [spec.ctas, 1, 1],
        // CuTe DSL's shared memory is dynamic; the CUTLASS kernels' is static.
        shared: if stem.starts_with("cutlass_") {
            0
        } else {
            227 * 1024
        },
        limits: Default::default(),
    };
    if schedules == 0 {
        launch(&module, &kernel, &config, &mut args).unwrap_or_else(|e| panic!("{stem}: {e}"));
    } else {
        let r = check(&module, &kernel, &config, &mut args, &Options { schedules })
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert!(
            r.findings.is_empty() && r.deadlock.is_none(),
            "{stem}: {r:?}"
        );
        assert_eq!(r.runs, schedules + 1, "{stem}: runs");
    }
    let Arg::Buffer(c) = &args[2] else {
        unreachable!()
    };
    let got: Vec<u32> = c
        .chunks(wd)
        .map(|w| {
            let mut x = [0u8; 4];
            x[..wd].copy_from_slice(w);
            u32::from_le_bytes(x)
        })
        .collect();
    let want = reference(&row(&spec), &a, &b, (m, n, k), spec.k_mma());
    let diffs: Vec<usize> = (0..want.len()).filter(|&i| got[i] != want[i]).collect();
    assert!(
        diffs.is_empty(),
        "{stem}: {} of {} words differ from the chain of MMAs, first at row {} column {}: got {:#010x}, want {:#010x}",
        diffs.len(),
        want.len(),
        diffs[0] / n,
        diffs[0] % n,
        got[diffs[0]],
        want[diffs[0]],
    );
    want.len()
}

/// Runs CUTLASS's sm_103a K = 96 kernel `stem` (`cutlass_sm103_k96_*`: one
/// `SM103_MXF4_ULTRA_2x1SM_SS_VS` MMA over a cluster of two CTAs, M = 256) from its PTX `src`
/// with the parameters of its `.json` text `json` on seeded inputs: A (M x 96) and B (N x 96)
/// E2M1, two codes a byte (the lower K in the low nibble), and one scale factor (`scale_type`,
/// UE8M0 or UE4M3) per 32 or 16 elements of each row, which the kernel stores in Tensor
/// Memory. D must equal the numerics module's K = 96 dot product (`numerics::k96::k96_row` of
/// the tables' K = 64 row, ruling D8) of each row of A and B with their scale factors;
/// returns the words compared.
fn k96_gemm(stem: &str, src: &str, json: &str) -> usize {
    let spec = Spec::read(json);
    let (m, n, k) = (spec.m, spec.n, spec.k);
    let (scale, block) = if json.contains("\"scale_type\": \"ue4m3\"") {
        (Format::Ue4m3, 16)
    } else {
        (Format::Ue8m0, 32)
    };
    let seed = stem
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let (a, b) = (e2m1_codes(seed, m * k), e2m1_codes(seed + 1, n * k));
    let scales = |seed, rows| match scale {
        Format::Ue4m3 => ue4m3_scale_codes(seed, rows * k / block),
        _ => scale_codes(seed, rows * k / block),
    };
    let (sa, sb) = (scales(seed + 2, m), scales(seed + 3, n));
    let nibbles =
        |c: &[u32]| -> Vec<u8> { c.chunks(2).map(|p| (p[0] | p[1] << 4) as u8).collect() };
    let module = Module::read(src).unwrap_or_else(|e| panic!("{stem}: {e}"));
    let kernel = module.kernels[0].name.clone();
    let mut args = vec![
        Arg::Buffer(nibbles(&a)),
        Arg::Buffer(nibbles(&b)),
        Arg::Buffer(bytes(&sa, 1)),
        Arg::Buffer(bytes(&sb, 1)),
        Arg::Buffer(vec![0xAB; m * n * 4]),
    ];
    let config = Config {
        grid: [2, 1, 1],
        block: [128, 1, 1],
        cluster: [2, 1, 1],
        shared: 0,
        limits: Default::default(),
    };
    launch(&module, &kernel, &config, &mut args).unwrap_or_else(|e| panic!("{stem}: {e}"));
    let Arg::Buffer(c) = &args[4] else {
        unreachable!()
    };
    let row = k96_row(
        Form {
            arch: Arch::Sm100a,
            instruction: Some(Instruction::Tcgen05Mma),
            kind: spec.kind,
            a: Format::E2m1,
            b: Format::E2m1,
            d: Some(Format::F32),
            scale: Some(scale),
            block: Some(block as u32),
        }
        .row()
        .expect("the K = 64 row of the tables"),
    )
    .expect("its K = 96 row");
    let s = k / block;
    let mut diffs = 0;
    let mut first = None;
    for i in 0..m {
        for j in 0..n {
            let ops = Operands {
                a: &a[i * k..(i + 1) * k],
                b: &b[j * k..(j + 1) * k],
                c: 0,
                sfa: &sa[i * s..(i + 1) * s],
                sfb: &sb[j * s..(j + 1) * s],
            };
            let want = row.dot(&ops, false).expect("finite codes").d_bits;
            let w = &c[(i * n + j) * 4..][..4];
            let got = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            if got != want {
                diffs += 1;
                first.get_or_insert((i, j, got, want));
            }
        }
    }
    assert!(
        diffs == 0,
        "{stem}: {diffs} of {} words differ from the K = 96 dot products, first (row, column, got, want) {first:x?}",
        m * n
    );
    m * n
}

/// The committed kernel `dir/stem` (PTX and parameters) run by `gemm`.
fn committed(dir: &str, stem: &str, schedules: u32) -> usize {
    let read = |ext: &str| {
        let path = format!("conformance/kernels/{dir}/{stem}.{ext}");
        std::fs::read_to_string(repo(&path)).expect("a committed file")
    };
    gemm(stem, &read("ptx"), &read("json"), schedules)
}

#[test]
fn cutedsl_gemm_f16_equals_the_chain_of_mmas() {
    assert_eq!(
        committed("cutedsl", "cutedsl_gemm_f16_128x128", 0),
        128 * 128
    );
}

/// The three committed kernels are clean under the hazard checker with 2 seeded schedules
/// (warp interleavings and completion orders), and C still equals the reference.
#[test]
fn committed_gemms_are_hazard_clean() {
    for (dir, stem) in [
        ("cutedsl", "cutedsl_gemm_f16_128x128"),
        ("cutedsl", "cutedsl_tma_gemm_f16_128x128x128"),
        ("cutlass", "cutlass_gemm_f16_128x128"),
    ] {
        assert_eq!(committed(dir, stem, 2), 128 * 128);
    }
}

#[test]
fn cutlass_gemm_f16_equals_the_chain_of_mmas() {
    assert_eq!(
        committed("cutlass", "cutlass_gemm_f16_128x128", 0),
        128 * 128
    );
}

#[test]
fn cutedsl_tma_gemm_f16_equals_the_chain_of_mmas() {
    assert_eq!(
        committed("cutedsl", "cutedsl_tma_gemm_f16_128x128x128", 0),
        128 * 128
    );
}

/// Every CuTe DSL and CUTLASS kernel that `conformance/kernels/run.sh` generated
/// (`cutedsl_*`, `cutlass_*`; `TCGEN05_KERNEL` picks those whose name contains it).
#[test]
#[ignore = "needs $TCGEN05_KERNELS_DIR from conformance/kernels/run.sh"]
fn corpus_gemms_equal_the_chain_of_mmas() {
    let dir = std::path::PathBuf::from(
        std::env::var("TCGEN05_KERNELS_DIR").expect("TCGEN05_KERNELS_DIR"),
    );
    let only = std::env::var("TCGEN05_KERNEL").ok();
    let mut stems: Vec<String> = std::fs::read_dir(&dir)
        .expect("the kernels directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".ptx")?;
            (["cutedsl_", "cutlass_"].iter().any(|p| stem.starts_with(p))
                && only.as_deref().is_none_or(|o| stem.contains(o)))
            .then(|| stem.to_string())
        })
        .collect();
    stems.sort();
    assert!(
        !stems.is_empty(),
        "no cutedsl_* or cutlass_* kernel in {}",
        dir.display()
    );
    let (mut ran, mut words) = (0, 0);
    for stem in &stems {
        let read = |ext: &str| {
            std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).expect("PTX and JSON")
        };
        let start = std::time::Instant::now();
        let w = if stem.starts_with("cutlass_sm103_") {
            k96_gemm(stem, &read("ptx"), &read("json"))
        } else {
            gemm(stem, &read("ptx"), &read("json"), 0)
        };
        eprintln!(
            "run cute gemm: {stem}: equal, {w} words ({:.1} s)",
            start.elapsed().as_secs_f64()
        );
        ran += 1;
        words += w;
    }
    println!(
        "run cute gemm: {ran} of {} CuTe DSL and CUTLASS kernels equal the chain of MMAs ({words} words)",
        stems.len(),
    );
}

/// A one-instruction kernel around `line` (one `.b64` shared mbarrier `bar`, registers `%r1`,
/// `%rd1`, `%p1`), read as a module: the error's text when refused.
fn read_one(line: &str) -> Result<(), String> {
    let src = format!(
        ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .pred %p<2>;\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n\
         .shared .align 8 .b64 bar;\nmov.u32 %r1, bar;\n{line}\nret;\n}}\n"
    );
    Module::read(&src).map(|_| ()).map_err(|e| e.to_string())
}

/// The suspend-time hint the CuTe DSL kernels pass is `try_wait`'s alone (PTX ISA
/// 9.7.13.15.16): `test_wait` with a fourth operand, and `try_wait` with a fifth, are refused.
#[test]
fn the_suspend_time_hint_is_try_waits_alone() {
    read_one("mbarrier.try_wait.parity.shared.b64 %p1, [%r1], 0, 10000000;").expect("the hint");
    read_one("mbarrier.try_wait.parity.shared.b64 %p1, [%r1], 0;").expect("no hint");
    for bad in [
        "mbarrier.test_wait.parity.shared.b64 %p1, [%r1], 0, 10000000;",
        "mbarrier.try_wait.parity.shared.b64 %p1, [%r1], 0, 1, 2;",
    ] {
        let e = read_one(bad).expect_err(bad);
        assert!(
            e.contains("line 11") && e.contains("wrong number of operands"),
            "{bad}: {e}"
        );
    }
}

/// `.L2::cache_hint` on a tensor load takes one more operand, the cache policy (PTX ISA
/// 9.7.9.25.5.1); without it, or with it missing, the load is refused.
#[test]
fn a_cache_hint_takes_its_policy_operand() {
    let load = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes";
    read_one(&format!(
        "{load}.L2::cache_hint [%r1], [%rd1, {{%r1, %r1}}], [%r1], %rd1;"
    ))
    .expect("the hint and its policy");
    read_one(&format!("{load} [%r1], [%rd1, {{%r1, %r1}}], [%r1];")).expect("no hint");
    for bad in [
        format!("{load}.L2::cache_hint [%r1], [%rd1, {{%r1, %r1}}], [%r1];"),
        format!("{load} [%r1], [%rd1, {{%r1, %r1}}], [%r1], %rd1;"),
    ] {
        let e = read_one(&bad).expect_err(&bad);
        assert!(
            e.contains("line 11") && e.contains("wrong number of operands"),
            "{bad}: {e}"
        );
    }
}
