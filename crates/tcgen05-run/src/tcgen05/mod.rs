//! `tcgen05.*` in a run (PTX ISA 9.7.16): the typed forms ([`op`]), their decoding, each CTA's
//! Tensor Memory, and execution through the core's functional model (the MMA's stages and the
//! `tcgen05.ld` / `.st` fragment maps).

mod decode;
mod exec;
pub mod ld_red;
pub mod op;
mod pair;
pub(crate) mod target;
mod tensor_memory;
mod trace;

pub(crate) use decode::decode;
pub(crate) use exec::{Did, Regs, Tcgen05State};
pub(crate) use pair::{
    finish as pair_finish, needs_pair, same_group, step as pair_step, unjoined as pair_unjoined,
    Place as PairPlace, Side,
};
pub(crate) use trace::{Performed, ID_BASE};
