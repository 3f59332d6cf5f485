//! The verdict first (issue 24): `arbiter check` prints, for every game in input order and
//! before its findings, the players, how the moves end the game (winner, reason, ply and the
//! move as written) or that they leave it unfinished, whether the recorded result agrees, and
//! the findings by severity. One fixture per ruleset and per ending kind; each verdict below
//! is the one its fixture's header works out by hand.

use crate::bin;
use crate::cli::scratch;

/// Every ruleset and every ending kind: flag, no legal move, neither can move, den,
/// Headquarters, all pieces captured, checkmate, stalemate, repetition, perpetual check and
/// chase, move limit, unfinished, a recorded result that disagrees, a replay that stops, a
/// game that cannot start and one that is not judged.
const FIXTURES: &[&str] = &[
    "fixtures/stratego/clean-stratego.arb",
    "fixtures/stratego/clean-barrage.arb",
    "fixtures/stratego/clean-duel.arb",
    "fixtures/stratego/clean-veldslag.arb",
    "fixtures/gravon/classic-clean.xml",
    "fixtures/stratego/end-no-movable-pieces.arb",
    "fixtures/stratego/end-boxed-in-at-start.arb",
    "fixtures/stratego/end-neither-can-move.arb",
    "fixtures/history/only-forbidden-moves-loses.arb",
    "fixtures/history/two-squares-fourth-move.arb",
    "fixtures/stratego/termination-resignation.arb",
    "fixtures/stratego/termination-unknown-word.arb",
    "fixtures/stratego/result-contradicts-board.arb",
    "fixtures/stratego/result-unknown-on-finished-game.arb",
    "fixtures/stratego/no-result.arb",
    "fixtures/stratego/illegal-diagonal.arb",
    "fixtures/stratego/setup-missing.arb",
    "fixtures/spionage/hq-capture.arb",
    "fixtures/spionage/all-pieces-captured.arb",
    "fixtures/spionage/one-piece.arb",
    "fixtures/spionage/snel-hq-capture.arb",
    "fixtures/jungle/den_entered.arb",
    "fixtures/jungle/no_legal_move.arb",
    "fixtures/jungle/threefold_claim.arb",
    "fixtures/xiangqi/checkmate.arb",
    "fixtures/xiangqi/checkmate-wrong-result.arb",
    "fixtures/xiangqi/stalemate.arb",
    "fixtures/xiangqi/repetition-neither.arb",
    "fixtures/xiangqi/repetition-perpetual-check.arb",
    "fixtures/xiangqi/repetition-check-idle-vs-chase.arb",
    "fixtures/xiangqi/move-limit.arb",
    "fixtures/xiangqi/no-game-tag.pgn",
    "fixtures/jieqi/move-limit.arb",
    "fixtures/jieqi/move-limit-mate.arb",
    "fixtures/jieqi/repetition.arb",
    "fixtures/jieqi/perpetual-check-revealed.arb",
    "fixtures/jieqi/perpetual-chase-revealed.arb",
];

