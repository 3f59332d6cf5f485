//! The Jungle (Dou Shou Qi) engine: the game as played on jijbent, seed 001, decided in
//! rulings §3.
//!
//! - Board ([`board`]): 7x9, files `a`–`g`, ranks 1–9; dens d1 (Red) and d9 (Blue); traps c1 e1
//!   d2 (Red's) and c9 e9 d8 (Blue's); two rivers of six water squares. The standard start
//!   ([`board::START_FEN`]) or a `[FEN "..."]` tag; **Red moves first** unless a
//!   `[FirstMove "blue"]` tag (or the `FEN` side field) says otherwise.
//! - Moves: one square orthogonally, never into the own den; only the Rat enters water; the Lion
//!   and the Tiger jump straight across a river to the first land square beyond (2 water squares
//!   sideways, 3 lengthwise) unless a Rat of either colour is on a crossed water square, and may
//!   capture on landing.
//! - Captures ([`Jungle::capture_refusal`]): equal or lower strength (Elephant 8, Lion 7,
//!   Tiger 6, Leopard 5, Wolf 4, Dog 3, Cat 2, Rat 1: the seed's order); the Rat captures the
//!   Elephant, but not from water; the Elephant captures the Rat (jijbent); Rat takes Rat in,
//!   from and into water; a piece on one of the opponent's traps may be captured by any piece of
//!   the trap's owner; a piece keeps its own strength when it attacks, wherever it stands.
//! - Endings ([`Rules::outcome`]): entering the opponent's den wins (`den-entered`); the side to
//!   move with no legal move, or no pieces, loses (`no-legal-move`; the seed is silent, rulings
//!   §3 decide).
//! - Repetition (rulings §3): a move that creates a position for the third time while the moving
//!   piece could capture, by the two kinds alone, the piece the opponent just moved is
//!   `jungle-repetition` (error). **Choice**: like a broken two-squares rule in Stratego, the
//!   finding does not stop the replay: the move is applied and the rest of the game is still
//!   judged (the seed leaves the penalty to an admin: a warning first, loss only if repeated).
//!   A player whose only moves are forbidden by the rule has no legal move. A third occurrence
//!   of a position with the same side to move is `threefold-repetition` (info) at that ply;
//!   `arbiter claim` answers both (`claim.rs`, docs/claims.md).
//! - Variant points ([`board::Variant`], `[Variant "..."]`): Dog above Wolf, Elephant sparing
//!   the Rat, no capture across the water's edge, every trap weakening. All off by default.

pub mod board;
mod claim;
pub mod history;
mod illegal;
mod view;

use crate::finding::{Code, Finding};
use crate::geometry::{Square, ORTHOGONAL};
use crate::record::{GameRecord, MoveRecord, Tag};
use crate::rulebook::Rule;
use crate::rules::{coords, Applied, GameId, Outcome, Parameters, PlyInfo, Rules};
use crate::types::EndReason;
use crate::types::Side;
use crate::types::Span;
pub use board::{
    den_owner, fen, is_water, parse_fen, trap_owner, Board, Kind, Piece, Variant, GEOMETRY, KINDS,
    SEED_VARIANT, SQUARES, START_FEN,
};
pub use history::History;
pub use illegal::{Illegal, Refusal};

/// The rule source named by movement and capture findings.
pub const RULE: Rule = Rule::Jungle;
/// The rule source named by `jungle-repetition` findings.
pub const REPETITION_RULE: Rule = Rule::JungleRepetition;
/// The rule source named by `threefold-repetition` findings and claims.
pub const THREEFOLD_RULE: Rule = Rule::JungleThreefold;

/// How a Jungle move that is not a coordinate move is reported.
const UNREADABLE: coords::Unreadable = coords::Unreadable {
    shown: coords::escaped,
    example: "a3-a4",
    help: "Jungle moves are written from-to: a3-a4, a3xa4 for a capture, b3-b7 for a river jump",
};

