//! The evidence of a history finding never exceeds the rule's window (issue 19), however long
//! the game has gone on breaking it, so reporting stays linear:
//! - two-squares (rulings §1.4): at most `limit` earlier moves, all of the same piece by the
//!   same side, within the last `2 * limit` plies;
//! - more-squares (§1.5): the chase's plies from the repeated position's latest occurrence up
//!   to the forbidden move: one lap of a chase that runs lap after lap, never the whole chase;
//! - Jungle repetition (§3): at most three earlier occurrences of the position, each really
//!   that position;
//! - Xiangqi repetition (§4.3): exactly the window from the first of the last three
//!   occurrences to the third, no wider.
//!
//! Games: random shuttles (two pieces a side, each moving between its two squares, the side
//! picking which), chases round a lake for a random number of laps, and Xiangqi games built to
//! repeat (`random::repetition_game`) played on in `Repetition "claim"` mode.

use arbiter::games::xiangqi::random::repetition_game;
use arbiter::games::xiangqi::Position;
use arbiter::pipeline::{check_source, GameReport, Options, Source};
use arbiter::rules::Replay;
use arbiter::Code;
use proptest::prelude::*;

fn judge(log: &str) -> GameReport {
    let reports = check_source(
        &Source::from_bytes("evidence.arb", log.as_bytes().to_vec()),
        &Options::default(),
    );
    assert_eq!(reports.len(), 1);
    reports.into_iter().next().expect("one game")
}

/// The position key after ply `p` (0: the start).
fn key(replay: &Replay, p: u32) -> Option<u64> {
    match p {
        0 => Some(replay.start_key),
        p => replay.plies.get(p as usize - 1).map(|i| i.key),
    }
}

/// Checks the evidence of every history finding of `r` against its rule's window.
fn assert_bounded(r: &GameReport, log: &str) -> Result<usize, TestCaseError> {
    let replay = r.replay.as_ref().expect("judged");
    let limit = r.parameters.two_squares.map_or(0, |t| t.count());
    let mut seen = 0;
    for f in &r.findings {
        let (Some(ply), ev) = (f.ply, &f.evidence) else {
            continue;
        };
        let at = |p: u32| replay.plies.get(p as usize - 1);
        match f.code {
            Code::TwoSquaresRule => {
                prop_assert!(!ev.is_empty() && ev.len() <= limit as usize, "{:?}", f);
                let mover = at(ply).map(|i| (i.side, i.piece));
                for &p in ev {
                    prop_assert!(
                        p < ply && p + 2 * limit >= ply,
                        "ply {} evidence {:?}",
                        ply,
                        ev
                    );
                    prop_assert_eq!(at(p).map(|i| (i.side, i.piece)), mover);
                }
            }
            Code::MoreSquaresRule => {
                // contiguous plies ending just before the forbidden move
                prop_assert!(!ev.is_empty());
                prop_assert!(
                    ev.windows(2).all(|w| w[1] == w[0] + 1) && *ev.last().unwrap() == ply - 1,
                    "{:?}",
                    ev
                );
                let repeated = key(replay, ply);
                prop_assert_eq!(
                    key(replay, ev[0]),
                    repeated,
                    "ply {}: evidence starts at the repeated position",
                    ply
                );
                prop_assert!(
                    ev[1..].iter().all(|&p| key(replay, p) != repeated),
                    "ply {}: its latest occurrence",
                    ply
                );
            }
            Code::JungleRepetition | Code::ThreefoldRepetition
                if r.game == Some(arbiter::rules::GameId::Jungle) =>
            {
                prop_assert!(!ev.is_empty() && ev.len() <= 3, "{:?}", f);
                for &p in ev {
                    prop_assert!(p < ply);
                    if let Some(k) = key(replay, ply) {
                        prop_assert_eq!(key(replay, p), Some(k));
                    }
                }
            }
            Code::ThreefoldRepetition | Code::PerpetualCheck | Code::PerpetualChase => {
                let first = ev[0] - 1;
                prop_assert_eq!(ev.clone(), (first + 1..=ply).collect::<Vec<u32>>());
                let k = key(replay, ply);
                let occurrences = (first..=ply).filter(|&p| key(replay, p) == k).count();
                prop_assert_eq!(
                    occurrences,
                    3,
                    "ply {}: the window holds three occurrences",
                    ply
                );
            }
            _ => continue,
        }
        seen += 1;
    }
    let _ = log;
    Ok(seen)
}

const BARRAGE: &str = "setup blue\n 10 FBS2239X..\n  9 ..........\n  8 ..........\n  7 ..........\nsetup red\n  4 ..........\n  3 ..........\n  2 ..........\n  1 FBS2239X..\n";

/// A shuttling game: each side has two pieces, each moving between its two squares; `picks`
/// says which one moves each ply.
fn shuttles(squares: [[(&str, &str); 2]; 2], picks: &[bool], head: &str) -> String {
    let mut at_home = [[true; 2]; 2];
    let mut text = String::from(head);
    for (i, &pick) in picks.iter().enumerate() {
        let side = i % 2;
        let piece = usize::from(pick);
        let (a, b) = squares[side][piece];
        let (from, to) = if at_home[side][piece] { (a, b) } else { (b, a) };
        at_home[side][piece] = !at_home[side][piece];
        if side == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(&format!("{from}-{to} "));
    }
    text + "*\n"
}

