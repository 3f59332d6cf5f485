//! `--game-index N` on `check` and `convert` (issue 30): game N of a file, cut out without
//! parsing or judging the games before it, reported exactly as the whole run reports it; an
//! index past the last game is unusable input (exit 2) that says how many games the file has.

use crate::bin;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Four Jungle games: one clean, two with an illegal move, one that ends on the board.
const FOUR: &str = "fixtures/jungle/trap_weak_takes_strong.arb";

/// The game objects of `check --format json ARGS`.
fn games(args: &[&str]) -> (i32, Vec<Value>) {
    let (code, stdout, _) = bin::run(&[&["check", "--format", "json"], args].concat()).parts();
    let doc: Value = serde_json::from_str(&stdout).expect("one JSON document");
    (
        code,
        doc["games"].as_array().expect("a games array").clone(),
    )
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("game-index");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file written");
    path
}

#[test]
fn check_game_index_reports_that_game_as_the_whole_run_does() {
    let (_, all) = games(&[FOUR]);
    assert_eq!(all.len(), 4);
    for (n, want) in all.iter().enumerate() {
        let index = n.to_string();
        let (code, one) = games(&["--game-index", &index, FOUR]);
        assert_eq!(one, vec![want.clone()], "game index {n}");
        // Games 1 and 2 (from 0) hold an illegal move: exit 1; the others are clean.
        assert_eq!(code, if n == 1 || n == 2 { 1 } else { 0 }, "game index {n}");
    }
}

#[test]
fn convert_game_index_prints_that_game_as_the_whole_run_does() {
    let (code, all, _) = bin::run(&["convert", FOUR]).parts();
    assert_eq!(code, 0);
    // Games are separated by a blank line; game 0 keeps the comments above it.
    let pieces: Vec<&str> = all.split("\n\n[Game").collect();
    assert_eq!(pieces.len(), 4, "{all}");
    for n in 0..4 {
        let (code, one, _) = bin::run(&["convert", "--game-index", &n.to_string(), FOUR]).parts();
        assert_eq!(code, 0);
        let want = if n == 0 {
            format!("{}\n", pieces[0])
        } else {
            format!("[Game{}", pieces[n])
        };
        assert_eq!(one.trim_end(), want.trim_end(), "game index {n}");
    }
}

#[test]
fn the_games_before_the_index_are_not_read() {
    // Game 0 cannot be parsed, game 1 is clean: only game 1 is read and judged.
    let path = scratch(
        "broken-first.arb",
        "[Game \"jungle\"]\n\n1. a1-a2 ((( *\n\n[Game \"jungle\"]\n[Result \"*\"]\n\n1. a3-a4 *\n",
    );
    let path = path.to_str().expect("a UTF-8 path");
    let (code, all) = games(&[path]);
    assert_eq!((code, all.len()), (2, 2));
    let (code, one) = games(&["--game-index", "1", path]);
    assert_eq!(code, 0);
    assert_eq!(one, vec![all[1].clone()]);
    let (code, text, _) = bin::run(&["convert", "--game-index", "1", path]).parts();
    assert_eq!(
        (code, text.as_str()),
        (0, "[Game \"jungle\"]\n[Result \"*\"]\n\n1. a3-a4 *\n")
    );
}

#[test]
fn an_index_past_the_last_game_is_unusable() {
    let (code, one) = games(&["--game-index", "4", FOUR]);
    assert_eq!(code, 2);
    assert_eq!(one.len(), 1);
    assert_eq!(one[0]["index"], 4);
    let f = &one[0]["findings"][0];
    assert_eq!(f["code"], "parse-error");
    assert_eq!(
        f["message"],
        format!("{FOUR} has 4 games; there is no game index 4")
    );
    // Every file is looked at: the one that has the game is still judged.
    let (_, all) = games(&[FOUR]);
    let (code, two) = games(&["--game-index", "1", FOUR, "fixtures/show/jungle.arb"]);
    assert_eq!(code, 2);
    assert_eq!(two.len(), 2);
    assert_eq!(two[0], all[1]);
    assert_eq!(two[1]["findings"][0]["code"], "parse-error");
    // An input that cannot be read, or holds no game, is reported as without the index.
    let empty = scratch("empty.arb", "\n");
    let empty = empty.to_str().expect("a UTF-8 path");
    for path in ["fixtures/no-such-file.arb", empty] {
        let (code, one) = games(&["--game-index", "2", path]);
        assert_eq!(code, 2, "{path}");
        assert_eq!(one.len(), 1, "{path}");
        assert_eq!(one[0]["findings"][0]["code"], "parse-error", "{path}");
    }
    let (code, out, err) = bin::run(&["convert", "--game-index", "9", FOUR]).parts();
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!("arbiter: {FOUR} has 4 games; there is no game index 9\n")
    );
}

