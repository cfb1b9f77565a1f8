//! Conformance with NVIDIA CUTLASS 4.2.0: every record of `conformance/vectors/cutlass-4.2.0.jsonl`
//! (computed by CUTLASS's own headers, see `conformance/cutlass/`) must agree with our encoders and
//! decoders, or differ exactly as its `"difference"` key and `conformance/DIFFERENCES.md` say
//! (the D-numbers in the comments below are that file's). `conformance/cutlass/run.sh --check`
//! proves the file is what CUTLASS produces; this test proves we agree with it.

use serde_json::Value;

use tcgen05::instruction_descriptor::{IdescError, IdescFields, InstructionDescriptor};
use tcgen05::shapes::{validate_mma, MmaConfig};
use tcgen05::shared_memory_descriptor::{
    base_offset_for, LboMode, SmemDescriptor, SmemError, SmemFields, Swizzle,
};
use tcgen05::zero_column_mask::{ZeroColumnMask, ZmaskFields};
use tcgen05::{CtaGroup, ElementType, Kind, MaxShift, ScaleType, Target};

const VECTORS: &str = include_str!("../../../conformance/vectors/cutlass-4.2.0.jsonl");

/// One record and its line number (for messages).
struct Rec {
    line: usize,
    v: Value,
}

fn records() -> Vec<Rec> {
    VECTORS
        .lines()
        .enumerate()
        .map(|(i, l)| Rec {
            line: i + 1,
            v: serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: not JSON: {e}", i + 1)),
        })
        .collect()
}

impl Rec {
    fn desc(&self) -> &str {
        self.str("desc")
    }
    fn str(&self, k: &str) -> &str {
        self.v[k]
            .as_str()
            .unwrap_or_else(|| panic!("line {}: no string {k}", self.line))
    }
    fn opt_str(&self, k: &str) -> Option<&str> {
        self.v.get(k).and_then(Value::as_str)
    }
    fn num(&self, k: &str) -> u64 {
        self.v[k]
            .as_u64()
            .unwrap_or_else(|| panic!("line {}: no number {k}", self.line))
    }
    fn hex(&self, k: &str) -> u64 {
        let s = self.str(k);
        u64::from_str_radix(s.strip_prefix("0x").expect("0x prefix"), 16)
            .unwrap_or_else(|e| panic!("line {}: bad hex {s}: {e}", self.line))
    }
    fn flag(&self, k: &str) -> bool {
        self.v[k]
            .as_bool()
            .unwrap_or_else(|| panic!("line {}: no boolean {k}", self.line))
    }
    fn ty(&self, k: &str) -> ElementType {
        ElementType::from_name(self.str(k))
            .unwrap_or_else(|| panic!("line {}: unknown type {k}", self.line))
    }
    fn list4(&self, k: &str) -> [u8; 4] {
        let a = self.v[k]
            .as_array()
            .unwrap_or_else(|| panic!("line {}: no list {k}", self.line));
        assert_eq!(a.len(), 4, "line {}: {k}", self.line);
        [0, 1, 2, 3].map(|i| a[i].as_u64().expect("list entry") as u8)
    }
    fn difference(&self) -> Option<&str> {
        self.opt_str("difference")
    }
}

/// The bytes between neighbouring atoms of a canonical smem tile (PTX 9.7.16.4.1, the canonical
/// layouts; CuTe's `tile_to_shape` order), derived here from the record's configuration alone.
struct Canonical {
    lbo: u32,
    sbo: u32,
    /// The tile has one atom along the offset that LBO (or SBO) steps over, so the MMA never uses it.
    lbo_unused: bool,
    sbo_unused: bool,
    /// Byte offset of K-block `k_block` from the tile's start.
    k_block_offset: u32,
}

