//! Repetition in Xiangqi and Jieqi (rulings §4.3, seed 004): occurrence counting over the
//! replay, and the verdict on the window of a third occurrence (perpetual check, perpetual
//! chase, or a draw by repetition).
//!
//! **Occurrences.** A position is the placement of every piece (covered pieces included) and
//! the side to move: [`Position::key`]. A capture can never be undone, so no position before
//! it can occur again: the memory ([`History`]) holds only the plies since the last capture
//! (the *stretch*), and its size is linear in that stretch.
//!
//! **The window** of a third occurrence after ply `c` of a position first seen after ply `a`
//! is the plies `a+1 ..= c` (rulings §4.3: "every ply from the position's first occurrence up
//! to its third occurrence"); each side has made the same number of moves in it.
//!
//! - A side checks perpetually when every one of its moves in the window gives check. Exactly
//!   one such side loses (`perpetual-check`); both: a draw.
//! - Otherwise a side chases perpetually when every one of its moves in the window newly
//!   attacks one and the same enemy piece in the sense of [`chased`] (the piece is followed
//!   as it moves). Exactly one such side loses (`perpetual-chase`); both: a draw.
//! - Otherwise: a draw by repetition.
//!
//! The verdict is computed only when a third occurrence happens, over the window alone:
//! replaying is linear in the game's length, and judging a window is linear in its length.

pub use super::points::Points;
use super::points::{bit, points};
use super::position::{own_half, Kind, Move, MoveList, Piece, Position, GEOMETRY};
use super::side_name;
use crate::geometry::KeyMap;
use crate::geometry::Square;
use crate::rulebook::Rule;
use crate::types::EndReason;
use crate::types::Side;
use crate::types::Span;
/// Which reading of the chasing rules to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// rulings §4.3, as arbiter judges.
    Rulings,
    /// Fairy-Stockfish's, for the cross-check only ([`super::fsf`]): its `chased()`, and
    /// for the side that completes the third occurrence a window that also holds the move
    /// that produced the first.
    #[cfg(feature = "testing")]
    FairyStockfish,
}

/// The plies since the last capture, and where each of their positions occurred.
///
/// Index `i` of the vectors is the stretch's `i`-th position: 0 is the position the stretch
/// started from (the start of the game, or the position after the last capture), `i` the
/// position after the stretch's `i`-th ply. Ply numbers are the game's (1-based).
#[derive(Debug, Clone, Default)]
pub struct History {
    /// The game's ply number of the stretch's position 0 (0: the start of the game).
    base: u32,
    positions: Vec<Position>,
    /// The move of ply `base + i` is `moves[i - 1]`, its log bytes `spans[i - 1]`.
    moves: Vec<Move>,
    spans: Vec<Span>,
    /// Position key -> how often it stood on the board within the stretch, and after which
    /// plies the last three times (no allocation per position).
    occurrences: KeyMap<Seen>,
    /// The last ply a third occurrence was reported at (see [`History::push`]).
    reported: Option<u32>,
    /// What labels point at for the start position (the `FEN` tag, else the record's start).
    start_span: Span,
    /// The ply after which the start position stands (0, or a `FromPly` tag's value).
    start_ply: u32,
    /// The capture that started the stretch: the position before it and its move (only
    /// [`History::judge_fsf`] looks at it).
    lead_in: Option<(Position, Move)>,
    /// While set, every [`History::push`] keeps in `journal` what [`History::undo`] needs.
    journaling: bool,
    journal: Vec<Undo>,
}

/// What [`History::undo`] needs to take back one [`History::push`].
#[derive(Debug, Clone)]
enum Undo {
    /// A ply within the stretch: the key it counted, that key's record and the last
    /// reported third occurrence before it.
    Pushed {
        key: u64,
        before: Seen,
        reported: Option<u32>,
    },
    /// A capture: the stretch it ended, whole (moved, not copied).
    Restarted(Box<History>),
}

/// How often a position stood on the board, and the plies of its last three occurrences
/// (oldest first).
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    count: usize,
    last: [u32; 3],
}

