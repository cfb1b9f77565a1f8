//! libFuzzer target `idesc`: see `tcgen05_fuzz::idesc` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tcgen05_fuzz::idesc(data));
