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
