//! Xiangqi (rulings §4.1) end to end: the hand-worked fixtures in `fixtures/xiangqi/`, their
//! diagnostics, the 2000-game xqbase corpus, the CLI's `--game xiangqi`, and properties of
//! random legal games.

use crate::bin;
use crate::fixtures::{assert_one_game_verdicts, fixtures_in, header, rendered_diagnostics, root};
use arbiter::games::xiangqi::{Move, MoveList, Position};
use arbiter::pipeline::{check_source, parse_source, Options, Source};
use arbiter::record::RecordedResult;
use arbiter::rules::{GameId, Overrides};
use arbiter::{Code, Severity};
use proptest::prelude::*;

fn fixtures() -> Vec<std::path::PathBuf> {
    fixtures_in("xiangqi")
}

fn options_for(text: &str) -> Options {
    let mut opts = Options::default();
    if header(text, "cli") == Some("--game xiangqi") {
        opts.overrides.game = Some(GameId::Xiangqi);
    }
    opts
}

#[test]
fn fixtures_give_their_hand_worked_verdicts() {
    let files = fixtures();
    assert!(files.len() >= 30, "only {} xiangqi fixtures", files.len());
    assert_one_game_verdicts(&files, options_for, GameId::Xiangqi);
}

#[test]
fn fixture_diagnostics() {
    let out = rendered_diagnostics(fixtures(), options_for);
    insta::assert_snapshot!("xiangqi_fixture_diagnostics", out);
}

#[test]
fn cli_reads_xqbase_records_with_or_without_game() {
    let fixture = root().join("fixtures/xiangqi/no-game-tag.pgn");
    let run = |args: &[&str]| bin::run(args).transcript();
    let path = fixture.strip_prefix(root()).unwrap().to_str().unwrap();
    let with = run(&["check", "--game", "xiangqi", "--color", "never", path]);
    let without = run(&["check", "--color", "never", path]);
    assert!(with.starts_with("exit 0\n"), "{with}");
    assert_eq!(
        with, without,
        "the text shows Xiangqi: --game changes nothing"
    );
    insta::assert_snapshot!("xiangqi_cli_game_flag", format!("{with}\n{without}"));
}

/// The 13 corpus games that end in checkmate at their last move (file, 0-based game index,
/// plies): Fairy-Stockfish finds the same 13 (corpus/xiangqi/SOURCE.md).
const CORPUS_MATES: [(&str, usize, usize); 13] = [
    ("hu_ronghua_iccs.pgn", 87, 62),
    ("hu_ronghua_iccs.pgn", 269, 67),
    ("hu_ronghua_iccs.pgn", 551, 68),
    ("hu_ronghua_iccs.pgn", 657, 90),
    ("hu_ronghua_iccs.pgn", 740, 70),
    ("hu_ronghua_iccs.pgn", 1240, 105),
    ("hu_ronghua_iccs.pgn", 1253, 70),
    ("liu_dahua_iccs_part.pgn", 21, 109),
    ("liu_dahua_iccs_part.pgn", 237, 90),
    ("liu_dahua_iccs_part.pgn", 286, 132),
    ("liu_dahua_iccs_part.pgn", 302, 158),
    ("liu_dahua_iccs_part.pgn", 528, 95),
    ("parallel15_iccs.pgn", 6, 43),
];

/// The corpus games judged with `--game xiangqi` and `--repetition MODE` (`None`: the
/// default), per file; `None` (after a SKIPPED line) when the corpus is absent.
fn corpus_reports(
    repetition: Option<&str>,
) -> Option<Vec<(&'static str, Vec<arbiter::GameReport>)>> {
    let dir = root().join("../shared/corpus/xiangqi");
    if !dir.is_dir() {
        println!("SKIPPED: ../shared/corpus/xiangqi is absent");
        return None;
    }
    let opts = Options {
        overrides: Overrides {
            game: Some(GameId::Xiangqi),
            repetition: repetition.and_then(arbiter::rules::RepetitionMode::parse),
            ..Overrides::default()
        },
    };
    Some(
        CORPUS_FILES
            .iter()
            .map(|&file| (file, check_source(&Source::read(&dir.join(file)), &opts)))
            .collect(),
    )
}

