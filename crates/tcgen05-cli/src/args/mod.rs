//! The command line: subcommands, flags and help texts (clap), and one parser per kind of value
//! ([`value`], [`number`]). Nothing here computes or prints; [`flags`] and [`scan`] read the
//! command line itself before and after clap.

pub mod check;
pub mod descriptor;
pub mod emulate;
pub mod explain;
pub mod flags;
pub mod layout;
pub mod layout_sf;
pub mod number;
pub mod numerics;
pub mod ptx;
pub mod run;
pub mod scan;
pub mod tmem;
pub mod value;

use clap::{Parser, Subcommand, ValueEnum};

use check::CheckArgs;
use descriptor::{
    DecodeIdesc, DecodeSmem, DecodeZmask, EncodeIdesc, EncodeSmem, EncodeZmask, ShapesArgs,
    SolveZmask,
};
use emulate::EmulateArgs;
use explain::ExplainArgs;
use layout::Layout;
use numerics::Numerics;
use ptx::PtxCommand;
use run::RunArgs;
use tmem::Tmem;

/// `tcgen05`: check compiled kernels, and decode, encode, emulate and explain NVIDIA Blackwell's tcgen05
/// instructions.
#[derive(Debug, Parser)]
#[command(
    name = "tcgen05",
    version,
    args_override_self = true,
    about = "Check the tcgen05 instructions of compiled kernels; run, decode, encode and explain NVIDIA Blackwell tcgen05 descriptors, layouts, Tensor Memory maps, PTX and arithmetic",
    long_about = "The reference for NVIDIA Blackwell's fifth-generation tensor-core instructions \
(tcgen05, PTX ISA 9.7.16). `check` reads the PTX of compiled kernels (Triton, CUTLASS/CuTe, \
nvcc) and applies every rule to each tcgen05 instruction and the descriptor bits known at compile \
time; `emulate` runs tcgen05 instructions on a functional model of a CTA pair; `decode`, `encode` \
and `solve` turn the shared memory, instruction and zero-column mask descriptors into fields and \
back; `shapes` lists the MMA shapes of Table 39; `layout` maps operands in shared memory; `ptx` \
writes every tcgen05 instruction as PTX; `tmem` maps fragments in Tensor Memory; `numerics` gives \
the tensor cores' arithmetic bit for bit; `explain` prints the rule behind any error; `run` \
executes a whole kernel from its PTX on the CPU (Hopper kernels today).\n\n\
Every rule comes from the PTX ISA text or, where it is silent or contradicts itself, from the \
project's rules document, docs/rules.md (R1-R24); each error names its source, and \
`tcgen05 explain` prints any of them.\n\n\
Numbers are 0x-prefixed hexadecimal or decimal, with optional `_` separators (0x4000_4040_0001_0040).",
    after_help = "Example:\n  tcgen05 check kernel.ptx\n  tcgen05 decode smem 0x4000404000010040\n  \
tcgen05 decode idesc 0x08100490 --json\n  tcgen05 decode smem - < values.txt > decoded.txt",
    after_long_help = concat!(
        "Examples:\n",
        "  tcgen05 check examples/kernels/triton_gemm_bf16.ptx\n",
        "  tcgen05 decode smem 0x4000404000010040\n",
        "  tcgen05 decode idesc 0x08100490 --kind f16 --json\n",
        "  tcgen05 encode idesc --kind f16 --m 128 --n 64 --d-type f32 --a-type bf16 --b-type bf16\n",
        "  tcgen05 solve zmask --m 128 --n 64 --mask 0111000011100001110000111000011100001110000111000011100001110000\n",
        "  tcgen05 shapes --kind mxf4 --cta-group 2\n\n",
        "Exit status:\n",
        "  0  valid (warnings allowed)\n",
        "  1  a value was read, or a configuration understood, but it breaks a rule; each error\n",
        "     is a stderr line `error: FIELD = VALUE: MESSAGE (SOURCE)`, SOURCE being the PTX ISA\n",
        "     table or section, or the rules.md ruling. A --target without tcgen05\n",
        "     (sm_120*, sm_121* consumer Blackwell; sm_100 without a suffix) is such an error.\n",
        "  2  usage error: unknown subcommand, flag or name (including an unknown target),\n",
        "     unparsable number, a number too wide for its descriptor; also input/output errors.\n",
        "See `tcgen05 decode smem --help` for batch mode (VALUE `-`: one value per stdin line)."
    )
)]
pub struct Cli {
    /// Print JSON instead of text (one object per value; one per line in batch mode).
    #[arg(long, global = true)]
    pub json: bool,