impl Seen {
    fn add(&mut self, ply: u32) {
        self.count += 1;
        self.last = [self.last[1], self.last[2], ply];
    }
}

/// A third occurrence: the position after ply `ply` stood on the board for the third time
/// (or more) since ply `first`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeat {
    /// The ply whose position is the repetition's first occurrence in the window (0: the start).
    pub first: u32,
    /// The ply of the occurrence in between.
    pub second: u32,
    /// The ply that repeats the position for the third time.
    pub ply: u32,
    /// How many times the position has now occurred (3 or more).
    pub count: usize,
    /// The judgement of the window `first+1 ..= ply`.
    pub verdict: Verdict,
}

/// The judgement of a repetition window (rulings §4.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// `loser` gave check with every one of its moves in the window.
    PerpetualCheck {
        /// The side that checked perpetually: it loses.
        loser: Side,
        /// Its plies in the window.
        plies: Vec<u32>,
    },
    /// `loser` newly attacked the same enemy piece with every one of its moves in the window.
    PerpetualChase {
        /// The side that chased perpetually: it loses.
        loser: Side,
        /// Its plies in the window.
        plies: Vec<u32>,
        /// The chased piece (its identity) and the point it stands on after the window.
        piece: Piece,
        /// Where the chased piece stands at the end of the window.
        at: Square,
    },
    /// A draw: `why` is `both-check`, `both-chase` or `neither`.
    Draw {
        /// Why the repetition is drawn.
        why: DrawWhy,
    },
}

/// Why a repetition is a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawWhy {
    /// Both sides checked perpetually.
    BothCheck,
    /// Both sides chased perpetually (and neither checked perpetually).
    BothChase,
    /// Neither side checked or chased perpetually.
    Neither,
}

impl Verdict {
    /// The result and the outcome reason (`perpetual-check`, `perpetual-chase` or
    /// `repetition`) when this verdict ends the game.
    pub fn outcome(&self) -> crate::types::Verdict {
        let (result, reason) = match self {
            Verdict::PerpetualCheck { loser, .. } => {
                (loser.other().wins(), EndReason::PerpetualCheck)
            }
            Verdict::PerpetualChase { loser, .. } => {
                (loser.other().wins(), EndReason::PerpetualChase)
            }
            Verdict::Draw { .. } => (crate::types::RecordedResult::Draw, EndReason::Repetition),
        };
        crate::types::Verdict { result, reason }
    }
}

impl History {
    /// A history whose stretch starts at `start` (ply 0); `start_span` is what labels point
    /// at for the start position.
    pub fn new(start: Position, start_span: Span) -> History {
        History::new_at(start, start_span, 0)
    }

    /// A history whose stretch starts at `start`, the position after ply `start_ply` (a log
    /// taken up from a position, `FromPly`; the plies before it are not known).
    pub fn new_at(start: Position, start_span: Span, start_ply: u32) -> History {
        let mut h = History {
            start_span,
            start_ply,
            ..History::default()
        };
        // A stretch between captures is rarely longer than this: one allocation each.
        h.positions.reserve(32);
        h.moves.reserve(32);
        h.spans.reserve(32);
        h.occurrences.reserve(32);
        h.restart(start_ply, start);
        h
    }

    /// The ply after which the start position stands.
    pub fn start_ply(&self) -> u32 {
        self.start_ply
    }

    /// The plies of the current stretch (since the last capture, or the start).
    pub fn stretch_plies(&self) -> usize {
        self.positions.len().saturating_sub(1)
    }

    /// What a label for the position after ply `ply` points at: that ply's move, or for ply 0
    /// the start position's span.
    pub fn occurrence_span(&self, ply: u32) -> Option<Span> {
        if ply == self.start_ply {
            Some(self.start_span)
        } else {
            self.span(ply)
        }
    }

    fn restart(&mut self, ply: u32, pos: Position) {
        self.base = ply;
        self.positions.clear();
        self.moves.clear();
        self.spans.clear();
        self.occurrences.clear();
        self.positions.push(pos);
        self.occurrences.entry(pos.key()).or_default().add(ply);
    }

