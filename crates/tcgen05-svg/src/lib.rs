//! SVG pictures of the Tensor Memory maps of the `tcgen05` crate: which thread and register hold
//! which cell after `tcgen05.ld` / `.st` ([`svg_ld`], PTX ISA 9.7.16.8.3-4, Figures 189-193),
//! where an MMA keeps D ([`svg_d`], 9.7.16.10.5, data-path layouts A-G), where the block-scale
//! factors live ([`svg_sf`], 9.7.16.10.7) and which lanes a `tcgen05.cp` row lands in
//! ([`svg_cp`], 9.7.16.9.2), and which elements each 16-byte chunk of a shared-memory operand
//! tile holds ([`svg_smem`], 9.7.16.3.3), and block-scale factors in global memory and along
//! their chain to the MMA ([`svg_sf_global`], [`svg_sf_chain`]). Every map comes from `tcgen05::tmem_fragment` and
//! `tcgen05::data_path` (the shared-memory tiles from `tcgen05::canonical_layout`); this crate
//! only draws them, for the `tcgen05 tmem --svg` and `tcgen05 layout --svg` commands and the
//! Python package's notebooks.

use std::fmt::Write as _;

mod scale_factors;
mod smem;
pub use scale_factors::{svg_sf_chain, svg_sf_global};
pub use smem::{layout_chunks, svg_smem, tile_chunks, SmemChunks, SmemPicture};

use tcgen05::data_path::{DLayout, SfLayout, SfOperand};
use tcgen05::tensor_memory::{CpMulticast, CpShape, LdStShape};
use tcgen05::tmem_fragment::{cp_row, cp_rows, LdStFragment, Packing};

/// One cell of a picture.
struct Cell {
    row: u32,
    col: u32,
    /// Colour index (thread, warp, row...).
    colour: u32,
    /// Colours in the palette.
    of: u32,
    lines: [String; 2],
    /// Two owners overlap here (drawn red).
    overlap: bool,
}

/// A grid picture: Tensor Memory lanes down, columns (or bytes) across, as the PTX figures
/// draw them.
struct Grid {
    title: String,
    rows: u32,
    cols: u32,
    /// Grid columns per Tensor Memory column (4 for byte-wide scale-factor pictures).
    sub: u32,
    row_label: &'static str,
    col_label: String,
    /// Every how many grid rows a thick rule separates groups (warp quadrants, CTAs).
    row_group: u32,
    /// Label of each column group (the CTA of D pictures), if any.
    col_groups: Vec<(u32, u32, String)>,
    cells: Vec<Cell>,
}

const CW: u32 = 44;
const CH: u32 = 24;
const LEFT: u32 = 64;
const TOP: u32 = 56;

