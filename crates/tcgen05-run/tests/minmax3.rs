//! Three-input `max.f32` / `min.f32` (PTX ISA 8.8, sm_100 and later; Triton 3.9.0's row
//! maxima use it): the largest / smallest of a, b, c; a NaN input is ignored unless all three
//! are NaN, then the result is the canonical NaN (PTX ISA "max"/"min": the two-input rule,
//! over three). Expected values are written from that text.

use tcgen05_run::{launch, Arg, Config, Module};

const PTX: &str = r"
.version 8.8
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 io)
{
    .reg .b32 %f<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [io];
    mov.u32 %f0, %tid.x;
    mul.wide.u32 %rd2, %f0, 20;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.f32 %f1, [%rd3];
    ld.global.f32 %f2, [%rd3+4];
    ld.global.f32 %f3, [%rd3+8];
    max.f32 %f4, %f1, %f2, %f3;
    min.ftz.f32 %f5, %f1, %f2, %f3;
    st.global.f32 [%rd3+12], %f4;
    st.global.f32 [%rd3+16], %f5;
    ret;
}
";

#[test]
fn three_input_min_and_max() {
    let nan = f32::from_bits(0x7FC0_1234);
    // (a, b, c, max, min)
    let cases: [[f32; 5]; 5] = [
        [1.0, 3.0, 2.0, 3.0, 1.0],
        [nan, 2.0, 5.0, 5.0, 2.0],
        [-1.0, nan, f32::NEG_INFINITY, -1.0, f32::NEG_INFINITY],
        [7.5, -2.25, nan, 7.5, -2.25],
        [
            nan,
            nan,
            nan,
            f32::from_bits(0x7FFF_FFFF),
            f32::from_bits(0x7FFF_FFFF),
        ],
    ];
    let input: Vec<u8> = cases
        .iter()
        .flat_map(|c| [c[0], c[1], c[2], 0.0, 0.0])
        .flat_map(f32::to_le_bytes)
        .collect();
    let module = Module::read(PTX).expect("reads");
    let mut args = vec![Arg::Buffer(input)];
    let config = Config {
        grid: [1, 1, 1],
        block: [cases.len() as u32, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    };
    launch(&module, "k", &config, &mut args).expect("runs");
    let Arg::Buffer(out) = &args[0] else {
        unreachable!()
    };
    for (t, c) in cases.iter().enumerate() {
        let word = |i: usize| {
            let at = t * 20 + 4 * i;
            u32::from_le_bytes([out[at], out[at + 1], out[at + 2], out[at + 3]])
        };
        assert_eq!(word(3), c[3].to_bits(), "max of case {t}");
        assert_eq!(word(4), c[4].to_bits(), "min of case {t}");
    }
}
