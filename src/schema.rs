//! JSON Schemas (draft 2020-12) of every JSON document arbiter prints, generated from the
//! types that print them with schemars: `arbiter check --format json` ([`json::CheckDocument`]),
//! each line of `--format jsonl` ([`json::JsonlLine`]) and `arbiter claim --format json`
//! (`ClaimJson`: a claim's [`crate::claim::Reply`], a move question's reply or the error object). The files in `schemas/` are these schemas; a test fails when
//! they drift (`ARBITER_BLESS=1 cargo test` rewrites them).
//!
//! The words arbiter prints from its tables (codes, rulesets, end reasons, results) are
//! listed as enums here, read from the same tables.

use crate::finding::{Code, Rule};
use crate::report::json;
use crate::rules::{EndReason, GameId, RecordedResult, RepetitionMode, TwoSquares};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use std::borrow::Cow;

/// `impl JsonSchema` for a type printed as one of a list of words: its schema name, a
/// description, and the words (an expression giving an iterator of `&'static str`).
macro_rules! word_schema {
    ($type:ty, $name:literal, $description:literal, $words:expr) => {
        impl JsonSchema for $type {
            fn schema_name() -> Cow<'static, str> {
                $name.into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                let words: Vec<&'static str> = $words.collect();
                json_schema!({"type": "string", "enum": words, "description": $description})
            }
        }
    };
}

word_schema!(
    Code,
    "Code",
    "A finding code (docs/errors.md).",
    Code::ALL.iter().map(|c| c.as_str())
);
word_schema!(
    GameId,
    "GameId",
    "A ruleset arbiter judges.",
    crate::types::GAMES.iter().map(|g| g.name)
);
word_schema!(
    EndReason,
    "EndReason",
    "Why a game ended on the board.",
    EndReason::ALL.iter().map(|r| r.as_str())
);
word_schema!(
    RecordedResult,
    "Result",
    "A result: the first player wins, the second wins, a draw, or unknown.",
    [
        RecordedResult::FirstWins,
        RecordedResult::SecondWins,
        RecordedResult::Draw,
        RecordedResult::Unknown,
    ]
    .iter()
    .map(|r| r.as_str())
);
word_schema!(
    RepetitionMode,
    "RepetitionMode",
    "What a third occurrence does (rulings §4.3).",
    [RepetitionMode::Ends, RepetitionMode::Claim]
        .iter()
        .map(|m| m.as_str())
);

impl JsonSchema for TwoSquares {
    fn schema_name() -> Cow<'static, str> {
        "TwoSquares".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "integer",
            "minimum": 0,
            "description": "The two-squares limit in moves per shuttle run; 0: the rule is off."
        })
    }
}

impl JsonSchema for Rule {
    fn schema_name() -> Cow<'static, str> {
        "Rule".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "The rule broken and where it is written (`rulings §1.4 ...`)."
        })
    }
}

/// One schema file of `schemas/`: its name and how to build it.
pub struct SchemaFile {
    /// The file name in `schemas/`.
    pub name: &'static str,
    /// The schema.
    pub build: fn() -> Schema,
}

/// The schema of `T`, titled.
fn root<T: JsonSchema>(title: &str) -> Schema {
    let generator = schemars::generate::SchemaSettings::default()
        .for_serialize()
        .into_generator();
    let mut s = generator.into_root_schema_for::<T>();
    s.insert("title".into(), title.into());
    s
}

/// What `arbiter claim --format json` prints: the answer to a claim, to `--move`, to
/// `--moves`, or the error object of exit 2 (a type for the schema only).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum ClaimJson {
    Claim(crate::claim::reply::Reply),
    Move(crate::claim::moves::MoveReply),
    Moves(crate::claim::moves::MovesReply),
    Error(crate::claim::reply::ErrorReply),
}

/// Every schema arbiter keeps in `schemas/`.
pub const FILES: &[SchemaFile] = &[
    SchemaFile {
        name: "check.schema.json",
        build: || root::<json::CheckDocument<Vec<json::GameJson>>>("arbiter check --format json"),
    },
    SchemaFile {
        name: "check-jsonl.schema.json",
        build: || root::<json::JsonlLine>("arbiter check --format jsonl: each line"),
    },
    SchemaFile {
        name: "claim.schema.json",
        build: || root::<ClaimJson>("arbiter claim --format json"),
    },
];

/// The text of a schema file as kept in the repository (pretty, ending in a line feed).
pub fn text(file: &SchemaFile) -> String {
    let mut s = serde_json::to_string_pretty(&(file.build)()).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `schemas/*.schema.json` are generated from the types: run with `ARBITER_BLESS=1` to
    /// rewrite them.
    #[test]
    fn schema_files_are_generated_from_the_types() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/schemas");
        for f in FILES {
            let path = format!("{dir}/{}", f.name);
            let want = text(f);
            if std::env::var_os("ARBITER_BLESS").is_some() {
                std::fs::write(&path, &want).unwrap();
            }
            let have = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                have == want,
                "{path} differs from the types; rerun with ARBITER_BLESS=1"
            );
        }
    }

    #[test]
    fn codes_and_games_are_listed_from_their_tables() {
        let doc: serde_json::Value = serde_json::from_str(&text(&FILES[0])).unwrap();
        let codes = &doc["$defs"]["Code"]["enum"];
        assert_eq!(codes.as_array().unwrap().len(), Code::ALL.len());
        assert_eq!(codes[4], "two-squares-rule");
        let games = &doc["$defs"]["GameId"]["enum"];
        assert_eq!(games.as_array().unwrap().len(), crate::types::GAMES.len());
    }
}
