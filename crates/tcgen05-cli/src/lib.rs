//! The modules of the `tcgen05` command, as a library so that the fuzz targets (`fuzz/`) and the
//! stable corpus test can drive the command's own parsers and batch reader.
//!
//! Not a public API: the command is the interface, and these modules change with it.
#![doc(hidden)]
// Internal modules of a binary, exposed only to the fuzz targets: their items are documented
// where they are read, not as an API.
#![allow(
    missing_docs,
    missing_debug_implementations,
    clippy::new_without_default,
    clippy::must_use_candidate,
    clippy::missing_errors_doc
)]

/// A JSON key with its punctuation, `,"name":`, for [`out::Obj`] (built at compile time).
macro_rules! key {
    ($name:literal) => {
        concat!(",\"", $name, "\":")
    };
}

pub mod args;
pub mod batch;
pub mod check;
pub mod cli;
pub mod emulate;
pub mod flags;
pub mod idesc;
pub mod layout;
pub mod number;
pub mod numerics;
pub mod out;
pub mod problem;
pub mod ptx;
pub mod shapes;
pub mod smem;
pub mod tmem;
pub mod zmask;
