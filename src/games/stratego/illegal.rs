//! Why a Stratego-family move is illegal (rulings §1.1, §1.2): [`Illegal`], found by
//! [`Stratego::check_move`] and put into words by [`Stratego::explain`], the one place that
//! writes an illegal move's message, label and help.

use super::{Kind, Piece, State, Stratego};
use crate::finding::{Code, Finding};
use crate::geometry::Square;
use crate::record::MoveRecord;
use crate::types::{Side, Span};

/// The first rule of §1.1 a move breaks, in the order they are checked. Each reason carries
/// the squares and pieces its explanation names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The from-square (`true`) or the to-square (`false`) is not on the board.
    OffBoard(bool),
    /// No piece stands on the from-square.
    Empty(Square),
    /// The from-square holds a piece of the side not to move.
    NotYours(Square, Side),
    /// A Bomb or a Flag, which never move.
    Immobile(Square, Kind),
    /// From-square and to-square are the same.
    SameSquare,
    /// The to-square is a lake.
    Lake(Square),
    /// From and to are not on one file or rank.
    NotStraight(Square, Square),
    /// A piece other than a Scout moving more than one square (the distance).
    TooFar(Kind, u8),
    /// A Scout's line crosses the lake on this square.
    ScoutOverLake(Square),
    /// A Scout's line is blocked by a piece of this side on this square.
    ScoutOverPiece(Square, Side),
    /// The to-square holds a piece of the mover.
    OwnPiece(Square),
    /// Written as an attack (`x`), but the to-square is empty (from, to).
    NothingToAttack(Square, Square),
}

impl Illegal {
    /// Where the finding points: the from-square, the to-square or the whole move text.
    fn span(self, mv: &MoveRecord) -> Span {
        let Some(c) = mv.coord() else {
            return mv.text_span();
        };
        match self {
            Illegal::OffBoard(true)
            | Illegal::Empty(_)
            | Illegal::NotYours(..)
            | Illegal::Immobile(..) => c.from_span,
            Illegal::OffBoard(false)
            | Illegal::Lake(_)
            | Illegal::OwnPiece(_)
            | Illegal::NothingToAttack(..) => c.to_span,
            _ => mv.text_span(),
        }
    }
}

impl Stratego {
    /// Checks `from`-`to` (both on the board) for the side to move against §1.1: an own movable
    /// piece, a different square that is no lake, one orthogonal step or a Scout's clear line,
    /// not onto an own piece, and an attack mark (`capture_mark`) only on an enemy piece.
    /// Returns the moving piece. Agrees with [`Stratego::legal_moves`] (a tested property).
    pub fn check_move(
        &self,
        st: &State,
        from: Square,
        to: Square,
        capture_mark: bool,
    ) -> Result<Piece, Illegal> {
        let g = self.geometry();
        let piece = st.board[from as usize].ok_or(Illegal::Empty(from))?;
        if piece.side != st.to_move {
            return Err(Illegal::NotYours(from, piece.side));
        }
        if !piece.kind.movable() {
            return Err(Illegal::Immobile(from, piece.kind));
        }
        if from == to {
            return Err(Illegal::SameSquare);
        }
        if self.is_lake(to) {
            return Err(Illegal::Lake(to));
        }
        let dir = g
            .direction(from, to)
            .ok_or(Illegal::NotStraight(from, to))?;
        let dist = g.distance(from, to);
        if dist > 1 && piece.kind != Kind::Scout {
            return Err(Illegal::TooFar(piece.kind, dist));
        }
        let mut s = from;
        for _ in 1..dist {
            s = g
                .step(s, dir)
                .expect("in-line squares between two board squares");
            if self.is_lake(s) {
                return Err(Illegal::ScoutOverLake(s));
            }
            if let Some(b) = st.board[s as usize] {
                return Err(Illegal::ScoutOverPiece(s, b.side));
            }
        }
        match st.board[to as usize] {
            Some(t) if t.side == piece.side => Err(Illegal::OwnPiece(to)),
            None if capture_mark => Err(Illegal::NothingToAttack(from, to)),
            _ => Ok(piece),
        }
    }

