//! The module's `.target` reaches the emulator: the hand-written pair kernel
//! `tests/pair/mma_m256.ptx` with its two MMAs replaced by one K = 96 block-scaled MMA
//! (`.kind::mxf4.block_scale.block32`, M = 256, N = 64, `.cta_group::2`; PTX ISA 8.8 added
//! K = 96 on `sm_103a`, and 9.4 on `sm_107a`) runs on `.target sm_103a` / `sm_107a` and is
//! refused on `.target sm_100a`, naming the target rule; and a `.kind::mxf4nvf4` MMA with
//! UE5M3 scale factors (idesc bits 23-24 = 2) runs on `sm_107a` and is refused on `sm_100a`.
//!
//! The expected D follows from the PTX text without the emulator: every E2M1 element is code 1
//! (0.5, every byte 0x11), every UE8M0 scale factor is 127 (2^0), so each element of D is
//! 96 x 0.5 x 0.5 = 24.0 (exact in f32, 0x41C00000).

use std::path::PathBuf;

use tcgen05_run::{launch, Arg, Config, Module, RunError};

const M: usize = 256;
const N: usize = 64;
/// Bytes of one CTA's shared memory image (the kernel's parameter 0 holds two).
const IMAGE: usize = 10240;

/// Table 44: E2M1 A and B (codes 1 at bits 7 and 10), N >> 3 at 17-22, UE8M0 (bit 23),
/// M >> 7 at 27-28, K = 96 (bit 31).
const IDESC: u32 = 1 << 7 | 1 << 10 | (N as u32 >> 3) << 17 | 1 << 23 | 2 << 27 | 1 << 31;

/// The kernel for `target`: 128 columns allocated, scale factors 127 stored by every warp of
/// both CTAs at columns 64-71 (A's) and 96-103 (B's) before the MMA, one K = 96 MMA without
/// D's input.
fn kernel(target: &str) -> String {
    block_scaled(target, "mxf4.block_scale.block32", IDESC, 0x7F7F_7F7F)
}

/// The kernel for `target` with one block-scaled MMA `form` of descriptor `idesc`, every
/// scale-factor byte of columns 64-71 and 96-103 set by the word `scales`.
fn block_scaled(target: &str, form: &str, idesc: u32, scales: u32) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/pair/mma_m256.ptx");
    let src = std::fs::read_to_string(path).expect("the committed PTX");
    let scales_text = "\tld.shared.u32 %r15, [%r13];\n\
        \tshl.b32 %r25, %r12, 21;\n\
        \tadd.u32 %r25, %r25, %r15;\n\
        \tadd.u32 %r26, %r25, 64;\n\
        \tadd.u32 %r27, %r25, 96;\n\
        \tmov.u32 %r28, SCALES;\n\
        \ttcgen05.st.sync.aligned.32x32b.x8.b32 [%r26], {%r28, %r28, %r28, %r28, %r28, %r28, %r28, %r28};\n\
        \ttcgen05.st.sync.aligned.32x32b.x8.b32 [%r27], {%r28, %r28, %r28, %r28, %r28, %r28, %r28, %r28};\n\
        \ttcgen05.wait::st.sync.aligned;\n\
        \ttcgen05.fence::before_thread_sync;\n\
        \tbarrier.cluster.arrive.release.aligned;\n\
        \tbarrier.cluster.wait.acquire.aligned;\n\
        \ttcgen05.fence::after_thread_sync;\n\
        \tadd.u32 %r26, %r15, 64;\n\
        \tadd.u32 %r27, %r15, 96;\n";
    let out = src
        .replace(".target sm_100a", &format!(".target {target}"))
        .replace(".version 8.7", ".version 9.4")
        .replace("[%r13], 64;", "[%r13], 128;")
        .replace("%r15, 64;", "%r15, 128;")
        .replace(
            "\tld.shared.u32 %r15, [%r13];\n",
            &scales_text.replace("SCALES", &format!("{scales:#010x}")),
        )
        .replace("mov.u32 %r18, 0x10100010;", &format!("mov.u32 %r18, {idesc:#010x};"))
        .replace(
            "\ttcgen05.mma.cta_group::2.kind::f16 [%r15], %rd8, %rd9, %r18, %p5;\n",
            &format!(
                "\ttcgen05.mma.cta_group::2.kind::{form} [%r15], %rd8, %rd9, %r18, [%r26], [%r27], %p5;\n"
            ),
        )
        .replace(
            "\ttcgen05.mma.cta_group::2.kind::f16 [%r15], %rd10, %rd11, %r18, %p6;\n",
            "",
        );
    assert_eq!(out.matches("\ttcgen05.mma").count(), 1, "{out}");
    out
}

