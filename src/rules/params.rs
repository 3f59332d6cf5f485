//! The parameters of a game (docs/log-format.md, parameter tags), typed from the command line
//! to the engine, and the one place their precedence is decided ([`resolve`]): the ruleset's
//! defaults, then the source format's (a Gravon record plays the two-squares rule with 5), then
//! the log's tags, then the command line.

use crate::finding::{Code, Finding};
use crate::record::GameRecord;
use crate::rulebook::Rule;
use crate::types::{GameId, Side, Span};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::num::NonZeroU32;

/// The two-squares limit (rulings §1.4): off, or the moves one shuttle run may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TwoSquares {
    /// The rule is not applied (`0` in tags and on the command line).
    Off,
    /// The (N+1)-th move of a run is forbidden.
    Limit(NonZeroU32),
}

impl TwoSquares {
    /// `0` is off, any other number the limit.
    pub fn from_count(n: u32) -> TwoSquares {
        NonZeroU32::new(n).map_or(TwoSquares::Off, TwoSquares::Limit)
    }
    /// The limit in moves per run, 0 when off.
    pub fn count(self) -> u32 {
        match self {
            TwoSquares::Off => 0,
            TwoSquares::Limit(n) => n.get(),
        }
    }
}

impl Serialize for TwoSquares {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.count())
    }
}

/// What a third occurrence does in Xiangqi and Jieqi (rulings §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepetitionMode {
    /// It ends the game with its verdict (the rule).
    Ends,
    /// It is reported with its verdict and play goes on (archives played on).
    Claim,
}

impl RepetitionMode {
    /// `ends` or `claim`.
    pub fn as_str(self) -> &'static str {
        match self {
            RepetitionMode::Ends => "ends",
            RepetitionMode::Claim => "claim",
        }
    }
    /// Reads `ends` or `claim` (any case).
    pub fn parse(s: &str) -> Option<RepetitionMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ends" => Some(RepetitionMode::Ends),
            "claim" => Some(RepetitionMode::Claim),
            _ => None,
        }
    }
}

impl Serialize for RepetitionMode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// `red` or `blue`: the `FirstMove` word of the rulesets that have the parameter.
fn first_move_word(side: Side) -> &'static str {
    match side {
        Side::First => "red",
        Side::Second => "blue",
    }
}

fn ser_first_move<S: Serializer>(side: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => s.serialize_str(first_move_word(*side)),
        None => s.serialize_none(),
    }
}

/// The JSON schema of a `FirstMove` value: `red` or `blue`.
fn first_move_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"enum": ["red", "blue"]})
}

/// The parameters in force for one game. Only parameters the ruleset has are set (a parameter
/// the ruleset does not have is absent); they are part of the game's report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Parameters {
    /// Two-squares limit in moves per run (rulings §1.4).
    #[serde(rename = "TwoSquares", skip_serializing_if = "Option::is_none")]
    pub two_squares: Option<TwoSquares>,
    /// Whether the more-squares (chase) rule is applied (rulings §1.5).
    #[serde(rename = "MoreSquares", skip_serializing_if = "Option::is_none")]
    pub more_squares: Option<bool>,
    /// A no-capture limit in moves per side (rulings §4.2: 60 for Jieqi); 0 is none.
    #[serde(rename = "NoCaptureLimit", skip_serializing_if = "Option::is_none")]
    pub no_capture_limit: Option<u32>,
    /// What a third occurrence does (rulings §4.3).
    #[serde(rename = "Repetition", skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionMode>,
    /// Which side moves first (Veldslag and Jungle: Red unless a `FirstMove` tag says Blue).
    #[serde(
        rename = "FirstMove",
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_first_move"
    )]
    #[schemars(schema_with = "first_move_schema")]
    pub first_move: Option<Side>,
    /// Rule switches of a game family's variant points (Jungle: `jijbent` or switch names,
    /// read by the Jungle engine).
    #[serde(rename = "Variant", skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

