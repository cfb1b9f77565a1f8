//! libFuzzer target `batch`: see `tcgen05_fuzz::batch` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tcgen05_fuzz::batch(data));
