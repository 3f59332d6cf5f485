//! Hostile and broken inputs (issue #11): each gives a clear finding with a span, the exit code
//! of rulings §5, and never costs another game of the same run.

use crate::bin::{self, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SETUP: &str = "setup blue\n 10 FBS2239X..\n  9 ..........\n  8 ..........\n  7 ..........\nsetup red\n  4 ..........\n  3 ..........\n  2 ..........\n  1 FBS2239X..\n";

/// A clean two-ply Barrage game.
fn good_game() -> String {
    format!("[Game \"barrage\"]\n[Result \"*\"]\n\n{SETUP}\n1. h1-h2 h10-h9 *\n")
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("arbiter-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `arbiter check --format json` on the paths: (exit code, document).
fn check(paths: &[&Path]) -> (i32, Value) {
    let run = bin::arbiter(["check", "--format", "json"])
        .args(paths)
        .run();
    let doc: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", run.stdout));
    (run.code, doc)
}

/// Runs `arbiter check --color never` (the human report) on `path`.
fn check_human(path: &Path) -> Run {
    bin::arbiter(["check", "--color", "never"]).arg(path).run()
}

fn codes(game: &Value) -> Vec<String> {
    game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

/// The broken input beside a good file: the exit code, the broken game's finding codes, and
/// the good game judged in full (2 plies, no finding).
fn hostile(name: &str, broken: impl AsRef<[u8]>) -> (i32, Vec<Value>) {
    let d = Dir::new(name);
    let bad = d.write(&format!("{name}.arb"), broken);
    let good = d.write("zz-good.arb", good_game());
    let (code, doc) = check(&[&bad, &good]);
    let games = doc["games"].as_array().unwrap().clone();
    let last = games.last().unwrap();
    assert!(last["source"].as_str().unwrap().ends_with("zz-good.arb"));
    assert_eq!(last["plies"], 2, "{name}: the good game is still judged");
    assert!(codes(last).is_empty(), "{name}: {:?}", codes(last));
    (code, games[..games.len() - 1].to_vec())
}

fn first_finding(games: &[Value]) -> &Value {
    &games[0]["findings"][0]
}

#[test]
fn empty_file() {
    let (code, games) = hostile("empty", "");
    assert_eq!(code, 2);
    assert_eq!(codes(&games[0]), vec!["parse-error"]);
    assert_eq!(first_finding(&games)["message"], "no game in this file");
}

#[test]
fn only_tags() {
    let (code, games) = hostile("tags", "[Game \"barrage\"]\n[Result \"*\"]\n");
    assert_eq!(code, 1);
    // no setups: both are reported at once
    assert_eq!(codes(&games[0]), vec!["setup-invalid", "setup-invalid"]);
}

#[test]
fn truncated_game() {
    let g = good_game();
    let cut = &g[..g.find("h10-h9").unwrap() + 3];
    let (code, games) = hostile("truncated", cut);
    assert_eq!(code, 2, "h10 cut to `h10-` is not a move");
    assert_eq!(codes(&games[0]), vec!["parse-error"]);
    assert_eq!(games[0]["plies"], 1, "the ply before the cut was judged");
}

#[test]
fn unknown_game_tag() {
    let (code, games) = hostile("unknown-game", good_game().replace("barrage", "checkers"));
    assert_eq!(code, 2);
    assert_eq!(codes(&games[0]), vec!["unsupported-game"]);
    assert_eq!(first_finding(&games)["message"], "unknown game `checkers`");
}

#[test]
fn unknown_piece_letter() {
    let (code, games) = hostile(
        "letter",
        good_game().replace(" 1 FBS2239X..", " 1 FBS2239Q.."),
    );
    assert_eq!(code, 1);
    let msgs: Vec<&str> = games[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(msgs.contains(&"unknown piece letter `Q`"), "{msgs:?}");
    assert!(codes(&games[0]).iter().all(|c| c == "setup-invalid"));
}

#[test]
fn setup_of_the_wrong_size() {
    let (code, games) = hostile("size", good_game().replace(" 1 FBS2239X..", " 1 FBS2239X."));
    assert_eq!(code, 1);
    assert_eq!(
        first_finding(&games)["message"],
        "rank 1 has 9 squares, the board has 10"
    );
}

#[test]
fn duplicate_tags_take_the_last_with_a_warning() {
    let g = good_game().replace("[Result \"*\"]", "[Result \"1-0\"]\n[result \"*\"]");
    let (code, games) = hostile("duplicate-tags", g);
    assert_eq!(code, 0, "a warning does not change the exit code");
    assert_eq!(games[0]["result"], "*");
    assert_eq!(codes(&games[0]), vec!["record-defect"]);
    let f = first_finding(&games);
    assert_eq!(f["message"], "the result tag is given twice");
    assert_eq!(f["labels"][0]["text"], "first given here");
}

#[test]
fn move_number_beyond_u64_is_a_wrong_number() {
    let g = good_game().replace("1. h1-h2", "99999999999999999999999. h1-h2");
    let (code, games) = hostile("huge-number", g);
    assert_eq!(code, 0);
    assert_eq!(codes(&games[0]), vec!["record-defect"]);
    assert_eq!(
        first_finding(&games)["message"],
        "move number 99999999999999999999999. where 1. was expected"
    );
}

#[test]
fn invalid_utf8() {
    let mut g = good_game().into_bytes();
    let at = g.windows(5).position(|w| w == b"h1-h2").unwrap();
    g.splice(at..at, [0xff, 0xfe]);
    let (code, games) = hostile("utf8", g);
    assert_eq!(code, 2);
    let f = first_finding(&games);
    assert_eq!(f["code"], "parse-error");
    assert_eq!(f["message"], "invalid UTF-8 in the log");
    assert_eq!(f["length"], 2);
}

#[test]
fn bom_and_crlf_are_accepted() {
    let g = format!("\u{feff}{}", good_game().replace('\n', "\r\n"));
    let (code, games) = hostile("bom-crlf", g);
    assert_eq!(code, 0);
    assert_eq!(games[0]["plies"], 2);
    assert!(codes(&games[0]).is_empty());
}

#[test]
fn nul_bytes() {
    let (code, games) = hostile("nul", good_game().replace("h1-h2", "h1-h2\0"));
    assert_eq!(code, 2);
    assert_eq!(codes(&games[0]), vec!["parse-error"]);
}

#[test]
fn ten_megabyte_line() {
    let g = good_game().replace("1. h1-h2 h10-h9 *", &"a".repeat(10 << 20));
    let (code, games) = hostile("long-line", g);
    assert_eq!(code, 2);
    let f = first_finding(&games);
    assert!(
        f["message"].as_str().unwrap().chars().count() < 80,
        "message stays short"
    );
    assert_eq!(f["length"], 10 << 20);
}

#[test]
fn unterminated_and_deep_comments() {
    let g = good_game().replace("1. h1-h2", &format!("{}1. h1-h2", "{".repeat(100_000)));
    let (code, games) = hostile("deep-comment", g);
    assert_eq!(code, 2);
    assert_eq!(first_finding(&games)["message"], "unterminated comment");
    // a closed one with nested-looking braces is one comment
    let g = good_game().replace("1. h1-h2", "{ {{{{ nested? } 1. h1-h2");
    let (code, games) = hostile("closed-comment", g);
    assert_eq!(code, 0);
    assert_eq!(games[0]["plies"], 2);
}

#[test]
fn a_million_plies() {
    let red = ["h1-h2", "h2-i2", "i2-i1", "i1-h1"];
    let blue = ["h10-h9", "h9-i9", "i9-i10", "i10-h10"];
    let mut moves = String::with_capacity(8 << 20);
    for i in 0..500_000 {
        moves.push_str(red[i % 4]);
        moves.push(' ');
        moves.push_str(blue[i % 4]);
        moves.push('\n');
    }
    let g = good_game().replace("1. h1-h2 h10-h9 *", &format!("{moves}*"));
    let (code, games) = hostile("million", g);
    assert_eq!(code, 0);
    assert_eq!(games[0]["plies"], 1_000_000);
}

#[test]
fn a_hundred_thousand_games() {
    let (code, games) = hostile("many", good_game().repeat(100_000));
    assert_eq!(code, 0);
    assert_eq!(games.len(), 100_000);
    assert!(games.iter().all(|g| g["plies"] == 2));
    assert_eq!(games[99_999]["index"], 99_999);
}

#[test]
fn broken_gravon_xml() {
    let (code, games) = hostile(
        "gravon",
        "<?xml version=\"1.0\"?>\n<stratego><game type=\"classic\"><move id=\"1\" source=\"A4\"",
    );
    assert_eq!(code, 2);
    assert_eq!(codes(&games[0]), vec!["parse-error"]);
}

#[cfg(unix)]
#[test]
fn directory_with_dangling_symlink_loop_and_log_named_directory() {
    let d = Dir::new("tree");
    let root = d.0.join("archive");
    std::fs::create_dir_all(root.join("sub.arb")).unwrap(); // a directory named like a log
    std::fs::write(root.join("sub.arb/inner.arb"), good_game()).unwrap();
    std::fs::write(root.join("a.arb"), good_game()).unwrap();
    std::os::unix::fs::symlink(root.join("missing.arb"), root.join("dangling.arb")).unwrap();
    std::os::unix::fs::symlink(&root, root.join("loop")).unwrap();
    let (code, doc) = check(&[&root]);
    assert_eq!(code, 2, "unreadable entries make the input unusable");
    let games = doc["games"].as_array().unwrap();
    let by_source: Vec<(String, Vec<String>)> = games
        .iter()
        .map(|g| {
            let s = g["source"].as_str().unwrap();
            let s = s
                .strip_prefix(root.to_str().unwrap())
                .unwrap_or(s)
                .to_string();
            (s, codes(g))
        })
        .collect();
    assert_eq!(
        by_source,
        vec![
            ("/a.arb".to_string(), vec![]),
            ("/dangling.arb".to_string(), vec!["parse-error".to_string()]),
            ("/loop".to_string(), vec!["parse-error".to_string()]),
            ("/sub.arb/inner.arb".to_string(), vec![]),
        ]
    );
    let loop_msg = games[2]["findings"][0]["message"].as_str().unwrap();
    assert!(loop_msg.contains("symbolic link loop"), "{loop_msg}");
}

/// The worst case for the two-squares rule: both sides shuttle for 200,000 plies, so every move
/// from the 4th of each run breaks the rule. Each finding's labels stay bounded (the last
/// `limit` moves of the run), so the check stays linear; a quadratic one would not finish.
#[test]
fn endless_rule_breaking_stays_linear() {
    let mut moves = String::new();
    for i in 0..100_000 {
        let (r, b) = if i % 2 == 0 {
            ("h1-h2", "h10-h9")
        } else {
            ("h2-h1", "h9-h10")
        };
        moves.push_str(r);
        moves.push(' ');
        moves.push_str(b);
        moves.push('\n');
    }
    let text = good_game().replace("1. h1-h2 h10-h9 *", &format!("{moves}*"));
    let src = arbiter::pipeline::Source::from_bytes("shuttle.arb", text.into_bytes());
    let games = arbiter::pipeline::check_source(&src, &arbiter::pipeline::Options::default());
    let g = &games[0];
    assert_eq!(g.plies, 200_000);
    // Red's plies 7, 11, ... and Blue's 8, 12, ...: every move after the third of each run.
    let breaking = g
        .findings
        .iter()
        .filter(|f| f.code == arbiter::Code::TwoSquaresRule)
        .count();
    assert_eq!(breaking, 200_000 - 6);
    assert!(g.findings.iter().all(|f| f.labels.len() <= 3));
}

/// A finding far along one long line (a whole game on one line: here an illegal move after
/// 70,000 spaces) is reported in human output with its line and column instead of an
/// excerpt; drawing it used to overflow the report formatter. The next game of the file is
/// drawn as usual.
#[test]
fn finding_beyond_column_65535_in_human_output() {
    let d = Dir::new("wide");
    let wide = format!(
        "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h0g2{}h9h5 *\n\n[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h0h5 *\n",
        " ".repeat(70_000)
    );
    let path = d.write("wide.arb", wide);
    let run = check_human(&path);
    let text = run.stdout;
    assert_eq!(run.code, 1, "{text}");
    assert!(
        text.contains("wide.arb:4:70008: not a horse move"),
        "{text}"
    );
    assert!(
        text.contains("(game 2)") && text.contains("9 │ 1. h0h5 *"),
        "{text}"
    );
}

/// A standard output that cannot be written (a full disk; a closed pipe is the same error
/// path) makes every command exit 2 with a message, never panic or report success.
#[test]
fn unwritable_stdout_exits_2() {
    let f = "fixtures/xiangqi/repetition-perpetual-check.arb";
    for args in [
        vec!["check", "--format", "json", f],
        vec!["check", f],
        vec!["claim", f, "--ply", "8", "repetition"],
        vec!["show", f, "--ply", "8"],
        vec!["convert", f],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let run = bin::arbiter(&args).stdout(full).run();
        let err = run.stderr;
        assert_eq!(run.code, 2, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("cannot write"), "{args:?}: {err}");
    }
}

/// A brace comment that never closes does not hide the games after it: the game where it
/// opens keeps its parse-error, the next game of the same file is judged.
#[test]
fn unterminated_comment_does_not_hide_later_games() {
    let d = Dir::new("open-brace");
    let game = "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h0h5 *\n";
    let path = d.write("two.arb", format!("{game}{{\n{game}"));
    let (code, doc) = check(&[&path]);
    assert_eq!(code, 2);
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{doc}");
    assert_eq!(codes(&games[0]), ["parse-error"]);
    assert_eq!(games[0]["findings"][0]["message"], "unterminated comment");
    assert_eq!(codes(&games[1]), ["illegal-move"]);
    assert_eq!(games[1]["findings"][0]["line"], 9);
}

/// Formatting stays fast when one game has thousands of findings (each report reads only
/// the lines it draws): 4,000 plies of shuttling Horses in claim mode give 500 infos, and every
/// one of them is drawn with its own line numbers.
#[test]
fn many_findings_in_one_game_are_all_drawn() {
    let d = Dir::new("many-findings");
    let mut text = String::from("[Game \"xiangqi\"]\n[Repetition \"claim\"]\n[Result \"*\"]\n\n");
    for n in 0..4000 {
        text.push_str(["h0g2", "h9g7", "g2h0", "g7h9"][n % 4]);
        text.push(if n % 8 == 7 { '\n' } else { ' ' });
    }
    text.push_str("*\n");
    let path = d.write("many.arb", text);
    let run = check_human(&path);
    let stdout = run.stdout;
    assert_eq!(run.code, 0);
    assert_eq!(stdout.matches("threefold-repetition\n").count(), 500);
    // The last report draws the game's last line, line 504 of the file (4 tag/blank lines,
    // then 500 lines of 8 plies).
    assert!(
        stdout.contains("504 │ "),
        "{}",
        &stdout[stdout.len().saturating_sub(2000)..]
    );
}

/// Standard error that cannot be written (here: a file opened read-only) must not panic the
/// program: the report on stdout and the exit code are still right.
#[test]
fn unwritable_stderr_does_not_panic() {
    let d = Dir::new("stderr");
    let log = d.write("a.arb", good_game());
    let ro = std::fs::File::open(&log).unwrap();
    let run = bin::arbiter(["check", "--format", "json"])
        .arg(&log)
        .stderr(ro)
        .run();
    assert_eq!(run.code, 0);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["summary"]["games"], 1);
    let bad = d.write("b.arb", "[Game \"checkers\"]\n*\n");
    let run = bin::arbiter(["check"])
        .arg(&bad)
        .stderr(std::fs::File::open(&bad).unwrap())
        .run();
    assert_eq!(run.code, 2, "unsupported-game, reported on a dead stderr");
}

/// Inputs the fuzzers crashed or hung on (`fuzz/`, see README "Fuzzing"), kept in
/// `fixtures/fuzz/` (`lone-bom-byte-before-bracket.bin`: a `[` after a lone 0xEF looped
/// the splitter, which took that byte for white space):
/// each goes through every reader and the whole check without a panic, every span inside
/// the text.
#[test]
fn fuzz_crashes_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for rec in arbiter::record::gravon::parse_gravon(&text, "crash.xml") {
            for f in &rec.findings {
                assert!(f.span.end <= text.len(), "{}: {f:?}", path.display());
            }
        }
        let _ = arbiter::record::parse::parse_log(&text);
        // The raw bytes, cut as the command line cuts a file (before any UTF-8 repair).
        for chunk in arbiter::input::chunks_of_text("crash.arb", bytes.clone()) {
            let _ = arbiter::pipeline::check_chunk(&chunk, &arbiter::Options::default());
        }
        for name in ["crash.xml", "crash.arb", "crash.pgn"] {
            let src = arbiter::Source::from_bytes(name, bytes.clone());
            for r in arbiter::check_source(&src, &arbiter::Options::default()) {
                for f in &r.findings {
                    assert!(f.span.end <= src.text.len(), "{}: {f:?}", path.display());
                }
            }
        }
        n += 1;
    }
    assert!(n >= 1, "no fuzz crash inputs in {}", dir.display());
}

/// Every native game of every input in `fixtures/fuzz/` is judged alike in its file and alone
/// (the fuzz targets' property; a short NUL-heavy game was once refused alone as binary data
/// and read in its file).
#[test]
fn fuzz_inputs_judge_each_game_alike_alone() {
    use arbiter::input::ChunkKind;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    let opts = arbiter::Options::default();
    let judged = |c: &arbiter::input::Chunk, base: usize| -> Vec<String> {
        arbiter::pipeline::check_chunk(c, &opts)
            .iter()
            .map(|r| {
                let codes: Vec<_> = r
                    .findings
                    .iter()
                    .filter(|f| f.rule != arbiter::finding::Rule::LogNoGameTag)
                    .map(|f| format!("{} {:?} {}", f.code, f.ply, f.span.start - base))
                    .collect();
                format!("{:?} {} {:?} {codes:?}", r.game, r.plies, r.outcome)
            })
            .collect()
    };
    let mut games = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        for chunk in arbiter::input::chunks_of_text("fuzz.arb", bytes.clone()) {
            if !matches!(chunk.kind, ChunkKind::Native) {
                continue;
            }
            let end = chunk.offset + chunk.text.len();
            let mut alone =
                arbiter::input::chunks_of_text("fuzz.arb", bytes[chunk.offset..end].to_vec());
            assert_eq!(
                alone.len(),
                1,
                "{}: game at byte {}",
                path.display(),
                chunk.offset
            );
            alone[0].content_game = chunk.content_game;
            assert_eq!(
                judged(&chunk, chunk.offset),
                judged(&alone[0], 0),
                "{}: game at byte {}",
                path.display(),
                chunk.offset
            );
            games += 1;
        }
    }
    assert!(games >= 10, "{games} games compared");
}

/// quick-xml counts positions after a leading BOM: a Gravon record with one reads like the
/// same record without, and its spans still point at the right bytes.
#[test]
fn gravon_with_a_bom() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = std::fs::read(root.join("fixtures/gravon/classic-clean.xml")).unwrap();
    let bom = std::fs::read(root.join("fixtures/gravon/classic-clean-bom.xml")).unwrap();
    assert_eq!(&bom[3..], &plain[..]);
    let text = String::from_utf8(bom).unwrap();
    let recs = arbiter::record::gravon::parse_gravon(&text, "classic-clean-bom.xml");
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].moves.len(), 33);
    let first = &recs[0].moves[0];
    assert!(text[first.span().start..first.span().end].starts_with("<move id=\"1\""));
    let (code, doc) = check(&[&root.join("fixtures/gravon/classic-clean-bom.xml")]);
    assert_eq!(code, 0);
    assert_eq!(doc["games"][0]["plies"], 33);
    assert_eq!(doc["games"][0]["outcome"]["reason"], "flag-captured");
}