/// Parameter overrides given on the command line; they win over tags.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--game`: the ruleset for logs without a `Game` tag.
    pub game: Option<GameId>,
    /// `--two-squares N`.
    pub two_squares: Option<TwoSquares>,
    /// `--repetition ends|claim`.
    pub repetition: Option<RepetitionMode>,
}

/// A tag value a parameter cannot take: the `parse-error` pointing at it.
fn bad_value(span: Span, message: String, label: &str) -> Finding {
    Finding::new(Code::ParseError, span, message, Rule::LogParameterTags).label(label.to_string())
}

/// The largest count a parameter takes: a move limit of this many moves per side is twice as
/// many plies, which still fits the ply counters.
pub const MAX_COUNT: u32 = i32::MAX as u32;

/// A count tag's value (`TwoSquares`, `NoCaptureLimit`, in moves): a whole number from 0 to
/// [`MAX_COUNT`]; `Err` says what was expected.
fn read_count(text: &str) -> Result<u32, &'static str> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err("from 0 up");
    }
    match t.parse::<u64>() {
        Ok(n) if n <= MAX_COUNT as u64 => Ok(n as u32),
        _ => Err("from 0 to 2147483647"),
    }
}

/// One value read for a parameter, from a tag or from the source format's defaults.
struct Value<'a> {
    name: &'static str,
    text: &'a str,
    span: Span,
}

/// Sets the parameter a value names, if the ruleset has it (its slot is `Some`); a value the
/// parameter cannot take is a `parse-error` in `findings`.
fn apply(params: &mut Parameters, v: Value, findings: &mut Vec<Finding>) {
    let word = v.text.trim().to_ascii_lowercase();
    let name = v.name;
    match name {
        "TwoSquares" | "NoCaptureLimit" => {
            let slot_set = match name {
                "TwoSquares" => params.two_squares.is_some(),
                _ => params.no_capture_limit.is_some(),
            };
            if !slot_set {
                return;
            }
            match read_count(v.text) {
                Ok(n) if name == "TwoSquares" => {
                    params.two_squares = Some(TwoSquares::from_count(n))
                }
                Ok(n) => params.no_capture_limit = Some(n),
                Err(why) => findings.push(
                    bad_value(
                        v.span,
                        format!(
                            "the {name} tag needs a whole number {why}, not `{}`",
                            v.text
                        ),
                        &format!("expected a whole number {why}"),
                    )
                    .help(format!("write e.g. [{name} \"3\"]")),
                ),
            }
        }
        "MoreSquares" if params.more_squares.is_some() => match word.as_str() {
            "on" | "yes" | "true" | "1" => params.more_squares = Some(true),
            "off" | "no" | "false" | "0" => params.more_squares = Some(false),
            other => findings.push(bad_value(
                v.span,
                format!("the MoreSquares tag takes on or off, not `{other}`"),
                "expected on or off",
            )),
        },
        "Repetition" if params.repetition.is_some() => match RepetitionMode::parse(&word) {
            Some(m) => params.repetition = Some(m),
            None => findings.push(bad_value(
                v.span,
                format!("the Repetition tag takes ends or claim, not `{word}`"),
                "expected ends or claim",
            )),
        },
        "FirstMove" if params.first_move.is_some() => match word.as_str() {
            "red" => params.first_move = Some(Side::First),
            "blue" => params.first_move = Some(Side::Second),
            _ => findings.push(bad_value(
                v.span,
                format!("the FirstMove tag takes red or blue, not `{word}`"),
                "expected red or blue",
            )),
        },
        "Variant" if params.variant.is_some() => params.variant = Some(word),
        _ => {}
    }
}

/// The tags that are parameters, in the order they are read.
pub const PARAMETER_TAGS: [&str; 6] = [
    "TwoSquares",
    "NoCaptureLimit",
    "MoreSquares",
    "Repetition",
    "FirstMove",
    "Variant",
];

