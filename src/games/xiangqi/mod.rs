//! The Xiangqi engine (rulings §4.1, seed 004): ICCS moves, every piece's movement with its
//! blocking rules, palace and river limits, the facing-Generals rule, no move that leaves the
//! own General attacked, and the end of the game by checkmate or stalemate (the side to move
//! loses either way). Repetition (rulings §4.3) is judged by a later check from the per-ply
//! position keys ([`PlyInfo::key`]).
//!
//! - [`position`]: the board, move generation, attack and check queries, Zobrist key, perft.
//! - [`fen`]: xqbase FEN, read from a `[FEN]` tag and written for reports.
//! - `random` (feature `testing`): seeded random legal games (the Fairy-Stockfish cross-check,
//!   property tests); `fsf` (feature `testing`): Fairy-Stockfish's reading of chases.
//!
//! Parameters: `NoCaptureLimit` (moves per side, rulings §4.2) is off (0) by default; when a
//! tag sets it, that many moves per side (2N plies) without a capture end the game as a draw
//! (`move-limit`), unless the ply that reaches the limit also mates or stalemates.
//!
//! Jieqi (rulings §4.2) is this engine with a layer for covered pieces ([`jieqi`],
//! [`Xiangqi::jieqi`]): Pikafish-Jieqi FEN, reveals, pools, hidden captures, and a default
//! `NoCaptureLimit` of 60 moves per side.
//!
//! Moves are ICCS coordinates (`h2e2`, `H2-E2`, `h2-e2`), WXF (`C2.5`) or Chinese notation
//! (`炮二平五`), as the `Format` tag says (`ICCS`, `WXF`, `Chinese`); without one each move is
//! read in the notation its text shows ([`notation`]).

mod claim;
pub mod fen;
#[cfg(feature = "testing")]
pub mod fsf;
pub mod jieqi;
pub mod notation;
pub mod points;
pub mod position;
#[cfg(feature = "testing")]
pub mod random;
pub mod reading;
pub mod repetition;
pub mod san;
mod undo;
mod view;

pub use position::{Illegal, Kind, Move, MoveList, Piece, Position, GEOMETRY, SQUARES};

use crate::finding::{Code, Finding};
use crate::geometry::Square;
use crate::record::{CoordMove, GameRecord, MoveRecord};
use crate::rulebook::Rule;
use crate::rules::{Applied, GameId, Outcome, Parameters, PlyInfo, RepetitionMode, Rules};
use crate::types::EndReason;
use crate::types::Side;
use crate::types::{RecordedResult, Span};

const MOVES_RULE: Rule = Rule::LogXiangqiMoves;

/// The Xiangqi rules engine, or with [`Xiangqi::jieqi`] the Jieqi one. Stateless apart from
/// that choice: everything about a game is in [`State`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Xiangqi {
    jieqi: bool,
}

/// How a game ended on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct End {
    result: RecordedResult,
    reason: EndReason,
}

impl End {
    /// The outcome after ply `last`.
    fn at(self, last: u32) -> Outcome {
        Outcome {
            result: self.result,
            reason: self.reason,
            ply: last,
        }
    }
}

/// A game between plies.
#[derive(Debug, Clone)]
pub struct State {
    /// The position.
    pub position: Position,
    /// Which piece stands on each point: a number fixed for the whole game (the order of the
    /// start position's points), `u8::MAX` on an empty point.
    ids: [u8; SQUARES],
    /// Plies since the last capture (starts at the FEN's halfmove field).
    pub quiet_plies: u32,
    /// The move number (starts at the FEN's fullmove field; grows after Black's move).
    pub fullmove: u32,
    /// Pieces each side has lost, in the order lost (index: [`Side::index`]), each with its
    /// number (the order of the start position's points).
    pub lost: [Vec<(Piece, u8)>; 2],
    /// The no-capture limit in plies (0: none).
    limit_plies: u32,
    /// The same limit in moves per side, as the parameter gives it.
    limit_moves: u32,
    /// How the moves are read: the `Format` tag's notation, or the game's dialect.
    reading: reading::Reading,
    /// The plies since the last capture and where their positions occurred (rulings §4.3).
    pub history: repetition::History,
    /// `Repetition "claim"`: a third occurrence is reported and play goes on; otherwise
    /// (`ends`, the default) it ends the game.
    repetition_claim: bool,
    end: Option<End>,
    /// Whether `end` took the search for a legal move into account (checkmate, stalemate):
    /// after a ply the search waits until the outcome is asked ([`Rules::outcome`]) or a
    /// repetition or the move limit needs it.
    searched: bool,
    /// Whether the side to move is in check in [`State::position`] (computed once a ply).
    in_check: bool,
    /// Per side ([`Side::index`]): the legal move last found for it when looking for
    /// checkmate and stalemate, tried first the next time.
    witness: [Option<Move>; 2],
    /// Jieqi only: pools, shuffle and what was captured covered.
    pub jieqi: Option<jieqi::Layer>,
    /// What each ply played with [`Rules::play_undoable`] changed, for [`Rules::undo`].
    trail: Vec<undo::Saved>,
}

