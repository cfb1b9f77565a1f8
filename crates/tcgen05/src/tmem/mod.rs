//! Tensor Memory (PTX ISA 9.7.16.2): its addresses, allocation and data-movement shapes
//! ([`crate::tensor_memory`]), which thread holds which cell after `tcgen05.ld` / `.st` / `.cp`
//! ([`crate::tmem_fragment`]), and where an MMA keeps its operands there
//! ([`crate::data_path`]).

pub mod data_path;
pub mod tensor_memory;
pub mod tmem_fragment;
