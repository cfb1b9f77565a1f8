//! Hand-written PTX whose expected known bits come from reading the instructions (PTX ISA
//! 9.7.1, 9.7.9), not from the analysis.
use super::*;
use crate::ptx_reader::read;

fn regs_of(src: &str) -> (Registers<'_>, crate::ptx_reader::Module<'_>) {
    let m = read(src.as_bytes());
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    let f = m.functions[0].clone();
    // Leak-free: analyse borrows names from `src`.
    (analyse(&f), m)
}

fn bits(r: &Registers<'_>, name: &str, width: u32) -> (u64, u64) {
    let v = r.get(name).bits.truncate(width);
    (v.known & width_mask(width), v.value & width_mask(width))
}

#[test]
fn triton_descriptor_recipe() {
    // The shape of Triton's lowering: address bits 4..18 of a shared-memory offset in the low
    // half, a constant high word, packed with mov.b64 {lo, hi}.
    let src = "{\n\
        ld.shared.u32 %r149, [x];\n\
        bfe.u32 %r308, %r149, 4, 15;\n\
        mov.b32 %r311, 1073758272;\n\
        mov.b64 %rd198, {%r308, %r311};\n\
        or.b32 %r312, %r308, 33554432;\n\
        mov.b64 %rd199, {%r312, %r311};\n\
        mov.b32 %r305, 136381584;\n\
    }";
    let (r, _) = regs_of(src);
    // bfe of 15 bits: bits 15..31 zero, 0..14 unknown.
    assert_eq!(bits(&r, "%r308", 32), (0xffff_8000, 0));
    assert_eq!(
        bits(&r, "%rd198", 64),
        (0xffff_ffff_ffff_8000, 0x4000_4040_0000_0000)
    );
    assert_eq!(
        bits(&r, "%rd199", 64),
        (0xffff_ffff_ffff_8000, 0x4000_4040_0200_0000)
    );
    assert_eq!(bits(&r, "%r305", 32), (0xffff_ffff, 0x0821_0490));
    // The high word's bits come from line 4, the low word's from line 3 (bfe) / 6 (or).
    let v = r.get("%rd199");
    assert_eq!(v.line_of(1 << 46), Some(4));
    assert_eq!(v.line_of(1 << 25), Some(6));
    assert_eq!(r.def_line("%r305"), Some(8));
}

#[test]
fn joins_over_definitions_and_loops() {
    // %r1 is 5 on entry and 7 in the loop: bits 0 and 2 agree (1), bit 1 does not.
    // %r2 counts in a loop from 0: only what every iteration shares is known (nothing of the
    // low bits; the analysis must not claim %r2 = 0).
    let src = "{\n\
        mov.b32 %r1, 5;\n\
        mov.u32 %r2, 0;\n\
        $L: add.s32 %r2, %r2, 1;\n\
        mov.b32 %r1, 7;\n\
        shl.b32 %r3, %r1, 4;\n\
        and.b32 %r4, %r2, 0xff00;\n\
        setp.lt.u32 %p1, %r2, 10;\n\
        @%p1 bra $L;\n\
        @%p1 mov.b32 %r5, 1;\n\
        selp.b32 %r6, 8, 12, %p1;\n\
        xor.b32 %r7, %r6, %r6;\n\
        mov.b32 %r8, %tid.x;\n\
    }";
    let (r, _) = regs_of(src);
    assert_eq!(bits(&r, "%r1", 32), (0xffff_fffd, 0b101));
    assert_eq!(
        bits(&r, "%r2", 32).0 & 1,
        0,
        "the counter's low bit is unknown"
    );
    assert_eq!(bits(&r, "%r3", 32), (0xffff_ffdf, 0x50));
    // and with 0xff00: the bits outside the mask are zero whatever %r2 is.
    assert_eq!(bits(&r, "%r4", 32).0 & 0xffff_00ff, 0xffff_00ff);
    // Defined only under a guard: unknown.
    assert_eq!(bits(&r, "%r5", 32).0, 0);
    // selp of 8 and 12: bit 2 differs.
    assert_eq!(bits(&r, "%r6", 32), (0xffff_fffb, 8));
    // x ^ x is 0, but known bits do not see that both are the same value: only bit 2 unknown.
    assert_eq!(bits(&r, "%r7", 32), (0xffff_fffb, 0));
    assert_eq!(bits(&r, "%r8", 32).0, 0, "special registers are unknown");
}

#[test]
fn unpack_cvt_prmt_bfi() {
    let src = "{\n\
        mov.b64 %rd1, 0x1122334455667788;\n\
        mov.b64 {%r1, %r2}, %rd1;\n\
        cvt.u64.u32 %rd2, %r1;\n\
        cvt.s64.s32 %rd3, %r4;\n\
        mov.b32 %r5, 0x80000000;\n\
        cvt.s64.s32 %rd4, %r5;\n\
        prmt.b32 %r6, %r1, %r2, 0x3210;\n\
        prmt.b32 %r7, %r1, %r2, 0x7654;\n\
        bfi.b32 %r8, %r1, 0, 8, 4;\n\
        ld.param.b32 %r9, [p];\n\
        bfi.b32 %r10, %r9, %r1, 8, 4;\n\
        cvt.rn.f32.u32 %r11, %r1;\n\
    }";
    let (r, _) = regs_of(src);
    assert_eq!(bits(&r, "%r1", 32), (0xffff_ffff, 0x5566_7788));
    assert_eq!(bits(&r, "%r2", 32), (0xffff_ffff, 0x1122_3344));
    assert_eq!(bits(&r, "%rd2", 64), (u64::MAX, 0x5566_7788));
    assert_eq!(
        bits(&r, "%rd3", 64).0,
        0,
        "sign extension of an unknown value"
    );
    assert_eq!(bits(&r, "%rd4", 64), (u64::MAX, 0xffff_ffff_8000_0000));
    assert_eq!(bits(&r, "%r6", 32), (0xffff_ffff, 0x5566_7788));
    assert_eq!(bits(&r, "%r7", 32), (0xffff_ffff, 0x1122_3344));
    assert_eq!(bits(&r, "%r8", 32), (0xffff_ffff, 0x0000_0800));
    assert_eq!(bits(&r, "%r10", 32), (0xffff_f0ff, 0x5566_7088));
    assert_eq!(
        bits(&r, "%r11", 32).0,
        0,
        "float conversion is not modelled"
    );
}

