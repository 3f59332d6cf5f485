//! `convert --from-ply` and `show --log` as users run them (docs/log-format.md, positions): the
//! log taken up after a ply for each kind of start, what it says it does not carry, and the
//! refusals.

use crate::bin::{self, session as arbiter};

#[test]
fn convert_from_ply_writes_the_start_each_game_needs() {
    let mut out = String::new();
    for (file, ply) in [
        // Stratego family: the position start, a two-squares run not carried.
        ("fixtures/history/two-squares-fourth-move.arb", "5"),
        // Veldslag: the no-capture count carried.
        ("fixtures/history/veldslag-no-capture-50.arb", "60"),
        // Spionage: a half-played turn, the no-return rule and unmaskings carried.
        ("fixtures/spionage/unmask.arb", "13"),
        // Jungle: a FEN; the earlier positions not carried.
        ("fixtures/jungle/repetition_allowed.arb", "4"),
        // Xiangqi: a FEN with its no-capture count and move number.
        ("fixtures/xiangqi/checkmate.arb", "1"),
    ] {
        out.push_str(&arbiter(&["convert", file, "--from-ply", ply]));
        out.push('\n');
    }
    insta::assert_snapshot!("convert_from_ply", out);
}

#[test]
fn convert_from_ply_refuses_what_it_cannot_start_from() {
    let mut out = String::new();
    // The Flag is captured on ply 6: no position without it; ply 60 is never played.
    for ply in ["6", "60"] {
        out.push_str(&arbiter(&[
            "convert",
            "fixtures/stratego/end-flag-captured.arb",
            "--from-ply",
            ply,
        ]));
        out.push('\n');
    }
    insta::assert_snapshot!("convert_from_ply_refused", out);
}

#[test]
fn show_log_prints_the_position_as_a_start_and_check_reads_it() {
    let shown = arbiter(&["show", "fixtures/show/veldslag.arb", "--ply", "8", "--log"]);
    insta::assert_snapshot!("show_log", shown);
    // What show --log prints is a log check reads: the same position, nothing wrong with it.
    let log = shown
        .split("--- stdout\n")
        .nth(1)
        .and_then(|s| s.split("--- stderr\n").next())
        .expect("stdout");
    let run = bin::arbiter(["check", "-", "--format", "json"])
        .stdin(log)
        .run();
    let json = run.stdout;
    assert!(json.contains("\"errors\": 0"), "{json}");
    assert_eq!(run.code, 0, "{json}");
}

/// A log taken up after ply 300 (`FromPly`) numbers the plies of its variations from ply 301
/// too, as its main line: the tree replay once numbered them from 1, which underflowed (a
/// panic in a debug build, found by the grammar fuzz target) and in a release build judged a
/// clean Xiangqi game "two moves in one turn" at ply 1.
#[test]
fn variations_of_a_log_taken_up_later_count_from_its_start() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("from-ply-variations");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let xiangqi = dir.join("xiangqi.arb");
    std::fs::write(
        &xiangqi,
        "[Game \"xiangqi\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n[FromPly \"300\"]\n[Result \"*\"]\n\n1. h2e2 (1. b2e2) h9g7 *\n",
    )
    .expect("write");
    let duel = dir.join("duel.arb");
    std::fs::write(
        &duel,
        "[Game \"duel\"]\n[Position \"red\"]\n[FromPly \"300\"]\n[Result \"*\"]\n\nsetup red\n  5 .9........\n  1 F.........\nsetup blue\n 10 .........F\n  7 .3........\n\n1. b5-b6 (1. b5-c5) b7-c7 *\n",
    )
    .expect("write");
    let run = bin::arbiter(["check", "--format", "json"])
        .arg(&xiangqi)
        .arg(&duel)
        .run();
    assert_eq!(run.code, 1, "{}", run.stdout);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        doc["games"][0]["findings"],
        serde_json::json!([]),
        "{}",
        run.stdout
    );
    let f = &doc["games"][1]["findings"][0];
    assert_eq!(f["code"], "illegal-move");
    assert_eq!(f["ply"], 301);
    assert_eq!(f["branch"]["ply"], 301);
    assert_eq!(f["message"], "c5 is a lake");
}

/// A claim on a log taken up after a ply (`FromPly`) is not answered (exit 2, the reason on
/// stderr): its findings count plies from the game's start and the claim's position from the
/// log's, and an answer once mixed the two (ply 25 "does not hold: ply 325, later, broke it"
/// about the very move `check` reports at ply 325).
#[test]
fn a_claim_on_a_log_taken_up_later_is_not_answered() {
    let f = "fixtures/stratego/position-chase-round-a-lake.arb";
    let check = bin::arbiter(["check", "--game-index", "2", "--format", "json", f]).run();
    assert!(check.stdout.contains("\"ply\": 325"), "{}", check.stdout);
    for ply in ["25", "325"] {
        let run = bin::arbiter(["claim", f, "chase", "--ply", ply, "--game-index", "2"]).run();
        assert_eq!(run.code, 2, "--ply {ply}: {}", run.stdout);
        assert!(
            run.stderr
                .contains("the log takes the game up after ply 300 (its FromPly tag)"),
            "--ply {ply}: {}",
            run.stderr
        );
    }
}
