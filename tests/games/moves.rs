//! "May I play this move?" (issue 27, docs/claims.md): `arbiter claim FILE --ply N --move M`
//! and `--moves` on the hand-worked fixtures, one for each rule that forbids a move. Each
//! question asks about a move the fixture itself plays (or could play) at ply N+1, so the
//! answer is the one its header works out for that ply: the comment on each row says which.
//! Human and JSON snapshots; exit codes 0 allowed, 1 not allowed.

use crate::bin;

/// Fixture, ply, move, the answer expected (`allowed`, `not-allowed`, `illegal`, `game-over`),
/// and the rule that forbids it.
const MOVES: &[(&str, &str, &str, &str, &str)] = &[
    // Header: h2-h1 as ply 7 is the 4th move of the Marshal's run (plies 1, 3, 5): forbidden.
    (
        "history/two-squares-fourth-move.arb",
        "6",
        "h2-h1",
        "not-allowed",
        "two-squares-rule",
    ),
    // The Marshal may go elsewhere: h2-g2 starts a new run.
    (
        "history/two-squares-fourth-move.arb",
        "6",
        "h2-g2",
        "allowed",
        "",
    ),
    // A Marshal moves one square: h2-h4 breaks the movement rule, not a history rule.
    (
        "history/two-squares-fourth-move.arb",
        "6",
        "h2-h4",
        "illegal",
        "illegal-move",
    ),
    // Header: f7-e7 as ply 13 repeats the chase's position of ply 5: forbidden.
    (
        "history/chase-repeats-position.arb",
        "12",
        "f7-e7",
        "not-allowed",
        "more-squares-rule",
    ),
    // Header: g7-f7 as ply 11 goes straight back to the square the Marshal left: allowed.
    (
        "history/chase-return-exception.arb",
        "10",
        "g7-f7",
        "allowed",
        "",
    ),
    // Header: c3-c2 as ply 9 makes the position of plies 1 and 5 a third time while the Lion
    // could capture the Tiger that just moved: forbidden.
    (
        "jungle/repetition_forbidden.arb",
        "8",
        "c3-c2",
        "not-allowed",
        "jungle-repetition",
    ),
    // Header: e8-e7 as ply 8 is a third occurrence, but a Tiger cannot capture a Lion:
    // allowed (the threefold draw becomes claimable).
    (
        "jungle/repetition_forbidden.arb",
        "7",
        "e8-e7",
        "allowed",
        "",
    ),
    // Header: a4-a3 as ply 5 takes the Corporal straight back to a3, left in White's
    // previous turn: forbidden (reported as illegal-move, rulings §2).
    (
        "spionage/no-return.arb",
        "4",
        "a4-a3",
        "not-allowed",
        "illegal-move",
    ),
    // c3-c4 is a first move of White's turn 3 that no rule forbids.
    ("spionage/no-return.arb", "4", "c3-c4", "allowed", ""),
    // Header: d8d9 as ply 8 makes the start position stand a third time with Red checking
    // throughout: allowed, the game ends, Black wins (perpetual check).
    (
        "xiangqi/repetition-perpetual-check.arb",
        "7",
        "d8d9",
        "allowed",
        "",
    ),
    // Header: c9c5 as ply 8 completes Black's perpetual chase: allowed, the game ends, Red
    // wins.
    (
        "xiangqi/repetition-check-idle-vs-chase.arb",
        "7",
        "c9c5",
        "allowed",
        "",
    ),
    // Header: b4b3 as ply 10 completes Black's perpetual chase of the revealed Cannon.
    (
        "jieqi/perpetual-chase-revealed.arb",
        "9",
        "b4b3",
        "allowed",
        "",
    ),
    // The Flag fell on ply 33: no move may follow.
    (
        "stratego/clean-stratego.arb",
        "33",
        "a4-a5",
        "game-over",
        "moves-after-end",
    ),
];

/// The exit code and stdout of `arbiter claim ARGS`.
fn run(args: &[&str]) -> (i32, String) {
    let run = bin::run(&[&["claim"], args].concat());
    (run.code, run.stdout)
}

