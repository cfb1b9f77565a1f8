//! The errors of reading, decoding and running a kernel: each names what stopped the run, the
//! PTX line where it is written, and the rule.

use std::fmt;

/// Why a module cannot be run, or why a run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// A statement the module reader does not model (a directive, a state space, a declaration
    /// form), refused before execution starts.
    Unsupported {
        /// 1-based line of the statement.
        line: u32,
        /// What is not modelled, as written (the opcode, the qualifier or the directive).
        what: String,
        /// Why, in a few words.
        why: &'static str,
    },
    /// A statement that is not valid PTX as the ISA defines it (an undeclared register, a label
    /// never defined, an operand of the wrong kind).
    Invalid {
        /// 1-based line of the statement.
        line: u32,
        /// The offending text, as written.
        what: String,
        /// The rule broken.
        why: &'static str,
    },
    /// No `.entry` of this name in the module.
    NoKernel {
        /// The name asked for.
        name: String,
        /// The kernels the module has.
        available: Vec<String>,
    },
    /// The launch arguments do not match the kernel's `.param` list.
    Argument {
        /// The parameter (its name in the PTX) or the argument position.
        param: String,
        /// What is wrong.
        why: String,
    },
    /// A launch configuration outside what the run models (PTX ISA 5.2.3 limits).
    Launch {
        /// The field (`grid`, `block`, `shared`).
        field: &'static str,
        /// The value as given.
        value: String,
        /// The rule.
        why: &'static str,
    },
    /// A memory access outside every buffer, or misaligned for its size (PTX ISA 6.4).
    Memory {
        /// 1-based line of the instruction.
        line: u32,
        /// The state space (`global`, `shared`, `param`).
        space: &'static str,
        /// The address.
        address: u64,
        /// The access size in bytes.
        size: u32,
        /// Why the access is refused.
        why: &'static str,
    },
    /// The run executed more warp-instructions than its limit.
    StepLimit {
        /// The limit.
        limit: u64,
    },
    /// A thread executed `trap` (PTX ISA 9.7.19.3): the kernel aborted.
    Trap {
        /// 1-based line of the `trap`.
        line: u32,
        /// The CTA, as (x, y, z).
        cta: [u32; 3],
        /// The first thread (linear index in its CTA) that executed it.
        thread: u32,
    },
    /// No warp of a CTA can make progress (all wait at barriers that cannot complete).
    NoProgress {
        /// The CTA, as (x, y, z).
        cta: [u32; 3],
        /// What the threads wait for.
        waiting: String,
    },
    /// Every live warp of a CTA is blocked (at a barrier that cannot complete, or polling an
    /// mbarrier phase that cannot complete) and no asynchronous operation is pending: the
    /// kernel can make no progress (a hang on the GPU).
    Deadlock {
        /// The CTA, as (x, y, z).
        cta: [u32; 3],
        /// Each blocked warp, with its line and what it waits for.
        warps: Vec<Blocked>,
    },
    /// A tensor map parameter that breaks a rule of `cuTensorMapEncodeTiled` (CUDA driver API
    /// 6.30), or one the interpreter does not model.
    TensorMap {
        /// The driver's parameter name (`boxDim[0]`, `swizzle`, ...).
        field: String,
        /// The value as given.
        value: String,
        /// The rule and its source.
        why: String,
    },
}

/// One warp blocked in a deadlock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// The warp's index in its CTA.
    pub warp: u32,
    /// The line it is blocked at.
    pub line: u32,
    /// What it waits for.
    pub waits_for: String,
    /// The mbarrier it polls (shared address), if that is what blocks it.
    pub mbar: Option<u32>,
    /// The warp's CTA, as (x, y, z).
    pub cta: [u32; 3],
    /// In a cluster of more than one CTA: the CTA's `%cluster_ctarank` and the cluster's
    /// `%clusterid`.
    pub cluster: Option<(u32, [u32; 3])>,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Unsupported { line, what, why } => {
                write!(
                    f,
                    "line {line}: `{what}` is not supported by tcgen05 run: {why}"
                )
            }
            RunError::Invalid { line, what, why } => write!(f, "line {line}: `{what}`: {why}"),
            RunError::NoKernel { name, available } => write!(
                f,
                "no .entry named `{name}` in the module (it has: {})",
                available.join(", ")
            ),
            RunError::Argument { param, why } => write!(f, "argument for `{param}`: {why}"),
            RunError::Launch { field, value, why } => write!(f, "--{field} {value}: {why}"),
            RunError::Memory {
                line,
                space,
                address,
                size,
                why,
            } => write!(
                f,
                "line {line}: {size}-byte {space} access at 0x{address:x}: {why} (PTX ISA 6.4)"
            ),
            RunError::StepLimit { limit } => {
                write!(f, "the run exceeded its limit of {limit} warp-instructions")
            }
            RunError::Trap { line, cta, thread } => write!(
                f,
                "line {line}: thread {thread} of CTA ({}, {}, {}) executed trap: the kernel aborted (PTX ISA 9.7.19.3)",
                cta[0], cta[1], cta[2]
            ),
            RunError::NoProgress { cta, waiting } => write!(
                f,
                "CTA ({}, {}, {}) makes no progress: {waiting}",
                cta[0], cta[1], cta[2]
            ),
            RunError::Deadlock { cta, warps } => {
                write!(
                    f,
                    "CTA ({}, {}, {}) deadlocks: every live warp is blocked and nothing asynchronous is pending",
                    cta[0], cta[1], cta[2]
                )?;
                for w in warps {
                    if let Some((rank, id)) = w.cluster {
                        write!(
                            f,
                            "; CTA rank {rank} (CTA ({}, {}, {}) of cluster ({}, {}, {}))",
                            w.cta[0], w.cta[1], w.cta[2], id[0], id[1], id[2]
                        )?;
                    }
                    write!(f, "; warp {} at line {}: {}", w.warp, w.line, w.waits_for)?;
                }
                Ok(())
            }
            RunError::TensorMap { field, value, why } => {
                write!(f, "tensor map {field} = {value}: {why}")
            }
        }
    }
}

impl std::error::Error for RunError {}

/// A shorthand for [`RunError::Unsupported`].
pub(crate) fn unsupported(line: u32, what: &str, why: &'static str) -> RunError {
    RunError::Unsupported {
        line,
        what: what.to_string(),
        why,
    }
}

/// A shorthand for [`RunError::Invalid`].
pub(crate) fn invalid(line: u32, what: &str, why: &'static str) -> RunError {
    RunError::Invalid {
        line,
        what: what.to_string(),
        why,
    }
}
