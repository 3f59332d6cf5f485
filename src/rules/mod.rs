//! Rules stage: a [`GameRecord`] in, a [`Replay`] out.
//!
//! Each game family implements [`Rules`] (one struct per family, a small trait); [`GameId`]
//! picks the family at run time from the `Game` tag. The generic driver [`replay`] does what is
//! the same for every game: it feeds the plies to the engine in order, stops at the first move
//! the rules make impossible (the rest of the game is unchecked, and the finding says so), and
//! reports `moves-after-end` when the record goes on after the game ended on the board.

pub mod annotation;
pub mod claims;
pub mod coords;
pub mod params;
pub mod tree;

pub use params::{Overrides, Parameters, RepetitionMode, TwoSquares};
pub use tree::{LineReplay, TreeReplay};

use crate::finding::{Code, Finding};
use crate::record::{GameRecord, MoveRecord};
use crate::rulebook::Rule;
pub use crate::types::{nth, ordinal, EndReason, GameId, RecordedResult, Side, Span};
use crate::view::BoardView;
pub use claims::{Answer, Claim, ClaimContext, Trial, Trials, Tried};
use serde::Serialize;

/// How a game ended on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Outcome {
    /// The result the moves give.
    pub result: RecordedResult,
    /// Why.
    pub reason: EndReason,
    /// The last ply played (1-based; 0 when the start position already ends the game).
    pub ply: u32,
}

/// What one ply did, in terms every history checker understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyInfo {
    /// 1-based ply number.
    pub number: u32,
    /// Who moved.
    pub side: Side,
    /// The move's bytes in the log.
    pub span: Span,
    /// From-square.
    pub from: u8,
    /// To-square (where the piece ended up, or where it attacked).
    pub to: u8,
    /// A number that identifies the moving piece for the whole game.
    pub piece: u16,
    /// True when the move attacked or captured (something left the board).
    pub capture: bool,
    /// The position key after the ply (placement, identities, side to move).
    pub key: u64,
}

/// The result of replaying one record.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    /// The ruleset, when known.
    pub game: Option<GameId>,
    /// Parameters in force.
    pub parameters: Parameters,
    /// The plies that were applied, in order.
    pub plies: Vec<PlyInfo>,
    /// Position key of the start position.
    pub start_key: u64,
    /// The ply after which the start position stands: 0 for a game from its start, a
    /// `FromPly` tag's value for a log taken up later ([`start_ply`]); the first ply replayed
    /// is `start_ply + 1`.
    pub start_ply: u32,
    /// How the game ended on the board, if it did.
    pub outcome: Option<Outcome>,
    /// Everything found while replaying, in ply order.
    pub findings: Vec<Finding>,
    /// True when the replay stopped early (illegal move, unreadable move): later plies
    /// are unchecked.
    pub stopped: bool,
}

/// What an engine reports about one applied ply.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The history-independent facts of the ply.
    pub info: PlyInfo,
    /// Non-fatal findings the ply raised (the move is still applied).
    pub findings: Vec<Finding>,
}

/// A start position as a native log writes it (docs/log-format.md, positions): its tags, its
/// setup sections, and what the position cannot carry of the game before it. `convert
/// --from-ply` and `show --log` write it; reading it back gives the same position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartText {
    /// Tags as (name, value), in the order written.
    pub tags: Vec<(String, String)>,
    /// Setup sections: the side word and the rows, each (rank as written, one character per
    /// square from the first file).
    pub setups: Vec<(String, Vec<(u32, String)>)>,
    /// What the game before the position holds that a fresh start does not carry (a
    /// two-squares run or a repetition in progress), one sentence each.
    pub notes: Vec<String>,
}

