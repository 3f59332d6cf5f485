//! Jieqi (rulings §4.2, seed 004) as a layer over the Xiangqi engine: the board, movement,
//! check, mate, repetition and the no-capture limit are Xiangqi's ([`super::Xiangqi::jieqi`]);
//! this module adds what covered pieces need.
//!
//! - **Covered pieces.** Every piece but the Generals starts covered on its usual start point.
//!   A covered piece moves, captures and gives check as the piece that starts on its point
//!   ([`super::position::start_kind`]), with that piece's palace and river limits, and its
//!   first move turns it over. Revealed Advisors and Elephants are free of palace and river
//!   ([`Position::set_free_diagonals`]).
//! - **What a reveal turned up.** Either the log gives the full shuffle (two `setup` sections,
//!   the admin's view, [`read_shuffle`]) or every reveal carries its identity in the move's
//!   annotation (docs/log-format.md): `a0a2(R)`. A capture of a covered piece may add what
//!   was captured after a colon: `b2b9(C:n)`, `a2a9(:?)` (`?` or nothing: not recorded). A
//!   reveal beyond the side's pool, a recorded capture beyond the captured side's pool, or
//!   either contradicting the shuffle is `illegal-move`; a reveal without an identity and
//!   without a shuffle cannot be judged (`parse-error`).
//! - **The pool** ([`Layer::pool`], the Pikafish-Jieqi FEN's third field) holds each side's
//!   identities not yet revealed; a covered piece captured unseen stays in it. A reveal or a
//!   recorded capture must find its identity among those still unaccounted for.
//! - **Knowledge.** A covered piece is known to nobody (its owner neither; the arbiter only
//!   from a shuffle); a revealed one to both; a captured covered piece to its capturer only.
//!   `Xiangqi::board_view` draws that, and `arbiter show --as` shows each side's view.

use super::fen::Counts;
use super::position::{Kind, Piece, Position, GEOMETRY, SQUARES};
use super::side_name;
use crate::finding::{Code, Finding};
use crate::record::{GameRecord, MoveRecord};
use crate::rulebook::Rule;
use crate::types::Side;
use crate::types::Span;

const RULE: Rule = Rule::Jieqi;
const FORMAT: Rule = Rule::LogJieqiMoves;

/// What a Jieqi game keeps beside the Xiangqi state.
#[derive(Debug, Clone)]
pub struct Layer {
    /// Each side's pool (index [`Side::index`], counts per [`Kind::index`]): identities not yet
    /// revealed on the board.
    pub pool: [Counts; 2],
    /// The pool less the identities known of covered pieces captured unseen: what a reveal or
    /// a recorded capture may still turn up.
    open: [Counts; 2],
    /// True when the log gave the full shuffle: the kinds of the covered pieces in the
    /// position are their identities. Otherwise they are the kinds of their start points.
    pub shuffle: bool,
    /// For every lost piece (parallel to [`super::State::lost`]): how it was captured.
    pub lost: [Vec<Lost>; 2],
}

/// How a lost piece was captured (rulings §4.2: only the capturer learns a covered piece).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    /// Revealed: both players know it.
    Revealed,
    /// Covered, with the identity the arbiter knows (from the log or the shuffle), if any;
    /// only the capturer knows it.
    Covered(Option<Kind>),
}

/// A move's Jieqi annotation, read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Notes {
    /// What the reveal turned up, with the bytes of its letter.
    reveal: Option<(Kind, Span)>,
    /// What a capture took: `Some(None)` written as unknown (`?` or empty after the colon).
    captured: Option<(Option<Kind>, Span)>,
}

/// Reads one identity letter of an annotation; `K` is never an identity of a covered piece.
fn identity(c: char) -> Option<Kind> {
    Kind::from_letter(c)
        .map(|(_, k)| k)
        .filter(|&k| k != Kind::General)
}

