//! libFuzzer target `numbers_names`: see `tcgen05_fuzz::numbers_names` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tcgen05_fuzz::numbers_names(data));