/// A record's moves in another notation ([`Rules::rewrite`]): every line's moves (index 0
/// the main line, `n` the variation `variations[n - 1]`) and the `Format` value naming it.
pub type Rewritten = (Vec<Vec<String>>, &'static str);

/// One game family's rules. An engine never prints and never reads files: it validates the
/// start from the record, then applies plies one by one.
pub trait Rules {
    /// Everything the engine needs between plies (board, side to move, knowledge, history).
    /// Cloned to try a move without playing it (`arbiter claim --move`); a copy is a branch
    /// point of a tree replay ([`tree`]) for engines that cannot take a ply back.
    type State: Clone;

    /// Builds the start position from the record's setups and position tags. All setup
    /// problems are reported at once (`setup-invalid`); `Err` means the game cannot start.
    /// Warnings (e.g. `setup-unusual`) go to `findings`.
    fn start(
        &self,
        record: &GameRecord,
        params: &Parameters,
        findings: &mut Vec<Finding>,
    ) -> Result<Self::State, Vec<Finding>>;

    /// The position key of the current state.
    fn key(&self, state: &Self::State) -> u64;

    /// Applies ply `number` (1-based). `Err` is the finding that stops the replay
    /// (`illegal-move`, or `parse-error` for a move that cannot be read); the state is then
    /// left unchanged.
    fn play(
        &self,
        state: &mut Self::State,
        mv: &MoveRecord,
        number: u32,
    ) -> Result<Applied, Finding>;

    /// Whether the game has ended on the board after the last ply (`last` = its number, 0 at
    /// the start).
    fn outcome(&self, state: &Self::State, last: u32) -> Option<Outcome>;

    /// [`Rules::outcome`] as far as it is known without searching for a legal move: an engine
    /// whose checkmate and stalemate take a search may answer `None` for a position that has
    /// none. [`replay`] asks this after every ply and [`Rules::outcome`] only where the answer
    /// can differ: before a ply that cannot be played and after the last ply (a ply that can
    /// be played shows that its position had a legal move). By default the same as
    /// [`Rules::outcome`].
    fn settled_outcome(&self, state: &Self::State, last: u32) -> Option<Outcome> {
        self.outcome(state, last)
    }

    /// The position as the arbiter sees it, for `arbiter show` and `check --show`: board
    /// size and coordinates, terrain per square, every piece with its identity and which
    /// player knows that identity (`PieceView::known_to`: from the state's own knowledge,
    /// e.g. Stratego's `revealed`, Spionage's `unmasked`), side to move, pieces lost per side
    /// and any captured-piece score. Ply number, last move, outcome and viewer are left at
    /// their defaults: [`crate::games::replay_game`]'s caller fills them; [`BoardView::seen_by`] hides what
    /// one player does not know. Never fails: every state has a picture.
    fn view(&self, state: &Self::State) -> BoardView;

    /// The ruleset this engine judges.
    fn game(&self) -> GameId;

    /// The ruleset's default parameters: a field is `Some` exactly when the ruleset has that
    /// parameter (docs/log-format.md, parameter tags).
    fn default_parameters(&self) -> Parameters;

    /// The `unsupported-game` finding for a record of this ruleset that asks for a variant
    /// arbiter does not judge (small Spionage, rulings §2), if it does.
    fn refuse(&self, _record: &GameRecord) -> Option<Finding> {
        None
    }

    /// True when the engine can take plies back ([`Rules::play_undoable`], [`Rules::undo`]):
    /// a tree replay then walks every line of a record with one state, in time linear in the
    /// plies of the tree. False by default: the tree replay copies the state where a line
    /// branches off instead (a copy costs the state's size).
    fn can_undo(&self) -> bool {
        false
    }

    /// [`Rules::play`], keeping in `state` what [`Rules::undo`] needs to take the ply back
    /// when it is applied. Engines that cannot undo only play.
    fn play_undoable(
        &self,
        state: &mut Self::State,
        mv: &MoveRecord,
        number: u32,
    ) -> Result<Applied, Finding> {
        self.play(state, mv, number)
    }

    /// Takes back the last ply [`Rules::play_undoable`] applied (and not taken back yet),
    /// leaving `state` as it was before that ply. Only called when [`Rules::can_undo`].
    fn undo(&self, _state: &mut Self::State) {}

    /// Findings only the finished replay shows (Veldslag's no-capture thresholds, rulings
    /// §1.6); none by default.
    fn after_replay(&self, _replay: &Replay) -> Vec<Finding> {
        Vec::new()
    }

    /// The moves of every line of the record (index 0 the main line, `n` the variation
    /// `variations[n - 1]`) written in `notation` (`iccs`, `wxf`, `chinese`), with the
    /// `Format` tag value that names it, for `convert`; `None` when the ruleset has no such
    /// notation, `Err` with the finding of a move that cannot be read.
    fn rewrite(
        &self,
        _record: &GameRecord,
        _params: &Parameters,
        _notation: &str,
    ) -> Option<Result<Rewritten, Finding>> {
        None
    }

    /// The position `state` as the start of a native log ([`StartText`]; a `FromPly` tag is
    /// the caller's); `None` when the ruleset cannot write one.
    fn write_start(&self, _state: &Self::State) -> Option<StartText> {
        None
    }

    /// The claims a player of this ruleset can make (docs/claims.md); none by default.
    fn claims(&self) -> &'static [Claim] {
        &[]
    }

    /// Answers `claim` in the judged game `ctx`; `None` when the ruleset has no such claim.
    fn answer(&self, _claim: Claim, _ctx: &ClaimContext) -> Option<Answer> {
        None
    }

    /// Every move the side to move could make in `state` by the movement rules alone, history
    /// rules not applied (two-squares, chase, Jungle's repetition, Spionage's no-return), as
    /// the log writes a move, for `arbiter claim --moves`; none by default.
    fn board_moves(&self, _state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// The turn ([`MoveRecord::turn`], 0-based) of the ply that follows `played` plies in
    /// `state`: `played` where a turn is one ply.
    fn next_turn(&self, _state: &Self::State, played: u32) -> usize {
        played as usize
    }

    /// True when `play` refused `mv` in `state` for a history rule that it reports as an
    /// illegal move (Spionage's no-return, rulings §2), not for the movement rules.
    fn forbidden_by_history(&self, _state: &Self::State, _mv: &MoveRecord) -> bool {
        false
    }
}

/// Inside an `impl Rules for Engine`: the claim methods, forwarded to the engine's own
/// `claim_list`, `answer_claim` and `board_move_texts` (each game's `claim.rs`).
macro_rules! claim_rules {
    () => {
        fn claims(&self) -> &'static [$crate::rules::Claim] {
            self.claim_list()
        }
        fn answer(
            &self,
            claim: $crate::rules::Claim,
            ctx: &$crate::rules::ClaimContext,
        ) -> Option<$crate::rules::Answer> {
            self.answer_claim(claim, ctx)
        }
        fn board_moves(&self, st: &Self::State) -> Vec<String> {
            self.board_move_texts(st)
        }
    };
}
pub(crate) use claim_rules;

