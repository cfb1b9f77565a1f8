//! Arguments of `check`.

use clap::Args;

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
    /// Do not read `desc + stage * C` under decisions R7 (an addition into a shared memory
    /// descriptor does not carry out of the start-address field): leave such descriptors'
    /// fields unknown.
    #[arg(long)]
    pub no_assume: bool,
}

pub const CHECK_HELP: &str = concat!(
    "Examples:\n",
    "  tcgen05 check kernel.ptx\n",
    "  tcgen05 check --json --sarif findings.sarif ~/.triton/cache/*/*.ptx\n",
    "  cuobjdump -ptx app | tcgen05 check -\n\n",
    "Reads each PTX file, finds every tcgen05 instruction, recovers the bits of its descriptors\n",
    "that are known at compile time (constants, {lo, hi} packing, or/and/shifts/bfe/bfi/cvt/prmt),\n",
    "and applies every rule of this project: the instruction's qualifiers against the .target,\n",
    "the instruction descriptor when fully known (Table 39, Tables 42-44, decisions.md), the\n",
    "shared memory descriptors on their known bits only, alloc column counts, zero-column masks.\n",
    "A rule that needs an unknown bit is never reported.\n\n",
    "Exit status: 0 no errors (warnings allowed); 1 errors; 2 an input that cannot be read\n",
    "(missing file, or nothing in it is PTX).\n\n",
    "--json prints one object: {\"files\": [{\"path\", \"target\", \"instructions\": [{\"line\",\n",
    "\"instruction\", \"idesc\", \"a_desc\", \"b_desc\", \"errors\": [{\"field\", \"message\", \"source\",\n",
    "\"line\"}], \"warnings\": [...]}]}], \"instructions\", \"errors\", \"warnings\"}."
);
