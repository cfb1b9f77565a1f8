//! Shared memory layouts: which byte an MMA reads for each operand element (the canonical
//! layouts of PTX ISA 9.7.16.3.3, [`crate::canonical_layout`]) and whether a tensor copy wrote
//! it there ([`crate::tensor_copy`]); where block-scale factors sit in the user's tensor in global
//! memory ([`crate::scale_factors`]).

pub mod canonical_layout;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod scale_factor_chain;
pub mod scale_factors;
pub mod tensor_copy;
