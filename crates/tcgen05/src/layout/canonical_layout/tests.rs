use super::*;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Source;
use crate::shared_memory_descriptor::LboMode;
use crate::shared_memory_descriptor::SmemDescriptor;
use crate::shared_memory_descriptor::SmemError;
use crate::shared_memory_descriptor::SmemFields;
use crate::shared_memory_descriptor::Swizzle;
use crate::targets::Target;
use std::vec::Vec;

/// `TileLayout::address` and `offset` near 2^32 (every swizzle, both majors, both atom
/// orders, both anchors, extents and start address up to `u32::MAX`): no overflow, and an
/// element past the 18-bit window is `None`, never a wrapped address.
#[test]
fn tile_address_near_u32_max_is_checked() {
    let mut checked = 0;
    for e in [ElementType::Bf16, ElementType::Tf32, ElementType::E4m3] {
        for major in [Major::K, Major::Mn] {
            for swizzle in Swizzle::ALL {
                for order in [AtomOrder::MnFirst, AtomOrder::KFirst] {
                    for anchor in [SwizzleAnchor::TileStart, SwizzleAnchor::Address] {
                        for (mn, k, start) in [
                            (u32::MAX, u32::MAX, u32::MAX),
                            (u32::MAX - 7, u32::MAX - 63, 0),
                            (1 << 31, 1 << 31, (1 << 18) - 16),
                        ] {
                            let mut t = TileLayout::new(storage(e), major, swizzle, mn, k, start)
                                .with_order(order);
                            t.anchor = anchor;
                            for (i, j) in [(mn - 1, k - 1), (mn - 1, 0), (0, k - 1)] {
                                let _ = t.offset(i, j);
                                if let Some(loc) = t.address(i, j) {
                                    assert!(u64::from(loc.address) < SHARED_WINDOW_BYTES);
                                }
                                checked += 1;
                            }
                            assert_eq!(t.address(mn - 1, k - 1), None);
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 2 * 5 * 2 * 2 * 3 * 3);
}

fn storage(e: ElementType) -> ElementStorage {
    ElementStorage::of(e, None).expect("plain type")
}

fn layout(raw: u64, e: ElementType, major: Major, mn: u32, k: u32) -> MatrixLayout {
    let d = SmemDescriptor::from_bits(raw, Target::Sm100a).expect("valid descriptor");
    MatrixLayout::try_new(d, Operand::new(storage(e), major, mn, k)).expect("valid layout")
}

#[test]
fn pattern_start_helper_keeps_errors() {
    assert_eq!(pattern_base_offset(0x480, Swizzle::B128), Ok(1));
    assert!(matches!(
        pattern_base_offset(0x440, Swizzle::B128),
        Err(LayoutError::Descriptor(
            SmemError::PatternStartNotLineAligned { .. }
        ))
    ));
}

/// PTX Fig. K-major, no swizzle, tf32: `((8,2),(4,4)):((4,32),(1,64))` elements, LBO 256 B,
/// SBO 128 B (ptx-beyond-seeds.md §1.5).
#[test]
fn ptx_k_major_none_tf32() {
    let f = SmemFields::new(0, 256, 128, Swizzle::None);
    let l = MatrixLayout::from_fields(
        f,
        Operand::new(storage(ElementType::Tf32), Major::K, 16, 16),
    )
    .expect("valid");
    for mn in 0..16u32 {
        for k in 0..16u32 {
            let elems = (mn % 8) * 4 + (mn / 8) * 32 + (k % 4) + (k / 4) * 64;
            assert_eq!(
                l.address(mn, k).expect("valid").address,
                elems * 4,
                "({mn},{k})"
            );
        }
    }
}

/// PTX Fig. K-major, 32B swizzle, tf32: `Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4))`.
#[test]
fn ptx_k_major_32b_tf32() {
    let f = SmemFields::new(0, 16, 256, Swizzle::B32);
    let l = MatrixLayout::from_fields(f, Operand::new(storage(ElementType::Tf32), Major::K, 16, 8))
        .expect("valid");
    for mn in 0..16u32 {
        for k in 0..8u32 {
            let elems = (mn % 8) * 8 + (mn / 8) * 64 + k;
            let b = elems * 4;
            let swz = b ^ (((b >> 7) & 1) << 4);
            assert_eq!(l.address(mn, k).expect("valid").address, swz, "({mn},{k})");
        }
    }
}

/// PTX Figs. MN-major bf16 none / 32B / 64B (ptx-beyond-seeds.md §1.5).
#[test]
fn ptx_mn_major_bf16() {
    // none: ((8,1,2),(8,2)):((1,8,64),(8,128)); LBO 256, SBO 128
    let l = MatrixLayout::from_fields(
        SmemFields::new(0, 256, 128, Swizzle::None),
        Operand::new(storage(ElementType::Bf16), Major::Mn, 16, 16),
    )
    .expect("valid");
    for mn in 0..16u32 {
        for k in 0..16u32 {
            let e = (mn % 8) + (mn / 8) * 64 + (k % 8) * 8 + (k / 8) * 128;
            assert_eq!(l.address(mn, k).expect("valid").address, e * 2);
        }
    }
    // 32B: ((8,2,2),(8,2)):((1,8,128),(16,256)); LBO 256, SBO 512
    let l = MatrixLayout::from_fields(
        SmemFields::new(0, 256, 512, Swizzle::B32),
        Operand::new(storage(ElementType::Bf16), Major::Mn, 32, 16),
    )
    .expect("valid");
    for mn in 0..32u32 {
        for k in 0..16u32 {
            let e = (mn % 8) + ((mn / 8) % 2) * 8 + (mn / 16) * 128 + (k % 8) * 16 + (k / 8) * 256;
            let b = e * 2;
            assert_eq!(
                l.address(mn, k).expect("valid").address,
                b ^ (((b >> 7) & 1) << 4)
            );
        }
    }
    // 64B: ((8,4,2),(8,2)):((1,8,256),(32,512)); LBO 512, SBO 1024
    let l = MatrixLayout::from_fields(
        SmemFields::new(0, 512, 1024, Swizzle::B64),
        Operand::new(storage(ElementType::Bf16), Major::Mn, 64, 16),
    )
    .expect("valid");
    for mn in 0..64u32 {
        for k in 0..16u32 {
            let e = (mn % 8) + ((mn / 8) % 4) * 8 + (mn / 32) * 256 + (k % 8) * 32 + (k / 8) * 512;
            let b = e * 2;
            assert_eq!(
                l.address(mn, k).expect("valid").address,
                b ^ (((b >> 7) & 3) << 4)
            );
        }
    }
}

#[test]
fn cutlass_k_major_128b_bf16() {
    let l = layout(0x4000_4040_0001_0040, ElementType::Bf16, Major::K, 128, 16);
    for mn in 0..128u32 {
        for k in 0..16u32 {
            let pre = 0x400 + (mn % 8) * 128 + (mn / 8) * 1024 + k * 2;
            let want = pre ^ (((pre >> 7) & 7) << 4);
            assert_eq!(l.address(mn, k).expect("valid").address, want);
        }
    }
    // K advance by 32 bytes: chunk bits of the absolute address are swizzled (R7).
    let l = layout(0x4000_4040_0001_0042, ElementType::Bf16, Major::K, 128, 16);
    assert_eq!(
        l.address(1, 0).expect("valid").address,
        (0x400 + 128 + 32) ^ (1 << 4)
    );
}

#[test]
fn base_offset_readings() {
    // Pattern starting on line 1 (0x480), base offset 1.
    let f = SmemFields::new(0x480, 16, 1024, Swizzle::B128).with_base_offset(1);
    let op = Operand::new(storage(ElementType::Bf16), Major::K, 8, 16);
    let l = MatrixLayout::from_fields(f, op).expect("valid");
    // PatternStart: row 0 unswizzled, row 1 XOR 1.
    assert_eq!(l.address(0, 0).expect("valid").address, 0x480);
    assert_eq!(l.address(1, 0).expect("valid").address, 0x500 + 16);
    let abs = l.with_reading(BaseOffsetReading::Absolute);
    assert_eq!(abs.address(0, 0).expect("valid").address, 0x480 + 16);
    let sl = l.with_reading(BaseOffsetReading::StartLine);
    assert_eq!(sl.address(0, 0).expect("valid").address, 0x480 + 16);
    let f0 = f.with_base_offset(0);
    let sl0 = MatrixLayout::from_fields(f0, op)
        .expect("valid")
        .with_reading(BaseOffsetReading::StartLine);
    assert_eq!(sl0.address(0, 0).expect("valid").address, 0x480);
}

#[test]
fn sub_byte_storage() {
    let e2m1 = ElementStorage::of(ElementType::E2m1, Some(Kind::F8f6f4)).expect("valid");
    let l = MatrixLayout::from_fields(
        SmemFields::new(0, 2048, 128, Swizzle::None),
        Operand::new(e2m1, Major::K, 8, 32),
    )
    .expect("valid");
    let a = l.address(0, 3).expect("valid");
    assert_eq!((a.address, a.bit, a.bits), (1, 4, 4));
    let a = l.address(0, 16).expect("valid");
    assert_eq!((a.address, a.bit), (2048, 0));
    let e3m2 = ElementStorage::of(ElementType::E3m2, Some(Kind::Mxf8f6f4)).expect("valid");
    let l = MatrixLayout::from_fields(
        SmemFields::new(0, 2048, 128, Swizzle::None),
        Operand::new(e3m2, Major::K, 8, 32),
    )
    .expect("valid");
    let a = l.address(0, 15).expect("valid");
    assert_eq!((a.address, a.bit), (11, 2)); // bit 90
    let mx = ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4)).expect("valid");
    assert_eq!(mx.dense_k(), 64);
    assert_eq!(
        ElementStorage::of(ElementType::E2m1, None),
        Err(LayoutError::KindRequired {
            element: ElementType::E2m1
        })
    );
    assert_eq!(
        ElementStorage::of(ElementType::F32, None),
        Err(LayoutError::NotAnInput {
            element: ElementType::F32
        })
    );
    assert_eq!(
        ElementStorage::of(ElementType::Bf16, Some(Kind::I8)),
        Err(LayoutError::NotInKind {
            element: ElementType::Bf16,
            kind: Kind::I8
        })
    );
}

#[test]
fn every_rule_broken() {
    let bf16 = storage(ElementType::Bf16);
    let tf32 = storage(ElementType::Tf32);
    let e2m1 = ElementStorage::of(ElementType::E2m1, Some(Kind::F8f6f4)).expect("valid");
    let f = |s| SmemFields::new(0, 16, 1024, s);
    let fields_of = |d: LayoutDiagnostics| d.iter().map(|e| e.field()).collect::<Vec<_>>();
    // R11: sub-byte MN-major
    let d = MatrixLayout::validate(&f(Swizzle::B128), &Operand::new(e2m1, Major::Mn, 16, 32));
    assert_eq!(d.get(0), Some(LayoutError::SubByteMnMajor { bits: 4 }));
    // R18: base32B K-major, tf32 MN-major with 128B, bf16 MN-major with base32B
    for (s, op) in [
        (Swizzle::B128Base32B, Operand::new(bf16, Major::K, 8, 16)),
        (Swizzle::B128, Operand::new(tf32, Major::Mn, 32, 8)),
        (Swizzle::B128Base32B, Operand::new(bf16, Major::Mn, 64, 16)),
    ] {
        let d = MatrixLayout::validate(&f(s), &op);
        assert_eq!(fields_of(d), ["swizzle"], "{s:?} {op:?}");
        assert_eq!(d.get(0).expect("valid").source(), Source::Decision(18));
    }
    // R5: absolute mode MN-major
    let d = MatrixLayout::validate(
        &f(Swizzle::B128).with_lbo_mode(LboMode::Absolute),
        &Operand::new(bf16, Major::Mn, 64, 16),
    );
    assert_eq!(fields_of(d), ["lbo_mode"]);
    // extents, reported together
    let d = MatrixLayout::validate(&f(Swizzle::B128), &Operand::new(bf16, Major::K, 12, 12));
    assert_eq!(fields_of(d), ["mn", "k"]);
    // K block crossing the 128-byte row
    let d = MatrixLayout::validate(
        &SmemFields::new(0x470, 16, 1024, Swizzle::B128),
        &Operand::new(bf16, Major::K, 8, 16),
    );
    assert_eq!(
        d.get(0),
        Some(LayoutError::KCrossesSwizzleRow {
            offset: 0x70,
            bytes: 32,
            width: 128
        })
    );
    // More rows or K than one MMA reads (Table 39); a tile may hold more rows, but must fit
    // the window (R3).
    let d = MatrixLayout::validate(&f(Swizzle::B128), &Operand::new(bf16, Major::K, 264, 512));
    assert_eq!(fields_of(d), ["mn", "k"]);
    assert_eq!(d.get(0).map(|e| e.source()), Some(Source::PtxTable(39)));
    let big = TileLayout::new(bf16, Major::K, Swizzle::B128, 512, 64, 0);
    assert!(big.validate().is_empty());
    let too_big = TileLayout::new(bf16, Major::K, Swizzle::B128, 512, 512, 0);
    assert!(matches!(
        too_big.validate().get(0),
        Some(LayoutError::AddressOutOfRange {
            address: 0x80000,
            ..
        })
    ));
    // Hand-made fields the descriptor cannot hold, and the worst case: every problem at once.
    let worst = SmemFields::new(0x408, 0x40000, 0x18, Swizzle::B128Base32B)
        .with_lbo_mode(LboMode::Absolute);
    let d = MatrixLayout::validate(&worst, &Operand::new(e2m1, Major::Mn, 12, 7));
    assert_eq!(
        fields_of(d),
        [
            "start_address",
            "leading_byte_offset",
            "stride_byte_offset",
            "major",
            "swizzle",
            "lbo_mode",
            "mn",
            "k"
        ]
    );
    assert!(!d.overflowed());
    // indexes and window
    let l = layout(0x4000_4040_0001_0040, ElementType::Bf16, Major::K, 128, 16);
    assert_eq!(
        l.address(128, 0).expect_err("an error").layout_field(),
        LayoutField::MnIndex
    );
    assert_eq!(
        l.address(0, 16).expect_err("an error").layout_field(),
        LayoutField::KIndex
    );
    let far = MatrixLayout::from_fields(
        SmemFields::new(0x3FFF0, 16, 0x3FFF0, Swizzle::None),
        Operand::new(bf16, Major::K, 16, 16),
    )
    .expect("valid");
    assert!(matches!(
        far.address(8, 0),
        Err(LayoutError::AddressOutOfRange { mn: 8, k: 0, .. })
    ));
}

#[test]
fn inverse_and_overlaps() {
    let l = layout(0x4000_4040_0001_0040, ElementType::Bf16, Major::K, 16, 16);
    for (mn, k) in [(0, 0), (1, 0), (9, 15), (15, 7)] {
        let a = l.address(mn, k).expect("valid");
        assert_eq!(l.elements_at(a.address), [Some((mn, k)), None]);
        assert_eq!(l.elements_at(a.address + 1), [Some((mn, k)), None]);
    }
    assert_eq!(l.elements_at(0x400 + 32), [None, None]);
    // End before (or at) start: one error, not a line per element.
    let (start, end) = (0x800, 0x400);
    assert_eq!(
        l.check(Some(start..end)),
        Err(LayoutError::EmptyBuffer {
            start: 0x800,
            end: 0x400
        })
    );
    assert!(matches!(
        l.check(Some(0x400..0x400)),
        Err(LayoutError::EmptyBuffer { .. })
    ));
    let problems = l.check(Some(0x400..0x400 + 2048)).expect("valid");
    assert!(problems.is_empty(), "{problems:?}");
    let problems = l.check(Some(0x400..0x400 + 1024)).expect("valid");
    assert_eq!(problems.len(), 8 * 16);
    assert!(problems
        .iter()
        .all(|p| matches!(p, LayoutError::OutsideBuffer { mn: 8..=15, .. })));
    // SBO 0 folds rows 8-15 onto rows 0-7.
    let f = SmemFields::new(0x400, 16, 0, Swizzle::B128);
    let l = MatrixLayout::from_fields(
        f,
        Operand::new(storage(ElementType::Bf16), Major::K, 16, 16),
    )
    .expect("valid");
    let problems = l.check(None).expect("valid");
    assert_eq!(problems.len(), 8 * 16);
    assert_eq!(
        problems[0],
        LayoutError::Overlap {
            mn: 0,
            k: 0,
            other_mn: 8,
            other_k: 0,
            address: 0x400
        }
    );
    // Packed 4-bit: two elements per byte, no overlap.
    let mx = ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4)).expect("valid");
    let l = MatrixLayout::from_fields(
        SmemFields::new(0, 16, 1024, Swizzle::B128),
        Operand::new(mx, Major::K, 8, 64),
    )
    .expect("valid");
    assert!(l.check(None).expect("valid").is_empty());
    assert_eq!(l.elements_at(0), [Some((0, 0)), Some((0, 1))]);
}

#[test]
fn absolute_lbo_mode_split() {
    // mxf4 K = 96 (48 bytes) starting 96 bytes into a line: 32 bytes there, 16 at LBO.
    let mx = ElementStorage::of(ElementType::E2m1, Some(Kind::Mxf4)).expect("valid");
    let f = SmemFields::new(0x460, 0x2000, 1024, Swizzle::B128).with_lbo_mode(LboMode::Absolute);
    let l = MatrixLayout::from_fields(f, Operand::new(mx, Major::K, 8, 96)).expect("valid");
    assert_eq!(l.address(0, 0).expect("valid").address, 0x460);
    assert_eq!(l.address(0, 64).expect("valid").address, 0x2000);
    assert!(l.check(None).expect("valid").is_empty());
}
