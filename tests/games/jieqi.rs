//! Jieqi (rulings §4.2) end to end: the hand-worked fixtures in `fixtures/jieqi/`, their
//! diagnostics, the 60-move limit on a long quiet game, random games written with their
//! reveals or with the full shuffle, and the Pikafish-Jieqi FEN at every ply.

use arbiter::games::xiangqi::fen::{parse_jieqi, write_jieqi};
use arbiter::games::xiangqi::random::{jieqi_shuffle, random_game, shuffle_setups, Rng};
use arbiter::games::xiangqi::{Kind, Move, MoveList, Position, Xiangqi, SQUARES};
use arbiter::pipeline::{check_source, Options, Source};
use arbiter::record::parse::parse_log;
use arbiter::rules::{replay_observed, GameId, Side};
use arbiter::Severity;
use proptest::prelude::*;

use crate::bin;
use crate::fixtures::{
    assert_one_game_verdicts, codes_at_plies, fixtures_in, outcome_text, rendered_diagnostics,
};

fn fixtures() -> Vec<std::path::PathBuf> {
    fixtures_in("jieqi")
}

/// Findings as `code@ply`, in order.
fn verdicts(text: &str) -> (Vec<String>, String) {
    let src = Source::from_bytes("game.arb", text.as_bytes().to_vec());
    let reports = check_source(&src, &Options::default());
    assert_eq!(reports.len(), 1, "one game");
    let r = &reports[0];
    let got = codes_at_plies(&r.findings);
    let outcome = outcome_text(r.outcome.as_ref());
    (got, outcome)
}

#[test]
fn fixtures_give_their_hand_worked_verdicts() {
    let files = fixtures();
    assert!(files.len() >= 20, "only {} jieqi fixtures", files.len());
    assert_one_game_verdicts(&files, |_| Options::default(), GameId::Jieqi);
}

#[test]
fn fixture_diagnostics() {
    let out = rendered_diagnostics(fixtures(), |_| Options::default());
    insta::assert_snapshot!("jieqi_fixture_diagnostics", out);
}

/// How a log records the identity of a captured covered piece.
#[derive(Debug, Clone, Copy)]
enum CaptureNote {
    Recorded,
    Unknown,
    Absent,
}

/// Writes `moves` (played from `shuffle`) as a Jieqi log: with `with_shuffle` the two setup
/// sections give every covered piece's identity and the moves carry no reveals; otherwise
/// every reveal carries its identity. Captured covered pieces are noted as `notes` says
/// (cycling through the list).
fn log(shuffle: &Position, moves: &[Move], with_shuffle: bool, notes: &[CaptureNote]) -> String {
    log_corrupted(shuffle, moves, with_shuffle, notes, None)
}

/// [`log`], with the reveal of ply `corrupt.0` (0-based) written as `corrupt.1`.
fn log_corrupted(
    shuffle: &Position,
    moves: &[Move],
    with_shuffle: bool,
    notes: &[CaptureNote],
    corrupt: Option<(usize, Kind)>,
) -> String {
    let mut out = String::from("[Game \"jieqi\"]\n");
    if with_shuffle {
        out.push_str(&shuffle_setups(shuffle));
    }
    out.push('\n');
    let mut pos = *shuffle;
    let mut captures = 0usize;
    for (i, &m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&format!("{}. ", i / 2 + 1));
        }
        out.push_str(&m.iccs());
        let mover = pos.piece(m.from).expect("a mover");
        let target = pos.piece(m.to);
        let letter = |side: Side, k: Kind| match side {
            Side::First => k.letter(),
            Side::Second => k.letter().to_ascii_lowercase(),
        };
        let reveal = match corrupt {
            Some((at, k)) if at == i => Some(letter(mover.side(), k)),
            _ => (mover.is_covered() && !with_shuffle).then(|| letter(mover.side(), mover.kind())),
        };
        let captured = match target {
            Some(t) if t.is_covered() => {
                let note = notes.get(captures % notes.len().max(1)).copied();
                captures += 1;
                match note {
                    Some(CaptureNote::Recorded) => Some(letter(t.side(), t.kind()).to_string()),
                    Some(CaptureNote::Unknown) => Some("?".to_string()),
                    _ => None,
                }
            }
            _ => None,
        };
        match (reveal, captured) {
            (Some(r), Some(c)) => out.push_str(&format!("({r}:{c})")),
            (Some(r), None) => out.push_str(&format!("({r})")),
            (None, Some(c)) => out.push_str(&format!("(:{c})")),
            (None, None) => {}
        }
        out.push(' ');
        pos.make(m);
        if let Some(p) = pos.piece(m.to).filter(|p| p.is_covered()) {
            pos.uncover(m.to, p.kind());
        }
    }
    out.push_str("*\n");
    out
}

