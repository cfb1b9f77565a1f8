//! One parser per kind of value that a flag takes: names (targets, kinds, types, swizzles,
//! shapes, ...) read in any case, with a message that lists what is accepted. Numbers and
//! operands are in [`super::number`].

use tcgen05::canonical_layout::{AtomOrder, BaseOffsetReading, SwizzleAnchor};
use tcgen05::data_path::{self, SfOperand};
use tcgen05::mma::{CtaGroup, ElementType, Kind, Major, MaxShift, ScaleType};
use tcgen05::ptx::{self, Collector};
use tcgen05::shared_memory_descriptor::{LboMode, Swizzle};
use tcgen05::targets::{Target, TargetError};
use tcgen05::tensor_copy::TmaSwizzle;
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape};

use super::number::{arg_u64, parse};

/// A `--target` value: a tcgen05 target, or a real target name that has no tcgen05 (reported as
/// a rule error, exit status 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetArg(pub Result<Target, TargetError>);

/// `--target`: any target name, known to have tcgen05 or not; an unknown name is refused.
pub fn parse_target(s: &str) -> Result<TargetArg, String> {
    match Target::from_name(&s.trim_ascii().to_ascii_lowercase()) {
        Err(TargetError::Unknown) => Err(format!(
            "unknown target '{s}' (expected sm_100a, sm_100f, sm_103a, sm_103f, sm_107a, sm_107f, sm_110a, sm_110f or sm_101a)"
        )),
        r => Ok(TargetArg(r)),
    }
}

/// `--kind`: an MMA kind (`f16`, `mxf4nvf4`, ...).
pub fn parse_kind(s: &str) -> Result<Kind, String> {
    Kind::from_name(&s.trim_ascii().to_ascii_lowercase()).ok_or_else(|| {
        format!("unknown kind '{s}' (expected f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4 or mxf4nvf4)")
    })
}

/// Any element type (`--d-type`, `--a-type`, `--b-type`).
pub fn parse_type(s: &str) -> Result<ElementType, String> {
    element_type(
        s,
        "f16, bf16, tf32, f32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8 or s32",
    )
}

/// The element type of an operand in shared memory (`layout --type`): A and B types only.
pub fn parse_operand_type(s: &str) -> Result<ElementType, String> {
    element_type(s, "f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8 or u8")
}

fn element_type(s: &str, expected: &str) -> Result<ElementType, String> {
    ElementType::from_name(&s.trim_ascii().to_ascii_lowercase())
        .ok_or_else(|| format!("unknown type '{s}' (expected {expected})"))
}

/// `--scale-type`: the scale factor type of block-scaled kinds.
pub fn parse_scale(s: &str) -> Result<ScaleType, String> {
    ScaleType::from_name(&s.trim_ascii().to_ascii_lowercase())
        .ok_or_else(|| format!("unknown scale type '{s}' (expected ue8m0 or ue4m3)"))
}

/// `--swizzle`: a swizzling mode by its name in Table 40 (`128B`, `none`, ...).
pub fn parse_swizzle(s: &str) -> Result<Swizzle, String> {
    let t = s.trim_ascii();
    Swizzle::ALL
        .into_iter()
        .find(|sw| sw.name().eq_ignore_ascii_case(t))
        .ok_or_else(|| {
            format!("unknown swizzle '{s}' (expected none, 128B_base32B, 128B, 64B or 32B)")
        })
}

/// `layout tma --swizzle`: a tensor map's mode, the descriptor's modes and 96B.
pub fn parse_tma_swizzle(s: &str) -> Result<TmaSwizzle, String> {
    let t = s.trim_ascii();
    if t.eq_ignore_ascii_case("96b") {
        return Ok(TmaSwizzle::B96);
    }
    parse_swizzle(s).map(TmaSwizzle::Mode).map_err(|_| {
        format!("unknown swizzle '{s}' (expected none, 128B_base32B, 128B, 64B, 32B or 96B)")
    })
}

/// `--lbo-mode`: relative or absolute leading-dimension mode.
pub fn parse_lbo_mode(s: &str) -> Result<LboMode, String> {
    LboMode::from_name(&s.trim_ascii().to_ascii_lowercase())
        .ok_or_else(|| format!("unknown mode '{s}' (expected relative or absolute)"))
}