/// What the stages outside the games ask of any engine, object-safe: every [`Rules`] is one,
/// and `crate::games::engine` picks it for a ruleset.
pub trait Engine: Send + Sync {
    /// [`Rules::game`].
    fn game(&self) -> GameId;
    /// [`Rules::default_parameters`].
    fn default_parameters(&self) -> Parameters;
    /// [`Rules::refuse`].
    fn refuse(&self, record: &GameRecord) -> Option<Finding>;
    /// Replays `record` ([`replay_observed`]); `observe` gets, for the start (`None`) and
    /// every applied ply, a function that draws the arbiter's [`BoardView`] of that state
    /// (called only when wanted, so a plain replay draws nothing).
    fn replay(
        &self,
        record: &GameRecord,
        params: &Parameters,
        observe: &mut ViewObserver,
    ) -> Replay;
    /// [`Rules::after_replay`].
    fn after_replay(&self, replay: &Replay) -> Vec<Finding>;
    /// Replays the main line and every variation of `record` ([`tree::replay_tree`]).
    fn replay_tree(&self, record: &GameRecord, params: &Parameters) -> TreeReplay;
    /// [`Rules::rewrite`].
    fn rewrite(
        &self,
        record: &GameRecord,
        params: &Parameters,
        notation: &str,
    ) -> Option<Result<Rewritten, Finding>>;
    /// The position after ply `ply` of `record` (its start: the record's own start ply) as the
    /// start of a native log ([`Rules::write_start`]), with a `FromPly` tag when `ply` is not
    /// 0; `None` when the replay never reaches that position (the ply is not played, the game
    /// ended or the replay stopped before it) or the ruleset cannot write one.
    fn start_after(
        &self,
        _record: &GameRecord,
        _params: &Parameters,
        _ply: u32,
    ) -> Option<StartText> {
        None
    }
    /// [`Rules::claims`].
    fn claims(&self) -> &'static [Claim];
    /// [`Rules::answer`].
    fn answer(&self, claim: Claim, ctx: &ClaimContext) -> Option<Answer>;
    /// [`try_after`]: the moves `only` (or every board move) tried after ply `after`.
    fn try_moves(
        &self,
        record: &GameRecord,
        params: &Parameters,
        after: u32,
        only: Option<&str>,
    ) -> Option<Trials>;
}

