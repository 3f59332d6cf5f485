//! The hand-worked fixtures of `fixtures/<game>/`: listing and reading them, their header
//! lines, and the one harness that holds each game to the verdict its header states.
//!
//! The verdict grammar (docs/adding-a-game.md), lines of a game's text or of the comment
//! before it:
//! - `; expect: F ...` — the findings in report order, each `code@ply`, `code@-` without a
//!   ply, `code@ply/lineN` on the record's variation N; `none` (or no such line) for no
//!   finding. Several `; expect:` lines of one game add up.
//! - `; outcome: reason result ply` — how the moves end the game; `none` (or no such line)
//!   when they do not.
//!
//! Every game has at least one of these lines.
#![allow(dead_code)]

use arbiter::pipeline::{check_source, parse_source, GameReport, Options, Source};
use arbiter::record::GameRecord;
use arbiter::rules::{GameId, Outcome};
use arbiter::Finding;
use std::path::{Path, PathBuf};

/// The crate root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture files (`.arb`, `.pgn`) of `fixtures/<dir>`, sorted by name.
pub fn fixtures_in(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures").join(dir))
        .expect("the fixture folder exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("arb" | "pgn")))
        .collect();
    v.sort();
    v
}

/// The `; key: value` line of a fixture's header comment.
pub fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    header_lines(text, key).next()
}

/// Every `; key: value` line of `text`, the values trimmed.
fn header_lines<'a>(text: &'a str, key: &str) -> impl Iterator<Item = &'a str> {
    let prefix = format!("; {key}:");
    text.lines()
        .filter_map(move |l| l.trim_start().strip_prefix(prefix.as_str()).map(str::trim))
}

/// Reads a fixture as the CLI does, with the name relative to the crate root.
pub fn source(path: &Path) -> Source {
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    Source::from_bytes(name, std::fs::read(path).expect("readable fixture"))
}

/// Each finding of a report as `code@ply` (`-` without a ply), `code@ply/lineN` on the
/// record's variation N, in report order: the form of a fixture's `; expect:` line.
pub fn codes_at_plies(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| {
            let line = match f.line {
                0 => String::new(),
                n => format!("/line{n}"),
            };
            format!(
                "{}@{}{line}",
                f.code,
                f.ply.map_or("-".to_string(), |p| p.to_string())
            )
        })
        .collect()
}

/// A report's outcome as `reason result ply`, or `none`: the form of a fixture's
/// `; outcome:` line.
pub fn outcome_text(outcome: Option<&Outcome>) -> String {
    outcome.map_or("none".to_string(), |o| {
        format!("{} {} {}", o.reason, o.result.as_str(), o.ply)
    })
}

/// One fixture file, parsed and judged.
pub struct Judged {
    /// The file as read.
    pub src: Source,
    /// Its games as parsed.
    pub records: Vec<GameRecord>,
    /// Its games as judged, one a record.
    pub reports: Vec<GameReport>,
}

/// One game's verdict in the grammar above.
struct Stated {
    /// The findings as `code@ply`, in report order.
    findings: Vec<String>,
    /// The outcome as `reason result ply`, or `none`.
    outcome: String,
}

impl Stated {
    /// The verdict from the values of the `; expect:` lines and the `; outcome:` line.
    fn new<'a>(expect: impl IntoIterator<Item = &'a str>, outcome: Option<&str>) -> Stated {
        Stated {
            findings: expect
                .into_iter()
                .flat_map(str::split_whitespace)
                .filter(|f| *f != "none")
                .map(String::from)
                .collect(),
            outcome: outcome.unwrap_or("none").to_string(),
        }
    }

    /// The verdict the lines of `text` state, `None` without any.
    fn read(text: &str) -> Option<Stated> {
        let expect: Vec<&str> = header_lines(text, "expect").collect();
        let outcome = header(text, "outcome");
        (!expect.is_empty() || outcome.is_some()).then(|| Stated::new(expect, outcome))
    }

    /// How `report` differs from this verdict, one text a difference.
    fn differences(&self, report: &GameReport) -> Vec<String> {
        let got = codes_at_plies(&report.findings);
        let got_outcome = outcome_text(report.outcome.as_ref());
        let mut out = Vec::new();
        if got != self.findings {
            out.push(format!(
                "findings\n    stated: {}\n    judged: {}",
                self.findings.join(" "),
                got.join(" ")
            ));
        }
        if got_outcome != self.outcome {
            out.push(format!(
                "outcome\n    stated: {}\n    judged: {got_outcome}",
                self.outcome
            ));
        }
        out
    }
}

