//! Xiangqi move notations (issue 12): WXF and Chinese records read against the position,
//! and `convert --notation` writing any of the three. The parallel corpus (the same 15 games in
//! ICCS, full-width WXF and Chinese), the 2000-game corpus converted and read back, the
//! hand-worked tandem fixtures' moves, properties of random games, the CLI.

use crate::bin;
use crate::corpus_support;
use crate::fixtures::{fixtures_in, header, source};
use arbiter::convert::{convert_one, Problem};
use arbiter::games::xiangqi::notation::{self, Notation};
use arbiter::games::xiangqi::{fen, random::random_game, Move, MoveList, Position};
use arbiter::pipeline::{check_source, parse_source, GameReport, Options, Source};
use arbiter::record::GameRecord;
use arbiter::rules::{GameId, Outcome, Overrides};
use arbiter::Severity;
use corpus_support::corpus_dir;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// `--game xiangqi --repetition claim`: the archives play on after a third occurrence, and
/// notation tests want every ply read.
fn as_xiangqi() -> Options {
    Options {
        overrides: Overrides {
            game: Some(GameId::Xiangqi),
            repetition: Some(arbiter::rules::RepetitionMode::Claim),
            ..Overrides::default()
        },
    }
}

/// What a replay shows, notation aside: the plies in ICCS, the end on the board, and the
/// findings (code, ply, message; spans differ with the notation).
#[derive(Debug, PartialEq)]
struct Seen {
    plies: Vec<String>,
    outcome: Option<Outcome>,
    findings: Vec<(String, Option<u32>, String)>,
}

fn seen(r: &GameReport) -> Seen {
    Seen {
        plies: r.replay.as_ref().map_or(Vec::new(), |rp| {
            rp.plies
                .iter()
                .map(|p| {
                    Move {
                        from: p.from,
                        to: p.to,
                    }
                    .iccs()
                })
                .collect()
        }),
        outcome: r.outcome.clone(),
        findings: r
            .findings
            .iter()
            .map(|f| (f.code.to_string(), f.ply, f.message.clone()))
            .collect(),
    }
}

#[test]
fn parallel_corpus_replays_the_same_in_all_three_notations() {
    let Some(dir) = corpus_dir("xiangqi") else {
        return;
    };
    let read = |file: &str| -> Vec<GameReport> {
        check_source(&Source::read(&dir.join(file)), &as_xiangqi())
    };
    let iccs = read("parallel15_iccs.pgn");
    let wxf = read("parallel15_wxf_fullwidth.pgn");
    let chinese = read("parallel15_chinese.pgn");
    assert_eq!((iccs.len(), wxf.len(), chinese.len()), (15, 15, 15));
    let mut plies = 0;
    for ((a, b), c) in iccs.iter().zip(&wxf).zip(&chinese) {
        let (mut sa, sb, sc) = (seen(a), seen(b), seen(c));
        for r in [a, b, c] {
            assert!(
                r.findings.iter().all(|f| f.severity() < Severity::Error),
                "game {}: {:?}",
                r.index + 1,
                r.findings
            );
        }
        assert_eq!(sb, sc, "game {}: WXF and Chinese", a.index + 1);
        if a.index == 1 {
            // The one place the sources disagree (docs/xiangqi.md, notation): game 2, ply 71,
            // Red Soldiers on e5 and e3. WXF -P+1 and Chinese 后兵进一 both name the rear one
            // (e3e4); the ICCS file has the front one, e5e6. Both are legal and no later move
            // touches either Soldier.
            assert_eq!(sa.plies[70], "e5e6");
            assert_eq!(sb.plies[70], "e3e4");
            sa.plies[70] = "e3e4".into();
        }
        assert_eq!(sa, sb, "game {}: ICCS and WXF", a.index + 1);
        assert_eq!(sa.plies.len(), a.plies);
        plies += a.plies;
    }
    assert_eq!(plies, 1378);
    // The one corpus game that ends in checkmate (game 7) ends so in all three.
    assert_eq!(
        chinese[6].outcome.as_ref().map(|o| (o.reason, o.ply)),
        Some((arbiter::rules::EndReason::Checkmate, 43))
    );
}

/// Converts one record to `to` and checks it back.
fn converted(rec: &GameRecord, to: Notation) -> GameReport {
    let overrides = as_xiangqi().overrides;
    let text = convert_one(rec, &overrides, Some(to.as_str()))
        .unwrap_or_else(|e| panic!("game {}: {e:?}", rec.index + 1));
    let out = check_source(
        &Source::from_bytes("converted.arb", text.into_bytes()),
        &Options::default(),
    );
    assert_eq!(out.len(), 1);
    out.into_iter().next().unwrap()
}

