//! Why a Spionage move is illegal (rulings §2; the turn rules of docs/log-format.md,
//! Spionage): [`Illegal`], found by [`Spionage::check_move`] and the turn checks of `play`,
//! put into words by [`Spionage::explain`], the one place that writes an illegal move's
//! message, label and help.

use super::{Kind, Spionage, State, SOURCE};
use crate::finding::{Code, Finding};
use crate::geometry::Square;
use crate::record::MoveRecord;
use crate::types::{Side, Span};

/// The first rule a move breaks, in the order they are checked. Each reason carries the
/// squares and pieces its explanation names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// A move beyond what a turn holds: a third move, or in `spionage-snel` a second.
    ExtraMove,
    /// The from-square (`true`) or the to-square (`false`) is not on the board.
    OffBoard(bool),
    /// No piece stands on the from-square.
    Empty(Square),
    /// The from-square holds a piece of the side not to move (its owner).
    Enemy(Square, Side),
    /// A Mine or the Headquarters, which never move.
    Immobile(Square, Kind),
    /// The piece made the first move of this turn.
    MovedThisTurn(Square, Kind),
    /// From-square and to-square are the same.
    SameSquare,
    /// Not one orthogonal step (from, to, the piece).
    NotAStep(Square, Square, Kind),
    /// The to-square is a volcano.
    Volcano(Square),
    /// The to-square holds a piece of the mover.
    Own(Square),
    /// Straight back to the square (to) the piece left in its owner's previous turn.
    NoReturn(Square, Kind),
    /// Written as an attack (`x`), but the to-square is empty (from, to).
    NothingToAttack(Square, Square),
    /// A one-move turn the record follows with another turn, although a second piece could
    /// move after it: one such move (from, to).
    OneMoveTurn(Square, Square),
}

impl Illegal {
    /// Where the finding points: the from-square, the to-square, the move text or the ply.
    fn span(self, mv: &MoveRecord) -> Span {
        let Some(c) = mv.coord() else {
            return mv.span();
        };
        match self {
            Illegal::ExtraMove | Illegal::OneMoveTurn(..) => mv.span(),
            Illegal::SameSquare | Illegal::NotAStep(..) => mv.text_span(),
            Illegal::OffBoard(true)
            | Illegal::Empty(_)
            | Illegal::Enemy(..)
            | Illegal::Immobile(..)
            | Illegal::MovedThisTurn(..) => c.from_span,
            _ => c.to_span,
        }
    }

    /// True for the reasons of [`Spionage::check_move`], whose help says so when the refused
    /// move was a second move that no piece could make.
    fn is_movement(self) -> bool {
        !matches!(
            self,
            Illegal::ExtraMove
                | Illegal::OffBoard(_)
                | Illegal::NothingToAttack(..)
                | Illegal::OneMoveTurn(..)
        )
    }
}