/// A position shuttled to a thousand times: each Jungle repetition finding cites at most three
/// earlier occurrences (the first two and the latest, numbered), so findings stay of bounded
/// size and the replay linear; the 1001st occurrence is named as such.
#[test]
fn a_long_jungle_shuttle_cites_three_occurrences() {
    let mut text = String::from("[Game \"jungle\"]\n[Result \"*\"]\n\n");
    for i in 0..1000 {
        text.push_str(&format!(
            "{}. g3-g4 a7-a6 {}. g4-g3 a6-a7 ",
            2 * i + 1,
            2 * i + 2
        ));
    }
    text.push_str("*\n");
    let d = Dir::new("jungle-shuttle");
    let p = d.write("shuttle.arb", text);
    let (code, doc) = check(&[&p]);
    assert_eq!(code, 1);
    let findings = doc["games"][0]["findings"].as_array().unwrap();
    let reps: Vec<&Value> = findings
        .iter()
        .filter(|f| f["code"] == "jungle-repetition")
        .collect();
    assert_eq!(reps.len(), 3993);
    assert!(reps
        .iter()
        .all(|f| f["labels"].as_array().unwrap().len() <= 3));
    let last = reps.last().unwrap();
    assert_eq!(last["ply"], 4000);
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .contains("for the 1001st time"),
        "{}",
        last["message"]
    );
    let labels: Vec<&str> = last["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "first occurrence: the start position",
            "second occurrence, after ply 4",
            "1000th occurrence, after ply 3996"
        ]
    );
}

