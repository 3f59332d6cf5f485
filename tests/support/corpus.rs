//! Helpers shared by the tests that read the real records in `../shared/corpus/` (never copied
//! into the project). Each test crate uses only part of this module.
#![allow(dead_code)]

use arbiter::{check_source, Code, GameReport, Options, Severity, Source};
use std::path::PathBuf;

/// `../shared/corpus/<folder>` relative to the crate root, or `None` after printing
/// `SKIPPED: ../shared/corpus/<folder> is absent` when the folder is missing (a clean clone
/// without the shared material beside it).
pub fn corpus_dir(folder: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(folder);
    if dir.is_dir() {
        Some(dir)
    } else {
        // Written to stderr directly, not with `eprintln!`, which the test harness captures:
        // a skip must show in the `cargo test` log.
        let line = format!("SKIPPED: ../shared/corpus/{folder} is absent\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        None
    }
}

/// A native log (docs/log-format.md) of one Stratego-family game: the tags in order, Red's
/// and Blue's setup rows as (rank, cells), then the movetext as written.
pub fn native_log(
    tags: &[(&str, String)],
    red: &[(u32, String)],
    blue: &[(u32, String)],
    movetext: &str,
) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    for (word, rows) in [("red", red), ("blue", blue)] {
        out.push_str(&format!("\nsetup {word}\n"));
        for (rank, cells) in rows {
            out.push_str(&format!("{rank:>3} {cells}\n"));
        }
    }
    out.push('\n');
    out.push_str(movetext);
    out.push('\n');
    out
}

/// Runs the whole pipeline (parse, replay, result check) over one in-memory log.
pub fn check_text(name: &str, text: &str) -> Vec<GameReport> {
    check_source(
        &Source::from_bytes(name, text.as_bytes().to_vec()),
        &Options::default(),
    )
}

/// The codes of a game's error findings, in report order.
pub fn error_codes(report: &GameReport) -> Vec<Code> {
    report
        .findings
        .iter()
        .filter(|f| f.severity() == Severity::Error)
        .map(|f| f.code)
        .collect()
}

/// One line per finding (code, ply, message), for assertion messages.
pub fn describe(report: &GameReport) -> String {
    report
        .findings
        .iter()
        .map(|f| format!("{} (ply {:?}): {}", f.code, f.ply, f.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The human report (no colour) of `../shared/corpus/<folder>/<file>`, named by that relative
/// path (tests run from the crate root), for snapshots that read the same on every machine.
pub fn render(folder: &str, file: &str) -> String {
    let path = PathBuf::from("../shared/corpus").join(folder).join(file);
    let mut out = Vec::new();
    let _ = arbiter::run::check(
        &[path],
        &arbiter::run::CheckOptions::default(),
        &mut out,
        &mut std::io::sink(),
    );
    String::from_utf8_lossy(&out).into_owned()
}

/// Findings of `reports` counted by code, on main lines and on variations
/// (`"illegal-move variation"`): the figures of the Xiangqi archive tests.
pub fn findings_by_code(reports: &[GameReport]) -> std::collections::BTreeMap<String, usize> {
    let mut out = std::collections::BTreeMap::new();
    for f in reports.iter().flat_map(|g| &g.findings) {
        let on = if f.line == 0 { "main" } else { "variation" };
        *out.entry(format!("{} {on}", f.code)).or_default() += 1;
    }
    out
}

/// `(key, count)` pairs as the map [`findings_by_code`] gives.
pub fn counts(pairs: &[(&str, usize)]) -> std::collections::BTreeMap<String, usize> {
    pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}