#[test]
fn corpus_replays_clean_with_its_checkmates() {
    // Tournament archives play on after a third occurrence: judged with `--repetition claim`
    // every ply is legal, and each repetition is an info with its verdict.
    let Some(corpus) = corpus_reports(Some("claim")) else {
        return;
    };
    let (mut games, mut plies, mut no_result) = (0, 0, 0);
    let (mut repetitions, mut games_with_repetition) = (0, 0);
    let mut mates = Vec::new();
    for (file, reports) in corpus {
        for r in reports {
            games += 1;
            plies += r.plies;
            let mut repeated = false;
            for f in &r.findings {
                assert_ne!(
                    f.severity(),
                    Severity::Error,
                    "{file} game {}: {} ({})",
                    r.index + 1,
                    f.message,
                    f.code
                );
                match f.code {
                    Code::NoResult => no_result += 1,
                    Code::ThreefoldRepetition => {
                        repetitions += 1;
                        repeated = true;
                        assert!(f.verdict.is_some(), "{file} game {}", r.index + 1);
                    }
                    c => panic!("{file} game {}: unexpected {c}", r.index + 1),
                }
            }
            games_with_repetition += repeated as usize;
            if let Some(o) = &r.outcome {
                assert_eq!(
                    o.reason.as_str(),
                    "checkmate",
                    "{file} game {}",
                    r.index + 1
                );
                assert_eq!(o.ply as usize, r.plies);
                // Every corpus game starts with Red: an odd last ply is Red's mate.
                let winner = if r.plies % 2 == 1 {
                    RecordedResult::FirstWins
                } else {
                    RecordedResult::SecondWins
                };
                assert_eq!(o.result, winner, "{file} game {}", r.index + 1);
                mates.push((file, r.index, r.plies));
            }
        }
    }
    assert_eq!(games, 2000);
    assert_eq!(plies, 176_002);
    assert_eq!(no_result, 2000, "every corpus game lacks a result");
    assert_eq!(mates, CORPUS_MATES);
    assert_eq!(games_with_repetition, 175);
    assert_eq!(repetitions, 213);
}

/// Under the rule itself (`Repetition "ends"`, the default) the first third occurrence ends
/// the game: 175 corpus games end so (the same plies and, but for the two documented in
/// docs/xiangqi.md, the same verdicts as Fairy-Stockfish: scripts/crosscheck-xiangqi.sh),
/// 164 of them with moves after that end.
#[test]
fn corpus_repetitions_end_the_game_by_default() {
    let Some(corpus) = corpus_reports(None) else {
        return;
    };
    let mut reasons = std::collections::BTreeMap::new();
    let mut after_end = 0;
    for (_, reports) in corpus {
        for r in reports {
            assert_eq!(
                r.parameters.repetition.map(|m| m.as_str()),
                Some("ends"),
                "the mode in force is reported"
            );
            if let Some(o) = &r.outcome {
                *reasons.entry(o.reason.as_str()).or_insert(0) += 1;
                if o.reason.as_str() != "checkmate" {
                    let f = r
                        .findings
                        .iter()
                        .find(|f| f.ply == Some(o.ply) && f.verdict.is_some())
                        .expect("a repetition finding on the ending ply");
                    assert_eq!(
                        f.verdict.map(|v| (v.result, v.reason)),
                        Some((o.result, o.reason))
                    );
                }
            }
            after_end += r
                .findings
                .iter()
                .filter(|f| f.code == Code::MovesAfterEnd)
                .count();
        }
    }
    let want: std::collections::BTreeMap<&str, usize> = [
        ("checkmate", 10),
        ("perpetual-chase", 27),
        ("perpetual-check", 39),
        ("repetition", 109),
    ]
    .into_iter()
    .collect();
    assert_eq!(reasons, want);
    assert_eq!(after_end, 164);
}

