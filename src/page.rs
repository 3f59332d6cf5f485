//! `arbiter report PATH... -o FILE.html`: judges every game of the inputs as `check` does and
//! writes one self-contained HTML page of them ([`crate::report::html`], docs/report.md).
//!
//! Exit codes as for `check`: 0 no error finding, 1 error findings, 2 some input could not be
//! read or judged, a game has no player of the `--as` name, or the page could not be written
//! (then no page is written).

use crate::finding::Severity;
use crate::input;
use crate::pipeline::{self, GameReport, Options};
use crate::report::html::{self, GameInput, Kits, ReportOptions};
use crate::report::Summary;
use crate::show::side_named;
use crate::types::{ExitStatus, Side};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The side called `name` in the judged game `report` (`None`: the arbiter's page, or a game
/// that names no ruleset), or why the game has no such player.
fn viewer_in(report: &GameReport, name: Option<&str>) -> Result<Option<Side>, String> {
    let (Some(name), Some(g)) = (name, report.game) else {
        return Ok(None);
    };
    match side_named(g.side_names(), name) {
        Some(side) => Ok(Some(side)),
        None => {
            let [a, b] = g.side_names();
            Err(format!(
                "{} game {} is {}, which has no {name} player (its players: {}, {})",
                crate::escape::visible_line(&report.source),
                report.index.saturating_add(1),
                g.as_str(),
                a.to_lowercase(),
                b.to_lowercase()
            ))
        }
    }
}

/// Judges the games of `paths` and writes their page to `out`; says what it wrote (or why
/// it could not) on `err`.
pub fn run(paths: &[PathBuf], out: &Path, opts: &ReportOptions, err: &mut dyn Write) -> ExitStatus {
    let check = Options {
        overrides: opts.overrides.clone(),
    };
    let mut kits = Kits::default();
    let mut sections = String::new();
    let mut rows = Vec::new();
    let mut summary = Summary::default();
    for inp in input::expand(paths) {
        summary.files += 1;
        for chunk in input::chunks(&inp) {
            for rec in pipeline::parse_chunk(&chunk) {
                let report = pipeline::check_record(&chunk.source, &rec, &check);
                summary.add(&report, Severity::Error);
                let viewer = match viewer_in(&report, opts.viewer.as_deref()) {
                    Ok(v) => v,
                    Err(why) => {
                        let _ = writeln!(err, "arbiter: {why}; no page written");
                        return ExitStatus::Unusable;
                    }
                };
                let g = GameInput {
                    number: rows.len(),
                    record: &rec,
                    report: &report,
                    for_player: opts.viewer.is_some(),
                };
                rows.push(html::game_section(
                    &g,
                    viewer,
                    &mut kits,
                    opts.faces,
                    &mut sections,
                ));
            }
        }
    }
    let title = match &opts.viewer {
        None => "arbiter: adjudication".to_string(),
        Some(v) => {
            let mut c = v.chars();
            let name: String = c
                .next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default();
            format!("arbiter: adjudication, {name}'s view")
        }
    };
    let subtitle = summary.line().trim_start_matches("arbiter: ").to_string();
    let page = html::page(&title, &subtitle, &rows, &kits, &sections);
    if let Err(e) = std::fs::write(out, page) {
        let _ = writeln!(
            err,
            "arbiter: cannot write {}: {e}",
            crate::escape::visible_line(&out.display().to_string())
        );
        return ExitStatus::Unusable;
    }
    let _ = writeln!(
        err,
        "arbiter: wrote {}",
        crate::escape::visible_line(&out.display().to_string())
    );
    let _ = writeln!(err, "{}", summary.line());
    if summary.unusable {
        ExitStatus::Unusable
    } else if summary.failing {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    }
}
