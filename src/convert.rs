//! `arbiter convert`: any record arbiter reads, written as a native log.
//!
//! The output parses back to the same replay (a tested property). Parameters that differ from
//! the ruleset's default are written as tags (a Gravon record gets `[TwoSquares "5"]`).
//! Xiangqi games can be written in ICCS, WXF or Chinese notation ([`write_native_in`]).

use crate::finding::Finding;
use crate::record::GameRecord;
use crate::rules::params::parameter_tags;
use crate::rules::{GameId, Parameters};
use crate::run::ExitStatus;
use crate::types::RecordedResult;

/// Why a game cannot be written in the notation asked for.
#[derive(Debug, Clone)]
pub enum ConvertError {
    /// The ruleset has no such notation (WXF and Chinese are Xiangqi's).
    NoSuchNotation(GameId),
    /// A ply could not be read, so neither it nor the rest can be rewritten (its finding).
    Unreadable(Box<Finding>),
}

/// Writes one game as a native log with its moves in `notation` (`iccs`, `wxf`, `chinese`)
/// and a `Format` tag saying so, as the game's engine rewrites them ([`crate::rules::Rules::rewrite`]).
/// ICCS is every ruleset's own coordinate notation, so a game whose engine has no notations
/// is written as it is in `iccs` ([`ConvertError::NoSuchNotation`] otherwise); a ply that
/// cannot be read stops it ([`ConvertError::Unreadable`]).
pub fn write_native_in(
    record: &GameRecord,
    game: GameId,
    params: &Parameters,
    defaults: &Parameters,
    notation: &str,
) -> Result<String, ConvertError> {
    match crate::games::engine(game).rewrite(record, params, notation) {
        Some(Ok((moves, format))) => Ok(render(
            record,
            game,
            params,
            defaults,
            Some((format, &moves)),
        )),
        Some(Err(f)) => Err(ConvertError::Unreadable(Box::new(f))),
        None if notation == "iccs" => Ok(write_native(record, game, params, defaults)),
        None => Err(ConvertError::NoSuchNotation(game)),
    }
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
    rewritten: Option<(&str, &[String])>,
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
    if let Some((format, _)) = rewritten {
        out.push_str(&format!("[Format \"{format}\"]\n"));
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

/// `arbiter convert`: writes every game of `input` as a native log on `out` (moves in
/// `notation` when given), games separated by a blank line. A game that cannot be written is
/// reported on `err` with its error findings and makes the status [`ExitStatus::Unusable`];
/// the other games are still written.
pub fn run(
    input: &crate::input::Input,
    overrides: &crate::rules::Overrides,
    notation: Option<&str>,
    color: bool,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> ExitStatus {
    let mut status = ExitStatus::Clean;
    let mut first = true;
    for chunk in crate::input::chunks(input) {
        for rec in crate::pipeline::parse_chunk(&chunk) {
            let problem = match convert_one(&rec, overrides, notation) {
                Ok(text) => {
                    let sep = if first { "" } else { "\n" };
                    first = false;
                    if let Err(e) = write!(out, "{sep}{text}") {
                        let _ = writeln!(err, "arbiter: cannot write to standard output: {e}");
                        return ExitStatus::Unusable;
                    }
                    continue;
                }
                Err(Problem::Findings(fs)) => fs,
                Err(Problem::Notation(game)) => {
                    let _ = writeln!(
                        err,
                        "arbiter: {} game {}: --notation {} is for xiangqi games, this one is {}",
                        chunk.source,
                        rec.index + 1,
                        notation.unwrap_or_default(),
                        game.as_str()
                    );
                    Vec::new()
                }
            };
            let errors: Vec<Finding> = problem
                .into_iter()
                .filter(|f| f.severity() == crate::finding::Severity::Error)
                .collect();
            crate::report::human::print_findings(&chunk, &errors, rec.index, color, err);
            status = ExitStatus::Unusable;
        }
    }
    if out.flush().is_err() {
        return ExitStatus::Unusable;
    }
    status
}

/// Why one game was not written.
enum Problem {
    /// The findings that keep it from being read or judged.
    Findings(Vec<Finding>),
    /// Its ruleset has no such notation.
    Notation(GameId),
}

/// One game as a native log, its moves as written or in `notation`.
fn convert_one(
    rec: &GameRecord,
    overrides: &crate::rules::Overrides,
    notation: Option<&str>,
) -> Result<String, Problem> {
    if rec.unreadable() {
        return Err(Problem::Findings(rec.findings.clone()));
    }
    let game = crate::pipeline::game_of(rec, overrides).map_err(|f| Problem::Findings(vec![f]))?;
    let (params, defaults, _) =
        crate::pipeline::parameters_for(rec, game, overrides).map_err(Problem::Findings)?;
    match notation {
        None => Ok(write_native(rec, game, &params, &defaults)),
        Some(n) => write_native_in(rec, game, &params, &defaults, n).map_err(|e| match e {
            ConvertError::NoSuchNotation(g) => Problem::Notation(g),
            ConvertError::Unreadable(f) => Problem::Findings(vec![*f]),
        }),
    }
}
