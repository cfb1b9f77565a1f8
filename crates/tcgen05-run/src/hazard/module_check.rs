//! Every kernel (`.entry`) of a module run under the hazard checker on seeded random inputs,
//! with a launch configuration read from the kernel's header or given by the caller (issue 25,
//! `tcgen05 check --hazards`).
//!
//! - Block: the caller's, else `.reqntid`, else `.maxntid` (PTX ISA, performance-tuning
//!   directives); a caller's block that breaks either directive is refused, as the driver
//!   refuses the launch. No block at all: the kernel is not run, and a [`Notice`] says so.
//! - Cluster: the caller's, else `.reqnctapercluster` (else clusters of one CTA); more CTAs
//!   than `.maxclusterrank` is refused. Grid: the caller's, else one cluster.
//! - Dynamic shared memory: the caller's, else, when the module declares an `.extern .shared`
//!   array, all a CTA may have besides its static shared memory (227 KiB in all: the file does
//!   not say how much the host gives), else none.
//! - Parameters: a pointer (`.ptr`; a 64-bit integer parameter of a kernel that marks none of
//!   its parameters `.ptr`, as C++ compilers write pointers) gets a fresh buffer of
//!   `buffer_bytes` SplitMix64 bytes; an integer scalar [`DEFAULT_INT`] and a float scalar
//!   [`DEFAULT_FLOAT`], unless the caller gives a value by the parameter's name or position.
//!   A tensor map (`.param .align 64 .b8 [128]`) or another by-value array (a struct) cannot be
//!   made from the file: the kernel is not run, and a [`Notice`] names the parameter.

use crate::error::RunError;
use crate::exec::Limits;
use crate::hazard::{check, walk, Options, Report, Walk, Walked};
use crate::host::{Arg, Config, MAX_SHARED};
use crate::module::{Kernel, Module, Param};
use crate::op::Ty;
use crate::param_match::{float_arg, int_arg};

/// Bytes of each buffer argument unless the caller says otherwise (1 MiB).
pub const DEFAULT_BUFFER_BYTES: usize = 1 << 20;

/// The value of an integer scalar parameter the caller gives none for: the tile size of the
/// Blackwell corpus kernels, so that a kernel of one tile runs its loops (a size of 0 would
/// skip them).
pub const DEFAULT_INT: i128 = 128;

/// The value of a float scalar parameter the caller gives none for.
pub const DEFAULT_FLOAT: f64 = 1.0;

/// A scalar value given by the caller, typed by the parameter it is passed to
/// ([`crate::param_match`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// An integer (0 for a pointer is the null pointer).
    Int(i128),
    /// A float (for `.f32`/`.f64` parameters).
    Float(f64),
}

/// How to launch the kernels of a module. `None` fields are read from each kernel's header.
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleOptions {
    /// Grid dimensions (default: one cluster).
    pub grid: Option<[u32; 3]>,
    /// Block dimensions (default: `.reqntid`, else `.maxntid`).
    pub block: Option<[u32; 3]>,
    /// Cluster dimensions (default: `.reqnctapercluster`, else 1 x 1 x 1).
    pub cluster: Option<[u32; 3]>,
    /// Dynamic shared memory in bytes (default: see the module's documentation).
    pub shared: Option<u32>,
    /// Bytes of each buffer argument.
    pub buffer_bytes: usize,
    /// The seed of the buffers' random bytes.
    pub seed: u64,
    /// Seeded schedules run after the default one ([`Options::schedules`]).
    pub schedules: u32,
    /// Scalar values by parameter name or position (`"3"`), for every kernel that has it.
    pub scalars: Vec<(String, Scalar)>,
    /// Bounds of each run.
    pub limits: Limits,
    /// Walk every schedule at the choice points instead (at most this many schedules per
    /// kernel; [`crate::hazard::explore()`]); `schedules` is then not used.
    pub exhaustive: Option<u32>,
    /// Replay tokens by kernel name ([`crate::hazard::replay()`]): that kernel runs only the
    /// token's schedule.
    pub replay: Vec<(String, String)>,
}

impl Default for ModuleOptions {
    fn default() -> Self {
        ModuleOptions {
            grid: None,
            block: None,
            cluster: None,
            shared: None,
            buffer_bytes: DEFAULT_BUFFER_BYTES,
            seed: 0,
            schedules: 0,
            scalars: Vec::new(),
            limits: Limits::default(),
            exhaustive: None,
            replay: Vec::new(),
        }
    }
}

