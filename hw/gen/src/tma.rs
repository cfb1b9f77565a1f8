//! Cases that check the tensor-copy placement model ([`tcgen05::tensor_copy`]) on Hopper's
//! tensor memory accelerator (TMA): for a 2-D box of `inner x outer` elements copied with a
//! swizzle mode to a shared-memory destination, the byte address of every element as
//! [`TensorCopyBox::address`] gives it. The CUDA harness `hw/tma/harness.cu` makes the copy with
//! `cp.async.bulk.tensor.2d` and compares where each element landed.

use std::fmt::Write as _;

use tcgen05::canonical_layout::ElementStorage;
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::tensor_copy::{TensorCopyBox, TensorCopyError};
use tcgen05::ElementType;

/// The header line of the TMA case file format.
pub const TMA_FORMAT_LINE: &str = "format tcgen05-tma-cases 1";
/// Shared-memory address the TMA case window starts at (after the 1 KiB sm_90 reserves).
pub const TMA_WINDOW_BASE: u32 = 0x400;
/// Bytes of the window.
pub const TMA_WINDOW_SIZE: u32 = 0x4000;
/// Where every box's region starts (1024-byte aligned: every swizzle pattern repeats there).
pub const TMA_REGION: u32 = TMA_WINDOW_BASE + 0x1000;
/// Rows of every box.
pub const TMA_OUTER: u32 = 32;

/// One TMA copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaCase {
    /// Unique name: `tma-swizzle-ebytes-inner-dst`.
    pub name: String,
    /// Bytes per element (the tensor map's `UINT8`, `UINT16` or `UINT32`).
    pub esize: u32,
    /// Swizzle mode of the tensor map.
    pub swizzle: Swizzle,
    /// Box elements along the contiguous dimension.
    pub inner: u32,
    /// Box rows.
    pub outer: u32,
    /// Shared-memory destination.
    pub destination: u32,
    /// Address of element (inner `i`, outer `o`) at index `o * inner + i`, from the model;
    /// empty when the model rejects the destination's alignment, so the copy must fault.
    pub place: Vec<u32>,
}

impl TmaCase {
    /// Whether the model rejects the destination, so the hardware copy must fault.
    #[must_use]
    pub fn expect_fault(&self) -> bool {
        self.place.is_empty()
    }
}

fn storage(esize: u32) -> Result<ElementStorage, String> {
    let e = match esize {
        1 => ElementType::S8,
        2 => ElementType::F16,
        _ => ElementType::Tf32,
    };
    ElementStorage::of(e, None).map_err(|e| e.to_string())
}

/// Every TMA case: swizzle none/32B/64B/128B x 1-, 2- and 4-byte elements x an inner extent of
/// the whole swizzle span and of half of it (none: 16, 48 and 128 bytes) x destinations on the
/// pattern's repeat boundary and 1, 3 and 7 lines into it, and 16, 32 and 64 bytes into a line.
/// A destination the model rejects ([`TensorCopyError::Destination`]) makes a case whose copy must
/// fault (1-byte elements, narrowest box only); every other problem is an error of the generator.
///
/// # Errors
/// A message naming the case when the model rejects a box the generator meant to be valid.
pub fn tma_cases() -> Result<Vec<TmaCase>, String> {
    let mut out = Vec::new();
    for swizzle in [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128] {
        let (inner_bytes, dsts): (Vec<u32>, Vec<u32>) = match swizzle {
            Swizzle::None => (vec![16, 48, 128], vec![0, 128, 16, 32, 64]),
            s => {
                let w = s.width_bytes();
                (vec![w, w / 2], vec![0, 128, 384, 896, 16, 32, 64])
            }
        };
        for esize in [1u32, 2, 4] {
            for &ib in &inner_bytes {
                for &d in &dsts {
                    let inner = ib / esize;
                    let destination = TMA_REGION + d;
                    let name = format!(
                        "tma-{}-e{}-inner{}B-dst{:#x}",
                        swizzle.name(),
                        esize,
                        ib,
                        destination
                    );
                    let b =
                        TensorCopyBox::new(swizzle, storage(esize)?, inner, TMA_OUTER, destination);
                    let problems = b.validate();
                    let mut misaligned = false;
                    for i in 0..problems.len() {
                        match problems.get(i) {
                            Some(TensorCopyError::Destination { .. }) => misaligned = true,
                            Some(e) => return Err(format!("{name}: {e}")),
                            None => {}
                        }
                    }
                    if misaligned {
                        if esize == 1 && ib == inner_bytes[0] {
                            out.push(TmaCase {
                                name,
                                esize,
                                swizzle,
                                inner,
                                outer: TMA_OUTER,
                                destination,
                                place: Vec::new(),
                            });
                        }
                        continue;
                    }
                    let mut place = Vec::with_capacity((inner * TMA_OUTER) as usize);
                    for o in 0..TMA_OUTER {
                        for i in 0..inner {
                            let loc = b
                                .address(i, o)
                                .ok_or_else(|| format!("{name}: ({i}, {o}) outside"))?;
                            if loc.address < TMA_WINDOW_BASE
                                || loc.address + esize > TMA_WINDOW_BASE + TMA_WINDOW_SIZE
                            {
                                return Err(format!("{name}: leaves the window"));
                            }
                            place.push(loc.address);
                        }
                    }
                    out.push(TmaCase {
                        name,
                        esize,
                        swizzle,
                        inner,
                        outer: TMA_OUTER,
                        destination,
                        place,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The TMA case file the harness reads: one line per case,
/// `case NAME ESIZE SWIZZLE INNER OUTER DST EXPECT place COUNT addr:len...` (EXPECT `match`, or
/// `fault` with no runs).
#[must_use]
pub fn render_tma_cases(cases: &[TmaCase]) -> String {
    let mut s = String::new();
    s.push_str(
        "# TMA placement cases for the tensor-copy model (crates/tcgen05 tensor_copy).\n\
         # Generated by `cargo run -p tcgen05-hw-cases -- write`; do not edit.\n\
         # case NAME ESIZE SWIZZLE INNER OUTER DST match|fault place COUNT hex_address:length...\n\
         # (element (i, o) in row order: o outer, i inner; runs of elements ESIZE bytes apart)\n",
    );
    s.push_str(TMA_FORMAT_LINE);
    s.push('\n');
    let _ = writeln!(s, "window {TMA_WINDOW_BASE:#x} {TMA_WINDOW_SIZE:#x}");
    for c in cases {
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for &a in &c.place {
            match runs.last_mut() {
                Some((start, len)) if *start + *len * c.esize == a => *len += 1,
                _ => runs.push((a, 1)),
            }
        }
        let _ = write!(
            s,
            "case {} {} {} {} {} {:#x} {} place {}",
            c.name,
            c.esize,
            c.swizzle.name(),
            c.inner,
            c.outer,
            c.destination,
            if c.expect_fault() { "fault" } else { "match" },
            runs.len()
        );
        for (a, l) in runs {
            let _ = write!(s, " {a:x}:{l}");
        }
        s.push('\n');
    }
    s
}