/// A Gravon square off the board (`L4`): the move arbiter writes for it (`L4-L5`) is no
/// move, a parse error at the move element; the text is never read as coordinates, whose
/// spans would point into the XML tag.
#[test]
fn gravon_square_off_the_board_is_no_move() {
    let xml = "<stratego>\n <game type=\"classic\">\n  <field content=\"DBMBEHFGEDFDGHBEDJFIHIDBGJEIHDDEBFCLBGKDAA__AA__AAAA__AA__AASNRTXOUTVPPQPNWPNQPRQUSPNRQSVTPNYNUQTRSP\"/>\n  <move id=\"1\" source=\"L4\" target=\"L5\"/>\n </game>\n</stratego>\n";
    let d = Dir::new("gravon-off-board");
    let p = d.write("off.xml", xml);
    let (code, doc) = check(&[&p]);
    assert_eq!(code, 2);
    let f = &doc["games"][0]["findings"][0];
    assert_eq!(f["code"], "parse-error");
    assert_eq!(f["message"], "`L4-L5` is not a move");
    let move_element = xml.find("<move").unwrap();
    assert_eq!(f["offset"], move_element);
}

/// Leading zeros in a move number are the same number (`00000000000000000001.` is 1.), as
/// `str::parse` reads it: no warning.
#[test]
fn move_number_with_leading_zeros() {
    let (code, games) = hostile(
        "leading-zeros",
        "[Game \"xiangqi\"]\n\n00000000000000000001. h2e2 h9g7 000000000000000000000000002. h0g2 *\n",
    );
    assert_eq!(code, 0);
    assert!(codes(&games[0]).is_empty(), "{:?}", codes(&games[0]));
    assert_eq!(games[0]["plies"], 3);
}