/// `--cta-group`: 1 or 2, the count the core reads ([`CtaGroup::from_count`]).
pub fn parse_cta_group(s: &str) -> Result<CtaGroup, String> {
    let t = s.trim_ascii();
    // The count as written in PTX (`.cta_group::1`, `::2`): no sign, no leading zero.
    matches!(t, "1" | "2")
        .then(|| t.parse().ok())
        .flatten()
        .and_then(CtaGroup::from_count)
        .ok_or_else(|| format!("'{s}' is not a CTA group (expected 1 or 2)"))
}

/// `--max-shift`: the maximum shift in rows (0, 8, 16 or 32).
pub fn parse_max_shift(s: &str) -> Result<MaxShift, String> {
    let rows = parse(s.as_bytes(), 64).map_err(|e| e.to_string())?;
    MaxShift::from_rows(rows)
        .ok_or_else(|| format!("'{s}' is not a maximum shift (expected 0, 8, 16 or 32 rows)"))
}

/// A flag that is one bit: 0 or 1.
pub fn parse_bit(s: &str) -> Result<bool, String> {
    match s.trim_ascii() {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(format!("'{s}' is not a bit (expected 0 or 1)")),
    }
}

/// `--major`: k, or mn (also m or n), as the core reads it ([`Major::from_name`]).
pub fn parse_major(s: &str) -> Result<Major, String> {
    Major::from_name(s).ok_or_else(|| format!("unknown major-ness '{s}' (expected k or mn)"))
}

/// `--operand` of `layout`: which operand, a or b, for labels.
pub fn parse_ab(s: &str) -> Result<char, String> {
    match s.trim_ascii().to_ascii_lowercase().as_str() {
        "a" => Ok('a'),
        "b" => Ok('b'),
        _ => Err(format!("unknown operand '{s}' (expected a or b)")),
    }
}

/// `--order`: the order of core-matrix atoms in a canonical layout.
pub fn parse_order(s: &str) -> Result<AtomOrder, String> {
    AtomOrder::from_name(&s.trim_ascii().to_ascii_lowercase())
        .ok_or_else(|| format!("unknown atom order '{s}' (expected mn_first or k_first)"))
}

/// `--anchor`: where the swizzle pattern is anchored.
pub fn parse_anchor(s: &str) -> Result<SwizzleAnchor, String> {
    SwizzleAnchor::from_name(&s.trim_ascii().to_ascii_lowercase())
        .ok_or_else(|| format!("unknown anchor '{s}' (expected tile_start or address)"))
}

/// `--base-offset-reading`: how the base offset field is read.
pub fn parse_reading(s: &str) -> Result<BaseOffsetReading, String> {
    let t = s.trim_ascii().to_ascii_lowercase();
    BaseOffsetReading::ALL
        .into_iter()
        .find(|r| r.name() == t)
        .ok_or_else(|| {
            format!("unknown reading '{s}' (expected pattern_start, absolute or start_line)")
        })
}

fn split2(s: &str, sep: char, what: &str) -> Result<(u64, u64), String> {
    let (a, b) = s
        .split_once(sep)
        .ok_or_else(|| format!("'{s}' is not {what}"))?;
    Ok((arg_u64(a.trim_ascii())?, arg_u64(b.trim_ascii())?))
}

/// `START:END`, two numbers.
pub fn parse_range(s: &str) -> Result<(u64, u64), String> {
    split2(s, ':', "START:END")
}

/// `INNERxOUTER`, two numbers (the box of a tensor copy).
pub fn parse_box(s: &str) -> Result<(u64, u64), String> {
    split2(&s.to_ascii_lowercase(), 'x', "INNERxOUTER")
}

/// `INNER,OUTER`, two numbers.
pub fn parse_pair(s: &str) -> Result<(u64, u64), String> {
    split2(s, ',', "INNER,OUTER")
}

