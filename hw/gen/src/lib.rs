//! Cases that prove the shared-memory layout model ([`tcgen05::canonical_layout`]) on Hopper
//! tensor cores (issue 6, part 5).
//!
//! Hopper's `wgmma` reads shared memory through the same canonical layouts as `tcgen05.mma`
//! (PTX ISA 9.7.15.5.1.2 and 9.7.16.3.3); only its descriptor's fixed bits and swizzle field
//! differ (`spec/oracles.md` §3, [`hopper_descriptor`]). Each [`Case`] gives, for both operands
//! of one `wgmma.mma_async`, the descriptor and the byte address of every element as the model
//! computes it. The CUDA harness `hw/wgmma/harness.cu` places distinct values at those addresses,
//! runs `wgmma` on an H100 and compares D with a CPU product; it also reads back which element
//! slot the tensor core fetched for each `(mn, k)` and compares it with the model's address.
//!
//! Deliberately wrong descriptors (data placed for the right one, `wgmma` given a wrong one:
//! start off by one core matrix, LBO and SBO swapped, another swizzle, another base offset) must
//! give a wrong product, and the tensor core must fetch what the model says the wrong
//! descriptor reads.
//!
//! [`render_cases`] writes the case file (`hw/cases/wgmma.txt`), [`render_ops`] the CUDA wrappers
//! of the `wgmma` shapes the cases use (`hw/wgmma/wgmma_ops.cuh`), and [`parse_results`] reads
//! the harness output (`hw/results/`). [`tma`] does the same for the tensor-copy placement model
//! on Hopper's TMA, and [`e2e`] for its agreement check with the TMA writing and `wgmma` reading.

pub mod e2e;
pub mod tma;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use tcgen05::canonical_layout::{
    AtomOrder, BaseOffsetReading, ElementStorage, MatrixLayout, Operand, SwizzleAnchor, TileLayout,
};
use tcgen05::shared_memory_descriptor::{base_offset_for, SmemDescriptor, SmemFields, Swizzle};
use tcgen05::{ElementType, Major, Target};

/// The shared-memory byte address the case file's window starts at: dynamic shared memory of
/// a kernel without static shared memory starts after the 1 KiB the system reserves per block on
/// sm_90, and the harness places the window here (or reports where it put it).
pub const WINDOW_BASE: u32 = 0x400;
/// Bytes of the window (the harness asks for this much dynamic shared memory, plus alignment).
pub const WINDOW_SIZE: u32 = 0x2_0000;
/// Where operand A's region starts (1024-byte aligned, so every swizzle pattern starts there).
pub const REGION_A: u32 = WINDOW_BASE + 0x2000;
/// Where operand B's region starts.
pub const REGION_B: u32 = WINDOW_BASE + 0x1_0000;
/// M of every `wgmma` (the only M Hopper has).
pub const M: u32 = 64;
/// N of the B operand in cases whose operand under test is A (>= every K, so the probe's 0/1
/// selector can pick each k).
pub const N_FOR_A_CASES: u32 = 32;

/// The header line of the case file format the harness reads.
pub const FORMAT_LINE: &str = "format tcgen05-wgmma-cases 1";

/// The descriptor target used to build tcgen05 descriptors (any Blackwell target encodes the
/// fields below alike; relative leading-dimension mode is allowed everywhere).
const TARGET: Target = Target::Sm100a;

/// An element type `wgmma` takes from shared memory (PTX ISA 9.7.15.5, wgmma types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WgmmaType {
    /// `.f16`, K = 16, may be MN-major.
    F16,
    /// `.bf16`, K = 16, may be MN-major.
    Bf16,
    /// `.tf32`, K = 8, K-major only.
    Tf32,
    /// `.e4m3`, K = 32, K-major only.
    E4m3,
    /// `.s8`, K = 32, K-major only.
    S8,
}

impl WgmmaType {
    /// Every type the cases cover.
    pub const ALL: [WgmmaType; 5] = [
        WgmmaType::F16,
        WgmmaType::Bf16,
        WgmmaType::Tf32,
        WgmmaType::E4m3,
        WgmmaType::S8,
    ];

