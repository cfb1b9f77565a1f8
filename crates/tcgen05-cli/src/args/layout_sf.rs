//! Arguments of `layout sf`: global scale-factor layouts (explain, convert) and the chain from
//! the user's scale tensor to the MMA (check).

use clap::{Args, Subcommand};

use super::number::arg_u64;

const SF_HELP: &str = concat!(
    "Examples:\n",
    "  tcgen05 layout sf explain --layout blocked --rows 300 --k-blocks 6 --at 129,5\n",
    "  tcgen05 layout sf convert --from k-major --to blocked --rows 300 --k-blocks 6 in.npy out.npy\n",
    "  tcgen05 layout sf check --host k-major --rows 128 --k-blocks 4\n\n",
    "Layouts: blocked (128x4: cuBLASLt, CUTLASS Sm1xxBlockScaledConfig, PyTorch to_blocked,\n",
    "flashinfer block_scale_interleave), k-major (row-major rows x k_blocks), mn-major,\n",
    "blocked-twice (the 128x4 permutation applied to already blocked scales, sglang#23625)."
);

const EXPLAIN_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 layout sf explain --layout blocked --rows 300 --k-blocks 6 --at 129,5\n",
    "  blocked scale factors, 300 rows x 6 K blocks x 1 batch(es): 3072 bytes (384 padded rows x 8 padded K blocks per batch), 1272 padding bytes (zero)\n",
    "    offset = 512 * (row / 128 * 2 + k_block / 4) + 16 * (row % 32) + 4 * (row / 32 % 4) + k_block % 4\n",
    "    ...\n",
    "    row 129, K block 5 is byte 1553\n\n",
    "--json gives {\"layout\", \"rows\", \"k_blocks\", \"batches\", \"padded_rows\",\n",
    "\"padded_k_blocks\", \"bytes\", \"padding_bytes\", \"at\", \"offsets\"}."
);

const CONVERT_HELP: &str = concat!(
    "Example (PyTorch's to_blocked of a 300 x 6 uint8 array saved as scales.npy):\n",
    "  $ tcgen05 layout sf convert --from k-major --to blocked --rows 300 --k-blocks 6 scales.npy blocked.npy\n",
    "  k-major -> blocked: 1800 scale factors, 3072 bytes written to blocked.npy (1272 padding bytes, zero)\n\n",
    "The input holds the whole tensor, padding included; a size that does not fit the layout is\n",
    "an error (exit status 2)."
);

const CHECK_HELP: &str = concat!(
    "Example (flashinfer#4087: row-major scales where the kernel reads blocked ones):\n",
    "  $ tcgen05 layout sf check --host k-major      # exit 1\n",
    "  differ: MMA 0 (row 1, its K block 0) reads a scale factor that is not the one meant:\n",
    "    Tensor Memory  CTA 0 lane 1 column 0 byte 0\n",
    "    <- shared memory 0x8010 (tcgen05.cp.32x128b.warpx4)\n",
    "    <- global byte 16 (tensor copy)\n",
    "    <- holds row 4, K block 0 of the k-major tensor\n",
    "    meant: row 1, K block 0\n",
    "  $ tcgen05 layout sf check --host blocked\n",
    "  agree: every scale factor the MMAs read (2048 Tensor Memory reads) is the one meant, through .32x128b.warpx4 from a blocked host tensor\n\n",
    "The kernel: one 16 x 32-byte TMA box of the tile to shared memory 0x8000, one tcgen05.cp\n",
    "(--cp) to column 0, one MMA (M = 128, .cta_group::1, .scale_vec::1X) per K block with SF id\n",
    "= K block. --json gives {\"agree\", \"reads\" | \"first_difference\": {\"mma\", \"row\",\n",
    "\"k_block\", \"path\": {\"tmem\", \"smem\", \"global\", \"element\"}}}."
);