    /// When to colour text output: auto (only on a terminal, and never when NO_COLOR is set),
    /// always or never.
    #[arg(
        long,
        ignore_case = true,
        global = true,
        value_enum,
        default_value_t = ColorChoice::Auto,
        value_name = "WHEN",
        hide_possible_values = true
    )]
    pub color: ColorChoice,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check every tcgen05 instruction of PTX files: qualifiers, and the descriptor bits known
    /// at compile time.
    #[command(after_help = check::CHECK_HELP)]
    Check(CheckArgs),
    /// Run tcgen05 instruction lines on a functional model of a CTA pair: shared memory, Tensor
    /// Memory and registers, bit for bit, or the rule the sequence breaks.
    #[command(after_help = emulate::EMULATE_HELP)]
    Emulate(EmulateArgs),
    /// Decode a raw descriptor value into its fields and check every rule.
    #[command(
        subcommand,
        after_help = "Example:\n  tcgen05 decode smem 0x4000404000010040\n  \
tcgen05 decode idesc 0x08100490\n  tcgen05 decode zmask 0x0203028301020100 --m 32 --n 64"
    )]
    Decode(Decode),
    /// Build a descriptor from its fields, checking every rule.
    #[command(
        subcommand,
        after_help = "Example:\n  tcgen05 encode smem --start-address 0x400 --lbo 16 --sbo 1024 --swizzle 128B\n  \
tcgen05 encode idesc --kind f16 --m 128 --n 64 --d-type f32 --a-type bf16 --b-type bf16\n  \
tcgen05 encode zmask --skip-span 2 --use-span 3 --m 128 --n 64"
    )]
    Encode(Encode),
    /// Find a descriptor that produces a wanted result.
    #[command(
        subcommand,
        after_help = "Example:\n  tcgen05 solve zmask --m 128 --n 64 \
--mask 0111000011100001110000111000011100001110000111000011100001110000"
    )]
    Solve(Solve),
    /// List the valid MMA shapes (M, N, K) of Table 39 for a target.
    #[command(after_help = SHAPES_HELP)]
    Shapes(ShapesArgs),
    /// Shared-memory layouts: descriptors from intent, addresses from a descriptor, TMA agreement.
    #[command(subcommand)]
    Layout(Layout),
    /// Print the PTX of a tcgen05 instruction, or a minimal kernel, after checking every rule.
    #[command(subcommand)]
    Ptx(PtxCommand),
    /// Tensor Memory maps with pictures: tcgen05.ld/st fragments, D and A data-path layouts,
    /// scale factors, tcgen05.cp rows.
    #[command(subcommand)]
    Tmem(Tmem),
    /// Bit-accurate tensor-core arithmetic: the D an MMA returns for given operands, with the
    /// alignment and truncation of every term; the error of a whole K loop.
    #[command(subcommand)]
    Numerics(Numerics),
    /// Print a ruling of the rules document or a rule by the name an error cites (`R10`,
    /// `idesc.reserved_bit`), or list them all.
    #[command(after_help = explain::EXPLAIN_HELP)]
    Explain(ExplainArgs),
    /// Run a whole kernel from its PTX on the CPU (threads, warps, CTAs), bit for bit.
    #[command(after_help = run::RUN_HELP)]
    Run(RunArgs),
}

