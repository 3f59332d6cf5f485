//! The `arbiter` binary as a user or a CI script meets it: exit codes (rulings §5: 2 unusable
//! input, else 1 errors found, else 0), the JSON document's keys (issue 2), the summary line on
//! stderr, `--game`, stdin, directories, and `convert` of a real Gravon record.

use crate::bin::{self, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A scratch file under Cargo's per-test temporary directory.
pub(crate) fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file written");
    path
}

fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

const CLEAN: &str = "fixtures/stratego/clean-stratego.arb";
const ILLEGAL: &str = "fixtures/stratego/illegal-scout-over-lake.arb";

/// A classic game without a Game tag: legal and unfinished with the base setups.
const NO_GAME_TAG: &str = "[Result \"*\"]\n\nsetup blue\n 10 2BFB736452\n  9 3752B43586\n  \
    8 232B92B324\n  7 5B46XS7682\n\nsetup red\n  4 23B4SXB592\n  3 672B583762\n  \
    2 4256B32847\n  1 2BFB364532\n\n1. a4-a5 a7-a6 *\n";

#[test]
fn a_clean_file_exits_0_and_prints_its_verdict_and_the_summary() {
    let run = bin::run(&["check", CLEAN]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "game 1 of fixtures/stratego/clean-stratego.arb: stratego, Alice (Red) vs Bob (Blue)\n  \
         verdict: Red wins: Blue's Flag is captured (flag-captured) on ply 33 (17. c9xc10(X:F))\n  \
         result: 1-0 recorded: agrees with the moves\n  \
         findings: none\n"
    );
    assert_eq!(
        run.stderr,
        "arbiter: 1 file, 1 game, 33 plies: 0 errors, 0 warnings, 0 infos\n"
    );
    let quiet = bin::run(&["check", "--quiet", CLEAN]);
    assert_eq!((quiet.code, quiet.stdout.as_str()), (0, ""));
    assert_eq!(quiet.stderr, run.stderr);
}

#[test]
fn an_error_finding_exits_1_with_a_report_on_stdout_and_the_summary_on_stderr() {
    let run = bin::run(&["check", "--color", "never", ILLEGAL]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "arbiter: 1 file, 1 game, 2 plies: 1 error, 0 warnings, 0 infos\n"
    );
    assert!(
        !run.stdout.contains("arbiter:"),
        "the summary stays off stdout"
    );
    insta::assert_snapshot!("check_illegal_human", run.stdout);
}

