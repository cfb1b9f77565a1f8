//! The launches of `hw/run/harness.cu` for the Triton kernels of `hw/run/ptx`: the same seeded
//! inputs (SplitMix64), grids, shared memory and arguments, for tests that run those kernels.

#![allow(dead_code)]

use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05_run::{Arg, Config};

use super::inputs::{inputs, inputs16, inputs_lowp, map, repo};

/// One launch: kernel name, grid, dynamic shared bytes, arguments, output argument.
pub struct Case {
    pub name: &'static str,
    pub grid: [u32; 2],
    pub shared: u32,
    pub args: Vec<Arg>,
    pub out: usize,
}

impl Case {
    pub fn config(&self) -> Config {
        Config {
            grid: [self.grid[0], self.grid[1], 1],
            block: [128, 1, 1],
            cluster: [1, 1, 1],
            shared: self.shared,
            limits: Default::default(),
        }
    }
}

pub fn ptx(name: &str) -> String {
    std::fs::read_to_string(repo(&format!("hw/run/ptx/{name}.ptx"))).expect("ptx")
}

fn dot(name: &'static str, a: Vec<u8>, b: Vec<u8>, (m, n, k): (usize, usize, usize)) -> Case {
    let args = vec![
        Arg::Buffer(a),
        Arg::Buffer(b),
        Arg::Buffer(vec![0xAB; 4 * (m * n + 16)]),
        Arg::i32(m as i32),
        Arg::i32(n as i32),
        Arg::i32(k as i32),
        Arg::Null,
        Arg::Null,
    ];
    let grid = [m.div_ceil(64) as u32, n.div_ceil(64) as u32];
    Case {
        name,
        grid,
        shared: 16384,
        args,
        out: 2,
    }
}

/// Every kernel of `hw/run/ptx` with the harness's launch.
pub fn cases() -> Vec<Case> {
    let buf = |x: Vec<u8>| Arg::Buffer(x);
    let (m, n, k) = (128usize, 128usize, 96usize);
    vec![
        Case {
            name: "axpy_bf16",
            grid: [4, 1],
            shared: 0,
            args: vec![
                buf(inputs(1, 1000, 100, 60, false)),
                buf(inputs(2, 1000, 100, 60, false)),
                buf([0xCD, 0xAB].repeat(1016)),
                Arg::i32(1000),
                Arg::f32(1.7),
                Arg::Null,
                Arg::Null,
            ],
            out: 2,
        },
        Case {
            name: "scale_fp8",
            grid: [3, 1],
            shared: 0,
            args: vec![
                buf(inputs(3, 1500, 100, 60, false)),
                buf(vec![0xAB; 1516]),
                Arg::i32(1500),
                Arg::f32(3.3),
                Arg::Null,
                Arg::Null,
            ],
            out: 1,
        },
        Case {
            name: "row_sum",
            grid: [8, 1],
            shared: 16,
            args: vec![
                buf(inputs(4, 8000, 110, 30, false)),
                buf(vec![0xAB; 48]),
                Arg::i32(1000),
                Arg::Null,
                Arg::Null,
            ],
            out: 1,
        },
        Case {
            name: "fma_f32",
            grid: [4, 1],
            shared: 0,
            args: vec![
                buf(inputs(5, 1000, 100, 60, false)),
                buf(inputs(6, 1000, 100, 60, false)),
                buf(inputs(7, 1000, 100, 60, false)),
                buf(vec![0xAB; 4064]),
                Arg::i32(1000),
                Arg::Null,
                Arg::Null,
            ],
            out: 3,
        },
        dot(
            "dot_f16",
            inputs16(8, 8000),
            inputs16(9, 5760),
            (100, 72, 80),
        ),
        dot(
            "dot_bf16",
            inputs_lowp(10, 128 * 96, false),
            inputs_lowp(11, 96 * 64, false),
            (128, 64, 96),
        ),
        dot(
            "dot_e4m3",
            inputs_lowp(12, 64 * 128, true),
            inputs_lowp(13, 128 * 128, true),
            (64, 128, 128),
        ),
        Case {
            name: "dot_tma",
            grid: [2, 2],
            shared: 24600,
            args: vec![
                map(
                    inputs16(14, m * k),
                    (m as u64, k as u64),
                    (64, 32),
                    Swizzle::B64,
                ),
                Arg::i32(m as i32),
                Arg::i32(k as i32),
                Arg::i64(k as i64),
                Arg::i64(1),
                map(
                    inputs16(15, k * n),
                    (k as u64, n as u64),
                    (32, 64),
                    Swizzle::B128,
                ),
                Arg::i32(k as i32),
                Arg::i32(n as i32),
                Arg::i64(n as i64),
                Arg::i64(1),
                buf(vec![0xAB; 4 * (m * n + 16)]),
                Arg::i32(m as i32),
                Arg::i32(n as i32),
                Arg::i32(k as i32),
                Arg::Null,
                Arg::Null,
            ],
            out: 10,
        },
    ]
}
