//! Pictures of an operand tile in shared memory: which elements each 16-byte chunk holds, line by
//! 128-byte line, as the canonical layouts of PTX ISA 9.7.16.3.3 place them (swizzle, LBO, SBO,
//! base offset). The placement comes from `tcgen05::canonical_layout`; this module only draws it
//! (`tcgen05 layout ... --svg`, and `TileLayout.svg()` / `MatrixLayout.svg()` in Python).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use tcgen05::canonical_layout::{
    ElementLocation, ElementStorage, MatrixLayout, TileLayout, CHUNK_BYTES,
};
use tcgen05::shared_memory_descriptor::Swizzle;
use tcgen05::Major;

use crate::esc;

/// The 16-byte chunks a tile covers, by chunk address, each with the `(mn, k)` elements it holds.
pub type SmemChunks = BTreeMap<u32, Vec<(u32, u32)>>;

/// The chunks of a [`TileLayout`]: where its builder places each element.
#[must_use]
pub fn tile_chunks(tile: &TileLayout) -> SmemChunks {
    let mut chunks = SmemChunks::new();
    for mn in 0..tile.mn {
        for k in 0..tile.k {
            if let Some(l) = tile.address(mn, k) {
                chunks
                    .entry(l.address & !(CHUNK_BYTES - 1))
                    .or_default()
                    .push((mn, k));
            }
        }
    }
    chunks
}

/// The chunks of a descriptor's [`MatrixLayout`], from the element locations it computed
/// (row-major over `(mn, k)`, as [`MatrixLayout::locations`] returns them).
#[must_use]
pub fn layout_chunks(layout: &MatrixLayout, locations: &[ElementLocation]) -> SmemChunks {
    let k = layout.operand().k.max(1);
    let mut chunks = SmemChunks::new();
    for (i, l) in (0u32..).zip(locations) {
        chunks
            .entry(l.address & !(CHUNK_BYTES - 1))
            .or_default()
            .push((i / k, i % k));
    }
    chunks
}

/// What a shared-memory picture shows.
#[derive(Clone, Copy, Debug)]
pub struct SmemPicture<'a> {
    /// The heading line.
    pub title: &'a str,
    /// The chunks and their elements.
    pub chunks: &'a SmemChunks,
    /// K-major or MN-major: which index groups elements into core matrices.
    pub major: Major,
    /// How elements fill a chunk (`T` elements of PTX ISA 9.7.16.3.3).
    pub storage: ElementStorage,
    /// The letter of the M/N index in labels: `m` for A, `n` for B.
    pub row: char,
    /// The swizzling mode, whose repeat is drawn as a thick rule.
    pub swizzle: Swizzle,
    /// Chunks outlined in red (an overlap, or a read outside the buffer).
    pub flagged: &'a BTreeSet<u32>,
}

/// A compact label for a set of indexes: `a`, `a-b` when contiguous, `a,b,c` for a few
/// scattered ones (elements folded onto one chunk), else `a..b`.
fn set_label(values: impl Iterator<Item = u32>) -> String {
    let set: BTreeSet<u32> = values.collect();
    let (Some(&lo), Some(&hi)) = (set.first(), set.last()) else {
        return String::new();
    };
    if lo == hi {
        lo.to_string()
    } else if (hi - lo) as usize + 1 == set.len() {
        format!("{lo}-{hi}")
    } else if set.len() <= 3 {
        set.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
    } else {
        format!("{lo}..{hi}")
    }
}

