//! Machine output: the JSON document of `arbiter check --format json` (schema in the README).

use crate::finding::Finding;
use crate::pipeline::{GameReport, Summary};
use serde_json::{json, Value};

/// One finding as JSON: code, severity, ply, message, rule, help, 1-based line and column
/// (columns in characters), byte offset and length, and the secondary labels.
pub fn finding(f: &Finding, text: &str) -> Value {
    let (line, column) = super::line_col(text, f.span.start);
    json!({
        "code": f.code.as_str(),
        "severity": f.severity().as_str(),
        "ply": f.ply,
        "message": f.message,
        "rule": f.rule,
        "help": f.help,
        "line": line,
        "column": column,
        "offset": f.span.start,
        "length": f.span.len(),
        "labels": f.labels.iter().map(|l| {
            let (line, column) = super::line_col(text, l.span.start);
            json!({"text": l.text, "line": line, "column": column, "offset": l.span.start, "length": l.span.len()})
        }).collect::<Vec<_>>(),
    })
}

/// One game as JSON; `text` is its source's text (for line and column).
pub fn game(g: &GameReport, text: &str) -> Value {
    let mut v = serde_json::to_value(g).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        map.insert(
            "findings".into(),
            Value::Array(g.findings.iter().map(|f| finding(f, text)).collect()),
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
