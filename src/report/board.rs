//! The terminal drawing of a [`BoardView`] (`arbiter show`, `arbiter check --show`) and the
//! captions every drawing shares. The SVG drawing is [`super::svg`].
//!
//! The terminal drawing never relies on colour: each piece is written as the owner's initial
//! and the piece letter (`rX`, `b?`), so a board printed with `--color never` (and the insta
//! snapshots) says everything the coloured one does.

use crate::geometry::Square;
use crate::types::Side;
use crate::view::{Identity, PieceView, Terrain};
// Old path of the model, until every test names `crate::view`.
pub use crate::view::BoardView;
use std::fmt::Write;

impl Terrain {
    /// The two characters an empty square of this terrain shows (`" ."` for plain ground).
    fn glyph(self) -> &'static str {
        match self {
            Terrain::Plain => " .",
            Terrain::Lake | Terrain::Water => "~~",
            Terrain::Volcano => "^^",
            Terrain::Trap(_) => "##",
            Terrain::Den(_) => "@@",
            Terrain::Palace(_) => " +",
        }
    }
    /// The mark after a piece standing on this terrain, where standing there matters (a Rat
    /// in water, a piece on a trap or in a den).
    fn mark(self) -> Option<char> {
        match self {
            Terrain::Lake | Terrain::Water => Some('~'),
            Terrain::Volcano => Some('^'),
            Terrain::Trap(_) => Some('#'),
            Terrain::Den(_) => Some('@'),
            Terrain::Plain | Terrain::Palace(_) => None,
        }
    }
    /// ANSI colour of the glyph and mark.
    fn ansi(self) -> &'static str {
        match self {
            Terrain::Plain | Terrain::Palace(_) => "2",
            Terrain::Lake | Terrain::Water => "36",
            Terrain::Volcano => "31",
            Terrain::Trap(_) => "33",
            Terrain::Den(_) => "32",
        }
    }
}

impl BoardView {
    /// The first line of the caption: game, ply and last move, whose turn or how it ended.
    pub fn headline(&self) -> String {
        let names = self.side_names();
        let mut s = format!("{} · ", self.game);
        match (self.ply, self.last_move) {
            (0, _) => s.push_str("start position"),
            (n, Some(m)) => {
                let _ = write!(
                    s,
                    "after ply {n} ({} {})",
                    names[m.side.index()],
                    self.move_text(m)
                );
            }
            (n, None) => {
                let _ = write!(s, "after ply {n}");
            }
        }
        match self.ended {
            Some(v) => {
                let _ = write!(
                    s,
                    " · game over: {} ({}, {})",
                    super::verdict::ending_words(names, v),
                    v.reason,
                    v.result.as_str()
                );
            }
            None => {
                let _ = write!(s, " · {} to move", names[self.to_move.index()]);
                if let Some(n) = self.turn_note {
                    let _ = write!(s, " ({n})");
                }
            }
        }
        s
    }

    /// The second line of the caption: whose view this is.
    pub fn view_line(&self) -> String {
        let names = self.side_names();
        match self.viewer {
            None if self.hidden_pieces
                && self.pieces.iter().flatten().any(|p| p.identity.is_none()) =>
            {
                "arbiter's view: every identity the record gives (`?`: nobody has seen it)"
                    .to_string()
            }
            None => "arbiter's view: every piece".to_string(),
            Some(v) => format!(
                "{}'s view: what {} knows after ply {}",
                names[v.index()],
                names[v.index()],
                self.ply
            ),
        }
    }

    /// `Red lost 2: Scout x2`: the pieces `side` has lost, grouped by identity in legend
    /// order, unknown ones last.
    pub fn lost_line(&self, side: Side) -> String {
        let lost = &self.lost[side.index()];
        let name = self.side_names()[side.index()];
        if lost.is_empty() {
            return format!("{name} lost nothing");
        }
        let mut parts = Vec::new();
        let count = |want: Option<Identity>| lost.iter().filter(|p| p.identity == want).count();
        let mut listed = 0;
        for k in &self.kinds {
            let n = count(Some(*k));
            if n > 0 {
                listed += n;
                parts.push(if n == 1 {
                    k.name.to_string()
                } else {
                    format!("{} x{n}", k.name)
                });
            }
        }
        let unknown = lost.len() - listed;
        if unknown > 0 {
            parts.push(format!("unknown x{unknown}"));
        }
        format!("{name} lost {}: {}", lost.len(), parts.join(", "))
    }

    /// The score line (Veldslag), if the game has one.
    pub fn score_line(&self) -> Option<String> {
        let [a, b] = self.score?;
        let names = self.side_names();
        Some(format!(
            "captured-piece score (rulings §1.2, not judged): {} {a}, {} {b}",
            names[0], names[1]
        ))
    }

    fn is_last(&self, sq: Square) -> bool {
        self.last_move.is_some_and(|m| m.from == sq || m.to == sq)
    }

