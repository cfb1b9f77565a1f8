//! What each subcommand does: it reads its arguments ([`crate::args`]), computes through the
//! `tcgen05` crate and hands the result to [`crate::render`]. One module per subcommand (the
//! three descriptors each have one for `decode`, `encode` and `solve`), [`batch`] for the
//! one-value-per-line mode of the decoders, [`problem`] for what the command finds itself.

pub mod batch;
pub mod check;
pub mod check_hazards;
pub mod command_line;
mod dispatch;
pub mod emulate;
pub mod explain;
mod hazard_render;
pub mod idesc;
pub mod layout;
pub mod layout_sf;
pub mod npy_file;
pub mod numerics;
pub mod problem;
pub mod ptx;
pub mod run;
pub mod run_approx;
pub mod run_cost;
pub mod run_explore;
pub mod run_hazards;
pub mod run_tensor_map;
pub mod shapes;
pub mod smem;
pub mod target;
pub mod tmem;
pub mod zmask;

pub use dispatch::{run, Failure};
