//! Arguments of `ptx`: one subcommand per tcgen05 instruction, and the minimal kernel.

use clap::{Args, Subcommand, ValueEnum};
use tcgen05::mma::{CtaGroup, Kind};
use tcgen05::ptx::{Collector, ScaleVec};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape};

use super::descriptor::EncodeIdesc;
use super::number::{
    arg_u64, parse_num, value_or_reg, ArgError, Operand, Reg, Width, IDESC, SMEM, ZMASK,
};
use super::value::{
    parse_collector, parse_cp_shape, parse_cta_group, parse_kind, parse_ldst_shape,
    parse_mma_scale_vec, parse_multicast, parse_target, parse_version, TargetArg,
};

const PTX_HELP: &str = concat!(
    "Examples:\n",
    "  $ tcgen05 ptx mma --kind f16 --cta-group 1 --idesc 0x08100490\n",
    "  tcgen05.mma.cta_group::1.kind::f16 [d_tmem], a_desc, b_desc, 0x08100490, enable_input_d;\n",
    "  $ tcgen05 ptx ld --shape 32x32b --num x8 --taddr t\n",
    "  $ tcgen05 ptx kernel --kind f16 --m 128 --n 64 --d-type f32 --a-type bf16 --b-type bf16\n\n",
    "Every form is checked before it is printed: the rules ptxas enforces (qualifier pairings,\n",
    "operand counts, immediate ranges, target and PTX ISA version) and those it cannot see (an\n",
    "immediate instruction descriptor, zero-column mask or shared memory descriptor is checked\n",
    "against Tables 39-45 and rules.md). Operands are register names (any PTX identifier) or,\n",
    "where PTX allows, immediates (a number: 0x-hex or decimal).\n\n",
    "--asm prints a Rust asm! template string (vector braces doubled; operands may be\n",
    "placeholders such as '{taddr}').\n",
    "--preamble prints the .version/.target/.address_size lines first; the version is the lowest\n",
    "that suits the target and the form (--ptx-version overrides it). --json prints {\"ptx\",\n",
    "\"target\", \"version\", \"valid\", \"errors\", \"warnings\"}.\n\n",
    "Exit status: 0 printed, 1 the form breaks a rule (one `error:` line each on stderr, nothing\n",
    "on stdout), 2 usage error."
);

/// `ptx` subcommands.
#[derive(Debug, Subcommand)]
#[command(after_help = PTX_HELP)]
pub enum PtxCommand {
    /// tcgen05.mma in any form: .ws, .sp, .block_scale, collectors, .ashift (PTX ISA 9.7.16.10.9).
    #[command(after_help = MMA_HELP)]
    Mma(MmaArgs),
    /// tcgen05.ld / tcgen05.ld.red: Tensor Memory to registers (PTX ISA 9.7.16.8.3).
    #[command(after_help = LD_HELP)]
    Ld(LdArgs),
    /// tcgen05.st: registers to Tensor Memory (PTX ISA 9.7.16.8.4).
    #[command(after_help = ST_HELP)]
    St(StArgs),
    /// tcgen05.cp: shared memory to Tensor Memory (PTX ISA 9.7.16.9.2).
    #[command(after_help = CP_HELP)]
    Cp(CpArgs),
    /// tcgen05.shift.down (PTX ISA 9.7.16.9.3).
    #[command(after_help = SHIFT_HELP)]
    Shift(ShiftArgs),
    /// tcgen05.alloc (PTX ISA 9.7.16.7.1).
    #[command(after_help = ALLOC_HELP)]
    Alloc(AllocArgs),
    /// tcgen05.dealloc (PTX ISA 9.7.16.7.1).
    #[command(after_help = DEALLOC_HELP)]
    Dealloc(DeallocArgs),
    /// tcgen05.relinquish_alloc_permit (PTX ISA 9.7.16.7.1).
    #[command(after_help = RELINQUISH_HELP)]
    RelinquishAllocPermit(GroupArgs),
    /// tcgen05.commit, optionally multicast (PTX ISA 9.7.16).
    #[command(after_help = COMMIT_HELP)]
    Commit(CommitArgs),
    /// tcgen05.fence::before_thread_sync / ::after_thread_sync.
    #[command(after_help = FENCE_HELP)]
    Fence(FenceArgs),
    /// tcgen05.wait::ld / ::st.
    #[command(after_help = WAIT_HELP)]
    Wait(WaitArgs),
    /// A complete minimal kernel (alloc, mma, commit, wait, ld, dealloc) for the configuration
    /// that `encode idesc` takes, with the encoded instruction descriptor as an immediate.
    #[command(after_help = KERNEL_HELP)]
    Kernel(EncodeIdesc),
}