    /// The position drawn for a terminal: caption, the board with files and ranks on every
    /// side, a legend of what the marks mean, the lost pieces and the score. With `color`
    /// the pieces take their side's colour, terrain and the last move are coloured too; the
    /// text is the same either way.
    pub fn render_text(&self, color: bool) -> String {
        let g = self.geometry;
        let paint = |code: &str, text: &str| {
            if color {
                format!("\x1b[{code}m{text}\x1b[0m")
            } else {
                text.to_string()
            }
        };
        let names = self.side_names();
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.headline());
        let _ = writeln!(out, "{}", self.view_line());
        let label_w = (g.height.saturating_sub(1) as u32 + g.rank_base as u32)
            .to_string()
            .len();
        let files: String = (0..g.width)
            .map(|f| format!("  {} ", (b'a' + f) as char))
            .collect();
        let files_line = format!("{}  {}", " ".repeat(label_w), files.trim_end());
        let _ = writeln!(out, "{files_line}");
        for rank in (0..g.height).rev() {
            let label = (rank as u32 + g.rank_base as u32).to_string();
            let mut line = format!("{label:>label_w$}  ");
            for file in 0..g.width {
                let sq = g
                    .square(file as i32, rank as i32)
                    .expect("file and rank are on the board");
                let terrain = self.terrain[sq as usize];
                let last = self.is_last(sq);
                // The last move's squares are marked before the piece, so that the mark after
                // it (water, trap, den, known identity) is never lost.
                let open = if last { paint("1;93", ">") } else { " ".into() };
                let (body, mark) = match &self.pieces[sq as usize] {
                    None => (paint(terrain.ansi(), terrain.glyph()), None),
                    Some(p) => {
                        let letter = p.identity.map_or('?', |i| i.letter);
                        let text = format!("{}{letter}", self.initial(p.owner));
                        let body = paint(side_ansi(names[p.owner.index()]), &text);
                        let mark = terrain
                            .mark()
                            .map(|m| paint(terrain.ansi(), &m.to_string()))
                            .or_else(|| self.knowledge_mark(p).map(|m| m.to_string()));
                        (body, mark)
                    }
                };
                let close = mark.unwrap_or_else(|| " ".into());
                line.push_str(&open);
                line.push_str(&body);
                line.push_str(&close);
            }
            let _ = writeln!(out, "{line} {label}");
            if self.river == Some(rank.wrapping_sub(1)) && rank > 0 {
                let width = g.width as usize * 4;
                let _ = writeln!(
                    out,
                    "{}  {}",
                    " ".repeat(label_w),
                    paint("36", &center(" river ", width, '~'))
                );
            }
        }
        let _ = writeln!(out, "{files_line}");
        for line in self.legend() {
            let _ = writeln!(out, "{line}");
        }
        for side in [Side::First, Side::Second] {
            let _ = writeln!(out, "{}", self.lost_line(side));
        }
        if let Some(s) = self.score_line() {
            let _ = writeln!(out, "{s}");
        }
        out
    }

    /// The legend lines: sides, letters on the board, marks and terrain shown.
    pub fn legend(&self) -> Vec<String> {
        let names = self.side_names();
        let mut lines = vec![format!(
            "{} = {}, {} = {}",
            self.initial(Side::First),
            names[0],
            self.initial(Side::Second),
            names[1]
        )];
        let on_board: Vec<&PieceView> = self.pieces.iter().flatten().collect();
        let letters: Vec<String> = self
            .kinds
            .iter()
            .filter(|k| on_board.iter().any(|p| p.identity == Some(**k)))
            .map(|k| format!("{} {}", k.letter, k.name))
            .collect();
        if !letters.is_empty() {
            lines.push(format!("letters: {}", letters.join(", ")));
        }
        let mut marks = Vec::new();
        if on_board.iter().any(|p| p.identity.is_none()) {
            marks.push("? unknown piece".to_string());
        }
        if on_board.iter().any(|p| self.knowledge_mark(p) == Some('*')) {
            marks.push("* identity known to the opponent".to_string());
        }
        if on_board.iter().any(|p| self.knowledge_mark(p) == Some('!')) {
            marks.push("! identity known to neither player".to_string());
        }
        if let Some(m) = self.last_move {
            marks.push(format!("> last move {}", self.move_text(m)));
        }
        if !marks.is_empty() {
            lines.push(marks.join("; "));
        }
        let seen = self.terrains();
        if !seen.is_empty() {
            let kinds: Vec<String> = seen
                .iter()
                .map(|t| format!("{} {}", t.glyph().trim(), t.describe(names)))
                .collect();
            let mut line = format!("terrain: {}", kinds.join(", "));
            let mut after: Vec<&str> = Vec::new();
            for t in &seen {
                let text = match t {
                    Terrain::Water => "~ in water",
                    Terrain::Trap(_) => "# on a trap",
                    Terrain::Den(_) => "@ in a den",
                    _ => continue,
                };
                if !after.contains(&text) {
                    after.push(text);
                }
            }
            if !after.is_empty() {
                let _ = write!(line, "; after a piece: {}", after.join(", "));
            }
            lines.push(line);
        }
        lines
    }
}