fn colour(i: u32, of: u32) -> String {
    // Evenly spread hues; alternate lightness so that neighbours differ.
    let of = of.max(1);
    let hue = (i % of) * 360 / of;
    let light = if i % 2 == 0 { 78 } else { 66 };
    format!("hsl({hue},70%,{light}%)")
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn render(g: &Grid) -> String {
    // Wide enough for the title too (about 8 px per character at 13 px).
    let title_width = u32::try_from(g.title.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(8)
        + 16;
    // The subtitle too (about 6 px per character at 10 px), from LEFT.
    let subtitle = format!("{} across, {} down", g.col_label, g.row_label);
    let sub_width = LEFT
        + u32::try_from(subtitle.len())
            .unwrap_or(u32::MAX)
            .saturating_mul(6)
        + 16;
    let width = (LEFT + g.cols * CW + 16).max(title_width).max(sub_width);
    let height = TOP + g.rows * CH + 16;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"9\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        s,
        "<text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{}</text>",
        esc(&g.title)
    );
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"32\" font-size=\"10\">{}</text>",
        esc(&subtitle)
    );
    for (from, to, label) in &g.col_groups {
        let x = LEFT + from * CW;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"44\" font-size=\"10\" font-weight=\"bold\">{}</text>",
            x + 2,
            esc(label)
        );
        let _ = writeln!(
            s,
            "<line x1=\"{x}\" y1=\"{TOP}\" x2=\"{x}\" y2=\"{}\" stroke=\"black\" stroke-width=\"2\"/>",
            TOP + g.rows * CH
        );
        let _ = to;
    }
    // Column headers.
    for c in 0..g.cols {
        if c % g.sub == 0 {
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\">{}</text>",
                LEFT + c * CW + 2,
                TOP - 3,
                c / g.sub
            );
        }
    }
    // Row headers.
    for r in 0..g.rows {
        let _ = writeln!(
            s,
            "<text x=\"8\" y=\"{}\">{} {}</text>",
            TOP + r * CH + 15,
            if g.row_label == "lanes" {
                "lane"
            } else {
                "row"
            },
            r
        );
    }
    for c in &g.cells {
        let x = LEFT + c.col * CW;
        let y = TOP + c.row * CH;
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CW}\" height=\"{CH}\" fill=\"{}\" stroke=\"#666\" stroke-width=\"0.5\"/>",
            if c.overlap {
                "#e33".to_string()
            } else {
                colour(c.colour, c.of)
            }
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            x + 2,
            y + 10,
            esc(&c.lines[0])
        );
        if !c.lines[1].is_empty() {
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                x + 2,
                y + 20,
                esc(&c.lines[1])
            );
        }
    }
    // Rules: column boundaries of Tensor Memory cells, row groups.
    for c in (0..=g.cols).step_by(g.sub.max(1) as usize) {
        let x = LEFT + c * CW;
        let _ = writeln!(
            s,
            "<line x1=\"{x}\" y1=\"{TOP}\" x2=\"{x}\" y2=\"{}\" stroke=\"#222\" stroke-width=\"1\"/>",
            TOP + g.rows * CH
        );
    }
    if g.row_group > 0 {
        for r in (0..=g.rows).step_by(g.row_group as usize) {
            let y = TOP + r * CH;
            let _ = writeln!(
                s,
                "<line x1=\"{LEFT}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"black\" stroke-width=\"2\"/>",
                LEFT + g.cols * CW
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The fragment map of one `tcgen05.ld` / `.st`: one cell per Tensor Memory cell the warp
/// accesses, labelled with the thread and register that hold it (both halves with packing;
/// overlapping `.16x32bx2` halves in red).
#[must_use]
pub fn svg_ld(f: &LdStFragment) -> String {
    let cols = f.column_span();
    let mut cells = Vec::new();
    for lane in 0..f.lanes() {
        for col in 0..cols {
            let half = |o: &tcgen05::tmem_fragment::Owner| match f.packing() {
                Packing::None => "",
                Packing::Pack16b => {
                    if o.register_bits.lo == 0 {
                        ".lo"
                    } else {
                        ".hi"
                    }
                }
            };
            match f.owners(lane, col) {
                // The halves of .16x32bx2 overlap: both owners, in red.
                [Some(a), Some(b)] => cells.push(Cell {
                    row: lane,
                    col,
                    colour: 0,
                    of: 32,
                    lines: [
                        format!("T{}/T{}", a.thread, b.thread),
                        format!("r{}{}/r{}{}", a.register, half(&a), b.register, half(&b)),
                    ],
                    overlap: true,
                }),
                [Some(o), None] | [None, Some(o)] => cells.push(Cell {
                    row: lane,
                    col,
                    colour: u32::from(o.thread),
                    of: 32,
                    lines: [
                        format!("T{}", o.thread),
                        format!("r{}{}", o.register, half(&o)),
                    ],
                    overlap: false,
                }),
                [None, None] => {}
            }
        }
    }
    let mut title = format!(
        "tcgen05.ld/st{}{}{}: thread T, register r of each Tensor Memory cell",
        f.shape(),
        f.num(),
        f.packing().ld_name()
    );
    if matches!(f.shape(), LdStShape::S16x32bx2) {
        let _ = write!(title, " (half-split offset {})", f.half_split_offset());
        if cells.iter().any(|c| c.overlap) {
            title.push_str("; red: the two halves overlap");
        }
    }
    render(&Grid {
        title,
        rows: f.lanes(),
        cols,
        sub: 1,
        row_label: "lanes",
        col_label: match f.packing() {
            Packing::None => "32-bit columns from the address".into(),
            Packing::Pack16b => "32-bit columns from the address (.lo/.hi: register bits 15-0/31-16 <- cell bits 15-0)".into(),
        },
        row_group: 8,
        col_groups: Vec::new(),
        cells,
    })
}

/// One Tensor Memory cell of a band picture: `a` counts down the lanes of a band (a row of D,
/// a scale-factor index, a source row), `b` across its columns (a column of D, a K block).
struct BandCell {
    lane: u32,
    col: u32,
    a: u32,
    b: u32,
    colour: u32,
}

/// A band picture: all 128 lanes down, grid columns across; runs of lanes whose `a` counts up
/// by one (same `b`) are merged, then neighbouring runs whose `b` counts up, and each band is
/// labelled with its ranges, as the PTX data-path figures draw warps' row blocks.
struct Bands {
    title: String,
    subtitle: String,
    /// Grid columns and the label of each.
    col_headers: Vec<String>,
    /// Labels over groups of grid columns (CTA 0, CTA 1), with their first grid column.
    col_groups: Vec<(u32, String)>,
    a_name: &'static str,
    b_name: &'static str,
    colours: u32,
    cells: Vec<BandCell>,
}

const BW: u32 = 64;
const LH: u32 = 5;

struct Band {
    lane0: u32,
    lane1: u32,
    col0: u32,
    col1: u32,
    a0: u32,
    a1: u32,
    b0: u32,
    b1: u32,
    colour: u32,
}

fn range(name: &str, lo: u32, hi: u32) -> String {
    if lo == hi {
        format!("{name}{lo}")
    } else {
        format!("{name}{lo}-{hi}")
    }
}

/// The bands of a picture: vertical runs of lanes in each grid column whose `a` counts up by
/// one (same `b` and colour), then neighbouring runs over the same lanes whose `b` counts up.
fn band_runs(p: &Bands, cols: u32) -> Vec<Band> {
    // Vertical runs in each grid column.
    let mut grid: Vec<Vec<Option<&BandCell>>> = vec![vec![None; 128]; cols as usize];
    for c in &p.cells {
        if let Some(slot) = grid
            .get_mut(c.col as usize)
            .and_then(|g| g.get_mut(c.lane as usize))
        {
            *slot = Some(c);
        }
    }
    let mut runs: Vec<Band> = Vec::new();
    for (col, lanes) in grid.iter().enumerate() {
        let col = u32::try_from(col).unwrap_or(0);
        let mut lane = 0;
        while lane < 128 {
            let Some(first) = lanes[lane as usize] else {
                lane += 1;
                continue;
            };
            let mut end = lane;
            while end + 1 < 128 {
                match lanes[(end + 1) as usize] {
                    Some(n)
                        if n.b == first.b
                            && n.colour == first.colour
                            && n.a == first.a + (end + 1 - lane) =>
                    {
                        end += 1
                    }
                    _ => break,
                }
            }
            runs.push(Band {
                lane0: lane,
                lane1: end,
                col0: col,
                col1: col,
                a0: first.a,
                a1: first.a + (end - lane),
                b0: first.b,
                b1: first.b,
                colour: first.colour,
            });
            lane = end + 1;
        }
    }
    // Horizontal merging of runs over the same lanes and rows with consecutive b.
    let mut bands: Vec<Band> = Vec::new();
    for r in runs {
        if let Some(prev) = bands.iter_mut().find(|q| {
            q.lane0 == r.lane0
                && q.lane1 == r.lane1
                && q.a0 == r.a0
                && q.a1 == r.a1
                && q.colour == r.colour
                && q.col1 + 1 == r.col0
                && q.b1 + 1 == r.b0
        }) {
            prev.col1 = r.col0;
            prev.b1 = r.b0;
        } else {
            bands.push(r);
        }
    }
    bands
}

/// One band of a band picture: its rectangle and its `a` and `b` ranges, in two lines, one
/// small line or a tiny one as its height allows.
fn draw_band(s: &mut String, p: &Bands, b: &Band, top: u32) {
    let x = LEFT + b.col0 * BW;
    let y = top + b.lane0 * LH;
    let w = (b.col1 - b.col0 + 1) * BW;
    let h = (b.lane1 - b.lane0 + 1) * LH;
    let _ = writeln!(
        s,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{}\" stroke=\"#333\" stroke-width=\"0.6\"/>",
        colour(b.colour, p.colours)
    );
    let l1 = range(p.a_name, b.a0, b.a1);
    let l2 = range(p.b_name, b.b0, b.b1);
    if h >= 24 {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            x + 3,
            y + h / 2 - 1,
            esc(&l1)
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            x + 3,
            y + h / 2 + 10,
            esc(&l2)
        );
    } else if h >= 8 {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"7\">{} {}</text>",
            x + 2,
            y + h / 2 + 3,
            esc(&l1),
            esc(&l2)
        );
    } else {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"5\">{} {}</text>",
            x + 2,
            y + h,
            esc(&l1),
            esc(&l2)
        );
    }
}