impl<R: Rules + Send + Sync> Engine for R {
    fn game(&self) -> GameId {
        Rules::game(self)
    }
    fn default_parameters(&self) -> Parameters {
        Rules::default_parameters(self)
    }
    fn refuse(&self, record: &GameRecord) -> Option<Finding> {
        Rules::refuse(self, record)
    }
    fn replay(
        &self,
        record: &GameRecord,
        params: &Parameters,
        observe: &mut ViewObserver,
    ) -> Replay {
        let mut replay = replay_observed(self, record, params, |info, st| {
            observe(info, &|| self.view(st))
        });
        replay.game = Some(Rules::game(self));
        replay
    }
    fn after_replay(&self, replay: &Replay) -> Vec<Finding> {
        Rules::after_replay(self, replay)
    }
    fn replay_tree(&self, record: &GameRecord, params: &Parameters) -> TreeReplay {
        let mut t = tree::replay_tree(self, record, params);
        t.main.game = Some(Rules::game(self));
        t
    }
    fn rewrite(
        &self,
        record: &GameRecord,
        params: &Parameters,
        notation: &str,
    ) -> Option<Result<Rewritten, Finding>> {
        Rules::rewrite(self, record, params, notation)
    }
    fn start_after(&self, record: &GameRecord, params: &Parameters, ply: u32) -> Option<StartText> {
        let mut start = None;
        replay_observed(self, record, params, |info, st| {
            let at = info.map_or_else(|| start_ply(record).unwrap_or(0), |i| i.number);
            if at == ply {
                start = self.write_start(st);
            }
        });
        let mut start = start?;
        if ply > 0 {
            start.tags.push(("FromPly".into(), ply.to_string()));
        }
        Some(start)
    }
    fn claims(&self) -> &'static [Claim] {
        Rules::claims(self)
    }
    fn answer(&self, claim: Claim, ctx: &ClaimContext) -> Option<Answer> {
        Rules::answer(self, claim, ctx)
    }
    fn try_moves(
        &self,
        record: &GameRecord,
        params: &Parameters,
        after: u32,
        only: Option<&str>,
    ) -> Option<Trials> {
        try_after(self, record, params, after, only)
    }
}

/// The state after ply `ply` of `record` (0: the start), from one replay of its first `ply`
/// plies, and the replay; `None` when the replay does not reach it.
pub fn state_after<R: Rules>(
    rules: &R,
    record: &GameRecord,
    params: &Parameters,
    ply: u32,
) -> Option<(R::State, Replay)> {
    // A log taken up after ply S (FromPly) numbers its first move S + 1.
    let start = start_ply(record).unwrap_or(0);
    let head = record.head(ply.saturating_sub(start) as usize);
    let mut state = None;
    let replay = replay_observed(rules, &head, params, |info, st| {
        if info.map_or(start, |i| i.number) == ply {
            state = Some(st.clone());
        }
    });
    Some((state?, replay))
}

