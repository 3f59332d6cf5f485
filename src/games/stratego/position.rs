//! A Stratego-family game taken up from a position (docs/log-format.md, positions): the
//! `Position` tag names the side to move, and the `setup red` / `setup blue` sections give
//! each side's pieces wherever they stand; `Revealed` names the pieces both players know and
//! `NoCapture` Veldslag's count of plies without an attack (rulings §1.6). Checked like a
//! setup, every problem at once ([`Stratego::read_position`]); written back by
//! [`Stratego::write_position`].

use super::setup::{Board, LETTERS};
use super::{Kind, Piece, State, Stratego, KINDS};
use crate::finding::{Code, Finding};
use crate::geometry::{Square, MAX_SQUARES};
use crate::record::{GameRecord, SetupRow, Tag};
use crate::rulebook::Rule;
use crate::rules::{coords, GameId, Parameters, StartText};
use crate::types::{Side, Span};

/// What the rows of a position have given so far: the next piece id, and per side the pieces
/// of the ruleset they name, wherever they stand (those refused on a lake or outside the zone
/// included), for the army check.
struct Reading {
    next_id: u16,
    written: [[usize; 12]; 2],
}

/// What a position start gives besides the squares: the side to move, the pieces each side
/// has lost (every one revealed by the combat that took it), Veldslag's plies without an
/// attack.
pub(crate) struct Start {
    pub board: Board,
    pub to_move: Side,
    pub lost: [Vec<Piece>; 2],
    pub quiet_plies: u32,
}

impl Stratego {
    /// Reads the position start of `record` whose `Position` tag is `tag` (rulings §1.1,
    /// §1.2): at most the army of each side, no piece on a lake or on another, every Bomb and
    /// Flag in its owner's setup zone (they never move), a Flag for each side. Every problem is
    /// a `setup-invalid` finding, all at once; a `NoCapture` tag outside Veldslag is a
    /// `record-defect` warning in `warnings`.
    pub(crate) fn read_position(
        &self,
        record: &GameRecord,
        tag: &Tag,
        params: &Parameters,
        warnings: &mut Vec<Finding>,
    ) -> Result<Start, Vec<Finding>> {
        let mut errors = Vec::new();
        let to_move = self.position_side(record, tag, params, &mut errors);
        let mut board = [None; MAX_SQUARES];
        let mut reading = Reading {
            next_id: 0,
            written: [[0; 12]; 2],
        };
        for side in [Side::First, Side::Second] {
            self.read_position_side(record, side, &mut board, &mut reading, &mut errors);
        }
        self.foreign_sections(record, &mut errors);
        for side in [Side::First, Side::Second] {
            let written = &reading.written[side.index()];
            errors.extend(self.army_problem(record, tag, written, side));
        }
        let mut next_id = reading.next_id;
        self.read_revealed(record, &mut board, &mut errors);
        let quiet_plies = self.read_no_capture(record, &mut errors, warnings);
        if !errors.is_empty() {
            return Err(errors);
        }
        let lost = [Side::First, Side::Second].map(|side| self.lost(&board, side, &mut next_id));
        Ok(Start {
            board,
            to_move,
            lost,
            quiet_plies,
        })
    }

    /// The side to move a `Position` tag names; a word that names no side, or a `FirstMove`
    /// tag that names the other side, is a problem.
    fn position_side(
        &self,
        record: &GameRecord,
        tag: &Tag,
        params: &Parameters,
        errors: &mut Vec<Finding>,
    ) -> Side {
        let word = tag.value.value.trim().to_ascii_lowercase();
        let side = [Side::First, Side::Second]
            .into_iter()
            .find(|&s| self.side_word(s) == word);
        let Some(side) = side else {
            errors.push(
                self.setup_problem(
                    tag.value.span,
                    format!("`{}` is not a side to move", crate::finding::excerpt(&tag.value.value)),
                    "expected red or blue",
                )
                .help("[Position \"red\"] or [Position \"blue\"]: the side to move in the position the setup sections give"),
            );
            return Side::First;
        };
        if let (Some(ft), Some(first)) = (record.tag("FirstMove"), params.first_move) {
            if first != side {
                errors.push(
                    self.setup_problem(
                        ft.value.span,
                        format!(
                            "FirstMove says {} but the Position gives {} to move",
                            self.side_name(first),
                            self.side_name(side)
                        ),
                        "contradicts the Position tag",
                    )
                    .with_label(tag.value.span, "side to move here")
                    .help("drop the FirstMove tag; the Position tag decides"),
                );
            }
        }
        side
    }

