//! The Stratego-family engine: `stratego`, `barrage`, `duel` and `veldslag` (rulings §1.1–1.3),
//! one engine with three piece sets ([`pieces::Ruleset`]).
//!
//! Setups are read from the log's `setup red` / `setup blue` sections with the letter table of
//! [`pieces::Kind::letter`]; every setup problem is reported at once. Each ply is validated
//! (own movable piece, one orthogonal step or a Scout's clear straight line, no lakes, no own
//! piece), combat is resolved, identities revealed by combat are remembered per piece, and the
//! game ends on a flag capture or when the side to move has no legal move.

pub mod chase;
mod claim;
mod illegal;
pub mod pieces;
mod position;
mod setup;
pub mod two_squares;
mod view;

use crate::finding::{excerpt, Code, Finding};
use crate::geometry::{zobrist, Geometry, Square, MAX_SQUARES, ORTHOGONAL};
use crate::record::{GameRecord, MoveRecord};
use crate::rulebook::Rule;
use crate::rules::{
    annotation, coords, Applied, GameId, Outcome, Parameters, PlyInfo, Rules, TwoSquares,
};
use crate::types::EndReason;
use crate::types::Side;
use crate::types::{RecordedResult, Span};
use chase::{Chase, Threats};
pub use illegal::Illegal;
pub use pieces::{Kind, Ruleset, KINDS};

/// How a Stratego-family move that is not a coordinate move is reported.
const UNREADABLE: coords::Unreadable = coords::Unreadable {
    shown: excerpt,
    example: "a4-a5",
    help: "Stratego moves are written from-to in coordinates: a4-a5, or a4xa5 for an attack",
};

/// True for the name of a Gravon variant arbiter does not judge (rulings §1.1): Gravon's
/// `classicfree` and `ultimate lightning`, in any case, spaces, `-` and `_` ignored.
pub fn names_gravon_variant(name: &str) -> bool {
    let folded: String = name
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
    matches!(
        folded.as_str(),
        "classicfree" | "ultimatelightning" | "ultimate"
    )
}

/// The `unsupported-game` finding for the Gravon variant `name` (at `span`), a Gravon
/// record's `type` or a log's `Game` tag (rulings §1.1: "say so clearly").
pub fn gravon_variant_finding(name: &str, span: Span) -> Finding {
    Finding::new(
        Code::UnsupportedGame,
        span,
        format!("`{name}` games are not supported"),
        Rule::GravonVariants,
    )
    .label("unsupported variant")
    .help("arbiter judges Gravon's classic, barrage and duell games (Game tags stratego, barrage, duel)")
}

/// A piece on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Its owner.
    pub side: Side,
    /// What it is.
    pub kind: Kind,
    /// A number unique to this piece for the whole game (setup order, Red first).
    pub id: u16,
    /// True once combat has shown its identity to both players (rulings §1.1).
    pub revealed: bool,
}

/// What a combat did (rulings §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combat {
    /// The attacker won and took the square.
    AttackerWins,
    /// The defender won and stayed; the attacker was removed.
    DefenderWins,
    /// Equal strength: both removed.
    BothRemoved,
}

/// The position between plies.
#[derive(Debug, Clone)]
pub struct State {
    /// Square contents (`rank * width + file`).
    pub board: [Option<Piece>; MAX_SQUARES],
    /// Whose move it is.
    pub to_move: Side,
    /// Incremental position key: placement with identities, plus side to move.
    pub key: u64,
    /// Pieces each side has lost, in the order lost (index: [`Side::index`]); combat revealed
    /// every one of them.
    pub lost: [Vec<Piece>; 2],
    /// The side whose Flag was captured, once it happens.
    pub flag_lost: Option<Side>,
    /// The last ply's from- and to-square.
    pub last_move: Option<(Square, Square)>,
    /// The two-squares tracker (rulings §1.4).
    pub two_squares: two_squares::Tracker,
    /// The more-squares (chase) tracker (rulings §1.5).
    pub chase: Chase,
    /// The span of every ply played so far (index = ply - 1 - `start_ply`), for labels on
    /// earlier plies.
    pub ply_spans: Vec<Span>,
    /// The ply after which the start position stands (0, or a `FromPly` tag's value).
    pub start_ply: u32,
    /// Plies since the last attack (Veldslag's no-capture count, rulings §1.6): from the
    /// position start's `NoCapture` tag, else from 0.
    pub quiet_plies: u32,
}

