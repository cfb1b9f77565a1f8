//! Arguments of `check`.

use clap::Args;
use tcgen05::shared_memory_descriptor::Swizzle;

use super::value::{parse_target, TargetArg};

/// `tcgen05 check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// PTX files to check (`-` reads standard input).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Check for this target instead of each file's `.target`.
    #[arg(long, value_name = "T", value_parser = parse_target)]
    pub target: Option<TargetArg>,
    /// Also write the findings as SARIF 2.1.0 to this file (for code-scanning tools).
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<String>,
    /// Print every tcgen05 instruction with its decoded descriptors, not only those with
    /// problems.
    #[arg(long)]
    pub verbose: bool,
    /// Do not read `desc + stage * C` under rules.md R7 (an addition into a shared memory
    /// descriptor does not carry out of the start-address field): leave such descriptors'
    /// fields unknown.
    #[arg(long)]
    pub no_assume: bool,
    /// A host tensor map, by the kernel parameter that holds it: `NAME=swizzle:MODE` (MODE:
    /// none, 32B, 64B, 128B or 128B_base32B). The descriptors of MMAs reading a buffer its
    /// cp.async.bulk.tensor fills must have its swizzle. Repeatable.
    #[arg(long = "tensor-map", value_name = "NAME=swizzle:MODE", value_parser = parse_tensor_map)]
    pub tensor_maps: Vec<(String, Swizzle)>,
    /// Also run every kernel (`.entry`) of each file under the hazard checker of `tcgen05 run
    /// --hazards`, on seeded random inputs (see below). Exit 1 when any hazard is found.
    #[arg(long)]
    pub hazards: bool,
    /// With --hazards: grid dimensions in CTAs, X[,Y[,Z]] (default: one cluster).
    #[arg(long, value_name = "X,Y,Z", requires = "hazards")]
    pub grid: Option<String>,
    /// With --hazards: block dimensions, X[,Y[,Z]] (default: the kernel's .reqntid, else its
    /// .maxntid).
    #[arg(long, value_name = "X,Y,Z", requires = "hazards")]
    pub block: Option<String>,
    /// With --hazards: cluster dimensions, X[,Y[,Z]] (default: the kernel's
    /// .reqnctapercluster, else 1).
    #[arg(long, value_name = "X,Y,Z", requires = "hazards")]
    pub cluster: Option<String>,
    /// With --hazards: dynamic shared memory in bytes (default: when the file declares an
    /// .extern .shared array, all a CTA may have besides its static shared memory, else 0).
    #[arg(long, value_name = "BYTES", requires = "hazards")]
    pub shared: Option<String>,
    /// With --hazards: bytes of each pointer argument's buffer.
    #[arg(
        long,
        value_name = "BYTES",
        default_value = "1048576",
        requires = "hazards"
    )]
    pub buffer_bytes: String,
    /// With --hazards: a scalar argument, `NAME=VALUE` (NAME the parameter's name in the PTX or
    /// its position; VALUE an integer, or a float with `.` or an exponent). Repeatable.
    #[arg(long = "arg", value_name = "NAME=VALUE", requires = "hazards")]
    pub args: Vec<String>,
    /// With --hazards: the seed of the buffers' random bytes.
    #[arg(long, value_name = "N", default_value = "0", requires = "hazards")]
    pub seed: u64,
    /// With --hazards: also run N seeded schedules (warp interleavings and completion orders)
    /// of each kernel.
    #[arg(long, value_name = "N", default_value = "0", requires = "hazards")]
    pub schedules: u32,
    /// With --hazards: walk every schedule of each kernel at its synchronisation choice points
    /// (as `tcgen05 run --hazards --exhaustive`), stopping at the first that shows a hazard, a
    /// deadlock or a run error and printing its --replay token.
    #[arg(long, requires = "hazards", conflicts_with = "schedules")]
    pub exhaustive: bool,
    /// With --exhaustive: the most schedules to run per kernel; when reached, the kernel's walk
    /// is reported as NOT exhaustive.
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        requires = "exhaustive"
    )]
    pub max_schedules: u32,
    /// With --hazards: run kernel KERNEL on the one schedule of TOKEN (printed by
    /// --exhaustive). Repeatable, one per kernel.
    #[arg(
        long,
        value_name = "KERNEL=TOKEN",
        requires = "hazards",
        conflicts_with = "schedules"
    )]
    pub replay: Vec<String>,
}

/// `--tensor-map NAME=swizzle:MODE`.
fn parse_tensor_map(s: &str) -> Result<(String, Swizzle), String> {
    let expected = "expected NAME=swizzle:MODE, MODE one of none, 32B, 64B, 128B, 128B_base32B (PTX ISA Table 40)";
    let Some((name, spec)) = s.split_once('=') else {
        return Err(format!("tensor map '{s}': no '=' ({expected})"));
    };
    let name = name.trim_ascii();
    if name.is_empty() {
        return Err(format!("tensor map '{s}': no parameter name ({expected})"));
    }
    let Some(mode) = spec.trim_ascii().strip_prefix("swizzle:") else {
        return Err(format!(
            "tensor map '{s}': '{spec}' is not swizzle:MODE ({expected})"
        ));
    };
    if mode.eq_ignore_ascii_case("96B") {
        // PTX ISA 8.8's 96-byte mode: no descriptor mode describes it (rules.md T4).
        return Err(format!(
            "tensor map '{s}': the 96B mode has no shared memory descriptor counterpart (PTX ISA \
             Table 40), so no descriptor can be checked against it (rules.md T4); `tcgen05 \
             layout tma --swizzle 96B` checks element by element"
        ));
    }
    Swizzle::from_name(mode)
        .map(|m| (name.to_owned(), m))
        .ok_or_else(|| format!("tensor map '{s}': unknown swizzle '{mode}' ({expected})"))
}

