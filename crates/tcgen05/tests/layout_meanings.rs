//! The generic reading of a layout row ([`tcgen05::bits::RowReading`]: value and meaning, from
//! the row's [`Meaning`]) agrees with each descriptor's typed getters, on the CUTLASS 4.2.0
//! vectors (`conformance/vectors/cutlass-4.2.0.jsonl`), on those vectors with bits flipped, and
//! on random words. Each kind of meaning (bytes, code names and invalid codes, flags, counts,
//! fixed and reserved bits, both ways) is counted and must come up in a real share of the cases.

use serde_json::Value;

use tcgen05::bits::{Meaning, Role, RowReading, RowValue, Word};
use tcgen05::shared_memory_descriptor::{LboMode, SmemDescriptor, SmemField, Swizzle, SMEM_LAYOUT};
use tcgen05::zero_column_mask::{ZeroColumnMask, ZmaskField, ZMASK_LAYOUT};

const VECTORS: &str = include_str!("../../../conformance/vectors/cutlass-4.2.0.jsonl");

/// The CUTLASS records of one descriptor.
fn records(desc: &str) -> Vec<Value> {
    VECTORS
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .filter(|v| v["desc"] == desc)
        .collect()
}

fn hex(v: &Value) -> u64 {
    let s = v["hex"].as_str().expect("hex string");
    u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex digits")
}

/// xorshift64*: a fixed, dependency-free sequence of words.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The CUTLASS words, each also with 1 to 3 random bits flipped, and as many random words.
fn words(desc: &str, seed: u64) -> Vec<u64> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for r in records(desc) {
        let raw = hex(&r);
        out.push(raw);
        let mut m = raw;
        for _ in 0..=rng.next() % 3 {
            m ^= 1 << (rng.next() % 64);
        }
        out.push(m);
        out.push(rng.next());
    }
    out
}

/// How often each kind of reading came up.
#[derive(Default, Debug)]
struct Seen {
    rows: usize,
    bytes: usize,
    names: usize,
    invalid_codes: usize,
    flags_set: usize,
    flags_clear: usize,
    counts: usize,
    reserved_clear: usize,
    reserved_set: usize,
    fixed_ok: usize,
    fixed_wrong: usize,
}

impl Seen {
    /// Counts one reading and checks what is common to every descriptor: fixed and reserved rows
    /// have no value, and their meaning says whether their bits are right.
    fn note<F: Copy>(&mut self, r: &RowReading<F>) {
        self.rows += 1;
        let text = r.to_string();
        match (r.row.role, r.value()) {
            (Role::Reserved, None) => {
                if r.bits() == 0 {
                    self.reserved_clear += 1;
                    assert_eq!(text, "reserved, 0");
                } else {
                    self.reserved_set += 1;
                    assert_eq!(text, "reserved: SET, must be 0");
                }
            }
            (Role::Fixed(want), None) => {
                if r.bits() == want {
                    self.fixed_ok += 1;
                    assert!(text.starts_with("fixed 0b"), "{text}");
                } else {
                    self.fixed_wrong += 1;
                    assert!(text.starts_with("WRONG: must be the fixed 0b"), "{text}");
                }
            }
            (Role::Value, Some(RowValue::Bytes(_))) => self.bytes += 1,
            (Role::Value, Some(RowValue::Name(_))) => self.names += 1,
            (Role::Value, Some(RowValue::InvalidCode(c))) => {
                self.invalid_codes += 1;
                assert!(text.starts_with(&format!("invalid code {c} (")), "{text}");
            }
            (Role::Value, Some(RowValue::Flag(b))) => {
                if b {
                    self.flags_set += 1;
                } else {
                    self.flags_clear += 1;
                }
            }
            (Role::Value, Some(RowValue::Number(_))) => {
                if matches!(r.row.meaning, Meaning::Count { .. }) {
                    self.counts += 1;
                }
            }
            (role, v) => panic!("row {:?}: role {role:?} with value {v:?}", r.row.lo),
        }
    }

    /// Each named kind came up in at least `share` of the words.
    fn assert_shares(&self, words: usize, share: f64, kinds: &[(&str, usize)]) {
        for (name, n) in kinds {
            assert!(
                *n as f64 >= share * words as f64,
                "{name}: {n} of {words} words ({self:?})"
            );
        }
    }
}

