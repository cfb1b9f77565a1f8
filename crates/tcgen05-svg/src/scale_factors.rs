//! Pictures of block-scale factors in global memory ([`svg_sf_global`]: which (row, K block)
//! each byte of the first tile of a layout holds, padding marked) and of a scale-factor chain
//! ([`svg_sf_chain`]: for each row and K block the MMAs read, the element they get, red where
//! it is not the one meant). The positions come from `tcgen05::scale_factors` and
//! `tcgen05::scale_factor_chain`.

use tcgen05::scale_factor_chain::SfRead;
use tcgen05::scale_factors::{GlobalSfLayout, SfArrangement};

use super::{render, Cell, Grid};

/// The first `min(bytes, 512)` bytes of a global layout, 16 a row: each labelled with the
/// (row, K block) it holds, coloured by K block; padding bytes grey-labelled `pad`.
#[must_use]
pub fn svg_sf_global(g: &GlobalSfLayout) -> String {
    let shown = g.bytes().min(512);
    let rows = u32::try_from(shown.div_ceil(16)).unwrap_or(32);
    let mut cells = Vec::new();
    for b in 0..shown {
        let (lines, colour) = match g.element(b) {
            Ok(Some(i)) => (
                [format!("r{}", i.row), format!("k{}", i.k_block)],
                i.k_block % 4,
            ),
            _ => (["pad".to_string(), String::new()], 4),
        };
        cells.push(Cell {
            row: u32::try_from(b / 16).unwrap_or(0),
            col: u32::try_from(b % 16).unwrap_or(0),
            colour,
            of: 5,
            lines,
            overlap: false,
        });
    }
    let name = match g.arrangement() {
        SfArrangement::Blocked128x4 => "blocked 128x4",
        other => other.name(),
    };
    render(&Grid {
        title: format!(
            "{name} scale factors, {} x {}: bytes 0-{} (r = row, k = K block)",
            g.rows(),
            g.k_blocks(),
            shown.saturating_sub(1)
        ),
        rows,
        cols: 16,
        sub: 4,
        row_label: "16-byte rows",
        col_label: "bytes (4 a Tensor Memory column)".into(),
        row_group: 8,
        col_groups: Vec::new(),
        cells,
    })
}

/// One cell per (row, K block) the MMAs read (rows down, the MMAs' K blocks across: MMA `m`'s
/// block `k` in column `m * blocks + k`), labelled with the element the first lane copy reads;
/// red where any copy reads another element than the one meant.
#[must_use]
pub fn svg_sf_chain(reads: &[SfRead], title: &str) -> String {
    let per = reads.iter().map(|r| r.k_block + 1).max().unwrap_or(1);
    let mmas = reads.iter().map(|r| r.mma + 1).max().unwrap_or(1);
    let rows = reads.iter().map(|r| r.index + 1).max().unwrap_or(1);
    let cols = u32::try_from(mmas).unwrap_or(1) * per;
    let mut cells: Vec<Cell> = Vec::new();
    for r in reads {
        let col = u32::try_from(r.mma).unwrap_or(0) * per + r.k_block;
        if let Some(c) = cells.iter_mut().find(|c| c.row == r.index && c.col == col) {
            c.overlap |= !r.agrees();
            continue;
        }
        let got = match (r.path.element, r.path.global) {
            (Some(e), _) => format!("r{} k{}", e.row, e.k_block),
            (None, Some(_)) => "pad".to_string(),
            (None, None) => "none".to_string(),
        };
        let meant = match r.intended {
            Some(i) => format!("({} {})", i.row, i.k_block),
            None => String::new(),
        };
        cells.push(Cell {
            row: r.index,
            col,
            colour: 1,
            of: 3,
            lines: [got, meant],
            overlap: !r.agrees(),
        });
    }
    render(&Grid {
        title: title.to_string(),
        rows,
        cols,
        sub: per,
        row_label: "rows",
        col_label:
            "MMAs (their K blocks); each cell: element read, (meant); red: not the one meant".into(),
        row_group: 32,
        col_groups: Vec::new(),
        cells,
    })
}
