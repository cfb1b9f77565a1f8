//! Properties of the shared memory descriptor (PTX ISA 9.7.16.4.1, Tables 40-41, rules.md
//! R1-R7), checked on random values against a reference decoder written here with plain shifts.

use proptest::prelude::*;
use tcgen05::bits::Role;
use tcgen05::shared_memory_descriptor::{
    base_offset_for, LboMode, SmemDescriptor, SmemError, SmemField, SmemFields, Swizzle,
    SMEM_LAYOUT,
};
use tcgen05::{Diagnostic, Severity, Target};

/// Bits 14-15, 30-31 (reserved), 46-48 and 53-60 (fixed), written out independently of the
/// crate's table.
const RESERVED: u64 = 0b11 << 14 | 0b11 << 30;
const FIXED: u64 = 0b111 << 46 | 0xff << 53;
const FIXED_VALUE: u64 = 1 << 46;

/// What the reference decoder reads from a raw value.
#[derive(Debug, PartialEq)]
struct Reference {
    start: u32,
    lbo: u32,
    sbo: u32,
    base: u8,
    absolute: bool,
    swizzle_code: u8,
    errors: bool,
    warning: bool,
}

fn reference(raw: u64, target: Target) -> Reference {
    let start = ((raw & 0x3fff) << 4) as u32;
    let lbo = (((raw >> 16) & 0x3fff) << 4) as u32;
    let sbo = (((raw >> 32) & 0x3fff) << 4) as u32;
    let base = ((raw >> 49) & 7) as u8;
    let absolute = (raw >> 52) & 1 == 1;
    let swizzle_code = (raw >> 61) as u8;
    let mut errors = raw & RESERVED != 0 || raw & FIXED != FIXED_VALUE;
    errors |= matches!(swizzle_code, 3 | 5 | 7);
    if absolute {
        errors |= target != Target::Sm103a || swizzle_code != 2 || base != 0;
    }
    let warning = base != 0 && swizzle_code == 0;
    Reference {
        start,
        lbo,
        sbo,
        base,
        absolute,
        swizzle_code,
        errors,
        warning,
    }
}

fn target() -> impl Strategy<Value = Target> {
    prop::sample::select(Target::ALL.to_vec())
}

fn swizzle() -> impl Strategy<Value = Swizzle> {
    prop::sample::select(Swizzle::ALL.to_vec())
}

/// A byte value the descriptor can hold: 16-byte aligned, below 2^18.
fn bytes() -> impl Strategy<Value = u32> {
    (0u32..1 << 14).prop_map(|u| u << 4)
}

/// Valid fields with a target that accepts them (absolute mode only where R5 allows it).
fn valid_fields() -> impl Strategy<Value = (SmemFields, Target)> {
    (
        bytes(),
        bytes(),
        bytes(),
        0u8..8,
        any::<bool>(),
        swizzle(),
        target(),
    )
        .prop_map(|(start, lbo, sbo, base, absolute, swizzle, target)| {
            let mut f = SmemFields::new(start, lbo, sbo, swizzle).with_base_offset(base);
            if absolute {
                f = SmemFields {
                    base_offset: 0,
                    lbo_mode: LboMode::Absolute,
                    swizzle: Swizzle::B128,
                    ..f
                };
                (f, Target::Sm103a)
            } else {
                (f, target)
            }
        })
}

/// Raw values of which many are valid: the fixed and reserved bits are mostly right, the swizzle
/// code is any of the eight, and bit 52 is cleared half of the time.
fn raw_mostly_valid() -> impl Strategy<Value = u64> {
    (any::<u64>(), 0u8..4).prop_map(|(raw, how)| {
        let clean = (raw & !(RESERVED | FIXED)) | FIXED_VALUE;
        match how {
            0 => raw,
            1 => clean,
            _ => clean & !(1 << 52),
        }
    })
}