    /// Reads the rows of `side`'s section into `board`: any rank of the board, at most once,
    /// `.` for a square without a piece of this side.
    fn read_position_side(
        &self,
        record: &GameRecord,
        side: Side,
        board: &mut Board,
        reading: &mut Reading,
        errors: &mut Vec<Finding>,
    ) {
        let Some(block) = self.side_section(record, side, errors) else {
            return;
        };
        let mut seen = [false; 16];
        for row in &block.rows {
            match self.position_rank(row, side, &mut seen) {
                Ok(rank0) => self.place_position_row(row, side, rank0, board, reading, errors),
                Err(f) => errors.push(f),
            }
        }
    }

    /// The 0-based rank of a position row, or why it cannot be read: a rank off the board, a
    /// rank given twice for one side, the wrong width.
    fn position_rank(&self, row: &SetupRow, side: Side, seen: &mut [bool]) -> Result<u8, Finding> {
        let g = self.geometry();
        let written = row.rank.value;
        if written == 0 || written > g.height as u32 {
            return Err(self.setup_problem(
                row.rank.span,
                format!("rank {written} is not on the board"),
                &format!("the board has ranks 1 to {}", g.height),
            ));
        }
        let rank0 = (written - 1) as u8;
        if std::mem::replace(&mut seen[rank0 as usize], true) {
            return Err(self
                .setup_problem(
                    row.rank.span,
                    format!("rank {written} is given twice for {}", self.side_name(side)),
                    "second row for this rank",
                )
                .help("give each rank once in a side's section"));
        }
        let n = row.cells.value.chars().count();
        if n != g.width as usize {
            return Err(self
                .setup_problem(
                    row.cells.span,
                    format!("rank {written} has {n} squares, the board has {}", g.width),
                    &format!("expected {} characters, one per file", g.width),
                )
                .help(format!("letters: {LETTERS}")));
        }
        Ok(rank0)
    }

    /// Places the pieces of a position row: each letter is checked (unknown, not of the
    /// ruleset, on a lake, on a square the other side's section fills, a Bomb or Flag outside
    /// its owner's setup zone).
    fn place_position_row(
        &self,
        row: &SetupRow,
        side: Side,
        rank0: u8,
        board: &mut Board,
        reading: &mut Reading,
        errors: &mut Vec<Finding>,
    ) {
        let g = self.geometry();
        for (file, (off, c)) in row.cells.value.char_indices().enumerate() {
            if c == '.' {
                continue;
            }
            let at = row.cells.span.start + off;
            let cspan = Span::new(at, at + c.len_utf8());
            let Some(sq) = g.square(file as i32, rank0 as i32) else {
                continue;
            };
            let kind = Kind::from_letter(c).filter(|k| self.ruleset.has(*k));
            if let Some(k) = kind {
                reading.written[side.index()][k.index()] += 1;
            }
            match self.position_piece(board, sq, side, c) {
                Ok(kind) => {
                    board[sq as usize] = Some(Piece {
                        side,
                        kind,
                        id: reading.next_id,
                        revealed: false,
                    });
                    reading.next_id += 1;
                }
                Err((message, label)) => errors.push(self.setup_problem(cspan, message, &label)),
            }
        }
    }

