//! End-to-end cases for [`tcgen05::tensor_copy::agreement`]: the TMA writes both operand tiles,
//! `wgmma` reads them with descriptors built from intent ([`TileLayout::descriptor`]), and the
//! product is right exactly when the model says the descriptors read what the copies wrote.
//! The harness is `hw/e2e/harness.cu` (m64n32k16, f16, K-major).

use std::fmt::Write as _;

use tcgen05::canonical_layout::{ElementStorage, MatrixLayout, SwizzleAnchor, TileLayout};
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::tensor_copy::{agreement, Agreement, TensorCopyBox};
use tcgen05::{ElementType, Major, Target};

use crate::hopper_descriptor;

/// The header line of the end-to-end case file format.
pub const E2E_FORMAT_LINE: &str = "format tcgen05-e2e-cases 1";
/// Where A's tile region starts (1024-byte aligned; the harness's window starts at 0x400).
pub const E2E_REGION_A: u32 = 0x1400;
/// Where B's tile starts (1024-byte aligned).
pub const E2E_REGION_B: u32 = 0x5400;

/// One end-to-end case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct E2eCase {
    /// Unique name.
    pub name: String,
    /// What [`agreement`] says for A (B always agrees).
    pub agree: bool,
    /// A's swizzle mode (one box of 64 rows, inner = the swizzle span).
    pub a_swizzle: Swizzle,
    /// A's box inner extent (K elements of the tile).
    pub a_inner: u32,
    /// A's destination.
    pub a_dst: u32,
    /// A's descriptor for the K-block read.
    pub a_desc: u64,
    /// First tile K element of the K-block read.
    pub a_k_start: u32,
    /// B's descriptor (32B swizzle, 32 x 16 tile, K-block 0).
    pub b_desc: u64,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A's tile K-major f16 with 32B, 64B or 128B swizzle, copied as one box to a destination on the
/// repeat boundary or three lines into it; descriptors from [`TileLayout`] with the pattern
/// anchored on address bits (what the TMA writes: agree) and, off the boundary, at the tile start
/// (Table 41's base offset: the model says they differ), for the first and the last K-block.
///
/// # Errors
/// A message when the model rejects a tile or box, or when B (the fixed operand) does not agree.
pub fn e2e_cases() -> Result<Vec<E2eCase>, String> {
    let f16 = ElementStorage::of(ElementType::F16, None).map_err(err)?;
    let b_tile = TileLayout::new(f16, Major::K, Swizzle::B32, 32, 16, E2E_REGION_B)
        .with_anchor(SwizzleAnchor::Address);
    let b_desc = b_tile.descriptor(0, Target::Sm100a).map_err(err)?;
    let b_layout = MatrixLayout::try_new(b_desc, b_tile.operand()).map_err(err)?;
    let b_box = TensorCopyBox::new(Swizzle::B32, f16, 16, 32, E2E_REGION_B);
    if !matches!(
        agreement(&b_layout, &[b_box], 0).map_err(err)?,
        Agreement::Agree { .. }
    ) {
        return Err("B's descriptor does not read its copy".into());
    }
    let b_wgmma = hopper_descriptor(b_desc).map_err(err)?;
    let mut out = Vec::new();
    for swizzle in [Swizzle::B32, Swizzle::B64, Swizzle::B128] {
        let inner = swizzle.width_bytes() / 2;
        for dst in [E2E_REGION_A, E2E_REGION_A + 0x180] {
            let anchors: &[SwizzleAnchor] = if dst % 1024 == 0 {
                &[SwizzleAnchor::Address]
            } else {
                &[SwizzleAnchor::Address, SwizzleAnchor::TileStart]
            };
            for &anchor in anchors {
                let tile =
                    TileLayout::new(f16, Major::K, swizzle, 64, inner, dst).with_anchor(anchor);
                let last = tile.k_blocks() - 1;
                let mut kbs = vec![0];
                if last > 0 {
                    kbs.push(last);
                }
                for kb in kbs {
                    let desc = tile.descriptor(kb, Target::Sm100a).map_err(err)?;
                    let layout = MatrixLayout::try_new(desc, tile.operand()).map_err(err)?;
                    let copy = TensorCopyBox::new(swizzle, f16, inner, 64, dst);
                    let agree = matches!(
                        agreement(&layout, &[copy], kb * 16).map_err(err)?,
                        Agreement::Agree { .. }
                    );
                    out.push(E2eCase {
                        name: format!(
                            "e2e-a-f16-k-{}-dst{:#x}-{}-kb{kb}",
                            swizzle.name(),
                            dst,
                            anchor.name()
                        ),
                        agree,
                        a_swizzle: swizzle,
                        a_inner: inner,
                        a_dst: dst,
                        a_desc: hopper_descriptor(desc).map_err(err)?,
                        a_k_start: kb * 16,
                        b_desc: b_wgmma,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The end-to-end case file the harness reads.
#[must_use]
pub fn render_e2e_cases(cases: &[E2eCase]) -> String {
    let mut s = String::new();
    s.push_str(
        "# End-to-end cases: TMA writes the tiles, wgmma reads them (crates/tcgen05 tensor_copy::agreement).\n\
         # Generated by `cargo run -p tcgen05-hw-cases -- write`; do not edit.\n\
         # case NAME agree|differ A_SWIZZLE A_INNER A_DST A_WGMMA_DESC A_KSTART B_SWIZZLE B_INNER B_DST B_WGMMA_DESC\n",
    );
    s.push_str(E2E_FORMAT_LINE);
    s.push('\n');
    for c in cases {
        let _ = writeln!(
            s,
            "case {} {} {} {} {:#x} {:#018x} {} 32B 16 {:#x} {:#018x}",
            c.name,
            if c.agree { "agree" } else { "differ" },
            c.a_swizzle.name(),
            c.a_inner,
            c.a_dst,
            c.a_desc,
            c.a_k_start,
            E2E_REGION_B,
            c.b_desc
        );
    }
    s
}
