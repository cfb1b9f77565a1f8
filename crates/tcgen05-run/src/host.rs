//! The host side of a run: buffers and scalars as kernel arguments, matched against the
//! kernel's `.param` list, and the launch (like `cuLaunchKernel`).

use crate::error::RunError;
use crate::exec::{self, Limits, Shape, Stats};
use crate::memory::{Global, Region, BUFFER_BASE, BUFFER_STRIDE};
use crate::module::{Kernel, Module};
use crate::observe::Observer;
use crate::tensor_map::{TensorMap, TAG};

/// One kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A device buffer: the kernel receives its address (a 64-bit pointer); its bytes are read
    /// and written in place.
    Buffer(Vec<u8>),
    /// A null pointer (Triton's scratch parameters when the kernel uses none).
    Null,
    /// A scalar, as its little-endian bytes (its length must be the parameter's size).
    Scalar(Vec<u8>),
    /// A tensor map (a 128-byte `.param .align 64 .b8 [128]`, as `CUtensorMap` is passed by
    /// value) and the bytes of the tensor it describes (placed in global memory like a buffer;
    /// the kernel reaches them only through the map).
    TensorMap(TensorMap, Vec<u8>),
}

impl Arg {
    /// A 32-bit integer scalar.
    #[must_use]
    pub fn i32(v: i32) -> Arg {
        Arg::Scalar(v.to_le_bytes().to_vec())
    }

    /// A 32-bit float scalar.
    #[must_use]
    pub fn f32(v: f32) -> Arg {
        Arg::Scalar(v.to_le_bytes().to_vec())
    }

    /// A 64-bit integer scalar.
    #[must_use]
    pub fn i64(v: i64) -> Arg {
        Arg::Scalar(v.to_le_bytes().to_vec())
    }
}

/// A launch configuration: grid and block dimensions, cluster shape, dynamic shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Grid dimensions in CTAs.
    pub grid: [u32; 3],
    /// Block dimensions in threads.
    pub block: [u32; 3],
    /// Cluster dimensions in CTAs: 1 x 1 x 1 runs the kernel's `.reqnctapercluster` shape if
    /// it has one, else clusters of one CTA; any other shape is the launch's cluster
    /// attribute (each dimension divides the grid's, at most 16 CTAs).
    pub cluster: [u32; 3],
    /// Dynamic shared memory in bytes.
    pub shared: u32,
    /// Bounds of the run.
    pub limits: Limits,
}

/// The most shared memory a CTA may use on sm_90 (227 KiB; CUDA C++ Programming Guide,
/// compute capability 9.0 table).
pub const MAX_SHARED: u32 = 227 * 1024;

fn check_config(k: &Kernel, c: &Config) -> Result<(), RunError> {
    let dims = |v: [u32; 3]| format!("{},{},{}", v[0], v[1], v[2]);
    let threads = u64::from(c.block[0]) * u64::from(c.block[1]) * u64::from(c.block[2]);
    if c.block.contains(&0)
        || threads > 1024
        || c.block[0] > 1024
        || c.block[1] > 1024
        || c.block[2] > 64
    {
        return Err(RunError::Launch {
            field: "block",
            value: dims(c.block),
            why: "each dimension at least 1, at most 1024 x 1024 x 64 and 1024 threads in all (PTX ISA 5.2.3)",
        });
    }
    if c.grid.contains(&0) || c.grid[1] > 65535 || c.grid[2] > 65535 || c.grid[0] > i32::MAX as u32
    {
        return Err(RunError::Launch {
            field: "grid",
            value: dims(c.grid),
            why: "each dimension at least 1, at most 2^31-1 x 65535 x 65535",
        });
    }
    crate::cluster::check_launch(k, c)?;
    if u64::from(k.static_shared) + u64::from(c.shared) > u64::from(MAX_SHARED) {
        return Err(RunError::Launch {
            field: "shared",
            value: c.shared.to_string(),
            why: "static plus dynamic shared memory above 227 KiB per CTA (sm_90)",
        });
    }
    Ok(())
}

/// The parameter buffer and the tensor maps with their buffers' addresses.
type Bound = (Vec<u8>, Vec<(TensorMap, u64)>);