/// Replays `text` (one Jieqi game) and returns, for the start and every ply, the FEN and
/// the position key, plus the findings as `code@ply message`.
fn replay_fens(text: &str) -> (Vec<(String, u64)>, Vec<String>) {
    let rec = &parse_log(text)[0];
    let engine = Xiangqi::jieqi();
    let params = arbiter::rules::Rules::default_parameters(&engine);
    let mut fens = Vec::new();
    let replay = replay_observed(&engine, rec, &params, |_, st| {
        fens.push((st.fen(), st.position.key()))
    });
    let findings = replay
        .findings
        .iter()
        .map(|f| format!("{}@{:?} {}", f.code, f.ply, f.message))
        .collect();
    (fens, findings)
}

/// `moves` cut after the ply on which the game ends on the board (a random game knows mate
/// and stalemate, but not repetition or the 60-move limit).
fn until_the_end(shuffle: &Position, mut moves: Vec<Move>) -> Vec<Move> {
    let src = Source::from_bytes("random.arb", log(shuffle, &moves, false, &[]).into_bytes());
    if let Some(o) = &check_source(&src, &Options::default())[0].outcome {
        moves.truncate(o.ply as usize);
    }
    moves
}

fn note_strategy() -> impl Strategy<Value = Vec<CaptureNote>> {
    prop::collection::vec(
        prop_oneof![
            Just(CaptureNote::Recorded),
            Just(CaptureNote::Unknown),
            Just(CaptureNote::Absent)
        ],
        1..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random shuffles and random legal moves, written with their reveals, replay with no
    /// error finding; written with the full shuffle instead, the replay is the same: the
    /// same positions (FEN and key) at every ply and the same findings.
    #[test]
    fn random_games_replay_clean_with_reveals_or_shuffle(
        seed in any::<u64>(),
        plies in 0usize..200,
        notes in note_strategy(),
    ) {
        let shuffle = jieqi_shuffle(seed);
        let moves = random_game(&shuffle, seed, plies);
        let moves = until_the_end(&shuffle, moves);
        let with_reveals = log(&shuffle, &moves, false, &notes);
        let src = Source::from_bytes("random.arb", with_reveals.as_bytes().to_vec());
        let reports = check_source(&src, &Options::default());
        let errors: Vec<_> = reports[0]
            .findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .map(|f| format!("{}@{:?} {}", f.code, f.ply, f.message))
            .collect();
        prop_assert!(errors.is_empty(), "{errors:?}\n{with_reveals}");
        let (fens_a, findings_a) = replay_fens(&with_reveals);
        let with_shuffle = log(&shuffle, &moves, true, &notes);
        let (fens_b, findings_b) = replay_fens(&with_shuffle);
        prop_assert_eq!(&fens_a, &fens_b);
        prop_assert_eq!(&findings_a, &findings_b);
        // parse -> print (`arbiter convert`) -> parse: the same replay, for both forms.
        for text in [&with_reveals, &with_shuffle] {
            let src = Source::from_bytes("game.arb", text.as_bytes().to_vec());
            let rec = &arbiter::pipeline::parse_source(&src)[0];
            let printed =
                arbiter::convert::convert_one(rec, &arbiter::rules::Overrides::default(), None)
                    .unwrap();
            let (fens_c, findings_c) = replay_fens(&printed);
            prop_assert_eq!(&fens_c, &fens_a);
            prop_assert_eq!(&findings_c, &findings_a);
        }
        prop_assert!(fens_a.len() <= moves.len() + 1);
    }

    /// The Pikafish-Jieqi FEN of every position of a random game reads back as the same
    /// position (key, pools, counters) and prints as the same text.
    #[test]
    fn fen_round_trips_at_every_ply(seed in any::<u64>(), plies in 0usize..200) {
        let shuffle = jieqi_shuffle(seed);
        let moves = random_game(&shuffle, seed, plies);
        let (fens, _) = replay_fens(&log(&shuffle, &moves, false, &[CaptureNote::Recorded]));
        for (fen, key) in &fens {
            let back = parse_jieqi(fen).map_err(|e| format!("{fen}: {e:?}"));
            prop_assert!(back.is_ok(), "{:?}", back.err());
            let back = back.unwrap_or_else(|_| unreachable!());
            prop_assert_eq!(back.position.key(), *key, "{}", fen);
            prop_assert_eq!(
                &write_jieqi(&back.position, &back.pool, back.halfmove, back.fullmove),
                fen
            );
        }
    }

    /// Under a given shuffle, one reveal recorded as another identity is caught at its ply
    /// (`illegal-move`), and nothing before it is reported.
    #[test]
    fn a_reveal_against_the_shuffle_is_caught(seed in any::<u64>(), pick in any::<usize>()) {
        let shuffle = jieqi_shuffle(seed);
        // Cut at the end (a repetition may end the game first: later plies are then
        // `moves-after-end`, not judged).
        let moves = until_the_end(&shuffle, random_game(&shuffle, seed, 120));
        let mut pos = shuffle;
        let mut reveals = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            if let Some(p) = pos.piece(m.from).filter(|p| p.is_covered()) {
                reveals.push((i, p.kind()));
            }
            pos.make(m);
            if let Some(p) = pos.piece(m.to).filter(|p| p.is_covered()) {
                pos.uncover(m.to, p.kind());
            }
        }
        prop_assume!(!reveals.is_empty());
        let (at, truth) = reveals[pick % reveals.len()];
        let wrong = if truth == Kind::Soldier { Kind::Chariot } else { Kind::Soldier };
        let text = log_corrupted(&shuffle, &moves, true, &[], Some((at, wrong)));
        let (got, _) = verdicts(&text);
        prop_assert_eq!(got, vec![format!("illegal-move@{}", at + 1)]);
    }
}