#[test]
fn corpus_converted_to_wxf_and_chinese_reads_back_the_same() {
    let Some(dir) = corpus_dir("xiangqi") else {
        return;
    };
    let (mut games, mut plies) = (0, 0);
    for file in [
        "hu_ronghua_iccs.pgn",
        "liu_dahua_iccs_part.pgn",
        "parallel15_iccs.pgn",
    ] {
        let src = Source::read(&dir.join(file));
        let records = parse_source(&src);
        let original = check_source(&src, &as_xiangqi());
        assert_eq!(records.len(), original.len());
        for (i, r) in original.iter().enumerate() {
            let plain = seen(r);
            // Written again in ICCS, with a Result tag: the reference for the other two.
            let iccs = seen(&converted(&records[i], Notation::Iccs));
            assert_eq!(iccs.plies, plain.plies, "{file} game {}", i + 1);
            assert_eq!(iccs.outcome, plain.outcome, "{file} game {}", i + 1);
            for to in [Notation::Wxf, Notation::Chinese] {
                let back = seen(&converted(&records[i], to));
                assert_eq!(back, iccs, "{file} game {} via {}", i + 1, to.as_str());
            }
            games += 1;
            plies += plain.plies.len();
        }
    }
    assert_eq!((games, plies), (2000, 176_002));
}

/// Every fixture with an `; iccs:` line (the moves worked out by hand from the notation rules)
/// replays exactly those moves, and again after conversion to each notation.
#[test]
fn fixtures_resolve_to_their_hand_worked_moves() {
    let mut checked = 0;
    for path in fixtures_in("xiangqi") {
        let src = source(&path);
        let Some(want) = header(&src.text, "iccs") else {
            continue;
        };
        let want: Vec<String> = want.split_whitespace().map(String::from).collect();
        let r = &check_source(&src, &Options::default())[0];
        assert_eq!(seen(r).plies, want, "{}", src.name);
        for to in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
            let back = converted(&parse_source(&src)[0], to);
            assert_eq!(seen(&back).plies, want, "{} via {}", src.name, to.as_str());
        }
        checked += 1;
    }
    assert!(checked >= 11, "only {checked} fixtures with moves");
}

/// Positions with Soldiers stacked every way the notations distinguish (2, 3, 4 and 5 on a
/// file, two doubled files, 3 + 2), for both sides to move.
const TANDEM_FENS: [&str; 10] = [
    "r3k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
    "2P2k2r/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1",
    "r3k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
    "1r1k5/9/9/9/1r5R1/9/9/9/7R1/4K4 w - - 0 1",
    "3k5/9/9/9/9/7N1/9/9/9/4K2N1 w - - 0 1",
    "3k5/9/9/9/9/2p6/2p6/2p6/2p3p2/4K4 b - - 0 1",
    "5k3/9/9/9/9/1p1p5/1p1p5/5p3/9/3K5 b - - 0 1",
    "3akab2/9/4b4/2PP5/2PP1P3/9/9/4B4/4A4/2BAK4 w - - 0 1",
    "5k3/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1",
    "rnbakabnr/9/1c5c1/9/P1P1P1P1P/p1p1p1p1p/9/1C5C1/9/RNBAKABNR w - - 0 1",
];

fn log(fen_text: &str, format: Notation, moves: &[String]) -> String {
    let mut t = format!(
        "[Game \"xiangqi\"]\n[FEN \"{fen_text}\"]\n[Format \"{}\"]\n[Repetition \"claim\"]\n[Result \"*\"]\n\n",
        format.as_str()
    );
    for m in moves {
        t.push_str(m);
        t.push(' ');
    }
    t.push_str("*\n");
    t
}

/// Writes `moves` from `start` in `to` and reads them back: the replay must give the same
/// moves, with no finding but repetition infos (the log plays on, `Repetition "claim"`).
fn round_trip(fen_text: &str, moves: &[Move], to: Notation) -> Result<(), TestCaseError> {
    let mut pos = fen::parse(fen_text).unwrap().position;
    let mut written = Vec::new();
    for &m in moves {
        written.push(notation::write(&pos, m, to));
        pos.make(m);
    }
    let text = log(fen_text, to, &written);
    let r = &check_source(
        &Source::from_bytes("round-trip.arb", text.clone().into_bytes()),
        &Options::default(),
    )[0];
    let want: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
    prop_assert!(
        r.findings
            .iter()
            .all(|f| f.code == arbiter::Code::ThreefoldRepetition),
        "{text}\n{:?}",
        r.findings
    );
    prop_assert_eq!(seen(r).plies, want, "{}", text);
    Ok(())
}