#[test]
fn gravon_games_are_found_by_index_too() {
    // One Gravon file holding the fixture's game twice, the second with a move cut off, and
    // `show` of each: the index picks the game.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gravon/classic-clean.xml"),
    )
    .expect("the fixture");
    let start = text.find(" <game").expect("a game element");
    let end = text.find("</game>").expect("its end") + "</game>".len();
    let game = &text[start..end];
    let last_move = game.rfind("  <move").expect("a move");
    let shorter = format!("{}{}", &game[..last_move], " </game>");
    let two = format!("<stratego>\n{game}\n{shorter}\n</stratego>\n");
    let path = scratch("two-games.xml", &two);
    let path = path.to_str().expect("a UTF-8 path");
    let (_, all) = games(&[path]);
    assert_eq!(all.len(), 2);
    assert_ne!(all[0]["plies"], all[1]["plies"]);
    for (n, want) in all.iter().enumerate() {
        let (_, one) = games(&["--game-index", &n.to_string(), path]);
        assert_eq!(one, vec![want.clone()], "game index {n}");
    }
}

/// Every format's games are found by index: DhtmlXQ blocks (one game each) and an
/// importer's file (one game), which `check --game-index` once answered with game 0 whatever
/// the index (exit 0 for an index past the end), and `show` with "has 1 game".
#[test]
fn dhtmlxq_blocks_and_imported_files_are_found_by_index_too() {
    let block = |title: &str, moves: &str| {
        format!("[DhtmlXQ][DhtmlXQ_title]{title}[/DhtmlXQ_title][DhtmlXQ_movelist]{moves}[/DhtmlXQ_movelist][/DhtmlXQ]\n")
    };
    let three = [
        ("one", "7747"),
        ("two", "77477062"),
        ("three", "774770627967"),
    ]
    .map(|(t, m)| block(t, m))
    .concat();
    let path = scratch("three-blocks.txt", &three);
    let path = path.to_str().expect("a UTF-8 path");
    let (_, all) = games(&[path]);
    assert_eq!(all.len(), 3);
    for (n, want) in all.iter().enumerate() {
        let (code, one) = games(&["--game-index", &n.to_string(), path]);
        assert_eq!(one, vec![want.clone()], "game index {n}");
        assert_eq!(one[0]["plies"], n + 1);
        assert_eq!(code, 0);
        let show = bin::run(&["show", "--game-index", &n.to_string(), "--ply", "1", path]);
        assert_eq!(show.code, 0, "{}", show.stderr);
    }
    let (code, _) = games(&["--game-index", "3", path]);
    assert_eq!(code, 2, "no game index 3");
    let show = bin::run(&["show", "--game-index", "3", "--ply", "1", path]);
    assert!(
        show.stderr
            .contains("has 3 games; there is no game index 3"),
        "{}",
        show.stderr
    );
    // A UCC2012 log: one game, with an illegal move (exit 1 at index 0).
    let imported = "fixtures/fuzz/ucc2012-step-past-any-square.txt";
    let (_, all) = games(&[imported]);
    let (code, one) = games(&["--game-index", "0", imported]);
    assert_eq!((code, one), (1, all));
    let (code, one) = games(&["--game-index", "1", imported]);
    assert_eq!(code, 2, "an imported file holds one game");
    assert_eq!(
        one[0]["findings"][0]["message"],
        format!("{imported} has 1 game; there is no game index 1")
    );
}

/// A game that names no ruleset, known as Xiangqi by another game of its file (`h0g2` writes
/// rank 0), is written with a `Game` tag: alone, its own text shows no ruleset.
#[test]
fn convert_game_index_names_the_ruleset_the_file_showed() {
    let path = scratch("unnamed.pgn", "1. h2e2 *\n\n[Result \"*\"]\n1. h0g2 *\n");
    let path = path.to_str().expect("a UTF-8 path");
    let (code, text, _) = bin::run(&["convert", "--game-index", "0", path]).parts();
    assert_eq!(
        (code, text.as_str()),
        (0, "[Game \"xiangqi\"]\n\n1. h2e2 *\n")
    );
    let alone = scratch("alone.arb", &text);
    let (code, games) = games(&[alone.to_str().expect("a UTF-8 path")]);
    assert_eq!((code, games[0]["game"].as_str()), (0, Some("xiangqi")));
}
