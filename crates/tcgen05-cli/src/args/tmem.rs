//! Arguments of `tmem`: the Tensor Memory maps.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use tcgen05::data_path::{ScaleVec, SfOperand};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape};
use tcgen05::CtaGroup;

use super::number::{arg_u64, parse_num};
use super::value::{
    parse_cp_shape, parse_cta_group, parse_ldst_shape, parse_multicast, parse_sf_operand,
    parse_sf_scale_vec,
};

/// `tmem` subcommands.
#[derive(Debug, Subcommand)]
pub enum Tmem {
    /// The fragment of a tcgen05.ld / tcgen05.st: (thread, register) -> (lane, column, bits)
    /// relative to the instruction's address (PTX ISA 9.7.16.2.3.1, Figures 183-187).
    #[command(visible_alias = "st", after_help = LD_HELP)]
    Ld(LdArgs),
    /// Where an MMA keeps D: data-path layout A-G and (row m, column n) of D -> (CTA, lane, column) relative to
    /// the D address (PTX ISA 9.7.16.10.5).
    #[command(after_help = D_HELP)]
    D(DArgs),
    /// Where A lives for the MMA forms that read A from Tensor Memory: (row m, K index k) of A -> (CTA, lanes,
    /// column, bits) (PTX ISA 9.7.16.10.4-5).
    #[command(after_help = A_HELP)]
    A(AArgs),
    /// Where the block-scale factors live: scale factor (row or column, K block) -> (lanes,
    /// column, byte) (PTX ISA 9.7.16.10.7).
    #[command(after_help = SF_HELP)]
    Sf(SfArgs),
    /// Which lanes each source row of a tcgen05.cp lands in (PTX ISA 9.7.16.9.2).
    #[command(after_help = CP_HELP)]
    Cp(CpArgs),
}

const LD_HELP: &str = "Examples:\n  tcgen05 tmem ld --shape 16x256b --num 1\n  \
tcgen05 tmem ld --shape 16x32bx2 --num x2 --offset 8 --json\n  \
tcgen05 tmem ld --shape 32x32b --num 4 --pack --svg ld.svg\n\n\
Lanes and columns are offsets from the instruction's address. With --address (and --warp, default\n\
the warp whose lane quadrant holds the address) the warp-to-lane-quadrant rule is checked.\n\
JSON: {\"shape\", \"num\", \"pack\", \"half_split_offset\", \"registers\", \"lanes\", \"columns\",\n\
\"entries\": [{\"thread\", \"reg\", \"lane\", \"column\", \"bits\": [lo, hi], \"reg_bits\": [lo, hi]}]}\n\
(bit ranges inclusive; with --pack a register holds bits 15-0 of two adjacent columns).";

const D_HELP: &str = "Examples:\n  tcgen05 tmem d --m 128 --n 64 --cta-group 2\n  \
tcgen05 tmem d --m 64 --n 16 --json\n  tcgen05 tmem d --m 32 --n 64 --ws --svg d.svg\n\n\
JSON: {\"layout\", \"organization\", \"m\", \"n\", \"cta_group\", \"ws\", \"sparse\", \"columns\",\n\
\"bits\": [lo, hi], \"entries\": [{\"m\", \"n\", \"cta\", \"lane\", \"column\"}]}; m counts the rows of\n\
both CTAs of a pair; lane and column are offsets from the D address.";

const A_HELP: &str = "Example:\n  tcgen05 tmem a --m 128 --k 16 --bits 16 --cta-group 2\n\n\
--bits is the container of one A element: 32 (tf32), 16 (f16, bf16), 8 (i8 and the 8-bit\n\
containers of f8f6f4), 4 (mxf4, mxf4nvf4).";

const SF_HELP: &str =
    "Examples:\n  tcgen05 tmem sf --operand a --m 128 --n 64 --scale-vec 2X --sf-id 2\n  \
tcgen05 tmem sf --operand b --m 128 --n 256 --cta-group 2 --scale-vec 1X --svg sf.svg\n\n\
--scale-vec: 1X (block32 of mxf8f6f4), 2X (block32 of mxf4/mxf4nvf4), 4X (block16); for K = 96\n\
(sm_103a, sm_107a) 3X (block32) and 6X (block16), placed by rules.md T3 (the PTX text draws them\n\
only as pictures; no Blackwell has confirmed it).";

const CP_HELP: &str = "Examples:\n  tcgen05 tmem cp --shape 32x128b --multicast warpx4\n  \
tcgen05 tmem cp --shape 64x128b --multicast warpx2::01_23 --svg cp.svg";