const CORPUS_FILES: [&str; 3] = [
    "hu_ronghua_iccs.pgn",
    "liu_dahua_iccs_part.pgn",
    "parallel15_iccs.pgn",
];

/// Plays `choices` as a random legal game from the start (each number picks one of the legal
/// moves); stops early at checkmate or stalemate. Returns the moves and the final position.
/// After every ply the incremental key (and the whole position) must equal those of the same
/// placement built from scratch on an empty board.
fn legal_game(choices: &[u16]) -> (Vec<Move>, Position) {
    let mut pos = Position::start();
    let mut list = MoveList::new();
    let mut moves = Vec::new();
    for &c in choices {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list[c as usize % list.len()];
        pos.make(m);
        let mut scratch = Position::empty(pos.to_move());
        for sq in 0..arbiter::games::xiangqi::SQUARES as u8 {
            scratch.set(sq, pos.piece(sq));
        }
        assert_eq!(pos.key(), scratch.key(), "key after {}", m.iccs());
        // The whole position: the occupancy masks kept beside the board included.
        assert_eq!(pos, scratch, "position after {}", m.iccs());
        moves.push(m);
    }
    (moves, pos)
}

/// A log of `moves`; repetitions are reported, not game ends (`Repetition "claim"`), so that
/// every ply of a random game is judged.
fn log_text(moves: &[String], result: &str) -> String {
    let mut t = format!("[Game \"xiangqi\"]\n[Repetition \"claim\"]\n[Result \"{result}\"]\n\n");
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            t.push_str(&format!("{}. ", i / 2 + 1));
        }
        t.push_str(m);
        t.push(' ');
    }
    t.push_str(result);
    t.push('\n');
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A random legal game replays with no finding but its repetitions (infos), its last key
    /// is the engine's, its end is
    /// the one the position shows, and `convert` prints a log that replays the same.
    #[test]
    fn random_legal_games_replay_clean(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let (moves, end) = legal_game(&choices);
        let finished = !end.has_legal_move();
        let result = match (finished, end.to_move()) {
            (false, _) => "*",
            (true, arbiter::rules::Side::First) => "0-1",
            (true, arbiter::rules::Side::Second) => "1-0",
        };
        let names: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
        let src = Source::from_bytes("random.arb", log_text(&names, result).into_bytes());
        let r = &check_source(&src, &Options::default())[0];
        prop_assert!(
            r.findings.iter().all(|f| f.code == Code::ThreefoldRepetition),
            "{:?}",
            r.findings
        );
        prop_assert_eq!(r.plies, moves.len());
        prop_assert_eq!(r.outcome.is_some(), finished);
        let replay = r.replay.as_ref().unwrap();
        let last = replay.plies.last().map_or(replay.start_key, |p| p.key);
        prop_assert_eq!(last, end.key());

        let rec = &parse_source(&src)[0];
        let again = arbiter::convert::convert_one(rec, &Overrides::default(), None).unwrap();
        let src2 = Source::from_bytes("converted.arb", again.into_bytes());
        let r2 = &check_source(&src2, &Options::default())[0];
        let keys = |r: &arbiter::GameReport| r.replay.as_ref().unwrap().plies.iter().map(|p| p.key).collect::<Vec<_>>();
        prop_assert_eq!(keys(r), keys(r2));
        prop_assert_eq!(&r.outcome, &r2.outcome);
    }

    /// Replacing one ply of a legal game with a move that is not legal there is caught at
    /// exactly that ply, and the replay stops.
    #[test]
    fn a_corrupted_move_is_caught_at_its_ply(
        choices in prop::collection::vec(any::<u16>(), 1..120),
        at in any::<prop::sample::Index>(),
        bad in (0u8..90, 0u8..90),
    ) {
        let (moves, _) = legal_game(&choices);
        prop_assume!(!moves.is_empty());
        let k = at.index(moves.len());
        let (_, before) = legal_game(&choices[..k]);
        let mut list = MoveList::new();
        before.legal_moves(&mut list);
        // The first (from, to) pair from `bad` on, in board order, that is not legal here.
        let mut candidate = Move { from: bad.0, to: bad.1 };
        let mut n = bad.0 as u32 * 90 + bad.1 as u32;
        while list.contains(&candidate) {
            n = (n + 1) % 8100;
            candidate = Move { from: (n / 90) as u8, to: (n % 90) as u8 };
        }
        let mut names: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
        names[k] = candidate.iccs();
        let src = Source::from_bytes("corrupt.arb", log_text(&names, "*").into_bytes());
        let r = &check_source(&src, &Options::default())[0];
        let errors: Vec<_> = r.findings.iter().filter(|f| f.severity() == Severity::Error).collect();
        prop_assert_eq!(errors.len(), 1, "{:?}", r.findings);
        prop_assert_eq!(errors[0].code, Code::IllegalMove);
        prop_assert_eq!(errors[0].ply, Some(k as u32 + 1));
        prop_assert_eq!(r.plies, k);
        prop_assert!(r.replay.as_ref().unwrap().stopped);
    }
}