impl State {
    /// The log bytes of ply `ply`, if it was played in this replay.
    pub fn ply_span(&self, ply: u32) -> Option<&Span> {
        let i = ply.checked_sub(self.start_ply + 1)?;
        self.ply_spans.get(i as usize)
    }
}

/// The key of a piece (side, kind) on a square, tabulated when compiling: entry
/// `square * 24 + side * 12 + kind` is `zobrist(square << 8 | side << 5 | kind)`.
static PIECE_KEYS: [u64; MAX_SQUARES * 24] = {
    let mut t = [0u64; MAX_SQUARES * 24];
    let mut i = 0;
    while i < t.len() {
        let (sq, side, kind) = (i / 24, (i % 24) / 12, i % 12);
        t[i] = zobrist(((sq as u64) << 8) | ((side as u64) << 5) | kind as u64);
        i += 1;
    }
    t
};

/// The engine for one Stratego-family ruleset.
#[derive(Debug, Clone)]
pub struct Stratego {
    /// Board, lakes, zones and piece set.
    pub ruleset: Ruleset,
    lake: [bool; MAX_SQUARES],
}

impl Stratego {
    /// The engine for `game`; `None` when `game` is not of the Stratego family.
    pub fn new(game: GameId) -> Option<Self> {
        let ruleset = Ruleset::for_game(game)?;
        let mut lake = [false; MAX_SQUARES];
        for &s in &ruleset.lakes {
            lake[s as usize] = true;
        }
        Some(Stratego { ruleset, lake })
    }

    /// The board geometry.
    pub fn geometry(&self) -> Geometry {
        self.ruleset.geometry
    }

    /// True for a lake square.
    pub fn is_lake(&self, sq: Square) -> bool {
        self.lake[sq as usize]
    }

    fn piece_key(&self, p: &Piece, sq: Square) -> u64 {
        PIECE_KEYS[sq as usize * 24 + p.side.index() * 12 + p.kind.index()]
    }

    /// True when `side` has at least one legal move (a movable piece with a free or enemy
    /// neighbour that is not a lake).
    pub fn has_legal_move(&self, st: &State, side: Side) -> bool {
        let g = self.geometry();
        (0..g.squares() as Square).any(|s| match st.board[s as usize] {
            Some(p) if p.side == side && p.kind.movable() => ORTHOGONAL.iter().any(|&d| {
                g.step(s, d).is_some_and(|t| {
                    !self.is_lake(t) && st.board[t as usize].is_none_or(|q| q.side != side)
                })
            }),
            _ => false,
        })
    }

    /// Every move the side to move may make by §1.1 alone (history rules not applied), as
    /// (from, to) pairs in board order; Scouts' long moves included.
    pub fn legal_moves(&self, st: &State) -> Vec<(Square, Square)> {
        let mut out = Vec::new();
        self.find_move(st, |from, to| {
            out.push((from, to));
            false
        });
        out
    }

    /// Walks the moves of [`Stratego::legal_moves`] in the same order until `stop` returns
    /// true for one; true when it did (no list is built).
    pub fn find_move(&self, st: &State, mut stop: impl FnMut(Square, Square) -> bool) -> bool {
        (0..self.geometry().squares() as Square).any(|s| self.find_move_from(st, s, &mut stop))
    }