/// Reads a move's annotation: `R` (what the reveal turned up), `R:n`, `:n`, `:?` or `R:?`.
/// Anything else is a `parse-error` at the annotation.
pub fn read_notes(mv: &MoveRecord, number: u32) -> Result<Notes, Finding> {
    let Some(ann) = mv.annotation() else {
        return Ok(Notes::default());
    };
    let bad = || {
        Finding::new(
            Code::ParseError,
            ann.span,
            format!("`{}` is not a Jieqi annotation", ann.value.escape_debug()),
            FORMAT,
        )
        .at_ply(number)
        .label("expected R, R:n, :n or :? (reveal, then what was captured)")
        .help("write the identity a reveal turned up, e.g. a0a1(R); after a colon the identity of a captured covered piece, or ? when unknown: b2b9(C:n), a2a9(:?)")
    };
    // The annotation's span is its text between the parentheses.
    let base = ann.span.start;
    let letter = |s: &str, at: usize| -> Result<Option<(Kind, Span)>, Finding> {
        let t = s.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let mut cs = t.chars();
        match (cs.next().and_then(identity), cs.next()) {
            (Some(k), None) => {
                let off = at + (s.len() - s.trim_start().len());
                Ok(Some((k, Span::new(base + off, base + off + 1))))
            }
            _ => Err(bad()),
        }
    };
    let text = ann.value.as_str();
    let (reveal, captured) = match text.split_once(':') {
        None => (letter(text, 0)?, None),
        Some((r, c)) => {
            let at = r.len() + 1;
            let captured = if c.trim() == "?" || c.trim().is_empty() {
                (None, ann.span)
            } else {
                let (k, s) = letter(c, at)?.ok_or_else(bad)?;
                (Some(k), s)
            };
            (letter(r, 0)?, Some(captured))
        }
    };
    if reveal.is_none() && captured.is_none() {
        return Err(bad());
    }
    Ok(Notes { reveal, captured })
}

/// What a ply reveals and captures, settled before the move is made.
#[derive(Debug, Clone, Copy)]
pub struct Settled {
    /// The identity the mover turns up, when it was covered.
    reveal: Option<Kind>,
    /// The captured piece was covered: the identity the arbiter knows of it, if any.
    captured_covered: Option<Option<Kind>>,
}

impl Layer {
    /// The layer for a game whose start has `pool` (each side's unrevealed identities, from
    /// the FEN or the standard start); `shuffle` tells whether the covered pieces' kinds in
    /// the start position are their identities ([`read_shuffle`]).
    pub fn new(pool: [Counts; 2], shuffle: bool) -> Layer {
        Layer {
            pool,
            open: pool,
            shuffle,
            lost: [Vec::new(), Vec::new()],
        }
    }

    /// Checks ply `number`'s reveal and capture against the pools and the shuffle, before
    /// the (legal) move `from`-`to` is made in `pos`. `Err` is the finding that stops the
    /// replay.
    pub fn settle(
        &self,
        pos: &Position,
        from: u8,
        to: u8,
        mv: &MoveRecord,
        notes: Notes,
        number: u32,
    ) -> Result<Settled, Finding> {
        let Some(mover) = pos.piece(from) else {
            return Ok(Settled {
                reveal: None,
                captured_covered: None,
            });
        };
        let ply = Ply {
            from,
            to,
            mv,
            number,
        };
        Ok(Settled {
            reveal: self.reveal(mover, &ply, notes.reveal)?,
            captured_covered: self.capture(pos.piece(to), &ply, notes.captured)?,
        })
    }

    /// What the mover turns up: its identity when it is covered (recorded, or the shuffle's),
    /// `None` when it was revealed before (a letter recorded for it must be its own).
    fn reveal(
        &self,
        mover: Piece,
        ply: &Ply,
        note: Option<(Kind, Span)>,
    ) -> Result<Option<Kind>, Finding> {
        let side = mover.side();
        if !mover.is_covered() {
            return match note {
                Some((k, span)) if k != mover.kind() => Err(ply.illegal(
                    span,
                    format!(
                        "{} is recorded but the piece on {} is a revealed {}",
                        k.a(),
                        GEOMETRY.name(ply.from),
                        mover.kind().name()
                    ),
                    "nothing is revealed here",
                    "only a covered piece's first move reveals it; leave the letter out".into(),
                )),
                _ => Ok(None),
            };
        }
        match (note, self.shuffle) {
            (Some((k, span)), true) if k != mover.kind() => Err(ply.illegal(
                span,
                format!(
                    "the reveal on {} is recorded as {} but the shuffle puts {} there",
                    GEOMETRY.name(ply.from),
                    k.a(),
                    mover.kind().a()
                ),
                "contradicts the shuffle",
                "correct the reveal or the setup sections that give the shuffle".into(),
            )),
            (Some((k, span)), _) if self.open[side.index()][k.index()] == 0 => Err(ply.illegal(
                span,
                format!(
                    "{} reveals {} but has none left to reveal",
                    side_name(side),
                    k.a()
                ),
                "beyond the pool",
                self.pool_help(side),
            )),
            (Some((k, _)), _) => Ok(Some(k)),
            (None, true) => Ok(Some(mover.kind())),
            (None, false) => Err(Finding::new(
                Code::ParseError,
                ply.mv.text_span(),
                format!(
                    "the covered piece on {} is revealed but the log does not say what it is",
                    GEOMETRY.name(ply.from)
                ),
                FORMAT,
            )
            .at_ply(ply.number)
            .label("reveal without an identity")
            .help(format!(
                "write what it turned up, e.g. {}({}), or give the full shuffle in setup sections",
                ply.mv.text(),
                if side == Side::First { 'R' } else { 'r' }
            ))),
        }
    }