    /// The PTX type name (also the case file's).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            WgmmaType::F16 => "f16",
            WgmmaType::Bf16 => "bf16",
            WgmmaType::Tf32 => "tf32",
            WgmmaType::E4m3 => "e4m3",
            WgmmaType::S8 => "s8",
        }
    }

    /// The crate's element type.
    #[must_use]
    pub const fn element(self) -> ElementType {
        match self {
            WgmmaType::F16 => ElementType::F16,
            WgmmaType::Bf16 => ElementType::Bf16,
            WgmmaType::Tf32 => ElementType::Tf32,
            WgmmaType::E4m3 => ElementType::E4m3,
            WgmmaType::S8 => ElementType::S8,
        }
    }

    /// Bytes per element.
    #[must_use]
    pub const fn bytes(self) -> u32 {
        match self {
            WgmmaType::F16 | WgmmaType::Bf16 => 2,
            WgmmaType::Tf32 => 4,
            WgmmaType::E4m3 | WgmmaType::S8 => 1,
        }
    }

    /// The instruction's K: 32 bytes of each row (m64nNk16, m64nNk8, m64nNk32).
    #[must_use]
    pub const fn k(self) -> u32 {
        32 / self.bytes()
    }

    /// Only f16 and bf16 may be MN-major ("transposed") in `wgmma` (PTX ISA 9.7.15.5,
    /// `imm-trans-a`/`imm-trans-b`; oracles.md §3).
    #[must_use]
    pub const fn allows_mn_major(self) -> bool {
        matches!(self, WgmmaType::F16 | WgmmaType::Bf16)
    }

    /// Valid N of `wgmma` for this type: multiples of 8 up to 256; for s8, 8, 16, 24, then
    /// multiples of 16 (PTX ISA 9.7.15.5 shapes).
    #[must_use]
    pub const fn n_valid(self, n: u32) -> bool {
        if n < 8 || n > 256 || n % 8 != 0 {
            return false;
        }
        match self {
            WgmmaType::S8 => n <= 24 || n % 16 == 0,
            _ => true,
        }
    }
}

/// Why a tcgen05 descriptor has no Hopper equivalent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TranslateError {
    /// 128-Byte swizzling with 32-byte atomicity (tcgen05 code 1): Hopper has no such mode.
    Base32BSwizzle,
    /// Leading-dimension byte address mode (bit 52): Hopper has only relative offsets.
    AbsoluteLbo,
}

impl std::fmt::Display for TranslateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TranslateError::Base32BSwizzle => {
                f.write_str("128-Byte swizzling with 32B atomicity has no wgmma layout type")
            }
            TranslateError::AbsoluteLbo => f.write_str(
                "the leading dimension byte address (absolute) mode has no wgmma equivalent",
            ),
        }
    }
}

/// The Hopper `wgmma` descriptor with the same fields (PTX ISA 9.7.15.5.1.2.2; oracles.md §3):
/// start address, LBO, SBO (bits 0-13, 16-29, 32-45) and base offset (49-51) as in tcgen05;
/// no fixed bits at 46-48; layout type in bits 62-63 (0 none, 1 128B, 2 64B, 3 32B), which is
/// tcgen05's 3-bit code at 61-63 halved, so the bits at 62-63 carry over unchanged.
///
/// # Errors
/// [`TranslateError`] for the two tcgen05 features Hopper lacks.
pub fn hopper_descriptor(desc: SmemDescriptor) -> Result<u64, TranslateError> {
    let f = desc.fields();
    if f.swizzle == Swizzle::B128Base32B {
        return Err(TranslateError::Base32BSwizzle);
    }
    if f.lbo_mode != tcgen05::shared_memory_descriptor::LboMode::Relative {
        return Err(TranslateError::AbsoluteLbo);
    }
    let layout_type: u64 = match f.swizzle {
        Swizzle::None => 0,
        Swizzle::B128 => 1,
        Swizzle::B64 => 2,
        Swizzle::B32 => 3,
        Swizzle::B128Base32B => return Err(TranslateError::Base32BSwizzle),
    };
    Ok(u64::from(f.start_address >> 4)
        | u64::from(f.leading_byte_offset >> 4) << 16
        | u64::from(f.stride_byte_offset >> 4) << 32
        | u64::from(f.base_offset) << 49
        | layout_type << 62)
}

/// Operand A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Which {
    /// A: M x K.
    A,
    /// B: N x K.
    B,
}

impl Which {
    /// `"a"` or `"b"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Which::A => "a",
            Which::B => "b",
        }
    }
}

/// One operand of a case: the descriptor given to `wgmma`, where the data is placed, and where
/// the model says `wgmma` reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperandCase {
    /// K- or MN-major (`imm-trans` 0 or 1).
    pub major: Major,
    /// The descriptor given to `wgmma` (tcgen05 form).
    pub desc: SmemDescriptor,
    /// Byte address of each element `(mn, k)` at index `mn * K + k`, from the model for the
    /// descriptor the data was laid out for.
    pub place: Vec<u32>,
    /// Byte address of each element the model says `wgmma` reads with [`OperandCase::desc`].
    pub read: Vec<u32>,
}

/// One `wgmma` run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Unique name: `operand-type-major-swizzle-variant`.
    pub name: String,
    /// Element type of both operands.
    pub ty: WgmmaType,
    /// N of the instruction.
    pub n: u32,
    /// The operand the case is about (distinct values, probe target, wrong descriptor).
    pub under: Which,
    /// Whether the product must match (false: a deliberately wrong descriptor).
    pub expect_match: bool,
    /// Operand A (64 x K).
    pub a: OperandCase,
    /// Operand B (N x K).
    pub b: OperandCase,
}

