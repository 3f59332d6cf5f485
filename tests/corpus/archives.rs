//! The Xiangqi archives as `arbiter check` and `arbiter convert` see them: the 736 XQF files
//! of `../shared/corpus/xiangqi-xqf/` with every line of play judged (`tests/corpus/xqf.rs`
//! checks the reader line by line), and the convert round trip over both archive folders (XQF
//! and DhtmlXQ): each record written as a native log and judged again gives the same findings
//! on every line (a line known by its moves: the native log numbers variations in the order
//! it writes them), the same plies, lines and outcome.
//!
//! XQF figures, judged as archives are played (`--repetition claim`): 1,810 lines (SOURCE.md's
//! count and `tests/corpus/xqf.rs`'s), 45,710 main-line plies (SOURCE.md's 45,726 less the 16
//! after the two illegal main-line moves) and 41,028 variation plies, each once; the 5 illegal
//! moves Fairy-Stockfish finds (2 on main lines, 3 on variations), the 10 texts the reader
//! repairs, 103 third occurrences reported, and 530 results the moves do not show (XQF
//! records no termination: a resignation is a bare 1-0). By the rule (`ends`), 31 of those
//! third occurrences are perpetual checks or chases, 53 drawn repetitions, and 78 lines go on
//! after their end.

use crate::corpus_support;

use arbiter::convert::convert_one;
use arbiter::pipeline::{check_record, check_source, parse_source, Options, Source};
use arbiter::record::GameRecord;
use arbiter::rules::{Overrides, RepetitionMode};
use arbiter::{Code, GameReport};
use std::path::{Path, PathBuf};

/// The files of `folder` with one of `extensions`, sorted.
fn files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| extensions.contains(&x.to_ascii_lowercase().as_str()))
        })
        .collect();
    out.sort();
    out
}

fn options(mode: RepetitionMode) -> Options {
    Options {
        overrides: Overrides {
            repetition: Some(mode),
            ..Overrides::default()
        },
    }
}

#[test]
fn every_line_of_every_xqf_record_is_judged() {
    let Some(dir) = corpus_support::corpus_dir("xiangqi-xqf") else {
        return;
    };
    let sources: Vec<Source> = files(&dir, &["xqf"])
        .iter()
        .map(|p| Source::read(p))
        .collect();
    let judge = |mode| -> Vec<GameReport> {
        let opts = options(mode);
        sources
            .iter()
            .flat_map(|s| check_source(s, &opts))
            .collect()
    };
    let claim = judge(RepetitionMode::Claim);
    assert_eq!(claim.len(), 736);
    let total = |f: fn(&GameReport) -> usize| -> usize { claim.iter().map(f).sum() };
    assert_eq!(
        (
            total(|g| g.lines),
            total(|g| g.plies),
            total(|g| g.variation_plies)
        ),
        (1810, 45_710, 41_028)
    );
    assert_eq!(
        corpus_support::findings_by_code(&claim),
        corpus_support::counts(&[
            ("illegal-move main", 2),
            ("illegal-move variation", 3),
            ("record-defect main", 10),
            ("result-mismatch main", 530),
            ("threefold-repetition main", 45),
            ("threefold-repetition variation", 58),
        ])
    );
    assert_eq!(
        corpus_support::findings_by_code(&judge(RepetitionMode::Ends)),
        corpus_support::counts(&[
            ("illegal-move main", 2),
            ("illegal-move variation", 3),
            ("moves-after-end main", 33),
            ("moves-after-end variation", 45),
            ("perpetual-chase main", 8),
            ("perpetual-chase variation", 3),
            ("perpetual-check main", 8),
            ("perpetual-check variation", 12),
            ("record-defect main", 10),
            ("result-mismatch main", 517),
            ("threefold-repetition main", 19),
            ("threefold-repetition variation", 34),
        ])
    );
}

/// A finding as the round trip compares it: its line of play named by its moves from the
/// start (a converted record may number its variations otherwise: a native log numbers them
/// in the order they are written), code, ply, message (spans differ: the native log is
/// another text).
type Seen = (String, Code, Option<u32>, String);

/// What judging `rec` shows, less the reader's repairs (`record-defect`: the native log holds
/// the repaired record): its findings, plies, lines, variation plies and outcome.
fn seen(rec: &GameRecord, g: &GameReport) -> (Vec<Seen>, usize, usize, usize, Option<String>) {
    let name = |line: usize| -> String {
        let moves: Vec<&str> = rec.line_plies(line).iter().map(|m| m.text()).collect();
        moves.join(" ")
    };
    let mut findings: Vec<Seen> = g
        .findings
        .iter()
        .filter(|f| f.code != Code::RecordDefect)
        .map(|f| (name(f.line), f.code, f.ply, f.message.clone()))
        .collect();
    findings.sort();
    let outcome = g
        .outcome
        .as_ref()
        .map(|o| format!("{} {}", o.reason, o.ply));
    (findings, g.plies, g.lines, g.variation_plies, outcome)
}

/// Converts every record of `paths` and judges both; returns (records, lines) compared.
fn round_trip(paths: &[PathBuf], opts: &Options) -> (usize, usize) {
    let (mut records, mut lines) = (0, 0);
    for path in paths {
        let src = Source::read(path);
        for rec in parse_source(&src) {
            let before = check_record(&src.name, &rec, opts);
            let text = convert_one(&rec, &opts.overrides, None)
                .unwrap_or_else(|e| panic!("{}: not converted: {e:?}", src.name));
            let native = parse_source(&Source::from_bytes("converted", text.into_bytes()));
            assert_eq!(native.len(), 1, "{}: one game", src.name);
            let after = check_record("converted", &native[0], opts);
            assert_eq!(
                seen(&native[0], &after),
                seen(&rec, &before),
                "{}",
                src.name
            );
            records += 1;
            lines += before.lines;
        }
    }
    (records, lines)
}

#[test]
fn convert_writes_every_archive_record_so_that_every_line_judges_the_same() {
    let opts = options(RepetitionMode::Ends);
    if let Some(dir) = corpus_support::corpus_dir("xiangqi-xqf") {
        assert_eq!(round_trip(&files(&dir, &["xqf"]), &opts), (736, 1810));
    }
    if let Some(dir) = corpus_support::corpus_dir("xiangqi-dhtmlxq") {
        assert_eq!(
            round_trip(&files(&dir, &["txt", "html"]), &opts),
            (11, 1457)
        );
    }
}
