//! Machine output: the JSON document of `arbiter check --format json` (schema in the README).

use crate::finding::Finding;
use crate::pipeline::{GameReport, Summary};
use serde_json::{json, Value};

/// One finding as JSON: code, severity, ply, message, rule, help, 1-based line and column
/// (columns in characters), byte offset and length, the secondary labels, and for a Xiangqi
/// repetition finding its `verdict` (`{"result", "reason"}`).
pub fn finding(f: &Finding, text: &str) -> Value {
    finding_at(f, text, 0, 0)
}

/// Line and column of source offset `at`, for a window `text` that starts at byte `offset`
/// and line `line` (0-based) of its file.
fn position(text: &str, offset: usize, line: usize, at: usize) -> (usize, usize) {
    let (l, c) = super::line_col(text, at.saturating_sub(offset));
    (l + line, c)
}

/// [`finding`] for a window of the source (see [`crate::input::Chunk`]).
pub fn finding_at(f: &Finding, text: &str, offset: usize, line0: usize) -> Value {
    let (line, column) = position(text, offset, line0, f.span.start);
    let mut v = json!({
        "code": f.code.as_str(),
        "severity": f.severity().as_str(),
        "ply": f.ply,
        "message": f.message,
        "rule": f.rule,
        "help": f.help,
        "label": f.label,
        "line": line,
        "column": column,
        "offset": f.span.start,
        "length": f.span.len(),
        "labels": f.labels.iter().map(|l| {
            let (line, column) = position(text, offset, line0, l.span.start);
            json!({"text": l.text, "line": line, "column": column, "offset": l.span.start, "length": l.span.len()})
        }).collect::<Vec<_>>(),
    });
    if let (Some(verdict), Value::Object(map)) = (f.verdict, &mut v) {
        map.insert("verdict".into(), json!(verdict));
    }
    v
}

/// One game as JSON; `text` is its source's text (for line and column).
pub fn game(g: &GameReport, text: &str) -> Value {
    game_at(g, text, 0, 0)
}

/// [`game`] for a window of the source (see [`crate::input::Chunk`]).
pub fn game_at(g: &GameReport, text: &str, offset: usize, line: usize) -> Value {
    let mut v = serde_json::to_value(g).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        map.insert(
            "findings".into(),
            Value::Array(
                g.findings
                    .iter()
                    .map(|f| finding_at(f, text, offset, line))
                    .collect(),
            ),
        );
    }
    v
}

/// The whole document: `{"arbiter":{"version":..},"games":[..],"summary":{..}}`.
pub fn document(games: Vec<Value>, summary: &Summary) -> Value {
    json!({
        "arbiter": {"version": env!("CARGO_PKG_VERSION")},
        "games": games,
        "summary": summary,
    })
}