/// A move: from-square and to-square (`rank * 7 + file`).
pub type Move = (Square, Square);

/// The position between plies, with the history the repetition rules need.
#[derive(Debug, Clone)]
pub struct State {
    /// Square contents.
    pub board: Board,
    /// Whose move it is.
    pub to_move: Side,
    /// Incremental Zobrist key of placement and side to move ([`board::full_key`]).
    pub key: u64,
    /// The rule switches in force.
    pub variant: Variant,
    /// The side that entered the opponent's den, once one has.
    pub den_entered: Option<Side>,
    /// Pieces each side has lost, in the order lost (index: [`Side::index`]).
    pub lost: [Vec<Piece>; 2],
    /// The kind of the piece moved on the previous ply (by the side not to move); `None` before
    /// the first ply.
    pub last_moved: Option<Kind>,
    /// Where every position occurred.
    pub history: History,
}

/// What [`Jungle::make_move`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Made {
    /// The piece that moved.
    pub piece: Piece,
    /// The piece it captured.
    pub captured: Option<Piece>,
    /// True when the jijbent repetition rule forbade the move (it was applied anyway).
    pub forbidden: bool,
    /// How many times the new position stood before.
    pub repeats: usize,
    /// The plies after which it stood before (0 = start), in order, as findings cite them: all
    /// of them up to three, else the first two and the latest, each with its 1-based
    /// occurrence number. A position shuttled to a thousand times gives findings of bounded
    /// size, and the replay stays linear in the game's length.
    pub earlier: Vec<(usize, u32)>,
}

/// The Jungle engine. It holds no state of its own: the rule switches live in [`State`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Jungle;

fn side_name(side: Side) -> &'static str {
    GameId::Jungle.side_names()[side.index()]
}

impl Jungle {
    /// The engine.
    pub fn new() -> Self {
        Jungle
    }

    /// A position with an empty history (the start of a game): `span` is what repetition labels
    /// show for ply 0.
    pub fn position(&self, board: Board, to_move: Side, variant: Variant, span: Span) -> State {
        let key = board::full_key(&board, to_move);
        State {
            board,
            to_move,
            key,
            variant,
            den_entered: None,
            lost: [Vec::new(), Vec::new()],
            last_moved: None,
            history: History::new(key, span),
        }
    }

    /// The standard start (rulings §3), Red to move, under `variant`.
    pub fn standard_start(&self, variant: Variant) -> State {
        let (board, side) = parse_fen(START_FEN).expect("the start FEN is valid");
        self.position(board, side, variant, Span::default())
    }

    /// The square a `kind` on `from` reaches going in direction `dir`, occupancy of that square
    /// ignored: the next square; for the Lion and Tiger across a river, the first land square
    /// beyond it; `None` off the board, into water for any animal but the Rat, or when a Rat is
    /// on a crossed water square.
    fn reach(&self, st: &State, from: Square, kind: Kind, dir: (i8, i8)) -> Option<Square> {
        let t = GEOMETRY.step(from, dir)?;
        if !is_water(t) || kind == Kind::Rat {
            return Some(t);
        }
        if !kind.jumps() {
            return None;
        }
        let mut s = t;
        loop {
            if st.board[s as usize].is_some() {
                return None;
            }
            s = GEOMETRY.step(s, dir)?;
            if !is_water(s) {
                return Some(s);
            }
        }
    }

    /// Every move the side to move may make by the movement and capture rules (rulings §3),
    /// history ignored, in board order.
    pub fn legal_moves(&self, st: &State) -> Vec<Move> {
        let mut out = Vec::new();
        for s in 0..SQUARES as Square {
            self.find_move_from(st, s, &mut |m| {
                out.push(m);
                false
            });
        }
        out
    }

