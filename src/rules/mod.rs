//! Rules stage: a [`GameRecord`] in, a [`Replay`] out.
//!
//! Each game family implements [`Rules`] (one struct per family, a small trait); [`GameId`]
//! picks the family at run time from the `Game` tag. The generic driver [`replay`] does what is
//! the same for every game: it feeds the plies to the engine in order, stops at the first move
//! the rules make impossible (the rest of the game is unchecked, and the finding says so), and
//! reports `moves-after-end` when the record goes on after the game ended on the board.

pub mod annotation;
pub mod jungle;
pub mod spionage;
pub mod stratego;
pub mod xiangqi;

use crate::finding::{Code, Finding};
use crate::record::{GameRecord, MoveRecord};
use crate::rulebook::Rule;
pub use crate::types::{nth, ordinal, EndReason, RecordedResult, Side, Span};
use crate::view::BoardView;
use serde::Serialize;
use std::collections::BTreeMap;

/// The rulesets arbiter knows by name (`log-format.md`: the `Game` tag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameId {
    /// Classic ISF Stratego, 40 pieces a side (rulings §1.1).
    Stratego,
    /// ISF Barrage, 8 pieces a side (rulings §1.1).
    Barrage,
    /// Gravon's Duel ("duell"), 10 pieces a side (rulings §1.1).
    Duel,
    /// jijbent Veldslag, 8x8 (rulings §1.2).
    Veldslag,
    /// Spionage, two moves a turn (rulings §2).
    Spionage,
    /// Spionage with one move a turn (rulings §2).
    SpionageSnel,
    /// Jungle / Dou Shou Qi (rulings §3).
    Jungle,
    /// Xiangqi (rulings §4.1).
    Xiangqi,
    /// Jieqi, Xiangqi with covered pieces (rulings §4.2).
    Jieqi,
}

impl GameId {
    /// Reads a `Game` tag value or `--game` argument (case-insensitive; `Chinese Chess` is
    /// xqbase's name for Xiangqi, `duell` Gravon's for Duel).
    pub fn parse(s: &str) -> Option<GameId> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "stratego" | "classic" => GameId::Stratego,
            "barrage" => GameId::Barrage,
            "duel" | "duell" => GameId::Duel,
            "veldslag" => GameId::Veldslag,
            "spionage" => GameId::Spionage,
            "spionage-snel" => GameId::SpionageSnel,
            "jungle" | "dou shou qi" => GameId::Jungle,
            "xiangqi" | "chinese chess" => GameId::Xiangqi,
            "jieqi" => GameId::Jieqi,
            _ => return None,
        })
    }
    /// The canonical name (`stratego`, `spionage-snel`, ...).
    pub fn as_str(&self) -> &'static str {
        match self {
            GameId::Stratego => "stratego",
            GameId::Barrage => "barrage",
            GameId::Duel => "duel",
            GameId::Veldslag => "veldslag",
            GameId::Spionage => "spionage",
            GameId::SpionageSnel => "spionage-snel",
            GameId::Jungle => "jungle",
            GameId::Xiangqi => "xiangqi",
            GameId::Jieqi => "jieqi",
        }
    }
    /// Every ruleset name, for messages.
    pub const NAMES: &'static str =
        "stratego, barrage, duel, veldslag, spionage, spionage-snel, jungle, xiangqi, jieqi";
    /// The players' names in this ruleset, first player first.
    pub fn side_names(&self) -> [&'static str; 2] {
        match self {
            GameId::Spionage | GameId::SpionageSnel => ["White", "Black"],
            GameId::Xiangqi | GameId::Jieqi => ["Red", "Black"],
            _ => ["Red", "Blue"],
        }
    }
}

/// The parameters in force for one game: ruleset defaults, then the source format's defaults
/// (a Gravon record plays the two-squares rule with 5), then the log's tags, then the CLI.
/// Only parameters the ruleset has are set; they are part of the game's report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Parameters {
    /// Two-squares limit: moves in one shuttle run (rulings §1.4); 0 turns the rule off.
    #[serde(rename = "TwoSquares", skip_serializing_if = "Option::is_none")]
    pub two_squares: Option<u32>,
    /// Whether the more-squares (chase) rule is applied (rulings §1.5).
    #[serde(rename = "MoreSquares", skip_serializing_if = "Option::is_none")]
    pub more_squares: Option<bool>,
    /// A no-capture limit in moves per side (rulings §4.2: 60 for Jieqi).
    #[serde(rename = "NoCaptureLimit", skip_serializing_if = "Option::is_none")]
    pub no_capture_limit: Option<u32>,
    /// Repetition handling (`ends` or `claim`, rulings §4.3).
    #[serde(rename = "Repetition", skip_serializing_if = "Option::is_none")]
    pub repetition: Option<String>,
    /// Which side moves first (Veldslag: `red` unless a `FirstMove` tag says otherwise).
    #[serde(rename = "FirstMove", skip_serializing_if = "Option::is_none")]
    pub first_move: Option<String>,
    /// Rule switches of a game family's variant points (Jungle: `jijbent` or switch names,
    /// `rules::jungle::Variant`).
    #[serde(rename = "Variant", skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

