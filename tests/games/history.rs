//! The Stratego-family history rules (rulings §1.4 two-squares, §1.5 more-squares, §1.6
//! Veldslag's no-capture thresholds), on the hand-built fixtures in
//! `fixtures/history/` (each fixture's header works out its verdict from the rule text).

use crate::fixtures::assert_verdicts;
use arbiter::pipeline::{check_source, GameReport, Options, Source};
use arbiter::rules::Overrides;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/history")
        .join(name)
}

fn judge_with(name: &str, overrides: Overrides) -> GameReport {
    let src = Source::read(&fixture(name));
    let mut games = check_source(&src, &Options { overrides });
    assert_eq!(games.len(), 1, "{name}: one game");
    games.remove(0)
}

fn judge(name: &str) -> GameReport {
    judge_with(name, Overrides::default())
}

fn codes(g: &GameReport) -> Vec<(String, Option<u32>)> {
    g.findings
        .iter()
        .map(|f| (f.code.as_str().to_string(), f.ply))
        .collect()
}

/// Judges `name` and holds it to `plies` replayed and the verdict its header works out,
/// `findings` and `outcome` as `tests/support/fixtures.rs` reads them.
fn expect(name: &str, plies: usize, findings: &str, outcome: &str) -> GameReport {
    let g = judge(name);
    assert_eq!(g.plies, plies, "{name}: plies replayed");
    assert_verdicts(name, std::slice::from_ref(&g), &[(findings, outcome)]);
    g
}

#[test]
fn two_squares_fourth_move_is_forbidden_and_replay_goes_on() {
    let g = expect(
        "two-squares-fourth-move.arb",
        8,
        "two-squares-rule@7",
        "none",
    );
    assert_eq!(g.findings[0].evidence, vec![1, 3, 5]);
    assert_eq!(g.findings[0].labels.len(), 3);
    assert_eq!(g.parameters.two_squares.map(|t| t.count()), Some(3));
}

#[test]
fn two_squares_three_moves_are_legal() {
    expect("two-squares-three-moves-legal.arb", 8, "none", "none");
}

#[test]
fn two_squares_tag_sets_the_limit_and_cli_overrides_it() {
    let g = expect("two-squares-limit-five.arb", 8, "none", "none");
    assert_eq!(g.parameters.two_squares.map(|t| t.count()), Some(5));
    let g = judge_with(
        "two-squares-limit-five.arb",
        Overrides {
            two_squares: Some(arbiter::rules::TwoSquares::from_count(3)),
            ..Overrides::default()
        },
    );
    assert_eq!(codes(&g), vec![("two-squares-rule".to_string(), Some(7))]);
    let g = judge_with(
        "two-squares-fourth-move.arb",
        Overrides {
            two_squares: Some(arbiter::rules::TwoSquares::from_count(0)),
            ..Overrides::default()
        },
    );
    assert!(g.findings.is_empty(), "limit 0 turns the rule off");
}

#[test]
fn scout_shuttle_inside_one_segment() {
    let g = expect(
        "two-squares-scout-segment.arb",
        8,
        "two-squares-rule@7",
        "none",
    );
    assert_eq!(g.findings[0].evidence, vec![1, 3, 5]);
}

#[test]
fn chase_repeating_a_position_is_forbidden() {
    let g = expect(
        "chase-repeats-position.arb",
        13,
        "more-squares-rule@13",
        "none",
    );
    let f = &g.findings[0];
    assert!(
        f.message.contains("the Blue General on e8"),
        "{}",
        f.message
    );
    assert!(f.message.contains("ply 5"), "{}", f.message);
    assert_eq!(f.labels[0].text, "ply 5: the position first occurred here");
    assert_eq!(f.evidence, (5..=12).collect::<Vec<u32>>());
}

#[test]
fn chase_violation_does_not_stop_the_replay() {
    let g = expect(
        "chase-violation-replay-goes-on.arb",
        15,
        "more-squares-rule@13",
        "none",
    );
    assert!(g.outcome.is_none());
}

#[test]
fn chase_using_only_the_return_exception_is_allowed() {
    expect("chase-return-exception.arb", 12, "none", "none");
}

#[test]
fn going_straight_back_is_no_exception_where_the_two_squares_rule_forbids_it() {
    let g = expect(
        "chase-return-forbidden-by-two-squares.arb",
        13,
        "two-squares-rule@12 two-squares-rule@13 more-squares-rule@13",
        "none",
    );
    assert!(
        g.findings[2].message.contains("ply 5"),
        "{:?}",
        g.findings[2]
    );
}

#[test]
fn chase_switching_between_two_pieces() {
    let g = expect("chase-two-pieces.arb", 13, "more-squares-rule@13", "none");
    let f = &g.findings[0];
    assert!(
        f.message.contains("the Blue General on d7"),
        "{}",
        f.message
    );
    assert!(f.message.contains("the Blue Miner on g7"), "{}", f.message);
}

#[test]
fn a_player_whose_only_move_is_forbidden_loses() {
    expect(
        "only-forbidden-moves-loses.arb",
        52,
        "none",
        "no-legal-move 0-1 52",
    );
    // With the rule off, a2-a1 is a legal move: the game is not over, and the recorded 0-1
    // no longer follows from the moves.
    let g = judge_with(
        "only-forbidden-moves-loses.arb",
        Overrides {
            two_squares: Some(arbiter::rules::TwoSquares::from_count(0)),
            ..Overrides::default()
        },
    );
    assert!(g.outcome.is_none());
    assert_eq!(codes(&g), vec![("result-mismatch".to_string(), None)]);
}

#[test]
fn veldslag_thresholds_at_the_exact_plies() {
    expect("veldslag-99-plies.arb", 99, "none", "none");
    expect(
        "veldslag-no-capture-50.arb",
        100,
        "no-capture-50@100",
        "none",
    );
    expect(
        "veldslag-no-capture-80.arb",
        160,
        "no-capture-50@100 no-capture-80@160",
        "none",
    );
}

#[test]
fn a_variation_is_judged_with_the_plies_it_shares_with_its_parent() {
    let g = expect(
        "two-squares-in-variation.arb",
        8,
        "two-squares-rule@7/line1",
        "none",
    );
    assert_eq!((g.lines, g.variation_plies), (2, 1));
    assert_eq!(g.findings[0].evidence, vec![1, 3, 5]);
    assert_eq!(
        g.branches[0].describe(1),
        "line 1 branches off the main line at ply 7 with h2-h1 in place of g1-g2"
    );
}
