//! Reference encoder, decoder and validator for the descriptors and shapes of NVIDIA Blackwell's
//! fifth-generation tensor-core instructions (`tcgen05`, PTX ISA 9.7.16).
//!
//! A Blackwell MMA is driven by three packed bit-fields, and a wrong bit gives silently wrong
//! numbers rather than an error. This crate builds each one from intent, checks it against every
//! rule of the PTX ISA (and of the project's `rules.md` where the PTX text is silent or
//! contradicts itself), decodes raw values back into typed fields, and explains every violation:
//!
//! - [`shared_memory_descriptor`]: the 64-bit matrix descriptor (Tables 40-41).
//! - [`instruction_descriptor`]: the 32-bit instruction descriptor in its three layouts
//!   (Tables 42-44).
//! - [`zero_column_mask`]: the 64-bit zero-column mask descriptor of `.ws` MMAs (Table 45).
//! - [`shapes`]: the valid M, N, K of each kind (Table 39) and whole-MMA validation.
//! - [`tensor_memory`]: Tensor Memory addresses, allocation, and the data-movement shapes of
//!   `tcgen05.ld`, `.st`, `.cp` and `.shift`.
//! - [`tmem_fragment`] and [`data_path`]: who holds which Tensor Memory cell after
//!   `tcgen05.ld` / `.st` / `.cp`, and where an MMA keeps D, A and the scale factors
//!   (data-path layouts A-G).
//! - [`targets`]: which targets have which features.
//! - [`canonical_layout`]: which shared-memory byte an MMA reads for each operand element
//!   (the canonical layouts of PTX ISA 9.7.16.3.3), and the descriptors of a tile from intent.
//! - [`tensor_copy`]: whether an MMA reads exactly what a tensor copy (TMA) wrote.
//! - [`ptx`]: PTX text for every tcgen05 instruction form, validated before it is written.
//! - [`numerics`]: bit-accurate tensor-core arithmetic (what D an MMA returns), for every
//!   tcgen05 kind and every Hopper wgmma form.
//! - [`ptx_reader`] (feature `alloc`): the PTX reader: a module's functions and each
//!   instruction's opcode, qualifiers and typed operands, from any bytes, never panicking.
//! - [`check`] (feature `alloc`): finds every tcgen05 instruction of a PTX module, recovers the
//!   descriptor bits known at compile time (known-bits dataflow) and applies this crate's rules.
//!
//! The crate is `#![no_std]` without required dependencies; every constructor and encoder is a
//! `const fn`, so descriptors can be built and checked at compile time.
//!
//! Each descriptor's bit layout is written once, as a table ([`bits::BitField`] rows) that drives
//! encoding, decoding, validation, `Display` and the documentation.
//!
//! # Source layout: folders by concept, flat public paths
//!
//! The sources are grouped by concept, each folder a private module:
//!
//! | folder | concept | public modules it holds |
//! |---|---|---|
//! | `descriptor/` | the packed descriptor words | [`shared_memory_descriptor`], [`instruction_descriptor`], [`zero_column_mask`], [`bits`] |
//! | `mma/` | the MMA: kinds, types, `.cta_group`, [`ScaleVec`](mma::ScaleVec), Table 39 | [`mma`], [`shapes`] |
//! | `tmem/` | Tensor Memory | [`tensor_memory`], [`data_path`], [`tmem_fragment`] |
//! | `layout/` | shared memory layouts | [`canonical_layout`], [`tensor_copy`] |
//! | `ptx/` | PTX text, one file per instruction family | [`ptx`] |
//!
//! On top of them sit [`check`], [`emulator`] and [`numerics`]; `docs/ARCHITECTURE.md` draws the
//! layers. The folders are an implementation detail: the stable public paths are the flat ones
//! listed above (`tcgen05::tensor_memory::TmemAddress`, `tcgen05::ptx::Mma`, ...), re-exported
//! at the crate root whatever folder holds them.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(any(feature = "alloc", test))]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod bytes;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod check;
pub mod citation;
mod descriptor;
pub mod diagnostic;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod emulator;
mod layout;
pub mod mma;
pub mod numerics;
pub mod ptx;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod ptx_reader;
pub mod rules;
pub mod targets;
mod tmem;

// The stable public paths: each module keeps its flat name under the crate root, whatever
// concept folder holds it.
pub use descriptor::{bits, instruction_descriptor, shared_memory_descriptor, zero_column_mask};
#[cfg(feature = "alloc")]
pub use layout::scale_factor_chain;
pub use layout::{canonical_layout, scale_factors, tensor_copy};
pub use mma::shapes;
pub use tmem::{data_path, tensor_memory, tmem_fragment};

pub use diagnostic::{Diagnostic, Diagnostics, Severity, Source};
pub use mma::{CtaGroup, ElementType, IdescLayout, Kind, Major, MaxShift, ScaleType};
pub use targets::{Target, TargetError};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
