//! Shared memory layouts: which byte an MMA reads for each operand element (the canonical
//! layouts of PTX ISA 9.7.16.3.3, [`crate::canonical_layout`]) and whether a tensor copy wrote
//! it there ([`crate::tensor_copy`]).

pub mod canonical_layout;
pub mod tensor_copy;