    /// What a capture takes: for a covered piece its identity as far as the arbiter knows it
    /// (`Some(None)`: unknown), `None` for no capture or a revealed piece; a recorded
    /// identity must fit the target, the shuffle and the captured side's pool.
    fn capture(
        &self,
        target: Option<Piece>,
        ply: &Ply,
        note: Option<(Option<Kind>, Span)>,
    ) -> Result<Option<Option<Kind>>, Finding> {
        // Named only in a finding: no string is built on the happy path.
        let to = || GEOMETRY.name(ply.to);
        match (target, note) {
            (None, Some((_, span))) => Err(ply.illegal(
                span,
                format!("a captured identity is recorded but {} is empty", to()),
                "nothing is captured",
                "record a captured identity only on a capture".into(),
            )),
            (None, None) => Ok(None),
            (Some(t), note) if t.is_covered() => {
                self.capture_covered(t, ply, note.and_then(|(k, s)| k.map(|k| (k, s))))
            }
            (Some(t), Some((Some(k), span))) if k != t.kind() => Err(ply.illegal(
                span,
                format!(
                    "{} is recorded as captured but the piece on {} is a revealed {}",
                    k.a(),
                    to(),
                    t.kind().name()
                ),
                "not the piece captured",
                "correct the captured identity, or leave it out".into(),
            )),
            (Some(_), _) => Ok(None),
        }
    }

    /// [`Layer::capture`] of the covered piece `t`, its identity recorded as `note`.
    fn capture_covered(
        &self,
        t: Piece,
        ply: &Ply,
        note: Option<(Kind, Span)>,
    ) -> Result<Option<Option<Kind>>, Finding> {
        let them = t.side();
        let to = || GEOMETRY.name(ply.to);
        match note {
            Some((k, span)) if self.shuffle && k != t.kind() => Err(ply.illegal(
                span,
                format!(
                    "the covered piece captured on {} is recorded as {} but the shuffle puts {} there",
                    to(),
                    k.a(),
                    t.kind().a()
                ),
                "contradicts the shuffle",
                "correct the captured identity or the setup sections".into(),
            )),
            Some((k, span)) if self.open[them.index()][k.index()] == 0 => Err(ply.illegal(
                span,
                format!(
                    "the covered piece captured on {} is recorded as {} but {} has none unaccounted for",
                    to(),
                    k.a(),
                    side_name(them)
                ),
                "beyond the pool",
                self.pool_help(them),
            )),
            Some((k, _)) => Ok(Some(Some(k))),
            None => Ok(Some(self.shuffle.then(|| t.kind()))),
        }
    }

    /// The help line naming `side`'s identities still unaccounted for.
    fn pool_help(&self, side: Side) -> String {
        format!(
            "{}'s identities still unaccounted for: {}",
            side_name(side),
            self.describe_open(side)
        )
    }

    /// Applies what [`Layer::settle`] settled after the move to `to` was made in `pos`: the
    /// mover is turned over, the pools lose the identities now known, and a covered piece
    /// captured is remembered with what the arbiter knows of it (its loser is `captured`'s
    /// side, pushed to [`super::State::lost`] by the caller).
    pub fn apply(&mut self, pos: &mut Position, to: u8, s: Settled, captured: Option<Piece>) {
        let side = pos.to_move().other();
        if let Some(k) = s.reveal {
            pos.uncover(to, k);
            take(&mut self.pool[side.index()][k.index()]);
            take(&mut self.open[side.index()][k.index()]);
        }
        if let Some(c) = captured {
            let lost = match s.captured_covered {
                Some(known) => {
                    if let Some(k) = known {
                        take(&mut self.open[c.side().index()][k.index()]);
                    }
                    Lost::Covered(known)
                }
                None => Lost::Revealed,
            };
            self.lost[c.side().index()].push(lost);
        }
    }

    fn describe_open(&self, side: Side) -> String {
        let list: Vec<String> = Kind::ALL
            .iter()
            .filter(|k| self.open[side.index()][k.index()] > 0)
            .map(|k| {
                let n = self.open[side.index()][k.index()];
                format!("{n} {}{}", k.name(), if n == 1 { "" } else { "s" })
            })
            .collect();
        if list.is_empty() {
            "none".into()
        } else {
            list.join(", ")
        }
    }
}