#[test]
fn may_i_play_each_move() {
    let mut human = String::new();
    for (file, ply, mv, answer, rule) in MOVES {
        let path = format!("fixtures/{file}");
        let (exit, text) = run(&[&path, "--ply", ply, "--move", mv]);
        let want_exit = if *answer == "allowed" { 0 } else { 1 };
        assert_eq!(exit, want_exit, "{file} {mv}: {text}");
        human.push_str(&text);
        let (_, json) = run(&[&path, "--ply", ply, "--move", mv, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
        assert_eq!(v["answer"], *answer, "{file} {mv}: {json}");
        assert_eq!(v["rule"], *rule, "{file} {mv}: {json}");
        assert_eq!(v["move"], *mv);
    }
    insta::assert_snapshot!("may_i_play_human", human);
}

#[test]
fn a_move_that_ends_the_game_says_how() {
    let (_, json) = run(&[
        "fixtures/xiangqi/repetition-check-idle-vs-chase.arb",
        "--ply",
        "7",
        "--move",
        "c9c5",
        "--format",
        "json",
    ]);
    insta::assert_snapshot!("may_i_play_perpetual_chase_json", json);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["ends"]["result"], "1-0");
    assert_eq!(v["ends"]["reason"], "perpetual-chase");
    assert_eq!(v["ends"]["words"], "Red wins: Black chases perpetually");
    let (_, json) = run(&[
        "fixtures/history/two-squares-fourth-move.arb",
        "--ply",
        "6",
        "--move",
        "h2-h1",
        "--format",
        "json",
    ]);
    insta::assert_snapshot!("may_i_play_two_squares_json", json);
}

#[test]
fn every_move_allowed_and_apart_the_forbidden_ones() {
    let mut human = String::new();
    // Each: the position and what its header says is forbidden there (by the move the
    // fixture then plays): the Marshal's 4th shuttle; the chase repeating ply 5; the Lion's
    // repetition; the Corporal's and the Lieutenant's way back (both moved in White's turn 1);
    // nothing in Xiangqi, where d8d9 ends the game; the covered Jieqi pieces cannot be tried
    // without the shuffle.
    for (file, ply, forbidden) in [
        ("history/two-squares-fourth-move.arb", "6", vec!["h2-h1"]),
        ("history/chase-repeats-position.arb", "12", vec!["f7-e7"]),
        ("jungle/repetition_forbidden.arb", "8", vec!["c3-c2"]),
        ("spionage/no-return.arb", "4", vec!["a4-a3", "b4-b3"]),
        ("xiangqi/repetition-perpetual-check.arb", "7", vec![]),
        ("jieqi/fen-position.arb", "0", vec![]),
    ] {
        let path = format!("fixtures/{file}");
        let (exit, text) = run(&[&path, "--ply", ply, "--moves"]);
        assert_eq!(exit, 0, "{file}: {text}");
        human.push_str(&text);
        let (_, json) = run(&[&path, "--ply", ply, "--move", "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
        let got: Vec<&str> = v["forbidden"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert_eq!(got, forbidden, "{file}");
    }
    insta::assert_snapshot!("moves_human", human);
}

#[test]
fn no_move_after_the_end_and_no_ply_beyond_the_game() {
    let (exit, text) = run(&[
        "fixtures/stratego/clean-stratego.arb",
        "--ply",
        "33",
        "--moves",
    ]);
    assert_eq!(exit, 1, "{text}");
    assert!(text.contains("no move: the game ended on ply 33"), "{text}");
    let out = bin::run(&[
        "claim",
        "fixtures/stratego/clean-stratego.arb",
        "--ply",
        "34",
        "--move",
        "a4-a5",
    ]);
    assert_eq!(out.code, 2, "{out:?}");
}

/// A move the game's notation cannot read is no move the rules refuse: the question cannot be
/// judged (exit 2), and the answer says what the notation expects.
#[test]
fn an_unreadable_move_cannot_be_judged() {
    let cases = [
        (
            "history/two-squares-fourth-move.arb",
            "6",
            "zz9",
            "e.g. a4-a5",
        ),
        (
            "jungle/repetition_forbidden.arb",
            "8",
            "c3c2x",
            "e.g. a3-a4",
        ),
        ("jieqi/perpetual-chase-revealed.arb", "9", "b4", "e.g. h2e2"),
        ("xiangqi/checkmate.arb", "2", "1-0", "e.g. C2.5"),
    ];
    for (file, ply, mv, expected) in cases {
        let path = format!("fixtures/{file}");
        let run = bin::run(&["claim", &path, "--ply", ply, "--move", mv]);
        assert_eq!(run.code, 2, "{file} {mv}: {}", run.stdout);
        assert!(run.stdout.is_empty(), "{file} {mv}: {}", run.stdout);
        let want = format!("`{mv}` cannot be read as a move");
        assert!(run.stderr.contains(&want), "{file} {mv}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{file} {mv}: {}", run.stderr);
        let json = bin::run(&[
            "claim", &path, "--ply", ply, "--move", mv, "--format", "json",
        ]);
        assert_eq!(json.code, 2);
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON object");
        assert!(
            v["error"].as_str().is_some_and(|e| e.contains(&want)),
            "{v}"
        );
        assert_eq!(v["claim"], "move");
    }
}
