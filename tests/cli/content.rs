//! Every format known by its content (issue 22): what the bytes are decides the reader, not the
//! file's name nor how standard input arrives; a game that names no ruleset takes the one its
//! file's text shows, and a file whose games name none gets one finding.

use crate::bin;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Runs `arbiter ARGS` with `stdin` written in pieces of `piece` bytes (so a reader that
/// looks at its first read only would see a few bytes), else an empty stdin; (exit code,
/// stdout).
fn run(args: &[&str], stdin: Option<(&[u8], usize)>) -> (i32, String) {
    let (bytes, piece) = stdin.unwrap_or((b"", 1));
    let run = bin::arbiter(args)
        .stdin_in_pieces(bytes, piece)
        .stderr(Stdio::null())
        .run();
    (run.code, run.stdout)
}

fn games(stdout: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    doc["games"].as_array().expect("games").clone()
}

fn codes(game: &Value) -> Vec<&str> {
    game["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["code"].as_str().expect("code"))
        .collect()
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("content");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("written");
    path
}

/// A Gravon record of Duel (Gravon writes it `classic`): ten pieces a side, a Scout move each.
fn duel_xml() -> String {
    let field = format!(
        "MBBCDDEEKL{}AA__AA__AAAA__AA__AA{}YNNOPPQQWX",
        "A".repeat(30),
        "A".repeat(30)
    );
    format!(
        "<stratego>\n <game type=\"classic\">\n  <field content=\"{field}\"/>\n  \
         <move id=\"1\" source=\"E1\" target=\"E2\"/>\n  \
         <move id=\"2\" source=\"E:\" target=\"E9\"/>\n </game>\n</stratego>\n"
    )
}

#[test]
fn gravon_after_a_long_prolog_is_gravon_by_any_name_and_on_standard_input() {
    let clean = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gravon/classic-clean.xml"),
    )
    .expect("fixture");
    let body = clean
        .split_once("<stratego>")
        .expect("a stratego element")
        .1;
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<!DOCTYPE stratego>\n{}<stratego>{body}",
        " \n".repeat(8000)
    );
    let path = scratch("not-xml-by-name.arb", xml.as_bytes());
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}");
    let g = games(&out);
    assert_eq!(
        (g[0]["game"].as_str(), g[0]["plies"].as_u64()),
        (Some("stratego"), Some(33))
    );
    // The same bytes on standard input, written seven bytes at a time.
    let (code, out) = run(
        &["check", "--format", "json", "-"],
        Some((xml.as_bytes(), 7)),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(games(&out)[0]["plies"], 33);
}

#[test]
fn game_duel_applies_to_a_gravon_record_on_standard_input() {
    let xml = duel_xml();
    // Without a duell- file name, classic is Stratego: ten pieces a side do not fill its setup.
    let (code, out) = run(
        &["check", "--format", "json", "-"],
        Some((xml.as_bytes(), 4096)),
    );
    assert_eq!(code, 1, "{out}");
    let g = &games(&out)[0];
    assert_eq!(g["game"], "stratego");
    assert!(codes(g).contains(&"setup-invalid"), "{g}");
    let args = ["check", "--format", "json", "--game", "duel", "-"];
    let (code, out) = run(&args, Some((xml.as_bytes(), 4096)));
    assert_eq!(code, 0, "{out}");
    let g = &games(&out)[0];
    assert_eq!(
        (g["game"].as_str(), g["plies"].as_u64()),
        (Some("duel"), Some(2))
    );
    // A duell- file name says Duel by itself.
    let path = scratch("duell-1.xml", xml.as_bytes());
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!((code, games(&out)[0]["game"].as_str()), (0, Some("duel")));
}

#[test]
fn an_xqbase_file_is_xiangqi_and_unnamed_games_get_one_finding_a_file() {
    let xq = b"[Event \"x\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n[Event \"y\"]\n\n1. b2e2 *\n";
    let path = scratch("xqbase.txt", xq);
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}");
    let g = games(&out);
    assert_eq!(g.len(), 2);
    assert!(g.iter().all(|g| g["game"] == "xiangqi"), "{out}");
    let unnamed =
        b"[Event \"a\"]\n1. a4-a5 *\n\n[Event \"b\"]\n1. a4-a5 *\n\n[Event \"c\"]\n1. b4-b5 *\n";
    let path = scratch("unnamed.arb", unnamed);
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 2, "{out}");
    let g = games(&out);
    let per_game: Vec<Vec<&str>> = g.iter().map(codes).collect();
    assert_eq!(per_game, vec![vec!["parse-error"], vec![], vec![]]);
    assert!(g.iter().all(|g| g["game"].is_null()), "none is judged");
}

