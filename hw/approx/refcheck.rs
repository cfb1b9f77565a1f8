//! The CPU side of hw/approx: recomputes the correctly rounded reference of `ex2.approx.ftz.f32`
//! and `ex2.approx.f32` (f64 `exp2`, rounded once to f32; `.ftz` flushes subnormal inputs and
//! results) over all 2^32 inputs (or every STEP-th with an argument) and prints the same digest
//! as approx.cu (sum of splitmix64((i << 32) | bits) mod 2^64) and the inputs whose f64 value lies
//! within 2^-50 (relative) of an f32 rounding boundary. Standalone: `rustc -O refcheck.rs`.
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
fn ftz(x: f32) -> f32 {
    if x.is_subnormal() { 0.0f32.copysign(x) } else { x }
}
fn checked(r: f64, amb: &mut bool) -> f32 {
    let f = r as f32;
    if r.is_finite() && r != 0.0 {
        let (lo, hi) = (r * (1.0 - 2f64.powi(-50)), r * (1.0 + 2f64.powi(-50)));
        if lo as f32 != f || hi as f32 != f { *amb = true; }
    }
    f
}
fn main() {
    let step: u64 = std::env::args().nth(1).map_or(1, |s| s.parse().unwrap());
    for ftz_form in [true, false] {
        let (mut digest, mut n) = (0u64, 0u64);
        let mut i: u64 = 0;
        while i < 1 << 32 {
            let x = f32::from_bits(i as u32);
            let mut amb = false;
            let r = if ftz_form {
                ftz(checked(f64::from(ftz(x)).exp2(), &mut amb))
            } else {
                checked(f64::from(x).exp2(), &mut amb)
            };
            if amb { println!("ambiguous: {} x = {:e} (0x{:08x}) ref 0x{:08x}", ftz_form, x, i, r.to_bits()); }
            digest = digest.wrapping_add(splitmix64((i << 32) | u64::from(r.to_bits())));
            n += 1;
            i += step;
        }
        println!("ex2 ftz={ftz_form}: {n} inputs, digest_ref 0x{digest:016x}");
    }
}
