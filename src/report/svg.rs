//! The position of a [`BoardView`] as a standalone SVG picture (`arbiter show --svg`), for
//! attaching to a ruling: no external assets, no fonts fetched (generic `sans-serif`), styles
//! as attributes on each element. It shows what the terminal drawing shows: caption, files and
//! ranks on every side, terrain, pieces in their side's colour with their letter (`?` when
//! unknown to the viewer), a gold dot on pieces the opponent knows, the last move framed and
//! arrowed, a legend, lost pieces and (Veldslag) the captured-piece score.

use crate::types::Side;
use crate::view::{BoardView, PieceView, Terrain};
use std::fmt::Write;

/// Side length of a square, in pixels.
const CELL: u32 = 44;
/// Room for the rank numbers left and right of the board.
const MARGIN: u32 = 28;
/// Height of the caption above the board (two lines).
const CAPTION: u32 = 50;
/// Height of one text line below the board.
const LINE: u32 = 18;
/// The gap the Xiangqi river takes between two ranks.
const RIVER: u32 = 22;
/// Least picture width, so that the text below a small board has room.
const MIN_WIDTH: u32 = 560;
/// Average width of one character of 13 px sans-serif text, for wrapping.
const CHAR_W: u32 = 7;
/// Average width of one character of the 15 px bold caption.
const CAPTION_CHAR_W: u32 = 9;

const LAST_MOVE: &str = "#e69500";
const KNOWN_DOT: &str = "#ffc400";

/// XML text and attribute escaping.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Fill, outline and text colour of a side's pieces, by the side's name.
fn side_colours(name: &str) -> (&'static str, &'static str, &'static str) {
    match name {
        "Red" => ("#c62828", "#7f0000", "#ffffff"),
        "Blue" => ("#1f4fb4", "#0d2a6b", "#ffffff"),
        "White" => ("#fafafa", "#333333", "#111111"),
        _ => ("#262626", "#000000", "#ffffff"),
    }
}

fn terrain_fill(t: Terrain) -> &'static str {
    match t {
        Terrain::Plain => "#efe3c8",
        Terrain::Lake | Terrain::Water => "#8ecae6",
        Terrain::Volcano => "#e07a5f",
        Terrain::Trap(_) => "#f2cc60",
        Terrain::Den(_) => "#95d5b2",
        Terrain::Palace(_) => "#e2d2ac",
    }
}

/// Splits `text` into lines of at most `max` characters: after a `, ` where possible (so that
/// `P Soldier` stays together), else at a space.
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    let words = text.split_inclusive(", ").flat_map(|item| {
        if item.chars().count() > max {
            item.split_inclusive(' ').collect::<Vec<_>>()
        } else {
            vec![item]
        }
    });
    for word in words {
        if !cur.is_empty() && cur.chars().count() + word.trim_end().chars().count() > max {
            lines.push(cur.trim_end().to_string());
            cur.clear();
        }
        cur.push_str(word);
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur.trim_end().to_string());
    }
    lines
}

/// One entry of the picture's legend: a small sample and what it means.
enum Sample {
    Square(Terrain),
    Unknown(Side),
    KnownDot,
    Covered,
    LastMove,
}