/// Parameter overrides given on the command line; they win over tags.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--game`: the ruleset for logs without a `Game` tag.
    pub game: Option<GameId>,
    /// `--two-squares N`.
    pub two_squares: Option<u32>,
    /// `--repetition ends|claim`.
    pub repetition: Option<String>,
}

/// How a game ended on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    /// How the game ended on the board, if it did.
    pub outcome: Option<Outcome>,
    /// Everything found while replaying, in ply order.
    pub findings: Vec<Finding>,
    /// True when the replay stopped early (illegal move, unreadable move): later plies
    /// are unchecked.
    pub stopped: bool,
    /// True when the game could not be judged at all (parse error, unsupported game).
    pub unjudged: bool,
}

/// What an engine reports about one applied ply.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The history-independent facts of the ply.
    pub info: PlyInfo,
    /// Non-fatal findings the ply raised (the move is still applied).
    pub findings: Vec<Finding>,
}

/// One game family's rules. An engine never prints and never reads files: it validates the
/// start from the record, then applies plies one by one.
pub trait Rules {
    /// Everything the engine needs between plies (board, side to move, knowledge, history).
    type State;

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

    /// The position as the arbiter sees it, for `arbiter show` and `check --show`: board
    /// size and coordinates, terrain per square, every piece with its identity and which
    /// player knows that identity (`PieceView::known_to`: from the state's own knowledge,
    /// e.g. Stratego's `revealed`, Spionage's `unmasked`), side to move, pieces lost per side
    /// and any captured-piece score. Ply number, last move, outcome and viewer are left at
    /// their defaults: [`replay_game`]'s caller fills them; [`BoardView::seen_by`] hides what
    /// one player does not know. Never fails: every state has a picture.
    fn view(&self, state: &Self::State) -> BoardView;
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
    let mut state = match rules.start(record, params, &mut out.findings) {
        Ok(s) => s,
        Err(errors) => {
            out.findings.extend(errors);
            out.stopped = true;
            return out;
        }
    };
    out.start_key = rules.key(&state);
    out.outcome = rules.outcome(&state, 0);
    observe(None, &state);
    for (i, mv) in record.moves.iter().enumerate() {
        let number = i as u32 + 1;
        if let Some(end) = &out.outcome {
            let rest = mv
                .span
                .join(record.moves.last().map_or(mv.span, |m| m.span));
            let n = record.moves.len() - i;
            out.findings.push(
                Finding::new(
                    Code::MovesAfterEnd,
                    rest,
                    format!(
                        "{n} {} after the game ended on ply {}",
                        if n == 1 { "move" } else { "moves" },
                        end.ply
                    ),
                    Rule::MovesAfterEnd,
                )
                .at_ply(number)
                .label(format!("the game ended ({}) before this", end.reason))
                .help("the record goes on after the game was decided; cut it at the end or correct the earlier moves"),
            );
            break;
        }
        match rules.play(&mut state, mv, number) {
            Ok(applied) => {
                out.findings.extend(applied.findings);
                observe(Some(&applied.info), &state);
                out.plies.push(applied.info);
                out.outcome = rules.outcome(&state, number);
            }
            Err(f) => {
                let remaining = record.moves.len() - i - 1;
                let mut f = f;
                if remaining > 0 {
                    let note = if remaining == 1 {
                        "the replay stops here: the 1 later ply of this game is unchecked"
                            .to_string()
                    } else {
                        format!("the replay stops here: the {remaining} later plies of this game are unchecked")
                    };
                    f.help = Some(match f.help.take() {
                        Some(h) => format!("{h}; {note}"),
                        None => note,
                    });
                }
                out.findings.push(f);
                out.stopped = true;
                break;
            }
        }
    }
    out
}

/// What [`replay_game`] calls for the start (`None`) and every applied ply: the ply's facts and
/// a function that draws the arbiter's [`BoardView`] of the state after it.
pub type ViewObserver<'a> = dyn FnMut(Option<&PlyInfo>, &dyn Fn() -> BoardView) + 'a;

