//! A second, independent reading of PTX ISA 9.7.16.4.2 Tables 42-44 and the Table 39 ranges that
//! hold for every `.cta_group` and `.ws` (rules.md R8-R13): which raw 32-bit instruction
//! descriptors are valid under each kind, and how many there are.
//!
//! Nothing here calls the `tcgen05` decoder or its tables: bit positions, type codes and the
//! allowed values are written out again from the PTX text, so that the sweep compares two
//! readings of the tables rather than the decoder with itself.

use tcgen05::Kind;

/// Bits `lo..=hi` of `raw`.
const fn bits(raw: u32, lo: u32, hi: u32) -> u32 {
    (raw >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

/// Reserved bits (rules.md R10): Table 42 reserves 6, 23, 29; Table 43 reserves 0-1, 3, 6,
/// 24-26, 31; Table 44 reserves 0-1, 3, 6, 12, 24-26.
const RESERVED_42: u32 = (1 << 6) | (1 << 23) | (1 << 29);
const RESERVED_43: u32 = 0b11 | (1 << 3) | (1 << 6) | (0b111 << 24) | (1 << 31);
const RESERVED_44: u32 = 0b11 | (1 << 3) | (1 << 6) | (1 << 12) | (0b111 << 24);

/// Codes of the 8-, 6- and 4-bit float types in atype/btype of Tables 42-43: E4M3 0, E5M2 1,
/// E2M3 3, E3M2 4, E2M1 5. The first two are 8-bit (may be MN-major), the rest are not (R11).
const F8F6F4_CODES: [u32; 5] = [0, 1, 3, 4, 5];
const fn is_f8f6f4(code: u32) -> bool {
    matches!(code, 0 | 1 | 3 | 4 | 5)
}
const fn is_8bit_float(code: u32) -> bool {
    matches!(code, 0 | 1)
}

/// N field (bits 17-22 in all three tables) holds N >> 3; Table 39 allows 8..=256.
const fn n_ok(raw: u32) -> bool {
    let n = bits(raw, 17, 22) << 3;
    n >= 8 && n <= 256
}

/// True when `raw` is a valid instruction descriptor under `kind`, read from the tables.
#[must_use]
#[inline(always)]
pub const fn valid(raw: u32, kind: Kind) -> bool {
    match kind {
        Kind::F16 | Kind::Tf32 | Kind::F8f6f4 | Kind::I8 => valid_42(raw, kind),
        Kind::Mxf8f6f4 => valid_43(raw),
        Kind::Mxf4 | Kind::Mxf4nvf4 => valid_44(raw, kind),
    }
}

/// Table 42: sel 0-1, sparse 2, saturate 3, dtype 4-5, atype 7-9, btype 10-12, negate 13-14,
/// transpose 15-16, N 17-22, M 24-28 (M >> 4), max shift 30-31 (any of its four codes).
const fn valid_42(raw: u32, kind: Kind) -> bool {
    if raw & RESERVED_42 != 0 || !n_ok(raw) {
        return false;
    }
    let (sel, sparse, sat) = (bits(raw, 0, 1), bits(raw, 2, 2), bits(raw, 3, 3));
    let (d, a, b) = (bits(raw, 4, 5), bits(raw, 7, 9), bits(raw, 10, 12));
    let (neg, ta, tb) = (bits(raw, 13, 14), bits(raw, 15, 15), bits(raw, 16, 16));
    // M in {32, 64, 128, 256}: codes 2, 4, 8, 16.
    if !matches!(bits(raw, 24, 28), 2 | 4 | 8 | 16) {
        return false;
    }
    // Sparsity selector only with sparsity; always 0 for i8 and f8f6f4 (R11).
    if sel != 0 && (sparse == 0 || matches!(kind, Kind::I8 | Kind::F8f6f4)) {
        return false;
    }
    // Saturate: i8 only; negate: not i8 (R11).
    if sat == 1 && !matches!(kind, Kind::I8) {
        return false;
    }
    if neg != 0 && matches!(kind, Kind::I8) {
        return false;
    }
    match kind {
        // tf32: D f32 (1), A = B = tf32 (2).
        Kind::Tf32 => d == 1 && a == 2 && b == 2,
        // f16: A, B in {f16 0, bf16 1}; D f32 (1) with any, D f16 (0) only with f16 inputs.
        Kind::F16 => a <= 1 && b <= 1 && (d == 1 || (d == 0 && a == 0 && b == 0)),
        // f8f6f4: D f16 (0) or f32 (1); any mix of the five; 4/6-bit not MN-major.
        Kind::F8f6f4 => {
            d <= 1
                && is_f8f6f4(a)
                && is_f8f6f4(b)
                && (ta == 0 || is_8bit_float(a))
                && (tb == 0 || is_8bit_float(b))
        }
        // i8: D s32 (2); A, B in {u8 0, s8 1}.
        _ => d == 2 && a <= 1 && b <= 1,
    }
}

/// Table 43 (mxf8f6f4): sparse 2, sfb id 4-5, atype 7-9, btype 10-12, negate 13-14, transpose
/// 15-16, N 17-22, scale type 23 (UE8M0 = 1 only), M 27-28 (M >> 7), sfa id 29-30 (0-3).
const fn valid_43(raw: u32) -> bool {
    let (a, b) = (bits(raw, 7, 9), bits(raw, 10, 12));
    raw & RESERVED_43 == 0
        && n_ok(raw)
        && is_f8f6f4(a)
        && is_f8f6f4(b)
        && (bits(raw, 15, 15) == 0 || is_8bit_float(a))
        && (bits(raw, 16, 16) == 0 || is_8bit_float(b))
        && bits(raw, 23, 23) == 1
        && matches!(bits(raw, 27, 28), 1 | 2)
}

/// Table 44 (mxf4, mxf4nvf4): sparse 2, sfb id 4-5, atype 7-9 (E2M1 = 1), btype 10-11 (E2M1 =
/// 1), negate 13-14, transpose 15-16 (never), N 17-22, scale type 23, M 27-28, sfa id 29-30,
/// K = 96 bit 31 (dense only). Scale IDs 0 or 2; with UE4M3 (code 0, mxf4nvf4 only) only 0.
/// With the K bit (PTX ISA 9.7.16.10.7.2-3: K = 96 `.block32` places its three factors at any
/// byte offset 0-3 of the word, `.block16` its six at 0 or 2; rules.md T3, D10): 0-3, and with
/// UE4M3 (16-element blocks only) 0 or 2.
const fn valid_44(raw: u32, kind: Kind) -> bool {
    if raw & RESERVED_44 != 0 || !n_ok(raw) {
        return false;
    }
    let scale = bits(raw, 23, 23);
    let k96 = bits(raw, 31, 31) == 1;
    let (sfa, sfb) = (bits(raw, 29, 30), bits(raw, 4, 5));
    let ids_ok = match (scale, k96) {
        (1, false) => matches!(sfa, 0 | 2) && matches!(sfb, 0 | 2),
        (1, true) => true,
        (_, false) => matches!(kind, Kind::Mxf4nvf4) && sfa == 0 && sfb == 0,
        (_, true) => matches!(kind, Kind::Mxf4nvf4) && matches!(sfa, 0 | 2) && matches!(sfb, 0 | 2),
    };
    ids_ok
        && bits(raw, 7, 9) == 1
        && bits(raw, 10, 11) == 1
        && bits(raw, 15, 16) == 0
        && matches!(bits(raw, 27, 28), 1 | 2)
        && !(bits(raw, 31, 31) == 1 && bits(raw, 2, 2) == 1)
}

/// How many of the 2^32 values are valid under `kind`, as a product of the choices each table
/// leaves (N: 32 values 8..=256; M: 4 values in Table 42, 2 in Tables 43-44).
#[must_use]
pub fn count(kind: Kind) -> u64 {
    const N: u64 = 32;
    // Types and transposes together: for f8f6f4, each operand is one of 2 8-bit types (2
    // transposes) or 3 sub-byte types (1).
    let f8_operand: u64 = F8F6F4_CODES
        .iter()
        .map(|&c| if is_8bit_float(c) { 2 } else { 1 })
        .sum();
    match kind {
        // sparse/selector 1 + 4, 4 negations, 1 type triple x 4 transposes, 4 M, 4 max shifts.
        Kind::Tf32 => 5 * 4 * 4 * N * 4 * 4,
        // 5 type triples (D f32 with 4 pairs, D f16 with f16/f16) x 4 transposes.
        Kind::F16 => 5 * 4 * (5 * 4) * N * 4 * 4,
        // sparse 2 (selector 0), 4 negations, 2 D x 7 x 7.
        Kind::F8f6f4 => 2 * 4 * (2 * f8_operand * f8_operand) * N * 4 * 4,
        // sparse 2, saturate 2, no negation, 4 type pairs x 4 transposes.
        Kind::I8 => 2 * 2 * 16 * N * 4 * 4,
        // sparse 2, sfb 4, 7 x 7, negations 4, scale 1, M 2, sfa 4.
        Kind::Mxf8f6f4 => 2 * 4 * f8_operand * f8_operand * 4 * N * 2 * 4,
        // UE8M0: ids 2 x 2 dense and sparse, 4 x 4 dense K96; negations 4, M 2.
        Kind::Mxf4 => (2 * 2 + 4 * 4 + 2 * 2) * 4 * N * 2,
        // as mxf4, plus UE4M3: ids 0 dense and sparse, 2 x 2 dense K96.
        Kind::Mxf4nvf4 => (2 * 2 + 4 * 4 + 2 * 2 + (1 + 2 * 2 + 1)) * 4 * N * 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed-form counts are the published figures (README, full sweep of 2^32 values).
    #[test]
    fn counts() {
        let want = [204_800, 40_960, 401_408, 32_768, 401_408, 6_144, 7_680];
        for (k, w) in Kind::ALL.iter().zip(want) {
            assert_eq!(count(*k), w, "{k}");
        }
    }

    /// The predicate and the closed form agree: enumerating only the bits a kind's table does
    /// not reserve (and N restricted to its two extreme codes, scaled) gives the same count.
    #[test]
    fn predicate_matches_count_on_free_bits() {
        for kind in Kind::ALL {
            let reserved = match kind {
                Kind::Mxf8f6f4 => RESERVED_43,
                Kind::Mxf4 | Kind::Mxf4nvf4 => RESERVED_44,
                _ => RESERVED_42,
            };
            // Fix N to 64 (code 8) and enumerate every other non-reserved bit.
            let n_mask = 0b11_1111 << 17;
            let free = !reserved & !n_mask;
            let mut total = 0u64;
            let mut first = None;
            // Enumerate subsets of `free` (at most 2^23 values).
            let mut sub: u32 = 0;
            loop {
                if valid(sub | (8 << 17), kind) {
                    total += 1;
                    first.get_or_insert(sub);
                }
                sub = sub.wrapping_sub(free) & free;
                if sub == 0 {
                    break;
                }
            }
            assert_eq!(total * 32, count(kind), "{kind}");
            // And N: exactly codes 1..=32 pass with everything else fixed valid.
            let base = first.expect("a valid value");
            let ns = (0..64u32).filter(|c| valid(base | (c << 17), kind)).count();
            assert_eq!(ns, 32, "{kind}");
        }
    }
}