#[test]
fn smem_rows_read_as_the_typed_getters() {
    let words = words("smem", 0x5eed_0040);
    let mut seen = Seen::default();
    let mut absolute_lbo = 0;
    for &raw in &words {
        let d = SmemDescriptor::from_bits_unchecked(raw);
        let decoded = SmemDescriptor::decode(raw, tcgen05::Target::Sm103a);
        let word: Word<SmemField> = d.word();
        assert_eq!(word, decoded.word());
        for r in word.rows() {
            seen.note(&r);
            let field = r.row.field;
            let value = r.value();
            let text = r.to_string();
            match field {
                SmemField::StartAddress => {
                    assert_eq!(value, Some(RowValue::Bytes(d.start_address().into())));
                    assert!(r.is_address());
                    assert_eq!(text, format!("byte address {:#x}", d.start_address()));
                }
                SmemField::LeadingByteOffset => {
                    let lbo = d.leading_byte_offset();
                    assert_eq!(value, Some(RowValue::Bytes(lbo.into())));
                    let absolute = d.lbo_mode() == LboMode::Absolute;
                    assert_eq!(r.is_address(), absolute);
                    absolute_lbo += usize::from(absolute);
                    let want = if absolute {
                        format!("byte address {lbo:#x}")
                    } else {
                        format!("{lbo} bytes")
                    };
                    assert_eq!(text, want);
                }
                SmemField::StrideByteOffset => {
                    assert_eq!(value, Some(RowValue::Bytes(d.stride_byte_offset().into())));
                    assert_eq!(text, format!("{} bytes", d.stride_byte_offset()));
                }
                SmemField::BaseOffset => {
                    let b = d.base_offset();
                    assert_eq!(value, Some(RowValue::Number(b.into())));
                    let pointless = b != 0 && d.swizzle_code() == 0;
                    assert_eq!(text.ends_with("(no meaning without swizzling)"), pointless);
                }
                SmemField::LboMode => match value {
                    Some(RowValue::Name(c)) => {
                        assert_eq!(c.name, d.lbo_mode().name());
                        assert_eq!(c.code, d.lbo_mode().code());
                    }
                    v => panic!("lbo_mode read as {v:?}"),
                },
                SmemField::Swizzle => match (Swizzle::from_code(d.swizzle_code()), value) {
                    (Ok(s), Some(RowValue::Name(c))) => {
                        assert_eq!(
                            (c.code, c.name, c.words),
                            (s.code(), s.name(), s.description())
                        );
                        assert_eq!(text, format!("{}: {}", s.name(), s.description()));
                    }
                    (Err(_), Some(RowValue::InvalidCode(c))) => {
                        assert_eq!(c, u64::from(d.swizzle_code()));
                        assert_eq!(text, format!("invalid code {c} (3, 5 and 7 are invalid)"));
                    }
                    (s, v) => panic!("swizzle {s:?} read as {v:?}"),
                },
                SmemField::Reserved14To15
                | SmemField::Reserved30To31
                | SmemField::Fixed46To48
                | SmemField::Fixed53To60 => assert_eq!(value, None),
            }
            // The typed fields give the same values wherever the word decodes to them.
            if Swizzle::from_code(d.swizzle_code()).is_ok() {
                assert_eq!(decoded.fields.value(field), value, "{raw:#x} {field}");
            }
        }
        // Encoding the decoded fields writes the value rows back.
        if decoded.is_valid() {
            let again = SmemDescriptor::try_new(decoded.fields, tcgen05::Target::Sm103a)
                .expect("valid fields encode");
            assert_eq!(again.bits(), raw);
        }
    }
    let n = words.len();
    seen.assert_shares(
        n,
        0.1,
        &[
            ("bytes", seen.bytes),
            ("names", seen.names),
            ("invalid codes", seen.invalid_codes),
            ("reserved clear", seen.reserved_clear),
            ("reserved set", seen.reserved_set),
            ("fixed ok", seen.fixed_ok),
            ("fixed wrong", seen.fixed_wrong),
            ("leading byte addresses", absolute_lbo),
        ],
    );
}