    /// The kind letter `c` of `side` puts on `sq`, or what is wrong with it (message, label).
    fn position_piece(
        &self,
        board: &Board,
        sq: Square,
        side: Side,
        c: char,
    ) -> Result<Kind, (String, String)> {
        let r = &self.ruleset;
        let name = |s: Side| self.side_name(s);
        let Some(kind) = Kind::from_letter(c) else {
            let what = format!("unknown piece letter `{}`", c.escape_debug());
            return Err((what, format!("letters: {LETTERS}")));
        };
        let here = r.geometry.name(sq);
        if !r.has(kind) {
            let what = format!("{} has no {}", r.game.as_str(), kind.name());
            return Err((what, format!("`{c}` is a {}", kind.name())));
        }
        if self.is_lake(sq) {
            return Err((
                format!("piece on the lake {here}"),
                "lakes stay empty".into(),
            ));
        }
        if let Some(other) = board[sq as usize] {
            let what = format!("{here} holds a {} piece already", name(other.side));
            return Err((what, "two pieces on one square".into()));
        }
        let zone = &r.zones[side.index()];
        if !kind.movable() && !zone.contains(&r.geometry.rank(sq)) {
            let what = format!(
                "{}'s {} on {here} is outside its setup zone",
                name(side),
                kind.name()
            );
            let label = format!(
                "Bombs and Flags never move: {} keeps them on {}",
                name(side),
                self.zone_text(side)
            );
            return Err((what, label));
        }
        Ok(kind)
    }

    /// The finding for a side whose pieces, as written (`counts`, per [`Kind::index`]),
    /// exceed the army or lack the Flag, if they do.
    fn army_problem(
        &self,
        record: &GameRecord,
        tag: &Tag,
        counts: &[usize; 12],
        side: Side,
    ) -> Option<Finding> {
        let r = &self.ruleset;
        let mut wrong: Vec<String> = KINDS
            .iter()
            .filter(|k| counts[k.index()] > r.counts[k.index()] as usize)
            .map(|k| {
                format!(
                    "{} {} (at most {})",
                    counts[k.index()],
                    k.name(),
                    r.counts[k.index()]
                )
            })
            .collect();
        if counts[Kind::Flag.index()] == 0 {
            wrong.push("no Flag".into());
        }
        if wrong.is_empty() {
            return None;
        }
        let word = self.side_word(side);
        let at = record
            .setups
            .iter()
            .find(|b| b.side.value == word)
            .map_or(tag.span, |b| b.side.span);
        Some(
            self.setup_problem(
                at,
                format!("{}'s pieces do not fit the army: {}", self.side_name(side), wrong.join(", ")),
                "pieces of this side",
            )
            .help(format!(
                "a position holds at most the {} pieces of the army and always the Flag; see docs/log-format.md for the table",
                r.army_size()
            )),
        )
    }

    /// How many of each kind `side` has on `board`.
    fn counts(&self, board: &Board, side: Side) -> [usize; 12] {
        let mut counts = [0usize; 12];
        for p in board.iter().flatten().filter(|p| p.side == side) {
            counts[p.kind.index()] += 1;
        }
        counts
    }

    /// The pieces of the army `side` does not have on `board`, revealed (combat took them),
    /// with ids from `next_id` on.
    fn lost(&self, board: &Board, side: Side, next_id: &mut u16) -> Vec<Piece> {
        let counts = self.counts(board, side);
        let mut lost = Vec::new();
        for k in KINDS {
            for _ in counts[k.index()]..self.ruleset.counts[k.index()] as usize {
                lost.push(Piece {
                    side,
                    kind: k,
                    id: *next_id,
                    revealed: true,
                });
                *next_id += 1;
            }
        }
        lost
    }

    /// Marks the pieces the `Revealed` tag names; a word that is not a square, or a square
    /// without a piece, is a problem.
    fn read_revealed(&self, record: &GameRecord, board: &mut Board, errors: &mut Vec<Finding>) {
        let Some(tag) = record.tag("Revealed") else {
            return;
        };
        let g = self.geometry();
        for (span, word) in coords::tag_words(tag) {
            let sq = coords::parse_square(&g, word);
            match sq.and_then(|s| board[s as usize].as_mut()) {
                Some(p) => p.revealed = true,
                None => errors.push(
                    self.setup_problem(
                        span,
                        match sq {
                            Some(s) => format!("no piece on {} to reveal", g.name(s)),
                            None => format!("`{}` is not a square", word.escape_debug()),
                        },
                        "expected the square of a piece both players know",
                    )
                    .help("Revealed lists the squares of the pieces combat has shown, e.g. [Revealed \"e4 g7\"]"),
                ),
            }
        }
    }

