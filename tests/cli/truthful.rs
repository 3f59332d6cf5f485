//! Diagnostics that say true things (issues 20 and 21), each with a hostile input of its own:
//! tags that do not apply, a setup row with a stray space, annotations after a space, result
//! tokens in the middle of the movetext, Gravon elements arbiter does not read, the side to
//! move of a Jungle FEN, a Blue-first game converted, directories with nothing to read or
//! given to a one-game command, and file names that are not UTF-8. (Counts too large for any
//! counter and the covered Jieqi piece that leaves its General attacked are fixtures:
//! `fixtures/jieqi/fen-pool-count-huge.arb`, `fixtures/xiangqi/move-limit-largest.arb`,
//! `fixtures/jieqi/covered-pinned.arb`.)

use crate::bin::{self, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d =
            std::env::temp_dir().join(format!("arbiter-truthful-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        Dir(d)
    }
    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> &Path {
        std::fs::write(self.0.join(name), bytes).expect("write");
        &self.0
    }
    fn run(&self, args: &[&str]) -> Run {
        bin::arbiter(args).current_dir(&self.0).run()
    }
    /// `check --format json`: the exit code and the games.
    fn json(&self, file: &str) -> (i32, Vec<Value>) {
        let out = self.run(&["check", "--format", "json", file]);
        let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
        (out.code, doc["games"].as_array().expect("games").clone())
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Each finding of a game as `code@ply line:column message`.
fn findings(game: &Value) -> Vec<String> {
    game["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            format!(
                "{}@{} {}:{} {}",
                f["code"].as_str().unwrap_or_default(),
                f["ply"],
                f["line"],
                f["column"],
                f["message"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

const BARRAGE_SETUP: &str = "setup blue\n 10 FBS2239X..\n  9 ..........\n  8 ..........\n  7 ..........\nsetup red\n  4 ..........\n  3 ..........\n  2 ..........\n  1 FBS2239X..\n";

#[test]
fn a_tag_that_does_not_apply_is_named_and_kept() {
    let d = Dir::new("tags");
    let log = format!(
        "[Game \"barrage\"]\n[FirstMove \"blue\"]\n[Repetition \"claim\"]\n[NoCaptureLimit \"50\"]\n[Result \"*\"]\n\n{BARRAGE_SETUP}\n1. h1-h2 h10-h9 *\n"
    );
    d.write("tags.arb", &log);
    let (code, games) = d.json("tags.arb");
    assert_eq!(code, 0);
    assert_eq!(
        findings(&games[0]),
        vec![
            "record-defect@null 2:2 the FirstMove tag does not apply to barrage: it is ignored",
            "record-defect@null 3:2 the Repetition tag does not apply to barrage: it is ignored",
            "record-defect@null 4:2 the NoCaptureLimit tag does not apply to barrage: it is ignored",
        ]
    );
    assert_eq!(games[0]["plies"], 2);
    let converted = d.run(&["convert", "tags.arb"]).stdout;
    for tag in [
        "[FirstMove \"blue\"]",
        "[Repetition \"claim\"]",
        "[NoCaptureLimit \"50\"]",
    ] {
        assert!(converted.contains(tag), "{tag} kept:\n{converted}");
    }
}

#[test]
fn a_setup_row_with_a_stray_space_is_reported_at_that_row() {
    let d = Dir::new("row");
    let log = format!("[Game \"barrage\"]\n[Result \"*\"]\n\n{BARRAGE_SETUP}\n1. h1-h2 h10-h9 *\n")
        .replace(" 10 FBS2239X..", " 10 22 SBBBBBBF");
    d.write("row.arb", &log);
    let (code, games) = d.json("row.arb");
    assert_eq!(code, 2);
    assert_eq!(
        findings(&games[0]),
        vec!["parse-error@null 5:8 the row of rank 10 has a space among its squares"]
    );
    let human = d.run(&["check", "--color", "never", "row.arb"]).stdout;
    assert!(
        human.contains("one character per square with no space"),
        "{human}"
    );
    // convert refuses it, saying where, rather than writing the setup as moves
    let out = d.run(&["convert", "--", "row.arb"]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    assert!(out.stderr.contains("row.arb:5:8"));
}

#[test]
fn an_annotation_after_a_space_is_read_with_a_warning() {
    let d = Dir::new("annotation");
    d.write(
        "jieqi.arb",
        "[Game \"jieqi\"]\n[Result \"*\"]\n\n1. a0a2 (R) a9a7 (r) *\n",
    );
    let (code, games) = d.json("jieqi.arb");
    assert_eq!(code, 0);
    assert_eq!(games[0]["plies"], 2);
    assert_eq!(
        findings(&games[0]),
        vec![
            "record-defect@null 4:8 a space between a move and its annotation",
            "record-defect@null 4:17 a space between a move and its annotation",
        ]
    );
    let spionage = "[Game \"spionage\"]\n[Volcanoes \"d5 e6 f4 g7\"]\n[Result \"*\"]\n\nsetup black\n 10 11223BBBBH\n  9 5SSSS1MMMM\n  8 12345S1234\nsetup white\n  3 12345S1234\n  2 5SSSS1MMMM\n  1 11223BBBBH\n\n1. a3-a4,b3-b4 a8-a7,b8-b7 2. a4-a5,b4-b5 a7-a6,b7-b6 3. a5xa6 (1:1) *\n";
    d.write("spionage.arb", spionage);
    let (code, games) = d.json("spionage.arb");
    assert_eq!(code, 0);
    assert_eq!(games[0]["plies"], 9);
    assert_eq!(
        findings(&games[0]),
        vec!["record-defect@null 14:63 a space between a move and its annotation"]
    );
}

#[test]
fn the_first_result_token_ends_the_movetext() {
    let d = Dir::new("result");
    d.write(
        "result.arb",
        format!(
            "[Game \"barrage\"]\n[Result \"*\"]\n\n{BARRAGE_SETUP}\n1. h1-h2 1-0 h10-h9 0-1 *\n"
        ),
    );
    let (code, games) = d.json("result.arb");
    assert_eq!(code, 2);
    assert_eq!(
        findings(&games[0]),
        vec!["parse-error@null 15:14 movetext after the result token"]
    );
}

#[test]
fn gravon_elements_arbiter_does_not_read_are_named() {
    let d = Dir::new("gravon");
    let fixture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gravon/classic-clean.xml"),
    )
    .expect("fixture");
    let extra = fixture.replace(
        " </game>",
        "  <result type=\"1\" winner=\"2\"/>\n  <clock left=\"3\"/>\n  stray text\n </game>",
    );
    d.write("extra.xml", extra);
    let (code, games) = d.json("extra.xml");
    assert_eq!(code, 1);
    let f = findings(&games[0]);
    assert_eq!(
        f[..3],
        [
            "record-defect@null 44:3 a second <result> element in one game",
            "record-defect@null 45:3 an element arbiter does not read",
            "record-defect@null 46:3 text arbiter does not read",
        ]
    );
    assert!(f[3].starts_with("result-mismatch"), "{f:?}");
}

#[test]
fn a_jungle_fen_with_blue_to_move_reports_and_converts_blue_first() {
    let d = Dir::new("jungle");
    d.write(
        "fen.arb",
        "[Game \"jungle\"]\n[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b\"]\n[Result \"*\"]\n\n1... a7-a6 2. a3-a4 *\n",
    );
    let (_, games) = d.json("fen.arb");
    assert_eq!(games[0]["parameters"]["FirstMove"], "blue");
    assert!(findings(&games[0]).is_empty());
    d.write(
        "first.arb",
        "[Game \"jungle\"]\n[FirstMove \"blue\"]\n[Result \"*\"]\n\n1. a7-a6 a3-a4 *\n",
    );
    let (_, games) = d.json("first.arb");
    assert_eq!(games[0]["parameters"]["FirstMove"], "blue");
    let converted = d.run(&["convert", "first.arb"]).stdout;
    assert!(
        converted.ends_with("1... a7-a6 2. a3-a4 *\n"),
        "{converted}"
    );
}

#[test]
fn directories_are_refused_where_nothing_or_one_game_is_wanted() {
    let d = Dir::new("dirs");
    std::fs::create_dir_all(d.0.join("empty")).expect("dir");
    d.write("empty/notes.txt", "not a log");
    let (code, games) = d.json("empty");
    assert_eq!(code, 2);
    assert_eq!(
        findings(&games[0]),
        ["parse-error@null 1:1 cannot read empty: a directory with no game record in it (looked for files ending .arb, .pgn, .xml, .xqf, native logs that begin with a tag in .txt, .log, and DhtmlXQ records in .txt, .html, .htm)"]
    );
    std::fs::create_dir_all(d.0.join("logs")).expect("dir");
    d.write(
        "logs/a.arb",
        "[Game \"jungle\"]\n[Result \"*\"]\n1. g3-g4 *\n",
    );
    for args in [
        &["claim", "logs", "--ply", "1", "draw"][..],
        &["show", "logs", "--ply", "1"],
        &["convert", "logs"],
    ] {
        let out = d.run(args);
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            out.stderr.contains("logs is a directory"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_print_apart() {
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::new("names");
    let log = "[Game \"jungle\"]\n[Result \"*\"]\n1. g3-g4 a7-c7 *\n";
    for name in [
        &b"bad\xff\xfe.arb"[..],
        b"bad\xfe\xff.arb",
        b"bad\\xFF\\xFE.arb",
    ] {
        std::fs::write(d.0.join(std::ffi::OsStr::from_bytes(name)), log).expect("write");
    }
    let out = d.run(&["check", "--format", "json", "."]);
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let sources: Vec<&str> = doc["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["source"].as_str().expect("source"))
        .collect();
    assert_eq!(
        sources,
        [
            "./bad\\\\xFF\\\\xFE.arb",
            "./bad\\xFE\\xFF.arb",
            "./bad\\xFF\\xFE.arb"
        ]
    );
    let out = d.run(&["check", "--format", "sarif", "."]);
    let doc: Value = serde_json::from_str(&out.stdout).expect("SARIF");
    let mut uris: Vec<&str> = doc["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("uri")
        })
        .collect();
    uris.dedup();
    assert_eq!(
        uris,
        ["bad%5CxFF%5CxFE.arb", "bad%FE%FF.arb", "bad%FF%FE.arb"]
    );
    let human = d.run(&["check", "--color", "never", "."]).stdout;
    assert!(human.contains("[./bad\\xFE\\xFF.arb:3:10]"), "{human}");
}

#[test]
fn convert_writes_values_and_comments_that_read_back_the_same() {
    let d = Dir::new("convert");
    let fixture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gravon/classic-clean.xml"),
    )
    .expect("fixture");
    let named = fixture.replacen(
        "<game type=\"classic\">",
        "<game type=\"classic\">\n  <player id=\"2\">Bo\nb \"the\" \\ ]x</player>",
        1,
    );
    d.write("named.xml", named);
    d.write(
        "native.arb",
        "[Game \"jungle\"]\n[Event \"C:\\dir \\\"q\\\"\"]\n[Result \"*\"]\n\n1. g3-g4 $3 a7-a6 ; a } b {\n2. g4-g5 {x;y [z]} *\n",
    );
    for (file, wanted) in [
        ("named.xml", "[Blue \"Bo\\nb \\\"the\\\" \\\\ ]x\"]"),
        ("native.arb", "1. g3-g4 $3 a7-a6 ; a } b {"),
    ] {
        let once = d.run(&["convert", file]);
        assert_eq!(once.code, 0, "{file}");
        let once = once.stdout;
        assert!(once.contains(wanted), "{file}:\n{once}");
        d.write("once.arb", &once);
        let twice = d.run(&["convert", "once.arb"]).stdout;
        assert_eq!(
            twice, once,
            "{file}: what convert writes reads back the same"
        );
    }
    let native = d.run(&["convert", "native.arb"]).stdout;
    assert!(
        native.contains("[Event \"C:\\\\dir \\\"q\\\"\"]"),
        "{native}"
    );
    assert!(native.contains("{x;y [z]}"), "{native}");
}

/// A variation of a Spionage turn (two plies, `a3-a4,b3-b4`) is written after the whole turn:
/// written after its first ply it split the turn, and the log could not be read back.
#[test]
fn convert_writes_a_variation_after_the_whole_spionage_turn() {
    let d = Dir::new("convert-spionage");
    d.write(
        "turns.arb",
        "[Game \"spionage\"]\n[Volcanoes \"d5 e6 f4 g7\"]\n[Result \"*\"]\n\nsetup white\n  3 12345S1234\n  2 5SSSS1MMMM\n  1 11223BBBBH\nsetup black\n 10 11223BBBBH\n  9 5SSSS1MMMM\n  8 12345S1234\n\n1. a3-a4,b3-b4 (1. c3-c4,d3-d4) a8-a7,b8-b7 *\n",
    );
    let once = d.run(&["convert", "turns.arb"]);
    assert_eq!(once.code, 0);
    assert!(
        once.stdout
            .contains("1. a3-a4,b3-b4 (1. c3-c4,d3-d4) 1... a8-a7,b8-b7 *"),
        "{}",
        once.stdout
    );
    d.write("once.arb", &once.stdout);
    let check = d.run(&["check", "--format", "json", "once.arb"]);
    assert_eq!(check.code, 0, "{}", check.stdout);
    let doc: serde_json::Value = serde_json::from_str(&check.stdout).expect("JSON");
    assert_eq!(doc["summary"]["lines"], 2);
    assert_eq!(d.run(&["convert", "once.arb"]).stdout, once.stdout);
}

/// An importer's move to no square of the board (a UCC2012 step of 2,147,483,647 squares) is
/// not written as `b4-?`, which reads back as a `parse-error` where the record has an
/// `illegal-move`: convert refuses the game (exit 2) and says why at the move.
#[test]
fn convert_refuses_a_move_to_no_square_rather_than_change_the_verdict() {
    let f = "fixtures/fuzz/ucc2012-step-past-any-square.txt";
    let check = bin::run(&["check", "--color", "never", f]);
    assert_eq!(check.code, 1);
    assert!(check.stdout.contains("illegal-move"), "{}", check.stdout);
    let convert = refused(
        bin::run(&["convert", f]),
        "the move `b4-?` goes to no square of the board: a native log cannot write it",
    );
    assert!(convert.stderr.contains(":11:8]"), "{}", convert.stderr);
}

/// `run` of `convert` refused its game: exit 2, nothing written, `why` said on stderr.
fn refused(run: Run, why: &str) -> Run {
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains(why), "{}", run.stderr);
    run
}

/// A DhtmlXQ variation that starts after the last move of its line (it replaces no move) is
/// not written after that line's last move, where a native log reads it as the line's own
/// continuation (one line instead of two, the result no longer compared): convert refuses the
/// game (exit 2) and says why at the variation.
#[test]
fn convert_refuses_a_variation_past_the_end_of_its_line() {
    let d = Dir::new("past-end");
    d.write(
        "past-end.txt",
        "[DhtmlXQ][DhtmlXQ_result]W[/DhtmlXQ_result][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][DhtmlXQ_move_0_3_1]19271022[/DhtmlXQ_move_0_3_1][/DhtmlXQ]\n",
    );
    let check = d.run(&["check", "--format", "json", "past-end.txt"]);
    let doc: Value = serde_json::from_str(&check.stdout).expect("JSON");
    assert_eq!(doc["summary"]["lines"], 2, "{}", check.stdout);
    refused(
        d.run(&["convert", "past-end.txt"]),
        "a variation that starts after the last move of its line cannot be written in a native log",
    );
}

/// convert judges what it wrote and keeps it only when it is judged as the record is. A game
/// named by `--game xiangqi` whose coordinates count ranks from 1 (`a1a2`: the Chariot one
/// step up) would read otherwise under the Game tag convert adds (a Game tag makes coordinates
/// ICCS, ranks from 0: no piece on a1): its moves are written anew in ICCS instead.
#[test]
fn convert_writes_moves_anew_where_its_game_tag_would_read_them_otherwise() {
    let d = Dir::new("rank-base");
    d.write("r1.pgn", "[Result \"*\"]\n\n1. a1a2 *\n");
    let check = d.run(&["check", "--game", "xiangqi", "--format", "json", "r1.pgn"]);
    assert_eq!(check.code, 0, "{}", check.stdout);
    let convert = d.run(&["convert", "--game", "xiangqi", "r1.pgn"]);
    assert_eq!(convert.code, 0, "{}", convert.stderr);
    assert_eq!(
        convert.stdout,
        "[Game \"xiangqi\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n1. a0a1 *\n"
    );
    d.write("converted.arb", &convert.stdout);
    let again = d.run(&["check", "--format", "json", "converted.arb"]);
    assert_eq!(again.code, 0, "{}", again.stdout);
    let doc: Value = serde_json::from_str(&again.stdout).expect("JSON");
    assert_eq!(doc["games"][0]["plies"], 1);
}

/// A setup section whose row cannot be read (rank `1O`, a letter O) is not taken silently as
/// moves, which judged the game as one with no setup at all ("no setup for Blue" at a tag,
/// exit 1): the word `setup` among the moves is a parse-error at that section (exit 2).
#[test]
fn a_setup_section_with_an_unreadable_row_is_a_parse_error_there() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stratego/clean-stratego.arb"),
    )
    .expect("the fixture");
    let broken = text.replacen("\n 10 ", "\n 1O ", 1);
    assert_ne!(broken, text, "the fixture has a row of rank 10");
    let d = Dir::new("setup-typo");
    d.write("typo.arb", &broken);
    let (code, games) = d.json("typo.arb");
    assert_eq!(code, 2);
    let first = &games[0]["findings"][0];
    assert_eq!(first["code"], "parse-error");
    assert_eq!(
        first["message"],
        "a setup section whose rows cannot be read, taken as moves"
    );
    let line = broken[..broken.find("\n 1O ").unwrap()].lines().count();
    assert_eq!(first["line"], line, "the section before the row");
}