/// `layout sf` subcommands.
#[derive(Debug, Subcommand)]
#[command(after_help = SF_HELP)]
pub enum Sf {
    /// Where each (row, K block) of a scale tensor sits in a global layout, and which bytes are
    /// padding.
    #[command(after_help = EXPLAIN_HELP)]
    Explain(SfExplainArgs),
    /// Rewrites a scale tensor (.npy of bytes) from one layout into another; padding is zero.
    #[command(after_help = CONVERT_HELP)]
    Convert(SfConvertArgs),
    /// Follows every scale factor a kernel's MMAs consume back through tcgen05.cp, shared memory
    /// and the tensor copy to the user's tensor: "agree", or the first (row, K block) that
    /// differs with its path.
    #[command(after_help = CHECK_HELP)]
    Check(SfCheckArgs),
}

/// The logical scale tensor.
#[derive(Debug, Args)]
pub struct SfShapeArgs {
    /// Rows: M for scale_A, N for scale_B.
    #[arg(long, value_name = "R", value_parser = arg_u64)]
    pub rows: u64,
    /// K blocks (scale factors per row): ceil(K / vec).
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub k_blocks: u64,
    /// Batches (L).
    #[arg(long, value_name = "L", value_parser = arg_u64, default_value = "1")]
    pub batches: u64,
    /// Scale format: ue8m0, ue4m3 (ue5m3 is refused until PTX ISA 9.5 support lands).
    #[arg(long, value_name = "F", default_value = "ue8m0")]
    pub format: String,
    /// Elements of K per scale factor: 32 or 16.
    #[arg(long, value_name = "V", value_parser = arg_u64, default_value = "32")]
    pub vec: u64,
}

/// `layout sf explain`.
#[derive(Debug, Args)]
pub struct SfExplainArgs {
    /// The layout: blocked (or 128x4), k-major, mn-major, blocked-twice.
    #[arg(long, value_name = "L")]
    pub layout: String,
    #[command(flatten)]
    pub shape: SfShapeArgs,
    /// Also give the offset of ROW,K_BLOCK (repeatable).
    #[arg(long, value_name = "ROW,KB", value_parser = super::value::parse_pair)]
    pub at: Vec<(u64, u64)>,
    /// Also say what byte B holds (repeatable).
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub offset: Vec<u64>,
    /// Also draw the first 512 bytes (one 128x4 tile) as SVG into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// `layout sf convert`.
#[derive(Debug, Args)]
pub struct SfConvertArgs {
    /// The layout of the input.
    #[arg(long, value_name = "L")]
    pub from: String,
    /// The layout to write.
    #[arg(long, value_name = "L")]
    pub to: String,
    #[command(flatten)]
    pub shape: SfShapeArgs,
    /// The input: a .npy of 1-byte elements holding the whole tensor, padding included.
    #[arg(value_name = "IN")]
    pub input: std::path::PathBuf,
    /// The output .npy (uint8): rows x k_blocks (k-major), k_blocks x rows (mn-major), or the
    /// flat padded bytes (blocked), with a leading batch dimension when --batches > 1.
    #[arg(value_name = "OUT")]
    pub output: std::path::PathBuf,
}

/// `layout sf check`: the CUTLASS-style chain of one 128 x 4 tile of scale_A (M = 128,
/// `.cta_group::1`), whose kernel reads the blocked layout, fed the host's layout.
#[derive(Debug, Args)]
pub struct SfCheckArgs {
    /// The layout the host wrote the scales in.
    #[arg(long, value_name = "L")]
    pub host: String,
    /// Rows of the scale tensor (at most 128 here: one tile).
    #[arg(long, value_name = "R", value_parser = arg_u64, default_value = "128")]
    pub rows: u64,
    /// K blocks of the scale tensor (at most 4 here: one tile; one MMA of scale_vec::1X per K
    /// block, SF id = K block).
    #[arg(long, value_name = "B", value_parser = arg_u64, default_value = "4")]
    pub k_blocks: u64,
    /// The tcgen05.cp shape and multicast: 32x128b.warpx4, 64x128b.warpx2::02_13,
    /// 64x128b.warpx2::01_23, 128x128b.
    #[arg(long, value_name = "S", default_value = "32x128b.warpx4")]
    pub cp: String,
    /// Also draw every (row, K block) the MMAs read, red where it is not the one meant, as SVG
    /// into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}