/// Every input in `fixtures/fuzz/` ends with exit 0, 1 or 2 through the binary, in every
/// output format, with `--show` and as a report page: never a panic
/// (`dhtmlxq-gb18030-span-inside-a-character.txt`: a GB18030 DhtmlXQ block whose decoded spans
/// end inside a character of the UTF-8 excerpt, which the human report once sliced there).
#[test]
fn fuzz_crashes_render_in_every_format() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/cli/crashes")
        .map(|e| e.expect("entry").path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty());
    let d = Dir::new("crashes");
    let page = d.0.join("page.html");
    for input in &inputs {
        let mut runs: Vec<Vec<String>> = [
            "human", "json", "jsonl", "sarif", "github", "junit", "rdjson", "gitlab",
        ]
        .iter()
        .map(|f| vec!["check".into(), "--format".into(), f.to_string()])
        .collect();
        runs.push(vec!["check".into(), "--show".into()]);
        runs.push(vec![
            "report".into(),
            "-o".into(),
            page.display().to_string(),
        ]);
        for args in runs {
            let run = bin::arbiter(&args).arg(input).run();
            let (code, err) = (run.code, run.stderr);
            assert!(
                (0..=2).contains(&code) && !err.contains("panicked"),
                "{} {args:?}: exit {code}\n{err}",
                input.display()
            );
        }
    }
}

