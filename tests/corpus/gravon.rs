//! The five real Gravon XML records in `../shared/corpus/stratego-gravon/` (SOURCE.md there),
//! read directly and judged end to end through the pipeline.
//!
//! Expected verdicts, from the records themselves and SOURCE.md:
//! - `classic-2005.4-568.xml`: 271 plies; Red's ply 271 lands on Blue's Flag, and the record
//!   says `<result type="1" winner="1">` (flag captured, Red wins): outcome 1-0,
//!   `flag-captured`, ply 271, no error finding.
//! - `classic-2015.2-2341.xml`: 362 plies, all legal; `<result type="3" winner="2">` (Blue wins
//!   by forfeit): the board does not end the game, the result 0-1 rests on the recorded
//!   termination `forfeit`, no error finding.
//! - the two `classicfree` files and the `ultimate lightning` file: rulings §1.1 says these
//!   variants are not supported, so each gets exactly one error, `unsupported-game` (the
//!   ultimate lightning file also carries `record-defect` warnings for its rescue moves and its
//!   file letter `J`), and is not replayed.

use crate::corpus_support;

use arbiter::record::RecordedResult;
use arbiter::{check_source, Code, GameReport, Options, Severity, Source};
use corpus_support::{corpus_dir, describe, error_codes};

fn judge(file: &str) -> Option<GameReport> {
    let dir = corpus_dir("stratego-gravon")?;
    let path = dir.join(file);
    assert!(
        path.is_file(),
        "{} is missing from the corpus",
        path.display()
    );
    let mut reports = check_source(&Source::read(&path), &Options::default());
    assert_eq!(reports.len(), 1, "{file} holds one game");
    Some(reports.remove(0))
}

#[test]
fn classic_2005_ends_with_reds_flag_capture_on_ply_271() {
    let Some(g) = judge("classic-2005.4-568.xml") else {
        return;
    };
    assert_eq!(error_codes(&g), vec![], "{}", describe(&g));
    assert_eq!(g.game.map(|x| x.as_str()), Some("stratego"));
    assert_eq!(
        g.parameters.two_squares,
        Some(arbiter::rules::TwoSquares::from_count(5)),
        "Gravon plays TwoSquares 5"
    );
    assert_eq!(g.plies, 271);
    assert_eq!(g.result, Some(RecordedResult::FirstWins));
    assert_eq!(g.termination.as_deref(), Some("flag-captured"));
    let o = g.outcome.expect("the moves end the game");
    assert_eq!(
        (o.result, o.reason, o.ply),
        (
            RecordedResult::FirstWins,
            arbiter::rules::EndReason::FlagCaptured,
            271
        )
    );
    assert_eq!(g.findings, vec![], "no warning or info either");
}

#[test]
fn classic_2015_replays_all_362_plies_and_blue_wins_by_forfeit() {
    let Some(g) = judge("classic-2015.2-2341.xml") else {
        return;
    };
    assert_eq!(error_codes(&g), vec![], "{}", describe(&g));
    assert_eq!(g.game.map(|x| x.as_str()), Some("stratego"));
    assert_eq!(g.plies, 362);
    let replay = g.replay.as_ref().expect("replayed");
    assert!(!replay.stopped, "every ply was applied");
    assert_eq!(g.result, Some(RecordedResult::SecondWins));
    assert_eq!(g.termination.as_deref(), Some("forfeit"));
    assert_eq!(g.outcome, None, "the board does not end this game");
    assert_eq!(g.findings, vec![], "no warning or info either");
}

#[test]
fn unsupported_variants_are_reported_not_replayed() {
    for (file, warnings) in [
        ("classicfree-2005.5-4228.xml", 0),
        ("classicfree-2005.5-459.xml", 0),
        // two rescue moves, and ply 112 writes the file letter J twice (J2, J1)
        ("ultimate lightning-2005.5-4822.xml", 4),
    ] {
        let Some(g) = judge(file) else {
            return;
        };
        assert_eq!(
            error_codes(&g),
            vec![Code::UnsupportedGame],
            "{file}: {}",
            describe(&g)
        );
        let others: Vec<_> = g
            .findings
            .iter()
            .filter(|f| f.severity() != Severity::Error)
            .collect();
        assert!(
            others.iter().all(|f| f.code == Code::RecordDefect),
            "{file}: {}",
            describe(&g)
        );
        assert_eq!(others.len(), warnings, "{file}: {}", describe(&g));
        assert_eq!(g.plies, 0, "{file} is not replayed");
        assert_eq!(g.outcome, None);
        assert!(g.game.is_none(), "{file} names no supported ruleset");
    }
}

#[test]
fn the_whole_folder_exits_2_because_of_the_unsupported_variants() {
    let Some(dir) = corpus_dir("stratego-gravon") else {
        return;
    };
    let sources = arbiter::pipeline::collect_sources(&[dir]);
    let names: Vec<String> = sources
        .iter()
        .map(|s| {
            std::path::Path::new(&s.name)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        names,
        [
            "classic-2005.4-568.xml",
            "classic-2015.2-2341.xml",
            "classicfree-2005.5-4228.xml",
            "classicfree-2005.5-459.xml",
            "ultimate lightning-2005.5-4822.xml",
        ],
        "walked in name order"
    );
    let mut summary = arbiter::Summary::default();
    for s in &sources {
        for g in check_source(s, &Options::default()) {
            summary.add(&g, arbiter::Severity::Error);
        }
    }
    assert_eq!((summary.games, summary.plies, summary.errors), (5, 633, 3));
    assert_eq!(arbiter::run::status(&summary, false).code(), 2);
}

#[test]
fn the_classic_games_convert_to_native_logs_that_replay_the_same() {
    use arbiter::pipeline::parse_source;
    use arbiter::rules::Overrides;
    for file in ["classic-2005.4-568.xml", "classic-2015.2-2341.xml"] {
        let Some(dir) = corpus_dir("stratego-gravon") else {
            return;
        };
        let src = Source::read(&dir.join(file));
        let record = parse_source(&src).remove(0);
        let native = arbiter::convert::convert_one(&record, &Overrides::default(), None)
            .expect("classic is written");
        assert!(native.contains("[TwoSquares \"5\"]"), "{file}: {native}");
        let xml = judge(file).expect("present");
        let log = corpus_support::check_text(file, &native).remove(0);
        assert_eq!(log.findings, vec![], "{file}: {}", describe(&log));
        assert_eq!(
            (
                &log.parameters,
                log.plies,
                log.result,
                &log.termination,
                &log.outcome
            ),
            (
                &xml.parameters,
                xml.plies,
                xml.result,
                &xml.termination,
                &xml.outcome
            ),
            "{file}"
        );
        let keys = |g: &GameReport| -> Vec<u64> {
            let r = g.replay.as_ref().expect("replayed");
            std::iter::once(r.start_key)
                .chain(r.plies.iter().map(|p| p.key))
                .collect()
        };
        assert_eq!(
            keys(&log),
            keys(&xml),
            "{file}: the same positions, ply by ply"
        );
    }
}