/// Any u32, with aligned and in-range values often enough to hit both sides of every rule.
fn any_bytes() -> impl Strategy<Value = u32> {
    prop_oneof![bytes(), 0u32..1 << 19, any::<u32>()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn decode_of_encode_gives_the_fields((f, t) in valid_fields()) {
        let d = SmemDescriptor::try_new(f, t).expect("valid fields");
        let dec = SmemDescriptor::decode(d.bits(), t);
        prop_assert_eq!(dec.fields, f);
        prop_assert!(dec.is_valid());
        prop_assert_eq!(d.fields(), f);
        prop_assert_eq!(SmemDescriptor::from_bits(d.bits(), t), Ok(d));
        // Only the base-offset warning can remain.
        let warnings: Vec<_> = dec.diagnostics.iter().collect();
        let expected: Vec<_> = if f.base_offset != 0 && f.swizzle == Swizzle::None {
            vec![SmemError::BaseOffsetWithoutSwizzle { value: f.base_offset }]
        } else {
            vec![]
        };
        prop_assert_eq!(warnings, expected);
        // The independent reading of the bits agrees.
        let r = reference(d.bits(), t);
        prop_assert_eq!(
            (r.start, r.lbo, r.sbo, r.base, r.absolute, r.swizzle_code),
            (
                f.start_address,
                f.leading_byte_offset,
                f.stride_byte_offset,
                f.base_offset,
                f.lbo_mode == LboMode::Absolute,
                f.swizzle.code()
            )
        );
        prop_assert!(!r.errors);
    }

    #[test]
    fn encode_of_decode_gives_the_bits(raw in raw_mostly_valid(), t in target()) {
        let dec = SmemDescriptor::decode(raw, t);
        if dec.is_valid() {
            prop_assert_eq!(SmemDescriptor::try_new(dec.fields, t).map(|d| d.bits()), Ok(raw));
            prop_assert_eq!(SmemDescriptor::from_bits(raw, t).map(|d| d.bits()), Ok(raw));
            prop_assert_eq!(dec.descriptor().map(|d| d.bits()), Some(raw));
        } else {
            prop_assert_eq!(SmemDescriptor::from_bits(raw, t), Err(dec.first_error().expect("an error")));
        }
    }

    #[test]
    fn decode_never_panics_and_matches_the_reference(raw in any::<u64>(), t in target()) {
        let dec = SmemDescriptor::decode(raw, t);
        prop_assert!(!dec.diagnostics.overflowed());
        let r = reference(raw, t);
        prop_assert_eq!(dec.is_valid(), !r.errors);
        prop_assert_eq!(dec.diagnostics.warnings().count() == 1, r.warning);
        prop_assert_eq!(dec.fields.start_address, r.start);
        prop_assert_eq!(dec.fields.leading_byte_offset, r.lbo);
        prop_assert_eq!(dec.fields.stride_byte_offset, r.sbo);
        prop_assert_eq!(dec.fields.base_offset, r.base);
        prop_assert_eq!(dec.fields.lbo_mode == LboMode::Absolute, r.absolute);
        // One diagnostic per set reserved bit.
        let reserved: Vec<u8> = dec
            .diagnostics
            .iter()
            .filter_map(|e| match e {
                SmemError::ReservedBit { bit } => Some(bit),
                _ => None,
            })
            .collect();
        let expected: Vec<u8> = [14u8, 15, 30, 31].into_iter().filter(|b| raw >> b & 1 == 1).collect();
        prop_assert_eq!(reserved, expected);
        // Every diagnostic names a field and prints.
        for e in dec.diagnostics.iter() {
            prop_assert!(!e.field().is_empty());
            let message = format!("{e}");
            prop_assert!(!message.is_empty());
        }
        let shown = format!("{dec}");
        prop_assert!(shown.lines().count() >= 2 + SMEM_LAYOUT.len());
    }

    #[test]
    fn validate_matches_the_rules(
        start in any_bytes(),
        lbo in any_bytes(),
        sbo in any_bytes(),
        base in prop_oneof![0u8..8, any::<u8>()],
        absolute in any::<bool>(),
        swizzle in swizzle(),
        t in target(),
    ) {
        let f = SmemFields {
            start_address: start,
            leading_byte_offset: lbo,
            stride_byte_offset: sbo,
            base_offset: base,
            lbo_mode: if absolute { LboMode::Absolute } else { LboMode::Relative },
            swizzle,
        };
        let d = SmemDescriptor::validate(&f, t);
        prop_assert!(!d.overflowed());
        let byte_ok = |x: u32| x % 16 == 0 && x < 1 << 18;
        let mut ok = byte_ok(start) && byte_ok(lbo) && byte_ok(sbo) && base < 8;
        if absolute {
            ok &= t == Target::Sm103a && swizzle == Swizzle::B128 && base == 0;
        }
        prop_assert_eq!(!d.has_errors(), ok);
        prop_assert_eq!(SmemDescriptor::try_new(f, t).is_ok(), ok);
        if let Err(e) = SmemDescriptor::try_new(f, t) {
            prop_assert_eq!(Some(e), d.first_error());
            prop_assert_eq!(e.severity(), Severity::Error);
        }
        // Each misaligned or too large byte field is reported under its own name.
        for (field, x) in [
            (SmemField::StartAddress, start),
            (SmemField::LeadingByteOffset, lbo),
            (SmemField::StrideByteOffset, sbo),
        ] {
            let named = d.iter().filter(|e| e.field() == field.name()).count();
            prop_assert_eq!(named, usize::from(x % 16 != 0) + usize::from(x >= 1 << 18));
        }
    }

    #[test]
    fn flipping_a_reserved_or_fixed_bit_is_reported((f, t) in valid_fields(), pick in any::<prop::sample::Index>()) {
        let raw = SmemDescriptor::try_new(f, t).expect("valid").bits();
        let bits: Vec<(u8, SmemField, Role)> = SMEM_LAYOUT
            .iter()
            .filter(|r| r.role != Role::Value)
            .flat_map(|r| (r.lo..=r.hi()).map(move |b| (b, r.field, r.role)))
            .collect();
        let (bit, field, role) = bits[pick.index(bits.len())];
        let err = SmemDescriptor::from_bits(raw ^ 1 << bit, t).expect_err("flipped");
        match role {
            Role::Reserved => prop_assert_eq!(err, SmemError::ReservedBit { bit }),
            _ => prop_assert_eq!(err.field(), field.name()),
        }
    }

    #[test]
    fn advance_checked_and_unchecked_agree((f, t) in valid_fields(), bytes in prop_oneof![bytes(), any::<u32>()]) {
        let d = SmemDescriptor::try_new(f, t).expect("valid");
        let u = d.advance_k_unchecked(bytes);
        // The unchecked form touches the start field only, and always gives 14 bits.
        prop_assert_eq!(u.bits() & !0x3fff, d.bits() & !0x3fff);
        prop_assert_eq!(u64::from(u.start_address()), (u64::from(f.start_address) + u64::from(bytes & !15)) & 0x3_ffff);
        match d.advance_k(bytes) {
            Ok(a) => {
                prop_assert_eq!(a, u);
                prop_assert_eq!(a.start_address(), f.start_address + bytes);
                prop_assert_eq!(SmemDescriptor::from_bits(a.bits(), t), Ok(a));
            }
            Err(SmemError::AdvanceMisaligned { bytes: b }) => {
                prop_assert_eq!(b, bytes);
                prop_assert!(bytes % 16 != 0);
            }
            Err(SmemError::AdvanceOverflow { start, bytes: b }) => {
                prop_assert_eq!((start, b), (f.start_address, bytes));
                prop_assert!(u64::from(start) + u64::from(bytes) >= 1 << 18);
            }
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
    }

    #[test]
    fn base_offset_follows_table_41(addr in prop_oneof![(0u32..2048).prop_map(|l| l * 128), 0u32..1 << 18, any::<u32>()], sw in swizzle()) {
        match (base_offset_for(addr, sw), sw.repeat_bytes()) {
            (Ok(b), None) => prop_assert_eq!(b, 0),
            (Ok(b), Some(r)) => {
                prop_assert!(b < 8);
                if addr % r == 0 {
                    prop_assert_eq!(b, 0);
                } else {
                    prop_assert_eq!(u32::from(b), (addr >> 7) & 7);
                    prop_assert!(b != 0, "Table 41: non-zero off the boundary");
                }
            }
            (Err(e), Some(r)) => {
                prop_assert_eq!(e, SmemError::PatternStartNotLineAligned { swizzle: sw, address: addr });
                prop_assert!(addr % r != 0 && addr % 128 != 0);
            }
            (Err(e), None) => prop_assert!(false, "no swizzle cannot fail: {e:?}"),
        }
    }
}
