//! Properties of the zero-column mask descriptor (PTX ISA 9.7.16.4.3, Table 45, rules.md
//! R19-R22): decoding against a reference written here with plain shifts, mask generation
//! against R20's definition written bit by bit, and the solver against an exhaustive search.

use std::collections::HashSet;

use proptest::prelude::*;
use tcgen05::mma::MaxShift;
use tcgen05::zero_column_mask::{
    column_mask, solve, sub_mask, sub_mask_columns, validate_for, ColumnMask, SolveError,
    SolveOptions, ZeroColumnMask, ZmaskError, ZmaskFields,
};
use tcgen05::{Diagnostic, Severity};

/// Bits 36-38 and 62-63, written out independently of the crate's table.
const RESERVED: u64 = 0b111 << 36 | 0b11 << 62;

/// Table 45 read with plain shifts.
fn reference_fields(raw: u64) -> ZmaskFields {
    ZmaskFields {
        start_count: [
            raw as u8,
            (raw >> 8) as u8,
            (raw >> 16) as u8,
            (raw >> 24) as u8,
        ],
        first_span: [
            raw >> 32 & 1 == 1,
            raw >> 33 & 1 == 1,
            raw >> 34 & 1 == 1,
            raw >> 35 & 1 == 1,
        ],
        non_zero_mask: raw >> 39 & 1 == 1,
        skip_span: (raw >> 40) as u8,
        use_span: (raw >> 48) as u8,
        column_shift: (raw >> 56 & 0x3f) as u8,
    }
}

/// R20 bit by bit: position `j + sc` of the sequence that starts with a run of `fs` and
/// alternates `skip + 1` ones and `use + 1` zeros.
fn reference_bit(fs: bool, sc: u8, skip: u8, use_: u8, j: u16) -> bool {
    let ones = skip as u32 + 1;
    let zeros = use_ as u32 + 1;
    let mut pos = j as u32 + sc as u32;
    let mut value = fs;
    loop {
        let run = if value { ones } else { zeros };
        if pos < run {
            return value;
        }
        pos -= run;
        value = !value;
    }
}

/// The full mask of R21 from `reference_bit`, as a bit vector.
fn reference_mask(f: &ZmaskFields, m: u16, n: u16) -> Vec<bool> {
    let k = 128 / m;
    let w = n / k;
    (0..n)
        .map(|c| {
            let i = (c / w) as usize;
            f.non_zero_mask
                && reference_bit(
                    f.first_span[i],
                    f.start_count[i],
                    f.skip_span,
                    f.use_span,
                    c % w,
                )
        })
        .collect()
}

fn bits_of(mask: &ColumnMask) -> Vec<bool> {
    (0..mask.width()).map(|c| mask.bit(c)).collect()
}

fn mask_from_u64(v: u64, n: u16) -> ColumnMask {
    ColumnMask::from_words([v, 0, 0, 0], n).expect("fits")
}

fn fields() -> impl Strategy<Value = ZmaskFields> {
    (
        any::<[u8; 4]>(),
        any::<[bool; 4]>(),
        any::<bool>(),
        any::<u8>(),
        any::<u8>(),
        0u8..=32,
    )
        .prop_map(|(sc, fs, nzm, skip, use_, shift)| ZmaskFields {
            start_count: sc,
            first_span: fs,
            non_zero_mask: nzm,
            skip_span: skip,
            use_span: use_,
            column_shift: shift,
        })
}

/// Small spans, so that the generated masks have many inner runs.
fn short_span_fields() -> impl Strategy<Value = ZmaskFields> {
    (fields(), 0u8..12, 0u8..12).prop_map(|(f, skip, use_)| ZmaskFields {
        skip_span: skip,
        use_span: use_,
        non_zero_mask: true,
        ..f
    })
}

/// M and any N the generators accept (1-256, whole sub-masks), biased to the `.ws` values.
fn shape() -> impl Strategy<Value = (u16, u16)> {
    prop_oneof![
        (
            prop::sample::select(vec![32u16, 64, 128]),
            prop::sample::select(vec![64u16, 128, 256])
        ),
        prop::sample::select(vec![32u16, 64, 128]).prop_flat_map(|m| {
            let k = 128 / m;
            (Just(m), (1..=256 / k).prop_map(move |q| q * k))
        }),
    ]
}

/// The maximal runs of one sub-mask: (value, first column, length, touches an edge).
fn runs(mask: &ColumnMask, lo: u16, hi: u16) -> Vec<(bool, u16, u16, bool)> {
    let mut out = Vec::new();
    let mut p = lo;
    while p < hi {
        let v = mask.bit(p);
        let s = p;
        while p < hi && mask.bit(p) == v {
            p += 1;
        }
        out.push((v, s, p - s, s == lo || p == hi));
    }
    out
}

