//! Machine output: the JSON document of `arbiter check --format json` (schema in the README).

use super::stream::Streamed;
use super::SourceWindow;
use super::Summary;
use crate::finding::Finding;
use crate::pipeline::{Branch, GameReport};
use serde_json::{json, Value};

/// One finding as JSON: code, severity, ply, its line of play (`line_of_play`: 0 the main
/// line, `n` the variation `n`) and for a variation where it branches off (`branch`:
/// `{"parent", "ply", "move", "replaces"}`, null on the main line), message, rule, help,
/// 1-based line and column in the source (columns in characters), byte offset and length,
/// the secondary labels, and for a Xiangqi repetition finding its `verdict` (`{"result",
/// "reason"}`). `src` is the window of the source the finding points into.
pub fn finding(f: &Finding, src: &SourceWindow) -> Value {
    finding_in(f, src, &[])
}

/// [`finding`] of a game whose variations branch off as `branches` say
/// ([`GameReport::branches`]).
pub fn finding_in(f: &Finding, src: &SourceWindow, branches: &[Branch]) -> Value {
    let (line, column) = src.position(f.span.start).unzip();
    let branch = f.line.checked_sub(1).and_then(|i| branches.get(i));
    let mut v = json!({
        "code": f.code.as_str(),
        "severity": f.severity().as_str(),
        "ply": f.ply,
        "line_of_play": f.line,
        "branch": branch,
        "message": f.message,
        "rule": f.rule,
        "help": f.help,
        "label": f.label,
        "line": line,
        "column": column,
        "offset": f.span.start,
        "length": f.span.len(),
        "labels": f.labels.iter().map(|l| {
            let (line, column) = src.position(l.span.start).unzip();
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
        let findings = g
            .findings
            .iter()
            .map(|f| finding_in(f, src, &g.branches))
            .collect();
        map.insert("findings".into(), Value::Array(findings));
    }
    v
}

/// [`game`] as text, pretty (as `serde_json::to_string_pretty` prints it) or compact, built
/// finding by finding: a game with a million findings never holds them all as JSON values.
pub fn game_text(g: &GameReport, src: &SourceWindow, pretty: bool) -> String {
    let mut v = serde_json::to_value(g).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        map.insert("findings".into(), Streamed::placeholder());
    }
    if pretty {
        let (mut out, items) = Streamed::head(&v);
        for (i, f) in g.findings.iter().enumerate() {
            out.push_str(if i == 0 {
                items.first()
            } else {
                Streamed::SEPARATOR
            });
            out.push_str(&items.item(&finding_in(f, src, &g.branches)));
        }
        out.push_str(&Streamed::tail(&v, g.findings.is_empty()));
        return out;
    }
    let (before, after) = Streamed::compact_split(&v);
    let mut out = before;
    for (i, f) in g.findings.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&finding_in(f, src, &g.branches).to_string());
    }
    out.push_str(&after);
    out
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