    /// The `illegal-move` finding of ply `number` (1-based), written `mv`, for `why`: message,
    /// label and help, under the ruleset's rule source. The one place that words a reason.
    pub fn explain(&self, st: &State, mv: &MoveRecord, number: u32, why: Illegal) -> Finding {
        let (message, label, help) = match why {
            Illegal::OffBoard(_)
            | Illegal::Empty(_)
            | Illegal::NotYours(..)
            | Illegal::Immobile(..)
            | Illegal::SameSquare => self.piece_words(st, number, why),
            _ => self.path_words(st, number, why),
        };
        Finding::new(
            Code::IllegalMove,
            why.span(mv),
            message,
            self.ruleset.source,
        )
        .at_ply(number)
        .label(label.to_string())
        .help(help)
    }

    /// Message, label and help for a move that fails on its from-square (or goes nowhere).
    fn piece_words(&self, st: &State, number: u32, why: Illegal) -> Words {
        let g = self.geometry();
        let name = self.side_name(st.to_move);
        match why {
            Illegal::OffBoard(from) => (
                format!(
                    "{}-square is off the board",
                    if from { "from" } else { "to" }
                ),
                "not a square",
                format!(
                    "the board has files a-{}, ranks 1-{}",
                    (b'a' + g.width - 1) as char,
                    g.height
                ),
            ),
            Illegal::Empty(s) => (
                format!("no piece on {}", g.name(s)),
                "empty square",
                format!("it is {name}'s move; the move must start on one of {name}'s pieces"),
            ),
            Illegal::NotYours(s, owner) => (
                format!(
                    "{} holds a {} piece but it is {name}'s move",
                    g.name(s),
                    self.side_name(owner)
                ),
                "opponent's piece",
                // Odd plies belong to the side that moved first.
                format!(
                    "the sides move in turn; {} moved first in this game",
                    self.side_name(if number % 2 == 1 {
                        owner.other()
                    } else {
                        owner
                    })
                ),
            ),
            Illegal::Immobile(s, kind) => (
                format!("the {} on {} cannot move", kind.name(), g.name(s)),
                "never moves",
                "Bombs and Flags stay where they were set up".into(),
            ),
            _ => (
                "a move must change square".into(),
                "same square",
                "a piece moves to another square; a turn cannot be passed".into(),
            ),
        }
    }

    /// Message, label and help for a move that fails on its way or on its to-square.
    fn path_words(&self, st: &State, number: u32, why: Illegal) -> Words {
        let g = self.geometry();
        let name = self.side_name(st.to_move);
        match why {
            Illegal::Lake(s) => (
                format!("{} is a lake", g.name(s)),
                "no piece may enter a lake",
                "lakes are never entered or crossed".into(),
            ),
            Illegal::NotStraight(f, t) => (
                format!("{}-{} is not a straight line", g.name(f), g.name(t)),
                "not orthogonal",
                "pieces move along a file or a rank, never diagonally".into(),
            ),
            Illegal::TooFar(kind, dist) => (
                format!("a {} moves one square, not {dist}", kind.name()),
                "too far",
                "only a Scout moves more than one square".into(),
            ),
            Illegal::ScoutOverLake(s) => (
                format!("the Scout cannot cross the lake at {}", g.name(s)),
                "lake in the way",
                "a Scout moves over empty land squares only".into(),
            ),
            Illegal::ScoutOverPiece(s, owner) => (
                format!(
                    "the Scout cannot pass the {} piece on {}",
                    self.side_name(owner).to_lowercase(),
                    g.name(s)
                ),
                "piece in the way",
                "a Scout may attack only the piece at the end of a clear line".into(),
            ),
            Illegal::OwnPiece(s) => (
                format!("{} holds {name}'s own piece", g.name(s)),
                "own piece",
                "a piece moves to an empty square or attacks an enemy piece".into(),
            ),
            Illegal::NothingToAttack(f, t) => (
                format!("marked as an attack but {} is empty", g.name(t)),
                "nothing to attack",
                format!(
                    "write {}-{} for a move to an empty square",
                    g.name(f),
                    g.name(t)
                ),
            ),
            _ => self.piece_words(st, number, why),
        }
    }
}

/// An explanation: message, primary label, help.
type Words = (String, &'static str, String);