    /// Walks the legal moves of the piece of the side to move on `s` (if any) in the order of
    /// [`Jungle::legal_moves`] until `stop` returns true for one; true when it did.
    #[inline(always)]
    fn find_move_from(&self, st: &State, s: Square, stop: &mut impl FnMut(Move) -> bool) -> bool {
        let side = st.to_move;
        let Some(p) = st.board[s as usize].filter(|p| p.side == side) else {
            return false;
        };
        for &d in &ORTHOGONAL {
            let Some(t) = self.reach(st, s, p.kind, d) else {
                continue;
            };
            if den_owner(t) == Some(side) {
                continue;
            }
            let legal = match st.board[t as usize] {
                None => true,
                Some(q) if q.side != side => {
                    Self::capture_refusal(&st.variant, p, s, q, t).is_none()
                }
                Some(_) => false,
            };
            if legal && stop((s, t)) {
                return true;
            }
        }
        false
    }

    /// The position key after `mv` (which must start on a piece).
    pub fn key_after(&self, st: &State, (from, to): Move) -> u64 {
        let Some(p) = st.board[from as usize] else {
            return st.key;
        };
        let mut k = st.key ^ board::side_key(st.to_move) ^ board::side_key(st.to_move.other());
        k ^= board::piece_key(p.side, p.kind, from) ^ board::piece_key(p.side, p.kind, to);
        if let Some(q) = st.board[to as usize] {
            k ^= board::piece_key(q.side, q.kind, to);
        }
        k
    }

    /// True when the jijbent repetition rule forbids `mv`: the position it creates occurred
    /// twice or more before and the moving piece could capture the piece moved on the previous
    /// ply by the two kinds alone ([`Variant::beats`]; rulings §3).
    pub fn forbidden(&self, st: &State, mv: Move) -> bool {
        let (Some(last), Some(p)) = (st.last_moved, st.board[mv.0 as usize]) else {
            return false;
        };
        st.variant.beats(p.kind, last) && st.history.occurrences(self.key_after(st, mv)).count >= 2
    }

    /// The legal moves the repetition rule leaves (rulings §3: these decide `no-legal-move`).
    pub fn allowed_moves(&self, st: &State) -> Vec<Move> {
        let mut v = self.legal_moves(st);
        v.retain(|&m| !self.forbidden(st, m));
        v
    }

    /// Applies `mv` (already checked) as ply `ply` played at `span`: moves the piece, captures,
    /// updates the key, the den, the last-moved piece and the history; reports whether the
    /// repetition rule forbade it and where the new position stood before.
    pub fn make_move(&self, st: &mut State, (from, to): Move, ply: u32, span: Span) -> Made {
        let forbidden = self.forbidden(st, (from, to));
        let key = self.key_after(st, (from, to));
        let piece = st.board[from as usize].expect("make_move needs a piece on from");
        let captured = st.board[to as usize].take();
        if let Some(c) = captured {
            st.lost[c.side.index()].push(c);
        }
        st.board[from as usize] = None;
        st.board[to as usize] = Some(piece);
        if den_owner(to) == Some(piece.side.other()) {
            st.den_entered = Some(piece.side);
        }
        st.key = key;
        st.to_move = st.to_move.other();
        st.last_moved = Some(piece.kind);
        let before = st.history.push(ply, key, span);
        Made {
            piece,
            captured,
            forbidden,
            repeats: before.count,
            earlier: before.cited(),
        }
    }

    /// `f` with a label at each cited earlier occurrence ([`Made::earlier`]), and those
    /// plies as its evidence.
    fn occurrence_labels(&self, st: &State, earlier: &[(usize, u32)], mut f: Finding) -> Finding {
        for &(n, p) in earlier {
            let Some(span) = st.history.span(p) else {
                continue;
            };
            let what = if p == st.history.start() {
                format!("{} occurrence: the start position", history::ordinal(n))
            } else {
                format!("{} occurrence, after ply {p}", history::ordinal(n))
            };
            f = f.with_label(span, what);
        }
        f.with_evidence(earlier.iter().map(|&(_, p)| p).collect())
    }

