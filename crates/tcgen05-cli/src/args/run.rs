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
    /// Cluster dimensions in CTAs (only 1,1,1 is modelled yet).
    #[arg(long, value_name = "X,Y,Z", default_value = "1,1,1")]
    pub cluster: String,
    /// Dynamic shared memory in bytes.
    #[arg(long, value_name = "BYTES", default_value = "0")]
    pub shared: String,
    /// A kernel argument: `NAME=FILE.npy` (a buffer: the data of a little-endian C-order .npy,
    /// or a raw file), or `NAME=VALUE` (an integer, a float with a `.` or exponent, or 0 for a
    /// null pointer). NAME is the parameter's name in the PTX or its position (0, 1, ...).
    /// Every parameter needs one.
    #[arg(long = "arg", value_name = "NAME=FILE.npy|VALUE")]
    pub args: Vec<String>,
    /// Write a buffer argument after the run: `NAME=FILE.npy` (same dtype and shape as its
    /// input file).
    #[arg(long = "out", value_name = "NAME=FILE.npy")]
    pub outs: Vec<String>,
    /// The most warp-instructions the run may execute.
    #[arg(long, value_name = "N", default_value = "1000000000")]
    pub max_steps: u64,
    /// Check for hazards: data races, reads before a tensor copy's completion was observed,
    /// missing fence.proxy.async, mbarrier counts and expect_tx bytes, wrong wait parity,
    /// deadlocks. Exit 1 when any is found.
    #[arg(long)]
    pub hazards: bool,
    /// With --hazards: also run N seeded schedules (warp interleavings and completion orders).
    #[arg(long, value_name = "N", default_value = "0", requires = "hazards")]
    pub schedules: u32,
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
    "refused by name and line before the run starts. Prints one summary line (warp-instructions\n",
    "executed, tcgen05.mma completed, time), or one JSON object with --json.\n",
);