#[test]
fn repeated_position_has_the_same_key_and_side_matters() {
    let text = "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 *\n";
    let src = Source::from_bytes("rep.arb", text.as_bytes().to_vec());
    let r = &check_source(&src, &Options::default())[0];
    let replay = r.replay.as_ref().unwrap();
    let keys: Vec<u64> = replay.plies.iter().map(|p| p.key).collect();
    assert_eq!(keys[3], replay.start_key, "back to the start after 4 plies");
    assert_eq!(keys[4], keys[0], "same placement, same side to move");
    assert_ne!(keys[0], keys[1]);
    assert!(replay.plies.iter().all(|p| !p.capture));
    // The Horse that moves on plies 1, 3, 5 keeps its id.
    assert_eq!(replay.plies[0].piece, replay.plies[2].piece);
    assert_eq!(replay.plies[0].piece, replay.plies[4].piece);
    assert_ne!(replay.plies[0].piece, replay.plies[1].piece);
}

proptest! {
    /// Any FEN text, and any one-character corruption of the start FEN, is either read or
    /// refused with located errors: never a panic; a FEN that is read prints back to the
    /// same position.
    #[test]
    fn fen_never_panics_and_round_trips(
        noise in "[rnbakcpRNBAKCPEHX0-9/ wb-]{0,90}",
        at in any::<prop::sample::Index>(),
        c in prop::sample::select(&['r', 'K', 'p', 'P', '1', '9', '/', ' ', 'x', '0'][..]),
    ) {
        use arbiter::games::xiangqi::fen;
        let mut mutated: Vec<char> = fen::START.chars().collect();
        let i = at.index(mutated.len());
        mutated[i] = c;
        let mutated: String = mutated.into_iter().collect();
        for text in [noise.as_str(), mutated.as_str()] {
            match fen::parse(text) {
                Ok(f) => {
                    let printed = fen::write(&f.position, f.halfmove, f.fullmove);
                    let again = fen::parse(&printed).expect("printed FEN reads back");
                    prop_assert_eq!(again.position, f.position);
                }
                Err(errors) => {
                    prop_assert!(!errors.is_empty());
                    for e in errors {
                        prop_assert!(e.range.start <= e.range.end && e.range.end <= text.len());
                    }
                }
            }
        }
    }
}