/// Why a kernel was not checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// A tensor-map parameter: the file does not say what tensor it describes.
    TensorMap,
    /// A by-value array parameter (a struct): the file does not give its fields.
    ByValue,
    /// A scalar parameter of a type no value is made for (`.f16`, `.bf16`, `.pred`).
    ScalarType,
    /// No block size: no `.reqntid`, no `.maxntid`, none given.
    LaunchSize,
    /// A launch configuration the kernel's directives or CUDA's launch rules refuse.
    Launch,
    /// The run stopped with an error (an instruction not modelled, an access outside the
    /// buffers, the step limit, a `trap`, ...).
    Run,
}

impl NoticeKind {
    /// The kind's name in text and JSON output.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            NoticeKind::TensorMap => "tensor-map-parameter",
            NoticeKind::ByValue => "by-value-parameter",
            NoticeKind::ScalarType => "scalar-type",
            NoticeKind::LaunchSize => "no-launch-size",
            NoticeKind::Launch => "launch-refused",
            NoticeKind::Run => "run-error",
        }
    }
}

/// Why one kernel was not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Its kind.
    pub kind: NoticeKind,
    /// The missing or refused piece: a parameter's name, `block`, `cluster`, or the error's
    /// subject.
    pub what: String,
    /// What to give, or what stopped the run.
    pub message: String,
    /// The line: the `.entry`'s, or the instruction's where the run stopped.
    pub line: u32,
    /// The run's error, for [`NoticeKind::Run`] and [`NoticeKind::Launch`].
    pub error: Option<Box<RunError>>,
}

/// One parameter as launched: its name and what it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// The parameter's name.
    pub param: String,
    /// `buffer of N bytes`, `null`, or the scalar value.
    pub value: String,
}

/// The launch a kernel was checked with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The configuration.
    pub config: Config,
    /// Each parameter and its argument.
    pub args: Vec<Given>,
}

/// One kernel's check.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryReport {
    /// The kernel's name.
    pub kernel: String,
    /// The line of its `.entry`.
    pub line: u32,
    /// The launch, when its configuration and arguments could be made.
    pub launch: Option<Launch>,
    /// The hazard report, or why there is none (every missing or refused piece).
    pub result: Result<Report, Vec<Notice>>,
    /// With [`ModuleOptions::exhaustive`] or a replay token: the walk (its counterexample's
    /// findings are `result`'s).
    pub walked: Option<Walked>,
}

/// Runs every kernel of `module` under [`check`] (see the module's documentation for the
/// launch each gets). A kernel that cannot be launched, or whose run stops with an error, gets
/// a [`Notice`]; the others a [`Report`].
///
/// # Errors
/// [`RunError::Argument`] for a scalar named by a name or position no kernel has.
pub fn check_module(
    module: &Module,
    options: &ModuleOptions,
) -> Result<Vec<EntryReport>, RunError> {
    for (name, _) in &options.scalars {
        if !module
            .kernels
            .iter()
            .any(|k| param_index(&k.params, name).is_some())
        {
            let kernels: Vec<String> = module
                .kernels
                .iter()
                .map(|k| {
                    let ps: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
                    format!("{}({})", k.name, ps.join(", "))
                })
                .collect();
            return Err(RunError::Argument {
                param: name.clone(),
                why: format!(
                    "no kernel of the module has a parameter of this name or position (the kernels: {})",
                    kernels.join("; ")
                ),
            });
        }
    }
    if let Some((name, _)) = options
        .replay
        .iter()
        .find(|(name, _)| !module.kernels.iter().any(|k| &k.name == name))
    {
        return Err(RunError::Argument {
            param: "--replay".into(),
            why: format!("`{name}`: the module has no kernel of this name"),
        });
    }
    Ok(module
        .kernels
        .iter()
        .map(|k| check_entry(module, k, options))
        .collect())
}

fn check_entry(module: &Module, k: &Kernel, options: &ModuleOptions) -> EntryReport {
    let mut entry = EntryReport {
        kernel: k.name.clone(),
        line: k.line,
        launch: None,
        result: Err(Vec::new()),
        walked: None,
    };
    let (config, (mut args, given)) = match (config(k, options), arguments(k, options)) {
        (Ok(c), Ok(a)) => (c, a),
        (c, a) => {
            let mut notices: Vec<Notice> = c.err().into_iter().collect();
            notices.extend(a.err().into_iter().flatten());
            entry.result = Err(notices);
            return entry;
        }
    };
    entry.launch = Some(Launch {
        config,
        args: given,
    });
    let how = options
        .replay
        .iter()
        .find(|(name, _)| *name == k.name)
        .map(|(_, token)| Walk::Replay(token.clone()))
        .or(options.exhaustive.map(Walk::Exhaustive));
    if let Some(how) = how {
        match walk(module, &k.name, &config, &mut args, &how) {
            Ok(w) => {
                entry.result = Ok(w.report());
                entry.walked = Some(w);
            }
            Err(e) => entry.result = Err(vec![run_notice(k, e)]),
        }
        return entry;
    }
    let hazard_options = Options {
        schedules: options.schedules,
    };
    entry.result = check(module, &k.name, &config, &mut args, &hazard_options)
        .map_err(|e| vec![run_notice(k, e)]);
    entry
}