/// Variations nested 100,000 deep (each `( ... )` inside the last) are read and judged by
/// every command alike: the fast parser and every walk keep their own stacks, so no thread's
/// stack bounds the depth (it once aborted a worker at about 2,400, and `show` and `convert`
/// on the main thread once refused 40,000 with a parse error `check` did not find).
#[test]
fn variations_nested_deep_are_judged() {
    let n = 100_000;
    let log = format!(
        "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h2e2 {}{} h9g7 *\n",
        "( 1. b2e2 ".repeat(n),
        ")".repeat(n)
    );
    let d = Dir::new("deep");
    let path = d.write("deep.arb", log);
    let (code, doc) = check(&[&path]);
    assert_eq!(code, 0);
    assert_eq!(doc["summary"]["lines"], n + 1);
    let show = bin::arbiter(["show", "--ply", "2"]).arg(&path).run();
    assert_eq!(show.code, 0, "{}", show.stderr);
    assert!(
        show.stdout.contains("after ply 2 (Black h9-g7)"),
        "{}",
        show.stdout
    );
    let claim = bin::arbiter(["claim", "--ply", "2", "draw"])
        .arg(&path)
        .run();
    assert!(!claim.stdout.contains("parse-error"), "{}", claim.stdout);
    let convert = bin::arbiter(["convert"]).arg(&path).run();
    assert_eq!(convert.code, 0, "{}", convert.stderr);
    let again = d.write("again.arb", convert.stdout);
    let (code, doc) = check(&[&again]);
    assert_eq!(code, 0);
    assert_eq!(doc["summary"]["lines"], n + 1);
}