/// The ring of 12 squares round Stratego's left lake.
const RING: [&str; 12] = [
    "b4", "c4", "d4", "e4", "e5", "e6", "e7", "d7", "c7", "b7", "b6", "b5",
];

/// Blue's General runs round the lake, Red's Marshal follows one square behind, `laps` times.
fn lap_chase(laps: usize) -> String {
    let head = format!("[Game \"barrage\"]\n[Result \"*\"]\n\n{BARRAGE}\n")
        .replace("  7 ..........", "  7 ..9.......")
        .replace(" 10 FBS2239X..", " 10 FBS2.23X..")
        .replace("  4 ..........", "  4 ....X.....")
        .replace("  1 FBS2239X..", "  1 FBS2239...");
    let mut moves: Vec<String> = [
        "e4-e5", "f10-f9", "e5-e6", "f9-f8", "e6-e7", "f8-f9", "e7-d7",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (mut g, mut x) = (8usize, 7usize);
    for _ in 0..laps * 12 {
        let ng = (g + 1) % 12;
        moves.push(format!("{}-{}", RING[g], RING[ng]));
        moves.push(format!("{}-{}", RING[x], RING[g]));
        x = g;
        g = ng;
    }
    let mut text = head;
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(m);
        text.push(' ');
    }
    text + "*\n"
}

/// The generators do make findings: a long shuttle breaks the two-squares rule on every move
/// from the fourth, a Jungle shuttle repeats, and every finding is bounded.
#[test]
fn the_games_break_the_rules() {
    let head = format!("[Game \"barrage\"]\n[TwoSquares \"3\"]\n[MoreSquares \"off\"]\n[Result \"*\"]\n\n{BARRAGE}\n");
    let log = shuttles(
        [[("h1", "h2"), ("g1", "g2")], [("h10", "h9"), ("g10", "g9")]],
        &[false; 400],
        &head,
    );
    let r = judge(&log);
    assert_eq!(assert_bounded(&r, &log).expect("bounded"), 2 * (200 - 3));
    let log = shuttles(
        [[("g3", "g4"), ("a3", "a4")], [("a7", "a6"), ("g7", "g6")]],
        &[false; 400],
        "[Game \"jungle\"]\n[Result \"*\"]\n\n",
    );
    let r = judge(&log);
    assert!(
        assert_bounded(&r, &log).expect("bounded") > 0,
        "{:?}",
        r.findings
    );
    let moves = repetition_game(&Position::start(), 7, 400);
    let text: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
    let log = format!(
        "[Game \"xiangqi\"]\n[Repetition \"claim\"]\n[Result \"*\"]\n\n{} *\n",
        text.join(" ")
    );
    assert!(assert_bounded(&judge(&log), &log).expect("bounded") > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn two_squares_evidence_stays_within_the_limit(
        limit in 1u32..6,
        picks in proptest::collection::vec(proptest::bool::weighted(0.2), 10..160),
    ) {
        let head = format!("[Game \"barrage\"]\n[TwoSquares \"{limit}\"]\n[MoreSquares \"off\"]\n[Result \"*\"]\n\n{BARRAGE}\n");
        let log = shuttles([[("h1", "h2"), ("g1", "g2")], [("h10", "h9"), ("g10", "g9")]], &picks, &head);
        let r = judge(&log);
        assert_bounded(&r, &log)?;
    }

    #[test]
    fn a_chase_lap_after_lap_cites_one_lap(laps in 1usize..6) {
        let log = lap_chase(laps);
        let r = judge(&log);
        let chases = r.findings.iter().filter(|f| f.code == Code::MoreSquaresRule).count();
        prop_assert!(chases > 0, "{:?}", r.findings);
        assert_bounded(&r, &log)?;
        let longest = r.findings.iter().filter(|f| f.code == Code::MoreSquaresRule).map(|f| f.evidence.len()).max();
        prop_assert!(longest <= Some(24), "one lap is 24 plies: {:?}", longest);
    }

    #[test]
    fn jungle_repetition_evidence_cites_at_most_three_occurrences(
        picks in proptest::collection::vec(any::<bool>(), 10..200),
    ) {
        let head = "[Game \"jungle\"]\n[Result \"*\"]\n\n";
        let log = shuttles([[("g3", "g4"), ("a3", "a4")], [("a7", "a6"), ("g7", "g6")]], &picks, head);
        let r = judge(&log);
        assert_bounded(&r, &log)?;
    }

    #[test]
    fn xiangqi_repetition_evidence_is_the_window(seed in any::<u64>(), plies in 40usize..400) {
        let moves = repetition_game(&Position::start(), seed, plies);
        let text: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
        let log = format!("[Game \"xiangqi\"]\n[Repetition \"claim\"]\n[Result \"*\"]\n\n{} *\n", text.join(" "));
        let r = judge(&log);
        assert_bounded(&r, &log)?;
    }
}