/// Panics with `failures`, the differences from the hand-worked verdicts, unless there are
/// none.
fn assert_none(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} differences from the hand-worked verdicts:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Judges every fixture in `files` with the options `options` gives for its text, and holds
/// each game to the verdict its lines state (the module's grammar; a game's lines are those
/// after the game before it, up to its end). Panics with every difference; returns the judged
/// files for further checks.
pub fn assert_fixture_verdicts(
    files: &[PathBuf],
    options: impl Fn(&str) -> Options,
) -> Vec<Judged> {
    let mut failures = Vec::new();
    let mut judged = Vec::new();
    for path in files {
        let src = source(path);
        let records = parse_source(&src);
        let reports = check_source(&src, &options(&src.text));
        assert_eq!(records.len(), reports.len(), "{}: games", src.name);
        let mut from = 0;
        for (rec, report) in records.iter().zip(&reports) {
            let text = &src.text[from..rec.span.end];
            from = rec.span.end;
            let at = format!("{} game {}", src.name, rec.index + 1);
            match Stated::read(text) {
                Some(want) => failures.extend(
                    want.differences(report)
                        .iter()
                        .map(|d| format!("{at}: {d}")),
                ),
                None => failures.push(format!("{at}: no `; expect:` or `; outcome:` line")),
            }
        }
        judged.push(Judged {
            src,
            records,
            reports,
        });
    }
    assert_none(&failures);
    judged
}

/// Holds the games of fixture `name`, judged as `reports`, to the verdicts `want` states in
/// the grammar above, `(expect, outcome)` a game: for fixtures whose header works the verdict
/// out in prose only (their lines are pinned by snapshots, so no line is added to them).
pub fn assert_verdicts(name: &str, reports: &[GameReport], want: &[(&str, &str)]) {
    let mut failures = Vec::new();
    if reports.len() != want.len() {
        failures.push(format!(
            "{name}: {} games judged, {} stated",
            reports.len(),
            want.len()
        ));
    }
    for (i, (report, (expect, outcome))) in reports.iter().zip(want).enumerate() {
        let at = format!("{name} game {}", i + 1);
        let differences = verdict_differences(report, expect, outcome);
        failures.extend(differences.iter().map(|d| format!("{at}: {d}")));
    }
    assert_none(&failures);
}

/// How `report` differs from the verdict `expect` (the findings) and `outcome` state in the
/// grammar above, one text a difference: for a harness that checks more than the verdict.
pub fn verdict_differences(report: &GameReport, expect: &str, outcome: &str) -> Vec<String> {
    Stated::new([expect], Some(outcome)).differences(report)
}

/// [`assert_fixture_verdicts`] for fixtures of one game each, all judged as `game`.
pub fn assert_one_game_verdicts(
    files: &[PathBuf],
    options: impl Fn(&str) -> Options,
    game: GameId,
) {
    for j in assert_fixture_verdicts(files, options) {
        assert_eq!(j.reports.len(), 1, "{}: one game per fixture", j.src.name);
        assert_eq!(j.reports[0].game, Some(game), "{}: ruleset", j.src.name);
    }
}

/// Every finding of every fixture in `files`, rendered as the human report does (no colour,
/// 100 columns), one after another: the text of a diagnostics snapshot.
pub fn rendered_diagnostics(files: Vec<PathBuf>, options: impl Fn(&str) -> Options) -> String {
    let style = arbiter::report::human::Style {
        color: false,
        width: 100,
    };
    let mut out = String::new();
    for path in files {
        let src = source(&path);
        for r in check_source(&src, &options(&src.text)) {
            for f in &r.findings {
                out.push_str(&arbiter::report::human::render_in(
                    f,
                    &arbiter::report::SourceWindow::whole(&src.name, &src.text),
                    r.index,
                    &r.branches,
                    style,
                ));
            }
        }
    }
    out
}
