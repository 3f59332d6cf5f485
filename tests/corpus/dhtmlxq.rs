//! The real DhtmlXQ records in `../shared/corpus/xiangqi-dhtmlxq/` (SOURCE.md and
//! MANIFEST.tsv there): ten wxf.ca pages of one game each and vschess's demo, a dpxq opening
//! book of 1,447 lines (a main line and 1,446 variations), every line judged.
//!
//! Expected figures, from SOURCE.md unless said otherwise:
//! - 11 files, 11 records, 1,457 lines; 107,871 plies in the tree (each ply once: 870 in the
//!   wxf games, 107,001 in the book; SOURCE.md's 124,600 counts every line from the start).
//! - Fairy-Stockfish (SOURCE.md's cross-check): 1,456 lines legal, 1 illegal (line 1194,
//!   branching off line 1189 at ply 11, ply 65 e2g4: the Elephant on e2 shields Red's General
//!   on d1 from the Horse on f2); 19 lines end in checkmate.
//! - Judged as archives are played (`--repetition claim`): the illegal move (so the 4 later
//!   plies of its line are not replayed: 107,867 plies), 164 third occurrences reported on the
//!   book's variations, and 9 `result-mismatch` on the wxf pages: they record W or L for
//!   games their moves do not end (resignations, with no word of how the game ended); the
//!   tenth, wxf_80, ends in Red's checkmate at ply 43 as it records.
//! - Judged by the rule (`ends`, the default), each third occurrence ends its line: the book's
//!   variations give 37 perpetual checks, 28 perpetual chases, 63 drawn repetitions, and 120
//!   lines that go on after their end.

use crate::corpus_support;

use arbiter::games::engine;
use arbiter::pipeline::{check_source, parse_source, Options, Source};
use arbiter::rules::{GameId, Overrides, RepetitionMode};
use arbiter::types::EndReason;
use arbiter::GameReport;
use std::collections::BTreeMap;

fn sources() -> Option<Vec<Source>> {
    let dir = corpus_support::corpus_dir("xiangqi-dhtmlxq")?;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt" || x == "html"))
        .collect();
    files.sort();
    Some(files.iter().map(|p| Source::read(p)).collect())
}

fn judged(sources: &[Source], mode: RepetitionMode) -> Vec<GameReport> {
    let opts = Options {
        overrides: Overrides {
            repetition: Some(mode),
            ..Overrides::default()
        },
    };
    sources
        .iter()
        .flat_map(|s| check_source(s, &opts))
        .collect()
}

#[test]
fn every_dhtmlxq_record_reads_and_every_line_is_judged() {
    let Some(sources) = sources() else {
        return;
    };
    assert_eq!(sources.len(), 11);
    let reports = judged(&sources, RepetitionMode::Claim);
    assert_eq!(reports.len(), 11, "one record a file");
    let lines: usize = reports.iter().map(|g| g.lines).sum();
    let main: usize = reports.iter().map(|g| g.plies).sum();
    let variations: usize = reports.iter().map(|g| g.variation_plies).sum();
    assert_eq!((lines, main, variations), (1457, 923, 106_944));
    assert_eq!(
        main + variations + 4,
        107_871,
        "all but the 4 plies after e2g4"
    );
    assert_eq!(
        corpus_support::findings_by_code(&reports),
        corpus_support::counts(&[
            ("illegal-move variation", 1),
            ("result-mismatch main", 9),
            ("threefold-repetition variation", 164),
        ])
    );
    let book = &reports[0];
    assert!(book.source.ends_with("vschess_dhtmlxq.txt"));
    assert_eq!(book.lines, 1447);
    let illegal = book
        .findings
        .iter()
        .find(|f| f.code == arbiter::Code::IllegalMove)
        .unwrap();
    assert_eq!((illegal.line, illegal.ply), (1194, Some(65)));
    assert_eq!(
        illegal.message,
        "e2g4 puts Red's own General in check from the Horse on f2"
    );
    assert_eq!(
        book.branches[1193].describe(1194),
        "line 1194 branches off line 1189 at ply 11 with a3a4 in place of i0h0"
    );
    let mismatched: Vec<&str> = reports
        .iter()
        .filter(|g| {
            g.findings
                .iter()
                .any(|f| f.code == arbiter::Code::ResultMismatch)
        })
        .map(|g| g.source.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(mismatched.len(), 9, "{mismatched:?}");
    assert!(!mismatched.contains(&"wxf_80.html"), "{mismatched:?}");
    let mate = reports
        .iter()
        .find(|g| g.source.ends_with("wxf_80.html"))
        .unwrap();
    let o = mate.outcome.as_ref().unwrap();
    assert_eq!(
        (o.reason, o.result.as_str(), o.ply),
        (EndReason::Checkmate, "1-0", 43)
    );
}

#[test]
fn judged_by_the_rule_each_third_occurrence_ends_its_line() {
    let Some(sources) = sources() else {
        return;
    };
    let reports = judged(&sources, RepetitionMode::Ends);
    assert_eq!(
        corpus_support::findings_by_code(&reports),
        corpus_support::counts(&[
            ("illegal-move variation", 1),
            ("moves-after-end variation", 120),
            ("perpetual-chase variation", 28),
            ("perpetual-check variation", 37),
            ("result-mismatch main", 9),
            ("threefold-repetition variation", 63),
        ])
    );
}

#[test]
fn the_lines_end_in_checkmate_as_fairy_stockfish_finds() {
    let Some(sources) = sources() else {
        return;
    };
    let xiangqi = engine(GameId::Xiangqi);
    let mut params = xiangqi.default_parameters();
    params.repetition = Some(RepetitionMode::Claim);
    let mut ends: BTreeMap<String, usize> = BTreeMap::new();
    let (mut reached, mut stopped) = (0, 0);
    for rec in sources.iter().flat_map(parse_source) {
        let tree = xiangqi.replay_tree(&rec, &params);
        let outcomes = std::iter::once((tree.main.outcome.clone(), tree.main.stopped, true)).chain(
            tree.lines
                .iter()
                .map(|l| (l.outcome.clone(), l.stopped, l.reached)),
        );
        for (outcome, stop, reach) in outcomes {
            reached += usize::from(reach);
            stopped += usize::from(stop);
            if let Some(o) = outcome {
                *ends.entry(o.reason.to_string()).or_default() += 1;
            }
        }
    }
    assert_eq!(
        (reached, stopped),
        (1457, 1),
        "every line reached, one stopped"
    );
    assert_eq!(ends.get(EndReason::Checkmate.as_str()), Some(&19));
    assert_eq!(ends.len(), 1, "{ends:?}");
}
