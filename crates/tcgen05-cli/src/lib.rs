//! The modules of the `tcgen05` command, as a library so that the fuzz targets (`fuzz/`) and the
//! stable corpus test can drive the command's own parsers and batch reader.
//!
//! Three layers, each using only those below it: [`commands`] (one module per subcommand; it
//! computes through the `tcgen05` crate) uses [`args`] (the command line and one parser per kind
//! of value) and [`render`] (text, JSON and SVG output); `args` and `render` use only the core
//! crate. `scripts/cli-imports.py` prints the import graph.
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

/// A JSON key with its punctuation, `,"name":`, for [`render::Obj`] (built at compile time).
macro_rules! key {
    ($name:literal) => {
        concat!(",\"", $name, "\":")
    };
}

pub mod args;
pub mod commands;
pub mod render;
