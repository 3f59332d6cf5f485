//! Machine output: the JSON document of `arbiter check --format json`, the lines of `--format
//! jsonl` (schemas in `schemas/`, generated from these types by [`crate::schema`]).

use super::stream::Streamed;
use super::SourceWindow;
use super::Summary;
use crate::finding::{Code, Finding, Label, Rule, Severity};
use crate::pipeline::{Branch, GameReport};
use crate::types::Verdict;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// A secondary place a finding points at.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct LabelJson<'a> {
    /// What that place shows.
    pub text: &'a str,
    /// Line (from 1); null in a binary source (XQF).
    pub line: Option<usize>,
    /// Column (from 1, in characters); null in a binary source.
    pub column: Option<usize>,
    /// Byte offset in the source.
    pub offset: usize,
    /// Length in bytes.
    pub length: usize,
}

/// One finding.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FindingJson<'a> {
    /// The stable finding code (docs/errors.md).
    pub code: Code,
    /// The code's severity.
    pub severity: Severity,
    /// The ply (from 1, in the order played) the finding belongs to; null for findings about
    /// the record as a whole.
    pub ply: Option<u32>,
    /// Its line of play: 0 the main line, `n` the record's variation `n`.
    pub line_of_play: usize,
    /// Where a variation's line branches off; null on the main line.
    pub branch: Option<&'a Branch>,
    /// One-line headline.
    pub message: &'a str,
    /// The rule broken and where it is written (`rulings §1.4 ...`).
    pub rule: Rule,
    /// What to do about it.
    pub help: Option<&'a str>,
    /// The text drawn under the finding's span.
    pub label: &'a str,
    /// Line of the span's start (from 1); null in a binary source (XQF).
    pub line: Option<usize>,
    /// Column of the span's start (from 1, in characters); null in a binary source.
    pub column: Option<usize>,
    /// Byte offset of the span in the source.
    pub offset: usize,
    /// Length of the span in bytes.
    pub length: usize,
    /// The other places the finding points at.
    pub labels: Vec<LabelJson<'a>>,
    /// Xiangqi and Jieqi repetition findings only: the result and reason the third occurrence
    /// gives (rulings §4.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

impl<'a> LabelJson<'a> {
    fn of(l: &'a Label, src: &SourceWindow) -> Self {
        let (line, column) = src.position(l.span.start).unzip();
        LabelJson {
            text: &l.text,
            line,
            column,
            offset: l.span.start,
            length: l.span.len(),
        }
    }
}

impl<'a> FindingJson<'a> {
    /// `f` as JSON; `src` is the window of the source it points into.
    pub fn of(f: &'a Finding, src: &SourceWindow) -> Self {
        Self::of_in(f, src, &[])
    }

    /// [`FindingJson::of`] in a game whose variations branch off as `branches` say
    /// ([`GameReport::branches`]).
    pub fn of_in(f: &'a Finding, src: &SourceWindow, branches: &'a [Branch]) -> Self {
        let (line, column) = src.position(f.span.start).unzip();
        FindingJson {
            code: f.code,
            severity: f.severity(),
            ply: f.ply,
            line_of_play: f.line,
            branch: f.line.checked_sub(1).and_then(|i| branches.get(i)),
            message: &f.message,
            rule: f.rule,
            help: f.help.as_deref(),
            label: &f.label,
            line,
            column,
            offset: f.span.start,
            length: f.span.len(),
            labels: f.labels.iter().map(|l| LabelJson::of(l, src)).collect(),
            verdict: f.verdict,
        }
    }
}

/// One game: what the log records, what the moves show, and the findings.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GameJson<'a> {
    #[serde(flatten)]
    pub report: &'a GameReport,
    /// The findings, record-level first, then by ply.
    pub findings: Vec<FindingJson<'a>>,
}

/// The program that wrote a document.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ArbiterInfo {
    /// arbiter's version.
    pub version: &'static str,
}

impl Default for ArbiterInfo {
    fn default() -> Self {
        ArbiterInfo {
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// The document of `arbiter check --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CheckDocument<G> {
    /// The program.
    pub arbiter: ArbiterInfo,
    /// Every game of every input, in input order.
    pub games: G,
    /// The run's counts.
    pub summary: Summary,
}

/// The last line of `arbiter check --format jsonl`.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonlSummary<'a> {
    /// The program.
    pub arbiter: ArbiterInfo,
    /// The run's counts.
    pub summary: &'a Summary,
}

/// One line of `arbiter check --format jsonl`: a game, or the summary that ends the stream.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum JsonlLine<'a> {
    /// A game (one line per game, in input order).
    Game(GameJson<'a>),
    /// The last line.
    Summary(JsonlSummary<'a>),
}

/// One finding as JSON ([`FindingJson`]); `src` is the window of the source it points into.
pub fn finding(f: &Finding, src: &SourceWindow) -> Value {
    serde_json::to_value(FindingJson::of(f, src)).unwrap_or(Value::Null)
}

/// One game as JSON ([`GameJson`]); `src` is the window of the source it was read from.
pub fn game(g: &GameReport, src: &SourceWindow) -> Value {
    let findings = g
        .findings
        .iter()
        .map(|f| FindingJson::of_in(f, src, &g.branches))
        .collect();
    serde_json::to_value(GameJson {
        report: g,
        findings,
    })
    .unwrap_or(Value::Null)
}

/// [`game`] as text, pretty (as `serde_json::to_string_pretty` prints it) or compact, built
/// finding by finding: a game with a million findings never holds them all as JSON values.
pub fn game_text(g: &GameReport, src: &SourceWindow, pretty: bool) -> String {
    let empty = GameJson {
        report: g,
        findings: Vec::new(),
    };
    let mut v = serde_json::to_value(empty).unwrap_or(Value::Null);
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
            out.push_str(&items.item(&FindingJson::of_in(f, src, &g.branches)));
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
        out.push_str(
            &serde_json::to_string(&FindingJson::of_in(f, src, &g.branches)).unwrap_or_default(),
        );
    }
    out.push_str(&after);
    out
}

/// The whole document: `{"arbiter":{"version":..},"games":[..],"summary":{..}}`.
/// `games` is the array of [`game`] values (or [`super::stream::Streamed::placeholder`]).
pub fn document(games: Value, summary: &Summary) -> Value {
    let doc = CheckDocument {
        arbiter: ArbiterInfo::default(),
        games,
        summary: summary.clone(),
    };
    serde_json::to_value(doc).unwrap_or(Value::Null)
}

/// JSON Lines' last line: `{"arbiter":{"version":..},"summary":{..}}`.
pub fn jsonl_summary(summary: &Summary) -> String {
    let line = JsonlSummary {
        arbiter: ArbiterInfo::default(),
        summary,
    };
    serde_json::to_string(&line).unwrap_or_default()
}