/// A layhenghok Jungle save (its own format: players, ply count, move lines, the final
/// position) and a UCC 2012 judge's log, by names that say nothing: `check` reads them,
/// `convert` writes native logs that check the same.
#[test]
fn the_jungle_and_ucc_importers_read_files_by_content() {
    let jungle = "hu ai ha\n2\nbl 48 41\nre 20 19\nbl\n**  **\nnormal 60\n";
    let ucc = format!(
        "x/red/r RED SETUP\n{}x/blue/b BLUE SETUP\n{}1 RED: 1 3 DOWN OK\n1 BLU: 9 6 UP OK\n\
         Game ends on RED's turn - REASON: SIGPIPE - Broken pipe (AI program no longer running)\n",
        "FB8sB979B8\nBB99555583\n6724898974\nB314676699\n",
        "994s951799\n5684599536\n98B2683B84\n7B7B76BFB8\n"
    );
    // A directory walk takes them by content too, and leaves other files alone.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("content-walk");
    std::fs::create_dir_all(&dir).expect("walk directory");
    std::fs::write(dir.join("save.dat"), jungle).expect("written");
    std::fs::write(dir.join("judge"), &ucc).expect("written");
    std::fs::write(dir.join("notes.txt"), "not a game\n").expect("written");
    let (code, out) = run(&["check", "--format", "json", dir.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}");
    let found = games(&out);
    let walked: Vec<&str> = found
        .iter()
        .map(|g| g["game"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(
        walked,
        ["stratego", "jungle"],
        "judge, then save.dat, by name"
    );
    for (name, text, game, plies) in [
        ("save.dat", jungle.to_string(), "jungle", 2),
        ("judge.log", ucc, "stratego", 2),
    ] {
        let path = scratch(name, text.as_bytes());
        let p = path.to_str().unwrap();
        let (code, out) = run(&["check", "--format", "json", p], None);
        assert_eq!(code, 0, "{name}: {out}");
        let g = &games(&out)[0];
        assert_eq!(
            (g["game"].as_str(), g["plies"].as_u64()),
            (Some(game), Some(plies))
        );
        let (code, native) = run(&["convert", p], None);
        assert_eq!(code, 0, "{name}");
        let back = scratch(&format!("{name}.arb"), native.as_bytes());
        let (_, again) = run(&["check", "--format", "json", back.to_str().unwrap()], None);
        let h = &games(&again)[0];
        assert_eq!(
            (&h["plies"], &h["outcome"], codes(h)),
            (&g["plies"], &g["outcome"], codes(g)),
            "{name}: converted\n{native}"
        );
    }
}

/// A Chinese record in GB2312 (炮二平五 马８进７): read as GB18030, spans in bytes of the file.
#[test]
fn a_gb2312_record_is_decoded() {
    let mut bytes = b"[Game \"Chinese Chess\"]\n[Event \"".to_vec();
    bytes.extend_from_slice(b"\xc8\xfc"); // 赛
    bytes.extend_from_slice(b"\"]\n\n1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5 ");
    bytes.extend_from_slice(b"\xc2\xed\xa3\xb8\xbd\xf8\xa3\xb7 *\n"); // 马８进７
    let path = scratch("gb.pgn", &bytes);
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}");
    let g = &games(&out)[0];
    assert_eq!(g["plies"], 2);
    let f = &g["findings"][0];
    assert_eq!(f["code"], "record-defect");
    // The first byte that is not ASCII: `[Game "Chinese Chess"]\n[Event "` is 31 bytes.
    assert_eq!(
        (f["offset"].as_u64(), f["line"].as_u64()),
        (Some(31), Some(2))
    );
}

/// A native log that mentions DhtmlXQ in its opening comment is a native log: its game is
/// judged (the demo's two-squares error, exit 1) and `convert` keeps it, where the whole
/// file was once read as an empty DhtmlXQ game (0 plies, exit 0, convert wrote an empty
/// game).
#[test]
fn a_native_log_that_mentions_dhtmlxq_is_read_as_native() {
    let demo = std::fs::read_to_string("demo/barrage-two-squares.arb").expect("demo");
    let text = format!("; converted from the viewer's [DhtmlXQ] record\n{demo}");
    let path = scratch("mentions-dhtmlxq.arb", text.as_bytes());
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    let g = &games(&out)[0];
    assert_eq!(
        (g["game"].as_str(), g["plies"].as_u64()),
        (Some("barrage"), Some(8))
    );
    assert_eq!(codes(g), ["two-squares-rule"]);
    let (code, out) = run(&["convert", path.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("[Game \"barrage\"]") && out.contains("c9-c10"),
        "{out}"
    );
}

/// A native log appended to a Gravon file is its own games, judged: its two-squares error
/// (line 73 of the joined file) was once skipped as text of the Gravon game, a warning, and
/// the run exited 0.
#[test]
fn a_native_log_after_a_gravon_file_is_judged() {
    let xml = std::fs::read_to_string("fixtures/gravon/classic-clean.xml").expect("fixture");
    let demo = std::fs::read_to_string("demo/barrage-two-squares.arb").expect("demo");
    let path = scratch("gravon-then-native.xml", format!("{xml}{demo}").as_bytes());
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    let games = games(&out);
    assert_eq!(games.len(), 2);
    assert_eq!(codes(&games[0]), Vec::<&str>::new(), "nothing skipped");
    assert_eq!(
        (games[1]["game"].as_str(), games[1]["plies"].as_u64()),
        (Some("barrage"), Some(8))
    );
    assert_eq!(codes(&games[1]), ["two-squares-rule"]);
    let f = &games[1]["findings"][0];
    let line = xml.lines().count()
        + demo
            .lines()
            .position(|l| l.starts_with("1. j1-j2"))
            .unwrap()
        + 1;
    assert_eq!(f["line"].as_u64(), Some(line as u64));
    let offset = xml.len() + demo.rfind("c9-c10").unwrap();
    assert_eq!(f["offset"].as_u64(), Some(offset as u64));
}

/// A native log appended to a Gravon file that ends without a line break (as every Gravon
/// file of the corpus does) is its own game too, whether it opens with its `;` comments or
/// its first tag pair: it was skipped as text of the Gravon game, a warning, exit 0.
#[test]
fn a_native_log_right_after_a_gravon_end_tag_is_judged() {
    let xml = std::fs::read_to_string("fixtures/gravon/classic-clean.xml").expect("fixture");
    let demo = std::fs::read_to_string("demo/barrage-two-squares.arb").expect("demo");
    let tags_first = &demo[demo.find("[Game").expect("a Game tag")..];
    let joints = [("", demo.as_str()), ("", tags_first), ("\r", tags_first)];
    for (i, (joint, log)) in joints.into_iter().enumerate() {
        let text = format!("{}{joint}{log}", xml.trim_end());
        let path = scratch(&format!("gravon-no-newline-{i}.xml"), text.as_bytes());
        let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
        assert_eq!(code, 1, "{out}");
        let games = games(&out);
        assert_eq!(games.len(), 2, "{out}");
        assert_eq!(codes(&games[0]), Vec::<&str>::new(), "nothing skipped");
        assert_eq!(codes(&games[1]), ["two-squares-rule"]);
        assert_eq!(games[1]["plies"].as_u64(), Some(8));
    }
}

/// A Gravon file cut short between two games reads as whole games: the last one read says
/// the file ends before its root element closes (a warning: what was read is judged, exit
/// 0), from a file and from standard input. A file cut inside a game gets that game's
/// `parse-error` only.
#[test]
fn a_gravon_file_cut_between_games_says_so() {
    let xml = std::fs::read_to_string("fixtures/gravon/classic-clean.xml").expect("fixture");
    let end = xml.find("</game>").expect("a game") + "</game>".len();
    let cut = &xml[..end];
    let path = scratch("gravon-cut.xml", cut.as_bytes());
    let file = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    let stdin = run(
        &["check", "--format", "json", "-"],
        Some((cut.as_bytes(), 100)),
    );
    // The game's end tag written with white space in it.
    let spaced_end = cut.replace("</game>", "</game >");
    let path = scratch("gravon-cut-spaced.xml", spaced_end.as_bytes());
    let spaced = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    for (code, out) in [file, stdin, spaced] {
        assert_eq!(code, 0, "{out}");
        let games = games(&out);
        assert_eq!(games.len(), 1, "{out}");
        assert_eq!(codes(&games[0]), ["record-defect"], "{out}");
        let f = &games[0]["findings"][0];
        assert_eq!(
            f["message"].as_str(),
            Some("the file ends before its <stratego> element is closed")
        );
        assert_eq!(f["offset"].as_u64(), Some((end - "</game>".len()) as u64));
        assert_eq!(games[0]["plies"].as_u64(), Some(33));
    }
    // Whole files: an end tag with white space in it, a bare <game> root whose prolog names
    // <stratego> in a comment, a comment after the root that names </game>.
    let spaced = xml.replace("</stratego>", "</stratego\n >");
    let game_root = format!(
        "<!-- <stratego> -->\n{}",
        &xml[xml.find("<game").unwrap()..end]
    );
    let comment_after = format!("{}<!-- the end of </game> -->", xml.trim_end());
    for (i, whole) in [spaced, game_root, comment_after].iter().enumerate() {
        let path = scratch(&format!("gravon-whole-{i}.xml"), whole.as_bytes());
        let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
        assert_eq!(code, 0, "{out}");
        assert_eq!(codes(&games(&out)[0]), Vec::<&str>::new(), "{out}");
    }
    let inside = scratch("gravon-cut-inside.xml", &xml.as_bytes()[..end - 30]);
    let (code, out) = run(
        &["check", "--format", "json", inside.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 2, "{out}");
    assert_eq!(codes(&games(&out)[0]), ["parse-error"], "{out}");
}

/// A native log after a web page that holds a DhtmlXQ record is its own game: it was
/// neither judged nor mentioned (exit 0). Text of the page itself is never read as a log.
#[test]
fn a_native_log_after_a_dhtmlxq_page_is_judged() {
    let page = std::fs::read_to_string("fixtures/dhtmlxq/variation-illegal.html").expect("page");
    let demo = std::fs::read_to_string("demo/barrage-two-squares.arb").expect("demo");
    let alone = scratch("dhtmlxq-page.html", page.as_bytes());
    let (_, out) = run(
        &["check", "--format", "json", alone.to_str().unwrap()],
        None,
    );
    let page_codes: Vec<String> = codes(&games(&out)[0])
        .iter()
        .map(|c| c.to_string())
        .collect();
    let path = scratch(
        "dhtmlxq-then-native.html",
        format!("{page}{demo}").as_bytes(),
    );
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    let both = games(&out);
    assert_eq!(both.len(), 2, "{out}");
    assert_eq!(codes(&both[0]), page_codes, "the page's game as alone");
    assert_eq!(codes(&both[1]), ["two-squares-rule"]);
    assert_eq!(both[1]["plies"].as_u64(), Some(8));
    // A page without `</html>`: a tag-like line of its text is no log.
    let cut = page.rfind("</html>").expect("the page's end");
    let text = format!(
        "{}[Event \"Club final\"]\n<p>more of the page</p>\n",
        &page[..cut]
    );
    let path = scratch("dhtmlxq-page-no-end.html", text.as_bytes());
    let (_, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(games(&out).len(), 1, "{out}");
}

/// A native log appended to a UCC judge's log is its own game, judged, from its opening
/// comment on: it was kept as the judge's other lines (comments of the UCC game), its error
/// lost, exit 0.
#[test]
fn a_native_log_after_a_judge_s_log_is_judged() {
    let ucc = UCC;
    let demo = std::fs::read_to_string("demo/barrage-two-squares.arb").expect("demo");
    let path = scratch("judge-then-native.txt", format!("{ucc}{demo}").as_bytes());
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    let games = games(&out);
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0]["game"].as_str(), games[0]["plies"].as_u64()),
        (Some("stratego"), Some(2))
    );
    assert_eq!(codes(&games[1]), ["two-squares-rule"]);
    let offset = ucc.len() + demo.rfind("c9-c10").unwrap();
    assert_eq!(
        games[1]["findings"][0]["offset"].as_u64(),
        Some(offset as u64)
    );
    let (_, converted) = run(&["convert", path.to_str().unwrap()], None);
    assert_eq!(
        converted.matches("[Game \"barrage\"]").count(),
        1,
        "{converted}"
    );
}

/// A short UCC 2012 judge's log: the setups and two plies.
const UCC: &str = "a/red/r RED SETUP\nFB8sB979B8\nBB99555583\n6724898974\nB314676699\n\
    b/blue/b BLUE SETUP\n994s951799\n5684599536\n98B2683B84\n7B7B76BFB8\n\
    1 RED: 9 3 DOWN OK\n1 BLU: 8 6 UP 2 OK\n";

/// A native log between two judge's logs is its own game, between theirs: it was kept as
/// the first log's other lines, its error lost.
#[test]
fn a_native_log_between_two_judge_s_logs_is_judged() {
    let demo = std::fs::read_to_string("demo/barrage-two-squares.arb").expect("demo");
    let path = scratch(
        "judge-native-judge.txt",
        format!("{UCC}{demo}{UCC}").as_bytes(),
    );
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    let games = games(&out);
    let rulesets: Vec<_> = games.iter().map(|g| g["game"].as_str()).collect();
    assert_eq!(
        rulesets,
        [Some("stratego"), Some("barrage"), Some("stratego")]
    );
    assert_eq!(codes(&games[1]), ["two-squares-rule"]);
}

/// A tag line inside an XML comment after a Gravon game is XML: the file is one clean game,
/// where it once got a second game refused as "no Gravon game in it".
#[test]
fn a_tag_line_in_an_xml_comment_stays_xml() {
    let xml = std::fs::read_to_string("fixtures/gravon/classic-clean.xml").expect("fixture");
    let text = xml.replace(
        "</stratego>",
        "<!-- exported from\n[Site \"gravon.de\"]\n-->\n</stratego>",
    );
    assert_ne!(text, xml);
    let path = scratch("gravon-comment-tag.xml", text.as_bytes());
    let (code, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}");
    let games = games(&out);
    assert_eq!(games.len(), 1);
    assert!(codes(&games[0]).is_empty(), "{:?}", codes(&games[0]));
}

/// A judge's log whose 150 turn numbers are all wrong lists the first 100 and counts the rest
/// in one finding, which comes after them: its UCC defects name their plies, and the count,
/// with none, once sorted before them all.
#[test]
fn a_judge_s_log_lists_its_defect_count_after_the_hundred() {
    let (setups, _) = UCC.split_at(UCC.find("1 RED:").unwrap());
    let turns: String = (0..75)
        .map(|_| "7 RED: 9 3 DOWN OK\n9 BLU: 8 6 UP OK\n")
        .collect();
    let path = scratch("ucc-defects.txt", format!("{setups}{turns}").as_bytes());
    let (_, out) = run(&["check", "--format", "json", path.to_str().unwrap()], None);
    let games = games(&out);
    let defects: Vec<&Value> = games[0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "record-defect")
        .collect();
    assert_eq!(defects.len(), 101, "{out}");
    let last = defects[100];
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .ends_with("(only the first 100 are listed)"),
        "{last}"
    );
    assert!(last["ply"].as_u64() > defects[99]["ply"].as_u64(), "{last}");
}

/// A log taken up after a ply (`FromPly`, as `convert --from-ply` writes it) names its
/// verdict's ply and move by the game's ply numbers: the verdict once named the log's 6th move
/// for ply 6 (its 4th), and said "the game cannot start" with no reason when a later move
/// could not be played.
#[test]
fn a_log_taken_up_later_names_its_verdict_s_ply_and_move() {
    let head = "[Game \"barrage\"]\n[Result \"*\"]\n[Position \"red\"]\n[FromPly \"4\"]\n\nsetup red\n  3 .......X..\n  1 FBS2239...\n\nsetup blue\n 10 FBS2239...\n  8 ........X.\n\n";
    let log = format!("{head}1. h3-h4 i8-i7 2. h4-h6 i7-i6 *\n");
    let stopped = scratch("from-ply-stopped.arb", log.as_bytes());
    let (code, out) = run(&["check", stopped.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    let want = "verdict: judged up to ply 6 only: ply 7 (2. h4-h6) cannot be played (illegal-move: h6 is a lake)";
    assert!(out.contains(want), "{out}");
    // The flag is captured on ply 6 (a5xa4), the log's 4th move; plies 7 and 8 come after.
    let (code, taken_up) = run(
        &[
            "convert",
            "--from-ply",
            "2",
            "fixtures/stratego/moves-after-end.arb",
        ],
        None,
    );
    assert_eq!(code, 0, "{taken_up}");
    let ended = scratch("from-ply-ended.arb", taken_up.as_bytes());
    let (_, out) = run(&["check", ended.to_str().unwrap()], None);
    let want =
        "verdict: Blue wins: Red's Flag is captured (flag-captured) on ply 6 (2... a5xa4(5:F))";
    assert!(out.contains(want), "{out}");
}
