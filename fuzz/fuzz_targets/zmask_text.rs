//! libFuzzer target `zmask_text`: see `tcgen05_fuzz::zmask_text` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tcgen05_fuzz::zmask_text(data));
