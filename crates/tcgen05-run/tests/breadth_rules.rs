//! The rules of the breadth features on small hand-written kernels: cluster launch rules (CUDA
//! driver API, `cuLaunchKernelEx`), `trap` as a typed stop, the refusals and errors of cluster
//! instructions, atomics and calls, each named with its line (PTX ISA sections in the messages).

use tcgen05_run::{launch, Arg, Config, Limits, Module, RunError};

const HEAD: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n";

fn config(grid: u32, cluster: u32) -> Config {
    Config {
        grid: [grid, 1, 1],
        block: [32, 1, 1],
        cluster: [cluster, 1, 1],
        shared: 0,
        limits: Limits { steps: 100_000 },
    }
}

/// A kernel `k(.param .u64 out)` with `body`, after the header directives `attrs`.
fn module(attrs: &str, body: &str) -> Module {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 out){attrs}\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.shared .align 8 .b8 s[64];\n{body}\n}}\n"
    );
    Module::read(&src).unwrap_or_else(|e| panic!("{e}"))
}

fn run(m: &Module, c: &Config) -> Result<Vec<u8>, RunError> {
    let mut args = [Arg::Buffer(vec![0; 256])];
    launch(m, "k", c, &mut args)?;
    match &args[0] {
        Arg::Buffer(b) => Ok(b.clone()),
        _ => Ok(Vec::new()),
    }
}

#[test]
fn cluster_shapes_follow_the_launch_rules() {
    let m = module("", "ret;");
    let field = |r: Result<Vec<u8>, RunError>| match r {
        Err(RunError::Launch { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    // The grid must be a multiple of the cluster, and a cluster holds at most 16 CTAs.
    assert_eq!(field(run(&m, &config(6, 4))), "cluster");
    assert_eq!(field(run(&m, &config(32, 32))), "cluster");
    assert!(run(&m, &config(32, 16)).is_ok());
    // A kernel that declares .reqnctapercluster runs in that shape, and refuses another.
    let req = module("\n.reqnctapercluster 2, 1, 1", "ret;");
    assert_eq!(field(run(&req, &config(4, 4))), "cluster");
    assert!(run(&req, &config(4, 1)).is_ok());
    assert_eq!(field(run(&req, &config(3, 1))), "cluster");
}

#[test]
fn trap_stops_the_run_with_its_line_and_thread() {
    let m = module(
        "",
        "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 5;\n@%p1 trap;\nret;",
    );
    match run(&m, &config(1, 1)) {
        Err(RunError::Trap { line, cta, thread }) => {
            assert_eq!((line, cta, thread), (12, [0, 0, 0], 5));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn cluster_instructions_check_their_operands() {
    // A wait with no arrival before it.
    let m = module("", "barrier.cluster.wait;\nret;");
    assert!(matches!(
        run(&m, &config(2, 2)),
        Err(RunError::Invalid { line: 10, .. })
    ));
    // mapa to a rank outside a cluster of 2.
    let m = module(
        "",
        "mov.u32 %r1, s;\nmapa.shared::cluster.u32 %r2, %r1, 2;\nret;",
    );
    assert!(matches!(
        run(&m, &config(2, 2)),
        Err(RunError::Invalid { line: 11, .. })
    ));
    // ld.shared::cluster of a rank outside the cluster.
    let m = module(
        "",
        "mov.u32 %r1, 0x5000000;\nld.shared::cluster.u32 %r2, [%r1];\nret;",
    );
    assert!(matches!(
        run(&m, &config(2, 2)),
        Err(RunError::Memory { line: 11, .. })
    ));
    // A remote arrival returns no state.
    let src = format!(
        "{HEAD}.visible .entry k()\n{{\n.reg .b64 %rd<2>;\n.reg .b32 %r<2>;\nmbarrier.arrive.release.cluster.shared::cluster.b64 %rd1, [%r1];\nret;\n}}\n"
    );
    assert!(matches!(
        Module::read(&src),
        Err(RunError::Invalid { line: 8, .. })
    ));
}

/// The two CTAs of a cluster wait for each other: rank 1 stores into rank 0's shared memory
/// only after rank 0 initialised it (PTX ISA 9.7.13.2: barrier.cluster orders them), and rank
/// 0 reads rank 1's value after the second barrier; run one CTA after the other, rank 0 would
/// read 0.
#[test]
fn barrier_cluster_interleaves_the_ctas() {
    let m = module(
        "",
        "mov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, s;\nmov.u32 %r3, 7;\n\
         setp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r2], %r3;\n\
         barrier.cluster.arrive;\nbarrier.cluster.wait;\n\
         mapa.shared::cluster.u32 %r4, %r2, 0;\nld.shared::cluster.u32 %r5, [%r4];\n\
         add.s32 %r5, %r5, %r1;\n@!%p1 st.shared::cluster.u32 [%r4], %r5;\n\
         barrier.cluster.arrive;\nbarrier.cluster.wait;\n\
         ld.shared.u32 %r6, [%r2];\nld.param.u64 %rd1, [out];\nmov.u32 %r7, %tid.x;\n\
         setp.eq.u32 %p2, %r7, 0;\nand.pred %p2, %p2, %p1;\n@%p2 st.global.u32 [%rd1], %r6;\nret;",
    );
    let out = run(&m, &config(2, 2)).unwrap_or_else(|e| panic!("{e}"));
    // Rank 0 stored 7; every thread of rank 1 stored 7 + 1 into it.
    assert_eq!(out[..4], 8u32.to_le_bytes());
}

#[test]
fn atomics_and_calls_refuse_what_ptx_forbids() {
    let read = |body: &str| {
        let src = format!(
            "{HEAD}.visible .entry k()\n{{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n{body}\nret;\n}}\n"
        );
        Module::read(&src)
    };
    // red has no cas; atom.min has no f32 form.
    assert!(matches!(
        read("red.global.cas.b32 [%rd1], %r1, %r2;"),
        Err(RunError::Invalid { .. })
    ));
    assert!(matches!(
        read("atom.global.min.f32 %r1, [%rd1], %r2;"),
        Err(RunError::Unsupported { .. })
    ));
    // A call through a register is refused by name; a call of a function never defined is an
    // error naming it.
    assert!(matches!(
        read("call (%r1), %rd1, (%r2), proto;"),
        Err(RunError::Unsupported { line: 8, .. })
    ));
    match read("call.uni nowhere;") {
        Err(RunError::Invalid { what, .. }) => assert_eq!(what, "nowhere"),
        other => panic!("{other:?}"),
    }
}

/// An unbounded recursion stops at the step limit, not in a hang or a crash.
#[test]
fn unbounded_recursion_is_bounded() {
    let src = format!(
        "{HEAD}.func f()\n{{\ncall.uni f;\nret;\n}}\n.visible .entry k()\n{{\ncall.uni f;\nret;\n}}\n"
    );
    let m = Module::read(&src).unwrap_or_else(|e| panic!("{e}"));
    let mut args: [Arg; 0] = [];
    let r = launch(&m, "k", &config(1, 1), &mut args);
    assert!(
        matches!(
            r,
            Err(RunError::StepLimit { .. } | RunError::Unsupported { .. })
        ),
        "{r:?}"
    );
}
