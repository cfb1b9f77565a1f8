//! libFuzzer target `zmask`: see `tcgen05_fuzz::zmask` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tcgen05_fuzz::zmask(data));