/// An operand layout: extent and descriptor fields, checked by the model.
fn layout(
    ty: WgmmaType,
    major: Major,
    mn: u32,
    fields: SmemFields,
) -> Result<MatrixLayout, String> {
    let storage = ElementStorage::of(ty.element(), None).map_err(|e| e.to_string())?;
    let op = Operand::new(storage, major, mn, ty.k());
    MatrixLayout::from_fields(fields, op).map_err(|e| e.to_string())
}

/// Every element's byte address, index `mn * K + k`; errors when the model reports an overlap
/// or an element outside `buffer`.
fn addresses(l: &MatrixLayout, buffer: std::ops::Range<u32>) -> Result<Vec<u32>, String> {
    let problems = l.check(Some(buffer)).map_err(|e| e.to_string())?;
    if let Some(p) = problems.first() {
        return Err(p.to_string());
    }
    let locs = l.locations().map_err(|e| e.to_string())?;
    Ok(locs.iter().map(|loc| loc.address).collect())
}

fn descriptor(fields: SmemFields) -> Result<SmemDescriptor, String> {
    SmemDescriptor::try_new(fields, TARGET).map_err(|e| e.to_string())
}

/// Swizzle names as the case names spell them.
fn swizzle_name(s: Swizzle) -> &'static str {
    s.name()
}

fn major_name(m: Major) -> &'static str {
    match m {
        Major::K => "k",
        Major::Mn => "mn",
    }
}

/// The swizzle modes `wgmma` has (all but 128B with 32B atomicity).
const SWIZZLES: [Swizzle; 4] = [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128];

/// One layout of the operand under test: a name and the fields, relative to its region.
struct Variant {
    name: &'static str,
    n: u32,
    fields: SmemFields,
}

/// The layouts tried for one type, major-ness and swizzle mode: default strides, the other
/// tiling order, padded or odd strides (atoms not on their repeat boundary), a start on a 128-byte
/// line that is not the pattern's repeat boundary with the base offset of Table 41 / R4, a K
/// advance inside a swizzle row (base offset 0, as CUTLASS steps K), and an LBO the K-major
/// swizzled layouts must ignore (R6).
fn variants(
    ty: WgmmaType,
    major: Major,
    swizzle: Swizzle,
    which: Which,
    region: u32,
) -> Vec<Variant> {
    let es = ty.bytes();
    let t = 16 / es; // elements per 16-byte chunk
    let w = swizzle.width_bytes();
    let atom = 8 * w; // bytes of one 8-row swizzle atom (128 without swizzling)
    let n_or = |n: u32| if which == Which::A { M } else { n };
    let k_groups = ty.k() / 8; // MN-major: groups of 8 K rows (f16/bf16: 2)
    let mut v = Vec::new();
    let mut push = |name: &'static str, n: u32, start: u32, lbo: u32, sbo: u32, base: u8| {
        let fields = SmemFields::new(start, lbo, sbo, swizzle).with_base_offset(base);
        v.push(Variant { name, n, fields });
    };
    let line_start = region + 0x180; // three 128-byte lines in: no pattern repeats there
    let line_base = base_offset_for(line_start, swizzle).unwrap_or(0);
    match (major, swizzle) {
        (Major::K, Swizzle::None) => {
            // Core matrix: 8 rows x 16 bytes = 128 bytes; LBO steps K chunks, SBO 8-row groups.
            let (n_def, n_alt, n_pad) = (64, 256, 24);
            push("kfirst", n_def, region, 128, 256, 0);
            let mn_alt = n_or(n_alt);
            push("mnfirst", n_alt, region, 128 * (mn_alt / 8), 128, 0);
            push("padded", n_pad, region, 144, 304, 0);
            push("line", n_def, line_start, 128, 256, 0);
        }
        (Major::K, _) => {
            // Rows of W bytes; LBO unused ("assumed 1", R6); SBO steps 8-row groups.
            push("default", 64, region, 16, atom, 0);
            push("gap", 256, region, 16, 2 * atom, 0);
            push("odd_sbo", 24, region, 16, atom + 128, 0);
            push("lbo_ignored", 64, region, 0x3a0, atom, 0);
            push("line", 64, line_start, 16, atom, line_base);
            if ty == WgmmaType::F16 && which == Which::A {
                line_sweep(&mut push, region, swizzle, 16, atom);
            }
            if w >= 64 {
                push("kadv", 64, region + w - 32, 16, atom, 0);
                push("line_kadv", 64, line_start + 32, 16, atom, line_base);
            }
        }
        (Major::Mn, Swizzle::None) => {
            // Core matrix: 8 K rows x 16 bytes (T elements along MN); SBO steps MN chunks,
            // LBO steps groups of 8 K rows.
            let (n_def, n_alt, n_pad) = (64, 256, 24);
            let mn_def = n_or(n_def);
            push("mnfirst", n_def, region, 128 * (mn_def / t), 128, 0);
            push("kfirst", n_alt, region, 128, 128 * k_groups, 0);
            let mn_pad = n_or(n_pad);
            push("padded", n_pad, region, 160 * (mn_pad / t) + 48, 160, 0);
            push("line", n_def, line_start, 128 * (mn_def / t), 128, 0);
        }
        (Major::Mn, _) => {
            // Atom: 8 K rows x W bytes (W / es elements along MN); LBO steps MN atoms, SBO
            // steps groups of 8 K rows.
            let atoms = |mn: u32| (mn * es).div_ceil(w);
            let mn_def = n_or(64);
            push("mnfirst", 64, region, atom, atom * atoms(mn_def), 0);
            push("kfirst", 256, region, atom * k_groups, atom, 0);
            let mn_odd = n_or(24);
            push(
                "odd",
                24,
                region,
                atom + 128,
                (atom + 128) * atoms(mn_odd) + 128,
                0,
            );
            push(
                "line",
                64,
                line_start,
                atom,
                atom * atoms(mn_def),
                line_base,
            );
            if ty == WgmmaType::F16 && which == Which::B {
                line_sweep(&mut push, region, swizzle, atom, atom * atoms(mn_def));
            }
        }
    }
    v
}

