//! The Spionage engine: `spionage` (two moves a turn) and `spionage-snel` (one move a turn),
//! rulings §2 on seed 002.
//!
//! The start position comes from the log: `setup white` / `setup black` (letters of
//! [`Kind::letter`]) and the `Volcanoes` tag ([`setup`]). White moves first. Every move is one
//! orthogonal step onto an empty square or an enemy piece, never onto a volcano, never straight
//! back to the square the piece left in its owner's previous turn. Combat follows
//! [`pieces::combat`]; after every move the enemy pieces on the 8 squares around a Spy are
//! unmasked to the Spy's owner for the rest of the game ([`State::unmasked`]).
//!
//! Turns and plies. A *ply* is one move of one piece, numbered 1, 2, … in the order played,
//! as in every game. A *turn* is what the log writes as one movetext token, its plies joined
//! by a comma (`a3-a4,b3-b4`); [`MoveRecord::turn`] counts turns from 0, White's turns are the
//! even ones. In `spionage` a turn is two moves with two different pieces; it is one move when
//! after that move no other piece of the player can move, or when the move ended the game
//! (then a second move is `moves-after-end`, reported by [`crate::rules::replay`]). Whether a
//! second move is possible is judged after the first move, so a first move that frees a
//! blocked piece makes a two-move turn. The last turn of a record may stop after one move (a
//! record may stop anywhere). Messages name the turn as `turn 5 (3. White), move 2`: the turn
//! counted from 1, the movetext number, and the move within the turn.
//!
//! Endings: `headquarters-captured`, `all-pieces-captured` (a side without movable pieces
//! loses, at once, even in the middle of a turn) and `no-legal-move` (judged when a turn
//! begins: the player to move who has no legal move loses).

// Findings travel by value through the `Rules` trait (rules/mod.rs); boxing them in this
// engine alone would buy nothing.
#![allow(clippy::result_large_err)]

mod claim;
mod illegal;
pub mod pieces;
mod position;
pub mod setup;
mod view;

use crate::finding::Finding;
use crate::geometry::{zobrist, Geometry, Square, MAX_SQUARES, ORTHOGONAL};
use crate::record::{GameRecord, MoveRecord};
use crate::rulebook::Rule;
use crate::rules::{annotation, coords, Applied, GameId, Outcome, Parameters, PlyInfo, Rules};
use crate::types::EndReason;
use crate::types::Side;
pub use illegal::Illegal;
pub use pieces::{combat, Combat, Kind, ARMY, KINDS};
use std::rc::Rc;

/// Where the rule text comes from, for findings.
pub(crate) const SOURCE: Rule = Rule::Spionage;

/// How a Spionage move that is not a coordinate move is reported.
const UNREADABLE: coords::Unreadable = coords::Unreadable {
    shown: coords::escaped,
    example: "a4-a5",
    help: "Spionage moves are written from-to in coordinates: a4-a5, or a4xa5 for an attack; the two moves of a turn are joined by a comma",
};

/// A piece on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Its owner.
    pub side: Side,
    /// What it is.
    pub kind: Kind,
    /// A number unique to this piece for the whole game: White's pieces 0–29, Black's 30–59,
    /// in the order the setup rows are read.
    pub id: u16,
}

/// One move as the no-return rule remembers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The moving piece's id.
    pub piece: u16,
    /// Where it came from.
    pub from: Square,
    /// Where it went (or attacked).
    pub to: Square,
}