    /// Checks the annotation of ply `number`, if it has one: the mover's letter and after `:`
    /// the captured one's. One that cannot be read is a `parse-error`; one that names other
    /// animals than the board gives is [`Illegal::Annotation`].
    fn check_annotation(
        &self,
        st: &State,
        mv: &MoveRecord,
        number: u32,
        (mover, captured): (Kind, Option<Kind>),
    ) -> Result<(), Finding> {
        let Some(ann) = mv.annotation() else {
            return Ok(());
        };
        let text = ann.value.trim();
        let letter = |p: &str| {
            let mut c = p.chars();
            match (c.next(), c.next()) {
                (Some(ch), None) => Kind::from_letter(ch),
                _ => None,
            }
        };
        let letters: Vec<Option<Kind>> = text.split(':').map(letter).collect();
        let (a, d) =
            match letters.as_slice() {
                [Some(a)] => (*a, None),
                [Some(a), Some(d)] => (*a, Some(*d)),
                _ => return Err(Finding::new(
                    Code::ParseError,
                    ann.span,
                    format!("`{text}` is not a Jungle annotation"),
                    Rule::LogJungle,
                )
                .at_ply(number)
                .label(
                    "expected the moving piece's letter, and `:` the captured one's, e.g. L or L:w",
                )
                .help("letters: R C D W P T L E; or leave the annotation out")),
            };
        if a != mover || (d.is_some() && d != captured) {
            let why = Illegal::Annotation(a, d, mover, captured);
            return Err(self.explain(st, mv, number, why));
        }
        Ok(())
    }

    /// The start position of a record (rulings §3; docs/log-format.md, Jungle): the `Variant`,
    /// the standard start or the `FEN` tag, the side to move. Every problem at once.
    fn read_start(&self, record: &GameRecord, params: &Parameters) -> Result<State, Vec<Finding>> {
        let mut errors = Vec::new();
        let variant = read_variant(record, params, &mut errors);
        for b in &record.setups {
            errors.push(
                Finding::new(
                    Code::SetupInvalid,
                    b.span,
                    "a setup section in a Jungle game",
                    RULE,
                )
                .label("Jungle has no setup sections")
                .help(
                    "Jungle starts from the standard position; give any other with [FEN \"...\"]",
                ),
            );
        }
        let fen_tag = record.tag("FEN");
        let start_span = fen_tag
            .or(record.tag("Game"))
            .map_or(Span::new(record.span.start, record.span.start), |t| t.span);
        let (board, side) = match fen_tag {
            None => {
                let (b, _) = parse_fen(START_FEN).expect("the start FEN is valid");
                (b, params.first_move.unwrap_or(Side::First))
            }
            Some(t) => read_fen_tag(record, t, params.first_move, &mut errors)?,
        };
        if errors.is_empty() {
            let mut st = self.position(board, side, variant, start_span);
            let base = crate::rules::start_ply(record).unwrap_or(0);
            st.history = History::new_at(st.key, start_span, base);
            Ok(st)
        } else {
            Err(errors)
        }
    }