#[test]
fn every_legal_move_of_tandem_positions_round_trips() {
    let mut heads = BTreeSet::new();
    for fen_text in TANDEM_FENS {
        let pos = fen::parse(fen_text)
            .unwrap_or_else(|e| panic!("{fen_text}: {e:?}"))
            .position;
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert!(!list.is_empty(), "{fen_text}");
        for &m in list.iter() {
            for to in [Notation::Wxf, Notation::Chinese] {
                round_trip(fen_text, &[m], to).unwrap_or_else(|e| panic!("{e}"));
                let w = notation::write(&pos, m, to);
                heads.insert(w.chars().take(2).collect::<String>());
            }
        }
    }
    // The forms the fixtures work out by hand all occur (Red's and Black's).
    for h in [
        "++", "--", "P+", "P-", "P7", "33", "3+", "3-", "R+", "R-", "H+", "H-", "一兵", "五兵",
        "前兵", "中兵", "后兵", "一卒", "四卒", "前卒", "中卒", "前车", "后马",
    ] {
        assert!(heads.contains(h), "no move written as {h}...: {heads:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random legal games (the seeded generator of the cross-check), written in WXF and in
    /// Chinese, read back as the same moves, from the start and from positions full of
    /// stacked Soldiers.
    #[test]
    fn random_games_round_trip_through_wxf_and_chinese(
        seed in any::<u64>(),
        start in 0usize..TANDEM_FENS.len() + 1,
    ) {
        let fen_text = TANDEM_FENS.get(start).copied().unwrap_or(fen::START);
        let pos = fen::parse(fen_text).unwrap().position;
        let moves = random_game(&pos, seed, 200);
        round_trip(fen_text, &moves, Notation::Wxf)?;
        round_trip(fen_text, &moves, Notation::Chinese)?;
    }

    /// Any text, as a WXF or Chinese move in the start position, is read, refused with a
    /// finding on its span, or found illegal: never a panic, never a finding outside it.
    #[test]
    fn any_move_text_is_read_or_refused(
        text in "[KAEHRCPNBkaehrcpnb+\\-.=0-9１-９一二三四五六七八九前中后後兵卒车車炮砲马馬进進退平帅将]{1,6}",
    ) {
        for format in ["", "[Format \"WXF\"]\n", "[Format \"Chinese\"]\n"] {
            let log = format!("[Game \"xiangqi\"]\n{format}[Result \"*\"]\n\n1. {text} *\n");
            let at = log.find("1. ").unwrap() + 3;
            let r = &check_source(&Source::from_bytes("any.arb", log.clone().into_bytes()), &Options::default())[0];
            for f in &r.findings {
                if f.ply == Some(1) {
                    prop_assert!(f.span.start >= at && f.span.end <= at + text.len(), "{log}: {:?}", f);
                }
            }
        }
    }
}

#[test]
fn position_independent_helpers() {
    assert_eq!(Notation::parse("wxf"), Some(Notation::Wxf));
    assert_eq!(Notation::parse(" Chinese "), Some(Notation::Chinese));
    assert_eq!(Notation::parse("ICCS"), Some(Notation::Iccs));
    assert_eq!(Notation::parse("UCI"), None);
    assert_eq!(notation::normalise("＋Ｐ＋１ 马８进７"), "+P+1 马8进7");
    // The start position: the classic opening in each notation.
    let p = Position::start();
    let m = Move::from_iccs("h2e2").unwrap();
    assert_eq!(notation::write(&p, m, Notation::Iccs), "h2e2");
    assert_eq!(notation::write(&p, m, Notation::Wxf), "C2.5");
    assert_eq!(notation::write(&p, m, Notation::Chinese), "炮二平五");
}

#[test]
fn convert_refuses_wxf_for_other_games_and_unreadable_plies() {
    let stratego = "[Game \"stratego\"]\n[Result \"*\"]\n\n*\n";
    let src = Source::from_bytes("s.arb", stratego.as_bytes().to_vec());
    let rec = &parse_source(&src)[0];
    assert!(matches!(
        convert_one(rec, &Overrides::default(), Some("wxf")),
        Err(Problem::Notation(GameId::Stratego))
    ));
    assert!(convert_one(rec, &Overrides::default(), Some("iccs")).is_ok());

    let bad = "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h2e2 H2+3 2. C2.5 *\n";
    let src = Source::from_bytes("x.arb", bad.as_bytes().to_vec());
    let rec = &parse_source(&src)[0];
    match convert_one(rec, &Overrides::default(), Some("chinese")) {
        Err(Problem::Findings(f)) => {
            let f = &f[0];
            // Ply 2 H2+3 is Black's Horse b9c7; ply 3 C2.5 names Red's Cannon that left h2.
            assert_eq!(f.ply, Some(3));
            assert_eq!(f.code, arbiter::Code::IllegalMove);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn cli_convert_notation() {
    let fixture = "fixtures/xiangqi/notation-pawns-two-files-wxf.arb";
    let mut out = String::new();
    for n in ["chinese", "wxf", "iccs"] {
        out.push_str(&bin::session(&["convert", "--notation", n, fixture]));
        out.push('\n');
    }
    out.push_str(&bin::session(&[
        "convert",
        "--notation",
        "wxf",
        "fixtures/jungle/den_entered.arb",
    ]));
    insta::assert_snapshot!("xiangqi_cli_convert_notation", out);
}

/// A move number is never followed by a digit (grammar/log.pest), so a WXF move that starts
/// with digits (`33.4`, the middle Soldier of file 3) is a move, and `2.h2e2` still reads.
#[test]
fn move_numbers_never_swallow_a_wxf_move() {
    let g = &arbiter::record::parse::parse_log("1. 33.4 R1+1 2.h2e2 3...C2.5")[0];
    let texts: Vec<&str> = g.moves.iter().map(|m| m.text()).collect();
    assert_eq!(texts, ["33.4", "R1+1", "h2e2", "C2.5"]);
    assert_eq!(g.findings.len(), 1, "{:?}", g.findings); // `3...` where `2...` is due
}

/// Every line is rewritten, each variation from its own position (issue 30's new-user pass
/// found variations left in ICCS, which a `Format "WXF"` log cannot read), and the log reads
/// back as the record: the same plies, lines and findings.
#[test]
fn convert_rewrites_every_variation() {
    let log = "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h2e2 (1. c3c4 h9g7 (1... b9c7 2. b0c2) 2. h0g2) h9g7 (1... h9i7 2. h0g2) 2. b0c2 (2. h0g2 i9h9) *\n";
    let src = Source::from_bytes("v.arb", log.as_bytes().to_vec());
    let rec = &parse_source(&src)[0];
    let seen = |report: &GameReport| {
        let mut fs: Vec<_> = report
            .findings
            .iter()
            .map(|f| (f.code, f.ply, f.line))
            .collect();
        fs.sort();
        (report.plies, report.lines, report.variation_plies, fs)
    };
    let original = seen(&check_source(&src, &Options::default())[0]);
    assert_eq!((original.1, original.2), (5, 9), "{original:?}");
    for to in [Notation::Wxf, Notation::Chinese] {
        let text = convert_one(rec, &Overrides::default(), Some(to.as_str())).expect("written");
        if to == Notation::Wxf {
            assert!(
                text.contains("1. C2.5 (1. P7+1 H8+7 (1... H2+3 2. H8+7) 2. H2+3)"),
                "{text}"
            );
            assert!(text.contains("(1... H8+9 2. H2+3)"), "{text}");
        }
        let back = check_source(
            &Source::from_bytes("w.arb", text.into_bytes()),
            &Options::default(),
        );
        assert_eq!(seen(&back[0]), original, "{to:?}");
    }
}

/// A move the rules refuse, in any line, has no writing in another notation sure to be
/// refused the same way (an Elephant across the river reads back as its twin's legal move, a
/// capture mark is lost, a Black piece moved by Red names Red's): the game is refused with
/// that move's finding, and nothing is written that would judge otherwise.
#[test]
fn convert_refuses_a_refused_move_in_any_line() {
    let cases = [
        ("", "1. h2e2 (1. h2e2 h9f8) h9g7 *"), // a blocked Horse leg
        ("", "1. h2e2 h9g7 (1... h9h5) *"),    // not a Horse move
        ("", "1. h2e2 (1. a9a8) h9g7 *"),      // Black's piece on Red's move
        ("", "1. h2e2 (1. h2xe2) h9g7 *"),     // a capture mark on an empty point
        ("[Format \"WXF\"]\n", "1. C2.5 (1. h2e2 H8+7) H8+7 *"), // ICCS under a WXF tag
        (
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/2B6/P1P1P1P1P/1C5C1/9/RNBAKA1NR w - - 0 1\"]\n",
            "1. h2e2 (1. c4e6) h9g7 *", // the Elephant across the river
        ),
    ];
    for (tags, moves) in cases {
        let log = format!("[Game \"xiangqi\"]\n{tags}\n{moves}\n");
        let src = Source::from_bytes("b.arb", log.into_bytes());
        let rec = &parse_source(&src)[0];
        let refused = check_source(&src, &Options::default())[0]
            .findings
            .iter()
            .find(|f| f.severity() == Severity::Error)
            .map(|f| (f.code, f.ply))
            .expect("the check refuses a move");
        for to in ["wxf", "chinese"] {
            match convert_one(rec, &Overrides::default(), Some(to)) {
                Err(Problem::Findings(f)) => assert_eq!((f[0].code, f[0].ply), refused, "{moves}"),
                other => panic!("{moves}: {other:?}"),
            }
        }
    }
}
