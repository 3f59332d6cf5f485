//! Every output renderer on the same sample findings (issue 18): one set of games built here by
//! hand, each pointing into its own source window, rendered by every format through the same
//! writer `arbiter check` uses, each format pinned by its own snapshot.
//!
//! The samples cover what renderers get wrong: a window that starts inside its source (a
//! second game: lines, columns and byte offsets are the source's), multi-byte text before a
//! span (columns in characters, rdjson's in bytes), secondary labels, a repetition verdict, a
//! finding without a ply, every severity, a binary source without lines, an unusable game, and
//! a message that tries to inject terminal escapes, workflow commands and markup.

use arbiter::finding::{Code, Finding, Rule};
use arbiter::pipeline::GameReport;
use arbiter::report::writer::{Format, Writer};
use arbiter::report::{SourceWindow, Summary};
use arbiter::rules::{EndReason, GameId, Outcome, Parameters, RecordedResult, Span};
use arbiter::types::Verdict;
use arbiter::Severity;

/// The first source: two Xiangqi games, the second read as its own window.
const ONE: &str = "[Game \"xiangqi\"]\n[Red \"Lǐ 炮\"]\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n[Game \"barrage\"]\n1. h1-h2 e10-e9 2. h2-h1 e9-e8 3. h1-h2 e8-e7 4. h2-h1 *\n";
/// Where the second game starts in [`ONE`].
fn second_start() -> usize {
    ONE.find("[Game \"barrage").unwrap()
}
/// The hostile source.
const HOSTILE: &str = "[Game \"stratego\"]\n1. \u{1b}[31m::error file=x::owned <script>%0A\r\n";

fn report(source: &str, index: usize, game: Option<GameId>, findings: Vec<Finding>) -> GameReport {
    GameReport {
        source: source.into(),
        index,
        game,
        parameters: Parameters::default(),
        plies: 4,
        result: Some(RecordedResult::Unknown),
        termination: None,
        outcome: None,
        findings,
        lines: 1,
        ..GameReport::default()
    }
}

/// The sample games, each with the window its findings point into.
fn samples() -> Vec<(GameReport, SourceWindow<'static>)> {
    let at = |s: &str| ONE.find(s).unwrap();
    let span = |s: &str| Span::new(at(s), at(s) + s.len());
    let chase = Finding::new(
        Code::PerpetualChase,
        span("i9h9"),
        "Black chased the Red Horse on g2 with every move of the repetition",
        Rule::Repetition,
    )
    .at_ply(4)
    .label("the third occurrence")
    .help("Black loses (rulings §4.3)")
    .with_label(span("h9g7"), "ply 2: the chase begins")
    .with_label(span("Lǐ 炮"), "the player")
    .with_verdict(Verdict {
        result: RecordedResult::FirstWins,
        reason: EndReason::PerpetualChase,
    });
    let no_result = Finding::new(
        Code::NoResult,
        span("*"),
        "the log records no result",
        Rule::LogResultTag,
    )
    .help("add [Result \"1-0\"]: the moves show Red wins");
    let mut first = report(
        "samples/one.arb",
        0,
        Some(GameId::Xiangqi),
        vec![chase, no_result],
    );
    first.outcome = Some(Outcome {
        result: RecordedResult::FirstWins,
        reason: EndReason::PerpetualChase,
        ply: 4,
    });
    let two_squares = Finding::new(
        Code::TwoSquaresRule,
        Span::new(at("4. h2-h1") + 3, at("4. h2-h1") + 8),
        "the Marshal on h2 moves between the same two squares for the 4th time in a row",
        Rule::TwoSquares,
    )
    .at_ply(7)
    .with_label(span("1. h1-h2"), "ply 1: part of the run");
    let defect = Finding::new(
        Code::RecordDefect,
        span("e10-e9"),
        "file letter read as written",
        Rule::GravonFormat,
    );
    let second = report(
        "samples/one.arb",
        1,
        Some(GameId::Barrage),
        vec![two_squares, defect],
    );
    let xqf = Finding::new(
        Code::IllegalMove,
        Span::new(1024, 1028),
        "the Chariot on a0 cannot reach a5",
        Rule::Xiangqi,
    )
    .at_ply(9);
    let third = report("samples/two.xqf", 0, Some(GameId::Xiangqi), vec![xqf]);
    let hostile = Finding::new(
        Code::ParseError,
        Span::new(21, HOSTILE.len() - 1),
        format!("`{}` is not a move", &HOSTILE[21..HOSTILE.len() - 2]),
        Rule::LogMoves,
    )
    .label("\u{1b}]8;;http://x\u{7}link\u{202e}");
    let fourth = report("samples/hostile\u{1b}[2J.arb", 0, None, vec![hostile]);
    let mut binary = SourceWindow::new("samples/two.xqf", "", 0, 0);
    binary.binary = true;
    vec![
        (
            first,
            SourceWindow::new("samples/one.arb", &ONE[..second_start()], 0, 0),
        ),
        (
            second,
            SourceWindow::new("samples/one.arb", &ONE[second_start()..], second_start(), 4),
        ),
        (third, binary),
        (
            fourth,
            SourceWindow::whole("samples/hostile\u{1b}[2J.arb", HOSTILE),
        ),
    ]
}

