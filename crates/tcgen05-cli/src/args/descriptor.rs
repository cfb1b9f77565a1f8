//! Arguments of the descriptor subcommands (`decode`, `encode` and `solve` of the shared memory,
//! instruction and zero-column mask descriptors) and of `shapes`.

use clap::Args;
use tcgen05::mma::{CtaGroup, ElementType, Kind, MaxShift, ScaleType};
use tcgen05::shared_memory_descriptor::{LboMode, Swizzle};

use super::number::{arg_list4, arg_u64, operand32, operand_smem, operand_zmask, Operand, Stdin};
use super::value::{
    parse_bit, parse_cta_group, parse_kind, parse_lbo_mode, parse_max_shift, parse_scale,
    parse_swizzle, parse_target, parse_type, TargetArg,
};

/// `decode smem`.
#[derive(Debug, Args)]
pub struct DecodeSmem {
    /// The 64-bit value (0x-hex or decimal, `_` allowed), or `-` to read one value per line
    /// from standard input.
    #[arg(value_name = "VALUE|-", value_parser = operand_smem, allow_hyphen_values = true)]
    pub value: Operand<Stdin>,
    /// The target to check for (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
}

/// `decode idesc`.
#[derive(Debug, Args)]
pub struct DecodeIdesc {
    /// The 32-bit value (0x-hex or decimal, `_` allowed), or `-` to read one value per line
    /// from standard input.
    #[arg(value_name = "VALUE|-", value_parser = operand32, allow_hyphen_values = true)]
    pub value: Operand<Stdin>,
    /// The MMA kind (f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4); without it, every kind under
    /// which the value is valid.
    #[arg(long, value_name = "K", value_parser = parse_kind)]
    pub kind: Option<Kind>,
    /// Check the MMA as .cta_group::1 or ::2 against Table 39.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group)]
    pub cta_group: Option<CtaGroup>,
    /// Check the MMA as a .ws MMA against Table 39.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub ws: bool,
    /// Check the MMA for this target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target)]
    pub target: Option<TargetArg>,
}

/// `--m M --n N` of the zero-column mask subcommands.
#[derive(Debug, Args, Clone, Copy)]
pub struct MaskShape {
    /// M of the .ws MMA (32, 64 or 128): how many sub-masks (4, 2, 1).
    #[arg(long, value_name = "M", value_parser = arg_u64, requires = "n")]
    pub m: Option<u64>,
    /// N of the .ws MMA (64, 128 or 256): the width of the column mask.
    #[arg(long, value_name = "N", value_parser = arg_u64, requires = "m")]
    pub n: Option<u64>,
}

/// `decode zmask`.
#[derive(Debug, Args)]
pub struct DecodeZmask {
    /// The 64-bit value (0x-hex or decimal, `_` allowed), or `-` to read one value per line
    /// from standard input.
    #[arg(value_name = "VALUE|-", value_parser = operand_zmask, allow_hyphen_values = true)]
    pub value: Operand<Stdin>,
    #[command(flatten)]
    pub shape: MaskShape,
    /// The instruction descriptor's maximum shift in rows (0, 8, 16, 32): the column shift must
    /// not exceed it (rules.md R22).
    #[arg(long, value_name = "0|8|16|32", value_parser = parse_max_shift)]
    pub max_shift: Option<MaxShift>,
}

/// `encode smem`.
#[derive(Debug, Args)]
pub struct EncodeSmem {
    /// Matrix start address in shared memory, in bytes.
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub start_address: u64,
    /// Leading dimension byte offset (or, with --lbo-mode absolute, byte address), in bytes.
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub lbo: u64,
    /// Stride dimension byte offset, in bytes.
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub sbo: u64,
    /// Swizzling mode: none, 128B_base32B, 128B, 64B or 32B.
    #[arg(long, value_name = "S", value_parser = parse_swizzle)]
    pub swizzle: Swizzle,
    /// Matrix base offset, 0-7 (Table 41). Default 0.
    #[arg(long, value_name = "N", value_parser = arg_u64, conflicts_with = "pattern_start")]
    pub base_offset: Option<u64>,
    /// Address (bytes) where the swizzle's repeating pattern starts; the base offset is computed
    /// from it (Table 41, rules.md R4).
    #[arg(long, value_name = "B", value_parser = arg_u64)]
    pub pattern_start: Option<u64>,
    /// Leading dimension stride mode: relative (default) or absolute (sm_103a only).
    #[arg(long, value_name = "relative|absolute", value_parser = parse_lbo_mode, default_value = "relative")]
    pub lbo_mode: LboMode,
    /// The target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
}