const MMA_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx mma --kind f16 --cta-group 1 --idesc 0x08100490\n",
    "  tcgen05.mma.cta_group::1.kind::f16 [d_tmem], a_desc, b_desc, 0x08100490, enable_input_d;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const LD_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx ld --shape 32x32b --num x8 --taddr t\n",
    "  tcgen05.ld.sync.aligned.32x32b.x8.b32 {r0,r1,r2,r3,r4,r5,r6,r7}, [t];\n",
    "  $ tcgen05 ptx ld --shape 32x32b --num x2 --red min --abs --target sm_103a\n",
    "  tcgen05.ld.red.sync.aligned.32x32b.x2.min.abs.f32 {r0,r1}, redval, [taddr];\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const ST_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx st --shape 16x64b --num x2 --taddr t\n",
    "  tcgen05.st.sync.aligned.16x64b.x2.b32 [t], {r0,r1};\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const CP_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx cp --shape 128x256b --taddr t --sdesc sd\n",
    "  tcgen05.cp.cta_group::1.128x256b [t], sd;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const SHIFT_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx shift --taddr t\n",
    "  tcgen05.shift.cta_group::1.down [t];\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const ALLOC_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx alloc --dst dst --n-cols 128\n",
    "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [dst], 128;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const DEALLOC_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx dealloc --taddr t --n-cols 128\n",
    "  tcgen05.dealloc.cta_group::1.sync.aligned.b32 t, 128;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const RELINQUISH_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx relinquish-alloc-permit\n",
    "  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const COMMIT_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx commit --mbar bar\n",
    "  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];\n",
    "  $ tcgen05 ptx commit --mbar bar --cta-group 2 --multicast 0x3\n",
    "  tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [bar], 0x3;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const FENCE_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx fence before-thread-sync\n",
    "  tcgen05.fence::before_thread_sync;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const WAIT_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx wait ld\n",
    "  tcgen05.wait::ld.sync.aligned;\n",
    "(Exit status: 0 printed, 1 the form breaks a rule, 2 usage error; see `tcgen05 ptx --help`.)"
);

const KERNEL_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 ptx kernel --kind f16 --m 128 --n 64 --d-type f32 --a-type bf16 --b-type bf16 > k.ptx\n",
    "  $ ptxas -arch=sm_100a k.ptx -o k.cubin && nvdisasm k.cubin | grep -E 'UTCHMMA|0x8100490'\n\n",
    "The flags are those of `tcgen05 encode idesc`. The kernel tcgen05_minimal(a_desc, b_desc,\n",
    "out) allocates Tensor Memory, issues one tcgen05.mma with the encoded instruction descriptor\n",
    "as an immediate (its disassembly shows it in a UMOV), commits to an mbarrier and waits on it,\n",
    "loads 8 columns with tcgen05.ld.32x32b.x8, waits, stores one word and frees Tensor Memory:\n",
    "the smallest module to assemble to check a setup (it computes nothing meaningful).\n",
    "Exit status: 0 printed, 1 the configuration breaks a rule, 2 usage error."
);

/// Flags every instruction subcommand takes.
#[derive(Debug, Args)]
pub struct Common {
    /// The target (sm_100a sm_100f sm_103a sm_103f sm_107a sm_107f sm_110a sm_110f; sm_101a and sm_101f are aliases of sm_110a and sm_110f).
    #[arg(long, value_name = "T", value_parser = parse_target, default_value = "sm_100a")]
    pub target: TargetArg,
    /// PTX ISA version, for example 8.8 (default: the lowest that suits target and form).
    #[arg(long, value_name = "X.Y", value_parser = parse_version)]
    pub ptx_version: Option<u8>,
    /// Print the .version, .target and .address_size directives before the instruction.
    #[arg(long)]
    pub preamble: bool,
    /// Print the instruction as a Rust asm! template string: register-vector braces doubled;
    /// give operands as placeholders (--taddr '{t}').
    #[arg(long, conflicts_with = "preamble")]
    pub asm: bool,
}

