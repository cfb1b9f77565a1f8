//! `explain`: a ruling or rule, by the name a message prints.

use clap::Args;

/// Help after the options of `explain`.
pub const EXPLAIN_HELP: &str = concat!(
    "Every error and warning names its rule: a ruling of the project's rules document\n",
    "(`rules.md R10`, also E1-E11, D1-D6, T1-T2) or a PTX ISA section, and in JSON and check\n",
    "reports a rule identifier (`idesc.reserved_bit`). `explain NAME` prints the ruling with its\n",
    "evidence, or the rule with its source and statement; names are case-insensitive. Without a\n",
    "NAME, every ruling and every rule is listed. An unknown NAME exits 2 and names close ones.\n\n",
    "Examples:\n",
    "  tcgen05 explain R19\n",
    "  tcgen05 explain idesc.reserved_bit\n",
    "  tcgen05 explain --json ptx.ws_cta_group"
);

/// `explain [NAME]`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A ruling (`R10`, `E11`) or a rule identifier (`idesc.reserved_bit`); none lists them all.
    #[arg(value_name = "RULE")]
    pub rule: Option<String>,
}
