//! The descriptors: packed words an MMA reads (PTX ISA 9.7.16.4).
//!
//! For now this folder holds the zero-column mask descriptor (Table 45), reached as
//! [`crate::zero_column_mask`]; the shared memory and instruction descriptors and their
//! `bit_layout!` machinery join it next.

pub mod zero_column_mask;