impl BoardView {
    /// The picture as a complete SVG document (UTF-8 text).
    pub fn render_svg(&self) -> String {
        let g = self.geometry;
        let names = self.side_names();
        let board_w = g.width as u32 * CELL;
        let river = self.river.map_or(0, |_| RIVER);
        let board_h = g.height as u32 * CELL + river;
        // Wide enough for the board, the text below it and the caption (which is not wrapped).
        let caption_w = 16 + CAPTION_CHAR_W * self.headline().chars().count() as u32;
        let view_w = 16 + CHAR_W * self.view_line().chars().count() as u32;
        let width = (board_w + 2 * MARGIN)
            .max(MIN_WIDTH)
            .max(caption_w)
            .max(view_w);
        let ox = (width - board_w) / 2;
        let oy = CAPTION + LINE;
        let max_chars = ((width - 16) / CHAR_W) as usize;

        // Text under the board: letters, legend samples, lost pieces, score.
        let mut notes: Vec<String> = Vec::new();
        let legend = self.legend();
        for l in legend.iter().skip(1).filter(|l| l.starts_with("letters: ")) {
            notes.extend(wrap(l, max_chars));
        }
        let mut samples: Vec<(Sample, String)> = Vec::new();
        for side in [Side::First, Side::Second] {
            if self
                .pieces
                .iter()
                .flatten()
                .any(|p| p.owner == side && p.identity.is_none())
            {
                samples.push((
                    Sample::Unknown(side),
                    format!("{} piece unknown to the viewer", names[side.index()]),
                ));
            }
        }
        let marks: Vec<Option<char>> = self
            .pieces
            .iter()
            .flatten()
            .map(|p| self.knowledge_mark(p))
            .collect();
        if marks.contains(&Some('*')) {
            samples.push((Sample::KnownDot, "identity known to the opponent".into()));
        }
        if marks.contains(&Some('!')) {
            samples.push((Sample::Covered, "identity known to neither player".into()));
        }
        if let Some(m) = self.last_move {
            samples.push((Sample::LastMove, format!("last move {}", self.move_text(m))));
        }
        for t in self.terrains() {
            samples.push((Sample::Square(t), t.describe(names)));
        }
        let mut tail: Vec<String> = Vec::new();
        for side in [Side::First, Side::Second] {
            tail.extend(wrap(&self.lost_line(side), max_chars));
        }
        if let Some(s) = self.score_line() {
            tail.extend(wrap(&s, max_chars));
        }
        let text_top = oy + board_h + 2 * LINE + 8;
        let lines = notes.len() + samples.len() + tail.len();
        let height = text_top + lines as u32 * LINE + 10;

        let mut s = String::new();
        let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
        );
        let _ = writeln!(
            s,
            "<title>{} — {}</title>",
            esc(&self.headline()),
            esc(&self.view_line())
        );
        let _ = writeln!(
            s,
            r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{LAST_MOVE}"/></marker></defs>"#
        );
        let _ = writeln!(
            s,
            r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            s,
            r##"<text x="8" y="20" font-size="15" font-weight="bold" fill="#111111">{}</text>"##,
            esc(&self.headline())
        );
        let _ = writeln!(
            s,
            r##"<text x="8" y="40" font-size="13" fill="#333333">{}</text>"##,
            esc(&self.view_line())
        );