fn canonical(r: &Rec) -> Canonical {
    let swizzle = Swizzle::from_name(r.str("swizzle")).expect("swizzle name");
    let bits = r.num("elem_bits") as u32;
    let k_major = match r.str("major") {
        "k" => true,
        "mn" => false,
        m => panic!("line {}: major {m}", r.line),
    };
    let k_first = match r.str("order") {
        "k_first" => true,
        "mn_first" => false,
        o => panic!("line {}: order {o}", r.line),
    };
    let tile = r.v["tile"].as_array().expect("tile");
    let (mn, k) = (
        tile[0].as_u64().expect("tile MN") as u32,
        tile[1].as_u64().expect("tile K") as u32,
    );
    let w = swizzle.width_bytes();
    // Atom extents in elements: K-major = 8 rows of one swizzle width of K; MN-major = one swizzle
    // width of MN by 8 (4 with 32-byte atomicity) of K.
    let (atom_mn, atom_k) = if k_major {
        (8, w * 8 / bits)
    } else {
        (w * 8 / bits, swizzle.atom_bytes() / w)
    };
    assert_eq!(atom_mn * atom_k * bits / 8, swizzle.atom_bytes());
    assert!(
        mn % atom_mn == 0 && k % atom_k == 0,
        "line {}: tile",
        r.line
    );
    let (n_mn, n_k) = (mn / atom_mn, k / atom_k);
    let atom = swizzle.atom_bytes();
    let (step_mn, step_k) = if k_first {
        (n_k * atom, atom)
    } else {
        (atom, n_mn * atom)
    };
    let kpb = r.num("k_per_block") as u32;
    let kk = r.num("k_block") as u32 * kpb;
    let inner = if k_major { (kk % atom_k) * bits / 8 } else { 0 };
    let k_block_offset = (kk / atom_k) * step_k + inner;
    // LBO/SBO per PTX's canonical layouts: no swizzle: LBO steps along K, SBO along MN (K-major and
    // MN-major alike); swizzled K-major: SBO steps along MN, LBO unused (16 bytes, R6); swizzled
    // MN-major: LBO steps along MN, SBO along K.
    let (lbo, sbo, lbo_unused, sbo_unused) = match (k_major, swizzle.is_swizzled()) {
        (_, false) => (step_k, step_mn, false, n_mn == 1),
        (true, true) => (16, step_mn, false, n_mn == 1),
        (false, true) => (step_mn, step_k, n_mn == 1, false),
    };
    Canonical {
        lbo,
        sbo,
        lbo_unused,
        sbo_unused,
        k_block_offset,
    }
}