    /// The log bytes of ply `ply`, when it lies in the current stretch.
    pub fn span(&self, ply: u32) -> Option<Span> {
        let i = ply.checked_sub(self.base + 1)?;
        self.spans.get(i as usize).copied()
    }

    /// Records ply `ply` (the next one), the move `mv` written at `span`, which left position
    /// `after`; a capture starts a new stretch. Returns the third
    /// (or later) occurrence this ply makes, judged, unless it lies inside the window of the
    /// last one returned (a repetition that goes on is reported once per window, not at
    /// every ply of it).
    pub fn push(&mut self, ply: u32, mv: Move, span: Span, after: &Position) -> Option<Repeat> {
        if self.positions.last()?.piece(mv.to).is_some() {
            let before = *self.positions.last()?;
            if self.journaling {
                self.stash();
            }
            self.restart(ply, *after);
            self.lead_in = Some((before, mv));
            return None;
        }
        self.positions.push(*after);
        self.moves.push(mv);
        self.spans.push(span);
        let reported = self.reported;
        let key = after.key();
        let seen = self.occurrences.entry(key).or_default();
        if self.journaling {
            let before = *seen;
            self.journal.push(Undo::Pushed {
                key,
                before,
                reported,
            });
        }
        seen.add(ply);
        let count = seen.count;
        if count < 3 {
            return None;
        }
        let [first, second, _] = seen.last;
        if self.reported.is_some_and(|r| first < r) {
            return None;
        }
        self.reported = Some(ply);
        Some(Repeat {
            first,
            second,
            ply,
            count,
            verdict: self.judge(first, ply),
        })
    }

    /// Turns the journal on or off: while on, every [`History::push`] can be taken back with
    /// [`History::undo`] (a tree replay's variations, `Rules::undo`).
    pub fn set_journaling(&mut self, on: bool) {
        self.journaling = on;
    }

    /// Moves the stretch a capture ends into the journal, leaving an empty one that keeps the
    /// journal, the start's span and the last reported third occurrence.
    fn stash(&mut self) {
        let journal = std::mem::take(&mut self.journal);
        let old = std::mem::take(self);
        self.start_span = old.start_span;
        self.reported = old.reported;
        self.journaling = true;
        self.journal = journal;
        self.journal.push(Undo::Restarted(Box::new(old)));
    }

    /// Takes back the last journalled [`History::push`]; nothing when there is none.
    pub fn undo(&mut self) {
        match self.journal.pop() {
            Some(Undo::Pushed {
                key,
                before,
                reported,
            }) => {
                self.positions.pop();
                self.moves.pop();
                self.spans.pop();
                if before.count == 0 {
                    self.occurrences.remove(&key);
                } else {
                    self.occurrences.insert(key, before);
                }
                self.reported = reported;
            }
            Some(Undo::Restarted(old)) => {
                let journal = std::mem::take(&mut self.journal);
                let journaling = self.journaling;
                *self = *old;
                self.journal = journal;
                self.journaling = journaling;
            }
            None => {}
        }
    }

    /// The position after ply `ply` (within the stretch).
    fn position(&self, ply: u32) -> &Position {
        &self.positions[(ply - self.base) as usize]
    }

    /// Judges the window `first+1 ..= last` (rulings §4.3).
    pub fn judge(&self, first: u32, last: u32) -> Verdict {
        self.judge_with(first, last, false, Reading::Rulings)
    }

    /// Judges the window under [`Reading::FairyStockfish`]: for the side that played `last`
    /// (the third occurrence) the window also holds ply `first`, the move that produced the
    /// first occurrence, and chases are found with Fairy-Stockfish's quirks. Only for the
    /// cross-check, which uses it to tell a documented difference (docs/xiangqi.md) from a
    /// defect.
    #[cfg(feature = "testing")]
    pub fn judge_fsf(&self, first: u32, last: u32) -> Verdict {
        self.judge_with(first, last, true, Reading::FairyStockfish)
    }