/// `encode idesc`.
#[derive(Debug, Args)]
pub struct EncodeIdesc {
    /// The MMA kind: f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4.
    #[arg(long, value_name = "K", value_parser = parse_kind)]
    pub kind: Kind,
    /// M, the rows of A and D.
    #[arg(long, value_name = "M", value_parser = arg_u64)]
    pub m: u64,
    /// N, the columns of B and D.
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub n: u64,
    /// Type of D (f16 f32 s32); may be left out for block-scaled kinds (always f32).
    #[arg(long, value_name = "T", value_parser = parse_type)]
    pub d_type: Option<ElementType>,
    /// Type of A (f16 bf16 tf32 e4m3 e5m2 e2m3 e3m2 e2m1 s8 u8).
    #[arg(long, value_name = "T", value_parser = parse_type)]
    pub a_type: ElementType,
    /// Type of B (as A).
    #[arg(long, value_name = "T", value_parser = parse_type)]
    pub b_type: ElementType,
    /// A is M-major (transposed).
    #[arg(long)]
    pub transpose_a: bool,
    /// B is N-major (transposed).
    #[arg(long)]
    pub transpose_b: bool,
    /// Negate A.
    #[arg(long)]
    pub negate_a: bool,
    /// Negate B.
    #[arg(long)]
    pub negate_b: bool,
    /// Sparse A (K doubles).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub sparse: bool,
    /// Sparsity selector, 0-3 (Table 42; only with --sparse, and 0 for i8 and f8f6f4).
    #[arg(long, value_name = "S", value_parser = arg_u64)]
    pub sparsity_selector: Option<u64>,
    /// Saturate (i8 only).
    #[arg(long)]
    pub saturate: bool,
    /// Maximum shift while attempting B reuse, in rows (.ws only).
    #[arg(long, value_name = "0|8|16|32", value_parser = parse_max_shift)]
    pub max_shift: Option<MaxShift>,
    /// A .ws MMA (checks the .ws rows of Table 39).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub ws: bool,
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// Scale factor type of block-scaled kinds: ue8m0 (default) or ue4m3 (mxf4nvf4 only).
    #[arg(long, value_name = "ue8m0|ue4m3", value_parser = parse_scale)]
    pub scale_type: Option<ScaleType>,
    /// Scale factor data ID of A (block-scaled kinds).
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub sfa_id: Option<u64>,
    /// Scale factor data ID of B (block-scaled kinds).
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub sfb_id: Option<u64>,
    /// K: 96 sets the K = 96 bit (mxf4/mxf4nvf4, sm_103a); any other value must be the implied K.
    #[arg(long, value_name = "K", value_parser = arg_u64)]
    pub k: Option<u64>,
    /// The target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
}

/// `encode zmask`.
#[derive(Debug, Args)]
pub struct EncodeZmask {
    /// Skip Span as stored: each run of zeroed columns is S + 1 long (rules.md R19).
    #[arg(long, value_name = "S", value_parser = arg_u64)]
    pub skip_span: u64,
    /// Use Span as stored: each run of used columns is U + 1 long (rules.md R19).
    #[arg(long, value_name = "U", value_parser = arg_u64)]
    pub use_span: u64,
    /// Non-Zero Mask: 1 (default) generates the mask, 0 zeroes no column.
    #[arg(long, value_name = "0|1", value_parser = parse_bit, default_value = "1", action = clap::ArgAction::Set)]
    pub non_zero_mask: bool,
    /// First Span of sub-masks 0,1,2,3 (1: the pattern starts with zeroed columns).
    #[arg(long, value_name = "a,b,c,d", value_parser = arg_list4)]
    pub first_span: Option<[u64; 4]>,
    /// Start Count of sub-masks 0,1,2,3: positions of the pattern skipped before bit 0.
    #[arg(long, value_name = "a,b,c,d", value_parser = arg_list4)]
    pub start_count: Option<[u64; 4]>,
    /// Column Shift: the MMA reads B columns C .. C+N-1.
    #[arg(long, value_name = "C", value_parser = arg_u64, default_value = "0")]
    pub column_shift: u64,
    #[command(flatten)]
    pub shape: MaskShape,
    /// The instruction descriptor's maximum shift in rows (0, 8, 16, 32), checked against the
    /// column shift (rules.md R22).
    #[arg(long, value_name = "0|8|16|32", value_parser = parse_max_shift)]
    pub max_shift: Option<MaxShift>,
}

/// `solve zmask`.
#[derive(Debug, Args)]
pub struct SolveZmask {
    /// M of the .ws MMA: 32, 64 or 128.
    #[arg(long, value_name = "M", value_parser = arg_u64)]
    pub m: u64,
    /// N of the .ws MMA: the width of the mask (64, 128 or 256).
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub n: u64,
    /// The wanted column mask: N characters of 0/1, highest column first (1 = zeroed).
    #[arg(long, value_name = "BITS")]
    pub mask: String,
    /// Column shift to put in the descriptor (it does not change the mask).
    #[arg(long, value_name = "C", value_parser = arg_u64, default_value = "0")]
    pub column_shift: u64,
    /// The instruction descriptor's maximum shift in rows, checked against the column shift.
    #[arg(long, value_name = "0|8|16|32", value_parser = parse_max_shift)]
    pub max_shift: Option<MaxShift>,
}

/// `shapes`.
#[derive(Debug, Args)]
pub struct ShapesArgs {
    /// Only this kind (f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4).
    #[arg(long, value_name = "K", value_parser = parse_kind)]
    pub kind: Option<Kind>,
    /// Only this CTA group (1 or 2).
    #[arg(long, value_name = "G", value_parser = parse_cta_group)]
    pub cta_group: Option<CtaGroup>,
    /// Only .ws MMAs (--ws=false: only non-.ws).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub ws: Option<bool>,
    /// Only sparse MMAs (--sparse=false: only dense).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub sparse: Option<bool>,
    /// The target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
}