/// Variations nested before any move of their own line (`((((`) are one fault: the outermost
/// is reported, the levels inside it are not (a million of them once made a million
/// findings, a gigabyte of memory and 250 MB of report). A sibling opened later is its own
/// fault and is reported again.
#[test]
fn nested_variations_before_any_move_are_one_finding() {
    let n = 200_000;
    let log = format!(
        "[Game \"xiangqi\"]\n\n1. h2e2 ({}{}) (()) h9g7 *\n",
        "(".repeat(n),
        ")".repeat(n)
    );
    let d = Dir::new("nested-orphans");
    let path = d.write("nested.arb", log);
    let (code, doc) = check(&[&path]);
    assert_eq!(code, 2, "a parse error: unusable input");
    let game = &doc["games"][0];
    assert_eq!(codes(game), ["parse-error", "parse-error"]);
    let columns: Vec<_> = game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["column"].clone())
        .collect();
    // The second `(` of the first group, and the inner `(` of `(())`.
    assert_eq!(columns, [10, 2 * n + 13]);
}

/// A deeply nested game with a syntax error is refused by every command with the same
/// finding: one that says the nesting kept it from being read, never a misleading
/// "unexpected" character at the place the grammar gave up.
#[test]
fn a_syntax_error_under_deep_variations_is_said_so() {
    let n = 300_000;
    let log = format!(
        "[Game \"xiangqi\"]\n\n1. h2e2 {}{} h9g7 ]x\n",
        "( h9g7 ".repeat(n),
        ")".repeat(n)
    );
    let d = Dir::new("deep-error");
    let path = d.write("deep.arb", log);
    let said = "variations nested too deep to read this game";
    let check = check_human(&path);
    assert_eq!(check.code, 2, "a game that cannot be parsed");
    assert!(check.stdout.contains(said), "{}", check.stdout);
    for args in [vec!["show", "--ply", "1"], vec!["convert"]] {
        let run = bin::arbiter(&args).arg(&path).run();
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(said), "{args:?}: {}", run.stderr);
    }
}

