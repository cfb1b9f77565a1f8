//! libFuzzer target `ptx`: see `tcgen05_fuzz::ptx` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tcgen05_fuzz::ptx(data));
