//! `arbiter convert`: any record arbiter reads, written as a native log.
//!
//! The output parses back to the same replay (a tested property). Parameters that differ from
//! the ruleset's default are written as tags (a Gravon record gets `[TwoSquares "5"]`).
//! Xiangqi games can be written in ICCS, WXF or Chinese notation ([`write_native_in`]).

use crate::finding::Finding;
use crate::games::xiangqi::notation::{self, Notation};
use crate::record::GameRecord;
use crate::rules::params::parameter_tags;
use crate::rules::{GameId, Parameters};
use crate::types::RecordedResult;

/// Why a game cannot be written in the notation asked for.
#[derive(Debug, Clone)]
pub enum ConvertError {
    /// The notation is for Xiangqi; the game is of this other ruleset.
    NotXiangqi(GameId),
    /// A ply could not be read, so neither it nor the rest can be rewritten (its finding).
    Unreadable(Box<Finding>),
}

/// Writes one game as a native log with its moves in `notation` and a `Format` tag saying so.
/// ICCS is every ruleset's own coordinate notation, so for a game other than Xiangqi it
/// writes the moves as they are; WXF and Chinese are Xiangqi's only
/// ([`ConvertError::NotXiangqi`]). A Xiangqi record is replayed to rewrite its moves; a ply
/// that cannot be read stops it ([`ConvertError::Unreadable`]).
pub fn write_native_in(
    record: &GameRecord,
    game: GameId,
    params: &Parameters,
    defaults: &Parameters,
    to: Notation,
) -> Result<String, ConvertError> {
    if game != GameId::Xiangqi {
        return match to {
            Notation::Iccs => Ok(write_native(record, game, params, defaults)),
            _ => Err(ConvertError::NotXiangqi(game)),
        };
    }
    let moves =
        notation::rewrite(record, params, to).map_err(|f| ConvertError::Unreadable(Box::new(f)))?;
    Ok(render(record, game, params, defaults, Some((to, &moves))))
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes one game as a native log. `game` is the ruleset, `params` the parameters in force
/// and `defaults` the ruleset's own defaults. Tags that the format derives (`Game`, `Result`,
/// parameters) are written from the arguments; other tags are copied, except importer-only ones
/// (`GravonType`).
pub fn write_native(
    record: &GameRecord,
    game: GameId,
    params: &Parameters,
    defaults: &Parameters,
) -> String {
    render(record, game, params, defaults, None)
}

/// The log text; `rewritten` replaces the move texts and the `Format` tag.
fn render(
    record: &GameRecord,
    game: GameId,
    params: &Parameters,
    defaults: &Parameters,
    rewritten: Option<(Notation, &[String])>,
) -> String {
    let mut out = String::new();
    out.push_str(&format!("[Game \"{}\"]\n", game.as_str()));
    let skip = ["game", "result", "gravontype"];
    let mut param_names: Vec<String> = parameter_tags(params, defaults)
        .keys()
        .map(|k| k.to_ascii_lowercase())
        .collect();
    param_names.extend(
        [
            "twosquares",
            "moresquares",
            "nocapturelimit",
            "repetition",
            "firstmove",
            "variant",
        ]
        .map(String::from),
    );
    for t in &record.tags {
        let n = t.name.value.to_ascii_lowercase().to_string();
        if skip.contains(&n.as_str())
            || param_names.contains(&n)
            || (rewritten.is_some() && n == "format")
        {
            continue;
        }
        out.push_str(&format!(
            "[{} \"{}\"]\n",
            t.name.value,
            escape(&t.value.value)
        ));
    }
    let result = record
        .tag_value("Result")
        .and_then(RecordedResult::parse)
        .or(record.result_token.as_ref().map(|r| r.value))
        .unwrap_or(RecordedResult::Unknown);
    out.push_str(&format!("[Result \"{}\"]\n", result.as_str()));
    if let Some((to, _)) = rewritten {
        out.push_str(&format!("[Format \"{}\"]\n", to.as_str()));
    }
    for (k, v) in parameter_tags(params, defaults) {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
    }
    for block in &record.setups {
        out.push_str(&format!("\nsetup {}\n", block.side.value));
        let mut rows: Vec<_> = block.rows.iter().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.rank.value));
        for r in rows {
            out.push_str(&format!("{:>3} {}\n", r.rank.value, r.cells.value));
        }
    }
    out.push('\n');
    let mut line = String::new();
    let mut last_turn = usize::MAX;
    for (i, m) in record.moves.iter().enumerate() {
        let same_turn = m.turn == last_turn;
        last_turn = m.turn;
        let mut tok = String::new();
        if same_turn {
            tok.push(',');
        } else {
            if m.turn % 2 == 0 {
                tok.push_str(&format!("{}. ", m.turn / 2 + 1));
            }
            if i > 0 {
                line.push(' ');
            }
        }
        match rewritten {
            Some((_, moves)) => tok.push_str(moves.get(i).map_or(&m.text.value, |s| s)),
            None => tok.push_str(&m.text.value),
        }
        if let Some(a) = m.annotation() {
            tok.push_str(&format!("({})", a.value));
        }
        if line.chars().count() + tok.chars().count() > 90 && !same_turn {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&tok);
    }
    if !line.trim().is_empty() {
        out.push_str(line.trim());
        out.push(' ');
    }
    out.push_str(result.as_str());
    out.push('\n');
    out
}