/// ANSI colour of a side by its name.
fn side_ansi(name: &str) -> &'static str {
    match name {
        "Red" => "1;91",
        "Blue" => "1;94",
        "White" => "1;97",
        _ => "1;90",
    }
}

/// `text` centred in `width` characters of `fill`.
fn center(text: &str, width: usize, fill: char) -> String {
    let n = text.chars().count();
    if n >= width {
        return text.to_string();
    }
    let left = (width - n) / 2;
    let right = width - n - left;
    format!(
        "{}{text}{}",
        fill.to_string().repeat(left),
        fill.to_string().repeat(right)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::view::LastMove;

    const ROOK: Identity = Identity {
        letter: 'R',
        name: "Chariot",
    };
    const GENERAL: Identity = Identity {
        letter: 'K',
        name: "General",
    };

    /// A 3x4 Xiangqi-like picture: river after rank 1, a palace point, a covered piece the
    /// arbiter knows and nobody else, a Black piece only Red knows.
    fn sample() -> BoardView {
        let g = Geometry {
            width: 3,
            height: 4,
            rank_base: 0,
        };
        let mut v = BoardView::empty("xiangqi", ["Red", "Black"], g);
        v.hidden_pieces = true;
        v.river = Some(1);
        v.kinds = vec![GENERAL, ROOK];
        v.terrain[1] = Terrain::Palace(Side::First);
        v.pieces[1] = Some(PieceView::open(Side::First, 0, GENERAL));
        v.pieces[0] = Some(PieceView {
            owner: Side::First,
            id: 1,
            identity: Some(ROOK),
            known_to: [false, false],
        });
        v.pieces[10] = Some(PieceView::hidden(Side::Second, 2, ROOK, true));
        v.lost[1].push(PieceView {
            owner: Side::Second,
            id: 3,
            identity: Some(ROOK),
            known_to: [true, false],
        });
        v.score = Some([5, 0]);
        v.ply = 3;
        v.last_move = Some(LastMove {
            side: Side::Second,
            from: 7,
            to: 10,
            capture: false,
        });
        v
    }

    #[test]
    fn arbiter_view_marks_knowledge_and_the_river() {
        let text = sample().render_text(false);
        let want = "\
xiangqi · after ply 3 (Black b2-b3) · Red to move
arbiter's view: every piece
     a   b   c
3    . >bR*  .  3
2    . > .   .  2
   ~~ river ~~~
1    .   .   .  1
0   rR! rK*  .  0
     a   b   c
r = Red, b = Black
letters: K General, R Chariot
* identity known to the opponent; ! identity known to neither player; > last move b2-b3
terrain: + Red's palace
Red lost nothing
Black lost 1: Chariot
captured-piece score (rulings §1.2, not judged): Red 5, Black 0
";
        assert_eq!(text, want);
    }

    #[test]
    fn seen_by_removes_unknown_identities_and_a_telling_score() {
        let red = sample().seen_by(Side::First);
        assert_eq!(
            red.pieces[0].unwrap().identity,
            None,
            "covered: Red does not know"
        );
        assert_eq!(red.pieces[1].unwrap().identity, Some(GENERAL));
        assert_eq!(
            red.pieces[10].unwrap().identity,
            Some(ROOK),
            "revealed to Red"
        );
        assert_eq!(
            red.lost[1][0].identity,
            Some(ROOK),
            "Red captured it and saw it"
        );
        assert_eq!(red.score, Some([5, 0]));
        let black = sample().seen_by(Side::Second);
        assert_eq!(black.pieces[0].unwrap().identity, None);
        assert_eq!(black.pieces[1].unwrap().identity, Some(GENERAL));
        assert_eq!(black.lost[1][0].identity, None, "lost unseen by its owner");
        assert_eq!(black.score, None);
        assert_eq!(black.lost_line(Side::Second), "Black lost 1: unknown x1");
        let text = black.render_text(false);
        assert!(text.contains("0   r?  rK*  .  0"), "{text}");
        assert!(text.contains("? unknown piece"), "{text}");
        assert!(text.contains("Black's view: what Black knows after ply 3"));
    }

    #[test]
    fn colour_only_adds_escapes() {
        let v = sample();
        let plain = v.render_text(false);
        let coloured = v.render_text(true);
        assert!(coloured.contains("\x1b[1;91mrK\x1b[0m"), "{coloured}");
        let stripped: String = {
            let mut s = String::new();
            let mut esc = false;
            for c in coloured.chars() {
                match (esc, c) {
                    (false, '\x1b') => esc = true,
                    (true, 'm') => esc = false,
                    (true, _) => {}
                    (false, c) => s.push(c),
                }
            }
            s
        };
        assert_eq!(stripped, plain);
    }
}