/// The position between plies.
#[derive(Debug, Clone)]
pub struct State {
    /// Square contents (`rank * 10 + file`, both 0-based).
    pub board: [Option<Piece>; MAX_SQUARES],
    /// Volcano squares (from the `Volcanoes` tag).
    pub volcano: [bool; MAX_SQUARES],
    /// The player whose turn it is.
    pub to_move: Side,
    /// 0-based index of the current turn, as [`MoveRecord::turn`] counts them.
    pub turn: usize,
    /// The moves played so far in the current turn (at most two; the first one's piece may
    /// not move again this turn).
    pub current: [Option<Step>; 2],
    /// Per side ([`Side::index`]), the moves of that side's previous turn: the no-return rule
    /// forbids each of those pieces to go straight back to the square it left.
    pub previous: [[Option<Step>; 2]; 2],
    /// Unmasking by Spies, per side: `unmasked[viewer][id]` is the ply after which the enemy
    /// piece `id` is unmasked to `viewer` for the rest of the game (0 never occurs: nothing is
    /// unmasked in a start position, the zones being four ranks apart). `None`: still masked.
    pub unmasked: [[Option<u32>; 2 * ARMY]; 2],
    /// Pieces each side has lost, in the order lost (with their ids, so that a view can tell
    /// whether a Spy had unmasked them).
    pub lost: [Vec<Piece>; 2],
    /// Movable pieces each side still has on the board.
    pub movable_left: [u8; 2],
    /// The side whose Headquarters was captured, once it happens.
    pub hq_lost: Option<Side>,
    /// Incremental position key: placement with identities, side to move, move within turn.
    pub key: u64,
    /// 1 when the log's first turn is Black's (a position start with Black to move), else 0:
    /// the movetext numbers turns as `1...`, `2.`, ... then.
    pub turn_offset: usize,
    /// Plies per turn in the record being replayed (to tell a one-move turn that stops the
    /// record from one that skips a possible second move).
    turn_sizes: Rc<[u8]>,
}

impl State {
    /// The enemy pieces unmasked to `viewer` so far, as (piece id, ply of unmasking), by id.
    pub fn unmasked_to(&self, viewer: Side) -> impl Iterator<Item = (u16, u32)> + '_ {
        self.unmasked[viewer.index()]
            .iter()
            .enumerate()
            .filter_map(|(id, p)| p.map(|p| (id as u16, p)))
    }
    /// The number of moves already played in the current turn (0 or 1 between plies).
    pub fn moves_in_turn(&self) -> usize {
        self.current.iter().flatten().count()
    }
}

/// The engine for `spionage` or `spionage-snel`.
#[derive(Debug, Clone)]
pub struct Spionage {
    /// Which of the two.
    pub game: GameId,
}

impl Spionage {
    /// The engine for `game`; `None` unless it is `spionage` or `spionage-snel`.
    pub fn new(game: GameId) -> Option<Self> {
        matches!(game, GameId::Spionage | GameId::SpionageSnel).then_some(Spionage { game })
    }

    /// Moves a turn: 2 in `spionage`, 1 in `spionage-snel` (rulings §2).
    pub fn moves_per_turn(&self) -> usize {
        if self.game == GameId::SpionageSnel {
            1
        } else {
            2
        }
    }

    /// The 10x10 board.
    pub fn geometry(&self) -> Geometry {
        setup::BOARD
    }

    fn piece_key(p: &Piece, sq: Square) -> u64 {
        zobrist(
            0x5350_0000_0000
                | ((sq as u64) << 8)
                | ((p.side.index() as u64) << 4)
                | p.kind.index() as u64,
        )
    }

    fn side_key() -> u64 {
        zobrist(u64::MAX)
    }

    /// The key of `st` computed from scratch (pieces with identities, side to move, which
    /// move of the turn): what the incremental [`State::key`] must always equal.
    pub fn full_key(st: &State) -> u64 {
        let mut k = 0;
        for (s, p) in st.board.iter().enumerate() {
            if let Some(p) = p {
                k ^= Self::piece_key(p, s as Square);
            }
        }
        if st.to_move == Side::Second {
            k ^= Self::side_key();
        }
        if st.moves_in_turn() == 1 {
            k ^= Self::phase_key();
        }
        k
    }

    fn phase_key() -> u64 {
        zobrist(u64::MAX - 1)
    }

    /// The legal targets of the piece on `from` for the side to move (empty when it is not
    /// theirs or cannot move).
    fn targets<'a>(&'a self, st: &'a State, from: Square) -> impl Iterator<Item = Square> + 'a {
        let g = self.geometry();
        // Most squares hold no movable piece of the side to move: no direction is tried
        // there (check_move would refuse each).
        let mine =
            st.board[from as usize].is_some_and(|p| p.side == st.to_move && p.kind.movable());
        let directions: &[_] = if mine { &ORTHOGONAL } else { &[] };
        directions
            .iter()
            .filter_map(move |&d| g.step(from, d))
            .filter(move |&to| self.check_move(st, from, to).is_ok())
    }

    /// Every legal move of the side to move in the current phase of its turn, as (from, to)
    /// pairs in board order: the no-return rule applied, and the piece that already moved this
    /// turn excluded.
    pub fn legal_moves(&self, st: &State) -> Vec<(Square, Square)> {
        (0..self.geometry().squares() as Square)
            .flat_map(|from| self.targets(st, from).map(move |to| (from, to)))
            .collect()
    }