/// Tries `only` (or else every move of [`Rules::board_moves`]) in the position after ply
/// `after` of `record`, each on a copy of the state reached by one replay (linear in the game,
/// whatever the number of moves tried); `None` when the replay does not reach the ply.
pub fn try_after<R: Rules>(
    rules: &R,
    record: &GameRecord,
    params: &Parameters,
    after: u32,
    only: Option<&str>,
) -> Option<Trials> {
    let (state, replay) = state_after(rules, record, params, after)?;
    let turn = rules.next_turn(&state, after);
    let mut trials = Trials {
        after,
        ended: replay.outcome.clone(),
        turn,
        moves: Vec::new(),
    };
    if trials.ended.is_some() {
        return Some(trials);
    }
    let texts = match only {
        Some(m) => vec![m.to_string()],
        None => rules.board_moves(&state),
    };
    for text in texts {
        let mv = MoveRecord::unlocated(&text, turn);
        let trial = try_one(rules, &state, &mv, after + 1);
        trials.moves.push(Tried { text, trial });
    }
    Some(trials)
}

/// Plays `mv` as ply `number` on a copy of `state` and says what it would do.
fn try_one<R: Rules>(rules: &R, state: &R::State, mv: &MoveRecord, number: u32) -> Trial {
    let mut st = state.clone();
    match rules.play(&mut st, mv, number) {
        Err(f) if rules.forbidden_by_history(state, mv) => Trial::Forbidden(f),
        Err(f) => Trial::Refused(f),
        Ok(applied) => {
            let forbidding = applied.findings.iter().position(|f| {
                f.severity() == crate::finding::Severity::Error && f.verdict.is_none()
            });
            match forbidding {
                Some(i) => Trial::Forbidden(applied.findings[i].clone()),
                None => Trial::Allowed {
                    ends: rules.outcome(&st, number),
                    findings: applied.findings,
                },
            }
        }
    }
}

/// Replays `record` with `rules`: start, every ply, the end, `moves-after-end`.
pub fn replay<R: Rules>(rules: &R, record: &GameRecord, params: &Parameters) -> Replay {
    replay_observed(rules, record, params, |_, _| {})
}

/// [`replay`], calling `observe` with every state the game passes through: once with `None`
/// after the start position is built, then after every applied ply with that ply's facts.
/// Refused plies and plies after the end are not observed (the state does not change). This
/// is the one replay driver: `arbiter show` and `check --show` read positions through it.
pub fn replay_observed<R: Rules>(
    rules: &R,
    record: &GameRecord,
    params: &Parameters,
    mut observe: impl FnMut(Option<&PlyInfo>, &R::State),
) -> Replay {
    let mut out = Replay {
        parameters: params.clone(),
        ..Replay::default()
    };
    let started = start_ply(record).map_err(|f| vec![f]).and_then(|base| {
        out.start_ply = base;
        rules.start(record, params, &mut out.findings)
    });
    let mut state = match started {
        Ok(s) => s,
        Err(errors) => {
            out.findings.extend(errors);
            out.stopped = true;
            return out;
        }
    };
    out.start_key = rules.key(&state);
    if out.parameters.first_move.is_some() {
        // The side the start position gives the move (a Jungle FEN may give it to Blue):
        // what the report says is the side that moved first.
        out.parameters.first_move = Some(rules.view(&state).to_move);
    }
    out.outcome = rules.outcome(&state, out.start_ply);
    // One allocation for the plies, not a dozen as the list grows.
    out.plies.reserve_exact(record.moves.len());
    observe(None, &state);
    for (i, mv) in record.moves.iter().enumerate() {
        let number = out.start_ply + i as u32 + 1;
        if let Some(end) = &out.outcome {
            out.findings
                .push(moves_after_end(&record.moves[i..], number, end));
            break;
        }
        match rules.play(&mut state, mv, number) {
            Ok(applied) => {
                // Most plies find nothing: an empty list is not walked (nor its iterator dropped).
                if !applied.findings.is_empty() {
                    out.findings.extend(applied.findings);
                }
                observe(Some(&applied.info), &state);
                out.plies.push(applied.info);
                out.outcome = rules.settled_outcome(&state, number);
            }
            Err(f) => {
                // A position without a legal move ended the game before this ply.
                out.outcome = rules.outcome(&state, number - 1);
                match &out.outcome {
                    Some(end) => {
                        out.findings
                            .push(moves_after_end(&record.moves[i..], number, end))
                    }
                    None => refused(&mut out, f, record.moves.len() - i - 1),
                }
                return out;
            }
        }
    }
    if out.outcome.is_none() {
        out.outcome = rules.outcome(&state, out.start_ply + record.moves.len() as u32);
    }
    out
}