    /// Judges the third occurrence at `last` of the position after `first` with the window
    /// `first+1 ..= last`, or with `wide` also ply `first` (Fairy-Stockfish's window; the
    /// start position has no ply before it), finding chases by `reading`. The cross-check mixes
    /// the two windows and readings to tell which difference (docs/xiangqi.md) decides a
    /// verdict.
    pub fn judge_with(&self, first: u32, last: u32, wide: bool, reading: Reading) -> Verdict {
        let from = if wide && first > 0 { first } else { first + 1 };
        self.judge_from(from, last, reading)
    }

    /// Judges plies `from ..= last`.
    fn judge_from(&self, from: u32, last: u32, reading: Reading) -> Verdict {
        // Per side: its plies, whether each gave check, and the pieces chased by all of them.
        let mut plies: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let mut checking = [true, true];
        // The points (in the latest position) of the enemy pieces chased by every move of the
        // side so far, followed as they move; None before its first move in the window.
        let mut chasing: [Option<Points>; 2] = [None, None];
        for ply in from..=last {
            let i = (ply - self.base) as usize;
            let (before, mv) = match i.checked_sub(1) {
                Some(j) => (&self.positions[j], self.moves[j]),
                None => match &self.lead_in {
                    Some((b, m)) => (b, *m),
                    None => continue,
                },
            };
            let after = &self.positions[i];
            let side = before.to_move();
            let s = side.index();
            plies[s].push(ply);
            checking[s] &= after.is_check();
            // The mover's piece that the other side chases moved with it.
            if let Some(set) = &mut chasing[1 - s] {
                if *set & bit(mv.from) != 0 {
                    *set = (*set & !bit(mv.from)) | bit(mv.to);
                }
            }
            // Only the pieces every earlier move of the side chased can still count.
            let within = chasing[s].unwrap_or(!0);
            let found = match reading {
                Reading::Rulings => chased_within(before, mv, after, within),
                #[cfg(feature = "testing")]
                Reading::FairyStockfish => super::fsf::chased(before, mv, after) & within,
            };
            chasing[s] = Some(found);
        }
        let chases = |s: usize| chasing[s].is_some_and(|v| v != 0);
        match (
            checking[0] && !plies[0].is_empty(),
            checking[1] && !plies[1].is_empty(),
        ) {
            (true, true) => {
                return Verdict::Draw {
                    why: DrawWhy::BothCheck,
                }
            }
            (true, false) | (false, true) => {
                let loser = if checking[0] {
                    Side::First
                } else {
                    Side::Second
                };
                return Verdict::PerpetualCheck {
                    loser,
                    plies: std::mem::take(&mut plies[loser.index()]),
                };
            }
            (false, false) => {}
        }
        match (chases(0), chases(1)) {
            (true, true) => Verdict::Draw {
                why: DrawWhy::BothChase,
            },
            (true, false) | (false, true) => {
                let loser = if chases(0) { Side::First } else { Side::Second };
                let at = chasing[loser.index()].map_or(0, |v| v.trailing_zeros() as Square);
                let piece = self
                    .position(last)
                    .piece(at)
                    .unwrap_or(Piece::new(loser.other(), Kind::Chariot));
                Verdict::PerpetualChase {
                    loser,
                    plies: std::mem::take(&mut plies[loser.index()]),
                    piece,
                    at,
                }
            }
            (false, false) => Verdict::Draw {
                why: DrawWhy::Neither,
            },
        }
    }
}

/// The rule source named by every repetition finding.
pub const RULE: Rule = Rule::Repetition;

/// Most labels a repetition finding puts on the window's plies (the evidence lists them all).
const MAX_LABELS: usize = 8;

impl Repeat {
    /// The game's outcome when a third occurrence ends the game (`Repetition "ends"`): the
    /// result and the reason (`perpetual-check`, `perpetual-chase` or `repetition`).
    pub fn outcome(&self) -> crate::types::Verdict {
        self.verdict.outcome()
    }