/// Draws 16-byte chunks as cells, eight per 128-byte line (one picture row per line), each
/// labelled with the elements it holds and coloured by core matrix; the swizzle pattern's repeat
/// boundary is a thick rule so that the permutation of chunks shows. Tall tiles fold into
/// side-by-side columns of 128 lines. An empty tile draws nothing (an empty string).
#[must_use]
pub fn svg_smem(p: &SmemPicture<'_>) -> String {
    const CW: u32 = 118;
    const CH: u32 = 34;
    const LEFT: u32 = 84;
    const TOP: u32 = 56;
    const FOLD: u32 = 128;
    let mut s = String::new();
    let (Some(first), Some(last)) = (p.chunks.keys().next(), p.chunks.keys().next_back()) else {
        return s;
    };
    let line0 = first / 128;
    let lines = last / 128 - line0 + 1;
    // FOLD is a multiple of every swizzle repeat, so a fold never cuts a pattern.
    let folds = lines.div_ceil(FOLD);
    let fold_width = LEFT + 8 * CW + 20;
    let width = folds * fold_width;
    let height = TOP + lines.min(FOLD) * CH + 30;
    // Writing to a String cannot fail.
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"11\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        s,
        "<text x=\"8\" y=\"18\" font-size=\"13\" font-weight=\"bold\">{}</text>",
        esc(p.title)
    );
    let _ = writeln!(
        s,
        "<text x=\"8\" y=\"36\">row = 128-byte line, cell = 16-byte chunk (offset in line above); \
         colour = core matrix; thick rule = {} repeat; red = overlap or outside buffer{}</text>",
        p.swizzle.name(),
        if folds > 1 {
            format!("; {FOLD} lines per column, left to right")
        } else {
            String::new()
        }
    );
    for f in 0..folds {
        for c in 0..8u32 {
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">+{}</text>",
                f * fold_width + LEFT + c * CW + CW / 2,
                TOP - 4,
                c * 16
            );
        }
    }
    let repeat_lines = p.swizzle.repeat_bytes().map_or(0, |r| r / 128);
    let t = u32::from(p.storage.per_chunk()).max(1);
    for line in 0..lines {
        let addr = (line0 + line) * 128;
        let x0 = (line / FOLD) * fold_width;
        let y = TOP + (line % FOLD) * CH;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">{addr:#x}</text>",
            x0 + LEFT - 6,
            y + CH / 2 + 4
        );
        for c in 0..8u32 {
            let x = x0 + LEFT + c * CW;
            let chunk = addr + c * 16;
            match p.chunks.get(&chunk) {
                Some(elems) if !elems.is_empty() => {
                    let (m0, k0) = elems[0];
                    let core = match p.major {
                        Major::K => (m0 / 8, k0 / t),
                        Major::Mn => (m0 / t, k0 / 8),
                    };
                    let hue = (core.0 * 47 + core.1 * 131) % 360;
                    let label = format!(
                        "{}{} k{}",
                        p.row,
                        set_label(elems.iter().map(|e| e.0)),
                        set_label(elems.iter().map(|e| e.1))
                    );
                    let (stroke, sw) = if p.flagged.contains(&chunk) {
                        ("#d00", "3")
                    } else {
                        ("#333", "0.5")
                    };
                    let _ = writeln!(
                        s,
                        "<rect x=\"{x}\" y=\"{y}\" width=\"{CW}\" height=\"{CH}\" fill=\"hsl({hue},70%,80%)\" stroke=\"{stroke}\" stroke-width=\"{sw}\"><title>{chunk:#x}: {}</title></rect>",
                        esc(&label)
                    );
                    let _ = writeln!(
                        s,
                        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                        x + CW / 2,
                        y + CH / 2 + 4,
                        esc(&label)
                    );
                }
                _ => {
                    let _ = writeln!(
                        s,
                        "<rect x=\"{x}\" y=\"{y}\" width=\"{CW}\" height=\"{CH}\" fill=\"#f4f4f4\" stroke=\"#ccc\" stroke-width=\"0.5\"/>"
                    );
                }
            }
        }
        if repeat_lines > 0 && (line0 + line) % repeat_lines == 0 {
            let _ = writeln!(
                s,
                "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"black\" stroke-width=\"2.5\"/>",
                x0 + LEFT,
                x0 + LEFT + 8 * CW
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcgen05::canonical_layout::ElementStorage;
    use tcgen05::ElementType;

    /// A 128B-swizzled bf16 K-major tile of 8 x 64: line `r` holds row `r`, and the swizzle puts
    /// chunk `c` of row `r` at position `c ^ r` (PTX ISA 9.7.16.3.3's 128B pattern), so the
    /// picture's cell at offset `16 * (c ^ r)` of line `r` is labelled `m{r} k{8c}-{8c+7}`.
    #[test]
    fn swizzled_rows_show_their_permuted_chunks() {
        let storage = ElementStorage::of(ElementType::Bf16, None).expect("bf16 storage");
        let tile = TileLayout::new(storage, Major::K, Swizzle::B128, 8, 64, 0);
        let chunks = tile_chunks(&tile);
        assert_eq!(chunks.len(), 64);
        for r in 0..8u32 {
            for c in 0..8u32 {
                let at = r * 128 + 16 * (c ^ r);
                let elems = &chunks[&at];
                assert_eq!(elems.len(), 8);
                assert!(elems.iter().all(|&(m, k)| m == r && k / 8 == c), "{at:#x}");
            }
        }
        let none = BTreeSet::new();
        let svg = svg_smem(&SmemPicture {
            title: "t",
            chunks: &chunks,
            major: Major::K,
            storage,
            row: 'm',
            swizzle: Swizzle::B128,
            flagged: &none,
        });
        assert!(svg.starts_with("<svg"));
        assert!(
            svg.contains("<title>0x90: m1 k0-7</title>"),
            "chunk 0 of row 1 at 0x80 + 16"
        );
        assert_eq!(svg.matches("<rect x=").count(), 64);
    }

    #[test]
    fn an_empty_tile_draws_nothing() {
        let storage = ElementStorage::of(ElementType::Bf16, None).expect("bf16 storage");
        let none = BTreeSet::new();
        let empty = SmemChunks::new();
        let svg = svg_smem(&SmemPicture {
            title: "t",
            chunks: &empty,
            major: Major::K,
            storage,
            row: 'm',
            swizzle: Swizzle::None,
            flagged: &none,
        });
        assert!(svg.is_empty());
    }
}
