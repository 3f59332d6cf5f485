//! The position of a [`BoardView`] as SVG: the standalone picture of `arbiter show --svg`
//! (for attaching to a ruling: no external assets, no fonts fetched, styles as attributes on
//! each element) and the parts the HTML report ([`super::html`]) steps through: the board
//! without pieces, each piece drawn at the origin, the marks.
//!
//! Two kinds of board: squares (Stratego family, Spionage, Jungle), each square filled with
//! its terrain and the pieces inside the squares; and points (Xiangqi, Jieqi: the boards with
//! a river), the pieces on the intersections of the file and rank lines, the river as the gap
//! where the inner file lines stop, the palaces as their diagonals, the customary marks on the
//! Soldiers' and Cannons' start points. Both share one layout: a square's centre is its point.
//!
//! A piece is a disc in its side's colour with its face (the log's letter, or with
//! [`Faces::Chinese`] the traditional character of a Xiangqi piece), pale and dashed with `?`
//! when the viewer does not know it, a gold dot when the opponent knows it, a dashed ring when
//! nobody does; the last move is framed and arrowed. Below the standalone board: the letters,
//! a legend of the samples used, lost pieces and (Veldslag) the captured-piece score.

use crate::geometry::Square;
use crate::types::Side;
use crate::view::{BoardView, PieceView, Terrain};
use std::fmt::Write;

/// Side length of a square (and distance between two points), in pixels.
pub const CELL: u32 = 44;
/// Room for the rank numbers left and right of the board.
const MARGIN: u32 = 28;
/// Height of the caption above the board (two lines).
const CAPTION: u32 = 50;
/// Height of one text line below the board.
const LINE: u32 = 18;
/// Least picture width, so that the text below a small board has room.
const MIN_WIDTH: u32 = 560;
/// Average width of one character of 13 px sans-serif text, for wrapping.
const CHAR_W: u32 = 7;
/// Average width of one character of the 15 px bold caption.
const CAPTION_CHAR_W: u32 = 9;
/// The last move's arrow stops this far (pixels) before the to-square's centre.
pub const ARROW_BACK: f32 = CELL as f32 * 0.42;

const LAST_MOVE: &str = "#e69500";
const KNOWN_DOT: &str = "#ffc400";
const HIGHLIGHT: &str = "#7b1fa2";
const LINE_COLOUR: &str = "#5a4220";
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
/// Local fonts with the Chinese characters (none is fetched).
const CJK_FONT: &str =
    "Noto Serif CJK SC, Noto Sans CJK SC, WenQuanYi Zen Hei, AR PL UKai CN, SimSun, KaiTi, serif";

/// How piece faces are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Faces {
    /// The letters of the log format (`R`, `5`, `L`): every game.
    #[default]
    Letters,
    /// Xiangqi and Jieqi pieces in the traditional characters (帥仕相傌俥炮兵 for Red,
    /// 將士象馬車砲卒 for Black); other games keep their letters.
    Chinese,
}

/// A mark on one square, drawn centred on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// An end of the last move: a frame.
    LastMove,
    /// A square a finding is about: a thick ring of the highlight colour.
    Finding,
    /// A square of a finding's earlier plies (the run, the window): a thin dashed frame.
    Evidence,
}

/// XML text and attribute escaping; control characters become spaces, and characters that
/// reorder or hide text their visible stand-ins ([`crate::escape::format_stand_in`]).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(crate::escape::format_stand_in(c).unwrap_or(c)),
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

/// The traditional character of a Xiangqi piece by its letter (`K A B N R C P`) and side.
pub fn chinese_face(side: Side, letter: char) -> Option<char> {
    let i = "KABNRCP".find(letter)?;
    let faces = match side {
        Side::First => ['帥', '仕', '相', '傌', '俥', '炮', '兵'],
        Side::Second => ['將', '士', '象', '馬', '車', '砲', '卒'],
    };
    Some(faces[i])
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

/// Where the board lies in a picture: the top-left corner of its first square column and
/// top rank, in pixels.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Left edge of the board.
    pub ox: u32,
    /// Top edge of the board.
    pub oy: u32,
    /// Width of the whole picture.
    pub width: u32,
    /// Height of the whole picture.
    pub height: u32,
}