    /// Veldslag's plies without an attack before the start (`NoCapture`, rulings §1.6): 0
    /// without the tag. A value that is not a number is a problem; the tag in another ruleset
    /// is a `record-defect` warning and is ignored.
    fn read_no_capture(
        &self,
        record: &GameRecord,
        errors: &mut Vec<Finding>,
        warnings: &mut Vec<Finding>,
    ) -> u32 {
        let Some(tag) = record.tag("NoCapture") else {
            return 0;
        };
        if self.ruleset.game != GameId::Veldslag {
            warnings.push(
                Finding::new(
                    Code::RecordDefect,
                    tag.value.span,
                    format!("{} has no no-capture count", self.ruleset.game.as_str()),
                    Rule::LogPositions,
                )
                .label("ignored")
                .help("NoCapture is Veldslag's (rulings §1.6); drop the tag"),
            );
            return 0;
        }
        let text = tag.value.value.trim();
        match text.parse::<u32>() {
            Ok(n) if text.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => {
                errors.push(
                    self.setup_problem(
                        tag.value.span,
                        format!(
                            "`{}` is not a number of plies",
                            crate::finding::excerpt(text)
                        ),
                        "expected the plies played since the last attack",
                    )
                    .help("[NoCapture \"37\"]: 37 plies without an attack before the position"),
                );
                0
            }
        }
    }

    /// The position `st` as a position start: `Position`, `Revealed` and (Veldslag, when
    /// counting) `NoCapture` tags, and each side's pieces rank by rank from the top; the notes
    /// name the two-squares runs and the chase in progress, which a fresh start does not carry.
    pub(crate) fn write_position(&self, st: &State) -> StartText {
        let g = self.geometry();
        let mut tags = vec![(
            "Position".to_string(),
            self.side_word(st.to_move).to_string(),
        )];
        let revealed: Vec<String> = (0..g.squares() as Square)
            .filter(|&s| st.board[s as usize].is_some_and(|p| p.revealed))
            .map(|s| g.name(s))
            .collect();
        if !revealed.is_empty() {
            tags.push(("Revealed".into(), revealed.join(" ")));
        }
        if self.ruleset.game == GameId::Veldslag && st.quiet_plies > 0 {
            tags.push(("NoCapture".into(), st.quiet_plies.to_string()));
        }
        let setups = [Side::First, Side::Second]
            .into_iter()
            .map(|side| (self.side_word(side).to_string(), self.rows(st, side)))
            .collect();
        StartText {
            tags,
            setups,
            notes: self.history_notes(st),
        }
    }

    /// The rows of `side`'s pieces, top rank first, only ranks where it has a piece.
    fn rows(&self, st: &State, side: Side) -> Vec<(u32, String)> {
        coords::rows(&self.geometry(), |s| {
            st.board[s as usize]
                .filter(|p| p.side == side)
                .map(|p| p.kind.letter())
        })
    }

    /// What the history rules hold in `st` that a position start drops: each side's
    /// two-squares run, and a chase in progress.
    fn history_notes(&self, st: &State) -> Vec<String> {
        let g = self.geometry();
        let mut notes = Vec::new();
        for side in [Side::First, Side::Second] {
            let on = st.two_squares.limit > 0;
            let Some(run) = st.two_squares.run(side).filter(|r| on && r.len > 0) else {
                continue;
            };
            let (a, b) = run.seg;
            // A run whose piece is gone cannot go on.
            let Some(piece) = st.board.iter().flatten().find(|p| p.id == run.piece) else {
                continue;
            };
            let piece = piece.kind.name();
            let moves = if run.len == 1 {
                "1 move".to_string()
            } else {
                format!("{} moves", run.len)
            };
            notes.push(format!(
                "{}'s two-squares run is not carried (its {piece} has made {moves} between {} and {}): after this start a run counts from 0",
                self.side_name(side),
                g.name(a),
                g.name(b)
            ));
        }
        if let Some(c) = st.chase.state.as_ref().filter(|_| st.chase.enabled) {
            notes.push(format!(
                "{}'s chase is not carried: after this start the more-squares rule does not know the positions it produced",
                self.side_name(c.chaser)
            ));
        }
        notes
    }
}