    /// What the verdict says, for messages: "Red checks perpetually" and the like.
    fn summary(&self) -> String {
        match &self.verdict {
            Verdict::PerpetualCheck { loser, plies } => format!(
                "{} gave check with every one of its {} moves since",
                side_name(*loser),
                plies.len()
            ),
            Verdict::PerpetualChase {
                loser,
                plies,
                piece,
                at,
            } => format!(
                "{} attacked {}'s {} (on {} now) anew with every one of its {} moves since",
                side_name(*loser),
                side_name(piece.side()),
                piece.kind().name(),
                GEOMETRY.name(*at),
                plies.len()
            ),
            Verdict::Draw { why } => match why {
                DrawWhy::BothCheck => "both sides gave check with every move since".into(),
                DrawWhy::BothChase => "both sides chased with every move since".into(),
                DrawWhy::Neither => "neither side checked or chased with every move since".into(),
            },
        }
    }

    /// The finding for this third occurrence, written at `span` (the move of ply
    /// [`Repeat::ply`]). `claim`: the `Repetition "claim"` mode, where play goes on and the
    /// verdict is the info `threefold-repetition`; otherwise the loser gets the error
    /// `perpetual-check` / `perpetual-chase`, and a drawn repetition the info
    /// `threefold-repetition`. Labels: the first and second occurrence, and the loser's plies
    /// in the window; the evidence is every ply of the window.
    pub fn finding(&self, history: &History, span: Span, claim: bool) -> crate::finding::Finding {
        use crate::finding::{Code, Finding};
        let verdict = self.outcome();
        let (result, reason) = (verdict.result, verdict.reason);
        let occurrence = format!("the {} time", crate::rules::ordinal(self.count));
        let head = format!(
            "{} stands for {occurrence}: {}",
            if self.first == history.start_ply() {
                "the start position".to_string()
            } else {
                format!("the position after ply {}", self.first)
            },
            self.summary()
        );
        let loser = match &self.verdict {
            Verdict::PerpetualCheck { loser, .. } | Verdict::PerpetualChase { loser, .. } => {
                Some(*loser)
            }
            Verdict::Draw { .. } => None,
        };
        let (code, label, help) = match (claim, loser) {
            (false, Some(l)) => (
                if reason == EndReason::PerpetualCheck {
                    Code::PerpetualCheck
                } else {
                    Code::PerpetualChase
                },
                format!("third occurrence: {} loses ({reason})", side_name(l)),
                format!(
                    "a side that keeps up a perpetual {} loses; {} had to vary its moves",
                    if reason == EndReason::PerpetualCheck { "check" } else { "chase" },
                    side_name(l)
                ),
            ),
            (false, None) => (
                Code::ThreefoldRepetition,
                "third occurrence: drawn by repetition".to_string(),
                "a third occurrence with no perpetual check or chase by one side alone ends the game as a draw".to_string(),
            ),
            (true, _) => (
                Code::ThreefoldRepetition,
                match loser {
                    Some(l) => format!("third occurrence: {} would lose ({reason})", side_name(l)),
                    None => "third occurrence: a draw by repetition".to_string(),
                },
                format!(
                    "in Repetition \"claim\" mode play goes on; on a claim here the arbiter rules {}",
                    match result {
                        crate::types::RecordedResult::Draw => "a draw".to_string(),
                        r => r.as_str().to_string(),
                    }
                ),
            ),
        };
        let mut f = Finding::new(code, span, head, RULE)
            .at_ply(self.ply)
            .with_verdict(verdict)
            .label(label)
            .help(help)
            .with_evidence((self.first + 1..=self.ply).collect());
        let (plies, what) = match &self.verdict {
            Verdict::PerpetualCheck { plies, .. } => (plies.as_slice(), "check".to_string()),
            Verdict::PerpetualChase { plies, piece, .. } => (
                plies.as_slice(),
                format!("attacks the {}", piece.kind().name()),
            ),
            Verdict::Draw { .. } => (&[][..], String::new()),
        };
        // One label a ply: the occurrences, and the loser's plies (at most MAX_LABELS).
        let mut labels: Vec<(u32, String)> = vec![
            (self.first, "first occurrence".to_string()),
            (self.second, "second occurrence".to_string()),
        ];
        for &p in plies.iter().filter(|&&p| p != self.ply).take(MAX_LABELS) {
            match labels.iter_mut().find(|(q, _)| *q == p) {
                Some((_, text)) => text.push_str(&format!("; {what}")),
                None => labels.push((p, format!("ply {p}: {what}"))),
            }
        }
        labels.sort_by_key(|(p, _)| *p);
        for (p, text) in labels {
            if let Some(s) = history.occurrence_span(p) {
                f = f.with_label(s, text);
            }
        }
        f
    }
}