/// Starts on every 128-byte line of the first 1024 bytes that is not a repeat boundary of the
/// swizzle (the `line` variant already covers line 3), each with the base offset of Table 41 /
/// R4, so every base-offset value 1-7 the mode allows meets the hardware.
fn line_sweep(
    push: &mut impl FnMut(&'static str, u32, u32, u32, u32, u8),
    region: u32,
    swizzle: Swizzle,
    lbo: u32,
    sbo: u32,
) {
    const NAMES: [&str; 8] = [
        "line0", "line1", "line2", "line3", "line4", "line5", "line6", "line7",
    ];
    let Some(repeat) = swizzle.repeat_bytes() else {
        return;
    };
    for (j, name) in NAMES.iter().enumerate().skip(1) {
        let start = region + 128 * j as u32;
        if j == 3 || start % repeat == 0 {
            continue;
        }
        let base = base_offset_for(start, swizzle).unwrap_or(0);
        push(name, 64, start, lbo, sbo, base);
    }
}

/// The other operand of every case: K-major, no swizzle, core matrices K-first, at its region.
fn other_fields(region: u32) -> SmemFields {
    SmemFields::new(region, 128, 256, Swizzle::None)
}

/// The wrong descriptors tried against a correct layout `f`: start off by one core matrix
/// (128 bytes), LBO and SBO swapped, another swizzle mode, base offset 0 where the pattern
/// needs a non-zero one (the common bug), and another non-zero base offset.
fn wrong_fields(f: SmemFields) -> Vec<(&'static str, SmemFields)> {
    let mut v = vec![
        (
            "start_plus_core",
            SmemFields {
                start_address: f.start_address + 128,
                ..f
            },
        ),
        (
            "swap_lbo_sbo",
            SmemFields {
                leading_byte_offset: f.stride_byte_offset,
                stride_byte_offset: f.leading_byte_offset,
                ..f
            },
        ),
    ];
    let other = match f.swizzle {
        Swizzle::None => Swizzle::B32,
        Swizzle::B32 => Swizzle::B64,
        Swizzle::B64 | Swizzle::B128Base32B => Swizzle::B128,
        Swizzle::B128 => Swizzle::B64,
    };
    let base = if other.is_swizzled() {
        base_offset_for(f.start_address, other).unwrap_or(0)
    } else {
        0
    };
    v.push((
        "wrong_swizzle",
        SmemFields {
            swizzle: other,
            base_offset: base,
            ..f
        },
    ));
    if f.swizzle.is_swizzled() && f.base_offset != 0 {
        v.push((
            "base_offset_zero",
            SmemFields {
                base_offset: 0,
                ..f
            },
        ));
    }
    if f.swizzle.is_swizzled() {
        v.push((
            "wrong_base_offset",
            SmemFields {
                base_offset: (f.base_offset + 1) % 8,
                ..f
            },
        ));
    }
    v
}

/// Bytes covered by elements at `addrs` of `es` bytes each.
fn byte_set(addrs: &[u32], es: u32) -> BTreeSet<u32> {
    addrs.iter().flat_map(|&a| a..a + es).collect()
}

/// Every case, in a fixed order.
///
/// # Errors
/// A message naming the case when the model rejects a layout the generator meant to be valid.
pub fn cases() -> Result<Vec<Case>, String> {
    let window = WINDOW_BASE..WINDOW_BASE + WINDOW_SIZE;
    let mut out = Vec::new();
    let mut combo = 0usize;
    for ty in WgmmaType::ALL {
        for major in [Major::K, Major::Mn] {
            if major == Major::Mn && !ty.allows_mn_major() {
                continue;
            }
            for swizzle in SWIZZLES {
                for which in [Which::A, Which::B] {
                    let (region, other_region) = match which {
                        Which::A => (REGION_A, REGION_B),
                        Which::B => (REGION_B, REGION_A),
                    };
                    let vars = variants(ty, major, swizzle, which, region);
                    // Wrong descriptors: on A for even combinations, on B for odd ones.
                    let wrong_on = if combo % 2 == 0 { Which::A } else { Which::B };
                    for var in &vars {
                        let n = if which == Which::A {
                            N_FOR_A_CASES
                        } else {
                            var.n
                        };
                        if !ty.n_valid(n) {
                            return Err(format!("N = {n} is not a wgmma N for {}", ty.name()));
                        }
                        let mn = if which == Which::A { M } else { n };
                        let other_mn = if which == Which::A { n } else { M };
                        let name = format!(
                            "{}-{}-{}-{}-{}",
                            which.name(),
                            ty.name(),
                            major_name(major),
                            swizzle_name(swizzle),
                            var.name
                        );
                        let under_l = layout(ty, major, mn, var.fields)
                            .map_err(|e| format!("{name}: {e}"))?;
                        let place = addresses(&under_l, window.clone())
                            .map_err(|e| format!("{name}: {e}"))?;
                        let of = other_fields(other_region);
                        let other_l = layout(ty, Major::K, other_mn, of)
                            .map_err(|e| format!("{name} (other operand): {e}"))?;
                        let other_place = addresses(&other_l, window.clone())
                            .map_err(|e| format!("{name} (other operand): {e}"))?;
                        let under_bytes = byte_set(&place, ty.bytes());
                        let other_bytes = byte_set(&other_place, ty.bytes());
                        if !under_bytes.is_disjoint(&other_bytes) {
                            return Err(format!("{name}: operands overlap"));
                        }
                        let under_case = OperandCase {
                            major,
                            desc: descriptor(var.fields).map_err(|e| format!("{name}: {e}"))?,
                            place: place.clone(),
                            read: place.clone(),
                        };
                        let other_case = OperandCase {
                            major: Major::K,
                            desc: descriptor(of).map_err(|e| format!("{name}: {e}"))?,
                            place: other_place.clone(),
                            read: other_place.clone(),
                        };
                        let make = |name: String, expect_match: bool, under_case: OperandCase| {
                            let (a, b) = match which {
                                Which::A => (under_case, other_case.clone()),
                                Which::B => (other_case.clone(), under_case),
                            };
                            Case {
                                name,
                                ty,
                                n,
                                under: which,
                                expect_match,
                                a,
                                b,
                            }
                        };
                        out.push(make(name.clone(), true, under_case.clone()));

                        // Wrong descriptors against the default and the base-offset layouts.
                        let first = std::ptr::eq(var, &vars[0]);
                        if which != wrong_on || !(first || var.name == "line") {
                            continue;
                        }
                        for (wname, wf) in wrong_fields(var.fields) {
                            let base_kind =
                                matches!(wname, "wrong_base_offset" | "base_offset_zero");
                            if base_kind != (var.name == "line") {
                                continue;
                            }
                            // A wrong descriptor the model rejects, that reads where the data
                            // is, or that reads outside the region or into the other operand,
                            // proves nothing here: skip it.
                            let Ok(wl) = layout(ty, major, mn, wf) else {
                                continue;
                            };
                            let Ok(read) = addresses(&wl, window.clone()) else {
                                continue;
                            };
                            let Ok(desc) = descriptor(wf) else {
                                continue;
                            };
                            if read == place
                                || !byte_set(&read, ty.bytes()).is_disjoint(&other_bytes)
                            {
                                continue;
                            }
                            let wrong_case = OperandCase {
                                major,
                                desc,
                                place: place.clone(),
                                read,
                            };
                            out.push(make(format!("{name}-{wname}"), false, wrong_case));
                        }
                    }
                }
                combo += 1;
            }
        }
    }
    out.extend(tile_cases()?);
    let mut seen = BTreeSet::new();
    for c in &out {
        if !seen.insert(c.name.clone()) {
            return Err(format!("duplicate case name {}", c.name));
        }
    }
    Ok(out)
}

impl Case {
    /// The operand under test.
    #[must_use]
    pub fn under_test(&self) -> &OperandCase {
        match self.under {
            Which::A => &self.a,
            Which::B => &self.b,
        }
    }

    /// The readings of the base offset ([`BaseOffsetReading`]) other than the model's default
    /// under which the descriptor given to `wgmma` would read other addresses than the model
    /// says: a case that matches on hardware refutes each of them.
    ///
    /// # Errors
    /// A message when the model rejects the operand (never for generated cases).
    pub fn refuted_readings(&self) -> Result<Vec<BaseOffsetReading>, String> {
        let o = self.under_test();
        let mn = match self.under {
            Which::A => M,
            Which::B => self.n,
        };
        let l = layout(self.ty, o.major, mn, o.desc.fields())?;
        let mut out = Vec::new();
        for r in BaseOffsetReading::ALL {
            if r == l.reading() {
                continue;
            }
            let locs = l.with_reading(r).locations().map_err(|e| e.to_string())?;
            let addrs: Vec<u32> = locs.iter().map(|x| x.address).collect();
            if addrs != o.read {
                out.push(r);
            }
        }
        Ok(out)
    }
}

/// Cases for the descriptors built from intent ([`TileLayout`]): a whole tile of several
/// K-blocks laid out from swizzle atoms (MN-first starting 3 lines into a repeat, with its
/// pattern anchored at the tile start, so a non-zero base offset, or on absolute address bits,
/// so base offset 0; K-first on a repeat boundary), and one `wgmma` per chosen K-block with
/// [`TileLayout::descriptor`]. The data of the K-block is placed where the
/// tile puts it ([`TileLayout::address`]); the model must read exactly there.
///
/// # Errors
/// A message naming the case when the tile is invalid or its descriptor does not read the
/// tile's own bytes.
pub fn tile_cases() -> Result<Vec<Case>, String> {
    let window = WINDOW_BASE..WINDOW_BASE + WINDOW_SIZE;
    let mut out = Vec::new();
    let mut combo = 0usize;
    for ty in WgmmaType::ALL {
        for major in [Major::K, Major::Mn] {
            if major == Major::Mn && !ty.allows_mn_major() {
                continue;
            }
            for swizzle in SWIZZLES {
                // The pattern anchored at the tile start (Table 41's base offset) for both
                // orders; anchored on absolute address bits (base offset 0, as TMA and CuTe
                // write tiles) for the MN-first tile that starts off the repeat boundary.
                let mut shapes = vec![
                    (AtomOrder::MnFirst, SwizzleAnchor::TileStart),
                    (AtomOrder::KFirst, SwizzleAnchor::TileStart),
                ];
                if swizzle.is_swizzled() {
                    shapes.push((AtomOrder::MnFirst, SwizzleAnchor::Address));
                }
                for (order, anchor) in shapes {
                    let which = if combo % 2 == 0 { Which::A } else { Which::B };
                    combo += 1;
                    let (region, other_region) = match which {
                        Which::A => (REGION_A, REGION_B),
                        Which::B => (REGION_B, REGION_A),
                    };
                    let n = if which == Which::A { N_FOR_A_CASES } else { 64 };
                    let mn = if which == Which::A { M } else { n };
                    let other_mn = if which == Which::A { n } else { M };
                    let storage =
                        ElementStorage::of(ty.element(), None).map_err(|e| e.to_string())?;
                    let start = match order {
                        AtomOrder::MnFirst => region + 0x180,
                        AtomOrder::KFirst => region,
                    };
                    let probe = TileLayout::new(storage, major, swizzle, mn, ty.k(), start);
                    let kpb = ty.k();
                    let k_tile = (2 * probe.atom().1).max(4 * kpb);
                    let tile = TileLayout::new(storage, major, swizzle, mn, k_tile, start)
                        .with_order(order)
                        .with_anchor(anchor);
                    let mut tname = format!(
                        "tile-{}-{}-{}-{}-{}",
                        which.name(),
                        ty.name(),
                        major_name(major),
                        swizzle_name(swizzle),
                        order.name()
                    );
                    if anchor == SwizzleAnchor::Address {
                        tname.push_str("-address");
                    }
                    if let Some(e) = tile.validate().get(0) {
                        return Err(format!("{tname}: {e}"));
                    }
                    let of = other_fields(other_region);
                    let other_l = layout(ty, Major::K, other_mn, of)?;
                    let other_place = addresses(&other_l, window.clone())?;
                    let other_bytes = byte_set(&other_place, ty.bytes());
                    let last = tile.k_blocks() - 1;
                    for kb in [1, last] {
                        let name = format!("{tname}-kb{kb}");
                        let mut place = Vec::with_capacity((mn * kpb) as usize);
                        for m in 0..mn {
                            for k in 0..kpb {
                                let loc = tile
                                    .address(m, kb * kpb + k)
                                    .ok_or_else(|| format!("{name}: ({m}, {k}) outside"))?;
                                place.push(loc.address);
                            }
                        }
                        let desc = tile
                            .descriptor(kb, TARGET)
                            .map_err(|e| format!("{name}: {e}"))?;
                        let l = MatrixLayout::try_new(desc, tile.operand())
                            .map_err(|e| format!("{name}: {e}"))?;
                        let read =
                            addresses(&l, window.clone()).map_err(|e| format!("{name}: {e}"))?;
                        if read != place {
                            return Err(format!(
                                "{name}: the tile's descriptor does not read the tile's bytes"
                            ));
                        }
                        if !byte_set(&place, ty.bytes()).is_disjoint(&other_bytes) {
                            return Err(format!("{name}: operands overlap"));
                        }
                        let under_case = OperandCase {
                            major,
                            desc,
                            place,
                            read,
                        };
                        let other_case = OperandCase {
                            major: Major::K,
                            desc: descriptor(of)?,
                            place: other_place.clone(),
                            read: other_place.clone(),
                        };
                        let (a, b) = match which {
                            Which::A => (under_case, other_case),
                            Which::B => (other_case, under_case),
                        };
                        out.push(Case {
                            name,
                            ty,
                            n,
                            under: which,
                            expect_match: true,
                            a,
                            b,
                        });
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Addresses of an operand in the case file's order: K-major rows (mn outer, k inner), MN-major
/// columns (k outer, mn inner), as runs `addr:len` of elements `es` bytes apart.
fn runs(addrs: &[u32], major: Major, mn: u32, k: u32, es: u32) -> String {
    let order: Vec<u32> = match major {
        Major::K => (0..mn)
            .flat_map(|m| (0..k).map(move |kk| addrs[(m * k + kk) as usize]))
            .collect(),
        Major::Mn => (0..k)
            .flat_map(|kk| (0..mn).map(move |m| addrs[(m * k + kk) as usize]))
            .collect(),
    };
    let mut list: Vec<(u32, u32)> = Vec::new();
    for a in order {
        match list.last_mut() {
            Some((start, len)) if *start + *len * es == a => *len += 1,
            _ => list.push((a, 1)),
        }
    }
    let mut s = list.len().to_string();
    for (a, l) in list {
        let _ = write!(s, " {a:x}:{l}");
    }
    s
}

fn operand_line(which: Which, c: &Case, o: &OperandCase) -> Result<String, String> {
    let mn = match which {
        Which::A => M,
        Which::B => c.n,
    };
    let (k, es) = (c.ty.k(), c.ty.bytes());
    let wg = hopper_descriptor(o.desc).map_err(|e| format!("{}: {e}", c.name))?;
    let read = if o.read == o.place {
        "same".to_string()
    } else {
        runs(&o.read, o.major, mn, k, es)
    };
    Ok(format!(
        "op {} {} {:#018x} {:#018x} place {} read {}",
        which.name(),
        major_name(o.major),
        o.desc.bits(),
        wg,
        runs(&o.place, o.major, mn, k, es),
        read
    ))
}

/// The case file the harness reads.
///
/// # Errors
/// A message when a descriptor has no Hopper form.
pub fn render_cases(cases: &[Case]) -> Result<String, String> {
    let mut s = String::new();
    s.push_str(
        "# Hardware cases for the shared-memory layout model (crates/tcgen05 canonical_layout).\n\
         # Generated by `cargo run -p tcgen05-hw-cases -- write`; do not edit.\n\
         # case NAME TYPE N UNDER EXPECT\n\
         # op a|b k|mn TCGEN05_DESC WGMMA_DESC place RUNS read same|RUNS\n\
         # RUNS = COUNT then hex_address:length, in K-major row order or MN-major column order.\n",
    );
    s.push_str(FORMAT_LINE);
    s.push('\n');
    let _ = writeln!(s, "window {WINDOW_BASE:#x} {WINDOW_SIZE:#x}");
    for c in cases {
        let _ = writeln!(
            s,
            "case {} {} {} {} {}",
            c.name,
            c.ty.name(),
            c.n,
            c.under.name(),
            if c.expect_match { "match" } else { "mismatch" }
        );
        s.push_str(&operand_line(Which::A, c, &c.a)?);
        s.push('\n');
        s.push_str(&operand_line(Which::B, c, &c.b)?);
        s.push('\n');
        s.push_str("end\n");
    }
    Ok(s)
}

/// The `wgmma` shapes the cases use, as `(type, N, transpose A, transpose B)`.
#[must_use]
pub fn ops(cases: &[Case]) -> BTreeSet<(WgmmaType, u32, bool, bool)> {
    cases
        .iter()
        .map(|c| (c.ty, c.n, c.a.major == Major::Mn, c.b.major == Major::Mn))
        .collect()
}

/// CUDA wrappers, one struct per `wgmma` shape in use (PTX ISA 9.7.15.5 syntax: f16/bf16 take
/// scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b; tf32 and e4m3 scale-d and the two
/// scales; s8 scale-d only). scale-d is false, so D = A * B.
#[must_use]
pub fn render_ops(cases: &[Case]) -> String {
    let mut s = String::new();
    s.push_str(
        "// wgmma wrappers for the shapes hw/cases/wgmma.txt uses.\n\
         // Generated by `cargo run -p tcgen05-hw-cases -- write`; do not edit.\n\
         #pragma once\n\n",
    );
    let mut names = Vec::new();
    for (ty, n, ta, tb) in ops(cases) {
        let name = format!("Op_{}_n{}_t{}{}", ty.name(), n, u8::from(ta), u8::from(tb));
        let regs = n / 2;
        let (acc, constraint, dtype, integer) = match ty {
            WgmmaType::S8 => ("int32_t", "+r", "s32", true),
            _ => ("float", "+f", "f32", false),
        };
        let list: Vec<String> = (0..regs).map(|i| format!("%{i}")).collect();
        let tail = match ty {
            WgmmaType::F16 | WgmmaType::Bf16 => {
                format!(", p, 1, 1, {}, {}", u8::from(ta), u8::from(tb))
            }
            WgmmaType::Tf32 | WgmmaType::E4m3 => ", p, 1, 1".to_string(),
            WgmmaType::S8 => ", p".to_string(),
        };
        let _ = writeln!(s, "struct {name} {{");
        let _ = writeln!(
            s,
            "    static constexpr const char* type = \"{}\";",
            ty.name()
        );
        let _ = writeln!(
            s,
            "    static constexpr int N = {n}, trans_a = {}, trans_b = {};",
            u8::from(ta),
            u8::from(tb)
        );
        let _ = writeln!(s, "    static constexpr bool integer = {integer};");
        let _ = writeln!(s, "    using Acc = {acc};");
        let _ = writeln!(
            s,
            "    __device__ static void mma(Acc (&d)[{regs}], uint64_t a, uint64_t b) {{"
        );
        let _ = writeln!(s, "        asm volatile(");
        let _ = writeln!(
            s,
            "            \"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{}, 0;\\n\"",
            regs + 2
        );
        let _ = writeln!(
            s,
            "            \"wgmma.mma_async.sync.aligned.m64n{n}k{}.{dtype}.{t}.{t} \"",
            ty.k(),
            t = ty.name()
        );
        let _ = writeln!(
            s,
            "            \"{{{}}}, %{}, %{}{tail};\\n}}\\n\"",
            list.join(", "),
            regs,
            regs + 1
        );
        let outs: Vec<String> = (0..regs)
            .map(|i| format!("\"{constraint}\"(d[{i}])"))
            .collect();
        let _ = writeln!(s, "            : {}", outs.join(", "));
        let _ = writeln!(s, "            : \"l\"(a), \"l\"(b), \"r\"(0));");
        let _ = writeln!(s, "    }}");
        let _ = writeln!(s, "}};\n");
        names.push(name);
    }
    s.push_str("#define HW_OPS(X)");
    for n in &names {
        let _ = write!(s, " X({n})");
    }
    s.push('\n');
    s
}

/// One `result` line of the harness output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine {
    /// Case name.
    pub name: String,
    /// Every `key=value` field, keyed by name (`expect`, `product`, `probe`, `verdict`, ...).
    pub fields: BTreeMap<String, String>,
}

/// The harness output: the device line and every result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Results {
    /// The `device ...` line (device name, compute capability, driver and runtime versions).
    pub device: String,
    /// The `# date ...` line written by `run.sh`.
    pub date: String,
    /// Result lines in file order.
    pub results: Vec<ResultLine>,
    /// Whether the harness printed `done` (it ran to the end).
    pub done: bool,
}

/// Parses the harness output (`hw/results/*.txt`).
///
/// # Errors
/// A message naming the line for malformed input.
pub fn parse_results(text: &str) -> Result<Results, String> {
    let mut r = Results {
        device: String::new(),
        date: String::new(),
        results: Vec::new(),
        done: false,
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("# date ") {
            r.date = rest.to_string();
        } else if line.starts_with("device ") {
            r.device = line.to_string();
        } else if let Some(rest) = line.strip_prefix("result ") {
            let mut parts = rest.split_whitespace();
            let name = parts
                .next()
                .ok_or_else(|| format!("line {}: result without a name", i + 1))?;
            let mut fields = BTreeMap::new();
            for p in parts {
                if let Some((k, v)) = p.split_once('=') {
                    fields.insert(k.to_string(), v.to_string());
                }
            }
            r.results.push(ResultLine {
                name: name.to_string(),
                fields,
            });
        } else if line == "done" {
            r.done = true;
        }
    }
    Ok(r)
}