/// The samples rendered in `format` as `arbiter check` writes them (colours off, games at
/// `error` failing), the crate version masked.
fn render(format: Format) -> String {
    let games = samples();
    let mut out = Vec::new();
    let mut summary = Summary {
        files: 3,
        ..Summary::default()
    };
    let mut writer = Writer::start(format, Severity::Error, &mut out).unwrap();
    let renderer = writer.renderer(false);
    for (g, src) in &games {
        summary.add(g, Severity::Error);
        let pieces = renderer.game(g, src, &[]);
        writer.write(&mut out, g, &pieces).unwrap();
    }
    writer.finish(&mut out, &summary).unwrap();
    String::from_utf8(out)
        .unwrap()
        .replace(env!("CARGO_PKG_VERSION"), "[version]")
}

#[test]
fn the_samples_point_where_they_say() {
    let games = samples();
    assert_eq!(ONE[..second_start()].lines().count(), 4);
    for (g, src) in &games[..2] {
        for f in &g.findings {
            let local = f.span.start - src.offset;
            assert!(local <= src.text.len(), "{f:?} outside its window");
        }
    }
}

#[test]
fn human() {
    insta::assert_snapshot!("render_human", render(Format::Human));
}

#[test]
fn json() {
    let text = render(Format::Json);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["games"][1]["findings"][0]["line"], 6);
    insta::assert_snapshot!("render_json", text);
}

#[test]
fn jsonl() {
    let text = render(Format::Jsonl);
    assert_eq!(text.lines().count(), 5);
    insta::assert_snapshot!("render_jsonl", text);
}

#[test]
fn sarif() {
    insta::assert_snapshot!("render_sarif", render(Format::Sarif));
}

#[test]
fn github() {
    let text = render(Format::Github);
    // one workflow command a finding, and nothing else starts one
    assert_eq!(text.lines().count(), 6);
    assert!(text.lines().all(|l| l.starts_with("::error ")
        || l.starts_with("::warning ")
        || l.starts_with("::notice ")));
    assert!(!text.contains('\u{1b}'));
    insta::assert_snapshot!("render_github", text);
}

#[test]
fn junit() {
    let text = render(Format::Junit);
    assert!(!text.contains('\u{1b}') && !text.contains("<script>"));
    insta::assert_snapshot!("render_junit", text);
}

#[test]
fn rdjson() {
    let text = render(Format::Rdjson);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    // the span after "Lǐ 炮" on line 2: columns count UTF-8 bytes in rdjson
    let label = &doc["diagnostics"][0]["related_locations"][1]["location"]["range"];
    assert_eq!(label["start"], serde_json::json!({"line": 2, "column": 7}));
    assert_eq!(label["end"], serde_json::json!({"line": 2, "column": 14}));
    insta::assert_snapshot!("render_rdjson", text);
}

#[test]
fn gitlab() {
    let text = render(Format::Gitlab);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let prints: std::collections::BTreeSet<&str> = doc
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(prints.len(), 6, "every fingerprint is unique");
    insta::assert_snapshot!("render_gitlab", text);
}