/// The enemy pieces the piece on `sq` could capture by its movement (palace, river, leg, eye
/// and screen rules applied; whether the capture would expose its own General is not).
fn targets(pos: &Position, sq: Square, list: &mut MoveList) -> Points {
    let Some(p) = pos.piece(sq) else { return 0 };
    list.clear();
    pos.moves_from(sq, list);
    list.iter()
        .filter(|m| pos.piece(m.to).is_some_and(|t| t.side() != p.side()))
        .fold(0, |acc, m| acc | bit(m.to))
}

/// The enemy pieces that attack `side`'s General in `pos` (empty when it has none). Only a
/// piece on the General's file or rank, or within two files and two ranks of it, can reach
/// it by any movement (a covered Jieqi piece's and Jieqi's free diagonals included); those
/// are asked with the move generator itself.
fn checkers(pos: &Position, side: Side) -> Points {
    let Some(g) = pos.general(side) else { return 0 };
    let (gf, gr) = (GEOMETRY.file(g), GEOMETRY.rank(g));
    let mut found = 0;
    for sq in points(pos.occupied()) {
        let (f, r) = (GEOMETRY.file(sq), GEOMETRY.rank(sq));
        let near = f == gf || r == gr || (f.abs_diff(gf) <= 2 && r.abs_diff(gr) <= 2);
        if near
            && pos.piece(sq).is_some_and(|p| p.side() != side)
            && pos.any_move_from(sq, |m| m.to == g)
        {
            found |= bit(sq);
        }
    }
    found
}

/// True when `side` may play `m` in `pos` (whoever is to move there), not counting the
/// attacks on its General in `allowed`: a check that stands before the question is asked
/// (the move just made gave it) does not make every capture and recapture illegal. A General
/// moving must land unattacked; no move may leave the Generals facing.
fn legal_modulo(pos: &Position, side: Side, m: Move, allowed: Points, list: &mut MoveList) -> bool {
    let Some(p) = pos.piece(m.from) else {
        return false;
    };
    if p.side() != side {
        return false;
    }
    list.clear();
    pos.moves_from(m.from, list);
    if !list.contains(&m) {
        return false;
    }
    let mut q = *pos;
    q.set_to_move(side);
    q.make(m);
    if q.generals_face() {
        return false;
    }
    let now = checkers(&q, side);
    if p.kind() == Kind::General && !p.is_covered() {
        now == 0
    } else {
        now & !allowed == 0
    }
}

/// True when `side`'s piece on `sq` is pinned: without it, an enemy piece would newly attack
/// `side`'s General, or the Generals would face each other.
fn pinned(pos: &Position, sq: Square, side: Side) -> bool {
    let mut p = *pos;
    p.set(sq, None);
    p.generals_face() || checkers(&p, side) & !checkers(pos, side) != 0
}

/// True when the piece on `from` (of `mover`) can capture on `target` in `pos`: legal but for
/// a check that already stands against `mover` ([`legal_modulo`]).
fn can_capture(
    pos: &Position,
    mover: Side,
    from: Square,
    target: Square,
    list: &mut MoveList,
) -> bool {
    let allowed = checkers(pos, mover);
    legal_modulo(pos, mover, Move { from, to: target }, allowed, list)
}