/// The largest `--game-index` is a game past the end (exit 2) in every format, not an
/// overflow when the report names it.
#[test]
fn the_largest_game_index_is_past_the_end() {
    let d = Dir::new("game-index");
    let path = d.write("one.arb", good_game());
    for format in [
        "human", "json", "sarif", "github", "junit", "rdjson", "gitlab",
    ] {
        let run = bin::arbiter([
            "check",
            "--game-index",
            &u64::MAX.to_string(),
            "--format",
            format,
        ])
        .arg(&path)
        .run();
        assert_eq!(run.code, 2, "{format}");
    }
}

/// A bidirectional override in a tag or a comment reaches the report page as its stand-in,
/// never raw: it could reorder what the page shows.
#[test]
fn bidi_overrides_never_reach_the_page_raw() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fuzz/bidi-override-in-tag-and-comment.arb");
    let d = Dir::new("bidi-page");
    let page = d.0.join("page.html");
    let run = bin::arbiter(["report", "-o"]).arg(&page).arg(&input).run();
    assert_eq!(run.code, 0);
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(!html.contains('\u{202e}'));
    assert!(html.contains("\u{21c6}evil") && html.contains("\u{21c6}comment"));
}

/// A source whose first line is 4 KB or more of mostly NUL bytes (binary data, `- <
/// /dev/zero`) is refused from its first bytes: an endless stream of NULs has no line end,
/// and was read into memory until it ran out (5 GB in 3 s). A game of a file is refused by the
/// same test, so it is judged alike alone (a short NUL-heavy game once was not: the fuzz
/// inputs `fixtures/fuzz/nul-heavy-*`); a stray NUL in a text log is still read as it is.
#[test]
fn a_source_of_nul_bytes_is_refused_from_its_first_bytes() {
    let run = bin::arbiter(["check", "--format", "json", "-"])
        .stdin(vec![0u8; 32 << 10])
        .run();
    assert_eq!(run.code, 2);
    assert!(
        run.stdout
            .contains("binary data, not a game log (a first line of 4 KB or more, mostly NUL)"),
        "{}",
        run.stdout
    );
    let stray = good_game().replace("1. h1-h2", "{a\u{0}b} 1. h1-h2");
    let (code, games) = hostile("stray-nul", stray);
    assert_eq!(code, 0, "{games:?}");
}