impl Layout {
    /// The board alone with its coordinates around it (the HTML report's board).
    pub fn board_only(v: &BoardView) -> Layout {
        let g = v.geometry;
        Layout {
            ox: MARGIN,
            oy: LINE + 4,
            width: g.width as u32 * CELL + 2 * MARGIN,
            height: g.height as u32 * CELL + 2 * LINE + 12,
        }
    }

    /// The centre of square `sq` (its point on a board of points), in pixels.
    pub fn centre(&self, v: &BoardView, sq: Square) -> (u32, u32) {
        let g = v.geometry;
        let row = (g.height - 1 - g.rank(sq)) as u32;
        (
            self.ox + g.file(sq) as u32 * CELL + CELL / 2,
            self.oy + row * CELL + CELL / 2,
        )
    }
}

/// The text under a standalone picture: letters, legend samples, lost pieces, score.
struct Notes {
    letters: Vec<String>,
    samples: Vec<(Sample, String)>,
    tail: Vec<String>,
}

impl Notes {
    fn of(v: &BoardView, max_chars: usize) -> Notes {
        let names = v.side_names();
        let mut letters = Vec::new();
        for l in v
            .legend()
            .iter()
            .skip(1)
            .filter(|l| l.starts_with("letters: "))
        {
            letters.extend(wrap(l, max_chars));
        }
        let mut samples: Vec<(Sample, String)> = Vec::new();
        for side in [Side::First, Side::Second] {
            if v.pieces
                .iter()
                .flatten()
                .any(|p| p.owner == side && p.identity.is_none())
            {
                let text = format!("{} piece unknown to the viewer", names[side.index()]);
                samples.push((Sample::Unknown(side), text));
            }
        }
        let marks: Vec<Option<char>> = v
            .pieces
            .iter()
            .flatten()
            .map(|p| v.knowledge_mark(p))
            .collect();
        if marks.contains(&Some('*')) {
            samples.push((Sample::KnownDot, "identity known to the opponent".into()));
        }
        if marks.contains(&Some('!')) {
            samples.push((Sample::Covered, "identity known to neither player".into()));
        }
        if let Some(m) = v.last_move {
            samples.push((Sample::LastMove, format!("last move {}", v.move_text(m))));
        }
        for t in v.terrains() {
            samples.push((Sample::Square(t), t.describe(names)));
        }
        let mut tail: Vec<String> = Vec::new();
        for side in [Side::First, Side::Second] {
            tail.extend(wrap(&v.lost_line(side), max_chars));
        }
        if let Some(s) = v.score_line() {
            tail.extend(wrap(&s, max_chars));
        }
        Notes {
            letters,
            samples,
            tail,
        }
    }

    fn lines(&self) -> u32 {
        (self.letters.len() + self.samples.len() + self.tail.len()) as u32
    }
}

impl BoardView {
    /// True when pieces stand on points (Xiangqi and Jieqi, the boards with a river), false
    /// when they stand in squares.
    pub fn on_points(&self) -> bool {
        self.river.is_some()
    }

    /// The picture as a complete SVG document (UTF-8 text), pieces faced with letters.
    pub fn render_svg(&self) -> String {
        self.render_svg_with(Faces::Letters)
    }

    /// The picture as a complete SVG document (UTF-8 text) with `faces`. `id` prefixes the
    /// document's one element id (the arrow head), so that several pictures can share a page.
    pub fn render_svg_with(&self, faces: Faces) -> String {
        self.render_svg_in(faces, "")
    }