/// True when, after the piece on `from` (of `attacker_side`) captures on `target`, some piece
/// of the target's side can recapture there: legally, but for a check that stood before the
/// capture (a recapture is not refused because of a check the capture did not give).
fn protected(
    pos: &Position,
    attacker_side: Side,
    from: Square,
    target: Square,
    list: &mut MoveList,
) -> bool {
    let defender = attacker_side.other();
    let allowed = checkers(pos, defender);
    let mut p = *pos;
    p.set_to_move(attacker_side);
    p.make(Move { from, to: target });
    points(p.occupied()).any(|sq| {
        sq != target
            && p.piece(sq).is_some_and(|d| d.side() == defender)
            && legal_modulo(
                &p,
                defender,
                Move {
                    from: sq,
                    to: target,
                },
                allowed,
                list,
            )
    })
}

/// True when a Horse on `sq` has a piece on a point diagonally next to it: one of its
/// would-be attackers' legs may then be blocked, so a Horse it attacks may not attack back.
fn horse_may_be_lame(pos: &Position, sq: Square) -> bool {
    let (f, r) = (GEOMETRY.file(sq) as i32, GEOMETRY.rank(sq) as i32);
    [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        .iter()
        .any(|&(df, dr)| {
            GEOMETRY
                .square(f + df, r + dr)
                .is_some_and(|s| pos.piece(s).is_some())
        })
}

/// True when the piece on `a` *threatens* the enemy piece on `t` in `pos` in the sense of the
/// chasing rules (rulings §4.3): it is a Chariot, Horse, Cannon, Advisor or Elephant (Generals
/// and Soldiers never chase; a covered Jieqi piece neither), `t` holds no General, uncrossed
/// Soldier or covered piece, the capture `a`x`t` is legal (a pinned attacker threatens
/// nothing), and either the attacker is weaker in kind (a Horse or Cannon on a Chariot, an
/// Advisor or Elephant on a Chariot, Horse or Cannon: a threat even to a protected piece) or
/// no piece can legally recapture on `t`. A piece of the attacker's own kind that could take
/// back is an offer to exchange, not a threat, unless it is pinned (for Horses, whose legs can
/// be blocked one way only, whether it can take back is looked at).
fn threat(pos: &Position, mover: Side, a: Square, t: Square, list: &mut MoveList) -> bool {
    let (Some(att), Some(target)) = (pos.piece(a), pos.piece(t)) else {
        return false;
    };
    let victim = mover.other();
    if att.side() != mover
        || target.side() != victim
        || att.is_covered()
        || target.is_covered()
        || matches!(att.kind(), Kind::General | Kind::Soldier)
        || target.kind() == Kind::General
        || (target.kind() == Kind::Soldier && own_half(victim, t))
        || targets(pos, a, list) & bit(t) == 0
        || !can_capture(pos, mover, a, t, list)
    {
        return false;
    }
    let (ak, tk) = (att.kind(), target.kind());
    let weaker = match ak {
        Kind::Horse | Kind::Cannon => tk == Kind::Chariot,
        Kind::Advisor | Kind::Elephant => matches!(tk, Kind::Chariot | Kind::Horse | Kind::Cannon),
        _ => false,
    };
    if weaker {
        return true;
    }
    if tk == ak {
        let exchange = if ak == Kind::Horse && horse_may_be_lame(pos, a) {
            targets(pos, t, list) & bit(a) != 0
        } else {
            !pinned(pos, t, victim)
        };
        if exchange {
            return false;
        }
    }
    !protected(pos, mover, a, t, list)
}

/// The enemy pieces that move `m` (from `before`, giving `after`) *chases*, as points of
/// `after` (rulings §4.3: the AXF chasing rules, as Fairy-Stockfish and Pikafish implement
/// them): the pieces some piece of the mover threatens (`threat`) after the move and did not
/// threaten before it. The threat may be new because the attack is new (the moved piece, or
/// one its move uncovered: a Horse's leg, an Elephant's eye, a Chariot's or Cannon's line, a
/// Cannon's new screen), because the target lost its protection (its protector is now pinned,
/// or the capture now gives a discovered check that no recapture can answer), or because the
/// attacker is no longer pinned.
pub fn chased(before: &Position, m: Move, after: &Position) -> Points {
    chased_within(before, m, after, !0)
}

/// [`chased`] among the points of `within` only (`chased(..) & within`): a repetition's
/// judge asks only about the pieces every earlier move of the side chased, and a piece
/// outside that set costs no threat test. Nothing to test, nothing tested.
fn chased_within(before: &Position, m: Move, after: &Position, within: Points) -> Points {
    let mover = before.to_move();
    let mut list = MoveList::new();
    let mut out: Points = 0;
    if within & after.occupied() == 0 {
        return 0;
    }
    for a in points(after.occupied()) {
        if !after.piece(a).is_some_and(|p| p.side() == mover) {
            continue;
        }
        let was = if a == m.to { m.from } else { a };
        for t in points(targets(after, a, &mut list) & within & !out) {
            if threat(after, mover, a, t, &mut list) && !threat(before, mover, was, t, &mut list) {
                out |= bit(t);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::xiangqi::fen;

    fn pos(f: &str) -> Position {
        fen::parse(f).expect("fen").position
    }

    /// The points chased by `m` from the position `f`, by name.
    fn chased_after(f: &str, m: &str) -> Vec<String> {
        let before = pos(f);
        let m = Move::from_iccs(m).expect("move");
        assert!(before.is_legal(m), "{} illegal in {f}", m.iccs());
        let mut after = before;
        after.make(m);
        points(chased(&before, m, &after))
            .map(|s| GEOMETRY.name(s))
            .collect()
    }

    #[test]
    fn chariot_chases_an_unprotected_horse() {
        // a0a5: the Chariot now attacks c5 along rank 5; no Black piece reaches c5.
        assert_eq!(chased_after("3k5/9/9/9/2n6/9/9/9/9/R3K4 w", "a0a5"), ["c5"]);
    }

    #[test]
    fn chariot_does_not_chase_a_protected_horse() {
        // The Black Chariot on c9 can take back on c5.
        assert!(chased_after("2rk5/9/9/9/2n6/9/9/9/9/R3K4 w", "a0a5").is_empty());
    }

    #[test]
    fn horse_chases_a_protected_chariot() {
        // b2c4 (leg b3 free): the Horse attacks d6 (leg c5 free); d9 protects d6, but a
        // Horse on a Chariot is a chase all the same.
        assert_eq!(
            chased_after("3r1k3/9/9/3r5/9/9/9/1N7/9/4K4 w", "b2c4"),
            ["d6"]
        );
    }

    #[test]
    fn offer_to_exchange_is_no_chase() {
        // The Black Chariot on c5 can take the Red Chariot on a5 back.
        assert!(chased_after("3k5/9/9/9/2r6/9/9/9/9/R3K4 w", "a0a5").is_empty());
    }

    #[test]
    fn pinned_attacker_does_not_chase() {
        // d4b5 uncovers rank 4 for the Chariot on e4, which now attacks the unprotected
        // Horse on b4; but the Chariot shields e0 from the Black Chariot on e8: pinned.
        assert!(chased_after("3k5/4r4/9/9/9/1n1NR4/9/9/9/4K4 w", "d4b5").is_empty());
        // Without the pinning Chariot the same move chases b4.
        assert_eq!(
            chased_after("3k5/9/9/9/9/1n1NR4/9/9/9/4K4 w", "d4b5"),
            ["b4"]
        );
    }

    #[test]
    fn soldiers_and_generals() {
        // A Soldier never chases.
        assert!(chased_after("3k5/9/4n4/9/4P4/9/9/9/9/4K4 w", "e5e6").is_empty());
        // An uncrossed Soldier is never chased...
        assert!(chased_after("3k5/9/9/p8/9/9/9/9/9/1R2K4 w", "b0b6").is_empty());
        // ...a crossed, unprotected one is.
        assert_eq!(chased_after("3k5/9/9/9/9/9/p8/9/9/1R2K4 w", "b0b3"), ["a3"]);
    }

    #[test]
    fn discovered_attack_counts() {
        // b5a7 uncovers the b file: the Chariot on b0 newly attacks the Cannon on b8.
        assert_eq!(
            chased_after("3k5/1c7/9/9/1N7/9/9/9/9/1R2K4 w", "b5a7"),
            ["b8"]
        );
    }
}