impl State {
    /// The current position as a FEN: xqbase for Xiangqi, Pikafish-Jieqi (covered pieces and
    /// pools) for Jieqi.
    pub fn fen(&self) -> String {
        match &self.jieqi {
            Some(layer) => {
                fen::write_jieqi(&self.position, &layer.pool, self.quiet_plies, self.fullmove)
            }
            None => self.position.fen(self.quiet_plies, self.fullmove),
        }
    }
}

/// `Red` or `Black`: the registry's side names of Xiangqi (and Jieqi).
pub(crate) fn side_name(side: Side) -> &'static str {
    GameId::Xiangqi.side_names()[side.index()]
}

fn name(sq: u8) -> String {
    GEOMETRY.name(sq)
}

impl Xiangqi {
    /// Reads ply `number` into a move on the board (both points on it, from the mover's own
    /// piece to another point not holding its own side's) and, for Jieqi, its reveal and
    /// capture notes. `Err`: `parse-error` for a move that cannot be read, `illegal-move`
    /// otherwise.
    fn decode(
        &self,
        st: &State,
        mv: &MoveRecord,
        number: u32,
    ) -> Result<(Move, jieqi::Notes), Finding> {
        let notes = self.turn_and_notes(st, mv, number)?;
        // The common case: `h2e2` from a piece of the side to move to a point it does not
        // hold ([`Xiangqi::mover_faults`] finds nothing then).
        let pos = &st.position;
        let own = |sq: Square| pos.piece(sq).is_some_and(|p| p.side() == pos.to_move());
        if let Some(m) = reading::plain_move(mv, &st.reading) {
            if m.from != m.to && own(m.from) && !own(m.to) {
                return Ok((m, notes));
            }
        }
        let c = reading::read(&st.position, mv, &st.reading, number)?;
        let (from, to) = self.points(&c, number)?;
        self.mover_faults(&st.position, &c, (from, to), mv, number)?;
        Ok((Move { from, to }, notes))
    }

    /// The move stands alone in its turn, and its annotation is Jieqi's reveal notes (none in
    /// Xiangqi): `parse-error` otherwise.
    fn turn_and_notes(
        &self,
        st: &State,
        mv: &MoveRecord,
        number: u32,
    ) -> Result<jieqi::Notes, Finding> {
        if mv.turn() as u32 + 1 != number - st.history.start_ply() {
            return Err(Finding::new(
                Code::ParseError,
                mv.span(),
                "two moves in one turn",
                MOVES_RULE,
            )
            .at_ply(number)
            .label("joined to the previous move by a comma")
            .help("xiangqi plays one move a turn; separate the moves with a space"));
        }
        if self.jieqi {
            return jieqi::read_notes(mv, number);
        }
        if let Some(a) = mv.annotation() {
            return Err(Finding::new(
                Code::ParseError,
                a.span,
                "xiangqi moves take no annotation",
                MOVES_RULE,
            )
            .at_ply(number)
            .label("unexpected annotation")
            .help("write the move alone, e.g. h2e2; comments go in {braces}"));
        }
        Ok(jieqi::Notes::default())
    }

    /// The from- and to-points of the coordinates `c` (ranks from 0), or the `illegal-move`
    /// for a point off the board (rulings §4.1).
    fn points(&self, c: &CoordMove, number: u32) -> Result<(Square, Square), Finding> {
        let off_board = |span: Span, which: &str| {
            self.illegal(
                span,
                number,
                format!("{which}-point is off the board"),
                "not a point",
                Rule::XiangqiPoints,
            )
            .help("the board has files a-i and ranks 0-9 (ICCS: rank 0 is Red's back rank)")
        };
        let Some(from) = GEOMETRY.square_written(c.from.0, c.from.1) else {
            return Err(off_board(c.from_span, "from"));
        };
        let Some(to) = GEOMETRY.square_written(c.to.0, c.to.1) else {
            return Err(off_board(c.to_span, "to"));
        };
        Ok((from, to))
    }