    /// [`Stratego::find_move`] over the moves of the piece of the side to move on `s`, if
    /// there is one.
    #[inline(always)]
    fn find_move_from(
        &self,
        st: &State,
        s: Square,
        stop: &mut impl FnMut(Square, Square) -> bool,
    ) -> bool {
        let g = self.geometry();
        let side = st.to_move;
        let Some(p) = st.board[s as usize] else {
            return false;
        };
        if p.side != side || !p.kind.movable() {
            return false;
        }
        for &d in &ORTHOGONAL {
            let mut t = s;
            while let Some(n) = g.step(t, d) {
                if self.is_lake(n) {
                    break;
                }
                match st.board[n as usize] {
                    Some(q) => {
                        if q.side != side && stop(s, n) {
                            return true;
                        }
                        break;
                    }
                    None => {
                        if stop(s, n) {
                            return true;
                        }
                    }
                }
                if p.kind != Kind::Scout {
                    break;
                }
                t = n;
            }
        }
        false
    }

    /// The key of `st` computed from scratch (every piece with its identity on its square,
    /// and the side to move): what the incremental [`State::key`] must always equal.
    pub fn full_key(&self, st: &State) -> u64 {
        let mut key = if st.to_move == Side::Second {
            zobrist(u64::MAX)
        } else {
            0
        };
        for (s, p) in st.board.iter().enumerate() {
            if let Some(p) = p {
                key ^= self.piece_key(p, s as Square);
            }
        }
        key
    }

    /// The position key after `from`-`to` and the enemy pieces (ids) the moved piece would
    /// then stand next to (rulings §1.5 "threaten"), without changing `st`.
    pub fn consequences(&self, st: &State, from: Square, to: Square) -> (u64, Threats) {
        let g = self.geometry();
        let Some(p) = st.board[from as usize] else {
            return (st.key, Threats::default());
        };
        let mut key = st.key ^ zobrist(u64::MAX) ^ self.piece_key(&p, from);
        let survives = match st.board[to as usize] {
            None => {
                key ^= self.piece_key(&p, to);
                true
            }
            Some(d) => match self.combat(p.kind, d.kind) {
                Combat::AttackerWins => {
                    key ^= self.piece_key(&d, to) ^ self.piece_key(&p, to);
                    true
                }
                Combat::DefenderWins => false,
                Combat::BothRemoved => {
                    key ^= self.piece_key(&d, to);
                    false
                }
            },
        };
        let mut threatens = Threats::default();
        if survives {
            for &d in &ORTHOGONAL {
                if let Some(n) = g.step(to, d) {
                    if let Some(q) = st.board[n as usize] {
                        if q.side != p.side && n != to {
                            threatens.push(q.id);
                        }
                    }
                }
            }
        }
        (key, threatens)
    }

    /// Applies a validated move: combat, reveals, losses, key, side to move.
    fn apply(&self, st: &mut State, from: Square, to: Square) {
        let Some(piece) = st.board[from as usize] else {
            return;
        };
        let side = piece.side;
        let mut key = st.key ^ zobrist(u64::MAX) ^ self.piece_key(&piece, from);
        st.board[from as usize] = None;
        match st.board[to as usize] {
            None => {
                st.board[to as usize] = Some(piece);
                key ^= self.piece_key(&piece, to);
            }
            Some(def) => {
                let mut att = piece;
                att.revealed = true;
                let mut defender = def;
                defender.revealed = true;
                match self.combat(piece.kind, def.kind) {
                    Combat::AttackerWins => {
                        key ^= self.piece_key(&def, to) ^ self.piece_key(&att, to);
                        st.board[to as usize] = Some(att);
                        st.lost[def.side.index()].push(defender);
                        if def.kind == Kind::Flag {
                            st.flag_lost = Some(def.side);
                        }
                    }
                    Combat::DefenderWins => {
                        st.board[to as usize] = Some(defender);
                        st.lost[side.index()].push(att);
                    }
                    Combat::BothRemoved => {
                        key ^= self.piece_key(&def, to);
                        st.board[to as usize] = None;
                        st.lost[side.index()].push(att);
                        st.lost[def.side.index()].push(defender);
                    }
                }
            }
        }
        st.key = key;
        st.to_move = side.other();
        st.last_move = Some((from, to));
    }