/// An explanation: message, primary label, help (empty: none).
type Words = (String, &'static str, String);

impl Spionage {
    /// The `illegal-move` finding of ply `number` (1-based), written `mv`, for `why`, with the
    /// turn and the move within it (state `st` is the position the move was tried in).
    pub fn explain(&self, st: &State, mv: &MoveRecord, number: u32, why: Illegal) -> Finding {
        let (message, label, mut help) = match why {
            Illegal::ExtraMove | Illegal::OneMoveTurn(..) => self.turn_words(st, mv, why),
            Illegal::NotAStep(..)
            | Illegal::Volcano(_)
            | Illegal::Own(_)
            | Illegal::NoReturn(..)
            | Illegal::NothingToAttack(..) => self.path_words(st, why),
            _ => self.piece_words(st, why),
        };
        if why.is_movement() && st.current[0].is_some() && !self.has_legal_move(st) {
            let note = "no other piece could move after the first move, so this turn is one move";
            help = if help.is_empty() {
                note.to_string()
            } else {
                format!("{help}; {note}")
            };
        }
        let f = Finding::new(Code::IllegalMove, why.span(mv), message, SOURCE)
            .at_ply(number)
            .label(label.to_string());
        if help.is_empty() {
            f
        } else {
            f.help(help)
        }
    }

    /// Words for a move the turn does not hold, or a turn that lacks its second move.
    fn turn_words(&self, st: &State, mv: &MoveRecord, why: Illegal) -> Words {
        let g = self.geometry();
        match why {
            Illegal::OneMoveTurn(f2, t2) => (
                format!(
                    "{} has only one move, but a second piece could move after it",
                    self.turn_name(st, st.turn)
                ),
                "the only move of this turn",
                format!(
                    "a Spionage turn is two moves with two different pieces, e.g. {}-{} after this one; join them with a comma",
                    g.name(f2),
                    g.name(t2)
                ),
            ),
            _ if self.moves_per_turn() == 1 => (
                format!(
                    "a second move in {}: spionage-snel plays one move a turn",
                    self.turn_name(st, mv.turn())
                ),
                "joined to the previous move by a comma",
                "write each move as its own turn (separated by a space), or play [Game \"spionage\"]"
                    .into(),
            ),
            _ => (
                format!(
                    "a third move in {}: a Spionage turn is at most two moves",
                    self.turn_name(st, mv.turn())
                ),
                "joined to a complete turn by a comma",
                "a turn is two moves with two different pieces; start the next turn with a space"
                    .into(),
            ),
        }
    }

    /// Words for a move that fails on its from-square (or goes nowhere).
    fn piece_words(&self, st: &State, why: Illegal) -> Words {
        let g = self.geometry();
        let name = self.side_name(st.to_move);
        let at = self.turn_text(st, st.moves_in_turn() + 1);
        match why {
            Illegal::OffBoard(from) => (
                format!(
                    "{} is off the board ({at})",
                    if from { "from-square" } else { "to-square" }
                ),
                "not a square",
                "the board has files a-j, ranks 1-10".into(),
            ),
            Illegal::Empty(s) => (
                format!("no piece on {} ({at})", g.name(s)),
                "empty square",
                format!("it is {name}'s turn; the move must start on one of {name}'s pieces"),
            ),
            Illegal::Enemy(s, owner) => (
                format!(
                    "{} holds a {} piece but it is {name}'s turn ({at})",
                    g.name(s),
                    self.side_name(owner)
                ),
                "opponent's piece",
                "the players take turns, White first".into(),
            ),
            Illegal::Immobile(s, kind) => (
                format!("the {} on {} cannot move ({at})", kind.name(), g.name(s)),
                "never moves",
                "Mines and the Headquarters stay where they were set up".into(),
            ),
            Illegal::MovedThisTurn(s, kind) => (
                format!(
                    "the {} on {} already moved in this turn ({at})",
                    kind.name(),
                    g.name(s)
                ),
                "same piece as the first move",
                "a turn is two moves with two different pieces".into(),
            ),
            _ => (
                format!("a move must change square ({at})"),
                "same square",
                String::new(),
            ),
        }
    }

    /// Words for a move that fails on its way or on its to-square.
    fn path_words(&self, st: &State, why: Illegal) -> Words {
        let g = self.geometry();
        let name = self.side_name(st.to_move);
        let at = self.turn_text(st, st.moves_in_turn() + 1);
        match why {
            Illegal::NotAStep(f, t, kind) => (
                format!("{}-{} is not one orthogonal step ({at})", g.name(f), g.name(t)),
                "not a one-square step",
                format!("a {} moves one square along a file or a rank", kind.name()),
            ),
            Illegal::Volcano(s) => (
                format!("{} is a volcano ({at})", g.name(s)),
                "no piece may enter a volcano",
                "volcanoes are never entered".into(),
            ),
            Illegal::Own(s) => (
                format!("{} holds {name}'s own piece ({at})", g.name(s)),
                "own piece",
                "a piece moves to an empty square or attacks an enemy piece".into(),
            ),
            Illegal::NoReturn(s, kind) => (
                format!(
                    "the {} may not go straight back to {} ({at}): it left that square in {name}'s previous turn",
                    kind.name(),
                    g.name(s)
                ),
                "back to the square it came from",
                "a piece may return to the square it came from only after another turn".into(),
            ),
            Illegal::NothingToAttack(f, t) => (
                format!("marked as an attack but {} is empty ({at})", g.name(t)),
                "nothing to attack",
                format!("write {}-{} for a move to an empty square", g.name(f), g.name(t)),
            ),
            _ => self.piece_words(st, why),
        }
    }

    /// Checks a move of the side to move from `from` to `to` (both on the board) against the
    /// movement rules of §2: an own movable piece that has not moved this turn, one orthogonal
    /// step, not onto a volcano or an own piece, not straight back to the square it left in
    /// its owner's previous turn. Returns the moving piece.
    pub fn check_move(
        &self,
        st: &State,
        from: Square,
        to: Square,
    ) -> Result<super::Piece, Illegal> {
        let piece = st.board[from as usize].ok_or(Illegal::Empty(from))?;
        if piece.side != st.to_move {
            return Err(Illegal::Enemy(from, piece.side));
        }
        if !piece.kind.movable() {
            return Err(Illegal::Immobile(from, piece.kind));
        }
        if st.current.iter().flatten().any(|s| s.piece == piece.id) {
            return Err(Illegal::MovedThisTurn(from, piece.kind));
        }
        if from == to {
            return Err(Illegal::SameSquare);
        }
        if self.geometry().distance(from, to) != 1 {
            return Err(Illegal::NotAStep(from, to, piece.kind));
        }
        if st.volcano[to as usize] {
            return Err(Illegal::Volcano(to));
        }
        if st.board[to as usize].is_some_and(|q| q.side == piece.side) {
            return Err(Illegal::Own(to));
        }
        let back = st.previous[piece.side.index()]
            .iter()
            .flatten()
            .any(|s| s.piece == piece.id && s.from == to && s.to == from);
        if back {
            return Err(Illegal::NoReturn(to, piece.kind));
        }
        Ok(piece)
    }
}