    /// What is wrong with moving from `from` to `to` in `pos` before the piece's movement is
    /// asked (rulings §4.1): no piece there, the opponent's piece, no change of point, the
    /// mover's own piece on the to-point, a capture mark on an empty point.
    fn mover_faults(
        &self,
        pos: &Position,
        c: &CoordMove,
        (from, to): (Square, Square),
        mv: &MoveRecord,
        number: u32,
    ) -> Result<(), Finding> {
        let who = || side_name(pos.to_move());
        let target = pos.piece(to);
        match pos.piece(from) {
            None => Err(self
                .illegal(
                    c.from_span,
                    number,
                    format!("no piece on {}", name(from)),
                    "empty point",
                    Rule::XiangqiEmptyPoint,
                )
                .help(format!(
                    "it is {}'s move; the move must start on one of {}'s pieces",
                    who(),
                    who()
                ))),
            Some(piece) if piece.side() != pos.to_move() => Err(self
                .illegal(
                    c.from_span,
                    number,
                    format!(
                        "{} holds a {} piece but it is {}'s move",
                        name(from),
                        side_name(piece.side()),
                        who()
                    ),
                    "opponent's piece",
                    Rule::XiangqiTurns,
                )
                .help("the sides move in turn, Red first unless a FEN says otherwise")),
            Some(_) if from == to => Err(self.illegal(
                mv.text_span(),
                number,
                "a move must change point".into(),
                "same point",
                Rule::XiangqiMovement,
            )),
            Some(_) if target.is_some_and(|t| t.side() == pos.to_move()) => Err(self
                .illegal(
                    c.to_span,
                    number,
                    format!("{} holds {}'s own piece", name(to), who()),
                    "own piece",
                    Rule::XiangqiOwnPiece,
                )
                .help("a piece never captures its own side's pieces")),
            Some(_) if c.capture_mark && target.is_none() => Err(self
                .illegal(
                    c.to_span,
                    number,
                    format!("marked as a capture but {} is empty", name(to)),
                    "nothing to capture",
                    Rule::XiangqiCaptureMark,
                )
                .help(format!(
                    "write {}{} for a move to an empty point",
                    name(from),
                    name(to)
                ))),
            Some(_) => Ok(()),
        }
    }

    /// Whether the mover's piece may make `m` (a move of its own piece to another point, not
    /// onto its own side): allowed by its movement, the palace and river and the check rules
    /// (rulings §4.1).
    fn legality(&self, st: &State, m: Move, mv: &MoveRecord, number: u32) -> Result<(), Finding> {
        let pos = &st.position;
        let Err(why) = pos.diagnose_given(m, st.in_check) else {
            return Ok(());
        };
        let covered_shape = pos.piece(m.from).is_some_and(|p| p.is_covered())
            && !matches!(
                why,
                Illegal::FacingGenerals | Illegal::LeavesGeneralAttacked { .. }
            );
        let mut f = self.explain(pos, m, why, mv.text_span(), number);
        if covered_shape {
            // The piece's shape is its start point's: say so when the shape is the fault.
            let kind = pos.moves_as(m.from).or(pos.piece(m.from).map(|p| p.kind()));
            f.message = format!(
                "{} (a covered piece moves as the {} of its start point)",
                f.message,
                kind.map_or("piece", |k| k.name())
            );
        }
        Err(f)
    }

    /// Makes the legal move `m` with what the Jieqi layer settled: board, identities, lost
    /// pieces, counters. Returns the moving piece's identity and whether it captured.
    fn apply(&self, st: &mut State, m: Move, settled: Option<jieqi::Settled>) -> (u8, bool) {
        let side = st.position.to_move();
        let captured = st.position.make(m);
        if let (Some(layer), Some(s)) = (&mut st.jieqi, settled) {
            layer.apply(&mut st.position, m.to, s, captured);
        }
        let taken = st.ids[m.to as usize];
        let id = st.ids[m.from as usize];
        st.ids[m.to as usize] = id;
        st.ids[m.from as usize] = u8::MAX;
        if let Some(c) = captured {
            let lost = &mut st.lost[c.side().index()];
            if lost.capacity() == 0 {
                // A side has 16 pieces: one allocation, not a growth at the 1st, 5th and 9th.
                lost.reserve_exact(16);
            }
            lost.push((c, taken));
            st.quiet_plies = 0;
        } else {
            st.quiet_plies = st.quiet_plies.saturating_add(1);
        }
        if side == Side::Second {
            st.fullmove = st.fullmove.saturating_add(1);
        }
        (id, captured.is_some())
    }