#[test]
fn information_alone_exits_0() {
    let run = bin::run(&["check", "fixtures/stratego/no-result.arb"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("no-result"));
    assert!(
        run.stderr.ends_with("0 errors, 0 warnings, 1 info\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_parse_error_exits_2_and_the_other_files_are_still_checked() {
    let broken = scratch(
        "broken.arb",
        "[Game \"stratego\"]\n1. a4-a5 {never closed\n",
    );
    let broken = broken.to_str().expect("a UTF-8 path");
    let run = bin::run(&["check", "--format", "json", broken, CLEAN]);
    assert_eq!(run.code, 2);
    let doc = json(&run);
    let games = doc["games"].as_array().expect("games");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["plies"], 0);
    assert_eq!(games[0]["findings"][0]["code"], "parse-error");
    assert_eq!(games[0]["findings"][0]["line"], 2);
    assert_eq!(games[0]["findings"][0]["column"], 10, "at the `{{`");
    assert_eq!(games[1]["source"], CLEAN);
    assert_eq!(games[1]["plies"], 33);
    assert_eq!(games[1]["outcome"]["reason"], "flag-captured");
}

#[test]
fn an_unknown_game_exits_2_with_unsupported_game() {
    let path = scratch(
        "chess.arb",
        "[Game \"chess\"]\n[Result \"*\"]\n\n1. e2-e4 *\n",
    );
    let run = bin::run(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    let doc = json(&run);
    assert_eq!(doc["games"][0]["findings"][0]["code"], "unsupported-game");
    assert_eq!(
        doc["games"][0]["findings"][0]["message"],
        "unknown game `chess`"
    );
    assert_eq!(doc["games"][0]["game"], Value::Null);
}

#[test]
fn an_unreadable_path_exits_2_and_is_reported() {
    let run = bin::run(&["check", "fixtures/stratego/there-is-no-such-file.arb"]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("parse-error"), "{}", run.stdout);
    assert!(run.stdout.contains("cannot read"), "{}", run.stdout);
    assert!(
        run.stderr.contains("1 file, 1 game, 0 plies: 1 error"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_empty_file_exits_2() {
    let path = scratch("empty.arb", "");
    let run = bin::run(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    let doc = json(&run);
    assert_eq!(doc["games"][0]["findings"][0]["code"], "parse-error");
    assert_eq!(
        doc["games"][0]["findings"][0]["message"],
        "no game in this file"
    );
}

#[test]
fn stdin_is_read_for_a_dash() {
    let clean = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(CLEAN)).unwrap();
    let run = bin::arbiter(["check", "--format", "json", "-"])
        .stdin(clean)
        .run();
    assert_eq!(run.code, 0, "{}", run.stdout);
    let doc = json(&run);
    assert_eq!(doc["games"][0]["source"], "<stdin>");
    assert_eq!(doc["games"][0]["plies"], 33);
    let illegal = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(ILLEGAL)).unwrap();
    let run = bin::arbiter(["check", "-"]).stdin(illegal).run();
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("<stdin>"), "{}", run.stdout);
}

#[test]
fn game_flag_judges_a_log_without_a_game_tag() {
    let path = scratch("no-game-tag.arb", NO_GAME_TAG);
    let path = path.to_str().unwrap();
    let run = bin::run(&["check", "--format", "json", path]);
    assert_eq!(run.code, 2, "without --game the ruleset is unknown");
    let doc = json(&run);
    assert_eq!(doc["games"][0]["findings"][0]["code"], "parse-error");
    let f = &doc["games"][0]["findings"][0];
    assert_eq!(
        f["message"],
        "the game names no ruleset, nor do the later games of this file that have no Game tag"
    );
    // 40 pieces a side in rows of 10: the help says which --game to pass.
    assert!(
        f["help"]
            .as_str()
            .unwrap()
            .contains("run with --game stratego;"),
        "{f}"
    );
    let run = bin::run(&["check", "--format", "json", "--game", "stratego", path]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let doc = json(&run);
    assert_eq!(doc["games"][0]["game"], "stratego");
    assert_eq!(doc["games"][0]["plies"], 2);
    assert_eq!(doc["games"][0]["findings"], serde_json::json!([]));
    let run = bin::run(&["check", "--game", "checkers", path]);
    assert_eq!(run.code, 2, "an unknown --game is a usage error");
}

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .unwrap_or_else(|| panic!("an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect();
    k.sort();
    k
}

fn sorted<'a>(list: &[&'a str]) -> Vec<&'a str> {
    let mut v = list.to_vec();
    v.sort();
    v
}

#[test]
fn json_has_the_documented_keys() {
    let run = bin::run(&[
        "check",
        "--format",
        "json",
        "fixtures/stratego/multi-game.arb",
        "fixtures/stratego/result-contradicts-board.arb",
    ]);
    assert_eq!(run.code, 1);
    let doc = json(&run);
    assert_eq!(keys(&doc), sorted(&["arbiter", "games", "summary"]));
    assert_eq!(keys(&doc["arbiter"]), ["version"]);
    assert!(doc["arbiter"]["version"].is_string());
    let games = doc["games"].as_array().expect("games");
    assert_eq!(games.len(), 5);
    let game_keys = sorted(&[
        "source",
        "index",
        "game",
        "parameters",
        "plies",
        "lines",
        "variation_plies",
        "result",
        "termination",
        "outcome",
        "findings",
    ]);
    // The keys, plus `label` (the text under the span, as the human report draws it),
    // `labels` (the secondary places of a finding), and the line of play with where it
    // branches off (null on the main line).
    let finding_keys = sorted(&[
        "code",
        "severity",
        "ply",
        "line_of_play",
        "branch",
        "message",
        "rule",
        "help",
        "label",
        "line",
        "column",
        "offset",
        "length",
        "labels",
    ]);
    let mut findings = 0;
    for g in games {
        assert_eq!(keys(g), game_keys);
        assert!(g["source"].is_string() && g["index"].is_u64() && g["plies"].is_u64());
        assert!(g["game"].is_string() || g["game"].is_null());
        assert!(g["parameters"].is_object());
        assert!(g["result"].is_string() || g["result"].is_null());
        assert!(g["termination"].is_string() || g["termination"].is_null());
        if !g["outcome"].is_null() {
            assert_eq!(keys(&g["outcome"]), sorted(&["result", "reason", "ply"]));
        }
        for f in g["findings"].as_array().expect("findings") {
            assert_eq!(keys(f), finding_keys);
            assert!(["error", "warning", "info"].contains(&f["severity"].as_str().unwrap()));
            assert!(f["ply"].is_u64() || f["ply"].is_null());
            assert!(f["help"].is_string() || f["help"].is_null());
            for k in ["line", "column", "offset", "length"] {
                assert!(f[k].is_u64(), "{k}: {f}");
            }
            assert!(f["line"].as_u64() >= Some(1) && f["column"].as_u64() >= Some(1));
            assert_eq!(
                (f["line_of_play"].as_u64(), f["branch"].is_null()),
                (Some(0), true)
            );
            findings += 1;
        }
    }
    assert_eq!(findings, 3, "illegal-move, setup-invalid, result-mismatch");
    assert_eq!(
        keys(&doc["summary"]),
        sorted(&["files", "games", "lines", "plies", "errors", "warnings", "infos"])
    );
    let indexes: Vec<u64> = games.iter().map(|g| g["index"].as_u64().unwrap()).collect();
    assert_eq!(
        indexes,
        [0, 1, 2, 3, 0],
        "index counts games within a file from 0"
    );
    let s = &doc["summary"];
    assert_eq!(
        (s["files"].as_u64(), s["games"].as_u64()),
        (Some(2), Some(5))
    );
    assert_eq!(s["plies"].as_u64(), Some(7 + 4 + 14 + 6));
    assert_eq!(s["errors"].as_u64(), Some(3));
}

#[test]
fn json_columns_count_characters_and_offsets_count_bytes() {
    // `ë` (2 bytes) and `§` (2 bytes) stand before the illegal move on its line.
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(ILLEGAL))
        .unwrap()
        .replace(
            "1. a4-a5 j7-j6 2. a5-e5",
            "1. a4-a5 {Zoë § plan} j7-j6 2. a5-e5",
        );
    let path = scratch("columns.arb", &text);
    let run = bin::run(&["check", "--format", "json", path.to_str().unwrap()]);
    let f = &json(&run)["games"][0]["findings"][0];
    assert_eq!(f["code"], "illegal-move");
    let offset = text.rfind("a5-e5").unwrap();
    let line_start = text[..offset].rfind('\n').unwrap() + 1;
    assert_eq!(f["offset"].as_u64(), Some(offset as u64));
    assert_eq!(f["length"].as_u64(), Some(5));
    assert_eq!(
        f["column"].as_u64(),
        Some(text[line_start..offset].chars().count() as u64 + 1)
    );
    assert_eq!(
        f["line"].as_u64(),
        Some(text[..offset].matches('\n').count() as u64 + 1)
    );
    assert_ne!(
        text[line_start..offset].len(),
        text[line_start..offset].chars().count(),
        "the line holds multi-byte characters"
    );
}

#[test]
fn a_directory_is_walked_in_name_order() {
    let run = bin::run(&["check", "--format", "json", "fixtures/stratego"]);
    assert_eq!(run.code, 2, "two fixtures carry parse-errors on purpose");
    let doc = json(&run);
    let mut files: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stratego"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
    files.sort();
    let mut seen: Vec<String> = doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["source"].as_str().unwrap().to_string())
        .collect();
    seen.dedup();
    let want: Vec<String> = files
        .iter()
        .map(|f| format!("fixtures/stratego/{f}"))
        .collect();
    assert_eq!(seen, want);
    assert_eq!(doc["summary"]["files"].as_u64(), Some(files.len() as u64));
}

/// The real Gravon record of issue 2, or `None` (with a message) when the shared corpus is not
/// next to the crate.
fn gravon_568() -> Option<String> {
    let rel = "../shared/corpus/stratego-gravon/classic-2005.4-568.xml";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if path.is_file() {
        Some(rel.to_string())
    } else {
        println!("SKIPPED: {rel} is absent");
        None
    }
}

#[test]
fn convert_prints_the_gravon_game_as_a_native_log_that_checks_the_same() {
    let Some(xml) = gravon_568() else { return };
    let run = bin::run(&["convert", &xml]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    insta::assert_snapshot!("convert_classic_2005_4_568", run.stdout);

    let direct = json(&bin::run(&["check", "--format", "json", &xml]));
    let path = scratch("classic-2005.4-568.arb", &run.stdout);
    let checked = bin::run(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(checked.code, 0, "{}", checked.stdout);
    let converted = json(&checked);
    for doc in [&direct, &converted] {
        let g = &doc["games"][0];
        assert_eq!(g["game"], "stratego");
        assert_eq!(g["plies"], 271);
        assert_eq!(g["result"], "1-0");
        assert_eq!(
            g["outcome"],
            serde_json::json!({"result": "1-0", "reason": "flag-captured", "ply": 271})
        );
        assert_eq!(g["parameters"]["TwoSquares"], 5);
        assert!(
            g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["severity"] != "error"),
            "{g}"
        );
    }
    // The converted log through stdin gives the same judgement.
    let piped = bin::arbiter(["check", "--format", "json", "-"])
        .stdin(run.stdout.as_bytes())
        .run();
    assert_eq!(piped.code, 0);
    assert_eq!(
        json(&piped)["games"][0]["outcome"],
        converted["games"][0]["outcome"]
    );
}