/// Lays the arguments out in the kernel's parameter buffer and places the buffers in global
/// memory.
fn bind(k: &Kernel, args: &[Arg], global: &mut Global) -> Result<Bound, RunError> {
    if args.len() != k.params.len() {
        return Err(RunError::Argument {
            param: k.name.clone(),
            why: format!(
                "{} arguments given, the kernel declares {} parameters ({})",
                args.len(),
                k.params.len(),
                k.params
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    let mut buf = vec![0u8; k.param_bytes as usize];
    let mut maps = Vec::new();
    for (p, a) in k.params.iter().zip(args) {
        crate::param_match::check(p, a)?;
        let bytes = match a {
            Arg::Buffer(b) => {
                if b.len() as u64 > BUFFER_STRIDE {
                    return Err(RunError::Argument {
                        param: p.name.clone(),
                        why: "a buffer of more than 4 GiB".into(),
                    });
                }
                let base = BUFFER_BASE + BUFFER_STRIDE * global.regions.len() as u64;
                global.regions.push(Region {
                    base,
                    bytes: b.clone(),
                });
                base.to_le_bytes().to_vec()
            }
            Arg::Null => 0u64.to_le_bytes().to_vec(),
            Arg::Scalar(s) => s.clone(),
            Arg::TensorMap(m, data) => {
                m.validate().map_err(|e| match e {
                    RunError::Argument { param, why } => RunError::Argument {
                        param: format!("{} ({param})", p.name),
                        why,
                    },
                    e => e,
                })?;
                let base = BUFFER_BASE + BUFFER_STRIDE * global.regions.len() as u64;
                global.regions.push(Region {
                    base,
                    bytes: data.clone(),
                });
                let mut b = vec![0u8; 128];
                b[..8].copy_from_slice(&TAG);
                b[8..16].copy_from_slice(&(maps.len() as u64).to_le_bytes());
                maps.push((m.clone(), base));
                b
            }
        };
        if bytes.len() != p.size as usize {
            return Err(RunError::Argument {
                param: p.name.clone(),
                why: format!(
                    "{} bytes given, the parameter is {} bytes (.{:?}){}",
                    bytes.len(),
                    p.size,
                    p.ty,
                    if matches!(a, Arg::Buffer(_) | Arg::Null) {
                        ": a buffer is passed as a 64-bit pointer"
                    } else {
                        ""
                    }
                ),
            });
        }
        let at = p.offset as usize;
        buf[at..at + bytes.len()].copy_from_slice(&bytes);
    }
    Ok((buf, maps))
}

/// Runs `kernel` of `module` over the grid. Buffers in `args` are updated in place.
///
/// # Errors
/// [`RunError::NoKernel`], [`RunError::Launch`] and [`RunError::Argument`] before the run;
/// [`RunError::Memory`], [`RunError::StepLimit`], [`RunError::Deadlock`] and
/// [`RunError::Unsupported`] (a rounding not modelled) during it.
pub fn launch(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
) -> Result<Stats, RunError> {
    launch_with(module, kernel, config, args, Hooks::default())
}

/// What a run reports to and how it schedules: an observer of every access and event (see
/// [`crate::observe`]) and a schedule seed (`None`: the default schedule, asynchronous
/// operations completing as late as allowed).
#[derive(Default)]
pub struct Hooks<'h> {
    /// The observer, if any.
    pub observer: Option<&'h mut dyn Observer>,
    /// The schedule's seed.
    pub seed: Option<u64>,
    /// An explored schedule: its forced choices in, the choices made out (takes precedence
    /// over `seed`; [`crate::hazard::explore()`]).
    pub choices: Option<&'h mut crate::schedule::Choices>,
    /// The approximate instructions to compute as correctly rounded (none by default: the run
    /// refuses them; [`crate::approx`]).
    pub approx: crate::approx::Approx,
}

impl std::fmt::Debug for Hooks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hooks")
            .field("observer", &self.observer.is_some())
            .field("seed", &self.seed)
            .field("choices", &self.choices)
            .field("approx", &self.approx)
            .finish()
    }
}

/// [`launch`] with an observer and a schedule.
///
/// # Errors
/// As [`launch`]; also [`RunError::Deadlock`].
pub fn launch_with(
    module: &Module,
    kernel: &str,
    config: &Config,
    args: &mut [Arg],
    hooks: Hooks<'_>,
) -> Result<Stats, RunError> {
    let k = module.kernel(kernel)?;
    check_config(k, config)?;
    let mut global = Global::default();
    for g in &module.globals {
        global.regions.push(Region {
            base: g.address,
            bytes: g.bytes.clone(),
        });
    }
    let first_buffer = global.regions.len();
    let (params, maps) = bind(k, args, &mut global)?;
    let (cluster, explicit_cluster) = crate::cluster::launch_shape(k, config);
    let shape = Shape {
        grid: config.grid,
        block: config.block,
        cluster,
        explicit_cluster,
    };
    let stats = exec::run(
        k,
        shape,
        &params,
        config.shared,
        &mut global,
        &maps,
        config.limits,
        hooks,
    )?;
    // Regions were placed in argument order, one per buffer and per tensor map.
    let mut regions = global.regions.into_iter().skip(first_buffer);
    for a in args.iter_mut() {
        match a {
            Arg::Buffer(b) | Arg::TensorMap(_, b) => {
                if let Some(r) = regions.next() {
                    *b = r.bytes;
                }
            }
            Arg::Null | Arg::Scalar(_) => {}
        }
    }
    Ok(stats)
}