    /// After a move: check, mate or stalemate, a third occurrence (rulings §4.3: it ends the
    /// game before the no-capture limit is looked at, being the more specific rule; a
    /// perpetual loses), then the no-capture limit (§4.2). Returns the findings of the ply.
    fn after_move(&self, st: &mut State, m: Move, span: Span, number: u32) -> Vec<Finding> {
        let mut findings = Vec::new();
        // Only what `m` changed can give check (the side now to move was not in check).
        st.in_check = st.position.is_check_after(m);
        debug_assert_eq!(st.in_check, st.position.is_check(), "check after {m:?}");
        let repeat = st.history.push(number, m, span, &st.position);
        let at_limit = st.limit_plies > 0 && st.quiet_plies >= st.limit_plies;
        // Checkmate and stalemate come first; the search waits for a rule that needs it.
        st.searched = repeat.is_some() || at_limit;
        st.end = if st.searched {
            self.mate_or_stalemate(&st.position, st.in_check, &mut st.witness)
        } else {
            None
        };
        if let (None, Some(rep)) = (st.end, repeat) {
            findings.push(rep.finding(&st.history, span, st.repetition_claim));
            if !st.repetition_claim {
                let v = rep.outcome();
                st.end = Some(End {
                    result: v.result,
                    reason: v.reason,
                });
            }
        }
        if st.end.is_none() && at_limit {
            findings.push(self.limit_finding(st, span, number));
            st.end = Some(End {
                result: RecordedResult::Draw,
                reason: EndReason::MoveLimit,
            });
        }
        findings
    }
    /// The Xiangqi engine.
    pub fn new() -> Xiangqi {
        Xiangqi { jieqi: false }
    }

    /// The Jieqi engine (rulings §4.2): covered pieces, reveals and the 60-move limit.
    pub fn jieqi() -> Xiangqi {
        Xiangqi { jieqi: true }
    }

    /// Reads the `Format` tag: `ICCS`, `WXF` or `Chinese` (any case), `None` when absent;
    /// anything else is the returned `parse-error`.
    fn check_format(&self, record: &GameRecord) -> Result<Option<notation::Notation>, Finding> {
        let Some(tag) = record.tag("Format") else {
            return Ok(None);
        };
        let v = tag.value.value.trim();
        if self.jieqi {
            return match notation::Notation::parse(v) {
                Some(notation::Notation::Iccs) => Ok(Some(notation::Notation::Iccs)),
                _ => Err(Finding::new(
                    Code::ParseError,
                    tag.value.span,
                    format!("jieqi moves are not written in `{v}`"),
                    MOVES_RULE,
                )
                .label("expected ICCS")
                .help("Jieqi records are ICCS coordinates (h2e2) with the reveals in parentheses; remove the Format tag or write ICCS")),
            };
        }
        notation::Notation::parse(v).map(Some).ok_or_else(|| {
            Finding::new(
                Code::ParseError,
                tag.value.span,
                format!("move notation `{v}` is not known"),
                MOVES_RULE,
            )
            .label("expected ICCS, WXF or Chinese")
            .help("arbiter reads ICCS coordinates (h2e2), WXF (C2.5) and Chinese notation (炮二平五); without a Format tag each move is read as its text shows")
        })
    }

    /// How the game's moves are read: ICCS for Jieqi, the `Format` tag's notation, or without
    /// one the dialect its moves show ([`san::decide`]); a rank base neither the ranks written
    /// nor a replay decide is a `record-defect` warning in `findings`.
    fn reading(
        &self,
        record: &GameRecord,
        format: Option<notation::Notation>,
        start: &Position,
        findings: &mut Vec<Finding>,
    ) -> reading::Reading {
        if self.jieqi || format.is_some() {
            return reading::Reading {
                format: format.or(Some(notation::Notation::Iccs)),
                ..Default::default()
            };
        }
        // arbiter's log (a Game tag) and an importer's record write coordinates in ICCS.
        let native = record.tag("Game").is_some() || record.implied_game.is_some();
        let dialect = san::decide(start, &record.moves, native);
        if let san::Decided::Undecided(plies) = dialect.decided {
            findings.push(undecided_ranks(record, plies));
        }
        reading::Reading {
            format: None,
            dialect,
        }
    }