/// Analyses the first function of `src` in its module's environment, R7 on or off.
fn regs_in(src: &str, assume: bool) -> Registers<'_> {
    let m = read(src.as_bytes());
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    let shared = m.shared.clone();
    let f = m.functions.last().expect("a function").clone();
    let env = Environment {
        shared: &shared,
        assume_no_carry_out: assume,
    };
    analyse_in(&f, &env)
}

#[test]
fn sums_know_their_bits_up_to_the_first_possible_carry() {
    // A 14-bit start address (bits 0-13 unknown, 14-31 zero) plus 2 (one k-step of 32 bytes):
    // the carry out of bit 13 can set bit 14, nothing above it. Main kept nothing above bit 0.
    let src = "{\n\
        ld.shared.u32 %r1, [x];\n\
        and.b32 %r2, %r1, 16383;\n\
        add.s32 %r3, %r2, 2;\n\
        sub.s32 %r4, %r2, 1;\n\
        mul.lo.s32 %r5, %r2, 4;\n\
        mul.wide.u32 %rd1, %r2, 16;\n\
        mad.lo.s32 %r6, %r2, 2, 1;\n\
    }";
    let r = regs_in(src, false);
    assert_eq!(bits(&r, "%r3", 32), (0xffff_8000, 0));
    // %r2 - 1 may borrow through every bit (%r2 = 0 gives 0xffffffff): nothing known above
    // bit 0 except what both bounds agree on.
    assert_eq!(bits(&r, "%r4", 32).0 & 0xffff_c000, 0);
    // 4 * (a 14-bit value): bits 0-1 zero, bits 16-31 zero.
    assert_eq!(bits(&r, "%r5", 32), (0xffff_0003, 0));
    // 16 * (a 14-bit value) widened to 64 bits: bits 0-3 and 18-63 zero.
    assert_eq!(bits(&r, "%rd1", 64), (0xffff_ffff_fffc_000f, 0));
    // 2 * x + 1: bit 0 one, bits 15-31 zero.
    assert_eq!(bits(&r, "%r6", 32), (0xffff_8001, 1));
}

#[test]
fn shared_addresses_are_below_2_18_through_signed_arithmetic() {
    // A `.shared` symbol, `cvta.to.shared` and `%dynamic_smem_size` lie in the shared memory
    // window (below 2^18); `shr.s32` of such an address keeps its sign bit (zero), and
    // `cvt.s64.s32` sign-extends a zero.
    let src = ".shared .align 1024 .b8 smem[];\n\
        .visible .entry k() {\n\
        mov.u32 %r1, smem;\n\
        shr.s32 %r2, %r1, 4;\n\
        cvt.s64.s32 %rd1, %r2;\n\
        ld.param.u64 %rd2, [p];\n\
        cvta.to.shared.u64 %rd3, %rd2;\n\
        mov.u32 %r3, %dynamic_smem_size;\n\
        shfl.sync.idx.b32 %r4|%p1, %r2, 0, 31, -1;\n\
    }";
    let r = regs_in(src, false);
    // Below 2^18 and a multiple of 1024 (`.align 1024`).
    assert_eq!(bits(&r, "%r1", 32), (0xfffc_03ff, 0));
    assert_eq!(bits(&r, "%r2", 32), (0xffff_c03f, 0));
    assert_eq!(bits(&r, "%rd1", 64), (0xffff_ffff_ffff_c03f, 0));
    assert_eq!(bits(&r, "%rd3", 64), (0xffff_ffff_fffc_0000, 0));
    assert_eq!(bits(&r, "%r3", 32), (0xfffc_0000, 0));
    // shfl.sync: the bits known in every lane survive.
    assert_eq!(bits(&r, "%r4", 32), (0xffff_c03f, 0));
}

#[test]
fn descriptor_plus_run_time_stage_under_r7_only() {
    // CUTLASS's `desc + stage * C`: a descriptor whose bits 14-63 are known plus an unknown
    // multiple of 64 (a 32-bit stage times 64: below 2^38). Without R7 only bits 0-5 (zero)
    // and 38-63 (no carry can reach them: the descriptor's bits 0-45 are zero) are known;
    // with R7 every field above the start address is the descriptor's.
    let src = "{\n\
        ld.param.u32 %r1, [p];\n\
        mov.b64 %rd1, 4611756387171565568;\n\
        mul.wide.u32 %rd2, %r1, 64;\n\
        add.s64 %rd3, %rd1, %rd2;\n\
    }";
    // 4611756387171565568 = 0x4000_4000_0000_0000: bit 46 (fixed 0b001) and 128B swizzle.
    let off = regs_in(src, false);
    assert_eq!(
        bits(&off, "%rd3", 64),
        (0xffff_ffc0_0000_003f, 0x4000_4000_0000_0000)
    );
    assert!(!off.assumed("%rd3"));
    let on = regs_in(src, true);
    assert_eq!(
        bits(&on, "%rd3", 64),
        (0xffff_ffff_ffff_c03f, 0x4000_4000_0000_0000)
    );
    assert!(on.assumed("%rd3"));
}
