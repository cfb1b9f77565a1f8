//! Arguments of `layout`: descriptors from intent, addresses from a descriptor, agreement with a
//! tensor copy.

use clap::{Args, Subcommand};
use tcgen05::canonical_layout::{AtomOrder, BaseOffsetReading, SwizzleAnchor};
use tcgen05::mma::{ElementType, Kind, Major};
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::tensor_copy::TmaSwizzle;

use super::number::arg_u64;
use super::value::{
    parse_ab, parse_anchor, parse_box, parse_kind, parse_major, parse_operand_type, parse_order,
    parse_pair, parse_range, parse_reading, parse_swizzle, parse_target, parse_tma_swizzle,
    TargetArg,
};

const LAYOUT_HELP: &str = "Examples:\n  \
tcgen05 layout desc --type bf16 --major k --swizzle 128B --mn 128 --k 64 --start-address 0x400\n  \
tcgen05 layout addr 0x4000404000010040 --type bf16 --major k --mn 128 --k 16 --svg a.svg\n  \
tcgen05 layout tma 0x4000404000010040 --type bf16 --major k --mn 128 --k 16 --swizzle 128B --box 64x128 --dst 0x400";

const DESC_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 layout desc --type bf16 --major k --swizzle 128B --mn 128 --k 64 --start-address 0x400\n",
    "  bf16 A K-major, 128B swizzle, 128 x 64 (M x K) at 0x400\n",
    "    atoms of 8 x 64 elements (1024 bytes), mn_first; 4 K-blocks of K = 16 (...)\n",
    "    k_block  k range     descriptor          start     LBO     SBO     base\n",
    "    0        0..16      0x4000404000010040  0x400     16      1024    0\n",
    "    1        16..32     0x4000404000010042  0x420     16      1024    0\n",
    "    ...\n\n",
    "One descriptor per MMA K-block of the tile: give each K-block's MMA its own. --json gives\n",
    "{\"descriptors\": [{\"k_block\", \"hex\"}...]}; --svg FILE draws the tile."
);

const ADDR_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 layout addr 0x4000404000010040 --type bf16 --major k --mn 8 --k 16 --at 0x490\n",
    "  bf16 A K-major, 8 x 16 (M x K), read through 0x4000404000010040\n",
    "    128B swizzle, start 0x400, LBO 16, SBO 1024, base offset 0 (pattern_start reading); ...\n",
    "    row  byte address of k = 0, 1, 2, ...\n",
    "    0    0x400 0x402 0x404 0x406 0x408 0x40a 0x40c 0x40e 0x410 0x412 ...\n",
    "    1    0x490 0x492 0x494 0x496 0x498 0x49a 0x49c 0x49e 0x480 0x482 ...\n",
    "    ...\n",
    "    byte 0x490 holds element (1, 0)\n\n",
    "Two elements read from one byte, or a read outside --buffer START:END, are errors (exit\n",
    "status 1). --json gives {\"addresses\": [[...per k...] per row], \"errors\", \"warnings\"}."
);

const TMA_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 layout tma 0x4000404000010040 --type bf16 --major k --mn 128 --k 16 \\\n",
    "        --swizzle 128B --box 64x128 --dst 0x400\n",
    "  agree: the MMA reads each of the 2048 elements of its 128 x 16 operand where the 128B\n",
    "  copies of 64x128 boxes put them (1 copy)\n",
    "  $ tcgen05 layout tma 0x4000404000010040 --type bf16 --major k --mn 128 --k 16 \\\n",
    "        --swizzle 64B --box 32x128 --dst 0x400      # exit 1: the first element that differs\n\n",
    "Elements are (row, K) in tile coordinates; the MMA reads the K-block that starts at tile K\n",
    "--k-start, which must lie inside the K range the copies cover. --json gives {\"agree\",\n",
    "\"elements\" | \"first_difference\": {\"mn\", \"k\", \"tile_k\", \"mma_address\", \"copy_address\",\n",
    "\"found\"}}."
);

/// `layout` subcommands.
#[derive(Debug, Subcommand)]
#[command(after_help = LAYOUT_HELP)]
pub enum Layout {
    /// The shared memory descriptor of every MMA K-block of a tile laid out from intent
    /// (canonical layouts, PTX ISA 9.7.16.3.3; rules.md R3-R7, R18).
    #[command(after_help = DESC_HELP)]
    Desc(DescArgs),
    /// The shared-memory byte the MMA reads for every element of an operand, given its
    /// descriptor; overlaps and reads outside --buffer are errors.
    #[command(after_help = ADDR_HELP)]
    Addr(AddrArgs),
    /// Whether the MMA reads exactly what a tensor copy (TMA) box wrote, and if not the first
    /// element that differs (PTX ISA 5.5.7).
    #[command(after_help = TMA_HELP)]
    Tma(TmaArgs),
    /// Block-scale factors in global memory: explain a layout, convert a tensor between
    /// layouts, check the chain to the MMA (PTX ISA 9.7.16.10.7).
    #[command(subcommand)]
    Sf(super::layout_sf::Sf),
}