/// Replays `record` under the engine of `game` ([`replay_observed`]); `observe` gets, for the
/// start (`None`) and every applied ply, a function that draws the arbiter's [`BoardView`] of
/// that state (called only when wanted, so a plain replay draws nothing). `None` when `game`
/// has no engine yet. This is the one place that maps a ruleset to its engine.
pub fn replay_game(
    game: GameId,
    record: &GameRecord,
    params: &Parameters,
    observe: &mut ViewObserver,
) -> Option<Replay> {
    fn run<R: Rules>(
        rules: &R,
        record: &GameRecord,
        params: &Parameters,
        observe: &mut ViewObserver,
    ) -> Replay {
        replay_observed(rules, record, params, |info, st| {
            observe(info, &|| rules.view(st))
        })
    }
    let mut replay = match game {
        GameId::Stratego | GameId::Barrage | GameId::Duel | GameId::Veldslag => {
            run(&stratego::Stratego::new(game)?, record, params, observe)
        }
        GameId::Spionage | GameId::SpionageSnel => {
            run(&spionage::Spionage::new(game)?, record, params, observe)
        }
        GameId::Jungle => run(&jungle::Jungle::new(), record, params, observe),
        GameId::Xiangqi => run(&xiangqi::Xiangqi::new(), record, params, observe),
        GameId::Jieqi => run(&xiangqi::Xiangqi::jieqi(), record, params, observe),
    };
    replay.game = Some(game);
    Some(replay)
}

/// Reads the parameter tags a ruleset has. `defaults` holds the ruleset's (and the source
/// format's) defaults; tags override them, then `overrides`. A tag with a value that is not
/// a number where one is needed is a `parse-error` pointing at the value.
pub fn resolve_parameters(
    record: &GameRecord,
    mut params: Parameters,
    overrides: &Overrides,
    findings: &mut Vec<Finding>,
) -> Parameters {
    let mut number = |name: &str, slot: &mut Option<u32>| {
        if slot.is_none() {
            return;
        }
        if let Some(tag) = record.tag(name) {
            match tag.value.value.trim().parse::<u32>() {
                Ok(n) => *slot = Some(n),
                Err(_) => findings.push(
                    Finding::new(
                        Code::ParseError,
                        tag.value.span,
                        format!(
                            "the {name} tag needs a whole number, not `{}`",
                            tag.value.value
                        ),
                        Rule::LogParameterTags,
                    )
                    .label("expected a whole number")
                    .help(format!("write e.g. [{name} \"3\"]")),
                ),
            }
        }
    };
    number("TwoSquares", &mut params.two_squares);
    number("NoCaptureLimit", &mut params.no_capture_limit);
    if params.more_squares.is_some() {
        if let Some(tag) = record.tag("MoreSquares") {
            match tag.value.value.trim().to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" | "1" => params.more_squares = Some(true),
                "off" | "no" | "false" | "0" => params.more_squares = Some(false),
                other => findings.push(
                    Finding::new(
                        Code::ParseError,
                        tag.value.span,
                        format!("the MoreSquares tag takes on or off, not `{other}`"),
                        Rule::LogParameterTags,
                    )
                    .label("expected on or off"),
                ),
            }
        }
    }
    // A tag that takes one of two words, for a parameter the ruleset has.
    let mut word = |name: &str, words: [&str; 2], slot: &mut Option<String>| {
        if slot.is_none() {
            return;
        }
        if let Some(tag) = record.tag(name) {
            let v = tag.value.value.trim().to_ascii_lowercase();
            if words.contains(&v.as_str()) {
                *slot = Some(v);
            } else {
                let [a, b] = words;
                findings.push(
                    Finding::new(
                        Code::ParseError,
                        tag.value.span,
                        format!("the {name} tag takes {a} or {b}, not `{v}`"),
                        Rule::LogParameterTags,
                    )
                    .label(format!("expected {a} or {b}")),
                );
            }
        }
    };
    word("Repetition", ["ends", "claim"], &mut params.repetition);
    word("FirstMove", ["red", "blue"], &mut params.first_move);
    if params.variant.is_some() {
        if let Some(tag) = record.tag("Variant") {
            params.variant = Some(tag.value.value.trim().to_ascii_lowercase());
        }
    }
    if let (Some(n), Some(_)) = (overrides.two_squares, params.two_squares) {
        params.two_squares = Some(n);
    }
    if let (Some(r), Some(_)) = (&overrides.repetition, &params.repetition) {
        params.repetition = Some(r.clone());
    }
    params
}

/// Names the tags that are parameters, for `convert` (tags are written when they differ from
/// the ruleset's default).
pub fn parameter_tags(
    params: &Parameters,
    defaults: &Parameters,
) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    if params.two_squares != defaults.two_squares {
        if let Some(n) = params.two_squares {
            out.insert("TwoSquares", n.to_string());
        }
    }
    if params.more_squares != defaults.more_squares {
        if let Some(b) = params.more_squares {
            out.insert("MoreSquares", if b { "on" } else { "off" }.to_string());
        }
    }
    if params.no_capture_limit != defaults.no_capture_limit {
        if let Some(n) = params.no_capture_limit {
            out.insert("NoCaptureLimit", n.to_string());
        }
    }
    if params.repetition != defaults.repetition {
        if let Some(r) = &params.repetition {
            out.insert("Repetition", r.clone());
        }
    }
    if params.first_move != defaults.first_move {
        if let Some(r) = &params.first_move {
            out.insert("FirstMove", r.clone());
        }
    }
    if params.variant != defaults.variant {
        if let Some(v) = &params.variant {
            out.insert("Variant", v.clone());
        }
    }
    out
}