#[test]
fn smem_records_agree_with_the_canonical_layouts_and_our_codec() {
    let mut n = 0;
    let mut differences = 0;
    for r in records().iter().filter(|r| r.desc() == "smem") {
        n += 1;
        let line = r.line;
        // The configuration is self-consistent: storage bits and K per MMA (256 bits of K).
        let ty = ElementType::from_name(r.str("type")).expect("type name");
        let bits = r.num("elem_bits");
        match r.opt_str("kind") {
            None => assert_eq!(u64::from(ty.bits()), bits, "line {line}"),
            Some("f8f6f4") => assert!(ty.is_sub_byte() && bits == 8, "line {line}"),
            Some("mxf4") => assert!(ty.is_sub_byte() && bits == 4, "line {line}"),
            Some(k) => panic!("line {line}: kind {k}"),
        }
        assert_eq!(r.num("k_per_block") * bits, 256, "line {line}");
        let swizzle = Swizzle::from_name(r.str("swizzle")).expect("swizzle");
        let hex = r.hex("hex");
        let start = r.hex("start") as u32;
        let c = canonical(r);

        // Our decoder accepts CUTLASS's value and recovers the configuration's fields.
        let back = SmemDescriptor::decode(hex, Target::Sm100a);
        assert!(
            back.diagnostics.is_empty(),
            "line {line}: {:?}",
            back.diagnostics
        );
        let f = back.fields;
        assert_eq!(f.swizzle, swizzle, "line {line}");
        assert_eq!(f.start_address, start + c.k_block_offset, "line {line}");
        // DIFFERENCES.md D6: CUTLASS always writes base offset 0. Every tile starts on its swizzle
        // repeat, where R4 gives 0 too.
        assert_eq!(f.base_offset, 0, "line {line}");
        assert_eq!(base_offset_for(start, swizzle), Ok(0), "line {line}: R4");
        assert_eq!(f.lbo_mode, LboMode::Relative, "line {line}");
        let (mut lbo, mut sbo) = (c.lbo, c.sbo);
        match r.difference() {
            None => {}
            // DIFFERENCES.md D5: CUTLASS writes 0 into an offset the tile never steps over.
            Some("unused_lbo_zero") => {
                assert!(c.lbo_unused, "line {line}: LBO is used here");
                lbo = 0;
                differences += 1;
            }
            Some("unused_sbo_zero") => {
                assert!(c.sbo_unused, "line {line}: SBO is used here");
                sbo = 0;
                differences += 1;
            }
            Some(d) => panic!("line {line}: unknown difference {d}"),
        }
        assert_eq!(f.leading_byte_offset, lbo, "line {line}: LBO");
        assert_eq!(f.stride_byte_offset, sbo, "line {line}: SBO");

        // Our encoder writes CUTLASS's bits from the layout-derived fields.
        let fields = SmemFields::new(start + c.k_block_offset, lbo, sbo, swizzle);
        let ours = SmemDescriptor::try_new(fields, Target::Sm100a)
            .unwrap_or_else(|e| panic!("line {line}: {fields:?} refused: {e}"));
        assert_eq!(ours.bits(), hex, "line {line}: ours {:#018x}", ours.bits());
    }
    assert!(n >= 10_000, "only {n} smem records");
    assert!(
        differences > 0,
        "no smem record exercises DIFFERENCES.md D5"
    );
}

/// DIFFERENCES.md D2, D7, D8: shapes Table 39 allows that CUTLASS's MMA atoms reject with a
/// `static_assert` (so no CUTLASS value exists for them): our shape check accepts each.
#[test]
fn shapes_cutlass_atoms_reject_at_compile_time_are_valid_ptx() {
    use ElementType::{E4m3, F32, S32, S8};
    let cases = [
        // SM100_MMA_S8_SS: N == 8 || N % 16 == 0; Table 39 lists i8 N = 24 (R14).
        (
            IdescFields::new(Kind::I8, S32, S8, S8, 128, 24),
            CtaGroup::One,
        ),
        (
            IdescFields::new(Kind::I8, S32, S8, S8, 64, 24),
            CtaGroup::One,
        ),
        // SM100_MMA_MXF8F6F4_2x1SM_SS: M == 256; Table 39 lists dense mxf8f6f4 M = 128 with
        // cta_group::2.
        (
            IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 128),
            CtaGroup::Two,
        ),
        // SM100_MMA_F8F6F4_SS_SPARSE: N % 16 == 0 for M = 128; Table 39: steps of 8.
        (
            IdescFields::new(Kind::F8f6f4, F32, E4m3, E4m3, 128, 24).with_sparse(true, 0),
            CtaGroup::One,
        ),
        // SM100_MMA_F8F6F4_2x1SM_SS_SPARSE: N % 32 == 0; Table 39: steps of 16.
        (
            IdescFields::new(Kind::F8f6f4, F32, E4m3, E4m3, 256, 48).with_sparse(true, 0),
            CtaGroup::Two,
        ),
    ];
    for (f, cta_group) in cases {
        let c = MmaConfig {
            cta_group,
            ..MmaConfig::new(f)
        };
        let problems = validate_mma(&c);
        assert!(!problems.has_errors(), "{f:?} {cta_group:?}: {problems:?}");
        assert!(InstructionDescriptor::try_new(f).is_ok(), "{f:?}");
    }
    // Where both agree a shape is wrong, ours says so too (i8 N = 40 is in neither).
    let n40 = IdescFields::new(Kind::I8, S32, S8, S8, 128, 40);
    assert!(validate_mma(&MmaConfig::new(n40)).has_errors());
}