    /// True when the side to move has a legal move in the current phase of its turn.
    pub fn has_legal_move(&self, st: &State) -> bool {
        (0..self.geometry().squares() as Square).any(|from| self.targets(st, from).next().is_some())
    }

    /// Plays a legal move (one of [`Spionage::legal_moves`]): combat (rulings §2), unmasking
    /// around the square the moving piece reached, the no-return memory and the position key.
    /// `ply` is the ply's number, recorded with each unmasking. Returns true when the move
    /// attacked. The turn is not ended: see [`Spionage::end_turn`].
    pub fn apply(&self, st: &mut State, from: Square, to: Square, ply: u32) -> bool {
        let Some(piece) = st.board[from as usize] else {
            return false;
        };
        // The phase bit is set while exactly one move of the turn has been played: the first
        // move sets it, a second clears it (and so does end_turn after a one-move turn).
        let mut key = st.key ^ Self::piece_key(&piece, from) ^ Self::phase_key();
        st.board[from as usize] = None;
        let target = st.board[to as usize];
        let arrived = match target {
            None => true,
            Some(def) => match combat(piece.kind, def.kind) {
                Combat::AttackerWins => {
                    key ^= Self::piece_key(&def, to);
                    Self::remove(st, def);
                    true
                }
                Combat::DefenderWins => {
                    Self::remove(st, piece);
                    false
                }
            },
        };
        if arrived {
            st.board[to as usize] = Some(piece);
            key ^= Self::piece_key(&piece, to);
            self.unmask_around(st, to, ply);
        }
        st.key = key;
        let step = Step {
            piece: piece.id,
            from,
            to,
        };
        let slot = usize::from(st.current[0].is_some());
        st.current[slot] = Some(step);
        target.is_some()
    }

    fn remove(st: &mut State, p: Piece) {
        st.lost[p.side.index()].push(p);
        if p.kind.movable() {
            let left = &mut st.movable_left[p.side.index()];
            *left = left.saturating_sub(1);
        }
        if p.kind == Kind::Headquarters {
            st.hq_lost = Some(p.side);
        }
    }

    /// Unmasking (rulings §2) after a piece arrived on `sq`: if it is a Spy, every enemy piece
    /// on the 8 squares around it is unmasked to its owner; every enemy Spy on those squares
    /// unmasks the arriving piece to the Spy's owner. A position changes only where a piece
    /// arrives, so this is all that "after every move" can add.
    fn unmask_around(&self, st: &mut State, sq: Square, ply: u32) {
        let g = self.geometry();
        let Some(p) = st.board[sq as usize] else {
            return;
        };
        for df in -1i8..=1 {
            for dr in -1i8..=1 {
                let Some(n) = g.step(sq, (df, dr)).filter(|&n| n != sq) else {
                    continue;
                };
                let Some(q) = st.board[n as usize] else {
                    continue;
                };
                if q.side == p.side {
                    continue;
                }
                if p.kind == Kind::Spy {
                    st.unmasked[p.side.index()][q.id as usize].get_or_insert(ply);
                }
                if q.kind == Kind::Spy {
                    st.unmasked[q.side.index()][p.id as usize].get_or_insert(ply);
                }
            }
        }
    }

    /// Ends the turn of the side to move: its moves become the no-return memory of its
    /// previous turn, and the other side is to move.
    pub fn end_turn(&self, st: &mut State) {
        let side = st.to_move;
        if st.current[0].is_some() && st.current[1].is_none() {
            st.key ^= Self::phase_key();
        }
        st.previous[side.index()] = std::mem::take(&mut st.current);
        st.to_move = side.other();
        st.turn += 1;
        st.key ^= Self::side_key();
    }

    /// The game's end after the last ply, if it ended (see the module doc for the order).
    fn ending(&self, st: &State) -> Option<(Side, EndReason)> {
        if let Some(loser) = st.hq_lost {
            return Some((loser.other(), EndReason::HeadquartersCaptured));
        }
        for side in [Side::First, Side::Second] {
            if st.movable_left[side.index()] == 0 {
                return Some((side.other(), EndReason::AllPiecesCaptured));
            }
        }
        if st.current[0].is_none() && !self.has_legal_move(st) {
            return Some((st.to_move.other(), EndReason::NoLegalMove));
        }
        None
    }