/// Ends a replay at a ply the rules refuse, `remaining` plies before the record's end.
fn refused(out: &mut Replay, mut f: Finding, remaining: usize) {
    note_unchecked(&mut f, remaining, "game", 0);
    out.findings.push(f);
    out.stopped = true;
}

/// The largest `FromPly` value: plies beyond it would not fit the ply numbers.
pub const MAX_START_PLY: u32 = 1_000_000_000;

/// The ply after which `record`'s start position stands (docs/log-format.md, positions): the
/// value of its `FromPly` tag, 0 without one; the first move of the movetext is ply
/// `start_ply + 1`. A value that is not a number from 0 to [`MAX_START_PLY`] is `setup-invalid`.
pub fn start_ply(record: &GameRecord) -> Result<u32, Finding> {
    let Some(tag) = record.tag("FromPly") else {
        return Ok(0);
    };
    let text = tag.value.value.trim();
    match text.parse::<u32>() {
        Ok(n) if n <= MAX_START_PLY && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(Finding::new(
            Code::SetupInvalid,
            tag.value.span,
            format!(
                "`{}` is not a ply number",
                crate::finding::excerpt(&tag.value.value)
            ),
            Rule::LogPositions,
        )
        .label("expected the number of plies played before the start position")
        .help(format!(
            "FromPly is a number from 0 to {MAX_START_PLY}: the first move of the log is the ply after it"
        ))),
    }
}

/// The `moves-after-end` finding for `rest`, the moves of a line from ply `number` on, played
/// after the game ended (`end`).
pub(crate) fn moves_after_end(rest: &[MoveRecord], number: u32, end: &Outcome) -> Finding {
    let span = match (rest.first(), rest.last()) {
        (Some(a), Some(b)) => a.span().join(b.span()),
        _ => Span::default(),
    };
    let n = rest.len();
    Finding::new(
        Code::MovesAfterEnd,
        span,
        format!(
            "{n} {} after the game ended on ply {}",
            if n == 1 { "move" } else { "moves" },
            end.ply
        ),
        Rule::MovesAfterEnd,
    )
    .at_ply(number)
    .label(format!("the game ended ({}) before this", end.reason))
    .help("the record goes on after the game was decided; cut it at the end or correct the earlier moves")
}

/// Adds to the help of the finding that stopped a replay what it leaves unchecked: the
/// `remaining` later plies of this `what` (`game`, `line`) and the `lines` variations that
/// branch off after it.
pub(crate) fn note_unchecked(f: &mut Finding, remaining: usize, what: &str, lines: usize) {
    let mut note = match remaining {
        0 => String::new(),
        1 => format!("the replay stops here: the 1 later ply of this {what} is unchecked"),
        n => format!("the replay stops here: the {n} later plies of this {what} are unchecked"),
    };
    if lines > 0 {
        let (v, branch, are) = match lines {
            1 => ("variation", "branches", "is"),
            _ => ("variations", "branch", "are"),
        };
        if note.is_empty() {
            note = format!(
                "the replay stops here: {lines} {v} that {branch} off after it {are} unchecked"
            );
        } else {
            note.push_str(&format!(
                ", and so {are} {lines} {v} that {branch} off after it"
            ));
        }
    }
    if note.is_empty() {
        return;
    }
    f.help = Some(match f.help.take() {
        Some(h) => format!("{h}; {note}"),
        None => note,
    });
}

/// What [`Engine::replay`] calls for the start (`None`) and every applied ply: the ply's facts and
/// a function that draws the arbiter's [`BoardView`] of the state after it.
pub type ViewObserver<'a> = dyn FnMut(Option<&PlyInfo>, &dyn Fn() -> BoardView) + 'a;