/// The ply being settled: its squares, its record and its number (1-based).
struct Ply<'a> {
    from: u8,
    to: u8,
    mv: &'a MoveRecord,
    number: u32,
}

impl Ply<'_> {
    /// The `illegal-move` finding of this ply.
    fn illegal(&self, span: Span, message: String, label: &str, help: String) -> Finding {
        Finding::new(Code::IllegalMove, span, message, RULE)
            .at_ply(self.number)
            .label(label.to_string())
            .help(help)
    }
}

fn take(n: &mut u8) {
    *n = n.saturating_sub(1);
}

/// The full shuffle of the covered pieces of `pos` (whose kinds are their identities) as
/// setup sections, `red` then `black`: each rank with a covered piece, top rank first, its
/// identity letter on every covered point and `.` elsewhere ([`read_shuffle`] reads them).
pub fn shuffle_rows(pos: &Position) -> Vec<(String, Vec<(u32, String)>)> {
    [(Side::First, "red"), (Side::Second, "black")]
        .into_iter()
        .map(|(side, word)| {
            let rows = crate::rules::coords::rows(&super::position::GEOMETRY, |s| {
                pos.piece(s)
                    .filter(|p| p.is_covered() && p.side() == side)
                    .map(|p| p.fen_letter())
            });
            (word.to_string(), rows)
        })
        .collect()
}

/// Reads the full shuffle from the record's `setup red` / `setup black` sections (the
/// admin's view, docs/log-format.md): rows of 9 cells, a rank label first (ICCS ranks 0-9),
/// the identity letter of the covered piece on each covered point, `.` elsewhere (`K` is
/// accepted on the General's point). Every covered point of the side needs its letter, and a
/// side's letters must fit its pool. On success the covered pieces of `pos` carry their
/// identities and the result is `true`; without setup sections nothing changes (`false`).
/// Every problem is a `setup-invalid` finding at the cells it concerns.
pub fn read_shuffle(
    record: &GameRecord,
    pos: &mut Position,
    pool: &[Counts; 2],
) -> Result<bool, Vec<Finding>> {
    if record.setups.is_empty() {
        return Ok(false);
    }
    let mut sh = Shuffle {
        seen: [None; 2],
        identities: [None; SQUARES],
        errors: Vec::new(),
    };
    for block in &record.setups {
        sh.block(block, pos);
    }
    sh.check_complete(record, pos, pool);
    if !sh.errors.is_empty() {
        return Err(sh.errors);
    }
    for (sq, id) in sh.identities.iter().enumerate() {
        if let (Some((k, _)), Some(p)) = (id, pos.piece(sq as u8)) {
            pos.set(sq as u8, Some(Piece::covered(p.side(), *k)));
        }
    }
    Ok(true)
}

const SHUFFLE_HELP: &str = "a Jieqi shuffle is `setup red` and `setup black`, each with rows `<rank> <9 cells>`: the identity letter (R N B A C P) on every covered point, `.` elsewhere";

/// A `setup-invalid` finding about the shuffle.
fn invalid(span: Span, message: String, label: &str, help: &str) -> Finding {
    Finding::new(Code::SetupInvalid, span, message, Rule::LogJieqiShuffle)
        .label(label.to_string())
        .help(help.to_string())
}

/// The shuffle as read so far: each side's section, each point's identity, the problems.
struct Shuffle {
    /// Where each side's section starts (by [`Side::index`]).
    seen: [Option<Span>; 2],
    /// The identity given for each point, with its cell.
    identities: [Option<(Kind, Span)>; SQUARES],
    errors: Vec<Finding>,
}

impl Shuffle {
    /// One `setup` section: its side, then its rows.
    fn block(&mut self, block: &crate::record::SetupBlock, pos: &Position) {
        let side = match block.side.value.to_ascii_lowercase().as_str() {
            "red" | "r" => Side::First,
            "black" | "b" => Side::Second,
            other => {
                self.errors.push(invalid(
                    block.side.span,
                    format!("`{other}` is not a Jieqi side"),
                    "expected red or black",
                    SHUFFLE_HELP,
                ));
                return;
            }
        };
        if let Some(first) = self.seen[side.index()] {
            self.errors.push(
                invalid(
                    block.side.span,
                    format!("a second setup section for {}", side_name(side)),
                    "repeated",
                    SHUFFLE_HELP,
                )
                .with_label(first, "first given here"),
            );
            return;
        }
        self.seen[side.index()] = Some(block.side.span);
        let mut ranks: [Option<Span>; 10] = [None; 10];
        for row in &block.rows {
            self.row(row, side, &mut ranks, pos);
        }
    }

