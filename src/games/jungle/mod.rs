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
mod view;

use crate::finding::{Code, Finding};
use crate::geometry::{Square, ORTHOGONAL};
use crate::record::{GameRecord, MoveRecord};
use crate::rulebook::Rule;
use crate::rules::{Applied, GameId, Outcome, Parameters, PlyInfo, Rules};
use crate::types::EndReason;
use crate::types::Side;
use crate::types::Span;
pub use board::{
    den_owner, fen, is_water, parse_fen, trap_owner, Board, Kind, Piece, Variant, GEOMETRY, KINDS,
    SEED_VARIANT, SQUARES, START_FEN,
};
pub use history::History;

/// The rule source named by movement and capture findings.
pub const RULE: Rule = Rule::Jungle;
/// The rule source named by `jungle-repetition` findings.
pub const REPETITION_RULE: Rule = Rule::JungleRepetition;
/// The rule source named by `threefold-repetition` findings and claims.
pub const THREEFOLD_RULE: Rule = Rule::JungleThreefold;

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

/// Which part of a move text a rejection points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The from-square.
    From,
    /// The to-square.
    To,
    /// The whole move.
    Whole,
}

/// Why a move breaks the movement or capture rules (rulings §3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    /// Where to point.
    pub part: Part,
    /// The headline, lower case.
    pub message: String,
    /// The primary label.
    pub label: String,
    /// What the rule allows instead.
    pub help: String,
}