/// Checks that a "no solution" answer's certificate is true of the mask.
fn check_certificate(m: u16, n: u16, mask: &ColumnMask, e: SolveError) {
    let k = 128 / m;
    let w = n / k;
    let all: Vec<_> = (0..k).flat_map(|i| runs(mask, i * w, i * w + w)).collect();
    match e {
        SolveError::RunLengthsDiffer {
            zeroed,
            length,
            column,
            expected,
            expected_column,
        } => {
            assert_ne!(length, expected);
            assert!(all.contains(&(zeroed, column, length, false)), "{e:?}");
            assert!(
                all.contains(&(zeroed, expected_column, expected, false)),
                "{e:?}"
            );
        }
        SolveError::EdgeRunTooLong {
            zeroed,
            length,
            column,
            limit,
        } => {
            assert!(length > limit);
            assert!(all.contains(&(zeroed, column, length, true)), "{e:?}");
            assert!(
                all.iter().any(|r| r.0 == zeroed && r.2 == limit && !r.3),
                "{e:?}"
            );
        }
        other => panic!("unexpected {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn decode_never_panics_and_matches_the_reference(raw in any::<u64>()) {
        let d = ZeroColumnMask::decode(raw);
        prop_assert_eq!(d.fields, reference_fields(raw));
        prop_assert!(!d.diagnostics.overflowed());
        let mut want = Vec::new();
        for bit in 0..64u8 {
            if RESERVED >> bit & 1 == 1 {
                want.push(ZmaskError::ReservedBit { bit });
            }
        }
        want.retain(|e| matches!(e, ZmaskError::ReservedBit { bit } if raw >> bit & 1 == 1));
        let shift = (raw >> 56 & 0x3f) as u8;
        if shift > 32 {
            want.push(ZmaskError::ColumnShift { shift, max: 32 });
        }
        let got: Vec<_> = d.diagnostics.iter().collect();
        prop_assert_eq!(&got, &want);
        let valid = want.is_empty();
        prop_assert_eq!(ZeroColumnMask::from_bits(raw).is_ok(), valid);
        if let Some(first) = want.first() {
            prop_assert_eq!(ZeroColumnMask::from_bits(raw), Err(*first));
        }
        // Encoding the fields gives back every non-reserved bit.
        prop_assert_eq!(d.fields.to_raw_unchecked(), raw & !RESERVED);
        prop_assert_eq!(ZeroColumnMask::from_bits_unchecked(raw).bits(), raw);
    }

    #[test]
    fn encode_decode_round_trip(f in fields()) {
        let d = ZeroColumnMask::try_new(f).expect("shift at most 32");
        prop_assert_eq!(d.fields(), f);
        prop_assert_eq!(d.bits() & RESERVED, 0);
        prop_assert_eq!(ZeroColumnMask::from_bits(d.bits()), Ok(d));
        prop_assert_eq!(reference_fields(d.bits()), f);
    }

    #[test]
    fn validation_with_context_never_panics_nor_overflows(
        raw in any::<u64>(),
        m in prop_oneof![Just(32u16), Just(64), Just(128), any::<u16>()],
        n in prop_oneof![Just(64u16), Just(128), Just(256), any::<u16>()],
        ms in prop::option::of(prop::sample::select(vec![
            MaxShift::None, MaxShift::Rows8, MaxShift::Rows16, MaxShift::Rows32,
        ])),
    ) {
        let d = ZeroColumnMask::decode_for(raw, m, n, ms);
        prop_assert!(!d.diagnostics.overflowed());
        for e in d.diagnostics.iter() {
            prop_assert!(!e.field().is_empty());
            prop_assert!(!e.to_string().is_empty());
            prop_assert_eq!(e.severity() == Severity::Error, e.is_error());
        }
        let _ = column_mask(&d.fields, m, n);
    }

    #[test]
    fn generated_masks_follow_r20_bit_by_bit(f in fields(), (m, n) in shape()) {
        let mask = column_mask(&f, m, n).expect("valid shape");
        prop_assert_eq!(mask.width(), n);
        prop_assert_eq!(bits_of(&mask), reference_mask(&f, m, n));
        for i in 0..4 {
            match (sub_mask(&f, i, m, n).expect("valid shape"), sub_mask_columns(i, m, n).expect("valid shape")) {
                (Some(s), Some(cols)) => {
                    prop_assert_eq!(mask.slice(cols.start, cols.end - cols.start).expect("in range"), s);
                }
                (None, None) => prop_assert!(i >= (128 / m) as usize),
                _ => prop_assert!(false, "sub_mask and sub_mask_columns disagree"),
            }
        }
        let ones: Vec<u16> = mask.iter_ones().collect();
        prop_assert_eq!(ones.len(), mask.count_ones() as usize);
        prop_assert!(ones.iter().all(|&c| mask.bit(c)));
        prop_assert_eq!(ColumnMask::parse_bits(&mask.to_string()), Ok(mask));
        prop_assert_eq!(ColumnMask::parse_hex(&format!("{mask:x}"), n), Ok(mask));
    }

    #[test]
    fn solver_round_trip(f in prop_oneof![fields(), short_span_fields()], (m, n) in shape(), shift in 0u8..=16) {
        let mask = column_mask(&f, m, n).expect("valid shape");
        let opts = SolveOptions::DEFAULT.with_column_shift(shift);
        let g = solve(m, n, &mask, opts).expect("a generated mask has a solution");
        prop_assert_eq!(column_mask(&g, m, n).expect("valid shape"), mask);
        prop_assert_eq!(g.column_shift, shift);
        // Start counts as small as any solution's, so never above the ones that made the mask.
        if f.non_zero_mask {
            for i in 0..(128 / m) as usize {
                prop_assert!(g.start_count[i] <= f.start_count[i], "{:?} {:?}", g, f);
            }
        }
        // The answer draws no warning (and no error for the .ws N values).
        let d = validate_for(&g, m, n, None);
        prop_assert_eq!(d.warnings().count(), 0, "{:?}", d);
        if matches!(n, 64 | 128 | 256) {
            prop_assert!(d.is_empty(), "{:?}", d);
        }
        // Encodes fine.
        prop_assert!(ZeroColumnMask::try_new(g).is_ok());
    }

    #[test]
    fn solver_on_random_masks((m, n) in shape(), seed in any::<[u64; 4]>(), sparse in any::<bool>()) {
        // Random bits rarely have a solution; ANDing two random words gives longer runs.
        let mut w = seed;
        if sparse {
            w = [w[0] & w[1], w[1] & w[2], w[2] & w[3], w[3] & w[0]];
        }
        let mask = ColumnMask::from_words(w, 256).expect("256").slice(0, n).expect("n <= 256");
        match solve(m, n, &mask, SolveOptions::DEFAULT) {
            Ok(g) => prop_assert_eq!(column_mask(&g, m, n).expect("valid"), mask),
            Err(e) => {
                prop_assert!(e.is_no_solution());
                check_certificate(m, n, &mask, e);
            }
        }
    }

    #[test]
    fn solver_on_near_misses(f in short_span_fields(), (m, n) in shape(), flip in any::<u16>()) {
        let mask = column_mask(&f, m, n).expect("valid shape");
        let col = flip % n;
        let mask = mask.with_bit(col, !mask.bit(col)).expect("in range");
        match solve(m, n, &mask, SolveOptions::DEFAULT) {
            Ok(g) => prop_assert_eq!(column_mask(&g, m, n).expect("valid"), mask),
            Err(e) => check_certificate(m, n, &mask, e),
        }
    }

    #[test]
    fn random_masks_of_any_width(n in 0u16..=256, seed in any::<[u64; 4]>()) {
        let full = ColumnMask::from_words(seed, 256).expect("256");
        let mask = full.slice(0, n).expect("n <= 256");
        prop_assert_eq!(mask.to_string().len(), n as usize);
        prop_assert_eq!(ColumnMask::from_words(mask.words(), n), Ok(mask));
        for c in 0..n {
            prop_assert_eq!(mask.bit(c), full.bit(c));
        }
    }
}

/// Every window of 16 columns that one sub-mask can show, found by running the generator over
/// all 2^25 combinations of skip span, use span, first span and start count, with, for each
/// (skip, use), the windows of 1, 2, 4 and 8 columns (the low bits of the 16).
struct Exhaustive {
    /// For windows of 16 columns, and of 1, 2, 4 and 8 columns (in that order): the smallest
    /// start count that shows each window (`u16::MAX` = none).
    min_start_16: Vec<u16>,
    min_start_low: [Vec<u16>; 4],
    /// For widths 1, 2, 4, 8: the distinct sets of windows one (skip, use) pair can show.
    sets: [Vec<[u64; 4]>; 4],
}

fn exhaustive() -> Exhaustive {
    let mut min_start_16 = vec![u16::MAX; 1 << 16];
    let mut min_start_low = [1usize, 2, 4, 8].map(|w| vec![u16::MAX; 1 << w]);
    let mut distinct: [HashSet<[u64; 4]>; 4] = Default::default();
    for skip in 0..=255u8 {
        for use_ in 0..=255u8 {
            let mut per_width = [[0u64; 4]; 4];
            for fs in [false, true] {
                for sc in 0..=255u8 {
                    let mut first_span = [false; 4];
                    first_span[0] = fs;
                    let f = ZmaskFields {
                        start_count: [sc, 0, 0, 0],
                        first_span,
                        non_zero_mask: true,
                        skip_span: skip,
                        use_span: use_,
                        column_shift: 0,
                    };
                    let window = sub_mask(&f, 0, 128, 16)
                        .expect("valid shape")
                        .expect("sub-mask 0")
                        .words()[0] as usize;
                    let s = &mut min_start_16[window];
                    *s = (*s).min(sc as u16);
                    for (wi, bits) in [1usize, 2, 4, 8].into_iter().enumerate() {
                        let v = window & ((1 << bits) - 1);
                        per_width[wi][v / 64] |= 1 << (v % 64);
                        let s = &mut min_start_low[wi][v];
                        *s = (*s).min(sc as u16);
                    }
                }
            }
            for wi in 0..4 {
                distinct[wi].insert(per_width[wi]);
            }
        }
    }
    let sets = distinct.map(|s| s.into_iter().collect());
    Exhaustive {
        min_start_16,
        min_start_low,
        sets,
    }
}

/// For every M and every N up to 16, every N-bit mask: the solver finds fields exactly when the
/// exhaustive search does, its fields regenerate the mask, and (one sub-mask) its start count is
/// the smallest that any solution has.
#[test]
fn solver_agrees_with_exhaustive_search_for_small_n() {
    let ex = exhaustive();
    for (m, n) in [
        (128u16, 16u16),
        (64, 16),
        (32, 16),
        (128, 8),
        (64, 8),
        (32, 8),
        (128, 4),
        (64, 4),
        (32, 4),
    ] {
        let k = 128 / m;
        let w = n / k;
        let mut solvable = 0u32;
        let mut minimal_checked = 0u32;
        for v in 0..(1u64 << n) {
            let mask = mask_from_u64(v, n);
            let chunk = |i: u16| ((v >> (i * w)) & ((1 << w) - 1)) as usize;
            let wi = match w {
                1 => 0,
                2 => 1,
                4 => 2,
                _ => 3,
            };
            let by_search = v == 0
                || if w == 16 {
                    ex.min_start_16[v as usize] != u16::MAX
                } else {
                    ex.sets[wi]
                        .iter()
                        .any(|set| (0..k).all(|i| set[chunk(i) / 64] >> (chunk(i) % 64) & 1 == 1))
                };
            match solve(m, n, &mask, SolveOptions::DEFAULT) {
                Ok(g) => {
                    assert!(by_search, "M {m} N {n} mask {mask}: solver found {g:?}");
                    assert_eq!(column_mask(&g, m, n).expect("valid"), mask);
                    solvable += 1;
                    if v != 0 && k == 1 {
                        // The smallest start count of the exhaustive search, never the
                        // solver's own answer.
                        let best = if w == 16 {
                            ex.min_start_16[v as usize]
                        } else {
                            ex.min_start_low[wi][v as usize]
                        };
                        assert_eq!(g.start_count[0] as u16, best, "M {m} N {n} mask {mask}");
                        minimal_checked += 1;
                    }
                }
                Err(e) => {
                    assert!(
                        !by_search,
                        "M {m} N {n} mask {mask}: the search finds fields, the solver says {e}"
                    );
                    assert!(e.is_no_solution());
                    check_certificate(m, n, &mask, e);
                }
            }
        }
        assert!(solvable > 1, "M {m} N {n}");
        if m == 128 {
            // Widths 16, 8 and 4: every solvable non-zero mask had its start count compared.
            assert_eq!(minimal_checked, solvable - 1, "M {m} N {n}");
        }
    }
}

#[test]
fn all_zero_and_all_one_masks() {
    for m in [32u16, 64, 128] {
        for n in [64u16, 128, 256] {
            let zero = ColumnMask::zeros(n).expect("n <= 256");
            let f = solve(m, n, &zero, SolveOptions::DEFAULT).expect("solvable");
            assert_eq!(f, ZmaskFields::DISABLED);
            let ones = ColumnMask::all_ones(n).expect("n <= 256");
            let f = solve(m, n, &ones, SolveOptions::DEFAULT).expect("solvable");
            assert!(f.non_zero_mask);
            assert_eq!(f.skip_span as u16 + 1, n * m / 128);
            assert_eq!(column_mask(&f, m, n), Ok(ones));
            assert!(validate_for(&f, m, n, None).is_empty());
        }
    }
}
