//! Property tests of the instruction descriptor: round trips in both directions, and decoding
//! that never panics.

mod common;

use proptest::prelude::*;
use tcgen05::diagnostic::Diagnostic;
use tcgen05::instruction_descriptor::{layout, IdescFields, InstructionDescriptor};
use tcgen05::mma::{ElementType, IdescLayout, Kind, MaxShift, ScaleType};

fn inputs(kind: Kind) -> Vec<ElementType> {
    ElementType::ALL
        .into_iter()
        .filter(|t| t.ab_code(kind).is_some())
        .collect()
}

fn accumulators(kind: Kind) -> Vec<ElementType> {
    if kind.is_block_scaled() {
        vec![ElementType::F32]
    } else {
        ElementType::ALL
            .into_iter()
            .filter(|t| t.d_code(kind).is_some())
            .collect()
    }
}

/// Valid fields of any kind: each choice is drawn from what the kind allows (rules.md
/// R8-R13), so every generated value must validate.
fn valid_fields() -> impl Strategy<Value = IdescFields> {
    proptest::sample::select(Kind::ALL.to_vec()).prop_flat_map(|kind| {
        let ms: Vec<u16> = if kind.is_block_scaled() {
            vec![128, 256]
        } else {
            vec![32, 64, 128, 256]
        };
        (
            proptest::sample::select(accumulators(kind)),
            proptest::sample::select(inputs(kind)),
            proptest::sample::select(inputs(kind)),
            proptest::sample::select(ms),
            1u16..=32,
            any::<bool>(),
            0u8..4,
            any::<[bool; 5]>(),
            0u8..4,
            any::<bool>(),
            0u8..4,
            0u8..4,
        )
            .prop_map(
                move |(d, a, b, m, n8, sparse, sel, flags, shift, ue4m3, sfa, sfb)| {
                    let table42 = kind.idesc_layout() == IdescLayout::Table42;
                    let mxf4 = kind.idesc_layout() == IdescLayout::Table44;
                    let mut f = IdescFields::new(kind, d, a, b, m, n8 * 8);
                    // f16 output needs f16 inputs; make the pair consistent.
                    if kind == Kind::F16 && d == ElementType::F16 {
                        f.a_type = ElementType::F16;
                        f.b_type = ElementType::F16;
                    }
                    f.sparse = sparse;
                    f.sparsity_selector = if sparse && matches!(kind, Kind::F16 | Kind::Tf32) {
                        sel
                    } else {
                        0
                    };
                    f.saturate = kind == Kind::I8 && flags[0];
                    f.negate_a = kind != Kind::I8 && flags[1];
                    f.negate_b = kind != Kind::I8 && flags[2];
                    f.transpose_a = !mxf4 && !f.a_type.is_sub_byte() && flags[3];
                    f.transpose_b = !mxf4 && !f.b_type.is_sub_byte() && flags[4];
                    if table42 {
                        f.max_shift = MaxShift::from_code(shift).unwrap_or_default();
                    }
                    if kind.is_block_scaled() {
                        let scale = if kind == Kind::Mxf4nvf4 && ue4m3 {
                            ScaleType::Ue4m3
                        } else {
                            ScaleType::Ue8m0
                        };
                        let fix = |id: u8| match (kind, scale) {
                            (Kind::Mxf8f6f4, _) => id,
                            (_, ScaleType::Ue4m3) => 0,
                            _ => id & 2,
                        };
                        f = f.with_scale(scale, fix(sfa), fix(sfb));
                    }
                    f.k96 = mxf4 && !sparse && m == 256 && flags[0];
                    f
                },
            )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn decode_of_encode_gives_the_fields(f in valid_fields()) {
        let problems = f.validate();
        prop_assert!(!problems.has_errors(), "{f:?}: {problems:?}");
        let d = InstructionDescriptor::try_new(f).expect("valid fields encode");
        let back = InstructionDescriptor::decode(d.bits(), f.kind);
        prop_assert!(back.is_valid(), "{:#010x}: {:?}", d.bits(), back.diagnostics);
        prop_assert_eq!(back.fields, Some(f));
        prop_assert_eq!(InstructionDescriptor::from_bits(d.bits(), f.kind), Ok(d));
        prop_assert!(InstructionDescriptor::valid_kinds(d.bits()).contains(f.kind));
    }

    #[test]
    fn valid_bits_with_noise_in_one_reserved_bit_are_refused(f in valid_fields(), pick in any::<u8>()) {
        let d = InstructionDescriptor::try_new(f).expect("valid");
        let reserved: Vec<u8> = layout(f.kind)
            .iter()
            .filter(|r| r.role == tcgen05::bits::Role::Reserved)
            .flat_map(|r| r.lo..=r.hi())
            .collect();
        let bit = reserved[pick as usize % reserved.len()];
        let dec = InstructionDescriptor::decode(d.bits() | (1 << bit), f.kind);
        let name = format!("bit {bit}");
        prop_assert!(dec.diagnostics.errors().any(|e| e.field() == name), "{:?}", dec.diagnostics);
    }

    #[test]
    fn decoding_never_panics_and_never_overflows_its_list(raw in any::<u32>()) {
        for kind in Kind::ALL {
            let dec = InstructionDescriptor::decode(raw, kind);
            prop_assert!(!dec.diagnostics.overflowed());
            let _ = format!("{}", InstructionDescriptor::from_bits_unchecked(raw, kind));
        }
    }
}

#[test]
fn all_ones_reports_every_reserved_bit_without_overflow() {
    for kind in Kind::ALL {
        let dec = InstructionDescriptor::decode(u32::MAX, kind);
        assert!(!dec.diagnostics.overflowed(), "{kind}");
        let reserved = layout(kind)
            .iter()
            .filter(|r| r.role == tcgen05::bits::Role::Reserved)
            .map(|r| u32::from(r.width))
            .sum::<u32>();
        let reported = dec
            .diagnostics
            .iter()
            .filter(|e| e.field().starts_with("bit "))
            .count();
        assert_eq!(reported as u32, reserved, "{kind}");
    }
}

/// Any value that decodes as valid re-encodes to itself. Values are valid encodings with 0, 1 or
/// 2 random bits flipped (and, in one case of eight, any 32-bit value), so that both the valid
/// and the invalid branch run in a real share of the cases (counted).
#[test]
fn encode_of_decode_gives_the_bits() {
    let strategy = (
        valid_fields(),
        0u32..8,
        0u32..32,
        0u32..32,
        any::<u32>(),
        0usize..7,
    );
    let counts = common::counted::<_, 2>(
        "encode_of_decode_gives_the_bits",
        4096,
        0.2,
        strategy,
        |(f, mutation, b1, b2, noise, k)| {
            let good = InstructionDescriptor::try_new(f).expect("valid").bits();
            let (raw, kind) = match mutation {
                0 | 1 => (good, f.kind),
                2 | 3 => (good ^ (1 << b1), f.kind),
                4 | 5 => (good ^ (1 << b1) ^ (1 << b2), f.kind),
                6 => (good, Kind::ALL[k]),
                _ => (noise, Kind::ALL[k]),
            };
            let dec = InstructionDescriptor::decode(raw, kind);
            if dec.is_valid() {
                let f = dec.fields.expect("valid values have fields");
                prop_assert_eq!(InstructionDescriptor::try_new(f).map(|d| d.bits()), Ok(raw));
                Ok(0)
            } else {
                prop_assert!(InstructionDescriptor::from_bits(raw, kind).is_err());
                Ok(1)
            }
        },
    );
    assert_eq!(counts.iter().sum::<u32>(), 4096);
}
