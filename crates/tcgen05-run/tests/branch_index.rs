//! `brx.idx` through a `.branchtargets` list and `bar.warp.sync` (PTX ISA, "brx.idx" and
//! "bar.warp.sync"), the dispatch Triton 3.9.0's warp-specialised sm_100a kernels use: each
//! thread branches to the label its index picks; an index past the list and a member mask
//! some named thread does not execute are errors. Expected values are written from the PTX
//! text: lane l stores 100 + (l mod 3) through the branch its index l mod 3 picks.

use tcgen05_run::{launch, Arg, Config, Module};

const PTX: &str = r"
.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 modulus, .param .u32 members)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u32 %r5, [modulus];
    ld.param.u32 %r6, [members];
    rem.u32 %r2, %r1, %r5;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    bar.warp.sync %r6;
    brx.idx %r2, TABLE;
TABLE:
    .branchtargets L0, L1, L2;
L1:
    mov.u32 %r3, 101;
    bra.uni DONE;
L2:
    mov.u32 %r3, 102;
    bra.uni DONE;
L0:
    mov.u32 %r3, 100;
DONE:
    st.global.u32 [%rd3], %r3;
    ret;
}
";

fn run(modulus: u32, members: u32) -> Result<Vec<u32>, String> {
    let module = Module::read(PTX).map_err(|e| e.to_string())?;
    let mut args = vec![
        Arg::Buffer(vec![0; 32 * 4]),
        Arg::Scalar(modulus.to_le_bytes().to_vec()),
        Arg::Scalar(members.to_le_bytes().to_vec()),
    ];
    let config = Config {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    };
    launch(&module, "k", &config, &mut args).map_err(|e| e.to_string())?;
    let Arg::Buffer(b) = &args[0] else {
        unreachable!()
    };
    Ok(b.chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

#[test]
fn each_lane_branches_to_the_label_its_index_picks() {
    let got = run(3, u32::MAX).expect("runs");
    let want: Vec<u32> = (0..32).map(|l| 100 + l % 3).collect();
    assert_eq!(got, want);
}

#[test]
fn an_index_past_the_list_is_an_error_naming_it() {
    // Lane 3's index is 3 of a list of 3.
    let e = run(4, u32::MAX).expect_err("index 3 is past the list");
    assert!(e.contains("brx.idx index 3 of a list of 3"), "{e}");
}

#[test]
fn bar_warp_sync_with_a_thread_of_the_mask_missing_is_an_error() {
    // The whole warp executes bar.warp.sync with a mask that leaves lane 31 out: each
    // executing thread's mask must include itself.
    let e = run(3, 0x7FFF_FFFF).expect_err("lane 31 is not in its own mask");
    assert!(e.contains("membermask 0x7fffffff of lane 31"), "{e}");
}