pub const CHECK_HELP: &str = concat!(
    "Examples:\n",
    "  tcgen05 check kernel.ptx\n",
    "  tcgen05 check --json --sarif findings.sarif ~/.triton/cache/*/*.ptx\n",
    "  cuobjdump -ptx app | tcgen05 check -\n",
    "  tcgen05 check --tensor-map desc_a=swizzle:128B --tensor-map desc_b=swizzle:128B kernel.ptx\n\n",
    "Reads each PTX file (each .version starts a module with its own .target; cuobjdump's header\n",
    "lines are skipped), finds every tcgen05 instruction, recovers the bits of its operands known\n",
    "at compile time (constants, {lo, hi} packing, or/and/shifts/bfe/bfi/cvt/prmt, sums and\n",
    "products up to the first bit a carry can reach, shared memory addresses below 2^18, shfl.sync),\n",
    "and applies every rule of this project: the instruction's qualifiers against the .target,\n",
    "the instruction descriptor (each constant a selp or predicated mov chooses, or the rules its\n",
    "known bits decide), the shared memory descriptors on their known bits, alloc column counts\n",
    "as written, zero-column masks, the Tensor Memory columns D and loads use against the kernel's\n",
    "allocations, alloc/dealloc pairing on every path (a leak, a second dealloc, an alloc after\n",
    "relinquish_alloc_permit; predicates read path by path, paths not decided counted), a stride\n",
    "byte offset of 0 on a K-major operand, and with --tensor-map the swizzle of the descriptors\n",
    "reading a buffer the map's cp.async.bulk.tensor fills; block-scaled MMAs against the\n",
    "tcgen05.cp that filled their scale factors.\n",

    "A rule that needs an unknown bit is never reported.\n\n",
    "By default `desc + stage * C` is read under rules.md R7 (an addition into a descriptor does\n",
    "not carry out of the start-address field); the summary counts the instructions that needed it,\n",
    "and --no-assume turns it off.\n\n",
    "Exit status: 0 no errors (warnings allowed); 1 errors; 2 an input that cannot be read\n",
    "(missing file, or not PTX: binary data, an ELF file).\n\n",
    "--json prints one object: {\"files\": [{\"path\", \"target\", \"instructions\": [{\"line\",\n",
    "\"instruction\", \"idesc\", \"a_desc\", \"b_desc\", \"errors\": [{\"rule\", \"operand\", \"field\",\n",
    "[\"candidate\",] \"message\", \"source\", \"line\"}], \"warnings\": [...]}], \"smem_descriptors\":\n",
    "{\"total\", \"known_but_start_address\", \"partly_unknown\", \"assumed_r7\"},\n",
    "\"alloc_pairing_undecided\", \"scale_operands_unlinked\"}], \"tensor_maps\": {\"linked\",\n",
    "\"unlinked\"} (null without --tensor-map), \"instructions\", \"errors\", \"warnings\"}.\n",
    "--sarif - writes the SARIF log to standard output instead.\n\n",
    "--hazards runs every kernel of each file with the interpreter of `tcgen05 run --hazards`:\n",
    "the block from --block, else the kernel's .reqntid, else its .maxntid (none: the kernel is\n",
    "not run, and a notice says so); the cluster from --cluster, else .reqnctapercluster; the\n",
    "grid from --grid, else one cluster; --shared, else all the shared memory a CTA may have when\n",
    "the file declares an .extern .shared array. A pointer parameter (.ptr; a 64-bit integer\n",
    "parameter of a kernel that marks none .ptr) gets a buffer of --buffer-bytes SplitMix64 bytes\n",
    "from --seed, an integer scalar 128 and a float scalar 1.0 unless --arg NAME=VALUE gives one.\n",
    "A kernel taking a tensor map or a struct by value, or whose run stops with an error, is\n",
    "reported as not checked, naming the parameter or the error. Findings print after the\n",
    "file's, in JSON as \"hazards\": [{\"kind\", \"line\", \"other_line\", \"thread\",\n",
    "\"other_thread\", \"address\", \"message\", \"source\", \"kernel\", \"cta\", \"seed\"}] and\n",
    "\"hazard_kernels\": [{\"kernel\", \"line\", \"checked\", ...}] per file and a top-level\n",
    "\"hazards\" count, in SARIF as results with rule ids hazard.KIND. --exhaustive walks every\n",
    "schedule of each kernel instead (at most --max-schedules; a walk cut there says NOT\n",
    "exhaustive) and prints a counterexample's token; --replay KERNEL=TOKEN runs that schedule.\n",
    "  tcgen05 check --hazards --arg dot_kernel_param_3=128 examples/kernels/triton_gemm_bf16.ptx"
);