    /// True when the side to move has a move that §1.1 allows and that the history rules
    /// (§1.4 two-squares, §1.5 more-squares) do not forbid: "a player to move who has no legal
    /// move (no movable piece, or every move blocked or forbidden by 1.4/1.5) loses".
    pub fn has_allowed_move(&self, st: &State) -> bool {
        let g = self.geometry();
        let side = st.to_move;
        let chase_binds = st.chase.binds(side);
        let mut allowed = |from: Square, to: Square| {
            let Some(p) = st.board[from as usize] else {
                return false;
            };
            if st.two_squares.forbids(&g, side, p.id, from, to) {
                return false;
            }
            if chase_binds {
                let (key, threatens) = self.consequences(st, from, to);
                if st.chase.forbids(side, p.id, to, &threatens, key) {
                    return false;
                }
            }
            true
        };
        // The piece the side moved last can usually move again: try it first, then the
        // board (the answer is the same in any order).
        let last = st.two_squares.run(side).map(|run| run.last.1);
        if last.is_some_and(|s| self.find_move_from(st, s, &mut allowed)) {
            return true;
        }
        self.find_move(st, allowed)
    }

    /// "Blue Major on e7": the piece with id `id`, if it is still on the board.
    pub fn describe_piece(&self, st: &State, id: u16) -> Option<String> {
        let g = self.geometry();
        st.board.iter().enumerate().find_map(|(s, p)| {
            p.filter(|p| p.id == id).map(|p| {
                format!(
                    "the {} {} on {}",
                    self.side_name(p.side),
                    p.kind.name(),
                    g.name(s as Square)
                )
            })
        })
    }

    /// Resolves combat between an attacking and a defending kind (rulings §1.1).
    pub fn combat(&self, attacker: Kind, defender: Kind) -> Combat {
        match defender {
            Kind::Flag => Combat::AttackerWins,
            Kind::Bomb => {
                if attacker == Kind::Miner {
                    Combat::AttackerWins
                } else {
                    Combat::DefenderWins
                }
            }
            _ if attacker == Kind::Spy && defender == self.ruleset.spy_target => {
                Combat::AttackerWins
            }
            _ => match attacker.strength().cmp(&defender.strength()) {
                std::cmp::Ordering::Greater => Combat::AttackerWins,
                std::cmp::Ordering::Less => Combat::DefenderWins,
                std::cmp::Ordering::Equal => Combat::BothRemoved,
            },
        }
    }

    fn side_word(&self, side: Side) -> &'static str {
        match side {
            Side::First => "red",
            Side::Second => "blue",
        }
    }

    fn side_name(&self, side: Side) -> &'static str {
        self.ruleset.game.side_names()[side.index()]
    }

    /// The `two-squares-rule` finding (rulings §1.4) for `piece` leaving `from`, with a label
    /// on every earlier move of the run.
    fn two_squares_finding(
        &self,
        st: &State,
        mv: &MoveRecord,
        number: u32,
        piece: Piece,
        from: Square,
        v: &two_squares::Violation,
    ) -> Finding {
        let limit = st.two_squares.limit;
        let mut f = Finding::new(
            Code::TwoSquaresRule,
            mv.text_span(),
            format!(
                "the {} on {} moves between the same two squares for the {} time in a row",
                piece.kind.name(),
                self.geometry().name(from),
                crate::types::nth(v.run.len as usize + 1)
            ),
            Rule::TwoSquares,
        )
        .at_ply(number)
        .label(format!("move {} of the run; the limit is {limit}", v.run.len + 1))
        .help(format!(
            "a piece may shuttle between two squares at most {limit} times in a row; {} had to move another piece or go elsewhere",
            self.side_name(st.to_move)
        ));
        for p in &v.plies {
            if let Some(sp) = st.ply_span(*p) {
                f = f.with_label(*sp, format!("ply {p}: part of the run"));
            }
        }
        f.with_evidence(v.plies.clone())
    }

    /// The `more-squares-rule` finding (rulings §1.5): the chased pieces still on the board,
    /// and a label on the position's first occurrence.
    fn chase_finding(
        &self,
        st: &State,
        mv: &MoveRecord,
        number: u32,
        v: &chase::Violation,
    ) -> Finding {
        let chased: Vec<String> = v
            .chased
            .iter()
            .filter_map(|id| self.describe_piece(st, *id))
            .collect();
        let chased = if chased.is_empty() {
            "the same pieces".to_string()
        } else {
            chased.join(" and ")
        };
        let mut f = Finding::new(
            Code::MoreSquaresRule,
            mv.text_span(),
            format!(
                "{} chases {chased} into a position that already occurred on ply {}",
                self.side_name(st.to_move),
                v.first_ply
            ),
            Rule::MoreSquares,
        )
        .at_ply(number)
        .label("this chasing move repeats a position of the chase")
        .help(format!(
            "the chaser must stop before a position repeats; going straight back to the square the chasing piece just left is allowed where the two-squares rule allows it. The chase began on ply {}",
            v.began
        ));
        if let Some(sp) = st.ply_span(v.first_ply) {
            f = f.with_label(
                *sp,
                format!("ply {}: the position first occurred here", v.first_ply),
            );
        }
        f.with_evidence(v.plies.clone())
    }
}