fn illegal(part: Part, message: String, label: &str, help: &str) -> Illegal {
    Illegal {
        part,
        message,
        label: label.to_string(),
        help: help.to_string(),
    }
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

    /// Why `attacker` on `from` may not capture `defender` on `to` (`None`: it may), by the
    /// capture rules of rulings §3 and the switches of `variant`. Order: the bank barrier
    /// (switch), the trap rule (a piece on the attacker's own trap is taken by anything), the Rat
    /// in water against the Elephant, then [`Variant::beats`].
    pub fn capture_refusal(
        variant: &Variant,
        attacker: Piece,
        from: Square,
        defender: Piece,
        to: Square,
    ) -> Option<String> {
        if variant.bank_barrier && is_water(from) != is_water(to) {
            return Some(format!(
                "the {} cannot capture across the water's edge (Variant bank-barrier)",
                attacker.kind.name()
            ));
        }
        let trap = trap_owner(to);
        if trap == Some(attacker.side) || (variant.any_trap && trap.is_some()) {
            return None;
        }
        if attacker.kind == Kind::Rat && defender.kind == Kind::Elephant && is_water(from) {
            return Some("the Rat cannot capture the Elephant from the water".to_string());
        }
        if variant.beats(attacker.kind, defender.kind) {
            return None;
        }
        if attacker.kind == Kind::Elephant && defender.kind == Kind::Rat {
            return Some(
                "the Elephant cannot capture the Rat (Variant elephant-spares-rat)".to_string(),
            );
        }
        let own_trap = if trap.is_some() {
            format!(
                " on its own side's trap {} (a trap weakens only the opponent's pieces)",
                GEOMETRY.name(to)
            )
        } else {
            String::new()
        };
        Some(format!(
            "the {} (strength {}) cannot capture the {} (strength {}){own_trap}",
            attacker.kind.name(),
            variant.strength(attacker.kind),
            defender.kind.name(),
            variant.strength(defender.kind)
        ))
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
        let side = st.to_move;
        let mut out = Vec::new();
        for s in 0..SQUARES as Square {
            let Some(p) = st.board[s as usize] else {
                continue;
            };
            if p.side != side {
                continue;
            }
            for &d in &ORTHOGONAL {
                let Some(t) = self.reach(st, s, p.kind, d) else {
                    continue;
                };
                if den_owner(t) == Some(side) {
                    continue;
                }
                match st.board[t as usize] {
                    None => out.push((s, t)),
                    Some(q) if q.side != side => {
                        if Self::capture_refusal(&st.variant, p, s, q, t).is_none() {
                            out.push((s, t));
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        out
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
        st.variant.beats(p.kind, last) && st.history.occurrences(self.key_after(st, mv)).len() >= 2
    }

    /// The legal moves the repetition rule leaves (rulings §3: these decide `no-legal-move`).
    pub fn allowed_moves(&self, st: &State) -> Vec<Move> {
        let mut v = self.legal_moves(st);
        v.retain(|&m| !self.forbidden(st, m));
        v
    }

    /// Checks `from`-`to` for the side to move against the movement and capture rules; the
    /// first broken rule is returned. Agrees with [`Jungle::legal_moves`] (a tested property).
    pub fn check_move(&self, st: &State, from: Square, to: Square) -> Result<(), Illegal> {
        let g = GEOMETRY;
        let side = st.to_move;
        let name = side_name(side);
        let Some(piece) = st.board[from as usize] else {
            return Err(illegal(
                Part::From,
                format!("no piece on {}", g.name(from)),
                "empty square",
                &format!("it is {name}'s move; the move must start on one of {name}'s pieces"),
            ));
        };
        if piece.side != side {
            return Err(illegal(
                Part::From,
                format!(
                    "{} holds a {} piece but it is {name}'s move",
                    g.name(from),
                    side_name(piece.side)
                ),
                "opponent's piece",
                "the sides move in turn",
            ));
        }
        let kind = piece.kind.name();
        if from == to {
            return Err(illegal(
                Part::Whole,
                "a move must change square".into(),
                "same square",
                "a piece moves one square along a file or a rank",
            ));
        }
        let Some(dir) = g.direction(from, to) else {
            return Err(illegal(
                Part::Whole,
                format!("{}-{} is not a straight line", g.name(from), g.name(to)),
                "not orthogonal",
                "pieces move along a file or a rank, never diagonally",
            ));
        };
        let dist = g.distance(from, to);
        if dist == 1 {
            if is_water(to) && piece.kind != Kind::Rat {
                return Err(illegal(
                    Part::To,
                    format!("the {kind} cannot enter the water on {}", g.name(to)),
                    "water",
                    "only the Rat enters water; the Lion and the Tiger jump across a river",
                ));
            }
        } else {
            if !piece.kind.jumps() {
                return Err(illegal(
                    Part::Whole,
                    format!("the {kind} moves one square, not {dist}"),
                    "too far",
                    "only the Lion and the Tiger move further, by jumping across a river",
                ));
            }
            let jump_help = "the Lion and the Tiger jump from a bank straight across the water to the first land square beyond";
            let mut s = from;
            for _ in 1..dist {
                s = g.step(s, dir).expect("squares between two in-line squares");
                if !is_water(s) {
                    return Err(illegal(
                        Part::Whole,
                        format!(
                            "{}-{} is not a river jump: {} is not water",
                            g.name(from),
                            g.name(to),
                            g.name(s)
                        ),
                        "not across a river",
                        jump_help,
                    ));
                }
            }
            if is_water(to) {
                return Err(illegal(
                    Part::To,
                    format!("the {kind} cannot land in the water on {}", g.name(to)),
                    "water",
                    jump_help,
                ));
            }
            let mut s = from;
            for _ in 1..dist {
                s = g.step(s, dir).expect("squares between two in-line squares");
                if let Some(rat) = st.board[s as usize] {
                    let whose = if rat.side == side {
                        "its own".to_string()
                    } else {
                        format!("the {}", side_name(rat.side))
                    };
                    return Err(illegal(
                        Part::Whole,
                        format!(
                            "the {kind}'s jump is blocked by {whose} Rat on {}",
                            g.name(s)
                        ),
                        "Rat in the way",
                        "no jump while a Rat of either colour is on a crossed water square",
                    ));
                }
            }
        }
        if den_owner(to) == Some(side) {
            return Err(illegal(
                Part::To,
                format!("{name} may not enter its own den {}", g.name(to)),
                "own den",
                "a piece never enters its own den; entering the opponent's den wins",
            ));
        }
        match st.board[to as usize] {
            Some(t) if t.side == side => Err(illegal(
                Part::To,
                format!("{} holds {name}'s own {}", g.name(to), t.kind.name()),
                "own piece",
                "a piece moves to an empty square or captures an enemy piece",
            )),
            Some(t) => match Self::capture_refusal(&st.variant, piece, from, t, to) {
                Some(why) => Err(illegal(
                    Part::To,
                    why,
                    "capture not allowed",
                    "a piece captures an equal or weaker one; the Rat captures the Elephant from land; any piece captures an enemy standing on one of the capturer's own traps",
                )),
                None => Ok(()),
            },
            None => Ok(()),
        }
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
        let all = st.history.push(ply, key, span);
        let before = &all[..all.len() - 1];
        let earlier = if before.len() <= 3 {
            before
                .iter()
                .copied()
                .enumerate()
                .map(|(i, p)| (i + 1, p))
                .collect()
        } else {
            vec![
                (1, before[0]),
                (2, before[1]),
                (before.len(), before[before.len() - 1]),
            ]
        };
        Made {
            piece,
            captured,
            forbidden,
            repeats: before.len(),
            earlier,
        }
    }

    /// `f` with a label at each cited earlier occurrence ([`Made::earlier`]), and those
    /// plies as its evidence.
    fn occurrence_labels(&self, st: &State, earlier: &[(usize, u32)], mut f: Finding) -> Finding {
        for &(n, p) in earlier {
            let Some(span) = st.history.span(p) else {
                continue;
            };
            let what = if p == 0 {
                format!("{} occurrence: the start position", history::ordinal(n))
            } else {
                format!("{} occurrence, after ply {p}", history::ordinal(n))
            };
            f = f.with_label(span, what);
        }
        f.with_evidence(earlier.iter().map(|&(_, p)| p).collect())
    }

    fn check_annotation(
        &self,
        mv: &MoveRecord,
        number: u32,
        mover: Kind,
        captured: Option<Kind>,
    ) -> Result<(), Finding> {
        let Some(ann) = mv.annotation() else {
            return Ok(());
        };
        let text = ann.value.trim();
        let letters: Vec<Option<Kind>> = text
            .split(':')
            .map(|p| {
                let mut c = p.chars();
                match (c.next(), c.next()) {
                    (Some(ch), None) => Kind::from_letter(ch),
                    _ => None,
                }
            })
            .collect();
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
            let shown = |k: Option<Kind>| k.map_or("nothing", Kind::name);
            return Err(Finding::new(
                Code::IllegalMove,
                ann.span,
                format!(
                    "the annotation names {}{} but the move is made by the {}{}",
                    a.name(),
                    d.map_or(String::new(), |d| format!(" taking {}", d.name())),
                    mover.name(),
                    d.map_or(String::new(), |_| format!(" taking {}", shown(captured)))
                ),
                RULE,
            )
            .at_ply(number)
            .label("does not match the board")
            .help("correct the move or its annotation"));
        }
        Ok(())
    }

    fn read_start(&self, record: &GameRecord, params: &Parameters) -> Result<State, Vec<Finding>> {
        let mut errors = Vec::new();
        let variant = match Variant::parse(params.variant.as_deref().unwrap_or(SEED_VARIANT)) {
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
        };
        let first_tag = record.tag("FirstMove");
        let first = params.first_move;
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
                (b, first.unwrap_or(Side::First))
            }
            Some(t) => match parse_fen(&t.value.value) {
                Ok((b, side)) => {
                    if let (Some(ft), Some(f)) = (first_tag, first) {
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
                    (b, side)
                }
                Err(problems) => {
                    let v = t.value.span;
                    for p in problems {
                        let at = Span::new(
                            (v.start + p.at.start).min(v.end),
                            (v.start + p.at.end).min(v.end),
                        );
                        errors.push(
                            Finding::new(Code::SetupInvalid, at, p.message, RULE)
                                .label("in the FEN position")
                                .help(format!(
                                    "the FEN is the board from rank 9 down, `/` between ranks, letters R C D W P T L E (upper case Red) and digits for empty squares, then r or b; the start is {START_FEN}"
                                )),
                        );
                    }
                    return Err(errors);
                }
            },
        };
        if errors.is_empty() {
            Ok(self.position(board, side, variant, start_span))
        } else {
            Err(errors)
        }
    }

    /// True when the side to move has a move the rules and the repetition rule allow.
    pub fn has_allowed_move(&self, st: &State) -> bool {
        self.legal_moves(st).iter().any(|&m| !self.forbidden(st, m))
    }
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

    crate::claim_rules!();

    fn play(&self, st: &mut State, mv: &MoveRecord, number: u32) -> Result<Applied, Finding> {
        let g = GEOMETRY;
        let side = st.to_move;
        if mv.turn + 1 != number as usize {
            return Err(
                Finding::new(Code::ParseError, mv.span, "two moves in one turn", RULE)
                    .at_ply(number)
                    .label("joined to the previous move by a comma")
                    .help("only Spionage plays two moves a turn; separate the moves with a space"),
            );
        }
        let Some(c) = mv.coord() else {
            return Err(Finding::new(
                Code::ParseError,
                mv.text.span,
                format!("`{}` is not a move", mv.text.value.escape_debug()),
                Rule::LogMoves,
            )
            .at_ply(number)
            .label("expected a from-square and a to-square, e.g. a3-a4")
            .help("Jungle moves are written from-to: a3-a4, a3xa4 for a capture, b3-b7 for a river jump"));
        };
        let off = |span: Span| {
            Finding::new(Code::IllegalMove, span, "square is off the board", RULE)
                .at_ply(number)
                .label("not a square")
                .help("the Jungle board has files a-g and ranks 1-9")
        };
        let from = g
            .square_written(c.from.0, c.from.1)
            .ok_or_else(|| off(c.from_span))?;
        let to = g
            .square_written(c.to.0, c.to.1)
            .ok_or_else(|| off(c.to_span))?;
        if let Err(e) = self.check_move(st, from, to) {
            let span = match e.part {
                Part::From => c.from_span,
                Part::To => c.to_span,
                Part::Whole => mv.text.span,
            };
            return Err(Finding::new(Code::IllegalMove, span, e.message, RULE)
                .at_ply(number)
                .label(e.label)
                .help(e.help));
        }
        let target = st.board[to as usize];
        if target.is_none() && c.capture_mark {
            return Err(Finding::new(
                Code::IllegalMove,
                c.to_span,
                format!("marked as a capture but {} is empty", g.name(to)),
                RULE,
            )
            .at_ply(number)
            .label("nothing to capture")
            .help(format!(
                "write {}-{} for a move to an empty square",
                g.name(from),
                g.name(to)
            )));
        }
        let mover = st.board[from as usize].map(|p| p.kind);
        self.check_annotation(
            mv,
            number,
            mover.expect("checked move starts on a piece"),
            target.map(|t| t.kind),
        )?;
        let last = st.last_moved;
        let made = self.make_move(st, (from, to), number, mv.span);
        let mut findings = Vec::new();
        if made.forbidden {
            let last = last.map_or("piece", Kind::name);
            let f = Finding::new(
                Code::JungleRepetition,
                mv.span,
                format!(
                    "{}'s {} {}-{} creates a position for the {} time while it could capture the {} that just moved",
                    side_name(side),
                    made.piece.kind.name(),
                    g.name(from),
                    g.name(to),
                    history::ordinal(made.repeats + 1),
                    last
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
                mv.span,
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
        Ok(Applied {
            info: PlyInfo {
                number,
                side,
                span: mv.span,
                from,
                to,
                piece: made.piece.id,
                capture: made.captured.is_some(),
                key: st.key,
            },
            findings,
        })
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
