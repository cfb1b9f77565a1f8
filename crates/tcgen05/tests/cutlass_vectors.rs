//! Conformance with NVIDIA CUTLASS: every vector in `conformance/vectors/cutlass.txt` (computed by
//! CUTLASS 4.2.0's own headers, see `conformance/cutlass/`) must encode from its fields to
//! CUTLASS's bits and decode back to the same fields without a problem.

use std::collections::HashMap;

use tcgen05::instruction_descriptor::{IdescFields, InstructionDescriptor};
use tcgen05::shared_memory_descriptor::{LboMode, SmemDescriptor, SmemFields, Swizzle};
use tcgen05::zero_column_mask::{ZeroColumnMask, ZmaskFields};
use tcgen05::{ElementType, Kind, MaxShift, ScaleType, Target};

const VECTORS: &str = include_str!("../../../conformance/vectors/cutlass.txt");

struct Vector<'a> {
    line: usize,
    desc: &'a str,
    keys: HashMap<&'a str, &'a str>,
    expected: u64,
}

fn number(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|e| panic!("bad number {s:?}: {e}"))
}

fn vectors() -> Vec<Vector<'static>> {
    VECTORS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (lhs, hex) = l.split_once(" -> ").expect("a vector line has ' -> '");
            let mut words = lhs.split_whitespace();
            let desc = words.next().expect("descriptor name");
            let keys = words
                .map(|w| w.split_once('=').expect("key=value"))
                .collect();
            Vector {
                line: i + 1,
                desc,
                keys,
                expected: number(hex),
            }
        })
        .collect()
}

impl Vector<'_> {
    fn get(&self, k: &str) -> &str {
        self.keys
            .get(k)
            .unwrap_or_else(|| panic!("line {}: no key {k}", self.line))
    }
    fn num(&self, k: &str) -> u64 {
        number(self.get(k))
    }
    fn flag(&self, k: &str) -> bool {
        self.num(k) == 1
    }
    fn list(&self, k: &str) -> Vec<u64> {
        self.get(k).split(',').map(number).collect()
    }
    fn ty(&self, k: &str) -> ElementType {
        ElementType::from_name(self.get(k))
            .unwrap_or_else(|| panic!("line {}: unknown type", self.line))
    }
}

fn idesc_fields(v: &Vector) -> IdescFields {
    let kind = Kind::from_name(v.get("kind")).expect("kind");
    let mut f = IdescFields::new(
        kind,
        v.ty("d_type"),
        v.ty("a_type"),
        v.ty("b_type"),
        v.num("m") as u16,
        v.num("n") as u16,
    )
    .with_transpose(v.flag("transpose_a"), v.flag("transpose_b"))
    .with_negate(v.flag("negate_a"), v.flag("negate_b"))
    .with_saturate(v.flag("saturate"))
    .with_sparse(v.flag("sparse"), 0)
    .with_max_shift(MaxShift::from_rows(v.num("max_shift")).expect("max shift in rows"));
    if kind.is_block_scaled() {
        f = f.with_scale(
            ScaleType::from_name(v.get("scale_type")).expect("scale type"),
            v.num("sfa_id") as u8,
            v.num("sfb_id") as u8,
        );
    }
    f
}

#[test]
fn the_vector_file_covers_every_descriptor() {
    let all = vectors();
    for (desc, at_least) in [
        ("idesc", 300),
        ("smem", 100),
        ("smem_advance", 10),
        ("zmask", 30),
    ] {
        let n = all.iter().filter(|v| v.desc == desc).count();
        assert!(n >= at_least, "{desc}: only {n} vectors");
    }
    for kind in Kind::ALL {
        assert!(
            all.iter()
                .any(|v| v.desc == "idesc" && v.get("kind") == kind.name()),
            "no CUTLASS vector for .kind::{kind}"
        );
    }
}

#[test]
fn instruction_descriptors_match_cutlass() {
    for v in vectors().iter().filter(|v| v.desc == "idesc") {
        let f = idesc_fields(v);
        let d = InstructionDescriptor::try_new(f)
            .unwrap_or_else(|e| panic!("line {}: {f:?} refused: {e}", v.line));
        assert_eq!(
            u64::from(d.bits()),
            v.expected,
            "line {}: ours {:#010x}",
            v.line,
            d.bits()
        );
        let back = InstructionDescriptor::decode(v.expected as u32, f.kind);
        assert!(
            back.diagnostics.is_empty(),
            "line {}: {:?}",
            v.line,
            back.diagnostics
        );
        assert_eq!(back.fields, Some(f), "line {}", v.line);
    }
}

#[test]
fn shared_memory_descriptors_match_cutlass() {
    for v in vectors().iter().filter(|v| v.desc == "smem") {
        let fields = SmemFields::new(
            v.num("start_address") as u32,
            v.num("leading_byte_offset") as u32,
            v.num("stride_byte_offset") as u32,
            Swizzle::from_name(v.get("swizzle")).expect("swizzle"),
        )
        .with_base_offset(v.num("base_offset") as u8)
        .with_lbo_mode(LboMode::from_code(v.num("lbo_mode") as u8).expect("lbo mode"));
        let d = SmemDescriptor::try_new(fields, Target::Sm100a)
            .unwrap_or_else(|e| panic!("line {}: {fields:?} refused: {e}", v.line));
        assert_eq!(
            d.bits(),
            v.expected,
            "line {}: ours {:#018x}",
            v.line,
            d.bits()
        );
        let back = SmemDescriptor::decode(v.expected, Target::Sm100a);
        assert!(
            back.diagnostics.is_empty(),
            "line {}: {:?}",
            v.line,
            back.diagnostics
        );
        assert_eq!(back.fields, fields, "line {}", v.line);
    }
}

#[test]
fn k_advance_matches_cutlass_descriptor_iterator() {
    for v in vectors().iter().filter(|v| v.desc == "smem_advance") {
        let base = SmemDescriptor::from_bits(v.num("base"), Target::Sm100a)
            .unwrap_or_else(|e| panic!("line {}: base refused: {e}", v.line));
        let bytes = v.num("bytes") as u32;
        assert_eq!(
            base.advance_k(bytes).map(SmemDescriptor::bits),
            Ok(v.expected),
            "line {}",
            v.line
        );
        assert_eq!(
            base.advance_k_unchecked(bytes).bits(),
            v.expected,
            "line {}",
            v.line
        );
    }
}

#[test]
fn zero_column_masks_match_cutlass() {
    for v in vectors().iter().filter(|v| v.desc == "zmask") {
        let sc = v.list("start_count");
        let fs = v.list("first_span");
        let fields = ZmaskFields {
            start_count: [0, 1, 2, 3].map(|i| sc[i] as u8),
            first_span: [0, 1, 2, 3].map(|i| fs[i] == 1),
            non_zero_mask: v.flag("non_zero_mask"),
            skip_span: v.num("skip_span") as u8,
            use_span: v.num("use_span") as u8,
            column_shift: v.num("column_shift") as u8,
        };
        let d = ZeroColumnMask::try_new(fields)
            .unwrap_or_else(|e| panic!("line {}: {fields:?} refused: {e}", v.line));
        assert_eq!(
            d.bits(),
            v.expected,
            "line {}: ours {:#018x}",
            v.line,
            d.bits()
        );
        let back = ZeroColumnMask::decode(v.expected);
        assert!(
            back.diagnostics.is_empty(),
            "line {}: {:?}",
            v.line,
            back.diagnostics
        );
        assert_eq!(back.fields, fields, "line {}", v.line);
    }
}
