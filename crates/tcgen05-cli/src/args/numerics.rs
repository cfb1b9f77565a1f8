//! Arguments of `numerics`: the operands of one MMA, and the study of a K loop.

use clap::{Args, Subcommand};

use super::number::{arg_u32, arg_u64};

/// `numerics` subcommands.
#[derive(Debug, Subcommand)]
pub enum Numerics {
    /// The hardware result of one dot product (one MMA output element), with the exact result
    /// and how each term was aligned and truncated.
    #[command(
        after_help = "Example:\n  tcgen05 numerics dot --arch sm_90a --kind f16 --a-type f16 --b-type f16 \
--a=-8192,-0.5,-0.25,-0.125 --b 1024,1,1,1 --c 8388608"
    )]
    Dot(DotArgs),
    /// The error of a K loop (a chain of MMAs, D rounded after each) against the exact result.
    #[command(
        after_help = "Example:\n  tcgen05 numerics error --arch sm_90a --arch sm_100a --kind f8f6f4 \
--a-type e4m3 --b-type e4m3 --k 4096 --svg fp8.svg"
    )]
    Error(ErrorArgs),
}

/// The instruction form, shared by both subcommands.
#[derive(Debug, Args)]
pub struct FormArgs {
    /// sm_90a (Hopper: wgmma), or sm_100a or any other target with tcgen05 (sm_100f, sm_103a,
    /// sm_103f, sm_107a, sm_107f, sm_110a, sm_110f: all computed with sm_100a's model). Repeat
    /// to compare.
    #[arg(long, value_name = "ARCH", default_value = "sm_100a")]
    pub arch: Vec<String>,
    /// wgmma, tcgen05.mma or mma.sync (default: wgmma on sm_90a, tcgen05.mma on sm_100a).
    #[arg(long, value_name = "INSTR")]
    pub instruction: Option<String>,
    /// tf32, f16, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4 (for wgmma and mma.sync: the kind of the
    /// same input family).
    #[arg(long)]
    pub kind: String,
    /// A's type (f16, bf16, tf32, e4m3, e5m2, e3m2, e2m3, e2m1, s8, u8).
    #[arg(long)]
    pub a_type: String,
    /// B's type.
    #[arg(long)]
    pub b_type: String,
    /// C's and D's type: f32 (default), f16, s32 (default for i8).
    #[arg(long)]
    pub d_type: Option<String>,
    /// Scale type of block-scaled kinds: ue8m0 (default) or ue4m3.
    #[arg(long)]
    pub scale_type: Option<String>,
    /// Elements of K per scale: 32 (default) or 16 (mxf4nvf4; the default with ue4m3).
    #[arg(long, value_name = "N", value_parser = arg_u32)]
    pub block: Option<u32>,
}

/// `numerics dot`.
#[derive(Debug, Args)]
pub struct DotArgs {
    #[command(flatten)]
    pub form: FormArgs,
    /// A's K values, comma-separated: decimals (a value of A's type written exactly, or the
    /// shortest decimal of one as Python's repr or NumPy prints it), inf, -inf, nan, or 0x
    /// codes. Fewer than K are padded with zeros.
    #[arg(long, value_name = "V,V,...", allow_hyphen_values = true)]
    pub a: String,
    /// B's K values.
    #[arg(long, value_name = "V,V,...", allow_hyphen_values = true)]
    pub b: String,
    /// C (in D's type); default 0.
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    pub c: Option<String>,
    /// A's scales (block-scaled kinds), one per block: decimals or 0x codes.
    #[arg(long, value_name = "V,...", allow_hyphen_values = true)]
    pub sfa: Option<String>,
    /// B's scales.
    #[arg(long, value_name = "V,...", allow_hyphen_values = true)]
    pub sfb: Option<String>,
    /// Saturate integer results (wgmma .satfinite, tcgen05 kind::i8 saturate bit).
    #[arg(long)]
    pub satfinite: bool,
}

/// `numerics error`.
#[derive(Debug, Args)]
pub struct ErrorArgs {
    #[command(flatten)]
    pub form: FormArgs,
    /// Length of the K loop (a multiple of the instruction's K).
    #[arg(long, value_name = "K", value_parser = arg_u64, default_value = "4096")]
    pub k: u64,
    /// Input distribution: normal, uniform or llm.
    #[arg(long, default_value = "normal")]
    pub dist: String,
    /// K loops to run per configuration.
    #[arg(long, value_name = "N", value_parser = arg_u32, default_value = "100")]
    pub trials: u32,
    /// Seed of the splitmix64 input generator.
    #[arg(long, value_name = "SEED", value_parser = arg_u64, default_value = "1")]
    pub seed: u64,
    /// Write an SVG plot of the mean relative error against K to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}