    /// [`BoardView::render_svg_with`] with the element ids prefixed by `id`.
    pub fn render_svg_in(&self, faces: Faces, id: &str) -> String {
        let g = self.geometry;
        let board_w = g.width as u32 * CELL;
        let board_h = g.height as u32 * CELL;
        // Wide enough for the board, the text below it and the caption (which is not wrapped).
        let caption_w = 16 + CAPTION_CHAR_W * self.headline().chars().count() as u32;
        let view_w = 16 + CHAR_W * self.view_line().chars().count() as u32;
        let width = (board_w + 2 * MARGIN)
            .max(MIN_WIDTH)
            .max(caption_w)
            .max(view_w);
        let notes = Notes::of(self, ((width - 16) / CHAR_W) as usize);
        let oy = CAPTION + LINE;
        let text_top = oy + board_h + 2 * LINE + 8;
        let layout = Layout {
            ox: (width - board_w) / 2,
            oy,
            width,
            height: text_top + notes.lines() * LINE + 10,
        };
        let mut s = String::new();
        let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
        self.svg_open(&mut s, &layout, id);
        let _ = writeln!(
            s,
            "<title>{} — {}</title>",
            esc(&self.headline()),
            esc(&self.view_line())
        );
        arrow_defs(&mut s, id);
        let (w, h) = (layout.width, layout.height);
        let _ = writeln!(
            s,
            r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>"##
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
        self.board_frame(&mut s, &layout, faces);
        self.position(&mut s, &layout, faces, id);
        self.notes(&mut s, &notes, text_top);
        s.push_str("</svg>\n");
        s
    }

    /// The opening `<svg>` tag of a picture of `layout`'s size.
    pub fn svg_open(&self, s: &mut String, layout: &Layout, id: &str) {
        let (w, h) = (layout.width, layout.height);
        let id_attr = if id.is_empty() {
            String::new()
        } else {
            format!(r#" id="{}""#, esc(id))
        };
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg"{id_attr} width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">"#
        );
    }

    /// The board without pieces: coordinates on all four sides, the squares with their
    /// terrain, or the lines, river, palaces and start-point marks of a board of points.
    pub fn board_frame(&self, s: &mut String, layout: &Layout, faces: Faces) {
        self.coordinates(s, layout);
        if self.on_points() {
            self.points_board(s, layout, faces);
        } else {
            let half = CELL / 2;
            for sq in 0..self.geometry.squares() as u8 {
                let (x, y) = layout.centre(self, sq);
                let t = self.terrain[sq as usize];
                square(s, x - half, y - half, CELL, t, self.owner_colour(t));
            }
        }
    }

    /// The last move's marks, the pieces and the last move's arrow.
    fn position(&self, s: &mut String, layout: &Layout, faces: Faces, id: &str) {
        if let Some(m) = self.last_move {
            for sq in [m.from, m.to] {
                let (x, y) = layout.centre(self, sq);
                mark(s, Mark::LastMove, x, y);
            }
        }
        for sq in 0..self.geometry.squares() as u8 {
            if let Some(p) = &self.pieces[sq as usize] {
                let (x, y) = layout.centre(self, sq);
                self.piece(s, x as i32, y as i32, p, faces);
            }
        }
        if let Some(m) = self.last_move {
            let (fx, fy) = layout.centre(self, m.from);
            let (tx, ty) = layout.centre(self, m.to);
            let (fx, fy, tx, ty) = (fx as f32, fy as f32, tx as f32, ty as f32);
            let len = ((tx - fx).powi(2) + (ty - fy).powi(2)).sqrt().max(1.0);
            let (ex, ey) = (
                tx - (tx - fx) * ARROW_BACK / len,
                ty - (ty - fy) * ARROW_BACK / len,
            );
            let _ = writeln!(
                s,
                r#"<line x1="{fx:.1}" y1="{fy:.1}" x2="{ex:.1}" y2="{ey:.1}" {}/>"#,
                arrow_attributes(id)
            );
        }
    }

    /// Files and ranks on all four sides.
    fn coordinates(&self, s: &mut String, layout: &Layout) {
        let g = self.geometry;
        let (ox, oy) = (layout.ox, layout.oy);
        let (board_w, board_h) = (g.width as u32 * CELL, g.height as u32 * CELL);
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
            let (_, y) = layout.centre(self, g.square(0, r as i32).expect("rank on the board"));
            let label = r as u32 + g.rank_base as u32;
            let y = y + 5;
            for x in [ox - MARGIN / 2, ox + board_w + MARGIN / 2] {
                let _ = writeln!(
                    s,
                    r##"<text x="{x}" y="{y}" font-size="13" text-anchor="middle" fill="#555555">{label}</text>"##
                );
            }
        }
    }