/// DIFFERENCES.md D9: CUTLASS's `DescriptorIterator` adds to the low 32 bits unmasked, so an advance
/// past the 14-bit start-address field carries into reserved bit 14. Our checked advance refuses it
/// (R7), our unchecked one wraps inside the field, and our decoder rejects the carried value (R2).
#[test]
fn k_advance_past_the_address_field_is_refused_not_carried() {
    let base = SmemDescriptor::new(
        SmemFields::new(0x3fff0, 16, 1024, Swizzle::B128),
        Target::Sm100a,
    );
    assert!(matches!(
        base.advance_k(16),
        Err(SmemError::AdvanceOverflow { .. })
    ));
    assert_eq!(base.advance_k_unchecked(16).start_address(), 0);
    let cutlass_style = base.bits() + 1; // ret.lo = desc_.lo + 1
    assert_ne!(cutlass_style & (1 << 14), 0);
    assert!(SmemDescriptor::from_bits(cutlass_style, Target::Sm100a).is_err());
}

fn idesc_fields(r: &Rec) -> IdescFields {
    let kind = Kind::from_name(r.str("kind")).expect("kind");
    let mut f = IdescFields::new(
        kind,
        r.ty("d_type"),
        r.ty("a_type"),
        r.ty("b_type"),
        r.num("m") as u16,
        r.num("n") as u16,
    )
    .with_transpose(r.flag("transpose_a"), r.flag("transpose_b"))
    .with_negate(r.flag("negate_a"), r.flag("negate_b"))
    .with_saturate(r.flag("saturate"))
    .with_sparse(r.flag("sparse"), r.num("sparsity_selector") as u8)
    .with_max_shift(MaxShift::from_rows(r.num("max_shift")).expect("max shift in rows"))
    .with_k96(r.flag("k96"));
    match r.opt_str("scale_type") {
        Some(s) => {
            f = f.with_scale(
                ScaleType::from_name(s).expect("scale type"),
                r.num("sfa_id") as u8,
                r.num("sfb_id") as u8,
            );
        }
        None => assert!(!kind.is_block_scaled(), "line {}: no scale type", r.line),
    }
    f
}

#[test]
fn instruction_descriptors_match_cutlass() {
    let (mut n, mut n24, mut m64) = (0, 0, 0);
    for r in records().iter().filter(|r| r.desc() == "idesc") {
        n += 1;
        let line = r.line;
        let f = idesc_fields(r);
        let hex = r.hex("hex");
        assert!(hex <= u64::from(u32::MAX), "line {line}: 32-bit value");
        let hex = hex as u32;
        match r.difference() {
            None | Some("i8_n24_atom_rejects") => {
                let ours = InstructionDescriptor::try_new(f)
                    .unwrap_or_else(|e| panic!("line {line}: {f:?} refused: {e}"));
                assert_eq!(ours.bits(), hex, "line {line}: ours {:#010x}", ours.bits());
                let back = InstructionDescriptor::decode(hex, f.kind);
                assert!(
                    back.diagnostics.is_empty(),
                    "line {line}: {:?}",
                    back.diagnostics
                );
                assert_eq!(back.fields, Some(f), "line {line}");
                if r.difference().is_some() {
                    // DIFFERENCES.md D2: Table 39 allows i8 N = 24 with cta_group::1 (R14); CUTLASS's
                    // SM100_MMA_S8_SS static_asserts it away. Our shape check accepts it.
                    assert!(f.kind == Kind::I8 && f.n == 24, "line {line}");
                    let shape = IdescFields::new(f.kind, f.d_type, f.a_type, f.b_type, f.m, f.n);
                    let problems = validate_mma(&MmaConfig::new(shape));
                    assert!(!problems.has_errors(), "line {line}: {problems:?}");
                    n24 += 1;
                }
            }
            Some("block_scaled_m_field") => {
                // DIFFERENCES.md D1: CUTLASS writes M >> 4 at bit 24 in Tables 43/44, PTX M >> 7 at
                // bit 27. For M = 64 (no block-scaled shape in PTX) CUTLASS sets reserved bit 26.
                assert!(f.kind.is_block_scaled() && f.m == 64, "line {line}");
                assert!(
                    f.validate().iter().any(|e| matches!(
                        e,
                        IdescError::MNotEncodable { m: 64, .. }
                            | IdescError::MNotInTable39 { m: 64, .. }
                    )),
                    "line {line}: M = 64 accepted"
                );
                assert_eq!(
                    (hex >> 24) & 0x1f,
                    64 >> 4,
                    "line {line}: CUTLASS's M field"
                );
                let back = InstructionDescriptor::decode(hex, f.kind);
                assert!(
                    back.diagnostics
                        .iter()
                        .any(|e| matches!(e, IdescError::ReservedBit { bit: 26, .. })),
                    "line {line}: {:?}",
                    back.diagnostics
                );
                // Everything but the M field is where PTX puts it: with M = 128 both agree.
                let f128 = IdescFields { m: 128, ..f };
                let ours = InstructionDescriptor::new(f128).bits();
                assert_eq!(ours & !(0x1f << 24), hex & !(0x1f << 24), "line {line}");
                m64 += 1;
            }
            Some(d) => panic!("line {line}: unknown difference {d}"),
        }
    }
    assert!(n >= 20_000, "only {n} idesc records");
    assert!(n24 > 0 && m64 > 0, "differences D1/D2 not exercised");
}