        // Square origin (top-left) of a square.
        let at = |sq: u8| -> (u32, u32) {
            let file = g.file(sq) as u32;
            let rank = g.rank(sq);
            let row = (g.height - 1 - rank) as u32;
            let below_river = self.river.is_some_and(|r| rank <= r);
            (
                ox + file * CELL,
                oy + row * CELL + if below_river { river } else { 0 },
            )
        };
        // Coordinates on all four sides.
        for f in 0..g.width {
            let x = ox + f as u32 * CELL + CELL / 2;
            let letter = (b'a' + f) as char;
            for y in [oy - 6, oy + board_h + 16] {
                let _ = writeln!(
                    s,
                    r##"<text x="{x}" y="{y}" font-size="13" text-anchor="middle" fill="#555555">{letter}</text>"##
                );
            }
        }
        for r in 0..g.height {
            let (_, y) = at(g.square(0, r as i32).expect("rank on the board"));
            let label = r as u32 + g.rank_base as u32;
            let y = y + CELL / 2 + 5;
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{y}" font-size="13" text-anchor="middle" fill="#555555">{label}</text>"##,
                ox - MARGIN / 2
            );
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{y}" font-size="13" text-anchor="middle" fill="#555555">{label}</text>"##,
                ox + board_w + MARGIN / 2
            );
        }
        if let Some(above) = self.river.and_then(|r| g.square(0, r as i32 + 1)) {
            let (_, y) = at(above);
            let y = y + CELL;
            let _ = writeln!(
                s,
                r##"<rect x="{ox}" y="{y}" width="{board_w}" height="{river}" fill="#cfe8f7" stroke="#8a7a5a" stroke-width="1"/>"##
            );
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" font-size="12" font-style="italic" text-anchor="middle" fill="#2b6c8f">river</text>"##,
                ox + board_w / 2,
                y + river / 2 + 4
            );
        }
        // Squares and their terrain.
        for sq in 0..g.squares() as u8 {
            let (x, y) = at(sq);
            let t = self.terrain[sq as usize];
            square(&mut s, x, y, CELL, t, self.owner_colour(t));
        }
        // Last move: both squares framed, an arrow from one to the other.
        if let Some(m) = self.last_move {
            for sq in [m.from, m.to] {
                let (x, y) = at(sq);
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{LAST_MOVE}" stroke-width="3"/>"#,
                    x + 2,
                    y + 2,
                    CELL - 4,
                    CELL - 4
                );
            }
        }
        // Pieces.
        for sq in 0..g.squares() as u8 {
            if let Some(p) = &self.pieces[sq as usize] {
                let (x, y) = at(sq);
                self.piece(&mut s, x + CELL / 2, y + CELL / 2, p);
            }
        }
        // The last move's arrow, over the pieces, from the centre of the from-square to the
        // edge of the to-square's disc.
        if let Some(m) = self.last_move {
            let centre = |sq| {
                let (x, y) = at(sq);
                ((x + CELL / 2) as f32, (y + CELL / 2) as f32)
            };
            let (fx, fy) = centre(m.from);
            let (tx, ty) = centre(m.to);
            let len = ((tx - fx).powi(2) + (ty - fy).powi(2)).sqrt().max(1.0);
            let back = CELL as f32 * 0.42;
            let (ex, ey) = (tx - (tx - fx) * back / len, ty - (ty - fy) * back / len);
            let _ = writeln!(
                s,
                r#"<line x1="{fx:.1}" y1="{fy:.1}" x2="{ex:.1}" y2="{ey:.1}" stroke="{LAST_MOVE}" stroke-width="3" stroke-opacity="0.85" marker-end="url(#arrow)"/>"#
            );
        }
        // Text below.
        let mut y = text_top;
        for l in &notes {
            let _ = writeln!(
                s,
                r##"<text x="8" y="{y}" font-size="13" fill="#222222">{}</text>"##,
                esc(l)
            );
            y += LINE;
        }
        for (sample, label) in &samples {
            let (cx, cy) = (16, y - 5);
            match sample {
                Sample::Square(t) => square(&mut s, cx - 7, cy - 7, 14, *t, self.owner_colour(*t)),
                Sample::Unknown(side) => {
                    let (fill, stroke, _) = side_colours(names[side.index()]);
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" fill-opacity="0.55" stroke="{stroke}" stroke-width="1.5" stroke-dasharray="3 2"/>"#
                    );
                }
                Sample::KnownDot => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx}" cy="{cy}" r="5" fill="{KNOWN_DOT}" stroke="#333333" stroke-width="1"/>"##
                    );
                }
                Sample::Covered => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx}" cy="{cy}" r="7" fill="none" stroke="#555555" stroke-width="2" stroke-dasharray="2 2"/>"##
                    );
                }
                Sample::LastMove => {
                    let _ = writeln!(
                        s,
                        r#"<rect x="{}" y="{}" width="14" height="14" fill="none" stroke="{LAST_MOVE}" stroke-width="3"/>"#,
                        cx - 7,
                        cy - 7
                    );
                }
            }
            let _ = writeln!(
                s,
                r##"<text x="32" y="{y}" font-size="13" fill="#222222">{}</text>"##,
                esc(label)
            );
            y += LINE;
        }
        for l in &tail {
            let _ = writeln!(
                s,
                r##"<text x="8" y="{y}" font-size="13" fill="#222222">{}</text>"##,
                esc(l)
            );
            y += LINE;
        }
        s.push_str("</svg>\n");
        s
    }

    /// The colour of an owned square's sign: its owner's piece colour; grey for unowned
    /// terrain.
    fn owner_colour(&self, t: Terrain) -> &'static str {
        match t {
            Terrain::Trap(side) | Terrain::Den(side) | Terrain::Palace(side) => {
                side_colours(self.side_names()[side.index()]).0
            }
            _ => "#555555",
        }
    }

    /// A piece: a disc in its side's colour with its letter; a dashed, paler disc with `?`
    /// when the identity is unknown; a gold dot when the opponent knows it; a dashed ring when
    /// nobody does.
    fn piece(&self, s: &mut String, cx: u32, cy: u32, p: &PieceView) {
        let (fill, stroke, text) = side_colours(self.side_names()[p.owner.index()]);
        let r = CELL * 38 / 100;
        let (letter, faded) = match p.identity {
            Some(i) => (i.letter, ""),
            None => ('?', r#" fill-opacity="0.55" stroke-dasharray="4 3""#),
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="2"{faded}/>"#
        );
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{}" font-size="18" font-weight="bold" text-anchor="middle" fill="{text}">{}</text>"#,
            cy + 6,
            esc(&letter.to_string())
        );
        match self.knowledge_mark(p) {
            Some('*') => {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{}" cy="{}" r="5" fill="{KNOWN_DOT}" stroke="#333333" stroke-width="1"/>"##,
                    cx + r - 3,
                    cy - r + 3
                );
            }
            Some('!') => {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#555555" stroke-width="2" stroke-dasharray="2 2"/>"##,
                    r + 3
                );
            }
            _ => {}
        }
    }
}

