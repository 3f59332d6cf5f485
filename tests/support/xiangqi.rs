//! Helpers shared by the Xiangqi and Jieqi tests (`tests/games/xiangqi.rs`,
//! `xiangqi_notation.rs`, `jieqi.rs`): the hand-worked fixtures in
//! `fixtures/xiangqi/` and `fixtures/jieqi/` and their header lines.
#![allow(dead_code)]

use arbiter::pipeline::Source;
use std::path::{Path, PathBuf};

/// The crate root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture files (`.arb`, `.pgn`) of `fixtures/xiangqi`, sorted by name.
pub fn fixtures() -> Vec<PathBuf> {
    fixtures_in("xiangqi")
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
    let prefix = format!("; {key}:");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .map(str::trim)
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
pub fn codes_at_plies(findings: &[arbiter::Finding]) -> Vec<String> {
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
pub fn outcome_text(outcome: Option<&arbiter::rules::Outcome>) -> String {
    outcome.map_or("none".to_string(), |o| {
        format!("{} {} {}", o.reason, o.result.as_str(), o.ply)
    })
}

/// Checks every fixture in `files` against its `; expect:` line (the findings as
/// `code@ply`, or `none`) and its `; outcome:` line, with the options `options` gives for its
/// text; each fixture holds one game of `game`.
pub fn assert_fixture_verdicts(
    files: Vec<PathBuf>,
    options: impl Fn(&str) -> arbiter::pipeline::Options,
    game: arbiter::rules::GameId,
) {
    for path in files {
        let src = source(&path);
        let expect = header(&src.text, "expect")
            .unwrap_or_else(|| panic!("{}: no `; expect:` line", src.name));
        let outcome = header(&src.text, "outcome")
            .unwrap_or_else(|| panic!("{}: no `; outcome:` line", src.name));
        let reports = arbiter::pipeline::check_source(&src, &options(&src.text));
        assert_eq!(reports.len(), 1, "{}: one game per fixture", src.name);
        let r = &reports[0];
        let want: Vec<String> = if expect == "none" {
            Vec::new()
        } else {
            expect.split_whitespace().map(String::from).collect()
        };
        assert_eq!(codes_at_plies(&r.findings), want, "{}: findings", src.name);
        assert_eq!(
            outcome_text(r.outcome.as_ref()),
            outcome,
            "{}: outcome",
            src.name
        );
        assert_eq!(r.game, Some(game), "{}: ruleset", src.name);
    }
}

/// Every finding of every fixture in `files`, rendered as the human report does (no colour,
/// 100 columns), one after another: the text of a diagnostics snapshot.
pub fn rendered_diagnostics(
    files: Vec<PathBuf>,
    options: impl Fn(&str) -> arbiter::pipeline::Options,
) -> String {
    let style = arbiter::report::human::Style {
        color: false,
        width: 100,
    };
    let mut out = String::new();
    for path in files {
        let src = source(&path);
        for r in arbiter::pipeline::check_source(&src, &options(&src.text)) {
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