/// A quiet game from the Jieqi start that never repeats a position: moves chosen at random
/// among the non-captures that lead to a position not seen before.
fn quiet_game(seed: u64, plies: usize) -> Option<(Position, Vec<Move>)> {
    let shuffle = jieqi_shuffle(seed);
    let mut rng = Rng::new(seed);
    let mut pos = shuffle;
    let mut seen = std::collections::HashSet::new();
    seen.insert(pos.key());
    let mut moves = Vec::new();
    let mut legal = MoveList::new();
    while moves.len() < plies {
        pos.legal_moves(&mut legal);
        let fresh: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pos.piece(m.to).is_none())
            .filter(|&m| {
                let mut after = pos;
                after.make(m);
                !seen.contains(&after.key()) && after.has_legal_move()
            })
            .collect();
        if fresh.is_empty() {
            return None;
        }
        let m = fresh[rng.below(fresh.len())];
        pos.make(m);
        if let Some(p) = pos.piece(m.to).filter(|p| p.is_covered()) {
            pos.uncover(m.to, p.kind());
        }
        seen.insert(pos.key());
        moves.push(m);
    }
    Some((shuffle, moves))
}

/// Rulings §4.2: 60 moves per side (120 plies) without a capture draw. A quiet game from the
/// start reaches the limit on ply 120 exactly, not on ply 119, and ply 121 is a move after
/// the end.
#[test]
fn the_60_move_limit_falls_on_ply_120() {
    let (shuffle, moves) = (1..50)
        .find_map(|seed| quiet_game(seed, 121))
        .expect("a quiet game of 121 plies");
    let at = |n: usize| verdicts(&log(&shuffle, &moves[..n], false, &[]));
    assert_eq!(at(119), (vec![], "none".to_string()));
    assert_eq!(
        at(120),
        (
            vec!["move-limit@120".to_string()],
            "move-limit 1/2-1/2 120".to_string()
        )
    );
    assert_eq!(
        at(121),
        (
            vec![
                "move-limit@120".to_string(),
                "moves-after-end@121".to_string()
            ],
            "move-limit 1/2-1/2 120".to_string()
        )
    );
}

/// The covered pieces of a shuffle key the same as those of any other shuffle: the key
/// holds the placement of covered pieces, never their identities (rulings §4.3).
#[test]
fn covered_identities_are_not_in_the_key() {
    let a = jieqi_shuffle(1);
    let b = jieqi_shuffle(2);
    assert_ne!(
        (0..SQUARES as u8)
            .map(|s| a.piece(s).map(|p| p.kind()))
            .collect::<Vec<_>>(),
        (0..SQUARES as u8)
            .map(|s| b.piece(s).map(|p| p.kind()))
            .collect::<Vec<_>>()
    );
    assert_eq!(a.key(), b.key());
    assert_eq!(
        a.key(),
        parse_jieqi(arbiter::games::xiangqi::fen::JIEQI_START)
            .unwrap()
            .position
            .key()
    );
}

/// What each side knows, through the CLI: the arbiter's view shows the shuffle's identities
/// only when the log gave one; Red's view shows what Red captured covered (it learned what it
/// took) and Black's does not; a claim of the 60-move draw; the JSON report of a reveal beyond
/// the pool.
#[test]
fn cli_views_claims_and_json() {
    let mut out = String::new();
    for args in [
        &["show", "fixtures/jieqi/covered-cannon.arb", "--ply", "3"][..],
        &[
            "show",
            "fixtures/jieqi/covered-cannon.arb",
            "--ply",
            "3",
            "--as",
            "red",
        ],
        &[
            "show",
            "fixtures/jieqi/covered-cannon.arb",
            "--ply",
            "3",
            "--as",
            "black",
        ],
        &["show", "fixtures/jieqi/shuffle.arb", "--ply", "1"],
        &[
            "claim",
            "fixtures/jieqi/move-limit.arb",
            "draw",
            "--ply",
            "6",
        ],
        &[
            "claim",
            "fixtures/jieqi/move-limit.arb",
            "draw",
            "--ply",
            "5",
        ],
        &[
            "check",
            "--format",
            "json",
            "fixtures/jieqi/reveal-beyond-pool.arb",
        ],
    ] {
        out.push_str(&bin::session(args));
        out.push('\n');
    }
    insta::assert_snapshot!("jieqi_cli", out);
}