/// The notice of a run that stopped with `e`.
fn run_notice(k: &Kernel, e: RunError) -> Notice {
    let (kind, what, line) = match &e {
        RunError::Unsupported { line, what, .. } | RunError::Invalid { line, what, .. } => {
            // The opcode or directive (a message follows a colon).
            let subject = what.split(':').next().unwrap_or(what).trim();
            (NoticeKind::Run, subject.to_string(), *line)
        }
        RunError::Memory { line, space, .. } => (NoticeKind::Run, format!("{space} memory"), *line),
        RunError::Trap { line, .. } => (NoticeKind::Run, "trap".into(), *line),
        RunError::Launch { field, .. } => (NoticeKind::Launch, (*field).to_string(), k.line),
        RunError::Argument { param, .. } => (NoticeKind::Launch, param.clone(), k.line),
        RunError::StepLimit { .. } => (NoticeKind::Run, "step limit".into(), k.line),
        _ => (NoticeKind::Run, "run".into(), k.line),
    };
    Notice {
        kind,
        what,
        message: e.to_string(),
        line,
        error: Some(Box::new(e)),
    }
}

/// The parameter a scalar names: its PTX name or its position.
fn param_index(params: &[Param], name: &str) -> Option<usize> {
    params
        .iter()
        .position(|p| p.name == name)
        .or_else(|| name.parse::<usize>().ok().filter(|&i| i < params.len()))
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): the next state and output.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `n` random bytes for parameter `index`: SplitMix64 from `seed` and the position.
fn random_bytes(seed: u64, index: usize, n: usize) -> Vec<u8> {
    let mut state = seed ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        out.extend_from_slice(&splitmix(&mut state).to_le_bytes());
    }
    out.truncate(n);
    out
}

/// A notice about parameter `p` of `k`.
fn param_notice(k: &Kernel, p: &Param, kind: NoticeKind, message: String) -> Notice {
    Notice {
        kind,
        what: p.name.clone(),
        message,
        line: k.line,
        error: None,
    }
}

/// The arguments of every parameter of `k`, and what each was given; else a notice for each
/// parameter that cannot be given one.
fn arguments(k: &Kernel, o: &ModuleOptions) -> Result<(Vec<Arg>, Vec<Given>), Vec<Notice>> {
    let mut args = Vec::with_capacity(k.params.len());
    let mut given = Vec::with_capacity(k.params.len());
    let mut notices = Vec::new();
    for i in 0..k.params.len() {
        match argument(k, o, i) {
            Ok((a, g)) => {
                args.push(a);
                given.push(g);
            }
            Err(n) => notices.push(n),
        }
    }
    if notices.is_empty() {
        Ok((args, given))
    } else {
        Err(notices)
    }
}

