//! reviewdog's diagnostic format (`arbiter check --format rdjson`): one `DiagnosticResult`
//! whose `diagnostics` are the findings, for `reviewdog -f=rdjson`. Ranges are 1-based lines
//! and columns in UTF-8 bytes, the end exclusive (reviewdog.proto's `Position` and `Range`);
//! the schema is vendored in `schemas/vendor/reviewdog/`. Text from a log is made visible
//! ([`super::escape`]): reviewdog puts it on review pages and in terminals.

use super::{escape, headline, help_and_rule, relative_path, SourceWindow};
use crate::finding::{Finding, Severity};
use crate::types::Span;
use serde::Serialize;
use serde_json::{json, Value};

/// A position: line and column (1-based, the column in UTF-8 bytes).
#[derive(Debug, Serialize)]
struct Position {
    line: usize,
    column: usize,
}

/// A range; `end` is exclusive.
#[derive(Debug, Serialize)]
struct Range {
    start: Position,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<Position>,
}

/// A file and, in a text source, a range in it.
#[derive(Debug, Serialize)]
struct Location {
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<Range>,
}

/// A related location: a secondary label.
#[derive(Debug, Serialize)]
struct Related {
    message: String,
    location: Location,
}

/// The rule code.
#[derive(Debug, Serialize)]
struct CodeRef {
    value: &'static str,
}

/// One diagnostic.
#[derive(Debug, Serialize)]
struct Diagnostic {
    message: String,
    location: Location,
    severity: &'static str,
    code: CodeRef,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Related>,
}

/// reviewdog's name for a severity.
fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "ERROR",
        Severity::Warning => "WARNING",
        Severity::Info => "INFO",
    }
}

/// The location of `span` in `src`, its path relative as `path`.
fn location(src: &SourceWindow, path: &str, span: Span) -> Location {
    let pos = |at| {
        src.line_byte_col(at)
            .map(|(line, column)| Position { line, column })
    };
    let range = pos(span.start).map(|start| Range {
        start,
        end: if span.is_empty() { None } else { pos(span.end) },
    });
    Location {
        path: path.to_string(),
        range,
    }
}

/// The diagnostic of one finding of game `game_index` (from 0); `src` is the window of the
/// source it points into. The message is the headline, the help and the rule, one a line.
pub fn diagnostic(f: &Finding, src: &SourceWindow, game_index: usize) -> Value {
    let path = escape::visible(&relative_path(src.name)).into_owned();
    let message = format!("{}\n{}", headline(f, game_index), help_and_rule(f));
    let d = Diagnostic {
        message: escape::visible(&message).into_owned(),
        location: location(src, &path, f.span),
        severity: severity(f.severity()),
        code: CodeRef {
            value: f.code.as_str(),
        },
        related_locations: f
            .labels
            .iter()
            .map(|l| Related {
                message: escape::visible(&l.text).into_owned(),
                location: location(src, &path, l.span),
            })
            .collect(),
    };
    serde_json::to_value(d).unwrap_or(Value::Null)
}

/// The whole result around `diagnostics` (the array of [`diagnostic`] values, or
/// [`super::stream::Streamed::placeholder`]).
pub fn document(diagnostics: Value) -> Value {
    json!({
        "source": {"name": "arbiter"},
        "diagnostics": diagnostics,
    })
}