    /// Reads the `[FEN]` tag (xqbase, or Pikafish-Jieqi for Jieqi), or the standard start.
    fn read_fen(&self, record: &GameRecord) -> Result<fen::Fen, Vec<Finding>> {
        let parse = if self.jieqi {
            fen::parse_jieqi
        } else {
            fen::parse
        };
        let Some(tag) = record.tag("FEN") else {
            // The standard starts, read once per process.
            static STARTS: std::sync::OnceLock<[fen::Fen; 2]> = std::sync::OnceLock::new();
            let [xiangqi, jieqi] = STARTS.get_or_init(|| {
                // Both constants read (unit tests in fen.rs); the fallback only keeps this
                // path free of a panic.
                let read = |r: Result<fen::Fen, _>| {
                    r.unwrap_or(fen::Fen {
                        position: Position::start(),
                        halfmove: 0,
                        fullmove: 1,
                        pool: [[0; 7]; 2],
                    })
                };
                [
                    read(fen::parse(fen::START)),
                    read(fen::parse_jieqi(fen::JIEQI_START)),
                ]
            });
            return Ok(if self.jieqi { jieqi } else { xiangqi }.clone());
        };
        let text = &tag.value.value;
        // Map FEN bytes to log bytes when the value was not unescaped (the usual case).
        let exact = text.len() == tag.value.span.len();
        let rule = if self.jieqi {
            Rule::JieqiFen
        } else {
            Rule::XqbaseFen
        };
        parse(text).map_err(|errors| {
            errors
                .into_iter()
                .map(|e| {
                    let span = if exact {
                        Span::new(
                            tag.value.span.start + e.range.start,
                            tag.value.span.start + e.range.end.max(e.range.start),
                        )
                    } else {
                        tag.value.span
                    };
                    Finding::new(Code::SetupInvalid, span, e.message, rule)
                        .label(e.label)
                        .help(e.help)
                })
                .collect()
        })
    }

    /// The end the position shows: the side to move without a legal move loses (checkmate
    /// when in check, else stalemate; rulings §4.1).
    ///
    /// `in_check` is [`Position::is_check`] of `pos`, which the caller keeps for the next
    /// ply's legality test ([`State::in_check`]).
    ///
    /// `witness` holds, per side, the legal move found last time for that side: tried first,
    /// and replaced by the one found.
    fn mate_or_stalemate(
        &self,
        pos: &Position,
        in_check: bool,
        witness: &mut [Option<Move>; 2],
    ) -> Option<End> {
        let slot = &mut witness[pos.to_move().index()];
        *slot = pos.a_legal_move_given(in_check, *slot);
        if slot.is_some() {
            return None;
        }
        Some(End {
            result: pos.to_move().other().wins(),
            reason: if in_check {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            },
        })
    }

    fn illegal(
        &self,
        span: Span,
        number: u32,
        message: String,
        label: &str,
        rule: Rule,
    ) -> Finding {
        Finding::new(Code::IllegalMove, span, message, rule)
            .at_ply(number)
            .label(label.to_string())
    }

    /// Turns a [`Illegal`] into the finding for move `m` written at `span`.
    fn explain(&self, pos: &Position, m: Move, why: Illegal, span: Span, number: u32) -> Finding {
        let side = pos.to_move();
        let who = side_name(side);
        let (from, to) = (name(m.from), name(m.to));
        let kind = pos.moves_as(m.from).unwrap_or(Kind::General);
        let piece = kind.name();
        let f = |msg: String, label: &str, rule: Rule, help: &str| {
            self.illegal(span, number, msg, label, rule)
                .help(help.to_string())
        };
        match why {
            Illegal::Shape(k) => f(
                format!("{} cannot move from {from} to {to}", k.a()),
                &format!("not {} move", k.a().to_lowercase()),
                Rule::XiangqiMovement,
                shape_help(k),
            ),
            Illegal::OutOfPalace(k) => f(
                format!("the {} on {from} cannot leave the palace", k.name()),
                &format!("{to} is outside {who}'s palace"),
                Rule::XiangqiPalace,
                "the palace is files d-f of ranks 0-2 for Red and ranks 7-9 for Black",
            ),
            Illegal::AcrossRiver => f(
                format!("the Elephant on {from} cannot cross the river to {to}"),
                "across the river",
                Rule::XiangqiRiver,
                "Red's Elephants stay on ranks 0-4, Black's on ranks 5-9",
            ),
            Illegal::EyeBlocked(eye) => f(
                format!("the Elephant on {from} is blocked: its eye {} is occupied", name(eye)),
                &format!("eye {} blocked", name(eye)),
                Rule::XiangqiEye,
                "an Elephant cannot move when the point between its from- and to-point holds a piece",
            ),
            Illegal::LegBlocked(leg) => f(
                format!("the Horse on {from} is blocked: its leg {} is occupied", name(leg)),
                &format!("leg {} blocked", name(leg)),
                Rule::XiangqiLeg,
                "a Horse cannot move when the point next to it, in the direction it moves two points, holds a piece",
            ),
            Illegal::PathBlocked(s) => f(
                format!("the {piece} on {from} cannot pass the piece on {}", name(s)),
                &format!("{} is in the way", name(s)),
                if kind == Kind::Cannon {
                    Rule::XiangqiCannonPath
                } else {
                    Rule::XiangqiChariotPath
                },
                "the points between the from- and the to-point must be empty",
            ),
            Illegal::Screens {
                count,
                first,
                second,
            } => f(
                screens_message(&from, &to, count, [first, second]),
                &match count {
                    0 => "no screen between".to_string(),
                    n => format!("{n} screens between"),
                },
                Rule::XiangqiScreen,
                "a Cannon captures by jumping over exactly one piece (of either side) on its line",
            ),
            Illegal::SoldierSideways => f(
                format!("the Soldier on {from} cannot move sideways before crossing the river"),
                "sideways move on its own side",
                Rule::XiangqiSoldierSideways,
                "a Soldier moves one point forward; once across the river it may also move one point sideways",
            ),
            Illegal::SoldierBackward => f(
                format!("the Soldier on {from} cannot move backwards"),
                "backwards",
                Rule::XiangqiSoldierBackward,
                "a Soldier moves one point forward, or sideways after crossing the river",
            ),
            Illegal::FacingGenerals | Illegal::LeavesGeneralAttacked { .. } => {
                self.explain_check(pos, m, why, span, number)
            }
        }
    }

