//! Control flow, bounds and refusals of the interpreter on small hand-written kernels; the
//! expected values follow from the PTX text (PTX ISA 9.7.12 for branches, 6.4 for alignment).

use tcgen05_run::{launch, Arg, Config, Limits, Module, RunError};

const HEAD: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n";

fn config(block: u32, steps: u64) -> Config {
    Config {
        grid: [1, 1, 1],
        block: [block, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Limits { steps },
    }
}

fn module(body: &str) -> Module {
    let src = format!("{HEAD}.visible .entry k(.param .u64 out, .param .u32 n)\n{{\n.reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n{body}\n}}\n");
    Module::read(&src).unwrap_or_else(|e| panic!("{e}"))
}

fn words(a: &Arg) -> Vec<u32> {
    match a {
        Arg::Buffer(b) => b
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        _ => Vec::new(),
    }
}

/// Odd threads take a branch that loops tid times; every thread then stores after the join
/// point. Thread t writes 100 + t (odd: the loop added t) or 200 (even). After the join, a
/// `shfl.sync.bfly` with lane mask 1 gives each thread its neighbour's value: correct only if
/// the warp reconverged before it (PTX ISA 9.7.9.6).
#[test]
fn divergent_loops_reconverge() {
    let m = module(
        "ld.param.u64 %rd1, [out];\n\
         mov.u32 %r1, %tid.x;\n\
         and.b32 %r2, %r1, 1;\n\
         setp.eq.u32 %p1, %r2, 0;\n\
         mov.u32 %r3, 100;\n\
         @%p1 bra EVEN;\n\
         mov.u32 %r4, 0;\n\
         LOOP:\n\
         add.u32 %r3, %r3, 1;\n\
         add.u32 %r4, %r4, 1;\n\
         setp.lt.u32 %p2, %r4, %r1;\n\
         @%p2 bra LOOP;\n\
         bra.uni JOIN;\n\
         EVEN:\n\
         mov.u32 %r3, 200;\n\
         JOIN:\n\
         mul.wide.u32 %rd2, %r1, 4;\n\
         add.s64 %rd3, %rd1, %rd2;\n\
         st.global.u32 [%rd3], %r3;\n\
         shfl.sync.bfly.b32 %r5, %r3, 1, 31, -1;\n\
         st.global.u32 [%rd3+160], %r5;\n\
         ret;",
    );
    let mut args = [Arg::Buffer(vec![0; 4 * 80]), Arg::i32(0)];
    launch(&m, "k", &config(40, 100_000), &mut args).unwrap_or_else(|e| panic!("{e}"));
    let value = |t: u32| if t % 2 == 1 { 100 + t } else { 200 };
    let mut want: Vec<u32> = (0..40).map(value).collect();
    want.extend((0..40).map(|t| value(t ^ 1)));
    assert_eq!(words(&args[0]), want);
}

/// A loop that never ends stops at the step limit.
#[test]
fn an_endless_loop_hits_the_step_limit() {
    let m = module("SPIN:\nbra.uni SPIN;\nret;");
    let mut args = [Arg::Buffer(vec![0; 4]), Arg::i32(0)];
    let e = launch(&m, "k", &config(64, 5000), &mut args).expect_err("must stop");
    assert_eq!(e, RunError::StepLimit { limit: 5000 });
}

/// A 4-byte store at an address that is not a multiple of 4 is refused with its line (line 10:
/// three header lines, the entry, the brace, three .reg lines, then ld and st).
#[test]
fn misaligned_store_is_refused() {
    let m = module("ld.param.u64 %rd1, [out];\nst.global.u32 [%rd1+2], 7;\nret;");
    let mut args = [Arg::Buffer(vec![0; 8]), Arg::i32(0)];
    match launch(&m, "k", &config(1, 100), &mut args) {
        Err(RunError::Memory { line, size: 4, .. }) => assert_eq!(line, 10),
        other => panic!("{other:?}"),
    }
}

/// A hardware approximation (`lg2.approx`, whose bits PTX does not define) is refused by name
/// and line when the module is read (`ex2.approx` and `div.full` are read, and refused when run
/// without `--approx`: tests/approx.rs).
#[test]
fn unmodelled_qualifier_is_refused_when_read() {
    let src = format!(
        "{HEAD}.visible .entry k()\n{{\n.reg .b32 %r<3>;\nlg2.approx.ftz.f32 %r1, %r2;\nret;\n}}\n"
    );
    match Module::read(&src) {
        Err(RunError::Unsupported { line: 7, what, .. }) => assert_eq!(what, "lg2.approx.ftz.f32"),
        other => panic!("{other:?}"),
    }
}

/// A scalar of the wrong size for its parameter names the parameter.
#[test]
fn argument_size_mismatch_names_the_parameter() {
    let m = module("ret;");
    let mut args = [Arg::Buffer(vec![0; 4]), Arg::i64(3)];
    match launch(&m, "k", &config(1, 100), &mut args) {
        Err(RunError::Argument { param, why }) => {
            assert_eq!(param, "n");
            assert!(
                why.contains("8 bytes given, the parameter is 4 bytes"),
                "{why}"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// `.param .u64 out` is 8 bytes at offset 0, `.param .u32 n` 4 bytes at 8; a
/// `.param .align 16 .b8 s[20]` after them starts at 16 (PTX ISA 5.1.6.1 alignment).
#[test]
fn param_layout_follows_alignment() {
    let src = format!("{HEAD}.visible .entry k(.param .u64 out, .param .u32 n, .param .align 16 .b8 s[20])\n{{\nret;\n}}\n");
    let m = Module::read(&src).unwrap_or_else(|e| panic!("{e}"));
    let k = m.kernel("k").unwrap_or_else(|e| panic!("{e}"));
    let layout: Vec<(u32, u32)> = k.params.iter().map(|p| (p.offset, p.size)).collect();
    assert_eq!(layout, [(0, 8), (8, 4), (16, 20)]);
    assert_eq!(k.param_bytes, 36);
}

/// Labels are scoped to their `{ }` block (PTX ISA 4.4), as in inline assembly that a compiler
/// repeats: each `bra L` loops to the `L` of its own block. The first loop counts to 3, the
/// second adds 10 until 33.
#[test]
fn labels_are_scoped_to_their_block() {
    let m = module(
        "ld.param.u64 %rd1, [out];\n\
         mov.u32 %r1, 0;\n\
         {\nL:\nadd.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 3;\n@%p1 bra L;\n}\n\
         {\nL:\nadd.u32 %r1, %r1, 10;\nsetp.lt.u32 %p1, %r1, 33;\n@%p1 bra L;\n}\n\
         st.global.u32 [%rd1], %r1;\nret;",
    );
    let mut args = [Arg::Buffer(vec![0; 4]), Arg::i32(0)];
    launch(&m, "k", &config(1, 1000), &mut args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(words(&args[0]), [33]);
    let dup = format!("{HEAD}.visible .entry k()\n{{\nL:\nL:\nret;\n}}\n");
    match Module::read(&dup) {
        Err(RunError::Invalid { line: 7, what, .. }) => assert_eq!(what, "L"),
        other => panic!("{other:?}"),
    }
}

/// Tensor maps are checked with `cuTensorMapEncodeTiled`'s rules, each refusal naming its field.
#[test]
fn tensor_map_rules() {
    use tcgen05::shared_memory_descriptor::Swizzle;
    use tcgen05_run::tensor_map::TensorMap;
    let good = TensorMap {
        element_bytes: 2,
        dims: vec![64, 64],
        strides: vec![128],
        box_dims: vec![64, 8],
        element_strides: vec![1, 1],
        swizzle: Swizzle::B128,
    };
    assert_eq!(good.validate(), Ok(()));
    let field = |m: TensorMap| match m.validate() {
        Err(RunError::Argument { param, .. }) => param,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        field(TensorMap {
            box_dims: vec![64, 300],
            ..good.clone()
        }),
        "tensor map boxDim[1]"
    );
    assert_eq!(
        field(TensorMap {
            strides: vec![120],
            ..good.clone()
        }),
        "tensor map globalStrides[0]"
    );
    assert_eq!(
        field(TensorMap {
            box_dims: vec![4, 8],
            ..good.clone()
        }),
        "tensor map boxDim[0]"
    );
    assert_eq!(
        field(TensorMap {
            swizzle: Swizzle::B64,
            ..good.clone()
        }),
        "tensor map swizzle"
    );
    assert_eq!(
        field(TensorMap {
            dims: vec![0, 64],
            ..good.clone()
        }),
        "tensor map globalDim[0]"
    );
    assert_eq!(
        field(TensorMap {
            element_strides: vec![1, 9],
            ..good
        }),
        "tensor map elementStrides[1]"
    );
}