impl Rules for Stratego {
    type State = State;

    fn game(&self) -> GameId {
        self.ruleset.game
    }

    /// Two-squares limit 3 and the chase rule on (rulings §1.4, §1.5); Veldslag names Red as
    /// first to move (rulings §1.2).
    fn default_parameters(&self) -> Parameters {
        Parameters {
            two_squares: Some(TwoSquares::from_count(3)),
            more_squares: Some(true),
            first_move: (self.ruleset.game == GameId::Veldslag).then_some(Side::First),
            ..Parameters::default()
        }
    }

    crate::rules::claim_rules!();

    fn start(
        &self,
        record: &GameRecord,
        params: &Parameters,
        findings: &mut Vec<Finding>,
    ) -> Result<State, Vec<Finding>> {
        let start = match record.tag("Position") {
            Some(tag) => self.read_position(record, tag, params, findings)?,
            None => position::Start {
                board: self.read_setups(record)?,
                to_move: params.first_move.unwrap_or(Side::First),
                lost: [Vec::new(), Vec::new()],
                quiet_plies: 0,
            },
        };
        let mut st = State {
            board: start.board,
            to_move: start.to_move,
            key: 0,
            lost: start.lost,
            quiet_plies: start.quiet_plies,
            flag_lost: None,
            last_move: None,
            two_squares: two_squares::Tracker::new(params.two_squares.map_or(0, |t| t.count())),
            chase: Chase::new(params.more_squares.unwrap_or(false)),
            ply_spans: Vec::new(),
            start_ply: crate::rules::start_ply(record).unwrap_or(0),
        };
        st.key = self.full_key(&st);
        Ok(st)
    }

    fn key(&self, st: &State) -> u64 {
        st.key
    }

    fn view(&self, st: &State) -> crate::view::BoardView {
        self.board_view(st)
    }

    /// The position start of `st` (`Stratego::write_position`); none after a flag capture
    /// (a position needs both Flags).
    fn write_start(&self, st: &State) -> Option<crate::rules::StartText> {
        st.flag_lost.is_none().then(|| self.write_position(st))
    }