    /// A board of points (rulings §4.1): 9 file and 10 rank lines, the inner file lines
    /// stopping at the river, the palaces' diagonals, marks on the start points of the
    /// Soldiers (every other file, the rank before each river bank) and Cannons (the second
    /// file from each edge, two ranks before the bank).
    fn points_board(&self, s: &mut String, layout: &Layout, faces: Faces) {
        let g = self.geometry;
        let river = self.river.unwrap_or(g.height / 2 - 1);
        let at = |f: u8, r: u8| {
            layout.centre(
                self,
                g.square(f as i32, r as i32).expect("point on the board"),
            )
        };
        let (x0, y0) = at(0, g.height - 1);
        let (x1, y1) = at(g.width - 1, 0);
        let pad = CELL / 2 - 4;
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#f1d9a5" stroke="{LINE_COLOUR}" stroke-width="1"/>"##,
            x0 - pad,
            y0 - pad,
            x1 - x0 + 2 * pad,
            y1 - y0 + 2 * pad
        );
        let mut d = String::new();
        for r in 0..g.height {
            let (xa, y) = at(0, r);
            let (xb, _) = at(g.width - 1, r);
            let _ = write!(d, "M {xa} {y} H {xb} ");
        }
        for f in 0..g.width {
            let (x, ya) = at(f, g.height - 1);
            let (_, yb) = at(f, 0);
            if f == 0 || f == g.width - 1 {
                let _ = write!(d, "M {x} {ya} V {yb} ");
            } else {
                let (_, bank_up) = at(f, river + 1);
                let (_, bank_down) = at(f, river);
                let _ = write!(d, "M {x} {ya} V {bank_up} M {x} {bank_down} V {yb} ");
            }
        }
        for side in [Side::First, Side::Second] {
            if let Some((a, b)) = self.palace_corners(side) {
                let ((ax, ay), (bx, by)) = (at(a.0, a.1), at(b.0, b.1));
                let _ = write!(d, "M {ax} {ay} L {bx} {by} M {bx} {ay} L {ax} {by} ");
            }
        }
        let _ = writeln!(
            s,
            r#"<path d="{}" fill="none" stroke="{LINE_COLOUR}" stroke-width="1.5"/>"#,
            d.trim_end()
        );
        let _ = writeln!(
            s,
            r#"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="none" stroke="{LINE_COLOUR}" stroke-width="2.5"/>"#,
            x1 - x0,
            y1 - y0
        );
        self.start_point_marks(s, layout, river);
        self.river_label(s, layout, river, faces);
    }

    /// The lowest-left and highest-right (file, rank) of `side`'s palace.
    fn palace_corners(&self, side: Side) -> Option<((u8, u8), (u8, u8))> {
        let g = self.geometry;
        let mut points = (0..g.squares() as u8)
            .filter(|&sq| self.terrain[sq as usize] == Terrain::Palace(side))
            .map(|sq| (g.file(sq), g.rank(sq)));
        let first = points.next()?;
        Some(points.fold((first, first), |(lo, hi), (f, r)| {
            ((lo.0.min(f), lo.1.min(r)), (hi.0.max(f), hi.1.max(r)))
        }))
    }

    /// The customary corner marks around the Soldiers' and Cannons' start points.
    fn start_point_marks(&self, s: &mut String, layout: &Layout, river: u8) {
        let g = self.geometry;
        let (w, h) = (g.width as i32, g.height as i32);
        let river = river as i32;
        let mut points: Vec<(i32, i32)> = Vec::new();
        for f in (0..w).step_by(2) {
            points.extend([(f, river - 1), (f, river + 2)]);
        }
        for f in [1, w - 2] {
            points.extend([(f, river - 2), (f, river + 3)]);
        }
        let mut d = String::new();
        for (f, r) in points {
            let Some(sq) = g.square(f, r).filter(|_| r >= 0 && r < h) else {
                continue;
            };
            let (x, y) = layout.centre(self, sq);
            let (x, y) = (x as i32, y as i32);
            for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                if (dx < 0 && f == 0) || (dx > 0 && f == w - 1) {
                    continue;
                }
                let (gx, gy) = (x + 4 * dx, y + 4 * dy);
                let _ = write!(d, "M {} {gy} H {gx} V {} ", gx + 8 * dx, gy + 8 * dy);
            }
        }
        let _ = writeln!(
            s,
            r#"<path d="{}" fill="none" stroke="{LINE_COLOUR}" stroke-width="1.2"/>"#,
            d.trim_end()
        );
    }

    /// The river's name in the gap: `river`, or 楚河 and 漢界 with Chinese faces.
    fn river_label(&self, s: &mut String, layout: &Layout, river: u8, faces: Faces) {
        let g = self.geometry;
        let Some(below) = g.square(0, river as i32) else {
            return;
        };
        let (_, y) = layout.centre(self, below);
        let y = y - CELL / 2 + 7;
        let (x0, _) = layout.centre(self, below);
        let x1 = x0 + (g.width as u32 - 1) * CELL;
        let style = r##"text-anchor="middle" fill="#6b4f2a""##;
        if faces == Faces::Chinese {
            for (x, text) in [((3 * x0 + x1) / 4, "楚 河"), ((x0 + 3 * x1) / 4, "漢 界")] {
                let _ = writeln!(
                    s,
                    r#"<text x="{x}" y="{y}" font-size="19" font-family="{CJK_FONT}" {style}>{text}</text>"#
                );
            }
        } else {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{y}" font-size="15" font-style="italic" {style}>river</text>"#,
                (x0 + x1) / 2
            );
        }
    }

    /// The legend and the lines under a standalone picture, from `top`.
    fn notes(&self, s: &mut String, notes: &Notes, top: u32) {
        let text = |s: &mut String, x: u32, y: u32, t: &str| {
            let _ = writeln!(
                s,
                r##"<text x="{x}" y="{y}" font-size="13" fill="#222222">{}</text>"##,
                esc(t)
            );
        };
        let mut y = top;
        for l in &notes.letters {
            text(s, 8, y, l);
            y += LINE;
        }
        let names = self.side_names();
        for (sample, label) in &notes.samples {
            let (cx, cy) = (16, y - 5);
            match sample {
                Sample::Square(t) => square(s, cx - 7, cy - 7, 14, *t, self.owner_colour(*t)),
                Sample::Unknown(side) => {
                    let (fill, stroke, _) = side_colours(names[side.index()]);
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" fill-opacity="0.55" stroke="{stroke}" stroke-width="1.5" stroke-dasharray="3 2"/>"#
                    );
                }
                Sample::KnownDot => known_dot(s, cx as i32, cy as i32),
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
            text(s, 32, y, label);
            y += LINE;
        }
        for l in &notes.tail {
            text(s, 8, y, l);
            y += LINE;
        }
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

    /// A piece centred on (`cx`, `cy`): a disc in its side's colour with its face; a dashed,
    /// paler disc with `?` when the identity is unknown; a gold dot when the opponent knows
    /// it; a dashed ring when nobody does. On a board of points a known piece is the
    /// customary light disc with a ring and its face in the side's colour.
    pub fn piece(&self, s: &mut String, cx: i32, cy: i32, p: &PieceView, faces: Faces) {
        let (fill, stroke, text) = side_colours(self.side_names()[p.owner.index()]);
        let points = self.on_points();
        let r = (CELL * if points { 44 } else { 38 } / 100) as i32;
        let face = p.identity.map(|i| match faces {
            Faces::Chinese if points => {
                chinese_face(p.owner, i.letter).map_or((i.letter, false), |c| (c, true))
            }
            _ => (i.letter, false),
        });
        match face {
            None => {
                if points {
                    // The lines stop under a covered piece, as under any other.
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="#f7e9c8"/>"##
                    );
                }
                let _ = writeln!(
                    s,
                    r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="2" fill-opacity="0.55" stroke-dasharray="4 3"/>"#
                );
                face_text(s, cx, cy, '?', false, text);
            }
            Some((c, cjk)) if points => {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="#f7e9c8" stroke="{fill}" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{fill}" stroke-width="1"/>"##,
                    r - 4
                );
                face_text(s, cx, cy, c, cjk, fill);
            }
            Some((c, _)) => {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#
                );
                face_text(s, cx, cy, c, false, text);
            }
        }
        match self.knowledge_mark(p) {
            Some('*') => known_dot(s, cx + r - 3, cy - r + 3),
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

/// A piece's face: a bold letter, or a character in a Chinese font.
fn face_text(s: &mut String, cx: i32, cy: i32, c: char, cjk: bool, colour: &str) {
    let c = esc(&c.to_string());
    if cjk {
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{}" font-size="19" font-weight="bold" font-family="{CJK_FONT}" text-anchor="middle" fill="{colour}">{c}</text>"#,
            cy + 7
        );
    } else {
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{}" font-size="18" font-weight="bold" text-anchor="middle" fill="{colour}">{c}</text>"#,
            cy + 6
        );
    }
}