#[test]
fn k_advance_matches_cutlass_descriptor_iterator() {
    let mut n = 0;
    for r in records().iter().filter(|r| r.desc() == "smem_advance") {
        n += 1;
        let base = SmemDescriptor::from_bits(r.hex("base"), Target::Sm100a)
            .unwrap_or_else(|e| panic!("line {}: base refused: {e}", r.line));
        let bytes = r.num("bytes") as u32;
        let want = r.hex("hex");
        assert_eq!(
            base.advance_k(bytes).map(SmemDescriptor::bits),
            Ok(want),
            "line {}",
            r.line
        );
        assert_eq!(
            base.advance_k_unchecked(bytes).bits(),
            want,
            "line {}",
            r.line
        );
    }
    assert!(n >= 20, "only {n} smem_advance records");
}

#[test]
fn zero_column_masks_match_cutlass() {
    let (mut n, mut inverted) = (0, 0);
    for r in records().iter().filter(|r| r.desc() == "zmask") {
        n += 1;
        let line = r.line;
        let fields = ZmaskFields {
            start_count: r.list4("start_count"),
            first_span: r.list4("first_span").map(|b| b == 1),
            non_zero_mask: r.num("non_zero_mask") == 1,
            skip_span: r.num("skip_span") as u8,
            use_span: r.num("use_span") as u8,
            column_shift: r.num("column_shift") as u8,
        };
        let hex = r.hex("hex");
        let d = ZeroColumnMask::try_new(fields)
            .unwrap_or_else(|e| panic!("line {line}: {fields:?} refused: {e}"));
        assert_eq!(d.bits(), hex, "line {line}: ours {:#018x}", d.bits());
        let back = ZeroColumnMask::decode(hex);
        assert!(
            back.diagnostics.is_empty(),
            "line {line}: {:?}",
            back.diagnostics
        );
        assert_eq!(back.fields, fields, "line {line}");
        match r.difference() {
            None => {}
            Some("nzm_comment_inverted") => {
                // DIFFERENCES.md D4: CUTLASS's comment says non-zero-mask 0 enables the mask; its conv
                // helper sets 1 where columns may need zeroing, PTX's meaning (Table 45, R21). That
                // the masks it generates zero the right columns is conv_helper_masks_zero_the_padding_columns.
                assert!(fields.non_zero_mask, "line {line}");
                let (m, nn) = (r.num("cta_m") as u16, r.num("cta_n") as u16);
                d.column_mask(m, nn)
                    .unwrap_or_else(|e| panic!("line {line}: column mask: {e}"));
                inverted += 1;
            }
            Some(d) => panic!("line {line}: unknown difference {d}"),
        }
    }
    assert!(n >= 3_700, "only {n} zmask records");
    assert!(inverted > 0, "difference D4 not exercised");
}

