//! Conformance with NVIDIA CUTLASS 4.2.0: every record of `conformance/vectors/cutlass-4.2.0.jsonl`
//! (computed by CUTLASS's own headers, see `conformance/cutlass/`) must agree with our encoders and
//! decoders, or differ exactly as its `"difference"` key and `conformance/DIFFERENCES.md` say.

use serde_json::Value;

use tcgen05::shared_memory_descriptor::{LboMode, SmemDescriptor, SmemFields, Swizzle};
use tcgen05::{ElementType, Target};

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
        assert_eq!(
            f.base_offset, 0,
            "line {line}: tiles start on a swizzle repeat (R4)"
        );
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
