//! The descriptors: packed words an MMA reads (PTX ISA 9.7.16.4), and the `bit_layout!` tables
//! that describe them.
//!
//! Each module is reached by its flat path: [`crate::shared_memory_descriptor`] (Tables 40-41),
//! [`crate::instruction_descriptor`] (Tables 42-44), [`crate::zero_column_mask`] (Table 45) and
//! [`crate::bits`] (the `bit_layout!` rows every descriptor, and the Tensor Memory address, is
//! written as).

pub mod bits;
pub mod instruction_descriptor;
pub mod shared_memory_descriptor;
pub mod zero_column_mask;