/// `decode` subcommands.
#[derive(Debug, Subcommand)]
pub enum Decode {
    /// Decode a 64-bit shared memory (matrix) descriptor (PTX ISA 9.7.16.4.1, Tables 40-41).
    #[command(after_help = DECODE_SMEM_HELP)]
    Smem(DecodeSmem),
    /// Decode a 32-bit instruction descriptor (PTX ISA 9.7.16.4.2, Tables 42-44).
    #[command(after_help = DECODE_IDESC_HELP)]
    Idesc(DecodeIdesc),
    /// Decode a 64-bit zero-column mask descriptor (PTX ISA 9.7.16.4.3, Table 45).
    #[command(after_help = DECODE_ZMASK_HELP)]
    Zmask(DecodeZmask),
}

/// `encode` subcommands.
#[derive(Debug, Subcommand)]
pub enum Encode {
    /// Encode a shared memory descriptor from byte values (PTX ISA 9.7.16.4.1).
    #[command(after_help = ENCODE_SMEM_HELP)]
    Smem(EncodeSmem),
    /// Encode an instruction descriptor and check the whole MMA against Table 39.
    #[command(after_help = ENCODE_IDESC_HELP)]
    Idesc(EncodeIdesc),
    /// Encode a zero-column mask descriptor from its fields as stored (Table 45).
    #[command(after_help = ENCODE_ZMASK_HELP)]
    Zmask(EncodeZmask),
}

/// `solve` subcommands.
#[derive(Debug, Subcommand)]
pub enum Solve {
    /// Find a zero-column mask descriptor that generates a wanted column mask.
    #[command(after_help = SOLVE_ZMASK_HELP)]
    Zmask(SolveZmask),
}

const DECODE_SMEM_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 decode smem 0x4000404000010040\n",
    "  shared memory descriptor 0x4000404000010040 for sm_100a (PTX ISA 9.7.16.4.1 Tables 40-41)\n",
    "    bits   field                raw     meaning\n",
    "    0-13   start_address        0x0040  byte address 0x400\n",
    "    ...\n",
    "    61-63  swizzle              010     128B: 128-Byte swizzling\n",
    "  valid\n\n",
    "  $ printf '0x4000404000010040\\n0x0000400800800040\\n' | tcgen05 decode smem - --json\n\n",
    "JSON: {\"hex\", \"valid\", \"fields\": {start_address, leading_byte_offset, stride_byte_offset\n",
    "(bytes), base_offset, lbo_mode (\"relative\"/\"absolute\"), swizzle (a name, or the raw code\n",
    "when the code is invalid)}, \"errors\": [{\"field\", \"message\", \"source\"}], \"warnings\": [...]}\n\n",
    "Batch mode (VALUE is `-`):\n",
    "  Reads one value per line from standard input and prints one result per line, in the order\n",
    "  read: a compact line (human mode) or one JSON object (--json). Blanks around a value are\n",
    "  ignored. A line that is not a number (an empty or blank line, binary garbage, a value too\n",
    "  wide) still gets its result line, so results stay aligned with input lines: human mode\n",
    "  prints `INPUT unreadable: REASON`, --json prints {\"line\": N, \"input\": \"...\",\n",
    "  \"valid\": false, \"error\": \"REASON\"}; stderr gets `error: line N: REASON`, and reading goes\n",
    "  on. Rule errors of readable values are reported in their result lines only, with a count\n",
    "  on stderr at the end. Exit status: 2 if any line was unreadable, else 1 if any value broke\n",
    "  a rule, else 0. Empty input prints nothing, warns on stderr and exits 0. A read error on\n",
    "  stdin, or an internal error that loses result lines, is an `error:` and exit status 2 (the\n",
    "  output stops before the first line without a result). When stdout is closed early\n",
    "  (`| head`), the command stops quietly with exit status 0. TCGEN05_THREADS sets the\n",
    "  number of decoding threads (1 to 256; other values are named in a warning).\n\n",
    "Exit status: 0 valid, 1 breaks a rule (errors on stderr), 2 usage error or unparsable value."
);