/// The argument of parameter `i` of `k`, and what it was given.
fn argument(k: &Kernel, o: &ModuleOptions, i: usize) -> Result<(Arg, Given), Notice> {
    let marks_pointers = k.params.iter().any(|p| p.pointer);
    let p = &k.params[i];
    let user = o
        .scalars
        .iter()
        .rev()
        .find(|(n, _)| param_index(&k.params, n) == Some(i))
        .map(|(_, v)| *v);
    let array = p.size > p.ty.bytes();
    let arg = match (user, p.ty) {
        (Some(Scalar::Int(v)), _) => int_arg(p, v),
        (Some(Scalar::Float(v)), _) => float_arg(p, v),
        (None, _) if array && p.size == 128 && p.align >= 64 => {
            return Err(param_notice(
                    k,
                    p,
                    NoticeKind::TensorMap,
                    format!(
                        "parameter `{}` is a tensor map (`.param .align {} .b8 {}[128]`, a CUtensorMap): the file does not say which tensor it describes; run the kernel with `tcgen05 run --arg {}=tensormap:...`",
                        p.name, p.align, p.name, p.name
                    ),
                ));
        }
        (None, _) if array => {
            return Err(param_notice(
                    k,
                    p,
                    NoticeKind::ByValue,
                    format!(
                        "parameter `{}` is a by-value array of {} bytes (a struct): the file does not give its fields; run the kernel with `tcgen05 run` and its bytes",
                        p.name, p.size
                    ),
                ));
        }
        (None, Ty::U(64) | Ty::S(64) | Ty::B(64)) if p.pointer || !marks_pointers => {
            Ok(Arg::Buffer(random_bytes(o.seed, i, o.buffer_bytes)))
        }
        (None, Ty::U(_) | Ty::S(_) | Ty::B(_)) => int_arg(p, DEFAULT_INT),
        (None, Ty::F32 | Ty::F64) => float_arg(p, DEFAULT_FLOAT),
        (None, _) => {
            return Err(param_notice(
                    k,
                    p,
                    NoticeKind::ScalarType,
                    format!(
                        "parameter `{}` is a .{} scalar, for which no value is made: give one with --arg {}=VALUE",
                        p.name,
                        format!("{:?}", p.ty).to_lowercase(),
                        p.name
                    ),
                ));
        }
    };
    let arg = arg.map_err(|e| run_notice(k, e))?;
    let given = Given {
        param: p.name.clone(),
        value: match (&arg, user) {
            (Arg::Buffer(b), _) => format!("buffer of {} bytes", b.len()),
            (Arg::Null, _) => "null".into(),
            (_, Some(Scalar::Int(v))) => v.to_string(),
            (_, Some(Scalar::Float(v))) => v.to_string(),
            (_, None) if p.ty.float() => DEFAULT_FLOAT.to_string(),
            (_, None) => DEFAULT_INT.to_string(),
        },
    };
    Ok((arg, given))
}

/// A notice refusing a launch field.
fn launch_notice(k: &Kernel, kind: NoticeKind, what: &str, message: String) -> Notice {
    Notice {
        kind,
        what: what.into(),
        message,
        line: k.line,
        error: None,
    }
}

fn dims(d: [u32; 3]) -> String {
    format!("{},{},{}", d[0], d[1], d[2])
}

fn product(d: [u32; 3]) -> u64 {
    d.iter().map(|&x| u64::from(x)).product()
}

/// The launch configuration of `k` (see the module's documentation).
fn config(k: &Kernel, o: &ModuleOptions) -> Result<Config, Notice> {
    let d = k.directives;
    let block = match (o.block, d.reqntid, d.maxntid) {
        (Some(b), Some(r), _) if b != r => {
            return Err(launch_notice(
                k,
                NoticeKind::Launch,
                "block",
                format!(
                    "--block {} differs from the kernel's .reqntid {} (PTX ISA, performance-tuning directives: the launch must have exactly this block)",
                    dims(b),
                    dims(r)
                ),
            ));
        }
        (Some(b), _, Some(m)) if product(b) > product(m) => {
            return Err(launch_notice(
                k,
                NoticeKind::Launch,
                "block",
                format!(
                    "--block {} has more threads than the kernel's .maxntid {} allows (PTX ISA, performance-tuning directives)",
                    dims(b),
                    dims(m)
                ),
            ));
        }
        (Some(b), _, _) | (None, Some(b), _) | (None, None, Some(b)) => b,
        (None, None, None) => {
            return Err(launch_notice(
                k,
                NoticeKind::LaunchSize,
                "block",
                "no launch size: the kernel declares neither .reqntid nor .maxntid; give --block X[,Y,Z]".into(),
            ));
        }
    };
    let cluster = o.cluster.unwrap_or([1, 1, 1]);
    let shape = if cluster == [1, 1, 1] {
        k.cluster.unwrap_or(cluster)
    } else {
        cluster
    };
    if let Some(rank) = d.maxclusterrank {
        if product(shape) > u64::from(rank) {
            return Err(launch_notice(
                k,
                NoticeKind::Launch,
                "cluster",
                format!(
                    "a cluster of {} CTAs ({}) is more than the kernel's .maxclusterrank {rank} (PTX ISA, cluster dimension directives)",
                    product(shape),
                    dims(shape)
                ),
            ));
        }
    }
    let shared = o.shared.unwrap_or(if k.dynamic_shared {
        MAX_SHARED.saturating_sub(k.static_shared)
    } else {
        0
    });
    Ok(Config {
        grid: o.grid.unwrap_or(shape),
        block,
        cluster,
        shared,
        limits: o.limits,
    })
}