    fn side_name(&self, side: Side) -> &'static str {
        self.game.side_names()[side.index()]
    }

    /// `3. White` or `3... Black`: the movetext number and player of a turn (0-based `turn`
    /// of the log; White plays the even ones, counted with [`State::turn_offset`]).
    fn movetext_label(&self, st: &State, turn: usize) -> String {
        let turn = turn + st.turn_offset;
        let (dots, side) = if turn.is_multiple_of(2) {
            (".", Side::First)
        } else {
            ("...", Side::Second)
        };
        format!("{}{dots} {}", turn / 2 + 1, self.side_name(side))
    }

    /// `turn 5 (3. White)`: a turn counted from 1, with its movetext label.
    fn turn_name(&self, st: &State, turn: usize) -> String {
        format!("turn {} ({})", turn + 1, self.movetext_label(st, turn))
    }

    /// `turn 5, 3. White, move 2` for the move `move_no` (1-based) of the current turn, to
    /// close a message in parentheses.
    fn turn_text(&self, st: &State, move_no: usize) -> String {
        format!(
            "turn {}, {}, move {move_no}",
            st.turn + 1,
            self.movetext_label(st, st.turn)
        )
    }

    /// Plays the checked move `from`-`to` of ply `number` within its turn, and ends the turn
    /// after its last possible move. A one-move turn that the record follows with another turn
    /// is allowed only when the move ended the game or no other piece can move after it
    /// ([`Illegal::OneMoveTurn`]); the last turn of a record may stop after one move (a record
    /// may stop anywhere), and that turn stays open. Returns true when the move attacked.
    fn play_in_turn(
        &self,
        st: &mut State,
        mv: &MoveRecord,
        number: u32,
        (from, to): (Square, Square),
    ) -> Result<bool, Finding> {
        let move_no = st.moves_in_turn() + 1;
        let size = st.turn_sizes.get(mv.turn()).copied().unwrap_or(1) as usize;
        let last_turn = mv.turn() + 1 >= st.turn_sizes.len();
        let capture;
        if move_no == 1 && self.moves_per_turn() == 2 && size == 1 && !last_turn {
            let mut next = st.clone();
            capture = self.apply(&mut next, from, to, number);
            if self.ending(&next).is_none() {
                if let Some(&(f2, t2)) = self.legal_moves(&next).first() {
                    return Err(self.explain(st, mv, number, Illegal::OneMoveTurn(f2, t2)));
                }
            }
            *st = next;
        } else {
            capture = self.apply(st, from, to, number);
        }
        let over = move_no == self.moves_per_turn()
            || (size <= move_no
                && (!last_turn || self.ending(st).is_some() || !self.has_legal_move(st)));
        if over {
            self.end_turn(st);
        }
        Ok(capture)
    }
}

impl Rules for Spionage {
    type State = State;

    fn game(&self) -> GameId {
        self.game
    }

    crate::rules::claim_rules!();

    /// The current turn: a turn holds up to two plies.
    fn next_turn(&self, st: &State, _played: u32) -> usize {
        st.turn
    }

    fn forbidden_by_history(&self, st: &State, mv: &MoveRecord) -> bool {
        self.goes_back(st, mv)
    }

    /// Spionage has no parameter tags: every parameter is unset.
    fn default_parameters(&self) -> Parameters {
        Parameters::default()
    }

    /// A record that asks for a small (8x8) board with a `Variant` or `Board` tag (rulings §2).
    fn refuse(&self, record: &GameRecord) -> Option<Finding> {
        setup::small_variant_tag(record).map(setup::small_variant_finding)
    }

