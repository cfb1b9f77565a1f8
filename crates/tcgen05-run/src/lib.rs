//! `tcgen05-run`: runs whole PTX kernels on a CPU, bit for bit.
//!
//! A [`Module`] is read once: every instruction is decoded into a typed [`op::Op`] (registers
//! resolved to slots, immediates parsed, types and modifiers as enums), and anything the
//! interpreter does not model is refused by name and line before the run starts. [`launch`]
//! then runs a grid of clusters of CTAs (the CTAs of a cluster interleaved, with distributed
//! shared memory, `barrier.cluster` and multicast copies), warps of 32 threads with per-thread
//! program counters (min-PC reconvergence), `bar.sync`, `shfl.sync`, warp votes and reductions,
//! device function calls, atomics, loads and stores of every state space (generic addresses
//! included), integer and floating-point arithmetic with the GPU's results (canonical NaNs,
//! `.ftz`, `.sat`, every rounding) and conversions through the core's exact number formats.
//!
//! What is modelled and what is refused: see this crate's README.md. Proof: the Triton kernels
//! of `hw/run/ptx` give the same output bytes here as on a Hopper GPU (`tests/hopper.rs`), and
//! so do the kernels of `hw/run/breadth` (`tests/breadth.rs`).
//!
//! # Example
//! ```
//! use tcgen05_run::{launch, Arg, Config, Module};
//!
//! let ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n\
//!     .visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n\
//!     ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n\
//!     add.s64 %rd1, %rd1, %rd2;\nst.global.u32 [%rd1], %r1;\nret;\n}\n";
//! let module = Module::read(ptx)?;
//! let mut args = [Arg::Buffer(vec![0; 16])];
//! let config = Config { grid: [1, 1, 1], block: [4, 1, 1], cluster: [1, 1, 1], shared: 0,
//!     limits: Default::default() };
//! launch(&module, "k", &config, &mut args)?;
//! assert_eq!(args[0], Arg::Buffer(vec![0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]));
//! # Ok::<(), tcgen05_run::RunError>(())
//! ```

pub mod approx;
mod async_group;
pub mod atom;
mod barrier;
mod brx;
pub mod buffer;
pub mod bulk_copy;
pub mod cluster;
mod cp_async;
mod decode;
mod directed;
pub mod error;
pub mod exec;
pub mod f32x2;
mod float;
pub mod function;
pub mod half;
pub mod hazard;
pub mod host;
mod int;
pub mod launch_directives;
mod ldmatrix;
pub mod memory;
pub mod module;
pub mod observe;
pub mod op;
pub mod param_match;
pub mod prmt;
mod rounding;
pub mod schedule;
mod statement;
pub mod tcgen05;
pub mod tensor_map;
pub mod tensor_map_encode;
pub mod warp;
mod wgmma;

pub use error::RunError;
pub use exec::{Limits, Stats};
pub use host::{launch, launch_with, Arg, Config, Hooks};
pub use module::{Kernel, Module, Param};