/// One square of `size` pixels at (`x`, `y`) with its terrain's colour and sign: waves on
/// water and lakes, a cone on a volcano, a cross on a trap, a ring in a den, the palace's
/// diagonals; the sign of an owned square (trap, den, palace) in `owner`'s colour.
fn square(s: &mut String, x: u32, y: u32, size: u32, t: Terrain, owner: &str) {
    let _ = writeln!(
        s,
        r##"<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{}" stroke="#8a7a5a" stroke-width="1"/>"##,
        terrain_fill(t)
    );
    let (x, y, c) = (x as f32, y as f32, size as f32);
    // A point of the square, as fractions of its side from the top-left corner.
    let pt = |fx: f32, fy: f32| format!("{:.1} {:.1}", x + c * fx, y + c * fy);
    match t {
        Terrain::Lake | Terrain::Water => {
            for k in [0.35, 0.6] {
                let yy = y + c * k;
                let _ = writeln!(
                    s,
                    r##"<path d="M {:.1} {yy:.1} q {:.1} -5 {:.1} 0 t {:.1} 0 t {:.1} 0" fill="none" stroke="#2b6c8f" stroke-width="1.5"/>"##,
                    x + c * 0.15,
                    c * 0.12,
                    c * 0.23,
                    c * 0.23,
                    c * 0.23
                );
            }
        }
        Terrain::Volcano => {
            let _ = writeln!(
                s,
                r##"<path d="M {} L {} L {} z" fill="#8c2f1b"/>"##,
                pt(0.2, 0.8),
                pt(0.5, 0.25),
                pt(0.8, 0.8)
            );
        }
        Terrain::Trap(_) => {
            let _ = writeln!(
                s,
                r##"<path d="M {} L {} M {} L {}" stroke="{owner}" stroke-width="2"/>"##,
                pt(0.15, 0.15),
                pt(0.85, 0.85),
                pt(0.85, 0.15),
                pt(0.15, 0.85)
            );
        }
        Terrain::Den(_) => {
            let _ = writeln!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{owner}" stroke-width="3"/>"##,
                x + c / 2.0,
                y + c / 2.0,
                c * 0.42
            );
        }
        Terrain::Palace(_) => {
            let _ = writeln!(
                s,
                r##"<path d="M {} L {} M {} L {}" stroke="{owner}" stroke-width="1" stroke-opacity="0.6"/>"##,
                pt(0.0, 0.0),
                pt(1.0, 1.0),
                pt(1.0, 0.0),
                pt(0.0, 1.0)
            );
        }
        Terrain::Plain => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_wraps() {
        assert_eq!(esc("a<b & 'c'\u{7}"), "a&lt;b &amp; &apos;c&apos; ");
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("a: P x, Q y, R z", 12), vec!["a: P x, Q y,", "R z"]);
        assert_eq!(wrap("", 5), vec![""]);
    }
}