/// A PTX operand: a register, or a number that fits the operand.
pub type PtxOperand = Operand<Reg>;

/// `--idesc`: an instruction descriptor.
fn operand_idesc(s: &str) -> Result<PtxOperand, ArgError> {
    value_or_reg(s, IDESC)
}

/// `--zero-column-mask`: a zero-column mask descriptor.
fn operand_zmask(s: &str) -> Result<PtxOperand, ArgError> {
    value_or_reg(s, ZMASK)
}

/// `--sdesc`: a shared memory descriptor.
fn operand_sdesc(s: &str) -> Result<PtxOperand, ArgError> {
    value_or_reg(s, SMEM)
}

/// `--n-cols`: a 32-bit operand.
fn operand_ncols(s: &str) -> Result<PtxOperand, ArgError> {
    value_or_reg(
        s,
        Width {
            bits: 32,
            source: "PTX ISA 9.7.16.7.1: nCols is a 32-bit operand",
        },
    )
}

/// `--multicast` of `tcgen05.commit`: the 16-bit ctaMask.
fn operand_cta_mask(s: &str) -> Result<PtxOperand, ArgError> {
    value_or_reg(
        s,
        Width {
            bits: 16,
            source: "PTX ISA tcgen05.commit: ctaMask is a 16-bit operand",
        },
    )
}

/// `--enable-input-d`: a predicate.
fn operand_bit(s: &str) -> Result<PtxOperand, ArgError> {
    value_or_reg(
        s,
        Width {
            bits: 1,
            source: "PTX ISA 9.7.16.10.9.1: enable-input-d is a predicate (0 or 1)",
        },
    )
}

/// `--format` of `ptx cp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// `.b8x16.b6x16_p32`.
    #[value(name = "b6x16_p32")]
    B6x16P32,
    /// `.b8x16.b4x16_p64`.
    #[value(name = "b4x16_p64")]
    B4x16P64,
}

/// `--red` of `ptx ld`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RedArg {
    /// `.min`.
    Min,
    /// `.max`.
    Max,
}

/// `--red-type` of `ptx ld`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RedTypeArg {
    /// `.f32`.
    F32,
    /// `.u32`.
    U32,
    /// `.s32`.
    S32,
}

