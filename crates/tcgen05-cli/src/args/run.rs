//! Arguments of `run`.

use clap::Args;

/// `tcgen05 run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The PTX module (a whole compiler output: `.version`, `.target`, `.entry` ...).
    #[arg(value_name = "FILE.ptx")]
    pub file: String,
    /// The `.entry` to run.
    #[arg(long, value_name = "NAME")]
    pub kernel: String,
    /// Grid dimensions in CTAs: X[,Y[,Z]].
    #[arg(long, value_name = "X,Y,Z")]
    pub grid: String,
    /// Block dimensions in threads: X[,Y[,Z]].
    #[arg(long, value_name = "X,Y,Z")]
    pub block: String,
    /// Cluster dimensions in CTAs: X[,Y[,Z]] (a shape the interpreter does not model is refused
    /// by name).
    #[arg(long, value_name = "X,Y,Z", default_value = "1,1,1")]
    pub cluster: String,
    /// Dynamic shared memory in bytes.
    #[arg(long, value_name = "BYTES", default_value = "0")]
    pub shared: String,
    /// A kernel argument: `NAME=FILE.npy` (a buffer: the data of a little-endian C-order .npy,
    /// or a raw file), `NAME=VALUE` (typed by the parameter: an integer that fits its width, a
    /// float with a `.` or exponent for .f32/.f64, or 0 for a null pointer), or
    /// `NAME=tensormap:SPEC` (a tensor map: see below). NAME is the parameter's name in the PTX
    /// or its position (0, 1, ...). Every parameter needs one.
    #[arg(long = "arg", value_name = "NAME=FILE.npy|VALUE|tensormap:SPEC")]
    pub args: Vec<String>,
    /// Write a buffer or tensor map argument after the run: `NAME=FILE.npy` (same dtype and
    /// shape as its input file).
    #[arg(long = "out", value_name = "NAME=FILE.npy")]
    pub outs: Vec<String>,
    /// The most warp-instructions the run may execute.
    #[arg(long, value_name = "N", default_value = "1000000000")]
    pub max_steps: u64,
    /// Check for hazards: data races, reads before a tensor copy's completion was observed,
    /// missing fence.proxy.async, mbarrier counts and expect_tx bytes, wrong wait parity,
    /// deadlocks, Tensor Memory's lifecycle (never freed, tcgen05.ld registers read before
    /// tcgen05.wait::ld, freed under a load). Exit 1 when any is found.
    #[arg(long)]
    pub hazards: bool,
    /// With --hazards: also run N seeded schedules (warp interleavings and completion orders).
    #[arg(long, value_name = "N", default_value = "0", requires = "hazards")]
    pub schedules: u32,
    /// With --hazards: explore every schedule at the synchronisation choice points (which warp
    /// runs to its next mbarrier, barrier, copy or tcgen05 instruction; when a pending tensor
    /// copy completes), depth first, and stop at the first that shows a hazard, a deadlock or
    /// a run error, printing its --replay token. For small kernels.
    #[arg(long, requires = "hazards", conflicts_with_all = ["schedules", "replay"])]
    pub exhaustive: bool,
    /// With --exhaustive: the most schedules to run; when reached, the exploration is reported
    /// as cut, not exhaustive.
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        requires = "exhaustive"
    )]
    pub max_schedules: u32,
    /// With --hazards: run the one schedule of a token printed by --exhaustive (choice indices
    /// joined by dots).
    #[arg(
        long,
        value_name = "TOKEN",
        requires = "hazards",
        conflicts_with = "schedules"
    )]
    pub replay: Option<String>,
    /// With --hazards: measure what hazard tracking costs instead of reporting (the plain run
    /// and the checked default schedule in this process, N batches of at least 0.3 s of CPU,
    /// alternating; the best batch's CPU and wall time per run and their ratio).
    #[arg(
        long,
        value_name = "N",
        default_value = "0",
        requires = "hazards",
        conflicts_with_all = ["schedules", "exhaustive", "replay"]
    )]
    pub cost: u32,
    /// Compute named hardware approximations as the correctly rounded function instead of
    /// refusing them: `ex2=rn` (ex2.approx{.ftz}.f32 as the correctly rounded 2^x). The summary
    /// says how many lanes were so computed and how far an H100 is from it (hw/approx).
    #[arg(long, value_name = "OP=rn")]
    pub approx: Option<String>,
}

pub const RUN_HELP: &str = concat!(
    "Example:\n",
    "  tcgen05 run hw/run/ptx/row_sum.ptx --kernel row_sum --grid 8 --block 128 --shared 16 \\\n",
    "    --arg row_sum_param_0=x.npy --arg row_sum_param_1=sums.npy --arg 2=1000 \\\n",
    "    --arg 3=0 --arg 4=0 --out row_sum_param_1=sums.npy\n\n",
    "Runs a whole kernel from its PTX on the CPU, bit for bit: warps of 32 threads with\n",
    "divergence, bar.sync, shfl.sync, loads and stores, integer and float arithmetic with the\n",
    "GPU's results, cvt through exact formats, wgmma and tcgen05 (Tensor Memory, mma, commit,\n",
    "ld/st, cp, shift) through the functional model. An instruction it does not model is\n",
    "refused by name and line before the run starts.\n",
    "Prints one summary line (CTAs, warp- and thread-instructions executed, MMAs: wgmma per\n",
    "warpgroup and tcgen05.mma completed, bytes of global memory moved, time), or one JSON object with --json (errors included). A run longer\n",
    "than 2 s prints a progress line on stderr every 5 s.\n\n",
    "Tensor maps (--arg NAME=tensormap:SPEC), built like cuTensorMapEncodeTiled and checked with\n",
    "its rules (CUDA driver API 6.30), each problem naming the driver's parameter:\n",
    "  tensormap:FILE.npy,box=64x32[,swizzle=none|32B|64B|128B][,type=f16|bf16|f32|u8|...]\n",
    "    [,elementstrides=1x1][,interleave=none|16B|32B][,l2=none|64B|128B|256B][,oob=zero|nan]\n",
    "    [,shape=128x96][,strides=96x1]\n",
    "Sizes are in the array's order, outermost first (like the .npy shape and Triton's\n",
    "block_shape); the driver's globalDim, globalStrides and boxDim are their reverse. The\n",
    "tensor is the file's data with its shape (C order), or the view given by shape= and\n",
    "strides= (in elements). type= defaults from the .npy dtype (8-bit types as u8). Example,\n",
    "the A operand of hw/run/ptx/dot_tma.ptx (128 x 96 f16, 64 x 32 boxes, 64B swizzle):\n",
    "  --arg dot_tma_param_0=tensormap:a.npy,box=64x32,swizzle=64B\n",
);
