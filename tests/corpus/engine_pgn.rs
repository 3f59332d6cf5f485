//! The engine and site PGN games of `../shared/corpus/xiangqi-engine-pgn/` (SOURCE.md and
//! MANIFEST.tsv there): WinBoard matches (SAN, ranks 0-9, `{Xboard adjudication: ...}`),
//! pychess.org exports (SAN, ranks 1-10, `P` for Soldiers), the two disputed MoonRiver games
//! (coordinates; SAN with `N`/`B` and file-less Soldier captures) and a GB2312 xqbase record,
//! each read as it is: no `--game`, no `Format` tag.
//!
//! Expected figures, from SOURCE.md (9 files, 481 games, 47,320 plies; every game but the
//! GB2312 one resolves to legal moves under Fairy-Stockfish) and from rulings §4.3 worked out
//! by hand for the disputed games:
//! - every game read, every ply legal (no `parse-error`, no `illegal-move`): 47,320 plies with
//!   `--repetition claim`, 47,160 by default (a third occurrence ends the game; 158 moves of
//!   the WinBoard games follow one, WinBoard adjudicating at the chaser's next move);
//! - findings by code per file (below); the WinBoard adjudications agree with arbiter in 436 of
//!   455 games of mrxq_game01 (the 19 others, and Pikafish #27, are the "chased on some moves
//!   only" kind of docs/xiangqi.md: a draw by rulings §4.3, where Fairy-Stockfish agrees);
//! - mrxq_game04's `{Xboard adjudication: Checkmate}` is no mate (Red can block, as SOURCE.md
//!   says): a `result-mismatch` on the adjudication;
//! - FSF #570: Black's Chariot attacks the unprotected Red Cannon (h7/i7) anew with each of its
//!   4 moves after the first occurrence (ply 96), Red's Cannon only evades: Black loses,
//!   1-0 `perpetual-chase` at ply 104, as recorded (`[Termination "perpetual chase"]` agrees;
//!   Fairy-Stockfish's wider window, which holds Black's King move of ply 96, draws);
//! - Pikafish #27: Red's Chariot shuttles h0/h3: Rh3 attacks the Cannon on i3, which the
//!   Horse on h5 protects (no chase), Rh0 blocks the check of the Cannon on i0 and attacks it
//!   unprotected (a chase); Black alternates a check (Ci0+) with Ci3. Neither side checks or
//!   chases with every move: a draw by repetition at ply 62 (first occurrence ply 54), so the
//!   recorded 0-1 and `perpetual chase` are each a `result-mismatch`.
//!
//! `convert` writes every game as a native log that checks the same (the GB2312 record's
//! encoding warning aside: the log is UTF-8).

use crate::corpus_support::{check_text, corpus_dir, describe};
use arbiter::pipeline::{check_source, parse_source, GameReport, Options, Source};
use arbiter::rules::{Overrides, RepetitionMode};
use arbiter::types::{EndReason, GameId};
use arbiter::Code;
use std::collections::BTreeMap;

/// One file: its name, games, plies replayed by default, and the findings by code.
type Expected = (&'static str, usize, usize, &'static [(Code, usize)]);

/// Each file of the folder.
const FILES: &[Expected] = &[
    ("elephantchess_cyclone-vs-elephanteye_13.pgn", 1, 131, &[]),
    (
        "elephantchess_davide2022_part1.pgn",
        18,
        1844,
        &[(Code::ResultMismatch, 2)],
    ),
    ("fsf-570_game1.pgn", 1, 104, &[(Code::PerpetualChase, 1)]),
    (
        "mrxq_game01_part1.pgn",
        455,
        44_599,
        &[
            (Code::PerpetualChase, 436),
            (Code::MovesAfterEnd, 157),
            (Code::ResultMismatch, 38),
            (Code::ThreefoldRepetition, 19),
        ],
    ),
    (
        "mrxq_game02.pgn",
        1,
        111,
        &[(Code::PerpetualChase, 1), (Code::MovesAfterEnd, 1)],
    ),
    ("mrxq_game03.pgn", 2, 136, &[(Code::PerpetualChase, 2)]),
    ("mrxq_game04.pgn", 1, 76, &[(Code::ResultMismatch, 1)]),
    (
        "mrxq_game06.pgn",
        1,
        97,
        &[(Code::RecordDefect, 1), (Code::ResultMismatch, 1)],
    ),
    (
        "pikafish-27.pgn",
        1,
        62,
        &[(Code::ResultMismatch, 2), (Code::ThreefoldRepetition, 1)],
    ),
];

fn codes(reports: &[GameReport]) -> BTreeMap<Code, usize> {
    let mut out = BTreeMap::new();
    for f in reports.iter().flat_map(|r| &r.findings) {
        *out.entry(f.code).or_default() += 1;
    }
    out
}

fn options(claim: bool) -> Options {
    Options {
        overrides: Overrides {
            repetition: claim.then_some(RepetitionMode::Claim),
            ..Overrides::default()
        },
    }
}

