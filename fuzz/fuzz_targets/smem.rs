//! libFuzzer target `smem`: see `tcgen05_fuzz::smem` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tcgen05_fuzz::smem(data));