fn render_bands(p: &Bands) -> String {
    let cols = u32::try_from(p.col_headers.len()).unwrap_or(0);
    let bands = band_runs(p, cols);
    let title_width = u32::try_from(p.title.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(8)
        + 16;
    let sub_width = u32::try_from(p.subtitle.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(6)
        + 16;
    let width = (LEFT + cols * BW + 16).max(title_width).max(sub_width);
    let top = TOP + 8;
    let height = top + 128 * LH + 16;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"10\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        s,
        "<text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{}</text>",
        esc(&p.title)
    );
    let _ = writeln!(s, "<text x=\"8\" y=\"32\">{}</text>", esc(&p.subtitle));
    for (c, label) in &p.col_groups {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"46\" font-weight=\"bold\">{}</text>",
            LEFT + c * BW + 2,
            esc(label)
        );
    }
    for (c, h) in p.col_headers.iter().enumerate() {
        let c = u32::try_from(c).unwrap_or(0);
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"9\">{}</text>",
            LEFT + c * BW + 2,
            top - 3,
            esc(h)
        );
    }
    // Unused cells grey, then the bands.
    let _ = writeln!(
        s,
        "<rect x=\"{LEFT}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"#eee\" stroke=\"#999\"/>",
        cols * BW,
        128 * LH
    );
    for b in &bands {
        draw_band(&mut s, p, b, top);
    }
    // Lane ticks every 16 lanes, thick rules at the 32-lane quadrants (the warps that may read them).
    for lane in (0..=128).step_by(16) {
        let y = top + lane * LH;
        // Quadrant rules across the picture, other ticks in the margin only.
        let (w, x2) = if lane % 32 == 0 {
            (2, LEFT + cols * BW)
        } else {
            (1, LEFT)
        };
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"black\" stroke-width=\"{w}\"/>",
            LEFT - 6
        );
        if lane < 128 {
            let _ = writeln!(
                s,
                "<text x=\"8\" y=\"{}\" font-size=\"9\">lane {lane}</text>",
                y + 9
            );
        }
    }
    for (c, _) in &p.col_groups {
        let x = LEFT + c * BW;
        let _ = writeln!(
            s,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"black\" stroke-width=\"3\"/>",
            top - 12,
            top + 128 * LH
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Where an MMA keeps D: lane bands and column ranges of each block of D, per CTA.
#[must_use]
pub fn svg_d(d: &DLayout) -> String {
    let l = d.layout();
    let cols = d.columns();
    let mut cells = Vec::new();
    let mut col_headers = Vec::new();
    let mut col_groups = Vec::new();
    for cta in 0..l.ctas() {
        if l.ctas() > 1 {
            col_groups.push((cta * cols, format!("CTA {cta}")));
        }
        for col in 0..cols {
            col_headers.push(format!("col {col}"));
            for lane in 0..128 {
                if let Some((m, n)) = d.element_at(cta, lane, col) {
                    cells.push(BandCell {
                        lane,
                        col: cta * cols + col,
                        a: m,
                        b: n,
                        colour: lane / 32,
                    });
                }
            }
        }
    }
    render_bands(&Bands {
        title: format!(
            "D of M = {}, N = {}, .cta_group::{}{}: layout {l}, {}",
            d.m(),
            d.n(),
            l.cta_group().count(),
            if l.is_ws() { ", .ws" } else { "" },
            l.organization()
        ),
        subtitle: format!(
            "D[m][n] by lane and column from the D address; colour = warp (w % 4) that reads the lanes; grey = unused (PTX ISA {})",
            l.section()
        ),
        col_headers,
        col_groups,
        a_name: "m",
        b_name: "n",
        colours: 4,
        cells,
    })
}

/// Where the scale factors of A or B live: the lanes of each copy, columns and bytes.
#[must_use]
pub fn svg_sf(s: &SfLayout) -> String {
    let cols = s.columns();
    let mut cells = Vec::new();
    let mut col_headers = Vec::new();
    for c in 0..cols {
        for byte in 0..4 {
            col_headers.push(format!("c{c}.b{byte}"));
        }
    }
    for i in 0..s.extent() {
        for kb in 0..s.vec().count() {
            let Ok(c) = s.locate(i, kb) else { continue };
            for (copy, &lane) in c.lanes().iter().enumerate() {
                cells.push(BandCell {
                    lane,
                    col: c.column * 4 + c.byte,
                    a: match s.operand() {
                        SfOperand::A => i % s.layout().rows_per_cta(),
                        SfOperand::B => i,
                    },
                    b: kb,
                    colour: u32::try_from(copy).unwrap_or(0),
                });
            }
        }
    }
    let (a_name, who) = match s.operand() {
        SfOperand::A => ("m", "A"),
        SfOperand::B => ("n", "B"),
    };
    let a_name = if s.operand() == SfOperand::A && s.layout().ctas() > 1 {
        "m'"
    } else {
        a_name
    };
    render_bands(&Bands {
        title: format!(
            "scale_{who}, {}, layout {}: byte of each scale factor",
            s.vec(),
            s.layout()
        ),
        subtitle: format!(
            "{a_name} = {} index, k = K block; column.byte from the scale-factor address; colour = copy (PTX ISA 9.7.16.10.7)",
            if s.operand() == SfOperand::A { "row (per CTA)" } else { "column of B" }
        ),
        col_headers,
        col_groups: Vec::new(),
        a_name,
        b_name: "k",
        colours: 4,
        cells,
    })
}

/// Which lanes each source row of a `tcgen05.cp` lands in, for its shape and multicast.
#[must_use]
pub fn svg_cp(shape: CpShape, mc: CpMulticast) -> String {
    let cols = shape.columns_per_lane();
    let mut cells = Vec::new();
    for row in 0..cp_rows(shape) {
        let Ok(r) = cp_row(shape, mc, row) else {
            continue;
        };
        for (copy, &lane) in r.lanes().iter().enumerate() {
            for col in 0..cols {
                cells.push(BandCell {
                    lane: u32::from(lane),
                    col,
                    a: row,
                    b: col,
                    colour: u32::try_from(copy).unwrap_or(0),
                });
            }
        }
    }
    render_bands(&Bands {
        title: format!("tcgen05.cp{shape}{}: source row of each lane", mc.name()),
        subtitle: "row = source row in shared memory, c = 32-bit column from the address; colour = copy (PTX ISA 9.7.16.9.2)".into(),
        col_headers: (0..cols).map(|c| format!("col {c}")).collect(),
        col_groups: Vec::new(),
        a_name: "row",
        b_name: "c",
        colours: 4,
        cells,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

    use super::*;
    use tcgen05::tensor_memory::{LdStShape, Num};
    use tcgen05::CtaGroup;

    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| t.split_once('>').map(|(_, r)| r))
            .filter_map(|r| r.split_once("</text>").map(|(t, _)| t))
            .collect()
    }

    #[test]
    fn every_picture_is_one_svg_document() {
        let f = LdStFragment::try_new(LdStShape::S32x32b, Num::X2, Packing::None, None).unwrap();
        let d = DLayout::try_new(128, 64, CtaGroup::One, false, false).unwrap();
        for svg in [
            svg_ld(&f),
            svg_d(&d),
            svg_cp(CpShape::S128x256b, CpMulticast::None),
        ] {
            assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
            assert!(svg.ends_with("</svg>\n"));
            assert_eq!(svg.matches("<svg").count(), 1);
        }
    }

    #[test]
    fn ld_picture_labels_every_cell_with_its_thread_and_register() {
        // .32x32b.x2: thread t holds lane t, registers 0 and 1 at columns 0 and 1 (Figure 189).
        let f = LdStFragment::try_new(LdStShape::S32x32b, Num::X2, Packing::None, None).unwrap();
        let svg = svg_ld(&f);
        let t = texts(&svg);
        for thread in 0..32 {
            let label = format!("T{thread}");
            assert_eq!(t.iter().filter(|s| **s == label).count(), 2, "{label}");
        }
        for reg in ["r0", "r1"] {
            assert_eq!(t.iter().filter(|s| **s == reg).count(), 32, "{reg}");
        }
    }
}
