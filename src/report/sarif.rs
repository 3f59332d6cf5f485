//! SARIF 2.1.0 output (`arbiter check --format sarif`) for GitHub code scanning and other CI
//! viewers: one run, one rule per finding code (`ruleId` = the stable code), one result per
//! finding with a 1-based region (lines, columns in characters, end column exclusive) and the
//! byte offset and length.

use super::SourceWindow;
use crate::finding::{Code, Finding, Severity};
use serde_json::{json, Value};

/// The SARIF level of a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path as a relative URI reference: relative to the current directory when it lies below
/// it, `/`-separated, with bytes outside RFC 3986's unreserved set percent-encoded. `path` is
/// the name reports print ([`crate::input::path_name`]): the URI holds the file name's own
/// bytes, those that are not UTF-8 included.
pub fn artifact_uri(path: &str) -> String {
    let mut out = String::new();
    for b in super::relative_path_bytes(path) {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The region of `span`: lines and columns (1-based, columns in characters; the end with
/// `with_end` when the span is not empty) and the byte offset and length; bytes only in a
/// binary source.
fn region(src: &SourceWindow, span: crate::types::Span, with_end: bool) -> Value {
    let mut r = serde_json::Map::new();
    if let Some((l, c)) = src.position(span.start) {
        r.insert("startLine".into(), json!(l));
        r.insert("startColumn".into(), json!(c));
        if with_end && !span.is_empty() {
            let (el, ec) = src.line_col(span.end);
            r.insert("endLine".into(), json!(el));
            r.insert("endColumn".into(), json!(ec));
        }
    }
    r.insert("byteOffset".into(), json!(span.start));
    r.insert("byteLength".into(), json!(span.len()));
    Value::Object(r)
}

/// One result for a finding; `src` is the window of the source that holds it. A variation's
/// finding says its line in the message (`ply 7 of line 3: `) and in `properties.lineOfPlay`.
pub fn result(f: &Finding, uri: &str, src: &SourceWindow) -> Value {
    let mut message = super::ply_prefix(f);
    message.push_str(&f.message);
    if let Some(h) = &f.help {
        message.push_str(&format!(". Help: {h}"));
    }
    message.push_str(&format!(". Rule: {}", f.rule));
    let idx = Code::ALL.iter().position(|c| *c == f.code).unwrap_or(0);
    let main_region = region(src, f.span, true);
    let mut r = json!({
        "ruleId": f.code.as_str(),
        "ruleIndex": idx,
        "level": level(f.severity()),
        "message": {"text": message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": main_region,
            }
        }],
    });
    if let (n @ 1.., Value::Object(m)) = (f.line, &mut r) {
        // A variation's finding: its line of play (JSON's `line_of_play`).
        m.insert("properties".into(), json!({"lineOfPlay": n}));
    }
    if !f.labels.is_empty() {
        let related: Vec<Value> = f
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                json!({
                    "id": i,
                    "message": {"text": l.text},
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        "region": region(src, l.span, false),
                    }
                })
            })
            .collect();
        if let Value::Object(m) = &mut r {
            m.insert("relatedLocations".into(), Value::Array(related));
        }
    }
    r
}

/// Markdown text wrapped over lines, as one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The whole SARIF log around `results`: one rule per finding code, from the code table.
/// `results` is the array of [`result`] values (or [`super::stream::Streamed::placeholder`]).
pub fn document(results: Value) -> Value {
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|c| {
            let d = c.doc();
            let help = match d.what_to_do {
                Some(t) => format!(
                    "{} Source: {}. See docs/errors.md#{}.",
                    one_line(t),
                    c.source(),
                    c.as_str()
                ),
                None => format!("Source: {}. See docs/errors.md#{}.", c.source(), c.as_str()),
            };
            json!({
                "id": c.as_str(),
                "name": c.as_str(),
                "shortDescription": {"text": c.description()},
                "fullDescription": {"text": one_line(d.meaning)},
                "defaultConfiguration": {"level": level(c.severity())},
                "help": {"text": help},
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "arbiter",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_come_from_the_code_table() {
        let doc = document(Value::Array(Vec::new()));
        let rules = doc["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        assert_eq!(rules.len(), Code::ALL.len());
        for (r, c) in rules.iter().zip(Code::ALL) {
            assert_eq!(r["id"], c.as_str());
            assert_eq!(r["shortDescription"]["text"], c.description());
            assert_eq!(r["fullDescription"]["text"], one_line(c.doc().meaning));
            assert!(r["help"]["text"].as_str().unwrap().contains(c.source()));
        }
        assert_eq!(rules[4]["id"], "two-squares-rule");
        assert_eq!(
            rules[4]["help"]["text"],
            "a ruling for the opponent; for archives played under another limit set `[TwoSquares \"N\"]` or `--two-squares N` (0 turns it off). Source: rulings §1.4. See docs/errors.md#two-squares-rule."
        );
    }
}