const DECODE_IDESC_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 decode idesc 0x08100490\n",
    "  0x08100490 is a valid instruction descriptor under 2 kinds: f16, f8f6f4\n",
    "  instruction descriptor 0x08100490 as .kind::f16 (PTX ISA 9.7.16.4.2 Table 42)\n",
    "    ...\n",
    "  $ tcgen05 decode idesc 0x08100490 --kind f16 --cta-group 1 --target sm_100a --json\n\n",
    "A raw instruction descriptor means nothing without its kind (rules.md R8). Without\n",
    "--kind, the value is decoded under every kind under which it is valid; none gives exit\n",
    "status 1. With --cta-group, --ws or --target the MMA is also checked against Table 39 and the\n",
    "target rules (defaults: cta_group 1, no .ws, sm_100a); without them only the descriptor's\n",
    "own rules (Tables 42-44, R8-R13) are checked.\n\n",
    "JSON with --kind: {\"hex\", \"kind\", \"valid\", \"fields\", \"errors\", \"warnings\"}; without:\n",
    "{\"hex\", \"kinds\": [one such object per valid kind]}. Fields: sparsity_selector, sparse,\n",
    "saturate, d_type, a_type, b_type, negate_a, negate_b, transpose_a, transpose_b, m, n,\n",
    "max_shift (rows), and scale_type, sfa_id, sfb_id (Tables 43-44) and k (Table 44). A type\n",
    "code that names no type under the kind is given as its number.\n\n",
    "Batch mode: VALUE `-` reads one value per line from stdin, as `tcgen05 decode smem --help`\n",
    "describes. Exit status: 0 valid, 1 breaks a rule, 2 usage error or unparsable value."
);

const DECODE_ZMASK_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 decode zmask 0x0203028301020100 --m 32 --n 64\n",
    "  (PTX example 4: the field table, the four sub-masks, most significant column first,\n",
    "  and a row of columns 0..N-1 with the zeroed ones marked)\n",
    "  $ tcgen05 decode zmask 0x0003028000000000 --m 128 --n 64 --max-shift 0 --json\n\n",
    "Spans follow the PTX worked examples (rules.md R19): skip_span + 1 is the length of each\n",
    "run of zeroed columns (mask bits 1), use_span + 1 of each run of used columns (mask bits 0).\n",
    "--max-shift is the instruction descriptor's maximum shift: a larger column shift is an error\n",
    "(R22).\n\n",
    "JSON: {\"hex\", \"valid\", \"fields\": {start_count: [4], first_span: [4], non_zero_mask,\n",
    "skip_span, use_span, column_shift}, \"errors\", \"warnings\"}, and with --m/--n \"masks\" (one\n",
    "string of 0/1 per sub-mask, most significant first, exactly its width) and\n",
    "\"zeroed_columns\" (columns of the N-bit mask, before the shift).\n\n",
    "Batch mode: VALUE `-` reads one value per line from stdin, as `tcgen05 decode smem --help`\n",
    "describes. Exit status: 0 valid, 1 breaks a rule, 2 usage error or unparsable value."
);

const ENCODE_SMEM_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 encode smem --start-address 0x400 --lbo 16 --sbo 1024 --swizzle 128B\n",
    "  shared memory descriptor 0x4000404000010040 for sm_100a ...\n",
    "  $ tcgen05 encode smem --start-address 0x400 --lbo 16 --sbo 1024 --swizzle 64B \\\n",
    "        --pattern-start 0x500 --json\n\n",
    "All of --start-address, --lbo and --sbo are in bytes; they must be 16-byte aligned and below\n",
    "2^18 (rules.md R3: never masked). --pattern-start computes the base offset from the\n",
    "address where the swizzle pattern starts (Table 41, R4). The absolute leading-dimension mode\n",
    "exists on sm_103a only (R5).\n\n",
    "JSON: {\"hex\", \"fields\"} (hex: 16 lowercase digits). When a rule is broken: exit status 1,\n",
    "errors on stderr, and with --json {\"hex\": null, \"valid\": false, \"fields\" (as given),\n",
    "\"errors\", \"warnings\"}."
);