    /// Decode, legality (§1.1, then the combat annotation), the history rules (§1.4, §1.5:
    /// reported, the move still applied), apply.
    fn play(&self, st: &mut State, mv: &MoveRecord, number: u32) -> Result<Applied, Finding> {
        let nth = number - st.start_ply;
        coords::one_move_turn(mv, (number, nth), self.ruleset.source)?;
        let off = |from: bool| self.explain(st, mv, number, Illegal::OffBoard(from));
        let (from, to, capture_mark) =
            coords::read(&self.geometry(), mv, number, &UNREADABLE, off)?;
        let piece = self
            .check_move(st, from, to, capture_mark)
            .map_err(|why| self.explain(st, mv, number, why))?;
        let target = st.board[to as usize];
        let source = self.ruleset.source;
        annotation::check_combat(
            mv,
            number,
            piece.kind,
            target.map(|t| t.kind),
            source,
            "3:B",
        )?;
        let g = self.geometry();
        let side = st.to_move;
        let (key_after, threatens) = self.consequences(st, from, to);
        let mut findings = Vec::new();
        let two_squares = st.two_squares.check(&g, side, piece.id, from, to);
        if let Some(v) = &two_squares {
            findings.push(self.two_squares_finding(st, mv, number, piece, from, v));
        }
        let allows = two_squares.is_none();
        if let Some(v) = st
            .chase
            .check(side, piece.id, to, &threatens, key_after, allows)
        {
            findings.push(self.chase_finding(st, mv, number, &v));
        }
        let capture = target.is_some();
        // A position start may carry any count (NoCapture): it stops at the top.
        st.quiet_plies = if capture {
            0
        } else {
            st.quiet_plies.saturating_add(1)
        };
        if self.ruleset.game == GameId::Veldslag {
            let since = st.quiet_plies;
            findings.extend(crate::checks::no_capture::threshold(
                since,
                number,
                mv.span(),
            ));
        }
        self.apply(st, from, to);
        debug_assert_eq!(st.key, key_after);
        st.two_squares.record(&g, side, piece.id, from, to, number);
        st.chase.record(
            side, piece.id, from, to, &threatens, capture, st.key, number,
        );
        let span = mv.span();
        st.ply_spans.push(span);
        let info = PlyInfo {
            number,
            side,
            span,
            from,
            to,
            piece: piece.id,
            capture,
            key: st.key,
        };
        Ok(Applied { info, findings })
    }

    fn outcome(&self, st: &State, last: u32) -> Option<Outcome> {
        if let Some(loser) = st.flag_lost {
            return Some(Outcome {
                result: loser.other().wins(),
                reason: EndReason::FlagCaptured,
                ply: last,
            });
        }
        let side = st.to_move;
        if self.has_allowed_move(st) {
            return None;
        }
        if self.has_legal_move(st, side.other()) {
            Some(Outcome {
                result: side.other().wins(),
                reason: EndReason::NoLegalMove,
                ply: last,
            })
        } else {
            Some(Outcome {
                result: RecordedResult::Draw,
                reason: EndReason::NeitherCanMove,
                ply: last,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combat_table() {
        let e = Stratego::new(GameId::Stratego).unwrap();
        assert_eq!(e.combat(Kind::Marshal, Kind::General), Combat::AttackerWins);
        assert_eq!(e.combat(Kind::General, Kind::Marshal), Combat::DefenderWins);
        assert_eq!(e.combat(Kind::Major, Kind::Major), Combat::BothRemoved);
        assert_eq!(e.combat(Kind::Spy, Kind::Marshal), Combat::AttackerWins);
        assert_eq!(e.combat(Kind::Marshal, Kind::Spy), Combat::AttackerWins);
        assert_eq!(e.combat(Kind::Spy, Kind::General), Combat::DefenderWins);
        assert_eq!(e.combat(Kind::Miner, Kind::Bomb), Combat::AttackerWins);
        assert_eq!(e.combat(Kind::Marshal, Kind::Bomb), Combat::DefenderWins);
        assert_eq!(e.combat(Kind::Spy, Kind::Flag), Combat::AttackerWins);
        let v = Stratego::new(GameId::Veldslag).unwrap();
        assert_eq!(v.combat(Kind::Spy, Kind::General), Combat::AttackerWins);
        assert_eq!(v.combat(Kind::General, Kind::Spy), Combat::AttackerWins);
        assert_eq!(v.combat(Kind::Spy, Kind::Colonel), Combat::DefenderWins);
    }
}