/// `--ptx-version X.Y`, kept as 10 X + Y.
pub fn parse_version(s: &str) -> Result<u8, String> {
    let err = || format!("'{s}' is not a PTX ISA version (expected X.Y, such as 8.8)");
    let (a, b) = s.trim_ascii().split_once('.').ok_or_else(err)?;
    let (a, b): (u8, u8) = (a.parse().map_err(|_| err())?, b.parse().map_err(|_| err())?);
    if b > 9 || a > 25 {
        return Err(err());
    }
    Ok(a * 10 + b)
}

/// `--scale-vec` of `ptx mma`: the PTX qualifier, `.scale_vec::` optional, as the core reads
/// it ([`ptx::ScaleVec::from_name`]).
pub fn parse_mma_scale_vec(s: &str) -> Result<ptx::ScaleVec, String> {
    ptx::ScaleVec::from_name(s).ok_or_else(|| {
        format!("unknown scale vector '{s}' (expected default, 1X, 2X, 4X, block16 or block32)")
    })
}

/// `--collector`: `a::OP` or `bN::OP`, `.collector::` optional, as the grammar's collector slot
/// reads it ([`Collector::from_name`]).
pub fn parse_collector(s: &str) -> Result<Collector, String> {
    Collector::from_name(s).ok_or_else(|| {
        format!(
            "unknown collector '{s}' (expected a::OP or bN::OP with N 0-3, OP fill, use, lastuse or discard)"
        )
    })
}

/// `--shape` of `tcgen05.ld`/`.st` (`32x32b`, ...).
pub fn parse_ldst_shape(s: &str) -> Result<LdStShape, String> {
    LdStShape::from_name(&s.trim_ascii().to_ascii_lowercase()).map_err(|e| e.to_string())
}

/// `--shape` of `tcgen05.cp` (`128x256b`, ...).
pub fn parse_cp_shape(s: &str) -> Result<CpShape, String> {
    CpShape::from_name(&s.trim_ascii().to_ascii_lowercase()).map_err(|e| e.to_string())
}

/// `--multicast` of `tcgen05.cp` (`warpx4`, ...).
pub fn parse_multicast(s: &str) -> Result<CpMulticast, String> {
    CpMulticast::from_name(&s.trim_ascii().to_ascii_lowercase()).map_err(|e| e.to_string())
}

/// `--scale-vec` of `tmem sf`: the scale vectors whose placement is modelled.
pub fn parse_sf_scale_vec(s: &str) -> Result<data_path::ScaleVec, String> {
    // The spellings of `ptx mma --scale-vec`: `.scale_vec::2X`, `scale_vec::2X`, `2X`, any case.
    let t = s.trim_ascii().trim_start_matches('.');
    let t = t.strip_prefix("scale_vec::").unwrap_or(t);
    match t.to_ascii_lowercase().as_str() {
        "1x" => Ok(data_path::ScaleVec::X1),
        "2x" => Ok(data_path::ScaleVec::X2),
        "4x" | "block16" => Ok(data_path::ScaleVec::X4),
        // K = 96 (sm_103a): `.block32` is 3X, `.block16` 6X (PTX ISA 9.7.16.10.7.2.4-5;
        // placement: rules.md T3).
        "3x" => Ok(data_path::ScaleVec::X3),
        "6x" => Ok(data_path::ScaleVec::X6),
        "8x" => Err(format!(
            "'{s}' (.block16 with K = 128/256 on sm_107a, PTX ISA 9.4 §9.7.18.10.7.2.6) is not \
             modelled: that section's text has not been read here (docs/ptx-9.5.md, Gaps)"
        )),
        _ => Err(format!(
            "'{s}' is not a scale vector (expected 1X, 2X, 4X, or 3X or 6X for K = 96; block32 is \
             1X for mxf8f6f4 and 2X for mxf4/mxf4nvf4, block16 is 4X)"
        )),
    }
}

/// `--operand` of `tmem sf`: the scale factors of A or of B.
pub fn parse_sf_operand(s: &str) -> Result<SfOperand, String> {
    match s.trim_ascii() {
        "a" | "A" => Ok(SfOperand::A),
        "b" | "B" => Ok(SfOperand::B),
        _ => Err(format!(
            "'{s}' is not a scale-factor operand (expected a or b)"
        )),
    }
}
