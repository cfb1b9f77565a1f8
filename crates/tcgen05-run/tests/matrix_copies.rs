//! `cp.async` (zero fill past `src-size`, completion at `cp.async.wait_group`) and
//! `ldmatrix ... .trans` on a hand-written kernel; the expected values follow from the PTX text
//! (PTX ISA 9.7.9.25.3: the bytes from `src-size` to `cp-size` are zero; 9.7.14.5.15: threads
//! 0-7 give the row addresses of the 8 x 8 matrix, and with `.trans` thread t's register holds
//! elements (2 (t mod 4), t / 4) and (2 (t mod 4) + 1, t / 4), the first in the low half).

use tcgen05_run::{launch, Arg, Config, Limits, Module};

#[test]
fn cp_async_zero_fills_and_ldmatrix_trans_reads_columns() {
    let src = ".version 8.7\n.target sm_100a\n.address_size 64\n\
        .visible .entry k(.param .u64 x, .param .u64 out)\n{\n\
        .reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n\
        .shared .align 16 .b8 tile[128];\n\
        mov.u32 %r1, %tid.x;\n\
        setp.lt.u32 %p1, %r1, 8;\n\
        setp.eq.u32 %p2, %r1, 7;\n\
        selp.b32 %r2, 8, 16, %p2;\n\
        ld.param.u64 %rd1, [x];\n\
        mul.wide.u32 %rd2, %r1, 16;\n\
        add.s64 %rd3, %rd1, %rd2;\n\
        mov.u32 %r3, tile;\n\
        shl.b32 %r4, %r1, 4;\n\
        add.u32 %r5, %r3, %r4;\n\
        @%p1 cp.async.ca.shared.global [%r5], [%rd3], 16, %r2;\n\
        cp.async.commit_group;\n\
        cp.async.wait_group 0;\n\
        bar.sync 0;\n\
        and.b32 %r6, %r1, 7;\n\
        shl.b32 %r6, %r6, 4;\n\
        add.u32 %r7, %r3, %r6;\n\
        ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r8}, [%r7];\n\
        ld.param.u64 %rd4, [out];\n\
        mul.wide.u32 %rd5, %r1, 4;\n\
        add.s64 %rd6, %rd4, %rd5;\n\
        st.global.u32 [%rd6], %r8;\n\
        ret;\n}\n";
    let m = Module::read(src).unwrap_or_else(|e| panic!("{e}"));
    // Element (r, c) of the matrix in global memory: 100 + 8 r + c.
    let x: Vec<u8> = (0..64u16).flat_map(|i| (100 + i).to_le_bytes()).collect();
    let mut args = [Arg::Buffer(x), Arg::Buffer(vec![0xEE; 128])];
    let config = Config {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Limits { steps: 100_000 },
    };
    launch(&m, "k", &config, &mut args).unwrap_or_else(|e| panic!("{e}"));
    let Arg::Buffer(out) = &args[1] else {
        unreachable!()
    };
    // Row 7 was copied with src-size 8: its elements 4-7 are zero.
    let element = |r: u32, c: u32| if r == 7 && c >= 4 { 0 } else { 100 + 8 * r + c };
    for t in 0..32u32 {
        let got = u32::from_le_bytes([
            out[4 * t as usize],
            out[4 * t as usize + 1],
            out[4 * t as usize + 2],
            out[4 * t as usize + 3],
        ]);
        let (r, c) = (2 * (t % 4), t / 4);
        let want = element(r, c) | element(r + 1, c) << 16;
        assert_eq!(got, want, "thread {t}");
    }
}