const ENCODE_IDESC_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 encode idesc --kind f16 --m 128 --n 64 --d-type f32 --a-type bf16 --b-type bf16\n",
    "  instruction descriptor 0x08100490 as .kind::f16 (PTX ISA 9.7.16.4.2 Table 42) ...\n",
    "  $ tcgen05 encode idesc --kind mxf4nvf4 --m 128 --n 256 --a-type e2m1 --b-type e2m1 \\\n",
    "        --scale-type ue4m3 --json\n",
    "  {\"hex\":\"0x08400480\",\"fields\":{...}}\n\n",
    "The whole MMA is checked against Table 39 and the target rules for --cta-group (default 1),\n",
    "--ws (default off) and --target (default sm_100a). --d-type may be left out for the\n",
    "block-scaled kinds (D is f32). --scale-type defaults to ue8m0 for block-scaled kinds. K is\n",
    "implied by kind and sparsity (rules.md R15): --k 96 sets the K = 96 bit of Table 44, any\n",
    "other --k must equal the implied K.\n\n",
    "JSON: {\"hex\", \"fields\"} (hex: 8 lowercase digits). When a rule is broken: exit status 1,\n",
    "errors on stderr, and with --json {\"hex\": null, \"valid\": false, \"fields\" (as given),\n",
    "\"errors\", \"warnings\"}."
);

const ENCODE_ZMASK_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 encode zmask --skip-span 2 --use-span 3 --first-span 1,1,0,0 \\\n",
    "        --start-count 0,1,2,1 --column-shift 2 --m 32 --n 64\n",
    "  zero-column mask descriptor 0x0203028301020100 ... (PTX example 4)\n\n",
    "Field values are given as stored: the spans are run lengths minus one (rules.md R19:\n",
    "skip_span + 1 zeroed columns, use_span + 1 used columns); item i of --first-span and\n",
    "--start-count is sub-mask i, missing items are 0; --non-zero-mask defaults to 1. With --m and\n",
    "--n the masks are shown and the MMA rules checked.\n\n",
    "JSON: {\"hex\", \"fields\"} plus \"masks\" and \"zeroed_columns\" with --m/--n. When a rule is\n",
    "broken: exit status 1, errors on stderr, and with --json {\"hex\": null, \"valid\": false,\n",
    "\"fields\" (as given), \"errors\", \"warnings\"}."
);

const SOLVE_ZMASK_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 solve zmask --m 128 --n 64 \\\n",
    "        --mask 0111000011100001110000111000011100001110000111000011100001110000\n",
    "  zero-column mask descriptor 0x0003028000000000 ... (PTX example 2)\n\n",
    "BITS is the wanted N-bit column mask, most significant (highest column) first, exactly N\n",
    "characters of 0 and 1 (`_` may group them); a 1 zeroes the column. The descriptor printed\n",
    "generates exactly this mask. When no descriptor can (runs of one kind with different\n",
    "lengths, rules.md R19-R21), the exit status is 1 and the error says which runs differ.\n\n",
    "JSON: {\"hex\", \"fields\", \"masks\", \"zeroed_columns\"}, as encode zmask."
);

const SHAPES_HELP: &str = concat!(
    "Example:\n",
    "  $ tcgen05 shapes --kind f16 --cta-group 2 --sparse\n",
    "  $ tcgen05 shapes --kind mxf4 --target sm_103a --json\n",
    "  [\n",
    "  {\"kind\":\"mxf4\",\"cta_group\":1,\"ws\":false,\"sparse\":false,\"m\":128,\"n\":8,\"k\":64},\n",
    "  ...\n",
    "  ]\n\n",
    "Lists every valid combination of Table 39 (rules.md R14-R17) for the target (default\n",
    "sm_100a). Each filter narrows the list: --ws and --sparse alone mean true; --ws=false and\n",
    "--sparse=false keep only the non-.ws and dense rows. Human output gives one line per row of\n",
    "Table 39; --json gives a JSON array with one object per (kind, cta_group, ws, sparse, M, N,\n",
    "K) combination, without duplicates."
);