    /// [`Xiangqi::explain`] for a move the check rules forbid: facing Generals, or the own
    /// General left attacked.
    fn explain_check(
        &self,
        pos: &Position,
        m: Move,
        why: Illegal,
        span: Span,
        number: u32,
    ) -> Finding {
        let side = pos.to_move();
        let who = side_name(side);
        let (from, to) = (name(m.from), name(m.to));
        let f = |msg: String, label: &str, help: &str| {
            self.illegal(span, number, msg, label, Rule::XiangqiCheck)
                .help(help.to_string())
        };
        match why {
            Illegal::LeavesGeneralAttacked {
                attacker,
                was_in_check,
            } => {
                let by = pos.moves_as(attacker).map_or("piece", |k| k.name());
                if was_in_check {
                    f(
                        format!("{who}'s General stays in check from the {by} on {}", name(attacker)),
                        "does not answer the check",
                        "a General in check must be moved to safety, shielded, or the checking piece captured",
                    )
                } else {
                    f(
                        format!(
                            "{from}{to} puts {who}'s own General in check from the {by} on {}",
                            name(attacker)
                        ),
                        &format!("leaves {who}'s General attacked"),
                        "a move may never leave the mover's General attacked",
                    )
                }
            }
            _ => {
                let kind = pos.moves_as(m.from).unwrap_or(Kind::General);
                let general_after = match pos.general(side) {
                    Some(g) if kind != Kind::General => g,
                    _ => m.to,
                };
                self.illegal(
                    span,
                    number,
                    format!(
                        "after {from}{to} the Generals would face each other on file {}",
                        (b'a' + GEOMETRY.file(general_after)) as char
                    ),
                    "the Generals would face each other",
                    Rule::XiangqiFacing,
                )
                .help("keep a piece between the Generals, or keep them on different files")
            }
        }
    }
}

/// How a piece of `kind` moves, for the help line of a move of the wrong shape (rulings §4.1).
fn shape_help(kind: Kind) -> &'static str {
    match kind {
        Kind::General => "a General moves one point orthogonally inside its palace",
        Kind::Advisor => "an Advisor moves one point diagonally inside its palace",
        Kind::Elephant => "an Elephant moves exactly two points diagonally",
        Kind::Horse => "a Horse moves one point orthogonally, then one point diagonally outward",
        Kind::Chariot => "a Chariot moves any distance along its file or rank",
        Kind::Cannon => "a Cannon moves along its file or rank",
        Kind::Soldier => "a Soldier moves one point forward, or sideways after crossing the river",
    }
}

/// The message of a Cannon capture over `count` screens, naming the first two.
fn screens_message(
    from: &str,
    to: &str,
    count: u8,
    screens: [Option<crate::geometry::Square>; 2],
) -> String {
    if count == 0 {
        return format!("the Cannon on {from} cannot capture on {to} without a screen");
    }
    let mut list: Vec<String> = screens.iter().flatten().map(|&s| name(s)).collect();
    if count > 2 {
        list.push("...".into());
    }
    format!(
        "the Cannon on {from} cannot capture on {to} over {count} screens ({})",
        list.join(", ")
    )
}

impl Rules for Xiangqi {
    type State = State;

    /// Xiangqi's moves in ICCS, WXF or Chinese notation (docs/xiangqi.md); Jieqi has only its
    /// own coordinates.
    fn rewrite(
        &self,
        record: &GameRecord,
        params: &Parameters,
        notation: &str,
    ) -> Option<Result<crate::rules::Rewritten, Finding>> {
        let to = notation::Notation::parse(notation).filter(|_| !self.jieqi)?;
        Some(notation::rewrite(record, params, to).map(|moves| (moves, to.as_str())))
    }