/// A log saved as UTF-16 (Windows Notepad's "Unicode") is one finding that says so, exit 2:
/// it was cut into seven games of "invalid UTF-8" and "NUL byte" errors that never named
/// UTF-16.
#[test]
fn a_utf16_log_is_refused_as_utf16() {
    for (bom, le) in [([0xFF, 0xFE], true), ([0xFE, 0xFF], false)] {
        let mut bytes = bom.to_vec();
        for u in good_game().encode_utf16() {
            let b = if le { u.to_le_bytes() } else { u.to_be_bytes() };
            bytes.extend_from_slice(&b);
        }
        let (code, games) = hostile(if le { "utf16le" } else { "utf16be" }, bytes);
        assert_eq!(code, 2);
        assert_eq!(games.len(), 1);
        assert_eq!(codes(&games[0]), vec!["parse-error"]);
        let message = first_finding(&games)["message"].as_str().unwrap();
        assert!(message.contains("UTF-16 text") && message.ends_with("save the file as UTF-8"));
    }
    let mut utf32 = vec![0xFF, 0xFE, 0, 0];
    utf32.extend(good_game().chars().flat_map(|c| (c as u32).to_le_bytes()));
    let (code, games) = hostile("utf32le", utf32);
    assert_eq!(code, 2);
    let message = first_finding(&games)["message"].as_str().unwrap();
    assert!(message.contains("UTF-32 text (little-endian"), "{message}");
}

/// A tag given 1,001 times (1,000 repeats) is the first 100 repeats listed and one finding
/// that counts the other 900, at the first of them, labelled at the last: a million repeats
/// made a million findings (3.6 GB for an 8 MB log in --format gitlab).
#[test]
fn record_defects_past_the_first_hundred_are_counted_in_one() {
    let tags = "[T \"v\"]\n".repeat(1001);
    let (code, games) = hostile("many-defects", format!("{tags}{}", good_game()));
    assert_eq!(code, 0);
    let findings = games[0]["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 101);
    let last = &findings[100];
    assert_eq!(
        last["message"],
        "900 more record defects in this game (only the first 100 are listed)"
    );
    assert_eq!(last["line"], 102, "the 101st repeat");
    assert_eq!(last["labels"][0]["line"], 1001, "the last repeat");
    let tags = "[T \"v\"]\n".repeat(102);
    let (_, games) = hostile("one-more-defect", format!("{tags}{}", good_game()));
    assert_eq!(
        games[0]["findings"][100]["message"],
        "1 more record defect in this game (only the first 100 are listed)"
    );
}