    /// One row: a rank 0-9 not given before, 9 cells.
    fn row(
        &mut self,
        row: &crate::record::SetupRow,
        side: Side,
        ranks: &mut [Option<Span>; 10],
        pos: &Position,
    ) {
        let rank = row.rank.value;
        if let Some(first) = ranks.get(rank as usize).copied().flatten() {
            self.errors.push(
                invalid(
                    row.rank.span,
                    format!("rank {rank} is given twice"),
                    "repeated",
                    SHUFFLE_HELP,
                )
                .with_label(first, "first given here"),
            );
            return;
        }
        if let Some(slot) = ranks.get_mut(rank as usize) {
            *slot = Some(row.rank.span);
        }
        let cells = &row.cells.value;
        if rank > 9 {
            self.errors.push(invalid(
                row.rank.span,
                format!("rank {rank} is off the board"),
                "ranks are 0-9",
                SHUFFLE_HELP,
            ));
            return;
        }
        if cells.chars().count() != 9 {
            self.errors.push(invalid(
                row.cells.span,
                format!(
                    "rank {rank} has {} cells, the board has 9 files",
                    cells.chars().count()
                ),
                "expected 9 cells",
                SHUFFLE_HELP,
            ));
            return;
        }
        for (file, (off, c)) in cells.char_indices().enumerate() {
            let sq = rank as usize * 9 + file;
            let span = Span::new(row.cells.span.start + off, row.cells.span.start + off + 1);
            self.cell(c, sq, span, side, pos);
        }
    }

    /// One cell: an identity on a covered point of `side`, `.` (or `K` on its General) elsewhere.
    fn cell(&mut self, c: char, sq: usize, span: Span, side: Side, pos: &Position) {
        let here = pos.piece(sq as u8);
        let covered_here = here.is_some_and(|p| p.is_covered() && p.side() == side);
        let general_here =
            here.is_some_and(|p| p.kind() == Kind::General && !p.is_covered() && p.side() == side);
        match (c, covered_here) {
            ('.', false) => {}
            ('K' | 'k', false) if general_here => {}
            (_, true) => match identity(c) {
                Some(k) => self.identities[sq] = Some((k, span)),
                None => self.errors.push(invalid(
                    span,
                    format!(
                        "`{}` is not an identity of a covered piece",
                        c.escape_debug()
                    ),
                    "expected R N B A C or P",
                    SHUFFLE_HELP,
                )),
            },
            (_, false) => self.errors.push(invalid(
                span,
                format!(
                    "{} holds no covered piece of {}",
                    GEOMETRY.name(sq as u8),
                    side_name(side)
                ),
                "expected `.`",
                SHUFFLE_HELP,
            )),
        }
    }

    /// Every covered point has an identity, and each side's identities fit its pool.
    fn check_complete(&mut self, record: &GameRecord, pos: &Position, pool: &[Counts; 2]) {
        let mut counts = [[0u8; 7]; 2];
        let mut missing = [false; 2];
        for sq in 0..SQUARES as u8 {
            let Some(p) = pos.piece(sq).filter(|p| p.is_covered()) else {
                continue;
            };
            let s = p.side().index();
            match self.identities[sq as usize] {
                Some((k, span)) => {
                    let n = &mut counts[s][k.index()];
                    *n += 1;
                    if *n > pool[s][k.index()] {
                        self.errors.push(invalid(
                            span,
                            format!(
                                "one {} too many for {}: the pool holds {}",
                                k.name(),
                                side_name(p.side()),
                                pool[s][k.index()]
                            ),
                            "beyond the pool",
                            "the shuffle places each unrevealed identity once (2 each of R N B A C, 5 P at the start)",
                        ));
                    }
                }
                None => match self.seen[s] {
                    Some(span) => self.errors.push(invalid(
                        span,
                        format!(
                            "the shuffle gives no identity for {}'s covered piece on {}",
                            side_name(p.side()),
                            GEOMETRY.name(sq)
                        ),
                        "incomplete shuffle",
                        SHUFFLE_HELP,
                    )),
                    None => missing[s] = true,
                },
            }
        }
        for side in [Side::First, Side::Second] {
            if missing[side.index()] {
                self.errors.push(invalid(
                    record.setups[0].span,
                    format!("the shuffle has no setup section for {}", side_name(side)),
                    "incomplete shuffle",
                    SHUFFLE_HELP,
                ));
            }
        }
    }
}