    fn game(&self) -> GameId {
        if self.jieqi {
            GameId::Jieqi
        } else {
            GameId::Xiangqi
        }
    }

    /// Xiangqi's parameters: `NoCaptureLimit`, 0 (no limit) by default (rulings §4.2:
    /// "plain xiangqi has no limit unless a NoCaptureLimit tag sets one"), and `Repetition`,
    /// `ends` by default (rulings §4.3: the third occurrence ends the game; `claim` reports it
    /// and plays on, as tournament archives are played).
    ///
    /// Jieqi's `NoCaptureLimit` is 60 by default (rulings §4.2: 60 moves per side).
    fn default_parameters(&self) -> Parameters {
        Parameters {
            no_capture_limit: Some(if self.jieqi { 60 } else { 0 }),
            repetition: Some(RepetitionMode::Ends),
            ..Parameters::default()
        }
    }

    fn start(
        &self,
        record: &GameRecord,
        params: &Parameters,
        findings: &mut Vec<Finding>,
    ) -> Result<State, Vec<Finding>> {
        let notation = self.check_format(record).map_err(|f| vec![f])?;
        if !self.jieqi && !record.setups.is_empty() {
            return Err(record
                .setups
                .iter()
                .map(|b| {
                    Finding::new(
                        Code::SetupInvalid,
                        b.span,
                        "a setup section in a Xiangqi game",
                        Rule::LogXiangqiPosition,
                    )
                    .label("Xiangqi has no setup sections")
                    .help("Xiangqi starts from the standard position; give any other with [FEN \"...\"]")
                })
                .collect());
        }
        let mut fen = self.read_fen(record)?;
        let reading = self.reading(record, notation, &fen.position, findings);
        let layer = if self.jieqi {
            fen.position.set_free_diagonals(true);
            let shuffle = jieqi::read_shuffle(record, &mut fen.position, &fen.pool)?;
            Some(jieqi::Layer::new(fen.pool, shuffle))
        } else {
            None
        };
        let mut ids = [u8::MAX; SQUARES];
        let mut next = 0u8;
        for (sq, id) in ids.iter_mut().enumerate() {
            if fen.position.piece(sq as u8).is_some() {
                *id = next;
                next += 1;
            }
        }
        let start_span = record
            .tag("FEN")
            .map_or(Span::new(record.span.start, record.span.start), |t| {
                t.value.span
            });
        let mut st = State {
            position: fen.position,
            history: repetition::History::new_at(
                fen.position,
                start_span,
                crate::rules::start_ply(record).unwrap_or(0),
            ),
            repetition_claim: params.repetition == Some(RepetitionMode::Claim),
            ids,
            quiet_plies: fen.halfmove,
            fullmove: fen.fullmove.max(1),
            lost: [Vec::new(), Vec::new()],
            limit_plies: params.no_capture_limit.unwrap_or(0).saturating_mul(2),
            limit_moves: params.no_capture_limit.unwrap_or(0),
            end: None,
            searched: true,
            in_check: false,
            witness: [None; 2],
            reading,
            jieqi: layer,
            trail: Vec::new(),
        };
        st.in_check = st.position.is_check();
        st.end = self.mate_or_stalemate(&st.position, st.in_check, &mut st.witness);
        if st.end.is_none() && st.limit_plies > 0 && st.quiet_plies >= st.limit_plies {
            findings.push(self.limit_finding(&st, start_span, 0));
            st.end = Some(End {
                result: RecordedResult::Draw,
                reason: EndReason::MoveLimit,
            });
        }
        Ok(st)
    }

    fn key(&self, st: &State) -> u64 {
        st.position.key()
    }

    fn view(&self, st: &State) -> crate::view::BoardView {
        self.board_view(st)
    }

    /// The position as a `FEN` tag (no-capture count and move number included); the positions
    /// since the last capture, which the repetition rule compares, are not carried (a note
    /// says so when there were any).
    fn write_start(&self, st: &State) -> Option<crate::rules::StartText> {
        let mut notes = Vec::new();
        let n = st.history.stretch_plies();
        if n > 0 {
            let plies = if n == 1 {
                "ply since the last capture (or the start) is".to_string()
            } else {
                format!("{n} plies since the last capture (or the start) are")
            };
            notes.push(format!(
                "the {plies} not carried: a repetition counts occurrences from this start"
            ));
        }
        let setups = match &st.jieqi {
            Some(layer) if layer.shuffle => jieqi::shuffle_rows(&st.position),
            _ => Vec::new(),
        };
        Some(crate::rules::StartText {
            tags: vec![("FEN".into(), st.fen())],
            setups,
            notes,
        })
    }