fn run(src: &str) -> Result<Vec<u32>, RunError> {
    let module = Module::read(src)?;
    let mut args = vec![
        Arg::Buffer(vec![0x11; 2 * IMAGE]),
        Arg::Buffer(vec![0xAB; M * N * 4]),
        Arg::i32(0b11),
    ];
    let config = Config {
        grid: [2, 1, 1],
        block: [128, 1, 1],
        cluster: [1, 1, 1],
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
fn k96_runs_on_sm_103a_and_sm_107a() {
    for t in ["sm_103a", "sm_107a"] {
        let d = run(&kernel(t)).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(d.len(), M * N);
        let bad: Vec<usize> = (0..d.len()).filter(|&i| d[i] != 0x41C0_0000).collect();
        assert!(
            bad.is_empty(),
            "{t}: {} of {} differ, first {:?}",
            bad.len(),
            d.len(),
            bad.first().map(|&i| d[i])
        );
    }
}

#[test]
fn k96_is_refused_on_sm_100a_naming_the_target() {
    let e = run(&kernel("sm_100a"))
        .expect_err("K = 96 on sm_100a")
        .to_string();
    assert!(
        e.contains("K = 96 is supported only on") && e.contains("not sm_100a"),
        "{e}"
    );
}

/// Table 44 with bits 23-24 = 2 (UE5M3 on the sm_107 family, rules.md D9), K = 64.
const IDESC_UE5M3: u32 = 1 << 7 | 1 << 10 | (N as u32 >> 3) << 17 | 2 << 23 | 2 << 27;

/// UE5M3 scale factors (rules.md D7: bias 15, so 0x80 is 2.0; read as UE4M3 it would not be)
/// on `sm_107a`: each element of D is 64 x 0.5 x 0.5 x 2 x 2 = 64.0 (0x42800000); on `sm_100a`
/// bit 24 is reserved.
#[test]
fn ue5m3_runs_on_sm_107a_and_is_refused_on_sm_100a() {
    let form = "mxf4nvf4.block_scale.block16";
    let d = run(&block_scaled("sm_107a", form, IDESC_UE5M3, 0x8080_8080))
        .unwrap_or_else(|e| panic!("sm_107a: {e}"));
    let bad = d.iter().filter(|&&v| v != 0x4280_0000).count();
    assert_eq!(bad, 0, "first {:#x}", d[0]);
    let e = run(&block_scaled("sm_100a", form, IDESC_UE5M3, 0x8080_8080))
        .expect_err("bit 24 on sm_100a")
        .to_string();
    assert!(e.contains("bit 24") && e.contains("UE5M3"), "{e}");
}

/// Every scale-factor byte of columns 64-71 and 96-103: byte 0 = 127 (2^0), byte 1 = 128
/// (2^1), byte 2 = 126 (2^-1), byte 3 = 129 (2^2), UE8M0.
const SCALE_BYTES: u32 = 0x817E_807F;

/// K = 96 with scale-factor IDs 1 and 3 (rulings T3, D10; CUTLASS's sm_103 mainloop passes 3
/// and 1 to its second and fourth K = 96 MMAs): `.block32` (3X) reads K block `s` from byte
/// `(ID + s) % 4` of the column group `(ID + s) / 4`, 4 columns on (A: 128 rows of a CTA; B: N
/// rounded up to 128). The words stored make every group the same, so with SFA_ID 3 A's three
/// factors are bytes 3, 0, 1 (4, 1, 2) and with SFB_ID 1 B's are bytes 1, 2, 3 (2, 0.5, 4):
/// D = 32 x 0.25 x (4 x 2 + 1 x 0.5 + 2 x 4) = 132.0 (0x43040000), against 42.0 with IDs 0.
/// `.block16` (6X) takes IDs 0 and 2 only, and without the K bit Table 44 takes 0 and 2.
#[test]
fn k96_scale_factor_ids_1_and_3_run_with_3x() {
    let ids = |sfa: u32, sfb: u32| IDESC | sfa << 29 | sfb << 4;
    for (sfa, sfb, want) in [(3, 1, 0x4304_0000u32), (0, 0, 0x4228_0000)] {
        for t in ["sm_103a", "sm_107a"] {
            let src = block_scaled(t, "mxf4.block_scale.block32", ids(sfa, sfb), SCALE_BYTES);
            let d = run(&src).unwrap_or_else(|e| panic!("{t} IDs {sfa}, {sfb}: {e}"));
            let bad = d.iter().filter(|&&v| v != want).count();
            assert_eq!(bad, 0, "{t} IDs {sfa}, {sfb}: first {:#x}", d[0]);
        }
    }
    let six_x = block_scaled(
        "sm_103a",
        "mxf4nvf4.block_scale.block16",
        ids(1, 0),
        SCALE_BYTES,
    );
    let e = run(&six_x).expect_err("6X with ID 1").to_string();
    assert!(
        e.contains("scale-factor ID 1") || e.contains("scale factor ID 1"),
        "{e}"
    );
    let k64 = block_scaled(
        "sm_103a",
        "mxf4.block_scale.block32",
        ids(3, 0) & !(1 << 31),
        SCALE_BYTES,
    );
    let e = run(&k64).expect_err("K = 64 with ID 3").to_string();
    assert!(e.contains("sfa_id = 3"), "{e}");
}