#[test]
fn zmask_rows_read_as_the_typed_fields() {
    // The CUTLASS records name the fields themselves: an expectation from outside the layout.
    for rec in records("zmask") {
        let word = ZeroColumnMask::from_bits_unchecked(hex(&rec)).word();
        for r in word.rows() {
            let key = match r.row.field {
                ZmaskField::Reserved36 | ZmaskField::Reserved62 => continue,
                f => f.json_key(),
            };
            let want = &rec[key];
            let want = match (r.row.field.sub_mask(), want.as_array()) {
                (Some(i), Some(list)) => &list[usize::from(i)],
                _ => want,
            };
            let got = match r.value() {
                Some(RowValue::Number(n)) => n,
                Some(RowValue::Flag(b)) => u64::from(b),
                v => panic!("{key} read as {v:?}"),
            };
            assert_eq!(Some(got), want.as_u64(), "{key} of {rec}");
        }
    }
    let words = words("zmask", 0x5eed_0045);
    let mut seen = Seen::default();
    for &raw in &words {
        let z = ZeroColumnMask::from_bits_unchecked(raw);
        let f = z.fields();
        for r in z.word().rows() {
            seen.note(&r);
            let field = r.row.field;
            let value = r.value();
            let text = r.to_string();
            assert_eq!(f.value(field), value, "{raw:#x} {field}");
            let i = usize::from(field.sub_mask().unwrap_or(0));
            match field {
                ZmaskField::StartCount0
                | ZmaskField::StartCount1
                | ZmaskField::StartCount2
                | ZmaskField::StartCount3 => {
                    assert_eq!(value, Some(RowValue::Number(f.start_count[i].into())));
                    assert!(
                        text.starts_with(&format!("mask{i} skips {} position", f.start_count[i]))
                    );
                }
                ZmaskField::FirstSpan0
                | ZmaskField::FirstSpan1
                | ZmaskField::FirstSpan2
                | ZmaskField::FirstSpan3 => {
                    assert_eq!(value, Some(RowValue::Flag(f.first_span[i])));
                    let run = if f.first_span[i] { "zeroed" } else { "used" };
                    assert!(text.starts_with(&format!("mask{i} starts with {run} columns")));
                }
                ZmaskField::NonZeroMask => {
                    assert_eq!(value, Some(RowValue::Flag(f.non_zero_mask)));
                    assert!(text.starts_with(if f.non_zero_mask { "1: " } else { "0: " }));
                }
                ZmaskField::SkipSpan => {
                    assert_eq!(value, Some(RowValue::Number(f.skip_span.into())));
                    let run = u16::from(f.skip_span) + 1;
                    assert_eq!(text, format!("runs of {run} zeroed column(s) (R19)"));
                }
                ZmaskField::UseSpan => {
                    assert_eq!(value, Some(RowValue::Number(f.use_span.into())));
                    let run = u16::from(f.use_span) + 1;
                    assert_eq!(text, format!("runs of {run} used column(s) (R19)"));
                }
                ZmaskField::ColumnShift => {
                    let s = f.column_shift;
                    assert_eq!(value, Some(RowValue::Number(s.into())));
                    assert_eq!(text, format!("the MMA reads B columns {s}..{s}+N-1"));
                }
                ZmaskField::Reserved36 | ZmaskField::Reserved62 => assert_eq!(value, None),
            }
        }
        // Packing the fields back gives the word without its reserved bits.
        let reserved: u64 = ZMASK_LAYOUT
            .iter()
            .filter(|r| r.role == Role::Reserved)
            .map(|r| r.mask())
            .sum();
        assert_eq!(f.to_raw_unchecked(), raw & !reserved);
    }
    let n = words.len();
    seen.assert_shares(
        n,
        0.1,
        &[
            ("flags set", seen.flags_set),
            ("flags clear", seen.flags_clear),
            ("counts", seen.counts),
            ("reserved clear", seen.reserved_clear),
            ("reserved set", seen.reserved_set),
        ],
    );
}

#[test]
fn value_rows_name_their_meanings() {
    // Value rows with a meaning of their own, per descriptor: the layouts say what they mean.
    let own = |m: &Meaning| *m != Meaning::NUMBER;
    assert_eq!(SMEM_LAYOUT.iter().filter(|r| own(&r.meaning)).count(), 6);
    assert_eq!(ZMASK_LAYOUT.iter().filter(|r| own(&r.meaning)).count(), 12);
    // Fixed and reserved rows are read from their role alone.
    let roles_only = |m: &Meaning, role: Role| role == Role::Value || *m == Meaning::NUMBER;
    assert!(SMEM_LAYOUT.iter().all(|r| roles_only(&r.meaning, r.role)));
    assert!(ZMASK_LAYOUT.iter().all(|r| roles_only(&r.meaning, r.role)));
}
