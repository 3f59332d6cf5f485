//! Machine output: the JSON document of `arbiter check --format json` (schema in the README).

use super::SourceWindow;
use super::Summary;
use crate::finding::Finding;
use crate::pipeline::GameReport;
use serde_json::{json, Value};

/// One finding as JSON: code, severity, ply, message, rule, help, 1-based line and column
/// (columns in characters), byte offset and length, the secondary labels, and for a Xiangqi
/// repetition finding its `verdict` (`{"result", "reason"}`). `src` is the window of the source
/// the finding points into.
pub fn finding(f: &Finding, src: &SourceWindow) -> Value {
    let (line, column) = src.line_col(f.span.start);
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
            let (line, column) = src.line_col(l.span.start);
            json!({"text": l.text, "line": line, "column": column, "offset": l.span.start, "length": l.span.len()})
        }).collect::<Vec<_>>(),
    });
    if let (Some(verdict), Value::Object(map)) = (f.verdict, &mut v) {
        map.insert("verdict".into(), json!(verdict));
    }
    v
}

/// One game as JSON; `src` is the window of the source it was read from.
pub fn game(g: &GameReport, src: &SourceWindow) -> Value {
    let mut v = serde_json::to_value(g).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        let findings = g.findings.iter().map(|f| finding(f, src)).collect();
        map.insert("findings".into(), Value::Array(findings));
    }
    v
}

/// The whole document: `{"arbiter":{"version":..},"games":[..],"summary":{..}}`.
/// `games` is the array of [`game`] values (or [`super::stream::Streamed::placeholder`]).
pub fn document(games: Value, summary: &Summary) -> Value {
    json!({
        "arbiter": {"version": env!("CARGO_PKG_VERSION")},
        "games": games,
        "summary": summary,
    })
}
