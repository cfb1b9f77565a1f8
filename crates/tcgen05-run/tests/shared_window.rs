//! Shared-memory addresses as the hardware writes them: in a cluster, a `.shared::cluster`
//! address is `rank << 24 | offset` and a CTA's own shared variables have the same numbers
//! (PTX ISA 5.1.4 puts the `.shared::cta` window inside the `.shared::cluster` window). The
//! evidence for bit 24 is the compilers' use of it: Triton 3.9.0's two-CTA kernels reach the
//! even CTA's mbarrier by clearing bit 24 of their own address (`and.b32 ..., 0xFEFFFFF0`,
//! `examples/kernels/gluon_pair_tma_dot_f16.ptx`), and Modular's `umma_arrive_leader_cta`
//! documents the same bit. `%dynamic_smem_size` is the launch's dynamic shared memory (PTX ISA
//! 10.32).

use tcgen05_run::{launch, Arg, Config, Limits, Module};

/// Thread 0 of each CTA stores, at out[8 r ..]: `mov` of a shared variable, `mapa` of it to
/// rank 0 and to rank 1, `getctarank` of it, the address after `cvta.shared` and
/// `cvta.to.shared`, `%dynamic_smem_size`, a word read back through `ld.shared::cluster` of
/// the peer's copy (the peer stored its rank + 100 at that variable), and `%cluster_ctarank`.
const KERNEL: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n\
    .visible .entry k(.param .u64 out)\n.reqnctapercluster 2, 1, 1\n{\n\
    .reg .pred %p<2>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<8>;\n\
    .shared .align 16 .b8 buf[64];\n\
    mov.u32 %r1, %tid.x;\n\
    setp.ne.u32 %p1, %r1, 0;\n\
    @%p1 bra DONE;\n\
    mov.u32 %r2, %cluster_ctarank;\n\
    add.u32 %r3, %r2, 100;\n\
    st.shared.u32 [buf+16], %r3;\n\
    mov.u32 %r4, buf;\n\
    mapa.shared::cluster.u32 %r5, %r4, 0;\n\
    mapa.shared::cluster.u32 %r6, %r4, 1;\n\
    getctarank.shared::cluster.u32 %r7, %r4;\n\
    cvta.shared.u64 %rd1, buf;\n\
    cvta.to.shared.u64 %rd2, %rd1;\n\
    cvt.u32.u64 %r8, %rd2;\n\
    mov.u32 %r9, %dynamic_smem_size;\n\
    DONE:\n\
    barrier.cluster.arrive.aligned;\n\
    barrier.cluster.wait.aligned;\n\
    @%p1 bra END;\n\
    xor.b32 %r10, %r2, 1;\n\
    mapa.shared::cluster.u32 %r11, %r4, %r10;\n\
    ld.shared::cluster.u32 %r12, [%r11+16];\n\
    ld.param.u64 %rd3, [out];\n\
    mul.wide.u32 %rd4, %r2, 32;\n\
    add.u64 %rd5, %rd3, %rd4;\n\
    st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r7};\n\
    st.global.v4.u32 [%rd5+16], {%r8, %r9, %r12, %r2};\n\
    END:\n\
    barrier.cluster.arrive.aligned;\n\
    barrier.cluster.wait.aligned;\n\
    ret;\n}\n";

#[test]
fn shared_addresses_carry_the_rank_in_bit_24() {
    let module = Module::read(KERNEL).unwrap_or_else(|e| panic!("{e}"));
    let mut args = vec![Arg::Buffer(vec![0xAB; 64])];
    let config = Config {
        grid: [2, 1, 1],
        block: [32, 1, 1],
        cluster: [1, 1, 1],
        shared: 1024,
        limits: Limits { steps: 100_000 },
    };
    launch(&module, "k", &config, &mut args).unwrap_or_else(|e| panic!("{e}"));
    let Arg::Buffer(out) = &args[0] else {
        unreachable!()
    };
    let w: Vec<u32> = out
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for r in 0..2u32 {
        let got = &w[8 * r as usize..8 * r as usize + 8];
        let buf = got[0] & 0x00FF_FFFF;
        let want = [
            r << 24 | buf,
            buf,
            1 << 24 | buf,
            r,
            r << 24 | buf,
            1024,
            (r ^ 1) + 100,
            r,
        ];
        assert_eq!(got, want, "CTA rank {r}");
    }
}
