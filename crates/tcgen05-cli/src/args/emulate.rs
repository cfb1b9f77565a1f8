//! Arguments of `emulate`.

use clap::Args;

use super::number::{arg_u32, arg_u64};
use super::value::{parse_target, TargetArg};

/// `tcgen05 emulate`.
#[derive(Debug, Args)]
pub struct EmulateArgs {
    /// Execute this PTX instruction line (repeatable; run in order, after --program).
    #[arg(long = "exec", value_name = "LINE")]
    pub exec: Vec<String>,
    /// Execute the tcgen05 instructions of this PTX file (a whole module as compilers and
    /// `tcgen05 ptx kernel` write it: directives, declarations and labels are read and skipped,
    /// other instructions are not executed; one statement per line; `// @warp N` sets the warp
    /// that issues the following ld/st).
    #[arg(long, value_name = "FILE")]
    pub program: Option<String>,
    /// The value of a register or variable the program reads (repeatable): `%r1=0x10`,
    /// `taddr=0`, `%p1=1`. The emulator executes tcgen05 instructions only; every other value a
    /// tcgen05 instruction reads is given here or proven by `tcgen05 check`'s known-bits
    /// analysis (a descriptor operand of tcgen05.mma with every bit known), else it is an error
    /// naming the register.
    #[arg(long = "reg", value_name = "NAME=VALUE")]
    pub reg: Vec<String>,
    /// Load shared memory of CTA 0 from a file (raw bytes, or the data of a little-endian
    /// C-order `.npy`) at a byte address: `FILE@ADDR` (repeatable). `FILE@ADDR@1` loads the
    /// peer CTA's. A `.npy` that an MMA reads as A or B must hold its element type: the codes
    /// as unsigned integers of the element's size (or void, as ml_dtypes saves), float16 for
    /// f16, float32 for tf32; any other dtype is an error naming both.
    #[arg(long, value_name = "FILE@ADDR")]
    pub smem: Vec<String>,
    /// A as a 2-D `.npy` of element codes, M x K (the dtype as --smem requires), written
    /// where the first tcgen05.mma's A descriptor reads it (its swizzle, offsets and
    /// major-ness; with .cta_group::2 each CTA gets its rows).
    #[arg(long = "a", value_name = "FILE.npy")]
    pub a_matrix: Option<String>,
    /// B as a 2-D `.npy` of element codes, N x K (row j is column j of B), written where the
    /// first tcgen05.mma's B descriptor reads it.
    #[arg(long = "b", value_name = "FILE.npy")]
    pub b_matrix: Option<String>,
    /// Load Tensor Memory of CTA 0 from a 2-D `.npy` of 32-bit values (lanes x columns) at
    /// `FILE@LANE,COL` (repeatable). `FILE@LANE,COL@1` loads the peer CTA's.
    #[arg(long, value_name = "FILE@LANE,COL")]
    pub tmem: Vec<String>,
    /// Fill every operand the program reads that was never written with random finite values
    /// of the type it is read as, from this seed.
    #[arg(long, value_name = "SEED", value_parser = arg_u64)]
    pub random_inputs: Option<u64>,
    /// Write D of the last MMA as an M x N row-major `.npy` in its element type (f32, f16, s32).
    #[arg(long, value_name = "FILE.npy")]
    pub dump_d: Option<String>,
    /// Write CTA 0's Tensor Memory as a 128 x 512 `.npy` of u32 (never-written cells 0);
    /// `FILE.npy@1` writes the peer CTA's (repeatable).
    #[arg(long, value_name = "FILE.npy")]
    pub dump_tmem: Vec<String>,
    /// Write the registers tcgen05.ld left (both CTAs, every warp) as one JSON object:
    /// {"ctas": [{"cta", "warps": [{"warp", "registers": {NAME: [32 values, null where never
    /// written]}}]}]}.
    #[arg(long, value_name = "FILE.json")]
    pub dump_regs: Option<String>,
    /// Also compute D exactly from the operands the last MMA read and report the largest
    /// error of D in units in the last place.
    #[arg(long)]
    pub reference: bool,
    /// The target whose rules apply.
    #[arg(long, value_name = "T", value_parser = parse_target)]
    pub target: Option<TargetArg>,
    /// The warp that issues tcgen05.ld / .st (its lane quadrant is warp % 4).
    #[arg(long, value_name = "W", value_parser = arg_u32, default_value = "0")]
    pub warp: u32,
    /// Check every Tensor Memory access against tcgen05.alloc even when the program does not
    /// allocate (then nothing is allocated and every access is refused).
    #[arg(long)]
    pub require_alloc: bool,
}

pub const EMULATE_HELP: &str = concat!(
    "Examples:\n",
    "  tcgen05 emulate --random-inputs 1 --reference \\\n",
    "    --exec 'tcgen05.mma.cta_group::1.kind::f16 [0], 0x0000401000080000, 0x0000401000080100, 0x08100490, 0;'\n",
    "  tcgen05 emulate --smem a.bin@0 --smem b.npy@0x1000 --program kloop.ptx --dump-d d.npy --json\n\n",
    "Runs each line on a functional model of a CTA pair (228 KiB shared memory and 128 x 512\n",
    "Tensor Memory each): the line's form is checked with the rules of `tcgen05 check`, operands\n",
    "are read through the descriptors (swizzle, base offset, LBO mode) and the data-path layouts,\n",
    "and D is computed with the measured tensor-core arithmetic of `tcgen05 numerics`. Reads of\n",
    "memory never written are errors unless --random-inputs is given. Operands are immediates\n",
    "(descriptors as hex, Tensor Memory addresses as [lane << 16 | column]) or registers whose\n",
    "value --reg gives or the checker proves; a program may be a whole PTX module, of which\n",
    "only the tcgen05 instructions run, all with one .cta_group (PTX ISA 9.7.16).\n",
    "Timing, asynchrony and memory ordering are outside a functional model: commit, fence and\n",
    "wait are checked and do nothing.\n\n",
    "Exit status: 0 every line ran; 1 a line broke a rule (nothing after it runs); 2 an input\n",
    "file cannot be read.\n\n",
    "--json prints one object: {\"lines\": [{\"line\", \"instruction\", \"effect\", \"warnings\"}],\n",
    "\"errors\": [{\"line\", \"rule\", \"field\", \"value\", \"message\", \"source\"}], \"not_executed\",\n",
    "\"d\": {\"m\", \"n\",\n",
    "\"type\", \"layout\"}, \"reference\": {\"max_ulps\", \"at\", \"compared\", \"not_finite\"}}."
);