/// What every layout subcommand needs to know about the operand.
#[derive(Debug, Args)]
pub struct OperandArgs {
    /// Element type of the operand: f16 bf16 tf32 e4m3 e5m2 e2m3 e3m2 e2m1 s8 u8.
    #[arg(long = "type", value_name = "T", value_parser = parse_operand_type)]
    pub element: ElementType,
    /// The MMA kind; needed for the 4- and 6-bit types (16 per 16-byte chunk under
    /// f8f6f4/mxf8f6f4, 32 under mxf4/mxf4nvf4).
    #[arg(long, value_name = "K", value_parser = parse_kind)]
    pub kind: Option<Kind>,
    /// k (K-major, the default for A and B) or mn (M-major A / N-major B, transposed).
    #[arg(long, value_name = "k|mn", value_parser = parse_major)]
    pub major: Major,
    /// Rows along M (operand A) or N (operand B).
    #[arg(long, value_name = "R", value_parser = arg_u64)]
    pub mn: u64,
    /// K extent in elements: the tile's K for `desc`, the instruction's K otherwise.
    #[arg(long, value_name = "K", value_parser = arg_u64)]
    pub k: u64,
    /// Which operand, for labels: a (M x K) or b (N x K).
    #[arg(long, value_name = "a|b", value_parser = parse_ab, default_value = "a")]
    pub operand: char,
}

/// `layout desc`.
#[derive(Debug, Args)]
pub struct DescArgs {
    #[command(flatten)]
    pub op: OperandArgs,
    /// Swizzling mode: none, 128B_base32B, 128B, 64B or 32B.
    #[arg(long, value_name = "S", value_parser = parse_swizzle)]
    pub swizzle: Swizzle,
    /// Shared memory address of the tile, bytes (also where its swizzle pattern starts).
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub start_address: u64,
    /// Order of the swizzle atoms: mn_first (CuTe tile_to_shape, the default) or k_first.
    #[arg(long, value_name = "O", value_parser = parse_order, default_value = "mn_first")]
    pub order: AtomOrder,
    /// Where the swizzle pattern starts: tile_start (Table 41's base offset for a start off the
    /// repeat boundary, rules.md R4) or address (absolute address bits, as TMA and CuTe
    /// write it; base offset 0, as CUTLASS writes).
    #[arg(long, value_name = "A", value_parser = parse_anchor, default_value = "tile_start")]
    pub anchor: SwizzleAnchor,
    /// K elements per MMA (default: 256 bits of K, the dense K of the kind).
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub k_per_block: Option<u64>,
    /// The target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
    /// Also draw the tile as it sits in shared memory, as SVG, into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// `layout addr`.
#[derive(Debug, Args)]
pub struct AddrArgs {
    /// The 64-bit shared memory descriptor.
    #[arg(value_name = "DESC", value_parser = arg_u64)]
    pub desc: u64,
    #[command(flatten)]
    pub op: OperandArgs,
    /// The buffer that holds the operand, START:END (bytes, END exclusive); elements read
    /// outside it are errors.
    #[arg(long, value_name = "START:END", value_parser = parse_range)]
    pub buffer: Option<(u64, u64)>,
    /// Also say which element lives at byte B (repeatable).
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub at: Vec<u64>,
    /// How the matrix base offset places the swizzle pattern: pattern_start (the model),
    /// absolute or start_line (hypotheses for experiments).
    #[arg(long, value_name = "R", value_parser = parse_reading, default_value = "pattern_start")]
    pub reading: BaseOffsetReading,
    /// The target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
    /// Also draw the operand as it sits in shared memory, as SVG, into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// `layout tma`.
#[derive(Debug, Args)]
pub struct TmaArgs {
    /// The 64-bit shared memory descriptor of the MMA operand.
    #[arg(value_name = "DESC", value_parser = arg_u64)]
    pub desc: u64,
    #[command(flatten)]
    pub op: OperandArgs,
    /// The tensor map's swizzle mode: none, 128B_base32B (128B with 32B atoms), 128B, 64B, 32B,
    /// or 96B (PTX ISA 8.8; read from the text, unproven on hardware).
    #[arg(long, value_name = "S", value_parser = parse_tma_swizzle)]
    pub swizzle: TmaSwizzle,
    /// Box dimensions INNERxOUTER in elements (inner = the contiguous dimension: K for a K-major
    /// operand, M/N for an MN-major one).
    #[arg(long = "box", value_name = "INNERxOUTER", value_parser = parse_box)]
    pub box_dims: (u64, u64),
    /// Shared memory destination address of a copy, bytes; repeat for several copies of the
    /// same box shape (each with its --box-origin, in the same order).
    #[arg(long, value_name = "B", value_parser = arg_u64, required = true)]
    pub dst: Vec<u64>,
    /// Tile coordinates INNER,OUTER of the box's first element (default 0,0); one per --dst
    /// when there are several.
    #[arg(long, value_name = "I,O", value_parser = parse_pair)]
    pub box_origin: Vec<(u64, u64)>,
    /// Tile K index where the MMA's K-block starts.
    #[arg(long, value_name = "N", value_parser = arg_u64, default_value = "0")]
    pub k_start: u64,
    /// The target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
}