/// The verdict blocks of a human report: each `game N of ...` line and the indented lines
/// under it.
fn verdicts(stdout: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in stdout.lines() {
        if line.starts_with("game ") && line.contains(" of ") {
            inside = true;
        } else if !line.starts_with("  verdict:")
            && !line.starts_with("  result:")
            && !line.starts_with("  findings:")
        {
            inside = false;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn every_ruleset_and_every_ending_has_its_verdict() {
    let mut all = String::new();
    for f in FIXTURES {
        let run = bin::run(&["check", "--color", "never", f]);
        let v = verdicts(&run.stdout);
        assert!(!v.is_empty(), "{f}: no verdict in {}", run.stdout);
        all.push_str(&v);
    }
    insta::assert_snapshot!("verdicts", all);
}

#[test]
fn each_verdict_comes_before_its_findings_in_input_order() {
    let run = bin::run(&[
        "check",
        "--color",
        "never",
        "fixtures/stratego/multi-game.arb",
    ]);
    let at = |s: &str| {
        run.stdout
            .find(s)
            .unwrap_or_else(|| panic!("`{s}` not in {}", run.stdout))
    };
    let heads: Vec<usize> = (1..=4)
        .map(|n| at(&format!("game {n} of fixtures/stratego/multi-game.arb")))
        .collect();
    assert!(heads.windows(2).all(|w| w[0] < w[1]), "{heads:?}");
    // Game 2's illegal move and game 3's setup come after their own verdicts.
    let (illegal, setup) = (at("ply 5: the Scout"), at("Red's setup has the wrong"));
    assert!(heads[1] < illegal && illegal < heads[2]);
    assert!(heads[2] < setup && setup < heads[3]);
    assert!(run.stdout.starts_with("game 1 of"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("arbiter:"),
        "the summary stays on stderr"
    );
}

#[test]
fn an_ignored_mismatch_still_decides_the_verdict_but_is_not_counted() {
    let f = "fixtures/stratego/result-contradicts-board.arb";
    let run = bin::run(&[
        "check",
        "--color",
        "never",
        "--ignore",
        "result-mismatch",
        f,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        verdicts(&run.stdout),
        "game 1 of fixtures/stratego/result-contradicts-board.arb: stratego\n  \
         verdict: Blue wins: Red's Flag is captured (flag-captured) on ply 6 (3... a5xa4(5:F))\n  \
         result: 1-0 recorded: disagrees (the record says 1-0 but the moves end the game 0-1 \
         (flag-captured, ply 6))\n  \
         findings: none\n"
    );
    let quiet = bin::run(&["check", "-q", f]);
    assert_eq!(quiet.stdout, "", "--quiet keeps only the summary");
}

#[test]
fn names_and_moves_from_the_log_are_escaped() {
    let log = "[Game \"xiangqi\"]\n[Red \"Eve\u{1b}[2J\"]\n[Black \"Bob\u{202e}\"]\n\
               [FEN \"3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n[Result \"*\"]\n\n1. a8a9 *\n";
    let path = scratch("verdict-escape.arb", log);
    let run = bin::run(&["check", "--color", "never", path.to_str().unwrap()]);
    let v = verdicts(&run.stdout);
    assert!(
        v.contains("Eve\u{241b}[2J (Red) vs Bob\u{21c6} (Black)"),
        "{v}"
    );
    assert!(!run.stdout.contains('\u{1b}') && !run.stdout.contains('\u{202e}'));
}

/// A line feed in a tag value (`\n`, an escape the tag reads) or in a file name stays on the
/// headline's line: a tag once wrote a whole forged verdict block, and a second "game", in
/// front of the real one.
#[test]
fn a_line_feed_in_a_name_cannot_forge_a_verdict() {
    let log = "[Game \"xiangqi\"]\n[Red \"Alice\"]\n\
               [Black \"Bob\\n  verdict: checkmate on ply 3, Red wins\\n\\ngame 2 of x: xiangqi\"]\n\
               [Result \"1-0\"]\n\n1. h2e2 h9g7 2. zz *\n";
    let path = scratch("verdict\nforged.arb", log);
    let run = bin::run(&["check", "--color", "never", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    let heads: Vec<_> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("game ") || l.starts_with("  verdict:"))
        .collect();
    assert_eq!(heads.len(), 2, "one headline, one verdict: {heads:?}");
    assert!(
        heads[0].ends_with(
            "forged.arb: xiangqi, Alice (Red) vs Bob\u{240a}  verdict: checkmate on ply 3, \
             Red wins\u{240a}\u{240a}game 2 of x: xiangqi (Black)"
        ),
        "{}",
        heads[0]
    );
    assert!(heads[0].starts_with("game 1 of ") && heads[0].contains("verdict\u{240a}forged"));
    assert!(
        heads[1].starts_with("  verdict: judged up to ply 2 only"),
        "{}",
        heads[1]
    );
}

#[test]
fn show_names_the_ending_in_the_verdict_words() {
    for (f, ply, words) in [
        (
            "fixtures/stratego/clean-stratego.arb",
            "33",
            "Red wins: Blue's Flag is captured",
        ),
        (
            "fixtures/xiangqi/repetition-perpetual-check.arb",
            "8",
            "Black wins: Red checks perpetually",
        ),
        (
            "fixtures/stratego/end-neither-can-move.arb",
            "14",
            "draw: neither side can move",
        ),
    ] {
        let check = bin::run(&["check", "--color", "never", f]);
        assert!(
            check.stdout.to_lowercase().contains(&words.to_lowercase()),
            "{}",
            check.stdout
        );
        let show = bin::run(&["show", "--color", "never", f, "--ply", ply]);
        let caption = show.stdout.lines().next().unwrap_or_default();
        assert!(
            caption.contains(&format!("game over: {words} (")),
            "{f}: {caption}"
        );
    }
}
