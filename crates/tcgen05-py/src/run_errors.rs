//! The exceptions of `tcgen05.run` (a `RunError` base class and one subclass per kind of the
//! interpreter's `tcgen05_run::RunError`), apart from `run.rs` so that their Python names can be
//! the interpreter's.

use pyo3::exceptions::PyException;

pyo3::create_exception!(
    tcgen05,
    RunError,
    PyException,
    "A kernel could not be run, or its run stopped: `kind` names the interpreter's error, and \
     its fields (`line`, `what`, `why`, `param`, `field`, `value`, ...) are attributes."
);
pyo3::create_exception!(
    tcgen05,
    UnsupportedError,
    RunError,
    "An instruction, qualifier, directive or state space the interpreter does not model (`line`, `what`, `why`)."
);
pyo3::create_exception!(
    tcgen05,
    InvalidPtxError,
    RunError,
    "A statement that is not valid PTX (`line`, `what`, `why`)."
);
pyo3::create_exception!(
    tcgen05,
    NoKernelError,
    RunError,
    "No `.entry` of that name (`name`, `available`)."
);
pyo3::create_exception!(
    tcgen05,
    ArgumentError,
    RunError,
    "The arguments do not match the kernel's `.param` list (`param`, `why`)."
);
pyo3::create_exception!(
    tcgen05,
    LaunchError,
    RunError,
    "A launch configuration outside the limits (`field`, `value`, `why`)."
);
pyo3::create_exception!(
    tcgen05,
    MemoryAccessError,
    RunError,
    "An access outside every buffer or misaligned (`line`, `space`, `address`, `size`, `why`)."
);
pyo3::create_exception!(
    tcgen05,
    StepLimitError,
    RunError,
    "The run exceeded its limit of warp-instructions (`limit`)."
);
pyo3::create_exception!(
    tcgen05,
    NoProgressError,
    RunError,
    "No warp of a CTA can make progress (`cta`, `waiting`)."
);
pyo3::create_exception!(
    tcgen05,
    TensorMapError,
    RunError,
    "Tensor map parameters that break cuTensorMapEncodeTiled's rules (CUDA driver API 6.30) or \
     that the interpreter does not model; `problems` lists every one as (field, value, why)."
);