/// `arbiter claim` on Xiangqi repetitions (rulings §4.3), human and JSON: a perpetual check
/// that holds, a perpetual-chase claim on the same repetition that does not, a repetition
/// claim in claim mode (play went on), a draw claim on a drawn repetition, and a claim on a
/// ply that is no third occurrence. Exit codes: 0 holds, 1 does not.
#[test]
fn cli_repetition_claims() {
    let run = |args: &[&str]| bin::run(args).transcript();
    let check = "fixtures/xiangqi/repetition-perpetual-check.arb";
    let out = [
        run(&["claim", check, "--ply", "8", "perpetual-check"]),
        run(&[
            "claim",
            check,
            "--ply",
            "8",
            "perpetual-chase",
            "--format",
            "json",
        ]),
        run(&[
            "claim",
            "fixtures/xiangqi/repetition-claim-mode.arb",
            "--ply",
            "8",
            "repetition",
            "--format",
            "json",
        ]),
        run(&[
            "claim",
            "fixtures/xiangqi/repetition-mutual-chase.arb",
            "--ply",
            "8",
            "draw",
        ]),
        run(&["claim", check, "--ply", "6", "repetition"]),
    ];
    for (o, code) in out.iter().zip([0, 1, 0, 0, 1]) {
        assert!(o.starts_with(&format!("exit {code}\n")), "{o}");
    }
    insta::assert_snapshot!("xiangqi_cli_repetition_claims", out.join("\n"));
}

/// `--repetition claim` overrides the default and the JSON names the mode in force.
#[test]
fn cli_repetition_mode_is_reported() {
    let run = |args: &[&str]| bin::run(args).transcript();
    let f = "fixtures/xiangqi/repetition-perpetual-check.arb";
    for (args, mode, outcome) in [
        (vec!["check", "--format", "json", f], "ends", true),
        (
            vec!["check", "--format", "json", "--repetition", "claim", f],
            "claim",
            false,
        ),
    ] {
        let out = run(&args);
        let json = out
            .split("--- stdout\n")
            .nth(1)
            .and_then(|s| s.split("--- stderr\n").next())
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let g = &v["games"][0];
        assert_eq!(g["parameters"]["Repetition"], mode, "{out}");
        assert_eq!(!g["outcome"].is_null(), outcome, "{out}");
        let rep = g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["ply"] == 8)
            .unwrap();
        assert_eq!(rep["verdict"]["reason"], "perpetual-check");
        assert_eq!(rep["verdict"]["result"], "0-1");
    }
}

/// In `Repetition "claim"` mode a repetition that goes on is reported once per window; a claim
/// on a later third occurrence inside it still holds, with the reported repetition's verdict.
#[test]
fn claims_inside_a_reported_repetition() {
    let run = |args: &[&str]| bin::run(args).transcript();
    let f = "fixtures/xiangqi/repetition-claim-mode.arb";
    // After ply 10 the position after ply 2 stands for the third time (plies 2, 6, 10).
    let out = run(&["claim", f, "--ply", "10", "perpetual-check"]);
    assert!(out.starts_with("exit 0\n"), "{out}");
    assert!(
        out.contains("it goes on the repetition reported at ply 8 (4... d8d9)"),
        "{out}"
    );
    // After ply 7 no position stands for the third time yet.
    let out = run(&["claim", f, "--ply", "7", "repetition"]);
    assert!(out.starts_with("exit 1\n"), "{out}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The shortcuts of the legality tests (`has_legal_move` and `diagnose` skip making a move
    /// that cannot uncover the General) agree with the plain generator at every position of
    /// random games that capture often (sparse boards, many checks): a pseudo-legal move is
    /// accepted exactly when `legal_moves` lists it, and a side has a legal move exactly when
    /// the list is not empty.
    #[test]
    fn legality_shortcuts_agree_with_the_generator(seed in any::<u64>()) {
        let start = Position::start();
        let moves = arbiter::games::xiangqi::random::random_game(&start, seed, 300);
        let mut pos = start;
        let mut legal = MoveList::new();
        let mut pseudo = MoveList::new();
        for m in moves.iter().copied().chain(std::iter::once(Move::default())) {
            pos.legal_moves(&mut legal);
            prop_assert_eq!(pos.has_legal_move(), !legal.is_empty(), "{:?}", pos);
            pseudo.clear();
            pos.pseudo_moves(&mut pseudo);
            for &p in pseudo.iter() {
                prop_assert_eq!(pos.diagnose(p).is_ok(), legal.contains(&p), "{} in {:?}", p.iccs(), pos);
            }
            if legal.contains(&m) {
                pos.make(m);
            }
        }
    }
}