#[test]
fn every_game_is_read_and_every_ply_is_legal() {
    let Some(dir) = corpus_dir("xiangqi-engine-pgn") else {
        return;
    };
    let (mut games, mut plies, mut all_plies) = (0, 0, 0);
    for &(file, n, p, expected) in FILES {
        let src = Source::read(&dir.join(file));
        let reports = check_source(&src, &options(false));
        assert_eq!(reports.len(), n, "{file}: games");
        for r in &reports {
            assert_eq!(
                r.game,
                Some(GameId::Xiangqi),
                "{file} #{}: known by content",
                r.index
            );
        }
        let found = codes(&reports);
        let want: BTreeMap<Code, usize> = expected.iter().copied().collect();
        assert_eq!(found, want, "{file}: findings by code");
        assert_eq!(
            reports.iter().map(|r| r.plies).sum::<usize>(),
            p,
            "{file}: plies"
        );
        let claimed = check_source(&src, &options(true));
        let written: usize = parse_source(&src).iter().map(|g| g.moves.len()).sum();
        assert_eq!(
            claimed.iter().map(|r| r.plies).sum::<usize>(),
            written,
            "{file}"
        );
        (games, plies, all_plies) = (games + n, plies + p, all_plies + written);
        converted_checks_the_same(file, &src, &reports);
    }
    assert_eq!((games, plies, all_plies), (481, 47_160, 47_320));
}

/// `convert` writes each game as a native log whose check gives the same plies, outcome and
/// findings, but for the encoding warning of a GB2312 source.
fn converted_checks_the_same(file: &str, src: &Source, reports: &[GameReport]) {
    let key = |r: &GameReport| {
        let f: Vec<_> = r
            .findings
            .iter()
            .filter(|f| !f.message.starts_with("the log is not UTF-8"))
            .map(|f| (f.code, f.ply, f.message.clone()))
            .collect();
        (r.plies, r.outcome.clone(), f)
    };
    for (rec, r) in parse_source(src).iter().zip(reports) {
        let log = arbiter::convert::convert_one(rec, &Overrides::default(), None)
            .unwrap_or_else(|e| panic!("{file} #{}: convert refused: {e:?}", rec.index));
        let again = check_text(file, &log);
        assert_eq!(key(&again[0]), key(r), "{file} #{}:\n{log}", rec.index);
    }
}

fn one(file: &str) -> Option<GameReport> {
    let dir = corpus_dir("xiangqi-engine-pgn")?;
    let mut reports = check_source(&Source::read(&dir.join(file)), &options(false));
    Some(reports.remove(0))
}

fn messages(r: &GameReport) -> Vec<(Code, Option<u32>, String)> {
    r.findings
        .iter()
        .map(|f| (f.code, f.ply, f.message.clone()))
        .collect()
}

#[test]
fn the_disputed_games_get_the_verdicts_of_rulings_4_3() {
    let Some(fsf) = one("fsf-570_game1.pgn") else {
        return;
    };
    let o = fsf.outcome.as_ref().expect("an end on the board");
    assert_eq!(
        (o.result.as_str(), o.reason, o.ply),
        ("1-0", EndReason::PerpetualChase, 104)
    );
    assert_eq!(fsf.termination.as_deref(), Some("perpetual chase"));
    assert_eq!(messages(&fsf).len(), 1, "{}", describe(&fsf));
    assert!(fsf.findings[0]
        .message
        .contains("Black attacked Red's Cannon"));

    let Some(pika) = one("pikafish-27.pgn") else {
        return;
    };
    let o = pika.outcome.as_ref().expect("an end on the board");
    assert_eq!(
        (o.result.as_str(), o.reason, o.ply),
        ("1/2-1/2", EndReason::Repetition, 62)
    );
    assert_eq!(
        messages(&pika),
        vec![
            (
                Code::ResultMismatch,
                Some(62),
                "the record says 0-1 but the moves end the game 1/2-1/2 (repetition, ply 62)"
                    .to_string()
            ),
            (
                Code::ResultMismatch,
                Some(62),
                "termination `perpetual chase` but the moves end the game by repetition"
                    .to_string()
            ),
            (
                Code::ThreefoldRepetition,
                Some(62),
                "the position after ply 54 stands for the third time: neither side checked or \
                 chased with every move since"
                    .to_string()
            ),
        ]
    );
    let mut text = String::new();
    for file in ["fsf-570_game1.pgn", "pikafish-27.pgn"] {
        text.push_str(&crate::corpus_support::render("xiangqi-engine-pgn", file));
    }
    insta::assert_snapshot!("disputed_games", text);
}

#[test]
fn a_winboard_adjudication_is_checked_against_the_board() {
    let Some(r) = one("mrxq_game04.pgn") else {
        return;
    };
    assert_eq!(r.outcome, None, "Red can block the check: no mate");
    assert_eq!(
        messages(&r),
        vec![(
            Code::ResultMismatch,
            None,
            "the adjudication `Checkmate` but the moves do not end the game".to_string()
        )]
    );
}

/// `convert --notation iccs`, `wxf` and `chinese` of every engine and site PGN game checks the
/// same (codes, plies, outcome): `iccs` once kept the coordinates as written under a `Format`
/// tag of ICCS, so a pychess export's ranks counted from 1 (`h3e3`) read as other squares and
/// a SAN move that gives a rank (`R9xd7`) went unconverted (a draw by repetition became an
/// illegal move).
#[test]
fn every_notation_converts_to_a_log_that_checks_the_same() {
    let Some(dir) = corpus_dir("xiangqi-engine-pgn") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/xiangqi/engine-pgn-uci.pgn");
    files.push(fixture);
    let mut compared = 0;
    for notation in ["iccs", "wxf", "chinese"] {
        for f in &files {
            let bytes = std::fs::read(f).expect("a corpus file");
            let name = f.display().to_string();
            match crate::roundtrip::roundtrip_in(
                &name,
                bytes,
                &Overrides::default(),
                Some(notation),
            ) {
                Ok(t) => compared += t.compared,
                Err(e) => panic!("--notation {notation}: {e}"),
            }
        }
    }
    // 481 games of the folder and the fixture's one, in three notations.
    assert_eq!(compared, 3 * 482);
}