/// The masks of CUTLASS's conv helper (`make_column_zero_mask`, every CTA tile it accepts: M 32,
/// 64, 128 x N 64, 128, 256, with seeded row lengths, positions and paddings) zero exactly the
/// columns the convolution's padding asks for: output pixel `j` of the CTA is row position
/// `p = (cta_coord_q * N + j) mod conv_q`, tap `s` reads input `p + s - skip_left`, and a column
/// is zeroed when that input lies outside `0..conv_q`. The expectation is the convolution's own
/// geometry (CUTLASS's comment in mma_sm100_desc.hpp), not the encoder: this checks the model's
/// `column_mask` (skip and use spans, first spans, start counts, the sub-masks of M = 32 and 64)
/// on masks it did not write.
#[test]
fn conv_helper_masks_zero_the_padding_columns() {
    let (mut n, mut zeroed, mut kept) = (0, 0u32, 0u32);
    let mut shapes = std::collections::BTreeSet::new();
    for r in records()
        .iter()
        .filter(|r| r.desc() == "zmask" && r.str("source") == "make_column_zero_mask")
    {
        let line = r.line;
        let (m, nn) = (r.num("cta_m") as u16, r.num("cta_n") as u16);
        let (q, c, skip, tap) = (
            r.num("conv_q") as i64,
            r.num("cta_coord_q") as i64,
            r.num("skip_left") as i64,
            r.num("tap") as i64,
        );
        let fields = ZeroColumnMask::decode(r.hex("hex")).fields;
        let mask = ZeroColumnMask::try_new(fields)
            .and_then(|z| z.column_mask(m, nn))
            .unwrap_or_else(|e| panic!("line {line}: {e}"));
        for j in 0..nn {
            let p = (c * i64::from(nn) + i64::from(j)) % q;
            let input = p + tap - skip;
            let want = input < 0 || input >= q;
            assert_eq!(
                mask.bit(j),
                want,
                "line {line}: M {m} N {nn} conv_q {q} position {c} padding {skip} tap {tap}: column {j}"
            );
            if want {
                zeroed += 1;
            } else {
                kept += 1;
            }
        }
        shapes.insert((m, nn));
        n += 1;
    }
    println!(
        "conv helper: {n} masks, {zeroed} columns zeroed, {kept} kept, {} shapes",
        shapes.len()
    );
    assert_eq!(shapes.len(), 9, "{shapes:?}");
    assert!(
        n >= 1_700 && zeroed > 1_000 && kept > 100_000,
        "{n} {zeroed} {kept}"
    );
}

#[test]
fn the_vector_file_covers_every_descriptor_kind_and_layout() {
    let all = records();
    assert!(all.len() >= 20_000, "only {} records", all.len());
    for kind in Kind::ALL {
        assert!(
            all.iter()
                .any(|r| r.desc() == "idesc" && r.str("kind") == kind.name()),
            "no CUTLASS record for .kind::{kind}"
        );
    }
    for major in ["k", "mn"] {
        for order in ["mn_first", "k_first"] {
            for swizzle in Swizzle::ALL {
                let legal_mn_tf32 = major == "mn" && swizzle == Swizzle::B128Base32B;
                let some = all.iter().any(|r| {
                    r.desc() == "smem"
                        && r.str("major") == major
                        && r.str("order") == order
                        && r.str("swizzle") == swizzle.name()
                });
                // 128B_base32B is MN-major only (R18).
                assert_eq!(
                    some,
                    swizzle != Swizzle::B128Base32B || legal_mn_tf32,
                    "{major}-major {order} {swizzle}"
                );
            }
        }
    }
    for bits in [4, 8, 16, 32] {
        assert!(
            all.iter()
                .any(|r| r.desc() == "smem" && r.num("elem_bits") == bits),
            "no {bits}-bit smem record"
        );
    }
}