    fn start(
        &self,
        record: &GameRecord,
        _params: &Parameters,
        findings: &mut Vec<Finding>,
    ) -> Result<State, Vec<Finding>> {
        let mut errors = Vec::new();
        let volcano = setup::read_volcanoes(record, &mut errors, findings);
        let start = match record.tag("Position") {
            Some(tag) => {
                let ply = crate::rules::start_ply(record).unwrap_or(0);
                position::read_position(record, tag, &volcano, self.moves_per_turn(), ply)
                    .map_err(|e| errors.extend(e))
                    .ok()
            }
            None => Some(position::Start::from_setups(setup::read_setups(
                record,
                &mut errors,
            ))),
        };
        let Some(start) = start.filter(|_| errors.is_empty()) else {
            return Err(errors);
        };
        let mut sizes = vec![0u8; record.moves.last().map_or(0, |m| m.turn() + 1)];
        for m in &record.moves {
            if let Some(n) = sizes.get_mut(m.turn()) {
                *n = n.saturating_add(1);
            }
        }
        let mut st = State {
            board: start.board,
            volcano,
            to_move: start.to_move,
            turn: 0,
            current: start.current,
            previous: start.previous,
            unmasked: start.unmasked,
            lost: start.lost,
            movable_left: [0; 2],
            hq_lost: None,
            key: 0,
            turn_offset: start.to_move.index(),
            turn_sizes: sizes.into(),
        };
        for p in st.board.iter().flatten().filter(|p| p.kind.movable()) {
            st.movable_left[p.side.index()] += 1;
        }
        st.key = Self::full_key(&st);
        Ok(st)
    }

    fn key(&self, st: &State) -> u64 {
        st.key
    }

    fn view(&self, st: &State) -> crate::view::BoardView {
        self.board_view(st)
    }

    /// The position start of `st`; none after the Headquarters' capture (a position needs
    /// both).
    fn write_start(&self, st: &State) -> Option<crate::rules::StartText> {
        st.hq_lost.is_none().then(|| position::write_position(st))
    }

    /// Decode, legality (§2 movement, the attack mark, the combat annotation), then the move
    /// within its turn (`Spionage::play_in_turn`).
    fn play(&self, st: &mut State, mv: &MoveRecord, number: u32) -> Result<Applied, Finding> {
        if mv.turn() < st.turn {
            return Err(self.explain(st, mv, number, Illegal::ExtraMove));
        }
        let off = |from: bool| self.explain(st, mv, number, Illegal::OffBoard(from));
        let (from, to, capture_mark) =
            coords::read(&self.geometry(), mv, number, &UNREADABLE, off)?;
        let piece = self
            .check_move(st, from, to)
            .map_err(|why| self.explain(st, mv, number, why))?;
        let target = st.board[to as usize];
        if target.is_none() && capture_mark {
            let why = Illegal::NothingToAttack(from, to);
            return Err(self.explain(st, mv, number, why));
        }
        annotation::check_combat(
            mv,
            number,
            piece.kind,
            target.map(|t| t.kind),
            SOURCE,
            "M:B",
        )?;
        let side = st.to_move;
        let capture = self.play_in_turn(st, mv, number, (from, to))?;
        let info = PlyInfo {
            number,
            side,
            span: mv.span(),
            from,
            to,
            piece: piece.id,
            capture,
            key: st.key,
        };
        Ok(Applied {
            info,
            findings: Vec::new(),
        })
    }