/// The gold dot of a piece the opponent knows.
fn known_dot(s: &mut String, cx: i32, cy: i32) {
    let _ = writeln!(
        s,
        r##"<circle cx="{cx}" cy="{cy}" r="5" fill="{KNOWN_DOT}" stroke="#333333" stroke-width="1"/>"##
    );
}

/// The arrow head's definition; `id` prefixes its element id.
pub fn arrow_defs(s: &mut String, id: &str) {
    let _ = writeln!(
        s,
        r#"<defs><marker id="{}arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{LAST_MOVE}"/></marker></defs>"#,
        esc(id)
    );
}

/// The attributes of the last move's arrow line (its ends apart).
pub fn arrow_attributes(id: &str) -> String {
    format!(
        r#"stroke="{LAST_MOVE}" stroke-width="3" stroke-opacity="0.85" marker-end="url(#{}arrow)""#,
        esc(id)
    )
}

/// `kind` drawn centred on (`cx`, `cy`).
pub fn mark(s: &mut String, kind: Mark, cx: u32, cy: u32) {
    let half = CELL / 2 - 2;
    let (x, y, size) = (cx as i64 - half as i64, cy as i64 - half as i64, 2 * half);
    let _ = match kind {
        Mark::LastMove => writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="none" stroke="{LAST_MOVE}" stroke-width="3"/>"#
        ),
        Mark::Finding => writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="6" fill="{HIGHLIGHT}" fill-opacity="0.25" stroke="{HIGHLIGHT}" stroke-width="4"/>"#
        ),
        Mark::Evidence => writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="6" fill="{HIGHLIGHT}" fill-opacity="0.1" stroke="{HIGHLIGHT}" stroke-width="2" stroke-dasharray="5 3"/>"#
        ),
    };
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

    #[test]
    fn chinese_faces_of_both_sides() {
        let red: String = "KABNRCP"
            .chars()
            .filter_map(|c| chinese_face(Side::First, c))
            .collect();
        let black: String = "KABNRCP"
            .chars()
            .filter_map(|c| chinese_face(Side::Second, c))
            .collect();
        assert_eq!(red, "帥仕相傌俥炮兵");
        assert_eq!(black, "將士象馬車砲卒");
        assert_eq!(chinese_face(Side::First, 'X'), None);
    }
}