/// `ptx mma`.
#[derive(Debug, Args)]
pub struct MmaArgs {
    /// .kind: f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4.
    #[arg(long, value_name = "K", value_parser = parse_kind)]
    pub kind: Kind,
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// tcgen05.mma.ws (weight-stationary).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub ws: bool,
    /// .sp (sparse A); its metadata register is --sparse-meta. `--sparse REG` is the old
    /// spelling of `--sparse --sparse-meta REG` (accepted with a warning).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = clap::ArgAction::Set)]
    pub sparse: bool,
    /// The sparsity-metadata register of a sparse MMA (tcgen05.mma.sp).
    #[arg(long, value_name = "REG", default_value = "sp_meta")]
    pub sparse_meta: String,
    /// The instruction descriptor: a 32-bit immediate (then checked against Tables 39-44) or a
    /// register.
    #[arg(long, value_name = "VALUE|REG", value_parser = operand_idesc, default_value = "idesc")]
    pub idesc: PtxOperand,
    /// Register holding D's Tensor Memory address.
    #[arg(long, value_name = "REG", default_value = "d_tmem")]
    pub d: String,
    /// Register holding A's shared memory descriptor (or, with --a-tmem, its Tensor Memory
    /// address).
    #[arg(long, value_name = "REG")]
    pub a: Option<String>,
    /// A is in Tensor Memory (`[a-tmem]`).
    #[arg(long)]
    pub a_tmem: bool,
    /// Register holding B's shared memory descriptor.
    #[arg(long, value_name = "REG", default_value = "b_desc")]
    pub b: String,
    /// Scale vector of a block-scaled kind: default, 1X, 2X, 4X, block16, block32 (given with
    /// another kind, it asks for .block_scale there).
    #[arg(long, value_name = "V", value_parser = parse_mma_scale_vec)]
    pub scale_vec: Option<ScaleVec>,
    /// Register holding scale_A's Tensor Memory address (block-scaled kinds).
    #[arg(long, value_name = "REG", default_value = "scale_a")]
    pub scale_a: String,
    /// Register holding scale_B's Tensor Memory address (block-scaled kinds).
    #[arg(long, value_name = "REG", default_value = "scale_b")]
    pub scale_b: String,
    /// Collector qualifier: a::fill|use|lastuse|discard, or bN::OP (N 0-3, .ws only).
    #[arg(long, value_name = "C", value_parser = parse_collector)]
    pub collector: Option<Collector>,
    /// .ashift (A in Tensor Memory, M = 128 or 256).
    #[arg(long)]
    pub ashift: bool,
    /// disable-output-lane registers, comma-separated (4 with .cta_group::1, 8 with ::2).
    #[arg(long, value_name = "R,R,..", value_delimiter = ',')]
    pub disable_output_lane: Option<Vec<String>>,
    /// enable-input-d: a predicate register, or 0 / 1.
    #[arg(long, value_name = "PRED|0|1", value_parser = operand_bit, default_value = "enable_input_d")]
    pub enable_input_d: PtxOperand,
    /// scale-input-d, 0-15 (kind::f16 and kind::tf32).
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub scale_input_d: Option<u64>,
    /// zero-column-mask-desc (.ws): a 64-bit immediate (checked against Table 45) or a register.
    #[arg(long, value_name = "VALUE|REG", value_parser = operand_zmask)]
    pub zero_column_mask: Option<PtxOperand>,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx ld`.
#[derive(Debug, Args)]
pub struct LdArgs {
    /// Shape: 16x64b 16x128b 16x256b 16x32bx2 32x32b.
    #[arg(long, value_name = "S", value_parser = parse_ldst_shape)]
    pub shape: LdStShape,
    /// .num: x1 x2 x4 ... x128.
    #[arg(long, value_name = "N", value_parser = parse_num)]
    pub num: u64,
    /// .pack::16b.
    #[arg(long)]
    pub pack: bool,
    /// Destination registers, comma-separated (default: PREFIX0, PREFIX1, ... as many as the
    /// shape and .num need).
    #[arg(long, value_name = "R,R,..", value_delimiter = ',')]
    pub dst: Option<Vec<String>>,
    /// Prefix of the default destination registers.
    #[arg(long, value_name = "P", default_value = "r")]
    pub reg_prefix: String,
    /// Register holding the Tensor Memory address.
    #[arg(long, value_name = "REG", default_value = "taddr")]
    pub taddr: String,
    /// immHalfSplitoff of .16x32bx2, in columns.
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub offset: Option<u64>,
    /// tcgen05.ld.red with this reduction (sm_103a/f, sm_110a/f).
    #[arg(long, value_enum, ignore_case = true)]
    pub red: Option<RedArg>,
    /// Type of the reduction [default: f32].
    #[arg(long, value_enum, ignore_case = true)]
    pub red_type: Option<RedTypeArg>,
    /// .abs (f32 reductions).
    #[arg(long)]
    pub abs: bool,
    /// .NaN (f32 reductions).
    #[arg(long)]
    pub nan: bool,
    /// Register receiving the reduction [default: redval].
    #[arg(long, value_name = "REG")]
    pub redval: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx st`.
#[derive(Debug, Args)]
pub struct StArgs {
    /// Shape: 16x64b 16x128b 16x256b 16x32bx2 32x32b.
    #[arg(long, value_name = "S", value_parser = parse_ldst_shape)]
    pub shape: LdStShape,
    /// .num: x1 x2 x4 ... x128.
    #[arg(long, value_name = "N", value_parser = parse_num)]
    pub num: u64,
    /// .unpack::16b.
    #[arg(long)]
    pub unpack: bool,
    /// Source registers, comma-separated (default: PREFIX0, PREFIX1, ...).
    #[arg(long, value_name = "R,R,..", value_delimiter = ',')]
    pub src: Option<Vec<String>>,
    /// Prefix of the default source registers.
    #[arg(long, value_name = "P", default_value = "r")]
    pub reg_prefix: String,
    /// Register holding the Tensor Memory address.
    #[arg(long, value_name = "REG", default_value = "taddr")]
    pub taddr: String,
    /// immHalfSplitoff of .16x32bx2, in columns.
    #[arg(long, value_name = "N", value_parser = arg_u64)]
    pub offset: Option<u64>,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx cp`.
#[derive(Debug, Args)]
pub struct CpArgs {
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// Shape: 128x256b 4x256b 128x128b 64x128b 32x128b.
    #[arg(long, value_name = "S", value_parser = parse_cp_shape)]
    pub shape: CpShape,
    /// Multicast: warpx2::02_13 warpx2::01_23 warpx4 (64x128b and 32x128b need one).
    #[arg(long, value_name = "M", value_parser = parse_multicast, default_value = "none")]
    pub multicast: CpMulticast,
    /// Decompress to .b8x16 from this source format.
    #[arg(long, value_enum, ignore_case = true)]
    pub format: Option<FormatArg>,
    /// Register holding the Tensor Memory address.
    #[arg(long, value_name = "REG", default_value = "taddr")]
    pub taddr: String,
    /// The shared memory descriptor: a 64-bit immediate (checked against Tables 40-41) or a
    /// register.
    #[arg(long, value_name = "VALUE|REG", value_parser = operand_sdesc, default_value = "s_desc")]
    pub sdesc: PtxOperand,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx shift`.
#[derive(Debug, Args)]
pub struct ShiftArgs {
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// Register holding the Tensor Memory address.
    #[arg(long, value_name = "REG", default_value = "taddr")]
    pub taddr: String,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx alloc`.
#[derive(Debug, Args)]
pub struct AllocArgs {
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// Shared memory variable (or address register) that receives the address.
    #[arg(long, value_name = "VAR", default_value = "tmem_slot")]
    pub dst: String,
    /// Columns: a power of two from 32 to 512, or a register.
    #[arg(long, value_name = "N|REG", value_parser = operand_ncols, default_value = "32")]
    pub n_cols: PtxOperand,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx dealloc`.
#[derive(Debug, Args)]
pub struct DeallocArgs {
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// Register holding the address tcgen05.alloc returned.
    #[arg(long, value_name = "REG", default_value = "taddr")]
    pub taddr: String,
    /// Columns, as allocated: a power of two from 32 to 512, or a register.
    #[arg(long, value_name = "N|REG", value_parser = operand_ncols, default_value = "32")]
    pub n_cols: PtxOperand,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx relinquish-alloc-permit`.
#[derive(Debug, Args)]
pub struct GroupArgs {
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx commit`.
#[derive(Debug, Args)]
pub struct CommitArgs {
    /// .cta_group::1 (default) or ::2.
    #[arg(long, value_name = "1|2", value_parser = parse_cta_group, default_value = "1")]
    pub cta_group: CtaGroup,
    /// The mbarrier's shared memory variable or address register.
    #[arg(long, value_name = "VAR", default_value = "mbar")]
    pub mbar: String,
    /// .multicast::cluster with this 16-bit ctaMask: an immediate or a .b16 register.
    #[arg(long, value_name = "MASK|REG", value_parser = operand_cta_mask)]
    pub multicast: Option<PtxOperand>,
    #[command(flatten)]
    pub common: Common,
}

/// `ptx fence`.
#[derive(Debug, Args)]
pub struct FenceArgs {
    /// before-thread-sync or after-thread-sync.
    #[arg(value_enum, ignore_case = true)]
    pub which: FenceArg,
    #[command(flatten)]
    pub common: Common,
}

/// Which fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FenceArg {
    /// `tcgen05.fence::before_thread_sync`.
    BeforeThreadSync,
    /// `tcgen05.fence::after_thread_sync`.
    AfterThreadSync,
}

/// `ptx wait`.
#[derive(Debug, Args)]
pub struct WaitArgs {
    /// ld or st.
    #[arg(value_enum, ignore_case = true)]
    pub which: WaitArg,
    #[command(flatten)]
    pub common: Common,
}

/// Which wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WaitArg {
    /// `tcgen05.wait::ld`.
    Ld,
    /// `tcgen05.wait::st`.
    St,
}