/// Whether the ruleset whose defaults are `defaults` has the parameter tag `name`.
fn has(defaults: &Parameters, name: &str) -> bool {
    match name {
        "TwoSquares" => defaults.two_squares.is_some(),
        "NoCaptureLimit" => defaults.no_capture_limit.is_some(),
        "MoreSquares" => defaults.more_squares.is_some(),
        "Repetition" => defaults.repetition.is_some(),
        "FirstMove" => defaults.first_move.is_some(),
        _ => defaults.variant.is_some(),
    }
}

/// The `record-defect` warning for a parameter tag `game` does not have; none for a
/// `Variant` tag that names the game itself (engine PGN writes `[Variant "xiangqi"]`). (A
/// variant the engine refuses, small Spionage, was refused before the tags are read.)
fn not_applying(game: GameId, name: &str, tag: &crate::record::Tag) -> Option<Finding> {
    if name == "Variant" {
        let value = tag.value.value.as_str();
        if GameId::parse(value) == Some(game) {
            return None;
        }
    }
    Some(
        Finding::new(
            Code::RecordDefect,
            tag.name.span,
            format!(
                "the {name} tag does not apply to {}: it is ignored",
                game.as_str()
            ),
            Rule::LogParameterTags,
        )
        .label(format!("{} has no {name} parameter", game.as_str()))
        .help("remove the tag, or check the Game tag names the ruleset the game was played under"),
    )
}

/// The parameters in force for `record`: the ruleset's `defaults`, then the source format's
/// defaults ([`GameRecord::format_defaults`]), then the record's tags, then `overrides` (only
/// for parameters the ruleset has). A tag value a parameter cannot take is a `parse-error`
/// pointing at the value, and a parameter tag the ruleset does not have a `record-defect`
/// warning at the tag's name, pushed to `findings`.
pub fn resolve(
    record: &GameRecord,
    game: GameId,
    defaults: &Parameters,
    overrides: &Overrides,
    findings: &mut Vec<Finding>,
) -> Parameters {
    let mut params = defaults.clone();
    let at = Span::new(record.span.start, record.span.start);
    for &(name, text) in &record.format_defaults {
        if let Some(name) = PARAMETER_TAGS.iter().find(|n| **n == name) {
            apply(
                &mut params,
                Value {
                    name,
                    text,
                    span: at,
                },
                findings,
            );
        }
    }
    for name in PARAMETER_TAGS {
        if let Some(tag) = record.tag(name) {
            if !has(defaults, name) {
                findings.extend(not_applying(game, name, tag));
                continue;
            }
            let v = Value {
                name,
                text: &tag.value.value,
                span: tag.value.span,
            };
            apply(&mut params, v, findings);
        }
    }
    if let (Some(n), Some(_)) = (overrides.two_squares, params.two_squares) {
        params.two_squares = Some(n);
    }
    if let (Some(r), Some(_)) = (overrides.repetition, params.repetition) {
        params.repetition = Some(r);
    }
    params
}

/// The parameters that differ from the ruleset's `defaults`, as tag names and values, for
/// `convert`.
pub fn parameter_tags(
    params: &Parameters,
    defaults: &Parameters,
) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    let mut put = |name, differs: bool, value: Option<String>| {
        if let (true, Some(v)) = (differs, value) {
            out.insert(name, v);
        }
    };
    put(
        "TwoSquares",
        params.two_squares != defaults.two_squares,
        params.two_squares.map(|t| t.count().to_string()),
    );
    put(
        "MoreSquares",
        params.more_squares != defaults.more_squares,
        params
            .more_squares
            .map(|b| if b { "on" } else { "off" }.to_string()),
    );
    put(
        "NoCaptureLimit",
        params.no_capture_limit != defaults.no_capture_limit,
        params.no_capture_limit.map(|n| n.to_string()),
    );
    put(
        "Repetition",
        params.repetition != defaults.repetition,
        params.repetition.map(|r| r.as_str().to_string()),
    );
    put(
        "FirstMove",
        params.first_move != defaults.first_move,
        params.first_move.map(|s| first_move_word(s).to_string()),
    );
    put(
        "Variant",
        params.variant != defaults.variant,
        params.variant.clone(),
    );
    out
}