    /// The findings of the repetition rules (rulings §3) on the move `from`-`to` just made as
    /// ply `number` written `mv` (`last`: the kind the opponent moved before it): `jungle-repetition` when the jijbent
    /// rule forbade it, `threefold-repetition` when its position stands for the third time.
    fn repetition_findings(
        &self,
        st: &State,
        (mv, number): (&MoveRecord, u32),
        (from, to): Move,
        made: &Made,
        last: Option<Kind>,
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        let mover = st.to_move.other();
        if made.forbidden {
            let f = Finding::new(
                Code::JungleRepetition,
                mv.span(),
                format!(
                    "{}'s {} {}-{} creates a position for the {} time while it could capture the {} that just moved",
                    side_name(mover),
                    made.piece.kind.name(),
                    GEOMETRY.name(from),
                    GEOMETRY.name(to),
                    history::ordinal(made.repeats + 1),
                    last.map_or("piece", Kind::name)
                ),
                REPETITION_RULE,
            )
            .at_ply(number)
            .label("forbidden repetition")
            .help("seed 001: report it to an admin, who warns the player; repeated, it can lose the game. The move is applied and the rest of the game is still judged");
            findings.push(self.occurrence_labels(st, &made.earlier, f));
        }
        if made.repeats == 2 {
            let f = Finding::new(
                Code::ThreefoldRepetition,
                mv.span(),
                format!(
                    "threefold repetition: this position, {} to move, stands for the third time",
                    side_name(st.to_move)
                ),
                THREEFOLD_RULE,
            )
            .at_ply(number)
            .label("third occurrence: a draw is claimable")
            .help(format!(
                "not automatic: a player claims it (arbiter claim FILE --ply {number} repetition)"
            ));
            findings.push(self.occurrence_labels(st, &made.earlier, f));
        }
        findings
    }

    /// True when the side to move has a move the rules and the repetition rule allow.
    pub fn has_allowed_move(&self, st: &State) -> bool {
        let mut allowed = |m: Move| !self.forbidden(st, m);
        (0..SQUARES as Square).any(|s| self.find_move_from(st, s, &mut allowed))
    }
}

/// The rule switches of the `Variant` parameter; an unknown switch is a `parse-error` (in
/// `errors`) and the seed's rules are read instead.
fn read_variant(record: &GameRecord, params: &Parameters, errors: &mut Vec<Finding>) -> Variant {
    match Variant::parse(params.variant.as_deref().unwrap_or(SEED_VARIANT)) {
        Ok(v) => v,
        Err(word) => {
            let at = record
                .tag("Variant")
                .map_or(Span::default(), |t| t.value.span);
            errors.push(
                Finding::new(
                    Code::ParseError,
                    at,
                    format!("`{word}` is not a Jungle variant switch"),
                    Rule::LogJungleVariant,
                )
                .label("unknown switch")
                .help("switches: dog-above-wolf, elephant-spares-rat, bank-barrier, any-trap (or jijbent for none)"),
            );
            Variant::default()
        }
    }
}

/// The position of the `FEN` tag `t`. A FEN problem ends the reading (`Err` with `errors` and
/// every FEN problem, each pointing at its characters); a `FirstMove` tag that contradicts
/// the FEN's side (`first`: the parameter) is a problem in `errors`.
fn read_fen_tag(
    record: &GameRecord,
    t: &Tag,
    first: Option<Side>,
    errors: &mut Vec<Finding>,
) -> Result<(Board, Side), Vec<Finding>> {
    let v = t.value.span;
    let (board, side) = parse_fen(&t.value.value).map_err(|problems| {
        let mut all = std::mem::take(errors);
        all.extend(problems.into_iter().map(|p| {
            let at = Span::new((v.start + p.at.start).min(v.end), (v.start + p.at.end).min(v.end));
            Finding::new(Code::SetupInvalid, at, p.message, RULE)
                .label("in the FEN position")
                .help(format!(
                    "the FEN is the board from rank 9 down, `/` between ranks, letters R C D W P T L E (upper case Red) and digits for empty squares, then r or b; the start is {START_FEN}"
                ))
        }));
        all
    })?;
    if let (Some(ft), Some(f)) = (record.tag("FirstMove"), first) {
        if f != side {
            errors.push(
                Finding::new(
                    Code::SetupInvalid,
                    ft.value.span,
                    format!(
                        "FirstMove says {} but the FEN gives {} to move",
                        side_name(f),
                        side_name(side)
                    ),
                    Rule::LogJungle,
                )
                .label("contradicts the FEN")
                .with_label(t.value.span, "side to move here")
                .help("drop the FirstMove tag; the FEN's side field decides"),
            );
        }
    }
    Ok((board, side))
}