    crate::rules::claim_rules!();

    fn play(&self, st: &mut State, mv: &MoveRecord, number: u32) -> Result<Applied, Finding> {
        let side = st.position.to_move();
        let (m, notes) = self.decode(st, mv, number)?;
        self.legality(st, m, mv, number)?;
        let settled = match &st.jieqi {
            Some(layer) => Some(layer.settle(&st.position, m.from, m.to, mv, notes, number)?),
            None => None,
        };
        let (id, captured) = self.apply(st, m, settled);
        let findings = self.after_move(st, m, mv.span(), number);
        Ok(Applied {
            info: PlyInfo {
                number,
                side,
                span: mv.span(),
                from: m.from,
                to: m.to,
                piece: id as u16,
                capture: captured,
                key: st.position.key(),
            },
            findings,
        })
    }

    fn can_undo(&self) -> bool {
        true
    }

    fn play_undoable(
        &self,
        st: &mut State,
        mv: &MoveRecord,
        number: u32,
    ) -> Result<Applied, Finding> {
        let saved = undo::Saved::of(st);
        st.history.set_journaling(true);
        let played = self.play(st, mv, number);
        st.history.set_journaling(false);
        if played.is_ok() {
            st.trail.push(saved);
        }
        played
    }

    fn undo(&self, st: &mut State) {
        if let Some(saved) = st.trail.pop() {
            saved.restore(st);
            st.history.undo();
        }
    }

    fn outcome(&self, st: &State, last: u32) -> Option<Outcome> {
        let end = match st.end {
            None if !st.searched => {
                self.mate_or_stalemate(&st.position, st.in_check, &mut st.witness.clone())
            }
            end => end,
        };
        end.map(|e| e.at(last))
    }

    fn settled_outcome(&self, st: &State, last: u32) -> Option<Outcome> {
        st.end.map(|e| e.at(last))
    }
}

impl Xiangqi {
    fn limit_finding(&self, st: &State, span: Span, number: u32) -> Finding {
        let n = st.limit_moves;
        let f = Finding::new(
            Code::MoveLimit,
            span,
            format!(
                "{n} {} per side without a capture: the game is drawn",
                if n == 1 { "move" } else { "moves" }
            ),
            Rule::NoCaptureLimit,
        )
        .label(format!("{} plies without a capture", st.quiet_plies))
        .help("a checkmate or stalemate on this ply would have taken precedence");
        if number > 0 {
            f.at_ply(number)
        } else {
            f
        }
    }
}

/// The `record-defect` warning for a game whose ranks could count from 0 or from 1: both
/// readings replay `plies` plies.
fn undecided_ranks(record: &GameRecord, plies: u32) -> Finding {
    let at = record
        .moves
        .first()
        .map_or(Span::new(record.span.start, record.span.start), |m| {
            m.text_span()
        });
    Finding::new(
        Code::RecordDefect,
        at,
        "the moves do not show whether ranks count from 0 or from 1: read from 0",
        Rule::XiangqiSan,
    )
    .label(format!(
        "no move writes rank 0 or 10, and both readings replay {plies} {}",
        if plies == 1 { "ply" } else { "plies" }
    ))
    .help("ranks 0-9 are ICCS and WinBoard's, 1-10 UCI and pychess's; add [Format \"ICCS\"] to say ranks count from 0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_start_depth_3() {
        // Published xiangqi perft from the start position (e.g. Fairy-Stockfish, ElephantEye).
        let p = Position::start();
        assert_eq!(p.perft(1), 44);
        assert_eq!(p.perft(2), 1920);
        assert_eq!(p.perft(3), 79666);
    }

    #[test]
    fn state_prints_its_fen() {
        let text = "[Game \"xiangqi\"]\n1. h2e2 h9g7 2. h0g2 *";
        let rec = &crate::record::parse::parse_log(text)[0];
        let engine = Xiangqi::new();
        let params = engine.default_parameters();
        let mut st = engine.start(rec, &params, &mut Vec::new()).unwrap();
        assert_eq!(st.fen(), fen::START);
        for (i, mv) in rec.moves.iter().enumerate() {
            engine.play(&mut st, mv, i as u32 + 1).unwrap();
        }
        assert_eq!(
            st.fen(),
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
        );
    }

    #[test]
    #[ignore = "slow in debug builds; run with --ignored --release"]
    fn perft_start_depth_4() {
        assert_eq!(Position::start().perft(4), 3_290_240);
    }
}