    fn outcome(&self, st: &State, last: u32) -> Option<Outcome> {
        self.ending(st).map(|(winner, reason)| Outcome {
            result: winner.wins(),
            reason,
            ply: last,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse::parse_log;

    const SETUPS: &str = "[Game \"spionage\"]\n[Volcanoes \"d5 e6 f4 g7\"]\n\
        setup white\n  3 12345S1234\n  2 5SSSS1MMMM\n  1 11223BBBBH\n\
        setup black\n 10 11223BBBBH\n  9 5SSSS1MMMM\n  8 12345S1234\n*\n";

    fn start() -> (Spionage, State) {
        let rec = &parse_log(SETUPS)[0];
        let e = Spionage::new(GameId::Spionage).unwrap();
        let st = e
            .start(rec, &Parameters::default(), &mut Vec::new())
            .unwrap();
        (e, st)
    }

    fn sq(name: &str) -> Square {
        setup::parse_square(name).unwrap()
    }

    /// Leaves `side` one movable piece, the one on `keep`; the others are taken off as if
    /// captured.
    fn strip(st: &mut State, side: Side, keep: Square) {
        for s in 0..100 {
            if let Some(p) = st.board[s] {
                if p.side == side && p.kind.movable() && s != keep as usize {
                    st.board[s] = None;
                    Spionage::remove(st, p);
                }
            }
        }
        assert_eq!(st.movable_left[side.index()], 1);
    }

    #[test]
    fn start_position() {
        let (e, st) = start();
        assert_eq!(st.movable_left, [25, 25]);
        assert!(e.outcome(&st, 0).is_none());
        // White's movers at the start: the ten rank-3 pieces step forward, except f3 into the
        // volcano f4, and the Mines and Headquarters are on rank 1.
        assert_eq!(e.legal_moves(&st).len(), 9);
    }

    #[test]
    fn capturing_the_last_movable_piece_wins_at_once() {
        let (e, mut st) = start();
        strip(&mut st, Side::Second, sq("a8"));
        // White's General e3 is put on a7 and takes the last Black movable piece on a8.
        let general = st.board[sq("e3") as usize].take().unwrap();
        st.board[sq("a7") as usize] = Some(general);
        e.apply(&mut st, sq("a7"), sq("a8"), 1);
        let o = e.outcome(&st, 1).unwrap();
        assert_eq!(
            (o.result, o.reason, o.ply),
            (
                crate::types::RecordedResult::FirstWins,
                EndReason::AllPiecesCaptured,
                1
            )
        );
    }

    #[test]
    fn the_last_movable_piece_dying_on_a_mine_loses() {
        let (e, mut st) = start();
        strip(&mut st, Side::First, sq("a3"));
        // The Corporal on a3 is put on f2 and steps on a Black Mine put on f3: White has no
        // movable piece left, Black wins in the middle of White's turn.
        let corporal = st.board[sq("a3") as usize].take().unwrap();
        st.board[sq("f2") as usize] = Some(corporal);
        let black_mine = st.board[sq("f10") as usize].take().unwrap();
        assert_eq!(black_mine.kind, Kind::Mine);
        st.board[sq("f3") as usize] = Some(black_mine);
        e.apply(&mut st, sq("f2"), sq("f3"), 1);
        assert_eq!(st.board[sq("f3") as usize], Some(black_mine));
        let o = e.outcome(&st, 1).unwrap();
        assert_eq!(
            (o.result, o.reason),
            (
                crate::types::RecordedResult::SecondWins,
                EndReason::AllPiecesCaptured
            )
        );
    }

    #[test]
    fn unmasking_is_per_side_and_remembers_the_ply() {
        let (e, mut st) = start();
        // White's Spy f3 is put on d6. d6-d7 (ply 7) unmasks c8, d8, e8 to White; d7-e7 (ply 9)
        // adds f8, Black's Spy, which unmasks White's Spy to Black.
        let spy = st.board[sq("f3") as usize].take().unwrap();
        st.board[sq("d6") as usize] = Some(spy);
        e.apply(&mut st, sq("d6"), sq("d7"), 7);
        let white: Vec<_> = st.unmasked_to(Side::First).collect();
        assert_eq!(white, vec![(52, 7), (53, 7), (54, 7)]);
        assert_eq!(st.unmasked_to(Side::Second).count(), 0);
        e.end_turn(&mut st);
        e.end_turn(&mut st);
        e.apply(&mut st, sq("d7"), sq("e7"), 9);
        let white: Vec<_> = st.unmasked_to(Side::First).collect();
        assert_eq!(white, vec![(52, 7), (53, 7), (54, 7), (55, 9)]);
        let black: Vec<_> = st.unmasked_to(Side::Second).collect();
        assert_eq!(black, vec![(spy.id, 9)]);
    }

    #[test]
    fn incremental_key_matches_the_position() {
        let (e, mut st) = start();
        assert_eq!(st.key, Spionage::full_key(&st));
        let mut ply = 0;
        // A few turns: attack when possible, else advance towards the enemy.
        for _ in 0..40 {
            for _ in 0..2 {
                let forward = |&(_, t): &(Square, Square)| {
                    let attack = st.board[t as usize].is_some();
                    let rank = t / 10;
                    let ahead = if st.to_move == Side::First {
                        rank
                    } else {
                        9 - rank
                    };
                    (attack, ahead)
                };
                let Some((f, t)) = e.legal_moves(&st).into_iter().max_by_key(forward) else {
                    break;
                };
                ply += 1;
                e.apply(&mut st, f, t, ply);
                assert_eq!(st.key, Spionage::full_key(&st), "after ply {ply}");
            }
            e.end_turn(&mut st);
            assert_eq!(st.key, Spionage::full_key(&st), "after turn end, ply {ply}");
        }
        assert!(
            st.lost[0].len() + st.lost[1].len() > 0,
            "no attack was played"
        );
    }
}