impl Rules for Jungle {
    type State = State;

    fn game(&self) -> GameId {
        GameId::Jungle
    }

    /// `FirstMove` red (rulings §3: Red moves first) and `Variant` [`SEED_VARIANT`] (the
    /// seed's rules, no switch on).
    fn default_parameters(&self) -> Parameters {
        Parameters {
            first_move: Some(Side::First),
            variant: Some(SEED_VARIANT.to_string()),
            ..Parameters::default()
        }
    }

    fn start(
        &self,
        record: &GameRecord,
        params: &Parameters,
        _findings: &mut Vec<Finding>,
    ) -> Result<State, Vec<Finding>> {
        self.read_start(record, params)
    }

    fn key(&self, st: &State) -> u64 {
        st.key
    }

    fn view(&self, st: &State) -> crate::view::BoardView {
        self.board_view(st)
    }

    crate::rules::claim_rules!();

    /// The position as a `FEN` tag; the positions before it, which the repetition rules
    /// count, are not carried (a note says so when there were any). None once a den is
    /// entered (the game is over and a `FEN` may not put a piece in a den).
    fn write_start(&self, st: &State) -> Option<crate::rules::StartText> {
        if st.den_entered.is_some() {
            return None; // a FEN may not put a piece in a den
        }
        let mut notes = Vec::new();
        if st.history.plies() > 0 {
            let (a, b) = (
                st.history.start(),
                st.history.start() + st.history.plies() - 1,
            );
            let which = if a == b {
                format!("after ply {a}")
            } else {
                format!("after plies {a} to {b}")
            };
            notes.push(format!(
                "the earlier positions ({which}) are not carried: the repetition rule and the threefold draw count occurrences from this start"
            ));
        }
        Some(crate::rules::StartText {
            tags: vec![("FEN".into(), fen(&st.board, st.to_move))],
            setups: Vec::new(),
            notes,
        })
    }

    /// Decode, legality (movement and capture rules, the capture mark, the annotation), apply;
    /// the repetition rules report what the move did (`Jungle::repetition_findings`).
    fn play(&self, st: &mut State, mv: &MoveRecord, number: u32) -> Result<Applied, Finding> {
        let nth = number - st.history.start();
        coords::one_move_turn(mv, (number, nth), RULE)?;
        let off = |from: bool| self.explain(st, mv, number, Illegal::OffBoard(from));
        let (from, to, mark) = coords::read(&GEOMETRY, mv, number, &UNREADABLE, off)?;
        let side = st.to_move;
        let target = st.board[to as usize];
        let piece = self
            .check_move(st, from, to)
            .map_err(|why| self.explain(st, mv, number, why))?;
        if mark && target.is_none() {
            let why = Illegal::NothingToCapture(from, to);
            return Err(self.explain(st, mv, number, why));
        }
        self.check_annotation(st, mv, number, (piece.kind, target.map(|t| t.kind)))?;
        let last = st.last_moved;
        let made = self.make_move(st, (from, to), number, mv.span());
        let findings = self.repetition_findings(st, (mv, number), (from, to), &made, last);
        let info = PlyInfo {
            number,
            side,
            span: mv.span(),
            from,
            to,
            piece: made.piece.id,
            capture: made.captured.is_some(),
            key: st.key,
        };
        Ok(Applied { info, findings })
    }

    fn outcome(&self, st: &State, last: u32) -> Option<Outcome> {
        if let Some(winner) = st.den_entered {
            return Some(Outcome {
                result: winner.wins(),
                reason: EndReason::DenEntered,
                ply: last,
            });
        }
        if self.has_allowed_move(st) {
            return None;
        }
        Some(Outcome {
            result: st.to_move.other().wins(),
            reason: EndReason::NoLegalMove,
            ply: last,
        })
    }
}
