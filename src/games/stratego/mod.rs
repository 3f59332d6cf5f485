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
pub mod pieces;
pub mod two_squares;
mod view;

use crate::finding::{excerpt, Code, Finding};
use crate::geometry::{zobrist, Geometry, Square, MAX_SQUARES, ORTHOGONAL};
use crate::record::{GameRecord, MoveRecord};
use crate::rulebook::Rule;
use crate::rules::{
    annotation, Applied, GameId, Outcome, Parameters, PlyInfo, Replay, Rules, TwoSquares,
};
use crate::types::EndReason;
use crate::types::Side;
use crate::types::{RecordedResult, Span};
use chase::Chase;
pub use pieces::{Kind, Ruleset, KINDS};

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
    /// The span of every ply played so far (index = ply - 1), for labels on earlier plies.
    pub ply_spans: Vec<Span>,
}

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
        zobrist(((sq as u64) << 8) | ((p.side.index() as u64) << 5) | p.kind.index() as u64)
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
        let g = self.geometry();
        let side = st.to_move;
        let mut out = Vec::new();
        for s in 0..g.squares() as Square {
            let Some(p) = st.board[s as usize] else {
                continue;
            };
            if p.side != side || !p.kind.movable() {
                continue;
            }
            for &d in &ORTHOGONAL {
                let mut t = s;
                while let Some(n) = g.step(t, d) {
                    if self.is_lake(n) {
                        break;
                    }
                    match st.board[n as usize] {
                        Some(q) => {
                            if q.side != side {
                                out.push((s, n));
                            }
                            break;
                        }
                        None => out.push((s, n)),
                    }
                    if p.kind != Kind::Scout {
                        break;
                    }
                    t = n;
                }
            }
        }
        out
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
    pub fn consequences(&self, st: &State, from: Square, to: Square) -> (u64, Vec<u16>) {
        let g = self.geometry();
        let Some(p) = st.board[from as usize] else {
            return (st.key, Vec::new());
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
        let mut threatens = Vec::new();
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
        self.legal_moves(st).into_iter().any(|(from, to)| {
            let Some(p) = st.board[from as usize] else {
                return false;
            };
            if st.two_squares.check(&g, side, p.id, from, to).is_some() {
                return false;
            }
            if st.chase.state.is_some() {
                let (key, threatens) = self.consequences(st, from, to);
                if st.chase.forbids(side, p.id, to, &threatens, key) {
                    return false;
                }
            }
            true
        })
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

    fn illegal(&self, span: Span, number: u32, message: String, label: &str) -> Finding {
        Finding::new(Code::IllegalMove, span, message, self.ruleset.source)
            .at_ply(number)
            .label(label.to_string())
    }

    /// Reads both setups (rulings §1.1/§1.2: counts, zones, lakes); every problem at once.
    fn read_setups(
        &self,
        record: &GameRecord,
    ) -> Result<[Option<Piece>; MAX_SQUARES], Vec<Finding>> {
        let r = &self.ruleset;
        let g = r.geometry;
        let mut errors = Vec::new();
        let mut board = [None; MAX_SQUARES];
        let rule = r.source;
        let mut next_id = 0u16;
        let letters = "F B S 2 3 4 5 6 7 8 9 X, and . for an empty square";
        for side in [Side::First, Side::Second] {
            let word = self.side_word(side);
            let blocks: Vec<_> = record
                .setups
                .iter()
                .filter(|b| b.side.value == word)
                .collect();
            let zone = r.zones[side.index()].clone();
            let zone_text = format!("ranks {} to {}", zone.start() + 1, zone.end() + 1);
            let Some(block) = blocks.first() else {
                let at = record
                    .tags
                    .last()
                    .map_or(Span::new(record.span.start, record.span.start), |t| t.span);
                errors.push(
                    Finding::new(
                        Code::SetupInvalid,
                        at,
                        format!("no setup for {}", self.side_name(side)),
                        rule,
                    )
                    .label(format!(
                        "a `setup {word}` section was expected after the tags"
                    ))
                    .help(format!(
                        "write `setup {word}` and one row per rank of {zone_text}, e.g. `{} {}`",
                        zone.end() + 1,
                        ".".repeat(g.width as usize)
                    )),
                );
                continue;
            };
            for extra in blocks.iter().skip(1) {
                errors.push(
                    Finding::new(
                        Code::SetupInvalid,
                        extra.side.span,
                        format!("a second setup for {}", self.side_name(side)),
                        rule,
                    )
                    .label("duplicate setup section")
                    .with_label(block.side.span, "first setup here")
                    .help("give each side's setup once"),
                );
            }
            // Pieces of this ruleset the rows name, wherever the row stands, and the squares
            // whose piece cannot be known (unknown letters, gaps where the zone must be full,
            // short or missing rows). A surplus is always a problem of its own; a shortage is
            // reported only when no such square could explain it (its own finding says why).
            let mut counts = [0usize; 12];
            let mut unknown_squares = 0usize;
            let mut seen_rank = [false; 16];
            for row in &block.rows {
                let mut len = 0;
                for c in row.cells.value.chars() {
                    len += 1;
                    match Kind::from_letter(c) {
                        Some(k) if r.has(k) => counts[k.index()] += 1,
                        None if c == '.' && !r.fill_zone => {}
                        _ => unknown_squares += 1,
                    }
                }
                unknown_squares += (g.width as usize).saturating_sub(len);
                let rank_written = row.rank.value;
                let rank0 = rank_written.wrapping_sub(1);
                if rank_written == 0 || !zone.contains(&(rank0.min(255) as u8)) || rank0 > 255 {
                    errors.push(
                        Finding::new(
                            Code::SetupInvalid,
                            row.rank.span,
                            format!(
                                "rank {rank_written} is outside {}'s setup zone",
                                self.side_name(side)
                            ),
                            rule,
                        )
                        .label(format!("{} sets up on {zone_text}", self.side_name(side)))
                        .help("label each row with a rank of the own setup zone"),
                    );
                    continue;
                }
                if seen_rank[rank0 as usize] {
                    errors.push(
                        Finding::new(
                            Code::SetupInvalid,
                            row.rank.span,
                            format!("rank {rank_written} is given twice"),
                            rule,
                        )
                        .label("second row for this rank")
                        .help("give each rank of the setup zone once"),
                    );
                    continue;
                }
                seen_rank[rank0 as usize] = true;
                let n = row.cells.value.chars().count();
                if n != g.width as usize {
                    errors.push(
                        Finding::new(
                            Code::SetupInvalid,
                            row.cells.span,
                            format!(
                                "rank {rank_written} has {n} squares, the board has {}",
                                g.width
                            ),
                            rule,
                        )
                        .label(format!("expected {} characters, one per file", g.width))
                        .help(format!("letters: {letters}")),
                    );
                    continue;
                }
                for (file, (off, c)) in row.cells.value.char_indices().enumerate() {
                    let cspan = Span::new(
                        row.cells.span.start + off,
                        row.cells.span.start + off + c.len_utf8(),
                    );
                    let sq = g
                        .square(file as i32, rank0 as i32)
                        .expect("zone ranks and checked width are on the board");
                    if c == '.' {
                        if r.fill_zone {
                            errors.push(
                                Finding::new(
                                    Code::SetupInvalid,
                                    cspan,
                                    format!(
                                        "empty square {} in {}'s setup",
                                        g.name(sq),
                                        self.side_name(side)
                                    ),
                                    rule,
                                )
                                .label("every square of the setup zone must hold a piece")
                                .help(format!("{} fills all of {zone_text}", r.game.as_str())),
                            );
                        }
                        continue;
                    }
                    let Some(kind) = Kind::from_letter(c) else {
                        errors.push(
                            Finding::new(
                                Code::SetupInvalid,
                                cspan,
                                format!("unknown piece letter `{}`", c.escape_debug()),
                                rule,
                            )
                            .label("not a piece letter")
                            .help(format!("letters: {letters}")),
                        );
                        continue;
                    };
                    if !r.has(kind) {
                        errors.push(
                            Finding::new(
                                Code::SetupInvalid,
                                cspan,
                                format!("{} has no {}", r.game.as_str(), kind.name()),
                                rule,
                            )
                            .label(format!("`{c}` is a {}", kind.name()))
                            .help("see the ruleset's piece table in docs/log-format.md"),
                        );
                        continue;
                    }
                    if self.is_lake(sq) {
                        errors.push(
                            Finding::new(
                                Code::SetupInvalid,
                                cspan,
                                format!("piece on the lake {}", g.name(sq)),
                                rule,
                            )
                            .label("lakes stay empty"),
                        );
                        continue;
                    }
                    board[sq as usize] = Some(Piece {
                        side,
                        kind,
                        id: next_id,
                        revealed: false,
                    });
                    next_id += 1;
                }
            }
            if r.fill_zone {
                let missing: Vec<String> = zone
                    .clone()
                    .filter(|&k| !seen_rank[k as usize])
                    .map(|k| (k + 1).to_string())
                    .collect();
                if !missing.is_empty() {
                    unknown_squares += missing.len() * g.width as usize;
                    errors.push(
                        Finding::new(
                            Code::SetupInvalid,
                            block.side.span,
                            format!(
                                "{}'s setup has no row for rank {}",
                                self.side_name(side),
                                missing.join(", ")
                            ),
                            rule,
                        )
                        .label("incomplete setup")
                        .help(format!("{} fills all of {zone_text}", r.game.as_str())),
                    );
                }
            }
            let wrong: Vec<String> = KINDS
                .iter()
                .filter(|k| {
                    let (have, want) = (counts[k.index()], r.counts[k.index()] as usize);
                    r.has(**k) && (have > want || (have < want && unknown_squares == 0))
                })
                .map(|k| {
                    format!(
                        "{} {} (should be {})",
                        counts[k.index()],
                        k.name(),
                        r.counts[k.index()]
                    )
                })
                .collect();
            if !wrong.is_empty() {
                errors.push(
                    Finding::new(
                        Code::SetupInvalid,
                        block.span,
                        format!(
                            "{}'s setup has the wrong pieces: {}",
                            self.side_name(side),
                            wrong.join(", ")
                        ),
                        rule,
                    )
                    .label("piece counts differ from the ruleset")
                    .help(format!(
                        "{} has {} pieces a side; see docs/log-format.md for the table",
                        r.game.as_str(),
                        r.army_size()
                    )),
                );
            }
        }
        for b in &record.setups {
            if b.side.value != "red" && b.side.value != "blue" {
                errors.push(
                    Finding::new(
                        Code::SetupInvalid,
                        b.side.span,
                        format!(
                            "`{}` is not a side of {}",
                            b.side.value,
                            self.ruleset.game.as_str()
                        ),
                        rule,
                    )
                    .label("expected red or blue"),
                );
            }
        }
        if errors.is_empty() {
            Ok(board)
        } else {
            Err(errors)
        }
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

    crate::claim_rules!();

    /// Veldslag's no-capture thresholds (rulings §1.6).
    fn after_replay(&self, replay: &Replay) -> Vec<Finding> {
        if self.ruleset.game == GameId::Veldslag {
            crate::checks::no_capture::check(&replay.plies)
        } else {
            Vec::new()
        }
    }

    fn start(
        &self,
        record: &GameRecord,
        params: &Parameters,
        _findings: &mut Vec<Finding>,
    ) -> Result<State, Vec<Finding>> {
        let board = self.read_setups(record)?;
        let to_move = params.first_move.unwrap_or(Side::First);
        let mut st = State {
            board,
            to_move,
            key: 0,
            lost: [Vec::new(), Vec::new()],
            flag_lost: None,
            last_move: None,
            two_squares: two_squares::Tracker::new(params.two_squares.map_or(0, |t| t.count())),
            chase: Chase::new(params.more_squares.unwrap_or(false)),
            ply_spans: Vec::new(),
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

    fn play(&self, st: &mut State, mv: &MoveRecord, number: u32) -> Result<Applied, Finding> {
        let g = self.geometry();
        let side = st.to_move;
        let name = self.side_name(side);
        if mv.turn + 1 != number as usize {
            return Err(Finding::new(
                Code::ParseError,
                mv.span,
                "two moves in one turn",
                self.ruleset.source,
            )
            .at_ply(number)
            .label("joined to the previous move by a comma")
            .help("only Spionage plays two moves a turn; separate the moves with a space"));
        }
        let Some(c) = mv.coord() else {
            return Err(Finding::new(
                Code::ParseError,
                mv.text.span,
                format!("`{}` is not a move", excerpt(&mv.text.value)),
                Rule::LogMoves,
            )
            .at_ply(number)
            .label("expected a from-square and a to-square, e.g. a4-a5")
            .help(
                "Stratego moves are written from-to in coordinates: a4-a5, or a4xa5 for an attack",
            ));
        };
        let from = g.square_written(c.from.0, c.from.1);
        let to = g.square_written(c.to.0, c.to.1);
        let board_text = format!(
            "files a-{}, ranks 1-{}",
            (b'a' + g.width - 1) as char,
            g.height
        );
        let Some(from) = from else {
            return Err(self
                .illegal(
                    c.from_span,
                    number,
                    "from-square is off the board".into(),
                    "not a square",
                )
                .help(format!("the board has {board_text}")));
        };
        let Some(to) = to else {
            return Err(self
                .illegal(
                    c.to_span,
                    number,
                    "to-square is off the board".into(),
                    "not a square",
                )
                .help(format!("the board has {board_text}")));
        };
        let Some(piece) = st.board[from as usize] else {
            return Err(self
                .illegal(
                    c.from_span,
                    number,
                    format!("no piece on {}", g.name(from)),
                    "empty square",
                )
                .help(format!(
                    "it is {name}'s move; the move must start on one of {name}'s pieces"
                )));
        };
        if piece.side != side {
            return Err(self
                .illegal(
                    c.from_span,
                    number,
                    format!(
                        "{} holds a {} piece but it is {name}'s move",
                        g.name(from),
                        self.side_name(piece.side)
                    ),
                    "opponent's piece",
                )
                .help(format!(
                    "the sides move in turn; {} moved first in this game",
                    // Odd plies belong to the side that moved first.
                    self.side_name(if number % 2 == 1 { side } else { side.other() })
                )));
        }
        if !piece.kind.movable() {
            return Err(self
                .illegal(
                    c.from_span,
                    number,
                    format!("the {} on {} cannot move", piece.kind.name(), g.name(from)),
                    "never moves",
                )
                .help("Bombs and Flags stay where they were set up"));
        }
        if from == to {
            return Err(self
                .illegal(
                    mv.text.span,
                    number,
                    "a move must change square".into(),
                    "same square",
                )
                .help("a piece moves to another square; a turn cannot be passed"));
        }
        if self.is_lake(to) {
            return Err(self
                .illegal(
                    c.to_span,
                    number,
                    format!("{} is a lake", g.name(to)),
                    "no piece may enter a lake",
                )
                .help("lakes are never entered or crossed"));
        }
        let Some(dir) = g.direction(from, to) else {
            return Err(self
                .illegal(
                    mv.text.span,
                    number,
                    format!("{}-{} is not a straight line", g.name(from), g.name(to)),
                    "not orthogonal",
                )
                .help("pieces move along a file or a rank, never diagonally"));
        };
        let dist = g.distance(from, to);
        if dist > 1 {
            if piece.kind != Kind::Scout {
                return Err(self
                    .illegal(
                        mv.text.span,
                        number,
                        format!("a {} moves one square, not {dist}", piece.kind.name()),
                        "too far",
                    )
                    .help("only a Scout moves more than one square"));
            }
            let mut s = from;
            for _ in 1..dist {
                s = g
                    .step(s, dir)
                    .expect("in-line squares between two board squares");
                if self.is_lake(s) {
                    return Err(self
                        .illegal(
                            mv.text.span,
                            number,
                            format!("the Scout cannot cross the lake at {}", g.name(s)),
                            "lake in the way",
                        )
                        .help("a Scout moves over empty land squares only"));
                }
                if let Some(b) = st.board[s as usize] {
                    return Err(self
                        .illegal(
                            mv.text.span,
                            number,
                            format!(
                                "the Scout cannot pass the {} piece on {}",
                                self.side_name(b.side).to_lowercase(),
                                g.name(s)
                            ),
                            "piece in the way",
                        )
                        .help("a Scout may attack only the piece at the end of a clear line"));
                }
            }
        }
        let target = st.board[to as usize];
        if let Some(t) = target {
            if t.side == side {
                return Err(self
                    .illegal(
                        c.to_span,
                        number,
                        format!("{} holds {name}'s own piece", g.name(to)),
                        "own piece",
                    )
                    .help("a piece moves to an empty square or attacks an enemy piece"));
            }
        } else if c.capture_mark {
            return Err(self
                .illegal(
                    c.to_span,
                    number,
                    format!("marked as an attack but {} is empty", g.name(to)),
                    "nothing to attack",
                )
                .help(format!(
                    "write {}-{} for a move to an empty square",
                    g.name(from),
                    g.name(to)
                )));
        }
        annotation::check_combat(
            mv,
            number,
            piece.kind,
            target.map(|t| t.kind),
            self.ruleset.source,
            "3:B",
        )?;

        // The history rules (§1.4, §1.5) judge the move before it is applied; a violation
        // is reported and the move is still played, so one run shows every violation.
        let mut findings = Vec::new();
        let (key_after, threatens) = self.consequences(st, from, to);
        if let Some(v) = st.two_squares.check(&g, side, piece.id, from, to) {
            let mut f = Finding::new(
                Code::TwoSquaresRule,
                mv.text.span,
                format!(
                    "the {} on {} moves between the same two squares for the {} time in a row",
                    piece.kind.name(),
                    g.name(from),
                    crate::types::nth(v.run.len as usize + 1)
                ),
                Rule::TwoSquares,
            )
            .at_ply(number)
            .label(format!("move {} of the run; the limit is {}", v.run.len + 1, st.two_squares.limit))
            .help(format!(
                "a piece may shuttle between two squares at most {} times in a row; {name} had to move another piece or go elsewhere",
                st.two_squares.limit
            ));
            for p in &v.plies {
                if let Some(sp) = st.ply_spans.get(*p as usize - 1) {
                    f = f.with_label(*sp, format!("ply {p}: part of the run"));
                }
            }
            f = f.with_evidence(v.plies.clone());
            findings.push(f);
        }
        if let Some(v) = st.chase.check(side, piece.id, to, &threatens, key_after) {
            let chased: Vec<String> = v
                .chased
                .iter()
                .filter_map(|id| self.describe_piece(st, *id))
                .collect();
            let mut f = Finding::new(
                Code::MoreSquaresRule,
                mv.text.span,
                format!(
                    "{name} chases {} into a position that already occurred on ply {}",
                    if chased.is_empty() { "the same pieces".to_string() } else { chased.join(" and ") },
                    v.first_ply
                ),
                Rule::MoreSquares,
            )
            .at_ply(number)
            .label("this chasing move repeats a position of the chase")
            .help(format!(
                "the chaser must stop before a position repeats; going straight back to the square the chasing piece just left is allowed. The chase began on ply {}",
                v.began
            ));
            if let Some(sp) = st.ply_spans.get(v.first_ply as usize - 1) {
                f = f.with_label(
                    *sp,
                    format!("ply {}: the position first occurred here", v.first_ply),
                );
            }
            f = f.with_evidence(v.plies.clone());
            findings.push(f);
        }
        let capture = target.is_some();
        self.apply(st, from, to);
        debug_assert_eq!(st.key, key_after);
        st.two_squares.record(&g, side, piece.id, from, to, number);
        st.chase.record(
            side, piece.id, from, to, &threatens, capture, st.key, number,
        );
        st.ply_spans.push(mv.span);
        Ok(Applied {
            info: PlyInfo {
                number,
                side,
                span: mv.span,
                from,
                to,
                piece: piece.id,
                capture,
                key: st.key,
            },
            findings,
        })
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