/// `tmem ld` / `tmem st`.
#[derive(Debug, Args)]
pub struct LdArgs {
    /// The shape: 16x64b, 16x128b, 16x256b, 16x32bx2 or 32x32b.
    #[arg(long, value_name = "S", value_parser = parse_ldst_shape)]
    pub shape: LdStShape,
    /// The .num: 1, 2, 4, ... 128 (written 4, x4 or .x4).
    #[arg(long, value_name = "N", value_parser = parse_num)]
    pub num: u64,
    /// .pack::16b (ld) / .unpack::16b (st).
    #[arg(long)]
    pub pack: bool,
    /// The 16x32bx2 half-split offset in columns (default: the columns of one half, so the
    /// halves are adjacent, as CUTLASS emits).
    #[arg(long, value_name = "C", value_parser = arg_u64)]
    pub offset: Option<u64>,
    /// The instruction's Tensor Memory address, to check it against the warp.
    #[arg(long, value_name = "TADDR", value_parser = arg_u64)]
    pub address: Option<u64>,
    /// The executing warp's index in its CTA (only warp % 4 matters).
    #[arg(long, value_name = "W", value_parser = arg_u64, requires = "address")]
    pub warp: Option<u64>,
    /// Also draw the map as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// `tmem d`.
#[derive(Debug, Args)]
pub struct DArgs {
    /// M of the MMA (both CTAs of a pair): 32, 64, 128 or 256.
    #[arg(long, value_name = "M", value_parser = arg_u64)]
    pub m: u64,
    /// N of the MMA.
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub n: u64,
    /// .cta_group: 1 or 2.
    #[arg(long, value_name = "G", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// A .ws MMA.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub ws: bool,
    /// Sparse A (tcgen05.mma.sp).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub sparse: bool,
    /// Bits of a D element: 32 or 16 (16-bit D is not packed: bits 15-0 of a cell).
    #[arg(long, value_name = "B", value_parser = arg_u64, default_value = "32")]
    pub bits: u64,
    /// The D address, to check its lane alignment.
    #[arg(long, value_name = "TADDR", value_parser = arg_u64)]
    pub address: Option<u64>,
    /// Also draw the map as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// `tmem a`.
#[derive(Debug, Args)]
pub struct AArgs {
    /// M of the MMA (both CTAs of a pair).
    #[arg(long, value_name = "M", value_parser = arg_u64)]
    pub m: u64,
    /// How many K elements (stored, so K/2 for sparse A) to show.
    #[arg(long, value_name = "K", value_parser = arg_u64)]
    pub k: u64,
    /// Bits of an A container: 32, 16, 8 or 4.
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub bits: u64,
    /// .cta_group: 1 or 2.
    #[arg(long, value_name = "G", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// A .ws MMA.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub ws: bool,
    /// Sparse A.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub sparse: bool,
}

/// `tmem sf`.
#[derive(Debug, Args)]
pub struct SfArgs {
    /// Whose scale factors: a (scale_A, one per row of A) or b (scale_B, one per column of B).
    #[arg(long, value_name = "a|b", value_parser = parse_sf_operand)]
    pub operand: SfOperand,
    /// M of the MMA: 128 or 256.
    #[arg(long, value_name = "M", value_parser = arg_u64)]
    pub m: u64,
    /// N of the MMA.
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub n: u64,
    /// .cta_group: 1 or 2.
    #[arg(long, value_name = "G", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// Scale vector size: 1X, 2X or 4X; 3X or 6X for K = 96 (`.block32` / `.block16` on sm_103a).
    #[arg(long, value_name = "V", value_parser = parse_sf_scale_vec)]
    pub scale_vec: ScaleVec,
    /// The scale-factor ID (SFA_ID / SFB_ID of the instruction descriptor).
    #[arg(long, value_name = "ID", value_parser = arg_u64, default_value = "0")]
    pub sf_id: u64,
    /// Also draw the map as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// `tmem cp`.
#[derive(Debug, Args)]
pub struct CpArgs {
    /// The shape: 128x256b, 4x256b, 128x128b, 64x128b or 32x128b.
    #[arg(long, value_name = "S", value_parser = parse_cp_shape)]
    pub shape: CpShape,
    /// The multicast: warpx2::02_13, warpx2::01_23, warpx4 or none.
    #[arg(long, value_name = "MC", value_parser = parse_multicast, default_value = "none")]
    pub multicast: CpMulticast,
    /// .cta_group: 1 or 2 (2 writes the same lanes of both CTAs of the pair).
    #[arg(long, value_name = "G", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// Also draw the map as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}
